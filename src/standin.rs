//! A plain directory's stand-in index: what its last save found, kept as a git index in the
//! private store (`checkpoint-index`), so that the next save looks at the directory the way a
//! save in a repository does — files the index names are checked by their stat data, on every
//! core, and only the others are classified against the ignore rules and hashed.
//!
//! The stand-in is never staged state: nothing but a save reads it, a checkpoint records no
//! index for it, and deleting it only makes the next save slower. In a repository, a tracked
//! file stays tracked whatever the ignore rules say; in a plain directory every file is
//! classified anew. The two agree as long as nothing that decides what a checkpoint holds or
//! how a file is hashed has changed since the stand-in was written: it records a fingerprint of
//! all of it ([`key`]) and the save's [`Mode::Loaded`] compares it; any difference, and the save
//! walks the directory without the stand-in, as if it had never been there, and writes a new
//! one.
//!
//! The stand-in names blobs without holding them (git's `gc` does not read it): it is used only
//! while the checkpoint whose tree it is still exists. Its stat data is recorded only for files
//! last changed in an earlier second than the save began (the racy-git rule of
//! [`crate::statcache`]); any other file keeps no stat data and is compared by content next
//! time.
//!
//! The file is a git index (version 2, readable with `GIT_INDEX_FILE=… git ls-files`) with the
//! cache-tree extension, so that a save rebuilds only the directories that changed, and an
//! optional extension of its own, `GCKP`, last: the key and the holding checkpoint (its commit,
//! then its ref name, then the extension's length). Its trailing checksum is left null, as git
//! leaves it with `index.skipHash`: the file is written whole to a temporary file and renamed
//! into place, so its parts always belong together.

use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::index::entry::{Flags, Mode as EntryMode, Stage, Stat};
use gix::objs::tree::EntryKind;

use crate::config::Capture;
use crate::statcache::{Moment, PathMap, Stamp};

/// The stand-in index, in the store.
pub const FILE: &str = "checkpoint-index";
/// The signature of the stand-in's own index extension (optional: an initial capital).
const SIGNATURE: &[u8; 4] = b"GCKP";
/// Below this many entries the stand-in is written after every change (it is small).
const REWRITE_FLOOR: usize = 10_000;
/// Above it, the stand-in is written anew once one entry in this many differs from it.
const DRIFT_SHARE: usize = 64;
/// What the key's fingerprint starts with: a new format of the key makes every stand-in stale.
const MAGIC: &str = "git-checkpoint stand-in 1";

/// Delete the stand-in of the git directory `git_dir`, if there is one: the next save of the
/// plain directory makes it anew. For when an object it may name is gone (see `repair`).
pub fn forget(git_dir: &std::path::Path) {
    let _ = std::fs::remove_file(git_dir.join(FILE));
}

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
    /// Whether the snapshot was taken against the stand-in ([`Mode::Loaded`]), rather than
    /// making it anew.
    pub loaded: bool,
}

/// The stand-in of the store `repo`, if there is one and the checkpoint holding its objects
/// still exists.
pub fn load(repo: &gix::Repository) -> Option<Loaded> {
    let path = repo.git_dir().join(FILE);
    let mut file = std::fs::File::open(&path).ok()?;
    // The time the index was written, from the file read, for git's racy check.
    let mtime = filetime::FileTime::from_last_modification_time(&file.metadata().ok()?);
    let mut data = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut data).ok()?;
    let hash_len = repo.object_hash().len_in_bytes();
    let end = data.len().checked_sub(hash_len)?;
    let len = u32::from_be_bytes(data.get(end.checked_sub(4)?..end)?.try_into().ok()?) as usize;
    let start = end.checked_sub(len)?;
    let header = data.get(start.checked_sub(8)?..start)?;
    if &header[..4] != SIGNATURE || header[4..] != (len as u32).to_be_bytes() {
        return None;
    }
    let payload = data.get(start..end.checked_sub(4)?)?;
    let key = u64::from_be_bytes(payload.get(..8)?.try_into().ok()?);
    let commit = ObjectId::try_from(payload.get(8..8 + hash_len)?).ok()?;
    let holder = std::str::from_utf8(payload.get(8 + hash_len..)?).ok()?;
    let held = repo
        .try_find_reference(holder)
        .ok()
        .flatten()
        .and_then(|r| r.target().try_id().map(|id| id.to_owned()));
    if held != Some(commit) {
        return None;
    }
    let (state, _) = gix::index::State::from_bytes(
        &data,
        mtime,
        repo.object_hash(),
        gix::index::decode::Options::default(),
    )
    .ok()?;
    let index = gix::index::File::from_state(state, path);
    Some(Loaded {
        index: std::sync::Arc::new(gix::fs::FileSnapshot::new(index)),
        key,
    })
}

