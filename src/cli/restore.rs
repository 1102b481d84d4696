//! `git checkpoint restore`.

use std::io::Write;
use std::path::PathBuf;

use git_checkpoint::journal::Completed;
use git_checkpoint::resolve;
use git_checkpoint::restore::{RestoreOptions, Restored};
use git_checkpoint::save::Saved;

use super::output::Ui;
use super::{Failure, open_repo};

/// Make the working tree equal to a checkpoint (all of it, or the paths given), after saving
/// the current state as a `pre-restore` checkpoint so that the restore can itself be undone.
///
/// Only files that differ are written. Ignored files, nested repositories and submodule
/// contents are never deleted; an ignored file standing where the checkpoint needs a path
/// makes restore refuse unless --force. HEAD, the branch, the index (unless --staged) and the
/// stash are left alone.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The checkpoint: an id, `@`, `@{N}`, a name, or an id or commit prefix.
    #[arg(value_name = "CP")]
    checkpoint: String,
    #[command(flatten)]
    flags: Flags,
    /// Restore only these paths (files or directories), relative to the current directory.
    #[arg(last = true, value_name = "PATHS")]
    paths: Vec<PathBuf>,
}

/// Flags shared by `restore` and `undo`.
#[derive(Debug, clap::Args)]
pub struct Flags {
    /// Print what would be written and deleted; change nothing, save nothing.
    #[arg(long)]
    dry_run: bool,
    /// Also restore the index (staged changes) recorded in the checkpoint.
    #[arg(long)]
    staged: bool,
    /// Do not save a pre-restore checkpoint first (the restore cannot be undone).
    #[arg(long)]
    no_save: bool,
    /// Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that
    /// stand in the way (their content is kept in the pre-restore checkpoint first, so never
    /// with --no-save).
    #[arg(long)]
    force: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Print the outcome as JSON.
    #[arg(long)]
    json: bool,
}

impl Flags {
    pub fn options(&self, paths: Vec<gix::bstr::BString>) -> RestoreOptions {
        RestoreOptions {
            paths,
            dry_run: self.dry_run,
            staged: self.staged,
            no_save: self.no_save,
            force: self.force,
        }
    }

    /// A dry run changes nothing, so it does not complete an interrupted restore: it warns.
    pub fn warn_if_interrupted(&self, ui: &Ui, repo: &gix::Repository) {
        if self.dry_run && !self.quiet {
            warn_interrupted(ui, repo);
        }
    }
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let repo = open_repo()?;
    let worktree = git_checkpoint::repo::worktree_name(&repo)?;
    let all = resolve::load_all(&repo)?;
    let target = resolve::resolve(&all, worktree.as_deref(), &args.checkpoint)?;
    if !args.flags.quiet {
        ui.warn_damaged([target]);
    }
    let paths = super::repo_paths(&repo, &args.paths)?;
    args.flags.warn_if_interrupted(ui, &repo);
    let restored = git_checkpoint::restore::restore(&repo, target, &args.flags.options(paths))?;
    report(ui, &args.flags, &restored)?;
    housekeeping(ui, &repo, &args.flags, &restored);
    Ok(())
}

/// A restore's safety checkpoint is a save like any other: retention and gc follow it, never
/// removing the checkpoint just restored.
pub fn housekeeping(ui: &Ui, repo: &gix::Repository, flags: &Flags, restored: &Restored) {
    if let Some(git_checkpoint::save::Saved::Created(safety)) = &restored.safety {
        let protect = [safety.id.as_str(), restored.target.id.as_str()];
        super::save::after_save(ui, repo, &protect, flags.quiet || flags.json);
    }
}

