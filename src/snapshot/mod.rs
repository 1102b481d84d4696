//! Turning the working tree into a tree object, the way `git add -A && git write-tree` would on
//! a copy of the index — without writing the index.
//!
//! A capture ([`take`]) runs in named stages, each a function or type of its own that returns
//! what the next one takes, as git splits `refresh_index`, `fill_directory` and `write_tree`:
//!
//! 0. [`Env::new`]: the working tree, its settings, and the moment the capture began;
//! 1. [`monitor::ask`]: what a file-system monitor (`core.fsmonitor`) says changed since the
//!    token the stat cache keeps, or "everything";
//! 2. [`scan::WalkPlan::new`]: how the working tree is walked, and which directories the stat
//!    cache's listings let it skip;
//! 3. [`scan::scan`]: git's status in process, the index compared with the files beside the
//!    walk of the untracked ones;
//! 4. [`classify::classify`]: what each path found needs (rehash, remove, hash as untracked);
//! 5. [`classify::stand_in_key`]: whether a plain directory's stand-in index still stands;
//! 6. [`hash::Hashing::new`]: the stat cache, checked against how files are hashed now;
//! 7. [`hash::hash_tracked`]: the tracked files that changed, hashed;
//! 8. [`hash::hash_untracked`]: the untracked files, from the stat cache or hashed;
//! 9. [`trees::merge`]: the overrides of the index, and the number of files;
//! 10. [`trees::write_trees`]: the snapshot's tree and the index's, reusing what is unchanged;
//! 11. [`trees::fill_pending`]: the stat cache this capture leaves (with the monitor's token);
//! 12. the [`Snapshot`].

use std::collections::{BTreeMap, HashSet};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::index::entry::{Flags, Mode, Stage};
use gix::objs::tree::EntryKind;

use crate::config::Capture;
use crate::control::Control;
use crate::error::{Error, Result};
use crate::format::Skipped;
use crate::select::Rules;
use crate::standin;
use crate::statcache::{self, Moment, PathMap, Stamp};

mod classify;
mod hash;
mod listing;
mod monitor;
mod probe;
mod scan;
mod trees;

pub(crate) use trees::DirTrees;
use trees::{Reuse, dirs_of, write_tree};

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
    /// The tree the overrides make: `tree`, unless a caller put another there (a safety
    /// checkpoint with ignored files added), which the overrides then do not describe.
    own_tree: ObjectId,
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
pub(super) fn first_not_before(index: &gix::index::State, at: usize, path: &BStr) -> usize {
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
pub(super) fn base_entry(entry: &gix::index::Entry) -> Option<Blob> {
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
        let mut summary = crate::treediff::Summary::default();
        self.each_change_since(head, |_, old, new| match (old, new) {
            (None, Some(_)) => summary.added += 1,
            (Some(_), None) => summary.deleted += 1,
            _ => summary.modified += 1,
        })
        .then_some(summary)
    }

    /// The files (and symlinks and submodules) the snapshot adds or changes beyond the tree
    /// `head`, with their new kind and object, in path order, without reading a tree; `None`
    /// when the index does not hold exactly `head`'s tree (then compare the trees).
    pub fn added_or_changed_since(
        &self,
        head: Option<ObjectId>,
    ) -> Option<Vec<(BString, gix::objs::tree::EntryKind, ObjectId)>> {
        let mut out = Vec::new();
        self.each_change_since(head, |path, _, new| {
            if let Some((kind, id)) = new {
                out.push((path.to_owned(), kind, id));
            }
        })
        .then_some(out)
    }

    /// Call `each` with every path whose entry differs between the tree `head` and the
    /// snapshot's (old, new), when the index holds exactly `head`'s tree (nothing staged):
    /// what differs is then what the snapshot overrides. False when that does not hold.
    fn each_change_since(
        &self,
        head: Option<ObjectId>,
        mut each: impl FnMut(&BStr, Option<Blob>, Option<Blob>),
    ) -> bool {
        if head.is_none()
            || self.index_tree != head
            || self.tree != self.own_tree
            || self.index.is_sparse()
            || !self.respelled.is_empty()
        {
            return false;
        }
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
            if old != *new {
                each(path.as_bstr(), old, *new);
            }
        }
        true
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

/// [`take`] until it gives a snapshot: when a loaded stand-in no longer stands, or a listing
/// proves wrong, it is taken again trusting nothing but the files themselves.
fn until_taken(
    repo: &gix::Repository,
    index: &gix::worktree::Index,
    mut options: Options<'_>,
    ctl: &Control<'_>,
) -> Result<Snapshot> {
    let mut trust = true;
    loop {
        if let Some(snap) = take(repo, index, options, trust, ctl)? {
            return Ok(snap);
        }
        if options.stand_in.is_some() {
            options.stand_in = Some(standin::Mode::Fresh);
        }
        trust = false;
    }
}

/// Stage 0: what every stage of a capture reads.
struct Env<'a> {
    repo: &'a gix::Repository,
    workdir: std::path::PathBuf,
    caps: gix::fs::Capabilities,
    rules: Rules,
    options: Options<'a>,
    /// When the capture began, by the file system's clock, and whether the file system keeps
    /// directories' times (see [`statcache::moment`]); `None` without the stat cache.
    moment: Option<(Moment, bool)>,
    /// The index as a file (see [`scan::index_key`]): tracked directories' listings and the
    /// monitor's tracked paths hold only for the same one.
    index_id: Option<ObjectId>,
}

