"""Where the project's specs and cases live."""
import os
from pathlib import Path


def project_root() -> Path:
    """$HARNESS_ROOT, else the checkout this package was installed from, else the working folder."""
    if os.environ.get("HARNESS_ROOT"):
        return Path(os.environ["HARNESS_ROOT"]).resolve()
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "specs").is_dir():
        return checkout
    return Path.cwd()
