"""``labelpool report``: one self-contained HTML file with plots (the ``[report]`` extra).

``gather`` computes what the page shows through the API calls and the workflows (nothing of
the statistics is computed here); ``plots`` draws with matplotlib into inline SVG and
``svgmarks`` puts a ``data-q`` attribute on every per-question mark; ``priority`` ranks the
unjudged documents to judge first; ``timeline`` reads the labels' git history; ``page``
writes the HTML (every text from a file through ``render.sanitize.html``); ``build`` ties
them together and writes the file atomically.
"""
