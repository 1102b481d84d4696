//! Opening the repository, refusing what git-checkpoint cannot work with, and the identity used
//! for checkpoint commits.

use std::path::{Path, PathBuf};

use gix::bstr::ByteSlice;
use gix::config::tree::{Core, gitoxide};

use crate::error::{Context, Error, Result};

/// Name used for checkpoint commits when no identity is configured.
pub const FALLBACK_NAME: &str = "git-checkpoint";
/// Email used for checkpoint commits when no identity is configured.
pub const FALLBACK_EMAIL: &str = "git-checkpoint@localhost";

/// Discover the repository containing `dir` (honouring `GIT_DIR` and friends, like git), and
/// check that git-checkpoint can work in it: the repository's formats must be ones it can keep
/// (see [`check_formats`]). A bare repository is opened (its checkpoints can be read, pushed
/// and fetched); what needs a working tree refuses later, with [`Error::NoWorkingTree`].
///
/// The returned repository writes no reflog for the refs git-checkpoint changes, reads the index
/// without verifying its checksum (as git does), and has a fallback identity, so saving never
/// fails for lack of `user.name`. None of these settings touches `.git/config`: they live in
/// this in-memory instance only.
pub fn open(dir: &Path) -> Result<gix::Repository> {
    let repo = match gix::ThreadSafeRepository::discover_with_environment_overrides_opts(
        dir,
        Default::default(),
        trust_map(),
    ) {
        Ok(repo) => repo.to_thread_local(),
        Err(err) => {
            // A repository gix cannot open is not "no repository": say why.
            let Some(git_dir) = find_git_dir(dir) else {
                return Err(Error::NotARepository(dir.to_owned()));
            };
            return Err(Error::Git {
                context: format!("cannot open the repository at `{}`", git_dir.display()),
                source: Box::new(err),
            });
        }
    };
    let repo = check_formats(repo)?;
    configure(repo)
}

/// The options of every repository this library opens: the default ones, plus the settings
/// given on git's command line (`git -c key=value checkpoint …`), which git passes to an
/// external command in `GIT_CONFIG_PARAMETERS` and gix does not read itself.
pub(crate) fn open_options() -> gix::open::Options {
    gix::open::Options::default().cli_overrides(command_line_config())
}

/// [`open_options`] for each level of trust, as discovery wants them.
fn trust_map() -> gix::sec::trust::Mapping<gix::open::Options> {
    let mut map = gix::sec::trust::Mapping::<gix::open::Options>::default();
    let overrides = command_line_config();
    map.full = map.full.cli_overrides(overrides.clone());
    map.reduced = map.reduced.cli_overrides(overrides);
    map
}

/// The `key=value` settings of `GIT_CONFIG_PARAMETERS` (`key` alone: an implicit `true`);
/// none when it is unset or not in git's format (git itself then refuses to run).
fn command_line_config() -> Vec<String> {
    std::env::var("GIT_CONFIG_PARAMETERS")
        .ok()
        .and_then(|value| parse_config_parameters(&value))
        .unwrap_or_default()
}

/// Parse `GIT_CONFIG_PARAMETERS` as git's `parse_config_env_list` does: shell-single-quoted
/// words separated by spaces, each `'key=value'` (older git) or `'key'='value'`, `'key'=` being
/// an implicit `true`.
fn parse_config_parameters(text: &str) -> Option<Vec<String>> {
    /// One single-quoted word at the start of `s` (`'it'\''s'` is `it's`): the word and the
    /// rest after it.
    fn quoted(s: &str) -> Option<(String, &str)> {
        let mut rest = s.strip_prefix('\'')?;
        let mut word = String::new();
        loop {
            let end = rest.find('\'')?;
            word.push_str(&rest[..end]);
            rest = &rest[end + 1..];
            // `'\''` and `'\!'`: a quote (or `!`) outside the quotes, then quoted again.
            match rest.as_bytes() {
                [b'\\', c @ (b'\'' | b'!'), b'\'', ..] => {
                    word.push(char::from(*c));
                    rest = &rest[3..];
                }
                _ => return Some((word, rest)),
            }
        }
    }
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (key, after) = quoted(rest)?;
        rest = after;
        if let Some(value) = rest.strip_prefix('=') {
            if value.starts_with('\'') {
                let (value, after) = quoted(value)?;
                out.push(format!("{key}={value}"));
                rest = after;
            } else {
                out.push(key);
                rest = value;
            }
        } else {
            // The older form: the key and the value in one word.
            out.push(key);
        }
        if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
            return None;
        }
        rest = rest.trim_start();
    }
    Some(out)
}

/// How a repository stores its refs (`extensions.refStorage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RefFormat {
    /// Loose files and `packed-refs`: read and written by gix, in process.
    Files,
    /// The reftable format, which gix cannot read or write yet: refs go through git (see
    /// [`crate::refdb`]).
    Reftable,
}

