/* Inkbox: small hand-written behaviour. No framework, no client clock (the server's "now" is in #app[data-now]).
   icons: check, close, star, reply, reply_all, forward, open_in_full, close_fullscreen, expand_more, expand_less,
          arrow_right, arrow_drop_down */
(function () {
  "use strict";

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const RTE = window.Inkbox.editor;
  const TOAST_KEY = "inkbox.toast";
  const appEl = $("#app");
  const NOW = appEl && appEl.dataset.now ? appEl.dataset.now : "2026-01-01T00:00:00";

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
    $("#toast-text").textContent = t.text;
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
      el.textContent = a.label;
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
      $("#modal-title").textContent = title;
      $("#modal-text").textContent = text;
      const cancel = $("#modal-cancel");
      const ok = $("#modal-ok");
      ok.textContent = okLabel || "OK";
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

  /* ------------------------------------------------------------------- rail */
  const menuBtn = $("#menu-btn");
  try { if (sessionStorage.getItem("inkbox.rail") === "collapsed") appEl.classList.add("rail-collapsed"); } catch (e) { /* */ }
  if (menuBtn) {
    menuBtn.setAttribute("aria-expanded", appEl.classList.contains("rail-collapsed") ? "false" : "true");
    menuBtn.addEventListener("click", () => {
      const collapsed = appEl.classList.toggle("rail-collapsed");
      menuBtn.setAttribute("aria-expanded", collapsed ? "false" : "true");
      try { sessionStorage.setItem("inkbox.rail", collapsed ? "collapsed" : "open"); } catch (e) { /* */ }
    });
  }
  const moreToggle = $("#more-toggle");
  if (moreToggle) {
    moreToggle.addEventListener("click", () => {
      const items = $("#more-items");
      const open = items.hidden;
      items.hidden = !open;
      moreToggle.setAttribute("aria-expanded", open ? "true" : "false");
      moreToggle.setAttribute("aria-label", open ? "Less" : "More");
      $(".more-text", moreToggle).textContent = open ? "Less" : "More";
      $(".more-icon", moreToggle).textContent = open ? "expand_less" : "expand_more";
    });
  }
  const catsToggle = $("#cats-toggle");
  if (catsToggle) {
    catsToggle.addEventListener("click", () => {
      const items = $("#cats-items");
      const open = items.hidden;
      items.hidden = !open;
      catsToggle.setAttribute("aria-expanded", open ? "true" : "false");
      $(".cats-caret", catsToggle).textContent = open ? "arrow_drop_down" : "arrow_right";
    });
  }

  /* ---------------------------------------------------------- label dialog */
  const labelWrap = $("#label-dialog-wrap");
  let labelDialogCtx = null;
  function openLabelDialog(ctx) {
    labelDialogCtx = ctx || {};
    const edit = !!labelDialogCtx.id;
    $("#label-dialog").setAttribute("aria-label", edit ? "Edit label" : "New label");
    $("#label-dialog-title").textContent = edit ? "Edit label" : "New label";
    $("#label-name-caption").textContent = edit ? "Label name:" : "Please enter a new label name:";
    $("#label-save").textContent = edit ? "Save" : "Create";
    $("#label-name").value = labelDialogCtx.name || "";
    const parent = labelDialogCtx.parentId ? String(labelDialogCtx.parentId) : "";
    $("#label-nest").checked = !!parent;
    setDropdown($("#label-parent"), parent);
    $$("#label-parent [role=option]").forEach((o) => { o.hidden = edit && o.dataset.value === String(labelDialogCtx.id); });
    closePopovers();
    labelWrap.hidden = false;
    $("#label-name").focus();
  }
  if (labelWrap) {
    labelWrap.addEventListener("click", (e) => { if (e.target === labelWrap) labelWrap.hidden = true; });
    $("#label-dialog").addEventListener("click", (e) => { if (!e.target.closest(".dropdown")) closeDropdowns(); e.stopPropagation(); });
    $("#label-cancel").addEventListener("click", () => { labelWrap.hidden = true; });
    $("#label-parent").addEventListener("change", () => { $("#label-nest").checked = true; });
    $("#label-name").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("#label-save").click(); } });
    $("#label-save").addEventListener("click", async () => {
      const ctx = labelDialogCtx || {};
      const name = $("#label-name").value.trim();
      const nest = $("#label-nest").checked;
      const parentVal = $("#label-parent").dataset.value;
      if (!name) { await alertModal("Error", "Please enter a label name."); return; }
      if (nest && !parentVal) { await alertModal("Error", "Please select a parent label."); return; }
      const body = { name: name, parent_id: nest ? Number(parentVal) : null };
      try {
        let r;
        if (ctx.id) r = await api("/api/labels/" + ctx.id, body);
        else {
          if (ctx.applyTo) { body.apply_to = ctx.applyTo; body.move = !!ctx.move; body.from_label_id = ctx.fromLabelId || null; }
          r = await api("/api/labels", body);
        }
        labelWrap.hidden = true;
        storeToast({ text: r.toast });
        if (ctx.id && ctx.renameFrom && location.pathname.startsWith("/label/")) go("/inbox");
        else reload();
      } catch (err) { alertModal("Error", err.message); }
    });
  }
  ["#labels-add", "#rail-create-label", "#s-create-label"].forEach((sel) => {
    const b = $(sel);
    if (b) b.addEventListener("click", (e) => { e.stopPropagation(); openLabelDialog({}); });
  });

  /* Rail label options (the ⋮ next to a label). */
  const loMenu = $("#label-opts-menu");
  const colorMenu = $("#color-menu");
  $$(".label-opts").forEach((btn) => btn.addEventListener("click", (e) => {
    e.stopPropagation();
    e.preventDefault();
    const ctx = { id: Number(btn.dataset.labelId), name: btn.dataset.labelName, path: btn.dataset.labelPath,
                  parentId: btn.dataset.parentId, show: btn.dataset.show === "1" };
    openFloating(loMenu, btn, ctx);
  }));
  if (loMenu) {
    $("#lo-color").addEventListener("click", (e) => {
      e.stopPropagation();
      const ctx = loMenu.ctx;
      const anchor = $("#lo-color");
      const r = anchor.getBoundingClientRect();
      const opener = floatingOpen ? floatingOpen.anchor : anchor;
      loMenu.hidden = true;
      floatingOpen = null;
      openFloating(colorMenu, opener, ctx);
      colorMenu.style.left = Math.min(r.right + 4, window.innerWidth - colorMenu.offsetWidth - 8) + "px";
      colorMenu.style.top = Math.max(8, Math.min(r.top, window.innerHeight - colorMenu.offsetHeight - 8)) + "px";
    });
    $("#lo-hide").addEventListener("click", async () => {
      const ctx = loMenu.ctx;
      closeFloating();
      try { const r = await api("/api/labels/" + ctx.id, { show_in_list: false }); storeToast({ text: r.toast }); reload(); }
      catch (err) { alertModal("Error", err.message); }
    });
    $("#lo-edit").addEventListener("click", () => {
      const ctx = loMenu.ctx;
      openLabelDialog({ id: ctx.id, name: ctx.name, parentId: ctx.parentId, renameFrom: ctx.path });
    });
    $("#lo-sub").addEventListener("click", () => {
      const ctx = loMenu.ctx;
      openLabelDialog({ parentId: ctx.id });
    });
    $("#lo-remove").addEventListener("click", async () => {
      const ctx = loMenu.ctx;
      closeFloating();
      await removeLabel(ctx.id, ctx.path);
    });
  }
  async function removeLabel(id, path) {
    if (!(await confirmModal('Delete the label "' + path + '"? Conversations with this label will not be deleted.', "Delete", "Remove label"))) return;
    try {
      const r = await api("/api/labels/" + id + "/delete", {});
      storeToast({ text: r.toast });
      if (location.pathname.startsWith("/label/")) go("/inbox"); else reload();
    } catch (err) { alertModal("Error", err.message); }
  }
  if (colorMenu) {
    $$("[data-color]", colorMenu).forEach((b) => b.addEventListener("click", async () => {
      const ctx = colorMenu.ctx;
      closeFloating();
      try { const r = await api("/api/labels/" + ctx.id, { color: b.dataset.color || null }); storeToast({ text: r.toast }); reload(); }
      catch (err) { alertModal("Error", err.message); }
    }));
  }

  /* --------------------------------------------------------- quick settings */
  popover($("#settings-btn"), $("#settings-panel"));
  const settingsClose = $("#settings-close");
  if (settingsClose) settingsClose.addEventListener("click", () => closePopovers());
  $$('#settings-panel input[name="density"]').forEach((radio) => radio.addEventListener("change", async () => {
    try {
      await api("/api/settings", { display_density: radio.value });
      reload();
    } catch (err) { alertModal("Error", err.message); }
  }));

  /* ------------------------------------------------- account, apps, search */
  popover($("#account-btn"), $("#account-card"));
  popover($("#apps-btn"), $("#apps-menu"));
  const accountClose = $("#account-close");
  if (accountClose) accountClose.addEventListener("click", () => closePopovers());
  const advPanel = $("#adv-panel");
  function showAdvStep(step) {
    $("#adv-search-step").hidden = step !== "search";
    $("#adv-filter-step").hidden = step !== "filter";
  }
  popover($("#adv-btn"), advPanel, () => { showAdvStep("search"); const f = $("#adv-from"); if (f) f.focus(); });
  if (advPanel) advPanel.addEventListener("click", (e) => { if (!e.target.closest(".dropdown")) closeDropdowns(); });
  function openAdvanced(step) {
    closePopovers();
    advPanel.hidden = false;
    $("#adv-btn").setAttribute("aria-expanded", "true");
    showAdvStep(step || "search");
  }
  function quote(v) { return /\s/.test(v) ? "(" + v.replace(/[()]/g, "") + ")" : v; }
  function isoDay(d) { return d.toISOString().slice(0, 10).replace(/-/g, "/"); }
  function advancedQuery() {
    const parts = [];
    $$("#adv-search-step input[data-op]").forEach((inp) => {
      const v = inp.value.trim();
      if (!v) return;
      const op = inp.dataset.op;
      if (op === "") parts.push(v);
      else if (op === "-") v.split(/\s+/).forEach((w) => parts.push("-" + w));
      else parts.push(op + ":" + quote(v));
    });
    const dateText = ($("#adv-date") || {}).value || "";
    if (dateText.trim()) {
      const d = parseDate(dateText);
      if (!d) throw new Error('"' + dateText + '" is not a date Inkbox understands (try "Mar 20, 2026").');
      const days = Number($("#adv-within").dataset.value || "1");
      const a = new Date(d.getTime() - days * 86400000);
      const b = new Date(d.getTime() + (days + 1) * 86400000);
      parts.push("after:" + isoDay(a), "before:" + isoDay(b));
    }
    if ($("#adv-att") && $("#adv-att").checked) parts.push("has:attachment");
    const scope = ($("#adv-scope") || {}).dataset ? $("#adv-scope").dataset.value : "";
    if (scope) parts.push(scope);
    return parts.join(" ");
  }
  function advancedSearch() {
    let q;
    try { q = advancedQuery(); } catch (err) { alertModal("Error", err.message); return; }
    if (!q) return;
    go("/search?q=" + encodeURIComponent(q));
  }
  const advSearch = $("#adv-search");
  if (advSearch) advSearch.addEventListener("click", advancedSearch);
  $$("#adv-search-step input").forEach((inp) => inp.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); advancedSearch(); }
  }));

  /* Filters: criteria from the advanced search panel, then actions. */
  let filterEditing = null;
  function filterCriteria() {
    return {
      from_contains: $("#adv-from").value.trim(), to_contains: $("#adv-to").value.trim(),
      subject_contains: $("#adv-subject").value.trim(), has_words: $("#adv-has").value.trim(),
      doesnt_have: $("#adv-not").value.trim(), has_attachment: $("#adv-att").checked,
    };
  }
  async function openFilterStep() {
    const c = filterCriteria();
    if (!c.from_contains && !c.to_contains && !c.subject_contains && !c.has_words && !c.doesnt_have && !c.has_attachment) {
      await alertModal("Error", "Please specify at least one search criterion for the filter.");
      return;
    }
    const summary = [];
    if (c.from_contains) summary.push("from:(" + c.from_contains + ")");
    if (c.to_contains) summary.push("to:(" + c.to_contains + ")");
    if (c.subject_contains) summary.push("subject:(" + c.subject_contains + ")");
    if (c.has_words) summary.push(c.has_words);
    if (c.doesnt_have) summary.push("-" + c.doesnt_have);
    if (c.has_attachment) summary.push("has:attachment");
    $("#filter-summary").textContent = summary.join(" ");
    showAdvStep("filter");
    $("#filter-create").textContent = filterEditing ? "Update filter" : "Create filter";
    try {
      const qs = new URLSearchParams({ ...c, has_attachment: c.has_attachment ? "1" : "" });
      const r = await getJSON("/api/filters/count?" + qs.toString());
      $("#f-apply-text").textContent = "Also apply filter to " + r.count + " matching conversation" + (r.count === 1 ? "" : "s") + ".";
    } catch (e) { /* keep the generic text */ }
  }
  function resetFilterActions() {
    ["#f-skip", "#f-read", "#f-star", "#f-label", "#f-forward", "#f-delete", "#f-never-spam", "#f-important",
      "#f-not-important", "#f-category", "#f-apply"].forEach((s) => { if ($(s)) $(s).checked = false; });
    if ($("#f-forward-to")) $("#f-forward-to").value = "";
    if ($("#f-label-choice")) setDropdown($("#f-label-choice"), "");
    if ($("#f-category-choice")) setDropdown($("#f-category-choice"), "");
  }
  function prefillFilter(vals) {
    ["#adv-from", "#adv-to", "#adv-subject", "#adv-has", "#adv-not"].forEach((s) => { $(s).value = ""; });
    $("#adv-att").checked = false;
    resetFilterActions();
    if (!vals) return;
    $("#adv-from").value = vals.from_contains || "";
    $("#adv-to").value = vals.to_contains || "";
    $("#adv-subject").value = vals.subject_contains || "";
    $("#adv-has").value = vals.has_words || "";
    $("#adv-not").value = vals.doesnt_have || "";
    $("#adv-att").checked = !!vals.has_attachment;
    $("#f-skip").checked = !!vals.skip_inbox;
    $("#f-read").checked = !!vals.mark_read;
    $("#f-star").checked = !!vals.star;
    if (vals.apply_label_id) { $("#f-label").checked = true; setDropdown($("#f-label-choice"), vals.apply_label_id); }
    if (vals.forward_to) { $("#f-forward").checked = true; $("#f-forward-to").value = vals.forward_to; }
    $("#f-delete").checked = !!vals.delete;
    $("#f-never-spam").checked = !!vals.never_spam;
    $("#f-important").checked = vals.mark_important === true;
    $("#f-not-important").checked = vals.mark_important === false;
    if (vals.category) { $("#f-category").checked = true; setDropdown($("#f-category-choice"), vals.category); }
  }
  function startFilter(vals, filterId, step) {
    filterEditing = filterId || null;
    prefillFilter(vals);
    openAdvanced("search");
    if (step === "filter") openFilterStep();
    else $("#adv-from").focus();
  }
  if (advPanel) {
    $("#adv-create-filter").addEventListener("click", openFilterStep);
    $("#filter-back").addEventListener("click", () => showAdvStep("search"));
    $("#f-label-choice").addEventListener("change", () => { $("#f-label").checked = true; });
    $("#f-category-choice").addEventListener("change", () => { $("#f-category").checked = true; });
    $("#f-forward-to").addEventListener("input", () => { $("#f-forward").checked = !!$("#f-forward-to").value.trim(); });
    $("#f-important").addEventListener("change", () => { if ($("#f-important").checked) $("#f-not-important").checked = false; });
    $("#f-not-important").addEventListener("change", () => { if ($("#f-not-important").checked) $("#f-important").checked = false; });
    $("#filter-create").addEventListener("click", async () => {
      const body = filterCriteria();
      body.skip_inbox = $("#f-skip").checked;
      body.mark_read = $("#f-read").checked;
      body.star = $("#f-star").checked;
      if ($("#f-label").checked) {
        if (!$("#f-label-choice").dataset.value) { await alertModal("Error", "Please choose a label to apply."); return; }
        body.apply_label_id = Number($("#f-label-choice").dataset.value);
      }
      if ($("#f-forward").checked) body.forward_to = $("#f-forward-to").value.trim();
      body.delete = $("#f-delete").checked;
      body.never_spam = $("#f-never-spam").checked;
      body.mark_important = $("#f-important").checked ? true : ($("#f-not-important").checked ? false : null);
      if ($("#f-category").checked) body.category = $("#f-category-choice").dataset.value || "";
      body.apply_existing = $("#f-apply").checked;
      try {
        const r = await api(filterEditing ? "/api/filters/" + filterEditing : "/api/filters", body);
        storeToast({ text: r.toast });
        if (location.pathname.startsWith("/settings/filters")) reload(); else go("/settings/filters");
      } catch (err) { alertModal("Error", err.message); }
    });
  }

  /* Search chips. */
  const searchInput = $("#search-input");
  function searchWith(q) { go("/search?q=" + encodeURIComponent(q.trim().replace(/\s+/g, " "))); }
  function currentQuery() { return (searchInput && searchInput.value) || new URLSearchParams(location.search).get("q") || ""; }
  popover($("#chip-from"), $("#chip-from-menu"));
  popover($("#chip-time"), $("#chip-time-menu"));
  $$("#chip-from-menu [data-add]").forEach((b) => b.addEventListener("click", () => {
    const q = currentQuery().replace(/(^|\s)from:\S+/g, " ");
    searchWith(q + " " + b.dataset.add);
  }));
  $$("#chip-time-menu [data-time]").forEach((b) => b.addEventListener("click", () => {
    const q = currentQuery().replace(/(^|\s)older_than:\S+/g, " ");
    searchWith(q + (b.dataset.time ? " " + b.dataset.time : ""));
  }));
  $$(".s-chip[data-toggle]").forEach((b) => b.addEventListener("click", () => {
    const tok = b.dataset.toggle;
    const q = currentQuery();
    const re = new RegExp("(^|\\s)" + tok.replace(":", "\\:") + "(?=\\s|$)", "g");
    searchWith(re.test(q) ? q.replace(re, " ") : q + " " + tok);
  }));
  const chipAdv = $("#chip-advanced");
  if (chipAdv) chipAdv.addEventListener("click", (e) => { e.stopPropagation(); filterEditing = null; openAdvanced("search"); });

  /* ------------------------------------------------- address fields (chips) */
  const EMAIL_RE = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
  let knownNames = {};
  try { knownNames = JSON.parse(($("#addr-names") || {}).textContent || "{}"); } catch (e) { knownNames = {}; }

  function parseToken(tok) {
    const t = tok.trim();
    if (!t) return null;
    const m = t.match(/^(.*)<([^<>]+)>\s*$/);
    const email = (m ? m[2] : t).trim().replace(/^"|"$/g, "");
    if (!EMAIL_RE.test(email)) return null;
    const name = m ? m[1].trim().replace(/^"|"$/g, "") : "";
    return { email: email.toLowerCase(), name: name || knownNames[email.toLowerCase()] || "" };
  }
  function chipsOf(input) { return $$(".addr-chip", input.parentNode); }
  function addChip(input, addr) {
    if (chipsOf(input).some((c) => c.dataset.email === addr.email)) return;
    const chip = document.createElement("span");
    chip.className = "addr-chip";
    chip.dataset.email = addr.email;
    chip.title = addr.email;
    const img = document.createElement("img");
    img.className = "avatar";
    img.width = 20; img.height = 20; img.alt = "";
    img.src = "/avatar?name=" + encodeURIComponent(addr.name || addr.email) + "&s=40&email=" + encodeURIComponent(addr.email);
    const label = document.createElement("span");
    label.className = "chip-text";
    label.textContent = addr.name || addr.email;
    const x = document.createElement("button");
    x.type = "button";
    x.className = "chip-x";
    x.setAttribute("aria-label", "Remove " + addr.email);
    x.innerHTML = '<span class="material-symbols-outlined ms" aria-hidden="true">close</span>';
    x.addEventListener("mousedown", (e) => e.preventDefault());
    x.addEventListener("click", (e) => { e.stopPropagation(); chip.remove(); input.focus(); input.dispatchEvent(new Event("chips", { bubbles: true })); });
    chip.append(img, label, x);
    input.parentNode.insertBefore(chip, input);
    input.dispatchEvent(new Event("chips", { bubbles: true }));
  }
  function commitText(input) {
    const rest = [];
    input.value.split(/[,;\n]/).forEach((tok) => {
      const a = parseToken(tok);
      if (a) addChip(input, a);
      else if (tok.trim()) rest.push(tok.trim());
    });
    input.value = rest.join(", ");
  }
  function addrValue(input) {
    const parts = chipsOf(input).map((c) => c.dataset.email);
    if (input.value.trim()) parts.push(input.value.trim());
    return parts.join(", ");
  }
  function setAddrs(input, emails, names) {
    chipsOf(input).forEach((c) => c.remove());
    input.value = "";
    (emails || []).filter(Boolean).forEach((e) => {
      const em = e.toLowerCase();
      addChip(input, { email: em, name: (names && names[em]) || knownNames[em] || "" });
    });
  }

  function setupAddressField(input) {
    const list = document.getElementById(input.getAttribute("aria-controls"));
    const box = input.parentNode;
    box.addEventListener("click", (e) => { if (e.target === box) input.focus(); });
    let items = [];
    let active = -1;
    let seq = 0;
    const hide = () => {
      if (!list) return;
      list.hidden = true; list.textContent = ""; items = []; active = -1;
      input.removeAttribute("aria-activedescendant");
    };
    const pick = (i) => {
      const it = items[i];
      if (!it) return;
      const v = input.value;
      const cut = Math.max(v.lastIndexOf(","), v.lastIndexOf(";"));
      input.value = cut >= 0 ? v.slice(0, cut) : "";
      commitText(input);
      knownNames[it.email.toLowerCase()] = it.name;
      addChip(input, { email: it.email.toLowerCase(), name: it.name });
      hide();
      input.focus();
    };
    const mark = () => {
      $$("li", list).forEach((li, j) => li.setAttribute("aria-selected", j === active ? "true" : "false"));
      if (active >= 0) input.setAttribute("aria-activedescendant", list.id + "-opt-" + active);
    };
    input.addEventListener("input", async () => {
      if (/[,;]\s*$/.test(input.value)) { commitText(input); hide(); return; }
      const v = input.value;
      const q = v.slice(Math.max(v.lastIndexOf(","), v.lastIndexOf(";")) + 1).trim();
      const mine = ++seq;
      if (!q || !list) { hide(); return; }
      const resp = await fetch("/api/contacts?q=" + encodeURIComponent(q), { credentials: "same-origin" });
      const data = await resp.json();
      if (mine !== seq) return;
      items = data.results || [];
      list.textContent = "";
      if (!items.length) { hide(); return; }
      items.forEach((it, j) => {
        const li = document.createElement("li");
        li.id = list.id + "-opt-" + j;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        li.setAttribute("aria-label", it.name + " " + it.email);
        const img = document.createElement("img");
        img.className = "avatar";
        img.width = 32; img.height = 32; img.alt = "";
        img.src = "/avatar?name=" + encodeURIComponent(it.name) + "&s=64&email=" + encodeURIComponent(it.email);
        const text = document.createElement("span");
        text.innerHTML = '<div class="s-name"></div><div class="s-email"></div>';
        text.firstChild.textContent = it.name;
        text.lastChild.textContent = it.email;
        li.append(img, text);
        li.addEventListener("mousedown", (e) => { e.preventDefault(); pick(j); });
        list.appendChild(li);
      });
      active = 0;
      mark();
      list.hidden = false;
    });
    input.addEventListener("keydown", (e) => {
      const open = list && !list.hidden && items.length;
      if (e.key === "Enter" || (e.key === "Tab" && open && active >= 0)) {
        if (open && active >= 0) { e.preventDefault(); pick(active); return; }
        if (e.key === "Enter") { e.preventDefault(); commitText(input); }
        return;
      }
      if (e.key === "Backspace" && !input.value) {
        const chips = chipsOf(input);
        if (chips.length) { e.preventDefault(); chips[chips.length - 1].remove(); input.dispatchEvent(new Event("chips", { bubbles: true })); }
        return;
      }
      if (!open) return;
      if (e.key === "ArrowDown") { e.preventDefault(); active = Math.min(items.length - 1, active + 1); mark(); }
      else if (e.key === "ArrowUp") { e.preventDefault(); active = Math.max(0, active - 1); mark(); }
      else if (e.key === "Escape") { hide(); }
    });
    input.addEventListener("blur", () => { hide(); commitText(input); });
  }
  $$(".addr-input").forEach(setupAddressField);

  /* ---------------------------------------------------------- dates (UTC) */
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const nowDate = new Date(NOW + "Z");
  function utcDay(y, m, d) { return new Date(Date.UTC(y, m, d)); }
  function today() { return utcDay(nowDate.getUTCFullYear(), nowDate.getUTCMonth(), nowDate.getUTCDate()); }
  function fmtDay(d) { return MONTHS[d.getUTCMonth()].slice(0, 3) + " " + d.getUTCDate() + ", " + d.getUTCFullYear(); }
  function parseDate(text) {
    const s = (text || "").trim().replace(/,/g, " ").replace(/\s+/g, " ");
    let m = s.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
    if (m) return valid(+m[1], +m[2] - 1, +m[3]);
    m = s.match(/^(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?$/);
    if (m) { let y = m[3] ? +m[3] : nowDate.getUTCFullYear(); if (y < 100) y += 2000; return valid(y, +m[1] - 1, +m[2]); }
    m = s.match(/^(?:[A-Za-z]+ )?([A-Za-z]+) (\d{1,2})(?: (\d{4}))?$/);
    if (m) {
      const idx = MONTHS.findIndex((n) => n.toLowerCase().startsWith(m[1].toLowerCase().slice(0, 3)) && n.toLowerCase().startsWith(m[1].toLowerCase()));
      if (idx < 0) return null;
      return valid(m[3] ? +m[3] : nowDate.getUTCFullYear(), idx, +m[2]);
    }
    return null;
  }
  function valid(y, mo, d) { const x = utcDay(y, mo, d); return (x.getUTCMonth() === mo && x.getUTCDate() === d) ? x : null; }
  function parseTime(text) {
    const m = (text || "").trim().toLowerCase().replace(/\./g, "").match(/^(\d{1,2})(?::(\d{2}))?\s*(am|pm|a|p)?$/);
    if (!m) return null;
    let h = +m[1]; const mi = +(m[2] || 0);
    if (m[3]) { if (h < 1 || h > 12) return null; h = h % 12 + (m[3][0] === "p" ? 12 : 0); }
    if (h > 23 || mi > 59) return null;
    return [h, mi];
  }
  function isoLocal(d, hm) {
    const p = (n) => String(n).padStart(2, "0");
    return d.getUTCFullYear() + "-" + p(d.getUTCMonth() + 1) + "-" + p(d.getUTCDate()) + "T" + p(hm[0]) + ":" + p(hm[1]) + ":00";
  }

  /* Pick date & time (snooze and schedule send). */
  const dtWrap = $("#dt-dialog-wrap");
  let dtState = null;
  function renderCalendar() {
    const grid = $("#dt-grid");
    const y = dtState.year, mo = dtState.month;
    $("#dt-month").textContent = MONTHS[mo] + " " + y;
    grid.textContent = "";
    ["S", "M", "T", "W", "T", "F", "S"].forEach((l) => {
      const h = document.createElement("span");
      h.className = "dt-wd";
      h.setAttribute("aria-hidden", "true");
      h.textContent = l;
      grid.appendChild(h);
    });
    const first = utcDay(y, mo, 1);
    for (let i = 0; i < first.getUTCDay(); i++) grid.appendChild(document.createElement("span"));
    const days = utcDay(y, mo + 1, 0).getUTCDate();
    const t0 = today().getTime();
    for (let d = 1; d <= days; d++) {
      const day = utcDay(y, mo, d);
      const b = document.createElement("button");
      b.type = "button";
      b.className = "dt-day";
      b.textContent = String(d);
      b.setAttribute("aria-label", DAYS[day.getUTCDay()] + ", " + MONTHS[mo] + " " + d + ", " + y);
      if (day.getTime() < t0) b.disabled = true;
      if (day.getTime() === t0) b.classList.add("today");
      if (dtState.selected && day.getTime() === dtState.selected.getTime()) { b.classList.add("selected"); b.setAttribute("aria-pressed", "true"); }
      b.addEventListener("click", () => { dtState.selected = day; $("#dt-date").value = fmtDay(day); renderCalendar(); });
      grid.appendChild(b);
    }
  }
  function openDatePicker(title, okLabel, onSave) {
    closePopovers();
    const start = utcDay(today().getUTCFullYear(), today().getUTCMonth(), today().getUTCDate() + 1);
    dtState = { year: start.getUTCFullYear(), month: start.getUTCMonth(), selected: start, onSave: onSave };
    $("#dt-dialog").setAttribute("aria-label", title);
    $(".dialog-title", $("#dt-dialog")).textContent = title;
    $("#dt-save").textContent = okLabel;
    $("#dt-date").value = fmtDay(start);
    $("#dt-time").value = "8:00 AM";
    $("#dt-error").hidden = true;
    renderCalendar();
    dtWrap.hidden = false;
  }
  if (dtWrap) {
    $("#dt-dialog").addEventListener("click", (e) => e.stopPropagation());
    dtWrap.addEventListener("click", (e) => { if (e.target === dtWrap) dtWrap.hidden = true; });
    $("#dt-prev").addEventListener("click", () => {
      dtState.month -= 1; if (dtState.month < 0) { dtState.month = 11; dtState.year -= 1; } renderCalendar();
    });
    $("#dt-next").addEventListener("click", () => {
      dtState.month += 1; if (dtState.month > 11) { dtState.month = 0; dtState.year += 1; } renderCalendar();
    });
    $("#dt-date").addEventListener("input", () => {
      const d = parseDate($("#dt-date").value);
      if (d) { dtState.selected = d; dtState.year = d.getUTCFullYear(); dtState.month = d.getUTCMonth(); renderCalendar(); }
    });
    $("#dt-cancel").addEventListener("click", () => { dtWrap.hidden = true; });
    $("#dt-save").addEventListener("click", () => {
      const d = parseDate($("#dt-date").value);
      const t = parseTime($("#dt-time").value);
      const err = $("#dt-error");
      if (!d) { err.textContent = "Please enter a valid date."; err.hidden = false; return; }
      if (!t) { err.textContent = "Please enter a valid time, like 8:00 AM."; err.hidden = false; return; }
      const iso = isoLocal(d, t);
      if (iso <= NOW) { err.textContent = "Please choose a time in the future."; err.hidden = false; return; }
      dtWrap.hidden = true;
      dtState.onSave(iso);
    });
    ["#dt-date", "#dt-time"].forEach((s) => $(s).addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("#dt-save").click(); } }));
  }

  /* ------------------------------------------------------- attachments */
  // "Insert files using My Files" (Gmail's Drive picker): an in-page list, so an agent never meets an OS dialog.
  const filesWrap = $("#files-wrap");
  const FP = { onInsert: null, seq: 0 };
  function fileIcon(mime) {
    if (mime === "application/pdf") return ["picture_as_pdf", "pdf"];
    if ((mime || "").startsWith("image/")) return ["image", "img"];
    return ["description", "doc"];
  }
  function pickedIds() { return $$("#files-list input:checked").map((c) => Number(c.value)); }
  async function loadFiles(q) {
    const mine = ++FP.seq;
    const data = await getJSON("/api/files?q=" + encodeURIComponent(q || ""));
    if (mine !== FP.seq) return;
    const keep = new Set(pickedIds());
    const list = $("#files-list");
    list.textContent = "";
    data.files.forEach((f) => {
      const li = document.createElement("li");
      const lab = document.createElement("label");
      lab.className = "file-row";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = f.file_id;
      box.checked = keep.has(f.file_id);
      box.setAttribute("aria-label", f.name);
      const [ico, cls] = fileIcon(f.mime);
      const icon = document.createElement("span");
      icon.className = "material-symbols-outlined ms att-ico " + cls;
      icon.setAttribute("aria-hidden", "true");
      icon.textContent = ico;
      const name = document.createElement("span");
      name.className = "file-name";
      name.textContent = f.name;
      const when = document.createElement("span");
      when.className = "file-date";
      const d = new Date(f.modified_at + "Z");
      when.textContent = MONTHS[d.getUTCMonth()].slice(0, 3) + " " + d.getUTCDate() + ", " + d.getUTCFullYear();
      const size = document.createElement("span");
      size.className = "file-size";
      size.textContent = f.size_label;
      lab.append(box, icon, name, when, size);
      li.appendChild(lab);
      list.appendChild(li);
    });
    $("#files-empty").hidden = data.files.length > 0;
    $("#files-insert").disabled = !pickedIds().length;
  }
  function openFilesPicker(onInsert) {
    if (!filesWrap) return;
    FP.onInsert = onInsert;
    $("#files-search").value = "";
    $("#files-list").textContent = "";
    filesWrap.hidden = false;
    loadFiles("").catch((err) => alertModal("Error", err.message));
    $("#files-search").focus();
  }
  function closeFilesPicker() { if (filesWrap) filesWrap.hidden = true; FP.onInsert = null; }
  if (filesWrap) {
    $("#files-search").addEventListener("input", (e) => { loadFiles(e.target.value).catch(() => {}); });
    $("#files-list").addEventListener("change", () => { $("#files-insert").disabled = !pickedIds().length; });
    $("#files-cancel").addEventListener("click", closeFilesPicker);
    $("#files-close").addEventListener("click", closeFilesPicker);
    filesWrap.addEventListener("click", (e) => { if (e.target === filesWrap) closeFilesPicker(); });
    filesWrap.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.stopPropagation(); closeFilesPicker(); } });
    $("#files-insert").addEventListener("click", () => {
      const ids = pickedIds();
      const cb = FP.onInsert;
      closeFilesPicker();
      if (ids.length && cb) cb(ids);
    });
  }
  // The paperclip: files from the computer join My Files (name, size, type), then attach like them.
  async function uploadChosen(input) {
    const ids = [];
    for (const f of Array.from(input.files || [])) {
      const r = await api("/api/files", { name: f.name, size: f.size, mime: f.type || "" });
      ids.push(r.file.file_id);
    }
    input.value = "";
    return ids;
  }
  // Attachment chips (compose and the inline reply): name, size, and an x that calls `onRemove`.
  function renderAttChips(box, atts, onRemove) {
    box.textContent = "";
    box.hidden = !atts.length;
    atts.forEach((a) => {
      const chip = document.createElement("div");
      chip.className = "c-att";
      chip.setAttribute("role", "listitem");
      chip.setAttribute("aria-label", "Attachment " + a.filename);
      const [ico, cls] = fileIcon(a.mime);
      chip.innerHTML = '<span class="material-symbols-outlined ms att-ico" aria-hidden="true"></span><span class="c-att-name"></span><span class="c-att-size"></span>' +
        '<button type="button" class="icon-btn xs c-att-x"><span class="material-symbols-outlined ms" aria-hidden="true">close</span></button>';
      $(".att-ico", chip).textContent = ico;
      $(".att-ico", chip).classList.add(cls);
      $(".c-att-name", chip).textContent = a.filename;
      $(".c-att-size", chip).textContent = "(" + a.size_label + ")";
      const x = $(".c-att-x", chip);
      x.setAttribute("aria-label", "Remove attachment " + a.filename);
      x.title = "Remove attachment";
      x.addEventListener("click", () => onRemove(a));
      box.appendChild(chip);
    });
  }

  /* ---------------------------------------------------------------- compose */
  const compose = $("#compose");
  let backdrop = null;
  const C = { draftId: null, key: "", dirty: false, timer: null, saving: Promise.resolve(), busy: false };
  function newKey() { return "c" + Math.random().toString(36).slice(2) + Date.now().toString(36); }
  function signatureBlock() {
    const sig = compose ? (compose.dataset.signature || "") : "";
    return sig ? "\n\n--\n" + sig : "";
  }
  function composeFields() {
    const f = $("#compose-form");
    const ed = $("#compose-body");
    return { to: addrValue(f.to), cc: addrValue(f.cc), bcc: addrValue(f.bcc), subject: f.subject.value, body: RTE.text(ed), body_html: RTE.html(ed) };
  }
  function hasContent(d) {
    return !!(d.to || d.cc || d.bcc || d.subject.trim() || (d.body.trim() && d.body.trim() !== signatureBlock().trim()));
  }
  function setStatus(t) { const s = $("#draft-status"); if (s) s.textContent = t; }
  function resetCompose() {
    $("#compose-form").reset();
    RTE.setText($("#compose-body"), "");
    $$("#compose .addr-chip").forEach((c) => c.remove());
    $("#cc-row").hidden = true;
    $("#bcc-row").hidden = true;
    $("#compose-title").textContent = "New Message";
    compose.classList.remove("minimized");
    $("#compose-min").setAttribute("aria-label", "Minimize");
    setFull(false);
    clearTimeout(C.timer);
    C.timer = null; C.draftId = null; C.dirty = false; C.busy = false; C.key = "";
    setStatus("");
    renderComposeAtts([]);
  }
  function renderComposeAtts(atts) {
    const box = $("#compose-atts");
    if (!box) return;
    renderAttChips(box, atts, async (a) => {
      try {
        const r = await api("/api/drafts/" + C.draftId + "/attachments/" + a.attachment_id + "/remove", {});
        renderComposeAtts(r.attachments);
      } catch (err) { alertModal("Error", err.message); }
    });
  }
  // Attaching saves the draft with the files on it, so the draft (and, once sent, the message) carries them.
  async function composeAttach(ids) {
    if (!ids.length || C.busy) return;
    clearTimeout(C.timer);
    C.timer = null;
    C.dirty = false;
    let failure = null;
    C.saving = C.saving.then(async () => {
      if (C.busy) return;
      const payload = Object.assign({}, composeFields(), { id: C.draftId, key: C.key, file_ids: ids });
      try {
        setStatus("Saving\u2026");
        const r = await api("/api/drafts", payload);
        C.draftId = r.id;
        renderComposeAtts(r.attachments || []);
        setStatus("Draft saved");
      } catch (err) { setStatus(""); failure = err; }
    });
    await C.saving;
    if (failure) alertModal("Error", failure.message);
  }
  function setFull(on) {
    compose.classList.toggle("full", on);
    const b = $("#compose-full");
    b.setAttribute("aria-label", on ? "Exit full screen" : "Full screen");
    b.title = on ? "Exit full screen" : "Full screen";
    $(".ms", b).textContent = on ? "close_fullscreen" : "open_in_full";
    if (on && !backdrop) {
      backdrop = document.createElement("div");
      backdrop.className = "compose-backdrop";
      backdrop.addEventListener("click", () => setFull(false));
      document.body.appendChild(backdrop);
    } else if (!on && backdrop) {
      backdrop.remove();
      backdrop = null;
    }
  }
  function openCompose(opts) {
    if (!compose) return;
    opts = opts || {};
    if (compose.hidden) resetCompose();
    C.key = newKey();
    compose.hidden = false;
    compose.classList.remove("minimized");
    if (opts.draft) {
      C.draftId = opts.draft.id;
      setAddrs($("#compose-to"), opts.draft.to, opts.draft.names);
      if ((opts.draft.cc || []).length) { $("#cc-row").hidden = false; setAddrs($("#compose-cc"), opts.draft.cc, opts.draft.names); }
      if ((opts.draft.bcc || []).length) { $("#bcc-row").hidden = false; setAddrs($("#compose-bcc"), opts.draft.bcc, opts.draft.names); }
      $("#compose-subject").value = opts.draft.subject || "";
      $("#compose-title").textContent = opts.draft.subject || "New Message";
      if (opts.draft.body_html) RTE.setHtml($("#compose-body"), opts.draft.body_html);
      else RTE.setText($("#compose-body"), opts.draft.body || "");
      renderComposeAtts(opts.draft.attachments || []);
      setStatus("Draft");
    } else {
      if (opts.to) setAddrs($("#compose-to"), [opts.to], opts.names);
      if (!RTE.text($("#compose-body"))) RTE.setText($("#compose-body"), signatureBlock());
    }
    const body = $("#compose-body");
    if (opts.draft || opts.to) RTE.caretToStart(body); else $("#compose-to").focus();
  }
  function scheduleSave() {
    if (!compose || compose.hidden || C.busy) return;
    C.dirty = true;
    setStatus("");
    clearTimeout(C.timer);
    C.timer = setTimeout(() => { saveDraft(); }, 1500);
  }
  function saveDraft() {
    clearTimeout(C.timer);
    C.timer = null;
    if (C.busy || !C.dirty) return C.saving;
    const d = composeFields();
    if (!hasContent(d) && !C.draftId) { C.dirty = false; return C.saving; }
    C.dirty = false;
    const payload = Object.assign({}, d, { id: C.draftId, key: C.key });
    C.saving = C.saving.then(async () => {
      if (C.busy) return;
      try {
        setStatus("Saving\u2026");
        const r = await api("/api/drafts", payload);
        C.draftId = r.id;
        setStatus("Draft saved");
      } catch (e) { setStatus(""); }
    });
    return C.saving;
  }
  async function sendCompose(scheduleAt) {
    const f = $("#compose-form");
    [f.to, f.cc, f.bcc].forEach(commitText);
    const payload = Object.assign(composeFields(), { mode: "new", draft_id: C.draftId, key: C.key });
    if (!(payload.to.trim() || payload.cc.trim() || payload.bcc.trim())) {
      await alertModal("Error", "Please specify at least one recipient.");
      return;
    }
    if (!scheduleAt) {
      if (!payload.subject.trim() && !payload.body.trim()) {
        if (!(await confirmModal("Send this message without a subject or text in the body?"))) return;
      } else if (!payload.subject.trim()) {
        if (!(await confirmModal("Send this message without a subject?"))) return;
      }
    }
    // Files being attached save the draft first: Send waits for that save, so the message goes with them.
    await C.saving;
    payload.draft_id = C.draftId;
    C.busy = true;
    clearTimeout(C.timer);
    let r;
    try {
      if (scheduleAt) {
        payload.at = scheduleAt;
        r = await api("/api/schedule", payload);
      } else {
        r = await api("/api/send", payload);
      }
    } catch (err) {
      C.busy = false;
      await alertModal("Error", err.message);
      return;
    }
    const actions = [{ label: "View message", href: "/thread/" + r.thread_id + "?back=" + encodeURIComponent(scheduleAt ? "/scheduled" : "/sent") }];
    if (scheduleAt) actions.unshift({ label: "Undo", post: "/api/scheduled/" + r.message_id + "/cancel", then: "/drafts?draft=" + r.message_id });
    else actions.unshift(undoSendAction(r));
    storeToast({ text: r.toast || "Message sent", actions: actions });
    compose.hidden = true;
    reload();
  }
  if (compose) {
    $("#compose-btn") && $("#compose-btn").addEventListener("click", () => openCompose());
    $("#compose-close").addEventListener("click", async (e) => {
      e.stopPropagation();
      const had = C.draftId || hasContent(composeFields());
      C.dirty = C.dirty || !!had;
      await saveDraft();
      compose.hidden = true;
      const wasDraft = C.draftId;
      resetCompose();
      if (wasDraft && location.pathname === "/drafts") { storeToast({ text: "Draft saved." }); reload(); }
    });
    $("#compose-discard").addEventListener("click", async () => {
      C.busy = true;
      clearTimeout(C.timer);
      await C.saving;
      const id = C.draftId;
      const key = C.key;
      compose.hidden = true;
      resetCompose();
      if (id) {
        try { await api("/api/drafts/" + id + "/discard", { key: key }); } catch (e) { /* already gone */ }
        storeToast({ text: "Draft discarded." });
        reload();
      } else showToast({ text: "Draft discarded." });
    });
    $("#compose-min").addEventListener("click", (e) => {
      e.stopPropagation();
      setFull(false);
      const min = compose.classList.toggle("minimized");
      $("#compose-min").setAttribute("aria-label", min ? "Maximize" : "Minimize");
      if (min) saveDraft();
    });
    $("#compose-full").addEventListener("click", (e) => {
      e.stopPropagation();
      compose.classList.remove("minimized");
      $("#compose-min").setAttribute("aria-label", "Minimize");
      setFull(!compose.classList.contains("full"));
    });
    $("#compose-head").addEventListener("click", () => {
      if (compose.classList.contains("minimized")) {
        compose.classList.remove("minimized");
        $("#compose-min").setAttribute("aria-label", "Minimize");
      }
    });
    $("#add-cc").addEventListener("click", () => { $("#cc-row").hidden = false; $("#compose-cc").focus(); });
    $("#add-bcc").addEventListener("click", () => { $("#bcc-row").hidden = false; $("#compose-bcc").focus(); });
    $("#compose-subject").addEventListener("input", (e) => {
      $("#compose-title").textContent = e.target.value.trim() || "New Message";
    });
    $("#compose-form").addEventListener("input", scheduleSave);
    $("#compose-form").addEventListener("chips", scheduleSave);
    $("#compose-subject").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("#compose-body").focus(); } });
    $("#compose-body").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); $("#compose-form").requestSubmit(); }
    });
    $("#compose-signature").addEventListener("click", () => {
      const body = $("#compose-body");
      const sig = signatureBlock();
      if (!sig) { showToast({ text: "You have no signature. Add one in Settings." }); return; }
      const cur = RTE.text(body);
      if (cur.includes(sig.trim())) { showToast({ text: "Your signature is already in this message." }); return; }
      RTE.setText(body, cur.replace(/\s+$/, "") + sig);
      scheduleSave();
    });
    $("#compose-insert-files").addEventListener("click", () => openFilesPicker(composeAttach));
    $("#compose-attach").addEventListener("click", () => $("#compose-file").click());
    $("#compose-file").addEventListener("change", async (e) => {
      try { await composeAttach(await uploadChosen(e.target)); } catch (err) { alertModal("Error", err.message); }
    });
    $("#compose-form").addEventListener("submit", (e) => { e.preventDefault(); sendCompose(null); });
    RTE.attach($("#compose-body"), $("#compose-fmt"), $("#compose-format"));
    popover($("#send-options-btn"), $("#send-options-menu"));
    $("#schedule-send-item").addEventListener("click", () => {
      closePopovers();
      const f = $("#compose-form");
      [f.to, f.cc, f.bcc].forEach(commitText);
      if (!(addrValue(f.to) || addrValue(f.cc) || addrValue(f.bcc))) { alertModal("Error", "Please specify at least one recipient."); return; }
      $("#schedule-dialog-wrap").hidden = false;
    });
    const sw = $("#schedule-dialog-wrap");
    sw.addEventListener("click", (e) => { if (e.target === sw) sw.hidden = true; });
    $("#schedule-dialog").addEventListener("click", (e) => e.stopPropagation());
    $("#sched-cancel").addEventListener("click", () => { sw.hidden = true; });
    $$(".sched-opt[data-at]").forEach((b) => b.addEventListener("click", () => { sw.hidden = true; sendCompose(b.dataset.at); }));
    $("#sched-pick").addEventListener("click", () => {
      sw.hidden = true;
      openDatePicker("Pick date & time", "Schedule send", (iso) => sendCompose(iso));
    });
  }
  // Open a draft (?draft=ID, from the Drafts list or "Cancel send") or a new message to someone (?compose_to=).
  async function openDraft(id) {
    try {
      const d = await getJSON("/api/drafts/" + id);
      openCompose({ draft: d });
    } catch (err) { alertModal("Error", err.message); }
  }
  const params = new URLSearchParams(location.search);
  if (params.get("draft")) {
    openDraft(Number(params.get("draft")));
    // Once open, the draft is the window's: a later reload (after Send or Discard) must not reopen it.
    params.delete("draft");
    history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params.toString() : ""));
  }
  if (params.get("compose_to")) openCompose({ to: params.get("compose_to") });
  $$("[data-compose-to]").forEach((b) => b.addEventListener("click", () => {
    const names = {}; names[b.dataset.composeTo] = b.dataset.composeName || "";
    openCompose({ to: b.dataset.composeTo, names: names });
  }));

  /* ------------------------------------------------------------- star/imp */
  function setStar(btn, on, contact) {
    btn.classList.toggle("on", on);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    if (contact) {
      btn.setAttribute("aria-label", on ? "Remove from favorites" : "Add to favorites");
      btn.title = on ? "Remove from favorites" : "Add to favorites";
    } else {
      btn.setAttribute("aria-label", on ? "Unstar" : "Star");
      btn.title = on ? "Starred" : "Not starred";
    }
    $(".ms", btn).classList.toggle("fill", on);
    const row = btn.closest(".row");
    if (row) row.dataset.starred = on ? "1" : "0";
  }
  function setImportant(btn, on) {
    btn.classList.toggle("on", on);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.setAttribute("aria-label", on ? "Mark as not important" : "Mark as important");
    btn.title = on ? "Important" : "Click to teach Inkbox this conversation is important.";
    $(".ms", btn).classList.toggle("fill", on);
  }
  $$(".star-btn").forEach((btn) => btn.addEventListener("click", async (e) => {
    e.stopPropagation();
    const on = btn.getAttribute("aria-pressed") !== "true";
    const contact = !!btn.dataset.starContact;
    setStar(btn, on, contact);
    const url = contact ? "/api/contacts/" + btn.dataset.starContact + "/star"
      : (btn.dataset.starThread ? "/api/threads/" + btn.dataset.starThread + "/star" : "/api/messages/" + btn.dataset.starMsg + "/star");
    try {
      const r = await api(url, { starred: on });
      setStar(btn, r.starred, contact);
    } catch (err) {
      setStar(btn, !on, contact);
      alertModal("Error", err.message);
    }
  }));
  $$(".imp-btn").forEach((btn) => btn.addEventListener("click", async (e) => {
    e.stopPropagation();
    const on = btn.getAttribute("aria-pressed") !== "true";
    setImportant(btn, on);
    try {
      await api("/api/threads/" + btn.dataset.impThread + "/important", { important: on });
    } catch (err) {
      setImportant(btn, !on);
      alertModal("Error", err.message);
    }
  }));

  /* ----------------------------------------------------------- bulk actions */
  const UNDOABLE = { archive: 1, trash: 1, spam: 1, not_spam: 1, move_to_inbox: 1, snooze: 1, label: 1, move: 1, mute: 1,
                     important: 1, not_important: 1 };
  const QUIET = { mark_read: 1, mark_unread: 1, star: 0 };
  async function runAction(action, target, extra, after) {
    const body = Object.assign({ action: action }, extra || {});
    if (target.allPath) body.all_path = target.allPath; else body.ids = target.ids;
    if (!body.all_path && !(body.ids || []).length) return;
    let r;
    try {
      r = await api("/api/threads/action", body);
    } catch (err) {
      alertModal("Error", err.message);
      return;
    }
    if (!QUIET[action]) {
      const t = { text: r.toast, actions: [] };
      const u = r.undo || {};
      if (UNDOABLE[action] && ((u.changes || []).length || (u.labels_added || []).length || (u.labels_removed || []).length))
        t.actions.push({ label: "Undo", undo: u, then: location.pathname + location.search });
      storeToast(t);
    }
    if (after) go(after);
    else reload();
  }

  /* Context: which conversations a toolbar / menu acts on. */
  const listToolbar = $("#list-toolbar");
  const threadToolbar = $("#thread-toolbar");
  let selectAllMatching = false;
  function selectedRows() { return $$(".row-cb").filter((cb) => cb.checked).map((cb) => cb.closest(".row")); }
  function contextFor(kind, el) {
    if (kind === "thread") {
      return { ids: [Number(threadToolbar.dataset.thread)], labels: [(threadToolbar.dataset.labels || "").split(",").filter(Boolean).map(Number)],
               inInbox: threadToolbar.dataset.inbox === "1", after: threadToolbar.dataset.back || "/inbox" };
    }
    if (kind === "row") {
      const row = el.closest(".row");
      return { ids: [Number(row.dataset.id)], labels: [rowLabels(row)], inInbox: row.dataset.inbox === "1" };
    }
    const rows = selectedRows();
    const ctx = { ids: rows.map((r) => Number(r.dataset.id)), labels: rows.map(rowLabels), inInbox: rows.some((r) => r.dataset.inbox === "1") };
    if (selectAllMatching && listToolbar) ctx.allPath = listToolbar.dataset.path;
    return ctx;
  }
  function rowLabels(row) {
    const ids = (row.dataset.labels || "").split(",").filter(Boolean).map(Number);
    const cur = listToolbar && listToolbar.dataset.labelId ? Number(listToolbar.dataset.labelId) : null;
    if (cur && !ids.includes(cur)) ids.push(cur);
    return ids;
  }
  function currentLabelId() { return listToolbar && listToolbar.dataset.labelId ? Number(listToolbar.dataset.labelId) : null; }
  function leaves(ctx) { return ctx.after && !ctx.stay ? ctx.after : null; }

  /* Snooze menu. */
  const snoozeMenu = $("#snooze-menu");
  $$("[data-snooze]").forEach((btn) => btn.addEventListener("click", (e) => {
    e.stopPropagation();
    openFloating(snoozeMenu, btn, contextFor(btn.dataset.snooze, btn));
  }));
  if (snoozeMenu) {
    $$("[data-until]", snoozeMenu).forEach((it) => it.addEventListener("click", () => {
      const ctx = snoozeMenu.ctx;
      closeFloating();
      runAction("snooze", ctx, { until: it.dataset.until }, leaves(ctx));
    }));
    $("#snooze-pick").addEventListener("click", () => {
      const ctx = snoozeMenu.ctx;
      closeFloating();
      openDatePicker("Pick date & time", "Save", (iso) => runAction("snooze", ctx, { until: iso }, leaves(ctx)));
    });
  }

  /* Move to / Label as menus. */
  const moveMenu = $("#move-menu");
  const labelsMenu = $("#labels-menu");
  function filterMenu(menu) {
    const inp = $(".menu-filter", menu);
    const q = inp.value.trim().toLowerCase();
    $$(".menu-items > [role]", menu).forEach((it) => {
      const name = (it.dataset.name || it.textContent).toLowerCase();
      it.classList.toggle("filtered-out", !!q && !name.includes(q));
    });
  }
  [moveMenu, labelsMenu].forEach((menu) => {
    if (!menu) return;
    const inp = $(".menu-filter", menu);
    inp.addEventListener("input", () => filterMenu(menu));
    inp.addEventListener("keydown", (e) => { if (e.key === "Enter") e.preventDefault(); });
  });
  $$("[data-move]").forEach((btn) => btn.addEventListener("click", (e) => {
    e.stopPropagation();
    const ctx = contextFor(btn.dataset.move, btn);
    $(".menu-filter", moveMenu).value = "";
    filterMenu(moveMenu);
    const inInboxView = listToolbar && listToolbar.dataset.view === "inbox";
    $$(".mv-inbox", moveMenu).forEach((x) => { x.hidden = !!(inInboxView || (ctx.inInbox && !listToolbar)); });
    $$(".mv-cat", moveMenu).forEach((x) => { x.hidden = !(ctx.inInbox || inInboxView); });
    openFloating(moveMenu, btn, ctx);
  }));
  if (moveMenu) {
    $$("[data-target]", moveMenu).forEach((it) => it.addEventListener("click", () => {
      const ctx = moveMenu.ctx;
      closeFloating();
      const t = it.dataset.target;
      const extra = { target: t };
      const cur = currentLabelId();
      if (cur) extra.from_label_id = cur;
      const stays = t.startsWith("category:");
      runAction("move", ctx, extra, stays ? null : leaves(ctx));
    }));
    $(".menu-create", moveMenu).addEventListener("click", () => {
      const ctx = moveMenu.ctx;
      closeFloating();
      openLabelDialog({ applyTo: ctx.ids, move: true, fromLabelId: currentLabelId() });
    });
  }
  $$("[data-labels]").forEach((btn) => btn.addEventListener("click", (e) => {
    e.stopPropagation();
    const ctx = contextFor(btn.dataset.labels, btn);
    $(".menu-filter", labelsMenu).value = "";
    filterMenu(labelsMenu);
    const n = Math.max(1, ctx.labels.length);
    ctx.initial = {};
    $$("[role=menuitemcheckbox]", labelsMenu).forEach((it) => {
      const id = Number(it.dataset.labelId);
      const have = ctx.labels.filter((ls) => ls.includes(id)).length;
      const state = have === 0 ? "false" : (have >= n ? "true" : "mixed");
      it.setAttribute("aria-checked", state);
      ctx.initial[id] = state;
    });
    $("#labels-apply").hidden = true;
    openFloating(labelsMenu, btn, ctx);
  }));
  if (labelsMenu) {
    $$("[role=menuitemcheckbox]", labelsMenu).forEach((it) => it.addEventListener("click", () => {
      const cur = it.getAttribute("aria-checked");
      it.setAttribute("aria-checked", cur === "true" ? "false" : "true");
      const ctx = labelsMenu.ctx;
      const changed = $$("[role=menuitemcheckbox]", labelsMenu).some((x) => x.getAttribute("aria-checked") !== ctx.initial[Number(x.dataset.labelId)]);
      $("#labels-apply").hidden = !changed;
    }));
    $("#labels-apply").addEventListener("click", () => {
      const ctx = labelsMenu.ctx;
      const add = [], remove = [];
      $$("[role=menuitemcheckbox]", labelsMenu).forEach((x) => {
        const id = Number(x.dataset.labelId);
        const st = x.getAttribute("aria-checked");
        if (st === ctx.initial[id]) return;
        if (st === "true") add.push(id); else if (st === "false") remove.push(id);
      });
      closeFloating();
      const cur = currentLabelId();
      const leaving = cur && remove.includes(cur) && listToolbar;
      runAction("label", ctx, { add: add, remove: remove }, leaving ? location.pathname : null);
    });
    $(".menu-create", labelsMenu).addEventListener("click", () => {
      const ctx = labelsMenu.ctx;
      closeFloating();
      openLabelDialog({ applyTo: ctx.ids });
    });
  }

  /* ------------------------------------------------------------------ lists */
  const rows = $$(".row");
  rows.forEach((row) => {
    row.addEventListener("click", (e) => {
      if (e.target.closest("button, a, input, .c-check, .c-star, .c-imp")) {
        if (!e.target.closest("button, a, input") && e.target.closest(".c-check")) {
          const cb = $(".row-cb", row);
          cb.checked = !cb.checked;
          cb.dispatchEvent(new Event("change", { bubbles: true }));
        }
        return;
      }
      if (row.dataset.draft) { openDraft(Number(row.dataset.draft)); return; }
      go(row.dataset.href);
    });
    $$("[data-row-action]", row).forEach((btn) => btn.addEventListener("click", (e) => {
      e.stopPropagation();
      runAction(btn.dataset.rowAction, { ids: [Number(row.dataset.id)] });
    }));
    $$("[data-row-discard]", row).forEach((btn) => btn.addEventListener("click", async (e) => {
      e.stopPropagation();
      try { const r = await api("/api/drafts/" + btn.dataset.rowDiscard + "/discard", {}); storeToast({ text: r.toast }); reload(); }
      catch (err) { alertModal("Error", err.message); }
    }));
  });
  const selectAll = $("#select-all");
  const banner = $("#select-banner");
  function syncSelection() {
    const cbs = $$(".row-cb");
    const n = cbs.filter((cb) => cb.checked).length;
    cbs.forEach((cb) => cb.closest(".row").classList.toggle("selected", cb.checked));
    if (selectAll) {
      selectAll.checked = n > 0 && n === cbs.length;
      selectAll.classList.toggle("partial", n > 0 && n < cbs.length);
      selectAll.setAttribute("aria-checked", n === 0 ? "false" : (n === cbs.length ? "true" : "mixed"));
    }
    const def = $("#tb-default");
    const sel = $("#tb-selection");
    if (def && sel) { def.hidden = n > 0; sel.hidden = n === 0; }
    if (n < cbs.length) selectAllMatching = false;
    if (banner && listToolbar) {
      const total = Number(listToolbar.dataset.total || 0);
      banner.hidden = !(n > 0 && n === cbs.length && total > cbs.length);
      if (!banner.hidden && !selectAllMatching) {
        $("#select-banner-text").textContent = "All " + n + " conversations on this page are selected.";
        const b = $("#select-all-matching");
        b.textContent = "Select all " + total.toLocaleString("en-US") + " conversations in " + listToolbar.dataset.title;
      }
    }
  }
  $$(".row-cb").forEach((cb) => cb.addEventListener("change", syncSelection));
  if (selectAll) {
    selectAll.addEventListener("click", () => {
      const any = $$(".row-cb").some((cb) => cb.checked);
      $$(".row-cb").forEach((cb) => { cb.checked = !any; });
      syncSelection();
    });
  }
  const selAllMatching = $("#select-all-matching");
  if (selAllMatching) selAllMatching.addEventListener("click", () => {
    if (selectAllMatching) {
      $$(".row-cb").forEach((cb) => { cb.checked = false; });
      selectAllMatching = false;
      syncSelection();
      return;
    }
    selectAllMatching = true;
    const total = Number(listToolbar.dataset.total || 0);
    $("#select-banner-text").textContent = "All " + total.toLocaleString("en-US") + " conversations in " + listToolbar.dataset.title + " are selected.";
    selAllMatching.textContent = "Clear selection";
  });
  popover($("#select-menu-btn"), $("#select-menu"));
  $$("#select-menu [data-select]").forEach((item) => item.addEventListener("click", () => {
    const how = item.dataset.select;
    $$(".row").forEach((row) => {
      const cb = $(".row-cb", row);
      cb.checked = how === "all" || (how === "read" && row.dataset.unread === "0") || (how === "unread" && row.dataset.unread === "1")
        || (how === "starred" && row.dataset.starred === "1") || (how === "unstarred" && row.dataset.starred === "0");
    });
    syncSelection();
    closePopovers();
  }));
  $$("#tb-selection [data-action]").forEach((btn) => btn.addEventListener("click", () => {
    closePopovers();
    runAction(btn.dataset.action, contextFor("selection"));
  }));
  popover($("#sel-more-btn"), $("#sel-more-menu"));
  const refresh = $("#refresh-btn");
  if (refresh) refresh.addEventListener("click", () => reload());
  popover($("#more-btn"), $("#more-menu"));
  const markAll = $("#mark-all-read");
  if (markAll) markAll.addEventListener("click", async () => {
    closePopovers();
    try {
      const r = await api("/api/mark_all_read", { path: location.pathname + location.search });
      storeToast({ text: r.toast });
      reload();
    } catch (err) { alertModal("Error", err.message); }
  });
  const filterLike = $("#filter-like-these");
  if (filterLike) filterLike.addEventListener("click", (e) => {
    e.stopPropagation();
    const froms = [];
    selectedRows().forEach((row) => { if (row.dataset.from && !froms.includes(row.dataset.from)) froms.push(row.dataset.from); });
    closePopovers();
    startFilter({ from_contains: froms.join(" OR ") });
  });
  const discardDrafts = $("#discard-drafts");
  if (discardDrafts) discardDrafts.addEventListener("click", async () => {
    const ids = selectedRows().map((r) => r.dataset.draft).filter(Boolean);
    try {
      for (const id of ids) await api("/api/drafts/" + id + "/discard", {});
      storeToast({ text: ids.length === 1 ? "Draft discarded." : ids.length + " drafts discarded." });
      reload();
    } catch (err) { alertModal("Error", err.message); }
  });
  const cancelSched = $("#cancel-scheduled");
  if (cancelSched) cancelSched.addEventListener("click", async () => {
    const rowsSel = selectedRows();
    try {
      let last = null;
      for (const row of rowsSel) {
        const r = await getJSON("/api/threads/" + row.dataset.id + "/scheduled");
        last = await api("/api/scheduled/" + r.message_id + "/cancel", {});
      }
      storeToast({ text: rowsSel.length === 1 ? "Sending cancelled." : "Sending cancelled for " + rowsSel.length + " messages." });
      if (rowsSel.length === 1 && last) go("/drafts?draft=" + last.draft_id); else reload();
    } catch (err) { alertModal("Error", err.message); }
  });
  $$("#empty-trash, #empty-spam").forEach((b) => b.addEventListener("click", async () => {
    const trash = b.dataset.folder === "trash";
    const text = trash ? "This action will affect all conversations in Trash. Are you sure you want to continue?"
      : "This action will affect all conversations in Spam. Are you sure you want to continue?";
    if (!(await confirmModal(text, "OK", trash ? "Confirm emptying Trash" : "Confirm deleting spam"))) return;
    try { const r = await api("/api/empty", { folder: b.dataset.folder }); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  }));

  /* ----------------------------------------------------------------- thread */
  if (threadToolbar) {
    const tid = Number(threadToolbar.dataset.thread);
    const back = threadToolbar.dataset.back || "/inbox";
    const STAY = { move_to_inbox: 1, not_spam: 1, mark_read: 1, important: 1, not_important: 1, star: 1, unstar: 1, unsnooze: 1, unmute: 1 };
    $$("[data-action]").filter((b) => b.closest("#thread-toolbar, .spam-banner, .banner")).forEach((btn) => {
      btn.addEventListener("click", () => {
        closePopovers();
        const a = btn.dataset.action;
        runAction(a, { ids: [tid] }, null, STAY[a] ? null : back);
      });
    });
    popover($("#thread-more-btn"), $("#thread-more-menu"));
    const tfl = $("#thread-filter-like");
    if (tfl) tfl.addEventListener("click", (e) => { e.stopPropagation(); closePopovers(); startFilter({ from_contains: tfl.dataset.from || "" }); });
    $$("[data-remove-label]").forEach((b) => b.addEventListener("click", (e) => {
      e.stopPropagation();
      runAction("label", { ids: [tid] }, { remove: [Number(b.dataset.removeLabel)] });
    }));
    $$("[data-unblock]").forEach((b) => b.addEventListener("click", async () => {
      try { const r = await api("/api/unblock", { email: b.dataset.unblock }); storeToast({ text: r.toast }); reload(); }
      catch (err) { alertModal("Error", err.message); }
    }));
    const cancelSend = $("#cancel-send");
    if (cancelSend) cancelSend.addEventListener("click", async () => {
      try { const r = await api("/api/scheduled/" + cancelSend.dataset.mid + "/cancel", {}); storeToast({ text: r.toast }); go("/drafts?draft=" + r.draft_id); }
      catch (err) { alertModal("Error", err.message); }
    });
    $$(".msg").forEach((msg) => {
      const toggle = $(".msg-toggle", msg);
      if (toggle) toggle.addEventListener("click", () => {
        const expanded = msg.classList.toggle("expanded");
        msg.classList.toggle("collapsed", !expanded);
        const name = toggle.getAttribute("aria-label").replace(/^(Show|Collapse) /, "");
        toggle.setAttribute("aria-expanded", expanded ? "true" : "false");
        toggle.setAttribute("aria-label", (expanded ? "Collapse " : "Show ") + name);
      });
      const db = $(".details-btn", msg);
      if (db) popover(db, $(".details", msg));
    });
    const folded = $("#folded-btn");
    if (folded) folded.addEventListener("click", () => {
      $$(".msg.folded").forEach((m) => m.classList.remove("folded"));
      folded.closest(".folded-bar").remove();
    });
    $$(".invite-card").forEach((card) => {
      $$(".rsvp-btn", card).forEach((btn) => btn.addEventListener("click", async () => {
        try {
          const r = await api("/api/invites/" + card.dataset.invite + "/rsvp", { rsvp: btn.dataset.rsvp });
          $$(".rsvp-btn", card).forEach((b) => {
            const on = b.dataset.rsvp === r.rsvp;
            b.classList.toggle("on", on);
            b.setAttribute("aria-pressed", on ? "true" : "false");
            const old = $(".rsvp-check", b);
            if (old) old.remove();
            if (on) {
              const s = document.createElement("span");
              s.className = "material-symbols-outlined ms rsvp-check";
              s.setAttribute("aria-hidden", "true");
              s.textContent = "check";
              b.prepend(s);
            }
          });
        } catch (err) { alertModal("Error", err.message); }
      }));
    });

    const form = $("#inline-reply");
    let openReply = null;
    if (form) {
      const bar = $("#reply-bar");
      let mode = "reply";
      const defaultIrt = form.dataset.irt;
      const sig = form.dataset.signature ? "\n\n--\n" + form.dataset.signature : "";
      // Files picked for this reply / forward; they go with Send (file_ids).
      let replyFiles = [];
      let fwdAtts = [];
      const renderReplyAtts = () => renderAttChips($("#reply-atts"), [
        ...fwdAtts.map((a) => Object.assign({ fwd: true }, a)),
        ...replyFiles.map((f) => ({ filename: f.name, mime: f.mime, size_label: f.size_label, file_id: f.file_id }))],
        (a) => {
          if (a.fwd) fwdAtts = fwdAtts.filter((x) => x.attachment_id !== a.attachment_id);
          else replyFiles = replyFiles.filter((f) => f.file_id !== a.file_id);
          renderReplyAtts();
        });
      let replyPending = Promise.resolve();
      const replyAttach = (ids) => (replyPending = replyPending.then(() => replyAttachNow(ids)));
      const replyAttachNow = async (ids) => {
        const data = await getJSON("/api/files");
        ids.forEach((id) => {
          const f = data.files.find((x) => x.file_id === id);
          if (f && !replyFiles.some((x) => x.file_id === id)) replyFiles.push(f);
        });
        renderReplyAtts();
      };
      $("#reply-insert-files").addEventListener("click", () => openFilesPicker((ids) => replyAttach(ids).catch((err) => alertModal("Error", err.message))));
      $("#reply-attach").addEventListener("click", () => $("#reply-file").click());
      $("#reply-file").addEventListener("change", async (e) => {
        try { await replyAttach(await uploadChosen(e.target)); } catch (err) { alertModal("Error", err.message); }
      });
      const splitAddrs = (v) => (v || "").split(",").map((x) => x.trim()).filter(Boolean);
      openReply = (m, to, irt, fwdText, cc) => {
        mode = m;
        form.hidden = false;
        bar.hidden = true;
        form.dataset.irtNow = irt || defaultIrt;
        setAddrs($("#reply-to"), splitAddrs(to));
        // Reply all keeps the original Cc on Cc (Gmail); the row shows when it has someone or Cc is clicked.
        setAddrs($("#reply-cc"), splitAddrs(cc));
        $("#reply-cc-row").hidden = !splitAddrs(cc).length;
        $("#reply-add-cc").hidden = !!splitAddrs(cc).length;
        $(".ir-mode-icon", form).textContent = m;
        $("#ir-fwd").hidden = m !== "forward";
        if (fwdText) $("#ir-fwd-text").textContent = fwdText;
        form.setAttribute("aria-label", m === "forward" ? "Forward" : (m === "reply_all" ? "Reply all" : "Reply"));
        const body = $("#reply-body");
        if (!RTE.text(body)) RTE.setText(body, sig);
        // Forward carries the message's attachments (chips that can be removed before Send).
        fwdAtts = [];
        if (m === "forward") {
          const src = $('.msg[data-mid="' + form.dataset.irtNow + '"]');
          try { fwdAtts = JSON.parse((src && src.dataset.atts) || "[]"); } catch (e) { fwdAtts = []; }
        }
        renderReplyAtts();
        if (m === "forward") $("#reply-to").focus();
        else RTE.caretToStart(body);
        form.scrollIntoView({ block: "nearest" });
      };
      $$("#reply-bar .pill-btn").forEach((b) => b.addEventListener("click", () => openReply(b.dataset.mode, b.dataset.to, null, null, b.dataset.cc)));
      $("#reply-add-cc").addEventListener("click", () => { $("#reply-cc-row").hidden = false; $("#reply-add-cc").hidden = true; $("#reply-cc").focus(); });
      $$(".msg-reply").forEach((b) => b.addEventListener("click", (e) => {
        e.stopPropagation();
        const msg = b.closest(".msg");
        // Settings > General > Default reply behavior: Reply all makes the message's arrow reply to everyone.
        if (b.dataset.replyAll === "1") openReply("reply_all", msg.dataset.replyAllTo, b.dataset.replyMsg, null, msg.dataset.replyAllCc);
        else openReply("reply", msg.dataset.replyTo, b.dataset.replyMsg);
      }));
      $("#reply-discard").addEventListener("click", () => {
        form.reset();
        RTE.setText($("#reply-body"), "");
        fwdAtts = [];
        setAddrs($("#reply-to"), []);
        setAddrs($("#reply-cc"), []);
        replyFiles = [];
        renderReplyAtts();
        form.hidden = true;
        bar.hidden = false;
      });
      $("#reply-body").addEventListener("keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
      });
      RTE.attach($("#reply-body"), $("#reply-fmt"), $("#reply-format"));
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        await replyPending.catch(() => {});  // files still being added go with this Send
        commitText($("#reply-to"));
        commitText($("#reply-cc"));
        const to = addrValue($("#reply-to"));
        const cc = addrValue($("#reply-cc"));
        if (!to.trim() && !cc.trim()) { await alertModal("Error", "Please specify at least one recipient."); return; }
        let r;
        try {
          r = await api("/api/send", { mode: mode, thread_id: Number(form.dataset.thread), in_reply_to_id: Number(form.dataset.irtNow || defaultIrt),
                                       to: to, cc: cc, body: RTE.text($("#reply-body")), body_html: RTE.html($("#reply-body")),
                                       file_ids: replyFiles.map((f) => f.file_id),
                                       forward_attachment_ids: mode === "forward" ? fwdAtts.map((a) => a.attachment_id) : null });
        } catch (err) { await alertModal("Error", err.message); return; }
        storeToast({ text: r.toast || "Message sent", actions: [undoSendAction(r), { label: "View message", href: "/thread/" + r.thread_id + "?back=" + encodeURIComponent(back) }] });
        reload();
      });
      // After Undo Send of a reply or forward: reopen the form with what was sent.
      let restored = null;
      try { restored = JSON.parse(sessionStorage.getItem(REPLY_KEY) || "null"); sessionStorage.removeItem(REPLY_KEY); } catch (e) { restored = null; }
      if (restored && restored.thread_id === Number(form.dataset.thread)) {
        openReply(restored.mode, (restored.to || []).join(", "), restored.in_reply_to_id ? String(restored.in_reply_to_id) : null, null, (restored.cc || []).join(", "));
        if (restored.body_html) RTE.setHtml($("#reply-body"), restored.body_html);
        else RTE.setText($("#reply-body"), restored.body || "");
        if (restored.forward_attachment_ids) {
          fwdAtts = fwdAtts.filter((a) => restored.forward_attachment_ids.includes(a.attachment_id));
          renderReplyAtts();
        }
        if ((restored.file_ids || []).length) replyAttach(restored.file_ids).catch(() => {});
      }
    }

    /* Per-message menu. */
    const msgMenu = $("#msg-menu");
    $$(".msg-more").forEach((btn) => btn.addEventListener("click", (e) => {
      e.stopPropagation();
      const msg = btn.closest(".msg");
      const mine = msg.dataset.mine === "1";
      $('[data-msg-cmd="reply_all"]', msgMenu).hidden = msg.dataset.canReplyAll !== "1" || !form;
      $('[data-msg-cmd="reply"]', msgMenu).hidden = !form;
      $('[data-msg-cmd="forward"]', msgMenu).hidden = !form;
      $('[data-msg-cmd="block"]', msgMenu).hidden = mine;
      $('[data-msg-cmd="filter"]', msgMenu).hidden = mine;
      $("#msg-block-text").textContent = 'Block "' + msg.dataset.name + '"';
      openFloating(msgMenu, btn, { msg: msg, mid: Number(msg.dataset.mid) });
    }));
    if (msgMenu) $$("[data-msg-cmd]", msgMenu).forEach((it) => it.addEventListener("click", async () => {
      const ctx = msgMenu.ctx;
      closeFloating();
      const msg = ctx.msg;
      const cmd = it.dataset.msgCmd;
      if (cmd === "reply" && openReply) openReply("reply", msg.dataset.replyTo, ctx.mid);
      else if (cmd === "reply_all" && openReply) openReply("reply_all", msg.dataset.replyAllTo, ctx.mid, null, msg.dataset.replyAllCc);
      else if (cmd === "forward" && openReply) openReply("forward", "", ctx.mid, $(".fwd-src", msg).innerHTML.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").replace(/&#39;/g, "'").replace(/&#34;/g, '"'));
      else if (cmd === "filter") startFilter({ from_contains: msg.dataset.from });
      else if (cmd === "delete") {
        try {
          const r = await api("/api/messages/" + ctx.mid + "/trash", {});
          storeToast({ text: r.toast });
          if (r.thread_empty) go(back); else reload();
        } catch (err) { alertModal("Error", err.message); }
      } else if (cmd === "block") {
        const email = msg.dataset.from;
        if (!(await confirmModal("Future messages from " + email + " will be sent to Spam.", "Block", 'Block "' + msg.dataset.name + '"?'))) return;
        try { const r = await api("/api/block", { email: email }); storeToast({ text: r.toast }); reload(); }
        catch (err) { alertModal("Error", err.message); }
      } else if (cmd === "unread") {
        try { const r = await api("/api/messages/" + ctx.mid + "/unread_from_here", {}); storeToast({ text: r.toast }); go(back); }
        catch (err) { alertModal("Error", err.message); }
      }
    }));
  }

  /* --------------------------------------------------------------- settings */
  const saveGeneral = $("#s-save");
  if (saveGeneral) saveGeneral.addEventListener("click", async () => {
    // Only what changed is saved (Gmail keeps the rest as it was).
    const changed = (el) => (el.type === "checkbox" || el.type === "radio") ? el.checked !== el.defaultChecked : el.value !== el.defaultValue;
    const body = {};
    const ps = $("#s-page-size");
    if (ps.dataset.value !== ps.dataset.initial) body.page_size = Number(ps.dataset.value);
    if ($$('input[name="snippets"]').some(changed)) body.show_snippets = $('input[name="snippets"]:checked').value === "1";
    const us = $("#s-undo-send");
    if (us.dataset.value !== us.dataset.initial) body.undo_send_seconds = Number(us.dataset.value);
    if ($$('input[name="default_reply"]').some(changed)) body.default_reply = $('input[name="default_reply"]:checked').value;
    if ($$('input[name="shortcuts"]').some(changed)) body.keyboard_shortcuts = $('input[name="shortcuts"]:checked').value === "1";
    if (changed($("#s-signature"))) body.signature = $("#s-signature").value;
    if (changed($("#s-sig-replies"))) body.signature_on_replies = $("#s-sig-replies").checked;
    const vFields = [...$$('input[name="vacation"]'), $("#s-v-start"), $("#s-v-end"), $("#s-v-has-end"), $("#s-v-subject"), $("#s-v-body"), $("#s-v-contacts")];
    if (vFields.some(changed)) {
      Object.assign(body, {
        vacation_enabled: $('input[name="vacation"]:checked').value === "1",
        vacation_start: $("#s-v-start").value.trim(),
        vacation_end: $("#s-v-has-end").checked ? $("#s-v-end").value.trim() : "",
        vacation_subject: $("#s-v-subject").value,
        vacation_body: $("#s-v-body").value,
        vacation_contacts_only: $("#s-v-contacts").checked,
      });
      if ($("#s-v-has-end").checked && !body.vacation_end) { await alertModal("Error", "Please enter the last day."); return; }
    }
    if (!Object.keys(body).length) { showToast({ text: "No changes to save." }); return; }
    try { const r = await api("/api/settings", body); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  });
  if ($("#s-page-size")) $("#s-page-size").dataset.initial = $("#s-page-size").dataset.value;
  if ($("#s-undo-send")) $("#s-undo-send").dataset.initial = $("#s-undo-send").dataset.value;
  const vEnd = $("#s-v-end");
  if (vEnd) vEnd.addEventListener("input", () => { $("#s-v-has-end").checked = !!vEnd.value.trim(); });
  $$("#s-v-start, #s-v-end, #s-v-subject, #s-v-body").forEach((el) => el.addEventListener("input", () => {
    const on = $('input[name="vacation"][value="1"]');
    if (on && !on.checked) on.checked = true;
  }));
  const saveInbox = $("#s-inbox-save");
  if (saveInbox) saveInbox.addEventListener("click", async () => {
    try {
      const r = await api("/api/settings", { tab_social: $("#s-tab-social").checked, tab_promotions: $("#s-tab-promotions").checked,
                                             tab_updates: $("#s-tab-updates").checked });
      storeToast({ text: r.toast });
      reload();
    } catch (err) { alertModal("Error", err.message); }
  });
  $$("[data-label-set]").forEach((b) => b.addEventListener("click", async () => {
    const tr = b.closest("tr");
    const body = {}; body[b.dataset.labelSet] = b.dataset.value === "true";
    try { const r = await api("/api/labels/" + tr.dataset.labelId, body); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  }));
  $$("[data-label-remove]").forEach((b) => b.addEventListener("click", () => {
    const tr = b.closest("tr");
    removeLabel(Number(tr.dataset.labelId), tr.getAttribute("aria-label"));
  }));
  $$("[data-label-edit]").forEach((b) => b.addEventListener("click", (e) => {
    e.stopPropagation();
    const tr = b.closest("tr");
    openLabelDialog({ id: Number(tr.dataset.labelId), name: tr.dataset.labelName, parentId: tr.dataset.parentId });
  }));
  $$("[data-filter-edit]").forEach((b) => b.addEventListener("click", (e) => {
    e.stopPropagation();
    const tr = b.closest("tr");
    startFilter(JSON.parse(tr.dataset.filter), Number(tr.dataset.filterId), "search");
  }));
  $$("[data-filter-delete]").forEach((b) => b.addEventListener("click", async () => {
    const tr = b.closest("tr");
    if (!(await confirmModal("Delete this filter?", "OK", "Confirm"))) return;
    try { const r = await api("/api/filters/" + tr.dataset.filterId + "/delete", {}); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  }));
  const sCreateFilter = $("#s-create-filter");
  if (sCreateFilter) sCreateFilter.addEventListener("click", (e) => { e.stopPropagation(); startFilter(null); });
  $$("[data-unblock-id]").forEach((b) => b.addEventListener("click", async () => {
    try { const r = await api("/api/unblock", { id: Number(b.dataset.unblockId) }); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  }));

  /* --------------------------------------------------------------- contacts */
  $$(".c-row").forEach((row) => row.addEventListener("click", (e) => {
    if (e.target.closest("button, a")) return;
    go(row.dataset.href);
  }));
  const cDelete = $("#contact-delete");
  if (cDelete) cDelete.addEventListener("click", async () => {
    if (!(await confirmModal("Delete " + cDelete.dataset.name + " from your contacts?", "Delete", "Delete contact"))) return;
    try { const r = await api("/api/contacts/" + cDelete.dataset.cid + "/delete", {}); storeToast({ text: r.toast }); go("/contacts"); }
    catch (err) { alertModal("Error", err.message); }
  });
  const cForm = $("#contact-form");
  if (cForm) cForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {};
    ["first_name", "last_name", "company", "title", "email", "phone", "address", "birthday", "notes"].forEach((k) => { body[k] = cForm.elements[k].value; });
    const cid = cForm.dataset.cid;
    try {
      const r = await api(cid ? "/api/contacts/" + cid : "/api/contacts/new", body);
      storeToast({ text: r.toast });
      go("/contacts/" + r.id);
    } catch (err) { alertModal("Error", err.message); }
  });

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
  const KB = { cursor: -1, g: false, gTimer: null };
  const kbRows = () => $$("tr.row");
  function kbMove(d) {
    const rows = kbRows();
    if (!rows.length) return;
    KB.cursor = Math.max(0, Math.min(rows.length - 1, (KB.cursor < 0 ? (d > 0 ? -1 : 0) : KB.cursor) + d));
    rows.forEach((r, i) => r.classList.toggle("kb-cursor", i === KB.cursor));
    rows[KB.cursor].scrollIntoView({ block: "nearest" });
  }
  function kbRow() { const rows = kbRows(); return KB.cursor >= 0 ? rows[KB.cursor] : null; }
  function clickFirst(sels, inMenus) {
    for (const sel of sels) {
      const el = $(sel);
      // A menu's items count although the menu is closed (the key does what the item does).
      if (el && !el.hidden && (inMenus || !el.closest("[hidden]"))) { el.click(); return true; }
    }
    return false;
  }
  // A list action: on the selection, else on the row under the cursor (Gmail).
  function listAction(action) {
    if (!$$(".row-cb").some((cb) => cb.checked)) {
      const row = kbRow();
      if (!row) return;
      const cb = $(".row-cb", row);
      if (cb && !cb.checked) cb.click();
    }
    clickFirst(['#tb-selection [data-action="' + action + '"]']);
  }
  function threadAction(action) { return clickFirst(['#thread-toolbar [data-action="' + action + '"]', '#thread-more-menu [data-action="' + action + '"]'], true); }
  const GO = { i: "/inbox", s: "/starred", t: "/sent", d: "/drafts", a: "/all", b: "/snoozed" };
  document.addEventListener("keydown", (e) => {
    if (!shortcutsOn || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const t = e.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
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
    let done = true;
    if (k === "?") { if (scWrap && !scWrap.hidden) closeShortcuts(); else openShortcuts(); }
    else if (k === "g") { KB.g = true; KB.gTimer = setTimeout(() => { KB.g = false; }, 2000); }
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
    else if (inThread && k === "r") clickFirst(["#reply-btn"]);
    else if (inThread && k === "a") clickFirst(["#reply-all-btn", "#reply-btn"]);
    else if (inThread && k === "f") clickFirst(["#forward-btn"]);
    else if (inThread && k === "e") threadAction("archive");
    else if (inThread && k === "#") threadAction("trash");
    else if (inThread && k === "!") threadAction("spam");
    else if (inThread && k === "s") { if (!threadAction("star")) threadAction("unstar"); }
    else if (inThread && k === "U") threadAction("mark_unread");
    else if (inThread && k === "u") clickFirst(["#thread-toolbar > a.icon-btn"]);
    else done = false;
    if (done) e.preventDefault();
  });

  /* --------------------------------------------------------- stored toast */
  showToast(takeStoredToast());
})();
