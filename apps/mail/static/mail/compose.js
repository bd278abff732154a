/* Inkbox, the compose window: open/close/minimise/full screen, drafts saved while typing, Send, Schedule send, signature, attachments, the formatting bar (editor.js). */
(function (NS) {
  "use strict";

  const { $, $$, RTE, alertModal, confirmModal } = NS;
  const addrValue = (...a) => NS.addrValue(...a);
  const api = (...a) => NS.api(...a);
  const closePopovers = (...a) => NS.closePopovers(...a);
  const commitText = (...a) => NS.commitText(...a);
  const getJSON = (...a) => NS.getJSON(...a);
  const openDatePicker = (...a) => NS.openDatePicker(...a);
  const openFilesPicker = (...a) => NS.openFilesPicker(...a);
  const popover = (...a) => NS.popover(...a);
  const reload = (...a) => NS.reload(...a);
  const renderAttChips = (...a) => NS.renderAttChips(...a);
  const setAddrs = (...a) => NS.setAddrs(...a);
  const showToast = (...a) => NS.showToast(...a);
  const storeToast = (...a) => NS.storeToast(...a);
  const undoSendAction = (...a) => NS.undoSendAction(...a);
  const uploadChosen = (...a) => NS.uploadChosen(...a);

  /* ---------------------------------------------------------------- compose */
  const compose = $("#compose");
  let backdrop = null;
  const C = { draftId: null, key: "", dirty: false, timer: null, saving: Promise.resolve(), busy: false, reply: null };
  // A popped-out reply (the reply box's Pop out reply): sent as a reply in its conversation, with its files and
  // forwarded attachments; like the inline reply, it keeps no draft (the clone has no reply drafts).
  function replyMode(on) {
    ["#compose-attach", "#compose-insert-files", "#send-options-btn"].forEach((sel) => { const el = $(sel); if (el) el.hidden = on; });
    $("#compose-subject").readOnly = on;
  }
  function renderReplyAtts() {
    const r = C.reply;
    renderAttChips($("#compose-atts"), [...(r.fwd || []).map((a) => Object.assign({ fwd: true }, a)), ...(r.files || [])], (a) => {
      if (a.fwd) r.fwd = r.fwd.filter((x) => x.attachment_id !== a.attachment_id);
      else r.files = r.files.filter((f) => f.file_id !== a.file_id);
      renderReplyAtts();
    });
  }
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
  function setStatus(t) { const s = $("#draft-status"); if (s) s.textContent = NS.t(t); }
  function resetCompose() {
    $("#compose-form").reset();
    RTE.setText($("#compose-body"), "");
    $$("#compose .addr-chip").forEach((c) => c.remove());
    $("#cc-row").hidden = true;
    $("#bcc-row").hidden = true;
    $("#compose-title").textContent = NS.t("New Message");
    compose.classList.remove("minimized");
    $("#compose-min").setAttribute("aria-label", NS.t("Minimize"));
    setFull(false);
    clearTimeout(C.timer);
    C.timer = null; C.draftId = null; C.dirty = false; C.busy = false; C.key = "";
    C.reply = null;
    replyMode(false);
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
    if (!ids.length || C.busy || C.reply) return;
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
    b.setAttribute("aria-label", on ? NS.t("Exit full screen") : NS.t("Full screen"));
    b.title = on ? NS.t("Exit full screen") : NS.t("Full screen");
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
    if (opts.reply) {
      resetCompose();
      C.reply = opts.reply;
      replyMode(true);
      setAddrs($("#compose-to"), opts.to || []);
      if ((opts.cc || []).length) { $("#cc-row").hidden = false; setAddrs($("#compose-cc"), opts.cc); }
      if ((opts.bcc || []).length) { $("#bcc-row").hidden = false; setAddrs($("#compose-bcc"), opts.bcc); }
      $("#compose-subject").value = opts.reply.subject;
      $("#compose-title").textContent = opts.reply.subject;
      RTE.setHtml($("#compose-body"), opts.body_html || "");
      renderReplyAtts();
      setFull(true);
    } else if (opts.draft) {
      C.draftId = opts.draft.id;
      setAddrs($("#compose-to"), opts.draft.to, opts.draft.names);
      if ((opts.draft.cc || []).length) { $("#cc-row").hidden = false; setAddrs($("#compose-cc"), opts.draft.cc, opts.draft.names); }
      if ((opts.draft.bcc || []).length) { $("#bcc-row").hidden = false; setAddrs($("#compose-bcc"), opts.draft.bcc, opts.draft.names); }
      $("#compose-subject").value = opts.draft.subject || "";
      $("#compose-title").textContent = opts.draft.subject || NS.t("New Message");
      if (opts.draft.body_html) RTE.setHtml($("#compose-body"), opts.draft.body_html);
      else RTE.setText($("#compose-body"), opts.draft.body || "");
      renderComposeAtts(opts.draft.attachments || []);
      setStatus(NS.t("Draft"));
    } else {
      if (opts.to) setAddrs($("#compose-to"), [opts.to], opts.names);
      if (!RTE.text($("#compose-body"))) RTE.setText($("#compose-body"), signatureBlock());
    }
    const body = $("#compose-body");
    if (opts.draft || opts.to || opts.reply) RTE.caretToStart(body); else $("#compose-to").focus();
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
    if (C.busy || !C.dirty || C.reply) return C.saving;
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
  async function sendReply() {
    const r0 = C.reply;
    const d = composeFields();
    if (!(d.to.trim() || d.cc.trim() || d.bcc.trim())) { await alertModal("Error", "Please specify at least one recipient."); return; }
    let r;
    try {
      r = await api("/api/send", { mode: r0.mode, thread_id: r0.thread_id, in_reply_to_id: r0.in_reply_to_id, to: d.to, cc: d.cc, bcc: d.bcc,
                                   body: d.body, body_html: d.body_html, file_ids: (r0.files || []).map((f) => f.file_id),
                                   forward_attachment_ids: r0.fwd ? r0.fwd.map((a) => a.attachment_id) : null });
    } catch (err) { await alertModal("Error", err.message); return; }
    storeToast({ text: r.toast || "Message sent", actions: [undoSendAction(r), { label: "View message", href: "/thread/" + r.thread_id + "?back=" + encodeURIComponent(r0.back || "/inbox") }] });
    compose.hidden = true;
    resetCompose();
    reload();
  }
  async function sendCompose(scheduleAt) {
    const f = $("#compose-form");
    [f.to, f.cc, f.bcc].forEach(commitText);
    if (C.reply) { await sendReply(); return; }
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
      $("#compose-min").setAttribute("aria-label", min ? NS.t("Maximize") : NS.t("Minimize"));
      if (min) saveDraft();
    });
    $("#compose-full").addEventListener("click", (e) => {
      e.stopPropagation();
      compose.classList.remove("minimized");
      $("#compose-min").setAttribute("aria-label", NS.t("Minimize"));
      setFull(!compose.classList.contains("full"));
    });
    $("#compose-head").addEventListener("click", () => {
      if (compose.classList.contains("minimized")) {
        compose.classList.remove("minimized");
        $("#compose-min").setAttribute("aria-label", NS.t("Minimize"));
      }
    });
    $("#add-cc").addEventListener("click", () => { $("#cc-row").hidden = false; $("#compose-cc").focus(); });
    $("#add-bcc").addEventListener("click", () => { $("#bcc-row").hidden = false; $("#compose-bcc").focus(); });
    $("#compose-subject").addEventListener("input", (e) => {
      $("#compose-title").textContent = e.target.value.trim() || NS.t("New Message");
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


  Object.assign(NS, { compose, openCompose, openDraft });
})(window.Inkbox = window.Inkbox || {});
