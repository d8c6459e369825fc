// The feedback page's replay: both searches step by step, the current node highlighted in
// both drawings, the steps where they differ marked and what differs in them. The steps are
// fetched from the replay's data-replay-url (grader/web/tree_data.py), not held in the page.
//
// Keyboard: the replay region is one tab stop; Left / Right step, Home / End go to the
// first / last step. Events (see the event contract in the project's briefs):
// "replay:step" is dispatched on the case's section at each move; on "tree:select" the
// replay goes to the first step at the selected node on that side; on "tree:drawn" (the
// tree views drew or redrew their nodes) it finds the nodes it marks again.
(function () {
  "use strict";

  var NAMES = { node: "node", event: "step", alpha: "alpha", beta: "beta", depth: "depth", value: "value" };

  function nodesOf(figure) {
    var found = {};
    if (!figure) { return found; }
    figure.querySelectorAll("g.node").forEach(function (node) {
      found[node.getAttribute("data-node")] = node;
    });
    return found;
  }

  // What the steps tell beside them: the jump to the first difference, why it is not at
  // the first divergence, that the replay was cut or is a decision function's.
  function tell(box, data) {
    var jump = box.querySelector(".replay-jump");
    if (data.differs !== null && data.differs !== undefined) {
      jump.textContent = "go to the first different step (" + (data.differs + 1) +
        (data.agrees ? ", at " + data.divergence : "") + ")";
      jump.hidden = false;
      box.querySelector(".replay-compared").hidden = false;
    }
    if (data.why) {
      var why = box.querySelector(".replay-disagrees");
      why.textContent = data.why;
      why.hidden = false;
    }
    box.querySelector(".replay-decision-style").hidden = !data.decision_style;
    if (data.truncated) {
      var cut = box.querySelector(".replay-truncated");
      cut.textContent = "The replay stops after its first " +
        Math.max(data.student.length, data.reference.length) + " steps" +
        (data.differs === null ? ": no difference is found in them" : "") + ".";
      cut.hidden = false;
    }
  }

  function setUp(section) {
    var box = section.querySelector(".replay");
    if (!box) { return; }
    fetch(box.getAttribute("data-replay-url"), { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("replay: " + response.status); }
        return response.json();
      })
      .then(function (data) { start(section, box, data); })
      .catch(function (error) {
        box.querySelector(".replay-failed").hidden = false;
        if (window.console) { window.console.error(error); }
      })
      .then(function () { box.removeAttribute("aria-busy"); });
  }

  function start(section, box, data) {
    tell(box, data);
    var student = nodesOf(section.querySelector('[data-side="student"]'));
    var reference = nodesOf(section.querySelector('[data-side="reference"]'));
    var total = Math.max(data.student.length, data.reference.length);
    var diffs = data.diffs || {};
    var previous = box.querySelector(".replay-previous");
    var next = box.querySelector(".replay-next");
    var jump = box.querySelector(".replay-jump");
    var counter = box.querySelector(".replay-counter");
    var mine = box.querySelector(".replay-student");
    var theirs = box.querySelector(".replay-reference");
    var note = box.querySelector(".replay-note");
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

    // A step's sentence; where it differs, the differing pieces (spans) in <mark>, or the
    // whole sentence where the searches part (another node or event).
    function write(cell, step, diff, spans, ended) {
      cell.textContent = "";
      if (!step) {
        cell.textContent = index < 0 ? "\u2013" : ended;
        return;
      }
      var parts = diff ? diff.parts : [];
      if (parts.indexOf("node") >= 0 || parts.indexOf("event") >= 0) {
        spans = [[0, step.text.length]];
      }
      var at = 0;
      (spans || []).slice().sort(function (x, y) { return x[0] - y[0]; }).forEach(function (span) {
        cell.appendChild(document.createTextNode(step.text.slice(at, span[0])));
        var marked = document.createElement("mark");
        marked.textContent = step.text.slice(span[0], span[1]);
        cell.appendChild(marked);
        at = span[1];
      });
      cell.appendChild(document.createTextNode(step.text.slice(at)));
    }

    function show() {
      var diff = index >= 0 ? diffs[index] : null;
      if (!diff && index >= 0) {
        // Steps at different nodes or events (or one search has ended) are told here;
        // the server sends only the windows and values that differ.
        var x = data.student[index], y = data.reference[index];
        var parted = !x || !y ? ["node", "event"] :
          ["node", "event"].filter(function (key) { return x[key] !== y[key]; });
        diff = parted.length ? { parts: parted } : null;
      }
      var parts = diff ? diff.parts : [];
      var a = paint(student, data.student);
      var b = paint(reference, data.reference);
      write(mine, a, diff, diff && diff.student, "(your search has ended)");
      write(theirs, b, diff, diff && diff.reference, "(the reference search has ended)");
      var differs = parts.length > 0;
      var first = index >= 0 && index === data.differs;
      [mine, theirs].forEach(function (cell) {
        cell.classList.toggle("differs", differs);
        cell.classList.toggle("first-difference", first);
      });
      box.classList.toggle("at-first-difference", first);
      counter.textContent = index < 0 ? total + " steps" : "step " + (index + 1) + " of " + total;
      if (note) {
        note.textContent = !differs ? "" :
          (first ? "First difference: " : "Differs: ") +
          parts.map(function (part) { return NAMES[part] || part; }).join(", ");
      }
      previous.disabled = index < 0;
      next.disabled = index >= total - 1;
      return { student: a ? a.node : null, reference: b ? b.node : null };
    }

    function go(to) {
      index = Math.max(-1, Math.min(to, total - 1));
      var at = show();
      section.dispatchEvent(new CustomEvent("replay:step", {
        detail: { index: index, student: at.student, reference: at.reference }
      }));
    }

    previous.addEventListener("click", function () { go(index - 1); });
    next.addEventListener("click", function () { go(index + 1); });
    if (jump) {
      jump.addEventListener("click", function () { go(data.differs); });
    }
    box.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var to = null;
      if (event.key === "ArrowRight") { to = index + 1; }
      else if (event.key === "ArrowLeft") { to = index - 1; }
      else if (event.key === "Home") { to = 0; }
      else if (event.key === "End") { to = total - 1; }
      if (to === null) { return; }
      event.preventDefault();
      go(to);
    });
    section.addEventListener("tree:drawn", function () {
      student = nodesOf(section.querySelector('[data-side="student"]'));
      reference = nodesOf(section.querySelector('[data-side="reference"]'));
      paint(student, data.student);
      paint(reference, data.reference);
    });
    section.addEventListener("tree:select", function (event) {
      var detail = event.detail || {};
      var steps = detail.side === "reference" ? data.reference : data.student;
      for (var i = 0; i < steps.length; i += 1) {
        if (steps[i].node === detail.node) { go(i); return; }
      }
    });
    show();
  }

  document.querySelectorAll("section.case").forEach(setUp);
})();
