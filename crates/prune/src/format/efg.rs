//! Gambit's extensive-form game files (`.efg`), for perfect-information games.
//!
//! ```text
//! EFG 2 R "Matching pennies after a coin" { "Player 1" "Player 2" }
//! "optional comment"
//!
//! c "" 1 "" { "heads" 1/2 "tails" 1/2 } 0
//! p "" 1 1 "" { "H" "T" } 0
//! t "" 1 "win" { 1, -1 }
//! …
//! ```
//!
//! Nodes come in preorder: `p` (player node: name, player, information set, optional set name
//! and action list, outcome), `c` (chance: actions with probabilities, decimals or fractions
//! such as `1/3`), `t` (terminal: outcome). An outcome (`number ["name" { payoffs }]`, 0 for
//! none) may sit on any node; a leaf's payoff is the sum of the outcomes on its path. A player
//! information set shared by two nodes is imperfect information, which prune refuses, naming the
//! set. Two players whose payoffs always sum to the same constant become Max (player 1) and Min
//! (player 2) with player 1's payoff as the value; anything else is an n-player tree.
//!
//! The reader pushes every node into the draft as it reads its line: no table of the lines, of
//! the leaves' payoffs or of the player nodes' information sets is kept (issue 30). What later
//! lines may refer to is kept compactly: a number for each information set and outcome, each
//! distinct action list, chance declaration and payoff vector once. A two-player file is read
//! as Max and Min until a leaf's payoffs break the constant sum, then read again as an
//! n-player tree.
//!
//! We read `.efg` with our own parser rather than the `gambit-parser` crate: that crate's
//! validation errors carry no position and its parse errors only the remaining input, while
//! prune reports every problem at its line and column. See `docs/FORMAT.md`.

use crate::hash::FastMap;
use std::fmt::Write as _;
use std::ops::Range;

use super::diag::{Diagnostic, line_col};
use super::lex::{Lexer, Tok, Token, plain_integer, plain_number, plain_string, skip_blanks};
use super::{Text, invalid_to_diagnostic, number_text};
use crate::text::push_number;
use crate::tree::{Draft, Kind, Meta, NodeId, Tree, Valid};

const NONE: u32 = u32::MAX;

/// The actions of a `p` or `c` node, as its information set declares them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Actions {
    /// The actions' names, an index into [`Tables::lists`] (`NONE` when every name is empty,
    /// as in most generated files).
    names: u32,
    /// The number of actions (0: a leaf).
    len: u32,
    /// Where a chance set's probabilities start in [`Tables::probs`] (`len` of them; `NONE`
    /// for a player's set).
    probs: u32,
}

impl Actions {
    const LEAF: Actions = Actions {
        names: NONE,
        len: 0,
        probs: NONE,
    };
}

/// A node's outcome: its number in the file (0: none) and its payoff vector, an index into
/// [`Tables::payoffs`] (`NONE`: none).
#[derive(Clone, Copy, Debug)]
struct Outcome {
    number: u64,
    payoffs: u32,
}

impl Outcome {
    const NO: Outcome = Outcome {
        number: 0,
        payoffs: NONE,
    };
}

/// What later lines may refer to: information sets and outcomes by number, action lists,
/// chance declarations and payoff vectors each stored once.
#[derive(Default)]
struct Tables {
    players: usize,
    /// Each player's information sets by number (chance's first). A chance set's entry is its
    /// declaration in `chance` (a later node may use it again); a player set's, the preorder
    /// index of its node (a second node using it is an error that names the first's line).
    set_index: Vec<Numbers>,
    /// Every distinct chance declaration: Pig declares one for every chance node, the same.
    chance: Vec<Actions>,
    /// The last two declarations found in `chance`, found again without a search.
    recent_chance: [u32; 2],
    /// The probabilities of the chance declarations.
    probs: Vec<f64>,
    /// Every distinct payoff vector, `players` values each: OpenSpiel numbers an outcome for
    /// every leaf, with a handful of vectors among them.
    payoffs: Vec<f64>,
    /// The last two vectors found in `payoffs`.
    recent_payoffs: [u32; 2],
    outcome_index: Numbers,
    /// Every distinct list of action names, once: a game repeats a few lists ("roll" "stop")
    /// over thousands of information sets, and no set costs an allocation of its own.
    lists: Vec<Vec<String>>,
    /// The lists by their names, each name followed by a byte 0xFF (never in UTF-8).
    list_index: FastMap<Vec<u8>, u32>,
    /// The list being read, in that form.
    list: Vec<u8>,
    /// The last two lists found, in that form, with their index: games alternate a few lists
    /// (Pig's "roll" "stop" and its die), found thus without hashing.
    recent: [(Vec<u8>, u32); 2],
}

impl Tables {
    fn new(players: usize) -> Tables {
        let mut tables = Tables {
            players,
            recent_chance: [NONE; 2],
            recent_payoffs: [NONE; 2],
            ..Tables::default()
        };
        tables.set_index.resize_with(players + 1, Numbers::default);
        tables
    }

    /// Adds an action's name to the list being read.
    fn push_action(&mut self, name: &str) {
        self.list.extend_from_slice(name.as_bytes());
        self.list.push(0xFF);
    }

    /// The list just read (then emptied) as an index into `lists`, `NONE` when every name is
    /// empty.
    fn end_list(&mut self) -> u32 {
        let list = &self.list;
        let i = if list.iter().all(|&c| c == 0xFF) {
            NONE
        } else if let Some((_, i)) = self.recent.iter().find(|(l, _)| l == list) {
            *i
        } else if let Some(&i) = self.list_index.get(list.as_slice()) {
            self.recent.swap(0, 1);
            let (last, at) = &mut self.recent[0];
            last.clear();
            last.extend_from_slice(list);
            *at = i;
            i
        } else {
            let names = list
                .split(|&c| c == 0xFF)
                .take(list.iter().filter(|&&c| c == 0xFF).count())
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            self.lists.push(names);
            let i = (self.lists.len() - 1) as u32;
            self.list_index.insert(list.clone(), i);
            i
        };
        self.list.clear();
        i
    }

    /// The probabilities of a chance declaration.
    fn probs_of(&self, a: &Actions) -> &[f64] {
        let at = a.probs as usize;
        &self.probs[at..at + a.len as usize]
    }

