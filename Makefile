# pushbox: `make run` opens pushbox on the bundled sample app; `make test` runs every test.
# Both install the Debian packages pushbox needs first (apt-get as root, else the sudo line).

SWIFT := $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# Debian packages the build, tests and runtime use; each C library is added with its shim.
DEB_PACKAGES := aapt g++ default-jdk-headless groff-base zsh fish pkg-config libssl-dev openssl libcurl4-openssl-dev libstb-dev libsqlite3-dev libmicrohttpd-dev curl libncursesw5-dev tmux libchafa-dev libglib2.0-dev libnghttp2-dev nghttp2-client nghttp2-server python3-h2 python3-httpx python3-cryptography python3-venv unicode-data nodejs chromium chromium-driver fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
ARGS ?=

.PHONY: run test test-tsan fuzz deps build bench bench-markdown clean pyclients format format-check install install-files uninstall web docs

# make install PREFIX=/usr/local (DESTDIR= for packagers): the binary, man pages, completions in
# their standard places, themes and the sample app in share/pushbox (found from the binary).
PREFIX ?= /usr/local
DESTDIR ?=
ROOT = $(DESTDIR)$(PREFIX)

deps:
	@scripts/install-deps.sh $(DEB_PACKAGES)
	@# git keeps no file modes but 644/755; pushbox refuses key files others can read.
	@chmod 600 sample-payloads/SampleApp/keys/*.key sample-payloads/SampleApp/keys/*.p8

build: deps
	$(SWIFT) build -c release --product pushbox

run: build
	"$$($(SWIFT) build -c release --show-bin-path)/pushbox" $(ARGS)

# aioapns, PyAPNs2 and firebase-admin from PyPI, for the tests that deliver to pushbox with real provider libraries.
pyclients:
	@scripts/python-clients.sh .build/pyclients

# The reference pages generated from the code's tables (docs/reference/); a test fails when they differ.
docs:
	@$(SWIFT) run -q pushbox docs --output docs/reference

# The browser inbox's files (web/) embedded in the binary: Sources/PushboxIntake/WebAssets.swift.
web:
	@scripts/embed-web.sh

# swift format (it ships with the toolchain), configured in .swift-format: 4 spaces, 150 columns.
SWIFT_SOURCES := Sources Tests Package.swift
format:
	$(SWIFT) format format --in-place --parallel --recursive $(SWIFT_SOURCES)

# Fails on any file `make format` would change, or that breaks one of the configured rules.
format-check:
	@$(SWIFT) format lint --strict --parallel --recursive $(SWIFT_SOURCES) || { echo "make format-check: run make format"; exit 1; }

# A watchdog: the suite takes about a minute with the build; a hang fails within 30 minutes
# with the test that hung named in the output, instead of running until CI gives up.
# SwiftPM leaves empty TemporaryDirectory.* folders behind in TMPDIR on every run: the suite
# gets a temporary folder of its own, removed afterwards, so /tmp holds nothing new. The HTTP/2
# guard (a ratio of two rates) runs alone after the rest, with the machine to itself.
test: deps pyclients format-check
	@tmp=$$(mktemp -d /tmp/pushbox-test.XXXXXX); \
	TMPDIR=$$tmp timeout --kill-after=30 1800 $(SWIFT) test --skip HTTP2GuardTests; status=$$?; \
	if [ $$status -eq 0 ]; then TMPDIR=$$tmp timeout --kill-after=30 600 $(SWIFT) test --skip-build --filter HTTP2GuardTests; status=$$?; fi; \
	rm -rf "$$tmp"; \
	[ $$status -ne 124 ] || echo "make test: the suite did not finish in 30 minutes (a test hung; the last 'started' line without a result names it)"; \
	exit $$status

# The whole suite built with ThreadSanitizer (a separate build under .build; about 10 minutes here).
test-tsan: deps pyclients
	@tmp=$$(mktemp -d /tmp/pushbox-test.XXXXXX); \
	TMPDIR=$$tmp timeout --kill-after=30 2700 $(SWIFT) test --sanitize=thread --scratch-path .build/tsan; status=$$?; rm -rf "$$tmp"; exit $$status

# Every parser's fuzz target under libFuzzer + AddressSanitizer, FUZZ_SECONDS each (default 60).
fuzz: deps
	SWIFT=$(SWIFT) scripts/fuzz.sh

bench: deps
	$(SWIFT) build -c release
	for b in validate localize extension request render query wait intake chaos h2 tui web; do "$$($(SWIFT) build -c release --show-bin-path)/pushbox-bench" $$b || exit 1; done

# docs/benchmarks.md's intake, intake stages, HTTP/2, request and render tables, measured again and written between their markers.
bench-markdown: deps
	$(SWIFT) build -c release
	"$$($(SWIFT) build -c release --show-bin-path)/pushbox-bench" intake 20000 1,16,64 3 --markdown docs/benchmarks.md
	"$$($(SWIFT) build -c release --show-bin-path)/pushbox-bench" intake-stages 20000 5 --markdown docs/benchmarks.md
	"$$($(SWIFT) build -c release --show-bin-path)/pushbox-bench" h2 20000 --markdown docs/benchmarks.md
	"$$($(SWIFT) build -c release --show-bin-path)/pushbox-bench" request 20000 --markdown docs/benchmarks.md
	"$$($(SWIFT) build -c release --show-bin-path)/pushbox-bench" render 20000 --markdown docs/benchmarks.md

install: build
	@$(MAKE) --no-print-directory install-files BIN="$$($(SWIFT) build -c release --show-bin-path)"

# The files of an already built binary in BIN (the tests install a debug build this way).
install-files:
	@test -x "$(BIN)/pushbox" || { echo "make install-files: no pushbox in BIN=$(BIN)"; exit 1; }
	install -d "$(ROOT)/bin" "$(ROOT)/share/man/man1" "$(ROOT)/share/pushbox" "$(ROOT)/share/bash-completion/completions" \
		"$(ROOT)/share/zsh/site-functions" "$(ROOT)/share/fish/vendor_completions.d"
	install -m 755 "$(BIN)/pushbox" "$(ROOT)/bin/pushbox"
	"$(BIN)/pushbox" man --output "$(ROOT)/share/man/man1" >/dev/null
	"$(BIN)/pushbox" completions bash > "$(ROOT)/share/bash-completion/completions/pushbox"
	"$(BIN)/pushbox" completions zsh > "$(ROOT)/share/zsh/site-functions/_pushbox"
	"$(BIN)/pushbox" completions fish > "$(ROOT)/share/fish/vendor_completions.d/pushbox.fish"
	rm -rf "$(ROOT)/share/pushbox/themes" "$(ROOT)/share/pushbox/sample-payloads"
	cp -R themes sample-payloads "$(ROOT)/share/pushbox/"
	git rev-parse --short=12 HEAD > "$(ROOT)/share/pushbox/commit" 2>/dev/null || rm -f "$(ROOT)/share/pushbox/commit"

uninstall:
	rm -f "$(ROOT)/bin/pushbox" "$(ROOT)"/share/man/man1/pushbox.1 "$(ROOT)"/share/man/man1/pushbox-*.1 \
		"$(ROOT)/share/bash-completion/completions/pushbox" "$(ROOT)/share/zsh/site-functions/_pushbox" \
		"$(ROOT)/share/fish/vendor_completions.d/pushbox.fish"
	rm -rf "$(ROOT)/share/pushbox"

clean:
	rm -rf .build
