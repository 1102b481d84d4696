//! A hermetic test repository built with the git CLI, and the tool run against it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_git-checkpoint")
}

/// What a run of the tool printed.
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

/// A repository in a temporary directory, with `HOME` and the global config inside it.
pub struct Repo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
}

impl Repo {
    /// `git init -b main` in a fresh directory.
    pub fn new() -> Repo {
        Repo::init(&[])
    }

    /// `git init` with extra arguments.
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
        };
        let mut init = vec!["init", "-q", "-b", "main"];
        init.extend_from_slice(args);
        repo.git(&init);
        repo
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
        for var in [
            "GIT_DIR",
            "GIT_WORK_TREE",
            "GIT_INDEX_FILE",
            "GIT_CEILING_DIRECTORIES",
            "GIT_OBJECT_DIRECTORY",
            "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "GIT_PAGER_IN_USE",
            "EMAIL",
        ] {
            cmd.env_remove(var);
        }
        cmd.env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join(".gitconfig"))
            .env("HOME", &self.home)
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
        cmd.args(args).current_dir(dir);
        self.env(&mut cmd);
        cmd
    }

    /// Run git in the repository; panic on failure; return trimmed stdout.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_in_dir(&self.root, args)
    }

    /// Run git in `dir`; panic on failure; return trimmed stdout.
    pub fn git_in_dir(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.git_command(dir, args).output().unwrap();
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
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success()
    }

    /// Run git with `input` on stdin; return trimmed stdout.
    pub fn git_stdin(&self, args: &[&str], input: &[u8]) -> String {
        let mut child = self
            .git_command(&self.root, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// Run git with extra environment variables.
    pub fn git_env(&self, envs: &[(&str, &str)], args: &[&str]) -> String {
        let mut cmd = self.git_command(&self.root, args);
        cmd.envs(envs.iter().copied());
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
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
        cmd.output().unwrap().into()
    }

    /// The tool, with environment changes.
    pub fn cp_with(&self, setup: impl FnOnce(&mut Command), args: &[&str]) -> Run {
        let mut cmd = Command::new(bin());
        cmd.args(args).current_dir(&self.root);
        self.env(&mut cmd);
        setup(&mut cmd);
        cmd.output().unwrap().into()
    }

    /// The tool started by a shell that first runs `prefix` (e.g. `ulimit -f 64;`).
    pub fn cp_with_shell_prefix(&self, prefix: &str, args: &[&str]) -> Run {
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        let script = format!("{prefix} exec '{}' {}", bin(), quoted.join(" "));
        let mut cmd = Command::new("bash");
        cmd.arg("-c").arg(script).current_dir(&self.root);
        self.env(&mut cmd);
        cmd.output().unwrap().into()
    }

    /// The tool run through a wrapper command (e.g. `setpriv …`).
    pub fn cp_wrapped(&self, wrapper: &[&str], args: &[&str]) -> Run {
        let mut cmd = Command::new(wrapper[0]);
        cmd.args(&wrapper[1..])
            .arg(bin())
            .args(args)
            .current_dir(&self.root);
        self.env(&mut cmd);
        cmd.output().unwrap().into()
    }

    /// `git checkpoint …` through git itself, with the binary's directory on PATH.
    pub fn git_checkpoint(&self, args: &[&str]) -> Run {
        let dir = Path::new(bin()).parent().unwrap();
        let path = format!(
            "{}:{}",
            dir.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new("git");
        cmd.arg("checkpoint").args(args).current_dir(&self.root);
        self.env(&mut cmd);
        cmd.env("PATH", path);
        cmd.output().unwrap().into()
    }

    pub fn write(&self, rel: &str, content: &str) {
        self.write_bytes(rel, content.as_bytes());
    }

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

    pub fn remove(&self, rel: &str) {
        let path = self.root.join(rel);
        match fs::symlink_metadata(&path) {
            Ok(md) if md.is_dir() => fs::remove_dir_all(path).unwrap(),
            Ok(_) => fs::remove_file(path).unwrap(),
            Err(_) => {}
        }
    }

    pub fn chmod_x(&self, rel: &str, executable: bool) {
        use std::os::unix::fs::PermissionsExt;
        let path = self.root.join(rel);
        let mut perms = fs::metadata(&path).unwrap().permissions();
        perms.set_mode(if executable { 0o755 } else { 0o644 });
        fs::set_permissions(path, perms).unwrap();
    }

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
        let out = add.output().unwrap();
        assert!(
            out.status.success(),
            "oracle add: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut write = self.git_command(dir, &["write-tree"]);
        write.env("GIT_INDEX_FILE", copy_str);
        let out = write.output().unwrap();
        assert!(
            out.status.success(),
            "oracle write-tree: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let _ = fs::remove_file(&copy);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// The tree of checkpoint `id`.
    pub fn checkpoint_tree(&self, id: &str) -> String {
        self.git(&["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")])
    }

    /// Everything of the user's state that the tool must never change: the index bytes, HEAD,
    /// branches and the stash.
    pub fn fingerprint(&self) -> String {
        let index = PathBuf::from(self.git(&[
            "rev-parse",
            "--path-format=absolute",
            "--git-path",
            "index",
        ]));
        let index_bytes = fs::read(index).unwrap_or_default();
        format!(
            "{:?}\n{}\n{}\n{}\n{}",
            index_bytes,
            self.git_command(&self.root, &["rev-parse", "-q", "--verify", "HEAD"])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default(),
            self.git_command(&self.root, &["symbolic-ref", "-q", "HEAD"])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default(),
            self.git(&["for-each-ref", "refs/heads", "refs/stash"]),
            self.git(&["stash", "list"]),
        )
    }

    /// Every file name under `.git/objects` (loose objects and packs).
    pub fn object_files(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk_files(
            &self.root.join(".git/objects"),
            &self.root.join(".git/objects"),
            &mut out,
        );
        out.sort();
        out
    }

    /// Every file name under `.git`, relative to it.
    pub fn git_dir_manifest(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk_files(&self.root.join(".git"), &self.root.join(".git"), &mut out);
        out.sort();
        out
    }

    /// A field of a JSON document, by a dotted path, read with python3.
    pub fn json_get(json: &str, path: &str) -> String {
        let script = format!(
            "import json,sys\nv=json.load(sys.stdin)\nfor k in {path:?}.split('.'):\n    v = v[int(k)] if isinstance(v, list) else v[k]\nprint(json.dumps(v) if not isinstance(v, str) else v)"
        );
        let mut child = Command::new("python3")
            .arg("-c")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(json.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "json_get {path} on {json}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }
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
