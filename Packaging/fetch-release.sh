#!/bin/sh
# Fetches asmrun's release for this machine's architecture and checks it against the release's
# SHA256SUMS; action.yml runs it, ReleaseFetchTests serve a release layout from a local folder.
#
#   fetch-release.sh --tag       prints the release tag to fetch, or nothing when there is none:
#                                $ASMRUN_VERSION (0.1.0 or v0.1.0) if set, else the tag the action
#                                was used at, the last folder of $GITHUB_ACTION_PATH
#                                (…/_actions/OWNER/REPO/v0.1.0). A branch, a commit or a checkout
#                                used as `uses: ./` has no release: the action builds from source.
#   fetch-release.sh TAG DEST    downloads asmrun-VERSION-ARCH-linux.tar.gz and SHA256SUMS from
#                                $ASMRUN_RELEASES/TAG, checks the tarball's checksum and unpacks it
#                                into DEST (DEST/bin/asmrun), which must not exist yet.
#
# ASMRUN_RELEASES: a URL curl reads (https://, file://) or a local folder; by default
# https://github.com/REPO/releases/download with REPO from the action's folder, else
# $GITHUB_REPOSITORY. ASMRUN_ARCH overrides `uname -m` (x86_64 or aarch64).
set -eu
me=fetch-release.sh
fail() {
    echo "$me: $*" >&2
    exit 1
}

# OWNER/REPO and REF of the action's own checkout, when it is one (…/_actions/OWNER/REPO/REF).
action_checkout() {
    case "${GITHUB_ACTION_PATH:-}" in
        */_actions/*/*/*) echo "${GITHUB_ACTION_PATH#*/_actions/}" ;;
        *) echo "" ;;
    esac
}

if [ "${1:-}" = --tag ]; then
    version=${ASMRUN_VERSION:-}
    if [ -z "$version" ]; then
        ref=$(action_checkout)
        version=${ref##*/}
    fi
    case "$version" in
        "") ;;
        v[0-9]*.[0-9]*.[0-9]* | [0-9]*.[0-9]*.[0-9]*) echo "v${version#v}" ;;
        *) [ -n "${ASMRUN_VERSION:-}" ] && fail "version '$version' is not a release version such as 0.1.0" ;;
    esac
    exit 0
fi

[ $# = 2 ] || fail "usage: $me --tag | $me TAG DEST"
tag=$1
dest=$2
case "$tag" in v[0-9]*.[0-9]*.[0-9]*) ;; *) fail "'$tag' is not a release tag such as v0.1.0" ;; esac
version=${tag#v}
arch=${ASMRUN_ARCH:-$(uname -m)}
case "$arch" in x86_64 | aarch64) ;; *) fail "asmrun has no release for $arch (x86_64 and aarch64 only)" ;; esac
[ ! -e "$dest" ] || fail "$dest already exists"
releases=${ASMRUN_RELEASES:-}
if [ -z "$releases" ]; then
    checkout=$(action_checkout)
    repo=${checkout%/*}
    [ -n "$repo" ] || repo=${GITHUB_REPOSITORY:-}
    [ -n "$repo" ] || fail "no repository to download from: set ASMRUN_RELEASES"
    releases="https://github.com/$repo/releases/download"
fi
case "$releases" in *://*) ;; *) releases="file://$(cd "$releases" && pwd)" ;; esac
name="asmrun-$version-$arch-linux"

work=$(mktemp -d "${TMPDIR:-/tmp}/asmrun-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
fetch() {
    curl --fail --silent --show-error --location --retry 3 --output "$work/$1" "$releases/$tag/$1" 2>"$work/curl.err" \
        || fail "could not download $releases/$tag/$1: $(tail -n 1 "$work/curl.err")"
}
fetch SHA256SUMS
fetch "$name.tar.gz"
expected=$(awk -v file="$name.tar.gz" '$2 == file || $2 == "*" file { print $1 }' "$work/SHA256SUMS")
[ -n "$expected" ] || fail "SHA256SUMS of $tag has no line for $name.tar.gz: not installed"
actual=$(sha256sum "$work/$name.tar.gz" | cut -d' ' -f1)
[ "$actual" = "$expected" ] \
    || fail "$name.tar.gz does not match SHA256SUMS of $tag (sha256 $actual, SHA256SUMS says $expected): not installed"

tar -xzf "$work/$name.tar.gz" -C "$work"
[ -x "$work/$name/bin/asmrun" ] || fail "$name.tar.gz holds no $name/bin/asmrun"
got=$("$work/$name/bin/asmrun" --version 2>&1) || fail "$name/bin/asmrun does not run here: $got"
[ "$got" = "asmrun $version" ] || fail "$name/bin/asmrun says '$got', not 'asmrun $version'"
mkdir -p "$(dirname "$dest")"
mv "$work/$name" "$dest"
echo "asmrun $version ($arch) from $releases/$tag, checked against SHA256SUMS: $dest/bin/asmrun"
