# The two commands of the README: `make run` and `make test`. Both install what is missing first.
SWIFT ?= swift
STATE ?= $(CURDIR)/state
SOCKET ?= $(CURDIR)/run/consentd.sock
# consentweb, the kiosk UI's loopback bridge (`make run`); loopback only.
LISTEN ?= 127.0.0.1:8080

# `make install`: a release build, then binaries, units, sysusers, udev rules and the example config under DESTDIR.
PREFIX ?= /usr/local
DESTDIR ?=
CONFIGURATION ?= release
# Extra flags for install's swift builds. The Swift runtime is linked into the binaries: a kiosk has no Swift
# toolchain to load it from, and the agent starts a third faster without 15 more shared objects to map and relocate
# (docs/PERFORMANCE.md). `make system-test` adds its own --scratch-path.
SWIFT_BUILD_FLAGS ?= --static-swift-stdlib
BINDIR ?= $(PREFIX)/bin
DOCDIR ?= $(PREFIX)/share/doc/consent-kiosk
SYSCONFDIR ?= /etc
UNITDIR ?= $(SYSCONFDIR)/systemd/system
SYSUSERSDIR ?= $(SYSCONFDIR)/sysusers.d
TMPFILESDIR ?= $(SYSCONFDIR)/tmpfiles.d
UDEVRULESDIR ?= $(SYSCONFDIR)/udev/rules.d
BUNDLE = consent-kiosk_SampleStudy.resources
UIBUNDLE = consent-kiosk_KioskUI.resources

.PHONY: deps build run test system-test bench clean install uninstall

deps:
	@scripts/ensure-deps

build: deps
	$(SWIFT) build

## Runs the agent on the bundled sample study and the kiosk UI's bridge (consentweb) in front of it until Ctrl-C;
## prints the URL to open. UI=UI/app serves the UI's files from the work tree (edit and reload, no rebuild).
run: build
	@scripts/run-kiosk $(SOCKET) $(STATE) $(LISTEN) $(UI)

## Runs every test: unit, device (umockdev), PDF (poppler) and integration (socat) tests.
test: deps
	@scripts/run-tests

## Boots a Debian 12 guest under QEMU with consent-kiosk installed by `make install`, runs the deployment scenario
## (systemd, udevd, uinput pens) and prints one table of checks (docs/OPERATIONS.md, "The system test"). Needs root.
system-test: deps
	@scripts/system-test/run

## Measures the release agent against its goals and baselines in one run; prints one table (docs/PERFORMANCE.md).
bench: deps
	@Benchmarks/run

