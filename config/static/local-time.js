// Deadlines are written in the course's time zone; where the reader's browser is in another
// zone, add the same moment in their local time. Without JavaScript the course's time stays.
(function () {
  "use strict";
  function localise(root) {
    var here = Intl.DateTimeFormat().resolvedOptions().timeZone;
    root.querySelectorAll("time[data-local-time]").forEach(function (el) {
      if (el.dataset.localised) return;
      el.dataset.localised = "1";
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      var shown = el.textContent.match(/\(([^)]+)\)\s*$/);
      if (shown && shown[1] === here) return;
      var fmt = new Intl.DateTimeFormat(undefined, {day: "numeric", month: "short",
        hour: "2-digit", minute: "2-digit", hour12: false});
      var span = document.createElement("span");
      span.className = "your-time";
      span.textContent = " (your time: " + fmt.format(when) + ")";
      el.after(span);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { localise(document); });
})();
