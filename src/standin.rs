//! A plain directory's stand-in index: what its last save found, kept as a git index in the
//! private store (`checkpoint-index`), so that the next save looks at the directory the way a
//! save in a repository does — files the index names are checked by their stat data, on every
//! core, and only the others are classified against the ignore rules and hashed.
//!
//! The stand-in is never staged state: nothing but a save reads it, a checkpoint records no
//! index for it, and deleting it only makes the next save slower. In a repository, a tracked
//! file stays tracked whatever the ignore rules say; in a plain directory every file is
//! classified anew. The two agree as long as nothing that decides what a checkpoint holds or
//! how a file is hashed has changed since the stand-in was written: the key file
//! (`checkpoint-index-key`) records a fingerprint of all of it ([`key`]) and the save's
//! [`Mode::Loaded`] compares it; any difference, and the save walks the directory without the
//! stand-in, as if it had never been there, and writes a new one.
//!
//! The stand-in names blobs without holding them (git's `gc` does not read it): it is used only
//! while the checkpoint whose tree it is (recorded in the key file) still exists. Its stat data
//! is recorded only for files last changed in an earlier second than the save began (the
//! racy-git rule of [`crate::statcache`]); any other file keeps no stat data and is compared by
//! content next time.

use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::index::entry::{Flags, Mode as EntryMode, Stage, Stat};
use gix::objs::tree::EntryKind;

use crate::config::Capture;
use crate::statcache::{Moment, PathMap, Stamp};

/// The stand-in index, in the store.
pub const FILE: &str = "checkpoint-index";
/// What the stand-in was written under: the key, its checksum and the checkpoint holding it.
const KEY_FILE: &str = "checkpoint-index-key";
/// First line of the key file.
const MAGIC: &str = "git-checkpoint stand-in 1";

/// How a snapshot takes its index in a plain directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The index is the stand-in, written under this key: valid only if the key is the same
    /// now, else the snapshot gives up (and is taken again with [`Mode::Fresh`]).
    Loaded(u64),
    /// The index is empty: every file is untracked, and the stand-in is made anew.
    Fresh,
}

/// The stand-in as loaded.
pub struct Loaded {
    /// The index itself.
    pub index: gix::worktree::Index,
    /// The key it was written under.
    pub key: u64,
}

/// What a snapshot leaves for the stand-in it writes once its checkpoint is recorded.
#[derive(Debug, Default)]
pub struct Pending {
    /// The key of what decided this snapshot; `None`: something changed during the save, so no
    /// stand-in is written.
    pub key: Option<u64>,
    /// New stat data of files the index names whose content git found unchanged.
    pub refreshed: PathMap<Stat>,
    /// The owner (user and group ids) stat data is recorded with.
    pub owner: (u32, u32),
    /// The git directory.
    pub git_dir: PathBuf,
    /// The checksum of the stand-in the snapshot was taken against ([`Mode::Loaded`]); `None`
    /// when it is made anew.
    pub loaded: Option<ObjectId>,
}

/// The stand-in of the store `repo`, if there is one, its key file names it, and the checkpoint
/// holding its objects still exists.
pub fn load(repo: &gix::Repository) -> Option<Loaded> {
    let dir = repo.git_dir();
    let text = std::fs::read_to_string(dir.join(KEY_FILE)).ok()?;
    let mut lines = text.lines();
    if lines.next()? != MAGIC {
        return None;
    }
    let mut words = lines.next()?.split(' ');
    let key = u64::from_str_radix(words.next()?, 16).ok()?;
    let checksum = ObjectId::from_hex(words.next()?.as_bytes()).ok()?;
    let holder = words.next()?;
    let commit = ObjectId::from_hex(words.next()?.as_bytes()).ok()?;
    let held = repo
        .try_find_reference(holder)
        .ok()
        .flatten()
        .and_then(|r| r.target().try_id().map(|id| id.to_owned()));
    if held != Some(commit) {
        return None;
    }
    // Read as git reads an index: without hashing it all (the checksum is compared below).
    let index = gix::index::File::at(
        dir.join(FILE),
        repo.object_hash(),
        true,
        gix::index::decode::Options::default(),
    )
    .ok()?;
    (index.checksum() == Some(checksum)).then(|| Loaded {
        index: std::sync::Arc::new(gix::fs::FileSnapshot::new(index)),
        key,
    })
}

/// Whether `path` names a file that decides what is ignored or how files are hashed.
pub fn is_rule_file(path: &BStr) -> bool {
    let name = path.rsplit_str("/").next().unwrap_or_default();
    name == b".gitignore" || name == b".gitattributes"
}