    /// A chance declaration just read (its probabilities last in `probs`) as an index into
    /// `chance`: one of the last two when it is the same (its probabilities dropped again),
    /// else a new entry. Only the recent ones are compared: a tree of distinct probabilities
    /// keeps its declarations, as many as its text holds, without a search for each.
    fn declare_chance(&mut self, d: Actions) -> u32 {
        for k in 0..2 {
            let i = self.recent_chance[k];
            if i != NONE {
                let prev = self.chance[i as usize];
                if prev.names == d.names
                    && prev.len == d.len
                    && self.probs_of(&prev) == self.probs_of(&d)
                {
                    self.probs.truncate(d.probs as usize);
                    self.recent_chance.swap(0, k);
                    return i;
                }
            }
        }
        let i = self.chance.len() as u32;
        self.chance.push(d);
        self.recent_chance = [i, self.recent_chance[0]];
        i
    }

    /// A payoff vector just read (last in `payoffs`, from `start`) as an index into
    /// `payoffs`: one of the last two when it has the same bits (it is dropped again), else a
    /// new one.
    fn keep_payoffs(&mut self, start: usize) -> u32 {
        let p = self.players;
        let same = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        for k in 0..2 {
            let i = self.recent_payoffs[k];
            if i != NONE {
                let at = i as usize * p;
                if same(&self.payoffs[at..at + p], &self.payoffs[start..]) {
                    self.payoffs.truncate(start);
                    self.recent_payoffs.swap(0, k);
                    return i;
                }
            }
        }
        let i = (start / p) as u32;
        self.recent_payoffs = [i, self.recent_payoffs[0]];
        i
    }

    /// The `i`-th payoff vector.
    fn payoffs(&self, i: u32) -> &[f64] {
        let at = i as usize * self.players;
        &self.payoffs[at..at + self.players]
    }
}

/// Outcome (or information set) numbers to their index: files number them 1, 2, 3…, so a vector indexed by the
/// number while numbers stay near those seen (a hash insert per leaf was a tenth of a load),
/// a map for the rest.
#[derive(Default)]
struct Numbers {
    dense: Vec<u32>,
    /// Entries set in `dense`, which never grows past twice this (plus a little).
    filled: usize,
    sparse: FastMap<u64, u32>,
}

impl Numbers {
    fn get(&self, n: u64) -> Option<u32> {
        match usize::try_from(n).ok().and_then(|k| self.dense.get(k)) {
            Some(&i) if i != NONE => Some(i),
            _ => self.sparse.get(&n).copied(),
        }
    }

    fn insert(&mut self, n: u64, i: u32) {
        let grow = (2 * self.filled + 1024) as u64;
        match usize::try_from(n) {
            Ok(k) if k == self.dense.len() && n < grow => {
                // The common case: outcomes numbered in order.
                self.dense.push(i);
                self.filled += 1;
            }
            Ok(k) if k < self.dense.len() || n < grow => {
                if k >= self.dense.len() {
                    self.dense.resize(k + 1, NONE);
                }
                self.dense[k] = i;
                self.filled += 1;
            }
            _ => {
                self.sparse.insert(n, i);
            }
        }
    }
}

/// Why a reading pass stopped short of a tree.
enum Stop {
    /// An error in the file, with its position.
    Error(Diagnostic),
    /// A leaf's payoffs do not sum to the first leaf's: read again as an n-player tree.
    GeneralSum,
    /// An error whose message needs the nodes' positions, which this pass did not keep: read
    /// again, keeping them.
    NeedSpans,
}

impl From<Diagnostic> for Stop {
    fn from(d: Diagnostic) -> Self {
        Stop::Error(d)
    }
}

/// How a pass reads: whether it keeps every node's position (for an error's message) and
/// whether a two-player file is read as an n-player tree (its payoffs do not sum to a
/// constant).
#[derive(Clone, Copy, Default)]
struct Pass {
    spans: bool,
    general_sum: bool,
}

/// Reads a `.efg` file. `file` names the input in messages.
pub fn parse(file: &str, src: Text) -> Result<Tree, Diagnostic> {
    let mut pass = Pass::default();
    loop {
        let mut lx = Lexer::new(file, src.clone(), false);
        match read(&mut lx, pass) {
            Ok(valid) => {
                // The text only served error messages: free it first.
                drop((lx, src));
                return Ok(valid.layout());
            }
            Err(Stop::Error(d)) => return Err(d),
            Err(Stop::GeneralSum) => pass.general_sum = true,
            Err(Stop::NeedSpans) if !pass.spans => pass.spans = true,
            Err(Stop::NeedSpans) => unreachable!("a pass that keeps spans never asks for them"),
        }
    }
}

/// A node line as the readers find it: what it is, its actions and its outcome (its name is
/// passed beside it, unescaped or straight from the text).
struct Line {
    kind: Kind,
    actions: Actions,
    outcome: Outcome,
}

/// The draft being built, and what building it in preorder needs: the running payoff sums and
/// actions of the open ancestors.
struct Build {
    draft: Draft,
    players: usize,
    /// Whether nodes go in as Max and Min with player 1's payoff as a leaf's value (a
    /// two-player file, until a leaf breaks the constant sum).
    constant: bool,
    /// The first leaf's payoff sum, which every other leaf's must match while `constant`.
    first_sum: Option<f64>,
    /// The running sums of the outcomes on the path, a frame of `players` values for the root's
    /// parent (zeros) and each open ancestor.
    sums: Vec<f64>,
    /// The open ancestors, innermost last.
    open: Vec<Open>,
    /// Each node's position, when the pass keeps them.
    spans: Option<Vec<Range<usize>>>,
    /// The first overflowing sum's message: reported once the whole file has read, as errors
    /// of the text come first.
    overflow: Option<Diagnostic>,
}

/// An ancestor whose children are still being read.
struct Open {
    actions: Actions,
    /// Its next child's action.
    next: u32,
    outcome: Outcome,
    /// Where its line starts, for an overflow's message.
    at: usize,
}

