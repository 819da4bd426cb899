#!/usr/bin/env python3
"""Real engines' habits, written from docs/PROTOCOL.md alone (no code shared with prune's
checker), for tests/app/engine_variants.rs: a depth-limited negamax engine that scores
leaves with its own evaluation, searches quiescence past its horizon, prunes by null moves,
reduces late moves and extends forced ones, scores mates by their distance, and keeps leaves
and horizon nodes in its table.

    python3 tests/engines/habits.py SEED OUT_DIR [TREE [WIN]]

writes OUT_DIR/tree.txt (the seeded tree of tests/engines/variants.py) and one trace a habit:
OUT_DIR/ok.NAME.jsonl for the correct engines, OUT_DIR/bug.BUG.NAME.jsonl for planted bugs.
Moves are ordered by a fresh seeded shuffle at each visit and named by label on odd seeds,
by position on even ones, as in variants.py.
"""

import sys

from variants import INF, Writer, jnum, jwin, write_traces

MATE = 100000
# The leaf value that ends a game won (the generated trees' extreme, 6; a game's win, given
# on the command line).
MATE_VALUE = [6]


def static(n):
    """The engine's own evaluation of a node, for the side that just moved into it... from
    Max's point of view: the mean of the leaf values below, rounded, with a seeded nudge."""
    vals = []

    def walk(m):
        if not m.children:
            vals.append(m.value)
        for c in m.children:
            walk(c)

    walk(n)
    return round(sum(vals) / len(vals)) + (n.id % 3) - 1


class Engine(Writer):
    """A depth-limited negamax search with the habits of one variant (`opts`) and at most one
    `bug`."""

    # --- values ---------------------------------------------------------------------

    def leaf_value(self, n, side, ply):
        """A game's end (a leaf of the tree) for `side` to move there."""
        v = n.value
        if self.o.get("mate") and abs(v) == MATE_VALUE[0]:
            dist = ply + (1 if self.bug == "mate-ply-off" else 0)
            return (MATE - dist) * (1 if v * side > 0 else -1)
        if self.o.get("eval"):
            v = v + (n.id % 3) - 1  # the engine's own evaluation, not the tree's value
        return side * v

    def to_table(self, v, ply):
        """A mate score counts plies from the root: the table keeps it from the position."""
        if self.o.get("mate") and abs(v) > MATE - 1024:
            return v + ply if v > 0 else v - ply
        return v

    def from_table(self, v, ply):
        if self.o.get("mate") and abs(v) > MATE - 1024:
            return v - ply if v > 0 else v + ply
        return v

    def key(self, n, side):
        """A position: the subtree and the side to move (a null move changes only the side)."""
        return f"{n.key}{'+' if side > 0 else '-'}"

    def store(self, n, side, v, bound, depth, ply):
        if self.table is not None:
            k = self.key(n, side)
            old = self.table.get(k)
            if old is None or old[2] <= depth:
                self.table[k] = (self.to_table(v, ply), bound, depth)

    # --- search ---------------------------------------------------------------------

    def leaf(self, n, path, side, ply, depth, **extra):
        v = self.leaf_value(n, side, ply) if not n.children else side * static(n)
        fields = {"depth": depth, "key": self.key(n, side)} if self.table is not None else {}
        self.emit(event="leaf", path=path, value=jnum(v), **fields, **extra)
        if not n.children:
            self.store(n, side, v, "exact", depth, ply)
        return v

    def node(self, n, path, side, alpha, beta, depth, ply, extra=None):
        extra = extra or {}
        t = self.table
        k = self.key(n, side)
        if t is not None and k in t and not extra:
            s, bound, d = t[k]
            v = self.from_table(s, ply)
            if d >= min(depth, n.height):
                answers = bound == "exact" or (bound == "lower" and v >= beta) or (
                    bound == "upper" and v <= alpha)
                if answers and self.bug == "tt-leaf-wrong" and not n.children:
                    v += 1
                if answers:
                    self.emit(event="tt-hit", path=path, value=jnum(v), bound=bound,
                              depth=min(depth, n.height), key=k)
                    return v
        if not n.children:
            return self.leaf(n, path, side, ply, 0, **extra)
        if depth <= 0:
            # A reduced search that reaches its horizon at once ends in an evaluation, declared
            # as the reduction it is.
            if self.o.get("quiescence") and extra.get("selective") != "reduced":
                return self.quiescence(n, path, side, alpha, beta, ply, {"selective": "quiescence"})
            return self.leaf(n, path, side, ply, 0, **extra)
        return self.search(n, path, side, alpha, beta, depth, ply, extra)

    def quiescence(self, n, path, side, alpha, beta, ply, extra):
        """Captures only (here: the children at even positions), the static evaluation
        standing pat for the rest."""
        if not n.children:
            return self.leaf(n, path, side, ply, 0, **extra)
        stand = side * static(n)
        self.emit(event="enter", path=path, alpha=jwin(alpha), beta=jwin(beta),
                  stand_pat=jnum(stand), **extra)
        best, a = stand, max(alpha, stand)
        if stand < beta or self.bug == "stand-pat-no-cut":
            for i in [i for i in self.order(n) if i % 2 == 0]:
                c = n.children[i]
                t = -self.quiescence(c, path + [self.move(i, n)], -side, -beta, -a, ply + 1, {})
                best = max(best, t)
                a = max(a, t)
                if a >= beta:
                    self.emit(event="cutoff", path=path, after=self.move(i, n))
                    break
        v = best if self.o.get("soft") else max(alpha, best)
        self.exit(path, v, alpha, beta)
        return v

    def exit(self, path, v, alpha, beta):
        bound = "upper" if v <= alpha else "lower" if v >= beta else "exact"
        self.emit(event="exit", path=path, value=jnum(v), bound=bound)
        return bound

    def search(self, n, path, side, alpha, beta, depth, ply, extra):
        o = self.o
        d = min(depth, n.height)
        fields = {"depth": d, "key": self.key(n, side)} if self.table is not None else {}
        self.emit(event="enter", path=path, alpha=jwin(alpha), beta=jwin(beta), **fields, **extra)
        best, a, cut_on = -INF, alpha, None
        pvs = o["algo"] == "pvs"
        # Null move: the side to move passes, the opponent searches to a reduced depth with a
        # window at β; reaching β, the node cuts off on it.
        if o.get("null") and depth >= 2 and path and not extra and beta != INF:
            lo, hi = -beta, -beta + 1
            if self.bug == "null-window-wrong":
                lo, hi = -alpha - 1, -alpha
            t = -self.node(n, path + [None], -side, lo, hi, depth - 2, ply + 1,
                           {"selective": "null-move"})
            if t >= beta:
                best, cut_on = t, None
                self.emit(event="cutoff", path=path, after=None)
                v = t if o.get("soft") else t
                self.exit(path, v, alpha, beta)
                self.store(n, side, v, "lower", d, ply)
                return v
        for k, i in enumerate(self.order(n)):
            c, cp = n.children[i], path + [self.move(i, n)]
            child_depth = depth - 1
            ext = {}
            if o.get("extend") and len(c.children) == 1 and depth <= 2:
                child_depth, ext = depth, {"selective": "extended"}
            reduce = o.get("lmr") and k >= 2 and depth >= 3 and c.children and not ext
            if reduce:
                # Late-move reduction: a null-window search two plies shallower; failing
                # high, it is searched again at full depth.
                t = -self.node(c, cp, -side, -a - 1, -a, depth - 3, ply + 1,
                               {"selective": "reduced"})
                if t > a:
                    t = self.full(c, cp, side, a, beta, child_depth, ply, k, pvs, ext)
            else:
                t = self.full(c, cp, side, a, beta, child_depth, ply, k, pvs, ext)
            if t > best:
                best = t
            if t > a:
                a = t
            if a >= beta:
                self.emit(event="cutoff", path=path, after=self.move(i, n))
                break
        v = best if o.get("soft") else max(alpha, best)
        bound = self.exit(path, v, alpha, beta)
        self.store(n, side, v, bound, d, ply)
        return v

    def full(self, c, cp, side, a, beta, depth, ply, k, pvs, ext):
        if pvs and k > 0:
            t = -self.node(c, cp, -side, -a - 1, -a, depth, ply + 1, ext)
            if a < t < beta and c.children:
                t = -self.node(c, cp, -side, -beta, -t, depth, ply + 1, ext)
            return t
        return -self.node(c, cp, -side, -beta, -a, depth, ply + 1, ext)

    def run(self, root):
        o = self.o
        claim = {"ab": "alphabeta-fail-soft" if o.get("soft") else "alphabeta-fail-hard",
                 "pvs": "pvs"}[o["algo"]]
        header = dict(protocol="prune-trace", version=1, engine="tests/engines/habits.py",
                      algorithm=claim, values="negamax")
        if o.get("eval") or o.get("horizon"):
            header["leaves"] = "engine"
        if o.get("mate"):
            header["mate"] = MATE
        self.emit(**header)
        if not root.children:
            self.emit(event="leaf", path=[], value=jnum(self.leaf_value(root, 1, 0)))
            return
        depth = root.height
        if o.get("horizon"):
            depth = max(1, root.height - 1)
            self.emit(event="iteration", depth=depth)
        self.node(root, [], 1, -INF, INF, depth, 0)


