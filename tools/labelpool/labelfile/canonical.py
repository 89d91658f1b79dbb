"""The canonical form of a label file (what ``labelpool fmt`` writes): :func:`format_label`."""

from __future__ import annotations

from labelpool.labelfile.edit import ID_LISTS
from labelpool.yamlfile.tree import CommentedMap, CommentedSeq, Fixer, sort_mapping, sort_seq


def format_label(data: CommentedMap, text: str | None = None) -> None:
    """Bring a label's round-trip tree into canonical form, in place (what ``fmt`` does).

    Id lists, ``grades`` and every class sorted in code-point order, classes by their first
    member; strings a YAML 1.1 or 1.2 reader could misread are single-quoted (a plain
    ``2026-06-02`` or ``0123`` is turned back into the string written, from ``text`` when
    given); known lists in block style. Comments, key order and unknown keys are kept.
    The record of judges (``judge``, ``verdicts``) as :func:`_format_record` says.
    Idempotent.
    """
    fix = Fixer(text)
    fix.value(data, "id")
    fix.value(data, "question")
    _format_record(fix, data)
    for key in ID_LISTS:
        seq = data.get(key)
        if isinstance(seq, CommentedSeq):
            _fix_and_sort(fix, seq)
    grades = data.get("grades")
    if isinstance(grades, CommentedMap):
        fix.keys(grades)
        sort_mapping(grades)
        _block_when_filled(grades)
    classes = data.get("relevant_classes")
    if isinstance(classes, CommentedSeq):
        for cls in classes:
            if isinstance(cls, CommentedSeq):
                _fix_and_sort(fix, cls)
            elif isinstance(cls, CommentedMap) and isinstance(cls.get("members"), CommentedSeq):
                members = cls["members"]  # the mapping form: one flow line, as written
                fix.items(members)
                sort_seq(members)
                members.fa.set_flow_style()
                if isinstance(cls.get("extends"), str):
                    fix.value(cls, "extends")
                proposed = cls.get("proposed")
                if isinstance(proposed, CommentedMap):
                    fix.value(proposed, "method")
                    proposed.fa.set_flow_style()
                _order_keys(cls, CLASS_KEYS)
        sort_seq(classes, key=_class_key)
        _block_when_filled(classes)
    pool = data.get("pool")
    if isinstance(pool, CommentedSeq):
        for entry in pool:
            if isinstance(entry, CommentedMap):
                for key in ("system", "date", "run"):
                    if key in entry and entry[key] is not None:
                        fix.value(entry, key)
    pending = data.get("pending")
    if isinstance(pending, CommentedSeq):
        for batch in pending:
            if not isinstance(batch, CommentedMap):
                continue
            for key in ("batch", "date"):
                if key in batch and batch[key] is not None:
                    fix.value(batch, key)
            systems = batch.get("systems")
            if isinstance(systems, CommentedSeq):
                fix.items(systems)
            docs = batch.get("docs")
            if not isinstance(docs, CommentedSeq):
                continue
            for entry in docs:
                if not isinstance(entry, CommentedMap):
                    continue
                fix.value(entry, "doc")
                verdict = entry.get("verdict")
                if isinstance(verdict, str):
                    fix.value(entry, "verdict")
                elif isinstance(verdict, CommentedMap) and "duplicate-of" in verdict:
                    fix.value(verdict, "duplicate-of")


def _class_key(cls: object) -> tuple[int, list[str]]:
    """Classes sort by their members, a list or a mapping's ``members`` (a proposal); the
    extensions of a class (``extends``) after every class, by the member they name."""
    members = cls.get("members") if isinstance(cls, CommentedMap) else cls
    names = [str(m) for m in members] if isinstance(members, list) else [str(members)]
    if isinstance(cls, CommentedMap) and "extends" in cls:
        return 1, [str(cls["extends"]), *names]
    return 0, names


CLASS_KEYS = ("members", "extends", "proposed")


def _order_keys(mapping: CommentedMap, known: tuple[str, ...]) -> None:
    """The keys of ``mapping`` in the order of ``known``, then any unknown ones as written."""
    order = [k for k in known if k in mapping] + [k for k in mapping if k not in known]
    if list(mapping) != order:
        for key in order:
            mapping.move_to_end(key)


LINE_KEYS = ("judge", "adjudicator", "class", "kind", "verdict")


def _format_record(fix: Fixer, data: CommentedMap) -> None:
    """``judge`` and ``judge_kind`` quoted where needed (``judge_kind: person``, the default,
    dropped); ``verdicts`` in code-point order of its documents, one flow line per verdict,
    keys ``judge``/``adjudicator``/``class``, ``kind`` (``kind: person`` dropped), ``verdict``, then
    any unknown ones as written."""
    for key in ("judge", "judge_kind"):
        if key in data and isinstance(data[key], str):
            fix.value(data, key)
    if data.get("judge_kind") == "person":
        del data["judge_kind"]
    record = data.get("verdicts")
    if not isinstance(record, CommentedMap):
        return
    fix.keys(record)
    sort_mapping(record)
    _block_when_filled(record)
    for entries in record.values():
        if not isinstance(entries, CommentedSeq):
            continue
        _block_when_filled(entries)
        for line in entries:
            if isinstance(line, CommentedMap):
                _format_line(fix, line)


def _format_line(fix: Fixer, line: CommentedMap) -> None:
    if line.get("kind") == "person":
        del line["kind"]
    for key in ("judge", "adjudicator", "class", "kind"):
        if key in line and not isinstance(line[key], (CommentedMap, CommentedSeq)):
            fix.value(line, key)
    verdict = line.get("verdict")
    if isinstance(verdict, str):
        fix.value(line, "verdict")
    elif isinstance(verdict, CommentedMap) and "duplicate-of" in verdict:
        fix.value(verdict, "duplicate-of")
        verdict.fa.set_flow_style()
    _order_keys(line, LINE_KEYS)
    line.fa.set_flow_style()


def _fix_and_sort(fix: Fixer, seq: CommentedSeq) -> None:
    """Strings fixed, sorted in code-point order, block style when not empty."""
    fix.items(seq)
    sort_seq(seq)
    _block_when_filled(seq)


def _block_when_filled(node: CommentedMap | CommentedSeq) -> None:
    """Block style for a list or mapping with items (an empty one keeps its ``[]``/``{}``)."""
    if len(node):
        node.fa.set_block_style()
