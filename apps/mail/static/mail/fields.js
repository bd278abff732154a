/* Inkbox, form fields: address inputs with chips and suggestions (To, Cc, Bcc), dates (UTC) and the Pick date & time dialog. */
(function (NS) {
  "use strict";

  const { $, $$, NOW } = NS;
  const closePopovers = (...a) => NS.closePopovers(...a);

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
    x.setAttribute("aria-label", NS.t("Remove %(email)s", { email: addr.email }));
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
    $("#dt-month").textContent = NS.t(MONTHS[mo]) + " " + y;
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
      b.setAttribute("aria-label", NS.t("%(weekday)s, %(month)s %(day)s, %(year)s",
                                        { weekday: NS.t(DAYS[day.getUTCDay()]), month: NS.t(MONTHS[mo]), day: d, year: y }));
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
    title = NS.t(title); okLabel = NS.t(okLabel);
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
      if (!d) { err.textContent = NS.t("Please enter a valid date."); err.hidden = false; return; }
      if (!t) { err.textContent = NS.t("Please enter a valid time, like 8:00 AM."); err.hidden = false; return; }
      const iso = isoLocal(d, t);
      if (iso <= NOW) { err.textContent = NS.t("Please choose a time in the future."); err.hidden = false; return; }
      dtWrap.hidden = true;
      dtState.onSave(iso);
    });
    ["#dt-date", "#dt-time"].forEach((s) => $(s).addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); $("#dt-save").click(); } }));
  }


  Object.assign(NS, { MONTHS, addrValue, commitText, openDatePicker, parseDate, setAddrs });
})(window.Inkbox = window.Inkbox || {});
