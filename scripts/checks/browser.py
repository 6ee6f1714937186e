#!/usr/bin/env python3
"""`make browser-check`: the pages in headless Chromium, driven over the DevTools protocol.

Builds feed-server, serves Public/ on a free loopback port, and checks that
/feed, /feed?sections=credit-score,balances, /day and /day?date=2026-11-03
render exactly the expected sections, in order, with no JavaScript exception
or console error, and fit 360 px wide. Then clicks through the framework's page script: adds
and removes sections in place on /feed and /day, and checks that reloading the
new URL renders the page the script made (same sections, links, form fields,
picker and canonical URL), and that picking another day keeps the sections.
Every page (and an error page) is also checked with axe-core for WCAG 2.1 AA:
any serious or critical violation fails. With the keyboard: removing a card
moves focus to the card that took its place, adding one to the new card, and
a double click on a Remove link removes one card, not two.
Screenshots go to .build/browser-check/. Exits non-zero if any check fails.

Needs chromium (Debian package), websocket-client and axe-selenium-python (PyPI,
for the axe-core script it ships; Selenium itself is not used); `make
browser-check` installs them when missing. Environment: SWIFT (default swift), CHROMIUM.
"""
import importlib.util, json, os, shutil, signal, subprocess, sys, tempfile, time

from checks import harness
import websocket  # noqa: E402  (websocket-client)
from checks.devtools import DevTools, Failure, http_get, wait_until
from checks.harness import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = os.path.join(ROOT, ".build", "browser-check")
FEED = ["balances", "alerts", "credit-score"]
DAY = ["calendar", "summary", "sleep", "workout"]

# Everything a check compares, read from the live DOM. Hrefs are read as
# path+query so links set by the script and links rendered by the server compare equal.
SNAPSHOT_JS = """(() => {
  const path = (href) => { const u = new URL(href, location.href); return u.pathname + u.search; };
  const stack = document.getElementById("stack");
  const cards = stack ? [...stack.querySelectorAll(":scope > section[data-section]")] : [];
  const canonical = document.querySelector('link[rel="canonical"]');
  return {
    url: path(location.href),
    sections: cards.map((s) => s.dataset.section),
    removes: Object.fromEntries(cards.map((s) => {
      const a = s.querySelector('a[data-section-action="remove"]');
      return [s.dataset.section, a ? path(a.href) : null];
    })),
    picker: [...document.querySelectorAll('nav.section-picker a[data-section-action="add"]')]
      .map((a) => [a.dataset.section, path(a.href), a.textContent]),
    links: stack ? [...stack.querySelectorAll("a[href]:not([data-section-action])")].map((a) => path(a.href)) : [],
    fields: stack ? [...stack.querySelectorAll("input[type=hidden]")].map((i) => i.name + "=" + i.value) : [],
    canonical: canonical ? path(canonical.href) : null,
  };
})()"""


def axe_source():
    """axe-core's script, as the PyPI package axe-selenium-python ships it."""
    spec = importlib.util.find_spec("axe_selenium_python")
    if spec is None or not spec.submodule_search_locations:
        raise Failure("axe-selenium-python is not installed (make browser-deps installs it)")
    path = os.path.join(list(spec.submodule_search_locations)[0], "node_modules", "axe-core", "axe.min.js")
    with open(path, encoding="utf-8") as f:
        return f.read()


class Report:
    def __init__(self):
        self.lines, self.failed = [], 0

    def check(self, name, ok, detail=""):
        self.lines.append(("ok  " if ok else "FAIL") + "  " + name + ("" if ok or not detail else f": {detail}"))
        self.failed += not ok
        print(self.lines[-1], flush=True)
        return ok


def check_page(dt, report, base, path, expected, shot, narrow=False):
    dt.errors.clear()
    dt.navigate(base + path)
    got = dt.evaluate(SNAPSHOT_JS)["sections"]
    report.check(f"{path} shows {','.join(expected)}", got == expected, f"found {','.join(got) or 'no sections'}")
    dt.screenshot(os.path.join(SHOTS, shot + ".png"))
    if narrow:  # as on phones, 360 and 390 px wide, in both themes: nothing may stick out sideways
        for scheme in ("light", "dark"):
            set_scheme(dt, scheme)
            for phone in (360, 390):
                dt.viewport(phone, 1600)
                dt.screenshot(os.path.join(SHOTS, f"{shot}-{phone}" + ("-dark" if scheme == "dark" else "") + ".png"))
                width = dt.evaluate("document.documentElement.scrollWidth")
                report.check(f"{path} at {phone} px wide, {scheme}: nothing wider than the screen", width <= phone, f"page is {width} px wide")
        set_scheme(dt, "light")
        dt.viewport(1200, 1600)
    report.check(f"{path} has no JavaScript errors", not dt.errors, "; ".join(dt.errors))


