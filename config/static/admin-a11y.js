// Django's admin site, its widgets given the names WCAG 2.2 AA asks for (loaded by
// config/templates/admin/base_site.html, after Django's own scripts have built the widgets).
"use strict";
(function () {
  function name() {
    // 4.1.2: the autocomplete (select2) box is named by its field's label and its choice; the
    // choice's text is no read-only "textbox" of its own (select2 4.0's markup).
    document.querySelectorAll(".select2-container").forEach(function (box) {
      const select = box.previousElementSibling;
      const combobox = box.querySelector(".select2-selection[role=combobox]");
      const label = select && select.id && document.querySelector("label[for='" + select.id + "']");
      if (!combobox || !label) return;
      if (!label.id) label.id = select.id + "-label";
      const choice = combobox.querySelector(".select2-selection__rendered[id]");
      if (choice) {
        choice.removeAttribute("role");
        choice.removeAttribute("aria-readonly");
      }
      combobox.setAttribute("aria-labelledby", label.id + (choice ? " " + choice.id : ""));
    });
    // 4.1.2: the search icons of the two-box selector are images with a name.
    document.querySelectorAll(".help-tooltip[aria-label]:not([role])").forEach(function (icon) {
      icon.setAttribute("role", "img");
    });
  }
  // After Django's own ready handlers (autocomplete.js builds the select2 boxes in one).
  if (window.django && window.django.jQuery) window.django.jQuery(name);
  window.addEventListener("load", name);
})();
