/* Inkbox, the page shell: the rail (collapse, More, categories), the label dialog and rail label options, quick settings, account and apps menus, search, advanced search, filters and search chips. */
(function (NS) {
  "use strict";

  const { $, $$, alertModal, appEl, confirmModal } = NS;
  const api = (...a) => NS.api(...a);
  const closeDropdowns = (...a) => NS.closeDropdowns(...a);
  const closeFloating = (...a) => NS.closeFloating(...a);
  const closePopovers = (...a) => NS.closePopovers(...a);
  const getJSON = (...a) => NS.getJSON(...a);
  const go = (...a) => NS.go(...a);
  const openFloating = (...a) => NS.openFloating(...a);
  const parseDate = (...a) => NS.parseDate(...a);
  const popover = (...a) => NS.popover(...a);
  const reload = (...a) => NS.reload(...a);
  const setDropdown = (...a) => NS.setDropdown(...a);
  const storeToast = (...a) => NS.storeToast(...a);

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
      moreToggle.setAttribute("aria-label", open ? NS.t("Less") : NS.t("More"));
      $(".more-text", moreToggle).textContent = open ? NS.t("Less") : NS.t("More");
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
    $("#label-dialog").setAttribute("aria-label", edit ? NS.t("Edit label") : NS.t("New label"));
    $("#label-dialog-title").textContent = edit ? NS.t("Edit label") : NS.t("New label");
    $("#label-name-caption").textContent = edit ? NS.t("Label name:") : NS.t("Please enter a new label name:");
    $("#label-save").textContent = edit ? NS.t("Save") : NS.t("Create");
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
      const opener = NS.floatingOpen ? NS.floatingOpen.anchor : anchor;
      loMenu.hidden = true;
      NS.floatingOpen = null;
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
  // Size: greater than / less than, N, MB / KB / Bytes -> larger:2M, smaller:500K, larger:1000 (the search
  // language reads them: apps/mail/search.py). Filters keep it with their words (has_words), as Gmail's query does.
  function sizeTerm() {
    const v = (($("#adv-size") || {}).value || "").trim();
    if (!v) return "";
    if (!/^\d+(\.\d+)?$/.test(v)) throw new Error('"' + v + '" is not a size: enter a number, e.g. 2 (MB), 500 (KB).');
    return $("#adv-size-op").dataset.value + ":" + v + $("#adv-size-unit").dataset.value;
  }
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
    const size = sizeTerm();
    if (size) parts.push(size);
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
      subject_contains: $("#adv-subject").value.trim(),
      has_words: [$("#adv-has").value.trim(), sizeTerm()].filter(Boolean).join(" "),
      doesnt_have: $("#adv-not").value.trim(), has_attachment: $("#adv-att").checked,
    };
  }
  // Editing a filter: a larger: / smaller: term of its words goes back into the Size row.
  const SIZE_IN_WORDS = /(^|\s)(larger|smaller):(\d+(?:\.\d+)?)([km]?)(?=\s|$)/i;
  function prefillSize(words) {
    $("#adv-size").value = "";
    setDropdown($("#adv-size-op"), "larger");
    setDropdown($("#adv-size-unit"), "M");
    const m = SIZE_IN_WORDS.exec(words || "");
    if (!m) return words || "";
    setDropdown($("#adv-size-op"), m[2].toLowerCase());
    $("#adv-size").value = m[3];
    setDropdown($("#adv-size-unit"), m[4].toUpperCase());
    return (words.slice(0, m.index) + " " + words.slice(m.index + m[0].length)).trim().replace(/\s+/g, " ");
  }
  async function openFilterStep() {
    let c;
    try { c = filterCriteria(); } catch (err) { await alertModal("Error", err.message); return; }
    if (!c.from_contains && !c.to_contains && !c.subject_contains && !c.has_words && !c.doesnt_have && !c.has_attachment) {
      await alertModal("Error", "Please specify at least one search criterion for the filter.");
      return;
    }
    const summary = [];
    if (c.from_contains) summary.push("from:(" + c.from_contains + ")");
    if (c.to_contains) summary.push("to:(" + c.to_contains + ")");
    if (c.subject_contains) summary.push("subject:(" + c.subject_contains + ")");
    if (c.has_words) summary.push(c.has_words);
    if (c.doesnt_have) summary.push(/\s/.test(c.doesnt_have) ? "-{" + c.doesnt_have + "}" : "-" + c.doesnt_have);
    if (c.has_attachment) summary.push("has:attachment");
    $("#filter-summary").textContent = summary.join(" ");
    showAdvStep("filter");
    $("#filter-create").textContent = filterEditing ? NS.t("Update filter") : NS.t("Create filter");
    try {
      const qs = new URLSearchParams({ ...c, has_attachment: c.has_attachment ? "1" : "" });
      const r = await getJSON("/api/filters/count?" + qs.toString());
      $("#f-apply-text").textContent = NS.t(r.count === 1 ? "Also apply filter to %(n)s matching conversation." : "Also apply filter to %(n)s matching conversations.", { n: r.count });
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
    prefillSize("");
    resetFilterActions();
    if (!vals) return;
    $("#adv-from").value = vals.from_contains || "";
    $("#adv-to").value = vals.to_contains || "";
    $("#adv-subject").value = vals.subject_contains || "";
    $("#adv-has").value = prefillSize(vals.has_words);
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
      let body;
      try { body = filterCriteria(); } catch (err) { await alertModal("Error", err.message); return; }
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


  Object.assign(NS, { openLabelDialog, removeLabel, startFilter });
})(window.Inkbox = window.Inkbox || {});
