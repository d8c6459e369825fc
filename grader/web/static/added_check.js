// An added implementation's page while a worker checks it: poll the check's state and
// reload once it is done. Without JavaScript the page reloads itself (a
// <meta http-equiv="refresh"> in <noscript>).
(function () {
  "use strict";

  var section = document.getElementById("check");
  if (!section || !section.classList.contains("running")) { return; }
  var url = section.getAttribute("data-status-url");
  var timer = window.setInterval(function () {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (status) {
        if (status && status.done) {
          window.clearInterval(timer);
          window.location.reload();
        }
      })
      .catch(function () { /* a lost poll is retried on the next tick */ });
  }, 1500);
})();
