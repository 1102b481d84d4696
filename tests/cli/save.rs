//! `save`: the checkpoint tree must equal the git oracle, and nothing of the user's changes.

use std::fs;

use crate::common::Repo;

/// Save, then check the tree against the oracle and that the user's state is untouched.
fn save_matches_oracle(repo: &Repo) -> String {
    let before = repo.fingerprint();
    let out = repo.cp(&["save", "--allow-empty", "-m", "test"]);
    assert_eq!(out.code, 0, "save failed: {}", out.stderr);
    let id = out.stdout.trim().to_string();
    assert!(is_id(&id), "stdout is the id: {:?}", out.stdout);
    assert_eq!(
        repo.fingerprint(),
        before,
        "save changed index, HEAD, branches or stash"
    );
    assert_eq!(
        repo.checkpoint_tree(&id),
        repo.oracle_tree(),
        "tree differs from git add -A"
    );
    id
}

fn is_id(s: &str) -> bool {
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

fn committed(files: &[(&str, &str)]) -> Repo {
    let repo = Repo::new();
    for (path, content) in files {
        repo.write(path, content);
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    repo
}

fn note(repo: &Repo, id: &str) -> String {
    repo.git(&[
        "notes",
        "--ref=checkpoints",
        "show",
        &format!("refs/checkpoints/{id}"),
    ])
}

#[test]
fn modified_deleted_and_untracked_files() {
    let repo = committed(&[("a", "a\n"), ("dir/b", "b\n"), ("dir/c", "c\n")]);
    repo.write("a", "changed\n");
    repo.remove("dir/b");
    repo.write("new/file.txt", "new\n");
    repo.write("dir/d", "d\n");
    let id = save_matches_oracle(&repo);
    let note = note(&repo, &id);
    assert_eq!(Repo::json_get(&note, "stats.added"), "2");
    assert_eq!(Repo::json_get(&note, "stats.modified"), "1");
    assert_eq!(Repo::json_get(&note, "stats.deleted"), "1");
    assert_eq!(Repo::json_get(&note, "stats.files"), "4");
    assert_eq!(Repo::json_get(&note, "index"), "clean");
    assert_eq!(Repo::json_get(&note, "head.ref"), "refs/heads/main");
    assert_eq!(
        Repo::json_get(&note, "head.commit"),
        repo.git(&["rev-parse", "HEAD"])
    );
    assert!(repo.git_ok(&["fsck", "--strict"]));
}

#[test]
fn ignored_files_are_left_out() {
    let repo = committed(&[(".gitignore", "*.log\n")]);
    repo.write("x.log", "ignored by .gitignore\n");
    repo.write(".git/info/exclude", "*.tmp\n");
    repo.write("y.tmp", "ignored by info/exclude\n");
    let excludes = repo.scratch().join("global-excludes");
    fs::write(&excludes, "*.bak\n").unwrap();
    repo.git(&["config", "core.excludesFile", excludes.to_str().unwrap()]);
    repo.write("z.bak", "ignored by core.excludesFile\n");
    repo.write("kept.txt", "kept\n");
    let id = save_matches_oracle(&repo);
    let files = repo.git(&[
        "ls-tree",
        "-r",
        "--name-only",
        &format!("refs/checkpoints/{id}"),
    ]);
    assert_eq!(files, ".gitignore\nkept.txt");
}

#[test]
fn exec_bits_and_symlinks() {
    let repo = committed(&[
        ("run.sh", "#!/bin/sh\n"),
        ("plain", "p\n"),
        ("target", "t\n"),
    ]);
    repo.symlink("target", "link");
    repo.git(&["add", "link"]);
    repo.git(&["commit", "-qm", "link"]);
    repo.chmod_x("run.sh", true);
    repo.write("new.sh", "#!/bin/sh\n");
    repo.chmod_x("new.sh", true);
    repo.remove("link");
    repo.symlink("plain", "link");
    repo.symlink("nowhere", "dangling");
    repo.remove("plain");
    repo.symlink("target", "plain"); // file -> symlink
    save_matches_oracle(&repo);
}

#[test]
fn core_filemode_false_keeps_the_index_mode() {
    let repo = committed(&[("a", "a\n")]);
    repo.git(&["config", "core.fileMode", "false"]);
    repo.chmod_x("a", true);
    repo.write("b", "b\n");
    repo.chmod_x("b", true);
    let id = save_matches_oracle(&repo);
    let tree = repo.git(&["ls-tree", "-r", &format!("refs/checkpoints/{id}")]);
    assert!(!tree.contains("100755"), "{tree}");
}

#[test]
fn submodule_gitlink_follows_the_submodule_head() {
    let sub = Repo::new();
    sub.write("s", "s\n");
    sub.git(&["add", "s"]);
    sub.git(&["commit", "-qm", "s"]);
    let repo = committed(&[("a", "a\n")]);
    let sub_path = sub.path().to_str().unwrap().to_string();
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        &sub_path,
        "sub",
    ]);
    repo.git(&["commit", "-qm", "add sub"]);
    save_matches_oracle(&repo);
    repo.write("sub/t", "t\n");
    repo.git_in_dir(&repo.path().join("sub"), &["add", "t"]);
    repo.git_in_dir(&repo.path().join("sub"), &["commit", "-qm", "t"]);
    let id = save_matches_oracle(&repo);
    let gitlink = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}:sub")]);
    assert_eq!(
        gitlink,
        repo.git_in_dir(&repo.path().join("sub"), &["rev-parse", "HEAD"])
    );
}

