# The two commands a newcomer needs: `make demo` and `make test`. Both install what is missing first.
# `make install [PREFIX=/usr/local] [DESTDIR=…]`, `make uninstall`, `make deb`: the release build, installed.
# `make lint` / `make format`: swift-format with the repo's .swift-format; `make bench-smoke`: every bench, short.
.PHONY: bootstrap build demo test test-beside test-release test-swift test-server clean release install uninstall deb lint format bench-smoke docs

PREFIX ?= /usr/local
DESTDIR ?=
# The release binary, with the Swift runtime linked in: it runs on a machine without the toolchain. Its own
# scratch folder, so `make test` builds it while `swift test` holds the debug build's lock, and a test that runs
# `make install` never waits for the lock of the run it is part of.
RELEASE_SCRATCH := .build/product
RELEASE_BIN := $(RELEASE_SCRATCH)/release/officer-files
# What bench/cache drives (library code, not part of the product).
BENCH_BIN := $(RELEASE_SCRATCH)/release/officer-files-bench
SOURCES := $(shell find Sources Plugins -type f -name '*.swift' -o -type f -name '*.h' -o -type f -name '*.modulemap') Package.swift VERSION
# The commit goes into --version: a new one rebuilds (only the stamp's module changes).
SOURCES += $(wildcard .git/HEAD $(addprefix .git/,$(shell sed -n 's/^ref: //p' .git/HEAD 2>/dev/null)))

bootstrap:
	scripts/bootstrap

build: bootstrap
	swift build

demo: build
	scripts/demo

$(RELEASE_BIN): $(SOURCES)
	swift build -c release --static-swift-stdlib --scratch-path $(RELEASE_SCRATCH) --product officer-files
	@touch $(RELEASE_BIN)

release: $(RELEASE_BIN)

install: $(RELEASE_BIN)
	scripts/install "$(DESTDIR)$(PREFIX)" $(RELEASE_BIN)

uninstall:
	scripts/install --uninstall "$(DESTDIR)$(PREFIX)"

deb: $(RELEASE_BIN)
	scripts/deb $(RELEASE_BIN) .build/deb

# The release build's flags: the modules it shares with $(RELEASE_BIN) are not built again.
$(BENCH_BIN): $(SOURCES)
	swift build -c release --static-swift-stdlib --scratch-path $(RELEASE_SCRATCH) --product officer-files-bench
	@touch $(BENCH_BIN)

# Each step says when it ended (seconds since the test began), so a slow one is seen in CI's log. The Swift tests
# leave part of two cores idle (they wait on servers and subprocesses), so the example package and the server's own
# tests run beside them, their output kept in .build/test-beside.log and shown if they fail (the example's test
# waits for its build: SwiftPM finds it current or waits). The release build is not part of it: built beside the
# suite it doubled the suite's time; `make test-release` checks it as installed (CI runs both).
RELEASE_TEST := InstallTests/installsCompletesDocumentsAndPackages
test: bootstrap
	@mkdir -p .build && date +%s > .build/test-started
	swift build --build-tests
	@echo "test: debug build done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"
	@nice -n 10 $(MAKE) --no-print-directory test-beside > .build/test-beside.log 2>&1 & beside=$$!; \
	swift test --skip-build --parallel --num-workers 2 --skip '$(RELEASE_TEST)'; swift_status=$$?; \
	echo "test: Swift tests done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"; \
	wait $$beside; beside_status=$$?; \
	cat .build/test-beside.log; \
	echo "test: all done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"; \
	[ $$swift_status -eq 0 ] && [ $$beside_status -eq 0 ]

# What runs beside the Swift tests: the example package (its test waits for it), then the server's tests.
test-beside:
	swift build --package-path Examples/PhotoBackup
	@echo "test: example package done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"
	$(MAKE) --no-print-directory test-server
	@echo "test: server tests done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"

# The release build as a user installs it: `make install`, the completions and man page it puts in place, `make deb`.
test-release: bootstrap release
	swift build --build-tests
	swift test --skip-build --filter '$(RELEASE_TEST)'

test-swift:
	swift test --skip-build --parallel --num-workers 2

test-server:
	cd Tests/Server && ../../.venv/bin/python -m pytest -q -p no:cacheprovider tests

# Every Swift file the repo holds, checked (lint) or rewritten (format) by the toolchain's swift-format.
SWIFT_FORMAT_PATHS := Package.swift Sources Tests Plugins Examples/PhotoBackup/Package.swift Examples/PhotoBackup/Sources

# The library's documentation (DocC catalog + doc comments) from the debug build; any warning fails it.
docs:
	swift build
	scripts/docs

lint:
	swift-format lint --strict --configuration .swift-format --parallel -r $(SWIFT_FORMAT_PATHS)

format:
	swift-format format --in-place --configuration .swift-format --parallel -r $(SWIFT_FORMAT_PATHS)

# Every bench in its short mode (small sizes, one repetition, ratios printed but not judged) against the release
# build: a changed output or option breaks CI instead of a bench nobody runs. The full benches stay outside CI.
# OFFICER_FILES_CLI=PATH runs that binary and builds nothing (bench/cache then takes OFFICER_FILES_BENCH, or the
# officer-files-bench beside PATH).
bench-smoke: bootstrap $(if $(OFFICER_FILES_CLI),,release $(BENCH_BIN))
	scripts/bench-smoke

clean:
	rm -rf .build .venv
