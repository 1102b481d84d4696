//! `git checkpoint restore`.

use std::io::Write;
use std::path::PathBuf;

use git_checkpoint::{DiffOptions, Error, Side};

use super::output::{Ui, printable};
use super::picker;
use super::restoring::{Action, Flags, housekeeping, report};
use super::{Failure, open, repo_paths};

/// Make the working tree equal to a checkpoint (all of it, or the paths given), after saving
/// the current state as a `pre-restore` checkpoint so that the restore can itself be undone.
///
/// Only files that differ are written. Ignored files, nested repositories and submodule
/// contents are never deleted; an ignored file standing where the checkpoint needs a path
/// makes restore refuse unless --force. Paths checkpoint.exclude leaves out are never touched.
/// A file another process changes during the restore is left as it is, and named. HEAD, the
/// branch, the index (unless --staged) and the stash are left alone.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The checkpoint: an id, `@`, `@{N}`, a name, or an id or commit prefix. Without it, on a
    /// terminal, a picker lists this worktree's checkpoints with a preview of each.
    #[arg(value_name = "CP")]
    checkpoint: Option<String>,
    #[command(flatten)]
    flags: Flags,
    /// Also rewind the conversation: write a new session of the agent whose transcript ends at
    /// the checkpoint (the original is never changed) and print the command that resumes it;
    /// where the agent's format cannot be written safely, and for a conversation given with
    /// `save --conversation`, export it to a new file instead.
    #[arg(long, conflicts_with_all = ["hunks", "patch"])]
    conversation: bool,
    /// Restore only this hunk of the difference between the checkpoint and the working tree
    /// (repeatable; ids as `git checkpoint diff --json <CP>` gives them).
    #[arg(long = "hunk", value_name = "ID", conflicts_with_all = ["paths", "patch"])]
    hunks: Vec<String>,
    /// Choose the hunks to restore one by one (y, n, q, a, d, s, ?), as `git restore -p`;
    /// with paths, only their hunks.
    #[arg(short = 'p', long = "patch", conflicts_with = "json")]
    patch: bool,
    /// Restore only these paths (files or directories), relative to the current directory.
    #[arg(last = true, value_name = "PATHS")]
    paths: Vec<PathBuf>,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint restore before-refactor           # the whole working tree
  git checkpoint restore @ -- src/lib.rs           # one file
  git checkpoint restore @{2} --dry-run            # what would be written and deleted
  git checkpoint restore before-refactor --staged  # the staged state too
  git checkpoint restore @{3} --conversation       # the files, and the agent's session as it was
  git checkpoint restore @ -p                      # choose the hunks one by one
  git checkpoint restore @ --hunk 3f2a9c0d1e4b5a6c # one hunk (ids: git checkpoint diff --json @)";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    let loaded = checkpoints.load()?;
    let picked;
    let mut picked_hunk = None;
    let target = match &args.checkpoint {
        Some(spec) => checkpoints.resolve(&loaded, spec)?,
        None => match picker::pick_restore(&checkpoints)? {
            Some((c, hunk)) => {
                picked = c;
                picked_hunk = hunk;
                &picked
            }
            // Left with Esc: nothing was done, which a script must be able to tell.
            None => {
                ui.info("nothing restored");
                return Err(Failure::Exit(1));
            }
        },
    };
    if !args.flags.quiet {
        ui.warn_damaged([target]);
    }
    let paths = repo_paths(&checkpoints, &args.paths)?;
    // Refused before any file changes when there is no conversation to rewind.
    if args.conversation && checkpoints.conversation(target)?.is_none() {
        return Err(Error::InvalidInput(git_checkpoint::no_conversation(target)).into());
    }
    if picked_hunk.is_some() && args.conversation {
        return Err(Error::InvalidInput(
            "one hunk restores no conversation: pick the whole checkpoint (Enter) for --conversation".into(),
        )
        .into());
    }
    let mut options = args.flags.options(paths);
    options.hunks = args.hunks.clone();
    options.hunks.extend(picked_hunk);
    if args.patch {
        if args.flags.staged {
            return Err(Error::InvalidInput(
                "-p restores hunks of the working tree, not the index: leave out --staged".into(),
            )
            .into());
        }
        let diff = checkpoints.diff(
            Side::Checkpoint(target),
            Side::WorkingTree,
            &options.paths,
            DiffOptions {
                renames: checkpoints.renames(None, false),
                ..DiffOptions::default()
            },
            &ui.ctl,
        )?;
        match super::interactive::choose(ui, &diff.hunks(), super::interactive::Verb::Restore)? {
            Some(chosen) => {
                options.hunks = chosen;
                options.paths.clear();
            }
            None => return Ok(()),
        }
    }
    args.flags.warn_if_interrupted(ui, &checkpoints);
    let restored = checkpoints.restore(target, &options, &ui.ctl)?;
    let action = match options.hunks.len() {
        0 => Action::Restore,
        n => Action::RestoreHunks(n),
    };
    report(ui, checkpoints.quoting(), &args.flags, action, &restored)?;
    housekeeping(ui, &args.flags, &restored);
    if args.conversation && !args.flags.dry_run {
        let rewound = checkpoints.rewind_conversation(target)?;
        let mut out = std::io::stdout().lock();
        match (&rewound.session, &rewound.exported) {
            (Some(session), None) => {
                writeln!(
                    out,
                    "wrote a new {} session {session} ending at checkpoint {}: {}",
                    rewound.format,
                    target.id,
                    printable(&rewound.path.display().to_string(), false)
                )?;
                if let Some(resume) = &rewound.resume {
                    writeln!(out, "resume it with: {resume}")?;
                }
            }
            (_, why) => writeln!(
                out,
                "exported the conversation of checkpoint {} to {}{}",
                target.id,
                printable(&rewound.path.display().to_string(), false),
                why.as_ref().map(|w| format!(" ({w})")).unwrap_or_default()
            )?,
        }
    } else if args.conversation && !args.flags.quiet {
        ui.info("dry run: the conversation would be rewound too; nothing was written");
    }
    Ok(())
}
