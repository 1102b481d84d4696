//! The restore journal and lock, and the scratch directory of restore, in the worktree's git
//! directory.
//!
//! **The lock.** A restore holds an exclusive lock (`flock`, through [`std::fs::File::lock`])
//! on the file `checkpoint-restore` in the worktree's git directory from before it reads the
//! working tree until it is done, so two restores never interleave in one worktree. The
//! operating system drops the lock when the process dies, however it dies: a lock that can be
//! taken is not held by any live restore.
//!
//! **The journal** is the content of that same file. Just before a restore changes the working
//! tree (after its safety checkpoint exists) it writes one line of JSON there, with one write:
//!
//! ```json
//! {"version":1,"target":"<id>","commit":"<hex>","safety":"<id or null>","paths":[],"staged":false,"force":false}
//! ```
//!
//! `target` and `commit` name the checkpoint being restored, `safety` the checkpoint holding
//! the state before (null with `--no-save`), and `paths`, `staged`, `force` are the options
//! (a path that is not UTF-8 is an array of bytes). When the restore is done, or failed and
//! put the working tree back, it empties the file. So a non-empty journal whose lock can be
//! taken was left by a restore that died part-way; one that cannot be parsed was cut short
//! while being written, before anything in the working tree changed.
//!
//! The next save, restore or undo completes it (see [`crate::recovery`]); read-only commands
//! only look ([`interrupted`]).
//!
//! **The scratch directory.** Restore writes each file to a temporary file in `checkpoint-tmp/`
//! in the same git directory, then renames it into place: a restore killed while writing leaves
//! nothing in the working tree that a later save would pick up. The directory is emptied
//! whenever the lock is taken, which is safe because only the lock holder writes there. When
//! the git directory is on another file system than the working tree (a rename across them
//! fails), files are written in place instead, never next to their target under another name.

use std::fs;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gix::bstr::{BString, ByteSlice};

use crate::error::{Error, Result};
use crate::store::Checkpoint;

/// The lock file (and journal) in the worktree's git directory.
pub const FILE: &str = "checkpoint-restore";
/// The scratch directory for files being written, in the worktree's git directory.
pub const TMP_DIR: &str = "checkpoint-tmp";

/// How long a restore waits for the lock before it says another restore is running: long
/// enough to outlast a command that only looks at the journal.
const WAIT: Duration = Duration::from_millis(500);

/// The restore lock of one worktree, held until dropped.
pub(crate) struct Guard {
    file: fs::File,
    path: PathBuf,
    tmp: PathBuf,
}

