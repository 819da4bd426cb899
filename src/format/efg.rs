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

/// A node line: what it is and which information set and outcome it uses (indexes into
/// [`Tables`]), so a file of 10^6 nodes costs no allocation per node.
struct Line {
    kind: Kind,
    /// The node's own name, an index into [`Tables::names`] (`NONE`: none).
    name: u32,
    set: u32,
    outcome: u32,
}

const NONE: u32 = u32::MAX;

struct Infoset {
    /// The actions' names, an index into [`Tables::lists`] (`NONE` when every name is empty,
    /// as in most generated files).
    actions: u32,
    /// The number of actions.
    len: usize,
    /// Where a chance set's probabilities start in [`Tables::probs`] (`len` of them).
    probs: Option<usize>,
    /// Where the line that first used the set starts, for the message when a second node
    /// shares it.
    first: usize,
}

/// Information sets and outcomes, each stored once.
#[derive(Default)]
struct Tables {
    sets: Vec<Infoset>,
    /// Each player's information sets by number (chance's first), as outcomes are.
    set_index: Vec<Numbers>,
    /// Payoffs of every outcome, `players` values each.
    payoffs: Vec<f64>,
    outcome_index: Numbers,
    /// The nodes' names that are not empty, one after the other: the `i`-th ends at
    /// `name_ends[i]`.
    names: String,
    name_ends: Vec<usize>,
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
    /// The probabilities of every chance set.
    probs: Vec<f64>,
}

impl Tables {
    /// The `i`-th node name.
    fn name(&self, i: u32) -> &str {
        let i = i as usize;
        let start = if i == 0 { 0 } else { self.name_ends[i - 1] };
        &self.names[start..self.name_ends[i]]
    }

    /// Keeps a node's name: its index, `NONE` for an empty one.
    fn push_name(&mut self, name: &str) -> u32 {
        if name.is_empty() {
            return NONE;
        }
        self.names.push_str(name);
        self.name_ends.push(self.names.len());
        (self.name_ends.len() - 1) as u32
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
                .map(|n| String::from_utf8(n.to_vec()).expect("names are text"))
                .collect();
            self.lists.push(names);
            let i = (self.lists.len() - 1) as u32;
            self.list_index.insert(list.clone(), i);
            i
        };
        self.list.clear();
        i
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

    /// The number of the outcome with index `i` (0 if none has it).
    fn number_of(&self, i: u32) -> u64 {
        match self.dense.iter().position(|&x| x == i) {
            Some(k) => k as u64,
            None => self
                .sparse
                .iter()
                .find(|&(_, &x)| x == i)
                .map_or(0, |(&n, _)| n),
        }
    }
}

/// Reads a `.efg` file. `file` names the input in messages.
pub fn parse(file: &str, src: Text) -> Result<Tree, Diagnostic> {
    let mut lx = Lexer::new(file, src.clone(), false);
    let lines = read(&mut lx, false)?;
    match build(&lx, lines) {
        Ok(valid) => {
            // The text only served error messages: free it first.
            drop((lx, src));
            Ok(valid.layout())
        }
        Err(_) => {
            // The message needs the nodes' positions, which are not kept: read the text
            // again, keeping them.
            let mut lx = Lexer::new(file, src, false);
            let lines = read(&mut lx, true)?;
            let valid = build(&lx, lines)?;
            drop(lx);
            Ok(valid.layout())
        }
    }
}

/// What [`read`] finds: the header, every node line, each line's span (when kept) and the
/// tables the lines point into.
struct Lines {
    meta: Meta,
    players: usize,
    lines: Vec<Line>,
    spans: Vec<Range<usize>>,
    tables: Tables,
}

