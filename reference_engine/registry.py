"""Finding protocol specs by name, and checking the calls between them.

Built-in specs live in ``rulesets/protocols/<name>.yaml``. A user's own spec can be
given as a path; the protocols it calls are looked up next to it first, then among
the built-in ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .cards import undone_on_error
from .errors import Problem, SpecError, UsageError
from .files import not_a_file
from .seating import seating_problems
from .spec import Protocol, load_protocol_checked
from .steps import Call, walk


def rulesets_dir() -> Path:
    """The ``rulesets/`` folder: in the source tree, or packaged inside the wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "rulesets", here / "_data" / "rulesets"):
        if candidate.is_dir():
            return candidate
    raise UsageError("cannot find the rulesets folder; reinstall kitgen")


@dataclass
class Entry:
    """One line of ``kitgen list``."""

    name: str
    kind: str
    summary: str
    file: str
    problem: str = ""


class Library:
    """Protocols by name, loaded on first use and linked (calls checked) once."""

    def __init__(self, roots: list[Path] | None = None):
        self.roots = list(roots) if roots is not None else [rulesets_dir() / "protocols"]
        self._loaded: dict[str, Protocol] = {}
        self._linked: set[str] = set()
        self._loading: list[str] = []

    def linked_protocol(self, name: str) -> Protocol | None:
        """The protocol this library has loaded and linked under ``name`` (None: not yet), without
        loading or checking anything: what a compiled program shared between libraries must find
        for every callee it was compiled with (:mod:`.compiled.programs`)."""
        return self._loaded.get(name) if name in self._linked else None

    def find_file(self, name: str) -> Path | None:
        for root in self.roots:
            for ext in (".yaml", ".yml"):
                p = root / f"{name}{ext}"
                if p.is_file():
                    return p
        return None

    def names(self) -> list[str]:
        seen: dict[str, None] = {}
        for root in self.roots:
            if root.is_dir():
                for p in sorted(root.glob("*.y*ml")):
                    seen.setdefault(p.stem, None)
        return list(seen)

    def protocol(self, name_or_path: str) -> Protocol:
        """A linked protocol, by name or by path to a YAML file."""
        if (
            name_or_path in self._linked
            and "/" not in name_or_path
            and not name_or_path.endswith((".yaml", ".yml"))
        ):  # a name already loaded and linked (a game asks at every start): no file system look-up
            return self._loaded[name_or_path]
        loaded, linked = dict(self._loaded), set(self._linked)
        try:
            with undone_on_error():
                return self._protocol(name_or_path)
        except BaseException:  # refused: no card printed, nothing of it (or its callees) kept
            self._loaded, self._linked = loaded, linked
            raise

    def _protocol(self, name_or_path: str) -> Protocol:
        path = Path(name_or_path)
        if path.is_dir() and (
            name_or_path.endswith((".yaml", ".yml")) or self.find_file(name_or_path) is None
        ):
            raise UsageError(f"{name_or_path} is a folder, not a spec file")
        if name_or_path.endswith((".yaml", ".yml")) or (path.is_file() and "/" in name_or_path):
            if not path.is_file():
                why = not_a_file(path)
                raise UsageError(f"{name_or_path}: {why}" if why else f"no such spec file: {name_or_path}")
            if path.resolve().parent not in [r.resolve() for r in self.roots]:
                self.roots.insert(0, path.resolve().parent)
            proto = self._checked(path)
            _same_name(proto, path)
            self._loaded[proto.name] = proto
        else:
            proto = self._load(name_or_path)
        self.link(proto)
        return proto

    def _load(self, name: str, caller: Problem | None = None) -> Protocol:
        proto = self._loaded.get(name)
        if proto is not None:
            return proto
        file = self.find_file(name)
        if file is None:
            known = ", ".join(self.names()) or "none"
            message = f"unknown protocol {name!r} (known: {known})"
            if caller is not None:
                raise SpecError([Problem(caller.file, caller.line, caller.path, message)])
            raise UsageError(message + "; `kitgen list` shows them all")
        self._loading.append(name)
        try:
            proto = self._checked(file)
        finally:
            self._loading.pop()
        _same_name(proto, file)
        self._loaded[name] = proto
        return proto

    def _checked(self, path: Path) -> Protocol:
        """Load a spec; report its own problems and those of its calls together."""
        proto, problems = load_protocol_checked(path)
        if proto is not None:
            for call in (s for s in walk(proto.steps) if isinstance(s, Call)):
                where = proto.src.problem(call.path, "")
                if call.protocol in self._loading or call.protocol == proto.name:
                    chain = " -> ".join([*self._loading, call.protocol])
                    problems.append(
                        proto.src.problem(call.path, f"protocols call each other in a loop: {chain}")
                    )
                    continue
                try:
                    callee = self._load(call.protocol, where)
                except SpecError as exc:
                    problems.extend(p for p in exc.problems if p not in problems)
                    continue
                problems.extend(_check_call(proto, call, callee))
        if problems or proto is None:
            raise SpecError(problems)
        return proto

    def link(self, proto: Protocol, stack: tuple[str, ...] = ()) -> None:
        """Check every call: the callee exists, arguments and results match its declaration."""
        if proto.name in self._linked:
            return
        if proto.name in stack:
            chain = " -> ".join(stack + (proto.name,))
            raise SpecError([proto.src.problem(("steps",), f"protocols call each other in a loop: {chain}")])
        problems: list[Problem] = []
        callees: list[Protocol] = []
        for call in (s for s in walk(proto.steps) if isinstance(s, Call)):
            where = proto.src.problem(call.path, "")
            try:
                callee = self._load(call.protocol, where)
            except SpecError as exc:
                problems.extend(exc.problems)
                continue
            callees.append(callee)
            problems.extend(_check_call(proto, call, callee))
        if problems:
            raise SpecError(problems)
        for callee in callees:
            self.link(callee, stack + (proto.name,))
        unsaid = seating_problems(self, proto)  # who holds a callee's hands, when people sit here
        if unsaid:
            raise SpecError(unsaid)
        self._linked.add(proto.name)

    def catalogue(self) -> list[Entry]:
        out = []
        for name in self.names():
            file = self.find_file(name)
            try:
                proto = self.protocol(name)
                out.append(Entry(name, "protocol", proto.summary or proto.title, str(file)))
            except SpecError as exc:
                out.append(Entry(name, "protocol", "", str(file), f"{len(exc.problems)} problem(s)"))
        return out


