//! `restore` and `undo`: make the working tree equal to a checkpoint, losing nothing.
//!
//! The invariant: **restore deletes or overwrites only what its safety checkpoint holds.**
//! Ignored files, files skipped by the size guard, nested repositories and submodule contents
//! are left where they are. An ignored or skipped file standing in the way of the target makes
//! restore refuse (or, with `force`, be saved into the safety checkpoint first); a target path
//! at or inside a nested repository or submodule makes it refuse, whatever the flags.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::EntryKind;

use crate::error::{Context, Error, Result};
use crate::format::{self, IndexState};
use crate::journal::{Completed, Entry, Guard};
use crate::save::{self, Captured, SaveOptions, Saved};
use crate::snapshot::{self, Leaf};
use crate::store::{self, Checkpoint};
use crate::treediff::{self, FileChange};

/// How to restore.
#[derive(Debug, Clone, Default)]
pub struct RestoreOptions {
    /// Restore only these paths (relative to the top of the working tree; a directory means
    /// everything below it). Empty: everything.
    pub paths: Vec<BString>,
    /// Only say what would be done.
    pub dry_run: bool,
    /// Also restore the index as it was recorded in the checkpoint.
    pub staged: bool,
    /// Do not take a `pre-restore` checkpoint first.
    pub no_save: bool,
    /// Restore even during a merge/rebase/…, and replace ignored (or size-skipped) files
    /// standing in the way after keeping them in the safety checkpoint. Without a safety
    /// checkpoint (`no_save`) they are always refused: nothing would keep their content.
    pub force: bool,
}

/// What a restore does (or did).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Plan {
    /// Files created or rewritten.
    pub write: Vec<String>,
    /// Files deleted.
    pub delete: Vec<String>,
    /// Nested repositories and submodules absent from the target, left in place.
    pub kept: Vec<String>,
    /// Ignored or skipped files standing in the way, replaced because of `force`.
    pub replaced_ignored: Vec<String>,
}

impl Plan {
    /// Whether the restore changes nothing in the working tree.
    pub fn is_empty(&self) -> bool {
        self.write.is_empty() && self.delete.is_empty() && self.replaced_ignored.is_empty()
    }
}

/// The outcome of a restore.
#[derive(Debug, Clone)]
pub struct Restored {
    /// The checkpoint restored.
    pub target: Checkpoint,
    /// What was (or, for a dry run, would be) done.
    pub plan: Plan,
    /// The safety checkpoint holding the state before the restore: a new `pre-restore`
    /// checkpoint, or the newest checkpoint when it already held exactly that state.
    pub safety: Option<Saved>,
    /// Whether the index was restored (`staged`).
    pub index_restored: bool,
    /// `HEAD` now, when it differs from the `HEAD` the checkpoint was taken on.
    pub head_moved: Option<Option<String>>,
    /// Whether this was a dry run.
    pub dry_run: bool,
    /// An interrupted restore that was found, and completed, before this one began.
    pub interrupted: Option<Completed>,
}

/// Restore `target` into the working tree of `repo`.
pub fn restore(
    repo: &gix::Repository,
    target: &Checkpoint,
    options: &RestoreOptions,
) -> Result<Restored> {
    refuse_in_progress(repo, options)?;
    if options.dry_run {
        // A dry run writes no object: the snapshot of the working tree stays in memory.
        let memory_repo = repo.clone().with_object_memory();
        let captured = save::capture(&memory_repo, None, false)?;
        return restore_captured(&memory_repo, &captured, target, options, None);
    }
    let mut guard = Guard::acquire(repo)?;
    let interrupted = complete_locked(repo, &mut guard)?;
    let captured = save::capture(repo, None, true)?;
    let mut restored = restore_captured(repo, &captured, target, options, Some(&mut guard))?;
    restored.interrupted = interrupted;
    Ok(restored)
}

