//! Comparing two trees path by path, skipping identical subtrees by id.

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice, ByteVec};
use gix::objs::tree::EntryKind;

use crate::error::{Context, Result};

/// A leaf entry (blob, symlink or gitlink) of a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side {
    /// Its kind (mode).
    pub kind: EntryKind,
    /// Its object id.
    pub id: ObjectId,
}

/// One path that differs between two trees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// Path relative to the top of the tree.
    pub path: BString,
    /// The entry in the old tree, if any.
    pub old: Option<Side>,
    /// The entry in the new tree, if any.
    pub new: Option<Side>,
}

impl FileChange {
    /// `A`, `D` or `M`, as `git diff --name-status` writes them (type changes are `M` here).
    pub fn status_letter(&self) -> char {
        match (self.old, self.new) {
            (None, _) => 'A',
            (_, None) => 'D',
            _ => 'M',
        }
    }
}

/// Every leaf that differs between `old` (`None`: the empty tree) and `new`, sorted by path.
pub fn changes(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
) -> Result<Vec<FileChange>> {
    sorted_changes(repo, old, new, None)
}

/// The leaves that differ between `old` and `new`, sorted by path, each entry read checked by
/// `check` when there is one.
fn sorted_changes(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    check: Option<NameCheck<'_>>,
) -> Result<Vec<FileChange>> {
    let calls = Calls {
        check,
        keep_going: None,
    };
    let (mut out, _) = compare(repo, old, new, calls)?;
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Whether every leaf that differs between `old` and `new` passes `test`: the comparison
/// stops at the first one that does not, reading no further tree.
pub fn all_changes(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    test: &dyn Fn(&FileChange) -> bool,
) -> Result<bool> {
    let calls = Calls {
        check: None,
        keep_going: Some(test),
    };
    let (_, stopped) = compare(repo, old, new, calls)?;
    Ok(!stopped)
}

/// [`diff`] from the roots: the changes, in the order met, and whether it stopped early.
fn compare(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    calls: Calls<'_>,
) -> Result<(Vec<FileChange>, bool)> {
    let mut out = Vec::new();
    let stopped = diff(
        repo,
        old,
        new,
        &mut BString::default(),
        true,
        calls,
        &mut out,
    )?;
    Ok((out, stopped))
}

/// Where an entry stands among the entries of its tree, by git's rules for a tree object: in
/// strictly increasing order of names (a directory's name compared as if it ended in `/`),
/// each name once. `git fsck` rejects a tree that breaks them (`treeNotSorted`,
/// `duplicateEntries`), and git's own tree walks, which rely on that order, read such a tree
/// otherwise than a plain reading of its entries does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// In a tree in git's order, the first entry of its name.
    Sorted,
    /// In a tree whose entries are not in git's order: a walk that relies on the order (git's,
    /// looking for a path) may miss any entry of it.
    Unsorted,
    /// A name an earlier entry of the same tree has (a file and a directory of the same name
    /// too): one path, twice.
    Duplicate,
}
/// A check of the entries of the new tree that [`changes_checked`] reads: called with the
/// entry's path, its name, its kind and its place among its tree's entries. The path joins
/// every name with `/`, an empty one too.
pub type NameCheck<'a> = &'a dyn Fn(&BStr, &BStr, EntryKind, Order) -> Result<()>;

/// [`changes`], calling `check` on every entry of `new` that the comparison reads (every
/// entry of each subtree of `new` that differs from `old`) and stopping at its first error.
/// A tree from elsewhere may hold names that must never reach the file system (empty, `.`,
/// `..`, `.git`, holding a `/`), or a name twice, and only the entries themselves tell them
/// apart: joined into a path, `a/b` reads the same as `b` inside `a`, and two entries `f` as
/// one path `f`.
pub fn changes_checked(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    check: NameCheck<'_>,
) -> Result<Vec<FileChange>> {
    sorted_changes(repo, old, new, Some(check))
}

/// The [`Order`] of each of `entries`, in the order a tree object holds them.
fn tree_order(entries: &[(BString, EntryKind, ObjectId)]) -> Vec<Order> {
    // git's `base_name_compare`: a directory sorts as its name followed by `/`.
    let key = |e: &(BString, EntryKind, ObjectId)| {
        let mut key: Vec<u8> = e.0.to_vec();
        if e.1 == EntryKind::Tree {
            key.push(b'/');
        }
        key
    };
    let mut seen = std::collections::HashSet::with_capacity(entries.len());
    let mut previous: Option<Vec<u8>> = None;
    let mut sorted = true;
    let mut places: Vec<Order> = Vec::with_capacity(entries.len());
    for e in entries {
        if !seen.insert(e.0.as_bstr()) {
            places.push(Order::Duplicate);
            continue;
        }
        let this = key(e);
        sorted &= previous.as_ref().is_none_or(|p| *p < this);
        previous = Some(this);
        places.push(Order::Sorted);
    }
    if !sorted {
        places.fill(Order::Unsorted);
    }
    places
}

