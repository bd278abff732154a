"""The page-side half of QA: finding controls, the page checks, a digest of the DOM.

All of it runs in the page through `page.evaluate`; nothing is injected into the app.
"""

# Where a user aims at an element: its box, except for an inline element wrapped over several lines (a long
# link in a sentence), whose bounding box's centre may fall beside the text; there the biggest of its line
# boxes.
AIM_JS = ("(el => { const rs = Array.from(el.getClientRects()).filter(q => q.width >= 2 && q.height >= 2);"
          " return rs.length < 2 ? el.getBoundingClientRect()"
          " : rs.reduce((a, b) => a.width * a.height >= b.width * b.height ? a : b); })")


# A CSS path that finds the element again after a reset: a digit-free unique id, else tags with
# :nth-of-type up from the root.
CSS_PATH_JS = r"""el => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && e !== document.documentElement; e = e.parentElement) {
      if (e.id && !/\d/.test(e.id) && document.querySelectorAll('#' + CSS.escape(e.id)).length === 1) {
        parts.unshift('#' + CSS.escape(e.id)); return parts.join(' > ');
      }
      let s = e.tagName.toLowerCase();
      const p = e.parentElement;
      if (p) {
        const sib = Array.from(p.children).filter(c => c.tagName === e.tagName);
        if (sib.length > 1) s += ':nth-of-type(' + (sib.indexOf(e) + 1) + ')';
      }
      parts.unshift(s);
    }
    return parts.join(' > ');
  }"""


def _aimed(script: str) -> str:
    """`AIM(el)` in a script stands for AIM_JS, `CSS_PATH` for CSS_PATH_JS."""
    return script.replace("AIM(", AIM_JS + "(").replace("CSS_PATH;", CSS_PATH_JS + ";")

# Everything a user can operate: semantic controls, ARIA widgets, editable text, and (below, in JS)
# elements that look clickable (cursor: pointer) without being any of those.
CONTROL_SELECTOR = ",".join([
    "a[href]", "button", "input:not([type=hidden])", "textarea", "select", "summary", "[contenteditable='']",
    "[contenteditable=true]", "[onclick]", "[tabindex]:not([tabindex='-1'])",
    *(f"[role={r}]" for r in (
        "button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "checkbox", "radio", "switch",
        "option", "combobox", "searchbox", "textbox", "slider", "spinbutton", "treeitem",
    )),
])