/// Complete a restore that died part-way in this worktree, if there is one: the first thing
/// [`save::save`], [`restore`] and [`undo`] do. Does nothing while that restore is still
/// running (its lock is held).
///
/// Nothing is lost: the state the dead restore left is saved first, as a `pre-restore`
/// checkpoint (unless the newest checkpoint already holds it); then the working tree is rolled
/// forward to the checkpoint it was restoring, with the same paths and flags. Afterwards the
/// working tree equals that checkpoint, as if the restore had not been interrupted. If rolling
/// forward fails (a file cannot be written, or something that must not be replaced now stands
/// in the way), the working tree is left as the dead restore left it and the reason is in
/// [`Completed::failed`].
pub fn complete_interrupted(repo: &gix::Repository) -> Result<Option<Completed>> {
    match Guard::try_existing(repo) {
        Some(mut guard) => complete_locked(repo, &mut guard),
        None => Ok(None),
    }
}

/// [`complete_interrupted`], holding the lock.
fn complete_locked(repo: &gix::Repository, guard: &mut Guard) -> Result<Option<Completed>> {
    let Some(entry) = guard.read()? else {
        return Ok(None);
    };
    let captured = save::capture(repo, None, true)?;
    let partial = save::commit_captured(
        repo,
        &captured,
        &SaveOptions {
            message: Some(format!(
                "before completing the interrupted restore of {}",
                entry.target
            )),
            kind: Some(format::KIND_PRE_RESTORE.into()),
            ..SaveOptions::default()
        },
    )?;
    let rolled = roll_forward(repo, guard, &captured, &entry);
    guard.finish()?;
    Ok(Some(Completed {
        target: entry.target,
        safety: entry.safety,
        partial: match partial {
            Saved::Created(c) => Some(c.id),
            Saved::Unchanged(_) => None,
        },
        failed: rolled.err().map(|e| e.to_string()),
    }))
}

/// Restore the target of a dead restore's journal `entry` over `captured`.
fn roll_forward(
    repo: &gix::Repository,
    guard: &mut Guard,
    captured: &Captured,
    entry: &Entry,
) -> Result<()> {
    let options = entry.options();
    refuse_in_progress(repo, &options)?;
    let commit = ObjectId::from_hex(entry.commit.as_bytes()).map_err(|e| Error::Git {
        context: format!("the restore journal names `{}`, not a commit", entry.commit),
        source: Box::new(e),
    })?;
    let target = store::Notes::open(repo)?.checkpoint(
        repo,
        &store::CheckpointRef {
            id: entry.target.clone(),
            commit,
        },
    )?;
    restore_captured(repo, captured, &target, &options, Some(guard)).map(|_| ())
}

/// During a merge, rebase, cherry-pick, revert or bisect, refuse unless `force`.
fn refuse_in_progress(repo: &gix::Repository, options: &RestoreOptions) -> Result<()> {
    match repo.state() {
        Some(state) if !options.force => {
            Err(Error::OperationInProgress(in_progress_name(&state).into()))
        }
        _ => Ok(()),
    }
}

/// Undo: restore the newest checkpoint of this worktree, other than the `pre-restore` ones,
/// whose tree differs from the working tree now; with `n` > 1, the n-th such (counting
/// distinct trees). `all` holds every checkpoint, newest first.
pub fn undo(
    repo: &gix::Repository,
    all: &[Checkpoint],
    n: usize,
    options: &RestoreOptions,
) -> Result<Restored> {
    refuse_in_progress(repo, options)?;
    let memory_repo;
    let mut guard = None;
    let work_repo = if options.dry_run {
        memory_repo = repo.clone().with_object_memory();
        &memory_repo
    } else {
        guard = Some(Guard::acquire(repo)?);
        repo
    };
    let interrupted = match guard.as_mut() {
        Some(guard) => complete_locked(repo, guard)?,
        None => None,
    };
    let captured = save::capture(work_repo, None, !options.dry_run)?;
    let mut seen = vec![captured.snap.tree];
    let mut count = 0;
    for c in all.iter().filter(|c| {
        c.is_own(captured.worktree.as_deref()) && c.meta.kind != format::KIND_PRE_RESTORE
    }) {
        let tree = store::commit_tree(repo, c.commit)?;
        if seen.contains(&tree) {
            continue;
        }
        seen.push(tree);
        count += 1;
        if count == n.max(1) {
            let mut restored = restore_captured(work_repo, &captured, c, options, guard.as_mut())?;
            restored.interrupted = interrupted;
            return Ok(restored);
        }
    }
    Err(Error::NothingToUndo(n.max(1)))
}

