// A student's live page: the verdict arrives over a WebSocket (same origin), or by polling
// every two seconds when the socket is not available. Without JavaScript the page works as
// a plain form: answer, then reload to see the verdict.
(function () {
  "use strict";
  var root = document.getElementById("live-phone");
  if (!root) return;
  var stateUrl = root.getAttribute("data-state-url");
  var wsPath = root.getAttribute("data-ws-path");
  var pageState = root.getAttribute("data-state");
  var pollTimer = null;
  var labels = {open: "Answering open", closed: "Answering closed", running: "Running the lab: your verdict comes next.", revealed: "Revealed"};

  function status(text) {
    var node = document.getElementById("live-phone-status");
    if (node) node.textContent = text;
  }

  function showVerdict(v) {
    var box = document.getElementById("live-verdict");
    if (!box || !v) return;
    box.replaceChildren();
    box.className = "verdict outcome-" + v.outcome;
    if (v.measured) {
      var m = document.createElement("p");
      m.appendChild(document.createTextNode("The lab measured: "));
      var strong = document.createElement("strong");
      strong.textContent = v.measured;
      m.appendChild(strong);
      box.appendChild(m);
    }
    var head = document.createElement("p");
    var label = document.createElement("strong");
    label.textContent = v.label;
    head.appendChild(label);
    box.appendChild(head);
    if (v.feedback_html) {
      var fb = document.createElement("div");
      fb.className = "feedback";
      fb.innerHTML = v.feedback_html;  // rendered and sanitised on the server (MathML)
      box.appendChild(fb);
    }
    box.hidden = false;
    root.setAttribute("data-verdict", v.outcome);
    stopPolling();
  }

  function setState(state) {
    if (!state) return;
    status(labels[state] || state);
    var form = root.querySelector("form.live-form");
    if (form) {
      var closed = state !== "open";
      Array.prototype.forEach.call(form.elements, function (input) { input.disabled = closed; });
      if (state !== pageState && pageState === "open" && closed) status(labels[state]);
    } else if (state === "open" && pageState !== "open") {
      window.location.reload();  // reopened: the form is needed again
    }
    pageState = state;
    // The verdict comes from a worker, which may not reach this server's channel layer
    // (in memory on the embedded defaults): while it is due, ask for it too.
    if ((state === "running" || state === "revealed") && document.getElementById("live-verdict")) startPolling();
  }

  function poll() {
    fetch(stateUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s) return;
        setState(s.state);
        if (s.verdict) showVerdict(s.verdict);
      })
      .catch(function () {});
  }

  function startPolling() {
    if (pollTimer === null && !root.getAttribute("data-verdict")) pollTimer = window.setInterval(poll, 2000);
  }

  function stopPolling() {
    if (pollTimer !== null) { window.clearInterval(pollTimer); pollTimer = null; }
  }

  function connect(delay) {
    if (!("WebSocket" in window)) { startPolling(); return; }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try { socket = new WebSocket(scheme + window.location.host + wsPath); } catch (e) { startPolling(); return; }
    socket.onopen = function () { stopPolling(); poll(); delay = 1000; };
    socket.onmessage = function (event) {
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (msg.type === "verdict") showVerdict(msg.verdict);
      else if (msg.type === "changed") {
        setState(msg.state);
        // The verdict is pushed; ask once in case this phone missed it while reconnecting.
        if (msg.state === "revealed") window.setTimeout(poll, 1500);
      }
    };
    socket.onclose = function () {
      startPolling();
      window.setTimeout(function () { connect(Math.min(delay * 2, 30000)); }, delay);
    };
  }

  if (pageState !== "revealed") { startPolling(); connect(1000); }
})();
