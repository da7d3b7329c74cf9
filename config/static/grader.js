// Progressive enhancement for the grader's pages (our own code, no dependencies).
// Every page works without this file: forms post and redirect, status pages have links.
// With it: answers sent in place (the part is replaced by the server's fragment of its new
// state, the rest of the page stays), a live preview of how an answer is read, polling of
// lab runs and predictions, and Figure 5.6's rows chosen without reloading the page.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function debounce(fn, ms) {
    var timer = null;
    return function () {
      var args = arguments;
      clearTimeout(timer);
      timer = setTimeout(function () { fn.apply(null, args); }, ms);
    };
  }

  function getJSON(url) {
    return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.json();
      });
  }

  // Live preview: "how we read your answer", as the student types.
  function setupPreview(form) {
    var url = form.getAttribute("data-preview-url");
    var input = form.querySelector(".answer-input");
    var box = form.querySelector(".preview");
    if (!url || !input || !box) { return; }
    var latest = 0;
    function show(data) {
      box.textContent = "";
      box.classList.remove("invalid", "valid");
      if (data.empty) {
        box.innerHTML = '<span class="preview-hint">Type an answer to see how it is read.</span>';
        input.removeAttribute("aria-invalid");
      } else if (data.valid) {
        box.classList.add("valid");
        var label = document.createElement("span");
        label.className = "preview-label";
        label.textContent = "Read as: ";
        var maths = document.createElement("span");
        maths.className = "preview-math";
        maths.innerHTML = data.mathml;  // MathML built on the server from our own parse tree
        var text = document.createElement("span");
        text.className = "preview-canonical";
        text.textContent = " (" + data.canonical + ")";
        box.append(label, maths, text);
        if (data.form) {
          var form = document.createElement("span");
          form.className = "preview-form";
          form.textContent = " " + data.form;
          box.append(form);
        }
        input.removeAttribute("aria-invalid");
      } else {
        box.classList.add("invalid");
        box.textContent = "Not understood: " + data.message;
        input.setAttribute("aria-invalid", "true");
      }
    }
    var update = debounce(function () {
      var ticket = ++latest;
      getJSON(url + "?answer=" + encodeURIComponent(input.value))
        .then(function (data) { if (ticket === latest) { show(data); } })
        .catch(function () { /* the preview is a help; submitting still works */ });
    }, 250);
    input.addEventListener("input", update);
    // The verdict above the form already says how the last answer was read (or why it was
    // not): previewing it again on load would show the same message twice.
    if (input.value && form.getAttribute("data-preview-on-load") !== "no") { update(); }
  }

  // Polling: a lab run's status and progress, or a prediction waiting for its lab run.
  function setupPoll(el) {
    var url = el.getAttribute("data-poll");
    var progress = el.querySelector("progress");
    var label = el.querySelector(".status-label");
    var delay = 700;
    function tick() {
      getJSON(url).then(function (data) {
        if (progress && typeof data.progress === "number") { progress.value = data.progress; }
        if (label && data.label) { label.textContent = data.label; }
        if (data.finished || data.waiting === false) {
          window.location.reload();
          return;
        }
        delay = Math.min(delay * 1.3, 3000);
        setTimeout(tick, delay);
      }).catch(function () { setTimeout(tick, 3000); });
    }
    setTimeout(tick, delay);
  }

  // Figure 5.6: choosing a row shows its weights without a page load.
  function setupGrid(grid) {
    grid.addEventListener("click", function (event) {
      var link = event.target.closest("a[data-row]");
      if (!link) { return; }
      event.preventDefault();
      var row = link.getAttribute("data-row");
      grid.querySelectorAll("a[data-row]").forEach(function (a) {
        var chosen = a === link;
        if (chosen) { a.setAttribute("aria-current", "true"); } else { a.removeAttribute("aria-current"); }
        a.closest("tr").classList.toggle("chosen", chosen);
      });
      grid.querySelectorAll("[data-row-panel]").forEach(function (panel) {
        panel.hidden = panel.getAttribute("data-row-panel") !== row;
      });
      var hint = grid.querySelector("[data-row-hint]");
      if (hint) { hint.hidden = true; }
      if (window.history && window.history.replaceState) {
        window.history.replaceState(null, "", link.getAttribute("href"));
      }
    });
  }

  // After answering (POST, then redirect to #part-N), move focus to the verdict so that a
  // screen reader reads it and the keyboard continues from the question just answered.
  function focusAnsweredPart() {
    var match = /^#part-(\d+)$/.exec(window.location.hash);
    var part = match && document.getElementById("part-" + match[1]);
    if (!part) { return; }
    var target = part.querySelector(".verdict") || part;
    if (!target.hasAttribute("tabindex")) { target.setAttribute("tabindex", "-1"); }
    target.focus({ preventScroll: true });
  }

  // One polite live region for the page: a replaced part's own live regions are new nodes,
  // which screen readers do not announce reliably.
  function announcer() {
    var region = document.getElementById("answer-announcer");
    if (!region) {
      region = document.createElement("div");
      region.id = "answer-announcer";
      region.className = "visually-hidden";
      region.setAttribute("aria-live", "polite");
      region.setAttribute("role", "status");
      document.body.appendChild(region);
    }
    return region;
  }

  // Answering in place: post the form, replace the part with the fragment of its new state,
  // focus the verdict (or the refusal) and announce it. Any failure falls back to the
  // plain post, which redirects back to the part.
  function setupAnswering() {
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.classList || !form.classList.contains("answer-form")) { return; }
      var submitter = event.submitter;
      if (submitter && submitter.hasAttribute("formaction")) { return; }  // Preview
      var part = form.closest(".part");
      if (!part || !window.fetch || !window.FormData) { return; }
      event.preventDefault();
      if (form.getAttribute("data-busy")) { return; }
      form.setAttribute("data-busy", "yes");
      part.setAttribute("aria-busy", "true");
      fetch(form.action, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { "X-Answer-Fragment": "1", Accept: "text/html" }
      }).then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      }).then(function (html) {
        var holder = document.createElement("template");
        holder.innerHTML = html.trim();
        var fresh = holder.content.firstElementChild;
        if (!fresh || fresh.id !== part.id) { throw new Error("not this part"); }
        part.replaceWith(fresh);
        fresh.querySelectorAll("form[data-preview-url]").forEach(setupPreview);
        fresh.querySelectorAll("[data-poll]").forEach(setupPoll);
        var said = fresh.querySelector(".part-notice") || fresh.querySelector(".verdict");
        var target = said || fresh;
        if (!target.hasAttribute("tabindex")) { target.setAttribute("tabindex", "-1"); }
        target.focus({ preventScroll: false });
        var region = announcer();
        region.textContent = "";
        var attempts = fresh.querySelector(".attempts");
        var text = (said ? said.textContent : "") + " " + (attempts ? attempts.textContent : "");
        setTimeout(function () { region.textContent = text.replace(/\s+/g, " ").trim(); }, 50);
      }).catch(function () {
        form.removeAttribute("data-busy");
        form.submit();
      });
    });
  }

  function start() {
    setupAnswering();
    focusAnsweredPart();
    document.querySelectorAll("form[data-preview-url]").forEach(setupPreview);
    document.querySelectorAll("[data-poll]").forEach(setupPoll);
    document.querySelectorAll("[data-alignment-grid]").forEach(setupGrid);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
