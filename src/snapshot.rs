//! Turning the working tree into a tree object, the way `git add -A && git write-tree` would on
//! a copy of the index — without writing the index.

use std::collections::{BTreeMap, HashMap, HashSet};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::dir::entry::{Kind as DiskKind, Status as DirStatus};
use gix::index::entry::{Flags, Mode, Stage};
use gix::objs::tree::{self, EntryKind};
use gix::status::plumbing::index_as_worktree::{Change, EntryStatus};

use crate::config::Capture;
use crate::control::Control;
use crate::error::{Context, Error, Result};
use crate::format::{SKIP_EMBEDDED_NO_COMMIT, SKIP_TOO_LARGE, Skipped};
use crate::select::Rules;
use crate::standin;
use crate::statcache::{self, Moment, PathMap, Stamp, StatCache};

/// What to snapshot and how.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// The size guard and the exclude and include patterns.
    pub capture: &'a Capture,
    /// Use and update the private stat cache of untracked files (see [`crate::statcache`]).
    /// Off when objects are kept in memory only.
    pub stat_cache: bool,
    /// In a plain directory's save: how the index stands in for the directory's last save
    /// (see [`crate::standin`]); `None` elsewhere.
    pub stand_in: Option<standin::Mode>,
}

/// An entry of a snapshot: its mode and object.
pub type Blob = (EntryKind, ObjectId);

/// The trees a save writes, and what the snapshot holds path by path: the index's stage-0
/// entries (other than intent-to-add ones) with `overrides` applied.
#[derive(Clone)]
pub struct Snapshot {
    /// The working tree as `git add -A` would stage it.
    pub tree: ObjectId,
    /// The index as a tree; `None` when it has unmerged entries, and in a plain directory's
    /// save (whose stand-in index is none).
    pub index_tree: Option<ObjectId>,
    /// Number of files (blobs, symlinks, gitlinks) in `tree`.
    pub files: u64,
    /// Paths left out of `tree`.
    pub skipped: Vec<Skipped>,
    /// The index the snapshot was taken against.
    index: gix::worktree::Index,
    /// Where the snapshot differs from the index: new content, or `None` for a path it lacks.
    overrides: BTreeMap<BString, Option<Blob>>,
    /// The tree of each directory of `tree`, so that the trees derived from it rebuild only
    /// the directories they change.
    dirs: std::sync::Arc<DirTrees>,
    /// The directories holding an override (`""` when there is any).
    changed: std::sync::Arc<HashSet<BString>>,
    /// `HEAD`'s tree, which directories equal to their counterpart there are taken from.
    reference: Option<ObjectId>,
    /// When the capture began, by the file system's clock (see [`statcache::moment`]).
    started: Option<Moment>,
    /// The stamp each hashed file had just before it was hashed, by its path in the snapshot.
    stamps: std::sync::Arc<PathMap<Stamp>>,
    /// The stat cache this capture leaves, written once its checkpoint is recorded.
    cache: Option<std::sync::Arc<statcache::Pending>>,
    /// With `core.ignoreCase`, the files the snapshot holds under another spelling than the
    /// one they have on disk (`Docs/b.md` for `docs/b.md` next to a tracked `Docs/`): the
    /// snapshot's path, and the file's.
    respelled: BTreeMap<BString, BString>,
    /// What the capture left out and took in beyond git's own rules.
    rules: std::sync::Arc<Rules>,
    /// In a plain directory's save: the stand-in index written once its checkpoint is
    /// recorded.
    stand_in: Option<std::sync::Arc<standin::Pending>>,
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

/// The position of the first entry of `index` from `at` on whose path is not before `path`
/// (the entries are in path order). Galloping from `at`: a walk through sorted paths costs what
/// the gaps between them cost, not a search of the whole index each.
fn first_not_before(index: &gix::index::State, at: usize, path: &BStr) -> usize {
    let entries = index.entries();
    let before = |e: &gix::index::Entry| e.path(index) < path;
    // Every entry before `lo` is before `path`; the one at `hi` (if any) is not.
    let (mut lo, mut hi, mut step) = (at, at, 1);
    while entries.get(hi).is_some_and(before) {
        lo = hi + 1;
        hi += step;
        step *= 2;
    }
    let hi = hi.min(entries.len());
    lo + entries[lo..hi].partition_point(before)
}

/// The index entry a snapshot starts from: stage 0 and not intent-to-add.
fn base_entry(entry: &gix::index::Entry) -> Option<Blob> {
    if entry.stage() != Stage::Unconflicted || entry.flags.contains(Flags::INTENT_TO_ADD) {
        return None;
    }
    index_kind(entry.mode).map(|kind| (kind, entry.id))
}

impl Snapshot {
    /// What differs from the tree `head` to the snapshot's, counted as
    /// [`crate::treediff::summary`] counts it, without reading a tree: when the index holds
    /// exactly `head`'s tree (nothing staged), what differs is what the snapshot overrides.
    /// `None` when that does not hold (then compare the trees).
    pub fn summary_since(&self, head: Option<ObjectId>) -> Option<crate::treediff::Summary> {
        if head.is_none()
            || self.index_tree != head
            || self.index.is_sparse()
            || !self.respelled.is_empty()
        {
            return None;
        }
        let mut summary = crate::treediff::Summary::default();
        // The overrides and the index's entries are both in path order: one walk over both,
        // rather than a search of the whole index per override (tens of thousands of new
        // files).
        let entries = self.index.entries();
        let mut at = 0;
        for (path, new) in &self.overrides {
            at = first_not_before(&self.index, at, path.as_bstr());
            let old = entries[at..]
                .iter()
                .take_while(|e| e.path(&self.index) == path.as_bstr())
                .find_map(base_entry);
            match (old, new) {
                (None, Some(_)) => summary.added += 1,
                (Some(_), None) => summary.deleted += 1,
                (Some(old), Some(new)) if old != *new => summary.modified += 1,
                _ => {}
            }
        }
        Some(summary)
    }

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

    /// Where the file this snapshot holds at `path` is in the working tree, relative to its
    /// top: `path` itself, unless `core.ignoreCase` made the snapshot spell it as its directory
    /// is spelled in the index (see [`DirCase`]). Every look at the file goes there, as the
    /// capture's did.
    pub fn on_disk(&self, path: &BStr) -> BString {
        self.respelled
            .get(path)
            .cloned()
            .unwrap_or_else(|| path.to_owned())
    }

    /// `paths` (relative to the top of the working tree; a directory means everything below
    /// it), and the paths in this snapshot of the files that are at or below one of them on
    /// disk but spelled otherwise in the snapshot (`core.ignoreCase`): a path given in the
    /// spelling the working tree has matches the file the snapshot holds, as `git add` matches
    /// it.
    pub fn with_snapshot_spellings(&self, paths: &[BString]) -> Vec<BString> {
        let mut out = paths.to_vec();
        for (ours, disk) in &self.respelled {
            if paths.iter().any(|p| {
                crate::treediff::is_at_or_below(disk.as_bstr(), p.as_bstr())
                    && !crate::treediff::is_at_or_below(ours.as_bstr(), p.as_bstr())
            }) {
                out.push(ours.clone());
            }
        }
        out
    }

    /// Whether `path` (a directory when `is_dir`) is left out by `checkpoint.exclude` (or a
    /// plain directory's default excludes): no checkpoint holds it, and nothing but the user
    /// ever changes it.
    pub fn excluded(&self, path: &BStr, is_dir: bool) -> bool {
        self.rules.excludes_any() && self.rules.excluded(path, is_dir)
    }

    /// Whether `path` names, in the spelling the working tree has, a file (or a directory
    /// holding one) that this snapshot spells otherwise (see [`Snapshot::on_disk`]).
    pub fn matches_on_disk(&self, path: &BStr) -> bool {
        self.respelled
            .values()
            .any(|disk| crate::treediff::is_at_or_below(disk.as_bstr(), path))
    }

    /// The tree of this snapshot with `extra` leaves added (replacing what is at their paths).
    pub fn tree_with(&self, repo: &gix::Repository, extra: &[Leaf]) -> Result<ObjectId> {
        self.derived_tree(
            repo,
            extra
                .iter()
                .map(|leaf| (leaf.path.clone(), Some((leaf.kind, leaf.id)))),
        )
    }

