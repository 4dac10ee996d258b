"""pmn - the Portable Mancala Notation toolkit, from Python.

Records of mancala games (Hawalis, Kalah, Oware, Awale, Anywoli and rule
sets of your own) read, replayed, checked, written and analysed by libpmn,
the library under the pmn command:

    import pmn
    for game in pmn.read_games("samples/tournament/zanzibar-2026.pmn"):
        print(game.tags["South"], game.tags["North"], game.result, len(game.errors))
    board = pmn.Position("oware")
    board.play("c")
    print(board.legal_moves(), board)

Habits of python-chess: games are read one at a time from a path, a file
object (text or binary) or a string, and a bad record never raises: what
is wrong with it is in game.errors, numbered as pmn(1) numbers it.  What
raises is a wrong call: a rule set pmn does not know, a malformed position,
an illegal move (UsageError), a file that cannot be opened (PmnIOError),
memory that runs out (PmnMemoryError); each carries the code and the place.

Ownership: a Game keeps its record and replay (C memory) alive as long as
the Game or any Node or Position taken from it lives; nothing needs to be
freed by hand.  Threads may read different files at once (libpmn keeps no
shared state past its one-time set-up).
"""
import io
import os
from collections.abc import Mapping

_new = object.__new__

from ._capi import ffi, lib

__all__ = [
    "PmnError", "UsageError", "IllegalMoveError", "InputError", "PmnIOError",
    "PmnMemoryError", "Diagnostic", "Rules", "Position", "MoveReport", "Game", "Node",
    "read_games", "parse_games", "read_game", "GameReader", "check", "CheckSummary", "perft", "Analysis", "Analyser", "analyse",
    "Tablebase", "State", "rule_set_names",
]

def _check_version(built, loaded):
    """ImportError unless the libpmn loaded is the one the package was built
    for: its structs' layouts and its functions are those of that version."""
    if built != loaded:
        raise ImportError("pmn: this package was built for libpmn %s, but the libpmn loaded "
                          "is %s: install the package again against it (pip install "
                          "bindings/python, after make install)" % (built, loaded))


__version__ = ffi.string(lib.pmnpy_built()).decode()
_library_version = ffi.string(lib.pmn_version()).decode()
_check_version(__version__, _library_version)


# ---- errors -----------------------------------------------------------------

class PmnError(Exception):
    """A pmn error: code (pmn's number, or one of the PMN_ERR_* codes of the
    library), and where it is known the column (of a spec or position text)
    or the line and column of a file."""

    def __init__(self, message, code=None, line=None, column=None):
        super().__init__(message)
        self.message, self.code, self.line, self.column = message, code, line, column


class UsageError(PmnError, ValueError):
    """A call pmn cannot do: an unknown rule set or option, a malformed
    position string, a move that names no hole."""


class IllegalMoveError(UsageError):
    """A move the rules do not allow in the position (code: pmn's
    diagnostic of that kind, E201-E216)."""


class InputError(PmnError, ValueError):
    """Input that cannot be used at all: a rule file that is not one
    (diagnostics: every problem found, with its line)."""

    def __init__(self, message, diagnostics=(), **kw):
        super().__init__(message, **kw)
        self.diagnostics = list(diagnostics)


class PmnIOError(PmnError, OSError):
    """A file that cannot be opened, read or written."""


class PmnMemoryError(PmnError, MemoryError):
    """libpmn ran out of memory."""


def _raise_error(err, what):
    code = err.code
    message = ffi.string(err.message).decode("utf-8", "replace")
    column = err.column or None
    text = "%s: %s" % (what, message) if what else message
    if code == lib.PMN_ERR_NOMEM:
        raise PmnMemoryError(text, code=code, column=column)
    raise UsageError(text, code=code, column=column)


def _text(p):
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else None


def _buffer_call(fn, *args, size=256):
    """fn(*args, buf, size) as snprintf: the text, the buffer grown to fit."""
    while True:
        buf = ffi.new("char[]", size)
        n = fn(*args, buf, size)
        if n < size:
            return ffi.string(buf).decode("utf-8", "replace")
        size = n + 1


# ---- diagnostics --------------------------------------------------------------

_SEVERITIES = {lib.PMN_NOTE: "note", lib.PMN_WARNING: "warning", lib.PMN_ERROR: "error",
               lib.PMN_FATAL: "fatal"}


