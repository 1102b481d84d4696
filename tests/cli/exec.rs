//! exec: a command between two checkpoints, checked against the git CLI and the file system.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Repo, Run, bin, worktree_entries};
use crate::restore::manifest;

fn exec(repo: &Repo, args: &[&str]) -> Run {
    let mut full = vec!["exec"];
    full.extend_from_slice(args);
    let run = repo.cp(&full);
    run.assert_no_panic();
    run
}

/// A shell script outside the working tree (so it is in no checkpoint); returns its path.
fn script(repo: &Repo, name: &str, body: &str) -> String {
    let path = repo.scratch().join(name);
    fs::write(&path, body).unwrap();
    path.to_str().unwrap().to_string()
}

/// What the summary line says: the counts by word, and the two checkpoint ids.
#[derive(Debug)]
struct Summary {
    counts: BTreeMap<String, usize>,
    before: String,
    after: String,
    line: String,
}

#[track_caller]
fn summary(stderr: &str) -> Summary {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("exec: ") && l.contains("(checkpoints "))
        .unwrap_or_else(|| panic!("no summary line with checkpoints in {stderr:?}"));
    let (counts_text, rest) = line
        .strip_prefix("exec: ")
        .unwrap()
        .split_once(" (checkpoints ")
        .unwrap();
    let (ids, _) = rest.split_once(')').unwrap();
    let (before, after) = ids.split_once(" → ").unwrap();
    let counts = counts_text
        .split(", ")
        .map(|part| {
            let (n, what) = part.split_once(' ').unwrap();
            (what.to_string(), n.parse().unwrap())
        })
        .collect();
    Summary {
        counts,
        before: before.into(),
        after: after.into(),
        line: line.into(),
    }
}

/// `git diff --name-status` between two checkpoints, counted as exec counts: type changes are
/// modifications, renames are off.
fn oracle_counts(repo: &Repo, before: &str, after: &str) -> BTreeMap<String, usize> {
    let out = repo.git(&[
        "diff",
        "--no-renames",
        "--name-status",
        &format!("refs/checkpoints/{before}"),
        &format!("refs/checkpoints/{after}"),
    ]);
    let mut counts = BTreeMap::new();
    for line in out.lines() {
        let word = match &line[..1] {
            "A" => "added",
            "D" => "deleted",
            "M" | "T" => "modified",
            other => panic!("unexpected status {other} in {out}"),
        };
        *counts.entry(word.to_string()).or_insert(0) += 1;
    }
    counts
}

/// The permission bits of every file and directory below `root` (`.git` left out).
fn modes(root: &Path) -> BTreeMap<String, u32> {
    worktree_entries(root)
        .into_iter()
        .filter(|(_, _, md)| !md.file_type().is_symlink())
        .map(|(rel, _, md)| (rel, md.permissions().mode() & 0o7777))
        .collect()
}

