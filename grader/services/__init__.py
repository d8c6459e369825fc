"""The service's operations as plain functions over a SQLAlchemy session (no Flask here)."""
