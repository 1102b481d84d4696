//! A private cache of what a save found, so that the next save does not redo it: the blobs of
//! untracked files that have not changed, and of tracked files edited but not staged (git's
//! index plays this role for the other tracked files), the trees of untracked directories
//! whose files have not changed, and the trees of the index's directories as long as the index
//! is the same file.
//!
//! It lives in the worktree's git directory as `checkpoint-stat-cache`, is only ever a
//! shortcut (deleting it is harmless), and is ignored wholesale when anything that changes how
//! files are hashed may have changed: `.gitattributes` files, `info/attributes`, and the
//! `core.*` and `filter.*` settings.
//!
//! - **Files.** An entry is trusted only when the file's size, times and inode are the same and
//!   its status was last changed in an earlier second than the save that cached it began, by
//!   the file system's own clock (the racy-git rule: see [`Stamp::settled_before`]).
//! - **Untracked directories** (no tracked file below them): the tree of one is reused when every
//!   untracked file below it is a trusted entry and there are as many as when it was cached (so
//!   none was added, removed or renamed, and no `.gitignore` change hid or revealed one).
//! - **The index's directories**: reused only while the index file has the same checksum (the
//!   same content) and the same stamp; never for an index without a checksum (`index.skipHash`).
//! - **Listings of directories** (see [`Listing`]), so that a save's walk of the working tree
//!   need not enter them: the untracked files below each directory (at every depth) that holds
//!   nothing else a snapshot takes from the walk (no embedded repository, no file too large),
//!   with the stamps of every directory the walk entered below it and of each one's
//!   `.gitignore`, and the `.gitignore` stamps of the directories above it. Used while every
//!   one of those stamps is the same and settled (a directory's times change whenever an entry
//!   in it is added, removed or renamed), the ignore rules from outside the working tree and
//!   the settings are the same, and, for a directory with tracked files below it, the index
//!   is the same file. The files themselves are still looked at one by one.
//!
//! - **A file-system monitor's token** (see `snapshot::monitor`), kept with the tracked paths
//!   that differed from the index when it was taken: the next save asks the monitor what
//!   changed since, and looks only there.
//!
//! Objects the cache names are used without checking that they still exist only while the
//! checkpoint that held all of them (the one its save made or found) still exists; otherwise
//! each blob is looked up before use and the untracked directories' trees are not used.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::EntryKind;

/// File name in the git directory.
const FILE: &str = "checkpoint-stat-cache";
/// First line of the file.
const MAGIC: &[u8] = b"git-checkpoint stat cache 3";

/// Delete the stat cache of the git directory `git_dir`, if there is one: the next save looks
/// at every file again. For when an object it may name is gone (see `repair`).
pub fn forget(git_dir: &std::path::Path) {
    let _ = std::fs::remove_file(git_dir.join(FILE));
}

/// A hasher for paths (FxHash's multiply-rotate, a word at a time): much cheaper than SipHash
/// for the tens of thousands of paths a save looks up, and no input here is adversarial (they
/// are the paths of one's own working tree).
#[derive(Default, Clone, Copy)]
pub struct PathHasher(u64);

impl Hasher for PathHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
        }
        for byte in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*byte)).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map keyed by paths, with [`PathHasher`].
pub type PathMap<V> = HashMap<BString, V, BuildHasherDefault<PathHasher>>;

/// A moment on the file system's clock: seconds and nanoseconds since the epoch.
pub type Moment = (i64, u32);

/// The file system's clock now, as a file written now in the git directory gets it (a file's
/// times come from the kernel's coarse clock, or a network file system's server, either of
/// which may lag the process's clock). `None` when no file can be written there: then nothing
/// is trusted.
///
/// And whether creating that file changed the git directory's stamp: whether this file system
/// keeps a directory's times as the directory changes, which the listings of directories rely
/// on (a network file system's cached attributes may not, nor a file system
/// that keeps whole seconds when the directory changed within this one; then no listing is
/// trusted).
pub fn moment(repo: &gix::Repository) -> Option<(Moment, bool)> {
    let git_dir = repo.git_dir();
    let dir_stamp = || {
        std::fs::symlink_metadata(git_dir)
            .ok()
            .map(|md| Stamp::of(&md))
    };
    let before = dir_stamp();
    let path = git_dir.join(format!("{FILE}.now{}", std::process::id()));
    let file = std::fs::File::create(&path).ok()?;
    let md = file.metadata();
    drop(file);
    let after = dir_stamp();
    let _ = std::fs::remove_file(&path);
    let stamp = Stamp::of(&md.ok()?);
    let dirs_kept = before.is_some() && after.is_some() && before != after;
    Some((stamp.ctime.min(stamp.mtime), dirs_kept))
}

/// What identifies an unchanged file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    size: u64,
    mtime: (i64, u32),
    ctime: (i64, u32),
    ino: u64,
}

impl Stamp {
    /// The file's size.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The stamp of a file's metadata (from `symlink_metadata`).
    pub fn of(md: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Stamp {
                size: md.len(),
                mtime: (md.mtime(), md.mtime_nsec() as u32),
                ctime: (md.ctime(), md.ctime_nsec() as u32),
                ino: md.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            use std::time::UNIX_EPOCH;
            let secs = |t: std::io::Result<std::time::SystemTime>| {
                t.ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map_or((0, 0), |d| (d.as_secs() as i64, d.subsec_nanos()))
            };
            // No status-change time: the modification time stands in for it.
            let mtime = secs(md.modified());
            Stamp {
                size: md.len(),
                mtime,
                ctime: mtime,
                ino: 0,
            }
        }
    }

    /// The stamp of a `statx` result: the same as [`Stamp::of`] gives for the metadata std
    /// reads (with `statx` too) of the same file.
    #[cfg(target_os = "linux")]
    pub fn of_statx(st: &rustix::fs::Statx) -> Stamp {
        Stamp {
            size: st.stx_size,
            mtime: (st.stx_mtime.tv_sec, st.stx_mtime.tv_nsec),
            ctime: (st.stx_ctime.tv_sec, st.stx_ctime.tv_nsec),
            ino: st.stx_ino,
        }
    }

    /// The stamp git recorded in an index entry: comparable with [`Stamp::of`] where git keeps
    /// every field (on 32-bit fields, a value that does not fit never compares equal).
    pub fn of_index(stat: &gix::index::entry::Stat) -> Stamp {
        Stamp {
            size: u64::from(stat.size),
            mtime: (i64::from(stat.mtime.secs), stat.mtime.nsecs),
            ctime: (i64::from(stat.ctime.secs), stat.ctime.nsecs),
            ino: u64::from(stat.ino),
        }
    }

    /// The index entry's stat data for this stamp, owned by `owner` (user and group ids; the
    /// device is not compared unless `core.checkStat` asks for it). A time that does not fit
    /// git's 32 bits gives `None`: then the entry keeps no stat and is compared by content.
    pub fn index_stat(&self, owner: (u32, u32)) -> Option<gix::index::entry::Stat> {
        use gix::index::entry::stat::Time;
        let time =
            |(secs, nsecs): (i64, u32)| u32::try_from(secs).ok().map(|secs| Time { secs, nsecs });
        Some(gix::index::entry::Stat {
            mtime: time(self.mtime)?,
            ctime: time(self.ctime)?,
            dev: 0,
            // git keeps inode numbers and sizes in 32 bits, as `matches_index` compares them.
            ino: self.ino as u32,
            uid: owner.0,
            gid: owner.1,
            size: self.size as u32,
        })
    }

    /// Whether this is the stamp of an index entry: the same file as `md` describes, unchanged
    /// (git keeps sizes and inode numbers in 32 bits).
    pub fn matches_index(&self, index: &Stamp) -> bool {
        self.mtime == index.mtime
            && self.ctime == index.ctime
            && self.size as u32 as u64 == index.size
            && self.ino as u32 as u64 == index.ino
    }

