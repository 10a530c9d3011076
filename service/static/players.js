// The new-session page: a tap on a suggested player fills that seat's input with "Name (CODE)"
// and asks again, so the note beside it says who it is now. Nothing else; htmx does the asking.
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var pick = e.target.closest(".pick");
    if (!pick) return;
    var input = document.getElementById("player" + pick.dataset.seat);
    if (!input) return;
    input.value = pick.dataset.value;
    input.focus();
    htmx.trigger(input, "input");
  });
})();
