// The feedback page's tree views: each public tree drawn twice (the student's search and the
// reference's) from its drawing, fetched from the box's data-tree-url (see
// grader/web/feedback.py and tree_data.py), with d3's tidy tree layout spaced by the measured
// width of each node's labels, pan and zoom shared by both views, all-good subtrees of big
// trees collapsed, and one tab stop per view with arrow keys inside. A node's details (its
// position, move, sentence, windows) are fetched when it is opened, from data-nodes-url and
// its index. Events: listens to "replay:step"; dispatches "tree:select" and, each time the
// nodes are drawn, "tree:drawn" on the section.
(function () {
  "use strict";

  var d3 = window.d3;
  var SVGNS = "http://www.w3.org/2000/svg";
  var LEVEL = 84;        // vertical distance between two levels
  var GAP = 12;          // the least horizontal space between two nodes' boxes
  var HALF = 15;         // half a shape's height
  var MIN_W = 32;        // the narrowest shape
  var MAX_W = 76;        // the widest shape (longer values get a smaller font)
  var VALUE_PX = 11;     // a value's font size, before it is sized to fit its shape
  var LEAST_PX = 6;
  var NAME_Y = HALF + 13;
  var EXPECTED_Y = HALF + 27;
  var BIG = 150;         // over this many nodes, all-good subtrees start collapsed
  var REST_MS = 250;     // how long the pointer or the keyboard rests on a node before its details are fetched
  var VALUE_FONT = "600 " + VALUE_PX + "px sans-serif";
  var NAME_FONT = "11px sans-serif";
  var KINDS = { max: "MAX", min: "MIN", chance: "CHANCE", leaf: "leaf" };
  var WORDS = {
    ok: "ok", pruned: "pruned", extra: "extra", missed: "missed", wrong_value: "wrong value",
    wrong_bounds: "wrong bounds", out_of_order: "out of order", repeated: "repeated",
    not_observed: "not observed"
  };
  // Of the space a shape is wide, how much its value may take (a triangle narrows).
  var ROOM = { max: 0.58, min: 0.58, chance: 0.78, leaf: 0.86 };
  var counter = 0;

  var context = document.createElement("canvas").getContext("2d");
  var widths = {};
  function measure(text, font) {
    var key = font + "|" + text;
    if (!(key in widths)) {
      context.font = font;
      widths[key] = context.measureText(text).width;
    }
    return widths[key];
  }

  function make(parent, tag, attributes, text) {
    var element = document.createElementNS(SVGNS, tag);
    Object.keys(attributes || {}).forEach(function (name) {
      element.setAttribute(name, attributes[name]);
    });
    if (text !== undefined && text !== null) { element.textContent = text; }
    if (parent) { parent.appendChild(element); }
    return element;
  }

  function good(node) { return node.v === "ok" || node.v === "pruned"; }

  // -- the tree: parents, children, subtree sizes, default collapsing ------------------------
  function prepare(doc) {
    var columns = doc.columns;
    var keys = Object.keys(columns);
    var nodes = [];
    for (var at = 0; at < columns.n.length; at += 1) {
      var item = {};
      for (var k = 0; k < keys.length; k += 1) {
        var value = columns[keys[k]][at];
        if (value !== null && value !== undefined) { item[keys[k]] = value; }
      }
      nodes.push(item);
    }
    nodes.forEach(function (node, index) {
      node.i = index;
      node.kids = [];
      node.size = 1;
      node.nOk = node.v === "ok" ? 1 : 0;
      node.nPruned = node.v === "pruned" ? 1 : 0;
      node.allGood = good(node);
    });
    nodes.forEach(function (node) {
      if (node.p !== undefined) { nodes[node.p].kids.push(node); }
    });
    for (var i = nodes.length - 1; i > 0; i -= 1) {  // preorder reversed: children first
      var node = nodes[i];
      var parent = nodes[node.p];
      parent.size += node.size;
      parent.nOk += node.nOk;
      parent.nPruned += node.nPruned;
      parent.allGood = parent.allGood && node.allGood;
    }
    if (nodes.length > BIG) {
      nodes.forEach(function (node) {
        var parent = node.p === undefined ? null : nodes[node.p];
        node.collapsed = Boolean(parent) && node.allGood && node.size > 1 &&
          (parent.p === undefined || !parent.allGood);
      });
    }
    return nodes;
  }

  // -- what each side shows at a node ----------------------------------------------------------
  function face(node, side, glyphs) {
    if (node.collapsed) {
      var what = node.nOk === node.size ? "ok" : node.nPruned === node.size ? "pruned" : "ok or pruned";
      return {
        value: side === "student" ? "+" + node.size + " " + what : "+" + node.size + " nodes",
        name: node.n + " \u25b8", glyph: "", expected: null, muted: false
      };
    }
    if (side === "student") {
      var value = node.s;
      var muted = false;
      if (value === undefined && node.k === "leaf") { value = node.u; muted = true; }
      return {
        value: value === undefined ? "" : value, muted: muted, name: node.n,
        glyph: node.v ? glyphs[node.v] || "" : "",
        expected: node.x === undefined ? null : "exp. " + node.x
      };
    }
    var shown = node.r === "v" ? refValue(node) : undefined;
    if (shown === undefined && node.k === "leaf") { shown = node.u; }
    return {
      value: shown === undefined ? "" : shown, muted: node.r !== "v", name: node.n,
      glyph: node.r === "p" ? glyphs.pruned || "" : node.r === "u" ? "\u00b7" : "", expected: null
    };
  }

  // The document leaves out the reference's value where it is the student's.
  function refValue(node) { return node.rv !== undefined ? node.rv : node.s; }

  function shapeWidth(node, look) {
    if (node.collapsed) { return measure(look.value, VALUE_FONT) + 16; }
    var needed = measure(look.value, VALUE_FONT) / ROOM[node.k] + 4;
    return Math.min(MAX_W, Math.max(MIN_W, needed));
  }

  function nameText(look) { return look.glyph ? look.name + " " + look.glyph : look.name; }

  function boxWidth(node, look) {
    return Math.max(
      shapeWidth(node, look), measure(nameText(look), NAME_FONT),
      look.expected ? measure(look.expected, NAME_FONT) : 0
    );
  }

  function describe(node, side) {
    var lines = [];
    if (node.collapsed) {
      lines.push(node.n + ": a subtree of " + node.size + " nodes (" + node.nOk + " ok, " +
        node.nPruned + " pruned), collapsed; Enter or a click opens it");
    } else if (side === "student") {
      lines.push(node.n + " (" + KINDS[node.k] + "): " + (node.v ? WORDS[node.v] || node.v : "no verdict"));
      if (node.s !== undefined) { lines.push("your value: " + node.s); }
      if (node.x !== undefined) { lines.push("expected: " + node.x); }
      if (node.e !== undefined) { lines.push((node.v === "ok" ? "allowed: " : "expected: ") + node.e); }
      if (node.c !== undefined) { lines.push("yours: " + node.c); }
      if (node.m) { lines.push(node.m); }
      else if (node.v && node.v !== "ok" && node.v !== "pruned") { lines.push("verdict: " + (WORDS[node.v] || node.v)); }
    } else if (node.r === "v") {
      lines.push(node.n + " (" + KINDS[node.k] + "): the reference search returns " +
        (refValue(node) === undefined ? "-" : refValue(node)) + (node.rw ? " (searched with " + node.rw + ")" : ""));
    } else if (node.r === "p") {
      lines.push(node.n + " (" + KINDS[node.k] + "): pruned by the reference search");
    } else if (node.r === "u") {
      lines.push(node.n + " (" + KINDS[node.k] + "): not reached by the reference search");
    } else {
      lines.push(node.n + " (" + KINDS[node.k] + "): beyond the reference steps the replay kept");
    }
    if (node.k === "leaf" && node.u !== undefined) { lines.push("utility: " + node.u); }
    if (node.h !== undefined) { lines.push("heuristic: " + node.h); }
    if (node.q !== undefined) { lines.push("probability: " + node.q); }
    if (node.a !== undefined) { lines.push("move: " + node.a); }
    if (node.g) { lines.push("position: " + node.g); }
    return lines;
  }

  function shape(group, node, width) {
    var w = width / 2;
    if (node.collapsed) {
      return make(group, "rect", { "class": "shape", x: -w, y: -HALF + 3, width: width, height: 2 * HALF - 6, rx: 11 });
    }
    if (node.k === "max") {
      return make(group, "path", { "class": "shape", d: "M0," + -HALF + "L" + w + "," + (HALF - 3) + "L" + -w + "," + (HALF - 3) + "Z" });
    }
    if (node.k === "min") {
      return make(group, "path", { "class": "shape", d: "M0," + HALF + "L" + w + "," + (3 - HALF) + "L" + -w + "," + (3 - HALF) + "Z" });
    }
    if (node.k === "chance") {
      return make(group, "ellipse", { "class": "shape", rx: w, ry: HALF });
    }
    return make(group, "rect", { "class": "shape", x: -w, y: -HALF + 3, width: width, height: 2 * HALF - 6, rx: 3 });
  }

  // -- one case: its document, both views, the shared layout and transform -----------------------
  function Case(section, box, doc) {
    var self = this;
    counter += 1;
    this.section = section;
    this.prefix = "tv" + counter;
    this.glyphs = doc.glyphs || {};
    this.divergence = doc.divergence;
    this.nodes = prepare(doc);
    this.byName = {};
    this.nodes.forEach(function (node) { self.byName[node.n] = node; });
    this.panel = box.querySelector(".node-details");
    this.nodesUrl = box.getAttribute("data-nodes-url");
    this.shownInPanel = null;
    this.resting = null;
    this.restTimer = 0;
    this.transform = d3.zoomIdentity;
    this.syncing = false;
    // The extent is given: d3's default reads the SVG's size, which lays the page out.
    this.zoom = d3.zoom().scaleExtent([0.02, 4]).extent(function () {
      var size = self.size();
      return [[0, 0], size];
    }).on("zoom", function (event) {
      self.zoomed(event.transform, this);
    });
    this.views = [];
    box.querySelectorAll(".tv-view").forEach(function (holder) {
      var side = holder.closest("[data-side]").getAttribute("data-side");
      self.views.push(self.view(holder, side));
    });
    if (!this.views.length) { return; }
    this.size();
    window.addEventListener("resize", function () { self.width = 0; });
    this.layout();
    this.render();
    this.fit(true);
    var controls = box.querySelector(".tv-controls");
    controls.hidden = false;
    controls.querySelector(".tv-fit").addEventListener("click", function () { self.fit(false); });
    controls.querySelector(".tv-zoom-in").addEventListener("click", function () { self.scaleBy(1.4); });
    controls.querySelector(".tv-zoom-out").addEventListener("click", function () { self.scaleBy(1 / 1.4); });
    var jump = controls.querySelector(".tv-divergence");
    if (jump) { jump.addEventListener("click", function () { self.goToDivergence(); }); }
    section.addEventListener("replay:step", function (event) {
      var detail = event.detail || {};
      self.views.forEach(function (view) { self.current(view, detail[view.side]); });
    });
  }

  Case.prototype.view = function (holder, side) {
    var self = this;
    var svg = make(holder, "svg", {
      "class": "tree tv-svg", role: "tree", tabindex: "0",
      "aria-label": (holder.getAttribute("data-caption") || "game tree") +
        ": arrow keys move between nodes, Enter opens one"
    });
    var content = make(svg, "g", { "class": "tv-content", role: "none" });
    var view = {
      side: side, svg: svg, content: content,
      edges: make(content, "g", { "class": "tv-edges", "aria-hidden": "true" }),
      group: make(content, "g", { "class": "tv-nodes", role: "none" }),
      elements: {}, active: null
    };
    d3.select(svg).call(this.zoom).on("dblclick.zoom", null);
    svg.addEventListener("keydown", function (event) { self.key(view, event); });
    svg.addEventListener("focus", function () {
      if (!view.active || !view.elements[view.active.n]) { self.activate(view, self.nodes[0], false); }
      else { self.activate(view, view.active, false); }
    });
    svg.addEventListener("blur", function () { svg.classList.remove("has-focus"); });
    svg.addEventListener("click", function (event) {
      var target = event.target.closest && event.target.closest("g.node");
      if (!target) { return; }
      var node = self.byName[target.getAttribute("data-node")];
      self.activate(view, node, false);
      self.select(view, node);
    });
    // A node the pointer rests on has its details fetched, for its tooltip.
    svg.addEventListener("mouseover", function (event) {
      var target = event.target.closest && event.target.closest("g.node");
      if (target) { self.soon(self.byName[target.getAttribute("data-node")]); }
    });
    svg.addEventListener("mouseout", function () { self.soon(null); });
    return view;
  };

  // The tidy layout of the shown nodes: each node as wide as the widest of its labels on
  // either side, so no two boxes overlap.
  Case.prototype.layout = function () {
    var self = this;
    var root = d3.hierarchy(this.nodes[0], function (node) {
      return node.collapsed ? null : node.kids;
    });
    root.each(function (item) {
      var node = item.data;
      node.box = Math.max.apply(null, self.views.map(function (view) {
        return boxWidth(node, face(node, view.side, self.glyphs));
      }));
    });
    d3.tree().nodeSize([1, LEVEL]).separation(function (a, b) {
      return a.data.box / 2 + b.data.box / 2 + GAP;
    })(root);
    this.shown = root.descendants();
    this.nodes.forEach(function (node) { node.at = null; });
    this.shown.forEach(function (item) { item.data.at = item; });
  };

  Case.prototype.render = function () {
    var self = this;
    this.views.forEach(function (view) {
      view.edges.textContent = "";
      view.group.textContent = "";
      view.elements = {};
      self.shown.forEach(function (item) {
        if (item.parent) { self.edge(view, item); }
        self.draw(view, item);
      });
      view.svg.setAttribute("aria-activedescendant", view.active && view.elements[view.active.n]
        ? view.elements[view.active.n].id : "");
      if (!view.svg.getAttribute("aria-activedescendant")) { view.svg.removeAttribute("aria-activedescendant"); }
    });
    var height = 2 * LEVEL;
    this.shown.forEach(function (item) { height = Math.max(height, item.y + 2 * LEVEL); });
    this.views.forEach(function (view) {
      view.svg.setAttribute("height", String(Math.max(180, Math.min(520, height))));
    });
    this.section.dispatchEvent(new CustomEvent("tree:drawn"));
  };

  Case.prototype.edge = function (view, item) {
    var node = item.data;
    var parentLook = face(item.parent.data, view.side, this.glyphs);
    var top = item.parent.y + (parentLook.expected ? EXPECTED_Y + 5 : NAME_Y + 5);
    var classes = "edge";
    if (view.side === "student" ? node.v === "pruned" : node.r === "p") { classes += " pruned-edge"; }
    var cut = view.side === "student"
      ? node.v === "pruned" && item.parent.data.v !== "pruned"
      : Boolean(node.cut);
    if (cut) { classes += " cut"; }
    var x1 = item.parent.x, y1 = top, x2 = item.x, y2 = item.y - HALF;
    make(view.edges, "line", { "class": classes, x1: x1, y1: y1, x2: x2, y2: y2 });
    if (cut) {
      var mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
      var length = Math.max(Math.hypot(x2 - x1, y2 - y1), 1);
      var nx = -(y2 - y1) / length * 8, ny = (x2 - x1) / length * 8;
      make(view.edges, "line", { "class": "cut-mark", x1: mx - nx, y1: my - ny, x2: mx + nx, y2: my + ny });
    }
    if (node.q !== undefined) {
      make(view.edges, "text", { "class": "probability", x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2 }, node.q);
    }
  };

  Case.prototype.draw = function (view, item) {
    var node = item.data;
    var look = face(node, view.side, this.glyphs);
    var classes = "node " + node.k;
    if (node.collapsed) { classes += " collapsed"; }
    if (view.side === "student") {
      if (node.v) { classes += " verdict-" + node.v; }
      if (node.n === this.divergence) { classes += " divergence"; }
    } else {
      classes += node.r === "v" ? " visited" : node.r === "p" ? " pruned" : node.r === "u" ? " unvisited" : " unknown";
    }
    var lines = describe(node, view.side);
    var siblings = item.parent ? item.parent.children : [item];
    var group = make(view.group, "g", {
      "class": classes, "data-node": node.n, id: this.prefix + "-" + view.side[0] + node.i,
      role: "treeitem", "aria-level": item.depth + 1, "aria-setsize": siblings.length,
      "aria-posinset": siblings.indexOf(item) + 1, "aria-label": lines.join("; "),
      transform: "translate(" + item.x + "," + item.y + ")"
    });
    if (node.kids.length) { group.setAttribute("aria-expanded", node.collapsed ? "false" : "true"); }
    make(group, "title", {}, lines.join("\n"));
    var width = shapeWidth(node, look);
    shape(group, node, width);
    if (look.value !== "") {
      var wide = measure(look.value, VALUE_FONT);
      var room = node.collapsed ? width - 8 : width * ROOM[node.k];
      var size = Math.max(LEAST_PX, Math.min(VALUE_PX, VALUE_PX * room / Math.max(wide, 1)));
      var y = node.collapsed ? 4 : node.k === "max" ? 8 : node.k === "min" ? 0 : 4;
      make(group, "text", {
        "class": "value" + (look.muted ? " muted-value" : ""), x: 0, y: y,
        "font-size": size.toFixed(1)
      }, look.value);
    }
    var name = make(group, "text", { "class": "name", x: 0, y: NAME_Y }, look.name);
    if (look.glyph) { make(name, "tspan", { "class": "glyph" }, " " + look.glyph); }
    if (look.expected) { make(group, "text", { "class": "expected", x: 0, y: EXPECTED_Y }, look.expected); }
    view.elements[node.n] = group;
  };

  // -- pan and zoom, one transform for both views ------------------------------------------------
  Case.prototype.zoomed = function (transform, source) {
    var self = this;
    this.transform = transform;
    this.views.forEach(function (view) {
      view.content.setAttribute("transform", transform.toString());
      if (!self.syncing && view.svg !== source) {
        self.syncing = true;
        self.zoom.transform(d3.select(view.svg), transform);
        self.syncing = false;
      }
    });
  };

  Case.prototype.apply = function (transform) {
    this.syncing = true;
    var self = this;
    this.views.forEach(function (view) { self.zoom.transform(d3.select(view.svg), transform); });
    this.syncing = false;
    this.transform = transform;
    this.views.forEach(function (view) { view.content.setAttribute("transform", transform.toString()); });
  };

  // The views' size; the width is read once (and again after a resize) and before the
  // nodes are drawn, so that reading it does not lay out thousands of nodes.
  Case.prototype.size = function () {
    var svg = this.views[0].svg;
    if (!this.width) { this.width = svg.getBoundingClientRect().width; }
    return [Math.max(this.width, 1), Math.max(Number(svg.getAttribute("height")) || 1, 1)];
  };

  Case.prototype.fit = function (first) {
    var x0 = Infinity, x1 = -Infinity, y1 = 0;
    this.shown.forEach(function (item) {
      x0 = Math.min(x0, item.x - item.data.box / 2);
      x1 = Math.max(x1, item.x + item.data.box / 2);
      y1 = Math.max(y1, item.y);
    });
    var size = this.size();
    var top = -HALF - 10, bottom = y1 + EXPECTED_Y + 10;
    var k = Math.min(size[0] / (x1 - x0 + 20), size[1] / (bottom - top), 1.6);
    if (first && k < 0.45) {
      // Too small to read: start at a readable scale, the root at the top.
      k = 0.45;
      this.apply(d3.zoomIdentity.translate(size[0] / 2 - k * this.nodes[0].at.x, -k * top + 4).scale(k));
      return;
    }
    var cx = (x0 + x1) / 2, cy = (top + bottom) / 2;
    this.apply(d3.zoomIdentity.translate(size[0] / 2 - k * cx, size[1] / 2 - k * cy).scale(k));
  };

  Case.prototype.scaleBy = function (factor) {
    var self = this;
    this.views.forEach(function (view) { self.zoom.scaleBy(d3.select(view.svg), factor); });
  };

  Case.prototype.centre = function (node, least) {
    var size = this.size();
    var k = Math.max(this.transform.k, least || 0);
    this.apply(d3.zoomIdentity.translate(size[0] / 2 - k * node.at.x, size[1] / 2 - k * node.at.y).scale(k));
  };

  // Brings ``node`` into view (centring it) when it is outside the visible part.
  Case.prototype.reveal = function (node) {
    var size = this.size();
    var point = this.transform.apply([node.at.x, node.at.y]);
    var margin = 30;
    if (point[0] < margin || point[0] > size[0] - margin || point[1] < margin || point[1] > size[1] - margin) {
      this.centre(node, 0);
    }
  };

  // -- collapsing: opening what hides a node, toggling a marker -----------------------------------
  Case.prototype.expandTo = function (node) {
    var changed = false;
    for (var up = node.p === undefined ? null : this.nodes[node.p]; up; up = up.p === undefined ? null : this.nodes[up.p]) {
      if (up.collapsed) { up.collapsed = false; changed = true; }
    }
    if (changed) { this.layout(); this.render(); }
  };

  Case.prototype.toggle = function (node) {
    if (!node.collapsed && !node.wasCollapsed) { return; }
    node.wasCollapsed = true;
    node.collapsed = !node.collapsed;
    if (!node.collapsed) {
      // Opened: its children that are themselves big all-good subtrees stay folded.
      node.kids.forEach(function (kid) { kid.collapsed = kid.allGood && kid.size > 1; if (kid.collapsed) { kid.wasCollapsed = true; } });
    }
    var before = this.transform.apply([node.at.x, node.at.y]);
    this.layout();
    this.render();
    // Keep the toggled node where it was on the screen.
    var after = this.transform.apply([node.at.x, node.at.y]);
    this.apply(this.transform.translate((before[0] - after[0]) / this.transform.k, (before[1] - after[1]) / this.transform.k));
  };

  // -- focus, selection and the keyboard ----------------------------------------------------------
  Case.prototype.activate = function (view, node, reveal) {
    if (!node) { return; }
    this.expandTo(node);
    var previous = view.active && view.elements[view.active.n];
    if (previous) { previous.classList.remove("focused"); }
    view.active = node;
    var element = view.elements[node.n];
    if (!element) { return; }
    element.classList.add("focused");
    view.svg.setAttribute("aria-activedescendant", element.id);
    view.svg.classList.add("has-focus");
    if (reveal) { this.reveal(node); }
  };

  Case.prototype.select = function (view, node) {
    var self = this;
    this.views.forEach(function (each) {
      each.group.querySelectorAll("g.node.selected").forEach(function (other) { other.classList.remove("selected"); });
      var element = each.elements[node.n];
      if (element) { element.classList.add("selected"); }
    });
    this.tell(view, node);
    this.details(node);
    if (node.collapsed || node.wasCollapsed) {
      this.toggle(node);
      self.activate(view, node, false);
    }
    this.section.dispatchEvent(new CustomEvent("tree:select", { detail: { side: view.side, node: node.n } }));
  };

  // The details panel: what is known of ``node`` on ``view``'s side (all of it once its
  // details have come).
  Case.prototype.tell = function (view, node) {
    if (!this.panel) { return; }
    this.shownInPanel = { view: view, node: node };
    this.panel.textContent = "";
    var heading = document.createElement("strong");
    heading.textContent = view.side === "reference" ? "Reference search" : "Your search";
    var text = document.createElement("div");
    text.className = "details-text";
    var lines = describe(node, view.side);
    if (node.detailed === false) { lines.push("(its details could not be loaded)"); }
    text.textContent = lines.join("\n");
    this.panel.appendChild(heading);
    this.panel.appendChild(text);
    this.panel.hidden = false;
  };

  // Fetches ``node``'s details once (its every key: grader/web/feedback.py's node_document),
  // then tells them in the panel, if it still shows the node, and in its labels.
  Case.prototype.details = function (node) {
    var self = this;
    if (node.detailed || node.loading || !this.nodesUrl) { return; }
    node.loading = true;
    fetch(this.nodesUrl + node.i, { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("node details: " + response.status); }
        return response.json();
      })
      .then(function (answer) {
        var item = (answer.nodes || [])[0] || {};
        Object.keys(item).forEach(function (key) { if (key !== "i") { node[key] = item[key]; } });
        node.detailed = true;
        self.views.forEach(function (view) {
          var element = view.elements[node.n];
          if (!element) { return; }
          var lines = describe(node, view.side);
          element.setAttribute("aria-label", lines.join("; "));
          element.querySelector("title").textContent = lines.join("\n");
        });
      })
      .catch(function () { node.detailed = false; })
      .then(function () {
        node.loading = false;
        var shown = self.shownInPanel;
        if (shown && shown.node === node) { self.tell(shown.view, node); }
      });
  };

  // The details of the node the pointer or the keyboard rests on (``node``; null: none),
  // fetched once it has rested there a moment.
  Case.prototype.soon = function (node) {
    var self = this;
    if (node === this.resting) { return; }
    window.clearTimeout(this.restTimer);
    this.resting = node;
    if (!node || node.collapsed || node.detailed) { return; }
    this.restTimer = window.setTimeout(function () { self.details(node); }, REST_MS);
  };

  Case.prototype.key = function (view, event) {
    var node = view.active || this.nodes[0];
    var target = null;
    var parent = node.p === undefined ? null : this.nodes[node.p];
    var siblings = parent ? parent.kids : [node];
    var at = siblings.indexOf(node);
    switch (event.key) {
      case "ArrowUp": target = parent; break;
      case "ArrowDown": target = node.collapsed ? null : node.kids[0] || null; break;
      case "ArrowLeft": target = siblings[at - 1] || null; break;
      case "ArrowRight": target = siblings[at + 1] || null; break;
      case "Home": target = this.nodes[0]; break;
      case "Enter": case " ": event.preventDefault(); this.select(view, node); return;
      default: return;
    }
    event.preventDefault();
    if (target) {
      this.activate(view, target, true);
      this.soon(target);
    }
  };

  // The replay's current node on one side: highlighted, and brought into view if need be.
  Case.prototype.current = function (view, name) {
    view.group.querySelectorAll("g.node.current").forEach(function (other) { other.classList.remove("current"); });
    var node = name ? this.byName[name] : null;
    if (!node) { return; }
    this.expandTo(node);
    var element = view.elements[node.n];
    if (element) { element.classList.add("current"); }
    this.reveal(node);
  };

  Case.prototype.goToDivergence = function () {
    var node = this.byName[this.divergence];
    if (!node) { return; }
    this.expandTo(node);
    this.views.forEach(function (view) {
      view.group.querySelectorAll("g.node.spotlight").forEach(function (other) { other.classList.remove("spotlight"); });
      var element = view.elements[node.n];
      if (element) { element.classList.add("spotlight"); }
    });
    this.activate(this.views[0], node, false);
    this.centre(node, 0.8);
    this.views[0].svg.focus({ preventScroll: true });
    this.views[0].svg.scrollIntoView({ block: "nearest" });
  };

  var began = performance.now();
  var drawn = [];
  document.querySelectorAll("section.case").forEach(function (section) {
    section.querySelectorAll(".tree-views").forEach(function (box) {
      drawn.push(fetch(box.getAttribute("data-tree-url"), { headers: { Accept: "application/json" } })
        .then(function (response) {
          if (!d3 || !d3.tree || !d3.zoom) { throw new Error("tree: d3 is missing"); }
          if (!response.ok) { throw new Error("tree: " + response.status); }
          return response.json();
        })
        .then(function (doc) { new Case(section, box, doc); })
        .catch(function (error) {
          box.querySelector(".tv-failed").hidden = false;
          if (window.console) { window.console.error(error); }
        })
        .then(function () { box.removeAttribute("aria-busy"); }));
    });
  });
  // How long fetching and drawing took, for bench/feedback_page.py.
  Promise.all(drawn).then(function () {
    performance.measure("treeview", { start: began, end: performance.now() });
  });
})();
