"""Liar's Dice, the toy game of docs/adding-a-game.md: a game package outside simcore/ with its
strategies module, registered only by the environment (``REGISTRATION``)."""

# The POWERLAB_GAMES entry that registers it (simcore/registry.py): for the CLI's processes too.
REGISTRATION = "liars-dice=tests.games.liars_dice.game"
