"""The chunk protocol shared by every game kernel.

A kernel fills two int64 arrays per chunk: ``game_out[g, :]`` starts with the standard game columns
below and ``seat_out[g, seat, :]`` starts with the standard seat columns; the game's own columns
follow in the order its registry entry declares them. The runner turns them into Parquet.
"""

import sys
import types
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

import numba
import numpy as np
from numba import njit

from simcore.kernel.intrinsics import claim_next, inline_njit
from simcore.registry import SEARCH_ID

# Standard game columns.
WINNER = 0
TURNS = 1
ENDED_BY = 2
N_STANDARD_GAME_COLUMNS = 3

# How a game ended (the ``ended_by`` column): by the rules' end condition with a winner or shared
# winners; by a time limit the rules define (POWER: The Game's round limit standing for its two
# hours), which names a winner; by the rules with nobody winning; or by the simulation's cap on
# turns, which the rules do not have. A capped game has no result: win rates leave it out.
ENDED_RULES = 0
ENDED_TIME_LIMIT = 1
ENDED_DRAW = 2
ENDED_CAP = 3
ENDINGS = ("rules", "time limit", "draw", "cap")

# Standard seat columns.
LINEUP_SLOT = 0
WON = 1
N_STANDARD_SEAT_COLUMNS = 2


@njit(cache=True)
def lineup_slot(game_index, seat, players, rotate):
    """The lineup entry sitting in ``seat`` in game ``game_index``.

    With rotation, game i seats entry (seat + i) mod players, so any ``players`` consecutive games
    put every strategy in every seat once; the lineup is a function of the game index alone.
    """
    if rotate:
        return (seat + game_index) % players
    return seat


@njit(cache=True, _nrt=False)
def seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g):
    """Seat the lineup for ``game_index``: each seat's strategy id in ``sids`` and parameter row in
    ``prm``, and the lineup entry it plays in row ``g`` of ``seat_out``."""
    for seat in range(players):
        slot = lineup_slot(game_index, seat, players, rotate)
        sids[seat] = lineup_ids[slot]
        for k in range(prm.shape[1]):
            prm[seat, k] = lineup_params[slot, k]
        seat_out[g, seat, LINEUP_SLOT] = slot


# A chunk's games are split into at most this many blocks of consecutive games; each block owns
# its scratch state, so blocks run on any thread in any order and write disjoint output rows.
MAX_BLOCKS = 64


def play_blocks(simulate_blocks, n_games, *args):
    """Play a chunk: ``simulate_blocks(*args, next_block, n_blocks)`` on numba's thread count
    (``numba.get_num_threads``) of Python threads, one call each; each call plays blocks until
    none is left, claiming the next from the shared counter ``next_block``
    (``intrinsics.claim_next``).

    Each kernel's ``simulate_blocks`` is a serial ``nogil`` loop, so threads run it side by side.
    numba's ``prange`` did the same, but compiling a parallel loop around a game took each kernel
    7.6-16.1 s, this serial one 2-4.5 s (docs/performance.md, "The block driver").
    The threads claim blocks in compiled code, not from a pool's queue: between blocks a thread
    does not wait for the interpreter's lock, which another busy Python thread holds for up to
    its switch interval (docs/performance.md, "The block driver"). A
    game's row depends only on its index, never on the block or thread that plays it.

    With several threads the calling thread only waits: compiled code cannot be interrupted, a
    wait can. On Ctrl-C, or when a call fails, no thread starts another block, so the chunk
    stops after the blocks being played rather than after all of them. One thread plays on the
    calling thread, to the chunk's end: on a thread of its own, a 1,000-game POWER chunk (tuning's
    first rungs are that small) took 18% longer.
    """
    n_blocks = min(n_games, MAX_BLOCKS)
    threads = min(numba.get_num_threads(), n_blocks)
    next_block = np.zeros(1, dtype=np.int64)
    # With the JIT off (NUMBA_DISABLE_JIT: the leak checks) the blocks are Python, which threads
    # would only interleave, and those checks instrument the kernel with state of their own.
    if threads <= 1 or numba.config.DISABLE_JIT:
        simulate_blocks(*args, next_block, n_blocks)
        return
    with ThreadPoolExecutor(threads) as pool:
        calls = [pool.submit(simulate_blocks, *args, next_block, n_blocks) for _ in range(threads)]
        try:
            for call in as_completed(calls):
                call.result()
        except BaseException:
            next_block[0] = n_blocks  # claims from now on find no block left
            raise


