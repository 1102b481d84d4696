//! Stages 6 to 8 of a capture: the stat cache checked against how files are hashed now, then
//! the tracked files that changed and the untracked files, each from the cache or hashed.

use std::collections::{BTreeMap, HashMap};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::dir::entry::Kind as DiskKind;
use gix::index::entry::{Flags, Mode, Stage};
use gix::objs::tree::EntryKind;

use super::classify::{Action, Actions};
use super::listing::stamp_bytes;
use super::monitor::Monitor;
use super::probe::{DirHandles, Looked, LookedKind, Parts, Probe, probe_all, probe_one};
use super::trees::Tally;
use super::{
    Blob, Env, base_entry, gitlink_like_git, index_kind, owner_may_execute, worktree_path,
};
use crate::control::Control;
use crate::error::{Context, Error, Result};
use crate::format::{SKIP_EMBEDDED_NO_COMMIT, SKIP_TOO_LARGE, Skipped};
use crate::statcache::{self, PathMap, Pending, Stamp, StatCache};

/// Stage 6: what hashing needs and what it leaves beside the overrides: the hasher, the stat
/// cache (used only when written under the same [`hashing_digest`]) and the one this capture
/// leaves, the stamps of the files hashed, the paths left out.
pub(super) struct Hashing<'a, 'repo> {
    pub hasher: Hasher<'a, 'repo>,
    pub cache: Option<StatCache>,
    pub pending: Option<Pending>,
    /// The stamp each hashed file had just before it was hashed, by its path in the snapshot
    /// (see `Snapshot::proves_unchanged`); kept in the stat cache instead when `in_cache`.
    pub stamps: PathMap<Stamp>,
    /// The stat cache this save leaves keeps the stamps of untracked files, in path order,
    /// except where the stand-in needs them by path or paths are respelled.
    stamps_in_cache: bool,
    pub skipped: Vec<Skipped>,
}

impl<'a, 'repo> Hashing<'a, 'repo> {
    /// `same_content`: the index was rewritten since the stat cache, tracking the same.
    pub(super) fn new(
        env: &'a Env<'repo>,
        index: &'a gix::index::State,
        read: Option<statcache::Read>,
        untracked: &[(BString, DiskKind)],
        same_content: bool,
    ) -> Hashing<'a, 'repo> {
        let repo = env.repo;
        let hasher = Hasher {
            pipeline: None,
            repo,
            index,
            workdir: &env.workdir,
            trust_exec_bit: env.caps.executable_bit,
            has_symlinks: env.caps.symlink,
        };
        let cache = env.options.stat_cache.then(|| {
            let digest = hashing_digest(repo, index, untracked);
            StatCache::of_read(
                repo,
                read,
                digest,
                env.started(),
                env.index_id,
                same_content,
            )
        });
        let pending = cache.as_ref().map(StatCache::pending);
        let stamps_in_cache =
            pending.is_some() && env.options.stand_in.is_none() && !env.caps.ignore_case;
        let mut stamps = PathMap::default();
        if !stamps_in_cache {
            stamps.reserve(untracked.len());
        }
        Hashing {
            hasher,
            cache,
            pending,
            stamps,
            stamps_in_cache,
            skipped: Vec::new(),
        }
    }
}

/// A stat-cache entry (see [`StatCache::file_stamped`]) as a save may use it: one whose holder
/// is gone only if its object is still there.
fn usable(repo: &gix::Repository, cached: Option<(EntryKind, ObjectId, bool)>) -> Option<Blob> {
    cached
        .filter(|(_, id, held)| *held || repo.has_object(id))
        .map(|(kind, id, _)| (kind, id))
}

/// What stage 7 found of the tracked files.
#[derive(Default)]
pub(super) struct Tracked {
    /// Where the snapshot differs from the index: new content, or `None` for a path it lacks.
    pub overrides: BTreeMap<BString, Option<Blob>>,
    /// Whether the index has unmerged entries.
    pub unmerged: bool,
}

