"""The grading service: CLI, web application, models and services."""
