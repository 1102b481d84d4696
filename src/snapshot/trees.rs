//! Stages 9 to 11 of a capture: the overrides of the index, the trees, and the stat cache the
//! capture leaves.

use std::collections::{BTreeMap, HashMap, HashSet};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::{self, EntryKind};

use super::listing::{Seen, list_dirs};
use super::{Blob, Env, base_entry};
use crate::error::{Context, Error, Result};
use crate::standin;
use crate::statcache::{self, PathMap, StatCache};

/// What stage 9 makes of the tracked overrides and the untracked files.
pub(super) struct Merged {
    /// Where the snapshot differs from the index.
    pub overrides: BTreeMap<BString, Option<Blob>>,
    /// Number of files (blobs, symlinks, gitlinks) in the snapshot.
    pub files: u64,
}

/// Stage 9: the untracked files `added` joined to the tracked `overrides` (the index does not
/// hold them, unless `core.ignoreCase` respelled one into a tracked path), and the files
/// counted: the index's, adjusted by the overrides.
pub(super) fn merge(
    index: &gix::index::State,
    ignore_case: bool,
    mut overrides: BTreeMap<BString, Option<Blob>>,
    mut added: Vec<(BString, Option<Blob>)>,
) -> Merged {
    let mut files = index
        .entries()
        .iter()
        .filter(|e| base_entry(e).is_some_and(|(k, _)| k != EntryKind::Tree))
        .count() as i64;
    let is_file = |blob: Option<Blob>| blob.is_some_and(|(k, _)| k != EntryKind::Tree);
    let indexed_file = |path: &BStr| is_file(index.entry_by_path(path).and_then(base_entry));
    for (path, new) in &overrides {
        files += i64::from(is_file(*new)) - i64::from(indexed_file(path.as_bstr()));
    }
    if ignore_case {
        for (path, new) in added {
            files += i64::from(is_file(new)) - i64::from(indexed_file(path.as_bstr()));
            overrides.insert(path, new);
        }
    } else if !added.is_empty() {
        files += added.iter().filter(|(_, new)| is_file(*new)).count() as i64;
        // One bulk build rather than an insertion per file (no path is in both).
        added.extend(std::mem::take(&mut overrides));
        overrides = added.into_iter().collect();
    }
    Merged {
        overrides,
        files: files.max(0) as u64,
    }
}

/// The untracked directories whose files are all as cached: their trees are reused.
pub(super) fn known(tally: Option<&Tally<'_>>, cache: Option<&StatCache>) -> PathMap<ObjectId> {
    match (tally, cache) {
        (Some(tally), Some(cache)) => tally.unchanged(cache),
        _ => PathMap::default(),
    }
}

/// What stage 10 wrote.
pub(super) struct Trees {
    /// The snapshot's tree.
    pub tree: ObjectId,
    /// The index's tree; `None` with unmerged entries and in a plain directory's save.
    pub index_tree: Option<ObjectId>,
    /// The tree of each directory of `tree`.
    pub dirs: DirTrees,
    /// The directories holding an override.
    pub changed: HashSet<BString>,
    /// The trees of the index's directories that were written or reused for `index_tree`.
    pub index_dirs: DirTrees,
    /// `HEAD`'s tree.
    pub reference: Option<ObjectId>,
}

/// Stage 10: the snapshot's tree and the index's. Directories the overrides leave alone come
/// from the index's cache-tree where it is valid, else from the stat cache while the index is
/// the same, else from `HEAD`'s tree where they are equal to it; untracked directories whose
/// files are all as cached (`known`) keep their cached trees.
pub(super) fn write_trees(
    env: &Env<'_>,
    index: &gix::index::State,
    overrides: &BTreeMap<BString, Option<Blob>>,
    known: &PathMap<ObjectId>,
    cache: Option<&StatCache>,
    unmerged: bool,
) -> Result<Trees> {
    let repo = env.repo;
    let reference = repo.head_tree_id().ok().map(|id| id.detach());
    let index_trees = cache.and_then(StatCache::index_trees);
    let reuse = Reuse {
        earlier: None,
        known: Some(known),
        index_trees,
        reference,
    };
    let (tree, dirs, changed) = write_tree(repo, index, overrides, reuse)?;
    // The index alone: every directory without an override (not in `changed`) is the same as
    // in `tree`. (A plain directory's stand-in is no index: there is none to record.)
    let (index_tree, index_dirs) = if unmerged || env.options.stand_in.is_some() {
        (None, DirTrees::default())
    } else {
        let reuse = Reuse {
            earlier: Some((&dirs, &changed)),
            known: None,
            index_trees,
            reference,
        };
        let (id, index_dirs, _) = write_tree(repo, index, &BTreeMap::new(), reuse)?;
        (Some(id), index_dirs)
    };
    Ok(Trees {
        tree,
        index_tree,
        dirs,
        changed,
        index_dirs,
        reference,
    })
}