def set_scheme(dt, scheme):
    """Emulates the visitor's colour scheme (prefers-color-scheme): light or dark."""
    dt.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": scheme}])


def check_accessibility(dt, report, path, axe):
    """axe-core's WCAG 2.1 AA rules on the page as loaded: serious and critical violations fail."""
    dt.evaluate(axe)  # DevTools evaluation is not subject to the page's Content-Security-Policy
    violations = dt.evaluate("""axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa", "best-practice"]},
                                                   resultTypes: ["violations"]})
      .then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
                                             where: v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join("; ")})))""")
    grave = [v for v in violations if v["impact"] in ("serious", "critical")]
    report.check(f"{path}: no serious or critical accessibility violation (axe-core)", not grave,
                 "; ".join(f"{v['id']} ({v['impact']}, {v['nodes']}x: {v['where']})" for v in grave))
    for v in violations:
        if v not in grave:
            print(f"note  {path}: axe-core {v['impact']}: {v['id']} ({v['nodes']}x: {v['where']})", flush=True)


def check_keyboard(dt, report, base):
    """Remove and add with the keyboard; focus must land on the card that is now where the change was."""
    dt.navigate(base + "/feed")
    dt.evaluate("""document.querySelector('#section-alerts a[data-section-action="remove"]').focus()""")
    dt.press_enter()
    wait_until("alerts to be removed", lambda: dt.evaluate(SNAPSHOT_JS)["sections"] == ["balances", "credit-score"], timeout=5)
    focused = dt.evaluate("document.activeElement.id")
    report.check("keyboard: after removing alerts, focus is on credit score's heading", focused == "credit-score-title",
                 f"focus is on {focused or dt.evaluate('document.activeElement.tagName')}")
    time.sleep(0.5)  # past the pause after a change, when links take clicks again
    dt.evaluate("""document.querySelector('nav.section-picker a[data-section="checkup"]').focus()""")
    dt.press_enter()
    wait_until("checkup to be added", lambda: "checkup" in dt.evaluate(SNAPSHOT_JS)["sections"], timeout=5)
    focused = dt.evaluate("document.activeElement.id")
    report.check("keyboard: after adding checkup, focus is on its heading", focused == "checkup-title",
                 f"focus is on {focused or dt.evaluate('document.activeElement.tagName')}")
    dt.screenshot(os.path.join(SHOTS, "feed-keyboard-focus.png"))


def check_double_click(dt, report, base):
    dt.navigate(base + "/feed")
    dt.double_click('#section-balances a[data-section-action="remove"]')
    time.sleep(0.8)
    got = dt.evaluate(SNAPSHOT_JS)["sections"]
    report.check("double click on Remove removes one card", got == ["alerts", "credit-score"], f"found {','.join(got)}")


def submit_sign_in(dt):
    """Fills the sign-in form on the page as Alex and sends it; returns once the next page has loaded."""
    dt.evaluate("""document.getElementById("signin-name").value = "alex";
                   document.getElementById("signin-password").value = "%s";""" % harness.DEMO_USERS["alex"])
    dt.events.clear()
    dt.click(".signin form button")
    dt.wait_event("Page.loadEventFired")


def check_sign_in(dt, report, base):
    """A visitor without a session lands on the form, signs in as a demo user, and is sent to the feed."""
    dt.errors.clear()
    dt.navigate(base + "/feed")
    url = dt.evaluate("location.pathname + location.search")
    report.check("/feed without a session shows the sign-in form", url == "/signin?next=/feed", f"found {url}")
    dt.screenshot(os.path.join(SHOTS, "signin.png"))
    names = dt.evaluate("[...document.querySelectorAll('.demo-users strong')].map((e) => e.textContent)")
    report.check("the sign-in page names the demo users", "alex" in names, f"found {names}")
    check_accessibility(dt, report, "/signin", axe_source())
    submit_sign_in(dt)
    url = dt.evaluate("location.pathname + location.search")
    who = dt.evaluate("(document.querySelector('.signed-in-as') || {}).textContent")
    report.check("signing in leads to /feed, signed in as Alex", url == "/feed" and who == "Alex O'Brien", f"at {url} as {who}")
    report.check("sign-in: no JavaScript errors", not dt.errors, "; ".join(dt.errors))


