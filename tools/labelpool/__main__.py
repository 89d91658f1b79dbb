"""``python -m labelpool``: the same command line as ``labelpool``."""

from labelpool.cli import main

main()
