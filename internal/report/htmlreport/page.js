(function () {
  "use strict";
  var state = { verdict: "all", group: "all" };
  function matches(el) {
    if (state.group !== "all" && el.getAttribute("data-group") !== state.group) return false;
    if (!el.classList.contains("attempt") || state.verdict === "all") return true;
    var v = state.verdict, o = el.getAttribute("data-outcome"), r = el.getAttribute("data-review") || "";
    if (v === "pass" || v === "fail" || v === "error") return o === v;
    if (v === "unreviewed") return o === "fail" && r === "";
    return r === v;
  }
  function apply() {
    var items = document.querySelectorAll("[data-filter-item]");
    for (var i = 0; i < items.length; i++) items[i].hidden = !matches(items[i]);
    var buttons = document.querySelectorAll("button[data-filter]");
    for (var j = 0; j < buttons.length; j++) {
      var b = buttons[j];
      b.setAttribute("aria-pressed", String(state[b.getAttribute("data-filter")] === b.getAttribute("data-value")));
    }
    var shown = document.getElementById("shown");
    if (shown) shown.textContent = String(document.querySelectorAll("details.attempt:not([hidden])").length);
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button[data-filter]") : null;
    if (!b) return;
    state[b.getAttribute("data-filter")] = b.getAttribute("data-value");
    apply();
  });
  apply();
})();