ALERTS_JS = "[...document.querySelectorAll('#section-alerts li.alert strong')].map((e) => e.textContent)"


def check_dismiss(dt, report, base):
    """Dismiss posts in place: the card refreshes, the page stays, focus stays in the card; reload agrees."""
    dt.errors.clear()
    dt.navigate(base + "/feed")
    before = dt.evaluate(ALERTS_JS)
    dt.evaluate("window.__sameDocument = true")
    dt.click("#section-alerts li.alert form button")
    try:
        wait_until("the alert to go", lambda: len(dt.evaluate(ALERTS_JS)) == len(before) - 1, timeout=5)
    except Failure:
        pass
    after = dt.evaluate(ALERTS_JS)
    dt.screenshot(os.path.join(SHOTS, "feed-5-dismissed.png"))
    report.check("dismiss: the first alert is gone from the card", after == before[1:], f"before {before}, after {after}")
    report.check("dismiss: posted in place, no page load", dt.evaluate("window.__sameDocument === true"))
    focus = dt.evaluate("document.activeElement.closest('#section-alerts') !== null")
    report.check("dismiss: focus stays in the alerts card", focus is True)
    dt.navigate()
    report.check("dismiss: a reload shows the same alerts", dt.evaluate(ALERTS_JS) == after, f"found {dt.evaluate(ALERTS_JS)}")
    dt.evaluate("window.__sameDocument = true")
    dt.click("#section-alerts form[action='/feed/alerts/restore'] button")
    try:
        wait_until("the alert to come back", lambda: len(dt.evaluate(ALERTS_JS)) == len(before), timeout=5)
    except Failure:
        pass
    report.check("restore: every alert is back", sorted(dt.evaluate(ALERTS_JS)) == sorted(before), f"found {dt.evaluate(ALERTS_JS)}")
    report.check("dismiss and restore: no JavaScript errors", not dt.errors, "; ".join(dt.errors))


# Counts a page's event streams: added to each new document before its own scripts run.
COUNT_STREAMS_JS = """(() => {
  const Original = window.EventSource;
  if (!Original) return;
  const sources = [];
  window.__openStreams = () => sources.filter((source) => source.readyState !== Original.CLOSED).length;
  window.EventSource = class extends Original { constructor(...args) { super(...args); sources.push(this); } };
})()"""


def streams_open(*pages):
    """The event streams the pages hold open, in all."""
    return sum(page.evaluate("window.__openStreams ? window.__openStreams() : 0") for page in pages)


