"""Tree files: parse, validate and render game trees (YAML, with a compact notation).

See :mod:`reference.treefile.yamlfile` for the file format and
:mod:`reference.treefile.compact` for the compact notation.
"""

from reference.treefile.assemble import DEFAULT_MAX_NODES
from reference.treefile.compact import parse_compact, render_compact
from reference.treefile.render import render
from reference.treefile.scalars import shift_into_scalar
from reference.treefile.yamlfile import (
    load,
    parse,
    parse_bytes,
    validate,
)

__all__ = [
    "DEFAULT_MAX_NODES",
    "load",
    "parse",
    "parse_bytes",
    "parse_compact",
    "render",
    "render_compact",
    "shift_into_scalar",
    "validate",
]
