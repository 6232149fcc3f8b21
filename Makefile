# The two commands a newcomer needs: `make demo` and `make test`. Both install what is missing first.
.PHONY: bootstrap build demo test test-swift test-server clean

bootstrap:
	scripts/bootstrap

build: bootstrap
	swift build

demo: build
	scripts/demo

test: bootstrap
	swift build --build-tests
	swift build --package-path Examples/PhotoBackup
	$(MAKE) test-server
	$(MAKE) test-swift

test-swift:
	swift test --skip-build --parallel --num-workers 2

test-server:
	cd Tests/Server && ../../.venv/bin/python -m pytest -q -p no:cacheprovider tests

clean:
	rm -rf .build .venv
