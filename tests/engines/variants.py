#!/usr/bin/env python3
"""Correct engines, and engines with one planted bug, written from docs/PROTOCOL.md alone
(no code shared with prune's checker), for tests/app/engine_variants.rs.

    python3 tests/engines/variants.py SEED OUT_DIR [TREE]

writes OUT_DIR/tree.txt, a seeded random two-player tree in bracket notation (labelled
moves, Max at the root, sides alternating, integer values with many ties), and one trace a
search variant: OUT_DIR/ok.NAME.jsonl for the correct ones, OUT_DIR/bug.BUG.NAME.jsonl for
the planted bugs. With TREE (a tree in bracket notation, e.g. a game written out by `prune
convert --gen 'game nim --heaps 1,2,3' TREE --to bracket`) the engines search it instead, and
name moves by its labels. Every engine is negamax ("values":"negamax") and orders its moves itself
(a fresh seeded shuffle at every visit of a node, so a re-search may take another order);
it names moves by label on odd seeds and by their position in the tree's own order on even
ones. Its table keys a position by a hash of its side and subtree, and stamps entries with
the subtree's height (the depth a search of it goes).
"""

import hashlib
import json
import os
import random
import sys

INF = float("inf")


class Node:
    def __init__(self, ident, children=None, value=None):
        self.id, self.children, self.value = ident, children or [], value
        self.height = 1 + max(c.height for c in self.children) if self.children else 0


def generate(seed):
    rng = random.Random(f"tree:{seed}")
    depth = 2 + seed % 4
    counter = [0]

    def node(d, side):
        counter[0] += 1
        ident = counter[0]
        if d == depth or (d > 0 and rng.random() < 0.15):
            return Node(ident, value=rng.randint(-6, 6))
        n = Node(ident, [node(d + 1, -side) for _ in range(rng.randint(1, 4))])
        return n

    root = node(0, 1)
    # Keys: side and subtree (equal subtrees with the same side to move are one position).
    def key(n, side):
        if not n.children:
            n.key = f"leaf{n.value}"
        else:
            ks = ",".join(key(c, -side) for c in n.children)
            n.key = hashlib.sha1(f"{side}({ks})".encode()).hexdigest()[:16]
        return n.key

    key(root, 1)
    return root


def read_bracket(text):
    """A tree in bracket notation: `(label=subtree, …)`, labels bare or quoted, leaves numbers.
    Returns the root and whether the children carry labels."""
    i = 0

    def skip():
        nonlocal i
        while i < len(text) and text[i].isspace():
            i += 1

    def token_string():
        nonlocal i
        i += 1
        out = []
        while text[i] != '"':
            if text[i] == "\\":
                i += 1
            out.append(text[i])
            i += 1
        i += 1
        return "".join(out)

    def word():
        nonlocal i
        start = i
        while i < len(text) and text[i] not in "(),= \n\t":
            i += 1
        return text[start:i]

    counter = [0]

    def node():
        nonlocal i
        skip()
        counter[0] += 1
        ident = counter[0]
        if text[i] == "(":
            i += 1
            children, labels = [], []
            while True:
                skip()
                label = None
                save = i
                if text[i] == '"':
                    label = token_string()
                elif text[i] != "(":
                    w = word()
                    skip()
                    if i < len(text) and text[i] == "=":
                        label = w
                    else:
                        i = save
                skip()
                if label is not None:
                    assert text[i] == "=", text[i:i + 20]
                    i += 1
                children.append(node())
                labels.append(label)
                skip()
                if text[i] == ",":
                    i += 1
                    continue
                assert text[i] == ")", text[i:i + 20]
                i += 1
                break
            n = Node(ident, children)
            n.labels = labels
            return n
        w = word()
        v = float(w)
        return Node(ident, value=int(v) if v.is_integer() else v)

    root = node()

    def key(n, side):
        if not n.children:
            n.key = f"leaf{n.value}"
        else:
            ks = ",".join(key(c, -side) for c in n.children)
            n.key = hashlib.sha1(f"{side}({ks})".encode()).hexdigest()[:16]
        return n.key

    key(root, 1)
    return root


def bracket(n):
    if not n.children:
        return str(n.value)
    return "(" + ",".join(f"m{i}={bracket(c)}" for i, c in enumerate(n.children)) + ")"


def jnum(x):
    if x in (INF, -INF):
        return "inf" if x > 0 else "-inf"
    return int(x) if float(x).is_integer() else x


def jwin(x):
    return None if x in (INF, -INF) else jnum(x)


