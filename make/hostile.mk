# Hostile clients and long runs: fuzzing, sanitizers, slow clients, soak.
# Each target installs what it needs (Debian packages, PyPI) and runs on
# loopback only, bounded in time. See scripts/fuzz.sh, sanitize.sh, abuse.py
# and soak.py for what each does and the knobs it takes.

FUZZ_SECONDS ?= 30
SOAK_REQUESTS ?= 1000000

.PHONY: fuzz sanitize abuse soak hostile-tools

## fuzz: libFuzzer harnesses (composition plan, request path, HTML escaping, static paths), FUZZ_SECONDS each
fuzz: deps
	FUZZ_SECONDS="$(FUZZ_SECONDS)" SWIFTC="$(SWIFT)c" bash scripts/fuzz.sh

## sanitize: the whole test suite under ThreadSanitizer, then AddressSanitizer
sanitize: deps
	SWIFT="$(SWIFT)" bash scripts/sanitize.sh

## abuse: slowloris and slow-read attacks (1,000 connections each) while a normal client measures /feed
abuse: deps hostile-tools
	RELEASE_BUILD="$(RELEASE_BUILD)" python3 scripts/check.py abuse

## soak: SOAK_REQUESTS mixed requests with wrk (zero 5xx, flat memory), then a leak check
soak: deps hostile-tools
	SOAK_REQUESTS="$(SOAK_REQUESTS)" RELEASE_BUILD="$(RELEASE_BUILD)" python3 scripts/check.py soak

# Debian packages the slow-client and soak runs need (root installs them).
HOSTILE_APT = slowhttptest wrk curl valgrind
hostile-tools:
	@missing=""; for tool in slowhttptest wrk curl valgrind; do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(HOSTILE_APT); \
		else \
			echo "Missing:$$missing. Run: sudo apt-get install -y $(HOSTILE_APT)"; exit 1; \
		fi; \
	fi