fn in_progress_name(state: &gix::state::InProgress) -> &'static str {
    use gix::state::InProgress::*;
    match state {
        ApplyMailbox | ApplyMailboxRebase => "a `git am`",
        Bisect => "a bisect",
        CherryPick | CherryPickSequence => "a cherry-pick",
        Merge => "a merge",
        Rebase | RebaseInteractive => "a rebase",
        Revert | RevertSequence => "a revert",
    }
}

/// The tree of the index recorded in `target`.
fn index_tree_of(repo: &gix::Repository, target: &Checkpoint) -> Result<ObjectId> {
    let commit = repo
        .find_commit(target.commit)
        .context(|| format!("cannot read checkpoint {}", target.id))?;
    let parents: Vec<ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
    match target.meta.index {
        IndexState::Unmerged => Err(Error::InvalidInput(format!(
            "checkpoint {} was taken with unmerged paths in the index, so it has no staged state to restore; restore without --staged",
            target.id
        ))),
        IndexState::Saved => {
            let index_commit = parents.last().copied().ok_or_else(|| {
                Error::InvalidInput(format!(
                    "checkpoint {} has no index commit to restore",
                    target.id
                ))
            })?;
            store::commit_tree(repo, index_commit)
        }
        IndexState::Clean => match parents.first() {
            Some(head) => store::commit_tree(repo, *head),
            None => Ok(ObjectId::empty_tree(repo.object_hash())),
        },
    }
}

/// Something the snapshot of the working tree does not hold, standing where the target needs
/// to write: an ignored file or directory, or a file the size guard left out (or a directory
/// holding only such files).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Obstacle {
    path: BString,
    too_large: bool,
}