    /// The tree of this snapshot with `changes` applied over its overrides, rebuilding only
    /// the directories they touch.
    fn derived_tree(
        &self,
        repo: &gix::Repository,
        changes: impl Iterator<Item = (BString, Option<Blob>)>,
    ) -> Result<ObjectId> {
        let mut overrides = self.overrides.clone();
        let mut changed = BTreeMap::new();
        for (path, new) in changes {
            overrides.insert(path.clone(), new);
            changed.insert(path, ());
        }
        let changed = dirs_of(changed.keys());
        let reuse = Reuse {
            earlier: Some((&self.dirs, &changed)),
            reference: self.reference,
            ..Reuse::default()
        };
        Ok(write_tree(repo, &self.index, &overrides, reuse)?.0)
    }
}

impl Snapshot {
    /// Whether the file at `path`, whose metadata is now `md`, provably still holds what this
    /// snapshot holds there, without reading it: its stamp is the one it had when the snapshot
    /// hashed it (or the one its index entry records, for a file taken from the index), and
    /// it was last changed before the capture began, so that any later change would have
    /// changed the stamp (git's racy-clean rule, on the file system's clock). `false` means
    /// "unsure", never "changed".
    pub fn proves_unchanged(&self, path: &BStr, md: &std::fs::Metadata) -> bool {
        let Some(started) = self.started else {
            return false;
        };
        let now = Stamp::of(md);
        let stamp = self.stamps.get(path).copied().or_else(|| {
            self.cache
                .as_ref()
                .and_then(|cache| cache.untracked_stamp(path))
        });
        if let Some(stamp) = stamp {
            return stamp == now && stamp.settled_before(started);
        }
        if self.overrides.contains_key(path) {
            return false;
        }
        let Some(entry) = self.index.entry_by_path(path) else {
            return false;
        };
        // Entries git does not compare with the working tree say nothing about the file.
        let unchecked = Flags::SKIP_WORKTREE | Flags::ASSUME_VALID | Flags::INTENT_TO_ADD;
        if base_entry(entry).is_none() || entry.flags.intersects(unchecked) {
            return false;
        }
        let recorded = Stamp::of_index(&entry.stat);
        now.matches_index(&recorded) && recorded.settled_before(started)
    }

    /// Write the stat cache this capture found, naming `holder` (the id and commit of the
    /// checkpoint recorded from it, when that holds exactly this snapshot's tree) as holding its
    /// objects. Call it once, after the checkpoint is recorded (or not at all).
    pub fn remember(&self, holder: Option<(&str, ObjectId)>) {
        let holder =
            holder.map(|(id, commit)| (format!("{}{id}", crate::format::REF_PREFIX), commit));
        let holder = holder
            .as_ref()
            .map(|(name, commit)| (name.as_str(), *commit));
        if let Some(cache) = &self.cache {
            cache.store(holder);
        }
        if let (Some(pending), Some(holder), Some(started)) = (&self.stand_in, holder, self.started)
        {
            let parts = standin::Parts {
                index: &self.index,
                overrides: &self.overrides,
                stamps: &self.stamps,
                started,
                dirs: &self.dirs,
                dirty: &self.changed,
            };
            standin::store(pending, &parts, holder);
        }
    }

