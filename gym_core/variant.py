"""Variants (issue 45): one seeded object per episode that says how the screen shows the same world.

    EnvConfig(variant="look=outlook,zoom=0.8")     # or "random", a preset ("low-vision"), or a VariantSpec
    uigym eval --variant "theme=dark,density=compact" ...     uigym variants   (the axes, values and presets)

Every axis is declared once, here (AXES), with its values; what each app or look offers is read from where the
app declares it (its looks and densities in its AppSpec, the dark mode in gym_core/perturb.py DARK_MODE, the
locales in apps/_shared/locale.py):

  look      the app's looks (apps/_shared/looks.py): gmail / outlook, doordash / ubereats, salesforce / hubspot
  theme     light; dark where the product has a dark mode (mail's looks: the `dark` perturbation's colour
            scheme); contrast: the OS's high-contrast mode (forced colours), which every site gets
  zoom      the browser zoom a person sets, Chrome's steps from 67% to 150%: the page is laid out in
            (width / zoom) CSS pixels and drawn at zoom; the screenshot, and the screen the actions' points lie
            on, keep the window's size (the env maps the points)
  density   compact / default / comfortable where the product offers it (Gmail and Outlook all three; Lightning
            and HubSpot compact or default; the food looks none)
  font      the browser's default font size ("Font size" in Chrome's settings) as a factor of 16 px: pages
            sized in rem follow it (the CRM's looks), pages sized in px do not, as on the real sites
  locale    how dates, times, money and numbers are shown: en-US, en-GB, de-DE (the words: the lang axis)
  lang      the language of the pages' words: en; de where the app's look has its catalog (apps/_shared/i18n.py;
            mail's, food's and crm's default looks so far). The goals and the world's data stay English; the steps' accessible names
            are taken into the language by the same catalog (apps/_shared/surface.py). Naming de for an app or
            look that does not speak it is refused (a VariantError), never a silent English page
  overlays  none; load: the perturbation overlays as the first page loads; mid: the same overlays appearing
            after a seeded step (1 to 3) of the episode

An axis the spec does not name stays at its default (the look: EnvConfig.look's, else the app's first). A value
an app or look does not offer (density=compact in the food app) is not an error: the episode gets the default
and its recorded variant says so. `random` draws among the values the episode's app and look offer. Each axis
is drawn from its own stream of the episode's key (task id and reset seed, gym_core.perturb.episode_key): the
same seed, the same variant, and naming one more axis never changes what another draws.

The world, the verifier and the tools never see a variant: the screen-side axes are applied by the env's tab
(gym_core/tab.py, with the screen perturbations, gym_core/perturb.py), density and locale reach the app as the
tab's display cookie (apps/_shared/display.py), never the control API; so does lang.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass
from typing import Any

from apps import DEFAULT_LANG, DEFAULT_LOCALE, LANGS, LOCALES
from gym_core.perturb import Drawn, has_dark_mode, overlay_kinds

THEMES: tuple[str, ...] = ("light", "dark", "contrast")
ZOOMS: tuple[float, ...] = (0.67, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5)  # Chrome's zoom steps, 67% to 150%
DENSITIES: tuple[str, ...] = ("compact", "default", "comfortable")
FONTS: tuple[float, ...] = (0.75, 1.0, 1.25, 1.5)  # Chrome's font sizes Small, Medium, Large, Very large: 12-24 px
OVERLAY_TIMES: tuple[str, ...] = ("none", "load", "mid")
MID_STEPS = (1, 2, 3)  # the steps after which "mid" overlays can appear
BASE_FONT_PX, BASE_FIXED_PX = 16, 13  # Chromium's default standard and fixed font sizes


@dataclass(frozen=True)
class Axis:
    name: str
    values: tuple  # () for the look: each app has its own
    default: Any
    doc: str


AXES: dict[str, Axis] = {a.name: a for a in (
    Axis("look", (), None, "the app's looks (`uigym looks`); heldout: each app's held-out looks"),
    Axis("theme", THEMES, "light", "dark where the product has a dark mode (mail); contrast: forced colours"),
    Axis("zoom", ZOOMS, 1.0, "the browser zoom, 67%-150%; the screen keeps its size"),
    Axis("density", DENSITIES, "default", "where the product offers it (mail: all three; crm: compact)"),
    Axis("font", FONTS, 1.0, "the browser's default font size, x 16 px (pages sized in rem follow it)"),
    Axis("locale", LOCALES, DEFAULT_LOCALE, "dates, times, money and numbers (the words: lang)"),
    Axis("lang", LANGS, DEFAULT_LANG, "the pages' words: English, German (mail's, food's and crm's default looks so far)"),
    Axis("overlays", OVERLAY_TIMES, "none", "the perturbation overlays: on load, or after a seeded step 1-3"),
)}
ALIASES = {"font_scale": "font", "fontscale": "font", "font-scale": "font", "language": "lang"}

# Named variants (`--variant NAME`): a preset is a variant string, so `uigym variants` prints what each sets.
PRESETS: dict[str, str] = {
    "default": "",
    "dark": "theme=dark",
    "high-contrast": "theme=contrast",
    "zoomed-out": "zoom=0.67",
    "zoomed-in": "zoom=1.5",
    "compact": "density=compact",
    "comfortable": "density=comfortable",
    "large-text": "font=1.25",
    "uk": "locale=en-GB",
    "german-formats": "locale=de-DE",
    "german": "lang=de,locale=de-DE",
    "interrupted": "overlays=mid",
    "low-vision": "theme=contrast,zoom=1.5,font=1.5",
    "power-user": "theme=dark,zoom=0.8,density=compact",
    "second-look": "look=heldout",
}


class VariantError(ValueError):
    """A variant string that names an axis or value that does not exist (the message lists them)."""


def describe_axes() -> str:
    """One line per axis with its values, for error messages and `uigym variants`."""
    lines = []
    for a in AXES.values():
        vals = "an app's look id, heldout" if a.name == "look" else " ".join(_show(v) for v in a.values)
        lines.append(f"{a.name}: {vals} | random")
    return "; ".join(lines)


def _show(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


@dataclass(frozen=True)
class VariantSpec:
    """What a run asks for, per axis: None (the default), a value, a tuple of values (drawn among), or "random"."""

    look: Any = None
    theme: Any = None
    zoom: Any = None
    density: Any = None
    font: Any = None
    locale: Any = None
    lang: Any = None
    overlays: Any = None

    def named(self) -> dict[str, Any]:
        return {a: getattr(self, a) for a in AXES if getattr(self, a) is not None}

    @property
    def any(self) -> bool:
        return bool(self.named())

    def __str__(self) -> str:
        parts = []
        for a, w in self.named().items():
            parts.append(f"{a}={'|'.join(_show(v) for v in w) if isinstance(w, tuple) else _show(w)}")
        return ",".join(parts) or "default"


def _value(axis: str, text: str) -> Any:
    a = AXES[axis]
    t = text.strip()
    if t.lower() == "random":
        return "random"
    if axis == "look":
        from apps import APP_MODULES, app_looks

        every = sorted({lk for app in APP_MODULES for lk in app_looks(app)})
        if t in every or t == "heldout":
            return t
        raise VariantError(f"look has no value {t!r}: the looks are {', '.join(every)} (or heldout, random)")
    if axis in ("zoom", "font"):
        try:
            x = float(t.rstrip("%")) / (100 if t.endswith("%") or float(t.rstrip("%")) > 5 else 1)
        except ValueError:
            x = None
        for v in a.values:
            if x is not None and abs(v - x) < 1e-6:
                return v
        raise VariantError(f"{axis} has no value {t!r}: choose from {', '.join(_show(v) for v in a.values)} "
                           f"(or percentages: {', '.join(f'{round(v * 100)}%' for v in a.values)}), or random")
    if axis == "locale":
        t = t.replace("_", "-")
    for v in a.values:
        if str(v).lower() == t.lower():
            return v
    raise VariantError(f"{axis} has no value {t!r}: choose from {', '.join(_show(v) for v in a.values)}, or random")


def parse_variant(text: Any) -> VariantSpec:
    """A VariantSpec from "axis=value,axis=v1|v2", "random" (every axis drawn), a preset name, or a mix
    ("random,look=outlook"); None, "" and "default" are the default. A VariantSpec is kept, a dict read as pairs.
    VariantError (a ValueError) names the axes and their values for anything else."""
    if isinstance(text, VariantSpec):
        return text
    if text is None:
        return VariantSpec()
    if isinstance(text, dict):
        text = ",".join(f"{k}={'|'.join(map(str, v)) if isinstance(v, (list, tuple)) else v}" for k, v in text.items())
    if not isinstance(text, str):
        raise VariantError(f"a variant is a string such as 'look=outlook,zoom=0.8', got {type(text).__name__}")
    want: dict[str, Any] = {}
    every = False
    for part in (p.strip() for p in text.split(",")):
        if not part or part in ("none", "default"):
            continue
        if part == "random":
            every = True
            continue
        if part in PRESETS:
            for k, v in parse_variant(PRESETS[part]).named().items():
                want.setdefault(k, v)
            continue
        if "=" not in part:
            raise VariantError(f"cannot read {part!r} in the variant {text!r}: write axis=value pairs "
                               f"(axes: {describe_axes()}), 'random', or a preset ({', '.join(PRESETS)})")
        k, v = (x.strip() for x in part.split("=", 1))
        k = ALIASES.get(k.lower(), k.lower())
        if k not in AXES:
            raise VariantError(f"unknown variant axis {k!r}: the axes are {describe_axes()}")
        vals = tuple(_value(k, x) for x in v.split("|") if x.strip())
        if not vals:
            raise VariantError(f"the variant axis {k} has no value in {text!r}")
        want[k] = "random" if "random" in vals else (vals[0] if len(vals) == 1 else vals)
    if every:
        for k in AXES:
            want.setdefault(k, "random")
    return VariantSpec(**want)


def variant_look(spec: VariantSpec | Any, app: str):
    """The look setting the variant's look axis gives an episode of `app` (apps.episode_look reads it): None where it
    names none, or only looks of other apps (the app's default look then, as for any value an app lacks)."""
    want = getattr(spec, "look", None)
    if want is None or want in ("random", "heldout"):
        return want
    from apps import app_looks

    mine = [w for w in (want if isinstance(want, tuple) else (want,)) if w in app_looks(app)]
    return None if not mine else (mine[0] if len(mine) == 1 else mine)


def offered(axis: str, app: str, look: str | None) -> tuple:
    """The values of `axis` that `look` of `app` offers."""
    from apps import app_densities, app_looks, variant_limits

    if axis == "look":
        return tuple(app_looks(app))
    if axis == "theme":
        return tuple(t for t in THEMES if t != "dark" or has_dark_mode(app, look))
    if axis == "density":
        mine = set(app_densities(app, look)) | {"default"}
        return tuple(d for d in DENSITIES if d in mine)
    if axis == "lang":
        from apps import app_langs

        return tuple(v for v in LANGS if v in app_langs(app, look))
    top = variant_limits(app, look).get(axis)
    return AXES[axis].values if top is None else tuple(v for v in AXES[axis].values if v <= top + 1e-9)


@dataclass(frozen=True)
class Variant:
    """One episode's variant: the value of every axis it was shown in."""

    look: str | None = None
    theme: str = "light"
    zoom: float = 1.0
    density: str = "default"
    font: float = 1.0
    locale: str = DEFAULT_LOCALE
    lang: str = DEFAULT_LANG
    overlays: str = "none"
    overlay_kinds: tuple[str, ...] = ()
    overlay_step: int = 0  # "mid": the step after which the overlays appear

    def axes(self) -> dict[str, Any]:
        return {a: getattr(self, a) for a in AXES}

    def label(self, default_look: str | None = None) -> str:
        """The axes away from their default, "look=outlook,zoom=0.8" ("default" for none)."""
        parts = []
        for a, v in self.axes().items():
            base = default_look if a == "look" else AXES[a].default
            if v is not None and v != base:
                parts.append(f"{a}={_show(v)}")
        return ",".join(parts) or "default"

    def info(self, default_look: str | None = None) -> dict:
        """JSON-able, for info["variant"], the trajectory and the results row."""
        d = self.axes()
        d.update(overlay_kinds=list(self.overlay_kinds), overlay_step=self.overlay_step,
                 label=self.label(default_look))
        return d

    @property
    def display(self) -> dict[str, str]:
        """What the app is told (apps/_shared/display.py): the density, the locale and the language, where not the
        default."""
        return {k: v for k, v in (("density", self.density), ("locale", self.locale), ("lang", self.lang))
                if v != AXES[k].default}


def _rng(axis: str, key: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(f"variant:{axis}:{key}".encode()).digest()[:8], "big"))


