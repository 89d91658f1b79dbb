"""``score_files`` freezes the loaded labels out of the garbage collector's reach while it
scores, and gives every object back and the collector's state as it found it, on success
and on an error alike."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from labelpool import config
from labelpool.labelset import LabelSetError
from labelpool.scoring import measures
from labelpool.workflows.evaluate import score
from provenance_scenario import write_label, write_run


def _score(repo: Path) -> list[score.SystemScore]:
    cfg = config.load(repo)
    run = write_run(repo, "bm25", {"q1": ["a", "b", "c"], "q2": ["d", "e"]})
    return score.score_files(cfg, [run], ["bm25"], measures.parse(["P@2"]), k=2)


@pytest.mark.parametrize("enabled", [True, False])
def test_scoring_leaves_the_collector_as_it_found_it(repo: Path, enabled: bool) -> None:
    write_label(repo, "q1", judged=["a", "b"], relevant=["a"])
    write_label(repo, "q2", judged=["d", "e"], relevant=["e"])
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        frozen = gc.get_freeze_count()
        results = _score(repo)
        assert gc.isenabled() is enabled
        assert gc.get_freeze_count() == frozen == 0
    finally:
        (gc.enable if was else gc.disable)()
    assert [r.system for r in results] == ["bm25"]


def test_an_error_also_unfreezes(repo: Path) -> None:
    write_label(repo, "q1", judged=["a", "b"], relevant=["a"])
    (repo / "labels" / "q2.yaml").write_text("id: q2\nquestion: [\n", encoding="utf-8")
    assert gc.isenabled()
    with pytest.raises(LabelSetError):
        _score(repo)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
