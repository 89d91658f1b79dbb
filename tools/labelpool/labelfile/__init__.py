"""The label format on top of :mod:`labelpool.yamlfile`: a label file's YAML shape.

* :mod:`.edit`: canonical key order and sorted id lists (:func:`set_sorted_list`,
  :func:`add_to_sorted_list`, :func:`remove_from_list`, :func:`set_mapping_item`,
  :func:`remove_mapping_item`, :func:`canonical_index`).
* :mod:`.record`: the record of who judged (``judge``, ``verdicts``) as canonical tree edits
  and the direct text of a verdict line.
* :mod:`.canonical`: :func:`format_label`, the canonical form ``labelpool fmt`` writes.
* :mod:`.new`: :func:`new_label_text` (or :func:`label_file_text` of a :class:`NewLabel`), a
  new label file in that form (``import``, ``add``); :mod:`.newtext` writes the common case
  directly, byte for byte the ruamel dump.
"""

from labelpool.labelfile.canonical import format_label
from labelpool.labelfile.edit import (
    ID_LISTS,
    add_to_sorted_list,
    canonical_index,
    remove_from_list,
    remove_mapping_item,
    set_mapping_item,
    set_sorted_list,
)
from labelpool.labelfile.new import label_file_text, new_label_text, written_label
from labelpool.labelfile.newtext import NewLabel, PoolEntry

__all__ = [
    "ID_LISTS",
    "NewLabel",
    "PoolEntry",
    "add_to_sorted_list",
    "canonical_index",
    "format_label",
    "label_file_text",
    "new_label_text",
    "remove_from_list",
    "remove_mapping_item",
    "set_mapping_item",
    "set_sorted_list",
    "written_label",
]
