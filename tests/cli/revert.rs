//! `revert`: one step taken back, later work kept. The oracle is `git merge-tree --write-tree`
//! with the step's end as merge base, the working tree (as a commit) as ours and the step's
//! start as theirs: the working tree after the revert must be exactly its tree, and its
//! conflicts git's.

use std::fs;

use crate::common::Repo;
use crate::restore::manifest;

/// A commit of the working tree as git snapshots it (the save oracle), for `merge-tree`.
fn working_tree_commit(repo: &Repo) -> String {
    let tree = repo.oracle_tree();
    repo.git(&["commit-tree", &tree, "-m", "working tree"])
}

/// What `git merge-tree` makes of taking `from..to` back from the working tree now: the tree
/// id and the conflicting paths.
fn oracle(repo: &Repo, from: &str, to: &str) -> (String, Vec<String>) {
    let ours = working_tree_commit(repo);
    let out = std::process::Command::new("git")
        .current_dir(repo.path())
        .args([
            "merge-tree",
            "--write-tree",
            "--name-only",
            &format!("--merge-base=refs/checkpoints/{to}"),
            &ours,
            &format!("refs/checkpoints/{from}"),
        ])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    let tree = lines.next().unwrap_or_default().to_string();
    // After the tree: the conflicted paths, then a blank line and messages.
    let conflicts: Vec<String> = lines
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    (tree, conflicts)
}

/// Files committed, a checkpoint `A`, an agent step (one file changed, one added, one
/// deleted), a checkpoint `B`, and then later work of the user's (another file changed, a new
/// one, and a change to a file the step also changed, in lines far from the step's).
fn stepped_repo() -> (Repo, String, String) {
    let long: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let repo = Repo::with_commit(&[
        ("a.txt", "a\n"),
        ("b.txt", "b\n"),
        ("c.txt", "c\n"),
        ("long.txt", long.as_str()),
    ]);
    let a = repo.save(&["-q", "--allow-empty", "-m", "before the step"]);
    repo.write("a.txt", "a changed by the step\n");
    repo.write("d.txt", "d added by the step\n");
    repo.remove("c.txt");
    repo.write("long.txt", &long.replacen("line 2\n", "line 2 (step)\n", 1));
    let b = repo.save(&["-q", "-m", "after the step"]);
    repo.write("b.txt", "b changed later\n");
    repo.write("e.txt", "e added later\n");
    repo.write(
        "long.txt",
        &long.replacen("line 2\n", "line 2 (step)\n", 1).replacen(
            "line 29\n",
            "line 29 (later)\n",
            1,
        ),
    );
    (repo, a, b)
}

#[test]
fn revert_takes_back_one_step_and_keeps_later_work_as_git_merge_tree_does() {
    let (repo, a, b) = stepped_repo();
    let before = repo.oracle_tree();
    let (expected, conflicts) = oracle(&repo, &a, &b);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    // By default the step is A to the checkpoint after it.
    let out = repo.cp(&["revert", &a]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.oracle_tree(), expected);
    assert_eq!(repo.read("a.txt"), "a\n");
    assert_eq!(repo.read("c.txt"), "c\n");
    assert!(!repo.path().join("d.txt").exists());
    assert_eq!(repo.read("b.txt"), "b changed later\n");
    assert_eq!(repo.read("e.txt"), "e added later\n");
    assert!(repo.read("long.txt").contains("line 29 (later)"));
    assert!(!repo.read("long.txt").contains("(step)"));
    // Undoable: undo brings back exactly the state before the revert.
    let undo = repo.cp(&["undo"]);
    assert_eq!(undo.code, 0, "{}", undo.stderr);
    assert_eq!(repo.oracle_tree(), before);
    // And redo takes the undo back.
    repo.cp(&["redo"]).ok();
    assert_eq!(repo.oracle_tree(), expected);
    repo.fsck();
}

