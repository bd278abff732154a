"""The cloned web apps. Each clone is a Flask app built by its package's `create_app(config)`."""

from __future__ import annotations

import importlib

from apps._shared.locale import DEFAULT_LOCALE, LOCALES  # noqa: F401 - the locales every clone shows (issue 45)
from apps._shared.display import DEFAULT_LANG, LANGS  # noqa: F401 - the languages of the pages' words (issue 45)

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
    """The app's looks (apps/_shared/looks.py), the default first: ["gmail", "outlook"] for mail. An app this
    process cannot import (served under its own name from elsewhere) has one look, its own: ["default"]."""
    try:
        return load_app_module(name).SPEC.look_ids()
    except KeyError:
        return ["default"]


def display_cookie(density: str | None = None, locale: str | None = None, lang: str | None = None) -> tuple[str, str]:
    """(name, value) of the cookie that tells a clone's pages the episode's density, locale and UI language
    (apps/_shared/display.py); the value is '' for the defaults."""
    from apps._shared.display import DISPLAY_COOKIE, encode_display

    return DISPLAY_COOKIE, encode_display(density, locale, lang)


def ui_names(name: str, lang: str) -> dict[str, str]:
    """The app's catalog for `lang` as accessible names read it (English -> the language; {} for English or an app
    without the language: apps/_shared/i18n.py)."""
    from apps._shared.i18n import names

    return names(name, lang)


def untranslated(page_en: str, page_lang: str, lang: str, data_words: set[str] = frozenset(),
                 app: str | None = None) -> list[str]:
    """The strings a page in `lang` still shows in English, the world's words aside (apps/_shared/i18n.untranslated)."""
    from apps._shared.i18n import untranslated as left_in_english

    return left_in_english(page_en, page_lang, lang, data_words, app)


def app_langs(name: str, look: str | None) -> tuple[str, ...]:
    """The UI languages `look` of the app speaks, English first (AppSpec.langs, apps/_shared/i18n.py)."""
    try:
        spec = load_app_module(name).SPEC
    except KeyError:
        return ("en",)
    return ("en",) + tuple(getattr(spec, "langs", {}).get(look or spec.default_look, ()))


def app_densities(name: str, look: str | None) -> tuple[str, ...]:
    """The display densities `look` of the app offers (AppSpec.densities: compact, default, comfortable), () where it
    offers none (an app this process cannot import: none)."""
    try:
        spec = load_app_module(name).SPEC
    except KeyError:
        return ()
    return tuple(getattr(spec, "densities", {}).get(look or spec.default_look, ()))


def variant_limits(name: str, look: str | None) -> dict[str, float]:
    """The highest zoom / font factor `look` of the app is proven in, where lower than the axis's top
    (AppSpec.variant_limits); {} for none."""
    try:
        spec = load_app_module(name).SPEC
    except KeyError:
        return {}
    return dict(getattr(spec, "variant_limits", {}).get(look or spec.default_look, {}))


def held_out_looks(name: str) -> list[str]:
    """The app's looks kept out of training (AppSpec.held_out_looks): a policy trained on the others is
    evaluated there (`uigym eval --look heldout`); training refuses them unless asked."""
    try:
        return list(load_app_module(name).SPEC.held_out_looks)
    except KeyError:
        return []


# The seed families a task's world may be built from instead of its app's own seeds (`uigym eval --family`, `uigym
# train grpo --family`, EnvConfig.family): those that keep the plain world whole and only add to it, so every task's
# records are still there (seed_data/injected.py: attacker text planted in the plain world). The workspace family is
# another cast: its tasks are workspace tasks, which the workspace env plays in it.
TASK_FAMILIES = ("injected",)


def task_families(apps: list[str] | None = None) -> list[str]:
    """The TASK_FAMILIES every one of `apps` (default: all) offers (AppSpec.families); an app this process cannot
    import offers none."""
    out = list(TASK_FAMILIES)
    for name in apps or list(APP_MODULES):
        try:
            offered = load_app_module(name).SPEC.families
        except KeyError:
            offered = {}
        out = [f for f in out if f in offered]
    return out