@njit(cache=True)
def block_scratch(state_size, players, lineup_params, trace_width):
    """A block's own scratch: the game state, each seat's strategy id and parameter row, a random
    stream, and an empty trace (games of a block reuse it; blocks share nothing but inputs)."""
    return (
        np.zeros(state_size, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros((players, lineup_params.shape[1]), dtype=np.float64),
        np.zeros(4, dtype=np.uint64),
        np.zeros((0, trace_width), dtype=np.int64),
    )


@njit(cache=True)
def block_bounds(n_games, n_blocks, block):
    """First and one-past-last game of ``block`` when ``n_games`` are split into ``n_blocks``."""
    return (n_games * block) // n_blocks, (n_games * (block + 1)) // n_blocks


def compile_in(template, namespace: dict, name: str, jit=None, **options):
    """``template`` njit-compiled (with the cache) as the function ``name`` of the module whose
    globals are ``namespace``: its code takes that module's file name and reads that namespace.
    ``jit`` is the decorator to compile with (by default ``njit(cache=True, **options)``).

    numba caches a function by its file, name and line, not by the globals it calls, so generic
    code (a chunk driver, the search) compiled this way gets cache entries of its own per game
    instead of sharing, and silently reusing, another game's (docs/protocol.md, "Generic code
    over the protocol").
    """
    code = template.__code__.replace(co_filename=namespace["__file__"], co_name=name)
    function = types.FunctionType(code, namespace, name, template.__defaults__)
    function.__module__ = namespace["__name__"]
    function.__qualname__ = name
    return (jit or njit(cache=True, **options))(function)


# What ``_simulate_blocks`` and ``_play_games`` read of a game, here only names: ``GameChunks``
# compiles them where they are the game's.
play_one = play_games = untraced = None
STATE_SIZE = TRACE_WIDTH = 0


def _simulate_blocks(
    game, players, lineup_ids, lineup_params, seed, first_index, rotate, game_out, seat_out,
    next_block, n_blocks,
):  # fmt: skip
    """Play blocks of the chunk split into ``n_blocks``, each on scratch of its own, claiming
    each from ``next_block`` (``play_blocks``) until none is left."""
    while True:
        block = claim_next(next_block)
        if block >= n_blocks:
            return
        st, sids, prm, rng, no_trace = block_scratch(
            STATE_SIZE, players, lineup_params, TRACE_WIDTH
        )
        lo, hi = block_bounds(game_out.shape[0], n_blocks, block)
        play_games(
            game, players, lineup_ids, lineup_params, seed, first_index, rotate,
            st, sids, prm, rng, no_trace, lo, hi, game_out, seat_out,
        )  # fmt: skip


def _play_games(
    game, players, lineup_ids, lineup_params, seed, first_index, rotate,
    st, sids, prm, rng, no_trace, lo, hi, game_out, seat_out,
):  # fmt: skip
    """Play games ``lo`` to ``hi - 1`` of the chunk, each by the game's ``play_one``.

    A loop of its own, so that a scripted game's loop is compiled without numba's reference
    counting, as the scripted ``play_one`` is. A ``play_one`` inlined into the reference-counted
    block loop ran about 3x slower: numba counts references of every array the inlined code
    assigns (docs/performance.md, "POWER")."""
    for g in range(lo, hi):
        play_one(
            players, lineup_ids, lineup_params, seed, first_index + g, rotate,
            st, game, sids, prm, rng, untraced(no_trace), g, game_out, seat_out,
        )  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def _as_none(no_trace):
    return None


@njit(cache=True, _nrt=False, inline="always")
def _as_is(no_trace):
    return no_trace


def _prepared(prepared, lineup_ids, lineup_params):
    return prepared


class GameChunks:
    """A game's chunk kernels and the ``run_chunk`` and ``trace_game`` the runner and the CLI call,
    from the game's two ``play_indexed`` functions.

    ``play(players, lineup_ids, lineup_params, seed, game_index, rotate, st, game, sids, prm, rng,
    trace, g, game_out, seat_out)`` seats the lineup for ``game_index``, plays the game from its
    own stream and writes row ``g``; ``play_searching`` does the same through the decision-point
    protocol, for lineups with an ``ismcts`` seat (the search allocates its tree, so it may
    allocate: the scripted path may not). ``game`` is what both read of the rules:
    ``game_of(prepared, lineup_ids, lineup_params)``, by default the prepared rules themselves.
    The chunk driver is compiled once per play function in the game's module (``compile_in``);
    a scripted lineup never compiles the search.

    With ``untraced_as_none`` a chunk's scripted games get ``None`` for their trace, not an empty
    one, so numba compiles them without a single check of the trace (``record_event``; code for
    traced games only asks ``tracing``): POWER's games 1.07x (docs/performance.md, "POWER"). The
    price is a second compile of the game, with a trace, for the first traced game while the
    numba cache is empty; the suite pays it too.
    """

    def __init__(
        self, module: str, *, play, play_searching, state_size: int, trace_width: int,
        trace_len_at: int, game_columns: int, seat_columns: int,
        first_trace_rows: Callable[[object, int], int], game_of=_prepared,
        untraced_as_none=False,
    ):  # fmt: skip
        namespace = {
            "__name__": module, "__file__": sys.modules[module].__file__,
            "STATE_SIZE": state_size, "TRACE_WIDTH": trace_width,
            "block_scratch": block_scratch, "block_bounds": block_bounds, "claim_next": claim_next,
        }  # fmt: skip
        # The scripted games may not allocate (``play``), so their loop runs without reference
        # counting; the searching games allocate their trees.
        play_games = compile_in(
            _play_games,
            namespace | {"play_one": play, "untraced": _as_none if untraced_as_none else _as_is},
            "play_games", nogil=True, _nrt=False,
        )  # fmt: skip
        play_searching_games = compile_in(
            _play_games, namespace | {"play_one": play_searching, "untraced": _as_is},
            "play_searching_games", nogil=True,
        )  # fmt: skip
        self.simulate_blocks = compile_in(
            _simulate_blocks, namespace | {"play_games": play_games}, "simulate_blocks",
            nogil=True,
        )  # fmt: skip
        self.simulate_searching_blocks = compile_in(
            _simulate_blocks, namespace | {"play_games": play_searching_games},
            "simulate_searching_blocks", nogil=True,
        )  # fmt: skip
        self.play, self.play_searching, self.game_of = play, play_searching, game_of
        self.state_size, self.trace_width, self.trace_len_at = state_size, trace_width, trace_len_at
        self.game_columns, self.seat_columns = game_columns, seat_columns
        self.first_trace_rows = first_trace_rows

    def run_chunk(
        self, prepared, players, lineup_ids, lineup_params, seed, first_index, n_games, rotate
    ):
        """Play ``n_games`` games from ``first_index`` on: (game_out, seat_out) int64 arrays."""
        check_lineup(players, lineup_ids, lineup_params)
        game_out, seat_out = new_outputs(n_games, players, self.game_columns, self.seat_columns)
        searching = np.any(lineup_ids == SEARCH_ID)
        play_blocks(
            self.simulate_searching_blocks if searching else self.simulate_blocks, n_games,
            self.game_of(prepared, lineup_ids, lineup_params), players, lineup_ids, lineup_params,
            np.uint64(seed), first_index, rotate, game_out, seat_out,
        )  # fmt: skip
        return game_out, seat_out

    def trace_game(self, prepared, players, lineup_ids, lineup_params, seed, game_index, rotate):
        """The event trace of one game, exactly as the chunk kernel plays it."""
        check_lineup(players, lineup_ids, lineup_params)
        sids, prm, rng, game_out, seat_out = one_game_scratch(
            players, lineup_params, self.game_columns, self.seat_columns
        )
        game = self.game_of(prepared, lineup_ids, lineup_params)
        play_one = self.play_searching if np.any(lineup_ids == SEARCH_ID) else self.play

        def play(st, trace):
            play_one(
                players, lineup_ids, lineup_params, np.uint64(seed), game_index, rotate,
                st, game, sids, prm, rng, trace, 0, game_out, seat_out,
            )  # fmt: skip

        return trace_one_game(
            play, self.first_trace_rows(prepared, players), self.state_size, self.trace_len_at,
            self.trace_width,
        )  # fmt: skip


def check_lineup(players, lineup_ids, lineup_params):
    """Every seat needs its own lineup entry: the kernels index the lineup by seat without bounds
    checks, so a short lineup would read whatever memory follows it."""
    if lineup_ids.shape[0] != players or lineup_params.shape[0] != players:
        raise ValueError(
            f"the lineup has {lineup_ids.shape[0]} strategy ids and {lineup_params.shape[0]} "
            f"parameter rows for {players} seats; give one per seat"
        )


def new_outputs(n_games, players, n_game_columns, n_seat_columns):
    """Zeroed ``game_out[g, col]`` and ``seat_out[g, seat, col]`` for a chunk.

    Both are views of column-major storage, so each output column (all games of one seat and
    column) is contiguous when the runner converts it to Arrow. The storage has a spare game, so
    neither view is contiguous as a whole and numba types them alike for any number of games:
    the views of a one-game chunk would otherwise be C-contiguous and compile every chunk kernel
    a second time.
    """
    game_out = np.zeros((n_game_columns, n_games + 1), dtype=np.int64).T[:n_games]
    seat_out = np.zeros((players, n_seat_columns, n_games + 1), dtype=np.int64)
    return game_out, seat_out.transpose(2, 0, 1)[:n_games]


def one_game_scratch(players, lineup_params, n_game_columns, n_seat_columns):
    """Per-seat strategy ids and parameter rows, a random stream and one output row: what the chunk
    kernels allocate per block, for playing a single game from Python (traces, tests)."""
    game_out, seat_out = new_outputs(1, players, n_game_columns, n_seat_columns)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, lineup_params.shape[1]), dtype=np.float64)
    return sids, prm, np.zeros(4, dtype=np.uint64), game_out, seat_out


