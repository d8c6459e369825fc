"""Import the Berkeley CS188 multi-agent game-tree tests (``GraphGameTreeTest`` files).

A CS188 test file is a list of ``key: "value"`` lines. A value may instead span several
lines: ``key: \"\"\"`` opens it and a line holding only ``\"\"\"`` closes it. Outside such blocks
a ``#`` starts a comment that runs to the end of the line; inside a block the text is kept
as written, because the ``diagram`` block is ASCII art.

The keys that describe the tree:

``num_agents``
    How many agents take turns. Agent 0 (Pacman) maximises; agents 1, 2, ... (the ghosts)
    minimise, or, in an ``ExpectimaxAgent`` test, move at random: each of their moves is
    equally likely. The agent to move at depth ``d`` is agent ``d % num_agents``.
``start_state``
    The root.
``win_states``, ``lose_states``
    Space-separated states where the game is over: leaves, whatever successors they have.
    A name no successor line uses is harmless to CS188; here it is a warning.
``successors``
    One ``state action next_state`` line per move, in the order the moves are offered.
``evaluation``
    One ``state value`` line per state a search may score: the leaves, and the internal
    states where a depth-limited search stops (kept here as heuristic values). Integers
    stay ints, other numbers become floats; NaN and infinities are refused.
``depth``
    The search depth the test asks for, in CS188's unit: one unit is one move by every agent,
    so depth ``d`` with ``n`` agents stops ``d * n`` plies below the start state.
``alg``
    The agent class the autograder builds: ``MinimaxAgent``, ``AlphaBetaAgent`` (which
    prunes only on v > beta / v < alpha) or ``ExpectimaxAgent`` (whose ghosts become CHANCE
    nodes).

Every key but the tree's (``class``, ``alg``, ``diagram``, ...) is kept as metadata.

A test's ``.solution`` file holds the autograder's answer: the ``action`` the agent takes at
the start state, and the states it ``generated`` (the start state and every successor it
asked for). :func:`check_solution` says whether the reference search reproduces both.

Compared with the CS188 autograder, this importer skips blank lines and ``#`` comments
inside the successors and evaluation blocks, and accepts a missing ``depth``; it reports
duplicate keys, duplicate moves, states reached twice and cycles, which the autograder
silently overwrites or follows.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

from reference.problems import FileProblems, Problem
from reference.search import SearchError, SearchOptions, SearchResult, search
from reference.tree import Edge, Kind, Node, Number, Tree, TreeError

GAME_TREE_CLASS = "GraphGameTreeTest"
"""The ``class`` of the CS188 tests that describe an explicit game tree."""

REQUIRED_KEYS = (
    "num_agents",
    "start_state",
    "win_states",
    "lose_states",
    "successors",
    "evaluation",
)
"""The keys every game-tree test must have (``depth`` is optional here)."""

AGENT_ALGORITHMS: Mapping[str, str] = MappingProxyType(
    {"MinimaxAgent": "minimax", "AlphaBetaAgent": "alphabeta", "ExpectimaxAgent": "expectimax"}
)
"""The reference algorithm of each CS188 agent class (a test's ``alg``)."""

EXPECTIMAX_AGENT = "ExpectimaxAgent"
"""The agent class whose ghosts move at random (CHANCE nodes, each move equally likely)."""

_TREE_KEYS = frozenset((*REQUIRED_KEYS, "depth"))
_MAX_ENCODING_PROBLEMS = 20
_BLOCK = '"""'
# A line inside a block that opens another block means the first one was never closed.
_BLOCK_OPENER = re.compile(r'\s*[A-Za-z_][\w-]*\s*:\s*"""\s*\Z')
_DIGITS = re.compile(r"[0-9]+\Z")
_INTEGER = re.compile(r"[+-]?[0-9]+\Z")
_WORD = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class Cs188Import:
    """A CS188 game-tree test as a :class:`Tree`, with the test's search settings.

    ``depth`` is the test's ``depth`` key in CS188's unit (one move by every agent), or None
    when the file has none. ``metadata`` maps every key that does not describe the tree
    (``class``, ``alg``, ``diagram``, ...) to its value; multi-line values keep their lines.
    ``warnings`` are located remarks that did not stop the import (unused win/lose names).
    """

    tree: Tree
    depth: int | None
    num_agents: int
    metadata: dict[str, str] = field(default_factory=dict)
    warnings: tuple[Problem, ...] = ()

    @property
    def cutoff_depth(self) -> int | None:
        """The node depth (root = 0) where the test's search stops: ``depth * num_agents``."""
        return None if self.depth is None else self.depth * self.num_agents

    @property
    def agent(self) -> str:
        """The test's agent class (``alg``), or "" when it has none."""
        return self.metadata.get("alg", "").strip()

    @property
    def algorithm(self) -> str | None:
        """The reference algorithm of the test's agent, or None for an unknown agent."""
        return AGENT_ALGORITHMS.get(self.agent)

    @property
    def options(self) -> SearchOptions:
        """CS188's conventions: the strict pruning rule, and the test's depth in plies."""
        return SearchOptions(prune_on_equality=False, depth_limit=self.cutoff_depth)

    def search(self) -> SearchResult:
        """The reference search CS188's autograder expects of the test's agent.

        Raises :class:`SearchError` for an unknown agent, or a cut-off at a state that has
        no evaluation (CS188's autograder raises there too).
        """
        if self.algorithm is None:
            known = ", ".join(AGENT_ALGORITHMS)
            raise SearchError(f"alg {self.agent!r} is not a game-tree agent (known: {known})")
        return search(self.tree, self.algorithm, self.options)


@dataclass(frozen=True, slots=True)
class Cs188Solution:
    """A test's ``.solution`` file: the root ``action`` and the ``generated`` states."""

    action: str
    generated: tuple[str, ...]


def class_of(text: str) -> str | None:
    """The ``class`` of a CS188 test file's text, or None when it has no readable one."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    entries, _ = _read_entries(lines, _Report("<text>"))
    entry = entries.get("class")
    words = entry.words() if entry else []
    return words[0].text if len(words) == 1 else None


def generated_states(result: SearchResult) -> frozenset[str]:
    """What CS188 counts as generated: the start state and every successor searched.

    The autograder's agents ask for one successor at a time, so a pruned child is never
    generated and a state at the depth cut-off is generated but not expanded: the states
    the reference search entered.
    """
    return frozenset(result.trace.visited())


def check_solution(imported: Cs188Import, solution: Cs188Solution) -> list[str]:
    """How the reference search differs from a test's solution: [] when it reproduces it."""
    try:
        result = imported.search()
    except SearchError as error:
        return [f"the search fails: {error}"]
    messages: list[str] = []
    if result.decision != solution.action:
        messages.append(f"the search chooses {result.decision!r}, the solution {solution.action!r}")
    ours, theirs = generated_states(result), frozenset(solution.generated)
    for who, extra in (("search", ours - theirs), ("solution", theirs - ours)):
        if extra:
            other = "solution" if who == "search" else "search"
            messages.append(
                f"the {who} generates {', '.join(sorted(extra))}, which the {other} does not"
            )
    return messages


def import_file(path: str | os.PathLike[str]) -> Cs188Import:
    """Read a CS188 test file and build its tree.

    Raises :class:`FileProblems` listing every problem found, each located by line and
    column, and ``OSError`` when the file cannot be read.
    """
    filename, text = _read_text(path)
    return import_text(text, filename)


def _read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The file's name and its UTF-8 text; :class:`FileProblems` where it is not UTF-8."""
    filename = os.fspath(path)
    data = Path(path).read_bytes()
    try:
        return filename, data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileProblems(_encoding_problems(data, filename)) from None


def import_solution(path: str | os.PathLike[str]) -> Cs188Solution:
    """Read a CS188 ``.solution`` file (``action`` and ``generated`` keys; older terms'
    files name the states ``expanded``, which for a correct agent are the same states).

    Raises :class:`FileProblems` listing every problem found, and ``OSError`` when the file
    cannot be read.
    """
    filename, text = _read_text(path)
    report = _Report(filename)
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    entries, broken = _read_entries(lines, report)
    if "generated" not in entries and "generated" not in broken and "expanded" in entries:
        entries["generated"] = entries["expanded"]
    for key in ("action", "generated"):
        if key not in entries and key not in broken:
            report.add(1, 1, f"missing required key {key!r}")
    action = entries["action"].words() if "action" in entries else []
    if len(action) > 1:
        report.at(action[1], f"action must be one word, not {len(action)}")
    elif "action" in entries and not action:
        report.at(entries["action"].start, "action is empty")
    if report.problems:
        raise FileProblems(report.problems)
    generated = tuple(word.text for word in entries["generated"].words())
    return Cs188Solution(action[0].text, generated)


def import_text(text: str, filename: str = "<text>") -> Cs188Import:
    """Build the tree described by the text of a CS188 test file.

    ``filename`` only names the file in problems. Raises :class:`FileProblems` listing
    every problem found.
    """
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise FileProblems([Problem(filename, 1, 1, "the file is empty")])
    report = _Report(filename)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    entries, broken = _read_entries(lines, report)
    if not entries and not broken and not report.problems:
        report.add(1, 1, "the file has no keys, only comments")
        raise FileProblems(report.problems)
    result = _Importer(entries, broken, report).run()
    if report.problems or result is None:
        raise FileProblems(report.problems)
    return result


# --- reading the key: value format -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Text:
    """Some text of the file and where its first character is (1-based)."""

    line: int
    column: int
    text: str

    def words(self) -> list[_Text]:
        return [
            _Text(self.line, self.column + match.start(), match.group())
            for match in _WORD.finditer(self.text)
        ]

    def without_comment(self) -> _Text:
        return _Text(self.line, self.column, _strip_comment(self.text))


@dataclass(frozen=True, slots=True)
class _Entry:
    """One ``key: value`` entry. ``start`` is where the value starts; ``lines`` its lines."""

    key: str
    line: int
    start: _Text
    lines: tuple[_Text, ...]

    @property
    def value(self) -> str:
        return "\n".join(piece.text for piece in self.lines)

    def data_lines(self) -> list[_Text]:
        """The non-blank lines of the value, without comments."""
        pieces = (piece.without_comment() for piece in self.lines)
        return [piece for piece in pieces if piece.text.strip()]

    def words(self) -> list[_Text]:
        return [word for piece in self.data_lines() for word in piece.words()]


class _Report:
    """Collects the problems of one file."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []

    def add(self, line: int, column: int, message: str) -> None:
        self.problems.append(Problem(self.filename, line, column, message))

    def at(self, where: _Text, message: str) -> None:
        self.add(where.line, where.column, message)

    def warn(self, where: _Text, message: str) -> None:
        self.warnings.append(Problem(self.filename, where.line, where.column, message))


def _strip_comment(text: str) -> str:
    return text.split("#", 1)[0]


def _read_entries(lines: Sequence[str], report: _Report) -> tuple[dict[str, _Entry], set[str]]:
    """Read every entry; also return the keys whose value could not be read."""
    entries: dict[str, _Entry] = {}
    broken: set[str] = set()
    index = 0
    while index < len(lines):
        code = _strip_comment(lines[index])
        if not code.strip():
            index += 1
            continue
        entry, key, index = _read_entry(lines, index, report)
        if entry is None:
            if key:
                broken.add(key)
        elif entry.key in entries or entry.key in broken:
            first = entries[entry.key].line if entry.key in entries else None
            where = f" (first on line {first})" if first else ""
            report.add(entry.line, 1 + _indent(code), f"duplicate key {entry.key!r}{where}")
        else:
            entries[entry.key] = entry
    return entries, broken


def _read_entry(
    lines: Sequence[str], index: int, report: _Report
) -> tuple[_Entry | None, str, int]:
    """Read the entry starting at ``lines[index]``: (entry or None, its key, next index)."""
    line = index + 1
    raw = lines[index]
    code = _strip_comment(raw)
    quote = code.find('"')
    head = code[:quote] if quote >= 0 else code
    if ":" not in head:
        report.add(line, 1 + _indent(code), 'expected \'key: "value"\' or \'key: """\'')
        return None, "", index + 1
    colon = head.index(":") if quote < 0 else head.rstrip().rindex(":")
    key = head[:colon].strip()
    if not key:
        report.add(line, 1 + colon, "a key is missing before ':'")
        return None, "", index + 1
    if quote < 0 or head[colon + 1 :].strip():
        column = 2 + colon + _indent(code[colon + 1 :])
        report.add(line, column, f"the value of {key!r} must be in double quotes")
        return None, key, index + 1
    rest = code[quote:].rstrip()
    if rest == _BLOCK:
        return _read_block(lines, index, key, quote, report)
    if rest.startswith(_BLOCK):
        column = quote + 4 + _indent(rest[3:])
        report.add(line, column, 'a multi-line value starts on the line after \'"""\', not on it')
        # Skip the block all the same, so its lines and closing quotes are not misread.
        _, _, after = _read_block(lines, index, key, quote, report)
        return None, key, after
    close = rest.find('"', 1)
    if close < 0:
        hint = " (a '#' starts a comment, even between quotes)" if "#" in raw[quote:] else ""
        report.add(line, quote + 1, f"the value of {key!r} has no closing quote{hint}")
        return None, key, index + 1
    if close + 1 < len(rest):
        column = quote + close + 2 + _indent(rest[close + 1 :])
        report.add(line, column, f"unexpected text after the value of {key!r}")
        return None, key, index + 1
    start = _Text(line, quote + 2, rest[1:close])
    return _Entry(key, line, start, (start,)), key, index + 1