impl Build {
    /// Pushes the node whose line starts at `at`.
    fn push(
        &mut self,
        lx: &Lexer<'_>,
        tables: &Tables,
        at: usize,
        line: Line,
        name: &str,
    ) -> Result<(), Stop> {
        let players = self.players;
        // Labels come from the parent's action names; a node's own name labels it otherwise.
        let mut label = None;
        let mut prob = None;
        if let Some(parent) = self.open.last_mut() {
            let a = parent.next as usize;
            parent.next += 1;
            let actions = parent.actions;
            if actions.names != NONE
                && let Some(name) = tables.lists[actions.names as usize].get(a)
                && !name.is_empty()
            {
                label = Some(name.as_str());
            }
            if actions.probs != NONE {
                prob = Some(tables.probs[actions.probs as usize + a]);
            }
        }
        let base = self.sums.len() - players;
        let top = self.sums.len();
        self.sums.extend_from_within(base..top);
        if line.outcome.payoffs != NONE {
            for (s, p) in self.sums[top..]
                .iter_mut()
                .zip(tables.payoffs(line.outcome.payoffs))
            {
                *s += p;
            }
            if self.overflow.is_none()
                && let Some(k) = self.sums[top..].iter().position(|s| !s.is_finite())
            {
                self.overflow = Some(self.overflow(lx, tables, at, line.outcome, k));
            }
        }
        let n = line.actions.len;
        if n == 0 {
            let t = &self.sums[top..];
            if self.constant {
                let sum = t.iter().sum::<f64>();
                let first = *self.first_sum.get_or_insert(sum);
                let close = (sum - first).abs() <= 1e-9 * first.abs().max(1.0);
                if !close {
                    return Err(Stop::GeneralSum);
                }
                self.draft.push_leaf(t[0]);
            } else {
                self.draft.push_payoff(t);
            }
            self.sums.truncate(top);
        } else {
            let kind = match line.kind {
                Kind::Player(0) if self.constant => Kind::Max,
                Kind::Player(_) if self.constant => Kind::Min,
                k => k,
            };
            self.draft.push_interior(kind);
            self.draft.set_children(self.draft.len() - 1, n);
            self.open.push(Open {
                actions: line.actions,
                next: 0,
                outcome: line.outcome,
                at,
            });
        }
        if let Some(p) = prob {
            self.draft.prob_last(p);
        }
        if let Some(l) = label.or((!name.is_empty()).then_some(name)) {
            self.draft.label_last(l);
        }
        if let Some(spans) = &mut self.spans {
            spans.push(at..at + 1);
        }
        while self.open.last().is_some_and(|o| o.next == o.actions.len) {
            self.open.pop();
            self.sums.truncate(self.sums.len() - players);
        }
        Ok(())
    }

    /// "player k's payoff overflows" at the line starting at `at`: which outcomes on the path
    /// from the root sum past the largest number, each with its line and payoff.
    fn overflow(
        &self,
        lx: &Lexer<'_>,
        tables: &Tables,
        at: usize,
        outcome: Outcome,
        player: usize,
    ) -> Diagnostic {
        let terms: Vec<String> = self
            .open
            .iter()
            .map(|o| (o.outcome, o.at))
            .chain([(outcome, at)])
            .filter(|(o, _)| o.payoffs != NONE)
            .map(|(o, at)| {
                let x = tables.payoffs(o.payoffs)[player];
                let (line, _) = line_col(&lx.src, at);
                format!(
                    "outcome {} on line {line} gives {}",
                    o.number,
                    number_text(x)
                )
            })
            .collect();
        lx.error(
            at..at + 1,
            format!(
                "player {}'s payoff overflows: the outcomes on the path to this node sum past the largest number ({})",
                player + 1,
                terms.join(", ")
            ),
        )
        .with_hint("a leaf's payoff is the sum of the outcomes on its path; make them smaller")
    }
}

/// Reads the header and every node line into a draft, and validates it.
fn read(lx: &mut Lexer<'_>, pass: Pass) -> Result<Valid, Stop> {
    let src = lx.src.clone();
    let b = src.as_bytes();
    let (mut meta, player_names) = header(lx)?;
    let players = player_names.len();
    meta.players = players as u8;
    let leaves = check_leaf_room(lx, players)?;
    // A node a line, most lines longer than 16 bytes (no pass over the text to count them: the
    // explorer shows 0 bytes parsed until the first line is read, and the text's pages are let
    // go as they are read). Room reserved and never written costs no memory.
    let estimate = b.len() / 16;
    let mut draft = Draft::with_capacity(meta, estimate);
    // Action names are declared once an information set: a hint, not a bound.
    draft.expect_label_text(b.len());
    if let Some(leaves) = leaves {
        draft.expect_payoff_values((leaves as usize).saturating_mul(players));
    }
    let mut build = Build {
        draft,
        players,
        constant: players == 2 && !pass.general_sum,
        first_sum: None,
        sums: vec![0.0; players],
        open: Vec::new(),
        spans: pass.spans.then(|| Vec::with_capacity(estimate)),
        overflow: None,
    };
    let mut tables = Tables::new(players);
    let mut open: u64 = 1; // nodes the tree still expects
    // The text read so far is given back every few megabytes: what the nodes need of it is in
    // the draft, and an error's message finds its line again in the file.
    let mut release_at = RELEASE_EVERY;
    let mut release = |at: usize| {
        if at >= release_at {
            src.release_before(at);
            release_at = at + RELEASE_EVERY;
        }
    };
    loop {
        // Most lines read straight from the bytes (see `fast_line`): `t "" 3 "" { 1 -1 }`,
        // `p "" 1 2 "" { "roll" "stop" } 0`, `c "" 4 "" { "Roll 1" 0.5 "Roll 2" 1/2 } 0`.
        // Anything else is left to the general way below, from the same place.
        if open > 0
            && let Some(at) = lx.offset()
        {
            let p = skip_blanks(b, at);
            release(p);
            let node = build.draft.len() as u32;
            if let Some((line, name, end)) = fast_line(&src, p, node, &mut tables) {
                open = open - 1 + u64::from(line.actions.len);
                build.push(lx, &tables, p, line, super::lex::slice(&src, name))?;
                lx.advance_to(end);
                continue;
            }
        }
        let t = lx.next_token()?;
        release(t.span.start);
        if t.tok == Tok::Eof {
            if open > 0 {
                let msg = if build.draft.is_empty() {
                    "the game has no nodes".to_owned()
                } else {
                    format!("the file ends with {open} node(s) still expected")
                };
                return Err(lx
                    .error(t.span, msg)
                    .with_hint("every action of a `p` or `c` node needs a node below it")
                    .into());
            }
            break;
        }
        let letter = match (t.tok, lx.text(&t)) {
            (Tok::Ident, l @ ("p" | "c" | "t")) => l.as_bytes()[0],
            _ => {
                return Err(lx
                    .unexpected(&t, "a node: `p` (player), `c` (chance) or `t` (terminal)")
                    .into());
            }
        };
        if open == 0 {
            return Err(lx
                .error(t.span, "node after the end of the tree")
                .with_hint("the tree is already complete; remove the extra nodes")
                .into());
        }
        let name = string(lx, "the node's name")?;
        let mut line = Line {
            kind: Kind::Leaf,
            actions: Actions::LEAF,
            outcome: Outcome::NO,
        };
        if letter != b't' {
            let player = if letter == b'p' {
                let pt = lx.next_token()?;
                let p = lx.integer(&pt, "the player's number")? as usize;
                if p == 0 || p > players {
                    return Err(lx
                        .error(
                            pt.span,
                            format!(
                                "player {p} does not exist: the header names {players} players"
                            ),
                        )
                        .into());
                }
                line.kind = Kind::Player((p - 1) as u8);
                p
            } else {
                line.kind = Kind::Chance;
                0
            };
            let node = build.draft.len() as u32;
            line.actions = infoset(lx, &mut tables, player, node, build.spans.as_deref())?;
        }
        line.outcome = outcome(lx, &mut tables)?;
        open = open - 1 + u64::from(line.actions.len);
        build.push(lx, &tables, t.span.start, line, &name)?;
    }
    if let Some(d) = build.overflow {
        return Err(d.into());
    }
    drop(tables);
    let spans = build.spans;
    build.draft.validated().map_err(|e| match &spans {
        Some(spans) => invalid_to_diagnostic(lx, spans, e).into(),
        None => Stop::NeedSpans,
    })
}

