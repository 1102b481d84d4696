//! Restore: make the working tree equal to a checkpoint, losing nothing.
//!
//! The invariant: **restore deletes or overwrites only what its safety checkpoint holds.**
//! Ignored files, files skipped by the size guard, paths `checkpoint.exclude` leaves out,
//! nested repositories and submodule contents are left where they are. An ignored or skipped
//! file standing in the way of the target makes restore refuse (or, with `force`, be saved into
//! the safety checkpoint first); a target path at or inside a nested repository or submodule
//! makes it refuse, whatever the flags. An excluded path of the target is not restored.
//!
//! A restore is worked out first ([`plan`]: nothing changes), then the safety checkpoint is
//! recorded, the journal written, and the plan applied ([`apply`]), rolled back if a step
//! fails.

use gix::bstr::BString;

use crate::capture::Captured;
use crate::control::Control;
use crate::error::{Error, Result};
use crate::format;
use crate::journal::{Completed, Entry, Guard};
use crate::record::{self, Housekeeping, SaveOptions, Saved};
use crate::store::Checkpoint;

mod apply;
mod plan;

pub use crate::treediff::is_at_or_below;
pub(crate) use plan::index_mismatch;
#[cfg(test)]
pub(crate) use plan::validate_path;

/// How to restore.
/// How to restore.
#[derive(Debug, Clone, Default)]
pub struct RestoreOptions {
    /// Restore only these paths (relative to the top of the working tree; a directory means
    /// everything below it). Empty: everything.
    pub paths: Vec<BString>,
    /// Only say what would be done.
    pub dry_run: bool,
    /// Also restore the index as it was recorded in the checkpoint.
    pub staged: bool,
    /// Do not take a `pre-restore` checkpoint first.
    pub no_save: bool,
    /// Restore even during a merge/rebase/…, and replace ignored (or size-skipped) files
    /// standing in the way after keeping them in the safety checkpoint. Without a safety
    /// checkpoint (`no_save`) they are always refused: nothing would keep their content.
    pub force: bool,
    /// Take back only these hunks of the difference between the checkpoint and the working
    /// tree (ids as `diff --json` gives them); empty: whole files. Not with `paths` or
    /// `staged`.
    pub hunks: Vec<String>,
}

/// What a restore does (or did).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Plan {
    /// Files created or rewritten.
    pub write: Vec<String>,
    /// Files deleted.
    pub delete: Vec<String>,
    /// Nested repositories and submodules absent from the target, left in place.
    pub kept: Vec<String>,
    /// Ignored or skipped files standing in the way, replaced because of `force`.
    pub replaced_ignored: Vec<String>,
    /// Files left as they are because another process changed them (or created them) after
    /// the safety checkpoint was taken: their new content is in no checkpoint, so they were
    /// not replaced or deleted. Restoring again saves them first, then replaces them.
    pub left_alone: Vec<String>,
    /// Paths of the checkpoint that `checkpoint.exclude` leaves out, not restored: nothing
    /// was written there, and what stands there (or below) was left as it is.
    pub excluded: Vec<String>,
}

impl Plan {
    /// Whether the restore changes nothing in the working tree.
    pub fn is_empty(&self) -> bool {
        self.write.is_empty() && self.delete.is_empty() && self.replaced_ignored.is_empty()
    }
}

/// The outcome of a restore.
#[derive(Debug, Clone)]
pub struct Restored {
    /// The checkpoint restored.
    pub target: Checkpoint,
    /// What was (or, for a dry run, would be) done.
    pub plan: Plan,
    /// The safety checkpoint holding the state before the restore: a new `pre-restore`
    /// checkpoint, or the newest checkpoint when it already held exactly that state.
    pub safety: Option<Saved>,
    /// Whether the index was restored (`staged`).
    pub index_restored: bool,
    /// Files this restore wrote or deleted whose entry in the index differs from the staged
    /// state the checkpoint recorded, when the index was left alone and `HEAD` has not moved:
    /// `git status` then shows them otherwise than when the checkpoint was taken (a file that
    /// was staged as new as untracked, a staged rename as `RD`), and restoring with `staged`
    /// would bring that state back too.
    pub index_mismatch: Vec<String>,
    /// `HEAD` now, when it differs from the `HEAD` the checkpoint was taken on.
    pub head_moved: Option<Option<String>>,
    /// Whether this was a dry run.
    pub dry_run: bool,
    /// An interrupted restore that was found, and completed, before this one began.
    pub interrupted: Option<Completed>,
    /// What retention did after the safety checkpoint was made.
    pub housekeeping: Housekeeping,
    /// How many steps were taken: 1 for a restore; for `undo N` and `redo N`, fewer than N
    /// when the history ran out (this outcome is then the last step's).
    pub steps: usize,
}

impl Restored {
    /// The JSON object every front end gives for a restore (`restore --json`, `undo --json`,
    /// the HTTP API, the MCP tools).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "target": self.target.id,
            "commit": self.target.commit.to_string(),
            "dry_run": self.dry_run,
            "write": self.plan.write,
            "delete": self.plan.delete,
            "kept": self.plan.kept,
            "replaced_ignored": self.plan.replaced_ignored,
            "left_alone": self.plan.left_alone,
            "excluded": self.plan.excluded,
            "safety": self.safety.as_ref().map(|s| s.checkpoint().id.clone()),
            "index_restored": self.index_restored,
            "index_mismatch": self.index_mismatch,
            "head_moved": self.head_moved.is_some(),
            "steps": self.steps,
            "interrupted_restore": self.interrupted.as_ref().map(|c| serde_json::json!({
                "target": c.target,
                "safety": c.safety,
                "partial": c.partial,
                "failed": c.failed,
            })),
        })
    }
}

