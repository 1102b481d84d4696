//! Refs, read and written the one way the repository's ref storage allows: every ref
//! git-checkpoint reads or writes (`HEAD`, `refs/checkpoints/*`, `refs/notes/checkpoints`, the
//! staging refs of push and fetch) goes through here.
//!
//! - **files** (loose refs and `packed-refs`): gix, in process, as before; a save starts no git
//!   process.
//! - **reftable**: gix 0.90 cannot read or write it, so git does ([`crate::gitcli`]). One
//!   `git for-each-ref --include-root-refs` lists `HEAD` and every ref this crate reads; that
//!   listing is kept while the reftable stack's `tables.list` files are byte for byte the same
//!   (every ref update, and every compaction, rewrites them), so that a save reads refs with one
//!   git process, not one per question. Writes are one `git update-ref --stdin` transaction
//!   each, with the same semantics as gix's: a ref to create must not exist, a ref to move or
//!   delete must still hold what was read (compare-and-swap), all edits or none.
//!
//! When gitoxide releases a reftable backend, only the reftable arms here change.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::refs::transaction::{Change, LogChange, PreviousValue, RefEdit, RefLog};
use gix::refs::{FullName, Target};

use crate::error::{Context, Error, Result};
use crate::format::{NOTES_REF, REF_PREFIX, STAGING_PREFIX};
use crate::gitcli::{self, ListedRef, RefUpdateFailure};
use crate::repo::{RefFormat, ref_format};

/// What a ref holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    /// A direct ref to an object (which may be missing).
    Object(ObjectId),
    /// A symbolic ref, to the named ref.
    Symbolic(String),
    /// A ref that exists but cannot be read, and why.
    Unreadable(String),
}

impl Value {
    /// The object of a direct ref.
    pub(crate) fn object(&self) -> Option<ObjectId> {
        match self {
            Value::Object(id) => Some(*id),
            _ => None,
        }
    }
}

/// A ref and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ref {
    /// Its full name.
    pub name: String,
    /// What it holds.
    pub value: Value,
}

/// The refs under a prefix.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listing {
    /// The refs, in no particular order.
    pub refs: Vec<Ref>,
    /// Refs that could not even be named, each with the reason.
    pub unnamed: Vec<String>,
}

/// `HEAD`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Head {
    /// The commit it points to; `None` on an unborn branch.
    pub commit: Option<ObjectId>,
    /// The branch it is on (`refs/heads/main`); `None` when detached.
    pub branch: Option<String>,
}

/// What a ref must hold for an [`Edit`] to happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    /// Anything, or nothing.
    Any,
    /// It must not exist (an update creates it).
    MustNotExist,
    /// It must exist, whatever it holds (used to delete refs that cannot be read). git cannot
    /// check this without a value: on reftable the ref is deleted if it is there.
    MustExist,
    /// It must point to this object (compare-and-swap).
    Is(ObjectId),
}

/// One change of a ref transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    /// The ref's full name.
    pub name: String,
    /// The object to point it to; `None` deletes it.
    pub new: Option<ObjectId>,
    /// What it must hold now.
    pub expect: Expect,
}

type Source = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why a transaction ([`edit`]) did not happen; nothing changed in any case.
#[derive(Debug)]
pub(crate) enum EditError {
    /// A ref was not as expected: another writer came first. Read again and retry.
    Conflict(Source),
    /// A lock is held (see [`lock_files`]): retry after a pause, or report the lock.
    Locked(Source),
    /// Anything else.
    Failed(Error),
}

/// `HEAD` of the worktree `repo` was opened in.
pub(crate) fn head(repo: &gix::Repository) -> Result<Head> {
    match ref_format(repo) {
        RefFormat::Files => {
            let head = repo.head().context(|| "cannot read HEAD".into())?;
            Ok(Head {
                commit: head.id().map(|id| id.detach()),
                branch: head.referent_name().map(|name| name.as_bstr().to_string()),
            })
        }
        RefFormat::Reftable => {
            let listed = reftable_listing(repo)?;
            match listed.iter().find(|r| r.name == "HEAD") {
                Some(head) => Ok(Head {
                    commit: Some(object_id(repo, &head.object).map_err(|why| Error::Git {
                        context: "cannot read HEAD".into(),
                        source: why.into(),
                    })?),
                    branch: (!head.symref.is_empty()).then(|| head.symref.clone()),
                }),
                // git lists no HEAD that points to nothing: an unborn branch.
                None => Ok(Head {
                    commit: None,
                    branch: gitcli::symbolic_head(repo)?,
                }),
            }
        }
    }
}