def check_live_windows(dt, report, base, debug_port):
    """Eight tabs of one user and a window of another's. The eight share one event stream; a dismissal in
    the first reaches the seven others within a second and is announced once (read from the accessibility
    tree), focus staying where it was; the other user's window does not change; closing the tab that holds
    the stream hands it to another."""
    browser = DevTools(json.loads(http_get(f"http://127.0.0.1:{debug_port}/json/version"))["webSocketDebuggerUrl"])

    def window(url, context=None):
        params = {"url": "about:blank"} if context is None else {"url": "about:blank", "browserContextId": context}
        target = browser.send("Target.createTarget", **params)["targetId"]
        page = DevTools(f"ws://127.0.0.1:{debug_port}/devtools/page/{target}")
        for domain in ("Page", "Runtime"):
            page.send(domain + ".enable")
        page.send("Page.addScriptToEvaluateOnNewDocument", source=COUNT_STREAMS_JS)
        page.navigate(url)
        return page

    def alerts(page):
        return page.evaluate(ALERTS_JS)

    def dismiss_first_in(page, tabs):
        """Dismisses the first alert in `page`; how long until every tab of `tabs` dropped it (None: some never did)."""
        counts = [len(alerts(tab)) for tab in tabs]
        page.click("#section-alerts li.alert form button")
        start = time.monotonic()
        try:
            wait_until("every tab to drop the alert", lambda: all(len(alerts(t)) == c - 1 for t, c in zip(tabs, counts)), timeout=3)
        except Failure:
            return None
        return time.monotonic() - start

    def restore_in(page, tabs):
        page.navigate(base + "/feed")
        page.click("#section-alerts form[action='/feed/alerts/restore'] button")
        wait_until("the alerts to come back in every tab", lambda: len({len(alerts(t)) for t in tabs + [page]}) == 1, timeout=5)

    dt.send("Page.addScriptToEvaluateOnNewDocument", source=COUNT_STREAMS_JS)
    dt.navigate(base + "/feed")
    tabs = [window(base + "/feed") for _ in range(7)]  # the same profile: signed in as Alex too
    for tab in tabs:
        wait_until("a tab's alerts", lambda: len(alerts(tab)) > 0, timeout=10)
    other = window(base + "/signin", browser.send("Target.createBrowserContext")["browserContextId"])
    wait_until("the other user's sign-in form", lambda: other.evaluate("!!document.getElementById('signin-name')"), timeout=10)
    other.evaluate("""document.getElementById("signin-name").value = "sam";
                      document.getElementById("signin-password").value = "%s";
                      document.querySelector(".signin form").submit();""" % harness.DEMO_USERS["sam"])
    wait_until("Sam's feed", lambda: len(alerts(other)) > 0, timeout=10)
    # Every window's event stream opens (the leader's after its lock and the other tabs' answers), then
    # a moment more: a second stream opened late would show in the count.
    wait_until("the streams to open", lambda: streams_open(dt, *tabs) >= 1 and streams_open(other) >= 1, timeout=10)
    time.sleep(0.5)
    report.check("live: Alex's eight tabs share one stream, Sam's window has its own",
                 streams_open(dt, *tabs) == 1 and streams_open(other) == 1, f"{streams_open(dt, *tabs)} and {streams_open(other)}")

    second = tabs[0]
    # Focus on the second alert's button in another tab: the swap must leave it there.
    focused = second.evaluate("""(() => { const button = document.querySelectorAll('#section-alerts li.alert form button')[1];
                                          button.focus(); return button.closest('form').getAttribute('action'); })()""")
    theirs = alerts(other)
    left = len(alerts(second)) - 1
    took = dismiss_first_in(dt, tabs)
    report.check(f"live: the alert vanished from Alex's seven other tabs within a second ({(took or 0) * 1000:.0f} ms)",
                 took is not None and took < 1, "some tab still shows it")
    now = second.evaluate("document.activeElement.closest('form')?.getAttribute('action') || document.activeElement.tagName")
    report.check("live: focus stayed on the control it was on", now == focused, f"{focused} became {now}")
    expected = f"Alerts updated: {left} alert" + ("" if left == 1 else "s")
    tree = second.send("Accessibility.getFullAXTree")["nodes"]
    said = [node for node in tree if (node.get("name") or {}).get("value", "").startswith("Alerts updated")
            and (node.get("role") or {}).get("value") == "StaticText"]
    report.check("live: the accessibility tree holds one announcement, with what the card now shows",
                 [n["name"]["value"] for n in said] == [expected], f"{[n['name']['value'] for n in said]}")
    region = second.evaluate("(document.querySelector('[data-sectional-announcer=polite]') || {}).getAttribute?.('role') || ''")
    report.check("live: said politely (a status region), as the alerts declare by default", region == "status", region)
    time.sleep(0.5)
    report.check("live: Sam's window did not change", alerts(other) == theirs, f"{theirs} became {alerts(other)}")
    restore_in(dt, tabs)

    # The tab holding the shared stream goes; another takes it over, and a change still reaches every tab.
    wait_until("a tab to hold the stream", lambda: streams_open(dt, *tabs) == 1, timeout=5)
    holder = next((tab for tab in [dt] + tabs if streams_open(tab) == 1), None)
    rest = [tab for tab in [dt] + tabs if tab is not holder]
    if holder is dt:
        dt.navigate("about:blank")
    elif holder is not None:
        holder.send("Page.close")
    wait_until("another tab to take the stream over", lambda: streams_open(*rest) == 1, timeout=5)
    actor = rest[0] if rest[0] is not dt else rest[1]
    took = dismiss_first_in(actor, [tab for tab in rest if tab is not actor and tab is not dt])
    report.check("live: the holder closed, another tab took the stream over and a dismissal still reaches the others",
                 holder is not None and took is not None and took < 1, f"holder {holder is not None}, took {took}")
    restore_in(actor, [tab for tab in rest if tab is not actor and tab is not dt])
    for tab in tabs:
        if tab is not holder:
            tab.send("Page.close")
    dt.navigate(base + "/feed")


