from reference.feedback import Verdict, verdict_legend
from reference.report import RunVerdict
from reference.verdict_words import WORDS, node_mark, verdict_word


def test_every_node_verdict_has_its_word_and_a_line_in_every_legend() -> None:
    assert set(Verdict) <= WORDS.keys()
    for windowed in (True, False):
        for depth_limited in (True, False):
            legend = verdict_legend(windowed=windowed, depth_limited=depth_limited)
            assert list(legend) == [str(verdict) for verdict in Verdict]


def test_every_verdict_of_a_report_and_of_its_trees_has_its_word() -> None:
    assert set(RunVerdict) <= WORDS.keys()


def test_a_verdict_is_said_alike_from_its_enum_and_from_its_stored_value() -> None:
    assert verdict_word(Verdict.WRONG_BOUNDS) == verdict_word("wrong_bounds") == "wrong bounds"
    assert verdict_word("queued") == "queued"  # a run's state: said as it is written


def test_a_drawn_node_gets_a_mark_and_a_sentence_only_when_something_is_wrong() -> None:
    assert node_mark(Verdict.OK, "C1 returned 3.") == "ok"
    assert node_mark("not_observed", "") == "(not observed)"
    assert node_mark(Verdict.MISSED, "C2 was never visited.") == "MISSED: C2 was never visited."
