"""Rates a Backgammon player's checker play on a decision set made by
`decisions.py` (gnubg's 1-ply equity of every legal play).

    python3 server/ai-tools/tools/rate_plays.py --decisions decisions.jsonl \
        -- target/release/bg-engine --level expert

The player is any program speaking bgharness's `ext:` protocol (one line
`move POSID D1 D2` in, the Position ID after its play out), as `bg-engine`
does. Prints the mean error per decision in millipoints (the best play's
equity minus that of the play chosen) with its 95% half-width, by phase, the
number of errors above 40 and 80 mp, and the time per decision; `--json F`
also writes the per-decision errors.
"""
import argparse
import json
import math
import subprocess
import sys
import time

PHASES = ("contact", "race", "bearoff")


def summary(errors):
    n = len(errors)
    if n == 0:
        return "-"
    mean = sum(errors) / n
    var = sum((e - mean) ** 2 for e in errors) / (n - 1) if n > 1 else 0.0
    return "%.2f ± %.2f" % (mean, 1.96 * math.sqrt(var / n))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", required=True)
    ap.add_argument("--limit", type=int, default=0, help="first N decisions only")
    ap.add_argument("--json", help="write per-decision results here")
    ap.add_argument("player", nargs=argparse.REMAINDER,
                    help="-- command line of the ext: player")
    args = ap.parse_args()
    cmd = [a for a in args.player if a != "--"] or sys.exit("no player command")
    decisions = [json.loads(l) for l in open(args.decisions)]
    if args.limit:
        decisions = decisions[:args.limit]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    errors = {p: [] for p in PHASES}
    rows = []
    times = []
    for d in decisions:
        equities = {p["id"]: p["equity"] for p in d["plays"]}
        t0 = time.perf_counter()
        proc.stdin.write("move %s %d %d\n" % (d["id"], d["dice"][0], d["dice"][1]))
        proc.stdin.flush()
        answer = proc.stdout.readline().strip()
        times.append(time.perf_counter() - t0)
        if answer not in equities:
            sys.exit("illegal answer %r to %s %s" % (answer, d["id"], d["dice"]))
        err = 1000.0 * (max(equities.values()) - equities[answer])
        errors[d["phase"]].append(err)
        rows.append({"id": d["id"], "dice": d["dice"], "phase": d["phase"],
                     "play": answer, "error": err})
    proc.stdin.close()
    proc.wait()
    everything = [e for p in PHASES for e in errors[p]]
    times.sort()
    print("decisions %d: all %s mp | contact %s (%d) | race %s (%d) | "
          "bearoff %s (%d) | errors > 40 mp: %d, > 80 mp: %d | "
          "time per decision: median %.1f ms, mean %.1f ms, max %.1f ms" % (
              len(everything), summary(everything),
              summary(errors["contact"]), len(errors["contact"]),
              summary(errors["race"]), len(errors["race"]),
              summary(errors["bearoff"]), len(errors["bearoff"]),
              sum(e > 40 for e in everything), sum(e > 80 for e in everything),
              1000 * times[len(times) // 2], 1000 * sum(times) / len(times),
              1000 * times[-1]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)


if __name__ == "__main__":
    main()
