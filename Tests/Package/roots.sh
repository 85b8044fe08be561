# Debian roots for the package tests, sourced by test-static.sh and test-deb.sh (as root).
#
#   root_new SUITE          a fresh copy of a pristine `debootstrap --variant=minbase SUITE` root,
#                           kept in /var/cache/asmrun-roots/SUITE (made on first use); prints its path
#   root_apt ROOT SUITE PKG…  apt-get install --no-install-recommends inside ROOT; the .debs are
#                           kept in /var/cache/asmrun-roots/apt-SUITE, so a second run downloads nothing
#   in_root ROOT CMD…       CMD in ROOT with a clean environment
#   root_remove ROOT        unmounts what root_new mounted and deletes ROOT, refusing while
#                           anything is still mounted below it
#
# Mounts: a root gets a fresh proc (`mount -t proc`), never a bind of the host's /dev, /sys or
# /proc: deleting a root that holds a bind mount deletes the host's files through it. The roots'
# own /dev holds the device nodes debootstrap made. ROOTS_CACHE and DEBIAN_MIRROR override the
# cache folder and the mirror. The functions keep their variables `local` (dash and bash): a
# caller's `root` must survive them, or its clean-up would delete the wrong folder.
ROOTS_CACHE=${ROOTS_CACHE:-/var/cache/asmrun-roots}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

root_base() {
    local base="$ROOTS_CACHE/$1"
    if [ ! -x "$base/usr/bin/apt-get" ]; then
        echo "== debootstrap --variant=minbase $1 $base (once; a few minutes)" >&2
        rm -rf "$base.partial" && mkdir -p "$ROOTS_CACHE"
        nice -n 19 debootstrap --variant=minbase "$1" "$base.partial" "$DEBIAN_MIRROR" >"$ROOTS_CACHE/$1.log" 2>&1 \
            || { echo "debootstrap $1 failed: see $ROOTS_CACHE/$1.log" >&2; return 1; }
        mv "$base.partial" "$base"
    fi
    echo "$base"
}

root_new() {
    local base fresh
    base=$(root_base "$1") || return 1
    fresh=$(mktemp -d "/var/tmp/asmrun-root-$1.XXXXXX")
    cp -a "$base/." "$fresh/"
    cp /etc/resolv.conf "$fresh/etc/resolv.conf"
    mount -t proc proc "$fresh/proc"
    echo "$fresh"
}

in_root() {
    local target=$1
    shift
    chroot "$target" /usr/bin/env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}

root_apt() {
    local target=$1 archive="$ROOTS_CACHE/apt-$2"
    shift 2
    mkdir -p "$archive"
    cp "$archive"/*.deb "$target/var/cache/apt/archives/" 2>/dev/null || true
    in_root "$target" apt-get update -qq || return 1
    in_root "$target" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >"$target/tmp/apt.log" 2>&1 \
        || { tail -n 20 "$target/tmp/apt.log" >&2; return 1; }
    cp -n "$target"/var/cache/apt/archives/*.deb "$archive/" 2>/dev/null || true
}

root_remove() {
    local target=$1
    case "$target" in /var/tmp/asmrun-root-*) ;; *) echo "root_remove: $target is not a test root" >&2; return 1 ;; esac
    [ -d "$target" ] || return 0
    umount "$target/proc" 2>/dev/null || true
    if findmnt -rn -o TARGET | grep -q "^$target/"; then
        echo "root_remove: something is still mounted under $target; not deleting it:" >&2
        findmnt -rn -o TARGET | grep "^$target/" >&2
        return 1
    fi
    rm -rf --one-file-system "$target"
}
