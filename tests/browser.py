"""browser.py - the pages of pmn html in a real browser, headless Chromium
driven by Selenium: run by tests/browser.sh, which sets PMN (the pmn to
run), top_srcdir and work (a scratch directory).

What it checks:
  - at several plies of the sample games of every rule set, the count of
    every hole, store and captured total on the page's board (its
    data-seeds, its written count and its dots) is what the text board of
    `pmn replay --ply K` shows, whether the page was opened at
    #game=N&ply=K, stepped there by keys, or clicked there;
  - keys and clicks move through the game and its variations (a variation's
    boards against a record of it as a main line), games, laps;
  - each lap of a sowing keeps every seed, ends where pmn replay says the
    ply ends, marks Anywoli's fours, and an endless move's laps run up to
    the lap its proof names, which is the board the move began from;
  - a record with errors is shown up to its first illegal ply, with its
    diagnostics listed;
  - the page loads nothing, and its policy refuses what a record might try
    to load; the script reports no error;
  - a 334-ply game and a page of 300 games work;
  - an annotated game (pmn annotate, or pmn html --annotate) has an
    evaluation graph, a band for each ply, that goes to the ply clicked and
    marks the ply shown; its judged moves are coloured, a dot each on the
    graph; no comment is shown in braces or as [%eval]; the summary lists
    both sides; at the end the caption says the game is over; a status
    has no doubled stop; a problem is listed by its event, not "? - ?";
  - with --explorer DB, a panel beside the board says at each position
    stepped to what `pmn index explore` says of it: the moves, their
    games, results (bars as wide as their shares) and scores, the move
    the record plays next marked; without it, no panel;
  - at a glance: at 1280x900 the board, its controls, the move list and
    the graph are in view at once, with no sideways scroll there or at
    412 px, where the board stays in view opened deep in a game and
    stepped through it; engine lines folded after their first plies, opened by a click
    or a step into them; the caption's ply, value and comments on lines of
    their own.

With --screenshots DIR it writes the pictures of the documentation instead.
"""
import os
import re
import subprocess
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

PMN = os.environ.get("PMN", "./src/pmn")
TOP = os.environ.get("top_srcdir", ".")
WORK = os.environ.get("work", "/tmp")
GAMES = os.environ.get("BENCH_GAMES", "./bench/games")

passed = 0
failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what, flush=True)
    return cond


def run(args, stdin=None):
    r = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def page(name, *args, stdin=None, title=None):
    """pmn html ARGS -o WORK/NAME.html; its path."""
    path = os.path.join(WORK, name + ".html")
    status, _, err = run([PMN, "html", "-q", *(["--title", title] if title else []), *args,
                          "-o", path], stdin)
    if status > 2:
        print("pmn html %s: exit %d: %s" % (" ".join(args), status, err))
    return path


# ---- the text board of pmn replay --ply K ------------------------------

LETTERS = re.compile(r"^\s+[A-Za-z](\s+[A-Za-z])*\s*$")
COUNTS = re.compile(r"^(North|South)?\s+\d+(\s+\d+)*(\s+(back|front))?\s*$")


def text_board(path, ply, game=1):
    """{hole name: count}, and [South, North] stores or captured totals
    (None where the text board does not say them)."""
    status, out, err = run([PMN, "replay", "--game", str(game), "--ply", str(ply), path])
    if status > 2:
        raise RuntimeError("pmn replay %s --ply %d: %s" % (path, ply, err))
    lines = out.split("\n")
    holes, stores = {}, None
    for i, line in enumerate(lines):
        if not COUNTS.match(line):
            continue
        counts = [int(x) for x in re.findall(r"\b\d+\b", line)]
        near = [l for l in (lines[i - 1] if i else "", lines[i + 1] if i + 1 < len(lines) else "")
                if LETTERS.match(l)]
        if near:
            names = near[0].split()
            if len(names) == len(counts):
                holes.update(zip(names, counts))
        elif len(counts) == 2:
            stores = [counts[1], counts[0]]   # North's store on the left
    m = re.search(r"(Stores|Captured): South (\d+), North (\d+)", out)
    if m:
        stores = [int(m.group(2)), int(m.group(3))]
    return holes, stores


# ---- the page's board ----------------------------------------------------

BOARD_JS = """
var b = document.getElementById('board'), out = {holes: {}, stores: [null, null], drawn: []};
b.querySelectorAll('g.hole').forEach(function (g) {
  var n = +g.getAttribute('data-seeds');
  out.holes[g.querySelector('.name').textContent] = n;
  var dots = g.querySelectorAll('.seeds circle.seed').length;
  var many = g.querySelector('.seeds .many');
  out.drawn.push([g.querySelector('.name').textContent, n, +g.querySelector('.count').textContent,
                  many ? +many.textContent : dots]);
});
b.querySelectorAll('g.store, .captured').forEach(function (e) {
  out.stores[+e.getAttribute('data-side')] = +e.getAttribute('data-seeds');
});
out.at = [b.getAttribute('data-game'), b.getAttribute('data-line'), b.getAttribute('data-move'),
          b.getAttribute('data-lap')];
out.status = document.getElementById('status').textContent;
out.lap = document.getElementById('lap-status').textContent;
out.four = b.querySelectorAll('.pit.four').length;
out.taken = b.querySelectorAll('.pit.taken').length;
return out;
"""


