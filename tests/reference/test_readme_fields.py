"""The README's "exercise.yaml, field by field" names every field the schema accepts, and
its example exercise.yaml loads with the real loader without a problem."""

from __future__ import annotations

import re
import shutil
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from reference.exercises import load_exercise
from reference.exercises.schema import ExerciseSchema

ROOT = Path(__file__).resolve().parents[2]
HEADING = "## exercise.yaml, field by field"
FIGURE = ROOT / "exercises" / "aima-fig5.2-alphabeta" / "fig5.2.tree.yaml"


def readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(HEADING)
    end = text.find("\n## ", start + len(HEADING))
    return text[start : end if end != -1 else len(text)]


def nested_model(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """The model a field holds (alone, in a list or beside None), and whether in a list."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, False
    for argument in typing.get_args(annotation):
        model, in_list = nested_model(argument)
        if model is not None:
            return model, in_list or typing.get_origin(annotation) is list
    return None, False


def field_paths(model: type[BaseModel], prefix: str = "") -> Iterator[str]:
    """Every field of ``model`` and of the models nested in it, as the README writes them:
    ``limits.cpu_seconds``, ``trees[].game.options``."""
    for name, field in model.model_fields.items():
        path = prefix + name
        yield path
        nested, in_list = nested_model(field.annotation)
        if nested is not None:
            yield from field_paths(nested, path + ("[]." if in_list else "."))


def test_every_field_of_the_schema_is_in_the_readme_section() -> None:
    section = readme_section()
    paths = list(field_paths(ExerciseSchema))
    assert "limits.cpu_seconds" in paths and "trees[].game.options" in paths
    missing = [path for path in paths if f"`{path}`" not in section]
    assert missing == []


def test_the_readme_example_loads_without_problems(tmp_path: Path) -> None:
    blocks = re.findall(r"```yaml\n(.*?)```", readme_section(), re.DOTALL)
    [example] = [block for block in blocks if block.startswith("title:")]
    folder = tmp_path / "readme-example"
    folder.mkdir()
    (folder / "exercise.yaml").write_text(example, encoding="utf-8")
    shutil.copy(FIGURE, folder / "fig5.2.tree.yaml")

    exercise = load_exercise(folder)

    assert [tree.name for tree in exercise.trees] == ["fig5.2", "small", "opposite-corners"]


def test_the_readme_example_gives_every_field() -> None:
    blocks = re.findall(r"```yaml\n(.*?)```", readme_section(), re.DOTALL)
    [example] = [block for block in blocks if block.startswith("title:")]
    keys = set(re.findall(r"([a-z_]+):", example))
    names = {path.rsplit(".", 1)[-1] for path in field_paths(ExerciseSchema)}
    assert names - keys == set()