/// Whether `path` is `prefix` or below it (`prefix` empty means everything).
pub fn is_at_or_below(path: &BStr, prefix: &BStr) -> bool {
    let prefix = prefix.trim_end_with(|c| c == '/');
    prefix.is_empty()
        || path == prefix
        || (path.starts_with(prefix) && path.get(prefix.len()) == Some(&b'/'))
}

/// What `tree` (`None`: the empty tree) holds at `path`: its kind and object, or `None`.
pub fn entry_at(
    repo: &gix::Repository,
    tree: Option<ObjectId>,
    path: &BStr,
) -> Result<Option<Side>> {
    let Some(tree) = tree else {
        return Ok(None);
    };
    let tree = repo
        .find_tree(tree)
        .context(|| format!("cannot read tree {tree}"))?;
    let entry = tree
        .lookup_entry(path.split_str("/"))
        .context(|| format!("cannot look up `{path}`"))?;
    Ok(entry.map(|e| Side {
        kind: e.mode().kind(),
        id: e.object_id(),
    }))
}

/// Whether `tree` (`None`: the empty tree) has something at `path`: a file, or a directory
/// holding some. The empty path is the whole tree, and always matches.
pub fn has_path(repo: &gix::Repository, tree: Option<ObjectId>, path: &BStr) -> Result<bool> {
    let path = path.trim_end_with(|c| c == '/').as_bstr();
    if path.is_empty() {
        return Ok(true);
    }
    let Some(tree) = tree else {
        return Ok(false);
    };
    // Walk by hand rather than with `lookup_entry`: a tree git's fsck rejects may hold an entry
    // with an empty name, which lies on the way to every path below it. Such a path counts as
    // matched, so that the checked walk that follows refuses the tree with its real reason
    // instead of a misleading "did not match".
    let mut tree_id = tree;
    let mut components = path.split_str("/").peekable();
    while let Some(component) = components.next() {
        let tree = repo
            .find_tree(tree_id)
            .context(|| format!("cannot read tree {tree_id}"))?;
        let decoded = tree
            .decode()
            .context(|| format!("cannot decode tree {tree_id}"))?;
        if decoded.entries.iter().any(|e| e.filename.is_empty()) {
            return Ok(true);
        }
        let Some(entry) = decoded.entries.iter().find(|e| e.filename == component) else {
            return Ok(false);
        };
        if components.peek().is_none() {
            return Ok(true);
        }
        if !entry.mode.is_tree() {
            return Ok(false);
        }
        tree_id = entry.oid.to_owned();
    }
    Ok(true)
}

/// How many paths were added, modified and deleted between two trees.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Paths only in the new tree.
    pub added: u64,
    /// Paths in both whose content, mode or type differs.
    pub modified: u64,
    /// Paths only in the old tree.
    pub deleted: u64,
}

impl Summary {
    /// Count `changes` by [`FileChange::status_letter`].
    pub fn of(changes: &[FileChange]) -> Summary {
        let mut summary = Summary::default();
        for change in changes {
            match change.status_letter() {
                'A' => summary.added += 1,
                'D' => summary.deleted += 1,
                _ => summary.modified += 1,
            }
        }
        summary
    }

    /// Number of paths that differ.
    pub fn changed(&self) -> u64 {
        self.added + self.modified + self.deleted
    }
}

/// What differs between `old` and `new` (`None`: the empty tree), counted; e.g. what a command
/// changed between the checkpoint before it and the one after it.
pub fn summary(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
) -> Result<Summary> {
    Ok(Summary::of(&changes(repo, old, new)?))
}

type Entries = Vec<(BString, EntryKind, ObjectId)>;

fn load(repo: &gix::Repository, id: Option<ObjectId>) -> Result<Entries> {
    let Some(id) = id else {
        return Ok(Vec::new());
    };
    if id.is_empty_tree() {
        return Ok(Vec::new());
    }
    let tree = repo
        .find_tree(id)
        .context(|| format!("cannot read tree {id}"))?;
    let decoded = tree
        .decode()
        .context(|| format!("cannot decode tree {id}"))?;
    Ok(decoded
        .entries
        .iter()
        .map(|e| (e.filename.to_owned(), e.mode.kind(), e.oid.to_owned()))
        .collect())
}

