# The two commands a newcomer needs: `make demo` and `make test`. Both install what is missing first.
# `make install [PREFIX=/usr/local] [DESTDIR=…]`, `make uninstall`, `make deb`: the release build, installed.
# `make lint` / `make format`: swift-format with the repo's .swift-format; `make bench-smoke`: every bench, short.
.PHONY: bootstrap build demo test test-server-timed test-products test-swift test-server clean release install uninstall deb lint format bench-smoke docs

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
# leave part of two cores idle (they wait on servers and subprocesses), so the server's own tests run beside them,
# their output kept in .build/test-server.log and shown after. What builds another product is not part of it: the
# release build and the example app package (each a build of the whole library again) beside the suite doubled
# its time; `make test-products` builds and checks them (CI runs both).
PRODUCT_TESTS := InstallTests/installsCompletesDocumentsAndPackages|ExamplePackageTests
test: bootstrap
	@mkdir -p .build && date +%s > .build/test-started
	swift build --build-tests
	@echo "test: debug build done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"
	@nice -n 5 $(MAKE) --no-print-directory test-server-timed > .build/test-server.log 2>&1 & server=$$!; \
	swift test --skip-build --parallel --num-workers 2 --skip '$(PRODUCT_TESTS)'; swift_status=$$?; \
	echo "test: Swift tests done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"; \
	wait $$server; server_status=$$?; \
	cat .build/test-server.log; \
	echo "test: all done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"; \
	[ $$swift_status -eq 0 ] && [ $$server_status -eq 0 ]

test-server-timed:
	$(MAKE) --no-print-directory test-server
	@echo "test: server tests done at $$(( $$(date +%s) - $$(cat .build/test-started) )) s"

# The products others build from this package, checked as they use them: the release build as a user installs it
# (`make install`, completions, man page, `make deb`) and the example app package (Examples/PhotoBackup: the
# library through its front door only, the README's library code word for word).
test-products: bootstrap release
	swift build --package-path Examples/PhotoBackup
	swift build --build-tests
	swift test --skip-build --parallel --num-workers 2 --filter '$(PRODUCT_TESTS)'

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
