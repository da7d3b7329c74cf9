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

  // The preview's reading in plain words, from its MathML (for a listener whose screen reader
  // does not speak MathML, and for anyone checking how a formula was read).
  var SPOKEN = {
    "+": "plus", "-": "minus", "\u2212": "minus", "\u00d7": "times", "\u22c5": "times",
    "\u00b7": "times", "*": "times", "/": "divided by", "=": "equals", "<": "is less than",
    ">": "is greater than", "\u2264": "is at most", "\u2265": "is at least",
    "\u2260": "is not equal to", "\u00b1": "plus or minus", "\u221e": "infinity",
    "\u222a": "union", "\u2229": "intersection", "(": "open bracket", ")": "close bracket",
    "[": "open square bracket", "]": "close square bracket", "{": "open brace",
    "}": "close brace", "|": "bar", "\u00ac": "not", "\u2227": "and", "\u2228": "or",
    "\u2192": "implies", "\u21d2": "implies", "\u2194": "if and only if", "!": "factorial",
    "\u2061": ""
  };
  function inWords(node) {
    var name = (node.localName || "").toLowerCase();
    var kids = Array.prototype.slice.call(node.children || []);
    var w = function (i) { return kids[i] ? inWords(kids[i]) : ""; };
    var text = (node.textContent || "").trim();
    switch (name) {
      case "mi": case "mn": case "mtext": case "ms": return text;
      case "mo": return Object.prototype.hasOwnProperty.call(SPOKEN, text) ? SPOKEN[text] : text;
      case "mfrac": return "the fraction " + w(0) + " over " + w(1) + ", end fraction";
      case "msup":
        if ((kids[1] && kids[1].textContent.trim()) === "2") { return w(0) + " squared"; }
        return w(0) + " to the power " + w(1) + (kids[1] && kids[1].children.length > 1 ? ", end power" : "");
      case "msub": return w(0) + " sub " + w(1);
      case "msubsup": return w(0) + " sub " + w(1) + " to the power " + w(2);
      case "msqrt": return "the square root of " + kids.map(inWords).join(" ") + ", end root";
      case "mroot": return "the root of order " + w(1) + " of " + w(0) + ", end root";
      case "mtable":
        return "a matrix of " + kids.length + " rows: " + kids.map(function (row, i) {
          return "row " + (i + 1) + ": " + Array.prototype.map.call(row.children, inWords).join(", ");
        }).join("; ") + ", end matrix";
      case "annotation": case "annotation-xml": return "";
      default: return kids.length ? kids.map(inWords).filter(Boolean).join(" ") : text;
    }
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
        var words = document.createElement("span");
        words.className = "preview-words";
        var math = maths.querySelector("math");
        words.textContent = math ? " In words: " + inWords(math).replace(/\s+/g, " ").trim() + "." : "";
        box.append(label, maths, text, words);
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
          var part = el.closest(".part");
          var refresh = el.getAttribute("data-refresh");
          if (part && refresh) { refreshPart(part, refresh); } else { window.location.reload(); }
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

  // Matrix parts: a grid of cells kept in step with the text field (the no-JS answer).
  function splitMatrix(text) {
    var t = text.trim().replace(/^\[\s*\[/, "").replace(/\]\s*\]$/, "")
      .replace(/^\[/, "").replace(/\]$/, "");
    var rows = t.split(/\]\s*,?\s*\[|;|\n/).map(function (r) { return r.trim(); })
      .filter(function (r) { return r.length; });
    return rows.map(function (r) {
      return (r.indexOf(",") >= 0 || r.indexOf("\t") >= 0 ? r.split(/[,\t]/) : r.split(/\s+/))
        .map(function (c) { return c.trim(); });
    });
  }

  function setupMatrix(table) {
    var form = table.closest("form");
    var text = form && form.querySelector(".answer-input");
    if (!text) { return; }
    var cells = Array.prototype.slice.call(table.querySelectorAll(".matrix-cell"));
    var rows = table.querySelectorAll("tr").length;
    var cols = rows ? cells.length / rows : 0;
    function at(i, j) { return cells[i * cols + j]; }
    function toText() {
      var out = [];
      for (var i = 0; i < rows; i++) {
        var row = [];
        for (var j = 0; j < cols; j++) { row.push(at(i, j).value.trim()); }
        out.push("[" + row.join(", ") + "]");
      }
      text.value = "[" + out.join(", ") + "]";
      text.dispatchEvent(new Event("input"));
    }
    function fill(values, i0, j0) {
      for (var i = 0; i < values.length && i0 + i < rows; i++) {
        for (var j = 0; j < values[i].length && j0 + j < cols; j++) {
          at(i0 + i, j0 + j).value = values[i][j];
        }
      }
    }
    if (text.value) {
      var initial = splitMatrix(text.value);
      if (initial.length === rows) { fill(initial, 0, 0); }
    }
    cells.forEach(function (cell, k) {
      var i = Math.floor(k / cols), j = k % cols;
      cell.addEventListener("input", toText);
      cell.addEventListener("paste", function (event) {
        var pasted = (event.clipboardData || window.clipboardData).getData("text");
        var values = splitMatrix(pasted);
        if (values.length > 1 || (values[0] && values[0].length > 1)) {
          event.preventDefault();
          fill(values, values.length === rows ? 0 : i,
               values.length === rows ? 0 : j);
          toText();
        }
      });
      cell.addEventListener("keydown", function (event) {
        var start = cell.selectionStart, end = cell.value.length, next = null;
        if (event.key === "ArrowRight" && start === end && j + 1 < cols) { next = at(i, j + 1); }
        if (event.key === "ArrowLeft" && start === 0 && j > 0) { next = at(i, j - 1); }
        if (event.key === "ArrowDown" && i + 1 < rows) { next = at(i + 1, j); }
        if (event.key === "ArrowUp" && i > 0) { next = at(i - 1, j); }
        if (event.key === "Enter" && !event.shiftKey && k + 1 < cells.length) {
          next = cells[k + 1];
        }
        if (next) { event.preventDefault(); next.focus(); next.select(); }
      });
    });
    text.addEventListener("change", function () {
      var values = splitMatrix(text.value);
      if (values.length === rows) { fill(values, 0, 0); }
    });
    // One input shown, labelled: the grid, under the part's "Your answer" label (which
    // then names the first cell); the text field stays in the form, out of sight, and
    // carries the answer the cells write into it.
    var label = text.id && form.querySelector('label[for="' + text.id + '"]');
    if (label && cells.length) { label.htmlFor = cells[0].id; }
    text.type = "hidden";
    table.hidden = false;
  }

  // A section's figures are folded while one of its predictions is due (module.html: they
  // show the answer). Once the part swapped in leaves none due in its section, they show for
  // good, unfolded, as the page itself shows them when loaded again.
  function unfoldFigures(part) {
    var section = part.closest("section");
    if (!section || section.querySelector("[data-prediction-due]")) { return; }
    section.querySelectorAll("details.reveal").forEach(function (fold) {
      var shown = Array.prototype.filter.call(fold.children, function (child) {
        return child.tagName !== "SUMMARY";
      });
      fold.replaceWith.apply(fold, shown);
    });
  }

  // Replace `part` with the server's fragment of its new state (`html`), wire it up, and say
  // its verdict (or notice) through the page's live region; with `focus`, move focus there.
  function swapPart(part, html, focus) {
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    var fresh = holder.content.firstElementChild;
    if (!fresh || fresh.id !== part.id) { throw new Error("not this part"); }
    part.replaceWith(fresh);
    unfoldFigures(fresh);
    fresh.querySelectorAll("[data-matrix-cells]").forEach(setupMatrix);
    fresh.querySelectorAll("form[data-preview-url]").forEach(setupPreview);
    fresh.querySelectorAll("[data-poll]").forEach(setupPoll);
    var said = fresh.querySelector(".part-notice") || fresh.querySelector(".verdict");
    var target = said || fresh;
    if (focus) {
      if (!target.hasAttribute("tabindex")) { target.setAttribute("tabindex", "-1"); }
      target.focus({ preventScroll: false });
    }
    var region = announcer();
    region.textContent = "";
    var attempts = fresh.querySelector(".attempts");
    var text = (said ? said.textContent : "") + " " + (attempts ? attempts.textContent : "");
    setTimeout(function () { region.textContent = text.replace(/\s+/g, " ").trim(); }, 50);
  }

  // A prediction's lab run has finished: fetch the part's new state and swap it in, so that
  // what the student typed elsewhere on the page, and their place, are kept (a reload lost
  // both). Focus moves to the verdict only if the student was still in this part.
  function refreshPart(part, url) {
    var within = part.contains(document.activeElement);
    fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) { swapPart(part, html, within); })
      .catch(function () { window.location.reload(); });
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

  // An answer the service could not save (503: its database was away; or no answer at all:
  // the server restarting) stays in the form, the part says plainly that it was NOT saved,
  // and the form is sent again by itself after the server's Retry-After (capped), until the
  // service answers; submitting meanwhile sends it at once.
  function retryDelay(response) {
    var seconds = response ? parseInt(response.headers.get("Retry-After") || "", 10) : NaN;
    if (!(seconds > 0)) { seconds = 5; }
    return Math.min(seconds, 30) * 1000;
  }

  function notSaved(part, form, text) {
    var notice = part.querySelector(".not-saved");
    if (!notice) {
      notice = document.createElement("p");
      notice.className = "message error not-saved";
      notice.setAttribute("role", "alert");
      notice.setAttribute("tabindex", "-1");
      form.parentNode.insertBefore(notice, form);
    }
    notice.textContent = text;
    return notice;
  }

  var NOT_SAVED = "Your answer was NOT saved: the service cannot be reached. It is kept here " +
    "and will be sent again by itself when the service answers.";

  // Answering in place: post the form, replace the part with the fragment of its new state,
  // focus the verdict (or the refusal) and announce it. A 503 or no answer keeps the answer
  // and resends it (above); any other failure falls back to the plain post, which redirects
  // back to the part.
  function sendAnswer(form, part) {
    clearTimeout(Number(form.getAttribute("data-resend-timer") || 0));
    form.removeAttribute("data-resend-timer");
    if (form.getAttribute("data-busy")) { return; }
    form.setAttribute("data-busy", "yes");
    part.setAttribute("aria-busy", "true");
    function keep(text, delay) {
      form.removeAttribute("data-busy");
      part.removeAttribute("aria-busy");
      var notice = notSaved(part, form, text);
      if (!form.hasAttribute("data-resending")) {
        form.setAttribute("data-resending", "yes");
        notice.focus({ preventScroll: false });
      }
      var timer = setTimeout(function () { sendAnswer(form, part); }, delay);
      form.setAttribute("data-resend-timer", String(timer));
    }
    fetch(form.action, {
      method: "POST", body: new FormData(form), credentials: "same-origin",
      headers: { "X-Answer-Fragment": "1", Accept: "text/html" }
    }).then(function (response) {
      if (response.status === 503) {
        return response.json().catch(function () { return {}; }).then(function (data) {
          keep(data.message || NOT_SAVED, retryDelay(response));
          return null;
        });
      }
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.text();
    }, function () {
      keep(NOT_SAVED, retryDelay(null));  // no answer at all: the network or the server
      return null;
    }).then(function (html) {
      if (html === null) { return; }
      swapPart(part, html, true);
    }).catch(function () {
      form.removeAttribute("data-busy");
      form.submit();
    });
  }

  function setupAnswering() {
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.classList || !form.classList.contains("answer-form")) { return; }
      var submitter = event.submitter;
      if (submitter && submitter.hasAttribute("formaction")) { return; }  // Preview
      var part = form.closest(".part");
      if (!part || !window.fetch || !window.FormData) { return; }
      event.preventDefault();
      sendAnswer(form, part);
    });
  }

  // The page that says an answer was not saved (core/kept_forms.py) holds the form with the
  // answer kept: send it again by itself after the server's Retry-After.
  function setupKeptForm(form) {
    var seconds = parseInt(form.getAttribute("data-resend-after") || "", 10);
    if (!(seconds > 0)) { seconds = 5; }
    setTimeout(function () { form.submit(); }, Math.min(seconds, 30) * 1000);
  }

  function start() {
    setupAnswering();
    focusAnsweredPart();
    document.querySelectorAll("[data-matrix-cells]").forEach(setupMatrix);
    document.querySelectorAll("form[data-preview-url]").forEach(setupPreview);
    document.querySelectorAll("[data-poll]").forEach(setupPoll);
    document.querySelectorAll("[data-alignment-grid]").forEach(setupGrid);
    document.querySelectorAll("form[data-resend-after]").forEach(setupKeptForm);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
