// The feedback page's replay: both searches step by step, the current node highlighted in both.
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

    // -- the replay: both searches step by step, the current node highlighted in both --
    var box = section.querySelector(".replay");
    if (!box) { return; }
    var data;
    try {
      data = JSON.parse(box.querySelector(".replay-data").textContent);
    } catch (error) {
      return;
    }
    var total = Math.max(data.student.length, data.reference.length);
    var previous = box.querySelector(".replay-previous");
    var next = box.querySelector(".replay-next");
    var jump = box.querySelector(".replay-jump");
    var counter = box.querySelector(".replay-counter");
    var mine = box.querySelector(".replay-student");
    var theirs = box.querySelector(".replay-reference");
    var index = -1;

    function paint(nodes, steps) {
      Object.keys(nodes).forEach(function (name) {
        nodes[name].classList.remove("current", "seen");
      });
      for (var i = 0; i <= index && i < steps.length; i += 1) {
        var seen = nodes[steps[i].node];
        if (seen) { seen.classList.add("seen"); }
      }
      var step = index >= 0 ? steps[index] : null;
      if (step && nodes[step.node]) { nodes[step.node].classList.add("current"); }
      return step;
    }

    function show() {
      var a = paint(student, data.student);
      var b = paint(reference, data.reference);
      mine.textContent = a ? a.text : (index < 0 ? "\u2013" : "(your search has ended)");
      theirs.textContent = b ? b.text : (index < 0 ? "\u2013" : "(the reference search has ended)");
      var differs = index >= 0 && (!a || !b || a.node !== b.node || a.event !== b.event);
      mine.classList.toggle("differs", differs);
      counter.textContent = index < 0 ? total + " steps" : "step " + (index + 1) + " of " + total;
      previous.disabled = index < 0;
      next.disabled = index >= total - 1;
    }

    previous.addEventListener("click", function () { index = Math.max(index - 1, -1); show(); });
    next.addEventListener("click", function () { index = Math.min(index + 1, total - 1); show(); });
    if (jump) {
      jump.addEventListener("click", function () { index = data.differs; show(); });
    }
    show();
  });
})();
