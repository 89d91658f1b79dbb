"""``compare`` and ``check`` rendered: ``formats`` (JSON, markdown: ``to_json``, ``markdown``,
``render_json``) and ``text`` (the compact text at a width, ``--verbose``, the next steps)."""
