/* Inkbox, core: $/$$, the server's now, fetch helpers (api, getJSON, go, reload), the toast (and Undo Send's Undo), modals, popovers, floating menus, dropdowns.
   Small hand-written behaviour in files that share one namespace object, window.Inkbox (loaded in order by
   layout.html: editor, core, shell, fields, attachments, compose, list, thread, settings, shortcuts). No framework, no client clock (the server's "now" is in #app[data-now]).
   icons: check, close, star, reply, reply_all, forward, open_in_full, close_fullscreen, expand_more, expand_less,
          arrow_right, arrow_drop_down */
(function (NS) {
  "use strict";


  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const RTE = window.Inkbox.editor;
  const TOAST_KEY = "inkbox.toast";
  const appEl = $("#app");
  const NOW = appEl && appEl.dataset.now ? appEl.dataset.now : "2026-01-01T00:00:00";
  // The page's UI language (apps/_shared/i18n.py): the catalog the layout hands over in #app[data-i18n] (none in
  // English). t("Undo") is the text in the page's language; "%(name)s" in it is filled from `args`.
  let I18N = {};
  try { I18N = appEl && appEl.dataset.i18n ? JSON.parse(appEl.dataset.i18n) : {}; } catch (e) { I18N = {}; }
  function t(text, args) {
    let s = (text && Object.prototype.hasOwnProperty.call(I18N, text)) ? I18N[text] : text;
    if (args && typeof s === "string") s = s.replace(/%\((\w+)\)s/g, (m, k) => (k in args ? String(args[k]) : m));
    return s;
  }

  async function api(url, body) {
    const resp = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    let data = {};
    try { data = await resp.json(); } catch (e) { /* not JSON */ }
    if (!resp.ok || data.ok === false) {
      const err = new Error(data.error || ("Request failed (" + resp.status + ")"));
      err.status = resp.status;
      throw err;
    }
    return data;
  }
  async function getJSON(url) {
    const resp = await fetch(url, { credentials: "same-origin" });
    const data = await resp.json();
    if (!resp.ok || data.ok === false) throw new Error(data.error || "Request failed");
    return data;
  }
  function reload() { location.reload(); }
  function go(url) { location.href = url; }

  /* ------------------------------------------------------------------ toast */
  function showToast(t) {
    const box = $("#toast");
    if (!box || !t) return;
    $("#toast-text").textContent = NS.t(t.text);
    const actions = $("#toast-actions");
    actions.textContent = "";
    (t.actions || []).forEach((a) => {
      let el;
      if (a.href) {
        el = document.createElement("a");
        el.href = a.href;
      } else {
        el = document.createElement("button");
        el.type = "button";
        el.addEventListener("click", async () => {
          try {
            const r = a.undo ? await api("/api/undo", a.undo) : await api(a.post, a.body || {});
            storeToast({ text: r.toast || "Action undone." });
            // Undo Send of a reply: the reply form reopens with what was sent (see the thread page).
            if (r.reply) { try { sessionStorage.setItem(REPLY_KEY, JSON.stringify(r.reply)); } catch (e) { /* ignore */ } }
            if (r.draft_id && a.thenDraft) go(location.pathname + "?draft=" + r.draft_id);
            else if (a.then) go(a.then); else reload();
          } catch (err) { alertModal("Error", err.message); }
        });
        // Undo Send is offered for the send cancellation period only (Settings > General > Undo Send).
        if (a.seconds) setTimeout(() => el.remove(), a.seconds * 1000);
      }
      el.textContent = NS.t(a.label);
      actions.appendChild(el);
    });
    box.hidden = false;
  }
  const REPLY_KEY = "inkbox.reply";
  function undoSendAction(r) {
    return { label: "Undo", post: "/api/messages/" + r.message_id + "/undo_send", seconds: r.undo_seconds || 5, thenDraft: true };
  }
  function storeToast(t) {
    try { sessionStorage.setItem(TOAST_KEY, JSON.stringify(t)); } catch (e) { /* ignore */ }
  }
  function takeStoredToast() {
    try {
      const raw = sessionStorage.getItem(TOAST_KEY);
      sessionStorage.removeItem(TOAST_KEY);
      return raw ? JSON.parse(raw) : null;
    } catch (e) { return null; }
  }
  const closeToast = $("#toast-close");
  if (closeToast) closeToast.addEventListener("click", () => { $("#toast").hidden = true; });

  /* ------------------------------------------------------------------ modal */
  function modal(title, text, withCancel, okLabel) {
    return new Promise((resolve) => {
      const m = $("#modal");
      $("#modal-title").textContent = t(title);
      $("#modal-text").textContent = t(text);
      const cancel = $("#modal-cancel");
      const ok = $("#modal-ok");
      ok.textContent = t(okLabel || "OK");
      cancel.hidden = !withCancel;
      m.hidden = false;
      ok.focus();
      const done = (v) => {
        m.hidden = true;
        ok.onclick = null;
        cancel.onclick = null;
        resolve(v);
      };
      ok.onclick = () => done(true);
      cancel.onclick = () => done(false);
    });
  }
  const alertModal = (title, text) => modal(title, text, false);
  const confirmModal = (text, okLabel, title) => modal(title || "Confirm", text, true, okLabel);

  /* --------------------------------------------------------------- popovers */
  const popovers = [];
  function popover(button, panel, onOpen) {
    if (!button || !panel) return;
    popovers.push({ button, panel });
    button.addEventListener("click", (e) => {
      e.stopPropagation();
      const open = panel.hidden;
      closePopovers();
      panel.hidden = !open;
      button.setAttribute("aria-expanded", open ? "true" : "false");
      if (open && onOpen) onOpen();
    });
    panel.addEventListener("click", (e) => e.stopPropagation());
  }
  function closePopovers(except) {
    popovers.forEach(({ button, panel }) => {
      if (panel === except) return;
      panel.hidden = true;
      button.setAttribute("aria-expanded", "false");
    });
    closeFloating();
    closeDropdowns();
  }
  document.addEventListener("click", () => closePopovers());
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closePopovers(); });

  /* Floating menus (snooze, move to, labels...), shared and placed next to the button that opened them. */
  // Their triggers, exact: buttons only. A row and the conversation toolbar carry data too (data-label-ids,
  // data-inbox...), and a bare attribute selector that also matched them opened the menu on a click anywhere in
  // the row, a ticked checkbox included (issue 46).
  const MENU_TRIGGER = { labels: "button[data-labels]", move: "button[data-move]", snooze: "button[data-snooze]" };
  let floatingOpen = null;
  function placeNear(menu, anchor) {
    menu.hidden = false;
    menu.style.left = "0px";
    menu.style.top = "0px";
    const a = anchor.getBoundingClientRect();
    const w = menu.offsetWidth;
    const h = menu.offsetHeight;
    let left = Math.min(a.left, window.innerWidth - w - 8);
    let top = a.bottom + 2;
    if (top + h > window.innerHeight - 8) top = Math.max(8, window.innerHeight - h - 8);
    menu.style.left = Math.max(8, left) + "px";
    menu.style.top = top + "px";
  }
  function openFloating(menu, anchor, ctx) {
    closePopovers();
    floatingOpen = { menu, anchor, ctx };
    menu.ctx = ctx;
    placeNear(menu, anchor);
    anchor.setAttribute("aria-expanded", "true");
  }
  function closeFloating() {
    if (!floatingOpen) return;
    floatingOpen.menu.hidden = true;
    floatingOpen.anchor.setAttribute("aria-expanded", "false");
    floatingOpen = null;
  }
  $$(".menu.floating").forEach((m) => m.addEventListener("click", (e) => e.stopPropagation()));

  /* Whether typing into `el` is text (a shortcut key must not act there): a text-like input, a textarea, a select,
     contenteditable. A checkbox, radio or button keeps focus after a mouse click and must not swallow shortcuts. */
  const NOT_TEXT_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "file", "range", "color", "hidden"]);
  function takesText(el) {
    if (!el || !el.tagName) return false;
    if (el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
    return el.tagName === "INPUT" && !NOT_TEXT_INPUTS.has((el.type || "text").toLowerCase());
  }

  /* Custom dropdowns (listbox), used instead of native <select>. */
  function closeDropdowns(except) {
    $$(".dropdown .dd-list").forEach((l) => {
      if (l === except) return;
      l.hidden = true;
      l.previousElementSibling.setAttribute("aria-expanded", "false");
    });
  }
  function setDropdown(dd, value) {
    const opt = $$("[role=option]", dd).find((o) => o.dataset.value === String(value));
    const btn = $(".dd-btn", dd);
    dd.dataset.value = opt ? opt.dataset.value : "";
    $$("[role=option]", dd).forEach((o) => o.setAttribute("aria-selected", o === opt ? "true" : "false"));
    const text = opt ? opt.textContent : (dd.dataset.placeholder || $(".dd-text", btn).dataset.placeholder || "");
    $(".dd-text", btn).textContent = text;
    btn.setAttribute("aria-label", btn.dataset.label + ": " + text);
  }
  $$(".dropdown").forEach((dd) => {
    const btn = $(".dd-btn", dd);
    const list = $(".dd-list", dd);
    $(".dd-text", btn).dataset.placeholder = $(".dd-text", btn).textContent;
    btn.addEventListener("click", (e) => {
      e.stopPropagation();
      const open = list.hidden;
      closeDropdowns();
      list.hidden = !open;
      btn.setAttribute("aria-expanded", open ? "true" : "false");
    });
    list.addEventListener("click", (e) => {
      e.stopPropagation();
      const opt = e.target.closest("[role=option]");
      if (!opt) return;
      setDropdown(dd, opt.dataset.value);
      list.hidden = true;
      btn.setAttribute("aria-expanded", "false");
      dd.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });


  Object.assign(NS, { $, $$, MENU_TRIGGER, NOW, REPLY_KEY, RTE, alertModal, api, appEl, closeDropdowns, closeFloating, closePopovers, confirmModal, getJSON, go, openFloating, popover, reload, setDropdown, showToast, storeToast, t, takeStoredToast, takesText, undoSendAction });
  Object.defineProperty(NS, "floatingOpen", { get: () => floatingOpen, set: (v) => { floatingOpen = v; } });
})(window.Inkbox = window.Inkbox || {});
