#!/usr/bin/env python3
"""A sample Tabula bot that plays Gomoku and Backgammon through the protocol
alone (docs/PROTOCOL.md): it knows no rules beyond a few heuristics, and acts
when a snapshot's or event's `turn` names its seat.

Needs Python 3.8+ and the `websockets` package (Debian: python3-websockets).

    python3 bot.py --url ws://localhost:7878/ --game gomoku --opponent ai:beginner
    python3 bot.py --game backgammon --length 3 --opponent human   # prints ROOM <id>
    python3 bot.py --join <id>                                     # the second bot
    python3 bot.py --tournament <id>         # enters, plays every game it is paired for

It plays one game (a Backgammon match) and prints `RESULT <json>` at the end;
with --tournament, every game of the tournament, and then prints the final
standings as `RESULT <json>`.
"""

import argparse
import asyncio
import base64
import json
import sys

import websockets


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", default="ws://127.0.0.1:7878/")
    p.add_argument("--name", default="SampleBot")
    p.add_argument("--game", choices=["gomoku", "backgammon"], default="gomoku")
    p.add_argument("--length", type=int, default=3, help="Backgammon match length (0: money)")
    p.add_argument("--opponent", default="ai:beginner", help="ai:LEVEL or human")
    p.add_argument("--join", help="join this room instead of creating one")
    p.add_argument("--tournament", help="enter this tournament and play it to the end")
    p.add_argument("--code", help="a private tournament's code")
    return p.parse_args()


def room_options(args):
    if args.game == "gomoku":
        game = {"game": "gomoku", "size": 15, "rule": "freestyle", "opening": "none"}
    else:
        game = {"game": "backgammon", "length": args.length, "cube": True,
                "jacoby": False, "crawford": True, "doubles_twice": False}
    if args.opponent == "human":
        opponent = {"kind": "human"}
    else:
        opponent = {"kind": "ai", "level": args.opponent.split(":", 1)[1]}
    return {"game": game, "opponent": opponent, "colour": "random"}


# --- Gomoku: a small scoring heuristic -------------------------------------

DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def line_length(board, size, x, y, dx, dy, colour):
    """Stones of `colour` in a row through (x, y) along one direction, if placed."""
    n = 1
    for sign in (1, -1):
        cx, cy = x + sign * dx, y + sign * dy
        while 0 <= cx < size and 0 <= cy < size and board.get((cx, cy)) == colour:
            n += 1
            cx, cy = cx + sign * dx, cy + sign * dy
    return n


def choose_point(board, size, mine):
    theirs = "white" if mine == "black" else "black"
    if not board:
        return size // 2, size // 2
    best, best_score = None, -1
    for (sx, sy) in list(board):
        for x in range(sx - 2, sx + 3):
            for y in range(sy - 2, sy + 3):
                if not (0 <= x < size and 0 <= y < size) or (x, y) in board:
                    continue
                score = 0
                for dx, dy in DIRECTIONS:
                    own = line_length(board, size, x, y, dx, dy, mine)
                    opp = line_length(board, size, x, y, dx, dy, theirs)
                    # Five wins, then block four, then build.
                    score += 10 ** own * 2 + 10 ** opp
                if score > best_score:
                    best, best_score = (x, y), score
    return best


# --- Backgammon: gnubg Position IDs and pip counts -------------------------

