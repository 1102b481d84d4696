//! Stages 2 and 3 of a capture: how the working tree is walked, then git's status in process,
//! the index compared with the files beside the walk of the untracked ones.

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::dir::entry::{Kind as DiskKind, Status as DirStatus};
use gix::index::entry::Flags;
use gix::status::plumbing::index_as_worktree::EntryStatus;

use super::Env;
use super::listing::{Skip, Skipper, walk_key};
use super::monitor::Monitor;
use super::probe::{Looked, Parts, look_all};
use crate::control::Control;
use crate::error::{Error, Result};
use crate::statcache::{self, Stamp};

/// Stage 2: how the working tree is walked, and the directories the stat cache's listings let
/// the walk skip.
pub(super) struct WalkPlan<'a> {
    dirwalk: gix::dirwalk::Options,
    skipper: Option<Skipper<'a>>,
    /// Where the stat cache goes to the skipper once read.
    cache_tx: std::sync::mpsc::SyncSender<Option<std::sync::Arc<statcache::Read>>>,
}

impl<'a> WalkPlan<'a> {
    /// `listings`: the stat cache's listings may be used.
    pub(super) fn new(
        env: &'a Env<'_>,
        index: &gix::index::State,
        listings: bool,
        monitor: &'a Monitor,
    ) -> Result<WalkPlan<'a>> {
        let rules = &env.rules;
        let dirwalk = env
            .repo
            .dirwalk_options()
            .map_err(|e| Error::Git {
                context: "cannot configure the directory walk".into(),
                source: Box::new(e),
            })?
            .emit_untracked(gix::dir::walk::EmissionMode::Matching)
            // With include patterns, ignored files and directories are listed (not entered) to
            // look for what the patterns capture.
            // So are they for a plain directory's stand-in, which must know every ignore file.
            .emit_ignored(
                (rules.includes_any() || env.options.stand_in.is_some())
                    .then_some(gix::dir::walk::EmissionMode::CollapseDirectory),
            )
            .emit_pruned(false)
            .emit_empty_directories(false)
            .recurse_repositories(false);
        // Directories whose listing the stat cache keeps need not be walked, where the walk
        // emits each file as it is found (no collapsing, no respelling) and the directories'
        // times are kept by the file system; not with a sparse index (`.gitignore` files read
        // from the index).
        let (cache_tx, cache_rx) = std::sync::mpsc::sync_channel(1);
        let skipper = (listings
            && env.moment.is_some_and(|(_, dirs_kept)| dirs_kept)
            && env.options.stand_in.is_none()
            && !rules.includes_any()
            && !env.caps.ignore_case
            && !index.is_sparse()
            && !index
                .entries()
                .iter()
                .any(|e| e.flags.contains(Flags::SKIP_WORKTREE)))
        .then(|| Skipper {
            workdir: &env.workdir,
            key: walk_key(env.repo, rules, &dirwalk),
            index: env.index_id,
            cache: cache_rx,
            read: None,
            looked: statcache::PathMap::default(),
            skipped: Vec::new(),
            entered: Vec::new(),
            monitor: monitor.changed(),
            same_content: monitor.same_index(),
        });
        Ok(WalkPlan {
            dirwalk,
            skipper,
            cache_tx,
        })
    }
}

/// The index entries the status compares with their files: all of them, or, when a monitor
/// answered, only those at or below a path it reported and those that differed from the index
/// when its token was kept (a private index of those alone: gix compares every entry of the
/// index it is given).
pub(super) enum Compare<'a> {
    Whole(&'a gix::index::State),
    Part {
        state: Box<gix::index::State>,
        /// The paths of `state`, sorted.
        paths: Vec<BString>,
    },
}

