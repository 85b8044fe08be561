# asmrun — `make run` and `make test` do all set-up on a fresh Debian/Ubuntu machine.
PREFIX ?= /usr/local
SWIFT ?= swift
BIN := .build/release/asmrun
RELEASE_FLAGS := -c release --static-swift-stdlib
ARCH := $(shell uname -m)

# Debian packages for the external tools; ARM hosts also need x86 cross binutils and libc.
APT_PACKAGES := nasm binutils qemu-user gcc
ifneq ($(ARCH),x86_64)
APT_PACKAGES += binutils-x86-64-linux-gnu gcc-x86-64-linux-gnu libc6-dev-amd64-cross
CROSS_TOOLS := x86_64-linux-gnu-ld x86_64-linux-gnu-gcc
endif
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build run test unit-test corpus-test lint format install uninstall bench stress clean

all: build

# Installs the tools with apt-get only when one of them is missing.
deps:
	@missing=""; \
	for tool in nasm ld cc $(CROSS_TOOLS); do command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	command -v qemu-x86_64 >/dev/null 2>&1 || command -v qemu-x86_64-static >/dev/null 2>&1 || missing="$$missing qemu-x86_64"; \
	command -v qemu-i386 >/dev/null 2>&1 || command -v qemu-i386-static >/dev/null 2>&1 || missing="$$missing qemu-i386"; \
	if [ -n "$$missing" ]; then \
		echo "missing:$$missing — installing $(APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(APT_PACKAGES); \
	fi

build:
	$(SWIFT) build $(RELEASE_FLAGS)

run: deps build
	$(BIN) asm/hello.asm

test: deps build unit-test corpus-test

unit-test:
	$(SWIFT) test

# The sample corpus natively and under qemu (native is skipped, with a note, on ARM hosts),
# then as if on an ARM host.
corpus-test:
	$(BIN) test asm --runner native,qemu
	ASMRUN_HOST_ARCH=aarch64 $(BIN) test asm

# Warnings as errors, swift-format, and no Swift file over 300 lines or function over 60.
lint:
	$(SWIFT) build -Xswiftc -warnings-as-errors
	$(SWIFT) format lint --strict --recursive $$(git ls-files '*.swift')
	python3 Tests/Lint/sizes.py $$(git ls-files '*.swift')

format:
	$(SWIFT) format --in-place --recursive $$(git ls-files '*.swift')

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/asmrun

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/asmrun

# Benchmarks asmrun against a shell loop, make, lit and turnt; writes BENCHMARKS.md.
bench: deps build
	@python3 -c "import lit, turnt" 2>/dev/null || python3 -m pip install --quiet lit turnt
	python3 Tests/Benchmarks/bench.py $(BIN) --out BENCHMARKS.md

# The hostile battery: every program contained, nothing left behind, asmrun under 64 MiB.
stress: deps build
	python3 Tests/Hostile/stress.py $(BIN)

clean:
	rm -rf .build
