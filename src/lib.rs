//! git-checkpoint: cheap, complete snapshots of a git working tree, stored as plain git
//! objects, and a safe way back.
//!
//! A checkpoint is a commit pointed at by `refs/checkpoints/<id>`, whose tree is exactly what
//! `git add -A && git write-tree` would give on a copy of the index, with its metadata as JSON
//! in a note under `refs/notes/checkpoints` (see [`format`]). This library does the work and
//! returns data; it never prints. Everything goes through one value, [`Checkpoints`], which
//! owns the repository, the worktree and the settings and applies the same policy for every
//! front end (the `git-checkpoint` binary's CLI, its agent hooks, MCP and HTTP servers).
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # let git = |args: &[&str]| -> std::io::Result<()> {
//! #     let status = std::process::Command::new("git").current_dir(dir.path()).args(args)
//! #         .env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_CONFIG_GLOBAL", "/dev/null").status()?;
//! #     if status.success() { Ok(()) } else { Err(std::io::Error::other("git failed")) }
//! # };
//! # git(&["init", "-q"])?;
//! use git_checkpoint::{Checkpoints, Control, RestoreOptions, SaveOptions};
//!
//! std::fs::write(dir.path().join("notes.txt"), "first draft\n")?;
//! let checkpoints = Checkpoints::open(dir.path())?;
//! let saved = checkpoints.save(
//!     &SaveOptions { message: Some("before the rewrite".into()), ..Default::default() },
//!     &Control::default(),
//! )?;
//!
//! std::fs::write(dir.path().join("notes.txt"), "a rewrite gone wrong\n")?;
//! let target = checkpoints.find("@")?;
//! assert_eq!(target.id, saved.checkpoint().id);
//! let restored = checkpoints.restore(&target, &RestoreOptions::default(), &Control::default())?;
//! assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt"))?, "first draft\n");
//! // The state before the restore was kept: the restore can be undone.
//! assert!(restored.safety.is_some());
//! # Ok(())
//! # }
//! ```
//!
//! The library is layered; each layer uses only those before it:
//! [`format`] (the storage format) → `config` (typed settings) → `control` (progress and
//! cancellation) → `gitcli` (the one module that runs `git`) → capture (`snapshot`,
//! `statcache`, `treediff`: the working tree and trees as objects) → the store (`store`,
//! `record`: refs and notes) → naming → comparing (`diff`, `patch`) → `journal` and `restore`
//! (a pure plan, then apply) → `recovery` → `retention` → `sharing` → agent hook formats
//! (`hooks`) → the façade ([`Checkpoints`]).
#![deny(missing_docs)]

mod capture;
mod checkpoints;
mod config;
mod control;
mod conversation;
mod diff;
mod disk;
mod error;
#[cfg(test)]
mod facade_tests;
pub mod format;
#[cfg(test)]
mod fuzz_tests;
mod gitcli;
mod history;
pub mod hooks;
mod hunks;
mod journal;
#[cfg(test)]
mod layering_tests;
mod naming;
mod notecache;
mod partial;
mod patch;
mod plain;
mod record;
mod recovery;
mod refdb;
mod removed;
mod repair;
mod repo;
mod restore;
mod retention;
mod revert;
mod secrets;
mod select;
#[cfg(test)]
mod session_tests;
mod sharing;
mod snapshot;
mod standin;
mod statcache;
mod store;
mod transcript;
mod treediff;
mod userdiff;

/// Leave a unit test that cannot run here, saying so where the test run shows it (libtest
/// captures `eprintln!`) and, when `GIT_CHECKPOINT_TEST_SKIPS` names a file, in that file, which
/// `ci/test-matrix` counts and lists.
#[cfg(test)]
pub(crate) fn skip_test(reason: &str) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("?").to_string();
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {test}: {reason}");
    if let Some(file) = std::env::var_os("GIT_CHECKPOINT_TEST_SKIPS")
        && let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
    {
        let _ = writeln!(file, "{test}: {reason}");
    }
}

pub use checkpoints::{
    CheckpointEvent, Checkpoints, ConflictKind, Diff, Dropped, HunkInfo, ListOptions, Observer,
    OpenOptions, PruneOptions, PushOptions, RevertOptions, RevertSpan, Reverted, SaveOutcome, Side,
    StoreInfo, WorkingTree, is_at_or_below, no_conversation,
};
pub use config::{
    Capture, DEFAULT_EXCLUDES, HookFailure, Policy, Problem, SecretsMode, Settings, parse_duration,
    parse_size,
};
pub use control::{Control, Progress};
pub use conversation::{
    Conversation, ConversationInput, MAX_BYTES as CONVERSATION_MAX_BYTES, Rewound,
};
pub use diff::{DiffOptions, FileDiff, Hunk, Line, Status};
pub use disk::{Added, Amount, Usage};
pub use error::{Error, RemovedCheckpoint, Result, UndoEnd};
pub use journal::{Completed, Interrupted};
pub use naming::Loaded;
pub use patch::{PatchPaint, PatchStyle, Plain, Quoting, quote_path, rename_name};
pub use record::{Housekeeping, SaveOptions, Saved};
pub use repair::Repaired;
pub use restore::{Plan, RestoreOptions, Restored};
pub use retention::Pruned;
pub use sharing::{Conflict, Exposure, Fetched, Flagged, Pushed};
pub use store::{BrokenRef, Checkpoint};
pub use transcript::{Role, Turn};
pub use treediff::Summary;
