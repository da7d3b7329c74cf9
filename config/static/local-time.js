// Deadlines are written in the course's time zone; where the reader's local time of that
// moment differs from the course's, add it. A zone of another name that reads the same
// (Europe/London in winter and UTC) adds nothing. Without JavaScript the course's time stays.
(function () {
  "use strict";
  var OPTIONS = {day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    hour12: false};
  function inZone(when, zone) {
    try {
      return new Intl.DateTimeFormat(undefined, Object.assign({timeZone: zone}, OPTIONS))
        .format(when);
    } catch (e) {
      return null;  // a zone this browser does not know: say the local time
    }
  }
  function localise(root) {
    var here = Intl.DateTimeFormat().resolvedOptions().timeZone;
    var fmt = new Intl.DateTimeFormat(undefined, OPTIONS);
    root.querySelectorAll("time[data-local-time]").forEach(function (el) {
      if (el.dataset.localised) return;
      el.dataset.localised = "1";
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      var shown = el.textContent.match(/\(([^)]+)\)\s*$/);
      if (shown && (shown[1] === here || inZone(when, shown[1]) === fmt.format(when))) return;
      var span = document.createElement("span");
      span.className = "your-time";
      span.textContent = " (your time: " + fmt.format(when) + ")";
      el.after(span);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { localise(document); });
})();