#[test]
fn embedded_repositories() {
    let repo = committed(&[("a", "a\n")]);
    let emb = repo.path().join("emb");
    fs::create_dir(&emb).unwrap();
    repo.git_in_dir(&emb, &["init", "-q"]);
    repo.write("emb/e", "e\n");
    repo.git_in_dir(&emb, &["add", "e"]);
    repo.git_in_dir(&emb, &["commit", "-qm", "e"]);
    save_matches_oracle(&repo);

    // Without any commit, `git add -A` itself fails: it is left out and listed as skipped.
    let empty = repo.path().join("empty-repo");
    fs::create_dir(&empty).unwrap();
    repo.git_in_dir(&empty, &["init", "-q"]);
    repo.write("empty-repo/x", "x\n");
    let out = repo.cp(&["save", "--allow-empty"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = out.stdout.trim();
    assert!(out.stderr.contains("empty-repo"), "{}", out.stderr);
    let note = note(&repo, id);
    assert_eq!(Repo::json_get(&note, "skipped.0.path"), "empty-repo");
    assert_eq!(
        Repo::json_get(&note, "skipped.0.reason"),
        "embedded-repo-no-commit"
    );
    let aside = repo.scratch().join("aside");
    fs::rename(&empty, &aside).unwrap();
    let oracle = repo.oracle_tree();
    fs::rename(&aside, &empty).unwrap();
    assert_eq!(repo.checkpoint_tree(id), oracle);
}

#[test]
fn sparse_checkout_entries_are_kept() {
    let repo = committed(&[("in/a", "a\n"), ("out/b", "b\n"), ("top", "t\n")]);
    repo.git(&["sparse-checkout", "set", "--no-cone", "/in/", "/top"]);
    assert!(!repo.path().join("out/b").exists());
    repo.write("in/a", "changed\n");
    let id = save_matches_oracle(&repo);
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{id}:out/b")]),
        "b"
    );
}

#[test]
fn sparse_index_directory_entries_are_kept() {
    let repo = committed(&[
        ("in/a", "a\n"),
        ("out/deep/b", "b\n"),
        ("out/c", "c\n"),
        ("top", "t\n"),
    ]);
    repo.git(&["config", "index.sparse", "true"]);
    repo.git(&["sparse-checkout", "set", "--cone", "in"]);
    let listing = repo.git(&["ls-files", "--sparse", "-s"]);
    assert!(
        listing.contains("040000") && listing.contains("out/"),
        "a sparse index: {listing}"
    );
    repo.write("in/a", "changed\n");
    repo.write("in/new", "new\n");
    let id = save_matches_oracle(&repo);
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{id}:out/deep/b")]),
        "b"
    );
}

