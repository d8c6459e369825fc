"""What counts as a number among what a student's function returns (describe_value): plain
ints, floats and Fractions, numpy's own scalars, decimals; never a bool or a rigged
subclass, whatever it calls itself."""

from __future__ import annotations

import math
import subprocess
import sys
import types
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from reference.observed import ValueProblem
from worker.harness.values import describe_value

np = pytest.importorskip("numpy")


@pytest.mark.parametrize(
    ("returned", "plain"),
    [
        (np.float64(2.5), 2.5),
        (np.float32(0.5), 0.5),
        (np.float16(-1.0), -1.0),
        (np.int64(3), 3),
        (np.uint8(200), 200),
        (np.int64(-(2**62)), -(2**62)),
        (np.float64(-np.inf), -math.inf),
    ],
)
def test_numpys_own_scalars_are_the_plain_numbers_they_equal(
    returned: object, plain: object
) -> None:
    value, problem, shown = describe_value(returned)
    assert problem is None
    assert type(value) is type(plain)
    assert value == plain
    assert shown == repr(plain)


def test_what_np_dot_returns_is_a_python_float() -> None:
    value, problem, _ = describe_value(np.dot([0.9, 0.1], [2.0, 3.0]))
    assert problem is None
    assert type(value) is float
    assert value == pytest.approx(2.1)


def test_a_0d_array_of_numbers_is_its_number_and_any_other_array_is_not() -> None:
    assert describe_value(np.array(3.0)) == (3.0, None, "3.0")
    assert describe_value(np.where(True, np.int64(4), 0)) == (4, None, "4")
    for array in (np.array([1.0]), np.array(True), np.array("3"), np.array(1 + 2j)):
        value, problem, _ = describe_value(array)
        assert value is None
        assert problem is ValueProblem.NOT_A_NUMBER


@pytest.mark.parametrize("returned", [True, False, np.True_, np.bool_(False)])
def test_bools_of_python_and_numpy_are_not_numbers(returned: object) -> None:
    value, problem, _ = describe_value(returned)
    assert value is None
    assert problem is ValueProblem.NOT_A_NUMBER


def test_numpys_nan_is_not_finite_as_pythons_is() -> None:
    for nan in (np.float64("nan"), np.float32("nan"), np.array(np.nan)):
        assert describe_value(nan) == (None, ValueProblem.NOT_FINITE, "nan")


def test_decimals_are_exact_fractions() -> None:
    assert describe_value(Decimal("0.5")) == (Fraction(1, 2), None, "1/2")
    assert describe_value(Decimal("-2.000")) == (Fraction(-2), None, "-2")
    assert describe_value(Decimal("1e300"))[0] == Fraction(10**300)


def test_decimal_nan_infinity_and_huge_decimals_are_judged_as_floats_and_ints_are() -> None:
    assert describe_value(Decimal("NaN")) == (None, ValueProblem.NOT_FINITE, "nan")
    assert describe_value(Decimal("sNaN")) == (None, ValueProblem.NOT_FINITE, "nan")
    assert describe_value(Decimal("-Infinity")) == (-math.inf, None, "-inf")
    for huge in (Decimal("1e999999999"), Decimal("1e-999999999"), Decimal("1e400")):
        value, problem, _ = describe_value(huge)
        assert value is None
        assert problem is ValueProblem.TOO_LARGE


def test_an_int_subclass_with_a_rigged_eq_is_still_rigged() -> None:
    class Three(int):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    value, problem, _ = describe_value(Three(3))
    assert value is None
    assert problem is ValueProblem.RIGGED


def test_a_subclass_of_numpys_float64_is_rigged() -> None:
    class Sneaky(np.float64):  # type: ignore[name-defined,misc]
        __module__ = "numpy"

        def __eq__(self, other: object) -> bool:
            return True

    value, problem, _ = describe_value(Sneaky(1.0))
    assert value is None
    assert problem is ValueProblem.RIGGED


def test_a_float64_of_a_fake_numpy_module_is_rigged(monkeypatch: pytest.MonkeyPatch) -> None:
    # A class of the student's named like numpy's, in a module called numpy whose generic
    # types it subclasses: still not numpy's own type.
    fake = types.ModuleType("numpy")

    class floating(float):
        __module__ = "numpy"

    class float64(floating):
        __module__ = "numpy"

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = float.__hash__

    fake.floating = floating  # type: ignore[attr-defined]
    fake.integer = int  # type: ignore[attr-defined]
    fake.ndarray = list  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "numpy", fake)
    value, problem, shown = describe_value(float64(2.0))
    assert value is None
    assert problem is ValueProblem.RIGGED
    assert shown == "an object of type 'float64'"


def test_the_harness_does_not_load_numpy_for_a_student_who_did_not() -> None:
    # Loading numpy makes a run dearer (see worker.sandbox.importable): only the student's
    # import of it may.
    code = (
        "import sys\n"
        "from decimal import Decimal\n"
        "from worker.harness.values import describe_value\n"
        "for obj in (1, 2.5, Decimal('0.5'), object(), (1, 2), True):\n"
        "    describe_value(obj)\n"
        "assert 'numpy' not in sys.modules, 'numpy was loaded'\n"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)
