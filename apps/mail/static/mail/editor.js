/* The message editor (compose and the inline reply): a contenteditable body with Gmail's formatting bar.
   Loaded first (layout.html); it shares one namespace object, window.Inkbox, with the other files. The server derives the plain text
   from the HTML sent (apps/mail/services/richtext.py); text() here is the same line rule, used only for the
   page's own checks (is the body empty, is it only the signature). */
(function () {
  "use strict";
  const NS = (window.Inkbox = window.Inkbox || {});
  const BLOCKS = new Set(["DIV", "P", "LI", "BLOCKQUOTE", "UL", "OL"]);

  function tokens(el, out) {
    el.childNodes.forEach((n) => {
      if (n.nodeType === 3) { if (n.data) out.push(["txt", n.data.replace(/\u00a0/g, " ")]); }
      else if (n.nodeType === 1) {
        if (n.tagName === "BR") out.push(["br"]);
        else if (BLOCKS.has(n.tagName)) {
          out.push(["blk"]);
          if (n.tagName === "LI" && n.parentNode) {
            const list = n.parentNode;
            const i = Array.prototype.indexOf.call(list.children, n) + 1;
            out.push(["txt", list.tagName === "OL" ? i + ". " : "- "]);
          }
          tokens(n, out);
          out.push(["blk"]);
        } else tokens(n, out);
      }
    });
    return out;
  }
  function text(el) {
    const toks = tokens(el, []);
    let out = "", line = false, pending = false;
    toks.forEach((t, i) => {
      if (t[0] === "blk") { if (line) { pending = true; line = false; } return; }
      if (pending) { out += "\n"; pending = false; }
      if (t[0] === "txt") { out += t[1]; line = true; return; }
      const nxt = toks.slice(i + 1).find((x) => x[0] !== "txt" || x[1]);
      if (!nxt || nxt[0] === "blk") line = true;
      else { out += "\n"; line = false; }
    });
    return out;
  }
  function esc(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function setText(el, t) {
    el.innerHTML = t ? t.split("\n").map((l) => "<div>" + (l ? esc(l) : "<br>") + "</div>").join("") : "";
  }
  function setHtml(el, h) { el.innerHTML = h || ""; }
  function html(el) { return el.innerHTML; }
  function caretToStart(el) {
    el.focus();
    const r = document.createRange();
    r.setStart(el, 0);
    r.collapse(true);
    const s = getSelection();
    s.removeAllRanges();
    s.addRange(r);
  }
  function closeMenus(bar) {
    bar.querySelectorAll(".fmt-menu").forEach((m) => { m.hidden = true; });
    bar.querySelectorAll("[data-menu]").forEach((b) => b.setAttribute("aria-expanded", "false"));
  }
  function inEditor(el) {
    const s = getSelection();
    return s.rangeCount && el.contains(s.getRangeAt(0).commonAncestorContainer);
  }
  function run(el, cmd, arg) {
    if (!inEditor(el)) el.focus();
    if (cmd === "quote") {
      const inQuote = document.queryCommandValue("formatBlock").toLowerCase() === "blockquote";
      document.execCommand("formatBlock", false, inQuote ? "div" : "blockquote");
    } else document.execCommand(cmd, false, arg || null);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }
  function refresh(el, bar) {
    if (!inEditor(el)) return;
    ["bold", "italic", "underline"].forEach((c) => {
      const b = bar.querySelector('[data-cmd="' + c + '"]');
      if (b) b.setAttribute("aria-pressed", document.queryCommandState(c) ? "true" : "false");
    });
  }
  /* Wire an editor to its bar and its "Formatting options" toggle. */
  function attach(el, bar, toggle) {
    document.execCommand("styleWithCSS", false, false);
    bar.addEventListener("mousedown", (e) => { if (e.target.closest("button")) e.preventDefault(); });
    bar.querySelectorAll("[data-menu]").forEach((b) => b.addEventListener("click", (e) => {
      e.stopPropagation();
      const m = bar.querySelector('[data-menu-for="' + b.dataset.menu + '"]');
      const open = m.hidden;
      closeMenus(bar);
      m.hidden = !open;
      b.setAttribute("aria-expanded", open ? "true" : "false");
    }));
    bar.querySelectorAll("[data-cmd]").forEach((b) => b.addEventListener("click", (e) => {
      e.stopPropagation();
      run(el, b.dataset.cmd, b.dataset.arg);
      const menu = b.closest(".fmt-menu");
      if (menu) {
        menu.querySelectorAll('[role="menuitemradio"]').forEach((x) => x.setAttribute("aria-checked", x === b ? "true" : "false"));
        const label = b.dataset.label && bar.querySelector('[data-menu="' + menu.dataset.menuFor + '"] .fmt-sel-text');
        if (label) label.textContent = b.dataset.label;
        closeMenus(bar);
      }
      refresh(el, bar);
    }));
    document.addEventListener("click", () => closeMenus(bar));
    if (toggle) toggle.addEventListener("click", () => {
      bar.hidden = !bar.hidden;
      toggle.setAttribute("aria-pressed", bar.hidden ? "false" : "true");
      toggle.classList.toggle("on", !bar.hidden);
    });
    el.addEventListener("keydown", (e) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const cmd = { b: "bold", i: "italic", u: "underline" }[e.key.toLowerCase()];
      if (cmd) { e.preventDefault(); run(el, cmd); refresh(el, bar); }
    });
    ["keyup", "mouseup"].forEach((t) => el.addEventListener(t, () => refresh(el, bar)));
  }
  NS.editor = { text: text, html: html, setText: setText, setHtml: setHtml, caretToStart: caretToStart, attach: attach };
})();
