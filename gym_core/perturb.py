"""Screen perturbations (issue #37): seeded, off by default, one flag per family.

    EnvConfig(perturb="viewport,overlays")        # or Perturb(viewport=True, overlays=True), "all", "none"

Families:
  viewport  the window's size, drawn from VIEWPORTS (CSS pixels): the screenshot and the action space's
            screen are that size.
  scale     the device scale factor, drawn from SCALES: the page is rendered at that many device pixels per
            CSS pixel (sharper text, 2x pictures where the app offers them, `resolution` media queries) and
            the screenshot is scaled back to the CSS viewport, so a screenshot pixel stays a click coordinate.
  dark      `prefers-color-scheme: dark`, where the product has a dark mode (DARK_MODE: mail's looks);
            a no-op elsewhere (food and crm have none).
  overlays  one or two of the overlays people meet on these products (OVERLAY_KINDS), placed where the
            products place them, each dismissible as a person would; a dismissal is remembered for the
            episode (sessionStorage), a new episode shows them again.

The world and grading are unchanged by every family: overlays are built in the page by an init script
from DOM APIs, send no request and touch no app state. `draw(perturb, app, look, key)` is the episode's
concrete choice: the same key (task id and reset seed), the same draw; each family is drawn from its own
stream, so turning one family on never changes what another draws.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

FAMILIES = ("viewport", "scale", "dark", "overlays")
VIEWPORTS: tuple[tuple[int, int], ...] = ((1024, 768), (1280, 720), (1440, 900))
SCALES: tuple[float, ...] = (1.0, 1.25, 1.5, 2.0)
# The products with a dark mode, per app: the looks (apps/_shared/looks.py) whose real product has one.
DARK_MODE: dict[str, frozenset[str]] = {"mail": frozenset({"gmail", "outlook"})}
OVERLAY_KINDS = ("consent", "promo", "tour", "notify", "chat")
MODAL_KINDS = frozenset({"promo"})  # a modal traps the keys until it is dismissed

# The attributes the overlays carry: the root of each (its kind) and the button a person uses to close it.
OVERLAY_ATTR = "data-uigym-overlay"
DISMISS_ATTR = "data-uigym-dismiss"
STORAGE_KEY = "__uigym_overlays"
SKIP_PATHS = ("/_shared/static/parked.html",)  # the env's own parking page (gym_core/tab.py) shows nothing


@dataclass(frozen=True)
class Perturb:
    """Which perturbation families are on (all off by default)."""

    viewport: bool = False
    scale: bool = False
    dark: bool = False
    overlays: bool = False

    @property
    def any(self) -> bool:
        return any(getattr(self, f) for f in FAMILIES)

    def families(self) -> list[str]:
        return [f for f in FAMILIES if getattr(self, f)]

    def __str__(self) -> str:
        return ",".join(self.families()) or "none"


def parse_perturb(text: Any) -> Perturb:
    """A Perturb from a comma list of families ("viewport,overlays"), "all" or "none" ("" and None are
    none; a Perturb is kept). ValueError naming the families for anything else."""
    if isinstance(text, Perturb):
        return text
    if text is None:
        return Perturb()
    if not isinstance(text, str):
        raise ValueError(f"perturb must be a comma list of {', '.join(FAMILIES)} (or all, none), got {type(text).__name__}")
    on: set[str] = set()
    for part in (p.strip().lower() for p in text.split(",")):
        if part in ("", "none"):
            continue
        if part == "all":
            on.update(FAMILIES)
        elif part in FAMILIES:
            on.add(part)
        else:
            raise ValueError(f"unknown perturbation family {part!r}: choose from {', '.join(FAMILIES)}, all or none")
    return Perturb(**{f: True for f in on})


def episode_key(task_id: str | None, seed: int | None, last_seed: int | None = None, unseeded: int = 0) -> str:
    """The key an episode's draw is made from: its task and reset seed. A reset without a seed is keyed like
    Gymnasium's generator: by the last seed given (None: none yet) and how many unseeded resets came since, so
    reset(seed=s) then reset() draws the same every time (check_env asks it)."""
    if seed is not None:
        return f"{task_id or ''}:{seed}"
    return f"{task_id or ''}:{last_seed}+{unseeded}"


@dataclass(frozen=True)
class Drawn:
    """One episode's concrete perturbation. None / False / () where a family is off (or a no-op)."""

    viewport: tuple[int, int] | None = None
    scale: float | None = None
    dark: bool = False
    overlays: tuple[str, ...] = ()
    # Set by the episode's variant (gym_core/variant.py), never by a family here: the browser zoom (the page is laid
    # out in width/zoom CSS pixels and drawn at zoom, the screen keeps its size), the browser's default font size
    # as a factor of 16 px, forced colours (the OS's high-contrast mode), and the step after which the overlays
    # appear (0: as the first page loads).
    zoom: float | None = None
    font: float | None = None
    contrast: bool = False
    overlay_step: int = 0

    def info(self) -> dict:
        """JSON-able, for info["perturb"] (the families' draw; the variant's own fields are in info["variant"])."""
        return {"viewport": list(self.viewport) if self.viewport else None, "scale": self.scale, "dark": self.dark,
                "overlays": list(self.overlays)}


