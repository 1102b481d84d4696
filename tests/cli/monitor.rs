//! The file-system monitor (`core.fsmonitor`): saves with Watchman really running, through git's
//! own `fsmonitor-watchman` hook, checked against the save oracle (`git add -A` +
//! `write-tree`) after every kind of change; and a scripted hook, to prove where a save trusts
//! a monitor's answer and where it falls back to looking at everything.
//!
//! Each Watchman test runs its own server: Debian's Watchman 4.9 ignores `WATCHMAN_SOCK`, so a
//! `watchman` wrapper first on the test's `PATH` passes `--sockname`, `--statefile`,
//! `--logfile` and `--pidfile` in the test's own directory. Without Watchman (or git's sample
//! hook, or Perl) these tests skip, visibly and counted; with
//! `GIT_CHECKPOINT_REQUIRE_WATCHMAN=1` (CI sets it) that fails them instead.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{Repo, hermetic_path, skip};

/// A Watchman server of one test's own, shut down when dropped.
struct Watchman {
    state: tempfile::TempDir,
    wrapper: PathBuf,
}

impl Watchman {
    /// Start watching `repo` through git's sample hook, as git's documentation sets it up
    /// (`core.fsmonitor`, `core.untrackedCache`); `None` (the test skips) when this machine
    /// cannot.
    fn start(repo: &Repo) -> Option<Watchman> {
        let Some(real) = find_program("watchman").filter(|_| find_program("perl").is_some()) else {
            unavailable("watchman (or perl) is not installed (apt-get install watchman)");
            return None;
        };
        let Some(sample) = sample_hook(repo) else {
            unavailable("git's sample hook fsmonitor-watchman.sample is not installed");
            return None;
        };
        // Short: a socket's path must fit in 108 bytes.
        let state = tempfile::Builder::new()
            .prefix("wm")
            .tempdir_in("/tmp")
            .unwrap();
        let bin = state.path().join("bin");
        fs::create_dir(&bin).unwrap();
        let s = state.path().display();
        let wrapper = bin.join("watchman");
        fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\nexec '{}' --sockname='{s}/sock' --statefile='{s}/state' \
                 --logfile='{s}/log' --pidfile='{s}/pid' \"$@\"\n",
                real.display()
            ),
        )
        .unwrap();
        fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
        repo.put_first_on_path(&bin);
        let hook = repo.git_dir().join("hooks").join("query-watchman");
        fs::create_dir_all(hook.parent().unwrap()).unwrap();
        fs::copy(&sample, &hook).unwrap();
        fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
        repo.git(&["config", "core.fsmonitor", ".git/hooks/query-watchman"]);
        repo.git(&["config", "core.untrackedCache", "true"]);
        Some(Watchman { state, wrapper })
    }

    /// Stop the server, as a crash or a reboot would (the hook starts it again).
    fn kill(&self) {
        let _ = Command::new(&self.wrapper).arg("shutdown-server").output();
    }

    /// Whether the server is running (its log says it was started at all).
    fn ran(&self) -> bool {
        self.state.path().join("log").exists()
    }
}

impl Drop for Watchman {
    fn drop(&mut self) {
        self.kill();
    }
}

fn unavailable(reason: &str) {
    if std::env::var_os("GIT_CHECKPOINT_REQUIRE_WATCHMAN").is_some() {
        panic!("GIT_CHECKPOINT_REQUIRE_WATCHMAN is set, but {reason}");
    }
    skip(reason);
}

