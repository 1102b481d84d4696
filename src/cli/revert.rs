//! `git checkpoint revert`.

use git_checkpoint::{ConflictKind, RevertOptions};

use super::output::Ui;
use super::restoring::{Action, Flags, housekeeping, report};
use super::{Failure, open};

/// Take back one step's change, keeping everything changed since.
///
/// The change from checkpoint A to checkpoint B (by default the checkpoint after A in this
/// worktree: what one agent step did) is taken back from the working tree now by a three-way
/// merge, as `git revert` takes back a commit: files the step changed and nobody touched since
/// go back; changes made after it stay. `revert session:<ID>` takes back a whole agent
/// session. When the step and later changes touch the same lines, the whole revert is refused
/// and the files named, unless --conflicts=markers. A pre-restore checkpoint is saved first:
/// `git checkpoint undo` takes the revert back.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint revert @{1}                  # take back the last step: from @{1} to @
  git checkpoint revert @{3} @{2} --dry-run   # what taking back an older step would write
  git checkpoint revert session:@             # take back the newest agent session
  git checkpoint revert @{1} --conflicts=markers   # conflicting files get markers, as git's
  git checkpoint undo                         # changed your mind")]
pub struct Args {
    /// The start of the step: the state to take its change back to.
    #[arg(value_name = "A")]
    from: String,
    /// The end of the step (default: the checkpoint after A in this worktree).
    #[arg(value_name = "B")]
    to: Option<String>,
    /// What to do when the step's change and later changes conflict: refuse the whole revert
    /// (the default), or write the files with conflict markers.
    #[arg(long, value_name = "HOW", default_value = "refuse")]
    conflicts: Conflicts,
    /// Print what would be written and deleted; change nothing, save nothing.
    #[arg(long)]
    dry_run: bool,
    /// Revert during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that
    /// stand in the way (their content is kept in the pre-restore checkpoint first).
    #[arg(long)]
    force: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Print the outcome as JSON.
    #[arg(long)]
    json: bool,
}

/// `--conflicts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Conflicts {
    /// Change nothing and name the conflicting files.
    Refuse,
    /// Write conflicting files with conflict markers, as `git revert` leaves them.
    Markers,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let flags = Flags {
        dry_run: args.dry_run,
        staged: false,
        no_save: false,
        force: args.force,
        quiet: args.quiet,
        json: args.json,
    };
    let checkpoints = open()?;
    let loaded = checkpoints.load()?;
    let (from, to) = checkpoints.revert_range(&loaded, &args.from, args.to.as_deref())?;
    flags.warn_if_interrupted(ui, &checkpoints);
    let options = RevertOptions {
        markers: args.conflicts == Conflicts::Markers,
        dry_run: flags.dry_run,
        force: flags.force,
    };
    let reverted = match checkpoints.revert(&from, &to, &options, &ui.ctl) {
        Err(err @ git_checkpoint::Error::RevertConflicts(_)) => {
            // The hint, with this revert's checkpoint and files filled in.
            let git_checkpoint::Error::RevertConflicts(paths) = &err else {
                return Err(err.into());
            };
            ui.error(&err.to_string());
            let files: Vec<String> = paths.iter().map(|p| shell_word(p)).collect();
            ui.hint(&format!(
                "`git checkpoint revert {} --conflicts=markers` writes them with conflict markers; or put those files back as they were before the step: git checkpoint restore {} -- {}",
                shell_word(&args.from),
                from.id,
                files.join(" ")
            ));
            return Err(Failure::Exit(1));
        }
        reverted => reverted?,
    };
    if flags.json {
        let out = super::output::json_line(&reverted.to_json());
        std::io::Write::write_all(&mut std::io::stdout().lock(), format!("{out}\n").as_bytes())?;
    } else {
        report(
            ui,
            checkpoints.quoting(),
            &flags,
            Action::Revert {
                from: &from.id,
                to: &to.id,
            },
            &reverted.restored,
        )?;
    }
    for (path, kind) in reverted.conflicts.iter().zip(&reverted.conflict_kinds) {
        let what = match kind {
            ConflictKind::Markers => "resolve the markers".to_string(),
            ConflictKind::Binary => format!(
                "a binary file changed since, which cannot hold markers: it was left as it was (its state before the step: git checkpoint restore {} -- {path})",
                from.id
            ),
            ConflictKind::ModifiedAndDeleted => format!(
                "changed on one side and deleted on the other: the changed version is in the working tree, without markers (delete it if the deletion should win; its state before the step: git checkpoint restore {} -- {path})",
                from.id
            ),
            _ => "both versions are kept where git keeps them, without markers: choose one".into(),
        };
        ui.warn(&format!("conflict in `{path}`: {what}"));
    }
    housekeeping(ui, &flags, &reverted.restored);
    Ok(())
}

/// `word` as one word of a POSIX shell's command line: as it is when it holds only characters
/// no shell treats specially, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./@{}:+=,%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
