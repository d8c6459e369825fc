"""Result callbacks: the ``submission.graded`` / ``submission.failed`` events (to be built)."""