impl Guard {
    /// Take the restore lock of `repo`'s worktree (creating the lock file), and sweep what a
    /// killed restore left in the scratch directory. Fails with
    /// [`Error::RestoreInProgress`] when another live process holds it.
    pub(crate) fn acquire(repo: &gix::Repository) -> Result<Guard> {
        let path = repo.git_dir().join(FILE);
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|source| Error::Io {
                context: format!("cannot open the restore lock `{}`", path.display()),
                source,
            })?;
        let started = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(fs::TryLockError::WouldBlock) if started.elapsed() < WAIT => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(fs::TryLockError::WouldBlock) => return Err(Error::RestoreInProgress),
                Err(fs::TryLockError::Error(source)) => {
                    return Err(Error::Io {
                        context: format!("cannot lock `{}`", path.display()),
                        source,
                    });
                }
            }
        }
        let guard = Guard {
            file,
            path,
            tmp: repo.git_dir().join(TMP_DIR),
        };
        guard.sweep();
        Ok(guard)
    }

    /// Take the restore lock if the lock file exists and no live process holds it; `None`
    /// otherwise (also when it cannot be opened for writing, e.g. in a read-only git
    /// directory: then nothing could be completed anyway). For save, which must not wait for
    /// a restore, nor fail because of one.
    pub(crate) fn try_existing(repo: &gix::Repository) -> Option<Guard> {
        let path = repo.git_dir().join(FILE);
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .ok()?;
        file.try_lock().ok()?;
        let guard = Guard {
            file,
            path,
            tmp: repo.git_dir().join(TMP_DIR),
        };
        guard.sweep();
        Some(guard)
    }

    /// The journal: what a restore that died part-way was doing; `None` when it is empty (no
    /// restore was under way) or unreadable (cut short while being written, before anything
    /// was changed).
    pub(crate) fn read(&mut self) -> Result<Option<Entry>> {
        let mut data = Vec::new();
        self.file
            .rewind()
            .and_then(|()| self.file.read_to_end(&mut data))
            .map_err(|source| Error::Io {
                context: format!("cannot read `{}`", self.path.display()),
                source,
            })?;
        Ok(Entry::parse(&data))
    }

    /// Record `entry` before changing the working tree: one write, then flushed to disk.
    pub(crate) fn begin(&mut self, entry: &Entry) -> Result<()> {
        let mut line = serde_json::to_vec(entry).map_err(|e| Error::Io {
            context: "cannot write the restore journal".into(),
            source: e.into(),
        })?;
        line.push(b'\n');
        self.file
            .set_len(0)
            .and_then(|()| self.file.rewind())
            .and_then(|()| self.file.write_all(&line))
            .and_then(|()| self.file.sync_data())
            .map_err(|source| Error::Io {
                context: format!("cannot write the restore journal `{}`", self.path.display()),
                source,
            })
    }

    /// Empty the journal: the restore is done, or the working tree was put back.
    pub(crate) fn finish(&mut self) -> Result<()> {
        self.file
            .set_len(0)
            .and_then(|()| self.file.sync_data())
            .map_err(|source| Error::Io {
                context: format!("cannot clear the restore journal `{}`", self.path.display()),
                source,
            })
    }

    /// Where restore writes files before renaming them into place.
    pub(crate) fn tmp_dir(&self) -> &Path {
        &self.tmp
    }

    /// Remove the temporary files a killed restore left behind (only the lock holder writes
    /// there, so none of them is in use).
    fn sweep(&self) {
        let Ok(entries) = fs::read_dir(&self.tmp) else {
            return;
        };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| !t.is_dir()) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard").field("path", &self.path).finish()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// What a restore records in the journal before it changes the working tree.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Entry {
    /// The journal's format: 1.
    pub version: u32,
    /// The id of the checkpoint being restored.
    pub target: String,
    /// Its commit, so that it can be completed even if the ref was dropped meanwhile.
    pub commit: String,
    /// The checkpoint holding the state before the restore; `None` with `--no-save`.
    pub safety: Option<String>,
    /// The paths restored (empty: all).
    #[serde(default)]
    pub paths: Vec<JournalPath>,
    /// Whether the index is restored too.
    #[serde(default)]
    pub staged: bool,
    /// Whether `--force` was given.
    #[serde(default)]
    pub force: bool,
}

/// A path in the journal: a string when it is UTF-8, else its bytes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub(crate) enum JournalPath {
    /// A UTF-8 path.
    Text(String),
    /// Any other path.
    Bytes(Vec<u8>),
}

/// The journal format this version writes and reads.
const VERSION: u32 = 1;

impl Entry {
    /// The entry of a restore of `target` (of `paths` only, when there are some), whose safety
    /// checkpoint is `safety`.
    pub(crate) fn new(
        target: &Checkpoint,
        safety: Option<&str>,
        paths: &[BString],
        staged: bool,
        force: bool,
    ) -> Self {
        Entry {
            version: VERSION,
            target: target.id.clone(),
            commit: target.commit.to_string(),
            safety: safety.map(str::to_string),
            paths: paths
                .iter()
                .map(|p| match p.to_str() {
                    Ok(text) => JournalPath::Text(text.to_string()),
                    Err(_) => JournalPath::Bytes(p.to_vec()),
                })
                .collect(),
            staged,
            force,
        }
    }

    /// The paths the restore was limited to (empty: all).
    pub(crate) fn paths(&self) -> Vec<BString> {
        self.paths
            .iter()
            .map(|p| match p {
                JournalPath::Text(text) => BString::from(text.as_str()),
                JournalPath::Bytes(bytes) => BString::from(bytes.as_slice()),
            })
            .collect()
    }

    fn parse(data: &[u8]) -> Option<Entry> {
        if data.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        serde_json::from_slice::<Entry>(data)
            .ok()
            .filter(|e| e.version == VERSION)
    }
}

/// A restore that died part-way, as a read-only command sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interrupted {
    /// The id of the checkpoint it was restoring.
    pub target: String,
    /// The checkpoint holding the state before it; `None` when it ran with `--no-save`.
    pub safety: Option<String>,
}

