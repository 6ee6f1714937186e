# API documentation: DocC for Sectional, SectionalServer, SectionalTesting and HTTPServer,
# merged into one static site. See scripts/docs.sh.

DOCS_BASE_PATH ?= /

.PHONY: docs

## docs: DocC site of Sectional, SectionalServer, SectionalTesting and HTTPServer in .build/docs/site (fails on any DocC warning or public symbol without a summary)
docs: deps
	SWIFT="$(SWIFT)" DOCS_BASE_PATH="$(DOCS_BASE_PATH)" bash scripts/docs.sh
