"""Exact verification split over processes: the secret inputs in partitions, one per worker.

Every partition runs the protocol on its own inputs (:func:`run_part`) and sends back a
:class:`Part`: per-input probabilities of every (view, outputs), keyed by view *digests* (a
view's name that is the same in every process, see :meth:`ViewTable.digest`), the resources
used and what sub-protocols did. :func:`combine` adds the parts up; the checks then read the
sum exactly as they read a single run.

Two things need every input at once, and are decided by the coordinator:

* **merging views** (:func:`~reference_engine.machine.forget`): at each top-level step, every
  partition describes its views (a local class and a constant per view) and waits; the
  coordinator decides the merges on all of them together (:func:`decide_merges`) and every
  partition applies the same decision. The partitions therefore advance in lockstep, step by
  step (a barrier per top-level step).
* **factoring a sub-protocol's view** (:mod:`~reference_engine.machine.calls`): a callee's
  view is dropped when it has one conditional distribution for all the arguments it is ever
  run on. Each partition checks its own arguments; :func:`combine` checks the partitions'
  distributions against each other, and a disagreement starts the run again with that callee
  inlined, as a single process would.

A verification with one partition runs the same code in the calling process, so its report
is the one the partitioned runs must reproduce (the tests compare them field by field; only
the work statistics, which describe the computation and not the protocol, differ).

The workers are ``multiprocessing`` processes (:class:`ProcessPool`, ``--workers N``) or the
tasks of a Dask cluster (:mod:`.cluster`, ``--scheduler ADDRESS``); both carry the same
messages through a :class:`Channel`.
"""

from __future__ import annotations

import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any
from typing import Protocol as Interface

from .. import progress
from ..cards import DEALT, SYMBOLS
from ..collector import paused
from ..errors import EvalError, KitgenError, MemoryRefused, Problem, ReductionRefused, SimulationError
from ..machine import (
    LocalDecider,
    Merge,
    MergeDecider,
    Runner,
    Shared,
    Sizes,
    ViewInfo,
    ViewTable,
    add_vec,
    decide_candidates,
    decide_merges,
    order_read,
)
from ..machine.deferred import Deferred
from ..machine.store import SubrunStore
from ..machine.views import local, portable, portable_code
from ..registry import Library
from ..seating import Seats
from ..spec import Params, Protocol
from .checks import Wrong, wrong_outcomes
from .classes import Table
from .inputs import input_assignments
from .memory import Guard, general_advice
from .outcomes import LEFT_EXAMPLES, Aggregate, Outcomes
from .setting import Setting, setting, table_setting

Key = tuple[str, tuple[Any, ...]]
"""(view digest, output values): what the checks compare."""


@dataclass(frozen=True)
class Job:
    """What one worker needs to run its partition, all of it plain data (picklable)."""

    protocol: str  # a name, or the path of a spec file
    roots: tuple[str, ...]  # the library's folders, searched in this order
    params: dict[str, Any]
    scenario: str | None
    index: int  # which partition
    parts: int  # of how many
    no_factor: tuple[str, ...] = ()
    record_reveals: bool = False
    table: Table | None = None  # a verification by validity classes (see .classes)
    store: str | None = None  # a folder of sub-runs shared by the partitions (machine.store)
    observer: str | None = None  # the person whose view the run follows (None: the table's)
    max_memory: int | None = None  # bytes this partition may use (None: what its machine has)


