//! The diagram view: the selected node's subtree drawn top-down as in the papers
//! ([`prune::draw`]'s text picture), for the current run at its step, in the outline's place.
//! At the `fit` zoom it is as deep as the panel is tall and never wider than the panel: what
//! does not fit is elided with its size. The wider zoom levels ([`Zoom`]) lay more of the
//! subtree out and show a window on it, panned by keys and following the step's node; the
//! panel's bottom line says which columns and rows are on screen. The selected run's principal
//! variation is marked as the outline marks it (not while practising): `┃` edges and bold
//! cards. Practising the question of the leaves never evaluated, the whole subtree is drawn,
//! the cursor's leaf in reverse video and the leaves marked so far with `✗` in place of their
//! status glyph. With differences on and two runs or more, the next run's diagram is drawn
//! below the current one's, and the cards that differ between the two (status, value or
//! window) are highlighted in both.

use std::ops::Range;

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::tui::app::{App, Hit};
use crate::tui::keymap::Action;
use crate::tui::theme::Theme;
use crate::tui::zoom::{DEEPEST, Drawn, PictureKey, Zoom};
use prune::draw::{self, At, Options, Picture, Placed, text};
use prune::tree::NodeId;
use prune::tree::names::node_name;

use super::style::{block, first_key, fit_line};

/// What a practice mark puts in place of a leaf's status glyph on the diagram.
pub const MARKED: char = '✗';

/// The deepest picture of `root`'s subtree that fits `w`×`h`.
pub fn fitted(app: &App, at: Option<&At>, w: usize, h: usize) -> Picture {
    let tree = app.tree();
    let root = app.selected();
    let mut opts = Options {
        root,
        depth: Some(0),
        width: w.max(1),
    };
    let mut best = draw::picture(tree, &app.doc().sizes, at, &opts);
    let height = app.tree().height() - tree.depth_of(root);
    for d in 1..=height.min(draw::MOST_LEVELS) {
        opts.depth = Some(d);
        let pic = draw::picture(tree, &app.doc().sizes, at, &opts);
        if pic.height() > h {
            break;
        }
        best = pic;
    }
    best
}

/// The picture at `zoom` for a window `w`×`h`: the fitted one, or one as wide as the level
/// allows and every level down to [`DEEPEST`].
fn zoomed(app: &App, at: Option<&At>, zoom: Zoom, w: usize, h: usize) -> Picture {
    if zoom == Zoom::Fit {
        return fitted(app, at, w, h);
    }
    let tree = app.tree();
    let root = app.selected();
    let opts = Options {
        root,
        depth: Some((tree.height() - tree.depth_of(root)).min(DEEPEST)),
        width: zoom.width(w.max(1)),
    };
    draw::picture(tree, &app.doc().sizes, at, &opts)
}

/// The zoom the diagram is drawn at: the user's, or the whole subtree while practising the
/// question of the leaves never evaluated (every leaf must be there to be marked).
pub fn zoom_in_force(app: &App) -> Zoom {
    match app.practice() {
        Some(p) if p.leaves_asked().is_some() => Zoom::Whole,
        _ => app.diagram_view().zoom,
    }
}

/// Draws the diagram (two with differences on) in `area`; returns where its cards went.
pub(super) fn draw_diagram(f: &mut Frame, app: &App, area: Rect) -> Hit {
    let n = app.runs().len();
    let runs: Vec<Option<usize>> = match n {
        0 => vec![None],
        _ if app.filters().differences && n > 1 => {
            let c = app.current().min(n - 1);
            vec![Some(c), Some((c + 1) % n)]
        }
        _ => vec![Some(app.current().min(n - 1))],
    };
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints(vec![Constraint::Ratio(1, runs.len() as u32); runs.len()])
        .split(area);
    let mut hit = Hit::default();
    for (i, (run, &r)) in runs.iter().zip(parts.iter()).enumerate() {
        let other = runs
            .get(1 - i.min(1))
            .copied()
            .flatten()
            .filter(|_| runs.len() > 1);
        hit.cards.extend(draw_one(f, app, *run, other, r, i == 0));
    }
    hit
}

/// A change to cells of the picture: `style` patched over `cols` of `row`, and `put` in
/// place of the character at `cols.start`.
struct Over {
    row: usize,
    cols: Range<usize>,
    style: Style,
    put: Option<char>,
}