/// How far the reader goes between two releases of the text behind it.
const RELEASE_EVERY: usize = 4 << 20;

/// The shortest text a leaf can take (`t""1` and a blank).
const SHORTEST_LEAF: u64 = 5;

/// A game of many players, whose leaves' payoff vectors may take more memory than the
/// load's guard allows for the text (`format::LOAD_BYTES_PER_NODE` bytes a byte: a few bytes
/// of file can name one big outcome a million times): its leaves, counted from the lines that
/// start with `t`, checked against the memory left. `None` for other games, which the guard
/// covers.
fn check_leaf_room(lx: &mut Lexer<'_>, players: usize) -> Result<Option<u64>, Diagnostic> {
    let p = players as u64;
    // A leaf's vector is held twice (the draft, then the arena) beside its node.
    let leaf_cost = 16 * p + 64;
    if leaf_cost <= super::LOAD_BYTES_PER_NODE * SHORTEST_LEAF {
        return Ok(None);
    }
    let (mut lines, mut leaves) = (0u64, 0u64);
    for l in lx.src.as_bytes().split(|&c| c == b'\n') {
        match l.trim_ascii_start() {
            [c @ (b't' | b'p' | b'c'), w, ..] if w.is_ascii_whitespace() || *w == b'"' => {
                lines += 1;
                leaves += u64::from(*c == b't');
            }
            _ => {}
        }
    }
    // The running sums keep a frame for each open ancestor: as many as the interior nodes in a
    // chain, twice that while their vector doubles.
    let need = leaves
        .saturating_mul(leaf_cost)
        .saturating_add((lines - leaves).saturating_mul(16 * p))
        .saturating_add(64 * lines);
    if super::memory_check()
        && let Some((room, limit)) = crate::memory::headroom()
        && need > room
    {
        let first = lx.peek()?.span.clone();
        return Err(lx
            .error(
                first,
                format!(
                    "this game's {leaves} leaves with {players} payoffs each need about {} of memory; {limit} leaves {}",
                    crate::memory::human_bytes(need),
                    crate::memory::human_bytes(room)
                ),
            )
            .with_hint("fewer players or leaves, or more memory"));
    }
    Ok(Some(leaves))
}

/// Digits only at `p`, a whole number token: the value and where it ends.
#[inline]
fn plain_count(b: &[u8], p: usize) -> Option<(u64, usize)> {
    if !b.get(p).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    plain_integer(b, p).map(|(x, end)| (x as u64, end))
}

/// A `.efg` number at `p` as [`rational`] reads it, a decimal or a fraction `a/b` whose parts
/// are plain (see [`plain_number`]): its value and where it ends. `None` leaves it to
/// [`rational`] (a division by zero too, for its message).
#[inline]
fn plain_rational(b: &[u8], p: usize) -> Option<(f64, usize)> {
    let (x, end) = plain_number(b, p)?;
    let q = skip_blanks(b, end);
    if b.get(q) != Some(&b'/') {
        return Some((x, end));
    }
    let (d, end) = plain_number(b, skip_blanks(b, q + 1))?;
    (d != 0.0).then_some((x / d, end))
}

/// A node line at `p` read from the bytes, when its strings have no escapes, its numbers are
/// plain (see [`plain_rational`]), its probabilities are in (0, 1] and its information set is
/// new: the line, where its name is and where it ends; `node` is its preorder index. The
/// tokens are those the lexer finds, each followed by what the general way expects there.
/// `None` (the tables untouched) leaves the line to the general way, which reads the same or
/// reports the error.
#[inline]
fn fast_line(
    src: &str,
    p: usize,
    node: u32,
    tables: &mut Tables,
) -> Option<(Line, Range<usize>, usize)> {
    let (probs, outcomes) = (tables.probs.len(), tables.payoffs.len());
    let read = fast_line_tables(src, p, node, tables);
    if read.is_none() {
        tables.probs.truncate(probs);
        tables.payoffs.truncate(outcomes);
        tables.list.clear();
    }
    read
}

