"""What a clone declares about itself (`AppSpec`): the factory builds the app from it, the world store
builds and snapshots its worlds from it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sqlalchemy.orm import DeclarativeBase


@dataclass
class AppSpec:
    """What a clone declares about itself; `create_app` does the rest."""

    name: str  # "mail"
    title: str  # the brand shown in the UI, e.g. "Postbox"
    import_name: str  # the clone's package, for its templates/ and static/
    base: type[DeclarativeBase]  # the clone's models
    build_world: Callable[[int, dt.datetime], dict[str, list[dict[str, Any]]]]  # (seed, now) -> rows per table
    # The views package: its `blueprints()` and, if it has one, `init_app(app)`, imported when the app is
    # built (so importing the spec stays cheap).
    views: str
    default_now: dt.datetime
    start_path: str = "/"
    version: str = "1"
    # What, when changed, invalidates cached snapshots: the seed code's modules and the vocab folder
    # (the fingerprint also covers the schema, and Faker's version: another Faker draws other names).
    fingerprint_modules: list[str] = field(default_factory=list)
    vocab_dir: Path | None = None
    # Seed families beside the app's own (the default): family name -> (seed, now) -> rows, e.g. "workspace"
    # (seed_data/workspace.py: one cast over the three apps). A family's snapshots are keyed apart from the
    # default's, fingerprinted also by `family_modules`; a reset names its family, or gets the default.
    families: dict[str, Callable[[int, dt.datetime], dict[str, list[dict[str, Any]]]]] = field(default_factory=dict)
    family_modules: list[str] = field(default_factory=list)
    family_vocab_dirs: list[Path] = field(default_factory=list)
    # What happens when a world's frozen clock moves forward (the control API's clock route, the workspace env's
    # wait): "module:function", called with the world's session; it returns how many things it delivered.
    on_clock: str | None = None
    # Fields that change by merely looking (e.g. "recently viewed"): ignored by unchanged_except.
    volatile: dict[str, list[str]] = field(default_factory=dict)
    # Let the app's pages run inline scripts and on* handlers (test fixture apps written that way). The
    # clones do not: their one inline script carries the request's CSP nonce (apps/_shared/sandbox.py).
    inline_scripts: bool = False
    # The module whose TOOLS (apps._shared.tools.ToolSet) are the app's function-call surface.
    tools: str | None = None
    # The app's looks, look id -> the brand it shows, the default first (apps/_shared/looks.py). A look is
    # the same world, services, tools and grading in another product's layout, names and style.
    looks: dict[str, str] = field(default_factory=dict)
    # Looks kept out of training (a held-out-look split): evaluated on, never trained on unless asked.
    held_out_looks: tuple[str, ...] = ()
    # What a look calls the product's things in the messages the server writes (a service's refusal, a
    # "Welcome to ..." notice): look id -> {the default look's words: this look's}, applied by
    # apps/_shared/looks.py `say` (the pages' own words are in each look's templates).
    look_words: dict[str, dict[str, str]] = field(default_factory=dict)
    # The display densities the product offers in each look, in the variant's words (compact, default,
    # comfortable; apps/_shared/display.py): a look not listed offers none (its one density).
    densities: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The highest value of a numeric variant axis (zoom, font: gym_core/variant.py) each look's templates are proven in,
    # where it is below the axis's top: look -> {axis: value}. Above it the look's layout does not hold yet (a tab bar
    # cut off at 150%: the variant sweep found it), so variants offer it no higher.
    variant_limits: dict[str, dict[str, float]] = field(default_factory=dict)
    # The UI languages beyond English each look speaks (apps/_shared/i18n.py: its catalog under translations/):
    # look -> ("de",). A look not listed speaks English only; the variant's lang axis refuses another language there.
    langs: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def default_look(self) -> str:
        return next(iter(self.looks), "default")

    def look_ids(self) -> list[str]:
        return list(self.looks) or ["default"]
