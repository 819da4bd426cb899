//! Keys → actions, in three contexts: the outline (`normal`), lists such as the algorithm
//! picker (`list`), and text input — forms and the label search (`input`). The defaults can be
//! overridden by a RON file (`keymap.ron` in the config directory): a map from key names to
//! action names, e.g. `{ "ctrl-n": StepForward, "x": Unbound, "input:ctrl-j": Confirm }`; a
//! `list:` or `input:` prefix binds the key in that context. The help overlay and the status
//! bar's hints are generated from the keymap in force.
//!
//! `key` names keys (from a terminal event, from a keymap file); `defaults` holds the
//! default tables a keymap file overrides.

mod defaults;
mod key;

use std::collections::BTreeMap;

use serde::Deserialize;

pub use key::{Key, KeyName};

/// Everything the user can ask for in the outline.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
pub enum Action {
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Collapse,
    Expand,
    Toggle,
    ExpandDepth(u8),
    Parent,
    Search,
    SearchNext,
    SearchPrev,
    AddRun,
    RemoveRun,
    NextRun,
    PrevRun,
    StepForward,
    StepBack,
    NextCutoff,
    PrevCutoff,
    NextProbe,
    PrevProbe,
    NextResearch,
    PrevResearch,
    NextIteration,
    PrevIteration,
    NextTableHit,
    PrevTableHit,
    PlayPause,
    Faster,
    Slower,
    StepStart,
    StepEnd,
    VisitedOnly,
    FoldPruned,
    Differences,
    Open,
    Generate,
    Reorder,
    Export,
    /// Edit the selected node: label, kind, value or payoff vector, probability.
    EditNode,
    /// Add a leaf child to the selected node.
    AddChild,
    /// Delete the selected subtree.
    DeleteNode,
    /// Undo (redo) the last change to the tree.
    Undo,
    Redo,
    /// Save the tree to its file (or ask for a path); save it under another path.
    Save,
    SaveAs,
    Theme,
    Help,
    Quit,
    /// Narrow screens: Detail instead of the outline; wide ones: hide Detail.
    ToggleDetail,
    /// Scroll Detail up (down).
    DetailUp,
    DetailDown,
    /// Every digit of every number, or the readable form.
    FullPrecision,
    /// The selected subtree drawn top-down as in the papers, instead of the outline.
    Diagram,
    /// The diagram's next zoom level: the panel, four panels wide, the whole subtree.
    Zoom,
    /// Move the diagram's window over a picture wider (taller) than the panel.
    PanLeft,
    PanRight,
    PanUp,
    PanDown,
    /// From a pruned node: go to the step of the cutoff that pruned it.
    JumpToPruner,
    /// In an engine's imported run: go to the step where it first departs from its rules.
    Departure,
    /// Detail shows the log of the steps so far (the narration), or the node again.
    EventLog,
    /// Practice on the current run: answer the search's questions as it proceeds.
    Practice,
    /// In a list or a form: carry out the choice.
    Confirm,
    /// In a list, a form or the search box: close it and change nothing.
    Cancel,
    /// In a form: the next (previous) field.
    NextField,
    PrevField,
    /// In a form: the next (previous) option of a choice, or flip a toggle.
    NextChoice,
    PrevChoice,
    /// In a text field: delete the last character.
    DeleteChar,
    /// In an edit form with a chance node's probabilities: every child equally likely.
    EvenProbabilities,
    /// In a keymap file: remove the key's default binding.
    Unbound,
}

/// Where a key is pressed: each context has its own bindings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Context {
    /// The outline, with nothing open over it.
    Normal,
    /// A list to choose from: the algorithm picker.
    List,
    /// Typing: a form or the label search.
    Input,
}

/// Help groups, in the order the overlay shows them.
pub const GROUPS: [&str; 6] = ["Move", "Runs", "Step", "View", "Edit", "Tree and files"];

/// The help group of the keys of lists and forms, shown after the glyph legend.
pub const DIALOG_GROUP: &str = "In lists and forms";

