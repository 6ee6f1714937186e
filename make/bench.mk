# Benchmark: feed-server against a minimal C libmicrohttpd server (the ceiling)
# that sends the same bytes pre-rendered; feed-server on SQLite against the
# same pages rendered in C from the same SQLite file (Benchmarks/feed_sqlite.c);
# and the reference page's reference-server against the same page rendered in
# C per request. scripts/checks/bench.py does the measuring and says what each step
# does and the knobs it takes.

BENCH_DIR = .build/bench
CEILING = $(BENCH_DIR)/ceiling
REFERENCE_C = $(BENCH_DIR)/reference
FEED_SQLITE_C = $(BENCH_DIR)/feed_sqlite
BENCH_CC ?= gcc
BENCH_CFLAGS ?= -O2 -Wall -Wextra

.PHONY: bench bench-ceiling bench-reference bench-feed-sqlite

## bench: per route req/s, p50/p99, CPU and instructions per request against the C ceiling; /feed on SQLite against C on the same file, and on a throw-away PostgreSQL against SQLite; the reference page against C; memory; budgets (QUICK=1: a couple of minutes)
bench: deps
	QUICK="$(QUICK)" MAKE="$(MAKE)" SWIFT="$(SWIFT)" RELEASE_BUILD="$(RELEASE_BUILD)" CEILING="$(CEILING)" \
		REFERENCE_C="$(REFERENCE_C)" FEED_SQLITE_C="$(FEED_SQLITE_C)" bash scripts/with-postgres.sh python3 scripts/check.py bench

## bench-ceiling: build only the ceiling server
bench-ceiling: $(CEILING)

## bench-reference: build only the reference page's C renderer
bench-reference: $(REFERENCE_C)

## bench-feed-sqlite: build only the C server of the feed on SQLite
bench-feed-sqlite: $(FEED_SQLITE_C)

$(CEILING) $(REFERENCE_C): $(BENCH_DIR)/%: Benchmarks/%.c Benchmarks/bench_server.h Benchmarks/bench_buffer.h | deps
	@mkdir -p $(BENCH_DIR)
	$(BENCH_CC) $(BENCH_CFLAGS) $$(pkg-config --cflags libmicrohttpd) -o $@ $< $$(pkg-config --libs libmicrohttpd)

$(FEED_SQLITE_C): Benchmarks/feed_sqlite.c Benchmarks/bench_server.h Benchmarks/bench_buffer.h | deps
	@mkdir -p $(BENCH_DIR)
	$(BENCH_CC) $(BENCH_CFLAGS) $$(pkg-config --cflags libmicrohttpd sqlite3 libsodium) -o $@ $< \
		$$(pkg-config --libs libmicrohttpd sqlite3 libsodium)
