#!/usr/bin/env python3
"""A small negamax alpha-beta engine that writes prune's trace protocol (docs/PROTOCOL.md).

It searches a game tree in prune's bracket notation (docs/FORMAT.md), fail-hard, and writes
one JSON event a line to stdout as it goes, so that `prune check-trace` can judge it:

    python3 examples/engine/engine.py TREE.txt [--tt] [--bug NAME] > trace.jsonl
    prune check-trace trace.jsonl --tree TREE.txt

Nodes are named by child positions (JSON numbers), values are negamax (from the side to move).
`--tt` adds a transposition table: a stored tree's position is its subtree (equal subtrees
with the same side to move are the same position to any search), keyed by a hash of it, and
an entry is stamped with the depth left, the plies from the node to the tree's horizon (the
root's height). `--bug NAME` plants one of the classic mistakes, so the checker has something
to find:

    window-not-negated  a child is searched with (alpha, beta) instead of (-beta, -alpha)
    alpha-not-raised    alpha is not raised after a better child
    cutoff-strict       the cutoff test is value > beta instead of value >= beta
    tt-wrong-depth      a table entry is used at a node with more depth left than its own (--tt)

Standard library only; exit 2 with one message on a tree it cannot read.
"""

import argparse
import hashlib
import json
import sys

BUGS = ("window-not-negated", "alpha-not-raised", "cutoff-strict", "tt-wrong-depth")
INF = float("inf")


class TreeError(Exception):
    pass


class Node:
    """A leaf (value from Max's point of view) or an interior node (side: +1 Max, -1 Min)."""

    def __init__(self, side=None, children=None, value=None):
        self.side, self.children, self.value = side, children or [], value
        # The subtree's height and position key: a hash of its side and its children's keys.
        self.height = 1 + max(c.height for c in self.children) if self.children else 0
        text = f"{side}({','.join(c.key for c in self.children)})" if self.children else repr(value)
        self.key = hashlib.sha1(text.encode()).hexdigest()[:16]


class Parser:
    """Bracket notation's two-player part: labels, `+`/`-` sigils, numbers. Labels are read
    and dropped: the engine names children by position."""

    def __init__(self, text):
        self.text, self.at = text, 0

    def fail(self, what):
        line = self.text.count("\n", 0, self.at) + 1
        col = self.at - (self.text.rfind("\n", 0, self.at) + 1) + 1
        raise TreeError(f"{line}:{col}: expected {what}")

    def peek(self):
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1
        return self.text[self.at] if self.at < len(self.text) else ""

    def tree(self):
        root = self.item(+1)
        if self.peek():
            self.fail("the end of the tree")
        return root

    def item(self, side):
        start = self.at
        c = self.peek()
        if c == '"' or c.isalpha() or c == "_":
            self.label()
            if self.peek() != "=":
                self.at = start  # not a label after all
            else:
                self.at += 1
        return self.node(side)

    def label(self):
        if self.peek() == '"':
            end = self.text.find('"', self.at + 1)
            if end < 0:
                self.fail('a closing "')
            self.at = end + 1
        else:
            while self.at < len(self.text) and (self.text[self.at].isalnum() or self.text[self.at] in "_"):
                self.at += 1

    def node(self, side):
        c = self.peek()
        if c and c in "+-" and self.text[self.at + 1 : self.at + 2].lstrip().startswith("("):
            side = +1 if c == "+" else -1
            self.at += 1
            c = self.peek()
        if c == "(":
            self.at += 1
            children = [self.item(-side)]
            while self.peek() == ",":
                self.at += 1
                children.append(self.item(-side))
            if self.peek() != ")":
                self.fail("',' or ')'")
            self.at += 1
            return Node(side=side, children=children)
        if c and c in "*@[":
            self.fail("a two-player tree: this engine has no chance nodes or n-player values")
        return Node(value=self.number())

    def number(self):
        start = self.at
        while self.at < len(self.text) and self.text[self.at] in "+-.0123456789eE":
            self.at += 1
        try:
            value = float(self.text[start : self.at])
        except ValueError:
            self.at = start
            self.fail("a number, a '(' or a label")
        if self.peek() == ":":
            self.fail("no probability: this engine has no chance nodes")
        return int(value) if value.is_integer() else value


def num(x):
    """A value as JSON: integers plain, infinities as the protocol's strings."""
    if x in (INF, -INF):
        return "inf" if x > 0 else "-inf"
    return int(x) if float(x).is_integer() else x


