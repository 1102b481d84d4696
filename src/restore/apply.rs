//! Applying a restore: writing and deleting files in the working tree, never through a
//! symlink, and putting them back when something fails.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::EntryKind;

use super::Obstacle;
use crate::control::Control;
use crate::error::{Context, Error, Result};
use crate::snapshot::{self, Leaf};
use crate::treediff::{FileChange, is_at_or_below};

pub(crate) fn blob(repo: &gix::Repository, id: ObjectId) -> Result<Vec<u8>> {
    Ok(repo
        .find_blob(id)
        .context(|| format!("cannot read blob {id}"))?
        .data
        .clone())
}

/// Apply smudge filters and eol conversion to blob `data` for `path`.
pub(crate) fn to_worktree(
    pipeline: &mut gix::filter::Pipeline<'_>,
    data: &[u8],
    path: &BStr,
) -> Result<Vec<u8>> {
    use gix::filter::plumbing::pipeline::convert::ToWorktreeOutcome;
    let outcome = pipeline
        .convert_to_worktree(data, path, Default::default())
        .context(|| format!("cannot apply filters to `{path}`"))?;
    Ok(match outcome {
        ToWorktreeOutcome::Unchanged(bytes) => bytes.to_vec(),
        ToWorktreeOutcome::Buffer(bytes) => bytes.to_vec(),
        ToWorktreeOutcome::Process(maybe) => {
            let mut out = Vec::new();
            match maybe {
                gix::filter::plumbing::driver::apply::MaybeDelayed::Immediate(mut read) => {
                    std::io::copy(&mut read, &mut out).map_err(|source| Error::Io {
                        context: format!("cannot run the smudge filter for `{path}`"),
                        source,
                    })?;
                }
                gix::filter::plumbing::driver::apply::MaybeDelayed::Delayed(_) => {
                    return Err(Error::Unsupported(format!(
                        "the filter for `{path}` delayed its output, which is not supported"
                    )));
                }
            }
            out
        }
    })
}

/// What kind of file is written for a tree entry of `kind`: with `core.symlinks=false` a
/// symlink is written as git writes it then, a plain (not executable) file holding the link's
/// target, unfiltered.
pub(crate) fn kind_on_disk(repo: &gix::Repository, kind: EntryKind) -> EntryKind {
    let symlinks = repo.filesystem_options().map_or(true, |caps| caps.symlink);
    if kind == EntryKind::Link && !symlinks {
        EntryKind::Blob
    } else {
        kind
    }
}

/// The state the safety checkpoint holds: the snapshot taken before the restore, plus ignored
/// content that `--force` replaces.
pub(crate) struct SafetyState<'a> {
    pub cur: &'a snapshot::Snapshot,
    pub extra: &'a [Leaf],
}

impl SafetyState<'_> {
    fn leaf(&self, path: &BStr) -> Option<Leaf> {
        match self.extra.binary_search_by(|l| l.path.as_bstr().cmp(path)) {
            Ok(i) => Some(self.extra[i].clone()),
            Err(_) => self.cur.leaf(path),
        }
    }

    /// Whether the file at `path` (with metadata `md`) provably still holds what the safety
    /// checkpoint holds there, by its stamp (see [`snapshot::Snapshot::proves_unchanged`]);
    /// `false` means "unsure". Ignored content kept for `--force` is always checked by hashing.
    fn proven(&self, path: &BStr, md: &fs::Metadata) -> bool {
        self.extra
            .binary_search_by(|l| l.path.as_bstr().cmp(path))
            .is_err()
            && self.cur.proves_unchanged(path, md)
    }

    fn leaves_at_or_below(&self, path: &BStr) -> Vec<Leaf> {
        let mut out = self.cur.leaves_at_or_below(path);
        out.extend(
            self.extra
                .iter()
                .filter(|l| is_at_or_below(l.path.as_bstr(), path))
                .cloned(),
        );
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out.dedup_by(|later, earlier| later.path == earlier.path);
        out
    }
}

