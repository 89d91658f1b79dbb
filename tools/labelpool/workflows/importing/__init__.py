"""The ``import`` and ``add`` commands: judgments, questions and a corpus from other formats.

* :mod:`.labels`: ``read_qrels``, ``read_beir``, ``write_labels`` and ``add_question``
  (judgments into label files; ``read_jsonl`` from :mod:`.jsonl`);
* :mod:`.queries`: ``read_queries`` (question texts: TSV, JSON Lines, JSON, CAsT and TREC topics);
* :mod:`.corpus`: ``import_corpus`` (the configured corpus file);
* :mod:`.net`: every label text through validate's per-file rules before anything is written;
* :mod:`.input`: what every importer shares (errors, bounded line reading, the per-record
  checks of ids, texts and grades, where a question came from).
"""
