# Sourced by scripts/setup.sh and scripts/setup_vllm.sh: `venv_install VENV ARGS...` installs ARGS (pip's install
# arguments: requirements, -e, --no-deps) into the venv VENV.
#
# With uv (https://docs.astral.sh/uv, `uv pip install`, pip's interface; scripts/setup.sh installs it into .venv):
# uv unpacks each wheel once into its cache (~/.cache/uv) and links the files into every venv, so a clean clone's
# .venv (6 GB: torch and its CUDA libraries) takes seconds where pip unpacked it for minutes (CI's setup: ~300 s with
# pip). uv does not read pip's configuration, so pip's own (`pip config list`: the indexes, find-links, constraints and
# CA bundle this machine sets for pip, in /etc/pip.conf and PIP_* variables) is handed to it as flags: both find the
# same packages, and uv takes the best version across indexes as pip does (--index-strategy unsafe-best-match).
# Without uv (UIGYM_NO_UV=1, or no uv in .venv) it is pip, as before.
# Only for a venv of its own: a side venv (scripts/side_venv.sh) sees .venv's packages through a .pth, which pip
# counts as installed and uv does not, so the side venvs keep pip.
venv_install() {
  local venv="$1"; shift
  local uv="${UV:-.venv/bin/uv}"
  if [[ "${UIGYM_NO_UV:-}" != "1" && -x "$uv" ]]; then
    local -a flags=()
    mapfile -t flags < <("$venv/bin/python" - <<'PY'
import shlex, subprocess, sys
out = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
opts = {}
for line in out.splitlines():  # global.find-links='/opt/wheels', :env:.find-links='...', install.constraint=...
    key, _, value = line.partition("=")
    opts[key.rsplit(".", 1)[-1]] = shlex.split(value)[0] if value else ""
for pip_key, uv_flag in (("index-url", "--index-url"), ("extra-index-url", "--extra-index-url"),
                         ("find-links", "--find-links"), ("constraint", "--constraint")):
    for v in opts.get(pip_key, "").split():
        print(uv_flag); print(v)
if opts.get("cert"):
    print("--cert"); print(opts["cert"])
PY
)
    local -a uvflags=() env=()
    local i=0
    while (( i < ${#flags[@]} )); do
      if [[ "${flags[i]}" == "--cert" ]]; then env=(SSL_CERT_FILE="${flags[i+1]}"); else uvflags+=("${flags[i]}" "${flags[i+1]}"); fi
      i=$(( i + 2 ))
    done
    env "${env[@]}" "$uv" pip install -q --python "$venv/bin/python" --index-strategy unsafe-best-match \
      "${uvflags[@]}" "$@"
  else
    "$venv/bin/python" -m pip install -q --no-compile "$@"
  fi
}