VARIANTS = {
    "engine-eval": {"algo": "ab", "eval": True},
    "engine-eval-pvs": {"algo": "pvs", "soft": True, "eval": True},
    "horizon": {"algo": "ab", "horizon": True},
    "quiescence": {"algo": "ab", "horizon": True, "quiescence": True},
    "quiescence-soft-tt": {"algo": "ab", "soft": True, "horizon": True, "quiescence": True, "tt": True},
    "null-move": {"algo": "ab", "null": True},
    "null-move-soft-tt": {"algo": "ab", "soft": True, "null": True, "tt": True},
    "lmr": {"algo": "ab", "lmr": True},
    "lmr-pvs": {"algo": "pvs", "soft": True, "lmr": True},
    "extensions": {"algo": "ab", "horizon": True, "extend": True},
    "mate": {"algo": "ab", "mate": True},
    "mate-tt": {"algo": "ab", "soft": True, "mate": True, "tt": True},
    "tt-leaves": {"algo": "ab", "soft": True, "tt": True},
    "everything": {"algo": "pvs", "soft": True, "horizon": True, "quiescence": True,
                   "null": True, "lmr": True, "mate": True, "tt": True},
}

BUGS = {
    "null-window-wrong": "null-move",
    "stand-pat-no-cut": "quiescence",
    "mate-ply-off": "mate",
    "tt-leaf-wrong": "tt-leaves",
}


def main():
    # A game written out by prune says which leaf value is its win (its mate).
    if len(sys.argv) > 4:
        MATE_VALUE[0] = float(sys.argv[4])
    write_traces(Engine, VARIANTS, BUGS, sys.argv)

if __name__ == "__main__":
    main()