def check_layout(dt, report, base):
    """Save a composition as the layout: the bare page then shows it; reset brings the defaults back."""
    dt.navigate(base + "/feed?sections=credit-score,alerts")
    dt.events.clear()
    dt.click(".layout-bar form[action='/feed/layout'] button")
    dt.wait_event("Page.loadEventFired")
    got = dt.evaluate(SNAPSHOT_JS)["sections"]
    dt.screenshot(os.path.join(SHOTS, "feed-6-saved-layout.png"))
    report.check("save layout: /feed shows credit-score,alerts", got == ["credit-score", "alerts"], f"found {','.join(got)}")
    told = dt.evaluate("[document.querySelector('.notice[role=status]')?.textContent || '', location.pathname + location.search]")
    report.check("save layout: a notice says so, once (the address bar drops it)",
                 told[0].startswith("Your layout is saved") and told[1] == "/feed", f"notice {told[0]!r} at {told[1]}")
    dt.events.clear()
    dt.click(".layout-bar form[action='/feed/layout/reset'] button")
    dt.wait_event("Page.loadEventFired")
    got = dt.evaluate(SNAPSHOT_JS)["sections"]
    report.check("reset layout: /feed shows the defaults again", got == FEED, f"found {','.join(got)}")


def check_click(dt, report, step, selector, want_url, want_sections, shot):
    """Clicks an add or remove link, waits for the page script to update the page in place, checks it."""
    dt.errors.clear()
    dt.evaluate("window.__sameDocument = true")  # gone if the click loads a new page
    dt.click(selector)
    try:
        wait_until(f"the page to show {want_url}",
                   lambda: dt.evaluate(SNAPSHOT_JS)["url"] == want_url and dt.evaluate(SNAPSHOT_JS)["sections"] == want_sections, timeout=5)
    except Failure:
        pass  # the checks below say what differs
    state = dt.evaluate(SNAPSHOT_JS)
    dt.screenshot(os.path.join(SHOTS, shot + ".png"))
    report.check(f"{step}: URL is {want_url}", state["url"] == want_url, f"found {state['url']}")
    report.check(f"{step}: sections {','.join(want_sections)}", state["sections"] == want_sections,
                 f"found {','.join(state['sections'])}")
    report.check(f"{step}: updated in place, no page load", dt.evaluate("window.__sameDocument === true"),
                 "the click loaded a new page (the page script fell back to a plain link)")
    report.check(f"{step}: no JavaScript errors", not dt.errors, "; ".join(dt.errors))
    # The page the script made must be the page the server renders for its URL.
    dt.navigate()
    fresh = dt.evaluate(SNAPSHOT_JS)
    dt.screenshot(os.path.join(SHOTS, shot + "-reloaded.png"))
    drift = [k for k in state if state[k] != fresh[k]]
    report.check(f"{step}: reload renders the same page", not drift,
                 "; ".join(f"{k}: script made {state[k]}, server renders {fresh[k]}" for k in drift))
    return state