def _same_name(proto: Protocol, file: Path) -> None:
    """A spec is found by its file's name, so the protocol it declares must have that name: a
    file ``gakmoro-comparison.yaml`` declaring ``six-card-and`` would otherwise stand in for the
    shipped six-card AND wherever it is called."""
    stem = file.name.rsplit(".", 1)[0]
    if proto.name != stem:
        raise SpecError(
            [
                proto.src.problem(
                    ("protocol",),
                    f"the file {file.name} declares protocol {proto.name!r}; the name must match "
                    f"the file name: rename the file to {proto.name}.yaml or write 'protocol: {stem}'",
                )
            ]
        )


def _check_call(proto: Protocol, call: Call, callee: Protocol) -> list[Problem]:
    out = []

    def err(key: str, message: str) -> None:
        out.append(proto.src.problem(call.path + (key,), message))

    for name in callee.inputs:
        if name not in call.args:
            err("with", f"the call to {callee.name} is missing argument {name!r}")
    for name in call.args:
        if name not in callee.inputs:
            err("with", f"{callee.name} has no input {name!r} (inputs: {', '.join(callee.inputs)})")
    for name in call.params:
        if name not in callee.params:
            err(
                "params",
                f"{callee.name} has no parameter {name!r} (parameters: {', '.join(callee.params) or 'none'})",
            )
    for name, target in call.results.items():
        if name not in callee.outputs:
            err("results", f"{callee.name} has no output {name!r} (outputs: {', '.join(callee.outputs)})")
        elif callee.outputs[name].cards is None and target.name is None:
            err("results", f"output {name!r} is a public value: give a variable name to keep it in")
    for theirs, mine in call.players.items():
        if theirs not in callee.players:
            known = ", ".join(callee.players) or "none"
            err("players", f"{callee.name} declares no player {theirs!r} (its players: {known})")
        if mine not in proto.players:
            known = ", ".join(proto.players) or "none"
            err("players", f"{mine!r} is not a player of {proto.name} (its players: {known})")
    for name, o in callee.outputs.items():
        if o.cards is not None and name not in call.results:
            err(
                "results",
                f"say where the cards of {callee.name}'s output {name!r} go (results: {{{name}: ...}})",
            )
    return out