/// Whether `path` names a file that decides what is ignored or how files are hashed.
pub fn is_rule_file(path: &BStr) -> bool {
    [&b".gitignore"[..], b".gitattributes"].iter().any(|name| {
        path.ends_with(name)
            && (path.len() == name.len() || path[path.len() - name.len() - 1] == b'/')
    })
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
    parts.extend(crate::statcache::hashing_settings(repo));
    let config = repo.config_snapshot();
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
    if let Some(home) = crate::statcache::git_config_home() {
        globals.push(home.join("ignore"));
        globals.push(home.join("attributes"));
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
/// the stamps of the files it looked at and the trees it wrote.
pub struct Parts<'a> {
    pub index: &'a gix::index::State,
    pub overrides: &'a std::collections::BTreeMap<BString, Option<(EntryKind, ObjectId)>>,
    pub stamps: &'a PathMap<Stamp>,
    pub started: Moment,
    /// The tree of each directory the snapshot built (`None`: empty, so left out).
    pub dirs: &'a std::collections::HashMap<BString, Option<ObjectId>>,
    /// The directories holding an override (`""` for the top when there is any): the others
    /// are as in `index`.
    pub dirty: &'a std::collections::HashSet<BString>,
}

/// Write the stand-in for a snapshot whose checkpoint `holder` (ref name and commit) holds every
/// object it names; without a key, remove it. Errors are ignored: the stand-in is only ever a
/// shortcut.
pub fn store(pending: &Pending, parts: &Parts<'_>, holder: (&str, ObjectId)) {
    let path = pending.git_dir.join(FILE);
    match pending.key {
        Some(key) => {
            let _ = try_store(pending, parts, key, holder);
        }
        None => {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn try_store(
    pending: &Pending,
    parts: &Parts<'_>,
    key: u64,
    holder: (&str, ObjectId),
) -> Option<()> {
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
    // Entries that differ from the stand-in loaded: what the next save would look at again.
    let mut drift = 0usize;
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
            drift += 1;
            if let Some((kind, id)) = new {
                push(&mut state, p.as_bstr(), *kind, *id);
            }
        }
        if let Some((p, new)) = overrides.next_if(|(p, _)| p.as_bstr() == path) {
            drift += 1;
            if let Some((kind, id)) = new {
                push(&mut state, p.as_bstr(), *kind, *id);
            }
            continue;
        }
        let stat = match fresh(path) {
            Some(stat) if stat != entry.stat => {
                drift += 1;
                stat
            }
            _ => entry.stat,
        };
        state.dangerously_push_entry(stat, entry.id, Flags::empty(), entry.mode, path);
    }
    for (p, new) in overrides {
        drift += 1;
        if let Some((kind, id)) = new {
            push(&mut state, p.as_bstr(), *kind, *id);
        }
    }
    // The stand-in loaded stays as it is (its holder still holds every object) when nothing
    // changed, and in a large directory while the files that changed since it was written are
    // few: the next save compares those by content again, which costs less than writing the
    // whole stand-in after every agent's turn. Once they add up, it is written anew.
    let entries = state.entries().len();
    if pending.loaded && (drift == 0 || (entries >= REWRITE_FLOOR && drift * DRIFT_SHARE < entries))
    {
        return Some(());
    }

    let mut data = Vec::with_capacity(state.entries().len() * 80);
    state
        .write_to(
            &mut data,
            gix::index::write::Options {
                extensions: gix::index::write::Extensions::None,
                skip_hash: true,
            },
        )
        .ok()?;
    // The cache-tree: a directory without an override keeps its tree of the index before.
    let dirty = parts.dirty;
    let before = old.tree().map(cache_tree_ids).unwrap_or_default();
    let tree_of = |dir: &[u8]| match parts.dirs.get(dir.as_bstr()) {
        Some(found) => *found,
        None => (!dirty.contains(dir.as_bstr()))
            .then(|| before.get(dir.as_bstr()).copied())
            .flatten(),
    };
    let (root, _) = cache_tree(&state, 0, b"", b"", &tree_of);
    root.write_to(&mut data).ok()?;
    let mut payload = key.to_be_bytes().to_vec();
    payload.extend_from_slice(holder.1.as_bytes());
    payload.extend_from_slice(holder.0.as_bytes());
    let len = u32::try_from(payload.len() + 4).ok()?;
    payload.extend_from_slice(&len.to_be_bytes());
    data.extend_from_slice(SIGNATURE);
    data.extend_from_slice(&len.to_be_bytes());
    data.extend_from_slice(&payload);
    // A null checksum, as git writes with `index.skipHash`.
    data.resize(data.len() + old.object_hash().len_in_bytes(), 0);

    let tmp = pending
        .git_dir
        .join(format!("{FILE}.tmp{}", std::process::id()));
    if std::fs::write(&tmp, &data)
        .and_then(|()| std::fs::rename(&tmp, pending.git_dir.join(FILE)))
        .is_err()
    {
        let _ = std::fs::remove_file(&tmp);
        return None;
    }
    Some(())
}

/// The valid trees of a cache-tree, by directory path (`""` for the top). An invalid node's
/// children may still be valid: git invalidates only the directories on the way to a changed
/// path (a file staged at the top invalidates the top alone).
pub fn cache_tree_ids(root: &gix::index::extension::Tree) -> PathMap<ObjectId> {
    fn walk(node: &gix::index::extension::Tree, path: &mut BString, out: &mut PathMap<ObjectId>) {
        if node.num_entries.is_some() {
            out.insert(path.clone(), node.id);
        }
        for child in &node.children {
            let len = path.len();
            if len > 0 {
                path.push(b'/');
            }
            path.extend_from_slice(&child.name);
            walk(child, path, out);
            path.truncate(len);
        }
    }
    let mut out = PathMap::default();
    walk(root, &mut BString::default(), &mut out);
    out
}

/// The valid tree of the directory `dir` (`""`: the top) in a cache-tree, as
/// [`cache_tree_ids`] has it, found by walking down to it: for the few directories a save
/// looks up, cheaper than a map of all of them.
pub fn cache_tree_id(root: &gix::index::extension::Tree, dir: &BStr) -> Option<ObjectId> {
    let mut node = root;
    if !dir.is_empty() {
        for name in dir.split(|b| *b == b'/') {
            node = node.children.iter().find(|c| c.name.as_slice() == name)?;
        }
    }
    node.num_entries.map(|_| node.id)
}

/// The cache-tree node of the directory `dir` (its path, `""` for the top) named `name`,
/// whose entries start at `start` in `state`'s sorted entries; and where they end. A directory
/// whose tree `tree_of` does not know is marked invalid, as git marks one it must rebuild.
fn cache_tree(
    state: &gix::index::State,
    start: usize,
    dir: &[u8],
    name: &[u8],
    tree_of: &dyn Fn(&[u8]) -> Option<ObjectId>,
) -> (gix::index::extension::Tree, usize) {
    let entries = state.entries();
    let prefix_len = if dir.is_empty() { 0 } else { dir.len() + 1 };
    let mut children = Vec::new();
    let mut i = start;
    while i < entries.len() {
        let path = entries[i].path(state);
        if !(dir.is_empty() || path.starts_with(dir) && path.get(dir.len()) == Some(&b'/')) {
            break;
        }
        match path[prefix_len..].find_byte(b'/') {
            None => i += 1,
            Some(pos) => {
                let sub = &path[..prefix_len + pos];
                let (child, end) =
                    cache_tree(state, i, sub, &path[prefix_len..prefix_len + pos], tree_of);
                children.push(child);
                i = end;
            }
        }
    }
    let id = tree_of(dir);
    let node = gix::index::extension::Tree {
        name: name.into(),
        id: id.unwrap_or_else(|| ObjectId::null(state.object_hash())),
        num_entries: id.and_then(|_| u32::try_from(i - start).ok()),
        children,
    };
    (node, i)
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

    /// What git leaves valid in its cache-tree below a directory it invalidated is used: after
    /// a file is staged at the top, only the top must be rebuilt.
    #[test]
    fn the_valid_trees_below_an_invalid_directory_count() -> TestResult {
        let dir = tempfile::tempdir()?;
        let git = |args: &[&str]| -> std::result::Result<String, Box<dyn std::error::Error>> {
            let out = std::process::Command::new("git")
                .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
                .args(args)
                .current_dir(dir.path())
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()?;
            if !out.status.success() {
                return Err(
                    format!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into(),
                );
            }
            Ok(String::from_utf8(out.stdout)?.trim().to_string())
        };
        git(&["init", "-q"])?;
        for path in ["a/x.txt", "b/c/y.txt", "b/z.txt", "top.txt"] {
            let file = dir.path().join(path);
            std::fs::create_dir_all(file.parent().ok_or("a parent")?)?;
            std::fs::write(file, path)?;
        }
        git(&["add", "."])?;
        git(&["commit", "-qm", "base"])?;
        std::fs::write(dir.path().join("new.txt"), "new")?;
        std::fs::write(dir.path().join("b/z.txt"), "changed")?;
        git(&["add", "new.txt", "b/z.txt"])?;
        let repo = gix::open(dir.path())?;
        let index = repo.index()?;
        let trees = cache_tree_ids(index.tree().ok_or("git wrote a cache-tree")?);
        // The top and `b` were invalidated; `a` and `b/c` were not.
        assert_eq!(trees.get(b"".as_bstr()), None);
        assert_eq!(trees.get(b"b".as_bstr()), None);
        for dir in ["", "a", "b", "b/c", "b/missing", "top.txt"] {
            assert_eq!(
                cache_tree_id(index.tree().ok_or("a cache-tree")?, dir.into()),
                trees.get(dir.as_bytes().as_bstr()).copied(),
                "{dir}"
            );
        }
        for valid in ["a", "b/c"] {
            assert_eq!(
                trees
                    .get(valid.as_bytes().as_bstr())
                    .map(ObjectId::to_string),
                Some(git(&["rev-parse", &format!("HEAD:{valid}")])?),
                "{valid}"
            );
        }
        Ok(())
    }

    /// A stand-in is loaded with its key and its cache-tree while the checkpoint holding its
    /// objects exists; a holder dropped or a file cut short leaves none, and a save without a
    /// key removes it.
    #[test]
    fn a_stand_in_is_loaded_only_whole_and_while_its_holder_exists() -> TestResult {
        let dir = tempfile::tempdir()?;
        // With the fallback identity a save has: no configured one is needed.
        let repo = crate::repo::configure(gix::init(dir.path())?)?;
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
        let overrides = [
            (BString::from("a.txt"), Some((EntryKind::Blob, blob))),
            (BString::from("d/b.txt"), Some((EntryKind::Blob, blob))),
            (BString::from("d/e/c.txt"), Some((EntryKind::Blob, blob))),
        ]
        .into();
        let stamps = PathMap::default();
        let tree_d = ObjectId::from_hex(b"1111111111111111111111111111111111111111")?;
        let root = ObjectId::from_hex(b"2222222222222222222222222222222222222222")?;
        // `d/e` unknown: invalid in the cache-tree.
        let dirs = [
            (BString::from(""), Some(root)),
            (BString::from("d"), Some(tree_d)),
        ]
        .into();
        let parts = Parts {
            index: &index,
            overrides: &overrides,
            stamps: &stamps,
            started: (i64::MAX, 0),
            dirs: &dirs,
            dirty: &["", "d", "d/e"].map(BString::from).into(),
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
            .map(|e| (e.path(&loaded.index).to_string(), e.id))
            .collect();
        assert_eq!(
            paths,
            vec![
                ("a.txt".to_string(), blob),
                ("d/b.txt".to_string(), blob),
                ("d/e/c.txt".to_string(), blob)
            ]
        );
        let trees = cache_tree_ids(loaded.index.tree().ok_or("a cache-tree")?);
        assert_eq!(trees.get(b"".as_bstr()), Some(&root));
        assert_eq!(trees.get(b"d".as_bstr()), Some(&tree_d));
        assert_eq!(trees.get(b"d/e".as_bstr()), None);
        let top = loaded.index.tree().ok_or("a cache-tree")?;
        assert_eq!(top.num_entries, Some(3));
        assert_eq!(top.children[0].num_entries, Some(2));

        // Cut short (a torn copy): not loaded.
        let path = repo.git_dir().join(FILE);
        let whole = std::fs::read(&path)?;
        std::fs::write(&path, &whole[..whole.len() - 1])?;
        assert!(load(&repo).is_none(), "a file cut short");
        // Damaged anywhere near its end (where its own extension is read by hand): refused,
        // never a panic.
        for cut in 1..whole.len().min(200) {
            std::fs::write(&path, &whole[..whole.len() - cut])?;
            assert!(load(&repo).is_none(), "cut by {cut}");
        }
        for at in whole.len().saturating_sub(120)..whole.len() {
            for byte in [0x00, 0x01, 0x7f, 0xff] {
                let mut damaged = whole.clone();
                damaged[at] = byte;
                std::fs::write(&path, &damaged)?;
                let _ = load(&repo);
            }
        }
        std::fs::write(&path, &whole)?;
        assert!(load(&repo).is_some());

        repo.find_reference(holder)?.delete()?;
        assert!(load(&repo).is_none(), "the holder is gone");

        // Without a key (something changed during the save), no stand-in is left.
        let unsettled = Pending {
            key: None,
            ..pending
        };
        store(&unsettled, &parts, (holder, commit.id));
        assert!(!path.exists());
        Ok(())
    }
}