impl<'a> Env<'a> {
    fn new(
        repo: &'a gix::Repository,
        index: &gix::worktree::Index,
        options: Options<'a>,
    ) -> Result<Env<'a>> {
        let workdir = repo.workdir().ok_or(Error::BareRepository)?.to_owned();
        let caps = repo.filesystem_options().map_err(|e| Error::Git {
            context: "cannot read core.fileMode / core.symlinks".into(),
            source: Box::new(e),
        })?;
        let rules = Rules::new(options.capture, caps.ignore_case);
        // Before anything is looked at: a file changed after this has a later stamp.
        let moment = if options.stat_cache {
            statcache::moment(repo)
        } else {
            None
        };
        let index_id = options.stat_cache.then(|| scan::index_key(index)).flatten();
        Ok(Env {
            repo,
            workdir,
            caps,
            rules,
            options,
            moment,
            index_id,
        })
    }

    fn started(&self) -> Option<Moment> {
        self.moment.map(|(started, _)| started)
    }
}

/// The snapshot of [`snapshot`], in the stages the module's documentation names; `None` when
/// `options` name a loaded stand-in that no longer stands (see [`standin::key`]), or when a
/// file of a directory that was not walked (the stat cache's listing of it was used) is not
/// as listed: then take it again, trusting nothing. `trust`: what the capture may trust
/// besides the files themselves, the stat cache's listings of directories (see
/// [`statcache::Listing`]) and a file-system monitor's answer (see [`monitor`]).
fn take(
    repo: &gix::Repository,
    index: &gix::worktree::Index,
    options: Options<'_>,
    trust: bool,
    ctl: &Control<'_>,
) -> Result<Option<Snapshot>> {
    let env = Env::new(repo, index, options)?;
    let (monitor, early) = monitor::ask(&env, index, trust);
    let compare = scan::Compare::new(index, &monitor);
    let plan = scan::WalkPlan::new(&env, index, trust, &monitor)?;
    let scanned = scan::scan(&env, index, &compare, plan, early, &monitor, ctl)?;
    let classified =
        classify::classify(&env, scanned.found, &scanned.skipped_dirs, monitor.asked())?;
    let stand_in = classify::stand_in_key(&env, index, &classified);
    if let Some((standin::Mode::Loaded(expected), key)) = stand_in
        && key != Some(expected)
    {
        return Ok(None);
    }
    let same_content = monitor.same_index();
    let mut hashing = hash::Hashing::new(
        &env,
        index,
        scanned.read,
        &classified.untracked,
        same_content,
    );
    let checked = compare.checked();
    let tracked = hash::hash_tracked(&env, index, &classified.actions, checked, &mut hashing, ctl)?;
    let untracked = hash::Untracked {
        paths: classified.untracked,
        listed: classified.listed,
        looks: scanned.looks,
    };
    let Some(added) = hash::hash_untracked(&env, index, untracked, &monitor, &mut hashing, ctl)?
    else {
        return Ok(None);
    };
    let token = monitor.next(index, classified.dirty.iter().chain(tracked.dirty()));
    let merged = trees::merge(index, env.caps.ignore_case, tracked.overrides, added.files);
    let known = trees::known(added.tally.as_ref(), hashing.cache.as_ref());
    let trees = trees::write_trees(
        &env,
        index,
        &merged.overrides,
        &known,
        hashing.cache.as_ref(),
        tracked.unmerged,
    )?;
    let seen = listing::Seen {
        skipped: &scanned.skipped_dirs,
        entered: &scanned.entered,
        others: &added.others,
    };
    let walk = scanned.walk_key.map(|key| (key, &seen));
    let leaves = trees::Leaves {
        trees: &trees,
        tally: added.tally.as_ref(),
        known: &known,
        walk,
        monitor: token,
    };
    let hash::Hashing {
        cache,
        pending,
        stamps,
        skipped,
        ..
    } = hashing;
    let pending = trees::fill_pending(&env, pending, cache, leaves);
    Ok(Some(Snapshot {
        own_tree: trees.tree,
        tree: trees.tree,
        index_tree: trees.index_tree,
        files: merged.files,
        skipped,
        index: index.clone(),
        overrides: merged.overrides,
        dirs: std::sync::Arc::new(trees.dirs),
        changed: std::sync::Arc::new(trees.changed),
        reference: trees.reference,
        started: env.started(),
        stamps: std::sync::Arc::new(stamps),
        cache: pending.map(std::sync::Arc::new),
        respelled: added.respelled,
        rules: std::sync::Arc::new(env.rules),
        stand_in: stand_in.map(|(mode, key)| {
            std::sync::Arc::new(standin::Pending {
                key,
                refreshed: classified.refreshed,
                owner: standin::owner(&env.workdir),
                git_dir: repo.git_dir().to_owned(),
                loaded: matches!(mode, standin::Mode::Loaded(_)),
            })
        }),
    }))
}

/// Drop `value` on a thread of its own: freeing the tens of thousands of paths a large save
/// holds takes milliseconds nobody need wait for (a process that exits first leaves it to the
/// system). Where no thread can start, it is dropped here.
pub(super) fn drop_aside<T: Send + 'static>(value: T) {
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

/// What the file system says of one untracked file or symlink, and what the stat cache has
/// The `.gitignore` of the directory `dir` (`""`: the top of the working tree).
pub(super) fn ignore_file(dir: &BStr) -> BString {
    let mut path = BString::from(dir);
    if !path.is_empty() {
        path.push(b'/');
    }
    path.extend_from_slice(b".gitignore");
    path
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
pub(super) fn owner_may_execute(md: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    md.permissions().mode() & 0o100 != 0
}

#[cfg(not(unix))]
pub(super) fn owner_may_execute(_: &std::fs::Metadata) -> bool {
    false
}

/// The tree entry kind of an index entry; sparse directories are trees.
pub(super) fn index_kind(mode: Mode) -> Option<EntryKind> {
    if mode.is_sparse() {
        return Some(EntryKind::Tree);
    }
    mode.to_tree_entry_mode().map(|m| m.kind())
}

#[cfg(test)]
mod tests {
    use super::scan::{read_short, still_changing};
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