/// A repository with every kind of entry, its modes set explicitly (not from the umask), a
/// staged change, an untracked and an ignored file.
fn varied_repo() -> Repo {
    let repo = Repo::new();
    repo.write("a.txt", "alpha\n");
    repo.write("b.txt", "beta\n");
    repo.write("src/lib.rs", "fn main() {}\n");
    repo.write("src/deep/nested.txt", "deep\n");
    repo.write("run.sh", "#!/bin/sh\necho hi\n");
    repo.write("plain.sh", "#!/bin/sh\necho plain\n");
    repo.symlink("a.txt", "link");
    repo.write(".gitignore", "*.log\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    repo.write("staged.txt", "staged\n");
    repo.git(&["add", "staged.txt"]);
    repo.write("untracked.txt", "untracked\n");
    repo.write("keep.log", "ignored\n");
    for file in [
        "a.txt",
        "b.txt",
        "src/lib.rs",
        "src/deep/nested.txt",
        "plain.sh",
        ".gitignore",
        "staged.txt",
        "untracked.txt",
        "keep.log",
    ] {
        repo.chmod(file, 0o644);
    }
    repo.chmod("run.sh", 0o755);
    for dir in ["src", "src/deep"] {
        repo.chmod(dir, 0o755);
    }
    repo
}

/// Edit, create, delete, chmod both ways, retarget a symlink, write an ignored file.
const MESS_UP: &str = "\
echo changed >> a.txt
rm b.txt untracked.txt
rm -r src/deep
mkdir -p new/dir && echo added > new/dir/file.txt
chmod -x run.sh
chmod +x plain.sh
rm link && ln -s src link
echo noise > debug.log
";

#[test]
fn exit_codes_are_passed_through_and_recorded() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for code in [0, 3, 42] {
        // A change since the last checkpoint after, so that the one before is new.
        repo.write("marker", &code.to_string());
        let body = format!("echo {code} >> a\nexit {code}\n");
        let path = script(&repo, &format!("exit{code}.sh"), &body);
        let out = exec(&repo, &["--", "sh", &path]);
        assert_eq!(out.code, code, "{out:?}");
        assert_eq!(out.stdout, "", "exec prints nothing on stdout");
        let s = summary(&out.stderr);
        assert_eq!(s.counts, BTreeMap::from([("modified".into(), 1)]), "{s:?}");
        assert_eq!(
            repo.commit_message(&s.before).lines().next().unwrap(),
            format!("checkpoint: before: sh {path}")
        );
        assert_eq!(
            repo.commit_message(&s.after).lines().next().unwrap(),
            format!("checkpoint: after: sh {path} (exit {code})")
        );
        let before = repo.note_json(&s.before);
        let after = repo.note_json(&s.after);
        assert_eq!(before.get("kind"), "exec");
        assert_eq!(after.get("kind"), "exec");
        assert_eq!(before.get("meta.command"), format!("[\"sh\", \"{path}\"]"));
        assert_eq!(before.keys("meta"), ["command"]);
        assert_eq!(after.get("meta.command"), format!("[\"sh\", \"{path}\"]"));
        assert_eq!(after.get("meta.exit_code"), code.to_string());
        assert_eq!(repo.checkpoint_tree(&s.after), repo.oracle_tree());
    }

    // --kind and -m (a change first: an unchanged tree would reuse the newest checkpoint as the
    // one before, whatever its kind); the arguments read back as a shell would take them.
    repo.write("marker", "kind");
    let out = exec(
        &repo,
        &[
            "--kind",
            "agent",
            "-m",
            "try it",
            "--",
            "sh",
            "-c",
            "echo x >> a; exit 3",
        ],
    );
    assert_eq!(out.code, 3, "{out:?}");
    let s = summary(&out.stderr);
    assert_eq!(repo.note_json(&s.before).get("kind"), "agent");
    assert_eq!(repo.note_json(&s.before).get("message"), "try it");
    assert_eq!(repo.note_json(&s.after).get("kind"), "agent");
    assert_eq!(
        repo.note_json(&s.after).get("message"),
        "after: sh -c 'echo x >> a; exit 3' (exit 3)"
    );
    assert_eq!(
        repo.note_json(&s.after).get("meta.command"),
        r#"["sh", "-c", "echo x >> a; exit 3"]"#
    );
}

/// `-m` is recorded as `--name` is: on an unchanged working tree the checkpoint before is still
/// a new one carrying the message. Without either, the newest checkpoint serves as before.
#[test]
fn a_message_of_the_users_own_is_recorded_even_when_nothing_changed() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let newest = repo.save(&["-q"]);
    let out = exec(&repo, &["--", "sh", "-c", "echo x >> a"]);
    assert_eq!(out.code, 0, "{out:?}");
    let s = summary(&out.stderr);
    assert_eq!(
        s.before, newest,
        "without -m: the newest is the checkpoint before"
    );
    let newest = s.after;
    let out = exec(
        &repo,
        &["-m", "try the codemod", "--", "sh", "-c", "echo y >> a"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let s = summary(&out.stderr);
    assert_ne!(s.before, newest, "with -m: a new checkpoint before");
    assert_eq!(repo.note_json(&s.before).get("message"), "try the codemod");
    assert_eq!(
        repo.checkpoint_tree(&s.before),
        repo.checkpoint_tree(&newest)
    );
    // The checkpoint after, whose message the command line made, is still deduplicated.
    let ids = repo.checkpoint_ids();
    let out = exec(&repo, &["--", "true"]);
    assert_eq!(out.stderr, "exec: no files changed\n");
    assert_eq!(repo.checkpoint_ids(), ids);
}

#[test]
fn a_command_killed_by_a_signal_exits_128_plus_the_signal() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let out = exec(
        &repo,
        &["--", "sh", "-c", "echo new > new.txt; kill -TERM $$"],
    );
    assert_eq!(out.code, 143, "{out:?}");
    let s = summary(&out.stderr);
    assert_eq!(s.counts, BTreeMap::from([("added".into(), 1)]));
    let after = repo.note_json(&s.after);
    assert_eq!(after.get("meta.signal"), "15");
    assert_eq!(after.keys("meta"), ["command", "signal"]);
    assert_eq!(
        after.get("message"),
        "after: sh -c 'echo new > new.txt; kill -TERM $$' (killed by SIGTERM)"
    );
}

