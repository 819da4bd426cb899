//! Judging a trace by the rules of the algorithm its header claims.
//!
//! The events are walked with a stack of open nodes, every number turned to Max's point of
//! view first ([`Values`]), so one set of rules serves both conventions; what a departure
//! says is turned back into the engine's. The rules are those of docs/PROTOCOL.md: paths
//! nest as calls do; alpha-beta's child windows come from the parent's window and its
//! running value (Knuth & Moore's F2, negated and swapped in negamax form); a cutoff is due
//! when the running value reaches β (α at Min) and is then taken; an exit returns what the
//! algorithm computes from its children (F2: `max(α, best)`, fail-soft: `best`, minimax:
//! `best`, exact) with the bound its place in the window says; a table hit is judged by the
//! entry the trace itself stored (`check/table.rs`); PVS's null windows and re-searches and MTD(f)'s
//! passes have their own rules (`check/scout.rs`, `check/mtdf.rs`).

mod mtdf;
mod scout;
mod table;

use super::{Bound, Claim, Event, Line, Move, Path, Selective, Side, Trace, Values, path_text};
use mtdf::Passes;
use scout::Search;
use table::{Hit, Position, Table};

/// Where an engine first left the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Departure {
    /// The node.
    pub path: Path,
    /// What the engine did, in its own convention.
    pub did: String,
    /// What the rule requires.
    pub requires: String,
    /// The lines (from 1) of the events that prove it, in order; the last is where it shows.
    pub lines: Vec<usize>,
}

impl Departure {
    /// The line where the departure shows.
    pub fn at(&self) -> usize {
        self.lines.last().copied().unwrap_or(0)
    }
}

/// What the walk found: the first departure, and the search as rebuilt from the events.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The first departure from the rules, if any.
    pub departure: Option<Departure>,
    /// The root's last returned value (Max's point of view) and bound (MTD(f)'s: exact once
    /// its passes' bounds meet).
    pub root: Option<(f64, Bound)>,
    /// Interior nodes entered, in order (a re-search enters again).
    pub entered: Vec<Path>,
    /// Leaves evaluated, in order.
    pub leaves: Vec<Path>,
    /// Every exit: the node, its value from Max's point of view, its bound.
    pub exits: Vec<(Path, f64, Bound)>,
    /// Every cutoff: the node, how many of its children it had searched in that visit, and
    /// the child after which it cut.
    pub cutoffs: Vec<(Path, usize, Move)>,
    /// Every table hit: the node, and whether it answered the node (not searched).
    pub tt_hits: Vec<(Path, bool)>,
    /// Nodes entered again in one visit of their parent (or the root again): re-searches.
    pub researches: usize,
}

/// A best child value so far (Max's point of view) and the line of its return.
type Best = (f64, usize);

/// An open node.
struct Frame {
    path: Path,
    side: Side,
    /// The entry window, from Max's point of view.
    alpha: f64,
    beta: f64,
    enter_line: usize,
    /// The remaining depth, when the engine says.
    depth: Option<i32>,
    /// The selective step the engine declared at this node, if any.
    selective: Option<Selective>,
    /// Whether it is a quiescence node or below one: its static evaluation may stand for the
    /// moves it does not search.
    quiescence: bool,
    /// A reduced child's return, held until the next event shows whether the child is
    /// searched again at full depth (whose value then replaces it): its move, value (Max's
    /// point of view) and line.
    provisional: Option<(Move, f64, usize)>,
    /// The position, under which its exit is stored for later table hits.
    position: Position,
    /// The best child value so far (Max: the largest; Min: the smallest), and its line.
    best: Option<(f64, usize)>,
    /// The children returned in this visit, in order, with the line of each return.
    children: Vec<(Move, usize)>,
    cut: Option<usize>,
    /// PVS: whether its children after the first get a null window (not below an alpha-beta
    /// re-search of `pvs-ab`).
    scout: bool,
    /// The child arriving now, how it is searched, and the running value before it.
    arriving: Option<(Move, Search, f64)>,
    /// PVS: a child whose null-window search returned inside the window, the line of that
    /// return, and whether it is a leaf (whose re-search is optional: a leaf's value is exact).
    research_due: Option<(Move, usize, bool, Option<Best>)>,
    /// PVS: the best child value before the null-window search now searched again. The
    /// re-search's value replaces the null-window search's (Figure 2 assigns it), which
    /// matters where selective steps make the two disagree (search instability).
    before_scout: Option<Option<Best>>,
}

impl Frame {
    /// The running window end the children get: F2's `m` (α raised by the children at Max,
    /// β lowered at Min).
    fn running(&self) -> f64 {
        match (self.side, self.best) {
            (Side::Max, Some((b, _))) => self.alpha.max(b),
            (Side::Min, Some((b, _))) => self.beta.min(b),
            (Side::Max, None) => self.alpha,
            (Side::Min, None) => self.beta,
        }
    }

    /// The window's end a cutoff reaches (β at Max, α at Min), from Max's point of view.
    fn far(&self) -> f64 {
        match self.side {
            Side::Max => self.beta,
            Side::Min => self.alpha,
        }
    }

    /// Whether `v` (Max's point of view) reaches the far end of the window.
    fn reaches(&self, v: f64) -> bool {
        match self.side {
            Side::Max => v >= self.beta,
            Side::Min => v <= self.alpha,
        }
    }

