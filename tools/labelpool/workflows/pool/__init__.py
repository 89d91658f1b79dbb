"""``labelpool pool``: put the documents the runs disagree on in front of a judge.

* :mod:`.plan`: ``plan`` (the batch: the union less what is judged, the budget, the branch);
* :mod:`.write`: ``run`` (the plan written into the label files and committed on its branch);
* :mod:`.entries`: ``add_pool_entries`` (the ``pool`` provenance entries pool and merge add).
"""