    /// Whether the file was last changed in an earlier second than `moment`: then any later
    /// change gives it a later status-change time, so an equal stamp means unchanged content.
    /// Whole seconds, as git's racy check without `USE_NSEC`: a file system that keeps coarser
    /// times than nanoseconds (or a clock that is not the one `moment` was read from, within
    /// the second) cannot make a file changed just after the moment look settled.
    pub fn settled_before(&self, moment: Moment) -> bool {
        self.ctime.0 < moment.0 && self.mtime.0 < moment.0
    }
}

/// A cached untracked file: its stamp, mode and blob.
type FileEntry = (Stamp, EntryKind, ObjectId);

/// Files and their entries, their paths kept in one buffer rather than one allocation each: a
/// save reads and writes tens of thousands of them. Read from a cache file, the buffer is the
/// file's text, and each path's position is found by binary search: the untracked files, most
/// of them, are in path order, after the tracked ones (see [`Content::files`]).
#[derive(Default)]
struct Files {
    /// The bytes the paths are ranges of.
    text: Vec<u8>,
    /// Each file: where its path is in `text`, and its entry.
    entries: Vec<(std::ops::Range<usize>, FileEntry)>,
    /// Where the files in path order begin (all of them but the tracked ones, which come
    /// first); the positions of those before, in path order. Both empty while no path is
    /// looked up (files added with [`Files::push`]).
    sorted_from: usize,
    unsorted: Vec<usize>,
    /// Whether paths can be looked up.
    searchable: bool,
}

impl Files {
    /// The files `entries`, whose paths are ranges of `text`, made searchable; `None` if a
    /// path is there twice or out of `text` (no cache file written holds such).
    fn of_text(text: Vec<u8>, entries: Vec<(std::ops::Range<usize>, FileEntry)>) -> Option<Files> {
        let path = |at: usize| text.get(entries[at].0.clone());
        // The longest run in strictly increasing path order that ends the list.
        let mut sorted_from = entries.len().saturating_sub(1);
        while sorted_from > 0 && path(sorted_from - 1)? < path(sorted_from)? {
            sorted_from -= 1;
        }
        let mut unsorted: Vec<usize> = (0..sorted_from).collect();
        unsorted.sort_by(|a, b| text[entries[*a].0.clone()].cmp(&text[entries[*b].0.clone()]));
        let files = Files {
            text,
            entries,
            sorted_from,
            unsorted,
            searchable: true,
        };
        // No path twice: not among those before the run, nor in both.
        let twice = files
            .unsorted
            .windows(2)
            .any(|w| files.path(w[0]) == files.path(w[1]))
            || files
                .unsorted
                .iter()
                .any(|at| files.sorted_position(files.path(*at)).is_some());
        (!twice).then_some(files)
    }

    /// Room for `capacity` files (of paths about 48 bytes long), added with [`Files::push`].
    fn with_capacity(capacity: usize) -> Files {
        Files {
            text: Vec::with_capacity(capacity * 48),
            entries: Vec::with_capacity(capacity),
            ..Files::default()
        }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The file at `at`.
    fn get(&self, at: usize) -> Option<(&BStr, &FileEntry)> {
        let (range, entry) = self.entries.get(at)?;
        Some((self.text.get(range.clone())?.as_bstr(), entry))
    }

    fn iter(&self) -> impl ExactSizeIterator<Item = (&BStr, &FileEntry)> {
        self.entries
            .iter()
            .map(|(range, entry)| (self.text[range.clone()].as_bstr(), entry))
    }

    /// Add a file (without the table: see [`Files::of_text`]).
    fn push(&mut self, path: &BStr, entry: FileEntry) {
        let start = self.text.len();
        self.text.extend_from_slice(path);
        self.entries.push((start..self.text.len(), entry));
    }

    /// The path of the file at `at` (which is there).
    fn path(&self, at: usize) -> &[u8] {
        &self.text[self.entries[at].0.clone()]
    }

    /// Where `path` is among the files from `from` on, which are in path order.
    fn position_in_order(&self, from: usize, path: &[u8]) -> Option<usize> {
        let sorted = self.entries.get(from..)?;
        let at = sorted
            .binary_search_by(|(range, _)| self.text[range.clone()].cmp(path))
            .ok()?;
        Some(from + at)
    }

    /// Where `path` is among the files in path order.
    fn sorted_position(&self, path: &[u8]) -> Option<usize> {
        self.position_in_order(self.sorted_from, path)
    }

    /// Where `path` is among the files (only for files from [`Files::of_text`]).
    fn position(&self, path: &BStr) -> Option<usize> {
        if !self.searchable {
            return None;
        }
        self.sorted_position(path).or_else(|| {
            let at = self
                .unsorted
                .binary_search_by(|at| self.path(*at).cmp(path))
                .ok()?;
            Some(self.unsorted[at])
        })
    }
}

/// A directory's stamp, and its `.gitignore`'s (`None`: it has none).
pub type DirStamps = (Stamp, Option<Stamp>);

/// A directory of a [`Listing`] and its stamps.
pub type ListedDir = (BString, DirStamps);

/// The listing of a directory, so that the next save need not walk it: the untracked files
/// below it are `count` consecutive entries of the cache's files from `start`, and `dirs` holds
/// the stamps of the directory (first) and of every directory the walk entered below it. While
/// each is the same (and settled: no listing is written otherwise), no entry was added, removed
/// or renamed anywhere below it, and no `.gitignore` below it changed; [`Read::ignore_stamp`]
/// keeps those of the directories above it. A `tracked` directory's listing (one with tracked
/// files below it) also depends on which files the index tracks: it holds only while the index
/// is the one the cache was written with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub start: usize,
    pub count: usize,
    pub tracked: bool,
    pub dirs: Vec<(BString, DirStamps)>,
}

/// What a cache file holds.
#[derive(Default)]
struct Content {
    /// The file-system moment the save that wrote it began.
    started: Moment,
    /// The checkpoint (ref name and commit) that holds every object named here.
    holder: Option<(BString, ObjectId)>,
    /// The checksum of the index the trees in `index_trees` are of.
    index: Option<ObjectId>,
    index_trees: PathMap<ObjectId>,
    /// Untracked directories: their tree and the number of files below them.
    dirs: PathMap<(ObjectId, u64)>,
    /// Tracked files edited but not staged, then untracked files in path order (the files of a
    /// directory together), as the save that wrote them found them.
    files: std::sync::Arc<Files>,
    /// What decided the listings (the snapshot's walk key): the ignore rules outside the
    /// working tree, the settings and the walk's options.
    walk_key: Option<u64>,
    /// Directories the next save need not walk.
    listings: PathMap<Listing>,
    /// The `.gitignore` stamps of the directories above those in `listings`.
    ignores: PathMap<Option<Stamp>>,
    /// The file-system monitor's token, given before the save that wrote the file looked at
    /// anything.
    monitor: Option<Token>,
}

/// A file-system monitor's token and what it is relative to: the tracked paths that differed
/// from their index entries (under the index the cache names) when it was taken.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Token {
    pub token: BString,
    /// Sorted.
    pub dirty: Vec<BString>,
    /// The content of the index `dirty` is about (see `snapshot::monitor::content_key`): git
    /// rewrites the index file (`git status` does, after edits) without changing what it
    /// tracks.
    pub content: u64,
}

/// A cache file as read, before it is known to fit the save (its digest is checked when the
/// save has walked the working tree): read on another thread while the working tree is walked.
pub struct Read {
    digest: u64,
    content: Content,
}

