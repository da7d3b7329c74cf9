// The projector page: the room's answers as they come in, pushed over a WebSocket
// (same origin), polled every second when the socket is not available. No names here:
// the state holds counts only. Built with DOM methods (no innerHTML of server text).
(function () {
  "use strict";
  var root = document.getElementById("live-projector");
  if (!root) return;
  var stateUrl = root.getAttribute("data-state-url");
  var wsPath = root.getAttribute("data-ws-path");
  var shown = -1;
  var pollTimer = null;
  var socketOpen = false;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function render(state) {
    if (state.version < shown) return;  // an older state arriving late
    shown = state.version;
    document.getElementById("live-state").textContent = state.label;
    document.getElementById("live-count").textContent = String(state.count);
    document.getElementById("live-students").textContent = state.students ? " of " + state.students + " students" : "";
    var measured = document.getElementById("live-measured");
    measured.hidden = !state.measured;
    document.getElementById("live-measured-value").textContent = state.measured || "";
    document.getElementById("live-hidden-note").hidden = state.show_distribution || state.state === "revealed";
    var chart = document.getElementById("live-chart");
    chart.replaceChildren();
    var bars = state.bars || [];
    var max = 1;
    bars.forEach(function (b) { if (b.count > max) max = b.count; });
    var correct = state.correct || [];
    if (bars.length) {
      var list = el("ol", "live-bars live-" + state.kind);
      bars.forEach(function (b) {
        var item = el("li", "live-bar" + (correct.indexOf(b.key) >= 0 ? " live-correct" : ""));
        item.appendChild(el("span", "live-bar-label", b.label));
        var track = el("span", "live-bar-track");
        var fill = el("span", "live-bar-fill");
        fill.style.width = (100 * b.count / max).toFixed(1) + "%";
        track.appendChild(fill);
        item.appendChild(track);
        item.appendChild(el("span", "live-bar-count", b.count));
        if (b.note) item.appendChild(el("span", "live-bar-note", b.note));
        list.appendChild(item);
      });
      chart.appendChild(list);
      if (state.log) chart.appendChild(el("p", "live-note", "Bins on a log scale: the answers span several powers of ten."));
    }
    var verdicts = document.getElementById("live-verdicts");
    verdicts.replaceChildren();
    verdicts.hidden = !state.verdicts;
    if (state.verdicts) {
      var names = {correct: "correct", partial: "partly correct", incorrect: "incorrect", pending: "still grading", review: "awaiting review", error: "grading error"};
      Object.keys(state.verdicts).forEach(function (k) {
        verdicts.appendChild(el("span", "live-verdict-count outcome-" + k, state.verdicts[k] + " " + (names[k] || k)));
      });
    }
    root.setAttribute("data-version", String(state.version));
    root.setAttribute("data-live-state", state.state);
    // While the lab runs, the reveal comes from a worker, which may not reach this server's
    // channel layer (in memory on the embedded defaults): ask until it is there.
    if (state.state === "running") startPolling(); else if (socketOpen) stopPolling();
  }

  function poll() {
    fetch(stateUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) { if (state) render(state); })
      .catch(function () {});
  }

  function startPolling() {
    if (pollTimer === null) pollTimer = window.setInterval(poll, 1000);
  }

  function stopPolling() {
    if (pollTimer !== null) { window.clearInterval(pollTimer); pollTimer = null; }
  }

  function connect(delay) {
    if (!("WebSocket" in window)) { startPolling(); return; }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try { socket = new WebSocket(scheme + window.location.host + wsPath); } catch (e) { startPolling(); return; }
    socket.onopen = function () { socketOpen = true; stopPolling(); delay = 1000; };
    socket.onmessage = function (event) {
      try { render(JSON.parse(event.data)); } catch (e) { /* ignore a malformed frame */ }
    };
    socket.onclose = function () {
      socketOpen = false;
      startPolling();
      window.setTimeout(function () { connect(Math.min(delay * 2, 30000)); }, delay);
    };
  }

  poll();
  startPolling();
  connect(1000);
})();
