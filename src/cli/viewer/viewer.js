/* viewer.js - the page of pmn html: steps through the games it holds.
 *
 * It knows no rules.  Every board it shows is one pmn computed and wrote
 * into the page: after each ply, and after each lap of a ply's sowing (as
 * the counts that changed since the lap before).  Each game's JSON block
 * is parsed when the game is first opened. */
"use strict";
(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var MAX_DOTS = 12;
  var blocks = Array.prototype.slice.call(document.querySelectorAll("script.game"));
  var games = [];
  var G = null;             /* the game open */
  var at = { game: 0, line: 0, idx: -1, lap: null };
  var view = null;          /* the board's elements */
  var sowing = null;        /* the timer of P */

  function $(id) { return document.getElementById(id); }

  function el(name, cls, text) {
    var e = document.createElement(name);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* ---- a game's data --------------------------------------------- */

  function game(n) {
    if (!games[n]) {
      var g = JSON.parse(blocks[n].textContent);
      g.lineOf = [];
      g.idxOf = [];
      g.lines.forEach(function (l, li) {
        for (var i = 0; i < l.n; i++) {
          g.lineOf[l.first + i] = li;
          g.idxOf[l.first + i] = i;
        }
      });
      /* A page made with --explorer: a panel for it. */
      g.explorer = !!g.xp0 || g.nodes.some(function (x) { return !!x.xp; });
      games[n] = g;
    }
    return games[n];
  }

  function node(l, i) { return G.nodes[G.lines[l].first + i]; }

  /* Comments pmn annotate writes that the page shows in its own way: the
   * value ([%eval +2], the graph) and the summary (its panel). */
  var EVAL = /^\s*\[%eval\s[^\]]*\]\s*$/, SUMMARY = /^\s*pmn\s+summary:\s+/;

  function shownComments(cs) {
    return (cs || []).filter(function (c) { return !EVAL.test(c) && !SUMMARY.test(c); });
  }

  /* A judgement's name, for its colour and words. */
  var JUDGED = { "??": "blunder", "?": "mistake", "?!": "inaccuracy", "!": "good",
                 "!!": "brilliant", "!?": "interesting" };

  /* Words that end a sentence already end it: no second stop. */
  function sentence(t) { return /[.!?]$/.test(t) ? t : t + "."; }

  /* The board before the move at (l, i): after the one before it in its
   * line, or, at a line's start, before the move it is an alternative to. */
  function before(l, i) {
    if (i > 0) return after(l, i - 1);
    var p = G.lines[l].parent;
    if (p < 0) return G.start;
    return before(G.lineOf[p], G.idxOf[p]);
  }

  function after(l, i) {
    if (i < 0) return before(l, 0);
    var n = node(l, i);
    return n.board || before(l, i);
  }

  /* A ply's boards lap by lap, from the differences pmn wrote. */
  function frames(l, i) {
    var n = node(l, i);
    if (!n.frames) {
      var b = before(l, i).slice();
      n.frames = (n.laps || []).map(function (lap) {
        for (var k = 0; k < lap.d.length; k += 2) b[lap.d[k]] = lap.d[k + 1];
        return b.slice();
      });
    }
    return n.frames;
  }

  /* ---- the board --------------------------------------------------- */

  function buildBoard() {
    var box = $("board");
    box.textContent = "";
    var t = document.getElementById("board-" + G.layout);
    box.appendChild(document.importNode(t.content, true));
    var svg = box.querySelector("svg");
    svg.setAttribute("role", "img");
    view = { svg: svg, holes: [[], []], stores: [null, null], captured: [null, null],
             movers: [null, null], title: svg.querySelector("title"),
             desc: svg.querySelector("desc"), toMove: svg.querySelector(".to-move"),
             lastPly: svg.querySelector(".last-ply") };
    svg.querySelectorAll("g.hole").forEach(function (g) {
      view.holes[+g.getAttribute("data-side")][+g.getAttribute("data-hole")] = {
        g: g, pit: g.querySelector(".pit"), seeds: g.querySelector(".seeds"),
        count: g.querySelector(".count"), name: g.querySelector(".name").textContent };
    });
    svg.querySelectorAll("g.store").forEach(function (g) {
      view.stores[+g.getAttribute("data-side")] = { g: g, pit: g.querySelector(".pit"),
                                                    count: g.querySelector(".many") };
    });
    svg.querySelectorAll(".captured").forEach(function (t) {
      view.captured[+t.getAttribute("data-side")] = t;
    });
    /* A wide board (Anywoli's twelve holes) is not drawn smaller than its
     * hole names can be read: a narrow screen scrolls it. */
    svg.style.minWidth = G.cols >= 10 ? (2.6 * (G.cols + 3)) + "rem" : "";
    box.classList.toggle("wide", G.cols >= 10);
    view.movers[0] = svg.querySelector(".side.south .mover");
    view.movers[1] = svg.querySelector(".side.north .mover");
  }

  /* The dots of a hole, as pmn_board_svg draws them: rows of four. */
  function drawSeeds(h, n) {
    var grp = h.seeds, x = +grp.getAttribute("data-x"), y = +grp.getAttribute("data-y");
    while (grp.firstChild) grp.removeChild(grp.firstChild);
    if (n > MAX_DOTS) {
      var t = document.createElementNS(SVG, "text");
      t.setAttribute("x", x);
      t.setAttribute("y", y + 5);
      t.setAttribute("class", "many");
      t.textContent = n;
      grp.appendChild(t);
      return;
    }
    var rows = Math.floor((n + 3) / 4);
    for (var i = 0; i < n; i++) {
      var row = Math.floor(i / 4), inRow = row + 1 < rows ? 4 : n - 4 * row, col = i % 4;
      var c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", (x + (col - (inRow - 1) / 2) * 10).toFixed(1));
      c.setAttribute("cy", (y + (row - (rows - 1) / 2) * 10).toFixed(1));
      c.setAttribute("r", "3.5");
      c.setAttribute("class", "seed");
      grp.appendChild(c);
    }
  }

  function holeName(side, hole) {
    if (hole < 0) return (side ? "North" : "South") + "'s store";
    return view.holes[side][hole].name;
  }

  function sideName(s) { return s ? "North" : "South"; }

  /* Show board b with marks: lifted and last ([side, hole]; hole -1 a
   * store), taken and fours (lists of [side, hole]). */
  function setBoard(b, marks, title) {
    var m = G.pits, words = [];
    for (var s = 0; s < 2; s++) {
      var names = [];
      for (var h = 0; h < m; h++) {
        var v = view.holes[s][h], n = b[s * m + h];
        if (v.g.getAttribute("data-seeds") !== String(n)) {
          v.g.setAttribute("data-seeds", n);
          v.count.textContent = n;
          drawSeeds(v, n);
        }
        names.push(v.name + " " + n);
      }
      words.push(sideName(s) + ": " + names.join(", "));
      var c = b[2 * m + s];
      if (view.stores[s]) {
        view.stores[s].g.setAttribute("data-seeds", c);
        view.stores[s].count.textContent = c;
      }
      if (view.captured[s]) {
        view.captured[s].setAttribute("data-seeds", c);
        view.captured[s].textContent = c;
      }
    }
    var mover = b[2 * m + 2];
    view.movers[0].textContent = mover === 0 ? " \u25B6" : "";
    view.movers[1].textContent = mover === 1 ? " \u25B6" : "";
    view.toMove.textContent = marks.over ? "The game is over" : sideName(mover) + " to move";
    view.svg.querySelectorAll(".pit").forEach(function (p) {
      p.classList.remove("lifted", "last", "taken", "four");
    });
    function mark(sh, cls) {
      if (!sh) return;
      var v = sh[1] < 0 ? view.stores[sh[0]] : view.holes[sh[0]][sh[1]];
      if (v) v.pit.classList.add(cls);
    }
    var said = "";
    if (marks.lifted) {
      mark(marks.lifted, "lifted");
      said = "Lifted: " + holeName(marks.lifted[0], marks.lifted[1]) + " (thick outline)";
      if (marks.last) {
        mark(marks.last, "last");
        said += "; last seed in " + holeName(marks.last[0], marks.last[1]) + " (dashed outline)";
      }
    }
    (marks.taken || []).forEach(function (sh) { mark(sh, "taken"); });
    (marks.fours || []).forEach(function (sh) { mark(sh, "four"); });
    if (marks.taken && marks.taken.length)
      said += "; captured from " + marks.taken.map(function (sh) {
        return holeName(sh[0], sh[1]); }).join(", ") + " (dotted outline)";
    if (marks.fours && marks.fours.length)
      said += "; fours taken in " + marks.fours.map(function (sh) {
        return holeName(sh[0], sh[1]); }).join(", ") + " (dash-dot outline)";
    /* Said below the board, in the page, where a long line wraps; the
     * picture keeps its own line short. */
    if (view.lastPly) view.lastPly.textContent = "";
    $("board-note").textContent = said ? said + "." : "";
    view.title.textContent = title;
    view.desc.textContent = title + ". " + words.join("; ") + ". Captured or stored: South "
      + b[2 * m] + ", North " + b[2 * m + 1] + ". " + sideName(mover) + " to move."
      + (said ? " " + said + "." : "");
  }

  function foursOf(lap) {
    var out = [];
    for (var s = 0; s < 2; s++)
      for (var h = 0; h < G.pits; h++)
        if (lap.fours[s] & (1 << h)) out.push([s, h]);
    return out;
  }

  /* ---- the move list ----------------------------------------------- */

  function href(l, i) {
    var g = "#game=" + (at.game + 1);
    if (l === 0) return g + "&ply=" + (i + 1);
    return g + "&line=" + l + "&move=" + (i + 1);
  }

  function moveNumber(n, first) {
    if (n.joined) return "-";
    if (n.side === 0) return n.no + ". ";
    return first ? n.no + "... " : "";
  }

  /* One move's link and what is written after it (captures, judgement,
   * NAGs) into parent. */
  function renderMove(parent, l, i) {
    var n = node(l, i), id = G.lines[l].first + i;
    var a = el("a", "mv" + (n.board ? "" : " unplayed")
               + (JUDGED[n.judgement] ? " j-" + JUDGED[n.judgement] : ""), n.t);
    a.href = href(l, i);
    a.setAttribute("data-node", id);
    if (!n.board) a.title = "not replayed";
    parent.appendChild(a);
    if (n.claim !== undefined)
      parent.appendChild(el("span", "claim", " (" + (n.style === "x" ? "x" : "+") + n.claim + ")"));
    if (n.judgement)
      parent.appendChild(el("span", "judgement" + (JUDGED[n.judgement] ? " j-" + JUDGED[n.judgement] : ""),
                            n.judgement));
    (n.nags || []).forEach(function (g) { parent.appendChild(el("span", "nag", " $" + g)); });
  }

  function renderLead(parent, line) {
    (line.lead || []).forEach(function (c) {
      /* pmn annotate's line: said as the engine's */
      if (/^\s*engine line\s*$/.test(c)) parent.appendChild(el("span", "engine", "engine: "));
      else parent.appendChild(el("span", "comment", " " + c + " "));
    });
  }

  /* A move's comments and variations into parent; whether it had any. */
  function renderAfter(parent, n) {
    var any = false;
    shownComments(n.comments).forEach(function (c) {
      parent.appendChild(el("span", "comment", " " + c));
      any = true;
    });
    (n.vars || []).forEach(function (v) {
      var span = el("span", "var");
      span.appendChild(document.createTextNode(" ("));
      renderLine(span, v);
      span.appendChild(document.createTextNode(")"));
      parent.appendChild(span);
      any = true;
    });
    return any;
  }

  /* An engine's line shows its first FOLD plies; the rest, folded, opens
   * on a click, or by itself when a step goes into it (show()). */
  var FOLD = 4;

  function isEngineLine(line) {
    return (line.lead || []).some(function (c) { return /^\s*engine line\s*$/.test(c); });
  }

  /* The rest of a folded line, and the button that opens and closes it. */
  function foldRest(parent, plies) {
    var rest = el("span", "rest"), more = el("button", "more");
    rest.hidden = true;
    more.type = "button";
    function said() {
      more.textContent = rest.hidden ? "\u2026 " + plies + " more" : "fewer";
      more.setAttribute("aria-expanded", String(!rest.hidden));
      more.title = rest.hidden ? "the rest of the engine's line" : "fold the engine's line";
    }
    more.onclick = function (e) {
      e.stopPropagation();
      rest.hidden = !rest.hidden;
      said();
    };
    rest.unfold = function () { rest.hidden = false; said(); };
    said();
    parent.appendChild(rest);
    parent.appendChild(more);
    return rest;
  }

  /* A variation: inline text, as PMN writes it; an engine's line folded. */
  function renderLine(parent, l) {
    var line = G.lines[l], first = true, out = parent;
    renderLead(parent, line);
    var fold = isEngineLine(line) && line.n > FOLD + 1;
    for (var i = 0; i < line.n; i++) {
      var n = node(l, i);
      if (fold && i === FOLD) out = foldRest(parent, line.n - FOLD);
      var no = moveNumber(n, first);
      if (no === "-") {
        out.appendChild(document.createTextNode("-"));
      } else {
        if (!first) out.appendChild(document.createTextNode(" "));
        if (no) out.appendChild(el("span", "no", no));
      }
      renderMove(out, l, i);
      first = renderAfter(out, n) ? true : false;
    }
  }

  /* The main line: a table of two columns, South's move and North's under
   * each move number, as players write a game down; the sowings of a turn
   * in one cell; a comment or variation on a row of its own, after which
   * North's move begins a row of its own ("..." for South's). */
  function renderMain(parent) {
    var line = G.lines[0], table = el("table", "main"), row = null;
    var lead = el("div", "lead");
    renderLead(lead, line);
    if (lead.firstChild) parent.appendChild(lead);
    table.setAttribute("role", "presentation");
    for (var i = 0; i < line.n; i++) {
      var n = node(0, i), cell;
      if (n.joined && row) {
        cell = row.cells[n.side ? 2 : 1];
        cell.appendChild(document.createTextNode("-"));
      } else {
        if (!row || n.side === 0 || row.cells[2].firstChild || row.interrupted) {
          row = table.insertRow(-1);
          row.appendChild(el("td", "no", n.no + "."));
          row.appendChild(el("td", "s"));
          row.appendChild(el("td", "n"));
          if (n.side === 1) row.cells[1].appendChild(el("span", "no", "..."));
        }
        cell = row.cells[n.side ? 2 : 1];
      }
      renderMove(cell, 0, i);
      var note = el("td", "after");
      note.colSpan = 3;
      if (renderAfter(note, n)) {
        var tr = table.insertRow(-1);
        tr.appendChild(note);
        row = null;
      }
    }
    parent.appendChild(table);
  }

  function renderGame() {
    $("game-title").textContent = G.title;
    var moves = $("moves");
    moves.textContent = "";
    renderMain(moves);
    if (G.result) moves.appendChild(el("span", "result", " " + G.result));
    $("state").textContent = G.file + ", game " + G.number + " (line " + G.line + "), "
      + G.rules + ": " + G.state + (G.result ? "; result written " + G.result : "") + ".";
    renderEval();
    var tb = $("tags").tBodies[0];
    tb.textContent = "";
    G.tags.forEach(function (t) {
      var tr = el("tr");
      tr.appendChild(el("th", "", t[0]));
      tr.appendChild(el("td", "", t[1]));
      tb.appendChild(tr);
    });
    var ul = $("diags");
    ul.textContent = "";
    G.diags.forEach(function (d) {
      var li = el("li", d.severity);
      var where = d.at[0] ? d.at[0] + ":" + (d.at[1] ? d.at[1] + ": " : " ") : "";
      li.textContent = where + d.severity + "[" + d.code + "]: " + d.message;
      ul.appendChild(li);
    });
    var errors = G.diags.filter(function (d) { return d.severity !== "note"; }).length;
    $("diag-summary").textContent = G.diags.length
      ? "Problems: " + G.diags.length + " (" + errors + " errors or warnings)" : "No problems";
    $("diag-box").open = errors > 0;
    document.querySelectorAll("#game-list a").forEach(function (a, k) {
      if (k === at.game) a.setAttribute("aria-current", "true");
      else a.removeAttribute("aria-current");
    });
    buildBoard();
  }

  /* ---- the evaluation graph and the summary --------------------------- */

  /* South's expected score after each ply of the main line, where the
   * record holds pmn annotate's values: a line from the start (1/2), a dot
   * for each judged move, a band to click for each ply. */
  function renderEval() {
    var box = $("eval-box"), svg = $("eval-graph"), main = G.lines[0], pts = [];
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    for (var i = 0; i < main.n; i++) {
      var n = node(0, i);
      if (n.ex !== undefined) pts.push({ i: i, ex: n.ex, n: n });
    }
    var summary = $("summary");
    summary.textContent = "";
    main.n && (node(0, main.n - 1).comments || []).forEach(function (c) {
      if (SUMMARY.test(c))
        summary.appendChild(el("li", "", c.replace(SUMMARY, "").replace(/\s+/g, " ")));
    });
    $("summary-box").hidden = !summary.firstChild;
    box.hidden = !pts.length;
    if (!pts.length) return;
    var W = 600, H = 120, n = main.n;
    function x(i) { return ((i + 1) / n) * W; }
    function y(ex) { return (1 - ex) * H; }
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("preserveAspectRatio", "none");
    function add(name, attrs, parent) {
      var e = document.createElementNS(SVG, name);
      for (var k in attrs) e.setAttribute(k, attrs[k]);
      (parent || svg).appendChild(e);
      return e;
    }
    add("rect", { x: 0, y: 0, width: W, height: H / 2, "class": "south-half" });
    add("rect", { x: 0, y: H / 2, width: W, height: H / 2, "class": "north-half" });
    add("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, "class": "mid" });
    var d = "M0," + y(0.5);
    pts.forEach(function (p) { d += " L" + x(p.i).toFixed(1) + "," + y(p.ex).toFixed(1); });
    add("path", { d: d + " L" + x(pts[pts.length - 1].i).toFixed(1) + "," + H + " L0," + H + " Z",
                  "class": "area" });
    add("path", { d: d, "class": "curve" });
    pts.forEach(function (p) {
      var j = JUDGED[p.n.judgement];
      if (j && j !== "good" && j !== "brilliant" && j !== "interesting")
        add("circle", { cx: x(p.i).toFixed(1), cy: y(p.ex).toFixed(1), r: 4, "class": "dot j-" + j });
    });
    add("line", { x1: 0, y1: 0, x2: 0, y2: H, "class": "cur", id: "eval-cur" });
    /* A band for each ply, to click (its title says the move and value). */
    for (var k = 0; k < n; k++) {
      var m = node(0, k), band = add("rect", { x: (x(k - 1)).toFixed(1), y: 0,
                                                width: (W / n).toFixed(2), height: H,
                                                "class": "ply", "data-ply": k + 1 });
      var t = document.createElementNS(SVG, "title");
      t.textContent = (m.joined ? "" : m.no + (m.side ? "... " : ". ")) + m.t
        + (m.judgement || "") + (m.eval ? " " + m.eval : "");
      band.appendChild(t);
    }
    svg.onclick = function (e) {
      var r = svg.getBoundingClientRect();
      var ply = Math.max(0, Math.min(n, Math.round((e.clientX - r.left) / r.width * n)));
      stopSowing();
      open(at.game, 0, ply - 1);
    };
  }

  /* The graph's mark: the ply shown, on the main line. */
  function markEval() {
    var cur = $("eval-cur");
    if (!cur || $("eval-box").hidden) return;
    var ply = at.line === 0 ? at.idx + 1 : -1;
    var xv = ply < 0 ? -10 : (ply / G.lines[0].n) * 600;
    cur.setAttribute("x1", xv);
    cur.setAttribute("x2", xv);
  }

  /* ---- where we are ------------------------------------------------ */

  /* ---- the explorer's panel ---------------------------------------- */

  function pct(part, whole) { return whole ? Math.round(100 * part / whole) : 0; }

  /* What the index says was played from the position shown (x: its
   * node's "xp", or the game's "xp0" at the start), and the move the
   * record plays next there, marked. */
  function showExplorer(x, next) {
    var panel = $("explorer");
    panel.hidden = !G.explorer;
    if (!G.explorer) return;
    var body = document.querySelector("#xp-moves tbody");
    body.textContent = "";
    $("xp-latest").textContent = "";
    if (!x) {
      $("xp-total").textContent = "(not known here)";
      $("xp-none").hidden = true;
      $("xp-moves").hidden = true;
      return;
    }
    $("xp-total").textContent = x.games + " game" + (x.games === 1 ? "" : "s")
      + (x.games ? ": South " + pct(x.south, x.games) + "%, draws " + pct(x.draws, x.games)
         + "%, North " + pct(x.north, x.games) + "%" : "");
    $("xp-none").hidden = x.games > 0;
    $("xp-moves").hidden = !x.moves.length;
    x.moves.forEach(function (m) {
      var tr = el("tr"), decided = m.south + m.draws + m.north;
      tr.setAttribute("data-move", m.move === null ? "" : m.move);
      if (next !== null && m.move === next) tr.className = "next";
      tr.appendChild(el("td", "move", m.move === null ? "(end)" : m.move));
      tr.appendChild(el("td", "games", String(m.games)));
      var td = el("td", "bars"), bar = el("div", "xp-bar");
      bar.setAttribute("role", "img");
      bar.setAttribute("aria-label", "South " + pct(m.south, decided) + "%, draws "
                       + pct(m.draws, decided) + "%, North " + pct(m.north, decided) + "%");
      [["s", m.south], ["d", m.draws], ["n", m.north]].forEach(function (p) {
        var part = el("span", p[0], p[1] && pct(p[1], decided) >= 12 ? pct(p[1], decided) + "%" : "");
        part.style.width = (decided ? 100 * p[1] / decided : 0) + "%";
        bar.appendChild(part);
      });
      td.appendChild(bar);
      tr.appendChild(td);
      tr.appendChild(el("td", "score", m.score === null ? "-" : Math.round(100 * m.score) + "%"));
      tr.title = m.games + " game" + (m.games === 1 ? "" : "s")
        + (m.first ? ", " + m.first + (m.last !== m.first ? " to " + m.last : "") : "");
      body.appendChild(tr);
    });
    x.latest.forEach(function (g) {
      $("xp-latest").appendChild(el("li", "", (g.date || "?") + "  " + (g.south || "?") + " - "
        + (g.north || "?") + "  " + (g.result || "*") + (g.event && g.event !== "?" ? "  " + g.event : "")));
    });
  }

  function diagAt(n) {
    var d = G.diags.filter(function (d) { return d.at[0] === n.at[0] && d.at[1] === n.at[1]; });
    return d.map(function (x) { return x.severity + "[" + x.code + "]: " + x.message; }).join(" ");
  }

  /* The move stepped to, shown by scrolling the move list alone: never the
   * page, which on a phone's screen (the list under the board) scrolled the
   * board away after 20 plies, and opened #ply=66 with it above the screen. */
  function reveal(a) {
    var box = $("moves"), r = a.getBoundingClientRect(), b = box.getBoundingClientRect();
    var pad = 8;
    if (r.top < b.top + pad) box.scrollTop -= b.top + pad - r.top;
    else if (r.bottom > b.bottom - pad) box.scrollTop += r.bottom - (b.bottom - pad);
  }

  function show() {
    var l = at.line, i = at.idx, n = i >= 0 ? node(l, i) : null, status, lapText = "";
    var box = $("board");
    box.classList.toggle("unplayed", !G.ready || !!(n && !n.board));
    var where = i < 0 ? "the start" : "after " + (n.joined ? "" : n.no + (n.side ? "... " : ". "))
      + n.t + (l ? " (variation " + l + ")" : ", ply " + (i + 1));
    if (n && at.lap !== null) {
      var lap = n.laps[at.lap], fr = frames(l, i)[at.lap];
      setBoard(fr, { lifted: lap.from, last: lap.end, fours: foursOf(lap) },
               G.title + ": " + where + ", lap " + (at.lap + 1));
      lapText = "Lap " + (at.lap + 1) + " of " + n.laps.length + (n.cut ? "+" : "") + ": "
        + lap.seeds + " seed" + (lap.seeds === 1 ? "" : "s") + " from "
        + holeName(lap.from[0], lap.from[1]) + ", the last into "
        + holeName(lap.end[0], lap.end[1]) + ".";
      if (n.proof && at.lap === n.laps.length - 1) lapText += " " + sentence(n.proof);
      status = "Sowing " + n.t + ".";
    } else if (n && n.board) {
      setBoard(n.board, { lifted: n.hole || (n.laps && n.laps.length ? n.laps[0].from : null),
                          last: n.proof ? null : n.last, taken: n.taken, over: !!n.ending },
               G.title + ": " + where);
      status = where.charAt(0).toUpperCase() + where.slice(1) + ": " + sentence(n.proof || n.says);
      if (n.ending) status += " The game ends: " + n.ending + " (" + n.outcome + ").";
    } else {
      setBoard(after(l, i), {}, G.title + ": " + where);
      if (!G.ready)
        status = "Not replayed (" + G.state + "): the board is the opening position, not "
          + "the game's.";
      else
        status = n ? "Not replayed: " + n.t + ". " + (diagAt(n) || "A ply before it was not.")
                   : "The start. " + sideName(G.start[2 * G.pits + 2]) + " to move.";
    }
    /* The caption's parts each on a line of their own (white-space:
     * pre-line): the ply, its value, each comment, so that one's last
     * words never run into the next one's first. */
    if (n && n.eval)
      status += "\nValue " + n.eval + " (South's expected score " + Math.round(100 * n.ex) + "%).";
    if (n) shownComments(n.comments).forEach(function (c) {
      c = c.trim().replace(/\s+/g, " ");
      if (c) status += "\n" + sentence(c);
    });
    $("status").textContent = status;
    $("lap-status").textContent = lapText;
    document.querySelectorAll("#moves a.cur").forEach(function (a) {
      a.classList.remove("cur");
      a.removeAttribute("aria-current");
    });
    if (n) {
      var a = document.querySelector('#moves a[data-node="' + (G.lines[l].first + i) + '"]');
      if (a) {
        /* A step into the folded rest of an engine's line opens it. */
        for (var up = a.parentNode; up && up.id !== "moves"; up = up.parentNode)
          if (up.unfold && up.hidden) up.unfold();
        a.classList.add("cur");
        a.setAttribute("aria-current", "step");
        reveal(a);
      }
    }
    markEval();
    var nx = at.idx + 1 < G.lines[at.line].n ? node(at.line, at.idx + 1) : null;
    showExplorer(i < 0 ? G.xp0 : n.xp, nx && nx.board ? nx.t : null);
    var b = $("board");
    b.setAttribute("data-game", at.game + 1);
    b.setAttribute("data-line", l);
    b.setAttribute("data-move", i + 1);
    b.setAttribute("data-lap", at.lap === null ? "" : at.lap + 1);
    var frag = i < 0 ? "#game=" + (at.game + 1) + "&ply=0" : href(l, i);
    if (at.lap !== null) frag += "&lap=" + (at.lap + 1);
    if (location.hash !== frag && history.replaceState) history.replaceState(null, "", frag);
  }

  function open(g, l, i, lap) {
    g = Math.max(0, Math.min(blocks.length - 1, g));
    if (g !== at.game || !G) {
      at.game = g;
      G = game(g);
      renderGame();
    }
    l = l >= 0 && l < G.lines.length ? l : 0;
    var n = G.lines[l].n;
    i = Math.max(l ? 0 : -1, Math.min(n - 1, i));
    at.line = l;
    at.idx = i;
    at.lap = null;
    if (lap !== null && lap !== undefined && i >= 0) {
      var laps = node(l, i).laps || [];
      if (laps.length) at.lap = Math.max(0, Math.min(laps.length - 1, lap));
    }
    show();
  }

  /* ---- moving ------------------------------------------------------ */

  function forward() {
    if (at.idx + 1 < G.lines[at.line].n) open(at.game, at.line, at.idx + 1);
  }

  function back() {
    if (at.idx > 0 || (at.line === 0 && at.idx === 0)) return open(at.game, at.line, at.idx - 1);
    leave();
  }

  /* Out of a variation: to the position before the move it replaces. */
  function leave() {
    var p = G.lines[at.line].parent;
    if (p < 0) return;
    open(at.game, G.lineOf[p], G.idxOf[p] - 1);
  }

  /* Into the first variation of the next move. */
  function enter() {
    if (at.idx + 1 >= G.lines[at.line].n) return;
    var n = node(at.line, at.idx + 1);
    if (n.vars && n.vars.length) open(at.game, n.vars[0], 0);
  }

  function lapForward() {
    var n = at.idx >= 0 ? node(at.line, at.idx) : null;
    if (n && at.lap !== null) {
      if (at.lap + 1 < n.laps.length) return open(at.game, at.line, at.idx, at.lap + 1);
      return open(at.game, at.line, at.idx);
    }
    if (at.idx + 1 >= G.lines[at.line].n) return;
    var next = node(at.line, at.idx + 1);
    open(at.game, at.line, at.idx + 1, next.laps && next.laps.length ? 0 : null);
  }

  function lapBack() {
    var n = at.idx >= 0 ? node(at.line, at.idx) : null;
    if (!n) return;
    if (at.lap === null && n.laps && n.laps.length)
      return open(at.game, at.line, at.idx, n.laps.length - 1);
    if (at.lap > 0) return open(at.game, at.line, at.idx, at.lap - 1);
    back();
  }

  function stopSowing() {
    if (sowing) clearInterval(sowing);
    sowing = null;
  }

  /* The next move's sowing (or the rest of this one's), a lap every
   * 700 ms, until the move is made; any other step stops it. */
  function sow() {
    stopSowing();
    lapForward();
    if (at.lap === null) return;
    sowing = setInterval(function () {
      lapForward();
      if (at.lap === null) stopSowing();
    }, 700);
  }

  /* What the user does stops a sowing shown lap by lap. */
  function user(act) {
    return function () {
      stopSowing();
      act();
    };
  }

  function fromHash() {
    stopSowing();
    var q = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var p = kv.split("=");
      if (p.length === 2) q[p[0]] = parseInt(p[1], 10);
    });
    var g = (q.game || 1) - 1;
    if (q.line) return open(g, q.line, (q.move || 1) - 1, q.lap ? q.lap - 1 : null);
    open(g, 0, (isNaN(q.ply) ? 0 : q.ply) - 1, q.lap ? q.lap - 1 : null);
  }

  function keys(e) {
    if (e.ctrlKey || e.altKey || e.metaKey || !G) return;
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") return;
    var act = {
      ArrowRight: forward, ArrowLeft: back, ArrowDown: enter, ArrowUp: leave,
      Home: function () { open(at.game, at.line, at.line ? 0 : -1); },
      End: function () { open(at.game, at.line, G.lines[at.line].n - 1); },
      PageDown: function () { open(at.game + 1, 0, -1); },
      PageUp: function () { open(at.game - 1, 0, -1); },
      "]": lapForward, "[": lapBack, p: sow, P: sow
    }[e.key];
    if (!act) return;
    e.preventDefault();
    if (act !== sow) stopSowing();
    act();
  }

  function init() {
    var list = $("game-list");
    blocks.forEach(function (b, k) {
      var li = el("li"), a = el("a", "", b.getAttribute("data-title"));
      a.href = "#game=" + (k + 1) + "&ply=0";
      li.appendChild(a);
      list.appendChild(li);
    });
    $("games-heading").textContent = "Games (" + blocks.length + ")";
    /* One game: its list would only take the board's room. */
    document.body.classList.toggle("one-game", blocks.length === 1);
    if (!blocks.length) {
      $("game-title").textContent = "No games";
      return;
    }
    $("first").onclick = user(function () { open(at.game, at.line, at.line ? 0 : -1); });
    $("back").onclick = user(back);
    $("forward").onclick = user(forward);
    $("last").onclick = user(function () { open(at.game, at.line, G.lines[at.line].n - 1); });
    $("lap-back").onclick = user(lapBack);
    $("lap-forward").onclick = user(lapForward);
    $("play-laps").onclick = sow;
    document.addEventListener("keydown", keys);
    window.addEventListener("hashchange", fromHash);
    fromHash();
  }

  init();
})();
