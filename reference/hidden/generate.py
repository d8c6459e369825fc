"""Random hidden trees, drawn deterministically from a secret key and the exercise's slug.

Every exercise grades with hidden trees the students never see, so a search tuned to the
public trees (or a value copied from the textbook) is caught. The trees are a pure function
of (key, slug, policy seed, algorithm, policy): the service draws the same ones on every
worker, and nobody without the key can draw them.

Candidate ``i`` has its own random generator (seeded from the exercise seed and ``i``), so
the candidates form a stable stream: :mod:`reference.hidden.selection` walks it to pick the
trees that catch the library's wrong implementations.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterator, Mapping
from fractions import Fraction
from types import MappingProxyType

from reference.algorithms import ALGORITHMS
from reference.budgets import hidden_shape
from reference.caching import IdentityCache
from reference.contracts import hidden_layers
from reference.exercises.model import Exercise, HiddenTreePolicy
from reference.naming import ROOT_NAME, action_labels, child_names
from reference.tree import Edge, Kind, Node, Tree

DEVELOPMENT_KEY = b"gametree-grader development hidden-tree key: not a secret"
"""The key for development and tests. A deployed service configures its own secret key;
with this one, anybody who has the repository can draw the hidden trees."""

LAYERS: Mapping[str, tuple[Kind, ...]] = MappingProxyType(
    {name: algorithm.layers for name, algorithm in ALGORITHMS.items()}
)
"""The kinds of the internal nodes level by level (repeating), by algorithm."""

EARLY_LEAF = 0.15
"""The chance that a node off the tree's deepest path ends the game early."""

_SEED_VERSION = b"hidden-trees/v1"
_DRAW_VERSION = b"hidden-draw/v1"
_SCOPE_VERSION = b"hidden-scope/v1"


def scoped_key(key: bytes, *scope: str) -> bytes:
    """The hidden-tree key of one scope (a course, and an exercise of it) under the
    service's secret ``key``: HMAC-SHA256 of the scope's names. Trees drawn under two
    scopes' keys have nothing in common, and knowing one scope's key (or its trees) tells
    nothing of another's, nor of ``key``."""
    message = b"\0".join((_SCOPE_VERSION, *(part.encode() for part in scope)))
    return hmac.new(key, message, hashlib.sha256).digest()


def exercise_seed(key: bytes, slug: str, salt: str = "") -> bytes:
    """HMAC-SHA256 of the slug (and the policy's seed) under the secret ``key``."""
    message = b"\0".join((_SEED_VERSION, slug.encode(), salt.encode()))
    return hmac.new(key, message, hashlib.sha256).digest()


def draw_seed(key: bytes, exercise: Exercise, draw: str) -> bytes:
    """The seed of one grading's own hidden trees: HMAC-SHA256 under the secret ``key`` of
    the exercise (slug, policy seed) and the draw's name (a submission's, so that a regrade
    draws the same trees)."""
    message = b"\0".join(
        (_DRAW_VERSION, exercise.slug.encode(), exercise.hidden.seed.encode(), draw.encode())
    )
    return hmac.new(key, message, hashlib.sha256).digest()


def candidate_tree(exercise: Exercise, key: bytes, index: int) -> Tree:
    """Hidden-tree candidate number ``index`` of ``exercise`` (the same for the same key)."""
    return seeded_tree(exercise, exercise_seed(key, exercise.slug, exercise.hidden.seed), index)


def seeded_tree(exercise: Exercise, seed: bytes, index: int) -> Tree:
    """Tree number ``index`` of the stream of random trees that ``seed`` starts."""
    rng = random.Random(hashlib.sha256(seed + index.to_bytes(8, "big")).digest())
    policy = exercise.hidden
    heights = range(policy.min_depth, policy.max_depth + 1)
    # Shapes cycle through the policy's heights and both root kinds from a seeded start,
    # so any run of consecutive candidates has trees of both parities (leaves under MAX
    # and under MIN) and both players to move at the root.
    offset = int.from_bytes(seed[:4], "big")
    roots = hidden_roots(exercise)
    uniform = exercise.contract.contract.uniform_chance
    limit = exercise.options.depth_limit
    width = wide_width(exercise)
    if limit is None:
        height, kinds = tree_shape(heights, roots, offset + index, policy.leaves_after_moves)
        return random_tree(rng, policy, height, kinds, wide=width, uniform=uniform)
    height, kinds = depth_limited_shape(heights, roots, limit, offset + index)
    return random_tree(
        rng, policy, height, kinds, heuristics=True, wide=width, searched=limit, uniform=uniform
    )


