//! The stat cache's listings of directories in a capture: which directories the walk may skip
//! (stage 3), and the listings the capture leaves (stage 11).

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::dir::entry::{Kind as DiskKind, Status as DirStatus};

use super::monitor::Changed;
use super::{ignore_file, worktree_path};
use crate::select::Rules;
use crate::statcache::{self, Moment, PathMap, Stamp, StatCache};

/// What a save's walk needs to skip the directories the stat cache lists (see
/// [`statcache::Listing`]), and what it found: the directories it skipped (with where their
/// files went among the walk's entries) and the directories it entered.
pub(super) struct Skipper<'a> {
    pub workdir: &'a std::path::Path,
    /// The [`walk_key`] of this save.
    pub key: u64,
    /// The index's [`index_key`]: tracked directories are skipped only while it is the same.
    pub index: Option<ObjectId>,
    /// The stat cache, as another thread reads it.
    pub cache: std::sync::mpsc::Receiver<Option<std::sync::Arc<statcache::Read>>>,
    pub read: Option<Option<std::sync::Arc<statcache::Read>>>,
    /// What was found at each path looked at (a listing that fails is followed by those of
    /// the directories inside it, which name the same directories and ignore files).
    pub looked: PathMap<std::result::Result<Option<Stamp>, ()>>,
    /// The directories skipped: each, whether it is tracked, and where its untracked files
    /// are among the walk's entries.
    pub skipped: Vec<Skip>,
    /// The directories entered, in the walk's order, and whether each is tracked.
    pub entered: Vec<(BString, bool)>,
    /// What a file-system monitor reported: a directory it leaves alone is as its listing
    /// says without a look at its stamps.
    pub monitor: Option<&'a Changed>,
    /// Whether the index, rewritten since the stat cache, tracks exactly what it did.
    pub same_content: bool,
}

/// A directory the walk skipped, whether it is tracked, and where its untracked files are among
/// the walk's entries.
pub(super) type Skip = (BString, bool, std::ops::Range<usize>);

impl Skipper<'_> {
    /// Whether the directory `dir` (`tracked`: with tracked files below it) is as its listing
    /// says: if so, its untracked files are appended to `out` as the walk would have emitted
    /// them.
    pub(super) fn skip(
        &mut self,
        dir: &BStr,
        tracked: bool,
        out: &mut Vec<gix::dir::Entry>,
    ) -> bool {
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
        let same_index = self.index.is_some() && read.index() == self.index;
        if listing.tracked != tracked || (tracked && !same_index && !self.same_content) {
            return false;
        }
        if !self.monitor.is_some_and(|changed| changed.leaves_dir(dir))
            && !self.stamps_hold(&read, dir, listing)
        {
            return false;
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

    /// Whether the stamps `listing` (that of `dir`) keeps are those found now: of the
    /// `.gitignore` files above it, of the directories below it and of their `.gitignore`s.
    fn stamps_hold(
        &mut self,
        read: &statcache::Read,
        dir: &BStr,
        listing: &statcache::Listing,
    ) -> bool {
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
pub(super) fn stamp_bytes(path: &std::path::Path) -> Vec<u8> {
    std::fs::symlink_metadata(path)
        .map(|md| format!("{:?}", Stamp::of(&md)).into_bytes())
        .unwrap_or_default()
}

/// What decides the listings of directories besides the directories themselves: the
/// settings (`core.*`, among them `core.excludesFile` and `core.ignoreCase`), the walk's
/// options, `checkpoint.exclude`, and the ignore files outside the working tree
/// (`info/exclude`, the global excludes file).
pub(super) fn walk_key(
    repo: &gix::Repository,
    rules: &Rules,
    dirwalk: &gix::dirwalk::Options,
) -> u64 {
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
pub(super) struct Seen<'a> {
    pub skipped: &'a [Skip],
    pub entered: &'a [(BString, bool)],
    pub others: &'a [BString],
}

/// Keep, in `pending`, the listings of the directories that have nothing below them a listing
/// cannot hold: the stamps of each and of every directory the walk entered below it, and the
/// `.gitignore` stamps of the directories above it, all settled before `started` (the racy
/// rule, as for files). Directories inside listed ones are listed too, so that when a change
/// deep inside makes the outer listing fail, the walk that enters it can still skip the
/// directories beside the change. A directory that was skipped keeps its listing and those
/// below it (every stamp in them was found the same).
pub(super) fn list_dirs(
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
