//! Turning the working tree into a tree object, the way `git add -A && git write-tree` would on
//! a copy of the index — without writing the index.

use std::collections::{BTreeMap, HashMap, HashSet};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::dir::entry::{Kind as DiskKind, Status as DirStatus};
use gix::index::entry::{Flags, Mode, Stage};
use gix::objs::tree::{self, EntryKind};
use gix::status::plumbing::index_as_worktree::{Change, EntryStatus};
use gix::status::plumbing::index_as_worktree_with_renames::{Entry as StatusEntry, Recorder};

use crate::config::Capture;
use crate::control::Control;
use crate::error::{Context, Error, Result};
use crate::format::{SKIP_EMBEDDED_NO_COMMIT, SKIP_TOO_LARGE, Skipped};
use crate::select::Rules;
use crate::statcache::{Stamp, StatCache};

/// What to snapshot and how.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// The size guard and the exclude and include patterns.
    pub capture: &'a Capture,
    /// Use and update the private stat cache of untracked files (see [`crate::statcache`]).
    /// Off when objects are kept in memory only.
    pub stat_cache: bool,
}

/// An entry of a snapshot: its mode and object.
pub type Blob = (EntryKind, ObjectId);

/// The trees a save writes, and what the snapshot holds path by path: the index's stage-0
/// entries (other than intent-to-add ones) with `overrides` applied.
#[derive(Clone)]
pub struct Snapshot {
    /// The working tree as `git add -A` would stage it.
    pub tree: ObjectId,
    /// The index as a tree; `None` when it has unmerged entries.
    pub index_tree: Option<ObjectId>,
    /// Number of files (blobs, symlinks, gitlinks) in `tree`.
    pub files: u64,
    /// Paths left out of `tree`.
    pub skipped: Vec<Skipped>,
    /// The index the snapshot was taken against.
    index: gix::worktree::Index,
    /// Where the snapshot differs from the index: new content, or `None` for a path it lacks.
    overrides: BTreeMap<BString, Option<Blob>>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("tree", &self.tree)
            .field("index_tree", &self.index_tree)
            .field("files", &self.files)
            .field("skipped", &self.skipped)
            .field("overrides", &self.overrides.len())
            .finish()
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

/// The index entry a snapshot starts from: stage 0 and not intent-to-add.
fn base_entry(entry: &gix::index::Entry) -> Option<Blob> {
    if entry.stage() != Stage::Unconflicted || entry.flags.contains(Flags::INTENT_TO_ADD) {
        return None;
    }
    index_kind(entry.mode).map(|kind| (kind, entry.id))
}

impl Snapshot {
    /// The index the snapshot was taken against (for the attributes files are hashed with).
    pub fn index(&self) -> &gix::index::State {
        &self.index
    }

    /// The leaf at `path`, if the snapshot has one.
    pub fn leaf(&self, path: &BStr) -> Option<Leaf> {
        let found = match self.overrides.get(path) {
            Some(o) => *o,
            None => self.index.entry_by_path(path).and_then(base_entry),
        };
        found.map(|(kind, id)| Leaf {
            path: path.to_owned(),
            kind,
            id,
        })
    }

    /// Every leaf at `path` or below it, sorted by path.
    pub fn leaves_at_or_below(&self, path: &BStr) -> Vec<Leaf> {
        let mut out: BTreeMap<BString, Option<Blob>> = BTreeMap::new();
        let state: &gix::index::State = &self.index;
        if let Some(blob) = state.entry_by_path(path).and_then(base_entry) {
            out.insert(path.to_owned(), Some(blob));
        }
        let mut dir = BString::from(path);
        dir.push(b'/');
        if let Some(entries) = state.prefixed_entries(dir.as_bstr()) {
            for entry in entries {
                if let Some(blob) = base_entry(entry) {
                    out.insert(entry.path(state).to_owned(), Some(blob));
                }
            }
        }
        for (p, o) in self
            .overrides
            .range::<BString, _>(BString::from(path)..)
            .take_while(|(p, _)| p.starts_with(path))
        {
            if p.as_bstr() == path || p.starts_with(dir.as_slice()) {
                out.insert(p.clone(), *o);
            }
        }
        out.into_iter()
            .filter_map(|(path, o)| o.map(|(kind, id)| Leaf { path, kind, id }))
            .collect()
    }

