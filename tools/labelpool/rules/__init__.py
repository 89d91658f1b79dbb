"""Validation rules: one module per family of checks, each rule with a stable id and a doc line.

``registry`` lists every rule (the safety rules LP001-LP019 of ``yamlfile`` and LP020 onwards);
``check.check_bytes`` runs the per-file rules on one file; cross-file rules (id uniqueness,
supersession, corpus ids) run on the per-file facts in ``labelpool.workflows.validate.full``.
"""