/// [`fast_line`], leaving what it undoes.
#[inline]
fn fast_line_tables(
    src: &str,
    p: usize,
    node: u32,
    tables: &mut Tables,
) -> Option<(Line, Range<usize>, usize)> {
    let b = src.as_bytes();
    let players = tables.players;
    let letter = *b.get(p)?;
    if !matches!(letter, b't' | b'p' | b'c') || !b.get(p + 1).is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let (name, end) = plain_string(b, skip_blanks(b, p + 1))?;
    let mut q = skip_blanks(b, end);
    let mut line = Line {
        kind: Kind::Leaf,
        actions: Actions::LEAF,
        outcome: Outcome::NO,
    };
    if letter == b't' {
        let (outcome, end) = fast_outcome(b, q, tables)?;
        line.outcome = outcome;
        return Some((line, name, end));
    }
    let player = if letter == b'p' {
        let (player, end) = plain_count(b, q)?;
        if player == 0 || player > players as u64 {
            return None;
        }
        q = skip_blanks(b, end);
        line.kind = Kind::Player((player - 1) as u8);
        player as usize
    } else {
        line.kind = Kind::Chance;
        0
    };
    let (set, end) = plain_count(b, q)?;
    q = skip_blanks(b, end);
    if let Some((_, end)) = plain_string(b, q) {
        q = skip_blanks(b, end); // the information set's name
    }
    if b.get(q) != Some(&b'{') || tables.set_index[player].get(set).is_some() {
        return None;
    }
    let probs = tables.probs.len();
    let mut actions = 0;
    q += 1;
    loop {
        q = skip_blanks(b, q);
        if b.get(q) == Some(&b'}') {
            q += 1;
            break;
        }
        let (action, end) = plain_string(b, q)?;
        tables.push_action(super::lex::slice(src, action));
        q = skip_blanks(b, end);
        if player == 0 {
            let (x, end) = plain_rational(b, q)?;
            if !(x > 0.0 && x <= 1.0) {
                return None;
            }
            tables.probs.push(x);
            q = skip_blanks(b, end);
        }
        actions += 1;
        if b.get(q) == Some(&b',') {
            q += 1;
        }
    }
    if actions == 0 {
        return None;
    }
    let (outcome, end) = fast_outcome(b, skip_blanks(b, q), tables)?;
    let names = tables.end_list();
    line.actions = Actions {
        names,
        len: actions,
        probs: if player == 0 { probs as u32 } else { NONE },
    };
    let entry = if player == 0 {
        let i = tables.declare_chance(line.actions);
        line.actions = tables.chance[i as usize];
        i
    } else {
        node
    };
    tables.set_index[player].insert(set, entry);
    line.outcome = outcome;
    Some((line, name, end))
}

/// [`outcome`] read from the bytes at `p`, for an outcome whose name has no escapes and
/// whose payoffs are plain (see [`plain_rational`]): the outcome and where it ends. `None`
/// (the outcome table untouched, payoffs perhaps pushed) leaves it to [`outcome`].
#[inline]
fn fast_outcome(b: &[u8], p: usize, tables: &mut Tables) -> Option<(Outcome, usize)> {
    let (number, end) = plain_count(b, p)?;
    let mut q = skip_blanks(b, end);
    if let Some((_, end)) = plain_string(b, q) {
        q = skip_blanks(b, end);
    } else if b.get(q) == Some(&b'"') {
        return None;
    }
    if b.get(q) != Some(&b'{') {
        return match number {
            0 => Some((Outcome::NO, q)),
            _ => tables
                .outcome_index
                .get(number)
                .map(|payoffs| (Outcome { number, payoffs }, q)),
        };
    }
    if number == 0 {
        return None;
    }
    q += 1;
    let start = tables.payoffs.len();
    loop {
        q = skip_blanks(b, q);
        if b.get(q) == Some(&b'}') {
            if tables.payoffs.len() - start != tables.players {
                return None;
            }
            break;
        }
        let (x, end) = plain_rational(b, q)?;
        q = skip_blanks(b, end);
        if b.get(q) == Some(&b',') {
            q += 1;
        }
        tables.payoffs.push(x);
    }
    let payoffs = match tables.outcome_index.get(number) {
        Some(i) => {
            let same = tables.payoffs(i) == &tables.payoffs[start..];
            tables.payoffs.truncate(start);
            if !same {
                return None;
            }
            i
        }
        None => {
            let i = tables.keep_payoffs(start);
            tables.outcome_index.insert(number, i);
            i
        }
    };
    Some((Outcome { number, payoffs }, q + 1))
}

/// `set ["name"] [{ actions }]` of a `p` or `c` line at preorder index `node`; returns its
/// actions. `spans`, when kept, place the node that first used a shared set.
fn infoset(
    lx: &mut Lexer<'_>,
    tables: &mut Tables,
    player: usize,
    node: u32,
    spans: Option<&[Range<usize>]>,
) -> Result<Actions, Stop> {
    let it = lx.next_token()?;
    let set = lx.integer(&it, "an information set number")?;
    if lx.peek()?.tok == Tok::Str {
        lx.next_token()?; // the information set's name
    }
    let mut declared = None;
    if lx.peek()?.tok == Tok::Punct('{') {
        let brace = lx.next_token()?;
        let d = actions(lx, tables, player == 0)?;
        if d.len == 0 {
            return Err(lx
                .error(brace.span, "an information set with no actions")
                .with_hint("a node with no moves is a terminal `t` node")
                .into());
        }
        declared = Some(d);
    }
    match (tables.set_index[player].get(set), declared) {
        (Some(first), _) if player > 0 => {
            let Some(spans) = spans else {
                return Err(Stop::NeedSpans);
            };
            let (l, _) = line_col(&lx.src, spans[first as usize].start);
            Err(lx
                .error(it.span, format!("information set {set} of player {player} is shared with the node on line {l}: that is imperfect information"))
                .with_hint("prune searches perfect-information games: give every player node its own information set").into())
        }
        (Some(i), Some(d)) => {
            let prev = tables.chance[i as usize];
            let same = prev.len == d.len
                && prev.names == d.names
                && tables.probs_of(&prev) == tables.probs_of(&d);
            tables.probs.truncate(d.probs as usize);
            if !same {
                return Err(lx
                    .error(
                        it.span,
                        format!(
                            "chance information set {set} is redeclared with different actions"
                        ),
                    )
                    .into());
            }
            Ok(prev)
        }
        (Some(i), None) => Ok(tables.chance[i as usize]),
        (None, Some(d)) if player == 0 => {
            let i = tables.declare_chance(d);
            tables.set_index[0].insert(set, i);
            Ok(tables.chance[i as usize])
        }
        (None, Some(d)) => {
            tables.set_index[player].insert(set, node);
            Ok(d)
        }
        (None, None) => Err(lx
            .error(
                it.span,
                format!("information set {set} is used before its actions are given"),
            )
            .with_hint("list the actions in braces the first time a set appears")
            .into()),
    }
}

