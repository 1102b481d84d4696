//! A private stat cache for untracked files, so that a save does not rehash untracked files
//! that have not changed since the last save (git's index plays this role for tracked files).
//!
//! It lives in the worktree's git directory as `checkpoint-stat-cache`, is only ever a
//! shortcut (deleting it is harmless), and is ignored wholesale when anything that changes how
//! files are hashed may have changed: `.gitattributes` files, `info/attributes`, and the
//! `core.*` and `filter.*` settings. An entry is trusted only when the file's size, times and
//! inode are the same and it was last modified in an earlier second than the save that cached
//! it began (the racy-git rule), and when its blob still exists.

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};
use gix::objs::tree::EntryKind;

/// File name in the git directory.
const FILE: &str = "checkpoint-stat-cache";
/// First line of the file.
const MAGIC: &str = "git-checkpoint stat cache 1";

/// What identifies an unchanged file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    size: u64,
    mtime: (i64, u32),
    ctime: (i64, u32),
    ino: u64,
}

impl Stamp {
    /// The stamp of a file's metadata (from `symlink_metadata`).
    pub fn of(md: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Stamp {
                size: md.len(),
                mtime: (md.mtime(), md.mtime_nsec() as u32),
                ctime: (md.ctime(), md.ctime_nsec() as u32),
                ino: md.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            let secs = |t: std::io::Result<SystemTime>| {
                t.ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map_or((0, 0), |d| (d.as_secs() as i64, d.subsec_nanos()))
            };
            Stamp {
                size: md.len(),
                mtime: secs(md.modified()),
                ctime: secs(md.created()),
                ino: 0,
            }
        }
    }
}

/// The cache: loaded at the start of a save, updated with what it hashed, written at the end.
pub struct StatCache {
    path: std::path::PathBuf,
    digest: u64,
    started: i64,
    old_started: i64,
    old: HashMap<BString, (Stamp, EntryKind, ObjectId)>,
    new: HashMap<BString, (Stamp, EntryKind, ObjectId)>,
}

impl StatCache {
    /// Load the cache of `repo` for a save that starts now. `digest` describes how files are
    /// hashed; a cache written under another digest is not used.
    pub fn load(repo: &gix::Repository, digest: u64) -> StatCache {
        let path = repo.git_dir().join(FILE);
        let started = now_secs();
        let mut cache = StatCache {
            path,
            digest,
            started,
            old_started: 0,
            old: HashMap::new(),
            new: HashMap::new(),
        };
        if let Ok(data) = std::fs::read(&cache.path)
            && let Some((entries, started)) = parse(&data, digest, repo.object_hash())
        {
            cache.old = entries;
            cache.old_started = started;
        }
        cache
    }

    /// The cached blob of `path` if its stamp is unchanged and it is safe to trust.
    pub fn get(
        &self,
        repo: &gix::Repository,
        path: &[u8],
        stamp: Stamp,
    ) -> Option<(EntryKind, ObjectId)> {
        let (cached, kind, id) = self.old.get(path.as_bstr())?;
        (*cached == stamp && stamp.mtime.0 < self.old_started && repo.has_object(id))
            .then_some((*kind, *id))
    }

    /// Remember what `path` hashed to.
    pub fn put(&mut self, path: BString, stamp: Stamp, kind: EntryKind, id: ObjectId) {
        self.new.insert(path, (stamp, kind, id));
    }

