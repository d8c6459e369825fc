"""The worker: Celery tasks (:mod:`.tasks`) over plain functions that grade a run
(:mod:`.execute`, :mod:`.grading`) and make outbound deliveries (:mod:`.outbound`), the
sandbox that runs a student's code (:mod:`.sandbox`) and the harness on both sides of it
(:mod:`.harness`)."""
