# More than one machine, on this one: PostgreSQL, three replicas and nginx on loopback.

.PHONY: cluster-check cluster-deps

## cluster-check: three replicas on one PostgreSQL behind nginx, one killed and one stopped under load (a minute; root installs nginx)
cluster-check: deps cluster-deps
	$(SWIFT) build --product feed-server
	bash scripts/with-postgres.sh python3 scripts/check.py cluster --binary "$$($(SWIFT) build --show-bin-path)/feed-server" --public Public

cluster-deps:
	@if ! command -v nginx >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing nginx"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; \
			systemctl stop nginx 2>/dev/null || service nginx stop 2>/dev/null || true; \
		else \
			echo "nginx is missing. Run: sudo apt-get install -y nginx"; exit 1; \
		fi; \
	fi
