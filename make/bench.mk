# Benchmark: feed-server against a minimal C libmicrohttpd server (the ceiling)
# that sends the same bytes pre-rendered. See scripts/bench.sh.

BENCH_DIR = .build/bench
CEILING = $(BENCH_DIR)/ceiling
REFERENCE_C = $(BENCH_DIR)/reference
BENCH_CC ?= gcc
BENCH_CFLAGS ?= -O2 -Wall -Wextra

.PHONY: bench bench-ceiling bench-reference

## bench: throughput, latency, instructions per request and memory against the C ceiling (QUICK=1: under a minute)
bench: deps
	QUICK="$(QUICK)" MAKE="$(MAKE)" SWIFT="$(SWIFT)" RELEASE_BUILD="$(RELEASE_BUILD)" CEILING="$(CEILING)" \
		bash scripts/bench.sh

## bench-ceiling: build only the ceiling server
bench-ceiling: $(CEILING)

## bench-reference: build only the reference page's C renderer
bench-reference: $(REFERENCE_C)

$(CEILING) $(REFERENCE_C): $(BENCH_DIR)/%: Benchmarks/%.c | deps
	@mkdir -p $(BENCH_DIR)
	$(BENCH_CC) $(BENCH_CFLAGS) $$(pkg-config --cflags libmicrohttpd) -o $@ $< $$(pkg-config --libs libmicrohttpd)