/// The ref `name`, `None` when it does not exist.
pub(crate) fn find(repo: &gix::Repository, name: &str) -> Result<Option<Value>> {
    match ref_format(repo) {
        RefFormat::Files => Ok(match repo.try_find_reference(name) {
            Ok(None) => None,
            Ok(Some(reference)) => Some(match reference.target().try_id() {
                Some(id) => Value::Object(id.to_owned()),
                None => Value::Symbolic(
                    reference
                        .target()
                        .try_name()
                        .map(|n| n.as_bstr().to_string())
                        .unwrap_or_default(),
                ),
            }),
            Err(err) => Some(Value::Unreadable(err.to_string())),
        }),
        RefFormat::Reftable => {
            let listed = if is_listed(name) {
                reftable_listing(repo)?
            } else {
                Arc::new(gitcli::for_each_ref(repo, false, &[name])?)
            };
            Ok(listed
                .iter()
                .find(|r| r.name == name)
                .map(|r| value_of(repo, r)))
        }
    }
}

/// The merge, rebase, cherry-pick, revert, bisect or `git am` in progress in the worktree, if
/// any. gix tells by the files git leaves in the git directory; in a reftable repository git
/// keeps `CHERRY_PICK_HEAD` and `REVERT_HEAD` in the stack instead, where git lists them.
pub(crate) fn in_progress(repo: &gix::Repository) -> Result<Option<gix::state::InProgress>> {
    use gix::state::InProgress;
    let state = repo.state();
    if state.is_some() || ref_format(repo) == RefFormat::Files {
        return Ok(state);
    }
    let listed = reftable_listing(repo)?;
    let has = |name: &str| listed.iter().any(|r| r.name == name);
    let sequence = repo.git_dir().join("sequencer").join("todo").is_file();
    Ok(if has(CHERRY_PICK_HEAD) {
        Some(if sequence {
            InProgress::CherryPickSequence
        } else {
            InProgress::CherryPick
        })
    } else if has(REVERT_HEAD) {
        Some(if sequence {
            InProgress::RevertSequence
        } else {
            InProgress::Revert
        })
    } else {
        None
    })
}

/// The refs whose full name starts with `prefix` (which ends in `/`).
pub(crate) fn list(repo: &gix::Repository, prefix: &str) -> Result<Listing> {
    match ref_format(repo) {
        RefFormat::Files => {
            let platform = repo
                .references()
                .context(|| "cannot read references".into())?;
            // Not `.peeled()`: peeling looks up every object, and one ref to a missing object
            // would fail the whole listing.
            let iter = platform
                .prefixed(prefix)
                .context(|| format!("cannot list {prefix}"))?;
            let mut out = Listing::default();
            for reference in iter {
                match reference {
                    Ok(reference) => out.refs.push(Ref {
                        name: reference.name().as_bstr().to_str_lossy().into_owned(),
                        value: match reference.try_id() {
                            Some(id) => Value::Object(id.detach()),
                            None => Value::Symbolic(String::new()),
                        },
                    }),
                    Err(err) => out.unnamed.push(err.to_string()),
                }
            }
            Ok(out)
        }
        RefFormat::Reftable => {
            let listed = if LISTED
                .iter()
                .any(|p| p.ends_with('/') && prefix.starts_with(p))
            {
                reftable_listing(repo)?
            } else {
                Arc::new(gitcli::for_each_ref(repo, false, &[prefix])?)
            };
            Ok(Listing {
                refs: listed
                    .iter()
                    .filter(|r| r.name.starts_with(prefix))
                    .map(|r| Ref {
                        name: r.name.clone(),
                        value: value_of(repo, r),
                    })
                    .collect(),
                unnamed: Vec::new(),
            })
        }
    }
}

