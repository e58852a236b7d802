"""What the tests share: the `breakthrough` command to compare with, and a run of
Python in a process of its own."""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def cli() -> str:
    """The `breakthrough` command: $BREAKTHROUGH, else the workspace's release build."""
    path = os.environ.get("BREAKTHROUGH", str(ROOT / "target" / "release" / "breakthrough"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"no breakthrough command at {path}: run `cargo build --release` or set BREAKTHROUGH")
    return path


def python_process(code: str, **kwargs) -> subprocess.Popen:
    """Runs `code` in a new Python process, its stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )
