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
    """The circles stand on the core, which calls them through ``games.registry.Circles``
    and names them nowhere, not even for the type checker: a game knows its circle, and a seat
    its person, by id."""
    for owner in ("games", "serving"):
        for source in (ROOT / "scorekeeper" / owner).rglob("*.py"):
            text = source.read_text(encoding="utf-8")
            assert not re.search(r"(?:from|import) scorekeeper\.circles\b", text), source


def families_of(package: Path) -> set[str]:
    """The families: every package that registers itself in its family.py."""
    return {path.parent.name for path in package.glob("*/family.py")}


def module_imports(source: Path) -> set[str]:
    """The modules of the package ``source`` imports, for the type checker too (its
    ``TYPE_CHECKING`` block), with the modules a package's ``from x import y`` names."""
    text = source.read_text(encoding="utf-8")
    found = set()
    for name, grouped, names in re.findall(
        r"^[ \t]*from (scorekeeper(?:\.\w+)*) import (?:\(([^)]*)\)|([\w ,]+))", text, re.MULTILINE
    ):
        names = grouped or names
        found.add(name)
        for imported in re.split(r"[,\s]+", names.strip()):
            if (ROOT / Path(*name.split("."), f"{imported}.py")).exists():
                found.add(f"{name}.{imported}")
    found |= set(re.findall(r"^[ \t]*import (scorekeeper(?:\.\w+)*)", text, re.MULTILINE))
    return found


def test_the_circles_know_the_families_through_the_registry_alone() -> None:
    """A family declares how its games count in a circle's history (its registration's
    ``in_circles``); the circles import no family, and no family imports the circles: a family
    that needs a circle's people reaches them through ``games.registry.Circles``."""
    package = ROOT / "scorekeeper"
    families = families_of(package)
    assert {"ascenseur", "bridge", "club", "echelons", "teams"} <= families
    for source in (package / "circles").rglob("*.py"):
        tops = {name.split(".")[1] for name in module_imports(source) if "." in name}
        assert not tops & families, f"{source}: imports {tops & families}"
    for family in families:
        for source in (package / family).rglob("*.py"):
            tops = {name.split(".")[1] for name in module_imports(source) if "." in name}
            assert "circles" not in tops, f"{source}: imports the circles"


def test_no_module_of_the_package_imports_itself_round_a_cycle() -> None:
    """The package's imports, those for the type checker included, make no cycle: each module
    stands on modules that do not stand on it."""
    package = ROOT / "scorekeeper"
    modules: dict[str, Path] = {}
    for source in package.rglob("*.py"):
        parts = source.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = source

    def stands_on(name: str) -> set[str]:
        found = set()
        for imported in module_imports(modules[name]):
            # "from scorekeeper.games import registry" stands on games.registry, not games.
            if imported in modules and imported != name:
                found.add(imported)
        return found

    graph = {name: stands_on(name) for name in modules}
    # A package's __init__ importing its own modules is how a package is made, not a cycle.
    for name, edges in graph.items():
        edges -= {other for other in edges if other.startswith(name + ".")}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                cycle = [*path[path.index(other) :], other]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if other not in state:
                visit(other)
        path.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


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