/// The ref storage `repo` uses. `extensions.refStorage` is `files`, `reftable` or (newer git)
/// `reftable://<path>`; [`open`] refuses any other value.
pub(crate) fn ref_format(repo: &gix::Repository) -> RefFormat {
    match ref_storage(repo) {
        Some(value) if is_reftable(&value) => RefFormat::Reftable,
        _ => RefFormat::Files,
    }
}

fn is_reftable(ref_storage: &str) -> bool {
    ref_storage == "reftable" || ref_storage.starts_with("reftable:")
}

fn ref_storage(repo: &gix::Repository) -> Option<String> {
    repo.config_snapshot()
        .string("extensions.refStorage")
        .map(|v| v.to_str_lossy().trim().to_ascii_lowercase())
}

/// Refuse the repository formats git-checkpoint cannot keep, and make the one it keeps through
/// git safe: SHA-1 and SHA-256 object ids both work (gix's `sha1` and `sha256`); refs stored
/// as files work in process, refs in the reftable format through git.
///
/// gix 0.90 has no reftable backend, and on a reftable repository its ref store silently reads
/// nothing and writes loose files that git never sees (their objects would then be dangling,
/// and `git gc` would delete them). Every ref access goes through [`crate::refdb`], which uses
/// git there; as a guard against any gix ref write that slips past it, the repository gets a
/// ref store whose shared refs (`refs/checkpoints/`, `refs/notes/`, branches, …) live below a
/// regular file, where every write fails. (The store's own directory stays the real git
/// directory: gix takes `git_dir()` from it. Only per-worktree refs such as `HEAD`, which
/// git-checkpoint never writes, would still reach it.)
///
/// `extensions.compatObjectFormat` (git's experimental SHA-1/SHA-256 interoperability) is
/// refused: git keeps a map from each object's id to its id in the other format, which gix
/// does not write, so git could not translate the checkpoints' objects.
fn check_formats(mut repo: gix::Repository) -> Result<gix::Repository> {
    if let Some(compat) = repo
        .config_snapshot()
        .string("extensions.compatObjectFormat")
    {
        return Err(Error::Unsupported(format!(
            "this repository keeps a second object format (`extensions.compatObjectFormat = {}`), which git-checkpoint cannot maintain",
            compat.to_str_lossy()
        )));
    }
    match ref_storage(&repo).as_deref() {
        None | Some("files") => Ok(repo),
        Some(value) if is_reftable(value) => {
            let guard = repo
                .common_dir()
                .join("reftable")
                .join("tables.list")
                .join("refs-are-in-reftable");
            repo.refs = gix::refs::file::Store::for_linked_worktree(
                repo.git_dir().to_owned(),
                guard,
                repo.object_hash(),
            );
            Ok(repo)
        }
        Some(other) => Err(Error::Unsupported(format!(
            "this repository stores refs in the `{other}` format, which git-checkpoint does not know"
        ))),
    }
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

/// Placeholder commit dates given to gix when git's environment sets none, so that gix never
/// computes "now" itself (it would do so once per repository handle, and through a time-zone
/// database it builds by walking all of `/usr/share/zoneinfo`, on every command); the real time
/// is taken for each commit by [`signatures`].
const PLACEHOLDER_DATE: &str = "0 +0000";

pub(crate) fn configure(mut repo: gix::Repository) -> Result<gix::Repository> {
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
    // A fallback identity is used only where none is configured: set it always, rather than
    // ask gix whether one is (which makes it compute the identities and the time now).
    config
        .set_value(&gitoxide::Committer::NAME_FALLBACK, FALLBACK_NAME)
        .and_then(|_| config.set_value(&gitoxide::Committer::EMAIL_FALLBACK, FALLBACK_EMAIL))
        .and_then(|_| config.set_value(&gitoxide::Author::NAME_FALLBACK, FALLBACK_NAME))
        .and_then(|_| config.set_value(&gitoxide::Author::EMAIL_FALLBACK, FALLBACK_EMAIL))
        .context(|| "cannot set the fallback identity".into())?;
    for (key, env) in [
        (&gitoxide::Commit::COMMITTER_DATE, "GIT_COMMITTER_DATE"),
        (&gitoxide::Commit::AUTHOR_DATE, "GIT_AUTHOR_DATE"),
    ] {
        if std::env::var_os(env).is_none() {
            config
                .set_value(key, PLACEHOLDER_DATE)
                .context(|| "cannot adjust the in-memory configuration".into())?;
        }
    }
    config
        .commit()
        .context(|| "cannot adjust the in-memory configuration".into())?;
    // A restore, a diff or a revert reads the same trees several times over (its plan, the
    // summary of its safety checkpoint, the undo history): keep decoded objects in memory
    // rather than inflate them again, unless `gitoxide.objects.cacheLimit` says otherwise.
    repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
    Ok(repo)
}

/// The bytes of decoded objects a repository handle keeps in memory.
const OBJECT_CACHE_BYTES: usize = 4 * 1024 * 1024;

/// The committer and author for a new commit (never missing after [`open`]), dated now, unless
/// `GIT_COMMITTER_DATE` / `GIT_AUTHOR_DATE` set their dates as they do for git.
pub(crate) fn signatures(
    repo: &gix::Repository,
) -> Result<(gix::actor::Signature, gix::actor::Signature)> {
    let missing = || Error::Config {
        key: "user.name".into(),
        message: "no identity configured".into(),
    };
    let now = chrono::Local::now();
    let now = gix::date::Time {
        seconds: now.timestamp(),
        offset: now.offset().local_minus_utc(),
    };
    let owned =
        |signature: gix::actor::SignatureRef<'_>, env: &str| -> Result<gix::actor::Signature> {
            let time = if std::env::var_os(env).is_some() {
                signature
                    .time()
                    .context(|| format!("cannot read the date in {env}"))?
            } else {
                now
            };
            Ok(gix::actor::Signature {
                name: signature.name.to_owned(),
                email: signature.email.to_owned(),
                time,
            })
        };
    let dated = |env: &str| std::env::var_os(env).is_some();
    if !dated("GIT_COMMITTER_DATE") && !dated("GIT_AUTHOR_DATE") {
        // Dated now: the names and emails are read as gix resolves them, without asking gix
        // for its signatures, which would date them by the system's time-zone database first.
        let config = repo.config_snapshot();
        let first = |keys: &[&str]| {
            keys.iter()
                .find_map(|key| config.string(*key))
                .ok_or_else(missing)
        };
        let signature = |who: &str| -> Result<gix::actor::Signature> {
            Ok(gix::actor::Signature {
                name: first(&[
                    &format!("{who}.name"),
                    "user.name",
                    &format!("gitoxide.{who}.nameFallback"),
                ])?,
                email: first(&[
                    &format!("{who}.email"),
                    "user.email",
                    "gitoxide.user.emailFallback",
                    &format!("gitoxide.{who}.emailFallback"),
                ])?,
                time: now,
            })
        };
        return Ok((signature("committer")?, signature("author")?));
    }
    let committer = repo
        .committer()
        .ok_or_else(missing)?
        .context(|| "cannot read the committer identity".into())?;
    let author = repo
        .author()
        .ok_or_else(missing)?
        .context(|| "cannot read the author identity".into())?;
    Ok((
        owned(committer, "GIT_COMMITTER_DATE")?,
        owned(author, "GIT_AUTHOR_DATE")?,
    ))
}