impl Action {
    pub fn describe(self) -> (&'static str, &'static str) {
        use Action::*;
        match self {
            Up => ("Move", "up"),
            Down => ("Move", "down"),
            PageUp => ("Move", "page up"),
            PageDown => ("Move", "page down"),
            Top => ("Move", "first row"),
            Bottom => ("Move", "last row"),
            Collapse => ("Move", "collapse, or go to parent"),
            Expand => ("Move", "expand, or go to first child"),
            Toggle => ("Move", "expand/collapse"),
            ExpandDepth(_) => ("Move", "expand to depth 1–9"),
            Parent => ("Move", "go to parent"),
            Search => ("Move", "search labels"),
            SearchNext => ("Move", "next match"),
            SearchPrev => ("Move", "previous match"),
            AddRun => ("Runs", "run an algorithm"),
            RemoveRun => ("Runs", "remove the selected run"),
            NextRun => ("Runs", "select next run"),
            PrevRun => ("Runs", "select previous run"),
            StepForward => ("Step", "step forward"),
            StepBack => ("Step", "step back"),
            NextCutoff => ("Step", "next cutoff"),
            PrevCutoff => ("Step", "previous cutoff"),
            NextProbe => ("Step", "next probe"),
            PrevProbe => ("Step", "previous probe"),
            NextResearch => ("Step", "next re-search"),
            PrevResearch => ("Step", "previous re-search"),
            NextIteration => ("Step", "next iteration (iterative deepening)"),
            PrevIteration => ("Step", "this or the previous iteration's start"),
            NextTableHit => ("Step", "next transposition-table hit"),
            PrevTableHit => ("Step", "previous transposition-table hit"),
            PlayPause => ("Step", "play/pause"),
            Faster => ("Step", "play faster"),
            Slower => ("Step", "play slower"),
            StepStart => ("Step", "go to the start"),
            StepEnd => ("Step", "go to the end"),
            VisitedOnly => ("View", "visited nodes only"),
            FoldPruned => ("View", "fold pruned subtrees"),
            Differences => ("View", "highlight differences between runs"),
            Theme => ("View", "next theme"),
            Help => ("View", "this help"),
            ToggleDetail => ("View", "Detail instead of outline / hide it"),
            DetailUp => ("View", "scroll Detail up"),
            DetailDown => ("View", "scroll Detail down"),
            FullPrecision => ("View", "every digit / readable numbers"),
            Diagram => ("View", "tree diagram / outline"),
            Zoom => ("View", "diagram zoom: fit, 4× wide, whole"),
            PanLeft => ("View", "diagram: pan left"),
            PanRight => ("View", "diagram: pan right"),
            PanUp => ("View", "diagram: pan up"),
            PanDown => ("View", "diagram: pan down"),
            JumpToPruner => ("Step", "go to the cutoff that pruned this node"),
            Departure => ("Step", "go to an imported engine's departure"),
            Practice => ("Runs", "practice: test me"),
            EventLog => ("View", "Detail: the log of the steps so far / the node"),
            Open => ("Tree and files", "open a tree file"),
            Generate => ("Tree and files", "generate a tree"),
            Reorder => ("Tree and files", "reorder children and re-run"),
            Export => ("Tree and files", "export trace, stats, DOT"),
            EditNode => ("Edit", "edit label, kind, value, probability"),
            AddChild => ("Edit", "add a leaf child"),
            DeleteNode => ("Edit", "delete the subtree"),
            Undo => ("Edit", "undo a change to the tree"),
            Redo => ("Edit", "redo"),
            Save => ("Tree and files", "save the tree (RON by default)"),
            SaveAs => ("Tree and files", "save the tree as…"),
            Quit => ("Tree and files", "quit"),
            Confirm => (DIALOG_GROUP, "confirm"),
            Cancel => (DIALOG_GROUP, "cancel"),
            NextField => (DIALOG_GROUP, "next field"),
            PrevField => (DIALOG_GROUP, "previous field"),
            NextChoice => (DIALOG_GROUP, "next option, or flip"),
            PrevChoice => (DIALOG_GROUP, "previous option, or flip"),
            DeleteChar => (DIALOG_GROUP, "delete a character"),
            EvenProbabilities => (DIALOG_GROUP, "probabilities: all children equally likely"),
            Unbound => ("", ""),
        }
    }
}
/// A keymap file's binding: the key as written, where it binds, and to what.
struct Binding {
    spelled: String,
    context: Context,
    key: Key,
    action: Action,
}