def board(d):
    return d.execute_script(BOARD_JS)


def same_board(d, path, ply, what, game=1, shown=None):
    """The page's board is the text board of pmn replay --ply."""
    holes, stores = text_board(path, ply, game)
    b = shown or board(d)
    good = ok(b["holes"] == holes and len(holes) > 0,
              "%s: holes %s, pmn replay --ply %d says %s" % (what, b["holes"], ply, holes))
    if stores is not None:
        good &= ok(b["stores"] == stores,
                   "%s: stores/captured %s, pmn replay says %s" % (what, b["stores"], stores))
    drawn = [x for x in b["drawn"] if not (x[1] == x[2] == x[3])]
    good &= ok(not drawn, "%s: counts drawn unlike data-seeds (name, data, count, dots): %s"
               % (what, drawn))
    return good


def at(d):
    return board(d)["at"]


def until(cond, seconds=5):
    """Wait for cond() to hold: following a link or an address changes
    the page in its hashchange handler, after the click or get returns."""
    end = time.time() + seconds
    while not cond() and time.time() < end:
        time.sleep(0.05)


def go(d, url, frag):
    d.get("file://" + url + frag)
    q = dict(kv.split("=") for kv in frag.lstrip("#").split("&"))
    want = [q["game"], q.get("line", "0"), q.get("move", q.get("ply")), q.get("lap", "")]
    until(lambda: at(d) == want)


def keys(d, *ks):
    """Press the keys ks in order: one command to the driver (a round trip
    each key made stepping through a game most of this test's time)."""
    d.find_element(By.TAG_NAME, "body").send_keys(*ks)


def no_errors(d, what):
    bad = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
    ok(not bad, "%s: the browser reported %s" % (what, bad))


# ---- the checks ---------------------------------------------------------

SAMPLES = [   # file, game, plies
    ("samples/hawalis/tavares-gering-2009.pmn", 1, [0, 1, 6, 57, 109]),
    ("samples/hawalis/miumiu-rosenau-2009.pmn", 1, [12, 25]),
    ("samples/kalah/selfplay-2.pmn", 1, [0, 3, 30]),
    ("samples/oware/selfplay-2.pmn", 1, [10, 70]),
    ("samples/awale/selfplay-4.pmn", 1, [5, 50]),
    ("samples/anywoli/selfplay-3.pmn", 1, [1, 10, 24]),
    ("samples/tournament/zanzibar-2026.pmn", 3, [20]),
]


def counts_at_plies(d):
    for rel, game, plies in SAMPLES:
        path = os.path.join(TOP, rel)
        url = page(rel.replace("/", "-"), path)
        for k in plies:   # opened at the address
            go(d, url, "#game=%d&ply=%d" % (game, k))
            same_board(d, path, k, "%s #game=%d&ply=%d" % (rel, game, k), game)
        # stepped by keys from the start to the last ply asked
        go(d, url, "#game=%d&ply=0" % game)
        last = 0
        for k in sorted(plies):
            keys(d, *([Keys.ARROW_RIGHT] * (k - last)))
            last = k
            same_board(d, path, k, "%s: Right to ply %d" % (rel, k), game)
        no_errors(d, rel)


