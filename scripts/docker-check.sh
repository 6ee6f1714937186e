#!/usr/bin/env bash
# `make docker-check`: build the project's Dockerfile and serve from the image,
# on a machine without a Docker engine.
#
#  1. Stand-ins for the Dockerfile's base images, tagged with the names it uses:
#     debian:bookworm-slim from Debian's packages (debootstrap --variant=minbase),
#     and swift:<version>-bookworm = that + the packages the official Swift image
#     installs + the Swift toolchain installed here. Made once, then reused.
#  2. `podman build --isolation chroot` of the Dockerfile, unchanged.
#  3. The image mounted (`podman image mount`); its entrypoint and command run
#     with chroot as the image's user, in its working directory, with its
#     environment, on a free port. /healthz, signing in as the demo user, /feed and
#     /api/feed/sections with its session, a static file and the image's
#     HEALTHCHECK are checked; SIGTERM must end it with exit 0.
#  4. The size the runtime stage adds on top of its base image (the stand-in base
#     is not byte for byte the real slim image, so the whole image's size is not
#     the figure).
#
# Needs root (chroot, mounts). Installs podman, debootstrap and curl when missing.
# Leaves the stand-ins and the built image in podman's storage as a cache (the
# build stage's layers too: `podman image prune` frees the old ones); removes
# everything else it made (server process, mounts, temporary files).
#
# Environment: SWIFT (default swift), SWIFT_VERSION (from make/docker.mk),
# SIGN_IN_NAME and SIGN_IN_PASSWORD (the seeded demo user, alex),
# DEBIAN_MIRROR (default http://deb.debian.org/debian), MAX_ADDED_MB (default 80).
set -euo pipefail

cd "$(dirname "$0")/.."

readonly IMAGE=localhost/sectional:docker-check
readonly DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
readonly MAX_ADDED_MB=${MAX_ADDED_MB:-80}
readonly SWIFT=${SWIFT:-swift}
# The packages the official swift:<version>-bookworm image installs on top of Debian 12.
readonly SWIFT_IMAGE_PACKAGES="binutils libicu-dev libcurl4-openssl-dev libedit-dev \
libsqlite3-dev libncurses-dev libpython3-dev libxml2-dev pkg-config uuid-dev tzdata git \
gcc libstdc++-12-dev"

say() { printf 'docker-check: %s\n' "$*"; }
die() { printf 'docker-check: error: %s\n' "$*" >&2; exit 1; }

failures=()
pass() { printf '  ok    %s\n' "$*"; }
fail() { printf '  FAIL  %s\n' "$*"; failures+=("$*"); }

[[ $(id -u) == 0 ]] || die "run as root: the check mounts images and uses chroot"
[[ -f Dockerfile ]] || die "no Dockerfile in $(pwd)"

# ---------------------------------------------------------------- tidy-up
work=$(mktemp -d -t docker-check.XXXXXX)
server_pid=
image_mounted=
volume_mounts=()
root=

# Whether process $1 runs (a child that exited stays a zombie until waited for).
running() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [[ ${stat%% *} != Z ]]
}

# The PIDs of the processes running inside the mounted image (all started by this check).
processes_in_image() {
    local proc
    [[ -n $root ]] || return 0
    for proc in /proc/[0-9]*; do
        [[ $(readlink "$proc/root" 2>/dev/null) == "$root" ]] && echo "${proc#/proc/}"
    done
    return 0
}

# Unmounts whatever is mounted below $1, deepest first (debootstrap mounts
# /proc and /sys, sometimes /dev, inside its target; an interrupted run can leave them).
unmount_below() {
    local mount_point
    awk -v dir="$1" 'index($2, dir "/") == 1 { print $2 }' /proc/self/mounts | sort -r |
        while read -r mount_point; do
            umount "$mount_point" 2>/dev/null || umount -l "$mount_point" || true
        done
}