impl<'a> Compare<'a> {
    pub(super) fn new(index: &'a gix::index::State, monitor: &Monitor) -> Compare<'a> {
        let Some((changed, dirty)) = monitor
            .changed()
            .and_then(|changed| changed.dirty().map(|dirty| (changed, dirty)))
        else {
            return Compare::Whole(index);
        };
        let entries = index.entries();
        let mut picked: Vec<usize> = Vec::new();
        for path in changed.paths() {
            if let Ok(at) = index.entry_index_by_path(path) {
                picked.push(at);
            }
            let mut dir = BString::from(path);
            dir.push(b'/');
            if let Some(range) = index.prefixed_entries_range(dir.as_ref()) {
                picked.extend(range);
            }
            // A reported path below a tracked file: the file became a directory.
            for above in statcache::above(path).skip(1) {
                if let Ok(at) = index.entry_index_by_path(above) {
                    picked.push(at);
                }
            }
        }
        for path in dirty {
            if let Ok(at) = index.entry_index_by_path(path.as_ref()) {
                picked.push(at);
            }
        }
        picked.sort_unstable();
        picked.dedup();
        let mut state = gix::index::State::new(index.object_hash());
        // The same timestamp: the same entries are racily clean.
        state.set_timestamp(index.timestamp());
        let mut paths = Vec::with_capacity(picked.len());
        for at in picked {
            let entry = &entries[at];
            let path = entry.path(index);
            state.dangerously_push_entry(entry.stat, entry.id, entry.flags, entry.mode, path);
            paths.push(path.to_owned());
        }
        paths.dedup();
        Compare::Part {
            state: Box::new(state),
            paths,
        }
    }

    pub(super) fn state(&self) -> &gix::index::State {
        match self {
            Compare::Whole(index) => index,
            Compare::Part { state, .. } => state,
        }
    }

    /// The tracked paths compared (sorted), or `None`: all of them.
    pub(super) fn checked(&self) -> Option<&[BString]> {
        match self {
            Compare::Whole(_) => None,
            Compare::Part { paths, .. } => Some(paths),
        }
    }
}

/// What stage 3 found.
pub(super) struct Scanned<'index> {
    pub found: Found<'index>,
    /// The stat cache as read (not yet checked against how files are hashed).
    pub read: Option<statcache::Read>,
    /// What each file the stat cache names looked like during the walk (in its order).
    pub looks: Option<Parts<Option<Looked>>>,
    /// The walk key, when the walk could skip directories.
    pub walk_key: Option<u64>,
    pub skipped_dirs: Vec<Skip>,
    pub entered: Vec<(BString, bool)>,
}

