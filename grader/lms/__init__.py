"""The LMS integration: integrations and their secrets, the signed webhook in, result
callbacks out."""
