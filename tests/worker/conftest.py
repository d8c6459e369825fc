"""The service's database fixtures (tests/grader/conftest.py), for the worker's tests of
work that reads and stores rows: an added implementation's check, the grading's suspects."""

from tests.grader.conftest import (  # noqa: F401  (fixtures)
    backend,
    course,
    course_template,
    database,
    make_user,
    migrated_template,
    pg_url,
    settings,
)
