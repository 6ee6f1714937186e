"""A minimal client of Chromium's DevTools protocol, and the helpers the
browser checks share (`make browser-check`, `make dev-check`). Needs
websocket-client (PyPI)."""
import base64
import json
import time
import urllib.request

import websocket  # websocket-client

from checks.harness import Failure

WAIT = 10.0  # seconds for any one wait


def wait_until(what, probe, timeout=WAIT, interval=0.05):
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = probe()
            if value:
                return value
        except (OSError, ValueError, Failure):
            pass  # not up yet, or the page is between documents
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def http_get(url):
    with urllib.request.urlopen(url, timeout=2) as response:
        return response.read()


class DevTools:
    """A minimal DevTools protocol client for one page target."""

    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=WAIT, suppress_origin=True)
        self.next_id = 0
        self.events = []  # (method, params) not yet consumed
        self.errors = []  # JavaScript exceptions and console errors, as text

    def _receive(self):
        message = json.loads(self.ws.recv())
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            d = params["exceptionDetails"]
            self.errors.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.errors.append("console.error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"]))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            e = params["entry"]
            self.errors.append(f"log: {e.get('text', '')} {e.get('url', '')}".strip())
        if method:
            self.events.append((method, params))
        return message

    def send(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            message = self._receive()
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise Failure(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
        raise Failure(f"no answer to {method}")

    def wait_event(self, method):
        deadline = time.monotonic() + WAIT
        while True:
            for i, (m, _) in enumerate(self.events):
                if m == method:
                    return self.events.pop(i)[1]
            if time.monotonic() > deadline:
                raise Failure(f"timed out waiting for {method}")
            self._receive()

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise Failure(f"evaluating {expression[:60]!r}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def navigate(self, url=None):
        """Loads url (or reloads the page's current URL) and waits for the load event."""
        self.events.clear()
        if url is None:
            self.send("Page.reload", ignoreCache=True)
        else:
            answer = self.send("Page.navigate", url=url)
            if answer.get("errorText"):
                raise Failure(f"loading {url}: {answer['errorText']}")
        self.wait_event("Page.loadEventFired")

    def viewport(self, width, height):
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=width < 600)

    def screenshot(self, path):
        """The page as it looks now, as a PNG file at `path`."""
        data = self.send("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def press_enter(self):
        """Enter on the focused element, as a keyboard user activates a link."""
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter",
                      windowsVirtualKeyCode=13, nativeVirtualKeyCode=13, **({"text": "\r"} if kind == "keyDown" else {}))

    def centre(self, selector):
        """Scrolls the element into view and returns its centre in the viewport."""
        box = self.evaluate(f"""(() => {{
          const el = document.querySelector({json.dumps(selector)});
          if (!el) return null;
          el.scrollIntoView({{block: "center"}});
          const r = el.getBoundingClientRect();
          return {{x: r.x + r.width / 2, y: r.y + r.height / 2}};
        }})()""")
        if not box:
            raise Failure(f"nothing to click: {selector}")
        return box

    def double_click(self, selector):
        """Two quick clicks at the same point: the second lands on whatever is there by then."""
        box = self.centre(selector)
        for count in (1, 2):
            for kind in ("mousePressed", "mouseReleased"):
                self.send("Input.dispatchMouseEvent", type=kind, x=box["x"], y=box["y"], button="left", clickCount=count)
            time.sleep(0.12)

    def click(self, selector):
        """A real left click (mouse events at the element's centre), as a person makes."""
        box = self.centre(selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=box["x"], y=box["y"], button="left", clickCount=1)