ENUM_JS = _aimed(r"""
(opts) => {
  const SEL = opts.selector;
  const R = opts.rep || 8;
  const W = innerWidth, H = innerHeight;
  const ITEM_ROLES = new Set(['row', 'listitem', 'option', 'treeitem', 'gridcell', 'article', 'menuitem',
                              'menuitemcheckbox', 'menuitemradio']);
  const TYPING = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '', 'date', 'time',
                          'datetime-local', 'month', 'week']);
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const firstClass = n => {
    const c = (n.getAttribute && n.getAttribute('class')) || '';
    const f = c.trim().split(/\s+/)[0] || '';
    return f.replace(/\d+/g, '#');
  };
  const roleOf = el => {
    const r = el.getAttribute('role');
    if (r) return r.trim().split(/\s+/)[0];
    const t = el.tagName;
    if (t === 'A') return el.hasAttribute('href') ? 'link' : 'generic';
    if (t === 'BUTTON' || t === 'SUMMARY') return 'button';
    if (t === 'TEXTAREA') return 'textbox';
    if (t === 'SELECT') return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
    if (t === 'INPUT') {
      const ty = (el.getAttribute('type') || 'text').toLowerCase();
      const m = {checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button',
                 image: 'button', file: 'button', color: 'button', range: 'slider', number: 'spinbutton'};
      if (m[ty]) return m[ty];
      if (el.hasAttribute('list')) return 'combobox';
      return ty === 'search' ? 'searchbox' : 'textbox';
    }
    if (el.isContentEditable) return 'textbox';
    return 'generic';
  };
  // The accessible name, approximately (Chromium's own is read from the accessibility tree where it
  // matters), and where it came from: 'content' names can be wrong for roles that take no name from content.
  let nameSrc = '';
  const nameOf = el => {
    nameSrc = 'attr';
    let n = el.getAttribute('aria-label');
    if (!norm(n) && el.getAttribute('aria-labelledby')) {
      n = el.getAttribute('aria-labelledby').split(/\s+/).map(id => {
        const x = document.getElementById(id); return x ? x.innerText || x.textContent : '';
      }).join(' ');
    }
    if (!norm(n) && el.labels && el.labels.length) n = Array.from(el.labels).map(l => l.innerText).join(' ');
    if (!norm(n) && el.tagName === 'INPUT' && ['submit', 'button', 'reset'].includes(el.type)) n = el.value;
    if (!norm(n) && !['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) { n = el.innerText; if (norm(n)) nameSrc = 'content'; }
    if (!norm(n) && el.tagName !== 'INPUT' && el.tagName !== 'TEXTAREA') {
      const img = el.querySelector('img[alt]'); if (img) n = img.alt;
    }
    if (!norm(n)) { n = el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('alt') || ''; nameSrc = 'attr'; }
    if (!norm(n)) nameSrc = 'none';
    return norm(n).slice(0, 120);
  };
  const visible = el => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    // Parked off the page's top or left edge (a skip link until focused): never seen, by design.
    if (r.right + scrollX <= 0 || r.bottom + scrollY <= 0) return false;
    if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    if (el.closest('[inert],[aria-hidden=true]')) return false;
    return true;
  };
  const cssPath = CSS_PATH;
  const step = n => n.tagName.toLowerCase() + (n.getAttribute('role') ? '[' + n.getAttribute('role') + ']' : '')
    + (firstClass(n) ? '.' + firstClass(n) : '');
  const structPath = el => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 8; e = e.parentElement) parts.unshift(step(e));
    return parts.join('>');
  };
  // Repeated items (list rows, cards): R or more siblings of the same tag and role, most of them holding
  // the same kind of control. Their controls are one group each, sampled rather than all exercised.
  const sig = n => n.tagName + '|' + (n.getAttribute('role') || '');
  const repMemo = new Map();
  const repCount = (p, s, leaf, depth) => {
    let m = repMemo.get(p);
    if (!m) { m = new Map(); repMemo.set(p, m); }
    const key = s + '|' + (depth === 0 ? '' : leaf);
    let v = m.get(key);
    if (v === undefined) {
      let c = 0, holding = 0;
      for (const k of p.children) {
        if (sig(k) !== s) continue;
        c++;
        if (depth === 0 || k.querySelector(leaf)) holding++;
      }
      v = [c, holding];
      m.set(key, v);
    }
    return v;
  };
  const repInfo = el => {
    const leaf = el.tagName.toLowerCase() + (el.getAttribute('role') ? '[role="' + el.getAttribute('role') + '"]' : '');
    for (let n = el, depth = 0; n && n.parentElement && n !== document.body; n = n.parentElement, depth++) {
      const p = n.parentElement, s = sig(n);
      const [c, holding] = repCount(p, s, leaf, depth);
      if (c >= R && holding >= R && (depth > 0 || ITEM_ROLES.has(roleOf(el)))) {
        const inner = [];
        for (let e = el; e && e !== n; e = e.parentElement) {
          const q = e.parentElement;
          const sib = Array.from(q.children).filter(x => sig(x) === sig(e));
          inner.unshift(step(e) + (sib.length > 1 ? ':' + sib.indexOf(e) : ''));
        }
        return {count: c, inner: inner.join('>'), list: structPath(p) + '>' + n.tagName.toLowerCase()};
      }
    }
    return null;
  };
  const describe = n => {
    if (!n) return 'nothing';
    let s = n.tagName.toLowerCase();
    if (n.id) s += '#' + n.id;
    const c = firstClass(n); if (c) s += '.' + c;
    const t = norm(n.getAttribute('aria-label') || n.innerText || '').slice(0, 40);
    return t ? s + ' "' + t + '"' : s;
  };
  const userScrollable = p => {
    const st = getComputedStyle(p);
    if (p === document.scrollingElement || p === document.body || p === document.documentElement) {
      const hs = getComputedStyle(document.documentElement), bs = getComputedStyle(document.body);
      return !(hs.overflow === 'hidden' || hs.overflowY === 'hidden' && hs.overflowX === 'hidden' ||
               (bs.overflow === 'hidden' && hs.overflow !== 'auto' && hs.overflow !== 'scroll'));
    }
    return /(auto|scroll|overlay)/.test(st.overflowY + ' ' + st.overflowX);
  };
  // What covers a control: an opaque layer (a full-screen viewer, a page over the page) hides it, so it
  // is not a visible control at all; a transparent one intercepts the user's clicks: a defect.
  const opaqueCover = (hit, el) => {
    for (let n = hit; n && !n.contains(el); n = n.parentElement) {
      if (['IMG', 'VIDEO', 'CANVAS', 'IFRAME'].includes(n.tagName)) return true;
      const st = getComputedStyle(n);
      if (st.backgroundImage !== 'none') return true;
      const m = st.backgroundColor.match(/rgba?\(([^)]+)\)/);
      if (m) { const v = m[1].split(',').map(Number); if (v.length < 4 || v[3] > 0.5) return true; }
    }
    return false;
  };
  // The part of the element a user can see: its box cut by the viewport and by every ancestor that clips.
  const visPart = el => {
    const r = AIM(el);
    let L = Math.max(r.left, 0), T = Math.max(r.top, 0), Rr = Math.min(r.right, W), B = Math.min(r.bottom, H);
    for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const q = p.getBoundingClientRect();
      L = Math.max(L, q.left); T = Math.max(T, q.top); Rr = Math.min(Rr, q.right); B = Math.min(B, q.bottom);
    }
    return (Rr - L >= 1 && B - T >= 1) ? [L, T, Rr - L, B - T] : null;
  };
  // Can a user click it: at the centre of its visible part, after scrolling it into view if they must.
  const reach = el => {
    const test = () => {
      const v = visPart(el);
      if (!v) return 'out';
      const hit = document.elementFromPoint(v[0] + v[2] / 2, v[1] + v[3] / 2);
      if (!hit) return 'out';
      if (hit === el || el.contains(hit) || (el.labels && Array.from(el.labels).some(l => l.contains(hit)))) return null;
      return (opaqueCover(hit, el) ? 'hidden under ' : 'covered by ') + describe(hit);
    };
    const first = test();
    if (first === null) return null;
    const saved = [];
    for (let p = el.parentElement; p; p = p.parentElement) saved.push([p, p.scrollTop, p.scrollLeft]);
    const wx = scrollX, wy = scrollY;
    el.scrollIntoView({block: 'center', inline: 'center'});
    const moved = [];
    for (const [p, t, l] of saved) if (p.scrollTop !== t || p.scrollLeft !== l) moved.push(p);
    if (scrollX !== wx || scrollY !== wy) moved.push(document.scrollingElement);
    const after = test();
    for (const [p, t, l] of saved) { p.scrollTop = t; p.scrollLeft = l; }
    scrollTo(wx, wy);
    if (after === 'out') return 'outside the viewport and cannot be scrolled into view';
    const stuck = moved.find(p => !userScrollable(p));
    if (stuck) return 'outside the viewport, inside ' + describe(stuck) + ' which a user cannot scroll';
    return after;
  };
  if (opts.reachOnly) {
    const el = document.querySelector(opts.reachOnly);
    return el ? reach(el) : 'gone';
  }

  const seen = new Set();
  const cands = [];
  for (const el of document.querySelectorAll(SEL)) {
    if (seen.has(el)) continue;
    seen.add(el);
    cands.push(el);
  }
  // Hidden native controls styled through their label (custom checkboxes): the label is the control.
  const proxies = new Map();
  for (const lab of document.querySelectorAll('label')) {
    const c = lab.control;
    if (c && seen.has(c) && !visible(c) && visible(lab)) proxies.set(lab, c);
  }
  // Elements that look clickable (they set a pointer cursor) but are none of the above: a list row or a
  // card opened by a click anywhere on it (it may hold controls of its own), or a fake button.
  const pointer = [];
  if (opts.pointer) {
    let n = 0;
    for (const el of document.body.querySelectorAll('*')) {
      if (++n > 6000) break;
      if (seen.has(el) || el.tagName === 'LABEL' || el.closest(SEL)) continue;
      if (getComputedStyle(el).cursor !== 'pointer') continue;
      const p = el.parentElement;
      if (p && getComputedStyle(p).cursor === 'pointer') continue;  // inherited
      // A container holding controls is a control itself only when it says so (a row, an option...);
      // otherwise its pointer cursor just frames the link or button inside it.
      if (!el.getAttribute('role') && el.querySelector(SEL)) continue;
      pointer.push(el);
    }
  }
  const out = [];
  const record = (el, real, how) => {
    if (!visible(el)) return;
    if (opts.lite) {
      out.push({path: cssPath(el), name: how === 'proxy' ? norm(el.innerText).slice(0, 120) : nameOf(real || el),
                role: how === 'pointer' ? ((el.getAttribute('role') || '').trim().split(/\s+/)[0] || 'generic') : roleOf(real || el)});
      return;
    }
    const r = AIM(el);
    const tgt = real || el;
    const role = how === 'pointer' ? ((tgt.getAttribute('role') || '').trim().split(/\s+/)[0] || 'generic') : roleOf(tgt);
    const tag = tgt.tagName.toLowerCase();
    const ty = (tgt.getAttribute('type') || '').toLowerCase();
    let act = 'click';
    if (!real && (tag === 'textarea' || tgt.isContentEditable || (tag === 'input' && TYPING.has(ty)))) act = 'type';
    else if (!real && tag === 'select') act = 'select';
    else if (role === 'slider') act = 'slide';
    // The current choice (a selected tab, the pressed half of a Delivery | Pickup toggle, the current page):
    // clicking it may rightly do nothing.
    const sel = (tgt.getAttribute('aria-selected') === 'true') || (tgt.getAttribute('aria-pressed') === 'true')
      || ((['radio', 'menuitemradio', 'tab', 'option'].includes(role)) && (tgt.getAttribute('aria-checked') === 'true' || tgt.checked === true))
      || (tgt.hasAttribute('aria-current') && tgt.getAttribute('aria-current') !== 'false');
    const rec = {
      path: cssPath(el), role, name: how === 'proxy' ? norm(el.innerText).slice(0, 120) : nameOf(tgt),
      name_src: how === 'proxy' ? 'label' : nameSrc, tag, type: ty,
      box: [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)],
      href: tag === 'a' && tgt.hasAttribute('href') ? tgt.href : null,
      raw_href: tag === 'a' ? tgt.getAttribute('href') : null,
      download: tag === 'a' && tgt.hasAttribute('download'),
      target: tgt.getAttribute('target') || null,
      disabled: !!(tgt.matches(':disabled') || tgt.getAttribute('aria-disabled') === 'true'),
      readonly: !!(tgt.readOnly),
      selected: !!sel,
      title: tgt.getAttribute('title') || null,
      struct: structPath(el), rep: repInfo(el), act, how,
      in_view: r.left + r.width / 2 >= 0 && r.left + r.width / 2 < W && r.top + r.height / 2 >= 0 && r.top + r.height / 2 < H,
    };
    out.push(rec);
  };
  for (const el of cands) {
    if (el.tagName === 'LABEL') continue;
    if (el.tagName === 'INPUT' && !visible(el) && Array.from(proxies.values()).includes(el)) continue;
    record(el, null, 'control');
  }
  for (const [lab, c] of proxies) record(lab, c, 'proxy');
  for (const el of pointer) record(el, null, 'pointer');

  const containers = [];
  for (const c of document.querySelectorAll('[role=dialog],[role=alertdialog],[role=menu],[role=listbox],[role=tooltip],dialog[open],[role=tabpanel]')) {
    if (visible(c)) containers.push(cssPath(c) + '|' + (c.getAttribute('role') || c.tagName.toLowerCase()));
  }
  return {elements: out, containers, url: location.href, scroll: [scrollX, scrollY]};
}
""")

