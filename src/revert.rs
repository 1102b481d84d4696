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
    /// What each conflict is, in the order of `conflicts`.
    pub kinds: Vec<ConflictKind>,
    /// For each conflict, the working tree's lines where it is (see [`conflict_lines`]).
    pub lines: Vec<String>,
}

/// What a conflicting file of a revert is, and so what the merged tree holds for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConflictKind {
    /// Both sides changed the same lines: the file holds conflict markers.
    Markers,
    /// Both sides changed a binary file, which cannot hold markers: the working tree's version
    /// is kept, as git keeps "ours".
    Binary,
    /// One side changed the file and the other deleted it: the changed version is kept.
    ModifiedAndDeleted,
    /// Another kind (renames on both sides, a file against a directory or a symlink): both
    /// versions are kept where git keeps them, without markers.
    Other,
}

impl ConflictKind {
    /// The word of the JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            ConflictKind::Markers => "markers",
            ConflictKind::Binary => "binary",
            ConflictKind::ModifiedAndDeleted => "modified-and-deleted",
            ConflictKind::Other => "other",
        }
    }
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
    let mut found: Vec<(String, ConflictKind)> = Vec::new();
    for c in outcome.conflicts.iter().filter(|c| c.is_unresolved(how)) {
        use gix::merge::tree::{Resolution, ResolutionFailure};
        let kind = match &c.resolution {
            Ok(Resolution::OursModifiedTheirsModifiedThenBlobContentMerge { merged_blob }) => {
                // Markers, unless the content could hold none (a binary file).
                if has_markers(repo, merged_blob.merged_blob_id) {
                    ConflictKind::Markers
                } else {
                    ConflictKind::Binary
                }
            }
            Err(
                ResolutionFailure::OursModifiedTheirsDeleted
                | ResolutionFailure::OursDeletedTheirsRenamed,
            ) => ConflictKind::ModifiedAndDeleted,
            _ => ConflictKind::Other,
        };
        let (ours, theirs) = c.changes_in_resolution();
        for path in [ours.location().to_string(), theirs.location().to_string()] {
            match found.iter_mut().find(|(p, _)| *p == path) {
                // A path in two conflicts: markers, where there are any, are what to resolve.
                Some((_, k)) if kind == ConflictKind::Markers => *k = kind,
                Some(_) => {}
                None => found.push((path, kind)),
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let (conflicts, kinds): (Vec<String>, Vec<ConflictKind>) = found.into_iter().unzip();
    let tree = outcome
        .tree
        .write()
        .context(|| "cannot write the merged tree".into())?
        .detach();
    let mut lines = Vec::with_capacity(conflicts.len());
    for (path, kind) in conflicts.iter().zip(&kinds) {
        let path = gix::bstr::BStr::new(path.as_bytes());
        let at = |tree| crate::treediff::entry_at(repo, Some(tree), path);
        lines.push(match (kind, at(tree)?, at(ours)?) {
            (ConflictKind::Markers, Some(merged), ours) => {
                conflict_lines(repo, merged.id, ours.map(|s| s.id))
            }
            _ => String::new(),
        });
    }
    Ok(Merged {
        tree,
        conflicts,
        kinds,
        lines,
    })
}

/// Take back `steps` (each a start and an end, `None`: the working tree `ours`) from `ours`,
/// newest first, each by [`merge`]: the tree that gives, and every conflict of any step, by
/// path (a path's lines from several steps joined).
pub(crate) fn merge_steps(
    repo: &gix::Repository,
    ours: ObjectId,
    steps: &[(Checkpoint, Option<Checkpoint>)],
) -> Result<Merged> {
    let tree = |c: &Checkpoint| crate::store::commit_tree(repo, c.commit);
    let mut now = ours;
    let mut found: Vec<(String, ConflictKind, String)> = Vec::new();
    for (start, end) in steps.iter().rev() {
        let base_label = end.as_ref().map_or("working tree".to_string(), |e| {
            format!("checkpoint {}", e.id)
        });
        let start_label = format!("checkpoint {}", start.id);
        let base = match end {
            Some(end) => tree(end)?,
            None => ours,
        };
        let merged = merge(
            repo,
            base,
            now,
            tree(start)?,
            [&base_label, "working tree", &start_label],
        )?;
        let conflicts = merged
            .conflicts
            .into_iter()
            .zip(merged.kinds)
            .zip(merged.lines);
        for ((path, kind), at) in conflicts {
            match found.iter_mut().find(|(p, _, _)| *p == path) {
                Some((_, _, lines)) if !at.is_empty() && !lines.contains(&at) => {
                    *lines = if lines.is_empty() {
                        at
                    } else {
                        format!("{lines}; {at}")
                    };
                }
                Some(_) => {}
                None => found.push((path, kind, at)),
            }
        }
        now = merged.tree;
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let mut merged = Merged {
        tree: now,
        conflicts: Vec::with_capacity(found.len()),
        kinds: Vec::with_capacity(found.len()),
        lines: Vec::with_capacity(found.len()),
    };
    for (path, kind, lines) in found {
        merged.conflicts.push(path);
        merged.kinds.push(kind);
        merged.lines.push(lines);
    }
    Ok(merged)
}

/// Whether the blob `id` holds a conflict marker line.
fn has_markers(repo: &gix::Repository, id: ObjectId) -> bool {
    repo.find_object(id).is_ok_and(|object| {
        object
            .data
            .split(|b| *b == b'\n')
            .any(|line| line.starts_with(b"<<<<<<< ") || line == b"<<<<<<<")
    })
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
    let message = format!("revert of {}..{}", from.id, to.id);
    let commit = crate::repo::new_commit(repo, &message, tree, head)?;
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

/// A commit of `tree` on top of `head`, pointed to by no ref, standing for `checkpoint` in a
/// restore of some of its hunks: the working tree with those hunks taken back. It keeps the
/// checkpoint's id, so that the restore reports and records the checkpoint it took them from.
pub(crate) fn partial_target(
    repo: &gix::Repository,
    tree: ObjectId,
    head: Option<ObjectId>,
    checkpoint: &Checkpoint,
) -> Result<Checkpoint> {
    let message = format!("hunks of {}", checkpoint.id);
    let commit = crate::repo::new_commit(repo, &message, tree, head)?;
    let mut meta = checkpoint.meta.clone();
    meta.name = None;
    meta.message = Some(message);
    meta.operation = None;
    Ok(Checkpoint {
        id: checkpoint.id.clone(),
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

/// Whether `c` starts a step of the session (or agent) it belongs to: a checkpoint taken
/// before the session acted — a hook's before a tool call, or one the session saved itself —
/// rather than one at a session's start or end, at the end of a turn (a hook's event without
/// a tool), or a safety checkpoint.
pub(crate) fn starts_a_step(c: &Checkpoint) -> bool {
    let meta = &c.meta;
    let hook_without_tool = meta.meta.contains_key("event") && !meta.meta.contains_key("tool");
    meta.kind != format::KIND_SESSION
        && meta.kind != format::KIND_PRE_RESTORE
        && meta.operation.is_none()
        && !hook_without_tool
}

/// The steps of the work of whoever `belongs` picks (a session, an agent), oldest first: each
/// from a checkpoint of theirs that [starts a step](starts_a_step) to the next checkpoint of
/// the worktree (`own`, newest first), taken by anyone; `None` as the end of a step no
/// checkpoint has ended yet (it ends at the working tree now).
pub(crate) fn steps<'a>(
    own: &[&'a Checkpoint],
    belongs: impl Fn(&Checkpoint) -> bool,
) -> Vec<(&'a Checkpoint, Option<&'a Checkpoint>)> {
    let oldest_first: Vec<&Checkpoint> = own.iter().rev().copied().collect();
    oldest_first
        .iter()
        .enumerate()
        .filter(|(_, c)| belongs(c) && starts_a_step(c))
        .map(|(i, c)| (*c, oldest_first.get(i + 1).copied()))
        .collect()
}

/// The lines of the working tree's file (`ours`, as the merge had it) where a merged file
/// holds conflict markers: the working tree's side of each conflict, found in `ours` in order.
/// `lines 3-5, 9`; empty when there are none to name.
pub(crate) fn conflict_lines(
    repo: &gix::Repository,
    merged: ObjectId,
    ours: Option<ObjectId>,
) -> String {
    let read = |id: ObjectId| {
        repo.find_object(id)
            .map(|o| o.data.clone())
            .unwrap_or_default()
    };
    let merged = read(merged);
    let ours = ours.map(read).unwrap_or_default();
    let ours_lines: Vec<&[u8]> = ours.split_inclusive(|b| *b == b'\n').collect();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut section: Option<Vec<&[u8]>> = None;
    let mut from = 0usize;
    for line in merged.split_inclusive(|b| *b == b'\n') {
        let bare = line.strip_suffix(b"\n").unwrap_or(line);
        if bare.starts_with(b"<<<<<<<") {
            section = Some(Vec::new());
        } else if bare.starts_with(b"|||||||") || bare.starts_with(b"=======") {
            if let Some(lines) = section.take().filter(|l| !l.is_empty()) {
                // The working tree's side: where it stands in the working tree's file.
                let at = (from..=ours_lines.len().saturating_sub(lines.len()))
                    .find(|&i| ours_lines[i..].starts_with(&lines));
                if let Some(at) = at {
                    ranges.push((at + 1, at + lines.len()));
                    from = at + lines.len();
                }
            }
        } else if let Some(lines) = &mut section {
            lines.push(line);
        }
    }
    let list: Vec<String> = ranges
        .iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    match list.as_slice() {
        [] => String::new(),
        [one] if !one.contains('-') => format!("line {one}"),
        _ => format!("lines {}", list.join(", ")),
    }
}