impl Tracked {
    /// The tracked paths that differ from the index in the snapshot (among them files whose
    /// mode only git's reading changes): with those the status found, what a monitor's token
    /// is kept relative to.
    pub(super) fn dirty(&self) -> impl Iterator<Item = &BString> {
        self.overrides.keys()
    }
}

/// Stage 7: the tracked files, hashed where the status found them changed (`actions`), and
/// what `git add -A` does beyond that (unmerged paths, gitlinks, intent-to-add entries,
/// `checkpoint.exclude`, the owner's execute bit). `checked`: the tracked paths the status
/// compared when a monitor left the others alone (sorted), `None` for all.
pub(super) fn hash_tracked(
    env: &Env<'_>,
    index: &gix::index::State,
    actions: &Actions<'_>,
    checked: Option<&[BString]>,
    hashing: &mut Hashing<'_, '_>,
    ctl: &Control<'_>,
) -> Result<Tracked> {
    let mut out = Tracked::default();
    let loaded = matches!(env.options.stand_in, Some(crate::standin::Mode::Loaded(_)));
    let to_rehash = actions.values().filter(|a| **a == Action::Rehash).count();
    let mut rehashed = 0;
    let entries = index.entries();
    let mut i = 0;
    while i < entries.len() {
        let entry = &entries[i];
        let path = entry.path(index);
        i += 1;
        if entry.stage() != Stage::Unconflicted {
            out.unmerged = true;
            // `git add -A` resolves a conflicted path to what the working tree holds.
            let (ours, next) = ours_of(index, i - 1);
            i = next;
            let found = hashing.hasher.hash(path, ours)?;
            out.overrides.insert(path.to_owned(), found);
            continue;
        }
        let base = base_entry(entry);
        // A loaded stand-in holds nothing the same patterns exclude (they are in its key).
        if env.rules.excludes_any() && !loaded && env.rules.excluded(path, false) {
            // `checkpoint.exclude`: left out even when tracked.
            if base.is_some() {
                out.overrides.insert(path.to_owned(), None);
            }
            continue;
        }
        let new = if entry.mode.is_submodule() {
            gitlink(env, &mut hashing.hasher, path, entry.mode, base)?
        } else {
            match actions.get(path) {
                Some(Action::Remove) => None,
                Some(Action::Rehash) => {
                    rehashed += 1;
                    ctl.report("hashing changed files", rehashed, to_rehash);
                    ctl.check()?;
                    match rehash(env, hashing, path, entry.mode)? {
                        Some(found) => found,
                        // Too large: left out.
                        None if base.is_some() => {
                            out.overrides.insert(path.to_owned(), None);
                            continue;
                        }
                        None => continue,
                    }
                }
                None if entry.flags.contains(Flags::INTENT_TO_ADD) => {
                    hashing.hasher.hash(path, None)?
                }
                // git reads only the owner's execute bit, gix's status any of the three: an
                // executable that only its group or others may run now is a plain file to git.
                // (A monitor's dirty set holds every file found so before.)
                None if entry.mode == Mode::FILE_EXECUTABLE
                    && hashing.hasher.trust_exec_bit
                    && checked
                        .is_none_or(|c| c.binary_search_by(|p| p.as_bstr().cmp(path)).is_ok()) =>
                {
                    match std::fs::symlink_metadata(worktree_path(&env.workdir, path)?) {
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
            out.overrides.insert(path.to_owned(), new);
        }
    }
    Ok(out)
}

/// The mode of stage 2 ("ours") among the unmerged entries of the path at `at`, and where the
/// next path's entries begin (those of one path are adjacent).
fn ours_of(index: &gix::index::State, at: usize) -> (Option<Mode>, usize) {
    let entries = index.entries();
    let path = entries[at].path(index);
    let mut ours = None;
    let mut j = at;
    while j < entries.len() && entries[j].path(index) == path {
        if entries[j].stage() == Stage::Ours {
            ours = Some(entries[j].mode);
        }
        j += 1;
    }
    (ours, j)
}

/// What a gitlink becomes: the submodule's checked-out commit, whatever the stat says.
fn gitlink(
    env: &Env<'_>,
    hasher: &mut Hasher<'_, '_>,
    path: &BStr,
    mode: Mode,
    base: Option<Blob>,
) -> Result<Option<Blob>> {
    Ok(match hasher.hash(path, Some(mode))? {
        Some(found) => Some(found),
        // An uninitialised submodule: its directory is empty, the gitlink stays.
        None if worktree_path(&env.workdir, path)?.exists() => base,
        None => None,
    })
}

/// A tracked file the status found changed, hashed (or taken from the stat cache, which keeps
/// tracked files edited but not staged as it does untracked ones, where the file system alone
/// decides their mode). `Ok(None)`: too large for a plain directory's save, left out.
fn rehash(
    env: &Env<'_>,
    hashing: &mut Hashing<'_, '_>,
    path: &BStr,
    mode: Mode,
) -> Result<Option<Option<Blob>>> {
    let tracked_in_cache = env.caps.executable_bit && env.caps.symlink;
    let mut stamp = None;
    if (env.started().is_some() || env.options.stand_in.is_some())
        && let Ok(md) = std::fs::symlink_metadata(worktree_path(&env.workdir, path)?)
    {
        let found = Stamp::of(&md);
        stamp = Some(found);
        hashing.stamps.insert(path.to_owned(), found);
        // In a plain directory every file is untracked: the size guard holds for the files
        // the stand-in names too.
        if env.options.stand_in.is_some()
            && md.is_file()
            && md.len() > env.options.capture.max_file_size
        {
            hashing.skipped.push(Skipped {
                path: path.to_string(),
                reason: SKIP_TOO_LARGE.into(),
                size: Some(md.len()),
            });
            return Ok(None);
        }
    }
    let stamp = stamp.filter(|_| tracked_in_cache);
    let repo = env.repo;
    let cached = stamp
        .zip(hashing.cache.as_ref())
        .and_then(|(stamp, cache)| usable(repo, cache.file_stamped(path, stamp)));
    let found = match cached {
        Some(found) => Some(found),
        None => hashing.hasher.hash(path, Some(mode))?,
    };
    if let (Some(stamp), Some((kind, id)), Some(pending)) = (stamp, found, hashing.pending.as_mut())
    {
        pending.file(path, stamp, kind, id, cached.is_some());
    }
    Ok(Some(found))
}

/// The input of stage 8: the untracked entries (in path order), which of them came from a
/// listing, and what the stat cache's files looked like during the walk.
pub(super) struct Untracked {
    pub paths: Vec<(BString, DiskKind)>,
    pub listed: Vec<bool>,
    pub looks: Option<Parts<Option<Looked>>>,
}

/// What stage 8 found of the untracked entries.
pub(super) struct Added<'index> {
    /// The untracked files of the snapshot (their paths respelled under `core.ignoreCase`).
    pub files: Vec<(BString, Option<Blob>)>,
    /// Untracked entries a listing cannot hold (not a file or symlink of the snapshot).
    pub others: Vec<BString>,
    /// The untracked directories and what was found below each (not with `core.ignoreCase`).
    pub tally: Option<Tally<'index>>,
    /// With `core.ignoreCase`: the snapshot's path of each file spelled otherwise on disk.
    pub respelled: BTreeMap<BString, BString>,
}

/// Stage 8: the untracked files, each from the stat cache when its stamp is unchanged (or the
/// monitor did not report it) or hashed, counted in the untracked directories above it.
/// `None` when a file of a directory that was not walked is not as its listing says.
pub(super) fn hash_untracked<'index>(
    env: &Env<'_>,
    index: &'index gix::index::State,
    untracked: Untracked,
    monitor: &Monitor,
    hashing: &mut Hashing<'_, '_>,
    ctl: &Control<'_>,
) -> Result<Option<Added<'index>>> {
    let Untracked {
        paths,
        listed,
        looks,
    } = untracked;
    if let Some(pending) = hashing.pending.as_mut() {
        pending.untracked_start();
    }
    let mut pass = Pass {
        added: Added {
            files: Vec::with_capacity(paths.len()),
            others: Vec::new(),
            // Untracked directories (no tracked file below them), to reuse the trees of those
            // whose files are all unchanged; not with `core.ignoreCase`, where paths are
            // respelled.
            tally: (!env.caps.ignore_case).then(|| Tally::new(index)),
            respelled: BTreeMap::new(),
        },
        // `core.ignoreCase`: new files go into the directories the index knows, in its
        // spelling, added in the order git adds them.
        dir_case: env.caps.ignore_case.then(|| DirCase::new(index)),
    };
    let total = paths.len();
    // The stat of every untracked file and its stat-cache entry, on every core: the one cost
    // a save pays per untracked file when nothing changed.
    let probes = probe_all(
        &env.workdir,
        &paths,
        hashing.cache.as_ref().zip(looks.as_ref()),
        monitor.changed(),
        ctl.flag(),
    );
    for (done, ((path, disk_kind), probe)) in paths.into_iter().zip(probes.into_iter()).enumerate()
    {
        ctl.report("hashing untracked files", done + 1, total);
        ctl.check()?;
        let listed = listed.get(done).copied().unwrap_or(false);
        match disk_kind {
            DiskKind::File | DiskKind::Symlink => {
                let file = UntrackedFile {
                    path,
                    symlink: disk_kind == DiskKind::Symlink,
                    listed,
                };
                if !pass.file(env, hashing, file, probe)? {
                    return Ok(None);
                }
            }
            DiskKind::Repository => {
                pass.count(path.as_bstr(), None);
                match hashing.hasher.hash(path.as_bstr(), None)? {
                    Some(found) => {
                        let path = pass.fold(path);
                        pass.added.files.push((path, Some(found)));
                    }
                    None => hashing.skipped.push(Skipped {
                        path: path.to_string(),
                        reason: SKIP_EMBEDDED_NO_COMMIT.into(),
                        size: None,
                    }),
                }
            }
            DiskKind::Directory | DiskKind::Untrackable => {
                pass.count(path.as_bstr(), None);
            }
        }
    }
    if let Some(tally) = pass.added.tally.as_mut() {
        tally.finish();
    }
    Ok(Some(pass.added))
}

