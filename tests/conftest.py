import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def harness_cli():
    """Run the real `harness` command line; returns the CompletedProcess."""
    def run(*args, cwd=None, input=None):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        return subprocess.run([sys.executable, "-m", "harness.cli", *map(str, args)], cwd=cwd or ROOT,
                              env=env, input=input, capture_output=True, text=True, timeout=600)
    return run