/// `EFG 2 R "title" { "p1" "p2" } ["comment"]`
fn header(lx: &mut Lexer<'_>) -> Result<(Meta, Vec<String>), Diagnostic> {
    let t = lx.next_token()?;
    if t.tok != Tok::Ident || lx.text(&t) != "EFG" {
        return Err(lx
            .unexpected(&t, "`EFG` to start a Gambit extensive-form file")
            .with_hint(
                "the first line looks like `EFG 2 R \"title\" { \"Player 1\" \"Player 2\" }`",
            ));
    }
    let v = lx.next_token()?;
    if lx.integer(&v, "the format version 2")? != 2 {
        return Err(lx
            .error(v.span, "unsupported .efg version")
            .with_hint("prune reads version 2 files"));
    }
    let r = lx.next_token()?;
    if r.tok != Tok::Ident || !matches!(lx.text(&r), "R" | "D") {
        return Err(lx.unexpected(&r, "`R` or `D` (rational or decimal numbers)"));
    }
    let name = string(lx, "the game's title")?;
    let brace = lx.expect('{', "to open the list of players")?;
    let mut players = Vec::new();
    while !lx.eat('}')? {
        players.push(string(lx, "a player's name or `}`")?);
        lx.eat(',')?;
    }
    if players.len() < 2 || players.len() > 255 {
        let n = players.len();
        return Err(lx.error(
            brace.span,
            format!(
                "a game of {n} player{}: prune searches games of 2 to 255 players",
                if n == 1 { "" } else { "s" }
            ),
        ));
    }
    let mut description = String::new();
    if lx.peek()?.tok == Tok::Str {
        description = string(lx, "a comment")?;
    }
    Ok((
        Meta {
            name,
            description,
            ..Meta::default()
        },
        players,
    ))
}

fn string(lx: &mut Lexer<'_>, what: &str) -> Result<String, Diagnostic> {
    let t = lx.next_token()?;
    if t.tok != Tok::Str {
        return Err(lx.unexpected(&t, &format!("a quoted string for {what}")));
    }
    lx.string(&t)
}

/// A number written as a decimal or a fraction `a/b`.
fn rational(lx: &mut Lexer<'_>, what: &str) -> Result<(f64, Token), Diagnostic> {
    let (t, x) = match lx.plain_number(&[])? {
        Some(read) => read,
        None => {
            let (x, t) = lx.expect_number(what)?;
            (t, x)
        }
    };
    if !lx.eat('/')? {
        return Ok((x, t));
    }
    let (d, dt) = lx.expect_number("a denominator")?;
    if d == 0.0 {
        return Err(lx.error(dt.span, "division by zero"));
    }
    Ok((
        x / d,
        Token {
            tok: t.tok,
            span: t.span.start..dt.span.end,
        },
    ))
}

/// The action list after `{`: names, each followed by a probability at chance nodes (pushed
/// last in the tables' probabilities).
fn actions(lx: &mut Lexer<'_>, tables: &mut Tables, chance: bool) -> Result<Actions, Diagnostic> {
    let mut set = Actions {
        names: NONE,
        len: 0,
        probs: if chance {
            tables.probs.len() as u32
        } else {
            NONE
        },
    };
    loop {
        if lx.eat('}')? {
            set.names = tables.end_list();
            return Ok(set);
        }
        let t = lx.next_token()?;
        if t.tok != Tok::Str {
            return Err(lx.unexpected(&t, "a quoted action name or `}`"));
        }
        tables.push_action(&lx.string(&t)?);
        set.len += 1;
        if chance {
            let (p, pt) = rational(lx, "the action's probability")?;
            if !(p > 0.0 && p <= 1.0) {
                return Err(lx
                    .error(pt.span, format!("probability {p} is not in (0, 1]"))
                    .with_hint("write probabilities as decimals like 0.25 or fractions like 1/3"));
            }
            tables.probs.push(p);
        }
        lx.eat(',')?;
    }
}

/// `number ["name"] [{ payoffs }]`.
fn outcome(lx: &mut Lexer<'_>, tables: &mut Tables) -> Result<Outcome, Diagnostic> {
    let players = tables.players;
    let t = lx.next_token()?;
    let n = lx.integer(&t, "an outcome number (0 for none)")?;
    if lx.peek()?.tok == Tok::Str {
        lx.next_token()?;
    }
    let known = tables.outcome_index.get(n);
    if lx.peek()?.tok != Tok::Punct('{') {
        return match (n, known) {
            (0, _) => Ok(Outcome::NO),
            (_, Some(payoffs)) => Ok(Outcome { number: n, payoffs }),
            (_, None) => Err(lx
                .error(
                    t.span,
                    format!("outcome {n} is used before its payoffs are given"),
                )
                .with_hint("give the payoffs in braces the first time an outcome appears")),
        };
    }
    let brace = lx.next_token()?;
    let start = tables.payoffs.len();
    while !lx.eat('}')? {
        tables.payoffs.push(rational(lx, "a payoff or `}`")?.0);
        lx.eat(',')?;
    }
    let count = tables.payoffs.len() - start;
    if n == 0 {
        return Err(lx
            .error(
                t.span,
                "outcome 0 means \"no outcome\" and cannot have payoffs",
            )
            .with_hint("number the outcome from 1"));
    }
    if count != players {
        return Err(lx
            .error(brace.span, format!("{count} payoffs for {players} players"))
            .with_hint("an outcome has one payoff per player"));
    }
    let payoffs = match known {
        Some(i) => {
            let same = tables.payoffs(i) == &tables.payoffs[start..];
            tables.payoffs.truncate(start);
            if !same {
                return Err(lx.error(
                    t.span,
                    format!("outcome {n} is redefined with different payoffs"),
                ));
            }
            i
        }
        None => {
            let i = tables.keep_payoffs(start);
            tables.outcome_index.insert(n, i);
            i
        }
    };
    Ok(Outcome { number: n, payoffs })
}