@dataclass
class Part:
    """What one partition found: everything the checks need, with portable view names."""

    agg: dict[Key, tuple[int, dict[int, int]]] = field(default_factory=dict)
    chains: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # final view digest -> chain
    left: list[str] = field(default_factory=list)  # the smallest few stray-card descriptions
    shuffles: list[int] = field(default_factory=list)  # [fewest, most] over the final states
    turns: list[int] = field(default_factory=list)
    peak: dict[str, int] = field(default_factory=dict)  # most helper cards out at once, by symbol
    # The printed glyphs of those symbols: a coordinator that never ran the protocol itself meets
    # λ3 or θ1 first here, and must not intern them as the bare names "label3", "theta1".
    glyphs: dict[str, str] = field(default_factory=dict)
    input_cards: dict[str, int] = field(default_factory=dict)  # most input cards, by symbol
    kinds: dict[str, int] = field(default_factory=dict)
    calls: dict[tuple[int, str], int] = field(default_factory=dict)
    extent: tuple[int, int] = (0, 0)
    reveals: dict[tuple[str, str], set[tuple[Any, ...]]] | None = None
    factored: dict[str, str] = field(default_factory=dict)
    no_factor: set[str] = field(default_factory=set)
    refs: dict[Any, dict[Any, dict[str, Fraction]]] = field(default_factory=dict)  # callee -> o -> view
    subruns: set[Any] = field(default_factory=set)
    final_states: int = 0
    states_processed: int = 0
    peak_frontier: int = 0
    inputs: int = 0
    restart: str | None = None
    share: int = 0  # how many of the inputs are this partition's
    cpu_seconds: float = 0.0  # this partition's processor time (its share of the work)
    subruns_run: int = 0  # sub-runs it ran itself (with a shared store; else all of them)
    subruns_loaded: int = 0  # sub-runs another partition ran for it
    wrong: Wrong = field(default_factory=Wrong)  # its wrong outcomes (see checks.correctness)


class ReadError(Exception):
    """The protocol ran to the end but its outputs cannot be read (a spec error, raised as
    such by :func:`~.exact.verify`, unlike a run that cannot be carried out)."""

    def __init__(self, error: SimulationError):
        super().__init__(str(error))
        self.error = error


# --------------------------------------------------------------------------- one partition


def partition(n: int, index: int, parts: int) -> range:
    """The input indices of partition ``index`` of ``parts``: contiguous, sizes differing by
    at most one (inputs next to each other share most states)."""
    lo, hi = n * index // parts, n * (index + 1) // parts
    return range(lo, hi)


@paused()
def run_part(
    library: Library,
    proto: Protocol,
    params: Params,
    scenario: str | None,
    index: int,
    parts: int,
    no_factor: set[str],
    record_reveals: bool,
    merge_views: MergeDecider,
    table: Table | None = None,
    store: str | None = None,
    observer: str | None = None,
) -> Part:
    """Run the inputs of one partition through every shuffle outcome and read the result
    (the cycle collector paused, see :mod:`~..collector`). With ``table``, the inputs are the
    class deals of a verification by classes (see :mod:`.classes`, :mod:`.symmetry`).
    ``observer`` names the person whose view the run follows: the cards that come into the
    hands they hold (in called protocols too, see :mod:`reference_engine.seating`) join it."""
    st_ = table_setting(proto, table, params) if table is not None else setting(proto, params, scenario)
    shared = Shared(
        no_factor=set(no_factor),
        reveals={} if record_reveals else None,
        restartable=True,
        merge_views=merge_views,
        store=SubrunStore(store) if store is not None else None,
    )
    if st_.classes is None:
        return _run_part(library, proto, st_, shared, index, parts, observer)
    from .segments import plan_segments
    from .symmetry import Symmetry

    shared.symmetry = Symmetry(plan_segments(library, proto), st_.classes.owner, st_.classes.faces)
    hidden = set(st_.classes.key_of) - DEALT.ids
    st_.classes.hide()
    try:
        return _run_part(library, proto, st_, shared, index, parts, observer)
    finally:
        DEALT.ids.difference_update(hidden)


def class_assignments(proto: Protocol, st_: Setting) -> list[dict[str, Any]]:
    """The inputs of a verification by classes: one per class deal (see :mod:`.classes`)."""
    assert st_.classes is not None
    (name,) = [n for n, d in proto.inputs.items() if d.groups is not None]
    return [{name: st_.classes.assignment(d)} for d in st_.classes.deals]