/// The names of the refs under `prefix`, each with what it holds where that came with the name
/// (`None`: read it with [`find`] when needed), in no particular order. A loose ref is named
/// from its file's name without opening it: a question about the newest of many refs reads one
/// file, not every one. May name more than [`list`] lists (a file that is no ref), never fewer.
pub(crate) fn names(repo: &gix::Repository, prefix: &str) -> Result<Vec<(String, Option<Value>)>> {
    // With their values, all read: where git keeps refs in one file (reftable), where gix
    // places them in a namespace.
    let listed = || -> Result<Vec<(String, Option<Value>)>> {
        Ok(list(repo, prefix)?
            .refs
            .into_iter()
            .map(|r| (r.name, Some(r.value)))
            .collect())
    };
    if ref_format(repo) == RefFormat::Reftable || repo.refs.namespace.is_some() {
        return listed();
    }
    let mut out: Vec<(String, Option<Value>)> = Vec::new();
    // Packed refs come with their values, unless a loose file of the same name overrides them.
    let packed = repo
        .refs
        .cached_packed_buffer()
        .context(|| "cannot read packed-refs".into())?;
    if let Some(packed) = packed.as_ref() {
        let iter = packed
            .iter_prefixed(prefix.into())
            .context(|| format!("cannot list {prefix}"))?;
        // A line that cannot be read names no ref (`list` reports it among those it cannot
        // name).
        for r in iter.flatten() {
            out.push((
                r.name.as_bstr().to_str_lossy().into_owned(),
                Some(Value::Object(r.target())),
            ));
        }
    }
    let packed_count = out.len();
    let loose =
        loose_names(&repo.common_dir().join(prefix), prefix).map_err(|source| Error::Io {
            context: format!("cannot list {prefix}"),
            source,
        })?;
    match loose {
        Some(loose) => out.extend(loose.into_iter().map(|name| (name, None))),
        // A file name that is not UTF-8: `list` says what it is.
        None => return listed(),
    }
    // A loose ref overrides the packed one of its name.
    if packed_count > 0 && out.len() > packed_count {
        let loose: std::collections::HashSet<String> =
            out[packed_count..].iter().map(|(n, _)| n.clone()).collect();
        let mut at = 0;
        out.retain(|(name, _)| {
            at += 1;
            at > packed_count || !loose.contains(name)
        });
    }
    Ok(out)
}

/// The names of the files below `dir`, the loose refs under `prefix` (git's lock files
/// left out); `None` if one is not UTF-8.
fn loose_names(dir: &std::path::Path, prefix: &str) -> std::io::Result<Option<Vec<String>>> {
    let mut out = Vec::new();
    let named = walk_loose(dir, prefix, |name, _, lock| {
        if !lock {
            out.push(name);
        }
    })?;
    Ok(named.then_some(out))
}

/// The lock files of loose refs under `prefix` (which ends in `/`), each with the name of the
/// ref it locks; none in a reftable repository, which has no lock file per ref.
pub(crate) fn loose_locks(repo: &gix::Repository, prefix: &str) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    if ref_format(repo) == RefFormat::Files {
        let _ = walk_loose(
            &repo.common_dir().join(prefix),
            prefix,
            |name, path, lock| {
                if lock && let Some(locked) = name.strip_suffix(".lock") {
                    out.push((locked.to_string(), path));
                }
            },
        );
    }
    out
}

/// Call `found` with the full name, the path and whether it is a lock file (`.lock`) of each
/// file below `dir`, the loose refs under `prefix`. `false` (and nothing more visited) when a
/// file name is not UTF-8.
fn walk_loose(
    dir: &std::path::Path,
    prefix: &str,
    mut found: impl FnMut(String, PathBuf, bool),
) -> std::io::Result<bool> {
    let mut dirs = vec![(dir.to_owned(), prefix.to_string())];
    while let Some((dir, name)) = dirs.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => return Err(err),
        };
        for entry in entries {
            let entry = entry?;
            let Some(file) = entry.file_name().to_str().map(str::to_owned) else {
                return Ok(false);
            };
            let full = format!("{name}{file}");
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                dirs.push((entry.path(), format!("{full}/")));
            } else {
                let lock = file.ends_with(".lock");
                found(full, entry.path(), lock);
            }
        }
    }
    Ok(true)
}