#[test]
fn attributes_eol_and_clean_filters() {
    let repo = committed(&[(".gitattributes", "*.txt text eol=lf\n*.up filter=upper\n")]);
    repo.git(&["config", "filter.upper.clean", "tr a-z A-Z"]);
    repo.write_bytes("crlf.txt", b"one\r\ntwo\r\n");
    repo.write("shout.up", "quiet words\n");
    let id = save_matches_oracle(&repo);
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{id}:shout.up")]),
        "QUIET WORDS"
    );
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{id}:crlf.txt")]),
        "one\ntwo"
    );
}

#[test]
fn merge_conflicts_are_saved_as_the_worktree_has_them() {
    let repo = committed(&[("f", "base\n"), ("g", "g\n")]);
    repo.git(&["checkout", "-qb", "other"]);
    repo.write("f", "theirs\n");
    repo.git(&["commit", "-qam", "theirs"]);
    repo.git(&["checkout", "-q", "main"]);
    repo.write("f", "ours\n");
    repo.git(&["commit", "-qam", "ours"]);
    assert!(!repo.git_ok(&["merge", "-q", "other"]));
    let id = save_matches_oracle(&repo);
    let note = note(&repo, &id);
    assert_eq!(Repo::json_get(&note, "index"), "unmerged");
    let parents = repo.git(&[
        "rev-list",
        "--parents",
        "-n1",
        &format!("refs/checkpoints/{id}"),
    ]);
    assert_eq!(
        parents.split(' ').count(),
        2,
        "only HEAD as parent: {parents}"
    );
}

#[test]
fn intent_to_add_entries() {
    let repo = committed(&[("a", "a\n")]);
    repo.write("n", "new\n");
    repo.git(&["add", "-N", "n"]);
    save_matches_oracle(&repo);
    repo.remove("n");
    save_matches_oracle(&repo);
}

#[test]
fn same_size_edit_in_the_same_second_is_seen() {
    let repo = committed(&[("f", "aaaa\n")]);
    // Rewritten at once, same size: the index stat data looks clean (racy git).
    repo.write("f", "bbbb\n");
    let id = save_matches_oracle(&repo);
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{id}:f")]),
        "bbbb"
    );
}

#[test]
fn staged_changes_make_an_index_commit() {
    let repo = committed(&[("f", "one\n")]);
    repo.write("f", "staged\n");
    repo.git(&["add", "f"]);
    repo.write("f", "worktree\n");
    let id = save_matches_oracle(&repo);
    let cp = format!("refs/checkpoints/{id}");
    assert_eq!(
        repo.git(&["rev-parse", &format!("{cp}^1")]),
        repo.git(&["rev-parse", "HEAD"])
    );
    let index_tree = repo.git(&["rev-parse", &format!("{cp}^2^{{tree}}")]);
    let copy = repo.scratch().join("idx-copy");
    fs::copy(repo.path().join(".git/index"), &copy).unwrap();
    let expected = repo.git_env(
        &[("GIT_INDEX_FILE", copy.to_str().unwrap())],
        &["write-tree"],
    );
    assert_eq!(index_tree, expected);
    assert_eq!(Repo::json_get(&note(&repo, &id), "index"), "saved");
}

#[test]
fn unborn_branch_with_and_without_staged_files() {
    let repo = Repo::new();
    let id = save_matches_oracle(&repo);
    assert_eq!(
        repo.checkpoint_tree(&id),
        "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
    );
    repo.write("a", "a\n");
    let id = save_matches_oracle(&repo);
    let note1 = note(&repo, &id);
    assert_eq!(Repo::json_get(&note1, "head.commit"), "null");
    assert_eq!(Repo::json_get(&note1, "index"), "clean");
    repo.git(&["add", "a"]);
    repo.write("b", "b\n");
    let id = save_matches_oracle(&repo);
    assert_eq!(Repo::json_get(&note(&repo, &id), "index"), "saved");
    let parents = repo.git(&[
        "rev-list",
        "--parents",
        "-n1",
        &format!("refs/checkpoints/{id}"),
    ]);
    assert_eq!(
        parents.split(' ').count(),
        2,
        "the index commit is the only parent"
    );
}