/// Writes `tree` as a `.efg` file: one information set per player node, one outcome per leaf.
/// A two-player tree becomes players "Max" and "Min" with payoffs (v, −v). Everything is
/// appended to one string: no `String` per number, label or line.
pub fn write(tree: &Tree) -> String {
    let players = tree.players();
    let multi = tree.is_multiplayer();
    let meta = tree.meta();
    let mut out = String::with_capacity(tree.len() * 24 + 128);
    out.push_str("EFG 2 R ");
    push_quoted(&mut out, &meta.name);
    out.push_str(" {");
    if multi {
        for p in 1..=players {
            out.push(' ');
            push_quoted(&mut out, &format!("Player {p}"));
        }
    } else {
        out.push_str(" \"Max\" \"Min\"");
    }
    out.push_str(" }\n");
    push_quoted(&mut out, &meta.description);
    out.push_str("\n\n");
    let mut next_set = vec![1u64; players + 1];
    let mut next_outcome = 1u64;
    let mut digits = itoa::Buffer::new();
    for id in tree.preorder() {
        let name = if id == NodeId::ROOT {
            tree.label(id).unwrap_or("")
        } else {
            ""
        };
        let kind = tree.kind(id);
        if kind == Kind::Leaf {
            out.push_str("t ");
            push_quoted(&mut out, name);
            out.push(' ');
            out.push_str(digits.format(next_outcome));
            out.push_str(" \"\" { ");
            if multi {
                for (i, &x) in tree.payoff(id).iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    push_number(&mut out, x);
                }
            } else {
                let v = tree.value(id);
                push_number(&mut out, v);
                out.push(' ');
                push_number(&mut out, if v == 0.0 { 0.0 } else { -v });
            }
            out.push_str(" }\n");
            next_outcome += 1;
            continue;
        }
        let (letter, player) = match kind {
            Kind::Chance => ('c', 0),
            Kind::Max => ('p', 1),
            Kind::Min => ('p', 2),
            Kind::Player(p) => ('p', usize::from(p) + 1),
            Kind::Leaf => unreachable!("handled above"),
        };
        let set = next_set[player];
        next_set[player] += 1;
        out.push(letter);
        out.push(' ');
        push_quoted(&mut out, name);
        out.push(' ');
        if player != 0 {
            out.push_str(digits.format(player));
            out.push(' ');
        }
        out.push_str(digits.format(set));
        out.push_str(" \"\" {");
        let uniform = tree.is_uniform(id);
        for c in tree.children(id) {
            out.push(' ');
            push_quoted(&mut out, tree.label(c).unwrap_or(""));
            if kind != Kind::Chance {
                continue;
            }
            out.push(' ');
            if uniform {
                out.push_str("1/");
                out.push_str(digits.format(tree.child_count(id)));
            } else {
                push_number(&mut out, tree.prob(c));
            }
        }
        out.push_str(" } 0\n");
    }
    out
}

/// Appends `s` in double quotes, `"` and `\\` escaped with a backslash as Gambit does, and
/// every control, separator and bidi character as `\u{…}` (which prune reads back; raw, a line
/// break would end the line).
fn push_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        } else if crate::text::is_unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
            continue;
        }
        out.push(c);
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_numbers_far_apart_stay_found_when_the_vector_reaches_them() {
        let mut o = Numbers::default();
        o.insert(2000, 0); // beyond the vector: in the map
        for n in 1..=600 {
            o.insert(n, n as u32);
        }
        o.insert(1990, 601);
        o.insert(2001, 602); // the vector now spans 2000, unset there
        assert_eq!(o.get(2000), Some(0));
        assert_eq!(o.get(2001), Some(602));
        assert_eq!(o.get(1999), None);
        o.insert(u64::MAX, 603);
        assert_eq!(o.get(u64::MAX), Some(603));
    }

    fn read(src: &str) -> Result<Tree, Diagnostic> {
        parse("g.efg", Text::from(src))
    }

    const ZERO_SUM: &str = r#"EFG 2 R "coin then move" { "Player 1" "Player 2" }
"a comment"

