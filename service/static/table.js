// The table page: the watcher's news (server-sent events from /api/watch/events), a tap on a read
// tile of the snapshot (it picks that tile in the editor), and the snapshot's zoom. No libraries
// beyond the vendored htmx; nothing is fetched from elsewhere.
(function () {
  "use strict";
  var root = document.getElementById("watch");
  if (!root) return;
  var session = root.dataset.session;

  function work() { return document.getElementById("work"); }
  function zoom() { return document.getElementById("zoom"); }

  // -- the watcher: a win read by itself opens in the editor, unless the players are fixing one --
  function load(id) {
    htmx.ajax("POST", "/s/" + session + "/offer",
              {source: "#work", target: "#work", swap: "outerHTML", values: {offer: id}});
  }

  function banner(d) {
    var flash = document.getElementById("flash");
    flash.innerHTML = '<p class="flash ok" id="offer-banner">新しい和了を読みました · a new win was read' +
      (d.seat ? " (" + d.seat + ")" : "") + ' <button type="button" class="btn small" id="show-offer">表示 show it</button></p>';
    document.getElementById("show-offer").addEventListener("click", function () {
      flash.innerHTML = "";
      load(d.id);
    });
  }

  var since = root.dataset.since || "0";
  var events = new EventSource("/api/watch/events?session=" + encodeURIComponent(session) + "&since=" + since);
  events.addEventListener("open", function () { root.dataset.listening = "1"; });   // news reaches this page
  events.addEventListener("offer", function (e) {
    var d = JSON.parse(e.data);
    var w = work();
    if (!w || w.dataset.offer === String(d.id)) return;
    // typing not applied yet, or the snapshot zoomed, is the players' own work too: a banner, not the new draft
    var z = zoom();
    if (w.dataset.clean === "1" && !root.dataset.correct && !typed(w) && !(z && z.open)) load(d.id);
    else banner(d);
  });
  events.addEventListener("status", function (e) {
    var d = JSON.parse(e.data);
    var state = document.getElementById("watch-state");
    if (state) {
      state.textContent = d.message + (d.available && !d.camera ? " · カメラなし no camera" : "");
      state.dataset.state = d.state;
    }
    var on = document.getElementById("watch-on");
    if (on) on.checked = !!d.enabled;
  });
  // -- another tablet logged, corrected or undid a hand: this page shows an older table --
  // A press of this page's own that writes (Confirm, a draw, a chombo, an undo) goes to the page
  // it leads to: its own news is not another tablet's.
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    var d = e.detail, path = (d.pathInfo && d.pathInfo.requestPath) || (d.requestConfig && d.requestConfig.path) || "";
    if (/\/(confirm|draw|chombo|undo)$/.test(path)) root.dataset.writing = "1";
  });
  document.body.addEventListener("htmx:afterRequest", function (e) {
    // refused, or not sent: this page stays (a redirect leaves "successful" unset, so the status)
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (status === 0 || status >= 400) delete root.dataset.writing;
  });
  events.addEventListener("logged", function (e) {
    var d = JSON.parse(e.data);
    if (d.session !== session || root.dataset.writing) return;
    if (Number(d.seq) <= Number(root.dataset.seq)) return;          // the version this page shows
    var w = work();
    if (w && w.dataset.clean === "1" && !root.dataset.correct) { location.reload(); return; }
    document.getElementById("flash").innerHTML = '<p class="flash warn" id="logged-banner">' +
      '別のタブレットで記録されました · another tablet changed the session (now ' + d.hands + ' hands) ' +
      '<button type="button" class="btn small" onclick="location.reload()">再読み込み reload</button></p>';
  });
  window.addEventListener("pagehide", function () { events.close(); });

  // -- a tile picked on the snapshot: the picker where the next tap goes in view (on a phone it lies
  // far below the snapshot) --
  document.body.addEventListener("htmx:afterSettle", function (e) {
    var picked = document.getElementById("picked");
    if (picked && e.detail.target && e.detail.target.id === "work") picked.scrollIntoView({block: "nearest"});
  });

  // -- the keyboard's place in the editor: each change posts the draft and its answer replaces the
  // editor, which drops the focus to the page's top (Space on a toggle, then Tab, began again at the
  // bar). After a key press the control of the same name and value takes it back; after a tap nothing
  // is focused (a text field focused on a tablet would raise its keyboard). --
  var byKeys = false, held = null;
  document.addEventListener("keydown", function () { byKeys = true; }, true);
  document.addEventListener("pointerdown", function () { byKeys = false; }, true);
  function where(el) {     // [a selector, which of its matches, its panel]: this control in the next editor
    var sel = null, tag = el.tagName.toLowerCase(), panel = el.closest("details");
    var panelSel = panel && panel.className ? "details." + CSS.escape(panel.className.split(" ")[0]) : null;
    if (el.id) sel = "#" + CSS.escape(el.id);
    else if (el.name) {      // a box or a button by its value too; a text field or a list by its name alone
      sel = tag + ':not([type=hidden])[name="' + CSS.escape(el.name) + '"]';
      if ((el.type === "checkbox" || el.type === "radio" || tag === "button") && el.value)
        sel += '[value="' + CSS.escape(el.value) + '"]';
    } else if (el.dataset && el.dataset.op) sel = '[data-op="' + CSS.escape(el.dataset.op) + '"]';
    else if (tag === "summary" && panelSel) sel = panelSel + " > summary";   // a panel's own toggle
    if (!sel) return null;
    var w = work();           // a player's second 罰符 box shares the first's name and value: its place says which
    return [sel, w ? Array.prototype.indexOf.call(w.querySelectorAll(sel), el) : 0, panelSel];
  }
  document.addEventListener("focusin", function (e) {
    if (e.target.closest && e.target.closest("#work")) held = where(e.target);
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    var w = work(), a = document.activeElement;
    if (!byKeys || !held || !w || (a && a !== document.body && document.contains(a))) return;
    // the panel it was in stays open (the answer sends a typed field's panel back closed)
    var panel = held[2] && w.querySelector(held[2]);
    if (panel) panel.open = true;
    var found = w.querySelectorAll(held[0]);
    // gone (ダブロン, the last tile taken away): the editor's first control, not the page's top
    var again = found[Math.max(0, Math.min(held[1], found.length - 1))] ||
      w.querySelector("input:not([type=hidden]):not([disabled]), select, button:not([hidden]), summary");
    if (again) again.focus({preventScroll: true});
  });

  // -- a link away (Teach tiles, History, home) with a hand entered and not logged: it would be lost
  // (the draft lives in this page alone, and the tiles may be swept by then) --
  var LEAVE = root.dataset.correct ?
    "この訂正はまだ記録されていません。移動すると消えます。移動しますか? · This correction is not logged yet: leaving the page loses it. Leave anyway?" :
    "入力中の手はまだ記録されていません。移動すると消えます。移動しますか? · This hand is not logged yet: leaving the page loses it. Leave anyway?";
  function typed(w) {         // typing not applied yet
    return Array.prototype.some.call(w.querySelectorAll("input:not([type]), input[type=text], textarea"),
                                     function (i) { return i.value !== i.defaultValue; });
  }
  function unsaved(w) {
    // the draw and chombo forms: a box ticked or a choice made and not logged
    var ticked = Array.prototype.some.call(document.querySelectorAll("#draw input, #chombo input"),
                                           function (i) { return i.checked !== i.defaultChecked; });
    return typed(w) || ticked || w.dataset.entered === "1";   // a correction's: differs from the hand as logged
  }
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[href]");
    var w = work();
    if (!link || link.closest("#work") || link.target === "_blank" || !w || !unsaved(w)) return;
    if (!window.confirm(LEAVE)) e.preventDefault();
  });

  // -- 罰符 boxes, a box a stick (isshokai: one player may pay two): a tap sets the player's count to
  // that box, as stars do. Ticking a box ticks those before it, unticking one unticks those after it:
  // a +1 left ticked behind an unticked first box logged a stick the player had taken off. Run in
  // the capture phase, before the editor's form posts the change. --
  document.addEventListener("change", function (e) {
    var t = e.target;
    if (!t.matches || !t.matches("input[type=checkbox][name=penalty]")) return;
    var row = t.closest("p, .row") || t.form || document;
    var boxes = Array.prototype.filter.call(row.querySelectorAll("input[type=checkbox][name=penalty]"),
                                            function (i) { return i.value === t.value; });
    var k = boxes.indexOf(t);
    boxes.forEach(function (b, j) { if (t.checked ? j < k : j > k) b.checked = t.checked; });
  }, true);

  // -- taps on the snapshot --
  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!t.closest) return;
    var z = zoom();
    var det = t.closest("[data-op]");
    if (det && det.closest("#work")) {          // a read tile: pick it in the editor
      e.preventDefault();
      if (z && z.open) z.close();
      var button = document.getElementById("op-button");
      button.value = det.dataset.op;
      button.click();
      return;
    }
    if (t.closest("[data-close]")) { if (z) z.close(); return; }
    if (t.closest("[data-zoom]")) {
      if (z) { z.classList.remove("near"); z.showModal(); }
      return;
    }
    if (z && z.open) {
      if (t === z) { z.close(); return; }     // the backdrop
      var body = t.closest(".zoom-body");
      if (body) {                              // elsewhere on the picture: zoom in there, or back out
        var r = body.getBoundingClientRect();
        var fx = (e.clientX - r.left + body.scrollLeft) / body.scrollWidth;
        var fy = (e.clientY - r.top + body.scrollTop) / body.scrollHeight;
        z.classList.toggle("near");
        body.scrollLeft = fx * body.scrollWidth - body.clientWidth / 2;
        body.scrollTop = fy * body.scrollHeight - body.clientHeight / 2;
      }
    }
  });
})();
