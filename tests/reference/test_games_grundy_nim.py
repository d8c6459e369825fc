"""Grundy's game and Nim (Fan-Tan) against FIXTURES.md and the theory of impartial games."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.games import generate, make_game
from reference.tree import Kind
from tests.reference.test_games_support import distinct_labels, minimax, root_actions
from tests.strategies import examples

# Grundy's game: the Sprague-Grundy values of one pile of 0, 1, 2, ... tokens (OEIS A002188).
GRUNDY_NUMBERS = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3]


def test_grundy_from_7_matches_the_fixture() -> None:
    tree = generate("grundy", pile=7)

    assert len(tree) == 24
    assert len(tree.leaves()) == 7
    assert len(distinct_labels(tree)) == 14
    assert tree.root.kind is Kind.MAX
    assert root_actions(tree) == {"6+1": ("6-1", -1), "5+2": ("5-2", -1), "4+3": ("4-3", -1)}


def test_grundy_states_are_piles_largest_first_and_moves_name_the_split() -> None:
    tree = generate("grundy")

    assert tree.root.label == "7"
    assert [edge.action for edge in tree["B"].edges] == ["5+1", "4+2"]
    assert [child.label for child in tree.children("B")] == ["5-1-1", "4-2-1"]
    assert {leaf.label for leaf in tree.leaves()} == {"2-1-1-1-1-1", "2-2-1-1-1", "2-2-2-1"}


def test_grundy_children_are_deduplicated_per_parent_only() -> None:
    tree = generate("grundy")

    for node in tree:
        labels = [child.label for child in tree.children(node.name)]
        assert len(labels) == len(set(labels))
    # ...but the same state still appears under different parents (B2, C1, D2)
    assert [node.label for node in tree].count("4-2-1") == 3
    # splitting either 3 of 3-3-1 is one move
    assert [edge.action for edge in tree["D1"].edges] == ["2+1"]


@pytest.mark.parametrize("pile", range(1, len(GRUNDY_NUMBERS)))
def test_grundy_first_player_wins_exactly_when_the_grundy_number_is_not_zero(pile: int) -> None:
    tree = generate("grundy", pile=pile)

    assert minimax(tree)["A"] == (1 if GRUNDY_NUMBERS[pile] else -1)


def test_a_pile_that_cannot_be_split_is_a_lost_leaf() -> None:
    tree = generate("grundy", pile=2)

    assert len(tree) == 1
    assert tree.root.utility == -1


@pytest.mark.parametrize("pile", [0, -3, 31, "seven", 2.5, True])
def test_grundy_rejects_bad_piles(pile: object) -> None:
    with pytest.raises(ValueError, match="option 'pile'"):
        make_game("grundy", pile=pile)


def test_nim_1_3_matches_the_fixture() -> None:
    tree = generate("nim", compartments=(1, 3))

    assert len(tree) == 28
    assert len(tree.leaves()) == 12
    actions = root_actions(tree)
    assert list(actions) == ["take 1 from 1", "take 1 from 2", "take 2 from 2", "take 3 from 2"]
    winning = [label for label, value in actions.values() if value == 1]
    assert winning == ["1-1"]


def test_misere_nim_1_3_wins_by_moving_to_1_0() -> None:
    tree = generate("nim", compartments=(1, 3), misere=True)

    assert len(tree) == 28
    assert len(tree.leaves()) == 12
    winning = [label for label, value in root_actions(tree).values() if value == 1]
    assert winning == ["1-0"]


def test_fantan_is_nim() -> None:
    assert generate("fantan") == generate("nim", compartments=[1, 3])


def test_nim_compartments_keep_their_places() -> None:
    tree = generate("nim", compartments=(2, 2))

    assert [child.label for child in tree.children("A")] == ["1-2", "0-2", "2-1", "2-0"]
    assert generate("nim", compartments=(2, 2), dedupe_children=False) == tree


def test_nim_options_accept_text_as_on_a_command_line() -> None:
    game = make_game("nim", compartments="1, 3", misere="yes")

    assert game == make_game("nim", compartments=(1, 3), misere=True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"compartments": ()}, "expected 1 to 8 numbers"),
        ({"compartments": (0, 0)}, "at least one compartment must hold a match"),
        ({"compartments": (1, -1)}, "from 0 to 20"),
        ({"compartments": "1;3"}, "expected a whole number"),
        ({"compartments": 13}, "expected numbers such as 1,3"),
        ({"misere": "maybe"}, "expected true or false"),
        ({"heaps": (1, 3)}, "unknown option 'heaps' for the game 'nim'"),
    ],
)
def test_nim_rejects_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game("nim", **options)


@functools.cache
def mover_wins_misere(counts: tuple[int, ...]) -> bool:
    """Bouton's rule for misère Nim."""
    if all(n <= 1 for n in counts):
        return sum(counts) % 2 == 0
    return functools.reduce(lambda a, b: a ^ b, counts) != 0


@settings(max_examples=examples(40), deadline=None)
@given(
    counts=st.lists(st.integers(0, 3), min_size=1, max_size=3).filter(any),
    misere=st.booleans(),
)
def test_nim_values_follow_boutons_theorem(counts: list[int], misere: bool) -> None:
    tree = generate("nim", compartments=counts, misere=misere)

    if misere:
        mover_wins = mover_wins_misere(tuple(counts))
    else:
        mover_wins = functools.reduce(lambda a, b: a ^ b, counts) != 0
    assert minimax(tree)["A"] == (1 if mover_wins else -1)