/// An untracked file or symlink the walk (or a listing: `listed`) found.
struct UntrackedFile {
    path: BString,
    symlink: bool,
    listed: bool,
}

/// Stage 8 under way: what it found so far.
struct Pass<'index> {
    added: Added<'index>,
    dir_case: Option<DirCase>,
}

impl Pass<'_> {
    /// Count the untracked `path` in the untracked directories above it (`Some(hit)`: a file
    /// or symlink of the snapshot); anything else is also one no listing can hold.
    fn count(&mut self, path: &BStr, found: Option<bool>) {
        if let Some(tally) = self.added.tally.as_mut() {
            tally.count(path, found);
        }
        if found.is_none() {
            self.added.others.push(path.to_owned());
        }
    }

    /// `path` in the spelling of the directories the index knows (`core.ignoreCase`).
    fn fold(&mut self, path: BString) -> BString {
        match self.dir_case.as_mut() {
            Some(dir_case) => {
                let folded = dir_case.fold(path.clone());
                if folded != path {
                    self.added.respelled.insert(folded.clone(), path);
                }
                folded
            }
            None => path,
        }
    }

    /// Take one untracked file; `false` when it came from a listing and is not as listed.
    fn file(
        &mut self,
        env: &Env<'_>,
        hashing: &mut Hashing<'_, '_>,
        file: UntrackedFile,
        probe: Probe,
    ) -> Result<bool> {
        let path = file.path;
        let probe = match probe {
            Probe::Unprobed => probe_one(
                &mut DirHandles::default(),
                &env.workdir,
                path.as_bstr(),
                hashing.cache.as_ref(),
            )?,
            probe => probe,
        };
        // A file of a directory that was not walked must still be the file or symlink
        // listed: if not, the listing was wrong (a file system that did not change the
        // directory's times), and everything is walked again.
        if file.listed {
            let as_listed = match &probe {
                Probe::Found { looked, .. } => {
                    looked.kind != LookedKind::Other
                        && (looked.kind == LookedKind::Symlink) == file.symlink
                }
                _ => false,
            };
            if !as_listed {
                return Ok(false);
            }
        }
        let (Looked { stamp, len, kind }, cached) = match probe {
            Probe::Found { looked, cached } => (looked, cached),
            // Gone since the walk: nothing to save.
            Probe::Gone | Probe::Unprobed => return Ok(true),
            Probe::Failed(source) => {
                return Err(Error::UnreadableFile {
                    path: path.to_string(),
                    source,
                });
            }
        };
        if kind == LookedKind::File && len > env.options.capture.max_file_size {
            self.count(path.as_bstr(), None);
            hashing.skipped.push(Skipped {
                path: path.to_string(),
                reason: SKIP_TOO_LARGE.into(),
                size: Some(len),
            });
            return Ok(true);
        }
        let cached = usable(env.repo, cached);
        let found = match cached {
            Some(found) => Some(found),
            None => hashing.hasher.hash(path.as_bstr(), None)?,
        };
        self.count(path.as_bstr(), found.map(|_| cached.is_some()));
        if let Some((kind, id)) = found {
            if let Some(pending) = hashing.pending.as_mut() {
                pending.file(path.as_bstr(), stamp, kind, id, cached.is_some());
            }
            let path = self.fold(path);
            if env.started().is_some() && !hashing.stamps_in_cache {
                hashing.stamps.insert(path.clone(), stamp);
            }
            self.added.files.push((path, Some((kind, id))));
        }
        Ok(true)
    }
}

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