    /// The tree of this snapshot with `extra` leaves added (replacing what is at their paths).
    pub fn tree_with(&self, repo: &gix::Repository, extra: &[Leaf]) -> Result<ObjectId> {
        let mut overrides = self.overrides.clone();
        for leaf in extra {
            overrides.insert(leaf.path.clone(), Some((leaf.kind, leaf.id)));
        }
        write_tree(repo, &self.index, &overrides)
    }
}

impl Snapshot {
    /// The tree this snapshot becomes when `writes` are written (replacing what is at their
    /// paths) and `deletions` removed: what the working tree holds after a restore.
    pub fn tree_after(
        &self,
        repo: &gix::Repository,
        writes: &[Leaf],
        deletions: &[BString],
    ) -> Result<ObjectId> {
        let mut overrides = self.overrides.clone();
        for path in deletions {
            overrides.insert(path.clone(), None);
        }
        for leaf in writes {
            overrides.insert(leaf.path.clone(), Some((leaf.kind, leaf.id)));
        }
        write_tree(repo, &self.index, &overrides)
    }
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
    index: &gix::worktree::Index,
    options: Options<'_>,
    ctl: &Control<'_>,
) -> Result<Snapshot> {
    let workdir = repo.workdir().ok_or(Error::BareRepository)?.to_owned();
    let caps = repo
        .filesystem_options()
        .context(|| "cannot read core.fileMode / core.symlinks".into())?;
    let rules = Rules::new(options.capture, caps.ignore_case);

    // 1. What changed, and what is untracked: git's status, in process.
    let mut recorder = Recorder::default();
    let dirwalk = repo
        .dirwalk_options()
        .context(|| "cannot configure the directory walk".into())?
        .emit_untracked(gix::dir::walk::EmissionMode::Matching)
        // With include patterns, ignored files and directories are listed (not entered) to
        // look for what the patterns capture.
        .emit_ignored(
            rules
                .includes_any()
                .then_some(gix::dir::walk::EmissionMode::CollapseDirectory),
        )
        .emit_pruned(false)
        .emit_empty_directories(false)
        .recurse_repositories(false);
    // The status has no progress of its own here: say what is going on when it takes long.
    ctl.during("checking the working tree", index.entries().len(), || {
        status(repo, &workdir, index, &rules, dirwalk, &mut recorder, ctl)
    })
    .map_err(|err| match ctl.check() {
        Err(cancelled) => cancelled,
        Ok(()) => err,
    })?;

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
            StatusEntry::DirectoryContents { entry, .. } => match (entry.status, entry.disk_kind) {
                (DirStatus::Untracked, Some(kind)) => {
                    untracked.push((entry.rela_path.clone(), kind));
                }
                // `checkpoint.include`: ignored, and captured anyway.
                (DirStatus::Ignored(_), Some(DiskKind::Directory)) => {
                    for path in rules.included_below(&workdir, entry.rela_path.as_bstr())? {
                        untracked.push((path, DiskKind::File));
                    }
                }
                (DirStatus::Ignored(_), Some(kind @ (DiskKind::File | DiskKind::Symlink)))
                    if rules.included(entry.rela_path.as_bstr(), false) =>
                {
                    untracked.push((entry.rela_path.clone(), kind));
                }
                _ => {}
            },
            StatusEntry::Rewrite { .. } => {}
        }
    }

    // 2. Hash what must be hashed; everything else is the index.
    let (mut pipeline, _) = repo
        .filter_pipeline(None)
        .context(|| "cannot set up the clean filters".into())?;
    let mut hasher = Hasher {
        pipeline: &mut pipeline,
        repo,
        index,
        workdir: &workdir,
        trust_exec_bit: caps.executable_bit,
        has_symlinks: caps.symlink,
    };

    let mut overrides: BTreeMap<BString, Option<Blob>> = BTreeMap::new();
    let mut unmerged = false;
    let to_rehash = actions.values().filter(|a| **a == Action::Rehash).count();
    let mut rehashed = 0;
    let entries = index.entries();
    let mut i = 0;
    while i < entries.len() {
        let entry = &entries[i];
        let path = entry.path(index);
        i += 1;
        if entry.stage() != Stage::Unconflicted {
            unmerged = true;
            // `git add -A` resolves a conflicted path to what the working tree holds; the
            // entries of one path are adjacent.
            let mut ours = None;
            let mut j = i - 1;
            while j < entries.len() && entries[j].path(index) == path {
                if entries[j].stage() == Stage::Ours {
                    ours = Some(entries[j].mode);
                }
                j += 1;
            }
            i = j;
            overrides.insert(path.to_owned(), hasher.hash(path, ours)?);
            continue;
        }
        let base = base_entry(entry);
        if rules.excludes_any() && rules.excluded(path, false) {
            // `checkpoint.exclude`: left out even when tracked.
            if base.is_some() {
                overrides.insert(path.to_owned(), None);
            }
            continue;
        }
        let new = if entry.mode.is_submodule() {
            // A gitlink records the submodule's checked-out commit, whatever the stat says.
            match hasher.hash(path, Some(entry.mode))? {
                Some(found) => Some(found),
                // An uninitialised submodule: its directory is empty, the gitlink stays.
                None if worktree_path(&workdir, path)?.exists() => base,
                None => None,
            }
        } else {
            match actions.get(path) {
                Some(Action::Remove) => None,
                Some(Action::Rehash) => {
                    rehashed += 1;
                    ctl.report("hashing changed files", rehashed, to_rehash);
                    ctl.check()?;
                    hasher.hash(path, Some(entry.mode))?
                }
                None if entry.flags.contains(Flags::INTENT_TO_ADD) => hasher.hash(path, None)?,
                None => continue,
            }
        };
        if new != base {
            overrides.insert(path.to_owned(), new);
        }
    }

    let mut cache = (options.stat_cache && !untracked.is_empty())
        .then(|| StatCache::load(repo, hashing_digest(repo, index, &untracked)));
    let mut skipped = Vec::new();
    let total = untracked.len();
    // `core.ignoreCase`: new files go into the directories the index knows, in its spelling,
    // added in the order git adds them.
    let mut dir_case = caps.ignore_case.then(|| DirCase::new(index));
    if dir_case.is_some() {
        untracked.sort_by(|a, b| a.0.cmp(&b.0));
    }
    let mut fold = |path: BString| match dir_case.as_mut() {
        Some(dir_case) => dir_case.fold(path),
        None => path,
    };
    for (done, (path, disk_kind)) in untracked.into_iter().enumerate() {
        ctl.report("hashing untracked files", done + 1, total);
        ctl.check()?;
        match disk_kind {
            DiskKind::File | DiskKind::Symlink => {
                let fs_path = worktree_path(&workdir, path.as_bstr())?;
                let md = match std::fs::symlink_metadata(&fs_path) {
                    Ok(md) => md,
                    // Gone since the walk: nothing to save.
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(source) => {
                        return Err(Error::UnreadableFile {
                            path: path.to_string(),
                            source,
                        });
                    }
                };
                if md.is_file() && md.len() > options.capture.max_file_size {
                    skipped.push(Skipped {
                        path: path.to_string(),
                        reason: SKIP_TOO_LARGE.into(),
                        size: Some(md.len()),
                    });
                    continue;
                }
                let stamp = Stamp::of(&md);
                let cached = cache.as_ref().and_then(|c| c.get(repo, &path, stamp));
                let found = match cached {
                    Some(found) => Some(found),
                    None => hasher.hash(path.as_bstr(), None)?,
                };
                if let Some((kind, id)) = found {
                    if let Some(cache) = cache.as_mut() {
                        cache.put(path.clone(), stamp, kind, id);
                    }
                    overrides.insert(fold(path), Some((kind, id)));
                }
            }
            DiskKind::Repository => match hasher.hash(path.as_bstr(), None)? {
                Some(found) => {
                    overrides.insert(fold(path), Some(found));
                }
                None => skipped.push(Skipped {
                    path: path.to_string(),
                    reason: SKIP_EMBEDDED_NO_COMMIT.into(),
                    size: None,
                }),
            },
            DiskKind::Directory | DiskKind::Untrackable => {}
        }
    }

    if let Some(cache) = cache {
        cache.store();
    }

    // Files: the index's, adjusted by the overrides.
    let mut files = entries
        .iter()
        .filter(|e| base_entry(e).is_some_and(|(k, _)| k != EntryKind::Tree))
        .count() as i64;
    for (path, new) in &overrides {
        let had = index
            .entry_by_path(path.as_bstr())
            .and_then(base_entry)
            .is_some_and(|(k, _)| k != EntryKind::Tree);
        let has = new.is_some_and(|(k, _)| k != EntryKind::Tree);
        files += i64::from(has) - i64::from(had);
    }

    let tree = write_tree(repo, index, &overrides)?;
    let index_tree = if unmerged {
        None
    } else {
        Some(write_tree(repo, index, &BTreeMap::new())?)
    };
    Ok(Snapshot {
        tree,
        index_tree,
        files: files.max(0) as u64,
        skipped,
        index: index.clone(),
        overrides,
    })
}

