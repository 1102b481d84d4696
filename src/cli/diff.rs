//! `git checkpoint diff`.

use std::io::Write;

use git_checkpoint::Side;

use super::diffargs::{self, DiffArgs, Format};
use super::notices;
use super::output::{ColorChoice, Ui, json_line};
use super::picker::{self, Purpose};
use super::{Failure, open, repo_paths};

/// Show what changed between two checkpoints, or between a checkpoint and the working tree,
/// as a patch `git apply` accepts.
///
/// `diff A B`: from checkpoint A to checkpoint B. `diff A`: from A to the working tree now
/// (untracked files that are not ignored included). `diff`: from the newest checkpoint of
/// this worktree to the working tree. Nothing is written to the repository.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The old side: a checkpoint (default: the newest).
    #[arg(value_name = "A")]
    from: Option<String>,
    /// The new side: a checkpoint (default: the working tree).
    #[arg(value_name = "B")]
    to: Option<String>,
    #[command(flatten)]
    diff: DiffArgs,
    /// A JSON object with a "files" array.
    #[arg(long, group = "format")]
    json: bool,
    /// Only these paths (files or directories), relative to the current directory.
    #[arg(last = true, value_name = "PATHS")]
    paths: Vec<std::path::PathBuf>,
}

const EXAMPLES: &str = "\
Hunk headers and binary files follow the diff attribute of .gitattributes as in git diff: git's
built-in drivers (diff=perl, diff=python, ...), diff.<name>.xfuncname and funcname, -diff and
diff.<name>.binary. A driver's textconv is not applied, so that the patch applies to the files
as they are.

Examples:
  git checkpoint diff                              # newest checkpoint -> working tree now
  git checkpoint diff before-refactor --stat       # a checkpoint -> working tree now
  git checkpoint diff @{1} @ -- src/               # between two checkpoints, under src/
  git checkpoint diff @{1} @ | git apply -R        # any tool that reads git patches
  git checkpoint diff -M90 -U5 @ --name-status";

pub fn run(ui: &Ui, color: ColorChoice, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    notices::warn_interrupted(ui, &checkpoints);
    let loaded = checkpoints.load()?;
    // Without a checkpoint: on a terminal, the picker; else this worktree's newest.
    let picked;
    let from = match &args.from {
        Some(spec) => checkpoints.resolve(&loaded, spec)?,
        None if picker::available() => match picker::pick(&checkpoints, Purpose::Diff)? {
            Some(c) => {
                picked = c;
                &picked
            }
            None => return Ok(()),
        },
        None => match checkpoints.resolve(&loaded, "@") {
            Ok(newest) => newest,
            // The user typed no `@`: say what is missing in the words of what they typed.
            Err(git_checkpoint::Error::NoOwnCheckpoints(others)) => {
                ui.error(&format!(
                    "nothing to compare with: this worktree has no checkpoints of its own yet, and diff without a checkpoint compares the newest of them with the working tree ({})",
                    if others == 1 {
                        "there is 1 of another worktree or fetched".to_string()
                    } else {
                        format!("there are {others} of other worktrees or fetched")
                    }
                ));
                ui.hint(
                    "name one: `git checkpoint diff <CP>` (`git checkpoint list --all` lists them), or make one here with `git checkpoint save`",
                );
                return Err(Failure::Exit(1));
            }
            Err(err) => return Err(err.into()),
        },
    };
    ui.warn_damaged([from]);
    let to = match &args.to {
        Some(spec) => {
            let to = checkpoints.resolve(&loaded, spec)?;
            ui.warn_damaged([to]);
            Side::Checkpoint(to)
        }
        None => Side::WorkingTree,
    };
    let paths = repo_paths(&checkpoints, &args.paths)?;
    let format = args.diff.format(false, Format::Patch);
    let diff = checkpoints.diff(
        Side::Checkpoint(from),
        to,
        &paths,
        args.diff.options(&checkpoints, format),
        &ui.ctl,
    )?;
    // One write for the whole output, not one per line (stdout is line-buffered).
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        writeln!(out, "{}", json_line(&diff.to_json()))?;
    } else {
        diffargs::write(&mut out, &checkpoints, color, &args.diff, format, &diff)?;
    }
    out.flush()?;
    Ok(())
}