    /// The tree this snapshot becomes when `writes` are written (replacing what is at their
    /// paths) and `deletions` removed: what the working tree holds after a restore.
    pub fn tree_after(
        &self,
        repo: &gix::Repository,
        writes: &[Leaf],
        deletions: &[BString],
    ) -> Result<ObjectId> {
        let deleted = deletions.iter().map(|path| (path.clone(), None));
        let written = writes
            .iter()
            .map(|leaf| (leaf.path.clone(), Some((leaf.kind, leaf.id))));
        self.derived_tree(repo, deleted.chain(written))
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
    until_taken(repo, index, options, ctl)
}

/// A plain directory's save (see [`crate::standin`]): against the stand-in index while what
/// it was made under stands, else against no index — every file untracked, as `index` (the
/// store's own, normally none) leaves them — making a new stand-in.
pub fn snapshot_plain(
    repo: &gix::Repository,
    index: &gix::worktree::Index,
    capture: &Capture,
    ctl: &Control<'_>,
) -> Result<Snapshot> {
    let options = Options {
        capture,
        stat_cache: true,
        stand_in: Some(standin::Mode::Fresh),
    };
    // Where file names ignore case, an index keeps the spelling it first saw: a directory
    // renamed only in case would keep its old name. Every save walks afresh there.
    let ignore_case = repo.filesystem_options().is_ok_and(|fs| fs.ignore_case);
    if ignore_case {
        let options = Options {
            stand_in: None,
            ..options
        };
        return until_taken(repo, index, options, ctl);
    }
    if let Some(loaded) = standin::load(repo) {
        let stand_in = Some(standin::Mode::Loaded(loaded.key));
        if let Some(snap) = take(
            repo,
            &loaded.index,
            Options {
                stand_in,
                ..options
            },
            false,
            ctl,
        )? {
            return Ok(snap);
        }
    }
    until_taken(repo, index, options, ctl)
}

/// [`take`] until it gives a snapshot: only a loaded stand-in gives up, and then the snapshot
/// is taken afresh.
fn until_taken(
    repo: &gix::Repository,
    index: &gix::worktree::Index,
    mut options: Options<'_>,
    ctl: &Control<'_>,
) -> Result<Snapshot> {
    let mut listings = true;
    loop {
        if let Some(snap) = take(repo, index, options, listings, ctl)? {
            return Ok(snap);
        }
        if options.stand_in.is_some() {
            options.stand_in = Some(standin::Mode::Fresh);
        }
        listings = false;
    }
}

/// The snapshot of [`snapshot`]; `None` when `options` name a loaded stand-in that no longer
/// stands (see [`standin::key`]), or when a file of a directory that was not walked
/// (`listings`: the stat cache's listing of it was used) is not as listed: then take it again,
/// walking everything.
fn take(
    repo: &gix::Repository,
    index: &gix::worktree::Index,
    options: Options<'_>,
    listings: bool,
    ctl: &Control<'_>,
) -> Result<Option<Snapshot>> {
    let workdir = repo.workdir().ok_or(Error::BareRepository)?.to_owned();
    let caps = repo
        .filesystem_options()
        .context(|| "cannot read core.fileMode / core.symlinks".into())?;
    let rules = Rules::new(options.capture, caps.ignore_case);
    // Before anything is looked at: a file changed after this has a later stamp.
    let moment = if options.stat_cache {
        statcache::moment(repo)
    } else {
        None
    };
    let started = moment.map(|(started, _)| started);
    // The index as a file: tracked directories' listings hold only for the same one.
    let index_id = options.stat_cache.then(|| index_key(index)).flatten();

    // 1. What changed, and what is untracked: git's status, in process.
    let mut found = Found::default();
    let dirwalk = repo
        .dirwalk_options()
        .context(|| "cannot configure the directory walk".into())?
        .emit_untracked(gix::dir::walk::EmissionMode::Matching)
        // With include patterns, ignored files and directories are listed (not entered) to
        // look for what the patterns capture.
        // So are they for a plain directory's stand-in, which must know every ignore file.
        .emit_ignored(
            (rules.includes_any() || options.stand_in.is_some())
                .then_some(gix::dir::walk::EmissionMode::CollapseDirectory),
        )
        .emit_pruned(false)
        .emit_empty_directories(false)
        .recurse_repositories(false);
    // Directories whose listing the stat cache keeps need not be walked, where the walk emits
    // each file as it is found (no collapsing, no respelling) and the directories' times are
    // kept by the file system; not with a sparse index (`.gitignore` files read from the
    // index).
    let (cache_tx, cache_rx) = std::sync::mpsc::sync_channel(1);
    let mut skipper = (listings
        && moment.is_some_and(|(_, dirs_kept)| dirs_kept)
        && options.stand_in.is_none()
        && !rules.includes_any()
        && !caps.ignore_case
        && !index.is_sparse()
        && !index
            .entries()
            .iter()
            .any(|e| e.flags.contains(Flags::SKIP_WORKTREE)))
    .then(|| Skipper {
        workdir: &workdir,
        key: walk_key(repo, &rules, &dirwalk),
        index: index_id,
        cache: cache_rx,
        read: None,
        looked: PathMap::default(),
        skipped: Vec::new(),
        entered: Vec::new(),
    });
    // While the working tree is walked, another thread reads the stat cache and looks at the
    // untracked files it names, which are most often the untracked files the walk finds.
    let (git_dir, hash) = (repo.git_dir().to_owned(), repo.object_hash());
    let (walked, prefetched) = std::thread::scope(|scope| {
        let prefetch = options.stat_cache.then(|| {
            let workdir = &workdir;
            scope.spawn(move || {
                let read = statcache::Read::of(&git_dir, hash).map(std::sync::Arc::new);
                // The walk waits for it at the first directory it could skip (or never, when
                // there is none: then this is dropped unread).
                let _ = cache_tx.send(read.clone());
                let read = read?;
                let looks = look_all(workdir, read.paths(), ctl.flag());
                Some((read, looks))
            })
        });
        // The status has no progress of its own here: say what is going on when it takes long.
        let walked = ctl.during("checking the working tree", index.entries().len(), || {
            // A file another process is writing may shrink between git's stat and its read
            // ("failed to fill whole buffer"): look again, as the next save would.
            let mut tries = 0;
            loop {
                if let Some(skipper) = skipper.as_mut() {
                    skipper.skipped.clear();
                    skipper.entered.clear();
                }
                let walk = Walk {
                    options: dirwalk,
                    skipper: skipper.as_mut(),
                };
                let result = status(repo, &workdir, index, &rules, walk, &mut found, ctl);
                match result {
                    Err(err) if read_short(&err) => {
                        if tries == STATUS_RETRIES {
                            break Err(still_changing(err));
                        }
                        tries += 1;
                        found.clear();
                        std::thread::sleep(std::time::Duration::from_millis(10 << tries));
                    }
                    result => break result,
                }
            }
        });
        (walked, prefetch.and_then(|h| h.join().ok().flatten()))
    });
    walked.map_err(|err| match ctl.check() {
        Err(cancelled) => cancelled,
        Ok(()) => err,
    })?;
    let (read, looks) = prefetched.unzip();
    let (walk_key, skipped_dirs, entered) = match skipper {
        Some(s) => (Some(s.key), s.skipped, s.entered),
        None => (None, Vec::new(), Vec::new()),
    };
    // The walk's handles on the cache (and the one it did not take from the channel) are gone
    // with the skipper.
    let read = read.and_then(|read| std::sync::Arc::try_unwrap(read).ok());

    // Looked up for every index entry: hashed as the stat cache hashes paths, not with SipHash
    // (20 M instructions at 100,000 files).
    let mut actions: HashMap<&BStr, Action, std::hash::BuildHasherDefault<statcache::PathHasher>> =
        HashMap::default();
    let mut untracked: Vec<(BString, DiskKind)> = Vec::new();
    // For the stand-in: ignore files that are themselves ignored (still read), and new stat
    // data of files found unchanged by content.
    let mut ignored_rule_files: Vec<BString> = Vec::new();
    let mut refreshed: PathMap<gix::index::entry::Stat> = PathMap::default();
    for (rela_path, status) in &found.modified {
        let action = match status {
            EntryStatus::Change(Change::Removed) => Action::Remove,
            EntryStatus::Change(
                Change::Type { .. }
                | Change::Modification { .. }
                | Change::SubmoduleModification(_),
            )
            | EntryStatus::IntentToAdd => Action::Rehash,
            EntryStatus::NeedsUpdate(stat) => {
                if options.stand_in.is_some() {
                    refreshed.insert((*rela_path).to_owned(), *stat);
                }
                continue;
            }
            // Conflicts are read from the index below.
            EntryStatus::Conflict { .. } => continue,
        };
        actions.insert(rela_path, action);
    }
    // Which of `untracked` come from a listing rather than the walk.
    let mut listed: Vec<bool> = Vec::new();
    let mut ranges = skipped_dirs
        .iter()
        .map(|(_, _, range)| range.clone())
        .peekable();
    // The walk's paths are moved, not copied: tens of thousands of them.
    for (at, entry) in std::mem::take(&mut found.walked).into_iter().enumerate() {
        while ranges.peek().is_some_and(|r| r.end <= at) {
            ranges.next();
        }
        match (entry.status, entry.disk_kind) {
            (DirStatus::Untracked, Some(kind)) => {
                untracked.push((entry.rela_path, kind));
                if !skipped_dirs.is_empty() {
                    listed.resize(untracked.len() - 1, false);
                    listed.push(ranges.peek().is_some_and(|r| r.contains(&at)));
                }
            }
            (DirStatus::Ignored(_), Some(DiskKind::File | DiskKind::Symlink))
                if standin::is_rule_file(entry.rela_path.as_bstr())
                    && !rules.included(entry.rela_path.as_bstr(), false) =>
            {
                ignored_rule_files.push(entry.rela_path);
            }
            // `checkpoint.include`: ignored, and captured anyway.
            (DirStatus::Ignored(_), Some(DiskKind::Directory)) if rules.includes_any() => {
                for path in rules.included_below(&workdir, entry.rela_path.as_bstr())? {
                    untracked.push((path, DiskKind::File));
                }
            }
            (DirStatus::Ignored(_), Some(kind @ (DiskKind::File | DiskKind::Symlink)))
                if rules.included(entry.rela_path.as_bstr(), false) =>
            {
                untracked.push((entry.rela_path, kind));
            }
            _ => {}
        }
    }

    // In path order (the walk's is the order directories list their entries in): the order of
    // the overrides they become and of the stat cache's files, which the next save's listings
    // give back, so that it finds them in order and has nothing to sort.
    if !untracked.is_sorted_by(|a, b| a.0 <= b.0) {
        listed.resize(untracked.len(), false);
        let mut both: Vec<_> = untracked.into_iter().zip(listed).collect();
        both.sort_by(|a, b| a.0.0.cmp(&b.0.0));
        (untracked, listed) = both.into_iter().unzip();
    }

    // A loaded stand-in stands only while what decided it is the same (see [`standin::key`]).
    let stand_in_key = options.stand_in.map(|mode| {
        let mut rule_files: Vec<&BStr> = ignored_rule_files.iter().map(|p| p.as_bstr()).collect();
        rule_files.extend(
            index
                .entries()
                .iter()
                .filter(|e| e.stage() == Stage::Unconflicted)
                .map(|e| e.path(index))
                .filter(|p| standin::is_rule_file(p)),
        );
        rule_files.extend(
            untracked
                .iter()
                .map(|(p, _)| p.as_bstr())
                .filter(|p| standin::is_rule_file(p)),
        );
        let key = standin::key(repo, options.capture, &workdir, rule_files, started);
        (mode, key)
    });
    if let Some((standin::Mode::Loaded(expected), key)) = stand_in_key
        && key != Some(expected)
    {
        return Ok(None);
    }

    // 2. Hash what must be hashed; everything else is the index.
    let mut hasher = Hasher {
        pipeline: None,
        repo,
        index,
        workdir: &workdir,
        trust_exec_bit: caps.executable_bit,
        has_symlinks: caps.symlink,
    };

    let cache = options.stat_cache.then(|| {
        StatCache::of_read(
            repo,
            read,
            hashing_digest(repo, index, &untracked),
            started,
            index_id,
        )
    });
    let mut pending = cache.as_ref().map(StatCache::pending);
    // A tracked file edited since it was staged is hashed at every save until it is staged
    // again: the stat cache remembers its blob as it does an untracked file's. Only where the
    // file system alone decides its mode (else the index's mode, which may change while the
    // file does not, goes into it).
    let tracked_in_cache = caps.executable_bit && caps.symlink;
    let loaded = matches!(options.stand_in, Some(standin::Mode::Loaded(_)));
    let mut overrides: BTreeMap<BString, Option<Blob>> = BTreeMap::new();
    let mut skipped = Vec::new();
    let mut stamps: PathMap<Stamp> = PathMap::default();
    // The stat cache this save leaves keeps the stamps of untracked files, in path order (see
    // `Snapshot::proves_unchanged`), except where the stand-in needs them by path or paths are
    // respelled.
    let stamps_in_cache = pending.is_some() && options.stand_in.is_none() && !caps.ignore_case;
    if !stamps_in_cache {
        stamps.reserve(untracked.len());
    }
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
        // A loaded stand-in holds nothing the same patterns exclude (they are in its key).
        if rules.excludes_any() && !loaded && rules.excluded(path, false) {
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
                    let mut stamp = None;
                    if (started.is_some() || options.stand_in.is_some())
                        && let Ok(md) = std::fs::symlink_metadata(worktree_path(&workdir, path)?)
                    {
                        let found = Stamp::of(&md);
                        stamp = Some(found);
                        stamps.insert(path.to_owned(), found);
                        // In a plain directory every file is untracked: the size guard holds
                        // for the files the stand-in names too.
                        if options.stand_in.is_some()
                            && md.is_file()
                            && md.len() > options.capture.max_file_size
                        {
                            skipped.push(Skipped {
                                path: path.to_string(),
                                reason: SKIP_TOO_LARGE.into(),
                                size: Some(md.len()),
                            });
                            if base.is_some() {
                                overrides.insert(path.to_owned(), None);
                            }
                            continue;
                        }
                    }
                    let stamp = stamp.filter(|_| tracked_in_cache);
                    let cached = stamp
                        .zip(cache.as_ref())
                        .and_then(|(stamp, cache)| usable(repo, cache.file_stamped(path, stamp)));
                    let found = match cached {
                        Some(found) => Some(found),
                        None => hasher.hash(path, Some(entry.mode))?,
                    };
                    if let (Some(stamp), Some((kind, id)), Some(pending)) =
                        (stamp, found, pending.as_mut())
                    {
                        pending.file(path, stamp, kind, id, cached.is_some());
                    }
                    found
                }
                None if entry.flags.contains(Flags::INTENT_TO_ADD) => hasher.hash(path, None)?,
                // git reads only the owner's execute bit, gix's status any of the three: an
                // executable that only its group or others may run now is a plain file to git.
                None if entry.mode == Mode::FILE_EXECUTABLE && hasher.trust_exec_bit => {
                    match std::fs::symlink_metadata(worktree_path(&workdir, path)?) {
                        Ok(md) if md.is_file() && !owner_may_execute(&md) => {
                            Some((EntryKind::Blob, entry.id))
                        }
                        _ => continue,
                    }
                }
                None => continue,
            }
        };
        if new != base {
            overrides.insert(path.to_owned(), new);
        }
    }

    let total = untracked.len();
    // Untracked entries a listing cannot hold (not a file or symlink of the snapshot).
    let mut others: Vec<BString> = Vec::new();
    if let Some(pending) = pending.as_mut() {
        pending.untracked_start();
    }
    // `core.ignoreCase`: new files go into the directories the index knows, in its spelling,
    // added in the order git adds them.
    let mut dir_case = caps.ignore_case.then(|| DirCase::new(index));
    let mut respelled = BTreeMap::new();
    let mut fold = |path: BString| match dir_case.as_mut() {
        Some(dir_case) => {
            let folded = dir_case.fold(path.clone());
            if folded != path {
                respelled.insert(folded.clone(), path);
            }
            folded
        }
        None => path,
    };
    // Untracked directories (no tracked file below them), to reuse the trees of those whose
    // files are all unchanged; not with `core.ignoreCase`, where paths are respelled.
    let mut tally = (!caps.ignore_case).then(|| Tally::new(index));
    // Each untracked entry, counted in the untracked directories above it (`Some(hit)`: a file
    // or symlink of the snapshot); anything else is also one no listing can hold.
    let mut count = |path: &BStr, found: Option<bool>| {
        if let Some(tally) = tally.as_mut() {
            tally.count(path, found);
        }
        if found.is_none() {
            others.push(path.to_owned());
        }
    };
    let mut added: Vec<(BString, Option<Blob>)> = Vec::with_capacity(untracked.len());
    // The stat of every untracked file and its stat-cache entry, on every core: the one cost a
    // save pays per untracked file when nothing changed.
    let probes = probe_all(
        &workdir,
        &untracked,
        cache.as_ref().zip(looks.as_ref()),
        ctl.flag(),
    );
    for (done, ((path, disk_kind), probe)) in
        untracked.into_iter().zip(probes.into_iter()).enumerate()
    {
        ctl.report("hashing untracked files", done + 1, total);
        ctl.check()?;
        match disk_kind {
            DiskKind::File | DiskKind::Symlink => {
                let probe = match probe {
                    Probe::Unprobed => probe_one(
                        &mut DirHandles::default(),
                        &workdir,
                        path.as_bstr(),
                        cache.as_ref(),
                    )?,
                    probe => probe,
                };
                // A file of a directory that was not walked must still be the file or
                // symlink listed: if not, the listing was wrong (a file system that did not
                // change the directory's times), and everything is walked again.
                if listed.get(done).copied().unwrap_or(false) {
                    let as_listed = match &probe {
                        Probe::Found { looked, .. } => {
                            looked.kind != LookedKind::Other
                                && (looked.kind == LookedKind::Symlink)
                                    == (disk_kind == DiskKind::Symlink)
                        }
                        _ => false,
                    };
                    if !as_listed {
                        return Ok(None);
                    }
                }
                let (Looked { stamp, len, kind }, cached) = match probe {
                    Probe::Found { looked, cached } => (looked, cached),
                    // Gone since the walk: nothing to save.
                    Probe::Gone | Probe::Unprobed => continue,
                    Probe::Failed(source) => {
                        return Err(Error::UnreadableFile {
                            path: path.to_string(),
                            source,
                        });
                    }
                };
                if kind == LookedKind::File && len > options.capture.max_file_size {
                    count(path.as_bstr(), None);
                    skipped.push(Skipped {
                        path: path.to_string(),
                        reason: SKIP_TOO_LARGE.into(),
                        size: Some(len),
                    });
                    continue;
                }
                let cached = usable(repo, cached);
                let found = match cached {
                    Some(found) => Some(found),
                    None => hasher.hash(path.as_bstr(), None)?,
                };
                count(path.as_bstr(), found.map(|_| cached.is_some()));
                if let Some((kind, id)) = found {
                    if let Some(pending) = pending.as_mut() {
                        pending.file(path.as_bstr(), stamp, kind, id, cached.is_some());
                    }
                    let path = fold(path);
                    if started.is_some() && !stamps_in_cache {
                        stamps.insert(path.clone(), stamp);
                    }
                    added.push((path, Some((kind, id))));
                }
            }
            DiskKind::Repository => {
                count(path.as_bstr(), None);
                match hasher.hash(path.as_bstr(), None)? {
                    Some(found) => added.push((fold(path), Some(found))),
                    None => skipped.push(Skipped {
                        path: path.to_string(),
                        reason: SKIP_EMBEDDED_NO_COMMIT.into(),
                        size: None,
                    }),
                }
            }
            DiskKind::Directory | DiskKind::Untrackable => {
                count(path.as_bstr(), None);
            }
        }
    }
    if let Some(tally) = tally.as_mut() {
        tally.finish();
    }
    // Files: the index's, adjusted by the overrides, and the untracked ones (which the index
    // does not hold, unless `core.ignoreCase` respelled one into a tracked path).
    let mut files = entries
        .iter()
        .filter(|e| base_entry(e).is_some_and(|(k, _)| k != EntryKind::Tree))
        .count() as i64;
    let is_file = |blob: Option<Blob>| blob.is_some_and(|(k, _)| k != EntryKind::Tree);
    let indexed_file = |path: &BStr| is_file(index.entry_by_path(path).and_then(base_entry));
    for (path, new) in &overrides {
        files += i64::from(is_file(*new)) - i64::from(indexed_file(path.as_bstr()));
    }
    if caps.ignore_case {
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
    // The untracked directories whose files are all as cached: their trees are reused.
    let known: PathMap<ObjectId> = match (&tally, &cache) {
        (Some(tally), Some(cache)) => tally.unchanged(cache),
        _ => PathMap::default(),
    };

    // Directories the overrides leave alone come from the index's cache-tree where it is
    // valid, else from the stat cache while the index is the same, else from HEAD's tree where
    // they are equal to it.
    let reference = repo.head_tree_id().ok().map(|id| id.detach());
    let index_trees = cache.as_ref().and_then(StatCache::index_trees);
    let (tree, dirs, changed) = write_tree(
        repo,
        index,
        &overrides,
        Reuse {
            earlier: None,
            known: Some(&known),
            index_trees,
            reference,
        },
    )?;
    // The index alone: every directory without an override (not in `changed`) is the same as
    // in `tree`.
    // (A plain directory's stand-in is no index: there is none to record.)
    let index_tree = if unmerged || options.stand_in.is_some() {
        None
    } else {
        let reuse = Reuse {
            earlier: Some((&dirs, &changed)),
            known: None,
            index_trees,
            reference,
        };
        let (id, index_dirs, _) = write_tree(repo, index, &BTreeMap::new(), reuse)?;
        if let Some(pending) = pending.as_mut() {
            for (dir, found) in index_dirs {
                if let Some(id) = found {
                    pending.index_tree(dir, id);
                }
            }
        }
        Some(id)
    };
    if let Some(pending) = pending.as_mut() {
        for (dir, found) in &dirs {
            if let Some(id) = found
                && !changed.contains(dir)
            {
                pending.index_tree(dir.clone(), *id);
            }
        }
        if let Some(tally) = &tally {
            for (dir, files) in tally.cacheable() {
                let found = known
                    .get(dir)
                    .copied()
                    .or_else(|| dirs.get(dir).copied().flatten());
                if let Some(id) = found {
                    pending.dir(dir.clone(), id, files);
                }
            }
        }
        if let (Some(key), Some(started), Some(cache)) = (walk_key, started, cache.as_ref()) {
            pending.walk_key(key);
            let seen = Seen {
                skipped: &skipped_dirs,
                entered: &entered,
                others: &others,
            };
            list_dirs(pending, &workdir, cache, started, &seen);
        }
    }
    // What the old cache said goes to the cache this save leaves, to be compared with it.
    let cache = match (cache, pending.as_mut()) {
        (Some(cache), Some(pending)) => Some(cache.hand_over(pending)),
        (cache, _) => cache,
    };
    // What is left of the old cache: tens of thousands of paths.
    drop_aside(cache);
    Ok(Some(Snapshot {
        tree,
        index_tree,
        files: files.max(0) as u64,
        skipped,
        index: index.clone(),
        overrides,
        dirs: std::sync::Arc::new(dirs),
        changed: std::sync::Arc::new(changed),
        reference,
        started,
        stamps: std::sync::Arc::new(stamps),
        cache: pending.map(std::sync::Arc::new),
        respelled,
        rules: std::sync::Arc::new(rules),
        stand_in: stand_in_key.map(|(mode, key)| {
            std::sync::Arc::new(standin::Pending {
                key,
                refreshed,
                owner: standin::owner(&workdir),
                git_dir: repo.git_dir().to_owned(),
                loaded: matches!(mode, standin::Mode::Loaded(_)),
            })
        }),
    }))
}

