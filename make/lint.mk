# Formatting: the toolchain's swift-format with the repository's .swift-format.

LINT_PATHS = Package.swift Plugins Sources Tests Fuzz Sanitizers \
	Examples/ReferencePage/Package.swift Examples/ReferencePage/Sources Examples/ReferencePage/Tests \
	Examples/Starter/Package.swift Examples/Starter/Sources Examples/Starter/Tests

.PHONY: lint format

## lint: fail on any swift-format finding (CI runs it)
lint:
	$(SWIFT) format lint --strict --recursive $(LINT_PATHS)

## format: rewrite the sources in the repository's format
format:
	$(SWIFT) format format --in-place --recursive $(LINT_PATHS)
