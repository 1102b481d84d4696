//! Restore and revert of chosen hunks: the tree the working tree becomes when only those
//! hunks of a comparison are taken back (see [`crate::hunks`]). A restore takes hunks of the
//! difference between a checkpoint and the working tree; a revert, of the difference between
//! two checkpoints. Either way, each hunk's new side is found in the working tree's file and
//! replaced by its old side, or the whole operation is refused, naming the hunk.

use std::collections::BTreeMap;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::EntryKind;

use crate::diff::{DiffOptions, FileDiff};
use crate::error::{Context, Error, Result};
use crate::hunks::{Chosen, FileHunks};
use crate::snapshot::{Leaf, Snapshot};
use crate::treediff::{self, Side};

/// The comparison whose hunks are chosen: from `old` to `new` (trees in `repo`).
pub(crate) struct Comparison<'a> {
    /// The older side.
    pub old: Option<ObjectId>,
    /// The newer side.
    pub new: Option<ObjectId>,
    /// Rename detection, as `diff` does it by default.
    pub renames: Option<u8>,
    /// What the comparison is, for messages: "checkpoint X and the working tree".
    pub what: &'a str,
    /// The command that lists its hunks, for messages.
    pub listed_by: &'a str,
}

/// The working tree (`snap`, whose objects are in `repo`) with the hunks `ids` of
/// `comparison` taken back.
pub(crate) fn take_back(
    repo: &gix::Repository,
    snap: &Snapshot,
    comparison: &Comparison<'_>,
    ids: &[String],
) -> Result<ObjectId> {
    for id in ids {
        if !crate::hunks::well_formed(id) {
            return Err(Error::InvalidInput(format!(
                "`{id}` is not a hunk id: an id is 16 lowercase hex digits, as the comparison's hunks list them (`{}`)",
                comparison.listed_by
            )));
        }
    }
    let mut changes = treediff::changes(repo, comparison.old, comparison.new)?;
    changes.retain(|c| !snap.excluded(c.path.as_ref(), false));
    let options = DiffOptions {
        renames: comparison.renames,
        ..DiffOptions::default()
    };
    let files = crate::diff::file_diffs(repo, &changes, options)?;
    let hunks: Vec<FileHunks> = files.iter().map(hunks_of).collect();
    // For each file with chosen hunks: for each of its hunks, the runs chosen, and the ids
    // that chose them.
    let mut chosen: BTreeMap<usize, Vec<Picked>> = BTreeMap::new();
    for id in ids {
        let found = hunks
            .iter()
            .enumerate()
            .find_map(|(f, h)| h.find(id).map(|at| (f, at)));
        let Some((f, (h, piece))) = found else {
            return Err(Error::UnknownHunk {
                id: id.clone(),
                why: why_unknown(repo, snap, &files, comparison, id)?,
            });
        };
        let file = chosen.entry(f).or_insert_with(|| {
            hunks[f]
                .hunks
                .iter()
                .map(|hunk| (vec![false; crate::hunks::run_count(hunk)], Vec::new()))
                .collect()
        });
        let (runs, by) = &mut file[h];
        match piece {
            Some(p) => runs[p] = true,
            None => runs.fill(true),
        }
        if !by.contains(id) {
            by.push(id.clone());
        }
    }
    let mut writes = Vec::new();
    let mut deletions = Vec::new();
    for (f, per_hunk) in chosen {
        let file = &files[f];
        let list: Vec<(Chosen<'_>, &[String])> = hunks[f]
            .hunks
            .iter()
            .zip(&per_hunk)
            .filter(|(_, (runs, _))| runs.iter().any(|r| *r))
            .map(|(hunk, (runs, by))| {
                (
                    Chosen {
                        hunk,
                        runs: runs.clone(),
                    },
                    by.as_slice(),
                )
            })
            .collect();
        let every = per_hunk.iter().all(|(runs, _)| runs.iter().all(|r| *r));
        match file_after(repo, snap, file, &list, every)? {
            Some(leaf) => writes.push(leaf),
            None => deletions.push(file.path.clone()),
        }
    }
    snap.tree_after(repo, &writes, &deletions)
}

/// Of one hunk: which of its runs are chosen, and by which ids.
type Picked = (Vec<bool>, Vec<String>);

/// The hunks of `file` that can be taken back alone: those of a text file (or an added or
/// deleted one) on both present sides; none for a binary file, a symlink or a submodule.
pub(crate) fn hunks_of(file: &FileDiff) -> FileHunks {
    let regular = |side: Option<Side>| {
        side.is_none_or(|s| matches!(s.kind, EntryKind::Blob | EntryKind::BlobExecutable))
    };
    if file.binary || !regular(file.old) || !regular(file.new) {
        return FileHunks::of(&FileDiff {
            hunks: Vec::new(),
            ..file.clone()
        });
    }
    FileHunks::of(file)
}

/// What `file`'s path holds once the `chosen` hunks are taken back from the working tree's
/// version: a leaf, or `None` for no file. `every`: all of the file's hunks are chosen.
fn file_after(
    repo: &gix::Repository,
    snap: &Snapshot,
    file: &FileDiff,
    chosen: &[(Chosen<'_>, &[String])],
    every: bool,
) -> Result<Option<Leaf>> {
    let path = file.path.as_bstr();
    let refuse = |index: usize, why: String| Error::HunkDoesNotApply {
        id: chosen[index].1.join("`, `"),
        path: path.to_str_lossy().into_owned(),
        why,
    };
    let now = treediff::entry_at(repo, Some(snap.tree), path)?;
    // A file the newer side deleted: taking its hunk back writes the older side's file, where
    // the working tree has none.
    let Some(_) = file.new else {
        if let Some(now) = now {
            return Err(refuse(
                0,
                format!("{} in the working tree", is_now(now.kind, "exists again")),
            ));
        }
        return Ok(file.old.map(|old| Leaf {
            path: file.path.clone(),
            kind: old.kind,
            id: old.id,
        }));
    };
    let now = match now {
        Some(side) if matches!(side.kind, EntryKind::Blob | EntryKind::BlobExecutable) => side,
        Some(side) => return Err(refuse(0, is_now(side.kind, ""))),
        None => return Err(refuse(0, "the working tree has no such file now".into())),
    };
    let current = repo
        .find_blob(now.id)
        .context(|| format!("cannot read blob {}", now.id))?
        .data
        .clone();
    if crate::diff::is_binary(&current) {
        return Err(refuse(
            0,
            "the working tree's file is binary now: restore or revert the whole file".into(),
        ));
    }
    let list: Vec<Chosen<'_>> = chosen.iter().map(|(c, _)| c.clone()).collect();
    let content = crate::hunks::take_back(&current, &list).map_err(|m| {
        refuse(
            m.index,
            "its lines and the lines around them are not in the working tree's file as the comparison has them: they changed since".into(),
        )
    })?;
    match file.old {
        // An added file whose every line is taken back is no file.
        None if content.is_empty() => return Ok(None),
        // Every hunk of a file taken back, and the file as the older side had it: its mode too.
        Some(old) if every && repo_blob_id(repo, &content)? == old.id => {
            return Ok(Some(Leaf {
                path: file.path.clone(),
                kind: old.kind,
                id: old.id,
            }));
        }
        _ => {}
    }
    let id = crate::repo::retry_write(|| repo.write_blob(&content))
        .context(|| "cannot write a blob".into())?
        .detach();
    Ok(Some(Leaf {
        path: file.path.clone(),
        kind: now.kind,
        id,
    }))
}

fn repo_blob_id(repo: &gix::Repository, content: &[u8]) -> Result<ObjectId> {
    gix::objs::compute_hash(repo.object_hash(), gix::objs::Kind::Blob, content)
        .map_err(|err| Error::InvalidInput(format!("cannot hash a blob: {err}")))
}

/// "is now a directory", …: what the working tree holds at a hunk's path instead of a file.
fn is_now(kind: EntryKind, otherwise: &str) -> String {
    match kind {
        EntryKind::Tree => "it is a directory now".into(),
        EntryKind::Link => "it is a symlink now".into(),
        EntryKind::Commit => "it is a submodule now".into(),
        _ if otherwise.is_empty() => "it is not a file now".into(),
        _ => format!("it {otherwise}"),
    }
}

/// Why `id` names no hunk of `files`: its file, when one of them is its, and what became of
/// it; else that it changed since or is another comparison's.
fn why_unknown(
    repo: &gix::Repository,
    snap: &Snapshot,
    files: &[FileDiff],
    comparison: &Comparison<'_>,
    id: &str,
) -> Result<String> {
    let mine = |path: &BString| crate::hunks::may_be_of(id, path.as_bstr());
    let Some(file) = files
        .iter()
        .find(|f| mine(&f.path) || f.old_path.as_ref().is_some_and(mine))
    else {
        return Ok(format!(
            "it is no hunk of {} now (the lines it named changed since, or it is the id of another comparison); `{}` lists them",
            comparison.what, comparison.listed_by
        ));
    };
    let path: &BStr = file.path.as_bstr();
    let shown = path.to_str_lossy();
    let now = treediff::entry_at(repo, Some(snap.tree), path)?;
    Ok(match now.map(|s| s.kind) {
        Some(EntryKind::Tree) => format!("`{shown}` is a directory now"),
        Some(EntryKind::Link) => format!("`{shown}` is a symlink now"),
        Some(EntryKind::Commit) => format!("`{shown}` is a submodule now"),
        _ if file.binary => format!(
            "`{shown}` is a binary file, which has no hunks: restore or revert the whole file"
        ),
        None if path_is_dir(repo, path) => format!("`{shown}` is a directory now"),
        None => format!("`{shown}` no longer exists"),
        _ => format!(
            "`{shown}` has no such hunk now (its lines changed since the id was taken, or the id is of another comparison); `{}` lists its hunks",
            comparison.listed_by
        ),
    })
}

/// Whether `path` is a directory in the working tree (a directory holding only what a
/// checkpoint leaves out is in no tree).
fn path_is_dir(repo: &gix::Repository, path: &BStr) -> bool {
    repo.workdir().is_some_and(|workdir| {
        crate::snapshot::worktree_path(workdir, path)
            .is_ok_and(|p| p.symlink_metadata().is_ok_and(|md| md.file_type().is_dir()))
    })
}
