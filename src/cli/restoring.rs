//! What `restore` and `undo` share: their flags, and the report of what they did.

use std::io::Write;

use git_checkpoint::{Checkpoints, Quoting, RestoreOptions, Restored, Saved};

use super::Failure;
use super::notices;
use super::output::{Ui, json_line};
use super::render::files;

/// Flags shared by `restore` and `undo`.
#[derive(Debug, clap::Args)]
pub struct Flags {
    /// Print what would be written and deleted; change nothing, save nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Also restore the index (staged changes) recorded in the checkpoint; with paths, only
    /// their entries.
    #[arg(long)]
    pub staged: bool,
    /// Do not save a pre-restore checkpoint first (the restore cannot be undone).
    #[arg(long)]
    pub no_save: bool,
    /// Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that
    /// stand in the way (their content is kept in the pre-restore checkpoint first, so never
    /// with --no-save).
    #[arg(long)]
    pub force: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print the outcome as JSON.
    #[arg(long)]
    pub json: bool,
}

impl Flags {
    pub fn options(&self, paths: Vec<gix::bstr::BString>) -> RestoreOptions {
        RestoreOptions {
            paths,
            dry_run: self.dry_run,
            staged: self.staged,
            no_save: self.no_save,
            force: self.force,
            hunks: Vec::new(),
        }
    }

    /// A dry run changes nothing, so it does not complete an interrupted restore: it warns.
    pub fn warn_if_interrupted(&self, ui: &Ui, checkpoints: &Checkpoints) {
        if self.dry_run && !self.quiet {
            notices::warn_interrupted(ui, checkpoints);
        }
    }
}

/// What restored the working tree, for the words of its report.
#[derive(Debug, Clone, Copy)]
pub enum Action<'a> {
    Restore,
    /// Some hunks of the checkpoint restored.
    RestoreHunks(usize),
    Undo,
    Redo,
    /// A change taken back: "the change from checkpoint A to B", "2 hunks of …", "the 3
    /// own steps of session S".
    Revert(&'a str),
}

/// Print what a restore (or undo, redo, revert) did, and how to take it back.
pub fn report(
    ui: &Ui,
    quoting: Quoting,
    flags: &Flags,
    action: Action<'_>,
    restored: &Restored,
) -> Result<(), Failure> {
    let plan = &restored.plan;
    let mut out = std::io::stdout().lock();
    if flags.json {
        writeln!(out, "{}", json_line(&restored.to_json()))?;
    } else {
        let p = &ui.out_paint;
        // Paths as git quotes them: a checkpoint's tree may come from someone else.
        let quoted = |path: &String| quoting.quote(path.as_bytes().into());
        for path in &plan.replaced_ignored {
            writeln!(out, "{}  {}", p.deleted("R"), quoted(path))?;
        }
        for path in &plan.delete {
            writeln!(out, "{}  {}", p.deleted("D"), quoted(path))?;
        }
        for path in &plan.write {
            writeln!(out, "{}  {}", p.added("W"), quoted(path))?;
        }
        for path in &plan.left_alone {
            writeln!(out, "{}  {}", p.deleted("!"), quoted(path))?;
        }
    }
    // Completing a killed restore first changed files: that is said even with -q.
    if let Some(done) = &restored.interrupted {
        notices::report_completed(ui, done);
    }
    if !flags.quiet {
        describe(ui, action, restored);
        if !plan.excluded.is_empty() {
            const NAMED: usize = 3;
            let mut named: Vec<String> = plan
                .excluded
                .iter()
                .take(NAMED)
                .map(|p| format!("`{}`", quoting.quote(p.as_bytes().into())))
                .collect();
            if plan.excluded.len() > NAMED {
                named.push(format!("{} more", plan.excluded.len() - NAMED));
            }
            let one = plan.excluded.len() == 1;
            ui.info(&format!(
                "not restored: {} that checkpoint.exclude leaves out, left as {}: {}",
                files(plan.excluded.len()),
                if one { "it is" } else { "they are" },
                named.join(", ")
            ));
        }
    }
    if !plan.left_alone.is_empty() {
        // The working tree is not the checkpoint: a script must not go on as if it were.
        let named: Vec<String> = plan
            .left_alone
            .iter()
            .map(|p| format!("`{}`", quoting.quote(p.as_bytes().into())))
            .collect();
        ui.error(&format!(
            "{} changed while the restore ran and {} left as {} (the rest was restored): {}",
            files(named.len()),
            if named.len() == 1 { "was" } else { "were" },
            if named.len() == 1 {
                "it is"
            } else {
                "they are"
            },
            named.join(", ")
        ));
        ui.hint("restore again to replace them too: their new content is saved first");
        return Err(Failure::Exit(1));
    }
    Ok(())
}

