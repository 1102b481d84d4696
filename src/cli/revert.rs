//! `git checkpoint revert`.

use git_checkpoint::{ConflictKind, DiffOptions, RevertOptions, Side};

use super::output::Ui;
use super::restoring::{Action, Flags, housekeeping, report};
use super::{Failure, open};

/// Take back one step's change, keeping everything changed since.
///
/// The change from checkpoint A to checkpoint B (by default the checkpoint after A in this
/// worktree: what one agent step did) is taken back from the working tree now by a three-way
/// merge, as `git revert` takes back a commit: files the step changed and nobody touched since
/// go back; changes made after it stay. --hunk and -p take back only some hunks of the step.
///
/// `revert session:<ID>` takes back exactly that agent session's own steps, and `--agent NAME`
/// every session of that agent: each step from the checkpoint its hook took before a tool call
/// to the next checkpoint of the worktree, taken by anyone. What other sessions and the user
/// changed in between stays. When the step and later changes touch the same lines, the whole
/// revert is refused, naming the files and lines, unless --conflicts=markers. A pre-restore
/// checkpoint is saved first: `git checkpoint undo` takes the revert back.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint revert @{1}                  # take back the last step: from @{1} to @
  git checkpoint revert @{3} @{2} --dry-run   # what taking back an older step would write
  git checkpoint revert session:@             # take back the newest agent session's own steps
  git checkpoint revert --agent codex         # every step of every codex session here
  git checkpoint revert @{1} -p               # choose the hunks one by one
  git checkpoint revert @{1} --hunk 3f2a9c0d1e4b5a6c   # one hunk (ids: diff --json @{1} @)
  git checkpoint revert @{1} --conflicts=markers   # conflicting files get markers, as git's
  git checkpoint undo                         # changed your mind")]
pub struct Args {
    /// The start of the step: the state to take its change back to; `session:<ID>` for that
    /// session's own steps.
    #[arg(value_name = "A", required_unless_present = "agent")]
    from: Option<String>,
    /// The end of the step (default: the checkpoint after A in this worktree).
    #[arg(value_name = "B")]
    to: Option<String>,
    /// Take back the own steps of every session of this agent (`claude-code`, `codex` and so
    /// on) in this worktree, keeping what everyone else changed.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["from", "to"])]
    agent: Option<String>,
    /// Take back only this hunk of the step's change (repeatable; ids as `git checkpoint diff
    /// --json A B` gives them).
    #[arg(long = "hunk", value_name = "ID", conflicts_with = "agent")]
    hunks: Vec<String>,
    /// Choose the hunks to take back one by one (y, n, q, a, d, s, ?), as `git restore -p`.
    #[arg(short = 'p', long = "patch", conflicts_with_all = ["hunks", "agent", "json"])]
    patch: bool,
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
    let span = match (&args.agent, &args.from) {
        (Some(agent), _) => checkpoints.revert_agent(&loaded, agent)?,
        (None, Some(from)) => checkpoints.revert_range(&loaded, from, args.to.as_deref())?,
        (None, None) => unreachable!("clap requires A or --agent"),
    };
    let (from, to) = (&span.from, &span.to);
    let mut hunks = args.hunks.clone();
    if args.patch {
        if span.own_steps {
            return Err(git_checkpoint::Error::InvalidInput(
                "-p takes hunks of one step (`revert <A> [<B>]`), not of a session's steps".into(),
            )
            .into());
        }
        let diff = checkpoints.diff(
            Side::Checkpoint(from),
            Side::Checkpoint(to),
            &[],
            DiffOptions {
                renames: checkpoints.renames(None, false),
                ..DiffOptions::default()
            },
            &ui.ctl,
        )?;
        match super::interactive::choose(ui, &diff.hunks(), super::interactive::Verb::Revert)? {
            Some(chosen) => hunks = chosen,
            None => return Ok(()),
        }
    }
    flags.warn_if_interrupted(ui, &checkpoints);
    let options = RevertOptions {
        markers: args.conflicts == Conflicts::Markers,
        dry_run: flags.dry_run,
        force: flags.force,
        hunks,
    };
    let reverted = match checkpoints.revert(&span, &options, &ui.ctl) {
        Err(err @ git_checkpoint::Error::RevertConflicts { .. }) => {
            // The hint, with this revert's checkpoint and files filled in.
            let git_checkpoint::Error::RevertConflicts { paths, .. } = &err else {
                return Err(err.into());
            };
            ui.error(&err.to_string());
            let files: Vec<String> = paths.iter().map(|p| shell_word(p)).collect();
            let again = again(&args, &options.hunks).join(" ");
            ui.hint(&format!(
                "`git checkpoint revert {again} --conflicts=markers` writes them with conflict markers; or put those files back as they were before: git checkpoint restore {} -- {}",
                from.id,
                files.join(" ")
            ));
            return Err(Failure::Exit(1));
        }
        reverted => reverted?,
    };
    let change = format!("the change from checkpoint {} to {}", from.id, to.id);
    let what = match (&args.agent, &args.from) {
        _ if !options.hunks.is_empty() => {
            format!(
                "{} of {change}",
                super::restoring::hunks(options.hunks.len())
            )
        }
        (Some(agent), _) => format!("{} of agent {agent}", steps(reverted.steps)),
        (None, Some(_)) if span.own_steps => format!(
            "{} of session {}",
            steps(reverted.steps),
            span.from.meta.session.as_deref().unwrap_or_default()
        ),
        _ => change,
    };
    if flags.json {
        let out = super::output::json_line(&reverted.to_json());
        std::io::Write::write_all(&mut std::io::stdout().lock(), format!("{out}\n").as_bytes())?;
    } else {
        report(
            ui,
            checkpoints.quoting(),
            &flags,
            Action::Revert(&what),
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

/// The words of the revert that was refused, to run it again with `--conflicts=markers`: its
/// range or agent as given, the hunks taken back (those chosen with -p too, by id), and the
/// flags that change what it does.
fn again(args: &Args, hunks: &[String]) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(agent) = &args.agent {
        words.push(format!("--agent {}", shell_word(agent)));
    }
    words.extend(args.from.iter().chain(&args.to).map(|cp| shell_word(cp)));
    words.extend(hunks.iter().map(|id| format!("--hunk {}", shell_word(id))));
    for (set, flag) in [
        (args.dry_run, "--dry-run"),
        (args.force, "--force"),
        (args.json, "--json"),
    ] {
        if set {
            words.push(flag.to_string());
        }
    }
    words
}

/// "the own step", "the 3 own steps".
fn steps(n: usize) -> String {
    if n == 1 {
        "the own step".into()
    } else {
        format!("the {n} own steps")
    }
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
