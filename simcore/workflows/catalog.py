"""What `powerlab games` prints: the games, or one game's rules, arcs, strategies and presets
with their docs, as lines of text."""

from simcore import registry


def games_lines() -> list[str]:
    lines = []
    for game_id in registry.game_ids():
        g = registry.make(game_id)
        lines.append(f"{g.id:<16} {g.title} ({g.player_counts()} players): {g.doc}")
    return [*lines, "", "Details: powerlab games GAME"]


def game_lines(game_id: str) -> list[str]:
    g = registry.make(game_id)
    lines = [
        f"{g.title} [{g.id}], {g.player_counts()} players: {g.doc}",
        f"Rulebook: shared/rules/{g.rulebook}; modelling choices: docs/games/{g.id}.md",
        "",
        "Rule parameters (--set key=value):",
    ]
    for p in g.rules:
        lines.append(f"  {p.name:<26} default {p.default!s:<10} {p.expected():<28} {p.doc}")
    if g.arcs is None:
        lines += ["", "Game arcs (--arcs): this game does not record arcs yet (docs/arcs.md)"]
    else:
        lines += ["", f"Game arcs (--arcs): the standing after every {g.arcs.unit}, in this order:"]
        lines += [f"  {c.name:<26} {c.doc}" for c in g.arcs.standing]
    lines += ["", f"Strategies (--strategy name:key=value,...; default {g.default_strategy}):"]
    for s in g.all_strategies():
        lines.append(f"  {s.name}: {s.doc}")
        for p in s.params:
            lines.append(f"      {p.name:<16} default {p.default!s:<8} {p.expected():<24} {p.doc}")
    presets = registry.presets(g.id)
    if presets:
        lines += ["", "Presets (--strategy preset:NAME: the tuning at the run's player count, "
                  "made by the command shown):"]  # fmt: skip
        for name, preset in presets.items():
            lines += [f"  {name}: {preset['doc']}"]
            for players, tuned in preset["players"].items():
                lines += [f"    {players} players: {tuned['spec']}", f"      {tuned['command']}"]
    return lines