/// Writes and deletes files in the working tree, never through a symlink, remembering what it
/// touched (and the directories it created) so that a failure can be rolled back.
struct Writer<'a, 'repo> {
    repo: &'repo gix::Repository,
    workdir: &'a Path,
    /// Where files are written before being renamed into place (in the git directory).
    tmp_dir: &'a Path,
    /// Whether files are written in place, because a rename from `tmp_dir` into the working
    /// tree failed (they are on different file systems).
    in_place: bool,
    pipeline: &'a mut gix::filter::Pipeline<'repo>,
    /// What the safety checkpoint holds: a file is replaced or deleted only while it still is
    /// what it holds.
    state: &'a SafetyState<'a>,
    touched: Vec<BString>,
    /// Directories created, in order.
    created: Vec<PathBuf>,
    /// Paths left as they are because they changed since the safety checkpoint was taken.
    left_alone: Vec<BString>,
}

/// What [`apply`] changes: ignored content to remove first, paths to delete, paths to write.
pub(crate) struct Changes<'a> {
    pub obstacles: &'a [Obstacle],
    pub deletions: &'a [BString],
    pub writes: &'a [FileChange],
}

/// Change the working tree at `workdir` as `changes` say, writing files through `tmp_dir`.
///
/// A file is replaced or deleted only if it still is what `state` (the safety checkpoint)
/// holds, checked just before: one that another process changed meanwhile is left as it is,
/// and returned. When a step fails, or `ctl` is cancelled, every path touched so far is put
/// back as `state` has it, and the directories created are removed: the error comes with
/// whether that worked.
pub(crate) fn apply(
    repo: &gix::Repository,
    workdir: &Path,
    tmp_dir: &Path,
    changes: &Changes<'_>,
    state: &SafetyState<'_>,
    ctl: &Control<'_>,
) -> std::result::Result<Vec<BString>, (Error, bool)> {
    let mut pipeline = repo
        .filter_pipeline(None)
        .context(|| "cannot set up the smudge filters".into())
        .map_err(|e| (e, true))?
        .0;
    let mut writer = Writer {
        repo,
        workdir,
        tmp_dir,
        in_place: false,
        pipeline: &mut pipeline,
        state,
        touched: Vec::new(),
        created: Vec::new(),
        left_alone: Vec::new(),
    };
    match writer.apply(changes, ctl) {
        Ok(()) => Ok(std::mem::take(&mut writer.left_alone)),
        Err(err) => {
            let touched = std::mem::take(&mut writer.touched);
            let rolled_back = writer.rollback(&touched).is_ok();
            Err((err, rolled_back))
        }
    }
}

impl Writer<'_, '_> {
    fn apply(&mut self, changes: &Changes<'_>, ctl: &Control<'_>) -> Result<()> {
        let total = changes.obstacles.len() + changes.deletions.len() + changes.writes.len();
        let mut done = 0;
        let mut tick = || {
            done += 1;
            ctl.report("restoring files", done, total);
            ctl.check()
        };
        for o in changes.obstacles {
            if self.remove_saved(o.path.as_bstr())? {
                self.touched.push(o.path.clone());
            } else {
                self.left_alone.push(o.path.clone());
            }
            tick()?;
        }
        // Deeper paths first, so that emptied directories can go.
        for path in changes.deletions.iter().rev() {
            if self.still_saved(path.as_bstr(), self.state.leaf(path.as_bstr()))? {
                self.touched.push(path.clone());
                self.delete(path.as_bstr())?;
            } else {
                self.left_alone.push(path.clone());
            }
            tick()?;
        }
        for change in changes.writes {
            let Some(side) = change.new else { continue };
            let path = change.path.as_bstr();
            if self.below_left_alone(path) || !self.replaceable(path, side)? {
                self.left_alone.push(change.path.clone());
                tick()?;
                continue;
            }
            self.touched.push(change.path.clone());
            self.write(path, side.kind, side.id)?;
            tick()?;
        }
        Ok(())
    }