/// The fingerprint of everything that decides which files a checkpoint of the directory holds
/// and how each is hashed: the ignore and attributes files found in it (`rule_files`, by
/// stamp, a missing one too), the store's `info/exclude` and `info/attributes`, the global
/// ones, the `core` and `filter` settings and what `capture` leaves out and takes in. `None`
/// when one of those files changed in the second the save began or later (it might have
/// changed while the directory was walked), or without a moment to compare with.
pub fn key(
    repo: &gix::Repository,
    capture: &Capture,
    workdir: &Path,
    mut rule_files: Vec<&BStr>,
    started: Option<Moment>,
) -> Option<u64> {
    let started = started?;
    rule_files.sort_unstable();
    rule_files.dedup();
    let mut parts: Vec<Vec<u8>> = vec![
        MAGIC.as_bytes().to_vec(),
        repo.object_hash().to_string().into_bytes(),
        format!("{capture:?}").into_bytes(),
    ];
    let config = repo.config_snapshot();
    for name in ["core", "filter"] {
        if let Some(sections) = config.plumbing().sections_by_name(name) {
            for section in sections {
                parts.push(section.to_bstring().into());
            }
        }
    }
    let mut settled = true;
    // The file and, through a symlink, its target: git reads ignore files in the directory
    // without following one, the global ones through one (a dotfiles repository's, often).
    let mut stamp = |path: &Path| {
        let mut out = Vec::new();
        for md in [std::fs::symlink_metadata(path), std::fs::metadata(path)] {
            match md {
                Ok(md) => {
                    let stamp = Stamp::of(&md);
                    settled &= stamp.settled_before(started);
                    out.extend_from_slice(format!("{stamp:?}").as_bytes());
                }
                Err(_) => out.extend_from_slice(b"missing"),
            }
        }
        out
    };
    for path in rule_files {
        let on_disk = gix::path::from_bstr(path).ok()?;
        parts.push(path.to_vec());
        parts.push(stamp(&workdir.join(&*on_disk)));
    }
    let info = repo.common_dir().join("info");
    let mut globals = vec![info.join("exclude"), info.join("attributes")];
    for key in ["core.excludesFile", "core.attributesFile"] {
        if let Ok(Some(path)) = config.trusted_path(key) {
            globals.push(path);
        }
    }
    if let Some(home) = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
    {
        globals.push(home.join("git").join("ignore"));
        globals.push(home.join("git").join("attributes"));
    }
    for path in globals {
        parts.push(path.as_os_str().as_encoded_bytes().to_vec());
        parts.push(stamp(&path));
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    settled.then(|| crate::statcache::digest(&refs))
}

/// The owner stat data is recorded with: the directory's own (the files of a directory one
/// works in are one's own; a file owned by someone else is compared by content).
pub fn owner(workdir: &Path) -> (u32, u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(workdir).map_or((0, 0), |md| (md.uid(), md.gid()))
    }
    #[cfg(not(unix))]
    {
        let _ = workdir;
        (0, 0)
    }
}

/// The index mode of a tree entry's kind; `None` for a tree.
fn entry_mode(kind: EntryKind) -> Option<EntryMode> {
    match kind {
        EntryKind::Blob => Some(EntryMode::FILE),
        EntryKind::BlobExecutable => Some(EntryMode::FILE_EXECUTABLE),
        EntryKind::Link => Some(EntryMode::SYMLINK),
        EntryKind::Commit => Some(EntryMode::COMMIT),
        EntryKind::Tree => None,
    }
}

/// What the stand-in is built from: the index a snapshot was taken against, what it changed,
/// and the stamps of the files it looked at.
pub struct Parts<'a> {
    pub index: &'a gix::index::State,
    pub overrides: &'a std::collections::BTreeMap<BString, Option<(EntryKind, ObjectId)>>,
    pub stamps: &'a PathMap<Stamp>,
    pub started: Moment,
}

/// Write the stand-in for a snapshot whose checkpoint `holder` (ref name and commit) holds every
/// object it names. Errors are ignored: the stand-in is only ever a shortcut.
pub fn store(pending: &Pending, parts: &Parts<'_>, holder: (&str, ObjectId)) {
    let _ = try_store(pending, parts, holder);
}

