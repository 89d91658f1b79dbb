"""The label index: the parsed label files kept under the cache folder, keyed by git blob id.

``blobids.blob_ids(paths)``: each file's git blob id, from ``git ls-files -s`` for tracked
files git says are clean (``git diff-files``, git's own racy rules), hashed in-process as
``git hash-object`` does for every other file (dirty, untracked, outside a repository);
``store.load`` / ``store.save``: the columnar file (Arrow IPC, a checked header);
``files.read(paths, parse, tag)``: the files' plain data, parsed only for blob ids the index
has not seen, and ``files.Reading.save`` to keep what was learnt.
"""
