# Docker: the image that `docker build -t sectional .` makes, checked without a Docker engine.

# The Swift toolchain the project is built with. The Dockerfile's build stage
# (FROM swift:<version>-bookworm) must name the same one: `make test` checks it,
# and `make docker-check` builds with the installed toolchain only if it is this one.
SWIFT_VERSION = 6.3.1

.PHONY: docker-check

## docker-check: build the Dockerfile with podman (no Docker engine needed), serve from the image, check it (minutes; root)
docker-check:
	SWIFT="$(SWIFT)" SWIFT_VERSION="$(SWIFT_VERSION)" bash scripts/docker-check.sh
