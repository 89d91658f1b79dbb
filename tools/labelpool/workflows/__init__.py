"""Workflows: each a function from inputs to a result object (no printing, no parsing)."""