def keys_and_clicks(d):
    rel = "samples/hawalis/tavares-gering-2009.pmn"
    path = os.path.join(TOP, rel)
    url = page("keys", path)
    go(d, url, "#game=1&ply=30")
    keys(d, Keys.HOME)
    ok(at(d)[2] == "0", "Home: at %s" % at(d))
    keys(d, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_LEFT)
    ok(at(d)[2] == "2", "Right x3, Left: at %s" % at(d))
    same_board(d, path, 2, "Right x3, Left")
    keys(d, Keys.END)
    ok(at(d)[2] == "110", "End: at %s" % at(d))
    same_board(d, path, 110, "End")
    ok("The game ends" in board(d)["status"], "End: the status says the game ends: %s"
       % board(d)["status"])
    # a click on a move goes to it, and the address follows
    d.find_element(By.CSS_SELECTOR, '#moves a.mv[data-node="9"]').click()
    until(lambda: at(d)[2] == "10")
    ok(at(d)[2] == "10", "click on the 10th ply: at %s" % at(d))
    same_board(d, path, 10, "click on the 10th ply")
    ok(d.execute_script("return location.hash") == "#game=1&ply=10",
       "the address follows: %s" % d.execute_script("return location.hash"))
    d.find_element(By.ID, "forward").click()
    d.find_element(By.ID, "forward").click()
    d.find_element(By.ID, "back").click()
    same_board(d, path, 11, "buttons forward x2, back")
    cur = d.find_elements(By.CSS_SELECTOR, '#moves a.cur[aria-current="step"]')
    ok(len(cur) == 1 and cur[0].get_attribute("data-node") == "10",
       "the current move is marked, once: %s" % [c.get_attribute("data-node") for c in cur])
    # laps: ] steps into the next ply's sowing, and out of it at its end
    keys(d, Keys.HOME)
    status, out, _ = run([PMN, "replay", "--ply", "1", path])
    laps = int(re.search(r"(\d+) laps?", out).group(1))
    seen = 0
    while True:
        keys(d, "]")
        b = board(d)
        if b["at"][3] == "":
            break
        seen += 1
        ok(b["at"][3] == str(seen), "] lap %d: at %s" % (seen, b["at"]))
        ok(sum(b["holes"].values()) + sum(b["stores"]) == 56,
           "lap %d keeps the 56 seeds: %s" % (seen, b))
        if seen > 100:
            break
    ok(seen == laps, "ply 1 sown in %d laps on the page, pmn replay says %d" % (seen, laps))
    same_board(d, path, 1, "] past the last lap")
    keys(d, "[")
    ok(at(d)[3] == str(laps), "[ back into the last lap: at %s" % at(d))
    keys(d, "[", *(["["] * (laps - 1)))
    ok(at(d)[2] == "0", "[ back out of the first lap: at %s" % at(d))
    # P sows the next ply lap by lap, by itself, and stops when it is made.
    keys(d, Keys.HOME, "p")
    seen = set()
    for _ in range(60):
        b = board(d)
        seen.add(b["at"][3])
        if b["at"][2] == "1" and b["at"][3] == "":
            break
        time.sleep(0.2)
    ok(seen >= set(str(k) for k in range(1, laps + 1)) and at(d)[2:] == ["1", ""],
       "P: the laps of ply 1 shown one after another, then the ply: saw %s, at %s"
       % (sorted(seen), at(d)))
    time.sleep(1)
    ok(at(d)[2:] == ["1", ""], "P stops at the end of the ply: at %s" % at(d))
    # games: Page Down, Page Up
    rel = "samples/tournament/zanzibar-2026.pmn"
    url = page("games", os.path.join(TOP, rel))
    go(d, url, "#game=1&ply=0")
    keys(d, Keys.PAGE_DOWN, Keys.PAGE_DOWN, Keys.PAGE_UP)
    ok(at(d)[0] == "2", "Page Down x2, Page Up: game %s" % at(d)[0])
    keys(d, Keys.ARROW_RIGHT * 4)
    same_board(d, os.path.join(TOP, rel), 4, "game 2, Right x4", game=2)
    items = d.find_elements(By.CSS_SELECTOR, "#game-list a")
    items[13].click()
    until(lambda: at(d)[0] == "14")
    ok(at(d)[0] == "14", "a click on game 14 in the list: game %s" % at(d)[0])
    no_errors(d, "keys and clicks")