def _run_part(
    library: Library,
    proto: Protocol,
    st_: Setting,
    shared: Shared,
    index: int,
    parts: int,
    observer: str | None = None,
) -> Part:

    started = time.process_time()
    runner = Runner(library, "exact", shared=shared, context=st_.context)
    runner.forget_views = True
    runner.seat(Seats.top(proto, frozenset({observer} if observer is not None else ())))
    frame = runner.frame(proto, st_.params)
    runner.limits = frame.helpers
    if st_.classes is not None:
        assignments = class_assignments(proto, st_)
    else:
        assignments = input_assignments(frame, st_.deal)
    deferred = Deferred(frame, assignments)
    mine = partition(len(assignments), index, parts)
    try:
        frontier = deferred.initial(mine)
        input_cards = deferred.most_cards(mine)
    except EvalError as exc:
        raise SimulationError("", proto.src.problem(("inputs",), str(exc))) from None
    shared.deferred = deferred
    final = runner.run(frame, frontier, lambda s: order_read(runner, frame, s)) if frontier else {}
    if shared.restart is not None:
        return Part(restart=shared.restart)
    try:
        outcomes = Outcomes.read(runner, frame, final)
        wrong = wrong_outcomes(proto, frame, assignments, outcomes.agg, runner.views, mine)
    except SimulationError as exc:
        raise ReadError(exc) from None
    views = runner.views
    part = Part(
        left=sorted(set(outcomes.left))[:LEFT_EXAMPLES],
        shuffles=[min(outcomes.shuffles), max(outcomes.shuffles)] if outcomes.shuffles else [],
        turns=[min(outcomes.turns), max(outcomes.turns)] if outcomes.turns else [],
        peak={SYMBOLS.by_id(sid).name: n for sid, n in outcomes.peak.items()},
        glyphs={SYMBOLS.by_id(sid).name: SYMBOLS.by_id(sid).glyph for sid in outcomes.peak},
        input_cards={SYMBOLS.by_id(sid).name: n for sid, n in input_cards.items()},
        kinds=dict(outcomes.kinds),
        calls=dict(outcomes.calls),
        extent=shared.extent,
        reveals=shared.reveals,
        factored=dict(shared.factored),
        no_factor=set(shared.no_factor),
        subruns={
            (key[0], tuple(tuple(portable_code(c) for c in arg) for arg in key[1])) for key in shared.subruns
        },
        final_states=len(final),
        states_processed=shared.states_processed,
        peak_frontier=shared.peak_frontier,
        inputs=len(assignments),
        share=len(mine),
        cpu_seconds=round(time.process_time() - started, 3),
        subruns_run=shared.store.run if shared.store is not None else len(shared.subruns),
        subruns_loaded=shared.store.loaded if shared.store is not None else 0,
        wrong=wrong,
    )
    for (view, values), vec in outcomes.agg.items():
        d = views.digest(view)
        if d not in part.chains:
            part.chains[d] = views.export(view)
        part.agg[(d, portable(values))] = vec
    for key, by_output in shared.factor_refs.items():
        part.refs[key] = {
            portable(o): {views.digest(v): p for v, p in dist.items()} for o, dist in by_output.items()
        }
    return part


# --------------------------------------------------------------------------- the sum


@dataclass
class Combined:
    """The parts added up, with views interned in this process's table."""

    agg: dict[tuple[int, tuple[Any, ...]], tuple[int, dict[int, int]]]
    views: ViewTable
    parts: list[Part]
    notes: list[str]


def combine(parts: list[Part]) -> Combined | str:
    """Add the parts up; or the name of a callee whose view the partitions factored with
    different distributions (the run must start again with it inlined)."""
    refs: dict[Any, dict[Any, dict[str, Fraction]]] = {}
    for part in parts:
        for key, by_output in part.refs.items():
            mine = refs.setdefault(key, {})
            for o, dist in by_output.items():
                if o in mine and mine[o] != dist:
                    return str(key[0])
                mine.setdefault(o, dist)
    views = ViewTable()
    ids: dict[str, int] = {}
    agg: dict[tuple[int, tuple[Any, ...]], tuple[int, dict[int, int]]] = {}
    owned: set[int] = set()
    chains = {d: chain for part in parts for d, chain in part.chains.items()}
    for d in sorted(chains):  # view ids in one order whatever the partitions found first
        ids[d] = views.adopt(chains[d])
    for part in parts:
        for (d, values), vec in part.agg.items():
            add_vec(agg, (ids[d], local(values)), vec, owned)
    # One order and one form whatever the number of partitions: the checks list examples in
    # this order (keys by view and value, inputs by index), and fractions in lowest terms.
    order = sorted(agg, key=lambda k: (views.digest(k[0]), repr(k[1])))
    return Combined({k: _lowest(agg[k]) for k in order}, views, parts, [])