/// Restore `target` over the state `captured`. Everything that writes needs `guard`, the
/// restore lock of this worktree; a dry run does not.
fn restore_captured(
    repo: &gix::Repository,
    captured: &Captured,
    target: &Checkpoint,
    options: &RestoreOptions,
    guard: Option<&mut Guard>,
) -> Result<Restored> {
    let workdir = repo.workdir().ok_or(Error::BareRepository)?.to_owned();
    let target_tree = store::commit_tree(repo, target.commit)?;
    let index_tree = if options.staged {
        let tree = index_tree_of(repo, target)?;
        validate_whole_tree(repo, tree)?;
        Some(tree)
    } else {
        None
    };
    // HEAD then is read from the checkpoint commit, not from its note, which may be anyone's.
    let head_then = store::head_commit(repo, target.commit)?;
    let head_moved =
        (captured.head_commit != head_then).then(|| captured.head_commit.map(|c| c.to_string()));

    let cur = &captured.snap;
    let mut changes = treediff::changes(repo, Some(cur.tree), Some(target_tree))?;
    if !options.paths.is_empty() {
        changes.retain(|c| {
            options
                .paths
                .iter()
                .any(|p| is_at_or_below(c.path.as_bstr(), p.as_bstr()))
        });
    }
    // Sparse directories (skip-worktree) are never materialised.
    changes.retain(|c| {
        c.old.is_none_or(|s| s.kind != EntryKind::Tree)
            && c.new.is_none_or(|s| s.kind != EntryKind::Tree)
    });

    // Untrusted input: every path written must be safe, checked before anything is written.
    for change in &changes {
        if let Some(side) = change.new {
            validate_path(change.path.as_bstr(), side.kind)?;
        }
    }

    let mut plan = Plan::default();
    let mut deletions: Vec<BString> = Vec::new();
    let mut writes: Vec<&FileChange> = Vec::new();
    for change in &changes {
        match change.new {
            None => {
                if change.old.is_some_and(|s| s.kind == EntryKind::Commit) {
                    plan.kept.push(change.path.to_string());
                } else {
                    deletions.push(change.path.clone());
                }
            }
            Some(_) => writes.push(change),
        }
    }

    // A crafted tree may name a path twice, or as both a file and a directory.
    let mut write_set = std::collections::HashSet::new();
    for change in &writes {
        if !write_set.insert(change.path.as_bstr()) {
            return Err(Error::UnsafeTree {
                path: change.path.to_string(),
                reason: "the tree names this path twice".into(),
            });
        }
    }
    for change in &writes {
        let path = change.path.as_bstr();
        for pos in path.find_iter(b"/") {
            if write_set.contains(&path[..pos].as_bstr()) {
                return Err(Error::UnsafeTree {
                    path: path.to_string(),
                    reason: "the tree has a file and a directory of the same name".into(),
                });
            }
        }
    }

    // Nested repositories and submodules are never modified: not a file written or deleted
    // inside one. (One standing exactly where the target needs a file is found below.)
    let mut enclosing = Enclosing {
        workdir: &workdir,
        cur,
        dirs: std::collections::HashMap::new(),
    };
    for path in writes.iter().map(|c| &c.path).chain(&deletions) {
        if let Some(repo_dir) = enclosing.repository_above(path.as_bstr())? {
            return Err(Error::NestedRepositoryInTheWay {
                repo: repo_dir.to_string(),
                path: path.to_string(),
            });
        }
    }

    // Obstacles: files the safety checkpoint does not hold, standing where the target writes.
    let too_large: std::collections::HashSet<BString> = cur
        .skipped
        .iter()
        .filter(|s| s.reason == format::SKIP_TOO_LARGE)
        .map(|s| BString::from(s.path.as_str()))
        .collect();
    let obstacle = |path: &BStr| Obstacle {
        path: path.to_owned(),
        too_large: too_large.contains(path),
    };
    let mut obstacles = Vec::new();
    let mut forced_deletions = Vec::new();
    let mut pipeline = repo
        .filter_pipeline(None)
        .context(|| "cannot set up the smudge filters".into())?
        .0;
    for change in &writes {
        let path = change.path.as_bstr();
        let Some(side) = change.new else { continue };
        // Each parent must be a directory, or a file/symlink the checkpoint holds (deleted
        // first).
        let mut prefix_end = 0;
        while let Some(pos) = path[prefix_end..].find_byte(b'/') {
            let prefix = &path[..prefix_end + pos];
            prefix_end += pos + 1;
            let full = snapshot::worktree_path(&workdir, prefix.as_bstr())?;
            match fs::symlink_metadata(&full) {
                Err(_) => break,
                Ok(md) if md.is_dir() => {}
                Ok(_) => {
                    if cur.leaf(prefix.as_bstr()).is_some() {
                        if !deletions.iter().any(|d| d == prefix) {
                            forced_deletions.push(BString::from(prefix));
                        }
                    } else {
                        obstacles.push(obstacle(prefix.as_bstr()));
                    }
                    break;
                }
            }
        }
        let full = snapshot::worktree_path(&workdir, path)?;
        let Ok(md) = fs::symlink_metadata(&full) else {
            continue;
        };
        if md.is_dir() {
            if side.kind == EntryKind::Commit {
                continue;
            }
            // What is below it that the safety checkpoint does not hold?
            let mut foreign = Vec::new();
            foreign_content(&full, path, cur, &mut foreign)?;
            if let Some(repo_path) = foreign.iter().find(|(_, is_repo)| *is_repo) {
                return Err(Error::NestedRepositoryInTheWay {
                    repo: repo_path.0.to_string(),
                    path: path.to_string(),
                });
            }
            if !foreign.is_empty() {
                obstacles.push(Obstacle {
                    path: path.into(),
                    too_large: foreign.iter().all(|(p, _)| too_large.contains(p)),
                });
            }
        } else if cur.leaf(path).is_none() {
            // An ignored or skipped file: fine if it already is what the target holds.
            if !same_content(repo, &mut pipeline, &full, path, side.kind, side.id, &md)? {
                obstacles.push(obstacle(path));
            }
        }
    }
    obstacles.sort();
    obstacles.dedup_by(|later, earlier| later.path == earlier.path);
    // Replacing them needs their content kept in the safety checkpoint first: never without
    // --force, and never with --no-save, where there is no safety checkpoint.
    if !obstacles.is_empty() && (!options.force || options.no_save) {
        let name = |o: &Obstacle| o.path.to_string();
        return Err(Error::InTheWay {
            ignored: obstacles
                .iter()
                .filter(|o| !o.too_large)
                .map(name)
                .collect(),
            too_large: obstacles.iter().filter(|o| o.too_large).map(name).collect(),
            no_save: options.no_save,
        });
    }
    deletions.extend(forced_deletions);
    deletions.sort();
    deletions.dedup();

    plan.delete = deletions.iter().map(ToString::to_string).collect();
    plan.write = writes.iter().map(|c| c.path.to_string()).collect();
    plan.replaced_ignored = obstacles.iter().map(|o| o.path.to_string()).collect();

    let nothing_to_do = plan.is_empty() && index_tree.is_none();
    if options.dry_run || nothing_to_do {
        return Ok(Restored {
            target: target.clone(),
            plan,
            safety: None,
            index_restored: false,
            head_moved,
            dry_run: options.dry_run,
            interrupted: None,
        });
    }

    let Some(guard) = guard else {
        return Err(Error::Unsupported(
            "internal error: a restore that writes needs the restore lock".into(),
        ));
    };

    // The safety copy: the state now, plus any ignored content about to be replaced.
    let mut extra = Vec::new();
    for o in &obstacles {
        collect_ignored(repo, &mut pipeline, &workdir, o.path.as_bstr(), &mut extra)?;
    }
    extra.sort_by(|a, b| a.path.cmp(&b.path));
    extra.dedup_by(|later, earlier| later.path == earlier.path);
    let safety_state = SafetyState { cur, extra: &extra };
    let safety = if options.no_save {
        None
    } else {
        let mut with_ignored = captured.clone();
        if !obstacles.is_empty() {
            with_ignored.snap.tree = cur.tree_with(repo, &extra)?;
        }
        Some(save::commit_captured(
            repo,
            &with_ignored,
            &SaveOptions {
                message: Some(format!("before restoring {}", target.id)),
                kind: Some(format::KIND_PRE_RESTORE.into()),
                ..SaveOptions::default()
            },
        )?)
    };

    let tmp_dir = guard.tmp_dir().to_owned();
    let mut writer = Writer {
        repo,
        workdir: &workdir,
        tmp_dir: &tmp_dir,
        in_place: false,
        pipeline: &mut pipeline,
        touched: Vec::new(),
    };
    // From here on a kill leaves a partly restored working tree: the journal says what to
    // complete (see `complete_interrupted`).
    guard.begin(&Entry::new(
        target,
        safety.as_ref().map(|s| s.checkpoint().id.as_str()),
        options,
    ))?;
    let applied = writer.apply(&obstacles, &deletions, &writes);
    if let Err(err) = applied {
        let touched = std::mem::take(&mut writer.touched);
        let rolled_back = writer.rollback(&touched, &safety_state).is_ok();
        if rolled_back {
            // Put back as it was: nothing left to complete.
            guard.finish()?;
        }
        return Err(Error::RestoreFailed {
            source: Box::new(err),
            rolled_back,
        });
    }

    let index_restored = match index_tree {
        Some(tree) => {
            write_index(repo, tree)?;
            true
        }
        None => false,
    };
    guard.finish()?;
    Ok(Restored {
        target: target.clone(),
        plan,
        safety,
        index_restored,
        head_moved,
        dry_run: false,
        interrupted: None,
    })
}