/// Draws `run`'s diagram in `area`; with `other`, the cards that differ from that run's are
/// highlighted. The window follows the step's node when `leads` (the current run's diagram;
/// the other one shows the same columns). Returns where the cards went on screen.
fn draw_one(
    f: &mut Frame,
    app: &App,
    run: Option<usize>,
    other: Option<usize>,
    area: Rect,
    leads: bool,
) -> Vec<(NodeId, [u16; 4])> {
    let t = app.theme();
    let tree = app.tree();
    let root = app.selected();
    let at = run.map(|i| {
        let r = &app.runs()[i];
        At::with_index(tree, &r.run, &r.trace, &r.index, r.step)
    });
    let what = match &at {
        Some(a) => format!(
            "{}, step {}/{}",
            a.run.algorithm.label(),
            a.step,
            a.trace.len()
        ),
        None => "no run".into(),
    };
    let title = format!(
        " Diagram · {} · {what} · {} outline ",
        node_name(tree, root),
        first_key(app, Action::Diagram)
    );
    let inner = block(t, area, "").inner(area);
    let window = (usize::from(inner.width), usize::from(inner.height));
    let zoom = zoom_in_force(app);
    // The principal variation as the outline marks it: at every step, never while practising
    // (it would give the answers away).
    let pv = app.practice().is_none();
    let other_at = other.map(|i| {
        let r = &app.runs()[i];
        At::with_index(tree, &r.run, &r.trace, &r.index, r.step)
    });
    let of_run = |i: usize| {
        let r = &app.runs()[i];
        (r.serial, r.step)
    };
    let key = PictureKey {
        tree: PictureKey::of_tree(&app.doc().tree),
        root,
        zoom,
        // What of the window the picture depends on: all of it at `fit`, its width at `4×`.
        window: match zoom {
            Zoom::Fit => window,
            Zoom::Wide => (window.0, 0),
            Zoom::Whole => (0, 0),
        },
        run: run.map(of_run),
        other: other.map(of_run),
        pv,
    };
    let drawn = app.layout().diagram_cache.get(key, || {
        let mut pic = zoomed(app, at.as_ref(), zoom, window.0, window.1);
        if pv && let Some(a) = &at {
            for p in &mut pic.placed {
                p.pv = p.card.node.is_some_and(|n| a.run.pv.contains(&n));
            }
        }
        // The cards that differ from the other run's: status, value or window.
        let differs = match &other_at {
            Some(o) => pic
                .placed
                .iter()
                .map(|p| {
                    p.card.node.is_some_and(|id| {
                        let theirs = draw::card(tree, Some(o), id);
                        let mine = draw::card(tree, at.as_ref(), id);
                        (theirs.glyph, &theirs.lines) != (mine.glyph, &mine.lines)
                    })
                })
                .collect(),
            None => Vec::new(),
        };
        let lines = text::lines(&pic);
        Drawn {
            pic,
            lines,
            differs,
        }
    });
    let pic = &drawn.pic;
    // The legend of the principal variation's mark, in the title: the panel's rows are the
    // picture's.
    let title = if pic.has_pv_edge() {
        let long = format!("{title}· {} {} ", text::PV_EDGE, draw::PV_LEGEND);
        if long.width() + 2 <= usize::from(area.width) {
            long
        } else {
            format!("{title}· {} PV ", text::PV_EDGE)
        }
    } else {
        title
    };
    let mut overs: Vec<Over> = Vec::new();
    for p in &pic.placed {
        if p.pv {
            overs.extend(card_over(pic, p, t.pv_style()));
        }
    }
    for (p, _) in pic.placed.iter().zip(&drawn.differs).filter(|(_, d)| **d) {
        overs.extend(card_over(pic, p, t.difference_style()));
    }
    let focus = practice_overs(app, pic, &mut overs).or_else(|| at.as_ref()?.current());
    let focus = focus.filter(|_| leads).and_then(|id| {
        let p = pic.placed.iter().find(|p| p.card.node == Some(id))?;
        let top = pic.top(p.depth);
        Some((
            id,
            p.left..p.left + p.card.width(),
            top..top + p.card.height(),
        ))
    });
    let size = (pic.width, pic.height());
    let (x, y) = app.diagram_view().place(size, window, focus);
    let mut b = block(t, area, title);
    if let Some(hint) = window_hint(app, zoom, size, (x, y), window) {
        let hint = Line::from(Span::styled(hint, t.dim_style()));
        b = b.title_bottom(fit_line(hint, usize::from(area.width.saturating_sub(2))));
    }
    f.render_widget(b, area);
    let lines: Vec<Line> = drawn
        .lines
        .iter()
        .enumerate()
        .skip(y)
        .take(window.1)
        .map(|(row, l)| {
            let on_row: Vec<&Over> = overs.iter().filter(|o| o.row == row).collect();
            styled(t, l, x..x + window.0, &on_row)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
    on_screen(pic, (x, y), inner)
}

/// The cards of `pic` drawn in `inner` from its column and row `from`, cut to it.
fn on_screen(pic: &Picture, from: (usize, usize), inner: Rect) -> Vec<(NodeId, [u16; 4])> {
    let (w, h) = (usize::from(inner.width), usize::from(inner.height));
    pic.nodes()
        .filter_map(|(id, p)| {
            let top = pic.top(p.depth);
            let cols = p.left.max(from.0)..(p.left + p.card.width()).min(from.0 + w);
            let rows = top.max(from.1)..(top + p.card.height()).min(from.1 + h);
            // Within the window, each fits in a u16 as the panel does.
            let cell = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
            (!cols.is_empty() && !rows.is_empty()).then(|| {
                let at = [
                    inner.x + cell(cols.start - from.0),
                    inner.y + cell(rows.start - from.1),
                    cell(cols.len()),
                    cell(rows.len()),
                ];
                (id, at)
            })
        })
        .collect()
}

/// `style` over every cell of `p`'s card.
fn card_over(pic: &Picture, p: &Placed, style: Style) -> impl Iterator<Item = Over> {
    let top = pic.top(p.depth);
    let cols = p.left..p.left + p.card.width();
    (top..top + p.card.height()).map(move |row| Over {
        row,
        cols: cols.clone(),
        style,
        put: None,
    })
}

/// Practising the question of the leaves never evaluated: the cursor's card in reverse video
/// and `✗` on the leaves the answer names; the cursor's leaf, which the window follows.
fn practice_overs(app: &App, pic: &Picture, overs: &mut Vec<Over>) -> Option<NodeId> {
    let p = app.practice().filter(|p| p.leaves_asked().is_some())?;
    let tree = app.tree();
    let cursor = app.diagram_view().cursor_in(tree, app.selected());
    let marked = p.marked();
    for placed in &pic.placed {
        let Some(id) = placed.card.node.filter(|&n| tree.is_leaf(n)) else {
            continue;
        };
        if Some(id) == cursor {
            let reverse = Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD);
            overs.extend(card_over(pic, placed, reverse));
        }
        if marked.contains(&node_name(tree, id)) {
            overs.push(glyph_over(pic, placed, app.theme()));
        }
    }
    cursor
}

/// `✗` in place of the status glyph of `p`'s card (first on its head line, after `▶`).
fn glyph_over(pic: &Picture, p: &Placed, t: &Theme) -> Over {
    let c = &p.card;
    let head = usize::from(c.prob.is_some());
    let lw = c.text_lines().get(head).map_or(0, |l| l.width());
    let col = p.left + (c.width() - lw) / 2 + usize::from(c.current);
    Over {
        row: pic.top(p.depth) + head,
        cols: col..col + 1,
        style: t.fg(t.error).add_modifier(Modifier::BOLD),
        put: Some(MARKED),
    }
}

/// The panel's bottom line: the zoom level, the columns and rows on screen when the picture
/// is wider or taller than the window, and the keys that move it; nothing at `fit` when the
/// whole picture shows.
fn window_hint(
    app: &App,
    zoom: Zoom,
    (pw, ph): (usize, usize),
    (x, y): (usize, usize),
    (w, h): (usize, usize),
) -> Option<String> {
    let cut = pw > w || ph > h;
    if zoom == Zoom::Fit && !cut {
        return None;
    }
    let mut parts = vec![match app.practice() {
        // Practice takes the letters for the answer: the zoom key does not work there.
        Some(_) => format!("zoom: {}", zoom.name()),
        None => format!("{} zoom: {}", first_key(app, Action::Zoom), zoom.name()),
    }];
    if pw > w {
        parts.push(format!("columns {}–{} of {pw}", x + 1, (x + w).min(pw)));
    }
    if ph > h {
        parts.push(format!("rows {}–{} of {ph}", y + 1, (y + h).min(ph)));
    }
    if cut {
        parts.push(format!("{} pan", pan_keys(app)));
    }
    Some(format!(" {} ", parts.join(" · ")))
}

/// The pan keys, the last bound to each (the arrows, with the defaults — which practice leaves
/// to panning): `C-←→↑↓` when they share their modifier, else one after the other.
fn pan_keys(app: &App) -> String {
    let keys = [
        Action::PanLeft,
        Action::PanRight,
        Action::PanUp,
        Action::PanDown,
    ]
    .map(|a| {
        let keys = app.keymap().keys_for(a);
        keys.rsplit(' ').next().unwrap_or_default().to_owned()
    });
    let shared = ["C-", "M-"].into_iter().find(|m| {
        keys.iter().all(|k| {
            k.strip_prefix(m)
                .is_some_and(|rest| rest.chars().count() == 1)
        })
    });
    match shared {
        Some(m) => format!("{m}{}", keys.map(|k| k[m.len()..].to_owned()).concat()),
        None => keys.join(" "),
    }
}

/// The style of a character of the picture: status glyphs in their colours, lines in the
/// border's.
fn char_style(t: &Theme, c: char) -> Style {
    match c {
        '✂' => t.fg(t.pruned),
        '●' => t.fg(t.visited),
        '▸' => t.fg(t.open).add_modifier(Modifier::BOLD),
        '◆' => t.fg(t.probed),
        '↻' => t.fg(t.researched),
        '▶' => t.fg(t.accent).add_modifier(Modifier::BOLD),
        '┃' => t.pv_style(),
        '·' | '…' | '┆' => t.dim_style(),
        '─' | '│' | '┌' | '┐' | '└' | '┘' | '┬' | '┴' | '┼' | '├' | '┤' => {
            t.fg(t.border)
        }
        _ => t.fg(t.text),
    }
}

/// The columns `window` of a line of the picture, as spans of one style each, the changes in
/// `overs` made; a wide character cut by the window's edge shows as spaces.
fn styled(t: &Theme, line: &str, window: Range<usize>, overs: &[&Over]) -> Line<'static> {
    let mut spans: Vec<Span> = Vec::new();
    let mut run = String::new();
    let mut style = None;
    let mut col = 0;
    let mut push = |c: char, s: Style, spans: &mut Vec<Span>, run: &mut String| {
        if style.is_some_and(|st| st != s) {
            spans.push(Span::styled(std::mem::take(run), style.unwrap_or_default()));
        }
        style = Some(s);
        run.push(c);
    };
    for c in line.chars() {
        let w = c.width().unwrap_or(0);
        let here = col;
        col += w;
        if here >= window.end {
            break;
        }
        if here + w <= window.start {
            continue;
        }
        let mut s = char_style(t, c);
        let mut c = c;
        for o in overs.iter().filter(|o| o.cols.contains(&here)) {
            s = s.patch(o.style);
            if o.cols.start == here
                && let Some(put) = o.put
            {
                c = put;
            }
        }
        if here < window.start || here + w > window.end {
            // Half of a wide character: a space in its place.
            for _ in here.max(window.start)..(here + w).min(window.end) {
                push(' ', s, &mut spans, &mut run);
            }
            continue;
        }
        push(c, s, &mut spans, &mut run);
    }
    if !run.is_empty() {
        spans.push(Span::styled(run, style.unwrap_or_default()));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use crate::tui::App;
    use crate::tui::app::Event;
    use crate::tui::keymap::{Key, Keymap};
    use crate::tui::theme::Theme;
    use prune::search::Algorithm;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn frame(a: &mut App) {
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        term.draw(|f| {
            let hit = crate::tui::draw::draw(f, a);
            a.update(Event::Drawn(hit));
        })
        .unwrap();
    }

    /// A pan keeps every part of the picture's key: it lays out nothing.
    #[test]
    fn a_pan_lays_out_no_picture() {
        let p = prune::generate::uniform::Uniform {
            branching: 10,
            depth: 3,
            values: prune::generate::Values::integers(0, 99),
            order: prune::generate::uniform::Order::Random,
        };
        let tree = prune::generate::uniform::generate(&p, 7).unwrap();
        let mut a = App::new(
            tree,
            "t".into(),
            Keymap::default(),
            vec![Theme::monochrome()],
        );
        a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
        for k in ["D", "Z", "Z", "end"] {
            a.key(Key::parse(k).unwrap());
            a.wait();
        }
        frame(&mut a);
        let before = format!("{:?}", a.layout().diagram_cache);
        a.key(Key::parse("ctrl-right").unwrap());
        a.wait();
        frame(&mut a);
        let after = format!("{:?}", a.layout().diagram_cache);
        assert_eq!(a.diagram_pictures_made(), 1, "{before}\n{after}");
    }
}
