/* Stratus CRM front end: menus, modals, comboboxes, lookups, date/time pickers, inline edit,
   list filters, kanban drag, path, composers, typeahead, toasts. Plain JS, event delegation. */
(function () {
  "use strict";
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  const HDR = {"X-Requested-With": "fetch"};
  // The page's UI language (apps/_shared/i18n.py): the catalog the layout hands over in window.CRM.i18n (none in
  // English). t("Close") is the text in the page's language; "%(name)s" in it is filled from `args`.
  const I18N = (window.CRM && window.CRM.i18n) || {};
  function t(text, args) {
    let s = (text && Object.prototype.hasOwnProperty.call(I18N, text)) ? I18N[text] : text;
    if (args && typeof s === "string") s = s.replace(/%\((\w+)\)s/g, (m, k) => (k in args ? String(args[k]) : m));
    return s;
  }
  const tr = t;  // for the handlers whose event target is named `t`
  // Real SLDS glyphs, rendered by the server into <template id="crm-icons"> (see layout.html).
  const ICON = {};
  (function () {
    const tpl = document.getElementById("crm-icons");
    if (!tpl) return;
    tpl.content.querySelectorAll("[data-icon]").forEach((n) => { ICON[n.dataset.icon] = n.innerHTML; });
  })();


  // ------------------------------------------------------------------------ toasts
  function toast(msg, kind) {
    if (!msg) return;
    const root = $("#crm-toasts");
    if (!root) return;
    const el = document.createElement("div");
    el.className = "crm-toast" + (kind === "error" ? " crm-toast_error" : kind === "info" ? " crm-toast_info" : "");
    el.setAttribute("role", kind === "error" ? "alert" : "status");
    el.innerHTML = (kind === "error" ? ICON.error : ICON.success) + '<span class="crm-toast__msg">' + esc(msg) + "</span>" +
      '<button class="slds-button slds-button_icon crm-toast__close" aria-label="' + esc(t("Close notification")) + '" title="' + esc(t("Close")) + '">' + ICON.close + "</button>";
    root.appendChild(el);
    el.querySelector(".crm-toast__close").addEventListener("click", () => el.remove());
    setTimeout(() => el.remove(), 4500);
  }
  function queueToast(msg) { if (msg) try { sessionStorage.setItem("crm_toast", msg); } catch (e) { /* ignore */ } }
  function flushToast() {
    try {
      const m = sessionStorage.getItem("crm_toast");
      if (m) { sessionStorage.removeItem("crm_toast"); toast(m); }
    } catch (e) { /* ignore */ }
  }

  // -------------------------------------------------------------------- responses
  function handle(data, form) {
    if (!data) return;
    if (data.ok) {
      if (data.reopen) { closeModal(); openModal(data.reopen); toast(data.toast); return; }
      if (data.html) { showModalHTML(data.html); toast(data.toast); return; }
      if (data.redirect) { queueToast(data.toast); location.href = data.redirect; return; }
      if (data.reload) { queueToast(data.toast); location.reload(); return; }
      toast(data.toast);
      return;
    }
    if (data.html) {
      const inModal = form && form.closest("#crm-modal-root");
      showModalHTML(data.html);
      if (!inModal) toast(t("We hit a snag."), "error");
      return;
    }
    if (data.errors && form) markErrors(form, data.errors);
    toast(data.message || t("We hit a snag."), "error");
  }
  function markErrors(form, errors) {
    $$(".slds-has-error", form).forEach((el) => {
      el.classList.remove("slds-has-error");
      const h = el.querySelector(".crm-js-help"); if (h) h.remove();
    });
    Object.keys(errors || {}).forEach((name) => {
      const field = form.querySelector('[data-field="' + name + '"]') || form.querySelector('[name="' + name + '"]')?.closest(".slds-form-element");
      if (!field) return;
      field.classList.add("slds-has-error");
      const h = document.createElement("div");
      h.className = "slds-form-element__help crm-js-help";
      h.setAttribute("role", "alert");
      h.textContent = typeof errors[name] === "string" ? errors[name] : "Check this field.";
      field.appendChild(h);
    });
  }
  async function post(url, body, isJson) {
    const opts = {method: "POST", headers: Object.assign({}, HDR)};
    if (isJson) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body || {}); }
    else if (body instanceof FormData) opts.body = body;
    else { const fd = new FormData(); Object.entries(body || {}).forEach(([k, v]) => fd.append(k, v)); opts.body = fd; }
    const r = await fetch(url, opts);
    const ct = r.headers.get("content-type") || "";
    if (ct.includes("json")) return r.json();
    return {ok: false, message: "Something went wrong (" + r.status + ")."};
  }

  // Native form posts: the server answers 303 -> page (or the page with an error modal), so every
  // state change is a real navigation (the gym's settle logic waits for it).
  function here() { return location.pathname + location.search; }
  // An error page is the answer to a POST: show the URL of the page it came from.
  if (window.CRM && window.CRM.back && window.CRM.back !== here()) history.replaceState(null, "", window.CRM.back);
  function submitPost(url, fields) {
    const f = document.createElement("form");
    f.method = "post";
    f.action = url;
    f.hidden = true;
    Object.entries(Object.assign({_back: here()}, fields || {})).forEach(([k, v]) => {
      const i = document.createElement("input");
      i.type = "hidden"; i.name = k; i.value = v == null ? "" : String(v);
      f.appendChild(i);
    });
    document.body.appendChild(f);
    f.submit();
  }

  // ------------------------------------------------------------------------ modals
  function setBackgroundInert(on) {
    $$("body > header, body > main, body > .crm-band").forEach((el) => {
      if (on) { el.setAttribute("aria-hidden", "true"); el.inert = true; }
      else { el.removeAttribute("aria-hidden"); el.inert = false; }
    });
  }
  function showModalHTML(html) {
    const root = $("#crm-modal-root");
    root.innerHTML = html;
    setBackgroundInert(!!root.querySelector(".slds-modal"));
    initWithin(root);
    const first = root.querySelector(".slds-modal__content input:not([type=hidden]):not([readonly]), .slds-modal__content textarea");
    if (first && !first.closest("[hidden]")) { try { first.focus({preventScroll: true}); } catch (e) { /* ignore */ } }
  }
  async function openModal(url) {
    closeMenus();
    const r = await fetch(url, {headers: HDR});
    if (!r.ok) { toast(t("That action isn't available."), "error"); return; }
    const ct = r.headers.get("content-type") || "";
    if (ct.includes("json")) { handle(await r.json()); return; }
    showModalHTML(await r.text());
  }
  function closeModal() {
    const root = $("#crm-modal-root");
    if (!root) return;
    const reload = root.querySelector("[data-reload-on-close]");
    root.innerHTML = "";
    setBackgroundInert(false);
    if (reload) location.reload();
  }

  // ------------------------------------------------------------------------- menus
  function closeMenus(except) {
    $$("[data-menu].slds-is-open").forEach((m) => {
      if (except && (m === except || m.contains(except))) return;
      m.classList.remove("slds-is-open");
      const t = m.querySelector("[data-menu-toggle]"); if (t) t.setAttribute("aria-expanded", "false");
    });
  }
  async function toggleMenu(btn) {
    const menu = btn.closest("[data-menu]");
    const open = !menu.classList.contains("slds-is-open");
    closeMenus(menu);
    closeCombos();
    if (open && btn.dataset.lazy) {
      const target = $(btn.dataset.target);
      const r = await fetch(btn.dataset.lazy, {headers: HDR});
      target.innerHTML = await r.text();
    }
    menu.classList.toggle("slds-is-open", open);
    btn.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) { const s = menu.querySelector("input[type=search]"); if (s) s.focus({preventScroll: true}); }
  }

  // Dropdowns inside scroll areas (modals, the filters panel) are placed with fixed positioning so
  // they are never clipped; below the field when there is room, else above; they scroll themselves.
  function placeDropdown(combo) {
    const dd = combo.querySelector(".slds-dropdown, .crm-datepicker");
    if (!dd) return;
    if (!combo.closest(".slds-modal__content, .crm-filter-panel__body, .crm-filter-editor, .crm-builder__panel")) return;  // the builder panel too: near the screen's bottom its pickers open upward
    const r = combo.querySelector(".slds-combobox__form-element, .slds-form-element__control, input") ?
      combo.querySelector(".slds-combobox__form-element, .slds-form-element__control, input").getBoundingClientRect() : combo.getBoundingClientRect();
    const below = window.innerHeight - r.bottom - 8;
    const above = r.top - 8;
    dd.classList.add("crm-dd-fixed");
    dd.style.left = r.left + "px";
    dd.style.width = Math.max(r.width, 180) + "px";
    dd.style.minWidth = "0";
    const want = Math.min(dd.scrollHeight || 280, 280);
    if (below >= want || below >= above) {
      dd.style.top = (r.bottom + 2) + "px"; dd.style.bottom = "auto"; dd.style.maxHeight = Math.max(80, Math.min(280, below)) + "px";
    } else {
      dd.style.top = "auto"; dd.style.bottom = (window.innerHeight - r.top + 2) + "px"; dd.style.maxHeight = Math.max(80, Math.min(280, above)) + "px";
    }
  }

  // ---------------------------------------------------------------------- picklists
  function closeCombos(except) {
    $$(".slds-combobox.slds-is-open, [data-datepicker].slds-is-open").forEach((c) => {
      if (except && (c === except || c.contains(except))) return;
      c.classList.remove("slds-is-open");
      const b = c.querySelector("[aria-expanded]"); if (b) b.setAttribute("aria-expanded", "false");
      const dp = c.querySelector(".crm-datepicker"); if (dp) dp.remove();
    });
  }
  function setPicklist(combo, opt) {
    const value = opt.dataset.value;
    combo.querySelector("input[type=hidden]").value = value;
    const label = value === "" ? "--None--" : (opt.textContent || "").trim();
    combo.querySelector(".crm-picklist__value").textContent = label;
    $$("[role=option]", combo).forEach((o) => {
      const sel = o === opt;
      o.setAttribute("aria-selected", sel ? "true" : "false");
      o.classList.toggle("slds-is-selected", sel);
      const fig = o.querySelector(".slds-listbox__option-icon"); if (fig) fig.innerHTML = sel ? ICON.check : "";
    });
    combo.classList.remove("slds-is-open");
    combo.querySelector("[role=combobox]").setAttribute("aria-expanded", "false");
    combo.dispatchEvent(new CustomEvent("crm:change", {bubbles: true, detail: {value}}));
  }

  // ------------------------------------------------------------------------ lookups
  // Typing fires one input event per key: keep at most one request in flight per box, and when it
  // returns run once more if the text changed meanwhile (the last request always sees the final text).
  const flights = new Map();
  function coalesce(key, fn) {
    const st = flights.get(key);
    if (st) { st.again = true; return; }
    const s = {again: false};
    flights.set(key, s);
    (async () => {
      try { do { s.again = false; await fn(); } while (s.again); }
      finally { flights.delete(key); }
    })();
  }
  function runLookup(combo) { coalesce(combo, () => lookupOnce(combo)); }
  let lookupSeq = 0;
  async function lookupOnce(combo) {
    const input = combo.querySelector("input[role=combobox]");
    const box = combo.querySelector("[role=listbox]");
    const q = input.value.trim();
    const seq = ++lookupSeq;
    combo.dataset.seq = seq;
    box.innerHTML = '<div class="crm-lookup__heading" role="presentation">' + (q ? esc(t("Searching...")) : "") + "</div>";
    combo.classList.add("slds-is-open");
    input.setAttribute("aria-expanded", "true");
    placeDropdown(combo);
    const r = await fetch("/crm/api/lookup?objects=" + encodeURIComponent(combo.dataset.objects) + "&q=" + encodeURIComponent(q), {headers: HDR});
    const data = await r.json();
    if (String(seq) !== combo.dataset.seq) return;
    let html = "";
    if (data.heading) html += '<div class="crm-lookup__heading" role="presentation">' + esc(data.heading) + "</div>";
    html += '<ul class="slds-listbox slds-listbox_vertical" role="presentation">';
    data.results.forEach((x) => {
      html += '<li role="presentation" class="slds-listbox__item"><div class="slds-media slds-listbox__option slds-listbox__option_entity slds-listbox__option_has-meta" role="option" aria-selected="false" aria-label="' + esc(x.label) + '" data-value="' + esc(x.value) + '" data-label="' + esc(x.label) + '" data-icon-html="' + esc(x.icon_html) + '">' +
        '<span class="slds-media__figure slds-listbox__option-icon">' + x.icon_html + "</span>" +
        '<span class="slds-media__body"><span class="slds-listbox__option-text slds-listbox__option-text_entity">' + esc(x.label) + "</span>" +
        '<span class="slds-listbox__option-meta slds-listbox__option-meta_entity">' + esc(x.meta || "") + "</span></span></div></li>";
    });
    if (!data.results.length) html += '<li role="presentation" class="slds-listbox__item"><div class="crm-lookup__heading">No results for "' + esc(q) + '"</div></li>';
    html += "</ul>";
    box.innerHTML = html;
    placeDropdown(combo);
  }
  function selectLookup(combo, opt) {
    const input = combo.querySelector("input[role=combobox]");
    combo.querySelector("input[type=hidden]").value = opt.dataset.value;
    input.value = opt.dataset.label;
    input.readOnly = true;
    input.classList.add("slds-combobox__input-value");
    const ent = combo.querySelector(".crm-lookup__entity");
    ent.innerHTML = opt.dataset.iconHtml || ent.innerHTML;
    ent.hidden = false;
    combo.querySelector(".crm-lookup__search").hidden = true;
    combo.querySelector(".crm-lookup__clear").hidden = false;
    const fe = combo.querySelector(".slds-combobox__form-element");
    fe.classList.remove("slds-input-has-icon_right"); fe.classList.add("slds-input-has-icon_left-right");
    combo.closest(".slds-combobox_container").classList.add("slds-has-selection");
    combo.classList.remove("slds-is-open");
    input.setAttribute("aria-expanded", "false");
    combo.dispatchEvent(new CustomEvent("crm:change", {bubbles: true, detail: {value: opt.dataset.value}}));
  }
  function clearLookup(combo) {
    const input = combo.querySelector("input[role=combobox]");
    combo.querySelector("input[type=hidden]").value = "";
    input.value = ""; input.readOnly = false;
    input.classList.remove("slds-combobox__input-value");
    combo.querySelector(".crm-lookup__entity").hidden = true;
    combo.querySelector(".crm-lookup__search").hidden = false;
    combo.querySelector(".crm-lookup__clear").hidden = true;
    const fe = combo.querySelector(".slds-combobox__form-element");
    fe.classList.add("slds-input-has-icon_right"); fe.classList.remove("slds-input-has-icon_left-right");
    combo.closest(".slds-combobox_container").classList.remove("slds-has-selection");
    input.focus();
  }

  // --------------------------------------------------------------------- date picker
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  function parseMDY(s) {
    const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec((s || "").trim());
    return m ? new Date(Date.UTC(+m[3], +m[1] - 1, +m[2])) : null;
  }
  function today() { const d = new Date(window.CRM.now + "Z"); return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())); }
  function renderPicker(wrap, year, month) {
    let dp = wrap.querySelector(".crm-datepicker");
    if (!dp) { dp = document.createElement("div"); dp.className = "slds-datepicker crm-datepicker slds-dropdown"; dp.setAttribute("role", "dialog"); dp.setAttribute("aria-label", tr("Date picker")); wrap.appendChild(dp); }
    const input = wrap.querySelector("input");
    const sel = parseMDY(input.value);
    const t = today();
    const first = new Date(Date.UTC(year, month, 1));
    const startDay = first.getUTCDay();
    const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    let html = '<div class="slds-datepicker__filter slds-grid"><div class="slds-datepicker__filter_month slds-grid slds-grid_align-spread slds-grow">' +
      '<button type="button" class="slds-button slds-button_icon-container" data-dp-nav="-1" aria-label="Previous Month" title="Previous Month">&#8249;</button>' +
      '<h2 class="slds-align-middle" aria-live="assertive">' + MONTHS[month] + " " + year + "</h2>" +
      '<button type="button" class="slds-button slds-button_icon-container" data-dp-nav="1" aria-label="Next Month" title="Next Month">&#8250;</button></div></div>' +
      '<table class="slds-datepicker__month" role="grid"><thead><tr>' + ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map((d) => '<th scope="col"><abbr title="' + d + '">' + d + "</abbr></th>").join("") + "</tr></thead><tbody><tr>";
    for (let i = 0; i < startDay; i++) html += '<td class="slds-day_adjacent-month" role="gridcell"></td>';
    for (let d = 1; d <= days; d++) {
      const dt = new Date(Date.UTC(year, month, d));
      const isSel = sel && +sel === +dt, isToday = +t === +dt;
      html += '<td role="gridcell" class="' + (isSel ? "slds-is-selected " : "") + (isToday ? "slds-is-today" : "") + '"><span class="slds-day" role="button" tabindex="-1" data-dp-day="' + (month + 1) + "/" + d + "/" + year + '" aria-label="' + MONTHS[month] + " " + d + ", " + year + '">' + d + "</span></td>";
      if ((startDay + d) % 7 === 0 && d < days) html += "</tr><tr>";
    }
    html += '</tr></tbody></table><button type="button" class="slds-button slds-align_absolute-center slds-text-link" data-dp-day="' + (t.getUTCMonth() + 1) + "/" + t.getUTCDate() + "/" + t.getUTCFullYear() + '">Today</button>';
    dp.innerHTML = html;
    dp.dataset.year = year; dp.dataset.month = month;
    wrap.classList.add("slds-is-open");
    placeDropdown(wrap);
  }

  // -------------------------------------------------------------------- typeahead
  let searchSeq = 0;
  function runSearch() { coalesce("global-search", searchOnce); }
  async function searchOnce() {
    const input = $("#crm-search-input");
    const box = $("#crm-search-listbox");
    const combo = $("#crm-search-combo");
    const q = input.value.trim();
    const seq = ++searchSeq;
    box.innerHTML = q ? '<div class="crm-lookup__heading">' + esc(t("Searching...")) + '</div>' : "";
    const r = await fetch("/crm/api/search?q=" + encodeURIComponent(q), {headers: HDR});
    const data = await r.json();
    if (seq !== searchSeq) return;
    let html = "";
    if (data.heading) html += '<div class="crm-lookup__heading" role="presentation">' + esc(data.heading) + "</div>";
    html += '<ul class="slds-listbox slds-listbox_vertical" role="presentation">';
    data.results.forEach((x) => {
      html += '<li role="presentation" class="slds-listbox__item"><a href="' + esc(x.url) + '" class="slds-media slds-listbox__option slds-listbox__option_entity slds-listbox__option_has-meta" role="option" aria-selected="false" aria-label="' + esc(x.label) + '">' +
        '<span class="slds-media__figure slds-listbox__option-icon">' + x.icon_html + '</span><span class="slds-media__body"><span class="slds-listbox__option-text slds-listbox__option-text_entity">' + esc(x.label) + '</span><span class="slds-listbox__option-meta slds-listbox__option-meta_entity">' + esc(x.meta) + "</span></span></a></li>";
    });
    if (q) html += '<li role="presentation" class="slds-listbox__item crm-search__more"><a href="/lightning/search?q=' + encodeURIComponent(q) + '" class="slds-media slds-listbox__option slds-listbox__option_plain" role="option" aria-selected="false"><span class="slds-media__body">Show more results for "' + esc(q) + '"</span></a></li>';
    html += "</ul>";
    box.innerHTML = html;
    combo.classList.add("slds-is-open");
    input.setAttribute("aria-expanded", "true");
  }

  // --------------------------------------------------------------------- list views
  function selectedIds() { return $$(".crm-row-check:checked").map((c) => c.value); }
  function syncSelection() {
    const n = selectedIds().length;
    $$("[data-mass]").forEach((b) => { b.disabled = n === 0; });
    $$(".crm-row-check").forEach((c) => c.closest("tr").setAttribute("aria-selected", c.checked ? "true" : "false"));
    const all = $("#crm-select-all");
    if (all) { const boxes = $$(".crm-row-check"); all.checked = boxes.length > 0 && n === boxes.length; }
  }
  let loadingRows = false;
  async function maybeLoadMore(wrap) {
    if (loadingRows || !wrap.dataset.nextOffset) return;
    if (wrap.scrollTop + wrap.clientHeight < wrap.scrollHeight - 60) return;
    loadingRows = true;
    const url = new URL(wrap.dataset.rowsUrl, location.origin);
    url.searchParams.set("offset", wrap.dataset.nextOffset);
    url.searchParams.set("partial", "rows");
    const r = await fetch(url, {headers: HDR});
    const html = await r.text();
    const tbody = $("#crm-list-rows");
    tbody.insertAdjacentHTML("beforeend", html);
    const got = (html.match(/<tr /g) || []).length;
    const next = +wrap.dataset.nextOffset + 50;
    wrap.dataset.nextOffset = got >= 50 ? String(next) : "";
    loadingRows = false;
  }

  // inline edit
  const pending = {};
  function openCellEditor(btn) {
    closeCellEditor();
    const cell = btn.closest("td, th");
    const type = btn.dataset.type;
    const ed = document.createElement("div");
    ed.className = "crm-cell-editor";
    ed.setAttribute("role", "dialog");
    ed.setAttribute("aria-label", t("Edit %(label)s", {label: t(btn.dataset.label)}));
    const key = btn.dataset.id + ":" + btn.dataset.field;
    const cur = key in pending ? pending[key].value : btn.dataset.value;
    if (type === "picklist") {
      const meta = JSON.parse(($("#crm-filter-meta") || {}).textContent || "{}");
      const f = (meta.fields || []).find((x) => x.name === btn.dataset.field) || {options: []};
      let html = '<div class="slds-form-element__label">' + esc(t(btn.dataset.label)) + '</div><ul class="slds-listbox slds-listbox_vertical" role="listbox" aria-label="' + esc(t(btn.dataset.label)) + '">';
      ["", ...f.options].forEach((o) => {
        html += '<li role="presentation" class="slds-listbox__item"><div class="slds-listbox__option slds-listbox__option_plain slds-media slds-media_small' + (o === cur ? " slds-is-selected" : "") + '" role="option" aria-selected="' + (o === cur) + '" data-cell-value="' + esc(o) + '"><span class="slds-media__body">' + (o ? esc(o) : "--None--") + "</span></div></li>";
      });
      ed.innerHTML = html + "</ul>";
    } else {
      ed.innerHTML = '<label class="slds-form-element__label" for="crm-cell-input">' + esc(t(btn.dataset.label)) + '</label><input id="crm-cell-input" class="slds-input" type="text" value="' + esc(cur) + '" autocomplete="off">';
    }
    document.body.appendChild(ed);
    const r = cell.getBoundingClientRect();
    ed.style.left = Math.min(r.left, window.innerWidth - 270) + "px";
    ed.style.top = r.top + window.scrollY + "px";
    ed.style.position = "absolute";
    ed._btn = btn;
    const inp = ed.querySelector("input");
    if (inp) { inp.focus(); inp.select(); }
  }
  function commitCell(ed, value) {
    const btn = ed._btn;
    const key = btn.dataset.id + ":" + btn.dataset.field;
    if (value !== btn.dataset.value || key in pending) {
      pending[key] = {id: btn.dataset.id, field: btn.dataset.field, value: value};
      const cell = btn.closest("td, th");
      cell.classList.add("crm-is-edited");
      const v = cell.querySelector(".crm-cell__value");
      v.textContent = value;
      $("#crm-inline-bar").hidden = false;
      $("#crm-inline-msg").textContent = Object.keys(pending).length + " item" + (Object.keys(pending).length === 1 ? "" : "s") + " edited";
    }
    ed.remove();
  }
  function closeCellEditor(commit) {
    const ed = $(".crm-cell-editor");
    if (!ed) return;
    if (commit) { const inp = ed.querySelector("input"); if (inp) { commitCell(ed, inp.value); return; } }
    ed.remove();
  }

  // list filters panel
  function filtersState() {
    const node = $("#crm-filter-meta");
    if (!node) return null;
    if (!window._crmFilters) {
      const meta = JSON.parse(node.textContent);
      window._crmFilters = {meta, scope: meta.scope, filters: (meta.filters || []).map((f) => Object.assign({}, f)), editing: null,
        logic: meta.filter_logic || "", logicOn: !!meta.filter_logic};
    }
    return window._crmFilters;
  }
  function fieldMeta(st, name) { return st.meta.fields.find((f) => f.name === name); }
  function describeFilter(st, f) {
    const fm = fieldMeta(st, f.field);
    const val = String(f.value || "").split(",").filter(Boolean).join(", ");
    return {field: fm ? t(fm.label) : f.field, text: t(st.meta.ops[f.op] || f.op) + " " + (val || '""')};
  }
  function picklistHTML(id, label, options, value, attrs) {
    let h = '<div class="slds-form-element crm-field"><span class="slds-form-element__label" id="' + id + '-label">' + esc(label) + '</span><div class="slds-form-element__control"><div class="slds-combobox_container"><div class="slds-combobox slds-dropdown-trigger slds-dropdown-trigger_click crm-picklist" data-picklist ' + (attrs || "") + '>' +
      '<div class="slds-combobox__form-element slds-input-has-icon slds-input-has-icon_right" role="none"><button type="button" class="slds-input_faux slds-combobox__input" id="' + id + '" role="combobox" aria-label="' + esc(label) + '" aria-expanded="false" aria-haspopup="listbox" aria-controls="' + id + '-lb"><span class="slds-truncate crm-picklist__value">' + esc(options.find((o) => o[0] === value)?.[1] || t("Select an Option")) + "</span></button></div>" +
      '<div id="' + id + '-lb" class="slds-dropdown slds-dropdown_length-7 slds-dropdown_fluid" role="listbox" aria-label="' + esc(label) + '"><ul class="slds-listbox slds-listbox_vertical" role="presentation">';
    options.forEach(([v, l]) => {
      h += '<li role="presentation" class="slds-listbox__item"><div class="slds-media slds-listbox__option slds-listbox__option_plain slds-media_small' + (v === value ? " slds-is-selected" : "") + '" role="option" aria-selected="' + (v === value) + '" data-value="' + esc(v) + '"><span class="slds-media__figure slds-listbox__option-icon">' + (v === value ? ICON.check : "") + '</span><span class="slds-media__body"><span class="slds-truncate">' + esc(l) + "</span></span></div></li>";
    });
    return h + '</ul></div><input type="hidden" value="' + esc(value || "") + '"></div></div></div></div>';
  }
  function renderFilters() {
    const st = filtersState();
    const root = $("#crm-filters-editor");
    if (!st || !root) return;
    const locked = st.meta.standard;
    const plural = st.meta.plural;
    let html = '<div class="crm-filter-heading"><span>' + esc(t("Filter by Owner")) + '</span></div>';
    html += '<div class="crm-filter-item"><button type="button" class="crm-filter-item__btn" data-filter-edit="scope"' + (locked ? " disabled" : "") + ' aria-label="' + esc(t("Filter by Owner: " + (st.scope === "mine" ? "My " : "All ") + plural.toLowerCase())) + '"><span class="crm-filter-item__field">' + esc(t("Show Me")) + '</span><span class="crm-filter-item__value">' + esc(t((st.scope === "mine" ? "My " : st.scope === "delegated" ? "Delegated " : "All ") + plural.toLowerCase())) + "</span></button></div>";
    if (st.editing === "scope") {
      html += '<div class="crm-filter-editor" role="group" aria-label="Filter by Owner">' +
        '<fieldset class="slds-form-element"><div class="slds-form-element__control">' +
        ["all", "mine"].map((v) => '<span class="slds-radio"><input type="radio" id="crm-scope-' + v + '" name="crm-scope" value="' + v + '"' + (st.scope === v ? " checked" : "") + '><label class="slds-radio__label" for="crm-scope-' + v + '"><span class="slds-radio_faux"></span><span class="slds-form-element__label">' + esc(t((v === "mine" ? "My " : "All ") + plural.toLowerCase())) + "</span></label></span>").join("") +
        '</div></fieldset><div class="crm-filter-actions"><span></span><button type="button" class="slds-button slds-button_neutral" data-filter-done>' + esc(t("Done")) + '</button></div></div>';
    }
    html += '<div class="crm-filter-heading"><span>' + esc(t(st.logicOn ? "Matching these filters by the filter logic" : "Matching all of these filters")) + '</span></div>';
    st.filters.forEach((f, i) => {
      const d = describeFilter(st, f);
      html += '<div class="crm-filter-item' + (f._new ? " crm-is-new" : "") + '"><button type="button" class="crm-filter-item__btn" data-filter-edit="' + i + '"' + (locked ? " disabled" : "") + ' aria-label="' + esc(t("Edit filter: %(filter)s", {filter: d.field + " " + d.text})) + '"><span class="crm-filter-item__field">' + (st.logicOn ? '<span class="crm-filter-item__num">' + (i + 1) + '. </span>' : "") + esc(d.field) + '</span><span class="crm-filter-item__value">' + esc(d.text) + "</span></button>" +
        (locked ? "" : '<button type="button" class="slds-button slds-button_icon slds-button_icon-small crm-filter-item__remove" data-filter-remove="' + i + '" aria-label="' + esc(t("Remove filter %(labels)s", {labels: d.field})) + '" title="' + esc(t("Remove")) + '">' + ICON.close + "</button>") + "</div>";
      if (st.editing === i) {
        const fm = fieldMeta(st, f.field) || st.meta.fields[0];
        const fieldOpts = st.meta.fields.map((x) => [x.name, t(x.label)]);
        const opOpts = (fm ? fm.ops : []).map((o) => [o, t(st.meta.ops[o])]);
        html += '<div class="crm-filter-editor" role="group" aria-label="' + esc(t("Filter editor")) + '">' +
          picklistHTML("crm-flt-field", t("Field"), fieldOpts, f.field, 'data-flt="field"') +
          picklistHTML("crm-flt-op", t("Operator"), opOpts, f.op, 'data-flt="op"');
        if (fm && fm.type === "picklist") {
          const vals = String(f.value || "").split(",").filter(Boolean);
          html += '<fieldset class="slds-form-element"><legend class="slds-form-element__label">' + esc(t("Value")) + '</legend><div class="crm-check-list" role="group" aria-label="' + esc(t("Value")) + '">' +
            fm.options.map((o, k) => '<div class="slds-checkbox"><input type="checkbox" id="crm-flt-v' + k + '" value="' + esc(o) + '"' + (vals.includes(o) ? " checked" : "") + ' data-flt-check><label class="slds-checkbox__label" for="crm-flt-v' + k + '"><span class="slds-checkbox_faux"></span><span class="slds-form-element__label">' + esc(o) + "</span></label></div>").join("") + "</div></fieldset>";
        } else if (fm && fm.type === "checkbox") {
          html += picklistHTML("crm-flt-bool", t("Value"), [["True", "True"], ["False", "False"]], f.value || "True", 'data-flt="value"');
        } else {
          html += '<div class="slds-form-element"><label class="slds-form-element__label" for="crm-flt-value">' + esc(t("Value")) + '</label><div class="slds-form-element__control"><input id="crm-flt-value" class="slds-input" type="text" value="' + esc(f.value || "") + '" data-flt-value autocomplete="off"></div></div>';
        }
        html += '<div class="crm-filter-actions"><span></span><button type="button" class="slds-button slds-button_neutral" data-filter-done>' + esc(t("Done")) + '</button></div></div>';
      }
    });
    if (!locked) {
      html += '<div class="slds-grid slds-grid_align-spread slds-m-top_small"><button type="button" class="slds-button" data-filter-add>' + esc(t("Add Filter")) + '</button>' +
        (st.filters.length ? '<button type="button" class="slds-button slds-button_text-destructive" data-filter-clear>' + esc(t("Remove All")) + '</button>' : "") + "</div>";
      // Filter logic (Salesforce's "Add Filter Logic"): how the numbered filters combine, e.g. 1 AND (2 OR 3).
      if (st.logicOn) {
        html += '<div class="slds-form-element slds-m-top_small"><label class="slds-form-element__label" for="crm-flt-logic">' + esc(t("Filter Logic")) + '</label>' +
          '<div class="slds-form-element__control"><input id="crm-flt-logic" class="slds-input" type="text" maxlength="120" value="' + esc(st.logic) + '" placeholder="1 AND (2 OR 3)" data-flt-logic autocomplete="off"></div>' +
          '<button type="button" class="slds-button slds-m-top_xx-small" data-filter-logic-remove>' + esc(t("Remove Filter Logic")) + '</button></div>';
      } else if (st.filters.length >= 2) {
        html += '<div class="slds-m-top_small"><button type="button" class="slds-button" data-filter-logic-add>' + esc(t("Add Filter Logic")) + '</button></div>';
      }
    }
    root.innerHTML = html;
  }
  function readLogic() {
    const st = filtersState();
    const box = $("[data-flt-logic]");
    if (st && box) st.logic = box.value;
  }
  function readEditor() {
    readLogic();
    const st = filtersState();
    if (typeof st.editing !== "number") return;
    const f = st.filters[st.editing];
    const v = $("[data-flt-value]");
    if (v) f.value = v.value.trim();
    const checks = $$("[data-flt-check]");
    if (checks.length) f.value = checks.filter((c) => c.checked).map((c) => c.value).join(",");
  }

  // ---------------------------------------------------------------------- kanban
  let drag = null;
  function kanbanDown(e) {
    const card = e.target.closest(".crm-kanban__card");
    if (!card || e.button !== 0) return;
    drag = {card, x: e.clientX, y: e.clientY, started: false, ghost: null, over: null};
  }
  function kanbanMove(e) {
    if (!drag) return;
    if (!drag.started) {
      if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) < 6) return;
      drag.started = true;
      const g = drag.card.cloneNode(true);
      g.classList.add("crm-kanban__ghost");
      g.removeAttribute("aria-label");
      g.setAttribute("aria-hidden", "true");
      document.body.appendChild(g);
      drag.ghost = g;
      drag.card.classList.add("crm-dragging");
    }
    e.preventDefault();
    drag.ghost.style.left = (e.clientX - 90) + "px";
    drag.ghost.style.top = (e.clientY - 20) + "px";
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const col = under && under.closest(".crm-kanban__col");
    const zone = col && col.querySelector("[data-drop]");
    if (drag.over && drag.over !== zone) drag.over.classList.remove("crm-drop-hover");
    if (zone) zone.classList.add("crm-drop-hover");
    drag.over = zone;
  }
  async function kanbanUp() {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.started) return;
    d.ghost.remove();
    d.card.classList.remove("crm-dragging");
    window._crmSuppressClick = true;
    setTimeout(() => { window._crmSuppressClick = false; }, 50);
    if (!d.over) return;
    d.over.classList.remove("crm-drop-hover");
    const from = d.card.closest("[data-drop]");
    if (from === d.over) return;
    d.over.prepend(d.card);
    const stage = d.over.dataset.drop;
    const amount = +d.card.dataset.amount || 0;
    updateColumn(from, -amount);
    updateColumn(d.over, amount);
    const data = await post("/crm/api/kanban/move", {id: d.card.dataset.id, stage: stage}, true);
    if (data.ok) toast(data.toast); else handle(data);
  }
  function updateColumn(zone, delta) {
    const col = zone.closest(".crm-kanban__col");
    const n = zone.querySelectorAll(".crm-kanban__card").length;
    col.querySelector(".crm-kanban__count").textContent = "(" + n + ")";
    const sumEl = col.querySelector(".crm-kanban__sum");
    const sum = (+sumEl.dataset.sum || 0) + delta;
    sumEl.dataset.sum = sum;
    const loc = document.documentElement.dataset.locale || "en-US";  // the page's locale (apps/_shared/locale.py)
    sumEl.textContent = loc === "en-US" ? "$" + sum.toLocaleString("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2})
      : new Intl.NumberFormat(loc, {style: "currency", currency: "USD"}).format(sum);
  }

  // ------------------------------------------------------------------------ path
  function pathSelect(link) {
    const path = link.closest("[data-path]");
    $$(".slds-path__item", path).forEach((li) => li.classList.remove("crm-path-selected"));
    link.closest(".slds-path__item").classList.add("crm-path-selected");
    path.dataset.selected = link.dataset.value;
    const btn = path.querySelector("[data-path-action]");
    const cur = path.dataset.current;
    const sel = link.dataset.value;
    if (sel === cur) btn.innerHTML = (btn.dataset.completeIcon ? ICON.btncheck : "") + esc(btn.dataset.completeLabel);
    else if (sel === "Closed" && path.dataset.obj !== "Case") btn.textContent = btn.dataset.closedLabel;
    else btn.textContent = btn.dataset.currentLabel;
    $$("[data-guidance]", path).forEach((p) => { p.hidden = p.dataset.guidance !== sel; });
  }
  async function pathAction(btn) {
    const path = btn.closest("[data-path]");
    const steps = $$(".slds-path__link", path).map((a) => a.dataset.value);
    const cur = path.dataset.current;
    let target = path.dataset.selected || cur;
    if (target === cur) {
      if (cur === "Closed") target = "Closed";
      else target = steps[Math.min(steps.indexOf(cur) + 1, steps.length - 1)];
    }
    if (target === "Closed" && path.dataset.obj !== "Case") { openModal(path.dataset.url); return; }
    submitPost(path.dataset.url, {value: target});
  }

  // ------------------------------------------------------------------ delegation
  document.addEventListener("click", async (e) => {
    const t = e.target;
    if (window._crmSuppressClick && t.closest(".crm-kanban__card")) { e.preventDefault(); e.stopPropagation(); return; }
    let el;
    // cell editor outside click commits
    const ed = $(".crm-cell-editor");
    if (ed && !ed.contains(t) && !t.closest("[data-inline-edit]")) closeCellEditor(true);

    if ((el = t.closest("[data-menu-toggle]"))) { e.preventDefault(); toggleMenu(el); return; }
    if ((el = t.closest("[data-modal-close]"))) { e.preventDefault(); closeModal(); return; }
    if ((el = t.closest("[data-modal]"))) { e.preventDefault(); if (el.getAttribute("aria-disabled") === "true") return; openModal(el.dataset.modal); return; }
    if ((el = t.closest("a[aria-disabled=true]"))) { e.preventDefault(); return; }

    // picklists
    if ((el = t.closest("[data-picklist] [role=option]"))) { e.preventDefault(); setPicklist(el.closest("[data-picklist]"), el); return; }
    if ((el = t.closest("[data-picklist] [role=combobox]"))) {
      e.preventDefault();
      const c = el.closest("[data-picklist]");
      const open = !c.classList.contains("slds-is-open");
      closeCombos(c); closeMenus();
      c.classList.toggle("slds-is-open", open);
      el.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) {
        placeDropdown(c);
        const sel = c.querySelector("[aria-selected=true]"); if (sel) sel.scrollIntoView({block: "nearest"});
      }
      return;
    }
    // lookups
    if ((el = t.closest("[data-lookup] [role=option][data-value]"))) { e.preventDefault(); selectLookup(el.closest("[data-lookup]"), el); return; }
    if ((el = t.closest(".crm-lookup__clear"))) { e.preventDefault(); clearLookup(el.closest("[data-lookup]")); return; }
    if ((el = t.closest("[data-lookup] input[role=combobox]"))) {
      const c = el.closest("[data-lookup]");
      if (!el.readOnly && !c.classList.contains("slds-is-open")) { closeCombos(c); runLookup(c); }
      return;
    }
    // time picker
    if ((el = t.closest("[data-timepicker] [role=option]"))) {
      const c = el.closest("[data-timepicker]");
      c.querySelector("input").value = el.dataset.value;
      c.classList.remove("slds-is-open");
      return;
    }
    if ((el = t.closest("[data-timepicker] input"))) { const c = el.closest("[data-timepicker]"); closeCombos(c); c.classList.add("slds-is-open"); el.setAttribute("aria-expanded", "true"); placeDropdown(c); return; }
    // date picker
    if ((el = t.closest("[data-dp-day]"))) {
      const wrap = el.closest("[data-datepicker]");
      wrap.querySelector("input").value = el.dataset.dpDay;
      wrap.classList.remove("slds-is-open");
      wrap.querySelector(".crm-datepicker").remove();
      return;
    }
    if ((el = t.closest("[data-dp-nav]"))) {
      const dp = el.closest(".crm-datepicker");
      let y = +dp.dataset.year, m = +dp.dataset.month + (+el.dataset.dpNav);
      if (m < 0) { m = 11; y--; } if (m > 11) { m = 0; y++; }
      renderPicker(el.closest("[data-datepicker]"), y, m);
      return;
    }
    if ((el = t.closest("[data-datepicker-toggle]"))) {
      e.preventDefault();
      const wrap = el.closest("[data-datepicker]");
      if (wrap.classList.contains("slds-is-open")) { closeCombos(); return; }
      closeCombos(wrap);
      const d = parseMDY(wrap.querySelector("input").value) || today();
      renderPicker(wrap, d.getUTCFullYear(), d.getUTCMonth());
      return;
    }
    // tabs
    if ((el = t.closest("[data-tabs] [role=tab]")) && !el.closest("[data-composer]")) {
      e.preventDefault();
      const tabs = el.closest("[data-tabs]");
      $$(":scope > .slds-tabs_default__nav [role=tab]", tabs).forEach((a) => {
        const on = a === el;
        a.setAttribute("aria-selected", on ? "true" : "false");
        a.tabIndex = on ? 0 : -1;
        a.parentElement.classList.toggle("slds-is-active", on);
        const p = document.getElementById(a.getAttribute("aria-controls"));
        if (p) { p.classList.toggle("slds-show", on); p.classList.toggle("slds-hide", !on); }
      });
      return;
    }
    // composer
    if ((el = t.closest("[data-composer-tab]"))) {
      e.preventDefault();
      const comp = el.closest("[data-composer]");
      $$("[data-composer-tab]", comp).forEach((a) => {
        const on = a === el;
        a.setAttribute("aria-selected", on ? "true" : "false");
        a.parentElement.classList.toggle("slds-is-active", on);
        document.getElementById(a.getAttribute("aria-controls")).hidden = !on;
      });
      comp.querySelector("[data-composer-collapsed]").hidden = true;
      return;
    }
    if ((el = t.closest("[data-composer-expand]"))) {
      e.preventDefault();
      const comp = el.closest("[data-composer]");
      const active = comp.querySelector("[data-composer-tab][aria-selected=true]");
      document.getElementById(active.getAttribute("aria-controls")).hidden = false;
      comp.querySelector("[data-composer-collapsed]").hidden = true;
      const first = document.getElementById(active.getAttribute("aria-controls")).querySelector("input:not([type=hidden])");
      if (first) first.focus();
      return;
    }
    // timeline
    if ((el = t.closest("[data-timeline-toggle]"))) {
      const item = el.closest("[data-timeline-item]");
      const det = item.querySelector(".slds-timeline__item_details");
      det.hidden = !det.hidden;
      item.classList.toggle("slds-is-open", !det.hidden);
      el.setAttribute("aria-expanded", det.hidden ? "false" : "true");
      return;
    }
    if ((el = t.closest("[data-expand-all]"))) {
      e.preventDefault();
      const open = el.textContent.trim() === tr("Expand All");
      $$("[data-timeline-item]").forEach((item) => {
        item.querySelector(".slds-timeline__item_details").hidden = !open;
        item.classList.toggle("slds-is-open", open);
        item.querySelector("[data-timeline-toggle]").setAttribute("aria-expanded", open ? "true" : "false");
      });
      el.textContent = open ? tr("Collapse All") : tr("Expand All");
      return;
    }
    // path
    if ((el = t.closest("[data-path] .slds-path__link"))) { e.preventDefault(); pathSelect(el); return; }
    if ((el = t.closest("[data-path-action]"))) { e.preventDefault(); pathAction(el); return; }
    if ((el = t.closest("[data-path-coach]"))) {
      const c = $("#crm-path-coach");
      c.hidden = !c.hidden;
      el.setAttribute("aria-expanded", c.hidden ? "false" : "true");
      el.setAttribute("aria-label", c.hidden ? tr("Show Key Fields and Guidance") : tr("Hide Key Fields and Guidance"));
      return;
    }
    // follow
    if ((el = t.closest("[data-follow]"))) {
      const data = await post(el.dataset.follow, {});
      if (data.ok) {
        el.setAttribute("aria-pressed", data.following ? "true" : "false");
        el.classList.toggle("slds-is-selected", data.following);
        el.classList.toggle("slds-not-selected", !data.following);
        el.innerHTML = data.following ? ICON.btncheck + esc(tr("Following")) : ICON.btnadd + esc(tr("Follow"));
        toast(data.following ? tr("You're following this record.") : tr("You stopped following this record."));
      }
      return;
    }
    // favourites
    if ((el = t.closest("#crm-fav-toggle"))) {
      const data = await post("/crm/api/favorites/toggle", {url: el.dataset.url, label: document.title, icon: el.dataset.icon}, true);
      if (data.ok) {
        el.classList.toggle("slds-is-selected", data.favorite);
        el.setAttribute("aria-pressed", data.favorite ? "true" : "false");
        const lbl = data.favorite ? tr("Remove from Favorites") : tr("Add to Favorites");
        el.setAttribute("aria-label", lbl); el.title = lbl;
        toast(data.toast);
      } else handle(data);
      return;
    }
    // generic posts (notifications, density, app switch, complete...)
    if ((el = t.closest("[data-post]"))) {
      e.preventDefault();
      const body = {};
      if (el.dataset.value !== undefined) body[el.dataset.name || "value"] = el.dataset.value;
      closeMenus();
      submitPost(el.dataset.post, body);
      return;
    }
    if ((el = t.closest("[data-toggle]"))) {
      e.preventDefault();
      const target = document.getElementById(el.dataset.toggle);
      if (target) {
        target.hidden = !target.hidden;
        if (el.hasAttribute("aria-pressed")) { el.setAttribute("aria-pressed", target.hidden ? "false" : "true"); el.classList.toggle("slds-is-selected", !target.hidden); }
        else el.setAttribute("aria-expanded", target.hidden ? "false" : "true");
        if (!target.hidden) { const inp = target.querySelector("input[type=text]"); if (inp) inp.focus({preventScroll: true}); }
      }
      return;
    }
    // list view
    if ((el = t.closest("[data-toggle-filters]"))) {
      e.preventDefault();
      closeMenus();
      const p = $("#crm-filter-panel");
      if (p) { p.hidden = !p.hidden; renderFilters(); const b = $("button[data-toggle-filters][aria-pressed]"); if (b) b.setAttribute("aria-pressed", p.hidden ? "false" : "true"); }
      return;
    }
    if ((el = t.closest("[data-mass]"))) {
      e.preventDefault();
      const ids = selectedIds();
      if (!ids.length) return;
      openModal(el.dataset.mass + "?ids=" + ids.join(","));
      return;
    }
    if ((el = t.closest("[data-inline-edit]"))) { e.preventDefault(); openCellEditor(el); return; }
    if ((el = t.closest("[data-cell-value]"))) { const ed2 = el.closest(".crm-cell-editor"); commitCell(ed2, el.dataset.cellValue); return; }
    if ((el = t.closest("[data-inline-cancel]"))) { location.reload(); return; }
    if ((el = t.closest("[data-inline-save]"))) {
      const obj = $(".crm-listpage").dataset.obj;
      submitPost("/crm/api/inline", {payload: JSON.stringify({obj, edits: Object.values(pending)})});
      return;
      $("#crm-inline-msg").textContent = data.message || "We hit a snag.";
      Object.entries(data.errors || {}).forEach(([id, errs]) => Object.keys(errs).forEach((field) => {
        const cell = $('tr[data-id="' + id + '"] [data-field="' + field + '"]');
        if (cell) { cell.classList.add("crm-cell-error"); cell.title = errs[field]; }
      }));
      toast(Object.values(data.errors || {}).flatMap((x) => Object.values(x))[0] || data.message, "error");
      return;
    }
    // filters editor
    const st = filtersState();
    if (st) {
      if ((el = t.closest("[data-filter-edit]"))) { readEditor(); const k = el.dataset.filterEdit; st.editing = k === "scope" ? "scope" : (st.editing === +k ? null : +k); renderFilters(); return; }
      if ((el = t.closest("[data-filter-done]"))) {
        if (st.editing === "scope") { const r = $("input[name=crm-scope]:checked"); if (r) st.scope = r.value; }
        readEditor(); st.editing = null; renderFilters(); return;
      }
      if ((el = t.closest("[data-filter-add]"))) {
        readEditor();
        const f0 = st.meta.fields[0];
        st.filters.push({field: f0.name, op: f0.ops[0], value: "", _new: true});
        st.editing = st.filters.length - 1; renderFilters(); return;
      }
      if ((el = t.closest("[data-filter-remove]"))) { readLogic(); st.filters.splice(+el.dataset.filterRemove, 1); st.editing = null; renderFilters(); return; }
      if ((el = t.closest("[data-filter-clear]"))) { st.filters = []; st.logic = ""; st.logicOn = false; st.editing = null; renderFilters(); return; }
      if ((el = t.closest("[data-filter-logic-add]"))) {
        readEditor();
        st.logicOn = true;
        st.logic = st.filters.map((f, i) => String(i + 1)).join(" AND ");
        renderFilters();
        const box = $("#crm-flt-logic"); if (box) box.focus();
        return;
      }
      if ((el = t.closest("[data-filter-logic-remove]"))) { st.logicOn = false; st.logic = ""; renderFilters(); return; }
      if ((el = t.closest("[data-filters-cancel]"))) { window._crmFilters = null; $("#crm-filter-panel").hidden = true; return; }
      if ((el = t.closest("[data-filters-save]"))) {
        readEditor();
        readLogic();
        submitPost(st.meta.save_url, {payload: JSON.stringify({scope: st.scope, filters: st.filters.map((f) => ({field: f.field, op: f.op, value: f.value})),
                                                             filter_logic: st.logicOn ? st.logic : ""})});
        return;
      }
    }
    // details inline edit
    if ((el = t.closest("[data-detail-edit]"))) {
      const form = $("#crm-details-form");
      if (!form) return;
      $("#crm-details-view").hidden = true;
      form.hidden = false;
      const name = el.dataset.detailEdit;
      const field = form.querySelector('[data-field="' + name + '"]');
      const inp = field && field.querySelector("input:not([type=hidden]):not([readonly]), textarea, button[role=combobox]");
      if (inp) { inp.focus({preventScroll: true}); if (inp.select) inp.select(); field.scrollIntoView({block: "center"}); }
      return;
    }
    if ((el = t.closest("[data-details-cancel]"))) { location.reload(); return; }
    // outside clicks close things
    if (!t.closest("[data-menu]")) closeMenus();
    if (!t.closest(".slds-combobox, [data-datepicker]")) closeCombos();
    if (!t.closest("#crm-search-combo")) { const c = $("#crm-search-combo"); if (c) c.classList.remove("slds-is-open"); }
  });

  document.addEventListener("change", async (e) => {
    const t = e.target;
    if (t.matches("[data-complete]")) {
      submitPost(t.dataset.complete, {done: t.checked ? "1" : "0"});
      return;
    }
    if (t.matches("[data-mode]")) {
      const r = t.form && t.form.querySelector('[name="' + t.dataset.mode + '"][value=existing]');
      if (r) r.checked = true;
      return;
    }
    if (t.id === "crm-select-all") { $$(".crm-row-check").forEach((c) => { c.checked = t.checked; }); syncSelection(); return; }
    if (t.matches(".crm-row-check")) { syncSelection(); return; }
  });

  document.addEventListener("crm:change", (e) => {
    const c = e.target;
    const conv = c.closest && c.closest("[data-convert]");
    if (conv && c.matches("[data-lookup]")) {
      const name = c.querySelector("input[type=hidden]").name;
      const mode = {account_lookup: "account_mode", contact_lookup: "contact_mode", opp_lookup: "opp_mode"}[name];
      if (mode) { const r = conv.querySelector('[name="' + mode + '"][value=existing]'); if (r) r.checked = true; }
      const radio = {account_lookup: "existing_account_id", contact_lookup: "existing_contact_id"}[name];
      if (radio) conv.querySelectorAll('[name="' + radio + '"]').forEach((x) => { x.checked = false; });
    }
    const st = filtersState();
    if (st && c.dataset.flt && typeof st.editing === "number") {
      const f = st.filters[st.editing];
      if (c.dataset.flt === "field") {
        readEditor();
        f.field = e.detail.value;
        const fm = fieldMeta(st, f.field);
        f.op = fm.ops[0]; f.value = "";
        renderFilters();
      } else if (c.dataset.flt === "op") { readEditor(); f.op = e.detail.value; }
      else if (c.dataset.flt === "value") f.value = e.detail.value;
    }
  });

  document.addEventListener("input", (e) => {
    const t = e.target;
    if (t.matches("[data-lookup] input[role=combobox]")) { runLookup(t.closest("[data-lookup]")); return; }
    if (t.id === "crm-search-input") { runSearch(); return; }
    if (t.matches("[data-filter-list]")) {
      const q = t.value.trim().toLowerCase();
      $$("[data-filter-text]", $(t.dataset.filterList)).forEach((li) => { li.hidden = q && !li.dataset.filterText.includes(q); });
      return;
    }
    if (t.matches("[data-timepicker] input")) {
      const c = t.closest("[data-timepicker]");
      const q = t.value.trim().toLowerCase();
      $$("[role=option]", c).forEach((o) => { o.parentElement.hidden = q && !o.dataset.value.toLowerCase().startsWith(q); });
      c.classList.add("slds-is-open");
    }
  });

  document.addEventListener("focusin", (e) => {
    const t = e.target;
    if (t.id === "crm-search-input" && !$("#crm-search-combo").classList.contains("slds-is-open")) runSearch();
  });

  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (e.key === "Escape") {
      if ($(".crm-cell-editor")) { closeCellEditor(false); return; }
      if ($(".slds-combobox.slds-is-open, [data-datepicker].slds-is-open")) { closeCombos(); return; }
      if ($("[data-menu].slds-is-open")) { closeMenus(); return; }
      if ($("#crm-modal-root .slds-modal")) { closeModal(); return; }
      const sc = $("#crm-search-combo"); if (sc) sc.classList.remove("slds-is-open");
      return;
    }
    if (e.key === "Enter") {
      if (t.id === "crm-cell-input") { e.preventDefault(); closeCellEditor(true); return; }
      if (t.matches("[data-lookup] input[role=combobox]")) {
        e.preventDefault();
        const c = t.closest("[data-lookup]");
        const opt = c.querySelector("[role=option][aria-selected=true]") || c.querySelector("[role=option][data-value]");
        if (opt) selectLookup(c, opt);
        return;
      }
      if (t.matches("[data-timepicker] input")) { e.preventDefault(); t.closest("[data-timepicker]").classList.remove("slds-is-open"); return; }
      if (t.matches("[data-flt-value]")) { e.preventDefault(); readEditor(); filtersState().editing = null; renderFilters(); return; }
    }
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && t.matches("[data-lookup] input[role=combobox], #crm-search-input")) {
      const box = t.closest(".slds-combobox");
      const opts = $$("[role=option]", box);
      if (!opts.length) return;
      e.preventDefault();
      let i = opts.findIndex((o) => o.getAttribute("aria-selected") === "true");
      opts.forEach((o) => { o.setAttribute("aria-selected", "false"); o.classList.remove("slds-has-focus"); });
      i = e.key === "ArrowDown" ? Math.min(opts.length - 1, i + 1) : Math.max(0, i - 1);
      opts[i].setAttribute("aria-selected", "true"); opts[i].classList.add("slds-has-focus");
      opts[i].scrollIntoView({block: "nearest"});
      if (t.id === "crm-search-input" && e.key) t.dataset.active = opts[i].getAttribute("href") || "";
    }
    if (e.key === "Enter" && t.id === "crm-search-input" && t.dataset.active) {
      e.preventDefault(); location.href = t.dataset.active;
    }
  });

  document.addEventListener("submit", async (e) => {
    const form = e.target;
    if (form.matches("[data-merge-select]")) {
      e.preventDefault();
      const ids = $$("input[name=ids]:checked", form).map((c) => c.value);
      if (ids.length < 2) { toast(t("Select at least two records to merge."), "error"); return; }
      if (ids.length > 3) { toast(t("You can merge up to 3 records at a time."), "error"); return; }
      openModal(form.getAttribute("action") + "?step=compare&ids=" + ids.join(","));
      return;
    }
    if (!form.classList.contains("crm-ajax-form")) return;
    // A native POST (see submitPost); remember where we came from for error pages and "back".
    if (form.dataset.submitting) { e.preventDefault(); return; }
    form.dataset.submitting = "1";
    if (!form.querySelector("input[name=_back]")) {
      const i = document.createElement("input");
      i.type = "hidden"; i.name = "_back"; i.value = here();
      form.appendChild(i);
    }
  });

  document.addEventListener("pointerdown", kanbanDown);
  document.addEventListener("pointermove", kanbanMove);
  document.addEventListener("pointerup", kanbanUp);
  document.addEventListener("scroll", (e) => {
    if (e.target && e.target.classList && e.target.classList.contains("crm-table-wrap")) maybeLoadMore(e.target);
    // A scrolled container moves its fields away from their fixed dropdowns: re-place them.
    if (e.target && e.target.nodeType === 1 && !e.target.closest(".slds-dropdown")) {
      $$(".slds-combobox.slds-is-open").forEach((c) => placeDropdown(c));
    }
  }, true);
  document.addEventListener("dragstart", (e) => { if (e.target.closest && e.target.closest(".crm-kanban")) e.preventDefault(); });

  function initWithin() { /* components use delegation; nothing to bind */ }

  flushToast();
  const initial = document.getElementById("crm-initial-toast");
  if (initial) toast(initial.dataset.toast, initial.dataset.kind);
  renderFilters();
  if (document.querySelector("#crm-modal-root .slds-modal")) setBackgroundInert(true);
  // Upload Files: choosing a file uploads it, as Lightning's Files card does (the form is a native multipart POST).
  document.addEventListener("change", (e) => {
    const input = e.target;
    if (input && input.matches && input.matches("input[type=file][data-autosubmit]") && input.files.length) input.form.requestSubmit();
  });
  // Add Products' search: narrows the table in place, so products already ticked stay ticked.
  document.addEventListener("input", (e) => {
    const box = e.target;
    if (!box || !box.dataset || !box.dataset.filterRows) return;
    const q = box.value.trim().toLowerCase();
    $$(box.dataset.filterRows).forEach((tr) => { tr.hidden = !!q && !tr.textContent.toLowerCase().includes(q); });
  });
  // Select Files: the scope (All Files / Owned by Me) and Search Files narrow the list in place, so ticks stay.
  // A row's data-search is services/files.py's search_key, the text the server's search matches too.
  function filterFiles(pick) {
    const q = ($("[data-files-q]", pick) || {value: ""}).value.trim().toLowerCase();
    const mine = pick.dataset.scope === "mine";
    let n = 0;
    $$(".crm-files-pick__item", pick).forEach((li) => {
      li.hidden = (mine && !li.hasAttribute("data-mine")) || (!!q && !li.dataset.search.includes(q));
      if (!li.hidden) n++;
    });
    const none = $("[data-files-none]", pick);
    if (none) none.hidden = n > 0;
    $$("[data-files-scope]", pick).forEach((a) => {
      const on = a.dataset.filesScope === pick.dataset.scope;
      a.classList.toggle("crm-is-current", on);
      if (on) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    });
  }
  document.addEventListener("input", (e) => {
    const pick = e.target && e.target.matches && e.target.matches("[data-files-q]") && e.target.closest("[data-files-pick]");
    if (pick) filterFiles(pick);
  });
  document.addEventListener("click", (e) => {
    const a = e.target && e.target.closest && e.target.closest("[data-files-scope]");
    if (!a) return;
    e.preventDefault();
    const pick = a.closest("[data-files-pick]");
    pick.dataset.scope = a.dataset.filesScope;
    filterFiles(pick);
  });
  document.addEventListener("submit", (e) => { if (e.target.matches("[data-files-search]")) e.preventDefault(); });
  // Chatter's @mention typeahead (the Feed tab's publisher and comment boxes): typing "@" and part of a name lists
  // the matching people; choosing one writes "@Full Name " in place of what was typed (the server reads mentions
  // from the text: services/feed.mentions).
  function mentionQuery(box) {
    const before = box.value.slice(0, box.selectionStart == null ? box.value.length : box.selectionStart);
    const m = before.match(/(?:^|\s)@([^@\n]{0,40})$/);
    return m ? {q: m[1], start: before.length - m[1].length - 1, end: before.length} : null;
  }
  function showMentions(box) {
    const wrap = box.closest("[data-mention]");
    const list = wrap && wrap.querySelector("[data-mention-list]");
    if (!list) return;
    const at = mentionQuery(box);
    let any = false;
    $$("[data-mention-item]", list).forEach((li) => {
      const name = li.querySelector("[data-mention-user]").dataset.mentionUser.toLowerCase();
      const q = at ? at.q.toLowerCase().trim() : "";
      const on = !!at && (q === "" || name.startsWith(q) || name.split(" ").some((w) => w.startsWith(q)));
      li.hidden = !on;
      any = any || on;
    });
    list.hidden = !any;
  }
  document.addEventListener("input", (e) => {
    if (e.target && e.target.matches && e.target.matches("[data-mention-input]")) showMentions(e.target);
  });
  document.addEventListener("click", (e) => {
    const opt = e.target && e.target.closest && e.target.closest("[data-mention-user]");
    if (!opt) return;
    e.preventDefault();
    const wrap = opt.closest("[data-mention]");
    const box = wrap.querySelector("[data-mention-input]");
    const at = mentionQuery(box) || {start: box.value.length, end: box.value.length};
    const text = "@" + opt.dataset.mentionUser + " ";
    box.value = box.value.slice(0, at.start) + text + box.value.slice(at.end);
    const caret = at.start + text.length;
    box.focus();
    box.setSelectionRange(caret, caret);
    wrap.querySelector("[data-mention-list]").hidden = true;
  });
  window.CRMUI = {openModal, closeModal, toast};
})();