/// Apply `edits` as one transaction: every ref is checked against its [`Expect`], then all
/// change or none does. No reflog is written.
pub(crate) fn edit(repo: &gix::Repository, edits: &[Edit]) -> std::result::Result<(), EditError> {
    match ref_format(repo) {
        RefFormat::Files => {
            let edits = edits
                .iter()
                .map(gix_edit)
                .collect::<Result<Vec<_>>>()
                .map_err(EditError::Failed)?;
            // The identity of a reflog entry, should one be written, as commits resolve it:
            // gix's own would first date it through the system's time-zone database (a
            // millisecond per transaction).
            let committer = crate::repo::signatures(repo).ok().map(|(_, c)| c);
            let mut time = gix::date::parse::TimeBuf::default();
            let committer = committer.as_ref().map(|c| c.to_ref(&mut time));
            match repo.edit_references_as(edits, committer) {
                Ok(_) => Ok(()),
                Err(err) if err.classify().is_conflict() => Err(EditError::Conflict(Box::new(err))),
                Err(err) if err.classify().is_retryable() => Err(EditError::Locked(Box::new(err))),
                // Rewriting `packed-refs` (to delete a packed checkpoint ref) can fail at its
                // very end when another process (`git pack-refs` run by `git gc --auto`, or
                // another writer) replaced or removed that file meanwhile. The transaction's
                // other refs may already be in place, but nothing is deleted, and doing it all
                // again from a fresh read is safe: that moment passes like a held lock.
                Err(err) if err.to_string().contains("packed-ref transaction") => {
                    Err(EditError::Locked(Box::new(err)))
                }
                Err(err) => Err(EditError::Failed(Error::Git {
                    context: "cannot update refs".into(),
                    source: Box::new(err),
                })),
            }
        }
        RefFormat::Reftable => {
            let commands: Vec<String> = edits.iter().map(update_ref_line).collect();
            gitcli::update_refs(repo, &commands).map_err(|failure| match failure {
                RefUpdateFailure::Conflict(why) => EditError::Conflict(Box::new(why)),
                RefUpdateFailure::Locked(why) => EditError::Locked(Box::new(why)),
                RefUpdateFailure::Failed(err) => EditError::Failed(err),
            })
        }
    }
}

/// The lock files that can stand in the way of a transaction editing `names`, each with
/// whether only git-checkpoint takes it (so that a stale one is ours to remove).
pub(crate) fn lock_files(repo: &gix::Repository, names: &[&str]) -> Vec<(PathBuf, bool)> {
    let common = repo.common_dir();
    match ref_format(repo) {
        RefFormat::Files => names
            .iter()
            .map(|name| (common.join(format!("{name}.lock")), true))
            .chain(std::iter::once((common.join("packed-refs.lock"), false)))
            .collect(),
        // One lock for the whole stack, taken by every git that writes a ref.
        RefFormat::Reftable => vec![(common.join("reftable").join("tables.list.lock"), false)],
    }
}

/// The gix edit of `edit`.
fn gix_edit(edit: &Edit) -> Result<RefEdit> {
    let expected = match edit.expect {
        Expect::Any => PreviousValue::Any,
        Expect::MustNotExist => PreviousValue::MustNotExist,
        Expect::MustExist => PreviousValue::MustExist,
        Expect::Is(id) => PreviousValue::MustExistAndMatch(Target::Object(id)),
    };
    let change = match edit.new {
        Some(new) => Change::Update {
            log: LogChange {
                mode: RefLog::AndReference,
                force_create_reflog: false,
                message: "checkpoint".into(),
            },
            expected,
            new: Target::Object(new),
        },
        None => Change::Delete {
            expected,
            log: RefLog::AndReference,
        },
    };
    Ok(RefEdit {
        change,
        name: full_name(&edit.name)?,
        deref: false,
    })
}

/// The `git update-ref --stdin` line of `edit`.
fn update_ref_line(edit: &Edit) -> String {
    let name = &edit.name;
    match (edit.new, edit.expect) {
        (Some(new), Expect::MustNotExist) => format!("create {name} {new}"),
        (Some(new), Expect::Is(old)) => format!("update {name} {new} {old}"),
        (Some(new), Expect::Any | Expect::MustExist) => format!("update {name} {new}"),
        (None, Expect::Is(old)) => format!("delete {name} {old}"),
        (None, _) => format!("delete {name}"),
    }
}

/// A ref name gix accepts.
pub(crate) fn full_name(name: &str) -> Result<FullName> {
    FullName::try_from(name).map_err(|e| Error::Git {
        context: format!("invalid ref name `{name}`"),
        source: Box::new(e),
    })
}