impl Read {
    /// The cache file of the git directory `git_dir`, if there is one whose object ids are of
    /// the format `hash`.
    pub fn of(git_dir: &std::path::Path, hash: gix::hash::Kind) -> Option<Read> {
        let data = std::fs::read(git_dir.join(FILE)).ok()?;
        parse_any(data, hash).map(|(digest, content)| Read { digest, content })
    }

    /// The paths of the files it has, in its order (see [`StatCache::position`]).
    pub fn paths(&self) -> impl ExactSizeIterator<Item = &BStr> {
        self.content.files.iter().map(|(path, _)| path)
    }

    /// What identifies the index the cache was written with (see [`StatCache::of_read`]).
    pub fn index(&self) -> Option<ObjectId> {
        self.content.index
    }

    /// The listing of the directory `dir`, if the cache has one made under `walk_key`.
    pub fn listing(&self, dir: &BStr, walk_key: u64) -> Option<&Listing> {
        if self.content.walk_key != Some(walk_key) {
            return None;
        }
        let listing = self.content.listings.get(dir)?;
        (listing.dirs.first().map(|(first, _)| first.as_bstr()) == Some(dir)).then_some(listing)
    }

    /// The files of `listing` (that of `dir`), each path with whether it is a symlink; `None`
    /// unless they are all below `dir` (a damaged cache).
    pub fn listed_files(&self, dir: &BStr, listing: &Listing) -> Option<Vec<(&BStr, bool)>> {
        (listing.start..listing.start.checked_add(listing.count)?)
            .map(|at| {
                let (path, (_, kind, _)) = self.content.files.get(at)?;
                let below = path != dir && crate::treediff::is_at_or_below(path, dir);
                below.then_some((path, *kind == EntryKind::Link))
            })
            .collect()
    }

    /// The stamp of the `.gitignore` of `dir`, a directory above a listed one, when the cache
    /// was written: `None` if unknown, `Some(None)` if it had none.
    pub fn ignore_stamp(&self, dir: &BStr) -> Option<Option<Stamp>> {
        self.content.ignores.get(dir).copied()
    }

    /// When the save that wrote the cache began, by the file system's clock.
    pub fn started(&self) -> Moment {
        self.content.started
    }

    /// The file-system monitor's token the cache keeps.
    pub fn monitor(&self) -> Option<&Token> {
        self.content.monitor.as_ref()
    }
}

/// The cache as a save found it. Loaded at the start of a save; what the save found goes into a
/// [`Pending`] cache, written once the checkpoint is recorded.
pub struct StatCache {
    path: std::path::PathBuf,
    digest: u64,
    started: Option<Moment>,
    old: Content,
    /// Whether the holder still exists as it was: every object named here exists.
    held: bool,
    index: Option<ObjectId>,
    /// Whether the index, rewritten since, tracks exactly what it did (see [`Token::content`]).
    same_content: bool,
}

impl StatCache {
    /// The cache of `repo` (read before, see [`Read::of`]) for a save that began at `started`
    /// (see [`moment`]), over the index identified by `index` (its checksum and stamp; `None`:
    /// no index trees are used). `digest` describes how files are hashed; a cache written
    /// under another digest is not used.
    pub fn of_read(
        repo: &gix::Repository,
        read: Option<Read>,
        digest: u64,
        started: Option<Moment>,
        index: Option<ObjectId>,
        same_content: bool,
    ) -> StatCache {
        let path = repo.git_dir().join(FILE);
        let old = read
            .filter(|read| read.digest == digest)
            .map(|read| read.content)
            .unwrap_or_default();
        // Through the ref store's own reader: gix alone cannot read a reftable repository's
        // refs, and a holder it does not find would silently turn the cache off there.
        let held = old.holder.as_ref().is_some_and(|(name, commit)| {
            name.to_str().is_ok_and(|name| {
                crate::refdb::find(repo, name)
                    .ok()
                    .flatten()
                    .and_then(|value| value.object())
                    == Some(*commit)
            })
        });
        StatCache {
            path,
            digest,
            started,
            old,
            held,
            index,
            same_content,
        }
    }

    /// The cached blob of the untracked file `path` if its stamp is unchanged and settled,
    /// and whether its object is known to exist (if not, look it up before trusting it).
    pub fn file_stamped(&self, path: &BStr, stamp: Stamp) -> Option<(EntryKind, ObjectId, bool)> {
        self.file_at(self.position(path)?, stamp)
    }

    /// The position of the untracked file `path` among the files of the cache (the order of
    /// [`Read::paths`]).
    pub fn position(&self, path: &BStr) -> Option<usize> {
        self.old.files.position(path)
    }

    /// The path of the file at `position` (see [`StatCache::position`]).
    pub fn path_at(&self, position: usize) -> Option<&BStr> {
        self.old.files.get(position).map(|(path, _)| path)
    }

    /// The stamp and kind the file at `position` had when it was cached, if that stamp had
    /// settled (see [`StatCache::file_at`]): what a file a monitor did not report still has.
    pub fn settled_at(&self, position: usize) -> Option<(Stamp, EntryKind)> {
        let (_, (stamp, kind, _)) = self.old.files.get(position)?;
        stamp
            .settled_before(self.old.started)
            .then_some((*stamp, *kind))
    }

    /// [`StatCache::file_stamped`] of the file at `position`.
    pub fn file_at(&self, position: usize, stamp: Stamp) -> Option<(EntryKind, ObjectId, bool)> {
        let (_, (cached, kind, id)) = self.old.files.get(position)?;
        (*cached == stamp && cached.settled_before(self.old.started))
            .then_some((*kind, *id, self.held))
    }

    /// The cached tree of the untracked directory `dir` and the number of files below it, when
    /// its objects are known to exist.
    pub fn dir(&self, dir: &BStr) -> Option<(ObjectId, u64)> {
        if !self.held {
            return None;
        }
        self.old.dirs.get(dir).copied()
    }

    /// The trees of the index's directories, when the index is the one they were cached for;
    /// and whether they are known to exist (else each must be looked up before use).
    pub fn index_trees(&self) -> Option<(&PathMap<ObjectId>, bool)> {
        (self.index.is_some() && (self.index == self.old.index || self.same_content))
            .then_some((&self.old.index_trees, self.held))
    }

    /// The listing of the directory `dir` the cache was read with.
    pub fn old_listing(&self, dir: &BStr) -> Option<&Listing> {
        self.old.listings.get(dir)
    }

    /// Every listing the cache was read with.
    pub fn old_listings(&self) -> impl Iterator<Item = (&BStr, &Listing)> {
        self.old.listings.iter().map(|(dir, l)| (dir.as_bstr(), l))
    }

    /// Give `pending` (made by [`StatCache::pending`]) what the cache was read with, which it
    /// compares with what it found to leave the file as it is when nothing changed; once the
    /// save has used the cache for the last time. What is left is returned, to be dropped.
    pub fn hand_over(mut self, pending: &mut Pending) -> StatCache {
        pending.settle();
        pending.old_dirs = std::mem::take(&mut self.old.dirs);
        pending.old_index_trees = std::mem::take(&mut self.old.index_trees);
        pending.old_listings = std::mem::take(&mut self.old.listings);
        pending.old_ignores = std::mem::take(&mut self.old.ignores);
        self
    }

    /// Start the cache this save leaves (see [`StatCache::hand_over`]).
    pub fn pending(&self) -> Pending {
        Pending {
            path: self.path.clone(),
            digest: self.digest,
            started: self.started,
            index: self.index,
            index_trees: PathMap::default(),
            dirs: Vec::new(),
            // Most often the files of the old cache again: then they are not copied.
            files: Files::default(),
            mirror: (!self.old.files.entries.is_empty()).then(|| self.old.files.clone()),
            mirrored: 0,
            hits: 0,
            old_files: self.old.files.len(),
            old_started: self.old.started,
            // Handed over at the end (see `StatCache::hand_over`), not copied now.
            old_dirs: PathMap::default(),
            old_index: self.old.index,
            old_index_trees: PathMap::default(),
            old_holder: self.old.holder.clone(),
            old_held: self.held,
            walk_key: None,
            listings: Vec::new(),
            first_untracked: 0,
            ignores: PathMap::default(),
            monitor: (None, Vec::new(), None, false),
            old_monitor: self.old.monitor.clone(),
            old_walk_key: self.old.walk_key,
            old_listings: PathMap::default(),
            old_ignores: PathMap::default(),
        }
    }
}