/// git's status of the working tree against `index` (as `Repository::index_worktree_status`
/// computes it), with `rules`' exclude patterns overriding every other ignore rule in the
/// directory walk, so that an excluded directory is not even entered.
fn status<'index>(
    repo: &gix::Repository,
    workdir: &std::path::Path,
    index: &'index gix::index::State,
    rules: &Rules,
    dirwalk: gix::dirwalk::Options,
    recorder: &mut Recorder<'index, (), ()>,
    ctl: &Control<'_>,
) -> Result<()> {
    use gix::worktree::stack::state::{attributes, ignore};
    let git = |context: &'static str| {
        move |err: Box<dyn std::error::Error + Send + Sync>| Error::Git {
            context: context.into(),
            source: err,
        }
    };
    let stack = repo
        .attributes(
            index,
            attributes::Source::WorktreeThenIdMapping,
            ignore::Source::WorktreeThenIdMappingIfNotSkipped,
            rules.walk_overrides(),
        )
        .map_err(|e| git("cannot read the ignore rules")(e.into()))?
        .detach();
    let pathspec = repo
        .pathspec(
            false,
            None::<&BStr>,
            true,
            index,
            attributes::Source::WorktreeThenIdMapping,
        )
        .map_err(|e| git("cannot set up the directory walk")(e.into()))?
        .into_parts()
        .0;
    let cwd = repo.current_dir();
    let git_dir_realpath =
        gix::path::realpath_opts(repo.git_dir(), cwd, gix::path::realpath::MAX_SYMLINKS)
            .map_err(|e| git("cannot resolve the git directory")(e.into()))?;
    let fs = repo
        .filesystem_options()
        .map_err(|e| git("cannot read core.fileMode / core.symlinks")(e.into()))?;
    let stat = repo
        .stat_options()
        .map_err(|e| git("cannot read the core.* stat settings")(e.into()))?;
    let fscache = repo
        .config_snapshot()
        .boolean("core.fscache")
        .unwrap_or(cfg!(windows));
    let icase = fs.ignore_case.then(|| index.prepare_icase_backing());
    let resource_cache = gix::diff::resource_cache(
        repo,
        gix::diff::blob::pipeline::Mode::ToGit,
        stack,
        gix::diff::blob::pipeline::WorktreeRoots {
            old_root: None,
            new_root: Some(workdir.to_owned()),
        },
    )
    .map_err(|e| git("cannot set up the clean filters")(e.into()))?;
    let objects = repo
        .objects
        .clone()
        .into_arc()
        .map_err(|e| git("cannot share the object database")(e.into()))?;
    use gix::status::plumbing::index_as_worktree_with_renames as status;
    gix::status::plumbing::index_as_worktree_with_renames(
        index,
        workdir,
        recorder,
        gix::status::plumbing::index_as_worktree::traits::FastEq,
        NoSubmoduleStatus,
        objects,
        &mut gix::progress::Discard,
        status::Context {
            pathspec,
            resource_cache,
            should_interrupt: ctl.flag(),
            dirwalk: status::DirwalkContext {
                git_dir_realpath: git_dir_realpath.as_path(),
                current_dir: cwd,
                ignore_case_index_lookup: icase.as_ref(),
            },
        },
        status::Options {
            sorting: None,
            tracked_file_modifications: gix::status::plumbing::index_as_worktree::Options {
                fs,
                thread_limit: None,
                stat,
                fscache,
            },
            fscache,
            dirwalk: Some(dirwalk.into()),
            rewrites: None,
        },
    )
    .map_err(|e| git("cannot compute the status of the working tree")(e.into()))?;
    Ok(())
}

