/* Select Fields to Display: the dual listbox (SLDS dueling picklist). Click selects a field (Ctrl/Cmd-click
   adds to the selection), the arrows move the selection between Available and Visible Fields, Up / Down
   reorder the visible ones; the form's hidden `columns` inputs follow the Visible list. Delegated, since the
   modal arrives by fetch. */
(function () {
  "use strict";
  const $$ = (s, r = document) => Array.from(r.querySelectorAll(s));

  function select(opt, add) {
    const form = opt.closest("[data-dl-form]");
    if (!add) $$("[data-dl-option]", form).forEach((o) => o.setAttribute("aria-selected", "false"));
    opt.setAttribute("aria-selected", add && opt.getAttribute("aria-selected") === "true" ? "false" : "true");
    $$("[data-dl-option]", form).forEach((o) => { o.tabIndex = -1; });
    opt.tabIndex = 0;
    opt.focus();
    refresh(form);
  }
  function sync(form) {
    const box = form.querySelector("[data-dl-hidden]");
    box.textContent = "";
    $$("[data-dl-list=visible] [data-dl-option]", form).forEach((o) => {
      const i = document.createElement("input");
      i.type = "hidden"; i.name = "columns"; i.value = o.dataset.dlOption;
      box.appendChild(i);
    });
  }
  function say(form, msg) { form.querySelector("[data-dl-error]").textContent = msg || ""; }
  // A button that has nothing to move is disabled (the template starts them so: nothing is selected yet).
  function refresh(form) {
    const sel = (list) => $$(`[data-dl-list=${list}] [data-dl-option][aria-selected=true]`, form);
    const vis = sel("visible");
    const items = $$("[data-dl-list=visible] > li", form).map((li) => li.firstElementChild);
    form.querySelector("[data-dl-move=visible]").disabled = !sel("available").length;
    form.querySelector("[data-dl-move=available]").disabled = !vis.some((o) => !o.hasAttribute("data-dl-locked"));
    form.querySelector("[data-dl-order='-1']").disabled = !vis.some((o) => items.indexOf(o) > vis.indexOf(o));
    form.querySelector("[data-dl-order='1']").disabled =
      !vis.some((o) => items.indexOf(o) < items.length - (vis.length - vis.indexOf(o)));
  }

  document.addEventListener("click", (e) => {
    const opt = e.target.closest && e.target.closest("[data-dl-option]");
    if (opt) { select(opt, e.ctrlKey || e.metaKey); return; }
    const mv = e.target.closest && e.target.closest("[data-dl-move]");
    if (mv) {
      const form = mv.closest("[data-dl-form]");
      const to = form.querySelector(`[data-dl-list=${mv.dataset.dlMove}]`);
      let picked = $$("[data-dl-option][aria-selected=true]", form).filter((o) => !to.contains(o));
      if (mv.dataset.dlMove === "available" && picked.some((o) => o.hasAttribute("data-dl-locked"))) {
        picked = picked.filter((o) => !o.hasAttribute("data-dl-locked"));
        say(form, "The record's name field stays visible.");
      } else say(form, "");
      picked.forEach((o) => to.appendChild(o.parentElement));
      sync(form);
      refresh(form);
      return;
    }
    const ord = e.target.closest && e.target.closest("[data-dl-order]");
    if (ord) {
      const form = ord.closest("[data-dl-form]");
      const list = form.querySelector("[data-dl-list=visible]");
      const items = $$(":scope > li", list);
      const up = Number(ord.dataset.dlOrder) < 0;
      const sel = items.filter((li) => li.firstElementChild.getAttribute("aria-selected") === "true");
      (up ? sel : sel.reverse()).forEach((li) => {
        const sib = up ? li.previousElementSibling : li.nextElementSibling;
        if (sib && !sel.includes(sib)) list.insertBefore(li, up ? sib : sib.nextElementSibling);
      });
      sync(form);
      refresh(form);
    }
  });
  document.addEventListener("keydown", (e) => {
    const opt = e.target.closest && e.target.closest("[data-dl-option]");
    if (!opt) return;
    if (e.key === " " || e.key === "Enter") { e.preventDefault(); select(opt, e.ctrlKey || e.metaKey); }
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const li = e.key === "ArrowDown" ? opt.parentElement.nextElementSibling : opt.parentElement.previousElementSibling;
      if (li) select(li.firstElementChild, false);
    }
  });
})();
