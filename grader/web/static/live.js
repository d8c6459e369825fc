// The submission page's live status: poll until the run is finished (and its trees'
// drawings are ready), then reload.
(function () {
  "use strict";

  // -- live status: poll until the run is finished, then reload to show the feedback --
  var live = document.getElementById("live");
  var waiting = live && (!live.hasAttribute("data-finished") ||
                         live.hasAttribute("data-drawings-pending"));
  if (waiting) {
    var url = live.getAttribute("data-status-url");
    var timer = window.setInterval(function () {
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (status) {
          if (!status) { return; }
          var finished = status.state === "graded" || status.state === "error";
          if (finished && live.hasAttribute("data-drawings-pending") && status.drawings_pending) {
            return;  // the feedback is shown; its trees' drawings are still being prepared
          }
          if (finished) {
            window.clearInterval(timer);
            window.location.reload();
            return;
          }
          var position = live.querySelector(".position");
          if (position && status.position) {
            position.textContent = "number " + status.position + " in the queue";
          }
          if (status.state !== live.getAttribute("data-state")) {
            live.setAttribute("data-state", status.state);
            if (status.state === "running") {
              live.textContent = "Running: your code is being graded. This page updates by itself.";
            }
          }
        })
        .catch(function () { /* a lost poll is retried on the next tick */ });
    }, 1000);
  }

})();
