"""`kitgen play GAME --record FILE` and `kitgen replay FILE`: every rule set at both levels, the
exit codes (0 all legal, 1 a divergence, 2 not a record), and a record written atomically."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from kitgen.cli import records
from kitgen.cli.main import main
from reference_engine.api import RECORD_SCHEMA

SCHEMA = json.loads(RECORD_SCHEMA.read_text(encoding="utf-8"))
ROOT = Path(__file__).resolve().parents[3]

# Every rule set at both levels (card level where it exists), short games.
PLAYS: list[list[str]] = [
    ["uno", "--virtual", "2"],
    ["uno-official", "--virtual", "2", "--wild4", "bluff", "--hands", "2"],
    ["uno-small", "--virtual", "2"],
    ["crazy-eights", "--virtual", "2"],
    ["sevens", "--virtual", "2"],
    ["hearts", "--virtual", "2", "--pass-three", "--rounds", "2"],
    ["dominoes", "--virtual", "2"],
    ["gakmoro"],
]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def _valid(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    return data


# The command line's record and replay are one path for every rule set; the engine's record and
# replay of every rule set at both levels are tests/reference_engine/records/test_replay.py's
# (fast). Here every rule set at the rule level (its options through the command line), and at
# the card level UNO, Hearts (its options) and Gakmoro (rounds); the other card-level games
# (~1-2 s of CPU each, costing the played game's tables) are the slow tier's.
CARD_FAST = {"uno", "hearts", "gakmoro"}
LEVELS = [
    pytest.param(
        play, level, marks=[pytest.mark.slow] if level == "card" and play[0] not in CARD_FAST else []
    )
    for level in ("rule", "card")
    for play in PLAYS
]


@pytest.mark.parametrize(
    ("play", "level"), LEVELS, ids=[f"{p[0]}-{lv}" for lv in ("rule", "card") for p in PLAYS]
)
def test_play_record_then_replay(tmp_path: Path, play: list[str], level: str) -> None:
    path = tmp_path / "r.json"
    code, out = run("play", *play, "--level", level, "--seed", "2", "--record", str(path))
    assert code == 0, out
    data = _valid(path)
    assert data["game"]["rule_set"] == play[0] and data["result"]["level"] == level
    code, out = run("replay", str(path))
    unit = "rounds" if play[0] == "gakmoro" else "turns"
    assert code == 0 and out.splitlines()[0].endswith(f"{unit}, all legal"), out
    assert out.startswith("replayed: ")


def test_gakmoro_with_a_dealer(tmp_path: Path) -> None:
    path = tmp_path / "dealer.json"
    assert run("play", "gakmoro", "--variant", "dealer", "--record", str(path))[0] == 0
    _valid(path)
    code, out = run("replay", str(path), "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["unit"] == "rounds" and report["reran"]


def test_the_same_seed_writes_the_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        assert run("play", "sevens", "--seed", "4", "--record", str(path))[0] == 0
    assert a.read_bytes() == b.read_bytes()


def test_a_divergence_exits_1_naming_the_turn(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    assert run("play", "uno", "--virtual", "2", "--level", "rule", "--record", str(path))[0] == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    event = next(e for e in data["events"] if e["type"] == "turn" and e["seat"] == 3 and e["public"]["card"])
    event["public"]["card"] = "wild4" if event["public"]["card"] != "wild4" else "wild"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = run("replay", str(path))
    assert code == 1
    assert out.startswith(f"divergence at event {event['n']}, turn {event['turn']} (Human 1): ")
    code, out = run("replay", str(path), "--referee-only")
    assert code == 1 and "the referee:" in out and "the game played again" not in out


BROKEN = {
    "not JSON": ('{"format": "kitgen game record",\n "version": 1,\n', "r.json:3:1: not JSON"),
    "not an object": ("[1, 2]\n", "r.json:1: a game record is a JSON object"),
    "another format": ('{"format": "pgn"}\n', "r.json:1: format: not a kitgen game record"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_file_that_is_not_a_record_exits_2(
    tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text, message = BROKEN[case]
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out = run("replay", "r.json")
    assert code == 2 and message in out and "Traceback" not in out


def test_a_record_breaking_its_schema_exits_2_with_the_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    assert run("play", "dominoes", "--level", "rule", "--record", str(path))[0] == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if '"type":"turn"' in line)
    lines[at] = lines[at].replace('"scored":', '"scored":"many","was":', 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = run("replay", str(path))
    assert code == 2
    n = json.loads(lines[at].rstrip(","))["n"]
    assert f"r.json:{at + 1}: events[{n - 1}].public" in out and "Traceback" not in out
    newer = json.loads(path.read_text(encoding="utf-8").replace('"many"', "0"))
    newer["version"] = 2
    path.write_text(json.dumps(newer, indent=1), encoding="utf-8")
    code, out = run("replay", str(path))
    assert code == 2 and "version 2" in out and "update kitgen" in out
    code, out = run("replay", str(tmp_path / "missing.json"))
    assert code == 2 and "no such record file" in out
    code, out = run("replay", str(tmp_path))
    assert code == 2 and "not a regular file" in out
    os.mkfifo(tmp_path / "pipe.json")  # refused at once, never waited on
    code, out = run("replay", str(tmp_path / "pipe.json"))
    assert code == 2 and "not a regular file" in out


def test_the_record_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    assert run("play", "sevens", "--level", "rule", "--record", str(path))[0] == 0
    earlier = path.read_bytes()
    code, out = run("play", "uno", "--players", "99", "--record", str(path))
    assert code == 2 and path.read_bytes() == earlier
    code, out = run("play", "uno", "--record", str(tmp_path / "no" / "such" / "r.json"))
    assert code == 2 and "no folder" in out
    code, out = run("play", "uno", "--record", str(tmp_path))
    assert code == 2 and "a folder, not a file" in out
    assert run("play", "uno", "--level", "rule", "--record", str(path))[0] == 0  # over an earlier record
    assert _valid(path)["game"]["rule_set"] == "uno"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]  # no temporary file left


PLAY = ["play", "uno", "--virtual", "2", "--level", "rule", "--seed", "1"]


def test_a_record_never_overwrites_a_users_file(tmp_path: Path) -> None:
    """A regular file that is not a kitgen record (its first lines say) is the user's: refused
    before the game, unchanged; --force replaces it."""
    notes = tmp_path / "notes.txt"
    for text in ("precious notes\n", '{"format": "kitgen game record"}\n'):  # (not as kitgen writes one)
        notes.write_text(text, encoding="utf-8")
        code, out = run(*PLAY, "--record", str(notes))
        assert code == 2 and notes.read_text(encoding="utf-8") == text
        assert out.strip() == (
            f"Error (usage): --record {notes}: a file that is not a kitgen game record; kitgen does not "
            "write over it (choose another name, or --force to replace it)"
        )
    code, out = run(*PLAY, "--record", str(notes), "--force")
    assert code == 0, out
    _valid(notes)
    empty = tmp_path / "tmp.XXXX"  # mktemp's: an empty file loses nothing
    empty.touch()
    assert run(*PLAY, "--record", str(empty))[0] == 0
    _valid(empty)


# Runs each command line given (a JSON list of argument lists) through kitgen's main in this one
# process, and prints a JSON list of (exit code, standard error) pairs: one interpreter start for
# all of them, not one each (each is about a second of CPU importing kitgen).
_EACH = """
import contextlib, io, json, sys
from kitgen.cli.main import main
out = []
for args in json.loads(sys.argv[1]):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    out.append((code, err.getvalue()))
print(json.dumps(out))
"""


def kitgen_play(*commands: list[str]) -> list[tuple[int, str]]:
    """The commands in a process of their own, with a timeout: a regression that waits (opening a
    FIFO, say) fails, not hangs. Each command's exit code and standard error."""
    done = subprocess.run(
        [sys.executable, "-c", _EACH, json.dumps(list(commands))],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return [(code, err) for code, err in json.loads(done.stdout)]


def test_a_record_never_replaces_what_is_not_a_regular_file(tmp_path: Path) -> None:
    """A FIFO, a socket, a device node or a symbolic link is never written over, even forced
    (as root, --record /dev/null would otherwise replace the device with a file)."""
    os.mkfifo(tmp_path / "fifo")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "socket"))
    (tmp_path / "target.json").write_text("precious", encoding="utf-8")
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    specials = {"fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "link.json": stat.S_ISLNK}
    try:
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a copy of /dev/null
        specials["null"] = stat.S_ISCHR
    except OSError:  # not root, or no devices here: /dev/null itself is still tried, unforced
        pass
    try:
        cases = [(name, force) for name in specials for force in ([], ["--force"])]
        commands = [[*PLAY, "--record", str(tmp_path / name), *force] for name, force in cases]
        *answers, last = kitgen_play(*commands, [*PLAY, "--record", "/dev/null"])
        for (name, _), (code, err) in zip(cases, answers, strict=True):
            assert code == 2, (name, err)
            assert "not a regular file; a record is never written over it, even with --force" in err
            assert len(err.strip().splitlines()) == 1
        for name, kind in specials.items():
            assert kind(os.lstat(tmp_path / name).st_mode), name
        assert last[0] == 2 and "a character device" in last[1]
    finally:
        server.close()
    assert (tmp_path / "target.json").read_text(encoding="utf-8") == "precious"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_record_to_standard_output_or_a_read_only_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = run(*PLAY, "--record", "-")
    assert code == 2 and "--record -: a record is written to a file, not to standard output" in out

    def denied(folder: Path) -> None:
        raise PermissionError(13, "Permission denied", str(folder))

    monkeypatch.setattr(records, "probe_writable", denied)  # chmod would not stop root
    code, out = run(*PLAY, "--record", str(tmp_path / "r.json"))
    assert code == 2 and out.strip().endswith(f"cannot write in {tmp_path}: Permission denied")
    assert list(tmp_path.iterdir()) == []


def test_a_rule_set_file_gone_since_the_record_was_written(tmp_path: Path) -> None:
    rules = tmp_path / "my-uno.yaml"
    text = (Path(__file__).resolve().parents[3] / "rulesets" / "games" / "uno.yaml").read_text(
        encoding="utf-8"
    )
    rules.write_text(text.replace("game: uno\n", "game: my-uno\n"), encoding="utf-8")
    path = tmp_path / "r.json"
    assert run("play", str(rules), "--level", "rule", "--record", str(path))[0] == 0
    code, out = run("replay", str(path))
    assert code == 0 and "every card accounted for" in out and "no rule book for 'my-uno'" in out
    rules.write_text(text.replace("game: uno\n", "game: my-uno\n").replace("hand_size: 7", "hand_size: 6"))
    code, out = run("replay", str(path))
    assert code == 1 and "has changed since the record was written" in out
    rules.unlink()
    code, out = run("replay", str(path))
    assert code == 2 and "--referee-only" in out
    code, out = run("replay", str(path), "--referee-only")
    assert code == 0 and "not played again" in out
