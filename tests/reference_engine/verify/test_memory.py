"""An exact verification knows its memory: a whole-deck check forecast over ``--max-memory``
is refused before anything is dealt or run; any verification that passes the limit is stopped;
an allocation the system refuses is refused too. Always exit code 2 with the reason and what
would fit, never a ``MemoryError`` (reference_engine/verify/memory.py)."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from reference_engine.errors import MemoryRefused, UsageError
from reference_engine.machine import Runner
from reference_engine.registry import Library
from reference_engine.verify import verify, verify_deck
from reference_engine.verify.classes import ClassDeck
from reference_engine.verify.memory import (
    BASE_BYTES,
    GIB,
    MEASURED_PER_DEAL_CARD,
    MIB,
    PER_DEAL_CARD,
    class_forecast,
    deals_within,
    machine_limit,
    parse_size,
    per_deal_card,
    resident,
    size_text,
)

ROOT = Path(__file__).resolve().parents[3]


def kitgen(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


@pytest.fixture
def nothing_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fails the test if a class deal is listed or a protocol run starts."""
    happened: list[str] = []

    def listed(self: ClassDeck) -> Any:
        happened.append("class deals listed")
        raise AssertionError("the class deals were listed")

    def ran(self: Runner, *args: Any, **kwargs: Any) -> Any:
        happened.append("a run started")
        raise AssertionError("a run started")

    monkeypatch.setattr(ClassDeck, "_class_deals", listed)
    monkeypatch.setattr(Runner, "run", ran)
    return happened


def test_a_whole_deck_forecast_over_the_limit_is_refused_before_anything_is_dealt(
    library: Library, nothing_runs: list[str]
) -> None:
    """UNO, P_1 holding 3 cards: 2,048 class deals of 107 cards, forecast about 480 MB on top of
    the process; 300 MB more than the process holds fits hand 1 (1,024 class deals) only."""
    proto = library.protocol("card-selection")
    limit = resident() + 300 * MIB
    with pytest.raises(MemoryRefused) as caught:
        verify_deck(library, proto, "uno", 4, 3, max_memory=limit)
    text = caught.value.message
    assert f"does not fit in its limit of {size_text(limit)} («max_memory»)" in text, text
    assert "deals of the validity classes (69 not valid; 38 valid) of 107 cards" in text, text
    assert "nothing was run" in text and "P_1's hand up to 1 fits («hands» 1..1)" in text, text
    assert nothing_runs == []


def test_the_forecast_lets_a_table_that_fits_run(library: Library) -> None:
    """Crazy Eights for two (64 class deals of 51 cards) fits in 100 MB more than the process
    (the test run) holds now, and is verified."""
    limit = resident() + 100 * MIB
    report = verify_deck(library, library.protocol("card-selection"), "crazy-eights", 2, 7, max_memory=limit)
    assert report.ok and report.reduction is not None and report.reduction["class_deals"] == 64
    assert class_forecast(64, 51, resident()) < limit


