#!/usr/bin/env bash
# libmicrohttpd 1.0.1, built from Debian 13's source package and installed as a
# static library under PREFIX (default /usr/local), where pkg-config, and so
# SwiftPM, find it before Debian 12's 0.9.75.
#
# Why not Debian 12's 0.9.75: it answers a request whose Content-Length is
# malformed with its error head written twice, and a Cookie field with an
# unterminated quoted value (`a="`) with 431 on every route, before the server
# sees the request; both are fixed in 1.0. Debian's patches to 1.0.1 touch only
# its tests and manual page, so the upstream tarball is the library Debian ships,
# with two fixes of ours (below, `fix_full_epoll_batch` and `wake_once_for_resumes`).
#
# Pinned by version and SHA-256 (Debian's Sources index for trixie). Built
# without HTTPS (the server speaks plain HTTP behind a proxy), without its own
# cookie parser (SessionCookie reads the field itself), and static, so that the
# binary and the Docker image need no shared libmicrohttpd. About 15 s on 2 cores.
#
# `--check`: exit 0 if pkg-config finds this version under its own name, else 1; builds nothing.
# Environment: PREFIX, DEBIAN_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

readonly VERSION=1.0.1
readonly SHA256=a89e09fc9b4de34dde19f4fcb4faaa1ce10299b9908db1132bbfa1de47882b94
readonly MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
readonly PREFIX=${PREFIX:-/usr/local}
readonly TARBALL=libmicrohttpd_${VERSION}.orig.tar.gz

# Installed under a name of its own, libmicrohttpd-1.0.1: as plain -lmicrohttpd the linker took
# whichever it met first on its search path, and Debian's 0.9.75 (libmicrohttpd-dev) wins as soon
# as another library's flags put /usr/lib before /usr/local/lib.
# The name changes with each fix of ours, so that `--check` finds an earlier build missing it.
readonly LIBRARY=microhttpd-$VERSION-fix2

installed() { pkg-config --exact-version="$VERSION" libmicrohttpd && [[ " $(pkg-config --libs libmicrohttpd) " == *" -l$LIBRARY "* ]]; }

if [[ ${1:-} == --check ]]; then
    installed
    exit
fi

work=$(mktemp -d -t libmicrohttpd.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "Building libmicrohttpd $VERSION into $PREFIX"
curl -fsSL --retry 3 -o "$work/$TARBALL" "$MIRROR/pool/main/libm/libmicrohttpd/$TARBALL"
echo "$SHA256  $work/$TARBALL" | sha256sum --check --quiet -
tar -xzf "$work/$TARBALL" -C "$work"
cd "$work/libmicrohttpd-$VERSION"

# A daemon's epoll loop asks again while a call returned a full batch (128
# events), with the same timeout: when exactly 128 were ready, the second call
# waited for an event that may never come (every client waiting for an
# answer), and the 128 went unanswered until the idle timeout. The server's
# acceptor hands connections to the daemons in turn, so 256 new connections
# made 128 on each. Asked again, it now waits for nothing.
fix_full_epoll_batch() {
    local file=src/microhttpd/daemon.c
    sed -i '/num_events = epoll_wait (daemon->epoll_fd,/,/timeout_ms);/ s|timeout_ms);|timeout_ms);\n    timeout_ms = 0; /* a full batch is drained without waiting */|' "$file"
    grep -q "timeout_ms = 0; /\* a full batch is drained without waiting \*/" "$file" || {
        echo "libmicrohttpd $VERSION: the epoll fix did not apply" >&2
        exit 1
    }
}
fix_full_epoll_batch
# Each MHD_resume_connection wrote the daemon's wake-up (an eventfd), a system
# call each, even while an earlier resume's wake-up was still pending: a
# change sent to 10,000 open event streams resumes them all at once. Written
# now only by the resume that finds none pending (`daemon->resuming`, read
# and set under the lock the daemon clears it under before it resumes every
# connection marked), so the daemon still wakes for every resume.
wake_once_for_resumes() {
    local file=src/microhttpd/daemon.c
    local range='/^MHD_resume_connection (struct MHD_Connection \*connection)$/,/^}$/'
    sed -i "$range {
        s|^  struct MHD_Daemon \*daemon = connection->daemon;$|&\n  bool wake_daemon; /* no wake-up pending yet */|
        s|^  daemon->resuming = true;$|  wake_daemon = ! daemon->resuming;\n&|
        s|^  if ( (MHD_ITC_IS_VALID_ (daemon->itc)) \&\&$|  if ( wake_daemon \&\& (MHD_ITC_IS_VALID_ (daemon->itc)) \&\&|
    }" "$file"
    [[ $(sed -n "$range p" "$file" | grep -c "wake_daemon") == 3 ]] || {
        echo "libmicrohttpd $VERSION: the resume fix did not apply" >&2
        exit 1
    }
}
wake_once_for_resumes
# Its header in a folder of its own: a folder the compiler searches by default
# (PREFIX/include) would come after /usr/include, where Debian 12's may be.
./configure --quiet --prefix="$PREFIX" --includedir="$PREFIX/include/libmicrohttpd-$VERSION" --disable-shared --enable-static --with-pic \
    --disable-https --disable-cookie --disable-doc --disable-examples --disable-tools --disable-curl \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
make --silent -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -50 "$work/make.log" >&2; exit 1; }
make --silent install >"$work/install.log" 2>&1 || { tail -50 "$work/install.log" >&2; exit 1; }
libdir=$PREFIX/lib
mv "$libdir/libmicrohttpd.a" "$libdir/lib$LIBRARY.a"
rm -f "$libdir/libmicrohttpd.la"
sed -i "s/-lmicrohttpd\b/-l$LIBRARY/" "$libdir/pkgconfig/libmicrohttpd.pc"
installed || {
    echo "libmicrohttpd $VERSION is installed in $PREFIX but pkg-config does not find it first" >&2
    exit 1
}