/// A fingerprint of everything that changes how a file is hashed into a blob: the
/// `.gitattributes` files (tracked ones by id, untracked ones by stamp), `info/attributes`,
/// the `core.*` and `filter.*` settings, and the object format the ids are in.
fn hashing_digest(
    repo: &gix::Repository,
    index: &gix::index::State,
    untracked: &[(BString, DiskKind)],
) -> u64 {
    let mut parts: Vec<Vec<u8>> = vec![repo.object_hash().to_string().into_bytes()];
    let config = repo.config_snapshot();
    let file = config.plumbing();
    for name in ["core", "filter"] {
        if let Some(sections) = file.sections_by_name(name) {
            for section in sections {
                parts.push(section.to_bstring().into());
            }
        }
    }
    for entry in index.entries() {
        let path = entry.path(index);
        if path.ends_with(b".gitattributes") {
            parts.push(path.to_vec());
            parts.push(entry.id.as_bytes().to_vec());
        }
    }
    let stamp_of = |path: &std::path::Path| {
        std::fs::symlink_metadata(path)
            .map(|md| format!("{:?}", Stamp::of(&md)).into_bytes())
            .unwrap_or_default()
    };
    if let Some(workdir) = repo.workdir() {
        for (path, _) in untracked {
            if path.ends_with(b".gitattributes")
                && let Ok(fs_path) = worktree_path(workdir, path.as_bstr())
            {
                parts.push(path.to_vec());
                parts.push(stamp_of(&fs_path));
            }
        }
    }
    parts.push(stamp_of(&repo.common_dir().join("info").join("attributes")));
    if let Some(global) = config.string("core.attributesFile") {
        parts.push(stamp_of(std::path::Path::new(
            &global.to_str_lossy().into_owned(),
        )));
    }
    if let Some(home) = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config")))
    {
        parts.push(stamp_of(&home.join("git").join("attributes")));
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    crate::statcache::digest(&refs)
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

/// Writes the tree of an index with overrides applied. Directories that hold no override take
/// their id from the index's cache-tree when it is valid: no tree to build, hash or write.
struct TreeWriter<'a> {
    repo: &'a gix::Repository,
    index: &'a gix::index::State,
    overrides: &'a BTreeMap<BString, Option<Blob>>,
    valid: HashMap<BString, ObjectId>,
    dirty: HashSet<BString>,
}

/// Write the tree of `index` with `overrides` applied and return its id.
pub fn write_tree(
    repo: &gix::Repository,
    index: &gix::index::State,
    overrides: &BTreeMap<BString, Option<Blob>>,
) -> Result<ObjectId> {
    let mut dirty = HashSet::new();
    for path in overrides.keys() {
        dirty.insert(BString::default());
        for pos in path.find_iter(b"/") {
            dirty.insert(BString::from(&path[..pos]));
        }
    }
    let writer = TreeWriter {
        repo,
        index,
        overrides,
        valid: cache_tree(index),
        dirty,
    };
    match writer.write_dir(BStr::new(b""))? {
        Some(id) => Ok(id),
        None => writer.write(Vec::new()),
    }
}

/// A direct child of a directory being written.
enum Child {
    Leaf(Blob),
    Dir,
}

impl TreeWriter<'_> {
    /// The tree of directory `dir` (`""`: the root), or `None` when it would be empty.
    fn write_dir(&self, dir: &BStr) -> Result<Option<ObjectId>> {
        if !self.dirty.contains(dir)
            && let Some(id) = self.valid.get(dir)
            && self.repo.has_object(id)
        {
            return Ok(Some(*id));
        }
        let mut prefix = BString::from(dir);
        if !prefix.is_empty() {
            prefix.push(b'/');
        }
        let mut children: BTreeMap<BString, Child> = BTreeMap::new();
        let state = self.index;
        if let Some(range) = state.prefixed_entries_range(prefix.as_bstr()) {
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
                            children.insert(rest[..pos].into(), Child::Leaf(blob));
                        }
                        i += 1;
                    }
                    Some(pos) => {
                        let sub = &path[..prefix.len() + pos + 1];
                        children.insert(rest[..pos].into(), Child::Dir);
                        i += entries[i..].partition_point(|e| e.path(state).starts_with(sub));
                    }
                    None => {
                        if let Some(blob) = base_entry(entry) {
                            children.insert(rest.into(), Child::Leaf(blob));
                        }
                        i += 1;
                    }
                }
            }
        }
        for (path, new) in self
            .overrides
            .range::<BString, _>(prefix.clone()..)
            .take_while(|(p, _)| p.starts_with(prefix.as_slice()))
        {
            let rest = &path[prefix.len()..];
            match (rest.find_byte(b'/'), new) {
                (Some(pos), Some(_)) => {
                    // A file of that name was removed by an earlier (smaller) override.
                    children.entry(rest[..pos].into()).or_insert(Child::Dir);
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
        let mut entries = Vec::with_capacity(children.len());
        for (name, child) in children {
            let (mode, oid) = match child {
                Child::Leaf((kind, id)) => (kind, id),
                Child::Dir => {
                    let mut sub = prefix.clone();
                    sub.extend_from_slice(&name);
                    match self.write_dir(sub.as_bstr())? {
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
        self.write(entries).map(Some)
    }

    fn write(&self, mut entries: Vec<tree::Entry>) -> Result<ObjectId> {
        entries.sort();
        let id = self
            .repo
            .write_object(gix::objs::Tree { entries })
            .context(|| "cannot write a tree object".into())?;
        Ok(id.detach())
    }
}

/// The spelling of directories for `core.ignoreCase`, as git's name hash keeps it: a new file
/// whose directory the index already holds in another case (`docs/b.md` next to a tracked
/// `Docs/a.md`) is added in the index's spelling (`Docs/b.md`), directory by directory
/// (`adjust_dirname_case`). The first spelling of a directory, in index order and then in the
/// order files are added, is the one kept. Case is folded as git folds it, ASCII only.
struct DirCase {
    /// Directory paths, lowercased, and their spelling.
    dirs: HashMap<BString, BString>,
}

impl DirCase {
    fn new(index: &gix::index::State) -> DirCase {
        let mut dir_case = DirCase {
            dirs: HashMap::new(),
        };
        for entry in index.entries() {
            dir_case.learn(entry.path(index));
        }
        dir_case
    }

    /// Remember the directories above `path` not known yet (deepest first: once one is known,
    /// so are those above it).
    fn learn(&mut self, path: &BStr) {
        let mut end = path.len();
        while let Some(pos) = path[..end].rfind_byte(b'/') {
            let dir = &path[..pos];
            let key = BString::from(dir.to_ascii_lowercase());
            if self.dirs.contains_key(&key) {
                break;
            }
            self.dirs.insert(key, dir.into());
            end = pos;
        }
    }

    /// `path` with each directory spelled as it is known, remembered as added.
    fn fold(&mut self, mut path: BString) -> BString {
        let slashes: Vec<usize> = path.find_iter(b"/").collect();
        let mut start = 0;
        for pos in slashes {
            let key = BString::from(path[..pos].to_ascii_lowercase());
            if let Some(spelling) = self.dirs.get(&key).and_then(|d| d.get(start..pos)) {
                path[start..pos].copy_from_slice(spelling);
                start = pos + 1;
            }
        }
        self.learn(path.as_bstr());
        path
    }
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
    repo: &'repo gix::Repository,
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
            return Ok(self.reftable_repository_head(path));
        };
        Ok(Some((self.mode_like_git(kind, old), id)))
    }

    /// A nested repository or submodule is recorded as a gitlink to its `HEAD` commit, which
    /// gix reads, except when that repository stores its refs in the reftable format: then git
    /// reads it. `None` when `path` is no such repository, or its `HEAD` has no commit.
    fn reftable_repository_head(&self, path: &BStr) -> Option<(EntryKind, ObjectId)> {
        let dir = worktree_path(self.workdir, path).ok()?;
        if !std::fs::symlink_metadata(&dir).is_ok_and(|md| md.is_dir()) {
            return None;
        }
        let nested = gix::open_opts(&dir, self.repo.open_options().clone()).ok()?;
        if crate::repo::ref_format(&nested) != crate::repo::RefFormat::Reftable {
            return None;
        }
        crate::gitcli::head_of(&dir)
            .filter(|id| id.kind() == self.repo.object_hash())
            .map(|id| (EntryKind::Commit, id))
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
