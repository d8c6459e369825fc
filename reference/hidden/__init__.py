"""Hidden trees: random trees drawn from a secret key, chosen to catch known wrong solutions.

>>> from reference.hidden import DEVELOPMENT_KEY, hidden_trees   # doctest: +SKIP
>>> trees = hidden_trees(exercise, DEVELOPMENT_KEY)              # doctest: +SKIP

With the implementation library and a judge, the trees are chosen so that every wrong
implementation fails on at least one of them::

    library = load_library(exercises_dir / LIBRARY_FOLDER)
    selection = select_hidden_trees(
        exercise, key, wrong_for(exercise, library), reference_judge(exercise)
    )
"""

from reference.hidden.generate import (
    DEVELOPMENT_KEY,
    LAYERS,
    candidate_tree,
    candidates,
    draw_seed,
    exercise_seed,
    random_tree,
    scoped_key,
    seeded_tree,
)
from reference.hidden.library import (
    LIBRARY_FOLDER,
    Implementation,
    MisconceptionText,
    correct_for,
    load_library,
    wrong_for,
)
from reference.hidden.selection import (
    Catcher,
    CatchTable,
    HiddenTree,
    Pool,
    Selection,
    build_pool,
    catch_table,
    draw_hidden_trees,
    hidden_trees,
    select_hidden_trees,
    shape_features,
)
from reference.hidden.trusted import Judge, TrustedRun, judge_source, reference_judge, run_trusted

__all__ = [
    "DEVELOPMENT_KEY",
    "LAYERS",
    "LIBRARY_FOLDER",
    "CatchTable",
    "Catcher",
    "HiddenTree",
    "Implementation",
    "Judge",
    "MisconceptionText",
    "Pool",
    "Selection",
    "TrustedRun",
    "build_pool",
    "candidate_tree",
    "candidates",
    "catch_table",
    "correct_for",
    "draw_hidden_trees",
    "draw_seed",
    "exercise_seed",
    "hidden_trees",
    "judge_source",
    "load_library",
    "random_tree",
    "reference_judge",
    "run_trusted",
    "scoped_key",
    "seeded_tree",
    "select_hidden_trees",
    "shape_features",
    "wrong_for",
]
