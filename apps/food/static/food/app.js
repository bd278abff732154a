/* Forkful front end: dialogs, drawers, search suggestions, item dialog, cart, checkout, account. */
(function () {
  "use strict";
  const $ = (s, r = document) => r.querySelector(s);
  const $$ = (s, r = document) => Array.from(r.querySelectorAll(s));

  async function api(url, body, method = "POST") {
    const r = await fetch(url, {
      method, headers: {"Content-Type": "application/json"}, body: body === undefined ? undefined : JSON.stringify(body),
    });
    let j = {};
    try { j = await r.json(); } catch (e) { j = {}; }
    return {ok: r.ok && j.ok !== false, status: r.status, data: j};
  }
  // The page's UI language (apps/_shared/i18n.py): the catalog base.html hands over in #page-i18n (none in English).
  // t("Link copied") is the text in the page's language; "%(name)s" in it is filled from `args`.
  let I18N = {};
  try { const el = document.getElementById("page-i18n"); I18N = el ? JSON.parse(el.textContent) : {}; } catch (e) { I18N = {}; }
  function t(text, args) {
    let s = (text && Object.prototype.hasOwnProperty.call(I18N, text)) ? I18N[text] : text;
    if (args && typeof s === "string") s = s.replace(/%\((\w+)\)s/g, (m, k) => (k in args ? String(args[k]) : m));
    return s;
  }
  function toast(msg) {
    const t = $("#toast");
    if (!t) return;
    t.textContent = msg; t.hidden = false;
    clearTimeout(toast._t); toast._t = setTimeout(() => { t.hidden = true; }, 2500);
  }
  // The page's locale (<html data-locale>, apps/_shared/locale.py): the app's own "$1,234.50" in en-US, else CLDR's
  // way through Intl (the same data as the server's Babel: "US$1,234.50", "1.234,50 $").
  const LOCALE = document.documentElement.dataset.locale || "en-US";
  const MONEY = LOCALE === "en-US" ? null : new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD" });
  function money(c) {
    c = Math.round(c);
    if (MONEY) return MONEY.format(c / 100);
    return "$" + Math.floor(c / 100).toLocaleString("en-US") + "." + String(c % 100).padStart(2, "0");
  }

  /* a form POST that navigates (one navigation, no fetch-then-reload race) */
  function postNav(url, data) {
    const f = document.createElement("form");
    f.method = "post"; f.action = url; f.hidden = true;
    Object.entries(Object.assign({next: location.pathname + location.search}, data)).forEach(([k, v]) => {
      const i = document.createElement("input"); i.type = "hidden"; i.name = k; i.value = v; f.appendChild(i);
    });
    document.body.appendChild(f);
    f.submit();
  }

  /* ------------------------------------------------------------ dialogs */
  function openDialog(id) {
    const d = document.getElementById(id);
    if (!d) return;
    closePops();
    d.hidden = false;
    const f = d.querySelector("[autofocus]");
    if (f) f.focus();
  }
  // A dialog or drawer is modal: while one is open, what is behind its scrim is inert (no click, no focus, out
  // of the accessibility tree), as behind DoorDash's.
  function syncInert() {
    $$("[data-inerted]").forEach(e => { e.inert = false; e.removeAttribute("data-inerted"); });
    const open = $$(".scrim").filter(s => !s.hidden);
    if (!open.length) return;
    const top = open.find(s => s.classList.contains("top")) || open[open.length - 1];
    for (let n = top; n && n.parentElement && n !== document.body; n = n.parentElement) {
      for (const sib of n.parentElement.children) {
        if (sib === n || sib.inert || ["SCRIPT", "STYLE"].includes(sib.tagName) || sib.id === "toast") continue;
        sib.inert = true; sib.setAttribute("data-inerted", "");
      }
    }
  }
  new MutationObserver(syncInert).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["hidden"]});
  syncInert();
  function closeDialog(el) { const s = el.closest(".scrim"); if (s) s.hidden = true; }
  function closePops() {
    $$(".popover").forEach(p => { p.hidden = true; });
    $$("[data-pop]").forEach(b => b.setAttribute("aria-expanded", "false"));
  }
  document.addEventListener("click", (e) => {
    const t = e.target;
    const opener = t.closest("[data-open]");
    if (opener) { e.preventDefault(); openDialog(opener.dataset.open); return; }
    if (t.closest("[data-close]")) { closeDialog(t.closest("[data-close]")); return; }
    if (t.classList && t.classList.contains("scrim")) { t.hidden = true; return; }
    const pop = t.closest("[data-pop]");
    if (pop) {
      const p = document.getElementById(pop.dataset.pop);
      const wasOpen = p && !p.hidden;
      closePops();
      if (p && !wasOpen) { p.hidden = false; pop.setAttribute("aria-expanded", "true"); }
      return;
    }
    if (!t.closest(".popover")) closePops();
    if (!t.closest(".search")) hideSuggest();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      closePops(); hideSuggest();
      const open = $$(".scrim").filter(s => !s.hidden).pop();
      if (open) open.hidden = true;
    }
  });

  /* ------------------------------------------------------------ carousels */
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-scroll]");
    if (!b) return;
    const row = document.getElementById(b.dataset.scroll);
    if (row) { row.scrollBy({left: Number(b.dataset.dir) * row.clientWidth * 0.9, behavior: "auto"}); syncArrows(row); }
  });
  // Like DoorDash, an arrow that has nowhere to go is disabled: "Previous" at the start of a row, "Next" at its
  // end (both when the row fits).
  function syncArrows(row) {
    if (!row || !row.id) return;
    const atStart = row.scrollLeft <= 1;
    const atEnd = row.scrollLeft + row.clientWidth >= row.scrollWidth - 1;
    $$(`[data-scroll="${row.id}"]`).forEach(a => { a.disabled = Number(a.dataset.dir) < 0 ? atStart : atEnd; });
  }
  const syncAll = () => new Set($$("[data-scroll]").map(a => a.dataset.scroll))
    .forEach(id => syncArrows(document.getElementById(id)));
  syncAll();
  window.addEventListener("load", syncAll);
  window.addEventListener("resize", syncAll);
  document.addEventListener("scroll", (e) => {
    if (e.target instanceof Element && e.target.id) syncArrows(e.target);
  }, true);

  /* ------------------------------------------------------------ header: mode, address */
  $$("[data-mode]").forEach(b => b.addEventListener("click", async () => {
    if (b.getAttribute("aria-pressed") === "true") return;
    postNav("/api/mode", {mode: b.dataset.mode});
  }));
  document.addEventListener("click", async (e) => {
    const pick = e.target.closest("[data-addr-select]");
    if (pick) {
      postNav("/api/address/select", {address_id: pick.dataset.addrSelect});
      return;
    }
    const edit = e.target.closest("[data-addr-edit]");
    if (edit) { openDialog("addr-dialog"); showAddrForm(edit.dataset); return; }
    if (e.target.closest("[data-addr-new]")) { showAddrForm(null); return; }
    if (e.target.closest("[data-addr-new-open]")) { openDialog("addr-dialog"); showAddrForm(null); return; }
    if (e.target.closest("[data-addr-back]")) { showAddrList(); return; }
    const del = e.target.closest("[data-addr-delete]");
    if (del) {
      const r = await api(`/api/address/${del.dataset.addrDelete}/delete`, {});
      if (!r.ok) { toast(t(r.data.error || "Could not delete")); return; }
      location.reload();
    }
  });
  function showAddrList() {
    const d = $("#addr-dialog");
    $("[data-addr-list]", d).hidden = false; $("[data-addr-form]", d).hidden = true;
    $(".modal-head h2", d).textContent = t("Addresses");
  }
  function showAddrForm(data) {
    const d = $("#addr-dialog"), f = $("[data-addr-form]", d);
    $("[data-addr-list]", d).hidden = true; f.hidden = false;
    $(".modal-head h2", d).textContent = data ? t("Edit address") : t("Add new address");
    f.reset();
    $$("[data-err]", f).forEach(x => { x.textContent = ""; });
    f.elements.id.value = data ? data.addrEdit : "";
    if (data) {
      f.elements.street.value = data.street || ""; f.elements.apt.value = data.apt || "";
      f.elements.city.value = data.city || "Bayview"; f.elements.zip.value = data.zip || "";
      f.elements.label.value = data.label || ""; f.elements.instructions.value = data.instructions || "";
      $$("input[name=dropoff]", f).forEach(r => { r.checked = r.value === (data.dropoff || "door"); });
    }
    f.elements.street.focus();
  }
  const addrForm = $("[data-addr-form]");
  if (addrForm) addrForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target, body = Object.fromEntries(new FormData(f).entries());
    const url = body.id ? `/api/address/${body.id}` : "/api/address";
    const r = await api(url, body);
    $$("[data-err]", f).forEach(x => { x.textContent = ""; });
    if (!r.ok) {
      Object.entries(r.data.errors || {}).forEach(([k, v]) => { const el = $(`[data-err=${k}]`, f); if (el) el.textContent = t(v); });
      return;
    }
    location.reload();
  });

  /* ------------------------------------------------------------ search suggestions */
  const q = $("#q"), sug = $("#suggest");
  function hideSuggest() { if (sug) { sug.hidden = true; if (q) q.setAttribute("aria-expanded", "false"); } }
  let sugSeq = 0;
  if (q) {
    q.addEventListener("input", async () => {
      const v = q.value.trim(), seq = ++sugSeq;
      if (!v) { hideSuggest(); return; }
      const r = await api("/api/suggest?q=" + encodeURIComponent(v), undefined, "GET");
      if (seq !== sugSeq) return;
      const d = r.data, parts = [];
      const row = (x, kind) => `<a role="option" class="sug-row" href="${x.url}" aria-label="${esc(x.name)}${x.sub ? ", " + esc(x.sub) : ""}"><span>${esc(x.name)}</span>${x.sub ? `<span class="sub">${esc(x.sub)}</span>` : ""}</a>`;
      if (d.cuisines && d.cuisines.length) parts.push(`<div class="sug-head">${t("Cuisines")}</div>` + d.cuisines.map(x => row(x)).join(""));
      if (d.stores && d.stores.length) parts.push(`<div class="sug-head">${t("Stores")}</div>` + d.stores.map(x => row(x)).join(""));
      if (d.dishes && d.dishes.length) parts.push(`<div class="sug-head">${t("Dishes")}</div>` + d.dishes.map(x => row(x)).join(""));
      parts.push(`<a role="option" class="sug-row" href="/search?q=${encodeURIComponent(v)}" aria-label="${esc(t("Search for %(q)s", {q: v}))}"><span>${esc(t("Search for “%(q)s”", {q: v}))}</span></a>`);
      sug.innerHTML = parts.join("");
      sug.hidden = false; q.setAttribute("aria-expanded", "true");
    });
    q.form.addEventListener("submit", (e) => { if (!q.value.trim()) e.preventDefault(); });
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }

  /* ------------------------------------------------------------ price filter */
  $$(".price-opt").forEach(b => b.addEventListener("click", () => {
    b.classList.toggle("on"); b.setAttribute("aria-pressed", b.classList.contains("on") ? "true" : "false");
  }));
  document.addEventListener("click", (e) => {
    const apply = e.target.closest("[data-price-apply]"), reset = e.target.closest("[data-price-reset]");
    if (!apply && !reset) return;
    const box = e.target.closest(".popover").querySelector(".price-opts");
    const chosen = reset ? [] : $$(".price-opt.on", box).map(b => b.dataset.price);
    const url = new URL(box.dataset.base, location.origin);
    if (chosen.length) url.searchParams.set("price", chosen.join(","));
    location.href = url.pathname + url.search;
  });

  /* ------------------------------------------------------------ save store */
  document.addEventListener("click", async (e) => {
    const b = e.target.closest("[data-save-store]");
    if (!b) return;
    e.preventDefault();
    const want = b.getAttribute("aria-pressed") !== "true";
    const r = await api(`/api/store/${b.dataset.saveStore}/save`, {saved: want});
    if (!r.ok) return;
    const saved = r.data.saved;
    $$(`[data-save-store="${b.dataset.saveStore}"]`).forEach(x => {
      x.classList.toggle("on", saved);
      x.setAttribute("aria-pressed", saved ? "true" : "false");
      x.setAttribute("aria-label", t(saved ? "Unsave %(name)s" : "Save %(name)s", {name: x.dataset.name}));
      const ht = x.querySelector(".heart-text"); if (ht) ht.textContent = saved ? t("Saved") : t("Save");
    });
    toast(saved ? t("Saved %(name)s", {name: r.data.name}) : t("Removed %(name)s from saved stores", {name: r.data.name}));
  });

  /* ------------------------------------------------------------ cart drawer */
  function setCartCount(n) {
    $$(".cart-n").forEach(x => { x.textContent = n; });
    $$("[data-cart-open]").forEach(b => b.setAttribute("aria-label", n === 1 ? t("Cart, 1 item") : t("Cart, %(n)s items", {n})));
  }
  async function openCart() {
    // The drawer slides in at once (as DoorDash's does); its lines follow.
    const body = $("#cart-body");
    body.innerHTML = '<p class="muted drawer-loading" aria-busy="true">Loading your cart…</p>';
    openDialog("cart-drawer");
    const r = await fetch("/cart/drawer");
    body.innerHTML = await r.text();
  }
  document.addEventListener("click", async (e) => {
    if (e.target.closest("[data-cart-open]")) { openCart(); return; }
    const edit = e.target.closest("[data-ci-edit]");
    if (edit) { openLine(edit.dataset.ciEdit, edit.querySelector(".cl-name").textContent); return; }
    const step = e.target.closest("[data-ci-set]");
    if (step) {
      const li = step.closest("[data-ci]");
      const r = await api(`/api/cart/item/${li.dataset.ci}`, {quantity: Number(step.dataset.ciSet)});
      if (r.ok) { setCartCount(r.data.count); $("#cart-body").innerHTML = r.data.drawer; }
      return;
    }
    if (e.target.closest("[data-cart-clear]")) {
      const r = await api("/api/cart/clear", {});
      if (r.ok) { setCartCount(0); $("#cart-body").innerHTML = r.data.drawer; }
      return;
    }
    if (e.target.closest("[data-group-end]")) {
      await api("/api/group-order/end", {});
      location.reload();
    }
  });

  /* a cart line's option dialog, over the drawer: the item's options with the line's choices, Update cart */
  async function openLine(id, name) {
    const holder = $("#line-dialog");
    holder.innerHTML = '<div class="modal modal-loading" aria-busy="true"><p class="muted"></p></div>';
    holder.querySelector("p").textContent = `Loading ${name || "item"}…`;
    holder.hidden = false;
    holder.dataset.loading = id;
    const r = await fetch(`/cart/item/${id}/edit`);
    const html = await r.text();
    if (holder.hidden || holder.dataset.loading !== String(id)) return;
    if (!r.ok) { holder.hidden = true; toast(t("That item is no longer in your cart.")); return; }
    holder.innerHTML = html;
    wireItem(holder.querySelector(".modal-item"));
  }
  function lineSaved(m, data, msg) {
    m.closest(".scrim").hidden = true;
    setCartCount(data.count);
    $("#cart-body").innerHTML = data.drawer;
    toast(msg);
  }

  /* new-cart prompt: resolves true when the user confirms */
  function confirmNewCart(current, next) {
    return new Promise((resolve) => {
      const d = $("#newcart-dialog");
      $("[data-newcart-text]", d).textContent =
        t("Your cart has items from %(current)s. Start a new cart to add items from %(next)s?", {current, next: next || t("this store")});
      d.hidden = false;
      const ok = $("[data-newcart-ok]", d);
      const done = (v) => { d.hidden = true; ok.onclick = null; $$("[data-close]", d).forEach(x => { x.onclick = null; }); resolve(v); };
      ok.onclick = () => done(true);
      $$("[data-close]", d).forEach(x => { x.onclick = (ev) => { ev.stopPropagation(); done(false); }; });
    });
  }

  /* ------------------------------------------------------------ store page */
  const layout = $(".store-layout");
  async function openItem(id, name) {
    const sid = layout.dataset.storeId;
    const holder = $("#item-dialog");
    // The scrim and a placeholder show at once (as DoorDash's dialog does), the dialog itself once its options
    // are in (only then is there a role=dialog to act in).
    holder.innerHTML = '<div class="modal modal-loading" aria-busy="true"><p class="muted"></p></div>';
    holder.querySelector("p").textContent = `Loading ${name || "item"}…`;
    holder.hidden = false;
    holder.dataset.loading = id;
    const r = await fetch(`/store/${sid}/item/${id}`);
    const html = await r.text();
    if (holder.hidden || holder.dataset.loading !== String(id)) return;  // closed meanwhile, or another item
    holder.innerHTML = html;
    wireItem(holder.querySelector(".modal-item"));
  }
  if (layout) {
    document.addEventListener("click", (e) => {
      const b = e.target.closest("[data-item]");
      if (b) { e.preventDefault(); openItem(b.dataset.item, b.getAttribute("aria-label") || b.innerText.trim().split("\n")[0]); }
    });
    const pre = $("#item-dialog .modal-item");  // ?item=: rendered with the page
    if (pre) wireItem(pre);
    else if (layout.dataset.openItem) openItem(layout.dataset.openItem);
    if (layout.dataset.openCart) openCart();
    const ms = $("[data-menu-search]");
    if (ms) ms.addEventListener("input", () => {
      const v = ms.value.trim().toLowerCase();
      let any = false;
      $$("[data-menu-item]").forEach(it => { const hit = !v || it.dataset.text.includes(v); it.hidden = !hit; any = any || hit; });
      $$("[data-section]").forEach(sec => {
        const items = $$("[data-menu-item]", sec);
        if (items.length) sec.hidden = !items.some(i => !i.hidden);
      });
      $("[data-menu-empty]").hidden = any;
    });
    const links = $$(".sn-link");
    const spy = () => {
      let cur = null;
      $$("[data-section]").forEach(s => { if (!s.hidden && s.getBoundingClientRect().top < 140) cur = s.id; });
      links.forEach(l => l.classList.toggle("on", l.getAttribute("href") === "#" + cur));
    };
    window.addEventListener("scroll", spy, {passive: true}); spy();
  }
  function wireItem(m) {
    const base = Number(m.dataset.base);
    const line = m.dataset.line;  // a cart line being edited (its dialog saves the line, not a new one)
    let qty = Number(m.dataset.qty0 || 1);
    const groups = $$(".opt-group[data-group]", m);
    // the stepper's ends are disabled, like DoorDash's (no "-" below 1)
    const steps = () => $$("[data-qty]", m).forEach(b => { b.disabled = Number(b.dataset.qty) < 0 ? qty <= 1 : qty >= 20; });
    const update = () => {
      let unit = base;
      $$("input[data-price]:checked", m).forEach(i => { unit += Number(i.dataset.price); });
      $("[data-total]", m).textContent = money(unit * qty);
      $("[data-qty-val]", m).textContent = qty;
      groups.forEach(g => {
        const n = $$("input:checked", g).length, min = Number(g.dataset.min), max = Number(g.dataset.max);
        const badge = $("[data-req]", g);
        if (badge && n >= min) { badge.classList.add("ok"); badge.classList.remove("bad"); badge.textContent = "✓ " + t("Required"); }
        else if (badge) { badge.classList.remove("ok"); badge.textContent = t("Required"); }
        if (max > 1) $$("input[type=checkbox]", g).forEach(i => { i.disabled = !i.checked && n >= max; });
      });
      steps();
    };
    m.addEventListener("change", update);
    $$("[data-qty]", m).forEach(b => b.addEventListener("click", () => { qty = Math.max(1, Math.min(20, qty + Number(b.dataset.qty))); update(); }));
    $("[data-add-cart]", m).addEventListener("click", async () => {
      const err = $("[data-item-err]", m);
      err.textContent = "";
      for (const g of groups) {
        const n = $$("input:checked", g).length;
        if (n < Number(g.dataset.min)) {
          const badge = $("[data-req]", g); if (badge) badge.classList.add("bad");
          err.textContent = Number(g.dataset.min) > 1 ? t("Choose %(n)s options for %(group)s.", {n: g.dataset.min, group: g.getAttribute("aria-label")}) : t("Choose an option for %(group)s.", {group: g.getAttribute("aria-label")});
          g.scrollIntoView({block: "center"});
          return;
        }
      }
      const body = {
        item_id: Number(m.dataset.itemId), quantity: qty,
        option_ids: $$("input[data-price]:checked", m).map(i => Number(i.value)),
        instructions: $("[data-instructions]", m).value,
      };
      if (line) {
        const u = await api(`/api/cart/item/${line}/edit`, body);
        if (!u.ok) { err.textContent = t(u.data.error || "Could not update the item."); return; }
        lineSaved(m, u.data, t("Cart updated"));
        return;
      }
      let r = await api("/api/cart/add", body);
      if (r.data.conflict) {
        if (!(await confirmNewCart(r.data.current_store, r.data.new_store))) return;
        body.replace = true;
        r = await api("/api/cart/add", body);
      }
      if (!r.ok) { err.textContent = t(r.data.error || "Could not add to cart."); return; }
      m.closest(".scrim").hidden = true;
      setCartCount(r.data.count);
      toast(t("Added %(name)s to cart", {name: r.data.name}));
    });
    const rm = $("[data-line-remove]", m);
    if (rm) rm.addEventListener("click", async () => {
      const r = await api(`/api/cart/item/${line}`, {quantity: 0});
      if (r.ok) lineSaved(m, r.data, t("Removed from cart"));
    });
    update();
  }

  /* group order */
  document.addEventListener("click", async (e) => {
    const b = e.target.closest("[data-group-start]");
    if (b) {
      const d = b.closest(".modal");
      const lim = ($("input[name=glimit]:checked", d) || {}).value || null;
      const body = {store_id: Number(b.dataset.groupStart), limit: lim};
      let r = await api("/api/group-order", body);
      if (r.data.conflict) {
        d.closest(".scrim").hidden = true;
        if (!(await confirmNewCart(r.data.current_store, null))) return;
        body.replace = true;
        r = await api("/api/group-order", body);
        d.closest(".scrim").hidden = false;
      }
      if (!r.ok) return;
      $("[data-group-setup]", d).hidden = true;
      $("[data-group-done]", d).hidden = false;
      $("[data-group-link]", d).value = r.data.link;
      d.closest(".scrim").querySelectorAll("[data-close]").forEach(x => x.addEventListener("click", () => location.reload(), {once: true}));
      return;
    }
    const c = e.target.closest("[data-copy-link]");
    if (c) {
      const v = $("[data-group-link]").value;
      try { await navigator.clipboard.writeText(v); } catch (err) { /* clipboard may be unavailable */ }
      toast(t("Link copied"));
    }
  });

  /* ------------------------------------------------------------ checkout */
  const co = $("#co-form");
  if (co) {
    const refresh = async (extra) => {
      const body = Object.fromEntries(new FormData(co).entries());
      Object.assign(body, extra || {});
      const r = await api("/checkout/update", body);
      if (r.data.summary !== undefined) $("#co-summary").innerHTML = r.data.summary;
      if (r.data.options !== undefined) $("#co-options").innerHTML = r.data.options;
      markOn();
      if (r.data.error) toast(r.data.error);
    };
    const markOn = () => {
      $$(".opt-card, .pay-row, .tip-chip, .seg-opt", co).forEach(l => {
        const i = $("input", l); if (i) l.classList.toggle("on", i.checked);
      });
    };
    co.addEventListener("change", async (e) => {
      const t = e.target;
      if (t.hasAttribute("data-no-update") || t.name === "dropoff" || t.name === "slot_pick") { markOn(); return; }
      if (t.name === "mode") { co.action = "/checkout/mode"; co.submit(); return; }
      if (t.name === "delivery_option" && t.value === "scheduled") {
        markOn();
        openDialog("sched-dialog");
        return;
      }
      if (t.name === "tip" && t.value === "other") { await refresh({tip: "other"}); const c = $("[name=tip_custom]", co); if (c) c.focus(); return; }
      if (t.name === "tip_custom") return;
      await refresh();
    });
    co.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" || e.target.tagName === "TEXTAREA" || e.target.tagName === "BUTTON") return;
      e.preventDefault();
      if (e.target.name === "promo_code") applyPromo();
      if (e.target.name === "tip_custom") refresh({tip: "other"});
    });
    const applyPromo = async () => {
      const input = $("[name=promo_code]", co);
      const r = await api("/checkout/promo", {code: input ? input.value : ""});
      if (r.data.summary) $("#co-summary").innerHTML = r.data.summary;
      markOn();
    };
    co.addEventListener("click", async (e) => {
      if (e.target.closest("[data-promo-apply]")) { e.preventDefault(); applyPromo(); return; }
      if (e.target.closest("[data-promo-remove]")) {
        const r = await api("/checkout/promo/remove", {});
        if (r.data.summary) $("#co-summary").innerHTML = r.data.summary;
        markOn();
        return;
      }
      if (e.target.closest("[data-tip-save]")) { refresh({tip: "other"}); }
    });
    // schedule dialog
    const sd = $("#sched-dialog");
    if (sd) {
      $$("[role=tab]", sd).forEach(tab => tab.addEventListener("click", () => {
        $$("[role=tab]", sd).forEach(t => t.setAttribute("aria-selected", t === tab ? "true" : "false"));
        $$("[role=tabpanel]", sd).forEach(p => { p.hidden = p.id !== tab.dataset.tab; });
      }));
      $("[data-sched-ok]", sd).addEventListener("click", async () => {
        const pick = $("input[name=slot_pick]:checked", sd);
        if (!pick) { toast(t("Choose a time")); return; }
        sd.hidden = true;
        await refresh({delivery_option: "scheduled", scheduled_for: pick.value});
      });
    }
    markOn();
  }

  /* add card (checkout and account) */
  const cardForm = $("[data-card-form]");
  if (cardForm) cardForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = Object.fromEntries(new FormData(cardForm).entries());
    const r = await api("/api/cards", body);
    $$("[data-err]", cardForm).forEach(x => { x.textContent = ""; });
    if (!r.ok) {
      Object.entries(r.data.errors || {}).forEach(([k, v]) => { const el = $(`[data-err=${k}]`, cardForm); if (el) el.textContent = t(v); });
      return;
    }
    location.reload();
  });
  document.addEventListener("click", async (e) => {
    const del = e.target.closest("[data-card-delete]");
    if (del) {
      const r = await api(`/api/cards/${del.dataset.cardDelete}/delete`, {});
      if (!r.ok) { toast(t(r.data.error || "Could not remove card")); return; }
      location.reload();
      return;
    }
    const def = e.target.closest("[data-card-default]");
    if (def) {
      const r = await api(`/api/cards/${def.dataset.cardDefault}/default`, {});
      if (!r.ok) { toast(t(r.data.error || "Could not update card")); return; }
      location.reload();
    }
  });

  /* notifications */
  $$("[data-notify]").forEach(sw => sw.addEventListener("change", async () => {
    await api("/api/notifications", {key: sw.dataset.notify, on: sw.checked});
    toast(t("Notification settings saved"));
  }));

  /* ------------------------------------------------------------ orders */
  document.addEventListener("click", async (e) => {
    const star = e.target.closest("[data-star]");
    if (star) {
      const n = Number(star.dataset.star);
      $$("[data-star]").forEach(s => { const on = Number(s.dataset.star) <= n; s.classList.toggle("on", on); s.setAttribute("aria-checked", Number(s.dataset.star) === n ? "true" : "false"); });
      star.closest(".rate-stars").dataset.value = n;
      return;
    }
  });
  const rf = $("[data-rate-form]");
  if (rf) rf.addEventListener("submit", (e) => {
    const n = Number(($(".rate-stars") || {dataset: {}}).dataset.value || 0);
    if (!n) { e.preventDefault(); $("[data-rate-err]").textContent = t("Choose a rating from 1 to 5 stars."); return; }
    $("[data-rate-value]").value = n;
  });
  $$("[data-issue]").forEach(r => r.addEventListener("change", () => {
    $$("[data-reasons]").forEach(l => {
      l.hidden = l.dataset.reasons !== r.value;
      if (l.hidden) $$("input", l).forEach(i => { i.checked = false; });
    });
    const h = $("[data-reasons-hint]"); if (h) h.hidden = true;
    $$(".opt-card").forEach(l => { const i = $("input", l); if (i) l.classList.toggle("on", i.checked); });
  }));
  $$(".help-form input[name=resolution]").forEach(r => r.addEventListener("change", () => {
    $$(".help-form .opt-card").forEach(l => { const i = $("input", l); if (i) l.classList.toggle("on", i.checked); });
  }));
  $$("[data-thumb]").forEach(r => r.addEventListener("change", () => {
    $$("[data-thumb-reasons]").forEach(l => {
      l.hidden = l.dataset.thumbReasons !== r.value;
      if (l.hidden) $$("input", l).forEach(i => { i.checked = false; });
    });
    $$(".thumbs .opt-card").forEach(l => { const i = $("input", l); if (i) l.classList.toggle("on", i.checked); });
  }));
  const tc = $("[data-tip-custom]");
  if (tc) tc.addEventListener("input", () => { const o = $("[data-tip-other]"); if (o) { o.checked = true; o.dispatchEvent(new Event("change", {bubbles: true})); } });
  $$("[data-tip-form] input[name=tip]").forEach(r => r.addEventListener("change", () => {
    $$("[data-tip-form] .tip-chip").forEach(l => { const i = $("input", l); if (i) l.classList.toggle("on", i.checked); });
  }));
  const df = $("[data-dasher-form]");
  if (df) df.addEventListener("submit", (e) => {
    if (!$("[data-thumb]:checked")) { e.preventDefault(); $("[data-dasher-err]").textContent = t("Choose thumbs up or thumbs down."); }
  });
  $$("input[name=plan]").forEach(r => r.addEventListener("change", () => {
    $$("input[name=plan]").forEach(i => i.closest(".opt-card").classList.toggle("on", i.checked));
  }));
})();
