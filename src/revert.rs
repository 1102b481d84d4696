//! Revert: take back the change between two checkpoints from the working tree now, keeping
//! everything changed since, by a three-way merge as `git revert` does: the merge base is the
//! later checkpoint `B`, "ours" the working tree now, "theirs" the earlier checkpoint `A`.

use gix::ObjectId;
use gix::bstr::BStr;

use crate::error::{Context, Error, Result};
use crate::format;
use crate::store::Checkpoint;

/// What the merge gave.
#[derive(Debug, Clone)]
pub(crate) struct Merged {
    /// The tree the working tree becomes (with conflict markers in conflicting files).
    pub tree: ObjectId,
    /// Paths git would call conflicting: the whole revert is refused unless conflict markers
    /// were asked for.
    pub conflicts: Vec<String>,
}

/// Merge the trees: take back `base` → `theirs` (the change from `A` to `B`, reversed) from
/// `ours`. Labels name the sides in conflict markers.
pub(crate) fn merge(
    repo: &gix::Repository,
    base: ObjectId,
    ours: ObjectId,
    theirs: ObjectId,
    labels: [&str; 3],
) -> Result<Merged> {
    let options = repo
        .tree_merge_options()
        .context(|| "cannot read the merge settings".into())?;
    let [ancestor, current, other] = labels;
    let mut outcome = repo
        .merge_trees(
            base,
            ours,
            theirs,
            gix::merge::blob::builtin_driver::text::Labels {
                ancestor: Some(BStr::new(ancestor)),
                current: Some(BStr::new(current)),
                other: Some(BStr::new(other)),
            },
            options,
        )
        .context(|| "cannot merge".into())?;
    let how = gix::merge::tree::TreatAsUnresolved::git();
    let mut conflicts: Vec<String> = outcome
        .conflicts
        .iter()
        .filter(|c| c.is_unresolved(how))
        .flat_map(|c| {
            let (ours, theirs) = c.changes_in_resolution();
            [ours.location().to_string(), theirs.location().to_string()]
        })
        .collect();
    conflicts.sort();
    conflicts.dedup();
    let tree = outcome
        .tree
        .write()
        .context(|| "cannot write the merged tree".into())?
        .detach();
    Ok(Merged { tree, conflicts })
}

/// A commit of `tree` on top of `head`, pointed to by no ref, that a restore can take as its
/// target: the merged result of a revert, as a checkpoint the restore machinery (and the
/// journal of a killed restore) understands. `git gc` collects it.
pub(crate) fn target(
    repo: &gix::Repository,
    tree: ObjectId,
    head: Option<ObjectId>,
    from: &Checkpoint,
    to: &Checkpoint,
) -> Result<Checkpoint> {
    let (committer, author) = crate::repo::signatures(repo)?;
    let message = format!("revert of {}..{}", from.id, to.id);
    let commit = repo
        .new_commit_as(committer, author, message.as_str(), tree, head)
        .context(|| "cannot write the merged commit".into())?
        .id;
    let mut meta = from.meta.clone();
    meta.id = format!("{}..{}", from.id, to.id);
    meta.name = None;
    meta.message = Some(message);
    meta.kind = format::OP_REVERT.into();
    meta.operation = None;
    Ok(Checkpoint {
        id: meta.id.clone(),
        commit,
        meta,
        note_problem: None,
    })
}

/// The checkpoint after `from` in the history of its worktree (`own`: that worktree's own
/// checkpoints, newest first): the end of the step that started at `from`.
pub(crate) fn step_after<'a>(own: &[&'a Checkpoint], from: &Checkpoint) -> Result<&'a Checkpoint> {
    own.iter()
        .rev()
        .find(|c| c.id > from.id)
        .copied()
        .ok_or_else(|| {
            Error::InvalidInput(format!(
                "checkpoint {} is the newest of this worktree: there is no later one whose change to take back; name the end of the step too",
                from.id
            ))
        })
}