def run(report, work):
    swift = os.environ.get("SWIFT", "swift")
    print("browser-check: swift build", flush=True)
    build = subprocess.run([swift, "build"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not report.check("swift build", build.returncode == 0, build.stdout[-2000:]):
        return
    binary = subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    shutil.rmtree(SHOTS, ignore_errors=True)  # no screenshot left from an earlier run
    os.makedirs(SHOTS)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(os.path.join(work, "server.log"), "wb") as log:
        server = subprocess.Popen([os.path.join(binary, "feed-server"), "--port", str(port), "--quiet",
                                   "--public", os.path.join(ROOT, "Public"),
                                   "--database", "sqlite:" + os.path.join(work, "feed.sqlite"), "--drain", "0s"],
                                  cwd=ROOT, stdout=log, stderr=log)
    processes.append((server, False))
    wait_until("feed-server /healthz", lambda: server.poll() is None and http_get(base + "/healthz"))

    debug_port = free_port()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "chromium"
    flags = ["--headless", f"--remote-debugging-port={debug_port}", "--remote-debugging-address=127.0.0.1",
             f"--user-data-dir={os.path.join(work, 'profile')}", "--no-first-run", "--no-default-browser-check",
             "--disable-gpu", "--disable-extensions", "--disable-background-networking", "--disable-sync",
             "--hide-scrollbars", "--mute-audio", "--window-size=1200,1600", "about:blank"]
    if os.geteuid() == 0:
        flags.insert(0, "--no-sandbox")
    with open(os.path.join(work, "chromium.log"), "wb") as log:
        browser = subprocess.Popen([chromium] + flags, stdout=log, stderr=log, start_new_session=True)
    processes.append((browser, True))  # Chromium leads a process group of its own helpers
    targets = wait_until("Chromium's DevTools endpoint", lambda: browser.poll() is None and [
        t for t in json.loads(http_get(f"http://127.0.0.1:{debug_port}/json/list")) if t.get("type") == "page"])
    dt = DevTools(targets[0]["webSocketDebuggerUrl"])
    for domain in ("Page", "Runtime", "Log"):
        dt.send(domain + ".enable")
    dt.viewport(1200, 1600)

    # 0. Signing in: /feed sends a new visitor to the sign-in form, which brings them back.
    check_sign_in(dt, report, base)

    # 1. The pages, as the server renders them.
    check_page(dt, report, base, "/feed", FEED, "feed", narrow=True)
    check_page(dt, report, base, "/feed?sections=credit-score,balances", ["credit-score", "balances"], "feed-credit-score-balances")
    check_page(dt, report, base, "/day", DAY, "day", narrow=True)
    check_page(dt, report, base, "/day?date=2026-11-03", DAY, "day-2026-11-03")

    # 2. Adding and removing sections with the page script, on the feed.
    dt.navigate(base + "/feed")
    added = FEED + ["recent-activity"]
    state = check_click(dt, report, "add recent-activity", 'nav.section-picker a[data-section="recent-activity"]',
                        "/feed?sections=" + ",".join(added), added, "feed-1-added-recent-activity")
    report.check("add recent-activity: its card has a remove link",
                 state["removes"].get("recent-activity") == "/feed",  # the rest is the default list
                 f"found {state['removes'].get('recent-activity')}")
    save = dt.evaluate("""(() => {
        const form = document.querySelector(".layout-bar form[action='/feed/layout']");
        return form && !form.closest("[hidden]") ? form.querySelector("input[name=sections]").value : null;
    })()""")
    report.check("add recent-activity: Save is offered at once, for the composition shown",
                 save == ",".join(added), f"found {save!r}")
    report.check("add recent-activity: the picker offers the notices and the check-up, with their links", state["picker"] == [
        ["notices", "/feed?sections=balances,alerts,credit-score,recent-activity,notices", "+ From your bank"],
        ["checkup", "/feed?sections=balances,alerts,credit-score,recent-activity,checkup", "+ Financial check-up"]],
        f"found {state['picker']}")
    kept = ["balances", "credit-score", "recent-activity"]
    check_click(dt, report, "remove alerts", '#section-alerts a[data-section-action="remove"]',
                "/feed?sections=" + ",".join(kept), kept, "feed-2-removed-alerts")
    added = kept + ["checkup"]
    check_click(dt, report, "add checkup", 'nav.section-picker a[data-section="checkup"]',
                "/feed?sections=" + ",".join(added), added, "feed-3-added-checkup")
    kept = ["balances", "credit-score", "checkup"]  # the check-up form must follow
    check_click(dt, report, "remove recent-activity", '#section-recent-activity a[data-section-action="remove"]',
                "/feed?sections=" + ",".join(kept), kept, "feed-4-removed-recent-activity")

    # 3. The day page: remove a section in place; then pick another day, which must keep that choice.
    kept = ["calendar", "summary", "workout"]
    dt.navigate(base + "/day?date=2026-11-03")
    check_click(dt, report, "day: remove sleep", '#section-sleep a[data-section-action="remove"]',
                "/day?date=2026-11-03&sections=" + ",".join(kept), kept, "day-1-removed-sleep")
    dt.navigate(base + "/day?date=2026-11-03")
    dt.click('#section-sleep a[data-section-action="remove"]')
    wait_until("sleep to be removed", lambda: dt.evaluate(SNAPSHOT_JS)["sections"] == kept)
    dt.events.clear()
    dt.click('.calendar a[href*="date=2026-11-04"]')
    wait_until("the day page for 2026-11-04", lambda: "date=2026-11-04" in dt.evaluate(SNAPSHOT_JS)["url"])
    dt.wait_event("Page.loadEventFired")
    got = dt.evaluate(SNAPSHOT_JS)["sections"]
    dt.screenshot(os.path.join(SHOTS, "day-2-picked-2026-11-04.png"))
    report.check("day: picking 2026-11-04 keeps calendar,summary,workout", got == kept, f"found {','.join(got)}")

    # 4. Accessibility: axe-core on every page, then the keyboard and a double click.
    axe = axe_source()
    for path in ("/feed", "/feed?sections=balances,alerts,credit-score,recent-activity,checkup",
                 "/feed?sections=checkup&checkup=emergency-fund:3-5&checkup=retirement:no&checkup=card-balance:full",
                 "/feed?sections=", "/feed?stream=ooo", "/day", "/day?date=9999-12-31", "/feed?sections=nope"):
        dt.navigate(base + path)
        check_accessibility(dt, report, path, axe)
    # The README's pictures of the feed, light and dark, wide and on a phone (docs/feed*.png are copies).
    dt.viewport(1000, 1050)
    for scheme in ("light", "dark"):
        set_scheme(dt, scheme)
        dt.navigate(base + "/feed")
        dt.screenshot(os.path.join(SHOTS, "readme-feed.png" if scheme == "light" else "readme-feed-dark.png"))
    dt.viewport(390, 844)  # and on a phone
    for scheme in ("light", "dark"):
        set_scheme(dt, scheme)
        dt.navigate(base + "/feed")
        dt.screenshot(os.path.join(SHOTS, "readme-feed-phone.png" if scheme == "light" else "readme-feed-phone-dark.png"))
    set_scheme(dt, "light")
    dt.viewport(1200, 1600)
    # The dark theme (prefers-color-scheme): the same checks of contrast and the rest, and a look.
    set_scheme(dt, "dark")
    for path, shot in (("/feed?sections=balances,alerts,credit-score,recent-activity,checkup", "feed-dark"),
                       ("/feed?sections=checkup&checkup=emergency-fund:none&checkup=retirement:no&checkup=card-balance:carry", "feed-checkup-dark"),
                       ("/day", "day-dark"), ("/feed?sections=nope", "error-dark")):
        dt.navigate(base + path)
        dark = dt.evaluate("matchMedia('(prefers-color-scheme: dark)').matches && getComputedStyle(document.documentElement).backgroundColor")
        report.check(f"{path}, dark: the page takes the dark theme", dark == "rgb(15, 19, 26)", f"background {dark}")
        check_accessibility(dt, report, path + " (dark)", axe)
        dt.screenshot(os.path.join(SHOTS, shot + ".png"))
    set_scheme(dt, "light")
    check_keyboard(dt, report, base)
    check_double_click(dt, report, base)

    # 5. Writing: dismiss an alert and bring it back, in place; then save a layout and reset it.
    check_dismiss(dt, report, base)
    check_layout(dt, report, base)
    check_live_windows(dt, report, base, debug_port)

    # 6. Out of order, the layout still reads top to bottom: the heading above the first card.
    dt.navigate(base + "/feed?stream=ooo")
    above = dt.evaluate("""document.querySelector(".page-title").getBoundingClientRect().top
        < document.querySelector("section[data-section]").getBoundingClientRect().top""")
    report.check("/feed?stream=ooo: the page's heading is above its first card", above is True)

    # 7. A section that fell back, and its Try again once the fault has passed.
    check_retry(dt, report, binary, work)

def check_retry(dt, report, binary, work):
    """A section whose load fails offers Try again; once the fault has passed, it brings the card back in place.
    On a server of its own whose recent activity fails its first load (--simulate recent-activity=error:1)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(os.path.join(work, "server-retry.log"), "wb") as log:
        server = subprocess.Popen([os.path.join(binary, "feed-server"), "--port", str(port), "--quiet",
                                   "--public", os.path.join(ROOT, "Public"), "--database", "memory:", "--drain", "0s",
                                   "--simulate", "recent-activity=error:1", "--simulate", "credit-score=delay:800ms"],
                                  cwd=ROOT, stdout=log, stderr=log)
    processes.append((server, False))
    wait_until("the second feed-server /healthz", lambda: server.poll() is None and http_get(base + "/healthz"))
    dt.navigate(base + "/signin?next=/feed%3Fsections%3Drecent-activity")
    submit_sign_in(dt)
    fell_back = dt.evaluate("!!document.querySelector('#section-recent-activity .section-retry a')")
    report.check("a section whose load failed offers Try again", fell_back)
    dt.screenshot(os.path.join(SHOTS, "feed-8-fell-back.png"))
    dt.evaluate("window.__sameDocument = true")
    dt.errors.clear()
    dt.click("#section-recent-activity .section-retry a")
    wait_until("the recent activity to come back", lambda: dt.evaluate(
        "(document.querySelector('#section-recent-activity') || {}).textContent?.includes('Blue Bottle Coffee') || false"), timeout=5)
    report.check("Try again brought the section back in place, the page stayed",
                 dt.evaluate("window.__sameDocument === true && !document.querySelector('.section-retry')"))
    report.check("Try again: no JavaScript errors", not dt.errors, "; ".join(dt.errors))
    check_placeholder(dt, report, base)


def check_placeholder(dt, report, base):
    """Streamed in page order, a card the page waits for (credit score, 0.8 s late) shows a placeholder meanwhile."""
    dt.events.clear()
    dt.send("Page.navigate", url=base + "/feed?sections=balances,credit-score")
    # Any card the page had to wait for has one; those whose card is in are hidden.
    shown = "[...document.querySelectorAll('#stack > .section-placeholder')].filter((p) => p.offsetHeight > 0).map((p) => p.textContent)"
    wait_until("the credit score's placeholder", lambda: dt.evaluate(shown), timeout=5)
    text = ", ".join(dt.evaluate(shown))
    report.check("a streamed card not yet arrived shows a placeholder where it will go", text == "Loading Credit score…", text)
    dt.screenshot(os.path.join(SHOTS, "feed-9-placeholder.png"))
    dt.wait_event("Page.loadEventFired")
    report.check("once the card is in, its placeholder is gone",
                 dt.evaluate("!document.querySelector('.section-placeholder') && !!document.querySelector('#section-credit-score')"))
    # The pictures of streaming in docs/WEB-INTERFACE.md: credit score first on the page, still loading.
    dt.viewport(900, 1100)
    for stream, shot in (("1", "readme-streaming-page-order.png"), ("ooo", "readme-streaming-out-of-order.png")):
        dt.events.clear()
        dt.send("Page.navigate", url=base + f"/feed?sections=balances,credit-score,alerts&stream={stream}")
        wait_until("the credit score's placeholder", lambda: dt.evaluate(
            "!!document.querySelector('#section-balances') && !document.querySelector('#section-credit-score')"), timeout=5)
        time.sleep(0.1)  # the stylesheet applied and painted
        dt.screenshot(os.path.join(SHOTS, shot))
        dt.wait_event("Page.loadEventFired")
    dt.viewport(1200, 1600)


processes = []  # (Popen, leads a process group), stopped at the end whatever happens


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    report = Report()
    work = tempfile.mkdtemp(prefix="browser-check.")
    try:
        run(report, work)
    except (Failure, websocket.WebSocketException, OSError) as error:
        report.check("browser check ran to the end", False, str(error))
        for name in ("server.log", "chromium.log"):
            path = os.path.join(work, name)
            if os.path.exists(path) and os.path.getsize(path):
                print(f"--- last lines of {name}:\n" + open(path, errors="replace").read()[-1500:], file=sys.stderr)
    finally:
        for process, group in reversed(processes):
            if process.poll() is None:
                (os.killpg if group else os.kill)(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(work, ignore_errors=True)
    passed = len(report.lines) - report.failed
    print(f"{passed} passed, {report.failed} failed")
    if report.failed:
        print(f"browser-check: FAILED ({report.failed} failed; screenshots in .build/browser-check/)", file=sys.stderr)
        sys.exit(1)
    print("browser-check: all passed; screenshots in .build/browser-check/")


if __name__ == "__main__":
    main()