const CHERRY_PICK_HEAD: &str = "CHERRY_PICK_HEAD";
const REVERT_HEAD: &str = "REVERT_HEAD";

/// What the [`reftable_listing`] holds: these refs, and every ref under those ending in `/`.
const LISTED: &[&str] = &[
    "HEAD",
    CHERRY_PICK_HEAD,
    REVERT_HEAD,
    NOTES_REF,
    REF_PREFIX,
    STAGING_PREFIX,
];

fn is_listed(name: &str) -> bool {
    LISTED
        .iter()
        .any(|p| name == *p || (p.ends_with('/') && name.starts_with(p)))
}

/// A listing and the state of the reftable stacks it was read at.
struct Cached {
    key: Vec<u8>,
    refs: Arc<Vec<ListedRef>>,
}

static CACHE: Mutex<Option<Cached>> = Mutex::new(None);

/// `HEAD` and the refs under [`LISTED`], as `git for-each-ref` lists them now: from the cache
/// when the stacks are unchanged since it was read.
fn reftable_listing(repo: &gix::Repository) -> Result<Arc<Vec<ListedRef>>> {
    // The key is read before listing: a write in between makes the listing newer than its key,
    // and every later read sees a newer key too, so that listing is never served.
    let key = stack_key(repo);
    if let Some(key) = &key
        && let Ok(cache) = CACHE.lock()
        && let Some(cached) = cache.as_ref()
        && cached.key == *key
    {
        return Ok(cached.refs.clone());
    }
    let refs = Arc::new(gitcli::for_each_ref(repo, true, LISTED)?);
    if let Some(key) = key
        && let Ok(mut cache) = CACHE.lock()
    {
        *cache = Some(Cached {
            key,
            refs: refs.clone(),
        });
    }
    Ok(refs)
}

/// What identifies the state of the refs `repo` sees: its git directory and the `tables.list`
/// of the common stack and of the worktree's own stack (`HEAD` of a linked worktree). `None`
/// when a stack cannot be read: then nothing is cached.
fn stack_key(repo: &gix::Repository) -> Option<Vec<u8>> {
    let mut key = gix::path::os_str_into_bstr(repo.git_dir().as_os_str())
        .ok()?
        .to_vec();
    key.push(0);
    key.extend(std::fs::read(repo.common_dir().join("reftable").join("tables.list")).ok()?);
    if repo.git_dir() != repo.common_dir() {
        key.push(0);
        key.extend(std::fs::read(repo.git_dir().join("reftable").join("tables.list")).ok()?);
    }
    Some(key)
}

/// What a listed ref holds.
fn value_of(repo: &gix::Repository, listed: &ListedRef) -> Value {
    if !listed.symref.is_empty() {
        return Value::Symbolic(listed.symref.clone());
    }
    match object_id(repo, &listed.object) {
        Ok(id) => Value::Object(id),
        Err(why) => Value::Unreadable(why),
    }
}

