/* Inkbox, conversation lists: star and importance, bulk actions and their context, snooze / move to / label menus, rows, selection and select-all. */
(function (NS) {
  "use strict";

  const { $, $$, MENU_TRIGGER, alertModal, confirmModal } = NS;
  const api = (...a) => NS.api(...a);
  const closeFloating = (...a) => NS.closeFloating(...a);
  const closePopovers = (...a) => NS.closePopovers(...a);
  const getJSON = (...a) => NS.getJSON(...a);
  const go = (...a) => NS.go(...a);
  const openDatePicker = (...a) => NS.openDatePicker(...a);
  const openDraft = (...a) => NS.openDraft(...a);
  const openFloating = (...a) => NS.openFloating(...a);
  const openLabelDialog = (...a) => NS.openLabelDialog(...a);
  const popover = (...a) => NS.popover(...a);
  const reload = (...a) => NS.reload(...a);
  const startFilter = (...a) => NS.startFilter(...a);
  const storeToast = (...a) => NS.storeToast(...a);

  /* ------------------------------------------------------------- star/imp */
  function setStar(btn, on, contact) {
    btn.classList.toggle("on", on);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    if (contact) {
      btn.setAttribute("aria-label", on ? NS.t("Remove from favorites") : NS.t("Add to favorites"));
      btn.title = on ? NS.t("Remove from favorites") : NS.t("Add to favorites");
    } else {
      btn.setAttribute("aria-label", on ? NS.t("Unstar") : NS.t("Star"));
      btn.title = on ? NS.t("Starred") : NS.t("Not starred");
    }
    $(".ms", btn).classList.toggle("fill", on);
    const row = btn.closest(".row");
    if (row) row.dataset.starred = on ? "1" : "0";
  }
  function setImportant(btn, on) {
    btn.classList.toggle("on", on);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.setAttribute("aria-label", on ? NS.t("Mark as not important") : NS.t("Mark as important"));
    btn.title = on ? NS.t("Important") : "Click to teach Inkbox this conversation is important.";
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
      return { ids: [Number(threadToolbar.dataset.thread)], labels: [(threadToolbar.dataset.labelIds || "").split(",").filter(Boolean).map(Number)],
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
    const ids = (row.dataset.labelIds || "").split(",").filter(Boolean).map(Number);
    const cur = listToolbar && listToolbar.dataset.labelId ? Number(listToolbar.dataset.labelId) : null;
    if (cur && !ids.includes(cur)) ids.push(cur);
    return ids;
  }
  function currentLabelId() { return listToolbar && listToolbar.dataset.labelId ? Number(listToolbar.dataset.labelId) : null; }
  function leaves(ctx) { return ctx.after && !ctx.stay ? ctx.after : null; }

  /* Snooze menu. */
  const snoozeMenu = $("#snooze-menu");
  $$(MENU_TRIGGER.snooze).forEach((btn) => btn.addEventListener("click", (e) => {
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
  $$(MENU_TRIGGER.move).forEach((btn) => btn.addEventListener("click", (e) => {
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
  $$(MENU_TRIGGER.labels).forEach((btn) => btn.addEventListener("click", (e) => {
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
  // The list a conversation was opened from (its rows in order): the conversation's Newer / Older and `[` `]`
  // go to its neighbours, and coming back puts the keyboard cursor on its row.
  const LIST_KEY = "inkbox.list";
  const here = location.pathname + location.search;
  function rememberList(openedId) {
    try {
      sessionStorage.setItem(LIST_KEY, JSON.stringify({ back: here, opened: openedId,
        rows: rows.filter((r) => !r.dataset.draft).map((r) => ({ id: Number(r.dataset.id), href: r.dataset.href })) }));
    } catch (e) { /* ignore */ }
  }
  try {
    const last = JSON.parse(sessionStorage.getItem(LIST_KEY) || "null");
    const back = last && rows.find((r) => Number(r.dataset.id) === last.opened);
    if (back && last.back === here) back.classList.add("kb-cursor");
  } catch (e) { /* ignore */ }
  rows.forEach((row) => {
    row.addEventListener("click", (e) => {
      if (e.target.closest("button, a, input, .c-check, .c-star, .c-imp")) {
        if (!e.target.closest("button, a, input") && e.target.closest(".c-check")) {
          const cb = $(".row-cb", row);
          cb.checked = !cb.checked;
          cb.dispatchEvent(new Event("change", { bubbles: true }));
          ticked(cb, e.shiftKey);
        }
        return;
      }
      if (row.dataset.draft) { openDraft(Number(row.dataset.draft)); return; }
      rememberList(Number(row.dataset.id));
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
        $("#select-banner-text").textContent = NS.t("All %(n)s conversations on this page are selected.", { n: n });
        const b = $("#select-all-matching");
        b.textContent = NS.t("Select all %(n)s conversations in %(title)s", { n: total.toLocaleString("en-US"), title: listToolbar.dataset.title });
      }
    }
  }
  $$(".row-cb").forEach((cb) => cb.addEventListener("change", syncSelection));
  // Gmail's selection model: ticking a row moves the keyboard cursor to it (and makes it the range's anchor);
  // Shift + a tick gives every row from the anchor to this one the same state.
  let anchor = null;
  function ticked(cb, shift) {
    const all = $$(".row-cb");
    if (shift && anchor && anchor !== cb && all.includes(anchor)) {
      const [a, b] = [all.indexOf(anchor), all.indexOf(cb)].sort((x, y) => x - y);
      for (let i = a; i <= b; i++) all[i].checked = cb.checked;
      syncSelection();
    }
    anchor = cb;
    $$(".row").forEach((r) => r.classList.toggle("kb-cursor", r === cb.closest(".row")));
  }
  $$(".row-cb").forEach((cb) => cb.addEventListener("click", (e) => ticked(cb, e.shiftKey)));
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
    $("#select-banner-text").textContent = NS.t("All %(n)s conversations in %(title)s are selected.", { n: total.toLocaleString("en-US"), title: listToolbar.dataset.title });
    selAllMatching.textContent = NS.t("Clear selection");
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


  Object.assign(NS, { rows, runAction, threadToolbar });
})(window.Inkbox = window.Inkbox || {});
