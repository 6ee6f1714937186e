# Sectional as a dependency: an outside package resolves it by a tagged git URL.

.PHONY: package-check

## package-check: a package outside this repository depends on Sectional 0.2.0 by git URL, builds in release, serves a page (minutes)
package-check: deps
	SWIFT="$(SWIFT)" bash scripts/package-check.sh