c "root" 1 "" { "heads" 1/3 "tails" 2/3 } 0
p "" 1 1 "" { "L" "R" } 0
t "" 1 "o1" { 3, -3 }
t "" 2 "o2" { -1 1 }
p "" 2 1 "" { "l" "r" } 1
t "" 3 "" { 1 -1 }
t "" 0
"#;

    #[test]
    fn zero_sum_becomes_max_min_with_summed_outcomes() {
        let t = read(ZERO_SUM).unwrap_or_else(|e| panic!("{}", e.render()));
        assert!(!t.is_multiplayer());
        assert_eq!(t.meta().name, "coin then move");
        assert_eq!(t.meta().description, "a comment");
        assert_eq!(t.label(t.root()), Some("root"));
        let tails = t.child(t.root(), 1);
        assert_eq!(
            (t.kind(tails), t.label(tails), t.prob(tails)),
            (Kind::Min, Some("tails"), 2.0 / 3.0)
        );
        // Outcome 1 (3, -3) at the Min node adds to both leaves below it.
        assert_eq!(t.value(t.child(tails, 0)), 4.0);
        assert_eq!(t.value(t.child(tails, 1)), 3.0);
    }

    #[test]
    fn general_sum_is_n_player() {
        let src = "EFG 2 R \"\" { \"a\" \"b\" }\np \"\" 1 1 \"\" { \"x\" \"y\" } 0\nt \"\" 1 \"\" { 1 2 }\nt \"\" 2 \"\" { 5 0 }\n";
        let t = read(src).unwrap();
        assert!(t.is_multiplayer());
        assert_eq!(t.payoff(t.child(t.root(), 1)), &[5.0, 0.0]);
    }

    #[test]
    fn round_trip_through_efg() {
        let t = read(ZERO_SUM).unwrap();
        let back = read(&write(&t)).unwrap_or_else(|e| panic!("{}\n{}", e.render(), write(&t)));
        assert_eq!(back.len(), t.len());
        for id in t.ids() {
            assert_eq!(back.kind(id), t.kind(id));
            assert_eq!(back.value(id), t.value(id));
            assert_eq!(back.prob(id), t.prob(id));
            assert_eq!(back.label(id), t.label(id));
        }
    }

    fn err(src: &str) -> String {
        read(src).unwrap_err().to_string()
    }

    #[test]
    fn errors() {
        let head = "EFG 2 R \"\" { \"a\" \"b\" }\n";
        let shared = format!(
            "{head}p \"\" 1 1 \"\" {{ \"x\" \"y\" }} 0\np \"\" 2 1 \"\" {{ \"l\" }} 0\nt \"\" 1 \"\" {{ 1 -1 }}\np \"\" 2 1 0\nt \"\" 2 \"\" {{ 0 0 }}\n"
        );
        assert_eq!(
            err(&shared),
            "g.efg:5:8: information set 1 of player 2 is shared with the node on line 3: that is imperfect information (hint: prune searches perfect-information games: give every player node its own information set)"
        );
        assert!(
            err(&format!("{head}p \"\" 3 1 \"\" {{ \"x\" }} 0\nt \"\" 0\n"))
                .contains("player 3 does not exist")
        );
        assert!(
            err(&format!(
                "{head}c \"\" 1 \"\" {{ \"x\" 1/2 \"y\" 1/3 }} 0\nt \"\" 0\nt \"\" 0\n"
            ))
            .contains("sum to 0.8333")
        );
        assert!(
            err(&format!(
                "{head}p \"\" 1 1 \"\" {{ \"x\" \"y\" }} 0\nt \"\" 0\n"
            ))
            .contains("1 node(s) still expected")
        );
        assert!(
            err(&format!("{head}t \"\" 1 \"\" {{ 1 2 3 }}\n")).contains("3 payoffs for 2 players")
        );
        assert!(err(&format!("{head}t \"\" 4\n")).contains("outcome 4 is used before"));
        assert!(err(&format!("{head}t \"\" 0\nt \"\" 0\n")).contains("node after the end"));
        assert!(err("EFG 2 R \"\" { \"solo\" }\nt \"\" 0\n").contains("a game of 1 player:"));
        assert!(err("(root: 1)").contains("expected `EFG`"));
    }

    #[test]
    fn a_two_player_file_turns_n_player_at_its_first_leaf_off_the_constant_sum() {
        // Three leaves summing to 0, then one summing to 1: read again as two players'
        // payoffs, every leaf's vector the sum of its path's outcomes.
        let src = "EFG 2 R \"\" { \"a\" \"b\" }\n\
            p \"\" 1 1 \"\" { \"x\" \"y\" } 1 \"\" { 1 -1 }\n\
            p \"\" 2 1 \"\" { \"l\" \"r\" } 0\n\
            t \"\" 2 \"\" { 2 -2 }\n\
            t \"\" 3 \"\" { 0 0 }\n\
            p \"\" 2 2 \"\" { \"l\" \"r\" } 0\n\
            t \"\" 2\n\
            t \"\" 4 \"\" { 0 1 }\n";
        let t = read(src).unwrap_or_else(|e| panic!("{}", e.render()));
        assert!(t.is_multiplayer());
        let (x, y) = (t.child(t.root(), 0), t.child(t.root(), 1));
        assert_eq!(
            (t.kind(t.root()), t.kind(x)),
            (Kind::Player(0), Kind::Player(1))
        );
        assert_eq!(t.payoff(t.child(x, 0)), &[3.0, -3.0]);
        assert_eq!(t.payoff(t.child(y, 1)), &[1.0, 0.0]);
        assert_eq!(t.label(t.child(y, 1)), Some("r"));
    }

    #[test]
    fn a_chance_set_used_again_keeps_its_actions_and_probabilities() {
        let src = "EFG 2 R \"\" { \"a\" \"b\" }\n\
            c \"\" 1 \"\" { \"h\" 1/4 \"t\" 0.75 } 0\n\
            c \"\" 2 \"\" { \"h\" 1/4 \"t\" 0.75 } 0\n\
            t \"\" 1 \"\" { 1 -1 }\n\
            c \"\" 1 0\n\
            t \"\" 2 \"\" { 2 -2 }\n\
            t \"\" 1\n\
            c \"\" 3 \"\" { \"u\" 0.5 \"v\" 0.5 } 0\n\
            t \"\" 0\n\
            t \"\" 0\n";
        let t = read(src).unwrap_or_else(|e| panic!("{}", e.render()));
        let (first, second) = (t.child(t.root(), 0), t.child(t.root(), 1));
        let reused = t.child(first, 1);
        for c in [first, reused] {
            assert_eq!(t.prob(t.child(c, 0)), 0.25);
            assert_eq!(t.prob(t.child(c, 1)), 0.75);
            assert_eq!(t.label(t.child(c, 1)), Some("t"));
        }
        assert_eq!(t.value(t.child(reused, 0)), 2.0);
        assert_eq!(t.value(t.child(reused, 1)), 1.0);
        assert_eq!(t.prob(t.child(second, 0)), 0.5);
        assert_eq!(t.label(t.child(second, 1)), Some("v"));
    }

    #[test]
    fn declarations_and_payoff_vectors_alike_are_kept_once() {
        let mut tables = Tables::new(2);
        let declare = |tables: &mut Tables, probs: &[f64]| {
            let at = tables.probs.len() as u32;
            tables.probs.extend_from_slice(probs);
            tables.declare_chance(Actions {
                names: NONE,
                len: probs.len() as u32,
                probs: at,
            })
        };
        let half = declare(&mut tables, &[0.5, 0.5]);
        let third = declare(&mut tables, &[0.25, 0.75]);
        assert_eq!(declare(&mut tables, &[0.5, 0.5]), half);
        assert_eq!(declare(&mut tables, &[0.25, 0.75]), third);
        assert_eq!((tables.chance.len(), tables.probs.len()), (2, 4));
        let keep = |tables: &mut Tables, v: [f64; 2]| {
            let start = tables.payoffs.len();
            tables.payoffs.extend_from_slice(&v);
            tables.keep_payoffs(start)
        };
        let win = keep(&mut tables, [1.0, -1.0]);
        let draw = keep(&mut tables, [0.0, 0.0]);
        assert_eq!(keep(&mut tables, [1.0, -1.0]), win);
        assert_eq!(keep(&mut tables, [0.0, 0.0]), draw);
        // The same value, other bits: a sum could tell them apart.
        let signed = keep(&mut tables, [-0.0, 0.0]);
        assert_ne!(signed, draw);
        assert_eq!(tables.payoffs(signed)[0].to_bits(), (-0.0f64).to_bits());
        assert_eq!(tables.payoffs.len(), 6);
    }

    #[test]
    fn an_error_in_the_text_comes_before_an_overflow_above_it() {
        let head = "EFG 2 R \"\" { \"a\" \"b\" }\n";
        let src = format!(
            "{head}p \"\" 1 1 \"\" {{ \"l\" \"r\" }} 1 \"\" {{ 1e308 -1e308 }}\n\
             t \"\" 2 \"\" {{ 1e308 0 }}\nt \"\" 3 \"\" {{ 1 2 3 }}\n"
        );
        assert!(
            err(&src).contains("3 payoffs for 2 players"),
            "{}",
            err(&src)
        );
        let src = format!(
            "{head}p \"\" 1 1 \"\" {{ \"l\" \"r\" }} 1 \"\" {{ 1e308 -1e308 }}\n\
             t \"\" 2 \"\" {{ 1e308 0 }}\nt \"\" 0\n"
        );
        assert_eq!(
            err(&src),
            "g.efg:3:1: player 1's payoff overflows: the outcomes on the path to this node sum past the largest number (outcome 1 on line 2 gives 1e308, outcome 2 on line 3 gives 1e308) (hint: a leaf's payoff is the sum of the outcomes on its path; make them smaller)"
        );
    }
}