_widths: IdentityCache[int] = IdentityCache(64)


def wide_width(exercise: Exercise) -> int:
    """How many children the wide node of each of ``exercise``'s hidden trees has (see
    :func:`reference.budgets.hidden_shape`)."""

    def width() -> int:
        widest = max(
            (len(node.edges) for entry in exercise.trees for node in entry.tree), default=0
        )
        policy = exercise.hidden
        shape = hidden_shape(policy.count, policy.max_depth, policy.max_branching, widest)
        return shape.width

    return _widths.get(width, exercise)


def hidden_roots(exercise: Exercise) -> list[tuple[Kind, ...]]:
    """The layers of ``exercise``'s hidden trees from each kind of root they may have: its
    algorithm's layers, or its contract's (CS188: MAX, then one layer per ghost); from a
    MAX root only when the contract's trees all start with MAX to move."""
    layers = hidden_layers(exercise.contract, LAYERS.get(exercise.algorithm, LAYERS["minimax"]))
    return [layers] if exercise.contract.contract.max_root else root_kinds(layers)


def root_kinds(layers: tuple[Kind, ...]) -> list[tuple[Kind, ...]]:
    """The layers from a MAX root and, where the algorithm has MIN nodes, from a MIN root."""
    roots = [layers]
    if Kind.MIN in layers:
        start = layers.index(Kind.MIN)
        roots.append(layers[start:] + layers[:start])
    return roots


def tree_shape(
    heights: range, roots: list[tuple[Kind, ...]], turn: int, leaves_after_moves: bool
) -> tuple[int, tuple[Kind, ...]]:
    """The height and the layers (from the root down) of candidate ``turn``: every
    (root, height) pair in turn (``roots``: see :func:`hidden_roots`); with
    ``leaves_after_moves``, only heights whose leaves hang below a move."""
    shapes = []
    for kinds in roots:
        usable = range_after_moves(heights, kinds) if leaves_after_moves else list(heights)
        shapes += [(height, kinds) for height in usable]
    return shapes[turn % len(shapes)]


def range_after_moves(heights: range, layers: tuple[Kind, ...]) -> list[int]:
    """The ``heights`` whose leaves hang below a move, not a chance node (all of them when
    none does, which a policy's range can leave)."""
    moved = [height for height in heights if layers[(height - 1) % len(layers)] is not Kind.CHANCE]
    return moved or list(heights)


def depth_limited_shape(
    heights: range, roots: list[tuple[Kind, ...]], limit: int, turn: int
) -> tuple[int, tuple[Kind, ...]]:
    """The height and the layers (from the root down) of depth-limited candidate ``turn``.

    Every tree is searched with the exercise's one depth limit, so which player is to
    move at the cut-off states depends on the root: the root is MAX or MIN (the layers
    then start from MIN), so that scoring a cut-off state from the wrong
    side at MIN states shows. The heights are the policy's above the limit (every tree
    has cut-off states) when these include both parities of the distance from the
    cut-off to the deepest leaves; else all of the policy's. Candidates cycle through
    every (root, height) pair from the seeded ``turn``, so a short run of them holds
    both root kinds and both parities.
    """
    above = [height for height in heights if height > limit]
    usable = above if len({(height - limit) % 2 for height in above}) == 2 else list(heights)
    shapes = [(height, kinds) for kinds in roots for height in usable]
    return shapes[turn % len(shapes)]


def candidates(exercise: Exercise, key: bytes, start: int = 0) -> Iterator[Tree]:
    """The endless stream of hidden-tree candidates of ``exercise``, from ``start``."""
    index = start
    while True:
        yield candidate_tree(exercise, key, index)
        index += 1


def _palette(rng: random.Random, policy: HiddenTreePolicy) -> list[int]:
    """A few values for one tree's leaves and heuristics: few enough that ties are common,
    with at least one negative value when the policy allows them."""
    span = list(range(policy.min_value, policy.max_value + 1))
    palette = rng.sample(span, min(len(span), rng.randint(4, 8)))
    negatives = [value for value in span if value < 0]
    if negatives and not any(value < 0 for value in palette):
        palette[0] = rng.choice(negatives)
    return palette