    /// Write the entries seen in this save (and only those), atomically, unless they are what
    /// the file already holds. Failures are ignored: the cache is only a shortcut.
    pub fn store(self) {
        let settled = self
            .new
            .values()
            .all(|(stamp, _, _)| stamp.mtime.0 < self.old_started);
        if settled && !self.old.is_empty() && self.old == self.new {
            return;
        }
        let mut out = format!("{MAGIC}\n{:016x} {}\n", self.digest, self.started).into_bytes();
        for (path, (s, kind, id)) in &self.new {
            if path.contains(&0) || path.contains(&b'\n') {
                continue;
            }
            out.extend_from_slice(
                format!(
                    "{id} {} {} {} {} {} {} {} ",
                    mode_of(*kind),
                    s.size,
                    s.mtime.0,
                    s.mtime.1,
                    s.ctime.0,
                    s.ctime.1,
                    s.ino
                )
                .as_bytes(),
            );
            out.extend_from_slice(path);
            out.push(b'\n');
        }
        let tmp = self
            .path
            .with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, out).is_ok() && std::fs::rename(&tmp, &self.path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

type Entries = HashMap<BString, (Stamp, EntryKind, ObjectId)>;

/// Parse the cache file; `None` when it is damaged, of another digest, or names an object id
/// of another format than `kind`.
fn parse(data: &[u8], digest: u64, kind: gix::hash::Kind) -> Option<(Entries, i64)> {
    let mut lines = data.split(|b| *b == b'\n');
    if lines.next()? != MAGIC.as_bytes() {
        return None;
    }
    let header = lines.next()?.to_str().ok()?;
    let (d, started) = header.split_once(' ')?;
    if u64::from_str_radix(d, 16).ok()? != digest {
        return None;
    }
    let started: i64 = started.parse().ok()?;
    let mut entries = HashMap::new();
    for line in lines {
        if line.is_empty() {
            continue;
        }
        let mut fields = line.splitn(9, |b| *b == b' ');
        let mut next = || fields.next().and_then(|f| f.to_str().ok());
        let id = ObjectId::from_hex(next()?.as_bytes())
            .ok()
            .filter(|id| id.kind() == kind)?;
        let entry_kind = kind_of(next()?)?;
        let size = next()?.parse().ok()?;
        let mtime = (next()?.parse().ok()?, next()?.parse().ok()?);
        let ctime = (next()?.parse().ok()?, next()?.parse().ok()?);
        let ino = next()?.parse().ok()?;
        let path = fields.next()?;
        entries.insert(
            BString::from(path),
            (
                Stamp {
                    size,
                    mtime,
                    ctime,
                    ino,
                },
                entry_kind,
                id,
            ),
        );
    }
    Some((entries, started))
}

fn mode_of(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Blob => "100644",
        EntryKind::BlobExecutable => "100755",
        EntryKind::Link => "120000",
        EntryKind::Commit => "160000",
        EntryKind::Tree => "40000",
    }
}

fn kind_of(mode: &str) -> Option<EntryKind> {
    Some(match mode {
        "100644" => EntryKind::Blob,
        "100755" => EntryKind::BlobExecutable,
        "120000" => EntryKind::Link,
        _ => return None,
    })
}

/// FNV-1a, to fingerprint the settings that change how files are hashed.
pub fn digest(parts: &[&[u8]]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for part in parts {
        for byte in part.iter().chain(b"\0") {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_digest_mismatch() {
        let id = ObjectId::empty_blob(gix::hash::Kind::Sha1);
        let stamp = Stamp {
            size: 3,
            mtime: (10, 5),
            ctime: (11, 6),
            ino: 42,
        };
        let dir = tempfile::tempdir();
        let Ok(dir) = dir else { return };
        let cache = StatCache {
            path: dir.path().join(FILE),
            digest: 7,
            started: 100,
            old_started: 0,
            old: HashMap::new(),
            new: [(
                BString::from("a b/c"),
                (stamp, EntryKind::BlobExecutable, id),
            )]
            .into_iter()
            .collect(),
        };
        let path = cache.path.clone();
        cache.store();
        let data = std::fs::read(&path).unwrap_or_default();
        let sha1 = gix::hash::Kind::Sha1;
        let Some((entries, started)) = parse(&data, 7, sha1) else {
            unreachable!("cache did not parse")
        };
        assert_eq!(started, 100);
        assert_eq!(
            entries.get(b"a b/c".as_bstr()),
            Some(&(stamp, EntryKind::BlobExecutable, id))
        );
        assert!(parse(&data, 8, sha1).is_none(), "another digest");
        assert!(parse(b"garbage", 7, sha1).is_none());
        assert!(
            parse(&data, 7, gix::hash::Kind::Sha256).is_none(),
            "ids of another object format"
        );
        assert_ne!(digest(&[b"a", b"b"]), digest(&[b"ab"]));
    }
}
