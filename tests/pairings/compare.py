"""Pairs random Swiss events with both Tabula's Dutch pairing and
caissify-pairings' (an implementation of the FIDE Dutch system checked
against bbpPairings), round by round from the same state, and says how
often they agree.

Each event is played on caissify's pairings with results drawn as its
random tournament generator draws them (FIDE's expected score, 30% draws),
so every round both engines see is a real Dutch-system state.

    PYTHONPATH=<dir with caissify_pairings> python3 compare.py \
        --tool target/debug/swiss-pair --events 300 --seed 1

Prints one JSON object: rounds compared, rounds where the pairs (and the
bye) are the same, where the colours are too, rounds Tabula could not pair
(and of those, rounds caissify paired completely: it gives a second bye
where no complete pairing exists), rounds whose pairing broke an absolute
rule, and the first few differences.
"""

import argparse
import json
import random
import subprocess
import sys

from caissify_pairings.engines.dutch import DutchEngine
from caissify_pairings.rtg import simulate_result


def events(count, seed, min_players, max_players, min_rounds, max_rounds):
    """Yields (event, round, state, caissify's pairing) for every round."""
    for e in range(count):
        rng = random.Random(seed * 100003 + e)
        random.seed(seed * 100003 + e)  # simulate_result draws from `random`
        n = rng.randint(min_players, max_players)
        rounds = min(rng.randint(min_rounds, max_rounds), n - 1)
        ratings = sorted((rng.randint(1400, 2700) for _ in range(n)), reverse=True)
        players = [
            {
                "id": i + 1, "name": f"P{i + 1}", "rating": r,
                "starting_number": i + 1, "pairing_number": i + 1,
                "score": 0.0, "color_hist": [], "float_history": [],
                "bye_count": 0, "forfeit_win_count": 0,
            }
            for i, r in enumerate(ratings)
        ]
        by_id = {p["id"]: p for p in players}
        initial = rng.choice(["white", "black"])
        previous = set()
        for rnd in range(1, rounds + 1):
            snapshot = json.loads(json.dumps(players))
            state = {
                "players": snapshot,
                "previous_pairings": sorted(previous),
                "round_number": rnd,
                "total_rounds": rounds,
                "initial_color": initial,
            }
            engine = DutchEngine(
                players=json.loads(json.dumps(players)),
                previous_pairings=set(previous),
                round_number=rnd,
                total_rounds=rounds,
                initial_color=initial,
            )
            pairing = engine.generate_pairings()
            yield e, rnd, state, pairing
            before = {p["id"]: p["score"] for p in players}
            for g in pairing:
                w, b = g["white_id"], g.get("black_id")
                if b is None or g.get("bye"):
                    p = by_id[w]
                    p["score"] += 1.0
                    p["bye_count"] += 1
                    p["float_history"].append("down")
                    continue
                res = simulate_result(by_id[w]["rating"], by_id[b]["rating"], 0.30)
                ws = {"1": 1.0, "0": 0.0, "=": 0.5}[res]
                by_id[w]["score"] += ws
                by_id[b]["score"] += 1.0 - ws
                by_id[w]["color_hist"].append("white")
                by_id[b]["color_hist"].append("black")
                previous.add((min(w, b), max(w, b)))
                if before[w] > before[b]:
                    fw, fb = "down", "up"
                elif before[w] < before[b]:
                    fw, fb = "up", "down"
                else:
                    fw = fb = "none"
                by_id[w]["float_history"].append(fw)
                by_id[b]["float_history"].append(fb)


def caissify_sets(pairing):
    """Its pairs, its coloured pairs and its bye (a list when it gave more
    than one: it found no complete pairing)."""
    pairs, colours, byes = set(), set(), []
    for g in pairing:
        w, b = g["white_id"], g.get("black_id")
        if b is None or g.get("bye"):
            byes.append(w)
        else:
            pairs.add((min(w, b), max(w, b)))
            colours.add((w, b))
    return pairs, colours, (byes[0] if len(byes) == 1 else byes or None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--events", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-players", type=int, default=6)
    ap.add_argument("--max-players", type=int, default=24)
    ap.add_argument("--min-rounds", type=int, default=3)
    ap.add_argument("--max-rounds", type=int, default=9)
    a = ap.parse_args()
    rounds = list(events(a.events, a.seed, a.min_players, a.max_players, a.min_rounds, a.max_rounds))
    lines = "".join(json.dumps(state) + "\n" for _, _, state, _ in rounds)
    out = subprocess.run([a.tool], input=lines, capture_output=True, text=True, check=True)
    ours = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(ours) == len(rounds), (len(ours), len(rounds))
    summary = {
        "events": a.events, "rounds": len(rounds), "same_pairs": 0, "same_colours": 0,
        "tabula_failed": 0, "tabula_failed_alone": 0, "caissify_incomplete": 0, "illegal": 0, "by_round": {}, "differences": [],
    }
    for (e, rnd, state, theirs), mine in zip(rounds, ours):
        per = summary["by_round"].setdefault(str(rnd), [0, 0])
        per[1] += 1
        pairs, colours, bye = caissify_sets(theirs)
        incomplete = isinstance(bye, list)
        summary["caissify_incomplete"] += incomplete
        if "error" in mine:
            summary["tabula_failed"] += 1
            summary["tabula_failed_alone"] += not incomplete
            continue
        seen = [x for g in mine["games"] for x in g] + ([mine["bye"]] if mine["bye"] else [])
        prev = {tuple(p) for p in state["previous_pairings"]}
        ids = {p["id"] for p in state["players"]}
        byes = {p["id"] for p in state["players"] if p["bye_count"] > 0}
        if (sorted(seen) != sorted(ids)
                or any((min(w, b), max(w, b)) in prev for w, b in mine["games"])
                or mine["bye"] in byes):
            summary["illegal"] += 1
        my_pairs = {(min(w, b), max(w, b)) for w, b in mine["games"]}
        if pairs == my_pairs and bye == mine["bye"]:
            summary["same_pairs"] += 1
            per[0] += 1
            if colours == {tuple(g) for g in mine["games"]}:
                summary["same_colours"] += 1
        elif len(summary["differences"]) < 5:
            summary["differences"].append({
                "event": e, "round": rnd, "players": len(state["players"]),
                "caissify": sorted(pairs), "caissify_bye": bye,
                "tabula": sorted(my_pairs), "tabula_bye": mine["bye"],
            })
    json.dump(summary, sys.stdout)
    print()


if __name__ == "__main__":
    main()
