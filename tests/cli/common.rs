//! A hermetic test repository built with the git CLI, the tool run against it, and the git
//! oracle that the tool's snapshots are compared with.
//!
//! Every git and tool process gets the same environment: no system config, an empty global
//! config and `HOME` inside the temporary directory, a fixed identity and fixed commit dates,
//! `TZ=UTC`, `LC_ALL=C`, `NO_COLOR=1`, and none of the variables (`GIT_DIR`, `GIT_INDEX_FILE`,
//! …) that would point git somewhere else.
//!
//! The object format and ref format of every repository the tests make are git's defaults,
//! which `GIT_DEFAULT_HASH` (`sha1`, `sha256`) and `GIT_DEFAULT_REF_FORMAT` (`files`,
//! `reftable`) set: they are passed through, so that the whole suite runs against each
//! combination (`ci/test-matrix`). A test whose subject does not exist in one format says so
//! with [`skip`].

use std::fs;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::Duration;

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_git-checkpoint")
}

/// Leave a test that is meaningless in this combination of formats, saying why on stderr and,
/// when `GIT_CHECKPOINT_TEST_SKIPS` names a file, in that file too (one line per skip), so that
/// `ci/test-matrix` counts and lists what each combination skipped.
pub fn skip(reason: &str) {
    let test = std::thread::current().name().unwrap_or("?").to_string();
    skipped(&test, reason);
}

/// How long one process of a test may run: a process that hangs must fail its test, naming
/// itself, rather than stall the whole suite until CI gives up on it without saying which.
/// `GIT_CHECKPOINT_TEST_PROCESS_TIMEOUT` (seconds) changes it; by default 300 s, far beyond
/// anything a test runs (seconds at most).
pub fn process_limit() -> Duration {
    static LIMIT: OnceLock<Duration> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let secs = std::env::var("GIT_CHECKPOINT_TEST_PROCESS_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(300);
        Duration::from_secs(secs)
    })
}

/// `program args…` of `cmd`, to name it.
fn describe(cmd: &Command) -> String {
    let mut out = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        out.push(' ');
        out.push_str(&arg.to_string_lossy());
    }
    out
}

/// Kills a process (and its process group, when it leads one) that runs past
/// [`process_limit`]; [`Watchdog::finish`] then fails the test, naming it.
pub struct Watchdog {
    done: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<bool>>,
    what: String,
}

impl Watchdog {
    /// Watch `child`, which `what` names; `group`: it leads its own process group, to kill
    /// whole (so that what it started goes too and nothing keeps its pipes open).
    pub fn start(child: &Child, what: String, group: bool) -> Watchdog {
        use rustix::process::{Pid, Signal, kill_process, kill_process_group};
        let (done, wait) = mpsc::channel::<()>();
        let pid = Pid::from_raw(child.id() as i32).expect("a child has a pid");
        let limit = process_limit();
        let thread = std::thread::spawn(move || {
            if wait.recv_timeout(limit) != Err(mpsc::RecvTimeoutError::Timeout) {
                return false;
            }
            if group {
                let _ = kill_process_group(pid, Signal::KILL);
            }
            let _ = kill_process(pid, Signal::KILL);
            true
        });
        Watchdog {
            done: Some(done),
            thread: Some(thread),
            what,
        }
    }

    /// The process ended (it was waited for): fail if that was the watchdog's doing.
    #[track_caller]
    pub fn finish(mut self) {
        drop(self.done.take());
        if let Some(thread) = self.thread.take()
            && thread.join().unwrap_or(false)
        {
            panic!(
                "`{}` did not end within {} s and was killed: it hangs",
                self.what,
                process_limit().as_secs()
            );
        }
    }
}

/// [`Command::output`], bounded by [`process_limit`]: stdin empty, stdout and stderr
/// captured, in a process group of its own.
pub trait Bounded {
    fn bounded_output(&mut self) -> Output;
}

impl Bounded for Command {
    #[track_caller]
    fn bounded_output(&mut self) -> Output {
        let what = describe(self);
        let child = self
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|err| panic!("cannot run `{what}`: {err}"));
        let watchdog = Watchdog::start(&child, what, true);
        let out = child.wait_with_output().unwrap();
        watchdog.finish();
        out
    }
}

/// Run `cmd` with `input` on stdin, stdout and stderr captured, bounded by [`process_limit`],
/// in a process group of its own. A process that exits without reading everything is within
/// its rights.
#[track_caller]
pub fn feed_and_wait(cmd: &mut Command, input: &[u8]) -> Output {
    let what = describe(cmd);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|err| panic!("cannot run `{what}`: {err}"));
    let watchdog = Watchdog::start(&child, what, true);
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    let out = child.wait_with_output().unwrap();
    watchdog.finish();
    out
}

