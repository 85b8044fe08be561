#!/bin/sh
# The honest test of the .deb: install it with apt-get into a fresh Debian chroot that has no
# Swift toolchain, then run `asmrun hello.asm`, `asmrun test` on a sample folder, `asmrun doctor`,
# and check the man page and completions landed. Not part of `make test`: it needs root,
# debootstrap and a Debian mirror (apt inside the chroot fetches nasm, binutils, gcc, qemu-user).
#
#   make deb && sudo Tests/Package/test-deb.sh asmrun_0.1.0_amd64.deb [BASE]
#
# BASE (default /var/tmp/asmrun-debootstrap-bookworm) is made once with
# `debootstrap --variant=minbase bookworm` and kept pristine; each run copies it to a new folder,
# so every run starts from the same fresh system. DEBIAN_MIRROR overrides the mirror.
set -eu
[ "$(id -u)" = 0 ] || { echo "test-deb.sh: run it as root (chroot and debootstrap need it)" >&2; exit 2; }
[ -f "${1:-}" ] || { echo "usage: test-deb.sh asmrun_VERSION_ARCH.deb [BASE]" >&2; exit 2; }
deb=$(realpath "$1")
base=${2:-/var/tmp/asmrun-debootstrap-bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
here=$(cd "$(dirname "$0")/../.." && pwd)

if [ ! -x "$base/usr/bin/apt-get" ]; then
    echo "== debootstrap --variant=minbase bookworm $base"
    nice -n 19 ionice -c3 debootstrap --variant=minbase bookworm "$base" "$mirror"
fi
root=$(mktemp -d /var/tmp/asmrun-chroot.XXXXXX)
cleanup() {
    umount "$root/proc" 2>/dev/null || true
    rm -rf "$root"
}
trap cleanup EXIT
cp -a "$base/." "$root/"
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

echo "== no Swift toolchain in the chroot"
if in_root sh -c 'command -v swift || ls /usr/lib/swift 2>/dev/null'; then echo "FAIL: swift found" >&2; exit 1; fi
echo "ok"

echo "== apt-get install ./$(basename "$deb")"
cp "$deb" "$root/tmp/"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "./tmp/$(basename "$deb")" 2>&1 \
    | grep -E '^(The following NEW|  |Setting up asmrun|Unpacking asmrun)' || true
in_root dpkg -s asmrun | grep -E '^(Status|Version|Depends)'

echo "== files"
for file in /usr/bin/asmrun /usr/share/man/man1/asmrun.1.gz /usr/share/bash-completion/completions/asmrun \
    /usr/share/zsh/vendor-completions/_asmrun /usr/share/fish/vendor_completions.d/asmrun.fish /usr/share/doc/asmrun/README.md; do
    in_root test -f "$file" || { echo "FAIL: $file missing" >&2; exit 1; }
    echo "$file"
done
in_root bash -c '. /usr/share/bash-completion/completions/asmrun && complete -p asmrun'

echo "== a sample folder"
mkdir -p "$root/root/samples"
for name in hello exit_code echo printf hello32 segfault; do
    cp "$here/asm/$name.asm" "$here/asm/$name.expect" "$root/root/samples/"
done
ls "$root/root/samples"

echo "== asmrun --version; asmrun samples/hello.asm"
in_root sh -c 'cd /root && asmrun --version && asmrun samples/hello.asm; echo "exit status $?"'

echo "== asmrun test samples --runner native,qemu"
in_root sh -c 'cd /root && asmrun test samples --runner native,qemu'

echo "== asmrun doctor"
in_root asmrun doctor
echo "== PASS: $(basename "$deb") installs and runs in a fresh chroot"
