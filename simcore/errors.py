"""The one exception type of bad user input, below every other module (the registry, the files
and the schema layer raise it; the CLI turns it into one line and exit code 2)."""


class SpecError(ValueError):
    """Bad user input: the message is one line a designer can act on."""