def _pick(axis: str, want: Any, pool: tuple, key: str) -> Any:
    """The value of one axis: the default for None or a value the episode's app does not offer; drawn for "random"
    or a tuple (among those offered)."""
    default = AXES[axis].default
    if want is None:
        return default
    if want == "random":
        choices = pool
    elif isinstance(want, tuple):
        choices = tuple(v for v in want if v in pool)
    elif want in pool:
        return want
    elif isinstance(want, float) and pool:  # a zoom or font the look is not proven in: the nearest it is
        return min(pool, key=lambda v: abs(v - want))
    else:
        return default
    return _rng(axis, key).choice(choices) if choices else default


def draw_variant(spec: VariantSpec | Any, app: str, look: str | None, key: str, drawn: Drawn | None = None) -> Variant:
    """The episode's variant, from `key` alone (and, for axes the spec leaves alone, what the screen perturbations
    drew: a `dark` or `overlays` family on shows in the variant as theme dark or overlays load). `look` is the look
    the episode got (apps.episode_look, which reads spec.look)."""
    spec = parse_variant(spec)
    drawn = drawn or Drawn()
    refuse_lang(spec, app, look)
    got = {a: _pick(a, getattr(spec, a), offered(a, app, look), key) for a in AXES if a != "look"}
    if spec.theme is None:
        got["theme"] = "dark" if drawn.dark else "light"
    kinds, step = (), 0
    if spec.overlays is None:
        got["overlays"] = "load" if drawn.overlays else "none"
        kinds = drawn.overlays
    elif got["overlays"] != "none":
        kinds = overlay_kinds(key)
        step = _rng("overlay-step", key).choice(MID_STEPS) if got["overlays"] == "mid" else 0
    return Variant(look=look, overlay_kinds=kinds, overlay_step=step, **got)


