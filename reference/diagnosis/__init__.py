"""Diagnosis: which known misconception a failed search shows.

>>> signatures = {case.name: observed_signature(record.observed) for ...}  # doctest: +SKIP
>>> diagnose(signatures, trees, exercise, load_library(folder))           # doctest: +SKIP

A search's :class:`Signature` (its calls with their windows, the nodes it scored, the
values it returned) is compared with the signature of every wrong implementation of the
library on the same trees; the :class:`Diagnosis` names those that match the student's on
the most trees, with the evidence. A search that agrees with the reference gets none.
"""

from reference.diagnosis.compare import (
    Agreement,
    agreement,
    departure_share,
    steps_agree,
    values_agree,
)
from reference.diagnosis.findings import Composed, Diagnosis, Misconception, TreeEvidence
from reference.diagnosis.matching import (
    SIGNATURE_TREES_KEPT,
    clear_signatures,
    diagnose,
    tree_signatures,
)
from reference.diagnosis.signature import (
    NOT_A_VALUE,
    Signature,
    Step,
    observed_signature,
    reference_signature,
    trusted_signature,
)

__all__ = [
    "NOT_A_VALUE",
    "SIGNATURE_TREES_KEPT",
    "Agreement",
    "Composed",
    "Diagnosis",
    "Misconception",
    "Signature",
    "Step",
    "TreeEvidence",
    "agreement",
    "clear_signatures",
    "departure_share",
    "diagnose",
    "observed_signature",
    "reference_signature",
    "steps_agree",
    "tree_signatures",
    "trusted_signature",
    "values_agree",
]