/// What a comparison calls as it goes: `check` on each entry of the new tree it reads;
/// `keep_going` on each change, stopping at the first it refuses.
#[derive(Clone, Copy)]
struct Calls<'a> {
    check: Option<NameCheck<'a>>,
    keep_going: Option<&'a dyn Fn(&FileChange) -> bool>,
}

/// Push every leaf that differs between `old` and `new` below `prefix` onto `out`, making the
/// `calls`. Returns `true` when `keep_going` refused a change (not pushed) and the walk
/// stopped there.
fn diff(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    prefix: &mut BString,
    top: bool,
    calls: Calls<'_>,
    out: &mut Vec<FileChange>,
) -> Result<bool> {
    let Calls { check, keep_going } = calls;
    if old == new {
        return Ok(false);
    }
    let mut a = load(repo, old)?;
    let b = load(repo, new)?;
    let places = match check {
        Some(_) => tree_order(&b),
        None => Vec::new(),
    };
    let mut b: Vec<_> = b
        .into_iter()
        .enumerate()
        .map(|(i, e)| (e, places.get(i).copied().unwrap_or(Order::Sorted)))
        .collect();
    // Compare by name only; tree order (directories sort as `name/`) is not needed here. The
    // sort is stable: of two entries of one name, the one a tree walk meets first stays first.
    a.sort_by(|x, y| x.0.cmp(&y.0));
    b.sort_by(|x, y| x.0.0.cmp(&y.0.0));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let order = match (a.get(i), b.get(j)) {
            (Some(x), Some((y, _))) => x.0.cmp(&y.0),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        let (left, right) = match order {
            std::cmp::Ordering::Less => {
                i += 1;
                (a.get(i - 1), None)
            }
            std::cmp::Ordering::Greater => {
                j += 1;
                (None, b.get(j - 1))
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
                (a.get(i - 1), b.get(j - 1))
            }
        };
        // The same entry on both sides (most of them, in a tree that differs in a file or
        // two): nothing below it differs, and without a check nothing needs its path either.
        if check.is_none()
            && let (Some(l), Some((r, _))) = (left, right)
            && l.1 == r.1
            && l.2 == r.2
        {
            continue;
        }
        let (right, place) = match right {
            Some((entry, place)) => (Some(entry), *place),
            None => (None, Order::Sorted),
        };
        let name = left.or(right).map(|e| e.0.clone()).unwrap_or_default();
        let len = prefix.len();
        // Below the root every name is joined with `/`, an empty one too, so that the path
        // shows each name there is.
        if !top {
            prefix.push_byte(b'/');
        }
        prefix.push_str(&name);
        if let (Some(entry), Some(check)) = (right, check) {
            check(prefix.as_bstr(), entry.0.as_bstr(), entry.1, place)?;
        }
        let is_tree = |e: Option<&(BString, EntryKind, ObjectId)>| {
            e.filter(|e| e.1 == EntryKind::Tree).map(|e| e.2)
        };
        let leaf = |e: Option<&(BString, EntryKind, ObjectId)>| {
            e.filter(|e| e.1 != EntryKind::Tree)
                .map(|e| Side { kind: e.1, id: e.2 })
        };
        // Subtrees on either side recurse; leaves compare directly.
        if diff(
            repo,
            is_tree(left),
            is_tree(right),
            prefix,
            false,
            calls,
            out,
        )? {
            return Ok(true);
        }
        let (l, r) = (leaf(left), leaf(right));
        if l != r {
            let change = FileChange {
                path: prefix.clone(),
                old: l,
                new: r,
            };
            if keep_going.is_some_and(|keep_going| !keep_going(&change)) {
                return Ok(true);
            }
            out.push(change);
        }
        prefix.truncate(len);
    }
    Ok(false)
}

