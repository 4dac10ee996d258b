"""The Python package against libpmn and the pmn command: every call of the
API, the properties of hypothesis (seeds conserved, a game written and read
back the same, a replay in Python the same as libpmn's), and bad input of
every kind the tree and ../shared hold read without a crash.

Run by tests/python.sh, which builds the package and sets PMN_TOP_SRCDIR (the
source tree) and PMN_BIN (the pmn built beside it)."""
import gc
import glob
import io
import os
import resource
import subprocess
import threading

import pytest
from hypothesis import example, given, settings, HealthCheck, strategies as st

import pmn

TOP = os.environ.get("PMN_TOP_SRCDIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PMN = os.environ.get("PMN_BIN", "pmn")
LIGHT = os.environ.get("PMN_TEST_LIGHT", "0") not in ("", "0")
TOURNAMENT = os.path.join(TOP, "samples", "tournament", "zanzibar-2026.pmn")
SAMPLE = os.path.join(TOP, "samples", "hawalis", "tavares-gering-2009.pmn")
OWARE = os.path.join(TOP, "samples", "oware", "selfplay-2.pmn")


def run(*args, stdin=None):
    p = subprocess.run([PMN] + list(args), input=stdin, capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


# ---- the package ---------------------------------------------------------------

def test_version_is_the_librarys():
    rc, out, _ = run("--version")
    assert rc == 0
    assert pmn.__version__ in out
    assert pmn._library_version == pmn.__version__


def test_another_library_refused():
    pmn._check_version("0.1.0", "0.1.0")
    with pytest.raises(ImportError) as e:
        pmn._check_version("0.1.0", "0.2.0")
    assert "built for libpmn 0.1.0" in str(e.value) and "0.2.0" in str(e.value)


def test_check_says_what_pmn_check_says():
    inputs = [TOURNAMENT, SAMPLE, OWARE,
              os.path.join(TOP, "samples", "hawalis", "mancala-world-whole-page.txt"),
              os.path.join(TOP, "samples", "oware", "playstrategy.pgn")] + sorted(
        glob.glob(os.path.join(TOP, "tests", "cli", "diag-*", "in.pmn")))[:30]
    for f in inputs:
        summary = pmn.check(f)
        rc, out, err = run("check", f)
        assert str(summary) == out.strip(), f
        assert summary.status == rc, f
        assert len(summary.problems) == summary.errors + summary.warnings + summary.notes \
            + summary.counts["fatal"]


def test_errors_are_of_their_kinds():
    assert issubclass(pmn.UsageError, ValueError) and issubclass(pmn.UsageError, pmn.PmnError)
    assert issubclass(pmn.IllegalMoveError, pmn.UsageError)
    assert issubclass(pmn.PmnIOError, OSError) and issubclass(pmn.PmnMemoryError, MemoryError)
    assert issubclass(pmn.InputError, ValueError)


def test_docstrings_for_help():
    for name in pmn.__all__:
        assert getattr(pmn, name).__doc__, name
    assert "python-chess" in pmn.__doc__


# ---- rules ---------------------------------------------------------------------

def test_rules_by_name_and_spec():
    r = pmn.Rules("kalah(6,4),capture=opposite-always")
    assert r.name == "kalah" and r.holes == 6
    assert "capture=opposite-always" in r.spec
    assert pmn.Rules(r.spec) == r
    assert pmn.Rules("oware") != pmn.Rules("awale")
    assert "oware" in pmn.rule_set_names() and "hawalis" in pmn.rule_set_names()
    assert "sow" in pmn.Rules("oware").describe().lower()


def test_rules_refused_with_code_and_column():
    with pytest.raises(pmn.UsageError) as e:
        pmn.Rules("owar")
    assert e.value.code is not None and "owar" in str(e.value)
    with pytest.raises(pmn.UsageError) as e:
        pmn.Rules("oware,capture=nowhere")
    assert e.value.column and e.value.column > 1


def test_rule_file(tmp_path):
    xml = open(os.path.join(TOP, "rules", "oware.xml"), encoding="utf-8").read()
    good = tmp_path / "mine.xml"
    good.write_text(xml, encoding="utf-8")
    assert pmn.Rules.from_file(good).name == "oware"
    bad = tmp_path / "bad.xml"
    bad.write_text("<rules><oops/></rules>", encoding="utf-8")
    with pytest.raises(pmn.InputError) as e:
        pmn.Rules.from_file(bad)
    assert e.value.diagnostics and e.value.diagnostics[0].name.startswith("E4")


# ---- positions -----------------------------------------------------------------

def test_position_opening_and_play():
    p = pmn.Position("oware")
    assert p.holes == ((4,) * 6, (4,) * 6) and p.captured == (0, 0) and p.turn == "S"
    assert p.legal_moves() == list("abcdef")
    rep = p.play("c")
    assert rep.move == "c" and rep.captured == 0 and rep.result is None
    assert str(p) == "4,4,0,5,5,5/5,4,4,4,4,4 N"
    assert p.turn == "N" and p.legal_moves() == list("ABCDEF")
    assert pmn.Position("oware", str(p)) == p


def test_position_string_and_captures():
    p = pmn.Position("oware", "0,0,0,0,0,1/1,1,0,0,0,0 S 20:26")
    assert p.is_over() and p.result() == "0-1"   # North has a majority already
    assert p.captured == (20, 26) and p.seeds() == 3 and p.seeds("N") == 2
    assert "20:26" in str(p)
    with pytest.raises(pmn.UsageError) as e:
        pmn.Position("oware", "4,4,4/4 S")
    assert e.value.code is not None


def test_illegal_moves_raise_and_change_nothing():
    p = pmn.Position("oware", "0,0,0,0,0,1/1,1,0,0,0,0 S 23:22")
    before = str(p)
    with pytest.raises(pmn.IllegalMoveError) as e:
        p.play("a")
    assert e.value.code == 201 and str(p) == before
    with pytest.raises(pmn.IllegalMoveError):
        p.play("A")   # North's hole, South to move
    with pytest.raises(pmn.UsageError):
        p.play("z")
    with pytest.raises(pmn.UsageError):
        p.play(17)


def test_copy_is_apart():
    p = pmn.Position("kalah")
    q = p.copy()
    q.play("a")
    assert str(p) != str(q) and p.turn == "S"


def test_game_over_and_result():
    p = pmn.Position("oware", "0,0,0,0,0,1/1,1,0,0,0,0 S 23:22")
    assert not p.is_over()
    rep = p.play("f")   # two seeds in A: 25 of 48, a majority
    assert rep.captured == 2
    assert p.is_over() and p.result() == "1-0" and rep.result == "1-0"
    assert p.legal_moves() == [] and p.ending()
    with pytest.raises(pmn.IllegalMoveError):
        p.play("a")


def test_repetition_seen_by_a_position():
    # Kalah's moves never repeat; Oware's one seed a side go round.
    p = pmn.Position("oware,majority=no", "0,0,0,0,0,1/0,0,0,0,0,1 S")
    seen = set()
    while not p.is_over() and len(seen) < 100:
        seen.add(str(p))
        p.play(p.legal_moves()[0])
    assert p.is_over()


def test_board_and_svg():
    p = pmn.Position("hawalis")
    assert p.board().count("\n") >= 4
    svg = p._repr_svg_()
    assert svg.startswith("<?xml") and "<svg" in svg and "</svg>" in svg
    assert "My title" in p.svg(title="My title")


# ---- reading -------------------------------------------------------------------

def check_summary(path):
    rc, out, err = run("check", path)
    return rc, err


def test_read_a_tournament():
    games = list(pmn.read_games(TOURNAMENT))
    rc, out, _ = run("stats", TOURNAMENT)
    assert len(games) == 14
    g = games[0]
    assert g.tags["South"] == "Khamis Said" and g.result == "1-0" and g.valid
    assert g.rules.name == "hawalis"
    assert g.moves[0].move == "k" and g.moves[0].captured == 4 and g.moves[0].claim == 4
    assert g.end.result() == "1-0"


def test_tags_a_read_only_mapping_in_the_order_read():
    text = open(TOURNAMENT, encoding="utf-8").read().split("\n\n[")[0] + "\n\n"
    head, moves = text.split("\n\n", 1)
    want = {"Event": "Zanzibar Hawalis Championship 2026", "Site": "Stone Town, Zanzibar",
            "Date": "2026.03.07", "Round": "1.1", "South": "Khamis Said",
            "North": "Ralf Gering", "Result": "1-0", "Game": "Hawalis"}
    shapes = {
        "proved clean": (text, want),
        "a name twice (the first's value)": (head + '\n[South "Second"]\n\n' + moves, want),
        "a control character in a value":
            (head.replace('"1.1"', '"1\x012"') + "\n\n" + moves, dict(want, Round="1\x012")),
        "an escaped quote": (head.replace('"1.1"', '"1 \\"a\\" 2"') + "\n\n" + moves,
                             dict(want, Round='1 "a" 2')),
        "an error (a record kept)": (head + "\n\n" + moves.replace("(+4) M", "(+5) M", 1),
                                     want),
    }
    for what, (record, tags) in shapes.items():
        g = pmn.read_game(record)
        assert g.tags == tags and dict(g.tags) == tags, what
        assert list(g.tags) == list(tags) and len(g.tags) == len(tags), what
        assert list(g.tags.items()) == list(tags.items()), what
        assert g.tags["Round"] == tags["Round"] and g.tags.get("Round") == tags["Round"], what
        assert "South" in g.tags and "Annotator" not in g.tags and 7 not in g.tags, what
        assert g.tags.get("Annotator") is None and g.tags.get("Annotator", "-") == "-", what
        assert g.tags.get("Sou") is None and g.tags.get("1.1") is None, what
        with pytest.raises(KeyError):
            g.tags["Annotator"]
        with pytest.raises(TypeError):
            g.tags["Round"] = "2"
        assert repr(g.tags) == "Tags(%r)" % (tags,), what
    assert pmn.read_game('[Game "Oware"]\n\n*\n').tags == {"Game": "Oware"}
    assert dict(pmn.read_game("1. c C *\n").tags) == {}
    with pytest.raises(TypeError):
        pmn.Game()


def test_read_from_every_kind_of_source():
    text = open(SAMPLE, encoding="utf-8").read()
    by_path = pmn.read_game(SAMPLE)
    for source in (io.StringIO(text), io.BytesIO(text.encode()), open(SAMPLE, "rb"),
                   open(SAMPLE, encoding="utf-8")):
        g = pmn.read_game(source)
        assert g.pmn() == by_path.pmn()
    assert [g.pmn() for g in pmn.parse_games(text)] == [by_path.pmn()]
    assert pmn.read_game(text).pmn() == by_path.pmn()


def test_text_after_the_last_game():
    text = '[Game "Oware"]\n\n1. c *\n[oops (+3) *\n'
    reader = pmn.parse_games(text)
    games = list(reader)
    assert [d.name for d in reader.diagnostics] == ["E105"]
    assert "E105" in [d.name for d in games[-1].errors]


def test_missing_file():
    with pytest.raises(pmn.PmnIOError) as e:
        list(pmn.read_games("/nonexistent/games.pmn"))
    assert "cannot open" in str(e.value)


def test_a_bad_record_is_kept_with_its_diagnostics():
    text = '[Game "Anywoli"]\n\n1. i (+4) *\n'
    g = pmn.read_game(text)
    e205 = [d for d in g.errors if d.name == "E205"]
    assert e205 and e205[0].line == 3 and e205[0].column == 6 and e205[0].severity == "error"
    assert "captures 0" in e205[0].message and not g.valid
    assert str(e205[0]).startswith("3:6: error[E205]:")
    rc, _, err = run("check", "-", stdin=text.encode())
    assert rc == 2 and "3:6: error[E205]" in err


def test_errors_match_pmn_check():
    path = os.path.join(TOP, "tests", "cli")
    inputs = sorted(glob.glob(os.path.join(path, "*", "stdin")))[:40]
    assert inputs
    for f in inputs:
        games = list(pmn.read_games(open(f, "rb")))
        rc, _, err = run("check", "-", stdin=open(f, "rb").read())
        py = sorted(d.name for g in games for d in g.errors if d.severity in ("error", "fatal"))
        cli = sorted(w.split("[")[1].split("]")[0] for w in err.splitlines()
                     if ": error[" in w or ": fatal[" in w)
        assert py == cli, f


def test_tree_comments_variations_judgements():
    text = ('[Game "Oware"]\n\n1. c {a quiet start} (1. f!? {sharper} 1... A) 1... C?! '
            '$2 2. d *\n')
    g = pmn.read_game(text)
    c, C, d = g.moves
    assert c.comments == ["a quiet start"] and c.side == "S"
    assert C.judgement == "?!" and C.nags == [2] and C.side == "N"
    (var,) = c.variations
    assert [n.move for n in var] == ["f", "A"] and var[0].judgement == "!?"
    assert var[0].comments == ["sharper"]
    assert str(var[0].position) == "4,4,4,4,4,0/5,5,5,5,4,4 N"
    assert str(d.position) == str(g.end)


def test_write_pmn_xml_and_formats_read_back():
    for g in pmn.read_games(OWARE):
        text = g.pmn()
        assert pmn.read_game(text).pmn() == text
        assert pmn.read_game(g.pmn("numbers")).pmn() == text
        back = list(pmn.parse_games(g.xml(), format="xml"))
        assert len(back) == 1 and back[0].pmn() == text
        ogn = g.write("ogn")
        assert "[Variant" in ogn or "[FEN" in ogn or "1." in ogn
        assert [(m.side, m.hole) for m in pmn.read_game(ogn).moves] == \
            [(m.side, m.hole) for m in g.moves]
    with pytest.raises(pmn.UsageError):
        g.write("nonesuch")


def test_replay_in_python_is_libpmns():
    for g in pmn.read_games(TOURNAMENT):
        p = g.start
        for node in g.moves:
            if not node.replayed:
                break
            p.play(node.move)
            assert p == node.position
        assert str(p) == str(g.end)


def test_threads_read_files_at_once():
    want = {f: [g.pmn() for g in pmn.read_games(f)] for f in (TOURNAMENT, OWARE)}
    got = {}

    def read(f):
        for _ in range(3):
            got[f] = [g.pmn() for g in pmn.read_games(f)]
    threads = [threading.Thread(target=read, args=(f,)) for f in want]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want


def test_bad_input_never_crashes():
    """The reproducers and fuzz artifacts under ../shared, and every input
    of the command line's cases: read whole, each game written again."""
    files = glob.glob(os.path.join(TOP, "..", "shared", "reproducers", "**", "*"),
                      recursive=True)
    files += glob.glob(os.path.join(TOP, "tests", "cli", "*", "stdin"))
    files += glob.glob(os.path.join(TOP, "samples", "*", "*"))
    files = [f for f in files if os.path.isfile(f)]
    assert len(files) > 50
    for f in files:
        for fmt in (None, "pmn", "xml", "ogn", "awari"):
            try:
                for g in pmn.read_games(f, format=fmt):
                    g.pmn()
                    [n.position for n in g.moves]
            except pmn.PmnError as e:
                assert isinstance(e, (pmn.PmnIOError, pmn.PmnMemoryError)), (f, fmt, e)


def test_memory_stays_bounded():
    """Games read and dropped give their memory back (the million-game
    measure is in bindings/python/README)."""
    text = open(TOURNAMENT, encoding="utf-8").read() * 20

    def rss():
        gc.collect()
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for g in pmn.parse_games(text):
        g.pmn()
    before = rss()
    for _ in range(3 if LIGHT else 15):
        for g in pmn.parse_games(text):
            g.pmn(), [n.position for n in g.moves], g.errors
    assert rss() - before < 8 * 1024   # KiB


# ---- analysis ------------------------------------------------------------------

def test_perft_is_pmn_perfts():
    for rules, depth in (("oware", 5), ("kalah", 4), ("hawalis", 3)):
        rc, out, _ = run("perft", "--rules", rules, str(depth))
        assert rc == 0
        want = int(out.split(":")[1])
        assert pmn.perft(pmn.Position(rules), depth) == want
        assert pmn.perft(pmn.Position(rules), depth, jobs=2) == want


def test_analyse_solves_as_pmn_does():
    text = "0,0,1,0,0,1/0,0,0,0,0,1 S 10:10"
    a = pmn.analyse(pmn.Position("kalah", text), solve=True)
    assert a.exact and a.margin == 1 and a.best == "f"
    rc, out, _ = run("analyse", "--rules", "kalah", "--position", text, "--solve")
    assert "Best: f" in out and "wins by 1 seed (exact)" in out
    assert a.value == "South wins by 1 seed (exact)" or "wins by 1" in a.value
    assert a.pv[0] == "f"
    b = pmn.Analyser("oware").analyse(pmn.Position("oware"), nodes=20000, all_moves=True)
    assert not b.exact and b.best in "abcdef" and len(b.moves) == 6
    with pytest.raises(pmn.UsageError):
        pmn.analyse(pmn.Position("oware"))


def test_solve_of_an_oware_ending():
    """Under Oware's own seeds a solve without databases makes the small
    layers it needs, as pmn analyse --solve does (it took hours without)."""
    for rules, value in (("oware,majority=no", "South loses by 5 seeds (endgame database)"),
                         ("oware", "South loses (endgame database)")):
        p = pmn.Position(rules, "0,0,1,1,1,0/1,0,0,0,1,0 S")
        a = pmn.analyse(p, solve=True)
        rc, out, _ = run("analyse", "--rules", rules, "--position", str(p), "--solve")
        assert a.exact and a.value == value and ("Value: %s (exact)" % value) in out
    assert a.eval.startswith("lost")
    tb = pmn.Tablebase.make("oware,majority=no", 5)
    assert tb.seeds == 5 and tb.probe(p) == -5
    with pytest.raises(pmn.UsageError):
        pmn.Tablebase.make("hawalis", 3)


def test_tablebase_probe(tmp_path):
    rc, _, _ = run("tablebase", "build", "-q", "--rules", "kalah", "--seeds", "3",
                   "--dir", str(tmp_path))
    assert rc == 0
    tb = pmn.Tablebase("kalah", tmp_path)
    assert tb.seeds == 3
    p = pmn.Position("kalah", "0,0,1,0,0,1/0,0,0,0,0,1 S 10:10")
    assert tb.probe(p) == 1
    assert tb.probe(pmn.Position("kalah")) is None
    a = pmn.Analyser("kalah", tablebase=tb).analyse(p, solve=True)
    assert a.exact and a.margin == 1
    with pytest.raises(pmn.UsageError):
        pmn.Tablebase("oware", tmp_path)


# ---- a state to play ----------------------------------------------------------

def test_state_plays_to_the_end():
    import random
    rng = random.Random(7)
    for rules in ("oware", "kalah", "awale"):
        s = pmn.State(rules)
        assert s.current_player() == 0 and len(s.observation_tensor()) == 14
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            t = s.clone()
            s.apply_action(a)
            assert str(t) != str(s)
        assert s.current_player() == pmn.State.TERMINAL and s.legal_actions() == []
        assert sum(s.returns()) == 0


# ---- properties ------------------------------------------------------------------

@settings(max_examples=30 if LIGHT else 150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["oware", "awale", "kalah", "hawalis", "anywoli"]),
       st.lists(st.integers(min_value=0, max_value=31), max_size=60))
def test_seeds_are_conserved(rules, choices):
    p = pmn.Position(rules)
    total = p.seeds() + sum(p.captured)
    for c in choices:
        moves = p.legal_moves()
        if not moves:
            break
        p.play(moves[c % len(moves)])
        assert p.seeds() + sum(p.captured) == total


@settings(max_examples=20 if LIGHT else 80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["oware", "kalah", "hawalis"]),
       st.lists(st.integers(min_value=0, max_value=31), min_size=1, max_size=40))