def _read_block(
    lines: Sequence[str], index: int, key: str, quote: int, report: _Report
) -> tuple[_Entry | None, str, int]:
    """Read a ``key: \"\"\"`` block whose opening line is ``lines[index]``."""
    line = index + 1
    end = index + 1
    while end < len(lines):
        code = _strip_comment(lines[end])
        if code.strip() == _BLOCK:
            pieces = tuple(_Text(number + 1, 1, lines[number]) for number in range(line, end))
            return _Entry(key, line, _Text(line, quote + 1, ""), pieces), key, end + 1
        if _BLOCK_OPENER.match(code):
            report.add(
                line,
                quote + 1,
                f"the multi-line value of {key!r} is not closed: line {end + 1} opens another "
                'one before a line with only \'"""\'',
            )
            return None, key, end
        end += 1
    report.add(
        line,
        quote + 1,
        f'the multi-line value of {key!r} is not closed by a line with only \'"""\'',
    )
    return None, key, end


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _encoding_problems(data: bytes, filename: str) -> Iterator[Problem]:
    """One problem per byte sequence that is not UTF-8 (at most a few dozen)."""
    offset = 0
    for _ in range(_MAX_ENCODING_PROBLEMS):
        try:
            data[offset:].decode("utf-8")
            return
        except UnicodeDecodeError as error:
            bad = offset + error.start
            line_start = data.rfind(b"\n", 0, bad) + 1
            column = len(data[line_start:bad].decode("utf-8", errors="replace")) + 1
            message = f"the file is not UTF-8 text: byte 0x{data[bad]:02x} cannot be decoded"
            yield Problem(filename, data.count(b"\n", 0, bad) + 1, column, message)
            offset += error.end