/// `write`, an object write, tried again (up to three more times) when it fails. gix creates
/// a loose object's directory, then moves the new object into it; a `git gc` running beside
/// (the one a save starts in the background, or the user's) may remove that directory while it
/// is still empty (`git prune-packed`), and the move fails. git writes its temporary file
/// inside the directory, so its own writes never meet this. A write that fails every time, for
/// a reason that stays (a full disk, no permission), fails.
pub(crate) fn retry_write<T, E>(
    mut write: impl FnMut() -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let mut tries = 0;
    loop {
        match write() {
            Err(_) if tries < 3 => tries += 1,
            done => return done,
        }
    }
}

/// Write a commit of `tree` with `parents` and `message`, by [`signatures`], moving no ref.
pub(crate) fn new_commit(
    repo: &gix::Repository,
    message: &str,
    tree: gix::ObjectId,
    parents: impl IntoIterator<Item = impl Into<gix::ObjectId>>,
) -> std::result::Result<gix::ObjectId, Error> {
    let (committer, author) = signatures(repo)?;
    let (mut committer_time, mut author_time) = Default::default();
    let parents: Vec<gix::ObjectId> = parents.into_iter().map(Into::into).collect();
    let commit = retry_write(|| {
        repo.new_commit_as(
            committer.to_ref(&mut committer_time),
            author.to_ref(&mut author_time),
            message,
            tree,
            parents.iter().copied(),
        )
    })
    .context(|| "cannot write a commit".into())?;
    Ok(commit.id)
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

/// Resolve `.` and `..` without touching the file system.
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::parse_config_parameters;

    #[test]
    fn git_config_parameters_in_both_of_gits_forms() {
        let parsed = |text: &str| parse_config_parameters(text);
        assert_eq!(
            parsed("'checkpoint.keep'='2' 'core.quotepath'='false'"),
            Some(vec![
                "checkpoint.keep=2".into(),
                "core.quotepath=false".into()
            ])
        );
        // Older git: one word each.
        assert_eq!(
            parsed("'checkpoint.keep=2'  'color.ui=never'"),
            Some(vec!["checkpoint.keep=2".into(), "color.ui=never".into()])
        );
        // Quotes, `!`, spaces and `=` inside values; an implicit true.
        assert_eq!(
            parsed(r"'checkpoint.exclude'='it'\''s a=b'\!'' 'core.bare'="),
            Some(vec![
                "checkpoint.exclude=it's a=b!".into(),
                "core.bare".into()
            ])
        );
        assert_eq!(parsed(""), Some(vec![]));
        for bad in ["checkpoint.keep=2", "'unterminated", "'a'x", "'a'='b'c"] {
            assert_eq!(parsed(bad), None, "{bad}");
        }
    }
}
