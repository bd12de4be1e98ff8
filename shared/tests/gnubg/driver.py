"""gnubg side of Tabula's move-generation cross-check.

Runs INSIDE GNU Backgammon:  gnubg -t -q -p driver.py
Started by shared/tests/gnubg_crosscheck.rs; not meant to be run by hand.

Environment:
  TABULA_OUT        output file (JSON lines; gnubg's own chatter stays on stdout)
  TABULA_SEED       dice seed (default 1)
  TABULA_POSITIONS  number of distinct positions to sample (default 1000)
  TABULA_SHARD, TABULA_SHARDS  this process handles positions i with
                    i % SHARDS == SHARD (default 0 of 1)

1. Sample positions from real games: gnubg 0-ply plays itself (cubeless money
   play, seeded dice, opening roll = one die each, ties re-rolled). Every
   position in which the side on roll has a checker play to make is recorded
   (both sides), deduplicated by Position ID, until POSITIONS are collected.
2. For each position of this shard and each of the 21 rolls, ask gnubg's
   0-ply `hint` for every legal move (gnubg lists one per distinct resulting
   position), apply each move's hops and record the resulting Position IDs
   (mover's perspective, sides not swapped).

Output, one line per position:
  {"i": n, "id": POSID, "board": [[25 ints], [25 ints]],
   "rolls": {"31": {"n": number of hint entries, "ids": [POSID, ...]}, ...}}
and a last line {"done": true, "positions": k}. Errors: {"error": "..."}.
"""
import json
import os
import random
import sys
import traceback

import gnubg

OUT = open(os.environ["TABULA_OUT"], "w")
SEED = int(os.environ.get("TABULA_SEED", "1"))
WANT = int(os.environ.get("TABULA_POSITIONS", "1000"))
SHARD = int(os.environ.get("TABULA_SHARD", "0"))
SHARDS = int(os.environ.get("TABULA_SHARDS", "1"))
START_ID = "4HPwATDgc/ABMA"
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def emit(obj):
    OUT.write(json.dumps(obj) + "\n")
    OUT.flush()


def configure():
    for cmd in ("set threads 1",
                "set jacoby off",
                "set player 0 human",
                "set player 1 human",
                "set evaluation chequerplay evaluation plies 0",
                "set evaluation chequerplay evaluation cubeful off"):
        gnubg.command(cmd)


def apply_hops(board, hops):
    """board = (opponent, mover) in gnubg's layout; hops = [(from, to), ...]
    1-based from the mover's side, 25 = bar, 0 = off. Hops are literal."""
    opp, me = list(board[0]), list(board[1])
    for f, t in hops:
        me[f - 1] -= 1
        if t > 0:
            me[t - 1] += 1
            j = 24 - t  # the mover's point t is the opponent's point 25 - t
            if opp[j] == 1:
                opp[j] = 0
                opp[24] += 1
    return (opp, me)


def sample_positions():
    rng = random.Random(SEED)
    ci = gnubg.cubeinfo(1, -1, 0, 0)
    ec = gnubg.evalcontext(0, 0, 1, 1, 0.0)
    seen = set()
    out = []
    games = 0
    while len(out) < WANT:
        games += 1
        board = gnubg.positionfromid(START_ID)
        while True:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if d1 != d2:
                break
        for _ in range(1000):
            mv = gnubg.findbestmove(board, ci, ec, (d1, d2))
            if mv:
                pid = gnubg.positionid(board)
                if pid not in seen:
                    seen.add(pid)
                    out.append((list(board[0]), list(board[1])))
                    if len(out) >= WANT:
                        break
                hops = [(mv[k], mv[k + 1]) for k in range(0, len(mv), 2)]
                board = apply_hops(board, hops)
                if sum(board[1]) == 0:
                    break
            board = (board[1], board[0])
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    return out, games


def main():
    configure()
    positions, games = sample_positions()
    gnubg.command("new session")
    done = 0
    for i, board in enumerate(positions):
        if i % SHARDS != SHARD:
            continue
        pid = gnubg.positionid(board)
        gnubg.command("set board " + pid)
        got = gnubg.positionid(gnubg.board())
        if got != pid:
            emit({"error": "set board %s gave %s" % (pid, got)})
            return
        rolls = {}
        for d1, d2 in ROLLS:
            gnubg.command("set dice %d %d" % (d1, d2))
            h = gnubg.hint(100000)
            strings = [m["move"] for m in h.get("hint", [])] if h else []
            ids = set()
            for s in strings:
                hops = [tuple(x) for x in gnubg.parsemove(s)] if s else []
                ids.add(gnubg.positionid(apply_hops(board, hops)))
            rolls["%d%d" % (d1, d2)] = {"n": len(strings), "ids": sorted(ids)}
        emit({"i": i, "id": pid, "board": [list(board[0]), list(board[1])],
              "rolls": rolls})
        done += 1
    emit({"done": True, "positions": done, "games": games})


try:
    main()
except Exception:
    emit({"error": traceback.format_exc()})
OUT.close()
sys.exit(0)