# --- from entries to a tree --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Move:
    """One successor line: ``state action next``."""

    state: _Text
    action: _Text
    next: _Text


class _Importer:
    """Checks the entries of one file and builds its tree, reporting what is wrong."""

    def __init__(self, entries: dict[str, _Entry], broken: set[str], report: _Report) -> None:
        self.entries = entries
        self.report = report
        self.complete = True
        for key in REQUIRED_KEYS:
            if key not in entries:
                self.complete = False
                if key not in broken:
                    report.add(1, 1, f"missing required key {key!r}")
        self.moves: dict[str, list[_Move]] = {}
        self.named: set[str] = set()  # every state a well-formed successor line names
        self.values: dict[str, tuple[_Text, Number]] = {}
        self.evaluated: set[str] = set()  # states with an evaluation line, valid or not
        self.garbled: set[str] = set()  # first words of malformed lines, to avoid echoes
        self.terminal: set[str] = set()

    def run(self) -> Cs188Import | None:
        word = self._one_word("class")
        if word is not None and word.text != GAME_TREE_CLASS:
            self.report.at(
                word, f"class {word.text!r} is not a game-tree test; expected {GAME_TREE_CLASS!r}"
            )
        num_agents = self._whole_number("num_agents")
        depth = self._whole_number("depth")
        start = self._one_word("start_state")
        self._read_moves()
        self._read_evaluation()
        if not self.complete or start is None:
            return None
        self.named.add(start.text)
        self._read_terminal_states(start)
        for state, _ in self.values.values():
            self._check_known(state, "evaluation")
        metadata = {key: e.value for key, e in self.entries.items() if key not in _TREE_KEYS}
        ghost = Kind.CHANCE if metadata.get("alg", "").strip() == EXPECTIMAX_AGENT else Kind.MIN
        tree = self._walk(start, num_agents or 2, ghost)
        if tree is None or num_agents is None:
            return None
        return Cs188Import(tree, depth, num_agents, metadata, tuple(self.report.warnings))

    def _one_word(self, key: str) -> _Text | None:
        entry = self.entries.get(key)
        if entry is None:
            return None
        words = entry.words()
        if not words:
            self.report.at(entry.start, f"{key} is empty")
            return None
        if len(words) > 1:
            self.report.at(words[1], f"{key} must be one word, not {len(words)}")
            return None
        return words[0]

    def _whole_number(self, key: str) -> int | None:
        word = self._one_word(key)
        if word is None:
            return None
        if not _DIGITS.match(word.text) or int(word.text) < 1:
            self.report.at(word, f"{key} must be a whole number, at least 1, not {word.text!r}")
            return None
        return int(word.text)

    def _lines(self, key: str, shape: str, size: int) -> Iterator[list[_Text]]:
        """The words of each data line of ``key`` that has ``size`` words; reports the others."""
        entry = self.entries.get(key)
        for piece in entry.data_lines() if entry else []:
            words = piece.words()
            if len(words) == size:
                yield words
            else:
                self.report.at(words[0], f"{shape}, not {len(words)} words")
                self.garbled.add(words[0].text)

    def _read_moves(self) -> None:
        shape = "a successor line is 'state action next_state'"
        actions: dict[tuple[str, str], _Move] = {}
        for words in self._lines("successors", shape, 3):
            move = _Move(*words)
            self.named.update((move.state.text, move.next.text))
            first = actions.setdefault((move.state.text, move.action.text), move)
            if first is move:
                self.moves.setdefault(move.state.text, []).append(move)
            else:
                self.report.at(
                    move.action,
                    f"state {move.state.text!r} has two moves {move.action.text!r} "
                    f"(the first on line {first.action.line})",
                )

    def _read_evaluation(self) -> None:
        for state, token in self._lines("evaluation", "an evaluation line is 'state value'", 2):
            name = state.text
            value = _number(token.text)
            if value is None:
                self.report.at(token, f"the evaluation of {name!r} is not a number: {token.text!r}")
            elif not math.isfinite(value):
                self.report.at(
                    token, f"the evaluation of {name!r} must be finite, not {token.text!r}"
                )
            elif name in self.values:
                first = self.values[name][0].line
                self.report.at(
                    state, f"state {name!r} is evaluated twice (the first on line {first})"
                )
            else:
                self.values[name] = (state, value)
            self.evaluated.add(name)

    def _read_terminal_states(self, start: _Text) -> None:
        for key in ("win_states", "lose_states"):
            for word in self.entries[key].words():
                # CS188 only asks whether a state is in the set: an unused name is harmless.
                if word.text not in self.named:
                    self.report.warn(
                        word,
                        f"unknown state {word.text!r} in {key}: no successor line names it "
                        "(ignored)",
                    )
                self.terminal.add(word.text)
        if self.moves and start.text not in self.moves and start.text not in self.terminal:
            self.report.at(
                start, f"the start state {start.text!r} has no successors: no line starts with it"
            )
            self.garbled.add(start.text)

    def _check_known(self, word: _Text, key: str) -> None:
        if word.text not in self.named:
            self.report.at(
                word, f"unknown state {word.text!r} in {key}: no successor line names it"
            )

    def _walk(self, start: _Text, num_agents: int, ghost: Kind) -> Tree | None:
        """Build the tree depth first from the start state, without recursion.

        Pacman's states are MAX nodes, the ghosts' states ``ghost`` nodes (MIN, or CHANCE
        with every move equally likely).
        """
        nodes: list[Node] = []
        reached: dict[str, _Text] = {start.text: start}  # where each state was first reached
        on_path: set[str] = set()
        stack: list[tuple[str, Iterator[_Move]]] = []

        def visit(where: _Text, depth: int) -> None:
            name = where.text
            value = self.values[name][1] if name in self.values else None
            if name in self.terminal or name not in self.moves:
                if name not in self.evaluated and name not in self.garbled:
                    self.report.at(where, f"leaf {name!r} has no evaluation value")
                nodes.append(Node(name, Kind.LEAF, utility=value))
                return
            kind = Kind.MAX if depth % num_agents == 0 else ghost
            moves = self.moves[name]
            uniform = Fraction(1, len(moves)) if kind is Kind.CHANCE else None
            edges = tuple(Edge(move.action.text, move.next.text, uniform) for move in moves)
            nodes.append(Node(name, kind, edges, heuristic=value))
            stack.append((name, iter(self.moves[name])))
            on_path.add(name)

        visit(start, 0)
        while stack:
            name, remaining = stack[-1]
            move = next(remaining, None)
            if move is None:
                stack.pop()
                on_path.discard(name)
                continue
            child = move.next
            if child.text == name:
                self.report.at(child, f"cycle: state {name!r} is its own successor")
            elif child.text in on_path:
                self.report.at(child, f"cycle: {name!r} leads back to its ancestor {child.text!r}")
            elif child.text in reached:
                # Blame the later line of the two, whichever the walk met first.
                first, second = sorted(
                    (reached[child.text], child), key=lambda t: (t.line, t.column)
                )
                self.report.at(
                    second,
                    f"state {child.text!r} is reached twice (first on line {first.line}); "
                    "a game tree gives each state one parent",
                )
            else:
                reached[child.text] = child
                visit(child, len(stack))
        if self.report.problems:
            return None
        try:
            return Tree(start.text, nodes)
        except TreeError as error:  # pragma: no cover - the checks above should prevent it
            self.report.at(start, f"the tree is not valid: {error}")
            return None