    /// Whether `path` is at or below a path left alone (an obstacle that changed): its
    /// content there stays, so nothing is written there.
    fn below_left_alone(&self, path: &BStr) -> bool {
        self.left_alone
            .iter()
            .any(|p| is_at_or_below(path, p.as_bstr()) || is_at_or_below(p.as_bstr(), path))
    }

    /// Whether the target's `side` may be written at `path`: what stands there is what the
    /// safety checkpoint holds (or nothing); or, for an ignored file the plan found already
    /// equal to the target, it still is (and then it is not rewritten: `Ok(false)` only
    /// when it changed).
    fn replaceable(&mut self, path: &BStr, side: crate::treediff::Side) -> Result<bool> {
        match self.state.leaf(path) {
            Some(saved) => self.still_saved(path, Some(saved)),
            None => match self.hash_existing(path)? {
                None => Ok(true),
                // The plan found it equal to the target; it is left as it is either way.
                Some((_, id)) if id == side.id => Ok(true),
                Some(_) => Ok(false),
            },
        }
    }

    /// Whether the file at `path` still is `saved` (what the safety checkpoint holds), checked
    /// now: by its stamp when that proves it unchanged since the capture, else by hashing it
    /// as a save would. Nothing there, or a directory, is "still saved": there is nothing to
    /// lose. Something where the safety checkpoint holds nothing is not.
    fn still_saved(&mut self, path: &BStr, saved: Option<Leaf>) -> Result<bool> {
        if saved.as_ref().is_some_and(|l| l.kind == EntryKind::Commit) {
            return Ok(true);
        }
        let Some(md) = self.existing(path)? else {
            return Ok(true);
        };
        if saved.is_some() && self.state.proven(path, &md) {
            return Ok(true);
        }
        let found = self.hash(path)?;
        Ok(match (found, saved) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some((kind, id)), Some(saved)) => {
                let expected = kind_on_disk(self.repo, saved.kind);
                id == saved.id && (kind == EntryKind::Link) == (expected == EntryKind::Link)
            }
        })
    }

    /// The file or symlink at `path` hashed as a save would hash it; `None` when there is
    /// none (nothing, a directory, or a parent that is not a real directory).
    fn hash_existing(&mut self, path: &BStr) -> Result<Option<(EntryKind, ObjectId)>> {
        if self.existing(path)?.is_none() {
            return Ok(None);
        }
        self.hash(path)
    }

    /// The metadata of the file or symlink at `path`; `None` when there is none (nothing, a
    /// directory, or a parent that is not a real directory).
    fn existing(&self, path: &BStr) -> Result<Option<fs::Metadata>> {
        if !self.real_parents(path)? {
            return Ok(None);
        }
        let full = self.full_path(path)?;
        match lstat(&full) {
            Ok(Some(md)) if md.is_dir() => Ok(None),
            Ok(found) => Ok(found),
            Err(source) => Err(Error::Io {
                context: format!("cannot inspect `{path}`"),
                source,
            }),
        }
    }

    /// The file or symlink at `path`, hashed as a save would hash it.
    fn hash(&mut self, path: &BStr) -> Result<Option<(EntryKind, ObjectId)>> {
        let disk = self.state.cur.on_disk(path);
        match self
            .pipeline
            .worktree_file_to_object(disk.as_bstr(), self.state.cur.index())
        {
            Ok(Some((id, kind, _))) => Ok(Some((kind, id))),
            Ok(None) => Ok(None),
            Err(err) => Err(Error::Git {
                context: format!("cannot read `{path}`"),
                source: Box::new(err),
            }),
        }
    }

    /// Whether every parent of `path` is a real directory (or missing: then `Ok(false)` too).
    fn real_parents(&self, path: &BStr) -> Result<bool> {
        let path = self.state.cur.on_disk(path);
        let mut end = 0;
        while let Some(pos) = path[end..].find_byte(b'/') {
            let prefix = &path[..end + pos];
            end += pos + 1;
            match fs::symlink_metadata(snapshot::worktree_path(self.workdir, prefix.as_bstr())?) {
                Ok(md) if md.is_dir() => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }

    /// Put every touched path back as the safety state has it, latest first, then remove the
    /// directories this restore created that are empty again.
    fn rollback(&mut self, touched: &[BString]) -> Result<()> {
        let state = self.state;
        let mut result = Ok(());
        for path in touched.iter().rev() {
            let below = state.leaves_at_or_below(path.as_bstr());
            let step = match state.leaf(path.as_bstr()) {
                Some(leaf) => self
                    .clear_for_rollback(path.as_bstr())
                    .and_then(|()| self.write(path.as_bstr(), leaf.kind, leaf.id)),
                None if !below.is_empty() => {
                    self.clear_for_rollback(path.as_bstr()).and_then(|()| {
                        below
                            .iter()
                            .try_for_each(|l| self.write(l.path.as_bstr(), l.kind, l.id))
                    })
                }
                None => self.delete(path.as_bstr()),
            };
            if step.is_err() && result.is_ok() {
                result = step;
            }
        }
        for dir in std::mem::take(&mut self.created).iter().rev() {
            // Not empty: something the safety state holds was put back there.
            let _ = fs::remove_dir(dir);
        }
        result
    }

    /// During a rollback, clear `path` for what the safety state holds there: a file or
    /// symlink this restore wrote, or a directory it created there, with the directories it
    /// created below it (what it wrote below was put back before, being touched later).
    fn clear_for_rollback(&mut self, path: &BStr) -> Result<()> {
        if !self.real_parents(path)? {
            return Ok(());
        }
        let full = self.full_path(path)?;
        let io = |source| Error::Io {
            context: format!("cannot remove `{path}`"),
            source,
        };
        match lstat(&full).map_err(io)? {
            None => Ok(()),
            Some(md) if md.is_dir() => {
                let (below, others): (Vec<PathBuf>, Vec<PathBuf>) =
                    std::mem::take(&mut self.created)
                        .into_iter()
                        .partition(|dir| dir.starts_with(&full));
                self.created = others;
                // Deepest first: each is empty once those below it are gone.
                for dir in below.iter().rev() {
                    match fs::remove_dir(dir) {
                        Err(err) if !nothing_there(&err) => return Err(io(err)),
                        _ => {}
                    }
                }
                match fs::remove_dir(&full) {
                    Err(err) if !nothing_there(&err) => Err(io(err)),
                    _ => Ok(()),
                }
            }
            Some(_) => fs::remove_file(&full).map_err(io),
        }
    }

    /// Where `path` is in the working tree: where the capture found the file the safety state
    /// holds there (see [`snapshot::Snapshot::on_disk`]).
    fn full_path(&self, path: &BStr) -> Result<PathBuf> {
        snapshot::worktree_path(self.workdir, self.state.cur.on_disk(path).as_bstr())
    }

    /// Create the parent directories of `path`, refusing to go through anything but real
    /// directories.
    fn parents(&mut self, path: &BStr) -> Result<()> {
        let disk = self.state.cur.on_disk(path);
        let mut end = 0;
        while let Some(pos) = disk[end..].find_byte(b'/') {
            let prefix = &disk[..end + pos];
            end += pos + 1;
            let full = snapshot::worktree_path(self.workdir, prefix.as_bstr())?;
            match fs::symlink_metadata(&full) {
                Ok(md) if md.is_dir() => {}
                Ok(_) => {
                    return Err(Error::UnsafeTree {
                        path: path.to_string(),
                        reason: format!(
                            "`{}` is not a directory; refusing to write through it",
                            prefix.as_bstr()
                        ),
                    });
                }
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                    fs::create_dir(&full).map_err(|source| Error::Io {
                        context: format!("cannot create directory `{}`", prefix.as_bstr()),
                        source,
                    })?;
                    self.created.push(full);
                }
                Err(source) => {
                    return Err(Error::Io {
                        context: format!("cannot inspect `{}`", prefix.as_bstr()),
                        source,
                    });
                }
            }
        }
        Ok(())
    }

    fn delete(&mut self, path: &BStr) -> Result<()> {
        // Never delete through a symlink (or below a missing directory: nothing to delete).
        if !self.real_parents(path)? {
            return Ok(());
        }
        let full = self.full_path(path)?;
        match lstat(&full) {
            Ok(None) => return Ok(()),
            Ok(Some(md)) if md.is_dir() => return Ok(()),
            Ok(Some(_)) => fs::remove_file(&full).map_err(|source| Error::Io {
                context: format!("cannot delete `{path}`"),
                source,
            })?,
            Err(source) => {
                return Err(Error::Io {
                    context: format!("cannot inspect `{path}`"),
                    source,
                });
            }
        }
        // Remove the directories this left empty.
        let mut dir = full.parent();
        while let Some(d) = dir {
            if d == self.workdir || fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
        Ok(())
    }

    /// Remove the ignored (or size-skipped) file, symlink or directory tree at `path` that
    /// `--force` replaces, once its content is in the safety checkpoint: only if every file
    /// of it still is what that holds (checked first, all of them); `Ok(false)`, leaving it
    /// all in place, when one changed or appeared since.
    fn remove_saved(&mut self, path: &BStr) -> Result<bool> {
        if !self.real_parents(path)? {
            return Ok(true);
        }
        let full = self.full_path(path)?;
        let is_dir = match lstat(&full) {
            Ok(Some(md)) => md.is_dir(),
            Ok(None) => return Ok(true),
            Err(source) => {
                return Err(Error::Io {
                    context: format!("cannot inspect `{path}`"),
                    source,
                });
            }
        };
        let io = |context: String| move |source| Error::Io { context, source };
        if !is_dir {
            if !self.still_saved(path, self.state.leaf(path))? {
                return Ok(false);
            }
            fs::remove_file(&full).map_err(io(format!("cannot remove `{path}`")))?;
            return Ok(true);
        }
        // Every file below, without following symlinks; directories deepest last.
        let mut files = Vec::new();
        let mut dirs = vec![(full.clone(), BString::from(path))];
        let mut i = 0;
        while i < dirs.len() {
            let (dir, rela) = dirs[i].clone();
            i += 1;
            for entry in fs::read_dir(&dir).map_err(io(format!("cannot read `{rela}`")))? {
                let entry = entry.map_err(io(format!("cannot read `{rela}`")))?;
                let mut child = rela.clone();
                child.push(b'/');
                child.extend_from_slice(entry.file_name().to_string_lossy().as_bytes());
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    dirs.push((entry.path(), child));
                } else {
                    files.push((entry.path(), child));
                }
            }
        }
        for (_, rela) in &files {
            if !self.still_saved(rela.as_bstr(), self.state.leaf(rela.as_bstr()))? {
                return Ok(false);
            }
        }
        for (file, rela) in &files {
            fs::remove_file(file).map_err(io(format!("cannot remove `{rela}`")))?;
        }
        for (dir, rela) in dirs.iter().rev() {
            fs::remove_dir(dir).map_err(io(format!("cannot remove directory `{rela}`")))?;
        }
        Ok(true)
    }

    fn write(&mut self, path: &BStr, kind: EntryKind, id: ObjectId) -> Result<()> {
        self.parents(path)?;
        let full = self.full_path(path)?;
        let io = |context: String| move |source| Error::Io { context, source };
        let existing = fs::symlink_metadata(&full).ok();
        if kind == EntryKind::Commit {
            // A submodule: make sure its directory exists, never touch what is inside.
            if existing.is_none() {
                fs::create_dir(&full).map_err(io(format!("cannot create `{path}`")))?;
            }
            return Ok(());
        }
        if existing.as_ref().is_some_and(fs::Metadata::is_dir) {
            // Left empty by the deletions; anything else was refused earlier.
            fs::remove_dir(&full).map_err(io(format!("cannot replace directory `{path}`")))?;
        }
        let data = blob(self.repo, id)?;
        let content = match kind {
            EntryKind::Link => data,
            _ => to_worktree(self.pipeline, &data, path)?,
        };
        let kind = kind_on_disk(self.repo, kind);
        if !self.in_place {
            if self.write_through_tmp(path, &full, kind, &content)? {
                return Ok(());
            }
            self.in_place = true;
        }
        // In place: what stands there now is held by the safety checkpoint.
        match fs::symlink_metadata(&full) {
            Ok(md) if !md.is_dir() => {
                fs::remove_file(&full).map_err(io(format!("cannot replace `{path}`")))?;
            }
            _ => {}
        }
        create_entry(&full, path, kind, &content)
    }

    /// Write `content` to a temporary file in the git directory and rename it to `full`.
    /// `Ok(false)` when that cannot work here: no scratch directory, or the git directory is on
    /// another file system than the working tree.
    fn write_through_tmp(
        &self,
        path: &BStr,
        full: &Path,
        kind: EntryKind,
        content: &[u8],
    ) -> Result<bool> {
        if fs::create_dir_all(self.tmp_dir).is_err() {
            return Ok(false);
        }
        let tmp = self.tmp_dir.join(format!("{:016x}", rand::random::<u64>()));
        create_entry(&tmp, path, kind, content)?;
        match fs::rename(&tmp, full) {
            Ok(()) => Ok(true),
            Err(err) => {
                let _ = fs::remove_file(&tmp);
                if err.kind() == std::io::ErrorKind::CrossesDevices {
                    Ok(false)
                } else {
                    Err(Error::Io {
                        context: format!("cannot write `{path}`"),
                        source: err,
                    })
                }
            }
        }
    }
}

