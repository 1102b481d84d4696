//! `git checkpoint diff`.

use std::io::Write;

use git_checkpoint::Side;

use super::diffargs::{self, DiffArgs, Format};
use super::notices;
use super::output::{ColorChoice, Paged, Ui, json_line};
use super::picker::{self, Purpose};
use super::{Failure, open, repo_paths};

/// Show what changed between two checkpoints, or between a checkpoint and the working tree,
/// as a patch `git apply` accepts.
///
/// `diff A B`: from checkpoint A to checkpoint B. `diff A`: from A to the working tree now
/// (untracked files that are not ignored included). `diff`: from the newest checkpoint of
/// this worktree to the working tree. Nothing is written to the repository.
///
/// Paths limit it, after `--`; or, as `git diff HEAD FILE` takes them, after the checkpoints
/// without `--` when they name files or directories of the working tree (`diff @ src/`).
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The old side: a checkpoint (default: the newest).
    #[arg(value_name = "A")]
    from: Option<String>,
    /// The new side: a checkpoint (default: the working tree).
    #[arg(value_name = "B")]
    to: Option<String>,
    /// Paths given without `--` after the checkpoints, as git takes them (`diff @ src/a.rs`):
    /// a word that names no checkpoint but a file or directory of the working tree is a path.
    #[arg(hide = true, value_name = "PATH")]
    more: Vec<String>,
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

pub fn run(ui: &Ui, color: ColorChoice, mut args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    notices::warn_interrupted(ui, &checkpoints);
    let loaded = checkpoints.load()?;
    paths_as_git_takes_them(&checkpoints, &loaded, &mut args)?;
    // Without a checkpoint: on a terminal, the picker; else this worktree's newest.
    let picked;
    let from = match &args.from {
        Some(spec) => checkpoints.resolve(&loaded, spec)?,
        None if picker::available() => match picker::pick(&checkpoints, Purpose::Diff)? {
            Some(c) => {
                picked = c;
                &picked
            }
            // Left with Esc: nothing was done, which a script must be able to tell.
            None => {
                ui.info("nothing compared");
                return Err(Failure::Exit(1));
            }
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
    if args.json {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        writeln!(out, "{}", json_line(&diff.to_json()))?;
        out.flush()?;
        return Ok(());
    }
    // On a terminal, through the pager, as `git diff`.
    let mut out = Paged::start(checkpoints.settings().pager.as_deref());
    diffargs::write(&mut out, &checkpoints, color, &args.diff, format, &diff)?;
    out.finish()?;
    Ok(())
}

/// git's habit: `git diff HEAD file` compares one file, the words after the revisions that are
/// no revision but a path of the working tree being paths. The same here: from the first word
/// that names no checkpoint but an existing file or directory, every word is a path (checked
/// to exist too). A word that is neither is an error saying both, and to put paths after
/// `--`. A word that names a checkpoint is one, as with git (which refuses the ambiguity).
fn paths_as_git_takes_them(
    checkpoints: &git_checkpoint::Checkpoints,
    loaded: &git_checkpoint::Loaded,
    args: &mut Args,
) -> Result<(), Failure> {
    let words: Vec<String> = args
        .from
        .iter()
        .chain(args.to.iter())
        .chain(args.more.iter())
        .cloned()
        .collect();
    let is_checkpoint = |word: &str| checkpoints.resolve(loaded, word).is_ok();
    let is_path = |word: &str| std::path::Path::new(word).symlink_metadata().is_ok();
    let first_path = words
        .iter()
        .position(|w| !is_checkpoint(w) && is_path(w))
        .unwrap_or(words.len());
    if first_path > 2 {
        // `diff A B X`: X must be a path.
        return Err(not_a_path(&words[2]));
    }
    let (specs, paths) = words.split_at(first_path);
    if let Some(bad) = paths.iter().find(|w| !is_path(w)) {
        return Err(not_a_path(bad));
    }
    // A word that names nothing at all: say both what it is not, and where paths go.
    for spec in specs {
        if let Err(git_checkpoint::Error::UnknownCheckpoint(_)) = checkpoints.resolve(loaded, spec)
        {
            return Err(not_a_path(spec));
        }
    }
    if paths.is_empty() {
        return Ok(());
    }
    args.from = specs.first().cloned();
    args.to = specs.get(1).cloned();
    args.more.clear();
    let mut given: Vec<std::path::PathBuf> = paths.iter().map(Into::into).collect();
    given.append(&mut args.paths);
    args.paths = given;
    Ok(())
}

/// A word after the checkpoints that names neither a checkpoint nor a path.
fn not_a_path(word: &str) -> Failure {
    Failure::Core(git_checkpoint::Error::InvalidInput(format!(
        "`{word}` names no checkpoint, and no file or directory of the working tree; paths go after `--`: git checkpoint diff <A> [<B>] -- <PATH>…"
    )))
}
