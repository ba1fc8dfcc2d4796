"""Helpers shared by the command-line tests: records on disk and in-process CLI runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coinche import cli

RECORDS = Path(__file__).parent / "records"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``coinche.cli.main(argv)`` in-process: (exit status, stdout, stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as e:  # argparse usage errors
        code = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err
