//! Turning the working tree into a tree object, the way `git add -A && git write-tree` would on
//! a copy of the index — without writing the index.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::dir::entry::{Kind as DiskKind, Status as DirStatus};
use gix::index::entry::{Flags, Mode, Stage};
use gix::objs::tree::{self, EntryKind};
use gix::status::plumbing::index_as_worktree::{Change, EntryStatus};
use gix::status::plumbing::index_as_worktree_with_renames::{Entry as StatusEntry, Recorder};

use crate::error::{Context, Error, Result};
use crate::format::{SKIP_EMBEDDED_NO_COMMIT, SKIP_TOO_LARGE, Skipped};

/// What to snapshot and how.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Untracked files larger than this many bytes are left out (`checkpoint.maxFileSize`).
    pub max_file_size: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: 100 * 1024 * 1024,
        }
    }
}

/// The trees a save writes.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The working tree as `git add -A` would stage it.
    pub tree: ObjectId,
    /// The index as a tree; `None` when it has unmerged entries.
    pub index_tree: Option<ObjectId>,
    /// Number of files (blobs, symlinks, gitlinks) in `tree`.
    pub files: u64,
    /// Paths left out of `tree`.
    pub skipped: Vec<Skipped>,
    /// The leaves of `tree`, sorted by path.
    pub leaves: Vec<Leaf>,
}

impl Snapshot {
    /// The leaf at `path`, if the snapshot has one.
    pub fn leaf(&self, path: &BStr) -> Option<&Leaf> {
        self.leaves
            .binary_search_by(|l| l.path.as_bstr().cmp(path))
            .ok()
            .map(|i| &self.leaves[i])
    }

    /// Whether the snapshot has a leaf at or below `path`.
    pub fn has_at_or_below(&self, path: &BStr) -> bool {
        if self.leaf(path).is_some() {
            return true;
        }
        let mut dir = BString::from(path);
        dir.push(b'/');
        let start = self.leaves.partition_point(|l| l.path < dir);
        self.leaves
            .get(start)
            .is_some_and(|l| l.path.starts_with(dir.as_slice()))
    }
}

/// One leaf (blob, symlink, gitlink, or sparse directory) of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaf {
    /// Path relative to the top of the working tree.
    pub path: BString,
    /// Its mode.
    pub kind: EntryKind,
    /// Its object.
    pub id: ObjectId,
}

/// What status said about a tracked path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    Rehash,
    Remove,
}

/// A submodule status that reports nothing: gitlinks are resolved separately, by reading the
/// submodule's `HEAD`, as `git add -A` does.
#[derive(Clone, Copy)]
struct NoSubmoduleStatus;

impl gix::status::plumbing::index_as_worktree::traits::SubmoduleStatus for NoSubmoduleStatus {
    type Output = ();

    fn status(
        &mut self,
        _entry: &gix::index::Entry,
        _rela_path: &BStr,
    ) -> gix::Result<Option<Self::Output>> {
        Ok(None)
    }
}