/// Whether `path` is `prefix` or below it (`prefix` empty means everything).
pub fn is_at_or_below(path: &BStr, prefix: &BStr) -> bool {
    let prefix = prefix.trim_end_with(|c| c == '/');
    prefix.is_empty()
        || path == prefix
        || (path.starts_with(prefix) && path.get(prefix.len()) == Some(&b'/'))
}

/// Refuse tree paths that could escape the working tree or write into `.git`.
pub fn validate_path(path: &BStr, kind: EntryKind) -> Result<()> {
    let unsafe_path = |reason: &str| Error::UnsafeTree {
        path: path.to_str_lossy().escape_debug().to_string(),
        reason: reason.into(),
    };
    if path.is_empty() {
        return Err(unsafe_path("empty path"));
    }
    if path.contains(&0) {
        return Err(unsafe_path("NUL byte in a name"));
    }
    let components: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
    let last = components.len() - 1;
    for (i, component) in components.iter().enumerate() {
        let mode = (i == last && kind == EntryKind::Link)
            .then_some(gix::validate::path::component::Mode::Symlink);
        gix::validate::path::component(
            component.as_bstr(),
            mode,
            gix::validate::path::component::Options {
                protect_windows: cfg!(windows),
                protect_hfs: true,
                protect_ntfs: true,
            },
        )
        .map_err(|e| unsafe_path(&e.to_string()))?;
    }
    Ok(())
}

