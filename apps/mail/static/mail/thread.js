/* Inkbox, a conversation: messages (expand, details), the per-message menu, the inline reply / reply all / forward (with the forwarded attachments), Undo Send of a reply. */
(function (NS) {
  "use strict";

  const { $, $$, REPLY_KEY, RTE, alertModal, confirmModal, threadToolbar } = NS;
  const addrValue = (...a) => NS.addrValue(...a);
  const api = (...a) => NS.api(...a);
  const closeFloating = (...a) => NS.closeFloating(...a);
  const closePopovers = (...a) => NS.closePopovers(...a);
  const commitText = (...a) => NS.commitText(...a);
  const getJSON = (...a) => NS.getJSON(...a);
  const go = (...a) => NS.go(...a);
  const openFilesPicker = (...a) => NS.openFilesPicker(...a);
  const openFloating = (...a) => NS.openFloating(...a);
  const popover = (...a) => NS.popover(...a);
  const reload = (...a) => NS.reload(...a);
  const renderAttChips = (...a) => NS.renderAttChips(...a);
  const runAction = (...a) => NS.runAction(...a);
  const setAddrs = (...a) => NS.setAddrs(...a);
  const startFilter = (...a) => NS.startFilter(...a);
  const storeToast = (...a) => NS.storeToast(...a);
  const undoSendAction = (...a) => NS.undoSendAction(...a);
  const uploadChosen = (...a) => NS.uploadChosen(...a);

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
    // Newer / Older: the neighbours in the list this conversation was opened from (list.js remembers it).
    const neighbours = { newer: null, older: null };
    try {
      const list = JSON.parse(sessionStorage.getItem("inkbox.list") || "null");
      const i = list && list.back === back ? list.rows.findIndex((r) => r.id === tid) : -1;
      if (i >= 0) {
        neighbours.newer = i > 0 ? list.rows[i - 1] : null;
        neighbours.older = i + 1 < list.rows.length ? list.rows[i + 1] : null;
        list.opened = tid;
        sessionStorage.setItem("inkbox.list", JSON.stringify(list));
        $("#thread-pager").hidden = false;
        $("#thread-pager-text").textContent = (i + 1) + " of " + list.rows.length;
        [["newer", "#thread-newer"], ["older", "#thread-older"]].forEach(([k, sel]) => {
          if (neighbours[k]) { $(sel).href = neighbours[k].href; $(sel).hidden = false; }
        });
      }
    } catch (e) { /* ignore */ }
    // `]` / `[` (Gmail): archive this conversation and open the older / newer one (the list when there is none).
    NS.archiveAndGo = (dir) => {
      const to = neighbours[dir] ? neighbours[dir].href : back;
      if ($('#thread-toolbar [data-action="archive"]')) runAction("archive", { ids: [tid] }, null, to);
      else go(to);
      return true;
    };
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
        const said = NS.t(expanded ? "Collapse message from %(who)s" : "Show message from %(who)s", { who: msg.dataset.name });
        toggle.setAttribute("aria-label", NS.t("Show") === "Show" ? (expanded ? "Collapse " : "Show ") + name : said);
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
        setAddrs($("#reply-bcc"), []);
        $("#reply-bcc-row").hidden = true;
        $("#reply-add-bcc").hidden = false;
        $(".ir-mode-icon", form).textContent = m;
        $("#ir-fwd").hidden = m !== "forward";
        if (fwdText) $("#ir-fwd-text").textContent = fwdText;
        form.setAttribute("aria-label", NS.t(m === "forward" ? "Forward" : (m === "reply_all" ? "Reply all" : "Reply")));
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
      $("#reply-add-bcc").addEventListener("click", () => { $("#reply-bcc-row").hidden = false; $("#reply-add-bcc").hidden = true; $("#reply-bcc").focus(); });
      function closeReply() {
        form.reset();
        RTE.setText($("#reply-body"), "");
        fwdAtts = [];
        setAddrs($("#reply-to"), []);
        setAddrs($("#reply-cc"), []);
        setAddrs($("#reply-bcc"), []);
        replyFiles = [];
        renderReplyAtts();
        form.hidden = true;
        bar.hidden = false;
      }
      // Pop out reply (Gmail): the reply moves to the compose window, with what was typed, its recipients and files;
      // it is still a reply in this conversation when sent from there.
      $("#reply-popout").addEventListener("click", () => {
        ["#reply-to", "#reply-cc", "#reply-bcc"].forEach((s) => commitText($(s)));
        const list = (s) => splitAddrs(addrValue($(s)));
        const subject = ($(".thread-subject") || {}).textContent || "";
        NS.openCompose({ reply: { mode: mode, thread_id: Number(form.dataset.thread), in_reply_to_id: Number(form.dataset.irtNow || defaultIrt),
                                  subject: (mode === "forward" ? "Fwd: " : "Re: ") + subject.trim(), back: back,
                                  files: replyFiles.slice(), fwd: mode === "forward" ? fwdAtts.slice() : null },
                         to: list("#reply-to"), cc: list("#reply-cc"), bcc: list("#reply-bcc"),
                         body_html: RTE.html($("#reply-body")) });
        closeReply();
      });
      $$(".msg-reply").forEach((b) => b.addEventListener("click", (e) => {
        e.stopPropagation();
        const msg = b.closest(".msg");
        // Settings > General > Default reply behavior: Reply all makes the message's arrow reply to everyone.
        if (b.dataset.replyAll === "1") openReply("reply_all", msg.dataset.replyAllTo, b.dataset.replyMsg, null, msg.dataset.replyAllCc);
        else openReply("reply", msg.dataset.replyTo, b.dataset.replyMsg);
      }));
      $("#reply-discard").addEventListener("click", closeReply);
      $("#reply-body").addEventListener("keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
      });
      RTE.attach($("#reply-body"), $("#reply-fmt"), $("#reply-format"));
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        await replyPending.catch(() => {});  // files still being added go with this Send
        commitText($("#reply-to"));
        commitText($("#reply-cc"));
        commitText($("#reply-bcc"));
        const to = addrValue($("#reply-to"));
        const cc = addrValue($("#reply-cc"));
        const bcc = addrValue($("#reply-bcc"));
        if (!to.trim() && !cc.trim() && !bcc.trim()) { await alertModal("Error", "Please specify at least one recipient."); return; }
        let r;
        try {
          r = await api("/api/send", { mode: mode, thread_id: Number(form.dataset.thread), in_reply_to_id: Number(form.dataset.irtNow || defaultIrt),
                                       to: to, cc: cc, bcc: bcc, body: RTE.text($("#reply-body")), body_html: RTE.html($("#reply-body")),
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
        if ((restored.bcc || []).length) { setAddrs($("#reply-bcc"), restored.bcc); $("#reply-bcc-row").hidden = false; $("#reply-add-bcc").hidden = true; }
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
      $("#msg-block-text").textContent = NS.t('Block "%(from_name)s"', { from_name: msg.dataset.name });
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

})(window.Inkbox = window.Inkbox || {});