#[test]
fn detached_head() {
    let repo = committed(&[("a", "a\n")]);
    repo.git(&["checkout", "-q", "--detach"]);
    repo.write("a", "b\n");
    let id = save_matches_oracle(&repo);
    assert_eq!(Repo::json_get(&note(&repo, &id), "head.ref"), "null");
}

#[test]
fn linked_worktree_has_its_own_checkpoints() {
    let repo = committed(&[("a", "a\n")]);
    let wt = repo.scratch().join("wt");
    repo.git(&["worktree", "add", "-q", wt.to_str().unwrap()]);
    fs::write(wt.join("w"), "in the worktree\n").unwrap();
    let out = repo.cp_in_dir(&wt, &["save"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = out.stdout.trim().to_string();
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree_in(&wt));
    assert_eq!(Repo::json_get(&note(&repo, &id), "worktree"), "wt");
    let main_list = repo.cp(&["list"]);
    assert!(!main_list.stdout.contains(&id), "{}", main_list.stdout);
    let all = repo.cp(&["list", "--all"]);
    assert!(all.stdout.contains(&id), "{}", all.stdout);
    let wt_list = repo.cp_in_dir(&wt, &["list"]);
    assert!(wt_list.stdout.contains(&id), "{}", wt_list.stdout);
}

#[test]
fn from_a_subdirectory() {
    let repo = committed(&[("a", "a\n"), ("sub/dir/b", "b\n")]);
    repo.write("sub/dir/b", "changed\n");
    repo.write("top-level-new", "n\n");
    let out = repo.cp_in("sub/dir", &["save"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.checkpoint_tree(out.stdout.trim()), repo.oracle_tree());
}

#[test]
fn without_an_identity() {
    let repo = committed(&[("a", "a\n")]);
    repo.write("a", "b\n");
    let out = repo.cp_with(
        |cmd| {
            for var in [
                "GIT_AUTHOR_NAME",
                "GIT_AUTHOR_EMAIL",
                "GIT_COMMITTER_NAME",
                "GIT_COMMITTER_EMAIL",
            ] {
                cmd.env_remove(var);
            }
        },
        &["save"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = out.stdout.trim();
    assert_eq!(repo.checkpoint_tree(id), repo.oracle_tree());
    assert_eq!(
        repo.git(&[
            "log",
            "-1",
            "--format=%an <%ae>",
            &format!("refs/checkpoints/{id}")
        ]),
        "git-checkpoint <git-checkpoint@localhost>"
    );
    assert!(
        !repo.read(".git/config").contains("git-checkpoint"),
        "config untouched"
    );
}

#[test]
fn unicode_spaces_and_file_to_directory() {
    let repo = committed(&[
        ("plain", "p\n"),
        ("becomes-dir", "file\n"),
        ("becomes-file/inner", "i\n"),
        ("becomes-file/deeper/x", "x\n"),
        ("emptied/only", "o\n"),
    ]);
    repo.remove("becomes-file");
    repo.write("becomes-file", "now a file\n");
    repo.remove("emptied/only");
    repo.write("sp ace/ünïcødé name.txt", "u\n");
    repo.write("日本語.txt", "j\n");
    repo.remove("becomes-dir");
    repo.write("becomes-dir/inside", "now a directory\n");
    save_matches_oracle(&repo);
}

#[test]
fn unchanged_saves_report_the_newest_and_ids_grow() {
    let repo = committed(&[("a", "a\n")]);
    let first = repo.cp(&["save"]);
    let second = repo.cp(&["save"]);
    assert_eq!(first.code, 0);
    assert_eq!(second.code, 0);
    assert_eq!(
        first.stdout, second.stdout,
        "nothing changed: same checkpoint"
    );
    assert!(
        second.stderr.contains("nothing changed"),
        "{}",
        second.stderr
    );
    assert_eq!(
        repo.git(&["for-each-ref", "refs/checkpoints"])
            .lines()
            .count(),
        1
    );
    let forced = repo.cp(&["save", "--allow-empty"]);
    assert_ne!(forced.stdout, first.stdout);
    repo.write("a", "changed\n");
    let third = repo.cp(&["save"]);
    let mut ids = vec![
        first.stdout.trim(),
        forced.stdout.trim(),
        third.stdout.trim(),
    ];
    let sorted = {
        let mut s = ids.clone();
        s.sort();
        s
    };
    assert_eq!(ids, sorted, "ids grow");
    ids.dedup();
    assert_eq!(ids.len(), 3);
    // Staging (without changing any file) is a change too.
    repo.git(&["add", "a"]);
    let fourth = repo.cp(&["save"]);
    assert_ne!(fourth.stdout, third.stdout);
}

#[test]
fn sixteen_concurrent_saves_give_sixteen_checkpoints_and_notes() {
    let repo = committed(&[("a", "a\n")]);
    let runs: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..16)
            .map(|i| {
                let repo = &repo;
                s.spawn(move || repo.cp(&["save", "--allow-empty", "-q", "-m", &format!("c{i}")]))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut ids: Vec<String> = runs
        .iter()
        .map(|r| {
            assert_eq!(r.code, 0, "{}", r.stderr);
            r.stdout.trim().to_string()
        })
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 16);
    assert_eq!(
        repo.git(&["for-each-ref", "refs/checkpoints"])
            .lines()
            .count(),
        16
    );
    assert_eq!(
        repo.git(&["notes", "--ref=checkpoints", "list"])
            .lines()
            .count(),
        16
    );
    for id in &ids {
        assert_eq!(
            &Repo::json_get(&note(&repo, id), "id"),
            id,
            "note attached to its checkpoint"
        );
    }
    assert!(repo.git_ok(&["fsck", "--strict"]));
}

#[test]
fn flags_end_up_in_the_note_and_the_commit() {
    let repo = committed(&[("a", "a\n")]);
    let out = repo.cp(&[
        "save",
        "-q",
        "-m",
        "before refactor",
        "--name",
        "br",
        "--kind",
        "auto",
        "--meta",
        "a=1",
        "--meta",
        "b=x",
        "--meta-json",
        r#"{"k":[1,2]}"#,
        "--pin",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "", "-q");
    let id = out.stdout.trim();
    let note = note(&repo, id);
    assert_eq!(Repo::json_get(&note, "schema"), "1");
    assert_eq!(Repo::json_get(&note, "id"), id);
    assert_eq!(Repo::json_get(&note, "name"), "br");
    assert_eq!(Repo::json_get(&note, "message"), "before refactor");
    assert_eq!(Repo::json_get(&note, "kind"), "auto");
    assert_eq!(Repo::json_get(&note, "pinned"), "true");
    assert_eq!(Repo::json_get(&note, "meta.a"), "1");
    assert_eq!(Repo::json_get(&note, "meta.b"), "x");
    assert_eq!(Repo::json_get(&note, "meta.k"), "[1, 2]");
    assert_eq!(Repo::json_get(&note, "tool.name"), "git-checkpoint");
    assert!(Repo::json_get(&note, "created_at").ends_with('Z'));
    let message = repo.git(&[
        "log",
        "-1",
        "--format=%B",
        &format!("refs/checkpoints/{id}"),
    ]);
    assert!(
        message.starts_with("checkpoint: before refactor\n"),
        "{message}"
    );
    let trailers = repo.git_stdin(&["interpret-trailers", "--parse"], message.as_bytes());
    assert!(
        trailers.contains(&format!("Checkpoint-Id: {id}")),
        "{trailers}"
    );
    assert!(trailers.contains("Checkpoint-Kind: auto"), "{trailers}");

    let json = repo.cp(&["save", "--allow-empty", "--json"]);
    assert_eq!(json.code, 0);
    let commit = Repo::json_get(&json.stdout, "commit");
    let new_id = Repo::json_get(&json.stdout, "id");
    assert_eq!(
        repo.git(&["rev-parse", &format!("refs/checkpoints/{new_id}")]),
        commit
    );

    let bad = repo.cp(&["save", "--meta-json", "[1]"]);
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.starts_with("error:"), "{}", bad.stderr);
    let bad_kind = repo.cp(&["save", "--kind", "Not A Kind"]);
    assert_eq!(bad_kind.code, 1);
    let bad_meta = repo.cp(&["save", "--meta", "novalue"]);
    assert_eq!(bad_meta.code, 2);
}

#[test]
fn size_guard_skips_large_untracked_files() {
    let repo = committed(&[("a", "a\n")]);
    repo.git(&["config", "checkpoint.maxFileSize", "1k"]);
    repo.write("big.bin", &"x".repeat(2000));
    repo.write("small.txt", "small\n");
    let out = repo.cp(&["save"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("big.bin"), "{}", out.stderr);
    let id = out.stdout.trim();
    let note = note(&repo, id);
    assert_eq!(Repo::json_get(&note, "skipped.0.path"), "big.bin");
    assert_eq!(Repo::json_get(&note, "skipped.0.reason"), "too-large");
    assert_eq!(Repo::json_get(&note, "skipped.0.size"), "2000");
    repo.remove("big.bin");
    assert_eq!(repo.checkpoint_tree(id), repo.oracle_tree());
}

#[test]
fn works_through_git_itself() {
    let repo = committed(&[("a", "a\n")]);
    let out = repo.git_checkpoint(&["save", "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(is_id(out.stdout.trim()));
}

#[test]
fn the_stat_cache_of_untracked_files_never_changes_the_result() {
    let repo = committed(&[("tracked", "t\n")]);
    for i in 0..30 {
        repo.write(&format!("gen/f{i}.txt"), &format!("untracked {i}\n"));
    }
    save_matches_oracle(&repo);
    assert!(repo.path().join(".git/checkpoint-stat-cache").exists());
    // Let the cached entries become trustworthy (modified before the caching save's second).
    std::thread::sleep(std::time::Duration::from_millis(1100));
    save_matches_oracle(&repo);
    // Same size, new content, and a new file: both seen.
    repo.write("gen/f3.txt", "UNTRACKED 3\n");
    repo.write("gen/new.txt", "new\n");
    save_matches_oracle(&repo);
    // Attributes change how files hash: committed without touching the files themselves.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    save_matches_oracle(&repo);
    repo.write(".gitattributes", "*.txt filter=upper\n");
    repo.git(&["config", "filter.upper.clean", "tr a-z A-Z"]);
    repo.git(&["add", ".gitattributes"]);
    repo.git(&["commit", "-qm", "attributes"]);
    let id = save_matches_oracle(&repo);
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{id}:gen/f1.txt")]),
        "UNTRACKED 1"
    );
    // A damaged cache is ignored.
    std::fs::write(repo.path().join(".git/checkpoint-stat-cache"), "garbage").unwrap();
    save_matches_oracle(&repo);
}

#[test]
fn long_saves_show_progress_on_a_terminal_only() {
    let repo = committed(&[("a", "a\n")]);
    for i in 0..2500 {
        repo.write(&format!("many/d{}/f{i}", i % 25), "x\n");
    }
    // Not a terminal: nothing but the summary.
    let plain = repo.cp(&["save"]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(!plain.stderr.contains("hashing"), "{}", plain.stderr);
    // A terminal (through `script`, when it is installed).
    let has_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok();
    if !has_script {
        eprintln!("skipped: script(1) is not installed");
        return;
    }
    repo.write("many/another", "y\n");
    let mut cmd = std::process::Command::new("script");
    cmd.args([
        "-qec",
        &format!("{} save --allow-empty", crate::common::bin()),
        "/dev/null",
    ])
    .current_dir(repo.path());
    repo.env(&mut cmd);
    let tty = String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned();
    assert!(tty.contains("hashing untracked files: 500/"), "{tty:?}");
}