def _rng(family: str, key: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(f"perturb:{family}:{key}".encode()).digest()[:8], "big"))


def has_dark_mode(app: str, look: str | None) -> bool:
    return (look or "") in DARK_MODE.get(app, frozenset())


def draw(perturb: Perturb, app: str, look: str | None, key: str) -> Drawn:
    """The episode's perturbation, from `key` alone (task id and reset seed: episode_key)."""
    viewport = _rng("viewport", key).choice(VIEWPORTS) if perturb.viewport else None
    scale = _rng("scale", key).choice(SCALES) if perturb.scale else None
    dark = perturb.dark and has_dark_mode(app, look)
    overlays = overlay_kinds(key) if perturb.overlays else ()
    return Drawn(viewport=viewport, scale=scale, dark=dark, overlays=overlays)


def overlay_kinds(key: str) -> tuple[str, ...]:
    """The one or two overlay kinds an episode keyed `key` shows (the overlays family's draw; the variant's too)."""
    r = _rng("overlays", key)
    picked = set(r.sample(OVERLAY_KINDS, r.choice((1, 2))))
    return tuple(k for k in OVERLAY_KINDS if k in picked)


# The clicks a person needs to close each overlay kind: the chat widget takes two (minimise, then hide).
DISMISS_STEPS = {k: 2 if k == "chat" else 1 for k in OVERLAY_KINDS}
MAX_EXTRA_STEPS = sum(sorted(DISMISS_STEPS.values())[-2:])  # the most two overlays can take


def extra_steps(drawn: Drawn) -> int:
    """The steps an episode's budget grows by under its overlays: one per click that closes them, as a person
    needs them too (the task's own steps are not made any scarcer)."""
    # Overlays arriving mid-episode (a variant's) may also take the focus from a field: clicking back into it and
    # selecting its text again are two steps more.
    return sum(DISMISS_STEPS[k] for k in drawn.overlays) + (2 if drawn.overlays and drawn.overlay_step else 0)


