//! git-checkpoint: cheap, complete snapshots of a git working tree, stored as plain git
//! objects, and a safe way back.
//!
//! A checkpoint is a commit pointed at by `refs/checkpoints/<id>`, whose tree is exactly what
//! `git add -A && git write-tree` would give on a copy of the index, with its metadata as JSON
//! in a note under `refs/notes/checkpoints` (see [`format`]). This library does the work and
//! returns data; it never prints. The `git-checkpoint` binary is a thin CLI on top of it.
//!
//! ```no_run
//! use git_checkpoint::{repo, resolve, save};
//!
//! let repo = repo::open(std::path::Path::new("."))?;
//! let saved = save::save(&repo, &save::SaveOptions {
//!     message: Some("before refactor".into()),
//!     ..Default::default()
//! })?;
//! let all = resolve::load_all(&repo)?;
//! let newest = resolve::resolve(&all, None, "@")?;
//! assert_eq!(newest.id, saved.checkpoint().id);
//! # Ok::<(), git_checkpoint::Error>(())
//! ```
#![deny(missing_docs)]

pub mod diff;
mod error;
pub mod format;
#[cfg(test)]
mod fuzz_tests;
pub mod gitcli;
pub mod hooks;
pub mod journal;
pub mod progress;
pub mod repo;
pub mod resolve;
pub mod restore;
pub mod retention;
pub mod save;
pub mod share;
pub mod snapshot;
pub mod statcache;
pub mod store;
pub mod treediff;

pub use error::{Error, Result};
pub use store::Checkpoint;