#[test]
fn a_command_that_cannot_run_exits_127_or_126_and_keeps_the_checkpoint_before() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("dirty", "not committed\n");
    let out = exec(&repo, &["--", "no-such-command-for-exec"]).fails_with(127);
    out.assert_one_error_line();
    assert!(
        out.stderr
            .starts_with("error: cannot run `no-such-command-for-exec`: "),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
    // The checkpoint before was saved (the command was looked for only then) and is kept;
    // no checkpoint after.
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert_eq!(
        repo.note_json(&ids[0]).get("message"),
        "before: no-such-command-for-exec"
    );
    assert_eq!(repo.checkpoint_tree(&ids[0]), repo.oracle_tree());

    // Not executable: a file without an exec bit, a directory.
    repo.write("not-exec.sh", "#!/bin/sh\n");
    repo.chmod("not-exec.sh", 0o644);
    repo.write("some-dir/file", "x\n");
    for path in ["./not-exec.sh", "./some-dir"] {
        let out = exec(&repo, &["--", path]).fails_with(126);
        out.assert_one_error_line();
        assert!(
            out.stderr
                .starts_with(&format!("error: cannot run `{path}`: ")),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn stdin_stdout_and_stderr_belong_to_the_command() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let input = b"data\0with a NUL\nand no newline at the end";
    let mut cmd = Command::new(bin());
    cmd.args(["exec", "--", "cat"])
        .current_dir(repo.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    repo.env(&mut cmd);
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, input, "stdout is exactly what cat wrote");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "exec: no files changed\n"
    );

    let out = exec(&repo, &["--", "sh", "-c", "echo out; echo err >&2"]);
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "out\n");
    assert_eq!(out.stderr, "err\nexec: no files changed\n");

    // Flags after the command are the command's, even ours; -q before it is ours.
    let out = exec(
        &repo,
        &["--", "sh", "-c", "echo \"$@\"", "sh", "-q", "--name", "x"],
    );
    assert_eq!(out.stdout, "-q --name x\n");
    assert_eq!(out.stderr, "exec: no files changed\n");
    let out = exec(&repo, &["-q", "--", "sh", "-c", "echo x >> a"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", "")
    );
    let out = exec(&repo, &["-q", "--", "sh", "-c", "exit 4"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (4, "", "")
    );

    // The current directory is the command's.
    repo.write("sub/file", "x\n");
    let out = repo.cp_in("sub", &["exec", "--", "pwd", "-P"]);
    assert_eq!(
        PathBuf::from(out.stdout.trim_end()),
        repo.path().join("sub").canonicalize().unwrap()
    );
}

#[test]
fn summary_counts_match_git_and_its_undo_brings_the_state_before_back() {
    let repo = varied_repo();
    let before_files = manifest(repo.path());
    let fingerprint = repo.fingerprint();
    let oracle_before = repo.oracle_tree();
    let path = script(&repo, "mess.sh", MESS_UP);
    let out = exec(&repo, &["--", "sh", &path]);
    assert_eq!(out.code, 0, "{out:?}");
    let s = summary(&out.stderr);
    assert_eq!(repo.checkpoint_tree(&s.before), oracle_before);
    assert_eq!(repo.checkpoint_tree(&s.after), repo.oracle_tree());
    assert_eq!(
        s.counts,
        oracle_counts(&repo, &s.before, &s.after),
        "{}",
        s.line
    );
    // What MESS_UP does: a.txt, run.sh, plain.sh, link modified; new/dir/file.txt added;
    // b.txt, untracked.txt, src/deep/nested.txt deleted; debug.log ignored.
    assert_eq!(
        s.counts,
        BTreeMap::from([
            ("modified".into(), 4),
            ("added".into(), 1),
            ("deleted".into(), 3)
        ])
    );
    assert!(
        s.line
            .ends_with(&format!("; undo with: git checkpoint restore {}", s.before)),
        "{}",
        s.line
    );
    assert_eq!(out.stderr.lines().count(), 1, "one line: {}", out.stderr);
    assert_eq!(
        repo.fingerprint(),
        fingerprint,
        "HEAD, index, branches untouched"
    );

    // Nothing changed: one short line, and before and after are the newest checkpoint.
    let ids = repo.checkpoint_ids();
    let out = exec(&repo, &["--", "true"]);
    assert_eq!(out.stderr, "exec: no files changed\n");
    assert_eq!(repo.checkpoint_ids(), ids, "no new checkpoint");

    // The printed undo.
    let undo = repo.cp(&["restore", &s.before]).ok();
    let mut expected = before_files;
    expected.insert("debug.log".into(), "file exec=false \"noise\\n\"".into());
    assert_eq!(manifest(repo.path()), expected, "{}", undo.stderr);
    assert_eq!(repo.oracle_tree(), oracle_before);
    assert_eq!(repo.fingerprint(), fingerprint);
}

#[test]
fn restore_on_failure_leaves_the_tree_exactly_as_before_and_is_undoable() {
    let repo = varied_repo();
    let before_files = manifest(repo.path());
    let before_modes = modes(repo.path());
    let fingerprint = repo.fingerprint();
    let oracle_before = repo.oracle_tree();
    let path = script(&repo, "mess-and-fail.sh", &format!("{MESS_UP}exit 5\n"));
    // A fixed umask, so that the modes of rewritten files can be compared.
    let out = repo.cp_with_shell_prefix(
        "umask 022;",
        &["exec", "--restore-on-failure", "--", "sh", &path],
    );
    out.assert_no_panic();
    assert_eq!(out.code, 5, "the command's exit code: {out:?}");
    assert_eq!(out.stdout, "");
    let s = summary(&out.stderr);
    assert!(
        !s.line.contains("undo with"),
        "the undo is the restore's: {}",
        s.line
    );
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stderr);
    let prefix = format!(
        "exec: the command failed (exit 5); restored checkpoint {}; undo with: git checkpoint restore ",
        s.before
    );
    let safety = lines[1]
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{:?}", lines[1]));
    // The safety checkpoint holds exactly what the restore replaced: what the command left,
    // as the checkpoint after it does. It is a checkpoint of its own, recording the restore,
    // so that `undo` knows what happened last.
    assert_ne!(safety, s.after);
    assert_eq!(repo.checkpoint_tree(safety), repo.checkpoint_tree(&s.after));
    assert_eq!(
        repo.checkpoint_ids().len(),
        3,
        "before, after, and the safety"
    );

    let mut expected = before_files.clone();
    expected.insert("debug.log".into(), "file exec=false \"noise\\n\"".into());
    assert_eq!(
        manifest(repo.path()),
        expected,
        "ignored files are never deleted"
    );
    let mut expected_modes = before_modes;
    expected_modes.insert("debug.log".into(), 0o644);
    assert_eq!(modes(repo.path()), expected_modes);
    assert_eq!(repo.oracle_tree(), oracle_before);
    assert_eq!(repo.checkpoint_tree(&s.before), oracle_before);
    assert_eq!(
        repo.fingerprint(),
        fingerprint,
        "HEAD, index, branches untouched"
    );

    // The printed undo brings the failed state back.
    repo.cp(&["restore", safety]).ok();
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&s.after));
    assert_eq!(repo.read("a.txt"), "alpha\nchanged\n");
    assert!(!repo.path().join("b.txt").exists());
    assert_eq!(repo.read("new/dir/file.txt"), "added\n");
    let mode = |p: &str| {
        fs::metadata(repo.path().join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o111
            != 0
    };
    assert!(!mode("run.sh") && mode("plain.sh"));
    assert_eq!(
        fs::read_link(repo.path().join("link")).unwrap(),
        Path::new("src")
    );
    repo.fsck();
}