def screen_sizes(perturb: Perturb, viewport: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Every screen (width, height) an env can show: the drawn sizes with the viewport family on, else the
    configured viewport."""
    return VIEWPORTS if perturb.viewport else (tuple(viewport),)


def ci_sample(templates: list[str], family: str, commit: str, n: int = 3) -> list[str]:
    """The templates CI validates under `family` on `commit`: `n` of them, drawn from the commit's hash and
    the family, so the sample rotates with every commit and over the commits covers every template."""
    if family not in FAMILIES:
        raise ValueError(f"unknown perturbation family {family!r}: choose from {', '.join(FAMILIES)}")
    pool = sorted(set(templates))
    return sorted(_rng(f"ci:{family}", commit).sample(pool, min(n, len(pool))))


def ci_family(commit: str) -> str:
    """The family the default test suite validates a template under on `commit` (one a commit, rotating)."""
    return FAMILIES[_rng("ci-family", commit).randrange(len(FAMILIES))]


# ------------------------------------------------------------------------------------------- the overlays
# What each kind says, per app ({brand} is the look's brand, never the real product's name).
_TEXTS: dict[str, dict[str, dict[str, str]]] = {
    "consent": {
        "*": {"title": "Your privacy choices",
              "body": "{brand} uses cookies and similar technologies to keep you signed in, understand how the "
                      "service is used and improve it. You can accept or reject non-essential cookies.",
              "yes": "Accept all", "no": "Reject all"},
    },
    "promo": {
        "mail": {"title": "Get more storage with {brand} One",
                 "body": "100 GB for your mail, files and photos, plus premium support. $1.99/month, cancel anytime.",
                 "yes": "Get offer", "no": "No thanks"},
        "food": {"title": "Try {brand} Pass free for 30 days",
                 "body": "$0 delivery fees and lower service fees on eligible orders over $12. Cancel anytime.",
                 "yes": "Start free trial", "no": "No thanks"},
        "crm": {"title": "Unlock forecasting with {brand} Insights",
                "body": "Predict which deals will close this quarter. Start a 14-day trial for your team.",
                "yes": "Start trial", "no": "No thanks"},
    },
    "tour": {
        "mail": {"title": "What's new in {brand}",
                 "body": "Snooze, schedule send and a fresh look for your inbox. Take a quick tour?",
                 "yes": "Got it", "no": "Skip tour"},
        "food": {"title": "What's new",
                 "body": "Save your favourite stores and reorder in one tap from Orders.",
                 "yes": "Got it", "no": "Skip tour"},
        "crm": {"title": "What's new in this release",
                "body": "List views now take filter logic, and dashboards get new components. Take the tour.",
                "yes": "Got it", "no": "Skip tour"},
    },
    "notify": {
        "mail": {"title": "Turn on desktop notifications?",
                 "body": "Get notified when new email arrives in {brand}.", "yes": "Allow", "no": "Not now"},
        "food": {"title": "Turn on desktop notifications?",
                 "body": "Know the moment your order is picked up and on its way.", "yes": "Allow", "no": "Not now"},
        "crm": {"title": "Turn on desktop notifications?",
                "body": "Get task reminders and approvals from {brand} as they happen.", "yes": "Allow", "no": "Not now"},
    },
    "chat": {
        "mail": {"title": "{brand} Help", "body": "Hi! Questions about your account? Our assistant is here to help.",
                 "busy": "All our agents are busy right now. Please try again later."},
        "food": {"title": "{brand} Support", "body": "Hi there! Need help with an order? Chat with us.",
                 "busy": "All our agents are busy right now. Please try again later."},
        "crm": {"title": "{brand} Assistant", "body": "Hi! I can point you to help articles and release notes.",
                "busy": "The assistant is offline right now. Please try again later."},
    },
}


def overlay_texts(app: str, brand: str, kinds: tuple[str, ...]) -> dict[str, dict[str, str]]:
    out = {}
    for k in kinds:
        by_app = _TEXTS[k]
        t = by_app.get(app) or by_app.get("*") or next(iter(by_app.values()))
        out[k] = {n: v.replace("{brand}", brand) for n, v in t.items()}
    return out


# Runs in every document before the page's scripts (Page.addScriptToEvaluateOnNewDocument), builds the
# overlays once the DOM is there, with DOM APIs only: no markup, no request, no app state. The CSS is a
# constructable stylesheet (the pages' CSP has no say over it).
_OVERLAY_JS = r"""
(() => {
  if (window.top !== window || !/html/.test(document.contentType || '')) return;
  const CFG = __CFG__;
  if (CFG.skip.includes(location.pathname)) return;
  const A = CFG.attr, D = CFG.dismiss, KEY = CFG.storage;
  const state = () => { try { return JSON.parse(sessionStorage.getItem(KEY) || '{}'); } catch (e) { return {}; } };
  const remember = (k, v) => { const s = state(); s[k] = v; try { sessionStorage.setItem(KEY, JSON.stringify(s)); } catch (e) {} };
  const CSS = `
[${A}] { all: initial; position: fixed; z-index: 2147483000; box-sizing: border-box;
  font-family: Arial, "Liberation Sans", Helvetica, sans-serif; font-size: 14px; line-height: 20px; color: #202124; }
[${A}] * { box-sizing: border-box; font: inherit; color: inherit; }
[${A}] h2 { display: block; margin: 0 0 6px; font-size: 16px; font-weight: bold; line-height: 22px; }
[${A}] p { display: block; margin: 0; }
[${A}] button { all: unset; box-sizing: border-box; display: inline-block; cursor: pointer; padding: 8px 16px;
  border-radius: 4px; font-weight: bold; font-size: 14px; line-height: 20px; text-align: center; }
[${A}] button:focus-visible { outline: 2px solid #1a73e8; outline-offset: 2px; }
[${A}] .ov-primary { background: #1a73e8; color: #fff; }
[${A}] .ov-secondary { background: #fff; color: #1a73e8; border: 1px solid #dadce0; }
[${A}] .ov-row { display: flex; gap: 8px; justify-content: flex-end; margin-top: 14px; }
[${A}] .ov-x { position: absolute; top: 8px; right: 8px; width: 32px; height: 32px; padding: 0; border-radius: 16px;
  font-size: 20px; line-height: 32px; color: #5f6368; font-weight: normal; }
[${A}="consent"] { left: 0; right: 0; bottom: 0; background: #fff; border-top: 1px solid #dadce0;
  box-shadow: 0 -2px 8px rgba(0,0,0,.15); padding: 16px 24px; display: flex; gap: 24px; align-items: center; }
[${A}="consent"] .ov-text { flex: 1; }
[${A}="consent"] .ov-row { margin-top: 0; }
[${A}="promo"] { inset: 0; background: rgba(32,33,36,.6); display: flex; align-items: center; justify-content: center; }
[${A}="promo"] .ov-card { position: relative; width: 440px; max-width: calc(100% - 32px); background: #fff;
  border-radius: 12px; padding: 28px 28px 20px; box-shadow: 0 8px 28px rgba(0,0,0,.3); }
[${A}="promo"] .ov-art { height: 96px; border-radius: 8px; margin-bottom: 16px;
  background: linear-gradient(135deg, #fbbc04, #ea4335 55%, #4285f4); }
[${A}="tour"] { top: 72px; right: 88px; width: 320px; background: #1a73e8; color: #fff; border-radius: 8px;
  padding: 16px 16px 12px; box-shadow: 0 4px 16px rgba(0,0,0,.3); }
[${A}="tour"] .ov-arrow { position: absolute; top: -8px; right: 32px; width: 16px; height: 16px; background: #1a73e8; transform: rotate(45deg); }
[${A}="tour"] .ov-primary { background: #fff; color: #1a73e8; }
[${A}="tour"] .ov-secondary { background: transparent; color: #fff; border: 1px solid rgba(255,255,255,.6); }
[${A}="notify"] { top: 72px; left: 50%; transform: translateX(-50%); width: 460px; max-width: calc(100% - 32px);
  background: #fff; border: 1px solid #dadce0; border-radius: 8px; padding: 16px 20px 12px; box-shadow: 0 4px 16px rgba(0,0,0,.25); }
[${A}="chat"] { right: 20px; bottom: 20px; }
[${A}="chat"] .ov-panel { position: relative; width: 320px; background: #fff; border-radius: 12px; overflow: hidden;
  box-shadow: 0 6px 24px rgba(0,0,0,.3); margin-bottom: 12px; }
[${A}="chat"] .ov-head { background: #5b36d6; color: #fff; padding: 14px 48px 14px 16px; font-weight: bold; }
[${A}="chat"] .ov-head .ov-x { color: #fff; top: 6px; }
[${A}="chat"] .ov-msgs { padding: 14px 16px; min-height: 120px; }
[${A}="chat"] .ov-bubble-msg { background: #f1f3f4; border-radius: 12px; padding: 8px 12px; margin-bottom: 8px; }
[${A}="chat"] .ov-start { display: block; margin: 0 16px 16px; background: #5b36d6; color: #fff; }
[${A}="chat"] .ov-launch { display: flex; justify-content: flex-end; align-items: center; gap: 6px; }
[${A}="chat"] .ov-open { width: 56px; height: 56px; padding: 0; border-radius: 28px; background: #5b36d6; color: #fff;
  font-size: 22px; line-height: 56px; box-shadow: 0 4px 12px rgba(0,0,0,.3); }
[${A}="chat"] .ov-hide { width: 24px; height: 24px; padding: 0; border-radius: 12px; background: #fff; color: #5f6368;
  font-size: 16px; line-height: 24px; font-weight: normal; box-shadow: 0 1px 4px rgba(0,0,0,.3); }
`;
  const el = (tag, props, ...kids) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'class') n.className = v; else if (k === 'text') n.textContent = v; else n.setAttribute(k, v);
    }
    for (const c of kids) if (c) n.appendChild(c);
    return n;
  };
  const button = (text, cls, extra) => el('button', Object.assign({type: 'button', class: cls, text: text}, extra || {}));
  const roots = {};
  const isolate = root => {
    // The app never sees the overlay's input (its own document handlers would, on a real site, only see
    // a third-party widget's frame): clicks and keys on the overlay stop at its root.
    for (const t of ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'dblclick', 'keydown', 'keyup', 'keypress', 'input'])
      root.addEventListener(t, e => e.stopPropagation());
  };
  const close = (k, how) => { remember(k, how || 'dismissed'); const r = roots[k]; if (r) { r.remove(); delete roots[k]; } };
  const T = CFG.texts;
  const build = {
    consent: t => {
      const id = 'uigym-ov-consent-title';
      return el('div', {role: 'region', 'aria-labelledby': id},
        el('div', {class: 'ov-text'}, el('h2', {id, text: t.title}), el('p', {text: t.body})),
        el('div', {class: 'ov-row'}, button(t.no, 'ov-secondary', {'data-act': 'close'}),
                                      button(t.yes, 'ov-primary', {'data-act': 'close', [D]: ''})));
    },
    promo: t => {
      const id = 'uigym-ov-promo-title';
      const root = el('div', {},
        el('div', {class: 'ov-card', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': id},
          button('\u00d7', 'ov-x', {'aria-label': 'Close', title: 'Close', 'data-act': 'close', [D]: ''}),
          el('div', {class: 'ov-art', 'aria-hidden': 'true'}),
          el('h2', {id, text: t.title}), el('p', {text: t.body}),
          el('div', {class: 'ov-row'}, button(t.no, 'ov-secondary', {'data-act': 'close'}),
                                        button(t.yes, 'ov-primary', {'data-act': 'close'}))));
      return root;
    },
    tour: t => {
      const id = 'uigym-ov-tour-title';
      return el('div', {role: 'dialog', 'aria-labelledby': id},
        el('div', {class: 'ov-arrow', 'aria-hidden': 'true'}),
        el('h2', {id, text: t.title}), el('p', {text: t.body}),
        el('div', {class: 'ov-row'}, button(t.no, 'ov-secondary', {'data-act': 'close'}),
                                      button(t.yes, 'ov-primary', {'data-act': 'close', [D]: ''})));
    },
    notify: t => {
      const id = 'uigym-ov-notify-title';
      return el('div', {role: 'alertdialog', 'aria-labelledby': id},
        el('h2', {id, text: t.title}), el('p', {text: t.body}),
        el('div', {class: 'ov-row'}, button(t.no, 'ov-secondary', {'data-act': 'close', [D]: ''}),
                                      button(t.yes, 'ov-primary', {'data-act': 'close'})));
    },
    chat: t => {
      const id = 'uigym-ov-chat-title';
      const root = el('div', {role: 'region', 'aria-label': t.title});
      const draw = () => {
        root.textContent = '';
        const s = state().chat;
        if (s === 'open' || s === undefined) {
          const msgs = el('div', {class: 'ov-msgs', role: 'log', 'aria-label': 'Messages'},
                          el('div', {class: 'ov-bubble-msg', text: t.body}));
          const start = button('Start a conversation', 'ov-start');
          start.addEventListener('click', () => {
            if (!msgs.querySelector('.ov-busy')) msgs.appendChild(el('div', {class: 'ov-bubble-msg ov-busy', text: t.busy}));
          });
          root.appendChild(el('div', {class: 'ov-panel', role: 'dialog', 'aria-labelledby': id},
            el('div', {class: 'ov-head'}, el('span', {id, text: t.title}),
               button('\u2013', 'ov-x', {'aria-label': 'Minimise chat', title: 'Minimise chat', 'data-act': 'min', [D]: ''})),
            msgs, start));
        } else {
          root.appendChild(el('div', {class: 'ov-launch'},
            button('\u00d7', 'ov-hide', {'aria-label': 'Hide chat', title: 'Hide chat', 'data-act': 'close', [D]: ''}),
            button('?', 'ov-open', {'aria-label': 'Open chat', title: 'Open chat', 'data-act': 'open'})));
        }
      };
      root.__uigymRedraw = draw;
      draw();
      return root;
    },
  };
  const keyTrap = e => {
    const r = roots.promo;
    if (!r) return;
    if (e.key === 'Escape') { e.preventDefault(); e.stopImmediatePropagation(); close('promo'); return; }
    if (!r.contains(e.target)) {
      e.preventDefault(); e.stopImmediatePropagation();
      const b = r.querySelector('[' + D + ']'); if (b) b.focus();
    }
  };
  const show = () => {
    if (!document.body || document.body.querySelector('[' + A + ']')) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    for (const k of CFG.kinds) {
      const s = state()[k];
      if (s === 'dismissed') continue;
      const root = build[k](T[k]);
      root.setAttribute(A, k);
      isolate(root);
      root.addEventListener('click', e => {
        const b = e.target.closest('button[data-act]');
        if (!b) return;
        const act = b.getAttribute('data-act');
        if (act === 'close') close(k);
        else if (act === 'min') { remember(k, 'min'); root.__uigymRedraw(); }
        else if (act === 'open') { remember(k, 'open'); root.__uigymRedraw(); }
      });
      roots[k] = root;
      document.body.appendChild(root);
    }
    if (roots.promo) {
      window.addEventListener('keydown', keyTrap, true);
      window.addEventListener('keypress', keyTrap, true);
      const b = roots.promo.querySelector('[' + D + ']');
      if (b) b.focus();
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show); else show();
})();
"""


def overlay_script(drawn: Drawn, app: str, brand: str) -> str | None:
    """The init script that shows the episode's overlays, or None where it has none."""
    if not drawn.overlays:
        return None
    cfg = {"kinds": list(drawn.overlays), "texts": overlay_texts(app, brand, drawn.overlays), "attr": OVERLAY_ATTR,
           "dismiss": DISMISS_ATTR, "storage": STORAGE_KEY, "skip": list(SKIP_PATHS)}
    return _OVERLAY_JS.replace("__CFG__", json.dumps(cfg))