/// Print what a restore (or undo) did, and how to take it back.
pub fn report(ui: &Ui, flags: &Flags, restored: &Restored) -> Result<(), Failure> {
    let plan = &restored.plan;
    let safety_id = restored.safety.as_ref().map(|s| s.checkpoint().id.clone());
    let mut out = std::io::stdout().lock();
    if flags.json {
        let value = serde_json::json!({
            "target": restored.target.id,
            "commit": restored.target.commit.to_string(),
            "dry_run": restored.dry_run,
            "write": plan.write,
            "delete": plan.delete,
            "kept": plan.kept,
            "replaced_ignored": plan.replaced_ignored,
            "safety": safety_id,
            "index_restored": restored.index_restored,
            "head_moved": restored.head_moved.is_some(),
            "interrupted_restore": restored.interrupted.as_ref().map(|c| serde_json::json!({
                "target": c.target,
                "safety": c.safety,
                "partial": c.partial,
                "failed": c.failed,
            })),
        });
        writeln!(out, "{value}")?;
    } else {
        let p = &ui.out_paint;
        // Paths as git quotes them: a checkpoint's tree may come from someone else.
        let quoted = |path: &String| super::diff::quote(path.as_bytes().into());
        for path in &plan.replaced_ignored {
            writeln!(out, "{}  {}", p.deleted("R"), quoted(path))?;
        }
        for path in &plan.delete {
            writeln!(out, "{}  {}", p.deleted("D"), quoted(path))?;
        }
        for path in &plan.write {
            writeln!(out, "{}  {}", p.added("W"), quoted(path))?;
        }
    }
    // Completing a killed restore first changed files: that is said even with -q.
    if let Some(done) = &restored.interrupted {
        report_completed(ui, done);
    }
    if flags.quiet {
        return Ok(());
    }
    let id = &restored.target.id;
    let counts = format!(
        "{} written, {} deleted{}",
        files(plan.write.len()),
        plan.delete.len(),
        if plan.replaced_ignored.is_empty() {
            String::new()
        } else {
            format!(", {} ignored replaced", plan.replaced_ignored.len())
        }
    );
    if restored.dry_run {
        ui.info(&format!(
            "dry run: restoring {id} would leave {counts}; nothing was changed"
        ));
    } else if plan.is_empty() && !restored.index_restored {
        ui.info(&format!(
            "the working tree already matches checkpoint {id}; nothing to do"
        ));
    } else {
        ui.info(&format!(
            "restored checkpoint {id}: {counts}{}",
            if restored.index_restored {
                ", index restored"
            } else {
                ""
            }
        ));
    }
    warn_kept_and_head(ui, restored);
    match &restored.safety {
        Some(Saved::Created(c)) => ui.info(&format!(
            "saved the previous state as checkpoint {}; undo with: git checkpoint restore {}{}",
            c.id,
            c.id,
            if restored.index_restored {
                " --staged"
            } else {
                ""
            }
        )),
        Some(Saved::Unchanged(c)) => ui.info(&format!(
            "the previous state is checkpoint {}; undo with: git checkpoint restore {}{}",
            c.id,
            c.id,
            if restored.index_restored {
                " --staged"
            } else {
                ""
            }
        )),
        None if !restored.dry_run && !plan.is_empty() => {
            ui.warn("--no-save: no pre-restore checkpoint was made; this restore cannot be undone")
        }
        None => {}
    }
    Ok(())
}

/// Warn about what a restore left in place: nested repositories, and a `HEAD` that moved.
pub fn warn_kept_and_head(ui: &Ui, restored: &Restored) {
    for path in &restored.plan.kept {
        ui.warn(&format!(
            "kept `{path}`: a nested repository or submodule is never deleted"
        ));
    }
    if let Some(now) = &restored.head_moved {
        let then = restored
            .target
            .meta
            .head
            .commit
            .as_deref()
            .unwrap_or("none");
        ui.warn(&format!(
            "HEAD has moved since this checkpoint was taken (then {}, now {}); HEAD was left alone",
            then.get(..7).unwrap_or(then),
            now.as_deref().map_or("none", |n| n.get(..7).unwrap_or(n))
        ));
    }
}

/// One line about an interrupted restore that this command found and completed first.
pub fn report_completed(ui: &Ui, done: &Completed) {
    let before = match &done.safety {
        Some(safety) => format!("the state before it is checkpoint {safety}"),
        None => "it ran with --no-save, so the state before it was not kept".to_string(),
    };
    match &done.failed {
        None => {
            let partial = match &done.partial {
                Some(p) => format!("; the partial state it left is checkpoint {p}"),
                None => String::new(),
            };
            ui.info(&format!(
                "completed an interrupted restore of {}; {before}{partial}",
                done.target
            ));
        }
        Some(why) => {
            let left = match &done.partial {
                Some(p) => format!(" (saved as checkpoint {p})"),
                None => String::new(),
            };
            ui.warn(&format!(
                "could not complete an interrupted restore of {}: {why}; the working tree is as it left it{left}; {before}",
                done.target
            ));
        }
    }
}

/// For commands that change nothing: warn when a restore died part-way and waits to be
/// completed by the next save, restore or undo.
pub fn warn_interrupted(ui: &Ui, repo: &gix::Repository) {
    if let Some(found) = git_checkpoint::journal::interrupted(repo) {
        let before = match &found.safety {
            Some(safety) => format!("the state before it is checkpoint {safety}"),
            None => "it ran with --no-save".to_string(),
        };
        ui.warn(&format!(
            "a restore of {} was interrupted; the next save, restore or undo completes it ({before})",
            found.target
        ));
    }
}

fn files(n: usize) -> String {
    if n == 1 {
        "1 file".into()
    } else {
        format!("{n} files")
    }
}
