"""``labelpool judge``: a local page for judging a pending batch (one layer under ``cli``).

:mod:`.session` (what a run knows: the batch, the question -> file map, this page's writes),
:mod:`.server` (the routes and their checks), :mod:`.page` (the shipped HTML, CSS and
script), :mod:`.run` (start, serve, stop on SIGINT/SIGTERM). The reading and the writes of
label files are workflows (``workflows/judge_*``).
"""