/// `git --version` of the git on `PATH`.
pub fn git_version() -> String {
    let out = Command::new("git").arg("--version").bounded_output();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Whether the git on `PATH` can make and use reftable repositories (git 2.45 or newer). A
/// test that makes one explicitly skips, saying so, when it cannot.
pub fn git_knows_reftable() -> bool {
    static KNOWS: OnceLock<bool> = OnceLock::new();
    *KNOWS.get_or_init(|| {
        let version = git_version();
        let mut parts = version
            .trim_start_matches("git version ")
            .split('.')
            .map(|p| p.parse::<u32>().unwrap_or(0));
        (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (2, 45)
    })
}

/// Variables removed from every process: they would point git at another repository, index or
/// configuration than the test's.
const REMOVED_VARS: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_PAGER_IN_USE",
    "GIT_EDITOR",
    "EMAIL",
    "XDG_DATA_HOME",
    "XDG_DATA_DIRS",
    "MANPATH",
    "GIT_CHECKPOINT_STORE",
    // What coding agents put in their hooks' environment, and the variables that move their
    // configuration: the tests run under such an agent too.
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_CONFIG_DIR",
    "CURSOR_PROJECT_DIR",
    "CURSOR_VERSION",
    "GEMINI_PROJECT_DIR",
    "GEMINI_SESSION_ID",
    "CODEX_HOME",
    "COPILOT_HOME",
    "CLINE_DATA_DIR",
    "CLINE_MCP_SETTINGS_PATH",
];

/// The machine's `PATH` without what a user installed of git-checkpoint: a directory holding a
/// `git-checkpoint` program, or beside which man finds its man page (`../share/man`,
/// `../man`) or bash-completion its completion (`../share/bash-completion`), is replaced by a
/// directory of the tests' own holding links to everything else in it. Following the README
/// (`cargo install`, `install-docs`) puts all of these in `~/.cargo`, whose `bin` is on `PATH`,
/// or in `~/.local` or `/usr/local`, whose `bin` also holds what the tests need (git, python3,
/// tmux): a test that runs `git checkpoint`, `man` or bash's completion must find the files of
/// this build, never those, and everything else as the user has it. Every process of a test
/// gets this `PATH` (with the binary's own directory first where it runs through git), and
/// [`hermetic_manpath`] for the man pages that man would find without `PATH`.
pub fn hermetic_path() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        hermetic_path_of(&path, &Path::new(env!("CARGO_TARGET_TMPDIR")).join("path"))
    })
}

/// Whether a directory of `PATH` holds, or has beside it, something of git-checkpoint's that a
/// user installed.
fn holds_an_install(dir: &Path) -> bool {
    dir.join("git-checkpoint").exists()
        || dir.parent().is_some_and(|up| {
            [
                "share/man/man1/git-checkpoint.1",
                "man/man1/git-checkpoint.1",
                "share/bash-completion/completions/git-checkpoint",
            ]
            .iter()
            .any(|file| up.join(file).exists())
        })
}

/// [`hermetic_path`] for `path`: each directory that holds an install replaced by one under
/// `shadows` (named after it) with a link to each of its entries but git-checkpoint's. Nothing
/// is beside a shadow (no `../share/man`), and no `/etc/manpath.config` maps it.
pub fn hermetic_path_of(path: &std::ffi::OsStr, shadows: &Path) -> String {
    let kept: Vec<PathBuf> = std::env::split_paths(path)
        .map(|dir| {
            if !holds_an_install(&dir) {
                return dir;
            }
            let name: String = dir
                .to_string_lossy()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let shadow = shadows.join(format!("bin{name}"));
            fs::create_dir_all(&shadow).unwrap();
            for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
                let file = entry.file_name();
                if file.to_string_lossy().starts_with("git-checkpoint") {
                    continue;
                }
                match std::os::unix::fs::symlink(entry.path(), shadow.join(&file)) {
                    Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                        panic!(
                            "cannot link {} into {}: {e}",
                            entry.path().display(),
                            shadow.display()
                        )
                    }
                    _ => {}
                }
            }
            shadow
        })
        .collect();
    std::env::join_paths(kept)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The `MANPATH` of every process of a test (`None` without man-db's `manpath`): what man
/// would search with [`hermetic_path`] as `PATH` and no `MANPATH`, less what a user installed
/// (see [`hermetic_manpath`]).
pub fn default_manpath() -> Option<&'static str> {
    static MANPATH: OnceLock<Option<String>> = OnceLock::new();
    MANPATH
        .get_or_init(|| {
            let home = std::env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_default();
            hermetic_manpath(hermetic_path(), &home, &[])
        })
        .as_deref()
}

/// The directories man would search for a process with `path` as `PATH`, `home` as `HOME` and
/// no `MANPATH` (as man-db's `manpath` says: those beside `PATH`'s directories, and those that
/// `/etc/manpath.config` or `~/.manpath` make mandatory, such as `/usr/local/share/man`, which
/// man searches whatever `PATH` is), without those that hold a git-checkpoint man page
/// (`install-docs` puts one in `~/.local/share/man` or `/usr/local/share/man`) unless they are
/// below one of `own` (a test's own install). Set as `MANPATH`, man finds every page it found
/// before but the user's git-checkpoint. `None` when `manpath` cannot be run.
pub fn hermetic_manpath(path: &str, home: &Path, own: &[&Path]) -> Option<String> {
    let out = Command::new("manpath")
        .arg("-q")
        .env_remove("MANPATH")
        .env("PATH", path)
        .env("HOME", home)
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let holds_the_page = |dir: &Path| {
        ["man1/git-checkpoint.1", "man1/git-checkpoint.1.gz"]
            .iter()
            .any(|page| dir.join(page).exists())
    };
    let kept: Vec<&str> = text
        .trim()
        .split(':')
        .filter(|dir| !dir.is_empty())
        .filter(|dir| {
            let dir = Path::new(dir);
            !holds_the_page(dir) || own.iter().any(|o| dir.starts_with(o))
        })
        .collect();
    // An empty MANPATH would be read as none at all: name a directory without pages instead.
    Some(if kept.is_empty() {
        "/nonexistent".to_string()
    } else {
        kept.join(":")
    })
}