def variations(d):
    rel = "samples/hawalis/problem-1.pmn"
    path = os.path.join(TOP, rel)
    url = page("variations", path)
    # The variation a) as a main line, for pmn replay to say its boards.
    with open(path) as f:
        text = f.read()
    tags = "".join(l for l in text.splitlines(True)
                   if l.startswith("[") and not l.startswith("[Result"))
    var = os.path.join(WORK, "variation.pmn")
    with open(var, "w") as f:
        f.write(tags + "\n1. 2 (x3) 4 (x1); 2. 5 (x1) 3; 3. 6 11; 4. 7 12; 5. 8 13; 6. 9 14; "
                "7. 10 1; 8. 11 2; 9. 12 8; 10. 13 9; 11. 14 6 (x1) *\n")
    go(d, url, "#game=1&ply=0")
    keys(d, Keys.ARROW_DOWN)
    ok(at(d)[1:3] == ["1", "1"], "Down at the start: into the variation's first ply: %s" % at(d))
    same_board(d, var, 1, "variation, ply 1")
    keys(d, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    same_board(d, var, 4, "variation, Right x3")
    keys(d, Keys.END)
    same_board(d, var, 22, "variation, End")
    keys(d, Keys.ARROW_UP)
    ok(at(d)[1:3] == ["0", "0"], "Up: out of the variation, before its move: %s" % at(d))
    keys(d, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    same_board(d, path, 2, "main line after Up, Right x2")
    d.find_element(By.CSS_SELECTOR, '#moves .var a.mv[data-node="%d"]' % (41 + 5)).click()
    until(lambda: at(d)[1:3] == ["1", "6"])
    ok(at(d)[1:3] == ["1", "6"], "a click on a move of the variation: %s" % at(d))
    same_board(d, var, 6, "a click in the variation")
    ok(d.execute_script("return location.hash") == "#game=1&line=1&move=6",
       "a variation's address: %s" % d.execute_script("return location.hash"))
    go(d, url, "#game=1&line=1&move=9")
    same_board(d, var, 9, "opened at #game=1&line=1&move=9")
    keys(d, Keys.ARROW_LEFT)
    same_board(d, var, 8, "Left in the variation")
    no_errors(d, "variations")


def sowings(d):
    # An endless move: its laps run to the lap the proof names (77), whose
    # board is the one the move began from.
    rel = "samples/hawalis/miumiu-rosenau-2009.pmn"
    path = os.path.join(TOP, rel)
    url = page("endless", path)
    go(d, url, "#game=1&ply=26")
    b = board(d)
    ok("endless" in b["status"] and "lap 77" in b["status"],
       "the endless move's status gives its proof: %s" % b["status"])
    same_board(d, path, 25, "after the endless move: the board it began from")
    keys(d, "[")
    b = board(d)
    ok(b["at"][3] == "77", "[ from the endless move: its lap 77: %s" % b["at"])
    ok("repeats" in b["lap"], "the last lap shown says the proof: %s" % b["lap"])
    same_board(d, path, 25, "lap 77 of the endless move", shown=b)
    keys(d, "[")
    ok(at(d)[3] == "76", "[ again: lap 76: %s" % at(d))
    # Anywoli: fours taken on the way are marked in the laps that take them.
    rel = "samples/anywoli/selfplay-3.pmn"
    path = os.path.join(TOP, rel)
    url = page("anywoli", path)
    go(d, url, "#game=1&ply=0")
    fours = 0
    for _ in range(400):
        keys(d, "]")
        b = board(d)
        if b["four"]:
            fours += 1
            ok("fours taken in" in d.execute_script(
                "return document.getElementById('board-note').textContent"),
               "a four marked and said in words")
        if b["at"][2] == "24" and b["at"][3] == "":
            break
    ok(fours > 0, "Anywoli: fours marked in some lap of the first 24 plies")
    same_board(d, path, 24, "Anywoli, ] through 24 plies")
    # Kalah: the captures of a last seed are marked once the move is made.
    rel = "samples/kalah/selfplay-2.pmn"
    url = page("kalah", os.path.join(TOP, rel))
    marked = 0
    for k in range(1, 31):
        go(d, url, "#game=1&ply=%d" % k)
        b = board(d)
        if "captures" in b["status"] and "captures 0" not in b["status"]:
            marked += ok(b["taken"] >= 2, "Kalah ply %d: its capture marked: %s" % (k, b))
    ok(marked > 0, "Kalah: captures marked in the first 30 plies")
    no_errors(d, "sowings")


def errors(d):
    record = (b'[Event "</script><script>alert(1)</script>"]\n[South "A & B"]\n[North "C"]\n'
              b'[Result "*"]\n\n1. i (+4) {a comment with </script>} L (+6); 2. d (+6) J (+6); '
              b'3. i Z (+4); 4. e *\n')
    url = page("errors", stdin=record)
    go(d, url, "#game=1&ply=0")
    items = d.find_elements(By.CSS_SELECTOR, "#diags li")
    ok(any("E110" in i.get_attribute("textContent") for i in items),
       "the problems are listed: %s" % [i.get_attribute("textContent") for i in items])
    unplayed = d.find_elements(By.CSS_SELECTOR, "#moves a.mv.unplayed")
    ok(len(unplayed) == 2, "the plies after the illegal one are struck through: %d"
       % len(unplayed))
    keys(d, Keys.END)
    b = board(d)
    ok(b["at"][2] == "7" and "Not replayed" in b["status"],
       "End: the last ply, not replayed, said so: %s %s" % (b["at"], b["status"]))
    # the board stays at the last ply replayed
    var = os.path.join(WORK, "errors.pmn")
    with open(var, "wb") as f:
        f.write(record)
    same_board(d, var, 5, "a record with errors, at its end", shown=b)
    ok(d.title == "pmn games", "the title of a page of standard input: %s" % d.title)
    ok(d.execute_script("return document.querySelectorAll('script').length") == 2,
       "the tags' and comments' </script> ended no block")
    no_errors(d, "errors")


def network(d):
    url = page("network", os.path.join(TOP, "samples/hawalis/tavares-gering-2009.pmn"))
    go(d, url, "#game=1&ply=5")
    ok(d.execute_script("return performance.getEntriesByType('resource').length") == 0,
       "the page loads nothing")
    with open(url, encoding="utf-8") as f:
        html = f.read()
    outside = [u for u in re.findall(r"https?://[^\s\"'<>)]+", html)
               if u != "http://www.w3.org/2000/svg"]
    ok(not outside, "the page names no address but SVG's namespace: %s" % outside[:5])
    # What a page might be made to load, its policy refuses.
    refused = d.execute_async_script("""
        var done = arguments[arguments.length - 1], n = 0;
        document.addEventListener('securitypolicyviolation', function () { n++; });
        var img = document.createElement('img');
        img.src = 'http://example.invalid/x.png';
        document.body.appendChild(img);
        var s = document.createElement('script');
        s.src = 'http://example.invalid/x.js';
        document.body.appendChild(s);
        setTimeout(function () { done(n); }, 500);""")
    ok(refused >= 2, "the policy refuses loads from the network: %s refusals" % refused)
    d.get_log("browser")   # those refusals, reported as errors: wanted here
    # Accessible: the board has a text alternative, the buttons names.
    t = d.execute_script("var s = document.querySelector('#board svg');"
                         "return [s.getAttribute('role'), s.querySelector('title').textContent,"
                         " s.querySelector('desc').textContent];")
    ok(t[0] == "img" and "ply 5" in t[1] and "South:" in t[2] and "to move" in t[2],
       "the board's text alternative: %s" % t)
    unnamed = d.execute_script("return Array.prototype.filter.call("
                               "document.querySelectorAll('button'), function (b) {"
                               " return !b.getAttribute('aria-label'); }).length")
    ok(unnamed == 0, "every button is named")
    ok(d.find_element(By.ID, "status").get_attribute("aria-live") == "polite",
       "the status is read out as it changes")


def large(d):
    # A game of 334 plies (Oware, random moves; the same on every machine).
    _, games, _ = run([GAMES, "3000", "2", "oware"])
    long = os.path.join(WORK, "long.pmn")
    _, text, _ = run([PMN, "select", "-q", "--game", "2760", "-"], games.encode())
    with open(long, "w") as f:
        f.write(text)
    url = page("long", long)
    go(d, url, "#game=1&ply=0")
    keys(d, Keys.END)
    ok(at(d)[2] == "334", "the 334-ply game: End at %s" % at(d))
    same_board(d, long, 334, "the 334-ply game at its end")
    keys(d, *([Keys.ARROW_LEFT] * 34))
    same_board(d, long, 300, "the 334-ply game, Left x34")
    # 300 Hawalis games in a page.
    _, games, _ = run([GAMES, "300", "7"])
    many = os.path.join(WORK, "many.pmn")
    with open(many, "w") as f:
        f.write(games)
    url = page("many", many)
    go(d, url, "#game=300&ply=20")
    same_board(d, many, 20, "game 300 of 300, ply 20", game=300)
    ok(len(d.find_elements(By.CSS_SELECTOR, "#game-list li")) == 300, "300 games listed")
    keys(d, Keys.PAGE_UP, Keys.END)
    b = board(d)
    ok(b["at"][0] == "299", "Page Up from game 300: game %s" % b["at"][0])
    _, out, _ = run([PMN, "select", "-q", "--game", "299", "--format", "list", many])
    plies = int(re.search(r"(\d+) moves", out).group(1))
    same_board(d, many, plies, "game 299 at its end", game=299, shown=b)
    no_errors(d, "large")


def annotated(d):
    src = os.path.join(WORK, "annotated.pmn")
    status, _, err = run([PMN, "annotate", "-q", "--depth", "6", "-o", src,
                          os.path.join(TOP, "samples/hawalis/tavares-gering-2009.pmn"),
                          os.path.join(TOP, "samples/hawalis/problem-1.pmn")])
    ok(status == 0, "pmn annotate for the page: exit %d: %s" % (status, err))
    url = page("annotated", src)
    go(d, url, "#game=1&ply=0")
    info = d.execute_script("""
var box = document.getElementById('eval-box'), svg = document.getElementById('eval-graph');
return {hidden: box.hidden, bands: svg.querySelectorAll('rect.ply').length,
        curve: svg.querySelectorAll('path.curve').length,
        dots: svg.querySelectorAll('circle.dot').length,
        judged: document.querySelectorAll('table.main td.s > a.mv.j-inaccuracy,'
            + ' table.main td.n > a.mv.j-inaccuracy, table.main td.s > a.mv.j-mistake,'
            + ' table.main td.n > a.mv.j-mistake, table.main td.s > a.mv.j-blunder,'
            + ' table.main td.n > a.mv.j-blunder').length,
        pairs: Array.prototype.map.call(document.querySelectorAll('table.main tr'),
            function (tr) { return tr.textContent; }).slice(0, 3),
        text: document.getElementById('moves').textContent,
        summary: document.querySelectorAll('#summary li').length,
        games: Array.prototype.map.call(document.querySelectorAll('#game-list a'),
                                        function (a) { return a.textContent; })};""")
    ok(not info["hidden"] and info["curve"] == 1, "annotated: the graph is shown: %s" % info)
    ok(info["bands"] == 110, "annotated: a band for each of 110 plies: %d" % info["bands"])
    ok(info["judged"] > 0 and info["judged"] == info["dots"],
       "annotated: judged moves coloured (%d), dots on the graph (%d)"
       % (info["judged"], info["dots"]))
    ok("{" not in info["text"] and "[%eval" not in info["text"]
       and "pmn summary" not in info["text"],
       "annotated: no braces, values or summaries in the move list")
    ok(info["pairs"][0].startswith("1.i (+4)L (+6)"),
       "annotated: the main line in two columns, a move a row: %s" % info["pairs"])
    ok(info["summary"] == 2, "annotated: the summary lists both sides: %d" % info["summary"])
    ok(info["games"][1].startswith("Hawalis endgame problem 1"),
       "annotated: the problem is listed by its event: %s" % info["games"][1])
    # A click on the graph, three quarters along: that ply, marked.
    g = d.find_element(By.ID, "eval-graph")
    webdriver.ActionChains(d).move_to_element_with_offset(
        g, int(g.rect["width"] * 0.25), 0).click().perform()
    until(lambda: at(d)[2] not in ("0", ""))
    ply = int(at(d)[2])
    ok(abs(ply - 82) <= 2, "annotated: a click three quarters along goes to ply 82: %d" % ply)
    x = float(d.execute_script("return document.getElementById('eval-cur').getAttribute('x1')"))
    ok(abs(x - ply / 110 * 600) < 1, "annotated: the graph marks ply %d: x %s" % (ply, x))
    b = board(d)
    ok("Value " in b["status"] and "expected score" in b["status"],
       "annotated: the status gives the value: %s" % b["status"])
    keys(d, Keys.END)
    until(lambda: at(d)[2] == "110")
    caption = d.execute_script("return document.querySelector('#board .to-move').textContent")
    ok(caption == "The game is over", "annotated: at the end the caption says: %s" % caption)
    # The endless move's status: one stop after its proof.
    url = page("endless-stop", os.path.join(TOP, "samples/hawalis/miumiu-rosenau-2009.pmn"))
    go(d, url, "#game=1&ply=26")
    ok(not re.search(r"[^.]\.\.(?!\.)", board(d)["status"]),
       "no doubled stop: %s" % board(d)["status"])
    # Annotated on the way.
    url = page("on-the-way", "--annotate", "--depth", "4",
               os.path.join(TOP, "samples/kalah/selfplay-2.pmn"))
    go(d, url, "#game=1&ply=5")
    ok(d.execute_script("return !document.getElementById('eval-box').hidden"),
       "pmn html --annotate draws the graph")
    no_errors(d, "annotated")


PANEL_JS = """
var p = document.getElementById('explorer'), rows = [];
document.querySelectorAll('#xp-moves tbody tr').forEach(function (tr) {
  var bar = tr.querySelector('.xp-bar').getBoundingClientRect().width;
  rows.push({move: tr.getAttribute('data-move'),
             games: parseInt(tr.querySelector('td.games').textContent, 10),
             score: tr.querySelector('td.score').textContent,
             next: tr.className === 'next',
             parts: Array.prototype.map.call(tr.querySelectorAll('.xp-bar span'),
                                             function (s) { return s.getBoundingClientRect().width / bar; })});
});
return {hidden: p.hidden, total: document.getElementById('xp-total').textContent, rows: rows,
        none: !document.getElementById('xp-none').hidden,
        latest: document.querySelectorAll('#xp-latest li').length,
        moves: Array.prototype.map.call(document.querySelectorAll('table.main a.mv'),
                                        function (a) { return a.textContent; })};"""


def explore_says(db, plies):
    """pmn index explore DB --opening PLIES --format jsonl: the position's
    line and its moves."""
    args = [PMN, "index", "explore", db, "--format", "jsonl", "--top", "0"]
    if plies:
        args += ["--opening", " ".join(plies)]
    status, out, err = run(args)
    lines = [__import__("json").loads(x) for x in out.splitlines()]
    return status, lines


def explorer(d):
    """pmn html --explorer DB: the panel at the start and after steps by
    key says what pmn index explore says of the position shown."""
    db = os.path.join(WORK, "explorer.db")
    tournament = os.path.join(TOP, "samples/tournament/zanzibar-2026.pmn")
    run([PMN, "index", "build", db, tournament,
         os.path.join(TOP, "samples/hawalis/tavares-gering-2009.pmn")])
    url = page("explorer", "--explorer", db, tournament)
    go(d, url, "#game=3&ply=0")
    played = d.execute_script(PANEL_JS)["moves"]
    ok(len(played) > 8, "explorer: the game's moves: %s" % played)
    for ply in range(0, 7):
        if ply:
            keys(d, Keys.ARROW_RIGHT)
            until(lambda: at(d)[3 - 1] == str(ply))
        panel = d.execute_script(PANEL_JS)
        status, says = explore_says(db, played[:ply])
        if not ok(status == 0 and says and not panel["hidden"],
                  "explorer at ply %d: a panel (%s), pmn index explore status %d"
                  % (ply, panel["hidden"], status)):
            continue
        pos, moves = says[0], [m for m in says[1:] if m["type"] == "move"]
        ok(panel["total"].startswith("%d game" % pos["games"]),
           "explorer at ply %d: '%s', explore says %d games" % (ply, panel["total"], pos["games"]))
        ok([(r["move"], r["games"]) for r in panel["rows"]]
           == [(m["move"] or "", m["games"]) for m in moves],
           "explorer at ply %d: the moves %s, explore says %s"
           % (ply, [(r["move"], r["games"]) for r in panel["rows"]],
              [(m["move"], m["games"]) for m in moves]))
        for r, m in zip(panel["rows"], moves):
            decided = m["south"] + m["draws"] + m["north"]
            want = [x / decided for x in (m["south"], m["draws"], m["north"])] if decided else [0, 0, 0]
            ok(all(abs(a - b) < 0.02 for a, b in zip(r["parts"], want)),
               "explorer at ply %d, %s: bars %s, results %s" % (ply, r["move"], r["parts"], want))
            ok(r["score"] == ("-" if m["score"] is None else "%d%%" % round(100 * m["score"])),
               "explorer at ply %d, %s: score %s, explore says %s" % (ply, r["move"], r["score"],
                                                                     m["score"]))
        nexts = [r["move"] for r in panel["rows"] if r["next"]]
        ok(nexts == ([played[ply]] if ply < len(played) and pos["games"] else []),
           "explorer at ply %d: the move played next marked: %s (%s)" % (ply, nexts, played[ply]))
        ok(panel["latest"] == min(3, pos["games"]), "explorer at ply %d: %d latest games"
           % (ply, panel["latest"]))
    # A page without an index has no panel.
    go(d, page("no-explorer", tournament), "#game=1&ply=2")
    ok(d.execute_script(PANEL_JS)["hidden"], "no --explorer: no panel")
    no_errors(d, "explorer")


def viewport(d, width, height):
    """The page's window, exactly (a headless window's size includes
    room it keeps for its frame)."""
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1,
                       "mobile": False})


