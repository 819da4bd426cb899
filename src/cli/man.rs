//! `prune man`: the manual pages, generated from the command line's definition (clap_mangen),
//! so they say what `--help` says and cannot fall behind it.
//!
//! Without `--dir`, prune(1) goes to standard output (`prune man | man -l -`). With it, the
//! folder gets prune.1 and a page for every subcommand, nested ones included, named as git
//! names its own (prune-run.1, prune-gen-game-nim.1): `prune man --dir ~/.local/share/man/man1`
//! installs them, and says where they went and what to add to MANPATH for `man` to find them.
//! Graphviz ships an unrelated prune(1); the main page says so.

use std::path::PathBuf;

use clap::{Args, CommandFactory};
use clap_mangen::Man;

use super::{Cli, CliError, print, write_output};

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write prune.1 and one page per subcommand (prune-run.1, prune-gen-uniform.1, …) into
    /// this folder, created if missing, e.g. ~/.local/share/man/man1; without it, prune(1) goes
    /// to standard output.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn run(a: &ManArgs) -> Result<(), CliError> {
    let pages = pages();
    match &a.dir {
        None => print(&pages[0].1),
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|source| CliError::Write {
                path: dir.display().to_string(),
                source,
            })?;
            for (name, text) in &pages {
                write_output(&dir.join(name), |w| w.write_all(text.as_bytes()))?;
            }
            eprint!("{}", where_they_went(dir, pages.len()));
            Ok(())
        }
    }
}

/// Where the pages went and how `man` finds them: it looks in `man1` folders under the
/// entries of MANPATH (or those it derives from PATH, which need not include this one), so the
/// folder's parent is the entry to add; a folder named otherwise is not a section `man` reads.
fn where_they_went(dir: &std::path::Path, n: usize) -> String {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let shown =
        |p: &std::path::Path| prune::text::terminal_safe(&p.display().to_string()).into_owned();
    let mut s = format!("{n} manual pages in {}\n", shown(&dir));
    match dir.parent().filter(|_| dir.file_name().is_some_and(|f| f == "man1")) {
        Some(parent) => s.push_str(&format!(
            "if `man prune` does not find them, add {0} to MANPATH, e.g. in ~/.bashrc:\n  export MANPATH=\"{0}:$(manpath)\"\n",
            shown(parent)
        )),
        None => s.push_str(&format!(
            "man looks in folders named man1 under MANPATH's entries: name one so (…/man/man1), or read a page with `man -l {}`\n",
            shown(&dir.join("prune.1"))
        )),
    }
    s
}

/// Every page, prune.1 first, each with its file name: the command and, depth first, each of
/// its subcommands (`help` excluded: it is a page's own SUBCOMMANDS section).
pub fn pages() -> Vec<(String, String)> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    collect(&cmd, &mut pages);
    if let Some((_, main)) = pages.first_mut() {
        main.push_str(&see_also(&cmd));
    }
    pages
}

fn collect(cmd: &clap::Command, pages: &mut Vec<(String, String)>) {
    let man = Man::new(cmd.clone());
    let mut text = Vec::new();
    man.render(&mut text)
        .expect("rendering into memory cannot fail");
    pages.push((man.get_filename(), ascii(&String::from_utf8_lossy(&text))));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, pages);
    }
}

/// prune(1)'s SEE ALSO: the subcommands' pages, and the other prune a reader may have met
/// first (`man prune` shows whichever its MANPATH finds first).
fn see_also(cmd: &clap::Command) -> String {
    let refs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| format!("\\fBprune\\-{}\\fR(1)", s.get_name().replace('-', "\\-")))
        .collect();
    format!(
        ".SH \"SEE ALSO\"\n{}\n.PP\nGraphviz ships an unrelated \\fBprune\\fR(1), which prunes \
         nodes from a graph; \\fBprune \\-\\-version\\fR names this one, and \\fBman \\-a \
         prune\\fR shows both pages.\n",
        refs.join(",\n")
    )
}

/// The page with every character beyond ASCII (`…`, `–`, `∞`, `²` in the help) written as the
/// roff escape `\[u2026]`: troff reads its input as Latin-1 unless a preprocessor (preconv, which
/// `man` runs but `groff` alone does not) converts it, and mandoc reads the escapes too.
fn ascii(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    for c in page.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", c as u32));
        }
    }
    out
}
