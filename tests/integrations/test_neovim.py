"""The Neovim configuration shipped in editors/neovim/tricklang.lua, run by the Neovim on
this machine (Debian ships 0.7.2, where the README's former `vim.lsp.start` /
`vim.fs` configuration did nothing): *.trick files get the filetype and the language
server's diagnostics. Skipped without `nvim` or the `lsp` extra."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "editors" / "neovim" / "tricklang.lua"
NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed")

REPORT = (
    "lua vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100);"
    " io.stdout:write('REPORT|' .. vim.bo.filetype .. '|' .. #vim.diagnostic.get(0) .. '|'"
    " .. string.gsub((vim.diagnostic.get(0)[1] or {}).message or '', '\\n.*', '') .. '\\n'); vim.cmd('qa!')"
)


def test_the_shipped_neovim_configuration_gives_the_filetype_and_diagnostics(tmp_path: Path) -> None:
    assert NVIM is not None
    version = subprocess.run([NVIM, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    broken = tmp_path / "broken.trick"
    broken.write_text('tricklang 1\ngame "Broken"\nplayers 2\nzone hand: per player, owner\n', encoding="utf-8")
    # `tricklang` is this environment's (the server's command in the configuration)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    done = subprocess.run([NVIM, "--headless", "-n", "-u", str(CONFIG), "-c", REPORT, str(broken)], capture_output=True,
                          text=True, env=env, timeout=120, check=False, cwd=tmp_path)
    report = next((line for line in done.stdout.splitlines() if line.startswith("REPORT|")), "REPORT|||")
    filetype, count, message = report.split("|", 3)[1:]
    assert filetype == "tricklang", (version, done.stdout, done.stderr)
    assert int(count) >= 1 and "has no 'deck' section" in message, (version, done.stdout, done.stderr)
