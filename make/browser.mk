# Browser check: the pages in headless Chromium (not part of `make test`).

BROWSER_PYTHON ?= python3

.PHONY: browser-check browser-deps

## browser-check: build, serve, click through /feed and /day in headless Chromium; screenshots in .build/browser-check/
browser-check: deps browser-deps
	SWIFT="$(SWIFT)" $(BROWSER_PYTHON) scripts/check.py browser

## browser-deps: Chromium (Debian), websocket-client and axe-selenium-python (PyPI), when missing
browser-deps:
	@if ! command -v chromium >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing chromium"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
		else \
			echo "chromium is missing. Run: sudo apt-get install -y chromium"; exit 1; \
		fi; \
	fi
	@if ! $(BROWSER_PYTHON) -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("axe_selenium_python") is None)' 2>/dev/null; then \
		echo "Installing axe-selenium-python (for the axe-core script it ships)"; \
		$(BROWSER_PYTHON) -m pip install -q --no-deps axe-selenium-python \
		|| $(BROWSER_PYTHON) -m pip install -q --no-deps --break-system-packages axe-selenium-python; \
	fi
	@if ! $(BROWSER_PYTHON) -c 'import websocket' 2>/dev/null; then \
		echo "Installing websocket-client"; \
		$(BROWSER_PYTHON) -m pip install -q websocket-client \
		|| { [ "$$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-websocket; }; \
	fi