def _lowest(vec: tuple[int, dict[int, int]]) -> tuple[int, dict[int, int]]:
    den, nums = vec
    g = den
    for v in nums.values():
        g = math.gcd(g, v)
    return den // g, {u: nums[u] // g for u in sorted(nums)}


# --------------------------------------------------------------------------- workers


class Channel(Interface):
    """The coordinator's side of the workers' messages (see :func:`coordinate`)."""

    def receive(self, active: Sequence[int]) -> dict[int, tuple[Any, ...]]:
        """One message from each active worker."""

    def send(self, index: int, message: Any) -> None: ...


def coordinate(
    channel: Channel, parts: int, what: str = "verifying"
) -> tuple[dict[int, tuple[Any, ...]], list[str]]:
    """Serve the workers' rounds until every one has finished. At each merge of views every
    worker still running sends ``("sizes", step, sizes)`` and gets the candidates
    (:func:`decide_candidates`); when there are any, each then sends ``("forget", step,
    info)`` and gets the merges (:func:`decide_merges`). A worker that finishes sends
    ``("done", ...)`` or ``("error", ...)``. Returns the final messages by worker and the
    notes of the merges."""
    active = list(range(parts))
    final: dict[int, tuple[Any, ...]] = {}
    notes: list[str] = []
    views = 0  # distinct views at the last merge, in all partitions
    rounds = 0
    while active:
        messages = channel.receive(active)
        for i in active:  # a partition out of memory stops them all at once (the others would too)
            if messages[i][:2] == ("error", "memory"):
                raise_error(messages[i])
        asking = [i for i in active if messages[i][0] in ("sizes", "forget")]
        for i in active:
            if i not in asking:
                final[i] = messages[i]
        active = asking
        if not asking:
            break
        kinds = {messages[i][:2] for i in asking}
        if len(kinds) != 1:
            raise KitgenError(f"workers out of step: {sorted(kinds)} in the same round")
        kind, label = kinds.pop()
        reply: Any
        if kind == "sizes":
            sizes = [messages[i][2] for i in asking]
            views = len(set().union(*sizes))
            reply = decide_candidates(sizes)
            rounds += 1
            progress.report(what, rounds, None, f"step {label} done in {len(asking)} workers")
        else:
            reply, note = decide_merges(label, [messages[i][2] for i in asking], views)
            if note:
                notes.append(note)
        for i in asking:
            channel.send(i, reply)
    return final, notes


class _Remote:
    """A worker's side of the decisions: ask the coordinator and wait."""

    def __init__(self, send: Callable[[Any], None], receive: Callable[[], Any]):
        self.send, self.receive = send, receive

    def candidates(self, label: str, sizes: Sizes) -> list[str]:
        self.send(("sizes", label, sizes))
        out: list[str] = self.receive()
        return out

    def merges(self, label: str, info: ViewInfo) -> list[Merge]:
        self.send(("forget", label, info))
        out: list[Merge] = self.receive()
        return out


def worker_main(job: Job, send: Callable[[Any], None], receive: Callable[[], Any]) -> None:
    """What a worker process runs: its partition, talking to the coordinator through
    ``send``/``receive``; ends by sending ``("done", part)`` or ``("error", ...)``."""
    try:
        library = Library([Path(r) for r in job.roots])
        proto = library.protocol(job.protocol)
        what = f"partition {job.index + 1} of {job.parts} of the exact verification of {proto.name}"
        with Guard(job.max_memory, what, general_advice, grown=True):
            part = run_part(
                library,
                proto,
                job.params,
                job.scenario,
                job.index,
                job.parts,
                set(job.no_factor),
                job.record_reveals,
                _Remote(send, receive),
                job.table,
                job.store,
                job.observer,
            )
        send(("done", part))
    except ReductionRefused as exc:
        send(("error", "refused", exc.reason, exc.problem))
    except MemoryRefused as exc:  # the message with its settings marked (named by the front end)
        send(("error", "memory", exc.message))
    except SimulationError as exc:
        send(("error", "simulation", str(exc), exc.problem))
    except ReadError as exc:
        send(("error", "read", str(exc.error), exc.error.problem))
    except KitgenError as exc:  # a user's error found in the worker: one line, its exit code
        send(("error", "kitgen", exc.format_message(), (exc.exit_code, exc.stage)))
    except Exception as exc:  # reported to the coordinator, which raises it
        send(("error", type(exc).__name__, str(exc), traceback.format_exc()))


