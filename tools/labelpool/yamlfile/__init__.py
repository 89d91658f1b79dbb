"""Safe YAML, knowing nothing of labels: the only code that imports PyYAML or ruamel.

* :mod:`.textcheck`: the guard's checks on bytes and text (LP001-LP006), the size and depth
  bounds, :data:`SAFETY_RULES`.
* :mod:`.events`: one pass over libyaml's events, the guard's event checks (LP006-LP015)
  and the plain data together (:func:`scan_events`).
* :mod:`.canonical`: the block style labelpool writes, read line by line
  (:func:`read_canonical`).
* :mod:`.reading`: **the one reading** of a file's bytes (:func:`loads_checked`,
  :func:`loads_fast`, :func:`load_fast` are it): one value per plain scalar, or LP021 where
  YAML readers disagree; every command reads label files through it; :func:`loads_written`
  reads back what a writer is about to write.
* :mod:`.escapes`: LP003 and LP004 on the characters double-quoted escapes stand for.
* :mod:`.fast`: PyYAML's C safe loader and its plain-scalar resolution (the reference the
  tests hold the line reader to).
* :mod:`.guard`: :func:`guard`, :func:`scan`, and the guarded reads :func:`loads_checked`,
  :func:`load_fast`.
* :mod:`.roundtrip`: ruamel round-trip reading and writing (:func:`load_roundtrip`,
  :func:`dumps`, :func:`save`), held to the one reading; :func:`node_position`.
* :mod:`.quoting`: :func:`needs_quotes`, :func:`misread`, :func:`scalar`.
* :mod:`.tree`: comment-keeping edits of a round-trip tree (sorting, block lists, the fixer).
* :mod:`.nodes`: a node tree with positions read as YAML 1.2 core (the rules' view).

Every error is a :class:`YamlError` (an input error, exit 1) carrying path, line and column.
"""

from labelpool.yamlfile.canonical import NotCanonical, read_canonical
from labelpool.yamlfile.errors import UnwritableError, YamlError
from labelpool.yamlfile.events import EventScan, scan_events
from labelpool.yamlfile.fast import ODD, KeyPath, PlainHook, PlainText
from labelpool.yamlfile.guard import guard, load_fast, loads_checked, read_guarded, scan
from labelpool.yamlfile.quoting import id_text, misread, needs_quotes, scalar
from labelpool.yamlfile.reading import (
    Reading,
    ambiguous_finding,
    is_ambiguous,
    loads_written,
    read_text,
)
from labelpool.yamlfile.reading import loads_text as loads_fast
from labelpool.yamlfile.roundtrip import (
    Document,
    dumps,
    load_roundtrip,
    loads_roundtrip,
    node_position,
    save,
    to_plain,
)
from labelpool.yamlfile.textcheck import MAX_BYTES, MAX_DEPTH, SAFETY_RULES, text_findings
from labelpool.yamlfile.tree import CommentedMap, CommentedSeq

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "ODD",
    "SAFETY_RULES",
    "CommentedMap",
    "CommentedSeq",
    "Document",
    "EventScan",
    "KeyPath",
    "NotCanonical",
    "PlainHook",
    "PlainText",
    "Reading",
    "UnwritableError",
    "YamlError",
    "ambiguous_finding",
    "dumps",
    "guard",
    "id_text",
    "is_ambiguous",
    "load_fast",
    "load_roundtrip",
    "loads_checked",
    "loads_fast",
    "loads_roundtrip",
    "loads_written",
    "misread",
    "needs_quotes",
    "node_position",
    "read_canonical",
    "read_guarded",
    "read_text",
    "save",
    "scalar",
    "scan",
    "scan_events",
    "text_findings",
    "to_plain",
]
