"""The table-time model: actions counted from a trace, a schedule of people, the kits' figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli.main import main
from kitgen.core.templates import templates_dir
from kitgen.cost.gametime import FAR, NEAR, RunTimer
from kitgen.cost.tabletime import schedule, table_time
from kitgen.cost.tablework import RunWork, action_counts, run_work, spec_hints
from kitgen.cost.timemodel import ACTIONS, load_time_model, time_model, time_models, using_model
from kitgen.kit.build import KitOptions, build
from reference_engine.api import Library, PlaySettings, SpecError, UsageError, find_kind, load_game, simulate
from reference_engine.spec import load_protocol_text


def test_six_card_and_counted_by_hand() -> None:
    # Mizuki-Sone as the spec states it: Step 1 lays out x, α β and y (6 cards); Step 2 moves
    # cards 2, 3, 4 (a rearrangement of 3 moves); Step 3 is one pile-scramble shuffle of two
    # piles (2 envelopes); Step 4 moves cards back (3 moves); Step 5 turns two cards and puts
    # them back with the spares.
    library = Library()
    sim = simulate(library, library.protocol("six-card-and"), {}, ["x=1", "y=0"], 1)
    counts = action_counts(sim.trace.events)
    assert counts["place"] == 6
    assert counts["shuffle"] == 1 and counts["envelope"] == 2
    assert counts["turn"] == 2
    assert counts["rearrange"] == 6
    assert counts["return"] == 2
    model = time_model()
    t = table_time(sim.trace.events)  # one person: the schedule is the plain sum
    assert t.seconds == pytest.approx(sum(counts[a] * model.seconds[a] for a in ACTIONS))
    assert t.minutes == max(1, -(-int(t.seconds) // 60))


def test_the_direct_and_saves_the_rearrangements() -> None:
    library = Library()
    paper = simulate(library, library.protocol("six-card-and"), {}, ["x=1", "y=0"], 1)
    direct = simulate(library, library.protocol("six-card-and-direct"), {}, ["x=1", "y=0"], 1)
    a, b = action_counts(paper.trace.events), action_counts(direct.trace.events)
    assert b["rearrange"] == 0 and a["rearrange"] == 6
    assert {k: v for k, v in a.items() if k != "rearrange"} == {
        k: v for k, v in b.items() if k != "rearrange"
    }


def test_the_model_file_is_checked(tmp_path: Path) -> None:
    bad = tmp_path / "table_time.yaml"
    bad.write_text(
        "source: x\nseconds: {place: -1, turn: fast, bogus: 1}\nmixing: {piles: many}\n", encoding="utf-8"
    )
    with pytest.raises(SpecError) as err:
        load_time_model(bad)
    text = str(err.value)
    assert "table_time.yaml" in text and "seconds.place" in text and "bogus" in text and "move" in text
    assert "mixing.piles" in text


def test_big_shuffles_take_longer_and_everyone_mixes() -> None:
    model = time_model()
    assert model.mix_seconds(2, 3) == model.mix_seconds(model.mix_piles, 3) == model.seconds["shuffle"]
    big = model.mix_seconds(92, 3)
    assert big == pytest.approx(model.seconds["shuffle"] + (92 - model.mix_piles) * model.mix_per_pile / 3)
    assert model.mix_seconds(92, 1) > big > model.seconds["shuffle"]


def _uno_run(protocol: str) -> list:  # type: ignore[type-arg]
    library = Library()
    rules = load_game("uno")
    moment = find_kind(rules.kind).example_moment(rules, library, PlaySettings(4, 1))
    sizes = tuple(len(o) for o in moment.owners)
    cards = [c for o in moment.owners for c in o]
    sim = simulate(
        library,
        library.protocol(protocol),
        {"sizes": sizes},
        {"cards": cards},
        1,
        context={"valid": moment.valid},
    )
    return list(sim.trace.events)


def test_people_share_the_card_work_but_not_the_mixing() -> None:
    events = _uno_run("card-selection")
    one, three = table_time(events, 1), table_time(events, 3)
    assert one.work + one.mixing == pytest.approx(one.seconds)  # alone, the sum of its actions
    assert three.work == pytest.approx(one.work)  # the same card work, shared
    assert three.mixing < one.mixing  # everyone mixes the big shuffles together
    assert one.seconds / 3 < three.seconds < one.seconds  # mixing and one-person steps stay
    steps = schedule(events, 3)
    step4 = next(s for s in steps if s.label == "card-selection step 4")
    # 92 envelopes filled by three people, one big mix watched by all.
    assert step4.seconds == pytest.approx(step4.work / 3 + step4.mixing)
    assert step4.mixing == time_model().mix_seconds(92, 3)


def test_sleeves_change_which_action_a_card_costs() -> None:
    library = Library()
    events = _uno_run("card-selection-fast")
    sleeved = action_counts(events, spec_hints(library.protocol))
    paper = action_counts(_uno_run("card-selection"))
    # Only the six-card AND's two halves go in envelopes; every other pile is a sleeve.
    assert paper["envelope"] > 2 * 90 and sleeved["envelope"] == 2 * sum(
        1 for e in events if e.action == "shuffle" and e.protocol == "six-card-and-direct"
    )
    assert sleeved["shuffle"] == paper["shuffle"] - 1  # the lottery's first shuffle is left out
    assert sleeved["place"] < paper["place"] and sleeved["turn"] < paper["turn"]
    fast = table_time(events, 3, spec_hints(library.protocol))
    assert fast.seconds < 0.7 * table_time(_uno_run("card-selection"), 3).seconds


def test_a_runs_work_counted_once_schedules_as_its_events_do() -> None:
    """A run's work counted once (RunWork, what the kit's figures cost under both profiles) gives
    every step the same seconds, the same counts and the same table time as its events do; it
    carries its own hints (a later ``hints`` is not read again)."""
    library = Library()
    events = _uno_run("card-selection-fast")
    hints = spec_hints(library.protocol)
    work = run_work(events, hints)
    assert isinstance(work, RunWork) and run_work(work) is work
    assert [e for e, _, _ in work.events] == events
    models = time_models()
    assert len(models) == 2
    for model in models:
        for raw in (True, False):
            assert schedule(work, 3, model, raw=raw) == schedule(events, 3, model, hints, raw=raw)
    assert action_counts(work) == action_counts(events, hints) != action_counts(events)
    assert schedule(work, 3) != schedule(events, 3)  # without the hints, the sleeves cost otherwise
    assert table_time(work, 3) == table_time(events, 3, hints)


def test_a_step_beside_another_fills_idle_hands() -> None:
    library = Library()
    events = _uno_run("card-selection-fast")
    raw = schedule(events, 3, hints=spec_hints(library.protocol), raw=True)
    done = schedule(events, 3, hints=spec_hints(library.protocol))
    step12 = next(s for s in raw if s.label == "card-selection-fast step 12")
    after = next(s for s in done if s.label == "card-selection-fast step 12")
    assert step12.during == "10"
    assert after.seconds < step12.seconds  # some of the giving back happens during the lottery
    beside = [s for s in raw if s.top == "10" and s.during is None]
    idle = sum((3 - s.lanes) * (s.seconds - s.mixing) for s in beside)
    assert after.seconds == pytest.approx(max(0.0, step12.work - idle) / 3)


def test_one_run_per_table_size_from_two_traces() -> None:
    library = Library()
    rules = load_game("uno")
    moment = find_kind(rules.kind).example_moment(rules, library, PlaySettings(4, 1))
    deck = [c for o in moment.owners for c in o]
    timer = RunTimer(library, library.protocol("card-selection-fast"), deck, moment.valid, 3)
    m, k = 6, 6 + NEAR + 17
    assert [model.profile for model in timer.models] == ["optimistic", "cautious"]
    traced, _ = timer._steps(m, k, True)
    for i, model in enumerate(timer.models):  # one trace, a line under each profile
        near, far, called = timer._line(m, True)[i]
        direct = [s for s in traced[i] if s.depth == 0]
        t = (k - (m + NEAR)) / (FAR - NEAR)
        for a, b, d in zip(near, far, direct):
            assert a.label == d.label
            assert a.work + (b.work - a.work) * t == pytest.approx(d.work)
            assert a.seconds + (b.seconds - a.seconds) * t == pytest.approx(d.seconds), model.profile
        assert called and all(s.depth > 0 for s in called)
    fast, slow = timer.seconds(m, k, True)
    assert slow > fast > 0


def test_hints_are_checked_with_file_line_and_key(tmp_path: Path) -> None:
    text = Path(Library().protocol("card-selection-fast").file).read_text(encoding="utf-8")
    bad = text.replace('table: {during: "10"}', 'table: {during: "13"}')
    bad = bad.replace("    table: kept  #", "    table: glide  #", 1)
    with pytest.raises(SpecError) as err:
        load_protocol_text(bad, str(tmp_path / "card-selection-fast.yaml"))
    message = str(err.value)
    assert "table.during" in message and "not an earlier step" in message
    assert "table.all" in message and "glide" in message


def test_a_kit_states_turn_game_and_table_space(tmp_path: Path) -> None:
    manifest = build(
        KitOptions(ruleset="uno-small", output=str(tmp_path / "small"), runs=0, previews=False)
    ).to_json()
    cost = manifest["table_time"]
    for key in ("virtual_turn_minutes", "game_minutes_mean", "game_minutes_p90", "table_width_cm"):
        assert cost[key] > 0, key
    assert cost["game_minutes_p90"] >= cost["game_minutes_mean"] > cost["virtual_turn_minutes"]
    assert cost["people"] == 2  # 3 players, 1 of them virtual
    assert cost["protocol"] == "card-selection-arrow" and cost["paper"]["protocol"] == "card-selection"
    assert cost["paper"]["virtual_turn_minutes"] > cost["virtual_turn_minutes"]
    assert cost["compared"][0]["game"].startswith("UNO")
    assert cost["compared"][0]["turn_minutes"] > cost["virtual_turn_minutes"]
    booklet = json.loads((tmp_path / "small" / "booklet.json").read_text(encoding="utf-8"))
    assert booklet["table_time"] == cost
    index = (tmp_path / "small" / "index.html").read_text(encoding="utf-8")
    assert cost["text"][0].split(",")[0] in index
    assert "table_time.yaml" not in " ".join(cost["text"])  # no file names on a player's page


def test_play_says_what_the_game_takes_and_your_own_seconds_count(tmp_path: Path) -> None:
    args = ["play", "uno-small", "--level", "rule", "--seed", "2", "--json"]
    played = json.loads(CliRunner().invoke(main, args).stdout)
    ours = played["table_time"]
    assert ours["protocol_runs"] == len(played["virtual_tables"]) > 0
    assert ours["game_minutes"] > ours["protocol_minutes"] > 0
    slow = tmp_path / "slow.yaml"
    shipped = (templates_dir() / "table_time.yaml").read_text(encoding="utf-8")
    slow.write_text(shipped.replace("place: 1.0", "place: 4.0"), encoding="utf-8")
    result = CliRunner().invoke(main, [*args, "--table-time", str(slow)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["table_time"]["protocol_minutes"] > ours["protocol_minutes"]
    with using_model(slow) as model:
        assert model.seconds["place"] == 4.0 and time_model() is model
    assert time_model().seconds["place"] == 1.0
    broken = tmp_path / "broken.yaml"
    broken.write_text("seconds: {}\n", encoding="utf-8")
    bad = CliRunner().invoke(main, [*args, "--table-time", str(broken)])
    assert bad.exit_code == 2 and "broken.yaml" in bad.output and "Traceback" not in bad.output


def test_the_sleeves_say_what_each_card_costs() -> None:
    # The mini table (5 sleeves, 2 of them the virtual player's), counted by hand from the
    # sleeves alone: no table hint but Step 2's (the owner cards live in the sleeves).
    library = Library()
    sim = simulate(library, library.protocol("card-selection-fast"), seed=1, scenario="mini")
    steps = {s.label: s for s in schedule(sim.trace.events, 1, hints=spec_hints(library.protocol), raw=True)}
    sec = time_model().seconds

    def work(step: str) -> float:
        return steps[f"card-selection-fast step {step}"].work

    assert work("1") == 5 * sec["place"]  # each sleeve laid in the middle of the table
    assert work("2") == work("3") == 0  # the owner cards are already in the sleeves
    assert work("4") == 0 and steps["card-selection-fast step 4"].mixing == sec["shuffle"]  # a wash
    assert work("5") == 5 * sec["turn"]  # each sleeve turned front up; the cards show by themselves
    assert work("6") == 10 * sec["move"]  # a pair slid into each sleeve
    assert work("9") == 5 * sec["move"]  # each owner card slid out
    # Step 12: 3 pairs slid out onto the spares, 3 sleeves handed back, 3 owner cards slid in.
    assert work("12") == 6 * sec["move"] + 3 * sec["return"] + 3 * sec["move"]
    # Without the hint, Step 2 reads as owner cards slid into the sleeves.
    bare = {s.label: s for s in schedule(sim.trace.events, 1, raw=True)}
    assert bare["card-selection-fast step 2"].work == 5 * sec["move"]
    # The lottery's piles are the virtual player's sleeves: laying them out costs nothing, and
    # its six-card AND slides each pair out of its sleeve (2 moves) before laying out the rest.
    assert steps["covert-lottery-fast step 1"].work == 0
    alone = simulate(library, library.protocol("covert-lottery-fast"), {}, ["c=c1,c2,c3", "x=0,1,1"], 1)
    first = schedule(alone.trace.events, 1, raw=True)[0]
    assert first.label == "covert-lottery-fast step 1" and first.work == 9 * sec["move"]  # slid in


def test_the_cautious_profile_is_slower_where_the_issue_says() -> None:
    optimistic, cautious = time_model("optimistic"), time_model("cautious")
    assert optimistic.seconds == {**cautious.seconds, "shuffle": 15.0}
    assert cautious.seconds["shuffle"] == 30.0
    # +1 s per pile beyond 8, per shuffle, not divided among the people mixing.
    assert cautious.mix_seconds(107, 3) == 30.0 + 99.0
    assert optimistic.mix_seconds(107, 3) == pytest.approx(15.0 + 99.0 / 3)
    # Three people sharing card work are 2.1 times as fast as one; one person is one person.
    assert cautious.speedup(3) == pytest.approx(2.1)
    assert cautious.speedup(1) == optimistic.speedup(1) == 1.0
    assert optimistic.speedup(3) == 3.0


def test_the_cautious_schedule_counted_by_hand() -> None:
    # The six-card AND for one person: the same card work, and its one shuffle takes 30 s
    # instead of 15. For two, whatever two people share is done at 1.4 times one person's
    # speed instead of twice.
    library = Library()
    sim = simulate(library, library.protocol("six-card-and"), {}, ["x=1", "y=0"], 1)
    fast, slow = (table_time(sim.trace.events, 1, model=time_model(p)) for p in ("optimistic", "cautious"))
    assert slow.seconds - fast.seconds == pytest.approx(15.0)
    assert slow.work == fast.work
    steps = {p: schedule(sim.trace.events, 2, time_model(p)) for p in ("optimistic", "cautious")}
    for a, b in zip(steps["optimistic"], steps["cautious"]):
        shared = a.lanes > 1
        work = a.seconds - a.mixing
        assert b.seconds - b.mixing == pytest.approx(work * 2 / 1.4 if shared else work)


def test_a_profile_is_checked(tmp_path: Path) -> None:
    text = (templates_dir() / "table_time.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("parallel: 0.7", "parallel: 1.7"))
    with pytest.raises(SpecError, match=r"profiles\.cautious\.parallel"):
        load_time_model(bad)
    bad.write_text(text.replace("  cautious:", "  gloomy:"))
    with pytest.raises(SpecError, match="unknown profile 'gloomy'"):
        load_time_model(bad)
    with pytest.raises(UsageError, match="no profile 'gloomy'"), using_model(None, "gloomy"):
        pass
