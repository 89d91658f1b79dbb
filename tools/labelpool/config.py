"""Find the label repository's root and read its ``[tool.labelpool]`` table."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import tomllib

from labelpool.errors import UsageError

FORMAT = 1
# how scoring counts a document whose judges disagree and no adjudicator has decided
# (docs/judging.md#disputes); the model (labelpool.verdicts) applies them
DISPUTE_POLICIES = ("bounds", "majority", "max", "min")
# whose verdicts scoring counts (docs/scoring.md#machine-verdicts): labelpool.verdicts.SELECTIONS
JUDGE_SELECTIONS = ("people", "machines", "all")
DEFAULT_VERSION_PATTERN = r"^(?P<family>.+)-v(?P<version>[0-9]+)$"


class ConfigError(UsageError):
    """The repository or its configuration cannot be used; the message says why (exit 2)."""


@dataclass(frozen=True)
class Readings:
    """Thresholds for reading two unjudged rates side by side (docs/compare.md)."""

    high: float = 0.10  # a rate above this is high
    ratio: float = 3.0  # low/low is uninterpretable if one rate is >= ratio x the other ...
    min_difference: float = 0.05  # ... and they differ by at least this much


@dataclass(frozen=True)
class Config:
    root: Path
    labels_dir: Path
    runs_dir: Path
    corpus: Path | None = None
    versions: Path | None = None
    version_pattern: str | None = DEFAULT_VERSION_PATTERN
    readings: Readings = field(default_factory=Readings)
    alpha: float = 0.05
    max_file_bytes: int = 4 * 1024 * 1024
    max_depth: int = 32
    guidelines: Path | None = None  # judging guidelines shown by `labelpool judge`
    baseline: str | None = None  # the system CI compares every run against (`pool-info --baseline`)
    disputes: str = "bounds"  # how scoring counts an open dispute (labelpool.verdicts.POLICIES)
    # the machine judges' definitions (judges/NAME.yaml); None: root/judges
    judges_dir: Path | None = None
    judges: str = "all"  # whose verdicts scoring counts (labelpool.verdicts.SELECTIONS)
    # check fails while a machine judge's kappa with people (on at least machine_min_sample
    # documents both judged) is below machine_min_agreement (None: off)
    machine_min_agreement: float | None = None
    machine_min_sample: int = 50

    @property
    def judges_folder(self) -> Path:
        """The folder of machine judges' definitions (``[tool.labelpool] judges``)."""
        return self.judges_dir if self.judges_dir is not None else self.root / "judges"


class PatternError(UsageError, ValueError):
    """RE2 refuses a pattern; the message is RE2's."""


@lru_cache(maxsize=8)
def compile_pattern(pattern: str) -> Any:
    """``pattern`` compiled by RE2 (linear-time matching, no backreferences or lookaround);
    :class:`PatternError` with RE2's message when RE2 refuses it. The result has ``match``
    and ``groupindex`` like a ``re.Pattern``."""
    import re2  # its extension loads in 5 ms: only a version pattern needs it, not start-up

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own error line on stderr
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        text = detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
        raise PatternError(text) from None


CLI_NAMING = "use --repo DIR"  # how the command line names a repository
API_NAMING = "pass repo=PATH"  # how the Python API does (labelpool.api)


def find_root(start: Path, naming: str = CLI_NAMING) -> Path:
    """Nearest folder at or above ``start`` holding a pyproject.toml with ``[tool.labelpool]``;
    ``naming``: how the caller's user names another repository, for the error."""
    start = start.resolve()
    for folder in (start, *start.parents):
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and _labelpool_table(pyproject) is not None:
            return folder
    raise ConfigError(
        "not inside a label repository (no pyproject.toml with a [tool.labelpool] "
        f"table found here or above; {naming}, or see `labelpool init --help` to "
        "start one)",
        path=start,
    )


def _labelpool_table(pyproject: Path) -> dict[str, object] | None:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read: {exc}", path=pyproject) from None
    table = data.get("tool", {}).get("labelpool")
    return table if isinstance(table, dict) else None