/// Drop `value` on a thread of its own: freeing the tens of thousands of paths a large save
/// holds takes milliseconds nobody need wait for (a process that exits first leaves it to the
/// system). Where no thread can start, it is dropped here.
fn drop_aside<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("drop".into())
        .spawn(move || drop(value));
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        drop_aside((
            std::mem::take(&mut self.overrides),
            std::mem::take(&mut self.stamps),
            std::mem::take(&mut self.dirs),
            std::mem::take(&mut self.changed),
            self.cache.take(),
        ));
    }
}

/// A stat-cache entry (see [`StatCache::file_stamped`]) as a save may use it: one whose holder
/// is gone only if its object is still there.
fn usable(repo: &gix::Repository, cached: Option<(EntryKind, ObjectId, bool)>) -> Option<Blob> {
    cached
        .filter(|(_, id, held)| *held || repo.has_object(id))
        .map(|(kind, id, _)| (kind, id))
}

/// What the file system says of one untracked file or symlink, and what the stat cache has
/// for it.
enum Probe {
    /// Not looked at (not a file, or left to the caller, which looks again and reports).
    Unprobed,
    /// Gone since the walk.
    Gone,
    /// Cannot be looked at.
    Failed(std::io::Error),
    Found {
        looked: Looked,
        /// The cached blob, if the stamp is unchanged, and whether it is known to exist.
        cached: Option<(EntryKind, ObjectId, bool)>,
    },
}

