"""Print the requirements of uigym's pyproject.toml, one a line, for an image's dependency layer.

    python docker/requirements.py pyproject.toml [--extras model,ray] [--only flask,sqlalchemy]

--extras adds those optional-dependency sets (a set naming uigym[...] is expanded); --only keeps the
requirements whose distribution name is listed (the app image: a clone's server needs few of them).
Only pyproject.toml is copied before this runs, so the dependency layer is rebuilt when it changes and
the source layers that follow never cost a reinstall.
"""

from __future__ import annotations

import argparse
import re
import tomllib


def _name(req: str) -> str:
    return re.split(r"[<>=!~;\[\s]", req, maxsplit=1)[0].strip().lower().replace("_", "-")


def requirements(project: dict, extras: list[str], only: set[str] | None = None) -> list[str]:
    optional = project.get("optional-dependencies", {})
    out: list[str] = list(project.get("dependencies", []))
    seen: set[str] = set()
    todo = list(extras)
    while todo:
        extra = todo.pop(0)
        if extra in seen:
            continue
        if extra not in optional:
            raise SystemExit(f"pyproject.toml has no extra {extra!r} (has: {', '.join(optional)})")
        seen.add(extra)
        for req in optional[extra]:
            m = re.fullmatch(rf"{re.escape(project['name'])}\[([^\]]+)\]", req.strip())
            if m:
                todo.extend(x.strip() for x in m.group(1).split(","))
            else:
                out.append(req)
    if only is not None:
        out = [r for r in out if _name(r) in only]
        missing = only - {_name(r) for r in out}
        if missing:
            raise SystemExit(f"--only names what pyproject.toml does not require: {', '.join(sorted(missing))}")
    return list(dict.fromkeys(out))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("pyproject")
    p.add_argument("--extras", default="")
    p.add_argument("--only", default="")
    a = p.parse_args()
    with open(a.pyproject, "rb") as f:
        project = tomllib.load(f)["project"]
    extras = [x.strip() for x in a.extras.split(",") if x.strip()]
    only = {_name(x) for x in a.only.split(",") if x.strip()} or None
    print("\n".join(requirements(project, extras, only)))


if __name__ == "__main__":
    main()