/// Whether `err`, from looking at or removing a path, means that nothing is there: it is
/// missing, or it cannot exist (a name or path too long for the file system, a parent that is
/// not a directory), so that nothing this restore did can be there either.
fn nothing_there(err: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        err.kind(),
        ErrorKind::NotFound | ErrorKind::InvalidFilename | ErrorKind::NotADirectory
    )
}

/// The metadata of `full` without following a symlink there; `None` when nothing is there
/// (see [`nothing_there`]).
fn lstat(full: &Path) -> std::io::Result<Option<fs::Metadata>> {
    match fs::symlink_metadata(full) {
        Ok(md) => Ok(Some(md)),
        Err(err) if nothing_there(&err) => Ok(None),
        Err(err) => Err(err),
    }
}

/// Create a new file (or symlink, for [`EntryKind::Link`]) at `at` holding `content`, for the
/// working-tree path `path`. Never opens through a symlink; a partly written file is removed.
fn create_entry(at: &Path, path: &BStr, kind: EntryKind, content: &[u8]) -> Result<()> {
    let io = |context: String| move |source| Error::Io { context, source };
    if kind == EntryKind::Link {
        let target = gix::path::from_byte_slice(content).map_err(|_| Error::UnsafeTree {
            path: path.to_string(),
            reason: "symlink target is not a valid path".into(),
        })?;
        return symlink(target, at).map_err(io(format!("cannot create symlink `{path}`")));
    }
    let mut file = open_new(at, kind == EntryKind::BlobExecutable)
        .map_err(io(format!("cannot write `{path}`")))?;
    let written = file.write_all(content).and_then(|()| file.flush());
    if let Err(source) = written {
        drop(file);
        let _ = fs::remove_file(at);
        return Err(Error::Io {
            context: format!("cannot write `{path}`"),
            source,
        });
    }
    Ok(())
}

