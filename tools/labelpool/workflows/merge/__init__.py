"""``labelpool merge``: fold the filled verdicts of pending batches into the label lists.

* :mod:`.commits`: ``merge`` (one commit per judge, all or nothing) and ``preview``
  (the same fold written nowhere, for ``score --with-pending``);
* :mod:`.collect`: ``collect`` (every pending entry with its judge);
* :mod:`.dryrun`: ``dry_run`` (every decision folded once, nothing written);
* :mod:`.read`: ``read_fast`` (a label's pending block as plain data and lines);
* :mod:`.fold`: ``fold`` (one verdict into one label's lists);
* :mod:`.file`: ``fold_file`` (one label's fold, as a text edit or through the round-trip tree);
* :mod:`.text`: ``fold_text`` (the text edit, held byte-identical to the round-trip path).
"""
