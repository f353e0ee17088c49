"""Debian's poppler-utils (``pdftotext``, ``pdffonts``) for the tests that read a PDF's text or its
fonts as a reader's tools do. Where a tool is not installed (a newcomer's machine without
``apt-get install poppler-utils``), those tests are skipped with the reason (``-rs`` prints it),
not failed; ``.ci/run`` installs it, so CI runs them."""

from __future__ import annotations

import shutil
import subprocess

import pytest

PACKAGE = "poppler-utils"


def poppler(tool: str, *args: str) -> str:
    """The standard output of ``tool args...`` (a poppler tool), or skip the test if the tool is
    not installed. A tool that runs and fails is a failure (``check=True``), never a skip."""
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed (Debian's {PACKAGE}: apt-get install {PACKAGE})")
    return subprocess.run([path, *args], capture_output=True, text=True, check=True).stdout
