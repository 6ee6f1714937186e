# Benchmark: feed-server against a minimal C libmicrohttpd server (the ceiling)
# that sends the same bytes pre-rendered, and the reference page's
# reference-server against the same page rendered in C per request.
# scripts/bench.py does the measuring and says what each step does and the
# knobs it takes.

BENCH_DIR = .build/bench
CEILING = $(BENCH_DIR)/ceiling
REFERENCE_C = $(BENCH_DIR)/reference
BENCH_CC ?= gcc
BENCH_CFLAGS ?= -O2 -Wall -Wextra

.PHONY: bench bench-ceiling bench-reference

## bench: per route req/s, p50/p99, CPU and instructions per request against the C ceiling; the reference page against C; memory; budgets (QUICK=1: a couple of minutes)
bench: deps
	QUICK="$(QUICK)" MAKE="$(MAKE)" SWIFT="$(SWIFT)" RELEASE_BUILD="$(RELEASE_BUILD)" CEILING="$(CEILING)" \
		REFERENCE_C="$(REFERENCE_C)" python3 scripts/bench.py

## bench-ceiling: build only the ceiling server
bench-ceiling: $(CEILING)

## bench-reference: build only the reference page's C renderer
bench-reference: $(REFERENCE_C)

$(CEILING) $(REFERENCE_C): $(BENCH_DIR)/%: Benchmarks/%.c Benchmarks/bench_server.h | deps
	@mkdir -p $(BENCH_DIR)
	$(BENCH_CC) $(BENCH_CFLAGS) $$(pkg-config --cflags libmicrohttpd) -o $@ $< $$(pkg-config --libs libmicrohttpd)
