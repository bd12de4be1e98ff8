"""gnubg side of Tabula's export check.

Runs INSIDE GNU Backgammon:  gnubg -t -q -p import_check.py
Started by shared/tests/export_gnubg/gnubg.rs; not meant to be run by hand.

Environment:
  TABULA_OUT    output file (JSON lines; gnubg's own chatter stays on stdout)
  TABULA_FILES  JSON list of {"kind": "mat" | "sgf", "path": "..."}

For each file: `import mat PATH` or `load match PATH`, then one line

  {"path": ..., "match_length": n, "names": [player 0, player 1],
   "games": [{"score": [s0, s1], "winner": 0 | 1 | null, "points": n,
              "resigned": bool, "crawford": bool,
              "actions": [[action, player, [d1, d2] | null,
                           [[from, to], ...] | null], ...]}, ...]}

Players are 0 (gnubg's X, White) and 1 (O, Black); moves are gnubg's
(from, to) pairs from the mover's side, 25 = bar, 0 = off. A last line
{"done": true} ends the output. Errors: {"error": "..."}.
"""
import json
import os
import sys
import traceback

import gnubg

OUT = open(os.environ["TABULA_OUT"], "w")


def emit(obj):
    OUT.write(json.dumps(obj) + "\n")
    OUT.flush()


def player(p):
    if p == "X":
        return 0
    if p == "O":
        return 1
    return None


def summary(path):
    m = gnubg.match(0, 0, 0, 0)
    info = m.get("match-info", {})
    games = []
    for g in m.get("games", []):
        gi = g.get("info", {})
        actions = []
        for a in g.get("game", []):
            dice = a.get("dice")
            move = a.get("move")
            actions.append([
                a.get("action"),
                player(a.get("player")),
                list(dice) if dice is not None else None,
                [list(h) for h in move] if move is not None else None,
            ])
        games.append({
            "score": [gi.get("score-X"), gi.get("score-O")],
            "winner": player(gi.get("winner")),
            "points": gi.get("points-won", 0),
            "resigned": bool(gi.get("resigned", False)),
            "crawford": bool(gi.get("crawford", False)),
            "actions": actions,
        })
    return {
        "path": path,
        "match_length": info.get("match-length"),
        "names": [info.get("X", {}).get("name"), info.get("O", {}).get("name")],
        "games": games,
    }


def main():
    for cmd in ("set threads 1", "set confirm new off", "set player 0 human",
                "set player 1 human"):
        gnubg.command(cmd)
    for f in json.loads(os.environ["TABULA_FILES"]):
        # A fresh match first, so that a file gnubg refuses cannot leave the
        # previous file's match behind to be reported again.
        gnubg.command("new match 1")
        if f["kind"] == "mat":
            gnubg.command("import mat " + f["path"])
        else:
            gnubg.command("load match " + f["path"])
        emit(summary(f["path"]))
    emit({"done": True})


try:
    main()
except Exception:
    emit({"error": traceback.format_exc()})
OUT.close()
sys.exit(0)