CHECKS_JS = _aimed(r"""
(opts) => {
  const W = innerWidth, H = innerHeight;
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const cssPath = CSS_PATH;
  const box = el => { const r = el.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]; };
  const images = [];
  for (const img of document.images) {
    if (!img.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    const r = img.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const src = img.currentSrc || img.src || '';
    if (!src) { images.push({path: cssPath(img), src: '', problem: 'has no src', box: box(img), alt: img.alt}); continue; }
    if (!img.complete) continue;  // lazy and not loaded yet
    if (img.naturalWidth === 0) { images.push({path: cssPath(img), src, problem: 'did not load', box: box(img), alt: img.alt}); continue; }
    if (r.width >= 12 && r.height >= 12) {
      try {
        const c = document.createElement('canvas'); c.width = 12; c.height = 12;
        const g = c.getContext('2d', {willReadFrequently: true});
        g.drawImage(img, 0, 0, 12, 12);
        const d = g.getImageData(0, 0, 12, 12).data;
        let same = true;
        for (let i = 4; i < d.length; i += 4) {
          if (Math.abs(d[i] - d[0]) > 2 || Math.abs(d[i+1] - d[1]) > 2 || Math.abs(d[i+2] - d[2]) > 2 || Math.abs(d[i+3] - d[3]) > 2) { same = false; break; }
        }
        if (same) images.push({path: cssPath(img), src, problem: d[3] === 0 ? 'is blank (fully transparent)' : 'is blank (one flat colour)', box: box(img), alt: img.alt});
      } catch (e) { /* a tainted canvas: cannot tell */ }
    }
  }
  const overflow = [];
  let n = 0;
  const range = document.createRange();
  for (const el of document.body.querySelectorAll('*')) {
    if (++n > 8000 || overflow.length >= 40) break;
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION', 'TEXTAREA', 'SELECT'].includes(el.tagName)) continue;
    let text = false;
    for (const c of el.childNodes) if (c.nodeType === 3 && c.textContent.trim()) { text = true; break; }
    if (!text) continue;
    const st = getComputedStyle(el);
    if (st.display === 'inline' || st.display === 'contents' || st.display === 'none') continue;
    if (/material|symbols|icons?\b|awesome|glyph/i.test(st.fontFamily)) continue;  // an icon ligature, not text
    if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 2 || r.height <= 2) continue;  // visually hidden text (an accessible name), by design
    if ((st.clip && st.clip !== 'auto') || (st.clipPath && st.clipPath !== 'none')) continue;
    let tl = Infinity, tt = Infinity, tr = -Infinity, tb = -Infinity;
    for (const c of el.childNodes) {
      if (c.nodeType !== 3 || !c.textContent.trim()) continue;
      range.selectNodeContents(c);
      for (const q of range.getClientRects()) {
        if (q.width < 1) continue;
        tl = Math.min(tl, q.left); tt = Math.min(tt, q.top); tr = Math.max(tr, q.right); tb = Math.max(tb, q.bottom);
      }
    }
    if (tr === -Infinity) continue;
    const left = r.left + el.clientLeft, top = r.top + el.clientTop;
    const right = left + el.clientWidth, bottom = top + el.clientHeight;
    const tol = 2;
    const ox = tr > right + tol || tl < left - tol, oy = tb > bottom + tol || tt < top - tol;
    if (!ox && !oy) continue;
    const scroll = v => /(auto|scroll)/.test(v);
    if ((ox && scroll(st.overflowX)) || (oy && scroll(st.overflowY))) continue;
    const hidden = v => v === 'hidden' || v === 'clip';
    let how;
    if (ox && hidden(st.overflowX)) {
      if (st.textOverflow === 'ellipsis') { if (!oy) continue; }
      how = 'is cut off (hidden overflow, no ellipsis)';
    } else if (oy && hidden(st.overflowY)) {
      if (st.webkitLineClamp && st.webkitLineClamp !== 'none') continue;
      how = 'is cut off at the bottom';
    } else {
      how = 'spills out of its box';
    }
    const amount = Math.round(Math.max(tr - right, left - tl, tb - bottom, top - tt));
    overflow.push({path: cssPath(el), text: norm(el.textContent).slice(0, 80), how, amount, box: box(el),
                   tag: el.tagName.toLowerCase()});
  }
  return {images, overflow};
}
""")

