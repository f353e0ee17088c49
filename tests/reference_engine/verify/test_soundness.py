"""The verifier judges the protocol the table runs (issue 24): one spec per class of unsound
verdict, rejected, and a correct variant, accepted.

Each folder of ``soundness/`` is a small library; each case names its main spec, the exit
code ``kitgen verify`` must give (0 verified, 1 a check fails, 2 a spec error) and words the
output must hold (the failing check, or the spec error). Every command must refuse the
rejected specs without a traceback (:func:`test_no_command_prints_a_traceback`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli import main

HERE = Path(__file__).resolve().parent / "soundness"

# (folder, spec, exit code of `kitgen verify`, words the output must hold)
CASES: list[tuple[str, str, int, list[str]]] = [
    # 3. vacuous verdicts
    ("admissible-none", "reveal-x", 2, ["admissible", "no input is admissible", "every one of the 2"]),
    (
        "admissible-some",
        "hide-x",
        0,
        [
            "exact verification over 2 of the 4 declared inputs",
            "VERIFIED (only for 2 of the 4 declared inputs: the other 2 are not admissible and not checked)",
        ],
    ),
]


def kitgen(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


@pytest.mark.parametrize(("folder", "spec", "code", "words"), CASES, ids=[f"{c[0]}/{c[1]}" for c in CASES])
def test_verify_verdict(folder: str, spec: str, code: int, words: list[str]) -> None:
    got, out = kitgen("verify", str(HERE / folder / f"{spec}.yaml"), "--workers", "1")
    assert got == code, out
    for w in words:
        assert w in out, out


def test_every_folder_has_a_case() -> None:
    assert {p.name for p in HERE.iterdir() if p.is_dir()} == {c[0] for c in CASES}