IN_VIEW_JS = """
var out = {w: innerWidth, h: innerHeight, scroll: document.documentElement.scrollWidth};
['board', 'moves', 'eval-graph', 'controls'].forEach(function (id) {
  var b = document.getElementById(id).getBoundingClientRect();
  out[id] = [b.left, b.top, b.right, b.bottom];
});
return out;"""


def phone(d, url, w, h):
    """On a phone's screen the board stays in view: opened deep in a game
    (#ply=66), and stepped through it ply by ply, the move list scrolls
    under it, not the page (which scrolled the board away after 20 plies,
    and opened at ply 66 with it 482 px above the screen)."""
    def board_in_view(what):
        v = d.execute_script(IN_VIEW_JS)
        b = v["board"]
        ok(b[1] >= 0 and b[3] <= v["h"] and v["scroll"] <= v["w"],
           "%dx%d, %s: the board in view: %s" % (w, h, what, v))
    go(d, url, "#game=1&ply=66")
    board_in_view("opened at ply 66")
    go(d, url, "#game=1&ply=0")
    for step in range(1, 81):
        keys(d, Keys.ARROW_RIGHT)
        if step % 20 == 0:
            until(lambda: at(d)[2] == str(step), 2)
            board_in_view("stepped to ply %d" % step)
    cur = d.execute_script("""
var a = document.querySelector('#moves a.mv.cur'), m = document.getElementById('moves');
if (!a) return null;
var r = a.getBoundingClientRect(), b = m.getBoundingClientRect();
return [r.top >= b.top - 1 && r.bottom <= b.bottom + 1, r.top, r.bottom, b.top, b.bottom];""")
    ok(cur and cur[0], "%dx%d: the move list shows the move stepped to: %s" % (w, h, cur))


