# The two commands of the README: `make run` and `make test`. Both install what is missing first.
SWIFT ?= swift
STATE ?= $(CURDIR)/state
SOCKET ?= $(CURDIR)/run/consentd.sock

.PHONY: deps build run test bench clean

deps:
	@scripts/ensure-deps

build: deps
	$(SWIFT) build

## Runs the agent on the bundled sample study until Ctrl-C.
run: build
	@mkdir -p $(dir $(SOCKET)) $(STATE)
	$(SWIFT) run --skip-build consentd --socket $(SOCKET) --state-dir $(STATE)

## Runs every test: unit, device (umockdev), PDF (poppler) and integration (socat) tests.
test: deps
	@scripts/run-tests

## Measures the release agent against its goals and baselines in one run; prints one table (docs/PERFORMANCE.md).
bench: deps
	@Benchmarks/run

clean:
	rm -rf .build .build-release