class Diagnostic:
    """One numbered diagnostic: code (201), name ("E201"), severity ("note",
    "warning", "error", "fatal"), line and column (1-based; 0: none) and the
    message, as pmn(1) prints them."""

    __slots__ = ("code", "name", "severity", "line", "column", "message")

    def __init__(self, code, name, severity, line, column, message):
        self.code, self.name, self.severity = code, name, severity
        self.line, self.column, self.message = line, column, message

    @classmethod
    def _of(cls, d):
        name = ffi.new("char[8]")
        lib.pmn_diag_code_name(d.code, name)
        return cls(d.code, ffi.string(name).decode(), _SEVERITIES.get(d.severity, "error"),
                   d.line, d.col, ffi.string(d.message).decode("utf-8", "replace"))

    def __str__(self):
        place = "%d:%d: " % (self.line, self.column) if self.line else ""
        return "%s%s[%s]: %s" % (place, self.severity, self.name, self.message)

    def __repr__(self):
        return "<Diagnostic %s at %d:%d %r>" % (self.name, self.line, self.column, self.message)

    def __eq__(self, other):
        return isinstance(other, Diagnostic) and all(
            getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None


@ffi.def_extern()
def pmnpy_diag(ctx, d):
    ffi.from_handle(ctx).append(Diagnostic._of(d))


# ---- rules --------------------------------------------------------------------

def rule_set_names():
    """The built-in rule sets' names: ['hawalis', 'kalah', ...]."""
    return [n.strip() for n in _buffer_call(lib.pmn_rules_builtin_names).split(",") if n.strip()]


class Rules:
    """A rule set: a name and options as pmn takes them ("oware",
    "kalah(6,4),capture=opposite-always", "hawalis,endless=lose"), or a rule
    file (Rules.from_file)."""

    def __init__(self, spec="hawalis"):
        if isinstance(spec, Rules):
            self._r = ffi.new("pmn_rules *", spec._r[0])
            return
        self._r = ffi.new("pmn_rules *")
        err = ffi.new("pmn_error *")
        if lib.pmn_rules_init(self._r, spec.encode(), err) != 0:
            _raise_error(err, "rules %r" % spec)
        if lib.pmn_rules_check(self._r, err) != 0:
            _raise_error(err, "rules %r" % spec)

    @classmethod
    def from_file(cls, path):
        """The rules of a rule file (grammar/rules.rng); InputError with its
        diagnostics where it is not one."""
        with open(path, "rb") as f:
            data = f.read()
        diags = []
        handle = ffi.new_handle(diags)
        rf = lib.pmn_rule_file_parse(data, len(data), os.fsencode(path), lib.pmnpy_diag, handle)
        if rf == ffi.NULL:
            raise InputError("%s: not a rule file pmn can play%s" % (
                path, ": " + str(diags[0]) if diags else ""), diagnostics=diags,
                code=diags[0].code if diags else None)
        self = cls.__new__(cls)
        self._r = ffi.new("pmn_rules *", lib.pmn_rule_file_rules(rf)[0])
        lib.pmn_rule_file_free(rf)
        return self

    @classmethod
    def _of(cls, r):
        self = cls.__new__(cls)
        self._r = ffi.new("pmn_rules *", r[0])
        return self

    @property
    def name(self):
        """The rule set's name: "hawalis", "oware", ..."""
        return ffi.string(self._r.name).decode()

    @property
    def holes(self):
        """Holes each side owns."""
        return self._r.pits

    @property
    def spec(self):
        """Every option spelled out: a spec that makes the same rules."""
        return _buffer_call(lib.pmn_rules_format, self._r)

    def describe(self):
        """The rules in words, a line each for board, sowing, capture, turn, end."""
        return _buffer_call(lib.pmn_rules_describe, self._r, size=1024)

    def __eq__(self, other):
        return isinstance(other, Rules) and self.spec == other.spec

    def __hash__(self):
        return hash(self.spec)

    def __repr__(self):
        return "Rules(%r)" % self.spec


def _rules(rules):
    return rules if isinstance(rules, Rules) else Rules(rules)


# ---- positions ----------------------------------------------------------------

_SIDES = "SN"
_OUTCOMES = {lib.PMN_SOUTH_WINS: "1-0", lib.PMN_NORTH_WINS: "0-1", lib.PMN_DRAWN: "1/2-1/2"}


class MoveReport:
    """What a move did: side and hole (the hole's name in `move`), seeds
    captured, given (to the opponent, fours) and stored, the laps sown,
    another sowing earned (extra), the ending it made ("" if none) and the
    result ("1-0", "0-1", "1/2-1/2", or None)."""

    __slots__ = ("move", "side", "hole", "captured", "given", "stored", "laps", "extra",
                 "ending", "result")

    def __init__(self, rules, rep):
        self.side, self.hole = _SIDES[rep.side], rep.hole
        self.move = _hole_name(rules, rep.side, rep.hole)
        self.captured, self.given, self.stored = rep.captured, rep.given, rep.stored
        self.laps, self.extra = rep.laps, bool(rep.extra)
        self.ending = ffi.string(lib.pmn_ending_string(rep.ending)).decode() \
            if rep.ending != lib.PMN_END_NONE else ""
        self.result = _OUTCOMES.get(rep.outcome)

    def __repr__(self):
        return "<MoveReport %s captured=%d%s>" % (
            self.move, self.captured, " " + self.ending if self.ending else "")


def _hole_name(rules, side, hole, notation=lib.PMN_NOTATION_LETTERS):
    buf = ffi.new("char[16]")
    lib.pmn_hole_name(rules, notation, side, hole, buf, 16)
    return ffi.string(buf).decode()


class Position:
    """A position with its history since the last capture (a repetition is
    seen as the rules see it): the holes, the seeds captured, the side to
    move; legal_moves(), play(), copy(), is_over(), result().  Made from a
    rule set (the opening) and optionally a position string as pmn writes
    it ("0,5,5,5,5,4/4,4,4,4,4,4 N 1:0")."""

    def __init__(self, rules="hawalis", text=None):
        self.rules = _rules(rules)
        start = ffi.new("pmn_position *")
        if text is None:
            lib.pmn_position_start(self.rules._r, start)
        else:
            err = ffi.new("pmn_error *")
            if lib.pmn_position_parse(self.rules._r, text.encode(), start, err) != 0:
                _raise_error(err, "position %r" % text)
        self._set(start)

    def _set(self, start):
        g = lib.pmn_game_new(self.rules._r, start)
        if g == ffi.NULL:
            raise PmnMemoryError("out of memory", code=lib.PMN_ERR_NOMEM)
        self._g = ffi.gc(g, lib.pmn_game_free)

    @classmethod
    def _of(cls, rules, p):
        self = cls.__new__(cls)
        self.rules = rules
        self._set(p)
        return self

    @property
    def _p(self):
        return lib.pmn_game_position(self._g)

    @property
    def holes(self):
        """((South's holes...), (North's holes...)), each in its sowing order."""
        p, k = self._p, self.rules.holes
        return tuple(tuple(p.pit[s][0:k]) for s in (0, 1))

    @property
    def captured(self):
        """(South's, North's): seeds captured (or stored) so far."""
        return (self._p.captured[0], self._p.captured[1])

    @property
    def turn(self):
        """The side to move: "S" or "N"."""
        return _SIDES[self._p.to_move]

    def seeds(self, side=None):
        """Seeds on the board: on one side ("S", "N"), or both."""
        if side is None:
            return sum(map(sum, self.holes))
        return lib.pmn_position_seeds(self.rules._r, self._p, _SIDES.index(side))

    def hole(self, move):
        """The side to move's hole index that move names: a name ("c", "C",
        "e1" in coordinates) or an index of the side to move."""
        if isinstance(move, int):
            if not 0 <= move < self.rules.holes:
                raise UsageError("no hole %d: %s has %d" % (move, self.rules.name,
                                                           self.rules.holes))
            return move
        side, hole = ffi.new("int *"), ffi.new("int *")
        if len(move) == 1 and lib.pmn_hole_from_letter(self.rules._r, move.encode()[0:1],
                                                       side, hole) == 0:
            if side[0] != self._p.to_move:
                raise IllegalMoveError("%s is a hole of %s, not of the side to move" % (
                    move, "South" if side[0] == 0 else "North"), code=204)
            return hole[0]
        for h in range(self.rules.holes):
            for n in (lib.PMN_NOTATION_NUMBERS, lib.PMN_NOTATION_COORDINATES):
                if _hole_name(self.rules._r, self._p.to_move, h, n) == move:
                    return h
        raise UsageError("%r names no hole of the side to move" % (move,))

    def legal_moves(self):
        """The legal moves, by name, in sowing order ([] once the game is over)."""
        if self.is_over():
            return []
        moves = ffi.new("int[32]")
        n = lib.pmn_legal_moves(self.rules._r, self._p, moves)
        return [_hole_name(self.rules._r, self._p.to_move, moves[i]) for i in range(n)]

    def play(self, move):
        """Play a move (a hole's name or index); its MoveReport.
        IllegalMoveError where the rules refuse it, the position unchanged."""
        hole = self.hole(move)
        if self.is_over():
            raise IllegalMoveError("the game is over (%s)" % self.result(), code=207)
        rep = ffi.new("pmn_move_report *")
        rc = lib.pmn_game_play(self._g, hole, rep)
        if rc == lib.PMN_ERR_NOMEM:
            raise PmnMemoryError("out of memory", code=rc)
        if rc > 0:
            why = ffi.string(lib.pmn_legality_string(rc)).decode()
            raise IllegalMoveError("illegal move %s: %s" % (move, why),
                                   code={1: 204, 2: 201, 3: 202, 4: 203, 5: 214, 6: 216}.get(rc))
        if rc < 0:
            raise IllegalMoveError("the game is over", code=207)
        return MoveReport(self.rules._r, rep)

    def copy(self):
        """A copy with the same history, to play on apart."""
        other = Position.__new__(Position)
        other.rules = self.rules
        g = lib.pmn_game_clone(self._g)
        if g == ffi.NULL:
            raise PmnMemoryError("out of memory", code=lib.PMN_ERR_NOMEM)
        other._g = ffi.gc(g, lib.pmn_game_free)
        return other

    def _ending(self):
        e = lib.pmn_game_ending(self._g)
        if e != lib.PMN_END_NONE:
            return e, lib.pmn_game_outcome(self._g)
        o = ffi.new("pmn_outcome *")
        e = lib.pmn_position_ending(self.rules._r, self._p, o)
        return e, o[0]

    def is_over(self):
        """Has the game ended (no move, a majority, a repetition, ...)?"""
        return self._ending()[0] != lib.PMN_END_NONE

    def result(self):
        """"1-0", "0-1" or "1/2-1/2" once the game is over; else "*"."""
        e, o = self._ending()
        return _OUTCOMES.get(o, "*") if e != lib.PMN_END_NONE else "*"

    def ending(self):
        """How the game ended, in words ("North has no seeds left; seeds
        25-23"), or "" while it goes on."""
        e, _ = self._ending()
        if e == lib.PMN_END_NONE:
            return ""
        buf = ffi.new("char[256]")
        lib.pmn_ending_explain(self.rules._r, e, self._p, buf, 256)
        return ffi.string(buf).decode()

    def key(self):
        """A 64-bit key of the holes and the side to move (pmn index's)."""
        return lib.pmn_position_key(self.rules._r, self._p, self._p.to_move)

    def board(self):
        """The board as text, as pmn replay draws it."""
        return _buffer_call(lib.pmn_board_format, self.rules._r, self._p, size=1024)

    def svg(self, title=None):
        """The board as an SVG document (pmn's picture: seeds as dots, names,
        the side to move)."""
        o = ffi.new("pmn_svg_options *")
        lib.pmn_svg_options_init(o)
        keep = None
        if title is not None:
            keep = ffi.new("char[]", title.encode())
            o.title = keep
        return _buffer_call(lib.pmn_board_svg, self.rules._r, self._p, o, size=16384)

    def _repr_svg_(self):
        return self.svg()

    def __str__(self):
        return _buffer_call(lib.pmn_position_format, self.rules._r, self._p)

    def __repr__(self):
        return "Position(%r, %r)" % (self.rules.name, str(self))

    def __eq__(self, other):
        return (isinstance(other, Position) and self.rules == other.rules
                and lib.pmn_position_equal(self.rules._r, self._p, other._p) == 1
                and self._p.to_move == other._p.to_move)

    def __hash__(self):
        return hash((self.key(), self.captured))


# ---- games --------------------------------------------------------------------

class Node:
    """A move of a game as written and as replayed: move (as written), side
    ("S", "N"), hole (index, or None where it names none), judgement ("!",
    "?!", ...), nags, comments, variations (lists of Nodes, each an
    alternative to this move), and where the replay played it: captured,
    claim (what the record says it captured; None: not said), number,
    position (a Position after it; None where the replay stopped before)."""

    __slots__ = ("game", "_m", "_pl", "_line")

    def __init__(self, game, m, pl):
        self.game, self._m, self._pl = game, m, pl

    @property
    def move(self):
        return ffi.string(self._m.text).decode("utf-8", "replace")

    @property
    def side(self):
        return _SIDES[self._m.side] if self._m.side in (0, 1) else None

    @property
    def hole(self):
        return self._m.hole if self._m.hole >= 0 else None

    @property
    def joined(self):
        """Another sowing of the turn before, written after '-'."""
        return bool(self._m.joined)

    @property
    def judgement(self):
        return ffi.string(self._m.judgement).decode()

    @property
    def nags(self):
        return [self._m.nags[i] for i in range(self._m.nnags)]

    @property
    def comments(self):
        return [_text(self._m.comments[i]) for i in range(self._m.ncomments)]

    @property
    def claim(self):
        return self._m.claim if self._m.claim >= 0 else None

    @property
    def line(self):
        return self._m.line

    @property
    def replayed(self):
        return self._pl != ffi.NULL and bool(self._pl.replayed)

    @property
    def number(self):
        return self._pl.number if self._pl != ffi.NULL else None

    @property
    def captured(self):
        return self._pl.report.captured if self.replayed else None

    @property
    def position(self):
        if not self.replayed:
            return None
        return Position._of(self.game.rules, ffi.addressof(self._pl, "after"))

    @property
    def variations(self):
        out = []
        for v in range(self._m.nvariations):
            played = self._pl.variations[v] if (self._pl != ffi.NULL and
                                                v < self._pl.nvariations) else None
            out.append(_nodes(self.game, self._m.variations[v], played))
        return out

    def __repr__(self):
        return "<Node %s%s%s>" % (self.move, self.judgement,
                                  " (+%d)" % self.captured if self.captured else "")


def _nodes(game, line, played):
    n = line.nmoves
    pls = played.moves if played is not None and played != ffi.NULL else ffi.NULL
    np = played.nmoves if pls != ffi.NULL else 0
    return [Node(game, ffi.addressof(line.moves[i]),
                 ffi.addressof(pls[i]) if i < np else ffi.NULL) for i in range(n)]


_FORMATS = {}


def _format(name):
    if name not in _FORMATS:
        f = ffi.new("pmn_format *")
        if lib.pmn_format_from_name(name.encode(), f) != 0:
            raise UsageError("no format %r (ogn, playstrategy, mancala-world, awari)" % name)
        _FORMATS[name] = f[0]
    return _FORMATS[name]


def _memory_write(fn):
    """fn(FILE *) into a string."""
    buf, size = ffi.new("char **"), ffi.new("size_t *")
    f = lib.pmnpy_memory(buf, size)
    if f == ffi.NULL:
        raise PmnMemoryError("out of memory", code=lib.PMN_ERR_NOMEM)
    try:
        rc = fn(f)
    finally:
        lib.pmnpy_close(f)
        text = ffi.unpack(buf[0], size[0]).decode("utf-8", "replace") if buf[0] else ""
        lib.pmnpy_free(buf[0])
    if rc != 0:
        raise PmnIOError("the game could not be written", code=rc)
    return text


class Tags(Mapping):
    """A game's tags: a read-only mapping of name to value, in the order
    read; where a name is given twice, its first value (as pmn reads it).
    dict(game.tags) is a copy to change.  A name looked up is found in the
    tags' text as the reader kept it, with no dict made: reading an archive
    for a tag or two costs little more than reading it."""

    __slots__ = ("_b", "_end", "_d")

    def __init__(self, blob, end, parsed=None):
        # blob[:end]: "\x01name\x02value" a tag (the C part's; no name or
        # value of them holds \x01 or \x02, or it gives a record's tags).
        self._b, self._end, self._d = blob, end, parsed

    _keys = {}   # name: its bytes as found, "\x01name\x02" (the names asked)

    def _find(self, name):   # (name a str: the callers see to it)
        b = self._b
        if b is None:
            return self._d.get(name)
        key = Tags._keys.get(name)
        if key is None:
            key = b"\x01" + name.encode("utf-8", "surrogatepass") + b"\x02"
            if len(Tags._keys) < 1000:
                Tags._keys[name] = key
        i = b.find(key, 0, self._end)
        if i < 0:
            return None
        i += len(key)
        j = b.find(b"\x01", i, self._end)
        return b[i:j if j >= 0 else self._end].decode("utf-8", "replace")

    def get(self, name, default=None):
        v = self._find(name) if isinstance(name, str) else None
        return default if v is None else v

    def __getitem__(self, name):
        v = self._find(name) if isinstance(name, str) else None
        if v is None:
            raise KeyError(name)
        return v

    def __contains__(self, name):
        return isinstance(name, str) and self._find(name) is not None

    def _dict(self):
        if self._d is None:
            d = {}
            for tag in self._b[1:self._end].decode("utf-8", "replace").split("\x01"):
                name, _, value = tag.partition("\x02")
                d.setdefault(name, value)
            self._d = d if self._end else {}
        return self._d

    def __iter__(self):
        return iter(self._dict())

    def __len__(self):
        return len(self._dict())

    def __repr__(self):
        return "Tags(%r)" % (self._dict(),)


class Game:
    """A game record as read, set up and replayed: tags (a dict, in the
    order read), errors (its diagnostics, in file order: nothing raised),
    rules, start (a Position), moves (the main line, Nodes), result (the
    token closing its moves, or the Result tag), end (the Position after
    the last move replayed), and writing: pmn(), xml(), write(format).

    A game of the shape pmn check proves clean at once (Hawalis as the
    sample games write it) is kept as its text and parsed when its moves
    or its writing are first asked for: reading an archive for its tags
    and errors costs no parse of such games."""

    __slots__ = ("_game", "_blob", "_ntags", "_tags", "line", "errors", "_rec", "_replay",
                 "_setup", "_rules", "_nmoves", "__weakref__")

    def __init__(self):
        # (read_games makes them, with object.__new__ and its slots set:
        # a call to __init__ a game would cost as much as the rest)
        raise TypeError("a Game is read: read_games, parse_games or read_game")

    @property
    def move_count(self):
        """Its main line's moves, as pmn check counts them."""
        return self._nmoves

    def _parsed(self):
        """The record and its replay, the text parsed now where it was not
        (a game proved clean), the replay made now where the read checked
        the game without keeping one (its diagnostics known already)."""
        if self._game is None:
            diags = []
            text = self._blob[max(self._ntags, 0):]
            g = lib.pmnpy_game_read(text, len(text), self.line, lib.pmnpy_diag,
                                    ffi.new_handle(diags))
            if g == ffi.NULL:
                raise PmnMemoryError("out of memory reading a game again", code=2)
            self.errors.extend(diags)   # (none: the quick pass proved it clean)
            self._game = ffi.gc(g, lib.pmnpy_game_free)
        elif self._game.replay == ffi.NULL:
            again = []
            if lib.pmnpy_game_replay(self._game, lib.pmnpy_diag, ffi.new_handle(again)) != 0:
                raise PmnMemoryError("out of memory replaying a game", code=2)
        if self._rec is None:
            self._rec = ffi.addressof(self._game, "rec")
        if self._replay is None:
            self._replay = self._game.replay
            self._setup = lib.pmn_replay_setup(self._replay)
            self._rules = Rules._of(ffi.addressof(self._setup, "rules"))
        return self._rec

    @property
    def tags(self):
        """Its tags (a Tags mapping: name to value, in the order read)."""
        if self._tags is None:
            if self._blob is not None and self._ntags >= 0:
                t = self._tags = _new(Tags)   # (no __init__ call: a game's tags read fast)
                t._b, t._end, t._d = self._blob, self._ntags, None
            else:
                rec, tags = self._parsed(), {}
                for i in range(rec.ntags):
                    t = rec.tags[i]
                    tags.setdefault(_text(t.name), _text(t.value))
                self._tags = Tags(None, 0, tags)
        return self._tags

    @property
    def rules(self):
        self._parsed()
        return self._rules

    @property
    def result(self):
        if self._game is None:
            return self.tags.get("Result", "*")
        r = ffi.string(self._game.rec.result).decode()
        return r or self.tags.get("Result", "*")

    @property
    def valid(self):
        """No error or fatal diagnostic: every move legal, every claim exact."""
        return not any(d.severity in ("error", "fatal") for d in self.errors)

    @property
    def start(self):
        self._parsed()
        return Position._of(self._rules, ffi.addressof(self._setup, "start"))

    @property
    def moves(self):
        rec = self._parsed()
        return _nodes(self, rec.main, lib.pmn_replay_main(self._replay))

    def mainline(self):
        return iter(self.moves)

    @property
    def end(self):
        self._parsed()
        res = lib.pmn_replay_result(self._replay)
        return Position._of(self._rules, ffi.addressof(res, "end"))

    @property
    def plies(self):
        """Main-line plies replayed."""
        self._parsed()
        return lib.pmn_replay_result(self._replay).plies

    def pmn(self, notation="letters"):
        """The game as canonical PMN, its moves in notation ("letters",
        "numbers", "coordinates")."""
        rec = self._parsed()
        o = ffi.new("pmn_write_options *")
        lib.pmn_write_options_init(o)
        n = ffi.new("pmn_notation *")
        if lib.pmn_notation_from_name(notation.encode(), n) != 0:
            raise UsageError("no notation %r (letters, numbers, coordinates)" % notation)
        o.notation = n[0]
        return _memory_write(lambda f: lib.pmn_write_record(f, rec, self._replay, o))

    def xml(self):
        """The game as a pmn XML archive of one game (grammar/pmn.rng)."""
        rec, diags = self._parsed(), []

        def write(f):
            w = lib.pmn_xml_writer_new(f)
            if w == ffi.NULL:
                return -1
            rc = lib.pmn_xml_write_game(w, rec, self._replay, lib.pmnpy_diag,
                                        ffi.new_handle(diags))
            return lib.pmn_xml_writer_close(w) or rc
        return _memory_write(write)

    def write(self, format):
        """The game in another program's notation: "ogn", "playstrategy",
        "mancala-world", "awari" (what it cannot hold: warnings, W132)."""
        fmt = _format(format)
        rec, diags = self._parsed(), []
        return _memory_write(lambda f: lib.pmn_write_format(f, fmt, rec, self._replay,
                                                            lib.pmnpy_diag,
                                                            ffi.new_handle(diags)))

    def __str__(self):
        return self.pmn()

    def __repr__(self):
        return "<Game %s vs %s %s, %d diagnostics>" % (
            self.tags.get("South", "?"), self.tags.get("North", "?"), self.result,
            len(self.errors))


class _Stream:
    """A Python file object read by libpmn through pmnpy_read()."""

    def __init__(self, f):
        self.f, self.pending, self.error = f, b"", None


@ffi.def_extern()
def pmnpy_read(cookie, buf, size):
    s = ffi.from_handle(cookie)
    try:
        while len(s.pending) < size:
            data = s.f.read(size)
            if not data:
                break
            if isinstance(data, str):
                data = data.encode("utf-8", "surrogateescape")
            s.pending += data
        out, s.pending = s.pending[:size], s.pending[size:]
        ffi.memmove(buf, out, len(out))
        return len(out)
    except Exception as e:   # (reported by the generator, after the read)
        s.error = e
        return -1


_SOURCE_FORMATS = {"pmn": lib.PMN_SOURCE_PMN, "xml": lib.PMN_SOURCE_XML}


def _source_format(format):
    if format is None:
        return lib.PMN_SOURCE_AUTO
    if format in _SOURCE_FORMATS:
        return _SOURCE_FORMATS[format]
    return lib.PMN_SOURCE_FOREIGN + _format(format)


def read_games(source, format=None):
    """The games of a path (str or os.PathLike) or a file object (text or
    binary), one at a time: a generator of Games.  format: None (found as
    pmn finds it: the name, then the first bytes), "pmn", "xml", "ogn",
    "playstrategy", "mancala-world", "awari".  Problems with a game are in
    its errors; what concerns the input as a whole (the format found, its
    encoding) is in the first game's.  PmnIOError where the file cannot be
    opened or read."""
    keep = []
    name = None
    if isinstance(source, (str, bytes, os.PathLike)):
        name = os.fsencode(source)
        raw = lib.pmnpy_open(name)
        if raw == ffi.NULL:
            err = ffi.errno
            raise PmnIOError("%s: cannot open: %s" % (os.fsdecode(source), os.strerror(err)),
                             code=1)
        stream = None
    else:
        stream = _Stream(source)
        handle = ffi.new_handle(stream)
        keep.append(handle)
        raw = lib.pmnpy_reading(handle)
        if raw == ffi.NULL:
            raise PmnMemoryError("out of memory", code=lib.PMN_ERR_NOMEM)
        name = getattr(source, "name", None)
        name = os.fsencode(name) if isinstance(name, (str, bytes)) else None
    return GameReader(raw, stream, name, _source_format(format), keep)


class GameReader:
    """The games of one input, one at a time (read_games' iterator).
    diagnostics: what was said after the last game (text past it, an input
    with no game); the same are added to the last game's errors."""

    def __init__(self, raw, stream, name, format, keep):
        self.diagnostics = []
        self._it = _games(self, raw, stream, name, format, keep)

    def __iter__(self):
        return self._it   # (the generator itself: no frame of ours a game)

    def __next__(self):
        return next(self._it)

    def close(self):
        """Stop reading: the input is closed (at the end, or when the reader
        is dropped, this is done by itself)."""
        self._it.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _games(reader, raw, stream, name, format, keep):
    """The games of raw, read ahead by threads of the package's C part
    (pmn/_helpers.c: libpmn's checker runs while Python takes the games
    before), a batch of games (a part of the input) at a time, a game the
    quick pass proves clean kept as its text."""
    ahead = lib.pmnpy_ahead_new(raw, format, name if name else ffi.NULL)
    if ahead == ffi.NULL:
        raise PmnMemoryError("out of memory", code=lib.PMN_ERR_NOMEM)
    last, carried, trailing = None, [], []
    next_batch, unpack, new, take = lib.pmnpy_ahead_next, ffi.unpack, object.__new__, \
        lib.pmnpy_batch_take
    severities, Diag = _SEVERITIES, Diagnostic
    try:
        while True:
            b = next_batch(ahead)
            n = b.n
            heads, blob = unpack(b.heads, 6 * n), unpack(b.blob, b.blen) if b.blen else b""
            if b.nd:
                dnums = unpack(b.dnums, 4 * b.nd)
                dtext = unpack(b.dtext, b.dlen).decode("utf-8", "replace").split("\0")
            at = d = 0
            for k in range(0, 6 * n, 6):
                rc, moves, ntags, size, line, nd = heads[k:k + 6]
                if nd:
                    diags = []
                    for j in range(d, d + nd):
                        code, sev, dl, dc = dnums[4 * j:4 * j + 4]
                        diags.append(Diag(code, dtext[2 * j], severities.get(sev, "error"),
                                          dl, dc, dtext[2 * j + 1]))
                    d += nd
                else:
                    diags = []
                if carried and rc != 3:
                    diags[:0] = carried
                    carried = []
                if stream is not None and stream.error is not None:
                    raise PmnIOError("reading: %s" % stream.error) from stream.error
                if rc == 2:   # a game proved clean: its text kept (made here: a call a game counts)
                    last = new(Game)
                    size += ntags if ntags > 0 else 0
                    last._game, last._blob, last._ntags, last._tags = None, \
                        blob[at:at + size], ntags, None
                    last.line, last.errors, last._nmoves, last._replay, last._rec = \
                        line, diags, moves, None, None
                    at += size
                    trailing = []
                elif rc == 1:
                    g = ffi.gc(take(b, k // 6), lib.pmnpy_game_free)
                    last = new(Game)
                    last._game, last._blob, last._ntags, last._tags = \
                        g, blob[at:at + ntags] if ntags >= 0 else None, ntags, None
                    last.line, last.errors, last._nmoves, last._replay, last._rec = \
                        line, diags, moves, None, None
                    at += ntags if ntags > 0 else 0
                    trailing = []
                elif rc == 3:   # text after a game, outside any: the game's
                    if last is not None:
                        last.errors.extend(diags)
                        trailing.extend(diags)
                    else:
                        carried.extend(diags)
                    continue
                elif rc == 0:
                    reader.diagnostics.extend(trailing + diags)
                    if last is not None:
                        last.errors.extend(diags)
                    return
                else:
                    fatal = [x for x in diags if x.severity == "fatal"]
                    what = str(fatal[0]) if fatal else "a read error, or no memory"
                    if not fatal or fatal[0].code == 2:
                        raise PmnMemoryError(what, code=2)
                    raise PmnIOError(what, code=fatal[0].code)
                yield last
    finally:
        lib.pmnpy_ahead_free(ahead)
        del keep[:]


def parse_games(text, format=None):
    """The games of a string (or bytes), as read_games reads a file."""
    if isinstance(text, str):
        text = text.encode("utf-8")
    return read_games(io.BytesIO(text), format=format)


def _games_of(source, format):
    """read_games(source), or parse_games where source is a string of
    records (a str with a newline), not a path."""
    if isinstance(source, str) and "\n" in source:
        return parse_games(source, format)
    return read_games(source, format)


def read_game(source, format=None):
    """The first game of a path, file object or string, or None."""
    games = _games_of(source, format)
    for g in games:
        games.close()
        return g
    return None


class CheckSummary:
    """What pmn check says of an input: games, moves, and the diagnostics
    by severity (errors, warnings, notes, fatal), each with its game's
    index in problems: [(game index from 0, Diagnostic)].  status: pmn
    check's exit status (0 clean, 1 warnings, 2 errors, 3 fatal)."""

    def __init__(self):
        self.games = self.moves = 0
        self.counts = {"note": 0, "warning": 0, "error": 0, "fatal": 0}
        self.problems = []

    @property
    def errors(self):
        return self.counts["error"]

    @property
    def warnings(self):
        return self.counts["warning"]

    @property
    def notes(self):
        return self.counts["note"]

    @property
    def status(self):
        c = self.counts
        return 3 if c["fatal"] else 2 if c["error"] else 1 if c["warning"] else 0

    def __str__(self):
        def n(count, word):
            return "%d %s%s" % (count, word, "" if count == 1 else "s")
        return "%s, %s: %s, %s, %s" % (n(self.games, "game"), n(self.moves, "move"),
                                       n(self.errors, "error"), n(self.warnings, "warning"),
                                       n(self.notes, "note"))


def check(source, format=None):
    """Every game of source checked (read_games' sources and formats): a
    CheckSummary, its str() pmn check's summary line."""
    summary = CheckSummary()
    reader = _games_of(source, format)

    def count(i, g):
        summary.games += 1
        summary.moves += g.move_count
        for d in g.errors:
            summary.counts[d.severity] += 1
            summary.problems.append((i, d))
    # A game is counted once the next is read: what is said of the text
    # after it comes before the next game.
    before = None
    for i, g in enumerate(reader):
        if before:
            count(*before)
        before = (i, g)
    if before:
        count(*before)
    if summary.games == 0:
        for d in reader.diagnostics:
            summary.counts[d.severity] += 1
            summary.problems.append((-1, d))
    return summary


# ---- analysis -----------------------------------------------------------------

def perft(position, depth, jobs=1):
    """The number of move sequences of depth plies from position (repetitions
    not seen), counted in C: on jobs threads."""
    div, nd = ffi.new("uint64_t[32]"), ffi.new("int *")
    if jobs > 1:
        n = lib.pmn_perft_jobs(position.rules._r, position._p, depth, jobs, div, nd)
        if nd[0] >= 0:
            return n
    return lib.pmn_perft(position.rules._r, position._p, depth, ffi.NULL, ffi.NULL)


class Analysis:
    """A search's answer: value (in words, the side to move's view), eval
    (as annotations write it, South's view: "+3", "=+6 (won, 11 plies)"),
    exact, margin, best (a hole's name, or None), pv (the names of the best
    line's holes), depth, nodes, and moves (name: eval, with all_moves)."""

    def __init__(self, position, a):
        r, side = position.rules._r, position._p.to_move
        self.value = _buffer_call(lib.pmn_value_describe, ffi.addressof(a, "value"), side)
        self.eval = _buffer_call(lib.pmn_value_eval, ffi.addressof(a, "value"), side)
        self.exact = bool(a.value.exact)
        self.margin = a.value.margin if a.value.has_margin else None
        self.tablebase = bool(a.value.tablebase)
        self.best = _hole_name(r, side, a.best) if a.best >= 0 else None
        self.pv = []
        mover = position.copy()
        for i in range(a.npv):
            try:
                name = _hole_name(r, mover._p.to_move, a.pv[i])
                mover.play(a.pv[i])
            except PmnError:
                break
            self.pv.append(name)
        self.depth, self.nodes, self.stopped = a.depth, a.nodes, bool(a.stopped)
        self.moves = {_hole_name(r, side, a.moves[i].hole):
                      _buffer_call(lib.pmn_value_eval, ffi.addressof(a.moves[i], "value"), side)
                      for i in range(a.nmoves)}

    def __repr__(self):
        return "<Analysis %s best=%s pv=%s>" % (self.eval, self.best, " ".join(self.pv))


class Tablebase:
    """Endgame databases of a rule set in a directory (pmn tablebase build
    makes them): probe(position) gives the margin still to be made by the
    side to move, or (low, high) bounds, or None where they hold nothing."""

    def __init__(self, rules, directory):
        self.rules = _rules(rules)
        err = ffi.new("pmn_error *")
        tb = lib.pmn_tablebase_open(self.rules._r, os.fsencode(directory), err)
        if tb == ffi.NULL:
            _raise_error(err, os.fsdecode(directory))
        self._tb = ffi.gc(tb, lib.pmn_tablebase_close)

    @classmethod
    def make(cls, rules, seeds, threads=1):
        """Every layer of rules up to seeds built in memory (no file)."""
        self = cls.__new__(cls)
        self.rules = _rules(rules)
        err = ffi.new("pmn_error *")
        tb = lib.pmn_tablebase_make(self.rules._r, seeds, threads, err)
        if tb == ffi.NULL:
            _raise_error(err, "databases of %s to %d seeds" % (self.rules.name, seeds))
        self._tb = ffi.gc(tb, lib.pmn_tablebase_close)
        return self

    @property
    def seeds(self):
        return lib.pmn_tablebase_seeds(self._tb)

    def probe(self, position):
        lo, hi = ffi.new("int *"), ffi.new("int *")
        if not lib.pmn_tablebase_probe_bounds(self._tb, position._p, lo, hi):
            return None
        return lo[0] if lo[0] == hi[0] else (lo[0], hi[0])


class Analyser:
    """A searcher with its table (hash_mb megabytes), for several searches
    of one rule set; tablebase: a Tablebase to answer from."""

    def __init__(self, rules, hash_mb=16, tablebase=None):
        self.rules = _rules(rules)
        s = lib.pmn_searcher_new(self.rules._r, hash_mb)
        if s == ffi.NULL:
            raise PmnMemoryError("out of memory for the search's table", code=lib.PMN_ERR_NOMEM)
        self._s = ffi.gc(s, lib.pmn_searcher_free)
        self.tablebase = tablebase
        if tablebase is not None and lib.pmn_searcher_use_tablebase(self._s, tablebase._tb) != 0:
            raise UsageError("the databases are of other rules than %s" % self.rules.name)

    def analyse(self, position, nodes=None, depth=None, seconds=None, solve=False,
                all_moves=False, threads=1):
        """Search position within the limits (at least one: positions,
        plies, seconds, or solve: until the value is exact)."""
        if position.rules != self.rules:
            raise UsageError("a position of %s, an analyser of %s" % (position.rules.name,
                                                                     self.rules.name))
        if not (nodes or depth or seconds or solve):
            raise UsageError("analyse needs a limit: nodes, depth, seconds or solve")
        lim = ffi.new("pmn_search_limits *")
        lim.nodes, lim.depth, lim.seconds = nodes or 0, depth or 0, seconds or 0
        lim.solve, lim.all_moves, lim.threads = int(solve), int(all_moves), threads
        a = ffi.new("pmn_analysis *")
        small = ffi.NULL
        if solve and self.tablebase is None:
            # As pmn analyse --solve: the small layers libpmn makes for it
            # (Oware's own seeds), or none.
            small = lib.pmn_tablebase_make_for(self.rules._r, position._p, threads)
            if small != ffi.NULL and lib.pmn_searcher_use_tablebase(self._s, small) != 0:
                lib.pmn_tablebase_close(small)
                small = ffi.NULL
        try:
            rc = lib.pmn_analyse(self._s, position._p, ffi.NULL, 0, lim, ffi.NULL, ffi.NULL, a)
        finally:
            if small != ffi.NULL:
                lib.pmn_searcher_use_tablebase(self._s, ffi.NULL)
                lib.pmn_tablebase_close(small)
        if rc != 0:
            raise PmnMemoryError("out of memory in the search", code=lib.PMN_ERR_NOMEM)
        return Analysis(position, a)


def analyse(position, **limits):
    """One search of position (Analyser(position.rules).analyse)."""
    return Analyser(position.rules).analyse(position, **limits)


# ---- a state for programs that play (OpenSpiel's habits) ----------------------

class State:
    """A game state as OpenSpiel's users drive one: players 0 (South) and 1
    (North), integer actions (the side to move's hole index),
    legal_actions(), apply_action(), clone(), is_terminal(), returns()
    (+1/-1/0 each), current_player() (-4 once terminal, OpenSpiel's), and
    observation_tensor() (the holes of both sides, then the seeds
    captured, as floats)."""

    TERMINAL = -4

    def __init__(self, rules="oware", position=None):
        self.position = position.copy() if position is not None else Position(rules)

    def current_player(self):
        return State.TERMINAL if self.position.is_over() else "SN".index(self.position.turn)

    def legal_actions(self):
        if self.position.is_over():
            return []
        moves = ffi.new("int[32]")
        n = lib.pmn_legal_moves(self.position.rules._r, self.position._p, moves)
        return [moves[i] for i in range(n)]

    def apply_action(self, action):
        self.position.play(int(action))

    def clone(self):
        return State(position=self.position)

    def is_terminal(self):
        return self.position.is_over()

    def returns(self):
        r = self.position.result()
        return {"1-0": [1.0, -1.0], "0-1": [-1.0, 1.0]}.get(r, [0.0, 0.0])

    def observation_tensor(self, player=0):
        h = self.position.holes
        c = self.position.captured
        return [float(x) for x in h[0] + h[1] + c]

    def action_to_string(self, action):
        return _hole_name(self.position.rules._r, self.position._p.to_move, action)

    def __str__(self):
        return str(self.position)