def at_a_glance(d):
    """The annotated page of annotated(): at 1280x900 the board, its
    controls, the move list and the graph are all in view at once; no
    sideways scroll at 412 px; an engine's line shows its first plies, the
    rest on a click or a step into it; the caption says the ply, its value
    and each comment on lines of their own."""
    url = os.path.join(WORK, "annotated.html")
    try:
        for w, h, ply in ((1280, 900, 24), (412, 900, 25)):
            viewport(d, w, h)
            go(d, url, "#game=1&ply=%d" % ply)
            # (The page lays itself out again after the window's change.)
            until(lambda: d.execute_script("return innerWidth") == w and
                  d.execute_script(IN_VIEW_JS)["scroll"] <= w, 2)
            v = d.execute_script(IN_VIEW_JS)
            ok(v["scroll"] <= v["w"], "%dx%d: no sideways scroll: %s" % (w, h, v))
            if w == 1280:
                out = [k for k in ("board", "moves", "eval-graph", "controls")
                       if v[k][0] < 0 or v[k][1] < 0 or v[k][2] > v["w"] or v[k][3] > v["h"]]
                ok(not out, "1280x900: all in view, but not %s: %s" % (out, v))
            else:
                phone(d, url, w, h)
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    go(d, url, "#game=1&ply=0")
    fold = d.execute_script("""
var bs = document.querySelectorAll('#moves button.more'),
    rests = document.querySelectorAll('#moves span.rest');
return {buttons: bs.length, rests: rests.length,
        hidden: Array.prototype.every.call(rests, function (r) { return r.hidden; }),
        text: bs.length ? bs[0].textContent : '',
        expanded: bs.length ? bs[0].getAttribute('aria-expanded') : ''};""")
    ok(fold["buttons"] > 0 and fold["buttons"] == fold["rests"] and fold["hidden"]
       and re.match(r"^\u2026 \d+ more$", fold["text"]) and fold["expanded"] == "false",
       "engine lines folded, a button each: %s" % fold)
    button = d.find_element(By.CSS_SELECTOR, "#moves button.more")
    button.click()
    opened = d.execute_script("""
var b = document.querySelector('#moves button.more');
return [b.previousElementSibling.hidden, b.textContent, b.getAttribute('aria-expanded')];""")
    ok(opened == [False, "fewer", "true"], "a click opens the engine's line: %s" % opened)
    button.click()
    ok(d.execute_script("return document.querySelector('#moves span.rest').hidden"),
       "a second click folds it again")
    # A step into the folded rest opens it, and marks the move there.
    frag = d.execute_script(
        "return document.querySelector('#moves span.rest a.mv').getAttribute('href')")
    go(d, url, frag)
    shown = d.execute_script("""
var a = document.querySelector('#moves a.mv.cur');
return a ? [a.closest('span.rest') ? a.closest('span.rest').hidden : 'no rest',
            a.getAttribute('href')] : null;""")
    ok(shown == [False, frag], "a step into a folded line opens it (%s): %s" % (frag, shown))
    # The caption: the ply, then its value, then each comment, a line each.
    ply = d.execute_script("""
var a = document.querySelector('table.main a.mv.j-inaccuracy, table.main a.mv.j-mistake');
return a.getAttribute('href');""")
    go(d, url, ply)
    lines = board(d)["status"].split("\n")
    ok(len(lines) >= 3 and lines[0].startswith("After ") and lines[1].startswith("Value ")
       and any(re.match(r"^(Inaccuracy|Mistake): \S+ was best\.$", x) for x in lines[2:]),
       "the caption's parts on lines of their own (%s): %s" % (ply, lines))
    no_errors(d, "at a glance")