#[cfg(unix)]
/// A new file (`create_new`: never opened through a symlink planted in the way).
fn open_new(path: &Path, executable: bool) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(if executable { 0o777 } else { 0o666 })
        .open(path)
}

#[cfg(not(unix))]
fn open_new(path: &Path, _executable: bool) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_file(target, link)
}

/// Replace the index with `tree` — or, when `paths` are given, only its entries at or below
/// them, as `git restore --staged -- <paths>` does — keeping the stat data of entries that did
/// not change so that git does not have to rehash them.
pub(crate) fn write_index(
    repo: &gix::Repository,
    tree: ObjectId,
    paths: &[gix::bstr::BString],
) -> Result<()> {
    let old = repo
        .index_or_empty()
        .context(|| "cannot read the index".into())?;
    let mut new = repo
        .index_from_tree(&tree)
        .context(|| "cannot build the index from the checkpoint".into())?;
    if !paths.is_empty() {
        let chosen =
            |path: &gix::bstr::BStr| paths.iter().any(|p| is_at_or_below(path, p.as_bstr()));
        new.remove_entries(|_, path, _| !chosen(path));
        for entry in old.entries() {
            let path = entry.path(&old);
            if !chosen(path) {
                new.dangerously_push_entry(entry.stat, entry.id, entry.flags, entry.mode, path);
            }
        }
        new.sort_entries();
    }
    let (entries, path_backing) = new.entries_mut_and_pathbacking();
    for entry in entries.iter_mut() {
        let path = entry.path_in(path_backing);
        if let Some(before) = old.entry_by_path(path)
            && before.id == entry.id
            && before.mode == entry.mode
        {
            entry.stat = before.stat;
        }
    }
    new.write(gix::index::write::Options::default())
        .context(|| "cannot write the index".into())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

    /// With the scratch directory on another file system (the git directory elsewhere than the
    /// working tree), files are written in place, and nothing is left in the scratch directory.
    #[cfg(unix)]
    #[test]
    fn writes_in_place_when_the_scratch_dir_is_on_another_file_system() -> TestResult {
        use std::os::unix::fs::MetadataExt;
        let work = tempfile::tempdir()?;
        let Ok(scratch) = tempfile::tempdir_in("/dev/shm") else {
            eprintln!("skipped: no /dev/shm");
            return Ok(());
        };
        if fs::metadata(work.path())?.dev() == fs::metadata(scratch.path())?.dev() {
            eprintln!("skipped: /dev/shm is on the same file system as the temp dir");
            return Ok(());
        }
        let repo = gix::init(work.path())?;
        let id = repo.write_blob(b"content\n")?.detach();
        let link = repo.write_blob(b"f")?.detach();
        let mut pipeline = repo.filter_pipeline(None)?.0;
        let index = repo.index_or_empty()?;
        let cur = snapshot::snapshot(
            &repo,
            &index,
            snapshot::Options {
                capture: &crate::config::Capture {
                    max_file_size: u64::MAX,
                    ..Default::default()
                },
                stat_cache: true,
                stand_in: None,
            },
            &Control::default(),
        )?;
        let state = SafetyState {
            cur: &cur,
            extra: &[],
        };
        let mut writer = Writer {
            repo: &repo,
            workdir: work.path(),
            tmp_dir: scratch.path(),
            in_place: false,
            pipeline: &mut pipeline,
            state: &state,
            touched: Vec::new(),
            created: Vec::new(),
            left_alone: Vec::new(),
        };
        fs::write(work.path().join("f"), "old\n")?;
        writer.write(b"f".as_bstr(), EntryKind::Blob, id)?;
        writer.write(b"d/g".as_bstr(), EntryKind::BlobExecutable, id)?;
        writer.write(b"l".as_bstr(), EntryKind::Link, link)?;
        assert!(writer.in_place);
        assert_eq!(fs::read(work.path().join("f"))?, b"content\n");
        assert_eq!(fs::read(work.path().join("d/g"))?, b"content\n");
        assert_eq!(fs::read_link(work.path().join("l"))?, Path::new("f"));
        assert_eq!(fs::read_dir(scratch.path())?.count(), 0);
        Ok(())
    }
}
