// An exam attempt's page, enhanced: drafts saved on the server as the student types
// (debounced, one field per request), the whole form saved when the page is left, and a
// countdown with spoken warnings at 5 and 1 minutes left (a polite live region: focus never
// moves) that the student can hide and show again (the choice is kept for the attempt; the
// warnings are still spoken while it is hidden). Without this file the page still works: Save posts the form, the page states the
// end time, and the server enforces it.
(function () {
  "use strict";
  var DEBOUNCE_MS = 700;
  var RETRY_MS = [1000, 2000, 5000, 10000];

  function setup() {
    var form = document.querySelector("form[data-exam-paper]");
    var timer = document.querySelector("[data-exam-timer]");
    if (!form) { return; }
    var status = form.querySelector("[data-save-status]");
    var warning = timer ? timer.querySelector("[data-timer-warning]") : null;
    var token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    var url = form.getAttribute("action");
    var pending = {};      // field name -> value not yet confirmed saved
    // Unconfirmed text is also kept in this browser until the server confirms it: a reload
    // or a crash before the save arrives (a beacon can lose the race with the next page)
    // finds it here, puts it back in its field and sends it.
    var storeKey = "exam-drafts:" + url;
    var timers = {};
    var failures = 0;
    var closed = false;

    function keep() {
      try {
        if (Object.keys(pending).length) {
          window.localStorage.setItem(storeKey, JSON.stringify(pending));
        } else {
          window.localStorage.removeItem(storeKey);
        }
      } catch (e) { /* storage refused (private mode): the server copy still counts */ }
    }

    function restore() {
      var kept = {};
      try { kept = JSON.parse(window.localStorage.getItem(storeKey) || "{}") || {}; } catch (e) { kept = {}; }
      Object.keys(kept).forEach(function (name) {
        var fields = form.querySelectorAll("[name='" + name.replace(/'/g, "") + "']");
        if (!fields.length) { return; }
        fields.forEach(function (field) {
          if (field.type === "radio") { field.checked = field.value === kept[name]; }
          else { field.value = kept[name]; }
        });
        pending[name] = kept[name];
      });
    }

    function say(text) { if (warning) { warning.textContent = text; } }

    function body(fields) {
      var data = new FormData();
      data.append("csrfmiddlewaretoken", token);
      Object.keys(fields).forEach(function (name) { data.append(name, fields[name]); });
      return data;
    }

    function send() {
      var names = Object.keys(pending);
      if (!names.length || closed) { return; }
      var fields = {};
      names.forEach(function (name) { fields[name] = pending[name]; });
      fetch(url, { method: "POST", body: body(fields), credentials: "same-origin",
                   headers: { "X-Exam-Save": "1", Accept: "application/json" } })
        .then(function (response) {
          return response.json().then(function (data) { return [response.status, data]; });
        })
        .then(function (result) {
          var code = result[0], data = result[1];
          if (code === 409) {  // time is up: the server has submitted what it had
            closed = true;
            pending = {};
            keep();
            say(data.message);
            window.location.reload();
            return;
          }
          if (code !== 200) { throw new Error(data.message || ("HTTP " + code)); }
          names.forEach(function (name) {
            if (pending[name] === fields[name]) { delete pending[name]; }
          });
          keep();
          failures = 0;
          var when = new Date(data.saved_at);
          status.textContent = "Saved at " + when.toLocaleTimeString() + ".";
          if (Object.keys(pending).length) { send(); }
        })
        .catch(function () {
          var wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
          failures += 1;
          status.textContent = "Not saved yet: no connection. Trying again; keep this page open.";
          if (failures === 2) { say("Your latest answers are not saved yet: the connection is down. Keep this page open."); }
          setTimeout(send, wait);
        });
    }

    function changed(event) {
      var input = event.target;
      if (!input.name || input.name.charAt(0) !== "q") { return; }
      pending[input.name] = input.value;
      keep();
      status.textContent = "Saving…";
      clearTimeout(timers[input.name]);
      timers[input.name] = setTimeout(send, DEBOUNCE_MS);
    }
    restore();
    if (Object.keys(pending).length) { status.textContent = "Saving…"; send(); }
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    window.addEventListener("online", send);

    // Leaving the page (another page, a reload, closing the tab): send the whole form.
    function leave() {
      if (closed || !Object.keys(pending).length) { return; }
      var fields = {};
      new FormData(form).forEach(function (value, name) {
        if (name.charAt(0) === "q") { fields[name] = value; }
      });
      navigator.sendBeacon(url, body(fields));
    }
    window.addEventListener("pagehide", leave);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "hidden") { leave(); }
    });

    if (!timer) { return; }
    var deadline = new Date(timer.getAttribute("data-deadline")).getTime();
    var skew = new Date(timer.getAttribute("data-now")).getTime() - Date.now();
    var line = timer.querySelector("[data-time-left-line]");
    var left = timer.querySelector("[data-time-left]");
    var warned = { 5: false, 1: false };
    var toggle = timer.querySelector("[data-timer-toggle]");
    var hideKey = "exam-timer-hidden:" + url;
    function shown(visible) {
      line.hidden = !visible;
      toggle.setAttribute("aria-expanded", visible ? "true" : "false");
      toggle.textContent = visible ? "Hide the time left" : "Show the time left";
      try {
        if (visible) { window.localStorage.removeItem(hideKey); }
        else { window.localStorage.setItem(hideKey, "1"); }
      } catch (e) { /* storage refused: the choice lasts for this page only */ }
    }
    var hidden = false;
    try { hidden = window.localStorage.getItem(hideKey) === "1"; } catch (e) { hidden = false; }
    toggle.hidden = false;
    toggle.addEventListener("click", function () { shown(line.hidden); });
    shown(!hidden);
    function tick() {
      var ms = deadline - (Date.now() + skew);
      var seconds = Math.max(0, Math.floor(ms / 1000));
      var minutes = Math.floor(seconds / 60);
      left.textContent = minutes + " min " + (seconds % 60) + " s";
      [5, 1].forEach(function (mark) {
        if (!warned[mark] && seconds <= mark * 60 && seconds > 0) {
          warned[mark] = true;
          say(mark === 1 ? "1 minute left. Your answers are saved as you type."
                         : mark + " minutes left. Your answers are saved as you type.");
        }
      });
      if (seconds <= 0) {
        clearInterval(interval);
        say("Time is up. Your saved answers are being submitted.");
        // The server refuses saves after the deadline: reload to see the closed attempt.
        setTimeout(function () { window.location.reload(); }, 1500);
      }
    }
    var interval = setInterval(tick, 1000);
    tick();
  }
  document.addEventListener("DOMContentLoaded", setup);
})();