/// The directories above `dir` (a path relative to the top of the working tree), from the top
/// (`""`) down to its parent.
pub fn above(dir: &BStr) -> impl Iterator<Item = &BStr> {
    std::iter::once(&dir[..0])
        .chain(dir.find_iter(b"/").map(move |slash| &dir[..slash]))
        .map(|d| d.as_bstr())
}

/// What a save found, to be written as the cache once its checkpoint is recorded.
pub struct Pending {
    path: std::path::PathBuf,
    digest: u64,
    started: Option<Moment>,
    index: Option<ObjectId>,
    index_trees: PathMap<ObjectId>,
    dirs: Vec<(BString, ObjectId, u64)>,
    files: Files,
    /// The old cache's files while the files remembered are the same ones, in the same order:
    /// the first `mirrored` of them, which `files` does not repeat (see [`Pending::settle`]).
    mirror: Option<std::sync::Arc<Files>>,
    mirrored: usize,
    /// How many of the files were found in the old cache, unchanged.
    hits: usize,
    old_files: usize,
    old_started: Moment,
    old_dirs: PathMap<(ObjectId, u64)>,
    old_index: Option<ObjectId>,
    old_index_trees: PathMap<ObjectId>,
    old_holder: Option<(BString, ObjectId)>,
    /// Whether the old holder still exists as it was.
    old_held: bool,
    walk_key: Option<u64>,
    /// Directories to list, whether each is tracked, and the stamps of the directories in
    /// them.
    listings: Vec<(BString, bool, Vec<ListedDir>)>,
    /// Where the untracked files begin in `files` (tracked files edited but not staged come
    /// first): only those are listed.
    first_untracked: usize,
    ignores: PathMap<Option<Stamp>>,
    /// The monitor's new token (`None`: keep the old one, if any), the tracked paths found
    /// differing from the index, and whether the token must be written even when nothing
    /// else changed (see `snapshot::monitor::ADVANCE_AFTER`).
    monitor: (Option<BString>, Vec<BString>, Option<u64>, bool),
    old_monitor: Option<Token>,
    old_walk_key: Option<u64>,
    old_listings: PathMap<Listing>,
    old_ignores: PathMap<Option<Stamp>>,
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("files", &self.len())
            .field("dirs", &self.dirs.len())
            .finish()
    }
}

impl Pending {
    /// Remember what the untracked file `path` hashed to; `hit`: it came from the old cache
    /// unchanged.
    pub fn file(&mut self, path: &BStr, stamp: Stamp, kind: EntryKind, id: ObjectId, hit: bool) {
        self.hits += usize::from(hit);
        let entry = (stamp, kind, id);
        if let Some(old) = &self.mirror {
            if old.get(self.mirrored) == Some((path, &entry)) {
                self.mirrored += 1;
                return;
            }
            self.diverge();
        }
        self.files.push(path, entry);
    }

    /// How many files are remembered.
    fn len(&self) -> usize {
        match self.mirror {
            Some(_) => self.mirrored,
            None => self.files.len(),
        }
    }

    /// Stop mirroring the old cache's files: copy those mirrored so far.
    fn diverge(&mut self) {
        if let Some(old) = self.mirror.take() {
            self.files = Files::with_capacity(old.len());
            for at in 0..self.mirrored {
                if let Some((path, entry)) = old.get(at) {
                    self.files.push(path, *entry);
                }
            }
        }
    }

    /// Done remembering files: the old cache's stand for them only if they are all of them.
    /// Called before the files are read (by [`StatCache::hand_over`]).
    pub fn settle(&mut self) {
        if self
            .mirror
            .as_ref()
            .is_some_and(|old| old.len() != self.mirrored)
        {
            self.diverge();
        }
    }

    /// The files remembered (once [`Pending::settle`]d).
    fn all_files(&self) -> &Files {
        match &self.mirror {
            Some(old) => old,
            None => &self.files,
        }
    }

    /// Remember the tree of the untracked directory `dir`, with `files` files below it.
    pub fn dir(&mut self, dir: BString, tree: ObjectId, files: u64) {
        self.dirs.push((dir, tree, files));
    }

    /// Remember the tree of the index's directory `dir`.
    pub fn index_tree(&mut self, dir: BString, tree: ObjectId) {
        self.index_trees.insert(dir, tree);
    }

    /// Listings are kept under `key` (see [`Read::listing`]).
    /// Keep the monitor's `token` (`None`: the old one, if any) with `dirty`, the tracked paths
    /// this save found differing from the index (sorted); `must`: even when nothing else
    /// changed. An older token with a later save's dirty set is still right: the monitor
    /// reports everything changed since it, which includes everything changed since the save.
    /// `content`: the index's; `None` when no monitor was asked: then the old token stays as
    /// it is, with its own dirty set and index (still right: see [`Token::content`]).
    pub fn monitor(
        &mut self,
        token: Option<BString>,
        dirty: Vec<BString>,
        content: Option<u64>,
        must: bool,
    ) {
        self.monitor = (token, dirty, content, must);
    }

    /// The token the file will keep (see [`Pending::monitor`]).
    fn token(&self) -> Option<Token> {
        let (token, dirty, content, _) = &self.monitor;
        let Some(content) = content else {
            return self.old_monitor.clone();
        };
        let token = token
            .clone()
            .or_else(|| self.old_monitor.as_ref().map(|old| old.token.clone()))?;
        Some(Token {
            token,
            dirty: dirty.clone(),
            content: *content,
        })
    }

    pub fn walk_key(&mut self, key: u64) {
        self.walk_key = Some(key);
    }

    /// The files remembered from now on are untracked ones (those before were tracked files
    /// edited but not staged), in path order.
    pub fn untracked_start(&mut self) {
        self.first_untracked = self.len();
    }

    /// The stamp the untracked file `path` was remembered with, if it was.
    pub fn untracked_stamp(&self, path: &BStr) -> Option<Stamp> {
        let files = self.all_files();
        let at = files.position_in_order(self.first_untracked, path)?;
        files.get(at).map(|(_, (stamp, _, _))| *stamp)
    }

    /// List the directory `dir` (`tracked`: with tracked files below it): `dirs` has the stamps
    /// of it (first) and of every directory below it the walk entered; the `.gitignore` stamps
    /// of the directories above it must be given with [`Pending::ignore`]. Its files are the
    /// untracked ones remembered below it, which must be consecutive (else it is not listed).
    pub fn listing(&mut self, dir: BString, tracked: bool, dirs: Vec<ListedDir>) {
        self.listings.push((dir, tracked, dirs));
    }

    /// The stamp of the `.gitignore` of `dir`, a directory above a listed one (`None`: it has
    /// none).
    pub fn ignore(&mut self, dir: BString, stamp: Option<Stamp>) {
        self.ignores.insert(dir, stamp);
    }

