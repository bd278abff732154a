/* Inkbox, attachments: file chips, uploads from the computer, the "Insert files from My Files" picker. */
(function (NS) {
  "use strict";

  const { $, $$, MONTHS, alertModal } = NS;
  const api = (...a) => NS.api(...a);
  const getJSON = (...a) => NS.getJSON(...a);

  /* ------------------------------------------------------- attachments */
  // "Insert files using My Files" (Gmail's Drive picker): an in-page list, so an agent never meets an OS dialog.
  const filesWrap = $("#files-wrap");
  const FP = { onInsert: null, seq: 0 };
  function fileIcon(mime) {
    if (mime === "application/pdf") return ["picture_as_pdf", "pdf"];
    if ((mime || "").startsWith("image/")) return ["image", "img"];
    return ["description", "doc"];
  }
  function pickedIds() { return $$("#files-list input:checked").map((c) => Number(c.value)); }
  async function loadFiles(q) {
    const mine = ++FP.seq;
    const data = await getJSON("/api/files?q=" + encodeURIComponent(q || ""));
    if (mine !== FP.seq) return;
    const keep = new Set(pickedIds());
    const list = $("#files-list");
    list.textContent = "";
    data.files.forEach((f) => {
      const li = document.createElement("li");
      const lab = document.createElement("label");
      lab.className = "file-row";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = f.file_id;
      box.checked = keep.has(f.file_id);
      box.setAttribute("aria-label", f.name);
      const [ico, cls] = fileIcon(f.mime);
      const icon = document.createElement("span");
      icon.className = "material-symbols-outlined ms att-ico " + cls;
      icon.setAttribute("aria-hidden", "true");
      icon.textContent = ico;
      const name = document.createElement("span");
      name.className = "file-name";
      name.textContent = f.name;
      const when = document.createElement("span");
      when.className = "file-date";
      const d = new Date(f.modified_at + "Z");
      when.textContent = MONTHS[d.getUTCMonth()].slice(0, 3) + " " + d.getUTCDate() + ", " + d.getUTCFullYear();
      const size = document.createElement("span");
      size.className = "file-size";
      size.textContent = f.size_label;
      lab.append(box, icon, name, when, size);
      li.appendChild(lab);
      list.appendChild(li);
    });
    $("#files-empty").hidden = data.files.length > 0;
    $("#files-insert").disabled = !pickedIds().length;
  }
  function openFilesPicker(onInsert) {
    if (!filesWrap) return;
    FP.onInsert = onInsert;
    $("#files-search").value = "";
    $("#files-list").textContent = "";
    filesWrap.hidden = false;
    loadFiles("").catch((err) => alertModal("Error", err.message));
    $("#files-search").focus();
  }
  function closeFilesPicker() { if (filesWrap) filesWrap.hidden = true; FP.onInsert = null; }
  if (filesWrap) {
    $("#files-search").addEventListener("input", (e) => { loadFiles(e.target.value).catch(() => {}); });
    $("#files-list").addEventListener("change", () => { $("#files-insert").disabled = !pickedIds().length; });
    $("#files-cancel").addEventListener("click", closeFilesPicker);
    $("#files-close").addEventListener("click", closeFilesPicker);
    filesWrap.addEventListener("click", (e) => { if (e.target === filesWrap) closeFilesPicker(); });
    filesWrap.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.stopPropagation(); closeFilesPicker(); } });
    $("#files-insert").addEventListener("click", () => {
      const ids = pickedIds();
      const cb = FP.onInsert;
      closeFilesPicker();
      if (ids.length && cb) cb(ids);
    });
  }
  // The paperclip: files from the computer join My Files (name, size, type), then attach like them.
  async function uploadChosen(input) {
    const ids = [];
    for (const f of Array.from(input.files || [])) {
      const r = await api("/api/files", { name: f.name, size: f.size, mime: f.type || "" });
      ids.push(r.file.file_id);
    }
    input.value = "";
    return ids;
  }
  // Attachment chips (compose and the inline reply): name, size, and an x that calls `onRemove`.
  function renderAttChips(box, atts, onRemove) {
    box.textContent = "";
    box.hidden = !atts.length;
    atts.forEach((a) => {
      const chip = document.createElement("div");
      chip.className = "c-att";
      chip.setAttribute("role", "listitem");
      chip.setAttribute("aria-label", NS.t("Attachment %(name)s", { name: a.filename }));
      const [ico, cls] = fileIcon(a.mime);
      chip.innerHTML = '<span class="material-symbols-outlined ms att-ico" aria-hidden="true"></span><span class="c-att-name"></span><span class="c-att-size"></span>' +
        '<button type="button" class="icon-btn xs c-att-x"><span class="material-symbols-outlined ms" aria-hidden="true">close</span></button>';
      $(".att-ico", chip).textContent = ico;
      $(".att-ico", chip).classList.add(cls);
      $(".c-att-name", chip).textContent = a.filename;
      $(".c-att-size", chip).textContent = "(" + a.size_label + ")";
      const x = $(".c-att-x", chip);
      x.setAttribute("aria-label", NS.t("Remove attachment %(name)s", { name: a.filename }));
      x.title = NS.t("Remove attachment");
      x.addEventListener("click", () => onRemove(a));
      box.appendChild(chip);
    });
  }


  Object.assign(NS, { openFilesPicker, renderAttChips, uploadChosen });
})(window.Inkbox = window.Inkbox || {});
