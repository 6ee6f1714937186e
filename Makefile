# Sectional: the two commands a new machine needs are `make run` and `make test`.

SWIFT ?= swift
PORT ?= 8080
# Cross-module optimisation specialises the framework's generics in the app. Without
# type-layout lowering a large value (an element tree's row) is destroyed field by
# field, not through its type's value witnesses: 2 to 3 % fewer instructions a page.
RELEASE_BUILD = $(SWIFT) build -c release --static-swift-stdlib -Xswiftc -cross-module-optimization -Xswiftc -Xfrontend -Xswiftc -disable-type-layout
APT_PACKAGES = libsqlite3-dev sqlite3 libpq-dev libsodium-dev pkg-config curl make gcc
# Packages outside this one that depend on it by path: `make test` builds and tests them too.
EXAMPLES = Examples/ReferencePage Examples/Starter
STARTER = Examples/Starter
STARTER_PORT ?= 8081

.PHONY: run starter dev dev-check test test-deps build release deps clean help

## run: install what is missing, build, serve on localhost:8080 in development, restarted if it traps (PORT=9000 for another port; extra flags: ARGS="...")
run: deps
	$(SWIFT) build
	bash scripts/run-restarting.sh "$$($(SWIFT) build --show-bin-path)/feed-server" --port $(PORT) --environment development $(ARGS)

## starter: build and serve the starter app (Examples/Starter) on localhost:8081/goals, with the user demo (password demo-savings) in a database of its own (STARTER_PORT=9001 for another port)
starter: deps
	cd $(STARTER) && $(SWIFT) build && "$$($(SWIFT) build --show-bin-path)/savings-server" --port $(STARTER_PORT) --database .build/savings.sqlite --demo

## test: install what is missing, build with every warning shown, run all tests (SQLite and a throw-away PostgreSQL), check the benchmark's C server still answers as feed-server does, then the example packages' 
test: deps test-deps
	$(SWIFT) build --build-tests
	bash scripts/with-postgres.sh $(SWIFT) test
	SWIFT="$(SWIFT)" python3 scripts/check.py crash-loop --binary "$$($(SWIFT) build --show-bin-path)/feed-server"
	python3 scripts/check.py metrics --binary "$$($(SWIFT) build --show-bin-path)/feed-server" --public Public
	$(MAKE) --no-print-directory bench-feed-sqlite
	FEED_SQLITE_C="$(FEED_SQLITE_C)" python3 scripts/check.py feed-sqlite --binary "$$($(SWIFT) build --show-bin-path)/feed-server"
	for example in $(EXAMPLES); do $(SWIFT) build --build-tests --package-path $$example && $(SWIFT) test --package-path $$example || exit 1; done

## dev: serve on localhost:8080 in development; on a change under Sources/ or Public/ build and restart (a failed build keeps the last good server), and the open tab reloads itself
dev: deps
	python3 scripts/dev.py --port $(PORT) $(ARGS)

## dev-check: make dev's loop checked: a change restarts the server with a new build, a broken build keeps the last one serving (a few minutes)
dev-check: deps
	python3 scripts/check.py dev

build: deps
	$(SWIFT) build

## release: the optimised binary, as the Docker image builds it
release: deps
	$(RELEASE_BUILD)

## deps: Debian packages the build needs (apt-get as root, else the command to run), and libmicrohttpd 1.0.1 built from Debian's source
deps:
	@if ! pkg-config --exists sqlite3 libpq libsodium 2>/dev/null || ! command -v curl >/dev/null || ! command -v sqlite3 >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing $(APT_PACKAGES)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES); \
		else \
			echo "C libraries are missing. Run: sudo apt-get install -y $(APT_PACKAGES)"; exit 1; \
		fi; \
	fi
	@if ! bash scripts/install-libmicrohttpd.sh --check; then \
		if [ "$$(id -u)" = 0 ]; then \
			bash scripts/install-libmicrohttpd.sh; \
			echo "libmicrohttpd changed: earlier builds start over"; rm -rf .build $(addsuffix /.build,$(EXAMPLES)); \
		else \
			echo "libmicrohttpd 1.0.1 is missing, or installed under its old name. Run: sudo bash scripts/install-libmicrohttpd.sh"; exit 1; \
		fi; \
	fi

# prometheus-client (PyPI) for its text-format parser: check-metrics reads /metrics as Prometheus would.
test-deps:
	@if ! python3 -c 'import prometheus_client' 2>/dev/null; then \
		echo "Installing prometheus-client"; \
		python3 -m pip install -q prometheus-client 2>/dev/null \
		|| python3 -m pip install -q --break-system-packages prometheus-client; \
	fi

clean:
	rm -rf .build $(addsuffix /.build,$(EXAMPLES))

## help: this list: every target with what it does
help:
	@for file in $(MAKEFILE_LIST); do sed -n 's/^## \([a-z-]*\): \(.*\)/\1\t\2/p' "$$file"; done \
		| awk -F '\t' '{ printf "  %-18s %s\n", $$1, $$2 }'

-include make/*.mk