def _number(token: str) -> Number | None:
    """An int for an integer literal, a float for any other number, None for a non-number."""
    if _INTEGER.match(token):
        return int(token)
    try:
        return float(token)
    except ValueError:
        return None


# --- what CS188's autograder sees of an agent -------------------------------------------------


@dataclass
class Touched:
    """What a search asked of the states, counted both ways CS188's autograder has: the
    start state and every state ``generateSuccessor`` made (today's ``generated``), and the
    states whose moves, successors or score were asked (earlier terms' ``expanded``)."""

    generated: set[str] = field(default_factory=set)
    expanded: set[str] = field(default_factory=set)


@dataclass
class TestState:
    """A state of a game-tree test as CS188's autograder hands it to an agent, over the
    imported tree (its win and lose states, and states with no successors, are leaves):
    the agent index is not checked, and what the search touches is recorded in
    ``touched``. For checking this project's grading against CS188's own semantics; the
    state graded students get is the sandbox's (:mod:`worker.harness.cs188`)."""

    tree: Tree
    name: str
    agents: int
    touched: Touched

    def getLegalActions(self, agentIndex: int = 0) -> list[str]:
        self.touched.expanded.add(self.name)
        return [edge.action for edge in self.tree.nodes[self.name].edges]

    def generateSuccessor(self, agentIndex: int, action: str) -> TestState:
        self.touched.expanded.add(self.name)
        for edge in self.tree.nodes[self.name].edges:
            if edge.action == action:
                self.touched.generated.add(edge.child)
                return TestState(self.tree, edge.child, self.agents, self.touched)
        raise Exception("Invalid action")

    def getNumAgents(self) -> int:
        return self.agents

    def isWin(self) -> bool:
        return self.tree.nodes[self.name].is_leaf

    def isLose(self) -> bool:
        return self.tree.nodes[self.name].is_leaf

    def getScore(self) -> Number:
        self.touched.expanded.add(self.name)
        node = self.tree.nodes[self.name]
        value = node.utility if node.is_leaf else node.heuristic
        if value is None:
            raise Exception("getScore() called on a state with no evaluation")
        return value