    /// Whether the running value has reached the far end of the window.
    fn cut_due(&self) -> bool {
        match (self.side, self.best) {
            (Side::Max, Some((b, _))) => b >= self.beta,
            (Side::Min, Some((b, _))) => b <= self.alpha,
            _ => false,
        }
    }

    /// The window a child gets, from Max's point of view.
    fn child_window(&self) -> (f64, f64) {
        match self.side {
            Side::Max => (self.running(), self.beta),
            Side::Min => (self.alpha, self.running()),
        }
    }
}

struct Walk<'t> {
    trace: &'t Trace,
    claim: Claim,
    stack: Vec<Frame>,
    /// A table hit waiting to see whether its node is entered next.
    pending: Option<Hit>,
    /// A table hit whose node is being entered: its entry may narrow the window.
    narrowing: Option<Hit>,
    /// Every exit so far, by position: the entries a table can hold.
    table: Table,
    /// MTD(f): its passes at the root, and the memory its searches keep.
    passes: Passes,
    /// Whether the root has been searched since the last iteration began.
    root_done: bool,
    report: Report,
}

/// Walks `trace`, applying its claim's rules.
pub fn check(trace: &Trace) -> Report {
    let claim = trace.header.claim;
    let mut walk = Walk {
        trace,
        claim,
        stack: Vec::new(),
        pending: None,
        narrowing: None,
        table: Table::default(),
        passes: Passes::default(),
        root_done: false,
        report: Report::default(),
    };
    for line in &trace.lines {
        if let Err(d) = walk.step(line) {
            walk.report.departure = Some(*d);
            return walk.report;
        }
    }
    if let Err(d) = walk.finish() {
        walk.report.departure = Some(*d);
    }
    walk.report
}

type Step = Result<(), Box<Departure>>;

fn departure(path: &[Move], did: String, requires: String, lines: Vec<usize>) -> Box<Departure> {
    Box::new(Departure {
        path: path.to_vec(),
        did,
        requires,
        lines,
    })
}

/// Whether `(a, b)` is a null window: one unit wide, or one floating-point step — a few
/// units in the last place, as a step written in decimal reads back.
pub(crate) fn is_null((a, b): (f64, f64)) -> bool {
    // An infinite end is never a step away (and would make the step itself infinite).
    if !a.is_finite() || !b.is_finite() {
        return false;
    }
    let ulp = f64::EPSILON * a.abs().max(b.abs()).max(f64::MIN_POSITIVE);
    b > a && (b - a == 1.0 || b - a <= 4.0 * ulp)
}

/// A number as people read it: ±∞ as `−∞`/`+∞`.
pub fn num(x: f64) -> String {
    if x == f64::INFINITY {
        "+∞".into()
    } else if x == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        crate::text::number_text(x)
    }
}

fn window_text((a, b): (f64, f64)) -> String {
    format!("({}, {})", num(a), num(b))
}

