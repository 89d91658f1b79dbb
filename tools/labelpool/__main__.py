"""``python -m labelpool``: the same command line as ``labelpool``, with its exit code."""

from labelpool.cli import main

raise SystemExit(main())
