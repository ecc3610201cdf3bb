"""The code's own checks run with the suite: lint, formatting, and strict types on the package."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        ["mypy"],  # strict on the whole package, as configured in pyproject.toml
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_tool_passes(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_imports_nothing_from_the_web() -> None:
    """The rules stay pure: no Flask, database or I/O module in scorekeeper/rules/."""
    forbidden = ("flask", "sqlalchemy", "wtforms", "os", "io", "pathlib", "socket", "subprocess")
    for source in (ROOT / "scorekeeper" / "rules").glob("*.py"):
        for line in source.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1:
                top = words[1].split(".")[0]
                assert top not in forbidden, f"{source.name}: {line.strip()}"


def test_no_family_imports_another_and_the_core_imports_none() -> None:
    """A family stands on the core and on the shared modules (contract, for the bridge
    families), never on another family; the core and the serving know none of them."""
    package = ROOT / "scorekeeper"
    families = {
        path.parent.name for path in package.glob("*/family.py")
    }  # every family registers itself in its family.py
    assert {"ascenseur", "bridge", "club", "echelons", "tarot", "teams"} <= families
    importing = re.compile(r"^\s*(?:from|import) scorekeeper\.(\w+)", re.MULTILINE)
    for owner in [*families, "games", "contract", "serving"]:
        for source in (package / owner).rglob("*.py"):
            others = set(importing.findall(source.read_text(encoding="utf-8"))) & families
            assert others <= {owner} - {"games", "contract", "serving"}, (
                f"{source}: imports {others}"
            )


def test_the_core_calls_the_circles_through_its_registry_alone() -> None:
    """The circles stand on the core, which calls them through ``games.registry.Circles``:
    its models name them for the type checker alone (the circle a game was played in, a seat's
    person), and the app factory maps them."""
    for owner in ("games", "serving"):
        for source in (ROOT / "scorekeeper" / owner).rglob("*.py"):
            text = source.read_text(encoding="utf-8")
            text = re.sub(r"^if TYPE_CHECKING:\n(?:    .*\n)+", "", text, flags=re.MULTILINE)
            assert not re.search(r"(?:from|import) scorekeeper\.circles\b", text), source


def test_the_app_uses_the_serving_through_its_interface_alone() -> None:
    """Outside scorekeeper/serving/, the app imports ``scorekeeper.serving`` itself, never one
    of its modules (the tests look inside them)."""
    serving = ROOT / "scorekeeper" / "serving"
    inside = re.compile(r"^\s*(?:from|import) scorekeeper\.serving\.", re.MULTILINE)
    for folder in ("scorekeeper", "bench"):
        for source in (ROOT / folder).rglob("*.py"):
            if not source.is_relative_to(serving):
                assert not inside.search(source.read_text(encoding="utf-8")), source


def test_the_repository_stands_alone() -> None:
    """The tests, the app and the benchmarks read nothing from beside the repository."""
    outside = re.compile(r"\.\./shared|[\"']shared[\"']\s*/|parents\[\d\]\.parent")
    for folder in ("tests", "scorekeeper", "bench"):
        for source in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
                assert not outside.search(line), f"{source.relative_to(ROOT)}:{number}: {line}"


@pytest.mark.parametrize("script", ["run.py", "page.py", "drawing.py"])
def test_the_benchmarks_start_without_the_test_tools(script: str) -> None:
    """docs/benchmark.md installs the ``bench`` extras alone: a benchmark may use the tests'
    servers and browser, but not pytest, which those extras do not install."""
    no_pytest = "import sys; sys.modules['pytest'] = None; sys.argv[1:] = ['--help']; "
    path = str(ROOT / "bench" / script)
    run = f"{no_pytest}import runpy; runpy.run_path({path!r}, run_name='__main__')"
    started = subprocess.run(
        [sys.executable, "-c", run], capture_output=True, text=True, timeout=120
    )
    assert started.returncode == 0, started.stderr
    assert "usage:" in started.stdout


def test_the_documents_link_to_files_that_exist() -> None:
    """The README and the pages of docs/ send a reader only to files the repository has."""
    link = re.compile(r"\]\(([^)#\s]+)")
    for document in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in link.findall(document.read_text(encoding="utf-8")):
            if "://" not in target:
                assert (document.parent / target).is_file(), f"{document.name} links {target}"
