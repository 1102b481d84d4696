//! Looking at untracked files (`lstat`) in parallel, with what the stat cache has for each:
//! the one cost a save pays per untracked file when nothing changed, and the one a monitor
//! spares for the files it did not report.

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::dir::entry::Kind as DiskKind;
use gix::objs::tree::EntryKind;

use super::monitor::Changed;
use super::worktree_path;
use crate::error::Result;
use crate::statcache::{Stamp, StatCache};

/// What the file system says of one untracked file or symlink, and what the stat cache has
/// for it.
pub(super) enum Probe {
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
pub(super) struct Looked {
    pub stamp: Stamp,
    pub len: u64,
    pub kind: LookedKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum LookedKind {
    File,
    Symlink,
    /// A directory, or anything else.
    Other,
}

/// Below this many files, one thread looks at them.
const PARALLEL_LOOKS: usize = 2048;

/// What [`in_parallel`] returns: the results of each run of items, in order, kept as the
/// threads left them (copying them into one list was a page fault per 4 KiB of results).
pub(super) struct Parts<R> {
    parts: Vec<Vec<R>>,
    /// How many items each run held (the last may have held fewer).
    size: usize,
}

impl<R> Parts<R> {
    pub(super) fn len(&self) -> usize {
        self.parts.iter().map(Vec::len).sum()
    }

    /// The result of the item at `at`.
    pub(super) fn get(&self, at: usize) -> Option<&R> {
        self.parts
            .get(at / self.size.max(1))?
            .get(at % self.size.max(1))
    }

    pub(super) fn into_iter(self) -> impl Iterator<Item = R> {
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

/// Look at each of `paths` (the untracked files the stat cache names) that is `wanted`, in
/// parallel. `None` for a path not wanted, not there or that cannot be looked at, and for all
/// once `cancel` is set.
pub(super) fn look_all<'a>(
    workdir: &std::path::Path,
    paths: impl Iterator<Item = &'a BStr>,
    wanted: &(dyn Fn(&BStr) -> bool + Sync),
    cancel: &std::sync::atomic::AtomicBool,
) -> Parts<Option<Looked>> {
    let paths: Vec<&BStr> = paths.collect();
    in_parallel(&paths, |chunk| {
        let mut dirs = DirHandles::default();
        chunk
            .iter()
            .map(|path| {
                if cancel.load(std::sync::atomic::Ordering::Relaxed) || !wanted(path) {
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
/// file that was a file then; `changed`, what a monitor reported: a file it did not report is
/// as the cache has it, without a look, when that stamp had settled. A file a thread cannot
/// name is left [`Probe::Unprobed`], as is everything once `cancel` is set.
pub(super) fn probe_all(
    workdir: &std::path::Path,
    untracked: &[(BString, DiskKind)],
    cache: Option<(&StatCache, &Parts<Option<Looked>>)>,
    changed: Option<&Changed>,
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
                    if let Some(at) = at
                        && changed.is_some_and(|c| !c.touches(path))
                        && let Some(looked) = as_cached(cache, at)
                    {
                        return Probe::Found {
                            looked,
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
/// What the file at `at` of the cache looked like when it was cached, if that had settled.
fn as_cached(cache: &StatCache, at: usize) -> Option<Looked> {
    let (stamp, kind) = cache.settled_at(at)?;
    Some(Looked {
        stamp,
        len: stamp.size(),
        kind: match kind {
            EntryKind::Link => LookedKind::Symlink,
            _ => LookedKind::File,
        },
    })
}

pub(super) fn probe_one(
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
pub(super) struct DirHandles {
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