/// What stage 11 keeps in the stat cache besides the files stage 8 gave it.
pub(super) struct Leaves<'a> {
    pub trees: &'a Trees,
    pub tally: Option<&'a Tally<'a>>,
    pub known: &'a PathMap<ObjectId>,
    /// The walk's key and what it saw, when it could skip directories.
    pub walk: Option<(u64, &'a Seen<'a>)>,
    /// The monitor's token, the dirty tracked paths, and whether it must be written (see
    /// `Monitor::next`).
    pub monitor: (Option<BString>, Vec<BString>, Option<u64>, bool),
}

/// Stage 11: fill `pending`, the stat cache this capture leaves (written by
/// `Snapshot::remember` once its checkpoint is recorded): the trees of the index's and of the
/// untracked directories, the listings, the monitor's token; then hand it what the old
/// `cache` said, to be compared with it, and drop the rest of the old cache aside.
pub(super) fn fill_pending(
    env: &Env<'_>,
    mut pending: Option<statcache::Pending>,
    cache: Option<StatCache>,
    leaves: Leaves<'_>,
) -> Option<statcache::Pending> {
    if let Some(pending) = pending.as_mut() {
        let trees = leaves.trees;
        for (dir, found) in &trees.index_dirs {
            if let Some(id) = found {
                pending.index_tree(dir.clone(), *id);
            }
        }
        for (dir, found) in &trees.dirs {
            if let Some(id) = found
                && !trees.changed.contains(dir)
            {
                pending.index_tree(dir.clone(), *id);
            }
        }
        if let Some(tally) = leaves.tally {
            for (dir, files) in tally.cacheable() {
                let found = leaves
                    .known
                    .get(dir)
                    .copied()
                    .or_else(|| trees.dirs.get(dir).copied().flatten());
                if let Some(id) = found {
                    pending.dir(dir.clone(), id, files);
                }
            }
        }
        if let (Some((key, seen)), Some(started), Some(cache)) =
            (leaves.walk, env.started(), cache.as_ref())
        {
            pending.walk_key(key);
            list_dirs(pending, &env.workdir, cache, started, seen);
        }
        let (token, dirty, content, must) = leaves.monitor;
        pending.monitor(token, dirty, content, must);
    }
    // What the old cache said goes to the cache this save leaves, to be compared with it.
    let cache = match (cache, pending.as_mut()) {
        (Some(cache), Some(pending)) => Some(cache.hand_over(pending)),
        (cache, _) => cache,
    };
    // What is left of the old cache: tens of thousands of paths.
    super::drop_aside(cache);
    pending
}

/// empty there, so left out), by path (`""`: the root).
pub(crate) type DirTrees = HashMap<BString, Option<ObjectId>>;

/// What a tree build may take instead of building and hashing a directory.
#[derive(Clone, Copy, Default)]
pub(super) struct Reuse<'a> {
    /// The directories of an earlier build of the same index, and the directories whose
    /// content may differ from it (those holding a path whose override differs).
    pub earlier: Option<(&'a DirTrees, &'a HashSet<BString>)>,
    /// Untracked directories whose files are all as the stat cache has them: their trees.
    pub known: Option<&'a PathMap<ObjectId>>,
    /// The trees of the index's directories, cached for this very index, and whether they are
    /// known to exist (else each is looked up first).
    pub index_trees: Option<(&'a PathMap<ObjectId>, bool)>,
    /// A tree to compare with (`HEAD`'s): a directory that comes out equal to its counterpart
    /// there takes that id, unhashed and unwritten.
    pub reference: Option<ObjectId>,
}

