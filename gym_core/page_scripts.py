"""The JavaScript the screen env runs in its pages: the init script (frozen motion, no WebRTC), the wheel's
scroll probe, and the set-of-marks reader."""

# Injected before any page script: no motion, no caret blink, so the same world gives the same pixels.
FREEZE_CSS = (
    "*,*::before,*::after{transition:none!important;animation:none!important;"
    "caret-color:transparent!important;scroll-behavior:auto!important}"
)
INIT_SCRIPT = f"""
(() => {{
  const add = () => {{
    if (document.getElementById('__uigym_freeze')) return;
    const s = document.createElement('style'); s.id = '__uigym_freeze'; s.textContent = {FREEZE_CSS!r};
    (document.head || document.documentElement).appendChild(s);
  }};
  if (document.documentElement) add(); else document.addEventListener('DOMContentLoaded', add);
  document.addEventListener('DOMContentLoaded', add);
}})();
// No WebRTC: its STUN/TURN traffic goes to any host and port straight from the network service, past the
// page's CSP and the env's request guard (measured: STUN and TURN packets reached another loopback port).
// No clone uses it. This runs in every frame before its scripts, including a new iframe's about:blank,
// so a page cannot fetch a pristine constructor from a child frame either.
for (const k of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCRtpSender',
                 'RTCRtpReceiver', 'RTCIceCandidate', 'RTCSessionDescription']) {{
  try {{ delete window[k]; }} catch (e) {{}}
}}
"""

# Before a wheel: can anything under the mouse (or the page) scroll that way? If so, a promise that
# resolves at the first scroll event (capture: element scrolls too), or after 1 s.
ARM_SCROLL_JS = """
([x, y, dx, dy]) => {
  const room = (n, st) => (dy > 0 && n.scrollTop + n.clientHeight < n.scrollHeight - 1) || (dy < 0 && n.scrollTop > 0)
    ? /(auto|scroll|overlay)/.test(st.overflowY)
    : ((dx > 0 && n.scrollLeft + n.clientWidth < n.scrollWidth - 1) || (dx < 0 && n.scrollLeft > 0))
      && /(auto|scroll|overlay)/.test(st.overflowX);
  let can = false;
  for (let n = document.elementFromPoint(x, y); n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    if (room(n, getComputedStyle(n))) { can = true; break; }
  }
  const d = document.scrollingElement;
  can = can || (dy > 0 && scrollY + innerHeight < d.scrollHeight - 1) || (dy < 0 && scrollY > 0)
    || (dx > 0 && scrollX + innerWidth < d.scrollWidth - 1) || (dx < 0 && scrollX > 0);
  if (!can) return false;
  window.__gymScrolled = new Promise(r => {
    const done = () => { removeEventListener('scroll', done, true); r(true); };
    addEventListener('scroll', done, true);
    setTimeout(() => r(false), 1000);
  });
  return true;
}
"""

# Set-of-marks: the interactive elements with a visible part on screen, at most maxMarks. A box is the
# visible part, in whole screenshot pixels (floor/ceil: it covers the element and stays on the screen);
# role and name are cut by code points (a cut by UTF-16 units could split an emoji into a lone surrogate).
MARKS_JS = """
([maxMarks, maxText]) => {
  const sel = 'a[href],button,input,textarea,select,[role=button],[role=link],[role=tab],[role=menuitem],'
    + '[role=checkbox],[role=option],[role=row][tabindex],[role=switch],[role=combobox],[contenteditable=true]';
  const cut = s => Array.from(s).slice(0, maxText).join('');
  const W = innerWidth, H = innerHeight;
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (out.length >= maxMarks) break;
    const r = el.getBoundingClientRect();
    const x0 = Math.floor(Math.max(0, r.left)), y0 = Math.floor(Math.max(0, r.top));
    const x1 = Math.ceil(Math.min(W, r.right)), y1 = Math.ceil(Math.min(H, r.bottom));
    if (x1 - x0 < 2 || y1 - y0 < 2) continue;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden' || st.display === 'none') continue;
    const name = (el.getAttribute('aria-label') || el.innerText || el.value || el.placeholder || el.title || '').trim();
    out.push({id: out.length, role: cut(el.getAttribute('role') || el.tagName.toLowerCase()), name: cut(name),
              box: [x0, y0, x1 - x0, y1 - y0]});
  }
  return out;
}
"""