def window(x):
    return None if x in (INF, -INF) else num(x)


class Engine:
    def __init__(self, bug, out, tt):
        self.bug, self.out = bug, out
        self.table = {} if tt else None  # key -> (value, bound, depth), values for the side to move

    def emit(self, **event):
        self.out.write(json.dumps(event, separators=(",", ":")) + "\n")

    def search(self, node, path, alpha, beta, depth):
        """Negamax fail-hard (Knuth & Moore's F2): the value of `node` for its side to move,
        clamped to (alpha, beta), with `depth` plies left."""
        stamp = {} if self.table is None else {"depth": depth, "key": node.key}
        self.emit(event="enter", path=path, alpha=window(alpha), beta=window(beta),
                  player="max" if node.side > 0 else "min", **stamp)
        a = alpha
        for i, child in enumerate(node.children):
            v = self.child_value(node, child, path + [i], a, beta, depth - 1)
            if v > a and self.bug != "alpha-not-raised":
                a = v
            cut = v > beta if self.bug == "cutoff-strict" else v >= beta
            if cut:
                self.emit(event="cutoff", path=path, after=i)
                return self.exit(node, path, beta, alpha, beta, depth)
        return self.exit(node, path, a, alpha, beta, depth)

    def child_value(self, node, child, path, a, beta, depth):
        """The child's value for `node`'s side: a leaf's is its evaluation, negated (a leaf
        belongs to the opponent: the move was made); a child of the other side is searched
        with the window negated and swapped, one of the same side with the window as it is."""
        if not child.children:
            seen = -node.side * child.value  # the leaf's value for its own side
            self.emit(event="leaf", path=path, value=num(seen))
            return -seen
        flip = -1 if child.side != node.side else 1
        lo, hi = (a, beta) if flip > 0 else (-beta, -a)
        if self.bug == "window-not-negated":
            lo, hi = a, beta
        known = self.probe(child, path, lo, hi, depth)
        if known is not None:
            return flip * known
        return flip * self.search(child, path, lo, hi, depth)

    def probe(self, node, path, alpha, beta, depth):
        """The table's value for `node` when an entry answers it: searched at least as deep
        (unless the bug), and exact, or a bound outside (alpha, beta)."""
        entry = self.table.get(node.key) if self.table is not None else None
        if entry is None:
            return None
        value, bound, stored = entry
        deep = stored >= depth or self.bug == "tt-wrong-depth"
        if deep and (bound == "exact" or (bound == "lower" and value >= beta)
                     or (bound == "upper" and value <= alpha)):
            self.emit(event="tt-hit", path=path, value=num(value), bound=bound, depth=depth,
                      key=node.key)
            return value
        return None

    def exit(self, node, path, value, alpha, beta, depth):
        bound = "upper" if value <= alpha else "lower" if value >= beta else "exact"
        self.emit(event="exit", path=path, value=num(value), bound=bound)
        old = self.table.get(node.key) if self.table is not None else None
        if self.table is not None and (old is None or old[2] <= depth):  # keep the deeper entry
            self.table[node.key] = (value, bound, depth)
        return value


def main():
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("tree", help="a tree in bracket notation (a file, or - for stdin)")
    cli.add_argument("--tt", action="store_true", help="use a transposition table")
    cli.add_argument("--bug", choices=BUGS, help="plant one classic bug")
    args = cli.parse_args()
    if args.bug == "tt-wrong-depth" and not args.tt:
        cli.error("--bug tt-wrong-depth needs --tt")
    try:
        text = sys.stdin.read() if args.tree == "-" else open(args.tree, encoding="utf-8").read()
        root = Parser(text).tree()
    except (OSError, TreeError) as e:
        print(f"engine.py: {args.tree}: {e}", file=sys.stderr)
        sys.exit(2)
    engine = Engine(args.bug, sys.stdout, args.tt)
    planted = {"bug": args.bug} if args.bug else {}  # an extra field: check-trace ignores it
    engine.emit(protocol="prune-trace", version=1, engine="engine.py (prune's example engine)",
                algorithm="negamax-fail-hard", values="negamax", **planted)
    try:
        if root.children:
            engine.search(root, [], -INF, INF, root.height)
        else:
            engine.emit(event="leaf", path=[], value=num(root.value))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (`| head`): not an error of the search
        sys.stdout = None


if __name__ == "__main__":
    main()
