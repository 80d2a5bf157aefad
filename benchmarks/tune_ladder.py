"""The winners of a budget ladder of tunings, measured on the same fresh games.

    .venv/bin/python benchmarks/tune_ladder.py GAMES TUNE_DIR [TUNE_DIR ...]

Each TUNE_DIR is a finished `powerlab tune` directory of the same search (game, players,
strategy, field, seed) at another --budget. Every winner and the starting parameters play the
same GAMES fresh games (the tunings' fresh seed, root seed + 1), so their win rates are paired:
the smallest budget whose winner is within the largest budget's 95% interval reached its
optimum (docs/performance.md, "Tuning budget for a stable optimum"). ``vs_last`` is each
winner's paired difference against the last directory's winner on the same games (two seeds of
one budget agree when it holds 0).
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(games: int, folders: list[Path]) -> None:
    from analyses.paired import paired_difference
    from analyses.stats import mean_interval
    from simcore.workflows import storage, tuning

    specs = [storage.read_json(f / "tune.json", "tune") for f in folders]
    summaries = [storage.read_json(f / "summary.json", "summary") for f in folders]
    first = specs[0]
    spec = tuning.build_spec(
        first["game"], first["players"], summaries[0]["baseline"], [], [], first["seed"], 10**6,
        fields=[(w, lineup) for w, lineup in first["fields"]], rules=first["rules"],
    )  # fmt: skip
    play = tuning.Player()
    seed = tuning.fresh_seed(spec.seed)

    def scores(text: str):
        candidate = tuning.registry.parse_strategy(tuning.registry.make(spec.game), text)
        return tuning.field_scores(spec, play, candidate, seed, 0, games)

    base, base_ok = scores(summaries[0]["baseline"])
    played = [scores(summary["best"]) for summary in summaries]
    last, last_ok = played[-1]
    rows = []
    for folder, stored, summary, (score, ok) in zip(folders, specs, summaries, played, strict=True):
        both = ok & base_ok
        rate, low, high = mean_interval(score[both])
        diff = paired_difference(score[both], base[both])
        # against the last directory's winner, paired: does this winner play as well?
        same = ok & last_ok
        versus = paired_difference(score[same], last[same])
        rows.append(
            {"dir": str(folder), "budget": stored["budget"], "seed": stored["seed"],
             "best": summary["best"], "win_rate": rate, "ci_low": low, "ci_high": high,
             "gain": diff["diff"], "gain_low": diff["ci_low"], "gain_high": diff["ci_high"],
             "vs_last": versus["diff"], "vs_last_low": versus["ci_low"],
             "vs_last_high": versus["ci_high"], "seconds": summary["timings"]["seconds"]}
        )  # fmt: skip
    print(json.dumps({"games": games, "seed": seed, "rows": rows}, indent=1))


if __name__ == "__main__":
    main(int(sys.argv[1]), [Path(a) for a in sys.argv[2:]])
