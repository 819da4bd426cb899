//! The edit form of a node: its label and kind, a leaf's value, and the probabilities of its
//! chance family's children, read back into an [`Edit`].

use crate::tui::form::{Field, FieldId, Form, MissingField, Purpose};
use prune::text::number_text;
use prune::tree::{Kind, NodeId, Tree};

use super::{Edit, chance_family, parse_number, parse_values, path_of};

const TWO_PLAYER_KINDS: [&str; 4] = ["max", "min", "chance", "leaf"];
const PLAYER_KINDS: [&str; 18] = [
    "player 1",
    "player 2",
    "player 3",
    "player 4",
    "player 5",
    "player 6",
    "player 7",
    "player 8",
    "player 9",
    "player 10",
    "player 11",
    "player 12",
    "player 13",
    "player 14",
    "player 15",
    "player 16",
    "chance",
    "leaf",
];

fn kind_choices(tree: &Tree) -> Vec<&'static str> {
    if tree.is_multiplayer() {
        let n = tree.players().min(16);
        let mut v = PLAYER_KINDS[..n].to_vec();
        v.extend(["chance", "leaf"]);
        v
    } else {
        TWO_PLAYER_KINDS.to_vec()
    }
}

fn kind_of(choice: &str) -> Option<Kind> {
    Some(match choice {
        "max" => Kind::Max,
        "min" => Kind::Min,
        "chance" => Kind::Chance,
        "leaf" => Kind::Leaf,
        p => Kind::Player(
            p.strip_prefix("player ")?
                .parse::<u8>()
                .ok()?
                .checked_sub(1)?,
        ),
    })
}

/// The edit form of node `id`: its label and kind, a leaf's value (or payoff vector), and the
/// probabilities of its chance family's children, all together (they must sum to 1, so one
/// alone could never change).
pub fn edit_form(tree: &Tree, id: NodeId) -> Form {
    let choices = kind_choices(tree);
    let name = tree.kind(id).name();
    let at = choices.iter().position(|c| *c == name).unwrap_or(0);
    let mut fields = vec![
        Field::text(FieldId::Label, "label", tree.label(id).unwrap_or("")),
        Field::choice(FieldId::Kind, "kind", &choices, at)
            .with_help("a leaf made interior keeps its value in one child; an interior node made a leaf loses its subtree"),
    ];
    if tree.is_leaf(id) {
        let value = if tree.is_multiplayer() {
            let v: Vec<String> = tree.payoff(id).iter().map(|&x| number_text(x)).collect();
            v.join(", ")
        } else {
            number_text(tree.value(id))
        };
        let help = if tree.is_multiplayer() {
            "one payoff a player, separated by commas"
        } else {
            "a number: 3, -1.5 or 1/3"
        };
        fields.push(Field::text(FieldId::Value, "value", value).with_help(help));
    }
    if let Some(f) = chance_family(tree, id) {
        fields.extend(prob_fields(tree, f, id));
    }
    Form::new(
        format!("Edit {} ({name})", prune::tree::names::node_name(tree, id)),
        Purpose::Edit(path_of(tree, id)),
        fields,
    )
}

/// A field for the probability of each child of chance node `family`, `id`'s marked; empty
/// when the children are equally likely.
fn prob_fields(tree: &Tree, family: NodeId, id: NodeId) -> Vec<Field> {
    let uniform = tree.is_uniform(family);
    tree.children(family)
        .map(|c| {
            let this = if c == id { " (this)" } else { "" };
            let label = format!("p {}{this}", prune::tree::names::node_name(tree, c));
            let p = if uniform {
                String::new()
            } else {
                number_text(tree.prob(c))
            };
            let at = tree.child_index(c);
            Field::text(FieldId::ChildProb(at), label, p)
                .with_help("a fraction or a decimal (1/4, 0.25); all empty: equally likely")
        })
        .collect()
}

/// What the probability fields of `form` sum to, as the form shows it while they are typed;
/// `None` when it has none.
pub fn probability_sum(form: &Form) -> Option<String> {
    let texts: Vec<(&str, &str)> = form
        .prob_fields()
        .map(|f| (f.label.as_ref(), form.text(f.id).unwrap_or("")))
        .collect();
    if texts.is_empty() {
        return None;
    }
    if texts.iter().all(|(_, t)| t.is_empty()) {
        return Some("all empty: equally likely".into());
    }
    let mut sum = 0.0;
    for (label, text) in &texts {
        match parse_number(text, label) {
            Ok(p) => sum += p,
            Err(_) if text.is_empty() => return Some(format!("sum: {label} is empty")),
            Err(_) => return Some(format!("sum: {label} is not a number")),
        }
    }
    Some(if (sum - 1.0).abs() <= prune::tree::PROB_TOLERANCE {
        "sum 1".to_owned()
    } else {
        format!("sum {}, not 1", number_text(sum))
    })
}

/// The edit a submitted edit form asks for.
pub fn edit_of(form: &Form) -> Result<Edit, String> {
    let missing = |e: MissingField| e.to_string();
    let label = Some(form.text(FieldId::Label).map_err(missing)?.to_owned());
    let kind = kind_of(form.choice(FieldId::Kind).map_err(missing)?);
    let value = match form.text(FieldId::Value) {
        Ok(t) => Some(parse_values(t)?),
        Err(_) => None,
    };
    let probs = form
        .prob_fields()
        .map(|f| {
            let t = form.text(f.id).unwrap_or("");
            (!t.is_empty())
                .then(|| parse_number(t, &f.label))
                .transpose()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Edit::Set {
        label,
        kind,
        value,
        probs: (!probs.is_empty()).then_some(probs),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::edit::apply;
    use prune::format::{Format, write};

    /// The example: `*(1/4:(1,2), 3/4:(3,4))` made 1/2:1/2 in the form, reached from
    /// the chance node and from a child, with the sum shown as it is typed.
    #[test]
    fn a_chance_nodes_probabilities_are_edited_together() {
        let t = prune::format::parse_expr("*(1/4:(1,2), 3/4:(3,4))", false).unwrap();
        for id in [t.root(), t.child(t.root(), 1)] {
            let mut form = edit_form(&t, id);
            let labels: Vec<&str> = form.prob_fields().map(|f| f.label.as_ref()).collect();
            assert_eq!(labels.len(), 2, "{labels:?}");
            assert_eq!(probability_sum(&form).as_deref(), Some("sum 1"));
            set_text(&mut form, FieldId::ChildProb(0), "1/2");
            assert_eq!(probability_sum(&form).as_deref(), Some("sum 1.25, not 1"));
            set_text(&mut form, FieldId::ChildProb(1), "0.5");
            assert_eq!(probability_sum(&form).as_deref(), Some("sum 1"));
            let u = apply(&t, id, &edit_of(&form).unwrap()).unwrap();
            let want = prune::format::parse_expr("*(1/2:(1,2), 1/2:(3,4))", false).unwrap();
            assert_eq!(write(&u, Format::Bracket), write(&want, Format::Bracket));
        }
        let child = edit_form(&t, t.child(t.root(), 0));
        assert_eq!(child.prob_fields().next().unwrap().label, "p #1 (this)");
    }

    fn set_text(form: &mut Form, id: FieldId, text: &str) {
        let f = form.fields.iter_mut().find(|f| f.id == id).unwrap();
        f.value = crate::tui::form::FieldValue::Text(text.into());
    }
}
