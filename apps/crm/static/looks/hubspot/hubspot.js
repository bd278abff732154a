// Beacon CRM (the hubspot look): the one behaviour the shared crm.js does not have, closing the floating
// composer a quick action (Email, Call, Task, Meeting) opened. Everything else is crm.js's.
(function () {
  "use strict";
  document.addEventListener("click", (e) => {
    const btn = e.target.closest("[data-hs-composer-close]");
    if (!btn) return;
    e.preventDefault();
    const form = btn.closest("form");
    if (form) form.hidden = true;
    document.querySelectorAll("[data-composer-tab]").forEach((t) => {
      t.setAttribute("aria-selected", "false");
      if (t.parentElement) t.parentElement.classList.remove("slds-is-active");
    });
  });
})();
