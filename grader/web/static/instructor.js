// The reference trace stepper: Previous / Next (and the arrow keys, and a click on a step)
// move through the steps without reloading, highlighting the step's node in the drawing.
// Without JavaScript the same links reload the page at the chosen step.
(function () {
  "use strict";

  function setUp(section) {
    var steps = Array.prototype.slice.call(section.querySelectorAll("ol.steps li"));
    if (!steps.length) { return; }
    var drawing = section.querySelector(".drawing");
    var position = section.querySelector(".stepper .number");
    var current = section.querySelector("p.current-step code");
    var index = parseInt(section.getAttribute("data-step"), 10) || 0;

    function show(next) {
      index = Math.max(0, Math.min(steps.length - 1, next));
      steps.forEach(function (item, i) { item.classList.toggle("current", i === index); });
      var node = steps[index].getAttribute("data-node");
      if (drawing) {
        drawing.querySelectorAll("[data-node]").forEach(function (element) {
          element.classList.toggle("current", element.getAttribute("data-node") === node);
        });
      }
      if (position) { position.textContent = String(index + 1); }
      if (current) { current.textContent = steps[index].textContent; }
      section.setAttribute("data-step", String(index));
      steps[index].scrollIntoView({ block: "nearest" });
    }

    section.querySelector(".stepper .prev").addEventListener("click", function (event) {
      event.preventDefault();
      show(index - 1);
    });
    section.querySelector(".stepper .next").addEventListener("click", function (event) {
      event.preventDefault();
      show(index + 1);
    });
    steps.forEach(function (item, i) {
      item.addEventListener("click", function () { show(i); });
    });
    section.tabIndex = 0;
    section.addEventListener("keydown", function (event) {
      if (event.key === "ArrowRight" || event.key === "ArrowDown") { event.preventDefault(); show(index + 1); }
      if (event.key === "ArrowLeft" || event.key === "ArrowUp") { event.preventDefault(); show(index - 1); }
    });
  }

  document.querySelectorAll("section.trace").forEach(setUp);
})();
