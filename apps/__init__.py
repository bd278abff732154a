"""The cloned web apps. Each clone is a Flask app built by its package's `create_app(config)`."""

from __future__ import annotations

import importlib

# name -> module that exposes `SPEC` (an AppSpec) and `create_app(config)`.
APP_MODULES: dict[str, str] = {
    "mail": "apps.mail",
    "food": "apps.food",
    "crm": "apps.crm",
}


def available_apps() -> list[str]:
    """The clones that are installed (a clone whose package is missing is simply not listed)."""
    out = []
    for name, mod in APP_MODULES.items():
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name and mod.startswith(e.name):
                continue
            raise
        out.append(name)
    return out


def load_app_module(name: str):
    """A clone by its short name ('mail'), or any module exposing SPEC and create_app by dotted path
    (test fixture apps, third-party clones)."""
    if name in APP_MODULES:
        return importlib.import_module(APP_MODULES[name])
    if "." in name:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            raise KeyError(f"no app module {name!r}: {e}") from None
        if not hasattr(mod, "create_app"):
            raise KeyError(f"module {name!r} has no create_app(config)")
        return mod
    raise KeyError(f"unknown app {name!r}; known apps: {', '.join(sorted(APP_MODULES))}")


def build_app(spec, config=None):
    """A clone's Flask app from its AppSpec (apps/_shared/factory.py): for a variant of a clone served under
    its name, e.g. the same app with fewer tools (experiments/learning_food.py)."""
    from apps._shared.factory import create_app

    return create_app(spec, config)


def app_looks(name: str) -> list[str]:
    """The app's looks (apps/_shared/looks.py), the default first: ["gmail", "outlook"] for mail."""
    return load_app_module(name).SPEC.look_ids()


def episode_look(app: str, want, draw) -> str:
    """The look an episode of `app` gets (apps/_shared/looks.py, `pick_look`): None the default, an id, a
    list or "random" drawn with `draw`. UnknownLook (a ValueError) names the app's looks."""
    from apps._shared.looks import pick_look

    return pick_look(app, app_looks(app), want, draw)
