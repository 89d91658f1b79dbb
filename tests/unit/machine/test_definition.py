"""judges/NAME.yaml: loaded, checked with path:line:col, named by the sha256 of its files."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from labelpool.errors import InputError
from labelpool.machine import definition
from labelpool.machine.definition import DefinitionError, load, problems

GOOD = """\
# the example judge
kind: openai
model: qwen2.5-7b-instruct
prompt: rel.prompt.txt
grades: [0, 1, 2, 3]
temperature: 0.0
top_p: 1.0
max_tokens: 16
seed: 0
samples: 3
combine: mean
base_url: http://127.0.0.1:8000/v1
api_key_env: LLM_KEY
timeout: 30
retries: 2
"""
TEMPLATE = 'Question: {question}\nPassage: {passage}\nJSON braces stay: {"grade": 2} {other}\n'


def _repo(tmp_path: Path, text: str = GOOD, template: str | None = TEMPLATE) -> Path:
    judges = tmp_path / "judges"
    judges.mkdir(exist_ok=True)
    (judges / "rel.yaml").write_text(text, encoding="utf-8")
    if template is not None:
        (judges / "rel.prompt.txt").write_text(template, encoding="utf-8")
    return tmp_path


def test_a_good_file_loads_with_every_field(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    judge = load(root, "rel")
    assert (judge.name, judge.kind, judge.model) == ("rel", "openai", "qwen2.5-7b-instruct")
    assert judge.grades == (0, 1, 2, 3)
    assert (judge.temperature, judge.top_p, judge.max_tokens, judge.seed) == (0.0, 1.0, 16, 0)
    assert (judge.samples, judge.combine, judge.timeout, judge.retries) == (3, "mean", 30.0, 2)
    assert judge.base_url == "http://127.0.0.1:8000/v1"
    assert judge.api_key_env == "LLM_KEY"
    assert judge.template == TEMPLATE
    expected = hashlib.sha256(GOOD.encode() + TEMPLATE.encode()).hexdigest()
    assert judge.sha256 == expected
    assert judge.identity == f"rel@sha256:{expected[:12]}"


def test_defaults(tmp_path: Path) -> None:
    root = _repo(tmp_path, "kind: openai\nmodel: m\nprompt: rel.prompt.txt\n")
    judge = load(root, "rel")
    assert judge.grades == (0, 1, 2, 3)
    assert (judge.temperature, judge.top_p, judge.samples, judge.combine) == (
        0.0,
        1.0,
        1,
        "majority",
    )
    assert (judge.seed, judge.base_url, judge.api_key_env, judge.words) == (None, None, None, ())


def test_a_changed_prompt_or_definition_is_a_new_identity(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    first = load(root, "rel").identity
    (root / "judges" / "rel.prompt.txt").write_text(TEMPLATE + "Be strict.\n", encoding="utf-8")
    second = load(root, "rel").identity
    (root / "judges" / "rel.yaml").write_text(GOOD.replace("samples: 3", "samples: 5"))
    third = load(root, "rel").identity
    assert len({first, second, third}) == 3
    assert all(i.startswith("rel@sha256:") for i in (first, second, third))


def test_render_replaces_the_two_placeholders_once_and_leaves_other_braces(tmp_path: Path) -> None:
    judge = load(_repo(tmp_path), "rel")
    text = judge.render("what is {passage}?", "a {question} {0} }{")
    assert text == (
        "Question: what is {passage}?\nPassage: a {question} {0} }{\n"
        'JSON braces stay: {"grade": 2} {other}\n'
    )


def test_the_answer_words(tmp_path: Path) -> None:
    root = _repo(tmp_path, GOOD + "answer:\n  irrelevant: 0\n  relevant: 1\n")
    assert load(root, "rel").words == (("irrelevant", 0), ("relevant", 1))


@pytest.mark.parametrize(
    ("edit", "place", "rule", "words"),
    [
        (("temperature: 0.0", "temperature: 5"), ":6:14:", "LP050", "maximum"),
        (("kind: openai", "kind: llm"), ":2:7:", "LP050", "kind"),
        (("model: qwen2.5-7b-instruct\n", ""), ":2:1:", "LP050", "'model' is a required"),
        (("seed: 0", "seed: zero"), ":9:7:", "LP050", "seed"),
        (("retries: 2", "retries: 2\nfavourite: 3"), ":16:1:", "LP050", "favourite"),
        (("prompt: rel.prompt.txt", "prompt: gone.txt"), ":4:9:", "LP052", "gone.txt"),
        (("prompt: rel.prompt.txt", "prompt: ../x.txt"), ":4:9:", "LP052", ".."),
        (("prompt: rel.prompt.txt", "prompt: /etc/passwd"), ":4:9:", "LP052", "relative"),
        (("retries: 2", "retries: 2\ncommand: [x]"), ":16:1:", "LP053", "command"),
        (("retries: 2", "retries: 2\nanswer: {yes: 9}"), ":16:15:", "LP053", "9 is not a grade"),
        (("grades: [0, 1, 2, 3]", "grades: [0, 0]"), ":5:1:", "LP050", "non-unique"),
    ],
)
def test_bad_files_name_path_line_col_and_rule(
    tmp_path: Path, edit: tuple[str, str], place: str, rule: str, words: str
) -> None:
    assert edit[0] in GOOD
    root = _repo(tmp_path, GOOD.replace(*edit))
    with pytest.raises(DefinitionError) as caught:
        load(root, "rel")
    message = str(caught.value)
    assert message.startswith(str(root / "judges" / "rel.yaml") + place), message
    assert f"{rule} " in message and words in message
    assert caught.value.exit_code == 1


def test_yaml_safety_comes_first(tmp_path: Path) -> None:
    root = _repo(tmp_path, GOOD + "x: &a [1]\ny: *a\n")
    found = problems(root / "judges" / "rel.yaml")
    assert found and found[0].rule < "LP020"


def test_a_template_without_placeholders(tmp_path: Path) -> None:
    root = _repo(tmp_path, template="Judge {question}.\n")
    with pytest.raises(DefinitionError, match=r"LP052 prompt: rel.prompt.txt has no \{passage\}"):
        load(root, "rel")


@pytest.mark.parametrize(
    "line",
    [
        "api_key: sk-proj-abcdefghijklmnopqrstuvwx",
        "token: hunter2-planted-value",
        "headers: {Authorization: Bearer-planted-value}",
        "description: sk-abcdefghijklmnopqrstuvwx",
        "OPENAI_SECRET: planted-value",
    ],
)
def test_a_secret_in_the_file_is_refused_and_never_shown(tmp_path: Path, line: str) -> None:
    root = _repo(tmp_path, GOOD + line + "\n")
    found = problems(root / "judges" / "rel.yaml")
    assert [f.rule for f in found] == ["LP051"], found
    assert found[0].line == 16
    value = line.split(": ", 1)[1].strip("{}").split(": ")[-1]
    assert value not in str(found[0])
    with pytest.raises(DefinitionError) as caught:
        load(root, "rel")
    assert value not in str(caught.value)


def test_a_key_in_the_template_is_refused(tmp_path: Path) -> None:
    root = _repo(tmp_path, template=TEMPLATE + "sk-abcdefghijklmnopqrstu\n")
    found = problems(root / "judges" / "rel.yaml")
    assert [f.rule for f in found] == ["LP051"]
    assert "sk-abcdefghijklmnopqrstu" not in str(found[0])


def test_max_tokens_and_api_key_env_are_not_secrets(tmp_path: Path) -> None:
    assert problems(_repo(tmp_path) / "judges" / "rel.yaml") == []


def test_a_command_judge_needs_no_prompt(tmp_path: Path) -> None:
    root = _repo(tmp_path, "kind: command\nmodel: minilm\ncommand: [python, judge.py]\n", None)
    judge = load(root, "rel")
    assert (judge.kind, judge.command, judge.template) == ("command", ("python", "judge.py"), "")
    assert judge.sha256 == hashlib.sha256((root / "judges" / "rel.yaml").read_bytes()).hexdigest()


def test_missing_judges_and_bad_names(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    with pytest.raises(InputError, match="no machine judge 'other'"):
        load(root, "other")
    with pytest.raises(InputError, match="not a machine judge's name"):
        load(root, "../rel")
    assert definition.NAME_RE.match("gpt-4o.umbrela_v2")
