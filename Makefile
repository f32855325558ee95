# Lockstep — two commands for a new user: `make demo` and `make test`.
# Needs only the Swift toolchain (found on PATH or at /opt/swift) and the system's libsqlite3 and zlib.

SWIFT_BIN := $(firstword $(wildcard /opt/swift/usr/bin) $(dir $(shell command -v swift 2>/dev/null)))
export PATH := $(SWIFT_BIN):$(PATH)
SWIFT ?= swift
PREFIX ?= /usr/local
BIN_DEBUG = $(shell $(SWIFT) build --show-bin-path)
BIN_RELEASE = $(shell $(SWIFT) build -c release --show-bin-path)

.PHONY: build test test-example test-static demo bench install clean

build:
	$(SWIFT) build

# Builds everything (executables too: the process tests spawn them), then runs every test.
test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) test-example

# The example app package (Tests/Example): an iOS team's shared module, widget provider and app, compiled unchanged
# against Lockstep's WidgetKit and LockstepFoundation, and its multi-process test.
test-example:
	$(SWIFT) build --package-path Tests/Example --build-tests
	LOCKSTEP_CLI=$(BIN_DEBUG)/lockstep $(SWIFT) test --package-path Tests/Example --skip-build

# The same tests against executables linked with --static-swift-stdlib, as teams ship them to CI: there
# Foundation lacks some bridging (PropertyList.data says which). `make test` runs them linked dynamically.
STATIC_BUILD ?= .build/static
test-static:
	$(SWIFT) build --build-tests
	$(SWIFT) build -c release --static-swift-stdlib --build-path $(STATIC_BUILD)
	LOCKSTEP_BIN_DIR=$$($(SWIFT) build -c release --static-swift-stdlib --build-path $(STATIC_BUILD) --show-bin-path) $(SWIFT) test --skip-build

# The demo on the embedded default manifest (the Habits app), in a fresh groups root under .build.
demo: build
	rm -rf .build/demo-groups
	$(BIN_DEBUG)/lockstep up --groups .build/demo-groups

bench:
	$(SWIFT) build -c release
	$(BIN_RELEASE)/lockstep bench

# The product: `lockstep` and the simulated executables of its kinds of bundle: those the embedded default manifest
# (`lockstep init`) names, one per kind (a test holds them to the table of kinds, BundleRole.Kind.executable). The
# bench (lockstep-bench, lockstep-idle) measures a build, so it stays in the build directory: an installed
# `lockstep bench` says to run `make bench`.
install:
	$(SWIFT) build -c release
	install -d $(PREFIX)/bin
	manifest="$$($(BIN_RELEASE)/lockstep init)" && \
	for tool in lockstep $$(printf '%s\n' "$$manifest" | grep -o '"executable": *"[^"]*"' | cut -d'"' -f4 | sort -u); do \
		install -m 755 $(BIN_RELEASE)/$$tool $(PREFIX)/bin/$$tool || exit 1; done

clean:
	rm -rf .build