/// The directories that hold `paths` (`""` included when there is any), for sorted `paths`.
pub(super) fn dirs_of<'a>(paths: impl Iterator<Item = &'a BString>) -> HashSet<BString> {
    let mut dirs = HashSet::new();
    let mut last: &[u8] = b"\0";
    for path in paths {
        let parent = path.rfind_byte(b'/').map_or(&path[..0], |pos| &path[..pos]);
        // Sorted paths come directory by directory: each parent is recorded once.
        if parent == last {
            continue;
        }
        last = parent;
        dirs.insert(BString::default());
        for pos in path.find_iter(b"/") {
            dirs.insert(BString::from(&path[..pos]));
        }
    }
    dirs
}

/// Writes the tree of an index with overrides applied. A directory is built only when it has
/// to be: one the overrides do not touch takes its id from an earlier build or from the
/// index's cache-tree when that is valid; one built equal to its counterpart in the reference
/// tree takes that id without being hashed or written.
struct TreeWriter<'a> {
    repo: &'a gix::Repository,
    index: &'a gix::index::State,
    overrides: &'a BTreeMap<BString, Option<Blob>>,
    /// The index's cache-tree, whose valid trees are taken as they are.
    valid: Option<&'a gix::index::extension::Tree>,
    /// Directories holding an override: their content differs from the index.
    dirty: HashSet<BString>,
    reuse: Reuse<'a>,
    /// Every directory written or reused, for later builds.
    built: std::cell::RefCell<DirTrees>,
}

/// Write the tree of `index` with `overrides` applied; return its id, the tree of each
/// directory in it, and the directories holding an override (`""` when there is any).
pub(super) fn write_tree(
    repo: &gix::Repository,
    index: &gix::index::State,
    overrides: &BTreeMap<BString, Option<Blob>>,
    reuse: Reuse<'_>,
) -> Result<(ObjectId, DirTrees, HashSet<BString>)> {
    let writer = TreeWriter {
        repo,
        index,
        overrides,
        valid: index.tree(),
        dirty: dirs_of(overrides.keys()),
        reuse,
        built: Default::default(),
    };
    let id = match writer.write_dir(BStr::new(b""), reuse.reference)? {
        Some(id) => id,
        None => writer.write(Vec::new())?,
    };
    Ok((id, writer.built.into_inner(), writer.dirty))
}

/// A direct child of a directory being written.
enum Child {
    Leaf(Blob),
    Dir,
}

