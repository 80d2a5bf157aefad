"""The glue between a game's rules and the chunk driver, written once for every game.

A game's ``game.py`` offers its scripted game, its protocol and how a finished game becomes a row;
these templates join them to the lineup, the game's random stream and the search, the same way for
every game: ``play_indexed`` (a scripted game of a chunk), ``play_protocol_game`` and
``play_indexed_protocol`` (a game through the decision-point protocol, for lineups with a
searching seat) and ``bench_protocol`` (``powerlab bench``'s decisions and searches).

Like the search (``ismcts.specialise``), the templates are plain Python that call the game's
functions by name, and ``specialise(globals())`` in the game's module compiles them *there*
(``chunk.compile_in``): each game gets its own cache entries and reads its own functions.

What a game's module provides (``NEEDS``):
- its protocol: ``new_game``, ``is_over``, ``to_move``, ``apply``, ``legal``, and its search
  module's ``choose`` (a seat's answer: searched, or its scripted strategy's);
- ``play_game(players, st, game, sids, prm, rng, trace)``: the scripted game, returning the
  game's *result* tuple (what ``write_row`` needs: winner, turns, how it ended...);
- ``protocol_result(st)``: the same tuple, read from a state the protocol played to its end;
- ``write_row(players, result, st, g, game_out, seat_out)``: row ``g`` of the chunk's outputs;
- ``STATE_SIZE``, ``MAX_MOVES``, ``TRACE_WIDTH`` and ``P_DECISIONS`` (the state's count of
  decisions answered).
``game`` is what the kernels read of the rules: the prepared rules, or the game's own tuple
(``game_of`` of its ``GameChunks``).
"""

from types import SimpleNamespace

import numpy as np

from simcore.kernel.chunk import N_STANDARD_SEAT_COLUMNS, compile_in, seat_lineup
from simcore.kernel.intrinsics import plain_njit
from simcore.kernel.rng import seed_game_stream
from simcore.registry import SEARCH_ID

NEEDS = (
    "new_game", "is_over", "to_move", "apply", "legal", "choose", "play_game", "protocol_result",
    "write_row", "STATE_SIZE", "MAX_MOVES", "TRACE_WIDTH", "P_DECISIONS",
)  # fmt: skip
# Here only names: ``specialise`` compiles the templates where they are the game's.
new_game = is_over = to_move = apply = legal = choose = play_game = None
protocol_result = write_row = None
STATE_SIZE = MAX_MOVES = TRACE_WIDTH = P_DECISIONS = 0


def play_indexed(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, game, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g``."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    result = play_game(players, st, game, sids, prm, rng, trace)
    write_row(players, result, st, g, game_out, seat_out)


def play_protocol_game(players, st, game, sids, prm, rng, trace):
    """The same game through the decision-point protocol, each decision answered by the deciding
    seat's ``choose`` (searched, or its scripted strategy's): the game's result tuple."""
    new_game(players, st, game, rng, trace)
    while not is_over(st):
        seat = to_move(st)
        apply(st, game, choose(sids, prm, seat, st, game, rng), rng, trace)
    return protocol_result(st)


def play_indexed_protocol(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, game, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """``play_indexed`` through the decision-point protocol: for lineups with a searching seat
    (the search allocates its tree, so this one may allocate: the scripted path may not)."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    result = play_protocol_game(players, st, game, sids, prm, rng, trace)
    write_row(players, result, st, g, game_out, seat_out)


def bench_protocol_games(game, players, lineup_ids, lineup_params, seed, n_games):
    """``n_games`` games through the protocol: (decisions answered, searches run: decisions of a
    searching seat with more than one option)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, lineup_params.shape[1]), dtype=np.float64)
    rng = np.zeros(4, dtype=np.uint64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    scratch = np.zeros((1, players, N_STANDARD_SEAT_COLUMNS), dtype=np.int64)
    decisions = 0
    searches = 0
    for game_index in range(n_games):
        seat_lineup(lineup_ids, lineup_params, game_index, players, True, sids, prm, scratch, 0)
        seed_game_stream(seed, game_index, rng)
        new_game(players, st, game, rng, no_trace)
        while not is_over(st):
            seat = to_move(st)
            searches += sids[seat] == SEARCH_ID and legal(st, game, moves) > 1
            apply(st, game, choose(sids, prm, seat, st, game, rng), rng, no_trace)
        decisions += st[P_DECISIONS]
    return decisions, searches


def specialise(namespace: dict, game_of=None, scripted_inline: bool = False) -> SimpleNamespace:
    """Compile the templates in a game's module ``namespace`` (its ``globals()``), and make the
    Python ``bench_protocol(prepared, players, lineup_ids, lineup_params, seed, n_games)`` that
    ``powerlab bench`` calls: returned by name, and in the namespace too (the templates call
    each other there). ``game_of(prepared, lineup_ids, lineup_params)`` is the game's
    ``GameChunks.game_of`` (by default the prepared rules). ``scripted_inline`` inlines
    ``play_indexed`` into the chunk's loop (POWER's scripted games gain from it: docs/
    performance.md)."""
    missing = [name for name in NEEDS if name not in namespace]
    if missing:
        raise TypeError(f"{namespace['__name__']} lacks the glue's {', '.join(missing)}")
    namespace.update(
        seat_lineup=seat_lineup, seed_game_stream=seed_game_stream, np=np, SEARCH_ID=SEARCH_ID,
        N_STANDARD_SEAT_COLUMNS=N_STANDARD_SEAT_COLUMNS,
    )  # fmt: skip
    # The scripted path over the game's own arrays may promise numba that they never overlap
    # (``plain_njit``); the protocol's allocate (the search's tree) and so may not.
    if scripted_inline:
        jit = plain_njit(forceinline=True)
        namespace["play_indexed"] = compile_in(play_indexed, namespace, "play_indexed", jit=jit)
    else:
        namespace["play_indexed"] = compile_in(play_indexed, namespace, "play_indexed", _nrt=False)
    protocol = {
        play_protocol_game: {}, play_indexed_protocol: {}, bench_protocol_games: {"nogil": True},
    }  # fmt: skip
    for template, options in protocol.items():
        namespace[template.__name__] = compile_in(template, namespace, template.__name__, **options)
    compiled = namespace["bench_protocol_games"]

    def bench_protocol(prepared, players, lineup_ids, lineup_params, seed, n_games):
        """``n_games`` games through the protocol (``powerlab bench``): (decisions answered,
        searches run: decisions of a searching seat with more than one option)."""
        game = prepared if game_of is None else game_of(prepared, lineup_ids, lineup_params)
        return compiled(game, players, lineup_ids, lineup_params, seed, n_games)

    namespace["bench_protocol"] = bench_protocol
    names = ("play_indexed", "play_protocol_game", "play_indexed_protocol", "bench_protocol")
    return SimpleNamespace(**{name: namespace[name] for name in names})
