"""The judging page's workflows (``labelpool judge``): read a batch, write a verdict, commit.

* :mod:`.queue`: ``load`` (the pending documents of one batch, as the page shows them);
* :mod:`.facts`: ``Facts`` (a document's text and version facts);
* :mod:`.tokens`: ``Tokens`` (what the page holds of an entry: an HMAC under the run's key);
* :mod:`.write`: ``write_verdict`` (one verdict, checked by validate's rules and atomic, under
  the repository lock);
* :mod:`.commit`: ``commit`` (the files the page changed, as the local git identity).
"""