/// The spelling of directories for `core.ignoreCase`, as git's name hash keeps it: a new file
/// whose directory the index already holds in another case (`docs/b.md` next to a tracked
/// `Docs/a.md`) is added in the index's spelling (`Docs/b.md`), directory by directory
/// (`adjust_dirname_case`). The first spelling of a directory, in index order and then in the
/// order files are added, is the one kept. Case is folded as git folds it, ASCII only.
pub(super) struct DirCase {
    /// Directory paths, lowercased, and their spelling.
    dirs: HashMap<BString, BString>,
}

impl DirCase {
    pub(super) fn new(index: &gix::index::State) -> DirCase {
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
    pub(super) fn fold(&mut self, mut path: BString) -> BString {
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

/// Hashes working-tree files into blobs the way `git add` does.
pub(super) struct Hasher<'a, 'repo> {
    /// Set up at the first file that must be hashed: reading every attributes file the
    /// index names costs as much as a save with nothing to hash (12 M instructions at 100,000
    /// files).
    pipeline: Option<gix::filter::Pipeline<'repo>>,
    repo: &'repo gix::Repository,
    index: &'a gix::index::State,
    workdir: &'a std::path::Path,
    pub trust_exec_bit: bool,
    has_symlinks: bool,
}

impl Hasher<'_, '_> {
    /// Hash `path` as `git add` would, given the mode its index entry had (if any). `None` when
    /// there is nothing to record (the file is gone, or is a repository without a commit).
    pub(super) fn hash(
        &mut self,
        path: &BStr,
        old: Option<Mode>,
    ) -> Result<Option<(EntryKind, ObjectId)>> {
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
