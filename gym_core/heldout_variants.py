"""What training may see of the variant space (issue 45's generalisation splits).

Each split axis (gym_core.variant.SPLITS: zoom, locale, theme, font, overlays) has a train band and a held-out band.
`uigym eval --split heldout-zoom` measures an agent on the held-out band; training keeps out of it, as it keeps out of
held-out looks (apps.training_looks) and held-out seeds: GRPO's rollouts (`uigym train grpo --variant`) and SFT's
samples (`uigym train sft`, each sample's recorded `variant`) are refused where they name a held-out value, unless
asked (--allow-heldout-variant). "random" on a split axis draws from its train band only.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from gym_core.variant import SPLITS, VariantSpec, parse_variant


@cache  # SPLITS is fixed: parsed once (an export asks for every episode)
def heldout_bands() -> dict[str, tuple]:
    """Each split axis's held-out values: {"zoom": (0.67, 0.75, 1.5), "locale": ("de-DE",), ...}."""
    return {axis: _values(axis, SPLITS[axis][1]) for axis in SPLITS}


@cache
def train_bands() -> dict[str, tuple]:
    """Each split axis's train values."""
    return {axis: _values(axis, SPLITS[axis][0]) for axis in SPLITS}


def _values(axis: str, text: str) -> tuple:
    v = getattr(parse_variant(text), axis)
    return v if isinstance(v, tuple) else (v,)


def _same(axis: str, a: Any, b: Any) -> bool:
    return abs(float(a) - float(b)) < 1e-9 if axis in ("zoom", "font") else a == b


def heldout_named(variant: Any) -> list[str]:
    """The held-out values a variant names explicitly ("zoom=1.5", ...), from a spec, a variant string or an
    episode's label ("zoom=1.5,locale=de-DE"; "default" and "" name none). "random" names none (see
    `training_variant`)."""
    if not variant or variant == "default":
        return []
    spec = variant if isinstance(variant, VariantSpec) else parse_variant(variant)
    held = heldout_bands()
    out = []
    for axis, want in spec.named().items():
        if axis not in held or want == "random":
            continue
        for v in want if isinstance(want, tuple) else (want,):
            if any(_same(axis, v, h) for h in held[axis]):
                out.append(f"{axis}={v:g}" if isinstance(v, float) else f"{axis}={v}")
    return out


def training_variant(want: Any, allow_held_out: bool = False) -> VariantSpec | None:
    """The variant a trainer may use (EnvConfig.variant): `want` parsed, with "random" on a split axis narrowed to
    its train band; ValueError where it names a held-out value and `allow_held_out` is not set. None for none."""
    if want is None or want == "":
        return None
    spec = want if isinstance(want, VariantSpec) else parse_variant(want)
    if allow_held_out:
        return spec
    bad = heldout_named(spec)
    if bad:
        raise ValueError(f"the variant value(s) {', '.join(bad)} are held out (gym_core.variant.SPLITS): evaluate "
                         "there (`uigym eval --split heldout-<axis>`), or train on them anyway with "
                         "--allow-heldout-variant")
    train = train_bands()
    narrowed = {axis: train[axis] for axis, w in spec.named().items() if w == "random" and axis in train}
    return dataclasses.replace(spec, **narrowed) if narrowed else spec


__all__ = ["heldout_bands", "train_bands", "heldout_named", "training_variant"]
