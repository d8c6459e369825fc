"""Celery worker and sandbox (built by a later issue)."""
