// The feedback page's tree views: node details on click or Enter.
(function () {
  "use strict";

  function nodesOf(figure) {
    var found = {};
    if (!figure) { return found; }
    figure.querySelectorAll("g.node").forEach(function (node) {
      found[node.getAttribute("data-node")] = node;
    });
    return found;
  }

  document.querySelectorAll("section.case").forEach(function (section) {
    var student = nodesOf(section.querySelector('[data-side="student"]'));
    var reference = nodesOf(section.querySelector('[data-side="reference"]'));

    // -- node details: a click (or Enter) on a node shows its hover text in a panel --
    var panel = section.querySelector(".node-details");
    section.querySelectorAll("g.node").forEach(function (node) {
      function show() {
        if (!panel) { return; }
        var title = node.querySelector("title");
        var side = node.closest("[data-side]");
        var heading = side && side.getAttribute("data-side") === "reference"
          ? "Reference search" : "Your search";
        panel.textContent = "";
        var strong = document.createElement("strong");
        strong.textContent = heading;
        var text = document.createElement("div");
        text.className = "details-text";
        text.textContent = title ? title.textContent : node.getAttribute("data-node");
        panel.appendChild(strong);
        panel.appendChild(text);
        panel.hidden = false;
        section.querySelectorAll("g.node.selected").forEach(function (other) {
          other.classList.remove("selected");
        });
        node.classList.add("selected");
      }
      node.addEventListener("click", show);
      node.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); show(); }
      });
    });
  });
})();