impl TreeWriter<'_> {
    /// The tree of directory `dir` (`""`: the root), or `None` when it would be empty;
    /// `reference` is its counterpart in the reference tree.
    fn write_dir(&self, dir: &BStr, reference: Option<ObjectId>) -> Result<Option<ObjectId>> {
        let found = self.write_dir_uncached(dir, reference)?;
        self.built.borrow_mut().insert(dir.to_owned(), found);
        Ok(found)
    }

    fn write_dir_uncached(
        &self,
        dir: &BStr,
        reference: Option<ObjectId>,
    ) -> Result<Option<ObjectId>> {
        if let Some((earlier, changed)) = self.reuse.earlier
            && !changed.contains(dir)
            && let Some(found) = earlier.get(dir)
        {
            return Ok(*found);
        }
        if let Some(known) = self.reuse.known
            && let Some(id) = known.get(dir)
        {
            return Ok(Some(*id));
        }
        let dirty = self.dirty.contains(dir);
        if !dirty
            && let Some(id) = self
                .valid
                .and_then(|root| standin::cache_tree_id(root, dir))
            && self.repo.has_object(id)
        {
            return Ok(Some(id));
        }
        if !dirty
            && let Some((trees, exist)) = self.reuse.index_trees
            && let Some(id) = trees.get(dir)
            && (exist || self.repo.has_object(id))
        {
            return Ok(Some(*id));
        }
        let mut prefix = BString::from(dir);
        if !prefix.is_empty() {
            prefix.push(b'/');
        }
        let children = if dirty {
            self.children_with_overrides(prefix.as_bstr())
        } else {
            self.index_children(prefix.as_bstr())
        };
        // The reference's entries, to find the counterparts of subdirectories and compare.
        let reference_tree = match reference {
            Some(id) => self.repo.find_tree(id).ok().map(|t| (id, t)),
            None => None,
        };
        let reference_entries = reference_tree
            .as_ref()
            .and_then(|(_, tree)| tree.decode().ok());
        let mut entries = Vec::with_capacity(children.len());
        for (name, child) in children {
            let (mode, oid) = match child {
                Child::Leaf((kind, id)) => (kind, id),
                Child::Dir => {
                    let counterpart = reference_entries.as_ref().and_then(|r| {
                        r.entries
                            .iter()
                            .find(|e| e.mode.is_tree() && e.filename == name)
                            .map(|e| e.oid.to_owned())
                    });
                    let mut sub = prefix.clone();
                    sub.extend_from_slice(&name);
                    match self.write_dir(sub.as_bstr(), counterpart)? {
                        Some(id) => (EntryKind::Tree, id),
                        None => continue,
                    }
                }
            };
            entries.push(tree::Entry {
                mode: mode.into(),
                filename: name,
                oid,
            });
        }
        if entries.is_empty() {
            return Ok(None);
        }
        entries.sort();
        if let (Some((id, _)), Some(r)) = (&reference_tree, &reference_entries)
            && r.entries.len() == entries.len()
            && r.entries.iter().zip(&entries).all(|(a, b)| {
                a.mode == b.mode && a.filename == b.filename && a.oid == b.oid.as_ref()
            })
        {
            return Ok(Some(*id));
        }
        self.write(entries).map(Some)
    }

    /// The children of the directory `prefix` (ending in `/`, or empty for the root) that
    /// the index holds, in tree order, when no override touches it.
    fn index_children(&self, prefix: &BStr) -> Vec<(BString, Child)> {
        let mut children = Vec::new();
        let state = self.index;
        let Some(range) = state.prefixed_entries_range(prefix) else {
            return children;
        };
        let entries = &state.entries()[range];
        let mut i = 0;
        while i < entries.len() {
            let entry = &entries[i];
            let path = entry.path(state);
            let rest = &path[prefix.len()..];
            match rest.find_byte(b'/') {
                // A sparse directory entry is stored with a trailing slash.
                Some(pos) if pos + 1 == rest.len() && entry.mode.is_sparse() => {
                    if let Some(blob) = base_entry(entry) {
                        children.push((rest[..pos].into(), Child::Leaf(blob)));
                    }
                    i += 1;
                }
                Some(pos) => {
                    let sub = &path[..prefix.len() + pos + 1];
                    children.push((rest[..pos].into(), Child::Dir));
                    i += entries[i..].partition_point(|e| e.path(state).starts_with(sub));
                }
                None => {
                    if let Some(blob) = base_entry(entry) {
                        children.push((rest.into(), Child::Leaf(blob)));
                    }
                    i += 1;
                }
            }
        }
        children
    }

    /// The children of the directory `prefix` with the overrides applied.
    fn children_with_overrides(&self, prefix: &BStr) -> Vec<(BString, Child)> {
        let mut children: BTreeMap<BString, Child> =
            self.index_children(prefix).into_iter().collect();
        let mut from = BString::from(prefix);
        'scan: loop {
            for (path, new) in self.overrides.range::<BString, _>(&from..) {
                if !path.starts_with(prefix.as_bytes()) {
                    break 'scan;
                }
                let rest = &path[prefix.len()..];
                match (rest.find_byte(b'/'), new) {
                    (Some(pos), Some(_)) => {
                        // A file of that name was removed by an earlier (smaller) override.
                        children.entry(rest[..pos].into()).or_insert(Child::Dir);
                        // Nothing else below that directory says more about this one's
                        // children: go on after it (`0` follows `/`), rather than through
                        // each of its files.
                        from = BString::from(&path[..prefix.len() + pos]);
                        from.push(b'0');
                        continue 'scan;
                    }
                    (Some(_), None) => {}
                    (None, Some(blob)) => {
                        children.insert(rest.into(), Child::Leaf(*blob));
                    }
                    (None, None) => {
                        children.remove(rest);
                    }
                }
            }
            break;
        }
        children.into_iter().collect()
    }

    fn write(&self, mut entries: Vec<tree::Entry>) -> Result<ObjectId> {
        // Never a tree git cannot parse: every id in it has the repository's length.
        let hash = self.repo.object_hash();
        if let Some(entry) = entries.iter().find(|e| e.oid.kind() != hash) {
            return Err(Error::Git {
                context: format!(
                    "cannot write a tree: its entry `{}` names the {} id {} in a {hash} repository",
                    entry.filename,
                    entry.oid.kind(),
                    entry.oid
                ),
                source: "an object id of the other object format".into(),
            });
        }
        entries.sort();
        let tree = gix::objs::Tree { entries };
        let id = crate::repo::retry_write(|| self.repo.write_object(&tree))
            .context(|| "cannot write a tree object".into())?;
        Ok(id.detach())
    }
}

