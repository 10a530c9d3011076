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
