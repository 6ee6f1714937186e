# Data durability: kill the server mid-write, check nothing it acknowledged is lost.
# See scripts/checks/crash_loop.py for the model it checks against and its knobs.

.PHONY: crash-check

## crash-check: build, then kill -9 the server mid-write for 20 rounds; every acknowledged (303) write must survive
crash-check: deps
	$(SWIFT) build --product feed-server
	SWIFT="$(SWIFT)" python3 scripts/check.py crash-loop --binary "$$($(SWIFT) build --show-bin-path)/feed-server"
