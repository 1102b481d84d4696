//! Working out a restore: what to write, what to delete, what stands in the way; nothing is
//! changed here.

use std::fs;
use std::path::Path;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::EntryKind;

use super::apply::{blob, kind_on_disk, to_worktree};
use super::{Obstacle, Plan, RestoreOptions};
use crate::capture::Captured;
use crate::error::{Context, Error, Result};
use crate::format::{self, IndexState};
use crate::snapshot::{self, Leaf};
use crate::store::{self, Checkpoint};
use crate::treediff::{self, FileChange, Order, is_at_or_below};

/// A restore worked out against one capture of the working tree, nothing changed yet.
#[derive(Debug, Clone)]
pub(crate) struct Planned {
    /// What the restore does, as the outcome reports it.
    pub plan: Plan,
    /// The index to write (`staged`).
    pub index_tree: Option<ObjectId>,
    /// `HEAD` now, when it differs from the `HEAD` the checkpoint was taken on.
    pub head_moved: Option<Option<String>>,
    /// Ignored or size-skipped content replaced because of `force`.
    pub obstacles: Vec<Obstacle>,
    /// Paths to delete, sorted.
    pub deletions: Vec<BString>,
    /// Paths to write, with their content.
    pub writes: Vec<FileChange>,
}

impl Planned {
    /// Whether the restore changes nothing, neither files nor the index.
    pub fn is_noop(&self) -> bool {
        self.plan.is_empty() && self.index_tree.is_none()
    }

    /// The tree the working tree holds once this plan is applied over `cur`.
    pub fn result_tree(
        &self,
        repo: &gix::Repository,
        cur: &snapshot::Snapshot,
    ) -> Result<ObjectId> {
        let writes: Vec<Leaf> = self
            .writes
            .iter()
            .filter_map(|c| {
                c.new.map(|side| Leaf {
                    path: c.path.clone(),
                    kind: side.kind,
                    id: side.id,
                })
            })
            .collect();
        cur.tree_after(repo, &writes, &self.deletions)
    }
}

