// A version's preview while its analysis runs: poll the status, show the stage and the
// progress, and reload once it is done or failed. Without JavaScript the page reloads
// itself (a <meta http-equiv="refresh"> in <noscript>).
(function () {
  "use strict";

  var section = document.getElementById("analysis");
  if (!section || !section.classList.contains("running")) { return; }
  var url = section.getAttribute("data-status-url");
  var stage = section.querySelector(".stage");
  var bar = section.querySelector("progress");
  var timer = window.setInterval(function () {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (status) {
        if (!status) { return; }
        if (status.state === "done" || status.state === "failed") {
          window.clearInterval(timer);
          window.location.reload();
          return;
        }
        section.setAttribute("data-state", status.state);
        if (stage && status.stage) { stage.textContent = status.stage; }
        if (bar) {
          bar.value = status.progress;
          bar.textContent = Math.round(status.progress * 100) + "%";
        }
      })
      .catch(function () { /* a lost poll is retried on the next tick */ });
  }, 1000);
})();
