"""The ``command`` backend against small judge programs written into a temp folder, a hostile
one among them: every failure is an error reply, never a guess and never an exception."""

from __future__ import annotations

import sys
import textwrap
import threading
from pathlib import Path

from labelpool.machine.command import MAX_FAILURES, CommandBackend, request_line
from labelpool.machine.protocol import Item, Reply

GRADES = (0, 1, 2, 3)


def program(tmp_path: Path, body: str) -> tuple[str, ...]:
    script = tmp_path / "judge.py"
    script.write_text(
        "import json, sys, os, time\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n" + textwrap.indent(textwrap.dedent(body), "    "),
        encoding="utf-8",
    )
    return (sys.executable, str(script))


def item(doc: str = "d1", text: str = "a passage") -> Item:
    return Item("q1", "what is x?", doc, text, GRADES)


def backend(tmp_path: Path, body: str, timeout: float = 5.0) -> CommandBackend:
    return CommandBackend(program(tmp_path, body), cwd=tmp_path, timeout=timeout)


GOOD = """
grade = len(req["text"]) % 4
print(json.dumps({"doc_id": req["doc_id"], "grade": grade, "raw": str(grade)}), flush=True)
"""


def test_a_grade_per_request_in_order_of_asking(tmp_path: Path) -> None:
    b = backend(tmp_path, GOOD)
    try:
        assert b.ask(item("d1", "abc")) == Reply("d1", 3, raw="3")
        assert b.ask(item("d2", "abcd")) == Reply("d2", 0, raw="0")
    finally:
        b.close()


def test_the_request_line_is_the_documented_object() -> None:
    line = request_line(Item("q1", "Q?", "d1", "t\u00e9xt", (0, 1)))
    assert (
        line
        == (
            '{"question_id": "q1", "question": "Q?", "doc_id": "d1", "text": "t\u00e9xt", '
            '"grades": [0, 1]}\n'
        ).encode()
    )


def test_many_threads_get_their_own_answers(tmp_path: Path) -> None:
    b = backend(tmp_path, GOOD)
    got: dict[str, Reply] = {}

    def ask(i: int) -> None:
        got[f"d{i}"] = b.ask(item(f"d{i}", "x" * i))

    try:
        threads = [threading.Thread(target=ask, args=(i,)) for i in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        b.close()
    assert {d: r.grade for d, r in got.items()} == {f"d{i}": i % 4 for i in range(40)}


def test_an_error_answer_is_cant_judge_with_its_raw(tmp_path: Path) -> None:
    b = backend(
        tmp_path,
        """print(json.dumps({"doc_id": req["doc_id"], "error": "off topic", "raw": "hm"}),
              flush=True)""",
    )
    try:
        assert b.ask(item()) == Reply("d1", None, "off topic", raw="hm")
    finally:
        b.close()


def test_hostile_answers_are_errors_never_grades(tmp_path: Path) -> None:
    b = backend(
        tmp_path,
        """
        n = int(req["doc_id"][1:])
        outs = [
            "2.",
            "Relevant",
            json.dumps([2]),
            json.dumps({"doc_id": "other", "grade": 2}),
            json.dumps({"doc_id": req["doc_id"], "grade": 7}),
            json.dumps({"doc_id": req["doc_id"], "grade": True}),
            json.dumps({"doc_id": req["doc_id"], "grade": "2"}),
            json.dumps({"doc_id": req["doc_id"], "grade": 2.0}),
            "\\x1b]0;pwned\\x07",
        ]
        print(outs[n], flush=True)
        """,
    )
    try:
        for n in range(9):
            r = b.ask(item(f"d{n}"))
            assert r.grade is None and r.error, (n, r)
            assert r.raw, n  # the judge answered: kept for the cache
            assert r.doc_id == f"d{n}"
    finally:
        b.close()


def test_a_program_that_dies_is_an_error_and_is_started_again(tmp_path: Path) -> None:
    marker = tmp_path / "died-once"
    b = backend(
        tmp_path,
        f"""
        if not os.path.exists({str(marker)!r}):
            open({str(marker)!r}, "w").close()
            sys.stderr.write("boom\\n")
            sys.exit(3)
        print(json.dumps({{"doc_id": req["doc_id"], "grade": 1}}), flush=True)
        """,
    )
    try:
        first = b.ask(item("d1"))
        assert first.grade is None and first.raw == ""
        assert "exited with status 3" in (first.error or "")
        assert "boom" in (first.error or "")
        assert b.ask(item("d2")).grade == 1
    finally:
        b.close()


def test_a_silent_program_times_out(tmp_path: Path) -> None:
    b = backend(tmp_path, "time.sleep(30)\n", timeout=0.5)
    try:
        r = b.ask(item())
        assert r.grade is None and "did not answer in 0.5 s" in (r.error or "")
    finally:
        b.close()


def test_a_program_that_always_fails_is_given_up(tmp_path: Path) -> None:
    b = backend(tmp_path, "sys.exit(1)\n")
    try:
        for _ in range(MAX_FAILURES):
            assert b.ask(item()).grade is None
        r = b.ask(item())
        assert f"failed {MAX_FAILURES} times in a row" in (r.error or "")
    finally:
        b.close()


def test_an_endless_line_is_cut_and_refused(tmp_path: Path) -> None:
    b = backend(tmp_path, "sys.stdout.write('2' * (3 << 20)); sys.stdout.flush()\n")
    try:
        r = b.ask(item())
        assert r.grade is None and "longer than" in (r.error or "")
        assert len(r.raw) <= 200
    finally:
        b.close()


def test_a_missing_program_is_an_error(tmp_path: Path) -> None:
    b = CommandBackend((str(tmp_path / "nope"),), cwd=tmp_path)
    r = b.ask(item())
    assert r.grade is None and "cannot start the judge program" in (r.error or "")


def test_the_environment_is_clean(tmp_path: Path) -> None:
    import os

    os.environ["LABELPOOL_PLANTED_SECRET"] = "sk-planted"
    try:
        b = CommandBackend(
            program(
                tmp_path,
                """print(json.dumps({"doc_id": req["doc_id"], "error": "",
                      "raw": ",".join(sorted(os.environ))}), flush=True)""",
            ),
            cwd=tmp_path,
            env={"MY_VAR": "1"},
        )
        r = b.ask(item())
        b.close()
    finally:
        del os.environ["LABELPOOL_PLANTED_SECRET"]
    assert "LABELPOOL_PLANTED_SECRET" not in r.raw
    assert "MY_VAR" in r.raw
