"""Rendering: result objects as text, JSON, CSV or markdown (no logic, no I/O)."""
