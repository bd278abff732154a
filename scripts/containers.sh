#!/usr/bin/env bash
# Build and run uigym's containers with rootful podman, on a machine with no Docker engine and no image
# registry (CI's machines): the base image is built locally from Debian's archive.
#
#   bash scripts/containers.sh host     # install and configure podman, podman-compose, debootstrap (idempotent)
#   bash scripts/containers.sh base     # python:3.11-slim-bookworm, built locally (cached by a content key)
#   bash scripts/containers.sh build    # the uigym-app and uigym-worker images (host, base first)
#   bash scripts/containers.sh smoke    # all of the above, then the compose stack runs an oracle eval (below)
#   bash scripts/containers.sh openenv  # the OpenEnv server image on the worker image, run and played (below)
#
# smoke: compose up the three apps; wait for their healthchecks; open each app through its published port
# from the host; run `uigym eval --agent oracle` on a few tasks of every app in two worker containers at
# once against the same app containers (each must pass every task: two workers never see each other's
# worlds), plus a direct probe of world isolation over the compose network; time `podman stop` of an app
# container; compose down; check nothing of the stack is left. Everything is torn down on failure too.
# It writes $UIGYM_SMOKE_OUT/summary.json (default runs/containers-smoke/) and exits non-zero on a failure.
#
# Environment: UIGYM_DEBIAN_MIRROR (default: the host's apt source for Debian, else deb.debian.org),
# UIGYM_SMOKE_TASKS (comma-separated task globs), UIGYM_SMOKE_OUT. Needs root (rootful podman, apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

BASE_TAG=docker.io/library/python:3.11-slim-bookworm
APP_TAG=localhost/uigym-app:latest
WORKER_TAG=localhost/uigym-worker:latest
SUITE=bookworm
BASE_PACKAGES=python3,python3-pip,python-is-python3,ca-certificates,netbase,tzdata
SMOKE_TASKS=${UIGYM_SMOKE_TASKS:-mail/star-latest-from-00,mail/mark-important-00,food/switch-address-00,food/add-item-quantity-00,crm/complete-todays-task-00,crm/kanban-move-00}
OUT=${UIGYM_SMOKE_OUT:-$ROOT/runs/containers-smoke}