/// What a look (`lstat`) at a file found.
#[derive(Clone, Copy)]
struct Looked {
    stamp: Stamp,
    len: u64,
    kind: LookedKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LookedKind {
    File,
    Symlink,
    /// A directory, or anything else.
    Other,
}

/// Below this many files, one thread looks at them.
const PARALLEL_LOOKS: usize = 2048;

/// What [`in_parallel`] returns: the results of each run of items, in order, kept as the
/// threads left them (copying them into one list was a page fault per 4 KiB of results).
struct Parts<R> {
    parts: Vec<Vec<R>>,
    /// How many items each run held (the last may have held fewer).
    size: usize,
}

impl<R> Parts<R> {
    fn len(&self) -> usize {
        self.parts.iter().map(Vec::len).sum()
    }

    /// The result of the item at `at`.
    fn get(&self, at: usize) -> Option<&R> {
        self.parts
            .get(at / self.size.max(1))?
            .get(at % self.size.max(1))
    }

    fn into_iter(self) -> impl Iterator<Item = R> {
        self.parts.into_iter().flatten()
    }
}

/// How many items a thread of [`in_parallel`] takes at a time: small enough that a thread the
/// scheduler holds back leaves its share to the others, large enough that the files of a
/// directory mostly stay together.
const PARALLEL_RUN: usize = 1024;

/// `work` on each of `items` in order, on as many threads as there are cores, each taking the
/// next run of consecutive items until none is left.
fn in_parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&[T]) -> Vec<R> + Sync) -> Parts<R> {
    // Asked once: the answer reads the process's cgroup files.
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let threads =
        *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(8)));
    if threads < 2 || items.len() < PARALLEL_LOOKS {
        return Parts {
            parts: vec![work(items)],
            size: items.len(),
        };
    }
    let runs: Vec<&[T]> = items.chunks(PARALLEL_RUN).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (work, runs, next) = (&work, &runs, &next);
    let done: Option<Vec<(usize, Vec<R>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(run) = runs.get(at) else {
                            return done;
                        };
                        done.push((at, work(run)));
                    }
                })
            })
            .collect();
        let mut all = Vec::with_capacity(runs.len());
        for handle in handles {
            // The work does not panic; a thread that did would have to be looked at again
            // whole, which one without results cannot say: then nothing is returned, and the
            // caller, finding fewer results than items, looks at them itself.
            all.extend(handle.join().ok()?);
        }
        Some(all)
    });
    let mut done = done.unwrap_or_default();
    done.sort_unstable_by_key(|(at, _)| *at);
    Parts {
        parts: done.into_iter().map(|(_, part)| part).collect(),
        size: PARALLEL_RUN,
    }
}

/// Look at each of `paths` (the untracked files the stat cache names), in parallel. `None` for
/// a path that is not there or cannot be looked at, and for all once `cancel` is set.
fn look_all<'a>(
    workdir: &std::path::Path,
    paths: impl Iterator<Item = &'a BStr>,
    cancel: &std::sync::atomic::AtomicBool,
) -> Parts<Option<Looked>> {
    let paths: Vec<&BStr> = paths.collect();
    in_parallel(&paths, |chunk| {
        let mut dirs = DirHandles::default();
        chunk
            .iter()
            .map(|path| {
                if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                    return None;
                }
                match probe_one(&mut dirs, workdir, path, None).ok()? {
                    Probe::Found { looked, .. } => Some(looked),
                    _ => None,
                }
            })
            .collect()
    })
}

/// The [`Probe`] of each of `untracked` (in order), on as many threads as there are cores;
/// `cache` with what its files looked like during the walk (in its order), which is used for a
/// file that was a file then. A file a thread cannot name is left [`Probe::Unprobed`], as is
/// everything once `cancel` is set.
fn probe_all(
    workdir: &std::path::Path,
    untracked: &[(BString, DiskKind)],
    cache: Option<(&StatCache, &Parts<Option<Looked>>)>,
    cancel: &std::sync::atomic::AtomicBool,
) -> Parts<Probe> {
    let probes = in_parallel(untracked, |chunk| {
        let mut dirs = DirHandles::default();
        // Both `untracked` and the cache's files are in path order: most often the file sought
        // is the one after the last one found, which is cheaper to compare than to look up.
        let mut next = None;
        chunk
            .iter()
            .map(|(path, kind)| {
                if !matches!(kind, DiskKind::File | DiskKind::Symlink)
                    || cancel.load(std::sync::atomic::Ordering::Relaxed)
                {
                    return Probe::Unprobed;
                }
                let path = path.as_bstr();
                if let Some((cache, looks)) = cache {
                    let at = next
                        .filter(|&at| cache.path_at(at) == Some(path))
                        .or_else(|| cache.position(path));
                    next = at.map(|at| at + 1);
                    if let Some(at) = at
                        && let Some(Some(looked)) = looks.get(at)
                        && looked.kind != LookedKind::Other
                    {
                        return Probe::Found {
                            looked: *looked,
                            cached: cache.file_at(at, looked.stamp),
                        };
                    }
                }
                probe_one(&mut dirs, workdir, path, cache.map(|(c, _)| c))
                    .unwrap_or(Probe::Unprobed)
            })
            .collect()
    });
    if probes.len() == untracked.len() {
        probes
    } else {
        Parts {
            parts: vec![untracked.iter().map(|_| Probe::Unprobed).collect()],
            size: untracked.len(),
        }
    }
}

/// The [`Probe`] of the untracked file or symlink `path`: looked at in its open directory when
/// `dirs` can, else by its path; with what `cache` has for it.
fn probe_one(
    dirs: &mut DirHandles,
    workdir: &std::path::Path,
    path: &BStr,
    cache: Option<&StatCache>,
) -> Result<Probe> {
    let probe = match dirs.look(workdir, path) {
        Some(probe) => probe,
        None => look_one(workdir, path)?,
    };
    Ok(match probe {
        Probe::Found { looked, .. } => Probe::Found {
            looked,
            cached: cache.and_then(|c| c.file_stamped(path, looked.stamp)),
        },
        probe => probe,
    })
}

/// Files looked at by name in their open directory (`statx` on Linux): the walk lists a
/// directory's files together, and the kernel then resolves one name rather than the whole path
/// for each (the cost of the path's lookup was most of a stat).
#[derive(Default)]
struct DirHandles {
    #[cfg(target_os = "linux")]
    open: Option<(BString, Option<std::os::fd::OwnedFd>)>,
}

impl DirHandles {
    /// The [`Probe`] of `path` (without the cache), or `None` to look the usual way (its
    /// directory cannot be opened, or not on this system).
    #[cfg(target_os = "linux")]
    fn look(&mut self, workdir: &std::path::Path, path: &BStr) -> Option<Probe> {
        use rustix::fs::{AtFlags, FileType, Mode, OFlags, StatxFlags};
        let (dir, name) = match path.rfind_byte(b'/') {
            Some(slash) => (&path[..slash], &path[slash + 1..]),
            None => (&path[..0], path),
        };
        if self.open.as_ref().is_none_or(|(open, _)| open != dir) {
            let fd = worktree_path(workdir, dir.as_bstr())
                .ok()
                .and_then(|fs_dir| {
                    let flags =
                        OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                    rustix::fs::open(&fs_dir, flags, Mode::empty()).ok()
                });
            self.open = Some((dir.to_owned(), fd));
        }
        let fd = self.open.as_ref()?.1.as_ref()?;
        let name = gix::path::from_bstr(name.as_bstr()).ok()?;
        let st = match rustix::fs::statx(
            fd,
            name.as_ref(),
            AtFlags::SYMLINK_NOFOLLOW,
            StatxFlags::BASIC_STATS,
        ) {
            Ok(st) => st,
            Err(rustix::io::Errno::NOENT) => return Some(Probe::Gone),
            // Anything else (no statx here, a name too long...): the usual way says why.
            Err(_) => return None,
        };
        let kind = match FileType::from_raw_mode(st.stx_mode.into()) {
            FileType::RegularFile => LookedKind::File,
            FileType::Symlink => LookedKind::Symlink,
            _ => LookedKind::Other,
        };
        Some(Probe::Found {
            looked: Looked {
                stamp: Stamp::of_statx(&st),
                len: st.stx_size,
                kind,
            },
            cached: None,
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn look(&mut self, _: &std::path::Path, _: &BStr) -> Option<Probe> {
        None
    }
}

/// The [`Probe`] of the untracked file or symlink `path` (without the cache), by its path.
fn look_one(workdir: &std::path::Path, path: &BStr) -> Result<Probe> {
    let md = match std::fs::symlink_metadata(worktree_path(workdir, path)?) {
        Ok(md) => md,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Probe::Gone),
        Err(err) => return Ok(Probe::Failed(err)),
    };
    let kind = if md.is_file() {
        LookedKind::File
    } else if md.is_symlink() {
        LookedKind::Symlink
    } else {
        LookedKind::Other
    };
    Ok(Probe::Found {
        looked: Looked {
            stamp: Stamp::of(&md),
            len: md.len(),
            kind,
        },
        cached: None,
    })
}

/// How many times the status is computed again when a file changed size while it was read.
const STATUS_RETRIES: u32 = 3;

/// Whether `err` comes from a file that was shorter when read than when looked at: one that
/// another process was writing at that moment.
///
/// gix may keep only the message of the I/O error, so that is compared too: the one
/// `read_exact` gives at the end of a file.
fn read_short(err: &Error) -> bool {
    let mut empty: &[u8] = &[];
    let eof = std::io::Read::read_exact(&mut empty, &mut [0u8])
        .err()
        .map(|e| e.to_string());
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = source {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::UnexpectedEof)
            || eof
                .as_deref()
                .is_some_and(|eof| e.to_string().ends_with(eof))
        {
            return true;
        }
        source = e.source();
    }
    false
}

/// The error of a status that kept finding files that changed as they were read: what that
/// means, and what to do.
fn still_changing(err: Error) -> Error {
    Error::Git {
        context: format!(
            "cannot take the snapshot: a file kept changing while it was read, {} times \
             (another program is writing to it); save again once it is done",
            STATUS_RETRIES + 1
        ),
        source: Box::new(err),
    }
}

/// What git's status finds, in process: the index entries whose files differ from them
/// (or may: [`EntryStatus::NeedsUpdate`]) and what the walk of the working tree emits. The walk
/// and the comparison of the index with the files run side by side, each collecting into its
/// own list: no entry crosses between threads one by one (gix's combined status sends each
/// through a channel to a third thread, a wake-up per untracked file).
#[derive(Default)]
struct Found<'index> {
    modified: Vec<(&'index BStr, EntryStatus<(), ()>)>,
    walked: Vec<gix::dir::Entry>,
}

impl Found<'_> {
    fn clear(&mut self) {
        self.modified.clear();
        self.walked.clear();
    }
}

