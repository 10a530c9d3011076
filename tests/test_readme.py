"""The README's pasteable scoring example prints what the README shows."""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_scoring_example_prints_the_shown_count():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"echo '(\{.*?\})' \\\n\s*\| \.venv/bin/python -m scoring score - --text\n```\n\n```\n(.*?)```",
                  text, re.S)
    assert m, "README lost its scoring example"
    record = json.loads(m.group(1))
    shown = m.group(2)
    out = subprocess.run([sys.executable, "-m", "scoring", "score", "-", "--text"], input=json.dumps(record),
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == shown.strip()


def test_readme_run_command_example_file_scores():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"python -m scoring score (examples/\S+\.json) --text", text)
    assert m and (ROOT / m.group(1)).exists()
    out = subprocess.run([sys.executable, "-m", "scoring", "score", m.group(1)], capture_output=True,
                         text=True, cwd=ROOT, check=True).stdout
    assert json.loads(out)["total"] == 96  # the dunhill seed's first worked example


def test_the_ledger_walkthrough_runs_as_written(tmp_path):
    """docs/ledger.md's CLI block, pasted line by line: it stopped at its second command (the example
    record said 2 honba on a new session's first hand) and imported into the ledger it came from."""
    import os
    import shutil

    text = (ROOT / "docs" / "ledger.md").read_text(encoding="utf-8")
    block = re.search(r"## CLI\n\n```sh\n(.*?)```", text, re.S).group(1)
    lines = [line.split("#")[0].strip() for line in block.splitlines()]
    lines = [line for line in lines if line.startswith(("S=", "python -m service.ledger"))
             and "--rules-dir" not in line]              # a house rule's folder: docs/house-rules.md
    assert len(lines) >= 9 and lines[0].startswith("S=$(")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {**os.environ, "LEDGER_DB_URL": "sqlite:///night.sqlite3"}
    session = subprocess.run(lines[0][len("S=$("):-1].replace("python", sys.executable, 1).split(),
                             capture_output=True, text=True, cwd=tmp_path, env=env, check=True).stdout.strip()
    for line in lines[1:]:
        command, _, into = line.partition(">")
        argv = command.replace("$S", session).replace("python", sys.executable, 1).split()
        done = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env)
        assert done.returncode == 0, (line, done.stderr)
        if into.strip():
            (tmp_path / into.strip()).write_text(done.stdout)
