// A regrade's preview page: poll its progress while its runs are graded, show "n of N",
// and reload once every run is graded (the page then shows the summary).
(function () {
  "use strict";

  var box = document.getElementById("regrade-progress");
  if (!box) { return; }
  var url = box.getAttribute("data-progress-url");
  var graded = box.querySelector(".graded");
  var total = box.querySelector(".total");
  var bar = box.querySelector("progress");
  var timer = window.setInterval(function () {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (progress) {
        if (!progress) { return; }
        graded.textContent = String(progress.graded);
        total.textContent = String(progress.total);
        if (bar) {
          bar.max = progress.total;
          bar.value = progress.graded;
          bar.textContent = progress.graded + " of " + progress.total;
        }
        if (progress.done) {
          window.clearInterval(timer);
          window.location.reload();
        }
      })
      .catch(function () { /* a lost poll is retried on the next tick */ });
  }, 1500);
})();