DIGEST_JS = r"""
() => {
  let s = document.body ? document.body.outerHTML : '';
  for (const el of document.querySelectorAll('input,textarea,select')) {
    s += '|' + ((el.type === 'checkbox' || el.type === 'radio') ? el.checked : el.value);
  }
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
  return (h >>> 0).toString(16) + ':' + s.length;
}
"""

# The target's own state: value / checked / focus, read before and after an action.
FIELD_JS = r"""
(path) => {
  const el = document.querySelector(path);
  if (!el) return null;
  const c = (el.tagName === 'LABEL' && el.control) ? el.control : el;
  return {value: c.value !== undefined ? String(c.value) : (c.isContentEditable ? c.innerText : null),
          checked: c.checked === undefined ? null : c.checked,
          focused: document.activeElement === c || c.contains(document.activeElement),
          expanded: c.getAttribute('aria-expanded')};
}
"""

# Whether a user's click at (x, y) lands on the element ('hidden under' an opaque layer, 'covered by' a
# transparent one), or null when it does.
HIT_JS = r"""
([path, x, y]) => {
  const el = document.querySelector(path);
  const hit = document.elementFromPoint(x, y);
  if (!el || !hit) return 'nothing there';
  if (hit === el || el.contains(hit)) return null;
  if (el.labels && Array.from(el.labels).some(l => l.contains(hit))) return null;
  if (el.tagName === 'LABEL' && el.control && (hit === el.control)) return null;
  let s = hit.tagName.toLowerCase();
  if (hit.id) s += '#' + hit.id;
  const c = ((hit.getAttribute('class') || '').trim().split(/\s+/)[0]); if (c) s += '.' + c;
  for (let n = hit; n && !n.contains(el); n = n.parentElement) {
    if (['IMG', 'VIDEO', 'CANVAS', 'IFRAME'].includes(n.tagName)) return 'hidden under ' + s;
    const st = getComputedStyle(n);
    if (st.backgroundImage !== 'none') return 'hidden under ' + s;
    const m = st.backgroundColor.match(/rgba?\(([^)]+)\)/);
    if (m) { const v = m[1].split(',').map(Number); if (v.length < 4 || v[3] > 0.5) return 'hidden under ' + s; }
  }
  return 'covered by ' + s;
}
"""