def decode_position_id(pid):
    """Two lists of 25 checker counts (points 1..24, then the bar): the side
    not on roll, then the side on roll, each in its own numbering."""
    raw = base64.b64decode(pid + "==")
    bits = [(raw[i // 8] >> (i % 8)) & 1 for i in range(80)]
    sides, counts, n = [], [], 0
    for bit in bits:
        if bit:
            n += 1
            continue
        counts.append(n)
        n = 0
        if len(counts) == 25:
            sides.append(counts)
            counts = []
            if len(sides) == 2:
                break
    return sides[0], sides[1]


def pips(counts):
    return sum((i + 1) * n for i, n in enumerate(counts))


def choose_play(plays):
    """Prefer hitting; otherwise the first listed play."""
    hits = [p for p in plays if "*" in p]
    return (hits or plays)[0]


# --- The bot ----------------------------------------------------------------

class Bot:
    def __init__(self, ws, args):
        self.ws, self.args = ws, args
        self.room = None
        self.seat = None
        self.size = 15
        self.board = {}
        self.turn = {}
        self.next_id = 1
        self.sent = {}

    async def send(self, msg):
        msg["request_id"] = self.next_id
        self.sent[self.next_id] = msg
        self.next_id += 1
        await self.ws.send(json.dumps(msg))

    async def act(self, action):
        await self.send({"type": "act", "room_id": self.room, "action": action})

    def read_record(self, record):
        self.board = {}
        if record.get("game") == "gomoku":
            self.size = record["config"]["size"]
            for a in record["actions"]:
                self.apply_gomoku(a)

    def apply_gomoku(self, action):
        if action.get("kind") == "place":
            colour = "black" if len(self.board) % 2 == 0 else "white"
            p = action["point"]
            self.board[(p["x"], p["y"])] = colour

    async def on_turn(self, turn):
        if turn.get("seat") != self.seat:
            return
        expect = turn["expect"]
        if expect == "place":
            x, y = choose_point(self.board, self.size, turn["stone"])
            await self.act({"kind": "place", "point": {"x": x, "y": y}})
        elif expect == "choose":
            await self.act({"kind": "choose", "choice": "play_white"})
        elif expect == "roll":
            opp, me = decode_position_id(turn["position_id"])
            lead = pips(opp) - pips(me)
            if turn.get("may_double") and lead > 0.12 * pips(me):
                await self.act({"kind": "double"})
            else:
                await self.act({"kind": "roll"})
        elif expect == "play":
            await self.send({"type": "legal_plays", "room_id": self.room})
        elif expect == "take_or_drop":
            # The position is the doubler's: the first half is ours.
            me, doubler = decode_position_id(turn["position_id"])
            behind = pips(me) - pips(doubler)
            await self.act({"kind": "drop" if behind > 0.25 * pips(doubler) else "take"})

    async def run(self):
        await self.send({"type": "hello", "protocol": 1, "name": self.args.name})
        if self.args.tournament:
            join = {"type": "join_tournament", "tournament_id": self.args.tournament}
            if self.args.code:
                join["code"] = self.args.code
            await self.send(join)
            await self.send({"type": "watch_tournament", "tournament_id": self.args.tournament})
        elif self.args.join:
            await self.send({"type": "join_room", "room_id": self.args.join, "role": "player"})
        else:
            await self.send({"type": "create_room", "options": room_options(self.args)})
        async for text in self.ws:
            msg = json.loads(text)
            kind = msg.get("type")
            refused = self.sent.pop(msg.get("request_id"), None)
            if kind == "error":
                if msg["code"] == "rate_limited" and refused is not None:
                    # Too fast for the server: the same request again, later.
                    await asyncio.sleep(msg.get("retry_after_ms", 100) / 1000)
                    await self.send(refused)
                    continue
                raise SystemExit("server error: %s" % msg)
            if kind == "tournament_game":
                # Paired: our seat waits in this room.
                self.room, self.seat, self.board, self.turn = msg["room_id"], msg["seat"], {}, {}
                await self.send({"type": "join_room", "room_id": self.room, "role": "player"})
                continue
            if kind == "tournament":
                view = msg["tournament"]
                over = all("first_score" in g for g in view["games"])
                if view["status"] == "finished" and over:
                    return {"tournament": view["id"], "standings": view["standings"]}
                continue
            if self.args.tournament and msg.get("room_id") not in (None, self.room):
                continue  # a tournament game already over
            if kind == "joined":
                self.room, self.seat = msg["room_id"], msg.get("seat")
                if not self.args.join and not self.args.tournament:
                    print("ROOM", self.room, flush=True)
            elif kind == "snapshot":
                snap = msg["snapshot"]
                self.seat = snap.get("your_seat", self.seat)
                self.read_record(snap["record"])
                self.turn = snap.get("turn", {})
                if snap.get("result"):
                    if self.args.tournament:
                        continue
                    return {"result": snap["result"], "game_id": None}
                await self.on_turn(self.turn)
            elif kind == "legal_plays":
                await self.act({"kind": "play", "play": choose_play(msg["plays"])})
            elif kind == "event":
                result = await self.on_event(msg["event"])
                if result is not None and self.args.tournament:
                    # The next game comes as `tournament_game`.
                    await self.send({"type": "leave_room", "room_id": self.room})
                    self.room = None
                elif result is not None:
                    return result

    async def on_event(self, event):
        kind = event["kind"]
        if kind == "game_over":
            return {"result": event["result"], "game_id": event.get("game_id")}
        if kind == "game_started":
            self.read_record(event["record"])
        if kind == "action":
            self.apply_gomoku(event["action"])
        if kind == "took_back":
            await self.send({"type": "sync", "room_id": self.room})
            return None
        if kind == "offer_made" and event["offer"]["by"] != self.seat:
            answer = event["offer"]["kind"] in ("rematch",)
            await self.send({"type": "answer", "room_id": self.room,
                             "request": event["offer"]["kind"], "accept": answer})
        # A `passed` event repeats its roll's turn: act on the roll's alone.
        if "turn" in event and kind != "passed":
            self.turn = event["turn"]
            await self.on_turn(self.turn)
        return None


async def main():
    args = parse_args()
    async with websockets.connect(args.url, max_size=2 ** 20) as ws:
        bot = Bot(ws, args)
        outcome = await bot.run()
        print("RESULT", json.dumps({"seat": bot.seat, **outcome}), flush=True)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(1)
