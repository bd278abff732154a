/* Inkbox, Settings (General, Labels, Filters and Blocked Addresses) and Contacts. */
(function (NS) {
  "use strict";

  const { $, $$, alertModal, confirmModal } = NS;
  const api = (...a) => NS.api(...a);
  const go = (...a) => NS.go(...a);
  const openLabelDialog = (...a) => NS.openLabelDialog(...a);
  const reload = (...a) => NS.reload(...a);
  const removeLabel = (...a) => NS.removeLabel(...a);
  const showToast = (...a) => NS.showToast(...a);
  const startFilter = (...a) => NS.startFilter(...a);
  const storeToast = (...a) => NS.storeToast(...a);

  /* --------------------------------------------------------------- settings */
  const saveGeneral = $("#s-save");
  if (saveGeneral) saveGeneral.addEventListener("click", async () => {
    // Only what changed is saved (Gmail keeps the rest as it was).
    const changed = (el) => (el.type === "checkbox" || el.type === "radio") ? el.checked !== el.defaultChecked : el.value !== el.defaultValue;
    const body = {};
    const ps = $("#s-page-size");
    if (ps.dataset.value !== ps.dataset.initial) body.page_size = Number(ps.dataset.value);
    if ($$('input[name="snippets"]').some(changed)) body.show_snippets = $('input[name="snippets"]:checked').value === "1";
    const us = $("#s-undo-send");
    if (us.dataset.value !== us.dataset.initial) body.undo_send_seconds = Number(us.dataset.value);
    if ($$('input[name="default_reply"]').some(changed)) body.default_reply = $('input[name="default_reply"]:checked').value;
    if ($$('input[name="shortcuts"]').some(changed)) body.keyboard_shortcuts = $('input[name="shortcuts"]:checked').value === "1";
    if (changed($("#s-signature"))) body.signature = $("#s-signature").value;
    if (changed($("#s-sig-replies"))) body.signature_on_replies = $("#s-sig-replies").checked;
    const vFields = [...$$('input[name="vacation"]'), $("#s-v-start"), $("#s-v-end"), $("#s-v-has-end"), $("#s-v-subject"), $("#s-v-body"), $("#s-v-contacts")];
    if (vFields.some(changed)) {
      Object.assign(body, {
        vacation_enabled: $('input[name="vacation"]:checked').value === "1",
        vacation_start: $("#s-v-start").value.trim(),
        vacation_end: $("#s-v-has-end").checked ? $("#s-v-end").value.trim() : "",
        vacation_subject: $("#s-v-subject").value,
        vacation_body: $("#s-v-body").value,
        vacation_contacts_only: $("#s-v-contacts").checked,
      });
      if ($("#s-v-has-end").checked && !body.vacation_end) { await alertModal("Error", "Please enter the last day."); return; }
    }
    if (!Object.keys(body).length) { showToast({ text: "No changes to save." }); return; }
    try { const r = await api("/api/settings", body); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  });
  if ($("#s-page-size")) $("#s-page-size").dataset.initial = $("#s-page-size").dataset.value;
  if ($("#s-undo-send")) $("#s-undo-send").dataset.initial = $("#s-undo-send").dataset.value;
  const vEnd = $("#s-v-end");
  if (vEnd) vEnd.addEventListener("input", () => { $("#s-v-has-end").checked = !!vEnd.value.trim(); });
  $$("#s-v-start, #s-v-end, #s-v-subject, #s-v-body").forEach((el) => el.addEventListener("input", () => {
    const on = $('input[name="vacation"][value="1"]');
    if (on && !on.checked) on.checked = true;
  }));
  const saveInbox = $("#s-inbox-save");
  if (saveInbox) saveInbox.addEventListener("click", async () => {
    try {
      const r = await api("/api/settings", { tab_social: $("#s-tab-social").checked, tab_promotions: $("#s-tab-promotions").checked,
                                             tab_updates: $("#s-tab-updates").checked });
      storeToast({ text: r.toast });
      reload();
    } catch (err) { alertModal("Error", err.message); }
  });
  $$("[data-label-set]").forEach((b) => b.addEventListener("click", async () => {
    const tr = b.closest("tr");
    const body = {}; body[b.dataset.labelSet] = b.dataset.value === "true";
    try { const r = await api("/api/labels/" + tr.dataset.labelId, body); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  }));
  $$("[data-label-remove]").forEach((b) => b.addEventListener("click", () => {
    const tr = b.closest("tr");
    removeLabel(Number(tr.dataset.labelId), tr.getAttribute("aria-label"));
  }));
  $$("[data-label-edit]").forEach((b) => b.addEventListener("click", (e) => {
    e.stopPropagation();
    const tr = b.closest("tr");
    openLabelDialog({ id: Number(tr.dataset.labelId), name: tr.dataset.labelName, parentId: tr.dataset.parentId });
  }));
  $$("[data-filter-edit]").forEach((b) => b.addEventListener("click", (e) => {
    e.stopPropagation();
    const tr = b.closest("tr");
    startFilter(JSON.parse(tr.dataset.filter), Number(tr.dataset.filterId), "search");
  }));
  $$("[data-filter-delete]").forEach((b) => b.addEventListener("click", async () => {
    const tr = b.closest("tr");
    if (!(await confirmModal("Delete this filter?", "OK", "Confirm"))) return;
    try { const r = await api("/api/filters/" + tr.dataset.filterId + "/delete", {}); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  }));
  const sCreateFilter = $("#s-create-filter");
  if (sCreateFilter) sCreateFilter.addEventListener("click", (e) => { e.stopPropagation(); startFilter(null); });
  $$("[data-unblock-id]").forEach((b) => b.addEventListener("click", async () => {
    try { const r = await api("/api/unblock", { id: Number(b.dataset.unblockId) }); storeToast({ text: r.toast }); reload(); }
    catch (err) { alertModal("Error", err.message); }
  }));

  /* --------------------------------------------------------------- contacts */
  $$(".c-row").forEach((row) => row.addEventListener("click", (e) => {
    if (e.target.closest("button, a")) return;
    go(row.dataset.href);
  }));
  const cDelete = $("#contact-delete");
  if (cDelete) cDelete.addEventListener("click", async () => {
    if (!(await confirmModal("Delete " + cDelete.dataset.name + " from your contacts?", "Delete", "Delete contact"))) return;
    try { const r = await api("/api/contacts/" + cDelete.dataset.cid + "/delete", {}); storeToast({ text: r.toast }); go("/contacts"); }
    catch (err) { alertModal("Error", err.message); }
  });
  const cForm = $("#contact-form");
  if (cForm) cForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {};
    ["first_name", "last_name", "company", "title", "email", "phone", "address", "birthday", "notes"].forEach((k) => { body[k] = cForm.elements[k].value; });
    const cid = cForm.dataset.cid;
    try {
      const r = await api(cid ? "/api/contacts/" + cid : "/api/contacts/new", body);
      storeToast({ text: r.toast });
      go("/contacts/" + r.id);
    } catch (err) { alertModal("Error", err.message); }
  });

})(window.Inkbox = window.Inkbox || {});