SCROLL_INTO_VIEW_JS = "(path) => { const el = document.querySelector(path); if (el) el.scrollIntoView({block: 'center', inline: 'center'}); }"

FRAMES_JS = "n => new Promise(r => { const f = k => k ? requestAnimationFrame(() => f(k - 1)) : r(); f(n); })"

# Where an element is now (null when it is gone or has no box).
LOCATE_JS = _aimed(r"""
(path) => {
  const el = document.querySelector(path);
  if (!el) return null;
  const r = AIM(el);
  if (r.width < 2 || r.height < 2) return null;
  return [r.left, r.top, r.width, r.height];
}
""")

# One round trip before and after an action: the controls visible now (paths), open containers, the DOM
# digest, the target's field state, the URL, and (before) where a click at (x, y) lands.
SNAP_JS = (
    "(a) => {\n const enumerate = " + ENUM_JS.strip() + ";\n const digest = " + DIGEST_JS.strip()
    + ";\n const field = " + FIELD_JS.strip() + ";\n const hit = " + HIT_JS.strip() + """;
 const lite = enumerate({selector: a.selector, lite: true, rep: 8});
 return {paths: lite.elements.map(e => e.path), containers: lite.containers, digest: digest(),
         field: a.path ? field(a.path) : null, url: location.href,
         hit: a.x === undefined || a.x === null ? null : hit([a.path, a.x, a.y])};
}""")