/// [`hermetic_path`] with `dir` first.
pub fn path_with(dir: &Path) -> String {
    format!("{}:{}", dir.display(), hermetic_path())
}

/// Say, past the test harness's capture, that a test could not run here, and count it (also in
/// `GIT_CHECKPOINT_TEST_SKIPS`'s file, see [`skip`]): a skipped test must never look like a
/// passing one.
pub fn skipped(test: &str, reason: &str) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static SKIPPED: AtomicUsize = AtomicUsize::new(0);
    let n = SKIPPED.fetch_add(1, Ordering::SeqCst) + 1;
    // Written to the process's stderr directly: `eprintln!` would be captured.
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED ({n} in this run): {test}: {reason}"
    );
    if let Some(file) = std::env::var_os("GIT_CHECKPOINT_TEST_SKIPS") {
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .unwrap();
        writeln!(file, "{test}: {reason}").unwrap();
    }
}

/// `program args…` in `dir`, in the repository's environment with the tool's directory first
/// on `PATH` (so `git checkpoint` runs it), `input` on stdin.
pub fn run_with_stdin(repo: &Repo, program: &str, args: &[&str], dir: &Path, input: &[u8]) -> Run {
    let bin_dir = Path::new(bin()).parent().unwrap();
    let path = path_with(bin_dir);
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(dir);
    repo.env(&mut cmd);
    cmd.env("PATH", path);
    feed_and_wait(&mut cmd, input).into()
}

/// `program args…` in `dir`, in the repository's environment plus `envs`, with the tool's
/// directory first on `PATH`, nothing on stdin.
pub fn run_with_env(
    repo: &Repo,
    program: &str,
    args: &[&str],
    dir: &Path,
    envs: &[(&str, &str)],
) -> Run {
    let bin_dir = Path::new(bin()).parent().unwrap();
    let path = path_with(bin_dir);
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(dir);
    repo.env(&mut cmd);
    cmd.env("PATH", path).envs(envs.iter().copied());
    cmd.bounded_output().into()
}

/// A hook's command run the way agents run it: `sh -c <command>`, the hook's JSON on stdin.
pub fn run_hook_command(repo: &Repo, dir: &Path, command: &str, input: &str) -> Run {
    run_with_stdin(repo, "sh", &["-c", command], dir, input.as_bytes())
}

/// The identity variables, removed by [`Repo::cp_no_identity`].
pub const IDENTITY_VARS: &[&str] = &[
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
];

/// What a run of the tool printed, and how it exited.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Self {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Run {
    /// Panic, showing both streams, unless the run exited 0.
    #[track_caller]
    pub fn ok(self) -> Run {
        assert_eq!(
            self.code, 0,
            "expected success\nstdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        self.assert_no_panic();
        self
    }

    /// Panic unless the run failed with `code`, with an `error:` line first on stderr.
    #[track_caller]
    pub fn fails_with(self, code: i32) -> Run {
        assert_eq!(
            self.code, code,
            "expected exit {code}\nstdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        self.assert_no_panic();
        assert!(
            self.stderr.starts_with("error:"),
            "stderr starts with `error:`: {:?}",
            self.stderr
        );
        self
    }

    /// An error is one `error:` line, then only `hint:` lines (clap's usage errors aside).
    #[track_caller]
    pub fn assert_one_error_line(&self) {
        let mut lines = self.stderr.lines();
        let first = lines.next().unwrap_or("");
        assert!(first.starts_with("error: "), "{:?}", self.stderr);
        for line in lines {
            assert!(
                line.starts_with("hint:"),
                "only hints after the error line: {:?}",
                self.stderr
            );
        }
    }

    /// Never a panic or a backtrace.
    #[track_caller]
    pub fn assert_no_panic(&self) {
        assert_ne!(self.code, 101, "exit 101 is a panic: {}", self.stderr);
        assert!(
            !self.stderr.contains("panicked") && !self.stderr.contains("RUST_BACKTRACE"),
            "a panic: {}",
            self.stderr
        );
    }

    /// The id printed by `save`: stdout must be exactly the id and a newline.
    #[track_caller]
    pub fn id(&self) -> String {
        let id = self.stdout.strip_suffix('\n').unwrap_or_else(|| {
            panic!("stdout ends with a newline: {:?}", self.stdout);
        });
        assert!(is_id(id), "stdout is exactly one id: {:?}", self.stdout);
        id.to_string()
    }
}

/// `^\d{8}-\d{6}-\d{3}[0-9a-f]{3}$`
pub fn is_id(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 22
        && b[..8].iter().all(u8::is_ascii_digit)
        && b[8] == b'-'
        && b[9..15].iter().all(u8::is_ascii_digit)
        && b[15] == b'-'
        && b[16..19].iter().all(u8::is_ascii_digit)
        && b[19..]
            .iter()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
}

/// Seconds since the epoch (UTC) that an id's `YYYYMMDD-HHMMSS` part names.
pub fn id_epoch_seconds(id: &str) -> i64 {
    assert!(is_id(id), "{id:?}");
    let num = |r: std::ops::Range<usize>| id[r].parse::<i64>().unwrap();
    let days = days_from_civil(num(0..4), num(4..6), num(6..8));
    days * 86_400 + num(9..11) * 3600 + num(11..13) * 60 + num(13..15)
}

/// Now, in seconds since the epoch.
pub fn now_epoch_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Whether the tests run as root (who can read a file whatever its mode).
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n")
        .unwrap_or(false)
}

