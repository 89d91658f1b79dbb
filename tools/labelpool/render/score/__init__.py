"""``score`` rendered: ``formats`` (JSON, CSV, markdown and the view of a score report) and
``table`` (the text table fitted to a width, with rich; apart so that JSON, CSV and markdown
never import rich)."""