class Writer:
    """What every engine here shares: its options and bug, the trace's lines, move names (by
    label on odd seeds, by position on even ones) and move order (a fresh seeded shuffle at
    every visit of a node)."""

    def __init__(self, seed, opts, bug=None):
        self.seed, self.o, self.bug = seed, opts, bug
        self.lines = []
        self.visits = {}
        self.table = {} if opts.get("tt") else None
        self.labels = seed % 2 == 1

    def emit(self, **e):
        self.lines.append(json.dumps(e, separators=(",", ":")))

    def move(self, i, n=None):
        if n is not None and getattr(n, "labels", None) and n.labels[i] is not None:
            return n.labels[i] if self.labels else i
        return f"m{i}" if self.labels else i

    def order(self, n):
        k = self.visits.get(n.id, 0)
        self.visits[n.id] = k + 1
        idx = list(range(len(n.children)))
        random.Random(f"order:{self.seed}:{n.id}:{k}").shuffle(idx)
        return idx


class Engine(Writer):
    """Negamax search with the options of one variant (`opts`) and at most one `bug`."""

    def __init__(self, seed, opts, bug=None):
        super().__init__(seed, opts, bug)
        self.rng = random.Random(f"engine:{seed}:{sorted(opts.items())}")

    def leaf(self, n, path, side):
        """A leaf's value for its own side to move (the move was made: the opponent's)."""
        v = side * n.value
        if self.bug == "leaf-sign":
            v = -v
        self.emit(event="leaf", path=path, value=jnum(v))
        return v

    def store(self, n, v, bound):
        t = self.table
        if t is None:
            return
        if self.bug == "tt-always-exact":
            bound = "exact"
        policy = self.o.get("tt")
        if policy == "forget" and self.rng.random() < 0.4:
            t.clear()  # a table that forgets: any replacement scheme is correct
        if policy == "deeper" and n.key in t and t[n.key][2] > n.height:
            return
        t[n.key] = (v, bound, n.height)

    def node(self, n, path, side, alpha, beta):
        """The value of `n` for `side`, the side to move there; a leaf is evaluated."""
        if not n.children:
            return self.leaf(n, path, side)
        if self.table is not None and n.key in self.table:
            v, bound, depth = self.table[n.key]
            answers = bound == "exact" or (bound == "lower" and v >= beta) or (
                bound == "upper" and v <= alpha)
            if answers or self.bug == "tt-answers-any":
                self.emit(event="tt-hit", path=path, value=jnum(v), bound=bound, depth=n.height,
                          key=n.key)
                return v
            narrowed = (max(alpha, v), beta) if bound == "lower" else (alpha, min(beta, v))
            if self.o.get("narrow") and narrowed != (alpha, beta):
                self.emit(event="tt-hit", path=path, value=jnum(v), bound=bound, depth=n.height,
                          key=n.key)
                alpha, beta = narrowed
        return self.search(n, path, side, alpha, beta)

    def child(self, c, path, side, lo, hi):
        """A child's value for the parent (`side`): searched with (lo, hi), the parent's view."""
        lo2, hi2 = -hi, -lo
        if self.bug == "window-not-negated":
            lo2, hi2 = lo, hi
        return -self.node(c, path, -side, lo2, hi2)

    def search(self, n, path, side, alpha, beta):
        o = self.o
        minimax = o["algo"] == "minimax"
        extra = {"depth": n.height, "key": n.key} if self.table is not None else {}
        if minimax:
            self.emit(event="enter", path=path, alpha=None, beta=None, **extra)
        else:
            self.emit(event="enter", path=path, alpha=jwin(alpha), beta=jwin(beta), **extra)
        best, a, last = -INF, alpha, None
        pvs = o["algo"] == "pvs"
        for k, i in enumerate(self.order(n)):
            c, cp = n.children[i], path + [self.move(i, n)]
            if minimax:
                t = self.child(c, cp, side, -INF, INF)
            elif pvs and (k > 0 or self.bug == "pvs-first-scouted"):
                t = self.child(c, cp, side, a, a + 1)
                research = a < t < beta and (c.children or o.get("leaf_research"))
                if research and self.bug != "pvs-no-research":
                    t = self.child(c, cp, side, t, beta)
            else:
                t = self.child(c, cp, side, a, beta)
            last = t
            if t > best:
                best = t
            if t > a and self.bug != "alpha-not-raised":
                a = t
            if minimax:
                continue
            due = a > beta if self.bug == "cutoff-strict" else a >= beta
            if self.bug == "no-cutoff":
                due = False
            if due:
                self.emit(event="cutoff", path=path, after=self.move(i, n))
                break
        if minimax:
            v = best
        elif o.get("soft"):
            v = last if self.bug == "soft-returns-last" else best
        else:
            v = max(alpha, best)
            if self.bug == "return-alpha-at-cutoff" and best >= beta:
                v = alpha
        if minimax:
            bound = "exact"
        elif self.bug == "bound-strict":
            bound = "upper" if v < alpha else "lower" if v > beta else "exact"
        else:
            bound = "upper" if v <= alpha else "lower" if v >= beta else "exact"
        self.emit(event="exit", path=path, value=jnum(v), bound=bound)
        if not minimax:
            self.store(n, v, bound)
        return v

    def run(self, root):
        o = self.o
        claim = {"minimax": "minimax", "ab": "alphabeta-fail-soft" if o.get("soft") else "alphabeta-fail-hard",
                 "pvs": "pvs", "mtdf": "mtdf"}[o["algo"]]
        self.emit(protocol="prune-trace", version=1, engine="tests/engines/variants.py",
                  algorithm=claim, values="negamax")
        if not root.children:
            self.emit(event="leaf", path=[], value=jnum(root.value))
            return
        if o["algo"] == "mtdf":
            g, lo, hi = o.get("guess", 0), -INF, INF
            while lo < hi:
                b = g + 1 if g == lo else g
                g = self.node(root, [], 1, b - 1, b)
                if g < b:
                    hi = g
                else:
                    lo = g
                if self.bug == "mtdf-lower-as-upper" and g >= b:
                    hi, lo = g, lo
                if self.bug == "mtdf-one-pass":
                    break
            return
        if "aspiration" in o:
            g, d = o["aspiration"]
            v = self.node(root, [], 1, g - d, g + d)
            if v <= g - d or v >= g + d:
                lo, hi = (-INF, v + 1) if v <= g - d else (v - 1, INF)
                v = self.node(root, [], 1, lo, hi)
                if v <= lo or v >= hi:
                    self.node(root, [], 1, -INF, INF)
            return
        self.node(root, [], 1, -INF, INF)