def load(repo: Path | None = None, *, naming: str = CLI_NAMING) -> Config:
    """Configuration of the repository at ``repo`` (or the one holding the working folder);
    ``naming``: how the caller names a repository (:data:`CLI_NAMING`, :data:`API_NAMING`)
    in the error when there is none."""
    root = find_root(repo if repo is not None else Path.cwd(), naming)
    pyproject = root / "pyproject.toml"
    table = _labelpool_table(pyproject)
    if table is None:
        raise ConfigError("no [tool.labelpool] table", path=pyproject)
    fmt = table.get("format")
    if fmt != FORMAT:
        raise ConfigError(
            f"[tool.labelpool] format = {fmt!r}; this labelpool reads format {FORMAT}",
            path=pyproject,
        )

    def path(key: str, default: str | None) -> Path | None:
        value = table.get(key, default)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise ConfigError(f"[tool.labelpool] {key} must be a string path", path=pyproject)
        return root / value

    pattern = table.get("version_pattern", DEFAULT_VERSION_PATTERN)
    if pattern is not None and pattern != "":
        if not isinstance(pattern, str):
            raise ConfigError("[tool.labelpool] version_pattern must be a string", path=pyproject)
        try:
            compiled = compile_pattern(pattern)
        except PatternError as exc:
            raise ConfigError(
                f"[tool.labelpool] version_pattern: RE2 refuses {pattern!r}: {exc} (RE2 "
                "syntax: no backreferences or lookaround)",
                path=pyproject,
            ) from None
        if not {"family", "version"} <= set(compiled.groupindex):
            raise ConfigError(
                "[tool.labelpool] version_pattern needs named groups (?P<family>) and "
                "(?P<version>)",
                path=pyproject,
            )
    else:
        pattern = None

    raw_readings = table.get("readings", {})
    if not isinstance(raw_readings, dict):
        raise ConfigError("[tool.labelpool.readings] must be a table", path=pyproject)
    try:
        readings = Readings(
            high=float(raw_readings.get("high", Readings.high)),
            ratio=float(raw_readings.get("ratio", Readings.ratio)),
            min_difference=float(raw_readings.get("min_difference", Readings.min_difference)),
        )
        raw_alpha = table.get("alpha", 0.05)
        if not isinstance(raw_alpha, int | float) or isinstance(raw_alpha, bool):
            raise ValueError(f"alpha must be a number, not {raw_alpha!r}")
        alpha = float(raw_alpha)
        if not 0.0 < alpha < 1.0:  # also refuses nan
            raise ValueError(f"alpha must be between 0 and 1, not {raw_alpha!r}")
        for name in ("high", "min_difference"):
            if not 0.0 <= getattr(readings, name) <= 1.0:
                raise ValueError(f"readings.{name} must be between 0 and 1")
        if not readings.ratio >= 1.0:
            raise ValueError("readings.ratio must be at least 1")
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"[tool.labelpool] thresholds: {exc}", path=pyproject) from None

    baseline = table.get("baseline")
    if baseline is not None and (not isinstance(baseline, str) or not baseline.strip()):
        raise ConfigError(
            "[tool.labelpool] baseline must be a system name (a string)", path=pyproject
        )

    disputes = table.get("disputes", "bounds")
    if disputes not in DISPUTE_POLICIES:
        raise ConfigError(
            f"[tool.labelpool] disputes = {disputes!r}; one of " + ", ".join(DISPUTE_POLICIES),
            path=pyproject,
        )

    judges = table.get("score_judges", "all")
    if judges not in JUDGE_SELECTIONS:
        raise ConfigError(
            f"[tool.labelpool] score_judges = {judges!r}; one of " + ", ".join(JUDGE_SELECTIONS),
            path=pyproject,
        )
    min_agreement, min_sample = _machine_gate(table, pyproject)

    labels_dir = path("labels", "labels")
    runs_dir = path("runs", "runs")
    judges_dir = path("judges", "judges")
    assert labels_dir is not None and runs_dir is not None and judges_dir is not None
    for key, folder in (("labels", labels_dir), ("runs", runs_dir), ("judges", judges_dir)):
        if folder.exists() and not folder.is_dir():
            raise ConfigError(f"[tool.labelpool] {key}: {folder} is not a folder", path=pyproject)
    corpus = path("corpus", None)
    guidelines = path("guidelines", "labels/GUIDELINES.md")
    versions = path("versions", None)
    if versions is None and (root / "corpus" / "versions.yaml").exists():
        versions = root / "corpus" / "versions.yaml"
    for key, file in (("corpus", corpus), ("versions", versions)):
        if file is not None and file.exists() and not file.is_file():
            raise ConfigError(f"[tool.labelpool] {key}: {file} is not a file", path=pyproject)
    # shape kept: fields by keyword, like api/pooling's and cli/check's workflow calls
    return Config(
        root=root,
        labels_dir=labels_dir,
        runs_dir=runs_dir,
        corpus=corpus,
        versions=versions,
        version_pattern=pattern,
        readings=readings,
        alpha=alpha,
        guidelines=guidelines,
        baseline=baseline,
        disputes=str(disputes),
        judges_dir=judges_dir,
        judges=str(judges),
        machine_min_agreement=min_agreement,
        machine_min_sample=min_sample,
    )


def _machine_gate(table: dict[str, Any], pyproject: Path) -> tuple[float | None, int]:
    """``machine_min_agreement`` (a kappa from -1 to 1, or absent: off) and
    ``machine_min_sample`` (a whole number >= 1, default 50)."""
    raw = table.get("machine_min_agreement")
    sample = table.get("machine_min_sample", 50)
    if raw is not None and (
        not isinstance(raw, int | float) or isinstance(raw, bool) or not -1.0 <= raw <= 1.0
    ):
        raise ConfigError(
            f"[tool.labelpool] machine_min_agreement = {raw!r}: a kappa from -1 to 1",
            path=pyproject,
        )
    if not isinstance(sample, int) or isinstance(sample, bool) or sample < 1:
        raise ConfigError(
            f"[tool.labelpool] machine_min_sample = {sample!r}: a whole number of at least 1",
            path=pyproject,
        )
    return (None if raw is None else float(raw)), sample
