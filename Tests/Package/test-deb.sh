#!/bin/sh
# The honest test of the .deb: install it with apt-get (no recommends) into fresh Debian roots
# that have no Swift toolchain, then check its files and run `asmrun doctor`, `asmrun hello.asm`,
# a crash without gdb (one line naming the package), and the sample corpus natively and under
# that release's qemu-user. Not part of `make test`: it needs root and a Debian mirror for the
# first run (roots.sh caches the roots and the downloaded packages in /var/cache/asmrun-roots).
#
#   make deb && sudo Tests/Package/test-deb.sh asmrun_0.1.0_amd64.deb [SUITE…]
#
# SUITE defaults to bullseye bookworm trixie (Debian 11, 12, 13; 13's qemu-user is static and has
# no -static names).
set -eu
[ "$(id -u)" = 0 ] || { echo "test-deb.sh: run it as root (chroot needs it)" >&2; exit 2; }
[ -f "${1:-}" ] || { echo "usage: test-deb.sh asmrun_VERSION_ARCH.deb [SUITE…]" >&2; exit 2; }
deb=$(realpath "$1")
shift
[ $# -gt 0 ] || set -- bullseye bookworm trixie
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Package/roots.sh"
root=""
# Runs a command in the root's /root; on failure shows all it printed, else its last two lines.
in_home() {
    if in_root "$root" sh -c "cd /root && $1" >"$root/tmp/out.txt" 2>&1; then
        tail -n 2 "$root/tmp/out.txt"
    else
        cat "$root/tmp/out.txt"
        echo "FAIL: $1" >&2
        exit 1
    fi
}
trap '[ -z "$root" ] || root_remove "$root"' EXIT

for suite in "$@"; do
    echo "== $suite: apt-get install --no-install-recommends ./$(basename "$deb")"
    root=$(root_new "$suite")
    cp "$deb" "$root/tmp/"
    root_apt "$root" "$suite" "/tmp/$(basename "$deb")"
    in_root "$root" dpkg -s asmrun | grep -E '^(Status|Version|Depends|Recommends)'
    if in_root "$root" sh -c 'command -v swift || ls /usr/lib/swift' >/dev/null 2>&1; then echo "FAIL: a Swift toolchain in the root" >&2; exit 1; fi
    in_root "$root" sh -c 'ldd --version | head -n 1; qemu-x86_64 --version | head -n 1'

    for file in /usr/bin/asmrun /usr/share/man/man1/asmrun.1.gz /usr/share/bash-completion/completions/asmrun \
        /usr/share/zsh/vendor-completions/_asmrun /usr/share/fish/vendor_completions.d/asmrun.fish \
        /usr/share/doc/asmrun/README.md.gz /usr/share/doc/asmrun/install.md.gz /usr/share/doc/asmrun/copyright \
        /usr/share/doc/asmrun/changelog.gz; do
        in_root "$root" test -f "$file" || { echo "FAIL: $file missing" >&2; exit 1; }
    done
    echo "files: ok"

    echo "== $suite: asmrun doctor"
    in_root "$root" asmrun doctor

    cp -a "$here/asm" "$root/root/asm"
    echo "== $suite: asmrun asm/hello.asm"
    out=$(in_root "$root" sh -c 'cd /root && asmrun asm/hello.asm')
    [ "$out" = "Hello, World!" ] || { echo "FAIL: '$out', expected 'Hello, World!'" >&2; exit 1; }
    echo "$out"

    echo "== $suite: a crash without gdb (installed without recommends)"
    if in_root "$root" sh -c 'command -v gdb || command -v gdb-multiarch' >/dev/null; then echo "FAIL: gdb is installed" >&2; exit 1; fi
    err=$(in_root "$root" sh -c 'cd /root && asmrun asm/segfault.asm 2>&1 >/dev/null; echo "status $?"')
    echo "$err"
    echo "$err" | grep -qx 'asmrun: no crash report: gdb not found (needed to say where a program crashed, and for asmrun debug); install it with `apt-get install gdb`' \
        || { echo "FAIL: no line saying to install gdb" >&2; exit 1; }

    echo "== $suite: asmrun test asm --runner native"
    in_home 'asmrun test asm --runner native'
    if [ "$suite" = bullseye ]; then
        # Debian 11's qemu 5.2 emulates four samples differently from the hardware (avx2, sigill,
        # exec_stack, misaligned_printf); there a static, a 32-bit and a libc program.
        echo "== $suite: asmrun test under qemu 5.2: hello, hello32, printf"
        mkdir "$root/root/qemu"
        for name in hello hello32 printf; do cp "$here/asm/$name.asm" "$here/asm/$name.expect" "$root/root/qemu/"; done
        in_home 'asmrun test qemu --runner qemu'
    else
        echo "== $suite: asmrun test asm --runner qemu"
        in_home 'asmrun test asm --runner qemu'
    fi
    root_remove "$root"
    root=""
    echo "== $suite: PASS"
done
echo "== PASS: $(basename "$deb") installs and runs in $*"
