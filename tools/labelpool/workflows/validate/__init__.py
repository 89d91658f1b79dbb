"""``labelpool validate``: every rule on the label files, and pool provenance.

* :mod:`.warm`: ``cached`` (the warm path: nothing changed since the last run; imports no rule);
* :mod:`.full`: ``validate`` (every rule, with a per-file result cache);
* :mod:`.provenance`: ``check`` (every document a ``pool`` entry claims was judged was).
"""
