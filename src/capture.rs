//! Capture: the working tree, `HEAD` and the index at one moment, with the snapshot's trees
//! written (see [`crate::snapshot`]), but no commit and no ref.

use gix::ObjectId;

use crate::config::Capture;
use crate::control::Control;
use crate::error::{Context, Result};
use crate::format::IndexState;
use crate::snapshot;

/// The state of the working tree, `HEAD` and index at one moment, with the snapshot's trees
/// written (but no commit, no ref).
#[derive(Debug, Clone)]
pub struct Captured {
    /// The snapshot of the working tree and index.
    pub snap: snapshot::Snapshot,
    /// The commit `HEAD` points to; `None` on an unborn branch.
    pub head_commit: Option<ObjectId>,
    /// The branch `HEAD` is on; `None` when detached.
    pub head_ref: Option<String>,
    /// The tree of `head_commit`.
    pub head_tree: Option<ObjectId>,
    /// The linked worktree's name; `None` for the main worktree.
    pub worktree: Option<String>,
    /// Whether the index differs from `HEAD`.
    pub index_state: IndexState,
}

/// Snapshot the working tree (blobs and trees are written to `repo`'s object store, which may
/// be an in-memory one) and read `HEAD`. What `capture` leaves out (untracked files larger
/// than its size guard, `checkpoint.exclude`) is left out, what it includes is captured;
/// `stat_cache` uses and updates the stat cache of untracked files (leave it off when objects
/// are kept in memory) and, in a `plain` directory, its stand-in index (see
/// [`crate::standin`]).
pub fn capture(
    repo: &gix::Repository,
    worktree: Option<&str>,
    capture: &Capture,
    stat_cache: bool,
    plain: bool,
    ctl: &Control<'_>,
) -> Result<Captured> {
    let index = repo
        .index_or_empty()
        .context(|| "cannot read the index".into())?;
    let crate::refdb::Head {
        commit: head_commit,
        branch: head_ref,
    } = crate::refdb::head(repo)?;
    let head_tree = head_commit.map(|id| commit_tree(repo, id)).transpose()?;
    // A plain directory's save takes the stand-in index (its store has no index of its own,
    // unless someone made one with git: then that one is what the snapshot starts from).
    let stand_in = plain && stat_cache && index.entries().is_empty();
    let snap = if stand_in {
        snapshot::snapshot_plain(repo, &index, capture, ctl)?
    } else {
        snapshot::snapshot(
            repo,
            &index,
            snapshot::Options {
                capture,
                stat_cache,
                stand_in: None,
            },
            ctl,
        )?
    };
    let index_state = match snap.index_tree {
        // The stand-in is no index: the store's own is empty.
        _ if stand_in => IndexState::Clean,
        None => IndexState::Unmerged,
        Some(tree) if Some(tree) == head_tree => IndexState::Clean,
        Some(tree) if head_tree.is_none() && tree.is_empty_tree() => IndexState::Clean,
        Some(_) => IndexState::Saved,
    };
    Ok(Captured {
        snap,
        head_commit,
        head_ref,
        head_tree,
        worktree: worktree.map(str::to_string),
        index_state,
    })
}

/// The tree of `commit`.
pub fn commit_tree(repo: &gix::Repository, commit: ObjectId) -> Result<ObjectId> {
    Ok(repo
        .find_commit(commit)
        .and_then(|c| c.tree_id())
        .context(|| format!("cannot read commit {commit}"))?
        .detach())
}
