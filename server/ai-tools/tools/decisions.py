"""Builds a fixed set of checker-play decisions judged by GNU Backgammon.

Runs INSIDE GNU Backgammon:

    TABULA_OUT=decisions.jsonl TABULA_DECISIONS=1000 TABULA_SEED=1 \
        /usr/games/gnubg -t -q -p server/ai-tools/tools/decisions.py

gnubg plays money games against itself (0-ply, cubeless, dice from Python's
`random.Random(f"{seed}:{game}")`, the opening roll the first non-double).
Every decision with at least two distinct legal results becomes one line of
TABULA_OUT, until TABULA_DECISIONS lines are written:

    {"id": POSID, "dice": [d1, d2], "phase": "contact" | "race" | "bearoff",
     "plays": [{"id": POSID_AFTER, "equity": e}, ...]}

`id` is the gnubg Position ID with the mover on roll; each play's `id` is the
position after the play, still from the mover's side (the mover's checkers
the second half, as in the bgharness `ext:` protocol). `equity` is gnubg's
cubeless money equity of the play for the mover at 1-ply (the position after
the play, the opponent on roll, looked ahead over the opponent's 21 rolls),
so a player's error on the decision is the best equity minus that of its
play. `server/ai-tools/tools/rate_plays.py` rates a player on the file.

The phase is that of the position before the play: "bearoff" when both sides
are past each other with all of the mover's checkers in its home board,
"race" when the sides are past each other otherwise, "contact" when not.
"""
import json
import os
import random

import gnubg

OUT = open(os.environ["TABULA_OUT"], "w")
WANT = int(os.environ.get("TABULA_DECISIONS", "1000"))
SEED = os.environ.get("TABULA_SEED", "1")

for c in ("set threads 1", "set jacoby off",
          "set player 0 human", "set player 1 human",
          "set evaluation chequerplay evaluation plies 0",
          "set evaluation chequerplay evaluation cubeful off"):
    gnubg.command(c)
gnubg.command("new session")

# Money game, cube 1 centred, cubeless evaluations.
CI = gnubg.cubeinfo(1, -1, 0, 0)
PLAY = gnubg.evalcontext(0, 0, 1, 1, 0.0)
JUDGE = gnubg.evalcontext(0, 1, 1, 0, 0.0)


def equity(p):
    """Cubeless money equity of gnubg's five probabilities."""
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


def apply(board, move):
    """The board after `move` (gnubg's tuple of from/to pairs, 1-based
    points from the mover's side, 25 the bar, 0 off; flat from findbestmove,
    paired from parsemove), the mover still board[1]."""
    opp, me = list(board[0]), list(board[1])
    if move and isinstance(move[0], (tuple, list)):  # parsemove's pairs
        move = [x for pair in move for x in pair]
    for k in range(0, len(move), 2):
        f, t = move[k], move[k + 1]
        if f < 0:
            break
        me[f - 1] -= 1
        if t > 0:
            me[t - 1] += 1
            if opp[24 - t] == 1:  # the mover's point t is the opponent's 25 - t
                opp[24 - t] = 0
                opp[24] += 1
    return (opp, me)


def phase(board):
    opp, me = board
    # Highest occupied point of each side in its own numbering (25 = bar).
    my_back = max([i + 1 for i in range(25) if me[i]], default=0)
    opp_back = max([i + 1 for i in range(25) if opp[i]], default=0)
    if my_back + opp_back > 25:
        return "contact"
    return "bearoff" if my_back <= 6 else "race"


def legal_plays(board, dice):
    gnubg.command("set board " + gnubg.positionid(board))
    gnubg.command("set dice %d %d" % dice)
    assert gnubg.positionid(gnubg.board()) == gnubg.positionid(board)
    plays = {}
    for m in gnubg.hint(100000).get("hint", []):
        after = apply(board, gnubg.parsemove(m["move"]))
        plays[gnubg.positionid(after)] = after
    return plays


written = 0
game = 0
while written < WANT:
    rng = random.Random("%s:%d" % (SEED, game))
    game += 1
    board = gnubg.positionfromid("4HPwATDgc/ABMA")
    first = True
    while sum(board[0]) and sum(board[1]) and written < WANT:
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if not first or dice[0] != dice[1]:
                break
        first = False
        move = gnubg.findbestmove(board, CI, PLAY, dice)
        plays = legal_plays(board, dice)
        if len(plays) >= 2:
            rated = []
            for pid, after in plays.items():
                p = gnubg.evaluate((after[1], after[0]), CI, JUDGE)
                rated.append({"id": pid, "equity": round(-equity(p), 5)})
            rated.sort(key=lambda r: -r["equity"])
            OUT.write(json.dumps({"id": gnubg.positionid(board),
                                  "dice": list(dice), "phase": phase(board),
                                  "plays": rated}) + "\n")
            OUT.flush()
            written += 1
        after = apply(board, move) if move else board
        if move and gnubg.positionid(after) not in plays:
            raise SystemExit("gnubg's move %r is not among the hint's plays" % (move,))
        board = (after[1], after[0])
OUT.close()