/// Something the snapshot of the working tree does not hold, standing where the target needs
/// to write: an ignored file or directory, or a file the size guard left out (or a directory
/// holding only such files).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Obstacle {
    pub path: BString,
    pub too_large: bool,
}

/// Restore `target` over the state `captured`: work it out, then (unless a dry run, or there
/// is nothing to do) record the safety checkpoint, write the journal, apply, and clear the
/// journal. Everything that writes needs `guard`, the restore lock of this worktree; a dry run
/// does not. `safety` names the safety checkpoint: its message, and the operation it records
/// (whose `result` is filled in here: the tree the restore leaves).
pub(crate) fn run(
    repo: &gix::Repository,
    captured: &Captured,
    target: &Checkpoint,
    options: &RestoreOptions,
    guard: Option<&mut Guard>,
    safety: Safety,
    ctl: &Control<'_>,
) -> Result<Restored> {
    let planned = plan::plan(repo, captured, target, options)?;
    let restored = |plan, safety, index_restored, dry_run| Restored {
        target: target.clone(),
        plan,
        safety,
        index_restored,
        index_mismatch: Vec::new(),
        head_moved: planned.head_moved.clone(),
        dry_run,
        interrupted: None,
        housekeeping: Housekeeping::default(),
        steps: 1,
    };
    if options.dry_run || planned.is_noop() {
        captured.snap.remember(None);
        return Ok(restored(planned.plan.clone(), None, false, options.dry_run));
    }
    let Some(guard) = guard else {
        return Err(Error::Unsupported(
            "internal error: a restore that writes needs the restore lock".into(),
        ));
    };
    ctl.check()?;
    let workdir = repo.workdir().ok_or(Error::BareRepository)?.to_owned();
    let cur = &captured.snap;

    // The safety copy: the state now, plus any ignored content about to be replaced.
    let extra = plan::ignored_content(repo, &workdir, &planned.obstacles)?;
    let safety = if options.no_save {
        None
    } else {
        // A copy of the capture (its index included) only when ignored content is added.
        let with_ignored = if extra.is_empty() {
            std::borrow::Cow::Borrowed(captured)
        } else {
            let mut copy = captured.clone();
            copy.snap.tree = cur.tree_with(repo, &extra)?;
            std::borrow::Cow::Owned(copy)
        };
        let operation = match safety.operation {
            Some(mut op) => {
                op.result = planned.result_tree(repo, cur)?.to_string();
                Some(op)
            }
            None => None,
        };
        let saved = record::record(
            repo,
            &with_ignored,
            &SaveOptions {
                message: Some(safety.message),
                generated_message: true,
                kind: Some(format::KIND_PRE_RESTORE.into()),
                operation,
                ..SaveOptions::default()
            },
        )?;
        Some(saved)
    };
    // The stat cache names the safety checkpoint as holding its objects only when that holds
    // exactly the snapshot (no ignored content added to it).
    let holder = safety
        .as_ref()
        .map(Saved::checkpoint)
        .filter(|_| extra.is_empty());
    captured
        .snap
        .remember(holder.map(|c| (c.id.as_str(), c.commit)));

    // From here on a kill leaves a partly restored working tree: the journal says what to
    // complete (see `crate::recovery`).
    guard.begin(&Entry::new(
        target,
        safety.as_ref().map(|s| s.checkpoint().id.as_str()),
        &options.paths,
        options.staged,
        options.force,
    ))?;
    let changes = apply::Changes {
        obstacles: &planned.obstacles,
        deletions: &planned.deletions,
        writes: &planned.writes,
    };
    let state = apply::SafetyState { cur, extra: &extra };
    let tmp_dir = guard.tmp_dir().to_owned();
    let left_alone = match apply::apply(repo, &workdir, &tmp_dir, &changes, &state, ctl) {
        Ok(left_alone) => left_alone,
        Err((err, rolled_back)) => {
            if rolled_back {
                // Put back as it was: nothing left to complete.
                guard.finish()?;
            }
            return Err(Error::RestoreFailed {
                source: Box::new(err),
                rolled_back,
            });
        }
    };
    let index_restored = match planned.index_tree {
        Some(tree) => {
            apply::write_index(repo, tree, &options.paths)?;
            true
        }
        None => false,
    };
    guard.finish()?;
    let mut plan = planned.plan.clone();
    if !left_alone.is_empty() {
        let left: Vec<String> = left_alone.iter().map(ToString::to_string).collect();
        plan.write.retain(|p| !left.contains(p));
        plan.delete.retain(|p| !left.contains(p));
        plan.replaced_ignored.retain(|p| !left.contains(p));
        plan.left_alone = left;
    }
    Ok(restored(plan, safety, index_restored, false))
}

/// The safety checkpoint a restore takes: its message, and the operation it records.
#[derive(Debug, Clone)]
pub(crate) struct Safety {
    pub message: String,
    pub operation: Option<format::Operation>,
}

/// During a merge, rebase, cherry-pick, revert or bisect, refuse unless `force`.
pub(crate) fn refuse_in_progress(repo: &gix::Repository, force: bool) -> Result<()> {
    match crate::refdb::in_progress(repo)? {
        Some(state) if !force => Err(Error::OperationInProgress(in_progress_name(&state).into())),
        _ => Ok(()),
    }
}

fn in_progress_name(state: &gix::state::InProgress) -> &'static str {
    use gix::state::InProgress::*;
    match state {
        ApplyMailbox | ApplyMailboxRebase => "a `git am`",
        Bisect => "a bisect",
        CherryPick | CherryPickSequence => "a cherry-pick",
        Merge => "a merge",
        Rebase | RebaseInteractive => "a rebase",
        Revert | RevertSequence => "a revert",
    }
}