#[test]
fn restore_on_failure_says_when_nothing_changed_and_does_nothing_on_success() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let out = exec(&repo, &["--restore-on-failure", "--", "sh", "-c", "exit 2"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr.lines().collect::<Vec<_>>(),
        [
            "exec: no files changed".to_string(),
            format!(
                "exec: the command failed (exit 2); its files are as before it (checkpoint {}): nothing to restore",
                repo.checkpoint_ids()[0]
            )
        ]
    );

    let out = exec(
        &repo,
        &["--restore-on-failure", "--", "sh", "-c", "echo b > b"],
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        repo.read("b"),
        "b\n",
        "a command that succeeds is not undone"
    );
    assert_eq!(
        summary(&out.stderr).counts,
        BTreeMap::from([("added".into(), 1)])
    );
}

#[test]
fn a_refused_restore_is_reported_with_the_command_to_finish_it() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("notes.txt", "mine\n");
    // The command makes notes.txt ignored and writes over it: restoring would overwrite an
    // ignored file, which restore refuses without --force.
    let path = script(
        &repo,
        "ignore.sh",
        "echo notes.txt >> .gitignore\necho theirs > notes.txt\nexit 1\n",
    );
    let out = exec(&repo, &["--restore-on-failure", "--", "sh", &path]);
    assert_eq!(out.code, 1, "the command's exit code: {out:?}");
    let s = summary(&out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{}", out.stderr);
    assert!(
        lines[1].starts_with(&format!(
            "error: the command failed (exit 1), and restoring checkpoint {} failed: ignored files stand where",
        s.before
        )) && lines[1].contains("notes.txt"),
        "{}",
        lines[1]
    );
    let force = format!("`git checkpoint restore {} --force`", s.before);
    assert!(
        lines[2].starts_with("hint: ") && lines[2].contains(&force),
        "{}",
        lines[2]
    );
    // Nothing was restored.
    assert_eq!(repo.read("notes.txt"), "theirs\n");
    assert_eq!(repo.read(".gitignore"), "notes.txt\n");

    repo.cp(&["restore", &s.before, "--force"]).ok();
    assert_eq!(repo.read("notes.txt"), "mine\n");
    assert!(!repo.path().join(".gitignore").exists());
}

