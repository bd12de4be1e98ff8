#!/usr/bin/env python3
"""GNU Backgammon as a Tabula Backgammon engine (the line protocol of
docs/HOSTING.md, "External engines").

    tabula-server --engine "backgammon:GNU Backgammon=python3 examples/gnubg_engine.py --plies 2"

Tabula sends one line per checker play with a choice:

    move <POSITION_ID> <D1> <D2>

where the gnubg Position ID is seen from the side to play; this answers one
line, the Position ID after gnubg's best play of that roll, from the same
side (not switched). There is no handshake, forced plays are not sent, and
the process is killed when the game ends or the room empties.

This file runs twice: started by Tabula with the system's python3, it starts
`gnubg -t -q -p` on itself and relays the lines through two private pipes
(gnubg's own output then cannot get mixed into the answers); inside gnubg it
answers them with gnubg's Python module.
"""
import argparse
import os
import subprocess
import sys

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")


def inside_gnubg():
    import gnubg  # only there

    requests = os.fdopen(int(os.environ["TABULA_ENGINE_IN"]), "r")
    answers = os.fdopen(int(os.environ["TABULA_ENGINE_OUT"]), "w")
    plies = int(os.environ.get("TABULA_ENGINE_PLIES", "0"))
    for command in ("set threads 1", "set jacoby off",
                    "set player 0 human", "set player 1 human"):
        gnubg.command(command)
    # Money play with a centred cube, the side on roll as gnubg's board[1].
    cube = gnubg.cubeinfo(1, -1, 0, 0)
    # evalcontext(cubeful, plies, deterministic, prune, noise)
    context = gnubg.evalcontext(0, plies, 1, 1, 0.0)
    for line in requests:
        words = line.split()
        if len(words) != 4 or words[0] != "move":
            answers.write("error expected: move <POSITION_ID> <D1> <D2>\n")
            answers.flush()
            continue
        board = gnubg.positionfromid(words[1])
        dice = (int(words[2]), int(words[3]))
        play = gnubg.findbestmove(board, cube, context, dice)
        answers.write(gnubg.positionid(after(board, play)) + "\n")
        answers.flush()


def after(board, play):
    """The board after `play` (gnubg's tuple of from/to pairs, 1-based from
    the mover's side, 25 the bar, 0 off), the mover still board[1]."""
    opponent, mover = list(board[0]), list(board[1])
    for i in range(0, len(play), 2):
        source, target = play[i], play[i + 1]
        mover[source - 1] -= 1
        if target > 0:
            mover[target - 1] += 1
            # A blot hit: the mover's point p is the opponent's 25 - p.
            theirs = 24 - target
            if opponent[theirs] == 1:
                opponent[theirs] = 0
                opponent[24] += 1
    return (opponent, mover)


def relay(plies):
    to_gnubg_r, to_gnubg_w = os.pipe()
    from_gnubg_r, from_gnubg_w = os.pipe()
    env = dict(os.environ,
               TABULA_ENGINE_IN=str(to_gnubg_r),
               TABULA_ENGINE_OUT=str(from_gnubg_w),
               TABULA_ENGINE_PLIES=str(plies))
    gnubg = subprocess.Popen(
        [GNUBG, "-t", "-q", "-p", os.path.abspath(__file__)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, env=env,
        pass_fds=(to_gnubg_r, from_gnubg_w))
    os.close(to_gnubg_r)
    os.close(from_gnubg_w)
    to_gnubg = os.fdopen(to_gnubg_w, "w")
    from_gnubg = os.fdopen(from_gnubg_r, "r")
    try:
        for line in sys.stdin:
            to_gnubg.write(line)
            to_gnubg.flush()
            answer = from_gnubg.readline()
            if not answer:
                sys.exit("gnubg_engine: gnubg stopped")
            sys.stdout.write(answer)
            sys.stdout.flush()
    finally:
        gnubg.kill()


if __name__ == "__main__":
    if "TABULA_ENGINE_IN" in os.environ:
        inside_gnubg()
    else:
        parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
        parser.add_argument("--plies", type=int, default=0,
                            help="gnubg's look-ahead: 0 (fast), 1, 2 (World Class)")
        relay(parser.parse_args().plies)