fn find_program(name: &str) -> Option<PathBuf> {
    std::env::split_paths(hermetic_path())
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// git's sample hook: `git init` copies it from the templates into `.git/hooks`.
fn sample_hook(repo: &Repo) -> Option<PathBuf> {
    let copied = repo
        .git_dir()
        .join("hooks")
        .join("fsmonitor-watchman.sample");
    if copied.is_file() {
        return Some(copied);
    }
    let exec_path = PathBuf::from(repo.git(&["--exec-path"]));
    let templates = exec_path
        .parent()?
        .parent()?
        .join("share/git-core/templates/hooks");
    Some(templates.join("fsmonitor-watchman.sample")).filter(|p| p.is_file())
}

/// The oracle, with git looking at every file (`core.fsmonitor` off while it runs): what a
/// save must give whatever a monitor says.
fn oracle(repo: &Repo) -> String {
    let hook = repo.git(&["config", "core.fsmonitor"]);
    repo.git(&["config", "core.fsmonitor", "false"]);
    let tree = repo.oracle_tree();
    repo.git(&["config", "core.fsmonitor", &hook]);
    tree
}

/// Save, and check the checkpoint's tree against the oracle; return its id.
#[track_caller]
fn save_matches_oracle(repo: &Repo, step: &str) -> String {
    let id = repo.save(&["--allow-empty", "-m", step]);
    let saved = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")]);
    assert_eq!(saved, oracle(repo), "after: {step}");
    id
}

/// Wait until the next whole second of the clock: a change made now and the save after it
/// fall within one second, where stamps alone cannot tell them apart.
fn early_in_a_second() {
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
    };
    while now().subsec_millis() > 200 {
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn write(root: &Path, path: &str, content: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

fn a_project() -> Repo {
    let mut files: Vec<(String, String)> = Vec::new();
    for dir in ["src/a", "src/b", "src/b/deep", "docs"] {
        for i in 0..6 {
            files.push((format!("{dir}/f{i}.txt"), format!("{dir} {i}\n")));
        }
    }
    files.push(("bin/run.sh".into(), "#!/bin/sh\necho run\n".into()));
    files.push((".gitignore".into(), "build/\n".into()));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let repo = Repo::with_commit(&refs);
    fs::set_permissions(
        repo.path().join("bin/run.sh"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "executable"]);
    for i in 0..5 {
        write(
            repo.path(),
            &format!("notes/n{i}.md"),
            &format!("note {i}\n"),
        );
        write(
            repo.path(),
            &format!("notes/sub/s{i}.md"),
            &format!("sub {i}\n"),
        );
        write(
            repo.path(),
            &format!("drafts/d{i}.md"),
            &format!("draft {i}\n"),
        );
    }
    write(repo.path(), "build/out.o", "binary\n");
    repo
}

#[test]
fn saves_with_watchman_running_match_git_add_through_every_kind_of_change() {
    let repo = a_project();
    let Some(watchman) = Watchman::start(&repo) else {
        return;
    };
    let root = repo.path().to_path_buf();
    save_matches_oracle(&repo, "the first save: no token yet");
    assert!(watchman.ran(), "the hook started the test's own Watchman");
    save_matches_oracle(&repo, "nothing changed");

    write(&root, "src/a/f1.txt", "src/a 9\n");
    save_matches_oracle(&repo, "a tracked file edited, same size");
    write(&root, "notes/new.md", "new\n");
    write(&root, "src/a/new.txt", "new tracked-dir file\n");
    write(&root, "fresh/deep/er/x.md", "a new directory\n");
    save_matches_oracle(&repo, "files created");
    fs::remove_file(root.join("src/b/f2.txt")).unwrap();
    fs::remove_file(root.join("notes/n1.md")).unwrap();
    save_matches_oracle(&repo, "files deleted");
    fs::rename(root.join("src/a/f3.txt"), root.join("src/a/g3.txt")).unwrap();
    fs::rename(root.join("notes/n2.md"), root.join("drafts/n2.md")).unwrap();
    save_matches_oracle(&repo, "files renamed");
    fs::rename(root.join("src/b"), root.join("src/c")).unwrap();
    fs::rename(root.join("notes/sub"), root.join("notes/moved")).unwrap();
    save_matches_oracle(&repo, "directories renamed");

    for round in 0..3 {
        early_in_a_second();
        write(&root, "src/a/f4.txt", &format!("racy {round}a\n"));
        save_matches_oracle(&repo, "a file changed in the second of the save");
        write(&root, "src/a/f4.txt", &format!("racy {round}b\n"));
        write(&root, "notes/n3.md", &format!("racy {round}b\n"));
        save_matches_oracle(&repo, "changed again within that second, same size");
    }

    fs::remove_dir_all(root.join("notes/moved")).unwrap();
    write(&root, "notes/moved", "now a file\n");
    fs::remove_dir_all(root.join("src/c/deep")).unwrap();
    write(&root, "src/c/deep", "a tracked directory, now a file\n");
    save_matches_oracle(&repo, "directories replaced by files");
    fs::remove_file(root.join("docs/f0.txt")).unwrap();
    write(&root, "docs/f0.txt/inner.txt", "a file, now a directory\n");
    save_matches_oracle(&repo, "a file replaced by a directory");

    write(&root, ".gitignore", "build/\ndrafts/\n");
    save_matches_oracle(&repo, ".gitignore now ignores an untracked directory");
    write(&root, "notes/.gitignore", "*.md\n");
    save_matches_oracle(&repo, "a .gitignore added below");
    write(&root, ".gitignore", "build/\n");
    fs::remove_file(root.join("notes/.gitignore")).unwrap();
    save_matches_oracle(&repo, "the ignore rules taken back");

    fs::set_permissions(root.join("bin/run.sh"), fs::Permissions::from_mode(0o644)).unwrap();
    save_matches_oracle(&repo, "an executable no longer executable");
    save_matches_oracle(&repo, "nothing changed since");

    repo.git(&["add", "-A"]);
    write(&root, "src/a/f5.txt", "edited after git add\n");
    save_matches_oracle(&repo, "the index rewritten by git");

    watchman.kill();
    write(&root, "src/a/f0.txt", "edited while no monitor ran\n");
    write(
        &root,
        "notes/while-down.md",
        "created while no monitor ran\n",
    );
    save_matches_oracle(&repo, "the monitor killed mid-session");
    write(&root, "src/a/f0.txt", "edited once it ran again\n");
    save_matches_oracle(&repo, "after the monitor started again");
    save_matches_oracle(&repo, "nothing changed at the end");
    repo.fsck();
}

/// A hook that answers what the test wrote in `.git/reply` (a token, then paths, each line
/// one), or fails, or is slow, as `.git/reply` says.
fn scripted_hook(repo: &Repo) {
    let hook = repo.git_dir().join("hooks").join("scripted");
    fs::create_dir_all(hook.parent().unwrap()).unwrap();
    fs::write(
        &hook,
        "#!/bin/sh\n\
         reply=\"$(git rev-parse --git-dir)/reply\"\n\
         echo \"$2\" >> \"$(git rev-parse --git-dir)/asked\"\n\
         case \"$(head -n 1 \"$reply\")\" in\n\
         FAIL) exit 1 ;;\n\
         SLOW) sleep 8 ;;\n\
         esac\n\
         tr '\\n' '\\0' < \"$reply\"\n",
    )
    .unwrap();
    fs::set_permissions(&hook, fs::Permissions::from_mode(0o755)).unwrap();
    repo.git(&["config", "core.fsmonitor", ".git/hooks/scripted"]);
}

fn reply(repo: &Repo, lines: &[&str]) {
    let mut text = lines.join("\n");
    text.push('\n');
    fs::write(repo.git_dir().join("reply"), text).unwrap();
}

fn saved_tree(repo: &Repo, step: &str) -> String {
    let id = repo.save(&["--allow-empty", "-m", step]);
    repo.git(&["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")])
}

/// The monitor's answer is what a save goes by, as git's status goes by it: a change it does
/// not report is not looked at (which proves the save looks only where it is told), and every
/// answer it cannot trust makes the save look at everything.
#[test]
fn a_save_looks_only_where_the_monitor_says_and_everywhere_when_in_doubt() {
    let repo = Repo::new();
    write(repo.path(), "a.txt", "one\n");
    write(repo.path(), "dir/b.txt", "two\n");
    write(repo.path(), "dir/kept.txt", "never edited until the end\n");
    write(
        repo.path(),
        "dir/clean.txt",
        "edited once, unreported, at the end\n",
    );
    write(repo.path(), "u/new.md", "untracked\n");
    // Files older than the index that tracks them: none is racily clean, so none is dirty
    // when the first token is kept (a dirty path is compared at every save).
    std::thread::sleep(Duration::from_millis(1100));
    repo.git(&["add", "a.txt", "dir/b.txt", "dir/kept.txt", "dir/clean.txt"]);
    repo.git(&["commit", "-q", "-m", "base"]);
    scripted_hook(&repo);
    reply(&repo, &["t1"]);
    // No token kept yet: everything, whatever the hook says.
    assert_eq!(saved_tree(&repo, "first"), oracle(&repo));
    let asked = || fs::read_to_string(repo.git_dir().join("asked")).unwrap();
    assert_eq!(asked().lines().last(), Some(""), "asked without a token");

    // Changes the monitor does not report are not seen...
    let before = oracle(&repo);
    std::thread::sleep(Duration::from_millis(1100));
    write(repo.path(), "a.txt", "ONE\n");
    write(repo.path(), "u/new.md", "UNTRACKED\n");
    reply(&repo, &["t2"]);
    assert_eq!(
        saved_tree(&repo, "unreported"),
        before,
        "an unreported change is not looked at"
    );
    assert_eq!(
        asked().lines().last(),
        Some("t1"),
        "asked with the token kept"
    );
    // ...until it does.
    reply(&repo, &["t3", "a.txt", "u/new.md"]);
    assert_eq!(saved_tree(&repo, "reported"), oracle(&repo));

    // Every answer a save cannot trust: the full scan finds the unreported change.
    let doubts: &[(&str, &[&str])] = &[
        ("no information", &["t4", "/"]),
        ("a failing hook", &["FAIL"]),
        ("an empty token", &[""]),
        ("a path outside the working tree", &["t5", "../elsewhere"]),
        ("an absolute path", &["t6", "/etc"]),
    ];
    for (round, (doubt, answer)) in doubts.iter().enumerate() {
        // First a save that leaves a token (nothing changed, nothing reported).
        reply(&repo, &["t-ok"]);
        saved_tree(&repo, "settle");
        write(repo.path(), "a.txt", &format!("v{round}\n"));
        write(repo.path(), "dir/b.txt", &format!("w{round}\n"));
        reply(&repo, answer);
        assert_eq!(saved_tree(&repo, doubt), oracle(&repo), "{doubt}");
    }

    // The index rewritten by git: its tracked files are all compared again.
    reply(&repo, &["t7"]);
    saved_tree(&repo, "settle");
    write(repo.path(), "c.txt", "added\n");
    repo.git(&["-c", "core.fsmonitor=false", "add", "c.txt"]);
    write(repo.path(), "a.txt", "changed, unreported, after git add\n");
    reply(&repo, &["t8"]);
    assert_eq!(saved_tree(&repo, "index rewritten"), oracle(&repo));

    // git rewrites the index with the same entries (git status after a touch refreshes their
    // stat data): the monitor's answer still holds, and an unreported change stays unseen.
    reply(&repo, &["t7b"]);
    saved_tree(&repo, "settle");
    let index_before = fs::read(repo.git_dir().join("index")).unwrap();
    let touched = std::time::SystemTime::now() - Duration::from_secs(5);
    fs::File::options()
        .write(true)
        .open(repo.path().join("c.txt"))
        .unwrap()
        .set_modified(touched)
        .unwrap();
    repo.git(&["-c", "core.fsmonitor=false", "status", "--porcelain"]);
    assert_ne!(
        fs::read(repo.git_dir().join("index")).unwrap(),
        index_before,
        "git rewrote the index"
    );
    let unseen = oracle(&repo);
    write(
        repo.path(),
        "dir/kept.txt",
        "an unreported change after git status\n",
    );
    reply(&repo, &["t7c", "c.txt"]);
    assert_eq!(saved_tree(&repo, "same index rewritten"), unseen);
    // A save told not to use the monitor (for one process) keeps the token: the next one
    // still goes by the monitor's answer. (First the monitor owns up to the change it kept
    // quiet about, so that what it knows is true again.)
    reply(&repo, &["t7e0", "dir/kept.txt"]);
    assert_eq!(saved_tree(&repo, "reported at last"), oracle(&repo));
    write(
        repo.path(),
        "a.txt",
        "changed before a save without the monitor\n",
    );
    let id = repo
        .cp_with(
            |cmd| {
                cmd.env("GIT_CONFIG_COUNT", "1")
                    .env("GIT_CONFIG_KEY_0", "core.fsmonitor")
                    .env("GIT_CONFIG_VALUE_0", "false");
            },
            &["save", "--allow-empty"],
        )
        .ok()
        .id();
    let without = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")]);
    assert_eq!(
        without,
        oracle(&repo),
        "a save without the monitor sees everything"
    );
    write(repo.path(), "dir/clean.txt", "changed, unreported\n");
    reply(&repo, &["t7e"]);
    assert_eq!(saved_tree(&repo, "token kept"), without);
    // git changes what the index tracks without touching the files: compared again.
    repo.git(&[
        "-c",
        "core.fsmonitor=false",
        "rm",
        "-q",
        "--cached",
        "a.txt",
    ]);
    reply(&repo, &["t7d"]);
    assert_eq!(
        saved_tree(&repo, "untracked by git rm --cached"),
        oracle(&repo)
    );
    repo.git(&["-c", "core.fsmonitor=false", "add", "a.txt"]);

    // A slow hook is given up on, and everything is looked at.
    reply(&repo, &["t9"]);
    saved_tree(&repo, "settle");
    write(repo.path(), "a.txt", "changed while the hook sleeps\n");
    reply(&repo, &["SLOW", "t10"]);
    let started = Instant::now();
    assert_eq!(saved_tree(&repo, "slow hook"), oracle(&repo));
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(8),
        "the save waited for the slow hook ({took:?})"
    );
    repo.fsck();
}

/// `core.fsmonitor=true` names git's built-in daemon, which this tool does not speak: saves
/// look at everything and stay correct.
#[test]
fn the_built_in_daemon_setting_means_a_full_scan() {
    let repo = Repo::with_commit(&[("a.txt", "one\n")]);
    repo.git(&["config", "core.fsmonitor", "true"]);
    write(repo.path(), "a.txt", "two\n");
    write(repo.path(), "b.txt", "new\n");
    let id = repo.save(&[]);
    let saved = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")]);
    repo.git(&["config", "core.fsmonitor", "false"]);
    assert_eq!(saved, repo.oracle_tree());
}