/// Validate every path of `tree` (for `--staged`, which writes all of them into the index).
fn validate_whole_tree(repo: &gix::Repository, tree: ObjectId) -> Result<()> {
    let changes = treediff::changes(repo, None, Some(tree))?;
    for change in changes {
        if let Some(side) = change.new {
            validate_path(change.path.as_bstr(), side.kind)?;
        }
    }
    Ok(())
}

/// What a directory of the working tree is, for [`Enclosing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DirKind {
    /// A nested repository (it has a `.git`) or a submodule of the snapshot.
    Repository,
    /// A plain directory.
    Directory,
    /// Missing, or not a directory: nothing below it exists.
    Absent,
}

/// Finds the nested repositories and submodules that hold paths of the working tree, looking
/// at each directory once.
struct Enclosing<'a> {
    workdir: &'a Path,
    cur: &'a snapshot::Snapshot,
    dirs: std::collections::HashMap<BString, DirKind>,
}

impl Enclosing<'_> {
    /// The outermost directory above `path` (not `path` itself) that is a nested repository or
    /// a submodule, if there is one.
    fn repository_above(&mut self, path: &BStr) -> Result<Option<BString>> {
        for pos in path.find_iter(b"/") {
            let prefix = &path[..pos];
            let kind = match self.dirs.get(prefix.as_bstr()) {
                Some(kind) => *kind,
                None => {
                    let kind = self.probe(prefix.as_bstr())?;
                    self.dirs.insert(prefix.into(), kind);
                    kind
                }
            };
            match kind {
                DirKind::Repository => return Ok(Some(prefix.into())),
                DirKind::Directory => {}
                DirKind::Absent => return Ok(None),
            }
        }
        Ok(None)
    }

    fn probe(&self, dir: &BStr) -> Result<DirKind> {
        if self
            .cur
            .leaf(dir)
            .is_some_and(|leaf| leaf.kind == EntryKind::Commit)
        {
            return Ok(DirKind::Repository);
        }
        let full = snapshot::worktree_path(self.workdir, dir)?;
        Ok(match fs::symlink_metadata(&full) {
            Ok(md) if md.is_dir() => {
                if fs::symlink_metadata(full.join(".git")).is_ok() {
                    DirKind::Repository
                } else {
                    DirKind::Directory
                }
            }
            _ => DirKind::Absent,
        })
    }
}

/// Content below directory `full` (repository path `path`) that `cur` does not hold; the flag
/// says it is a nested repository.
fn foreign_content(
    full: &Path,
    path: &BStr,
    cur: &snapshot::Snapshot,
    out: &mut Vec<(BString, bool)>,
) -> Result<()> {
    if full.join(".git").exists() {
        out.push((path.into(), true));
        return Ok(());
    }
    let entries = fs::read_dir(full).map_err(|source| Error::Io {
        context: format!("cannot read directory `{path}`"),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| Error::Io {
            context: format!("cannot read directory `{path}`"),
            source,
        })?;
        let name = gix::path::os_str_into_bstr(&entry.file_name())
            .map(|n| n.to_owned())
            .unwrap_or_else(|_| BString::from(entry.file_name().to_string_lossy().as_bytes()));
        let mut child = BString::from(path);
        child.push(b'/');
        child.extend_from_slice(&name);
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir {
            foreign_content(&entry.path(), child.as_bstr(), cur, out)?;
        } else if cur.leaf(child.as_bstr()).is_none() {
            out.push((child, false));
        }
    }
    Ok(())
}