## Installs consentd, consentctl and the sample study beside them, the systemd units, the sysusers entry, the udev rules
## and the config (never overwriting one that exists). Starts nothing; docs/OPERATIONS.md has the next steps.
install: deps
	$(SWIFT) build -c $(CONFIGURATION) $(SWIFT_BUILD_FLAGS) --product consentd
	$(SWIFT) build -c $(CONFIGURATION) $(SWIFT_BUILD_FLAGS) --product consentctl
	$(SWIFT) build -c $(CONFIGURATION) $(SWIFT_BUILD_FLAGS) --product consentweb
	@set -e; bin=$$($(SWIFT) build -c $(CONFIGURATION) $(SWIFT_BUILD_FLAGS) --show-bin-path); \
	install -d -m 0755 "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(UNITDIR)" "$(DESTDIR)$(SYSUSERSDIR)" "$(DESTDIR)$(TMPFILESDIR)" \
		"$(DESTDIR)$(UDEVRULESDIR)" "$(DESTDIR)$(SYSCONFDIR)/consentd/studies" "$(DESTDIR)$(DOCDIR)"; \
	install -m 0755 "$$bin/consentd" "$$bin/consentctl" "$$bin/consentweb" "$(DESTDIR)$(BINDIR)/"; \
	for b in $(BUNDLE) $(UIBUNDLE); do \
		rm -rf "$(DESTDIR)$(BINDIR)/$$b"; \
		cp -R "$$bin/$$b" "$(DESTDIR)$(BINDIR)/$$b"; \
		chmod -R u=rwX,go=rX "$(DESTDIR)$(BINDIR)/$$b"; \
	done; \
	sed 's|/usr/local/bin/|$(BINDIR)/|g; s|/usr/local/share/doc/consent-kiosk/|$(DOCDIR)/|g' \
		deploy/systemd/consentd.service > "$(DESTDIR)$(UNITDIR)/consentd.service"; \
	sed 's|/usr/local/share/doc/consent-kiosk/|$(DOCDIR)/|g' \
		deploy/systemd/consentd.socket > "$(DESTDIR)$(UNITDIR)/consentd.socket"; \
	for u in consentweb.service consent-kiosk-session.service; do \
		sed 's|/usr/local/bin/|$(BINDIR)/|g; s|/usr/local/share/doc/consent-kiosk/|$(DOCDIR)/|g' \
			deploy/systemd/$$u > "$(DESTDIR)$(UNITDIR)/$$u"; \
	done; \
	chmod 0644 "$(DESTDIR)$(UNITDIR)/consentd.service" "$(DESTDIR)$(UNITDIR)/consentd.socket" \
		"$(DESTDIR)$(UNITDIR)/consentweb.service" "$(DESTDIR)$(UNITDIR)/consent-kiosk-session.service"; \
	install -m 0644 deploy/sysusers.d/consentd.conf "$(DESTDIR)$(SYSUSERSDIR)/consentd.conf"; \
	install -m 0644 deploy/tmpfiles.d/consentd.conf "$(DESTDIR)$(TMPFILESDIR)/consentd.conf"; \
	install -m 0644 udev/70-consent-kiosk-pad.rules "$(DESTDIR)$(UDEVRULESDIR)/"; \
	install -m 0644 deploy/consentd.json.example "$(DESTDIR)$(SYSCONFDIR)/consentd/consentd.json.example"; \
	test -e "$(DESTDIR)$(SYSCONFDIR)/consentd/consentd.json" || \
		install -m 0644 deploy/consentd.json "$(DESTDIR)$(SYSCONFDIR)/consentd/consentd.json"; \
	install -m 0644 README.md docs/*.md "$(DESTDIR)$(DOCDIR)/"; \
	install -m 0644 udev/README.md "$(DESTDIR)$(DOCDIR)/UDEV.md"
	@echo "Installed under $(DESTDIR)/. Nothing was started. Next (docs/OPERATIONS.md):"
	@echo "  systemd-sysusers && systemd-tmpfiles --create consentd.conf && udevadm control --reload && udevadm trigger --subsystem-match=input --action=change"
	@echo "  systemctl daemon-reload && systemctl enable --now consentd.socket consentd.service consentweb.service"
	@echo "  the kiosk screen (cage + chromium --kiosk): systemctl enable consent-kiosk-session.service; systemctl set-default graphical.target"

## Removes what `make install` installed, except the config and /var/lib/consentd (records, keys, audit log).
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/consentd" "$(DESTDIR)$(BINDIR)/consentctl" "$(DESTDIR)$(BINDIR)/consentweb" \
		"$(DESTDIR)$(UNITDIR)/consentd.service" "$(DESTDIR)$(UNITDIR)/consentd.socket" \
		"$(DESTDIR)$(UNITDIR)/consentweb.service" "$(DESTDIR)$(UNITDIR)/consent-kiosk-session.service" \
		"$(DESTDIR)$(SYSUSERSDIR)/consentd.conf" "$(DESTDIR)$(TMPFILESDIR)/consentd.conf" \
		"$(DESTDIR)$(UDEVRULESDIR)/70-consent-kiosk-pad.rules"
	rm -rf "$(DESTDIR)$(BINDIR)/$(BUNDLE)" "$(DESTDIR)$(BINDIR)/$(UIBUNDLE)" "$(DESTDIR)$(DOCDIR)"

clean:
	rm -rf .build .build-release .build-vm