/// Snapshot the working tree of `repo` given its current `index`, writing blobs and trees (but
/// no commit and no ref). `index` is only read.
pub fn snapshot(
    repo: &gix::Repository,
    index: &gix::index::State,
    options: Options,
) -> Result<Snapshot> {
    let workdir = repo.workdir().ok_or(Error::BareRepository)?.to_owned();
    let caps = repo
        .filesystem_options()
        .context(|| "cannot read core.fileMode / core.symlinks".into())?;

    // 1. What changed, and what is untracked: git's status, in process.
    let mut recorder = Recorder::default();
    let dirwalk = repo
        .dirwalk_options()
        .context(|| "cannot configure the directory walk".into())?
        .emit_untracked(gix::dir::walk::EmissionMode::Matching)
        .emit_ignored(None)
        .emit_pruned(false)
        .emit_empty_directories(false)
        .recurse_repositories(false);
    let interrupt = AtomicBool::new(false);
    repo.index_worktree_status(
        index,
        None::<&BStr>,
        &mut recorder,
        gix::status::plumbing::index_as_worktree::traits::FastEq,
        NoSubmoduleStatus,
        &mut gix::progress::Discard,
        &interrupt,
        gix::status::index_worktree::Options {
            sorting: None,
            dirwalk_options: Some(dirwalk),
            rewrites: None,
            thread_limit: None,
        },
    )
    .context(|| "cannot compute the status of the working tree".into())?;

    let mut actions: HashMap<&BStr, Action> = HashMap::new();
    let mut untracked: Vec<(BString, DiskKind)> = Vec::new();
    for record in &recorder.records {
        match record {
            StatusEntry::Modification {
                rela_path, status, ..
            } => {
                let action = match status {
                    EntryStatus::Change(Change::Removed) => Action::Remove,
                    EntryStatus::Change(
                        Change::Type { .. }
                        | Change::Modification { .. }
                        | Change::SubmoduleModification(_),
                    )
                    | EntryStatus::IntentToAdd => Action::Rehash,
                    // Conflicts are read from the index below; a stat-only change is no change.
                    EntryStatus::Conflict { .. } | EntryStatus::NeedsUpdate(_) => continue,
                };
                actions.insert(rela_path, action);
            }
            StatusEntry::DirectoryContents { entry, .. } => {
                if entry.status == DirStatus::Untracked
                    && let Some(kind) = entry.disk_kind
                {
                    untracked.push((entry.rela_path.clone(), kind));
                }
            }
            StatusEntry::Rewrite { .. } => {}
        }
    }

    // 2. Hash what must be hashed, keep the rest from the index.
    let (mut pipeline, _) = repo
        .filter_pipeline(None)
        .context(|| "cannot set up the clean filters".into())?;
    let mut hasher = Hasher {
        pipeline: &mut pipeline,
        index,
        workdir: &workdir,
        trust_exec_bit: caps.executable_bit,
        has_symlinks: caps.symlink,
    };

    let mut leaves: Vec<Leaf> = Vec::with_capacity(index.entries().len() + untracked.len());
    let mut index_leaves: Vec<Leaf> = Vec::with_capacity(index.entries().len());
    let mut unmerged = false;
    let mut last_conflict: Option<&BStr> = None;
    for entry in index.entries() {
        let path = entry.path(index);
        if entry.stage() != Stage::Unconflicted {
            unmerged = true;
            // `git add -A` resolves a conflicted path to what the working tree holds.
            if last_conflict != Some(path) {
                last_conflict = Some(path);
                let old = index
                    .entries()
                    .iter()
                    .find(|e| e.path(index) == path && e.stage() == Stage::Ours)
                    .map(|e| e.mode);
                if let Some((kind, id)) = hasher.hash(path, old)? {
                    leaves.push(Leaf {
                        path: path.to_owned(),
                        kind,
                        id,
                    });
                }
            }
            continue;
        }
        let intent_to_add = entry.flags.contains(Flags::INTENT_TO_ADD);
        if !intent_to_add && let Some(kind) = index_kind(entry.mode) {
            index_leaves.push(Leaf {
                path: path.to_owned(),
                kind,
                id: entry.id,
            });
        }
        let action = actions.get(path).copied();
        if entry.mode.is_submodule() {
            // A gitlink records the submodule's checked-out commit, whatever the stat says.
            match hasher.hash(path, Some(entry.mode))? {
                Some((kind, id)) => leaves.push(Leaf {
                    path: path.to_owned(),
                    kind,
                    id,
                }),
                None if worktree_path(&workdir, path)?.exists() => {
                    // An uninitialised submodule: its directory is empty, the gitlink stays.
                    leaves.push(Leaf {
                        path: path.to_owned(),
                        kind: EntryKind::Commit,
                        id: entry.id,
                    });
                }
                None => {}
            }
            continue;
        }
        match action {
            Some(Action::Remove) => {}
            Some(Action::Rehash) => {
                if let Some((kind, id)) = hasher.hash(path, Some(entry.mode))? {
                    leaves.push(Leaf {
                        path: path.to_owned(),
                        kind,
                        id,
                    });
                }
            }
            None if intent_to_add => {
                if let Some((kind, id)) = hasher.hash(path, None)? {
                    leaves.push(Leaf {
                        path: path.to_owned(),
                        kind,
                        id,
                    });
                }
            }
            None => {
                if let Some(kind) = index_kind(entry.mode) {
                    leaves.push(Leaf {
                        path: path.to_owned(),
                        kind,
                        id: entry.id,
                    });
                }
            }
        }
    }

    let mut skipped = Vec::new();
    for (path, disk_kind) in untracked {
        match disk_kind {
            DiskKind::File | DiskKind::Symlink => {
                let fs_path = worktree_path(&workdir, path.as_bstr())?;
                if disk_kind == DiskKind::File {
                    let size = match std::fs::symlink_metadata(&fs_path) {
                        Ok(md) => md.len(),
                        // Gone since the walk: nothing to save.
                        Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                        Err(source) => {
                            return Err(Error::UnreadableFile {
                                path: path.to_string(),
                                source,
                            });
                        }
                    };
                    if size > options.max_file_size {
                        skipped.push(Skipped {
                            path: path.to_string(),
                            reason: SKIP_TOO_LARGE.into(),
                            size: Some(size),
                        });
                        continue;
                    }
                }
                if let Some((kind, id)) = hasher.hash(path.as_bstr(), None)? {
                    leaves.push(Leaf { path, kind, id });
                }
            }
            DiskKind::Repository => match hasher.hash(path.as_bstr(), None)? {
                Some((kind, id)) => leaves.push(Leaf { path, kind, id }),
                None => skipped.push(Skipped {
                    path: path.to_string(),
                    reason: SKIP_EMBEDDED_NO_COMMIT.into(),
                    size: None,
                }),
            },
            DiskKind::Directory | DiskKind::Untrackable => {}
        }
    }

    leaves.sort_by(|a, b| a.path.cmp(&b.path));
    leaves.dedup_by(|later, earlier| later.path == earlier.path);
    let files = leaves.iter().filter(|l| l.kind != EntryKind::Tree).count() as u64;
    // Directories whose content equals the index's reuse the index's cache-tree: no tree to
    // build or hash for them.
    let cache = cache_tree(index);
    let dirty = dirty_dirs(&leaves, &index_leaves);
    let tree = write_tree_with(
        repo,
        &leaves,
        &TreeCache {
            valid: &cache,
            dirty: &dirty,
        },
    )?;
    let index_tree = if unmerged {
        None
    } else {
        let clean = HashSet::new();
        Some(write_tree_with(
            repo,
            &index_leaves,
            &TreeCache {
                valid: &cache,
                dirty: &clean,
            },
        )?)
    };
    Ok(Snapshot {
        tree,
        index_tree,
        files,
        skipped,
        leaves,
    })
}

