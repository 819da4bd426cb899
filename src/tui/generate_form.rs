//! The generate form: a family and its parameters as typed fields, turned into a
//! [`Spec`] directly (no command line is parsed) and built into a tree in the background. The
//! title bar then shows the exact `prune gen …` command that rebuilds the same tree.

use prune::generate::Spec;
use prune::generate::game::Depth;
use prune::generate::star::StarOrder;
use prune::generate::uniform::Order;
use prune::generate::{GenError, Values};
use prune::search::Control;

use super::dialogs::parse_num;
use super::form::{Field, FieldId, Form, Purpose};
use super::worker::Done;

const UNIFORM_ORDERS: &[&str] = &["random", "best", "worst"];
const STAR_ORDERS: &[&str] = &["best", "random"];

/// The form for `spec`, with `seed`.
pub fn form(spec: &Spec, seed: u64) -> Form {
    let family = Spec::FAMILIES
        .iter()
        .position(|&f| f == spec.family_name())
        .unwrap_or(0);
    let mut fields = vec![Field::choice(
        FieldId::Family,
        "family",
        &Spec::FAMILIES,
        family,
    )];
    fields.extend(family_fields(spec));
    fields.push(Field::text(FieldId::Seed, "seed", seed.to_string()));
    Form::new("Generate a tree", Purpose::Generate, fields)
}

fn text(key: &'static str, v: impl ToString) -> Field {
    Field::text(FieldId::Gen(key), key, v.to_string())
}

fn toggle(key: &'static str, on: bool) -> Field {
    Field::toggle(FieldId::Gen(key), key, on)
}

fn values_fields(v: &Values) -> [Field; 3] {
    [
        text("lo", v.lo),
        text("hi", v.hi),
        toggle("real", v.real).with_help("real leaf values in [lo, hi) instead of integers"),
    ]
}

/// The fields of the family's own parameters, in the order of `prune gen FAMILY --help`.
fn family_fields(spec: &Spec) -> Vec<Field> {
    let mut f = Vec::new();
    match spec {
        Spec::Uniform(u) => {
            f.push(text("branching", u.branching));
            f.push(text("depth", u.depth));
            let i = match u.order {
                Order::Random => 0,
                Order::Best => 1,
                Order::Worst => 2,
            };
            f.push(Field::choice(
                FieldId::Gen("order"),
                "order",
                UNIFORM_ORDERS,
                i,
            ));
            f.extend(values_fields(&u.values));
        }
        Spec::StarComplete(s) => {
            f.push(text("branching", s.branching).with_help("N, the branching factor"));
            f.push(text("depth", s.depth).with_help("D: the tree has depth 2D"));
            let i = usize::from(s.order != StarOrder::Best);
            f.push(Field::choice(
                FieldId::Gen("order"),
                "order",
                STAR_ORDERS,
                i,
            ));
            f.push(toggle("critical", s.critical).with_help("only the critical 2-ply subtree"));
            f.push(toggle("labels", s.labels));
        }
        Spec::WinLoss(w) => {
            f.push(text("branching", w.branching));
            f.push(text("depth", w.depth));
            f.push(text("p0", w.p0).with_help("the probability that a leaf is a WIN"));
            f.push(toggle("board", w.board).with_help("Pearl's board-splitting game"));
        }
        Spec::Chance(c) => {
            f.push(text("branching", c.branching));
            f.push(
                Field::text(
                    FieldId::Gen("chance branching"),
                    "chance branching",
                    c.chance_branching.map_or(String::new(), |b| b.to_string()),
                )
                .with_help("children of a chance node; empty: the same as branching"),
            );
            f.push(text("depth", c.depth));
            f.push(toggle("uneven", c.uneven).with_help("draw each chance node's probabilities"));
            f.push(toggle("irregular", c.irregular));
            f.extend(values_fields(&c.values));
        }
        Spec::Multiplayer(m) => {
            f.push(text("players", m.players));
            f.push(text("branching", m.branching));
            f.push(text("depth", m.depth));
            f.push(text("sum", m.sum).with_help("the sum of every payoff vector"));
        }
        Spec::Ordered(o) => {
            f.push(text("branching", o.width));
            f.push(text("depth", o.depth));
            f.push(
                text("g", o.g).with_help("children searched at a cut node before the refutation"),
            );
            f.push(text("r", o.r).with_help("changes of the best move at PV nodes"));
        }
        Spec::Random(r) => {
            f.push(text("min branching", r.min_branching));
            f.push(text("branching", r.max_branching));
            f.push(text("depth", r.depth));
            f.push(text("leaf probability", r.leaf_probability));
            f.push(toggle("mixed", r.mixed).with_help("random Max/Min kinds"));
            f.extend(values_fields(&r.values));
        }
        Spec::Game(game) => {
            let g = game.built_in();
            if g.depth != Depth::ToTheEnd {
                let d = game.depth().map(|d| d.to_string()).unwrap_or_default();
                f.push(text("depth", d).with_help(g.depth_help));
            }
            for p in g.params {
                let value = game.value(p.name).expect("the game's own parameter");
                f.push(text(p.name, value).with_help(p.help));
            }
        }
    }
    f
}

