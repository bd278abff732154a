/* The Uber Eats-like look's few differences in behaviour, on top of the app's own script (food/app.js):
   the cart pill reads "Cart • N" (its accessible name too), and the item's button says how many it adds
   ("Add 2 to order • $25.98"). No timers, no animation. */
(() => {
  "use strict";
  const label = (n) => `Cart • ${n} item${n === 1 ? "" : "s"}`;
  // app.js names the cart button "Cart, N items" when the count changes; this look names it "Cart • N items".
  const fixCart = (b) => {
    const m = /^Cart, (\d+)/.exec(b.getAttribute("aria-label") || "");
    if (m) b.setAttribute("aria-label", label(Number(m[1])));
  };
  document.querySelectorAll("[data-cart-open]").forEach((b) => {
    fixCart(b);
    new MutationObserver(() => fixCart(b)).observe(b, {attributes: true, attributeFilter: ["aria-label"]});
  });
  // The quantity stepper's clicks are handled by app.js on the buttons themselves; this listener on the
  // document runs after them and copies the new quantity into "Add N to order".
  document.addEventListener("click", (e) => {
    const step = e.target.closest("[data-qty]");
    if (!step) return;
    const m = step.closest(".modal-item");
    const n = m && m.querySelector("[data-add-n]");
    const v = m && m.querySelector("[data-qty-val]");
    if (n && v) n.textContent = v.textContent.trim();
  });
})();