/// Valid cache-tree entries of the index, by directory path (`""` for the root).
fn cache_tree(index: &gix::index::State) -> HashMap<BString, ObjectId> {
    fn walk(
        node: &gix::index::extension::Tree,
        path: &mut BString,
        out: &mut HashMap<BString, ObjectId>,
    ) {
        if node.num_entries.is_none() {
            return;
        }
        out.insert(path.clone(), node.id);
        for child in &node.children {
            let len = path.len();
            if len > 0 {
                path.push(b'/');
            }
            path.extend_from_slice(&child.name);
            walk(child, path, out);
            path.truncate(len);
        }
    }
    let mut out = HashMap::new();
    if let Some(root) = index.tree() {
        walk(root, &mut BString::default(), &mut out);
    }
    out
}

/// Directories (and `""`, the root) holding a path whose entry differs between two sorted
/// leaf lists.
fn dirty_dirs(a: &[Leaf], b: &[Leaf]) -> HashSet<BString> {
    let mut dirty = HashSet::new();
    let mut mark = |path: &BStr| {
        dirty.insert(BString::default());
        for pos in path.find_iter(b"/") {
            dirty.insert(BString::from(&path[..pos]));
        }
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.path == y.path => {
                if x.kind != y.kind || x.id != y.id {
                    mark(x.path.as_bstr());
                }
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.path < y.path => {
                mark(x.path.as_bstr());
                i += 1;
            }
            (Some(_), Some(y)) | (None, Some(y)) => {
                mark(y.path.as_bstr());
                j += 1;
            }
            (Some(x), None) => {
                mark(x.path.as_bstr());
                i += 1;
            }
            (None, None) => break,
        }
    }
    dirty
}

/// Subtrees that can be taken from the index's cache-tree instead of being written.
struct TreeCache<'a> {
    valid: &'a HashMap<BString, ObjectId>,
    dirty: &'a HashSet<BString>,
}

/// The file system path of `rela` in the working tree.
pub(crate) fn worktree_path(workdir: &std::path::Path, rela: &BStr) -> Result<std::path::PathBuf> {
    let rela = gix::path::from_bstr(rela)
        .map_err(|e| Error::InvalidInput(format!("path `{rela}` cannot be used here: {e}")))?;
    Ok(workdir.join(rela))
}

/// The tree entry kind of an index entry; sparse directories are trees.
fn index_kind(mode: Mode) -> Option<EntryKind> {
    if mode.is_sparse() {
        return Some(EntryKind::Tree);
    }
    mode.to_tree_entry_mode().map(|m| m.kind())
}

/// Hashes working-tree files into blobs the way `git add` does.
struct Hasher<'a, 'repo> {
    pipeline: &'a mut gix::filter::Pipeline<'repo>,
    index: &'a gix::index::State,
    workdir: &'a std::path::Path,
    trust_exec_bit: bool,
    has_symlinks: bool,
}