def refuse_lang(spec: VariantSpec, app: str, look: str | None) -> None:
    """A language named outright (lang=de) that the episode's app and look do not speak is refused: a German run must
    not quietly show English pages. "random" and a tuple draw among the languages the look speaks (English at least)."""
    want = spec.lang
    if want is None or want == "random" or isinstance(want, tuple) or want == DEFAULT_LANG:
        return
    if want not in offered("lang", app, look):
        from apps import APP_MODULES, app_looks

        done = [f"{a}'s {lk} look" for a in APP_MODULES for lk in app_looks(a) if want in offered("lang", a, lk)]
        raise VariantError(f"lang={want}: {app}'s {look or 'default'} look is not in that language yet; the language is "
                           f"done for {', '.join(done) or 'no app'} (the looks not named stay English for now)")


def screen(variant: Variant, drawn: Drawn) -> Drawn:
    """The tab's screen for the episode: the perturbations' draw with the variant's screen axes on it."""
    return dataclasses.replace(
        drawn, dark=variant.theme == "dark", contrast=variant.theme == "contrast",
        zoom=None if variant.zoom == 1.0 else variant.zoom, font=None if variant.font == 1.0 else variant.font,
        overlays=variant.overlay_kinds, overlay_step=variant.overlay_step)


def zoom_metrics(width: int, height: int, zoom: float | None) -> tuple[int, int, float]:
    """(CSS width, CSS height, zoom) of a window of width x height at a browser zoom: the page is laid out in the
    window's size over the zoom (1280x720 at 125% is 1024x576 CSS pixels) and drawn at the zoom. The env draws it in
    the capture (Page.captureScreenshot's clip scale, gym_core/env.py): the same pixels as a device scale factor of
    the zoom, at half the capture's cost, since Chromium draws an emulated device scale again for every screenshot;
    so the page's devicePixelRatio stays the display's (no clone reads it)."""
    z = zoom or 1.0
    return (width, height, 1.0) if z == 1.0 else (round(width / z), round(height / z), z)


