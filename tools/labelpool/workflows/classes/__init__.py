"""``labelpool classes propose`` and what ``import duplicates`` shares with it.

* :mod:`.propose`: ``propose`` (near-duplicate classes found in the corpus text, proposed in
  the label files);
* :mod:`.write`: ``proposal_texts`` (the proposals as new label texts, checked by validate's
  rules) and ``land`` (written on a new branch in one commit, all or nothing).
"""