/// Reads the header and every node line.
fn read(lx: &mut Lexer<'_>, keep_spans: bool) -> Result<Lines, Diagnostic> {
    let src = lx.src.clone();
    let b = src.as_bytes();
    let (meta, player_names) = header(lx)?;
    let players = player_names.len();
    // A node a line, most lines longer than 16 bytes (no pass over the text to count them:
    // the explorer shows 0 bytes parsed until the first line is read).
    let estimate = b.len() / 16;
    let mut lines: Vec<Line> = Vec::with_capacity(estimate);
    let mut spans: Vec<Range<usize>> = Vec::with_capacity(if keep_spans { estimate } else { 0 });
    let mut tables = Tables::default();
    tables.set_index.resize_with(players + 1, Numbers::default);
    // Room for an outcome a line in games of a few players (`format::load_estimate` counts
    // it): growing by doubling copies the payoffs several times.
    if players <= 8 {
        tables.payoffs.reserve(estimate * players);
    }
    let mut open: u64 = 1; // nodes the tree still expects
    loop {
        // Most lines read straight from the bytes (see `fast_line`): `t "" 3 "" { 1 -1 }`,
        // `p "" 1 2 "" { "roll" "stop" } 0`, `c "" 4 "" { "Roll 1" 0.5 "Roll 2" 1/2 } 0`.
        // Anything else is left to the general way below, from the same place.
        if open > 0
            && let Some(at) = lx.offset()
        {
            let p = skip_blanks(b, at);
            if let Some((line, children, end)) = fast_line(&src, p, players, &mut tables) {
                open = open - 1 + children;
                lines.push(line);
                if keep_spans {
                    spans.push(p..p + 1);
                }
                lx.advance_to(end);
                continue;
            }
        }
        let t = lx.next_token()?;
        if t.tok == Tok::Eof {
            if open > 0 {
                let msg = if lines.is_empty() {
                    "the game has no nodes".to_owned()
                } else {
                    format!("the file ends with {open} node(s) still expected")
                };
                return Err(lx
                    .error(t.span, msg)
                    .with_hint("every action of a `p` or `c` node needs a node below it"));
            }
            break;
        }
        let letter = match (t.tok, lx.text(&t)) {
            (Tok::Ident, l @ ("p" | "c" | "t")) => l.as_bytes()[0],
            _ => {
                return Err(
                    lx.unexpected(&t, "a node: `p` (player), `c` (chance) or `t` (terminal)")
                );
            }
        };
        if open == 0 {
            return Err(lx
                .error(t.span, "node after the end of the tree")
                .with_hint("the tree is already complete; remove the extra nodes"));
        }
        let name = string(lx, "the node's name")?;
        let mut line = Line {
            kind: Kind::Leaf,
            name: tables.push_name(&name),
            set: NONE,
            outcome: NONE,
        };
        let mut children = 0;
        if letter != b't' {
            let player = if letter == b'p' {
                let pt = lx.next_token()?;
                let p = lx.integer(&pt, "the player's number")? as usize;
                if p == 0 || p > players {
                    return Err(lx.error(
                        pt.span,
                        format!("player {p} does not exist: the header names {players} players"),
                    ));
                }
                line.kind = Kind::Player((p - 1) as u8);
                p
            } else {
                line.kind = Kind::Chance;
                0
            };
            line.set = infoset(lx, &mut tables, player, t.span.start)?;
            children = tables.sets[line.set as usize].len;
        }
        line.outcome = outcome(lx, players, &mut tables)?;
        open = open - 1 + children as u64;
        lines.push(line);
        if keep_spans {
            spans.push(t.span.clone());
        }
    }
    Ok(Lines {
        meta,
        players,
        lines,
        spans,
        tables,
    })
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
/// new: the line, its number of children and where it ends. The tokens are those the lexer
/// finds, each followed by what the general way expects there. `None` (the tables untouched)
/// leaves the line to the general way, which reads the same or reports the error.
#[inline]
fn fast_line(
    src: &str,
    p: usize,
    players: usize,
    tables: &mut Tables,
) -> Option<(Line, u64, usize)> {
    let (probs, outcomes) = (tables.probs.len(), tables.payoffs.len());
    let read = fast_line_tables(src, p, players, tables);
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
    players: usize,
    tables: &mut Tables,
) -> Option<(Line, u64, usize)> {
    let b = src.as_bytes();
    let letter = *b.get(p)?;
    if !matches!(letter, b't' | b'p' | b'c') || !b.get(p + 1).is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let (name, end) = plain_string(b, skip_blanks(b, p + 1))?;
    let mut q = skip_blanks(b, end);
    let mut line = Line {
        kind: Kind::Leaf,
        name: NONE,
        set: NONE,
        outcome: NONE,
    };
    if letter == b't' {
        let (outcome, end) = fast_outcome(b, q, players, tables)?;
        line.outcome = outcome;
        line.name = tables.push_name(&src[name]);
        return Some((line, 0, end));
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
        tables.push_action(&src[action]);
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
    let (outcome, end) = fast_outcome(b, skip_blanks(b, q), players, tables)?;
    let i = tables.sets.len() as u32;
    let list = tables.end_list();
    tables.sets.push(Infoset {
        actions: list,
        len: actions,
        probs: (player == 0).then_some(probs),
        first: p,
    });
    tables.set_index[player].insert(set, i);
    line.name = tables.push_name(&src[name]);
    line.set = i;
    line.outcome = outcome;
    Some((line, actions as u64, end))
}

/// [`outcome`] read from the bytes at `p`, for an outcome whose name has no escapes and
/// whose payoffs are plain (see [`plain_rational`]): the outcome's index and where it ends.
/// `None` (the outcome table untouched, payoffs perhaps pushed) leaves it to [`outcome`].
#[inline]
fn fast_outcome(b: &[u8], p: usize, players: usize, tables: &mut Tables) -> Option<(u32, usize)> {
    let (n, end) = plain_count(b, p)?;
    let mut q = skip_blanks(b, end);
    if let Some((_, end)) = plain_string(b, q) {
        q = skip_blanks(b, end);
    } else if b.get(q) == Some(&b'"') {
        return None;
    }
    if b.get(q) != Some(&b'{') {
        return match n {
            0 => Some((NONE, q)),
            _ => tables.outcome_index.get(n).map(|i| (i, q)),
        };
    }
    if n == 0 {
        return None;
    }
    q += 1;
    let start = tables.payoffs.len();
    loop {
        q = skip_blanks(b, q);
        if b.get(q) == Some(&b'}') {
            if tables.payoffs.len() - start != players {
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
    match tables.outcome_index.get(n) {
        Some(i) => {
            let first = i as usize * players;
            let same = tables.payoffs[first..first + players] == tables.payoffs[start..];
            tables.payoffs.truncate(start);
            same.then_some((i, q + 1))
        }
        None => {
            let i = (start / players) as u32;
            tables.outcome_index.insert(n, i);
            Some((i, q + 1))
        }
    }
}

/// `set ["name"] [{ actions }]` of a `p` or `c` line; returns the set's index.
fn infoset(
    lx: &mut Lexer<'_>,
    tables: &mut Tables,
    player: usize,
    here: usize,
) -> Result<u32, Diagnostic> {
    let it = lx.next_token()?;
    let set = lx.integer(&it, "an information set number")?;
    if lx.peek()?.tok == Tok::Str {
        lx.next_token()?; // the information set's name
    }
    let mut declared = None;
    if lx.peek()?.tok == Tok::Punct('{') {
        let brace = lx.next_token()?;
        let d = actions(lx, tables, player == 0, here)?;
        if d.len == 0 {
            return Err(lx
                .error(brace.span, "an information set with no actions")
                .with_hint("a node with no moves is a terminal `t` node"));
        }
        declared = Some(d);
    }
    match (tables.set_index[player].get(set), declared) {
        (Some(i), _) if player > 0 => {
            let (l, _) = line_col(&lx.src, tables.sets[i as usize].first);
            Err(lx
                .error(it.span, format!("information set {set} of player {player} is shared with the node on line {l}: that is imperfect information"))
                .with_hint("prune searches perfect-information games: give every player node its own information set"))
        }
        (Some(i), Some(d)) => {
            let prev = &tables.sets[i as usize];
            let probs = |set: &Infoset| set.probs.map(|at| &tables.probs[at..at + set.len]);
            let same = prev.len == d.len && prev.actions == d.actions && probs(prev) == probs(&d);
            tables.probs.truncate(d.probs.unwrap_or(tables.probs.len()));
            if !same {
                return Err(lx.error(
                    it.span,
                    format!("chance information set {set} is redeclared with different actions"),
                ));
            }
            Ok(i)
        }
        (Some(i), None) => Ok(i),
        (None, Some(d)) => {
            let i = tables.sets.len() as u32;
            tables.sets.push(d);
            tables.set_index[player].insert(set, i);
            Ok(i)
        }
        (None, None) => Err(lx
            .error(
                it.span,
                format!("information set {set} is used before its actions are given"),
            )
            .with_hint("list the actions in braces the first time a set appears")),
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

/// The action list after `{`: names, each followed by a probability at chance nodes.
fn actions(
    lx: &mut Lexer<'_>,
    tables: &mut Tables,
    chance: bool,
    here: usize,
) -> Result<Infoset, Diagnostic> {
    let mut set = Infoset {
        actions: NONE,
        len: 0,
        probs: chance.then_some(tables.probs.len()),
        first: here,
    };
    loop {
        if lx.eat('}')? {
            set.actions = tables.end_list();
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

/// `number ["name"] [{ payoffs }]`; returns the outcome's index (`NONE` for outcome 0).
fn outcome(lx: &mut Lexer<'_>, players: usize, tables: &mut Tables) -> Result<u32, Diagnostic> {
    let t = lx.next_token()?;
    let n = lx.integer(&t, "an outcome number (0 for none)")?;
    if lx.peek()?.tok == Tok::Str {
        lx.next_token()?;
    }
    let known = tables.outcome_index.get(n);
    if lx.peek()?.tok != Tok::Punct('{') {
        return match (n, known) {
            (0, _) => Ok(NONE),
            (_, Some(i)) => Ok(i),
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
    match known {
        Some(i) => {
            let first = i as usize * players;
            let same = tables.payoffs[first..first + players] == tables.payoffs[start..];
            tables.payoffs.truncate(start);
            if !same {
                return Err(lx.error(
                    t.span,
                    format!("outcome {n} is redefined with different payoffs"),
                ));
            }
            Ok(i)
        }
        None => {
            let i = (start / players) as u32;
            tables.outcome_index.insert(n, i);
            Ok(i)
        }
    }
}

/// "player k's payoff overflows" at line `at`: which outcomes on the path from the root sum past
/// the largest number, each with its line and payoff.
#[allow(clippy::too_many_arguments)]
fn overflow(
    lx: &Lexer<'_>,
    lines: &[Line],
    spans: &[Range<usize>],
    tables: &Tables,
    players: usize,
    path: &[usize],
    at: usize,
    player: usize,
) -> Diagnostic {
    let number = |index: u32| tables.outcome_index.number_of(index);
    let terms: Vec<String> = path
        .iter()
        .chain([&at])
        .filter(|&&l| lines[l].outcome != NONE)
        .map(|&l| {
            let o = lines[l].outcome;
            let x = tables.payoffs[o as usize * players + player];
            let (line, _) = line_col(&lx.src, spans.get(l).map_or(0, |s| s.start));
            format!(
                "outcome {} on line {line} gives {}",
                number(o),
                number_text(x)
            )
        })
        .collect();
    lx.error(
        spans.get(at).cloned().unwrap_or(0..0),
        format!(
            "player {}'s payoff overflows: the outcomes on the path to this node sum past the largest number ({})",
            player + 1,
            terms.join(", ")
        ),
    )
    .with_hint("a leaf's payoff is the sum of the outcomes on its path; make them smaller")
}

/// Sums outcomes along paths, decides two-player constant-sum versus n-player, and validates
/// the draft (laid out by the caller once the text is freed). Without spans, an error's
/// position is wrong: the caller reads the text again for them.
fn build(lx: &Lexer<'_>, read: Lines) -> Result<Valid, Diagnostic> {
    let Lines {
        mut meta,
        players,
        lines,
        spans,
        tables,
    } = read;
    let tables = &tables;
    let children = |l: &Line| {
        if l.set == NONE {
            0
        } else {
            tables.sets[l.set as usize].len
        }
    };
    // Every leaf gets its own payoff vector (the sum of the outcomes on its path), held three
    // times while the tree is built: a few bytes of file can name one big outcome a million
    // times, so the memory is estimated from the leaves, not from the file's size. The running
    // sums keep a frame of `players` values for each open ancestor: as many as the interior
    // nodes in a chain, twice that while their vector doubles.
    let leaves = lines.iter().filter(|l| children(l) == 0).count() as u64;
    let interior = lines.len() as u64 - leaves;
    let need = leaves
        .saturating_mul(24 * players as u64 + 64)
        .saturating_add(interior.saturating_mul(16 * players as u64))
        .saturating_add(64 * lines.len() as u64);
    if super::memory_check()
        && let Some((room, limit)) = crate::memory::headroom()
        && need > room
    {
        return Err(lx
            .error(
                spans.first().cloned().unwrap_or(0..0),
                format!(
                    "this game's {leaves} leaves with {players} payoffs each need about {} of memory; {limit} leaves {}",
                    crate::memory::human_bytes(need),
                    crate::memory::human_bytes(room)
                ),
            )
            .with_hint("fewer players or leaves, or more memory"));
    }
    // Leaf totals, flat; the running sums of the open ancestors sit on a stack of `players`-wide
    // frames in `sums`.
    let mut totals: Vec<f64> = Vec::new();
    let wanted = (leaves as usize).saturating_mul(players);
    if crate::memory::fallibly(|| totals.try_reserve_exact(wanted)).is_err() {
        return Err(lx
            .error(
                spans.first().cloned().unwrap_or(0..0),
                format!(
                    "this game's {leaves} leaves with {players} payoffs each need more memory than is left"
                ),
            )
            .with_hint("fewer players or leaves, or more memory"));
    }
    let mut sums: Vec<f64> = vec![0.0; players];
    let mut left: Vec<usize> = Vec::new(); // children still to come, per frame above the base
    let mut path: Vec<usize> = Vec::new(); // the open ancestors' lines, a frame each
    for (i, line) in lines.iter().enumerate() {
        let base = sums.len() - players;
        let top = sums.len();
        sums.extend_from_within(base..top);
        if line.outcome != NONE {
            let o = line.outcome as usize * players;
            for (s, p) in sums[top..].iter_mut().zip(&tables.payoffs[o..o + players]) {
                *s += p;
            }
            if let Some(k) = sums[top..].iter().position(|s| !s.is_finite()) {
                return Err(overflow(lx, &lines, &spans, tables, players, &path, i, k));
            }
        }
        if let Some(l) = left.last_mut() {
            *l -= 1;
        }
        let n = children(line);
        if n == 0 {
            totals.extend_from_slice(&sums[top..]);
            sums.truncate(top);
        } else {
            left.push(n);
            path.push(i);
        }
        while left.last() == Some(&0) {
            left.pop();
            path.pop();
            sums.truncate(sums.len() - players);
        }
    }
    let first = totals.iter().take(players).sum::<f64>();
    let constant = players == 2
        && totals
            .chunks(players)
            .all(|t| (t.iter().sum::<f64>() - first).abs() <= 1e-9 * first.abs().max(1.0));
    meta.players = if constant { 2 } else { players as u8 };
    let mut draft = Draft::with_capacity(meta, lines.len());
    // Action names are declared once an information set: a hint, not a bound.
    draft.expect_label_text(lx.src.len());
    if !constant {
        draft.expect_payoff_values(totals.len());
    }
    // Labels come from the parent's action names; a node's own name labels it otherwise.
    let mut stack: Vec<(u32, usize)> = Vec::new(); // (parent's set, next action index)
    let mut leaf = 0;
    for line in &lines {
        let mut prob = None;
        let mut label = None;
        if let Some(top) = stack.last_mut() {
            let set = &tables.sets[top.0 as usize];
            let a = top.1;
            top.1 += 1;
            if set.actions != NONE
                && let Some(name) = tables.lists[set.actions as usize].get(a)
                && !name.is_empty()
            {
                label = Some(name.as_str());
            }
            prob = set.probs.map(|at| tables.probs[at + a]);
        }
        let n = children(line);
        let kind = match line.kind {
            Kind::Player(p) if constant => {
                if p == 0 {
                    Kind::Max
                } else {
                    Kind::Min
                }
            }
            k => k,
        };
        if kind == Kind::Leaf {
            let t = &totals[leaf * players..leaf * players + players];
            leaf += 1;
            if constant {
                draft.push_leaf(t[0]);
            } else {
                draft.push_payoff(t);
            }
        } else {
            draft.push_interior(kind);
            draft.set_children(draft.len() - 1, n as u32);
        }
        if let Some(p) = prob {
            draft.prob_last(p);
        }
        if let Some(l) = label.or_else(|| (line.name != NONE).then(|| tables.name(line.name))) {
            draft.label_last(l);
        }
        if n > 0 {
            stack.push((line.set, 0));
        }
        while stack
            .last()
            .is_some_and(|&(set, next)| next == tables.sets[set as usize].len)
        {
            stack.pop();
        }
    }
    draft
        .validated()
        .map_err(|e| invalid_to_diagnostic(lx, &spans, e))
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
        assert_eq!(o.number_of(0), 2000);
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
        let t = read(ZERO_SUM).unwrap_or_else(|e| panic!("{}", e.render(false)));
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
        let back =
            read(&write(&t)).unwrap_or_else(|e| panic!("{}\n{}", e.render(false), write(&t)));
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
}