/// Work out the restore of `target` over the state `captured`. Refuses (before anything is
/// changed) unsafe tree paths, writes into nested repositories and submodules, and ignored or
/// size-skipped content in the way (unless `force`, and never with `no_save`).
pub(crate) fn plan(
    repo: &gix::Repository,
    captured: &Captured,
    target: &Checkpoint,
    options: &RestoreOptions,
) -> Result<Planned> {
    let workdir = repo.workdir().ok_or(Error::BareRepository)?.to_owned();
    let target_tree = crate::capture::commit_tree(repo, target.commit)?;
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
    // A path may be given as the working tree spells it (`core.ignoreCase`).
    let paths = cur.with_snapshot_spellings(&options.paths);
    let mut changes = checked_changes(repo, cur.tree, target_tree, &paths)?;
    if !paths.is_empty() {
        changes.retain(|c| {
            paths
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
            refuse_read_through_symlink(change.path.as_bstr(), side.kind)?;
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
            // `checkpoint.exclude`: never touched, exactly as ignored files are not (and not
            // even replaced with `--force`): nothing is written there, whatever stands there is
            // left as it is, and it is not captured into the safety checkpoint either.
            Some(_) if cur.excluded(change.path.as_bstr(), false) => {
                plan.excluded.push(change.path.to_string());
            }
            Some(_) => writes.push(change),
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
        if let Some(repo_dir) = enclosing.repository_above(cur.on_disk(path.as_bstr()).as_bstr())? {
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
    // Writes that would replace excluded content standing in the way.
    let mut kept_out: std::collections::HashSet<BString> = std::collections::HashSet::new();
    let mut pipeline = repo
        .filter_pipeline(None)
        .context(|| "cannot set up the smudge filters".into())?
        .0;
    for change in &writes {
        let path = change.path.as_bstr();
        let Some(side) = change.new else { continue };
        // Each parent must be a real directory, or a file or symlink the checkpoint holds
        // (deleted first). Nothing is ever looked up through a symlink: what lies behind one
        // that stands in the way is not part of the working tree, and only the symlink itself
        // (which the safety checkpoint holds) is replaced. A file the safety checkpoint holds
        // is looked for where the capture found it.
        let disk = cur.on_disk(path);
        let mut prefix_end = 0;
        let mut below_real_directories = true;
        while let Some(pos) = disk[prefix_end..].find_byte(b'/') {
            let prefix = &disk[..prefix_end + pos];
            prefix_end += pos + 1;
            let full = snapshot::worktree_path(&workdir, prefix.as_bstr())?;
            match fs::symlink_metadata(&full) {
                Ok(md) if md.is_dir() => {}
                Err(_) => {
                    below_real_directories = false;
                    break;
                }
                Ok(_) => {
                    if cur.leaf(prefix.as_bstr()).is_some() {
                        if !deletions.iter().any(|d| d == prefix) {
                            forced_deletions.push(BString::from(prefix));
                        }
                    } else {
                        obstacles.push(obstacle(prefix.as_bstr()));
                    }
                    below_real_directories = false;
                    break;
                }
            }
        }
        if !below_real_directories {
            // Nothing stands at `path` itself once its parent is replaced.
            continue;
        }
        let full = snapshot::worktree_path(&workdir, disk.as_bstr())?;
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
            if cur.excluded(path, true)
                || foreign
                    .iter()
                    .any(|(p, _)| cur.excluded(p.as_bstr(), false))
            {
                kept_out.insert(path.to_owned());
                continue;
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
    if !kept_out.is_empty() {
        writes.retain(|c| !kept_out.contains(&c.path));
        plan.excluded
            .extend(kept_out.iter().map(ToString::to_string));
        plan.excluded.sort();
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

    Ok(Planned {
        plan,
        index_tree,
        head_moved,
        obstacles,
        deletions,
        writes: writes.into_iter().cloned().collect(),
    })
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

/// The paths `plan` writes or deletes whose entry in the index now (`captured`) differs from
/// the staged state recorded in `target`: after a restore that leaves the index alone,
/// `git status` shows them otherwise than when the checkpoint was taken (a file staged as new
/// then shows as untracked, a staged rename as `RD`). Empty when either index has unmerged
/// entries, for which there is nothing to compare.
pub(crate) fn index_mismatch(
    repo: &gix::Repository,
    captured: &Captured,
    target: &Checkpoint,
    plan: &Plan,
) -> Result<Vec<String>> {
    let (Some(now), false) = (
        captured.snap.index_tree,
        target.meta.index == IndexState::Unmerged,
    ) else {
        return Ok(Vec::new());
    };
    let then = index_tree_of(repo, target)?;
    if then == now {
        return Ok(Vec::new());
    }
    let touched: std::collections::HashSet<&str> = plan
        .write
        .iter()
        .chain(&plan.delete)
        .map(String::as_str)
        .collect();
    Ok(treediff::changes(repo, Some(now), Some(then))?
        .into_iter()
        .map(|c| c.path.to_string())
        .filter(|p| touched.contains(p.as_str()))
        .collect())
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

/// Refuse a tree entry that git's fsck reports (`emptyName`, `fullPathname`, `hasDot`,
/// `hasDotdot`, `hasDotgit` in its HFS+ and NTFS spellings, `.gitmodules` as a symlink, and,
/// from its `order` among its tree's entries, `duplicateEntries` and `treeNotSorted`) and that
/// git itself will not check out; `path` is where the entry stands, for the message.
pub fn validate_name(path: &BStr, name: &BStr, kind: EntryKind, order: Order) -> Result<()> {
    use gix::validate::path::component::{self, Error as Invalid};
    let unsafe_name = |reason: &str| Error::UnsafeTree {
        path: path.to_str_lossy().escape_debug().to_string(),
        reason: reason.into(),
    };
    match order {
        Order::Sorted => {}
        // Two entries of one name (two files, or a file and a directory) are one path: which
        // one git reads depends on how it walks the tree, and an index built from it holds
        // the path twice.
        Order::Duplicate => {
            return Err(unsafe_name(
                "a tree names this path twice (`git fsck`: duplicateEntries)",
            ));
        }
        // git looks a path up in a tree by its order: in one out of order it may miss entries.
        Order::Unsorted => {
            return Err(unsafe_name(
                "a tree's entries are not in git's order (`git fsck`: treeNotSorted)",
            ));
        }
    }
    if name.is_empty() {
        return Err(unsafe_name("a tree entry has an empty name"));
    }
    if name.contains(&b'/') {
        return Err(unsafe_name("a tree entry's name holds a `/`"));
    }
    if name.contains(&0) {
        return Err(unsafe_name("NUL byte in a name"));
    }
    let mode = (kind == EntryKind::Link).then_some(component::Mode::Symlink);
    let options = component::Options {
        protect_windows: cfg!(windows),
        protect_hfs: true,
        protect_ntfs: true,
    };
    gix::validate::path::component(name, mode, options).map_err(|e| unsafe_name(&e.to_string()))?;
    // git also reads a backslash as a separator when it looks for `.git` (`is_ntfs_dotgit`,
    // `verify_path`), on every system: `.git\x` and `x\.git` are refused too.
    if !name.contains(&b'\\') {
        return Ok(());
    }
    for piece in name.split_str(b"\\") {
        if let Err(e @ (Invalid::DotGitDir | Invalid::SymlinkedGitModules)) =
            gix::validate::path::component(piece.as_bstr(), mode, options)
        {
            return Err(unsafe_name(&e.to_string()));
        }
    }
    Ok(())
}

/// Refuse to write a symlink named as one of the files git reads from the working tree itself
/// (`.gitattributes`, `.gitignore`, `.mailmap`, in any case and in their HFS+ and NTFS
/// spellings; `.gitmodules` is refused with the other names): `git fsck` reports such entries
/// (`gitattributesSymlink`, `gitignoreSymlink`, `mailmapSymlink`). git checks them out but has
/// not read through them since 2.32; other readers of these files (older git, editors, search
/// tools) follow them wherever they lead, outside the working tree too, and a checkpoint may
/// come from someone else. The index (`--staged`) takes them, as git's does.
fn refuse_read_through_symlink(path: &BStr, kind: EntryKind) -> Result<()> {
    if kind != EntryKind::Link {
        return Ok(());
    }
    let name = path.rsplit_str(b"/").next().unwrap_or_default().as_bstr();
    for (file, ntfs_short, check) in [
        (".gitattributes", "gi7d29", "gitattributesSymlink"),
        (".gitignore", "gi250a", "gitignoreSymlink"),
        (".mailmap", "maba30", "mailmapSymlink"),
    ] {
        let needle = &file[1..];
        if is_hfs_dot(name, needle) || is_ntfs_dot(name, needle, ntfs_short) {
            return Err(Error::UnsafeTree {
                path: path.to_str_lossy().escape_debug().to_string(),
                reason: format!(
                    "a symlink named as `{file}`, which git never reads through a symlink (`git fsck`: {check})"
                ),
            });
        }
    }
    Ok(())
}

/// git's `is_hfs_dot_generic`: `name` is `.` and `needle` (ASCII, lowercase) in any case, once
/// the code points HFS+ ignores are dropped.
fn is_hfs_dot(name: &BStr, needle: &str) -> bool {
    let ignorable = |c: &char| {
        matches!(
            u32::from(*c),
            0x200c..=0x200f | 0x202a..=0x202e | 0x206a..=0x206f | 0xfeff
        )
    };
    let mut chars = name.chars().filter(|c| !ignorable(c));
    if chars.next() != Some('.') {
        return false;
    }
    for want in needle.chars() {
        match chars.next() {
            Some(c) if c.is_ascii() && c.to_ascii_lowercase() == want => {}
            _ => return false,
        }
    }
    chars.next().is_none()
}

/// git's `is_ntfs_dot_generic`: `name` is `.` and `needle` (ASCII, lowercase), or its NTFS
/// short name (the first six characters of `needle` and `~1` to `~4`, or `short_prefix` and
/// `~` and digits), in any case, followed only by spaces and periods (and perhaps an
/// alternate data stream, from `:` on).
fn is_ntfs_dot(name: &BStr, needle: &str, short_prefix: &str) -> bool {
    let at = |i: usize| name.get(i).copied().unwrap_or(0);
    let only_spaces_and_periods = |from: usize| {
        for i in from.. {
            match at(i) {
                0 | b':' => return true,
                b' ' | b'.' => {}
                _ => return false,
            }
        }
        false
    };
    let needle = needle.as_bytes();
    let starts_with = |from: usize, what: &[u8]| {
        name.get(from..from + what.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(what))
    };
    if at(0) == b'.' && starts_with(1, needle) {
        return only_spaces_and_periods(needle.len() + 1);
    }
    if starts_with(0, &needle[..needle.len().min(6)])
        && at(6) == b'~'
        && (b'1'..=b'4').contains(&at(7))
    {
        return only_spaces_and_periods(8);
    }
    let short_prefix = short_prefix.as_bytes();
    let mut saw_tilde = false;
    let mut i = 0;
    while i < 8 {
        let c = at(i);
        if c == 0 {
            return false;
        } else if saw_tilde {
            if !c.is_ascii_digit() {
                return false;
            }
        } else if c == b'~' {
            i += 1;
            if !(b'1'..=b'9').contains(&at(i)) {
                return false;
            }
            saw_tilde = true;
        } else if i >= 6 || c & 0x80 != 0 || short_prefix.get(i) != Some(&c.to_ascii_lowercase()) {
            return false;
        }
        i += 1;
    }
    only_spaces_and_periods(i)
}

/// What differs from the tree `cur` to the tree `target`, refusing every entry name of
/// `target` that [`validate_name`] refuses on the way to or below `paths` (all of it when
/// `paths` is empty), before anything is written.
fn checked_changes(
    repo: &gix::Repository,
    cur: ObjectId,
    target: ObjectId,
    paths: &[BString],
) -> Result<Vec<FileChange>> {
    let relevant = |path: &BStr| {
        paths.is_empty()
            || paths
                .iter()
                .any(|p| is_at_or_below(path, p.as_bstr()) || is_at_or_below(p.as_bstr(), path))
    };
    let check = |path: &BStr, name: &BStr, kind: EntryKind, order: Order| {
        if relevant(path) {
            validate_name(path, name, kind, order)
        } else {
            Ok(())
        }
    };
    treediff::changes_checked(repo, Some(cur), Some(target), &check)
}

/// Validate every name and path of `tree` (for `--staged`, which writes all of them into the
/// index).
fn validate_whole_tree(repo: &gix::Repository, tree: ObjectId) -> Result<()> {
    let changes = treediff::changes_checked(repo, None, Some(tree), &validate_name)?;
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
    if kind_on_disk(repo, kind) != kind {
        // A symlink written as a plain file: its content is the target, unfiltered.
        if !md.is_file() {
            return Ok(false);
        }
        let have = fs::read(full).map_err(|source| Error::UnreadableFile {
            path: path.to_string(),
            source,
        })?;
        return Ok(blob(repo, id)? == have);
    }
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

/// The ignored (or size-skipped) content that `obstacles` hold, hashed into leaves for the
/// safety checkpoint, sorted by path.
pub(crate) fn ignored_content(
    repo: &gix::Repository,
    workdir: &Path,
    obstacles: &[Obstacle],
) -> Result<Vec<Leaf>> {
    let mut extra = Vec::new();
    if obstacles.is_empty() {
        return Ok(extra);
    }
    let mut pipeline = repo
        .filter_pipeline(None)
        .context(|| "cannot set up the clean filters".into())?
        .0;
    for o in obstacles {
        collect_ignored(repo, &mut pipeline, workdir, o.path.as_bstr(), &mut extra)?;
    }
    extra.sort_by(|a, b| a.path.cmp(&b.path));
    extra.dedup_by(|later, earlier| later.path == earlier.path);
    Ok(extra)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// git's own cases (t0060-path-utils.sh, "match .gitmodules" and the others).
    #[test]
    fn special_names_are_matched_as_git_matches_them() {
        let is = |name: &str, needle: &str, short: &str| {
            let name = name.as_bytes().as_bstr();
            is_hfs_dot(name, needle) || is_ntfs_dot(name, needle, short)
        };
        let u200c = "\u{200c}";
        let mut matching: Vec<String> = vec![
            ".gitmodules".into(),
            format!(".git{u200c}modules"),
            ".Gitmodules".into(),
            ".gitmoduleS".into(),
        ];
        for base in [".gitmodules", ".Gitmodules"] {
            for tail in [" ", ".", "  ", ". ", " .", "..", "   ", ".  ", " . ", "  ."] {
                matching.push(format!("{base}{tail}"));
            }
        }
        for name in [
            "GITMOD~1",
            "gitmod~1",
            "GITMOD~2",
            "gitmod~3",
            "GITMOD~4",
            "GITMOD~1 ",
            "gitmod~2.",
            "GITMOD~3  ",
            "gitmod~4. ",
            "GITMOD~1 .",
            "gitmod~2   ",
            "GITMOD~3.  ",
            "gitmod~4 . ",
            "GI7EBA~1",
            "gi7eba~9",
            "GI7EB~10",
            "GI7EB~11",
            "GI7EB~99",
            "GI7E~100",
            "GI7E~101",
            "GI7E~999",
            "~1000000",
            "~9999999",
            ".gitmodules:$DATA",
            "gitmod~4 . :$DATA",
        ] {
            matching.push(name.into());
        }
        for name in &matching {
            assert!(is(name, "gitmodules", "gi7eba"), "{name:?}");
        }
        for name in [
            ".gitmodules x",
            ".gitmodules .x",
            " .gitmodules",
            "..gitmodules",
            "gitmodules",
            ".gitmodule",
            ".gitmodules x ",
            "GI7EBA~",
            "GI7EBA~0",
            "GI7EBA~~1",
            "GI7EBA~X",
            "Gx7EBA~1",
            "GI7EBX~1",
            "GI7EB~1",
            "GI7EB~01",
            "GI7EB~1X",
            ".gitmodules,:$DATA",
        ] {
            assert!(!is(name, "gitmodules", "gi7eba"), "{name:?}");
        }
        for (needle, short, names) in [
            (
                "gitattributes",
                "gi7d29",
                [
                    ".gitattributes",
                    ".git\u{200c}attributes",
                    ".Gitattributes",
                    ".gitattributeS",
                    "GITATT~1",
                    "GI7D29~1",
                ],
            ),
            (
                "gitignore",
                "gi250a",
                [
                    ".gitignore",
                    ".git\u{200c}ignore",
                    ".Gitignore",
                    ".gitignorE",
                    "GITIGN~1",
                    "GI250A~1",
                ],
            ),
            (
                "mailmap",
                "maba30",
                [
                    ".mailmap",
                    ".mail\u{200c}map",
                    ".Mailmap",
                    ".mailmaP",
                    "MAILMA~1",
                    "MABA30~1",
                ],
            ),
        ] {
            for name in names {
                assert!(is(name, needle, short), "{needle}: {name:?}");
            }
            assert!(!is(&format!("{}x", names[0]), needle, short));
        }
        // Only a symlink of such a name is refused, wherever it stands.
        assert!(refuse_read_through_symlink(b"a/.GitIgnore".as_bstr(), EntryKind::Link).is_err());
        assert!(refuse_read_through_symlink(b".gitignore".as_bstr(), EntryKind::Blob).is_ok());
        assert!(refuse_read_through_symlink(b"x.gitignore".as_bstr(), EntryKind::Link).is_ok());
    }
}