fn try_store(pending: &Pending, parts: &Parts<'_>, holder: (&str, ObjectId)) -> Option<()> {
    let key_path = pending.git_dir.join(KEY_FILE);
    let Some(key) = pending.key else {
        let _ = std::fs::remove_file(&key_path);
        return None;
    };
    let old = parts.index;
    let settled = |stat: &Stat| Stamp::of_index(stat).settled_before(parts.started);
    let fresh = |path: &BStr| {
        parts
            .stamps
            .get(path)
            .filter(|s| s.settled_before(parts.started))
            .and_then(|s| s.index_stat(pending.owner))
            .or_else(|| pending.refreshed.get(path).copied().filter(settled))
    };
    let mut state = gix::index::State::new(old.object_hash());
    let mut changed = false;
    let push = |state: &mut gix::index::State, path: &BStr, kind: EntryKind, id: ObjectId| {
        if let Some(mode) = entry_mode(kind) {
            let stat = fresh(path).unwrap_or_default();
            state.dangerously_push_entry(stat, id, Flags::empty(), mode, path);
        }
    };
    let mut overrides = parts.overrides.iter().peekable();
    for entry in old.entries() {
        if entry.stage() != Stage::Unconflicted || entry.flags.contains(Flags::INTENT_TO_ADD) {
            continue;
        }
        let path = entry.path(old);
        while let Some((p, new)) = overrides.next_if(|(p, _)| p.as_bstr() < path) {
            changed = true;
            if let Some((kind, id)) = new {
                push(&mut state, p.as_bstr(), *kind, *id);
            }
        }
        if let Some((p, new)) = overrides.next_if(|(p, _)| p.as_bstr() == path) {
            changed = true;
            if let Some((kind, id)) = new {
                push(&mut state, p.as_bstr(), *kind, *id);
            }
            continue;
        }
        let stat = match fresh(path) {
            Some(stat) if stat != entry.stat => {
                changed = true;
                stat
            }
            _ => entry.stat,
        };
        state.dangerously_push_entry(stat, entry.id, Flags::empty(), entry.mode, path);
    }
    for (p, new) in overrides {
        changed = true;
        if let Some((kind, id)) = new {
            push(&mut state, p.as_bstr(), *kind, *id);
        }
    }
    let checksum = match pending.loaded {
        Some(checksum) if !changed => checksum,
        _ => {
            // No key names a stand-in while it is being replaced.
            let _ = std::fs::remove_file(&key_path);
            let mut file = gix::index::File::from_state(state, pending.git_dir.join(FILE));
            file.write(gix::index::write::Options::default()).ok()?;
            file.checksum()?
        }
    };
    let text = format!("{MAGIC}\n{key:016x} {checksum} {} {}\n", holder.0, holder.1);
    if pending.loaded.is_some()
        && !changed
        && std::fs::read_to_string(&key_path).is_ok_and(|old| old == text)
    {
        return Some(());
    }
    let tmp = pending
        .git_dir
        .join(format!("{KEY_FILE}.tmp{}", std::process::id()));
    std::fs::write(&tmp, text).ok()?;
    if std::fs::rename(&tmp, &key_path).is_err() {
        let _ = std::fs::remove_file(&tmp);
        return None;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

    #[test]
    fn rule_files_are_named_by_their_last_component() {
        for (path, rule) in [
            (".gitignore", true),
            ("a/b/.gitignore", true),
            ("docs/.gitattributes", true),
            ("a.gitignore", false),
            (".gitignore/x", false),
            ("gitignore", false),
        ] {
            assert_eq!(is_rule_file(path.into()), rule, "{path}");
        }
    }

    /// A stand-in is loaded only with the key file that names it, while the checkpoint holding
    /// its objects exists: an index replaced without its key file (a save killed between the
    /// two) or a holder dropped leaves none.
    #[test]
    fn a_stand_in_is_loaded_only_with_its_key_and_holder() -> TestResult {
        let dir = tempfile::tempdir()?;
        let repo = gix::init(dir.path())?;
        let blob = repo.write_blob(b"content\n")?.detach();
        let commit = repo.new_commit("holder", repo.empty_tree().id, None::<ObjectId>)?;
        let holder = "refs/checkpoints/20260101-000000-000000";
        repo.reference(
            holder,
            commit.id,
            gix::refs::transaction::PreviousValue::Any,
            "test",
        )?;
        let index = gix::index::State::new(repo.object_hash());
        let overrides = [(BString::from("a.txt"), Some((EntryKind::Blob, blob)))].into();
        let stamps = PathMap::default();
        let parts = Parts {
            index: &index,
            overrides: &overrides,
            stamps: &stamps,
            started: (i64::MAX, 0),
        };
        let pending = Pending {
            key: Some(42),
            git_dir: repo.git_dir().to_owned(),
            ..Pending::default()
        };
        store(&pending, &parts, (holder, commit.id));
        let loaded = load(&repo).ok_or("the stand-in loads")?;
        assert_eq!(loaded.key, 42);
        let paths: Vec<_> = loaded
            .index
            .entries()
            .iter()
            .map(|e| (e.path(&loaded.index).to_owned(), e.id))
            .collect();
        assert_eq!(paths, vec![(BString::from("a.txt"), blob)]);

        // Another index in its place, its key file not yet written.
        let mut other = gix::index::File::from_state(
            gix::index::State::new(repo.object_hash()),
            repo.git_dir().join(FILE),
        );
        other.write(gix::index::write::Options::default())?;
        assert!(load(&repo).is_none(), "an index its key file does not name");

        store(&pending, &parts, (holder, commit.id));
        assert!(load(&repo).is_some());
        repo.find_reference(holder)?.delete()?;
        assert!(load(&repo).is_none(), "the holder is gone");

        // Without a key (something changed during the save), no stand-in is left.
        let unsettled = Pending {
            key: None,
            ..pending
        };
        store(&unsettled, &parts, (holder, commit.id));
        assert!(!repo.git_dir().join(KEY_FILE).exists());
        Ok(())
    }
}