def trace_one_game(play, first_rows, state_size, trace_len_at, trace_width):
    """The event trace of the game ``play(st, trace)`` plays, as an int64[rows, trace_width] array.

    A full trace buffer drops events, so a game that fills it is played again with four times the
    rows; it is the same game, because a game is a pure function of its inputs and index.
    """
    rows = first_rows
    while True:
        trace = np.zeros((rows, trace_width), dtype=np.int64)
        st = np.zeros(state_size, dtype=np.int64)
        play(st, trace)
        if st[trace_len_at] < rows:
            return trace[: st[trace_len_at]].copy()
        rows *= 4


@njit(cache=True, _nrt=False, inline="always")
def tracing(trace):
    """Whether ``trace`` records events (``record_event``): for the code that only a traced game
    runs."""
    if trace is None:
        return False
    return trace.shape[0] > 0


@inline_njit()
def record_event(trace, st, length_at, event, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    """Append an event row to ``trace`` when tracing (it has rows), counting rows in
    ``st[length_at]``; nearly free in normal runs, whose trace has no rows, and free when the
    trace is ``None`` (``GameChunks``'s ``untraced_as_none``): numba then compiles the game
    without this function's checks."""
    if trace is None:
        return
    n = st[length_at]
    if n >= trace.shape[0]:
        return
    trace[n, 0] = event
    trace[n, 1] = a
    trace[n, 2] = b
    trace[n, 3] = c
    trace[n, 4] = d
    trace[n, 5] = e
    trace[n, 6] = f
    trace[n, 7] = g
    st[length_at] = n + 1


# Salt of the arcs sample (docs/arcs.md): which games record their arcs is a function of the game
# index alone, independent of the seed, so the arms of a study sample the same games.
_ARCS_SALT = np.uint64(0x6A09E667F3BCC909)


def arcs_sample(first_index, n_games, share):
    """The game indices in [first_index, first_index + n_games) whose arcs are recorded: game i
    is sampled when SplitMix64(i) / 2**64 < share, so the same games are sampled however the run
    is split into chunks, shards or workers, and about ``share`` of any range of games."""
    from simcore.kernel.rng import _splitmix64_mix

    indices = np.arange(first_index, first_index + n_games, dtype=np.int64)
    mixed = _splitmix64_mix.py_func(indices.astype(np.uint64) ^ _ARCS_SALT)
    return indices[(mixed >> np.uint64(11)) < np.uint64(round(share * 2.0**53))]


def standing_rows(trace, event, n_values):
    """The standing rows of a game's trace (registry.Arcs) as int64[rows, 2 + n_values]: the
    turn or round, the seat, then the standing values."""
    return trace[trace[:, 0] == event, 1 : 3 + n_values]
