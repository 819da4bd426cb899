//! The default bindings, one table per context: what a keymap file overrides, and what the
//! explorer uses when there is none.

use std::collections::BTreeMap;

use super::{Action, Key, Keymap};

const LIST_DEFAULTS: &[(&str, Action)] = &[
    ("k", Action::Up),
    ("up", Action::Up),
    ("j", Action::Down),
    ("down", Action::Down),
    ("enter", Action::Confirm),
    ("esc", Action::Cancel),
    ("q", Action::Cancel),
    ("ctrl-c", Action::Quit),
];

const INPUT_DEFAULTS: &[(&str, Action)] = &[
    ("enter", Action::Confirm),
    ("esc", Action::Cancel),
    ("tab", Action::NextField),
    ("down", Action::NextField),
    ("backtab", Action::PrevField),
    ("up", Action::PrevField),
    ("right", Action::NextChoice),
    ("space", Action::NextChoice),
    ("left", Action::PrevChoice),
    ("backspace", Action::DeleteChar),
    ("ctrl-e", Action::EvenProbabilities),
    ("ctrl-c", Action::Quit),
];

fn parse_map(pairs: &[(&str, Action)]) -> BTreeMap<Key, Action> {
    pairs
        .iter()
        .map(|&(k, a)| (Key::parse(k).expect("default keys parse"), a))
        .collect()
}

const DEFAULTS: &[(&str, Action)] = &[
    ("k", Action::Up),
    ("up", Action::Up),
    ("j", Action::Down),
    ("down", Action::Down),
    ("pageup", Action::PageUp),
    ("ctrl-u", Action::PageUp),
    ("pagedown", Action::PageDown),
    ("ctrl-d", Action::PageDown),
    ("g", Action::Top),
    ("G", Action::Bottom),
    ("h", Action::Collapse),
    ("l", Action::Expand),
    ("enter", Action::Toggle),
    ("1", Action::ExpandDepth(1)),
    ("2", Action::ExpandDepth(2)),
    ("3", Action::ExpandDepth(3)),
    ("4", Action::ExpandDepth(4)),
    ("5", Action::ExpandDepth(5)),
    ("6", Action::ExpandDepth(6)),
    ("7", Action::ExpandDepth(7)),
    ("8", Action::ExpandDepth(8)),
    ("9", Action::ExpandDepth(9)),
    ("p", Action::Parent),
    ("/", Action::Search),
    ("n", Action::SearchNext),
    ("N", Action::SearchPrev),
    ("r", Action::AddRun),
    ("x", Action::RemoveRun),
    ("tab", Action::NextRun),
    ("backtab", Action::PrevRun),
    ("right", Action::StepForward),
    (".", Action::StepForward),
    ("left", Action::StepBack),
    (",", Action::StepBack),
    ("]", Action::NextCutoff),
    ("[", Action::PrevCutoff),
    ("}", Action::NextProbe),
    ("{", Action::PrevProbe),
    (">", Action::NextResearch),
    ("<", Action::PrevResearch),
    (")", Action::NextIteration),
    ("(", Action::PrevIteration),
    ("'", Action::NextTableHit),
    ("\"", Action::PrevTableHit),
    ("space", Action::PlayPause),
    ("+", Action::Faster),
    ("=", Action::Faster),
    ("-", Action::Slower),
    ("home", Action::StepStart),
    ("end", Action::StepEnd),
    ("v", Action::VisitedOnly),
    ("z", Action::FoldPruned),
    ("d", Action::Differences),
    ("t", Action::Theme),
    ("?", Action::Help),
    ("i", Action::ToggleDetail),
    ("K", Action::DetailUp),
    ("J", Action::DetailDown),
    ("#", Action::FullPrecision),
    ("D", Action::Diagram),
    ("Z", Action::Zoom),
    ("ctrl-left", Action::PanLeft),
    ("ctrl-b", Action::PanLeft),
    ("ctrl-right", Action::PanRight),
    ("ctrl-f", Action::PanRight),
    ("ctrl-up", Action::PanUp),
    ("ctrl-p", Action::PanUp),
    ("ctrl-down", Action::PanDown),
    ("ctrl-n", Action::PanDown),
    ("P", Action::JumpToPruner),
    ("!", Action::Departure),
    ("T", Action::Practice),
    ("L", Action::EventLog),
    ("o", Action::Open),
    ("c", Action::Generate),
    ("s", Action::Reorder),
    ("e", Action::Export),
    ("E", Action::EditNode),
    ("A", Action::AddChild),
    ("X", Action::DeleteNode),
    ("delete", Action::DeleteNode),
    ("u", Action::Undo),
    ("ctrl-r", Action::Redo),
    ("w", Action::Save),
    ("W", Action::SaveAs),
    ("q", Action::Quit),
    ("esc", Action::Cancel),
    ("ctrl-c", Action::Quit),
];

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            bindings: parse_map(DEFAULTS),
            list: parse_map(LIST_DEFAULTS),
            input: parse_map(INPUT_DEFAULTS),
        }
    }
}