#[test]
fn name_finds_the_checkpoint_before_even_when_nothing_changed() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let existing = repo.save(&["-q"]);
    let out = exec(&repo, &["--name", "try", "--", "true"]);
    assert_eq!(out.code, 0);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 2, "a new checkpoint for the name: {ids:?}");
    let named = repo.cp(&["show", "try", "--json"]).ok();
    let named = crate::common::json_get(&named.stdout, "id");
    assert_ne!(named, existing);
    assert_eq!(repo.note_json(&named).get("name"), "try");

    let out = exec(
        &repo,
        &["--name", "try", "--", "sh", "-c", "echo b > b; echo x >> a"],
    );
    assert_eq!(out.code, 0);
    let s = summary(&out.stderr);
    let named = repo.cp(&["show", "try", "--json"]).ok();
    assert_eq!(crate::common::json_get(&named.stdout, "id"), s.before);
    repo.cp(&["restore", "try"]).ok();
    assert_eq!(repo.read("a"), "a\n");
    assert!(!repo.path().join("b").exists());
}

#[test]
fn usage_errors_run_nothing() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for args in [
        &["exec"][..],
        &["exec", "--"],
        &["exec", "--restore-on-failure"],
        &["exec", "--no-such-flag", "--", "true"],
    ] {
        let out = repo.cp(args);
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        out.assert_no_panic();
        assert!(out.stderr.starts_with("error:"), "{}", out.stderr);
    }
    assert!(repo.checkpoint_ids().is_empty());
    // And through git itself.
    let out = repo.git_checkpoint(&["exec", "--", "sh", "-c", "echo b > b"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.starts_with("exec: 1 added"), "{}", out.stderr);
}