def css_size(width: int, height: int, zoom: float | None) -> tuple[int, int]:
    """The CSS viewport of a window of width x height at a browser zoom (what the page's innerWidth/innerHeight read)."""
    return zoom_metrics(width, height, zoom)[:2]


def font_sizes(font: float | None) -> dict[str, int]:
    """Chromium's default font sizes (Page.setFontSizes) for a font factor."""
    f = font or 1.0
    return {"standard": round(BASE_FONT_PX * f), "fixed": round(BASE_FIXED_PX * f)}


# ------------------------------------------------------------------------------ generalisation splits
# Named splits of the variant space: axis -> (the train values, the held-out values), as variant strings. `uigym eval
# --split heldout-zoom` plays every chosen task with the held-out zoom band drawn per episode (train-zoom: the train
# band), beside whatever --variant sets for the other axes; the summary's "by variant axis" table gives the pass rate
# per value with its intervals, so the gap between the bands reads off one run.
SPLITS: dict[str, tuple[str, str]] = {
    "zoom": ("zoom=0.8|0.9|1|1.1|1.25", "zoom=0.67|0.75|1.5"),  # the extreme zoom bands held out
    "locale": ("locale=en-US|en-GB", "locale=de-DE"),
    "theme": ("theme=light|dark", "theme=contrast"),
    "font": ("font=1|1.25", "font=0.75|1.5"),
    "overlays": ("overlays=none|load", "overlays=mid"),
}


