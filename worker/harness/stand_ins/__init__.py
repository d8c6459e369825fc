"""The project's stand-ins for a course's own modules, which a student's file imports by
the course's names (``import util``, ``from game import Directions``): each is installed in
``sys.modules`` under that name for a run under the course's contract, and removed after
(see :mod:`worker.harness.contracts`). Written for this project from the courses' published
interfaces: only what a search over a game tree uses, with the same names and meanings."""