def raise_error(message: tuple[Any, ...]) -> None:
    """Raise, in the coordinator, what a worker reported."""
    if message[1] == "refused":
        raise ReductionRefused(message[2], message[3])
    if message[1] == "memory":
        raise MemoryRefused(message[2])
    if message[1] in ("simulation", "read"):
        problem: Problem | None = message[3]
        error = SimulationError(message[2], problem)
        if message[1] == "read":
            raise ReadError(error)
        raise error
    if message[1] == "kitgen":
        raise _relayed(message[2], *message[3])
    raise KitgenError(f"a verification worker failed: {message[1]}: {message[2]}\n{message[3]}")


def _relayed(message: str, exit_code: int, stage: str) -> KitgenError:
    """A user's error that a worker found, raised again in the coordinator as it was: its
    message, exit code and stage."""
    relayed = type("Relayed", (KitgenError,), {"exit_code": exit_code, "stage": stage})
    error: KitgenError = relayed(message)
    return error


class _Pipes:
    def __init__(self, conns: list[Any]):
        self.conns = conns

    def receive(self, active: Sequence[int]) -> dict[int, tuple[Any, ...]]:
        """One message from each active worker, taken as they come: a worker out of memory
        stops the run at once, whatever the others are doing."""
        out: dict[int, tuple[Any, ...]] = {}
        pending: dict[Any, int] = {self.conns[i]: i for i in active}
        while pending:
            ready: list[Any] = multiprocessing.connection.wait(list(pending))
            for conn in ready:
                i = pending.pop(conn)
                try:
                    out[i] = conn.recv()
                except EOFError:
                    out[i] = ("error", "WorkerDied", f"worker {i} ended without an answer", "")
                if out[i][:2] == ("error", "memory"):
                    raise_error(out[i])
        return out

    def send(self, index: int, message: Any) -> None:
        self.conns[index].send(message)


def _watch_coordinator(coordinator: int) -> None:
    """Ends this worker at once when its coordinator has died (even by SIGKILL, which no
    handler sees): the worker then has a new parent. Without this, a worker would compute on
    and then wait forever, holding the build's stdout and stderr open."""
    while os.getppid() == coordinator:
        time.sleep(0.25)
    os._exit(1)


def _process_main(job: Job, conn: Any, coordinator: int, inherited: list[Any]) -> None:
    # The coordinator answers Ctrl-C (and a build's clean-up handlers stay with it): a worker
    # only ends when the coordinator ends it, closes the pipe, or dies.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for end in inherited:  # the coordinator's ends, copied by fork: closed, so EOF can arrive
        end.close()
    threading.Thread(target=_watch_coordinator, args=(coordinator,), daemon=True).start()
    try:
        with progress.reporting(None):  # the coordinator reports the rounds
            worker_main(job, conn.send, conn.recv)
    except (EOFError, BrokenPipeError):
        pass  # the coordinator is gone
    finally:
        conn.close()


class ProcessPool:
    """Partitions in local processes: forked where the system can (they start with this
    process's library and inputs), spawned elsewhere (they load the library again)."""

    def run(self, jobs: list[Job]) -> tuple[list[tuple[Any, ...]], list[str]]:
        methods = multiprocessing.get_all_start_methods()
        ctx: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        conns: list[Any] = []
        procs = []
        forked = ctx.get_start_method() == "fork"
        try:
            for job in jobs:
                mine, theirs = ctx.Pipe()
                inherited = [*conns, mine] if forked else []
                p = ctx.Process(target=_process_main, args=(job, theirs, os.getpid(), inherited), daemon=True)
                p.start()
                theirs.close()
                conns.append(mine)
                procs.append(p)
            final, notes = coordinate(_Pipes(conns), len(jobs), f"verifying {jobs[0].protocol}")
        except BaseException:  # Ctrl-C, a worker's failure: the others stop now
            for p in procs:
                p.terminate()
            raise
        finally:
            for p in procs:
                p.join(timeout=5)
                if p.is_alive():
                    p.terminate()
        return [final[i] for i in range(len(jobs))], notes


