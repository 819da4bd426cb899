//! The generate form: a family and its parameters, built into a tree in the background.

use clap::Parser;

use super::app::App;
use super::form::{Field, FieldId, Form, Purpose};
use super::worker::Done;

const FAMILIES: &[&str] = &[
    "uniform",
    "star-complete",
    "win-loss",
    "chance",
    "multiplayer",
    "ordered",
    "random",
];

impl App {
    pub(super) fn generate_form(&self) -> Form {
        self.gen_form.clone().unwrap_or_else(|| {
            Form::new(
                "Generate a tree",
                Purpose::Generate,
                vec![
                    Field::choice(FieldId::Family, "family", FAMILIES, 0),
                    Field::text(FieldId::Gen("branching"), "branching", "3"),
                    Field::text(FieldId::Gen("depth"), "depth", "4"),
                    Field::choice(
                        FieldId::Gen("order"),
                        "order",
                        &["random", "best", "worst"],
                        0,
                    ),
                    Field::text(FieldId::Seed, "seed", "1"),
                    Field::text(FieldId::Gen("more flags"), "more flags", ""),
                ],
            )
        })
    }

    pub(super) fn generate(&mut self, form: &Form) -> Result<(), String> {
        let t = |id| form.text(id).map_err(|e| e.to_string());
        let family = form.choice(FieldId::Family).map_err(|e| e.to_string())?;
        let mut args = vec![
            "gen".to_owned(),
            family.to_owned(),
            "-b".into(),
            t(FieldId::Gen("branching"))?.into(),
            "-d".into(),
            t(FieldId::Gen("depth"))?.into(),
            "--seed".into(),
            t(FieldId::Seed)?.into(),
        ];
        if matches!(family, "uniform" | "star-complete") {
            args.push("--order".into());
            args.push(t(FieldId::Gen("order"))?.into());
        }
        args.extend(
            t(FieldId::Gen("more flags"))?
                .split_whitespace()
                .map(String::from),
        );
        let cmd = GenCommand::try_parse_from(&args).map_err(|e| {
            let text = e.to_string();
            text.lines()
                .next()
                .unwrap_or("bad parameters")
                .trim_start_matches("error: ")
                .to_owned()
        })?;
        self.gen_form = Some(form.clone());
        let source = format!("prune {}", args[1..].join(" "));
        self.start(format!("generating ({source})"), move |_| {
            Done::Tree(
                crate::cli::generate::build(&cmd.family)
                    .map(|(t, _)| (t, source))
                    .map_err(|e| format!("error: {e}")),
            )
        });
        Ok(())
    }
}

/// `prune gen`'s arguments, parsed from the generate form.
#[derive(Parser)]
#[command(name = "gen", no_binary_name = false)]
struct GenCommand {
    #[command(subcommand)]
    family: crate::cli::generate::Family,
}
