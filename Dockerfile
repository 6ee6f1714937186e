# Sectional in a container:
#   docker build -t sectional .
#   docker run --rm -p 8080:8080 sectional     # then open http://localhost:8080/feed
#
# Two stages: the official Swift image builds a release binary with the Swift
# runtime linked in statically; a slim Debian image of the same release runs it
# with only the shared libraries it links. `make docker-check` builds this file
# and serves from the result without a Docker engine; `make test` checks that it
# agrees with the Makefile.

# --- build: the toolchain the project is built with (SWIFT_VERSION in make/docker.mk)
FROM swift:6.3.1-bookworm AS build

RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libsqlite3-dev libpq-dev libsodium-dev pkg-config curl make \
    && rm -rf /var/lib/apt/lists/*

# libmicrohttpd 1.0.1 from Debian's source, pinned by checksum, linked in statically (as `make deps` does).
COPY scripts/install-libmicrohttpd.sh /tmp/
RUN bash /tmp/install-libmicrohttpd.sh && rm /tmp/install-libmicrohttpd.sh

WORKDIR /build

# Dependencies first, from the manifest alone, so that editing sources reuses this layer.
COPY Package.swift Package.resolved* ./
RUN swift package resolve

# SwiftPM wants the folder of every target the manifest declares, tests included.
COPY Sources ./Sources
COPY Plugins ./Plugins
COPY Tests ./Tests

# The Makefile's RELEASE_BUILD, exactly (a test in `make test` keeps the two equal):
# cross-module optimisation and value operations without type layouts are asked
# for here, not by unsafe flags in the manifest.
RUN swift build -c release --static-swift-stdlib -Xswiftc -cross-module-optimization -Xswiftc -Xfrontend -Xswiftc -disable-type-layout

# Without its symbol table the binary is about 13 MB smaller.
RUN install -D --mode=755 --strip .build/release/feed-server /staging/feed-server

# --- runtime: the shared libraries the binary links beyond libc, and nothing else
FROM debian:bookworm-slim

# `ldd feed-server` lists libsqlite3.so.0, libsodium.so.23, libstdc++.so.6,
# libgcc_s.so.1, and libc's own (libmicrohttpd is linked in); libpq.so.5
# (PostgreSQL's client, from libpq5) is opened by the first connection to a
# postgres:// database.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libsqlite3-0 libpq5 libsodium23 libstdc++6 libgcc-s1 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin sectional \
    && install -d -o 10001 -g 10001 /data

WORKDIR /app
COPY --from=build /staging/feed-server /app/feed-server
COPY Public /app/Public

# A numeric user, so that a runtime can tell it is not root without reading /etc/passwd.
USER 10001:10001

# The SQLite database lives on a volume, so that it outlives the container;
# `docker run -e DATABASE_URL=postgres://USER@HOST:PORT/DB` points replicas at PostgreSQL instead.
VOLUME /data
ENV DATABASE_URL=sqlite:/data/sectional.sqlite

# feed-server reads its port from PORT; `docker run -e PORT=9000 -p 9000:9000` moves it.
ENV PORT=8080
EXPOSE 8080

# The server stops on SIGTERM within a few seconds and exits 0.
STOPSIGNAL SIGTERM

# bash (always in Debian) speaks HTTP over /dev/tcp: no curl needed.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8080} && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && read -r -t 4 status <&3 && [[ $status == 'HTTP/1.'[01]' 200 '* ]]"]

ENTRYPOINT ["/app/feed-server"]
CMD ["--host", "0.0.0.0", "--public", "/app/Public"]
