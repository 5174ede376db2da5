"""The documentation stands alone: every relative link in README.md and docs/ resolves inside
the repository (files and section anchors), and nothing refers to the workspace outside it."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
# folders that are build output or tools, not the repository's own text
SKIP = {".git", ".venv", "__pycache__", ".pytest_cache", "build", "dist", ".ruff_cache", ".cache"}


def _anchor(heading: str) -> str:
    """GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    found, seen, fenced = set(), {}, False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            base = _anchor(line.lstrip("#"))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def test_anchor_slugs_follow_github():
    assert _anchor(" Race scoring (`rules.race`)") == "race-scoring-rulesrace"
    assert _anchor(" `caller read IMAGE... --json`") == "caller-read-image---json"
    assert _anchor(" Steppin' Stones") == "steppin-stones"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    text = page.read_text()
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address: the original publications
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists() or ROOT not in dest.parents and dest != ROOT:
            broken.append(target)
        elif anchor and (dest.suffix != ".md" or anchor not in _anchors(dest)):
            broken.append(target)
    assert broken == []


def test_readme_is_a_front_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) < 20_000 and len(readme.splitlines()) <= 250
    # the two commands newcomers (and .ci/run) rely on
    assert "bash scripts/setup.sh && .venv/bin/caller demo\n" in readme
    assert "bash scripts/setup.sh && .venv/bin/python -m pytest\n" in readme


def test_nothing_refers_outside_the_repository():
    outside = "../" + "shared"  # spelt in two parts so that this file does not match itself
    hits = []
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if path.is_dir() or parts & SKIP or any(p.endswith(".egg-info") for p in parts):
            continue
        if path.suffix in {".py", ".md", ".toml", ".txt", ".cfg", ".sh", ".json"} or path.name == "run":
            if outside in path.read_text(errors="replace"):
                hits.append(str(path.relative_to(ROOT)))
    assert hits == []