# What a player that reads the DOM (the oracle) asks before it clicks at a point: is the point covered by an
# overlay (and not inside `target`)? Then the centre of that overlay's dismiss button, else null.
_DISMISS_POINT_JS = f"""
  // The centre of `ov`'s dismiss button; where another overlay lies over that point, that one's, and so on.
  const dismissPoint = ov => {{
    for (let hop = 0; ov && hop < 8; hop++) {{
      const b = ov.querySelector('[{DISMISS_ATTR}]');
      if (!b) return null;
      const r = b.getBoundingClientRect();
      const p = [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
      const top = document.elementFromPoint(p[0], p[1]);
      const over = top && top.closest('[{OVERLAY_ATTR}]');
      if (!over || over === ov) return p;
      ov = over;
    }}
    return null;
  }};
"""

# What a player that reads the DOM (the oracle) asks before it clicks at a point: is the point covered by an
# overlay (and not inside `target`)? Then the point to click to dismiss it, else null.
COVER_JS = f"""
(target, [x, y]) => {{
{_DISMISS_POINT_JS}
  const el = document.elementFromPoint(x, y);
  if (!el || (target && target.contains(el))) return null;
  const ov = el.closest('[{OVERLAY_ATTR}]');
  return ov ? dismissPoint(ov) : null;
}}
"""

