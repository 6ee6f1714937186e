#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL: a new cluster in a temporary
# directory, on loopback and a free port, stopped and removed afterwards,
# whatever the command does. The command finds it in SECTIONAL_TEST_POSTGRES
# (a URL to its `postgres` database, user `app`, no password).
#
# Usage: scripts/with-postgres.sh COMMAND [ARGS...]
# Installs Debian's postgresql first when missing (as root).
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [[ -z $bin || ! -x $bin/initdb ]]; then
    if [[ $(id -u) != 0 ]]; then
        echo "PostgreSQL is missing. Run: sudo apt-get install -y postgresql" >&2
        exit 1
    fi
    echo "Installing postgresql" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi

# initdb refuses to run as root: the cluster belongs to the postgres user then.
as_owner() { if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }

scratch=$(mktemp -d)
chmod 755 "$scratch"
if [[ $(id -u) == 0 ]]; then
    install -d -o postgres -g postgres -m 700 "$scratch/data"
    install -d -o postgres -g postgres "$scratch/socket"
else
    install -d -m 700 "$scratch/data"
    install -d "$scratch/socket"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    as_owner "$bin/pg_ctl" -D "$scratch/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$scratch"
}
trap stop EXIT

as_owner "$bin/initdb" -D "$scratch/data" -U app -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
# Durability is the database's job in production; a test cluster needs none of it.
as_owner "$bin/pg_ctl" -D "$scratch/data" -l "$scratch/data/server.log" -w -o \
    "-k $scratch/socket -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    start >/dev/null

export SECTIONAL_TEST_POSTGRES="postgres://app@127.0.0.1:$port/postgres"
echo "PostgreSQL for the tests: $SECTIONAL_TEST_POSTGRES" >&2
"$@"
