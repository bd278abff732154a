/* Quill Mail (the outlook look): what this look adds to the default look's scripts (window.Inkbox):
   the ribbon's Home | View | Help tabs, the folder pane's "More options" (the less used folders), the Help
   ribbon's "Keyboard shortcuts", and the flag buttons' names (the shared list.js names a star "Star"/"Unstar";
   this look calls it a flag). No timers, no animation. */
(function () {
  "use strict";
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

  /* Ribbon tabs: a tablist; arrows move between tabs as WAI-ARIA tabs do. */
  const tabs = $$(".ol-rtab");
  function selectTab(tab, focus) {
    tabs.forEach((t) => {
      const on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(t.getAttribute("aria-controls"));
      if (panel) panel.hidden = !on;
    });
    if (focus) tab.focus();
  }
  tabs.forEach((t, i) => {
    t.addEventListener("click", () => selectTab(t, false));
    t.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        const next = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
        selectTab(next, true);
      }
    });
  });

  /* Folder pane: the account's "More options" shows / hides the less used folders. */
  const more = $("#ol-more-folders");
  if (more) more.addEventListener("click", () => {
    const box = $("#ol-extra");
    const open = box.hidden;
    box.hidden = !open;
    more.setAttribute("aria-expanded", open ? "true" : "false");
  });

  /* Help ribbon: the keyboard shortcuts dialog (shortcuts.js closes it). */
  const sc = $("#ol-shortcuts");
  if (sc) sc.addEventListener("click", () => {
    const wrap = $("#shortcuts-wrap");
    if (wrap) { wrap.hidden = false; const c = $("#shortcuts-close"); if (c) c.focus(); }
  });

  /* The ribbon's Reply / Reply all / Forward: the reading pane's quick reply buttons do the work (thread.js). */
  $$("[data-ol-click]").forEach((b) => b.addEventListener("click", () => {
    const target = document.getElementById(b.dataset.olClick);
    if (target) target.click();
  }));

  /* The quick reply stays in view as it grows (a Cc or Bcc row, attachments, the formatting bar): Outlook's
     reading pane keeps the reply's Send button on screen instead of pushing it under the pane's edge. */
  const reply = $("#inline-reply");
  if (reply && window.ResizeObserver) {
    let last = 0;
    new ResizeObserver(() => {
      const h = reply.offsetHeight;
      if (!reply.hidden && h > last) reply.scrollIntoView({ block: "nearest" });
      last = reply.hidden ? 0 : h;
    }).observe(reply);
  }

  /* Create a rule: shell.js names its save button "Create filter" / "Update filter"; Outlook says "Create rule" /
     "Save rule". Discard closes the editor as the search options' own toggle does. */
  const ruleSave = $("#filter-create");
  const RULE = { "Create filter": "Create rule", "Update filter": "Save rule" };
  if (ruleSave && window.MutationObserver) {
    new MutationObserver(() => {
      const t = ruleSave.textContent;
      if (RULE[t]) ruleSave.textContent = RULE[t];
    }).observe(ruleSave, { childList: true, characterData: true, subtree: true });
  }
  const ruleDiscard = $("#ol-rule-discard");
  if (ruleDiscard) ruleDiscard.addEventListener("click", () => {
    const panel = $("#adv-panel");
    if (panel) panel.hidden = true;
    const opener = $("#adv-btn");
    if (opener) opener.setAttribute("aria-expanded", "false");
  });

  /* Flags: list.js names a toggled star "Star" / "Unstar"; here it is "Flag this message" / "Unflag this message". */
  const FLAG = { Star: "Flag this message", Unstar: "Unflag this message" };
  const TITLE = { "Starred": "Flagged", "Not starred": "Flag this message" };
  const flagBtns = $$(".star-btn");
  function rename(btn) {
    const n = btn.getAttribute("aria-label");
    if (FLAG[n]) btn.setAttribute("aria-label", FLAG[n]);
    if (TITLE[btn.title]) btn.title = TITLE[btn.title];
  }
  if (flagBtns.length && window.MutationObserver) {
    const obs = new MutationObserver((muts) => muts.forEach((m) => rename(m.target)));
    flagBtns.forEach((b) => obs.observe(b, { attributes: true, attributeFilter: ["aria-label", "title"] }));
  }
})();

/* The message list's Filter menu (its items are links: searches in the folder). */
(function (NS) {
  "use strict";
  const btn = document.getElementById("ol-filter-btn");
  const menu = document.getElementById("ol-filter-menu");
  if (btn && menu && NS && NS.popover) NS.popover(btn, menu);
})(window.Inkbox);