/// Whether the file at `full` already is what the target would write.
fn same_content(
    repo: &gix::Repository,
    pipeline: &mut gix::filter::Pipeline<'_>,
    full: &Path,
    path: &BStr,
    kind: EntryKind,
    id: ObjectId,
    md: &fs::Metadata,
) -> Result<bool> {
    match kind {
        EntryKind::Link => {
            if !md.is_symlink() {
                return Ok(false);
            }
            let target = fs::read_link(full).map_err(|source| Error::UnreadableFile {
                path: path.to_string(),
                source,
            })?;
            let target = gix::path::into_bstr(target).map_err(|e| Error::Git {
                context: format!("cannot read symlink `{path}`"),
                source: Box::new(e),
            })?;
            Ok(blob(repo, id)? == target.as_bytes())
        }
        EntryKind::Blob | EntryKind::BlobExecutable => {
            if !md.is_file() {
                return Ok(false);
            }
            let want = to_worktree(pipeline, &blob(repo, id)?, path)?;
            let have = fs::read(full).map_err(|source| Error::UnreadableFile {
                path: path.to_string(),
                source,
            })?;
            Ok(want == have)
        }
        _ => Ok(false),
    }
}

/// Hash the ignored file or directory at `path` into `leaves`, for the safety checkpoint.
fn collect_ignored(
    repo: &gix::Repository,
    pipeline: &mut gix::filter::Pipeline<'_>,
    workdir: &Path,
    path: &BStr,
    leaves: &mut Vec<Leaf>,
) -> Result<()> {
    let full = snapshot::worktree_path(workdir, path)?;
    let md = fs::symlink_metadata(&full).map_err(|source| Error::UnreadableFile {
        path: path.to_string(),
        source,
    })?;
    if md.is_dir() {
        let entries = fs::read_dir(&full).map_err(|source| Error::UnreadableFile {
            path: path.to_string(),
            source,
        })?;
        for entry in entries {
            let entry = entry.map_err(|source| Error::UnreadableFile {
                path: path.to_string(),
                source,
            })?;
            let mut child = BString::from(path);
            child.push(b'/');
            child.extend_from_slice(entry.file_name().to_string_lossy().as_bytes());
            collect_ignored(repo, pipeline, workdir, child.as_bstr(), leaves)?;
        }
        return Ok(());
    }
    let index = gix::index::State::new(repo.object_hash());
    match pipeline.worktree_file_to_object(path, &index) {
        Ok(Some((id, kind, _))) => leaves.push(Leaf {
            path: path.into(),
            kind,
            id,
        }),
        Ok(None) => {}
        Err(err) => {
            return Err(Error::Git {
                context: format!("cannot save ignored file `{path}`"),
                source: Box::new(err),
            });
        }
    }
    Ok(())
}

fn blob(repo: &gix::Repository, id: ObjectId) -> Result<Vec<u8>> {
    Ok(repo
        .find_blob(id)
        .context(|| format!("cannot read blob {id}"))?
        .data
        .clone())
}

/// Apply smudge filters and eol conversion to blob `data` for `path`.
fn to_worktree(
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

/// The state the safety checkpoint holds: the snapshot taken before the restore, plus ignored
/// content that `--force` replaces.
struct SafetyState<'a> {
    cur: &'a snapshot::Snapshot,
    extra: &'a [Leaf],
}