#[test]
fn explicit_ends_and_dry_run() {
    let (repo, a, b) = stepped_repo();
    let before = manifest(repo.path());
    let (expected, _) = oracle(&repo, &a, &b);
    let dry = repo.cp(&["revert", &a, &b, "--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(manifest(repo.path()), before, "a dry run changes nothing");
    for line in ["W  a.txt", "W  c.txt", "D  d.txt", "W  long.txt"] {
        assert!(dry.stdout.contains(line), "{line}: {}", dry.stdout);
    }
    let json = repo.cp(&["revert", &a, &b, "--json"]).ok();
    assert!(
        json.stdout.contains(&format!("\"from\":\"{a}\"")),
        "{}",
        json.stdout
    );
    assert!(json.stdout.contains("\"conflicts\":[]"), "{}", json.stdout);
    assert_eq!(repo.oracle_tree(), expected);
}

#[test]
fn conflicts_refuse_the_whole_revert_where_git_finds_them_unless_markers() {
    let (repo, a, b) = stepped_repo();
    // Later work changes the very line the step changed, and another file too.
    repo.write("a.txt", "a changed again later\n");
    let before = manifest(repo.path());
    let (_, git_conflicts) = oracle(&repo, &a, &b);
    assert_eq!(git_conflicts, ["a.txt"]);
    let out = repo.cp(&["revert", &a]).fails_with(1);
    assert!(out.stderr.contains("`a.txt`"), "{}", out.stderr);
    // The hint's commands are this revert's, ready to run: no placeholder left.
    assert!(
        out.stderr
            .contains(&format!("`git checkpoint revert {a} --conflicts=markers`")),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains(&format!("git checkpoint restore {a} -- a.txt")),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains('<'), "{}", out.stderr);
    assert_eq!(manifest(repo.path()), before, "nothing changed");
    let ids = repo.checkpoint_ids().len();

    let out = repo.cp(&["revert", &a, "--conflicts=markers"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("conflict in `a.txt`"), "{}", out.stderr);
    let merged = repo.read("a.txt");
    assert!(
        merged.contains("<<<<<<<") && merged.contains(">>>>>>>"),
        "{merged}"
    );
    assert!(merged.contains("a changed again later"), "{merged}");
    // The rest of the step is taken back all the same.
    assert_eq!(repo.read("c.txt"), "c\n");
    assert_eq!(
        repo.checkpoint_ids().len(),
        ids + 1,
        "one safety checkpoint"
    );
    repo.cp(&["undo"]).ok();
    assert_eq!(manifest(repo.path()), before);
}

/// The command a refused revert suggests with --conflicts=markers is the very revert refused:
/// both ends of `revert A B` (B given, not the checkpoint after A: another range) and its
/// flags; run as printed, it takes back that range, with markers where git's merge has them.
#[test]
fn a_refused_revert_suggests_the_same_revert_with_markers() {
    let (repo, a, _) = stepped_repo();
    // C after the user's later work: `revert A C` takes back the step and that work,
    // `revert A` only the step (A to B).
    let c = repo.save(&["-q", "-m", "later work"]);
    repo.write("a.txt", "a changed again after C\n");
    let (_, git_conflicts) = oracle(&repo, &a, &c);
    assert_eq!(git_conflicts, ["a.txt"]);
    let before = manifest(repo.path());
    let suggested = |out: &crate::common::Run| -> String {
        let hint = out
            .stderr
            .lines()
            .find(|l| l.starts_with("hint: "))
            .unwrap_or_else(|| panic!("no hint: {}", out.stderr));
        hint.split('`').nth(1).unwrap_or_default().to_string()
    };

    let out = repo.cp(&["revert", &a, &c, "--dry-run"]).fails_with(1);
    assert_eq!(
        suggested(&out),
        format!("git checkpoint revert {a} {c} --dry-run --conflicts=markers"),
        "{}",
        out.stderr
    );
    let out = repo.cp(&["revert", &a, &c]).fails_with(1);
    let again = suggested(&out);
    assert_eq!(
        again,
        format!("git checkpoint revert {a} {c} --conflicts=markers"),
        "{}",
        out.stderr
    );
    assert_eq!(manifest(repo.path()), before, "nothing changed");

    // Run as printed, through git as a user would paste it: the range A to C, as git merges it.
    let ran = crate::common::run_with_stdin(&repo, "sh", &["-c", &again], repo.path(), b"");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let merged = repo.read("a.txt");
    assert!(
        merged.contains("<<<<<<<") && merged.contains("a changed again after C"),
        "{merged}"
    );
    // The later work between B and C is taken back too (A to B alone would keep it).
    assert_eq!(repo.read("b.txt"), "b\n");
    assert!(!repo.path().join("e.txt").exists());
    assert_eq!(repo.read("c.txt"), "c\n");
}

#[test]
fn a_whole_session_is_taken_back_keeping_work_done_after_it() {
    let repo = Repo::with_commit(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
    let session =
        |kind: &str| repo.save(&["-q", "--allow-empty", "--session", "s1", "--kind", kind]);
    // As the hooks take them: at the session's start, before each tool call, at its end.
    let first = session("session");
    session("auto");
    repo.write("a.txt", "a by the agent\n");
    session("auto");
    repo.write("new.txt", "new by the agent\n");
    let last = session("session");
    // The user's own work after the session.
    repo.write("b.txt", "b by the user\n");
    let (expected, conflicts) = oracle(&repo, &first, &last);
    assert!(conflicts.is_empty());
    let out = repo.cp(&["revert", "session:s1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.oracle_tree(), expected);
    assert_eq!(repo.read("a.txt"), "a\n");
    assert!(!repo.path().join("new.txt").exists());
    assert_eq!(repo.read("b.txt"), "b by the user\n");
    assert!(
        out.stderr
            .starts_with("reverted the 2 own steps of session s1: "),
        "{}",
        out.stderr
    );
}

#[test]
fn the_newest_checkpoint_has_no_step_after_it() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let only = repo.save(&["-q", "--allow-empty"]);
    let out = repo.cp(&["revert", &only]).fails_with(1);
    out.assert_one_error_line();
    assert!(out.stderr.contains("newest"), "{}", out.stderr);
    assert!(fs::read_dir(repo.path()).is_ok());
}

/// The report says that the step was reverted, naming its ends, and a revert with nothing left
/// to take back is one line that says so; a dry run says what reverting would do.
#[test]
fn the_report_says_what_was_reverted_and_a_revert_with_nothing_to_do_is_one_line() {
    let (repo, a, b) = stepped_repo();
    let dry = repo.cp(&["revert", &a, "--dry-run"]).ok();
    assert_eq!(
        dry.stderr,
        format!(
            "dry run: reverting the change from checkpoint {a} to {b} would write 3 files and delete 1 file; nothing was changed\n"
        )
    );
    let out = repo.cp(&["revert", &a]).ok();
    let first = out.stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!("reverted the change from checkpoint {a} to {b}: 3 files written, 1 deleted")
    );
    assert!(
        !out.stderr.contains("taking back") && !out.stderr.contains("restored checkpoint"),
        "{}",
        out.stderr
    );
    // The D lines come before the W lines, as restore prints them.
    assert_eq!(out.stdout, "D  d.txt\nW  a.txt\nW  c.txt\nW  long.txt\n");
    let ids = repo.checkpoint_ids();
    let again = repo.cp(&["revert", &a]).ok();
    assert_eq!(
        again.stderr,
        format!(
            "nothing to revert: the working tree already has the change from checkpoint {a} to {b} taken back\n"
        )
    );
    assert_eq!(again.stdout, "");
    assert_eq!(
        repo.checkpoint_ids(),
        ids,
        "no safety checkpoint for nothing"
    );
}

/// `oracle`'s tree id and the text `git merge-tree` writes for `path` in it, conflict markers
/// included.
fn oracle_blob(repo: &Repo, tree: &str, path: &str) -> Vec<u8> {
    std::process::Command::new("git")
        .current_dir(repo.path())
        .args(["cat-file", "blob", &format!("{tree}:{path}")])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap()
        .stdout
}

/// Conflict markers without their labels (git labels its sides with commit ids, revert with
/// checkpoint ids): `<<<<<<< x` becomes `<<<<<<<`.
fn without_labels(text: &[u8]) -> String {
    String::from_utf8_lossy(text)
        .lines()
        .map(|l| {
            for marker in ["<<<<<<<", "|||||||", ">>>>>>>"] {
                if l.starts_with(marker) {
                    return marker.to_string();
                }
            }
            l.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A step, then later work, saved as checkpoints A and B by `step` and `later`; then the
/// revert of A..B must leave exactly the tree `git merge-tree` gives, with no conflict.
fn revert_matches_git(
    files: &[(&str, &str)],
    step: impl FnOnce(&Repo),
    later: impl FnOnce(&Repo),
) -> Repo {
    let repo = Repo::with_commit(files);
    let a = repo.save(&["-q", "--allow-empty", "-m", "before the step"]);
    step(&repo);
    let b = repo.save(&["-q", "-m", "after the step"]);
    later(&repo);
    let (expected, conflicts) = oracle(&repo, &a, &b);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    let out = repo.cp(&["revert", &a]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.oracle_tree(), expected, "{}", out.stderr);
    repo
}

#[test]
fn binary_files_are_taken_back_as_git_does() {
    let old: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
    let repo = Repo::with_commit(&[("kept.txt", "k\n")]);
    repo.write_bytes("image.bin", &old);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "binary"]);
    let a = repo.save(&["-q", "--allow-empty"]);
    let mut new = old.clone();
    new[10] = 0;
    new.extend_from_slice(b"\0more");
    repo.write_bytes("image.bin", &new);
    repo.write_bytes("added.bin", b"\0\x01\x02 added by the step");
    let b = repo.save(&["-q"]);
    repo.write("kept.txt", "changed later\n");
    let (expected, conflicts) = oracle(&repo, &a, &b);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    repo.cp(&["revert", &a]).ok();
    assert_eq!(repo.oracle_tree(), expected);
    assert_eq!(std::fs::read(repo.path().join("image.bin")).unwrap(), old);
    assert!(!repo.path().join("added.bin").exists());
    assert_eq!(repo.read("kept.txt"), "changed later\n");
}

#[test]
fn a_mode_change_is_taken_back_keeping_later_edits_as_git_does() {
    let repo = revert_matches_git(
        &[("run.sh", "#!/bin/sh\necho one\n\n\n\necho two\n")],
        |repo| repo.chmod_x("run.sh", true),
        |repo| repo.write("run.sh", "#!/bin/sh\necho one\n\n\n\necho two, later\n"),
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::metadata(repo.path().join("run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0, "the step's chmod +x is taken back");
    assert!(repo.read("run.sh").contains("two, later"));
}

#[test]
fn a_rename_is_taken_back_keeping_later_edits_as_git_does() {
    let body: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    let repo = revert_matches_git(
        &[("old-name.txt", body.as_str())],
        |repo| {
            let content = repo.read("old-name.txt");
            repo.remove("old-name.txt");
            repo.write("new-name.txt", &content);
        },
        |repo| {
            let content = repo
                .read("new-name.txt")
                .replace("line 18\n", "line 18 later\n");
            repo.write("new-name.txt", &content);
        },
    );
    assert!(!repo.path().join("new-name.txt").exists());
    assert!(repo.read("old-name.txt").contains("line 18 later"));
}

#[test]
fn symlinks_are_taken_back_as_git_does() {
    let repo = Repo::with_commit(&[("x.txt", "x\n"), ("y.txt", "y\n")]);
    repo.symlink("x.txt", "link");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "link"]);
    let a = repo.save(&["-q", "--allow-empty"]);
    repo.remove("link");
    repo.symlink("y.txt", "link");
    repo.symlink("x.txt", "new-link");
    let b = repo.save(&["-q"]);
    repo.write("y.txt", "y later\n");
    let (expected, conflicts) = oracle(&repo, &a, &b);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    repo.cp(&["revert", &a]).ok();
    assert_eq!(repo.oracle_tree(), expected);
    assert_eq!(
        fs::read_link(repo.path().join("link")).unwrap(),
        std::path::Path::new("x.txt")
    );
    assert!(fs::symlink_metadata(repo.path().join("new-link")).is_err());
}

/// With --conflicts=markers the files are what `git merge-tree` writes for them: a text
/// conflict with git's markers (labels aside), a binary one as git leaves it (the working
/// tree's version), a file the step changed and that was deleted since as git keeps it; and
/// the report says which has markers and what happened to the others.
#[test]
fn conflicts_written_with_markers_are_git_s() {
    let repo = Repo::with_commit(&[("text.txt", "one\ntwo\nthree\n"), ("gone-later.txt", "g\n")]);
    repo.write_bytes("data.bin", b"\0binary v1");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "files"]);
    let a = repo.save(&["-q", "--allow-empty"]);
    repo.write("text.txt", "one\nTWO by the step\nthree\n");
    repo.write_bytes("data.bin", b"\0binary v2 by the step");
    repo.write("gone-later.txt", "g changed by the step\n");
    let b = repo.save(&["-q"]);
    repo.write("text.txt", "one\nTWO changed later\nthree\n");
    repo.write_bytes("data.bin", b"\0binary v3 later");
    repo.remove("gone-later.txt");
    let (expected, conflicts) = oracle(&repo, &a, &b);
    assert_eq!(conflicts, ["data.bin", "gone-later.txt", "text.txt"]);
    let out = repo.cp(&["revert", &a, "--conflicts=markers"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ours = |path: &str| fs::read(repo.path().join(path)).unwrap_or_default();
    assert_eq!(
        without_labels(&ours("text.txt")),
        without_labels(&oracle_blob(&repo, &expected, "text.txt"))
    );
    assert!(String::from_utf8_lossy(&ours("text.txt")).contains("<<<<<<< "));
    assert_eq!(ours("data.bin"), oracle_blob(&repo, &expected, "data.bin"));
    assert_eq!(
        ours("gone-later.txt"),
        oracle_blob(&repo, &expected, "gone-later.txt")
    );
    // Only the text file has markers to resolve; the report says what the others are.
    let said = |path: &str| -> String {
        out.stderr
            .lines()
            .find(|l| l.contains(&format!("conflict in `{path}`")))
            .unwrap_or_else(|| panic!("{path} not reported: {}", out.stderr))
            .to_string()
    };
    assert!(
        said("text.txt").contains("resolve the markers"),
        "{}",
        out.stderr
    );
    for path in ["data.bin", "gone-later.txt"] {
        assert!(
            !said(path).contains("resolve the markers"),
            "{}",
            said(path)
        );
    }
    assert!(said("data.bin").contains("binary"), "{}", said("data.bin"));
    assert!(
        said("gone-later.txt").contains("deleted"),
        "{}",
        said("gone-later.txt")
    );
}
