# Sourced by scripts/setup_hub.sh and scripts/setup_openenv.sh: `side_venv DIR PACKAGE` makes DIR a venv beside
# uigym's own (BASE_VENV, default .venv; run scripts/setup.sh first) that sees everything the base venv has (a .pth
# adds its site-packages after DIR's own, so what DIR installs wins there and the base venv stays as uigym pins it),
# then installs uigym and the environment package PACKAGE into it, editable and without dependencies.
side_venv() {
  local dir="$1" package="$2" base="${BASE_VENV:-.venv}" base_site dir_site
  base_site="$("$base/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  if [[ ! -x "$dir/bin/python" ]]; then
    "$("$base/bin/python" -c 'import sys; print(sys._base_executable)')" -m venv "$dir"
  fi
  dir_site="$("$dir/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  echo "import site; site.addsitedir('$base_site')" > "$dir_site/_uigym_base_venv.pth"
  "$dir/bin/python" -m pip install -q --no-deps -e . -e "$package"
}