    /// The listings, with where their files are among `files`: only those whose files are
    /// consecutive, and only under a walk key.
    fn placed_listings(&self) -> Vec<Placed<'_>> {
        let mut out = Vec::new();
        if self.walk_key.is_none() || self.listings.is_empty() {
            return out;
        }
        let index: PathMap<usize> = self
            .listings
            .iter()
            .enumerate()
            .map(|(i, (dir, _, _))| (dir.clone(), i))
            .collect();
        // For each listed directory: the first and last file below it, and how many.
        let mut spans: Vec<Option<(usize, usize, usize)>> = vec![None; self.listings.len()];
        let untracked = self
            .all_files()
            .iter()
            .enumerate()
            .skip(self.first_untracked);
        // The listed directories above the last file's directory: the files of a directory
        // come together, and they are looked up once for all of them.
        let mut last: Option<(&[u8], Vec<usize>)> = None;
        for (at, (path, _)) in untracked {
            let parent = path
                .rfind_byte(b'/')
                .map_or(&path[..0], |slash| &path[..slash]);
            if last.as_ref().is_none_or(|(dir, _)| *dir != parent) {
                // Listings nest: a file counts in each listed directory above it.
                let listed = above(path)
                    .skip(1)
                    .filter_map(|dir| index.get(dir).copied())
                    .collect();
                last = Some((parent, listed));
            }
            for &i in last.iter().flat_map(|(_, listed)| listed) {
                let span = spans[i].get_or_insert((at, at, 0));
                span.1 = at;
                span.2 += 1;
            }
        }
        for (i, ((dir, tracked, dirs), span)) in self.listings.iter().zip(spans).enumerate() {
            // No file below it (a tracked directory without untracked files): an empty range.
            let (first, last, count) = span.unwrap_or((0, 0, 0));
            // A directory listed twice: the later listing counts.
            if index.get(dir) == Some(&i) && (count == 0 || last - first + 1 == count) {
                out.push(Placed {
                    dir: dir.as_bstr(),
                    start: first,
                    count,
                    tracked: *tracked,
                    dirs,
                });
            }
        }
        out
    }

    /// Write the cache, naming `holder` (a checkpoint ref and its commit) as holding every
    /// object in it, atomically, unless it is what the file already holds. Failures are
    /// ignored: the cache is only a shortcut.
    pub fn store(&self, holder: Option<(&str, ObjectId)>) {
        let Some(started) = self.started else {
            // Without a moment nothing could be trusted: leave no cache.
            let _ = std::fs::remove_file(&self.path);
            return;
        };
        let holder = holder.map(|(name, id)| (BString::from(name), id));
        let files = self.all_files();
        let settled = files
            .iter()
            .all(|(_, (stamp, _, _))| stamp.settled_before(self.old_started));
        let same_files = self.hits == files.len() && self.old_files == files.len();
        let same_dirs = self.dirs.len() == self.old_dirs.len()
            && self
                .dirs
                .iter()
                .all(|(d, t, n)| self.old_dirs.get(d) == Some(&(*t, *n)));
        let listings = self.placed_listings();
        let ignores: PathMap<Option<Stamp>> = if listings.is_empty() {
            PathMap::default()
        } else {
            self.ignores.clone()
        };
        let same_listings = self.walk_key == self.old_walk_key
            && listings.len() == self.old_listings.len()
            && listings.iter().all(|placed| {
                self.old_listings
                    .get(placed.dir)
                    .is_some_and(|old| placed.is(old))
            })
            && ignores == self.old_ignores;
        // The file is left as it is when it would say the same, naming another holder: the
        // one it names still holds every object in it (nothing new was hashed).
        if settled
            && same_files
            && same_dirs
            && same_listings
            && (holder == self.old_holder || self.old_held)
            && self.index == self.old_index
            && self.index_trees == self.old_index_trees
            && self.same_monitor()
        {
            return;
        }
        let mut out = Vec::with_capacity(64 + files.len() * 100);
        out.extend_from_slice(MAGIC);
        out.push(b'\n');
        out.extend_from_slice(
            format!("{:016x} {} {}\n", self.digest, started.0, started.1).as_bytes(),
        );
        let clean = |path: &[u8]| !path.contains(&0) && !path.contains(&b'\n');
        if let Some(token) = self.token()
            && clean(&token.token)
            && token.dirty.iter().all(|path| clean(path))
        {
            out.extend_from_slice(b"m ");
            out.extend_from_slice(&token.token);
            out.push(b'\n');
            out.extend_from_slice(format!("n {:016x}\n", token.content).as_bytes());
            for path in &token.dirty {
                out.extend_from_slice(b"v ");
                out.extend_from_slice(path);
                out.push(b'\n');
            }
        }
        if let Some((name, commit)) = &holder
            && clean(name)
        {
            out.extend_from_slice(format!("holder {commit} ").as_bytes());
            out.extend_from_slice(name);
            out.push(b'\n');
        }
        if let Some(index) = self.index {
            out.extend_from_slice(format!("index {index}\n").as_bytes());
            for (dir, tree) in &self.index_trees {
                if clean(dir) {
                    out.extend_from_slice(format!("t {tree} ").as_bytes());
                    out.extend_from_slice(dir);
                    out.push(b'\n');
                }
            }
        }
        for (dir, tree, count) in &self.dirs {
            if clean(dir) {
                out.extend_from_slice(format!("d {tree} {count} ").as_bytes());
                out.extend_from_slice(dir);
                out.push(b'\n');
            }
        }
        if let Some(key) = self.walk_key
            && !listings.is_empty()
            && files.iter().all(|(path, _)| clean(path))
        {
            out.extend_from_slice(format!("x {key:016x}\n").as_bytes());
            for (dir, stamp) in &ignores {
                if clean(dir) {
                    out.extend_from_slice(b"g");
                    push_optional_stamp(&mut out, *stamp);
                    out.push(b' ');
                    out.extend_from_slice(dir);
                    out.push(b'\n');
                }
            }
            for listing in &listings {
                let dir = listing.dir;
                if !clean(dir) || listing.dirs.iter().any(|(d, _)| !clean(d)) {
                    continue;
                }
                let kind = if listing.tracked { "t" } else { "u" };
                let line = format!("w {} {} {kind} ", listing.start, listing.count);
                out.extend_from_slice(line.as_bytes());
                out.extend_from_slice(dir);
                out.push(b'\n');
                for (sub, (stamp, ignore)) in listing.dirs {
                    out.extend_from_slice(b"s");
                    push_stamp(&mut out, stamp);
                    push_optional_stamp(&mut out, *ignore);
                    out.push(b' ');
                    out.extend_from_slice(sub);
                    out.push(b'\n');
                }
            }
        }
        // A file whose path cannot be written would shift the positions of the listings: then
        // none is written (above, `clean` leaves out only such paths).
        for (path, (s, kind, id)) in files.iter() {
            if !clean(path) {
                continue;
            }
            out.extend_from_slice(b"f ");
            let _ = id.write_hex_to(&mut out);
            out.push(b' ');
            push_number(&mut out, u64::from(mode_of(*kind)));
            push_stamp(&mut out, s);
            out.push(b' ');
            out.extend_from_slice(path);
            out.push(b'\n');
        }
        let tmp = self
            .path
            .with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, out).is_ok() && std::fs::rename(&tmp, &self.path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

impl Pending {
    /// Whether the monitor's token may stay as the file has it: the file keeps the old token
    /// and its dirty set (the next save is told again what changed since, and the index is
    /// the same, or the file is written anyway) unless there is none, this save could not use
    /// it, or the reply was long.
    fn same_monitor(&self) -> bool {
        let must = self.monitor.3;
        match (self.token(), &self.old_monitor) {
            (None, None) => true,
            (Some(token), Some(old)) => token == *old || !must,
            _ => false,
        }
    }
}

/// A listing as a save leaves it (see [`Pending::listing`]): where its files are among the
/// cache's, and the stamps of its directories.
struct Placed<'a> {
    dir: &'a BStr,
    start: usize,
    count: usize,
    tracked: bool,
    dirs: &'a [ListedDir],
}