/// The untracked directories (those with no tracked path below them, at any depth) that hold
/// what a save found, and what it found below each, to reuse the tree of one whose files are
/// all unchanged.
pub(super) struct Tally<'a> {
    index: &'a gix::index::State,
    /// Whether each directory looked at is untracked.
    untracked: PathMap<bool>,
    dirs: PathMap<DirTally>,
    /// What was counted in one directory since the last file elsewhere: the files of a
    /// directory come together, so each directory above is updated once per run.
    run: Option<(BString, DirTally)>,
}

/// What a save found below one untracked directory.
#[derive(Default, Clone, Copy)]
struct DirTally {
    /// Files (and symlinks) in the snapshot.
    files: u64,
    /// How many of them the stat cache had, unchanged.
    hits: u64,
    /// Whether there is anything else: a file too large, a repository, something gone.
    other: bool,
}

impl<'a> Tally<'a> {
    pub(super) fn new(index: &'a gix::index::State) -> Tally<'a> {
        Tally {
            index,
            untracked: PathMap::default(),
            dirs: PathMap::default(),
            run: None,
        }
    }

    /// Count the untracked `path` in each untracked directory above it: `Some(hit)` for a
    /// file or symlink in the snapshot (`hit`: its blob came from the stat cache), `None` for
    /// anything else. Counted for good by [`Tally::finish`].
    pub(super) fn count(&mut self, path: &BStr, found: Option<bool>) {
        let Some(slash) = path.rfind_byte(b'/') else {
            // At the top: in no directory.
            return;
        };
        let dir = &path[..slash];
        if self.run.as_ref().is_none_or(|(run, _)| run != dir) {
            self.finish();
            self.run = Some((dir.into(), DirTally::default()));
        }
        if let Some((_, tally)) = self.run.as_mut() {
            match found {
                Some(hit) => {
                    tally.files += 1;
                    tally.hits += u64::from(hit);
                }
                None => tally.other = true,
            }
        }
    }

    /// Add the run of files counted in one directory to that directory and each untracked one
    /// above it.
    pub(super) fn finish(&mut self) {
        let Some((dir, add)) = self.run.take() else {
            return;
        };
        let ends = dir
            .find_iter(b"/")
            .chain(std::iter::once(dir.len()))
            .collect::<Vec<_>>();
        let mut below_untracked = false;
        for end in ends {
            let dir = dir[..end].as_bstr();
            if !below_untracked {
                let untracked = match self.untracked.get(dir) {
                    Some(untracked) => *untracked,
                    None => {
                        let mut prefix = BString::from(dir);
                        prefix.push(b'/');
                        let untracked = self
                            .index
                            .prefixed_entries_range(prefix.as_bstr())
                            .is_none();
                        self.untracked.insert(dir.to_owned(), untracked);
                        untracked
                    }
                };
                if !untracked {
                    continue;
                }
                // Every directory below an untracked one is untracked too.
                below_untracked = true;
            }
            let tally = match self.dirs.get_mut(dir) {
                Some(tally) => tally,
                None => self.dirs.entry(dir.to_owned()).or_default(),
            };
            tally.files += add.files;
            tally.hits += add.hits;
            tally.other |= add.other;
        }
    }

    /// The untracked directories whose files are exactly those the stat cache had below them
    /// (all unchanged, and as many): their cached trees.
    fn unchanged(&self, cache: &StatCache) -> PathMap<ObjectId> {
        self.dirs
            .iter()
            .filter(|(_, t)| !t.other && t.files > 0 && t.hits == t.files)
            .filter_map(|(dir, t)| match cache.dir(dir.as_bstr()) {
                Some((tree, files)) if files == t.files => Some((dir.clone(), tree)),
                _ => None,
            })
            .collect()
    }

    /// The untracked directories that hold only files and symlinks of the snapshot, and how
    /// many: those whose trees the stat cache keeps.
    fn cacheable(&self) -> impl Iterator<Item = (&BString, u64)> {
        self.dirs
            .iter()
            .filter(|(_, t)| !t.other && t.files > 0)
            .map(|(dir, t)| (dir, t.files))
    }
}