impl SafetyState<'_> {
    fn leaf(&self, path: &BStr) -> Option<Leaf> {
        match self.extra.binary_search_by(|l| l.path.as_bstr().cmp(path)) {
            Ok(i) => Some(self.extra[i].clone()),
            Err(_) => self.cur.leaf(path),
        }
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
/// touched so that a failure can be rolled back.
struct Writer<'a, 'repo> {
    repo: &'repo gix::Repository,
    workdir: &'a Path,
    /// Where files are written before being renamed into place (in the git directory).
    tmp_dir: &'a Path,
    /// Whether files are written in place, because a rename from `tmp_dir` into the working
    /// tree failed (they are on different file systems).
    in_place: bool,
    pipeline: &'a mut gix::filter::Pipeline<'repo>,
    touched: Vec<BString>,
}

impl Writer<'_, '_> {
    fn apply(
        &mut self,
        obstacles: &[Obstacle],
        deletions: &[BString],
        writes: &[&FileChange],
    ) -> Result<()> {
        let total = obstacles.len() + deletions.len() + writes.len();
        let mut done = 0;
        let mut tick = || {
            done += 1;
            crate::progress::report("restoring files", done, total);
        };
        for o in obstacles {
            self.touched.push(o.path.clone());
            self.remove_any(o.path.as_bstr())?;
            tick();
        }
        // Deeper paths first, so that emptied directories can go.
        for path in deletions.iter().rev() {
            self.touched.push(path.clone());
            self.delete(path.as_bstr())?;
            tick();
        }
        for change in writes {
            let Some(side) = change.new else { continue };
            self.touched.push(change.path.clone());
            self.write(change.path.as_bstr(), side.kind, side.id)?;
            tick();
        }
        Ok(())
    }

    /// Put every touched path back as the safety state has it.
    fn rollback(&mut self, touched: &[BString], state: &SafetyState<'_>) -> Result<()> {
        let mut result = Ok(());
        for path in touched.iter().rev() {
            let below = state.leaves_at_or_below(path.as_bstr());
            let step = match state.leaf(path.as_bstr()) {
                Some(leaf) => {
                    let _ = self.remove_any(path.as_bstr());
                    self.write(path.as_bstr(), leaf.kind, leaf.id)
                }
                None if !below.is_empty() => {
                    let _ = self.remove_any(path.as_bstr());
                    below
                        .iter()
                        .try_for_each(|l| self.write(l.path.as_bstr(), l.kind, l.id))
                }
                None => self.delete(path.as_bstr()),
            };
            if step.is_err() && result.is_ok() {
                result = step;
            }
        }
        result
    }

    fn full_path(&self, path: &BStr) -> Result<PathBuf> {
        snapshot::worktree_path(self.workdir, path)
    }

    /// Create the parent directories of `path`, refusing to go through anything but real
    /// directories.
    fn parents(&self, path: &BStr) -> Result<()> {
        let mut end = 0;
        while let Some(pos) = path[end..].find_byte(b'/') {
            let prefix = &path[..end + pos];
            end += pos + 1;
            let full = self.full_path(prefix.as_bstr())?;
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
        // Check the parents without following symlinks: never delete through one.
        let mut end = 0;
        while let Some(pos) = path[end..].find_byte(b'/') {
            let prefix = &path[..end + pos];
            end += pos + 1;
            match fs::symlink_metadata(self.full_path(prefix.as_bstr())?) {
                Ok(md) if md.is_dir() => {}
                _ => return Ok(()),
            }
        }
        let full = self.full_path(path)?;
        match fs::symlink_metadata(&full) {
            Ok(md) if md.is_dir() => return Ok(()),
            Ok(_) => fs::remove_file(&full).map_err(|source| Error::Io {
                context: format!("cannot delete `{path}`"),
                source,
            })?,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
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

    /// Remove a file, symlink or directory tree (an ignored obstacle already saved).
    fn remove_any(&mut self, path: &BStr) -> Result<()> {
        let full = self.full_path(path)?;
        let result = match fs::symlink_metadata(&full) {
            Ok(md) if md.is_dir() => fs::remove_dir_all(&full),
            Ok(_) => fs::remove_file(&full),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(err) => Err(err),
        };
        result.map_err(|source| Error::Io {
            context: format!("cannot remove `{path}`"),
            source,
        })
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

/// Replace the index with `tree`, keeping the stat data of entries that did not change so that
/// git does not have to rehash them.
fn write_index(repo: &gix::Repository, tree: ObjectId) -> Result<()> {
    let old = repo
        .index_or_empty()
        .context(|| "cannot read the index".into())?;
    let mut new = repo
        .index_from_tree(&tree)
        .context(|| "cannot build the index from the checkpoint".into())?;
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
        let mut writer = Writer {
            repo: &repo,
            workdir: work.path(),
            tmp_dir: scratch.path(),
            in_place: false,
            pipeline: &mut pipeline,
            touched: Vec::new(),
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