impl Walk<'_> {
    fn values(&self) -> Values {
        self.trace.header.values
    }

    /// The cutoff test in the engine's terms: always `≥ β` in negamax form; `≤ α` at a Min
    /// node in minimax form.
    fn reach_test(&self, side: Side) -> &'static str {
        if self.values() == Values::Minimax && side == Side::Min {
            "≤ α"
        } else {
            "≥ β"
        }
    }

    /// A value from the engine's convention at a node of `side` to Max's, and back (the same
    /// map: a negation at Min in negamax form).
    fn conv(&self, side: Side, v: f64) -> f64 {
        self.values().to_max(side, v)
    }

    fn conv_window(&self, side: Side, w: (f64, f64)) -> (f64, f64) {
        self.values().window_to_max(side, w)
    }

    fn conv_bound(&self, side: Side, b: Bound) -> Bound {
        self.values().bound_to_max(side, b)
    }

    fn step(&mut self, line: &Line) -> Step {
        // A table hit whose node is not entered next answered the node.
        if let Some(hit) = self.pending.take() {
            let entered = match &line.event {
                Event::Enter {
                    path,
                    alpha,
                    beta,
                    player,
                    ..
                } if *path == hit.path => {
                    let side = player.unwrap_or(hit.side);
                    let window = self.conv_window(side, (*alpha, *beta));
                    !self.answer_then_search(&hit, window)
                }
                _ => false,
            };
            if entered {
                self.report.tt_hits.push((hit.path.clone(), false));
                self.narrowing = Some(hit);
            } else {
                self.answered(hit)?;
            }
        }
        let n = line.number;
        match &line.event {
            Event::Iteration { .. } => {
                if let Some(f) = self.stack.last() {
                    return Err(departure(
                        &f.path,
                        format!("begins an iteration with {} still open", path_text(&f.path)),
                        "an iteration begins a new search from the root, after every node of the last one is left".into(),
                        vec![f.enter_line, n],
                    ));
                }
                self.passes_met(n)?;
                self.root_done = false;
                Ok(())
            }
            Event::Enter {
                path,
                alpha,
                beta,
                player,
                depth,
                key,
                selective,
                stand_pat,
            } => {
                let position = Position::of(path, key.as_deref());
                self.enter(
                    n,
                    path,
                    (*alpha, *beta),
                    *player,
                    (*depth, position),
                    (*selective, *stand_pat),
                )
            }
            Event::Leaf {
                path,
                value,
                depth,
                key,
                selective,
            } => {
                self.child_arrives(n, path, "evaluates")?;
                match self.stack.last() {
                    Some(f) => {
                        let v = self.conv(f.side.other(), *value);
                        let depth = depth.or_else(|| Some(f.depth? - 1));
                        self.table.store_leaf(
                            path,
                            key.as_deref(),
                            depth,
                            n,
                            (*value, Bound::Exact),
                        );
                        self.report.leaves.push(path.clone());
                        self.passes.learn_leaf(self.claim, f, path, v);
                        self.returned(v, n, path.last(), true, *selective);
                    }
                    None => {
                        self.report.leaves.push(path.clone());
                        self.report.root = Some((self.conv(Side::Max, *value), Bound::Exact));
                        self.root_done = true;
                    }
                }
                Ok(())
            }
            Event::TtHit {
                path,
                value,
                bound,
                depth,
                key,
            } => {
                self.child_arrives(n, path, "looks up")?;
                let hit = self.look_up(n, path, (*value, *bound), *depth, key.as_deref())?;
                self.pending = Some(hit);
                Ok(())
            }
            Event::Cutoff { path, after } => self.cutoff(n, path, after),
            Event::Exit { path, value, bound } => self.exit(n, path, *value, *bound),
        }
    }

    /// The checks every child arrival shares (an enter, a leaf, a table hit): the path is a
    /// child of the open node (or the root when none is open), not after a cutoff, not when
    /// one is due, not twice in one visit under the rules.
    fn child_arrives(&mut self, n: usize, path: &Path, verb: &str) -> Step {
        let Some(f) = self.stack.last() else {
            if !path.is_empty() {
                return Err(departure(
                    path,
                    format!("{verb} {} with no node open", path_text(path)),
                    "a search starts at the root, path []".into(),
                    vec![n],
                ));
            }
            if self.root_done {
                self.report.researches += 1;
            }
            return self.root_arrives(n);
        };
        if path.len() != f.path.len() + 1 || !path.starts_with(&f.path) {
            return Err(departure(
                path,
                format!(
                    "{verb} {} while {} is open",
                    path_text(path),
                    path_text(&f.path)
                ),
                format!(
                    "a child of the open node {} (its path and one move more), or {}'s exit",
                    path_text(&f.path),
                    path_text(&f.path)
                ),
                vec![f.enter_line, n],
            ));
        }
        let m = &path[path.len() - 1];
        if let Some(cut) = f.cut {
            return Err(departure(
                path,
                format!(
                    "{verb} {} after {}'s cutoff",
                    path_text(path),
                    path_text(&f.path)
                ),
                "no child is searched after a cutoff: the node is left next".into(),
                vec![cut, n],
            ));
        }
        // A table hit's node entered next arrives once.
        if f.arriving.as_ref().is_some_and(|(a, _, _)| a == m) {
            return Ok(());
        }
        self.research_missed(f, Some(m), n)?;
        // A reduced child searched again (at full depth): its reduced value is set aside.
        let reduced_again = f.provisional.as_ref().is_some_and(|(p, _, _)| p == m);
        self.settle_provisional(Some(m));
        let Some(f) = self.stack.last() else {
            return Ok(());
        };
        let research = f.research_due.as_ref().is_some_and(|(d, ..)| d == m);
        let again = reduced_again || f.children.iter().any(|(c, _)| c == m);
        {
            if again && !research && !reduced_again {
                return Err(departure(
                    path,
                    format!("{verb} {} a second time", path_text(path)),
                    match self.claim {
                        Claim::Pvs | Claim::PvsAb => "PVS searches a child again only when its null-window search returned inside the window".to_owned(),
                        c => format!("{} searches each child once", c.name()),
                    },
                    vec![f.enter_line, n],
                ));
            }
            if self.claim != Claim::Minimax && f.cut_due() {
                let (best, line) = f.best.expect("a due cutoff has a best child");
                let end = if f.side == Side::Max { f.beta } else { f.alpha };
                return Err(departure(
                    &f.path,
                    format!(
                        "goes on to {} after its value reached {}",
                        path_text(path),
                        num(self.conv(f.side, best))
                    ),
                    format!(
                        "a cutoff: the value {} has reached the window's end {} ({} at a {} node)",
                        num(self.conv(f.side, best)),
                        num(self.conv(f.side, end)),
                        self.reach_test(f.side),
                        f.side.name()
                    ),
                    vec![f.enter_line, line, n],
                ));
            }
        }
        if again {
            self.report.researches += 1;
        }
        if *m != Move::Null {
            self.passes.know(self.claim, path);
        }
        let how = self.search_of(f, research);
        if let Some(f) = self.stack.last_mut() {
            f.arriving = Some((m.clone(), how, f.running()));
            if research {
                f.before_scout = f.research_due.as_ref().map(|d| d.3);
            }
            f.research_due = None;
        }
        Ok(())
    }

    fn enter(
        &mut self,
        n: usize,
        path: &Path,
        window: (f64, f64),
        player: Option<Side>,
        (depth, position): (Option<i32>, Position),
        (selective, stand_pat): (Option<Selective>, Option<f64>),
    ) -> Step {
        self.child_arrives(n, path, "enters")?;
        let narrowing = self.narrowing.take().filter(|h| h.path == *path);
        let side = match (player, self.stack.last()) {
            (Some(p), _) => p,
            (None, Some(f)) => f.side.other(),
            (None, None) => Side::Max,
        };
        let (alpha, beta) = self.conv_window(side, window);
        let windowed = self.claim != Claim::Minimax;
        if path.is_empty() {
            self.pass_window(n, (alpha, beta), window)?;
        }
        let null_move = path.last() == Some(&Move::Null);
        if null_move {
            self.null_move_window(n, path, (alpha, beta), window)?;
        }
        // A reduced search may scout with a null window at the running value, as late-move
        // reductions do, whatever the claim.
        let reduced_scout = selective == Some(Selective::Reduced)
            && self.stack.last().is_some_and(|f| {
                let m = f.running();
                is_null((alpha, beta))
                    && match f.side {
                        Side::Max => alpha == m,
                        Side::Min => beta == m,
                    }
            });
        if let (Some(f), true, false, false) =
            (self.stack.last(), windowed, null_move, reduced_scout)
        {
            let want = self.window_wanted(f);
            let fits = self.window_fits(f, (alpha, beta));
            let narrowed = narrowing.as_ref().and_then(|h| h.narrowed(want));
            if !fits && narrowed == Some((alpha, beta)) {
                if let Some(h) = &narrowing {
                    self.deep_enough(h, "narrows the window of")?;
                }
            } else if !fits {
                let mut lines = vec![f.enter_line];
                lines.extend(f.children.last().map(|&(_, l)| l));
                lines.push(n);
                let given = self.conv_window(side, want);
                if let Some(why) = self.null_reason(f, given) {
                    return Err(departure(
                        path,
                        format!(
                            "enters {} with the window {}",
                            path_text(path),
                            window_text(window)
                        ),
                        why,
                        lines,
                    ));
                }
                return Err(departure(
                    path,
                    format!(
                        "enters {} with the window {}",
                        path_text(path),
                        window_text(window)
                    ),
                    format!(
                        "the window {}: its parent {}'s {} {}{}",
                        window_text(given),
                        path_text(&f.path),
                        window_text(self.conv_window(f.side, (f.alpha, f.beta))),
                        if f.best.is_some() {
                            "with the running value "
                        } else {
                            "as it was entered"
                        },
                        f.best
                            .map_or(String::new(), |_| num(self.conv(f.side, f.running())))
                            + if self.values() == Values::Negamax && side != f.side {
                                ", negated and swapped"
                            } else {
                                ""
                            }
                    ),
                    lines,
                ));
            }
        }
        self.report.entered.push(path.clone());
        let scout = self.scouts_below(self.stack.last());
        let quiescence = selective == Some(Selective::Quiescence)
            || self.stack.last().is_some_and(|f| f.quiescence);
        let best = match stand_pat {
            Some(_) if !quiescence => {
                return Err(departure(
                    path,
                    format!("stands pat at {}", path_text(path)),
                    "a static evaluation (`stand_pat`) stands for unsearched moves only in a quiescence search: declare the node \"selective\":\"quiescence\"".into(),
                    vec![n],
                ));
            }
            Some(sp) => Some((self.conv(side, sp), n)),
            None => None,
        };
        self.stack.push(Frame {
            path: path.clone(),
            side,
            alpha,
            beta,
            enter_line: n,
            depth,
            selective,
            quiescence,
            provisional: None,
            position,
            best,
            children: Vec::new(),
            cut: None,
            scout,
            arriving: None,
            research_due: None,
            before_scout: None,
        });
        Ok(())
    }

    /// A child of the open node (a leaf or not) returned `v` (Max's point of view) on line
    /// `n`; `selective`: the step the engine declared at the child.
    ///
    /// Two declared steps return otherwise. A reduced child's value waits: searched again at
    /// full depth next, the new search's value replaces it (late-move reductions). A null
    /// move's value counts only when it reaches the window's end, where the node may cut off
    /// on it; a null move that fails is not a move, and the node goes on as if it had not
    /// been tried.
    fn returned(
        &mut self,
        v: f64,
        n: usize,
        m: Option<&Move>,
        leaf: bool,
        selective: Option<Selective>,
    ) {
        let Some(f) = self.stack.last_mut() else {
            return;
        };
        if m == Some(&Move::Null) {
            f.arriving = None;
            if f.reaches(v) {
                Self::count_return(f, v, n, Some(&Move::Null));
            }
            return;
        }
        if let (Some(m), Some(Selective::Reduced)) = (m, selective) {
            f.arriving = None;
            f.provisional = Some((m.clone(), v, n));
            return;
        }
        if matches!(f.arriving, Some((_, scout::Search::Again, _))) {
            if let Some(before) = f.before_scout.take() {
                f.best = before;
            }
        }
        scout::returned(f, v, n, leaf);
        Self::count_return(f, v, n, m);
    }

    /// A return that stands: the running value and the children searched.
    fn count_return(f: &mut Frame, v: f64, n: usize, m: Option<&Move>) {
        let better = match (f.side, f.best) {
            (_, None) => true,
            (Side::Max, Some((b, _))) => v > b,
            (Side::Min, Some((b, _))) => v < b,
        };
        if better {
            f.best = Some((v, n));
        }
        if let Some(m) = m {
            f.children.push((m.clone(), n));
        }
    }

    /// A table hit that answered its node: the node returns the entry's value, which must
    /// settle the node's window ([`Walk::settles`]) and come from a search as deep.
    fn answered(&mut self, hit: Hit) -> Step {
        self.settles(&hit)?;
        self.deep_enough(&hit, "answers")?;
        self.report.tt_hits.push((hit.path.clone(), true));
        let v = self.conv(hit.side, hit.value);
        match self.stack.last() {
            // An exact entry is the node's value: like a leaf's, its re-search may be left out.
            Some(_) => {
                let exact = hit.max.1 == Bound::Exact;
                self.returned(v, hit.line, hit.path.last(), exact, None)
            }
            None => {
                self.report.root = Some((v, Bound::Exact));
                self.root_done = true;
            }
        }
        Ok(())
    }

    fn cutoff(&mut self, n: usize, path: &Path, after: &Move) -> Step {
        let Some(f) = self.stack.last() else {
            return Err(departure(
                path,
                "cuts off with no node open".into(),
                "a cutoff at the open node".into(),
                vec![n],
            ));
        };
        if *path != f.path {
            return Err(departure(
                path,
                format!(
                    "cuts off at {} while {} is open",
                    path_text(path),
                    path_text(&f.path)
                ),
                format!("a cutoff names the open node, {}", path_text(&f.path)),
                vec![f.enter_line, n],
            ));
        }
        self.research_missed(f, None, n)?;
        self.settle_provisional(None);
        let Some(f) = self.stack.last() else {
            return Ok(());
        };
        if self.silent_cutter(f, after) {
            self.answer_silently(n, after)?;
        }
        let Some(f) = self.stack.last() else {
            return Ok(());
        };
        let Some((last, last_line)) = f.children.last() else {
            return Err(departure(
                path,
                "cuts off before any child returned".into(),
                "a cutoff after a child's value".into(),
                vec![f.enter_line, n],
            ));
        };
        if last != after {
            return Err(departure(
                path,
                format!("cuts off after {after}"),
                format!("a cutoff after the child that just returned, {last}"),
                vec![*last_line, n],
            ));
        }
        {
            if self.claim == Claim::Minimax {
                return Err(departure(
                    path,
                    format!("cuts off after {after}"),
                    "minimax searches every child: it never cuts off".into(),
                    vec![n],
                ));
            }
            if !f.cut_due() {
                let (best, line) = f.best.expect("a child returned");
                let end = match f.side {
                    Side::Max => f.beta,
                    Side::Min => f.alpha,
                };
                return Err(departure(
                    path,
                    format!(
                        "cuts off after {after} with the value {}",
                        num(self.conv(f.side, best))
                    ),
                    format!(
                        "a cutoff only when the value reaches the window's end ({}): {} is not {} {}",
                        self.reach_test(f.side),
                        num(self.conv(f.side, best)),
                        self.reach_test(f.side).split(' ').next().unwrap_or("≥"),
                        num(self.conv(f.side, end)),
                    ),
                    vec![f.enter_line, line, n],
                ));
            }
        }
        let searched = f.children.len();
        self.report
            .cutoffs
            .push((path.clone(), searched, after.clone()));
        if let Some(f) = self.stack.last_mut() {
            f.cut = Some(n);
        }
        Ok(())
    }

    fn exit(&mut self, n: usize, path: &Path, value: f64, bound: Bound) -> Step {
        let Some(f) = self.stack.last() else {
            return Err(departure(
                path,
                format!("leaves {} with no node open", path_text(path)),
                "an exit of the node last entered".into(),
                vec![n],
            ));
        };
        if *path != f.path {
            return Err(departure(
                path,
                format!(
                    "leaves {} while {} is open",
                    path_text(path),
                    path_text(&f.path)
                ),
                format!(
                    "{}'s exit first: nodes are left in the reverse order of their entry",
                    path_text(&f.path)
                ),
                vec![f.enter_line, n],
            ));
        }
        self.research_missed(f, None, n)?;
        self.settle_provisional(None);
        let Some(f) = self.stack.last() else {
            return Ok(());
        };
        for m in self.silent_children(f) {
            self.answer_silently(n, &m)?;
        }
        let Some(f) = self.stack.last() else {
            return Ok(());
        };
        let v = self.conv(f.side, value);
        let b = self.conv_bound(f.side, bound);
        self.exit_rule(self.claim, f, n, v, b, (value, bound))?;
        self.table.store(f, n, (value, bound));
        self.passes.learn(self.claim, f, v);
        let selective = f.selective;
        self.stack.pop();
        self.report.exits.push((path.clone(), v, b));
        if self.stack.is_empty() {
            self.report.root = Some((v, b));
            self.root_done = true;
            self.pass_ends(n, v)?;
        } else {
            self.returned(v, n, path.last(), false, selective);
        }
        Ok(())
    }

    /// The value and bound `claim` returns at `f`, against the engine's.
    fn exit_rule(
        &self,
        claim: Claim,
        f: &Frame,
        n: usize,
        v: f64,
        b: Bound,
        (value, bound): (f64, Bound),
    ) -> Step {
        let Some((best, best_line)) = f.best else {
            return Err(departure(
                &f.path,
                format!("leaves {} without searching a child", path_text(&f.path)),
                "an interior node returns what its children return: at least one is searched"
                    .into(),
                vec![f.enter_line, n],
            ));
        };
        let clamped = match f.side {
            Side::Max => f.alpha.max(best),
            Side::Min => f.beta.min(best),
        };
        // F2 returns the child's value that reached β; an engine that returns β itself at a
        // cutoff (a common fail-hard form) is accepted too.
        let far = match f.side {
            Side::Max => f.beta,
            Side::Min => f.alpha,
        };
        let (allowed, rule): (Vec<f64>, String) = match claim {
            Claim::Minimax => (
                vec![best],
                format!("the best child's value, {}", num(self.conv(f.side, best))),
            ),
            Claim::FailSoft | Claim::Mtdf => (
                vec![best],
                format!(
                    "fail-soft returns the best child's value, {}",
                    num(self.conv(f.side, best))
                ),
            ),
            Claim::Pvs | Claim::PvsAb => {
                let mut allowed = vec![clamped, best];
                if f.cut.is_some() {
                    allowed.push(far);
                }
                (
                    allowed,
                    format!(
                        "PVS returns the best child's value, {} (fail-soft), or that value clamped to the window, {} (fail-hard)",
                        num(self.conv(f.side, best)),
                        num(self.conv(f.side, clamped))
                    ),
                )
            }
            _ => {
                // In negamax form every node maximises its own value.
                let formula = if self.reach_test(f.side) == "≥ β" {
                    "max(α"
                } else {
                    "min(β"
                };
                let mut allowed = vec![clamped];
                if f.cut.is_some() {
                    allowed.push(far);
                }
                (
                    allowed,
                    format!(
                        "fail-hard returns {formula}, best child) = {}{}",
                        num(self.conv(f.side, clamped)),
                        if f.cut.is_some() {
                            format!(" (or {} itself at its cutoff)", num(self.conv(f.side, far)))
                        } else {
                            String::new()
                        }
                    ),
                )
            }
        };
        let mut lines = vec![f.enter_line, best_line];
        lines.extend(f.cut);
        lines.push(n);
        lines.dedup();
        if !allowed.contains(&v) {
            return Err(departure(
                &f.path,
                format!(
                    "returns {} ({})",
                    num(value),
                    super::write::bound_name(bound)
                ),
                rule,
                lines,
            ));
        }
        let want = match claim {
            Claim::Minimax => Bound::Exact,
            _ => Bound::classify(v, f.alpha, f.beta),
        };
        if want != b {
            let shown = self.conv_bound(f.side, want);
            return Err(departure(
                &f.path,
                format!(
                    "returns {} as {}",
                    num(value),
                    super::write::bound_name(bound)
                ),
                format!(
                    "{}: {} for the window {} (≤ α upper, ≥ β lower, else exact)",
                    super::write::bound_name(shown),
                    num(value),
                    window_text(self.conv_window(f.side, (f.alpha, f.beta)))
                ),
                lines,
            ));
        }
        Ok(())
    }

    /// The open node's reduced child waiting to be settled: set aside when `next` is that
    /// child searched again, else its value stands.
    fn settle_provisional(&mut self, next: Option<&Move>) {
        let Some(f) = self.stack.last_mut() else {
            return;
        };
        if let Some((m, v, line)) = f.provisional.take() {
            if next != Some(&m) {
                Self::count_return(f, v, line, Some(&m));
            }
        }
    }

    /// A null move's search tests whether the node reaches the end of its window without a
    /// move of its own: its window must end where the node's does (β at Max, α at Min; a null
    /// window there is usual).
    fn null_move_window(
        &self,
        n: usize,
        path: &Path,
        (alpha, beta): (f64, f64),
        written: (f64, f64),
    ) -> Step {
        let Some(f) = self.stack.last() else {
            return Err(departure(
                path,
                "makes a null move with no node open".into(),
                "a null move is made at an open node".into(),
                vec![n],
            ));
        };
        if self.claim == Claim::Minimax {
            return Err(departure(
                path,
                format!("searches a null move at {}", path_text(&f.path)),
                "minimax searches every move and no other: null-move pruning needs a window".into(),
                vec![f.enter_line, n],
            ));
        }
        let ok = match f.side {
            Side::Max => beta == f.beta,
            Side::Min => alpha == f.alpha,
        };
        if ok {
            return Ok(());
        }
        let end = self.conv(f.side, f.far());
        Err(departure(
            path,
            format!(
                "searches the null move with the window {}",
                window_text(written)
            ),
            format!(
                "a null-move search tests whether {} reaches the end of its window, {}, without moving: its window ends there",
                path_text(&f.path),
                num(end)
            ),
            vec![f.enter_line, n],
        ))
    }

    fn finish(&mut self) -> Step {
        if let Some(hit) = self.pending.take() {
            self.answered(hit)?;
        }
        let last = self.trace.lines.last().map_or(0, |l| l.number);
        if self.stack.is_empty() {
            self.passes_met(last)?;
        }
        if let Some(f) = self.stack.last() {
            return Err(departure(
                &f.path,
                format!("ends the trace with {} open", path_text(&f.path)),
                "every node entered is left: an exit for each enter".into(),
                vec![f.enter_line],
            ));
        }
        if !self.root_done {
            return Err(departure(
                &[],
                "searches nothing".into(),
                "a search of the root".into(),
                vec![],
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    //! The classic bugs of a negamax engine, each caught at its node, on Max to move with
    //! `a` = (3, 5) and `b` = (3, 9) below, both Min: `b`'s first leaf ties α.

    use std::sync::Arc;

    use super::*;
    use crate::protocol::read;

    const HEADER: &str = r#"{"protocol":"prune-trace","version":1,"engine":"t","algorithm":"negamax-fail-hard","values":"negamax"}"#;

    /// The correct search, with `b`'s entry and its events after the first leaf replaced.
    fn trace(b_enter: &str, b_rest: &str) -> Report {
        let text = format!(
            "{HEADER}\n{}\n{}\n{}\n{}\n{}\n{b_enter}\n{}\n{b_rest}{}\n",
            r#"{"event":"enter","path":[],"alpha":null,"beta":null}"#,
            r#"{"event":"enter","path":["a"],"alpha":null,"beta":null}"#,
            r#"{"event":"leaf","path":["a",0],"value":3}"#,
            r#"{"event":"leaf","path":["a",1],"value":5}"#,
            r#"{"event":"exit","path":["a"],"value":-3,"bound":"exact"}"#,
            r#"{"event":"leaf","path":["b",0],"value":3}"#,
            r#"{"event":"exit","path":[],"value":3,"bound":"exact"}"#,
        );
        check(&read::parse("t.jsonl", &Arc::from(text.as_str())).expect("trace"))
    }

    const B_ENTER: &str = r#"{"event":"enter","path":["b"],"alpha":null,"beta":-3}"#;
    const B_CUT: &str = concat!(
        r#"{"event":"cutoff","path":["b"],"after":0}"#,
        "\n",
        r#"{"event":"exit","path":["b"],"value":-3,"bound":"lower"}"#,
        "\n"
    );

    #[test]
    fn the_correct_engine_is_consistent() {
        let r = trace(B_ENTER, B_CUT);
        assert_eq!(r.departure, None);
        assert_eq!(r.root, Some((3.0, Bound::Exact)));
    }

    #[test]
    fn classic_bugs_are_caught_at_their_node() {
        let b = vec![Move::Label("b".into())];
        // The window not negated.
        let d = trace(
            r#"{"event":"enter","path":["b"],"alpha":3,"beta":null}"#,
            B_CUT,
        )
        .departure
        .expect("departure");
        assert_eq!((d.path.clone(), d.at()), (b.clone(), 7), "{d:?}");
        assert!(d.requires.starts_with("the window (−∞, -3)"), "{d:?}");
        // Alpha not raised after a better child.
        let d = trace(
            r#"{"event":"enter","path":["b"],"alpha":null,"beta":null}"#,
            B_CUT,
        )
        .departure
        .expect("departure");
        assert_eq!(d.path, b);
        // `>` for `≥`: the tie with β does not cut, and the next leaf is searched.
        let d = trace(
            B_ENTER,
            concat!(
                r#"{"event":"leaf","path":["b",1],"value":9}"#,
                "\n",
                r#"{"event":"exit","path":["b"],"value":-3,"bound":"lower"}"#,
                "\n"
            ),
        )
        .departure
        .expect("departure");
        assert_eq!((d.path.clone(), d.at()), (b.clone(), 9), "{d:?}");
        assert!(d.did.contains("goes on to b › #2"), "{d:?}");
        // An exit that is neither F2's value nor β.
        let d = trace(
            B_ENTER,
            concat!(
                r#"{"event":"cutoff","path":["b"],"after":0}"#,
                "\n",
                r#"{"event":"exit","path":["b"],"value":-2,"bound":"lower"}"#,
                "\n"
            ),
        )
        .departure
        .expect("departure");
        assert_eq!((d.path.clone(), d.at()), (b, 10), "{d:?}");
        assert!(d.requires.contains("= -3"), "{d:?}");
    }

    /// In negamax form a table entry is the position's value for the side to move, whoever
    /// that is: an impartial game's key may leave the side out, and the entry stored where
    /// Min moved is read where Max moves with the same number. `x` below `b` is `a` again
    /// (key `k`), one ply deeper.
    #[test]
    fn a_negamax_entry_is_read_in_the_readers_frame() {
        let lines = [
            r#"{"event":"enter","path":[],"alpha":null,"beta":null}"#,
            r#"{"event":"enter","path":["a"],"alpha":null,"beta":null,"key":"k"}"#,
            r#"{"event":"leaf","path":["a",0],"value":3}"#,
            r#"{"event":"leaf","path":["a",1],"value":5}"#,
            r#"{"event":"exit","path":["a"],"value":-3,"bound":"exact"}"#,
            r#"{"event":"enter","path":["b"],"alpha":null,"beta":-3,"key":"kb"}"#,
            r#"{"event":"tt-hit","path":["b","x"],"value":-3,"bound":"exact","key":"k"}"#,
            r#"{"event":"cutoff","path":["b"],"after":"x"}"#,
            r#"{"event":"exit","path":["b"],"value":3,"bound":"lower"}"#,
            r#"{"event":"exit","path":[],"value":3,"bound":"exact"}"#,
        ];
        let text = format!("{HEADER}\n{}\n", lines.join("\n"));
        let r = check(&read::parse("t.jsonl", &Arc::from(text.as_str())).expect("trace"));
        assert_eq!(r.departure, None);
        assert_eq!(r.root, Some((3.0, Bound::Exact)));
        // Read with the storing node's sign, the entry would say b's child is worth −3 to
        // b's mover, and b could not cut off: the exit 3 is only right in the reader's frame.
        let wrong = text.replace(
            r#""path":["b"],"value":3,"bound":"lower""#,
            r#""path":["b"],"value":-3,"bound":"exact""#,
        );
        let r = check(&read::parse("t.jsonl", &Arc::from(wrong.as_str())).expect("trace"));
        assert_eq!(
            r.departure.map(|d| d.path),
            Some(vec![Move::Label("b".into())])
        );
    }

    fn judged(lines: &[&str]) -> Report {
        let text = format!("{HEADER}\n{}\n", lines.join("\n"));
        check(&read::parse("t.jsonl", &Arc::from(text.as_str())).expect("trace"))
    }

    /// `b` cut off by its null move: the pass searched with a window at β, its value
    /// reaching β; at the wrong window, or counted though it failed, it departs.
    #[test]
    fn a_null_move_is_judged_by_its_window_and_counts_only_when_it_cuts() {
        let cut = [
            r#"{"event":"enter","path":[],"alpha":null,"beta":null}"#,
            r#"{"event":"leaf","path":["a"],"value":-3}"#,
            r#"{"event":"enter","path":["b"],"alpha":null,"beta":-3}"#,
            r#"{"event":"leaf","path":["b",null],"value":4,"selective":"null-move"}"#,
            r#"{"event":"enter","path":["b",null],"alpha":3,"beta":4,"selective":"null-move"}"#,
            r#"{"event":"leaf","path":["b",null,0],"value":-3}"#,
            r#"{"event":"exit","path":["b",null],"value":3,"bound":"upper"}"#,
            r#"{"event":"cutoff","path":["b"],"after":null}"#,
            r#"{"event":"exit","path":["b"],"value":-3,"bound":"lower"}"#,
            r#"{"event":"exit","path":[],"value":3,"bound":"exact"}"#,
        ];
        // The leaf-level pass (no window) fails (−4 for b's mover, below β = −3), so it is not
        // a move; the second, with the window (3, 4) = (−β, −β + 1), returns at most 3: −3
        // for b's mover, which reaches β.
        let r = judged(&cut);
        assert_eq!(r.departure, None, "{r:?}");
        let mut wrong = cut;
        wrong[4] =
            r#"{"event":"enter","path":["b",null],"alpha":null,"beta":4,"selective":"null-move"}"#;
        let d = judged(&wrong).departure.expect("a departure");
        assert!(d.requires.starts_with("a null-move search tests"), "{d:?}");
        assert_eq!(d.at(), 6);
        // A failed pass is not a move: cutting off on it departs.
        let failed = [cut[0], cut[1], cut[2], cut[3], cut[7], cut[8], cut[9]];
        let d = judged(&failed).departure.expect("a departure");
        assert!(d.did.starts_with("cuts off"), "{d:?}");
    }

    /// A quiescence node stands pat: its static evaluation is its running value, a stand pat
    /// that reaches β must not go on to a capture; a stand pat elsewhere departs.
    #[test]
    fn a_stand_pat_counts_only_in_a_quiescence_search() {
        let q = [
            r#"{"event":"enter","path":[],"alpha":null,"beta":null}"#,
            r#"{"event":"leaf","path":["a"],"value":-3}"#,
            r#"{"event":"enter","path":["b"],"alpha":null,"beta":-3,"stand_pat":-2,"selective":"quiescence"}"#,
            r#"{"event":"exit","path":["b"],"value":-2,"bound":"lower"}"#,
            r#"{"event":"exit","path":[],"value":3,"bound":"exact"}"#,
        ];
        assert_eq!(judged(&q).departure, None);
        let mut on = q.to_vec();
        on.insert(3, r#"{"event":"leaf","path":["b",0],"value":7}"#);
        let d = judged(&on).departure.expect("a departure");
        assert!(d.did.starts_with("goes on to b › #1"), "{d:?}");
        let mut undeclared = q;
        undeclared[2] = r#"{"event":"enter","path":["b"],"alpha":null,"beta":-3,"stand_pat":-2}"#;
        let d = judged(&undeclared).departure.expect("a departure");
        assert!(d.did.starts_with("stands pat"), "{d:?}");
    }

    /// A reduced child searched again at full depth: the second value replaces the first,
    /// and searching it twice is no departure.
    #[test]
    fn a_reduced_child_may_be_searched_again_and_its_new_value_stands() {
        let lmr = [
            r#"{"event":"enter","path":[],"alpha":null,"beta":null}"#,
            r#"{"event":"leaf","path":["a"],"value":-3}"#,
            r#"{"event":"leaf","path":["b"],"value":-4,"selective":"reduced"}"#,
            r#"{"event":"enter","path":["b"],"alpha":null,"beta":-3}"#,
            r#"{"event":"leaf","path":["b",0],"value":5}"#,
            r#"{"event":"exit","path":["b"],"value":-5,"bound":"exact"}"#,
            r#"{"event":"exit","path":[],"value":5,"bound":"exact"}"#,
        ];
        let r = judged(&lmr);
        assert_eq!(r.departure, None, "{r:?}");
        // Without the declaration, b is searched twice.
        let mut plain = lmr;
        plain[2] = r#"{"event":"leaf","path":["b"],"value":-4}"#;
        let d = judged(&plain).departure.expect("a departure");
        assert!(d.did.contains("a second time"), "{d:?}");
    }
}