/// Stage 3: git's status of the working tree, the entries of `compare` against their files
/// beside the walk of `plan`. While the working tree is walked, another thread reads the stat
/// cache (unless the monitor's stage did: `early`) and looks at the untracked files it names
/// (those a monitor reported, when one answered), which are most often the untracked files the
/// walk finds.
pub(super) fn scan<'index>(
    env: &Env<'_>,
    index: &'index gix::index::State,
    compare: &'index Compare<'_>,
    plan: WalkPlan<'_>,
    early: Option<Option<statcache::Read>>,
    monitor: &Monitor,
    ctl: &Control<'_>,
) -> Result<Scanned<'index>> {
    let WalkPlan {
        dirwalk,
        mut skipper,
        cache_tx,
    } = plan;
    let mut found = Found::default();
    let (git_dir, hash) = (env.repo.git_dir().to_owned(), env.repo.object_hash());
    let changed = monitor.changed();
    let (walked, prefetched) = std::thread::scope(|scope| {
        let prefetch = env.options.stat_cache.then(|| {
            let workdir = &env.workdir;
            scope.spawn(move || {
                let read = match early {
                    Some(read) => read,
                    None => statcache::Read::of(&git_dir, hash),
                };
                let read = read.map(std::sync::Arc::new);
                // The walk waits for it at the first directory it could skip (or never, when
                // there is none: then this is dropped unread).
                let _ = cache_tx.send(read.clone());
                let read = read?;
                let wanted = |path: &BStr| changed.is_none_or(|c| c.touches(path));
                let looks = look_all(workdir, read.paths(), &wanted, ctl.flag());
                Some((read, looks))
            })
        });
        // The status has no progress of its own here: say what is going on when it takes long.
        let walked = ctl.during("checking the working tree", index.entries().len(), || {
            retried(|| {
                if let Some(skipper) = skipper.as_mut() {
                    skipper.skipped.clear();
                    skipper.entered.clear();
                }
                found.clear();
                let walk = Walk {
                    options: dirwalk,
                    skipper: skipper.as_mut(),
                };
                let inputs = StatusInputs::new(env, index)?;
                run(inputs, compare.state(), walk, &mut found, ctl)
            })
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
    Ok(Scanned {
        found,
        read,
        looks,
        walk_key,
        skipped_dirs,
        entered,
    })
}

/// `status` until it does not meet a file that shrank while it was read: another process was
/// writing it. It is looked at again, as the next save would, up to [`STATUS_RETRIES`] times.
fn retried(mut status: impl FnMut() -> Result<()>) -> Result<()> {
    let mut tries = 0;
    loop {
        match status() {
            Err(err) if read_short(&err) => {
                if tries == STATUS_RETRIES {
                    return Err(still_changing(err));
                }
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(10 << tries));
            }
            result => return result,
        }
    }
}

/// What identifies the index's content for the stat cache: its trailing checksum (none when
/// git skipped it, `index.skipHash`) together with the index file's stamp, so that a writer
/// that left a stale checksum (git does not verify it on reading) cannot pass a changed index
/// for a cached one.
pub(super) fn index_key(index: &gix::worktree::Index) -> Option<ObjectId> {
    let checksum = index.checksum()?;
    let md = std::fs::symlink_metadata(index.path()).ok()?;
    let key = format!("{checksum} {:?}", Stamp::of(&md));
    gix::objs::compute_hash(checksum.kind(), gix::objs::Kind::Blob, key.as_bytes()).ok()
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

/// How many times the status is computed again when a file changed size while it was read.
const STATUS_RETRIES: u32 = 3;

/// Whether `err` comes from a file that was shorter when read than when looked at: one that
/// another process was writing at that moment.
///
/// gix may keep only the message of the I/O error, so that is compared too: the one
/// `read_exact` gives at the end of a file.
pub(super) fn read_short(err: &Error) -> bool {
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
pub(super) fn still_changing(err: Error) -> Error {
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
pub(super) struct Found<'index> {
    pub modified: Vec<(&'index BStr, EntryStatus<(), ()>)>,
    pub walked: Vec<gix::dir::Entry>,
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

/// How the working tree is walked: gix's options, and the directories to skip.
struct Walk<'a, 's> {
    options: gix::dirwalk::Options,
    skipper: Option<&'a mut Skipper<'s>>,
}

/// Everything the status needs besides the index entries to compare, set up once: the ignore
/// rules (with `rules`' exclude patterns overriding every other ignore rule, so that an
/// excluded directory is not even entered), the attributes and clean filters, the settings.
struct StatusInputs<'a> {
    workdir: &'a std::path::Path,
    index: &'a gix::index::State,
    cwd: &'a std::path::Path,
    excludes: gix::worktree::Stack,
    pathspec: gix::pathspec::Search,
    resource_cache: gix::diff::blob::Platform,
    git_dir_realpath: std::path::PathBuf,
    fs: gix::fs::Capabilities,
    stat: gix::index::entry::stat::Options,
    fscache: bool,
    icase: Option<gix::index::AccelerateLookup<'a>>,
    objects: gix::OdbHandleArc,
}

fn git(context: &'static str) -> impl Fn(Box<dyn std::error::Error + Send + Sync>) -> Error {
    move |err| Error::Git {
        context: context.into(),
        source: err,
    }
}

impl<'a> StatusInputs<'a> {
    fn new(env: &'a Env<'_>, index: &'a gix::index::State) -> Result<StatusInputs<'a>> {
        use gix::worktree::stack::state::{attributes, ignore};
        let (repo, workdir, rules) = (env.repo, env.workdir.as_path(), &env.rules);
        // The walk needs the ignore rules only; the comparison of the index with the files
        // needs the attributes only (for the clean filters of files it must hash).
        let excludes = repo
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
        Ok(StatusInputs {
            workdir,
            index,
            cwd,
            excludes,
            pathspec,
            resource_cache,
            git_dir_realpath,
            fs,
            stat,
            fscache,
            icase,
            objects,
        })
    }
}

/// git's status of the working tree (as `Repository::index_worktree_status` computes it): the
/// entries of `compare` (the index, or the part of it a monitor leaves) against their files on
/// one thread, the walk of the working tree against the whole index on another.
fn run<'index>(
    inputs: StatusInputs<'_>,
    compare: &'index gix::index::State,
    walk: Walk<'_, '_>,
    found: &mut Found<'index>,
    ctl: &Control<'_>,
) -> Result<()> {
    let Walk {
        options: dirwalk,
        skipper,
    } = walk;
    let interrupt = ctl.flag();
    let Found { modified, walked } = found;
    let StatusInputs {
        workdir,
        index,
        cwd,
        mut excludes,
        pathspec,
        resource_cache,
        git_dir_realpath,
        fs,
        stat,
        fscache,
        icase,
        objects,
    } = inputs;
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
            compare,
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
