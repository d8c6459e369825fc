"""The judge's verdicts on a fixed corpus of searches are those of commit 4d2a374: making
the judge faster changed no verdict (see :mod:`tests.reference.judge_corpus`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reference.feedback import judge
from tests.reference.judge_corpus import CASES, LARGE_CASES, case, fingerprint

EXPECTED = Path(__file__).parent / "data" / "judge_fingerprints.json"
SEEDS = range(CASES + LARGE_CASES)


@pytest.fixture(scope="module")
def expected() -> dict[str, str]:
    return dict(json.loads(EXPECTED.read_text()))


def test_the_corpus_is_the_one_fingerprinted(expected: dict[str, str]) -> None:
    assert sorted(expected, key=int) == [str(seed) for seed in SEEDS]


@pytest.mark.parametrize("chunk", range(0, len(SEEDS), 100))
def test_every_verdict_is_as_before(expected: dict[str, str], chunk: int) -> None:
    changed = []
    for seed in SEEDS[chunk : chunk + 100]:
        tree, reference, observed = case(seed)
        if fingerprint(judge(tree, reference, observed)) != expected[str(seed)]:
            changed.append(seed)
    assert not changed, f"the judge's verdicts changed on cases {changed}"