/// The specification the form's fields describe, checked number by number.
pub fn spec_of(form: &Form) -> Result<Spec, String> {
    let family = form.choice(FieldId::Family).map_err(|e| e.to_string())?;
    let mut spec = Spec::default_for(family).ok_or_else(|| format!("unknown family `{family}`"))?;
    let get = |key: &'static str| form.text(FieldId::Gen(key)).map_err(|e| e.to_string());
    let num_u32 = |key: &'static str| -> Result<u32, String> { parse_num(get(key)?, key) };
    let num_f64 = |key: &'static str| -> Result<f64, String> { parse_num(get(key)?, key) };
    let on = |key: &'static str| form.toggle(FieldId::Gen(key)).map_err(|e| e.to_string());
    let values = || -> Result<Values, String> {
        Ok(Values {
            lo: num_f64("lo")?,
            hi: num_f64("hi")?,
            real: on("real")?,
        })
    };
    match &mut spec {
        Spec::Uniform(u) => {
            u.branching = num_u32("branching")?;
            u.depth = num_u32("depth")?;
            u.order = match get("order")? {
                "best" => Order::Best,
                "worst" => Order::Worst,
                _ => Order::Random,
            };
            u.values = values()?;
        }
        Spec::StarComplete(s) => {
            s.branching = num_u32("branching")?;
            s.depth = num_u32("depth")?;
            s.order = if get("order")? == "best" {
                StarOrder::Best
            } else {
                StarOrder::Random
            };
            s.critical = on("critical")?;
            s.labels = on("labels")?;
        }
        Spec::WinLoss(w) => {
            w.branching = num_u32("branching")?;
            w.depth = num_u32("depth")?;
            w.p0 = num_f64("p0")?;
            w.board = on("board")?;
        }
        Spec::Chance(c) => {
            c.branching = num_u32("branching")?;
            let cb = get("chance branching")?;
            c.chance_branching = if cb.is_empty() {
                None
            } else {
                Some(parse_num(cb, "chance branching")?)
            };
            c.depth = num_u32("depth")?;
            c.uneven = on("uneven")?;
            c.irregular = on("irregular")?;
            c.values = values()?;
        }
        Spec::Multiplayer(m) => {
            m.players = num_u32("players")?;
            m.branching = num_u32("branching")?;
            m.depth = num_u32("depth")?;
            m.sum = num_u32("sum")?;
        }
        Spec::Ordered(o) => {
            o.width = num_u32("branching")?;
            o.depth = num_u32("depth")?;
            o.g = num_u32("g")?;
            o.r = num_u32("r")?;
        }
        Spec::Random(r) => {
            r.min_branching = num_u32("min branching")?;
            r.max_branching = num_u32("branching")?;
            r.depth = num_u32("depth")?;
            r.leaf_probability = num_f64("leaf probability")?;
            r.mixed = on("mixed")?;
            r.values = values()?;
        }
        Spec::Game(game) => {
            let g = game.built_in();
            if g.depth != Depth::ToTheEnd {
                let d = get("depth")?.trim().to_owned();
                if d.is_empty() && g.depth != Depth::Optional {
                    return Err("depth: give the moves to search".into());
                }
                game.set_depth(
                    (!d.is_empty())
                        .then(|| parse_num(&d, "depth"))
                        .transpose()?,
                );
            }
            for p in g.params {
                game.set(p.name, get(p.name)?).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(spec)
}

/// After an edit: when the family changed, its own fields replace the old family's.
pub fn follow_family(form: &mut Form) {
    let Ok(family) = form.choice(FieldId::Family) else {
        return;
    };
    let shown = form
        .fields
        .iter()
        .filter(|f| matches!(f.id, FieldId::Gen(_)))
        .map(|f| f.id)
        .collect::<Vec<_>>();
    let wanted: Vec<FieldId> = Spec::default_for(family)
        .map(|s| family_fields(&s).iter().map(|f| f.id).collect())
        .unwrap_or_default();
    if shown == wanted {
        return;
    }
    let seed = form.text(FieldId::Seed).unwrap_or("1").to_owned();
    if let Some(spec) = Spec::default_for(family) {
        let focus = form.focus;
        *form = self::form(&spec, 1);
        if let Some(f) = form.fields.iter_mut().find(|f| f.id == FieldId::Seed) {
            *f = Field::text(FieldId::Seed, "seed", seed);
        }
        form.focus = focus;
    }
}

/// The generation a submitted form asks for: what to call it while it runs, and the work.
pub fn job(
    form: &Form,
) -> Result<(String, impl FnOnce(&Control) -> Done + Send + 'static), String> {
    let spec = spec_of(form)?;
    let seed: u64 = parse_num(form.text(FieldId::Seed).map_err(|e| e.to_string())?, "seed")?;
    let source = spec.command(seed);
    let what = format!("generating ({source})");
    Ok((what, move |_: &Control| {
        Done::Tree(
            spec.build(seed)
                .map(|t| (t, source))
                .map_err(|e: GenError| format!("error: {e}")),
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::keymap::{Action, Key};
    use prune::generate::game::connect_four::Moves;
    use prune::generate::game::{GameSpec, Heaps};

    #[test]
    fn every_family_round_trips_through_its_form() {
        for name in Spec::FAMILIES {
            let spec = Spec::default_for(name).unwrap();
            assert_eq!(spec_of(&form(&spec, 7)).unwrap(), spec, "{name}");
        }
    }

    #[test]
    fn the_games_and_their_options_round_trip_through_the_form() {
        let specs = [
            Spec::Game(GameSpec::TicTacToe { depth: Some(3) }),
            Spec::Game(GameSpec::Nim {
                heaps: Heaps::new(&[1, 2, 3]).unwrap(),
                players: 3,
            }),
            Spec::Game(GameSpec::ConnectFour {
                depth: 5,
                moves: Moves::parse("4435").unwrap(),
            }),
        ];
        for spec in specs {
            assert_eq!(spec_of(&form(&spec, 1)).unwrap(), spec);
        }
        // The full tic-tac-toe tree leaves the depth empty.
        let full = form(&Spec::Game(GameSpec::TicTacToe { depth: None }), 1);
        assert_eq!(full.text(FieldId::Gen("depth")), Ok(""));
        let mut bad = Spec::default_for("game connect-four").unwrap();
        if let Spec::Game(GameSpec::ConnectFour { moves, .. }) = &mut bad {
            *moves = Moves::parse("4444444").unwrap();
        }
        let err = spec_of(&form(&bad, 1)).unwrap().build(1).unwrap_err();
        assert!(err.to_string().contains("full"), "{err}");
    }

    #[test]
    fn changing_the_family_brings_its_fields() {
        let mut f = form(&Spec::default_for("uniform").unwrap(), 3);
        f.input(Some(Action::NextChoice), Key::parse("right").unwrap());
        follow_family(&mut f);
        assert_eq!(f.choice(FieldId::Family), Ok("star-complete"));
        assert!(f.toggle(FieldId::Gen("critical")).is_ok());
        assert_eq!(f.text(FieldId::Seed), Ok("3"));
        assert!(matches!(spec_of(&f).unwrap(), Spec::StarComplete(_)));
    }
}
