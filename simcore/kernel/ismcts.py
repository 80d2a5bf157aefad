"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012), one
implementation for every game that offers the decision-point protocol (docs/protocol.md).

Each iteration copies the true state, redraws what the searching seat cannot see
(``determinize``), then walks the tree: at every decision the node is the *deciding* seat's
information set (``infoset_key`` of the player to move), so opponents choose from what they
know, not from the determinized truth. A legal option's statistics live on its node: visits,
summed results and availability (how often it was legal when the node was visited), and the
choice maximises UCB with availability counts, ``mean + c * sqrt(log(available) / visits)``,
after every available option has been tried once (untried ones in random order). The first
node not yet in the tree is added and the game is played out from there by a scripted strategy
(``decide`` of the game's strategies module) for every seat; each seat's result (``returns``)
is added to the options chosen on the way. The search answers the most visited option at the
root. The rollout strategy's own answer at the root is tried first and wins ties, other ties are
broken from the stream: with fewer iterations than options (most options then have one visit or
none) the search plays as its rollout strategy rather than at random among single visits. And
the search answers another option than the rollout strategy's only when that option's mean result
is ahead by more than ``margin`` standard errors (docs/ismcts.md, "The margin").
Decisions with one legal option are applied without a node. That is ``opponents`` ``search``;
with ``own-view`` the opponents learn only from deals of their own view, with ``rollout`` the
rollout strategy plays them (``search`` below; docs/ismcts.md, "Opponents").

All randomness comes from a stream seeded from one draw of the game's stream: a search is a
pure function of the game state and that stream, so games with a searching seat stay a pure
function of (rules, strategies, seed, game index). Nothing reads a clock.

Caching (../shared/DESIGN-NOTES.md): the functions below are plain Python that call the game's
protocol by name. A game's thin module (``simcore/games/power/search.py``) imports its protocol
functions and calls ``specialise(globals())``, which compiles these functions *in that module*:
their code objects take that module's file name, so numba's cache (keyed by file, name and
line) keeps each game's compiled search apart, and their globals are that game's protocol.
tests/kernel/test_ismcts.py checks both: cache hits in a second process, and two games (POWER and a
toy Nim) each answering from its own rules.
"""

import numpy as np

from simcore import contract
from simcore.kernel.chunk import compile_in
from simcore.kernel.rng import next_u64, rand_below, seed_game_stream
from simcore.registry import OPPONENT_CHOICES, SEARCH_ID

# What a game's thin module provides is ``contract.SearchProtocol`` (docs/protocol.md), what it
# may provide ``contract.SearchProtocolOptional``. Here they are only names: ``specialise``
# compiles the functions below where they are the game's.
to_move = legal = apply = is_over = returns = determinize = infoset_key = decide = None
believe = play_out = None
MAX_SEATS = MAX_MOVES = STATE_SIZE = N_STRATEGY_PARAMS = 0

_EMPTY = -1
# How the other seats choose inside the tree: the index of the ``opponents`` choice.
SEARCHED, MODELLED, OWN_VIEW = map(OPPONENT_CHOICES.index, ("search", "rollout", "own-view"))


def _find(table, keys, key):
    """The node of ``key`` in the open-addressed ``table`` (-1 if absent), and its slot there."""
    mask = table.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    while True:
        node = table[slot]
        if node == _EMPTY or keys[node] == key:
            return node, slot
        slot = (slot + 1) & mask


def _slots(node, n, moves, slots, start, n_children, block, pool, used):
    """Each legal option's slot in ``node``'s block of the statistics ``pool`` (rows: move,
    visits, availability, summed results) into ``slots[:n]``; an option new to the node is
    added (its block moved to the pool's end when full: the pool must have room for that,
    ``_move_room``). Returns the pool's columns used. Options come in ``legal``'s fixed order, so
    the i-th is usually slot i."""
    for i in range(n):
        k = start[node] + i
        if i < n_children[node] and pool[0, k] == moves[i]:
            slots[i] = k
            continue
        k = -1
        for j in range(n_children[node]):
            if pool[0, start[node] + j] == moves[i]:
                k = start[node] + j
        if k < 0:
            if n_children[node] == block[node]:
                size = _move_room(node, n, block)
                for j in range(n_children[node]):
                    for row in range(4):
                        pool[row, used + j] = pool[row, start[node] + j]
                for j in range(i):  # the slots found so far moved with the block
                    slots[j] += used - start[node]
                start[node] = used
                block[node] = size
                used += size
            k = start[node] + n_children[node]
            pool[0, k] = moves[i]
            n_children[node] += 1
        slots[i] = k
    return used


def _move_room(node, n, block):
    """The pool's columns that moving ``node``'s block to its end takes (``_slots``; at most once
    for ``n`` options: the moved block has room for all)."""
    return 2 * block[node] + n


def _grown(pool, used, room):
    """``pool`` copied into a larger one with ``room`` columns free after the ``used`` ones.
    Called only when needed, not returned by every call that might need it: numba counts the
    references of an array a call returns, at every call."""
    grown = np.zeros((4, 2 * (used + room)))
    grown[:, :used] = pool[:, :used]
    return grown


def _ucb_choice(n, slots, pool, c, srng):
    """The option (index into the legal list) to take at a node: an untried one at random, else
    the best UCB with availability counts; ties at random."""
    n_untried = 0
    chosen = -1
    for i in range(n):
        if pool[1, slots[i]] == 0:
            n_untried += 1
            if rand_below(srng, n_untried) == 0:
                chosen = i
    if chosen >= 0:
        return chosen
    best = -np.inf
    n_best = 0
    available = -1.0
    log_available = 0.0
    for i in range(n):
        k = slots[i]
        if pool[2, k] != available:  # options legal at every visit share it: one log a node
            available = pool[2, k]
            log_available = np.log(available)
        score = pool[3, k] / pool[1, k] + c * np.sqrt(log_available / pool[1, k])
        if score > best:
            best = score
            chosen = i
            n_best = 1
        elif score == best:
            n_best += 1
            if rand_below(srng, n_best) == 0:
                chosen = i
    return chosen


def _rollout(sim, rules, sids, prm, srng, no_trace):
    """Play the game out, each seat deciding by its strategy (``sids``, ``prm``), one decision at
    a time: ``play_out`` of a game that does not offer a faster one with the same games."""
    while not is_over(sim):
        seat = to_move(sim)
        move = decide(sids[seat], prm, seat, sim, rules, srng)
        apply(sim, rules, move, srng, no_trace)


def search(st, rules, seat, iterations, c, trust, margin, opponents, rollout_sid, rollout_prm, rng):
    """The option ``seat`` takes at the decision pending in ``st`` after ``iterations``
    iterations of ISMCTS with exploration ``c`` and rollouts by strategy ``rollout_sid`` (its
    parameter row repeated for every seat in ``rollout_prm``); the rollout strategy's own answer
    unless the search's is better by ``margin`` standard errors. Reads ``st`` only through copies
    determinized for ``seat`` (``believe``: standing claims taken as true with probability
    ``trust``); draws once from ``rng``.

    ``opponents`` is how the other seats choose inside the tree (docs/ismcts.md, "Opponents"):
    SEARCHED, by UCB at their own information sets, learning from the searcher's deals, which
    all hold its true cards, so that with many visits they answer cards they cannot see; OWN_VIEW,
    the same nodes, but they learn only in every other iteration, in which the searcher's cards
    are dealt again as the first opponent to choose would deal them (the searcher then plays its
    rollout strategy), and in the searcher's iterations they play what they learnt; MODELLED, by
    the rollout strategy.

    A node's option statistics are a block of a shared pool sized by the options it has (games
    list up to MAX_MOVES options, few of them at most decisions)."""
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    n_root = legal(st, rules, moves)
    if n_root == 1:
        return moves[0]
    srng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(next_u64(rng), np.int64(iterations), srng)
    capacity = iterations + 2
    table_size = 1
    while table_size < 2 * capacity:
        table_size *= 2
    table = np.full(table_size, _EMPTY, dtype=np.int64)
    keys = np.zeros(capacity, dtype=np.uint64)
    node_seat = np.zeros(capacity, dtype=np.int64)
    n_children = np.zeros(capacity, dtype=np.int64)
    start = np.zeros(capacity, dtype=np.int64)
    block = np.zeros(capacity, dtype=np.int64)
    pool = np.zeros((4, capacity * min(MAX_MOVES, 32)))
    used = 0
    path_node = np.zeros(capacity, dtype=np.int64)
    path_child = np.zeros(capacity, dtype=np.int64)
    slots = np.zeros(MAX_MOVES, dtype=np.int64)
    results = np.zeros(MAX_SEATS, dtype=np.float64)
    sim = np.zeros(STATE_SIZE, dtype=np.int64)
    no_trace = np.zeros((0, 1), dtype=np.int64)
    rollout_sids = np.full(MAX_SEATS, rollout_sid, dtype=np.int64)
    # The rollout strategy's own answer (``decide`` reads only what ``seat`` may know; it may
    # write scratch words, so on a copy): tried first at the root and kept when no option has
    # more visits, so a search with fewer iterations than options plays at least as the
    # strategy does instead of picking among single visits at random.
    sim[:] = st
    scripted = decide(rollout_sid, rollout_prm, seat, sim, rules, srng)
    n_nodes = 0
    root = -1
    node, slot = _EMPTY, 0
    for iteration in range(iterations):
        sim[:] = st
        believe(sim, seat, trust, srng)
        opponents_learn = opponents == OWN_VIEW and iteration % 2 == 1
        redrawn = False
        depth = 0
        # The walk, resumed at the decision where it stopped for the pool to grow: the steps
        # before a growth change nothing they would not find again, and growing outside the
        # walk's loop spares numba counting ``pool`` at each of its decisions.
        room = 1
        while room > 0:
            room = 0
            while not is_over(sim):
                mover = to_move(sim)
                n = legal(sim, rules, moves)
                if n == 1:
                    apply(sim, rules, moves[0], srng, no_trace)
                    continue
                if mover != seat and opponents_learn and not redrawn:
                    # What this opponent cannot see, the searcher's cards among it, is dealt again
                    # as it would deal it; its options are its own to know, so they stay.
                    believe(sim, mover, trust, srng)
                    redrawn = True
                learns = opponents != OWN_VIEW or (mover != seat) == opponents_learn
                # The rollout strategy plays modelled opponents, the searcher once its cards were
                # dealt again, and a seat that does not learn here at a node it never learnt at.
                by_rollout = (mover != seat and opponents == MODELLED) or (
                    mover == seat and redrawn
                )
                if not by_rollout:
                    key = infoset_key(sim, mover)
                    node, slot = _find(table, keys, key)
                    by_rollout = node == _EMPTY and not learns
                if by_rollout:
                    move = decide(rollout_sid, rollout_prm, mover, sim, rules, srng)
                    apply(sim, rules, move, srng, no_trace)
                    continue
                if node == _EMPTY:
                    if n_nodes == capacity:
                        break
                    if used + n > pool.shape[1]:
                        room = n
                        break
                    node = n_nodes
                    n_nodes += 1
                    table[slot] = node
                    keys[node] = key
                    node_seat[node] = mover
                    start[node] = used
                    block[node] = n
                    used += n
                    if root < 0:
                        root = node
                    else:
                        break  # a new node: play out from here
                need = _move_room(node, n, block)
                if used + need > pool.shape[1]:
                    room = need
                    break
                used = _slots(node, n, moves, slots, start, n_children, block, pool, used)
                if not learns:
                    if mover == seat:  # exploring its options for the opponents to answer
                        i = _ucb_choice(n, slots, pool, c, srng)
                    else:  # what it learnt so far, from its own view
                        answer = decide(rollout_sid, rollout_prm, mover, sim, rules, srng)
                        i = _settled_choice(n, moves, slots, pool, answer, margin, srng)
                    apply(sim, rules, moves[i], srng, no_trace)
                    continue
                for i in range(n):
                    pool[2, slots[i]] += 1
                i = _ucb_choice(n, slots, pool, c, srng)
                if node == root and pool[1, slots[i]] == 0:
                    for j in range(n):
                        if moves[j] == scripted and pool[1, slots[j]] == 0:
                            i = j
                path_node[depth] = node
                path_child[depth] = slots[i]
                depth += 1
                apply(sim, rules, moves[i], srng, no_trace)
            if room > 0:
                pool = _grown(pool, used, room)
        play_out(sim, rules, rollout_sids, rollout_prm, srng, no_trace)
        returns(sim, results)
        for d in range(depth):
            node = path_node[d]
            pool[1, path_child[d]] += 1
            pool[3, path_child[d]] += results[node_seat[node]]
        # No option leads by more visits than the iterations done: only look once one might.
        remaining = iterations - iteration - 1
        if iteration + 1 > remaining and _answer_settled(
            root, start, n_children, pool, scripted, margin, remaining
        ):
            break
    n_root = legal(st, rules, moves)
    need = _move_room(root, n_root, block)
    if used + need > pool.shape[1]:
        pool = _grown(pool, used, need)
    used = _slots(root, n_root, moves, slots, start, n_children, block, pool, used)
    return moves[_settled_choice(n_root, moves, slots, pool, scripted, margin, srng)]


def _answer_settled(root, start, n_children, pool, answer, margin, remaining):
    """Whether the search's answer can no longer change in ``remaining`` more iterations: the
    root's most visited option leads every other by more than ``remaining`` visits (each
    iteration adds at most one visit at the root), and it is ``answer`` (the rollout strategy's)
    or ``margin`` is 0, so ``_settled_choice`` will return it whatever the last results are.
    The search then stops: the same answer, and the game's own stream was drawn from once
    either way, so the games stay bit-identical with fewer iterations."""
    most = -1.0
    second = -1.0
    leader = -1
    for j in range(n_children[root]):
        k = start[root] + j
        if pool[1, k] > most:
            second = most
            most = pool[1, k]
            leader = k
        elif pool[1, k] > second:
            second = pool[1, k]
    if most - second <= remaining:
        return False
    return margin == 0 or pool[0, leader] == answer


def _settled_choice(n, moves, slots, pool, answer, margin, srng):
    """The option (index into the legal list) a node's statistics settle on: the most visited
    one, of equals ``answer`` (the rollout strategy's), else one at random; and ``answer`` unless
    that option is clearly better by ``margin``."""
    best = 0
    most = -1.0
    n_best = 0
    i_answer = -1
    for i in range(n):
        k = slots[i]
        if moves[i] == answer:
            i_answer = i
        if pool[1, k] > most:
            most = pool[1, k]
            best = i
            n_best = 1
        elif pool[1, k] == most and moves[best] != answer:
            n_best += 1
            if moves[i] == answer or rand_below(srng, n_best) == 0:
                best = i
    if margin > 0 and best != i_answer and i_answer >= 0 and pool[1, slots[i_answer]] > 0:
        if not _clearly_better(pool, slots[best], slots[i_answer], margin):
            return i_answer
    return best


def _clearly_better(pool, k, k_scripted, margin):
    """Option ``k``'s mean result beats the scripted answer's by more than ``margin`` standard
    errors of their difference (each mean's variance from its Laplace-smoothed rate, so an
    option seen a few times with one result is not certain). A few hundred 0/1 playouts spread
    over many options measure each to within 10 points or so: an option the search visited most
    is often ahead of the scripted answer by noise alone."""
    n, n_s = pool[1, k], pool[1, k_scripted]
    mean, mean_s = pool[3, k] / n, pool[3, k_scripted] / n_s
    rate, rate_s = (pool[3, k] + 1) / (n + 2), (pool[3, k_scripted] + 1) / (n_s + 2)
    se = np.sqrt(rate * (1 - rate) / n + rate_s * (1 - rate_s) / n_s)
    return mean - mean_s > margin * se


def _believe_uniformly(st, seat, trust, rng):
    """``believe`` of a game without public claims: ``determinize``, whatever the trust."""
    determinize(st, seat, rng)


def choose(sids, prm, seat, st, rules, rng):
    """The deciding seat's option in a lineup with a searching seat: its scripted strategy's
    answer (``decide``), or the search's (``_search_seat``). Compiled without reference counting
    (``specialise``): it runs for every decision of such a game, and counting the arrays it passes
    on took a third of a scripted decision's time; the search allocates, so it is a call."""
    if sids[seat] != SEARCH_ID:
        return decide(sids[seat], prm, seat, st, rules, rng)
    return _search_seat(prm, seat, st, rules, rng)


def _search_seat(prm, seat, st, rules, rng):
    """The option of the searching ``seat``: its row holds the search's parameters after the
    game's N_STRATEGY_PARAMS columns (the game's thin module's), the rollout strategy's own in
    those columns."""
    rollout_prm = np.empty_like(prm)
    for other in range(prm.shape[0]):
        rollout_prm[other, :] = prm[seat, :]
    # The search's columns, in registry.SEARCH_PARAM_NAMES order: iterations, c, rollout, trust,
    # margin, opponents.
    return search(
        st, rules, seat, np.int64(prm[seat, N_STRATEGY_PARAMS]),
        prm[seat, N_STRATEGY_PARAMS + 1], prm[seat, N_STRATEGY_PARAMS + 3],
        prm[seat, N_STRATEGY_PARAMS + 4], np.int64(prm[seat, N_STRATEGY_PARAMS + 5]),
        np.int64(prm[seat, N_STRATEGY_PARAMS + 2]), rollout_prm, rng,
    )  # fmt: skip


_TEMPLATES = (
    _find, _slots, _move_room, _grown, _ucb_choice, _answer_settled, _settled_choice,
    _clearly_better, search,
    _search_seat, choose,
)  # fmt: skip
# Compiled without reference counting: all but the search and what allocates. numba counts
# the references of every array a function is given, at each call, and these run at every
# decision or playout. A function they call inherits that unless it says otherwise, and the
# search allocates: so it says.
_REFCOUNTS = {
    _find: False, _slots: False, _move_room: False, _ucb_choice: False, _answer_settled: False,
    _settled_choice: False, _clearly_better: False, _rollout: False, choose: False, _grown: True,
    _search_seat: True,
}  # fmt: skip


def specialise(namespace: dict):
    """Compile the search in a game's thin module ``namespace`` (its ``globals()``), each function
    with ``chunk.compile_in``. Returns the game's ``search``."""
    contract.check_search_protocol(namespace, namespace["__name__"])
    namespace.update(
        _EMPTY=_EMPTY, SEARCHED=SEARCHED, MODELLED=MODELLED, OWN_VIEW=OWN_VIEW,
        next_u64=next_u64, rand_below=rand_below, seed_game_stream=seed_game_stream, np=np,
        SEARCH_ID=SEARCH_ID,
    )  # fmt: skip
    # A game's optional functions, else the generic ones, compiled first: the others call them.
    defaults = {"believe": _believe_uniformly, "play_out": _rollout}
    own = [name for name in defaults if contract.offers(namespace, name)]
    templates = tuple(defaults[name] for name in defaults if name not in own) + _TEMPLATES
    for template in templates:
        options = {"_nrt": _REFCOUNTS[template]} if template in _REFCOUNTS else {}
        compiled = compile_in(template, namespace, template.__name__, **options)
        namespace[template.__name__] = compiled
        for name, default in defaults.items():
            if template is default:
                namespace[name] = compiled
    return namespace["search"]