/// Collects the index entries that differ from their files.
struct Modified<'a, 'index>(&'a mut Vec<(&'index BStr, EntryStatus<(), ()>)>);

impl<'index> gix::status::plumbing::index_as_worktree::VisitEntry<'index> for Modified<'_, 'index> {
    type ContentChange = ();
    type SubmoduleStatus = ();

    fn visit_entry(
        &mut self,
        _entries: &'index [gix::index::Entry],
        _entry: &'index gix::index::Entry,
        _entry_index: usize,
        rela_path: &'index BStr,
        status: EntryStatus<(), ()>,
    ) {
        self.0.push((rela_path, status));
    }
}

/// Collects what the directory walk emits, as git's status sees it; with a [`Skipper`], the
/// untracked files of the directories it skips instead of what is below those directories.
struct Walked<'a, 's> {
    entries: &'a mut Vec<gix::dir::Entry>,
    interrupt: &'a std::sync::atomic::AtomicBool,
    skipper: Option<&'a mut Skipper<'s>>,
}

impl gix::dir::walk::Delegate for Walked<'_, '_> {
    fn emit(
        &mut self,
        entry: gix::dir::EntryRef<'_>,
        _collapsed_directory_status: Option<DirStatus>,
    ) -> gix::dir::walk::Action {
        // A skipped directory is emitted right after it was declined: its files stand for it.
        let skipped = entry.disk_kind == Some(DiskKind::Directory)
            && self.skipper.as_ref().is_some_and(|s| {
                s.skipped
                    .last()
                    .is_some_and(|(dir, _, _)| dir.as_bstr() == entry.rela_path.as_ref())
            });
        // As git's status: entries of a kind git cannot track are not shown.
        if entry.disk_kind != Some(DiskKind::Untrackable) && !skipped {
            self.entries.push(entry.to_owned());
        }
        if self.interrupt.load(std::sync::atomic::Ordering::Relaxed) {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    }

    fn can_recurse(
        &mut self,
        entry: gix::dir::EntryRef<'_>,
        for_deletion: Option<gix::dir::walk::ForDeletionMode>,
        worktree_root_is_repository: bool,
    ) -> bool {
        let can = entry.status.can_recurse(
            entry.disk_kind,
            entry.pathspec_match,
            for_deletion,
            worktree_root_is_repository,
        );
        let tracked = match entry.status {
            DirStatus::Untracked => false,
            DirStatus::Tracked => true,
            _ => return can,
        };
        // The top of the working tree is always walked (the walk asks about it too).
        if !can || entry.disk_kind != Some(DiskKind::Directory) || entry.rela_path.is_empty() {
            return can;
        }
        if let Some(skipper) = self.skipper.as_mut() {
            if skipper.skip(entry.rela_path.as_ref(), tracked, self.entries) {
                return false;
            }
            skipper
                .entered
                .push((entry.rela_path.clone().into_owned(), tracked));
        }
        true
    }
}

/// What a save's walk needs to skip the directories the stat cache lists (see
/// [`statcache::Listing`]), and what it found: the directories it skipped (with where their
/// files went among the walk's entries) and the directories it entered.
struct Skipper<'a> {
    workdir: &'a std::path::Path,
    /// The [`walk_key`] of this save.
    key: u64,
    /// The index's [`index_key`]: tracked directories are skipped only while it is the same.
    index: Option<ObjectId>,
    /// The stat cache, as another thread reads it.
    cache: std::sync::mpsc::Receiver<Option<std::sync::Arc<statcache::Read>>>,
    read: Option<Option<std::sync::Arc<statcache::Read>>>,
    /// What was found at each path looked at (a listing that fails is followed by those of
    /// the directories inside it, which name the same directories and ignore files).
    looked: PathMap<std::result::Result<Option<Stamp>, ()>>,
    /// The directories skipped: each, whether it is tracked, and where its untracked files
    /// are among the walk's entries.
    skipped: Vec<Skip>,
    /// The directories entered, in the walk's order, and whether each is tracked.
    entered: Vec<(BString, bool)>,
}

/// A directory the walk skipped, whether it is tracked, and where its untracked files are among
/// the walk's entries.
type Skip = (BString, bool, std::ops::Range<usize>);

impl Skipper<'_> {
    /// Whether the directory `dir` (`tracked`: with tracked files below it) is as its listing
    /// says: if so, its untracked files are appended to `out` as the walk would have emitted
    /// them.
    fn skip(&mut self, dir: &BStr, tracked: bool, out: &mut Vec<gix::dir::Entry>) -> bool {
        let read = match &self.read {
            Some(read) => read.clone(),
            None => {
                let read = self.cache.recv().ok().flatten();
                self.read = Some(read.clone());
                read
            }
        };
        let Some(read) = read else {
            return false;
        };
        let Some(listing) = read.listing(dir, self.key) else {
            return false;
        };
        // Which files below a tracked directory are untracked is the index's to say.
        if listing.tracked != tracked
            || (tracked && (self.index.is_none() || read.index() != self.index))
        {
            return false;
        }
        for above in statcache::above(dir) {
            let Some(cached) = read.ignore_stamp(above) else {
                return false;
            };
            if self.look(ignore_file(above).as_bstr()) != Ok(cached) {
                return false;
            }
        }
        for (sub, (stamp, ignore)) in &listing.dirs {
            // A `.gitignore` that was not there cannot appear without changing the stamp of
            // its directory: only one that was is looked at again.
            if !crate::treediff::is_at_or_below(sub.as_bstr(), dir)
                || self.look(sub.as_bstr()) != Ok(Some(*stamp))
                || (ignore.is_some()
                    && self.look(ignore_file(sub.as_bstr()).as_bstr()) != Ok(*ignore))
            {
                return false;
            }
        }
        let Some(files) = read.listed_files(dir, listing) else {
            return false;
        };
        let start = out.len();
        out.extend(files.into_iter().map(|(path, link)| gix::dir::Entry {
            rela_path: path.to_owned(),
            status: DirStatus::Untracked,
            property: None,
            disk_kind: Some(if link {
                DiskKind::Symlink
            } else {
                DiskKind::File
            }),
            index_kind: None,
            pathspec_match: Some(gix::dir::entry::PathspecMatch::Always),
        }));
        self.skipped
            .push((dir.to_owned(), tracked, start..out.len()));
        true
    }

    /// [`stamp_at`], once per path.
    fn look(&mut self, rela: &BStr) -> std::result::Result<Option<Stamp>, ()> {
        if let Some(found) = self.looked.get(rela) {
            return *found;
        }
        let found = stamp_at(self.workdir, rela);
        self.looked.insert(rela.to_owned(), found);
        found
    }
}

/// The `.gitignore` of the directory `dir` (`""`: the top of the working tree).
fn ignore_file(dir: &BStr) -> BString {
    let mut path = BString::from(dir);
    if !path.is_empty() {
        path.push(b'/');
    }
    path.extend_from_slice(b".gitignore");
    path
}

/// The stamp of what is at `rela` in the working tree, `None` if nothing is; `Err` if it
/// cannot be looked at.
fn stamp_at(workdir: &std::path::Path, rela: &BStr) -> std::result::Result<Option<Stamp>, ()> {
    let path = if rela.is_empty() {
        workdir.to_owned()
    } else {
        worktree_path(workdir, rela).map_err(drop)?
    };
    match std::fs::symlink_metadata(path) {
        Ok(md) => Ok(Some(Stamp::of(&md))),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(_) => Err(()),
    }
}

/// The stamp of the file at `path`, as bytes for a fingerprint (none when it is not there).
fn stamp_bytes(path: &std::path::Path) -> Vec<u8> {
    std::fs::symlink_metadata(path)
        .map(|md| format!("{:?}", Stamp::of(&md)).into_bytes())
        .unwrap_or_default()
}

