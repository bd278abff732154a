/* Inkbox, keyboard shortcuts (with the help dialog), then the toast stored by the previous page. */
(function (NS) {
  "use strict";

  const { $, $$, MENU_TRIGGER, appEl, compose, takesText } = NS;
  const go = (...a) => NS.go(...a);
  const openCompose = (...a) => NS.openCompose(...a);
  const showToast = (...a) => NS.showToast(...a);
  const takeStoredToast = (...a) => NS.takeStoredToast(...a);

  /* ------------------------------------------------------ keyboard shortcuts */
  // Gmail's set, on only when Settings > General > Keyboard shortcuts is on. Each key clicks the control that
  // does the same on screen, so a shortcut never does anything the page could not.
  const scWrap = $("#shortcuts-wrap");
  const shortcutsOn = appEl && appEl.dataset.shortcuts === "1";
  function openShortcuts() { if (scWrap) { scWrap.hidden = false; $("#shortcuts-close").focus(); } }
  function closeShortcuts() { if (scWrap) scWrap.hidden = true; }
  if (scWrap) {
    $("#shortcuts-close").addEventListener("click", closeShortcuts);
    scWrap.addEventListener("click", (e) => { if (e.target === scWrap) closeShortcuts(); });
  }
  // The keyboard cursor is the row with .kb-cursor: j / k move it, ticking a row puts it there (list.js), and
  // coming back from a conversation puts it on that conversation's row (Gmail's focus rules).
  const KB = { g: false, gTimer: null, star: false, starTimer: null };
  const kbRows = () => $$("tr.row");
  function kbIndex() { return kbRows().findIndex((r) => r.classList.contains("kb-cursor")); }
  function kbMove(d) {
    const rows = kbRows();
    if (!rows.length) return;
    const cur = kbIndex();
    const next = Math.max(0, Math.min(rows.length - 1, (cur < 0 ? (d > 0 ? -1 : 0) : cur) + d));
    rows.forEach((r, i) => r.classList.toggle("kb-cursor", i === next));
    rows[next].scrollIntoView({ block: "nearest" });
  }
  function kbRow() { const i = kbIndex(); return i >= 0 ? kbRows()[i] : null; }
  // `* a` / `* n` / `* r` / `* u` / `* s` / `* t`: the Select menu's All / None / Read / Unread / Starred / Unstarred.
  const STAR_SELECT = { a: "all", n: "none", r: "read", u: "unread", s: "starred", t: "unstarred" };
  // `z`: the toast's Undo (the last action's, while its toast shows).
  function undoLast() {
    const box = $("#toast");
    const b = box && !box.hidden ? $$("#toast-actions button").find((x) => x.textContent === NS.t("Undo")) : null;
    if (b) b.click();
    return !!b;
  }
  function clickFirst(sels, inMenus) {
    for (const sel of sels) {
      const el = $(sel);
      // A menu's items count although the menu is closed (the key does what the item does).
      if (el && !el.hidden && (inMenus || !el.closest("[hidden]"))) { el.click(); return true; }
    }
    return false;
  }
  // A list action: on the selection, else on the row under the cursor (Gmail).
  function selectForKey() {
    if ($$(".row-cb").some((cb) => cb.checked)) return true;
    const row = kbRow();
    if (!row) return false;
    const cb = $(".row-cb", row);
    if (cb && !cb.checked) cb.click();
    return true;
  }
  function listAction(action, inMenus) {
    if (selectForKey()) clickFirst(['#tb-selection [data-action="' + action + '"]'], inMenus);
  }
  // `l` Label as, `v` Move to, `b` Snooze: open the toolbar's menu for the selection (list) or the conversation.
  function listMenu(kind) { if (selectForKey()) clickFirst(["#tb-selection " + MENU_TRIGGER[kind]]); }
  function threadMenu(kind) { clickFirst(["#thread-toolbar " + MENU_TRIGGER[kind]]); }
  function threadAction(action) { return clickFirst(['#thread-toolbar [data-action="' + action + '"]', '#thread-more-menu [data-action="' + action + '"]'], true); }
  const GO = { i: "/inbox", s: "/starred", t: "/sent", d: "/drafts", a: "/all", b: "/snoozed" };
  document.addEventListener("keydown", (e) => {
    if (!shortcutsOn || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const t = e.target;
    // Gmail acts on the selection: a ticked checkbox keeps focus and must not swallow the key (issue 46).
    if (takesText(t)) return;
    if (e.key === "Escape") { closeShortcuts(); return; }
    const open = $$(".modal-backdrop").some((m) => !m.hidden) || (compose && !compose.hidden && compose.contains(t));
    if (open && e.key !== "?") return;
    const k = e.key;
    if (KB.g) {
      KB.g = false;
      clearTimeout(KB.gTimer);
      if (GO[k]) { e.preventDefault(); go(GO[k]); }
      return;
    }
    const inThread = !!$("#thread-toolbar");
    const inList = !inThread && kbRows().length > 0;
    if (KB.star) {
      KB.star = false;
      clearTimeout(KB.starTimer);
      if (inList && STAR_SELECT[k]) { e.preventDefault(); clickFirst(['#select-menu [data-select="' + STAR_SELECT[k] + '"]'], true); }
      return;
    }
    let done = true;
    if (k === "?") { if (scWrap && !scWrap.hidden) closeShortcuts(); else openShortcuts(); }
    else if (k === "g") { KB.g = true; KB.gTimer = setTimeout(() => { KB.g = false; }, 2000); }
    else if (k === "*" && inList) { KB.star = true; KB.starTimer = setTimeout(() => { KB.star = false; }, 2000); }
    else if (k === "z") done = undoLast();
    else if (k === "c") { if (compose) openCompose(); }
    else if (k === "/") { const si = $("#search-input"); if (si) si.focus(); }
    else if (inList && k === "j") kbMove(1);
    else if (inList && k === "k") kbMove(-1);
    else if (inList && (k === "o" || k === "Enter") && kbRow()) { const c = $(".c-subj", kbRow()); if (c) c.click(); }
    else if (inList && k === "x" && kbRow()) { const cb = $(".row-cb", kbRow()); if (cb) cb.click(); }
    else if (inList && k === "s" && kbRow()) { const b = $(".star-btn", kbRow()); if (b) b.click(); }
    else if (inList && k === "e") listAction("archive");
    else if (inList && k === "#") listAction("trash");
    else if (inList && k === "!") listAction("spam");
    else if (inList && k === "I") listAction("mark_read");
    else if (inList && k === "U") listAction("mark_unread");
    else if (inList && k === "l") listMenu("labels");
    else if (inList && k === "v") listMenu("move");
    else if (inList && k === "b") listMenu("snooze");
    else if (inList && k === "m") listAction("mute", true);
    else if (inThread && k === "r") clickFirst(["#reply-btn"]);
    else if (inThread && k === "a") clickFirst(["#reply-all-btn", "#reply-btn"]);
    else if (inThread && k === "f") clickFirst(["#forward-btn"]);
    else if (inThread && k === "e") threadAction("archive");
    else if (inThread && k === "#") threadAction("trash");
    else if (inThread && k === "!") threadAction("spam");
    else if (inThread && k === "s") { if (!threadAction("star")) threadAction("unstar"); }
    else if (inThread && k === "U") threadAction("mark_unread");
    else if (inThread && k === "u") clickFirst(["#thread-toolbar > a.icon-btn"]);
    else if (inThread && k === "l") threadMenu("labels");
    else if (inThread && k === "v") threadMenu("move");
    else if (inThread && k === "b") threadMenu("snooze");
    else if (inThread && k === "m") threadAction("mute");
    else if (inThread && (k === "[" || k === "]")) done = NS.archiveAndGo ? NS.archiveAndGo(k === "]" ? "older" : "newer") : false;
    else done = false;
    if (done) e.preventDefault();
  });

  /* --------------------------------------------------------- stored toast */
  showToast(takeStoredToast());
})(window.Inkbox = window.Inkbox || {});
