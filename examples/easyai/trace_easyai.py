#!/usr/bin/env python3
"""easyAI's Negamax, traced in prune's protocol by a thin wrapper (docs/PROTOCOL.md).

easyAI (https://pypi.org/project/easyAI/, MIT licence, by Zulko) is a game-AI library whose
`Negamax` is a fail-soft negamax alpha-beta search with an optional transposition table.
This script searches one of easyAI's own games, Nim, with easyAI's own search, unchanged,
and writes what it does as a protocol trace; it also writes the game, explored to the same
depth, as a tree in bracket notation, so that prune can check the one against the other:

    python3 -m pip install easyAI==2.0.12
    python3 examples/easyai/trace_easyai.py --piles 1,2,3 --depth 5 --tt tree.txt trace.jsonl
    prune check-trace trace.jsonl --tree tree.txt        # exit 0

`--bug NAME` plants a bug in a copy of easyAI's `negamax` (its source, edited as text):
`cutoff-strict` cuts off only when alpha > beta; `window-not-negated` passes the child
(alpha, beta) instead of (-beta, -alpha).

What the wrapper adds (easyAI writes no trace):
- easyAI's recursive `negamax` calls itself through its module, so the wrapper replaces the
  module's `negamax` with one that records the call and calls the original.
- A node's `enter` is written when its first move is made (the game's `make_move` and
  `unmake_move` are wrapped, which also gives each node its path); a call that makes no
  move is a leaf (its returned value is the evaluation) or a table answer.
- The table's `lookup` is wrapped to see the entry easyAI reads; the wrapper repeats
  easyAI's rule to tell whether it answered the node or narrowed its window (easyAI does
  not say), and writes `tt-hit` then. Keys are the game's `ttentry()` (Nim's heaps, without
  the side to move: Nim is impartial, and a negamax value does not depend on who moves).
- A node left before all its moves were searched took a cutoff after the last one.
- Moves are named by label: easyAI's Nim moves ("2,1": take 1 from heap 2) with the comma
  written as `t` after an `h` ("h2t1"), since bracket notation's labels are identifiers.
"""

import argparse
import inspect
import json
import sys

try:
    import importlib

    # The module, not the class `easyAI.AI` re-exports under the same name.
    nm = importlib.import_module("easyAI.AI.Negamax")
    from easyAI import TranspositionTable
    from easyAI.games.Nim import Nim
except ImportError:
    sys.exit("easyAI is not installed: python3 -m pip install easyAI==2.0.12")

INF = float("inf")
EXACT, LOWER, UPPER = nm.EXACT, nm.LOWERBOUND, nm.UPPERBOUND
BOUND = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}


def label(move):
    return "h" + move.replace(",", "t")


def jnum(x):
    if x in (INF, -INF):
        return "inf" if x > 0 else "-inf"
    return int(x) if float(x).is_integer() else x


def jwin(x):
    return None if x in (INF, -INF) else jnum(x)


def leaf_value(game, depth):
    """easyAI's evaluation of a node where the search stops, for its side to move."""
    return game.scoring() * (1 + 0.001 * depth)


def write_tree(game, depth, ply=0):
    """The game to `depth`, Max (the first player) to move at the root, values Max's."""
    if depth == 0 or game.is_over():
        v = leaf_value(game, depth) * (1 if ply % 2 == 0 else -1)
        return repr(float(v)) if not float(v).is_integer() else str(int(v))
    parts = []
    for move in game.possible_moves():
        game.make_move(move)
        parts.append(f"{label(move)}={write_tree(game, depth - 1, ply + 1)}")
        game.unmake_move(move)
    return "(" + ",".join(parts) + ")"


