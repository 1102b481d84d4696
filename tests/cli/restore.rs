//! restore and undo, checked against the file system and the git CLI.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use crate::common::{Repo, json_get, worktree_entries};

/// Everything a restore may change, path by path: kind, exec bit, content or link target.
/// `.git` is left out.
pub fn manifest(root: &Path) -> BTreeMap<String, String> {
    worktree_entries(root)
        .into_iter()
        .map(|(rel, path, md)| {
            let what = if md.file_type().is_symlink() {
                format!("link {}", fs::read_link(&path).unwrap().display())
            } else if md.is_dir() {
                "dir".into()
            } else {
                let exec = md.permissions().mode() & 0o111 != 0;
                let content = String::from_utf8_lossy(&fs::read(&path).unwrap()).into_owned();
                format!("file exec={exec} {content:?}")
            };
            (rel, what)
        })
        .collect()
}

fn base_repo() -> Repo {
    let repo = Repo::new();
    repo.write("a.txt", "alpha\n");
    repo.write("src/lib.rs", "fn main() {}\n");
    repo.write("src/deep/nested.txt", "deep\n");
    repo.write("run.sh", "#!/bin/sh\necho hi\n");
    repo.chmod_x("run.sh", true);
    repo.symlink("a.txt", "link");
    repo.write("dir-then-file/inner.txt", "inner\n");
    repo.write(".gitignore", "*.log\nbuild/\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    repo.write("untracked.txt", "not yet added\n");
    repo.write("tracked-dirty.txt", "dirty\n");
    repo
}

/// Change every kind of thing restore must put back.
fn mess_up(repo: &Repo) {
    repo.write("a.txt", "changed\n");
    repo.remove("src/deep");
    repo.write("new/dir/file.txt", "added\n");
    repo.chmod_x("run.sh", false);
    repo.remove("link");
    repo.symlink("src", "link");
    // file -> directory and directory -> file
    repo.remove("untracked.txt");
    repo.write("untracked.txt/now-a-dir", "x\n");
    repo.remove("dir-then-file");
    repo.write("dir-then-file", "now a file\n");
    repo.write("debug.log", "ignored, must survive\n");
}

fn save(repo: &Repo, args: &[&str]) -> String {
    let mut all = vec!["save", "-q"];
    all.extend_from_slice(args);
    let out = repo.cp(&all);
    assert_eq!(out.code, 0, "save failed: {}", out.stderr);
    out.stdout.trim().to_string()
}

#[test]
fn restore_brings_back_everything_and_is_undoable() {
    let repo = base_repo();
    let saved = manifest(repo.path());
    let id = save(&repo, &["-m", "base"]);
    mess_up(&repo);
    let messed = manifest(repo.path());
    let fingerprint = repo.fingerprint();

    let out = repo.cp(&["restore", &id]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut expected = saved.clone();
    expected.insert(
        "debug.log".into(),
        messed["debug.log"].clone(), // ignored: never deleted
    );
    assert_eq!(manifest(repo.path()), expected);
    assert_eq!(
        repo.fingerprint(),
        fingerprint,
        "HEAD, index, branches, stash untouched"
    );
    assert!(
        out.stderr.contains("git checkpoint restore"),
        "{}",
        out.stderr
    );

    // The pre-restore checkpoint brings the messed-up state back exactly.
    let back = repo.cp(&["restore", "@"]);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(manifest(repo.path()), messed);
    assert!(repo.git_ok(&["fsck", "--strict"]));
}

#[test]
fn restore_writes_only_what_differs() {
    let repo = base_repo();
    let id = save(&repo, &[]);
    let untouched = repo.path().join("src/lib.rs");
    let before = fs::metadata(&untouched).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    repo.write("a.txt", "changed\n");
    let out = repo.cp(&["restore", &id, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(r#""write":["a.txt"]"#),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(r#""delete":[]"#), "{}", out.stdout);
    let after = fs::metadata(&untouched).unwrap();
    assert_eq!(before.ino(), after.ino());
    assert_eq!(before.mtime_nsec(), after.mtime_nsec());
    assert_eq!(before.mtime(), after.mtime());
}

#[test]
fn restore_of_paths_touches_only_those_paths() {
    let repo = base_repo();
    let id = save(&repo, &[]);
    repo.write("a.txt", "changed\n");
    repo.write("src/lib.rs", "changed too\n");
    let out = repo.cp_in("src", &["restore", &id, "--", "lib.rs"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.read("src/lib.rs"), "fn main() {}\n");
    assert_eq!(repo.read("a.txt"), "changed\n");
}

/// A path that matches nothing, in the checkpoint or in the working tree, is an error naming it
/// before anything changes, as git's `pathspec … did not match`; git itself is the oracle.
#[test]
fn a_path_that_matches_nothing_is_an_error_before_anything_changes() {
    let repo = base_repo();
    let id = save(&repo, &[]);
    repo.write("src/lib.rs", "changed\n");
    repo.write("build/out.o", "ignored\n");
    repo.write("only-now.txt", "untracked, not in the checkpoint\n");
    let before = manifest(repo.path());
    let refs = repo.git(&["for-each-ref"]);
    for (cwd, typo, shown) in [
        (".", "src/mian.rs", "src/mian.rs"),
        ("src", "mian.rs", "src/mian.rs"),
        (".", "nowhere/", "nowhere"),
    ] {
        for extra in [&[][..], &["--dry-run"], &["--json"]] {
            let mut args = vec!["restore", id.as_str()];
            args.extend_from_slice(extra);
            args.extend_from_slice(&["--", "src/lib.rs", typo]);
            if cwd == "src" {
                args.pop();
                args.pop();
                args.extend_from_slice(&["lib.rs", typo]);
            }
            let out = repo.cp_in(cwd, &args).fails_with(1);
            out.assert_one_error_line();
            assert!(
                out.stderr
                    .starts_with(&format!("error: pathspec `{shown}` did not match any file in checkpoint {id} or the working tree")),
                "{args:?}: {}",
                out.stderr
            );
            assert_eq!(out.stdout, "");
        }
    }
    // git agrees that these match nothing.
    let source = format!("--source=refs/checkpoints/{id}");
    assert!(!repo.git_ok(&["restore", &source, "--", "src/mian.rs"]));
    assert_eq!(manifest(repo.path()), before, "nothing was restored");
    assert_eq!(
        repo.git(&["for-each-ref"]),
        refs,
        "no pre-restore checkpoint"
    );

    // An ignored file matches nothing restore can touch: said so, and still an error.
    let out = repo
        .cp(&["restore", &id, "--", "build/out.o"])
        .fails_with(1);
    assert!(
        out.stderr.contains("pathspec `build/out.o` did not match")
            && out
                .stderr
                .contains("it exists in the working tree, but checkpoints leave it out"),
        "{}",
        out.stderr
    );
    assert_eq!(manifest(repo.path()), before);

    // A path in the working tree only (deleted by the restore), in the checkpoint only, or a
    // directory, is fine.
    repo.remove("run.sh");
    repo.cp(&["restore", &id, "--", "only-now.txt", "run.sh", "src"])
        .ok();
    assert!(!repo.path().join("only-now.txt").exists());
    assert_eq!(repo.read("run.sh"), "#!/bin/sh\necho hi\n");
    assert_eq!(repo.read("src/lib.rs"), "fn main() {}\n");
    assert_eq!(repo.read("build/out.o"), "ignored\n");
}

/// The index is left alone by a restore without --staged: when it differs from what was staged
/// at the checkpoint for the files restored (here a file staged as new, now unstaged), `git
/// status` shows them otherwise than then, and restore says so and points to --staged.
#[test]
fn a_restore_says_when_the_index_differs_from_what_was_staged_then() {
    let repo = base_repo();
    repo.write("feature.rs", "new\n");
    repo.git(&["add", "feature.rs"]);
    let status_then = repo.git(&["status", "--porcelain", "--untracked-files=all"]);
    assert!(status_then.contains("A  feature.rs"), "{status_then}");
    let id = save(&repo, &[]);
    // The user unstages it and deletes it: the restore brings the file back, untracked.
    repo.git(&["rm", "-q", "--cached", "feature.rs"]);
    repo.remove("feature.rs");
    let out = repo.cp(&["restore", &id]).ok();
    assert!(
        out.stderr.contains("hint: the index was left as it is, and for `feature.rs` it differs from what was staged")
            && out.stderr.contains("--staged"),
        "{}",
        out.stderr
    );
    let status_now = repo.git(&["status", "--porcelain", "--untracked-files=all"]);
    assert!(status_now.contains("?? feature.rs"), "{status_now}");
    // The JSON says the same; with --staged there is nothing to say, and `git status` is as then.
    repo.git(&["rm", "-q", "--cached", "--ignore-unmatch", "feature.rs"]);
    repo.remove("feature.rs");
    let json = repo.cp(&["restore", &id, "--json"]).ok();
    assert_eq!(
        json_get(&json.stdout, "index_mismatch"),
        r#"["feature.rs"]"#
    );
    repo.remove("feature.rs");
    let staged = repo.cp(&["restore", &id, "--staged", "--json"]).ok();
    assert_eq!(json_get(&staged.stdout, "index_mismatch"), "[]");
    assert!(!staged.stderr.contains("hint:"), "{}", staged.stderr);
    assert_eq!(
        repo.git(&["status", "--porcelain", "--untracked-files=all"]),
        status_then
    );
    // A restore whose files agree with the index says nothing of it.
    repo.write("a.txt", "changed\n");
    let quiet = repo.cp(&["restore", &id, "--", "a.txt"]).ok();
    assert!(!quiet.stderr.contains("hint:"), "{}", quiet.stderr);
    assert!(quiet.stderr.contains("1 file written"), "{}", quiet.stderr);
}

#[test]
fn dry_run_changes_nothing_and_saves_nothing() {
    let repo = base_repo();
    let id = save(&repo, &[]);
    mess_up(&repo);
    let before = manifest(repo.path());
    let refs = repo.git(&["for-each-ref"]);
    let objects = repo.object_files();
    let out = repo.cp(&["restore", &id, "--dry-run", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains(r#""dry_run":true"#), "{}", out.stdout);
    assert!(out.stdout.contains("\"a.txt\""), "{}", out.stdout);
    assert!(
        out.stdout.contains("\"new/dir/file.txt\""),
        "{}",
        out.stdout
    );
    assert_eq!(manifest(repo.path()), before);
    assert_eq!(repo.git(&["for-each-ref"]), refs);
    assert_eq!(repo.object_files(), objects, "a dry run writes no object");
}

#[test]
fn ignored_file_in_the_way_is_refused_then_kept_with_force() {
    let repo = Repo::new();
    repo.write(".gitignore", "build/\n");
    repo.write("build", "a tracked file named build\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = save(&repo, &[]);
    repo.git(&["rm", "-q", "build"]);
    repo.git(&["commit", "-qm", "drop build"]);
    repo.write("build/output.bin", "precious build output\n");
    let before = manifest(repo.path());

    let out = repo.cp(&["restore", &id]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.starts_with("error:"), "{}", out.stderr);
    assert!(out.stderr.contains("build"), "{}", out.stderr);
    assert_eq!(manifest(repo.path()), before, "nothing changed");

    let forced = repo.cp(&["restore", &id, "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(repo.read("build"), "a tracked file named build\n");
    // The ignored content is in the pre-restore checkpoint, and comes back from it.
    let pre = repo.git(&[
        "for-each-ref",
        "--sort=-refname",
        "--count=1",
        "--format=%(refname)",
        "refs/checkpoints/",
    ]);
    assert_eq!(
        repo.git(&["show", &format!("{pre}:build/output.bin")]),
        "precious build output"
    );
    let back = repo.cp(&["restore", "@", "--force"]);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(repo.read("build/output.bin"), "precious build output\n");
}

#[test]
fn refuses_during_a_merge_unless_forced() {
    let (repo, id) = conflicting_branches();
    assert!(!repo.git_ok(&["merge", "-q", "other"]));
    let out = repo.cp(&["restore", &id]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("merge is in progress"),
        "{}",
        out.stderr
    );
    let forced = repo.cp(&["restore", &id, "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(repo.read("f"), "base\n");
    assert!(
        forced.stderr.contains("HEAD has moved"),
        "{}",
        forced.stderr
    );
}

#[test]
fn staged_restores_the_index_and_only_with_the_flag() {
    let repo = base_repo();
    repo.write("a.txt", "staged version\n");
    repo.git(&["add", "a.txt"]);
    repo.write("a.txt", "worktree version\n");
    let id = save(&repo, &[]);
    let staged_diff = repo.git(&["diff", "--cached", "--numstat"]);
    repo.git(&["reset", "-q"]);
    repo.write("a.txt", "something else\n");

    let plain = repo.cp(&["restore", &id]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert_eq!(
        repo.git(&["diff", "--cached", "--numstat"]),
        "",
        "index untouched"
    );
    assert_eq!(repo.read("a.txt"), "worktree version\n");

    let staged = repo.cp(&["restore", &id, "--staged"]);
    assert_eq!(staged.code, 0, "{}", staged.stderr);
    assert_eq!(repo.git(&["diff", "--cached", "--numstat"]), staged_diff);
    assert_eq!(repo.git(&["show", ":a.txt"]), "staged version");
    assert!(repo.git_ok(&["fsck", "--strict"]));
}

/// `--staged -- PATHS` restores the staged state of those paths only, as `git restore
/// --staged --source=<index commit> -- PATHS` does: what is staged for other paths now stays.
#[test]
fn staged_with_paths_restores_only_their_index_entries() {
    let repo = Repo::with_commit(&[("a.txt", "a\n"), ("b.txt", "b\n"), ("dir/c.txt", "c\n")]);
    repo.write("a.txt", "a staged then\n");
    repo.write("b.txt", "b staged then\n");
    repo.write("dir/c.txt", "c staged then\n");
    repo.write("dir/new.txt", "new, staged then\n");
    repo.git(&["add", "-A"]);
    let id = save(&repo, &[]);
    let index_commit = repo.parents(&id).last().unwrap().clone();
    // Other work staged since, on every path.
    repo.write("a.txt", "a staged now\n");
    repo.write("b.txt", "b staged now\n");
    repo.write("dir/c.txt", "c staged now\n");
    repo.remove("dir/new.txt");
    repo.git(&["add", "-A"]);

    // The oracle: git restore on a copy of the index.
    let copy = repo.scratch().join("oracle-index");
    fs::copy(repo.path().join(".git/index"), &copy).unwrap();
    let env = [("GIT_INDEX_FILE", copy.to_str().unwrap())];
    repo.git_env(
        &env,
        &[
            "restore",
            "--staged",
            &format!("--source={index_commit}"),
            "--",
            "a.txt",
            "dir",
        ],
    );
    let expected = repo.git_env(&env, &["ls-files", "-s"]);

    repo.cp(&["restore", "-q", &id, "--staged", "--", "a.txt", "dir"])
        .ok();
    assert_eq!(repo.git(&["ls-files", "-s"]), expected);
    assert_eq!(repo.git(&["show", ":b.txt"]), "b staged now");
    assert_eq!(repo.git(&["show", ":a.txt"]), "a staged then");
    assert_eq!(repo.git(&["show", ":dir/new.txt"]), "new, staged then");
    assert_eq!(
        repo.read("b.txt"),
        "b staged now\n",
        "b.txt's file is not touched either"
    );
    assert!(repo.git_ok(&["fsck", "--strict"]));
}

#[test]
fn a_restore_that_fails_part_way_puts_the_tree_back() {
    let repo = Repo::new();
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.write("z-big.txt", &"x".repeat(200_000));
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = save(&repo, &["--allow-empty"]);
    repo.write("a.txt", "a changed\n");
    repo.write("b.txt", "b changed\n");
    repo.remove("z-big.txt");
    let before = manifest(repo.path());

    // Files above 64 KiB cannot be written: the restore fails on z-big.txt, after a and b.
    let out = repo.cp_with_shell_prefix("trap '' XFSZ; ulimit -f 64;", &["restore", &id]);
    assert_eq!(out.code, 1, "stdout: {} stderr: {}", out.stdout, out.stderr);
    assert!(out.stderr.contains("z-big.txt"), "{}", out.stderr);
    assert!(out.stderr.contains("put back"), "{}", out.stderr);
    assert_eq!(manifest(repo.path()), before);
    // Put back: nothing is left for the next command to complete.
    assert_eq!(fs::read(journal_path(&repo)).unwrap(), b"");
    let next = repo.cp(&["save"]).ok();
    assert!(!next.stderr.contains("interrupted"), "{}", next.stderr);
}

/// Write a raw tree object (entries given as mode, name, object id) with the git CLI.
pub(crate) fn raw_tree(repo: &Repo, entries: &[(&str, &[u8], &str)]) -> String {
    let mut bytes = Vec::new();
    for (mode, name, id) in entries {
        bytes.extend_from_slice(mode.as_bytes());
        bytes.push(b' ');
        bytes.extend_from_slice(name);
        bytes.push(0);
        for i in (0..id.len()).step_by(2) {
            bytes.push(u8::from_str_radix(&id[i..i + 2], 16).unwrap());
        }
    }
    repo.git_stdin(
        &["hash-object", "-t", "tree", "--literally", "-w", "--stdin"],
        &bytes,
    )
}

/// Make a checkpoint ref (without a note) pointing at a commit of `tree`.
pub(crate) fn plant_checkpoint(repo: &Repo, id: &str, tree: &str) {
    let commit = repo.git(&[
        "commit-tree",
        tree,
        "-m",
        &format!("checkpoint: hostile\n\nCheckpoint-Id: {id}\nCheckpoint-Kind: manual"),
    ]);
    repo.git(&["update-ref", &format!("refs/checkpoints/{id}"), &commit]);
}

#[test]
fn hostile_trees_are_refused_before_anything_is_written() {
    let repo = Repo::new();
    repo.write("keep.txt", "keep\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let blob = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"pwned\n");
    let outside = repo.path().parent().unwrap().join("outside-target");
    let _ = fs::remove_file(&outside);
    let hooks = raw_tree(&repo, &[("100755", b"post-checkout", &blob)]);
    let cases: Vec<(&str, String)> = vec![
        ("dotdot", raw_tree(&repo, &[("100644", b"..", &blob)])),
        ("dotgit", raw_tree(&repo, &[("40000", b".git", &hooks)])),
        (
            "dotgit-upper",
            raw_tree(&repo, &[("40000", b".GIT", &hooks)]),
        ),
        ("dot", raw_tree(&repo, &[("100644", b".", &blob)])),
        (
            "slash",
            raw_tree(&repo, &[("100644", b"../outside-target", &blob)]),
        ),
        ("symlink-then-dir", {
            let link = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"..");
            let sub = raw_tree(&repo, &[("100644", b"outside-target", &blob)]);
            raw_tree(&repo, &[("120000", b"d", &link), ("40000", b"d", &sub)])
        }),
    ];
    let git_dir_before = repo.git_dir_manifest();
    let before = manifest(repo.path());
    for (i, (name, tree)) in cases.iter().enumerate() {
        let id = format!("20200101-00000{i}-000aaa");
        plant_checkpoint(&repo, &id, tree);
        let out = repo.cp(&["restore", &id]);
        assert_eq!(out.code, 1, "{name}: {} {}", out.stdout, out.stderr);
        assert!(
            out.stderr.lines().any(|l| l.starts_with("error: refusing")),
            "{name}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("panicked"), "{name}: {}", out.stderr);
        assert!(!outside.exists(), "{name}: wrote outside the working tree");
        assert_eq!(
            manifest(repo.path()),
            before,
            "{name}: working tree changed"
        );
        assert!(!repo.path().join(".git/post-checkout").exists(), "{name}");
        assert!(
            !repo.path().join(".git/hooks/post-checkout").exists(),
            "{name}"
        );
    }
    // Only refs and objects may have changed inside .git (the planted checkpoints: loose refs,
    // or tables of a reftable stack), besides restore's own lock file, which holds nothing
    // since nothing was written.
    let refs = |p: &String| p.starts_with("refs/checkpoints/") || p.starts_with("reftable/");
    let after: Vec<_> = repo
        .git_dir_manifest()
        .into_iter()
        .filter(|p| !p.starts_with("objects/") && !refs(p))
        .filter(|p| p != "checkpoint-restore")
        .collect();
    assert_eq!(
        fs::read(repo.path().join(".git/checkpoint-restore")).unwrap_or_default(),
        b""
    );
    let before: Vec<_> = git_dir_before
        .into_iter()
        .filter(|p| !p.starts_with("objects/") && !refs(p))
        .collect();
    assert_eq!(after, before);
}

#[test]
fn restore_never_writes_through_a_symlink_in_the_working_tree() {
    let repo = Repo::new();
    repo.write("d/file.txt", "inside\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = save(&repo, &[]);
    // Replace the directory by a symlink pointing outside the working tree.
    let outside = tempfile::tempdir().unwrap();
    repo.remove("d/file.txt");
    fs::remove_dir(repo.path().join("d")).unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.path().join("d")).unwrap();
    let out = repo.cp(&["restore", &id]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        fs::read_dir(outside.path()).unwrap().count(),
        0,
        "nothing written outside"
    );
    assert!(
        !fs::symlink_metadata(repo.path().join("d"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(repo.read("d/file.txt"), "inside\n");
}

#[test]
fn undo_walks_back_and_each_undo_is_undoable() {
    let repo = Repo::new();
    repo.write("f", "v1\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "v1"]);
    save(&repo, &[]);
    repo.write("f", "v2\n");
    save(&repo, &[]);
    repo.write("f", "v3\n");
    save(&repo, &[]);
    repo.write("f", "v4 unsaved\n");

    let out = repo.cp(&["undo"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.read("f"), "v3\n");
    let out = repo.cp(&["undo"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.read("f"), "v2\n");
    // Undo the undo.
    let out = repo.cp(&["restore", "@"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.read("f"), "v3\n");
    let out = repo.cp(&["undo", "2"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.read("f"), "v1\n");
    // The unsaved v4 is still reachable through the first pre-restore checkpoint.
    let v4 = repo.git(&["log", "--all", "--format=%H", "--grep", "before restoring"]);
    assert!(
        v4.lines()
            .any(|c| repo.git(&["show", &format!("{c}:f")]) == "v4 unsaved"),
        "v4 lost"
    );
    let none = repo.cp(&["undo", "9"]);
    assert_eq!(none.code, 1);
    assert!(none.stderr.contains("nothing to undo"), "{}", none.stderr);
}

/// A repository with a conflict between `main` and `other` on `f`, and a checkpoint taken
/// before any of it.
fn conflicting_branches() -> (Repo, String) {
    let repo = Repo::new();
    repo.write("f", "base\n");
    repo.git(&["add", "f"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = save(&repo, &["--allow-empty"]);
    repo.git(&["checkout", "-qb", "other"]);
    repo.write("f", "theirs\n");
    repo.git(&["commit", "-qam", "theirs"]);
    repo.git(&["checkout", "-q", "main"]);
    repo.write("f", "ours\n");
    repo.git(&["commit", "-qam", "ours"]);
    (repo, id)
}

#[test]
fn refuses_during_rebase_cherry_pick_revert_and_bisect_unless_forced() {
    type Start = fn(&Repo);
    let cases: [(&str, Start); 4] = [
        ("a rebase", |r| {
            assert!(!r.git_ok(&["rebase", "-q", "other"]))
        }),
        ("a cherry-pick", |r| {
            assert!(!r.git_ok(&["cherry-pick", "other"]))
        }),
        ("a revert", |r| {
            // Reverting "theirs" on top of a branch that changed f again conflicts.
            r.git(&["checkout", "-q", "other"]);
            r.write("f", "theirs, edited\n");
            r.git(&["commit", "-qam", "edit"]);
            assert!(!r.git_ok(&["revert", "--no-edit", "HEAD~1"]));
        }),
        ("a bisect", |r| {
            r.git(&["bisect", "start"]);
            r.git(&["bisect", "bad"]);
        }),
    ];
    for (what, start) in cases {
        let (repo, id) = conflicting_branches();
        start(&repo);
        let before = manifest(repo.path());
        let fingerprint = repo.fingerprint();
        let out = repo.cp(&["restore", &id]).fails_with(1);
        assert!(
            out.stderr.contains(&format!("{what} is in progress")),
            "{what}: {}",
            out.stderr
        );
        assert_eq!(manifest(repo.path()), before, "{what}");
        assert_eq!(repo.fingerprint(), fingerprint, "{what}");
        let undo = repo.cp(&["undo"]).fails_with(1);
        assert!(
            undo.stderr.contains("in progress"),
            "{what}: {}",
            undo.stderr
        );
        repo.cp(&["restore", &id, "--force"]).ok();
        assert_eq!(repo.read("f"), "base\n", "{what}");
    }
}

#[test]
fn staged_is_refused_when_the_checkpoint_index_was_unmerged() {
    let (repo, _) = conflicting_branches();
    assert!(!repo.git_ok(&["merge", "-q", "other"]));
    let id = save(&repo, &[]);
    assert_eq!(repo.note_json(&id).get("index"), "unmerged");
    repo.git(&["merge", "--abort"]);
    repo.write("f", "later\n");
    let before = manifest(repo.path());
    let fingerprint = repo.fingerprint();
    let out = repo.cp(&["restore", &id, "--staged"]).fails_with(1);
    out.assert_one_error_line();
    assert!(out.stderr.contains("unmerged"), "{}", out.stderr);
    assert_eq!(manifest(repo.path()), before);
    assert_eq!(repo.fingerprint(), fingerprint);
    // Without --staged it restores the files.
    repo.cp(&["restore", &id]).ok();
    assert_eq!(repo.fingerprint(), fingerprint);
    assert!(repo.read("f").contains("<<<<<<<"), "{}", repo.read("f"));
}

#[test]
fn a_tree_entry_with_an_empty_name_is_refused() {
    let repo = Repo::with_commit(&[("keep.txt", "keep\n")]);
    let blob = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"x\n");
    let before = manifest(repo.path());
    let top = raw_tree(&repo, &[("100644", b"", &blob)]);
    let sub = raw_tree(&repo, &[("100644", b"", &blob)]);
    let nested = raw_tree(&repo, &[("40000", b"d", &sub)]);
    for (i, tree) in [top, nested].iter().enumerate() {
        let id = format!("20200101-00000{i}-000bbb");
        plant_checkpoint(&repo, &id, tree);
        let out = repo.cp(&["restore", &id]);
        assert_eq!(out.code, 1, "{i}: {}", out.stderr);
        out.assert_no_panic();
        assert!(
            out.stderr.lines().any(|l| l.starts_with("error: refusing")),
            "{i}: {}",
            out.stderr
        );
        assert_eq!(manifest(repo.path()), before, "{i}");
    }
}

#[test]
fn a_stash_entry_survives_save_and_restore_untouched() {
    let repo = Repo::with_commit(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
    repo.write("a.txt", "stashed change\n");
    repo.git(&["stash", "push", "-q", "-m", "my stash"]);
    let list = repo.git(&["stash", "list"]);
    let stash = repo.git(&["rev-parse", "refs/stash"]);
    repo.write("b.txt", "edit\n");
    let id = save(&repo, &[]);
    repo.write("b.txt", "other edit\n");
    repo.write("c.txt", "new\n");
    repo.cp(&["restore", &id]).ok();
    assert_eq!(repo.read("b.txt"), "edit\n");
    repo.cp(&["restore", "@"]).ok();
    assert_eq!(repo.read("c.txt"), "new\n");
    repo.cp(&["restore", &id, "--staged"]).ok();
    assert_eq!(repo.git(&["stash", "list"]), list);
    assert_eq!(repo.git(&["rev-parse", "refs/stash"]), stash);
    repo.git(&["checkout", "-q", "--", "."]);
    repo.git(&["stash", "pop", "-q"]);
    assert_eq!(repo.read("a.txt"), "stashed change\n");
}
/// The newest checkpoint id (greatest ref name).
fn newest(repo: &Repo) -> String {
    repo.checkpoint_ids().pop().expect("a checkpoint")
}

#[test]
fn no_save_never_replaces_ignored_content_even_with_force() {
    let repo = Repo::new();
    repo.write(".gitignore", "build/\n*.log\n");
    repo.write("build", "a tracked file named build\n");
    repo.write("keep.log", "tracked version\n");
    repo.git(&["add", "-A"]);
    repo.git(&["add", "-f", "keep.log"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = save(&repo, &[]);
    repo.git(&["rm", "-q", "--cached", "build", "keep.log"]);
    repo.git(&["commit", "-qm", "untrack"]);
    repo.remove("build");
    repo.write("build/output.bin", "precious build output\n");
    repo.write("keep.log", "precious log\n");
    let before = manifest(repo.path());
    let checkpoints = repo.checkpoint_ids();

    let out = repo
        .cp(&["restore", &id, "--no-save", "--force"])
        .fails_with(1);
    out.assert_one_error_line();
    assert!(out.stderr.contains("`build`"), "{}", out.stderr);
    assert!(out.stderr.contains("`keep.log`"), "{}", out.stderr);
    assert!(out.stderr.contains("--no-save"), "{}", out.stderr);
    assert_eq!(manifest(repo.path()), before, "nothing changed");
    assert_eq!(repo.checkpoint_ids(), checkpoints, "nothing saved");

    // Without --no-save, --force keeps them in the pre-restore checkpoint.
    repo.cp(&["restore", &id, "--force"]).ok();
    assert_eq!(repo.read("keep.log"), "tracked version\n");
    let pre = newest(&repo);
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{pre}:keep.log")]),
        "precious log"
    );
}

#[test]
fn an_ignored_file_in_the_way_is_refused_unless_forced_and_kept() {
    let repo = Repo::new();
    repo.write(".gitignore", "*.log\n");
    repo.write("a.txt", "a\n");
    repo.write("keep.log", "tracked version\n");
    repo.git(&["add", "-A"]);
    repo.git(&["add", "-f", "keep.log"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = save(&repo, &[]);
    repo.git(&["rm", "-q", "--cached", "keep.log"]);
    repo.git(&["commit", "-qm", "untrack"]);

    // The same content is no obstacle: nothing would be lost.
    repo.write("a.txt", "changed\n");
    repo.cp(&["restore", &id]).ok();
    assert_eq!(repo.read("a.txt"), "a\n");

    repo.write("keep.log", "only on disk\n");
    let before = manifest(repo.path());
    let out = repo.cp(&["restore", &id]).fails_with(1);
    assert!(
        out.stderr.contains("ignored") && out.stderr.contains("`keep.log`"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("maxFileSize"), "{}", out.stderr);
    assert_eq!(manifest(repo.path()), before);

    let forced = repo.cp(&["restore", &id, "--force", "--json"]).ok();
    assert!(
        forced.stdout.contains(r#""replaced_ignored":["keep.log"]"#),
        "{}",
        forced.stdout
    );
    assert_eq!(repo.read("keep.log"), "tracked version\n");
    let pre = newest(&repo);
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{pre}:keep.log")]),
        "only on disk"
    );
}

#[test]
fn a_size_skipped_file_in_the_way_is_named_as_such() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    repo.git(&["config", "checkpoint.maxFileSize", "1k"]);
    repo.write("data.bin", "small, saved\n");
    let id = save(&repo, &[]);
    repo.write("data.bin", &"x".repeat(4096));
    let before = manifest(repo.path());

    let out = repo.cp(&["restore", &id]).fails_with(1);
    out.assert_one_error_line();
    assert!(out.stderr.contains("`data.bin`"), "{}", out.stderr);
    assert!(
        out.stderr.contains("larger than checkpoint.maxFileSize"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("ignored"), "{}", out.stderr);
    assert_eq!(manifest(repo.path()), before);

    // --force keeps it in the pre-restore checkpoint, whatever its size.
    repo.cp(&["restore", &id, "--force"]).ok();
    assert_eq!(repo.read("data.bin"), "small, saved\n");
    let pre = newest(&repo);
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{pre}:data.bin")]),
        "x".repeat(4096)
    );
}

/// Everything of a nested repository that restore must never change: its work tree files,
/// its HEAD and its index.
fn nested_state(repo: &Repo, dir: &str) -> String {
    let path = repo.path().join(dir);
    format!(
        "{:?}\nHEAD {}\nindex {}",
        manifest(&path),
        repo.git_in_dir(&path, &["rev-parse", "HEAD"]),
        repo.git_in_dir(&path, &["ls-files", "-s"]),
    )
}

#[test]
fn restore_never_writes_into_a_nested_repository() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    repo.write("emb/f", "plain f\n");
    repo.write("emb/g", "plain g\n");
    let id = save(&repo, &[]);
    repo.remove("emb");
    repo.write("emb/f", "nested f\n");
    repo.git_in_dir(&repo.path().join("emb"), &["init", "-q", "-b", "main"]);
    repo.git_in_dir(&repo.path().join("emb"), &["add", "f"]);
    repo.git_in_dir(&repo.path().join("emb"), &["commit", "-qm", "nested"]);
    repo.write("a.txt", "changed\n");
    let nested = nested_state(&repo, "emb");
    let before = manifest(repo.path());

    for args in [&["restore", &id][..], &["restore", &id, "--force"][..]] {
        let out = repo.cp(args).fails_with(1);
        out.assert_one_error_line();
        assert!(out.stderr.contains("`emb`"), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("nested"), "{args:?}: {}", out.stderr);
        assert_eq!(nested_state(&repo, "emb"), nested, "{args:?}");
        assert_eq!(manifest(repo.path()), before, "{args:?}: nothing changed");
    }
    // Paths outside the nested repository still restore.
    repo.cp(&["restore", &id, "--", "a.txt"]).ok();
    assert_eq!(repo.read("a.txt"), "a\n");
    assert_eq!(nested_state(&repo, "emb"), nested);
}

#[test]
fn restore_never_deletes_inside_a_nested_repository() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let id = save(&repo, &["--allow-empty"]);
    // A directory the parent tracks, that later became a repository of its own.
    repo.write("lib/x.txt", "tracked by both\n");
    repo.git(&["add", "lib/x.txt"]);
    repo.git(&["commit", "-qm", "lib"]);
    let lib = repo.path().join("lib");
    repo.git_in_dir(&lib, &["init", "-q", "-b", "main"]);
    repo.git_in_dir(&lib, &["add", "x.txt"]);
    repo.git_in_dir(&lib, &["commit", "-qm", "nested"]);
    let nested = nested_state(&repo, "lib");

    let out = repo.cp(&["restore", &id, "--force"]).fails_with(1);
    assert!(out.stderr.contains("`lib`"), "{}", out.stderr);
    assert!(out.stderr.contains("nested"), "{}", out.stderr);
    assert_eq!(nested_state(&repo, "lib"), nested);
    assert_eq!(repo.read("lib/x.txt"), "tracked by both\n");
}

/// A repository next to the test's, with one commit, to add as a submodule.
fn submodule_source(repo: &Repo) -> std::path::PathBuf {
    let src = repo.scratch().join("sub-src");
    fs::create_dir_all(&src).unwrap();
    repo.git_in_dir(&src, &["init", "-q", "-b", "main"]);
    fs::write(src.join("x"), "from the submodule\n").unwrap();
    repo.git_in_dir(&src, &["add", "x"]);
    repo.git_in_dir(&src, &["commit", "-qm", "sub"]);
    src
}

#[test]
fn restore_never_touches_submodule_contents() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let base = save(&repo, &["--allow-empty"]);
    repo.write("sub/x", "a plain file\n");
    repo.write("sub/y", "another\n");
    let plain = save(&repo, &[]);
    repo.remove("sub");
    let src = submodule_source(&repo);
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        src.to_str().unwrap(),
        "sub",
    ]);
    repo.git(&["commit", "-qm", "add submodule"]);
    let nested = nested_state(&repo, "sub");
    let fingerprint = repo.fingerprint();

    // The checkpoint wants files where the submodule's files are.
    for args in [
        &["restore", &plain][..],
        &["restore", &plain, "--force"][..],
    ] {
        let out = repo.cp(args).fails_with(1);
        assert!(out.stderr.contains("`sub`"), "{args:?}: {}", out.stderr);
        assert_eq!(nested_state(&repo, "sub"), nested, "{args:?}");
    }
    // A checkpoint without the submodule keeps it, untouched, and says so.
    let out = repo.cp(&["restore", &base]).ok();
    assert!(out.stderr.contains("kept `sub`"), "{}", out.stderr);
    assert_eq!(nested_state(&repo, "sub"), nested);
    assert_eq!(repo.fingerprint(), fingerprint);
}
#[test]
fn a_killed_restore_leaves_no_temporary_file_in_the_working_tree() {
    use std::process::{Command, Stdio};
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    // Large enough that writing it takes a while, so the kill lands during the write.
    let big: String = (0..400_000).map(|i| format!("{i:08}\n")).collect();
    repo.write("big.txt", &big);
    let id = save(&repo, &[]);
    let tmp_dir = repo.path().join(".git/checkpoint-tmp");
    let is_temp = |name: &str| name.contains(".checkpoint-");
    let mut caught = 0;
    for _ in 0..20 {
        repo.remove("big.txt");
        let mut cmd = Command::new(crate::common::bin());
        cmd.args(["restore", "-q", &id])
            .current_dir(repo.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        repo.env(&mut cmd);
        let mut child = cmd.spawn().unwrap();
        // Kill it as soon as its temporary file exists, wherever it is.
        loop {
            let in_tree = fs::read_dir(repo.path())
                .unwrap()
                .flatten()
                .any(|e| is_temp(&e.file_name().to_string_lossy()));
            let in_git_dir = fs::read_dir(&tmp_dir).is_ok_and(|mut d| d.next().is_some());
            if in_tree || in_git_dir {
                child.kill().unwrap();
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
        }
        // Caught only if it died of the kill, not if it had just finished.
        if std::os::unix::process::ExitStatusExt::signal(&child.wait().unwrap()) == Some(9) {
            caught += 1;
        }
        let strays: Vec<String> = fs::read_dir(repo.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| is_temp(n))
            .collect();
        assert!(strays.is_empty(), "left in the working tree: {strays:?}");
        if caught > 0 {
            break;
        }
    }
    assert!(caught > 0, "the restore was never caught writing");
    // The next save completes the killed restore, sweeps its temporary file, and holds none.
    let next = repo.cp(&["save", "--allow-empty"]).ok();
    assert!(
        next.stderr
            .contains(&format!("completed an interrupted restore of {id}")),
        "{}",
        next.stderr
    );
    assert_eq!(repo.read("big.txt"), big);
    assert!(
        repo.checkpoint_files(&next.id())
            .iter()
            .all(|p| !is_temp(p)),
        "{:?}",
        repo.checkpoint_files(&next.id())
    );
    assert!(
        fs::read_dir(&tmp_dir).map_or(true, |mut d| d.next().is_none()),
        "temporary files of the killed run are swept"
    );
}

/// The restore journal and lock in the git dir.
pub(crate) fn journal_path(repo: &Repo) -> std::path::PathBuf {
    repo.path().join(".git/checkpoint-restore")
}

/// What a restore of `target` writes in its journal before changing the working tree.
fn plant_journal(repo: &Repo, target: &str, safety: Option<&str>) {
    let commit = repo.checkpoint_commit(target);
    let safety = safety.map_or("null".to_string(), |s| format!("\"{s}\""));
    fs::write(
        journal_path(repo),
        format!(
            r#"{{"version":1,"target":"{target}","commit":"{commit}","safety":{safety},"paths":[],"staged":false,"force":false}}"#
        ),
    )
    .unwrap();
}

/// A restore of `target` from the state `safety` holds, killed part-way: its journal, and a
/// working tree where only some of the target's files were written.
fn interrupted_restore() -> (Repo, String, String) {
    let repo = Repo::with_commit(&[("a.txt", "a\n"), ("b.txt", "b\n"), ("c.txt", "c\n")]);
    repo.write("new.txt", "only in the target\n");
    let target = save(&repo, &["-m", "target"]);
    repo.write("a.txt", "a before\n");
    repo.write("b.txt", "b before\n");
    repo.remove("new.txt");
    repo.write("extra.txt", "only before\n");
    let safety = save(&repo, &["--kind", "pre-restore"]);
    // The dead restore had written a.txt and new.txt, not yet b.txt nor deleted extra.txt.
    repo.write("a.txt", "a\n");
    repo.write("new.txt", "only in the target\n");
    plant_journal(&repo, &target, Some(&safety));
    (repo, target, safety)
}

#[test]
fn an_interrupted_restore_is_completed_by_the_next_save() {
    let (repo, target, safety) = interrupted_restore();
    let partial_tree = repo.oracle_tree();
    let fingerprint = repo.fingerprint();
    let before_ids = repo.checkpoint_ids();

    let out = repo.cp(&["save"]).ok();
    let line = format!(
        "completed an interrupted restore of {target}; the state before it is checkpoint {safety}"
    );
    assert!(out.stderr.contains(&line), "{}", out.stderr);
    // Rolled forward: the working tree is the target, and the save is of that state.
    let target_tree = repo.checkpoint_tree(&target);
    assert_eq!(repo.oracle_tree(), target_tree);
    assert_eq!(repo.checkpoint_tree(&out.id()), target_tree);
    assert_eq!(fs::read(journal_path(&repo)).unwrap(), b"");
    assert_eq!(repo.fingerprint(), fingerprint, "index and HEAD untouched");
    // Nothing is lost: the partial state is a new pre-restore checkpoint, named on that line.
    let partial: Vec<String> = repo
        .checkpoint_ids()
        .into_iter()
        .filter(|id| !before_ids.contains(id) && repo.checkpoint_tree(id) == partial_tree)
        .collect();
    assert_eq!(partial.len(), 1, "{partial:?}");
    assert!(
        out.stderr.contains(&format!(
            "the partial state it left is checkpoint {}",
            partial[0]
        )),
        "{}",
        out.stderr
    );
    assert_eq!(repo.note_json(&partial[0]).get("kind"), "pre-restore");
    // And the state before the interrupted restore comes back from its safety checkpoint.
    repo.cp(&["restore", &safety]).ok();
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&safety));
    // Once completed, it is not completed again.
    let again = repo.cp(&["save"]).ok();
    assert!(!again.stderr.contains("interrupted"), "{}", again.stderr);
    assert_eq!(repo.read("b.txt"), "b before\n");
}

#[test]
fn an_interrupted_restore_is_completed_by_the_next_restore() {
    let (repo, target, safety) = interrupted_restore();
    let out = repo.cp(&["restore", &safety]).ok();
    assert!(
        out.stderr.contains(&format!(
            "completed an interrupted restore of {target}; the state before it is checkpoint {safety}"
        )),
        "{}",
        out.stderr
    );
    // Then the restore asked for ran: back to the state before.
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&safety));
    assert_eq!(repo.read("extra.txt"), "only before\n");
    assert_eq!(fs::read(journal_path(&repo)).unwrap(), b"");
}

#[test]
fn a_restore_killed_before_writing_anything_is_completed_without_a_new_checkpoint() {
    let (repo, target, safety) = interrupted_restore();
    // As if it died right after writing its journal: the tree is still what `safety` holds.
    repo.write("a.txt", "a before\n");
    repo.remove("new.txt");
    plant_journal(&repo, &target, Some(&safety));
    let ids = repo.checkpoint_ids();
    let out = repo.cp(&["undo", "--dry-run"]).ok();
    assert!(out.stderr.contains("interrupted"), "{}", out.stderr);
    assert_eq!(repo.checkpoint_ids(), ids, "a dry run completes nothing");
    let out = repo.cp(&["save", "--json"]).ok();
    assert!(
        out.stderr.contains(&format!(
            "completed an interrupted restore of {target}; the state before it is checkpoint {safety}\n"
        )),
        "no partial state to mention: {}",
        out.stderr
    );
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&target));
    assert_eq!(
        repo.checkpoint_ids().len(),
        ids.len() + 1,
        "only the save's own"
    );
}

#[test]
fn a_live_restore_lock_is_respected() {
    let (repo, target, safety) = interrupted_restore();
    let partial = manifest(repo.path());
    let journal = fs::read(journal_path(&repo)).unwrap();
    // This test process plays the restore that is still running.
    let lock = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(journal_path(&repo))
        .unwrap();
    lock.lock().unwrap();

    let saved = repo.cp(&["save", "--allow-empty"]).ok();
    assert!(!saved.stderr.contains("interrupted"), "{}", saved.stderr);
    let busy = repo.cp(&["restore", &target]).fails_with(1);
    assert!(
        busy.stderr.contains("another restore is running"),
        "{}",
        busy.stderr
    );
    let undo = repo.cp(&["undo"]).fails_with(1);
    assert!(undo.stderr.contains("another restore"), "{}", undo.stderr);
    let listed = repo.cp(&["list"]).ok();
    assert!(!listed.stderr.contains("interrupted"), "{}", listed.stderr);
    assert_eq!(manifest(repo.path()), partial, "nothing touched");
    assert_eq!(fs::read(journal_path(&repo)).unwrap(), journal);

    // It died: read-only commands say so and change nothing; the next save completes it.
    lock.unlock().unwrap();
    drop(lock);
    for args in [
        &["list"][..],
        &["show", &target][..],
        &["diff", &target, "--stat"][..],
        &["restore", &safety, "--dry-run"][..],
    ] {
        let out = repo.cp(args).ok();
        assert!(
            out.stderr.contains(&format!(
                "warning: a restore of {target} was interrupted; the next save, restore or undo completes it (the state before it is checkpoint {safety})"
            )),
            "{args:?}: {}",
            out.stderr
        );
        assert_eq!(manifest(repo.path()), partial, "{args:?}");
        assert_eq!(fs::read(journal_path(&repo)).unwrap(), journal, "{args:?}");
    }
    let out = repo.cp(&["save"]).ok();
    assert!(
        out.stderr.contains("completed an interrupted restore"),
        "{}",
        out.stderr
    );
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&target));
}

#[test]
fn a_finished_restore_leaves_an_empty_journal() {
    let repo = base_repo();
    let id = save(&repo, &[]);
    mess_up(&repo);
    let out = repo.cp(&["restore", &id, "--json"]).ok();
    assert!(
        out.stdout.contains(r#""interrupted_restore":null"#),
        "{}",
        out.stdout
    );
    assert_eq!(fs::read(journal_path(&repo)).unwrap(), b"", "cleared");
}