impl Context {
    /// The context as a keymap file names it, for messages.
    fn describe(self) -> &'static str {
        match self {
            Context::Normal => "the outline",
            Context::List => "lists (`list:`)",
            Context::Input => "text input (`input:`)",
        }
    }
}

/// A keymap file's bindings in the file's order, each key bound once in its context: read entry
/// by entry, so that a second binding of a key is an error at its place in the file.
struct Bindings(Vec<Binding>);

impl<'de> Deserialize<'de> for Bindings {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bindings, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Bindings;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map from key names to actions")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Bindings, A::Error> {
                use serde::de::Error as _;
                let mut out: Vec<Binding> = Vec::new();
                while let Some(spelled) = map.next_key::<String>()? {
                    let action: Action = map.next_value()?;
                    let (context, name) = match spelled.split_once(':') {
                        Some(("list", rest)) => (Context::List, rest),
                        Some(("input", rest)) => (Context::Input, rest),
                        _ => (Context::Normal, spelled.as_str()),
                    };
                    let key = Key::parse(name).map_err(A::Error::custom)?;
                    if let Some(first) = out.iter().find(|b| b.context == context && b.key == key) {
                        return Err(A::Error::custom(format!(
                            "key {} bound twice in {}: `{}` to {:?}, then `{spelled}` to {action:?}; keep one",
                            key.name(),
                            context.describe(),
                            first.spelled,
                            first.action,
                        )));
                    }
                    out.push(Binding {
                        spelled,
                        context,
                        key,
                        action,
                    });
                }
                Ok(Bindings(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// The bindings in force, one map per [`Context`].
#[derive(Clone, Debug)]
pub struct Keymap {
    bindings: BTreeMap<Key, Action>,
    list: BTreeMap<Key, Action>,
    input: BTreeMap<Key, Action>,
}

impl Keymap {
    /// The defaults with the overrides of a keymap file's text.
    /// A key bound twice in one context — written twice, or spelled two ways (`pgup` and
    /// `pageup`, `ctrl-n` and `CTRL-n`) — is refused, with both actions and where RON found the
    /// second: a map would silently keep the last.
    pub fn with_overrides(text: &str) -> Result<Keymap, String> {
        let Bindings(bindings) = ron::from_str(text).map_err(|e| e.to_string())?;
        let mut km = Keymap::default();
        for Binding {
            context,
            key,
            action: a,
            ..
        } in bindings
        {
            let bindings = km.context_mut(context);
            if a == Action::Unbound {
                bindings.remove(&key);
            } else {
                bindings.insert(key, a);
            }
        }
        // Quitting must stay possible whatever the file says.
        let ctrl_c = Key::parse("ctrl-c").expect("parses");
        for c in [Context::Normal, Context::List, Context::Input] {
            km.context_mut(c).insert(ctrl_c, Action::Quit);
        }
        Ok(km)
    }

    fn context_mut(&mut self, c: Context) -> &mut BTreeMap<Key, Action> {
        match c {
            Context::Normal => &mut self.bindings,
            Context::List => &mut self.list,
            Context::Input => &mut self.input,
        }
    }

    fn context(&self, c: Context) -> &BTreeMap<Key, Action> {
        match c {
            Context::Normal => &self.bindings,
            Context::List => &self.list,
            Context::Input => &self.input,
        }
    }

    /// The action of `key` in the outline.
    pub fn action(&self, key: &Key) -> Option<Action> {
        self.bindings.get(key).copied()
    }

    /// The action of `key` in `context`.
    pub fn action_in(&self, context: Context, key: &Key) -> Option<Action> {
        self.context(context).get(key).copied()
    }

    /// The keys bound to `action` in `context`, as shown in help ("Tab ↓").
    pub fn keys_in(&self, context: Context, action: Action) -> String {
        let mut keys: Vec<String> = self
            .context(context)
            .iter()
            .filter(|&(_, &a)| a == action)
            .map(|(k, _)| k.name())
            .collect();
        keys.sort_by_key(|k| (k.chars().count() > 1, k.clone()));
        keys.join(" ")
    }

    /// Help lines for lists and forms: (keys, description), from the `list` and `input`
    /// bindings.
    pub fn dialog_help(&self) -> Vec<(String, &'static str)> {
        let mut lines = Vec::new();
        for (context, actions) in [
            (Context::List, &[Action::Up, Action::Down][..]),
            (
                Context::Input,
                &[
                    Action::Confirm,
                    Action::Cancel,
                    Action::NextField,
                    Action::PrevField,
                    Action::NextChoice,
                    Action::PrevChoice,
                    Action::DeleteChar,
                    Action::EvenProbabilities,
                ][..],
            ),
        ] {
            for &a in actions {
                let keys = self.keys_in(context, a);
                if keys.is_empty() {
                    continue;
                }
                let what = match (context, a) {
                    (Context::List, Action::Up) => "list: previous",
                    (Context::List, _) => "list: next",
                    _ => a.describe().1,
                };
                lines.push((keys, what));
            }
        }
        lines
    }

    /// A hint for a dialog's status bar: the first key of each action named, in `context`.
    pub fn hint_in(&self, context: Context, actions: &[(Action, &'static str)]) -> String {
        self.hint_with(context, actions, " · ")
    }

    /// The keys bound to `action` in the outline, as shown in help ("j ↓").
    pub fn keys_for(&self, action: Action) -> String {
        self.keys_in(Context::Normal, action)
    }

    /// Help lines by group: (group, [(keys, description)]), generated from the bindings.
    pub fn help(&self) -> Vec<(&'static str, Vec<(String, &'static str)>)> {
        let mut seen: Vec<Action> = self.bindings.values().copied().collect();
        seen.sort();
        seen.dedup();
        GROUPS
            .iter()
            .map(|&g| {
                let mut lines: Vec<(String, &'static str)> = Vec::new();
                let mut depth_done = false;
                for &a in &seen {
                    // In the outline, Cancel stops the work in progress.
                    let (group, what) = match a {
                        Action::Cancel => ("Tree and files", "cancel a load or a search"),
                        _ => a.describe(),
                    };
                    if group != g {
                        continue;
                    }
                    if let Action::ExpandDepth(_) = a {
                        if depth_done {
                            continue;
                        }
                        depth_done = true;
                        lines.push(("1…9".into(), what));
                        continue;
                    }
                    lines.push((self.keys_for(a), what));
                }
                (g, lines)
            })
            .collect()
    }

    /// A short hint for the status bar: the first key of each action named.
    pub fn hint(&self, actions: &[(Action, &'static str)]) -> String {
        self.hint_with(Context::Normal, actions, "  ")
    }

    fn hint_with(&self, context: Context, actions: &[(Action, &'static str)], sep: &str) -> String {
        actions
            .iter()
            .filter_map(|&(a, label)| {
                let keys = self.keys_in(context, a);
                let first = keys.split(' ').next().filter(|k| !k.is_empty())?.to_owned();
                Some(format!("{first} {label}"))
            })
            .collect::<Vec<_>>()
            .join(sep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_and_name() {
        assert_eq!(Key::parse("ctrl-c").unwrap().name(), "C-c");
        assert_eq!(Key::parse("G").unwrap().name(), "G");
        assert_eq!(Key::parse("pagedown").unwrap().name(), "PgDn");
        assert_eq!(Key::parse("space").unwrap().name(), "space");
        assert!(Key::parse("hyper-x").is_err());
    }

    #[test]
    fn overrides_replace_and_unbind_but_keep_ctrl_c() {
        let km = Keymap::with_overrides(r#"{ "w": Up, "k": Unbound, "ctrl-c": Help }"#).unwrap();
        assert_eq!(km.action(&Key::parse("w").unwrap()), Some(Action::Up));
        assert_eq!(km.action(&Key::parse("k").unwrap()), None);
        assert_eq!(
            km.action(&Key::parse("ctrl-c").unwrap()),
            Some(Action::Quit)
        );
        assert!(Keymap::with_overrides("{ \"w\": Fly }").is_err());
    }

    /// A key bound twice in one context is refused, whether written twice or spelled two ways,
    /// with the key, both actions and the line and column of the second; the same key in two
    /// contexts is two bindings.
    #[test]
    fn a_key_bound_twice_in_a_context_is_refused() {
        let err = Keymap::with_overrides("{\n  \"x\": Up,\n  \"x\": Down,\n}").unwrap_err();
        assert!(err.starts_with("3:"), "{err}");
        assert!(
            err.contains("key x bound twice in the outline: `x` to Up, then `x` to Down; keep one"),
            "{err}"
        );
        for (text, first, second, context) in [
            (
                r#"{ "pgup": Up, "pageup": Down }"#,
                "pgup",
                "pageup",
                "the outline",
            ),
            (
                r#"{ "ctrl-n": StepForward, "CTRL-n": StepBack }"#,
                "ctrl-n",
                "CTRL-n",
                "the outline",
            ),
            (
                r#"{ "enter": Toggle, "return": Help }"#,
                "enter",
                "return",
                "the outline",
            ),
            (
                r#"{ "alt-ctrl-x": Up, "ctrl-alt-x": Up }"#,
                "alt-ctrl-x",
                "ctrl-alt-x",
                "the outline",
            ),
            (
                r#"{ "list:q": Unbound, "list:q": Down }"#,
                "list:q",
                "list:q",
                "lists",
            ),
            (
                r#"{ "input:space": Confirm, "input: ": Cancel }"#,
                "input:space",
                "input: ",
                "text input",
            ),
        ] {
            let err = Keymap::with_overrides(text).unwrap_err();
            assert!(err.starts_with("1:"), "{text}: {err}");
            assert!(
                err.contains(&format!("twice in {context}")),
                "{text}: {err}"
            );
            assert!(err.contains(&format!("`{first}`")), "{text}: {err}");
            assert!(err.contains(&format!("`{second}`")), "{text}: {err}");
        }
        // One key, three contexts: three bindings.
        let km =
            Keymap::with_overrides(r#"{ "x": Up, "list:x": Down, "input:x": Confirm }"#).unwrap();
        let x = Key::parse("x").unwrap();
        assert_eq!(km.action(&x), Some(Action::Up));
        assert_eq!(km.action_in(Context::List, &x), Some(Action::Down));
        assert_eq!(km.action_in(Context::Input, &x), Some(Action::Confirm));
    }

    #[test]
    fn dialog_keys_are_actions_of_their_own_context() {
        let km =
            Keymap::with_overrides(r#"{ "input:ctrl-j": Confirm, "list:q": Unbound }"#).unwrap();
        let k = |s: &str| Key::parse(s).unwrap();
        assert_eq!(
            km.action_in(Context::Input, &k("ctrl-j")),
            Some(Action::Confirm)
        );
        assert_eq!(
            km.action_in(Context::Input, &k("enter")),
            Some(Action::Confirm)
        );
        assert_eq!(km.action_in(Context::List, &k("q")), None);
        assert_eq!(km.action_in(Context::List, &k("j")), Some(Action::Down));
        // The outline's Enter is still its own.
        assert_eq!(km.action(&k("enter")), Some(Action::Toggle));
        assert_eq!(
            km.action_in(Context::Input, &k("ctrl-c")),
            Some(Action::Quit)
        );
        let help = km.dialog_help();
        assert!(
            help.iter()
                .any(|(keys, w)| keys == "C-j Enter" && *w == "confirm"),
            "{help:?}"
        );
    }

    #[test]
    fn help_lists_every_bound_action_once() {
        let km = Keymap::default();
        let help = km.help();
        let lines: usize = help.iter().map(|(_, l)| l.len()).sum();
        assert!(lines > 30);
        let step = &help.iter().find(|(g, _)| *g == "Step").unwrap().1;
        assert!(
            step.iter().any(|(k, w)| k == ". →" && *w == "step forward"),
            "{step:?}"
        );
    }
}
