"""Near-duplicate documents found from their text (issue 26): pure functions on plain data.

``text`` (``normalise``, ``words``, ``shingles``, ``hashed``), ``measure`` (``jaccard``,
``containment``), ``pairs`` (``within``: every pair among a question's documents, exact;
``across``: MinHash LSH candidates over a corpus, each verified exactly), ``group``
(``classes``: pairs into proposed classes, never a version pair in one), ``differ``
(``differing``: the words two texts do not share, one line), ``dupmap`` (``read_map``: a
duplicate map such as MS MARCO's). Nothing here reads the repository: callers pass texts and a
``linked(a, b)`` callable that says whether two documents are versions of one another.
"""
