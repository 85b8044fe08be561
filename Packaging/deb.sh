#!/bin/sh
# Builds asmrun_VERSION_ARCH.deb with dpkg-deb from a built binary: the binary, the man page, the
# bash, zsh and fish completions and the README. Called by `make deb`:
#   VERSION=0.1.0 DEB_ARCH=amd64 sh Packaging/deb.sh .build/release/asmrun OUT.deb
set -eu
binary=$1
out=$2
: "${VERSION:?VERSION is not set}" "${DEB_ARCH:?DEB_ARCH is not set}"
root=$(mktemp -d "${TMPDIR:-/tmp}/asmrun-deb.XXXXXX")
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT

make --no-print-directory install DESTDIR="$root" PREFIX=/usr BIN="$binary" >/dev/null
gzip -9n "$root/usr/share/man/man1/asmrun.1"
# Debian policy: installed binaries are stripped (the symbols are a third of the file).
strip --strip-unneeded "$root/usr/bin/asmrun"
install -d "$root/usr/share/doc/asmrun"
install -m 644 README.md "$root/usr/share/doc/asmrun/README.md"

# The binary links glibc dynamically (the Swift runtime is static, and `make build` links the C++
# runtime and libseccomp statically where gcc has their archives): the lowest glibc it needs is
# the highest GLIBC_ symbol version it references; libstdc++, libgcc and libseccomp only when it
# still needs them.
glibc=$(objdump -T "$binary" | sed -n 's/.*GLIBC_\([0-9][0-9.]*\).*/\1/p' | sort -uV | tail -n 1)
needed=$(objdump -p "$binary" | sed -n 's/^ *NEEDED *//p')
depends="libc6 (>= $glibc)"
case "$needed" in *libgcc_s.so*) depends="$depends, libgcc-s1" ;; esac
case "$needed" in *libstdc++.so*) depends="$depends, libstdc++6" ;; esac
case "$needed" in *libseccomp.so*) depends="$depends, libseccomp2" ;; esac
depends="$depends, nasm, binutils, gcc, qemu-user | qemu-user-static"
# Crash reports and `asmrun debug` use gdb (gdb-multiarch off x86), --strace uses strace.
recommends="strace"
if [ "$DEB_ARCH" = amd64 ]; then
    # gcc only recommends libc6-dev, and libc programs do not link without its crt1.o.
    depends="$depends, libc6-dev"
    recommends="$recommends, gdb | gdb-multiarch"
else
    # On other machines x86 programs need cross binutils and the x86 C libraries (see README).
    recommends="$recommends, gdb-multiarch, binutils-x86-64-linux-gnu, gcc-x86-64-linux-gnu, libc6-dev-amd64-cross, gcc-i686-linux-gnu, libc6-dev-i386-cross"
fi
install -d "$root/DEBIAN"
{
    echo "Package: asmrun"
    echo "Version: $VERSION"
    echo "Architecture: $DEB_ARCH"
    echo "Maintainer: asmrun developers <asmrun@users.noreply.github.com>"
    echo "Installed-Size: $(du -sk "$root/usr" | cut -f1)"
    echo "Depends: $depends"
    [ -z "$recommends" ] || echo "Recommends: $recommends"
    echo "Section: devel"
    echo "Priority: optional"
    echo "Description: assemble, link and run x86 NASM programs, and test them"
    echo " asmrun assembles a NASM source, links it and runs it in one step, natively on"
    echo " x86_64 and under qemu-user on ARM hosts, and regression-tests folders of"
    echo " programs against their expected output, exit status and signals."
} >"$root/DEBIAN/control"
dpkg-deb --root-owner-group --build "$root" "$out" >/dev/null
