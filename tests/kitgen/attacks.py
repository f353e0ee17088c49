"""Attacks on the files and options kitgen is given (issue 38): a game record over a user's file,
a FIFO or a device; a forged, linked, huge or FIFO folder marker; FIFOs, devices and folders
where a file is read; repeated and absurd ``--weights``; impossible deals.

Each :class:`Attack` prepares a fresh folder (``make`` returns the command's arguments; it runs
with that folder as its current folder) and says the exit code the command must give and a
piece of its message. Judged: the exit code; for a refusal, one line quoting the message; no
traceback; done within :data:`LIMIT` seconds (a command that waits on a FIFO is a hang); every
file of the folder (bytes, link targets, file types) unchanged but those the attack lets the
command write; no temporary file left. The attacks run in one driver process with click's test
runner, as the ``kitgen`` script calls ``main``; a driver that stops answering is killed, its
attack counted as a hang, and a new driver goes on with the rest.

Used by ``tests/kitgen/test_badinput.py`` (a quick subset, :data:`QUICK`) and ``bench/badinput.py
--attacks`` (all of them).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LIMIT = 60.0  # seconds of wall clock for one attack (a refusal takes about one)
ROOT = Path(__file__).resolve().parents[2]
PLAY = ["play", "uno", "--virtual", "2", "--level", "rule", "--seed", "1"]
USERS = {"notes.txt": b"precious notes\n", "photos/cat.jpg": b"\xff\xd8 a cat"}


@dataclass(frozen=True)
class Attack:
    name: str
    group: str  # record, marker, fifo, weights, deal
    make: Callable[[Path], list[str]]
    expect: int
    says: str = ""  # a piece of the refusal's one line
    writes: tuple[str, ...] = ()  # what the command may change in the folder
    needs_root: bool = False


def put(folder: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


def sums(files: dict[str, bytes]) -> dict[str, str]:
    return {n: hashlib.sha256(d).hexdigest() for n, d in files.items()}


def marker(folder: Path, listed: dict[str, bytes], checksums: str = "right") -> None:
    data: dict[str, Any] = {"written_by": "kitgen", "what": "view", "name": "x", "files": sorted(listed)}
    if checksums == "right":
        data["sha256"] = sums(listed)
    elif checksums == "wrong":
        data["sha256"] = {n: "0" * 64 for n in listed}
    (folder / ".kitgen-kit").write_text(json.dumps(data), encoding="utf-8")


def users(folder: Path) -> None:
    put(folder, USERS)


def _record(path: str, *extra: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        users(folder)
        return [*PLAY, "--record", path, *extra]

    return make


def _special(kind: str, *extra: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        if kind == "fifo":
            os.mkfifo(folder / "r.json")
        elif kind == "socket":
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(str(folder / "r.json"))
            sock.close()  # the socket file stays
        elif kind == "device":
            os.mknod(folder / "r.json", stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null
        elif kind == "link":
            users(folder)
            (folder / "r.json").symlink_to(folder / "notes.txt")
        elif kind == "folder":
            (folder / "r.json").mkdir()
        return [*PLAY, "--record", "r.json", *extra]

    return make


def _earlier_record(folder: Path) -> list[str]:
    (folder / "r.json").write_text('{\n "format": "kitgen game record",\n "version": 1\n}\n')
    return [*PLAY, "--record", "r.json"]


def _forged(checksums: str, *extra: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        users(folder)
        marker(folder, USERS, checksums)
        return ["view", "six-card-and", "-o", ".", *extra]

    return make


def _marker_file(kind: str, *extra: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        (folder / "kit").mkdir()
        users(folder / "kit")
        if kind == "link":
            marker(folder, USERS)  # a good marker of the folder above, linked to from the kit
            (folder / "kit" / ".kitgen-kit").symlink_to(folder / ".kitgen-kit")
        elif kind == "fifo":
            os.mkfifo(folder / "kit" / ".kitgen-kit")
        elif kind == "huge":
            with (folder / "kit" / ".kitgen-kit").open("wb") as fh:
                fh.truncate(5 << 20)
        return ["view", "six-card-and", "-o", "kit", *extra]

    return make


def _linked_previews(*extra: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        (folder / "outside").mkdir()
        put(folder / "outside", {"booklet-p001.png": b"their picture"})
        (folder / "kit").mkdir()
        (folder / "kit" / "previews").symlink_to(folder / "outside")
        marker(folder / "kit", {"previews/booklet-p001.png": b"their picture"})
        return ["booklet", "six-card-and", "-o", "kit", "--force", "--json", *extra]

    return make


def _edited(folder: Path) -> list[str]:
    put(folder, {"index.html": b"<p>kitgen's page, then edited</p>"})
    marker(folder, {"index.html": b"<p>kitgen's page</p>"})
    return ["view", "six-card-and", "-o", ".", "--force"]


def _table_time(what: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        path = folder / "model.yaml"
        if what == "fifo":
            os.mkfifo(path)
        elif what == "folder":
            path.mkdir()
        elif what == "huge":
            path.write_bytes(b"# padding\n" * 200_001)
        elif what == "list":
            path.write_text("- seconds\n- source\n")
        target = "/dev/zero" if what == "device" else "model.yaml"
        return [*PLAY, "--table-time", target]

    return make


def _fifo_named(command: list[str], name: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        os.mkfifo(folder / name)
        return [part.replace("FIFO", name) for part in command]

    return make


def _given(args: list[str]) -> Callable[[Path], list[str]]:
    return lambda folder: list(args)


WEIGHTED = [*PLAY, "--strategy", "weighted", "--weights"]
KIT = ("kit/.kitgen-kit", "kit/booklet.json", "kit/booklet.pdf", "kit/manifest.json")

ATTACKS: tuple[Attack, ...] = (
    # --record (part 7)
    Attack("record over a user's file", "record", _record("notes.txt"), 2, "not a kitgen game record"),
    Attack(
        "record over a user's file, forced",
        "record",
        _record("notes.txt", "--force"),
        0,
        writes=("notes.txt",),
    ),
    Attack(
        "record over a user's file by ..",
        "record",
        _record("photos/../notes.txt"),
        2,
        "not a kitgen game record",
    ),
    Attack("record over an earlier record", "record", _earlier_record, 0, writes=("r.json",)),
    Attack("record over a FIFO", "record", _special("fifo"), 2, "a FIFO (named pipe), not a regular file"),
    Attack("record over a FIFO, forced", "record", _special("fifo", "--force"), 2, "even with --force"),
    Attack("record over a socket, forced", "record", _special("socket", "--force"), 2, "a socket"),
    Attack(
        "record over a device, forced",
        "record",
        _special("device", "--force"),
        2,
        "a character device",
        needs_root=True,
    ),
    Attack("record over a link, forced", "record", _special("link", "--force"), 2, "a symbolic link"),
    Attack("record over a folder", "record", _special("folder"), 2, "a folder, not a file"),
    Attack(
        "record to standard output", "record", _given([*PLAY, "--record", "-"]), 2, "not to standard output"
    ),
    Attack("record into no folder", "record", _given([*PLAY, "--record", "no/such/r.json"]), 2, "no folder"),
    # .kitgen-kit (part 8)
    Attack("forged marker, no checksums", "marker", _forged("none"), 2, "did not write: notes.txt (listed"),
    Attack(
        "forged marker, no checksums, forced",
        "marker",
        _forged("none", "--force"),
        0,
        writes=("index.html", ".kitgen-kit"),
    ),
    Attack(
        "forged marker, wrong checksums",
        "marker",
        _forged("wrong"),
        2,
        "notes.txt (changed since kitgen wrote it)",
    ),
    Attack(
        "forged marker, right checksums", "marker", _forged("right"), 0, writes=("index.html", ".kitgen-kit")
    ),
    Attack(
        "marker a link, forced",
        "marker",
        _marker_file("link", "--force"),
        2,
        "where it would write its own: .kitgen-kit",
    ),
    Attack("marker a FIFO", "marker", _marker_file("fifo"), 2, "did not write: .kitgen-kit"),
    Attack("marker huge", "marker", _marker_file("huge"), 2, "did not write: .kitgen-kit"),
    Attack(
        "previews a link out of the kit",
        "marker",
        _linked_previews(),
        2,
        "its own: previews (a symbolic link where kitgen needs a folder);",
    ),
    Attack(
        "previews a link out of the kit, not written",
        "marker",
        _linked_previews("--no-previews"),
        0,
        writes=KIT,
    ),
    Attack("a kit file edited, forced", "marker", _edited, 2, "index.html (changed since kitgen wrote it)"),
    # files read (part 9)
    Attack("table time a FIFO", "fifo", _table_time("fifo"), 2, "a FIFO (named pipe), not a regular file"),
    Attack("table time a device", "fifo", _table_time("device"), 2, "a character device, not a regular file"),
    Attack("table time a folder", "fifo", _table_time("folder"), 2, "is a directory"),
    Attack("table time 2 MB", "fifo", _table_time("huge"), 2, "larger than 1,000,000 bytes"),
    Attack(
        "table time a YAML list",
        "fifo",
        _table_time("list"),
        2,
        "model.yaml:1: expected a mapping, got a list",
    ),
    Attack("spec a FIFO", "fifo", _fifo_named(["verify", "FIFO"], "mine.yaml"), 2, "a FIFO (named pipe)"),
    Attack("rule set a FIFO", "fifo", _fifo_named(["play", "FIFO"], "mine.yaml"), 2, "a FIFO (named pipe)"),
    Attack(
        "protocol a FIFO",
        "fifo",
        _fifo_named(["play", "uno", "--virtual", "2", "--protocol", "FIFO"], "p.yaml"),
        2,
        "a FIFO",
    ),
    Attack("replay a FIFO", "fifo", _fifo_named(["replay", "FIFO"], "r.json"), 2, "a FIFO (named pipe)"),
    Attack("replay a device", "fifo", _given(["replay", "/dev/zero"]), 2, "a character device"),
    # --weights (part 10)
    Attack(
        "weights twice", "weights", _given([*WEIGHTED, "action=3,action=4"]), 2, "'action' is given twice"
    ),
    Attack(
        "weights 100,000 characters",
        "weights",
        _given([*WEIGHTED, "a" * 100_000]),
        2,
        "100,000 characters long",
    ),
    Attack(
        "weights 501 characters",
        "weights",
        _given([*WEIGHTED, "action=3," * 55 + "wild=22"]),
        2,
        "characters long",
    ),
    # impossible deals (part 11)
    Attack(
        "three wilds of a five-card deck",
        "deal",
        _given(["simulate", "weighted-selection", "--input", "cards=wild,wild,wild,red1,green2"]),
        2,
        "wild is given 3 times, but the deck of scenario mini",
    ),
    Attack(
        "a card the scenario's deck lacks",
        "deal",
        _given(
            ["simulate", "card-selection", "--deck", "mini", "--input", "cards=red9,red1,green2,yellow5,wild"]
        ),
        2,
        "red9 is not in the deck of scenario mini",
    ),
)
BY_NAME = {a.name: a for a in ATTACKS}
# One or two of each group, the test's quick subset (a few seconds of CPU in one process).
QUICK = (
    "record over a user's file",
    "record over a FIFO, forced",
    "record over an earlier record",
    "forged marker, no checksums",
    "forged marker, right checksums",
    "marker a link, forced",
    "table time a FIFO",
    "table time a YAML list",
    "weights twice",
    "weights 100,000 characters",
    "three wilds of a five-card deck",
)


def snapshot(folder: Path) -> dict[str, str]:
    """Every entry under ``folder``: a file's checksum, a link's target, or another kind."""
    out: dict[str, str] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            rel = path.relative_to(folder).as_posix()
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                out[rel] = "link " + os.readlink(path)
            elif stat.S_ISREG(mode):
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            elif not stat.S_ISDIR(mode):
                out[rel] = f"mode {stat.S_IFMT(mode):o}"
    return out


@dataclass
class Outcome:
    attack: str
    code: int | None = None  # None: killed (a hang)
    output: str = ""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def judge(
    attack: Attack, code: int | None, output: str, before: dict[str, str], after: dict[str, str]
) -> list[str]:
    """What went wrong (nothing: the attack was handled)."""
    problems = []
    if code is None:
        return [f"no answer within {LIMIT:.0f} s (a hang)"]
    if "Traceback (most recent call last)" in output:
        problems.append("a traceback")
    if code != attack.expect:
        problems.append(f"exit code {code}, not {attack.expect}: {output.strip()[-300:]}")
    elif attack.expect == 2:
        lines = [line for line in output.strip().splitlines() if not line.startswith("kitgen: ")]
        if len(lines) != 1 or attack.says not in lines[0]:
            problems.append(f"not one line saying {attack.says!r}: {output.strip()[-300:]}")
    changed = sorted(
        p for p in set(before) | set(after) if before.get(p) != after.get(p) and not _may_write(attack, p)
    )
    if changed:
        problems.append(f"changed: {', '.join(changed[:5])}")
    left = sorted(p for p in after if ".tmp-" in p or ".old-" in p or ".kitgen-probe-" in p)
    if left:
        problems.append(f"left behind: {', '.join(left[:5])}")
    return problems


def _may_write(attack: Attack, path: str) -> bool:
    return path in attack.writes


def run_one(attack: Attack, folder: Path) -> dict[str, Any]:
    """Make, run (in this process) and judge one attack in ``folder``: one JSON-able result."""
    from click.testing import CliRunner

    from kitgen.cli.main import main

    folder.mkdir(parents=True)
    here = os.getcwd()
    os.chdir(folder)
    try:
        args = attack.make(folder)
        before = snapshot(folder)
        started = time.process_time()
        result = CliRunner().invoke(main, args)
        seconds = time.process_time() - started
        code = (
            result.exit_code if result.exception is None or isinstance(result.exception, SystemExit) else 99
        )
        output = result.output + (
            f"\nTraceback (most recent call last): {result.exception!r}" if code == 99 else ""
        )
        after = snapshot(folder)
    finally:
        os.chdir(here)
    return {
        "attack": attack.name,
        "code": code,
        "output": output,
        "seconds": round(seconds, 2),
        "problems": judge(attack, code, output, before, after),
    }


def available(attack: Attack) -> bool:
    return not attack.needs_root or os.geteuid() == 0


def run(names: tuple[str, ...] | None = None, limit: float = LIMIT) -> list[Outcome]:
    """Run the attacks ``names`` (default: every one this machine can make) in driver processes;
    a driver silent for ``limit`` seconds is killed and its attack counted as a hang."""
    todo = [BY_NAME[n] for n in (names or [a.name for a in ATTACKS]) if available(BY_NAME[n])]
    outcomes: list[Outcome] = []
    work = Path(os.environ.get("TMPDIR", "/tmp")) / f"kitgen-attacks-{os.getpid()}-{time.monotonic_ns()}"
    try:
        while todo:
            done = list(_drive([a.name for a in todo], work, limit))
            outcomes.extend(done)
            todo = todo[len(done) :]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return outcomes


def _drive(names: list[str], work: Path, limit: float) -> Iterator[Outcome]:
    """One driver process over ``names``, in order, until it ends or stops answering."""
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__)), "drive", str(work), json.dumps(names)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    got = threading.Event()

    def reader() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            got.set()
        got.set()

    threading.Thread(target=reader, daemon=True).start()
    answered = 0
    while answered < len(names):
        got.clear()
        if len(lines) <= answered and not got.wait(limit) and len(lines) <= answered:
            proc.kill()
            proc.wait()
            yield Outcome(names[answered], None, "", limit, [f"no answer within {limit:.0f} s (a hang)"])
            return
        while answered < len(lines):
            data = json.loads(lines[answered])
            answered += 1
            yield Outcome(data["attack"], data["code"], data["output"], data["seconds"], data["problems"])
        if proc.poll() is not None and answered < len(names) and len(lines) <= answered:
            time.sleep(0.1)
            if len(lines) <= answered:
                yield Outcome(
                    names[answered], proc.returncode, "", 0.0, [f"the driver ended ({proc.returncode})"]
                )
                return
    proc.wait()


def summary(outcomes: list[Outcome]) -> dict[str, Any]:
    return {
        "attacks": len(outcomes),
        "handled": sum(not o.problems for o in outcomes),
        "hangs": sum(o.code is None for o in outcomes),
        "slowest_seconds": round(max((o.seconds for o in outcomes), default=0.0), 1),
        "problems": [{"attack": o.attack, "problems": o.problems} for o in outcomes if o.problems],
    }


if __name__ == "__main__" and sys.argv[1:2] == ["drive"]:
    _work = Path(sys.argv[2])
    for _i, _name in enumerate(json.loads(sys.argv[3])):
        _out = run_one(BY_NAME[_name], _work / f"{_i}-{hashlib.sha256(_name.encode()).hexdigest()[:8]}")
        print(json.dumps(_out), flush=True)
