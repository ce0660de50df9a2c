# The two commands of the README: `make run` and `make test`. Both install what is missing first.
SWIFT ?= swift
STATE ?= $(CURDIR)/state
SOCKET ?= $(CURDIR)/run/consentd.sock

.PHONY: deps build run test release bench clean

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

## The installable agent: release mode with the Swift runtime linked in statically (smaller RSS, no Swift
## libraries to install on the kiosk). Binaries in .build-release/release/.
RELEASE_SWIFT_FLAGS ?= --static-swift-stdlib
release: deps
	$(SWIFT) build -c release --scratch-path .build-release $(RELEASE_SWIFT_FLAGS) --product consentd
	$(SWIFT) build -c release --scratch-path .build-release $(RELEASE_SWIFT_FLAGS) --product consentctl

## Measures the release agent against its goals and baselines in one run; prints one table (docs/PERFORMANCE.md).
bench: deps
	@BENCH_SWIFT_FLAGS="$(RELEASE_SWIFT_FLAGS)" Benchmarks/run

clean:
	rm -rf .build .build-release
