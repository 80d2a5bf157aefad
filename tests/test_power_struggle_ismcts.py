"""``ismcts`` as a strategy of Power Struggle (docs/ismcts.md): the spec with the tuned rollout by
default, reproducibility across threads, chunk sizes and shards, and a searching seat in
``powerlab run``."""

from __future__ import annotations

import pyarrow as pa
from clitools import in_process

from simcore import registry
from simcore.kernel import ismcts
from simcore.workflows import runner
from tests.test_power_ismcts import _table

GAME = registry.make("power-struggle")
LINEUP = ["ismcts:iterations=4", "preset:builder-vs-mixed", "corrupter", "random"]
GAMES = 6


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50")
    assert parsed["params"]["rollout"] == "preset:corrupter-vs-mixed"
    ids, rows = GAME.encode_strategies([parsed])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("iterations")] == 50
    assert rows[0, names.index("rollout")] == GAME.strategy("corrupter").id
    preset = GAME.encode_strategies([registry.parse_strategy(GAME, "preset:corrupter-vs-mixed")])
    assert rows[0, names.index("p_bribe")] == preset[1][0, names.index("p_bribe")] != 1.0


def test_search_games_are_identical_across_threads_chunks_and_shards(tmp_path):
    spec = runner.build_spec("power-struggle", 4, LINEUP, [], 5, GAMES, True)
    runner.run(spec, tmp_path / "one", threads=1, chunk_size=GAMES)
    reference = _table(tmp_path / "one")
    assert reference.num_rows == GAMES
    runner.run(spec, tmp_path / "two", threads=2, chunk_size=2)
    assert _table(tmp_path / "two").equals(reference)
    for k in (1, 2):
        runner.run(spec, tmp_path / f"shard{k}", chunk_size=2, shard=(k, 2))
    shards = pa.concat_tables([_table(tmp_path / f"shard{k}") for k in (1, 2)])
    assert shards.sort_by("game_index").equals(reference)
    # and the searching seat really played: another exploration constant changes games
    other = runner.build_spec(
        "power-struggle", 4, ["ismcts:iterations=4,c=3"] + LINEUP[1:], [], 5, GAMES, True
    )
    runner.run(other, tmp_path / "other", threads=1, chunk_size=GAMES)
    assert not _table(tmp_path / "other").equals(reference)


def test_powerlab_run_takes_a_searching_seat(tmp_path):
    code, _, err = in_process(
        "run", "power-struggle", "-p", "3", "-s", "ismcts:iterations=3", "-s", "builder",
        "-s", "corrupter", "-n", "2", "-o", str(tmp_path / "run"),
    )  # fmt: skip
    assert code == 0, err
    assert _table(tmp_path / "run").num_rows == 2


def test_the_searching_seat_reads_only_what_it_may_know():
    """The leak check's question, asked in-process of the compiled search: at every decision of
    the searching seat, the search on a copy whose hidden information is redrawn for it
    (``determinize``: the others' Archenemy cards, the unseen event cards, the deck) gives the
    same answer and draws the same random numbers. The opponents do not bribe each other: the
    redraw of the Pinats of bribes between two other players starts from the amounts it replaces,
    so two redraws of the same information differ there (docs/ismcts.md)."""
    import numpy as np

    from simcore.games.power_struggle import game as kernel
    from simcore.games.power_struggle import rules as protocol
    from simcore.games.power_struggle import search as search_module
    from simcore.games.power_struggle.state import STATE_SIZE, TRACE_WIDTH
    from simcore.kernel.rng import seed_game_stream
    from strategies import power_struggle as strategy

    players = 3
    lineup = ["ismcts:iterations=6", "investor:p_bribe=0", "board:p_bribe=0"]
    sids, prm = GAME.encode_strategies([registry.parse_strategy(GAME, s) for s in lineup])
    rules = kernel.prepare(GAME.rules_with_defaults({}), players)
    rollout_prm = np.repeat(prm[:1], players, axis=0)
    names = GAME.strategy_param_names
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    redraw = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(8), 0, redraw)
    checked = informative = 0
    for index in range(2):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        rng = np.zeros(4, dtype=np.uint64)
        seed_game_stream(np.uint64(6), index, rng)
        protocol.new_game(players, st, rules, rng, no_trace)
        while not protocol.is_over(st):
            seat = protocol.to_move(st)
            if seat != 0:
                move = strategy.decide(sids[seat], prm, seat, st, rules, rng)
                protocol.apply(st, rules, move, rng, no_trace)
                continue
            twin = st.copy()
            protocol.determinize(twin, 0, redraw)
            twin_rng = rng.copy()
            args = (
                6,
                0.7,
                0.0,
                2.0,
                ismcts.SEARCHED,
                int(prm[0, names.index("rollout")]),
                rollout_prm,
            )
            move = search_module.search(st, rules, 0, *args, rng)
            assert search_module.search(twin, rules, 0, *args, twin_rng) == move
            assert np.array_equal(rng, twin_rng)
            checked += 1
            informative += not np.array_equal(twin, st)
            protocol.apply(st, rules, move, rng, no_trace)
    assert checked > 50 and informative > checked // 2
