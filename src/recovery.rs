//! Recovery: completing a restore that was killed part-way, from its journal (see
//! [`crate::journal`]).

use gix::ObjectId;

use crate::capture::{self, Captured};
use crate::config::Capture;
use crate::control::Control;
use crate::error::{Error, Result};
use crate::format;
use crate::journal::{Completed, Entry, Guard};
use crate::record::{self, SaveOptions, Saved};
use crate::restore::{self, RestoreOptions};
use crate::store;

/// Complete a restore that died part-way in this worktree, if there is one: the first thing a
/// save, a restore and an undo do. Does nothing while that restore is still running (its lock
/// is held), and never waits for it.
///
/// Nothing is lost: the state the dead restore left is saved first, as a `pre-restore`
/// checkpoint (unless the newest checkpoint already holds it); then the working tree is rolled
/// forward to the checkpoint it was restoring, with the same paths and flags. Afterwards the
/// working tree equals that checkpoint, as if the restore had not been interrupted. If rolling
/// forward fails (a file cannot be written, or something that must not be replaced now stands
/// in the way), the working tree is left as the dead restore left it and the reason is in
/// [`Completed::failed`].
pub(crate) fn complete_interrupted(
    repo: &gix::Repository,
    worktree: Option<&str>,
    capture: &Capture,
    ctl: &Control<'_>,
) -> Result<Option<Completed>> {
    match Guard::try_existing(repo) {
        Some(mut guard) => complete_locked(repo, worktree, capture, &mut guard, ctl),
        None => Ok(None),
    }
}

/// [`complete_interrupted`], holding the lock.
pub(crate) fn complete_locked(
    repo: &gix::Repository,
    worktree: Option<&str>,
    capture: &Capture,
    guard: &mut Guard,
    ctl: &Control<'_>,
) -> Result<Option<Completed>> {
    let Some(entry) = guard.read()? else {
        return Ok(None);
    };
    let captured = capture::capture(repo, worktree, capture, true, false, ctl)?;
    let partial = record::record(
        repo,
        &captured,
        &SaveOptions {
            message: Some(format!(
                "before completing the interrupted restore of {}",
                entry.target
            )),
            generated_message: true,
            kind: Some(format::KIND_PRE_RESTORE.into()),
            ..SaveOptions::default()
        },
    )?;
    let rolled = roll_forward(repo, guard, &captured, &entry, ctl);
    guard.finish()?;
    Ok(Some(Completed {
        target: entry.target,
        safety: entry.safety,
        partial: match partial {
            Saved::Created(c) => Some(c.id),
            Saved::Unchanged(_) => None,
        },
        failed: rolled.err().map(|e| e.to_string()),
    }))
}

/// Restore the target of a dead restore's journal `entry` over `captured`.
fn roll_forward(
    repo: &gix::Repository,
    guard: &mut Guard,
    captured: &Captured,
    entry: &Entry,
    ctl: &Control<'_>,
) -> Result<()> {
    let options = RestoreOptions {
        paths: entry.paths(),
        dry_run: false,
        staged: entry.staged,
        no_save: false,
        force: entry.force,
        hunks: Vec::new(),
    };
    restore::refuse_in_progress(repo, options.force)?;
    let commit = ObjectId::from_hex(entry.commit.as_bytes())
        .ok()
        .filter(|id| id.kind() == repo.object_hash())
        .ok_or_else(|| {
            Error::InvalidInput(format!(
                "the restore journal names `{}`, not a {} object id",
                entry.commit.escape_debug(),
                repo.object_hash()
            ))
        })?;
    let target = store::Notes::open(repo)?.checkpoint(
        repo,
        &store::CheckpointRef {
            id: entry.target.clone(),
            commit,
        },
    )?;
    let safety = restore::Safety {
        message: format!("before restoring {}", target.id),
        operation: None,
    };
    restore::run(repo, captured, &target, &options, Some(guard), safety, ctl).map(|_| ())
}
