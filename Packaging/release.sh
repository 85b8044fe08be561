#!/bin/sh
# The release assets for this machine's architecture, from the static binary `make build` gave
# (`make dist` runs both; the release workflow runs `make dist` on an x86_64 and an aarch64
# runner and joins the two SHA256SUMS). In OUT (default .build/assets):
#   asmrun-VERSION-ARCH-linux.tar.gz  asmrun-VERSION-ARCH-linux/{bin/asmrun, share/…, README.md}
#   asmrun_VERSION_DEBARCH.deb        (Packaging/deb.sh; lintian-checked where lintian is installed)
#   SHA256SUMS                        the two files' checksums, as `sha256sum -c` reads them
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/.build/assets}
binary="$here/.build/release/asmrun"
version=$(sed -n 's/.*static let version = "\(.*\)"/\1/p' "$here/Sources/CLI/AsmRun.swift")
# The only architecture-specific lines: uname's name for the tarball, Debian's for the package.
arch=$(uname -m)
case "$arch" in
    x86_64) deb_arch=amd64 ;;
    aarch64) deb_arch=arm64 ;;
    *) echo "release.sh: no release for $arch (x86_64 and aarch64 only)" >&2; exit 1 ;;
esac
[ -x "$binary" ] || { echo "release.sh: no $binary: run make build first" >&2; exit 1; }
name="asmrun-$version-$arch-linux"
tarball="$name.tar.gz"
deb="asmrun_${version}_$deb_arch.deb"

mkdir -p "$out"
stage=$(mktemp -d "${TMPDIR:-/tmp}/asmrun-release.XXXXXX")
trap 'rm -rf "$stage"' EXIT
make --no-print-directory -C "$here" install DESTDIR="$stage" PREFIX="/$name" BIN="$binary" >/dev/null
install -m 644 "$here/README.md" "$stage/$name/README.md"
strip --strip-unneeded "$stage/$name/bin/asmrun"
got=$("$stage/$name/bin/asmrun" --version)
[ "$got" = "asmrun $version" ] || { echo "release.sh: the stripped binary says '$got', not 'asmrun $version'" >&2; exit 1; }
tar -C "$stage" --owner=0 --group=0 --sort=name --mtime=@0 -cf - "$name" | gzip -9n >"$out/$tarball.partial"
mv "$out/$tarball.partial" "$out/$tarball"

VERSION=$version DEB_ARCH=$deb_arch sh "$here/Packaging/deb.sh" "$binary" "$out/$deb.partial"
mv "$out/$deb.partial" "$out/$deb"
if command -v lintian >/dev/null; then
    lintian --fail-on error,warning "$out/$deb"
else
    echo "lintian not installed: $deb not checked"
fi

(cd "$out" && sha256sum "$tarball" "$deb" >SHA256SUMS.partial && mv SHA256SUMS.partial SHA256SUMS)
echo "built in $out:"
(cd "$out" && cat SHA256SUMS)
