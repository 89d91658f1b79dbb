"""The ``import`` and ``add`` commands: judgments, questions and a corpus from other formats.

* :mod:`.labels`: ``read_qrels``, ``read_beir``, ``read_jsonl``, ``write_labels`` and
  ``add_question`` (judgments into label files);
* :mod:`.queries`: ``read_queries`` (question texts: TSV, JSON Lines, JSON, CAsT and TREC topics);
* :mod:`.corpus`: ``import_corpus`` (the configured corpus file);
* :mod:`.input`: what every importer shares (errors, line reading, id checks).
"""