/// A parsed JSON document: every node by its dotted path (`head.ref`, `skipped.0.path`; the
/// whole document is `""`), rendered as a string: strings as they are, everything else as
/// python's `json.dumps` writes it (`null`, `true`, `[1, 2]`, `{"a": 1}`).
///
/// Parsed by python3 (there is no JSON crate among the dev-dependencies), once per document:
/// starting python is the slow part.
#[derive(Debug, Clone)]
pub struct Json(std::collections::BTreeMap<String, String>);

impl Json {
    #[track_caller]
    pub fn parse(json: &str) -> Json {
        let script = "\
def walk(path, v):
    out.append((path, v if isinstance(v, str) else json.dumps(v)))
    items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else []
    for k, x in items:
        walk(f'{path}.{k}' if path else str(k), x)
out = []
walk('', json.loads(doc))
sys.stdout.write(''.join(f'{p}\\0{r}\\0' for p, r in out))";
        let flat = python_json(json, script);
        let mut parts = flat.split('\0');
        let mut map = std::collections::BTreeMap::new();
        while let (Some(path), Some(value)) = (parts.next(), parts.next()) {
            map.insert(path.to_string(), value.to_string());
        }
        Json(map)
    }

    /// The node at `path`; panics when there is none.
    #[track_caller]
    pub fn get(&self, path: &str) -> String {
        match self.0.get(path) {
            Some(v) => v.clone(),
            None => panic!(
                "no `{path}` in {}",
                self.0.get("").map_or("?", |s| s.as_str())
            ),
        }
    }

    /// The keys (or indexes) of the object (or array) at `path`, sorted as strings.
    pub fn keys(&self, path: &str) -> Vec<String> {
        let prefix = if path.is_empty() {
            String::new()
        } else {
            format!("{path}.")
        };
        self.0
            .keys()
            .filter(|k| !k.is_empty())
            .filter_map(|k| k.strip_prefix(prefix.as_str()))
            .filter(|rest| !rest.contains('.'))
            .map(str::to_string)
            .collect()
    }
}

/// One field of a JSON document by a dotted path; see [`Json`].
#[track_caller]
pub fn json_get(json: &str, path: &str) -> String {
    Json::parse(json).get(path)
}

/// Whether each element of the JSON array `list`, without its "commit", equals the matching
/// note (one python run for all).
pub fn notes_plus_commit(list: &str, notes: &[String]) -> bool {
    let doc = format!("{{\"list\":{list},\"notes\":[{}]}}", notes.join(","));
    let expr = "len(v['list']) == len(v['notes']) and all({k: x for k, x in e.items() if k != 'commit'} == n for e, n in zip(v['list'], v['notes']))";
    json_eval(&doc, expr) == "true"
}

/// Evaluate a python expression over the parsed document `v`; prints it like [`json_get`].
pub fn json_eval(json: &str, expr: &str) -> String {
    let script = format!(
        "v = json.loads(doc)\nr = {expr}\nprint(r if isinstance(r, str) else json.dumps(r))"
    );
    python_json(json, &script)
}

#[track_caller]
fn python_json(json: &str, body: &str) -> String {
    let script = format!("import json, sys\ndoc = sys.stdin.read()\n{body}\n");
    let out = feed_and_wait(
        Command::new("python3").arg("-c").arg(script),
        json.as_bytes(),
    );
    assert!(
        out.status.success(),
        "python on JSON {json:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim_end().to_string()
}

/// A repository in a temporary directory, with `HOME` and the global config inside it.
pub struct Repo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    /// A plain directory (no `git init`): git runs with `--git-dir=<its private store>` once
    /// that exists, so the helpers and the oracle work the same.
    plain: bool,
    /// A directory put first on every process's `PATH` (a `watchman` of the test's own).
    path_first: std::sync::Mutex<Option<PathBuf>>,
}

impl Repo {
    /// `git init -q -b main` in a fresh directory.
    pub fn new() -> Repo {
        Repo::init(&[])
    }