impl Hasher<'_, '_> {
    /// Hash `path` as `git add` would, given the mode its index entry had (if any). `None` when
    /// there is nothing to record (the file is gone, or is a repository without a commit).
    fn hash(&mut self, path: &BStr, old: Option<Mode>) -> Result<Option<(EntryKind, ObjectId)>> {
        let found = match self.pipeline.worktree_file_to_object(path, self.index) {
            Ok(found) => found,
            Err(err) => {
                // Name the file and keep the operating system's reason when it is unreadable.
                let fs_path = worktree_path(self.workdir, path)?;
                if let Err(source) = std::fs::File::open(&fs_path)
                    && source.kind() != std::io::ErrorKind::NotFound
                {
                    return Err(Error::UnreadableFile {
                        path: path.to_string(),
                        source,
                    });
                }
                return Err(Error::Git {
                    context: format!("cannot hash `{path}`"),
                    source: Box::new(err),
                });
            }
        };
        let Some((id, kind, _)) = found else {
            return Ok(None);
        };
        Ok(Some((self.mode_like_git(kind, old), id)))
    }

    /// `core.fileMode=false` and `core.symlinks=false`: keep the mode the index had, as git does
    /// (`ce_mode_from_stat`).
    fn mode_like_git(&self, kind: EntryKind, old: Option<Mode>) -> EntryKind {
        let old_kind = old.and_then(index_kind);
        let is_file = matches!(kind, EntryKind::Blob | EntryKind::BlobExecutable);
        if !self.has_symlinks && is_file && old_kind == Some(EntryKind::Link) {
            return EntryKind::Link;
        }
        if !self.trust_exec_bit && is_file {
            return match old_kind {
                Some(k @ (EntryKind::Blob | EntryKind::BlobExecutable)) => k,
                _ => EntryKind::Blob,
            };
        }
        kind
    }
}

/// Write the trees for `leaves` (sorted by path, no duplicates) and return the root tree's id.
/// Trees that already exist are not rewritten.
pub fn write_tree(repo: &gix::Repository, leaves: &[Leaf]) -> Result<ObjectId> {
    let (valid, dirty) = (HashMap::new(), HashSet::new());
    write_tree_with(
        repo,
        leaves,
        &TreeCache {
            valid: &valid,
            dirty: &dirty,
        },
    )
}

fn write_tree_with(
    repo: &gix::Repository,
    leaves: &[Leaf],
    cache: &TreeCache<'_>,
) -> Result<ObjectId> {
    write_subtree(repo, leaves, 0, cache)
}

fn write_subtree(
    repo: &gix::Repository,
    leaves: &[Leaf],
    prefix_len: usize,
    cache: &TreeCache<'_>,
) -> Result<ObjectId> {
    let dir = leaves
        .first()
        .map(|l| l.path[..prefix_len.saturating_sub(1)].as_bstr())
        .unwrap_or_default();
    if !cache.dirty.contains(dir)
        && let Some(id) = cache.valid.get(dir)
        && repo.has_object(id)
    {
        return Ok(*id);
    }
    let mut entries = Vec::new();
    let mut i = 0;
    while i < leaves.len() {
        let rest = &leaves[i].path[prefix_len..];
        match rest.find_byte(b'/') {
            // A sparse directory entry is stored with a trailing slash.
            Some(pos) if pos + 1 == rest.len() && leaves[i].kind == EntryKind::Tree => {
                entries.push(tree::Entry {
                    mode: EntryKind::Tree.into(),
                    filename: rest[..pos].into(),
                    oid: leaves[i].id,
                });
                i += 1;
            }
            Some(pos) => {
                let dir = &rest[..=pos];
                let end = leaves[i..]
                    .iter()
                    .position(|l| !l.path[prefix_len..].starts_with(dir))
                    .map_or(leaves.len(), |n| i + n);
                let oid = write_subtree(repo, &leaves[i..end], prefix_len + pos + 1, cache)?;
                entries.push(tree::Entry {
                    mode: EntryKind::Tree.into(),
                    filename: rest[..pos].into(),
                    oid,
                });
                i = end;
            }
            None => {
                entries.push(tree::Entry {
                    mode: leaves[i].kind.into(),
                    filename: rest.into(),
                    oid: leaves[i].id,
                });
                i += 1;
            }
        }
    }
    entries.sort();
    let id = repo
        .write_object(gix::objs::Tree { entries })
        .context(|| "cannot write a tree object".into())?;
    Ok(id.detach())
}
