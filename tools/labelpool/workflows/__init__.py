"""Workflows: each a function from inputs to a result object (no printing, no parsing).

One subpackage per command family (``evaluate``: score, compare, check, bias; ``audit``:
history, diff, pool-info; ``pool``; ``merge``; ``judge``: the page's reading and writing;
``importing``; ``validate``), one module per command that stands alone (``init``, ``fmt``,
``todo``, ``exporting``). Each subpackage's ``__init__`` names its public functions and
imports nothing, so a command loads only the modules it uses.
"""