/// `hex` as an object id of `repo`'s object format.
fn object_id(repo: &gix::Repository, hex: &str) -> std::result::Result<ObjectId, String> {
    match ObjectId::from_hex(hex.as_bytes()) {
        Ok(id) if id.kind() == repo.object_hash() => Ok(id),
        _ => Err(format!(
            "`{}` is not a {} object id",
            hex.escape_debug(),
            repo.object_hash()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_become_update_ref_lines_with_the_same_checks() {
        let a = ObjectId::empty_tree(gix::hash::Kind::Sha256);
        let b = ObjectId::empty_blob(gix::hash::Kind::Sha256);
        let line = |new, expect| {
            update_ref_line(&Edit {
                name: "refs/x".into(),
                new,
                expect,
            })
        };
        assert_eq!(
            line(Some(a), Expect::MustNotExist),
            format!("create refs/x {a}")
        );
        assert_eq!(
            line(Some(a), Expect::Is(b)),
            format!("update refs/x {a} {b}")
        );
        assert_eq!(line(Some(a), Expect::Any), format!("update refs/x {a}"));
        assert_eq!(line(None, Expect::Is(b)), format!("delete refs/x {b}"));
        assert_eq!(line(None, Expect::MustExist), "delete refs/x");
        assert_eq!(line(None, Expect::Any), "delete refs/x");
    }

    /// A repository made by git with `ref_format`, one commit, opened as the library opens it.
    fn repository(dir: &std::path::Path, ref_format: &str) -> Option<gix::Repository> {
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(dir)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_AUTHOR_NAME", "A")
                .env("GIT_AUTHOR_EMAIL", "a@example.com")
                .env("GIT_COMMITTER_NAME", "C")
                .env("GIT_COMMITTER_EMAIL", "c@example.com")
                .env_remove("GIT_DIR")
                .env_remove("GIT_WORK_TREE")
                .output()
                .is_ok_and(|o| o.status.success())
        };
        let format = format!("--ref-format={ref_format}");
        let made = git(&["init", "-q", "-b", "main", &format])
            && git(&["commit", "-q", "--allow-empty", "-m", "base"]);
        if !made {
            // The only reason seen: a git older than 2.45, which knows no reftable.
            crate::skip_test(&format!("git cannot make a {ref_format} repository here"));
            return None;
        }
        crate::repo::open(dir).ok()
    }

    /// The same reads and writes, with the same checks, on both ref formats; and on reftable,
    /// no gix ref write reaches the disk, while gix still knows the real git directory.
    #[test]
    fn both_ref_formats_read_and_write_alike_and_gix_cannot_write_reftable() {
        for format in ["files", "reftable"] {
            let Ok(tmp) = tempfile::tempdir() else {
                return;
            };
            let Some(repo) = repository(tmp.path(), format) else {
                continue;
            };
            let Ok(head) = head(&repo) else {
                unreachable!("{format}: HEAD cannot be read")
            };
            assert_eq!(head.branch.as_deref(), Some("refs/heads/main"), "{format}");
            let Some(commit) = head.commit else {
                unreachable!("{format}: HEAD has no commit")
            };
            let name = "refs/checkpoints/20260101-000000-000abc";
            let create = Edit {
                name: name.into(),
                new: Some(commit),
                expect: Expect::MustNotExist,
            };
            assert!(
                edit(&repo, std::slice::from_ref(&create)).is_ok(),
                "{format}"
            );
            // Another object: gix lets a create that changes nothing pass, git does not.
            let Ok(other) = repo.find_commit(commit).and_then(|c| c.tree_id()) else {
                unreachable!("{format}: the commit's tree")
            };
            let other = other.detach();
            let again = Edit {
                new: Some(other),
                ..create
            };
            assert!(
                matches!(edit(&repo, &[again]), Err(EditError::Conflict(_))),
                "{format}: must not exist"
            );
            assert_eq!(
                find(&repo, name).ok().flatten(),
                Some(Value::Object(commit)),
                "{format}"
            );
            let listed = list(&repo, REF_PREFIX).map(|l| l.refs).unwrap_or_default();
            assert_eq!(listed.len(), 1, "{format}");
            let stale = Edit {
                name: name.into(),
                new: None,
                expect: Expect::Is(other),
            };
            assert!(
                matches!(edit(&repo, &[stale]), Err(EditError::Conflict(_))),
                "{format}: compare-and-swap"
            );
            assert!(
                repo.git_dir().join("HEAD").is_file(),
                "{format}: the real git directory"
            );
            let gix_write = repo.reference(
                "refs/checkpoints/by-gix",
                commit,
                PreviousValue::MustNotExist,
                "test",
            );
            if format == "reftable" {
                assert!(gix_write.is_err(), "gix must not write refs on reftable");
                assert!(!repo.git_dir().join("refs/checkpoints").exists());
            } else {
                assert!(gix_write.is_ok());
            }
            let delete = Edit {
                name: name.into(),
                new: None,
                expect: Expect::Is(commit),
            };
            assert!(edit(&repo, &[delete]).is_ok(), "{format}");
            assert_eq!(find(&repo, name).ok().flatten(), None, "{format}");
        }
    }

    #[test]
    fn the_listing_covers_what_is_read() {
        assert!(is_listed("HEAD"));
        assert!(is_listed(NOTES_REF));
        assert!(is_listed("refs/checkpoints/20260101-000000-000abc"));
        assert!(is_listed("refs/checkpoint-fetch/1-2-3/notes"));
        assert!(!is_listed("refs/heads/main"));
        assert!(!is_listed("refs/notes/checkpoints-other"));
    }
}