/// What decides the listings of directories besides the directories themselves: the
/// settings (`core.*`, among them `core.excludesFile` and `core.ignoreCase`), the walk's
/// options, `checkpoint.exclude`, and the ignore files outside the working tree
/// (`info/exclude`, the global excludes file).
fn walk_key(repo: &gix::Repository, rules: &Rules, dirwalk: &gix::dirwalk::Options) -> u64 {
    let mut parts: Vec<Vec<u8>> = vec![repo.object_hash().to_string().into_bytes()];
    parts.extend(statcache::hashing_settings(repo));
    parts.push(format!("{dirwalk:?}").into_bytes());
    parts.push(format!("{:?}", rules.walk_overrides()).into_bytes());
    parts.push(stamp_bytes(&repo.git_dir().join("info").join("exclude")));
    parts.push(stamp_bytes(&repo.common_dir().join("info").join("exclude")));
    match repo.config_snapshot().trusted_path("core.excludesFile") {
        Ok(Some(path)) => parts.push(stamp_bytes(&path)),
        Ok(None) => parts.push(Vec::new()),
        // Unreadable: a key no save can match.
        Err(_) => parts.push(std::process::id().to_string().into_bytes()),
    }
    if let Some(home) = statcache::git_config_home() {
        parts.push(stamp_bytes(&home.join("ignore")));
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    statcache::digest(&refs)
}

/// What one walk saw, for the listings it leaves: the directories it skipped, those it entered,
/// and the untracked entries no listing can hold (anything but a file or symlink of the
/// snapshot).
struct Seen<'a> {
    skipped: &'a [Skip],
    entered: &'a [(BString, bool)],
    others: &'a [BString],
}

/// Keep, in `pending`, the listings of the directories that have nothing below them a listing
/// cannot hold: the stamps of each and of every directory the walk entered below it, and the
/// `.gitignore` stamps of the directories above it, all settled before `started` (the racy
/// rule, as for files). Directories inside listed ones are listed too, so that when a change
/// deep inside makes the outer listing fail, the walk that enters it can still skip the
/// directories beside the change. A directory that was skipped keeps its listing and those
/// below it (every stamp in them was found the same).
fn list_dirs(
    pending: &mut statcache::Pending,
    workdir: &std::path::Path,
    cache: &StatCache,
    started: Moment,
    seen: &Seen<'_>,
) {
    let settled = |stamp: Option<Stamp>| stamp.is_none_or(|s| s.settled_before(started));
    let mut blocked: PathMap<()> = PathMap::default();
    for path in seen.others {
        for dir in statcache::above(path.as_bstr()).skip(1) {
            blocked.insert(dir.to_owned(), ());
        }
        // A directory or repository itself.
        blocked.insert(path.clone(), ());
    }
    // The `.gitignore` stamps of the directories above listed ones (`None`: unusable), each
    // looked at once; kept in `pending` at the end.
    let mut ignores: PathMap<Option<Option<Stamp>>> = PathMap::default();
    let mut above_settled = |dir: &BStr| {
        statcache::above(dir).all(|a| match ignores.get(a) {
            Some(found) => found.is_some(),
            None => {
                let found = stamp_at(workdir, ignore_file(a).as_bstr())
                    .ok()
                    .filter(|s| settled(*s));
                ignores.insert(a.to_owned(), found);
                found.is_some()
            }
        })
    };
    // Skipped directories: their listings, and those below them, hold as they were.
    let skipped: std::collections::BTreeSet<&BStr> =
        seen.skipped.iter().map(|(d, _, _)| d.as_bstr()).collect();
    for (dir, listing) in cache.old_listings() {
        let kept =
            skipped.contains(dir) || statcache::above(dir).skip(1).any(|a| skipped.contains(a));
        if kept && !blocked.contains_key(dir) && above_settled(dir) {
            pending.listing(dir.to_owned(), listing.tracked, listing.dirs.clone());
        }
    }
    // The stamps of each directory entered and of its `.gitignore`, looked at once.
    let mut dir_stamps: Vec<Option<statcache::DirStamps>> = Vec::with_capacity(seen.entered.len());
    for (d, _) in seen.entered {
        let found = (|| {
            let stamp = stamp_at(workdir, d.as_bstr()).ok().flatten()?;
            let ignore = stamp_at(workdir, ignore_file(d.as_bstr()).as_bstr()).ok()?;
            (settled(Some(stamp)) && settled(ignore)).then_some((stamp, ignore))
        })();
        dir_stamps.push(found);
    }
    for (first, (dir, tracked)) in seen.entered.iter().enumerate() {
        let dir = dir.as_bstr();
        if blocked.contains_key(dir) {
            continue;
        }
        if !above_settled(dir) {
            continue;
        }
        let stamps: Option<Vec<statcache::ListedDir>> = seen.entered[first..]
            .iter()
            .zip(&dir_stamps[first..])
            .take_while(|((d, _), _)| crate::treediff::is_at_or_below(d.as_bstr(), dir))
            .map(|((d, _), found)| found.map(|found| (d.clone(), found)))
            .collect();
        let Some(mut stamps) = stamps else {
            continue;
        };
        // Directories skipped below it: their stamps were found as listed.
        let mut prefix = BString::from(dir);
        prefix.push(b'/');
        let mut end = BString::from(dir);
        end.push(b'/' + 1);
        let below = skipped
            .range::<BStr, _>((
                std::ops::Bound::Included(prefix.as_bstr()),
                std::ops::Bound::Excluded(end.as_bstr()),
            ))
            .map(|d| cache.old_listing(d).map(|l| l.dirs.clone()))
            .collect::<Option<Vec<_>>>();
        let Some(below) = below else {
            continue;
        };
        stamps.extend(below.into_iter().flatten());
        pending.listing(dir.to_owned(), *tracked, stamps);
    }
    for (dir, found) in ignores {
        if let Some(stamp) = found {
            pending.ignore(dir, stamp);
        }
    }
}

/// How the working tree is walked: gix's options, and the directories to skip.
struct Walk<'a, 's> {
    options: gix::dirwalk::Options,
    skipper: Option<&'a mut Skipper<'s>>,
}

/// git's status of the working tree against `index` (as `Repository::index_worktree_status`
/// computes it), with `rules`' exclude patterns overriding every other ignore rule in the
/// directory walk, so that an excluded directory is not even entered.
fn status<'index>(
    repo: &gix::Repository,
    workdir: &std::path::Path,
    index: &'index gix::index::State,
    rules: &Rules,
    walk: Walk<'_, '_>,
    found: &mut Found<'index>,
    ctl: &Control<'_>,
) -> Result<()> {
    let Walk {
        options: dirwalk,
        skipper,
    } = walk;
    use gix::worktree::stack::state::{attributes, ignore};
    let git = |context: &'static str| {
        move |err: Box<dyn std::error::Error + Send + Sync>| Error::Git {
            context: context.into(),
            source: err,
        }
    };
    // The walk needs the ignore rules only; the comparison of the index with the files needs
    // the attributes only (for the clean filters of files it must hash).
    let mut excludes = repo
        .excludes(
            index,
            rules.walk_overrides(),
            ignore::Source::WorktreeThenIdMappingIfNotSkipped,
        )
        .map_err(|e| git("cannot read the ignore rules")(e.into()))?
        .detach();
    let attributes = repo
        .attributes_only(index, attributes::Source::WorktreeThenIdMapping)
        .map_err(|e| git("cannot read the attributes")(e.into()))?
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
        attributes,
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
    let interrupt = ctl.flag();
    let Found { modified, walked } = found;
    let mut walk_pathspec = pathspec.clone();
    std::thread::scope(|scope| -> Result<()> {
        let walk = std::thread::Builder::new()
            .name("walk".into())
            .spawn_scoped(scope, {
                let objects = objects.clone();
                let pathspec = &mut walk_pathspec;
                let excludes = &mut excludes;
                let (git_dir_realpath, icase) = (git_dir_realpath.as_path(), icase.as_ref());
                move || {
                    // No pathspec here has attributes: this is never asked.
                    let mut no_attributes = |_: &BStr, _, _, _: &mut _| false;
                    gix::dir::walk(
                        workdir,
                        gix::dir::walk::Context {
                            should_interrupt: Some(interrupt),
                            git_dir_realpath,
                            current_dir: cwd,
                            index,
                            ignore_case_index_lookup: icase,
                            pathspec,
                            pathspec_attributes: &mut no_attributes,
                            excludes: Some(excludes),
                            objects: &objects,
                            explicit_traversal_root: Some(workdir),
                        },
                        dirwalk.into(),
                        &mut Walked {
                            entries: walked,
                            interrupt,
                            skipper,
                        },
                    )
                    .map(drop)
                    .map_err(|e| git("cannot walk the working tree")(e.into()))
                }
            })
            .map_err(|e| git("cannot start the directory walk")(e.into()))?;
        let compared = gix::status::plumbing::index_as_worktree(
            index,
            workdir,
            &mut Modified(modified),
            gix::status::plumbing::index_as_worktree::traits::FastEq,
            NoSubmoduleStatus,
            objects,
            &mut gix::progress::Discard,
            gix::status::plumbing::index_as_worktree::Context {
                pathspec,
                stack: resource_cache.attr_stack,
                filter: resource_cache.filter.worktree_filter,
                should_interrupt: interrupt,
            },
            gix::status::plumbing::index_as_worktree::Options {
                fs,
                thread_limit: None,
                stat,
                fscache,
            },
        )
        .map(drop)
        .map_err(|e| git("cannot compute the status of the working tree")(e.into()));
        let walked = walk.join().unwrap_or_else(|_| {
            Err(Error::Git {
                context: "cannot walk the working tree".into(),
                source: "the directory walk stopped unexpectedly".into(),
            })
        });
        compared.and(walked)
    })
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
    parts.extend(statcache::hashing_settings(repo));
    let config = repo.config_snapshot();
    for entry in index.entries() {
        let path = entry.path(index);
        if path.ends_with(b".gitattributes") {
            parts.push(path.to_vec());
            parts.push(entry.id.as_bytes().to_vec());
            // git reads the working tree's copy: an edit not yet staged counts too.
            if let Some(workdir) = repo.workdir()
                && let Ok(fs_path) = worktree_path(workdir, path)
            {
                parts.push(stamp_bytes(&fs_path));
            }
        }
    }
    if let Some(workdir) = repo.workdir() {
        for (path, _) in untracked {
            if path.ends_with(b".gitattributes")
                && let Ok(fs_path) = worktree_path(workdir, path.as_bstr())
            {
                parts.push(path.to_vec());
                parts.push(stamp_bytes(&fs_path));
            }
        }
    }
    parts.push(stamp_bytes(
        &repo.common_dir().join("info").join("attributes"),
    ));
    if let Some(global) = config.string("core.attributesFile") {
        parts.push(stamp_bytes(std::path::Path::new(
            &global.to_str_lossy().into_owned(),
        )));
    }
    if let Some(home) = statcache::git_config_home() {
        parts.push(stamp_bytes(&home.join("attributes")));
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    crate::statcache::digest(&refs)
}

