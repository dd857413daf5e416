"""The VS Code extension shipped in editors/vscode/: a manifest `vsce package` accepts as is
(name, publisher, version, `engines`, the entry point, a README and a LICENSE), the
language and grammar it contributes (the grammar the same file as the package's), and
a client that starts `tricklang lsp`.

(`vsce package` itself needs npm and the network: run by hand, see the README there.)
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"


def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    return data


def test_the_manifest_has_what_vsce_requires() -> None:
    """The README's snippet could not be packaged: `vsce` refused it (no `engines`)."""
    m = manifest()
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", m["name"]) and re.fullmatch(r"[a-z0-9][a-z0-9-]*", m["publisher"])
    assert re.fullmatch(r"\d+\.\d+\.\d+", m["version"])
    assert re.fullmatch(r"\^\d+\.\d+\.\d+", m["engines"]["vscode"])
    assert m["license"] == "MIT" and (EXTENSION / "LICENSE").is_file()
    readme = (EXTENSION / "README.md").read_text(encoding="utf-8")
    assert "tricklang lsp" in readme and "vsce package" in readme
    assert (EXTENSION / m["main"]).is_file()
    assert m["activationEvents"] == ["onLanguage:tricklang"]
    assert re.fullmatch(r"\^\d+\.\d+\.\d+", m["dependencies"]["vscode-languageclient"])
    lock = json.loads((EXTENSION / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"][""]["dependencies"] == m["dependencies"]


def test_it_contributes_the_language_and_the_packages_grammar() -> None:
    contributes = manifest()["contributes"]
    [language] = contributes["languages"]
    assert language["id"] == "tricklang" and language["extensions"] == [".trick"]
    configuration = json.loads((EXTENSION / language["configuration"]).read_text(encoding="utf-8"))
    assert configuration["comments"]["lineComment"] == "#"
    [grammar] = contributes["grammars"]
    assert grammar["language"] == "tricklang" and grammar["scopeName"] == "source.tricklang"
    shipped = (EXTENSION / grammar["path"]).read_bytes()
    assert shipped == (ROOT / "tricklang" / "syntax" / "tricklang.tmLanguage.json").read_bytes(), \
        "editors/vscode/syntaxes/ is a copy of tricklang/syntax/tricklang.tmLanguage.json: copy it again"
    setting = contributes["configuration"]["properties"]["tricklang.server.command"]
    assert setting["default"] == ["tricklang", "lsp"]


def test_the_client_starts_the_configured_server_over_stdio() -> None:
    source = (EXTENSION / "extension.js").read_text(encoding="utf-8")
    assert 'require("vscode-languageclient/node")' in source
    assert 'getConfiguration("tricklang").get("server.command"' in source
    assert "documentSelector: [{ language: \"tricklang\" }]" in source
    assert "exports" in source and "activate" in source and "deactivate" in source


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_client_is_valid_javascript() -> None:
    done = subprocess.run(["node", "--check", str(EXTENSION / "extension.js")], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr
