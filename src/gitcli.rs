//! The one place git-checkpoint runs the `git` binary.
//!
//! gix writes objects but never packs or collects them: it has no `gc`. Saves accumulate loose
//! objects, and dropped checkpoints leave unreachable ones, so git's own `git gc --auto` is
//! started now and then, in the background, quietly, never making a save wait for it.
//!
//! gix cannot push at all (it has no send-pack side of the protocol), and its fetch needs the
//! network client features, which would add a TLS and HTTP stack to the build and would still
//! not know every transport, credential helper, `insteadOf` rule and ssh setting a user's git
//! knows. So `push` and `fetch` (see [`crate::share`]) talk to remotes through `git ls-remote`,
//! `git fetch` and `git push`: the git that the user already configured for that remote. Only
//! the transfer goes through git; reading and writing refs and notes stays in gix.
//!
//! gix 0.90 has no reftable backend at all (upstream work is unreleased): on a repository whose
//! refs are stored in the reftable format (`git init --ref-format=reftable`, git 3.0's default)
//! its ref store would read nothing and write loose files git never looks at. There, and only
//! there, refs are read with `git for-each-ref --include-root-refs` and written with
//! `git update-ref --no-deref --stdin` transactions ([`for_each_ref`], [`update_refs`]), which
//! [`crate::refdb`] uses; both need git 2.45, the first git that can open such a repository.
//! Objects, the index and the notes trees stay in gix there too. On the files backend no ref
//! goes through git, so a save never starts a git process there.
//!
//! Those git processes run in the top directory of the working tree (so relative remote paths
//! mean what they mean to `git push`) with `--git-dir` naming the repository this process
//! opened. The variables that would point git at another repository, index or object store
//! (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_COMMON_DIR`, `GIT_INDEX_FILE`, `GIT_OBJECT_DIRECTORY`,
//! `GIT_ALTERNATE_OBJECT_DIRECTORIES`) are removed, since `--git-dir` already names the one
//! gix opened, honouring them. Everything else is inherited on purpose: `git -c` settings
//! (`GIT_CONFIG_PARAMETERS`), ssh and credential settings, proxies, terminal prompts. Messages
//! are read in the C locale, so that failures can be recognised; git's stderr is captured and a
//! failure becomes one line.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use gix::ObjectId;

use crate::error::{Error, Result};

/// git's default for `gc.auto`.
const DEFAULT_GC_AUTO: u64 = 6700;

/// Whether there are enough loose objects that `git gc --auto` would do something, estimated
/// the way git does: by counting the files in `objects/17`.
pub fn gc_looks_needed(repo: &gix::Repository) -> bool {
    let limit = repo
        .config_snapshot()
        .integer("gc.auto")
        .map_or(DEFAULT_GC_AUTO, |n| n.max(0) as u64);
    if limit == 0 {
        return false;
    }
    let dir = repo.objects.store_ref().path().join("17");
    let count = std::fs::read_dir(dir).map_or(0, |entries| entries.count() as u64);
    count > limit.div_ceil(256)
}

/// Start `git gc --auto --quiet` in the background when it looks needed. Failures are ignored:
/// this is housekeeping, never a reason for a save to fail.
pub fn maybe_gc_in_background(repo: &gix::Repository) {
    if !gc_looks_needed(repo) {
        return;
    }
    if let Ok(mut cmd) = git(repo) {
        // A plain directory's store names its working tree in its config; `--git-dir` finds
        // it from anywhere.
        let _ = cmd
            .args(["gc", "--auto", "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
    }
}

/// Variables that would point a git process at another repository, index or object store than
/// the one gix opened (which `--git-dir` names explicitly instead).
const REDIRECTING_VARS: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
];

/// A `git` command for the repository `repo`, run in its working tree's top directory (in its
/// git directory when it is bare).
fn git(repo: &gix::Repository) -> Result<Command> {
    let workdir = repo.workdir().unwrap_or_else(|| repo.git_dir());
    let absolute = |path: &Path| {
        std::path::absolute(path).map_err(|source| Error::Io {
            context: format!("cannot resolve `{}`", path.display()),
            source,
        })
    };
    let mut git_dir = OsString::from("--git-dir=");
    git_dir.push(absolute(repo.git_dir())?);
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(absolute(workdir)?)
        .arg(git_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("LC_ALL", "C");
    for var in REDIRECTING_VARS {
        cmd.env_remove(var);
    }
    Ok(cmd)
}

/// Run `cmd` to its end, capturing both streams.
fn output(mut cmd: Command, what: impl FnOnce() -> String) -> Result<Output> {
    cmd.output().map_err(|err| {
        Error::Remote(format!(
            "{}: cannot run git: {err}{}",
            what(),
            if err.kind() == std::io::ErrorKind::NotFound {
                " (is git installed and on PATH?)"
            } else {
                ""
            }
        ))
    })
}

/// Run `cmd` to its end; a failure is an error saying `what` was being done and git's reason.
fn success(cmd: Command, what: impl Fn() -> String) -> Result<Output> {
    let out = output(cmd, &what)?;
    if !out.status.success() {
        return Err(failed(&what(), &out));
    }
    Ok(out)
}

/// The error of a git run that failed while doing `what`.
fn failed(what: &str, out: &Output) -> Error {
    if let Some(err) = unsupported(&out.stderr) {
        return err;
    }
    Error::Remote(format!("{what}: {}", failure_line(&out.stderr, out.status)))
}

/// The error of a git run on this repository (not a remote) that failed while doing `what`.
fn local_failure(what: &str, out: &Output) -> Error {
    unsupported(&out.stderr).unwrap_or_else(|| Error::Git {
        context: what.to_string(),
        source: Box::new(GitFailed(failure_line(&out.stderr, out.status))),
    })
}

/// The first git that can open a repository whose refs are in the reftable format, and whose
/// `for-each-ref` knows `--include-root-refs`.
pub const MIN_REFTABLE_GIT: &str = "2.45";

/// A failure that says the git on `PATH` is too old for this repository, or that the two sides
/// of a push or fetch use different object formats: one clear error instead of git's words.
fn unsupported(stderr: &[u8]) -> Option<Error> {
    let text = String::from_utf8_lossy(stderr);
    // git 2.39: "fatal: unknown repository extension found:\n\trefstorage".
    if (text.contains("unknown repository extension") && text.contains("refstorage"))
        || text.contains("include-root-refs")
    {
        return Some(Error::Unsupported(format!(
            "this repository stores its refs in the reftable format, which git-checkpoint reads and writes through git {MIN_REFTABLE_GIT} or newer, but the git on PATH is {}",
            version().unwrap_or_else(|| "older".into())
        )));
    }
    // git 2.45 says the first (push) or the second (fetch); before, a push to an empty remote
    // of the other format fails earlier, reading the other side's null id of the other length
    // in the `capabilities^{}` line it advertises instead of refs.
    if text.contains("does not support this repository's hash algorithm")
        || text.contains("mismatched algorithms")
        || text.contains("protocol error: unexpected capabilities^{}")
    {
        return Some(Error::Remote(
            "the remote and this repository use different object formats (SHA-1 and SHA-256): checkpoints cannot be pushed or fetched between them".into(),
        ));
    }
    None
}

/// `git --version`'s version, e.g. `2.39.5`.
fn version() -> Option<String> {
    let out = Command::new("git")
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    Some(text.trim().trim_start_matches("git version ").to_string())
}

/// The line of git's stderr that says what went wrong: the first `fatal:` or `error:` line
/// (without that prefix), else the last line; control characters removed.
pub fn failure_line(stderr: &[u8], status: std::process::ExitStatus) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let found = lines
        .iter()
        .find_map(|l| {
            l.strip_prefix("fatal: ")
                .or_else(|| l.strip_prefix("error: "))
        })
        .or_else(|| lines.last().copied());
    match found {
        Some(line) => line.chars().filter(|c| !c.is_control()).collect(),
        None => format!("git exited with {status}"),
    }
}

/// A remote name or URL must not be read by git as an option.
fn check_remote(remote: &str) -> Result<()> {
    if remote.is_empty() || remote.starts_with('-') {
        return Err(Error::InvalidInput(format!(
            "`{}` is not a remote name or URL",
            remote.escape_debug()
        )));
    }
    Ok(())
}

/// A ref listed by `git ls-remote`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteRef {
    /// Its full name.
    pub name: String,
    /// The object it points to.
    pub id: ObjectId,
}

/// The refs of `remote` matching `patterns` (`git ls-remote` patterns, e.g.
/// `refs/checkpoints/*`). Lines git prints that are not `<id>\t<name>` are ignored.
pub fn ls_remote(
    repo: &gix::Repository,
    remote: &str,
    patterns: &[&str],
) -> Result<Vec<RemoteRef>> {
    check_remote(remote)?;
    let mut cmd = git(repo)?;
    cmd.args(["ls-remote", "--", remote]).args(patterns);
    let out = success(cmd, || format!("cannot list the refs of `{remote}`"))?;
    Ok(parse_ls_remote(&out.stdout))
}

/// The lines of `git ls-remote`: ids of either length (SHA-1 or SHA-256) are kept, so that the
/// caller can tell a remote of the other object format; other lines are ignored.
fn parse_ls_remote(stdout: &[u8]) -> Vec<RemoteRef> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|line| {
            let (id, name) = line.split_once('\t')?;
            Some(RemoteRef {
                name: name.to_string(),
                id: ObjectId::from_hex(id.as_bytes()).ok()?,
            })
        })
        .collect()
}

/// Fetch `refspecs` from `remote` into this repository, touching nothing but the refs the
/// refspecs name: no tags, no submodules, no `FETCH_HEAD`, no remote-tracking refs, no pruning,
/// no reflog.
pub fn fetch(repo: &gix::Repository, remote: &str, refspecs: &[String]) -> Result<()> {
    check_remote(remote)?;
    let mut cmd = git(repo)?;
    cmd.args([
        "-c",
        "core.logAllRefUpdates=false",
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-recurse-submodules",
        "--no-write-fetch-head",
        "--no-prune",
        "--no-prune-tags",
        "--refmap=",
        "--",
        remote,
    ])
    .args(refspecs);
    success(cmd, || format!("cannot fetch from `{remote}`"))?;
    Ok(())
}

/// One ref to update on the remote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushUpdate {
    /// The object to send.
    pub src: ObjectId,
    /// The remote ref to set.
    pub dst: String,
    /// The lease: what the remote ref must be for the update to happen (`None`: it must not
    /// exist). Passed as `--force-with-lease=<dst>:<expected>`.
    pub expected: Option<ObjectId>,
}

/// What became of one ref of a push, from `git push --porcelain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefStatus {
    /// The remote ref.
    pub dst: String,
    /// git's flag: ` ` fast-forward, `+` forced, `-` deleted, `*` new, `!` rejected, `=` up to
    /// date.
    pub flag: char,
    /// git's summary, e.g. `[new reference]` or `[rejected] (stale info)`.
    pub summary: String,
}

impl RefStatus {
    /// Whether the remote refused this ref.
    pub fn rejected(&self) -> bool {
        self.flag == '!'
    }
}

/// How a push went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushOutcome {
    /// git talked to the remote: what became of each ref (some may be rejected).
    Done(Vec<RefStatus>),
    /// The remote cannot take an `--atomic` push; nothing was sent.
    AtomicUnsupported,
}

/// Push `updates` to `remote`, each with its lease, all or nothing with `atomic`. Tags,
/// submodules and the `pre-push` hook are git's usual business, except that tags are never
/// followed and submodules never pushed.
pub fn push(
    repo: &gix::Repository,
    remote: &str,
    updates: &[PushUpdate],
    atomic: bool,
) -> Result<PushOutcome> {
    check_remote(remote)?;
    let mut cmd = git(repo)?;
    cmd.args([
        "push",
        "--porcelain",
        "--no-follow-tags",
        "--no-recurse-submodules",
    ]);
    if atomic {
        cmd.arg("--atomic");
    }
    for update in updates {
        cmd.arg(format!(
            "--force-with-lease={}:{}",
            update.dst,
            update.expected.map(|id| id.to_string()).unwrap_or_default()
        ));
    }
    cmd.args(["--", remote]);
    for update in updates {
        cmd.arg(format!("{}:{}", update.src, update.dst));
    }
    let what = || format!("cannot push to `{remote}`");
    let out = output(cmd, what)?;
    let statuses = parse_porcelain(&out.stdout);
    if out.status.success() {
        return Ok(PushOutcome::Done(statuses));
    }
    if atomic && String::from_utf8_lossy(&out.stderr).contains("does not support --atomic") {
        return Ok(PushOutcome::AtomicUnsupported);
    }
    if statuses.iter().any(RefStatus::rejected) {
        return Ok(PushOutcome::Done(statuses));
    }
    Err(failed(&what(), &out))
}

/// The ref lines of `git push --porcelain`: `<flag>\t<src>:<dst>\t<summary>`.
fn parse_porcelain(stdout: &[u8]) -> Vec<RefStatus> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|line| {
            let mut fields = line.splitn(3, '\t');
            let flag = fields.next()?.chars().next()?;
            let dst = fields.next()?.rsplit_once(':')?.1;
            let summary = fields.next().unwrap_or("");
            Some(RefStatus {
                dst: dst.to_string(),
                flag,
                summary: summary.chars().filter(|c| !c.is_control()).collect(),
            })
        })
        .collect()
}

/// A ref as `git for-each-ref` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRef {
    /// Its full name (`HEAD` for `HEAD`).
    pub name: String,
    /// The object id it resolves to, in hex, as git printed it; empty when it resolves to
    /// nothing.
    pub object: String,
    /// The ref a symbolic ref points to; empty for a direct ref.
    pub symref: String,
}

/// The refs matching `patterns` (`git for-each-ref` patterns: a full name, or a prefix ending
/// in `/`), and with `root_refs` the root refs such as `HEAD` that they name. Nothing is
/// peeled and no object is read, so a ref to a missing object is listed like any other; a
/// dangling symbolic ref (`HEAD` on an unborn branch) is not listed at all.
pub fn for_each_ref(
    repo: &gix::Repository,
    root_refs: bool,
    patterns: &[&str],
) -> Result<Vec<ListedRef>> {
    let mut cmd = git(repo)?;
    cmd.args([
        "for-each-ref",
        "--format=%(refname)%00%(objectname)%00%(symref)",
    ]);
    if root_refs {
        cmd.arg("--include-root-refs");
    }
    cmd.arg("--").args(patterns);
    let what = || "cannot list refs".to_string();
    let out = output(cmd, what)?;
    if !out.status.success() {
        return Err(local_failure(&what(), &out));
    }
    Ok(parse_for_each_ref(&out.stdout))
}

fn parse_for_each_ref(stdout: &[u8]) -> Vec<ListedRef> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|line| {
            let mut fields = line.splitn(3, '\0');
            Some(ListedRef {
                name: fields.next()?.to_string(),
                object: fields.next()?.to_string(),
                symref: fields.next()?.to_string(),
            })
        })
        .filter(|r| !r.name.is_empty())
        .collect()
}

/// The branch `HEAD` names (`refs/heads/main`), also when it has no commit yet; `None` when
/// `HEAD` is detached.
pub fn symbolic_head(repo: &gix::Repository) -> Result<Option<String>> {
    let mut cmd = git(repo)?;
    cmd.args(["symbolic-ref", "-q", "HEAD"]);
    let what = || "cannot read HEAD".to_string();
    let out = output(cmd, what)?;
    match out.status.code() {
        Some(0) => Ok(Some(
            String::from_utf8_lossy(&out.stdout).trim().to_string(),
        )),
        Some(1) => Ok(None),
        _ => Err(local_failure(&what(), &out)),
    }
}

/// The commit `HEAD` of the repository at `dir` (a nested repository or submodule) points to;
/// `None` when it has none, or when `dir` is no repository git can read.
pub fn head_of(dir: &Path) -> Option<ObjectId> {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(dir)
        .args(["rev-parse", "-q", "--verify", "HEAD^{commit}"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env("LC_ALL", "C");
    for var in REDIRECTING_VARS {
        cmd.env_remove(var);
    }
    let out = cmd.output().ok()?;
    if !out.status.success() {
        return None;
    }
    ObjectId::from_hex(String::from_utf8_lossy(&out.stdout).trim().as_bytes()).ok()
}

/// Why a ref transaction ([`update_refs`]) did not happen. Nothing was changed in any case.
#[derive(Debug)]
pub enum RefUpdateFailure {
    /// A ref was not what the transaction expected (it exists although it had to be created,
    /// it moved, or it is gone): another writer came first. Read again and retry.
    Conflict(GitFailed),
    /// git could not take its lock (another git is writing refs): retry after a pause.
    Locked(GitFailed),
    /// Anything else.
    Failed(Error),
}

/// git's reason for a failure, as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitFailed(pub String);

impl std::fmt::Display for GitFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GitFailed {}

/// Run `commands` (lines of `git update-ref --stdin`: `create`, `update`, `delete`) as one
/// transaction: every ref is locked and checked first, then all change or none does. Refs are
/// never dereferenced, and no reflog is written (as gix does for checkpoint refs); a user's
/// `reference-transaction` hook runs, as for any git ref update.
pub fn update_refs(
    repo: &gix::Repository,
    commands: &[String],
) -> std::result::Result<(), RefUpdateFailure> {
    use std::io::Write;
    let mut cmd = git(repo).map_err(RefUpdateFailure::Failed)?;
    cmd.args([
        "-c",
        "core.logAllRefUpdates=false",
        "update-ref",
        "--no-deref",
        "--stdin",
    ])
    .stdin(Stdio::piped());
    let what = || "cannot update refs".to_string();
    let mut child = cmd.spawn().map_err(|err| {
        RefUpdateFailure::Failed(Error::Io {
            context: format!("{}: cannot run git", what()),
            source: err,
        })
    })?;
    let mut input = String::from("start\n");
    for line in commands {
        input.push_str(line);
        input.push('\n');
    }
    input.push_str("prepare\ncommit\n");
    // All of it at once: a transaction that does not reach `commit` is aborted by git.
    let written = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|err| {
        RefUpdateFailure::Failed(Error::Io {
            context: format!("{}: cannot run git", what()),
            source: err,
        })
    })?;
    if out.status.success() {
        return match written {
            Some(Ok(())) => Ok(()),
            _ => Err(RefUpdateFailure::Failed(Error::Remote(format!(
                "{}: git did not read the transaction",
                what()
            )))),
        };
    }
    if let Some(err) = unsupported(&out.stderr) {
        return Err(RefUpdateFailure::Failed(err));
    }
    let reason = GitFailed(failure_line(&out.stderr, out.status));
    let text = &reason.0;
    if text.contains("reference already exists")
        || text.contains("but expected")
        || text.contains("unable to resolve reference")
        || text.contains("reference is missing")
    {
        Err(RefUpdateFailure::Conflict(reason))
    } else if text.contains("cannot lock references") || text.contains("File exists") {
        Err(RefUpdateFailure::Locked(reason))
    } else {
        Err(RefUpdateFailure::Failed(Error::Git {
            context: what(),
            source: Box::new(reason),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn failure_line_prefers_fatal_and_error_lines() {
        let status = std::process::ExitStatus::from_raw(128 << 8);
        let stderr = b"fatal: 'nope' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure\n";
        assert_eq!(
            failure_line(stderr, status),
            "'nope' does not appear to be a git repository"
        );
        assert_eq!(
            failure_line(b"just\nthis \x1b[31mone\n", status),
            "this [31mone"
        );
        assert!(failure_line(b"", status).starts_with("git exited with"));
    }

    #[test]
    fn porcelain_and_ls_remote_lines_are_parsed() {
        let out = b"To ../r.git\n!\t8f2e3e320a22d42ab88e75e52afaa320cdd7f47d:refs/notes/x\t[rejected] (stale info)\n*\tHEAD:refs/checkpoints/b\t[new reference]\nDone\n";
        let statuses = parse_porcelain(out);
        assert_eq!(statuses.len(), 2);
        assert!(statuses[0].rejected() && statuses[0].dst == "refs/notes/x");
        assert_eq!(statuses[0].summary, "[rejected] (stale info)");
        assert!(!statuses[1].rejected() && statuses[1].dst == "refs/checkpoints/b");
        let refs = parse_ls_remote(
            b"39cffcada0d1a1e63d7d944d3cfb006710a7ea82\trefs/checkpoints/a\nbogus\nzz\trefs/x\n",
        );
        assert_eq!(refs.len(), 1);
        assert_eq!(refs[0].name, "refs/checkpoints/a");
    }

    #[test]
    fn ids_of_both_formats_are_kept_so_that_a_mismatch_can_be_told() {
        let sha256 = "6f1ed002ab5595859014ebf0951522d9b7ff5dd4a9d0e3cd4c28c8b3e0a2b1c4";
        let refs = parse_ls_remote(
            format!("{sha256}\tHEAD\n39cffcada0d1a1e63d7d944d3cfb006710a7ea82\trefs/x\n")
                .as_bytes(),
        );
        assert_eq!(refs.len(), 2);
        assert_eq!(refs[0].id.kind(), gix::hash::Kind::Sha256);
        assert_eq!(refs[1].id.kind(), gix::hash::Kind::Sha1);
    }

    #[test]
    fn for_each_ref_lines_are_split_at_nul() {
        let refs = parse_for_each_ref(
            b"HEAD\x0039cffcada0d1a1e63d7d944d3cfb006710a7ea82\x00refs/heads/main\nrefs/checkpoints/a\x00abc\x00\n\n",
        );
        assert_eq!(
            refs,
            vec![
                ListedRef {
                    name: "HEAD".into(),
                    object: "39cffcada0d1a1e63d7d944d3cfb006710a7ea82".into(),
                    symref: "refs/heads/main".into(),
                },
                ListedRef {
                    name: "refs/checkpoints/a".into(),
                    object: "abc".into(),
                    symref: String::new(),
                },
            ]
        );
    }

    #[test]
    fn gits_refusals_become_one_clear_error() {
        let old_git = unsupported(b"fatal: unknown repository extension found:\n\trefstorage\n");
        assert!(
            matches!(&old_git, Some(Error::Unsupported(m)) if m.contains("reftable") && m.contains(MIN_REFTABLE_GIT)),
            "{old_git:?}"
        );
        for stderr in [
            &b"fatal: the receiving end does not support this repository's hash algorithm\n"[..],
            b"fatal: mismatched algorithms: client sha256; server sha1\n",
            b"fatal: protocol error: unexpected capabilities^{}\n",
        ] {
            let err = unsupported(stderr);
            assert!(
                matches!(&err, Some(Error::Remote(m)) if m.contains("SHA-256")),
                "{err:?}"
            );
        }
        assert!(unsupported(b"fatal: 'nope' does not appear to be a git repository\n").is_none());
    }

    #[test]
    fn remotes_that_look_like_options_are_refused() {
        assert!(check_remote("--upload-pack=evil").is_err());
        assert!(check_remote("").is_err());
        assert!(check_remote("origin").is_ok());
        assert!(check_remote("../remote.git").is_ok());
    }
}
