"""The pure reference engine: game trees, tree files, games, search algorithms and traces.

Nothing in this package imports Flask, SQLAlchemy or Celery.
"""
