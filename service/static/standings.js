// The standings table: a click on a header sorts by that column (numbers by data-value),
// a second click on the same header turns the order around. No library.
(function () {
  var table = document.getElementById("standings");
  if (!table) return;
  var heads = table.querySelectorAll("th[data-sort]");
  heads.forEach(function (th) {
    th.addEventListener("click", function () {
      var col = Array.prototype.indexOf.call(th.parentNode.children, th);
      var numeric = th.dataset.sort === "num";
      // a number column starts highest first, a name column A to Z; a second click reverses
      var desc = th.getAttribute("aria-sort") ? th.getAttribute("aria-sort") === "ascending" : numeric;
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].dataset.value, y = b.cells[col].dataset.value;
        var c = numeric ? Number(x) - Number(y) : x.localeCompare(y, "ja");
        return desc ? -c : c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
      heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", desc ? "descending" : "ascending");
    });
  });
})();

// The period chooser shows the date input for a day and the month input for a month only.
(function () {
  var period = document.getElementById("period");
  if (!period) return;
  function show() {
    document.querySelectorAll("label.when").forEach(function (l) {
      l.hidden = l.dataset.period !== period.value;
    });
  }
  period.addEventListener("change", show);
  show();
})();
