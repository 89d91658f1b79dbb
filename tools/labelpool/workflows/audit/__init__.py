"""The audit commands: who judged what, when, and what it did: history, diff, pool-info.

* :mod:`.history`: ``question_history`` (one question's judgments, line by line, with judges);
* :mod:`.diff`: ``diff`` (the semantic diff of two revisions) and ``score_changes``;
* :mod:`.poolinfo`: ``pool_info`` (what built the label set, and what it can fairly compare);
* :mod:`.attribution`: ``attribute`` (the author and co-authors of a line, as git says);
* :mod:`.revisions`: ``labels_at`` (every label at a revision), ``changed_label_files``,
  ``changed_labels`` (the labels of the files two commits differ in, at each).
"""
