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
# cache folder and the mirror.
ROOTS_CACHE=${ROOTS_CACHE:-/var/cache/asmrun-roots}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

root_base() {
    base="$ROOTS_CACHE/$1"
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
    base=$(root_base "$1") || return 1
    root=$(mktemp -d "/var/tmp/asmrun-root-$1.XXXXXX")
    cp -a "$base/." "$root/"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    mount -t proc proc "$root/proc"
    echo "$root"
}

in_root() {
    root=$1
    shift
    chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}

root_apt() {
    root=$1
    suite=$2
    shift 2
    archive="$ROOTS_CACHE/apt-$suite"
    mkdir -p "$archive"
    cp "$archive"/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
    in_root "$root" apt-get update -qq || return 1
    in_root "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >"$root/tmp/apt.log" 2>&1 \
        || { tail -n 20 "$root/tmp/apt.log" >&2; return 1; }
    cp -n "$root"/var/cache/apt/archives/*.deb "$archive/" 2>/dev/null || true
}

root_remove() {
    root=$1
    case "$root" in /var/tmp/asmrun-root-*) ;; *) echo "root_remove: $root is not a test root" >&2; return 1 ;; esac
    [ -d "$root" ] || return 0
    umount "$root/proc" 2>/dev/null || true
    if findmnt -R "$root" >/dev/null 2>&1 || findmnt -rn -o TARGET | grep -q "^$root/"; then
        echo "root_remove: something is still mounted under $root; not deleting it:" >&2
        findmnt -rn -o TARGET | grep "^$root" >&2
        return 1
    fi
    rm -rf --one-file-system "$root"
}
