"""The one place command bodies reach the heavy modules (start-up speed).

``labelpool --help`` must start in at most 0.15 s. The workflows, the renderers, the label set,
the run readers and rich pull in ruamel, numpy, pyarrow, jsonschema and rich, which together
take longer than that to import. So no module of ``labelpool.cli`` imports them at its top:
a command body reaches them as attributes of this module (``_lazy.merge_workflow.merge(...)``),
and the first access imports the module (PEP 562 module ``__getattr__``) and keeps it here.

For the type checker the same names are plain imports (the ``TYPE_CHECKING`` branch), so
``mypy --strict`` checks every call a command makes. Every other import in ``labelpool.cli``
goes at the top of its module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_MODULES = {
    "api_agreement": "labelpool.api.agreements",
    "api_compare": "labelpool.api.comparison",
    "api_pool": "labelpool.api.pooling",
    "api_repo": "labelpool.api.repository",
    "api_score": "labelpool.api.scoring",
    "gitio": "labelpool.gitio",
    "labelset": "labelpool.labelset",
    "measures": "labelpool.scoring.measures",
    "oracle": "labelpool.oracle",
    "runs": "labelpool.runs",
    "rule_registry": "labelpool.rules.registry",
    "rich_console": "rich.console",
    "rich_progress": "rich.progress",
    "bias_workflow": "labelpool.workflows.evaluate.bias",
    "check_workflow": "labelpool.workflows.evaluate.check",
    "classes_workflow": "labelpool.workflows.classes.propose",
    "classes_report": "labelpool.render.classes",
    "duplicates_workflow": "labelpool.workflows.importing.duplicates",
    "compare_workflow": "labelpool.workflows.evaluate.compare",
    "diff_workflow": "labelpool.workflows.audit.diff",
    "export_workflow": "labelpool.workflows.exporting",
    "fmt_workflow": "labelpool.workflows.fmt",
    "upgrade_workflow": "labelpool.workflows.fmt.upgrade",
    "history_workflow": "labelpool.workflows.audit.history",
    "import_workflow": "labelpool.workflows.importing.labels",
    "import_corpus": "labelpool.workflows.importing.corpus",
    "init_workflow": "labelpool.workflows.init",
    "judge_run": "labelpool.judge.run",
    "judge_machine": "labelpool.workflows.judge.machine",
    "machine_definition": "labelpool.machine.definition",
    "judge_define": "labelpool.workflows.judge.define",
    "merge_workflow": "labelpool.workflows.merge.commits",
    "pool_workflow": "labelpool.workflows.pool.write",
    "poolinfo_workflow": "labelpool.workflows.audit.poolinfo",
    "provenance_workflow": "labelpool.workflows.validate.provenance",
    "run_args": "labelpool.workflows.evaluate.run_args",
    "score_workflow": "labelpool.workflows.evaluate.score",
    "todo_workflow": "labelpool.workflows.todo",
    "validate_workflow": "labelpool.workflows.validate.full",
    "validate_warm": "labelpool.workflows.validate.warm",
    "validate_judges": "labelpool.workflows.validate.judges",
    "bias_report": "labelpool.render.bias",
    "compare_report": "labelpool.render.compare.formats",
    "compare_text": "labelpool.render.compare.text",
    "diff_report": "labelpool.render.diff",
    "history_report": "labelpool.render.history",
    "merge_report": "labelpool.render.merge",
    "pool_report": "labelpool.render.pool",
    "report_build": "labelpool.report.build",
    "poolinfo_report": "labelpool.render.poolinfo",
    "score_report": "labelpool.render.score.formats",
    "score_table": "labelpool.render.score.table",
    "todo_report": "labelpool.render.todo",
    "trec_eval": "labelpool.scoring.trec_eval",
    "trec_eval_report": "labelpool.render.trec_eval",
    "trec_eval_workflow": "labelpool.workflows.evaluate.trec_eval",
    "webbrowser": "webbrowser",
}

__all__ = [
    "api_agreement",
    "api_compare",
    "api_pool",
    "api_repo",
    "api_score",
    "bias_report",
    "bias_workflow",
    "check_workflow",
    "classes_report",
    "classes_workflow",
    "compare_report",
    "compare_text",
    "compare_workflow",
    "diff_report",
    "diff_workflow",
    "duplicates_workflow",
    "export_workflow",
    "fmt_workflow",
    "gitio",
    "history_report",
    "history_workflow",
    "import_corpus",
    "import_workflow",
    "init_workflow",
    "judge_define",
    "judge_machine",
    "judge_run",
    "labelset",
    "machine_definition",
    "measures",
    "merge_report",
    "merge_workflow",
    "oracle",
    "pool_report",
    "pool_workflow",
    "poolinfo_report",
    "poolinfo_workflow",
    "provenance_workflow",
    "report_build",
    "rich_console",
    "rich_progress",
    "rule_registry",
    "run_args",
    "runs",
    "score_report",
    "score_table",
    "score_workflow",
    "todo_report",
    "todo_workflow",
    "trec_eval",
    "trec_eval_report",
    "trec_eval_workflow",
    "upgrade_workflow",
    "validate_judges",
    "validate_warm",
    "validate_workflow",
    "webbrowser",
]

if TYPE_CHECKING:
    import webbrowser

    import rich.console as rich_console
    import rich.progress as rich_progress

    from labelpool import gitio, labelset, oracle, runs
    from labelpool.api import agreements as api_agreement
    from labelpool.api import comparison as api_compare
    from labelpool.api import pooling as api_pool
    from labelpool.api import repository as api_repo
    from labelpool.api import scoring as api_score
    from labelpool.judge import run as judge_run
    from labelpool.machine import definition as machine_definition
    from labelpool.render import bias as bias_report
    from labelpool.render import classes as classes_report
    from labelpool.render import diff as diff_report
    from labelpool.render import history as history_report
    from labelpool.render import merge as merge_report
    from labelpool.render import pool as pool_report
    from labelpool.render import poolinfo as poolinfo_report
    from labelpool.render import todo as todo_report
    from labelpool.render import trec_eval as trec_eval_report
    from labelpool.render.compare import formats as compare_report
    from labelpool.render.compare import text as compare_text
    from labelpool.render.score import formats as score_report
    from labelpool.render.score import table as score_table
    from labelpool.report import build as report_build
    from labelpool.rules import registry as rule_registry
    from labelpool.scoring import measures, trec_eval
    from labelpool.workflows import exporting as export_workflow
    from labelpool.workflows import fmt as fmt_workflow
    from labelpool.workflows import init as init_workflow
    from labelpool.workflows import todo as todo_workflow
    from labelpool.workflows.audit import diff as diff_workflow
    from labelpool.workflows.audit import history as history_workflow
    from labelpool.workflows.audit import poolinfo as poolinfo_workflow
    from labelpool.workflows.classes import propose as classes_workflow
    from labelpool.workflows.evaluate import bias as bias_workflow
    from labelpool.workflows.evaluate import check as check_workflow
    from labelpool.workflows.evaluate import compare as compare_workflow
    from labelpool.workflows.evaluate import run_args
    from labelpool.workflows.evaluate import score as score_workflow
    from labelpool.workflows.evaluate import trec_eval as trec_eval_workflow
    from labelpool.workflows.fmt import upgrade as upgrade_workflow
    from labelpool.workflows.importing import corpus as import_corpus
    from labelpool.workflows.importing import duplicates as duplicates_workflow
    from labelpool.workflows.importing import labels as import_workflow
    from labelpool.workflows.judge import define as judge_define
    from labelpool.workflows.judge import machine as judge_machine
    from labelpool.workflows.merge import commits as merge_workflow
    from labelpool.workflows.pool import write as pool_workflow
    from labelpool.workflows.validate import full as validate_workflow
    from labelpool.workflows.validate import judges as validate_judges
    from labelpool.workflows.validate import provenance as provenance_workflow
    from labelpool.workflows.validate import warm as validate_warm
else:

    def __getattr__(name: str) -> object:
        try:
            module = importlib.import_module(_MODULES[name])
        except KeyError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        globals()[name] = module
        return module