def screenshots(d, where):
    os.makedirs(where, exist_ok=True)
    shots = [
        ("samples/hawalis/tavares-gering-2009.pmn", "#game=1&ply=14", None, "viewer-hawalis.png",
         "Mancala World sample game 1"),
        ("samples/hawalis/miumiu-rosenau-2009.pmn", "#game=1&ply=26", "[",
         "viewer-endless.png", "Mancala World sample game 2: an endless move"),
        ("samples/anywoli/selfplay-3.pmn", "#game=1&ply=7&lap=1", None, "viewer-anywoli.png",
         "Anywoli: fours taken during a sowing"),
        ("samples/hawalis/problem-1.pmn", "#game=1&line=1&move=3", None,
         "viewer-variation.png", "Hawalis endgame problem 1"),
    ]
    src = os.path.join(WORK, "annotated.pmn")
    run([PMN, "annotate", "-q", "--depth", "8", "-o", src,
         os.path.join(TOP, "samples/hawalis/tavares-gering-2009.pmn")])
    shots.append((src, "#game=1&ply=24", None, "viewer-annotated.png",
                  "Mancala World sample game 1, annotated"))
    shots.append((src, "#game=1&ply=19", None, "viewer-phone.png",
                  "Mancala World sample game 1, annotated"))
    # At 1280x900, as at_a_glance() checks it; the phone's at 412x900.
    for rel, frag, key, name, title in shots:
        viewport(d, 412 if "phone" in name else 1280, 900)
        url = page(name, rel if os.path.isabs(rel) else os.path.join(TOP, rel), title=title)
        go(d, url, frag)
        if key:
            keys(d, key)
        d.save_screenshot(os.path.join(where, name))
        print("wrote " + os.path.join(where, name))


def main():
    o = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,1000", "--force-device-scale-factor=1"):
        o.add_argument(a)
    o.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    try:
        d = webdriver.Chrome(service=service, options=o)
    except WebDriverException as e:
        print("browser: cannot start Chromium: %s" % e)
        return 99
    d.set_script_timeout(10)
    try:
        if len(sys.argv) > 2 and sys.argv[1] == "--screenshots":
            screenshots(d, sys.argv[2])
            return 0
        for check in (counts_at_plies, keys_and_clicks, variations, sowings, errors,
                      network, large, annotated, at_a_glance, explorer):
            check(d)
    finally:
        d.quit()
    print("browser: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
