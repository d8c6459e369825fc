"""The student-facing side of a run: the ``game`` object (:mod:`.game`), loading and calling
the student's module (:mod:`.student`), and the trusted :class:`~.host.TreeHost` that answers
and records every game request.

The sandbox (``worker.sandbox``) carries the same requests over a channel to a TreeHost in
the grader; :func:`.local.run_local` does it in process for trusted implementations.
Nothing is imported here: the sandboxed child imports only what it needs.
"""
