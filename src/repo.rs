//! Opening the repository, refusing what git-checkpoint cannot work with, and the identity used
//! for checkpoint commits.

use std::path::Path;

use gix::bstr::ByteSlice;
use gix::config::tree::{Core, gitoxide};

use crate::error::{Context, Error, Result};

/// Name used for checkpoint commits when no identity is configured.
pub const FALLBACK_NAME: &str = "git-checkpoint";
/// Email used for checkpoint commits when no identity is configured.
pub const FALLBACK_EMAIL: &str = "git-checkpoint@localhost";

/// Discover the repository containing `dir` (honouring `GIT_DIR` and friends, like git), and
/// check that git-checkpoint can work in it: the reftable ref backend is refused. A bare
/// repository is opened (its checkpoints can be read, pushed and fetched); what needs a working
/// tree refuses later, with [`Error::NoWorkingTree`].
///
/// The returned repository writes no reflog for the refs git-checkpoint changes, reads the index
/// without verifying its checksum (as git does), and has a fallback identity, so saving never
/// fails for lack of `user.name`. None of these settings touches `.git/config`: they live in
/// this in-memory instance only.
pub fn open(dir: &Path) -> Result<gix::Repository> {
    let repo = match gix::ThreadSafeRepository::discover_with_environment_overrides(dir) {
        Ok(repo) => repo.to_thread_local(),
        Err(err) => {
            // A repository gix cannot open is not "no repository": say why.
            let Some(git_dir) = find_git_dir(dir) else {
                return Err(Error::NotARepository(dir.to_owned()));
            };
            if is_reftable(&git_dir) {
                return Err(reftable_error());
            }
            if is_sha256(&git_dir) {
                return Err(Error::Unsupported(
                    "this repository uses SHA-256 object ids, which git-checkpoint does not support yet"
                        .into(),
                ));
            }
            return Err(Error::Git {
                context: format!("cannot open the repository at `{}`", git_dir.display()),
                source: Box::new(err),
            });
        }
    };
    let ref_storage = repo
        .config_snapshot()
        .string("extensions.refStorage")
        .map(|v| v.to_str_lossy().to_ascii_lowercase());
    if ref_storage.as_deref() == Some("reftable") || is_reftable(repo.common_dir()) {
        return Err(reftable_error());
    }
    configure(repo)
}

fn reftable_error() -> Error {
    Error::Unsupported(
        "this repository stores refs in the reftable format, which git-checkpoint does not support yet"
            .into(),
    )
}

fn is_reftable(git_dir: &Path) -> bool {
    git_dir.join("reftable").is_dir()
}

/// Walk up from `dir` looking for something that looks like a git directory.
/// Whether the repository's config asks for SHA-256 object ids.
fn is_sha256(git_dir: &Path) -> bool {
    let config = std::fs::read_to_string(git_dir.join("config")).unwrap_or_default();
    config.lines().any(|line| {
        let line = line.trim().to_ascii_lowercase();
        line.starts_with("objectformat") && line.ends_with("sha256")
    })
}

/// Walk up from `dir`, as git's discovery does (stopping at `GIT_CEILING_DIRECTORIES`), looking
/// for something that looks like a git directory.
fn find_git_dir(dir: &Path) -> Option<std::path::PathBuf> {
    let ceilings: Vec<std::path::PathBuf> = std::env::var_os("GIT_CEILING_DIRECTORIES")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    let mut current = Some(dir);
    while let Some(d) = current {
        if d != dir && ceilings.iter().any(|c| c == d) {
            return None;
        }
        let dot_git = d.join(".git");
        if dot_git.exists() {
            return Some(dot_git);
        }
        if d.join("HEAD").is_file() && d.join("objects").is_dir() {
            return Some(d.to_owned());
        }
        current = d.parent();
    }
    None
}

pub(crate) fn configure(mut repo: gix::Repository) -> Result<gix::Repository> {
    let needs_committer = repo.committer().is_none();
    let needs_author = repo.author().is_none();
    let mut config = repo.config_snapshot_mut();
    // Checkpoint refs are not reflogged by git either; the notes ref needs no history.
    config
        .set_value(&Core::LOG_ALL_REF_UPDATES, "false")
        .context(|| "cannot adjust the in-memory configuration".into())?;
    // Read the index as git does: without hashing the whole file to verify its trailing
    // checksum, which git leaves to `git fsck`. On a large tree that hash (SHA-1 with
    // collision detection) costs as much as decoding the index; the decoder still refuses an
    // index whose structure is damaged. Writing is unaffected: the one index git-checkpoint
    // writes (`restore --staged`) gets its checksum.
    config
        .set_value(&gix::config::tree::Index::SKIP_HASH, "true")
        .context(|| "cannot adjust the in-memory configuration".into())?;
    if needs_committer {
        config
            .set_value(&gitoxide::Committer::NAME_FALLBACK, FALLBACK_NAME)
            .and_then(|_| config.set_value(&gitoxide::Committer::EMAIL_FALLBACK, FALLBACK_EMAIL))
            .context(|| "cannot set the fallback identity".into())?;
    }
    if needs_author {
        config
            .set_value(&gitoxide::Author::NAME_FALLBACK, FALLBACK_NAME)
            .and_then(|_| config.set_value(&gitoxide::Author::EMAIL_FALLBACK, FALLBACK_EMAIL))
            .context(|| "cannot set the fallback identity".into())?;
    }
    config
        .commit()
        .context(|| "cannot adjust the in-memory configuration".into())?;
    Ok(repo)
}

/// The committer and author for new commits (never missing after [`open`]).
pub(crate) fn signatures(
    repo: &gix::Repository,
) -> Result<(gix::actor::SignatureRef<'_>, gix::actor::SignatureRef<'_>)> {
    let missing = || Error::Config {
        key: "user.name".into(),
        message: "no identity configured".into(),
    };
    let committer = repo
        .committer()
        .ok_or_else(missing)?
        .context(|| "cannot read the committer identity".into())?;
    let author = repo
        .author()
        .ok_or_else(missing)?
        .context(|| "cannot read the author identity".into())?;
    Ok((committer, author))
}

/// The name of the linked worktree `repo` was opened in; `None` for the main worktree.
pub fn worktree_name(repo: &gix::Repository) -> Result<Option<String>> {
    let Some(worktree) = repo.worktree() else {
        return Ok(None);
    };
    let id = worktree
        .id()
        .context(|| "cannot read the worktree's name".into())?;
    Ok(id.map(|id| id.to_str_lossy().into_owned()))
}
