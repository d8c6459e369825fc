"""Building a grading report from what grading found, and fitting it to its size.

The builders make values of full meaning (a value's whole text, a message as it was
written, every step of a replay they read); :func:`reference.reporting.limits.fit` is the
one place a report is cut to size, with the one set of limits
(:class:`reference.reporting.limits.ReportLimits`). The modules:

- ``limits``: the limits of a report and :func:`~reference.reporting.limits.fit`;
- ``runs``: what one tree's run gave the report, in plain values (the worker's records
  become these);
- ``values``: a value as the report holds it;
- ``steps``: both searches of a public tree, step by step (the replay);
- ``cases``: one tree's report, and the fixed reasons a failed hidden tree gives;
- ``scores``: what makes a tree's score and the total;
- ``overall``: the submission's verdict and its sentence.
"""
