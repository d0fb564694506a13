(function () {
  "use strict";
  // Live search: hide the rows whose text does not hold the query.
  var q = document.getElementById("q");
  function items() { return Array.prototype.slice.call(document.querySelectorAll("tr.item")); }
  function visible() { return items().filter(function (el) { return !el.hidden; }); }
  function filter() {
    if (!q) return;
    var s = q.value.trim().toLowerCase();
    var rows = document.querySelectorAll("tr.att");
    var n = 0;
    for (var i = 0; i < rows.length; i++) {
      var hit = s === "" || (rows[i].getAttribute("data-text") || "").indexOf(s) >= 0;
      rows[i].hidden = !hit;
      if (hit) n++;
    }
    var shown = document.getElementById("shown");
    if (shown) shown.textContent = String(n);
  }
  if (q) q.addEventListener("input", filter);

  // Keyboard: j/k move, o (or Enter) opens, r reviews, / searches.
  var sel = -1;
  function select(i) {
    var v = visible();
    if (v.length === 0) return;
    sel = Math.max(0, Math.min(v.length - 1, i));
    items().forEach(function (el) { el.classList.remove("sel"); });
    v[sel].classList.add("sel");
    v[sel].scrollIntoView({ block: "nearest" });
  }
  function current() { var v = visible(); return sel >= 0 && sel < v.length ? v[sel] : null; }
  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) {
      if (ev.key === "Escape") t.blur();
      return;
    }
    var row = current(), a;
    switch (ev.key) {
      case "j": select(sel + 1); break;
      case "k": select(sel - 1); break;
      case "o": case "Enter":
        a = row && row.querySelector("a.open");
        if (a) location.href = a.href; else return;
        break;
      case "r":
        a = row && row.querySelector("a.open");
        if (a) { location.href = a.href + "#review"; break; }
        var note = document.getElementById("note");
        if (note) note.focus(); else return;
        break;
      case "/":
        if (q) q.focus(); else return;
        break;
      case "n": a = document.getElementById("next"); if (a) location.href = a.href; else return; break;
      case "p": a = document.getElementById("prev"); if (a) location.href = a.href; else return; break;
      default: return;
    }
    ev.preventDefault();
  });
  if (location.hash === "#review") {
    var note = document.getElementById("note");
    if (note) note.focus();
  }

  // Live: follow the runs as attempts land, over server-sent events.
  var live = document.getElementById("live");
  if (live && window.EventSource) {
    var key = live.getAttribute("data-live");
    var es = new EventSource("/events" + (key === "*" ? "" : "?run=" + encodeURIComponent(key)));
    es.addEventListener("runs", function (ev) {
      var runs = JSON.parse(ev.data);
      runs.forEach(function (r) {
        var els = document.querySelectorAll("[data-live-key]");
        var found = false;
        for (var i = 0; i < els.length; i++) {
          if (els[i].getAttribute("data-live-key") !== r.key) continue;
          found = true;
          set(els[i], ".live-rate", r.rate);
          set(els[i], ".live-reviewed", r.reviewed);
          set(els[i], ".live-status", r.status);
          set(els[i], ".live-progress", r.status === "in progress" ? r.attempts + " of " + r.planned + " attempts" : "");
        }
        if (!found && key === "*" && !document.querySelector("form#filter select option[selected]:not([value=''])")) {
          location.reload();
        }
      });
    });
  }
  function set(root, sel, text) {
    var el = root.matches(sel) ? root : root.querySelector(sel);
    if (el && text !== undefined && el.textContent !== text) el.textContent = text;
  }
  var reload = document.getElementById("reload");
  if (reload) reload.addEventListener("click", function (ev) { ev.preventDefault(); location.reload(); });
})();
