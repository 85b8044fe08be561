#!/bin/sh
# Builds asmrun_VERSION_ARCH.deb with dpkg-deb from the static binary `make build` gives: the
# binary, the man page, the bash, zsh and fish completions, and in /usr/share/doc/asmrun the
# README and the guides (compressed), the copyright file and the changelog. Called by `make deb`:
#   VERSION=0.1.0 DEB_ARCH=amd64 sh Packaging/deb.sh .build/release/asmrun OUT.deb
set -eu
binary=$1
out=$2
: "${VERSION:?VERSION is not set}" "${DEB_ARCH:?DEB_ARCH is not set}"
here=$(cd "$(dirname "$0")/.." && pwd)
if readelf -lW "$binary" | grep -Eq '^ *(INTERP|DYNAMIC) '; then
    echo "deb.sh: $binary is not static: build it with make build" >&2
    exit 1
fi
changelog=$(sed -n '1s/^asmrun (\([^)]*\)).*/\1/p' "$here/Packaging/changelog")
[ "$changelog" = "$VERSION" ] || {
    echo "deb.sh: Packaging/changelog's first entry is $changelog, not $VERSION: add an entry for $VERSION" >&2
    exit 1
}
root=$(mktemp -d "${TMPDIR:-/tmp}/asmrun-deb.XXXXXX")
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT

make --no-print-directory -C "$here" install DESTDIR="$root" PREFIX=/usr BIN="$(realpath "$binary")" >/dev/null
gzip -9n "$root/usr/share/man/man1/asmrun.1"
# Debian policy: installed binaries are stripped (the symbols are a third of the file).
strip --strip-unneeded --remove-section=.comment "$root/usr/bin/asmrun"
doc="$root/usr/share/doc/asmrun"
install -d "$doc"
install -m 644 "$here/README.md" "$doc/README.md"
for guide in "$here"/Documentation/*.md; do install -m 644 "$guide" "$doc/"; done
install -m 644 "$here/Packaging/changelog" "$doc/changelog"
gzip -9n "$doc"/*.md "$doc/changelog"
install -m 644 "$here/Packaging/copyright" "$doc/copyright"
# The binary is static (-static-executable: see the Makefile), which lintian flags; the override
# says why. (Being static, it has no PIE tag either: lintian's hardening check skips it.)
install -d "$root/usr/share/lintian/overrides"
cat >"$root/usr/share/lintian/overrides/asmrun" <<'OVERRIDES'
# asmrun is one static binary per architecture so that the same file runs on every release
# from Debian 11 on and in roots without a C library; it looks no user or host up (no NSS).
asmrun: statically-linked-binary [usr/bin/asmrun]
OVERRIDES

# No library dependency: the binary holds its C library. The tools it runs: nasm, binutils (ld),
# gcc for libc programs and qemu-user (Debian 13's qemu-user is static and has no -static names).
depends="nasm, binutils, gcc, qemu-user | qemu-user-static"
if [ "$DEB_ARCH" = amd64 ]; then
    # gcc only recommends libc6-dev, and libc programs do not link without its crt1.o; 32-bit
    # libc programs (`cc -m32`) need gcc-multilib. Crash reports and `asmrun debug` need gdb,
    # `--strace` strace.
    depends="$depends, libc6-dev"
    recommends="gdb | gdb-multiarch, strace, gcc-multilib"
else
    # Elsewhere x86 programs need cross binutils and the x86 C libraries, and a gdb that reads x86.
    recommends="gdb-multiarch, strace, binutils-x86-64-linux-gnu, gcc-x86-64-linux-gnu, libc6-dev-amd64-cross, gcc-i686-linux-gnu, libc6-dev-i386-cross"
fi
install -d "$root/DEBIAN"
{
    echo "Package: asmrun"
    echo "Version: $VERSION"
    echo "Architecture: $DEB_ARCH"
    echo "Maintainer: asmrun developers <asmrun@users.noreply.github.com>"
    echo "Installed-Size: $(du -sk "$root/usr" | cut -f1)"
    echo "Depends: $depends"
    echo "Recommends: $recommends"
    echo "Section: devel"
    echo "Priority: optional"
    echo "Description: assemble, link and run x86 NASM programs, and test them"
    echo " asmrun assembles a NASM source, links it and runs it in one step, natively on"
    echo " x86_64 and under qemu-user on ARM hosts, and regression-tests folders of"
    echo " programs against their expected output, exit status and signals."
} >"$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/md5sums"
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
