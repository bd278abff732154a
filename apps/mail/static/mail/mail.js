/* Inkbox: small hand-written behaviour. No framework, no timers, no client clock.
   icons: check, close, star, reply, reply_all, forward, open_in_full, close_fullscreen, expand_more, expand_less */
(function () {
  "use strict";

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const TOAST_KEY = "inkbox.toast";

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
      throw new Error(data.error || ("Request failed (" + resp.status + ")"));
    }
    return data;
  }

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
            const r = await api("/api/undo", { changes: a.undo });
            storeToast({ text: r.toast || "Action undone." });
            location.reload();
          } catch (err) { alertModal("Error", err.message); }
        });
      }
      el.textContent = a.label;
      actions.appendChild(el);
    });
    box.hidden = false;
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
  function modal(title, text, withCancel) {
    return new Promise((resolve) => {
      const m = $("#modal");
      $("#modal-title").textContent = title;
      $("#modal-text").textContent = text;
      const cancel = $("#modal-cancel");
      const ok = $("#modal-ok");
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
  const confirmModal = (text) => modal("Confirm", text, true);

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
  function closePopovers() {
    popovers.forEach(({ button, panel }) => {
      panel.hidden = true;
      button.setAttribute("aria-expanded", "false");
    });
  }
  document.addEventListener("click", closePopovers);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closePopovers(); });

  /* ------------------------------------------------------------------- rail */
  const app = $("#app");
  const menuBtn = $("#menu-btn");
  try { if (sessionStorage.getItem("inkbox.rail") === "collapsed") app.classList.add("rail-collapsed"); } catch (e) { /* */ }
  if (menuBtn) {
    menuBtn.setAttribute("aria-expanded", app.classList.contains("rail-collapsed") ? "false" : "true");
    menuBtn.addEventListener("click", () => {
      const collapsed = app.classList.toggle("rail-collapsed");
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

  /* --------------------------------------------------------- quick settings */
  popover($("#settings-btn"), $("#settings-panel"));
  const settingsClose = $("#settings-close");
  if (settingsClose) settingsClose.addEventListener("click", closePopovers);
  $$('#settings-panel input[name="density"]').forEach((radio) => radio.addEventListener("change", async () => {
    try {
      await api("/api/settings", { display_density: radio.value });
      location.reload();
    } catch (err) { alertModal("Error", err.message); }
  }));

  /* ------------------------------------------------------- account, search */
  popover($("#account-btn"), $("#account-card"));
  const accountClose = $("#account-close");
  if (accountClose) accountClose.addEventListener("click", closePopovers);
  popover($("#adv-btn"), $("#adv-panel"), () => { const f = $("#adv-from"); if (f) f.focus(); });
  function advancedSearch() {
    const parts = [];
    const quote = (v) => (/\s/.test(v) ? '"' + v.replace(/"/g, "") + '"' : v);
    $$("#adv-panel input[data-op]").forEach((inp) => {
      const v = inp.value.trim();
      if (!v) return;
      const op = inp.dataset.op;
      if (op === "") parts.push(v);
      else if (op === "-") v.split(/\s+/).forEach((w) => parts.push("-" + w));
      else parts.push(op + ":" + quote(v));
    });
    if ($("#adv-att") && $("#adv-att").checked) parts.push("has:attachment");
    if (!parts.length) return;
    location.href = "/search?q=" + encodeURIComponent(parts.join(" "));
  }
  const advSearch = $("#adv-search");
  if (advSearch) advSearch.addEventListener("click", advancedSearch);
  $$("#adv-panel input").forEach((inp) => inp.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); advancedSearch(); }
  }));

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
    img.src = "/avatar?name=" + encodeURIComponent(addr.name || addr.email) + "&s=40";
    const label = document.createElement("span");
    label.className = "chip-text";
    label.textContent = addr.name || addr.email;
    const x = document.createElement("button");
    x.type = "button";
    x.className = "chip-x";
    x.setAttribute("aria-label", "Remove " + addr.email);
    x.innerHTML = '<span class="material-symbols-outlined ms" aria-hidden="true">close</span>';
    x.addEventListener("mousedown", (e) => e.preventDefault());
    x.addEventListener("click", (e) => { e.stopPropagation(); chip.remove(); input.focus(); });
    chip.append(img, label, x);
    input.parentNode.insertBefore(chip, input);
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
  function setAddrs(input, emails) {
    chipsOf(input).forEach((c) => c.remove());
    input.value = "";
    emails.filter(Boolean).forEach((e) => addChip(input, { email: e.toLowerCase(), name: knownNames[e.toLowerCase()] || "" }));
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
      addChip(input, { email: it.email.toLowerCase(), name: it.name });
      knownNames[it.email.toLowerCase()] = it.name;
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
        img.src = "/avatar?name=" + encodeURIComponent(it.name) + "&s=64";
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
        if (chips.length) { e.preventDefault(); chips[chips.length - 1].remove(); }
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

  /* ---------------------------------------------------------------- sending */
  async function send(payload, opts) {
    if (!(payload.to || "").trim() && !(payload.cc || "").trim() && !(payload.bcc || "").trim()) {
      await alertModal("Error", "Please specify at least one recipient.");
      return false;
    }
    if (opts && opts.askSubject && !(payload.subject || "").trim() && !(payload.body || "").trim()) {
      if (!(await confirmModal("Send this message without a subject or text in the body?"))) return false;
    } else if (opts && opts.askSubject && !(payload.subject || "").trim()) {
      if (!(await confirmModal("Send this message without a subject?"))) return false;
    }
    let r;
    try {
      r = await api("/api/send", payload);
    } catch (err) {
      await alertModal("Error", err.message);
      return false;
    }
    storeToast({ text: r.toast || "Message sent", actions: [{ label: "View message", href: "/thread/" + r.thread_id }] });
    location.reload();
    return true;
  }

  /* ---------------------------------------------------------------- compose */
  const compose = $("#compose");
  let backdrop = null;
  function resetCompose() {
    $("#compose-form").reset();
    $$("#compose .addr-chip").forEach((c) => c.remove());
    $("#cc-row").hidden = true;
    $("#bcc-row").hidden = true;
    $("#compose-title").textContent = "New Message";
    compose.classList.remove("minimized");
    setFull(false);
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
  function openCompose() {
    if (!compose) return;
    compose.hidden = false;
    compose.classList.remove("minimized");
    $("#compose-to").focus();
  }
  if (compose) {
    $("#compose-btn").addEventListener("click", openCompose);
    $("#compose-close").addEventListener("click", (e) => { e.stopPropagation(); compose.hidden = true; resetCompose(); });
    $("#compose-discard").addEventListener("click", () => { compose.hidden = true; resetCompose(); });
    $("#compose-min").addEventListener("click", (e) => {
      e.stopPropagation();
      setFull(false);
      const min = compose.classList.toggle("minimized");
      $("#compose-min").setAttribute("aria-label", min ? "Maximize" : "Minimize");
    });
    $("#compose-full").addEventListener("click", (e) => {
      e.stopPropagation();
      compose.classList.remove("minimized");
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
    $("#compose-subject").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("#compose-body").focus(); } });
    $("#compose-body").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); $("#compose-form").requestSubmit(); }
    });
    $("#compose-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = e.target;
      [f.to, f.cc, f.bcc].forEach(commitText);
      await send({
        mode: "new",
        to: addrValue(f.to),
        cc: addrValue(f.cc),
        bcc: addrValue(f.bcc),
        subject: f.subject.value,
        body: f.body.value,
      }, { askSubject: true });
    });
  }

  /* ------------------------------------------------------------- star/imp */
  function setStar(btn, on) {
    btn.classList.toggle("on", on);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.setAttribute("aria-label", on ? "Unstar" : "Star");
    btn.title = on ? "Starred" : "Not starred";
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
    setStar(btn, on);
    const url = btn.dataset.starThread ? "/api/threads/" + btn.dataset.starThread + "/star" : "/api/messages/" + btn.dataset.starMsg + "/star";
    try {
      const r = await api(url, { starred: on });
      setStar(btn, r.starred);
    } catch (err) {
      setStar(btn, !on);
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
  const UNDOABLE = { archive: 1, trash: 1, spam: 1, not_spam: 1, move_to_inbox: 1 };
  async function runAction(action, ids, after) {
    if (!ids.length) return;
    let r;
    try {
      r = await api("/api/threads/action", { action: action, ids: ids });
    } catch (err) {
      alertModal("Error", err.message);
      return;
    }
    if (action !== "mark_read" && action !== "mark_unread") {
      const t = { text: r.toast, actions: [] };
      if (UNDOABLE[action] && r.undo && r.undo.length) t.actions.push({ label: "Undo", undo: r.undo });
      storeToast(t);
    }
    if (after) location.href = after;
    else location.reload();
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
      location.href = row.dataset.href;
    });
    $$("[data-row-action]", row).forEach((btn) => btn.addEventListener("click", (e) => {
      e.stopPropagation();
      runAction(btn.dataset.rowAction, [Number(row.dataset.id)]);
    }));
  });
  const selectAll = $("#select-all");
  function selectedIds() { return $$(".row-cb").filter((cb) => cb.checked).map((cb) => Number(cb.closest(".row").dataset.id)); }
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
  }
  $$(".row-cb").forEach((cb) => cb.addEventListener("change", syncSelection));
  if (selectAll) {
    selectAll.addEventListener("click", () => {
      const any = $$(".row-cb").some((cb) => cb.checked);
      $$(".row-cb").forEach((cb) => { cb.checked = !any; });
      syncSelection();
    });
  }
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
  $$("#tb-selection [data-action]").forEach((btn) => btn.addEventListener("click", () => runAction(btn.dataset.action, selectedIds())));
  const refresh = $("#refresh-btn");
  if (refresh) refresh.addEventListener("click", () => location.reload());
  popover($("#more-btn"), $("#more-menu"));
  const markAll = $("#mark-all-read");
  if (markAll) markAll.addEventListener("click", async () => {
    closePopovers();
    try {
      const r = await api("/api/mark_all_read", { path: location.pathname + location.search });
      storeToast({ text: r.toast });
      location.reload();
    } catch (err) { alertModal("Error", err.message); }
  });

  /* ----------------------------------------------------------------- thread */
  const tt = $("#thread-toolbar");
  if (tt) {
    const tid = Number(tt.dataset.thread);
    const back = tt.dataset.back || "/inbox";
    $$("[data-action]", document).filter((b) => b.closest("#thread-toolbar, .spam-banner")).forEach((btn) => {
      btn.addEventListener("click", () => {
        const a = btn.dataset.action;
        const stay = a === "move_to_inbox" || a === "not_spam";
        runAction(a, [tid], stay ? null : back);
      });
    });
    $$(".msg").forEach((msg) => {
      const toggle = $(".msg-toggle", msg);
      toggle.addEventListener("click", () => {
        if ($$(".msg").length < 2) return;
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
    if (form) {
      const bar = $("#reply-bar");
      let mode = "reply";
      const defaultIrt = form.dataset.irt;
      const openReply = (m, to, irt) => {
        mode = m;
        form.hidden = false;
        bar.hidden = true;
        form.dataset.irtNow = irt || defaultIrt;
        setAddrs($("#reply-to"), (to || "").split(",").map((x) => x.trim()));
        $(".ir-mode-icon", form).textContent = m;
        $("#ir-fwd").hidden = m !== "forward";
        form.setAttribute("aria-label", m === "forward" ? "Forward" : (m === "reply_all" ? "Reply all" : "Reply"));
        if (m === "forward") $("#reply-to").focus();
        else $("#reply-body").focus();
        form.scrollIntoView({ block: "nearest" });
      };
      $$("#reply-bar .pill-btn").forEach((b) => b.addEventListener("click", () => openReply(b.dataset.mode, b.dataset.to)));
      $$(".msg-reply").forEach((b) => b.addEventListener("click", (e) => {
        e.stopPropagation();
        openReply("reply", b.dataset.replyTo, b.dataset.replyMsg);
      }));
      $("#reply-discard").addEventListener("click", () => {
        form.reset();
        setAddrs($("#reply-to"), []);
        form.hidden = true;
        bar.hidden = false;
      });
      $("#reply-body").addEventListener("keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
      });
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        await send({
          mode: mode,
          thread_id: Number(form.dataset.thread),
          in_reply_to_id: Number(form.dataset.irtNow || defaultIrt),
          to: (commitText($("#reply-to")), addrValue($("#reply-to"))),
          body: $("#reply-body").value,
        }, { askSubject: false });
      });
    }
  }

  /* --------------------------------------------------------- stored toast */
  showToast(takeStoredToast());
})();