    /// `git init` with extra arguments (`--bare`, `--ref-format=reftable`, …).
    pub fn init(args: &[&str]) -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        fs::create_dir_all(&home).unwrap();
        fs::write(home.join(".gitconfig"), "").unwrap();
        let root = tmp.path().join("repo");
        fs::create_dir_all(&root).unwrap();
        let repo = Repo {
            _tmp: tmp,
            root,
            home,
            plain: false,
            path_first: Default::default(),
        };
        let mut init = vec!["init", "-q", "-b", "main"];
        init.extend_from_slice(args);
        repo.git(&init);
        if !args
            .iter()
            .any(|a| a.starts_with("--ref-format") || a.starts_with("--object-format"))
        {
            repo.assert_default_formats();
        }
        repo
    }

    /// Fail every test when git ignored `GIT_DEFAULT_HASH` or `GIT_DEFAULT_REF_FORMAT` (a git
    /// older than 2.45 does not know the latter): a combination of formats that is not the
    /// one asked for must never pass as if it had been tested.
    fn assert_default_formats(&self) {
        static MISMATCH: OnceLock<Option<String>> = OnceLock::new();
        let mismatch = MISMATCH.get_or_init(|| {
            let asked = |var: &str| std::env::var(var).ok().filter(|v| !v.is_empty());
            let got = [
                ("GIT_DEFAULT_HASH", self.object_format()),
                (
                    "GIT_DEFAULT_REF_FORMAT",
                    if self.is_reftable() {
                        "reftable"
                    } else {
                        "files"
                    }
                    .to_string(),
                ),
            ];
            got.into_iter().find_map(|(var, got)| {
                let asked = asked(var)?;
                (asked != got).then(|| {
                    format!(
                        "{var}={asked}, but `{}` made a {got} repository",
                        git_version()
                    )
                })
            })
        });
        if let Some(mismatch) = mismatch {
            panic!("{mismatch}");
        }
    }

    /// A plain directory `proj` (not a git repository), with `HOME` beside it: its private
    /// store is made under `HOME/.local/share/git-checkpoint/stores` by the first save.
    pub fn plain() -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        fs::create_dir_all(&home).unwrap();
        fs::write(home.join(".gitconfig"), "").unwrap();
        let root = tmp.path().join("proj");
        fs::create_dir_all(&root).unwrap();
        Repo {
            _tmp: tmp,
            root,
            home,
            plain: true,
            path_first: Default::default(),
        }
    }

    /// Whether this is a plain directory.
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    /// Where private stores are made.
    pub fn stores_root(&self) -> PathBuf {
        self.home.join(".local/share/git-checkpoint/stores")
    }

    /// The private stores made so far, sorted.
    pub fn stores(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = fs::read_dir(self.stores_root())
            .map(|entries| entries.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        out.sort();
        out
    }

    /// The private store of a plain directory (there must be exactly one).
    #[track_caller]
    pub fn store(&self) -> PathBuf {
        let stores = self.stores();
        assert_eq!(stores.len(), 1, "exactly one store: {stores:?}");
        stores[0].clone()
    }

    /// The git directory: `.git`, or a plain directory's store.
    pub fn git_dir(&self) -> PathBuf {
        if self.plain {
            self.store()
        } else {
            self.root.join(".git")
        }
    }

    /// A repository with one commit holding `files`.
    pub fn with_commit(files: &[(&str, &str)]) -> Repo {
        let repo = Repo::new();
        for (path, content) in files {
            repo.write(path, content);
        }
        repo.git(&["add", "-A"]);
        repo.git(&["commit", "-q", "--allow-empty", "-m", "base"]);
        repo
    }

    /// The repository's object format: `sha1` or `sha256`.
    pub fn object_format(&self) -> String {
        self.git(&["rev-parse", "--show-object-format"])
    }

    /// Whether the repository stores its refs in the reftable format.
    pub fn is_reftable(&self) -> bool {
        self.git(&["rev-parse", "--show-ref-format"]) == "reftable"
    }

    /// The empty tree's id in this repository's object format.
    pub fn empty_tree(&self) -> String {
        self.git(&["hash-object", "-t", "tree", "/dev/null"])
    }

    /// What the ref `name` points to, as git lists it (empty when it does not exist): with
    /// either ref format, whether a ref was left as it was.
    pub fn ref_value(&self, name: &str) -> String {
        self.git(&["for-each-ref", "--format=%(objectname) %(symref)", name])
    }

    /// The work tree's top directory.
    /// Put `dir` first on the `PATH` of every process this repository's helpers run.
    pub fn put_first_on_path(&self, dir: &Path) {
        *self.path_first.lock().unwrap() = Some(dir.to_path_buf());
    }

    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The temporary directory holding the repository (for siblings: worktrees, submodules).
    pub fn scratch(&self) -> &Path {
        self.root.parent().unwrap()
    }

    /// Apply the hermetic environment to a command.
    pub fn env(&self, cmd: &mut Command) {
        for var in REMOVED_VARS {
            cmd.env_remove(var);
        }
        let path = match &*self.path_first.lock().unwrap() {
            Some(dir) => path_with(dir),
            None => hermetic_path().to_string(),
        };
        if let Some(manpath) = default_manpath() {
            cmd.env("MANPATH", manpath);
        }
        cmd.env("PATH", path)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join(".gitconfig"))
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_AUTHOR_NAME", "A U Thor")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "C O Mitter")
            .env("GIT_COMMITTER_EMAIL", "committer@example.com")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .env("TZ", "UTC")
            .env("LC_ALL", "C")
            .env("NO_COLOR", "1")
            .env("TERM", "dumb");
    }

    fn git_command(&self, dir: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new("git");
        if self.plain
            && let [store] = self.stores().as_slice()
        {
            cmd.arg(format!("--git-dir={}", store.display()));
        }
        cmd.args(args).current_dir(dir);
        self.env(&mut cmd);
        cmd
    }

    /// Run git in the repository; panic with its stderr on failure; return trimmed stdout.
    #[track_caller]
    pub fn git(&self, args: &[&str]) -> String {
        self.git_in_dir(&self.root, args)
    }

    /// Run git in `dir`; panic on failure; return trimmed stdout.
    #[track_caller]
    pub fn git_in_dir(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.git_command(dir, args).bounded_output();
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// Run git, returning whether it succeeded.
    pub fn git_ok(&self, args: &[&str]) -> bool {
        self.git_command(&self.root, args)
            .bounded_output()
            .status
            .success()
    }

    /// Run git with `input` on stdin; return trimmed stdout.
    #[track_caller]
    pub fn git_stdin(&self, args: &[&str], input: &[u8]) -> String {
        let out = feed_and_wait(&mut self.git_command(&self.root, args), input);
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// Run git with extra environment variables.
    #[track_caller]
    pub fn git_env(&self, envs: &[(&str, &str)], args: &[&str]) -> String {
        let mut cmd = self.git_command(&self.root, args);
        cmd.envs(envs.iter().copied());
        let out = cmd.bounded_output();
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// `git fsck --strict` must find nothing wrong.
    #[track_caller]
    pub fn fsck(&self) {
        let out = self
            .git_command(&self.root, &["fsck", "--strict", "--no-progress"])
            .bounded_output();
        assert!(
            out.status.success(),
            "git fsck --strict: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The tool, in the repository's top directory.
    pub fn cp(&self, args: &[&str]) -> Run {
        self.cp_in(".", args)
    }

    /// The tool, in a subdirectory.
    pub fn cp_in(&self, subdir: &str, args: &[&str]) -> Run {
        self.cp_in_dir(&self.root.join(subdir), args)
    }

    /// The tool, in any directory.
    pub fn cp_in_dir(&self, dir: &Path, args: &[&str]) -> Run {
        let mut cmd = Command::new(bin());
        cmd.args(args).current_dir(dir);
        self.env(&mut cmd);
        cmd.bounded_output().into()
    }

    /// The tool, with environment changes.
    pub fn cp_with(&self, setup: impl FnOnce(&mut Command), args: &[&str]) -> Run {
        let mut cmd = Command::new(bin());
        cmd.args(args).current_dir(&self.root);
        self.env(&mut cmd);
        setup(&mut cmd);
        cmd.bounded_output().into()
    }

    /// The tool with `input` on stdin, in `dir`, with environment changes.
    pub fn cp_stdin(
        &self,
        dir: &Path,
        setup: impl FnOnce(&mut Command),
        args: &[&str],
        input: &[u8],
    ) -> Run {
        let mut cmd = Command::new(bin());
        cmd.args(args).current_dir(dir);
        self.env(&mut cmd);
        setup(&mut cmd);
        feed_and_wait(&mut cmd, input).into()
    }

    /// The `HOME` of the tool and git in this repository's environment.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// The tool without any identity: no `GIT_AUTHOR_*`/`GIT_COMMITTER_*`, no `EMAIL`, and
    /// (since the global config is empty and the system config is off) no `user.name`.
    pub fn cp_no_identity(&self, args: &[&str]) -> Run {
        assert!(
            !self.git_ok(&["config", "user.name"]) && !self.git_ok(&["config", "user.email"]),
            "no identity is configured"
        );
        self.cp_with(
            |cmd| {
                for var in IDENTITY_VARS {
                    cmd.env_remove(var);
                }
            },
            args,
        )
    }

    /// The tool started by a shell that first runs `prefix` (e.g. `ulimit -f 64;`).
    pub fn cp_with_shell_prefix(&self, prefix: &str, args: &[&str]) -> Run {
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        let script = format!("{prefix} exec '{}' {}", bin(), quoted.join(" "));
        let mut cmd = Command::new("bash");
        cmd.arg("-c").arg(script).current_dir(&self.root);
        self.env(&mut cmd);
        cmd.bounded_output().into()
    }

    /// The tool with `args`, fed `input`, as a user for whom the file `unreadable` cannot be
    /// read: as is after a `chmod 000`, but as an unprivileged user when the tests run as root
    /// (root reads any file), the scratch directory opened to that user. `None` when that is
    /// impossible (skip, said).
    pub fn run_unprivileged(&self, args: &[&str], unreadable: &Path, input: &[u8]) -> Option<Run> {
        use std::os::unix::fs::PermissionsExt;
        let lock = || fs::set_permissions(unreadable, fs::Permissions::from_mode(0o000)).unwrap();
        lock();
        if !is_root() {
            return Some(self.cp_stdin(&self.root, |_| {}, args, input));
        }
        if Command::new("setpriv").arg("--help").output().is_err() {
            skip("running as root without setpriv");
            return None;
        }
        // The other user runs git on this repository too when its refs are in the reftable
        // format: trust it, as git requires of a repository someone else owns.
        self.git(&["config", "--global", "--add", "safe.directory", "*"]);
        // Let the unprivileged user write objects and refs, then lock the file again.
        let status = Command::new("chmod")
            .args(["-R", "a+rwX", self.scratch().to_str().unwrap()])
            .status()
            .unwrap();
        assert!(status.success());
        lock();
        let mut cmd = Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin()])
            .args(args)
            .current_dir(&self.root);
        self.env(&mut cmd);
        Some(feed_and_wait(&mut cmd, input).into())
    }

    /// The tool run through a wrapper command (e.g. `setpriv …`).
    pub fn cp_wrapped(&self, wrapper: &[&str], args: &[&str]) -> Run {
        let mut cmd = Command::new(wrapper[0]);
        cmd.args(&wrapper[1..])
            .arg(bin())
            .args(args)
            .current_dir(&self.root);
        self.env(&mut cmd);
        cmd.bounded_output().into()
    }

    /// Save and check the basics every successful save must meet: exit 0, stdout exactly the
    /// id and a newline, and `refs/checkpoints/<id>` exists. Returns the id.
    #[track_caller]
    pub fn save(&self, args: &[&str]) -> String {
        let mut full = vec!["save"];
        full.extend_from_slice(args);
        let id = self.cp(&full).ok().id();
        assert!(
            self.git_ok(&[
                "rev-parse",
                "-q",
                "--verify",
                &format!("refs/checkpoints/{id}")
            ]),
            "refs/checkpoints/{id} exists"
        );
        id
    }

    /// `git checkpoint …` through git itself, with the binary's directory first on PATH.
    pub fn git_checkpoint(&self, args: &[&str]) -> Run {
        self.git_checkpoint_in_dir(&self.root, args)
    }

    /// `git checkpoint …` in `dir`.
    pub fn git_checkpoint_in_dir(&self, dir: &Path, args: &[&str]) -> Run {
        let bin_dir = Path::new(bin()).parent().unwrap();
        let path = path_with(bin_dir);
        let mut cmd = Command::new("git");
        cmd.arg("checkpoint").args(args).current_dir(dir);
        self.env(&mut cmd);
        cmd.env("PATH", path);
        cmd.bounded_output().into()
    }

    /// Write a file (creating its directories).
    pub fn write(&self, rel: &str, content: &str) {
        self.write_bytes(rel, content.as_bytes());
    }

    /// Write a file's bytes (creating its directories).
    pub fn write_bytes(&self, rel: &str, content: &[u8]) {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(path, content).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.root.join(rel)).unwrap()
    }

    /// Remove a file, a symlink or a whole directory; nothing if it does not exist.
    pub fn remove(&self, rel: &str) {
        let path = self.root.join(rel);
        match fs::symlink_metadata(&path) {
            Ok(md) if md.is_dir() => fs::remove_dir_all(path).unwrap(),
            Ok(_) => fs::remove_file(path).unwrap(),
            Err(_) => {}
        }
    }

    /// Set the mode to 0755 or 0644.
    pub fn chmod_x(&self, rel: &str, executable: bool) {
        self.chmod(rel, if executable { 0o755 } else { 0o644 });
    }

    /// Set any mode.
    pub fn chmod(&self, rel: &str, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(self.root.join(rel), fs::Permissions::from_mode(mode)).unwrap();
    }

    /// A symlink at `rel` pointing at `target`.
    pub fn symlink(&self, target: &str, rel: &str) {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        std::os::unix::fs::symlink(target, path).unwrap();
    }

    /// The git oracle: what `git add -A && git write-tree` gives on a copy of the index.
    pub fn oracle_tree(&self) -> String {
        self.oracle_tree_in(&self.root)
    }

    /// The oracle, with `paths` (relative to the top) moved out of the way while it runs: what
    /// the tool must give when it leaves those out.
    pub fn oracle_tree_without(&self, paths: &[&str]) -> String {
        let aside = self.scratch().join("oracle-aside");
        fs::create_dir_all(&aside).unwrap();
        let moved: Vec<(PathBuf, PathBuf)> = paths
            .iter()
            .enumerate()
            .map(|(i, p)| (self.root.join(p), aside.join(i.to_string())))
            .collect();
        for (from, to) in &moved {
            fs::rename(from, to).unwrap();
        }
        let tree = self.oracle_tree();
        for (from, to) in &moved {
            fs::rename(to, from).unwrap();
        }
        tree
    }

    /// The oracle, in another work tree (a linked worktree, a subdirectory).
    pub fn oracle_tree_in(&self, dir: &Path) -> String {
        let index = PathBuf::from(self.git_in_dir(
            dir,
            &["rev-parse", "--path-format=absolute", "--git-path", "index"],
        ));
        let copy = self
            .scratch()
            .join(format!("oracle-index-{}", std::process::id()));
        let _ = fs::remove_file(&copy);
        if index.exists() {
            // Keep the index's mtime: git's racy-git check compares file times with it, and a
            // fresh mtime would make the oracle miss same-size edits made in the same tick.
            fs::copy(&index, &copy).unwrap();
            let mtime = fs::metadata(&index).unwrap().modified().unwrap();
            fs::File::options()
                .write(true)
                .open(&copy)
                .unwrap()
                .set_modified(mtime)
                .unwrap();
        }
        let copy_str = copy.to_str().unwrap();
        let mut add = self.git_command(dir, &["add", "-A"]);
        add.env("GIT_INDEX_FILE", copy_str);
        let out = add.bounded_output();
        assert!(
            out.status.success(),
            "oracle add: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut write = self.git_command(dir, &["write-tree"]);
        write.env("GIT_INDEX_FILE", copy_str);
        let out = write.bounded_output();
        assert!(
            out.status.success(),
            "oracle write-tree: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let _ = fs::remove_file(&copy);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// `git write-tree` of the real index, run on a copy so the index is not touched.
    pub fn index_tree(&self) -> String {
        let index = PathBuf::from(self.git(&[
            "rev-parse",
            "--path-format=absolute",
            "--git-path",
            "index",
        ]));
        let copy = self.scratch().join("index-tree-copy");
        fs::copy(index, &copy).unwrap();
        let tree = self.git_env(
            &[("GIT_INDEX_FILE", copy.to_str().unwrap())],
            &["write-tree"],
        );
        let _ = fs::remove_file(&copy);
        tree
    }

    /// The tree of checkpoint `id`.
    pub fn checkpoint_tree(&self, id: &str) -> String {
        self.git(&["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")])
    }

    /// Replace the note of `commit` in `refs/notes/checkpoints` by `note`, with git.
    pub fn set_note(&self, commit: &str, note: &str) {
        self.git(&[
            "notes",
            "--ref=checkpoints",
            "add",
            "-f",
            "-m",
            note,
            commit,
        ]);
    }

    /// The commit of checkpoint `id`.
    pub fn checkpoint_commit(&self, id: &str) -> String {
        self.git(&["rev-parse", &format!("refs/checkpoints/{id}")])
    }

    /// The parents of checkpoint `id`'s commit, in order.
    pub fn parents(&self, id: &str) -> Vec<String> {
        self.git(&[
            "log",
            "-1",
            "--format=%P",
            &format!("refs/checkpoints/{id}"),
        ])
        .split_whitespace()
        .map(str::to_string)
        .collect()
    }

    /// The full message of checkpoint `id`'s commit.
    pub fn commit_message(&self, id: &str) -> String {
        self.git(&[
            "log",
            "-1",
            "--format=%B",
            &format!("refs/checkpoints/{id}"),
        ])
    }

    /// The trailers of checkpoint `id`'s commit, as `git interpret-trailers --parse` reads them.
    pub fn trailers(&self, id: &str) -> String {
        let message = self.commit_message(id);
        self.git_stdin(&["interpret-trailers", "--parse"], message.as_bytes())
    }

    /// The note of checkpoint `id` (its JSON metadata).
    #[track_caller]
    pub fn note(&self, id: &str) -> String {
        self.git(&[
            "notes",
            "--ref=checkpoints",
            "show",
            &format!("refs/checkpoints/{id}"),
        ])
    }

    /// The note of checkpoint `id`, parsed.
    #[track_caller]
    pub fn note_json(&self, id: &str) -> Json {
        Json::parse(&self.note(id))
    }

    /// Paths in checkpoint `id`'s tree.
    pub fn checkpoint_files(&self, id: &str) -> Vec<String> {
        self.git(&[
            "ls-tree",
            "-r",
            "--name-only",
            "-z",
            &format!("refs/checkpoints/{id}"),
        ])
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
    }

    /// The ids under `refs/checkpoints/`, sorted.
    pub fn checkpoint_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .git(&["for-each-ref", "--format=%(refname)", "refs/checkpoints/"])
            .lines()
            .map(|l| l.trim_start_matches("refs/checkpoints/").to_string())
            .collect();
        ids.sort();
        ids
    }

    /// Everything of the user's state that the tool must never change: the index bytes, HEAD,
    /// the current branch, branches and the stash.
    pub fn fingerprint(&self) -> String {
        self.fingerprint_in(&self.root)
    }

    /// The fingerprint as seen from another work tree (a linked worktree).
    pub fn fingerprint_in(&self, dir: &Path) -> String {
        let index = PathBuf::from(self.git_in_dir(
            dir,
            &["rev-parse", "--path-format=absolute", "--git-path", "index"],
        ));
        let index_bytes = fs::read(index).unwrap_or_default();
        let quiet = |args: &[&str]| {
            String::from_utf8_lossy(&self.git_command(dir, args).bounded_output().stdout)
                .into_owned()
        };
        format!(
            "index: {:?}\nHEAD: {}\nsymbolic-ref: {}\nrefs:\n{}\nstash:\n{}",
            index_bytes,
            quiet(&["rev-parse", "-q", "--verify", "HEAD"]).trim(),
            quiet(&["symbolic-ref", "-q", "HEAD"]).trim(),
            self.git_in_dir(dir, &["for-each-ref", "refs/heads", "refs/stash"]),
            self.git_in_dir(dir, &["stash", "list"]),
        )
    }

    /// Every file name under `.git/objects` (loose objects and packs).
    pub fn object_files(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk_files(
            &self.git_dir().join("objects"),
            &self.git_dir().join("objects"),
            &mut out,
        );
        out.sort();
        out
    }

    /// Every file name under `.git`, relative to it.
    pub fn git_dir_manifest(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk_files(&self.git_dir(), &self.git_dir(), &mut out);
        out.sort();
        out
    }

    /// See [`json_get`] (kept as an associated function for the other test modules).
    pub fn json_get(json: &str, path: &str) -> String {
        json_get(json, path)
    }
}

/// Every file, directory and symlink below the work tree `root` (`.git` left out, symlinks not
/// followed), with its path relative to `root` and its metadata, sorted by path.
pub fn worktree_entries(root: &Path) -> Vec<(String, PathBuf, fs::Metadata)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf, fs::Metadata)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel == ".git" {
                continue;
            }
            let md = fs::symlink_metadata(&path).unwrap();
            if md.is_dir() {
                walk(root, &path, out);
            }
            out.push((rel, path, md));
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn walk_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk_files(root, &path, out);
        } else {
            out.push(
                path.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
}