impl Placed<'_> {
    /// Whether it says what the listing `old` said.
    fn is(&self, old: &Listing) -> bool {
        (self.start, self.count, self.tracked) == (old.start, old.count, old.tracked)
            && self.dirs == old.dirs.as_slice()
    }
}

/// Append a stamp's six numbers, each after a space.
fn push_stamp(out: &mut Vec<u8>, s: &Stamp) {
    for n in [
        s.size,
        s.mtime.0 as u64,
        u64::from(s.mtime.1),
        s.ctime.0 as u64,
        u64::from(s.ctime.1),
        s.ino,
    ] {
        out.push(b' ');
        push_number(out, n);
    }
}

/// Append ` 1` and the stamp, or ` 0` and six zeros for none.
fn push_optional_stamp(out: &mut Vec<u8>, s: Option<Stamp>) {
    match s {
        Some(s) => {
            out.extend_from_slice(b" 1");
            push_stamp(out, &s);
        }
        None => out.extend_from_slice(b" 0 0 0 0 0 0 0"),
    }
}

/// A stamp from its six fields (as [`push_stamp`] writes them).
fn stamp_of(f: &[&[u8]]) -> Option<Stamp> {
    let [size, ms, mn, cs, cn, ino] = f else {
        return None;
    };
    Some(Stamp {
        size: number(size)?,
        mtime: (number(ms)? as i64, u32::try_from(number(mn)?).ok()?),
        ctime: (number(cs)? as i64, u32::try_from(number(cn)?).ok()?),
        ino: number(ino)?,
    })
}

/// An optional stamp from its seven fields (as [`push_optional_stamp`] writes them).
fn optional_stamp_of(f: &[&[u8]]) -> Option<Option<Stamp>> {
    let (present, rest) = f.split_first()?;
    match *present {
        b"1" => Some(Some(stamp_of(rest)?)),
        b"0" => Some(None),
        _ => None,
    }
}