/// Whether a restore died part-way in `repo`'s worktree, leaving its journal for the next save,
/// restore or undo to complete. Changes nothing; a restore still running is not reported.
pub fn interrupted(repo: &gix::Repository) -> Option<Interrupted> {
    let path = repo.git_dir().join(FILE);
    let mut file = fs::File::open(path).ok()?;
    let mut data = Vec::new();
    file.read_to_end(&mut data).ok()?;
    let entry = Entry::parse(&data)?;
    // A shared lock only fails while a restore holds the exclusive one.
    file.try_lock_shared().ok()?;
    let _ = file.unlock();
    Some(Interrupted {
        target: entry.target,
        safety: entry.safety,
    })
}

/// An interrupted restore that a save, restore or undo found and completed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completed {
    /// The id of the checkpoint the interrupted restore was restoring.
    pub target: String,
    /// The checkpoint holding the state before it; `None` when it ran with `--no-save`.
    pub safety: Option<String>,
    /// A new `pre-restore` checkpoint holding the partial state it left, taken before rolling
    /// forward; `None` when a checkpoint already held that state.
    pub partial: Option<String>,
    /// Why rolling forward to the target failed, if it did. The working tree is then as the
    /// interrupted restore left it (held by `partial`, or by the newest checkpoint), and the
    /// journal is cleared: the failure is reported once, not retried by every command.
    pub failed: Option<String>,
}

impl Completed {
    /// What happened, in one line for the user: what was completed and which checkpoint holds
    /// the state before it, or why it could not be.
    pub fn describe(&self) -> String {
        let before = match &self.safety {
            Some(safety) => format!("the state before it is checkpoint {safety}"),
            None => "it ran with --no-save, so the state before it was not kept".to_string(),
        };
        match (&self.failed, &self.partial) {
            (None, partial) => format!(
                "completed an interrupted restore of {}; {before}{}",
                self.target,
                partial
                    .as_ref()
                    .map(|p| format!("; the partial state it left is checkpoint {p}"))
                    .unwrap_or_default()
            ),
            (Some(why), partial) => format!(
                "could not complete an interrupted restore of {}: {why}; the working tree is as it left it{}; {before}",
                self.target,
                partial
                    .as_ref()
                    .map(|p| format!(" (saved as checkpoint {p})"))
                    .unwrap_or_default()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_bad_journals_are_no_journal() {
        let entry = Entry {
            version: VERSION,
            target: "20260101-000000-000abc".into(),
            commit: "4b825dc642cb6eb9a060e54bf8d69288fbee4904".into(),
            safety: None,
            paths: vec![
                JournalPath::Text("src/a b.rs".into()),
                JournalPath::Bytes(vec![b'x', 0xff]),
            ],
            staged: true,
            force: false,
        };
        let json = serde_json::to_vec(&entry).unwrap_or_default();
        assert_eq!(Entry::parse(&json), Some(entry.clone()));
        assert_eq!(entry.paths()[1], BString::from(&b"x\xff"[..]));
        assert_eq!(Entry::parse(b""), None);
        assert_eq!(Entry::parse(b"\n"), None);
        assert_eq!(Entry::parse(&json[..json.len() / 2]), None, "cut short");
        assert_eq!(Entry::parse(b"{\"version\":2}"), None);
        // A journal written by hand needs only the essentials.
        let minimal = br#"{"version":1,"target":"t","commit":"c","safety":"s"}"#;
        assert_eq!(
            Entry::parse(minimal).map(|e| (e.target, e.safety, e.paths.len())),
            Some(("t".into(), Some("s".into()), 0))
        );
    }

    #[test]
    fn the_journal_is_written_read_and_cleared_in_place() {
        let Ok(dir) = tempfile::tempdir() else {
            unreachable!("a temporary directory")
        };
        let path = dir.path().join(FILE);
        let Ok(file) = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
        else {
            return;
        };
        let mut guard = Guard {
            file,
            path: path.clone(),
            tmp: dir.path().join(TMP_DIR),
        };
        assert!(matches!(guard.read(), Ok(None)));
        let entry = Entry {
            version: VERSION,
            target: "t".into(),
            commit: "c".into(),
            safety: Some("s".into()),
            paths: Vec::new(),
            staged: false,
            force: true,
        };
        assert!(guard.begin(&entry).is_ok());
        assert!(matches!(guard.read(), Ok(Some(e)) if e == entry));
        assert!(guard.finish().is_ok());
        assert_eq!(fs::read(&path).unwrap_or_default(), b"");
        assert!(matches!(guard.read(), Ok(None)));
    }
}