def _branching(rng: random.Random, policy: HiddenTreePolicy, *, at_least: int) -> int:
    low = min(at_least, policy.max_branching)
    counts = range(low, policy.max_branching + 1)
    # A single child is legal and worth testing, but rarer than a real choice.
    weights = [1 if count == 1 else 3 for count in counts]
    return rng.choices(counts, weights)[0]


def random_tree(
    rng: random.Random,
    policy: HiddenTreePolicy,
    height: int,
    layers: tuple[Kind, ...],
    *,
    heuristics: bool = False,
    wide: int = 0,
    searched: int | None = None,
    uniform: bool = False,
) -> Tree:
    """A random tree of exactly ``height`` with internal kinds ``layers`` by level.

    Names and actions are the textbook's (A; B, C, D; B1 ...; a1 ...). One path (the
    spine) reaches the full height; other nodes may end early as leaves. The root has at
    least two children and chance nodes at least two outcomes, with exact probabilities.

    With ``wide`` above ``policy.max_branching``, one node of the leftmost path, at a
    random depth above ``searched`` (the depth limit, if any), has ``wide`` children, the
    extra ones leaves: a search that looks at no more than ``max_branching`` moves misses
    one. On the leftmost path the window is still (-inf, +inf), so no correct search
    prunes there, and every child of that node is searched.
    """
    palette = _palette(rng, policy)
    wide_depth = _wide_depth(rng, policy, height, layers, wide, searched)
    nodes: list[Node] = []
    # (name, depth, on the spine, on the leftmost path, a leaf whatever its depth)
    stack: list[tuple[str, int, bool, bool, bool]] = [(ROOT_NAME, 0, True, True, False)]
    while stack:
        name, depth, on_spine, leftmost, leaf = stack.pop()
        held = leftmost and depth <= wide_depth
        early = depth > 0 and not on_spine and not held and rng.random() < EARLY_LEAF
        if early and policy.leaves_after_moves:
            early = layers[(depth - 1) % len(layers)] is not Kind.CHANCE
        if depth == height or early or leaf:
            nodes.append(Node(name, Kind.LEAF, utility=rng.choice(palette)))
            continue
        kind = layers[depth % len(layers)]
        wanted = 2 if depth == 0 or kind is Kind.CHANCE else 1
        searched_children = _branching(rng, policy, at_least=wanted)
        count = wide if leftmost and depth == wide_depth else searched_children
        names = child_names(name, count, parent_is_root=depth == 0)
        probabilities: list[Fraction | None] = [None] * count
        if kind is Kind.CHANCE:
            # Uniform: every outcome equally likely (CS188's ghosts), drawn all the same so
            # that the rest of the tree is the one the seed gives either way.
            weights = [rng.randint(1, 4) for _ in range(count)]
            weights = [1] * count if uniform else weights
            probabilities = [Fraction(weight, sum(weights)) for weight in weights]
        edges = tuple(
            Edge(action, child, p)
            for action, child, p in zip(
                action_labels(name, count), names, probabilities, strict=True
            )
        )
        heuristic = rng.choice(palette) if heuristics else None
        nodes.append(Node(name, kind, edges, heuristic=heuristic))
        spine = rng.randrange(min(count, searched_children)) if on_spine else -1
        for position, child in enumerate(names):
            extra = position >= searched_children
            stack.append((child, depth + 1, position == spine, leftmost and position == 0, extra))
    return Tree(ROOT_NAME, nodes, checked=False)


def _wide_depth(
    rng: random.Random,
    policy: HiddenTreePolicy,
    height: int,
    layers: tuple[Kind, ...],
    wide: int,
    searched: int | None,
) -> int:
    """The depth of the wide node of a tree (-1: none). Above the depth limit, so that its
    children are searched; where ``leaves_after_moves``, never at a chance node (its extra
    children are leaves)."""
    if wide <= policy.max_branching:
        return -1
    depths = [
        depth
        for depth in range(min(height, height if searched is None else searched))
        if not policy.leaves_after_moves or layers[depth % len(layers)] is not Kind.CHANCE
    ]
    return rng.choice(depths) if depths else -1