/// What follows a restore that made a safety checkpoint: retention's report.
pub fn housekeeping(ui: &Ui, flags: &Flags, restored: &Restored) {
    notices::housekeeping(ui, &restored.housekeeping, flags.quiet || flags.json);
}

/// "1 hunk", "3 hunks".
pub fn hunks(n: usize) -> String {
    if n == 1 {
        "1 hunk".into()
    } else {
        format!("{n} hunks")
    }
}

/// The lines on stderr that say what a restore did and how to undo it.
fn describe(ui: &Ui, action: Action<'_>, restored: &Restored) {
    let plan = &restored.plan;
    let id = &restored.target.id;
    let steps = restored.steps;
    let ignored = if plan.replaced_ignored.is_empty() {
        String::new()
    } else {
        format!(", {} ignored replaced", plan.replaced_ignored.len())
    };
    if restored.dry_run {
        let what = match action {
            Action::Restore => format!("restoring checkpoint {id}"),
            Action::RestoreHunks(n) => format!("restoring {} of checkpoint {id}", hunks(n)),
            Action::Undo if steps > 1 => format!("undoing {steps} steps (to checkpoint {id})"),
            Action::Undo => format!("undoing (to checkpoint {id})"),
            Action::Redo if steps > 1 => format!("redoing {steps} undos (to checkpoint {id})"),
            Action::Redo => format!("redoing (to checkpoint {id})"),
            Action::Revert(what) => format!("reverting {what}"),
        };
        ui.info(&format!(
            "dry run: {what} would write {} and delete {}{ignored}; nothing was changed",
            files(plan.write.len()),
            files(plan.delete.len()),
        ));
        notices::warn_kept_and_head(ui, restored);
        notices::index_mismatch(ui, restored);
        return;
    }
    if plan.is_empty() && !restored.index_restored {
        ui.info(&match action {
            Action::Revert(what) => {
                format!("nothing to revert: the working tree already has {what} taken back")
            }
            _ => format!("the working tree already matches checkpoint {id}; nothing to do"),
        });
    } else {
        let counts = format!(
            "{} written, {} deleted{ignored}{}",
            files(plan.write.len()),
            plan.delete.len(),
            if restored.index_restored {
                ", index restored"
            } else {
                ""
            }
        );
        ui.info(&match action {
            Action::Undo if steps > 1 => {
                format!("undid {steps} steps, back to checkpoint {id}: {counts}")
            }
            Action::Redo if steps > 1 => {
                format!("redid {steps} undos, back to checkpoint {id}: {counts}")
            }
            Action::Revert(what) => format!("reverted {what}: {counts}"),
            Action::RestoreHunks(n) => {
                format!("restored {} of checkpoint {id}: {counts}", hunks(n))
            }
            _ => format!("restored checkpoint {id}: {counts}"),
        });
    }
    notices::warn_kept_and_head(ui, restored);
    notices::index_mismatch(ui, restored);
    let staged = if restored.index_restored {
        " --staged"
    } else {
        ""
    };
    match &restored.safety {
        Some(Saved::Created(c)) if steps > 1 => {
            let again = match action {
                Action::Undo => format!("git checkpoint redo {steps}, or "),
                _ => String::new(),
            };
            ui.info(&format!(
                "saved the state before these {steps} steps as checkpoint {}; undo them all with: {again}git checkpoint restore {}{staged}",
                c.id, c.id,
            ))
        }
        Some(Saved::Created(c)) => ui.info(&format!(
            "saved the previous state as checkpoint {}; undo with: git checkpoint restore {}{staged}",
            c.id, c.id,
        )),
        Some(Saved::Unchanged(c)) => ui.info(&format!(
            "the previous state is checkpoint {}; undo with: git checkpoint restore {}{staged}",
            c.id, c.id,
        )),
        None if !plan.is_empty() => {
            ui.warn("--no-save: no pre-restore checkpoint was made; this restore cannot be undone")
        }
        None => {}
    }
}
