"""gnubg side of Tabula's analysis check.

Runs INSIDE GNU Backgammon:  gnubg -t -q -p analyse.py
Started by server/ai-tools/tests/analysis_gnubg.rs; not meant to be run by hand.

Environment:
  TABULA_OUT    output file (JSON lines)
  TABULA_FILES  JSON list of .mat paths

For each file: `import mat PATH`, `analyse match`, then one line

  {"path": ..., "games": [[{"player": 0 | 1, "dice": [d1, d2],
                             "choices": n, "loss": x, "skill": s}, ...], ...]}

with one entry per checker play in order (rolls that could not be played
left out), and "cube": [X's, O's] gnubg's statistics of each player's cube
decisions over the match (its "cube" block: "close-cube" decisions,
"error-skill" in equity, "missed-double-below-cp", "wrong-double-below-dp",
"wrong-take", "wrong-drop" and the rest): player 0 is gnubg's X (White),
`choices` the number of plays gnubg considered, `loss` the equity of its
best play minus that of the play made, and `skill` gnubg's mark ("doubtful",
"bad", "very bad") or null. A last line {"done": true} ends the output.
"""
import json
import os
import traceback

import gnubg

OUT = open(os.environ["TABULA_OUT"], "w")


def emit(obj):
    OUT.write(json.dumps(obj) + "\n")
    OUT.flush()


def plays():
    m = gnubg.match(1, 0, 0, 0)
    games = []
    for g in m.get("games", []):
        moves = []
        for a in g.get("game", []):
            if a.get("action") != "move" or not a.get("move"):
                # Not a play, or a roll that could not be played.
                continue
            an = a.get("analysis", {})
            cands = an.get("moves", [])
            i = an.get("imove")
            loss = None
            if cands and i is not None and i < len(cands):
                loss = cands[0]["score"] - cands[i]["score"]
            moves.append({
                "player": 0 if a.get("player") == "X" else 1,
                "dice": list(a.get("dice") or []),
                "choices": len(cands),
                "loss": loss,
                "skill": an.get("skill"),
            })
        games.append(moves)
    return games


try:
    gnubg.command("set threads 1")
    for path in json.loads(os.environ["TABULA_FILES"]):
        gnubg.command("new session")
        gnubg.command("import mat " + path)
        gnubg.command("analyse match")
        stats = gnubg.match(1, 0, 1, 0).get("stats", {})
        cube = [stats.get(p, {}).get("cube", {}) for p in ("X", "O")]
        emit({"path": path, "games": plays(), "cube": cube})
    emit({"done": True})
except Exception:
    emit({"error": traceback.format_exc()})
OUT.close()