/// What identifies the index's content for the stat cache: its trailing checksum (none when
/// git skipped it, `index.skipHash`) together with the index file's stamp, so that a writer
/// that left a stale checksum (git does not verify it on reading) cannot pass a changed index
/// for a cached one.
fn index_key(index: &gix::worktree::Index) -> Option<ObjectId> {
    let checksum = index.checksum()?;
    let md = std::fs::symlink_metadata(index.path()).ok()?;
    let key = format!("{checksum} {:?}", Stamp::of(&md));
    gix::objs::compute_hash(checksum.kind(), gix::objs::Kind::Blob, key.as_bytes()).ok()
}

/// The tree of each directory of a tree that [`write_tree`] wrote (`None`: the directory is
/// empty there, so left out), by path (`""`: the root).
pub(crate) type DirTrees = HashMap<BString, Option<ObjectId>>;

/// What a tree build may take instead of building and hashing a directory.
#[derive(Clone, Copy, Default)]
struct Reuse<'a> {
    /// The directories of an earlier build of the same index, and the directories whose
    /// content may differ from it (those holding a path whose override differs).
    earlier: Option<(&'a DirTrees, &'a HashSet<BString>)>,
    /// Untracked directories whose files are all as the stat cache has them: their trees.
    known: Option<&'a PathMap<ObjectId>>,
    /// The trees of the index's directories, cached for this very index, and whether they are
    /// known to exist (else each is looked up first).
    index_trees: Option<(&'a PathMap<ObjectId>, bool)>,
    /// A tree to compare with (`HEAD`'s): a directory that comes out equal to its counterpart
    /// there takes that id, unhashed and unwritten.
    reference: Option<ObjectId>,
}

/// The directories that hold `paths` (`""` included when there is any), for sorted `paths`.
fn dirs_of<'a>(paths: impl Iterator<Item = &'a BString>) -> HashSet<BString> {
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
fn write_tree(
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
struct Tally<'a> {
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
    fn new(index: &'a gix::index::State) -> Tally<'a> {
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
    fn count(&mut self, path: &BStr, found: Option<bool>) {
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
    fn finish(&mut self) {
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

/// The id `git add` records for a gitlink to `commit` in a repository of object format
/// `hash`. An embedded repository of the other format (a SHA-256 one inside a SHA-1 one, or the
/// reverse) has a `HEAD` of the other length: git cuts it to the outer format's length, or pads
/// it with zeros, and so does a save, so that every tree it writes is one git can parse (a tree
/// holding an id of the wrong length cannot be read, and makes `git gc` fail).
pub(crate) fn gitlink_like_git(commit: ObjectId, hash: gix::hash::Kind) -> ObjectId {
    if commit.kind() == hash {
        return commit;
    }
    let mut id = ObjectId::null(hash);
    let n = id.as_slice().len().min(commit.as_slice().len());
    id.as_mut_slice()[..n].copy_from_slice(&commit.as_slice()[..n]);
    id
}

/// Whether git records the file of `md` as executable: its owner may execute it (`S_IXUSR`).
#[cfg(unix)]
fn owner_may_execute(md: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    md.permissions().mode() & 0o100 != 0
}

#[cfg(not(unix))]
fn owner_may_execute(_: &std::fs::Metadata) -> bool {
    false
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
    /// Set up at the first file that must be hashed: reading every attributes file the
    /// index names costs as much as a save with nothing to hash (12 M instructions at 100,000
    /// files).
    pipeline: Option<gix::filter::Pipeline<'repo>>,
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
        let pipeline = match &mut self.pipeline {
            Some(pipeline) => pipeline,
            None => self.pipeline.insert(
                self.repo
                    .filter_pipeline(None)
                    .context(|| "cannot set up the clean filters".into())?
                    .0,
            ),
        };
        let found =
            match crate::repo::retry_write(|| pipeline.worktree_file_to_object(path, self.index)) {
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
        let (kind, id) = match kind {
            EntryKind::Commit => (kind, gitlink_like_git(id, self.repo.object_hash())),
            // gix calls a file executable when anyone may execute it; git when its owner may
            // (`S_IXUSR`), which a file of mode 0655 or 0611 is not.
            EntryKind::BlobExecutable if self.trust_exec_bit => {
                let md = std::fs::symlink_metadata(worktree_path(self.workdir, path)?);
                match md {
                    Ok(md) if md.is_file() && !owner_may_execute(&md) => (EntryKind::Blob, id),
                    _ => (kind, id),
                }
            }
            _ => (kind, id),
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
        crate::gitcli::head_of(&dir).map(|id| {
            (
                EntryKind::Commit,
                gitlink_like_git(id, self.repo.object_hash()),
            )
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

    #[test]
    fn a_file_read_short_is_told_from_other_errors() -> TestResult {
        let git_error = |source: Box<dyn std::error::Error + Send + Sync>| Error::Git {
            context: "cannot compute the status of the working tree".into(),
            source,
        };
        let mut empty: &[u8] = &[];
        let eof = std::io::Read::read_exact(&mut empty, &mut [0u8])
            .err()
            .ok_or("reading a byte from nothing succeeded")?;
        // As the I/O error itself, or only as its message (all gix may keep of it).
        let message = eof.to_string();
        assert!(read_short(&git_error(Box::new(eof))));
        assert!(read_short(&git_error(message.clone().into())));
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert!(!read_short(&git_error(Box::new(denied))));
        assert!(!read_short(&git_error("index file corrupt".into())));
        // After the last try, one line that says what happened and what to do.
        let told = still_changing(git_error(message.clone().into())).to_string();
        assert!(
            told.starts_with("cannot take the snapshot: a file kept changing"),
            "{told}"
        );
        assert!(told.contains("save again once it is done"), "{told}");
        assert!(!told.contains('\n'), "{told}");
        Ok(())
    }

    fn git(dir: &std::path::Path, args: &[&str]) -> TestResult {
        let status = std::process::Command::new("git")
            .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .status()?;
        assert!(status.success(), "git {args:?}");
        Ok(())
    }

    #[test]
    fn a_stamp_proves_a_file_unchanged_only_when_it_settled_before_the_capture() -> TestResult {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        git(root, &["init", "-q"])?;
        std::fs::write(root.join("tracked"), "t\n")?;
        std::fs::write(root.join("edited"), "e\n")?;
        git(root, &["add", "tracked", "edited"])?;
        std::fs::write(root.join("edited"), "E\n")?;
        std::fs::write(root.join("untracked"), "u\n")?;
        // Everything above is in an earlier second than the capture.
        std::thread::sleep(std::time::Duration::from_millis(1100));
        git(root, &["update-index", "-q", "--refresh"])?;
        // Early in a second, so that the capture begins in the same second as this write.
        while std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)?
            .subsec_millis()
            > 300
        {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::fs::write(root.join("racy"), "r\n")?;
        let repo = gix::open(root)?;
        let index = repo.index_or_empty()?;
        let capture = crate::config::Capture {
            max_file_size: u64::MAX,
            ..Default::default()
        };
        let options = Options {
            capture: &capture,
            stat_cache: true,
            stand_in: None,
        };
        let snap = snapshot(&repo, &index, options, &Control::default())?;
        let md = |path: &str| std::fs::symlink_metadata(root.join(path));
        // From the index, from a rehash, from the untracked hashing: all settled.
        for path in ["tracked", "edited", "untracked"] {
            assert!(snap.proves_unchanged(path.into(), &md(path)?), "{path}");
        }
        // Written in the same second as the capture began: unsure.
        assert!(!snap.proves_unchanged("racy".into(), &md("racy")?));
        // Changed after the capture, even to the same size: unsure.
        for path in ["tracked", "edited", "untracked"] {
            std::fs::write(root.join(path), "X\n")?;
            assert!(!snap.proves_unchanged(path.into(), &md(path)?), "{path}");
        }
        Ok(())
    }
}
