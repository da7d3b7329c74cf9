// Scroll cue (issue 25 item 7): a display formula, table or figure wider than its box scrolls
// inside it; this marks such a box (class "scrolls"), makes it reachable by keyboard (a
// focusable region) and adds a visible "Scroll sideways" cue after it, updated on resize.
(function () {
  "use strict";
  var BOXES = ".math-display, .scroll-x";

  function update(box) {
    var wide = box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle("scrolls", wide);
    var cue = box.nextElementSibling;
    var hasCue = cue && cue.classList.contains("scroll-cue");
    if (wide && !hasCue) {
      cue = document.createElement("p");
      cue.className = "scroll-cue";
      cue.setAttribute("aria-hidden", "true");
      cue.textContent = "Scroll sideways for the rest \u2192";
      box.insertAdjacentElement("afterend", cue);
      hasCue = true;
    }
    if (hasCue) cue.hidden = !wide;
    if (wide) {
      if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      if (!box.hasAttribute("role")) {
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", box.classList.contains("math-display")
          ? "Formula (scrolls sideways)" : "Wide content (scrolls sideways)");
      }
    }
  }

  function updateAll() {
    document.querySelectorAll(BOXES).forEach(update);
  }

  document.addEventListener("DOMContentLoaded", updateAll);
  window.addEventListener("load", updateAll);
  window.addEventListener("resize", updateAll);
  document.addEventListener("toggle", updateAll, true);  // a <details> opened: its boxes measured
})();
