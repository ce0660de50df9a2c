# The two commands of the README: `make run` and `make test`. Both install what is missing first.
SWIFT ?= swift
STATE ?= $(CURDIR)/state
SOCKET ?= $(CURDIR)/run/consentd.sock

.PHONY: deps build run test clean

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

clean:
	rm -rf .build