# Where an element is, the part of it a user can see (cut by the viewport and clipping ancestors), and the
# nearest scrollable ancestor's box (where to put the mouse to wheel it into view).
VIEW_JS = _aimed(r"""
(path) => {
  const el = document.querySelector(path);
  if (!el) return null;
  const W = innerWidth, H = innerHeight;
  const r = AIM(el);
  if (r.width < 2 || r.height < 2) return null;
  let L = Math.max(r.left, 0), T = Math.max(r.top, 0), R = Math.min(r.right, W), B = Math.min(r.bottom, H);
  let scroller = null;
  for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const q = p.getBoundingClientRect();
    L = Math.max(L, q.left); T = Math.max(T, q.top); R = Math.min(R, q.right); B = Math.min(B, q.bottom);
    if (!scroller && /(auto|scroll|overlay)/.test(s.overflowY) && p.scrollHeight > p.clientHeight + 1) {
      scroller = [q.left, q.top, q.width, q.height];
    }
  }
  return {box: [r.left, r.top, r.width, r.height], vis: (R - L >= 1 && B - T >= 1) ? [L, T, R - L, B - T] : null,
          scroller};
}
""")

# Why a control cannot be clicked by a user (null when it can): outside the viewport with no way to scroll
# there, inside a box a user cannot scroll, or under another element.
REACH_JS = "(path) => (" + ENUM_JS.strip() + ")({reachOnly: path, selector: 'a'})"