/// Number of leaves (blobs, symlinks, gitlinks) in `tree`, at any depth.
pub fn count_files(repo: &gix::Repository, tree: ObjectId) -> Result<u64> {
    let mut count = 0;
    for (_, kind, id) in load(repo, Some(tree))? {
        count += if kind == EntryKind::Tree {
            count_files(repo, id)?
        } else {
            1
        };
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_order_follows_git_fsck() {
        let id = ObjectId::null(gix::hash::Kind::Sha1);
        let entries = |names: &[(&str, EntryKind)]| -> Entries {
            names
                .iter()
                .map(|(n, k)| (BString::from(*n), *k, id))
                .collect()
        };
        use EntryKind::{Blob, Tree};
        use Order::*;
        // A directory sorts as `name/`: after `f.txt` (`.` < `/`), before `f0`.
        assert_eq!(
            tree_order(&entries(&[("f.txt", Blob), ("f", Tree), ("f0", Blob)])),
            [Sorted, Sorted, Sorted]
        );
        assert_eq!(
            tree_order(&entries(&[("f", Tree), ("f.txt", Blob)])),
            [Unsorted, Unsorted]
        );
        // One name twice, side by side or apart, file or directory.
        assert_eq!(
            tree_order(&entries(&[("f", Blob), ("f", Blob), ("k", Blob)])),
            [Sorted, Duplicate, Sorted]
        );
        assert_eq!(
            tree_order(&entries(&[("f", Blob), ("f.txt", Blob), ("f", Tree)])),
            [Sorted, Sorted, Duplicate]
        );
        // Out of order anywhere: no entry of the tree can be looked up as git looks.
        assert_eq!(
            tree_order(&entries(&[("a", Blob), ("z", Blob), ("m", Blob)])),
            [Unsorted, Unsorted, Unsorted]
        );
        assert!(tree_order(&[]).is_empty());
    }

    #[test]
    fn all_changes_stops_at_the_first_change_refused()
    -> std::result::Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let repo = gix::init_bare(dir.path())?;
        let blob = |data: &str| repo.write_blob(data).map(|id| id.detach());
        let tree = |entries: &[(&str, EntryKind, ObjectId)]| {
            let mut tree = gix::objs::Tree::empty();
            for (name, kind, oid) in entries {
                tree.entries.push(gix::objs::tree::Entry {
                    mode: (*kind).into(),
                    filename: (*name).into(),
                    oid: *oid,
                });
            }
            tree.entries.sort();
            repo.write_object(&tree).map(|id| id.detach())
        };
        use EntryKind::{Blob, Tree};
        let (x, y, z) = (blob("x\n")?, blob("y\n")?, blob("z\n")?);
        let sub = tree(&[("b", Blob, y)])?;
        let old = tree(&[("a", Blob, x), ("d", Tree, sub)])?;
        let sub2 = tree(&[("b", Blob, y), ("c", Blob, z)])?;
        let added = tree(&[("a", Blob, x), ("d", Tree, sub2), ("e", Blob, z)])?;
        let changed = tree(&[("a", Blob, y), ("d", Tree, sub2), ("e", Blob, z)])?;

        let seen = std::cell::RefCell::new(Vec::new());
        let only_added = |c: &FileChange| {
            seen.borrow_mut().push(c.path.to_string());
            c.old.is_none()
        };
        // Every change is an addition: all are looked at.
        assert!(all_changes(&repo, Some(old), Some(added), &only_added)?);
        assert_eq!(*seen.borrow(), ["d/c", "e"]);
        assert_eq!(
            changes(&repo, Some(old), Some(added))?.len(),
            seen.borrow().len()
        );
        // `a` changed: the walk stops there, before reading `d`.
        seen.borrow_mut().clear();
        assert!(!all_changes(&repo, Some(old), Some(changed), &only_added)?);
        assert_eq!(*seen.borrow(), ["a"]);
        // Equal trees have no change to refuse.
        assert!(all_changes(&repo, Some(old), Some(old), &|_| false)?);
        Ok(())
    }

    #[test]
    fn summary_counts_each_status_letter() {
        let side = |kind| {
            Some(Side {
                kind,
                id: ObjectId::null(gix::hash::Kind::Sha1),
            })
        };
        let change = |old, new| FileChange {
            path: "p".into(),
            old,
            new,
        };
        let changes = [
            change(None, side(EntryKind::Blob)),
            change(side(EntryKind::Blob), None),
            change(side(EntryKind::Blob), None),
            change(side(EntryKind::Blob), side(EntryKind::BlobExecutable)),
            change(side(EntryKind::Blob), side(EntryKind::Link)),
            change(side(EntryKind::Blob), side(EntryKind::Blob)),
        ];
        let summary = Summary::of(&changes);
        assert_eq!(
            summary,
            Summary {
                added: 1,
                modified: 3,
                deleted: 2
            }
        );
        assert_eq!(summary.changed(), 6);
        assert_eq!(Summary::of(&[]).changed(), 0);
    }
}