/// Append `n` in decimal.
fn push_number(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Parse a decimal number (as written by [`push_number`]).
fn number(field: &[u8]) -> Option<u64> {
    if field.is_empty() || field.len() > 20 {
        return None;
    }
    let mut n: u64 = 0;
    for b in field {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(n)
}

/// The first `N` fields of `line`, each a number (as [`number`] reads it) followed by a space,
/// and the rest. One pass over the digits, not a split and then [`number`] per field: a cache
/// file holds seven numbers per file, and sharing the digit loop cost 1.4 M instructions in a
/// save that reads 20,000 files.
fn numbers<const N: usize>(line: &[u8]) -> Option<([u64; N], &[u8])> {
    let mut out = [0u64; N];
    let mut at = 0;
    for n in &mut out {
        let start = at;
        let mut value: u64 = 0;
        loop {
            let b = *line.get(at)?;
            if b == b' ' {
                break;
            }
            if !b.is_ascii_digit() || at - start == 20 {
                return None;
            }
            value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
            at += 1;
        }
        if at == start {
            return None;
        }
        *n = value;
        at += 1;
    }
    Some((out, &line[at..]))
}

/// Split `line` at its first `n` spaces: `n` fields and the rest (a path may hold spaces).
fn fields<const N: usize>(line: &[u8]) -> Option<([&[u8]; N], &[u8])> {
    let mut out = [&line[..0]; N];
    let mut rest = line;
    for field in &mut out {
        let pos = rest.find_byte(b' ')?;
        *field = &rest[..pos];
        rest = &rest[pos + 1..];
    }
    Some((out, rest))
}

/// Parse the cache file; `None` when it is damaged, of another digest, or names an object id
/// of another format than `hash`.
#[cfg(test)]
fn parse(data: &[u8], digest: u64, hash: gix::hash::Kind) -> Option<Content> {
    parse_any(data.to_vec(), hash)
        .filter(|(d, _)| *d == digest)
        .map(|(_, content)| content)
}

/// Parse the cache file, and the digest it was written under; `None` when it is damaged or
/// names an object id of another format than `hash`.
fn parse_any(text: Vec<u8>, hash: gix::hash::Kind) -> Option<(u64, Content)> {
    // Most lines are files, of about a hundred bytes: sized once rather than grown.
    let mut found = Vec::with_capacity(text.len() / 64);
    let data = text.as_slice();
    // Split with `memchr` (a byte-by-byte split was most of the parse).
    let mut lines = data.split_str("\n");
    if lines.next()? != MAGIC {
        return None;
    }
    let ([d, secs], nanos) = fields::<2>(lines.next()?)?;
    let digest = u64::from_str_radix(d.to_str().ok()?, 16).ok()?;
    let mut content = Content {
        started: (number(secs)? as i64, u32::try_from(number(nanos)?).ok()?),
        ..Content::default()
    };
    let id = |hex: &[u8]| ObjectId::from_hex(hex).ok().filter(|id| id.kind() == hash);
    // The listing the `s` lines that follow a `w` line belong to.
    let mut listing_open: Option<BString> = None;
    for line in lines {
        if line.is_empty() {
            continue;
        }
        if let Some(hex) = line.strip_prefix(b"index ") {
            content.index = Some(id(hex)?);
            continue;
        }
        if let Some(token) = line.strip_prefix(b"m ") {
            content.monitor = Some(Token {
                token: token.into(),
                dirty: Vec::new(),
                content: 0,
            });
            continue;
        }
        if let Some(hex) = line.strip_prefix(b"n ") {
            content.monitor.as_mut()?.content = u64::from_str_radix(hex.to_str().ok()?, 16).ok()?;
            continue;
        }
        if let Some(path) = line.strip_prefix(b"v ") {
            content.monitor.as_mut()?.dirty.push(path.into());
            continue;
        }
        if let Some(rest) = line.strip_prefix(b"holder ") {
            let ([hex], name) = fields::<1>(rest)?;
            content.holder = Some((name.into(), id(hex)?));
            continue;
        }
        let (kind, rest) = line.split_first()?;
        let rest = rest.strip_prefix(b" ")?;
        match kind {
            b'f' => {
                // One pass over the numbers (splitting at each space first was most of the
                // parse): a cache names tens of thousands of files.
                let ([hex], rest) = fields::<1>(rest)?;
                let ([mode, size, ms, mn, cs, cn, ino], path) = numbers::<7>(rest)?;
                let stamp = Stamp {
                    size,
                    mtime: (ms as i64, u32::try_from(mn).ok()?),
                    ctime: (cs as i64, u32::try_from(cn).ok()?),
                    ino,
                };
                let kind = kind_of(u32::try_from(mode).ok()?)?;
                let entry = (stamp, kind, id(hex)?);
                // The path where it is in the text (the file is kept as read: no copy of each).
                let start = path.as_ptr() as usize - data.as_ptr() as usize;
                found.push((start..start + path.len(), entry));
            }
            b'd' => {
                let ([hex, count], dir) = fields::<2>(rest)?;
                content.dirs.insert(dir.into(), (id(hex)?, number(count)?));
            }
            b't' => {
                let ([hex], dir) = fields::<1>(rest)?;
                content.index_trees.insert(dir.into(), id(hex)?);
            }
            b'x' => {
                content.walk_key = Some(u64::from_str_radix(rest.to_str().ok()?, 16).ok()?);
            }
            b'g' => {
                let (f, dir) = fields::<7>(rest)?;
                content.ignores.insert(dir.into(), optional_stamp_of(&f)?);
            }
            b'w' => {
                let ([start, count, kind], dir) = fields::<3>(rest)?;
                let listing = Listing {
                    start: usize::try_from(number(start)?).ok()?,
                    count: usize::try_from(number(count)?).ok()?,
                    tracked: match kind {
                        b"t" => true,
                        b"u" => false,
                        _ => return None,
                    },
                    dirs: Vec::new(),
                };
                content.listings.insert(dir.into(), listing);
                listing_open = Some(BString::from(dir));
            }
            b's' => {
                let (f, sub) = fields::<13>(rest)?;
                let stamps = (stamp_of(&f[..6])?, optional_stamp_of(&f[6..])?);
                let dir = listing_open.as_ref()?;
                content
                    .listings
                    .get_mut(dir.as_bstr())?
                    .dirs
                    .push((sub.into(), stamps));
            }
            _ => return None,
        }
    }
    content.files = std::sync::Arc::new(Files::of_text(text, found)?);
    Some((digest, content))
}

fn mode_of(kind: EntryKind) -> u32 {
    match kind {
        EntryKind::Blob => 100644,
        EntryKind::BlobExecutable => 100755,
        EntryKind::Link => 120000,
        EntryKind::Commit => 160000,
        EntryKind::Tree => 40000,
    }
}

fn kind_of(mode: u32) -> Option<EntryKind> {
    Some(match mode {
        100644 => EntryKind::Blob,
        100755 => EntryKind::BlobExecutable,
        120000 => EntryKind::Link,
        _ => return None,
    })
}

/// The `core` and `filter` sections of every configuration file, as written: the settings that
/// change how a file is hashed into a blob (and, for `core.excludesFile`, what is ignored).
pub fn hashing_settings(repo: &gix::Repository) -> Vec<Vec<u8>> {
    let config = repo.config_snapshot();
    let mut out = Vec::new();
    for name in ["core", "filter"] {
        if let Some(sections) = config.plumbing().sections_by_name(name) {
            // A section left with nothing else (`-c core.fsmonitor=false`, or
            // `GIT_CONFIG_COUNT`, make one of its own) is as if it were not there.
            out.extend(
                sections
                    .map(|section| without_monitor(&section.to_bstring()))
                    .filter(|text| text.lines().skip(1).any(|line| !line.trim().is_empty())),
            );
        }
    }
    out
}

/// A configuration section's text without the settings of a file-system monitor
/// (`core.fsmonitor`, `core.fsmonitorHookVersion`, `core.untrackedCache`): they change how
/// changes are found, never what a file hashes to or what is ignored, so turning a monitor on
/// or off keeps the stat cache. Nor `core.logAllRefUpdates`, which this tool sets for itself
/// (in the repository's section, or in the one `-c` makes when there is one).
fn without_monitor(section: &[u8]) -> Vec<u8> {
    let names_monitor = |line: &[u8]| {
        let key = line.trim_start().to_ascii_lowercase();
        let name_end = key
            .iter()
            .position(|b| !b.is_ascii_alphanumeric() && *b != b'-')
            .unwrap_or(key.len());
        matches!(
            &key[..name_end],
            b"fsmonitor" | b"fsmonitorhookversion" | b"untrackedcache" | b"logallrefupdates"
        )
    };
    section
        .lines_with_terminator()
        .filter(|line| !names_monitor(line))
        .flatten()
        .copied()
        .collect()
}

/// Where git reads its global `ignore` and `attributes` files: `$XDG_CONFIG_HOME/git`, else
/// `~/.config/git`.
pub fn git_config_home() -> Option<std::path::PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config")))
        .map(|home| home.join("git"))
}

/// FNV-1a, to fingerprint the settings that change how files are hashed.
pub fn digest(parts: &[&[u8]]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for part in parts {
        for byte in part.iter().chain(b"\0") {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entry of the `n`th file in these tests.
    fn entry(n: u64) -> FileEntry {
        let stamp = Stamp {
            size: n,
            mtime: (10, 5),
            ctime: (11, 6),
            ino: n,
        };
        (
            stamp,
            EntryKind::Blob,
            ObjectId::empty_blob(gix::hash::Kind::Sha1),
        )
    }

    /// `paths` as a cache file's text holds them, the `n`th with [`entry`]`(n)`.
    fn files_of(paths: &[impl AsRef<str>]) -> Option<Files> {
        let text = paths
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<&str>>()
            .join("\n")
            .into_bytes();
        let mut entries = Vec::new();
        let mut start = 0;
        for (n, path) in paths.iter().enumerate() {
            let len = path.as_ref().len();
            entries.push((start..start + len, entry(n as u64)));
            start += len + 1;
        }
        Files::of_text(text, entries)
    }

    /// A cache to be written at `path`, with nothing in it yet.
    fn pending_at(path: std::path::PathBuf, index: Option<ObjectId>) -> Pending {
        Pending {
            path,
            digest: 7,
            started: Some((100, 9)),
            index,
            index_trees: PathMap::default(),
            dirs: Vec::new(),
            files: Files::default(),
            mirror: None,
            mirrored: 0,
            hits: 0,
            old_files: 0,
            old_started: (0, 0),
            old_held: false,
            old_dirs: PathMap::default(),
            old_index: None,
            old_index_trees: PathMap::default(),
            old_holder: None,
            walk_key: None,
            listings: Vec::new(),
            first_untracked: 0,
            ignores: PathMap::default(),
            monitor: (None, Vec::new(), None, false),
            old_monitor: None,
            old_walk_key: None,
            old_listings: PathMap::default(),
            old_ignores: PathMap::default(),
        }
    }

    #[test]
    fn turning_a_monitor_on_or_off_keeps_how_files_hash() {
        let on = b"[core]\n\tfilemode = true\n\tfsmonitor = .git/hooks/query-watchman\n\tFSMonitorHookVersion = 2\n\tuntrackedCache = true\n";
        let off = b"[core]\n\tfilemode = true\n";
        assert_eq!(without_monitor(on), without_monitor(off));
        let other = b"[core]\n\tfilemode = false\n\tfsmonitor = x\n";
        assert_ne!(without_monitor(other), without_monitor(off));
        // A section that holds nothing else is as if it were not there.
        let alone = without_monitor(b"[core]\n\tfsmonitor = false\n");
        assert!(!alone.lines().skip(1).any(|l| !l.trim().is_empty()));
        // A key that only begins like one of them is kept.
        let longer = b"[core]\n\tfilemode = true\n\tfsmonitorish = 1\n";
        assert_ne!(without_monitor(longer), without_monitor(off));
    }

    #[test]
    fn untracked_stamps_are_found_by_path() {
        let id = ObjectId::empty_blob(gix::hash::Kind::Sha1);
        let stamp = |n: u64| Stamp {
            size: n,
            mtime: (10, 5),
            ctime: (11, 6),
            ino: n,
        };
        let mut pending = pending_at(std::path::PathBuf::from("unused"), None);
        assert_eq!(pending.untracked_stamp(b"a".as_bstr()), None);
        // A tracked file edited but not staged comes first; it is not an untracked one.
        pending.file(b"m/tracked".as_bstr(), stamp(1), EntryKind::Blob, id, false);
        pending.untracked_start();
        let paths = ["a", "a b/c", "a/b", "a/b/c", "z"];
        for (n, path) in paths.iter().enumerate() {
            pending.file(
                path.as_bytes().as_bstr(),
                stamp(n as u64 + 10),
                EntryKind::Blob,
                id,
                true,
            );
        }
        for (n, path) in paths.iter().enumerate() {
            assert_eq!(
                pending.untracked_stamp(path.as_bytes().as_bstr()),
                Some(stamp(n as u64 + 10)),
                "{path}"
            );
        }
        for absent in ["", "a/", "a/b/", "b", "m/tracked", "zz"] {
            assert_eq!(
                pending.untracked_stamp(absent.as_bytes().as_bstr()),
                None,
                "{absent}"
            );
        }
    }

    /// A save that finds the old cache's files again, in order, does not copy them; one that
    /// finds something else, or fewer, remembers exactly what it found.
    #[test]
    fn files_found_as_the_old_cache_has_them_are_not_copied() {
        let Some(old) = files_of(&["a", "b/c", "d"]) else {
            unreachable!("no path is there twice")
        };
        let old = std::sync::Arc::new(old);
        let found = |remembered: &[(&str, u64)]| {
            let mut pending = pending_at(std::path::PathBuf::from("unused"), None);
            pending.mirror = Some(old.clone());
            pending.untracked_start();
            for (path, n) in remembered {
                let (stamp, kind, id) = entry(*n);
                pending.file(path.as_bytes().as_bstr(), stamp, kind, id, true);
            }
            pending.settle();
            pending
        };
        let all = |pending: &Pending| -> Vec<(String, u64)> {
            pending
                .all_files()
                .iter()
                .map(|(path, (stamp, _, _))| (path.to_string(), stamp.size))
                .collect()
        };
        let same = found(&[("a", 0), ("b/c", 1), ("d", 2)]);
        assert!(std::ptr::eq(same.all_files(), &*old), "not copied");
        assert_eq!(same.untracked_stamp(b"b/c".as_bstr()), Some(entry(1).0));
        let changed = found(&[("a", 0), ("b/c", 5), ("d", 2)]);
        assert_eq!(
            all(&changed),
            [("a".into(), 0), ("b/c".into(), 5), ("d".into(), 2)]
        );
        assert_eq!(changed.untracked_stamp(b"b/c".as_bstr()), Some(entry(5).0));
        let fewer = found(&[("a", 0), ("b/c", 1)]);
        assert_eq!(all(&fewer), [("a".into(), 0), ("b/c".into(), 1)]);
        assert_eq!(fewer.untracked_stamp(b"d".as_bstr()), None);
        let more = found(&[("a", 0), ("b/c", 1), ("d", 2), ("e", 3)]);
        assert_eq!(all(&more).len(), 4);
    }

    #[test]
    fn round_trip_and_digest_mismatch() {
        let id = ObjectId::empty_blob(gix::hash::Kind::Sha1);
        let tree = ObjectId::empty_tree(gix::hash::Kind::Sha1);
        let stamp = Stamp {
            size: 3,
            mtime: (10, 5),
            ctime: (11, 6),
            ino: 42,
        };
        let dir = tempfile::tempdir();
        let Ok(dir) = dir else { return };
        let mut pending = pending_at(dir.path().join(FILE), Some(id));
        pending.file(
            b"a b/c".as_bstr(),
            stamp,
            EntryKind::BlobExecutable,
            id,
            false,
        );
        pending.dir("a b".into(), tree, 1);
        pending.index_tree("".into(), tree);
        pending.walk_key(5);
        let dirs = vec![("a b".into(), (stamp, None))];
        pending.listing("a b".into(), false, dirs.clone());
        pending.ignore("".into(), Some(stamp));
        // A tracked directory without untracked files: an empty listing.
        let empty = vec![("empty".into(), (stamp, Some(stamp)))];
        pending.listing("empty".into(), true, empty.clone());
        let path = pending.path.clone();
        pending.store(Some(("refs/checkpoints/x y", tree)));
        let data = std::fs::read(&path).unwrap_or_default();
        let sha1 = gix::hash::Kind::Sha1;
        let Some(content) = parse(&data, 7, sha1) else {
            unreachable!("cache did not parse")
        };
        assert_eq!(content.started, (100, 9));
        assert_eq!(
            content
                .files
                .position(b"a b/c".as_bstr())
                .and_then(|at| content.files.get(at)),
            Some((b"a b/c".as_bstr(), &(stamp, EntryKind::BlobExecutable, id)))
        );
        assert_eq!(content.dirs.get(b"a b".as_bstr()), Some(&(tree, 1)));
        assert_eq!(content.index_trees.get(b"".as_bstr()), Some(&tree));
        assert_eq!(content.index, Some(id));
        assert_eq!(content.holder, Some(("refs/checkpoints/x y".into(), tree)));
        assert_eq!(content.walk_key, Some(5));
        assert_eq!(
            content.listings.get(b"a b".as_bstr()),
            Some(&Listing {
                start: 0,
                count: 1,
                tracked: false,
                dirs
            })
        );
        assert_eq!(
            content.listings.get(b"empty".as_bstr()),
            Some(&Listing {
                start: 0,
                count: 0,
                tracked: true,
                dirs: empty
            })
        );
        assert_eq!(content.ignores.get(b"".as_bstr()), Some(&Some(stamp)));
        assert!(parse(&data, 8, sha1).is_none(), "another digest");
        assert!(parse(b"garbage", 7, sha1).is_none());
        assert!(
            parse(&data, 7, gix::hash::Kind::Sha256).is_none(),
            "ids of another object format"
        );
        let mut damaged = data.clone();
        damaged.extend_from_slice(b"f 12 nonsense\n");
        assert!(parse(&damaged, 7, sha1).is_none(), "a damaged line");
        assert_ne!(digest(&[b"a", b"b"]), digest(&[b"ab"]));
    }

    /// The table of a cache file's paths finds each path at its position and no path it
    /// lacks; a path twice makes the file damaged.
    #[test]
    fn files_read_from_text_are_found_by_path() {
        let mut paths: Vec<String> = (0..5000)
            .map(|n| format!("d{}/f{n}.txt", n % 7))
            .chain(["".into(), "a".into()])
            .collect();
        let Some(files) = files_of(&paths) else {
            unreachable!("no path is there twice")
        };
        assert_eq!(files.len(), paths.len());
        for (n, path) in paths.iter().enumerate() {
            let path = path.as_bytes().as_bstr();
            assert_eq!(files.position(path), Some(n), "{path:?}");
            assert_eq!(files.get(n), Some((path, &entry(n as u64))));
        }
        for absent in ["d0", "d0/f0.tx", "d0/f0.txt/", "b", "d0/f1.txt"] {
            assert_eq!(files.position(absent.as_bytes().as_bstr()), None);
        }
        paths.push("d0/f7.txt".into());
        assert!(files_of(&paths).is_none(), "a path twice");
        // Tracked files first, then untracked ones in path order, as a save writes them: each
        // is found, in either part; a path in both parts is a path twice.
        let written: Vec<String> = ["z", "m", "a", "b", "c"].map(String::from).to_vec();
        let Some(files) = files_of(&written) else {
            unreachable!("no path is there twice")
        };
        for (n, path) in written.iter().enumerate() {
            assert_eq!(files.position(path.as_bytes().as_bstr()), Some(n), "{path}");
        }
        assert_eq!(files.position(b"n".as_bstr()), None);
        let twice: Vec<String> = ["b", "a", "b", "c"].map(String::from).to_vec();
        assert!(files_of(&twice).is_none(), "a path in both parts");
        // Files added one by one are found by position only.
        let mut pushed = Files::with_capacity(1);
        pushed.push(b"x/y".as_bstr(), entry(1));
        pushed.push(b"z".as_bstr(), entry(2));
        assert_eq!(pushed.get(1), Some((b"z".as_bstr(), &entry(2))));
        assert_eq!(pushed.position(b"z".as_bstr()), None);
        let all: Vec<&BStr> = pushed.iter().map(|(path, _)| path).collect();
        assert_eq!(all, [b"x/y".as_bstr(), b"z".as_bstr()]);
    }

    #[test]
    fn settled_means_changed_in_an_earlier_second_than_the_moment() {
        let stamp = Stamp {
            size: 1,
            mtime: (10, 0),
            ctime: (10, 500),
            ino: 1,
        };
        assert!(stamp.settled_before((11, 0)));
        assert!(
            !stamp.settled_before((10, 999_999_999)),
            "same second: racy"
        );
        assert!(!stamp.settled_before((10, 500)), "same instant: racy");
        assert!(!stamp.settled_before((9, 999)));
    }
}