CLEANUP=()  # temporary paths, removed on exit (also on failure)
PROJECT=""  # the compose project a smoke run has up, torn down on exit
on_exit() {
  teardown
  ((${#CLEANUP[@]} == 0)) || rm -rf "${CLEANUP[@]}"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

log() { echo "[containers $(date -u +%H:%M:%S)] $*" >&2; }
die() { log "FAIL: $*"; exit 1; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print(round($(now) - $1, 1))"; }

# ------------------------------------------------------------------------------------------------ host
cmd_host() {
  [[ "$(id -u)" == "0" ]] || die "needs root (rootful podman; apt-get)"
  local need=()
  command -v podman >/dev/null || need+=(podman)
  command -v runc >/dev/null || need+=(runc)
  command -v podman-compose >/dev/null || need+=(podman-compose)
  command -v debootstrap >/dev/null || need+=(debootstrap)
  [[ -e /usr/lib/cni/dnsname || -e /usr/libexec/cni/dnsname ]] \
    || need+=(golang-github-containernetworking-plugin-dnsname containernetworking-plugins)
  if ((${#need[@]})); then
    command -v apt-get >/dev/null || die "missing ${need[*]} and no apt-get to install them"
    log "installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" catatonit uidmap iptables >/dev/null
  fi
  # Debian's podman 4.3 on these machines: runc (no crun), and ulimits that fit the machine's own limits.
  local conf=/etc/containers/containers.conf.d/50-uigym.conf
  local want
  want=$'# written by uigym scripts/containers.sh\n[engine]\nruntime = "runc"\n\n[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]\n'
  if [[ "$(cat "$conf" 2>/dev/null)"$'\n' != "$want" ]]; then
    mkdir -p "$(dirname "$conf")"
    printf '%s' "$want" >"$conf"
    log "wrote $conf"
  fi
  podman info --format '{{.Host.OCIRuntime.Name}}' >/dev/null || die "podman does not work here"
}

# ------------------------------------------------------------------------------------------------ base
debian_mirror() {
  if [[ -n "${UIGYM_DEBIAN_MIRROR:-}" ]]; then echo "$UIGYM_DEBIAN_MIRROR"; return; fi
  # The host's own source for Debian's main archive (a deb822 URIs: line or a one-line `deb` entry).
  local m
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
      | grep -v '^\s*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -1 | tr -d ' ' || true)
  echo "${m:-http://deb.debian.org/debian}"
}

# What the base holds besides Debian's packages: the shape of python:3.11-slim (python, pip, no docs).
configure_rootfs() {
  local r=$1 mirror=$2
  rm -f "$r/etc/apt/sources.list"
  cat >"$r/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: ${mirror%/}
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/}-security
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  # Like Debian's own container images: no docs, man pages or translations; apt keeps no .debs.
  cat >"$r/etc/dpkg/dpkg.cfg.d/excludes" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
EOF
  printf '%s\n' 'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };' \
    'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };' \
    'Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";' >"$r/etc/apt/apt.conf.d/docker-clean"
  echo 'APT::Install-Recommends "false";' >"$r/etc/apt/apt.conf.d/no-recommends"
  # pip installs into /usr/local as in the official image (which has no EXTERNALLY-MANAGED marker).
  rm -f "$r"/usr/lib/python3.*/EXTERNALLY-MANAGED
  rm -rf "$r"/var/cache/apt/archives/*.deb "$r"/var/lib/apt/lists/* "$r"/var/log/* "$r"/tmp/* \
    "$r"/usr/share/man/* "$r"/usr/share/info/* "$r"/usr/share/lintian/*
  find "$r/usr/share/doc" -mindepth 2 ! -name copyright -delete 2>/dev/null || true
  find "$r/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} + 2>/dev/null || true
  find "$r/usr/lib/python3" "$r"/usr/lib/python3.* -name __pycache__ -prune -exec rm -rf {} + 2>/dev/null || true
}

cmd_base() {
  local mirror key have rootfs t0
  mirror=$(debian_mirror)
  key=$( { declare -f configure_rootfs; echo "$SUITE $BASE_PACKAGES $mirror"; } | sha256sum | cut -c1-16)
  have=$(podman image inspect -f '{{index .Labels "uigym.base-key"}}' "$BASE_TAG" 2>/dev/null || true)
  if [[ "$have" == "$key" ]]; then
    log "base $BASE_TAG: cached ($key)"
    return
  fi
  t0=$(now)
  log "base $BASE_TAG: debootstrap $SUITE from $mirror"
  rootfs=$(mktemp -d /var/tmp/uigym-base.XXXXXX)
  CLEANUP+=("$rootfs" "$rootfs.log")
  debootstrap --variant=minbase --include="$BASE_PACKAGES" "$SUITE" "$rootfs" "$mirror" >"$rootfs.log" 2>&1 \
    || { tail -20 "$rootfs.log" >&2; rm -f "$rootfs.log"; die "debootstrap failed"; }
  rm -f "$rootfs.log"
  configure_rootfs "$rootfs" "$mirror"
  tar --numeric-owner -C "$rootfs" -c . | podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change "LABEL uigym.base-key=$key" \
    --change 'CMD ["python3"]' \
    --message "uigym: Debian $SUITE (debootstrap) + python3 and pip, standing in for $BASE_TAG" \
    - "$BASE_TAG" >/dev/null
  BASE_S=$(since "$t0")
  rm -rf "$rootfs"
  log "base $BASE_TAG: built in $BASE_S s, $(image_mb "$BASE_TAG") MB"
}

image_mb() { podman image inspect -f '{{.Size}}' "$1" | awk '{printf "%.0f", $1/1e6}'; }

# ----------------------------------------------------------------------------------------------- build
# The host's pip settings a build needs (an index, a CA bundle for re-signed TLS), as build secrets: they
# never land in an image layer or its history, and nothing host-specific is committed.
pip_secrets() {
  local dir=$1 cert="" line key val idx="" extra="" trusted=""
  : >"$dir/pip.conf"
  : >"$dir/ca.pem"
  local pip=(python3 -m pip)
  "${pip[@]}" --version >/dev/null 2>&1 || { command -v pip >/dev/null && pip=(pip) || return 0; }
  while IFS= read -r line; do
    key=${line%%=*}; key=${key##*.}; val=${line#*=}; val=${val#\'}; val=${val%\'}
    case "$key" in
      index-url) [[ "$val" == http* ]] && idx=$val ;;
      extra-index-url) for v in $val; do [[ "$v" == http* ]] && extra+=" $v"; done ;;
      trusted-host) trusted=$val ;;
      cert) cert=$val ;;
    esac
  done < <("${pip[@]}" config list 2>/dev/null)
  cert=${PIP_CERT:-$cert}
  {
    echo "[global]"
    [[ -n "$idx" ]] && echo "index-url = $idx"
    [[ -n "$extra" ]] && echo "extra-index-url =$extra"
    [[ -n "$trusted" ]] && echo "trusted-host = $trusted"
    if [[ -n "$cert" && -s "$cert" ]]; then cp "$cert" "$dir/ca.pem"; echo "cert = /run/secrets/pip_ca"; fi
  } >"$dir/pip.conf"
}

build_image() {
  local tag=$1 file=$2 secrets=$3 t0 also=() before after
  [[ -n "${4:-}" ]] && also=(-t "$4")
  before=$(podman image inspect -f '{{.Id}}' "$tag" 2>/dev/null || true)
  t0=$(now)
  after=$(podman build --layers -q -f "$file" -t "$tag" "${also[@]}" \
    --secret "id=pip_conf,src=$secrets/pip.conf" --secret "id=pip_ca,src=$secrets/ca.pem" . | tail -1) \
    || die "podman build -f $file failed"
  # The image this tag named before, now untagged: remove it (podman refuses while a container or another
  # tag uses it), so that builds after every change do not pile up on the machine. Cached layers stay.
  if [[ -n "$before" && "$after" != "$before"* ]]; then podman rmi "$before" >/dev/null 2>&1 || true; fi
  log "$tag: $(since "$t0") s, $(image_mb "$tag") MB"
}

cmd_build() {
  cmd_host
  cmd_base
  local secrets t0
  secrets=$(mktemp -d)
  CLEANUP+=("$secrets")
  chmod 700 "$secrets"
  pip_secrets "$secrets"
  t0=$(now)
  build_image "$APP_TAG" docker/app.Dockerfile "$secrets" "${RUN_APP_TAG:-}"
  BUILD_APP_S=$(since "$t0")
  t0=$(now)
  build_image "$WORKER_TAG" docker/worker.Dockerfile "$secrets" "${RUN_WORKER_TAG:-}"
  BUILD_WORKER_S=$(since "$t0")
  rm -rf "$secrets"
}

# ----------------------------------------------------------------------------------------------- smoke
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

compose() { podman-compose -p "$PROJECT" -f docker/compose.yaml "$@"; }

teardown() {
  if [[ -n "$PROJECT" ]]; then
    log "teardown: $PROJECT"
    compose down >/dev/null 2>&1 || true
    local ids
    ids=$(podman ps -aq --filter "label=io.podman.compose.project=$PROJECT" 2>/dev/null || true)
    [[ -z "$ids" ]] || podman rm -f $ids >/dev/null 2>&1 || true
    podman network rm -f "${PROJECT}_default" >/dev/null 2>&1 || true
  fi
  untag_run_images
  [[ -z "${CLEANUP_CTR:-}" ]] || podman rm -f "$CLEANUP_CTR" >/dev/null 2>&1 || true
}

untag_run_images() {
  local t
  for t in "${RUN_APP_TAG:-}" "${RUN_WORKER_TAG:-}"; do
    [[ -z "$t" ]] || podman untag "$t" "$t" >/dev/null 2>&1 || true
  done
}

wait_healthy() {  # the compose healthcheck itself, run by podman (no systemd timers here to run it)
  local ctr=$1 deadline=$((SECONDS + 120)) t0
  t0=$(now)
  until podman healthcheck run "$ctr" >/dev/null 2>&1; do
    if ((SECONDS > deadline)); then podman logs --tail 30 "$ctr" >&2 || true; die "$ctr not healthy in 120 s"; fi
    [[ "$(podman inspect -f '{{.State.Running}}' "$ctr" 2>/dev/null)" == "true" ]] \
      || { podman logs --tail 30 "$ctr" >&2 || true; die "$ctr exited"; }
    sleep 1
  done
  since "$t0"
}

# One worker container's eval, one episode at a time; episodes that ended in an error (a page that did not
# load in time on a loaded machine) get one more try (--retry-errors), counted in the summary.
eval_worker() {
  local name=$1 tasks=$2 try
  shift 2
  for try in 1 2; do
    compose run --rm --no-deps -T worker uigym eval --agent oracle --workers 1 --tasks "$tasks" "$@" \
      --out "/runs/$name" --no-report $([[ $try == 2 ]] && echo --retry-errors) >>"$OUT/worker-$name.log" 2>&1 || true
    python3 - "$OUT/runs/$name/results.jsonl" <<'PY' && break
import json, sys
latest = {}
for line in open(sys.argv[1]):
    if line.strip():
        r = json.loads(line)
        latest[(r["task_id"], r.get("sample", 0))] = r
sys.exit(1 if any(r.get("error") for r in latest.values()) else 0)
PY
  done
}

cmd_smoke() {
  local T0 t0
  T0=$(now)
  rm -rf "$OUT"
  mkdir -p "$OUT/runs"
  BASE_S=0 BUILD_APP_S="" BUILD_WORKER_S=""
  # This run's own tags (besides :latest), so that a build from another checkout on the same machine
  # cannot swap the images under this stack; untagged at the end (the layers stay cached).
  RUN_APP_TAG=localhost/uigym-app:smoke-$$ RUN_WORKER_TAG=localhost/uigym-worker:smoke-$$
  export UIGYM_APP_IMAGE=$RUN_APP_TAG UIGYM_WORKER_IMAGE=$RUN_WORKER_TAG
  cmd_build

  PROJECT="uigym-smoke-$$"
  export UIGYM_GYM_TOKEN UIGYM_MAIL_PORT UIGYM_FOOD_PORT UIGYM_CRM_PORT UIGYM_RUNS="$OUT/runs"
  export UIGYM_MAIL_CONTROL_PORT UIGYM_FOOD_CONTROL_PORT UIGYM_CRM_CONTROL_PORT
  UIGYM_GYM_TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
  UIGYM_MAIL_PORT=$(free_port) UIGYM_FOOD_PORT=$(free_port) UIGYM_CRM_PORT=$(free_port)
  UIGYM_MAIL_CONTROL_PORT=$(free_port) UIGYM_FOOD_CONTROL_PORT=$(free_port) UIGYM_CRM_CONTROL_PORT=$(free_port)

  # The compose file refuses to start without a token (no default like change-me).
  if (unset UIGYM_GYM_TOKEN; compose ps >/dev/null 2>&1); then die "compose accepted a missing UIGYM_GYM_TOKEN"; fi

  log "compose up (mail food crm) as $PROJECT"
  t0=$(now)
  compose up -d mail food crm >"$OUT/compose-up.log" 2>&1 || { cat "$OUT/compose-up.log" >&2; die "compose up failed"; }
  local svc h healthy=()
  for svc in mail food crm; do
    h=$(wait_healthy "${PROJECT}_${svc}_1") || die "$svc did not become healthy"
    healthy+=("\"$svc\": $h,")
  done
  local up_s
  up_s=$(since "$t0")
  log "apps healthy in $up_s s"

  # From the host: the published ports serve the apps (a browser with no world binding is refused with a
  # 403 page, which still proves the app answers), the control API on its own port answers with the token
  # only, and the page port has no control API at all.
  local port cport code
  for svc in mail food crm; do
    case $svc in
      mail) port=$UIGYM_MAIL_PORT cport=$UIGYM_MAIL_CONTROL_PORT ;;
      food) port=$UIGYM_FOOD_PORT cport=$UIGYM_FOOD_CONTROL_PORT ;;
      crm) port=$UIGYM_CRM_PORT cport=$UIGYM_CRM_CONTROL_PORT ;;
    esac
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")
    [[ "$code" =~ ^(200|302|403)$ ]] || die "$svc: http://127.0.0.1:$port/ does not answer from the host ($code)"
    curl -fsS -H "X-Gym-Token: $UIGYM_GYM_TOKEN" "http://127.0.0.1:$cport/health" | grep -q '"ok":true' \
      || die "$svc: the control API's /health with the token failed"
    [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$cport/health")" == 403 ]] \
      || die "$svc: the control API answered without the token"
    [[ "$(curl -s -o /dev/null -w '%{http_code}' -H "X-Gym-Token: $UIGYM_GYM_TOKEN" "http://127.0.0.1:$port/_gym/health")" == 404 ]] \
      || die "$svc: the page port serves /_gym/health"
  done

  # Two workers at once against the same app containers, by service name over the compose network.
  local urls=(--app-url mail=http://mail:8000,http://mail:8001 --app-url food=http://food:8000,http://food:8001
              --app-url crm=http://crm:8000,http://crm:8001)
  local mail_tasks
  mail_tasks=$(tr ',' '\n' <<<"$SMOKE_TASKS" | grep '^mail/' | paste -sd, -)
  log "eval: worker a (${SMOKE_TASKS}) and worker b (${mail_tasks:-$SMOKE_TASKS}) at once"
  t0=$(now)
  eval_worker a "$SMOKE_TASKS" "${urls[@]}" &
  local pa=$!
  eval_worker b "${mail_tasks:-$SMOKE_TASKS}" "${urls[@]}" &
  local pb=$!
  wait $pa || true
  wait $pb || true
  local eval_s
  eval_s=$(since "$t0")
  log "eval done in $eval_s s"

  # World isolation, directly: two worlds in one app container, reset with different seeds; each keeps
  # its own state, a page opened with one world's cookie shows that world, dropping one leaves the other.
  compose run --rm --no-deps -T worker python - >"$OUT/isolation.log" 2>&1 <<'PY' || true
import json, os, httpx
tok = {"X-Gym-Token": os.environ["UIGYM_GYM_TOKEN"]}
out = {}
for app in ("mail", "food", "crm"):
    base = f"http://{app}:8000"
    with httpx.Client(base_url=f"http://{app}:8001", headers=tok, timeout=60) as c:  # the control API's port
        a, b = "smoke-a", "smoke-b"
        ca = c.post(f"/worlds/{a}/reset", json={"seed": 1}).raise_for_status().json()["cookie"]
        cb = c.post(f"/worlds/{b}/reset", json={"seed": 2}).raise_for_status().json()["cookie"]
        sa, sb = c.get(f"/worlds/{a}/state").json(), c.get(f"/worlds/{b}/state").json()
        start = c.get("/health").json()["start_path"]
        # A page is bound to a world by the signed cookie the reset returned, as the env sets it.
        pa = httpx.get(base + start, cookies={ca["name"]: ca["value"]}, follow_redirects=True, timeout=60).text
        pb = httpx.get(base + start, cookies={cb["name"]: cb["value"]}, follow_redirects=True, timeout=60).text
        c.delete(f"/worlds/{a}").raise_for_status()
        b_left = c.get(f"/worlds/{b}/state").status_code == 200
        c.delete(f"/worlds/{b}").raise_for_status()
        out[app] = {"states_differ": sa != sb, "pages_differ": pa != pb, "other_world_kept": b_left}
print("ISOLATION " + json.dumps(out))
PY

  # `podman stop` of an app container: SIGTERM must end it (the default 10 s grace would mean a SIGKILL).
  t0=$(now)
  podman stop "${PROJECT}_mail_1" >/dev/null
  local stop_s
  stop_s=$(since "$t0")
  local exit_code
  exit_code=$(podman inspect -f '{{.State.ExitCode}}' "${PROJECT}_mail_1")
  log "podman stop mail: $stop_s s (exit code $exit_code)"

  t0=$(now)
  compose down >"$OUT/compose-down.log" 2>&1 || true
  podman network rm -f "${PROJECT}_default" >/dev/null 2>&1 || true
  local down_s left
  down_s=$(since "$t0")
  left=$(podman ps -aq --filter "label=io.podman.compose.project=$PROJECT" | wc -l)
  PROJECT=""

  python3 - "$OUT" "$SMOKE_TASKS" "${mail_tasks:-$SMOKE_TASKS}" <<PY
import json, sys, pathlib
out, tasks_a, tasks_b = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
def results(name):
    p = out / "runs" / name / "results.jsonl"
    rows = [json.loads(l) for l in p.read_text().splitlines() if l.strip()] if p.exists() else []
    latest = {(r["task_id"], r.get("sample", 0)): r for r in rows}
    return {"episodes": len(latest), "passed": sum(1 for r in latest.values() if r.get("passed")),
            "failed": sorted(f"{r['task_id']}: {(r.get('error') or 'not passed')[:200]}"
                             for r in latest.values() if not r.get("passed")),
            "retried": len(rows) - len(latest), "seconds": round(sum(r.get("seconds", 0) for r in rows), 1)}
iso = {}
for line in (out / "isolation.log").read_text().splitlines():
    if line.startswith("ISOLATION "):
        iso = json.loads(line[len("ISOLATION "):])
summary = {
    "build_s": {"base": float("${BASE_S:-0}"), "app": float("${BUILD_APP_S:-0}" or 0),
                "worker": float("${BUILD_WORKER_S:-0}" or 0)},
    "image_mb": {"base": $(image_mb "$BASE_TAG"), "app": $(image_mb "$APP_TAG"), "worker": $(image_mb "$WORKER_TAG")},
    "healthy_s": {${healthy[*]// /}}, "up_s": $up_s, "eval_s": $eval_s,
    "worker_a": dict(results("a"), tasks=tasks_a.split(",")),
    "worker_b": dict(results("b"), tasks=tasks_b.split(",")),
    "isolation": iso,
    "stop_s": $stop_s, "stop_exit_code": $exit_code, "down_s": $down_s, "left_running": $left,
    "total_s": $(since "$T0"),
}
(out / "summary.json").write_text(json.dumps(summary, indent=1))
print(json.dumps(summary, indent=1))
PY
  local ok
  ok=$(python3 - "$OUT/summary.json" "$SMOKE_TASKS" "${mail_tasks:-$SMOKE_TASKS}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
want_a, want_b = len(sys.argv[2].split(",")), len(sys.argv[3].split(","))
problems = []
for w, want in (("worker_a", want_a), ("worker_b", want_b)):
    if s[w]["episodes"] != want or s[w]["passed"] != want:
        problems.append(f"{w}: {s[w]['passed']}/{s[w]['episodes']} passed of {want} (failed: {s[w]['failed']})")
if sorted(s["isolation"]) != ["crm", "food", "mail"] or not all(all(v.values()) for v in s["isolation"].values()):
    problems.append(f"isolation: {s['isolation'] or 'probe failed (see isolation.log)'}")
if s["stop_s"] >= 2:
    problems.append(f"podman stop took {s['stop_s']} s")
if s["left_running"]:
    problems.append(f"{s['left_running']} containers left after compose down")
print("; ".join(problems) or "ok")
PY
)
  [[ "$ok" == ok ]] || die "$ok (logs in $OUT)"
  log "smoke: ok in $(since "$T0") s (summary: $OUT/summary.json)"
}

# --------------------------------------------------------------------------------------------- openenv
# openenv: environments/openenv_uigym/server/Dockerfile built on the worker image (build first), run with its
# port published in hybrid mode (screen actions and tool calls: Chromium in the image is used); once its own
# HEALTHCHECK passes, from the host: OpenEnv's own `openenv validate --url` (the real client's checks of a running
# server), then the tool oracle of one task through the typed client (reward 1.0) and a do-nothing episode (0.0),
# and a reset's screenshot. Needs .venv-openenv (scripts/setup_openenv.sh). Writes $OUT/openenv.json.
OPENENV_TAG=localhost/uigym-openenv:latest
OPENENV_TASK=${UIGYM_OPENENV_SMOKE_TASK:-crm/complete-todays-task-00}
cmd_openenv() {
  local T0 t0 secrets port ctr py=$ROOT/.venv-openenv/bin/python
  T0=$(now)
  [[ -x "$py" ]] || bash scripts/setup_openenv.sh >&2
  mkdir -p "$OUT"
  cmd_build
  secrets=$(mktemp -d)
  CLEANUP+=("$secrets")
  chmod 700 "$secrets"
  pip_secrets "$secrets"
  t0=$(now)
  podman build --layers -q --format docker -f environments/openenv_uigym/server/Dockerfile -t "$OPENENV_TAG" \
    --build-arg "BASE_IMAGE=$WORKER_TAG" \
    --secret "id=pip_conf,src=$secrets/pip.conf" --secret "id=pip_ca,src=$secrets/ca.pem" \
    environments/openenv_uigym >"$OUT/openenv-build.log" 2>&1 || { tail -30 "$OUT/openenv-build.log" >&2; die "openenv image build failed"; }
  local build_s
  build_s=$(since "$t0")
  log "$OPENENV_TAG: $build_s s, $(image_mb "$OPENENV_TAG") MB"
  port=$(free_port)
  ctr=uigym-openenv-smoke-$$
  CLEANUP_CTR=$ctr
  podman run -d --name "$ctr" -p "127.0.0.1:$port:8000" -e UIGYM_OPENENV_MODE=hybrid "$OPENENV_TAG" \
    >"$OUT/openenv-run.log" 2>&1 \
    || die "podman run $OPENENV_TAG failed"
  local healthy_s
  healthy_s=$(wait_healthy "$ctr") || die "the OpenEnv container did not become healthy"
  log "openenv container healthy in $healthy_s s on port $port"
  t0=$(now)
  "$ROOT/.venv-openenv/bin/openenv" validate --url "http://127.0.0.1:$port" >"$OUT/openenv-validate.log" 2>&1 \
    || { cat "$OUT/openenv-validate.log" >&2; die "openenv validate --url failed"; }
  "$py" - "http://127.0.0.1:$port" "$OPENENV_TASK" "$OUT/openenv.json" "$build_s" "$healthy_s" <<'PY' \
    || { podman logs --tail 40 "$ctr" >&2 || true; die "the episode through the OpenEnv client failed"; }
import base64, json, sys, time
from openenv_uigym import UIGymAction, UIGymEnv
from openenv_uigym.oracle import play, tool_plan

url, task, out, build_s, healthy_s = sys.argv[1:6]
t0 = time.monotonic()
with UIGymEnv(base_url=url).sync() as env:
    first = env.reset(task=task)
    png = base64.b64decode(first.observation.screenshot)
    assert png.startswith(b"\x89PNG") and len(png) > 10_000, "the reset's screenshot is no page"
    gold = play(env, task, tool_plan(task))
    env.reset(task=task)
    noop = env.step(UIGymAction(type="done"))
    state = env.state()
summary = {"image_build_s": float(build_s), "healthy_s": float(healthy_s), "task": task,
           "oracle_reward": gold.reward, "noop_reward": noop.reward, "mode": state.mode,
           "screenshot_bytes": len(png), "episodes_s": round(time.monotonic() - t0, 1)}
json.dump(summary, open(out, "w"), indent=1)
print(json.dumps(summary))
sys.exit(0 if gold.reward == 1.0 and noop.reward == 0.0 and state.mode == "hybrid" else 1)
PY
  log "openenv: validate ok, oracle 1.0, noop 0.0 in $(since "$T0") s ($OUT/openenv.json)"
}

case "${1:-smoke}" in
  host) cmd_host ;;
  base) cmd_host; cmd_base ;;
  build) cmd_build ;;
  smoke) cmd_smoke ;;
  openenv) cmd_openenv ;;
  *) echo "usage: $0 host|base|build|smoke|openenv" >&2; exit 2 ;;
esac
