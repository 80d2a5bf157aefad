"""The cursor every referee reads a kernel trace with: it explains every disagreement.

A referee takes decisions and chance outcomes from the trace (``take``, ``peek``), checks them
(``check``) and asserts the consequences it computed itself (``expect``); any difference raises an
AssertionError naming the game, the trace row, what the rules expected and what the kernel wrote.
"""

from collections.abc import Callable, Sequence

TRACE_WIDTH = 8  # every kernel's trace row: [event, a, b, c, d, e, f, g]


class TraceCursor:
    def __init__(
        self,
        rows,
        game_label: str,
        referee: str,
        event_names: Sequence[str],
        describe: Callable[[tuple[int, ...]], str],
    ):
        rows = [tuple(int(x) for x in row) for row in rows]
        for i, row in enumerate(rows):
            assert len(row) == TRACE_WIDTH, f"game {game_label}: row {i} has width {len(row)}"
        # Standing rows (docs/arcs.md) are a reading of the state, not a rule: the referee skips
        # them (tests/reports/test_arcs.py checks them against the games table) and names the
        # others by their row in the kernel's trace.
        standing = event_names.index("standing") if "standing" in event_names else -1
        self.trace_rows = [i for i, row in enumerate(rows) if row[0] != standing]
        self.trace_length = len(rows)
        self.rows = [rows[i] for i in self.trace_rows]
        self.label = game_label
        self.referee = referee
        self.event_names = event_names
        self.describe = describe
        self.index = 0

    def fail(self, expected: str, wrote: str | None = None, index: int | None = None):
        index = self.index if index is None else index
        if wrote is None:
            wrote = self.describe(self.rows[index]) if index < len(self.rows) else "end of trace"
        in_trace = self.trace_rows[index] if index < len(self.trace_rows) else self.trace_length
        raise AssertionError(
            f"{self.referee} referee, game {self.label!r}, trace row {in_trace}: expected "
            f"{expected}; the kernel wrote {wrote}"
        )

    def peek_row(self, ahead: int = 0) -> tuple[int, ...] | None:
        """The row ``ahead`` rows from the cursor, None past the end of the trace."""
        i = self.index + ahead
        return self.rows[i] if i < len(self.rows) else None

    def peek(self) -> int | None:
        """The event code of the next row, None at the end of the trace."""
        row = self.peek_row()
        return None if row is None else row[0]

    def take(self, event: int, what: str) -> tuple[int, ...]:
        """The next row, which must be a ``event`` (a decision the referee will check)."""
        if self.peek() != event:
            self.fail(f"{self.event_names[event]} event ({what})")
        return self.rows[self.index]

    def expect(self, *fields: int, what: str) -> None:
        """Assert the next row is exactly ``fields`` (padded with zeros) and consume it."""
        expected = tuple(int(x) for x in fields) + (0,) * (TRACE_WIDTH - len(fields))
        if self.index >= len(self.rows) or self.rows[self.index] != expected:
            self.fail(f"{self.describe(expected)} ({what})")
        self.index += 1

    def check(self, ok: bool, expected: str) -> None:
        """Assert a legality condition about the next row (a decision or a chance outcome)."""
        if not ok:
            self.fail(expected)