cleanup() {
    local status=$?
    if [[ -n $server_pid ]] && running "$server_pid"; then
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    local pid
    for pid in $(processes_in_image); do kill -KILL "$pid" 2>/dev/null || true; done
    local volume_mount
    for volume_mount in "${volume_mounts[@]}"; do umount "$volume_mount" 2>/dev/null || umount -l "$volume_mount" 2>/dev/null || true; done
    if [[ -n $image_mounted ]]; then
        podman image unmount "$IMAGE" >/dev/null 2>&1 || say "could not unmount $IMAGE"
    fi
    unmount_below "$work"
    rm -rf --one-file-system "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- tools
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]})); then
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# podman's configuration for this check only (the machine's files stay as they are):
# no cgroups and no ulimits to set, which a chroot-isolated build cannot do here.
cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = []
cgroups = "disabled"

[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
export CONTAINERS_CONF=$work/containers.conf

# ---------------------------------------------------------------- 1. stand-in base images
# The images the Dockerfile builds FROM (stage names excluded).
base_images=()
stages=()
while read -r keyword rest; do
    [[ ${keyword^^} == FROM ]] || continue
    read -ra words <<<"$rest"
    image=
    for word in "${words[@]}"; do
        [[ $word == --* ]] && continue
        image=$word
        break
    done
    [[ ${#words[@]} -ge 3 && ${words[-2],,} == as ]] && stages+=("${words[-1]}")
    known=
    for stage in "${stages[@]}"; do [[ $stage == "$image" ]] && known=1; done
    [[ -n $known ]] || base_images+=("$image")
done <Dockerfile
((${#base_images[@]})) || die "the Dockerfile has no FROM"

# docker.io/library/NAME:TAG, as `docker pull NAME:TAG` would store it.
full_name() {
    case $1 in
        */*/*) echo "$1" ;;
        */*) echo "docker.io/$1" ;;
        *) echo "docker.io/library/$1" ;;
    esac
}

readonly DEBIAN_STAND_IN=docker.io/library/debian:bookworm-slim
# Stand-ins carry this label; one made by an older recipe is made again.
readonly STAND_IN_LABEL=org.sectional.docker-check.stand-in
readonly STAND_IN_RECIPE=2

make_debian_stand_in() {
    local name=$1 rootfs=$work/rootfs
    say "making $name from Debian's packages (debootstrap --variant=minbase bookworm, about a minute)"
    if ! debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1; then
        tail -n 20 "$work/debootstrap.log" >&2
        die "debootstrap failed"
    fi
    unmount_below "$rootfs"
    [[ $rootfs == "$work"/* && -f $rootfs/etc/debian_version ]] || die "debootstrap made no root file system in $rootfs"
    # As in the official image: deb822 sources for bookworm, its updates and security.
    rm -f "$rootfs/etc/apt/sources.list"
    cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    # As in the official images: apt keeps no caches and fetches no translations;
    # dpkg installs no documentation, manual pages or translations (the slim variant).
    local apt_clean='"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true";'
    printf '%s\n' "DPkg::Post-Invoke { $apt_clean };" "APT::Update::Post-Invoke { $apt_clean };" \
        'Dir::Cache::pkgcache "";' 'Dir::Cache::srcpkgcache "";' >"$rootfs/etc/apt/apt.conf.d/docker-clean"
    echo 'Acquire::GzipIndexes "true";' >"$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
    echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
    echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
    printf 'path-exclude /usr/share/%s/*\n' doc groff info linda lintian locale man >"$rootfs/etc/dpkg/dpkg.cfg.d/docker"
    echo 'path-include /usr/share/doc/*/copyright' >>"$rootfs/etc/dpkg/dpkg.cfg.d/docker"
    local shared=$rootfs/usr/share
    find "$shared/doc" -mindepth 2 ! -name copyright ! -type d -delete
    find "$shared/doc" -mindepth 1 -type d -empty -delete
    for dir in groff info linda lintian locale man; do
        if [[ -d $shared/$dir ]]; then find "$shared/$dir" -mindepth 1 -delete; fi
    done
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
        "$rootfs"/var/log/bootstrap.log
    tar --numeric-owner -C "$rootfs" -c . |
        podman import \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'CMD ["bash"]' \
            --change "LABEL $STAND_IN_LABEL=$STAND_IN_RECIPE" \
            --quiet - "$name" >/dev/null
    rm -rf --one-file-system "$rootfs"
}

make_swift_stand_in() {
    local name=$1 version=$2 swift_path usr_dir installed
    swift_path=$(command -v "$SWIFT") || die "no Swift toolchain ($SWIFT) to make $name from"
    installed=$("$SWIFT" --version 2>/dev/null | sed -n 's/^Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
    [[ $installed == "$version" ]] ||
        die "the Dockerfile builds with Swift $version but the installed toolchain is Swift ${installed:-unknown}: the stand-in for $name is made from the installed one"
    usr_dir=$(dirname "$(dirname "$(readlink -f "$swift_path")")")
    [[ $(basename "$usr_dir") == usr && $usr_dir != /usr ]] ||
        die "the Swift toolchain at $usr_dir is not a toolchain folder of its own (…/usr)"
    say "making $name: Debian 12, the official image's packages, and the Swift $installed toolchain in $(dirname "$usr_dir") (a few minutes)"
    mkdir -p "$work/swift-stand-in"
    # The official image starts from debian:12; the slim stand-in differs from it only
    # in documentation, which a build does not read.
    cat >"$work/swift-stand-in/Containerfile" <<EOF
FROM $DEBIAN_STAND_IN
RUN export DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \\
    && apt-get -q update && apt-get -q install -y $SWIFT_IMAGE_PACKAGES \\
    && rm -r /var/lib/apt/lists/*
ENV SWIFT_PLATFORM=debian12 SWIFT_BRANCH=swift-$version-release SWIFT_VERSION=swift-$version-RELEASE
COPY usr/ /usr/
RUN chmod -R o+r /usr/lib/swift && swift --version
LABEL $STAND_IN_LABEL=$STAND_IN_RECIPE
EOF
    # The toolchain's folder is the build context; nothing else is copied.
    podman build --isolation chroot --pull=never --layers=false --force-rm --format docker \
        -f "$work/swift-stand-in/Containerfile" -t "$name" "$(dirname "$usr_dir")" >"$work/swift-stand-in.log" 2>&1 || {
        tail -n 30 "$work/swift-stand-in.log" >&2
        die "could not make $name"
    }
}

ensure_image() {
    local image=$1 name
    name=$(full_name "$image")
    if podman image exists "$name"; then
        local recipe
        recipe=$(podman image inspect --format "{{index .Labels \"$STAND_IN_LABEL\"}}" "$name")
        if [[ -z $recipe || $recipe == "<no value>" || $recipe == "$STAND_IN_RECIPE" ]]; then
            say "base $image: present ($name)"
            return
        fi
        say "base $image: a stand-in from an older recipe, making it again"
        podman rmi "$name" >/dev/null
    fi
    case $image in
        debian:bookworm-slim | debian:bookworm | debian:12 | debian:12-slim)
            make_debian_stand_in "$name" ;;
        swift:*-bookworm)
            local version=${image#swift:}
            version=${version%-bookworm}
            [[ -z ${SWIFT_VERSION:-} || $version == "$SWIFT_VERSION" ]] ||
                die "the Dockerfile builds FROM $image but make/docker.mk says SWIFT_VERSION = $SWIFT_VERSION"
            ensure_image debian:bookworm-slim
            make_swift_stand_in "$name" "$version" ;;
        *)
            die "no stand-in for base image $image: this check knows debian:bookworm-slim and swift:<version>-bookworm" ;;
    esac
}

for image in "${base_images[@]}"; do ensure_image "$image"; done
runtime_base=$(full_name "${base_images[-1]}")

# ---------------------------------------------------------------- 2. build the Dockerfile
say "podman build --isolation chroot of the Dockerfile"
started=$SECONDS
if ! podman build --isolation chroot --pull=never --format docker --layers --force-rm \
    -t "$IMAGE" -f Dockerfile . >"$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log" >&2
    die "podman build failed"
fi
say "built $IMAGE in $((SECONDS - started)) s"
if grep -E '(^|/)[^ ]+\.swift:[0-9]+:[0-9]+: warning:' "$work/build.log"; then
    fail "the release build in the image has compiler warnings (above)"
fi

# ---------------------------------------------------------------- 3. run from the image
inspect() { podman image inspect --format "$1" "$IMAGE"; }
# read_list NAME FIELD: the image's list FIELD (say .Config.Cmd) into the array NAME.
read_list() {
    local -n list=$1
    mapfile -d '' -t list < <(inspect "{{range $2}}{{printf \"%s\\x00\" .}}{{end}}")
    # --format ends the output with a newline of its own
    if ((${#list[@]})) && [[ ${list[-1]} == $'\n' ]]; then unset 'list[-1]'; fi
}

user=$(inspect '{{.Config.User}}')
workdir=$(inspect '{{.Config.WorkingDir}}')
stop_signal=$(inspect '{{.Config.StopSignal}}')
exposed=$(inspect '{{range $port, $_ := .Config.ExposedPorts}}{{$port}} {{end}}')
read_list entrypoint .Config.Entrypoint
read_list command .Config.Cmd
read_list image_env .Config.Env
read_list health .HealthCheck.Test

say "image: user '${user}', workdir '${workdir:-/}', stop signal ${stop_signal:-none}, exposes ${exposed:-nothing}"
say "entrypoint + command: ${entrypoint[*]} ${command[*]}"

[[ -n $user && ${user%%:*} != root && ${user%%:*} != 0 ]] && pass "runs as a non-root user ($user)" ||
    fail "the image runs as root (USER '${user}')"
[[ $stop_signal == SIGTERM || $stop_signal == TERM || $stop_signal == 15 ]] && pass "STOPSIGNAL SIGTERM" ||
    fail "STOPSIGNAL is '${stop_signal}', not SIGTERM"
[[ " $exposed " == *" 8080/tcp "* ]] && pass "EXPOSE 8080" || fail "the image does not expose 8080 (it exposes: ${exposed:-nothing})"
((${#entrypoint[@]} + ${#command[@]})) || die "the image has neither ENTRYPOINT nor CMD"

root=$(podman image mount "$IMAGE")
image_mounted=1

# USER name[:group] or uid[:gid] as numbers, looked up in the image's own files.
user_name=${user%%:*}
group_name=${user#*:}
[[ $user == *:* ]] || group_name=
if [[ $user_name =~ ^[0-9]+$ ]]; then
    uid=$user_name
    gid=$(awk -F: -v id="$uid" '$3 == id { print $4; exit }' "$root/etc/passwd")
else
    uid=$(awk -F: -v n="$user_name" '$1 == n { print $3; exit }' "$root/etc/passwd")
    gid=$(awk -F: -v n="$user_name" '$1 == n { print $4; exit }' "$root/etc/passwd")
fi
[[ -n $uid ]] || die "user '$user_name' is not in the image's /etc/passwd"
if [[ -n $group_name ]]; then
    if [[ $group_name =~ ^[0-9]+$ ]]; then gid=$group_name; else
        gid=$(awk -F: -v n="$group_name" '$1 == n { print $3; exit }' "$root/etc/group")
    fi
fi
gid=${gid:-$uid}
home=$(awk -F: -v id="$uid" '$3 == id { print $6; exit }' "$root/etc/passwd")

# The image's ldd: every library the entrypoint links must be in the image.
program=${entrypoint[0]:-${command[0]}}
if links=$(chroot "$root" ldd "$program" 2>&1) && ! grep -q 'not found' <<<"$links"; then
    pass "every shared library resolves in the image: $(awk '$1 ~ /^lib|^\/lib/ { sub(".*/", "", $1); printf "%s ", $1 }' <<<"$links")"
else
    fail "ldd $program in the image: $(grep 'not found' <<<"$links" | tr -s ' \t\n' ' ')"
fi

# Libraries the program opens at run time, which ldd cannot see: libpq, for a postgres:// database.
# Read whole first: with pipefail, grep -q leaving early would fail ldconfig with SIGPIPE.
cache=$(chroot "$root" ldconfig -p)
for soname in libpq.so.5; do
    if grep -q "^[[:space:]]*$soname " <<<"$cache"; then
        pass "$soname (opened for a postgres:// database) is in the image"
    else
        fail "$soname is not in the image: a postgres:// DATABASE_URL would fail to connect"
    fi
done

# As a container runtime would: each VOLUME of the image is a fresh writable
# directory (the image's own is read-only here), owned as the image made it.
volumes=$(inspect '{{range $path, $_ := .Config.Volumes}}{{$path}} {{end}}')
for volume in $volumes; do
    [[ -d $root$volume ]] || die "the image declares VOLUME $volume but has no such directory"
    mkdir -p "$work/volumes$volume"
    chown "$(stat -c %u:%g "$root$volume")" "$work/volumes$volume"
    mount --bind "$work/volumes$volume" "$root$volume"
    volume_mounts+=("$root$volume")
    pass "VOLUME $volume: a writable directory owned by $(stat -c %u:%g "$root$volume")"
done

# A TCP port that nothing listens on (from /proc/net/tcp{,6}).
free_port() {
    local used port hex
    used=" "
    while read -r hex; do used+="$((16#$hex)) "; done < <(
        awk 'FNR > 1 && $4 == "0A" { n = split($2, a, ":"); print a[n] }' /proc/net/tcp /proc/net/tcp6 2>/dev/null)
    for _ in $(seq 100); do
        port=$((20000 + RANDOM % 30000))
        [[ $used == *" $port "* ]] || { echo "$port"; return; }
    done
    die "no free port found"
}
port=$(free_port)

# As a container would: the image's environment, HOME and HOSTNAME, the port moved by PORT.
run_env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOSTNAME=docker-check HOME="${home:-/}"
    "${image_env[@]}" PORT="$port")
# A command prefix: as the image's user, in its working directory. Each program
# execs the next, so the server started with it keeps the PID that $! gives.
in_image=(env -i "${run_env[@]}" "$(command -v chroot)" --userspec="$uid:$gid" --groups="$gid" "$root"
    env --chdir="${workdir:-/}" --)

say "starting it as $uid:$gid in ${workdir:-/} with PORT=$port"
"${in_image[@]}" "${entrypoint[@]}" "${command[@]}" >"$work/server.log" 2>&1 &
server_pid=$!

base_url=http://127.0.0.1:$port
ready=
for _ in $(seq 100); do
    running "$server_pid" || break
    if curl -fsS -o /dev/null --max-time 1 "$base_url/healthz" 2>/dev/null; then ready=1; break; fi
    sleep 0.1
done
if [[ -z $ready ]]; then
    sed 's/^/  server: /' "$work/server.log" >&2
    die "the server did not answer on $base_url/healthz within 10 s"
fi

# Pages need a signed-in user: sign in as the demo user a fresh database is seeded
# with (SIGN_IN_NAME, SIGN_IN_PASSWORD), as a person trying the image would.
session=$(curl -sS -o /dev/null -D - --max-time 30 --data-urlencode "name=${SIGN_IN_NAME:-alex}" \
    --data-urlencode "password=${SIGN_IN_PASSWORD:-alex-demo-1}" "$base_url/signin" 2>/dev/null |
    grep -io 'sectional_session=[0-9a-f]*' | head -n 1 || true)
[[ -n $session ]] && pass "POST /signin: a session for the demo user" ||
    fail "POST /signin: no session cookie for the demo user ${SIGN_IN_NAME:-alex}"

# get PATH: sets status, type and body (in $work/body), sent with the session.
get() {
    local out
    out=$(curl -sS -o "$work/body" -w '%{http_code} %{content_type}' --max-time 10 ${session:+-H "Cookie: $session"} \
        "$base_url$1" 2>&1) || out="000 $out"
    status=${out%% *}
    type=${out#* }
    body=$(tr -d '\0' <"$work/body" 2>/dev/null || true)
}

get /healthz
[[ $status == 200 && $(tr -d '[:space:]' <<<"$body") == ok ]] && pass "GET /healthz: 200 ok" ||
    fail "GET /healthz: $status '${body:0:80}'"

get /feed
missing_ids=()
for id in balances alerts credit-score; do [[ $body == *"$id"* ]] || missing_ids+=("$id"); done
[[ $status == 200 && $type == text/html* && ${#missing_ids[@]} == 0 ]] &&
    pass "GET /feed: 200 $type with balances, alerts, credit-score" ||
    fail "GET /feed: $status ${type:-no type}${missing_ids:+, without ${missing_ids[*]}}"

get /api/feed/sections
missing_ids=()
for id in balances alerts credit-score; do [[ $body == *"\"$id\""* ]] || missing_ids+=("$id"); done
[[ $status == 200 && $type == application/json* && ${#missing_ids[@]} == 0 ]] &&
    pass "GET /api/feed/sections: 200 $type listing balances, alerts, credit-score" ||
    fail "GET /api/feed/sections: $status ${type:-no type}${missing_ids:+, without ${missing_ids[*]}}"

# A file of Public/, as the image has it, byte for byte.
static=$(cd "$root${workdir:-/}" 2>/dev/null && find Public -maxdepth 1 -type f -name '*.css' | sort | head -n 1)
if [[ -n $static ]]; then
    get "/${static#Public/}"
    [[ $status == 200 ]] && cmp -s "$work/body" "$root${workdir:-/}/$static" &&
        pass "GET /${static#Public/}: 200 $type, the file from Public/" ||
        fail "GET /${static#Public/}: $status ${type:-no type}"
else
    fail "no Public/*.css in the image's working directory"
fi

# The image's HEALTHCHECK, run in the image as a Docker engine would.
run_health() {
    case ${health[0]:-} in
        CMD) "${in_image[@]}" "${health[@]:1}" ;;
        CMD-SHELL) "${in_image[@]}" /bin/sh -c "${health[1]}" ;;
        *) return 2 ;;
    esac
}
if ((${#health[@]} == 0)) || [[ ${health[0]} == NONE ]]; then
    fail "the image has no HEALTHCHECK"
elif run_health >/dev/null 2>&1; then
    pass "HEALTHCHECK passes (${health[0]}: ${health[*]:1:2} …)"
else
    fail "HEALTHCHECK fails while the server is up"
fi

# SIGTERM: a clean exit, 0, within 10 s.
kill -TERM "$server_pid"
tenths=0
while running "$server_pid" && ((tenths < 100)); do sleep 0.1; tenths=$((tenths + 1)); done
if running "$server_pid"; then
    kill -KILL "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    fail "still running 10 s after SIGTERM (killed)"
else
    exit_status=0
    wait "$server_pid" || exit_status=$?
    ((exit_status == 0)) && pass "SIGTERM: exited 0 within $(((tenths + 1) / 10)).$(((tenths + 1) % 10)) s" ||
        fail "SIGTERM: exit status $exit_status"
fi
server_pid=
left=$(processes_in_image | tr '\n' ' ')
[[ -z $left ]] && pass "no process left running in the image" || fail "processes left running in the image: $left"

if ((${#health[@]})) && [[ ${health[0]} != NONE ]]; then
    run_health >/dev/null 2>&1 && fail "HEALTHCHECK passes with no server running" ||
        pass "HEALTHCHECK fails with no server running"
fi

podman image unmount "$IMAGE" >/dev/null
image_mounted=

# ---------------------------------------------------------------- 4. size
image_size=$(inspect '{{.Size}}')
base_size=$(podman image inspect --format '{{.Size}}' "$runtime_base")
added=$((image_size - base_size))
added_text=$(awk -v b="$added" 'BEGIN { printf "%.1f MB (%.1f MiB)", b / 1e6, b / 1048576 }')
say "layers of the runtime stage:"
podman history --format '{{.Size}}\t{{.CreatedBy}}' "$IMAGE" |
    head -n "$(($(podman history -q "$IMAGE" | wc -l) - $(podman history -q "$runtime_base" | wc -l)))" |
    cut -c1-110 | sed 's/^/    /'
((added < MAX_ADDED_MB * 1000000)) && pass "the runtime stage adds $added_text on top of ${base_images[-1]} (limit $MAX_ADDED_MB MB)" ||
    fail "the runtime stage adds $added_text on top of ${base_images[-1]}, over $MAX_ADDED_MB MB"

if ((${#failures[@]})); then
    say "${#failures[@]} check(s) failed:"
    printf '  - %s\n' "${failures[@]}"
    exit 1
fi
say "all checks passed; the runtime stage adds $added_text on top of its base"
