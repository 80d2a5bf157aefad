"""Analyses of a run directory (docs/architecture.md): polars over the Parquet games dataset.

Modules: ``dataset`` (loading, seat-long view), ``stats`` (Wilson intervals), ``winrates``,
``length``, ``metrics``, ``impact``, ``summary``. This package file stays import-light so that
the CLI can catch ``AnalysisError`` without loading polars.
"""


class AnalysisError(ValueError):
    """A run directory cannot be analysed; the message is one line, fit for the CLI."""
