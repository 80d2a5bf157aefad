"""Each game's glue for the contract suite: what its tests know of it beyond its registry entry,
one module per game package (``simcore.games.power`` → ``power.py``). Every name is optional; a
game without glue (a new one, a designer's own) runs every generic check on set-ups built from
its registry entry, and skips the sweeps that need what only its own tests define.

Data and set-ups (``tests.contract.common.Setup``):

- ``FILES``: {name: text} data files a setting names as ``@name`` (``components=@SMALL``);
- ``REFERENCE``: {label: (set-up, games traced)} with ``REFERENCE_TRACE_STEP`` and
  ``REFERENCE_SKIPPED_EVENTS``, and their digests in tests/data/<package>_reference.json
  (test_reference.py);
- ``PROTOCOL`` {label: set-up}, ``PROTOCOL_TRACE_EVERY``, ``PROTOCOL_SHARED_FIELDS`` (a slice of
  the final state both flows share), ``ANSWERS``, ``RANDOM_PLAY``, ``RANDOM_PLAY_TRACE_ROWS``,
  ``CHECK_EVERY``, ``SHARED_WINS``, ``DETERMINIZE`` (test_protocol.py);
- ``SEARCH_RUN``, ``SEARCH_CLI``, ``SEARCH_LEAK`` (test_search.py); ``DETERMINISM``
  (test_determinism.py);
- ``REFEREE`` {label: set-up}: the referee's sweep (test_referees.py, referees.py);
- ``LEAK``: how the leak check reaches the strategies' decisions (leak_check.py,
  test_fair_play.py).

The game's own laws, as functions (``game`` is the protocol's game argument, ``start`` what
``initial(st)`` returned when the game was dealt):

- ``pick(st, rng, n)``: the index of the option random play takes (default: uniform);
- ``initial(st)``, ``check_decision(st, seat, options, game, players)``,
  ``check_state(st, game, players, start)``, ``check_over(st, returns, game, players, trace)``,
  ``check_determinized(st, twin, seat, game, players, start)``;
- ``referee(sweep, trace, label)``: the game's referee's replay of a trace (an AssertionError on
  any disagreement), and ``referee_agrees(sweep, index, table, trace)``: its end checks.
"""
