//! The restore lock and the scratch directory of restore, in the worktree's git directory.
//!
//! A restore holds an exclusive lock (`flock`, through [`std::fs::File::lock`]) on the file
//! `checkpoint-restore` in the worktree's git directory from before it reads the working tree
//! until it is done, so two restores never interleave in one worktree. The operating system
//! drops the lock when the process dies, however it dies.
//!
//! Restore writes each file to a temporary file in `checkpoint-tmp/` in the same git
//! directory, then renames it into place: a restore killed while writing leaves nothing in the
//! working tree that a later save would pick up. The directory is emptied whenever the lock is
//! taken, which is safe because only the lock holder writes there. When the git directory is
//! on another file system than the working tree (a rename across them fails), files are
//! written in place instead, never next to their target under another name.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

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