def test_the_weighted_selection_on_a_whole_deck_is_refused_before_its_classes_are_counted(
    nothing_runs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its weights make some 10^8 class deals; the refusal of its tickets numbered by column (a
    static check of the spec) needs none of them, so it comes first (it used to list every class
    deal and die of MemoryError)."""

    def counted(self: ClassDeck, cap: int) -> int:
        raise AssertionError("the class deals were counted")

    monkeypatch.setattr(ClassDeck, "count", counted)
    code, out = kitgen("verify", "weighted-selection", "--hand", "1")
    assert code == 2, out
    assert "steps[10].then[0]: a place reads or fills scrambled columns in their order" in out
    assert "Traceback" not in out
    assert nothing_runs == []


def test_a_table_of_many_classes_is_counted_without_listing_them(
    library: Library, variant: Callable[..., Library], nothing_runs: list[str]
) -> None:
    """A game function that reads nothing but makes classes (a weight) multiplies the class deals
    (UNO, P_1 holding one card: about 1.3 x 10^8 of them, where the listing used to die of
    MemoryError): they are counted only up to the most that fit, then refused."""
    from reference_engine.verify.deck import whole_table
    from reference_engine.verify.setting import table_setting

    table = whole_table(library.protocol("card-selection"), "uno", 4, 1)
    classes = table_setting(library.protocol("card-selection"), table).classes
    assert classes is not None and classes.count(10**6) == 1024  # two classes: valid or not
    assert classes.count(100) == 101  # the count stops past its cap
    nothing_runs.clear()
    weighty = variant(
        "card-selection",
        ("context:\n", "context:\n  weight: {doc: a card's weight (read by no step)}\n"),
        (
            "    state: {top: red5, color: red}\n",
            "    state: {top: red5, color: red, weights: {action: 3}}\n",
        ),
    )
    with pytest.raises(MemoryRefused) as caught:
        verify_deck(
            weighty, weighty.protocol("card-selection"), "uno", 4, 1, max_memory=resident() + (1 << 30)
        )
    text = caught.value.message
    assert "deals of the validity classes (" in text and "the most that fit" in text, text
    assert "weight 3" in text and "No smaller hand of P_1 fits" in text, text
    assert nothing_runs == []


def test_a_verification_that_passes_the_limit_is_stopped(library: Library) -> None:
    """The lottery at m = 8 holds about 110 MB: with 25 MB more than the process holds now, it is
    stopped as it passes them, and refused with what was measured and what to try."""
    # In a fresh process: one that ran other tests first may reuse memory it already holds and
    # never grow past the limit, so the stop would depend on the test order.
    code = (
        "from reference_engine.errors import MemoryRefused\n"
        "from reference_engine.registry import Library\n"
        "from reference_engine.verify import verify\n"
        "from reference_engine.verify.memory import MIB, resident\n"
        "library = Library()\n"
        "proto = library.protocol('covert-lottery-modified')\n"
        "try:\n"
        "    verify(library, proto, {'m': 8}, max_memory=resident() + 25 * MIB)\n"
        "except MemoryRefused as e:\n"
        "    print(e.message)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False, timeout=600
    )
    text = done.stdout  # the settings marked: each front end names them its way
    assert "the exact verification of covert-lottery-modified was stopped: it passed" in text, text
    assert "«max_memory»" in text and "«estimate»" in text and "«workers»" in text, text


def test_a_partition_that_passes_its_share_stops_the_verification() -> None:
    """Split over two processes, each partition guards its share of the limit (what is left
    after the coordinator); the first to pass it stops them all: exit 2, one line, the flags
    named as the command line has them, and no worker left behind."""
    done = subprocess.run(
        [sys.executable, "-m", "kitgen", "verify", "covert-lottery-modified", "--param", "m=8"]
        # 110M leaves each partition ~20 MB past the coordinator's ~70 MB: stopped within ~2 s of
        # CPU (150M: ~6 s); a coordinator grown past the limit leaves each 1 MiB (limit_share),
        # which stops them the same way.
        + ["--workers", "2", "--max-memory", "110M"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=600,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 2, out
    assert "of the exact verification of covert-lottery-modified was stopped: it grew by" in out, out
    assert "(--max-memory)" in out and "Traceback" not in out, out


def test_an_allocation_the_system_refuses_is_refused_as_well(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_memory(self: Runner, *args: Any, **kwargs: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(Runner, "run", no_memory)
    with pytest.raises(MemoryRefused, match="the system refused it more memory"):
        verify(library, library.protocol("six-card-and"))


def test_the_default_limit_keeps_to_the_process_limits() -> None:
    """Under ``ulimit -v`` the default limit stays below it (the process's mappings counted)."""
    soft = 1536 * MIB
    child = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({soft}, {soft}))\n"
        "from reference_engine.verify.memory import machine_limit\n"
        f"print(machine_limit() < {soft})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.stdout.strip() == "True", done.stderr
    assert 0 < machine_limit() < psutil.virtual_memory().total


@pytest.mark.parametrize(
    ("text", "size"), [("4G", 4 << 30), ("500M", 500 * MIB), ("2.5GB", int(2.5 * (1 << 30))), ("1024", 1024)]
)
def test_sizes(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "lots", "-1G", "0", "4X", "nanG", "inf", "1" * 40])
def test_bad_sizes_are_refused(text: str) -> None:
    with pytest.raises(UsageError, match="is a size such as 512M"):
        parse_size(text)


def test_a_bad_max_memory_is_one_line_and_exit_2() -> None:
    code, out = kitgen("verify", "six-card-and", "--max-memory", "lots")
    assert code == 2 and "--max-memory is a size such as 512M, 4G or 2.5GB, not 'lots'" in out, out


def test_the_forecast_model() -> None:
    assert class_forecast(0, 100) == BASE_BYTES
    assert class_forecast(10, 100) == BASE_BYTES + 10 * 100 * PER_DEAL_CARD
    assert (
        class_forecast(deals_within(1 << 30, 107), 107)
        <= 1 << 30
        < class_forecast(deals_within(1 << 30, 107) + 1, 107)
    )


def test_a_protocol_measured_above_the_default_is_forecast_at_its_own_figures() -> None:
    """card-selection-arrow's class deals hold more the more cards P_1 holds (its knockout
    lottery): at a measured hand its figure, between measured hands the larger hand's, past the
    last one grown as between the last two; any other protocol, or a small hand, the default."""
    arrow = MEASURED_PER_DEAL_CARD["card-selection-arrow"]
    assert per_deal_card("card-selection", 7) == per_deal_card(None, 7) == PER_DEAL_CARD
    assert per_deal_card("card-selection-arrow", 1) == PER_DEAL_CARD
    assert per_deal_card("card-selection-arrow", 6) == arrow[6] > PER_DEAL_CARD
    figures = [per_deal_card("card-selection-arrow", h) for h in range(1, 11)]
    assert figures == sorted(figures) and figures[7] > arrow[7]
    assert figures[7] == math.ceil(arrow[7] * arrow[7] / arrow[6])
    big = 4096 * 108
    assert class_forecast(4096, 108, per_card=arrow[7]) == BASE_BYTES + big * arrow[7]
    assert deals_within(class_forecast(4096, 108, per_card=arrow[7]), 108, per_card=arrow[7]) == 4096


def test_the_arrow_protocols_hand_7_is_refused_at_once_where_hand_5_fits(
    library: Library, nothing_runs: list[str]
) -> None:
    """UNO's default protocol, P_1 holding 7 cards: 4,096 class deals of 108 cards, forecast at
    its own figure (about 12 GB, measured 10.5 GB; the default figure said under 1 GB, and the
    run was stopped part way by the guard). In 3 GB more than the process holds, hands up to 5
    fit."""
    proto = library.protocol("card-selection-arrow")
    limit = resident() + 3 * GIB
    with pytest.raises(MemoryRefused) as caught:
        verify_deck(library, proto, "uno", 4, 7, max_memory=limit)
    text = caught.value.message
    assert f"about {per_deal_card('card-selection-arrow', 7):,} bytes per card" in text, text
    assert "nothing was run" in text and "P_1's hand up to 5 fits («hands» 1..5)" in text, text
    assert nothing_runs == []
