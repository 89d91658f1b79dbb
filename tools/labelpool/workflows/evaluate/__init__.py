"""The scoring commands: ``score``, ``compare``, ``check``, ``bias`` and trec_eval's mode.

* :mod:`.score`: ``score_files`` (each run against the labels);
* :mod:`.trec_eval`: ``score_run`` (one run as trec_eval 10.0 evaluates it);
* :mod:`.compare`: ``compare`` (the delta, both unjudged rates, their reading, the noise);
* :mod:`.noise`: ``counts`` (the draws and resamples of the noise floor, within a budget);
* :mod:`.verdict`: ``verdict_of``, ``to_judge`` (a comparison's verdict in words, and the
  batches that would settle it);
* :mod:`.check`: ``check`` (the CI gate: a run against its reference);
* :mod:`.bias`: ``audit`` (the leave-one-system-out pool-bias audit);
* :mod:`.run_args`: ``select`` (what a command's run arguments stand for).
"""
