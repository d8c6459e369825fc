"""The ``grader`` command line."""

from __future__ import annotations

import click

from grader.cli import hidden as _hidden  # noqa: F401  (registers its commands)
from grader.cli.exercises import exercises
from grader.cli.grade import grade
from grader.cli.service import courses, db, demo, users


@click.group()
@click.version_option(package_name="gametree-grader")
def main() -> None:
    """Grade students' adversarial-search implementations against reference traces."""


main.add_command(exercises)
main.add_command(grade)
main.add_command(db)
main.add_command(users)
main.add_command(courses)
main.add_command(demo)