#[test]
fn a_failed_first_save_runs_nothing() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let out = exec(
        &repo,
        &["--kind", "Not A Kind", "--", "sh", "-c", "echo b > b"],
    )
    .fails_with(1);
    assert!(
        out.stderr
            .contains("hint: `sh -c 'echo b > b'` was not run"),
        "{}",
        out.stderr
    );
    assert!(!repo.path().join("b").exists());
    assert!(repo.checkpoint_ids().is_empty());

    // Where nothing can be saved: a home directory, in no repository.
    let outside = repo.home();
    let out = repo.cp_in_dir(outside, &["exec", "--", "sh", "-c", "echo > ran"]);
    let out = out.fails_with(1);
    assert!(out.stderr.contains("home directory"), "{}", out.stderr);
    assert!(out.stderr.ends_with("was not run\n"), "{}", out.stderr);
    assert!(!outside.join("ran").exists());
}

/// Wait in a shell script (for a signal), but at most 30 seconds, so that a broken exec fails
/// the test instead of hanging it.
const BOUNDED_WAIT: &str = "i=0; while [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done\n";

/// Start `git checkpoint exec -- sh SCRIPT` in the background.
fn spawn_exec(repo: &Repo, script: &str, own_group: bool) -> Child {
    let mut cmd = Command::new(bin());
    cmd.args(["exec", "--", "sh", script])
        .current_dir(repo.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    repo.env(&mut cmd);
    if own_group {
        cmd.process_group(0);
    }
    cmd.spawn().unwrap()
}

#[track_caller]
fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(signal: &str, target: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), "--", target])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{signal} {target}");
}

fn finish(child: Child) -> Run {
    let run: Run = child.wait_with_output().unwrap().into();
    run.assert_no_panic();
    run
}

#[test]
fn sigterm_and_sighup_are_passed_on_to_the_command() {
    for signal in ["TERM", "HUP"] {
        let repo = Repo::with_commit(&[("a", "a\n")]);
        let body = format!(
            "trap 'echo {signal} > got.txt; exit 7' {signal}\necho > started.txt\n{BOUNDED_WAIT}exit 99\n"
        );
        let path = script(&repo, "trap.sh", &body);
        let child = spawn_exec(&repo, &path, false);
        wait_for(&repo.path().join("started.txt"));
        // To git-checkpoint only, not to its process group: it must pass it on.
        kill(signal, &child.id().to_string());
        let out = finish(child);
        assert_eq!(out.code, 7, "{signal}: {out:?}");
        assert_eq!(repo.read("got.txt"), format!("{signal}\n"));
        let s = summary(&out.stderr);
        assert_eq!(repo.note_json(&s.after).get("meta.exit_code"), "7");
        assert_eq!(repo.checkpoint_tree(&s.after), repo.oracle_tree());
    }
}

#[test]
fn sigint_and_sigquit_do_not_stop_exec_but_reach_the_command_from_the_terminal() {
    // Sent to git-checkpoint alone: it neither dies nor passes them on.
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let go = repo.scratch().join("go");
    let body = format!(
        "echo > started.txt\n{}\necho > done.txt\n",
        BOUNDED_WAIT.replace(
            "[ $i -lt",
            &format!("[ ! -e '{}' ] && [ $i -lt", go.display())
        )
    );
    let path = script(&repo, "wait.sh", &body);
    let mut child = spawn_exec(&repo, &path, false);
    wait_for(&repo.path().join("started.txt"));
    kill("INT", &child.id().to_string());
    kill("QUIT", &child.id().to_string());
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "exec is still running");
    fs::write(&go, "").unwrap();
    let out = finish(child);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(repo.path().join("done.txt").exists());
    assert_eq!(
        summary(&out.stderr).counts,
        BTreeMap::from([("added".into(), 2)])
    );

    // Ctrl-C: the terminal signals the whole process group. The command dies of it, exec
    // saves the checkpoint after and exits 130.
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let path = script(&repo, "sleep.sh", "echo > started.txt\nsleep 30\n");
    let child = spawn_exec(&repo, &path, true);
    wait_for(&repo.path().join("started.txt"));
    kill("INT", &format!("-{}", child.id()));
    let out = finish(child);
    assert_eq!(out.code, 130, "{out:?}");
    let s = summary(&out.stderr);
    assert_eq!(repo.note_json(&s.after).get("meta.signal"), "2");
    assert_eq!(repo.checkpoint_tree(&s.after), repo.oracle_tree());
}