def check_family(family: str | None, apps: list[str] | None = None) -> str | None:
    """`family` when tasks of `apps` may be played in it (task_families), None for each app's own seeds (None or
    ""); else ValueError naming the families there are. The one check behind every --family option."""
    if not family:
        return None
    choices = task_families(apps)
    if family not in choices:
        raise ValueError(f"unknown seed family {family!r}: choose from {', '.join(choices) or '(none)'}, or leave "
                         "it out for each app's own seeds")
    return family


def training_looks(want, allow_held_out: bool = False, apps: list[str] | None = None):
    """The look setting a trainer may use (EnvConfig.look): `want` as given, or ValueError when it names a
    held-out look and `allow_held_out` is not set (the held-out-look split, as held-out seeds are refused).
    "random" in training draws only among looks that are not held out (unless allowed)."""
    apps = apps or list(APP_MODULES)
    held = {lk for a in apps for lk in held_out_looks(a)}
    if want is None:
        return None
    if want == "random":
        if allow_held_out:
            return want
        return [lk for a in apps for lk in app_looks(a) if lk not in held]
    names = [w for w in (want.split(",") if isinstance(want, str) else want) if w]
    if "heldout" in names:
        names = [w for w in names if w != "heldout"] + sorted(held)
    bad = sorted(set(names) & held)
    if bad and not allow_held_out:
        raise ValueError(f"the look(s) {', '.join(bad)} are held out (AppSpec.held_out_looks): evaluate there, "
                         "or train on them anyway with --allow-heldout-look")
    return names


def app_surface(name: str):
    """The app's declared UI surface (apps/_shared/surface.py, `apps/<app>/surface.py`), or None for an app
    without one (a test fixture app)."""
    if name not in APP_MODULES:
        return None
    return importlib.import_module(f"{APP_MODULES[name]}.surface").SURFACE


def look_carries(app: str, look: str, template: str | None) -> bool:
    """Whether `look` of `app` carries a template's tasks: the default look carries every template, another
    look those its surface says it proved (`Look.covers`). Free play (`template` None) is in every look."""
    surface = app_surface(app)
    if surface is None or template is None or look == app_looks(app)[0] or look not in surface.looks:
        return True  # free play (no task) is at home in every look
    return surface.looks[look].carries(template)


def episode_look(app: str, want, draw, template: str | None = None) -> str:
    """The look an episode of `app` gets (apps/_shared/looks.py, `pick_look`): None the default, an id, a
    list or "random" drawn with `draw` among the looks that carry `template`. UnknownLook (a ValueError)
    names the app's looks, or says the look does not carry the template yet."""
    from apps._shared.looks import UnknownLook, pick_look

    looks = app_looks(app)
    carried = [lk for lk in looks if look_carries(app, lk, template)]
    if want == "heldout":  # the app's held-out looks (AppSpec.held_out_looks)
        want = held_out_looks(app) or looks[:1]
    if isinstance(want, str) and want != "random" and "," not in want:
        look = pick_look(app, looks, want, draw)
        if look not in carried:
            raise UnknownLook(f"the {look} look of {app} does not carry template {template!r} yet; looks that do: "
                              + ", ".join(carried))
        return look
    if want == "random":
        want = carried
    elif want is not None:
        # A list may name other apps' looks too (`--look outlook,hubspot` over every app): this app's count.
        want = [w for w in (want.split(",") if isinstance(want, str) else want) if w]
        if want == ["heldout"]:
            want = held_out_looks(app)
        mine = [w for w in want if w in looks]
        if not mine:
            raise UnknownLook(f"{app} has none of the looks {', '.join(want)}; its looks: {', '.join(looks)}")
        want = [w for w in mine if w in carried] or None
        if want is None:
            raise UnknownLook(f"none of those looks of {app} carries template {template!r} yet; looks that do: "
                              + ", ".join(carried))
    return pick_look(app, looks, want, draw)
