"""What the house rule tests share: a fresh rules folder, a house rule file written into it, the
command line run on it, and its one line of refusal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def rules(tmp_path, monkeypatch):
    """An empty rules folder, named by TOUTENKOU_RULES_DIR (for the engine and the CLI)."""
    folder = tmp_path / "rules"
    folder.mkdir()
    monkeypatch.setenv("TOUTENKOU_RULES_DIR", str(folder))
    return folder


def house(folder: Path, name: str, extends: str, body: str = "", *,
          name_ja: str = "雀荘ルール", name_en: str = "Our parlour") -> Path:
    """Write ``folder/name.toml``: a house rule of ``extends`` with ``body`` (its sections)."""
    path = folder / f"{name}.toml"
    path.write_text(f'extends = "{extends}"\nname_ja = "{name_ja}"\nname_en = "{name_en}"\n{body}',
                    encoding="utf-8")
    return path


def cli(*args: str, env_dir: Path | None = None, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if env_dir is not None:
        env["TOUTENKOU_RULES_DIR"] = str(env_dir)
    return subprocess.run([sys.executable, "-m", "scoring", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=120)


def one_error_line(p: subprocess.CompletedProcess) -> str:
    assert p.returncode == 2, (p.stdout, p.stderr)
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), p.stderr
    assert "Traceback" not in p.stderr
    return err[0]