@dataclass(frozen=True)
class Run:
    """One exact verification to split into partitions: the protocol, its setting, how many
    partitions and where they run, and each local partition's memory limit in bytes (None:
    what its machine has; see :mod:`.memory`)."""

    library: Library
    proto: Protocol
    params: Params
    scenario: str | None
    workers: int
    backend: Backend | None
    table: Table | None = None
    max_memory: int | None = None

    def jobs(
        self, record_reveals: bool, no_factor: set[str], store: str | None, observer: str | None
    ) -> list[Job]:
        return [
            Job(
                protocol=str(self.proto.file) if self.proto.file else self.proto.name,
                roots=tuple(str(r) for r in self.library.roots),
                params=dict(self.params),
                scenario=self.scenario,
                index=i,
                parts=self.workers,
                no_factor=tuple(sorted(no_factor)),
                record_reveals=record_reveals,
                table=self.table,
                store=store,
                observer=observer,
                max_memory=self.max_memory,
            )
            for i in range(self.workers)
        ]


class Backend(Interface):
    """Runs jobs, one per partition, in lockstep; returns each worker's final message and the
    notes of the merges."""

    def run(self, jobs: list[Job]) -> tuple[list[tuple[Any, ...]], list[str]]: ...


def run_partitions(run: Run, record_reveals: bool, observer: str | None = None) -> Combined:
    """Run every input in ``run.workers`` partitions (in this process when 1 and no backend),
    starting again with a callee inlined when its view does not factor; ``observer``: see
    :func:`run_part`."""
    no_factor: set[str] = set()
    notes: list[str]
    while True:
        if run.workers > 1 and run.backend is None:
            with tempfile.TemporaryDirectory(prefix="kitgen-subruns-") as folder:
                messages, notes = ProcessPool().run(run.jobs(record_reveals, no_factor, folder, observer))
            for m in messages:
                if m[0] == "error":
                    raise_error(m)
            parts = [m[1] for m in messages]
        elif run.workers <= 1 and run.backend is None:
            notes = []
            decider = LocalDecider(notes)
            parts = [
                run_part(
                    run.library,
                    run.proto,
                    run.params,
                    run.scenario,
                    0,
                    1,
                    no_factor,
                    record_reveals,
                    decider,
                    run.table,
                    None,
                    observer,
                )
            ]
        else:
            assert run.backend is not None
            messages, notes = run.backend.run(run.jobs(record_reveals, no_factor, None, observer))
            for m in messages:
                if m[0] == "error":
                    raise_error(m)
            parts = [m[1] for m in messages]
        restart = next((p.restart for p in parts if p.restart is not None), None)
        if restart is None:
            combined = combine(parts)
            if isinstance(combined, str):
                restart = combined
            else:
                combined.notes = notes
                return combined
        if restart in no_factor:  # cannot happen: an inlined callee is never factored again
            raise KitgenError(f"{restart}'s view was inlined and still did not factor")
        no_factor.add(restart)


def outcomes_of(parts: list[Part], agg: Aggregate) -> Outcomes:
    """The partitions' outcomes added up (the examples of stray cards: the smallest)."""
    out = Outcomes(agg=agg)
    out.left = sorted({x for p in parts for x in p.left})[:LEFT_EXAMPLES]
    for p in parts:
        out.shuffles += p.shuffles
        out.turns += p.turns
        for name, n in p.peak.items():
            sid = SYMBOLS.intern(name, p.glyphs.get(name)).id
            out.peak[sid] = max(out.peak[sid], n)
        for k, n in p.kinds.items():
            out.kinds[k] = max(out.kinds[k], n)
        for key, n in p.calls.items():
            out.calls[key] = max(out.calls.get(key, 0), n)
        for name, n in p.input_cards.items():
            out.input_cards[name] = max(out.input_cards.get(name, 0), n)
    return out
