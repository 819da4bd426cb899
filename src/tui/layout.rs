//! How the explorer lays itself out at any size and with any number of runs: the state the
//! layout keys change (Detail shown or hidden, scrolling, precision), kept apart from the rest
//! of the explorer, and what the last draw laid out (for the mouse). The drawing reads it;
//! `run_offset` and the help's extent are written back by the drawing, and the outline's area
//! arrives through `App::update` after each frame, so that scrolling is stable between frames.

use std::cell::Cell;

use prune::tree::NodeId;

use super::keymap::Action;
use super::zoom::{DiagramView, PictureCache};

/// Below this width the explorer uses its compact layout: the outline takes the whole width
/// and a key shows Detail instead of it.
pub const COMPACT_WIDTH: u16 = 100;

#[derive(Clone, Debug)]
pub struct Layout {
    /// Compact layout: Detail instead of the outline. Wide layout: the outline alone.
    pub(crate) swap_detail: bool,
    /// Lines of Detail scrolled past.
    pub(crate) detail_scroll: u16,
    /// Lines of the help scrolled past.
    pub(crate) help_scroll: u16,
    /// Every digit of every number, not the readable form (`2.556`, `1/3`).
    pub(crate) full_precision: bool,
    /// The diagram view (the selected subtree drawn top-down) in the outline's place.
    pub(crate) diagram: bool,
    /// The diagram's zoom, its window on the picture, its practice cursor.
    pub(crate) diagram_view: DiagramView,
    /// The diagrams' pictures at the last frame, for the next.
    pub(crate) diagram_cache: PictureCache,
    /// Detail shows the current run's log of steps instead of the selected node.
    pub(crate) event_log: bool,
    /// The first run column on screen at the last draw: the window of runs moves only as far
    /// as it must to keep the current run in view.
    pub(crate) run_offset: Cell<usize>,
    /// How far the help could scroll, and its page, at the last draw.
    pub(crate) help_extent: Cell<(u16, u16)>,
    /// Rows of the outline on screen at the last draw.
    pub(crate) height: usize,
    /// The outline's area and rows at the last draw, for mouse clicks.
    pub(crate) hit: Hit,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            swap_detail: false,
            detail_scroll: 0,
            help_scroll: 0,
            full_precision: false,
            diagram: false,
            diagram_view: DiagramView::default(),
            diagram_cache: PictureCache::default(),
            event_log: false,
            run_offset: Cell::default(),
            help_extent: Cell::default(),
            height: 20,
            hit: Hit::default(),
        }
    }
}

/// The outline's area at the last draw, and the node on each row with the column of its fold
/// marker; or, in the diagram view, where its cards are.
#[derive(Clone, Debug, Default)]
pub struct Hit {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub rows: Vec<(NodeId, u16)>,
    /// The diagram's cards on screen: the node and its cells (column, row, width, height),
    /// cut to the window.
    pub cards: Vec<(NodeId, [u16; 4])>,
}

impl Hit {
    /// The node of the diagram card at (x, y), if one is there.
    pub fn card_at(&self, x: u16, y: u16) -> Option<NodeId> {
        self.cards
            .iter()
            .find(|(_, [cx, cy, w, h])| (*cx..cx + w).contains(&x) && (*cy..cy + h).contains(&y))
            .map(|&(id, _)| id)
    }
}

impl Layout {
    /// The layout keys, in normal mode; what the status bar should say.
    pub fn action(&mut self, a: Action) -> Option<String> {
        let l = self;
        match a {
            Action::ToggleDetail => {
                l.swap_detail = !l.swap_detail;
                l.detail_scroll = 0;
            }
            Action::Diagram => l.diagram = !l.diagram,
            Action::Zoom | Action::PanLeft | Action::PanRight | Action::PanUp | Action::PanDown => {
                return l.diagram_view.action(a);
            }
            Action::EventLog => {
                l.event_log = !l.event_log;
                l.detail_scroll = 0;
            }
            // In the log, up goes back through the steps.
            Action::DetailUp if l.event_log => l.detail_scroll = l.detail_scroll.saturating_add(3),
            Action::DetailDown if l.event_log => {
                l.detail_scroll = l.detail_scroll.saturating_sub(3)
            }
            Action::DetailUp => l.detail_scroll = l.detail_scroll.saturating_sub(3),
            Action::DetailDown => l.detail_scroll = l.detail_scroll.saturating_add(3).min(500),
            Action::FullPrecision => {
                l.full_precision = !l.full_precision;
                let what = if l.full_precision {
                    "numbers: every digit"
                } else {
                    "numbers: readable (2.556, 1/3)"
                };
                return Some(what.into());
            }
            _ => {}
        }
        None
    }

    /// A key in the help: scrolling keys scroll it (and keep it open), any other closes it.
    pub fn help_key(&mut self, a: Option<Action>) -> bool {
        let (max, page) = self.help_extent.get();
        let page = page.saturating_sub(1).max(1);
        let s = &mut self.help_scroll;
        *s = match a {
            Some(Action::Up) => s.saturating_sub(1),
            Some(Action::Down) => s.saturating_add(1),
            Some(Action::PageUp) => s.saturating_sub(page),
            Some(Action::PageDown) => s.saturating_add(page),
            Some(Action::Top | Action::StepStart) => 0,
            Some(Action::Bottom | Action::StepEnd) => max,
            _ => {
                *s = 0;
                return false;
            }
        }
        .min(max);
        true
    }
}
