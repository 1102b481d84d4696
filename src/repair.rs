//! Repairing what an earlier version wrote that git cannot read.
//!
//! Before 0.1's repair, a save next to an embedded repository of the other object format (a
//! SHA-256 repository inside a SHA-1 one, or the reverse) recorded the embedded repository's
//! `HEAD` as it was, an id of the other length, where git cuts or pads it to the outer
//! repository's length. A tree holding such an id cannot be parsed: `git fsck` reports it,
//! `show` and `restore` of its checkpoint fail, and `git gc` fails on it, even once no
//! checkpoint holds it any more. Such trees are only ever loose objects (nothing can pack
//! them).
//!
//! [`repair`] finds them among the loose objects, gives every checkpoint whose tree holds one
//! the tree git would have written (the same commit otherwise, under the same id, with its
//! note), and deletes the unreadable objects. Everything else is left as it is.

use std::collections::{HashMap, HashSet};

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};
use gix::objs::tree::{self, EntryKind};

use crate::error::{Context, Error, Result};
use crate::snapshot::gitlink_like_git;

/// What [`repair`] found and did.
#[derive(Debug, Clone, Default)]
pub struct Repaired {
    /// The loose trees git cannot read that an earlier save wrote (deleted, unless this was a
    /// dry run).
    pub unreadable: Vec<ObjectId>,
    /// The checkpoints given a readable tree: id, the commit they had, the commit they have now
    /// (or would have).
    pub rewritten: Vec<(String, ObjectId, ObjectId)>,
}

/// Find the unreadable trees an earlier save wrote, rewrite the checkpoints that hold them and
/// delete them; with `dry_run`, only say what would be done (the new commits are still
/// computed, and written: unreferenced, they are what `git gc` collects).
pub fn repair(repo: &gix::Repository, dry_run: bool) -> Result<Repaired> {
    let unreadable = unreadable_trees(repo)?;
    if unreadable.is_empty() {
        return Ok(Repaired::default());
    }
    let mut fixer = Fixer {
        repo,
        broken: unreadable.iter().copied().collect(),
        memo: HashMap::new(),
    };
    let mut rewritten = Vec::new();
    for reference in crate::store::refs(repo)? {
        // A commit that cannot be read has no tree to repair.
        let Ok(tree) = crate::store::commit_tree(repo, reference.commit) else {
            continue;
        };
        if let Some(new_tree) = fixer.fix(tree)? {
            let new = with_tree(repo, reference.commit, new_tree)?;
            rewritten.push((reference.id, reference.commit, new));
        }
    }
    if !dry_run {
        crate::store::move_checkpoints(repo, &rewritten)?;
        forget_cached_trees(repo);
        let objects = repo.objects.store_ref().path().to_owned();
        for id in &unreadable {
            let hex = id.to_hex().to_string();
            let path = objects.join(&hex[..2]).join(&hex[2..]);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(Error::Io {
                        context: format!("cannot remove `{}`", path.display()),
                        source,
                    });
                }
            }
        }
    }
    Ok(Repaired {
        unreadable,
        rewritten,
    })
}

/// The loose trees of `repo` that git cannot parse and that parse once a gitlink is read at
/// the other object format's length: what an earlier save wrote (git itself never writes
/// such a tree).
fn unreadable_trees(repo: &gix::Repository) -> Result<Vec<ObjectId>> {
    let hash = repo.object_hash();
    let objects = repo.objects.store_ref().path().to_owned();
    let mut found = Vec::new();
    let fanout = match std::fs::read_dir(&objects) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(source) => {
            return Err(Error::Io {
                context: format!("cannot read `{}`", objects.display()),
                source,
            });
        }
    };
    for dir in fanout.flatten() {
        let prefix = dir.file_name();
        let Some(prefix) = prefix.to_str().filter(|p| is_hex(p, 2)) else {
            continue;
        };
        let Ok(files) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for file in files.flatten() {
            let name = file.file_name();
            let Some(rest) = name.to_str().filter(|n| is_hex(n, hash.len_in_hex() - 2)) else {
                continue;
            };
            let Ok(id) = ObjectId::from_hex(format!("{prefix}{rest}").as_bytes()) else {
                continue;
            };
            let is_tree = repo
                .try_find_header(id)
                .ok()
                .flatten()
                .is_some_and(|h| h.kind() == gix::object::Kind::Tree);
            if !is_tree {
                continue;
            }
            let Ok(object) = repo.find_object(id) else {
                continue;
            };
            if gix::objs::TreeRef::from_bytes(&object.data, hash).is_err()
                && entries_of_unreadable(&object.data, hash).is_some()
            {
                found.push(id);
            }
        }
    }
    found.sort();
    Ok(found)
}

fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The entries of a tree written with some gitlinks of the other object format's length, with
/// those gitlinks as git records them (see [`gitlink_like_git`]); `None` when `data` is no
/// such tree. A gitlink's length is chosen so that the rest of the tree parses, trying the
/// repository's own length first.
fn entries_of_unreadable(data: &[u8], hash: gix::hash::Kind) -> Option<Vec<tree::Entry>> {
    let own = hash.len_in_bytes();
    let other = match hash {
        gix::hash::Kind::Sha1 => gix::hash::Kind::Sha256,
        _ => gix::hash::Kind::Sha1,
    };
    // Each entry parsed so far, with the choice made for it (its id's length), and where the
    // next one starts; on a dead end, the newest gitlink still able to try another length does.
    let mut parsed: Vec<(tree::Entry, usize, bool)> = Vec::new();
    let mut at = 0;
    loop {
        if at == data.len() {
            break;
        }
        let next = header(&data[at..]).and_then(|(kind, name, len)| {
            let start = at + len;
            let lengths: &[usize] = if kind == EntryKind::Commit {
                &[own, other.len_in_bytes()]
            } else {
                &[own]
            };
            lengths
                .iter()
                .position(|l| start + l <= data.len())
                .map(|choice| {
                    let l = lengths[choice];
                    (kind, name, start, l, choice + 1 < lengths.len())
                })
        });
        match next {
            Some((kind, name, start, l, more)) => {
                let id = ObjectId::try_from(&data[start..start + l]).ok()?;
                parsed.push((
                    tree::Entry {
                        mode: kind.into(),
                        filename: name,
                        oid: id,
                    },
                    at,
                    more,
                ));
                at = start + l;
            }
            None => {
                // Back to the newest gitlink read at the repository's length: read it at the
                // other length instead.
                loop {
                    let (entry, from, more) = parsed.pop()?;
                    if !more {
                        continue;
                    }
                    let (_, _, len) = header(&data[from..])?;
                    let start = from + len;
                    let l = other.len_in_bytes();
                    if start + l > data.len() {
                        continue;
                    }
                    let id = ObjectId::try_from(&data[start..start + l]).ok()?;
                    parsed.push((tree::Entry { oid: id, ..entry }, from, false));
                    at = start + l;
                    break;
                }
            }
        }
    }
    if !parsed.iter().any(|(e, _, _)| e.oid.kind() != hash) {
        return None;
    }
    Some(
        parsed
            .into_iter()
            .map(|(mut entry, _, _)| {
                entry.oid = gitlink_like_git(entry.oid, hash);
                entry
            })
            .collect(),
    )
}

/// The mode, name and length of the header (`<mode> <name>\0`) of the tree entry `data` starts
/// with.
fn header(data: &[u8]) -> Option<(EntryKind, BString, usize)> {
    let space = data.find_byte(b' ')?;
    let kind = match &data[..space] {
        b"100644" | b"100664" | b"100640" => EntryKind::Blob,
        b"100755" => EntryKind::BlobExecutable,
        b"120000" => EntryKind::Link,
        b"40000" | b"040000" => EntryKind::Tree,
        b"160000" => EntryKind::Commit,
        _ => return None,
    };
    let nul = space + 1 + data[space + 1..].find_byte(0)?;
    let name = &data[space + 1..nul];
    if name.is_empty() {
        return None;
    }
    Some((kind, name.into(), nul + 1))
}

/// Rewrites trees that hold unreadable ones, each tree once.
struct Fixer<'r> {
    repo: &'r gix::Repository,
    broken: HashSet<ObjectId>,
    /// What each tree looked at became: `None` when it holds nothing unreadable.
    memo: HashMap<ObjectId, Option<ObjectId>>,
}

impl Fixer<'_> {
    /// The readable tree to use instead of `tree`, or `None` when `tree` holds no unreadable
    /// tree.
    fn fix(&mut self, tree: ObjectId) -> Result<Option<ObjectId>> {
        if let Some(done) = self.memo.get(&tree) {
            return Ok(*done);
        }
        let hash = self.repo.object_hash();
        let Ok(object) = self.repo.find_object(tree) else {
            // Missing: nothing here to repair.
            self.memo.insert(tree, None);
            return Ok(None);
        };
        let (mut entries, mut changed) = if self.broken.contains(&tree) {
            let Some(entries) = entries_of_unreadable(&object.data, hash) else {
                self.memo.insert(tree, None);
                return Ok(None);
            };
            (entries, true)
        } else {
            match gix::objs::TreeRef::from_bytes(&object.data, hash) {
                Ok(parsed) => (
                    parsed
                        .entries
                        .into_iter()
                        .map(Into::into)
                        .collect::<Vec<tree::Entry>>(),
                    false,
                ),
                // Unreadable for another reason: not this repair's to touch.
                Err(_) => {
                    self.memo.insert(tree, None);
                    return Ok(None);
                }
            }
        };
        drop(object);
        for entry in &mut entries {
            if entry.mode.is_tree()
                && let Some(new) = self.fix(entry.oid)?
            {
                entry.oid = new;
                changed = true;
            }
        }
        let out = if changed {
            entries.sort();
            let tree = gix::objs::Tree { entries };
            Some(
                crate::repo::retry_write(|| self.repo.write_object(&tree))
                    .context(|| "cannot write a tree object".into())?
                    .detach(),
            )
        } else {
            None
        };
        self.memo.insert(tree, out);
        Ok(out)
    }
}

/// The commit `commit` with `tree` as its tree, written.
fn with_tree(repo: &gix::Repository, commit: ObjectId, tree: ObjectId) -> Result<ObjectId> {
    let object = repo
        .find_commit(commit)
        .context(|| format!("cannot read commit {commit}"))?;
    let mut owned: gix::objs::Commit = object
        .decode()
        .and_then(|c| c.into_owned())
        .context(|| format!("cannot read commit {commit}"))?;
    owned.tree = tree;
    Ok(crate::repo::retry_write(|| repo.write_object(&owned))
        .context(|| "cannot write a commit".into())?
        .detach())
}

/// Forget the trees the private caches of every worktree remember: one of them may be a tree
/// just deleted.
fn forget_cached_trees(repo: &gix::Repository) {
    let mut git_dirs = vec![repo.common_dir().to_owned()];
    if let Ok(entries) = std::fs::read_dir(repo.common_dir().join("worktrees")) {
        git_dirs.extend(entries.flatten().map(|e| e.path()));
    }
    git_dirs.push(repo.git_dir().to_owned());
    for dir in git_dirs {
        crate::statcache::forget(&dir);
        crate::standin::forget(&dir);
    }
}