class Tracer:
    def __init__(self, game, original):
        self.game, self.original = game, original
        self.lines, self.path, self.frames = [], [], []
        make, unmake = game.make_move, game.unmake_move

        def make_move(move):
            self.moved(move)
            make(move)

        def unmake_move(move):
            unmake(move)
            self.path.pop()

        game.make_move, game.unmake_move = make_move, unmake_move

    def emit(self, **e):
        self.lines.append(json.dumps(e, separators=(",", ":")))

    def lookup_wrapped(self, tt):
        lookup = tt.lookup

        def traced_lookup(game):
            entry = lookup(game)
            if self.frames:
                self.frames[-1]["lookup"] = entry
            return entry

        tt.lookup = traced_lookup

    def moved(self, move):
        """The first move made at a node enters it, with the window easyAI searches it with."""
        f = self.frames[-1]
        if not f["entered"]:
            alpha, beta = f["alpha"], f["beta"]
            e = f["lookup"]
            if e is not None and e["depth"] >= f["depth"] and e["flag"] != EXACT:
                self.emit(event="tt-hit", path=f["path"], value=jnum(e["value"]),
                          bound=BOUND[e["flag"]], depth=e["depth"], key=str(self.key()))
                if e["flag"] == LOWER:
                    alpha = max(alpha, e["value"])
                else:
                    beta = min(beta, e["value"])
            self.emit(event="enter", path=f["path"], alpha=jwin(alpha), beta=jwin(beta),
                      depth=f["depth"], **({"key": str(self.key())} if f["tt"] else {}))
            f.update(entered=True, window=(alpha, beta), moves=len(self.game.possible_moves()))
        f["searched"].append(label(move))
        self.path.append(label(move))

    def key(self):
        return self.game.ttentry()

    def negamax(self, game, depth, origDepth, scoring, alpha=+INF, beta=-INF, tt=None):
        f = {"path": list(self.path), "alpha": alpha, "beta": beta, "depth": depth,
             "lookup": None, "entered": False, "searched": [], "tt": tt is not None}
        self.frames.append(f)
        value = self.original(game, depth, origDepth, scoring, alpha, beta, tt)
        self.frames.pop()
        if not f["entered"]:
            # easyAI's rule: an exact entry as deep answers the node, and so does a bound
            # that closes the window; else a node that made no move was evaluated.
            e = f["lookup"]
            answered = False
            if e is not None and e["depth"] >= depth:
                lo, hi = alpha, beta
                if e["flag"] == LOWER:
                    lo = max(lo, e["value"])
                elif e["flag"] == UPPER:
                    hi = min(hi, e["value"])
                answered = e["flag"] == EXACT or lo >= hi
            if answered:
                self.emit(event="tt-hit", path=f["path"], value=jnum(e["value"]),
                          bound=BOUND[e["flag"]], depth=depth, key=str(self.key()))
            else:
                self.emit(event="leaf", path=f["path"], value=jnum(value))
            return value
        if len(f["searched"]) < f["moves"]:
            self.emit(event="cutoff", path=f["path"], after=f["searched"][-1])
        lo, hi = f["window"]
        bound = "upper" if value <= lo else "lower" if value >= hi else "exact"
        self.emit(event="exit", path=f["path"], value=jnum(value), bound=bound)
        return value


def planted(bug):
    """A copy of easyAI's negamax with one bug, compiled from its own source."""
    source = inspect.getsource(nm.negamax)
    edits = {
        "cutoff-strict": ("if alpha >= beta:\n                break", "if alpha > beta:\n                break"),
        "window-not-negated": ("-beta, -alpha, tt)", "alpha, beta, tt)"),
    }
    old, new = edits[bug]
    assert old in source, f"easyAI's source changed: {bug} cannot be planted"
    scope = dict(vars(nm))
    exec(compile(source.replace(old, new), "negamax-with-a-bug", "exec"), scope)
    return scope["negamax"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--piles", default="1,2,3")
    p.add_argument("--depth", type=int, default=5)
    p.add_argument("--tt", action="store_true")
    p.add_argument("--bug", choices=["cutoff-strict", "window-not-negated"])
    p.add_argument("tree")
    p.add_argument("trace")
    a = p.parse_args()
    piles = [int(x) for x in a.piles.split(",")]

    with open(a.tree, "w") as f:
        f.write(write_tree(Nim(piles=piles), a.depth) + "\n")

    game = Nim(piles=piles)
    original = planted(a.bug) if a.bug else nm.negamax
    tracer = Tracer(game, original)
    if a.bug:
        # The copy calls `negamax` through its own namespace: route it through the tracer.
        original.__globals__["negamax"] = tracer.negamax
    nm.negamax = tracer.negamax
    tt = TranspositionTable() if a.tt else None
    if tt is not None:
        tracer.lookup_wrapped(tt)
    tracer.emit(protocol="prune-trace", version=1, engine="easyAI 2.0.12 Negamax (traced)",
                algorithm="negamax-fail-soft", values="negamax")
    nm.Negamax(a.depth, tt=tt)(game)
    with open(a.trace, "w") as f:
        f.write("\n".join(tracer.lines) + "\n")


if __name__ == "__main__":
    main()