@example("kalah", [0] * 10)   # (South's holes empty at the tenth sowing: the game over)
def test_a_game_written_and_read_back_is_the_same(rules, choices):
    p = pmn.Position(rules)
    moves = []
    for c in choices:
        legal = p.legal_moves()
        if not legal:
            break
        moves.append(legal[c % len(legal)])
        p.play(moves[-1])
    # (A game played to its end gets its result, or pmn says the record's
    # "*" is wrong: W210, exit status 1.)
    text = '[Game "%s"]\n\n%s %s\n' % (rules.capitalize(), " ".join(
        "%s%s" % ("%d. " % (i // 2 + 1) if i % 2 == 0 else "", m) for i, m in enumerate(moves)),
        p.result())
    g = pmn.read_game(text)
    if rules == "kalah":   # (a Kalah turn of several sowings joins them)
        assert str(g.end) == str(p)
    else:
        assert [n.move for n in g.moves] == moves and str(g.end) == str(p)
        assert g.valid
    assert pmn.read_game(g.pmn()).pmn() == g.pmn()
    # The replay in Python is pmn replay's: the board after the last ply.
    rc, out, _ = run("replay", "-k", str(g.plies), "-", stdin=g.pmn().encode())
    assert rc == 0 and g.end.board() in out


# ---- the documents ----------------------------------------------------------------

def test_example_scores(tmp_path):
    """examples/scores.py on the tournament: its expected output, and the
    same scores as pmn stats."""
    svg = tmp_path / "board.svg"
    p = subprocess.run([os.sys.executable, os.path.join(TOP, "examples", "scores.py"),
                        TOURNAMENT, str(svg)], capture_output=True, cwd=TOP)
    assert p.returncode == 0, p.stderr
    want = open(os.path.join(TOP, "examples", "scores.out"), encoding="utf-8").read()
    assert p.stdout.decode() == want
    assert "<svg" in svg.read_text(encoding="utf-8")
    rc, stats, _ = run("stats", TOURNAMENT)
    for row in want.splitlines()[1:6]:
        name, points = row[:24].strip(), row.split()[-2]
        assert any(name in s and (" %s " % points) in s for s in stats.splitlines()), row


def run_doc_example(path, after=""):
    """The first indented block that opens with `import pmn` in path (past
    the heading `after`), run as written from the top of the tree: its
    code, what it printed, and the document's text from the heading on."""
    text = open(os.path.join(TOP, path), encoding="utf-8").read()
    text = text[text.index(after):]
    start = text.index("\n    import pmn\n")
    block = []
    for line in text[start + 1:].splitlines():
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    code = "\n".join(block).strip()
    out = io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(TOP)
        import contextlib
        with contextlib.redirect_stdout(out):
            exec(compile(code, path, "exec"), {})
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), text


def test_readme_example():
    """The README's Python example, ten lines or so, runs as written."""
    code, out, _ = run_doc_example("README")
    assert 5 <= len(code.splitlines()) <= 12
    assert "Khamis Said" in out


def test_guide_example():
    """doc/guide.txt's Python example prints what it says it prints."""
    _, out, text = run_doc_example(os.path.join("doc", "guide.txt"), "Using pmn from Python")
    want = text[text.index("which prints `") + len("which prints `"):]
    assert out.strip() == want[:want.index("`")]


def test_a_large_input_read_in_parts_says_what_pmn_check_says(tmp_path):
    """An input of several parts (the reading threads cut it at 256 KiB):
    every diagnostic at the line and column pmn check gives, the games in
    order, from a path and from a file object that cannot seek."""
    text = open(TOURNAMENT, encoding="utf-8").read()
    games = text.split("\n\n[Event")
    rng = __import__("random").Random(5)
    out = []
    for i in range(2800):
        g = games[i % len(games)]
        if i % 97 == 13:   # a capture claimed wrong: E205 on its line
            g = g.replace("(+4)", "(+5)", 1)
        if i % 131 == 7:   # prose between games: a note
            g = g + "\n\nsome words between the games\n"
        out.append(g if i % len(games) == 0 else "[Event" + g)
    big = tmp_path / "big.pmn"
    big.write_text("\n\n".join(out) + "\n", encoding="utf-8")
    assert big.stat().st_size > 3 * 262144
    rc, summary, err = run("check", str(big))
    cli = [tuple(line.split(": ")[0].split(":")[1:3]) + (line.split("[")[1][:4],)
           for line in err.splitlines() if "[" in line]
    for source in (str(big), open(big, "rb"), io.BufferedReader(io.BytesIO(big.read_bytes()))):
        read = list(pmn.read_games(source))
        py = [(str(d.line), str(d.column), d.name) for g in read for d in g.errors]
        assert sorted(py) == sorted(cli)
        assert [g.tags["Round"] for g in read][:len(games)] == \
            [g.tags["Round"] for g in pmn.read_games(TOURNAMENT)]
        assert len(read) == 2800
    assert str(pmn.check(str(big))) == summary.strip()
    assert any(name == "E205" for _, _, name in cli)


def test_a_reader_dropped_early_stops_its_threads():
    """Games taken from a large input, then the reader dropped: its threads
    stop and its memory is given back (the process's size stays)."""
    text = (open(TOURNAMENT, encoding="utf-8").read() + "\n") * 200

    def rss():
        gc.collect()
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    before = None
    for k in range(4 if LIGHT else 12):
        reader = pmn.parse_games(text)
        for i, g in zip(range(5 + k), reader):
            pass
        reader.close()
        with pmn.read_games(io.BytesIO(text.encode())) as r2:
            next(iter(r2))
        if k == 1:
            before = rss()
    assert threading.active_count() == 1
    assert rss() - before < 8 * 1024


def test_reading_ahead_holds_little(tmp_path):
    """Small games read whole (each with a warning) fill the parts read
    ahead with records, not their text: the process stays small (it took
    400 MB for 200,000 such games when a part kept each game's replay)."""
    f = tmp_path / "small.pmn"
    f.write_text('[Game "Oware"]\n\n1. c C 2. d *\n\n' * (30000 if LIGHT else 100000))
    code = ("import pmn, resource, sys\n"
            "n = sum(len(g.errors) for g in pmn.read_games(sys.argv[1]))\n"
            "print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")
    p = subprocess.run([os.sys.executable, "-c", code, str(f)], capture_output=True)
    assert p.returncode == 0, p.stderr
    warnings, kib = map(int, p.stdout.split())
    assert warnings == (30000 if LIGHT else 100000)
    assert kib < 100 * 1024