VARIANTS = {
    "minimax": {"algo": "minimax"},
    "ab-hard": {"algo": "ab"},
    "ab-soft": {"algo": "ab", "soft": True},
    "pvs-hard": {"algo": "pvs"},
    "pvs-hard-leaf-research": {"algo": "pvs", "leaf_research": True},
    "pvs-soft": {"algo": "pvs", "soft": True},
    "pvs-soft-leaf-research": {"algo": "pvs", "soft": True, "leaf_research": True},
    "aspiration-hard": {"algo": "ab", "aspiration": (1, 2)},
    "aspiration-soft-tt": {"algo": "ab", "soft": True, "aspiration": (-1, 1), "tt": "always"},
    "tt-answers": {"algo": "ab", "soft": True, "tt": "always"},
    "tt-narrows": {"algo": "ab", "soft": True, "tt": "always", "narrow": True},
    "tt-narrows-hard": {"algo": "ab", "tt": "deeper", "narrow": True},
    "tt-forgets": {"algo": "ab", "soft": True, "tt": "forget", "narrow": True},
    "pvs-tt": {"algo": "pvs", "soft": True, "tt": "always", "narrow": True},
    "mtdf-0": {"algo": "mtdf", "soft": True, "guess": 0},
    "mtdf-minus-5": {"algo": "mtdf", "soft": True, "guess": -5},
    "mtdf-plus-9": {"algo": "mtdf", "soft": True, "guess": 9},
    "mtdf-memory": {"algo": "mtdf", "soft": True, "guess": 2, "tt": "always", "narrow": True},
    "mtdf-forgets": {"algo": "mtdf", "soft": True, "guess": -2, "tt": "forget", "narrow": True},
}

# Each bug with the correct variant it is planted in.
BUGS = {
    "window-not-negated": "ab-hard",
    "alpha-not-raised": "ab-hard",
    "cutoff-strict": "ab-hard",
    "no-cutoff": "ab-soft",
    "return-alpha-at-cutoff": "ab-hard",
    "leaf-sign": "ab-soft",
    "soft-returns-last": "ab-soft",
    "bound-strict": "ab-hard",
    "tt-always-exact": "aspiration-soft-tt",
    "tt-answers-any": "mtdf-memory",
    "pvs-no-research": "pvs-soft",
    "pvs-first-scouted": "pvs-hard",
    "mtdf-lower-as-upper": "mtdf-0",
    "mtdf-one-pass": "mtdf-minus-5",
}


def write_traces(engine, variants, bugs, argv):
    """`argv`: SEED OUT_DIR [TREE ...]: the tree (TREE, or the seeded one) and one trace of
    `engine` a variant and a planted bug, as the module docstrings say."""
    seed, out = int(argv[1]), argv[2]
    os.makedirs(out, exist_ok=True)
    if len(argv) > 3:
        with open(argv[3]) as f:
            root = read_bracket(f.read())
    else:
        root = generate(seed)
    with open(os.path.join(out, "tree.txt"), "w") as f:
        f.write(bracket(root) + "\n")
    runs = [(f"ok.{name}", engine(seed, opts)) for name, opts in variants.items()]
    runs += [(f"bug.{bug}.{name}", engine(seed, variants[name], bug)) for bug, name in bugs.items()]
    for name, e in runs:
        e.run(root)
        with open(os.path.join(out, f"{name}.jsonl"), "w") as f:
            f.write("\n".join(e.lines) + "\n")


def main():
    write_traces(Engine, VARIANTS, BUGS, sys.argv)


if __name__ == "__main__":
    main()