# An open modal overlay (it traps the keys): the point to click to dismiss it, else null.
MODAL_JS = f"""
() => {{
{_DISMISS_POINT_JS}
  const ov = document.querySelector({json.dumps(", ".join(f'[{OVERLAY_ATTR}="{k}"]' for k in sorted(MODAL_KINDS)))});
  return ov ? dismissPoint(ov) : null;
}}
"""


async def covering_dismiss(target, x: int, y: int) -> tuple[int, int] | None:
    """The dismiss button's centre of the overlay covering (x, y) over `target` (a Locator or an ElementHandle), or None."""
    try:
        p = await target.evaluate(COVER_JS, [x, y])
    except Exception:  # noqa: BLE001 - the element went away: nothing to dismiss
        return None
    return (int(p[0]), int(p[1])) if p else None


async def point_dismiss(page, x: int, y: int) -> tuple[int, int] | None:
    """The dismiss point of the overlay covering (x, y) on the page (no target there), or None."""
    try:
        p = await page.evaluate(f"([x, y]) => ({COVER_JS})(null, [x, y])", [x, y])
    except Exception:  # noqa: BLE001
        return None
    return (int(p[0]), int(p[1])) if p else None


async def modal_dismiss(page) -> tuple[int, int] | None:
    """The dismiss button's centre of an open modal overlay (it traps the keys), or None."""
    try:
        p = await page.evaluate(MODAL_JS)
    except Exception:  # noqa: BLE001
        return None
    return (int(p[0]), int(p[1])) if p else None


__all__ = ["Perturb", "Drawn", "FAMILIES", "VIEWPORTS", "SCALES", "OVERLAY_KINDS", "parse_perturb", "draw", "overlay_kinds",
           "episode_key", "extra_steps", "MAX_EXTRA_STEPS", "screen_sizes", "ci_sample", "ci_family", "overlay_script", "covering_dismiss", "point_dismiss", "modal_dismiss",
           "has_dark_mode"]