def split_variant(split: str | None) -> str | None:
    """The variant string of a split name ("heldout-zoom", "train-locale"...), None for a name that is not one."""
    if not split or "-" not in split:
        return None
    side, axis = split.split("-", 1)
    if side not in ("train", "heldout") or axis not in SPLITS:
        return None
    return SPLITS[axis][0 if side == "train" else 1]


def merge_variant(base: Any, over: Any) -> VariantSpec:
    """`base` with the axes `over` names set as `over` sets them."""
    return dataclasses.replace(parse_variant(base), **parse_variant(over).named())


# ------------------------------------------------------------------------------ CI's rotating sample
PER_LOOK = ("theme", "density", "zoom", "font")  # the axes whose values a look may offer or not


def covering_sample(app: str, looks: list[str], commit: str) -> list[VariantSpec]:
    """Variant specs that together show every value of every axis `app` offers at least once, each value in a variant
    whose look offers it, each spec pinned (no "random"): rotated with `commit`, so which values meet in one variant
    changes from commit to commit. As many variants as the longest axis has values (zoom's 8), the looks in turn."""
    r = random.Random(int.from_bytes(hashlib.sha256(f"variant-ci:{app}:{commit}".encode()).digest()[:8], "big"))
    looks = list(looks)
    r.shuffle(looks)
    union = {a: sorted({v for lk in looks for v in offered(a, app, lk)}, key=AXES[a].values.index)
             for a in AXES if a != "look"}
    n = max([len(looks)] + [len(v) for v in union.values()])
    rows: list[dict[str, Any]] = [{"look": looks[i % len(looks)]} for i in range(n)]
    for axis, vals in union.items():
        vals = list(vals)
        r.shuffle(vals)
        # The values fewest looks offer are placed first, each in a free variant whose look offers it.
        vals.sort(key=lambda v: sum(v in offered(axis, app, row["look"]) for row in rows))
        free = list(range(len(rows)))
        r.shuffle(free)
        for v in vals:
            i = next((i for i in free if v in offered(axis, app, rows[i]["look"])), None)
            if i is None:  # every variant of a look that offers it is taken: one more variant
                lk = next(lk for lk in looks if v in offered(axis, app, lk))
                rows.append({"look": lk, **{a: AXES[a].default for a in union if a in rows[0]}})
                i = len(rows) - 1
            else:
                free.remove(i)
            rows[i][axis] = v
        for i in free:  # the rest: values again, each where its look offers it
            mine = [v for v in vals if v in offered(axis, app, rows[i]["look"])]
            rows[i][axis] = mine[i % len(mine)]
    return [VariantSpec(**row) for row in rows]


__all__ = ["AXES", "PRESETS", "THEMES", "ZOOMS", "DENSITIES", "FONTS", "OVERLAY_TIMES", "Variant", "VariantSpec",
           "VariantError", "parse_variant", "draw_variant", "variant_look", "offered", "screen", "css_size", "zoom_metrics", "font_sizes",
           "describe_axes", "covering_sample", "refuse_lang", "SPLITS", "split_variant", "merge_variant"]
