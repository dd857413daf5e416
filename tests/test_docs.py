"""The documentation a user navigates: the README stays a front page, every relative link
of the README and of docs/ leads to a file (and a heading) that exists, the language
reference names every diagnostic code, and CI runs the test command the README gives.

The examples themselves are doctests: pytest collects README.md and docs/*.md
(``testpaths`` and ``--doctest-glob`` in pyproject.toml).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from tricklang.diagnostics import CODES

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]

MAX_README_BYTES = 25_000
"""The README is a front page; the reference lives in docs/."""

_FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)


def without_code(text: str) -> str:
    """Markdown text without its fenced code blocks and inline code (no links there)."""
    text = _FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


def links(text: str) -> list[str]:
    """The targets of the Markdown links and images of a page, outside code."""
    return _LINK.findall(without_code(text))


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown page (a repeated heading gets -1, -2...)."""
    seen: dict[str, int] = {}
    out = set()
    for heading in _HEADING.findall(_FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = anchor(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of a page whose file, or heading, does not exist, or that leave
    the repository (``root``)."""
    bad = []
    for target in links(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:...
            continue
        file_part, _, fragment = target.partition("#")
        dest = (page.parent / unquote(file_part)).resolve() if file_part else page
        if not dest.exists():
            bad.append(f"{page.relative_to(root)}: {target} (no such file)")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            bad.append(f"{page.relative_to(root)}: {target} (no such heading)")
        elif root not in dest.parents:
            bad.append(f"{page.relative_to(root)}: {target} (outside the repository)")
    return bad


def test_the_readme_is_a_front_page() -> None:
    size = README.stat().st_size
    assert size <= MAX_README_BYTES, f"README.md is {size} bytes; move reference text to docs/"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    assert broken_links(page) == []


def test_the_readme_links_every_page_of_docs() -> None:
    linked = {(README.parent / t.partition("#")[0]).resolve() for t in links(README.read_text(encoding="utf-8"))}
    assert [p.name for p in DOCS if p.resolve() not in linked] == []


def test_the_link_check_finds_what_it_should(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "page.md"
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## The deal's statements\n", encoding="utf-8")
    page.write_text(
        "[ok](other.md) [ok](other.md#the-deals-statements) [ok](#here) [web](https://example.org/x)\n"
        "## Here\n"
        "[gone](missing.md) [bad](other.md#nowhere) `[code](missing.md)`\n"
        "```\n[fenced](missing.md)\n```\n",
        encoding="utf-8")
    (tmp_path / "outside.md").write_text("# Outside\n", encoding="utf-8")
    page.write_text(page.read_text(encoding="utf-8") + "[out](../outside.md)\n", encoding="utf-8")
    found = [line.split(": ", 1)[1] for line in broken_links(page, root=tmp_path / "docs")]
    assert found == ["missing.md (no such file)", "other.md#nowhere (no such heading)",
                     "../outside.md (outside the repository)"]


def test_headings_get_githubs_anchors() -> None:
    assert anchor("The `tricklang` command") == "the-tricklang-command"
    assert anchor("For game-AI tools: ids, modes, chance, tensors") == "for-game-ai-tools-ids-modes-chance-tensors"
    assert anchor("Hidden cards: information-set sampling") == "hidden-cards-information-set-sampling"


def test_the_language_reference_names_every_diagnostic_code() -> None:
    reference = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert [code for code in CODES if f"`{code}`" not in reference] == []


def test_ci_runs_the_test_command_the_readme_gives() -> None:
    readme = README.read_text(encoding="utf-8")
    quick = readme[readme.index("## Quick start"):]
    assert re.search(r"^make test\b", quick, re.MULTILINE)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test$", ci, re.MULTILINE)


def test_the_readme_keeps_the_api_example_the_package_check_runs() -> None:
    """`.ci/check-package` runs the first Python block after '## Python API' from an installed wheel."""
    readme = README.read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", readme[readme.index("## Python API"):], re.DOTALL)
    assert example is not None and "interpreter.new_game" in example.group(1) and ">>> " in example.group(1)


def test_the_cli_reference_names_every_command_and_option() -> None:
    """docs/cli.md has a section per command of the real parser, naming each of its
    options (`-o`/`--option` and `--help` are described once, for all)."""
    import argparse

    from interpreter.cli import build_parser

    reference = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    sections = {part.partition("\n")[0].strip(): part for part in re.split(r"^## ", reference, flags=re.MULTILINE)}
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    missing = []
    for name, command in commands.items():
        section = sections.get(name)
        if section is None:
            missing.append(f"## {name}")
            continue
        for action in command._actions:
            missing += [f"{name} {o}" for o in action.option_strings
                        if o not in ("-h", "--help", "-o", "--option") and not re.search(rf"`{o}\b", section)]
    assert missing == []
