//! `save`: the checkpoint's tree must be what `git add -A` + `git write-tree` on a copy of the
//! index gives (the oracle), and the user's index, HEAD, branches and stash must not change.

use std::fs;

use crate::common::{
    IDENTITY_VARS, Json, Repo, bin, id_epoch_seconds, is_id, json_get, notes_plus_commit,
    now_epoch_seconds, skip,
};

/// Save (with `extra` arguments); check the tree against the oracle, that the user's state is
/// untouched and that the repository is sound. Returns the id.
#[track_caller]
fn save_matches_oracle(repo: &Repo, extra: &[&str]) -> String {
    let before = repo.fingerprint();
    let id = repo.save(extra);
    assert_eq!(
        repo.fingerprint(),
        before,
        "save changed the index, HEAD, the branches or the stash"
    );
    assert_eq!(
        repo.checkpoint_tree(&id),
        repo.oracle_tree(),
        "the checkpoint's tree differs from `git add -A` + `git write-tree`"
    );
    repo.fsck();
    id
}

fn mode_of(repo: &Repo, id: &str, path: &str) -> String {
    let line = repo.git(&["ls-tree", &format!("refs/checkpoints/{id}"), "--", path]);
    line.split_whitespace().next().unwrap_or("").to_string()
}

fn blob(repo: &Repo, id: &str, path: &str) -> String {
    repo.git(&["cat-file", "blob", &format!("refs/checkpoints/{id}:{path}")])
}

// ---------------------------------------------------------------------------------------------
// Output, note and commit

#[test]
fn stdout_is_exactly_the_id_and_ref_note_and_commit_are_written() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    let out = repo.cp(&["save", "-m", "before refactor"]).ok();
    let id = out.id();
    assert_eq!(out.stdout, format!("{id}\n"));
    assert_eq!(repo.checkpoint_ids(), vec![id.clone()]);
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());

    // The note: one JSON object with every documented field.
    let note = repo.note_json(&id);
    let mut keys = note.keys("");
    keys.sort();
    let mut expected = vec![
        "schema",
        "id",
        "name",
        "message",
        "kind",
        "created_at",
        "head",
        "worktree",
        "index",
        "stats",
        "skipped",
        "pinned",
        "meta",
        "tool",
    ];
    expected.sort();
    for key in &expected {
        assert!(
            keys.contains(&key.to_string()),
            "the note has `{key}`: {keys:?}"
        );
    }
    assert_eq!(note.keys("head"), vec!["commit", "ref"]);
    assert_eq!(
        note.keys("stats"),
        vec!["added", "deleted", "files", "modified"]
    );
    assert_eq!(note.keys("tool"), vec!["name", "version"]);
    assert_eq!(note.get("schema"), "1");
    assert_eq!(note.get("id"), id);
    assert_eq!(note.get("name"), "null");
    assert_eq!(note.get("message"), "before refactor");
    assert_eq!(note.get("kind"), "manual");
    assert_eq!(note.get("worktree"), "null");
    assert_eq!(note.get("index"), "clean");
    assert_eq!(note.get("pinned"), "false");
    assert_eq!(note.get("skipped"), "[]");
    assert_eq!(note.get("meta"), "{}");
    assert_eq!(note.get("head.ref"), "refs/heads/main");
    assert_eq!(note.get("head.commit"), repo.git(&["rev-parse", "HEAD"]));
    assert_eq!(note.get("tool.name"), "git-checkpoint");
    assert_eq!(note.get("tool.version"), env!("CARGO_PKG_VERSION"));

    // created_at: RFC 3339, UTC, milliseconds, `Z`; the same instant the id names.
    let created = note.get("created_at");
    let c = created.as_bytes();
    assert_eq!(c.len(), 24, "YYYY-MM-DDTHH:MM:SS.mmmZ: {created}");
    assert!(
        c[4] == b'-'
            && c[7] == b'-'
            && c[10] == b'T'
            && c[13] == b':'
            && c[16] == b':'
            && c[19] == b'.'
            && c[23] == b'Z',
        "{created}"
    );
    let digits: String = created.chars().filter(char::is_ascii_digit).collect();
    let id_digits: String = id[..19].chars().filter(char::is_ascii_digit).collect();
    assert_eq!(digits, id_digits, "created_at {created} and id {id}");

    // The commit: HEAD is the only parent (the index is clean), the message is readable and
    // ends with the trailers.
    assert_eq!(repo.parents(&id), vec![repo.git(&["rev-parse", "HEAD"])]);
    let message = repo.commit_message(&id);
    assert!(
        message.starts_with("checkpoint: before refactor\n"),
        "{message}"
    );
    let trailers = repo.trailers(&id);
    assert!(
        trailers.contains(&format!("Checkpoint-Id: {id}")),
        "{trailers}"
    );
    assert!(trailers.contains("Checkpoint-Kind: manual"), "{trailers}");
    repo.fsck();
}

#[test]
fn ids_are_utc_and_now_whatever_the_time_zone() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for tz in ["Pacific/Kiritimati", "America/Adak", "UTC"] {
        let before = now_epoch_seconds();
        let out = repo.cp_with(
            |cmd| {
                cmd.env("TZ", tz);
            },
            &["save", "--allow-empty", "-q"],
        );
        let id = out.ok().id();
        let after = now_epoch_seconds();
        let at = id_epoch_seconds(&id);
        assert!(
            before - 1 <= at && at <= after + 1,
            "TZ={tz}: id {id} is the current UTC time ({before}..{after}, got {at})"
        );
        // Not the fixed GIT_COMMITTER_DATE of the test environment either.
        assert!(!id.starts_with("20260101-000000"), "{id}");
    }
}

#[test]
fn json_output_is_the_note_plus_the_commit() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("b", "b\n");
    let out = repo.cp(&["save", "--json", "-m", "j"]).ok();
    assert_eq!(
        out.stdout.lines().count(),
        1,
        "one JSON object: {}",
        out.stdout
    );
    let id = json_get(&out.stdout, "id");
    assert!(is_id(&id), "{id}");
    assert_eq!(json_get(&out.stdout, "commit"), repo.checkpoint_commit(&id));
    assert!(
        notes_plus_commit(&format!("[{}]", out.stdout), &[repo.note(&id)]),
        "save --json is the note plus \"commit\": {}",
        out.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// The tree equals the oracle

#[test]
fn modified_deleted_and_untracked_files() {
    let repo = Repo::with_commit(&[("a", "a\n"), ("dir/b", "b\n"), ("dir/c", "c\n")]);
    repo.write("a", "changed\n");
    repo.remove("dir/b");
    repo.write("new/file.txt", "new\n");
    repo.write("dir/d", "d\n");
    let id = save_matches_oracle(&repo, &[]);
    let note = repo.note_json(&id);
    assert_eq!(note.get("stats.files"), "4");
    assert_eq!(note.get("stats.added"), "2");
    assert_eq!(note.get("stats.modified"), "1");
    assert_eq!(note.get("stats.deleted"), "1");
    assert_eq!(note.get("index"), "clean");
    assert_eq!(repo.parents(&id).len(), 1, "a clean index: no index commit");
    assert_eq!(blob(&repo, &id, "a"), "changed");
    assert!(!repo.checkpoint_files(&id).contains(&"dir/b".to_string()));
}

#[test]
fn ignored_files_are_left_out_by_every_kind_of_exclude() {
    let repo = Repo::with_commit(&[
        (".gitignore", "*.log\n!keep.log\n/build/\n"),
        ("sub/.gitignore", "local-*\n"),
    ]);
    repo.write("tracked.log", "tracked even though it matches *.log\n");
    repo.git(&["add", "-f", "tracked.log"]);
    repo.git(&["commit", "-qm", "tracked.log"]);
    repo.write("x.log", "ignored by .gitignore\n");
    repo.write("keep.log", "re-included by !keep.log\n");
    repo.write("build/out.o", "ignored directory\n");
    repo.write("sub/local-x", "ignored by sub/.gitignore\n");
    repo.write("local-top", "not ignored: the pattern is sub/'s\n");
    repo.write(".git/info/exclude", "*.tmp\n");
    repo.write("y.tmp", "ignored by info/exclude\n");
    let excludes = repo.scratch().join("excludes-file");
    fs::write(&excludes, "*.bak\n").unwrap();
    repo.git(&["config", "core.excludesFile", excludes.to_str().unwrap()]);
    repo.write("z.bak", "ignored by core.excludesFile\n");
    repo.write("tracked.log", "a tracked file is never ignored\n");
    repo.write("kept.txt", "kept\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(
        repo.checkpoint_files(&id),
        vec![
            ".gitignore",
            "keep.log",
            "kept.txt",
            "local-top",
            "sub/.gitignore",
            "tracked.log"
        ]
    );
    assert_eq!(
        blob(&repo, &id, "tracked.log"),
        "a tracked file is never ignored"
    );
}

#[test]
fn exec_bit_on_a_tracked_file_and_a_new_executable() {
    let repo = Repo::with_commit(&[("run.sh", "#!/bin/sh\n"), ("was-x", "x\n")]);
    repo.chmod_x("was-x", true);
    repo.git(&["add", "was-x"]);
    repo.git(&["commit", "-qm", "x"]);
    repo.chmod_x("run.sh", true);
    repo.chmod_x("was-x", false);
    repo.write("new.sh", "#!/bin/sh\n");
    repo.chmod_x("new.sh", true);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(mode_of(&repo, &id, "run.sh"), "100755");
    assert_eq!(mode_of(&repo, &id, "new.sh"), "100755");
    assert_eq!(mode_of(&repo, &id, "was-x"), "100644");
}

/// git records a file as executable when its owner may execute it (`S_IXUSR`), whatever its
/// group and others may: every mode a file can have that its owner can read, on tracked files
/// committed as 100644 and as 100755 and on untracked ones, with `core.fileMode` on and off,
/// and again at a second save (through the stat cache), is saved as `git add -A` records it.
#[test]
fn executable_bits_are_read_as_git_reads_them_in_every_mode() {
    let modes: Vec<u32> = (0o400..=0o777).collect();
    for file_mode in ["true", "false"] {
        let repo = Repo::with_commit(&[]);
        repo.git(&["config", "core.fileMode", file_mode]);
        for m in &modes {
            repo.write(&format!("was644/{m:o}"), &format!("{m:o}\n"));
            repo.write(&format!("was755/{m:o}"), &format!("{m:o}\n"));
            repo.chmod(&format!("was755/{m:o}"), 0o755);
        }
        repo.git(&["-c", "core.fileMode=true", "add", "-A"]);
        repo.git(&["commit", "-qm", "files"]);
        for m in &modes {
            repo.chmod(&format!("was644/{m:o}"), *m);
            repo.chmod(&format!("was755/{m:o}"), *m);
            repo.write(&format!("new/{m:o}"), &format!("{m:o}\n"));
            repo.chmod(&format!("new/{m:o}"), *m);
        }
        let id = save_matches_oracle(&repo, &[]);
        if file_mode == "true" {
            assert_eq!(mode_of(&repo, &id, "was755/655"), "100644");
            assert_eq!(mode_of(&repo, &id, "was644/711"), "100755");
            assert_eq!(mode_of(&repo, &id, "new/611"), "100644");
            assert_eq!(mode_of(&repo, &id, "new/500"), "100755");
        }
        let again = save_matches_oracle(&repo, &["--allow-empty"]);
        assert_eq!(repo.checkpoint_tree(&again), repo.checkpoint_tree(&id));
    }
}

#[test]
fn symlinks_new_retargeted_dangling_and_replacing_a_file() {
    let repo = Repo::with_commit(&[("plain", "p\n"), ("target", "t\n"), ("dir/f", "f\n")]);
    repo.symlink("target", "link");
    repo.git(&["add", "link"]);
    repo.git(&["commit", "-qm", "link"]);
    repo.remove("link");
    repo.symlink("plain", "link"); // changed target
    repo.symlink("nowhere", "dangling"); // new, dangling
    repo.symlink("dir", "dirlink"); // to a directory: a link, not its contents
    repo.remove("plain");
    repo.symlink("target", "plain"); // file -> symlink
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(mode_of(&repo, &id, "link"), "120000");
    assert_eq!(blob(&repo, &id, "link"), "plain");
    assert_eq!(mode_of(&repo, &id, "plain"), "120000");
    assert_eq!(mode_of(&repo, &id, "dangling"), "120000");
    assert_eq!(mode_of(&repo, &id, "dirlink"), "120000");
    assert!(
        !repo
            .checkpoint_files(&id)
            .contains(&"dirlink/f".to_string())
    );
}

#[test]
fn core_filemode_false_keeps_the_index_mode() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.git(&["config", "core.fileMode", "false"]);
    repo.chmod_x("a", true);
    repo.write("b", "b\n");
    repo.chmod_x("b", true);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(mode_of(&repo, &id, "a"), "100644");
    assert_eq!(mode_of(&repo, &id, "b"), "100644");
}

#[test]
fn submodule_gitlink_follows_the_submodule_head() {
    let sub = Repo::with_commit(&[("s", "s\n")]);
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        sub.path().to_str().unwrap(),
        "sub",
    ]);
    repo.git(&["commit", "-qm", "add sub"]);
    let committed_link = repo.git(&["rev-parse", "HEAD:sub"]);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(mode_of(&repo, &id, "sub"), "160000");

    // A new commit inside the submodule moves the gitlink.
    let sub_dir = repo.path().join("sub");
    repo.write("sub/t", "t\n");
    repo.git_in_dir(&sub_dir, &["add", "t"]);
    repo.git_in_dir(&sub_dir, &["commit", "-qm", "t"]);
    let id = save_matches_oracle(&repo, &[]);
    let gitlink = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}:sub")]);
    assert_eq!(gitlink, repo.git_in_dir(&sub_dir, &["rev-parse", "HEAD"]));
    assert_ne!(gitlink, committed_link);
    assert_eq!(json_get(&repo.note(&id), "stats.modified"), "1");
}

#[test]
fn deinitialised_submodule_keeps_its_gitlink() {
    let sub = Repo::with_commit(&[("s", "s\n")]);
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        sub.path().to_str().unwrap(),
        "sub",
    ]);
    repo.git(&["commit", "-qm", "add sub"]);
    repo.git(&["submodule", "deinit", "-q", "-f", "sub"]);
    assert!(repo.path().join("sub").is_dir(), "an empty directory stays");
    repo.write("a", "changed\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(
        repo.git(&["rev-parse", &format!("refs/checkpoints/{id}:sub")]),
        repo.git(&["rev-parse", "HEAD:sub"])
    );
}

#[test]
fn embedded_repository_with_a_commit_is_a_gitlink() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let emb = repo.path().join("emb");
    fs::create_dir(&emb).unwrap();
    repo.git_in_dir(&emb, &["init", "-q"]);
    repo.write("emb/e", "e\n");
    repo.git_in_dir(&emb, &["add", "e"]);
    repo.git_in_dir(&emb, &["commit", "-qm", "e"]);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(mode_of(&repo, &id, "emb"), "160000");
    assert_eq!(
        repo.git(&["rev-parse", &format!("refs/checkpoints/{id}:emb")]),
        repo.git_in_dir(&emb, &["rev-parse", "HEAD"])
    );
    assert_eq!(json_get(&repo.note(&id), "skipped"), "[]");
}

#[test]
fn embedded_repository_without_commits_is_left_out_and_listed() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let empty = repo.path().join("nested/empty-repo");
    fs::create_dir_all(&empty).unwrap();
    repo.git_in_dir(&empty, &["init", "-q"]);
    repo.write("nested/empty-repo/x", "x\n");
    repo.write("nested/sibling", "kept\n");
    assert!(
        !repo.git_ok(&["add", "-A", "--dry-run"]),
        "git add -A itself fails here"
    );
    let before = repo.fingerprint();
    let out = repo.cp(&["save"]).ok();
    let id = out.id();
    assert_eq!(repo.fingerprint(), before);
    assert!(out.stderr.contains("nested/empty-repo"), "{}", out.stderr);
    let note = repo.note_json(&id);
    assert_eq!(note.get("skipped.0.path"), "nested/empty-repo");
    assert_eq!(note.get("skipped.0.reason"), "embedded-repo-no-commit");
    assert_eq!(
        repo.checkpoint_tree(&id),
        repo.oracle_tree_without(&["nested/empty-repo"])
    );
    assert_eq!(blob(&repo, &id, "nested/sibling"), "kept");
    repo.fsck();
}

#[test]
fn sparse_checkout_entries_are_kept_as_in_the_index() {
    let repo = Repo::with_commit(&[("in/a", "a\n"), ("out/b", "b\n"), ("top", "t\n")]);
    repo.git(&["sparse-checkout", "set", "--no-cone", "/in/", "/top"]);
    assert!(!repo.path().join("out/b").exists());
    repo.write("in/a", "changed\n");
    repo.write("in/new", "new\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "out/b"), "b");
    assert_eq!(blob(&repo, &id, "in/a"), "changed");
}

#[test]
fn sparse_index_in_cone_mode_keeps_directory_entries() {
    let repo = Repo::with_commit(&[
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
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "out/deep/b"), "b");
}

#[test]
fn skip_worktree_and_assume_unchanged_entries_follow_git_add() {
    let repo = Repo::with_commit(&[("skipped", "s\n"), ("assumed", "a\n"), ("plain", "p\n")]);
    repo.git(&["update-index", "--skip-worktree", "skipped"]);
    repo.git(&["update-index", "--assume-unchanged", "assumed"]);
    repo.write("skipped", "edited behind git's back\n");
    repo.write("assumed", "edited behind git's back too\n");
    repo.write("plain", "edited\n");
    save_matches_oracle(&repo, &[]);
}

#[test]
fn text_auto_eol_lf_normalises_crlf_in_text_only() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    // The attributes file is itself new and untracked: it applies all the same.
    repo.write(".gitattributes", "* text=auto eol=lf\n");
    repo.write_bytes("crlf.txt", b"one\r\ntwo\r\n");
    repo.write_bytes("binary.bin", b"\x00\x01\r\n\x02");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "crlf.txt"), "one\ntwo");
    let raw = repo.git(&[
        "cat-file",
        "-s",
        &format!("refs/checkpoints/{id}:binary.bin"),
    ]);
    assert_eq!(raw, "5", "binary content is stored as it is");
}

#[test]
fn clean_filters_are_applied() {
    let repo = Repo::with_commit(&[(".gitattributes", "*.up filter=up\n")]);
    repo.git(&["config", "filter.up.clean", "tr a-z A-Z"]);
    repo.write("shout.up", "quiet words\n");
    repo.write("plain.txt", "quiet words\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "shout.up"), "QUIET WORDS");
    assert_eq!(blob(&repo, &id, "plain.txt"), "quiet words");
}

#[test]
fn merge_conflict_is_saved_as_the_worktree_has_it() {
    let repo = Repo::with_commit(&[("f", "base\n"), ("g", "g\n")]);
    repo.git(&["checkout", "-qb", "other"]);
    repo.write("f", "theirs\n");
    repo.git(&["commit", "-qam", "theirs"]);
    repo.git(&["checkout", "-q", "main"]);
    repo.write("f", "ours\n");
    repo.git(&["commit", "-qam", "ours"]);
    assert!(
        !repo.git_ok(&["merge", "-q", "other"]),
        "the merge conflicts"
    );
    assert!(repo.read("f").contains("<<<<<<<"));
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(json_get(&repo.note(&id), "index"), "unmerged");
    assert_eq!(
        repo.parents(&id),
        vec![repo.git(&["rev-parse", "HEAD"])],
        "no index commit for an unmerged index"
    );
    assert!(blob(&repo, &id, "f").contains("<<<<<<<"));
    assert!(
        repo.path().join(".git/MERGE_HEAD").exists(),
        "the merge is still in progress"
    );
}

#[test]
fn intent_to_add_entries_present_and_deleted() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("n", "new\n");
    repo.git(&["add", "-N", "n"]);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "n"), "new");

    repo.remove("n");
    let id = save_matches_oracle(&repo, &[]);
    assert!(!repo.checkpoint_files(&id).contains(&"n".to_string()));
}

#[test]
fn racy_same_size_rewrite_in_the_same_second_is_seen() {
    let repo = Repo::with_commit(&[("f", "aaaa\n"), ("g", "gggg\n")]);
    // Rewritten at once with the same size: the index's stat data looks clean.
    repo.write("f", "bbbb\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "f"), "bbbb");
    repo.write("g", "hhhh\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "g"), "hhhh");
}

#[test]
fn staged_changes_make_an_index_commit() {
    let repo = Repo::with_commit(&[("f", "one\n"), ("gone", "g\n")]);
    repo.write("f", "staged\n");
    repo.git(&["add", "f"]);
    repo.write("f", "worktree\n");
    repo.write("added", "a\n");
    repo.git(&["add", "added"]);
    repo.git(&["rm", "-q", "--cached", "gone"]);
    let id = save_matches_oracle(&repo, &[]);
    let parents = repo.parents(&id);
    assert_eq!(parents.len(), 2, "HEAD and the index commit: {parents:?}");
    assert_eq!(parents[0], repo.git(&["rev-parse", "HEAD"]));
    let index_tree = repo.git(&["rev-parse", &format!("{}^{{tree}}", parents[1])]);
    assert_eq!(index_tree, repo.index_tree());
    assert_ne!(index_tree, repo.checkpoint_tree(&id));
    assert_eq!(json_get(&repo.note(&id), "index"), "saved");
    assert_eq!(blob(&repo, &id, "f"), "worktree");
}

#[test]
fn empty_repository_saves_the_empty_tree() {
    let repo = Repo::new();
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(repo.checkpoint_tree(&id), repo.empty_tree());
    assert_eq!(repo.parents(&id), Vec::<String>::new());
    let note = repo.note_json(&id);
    assert_eq!(note.get("head.commit"), "null");
    assert_eq!(note.get("head.ref"), "refs/heads/main");
    assert_eq!(note.get("stats.files"), "0");
}

#[test]
fn unborn_branch_with_untracked_files_has_no_parent() {
    let repo = Repo::new();
    repo.write("a", "a\n");
    repo.write("d/b", "b\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(repo.parents(&id), Vec::<String>::new());
    let note = repo.note_json(&id);
    assert_eq!(note.get("head.commit"), "null");
    assert_eq!(note.get("index"), "clean");
    assert_eq!(note.get("stats.files"), "2");
    assert_eq!(note.get("stats.added"), "2");
}

#[test]
fn unborn_branch_with_staged_files_has_the_index_commit_as_only_parent() {
    let repo = Repo::new();
    repo.write("a", "a\n");
    repo.git(&["add", "a"]);
    repo.write("b", "b\n");
    let id = save_matches_oracle(&repo, &[]);
    let parents = repo.parents(&id);
    assert_eq!(parents.len(), 1, "{parents:?}");
    assert_eq!(
        repo.git(&["rev-parse", &format!("{}^{{tree}}", parents[0])]),
        repo.index_tree()
    );
    assert_eq!(json_get(&repo.note(&id), "index"), "saved");
}

#[test]
fn detached_head() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.git(&["checkout", "-q", "--detach"]);
    repo.write("a", "b\n");
    let id = save_matches_oracle(&repo, &[]);
    let note = repo.note_json(&id);
    assert_eq!(note.get("head.ref"), "null");
    assert_eq!(note.get("head.commit"), repo.git(&["rev-parse", "HEAD"]));
    assert_eq!(repo.parents(&id), vec![repo.git(&["rev-parse", "HEAD"])]);
}

#[test]
fn linked_worktree_saves_its_own_tree_and_name() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let wt = repo.scratch().join("wt");
    repo.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "feature",
        wt.to_str().unwrap(),
    ]);
    fs::write(wt.join("w"), "in the worktree\n").unwrap();
    fs::write(wt.join("a"), "changed in the worktree\n").unwrap();
    let main_before = repo.fingerprint();
    let wt_before = repo.fingerprint_in(&wt);
    let out = repo.cp_in_dir(&wt, &["save", "-m", "wt"]).ok();
    let id = out.id();
    assert_eq!(repo.fingerprint(), main_before);
    assert_eq!(repo.fingerprint_in(&wt), wt_before);
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree_in(&wt));
    let note = repo.note_json(&id);
    assert_eq!(note.get("worktree"), "wt");
    assert_eq!(note.get("head.ref"), "refs/heads/feature");
    repo.fsck();

    let main_list = repo.cp(&["list"]).ok();
    assert!(!main_list.stdout.contains(&id), "{}", main_list.stdout);
    let all = repo.cp(&["list", "--all"]).ok();
    assert!(all.stdout.contains(&id), "{}", all.stdout);
    let wt_list = repo.cp_in_dir(&wt, &["list"]).ok();
    assert!(wt_list.stdout.contains(&id), "{}", wt_list.stdout);
}

#[test]
fn from_a_subdirectory_directly_and_through_git() {
    let repo = Repo::with_commit(&[("a", "a\n"), ("sub/dir/b", "b\n")]);
    repo.write("sub/dir/b", "changed\n");
    repo.write("top-level-new", "n\n");
    let before = repo.fingerprint();
    let id = repo.cp_in("sub/dir", &["save"]).ok().id();
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    assert_eq!(repo.fingerprint(), before);

    repo.write("sub/another", "x\n");
    let out = repo
        .git_checkpoint_in_dir(&repo.path().join("sub/dir"), &["save"])
        .ok();
    let id = out.id();
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    assert_eq!(repo.fingerprint(), before);
    repo.fsck();
}

#[test]
fn git_dir_elsewhere_behind_a_gitfile() {
    let repo = Repo::new();
    let elsewhere = repo.scratch().join("elsewhere.git");
    let work = repo.scratch().join("work");
    fs::create_dir(&work).unwrap();
    repo.git_in_dir(
        &work,
        &[
            "init",
            "-q",
            "-b",
            "main",
            "--separate-git-dir",
            elsewhere.to_str().unwrap(),
        ],
    );
    fs::write(work.join("a"), "a\n").unwrap();
    repo.git_in_dir(&work, &["add", "a"]);
    repo.git_in_dir(&work, &["commit", "-qm", "a"]);
    fs::write(work.join("a"), "changed\n").unwrap();
    fs::write(work.join("b"), "b\n").unwrap();
    let before = repo.fingerprint_in(&work);
    let id = repo.cp_in_dir(&work, &["save"]).ok().id();
    assert_eq!(repo.fingerprint_in(&work), before);
    let tree = repo.git_in_dir(
        &work,
        &["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")],
    );
    assert_eq!(tree, repo.oracle_tree_in(&work));
    assert!(
        repo.git_in_dir(
            &work,
            &[
                "notes",
                "--ref=checkpoints",
                "show",
                &format!("refs/checkpoints/{id}")
            ]
        )
        .contains(&id)
    );
    assert!(
        !work.join("refs").exists() && !work.join("objects").exists(),
        "nothing written beside the gitfile"
    );
}

#[test]
fn index_formats_v4_split_index_and_untracked_cache() {
    let repo = Repo::with_commit(&[("a", "a\n"), ("dir/b", "b\n"), ("dir/c", "c\n")]);
    repo.git(&["update-index", "--index-version", "4"]);
    repo.write("a", "v4\n");
    repo.write("new-v4", "n\n");
    save_matches_oracle(&repo, &[]);

    repo.git(&["update-index", "--split-index"]);
    repo.write("split-staged", "s\n");
    repo.git(&["add", "split-staged"]);
    repo.write("dir/b", "split\n");
    let id = save_matches_oracle(&repo, &[]);
    let parents = repo.parents(&id);
    assert_eq!(
        parents.len(),
        2,
        "the split index differs from HEAD: {parents:?}"
    );
    assert_eq!(
        repo.git(&["rev-parse", &format!("{}^{{tree}}", parents[1])]),
        repo.index_tree()
    );

    repo.git(&["update-index", "--no-split-index"]);
    repo.git(&["config", "core.untrackedCache", "true"]);
    repo.git(&["update-index", "--untracked-cache"]);
    repo.git(&["status", "--porcelain"]); // fills the untracked cache
    repo.write("dir/untracked-after-cache", "u\n");
    repo.remove("dir/c");
    save_matches_oracle(&repo, &[]);
}

#[test]
fn save_neither_needs_nor_takes_the_index_lock() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    // Another git command is running and holds the index lock.
    let lock = repo.path().join(".git/index.lock");
    fs::write(&lock, "held by someone else").unwrap();
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(fs::read_to_string(&lock).unwrap(), "held by someone else");
    assert_eq!(blob(&repo, &id, "a"), "changed");
}

#[test]
fn without_an_identity_a_fallback_is_used_and_config_is_untouched() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "b\n");
    let config_before = repo.read(".git/config");
    let before = repo.fingerprint();
    let id = repo.cp_no_identity(&["save"]).ok().id();
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    assert_eq!(repo.fingerprint(), before);
    assert_eq!(
        repo.git(&[
            "log",
            "-1",
            "--format=%an <%ae>|%cn <%ce>",
            &format!("refs/checkpoints/{id}")
        ]),
        "git-checkpoint <git-checkpoint@localhost>|git-checkpoint <git-checkpoint@localhost>"
    );
    assert_eq!(repo.read(".git/config"), config_before, "config untouched");
    repo.fsck();
}

#[test]
fn the_configured_identity_is_used() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let id = repo.save(&[]);
    assert_eq!(
        repo.git(&[
            "log",
            "-1",
            "--format=%an <%ae>|%cn <%ce>",
            &format!("refs/checkpoints/{id}")
        ]),
        "A U Thor <author@example.com>|C O Mitter <committer@example.com>"
    );
}

/// The counts a note keeps (added, modified, deleted since HEAD) are `git diff`'s, whether
/// something is staged or not, for every kind of change.
#[test]
fn the_counts_since_head_are_those_of_git_diff() {
    let repo = Repo::with_commit(&[
        ("edit.txt", "e\n"),
        ("gone.txt", "g\n"),
        ("run.sh", "echo\n"),
        ("to-link", "l\n"),
        ("to-dir", "d\n"),
        ("dir/a.txt", "a\n"),
        ("dir/b.txt", "b\n"),
        ("kept/k.txt", "k\n"),
        ("excluded.log", "x\n"),
    ]);
    // (Once `*.log` is excluded, `git add -A` is no oracle for the tree.)
    let check = |repo: &Repo| {
        let id = if repo.git_ok(&["config", "checkpoint.exclude"]) {
            repo.save(&["--allow-empty"])
        } else {
            save_matches_oracle(repo, &["--allow-empty"])
        };
        let diff = repo.git(&[
            "diff",
            "--no-renames",
            "--name-status",
            "HEAD",
            &format!("refs/checkpoints/{id}"),
        ]);
        let count = |letter: &str| {
            diff.lines()
                .filter(|l| l.split('\t').next() == Some(letter))
                .count()
                .to_string()
        };
        let modified = diff
            .lines()
            .filter(|l| matches!(l.split('\t').next(), Some("M" | "T")))
            .count()
            .to_string();
        let note = repo.note_json(&id);
        assert_eq!(
            [
                note.get("stats.added"),
                note.get("stats.modified"),
                note.get("stats.deleted")
            ],
            [count("A"), modified, count("D")],
            "against git diff:\n{diff}"
        );
    };
    check(&repo);
    repo.write("edit.txt", "edited\n");
    repo.remove("gone.txt");
    repo.chmod_x("run.sh", true);
    repo.remove("to-link");
    repo.symlink("edit.txt", "to-link");
    repo.remove("to-dir");
    repo.write("to-dir/inside.txt", "now a directory\n");
    repo.remove("dir/a.txt");
    repo.write("new/deep/n.txt", "n\n");
    repo.write("new.txt", "n\n");
    check(&repo);
    // Left out of checkpoints although tracked: a deletion since HEAD.
    repo.git(&["config", "checkpoint.exclude", "*.log"]);
    check(&repo);
    // Staged changes: the index is no longer HEAD's tree.
    repo.git(&["add", "edit.txt", "new.txt"]);
    repo.write("edit.txt", "edited again\n");
    check(&repo);
    repo.git(&["rm", "-q", "--cached", "dir/b.txt"]);
    check(&repo);
}

/// Who a checkpoint names is who git would name, however it is configured: the environment,
/// `committer.*`/`author.*`, `user.*`, `EMAIL`, and each of them missing (git itself is the
/// oracle, through `git var`).
#[test]
fn the_identity_is_resolved_as_git_resolves_it() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    // (configuration, environment), each as pairs.
    type Pairs = &'static [(&'static str, &'static str)];
    let cases: &[(Pairs, Pairs)] = &[
        (
            &[("user.name", "U Ser"), ("user.email", "user@example.com")],
            &[],
        ),
        (
            &[("user.name", "U Ser"), ("user.email", "user@example.com")],
            &[
                ("EMAIL", "env@example.com"),
                ("GIT_AUTHOR_NAME", "Env Author"),
            ],
        ),
        (&[("user.name", "U Ser")], &[("EMAIL", "env@example.com")]),
        (
            &[
                ("user.name", "U Ser"),
                ("user.email", "user@example.com"),
                ("committer.name", "Com Mitter"),
                ("author.email", "author@example.com"),
            ],
            &[],
        ),
        (
            &[
                ("committer.name", "Com Mitter"),
                ("committer.email", "c@example.com"),
            ],
            &[
                ("GIT_AUTHOR_NAME", "Env Author"),
                ("GIT_AUTHOR_EMAIL", "a@example.com"),
            ],
        ),
        (
            &[("user.name", "U Ser"), ("user.email", "user@example.com")],
            &[
                ("GIT_COMMITTER_NAME", "Env Committer"),
                ("GIT_COMMITTER_EMAIL", "ec@example.com"),
            ],
        ),
    ];
    // Dated now, and dated by the environment, as the tests' environment dates every commit.
    for ((config, env), dated) in cases.iter().flat_map(|c| [(c, false), (c, true)]) {
        for key in [
            "user.name",
            "user.email",
            "committer.name",
            "committer.email",
        ]
        .iter()
        .chain(&["author.name", "author.email"])
        {
            repo.git_ok(&["config", "--unset-all", key]);
        }
        for (key, value) in *config {
            repo.git(&["config", key, value]);
        }
        let run = repo.cp_with(
            |cmd| {
                for var in IDENTITY_VARS.iter().chain(&["EMAIL"]) {
                    cmd.env_remove(var);
                }
                if !dated {
                    cmd.env_remove("GIT_AUTHOR_DATE")
                        .env_remove("GIT_COMMITTER_DATE");
                }
                for (var, value) in *env {
                    cmd.env(var, value);
                }
            },
            &["save", "--allow-empty", "-q"],
        );
        let id = run.ok().id();
        let ident = |var: &str| {
            let mut git = std::process::Command::new("git");
            repo.env(&mut git);
            for unset in IDENTITY_VARS.iter().chain(&["EMAIL"]) {
                git.env_remove(unset);
            }
            let out = git
                .envs(env.iter().copied())
                .current_dir(repo.path())
                .args(["var", var])
                .output()
                .expect("git var runs");
            assert!(out.status.success(), "git var {var} failed");
            let line = String::from_utf8_lossy(&out.stdout).trim_end().to_string();
            // "Name <email> seconds zone"
            line.rsplitn(3, ' ').nth(2).unwrap_or_default().to_string()
        };
        let expected = format!(
            "{}|{}",
            ident("GIT_AUTHOR_IDENT"),
            ident("GIT_COMMITTER_IDENT")
        );
        let recorded = repo.git(&[
            "log",
            "-1",
            "--format=%an <%ae>|%cn <%ce>",
            &format!("refs/checkpoints/{id}"),
        ]);
        assert_eq!(
            recorded, expected,
            "config {config:?}, environment {env:?}, dated by it: {dated}"
        );
    }
}

#[test]
fn unicode_spaces_and_odd_characters_in_paths() {
    let repo = Repo::with_commit(&[("plain", "p\n"), ("ünï/old name.txt", "o\n")]);
    repo.write("sp ace/ünïcødé name.txt", "u\n");
    repo.write("日本語.txt", "j\n");
    repo.write("tab\there", "t\n");
    repo.write("new\nline", "n\n");
    repo.write("back\\slash", "b\n");
    repo.write("-leading-dash", "d\n");
    repo.write("quote\"s", "q\n");
    repo.write("ünï/old name.txt", "modified\n");
    let id = save_matches_oracle(&repo, &[]);
    let files = repo.checkpoint_files(&id);
    for name in [
        "new\nline",
        "tab\there",
        "日本語.txt",
        "sp ace/ünïcødé name.txt",
    ] {
        assert!(files.contains(&name.to_string()), "{name:?} in {files:?}");
    }
}

#[test]
fn file_replaced_by_a_directory_and_directory_by_a_file() {
    let repo = Repo::with_commit(&[
        ("becomes-dir", "file\n"),
        ("becomes-file/inner", "i\n"),
        ("becomes-file/deeper/x", "x\n"),
        ("emptied/only", "o\n"),
    ]);
    repo.remove("becomes-dir");
    repo.write("becomes-dir/inside", "now a directory\n");
    repo.remove("becomes-file");
    repo.write("becomes-file", "now a file\n");
    repo.remove("emptied/only");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(
        repo.checkpoint_files(&id),
        vec!["becomes-dir/inside", "becomes-file"]
    );
}

// ---------------------------------------------------------------------------------------------
// Size guard

#[test]
fn size_guard_skips_large_untracked_files_only() {
    let repo = Repo::with_commit(&[("a", "a\n"), ("tracked-big", "small at first\n")]);
    repo.git(&["config", "checkpoint.maxFileSize", "1k"]);
    repo.write("data/big.bin", &"x".repeat(2000));
    repo.write("small.txt", "small\n");
    // A tracked file over the limit is part of the work and is kept.
    repo.write("tracked-big", &"y".repeat(3000));
    let before = repo.fingerprint();
    let out = repo.cp(&["save"]).ok();
    let id = out.id();
    assert_eq!(repo.fingerprint(), before);
    assert!(out.stderr.contains("data/big.bin"), "{}", out.stderr);
    let note = repo.note_json(&id);
    assert_eq!(note.keys("skipped"), vec!["0"], "{note:?}");
    assert_eq!(note.get("skipped.0.path"), "data/big.bin");
    assert_eq!(note.get("skipped.0.reason"), "too-large");
    assert_eq!(note.get("skipped.0.size"), "2000");
    assert_eq!(
        repo.checkpoint_tree(&id),
        repo.oracle_tree_without(&["data/big.bin"])
    );
    assert_eq!(
        repo.git(&[
            "cat-file",
            "-s",
            &format!("refs/checkpoints/{id}:tracked-big")
        ]),
        "3000"
    );
    repo.fsck();

    // Quiet: the warning goes, the record stays.
    repo.write("small.txt", "changed\n");
    let out = repo.cp(&["save", "-q"]).ok();
    assert_eq!(out.stderr, "");
    assert_eq!(
        json_get(&repo.note(&out.id()), "skipped.0.path"),
        "data/big.bin"
    );
}

// ---------------------------------------------------------------------------------------------
// Unchanged saves, ids

#[test]
fn unchanged_save_reports_the_newest_checkpoint() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    let first = repo.cp(&["save"]).ok();
    let id = first.id();
    let second = repo.cp(&["save"]).ok();
    assert_eq!(
        second.stdout, first.stdout,
        "nothing changed: the same checkpoint"
    );
    assert!(
        second.stderr.contains(&id),
        "stderr says the newest is reused: {}",
        second.stderr
    );
    assert_ne!(second.stderr, first.stderr);
    let quiet = repo.cp(&["save", "-q"]).ok();
    assert_eq!(quiet.stdout, first.stdout);
    assert_eq!(quiet.stderr, "", "-q silences it");
    let json = repo.cp(&["save", "--json"]).ok();
    assert_eq!(json_get(&json.stdout, "id"), id);
    assert_eq!(repo.checkpoint_ids(), vec![id]);
}

#[test]
fn allow_empty_always_makes_a_new_checkpoint() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let first = repo.save(&[]);
    let second = repo.save(&["--allow-empty"]);
    assert_ne!(first, second);
    assert_eq!(repo.checkpoint_ids(), vec![first.clone(), second.clone()]);
    assert_eq!(repo.checkpoint_tree(&first), repo.checkpoint_tree(&second));
    assert_ne!(
        repo.checkpoint_commit(&first),
        repo.checkpoint_commit(&second),
        "every checkpoint has its own commit"
    );
    repo.fsck();
}

/// What the user asked to record is recorded: `--name`, `--pin` and `-m` on an unchanged
/// working tree make a new checkpoint (which the name then finds); a plain save still reuses
/// the newest.
#[test]
fn a_name_a_pin_or_a_message_is_recorded_even_when_nothing_changed() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    let first = repo.save(&["-q"]);
    let named = repo.save(&["-q", "--name", "before-refactor", "-m", "before refactor"]);
    assert_ne!(named, first, "--name and -m: a new checkpoint");
    let shown = Json::parse(&repo.cp(&["show", "before-refactor", "--json"]).ok().stdout);
    assert_eq!(shown.get("id"), named);
    assert_eq!(shown.get("message"), "before refactor");
    let pinned = repo.save(&["-q", "--pin"]);
    assert_ne!(pinned, named, "--pin alone: a new checkpoint");
    assert_eq!(repo.note_json(&pinned).get("pinned"), "true");
    assert_eq!(repo.note_json(&named).get("pinned"), "false");
    let messaged = repo.save(&["-q", "-m", "still the same files"]);
    assert_ne!(messaged, pinned, "-m alone: a new checkpoint");
    // Every one holds the same tree; a plain save reuses the newest.
    for id in [&first, &named, &pinned, &messaged] {
        assert_eq!(repo.checkpoint_tree(id), repo.oracle_tree());
    }
    let plain = repo.cp(&["save"]).ok();
    assert_eq!(plain.id(), messaged);
    assert!(
        plain.stderr.contains("no new checkpoint"),
        "{}",
        plain.stderr
    );
    assert_eq!(repo.checkpoint_ids().len(), 4);
    repo.fsck();
}

#[test]
fn any_change_of_tree_index_or_head_makes_a_new_checkpoint() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let mut ids = vec![repo.save(&[])];
    // The work tree.
    repo.write("a", "changed\n");
    ids.push(repo.save(&[]));
    // The index only (the tree is the same).
    repo.git(&["add", "a"]);
    ids.push(repo.save(&[]));
    assert_eq!(repo.checkpoint_tree(&ids[1]), repo.checkpoint_tree(&ids[2]));
    // HEAD only (same tree, same index).
    repo.git(&["commit", "-qm", "changed"]);
    ids.push(repo.save(&[]));
    repo.git(&["commit", "-q", "--allow-empty", "-m", "empty"]);
    ids.push(repo.save(&[]));
    assert_eq!(repo.checkpoint_tree(&ids[3]), repo.checkpoint_tree(&ids[4]));
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(unique.len(), 5, "{ids:?}");
    assert_eq!(repo.checkpoint_ids(), ids);
}

/// Lines of `-m` that look like trailers are part of the message: they neither make the
/// checkpoint look as if taken in another worktree (so a no-change save would make a
/// duplicate) nor give a checkpoint whose note is lost a false worktree, name or session.
#[test]
fn trailer_lookalikes_in_the_message_are_only_message() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for (i, message) in [
        "hi\nCheckpoint-Worktree: other",
        "hi\n\nCheckpoint-Worktree: other\nCheckpoint-Name: fake\nCheckpoint-Session: s-1",
    ]
    .into_iter()
    .enumerate()
    {
        repo.write("a", &format!("change {i}\n"));
        let first = repo.save(&["-q", "-m", message]);
        let again = repo.save(&["-q"]);
        assert_eq!(again, first, "nothing changed: no duplicate checkpoint");
        assert_eq!(repo.cp(&["save", "-q"]).ok().id(), first);

        repo.git(&[
            "notes",
            "--ref=checkpoints",
            "remove",
            &repo.checkpoint_commit(&first),
        ]);
        let derived = Json::parse(&repo.cp(&["show", &first, "--json"]).ok().stdout);
        assert_eq!(derived.get("id"), first);
        assert_eq!(derived.get("worktree"), "null", "{message:?}");
        assert_eq!(derived.get("name"), "null", "{message:?}");
        assert_eq!(derived.get("message"), message);
        assert!(
            !derived.keys("").contains(&"session".to_string()),
            "{message:?}"
        );
        // Still this worktree's newest: `@` finds it and a no-change save reuses it.
        let list = repo.cp(&["list"]).ok();
        assert!(list.stdout.starts_with(&first), "{}", list.stdout);
        assert_eq!(repo.cp(&["save", "-q"]).ok().id(), first);
    }
    assert_eq!(repo.checkpoint_ids().len(), 2);
}

#[test]
fn ids_strictly_increase() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let ids: Vec<String> = (0..8)
        .map(|_| repo.save(&["--allow-empty", "-q"]))
        .collect();
    for pair in ids.windows(2) {
        assert!(pair[0] < pair[1], "ids grow: {ids:?}");
    }
}

/// A save reads only the newest checkpoint refs (named from the files and `packed-refs`): it
/// still finds the newest wherever its ref is kept, reads a loose ref over the packed one of
/// its name, and steps over files that are no ref.
#[test]
fn a_save_finds_the_newest_checkpoint_wherever_its_ref_is_kept() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "1\n");
    let first = repo.save(&["-q"]);
    repo.write("a", "2\n");
    let second = repo.save(&["-q"]);
    repo.git(&["pack-refs", "--all"]);
    assert!(
        !repo
            .path()
            .join(format!(".git/refs/checkpoints/{second}"))
            .exists()
    );
    // Packed, the newest is still the one a no-change save finds.
    assert_eq!(repo.cp(&["save", "-q"]).ok().id(), second);
    // A loose ref overrides the packed one: the newest now holds the first tree, which is not
    // the working tree's, so the save makes a new checkpoint, after it.
    let first_commit = repo.git(&["rev-parse", &format!("refs/checkpoints/{first}")]);
    repo.git(&[
        "update-ref",
        &format!("refs/checkpoints/{second}"),
        first_commit.trim(),
    ]);
    let third = repo.cp(&["save", "-q"]).ok().id();
    assert!(third > second, "{third} after {second}");
    if repo.is_reftable() {
        skip("the rest is about loose ref files, which a reftable repository has none of");
        return;
    }
    // Files that are no ref, named after every id: a lock file, a damaged ref, a directory.
    let dir = repo.path().join(".git/refs/checkpoints");
    fs::write(dir.join("99991231-235959-999999.lock"), "x\n").unwrap();
    fs::write(dir.join("99991231-235959-999998"), "not a ref\n").unwrap();
    fs::create_dir_all(dir.join("99991231-235959-999997")).unwrap();
    assert_eq!(repo.cp(&["save", "-q"]).ok().id(), third);
    repo.write("a", "3\n");
    let fourth = repo.cp(&["save", "-q"]).ok().id();
    assert!(fourth > third, "{fourth} after {third}");
    let listed = repo.checkpoint_ids();
    for id in [&first, &second, &third, &fourth] {
        assert!(listed.contains(id), "{id} in {listed:?}");
    }
}

#[test]
fn unchanged_is_judged_per_worktree() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let wt = repo.scratch().join("wt");
    repo.git(&["worktree", "add", "-q", "--detach", wt.to_str().unwrap()]);
    let main_id = repo.save(&[]);
    // Same commit, same (clean) tree, but the linked worktree has no checkpoint of its own yet.
    let wt_id = repo.cp_in_dir(&wt, &["save"]).ok().id();
    assert_ne!(wt_id, main_id);
    assert_eq!(json_get(&repo.note(&wt_id), "worktree"), "wt");
    // The main worktree's newest is still `main_id`, though `wt_id` is newer.
    assert_eq!(repo.cp(&["save"]).ok().id(), main_id);
    assert_eq!(repo.cp_in_dir(&wt, &["save"]).ok().id(), wt_id);
    assert_eq!(repo.checkpoint_ids().len(), 2);
}

// ---------------------------------------------------------------------------------------------
// Concurrency

#[test]
fn sixteen_concurrent_saves_give_sixteen_checkpoints_and_notes() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    let runs: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..16)
            .map(|i| {
                let repo = &repo;
                s.spawn(move || repo.cp(&["save", "--allow-empty", "-q", "-m", &format!("c{i}")]))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut ids: Vec<String> = runs.into_iter().map(|r| r.ok().id()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 16, "16 distinct ids");
    assert_eq!(repo.checkpoint_ids(), ids, "16 refs");
    assert_eq!(
        repo.git(&["notes", "--ref=checkpoints", "list"])
            .lines()
            .count(),
        16,
        "16 notes"
    );
    // All the notes in one document (one python run).
    let notes: Vec<String> = ids.iter().map(|id| repo.note(id)).collect();
    let notes = Json::parse(&format!("[{}]", notes.join(",")));
    let oracle = repo.oracle_tree();
    let mut messages = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(
            &notes.get(&format!("{i}.id")),
            id,
            "each note is on its own checkpoint"
        );
        messages.push(notes.get(&format!("{i}.message")));
        assert_eq!(repo.checkpoint_tree(id), oracle);
    }
    messages.sort();
    let mut expected: Vec<String> = (0..16).map(|i| format!("c{i}")).collect();
    expected.sort();
    assert_eq!(messages, expected);
    repo.fsck();
}

// ---------------------------------------------------------------------------------------------
// Flags

#[test]
fn flags_end_up_in_the_note_and_the_commit() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
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
        "b=x=y",
        "--meta-json",
        r#"{"k":[1,2]}"#,
        "--pin",
    ]);
    let out = out.ok();
    assert_eq!(out.stderr, "", "-q");
    let id = out.id();
    let note = repo.note_json(&id);
    assert_eq!(note.get("id"), id);
    assert_eq!(note.get("name"), "br");
    assert_eq!(note.get("message"), "before refactor");
    assert_eq!(note.get("kind"), "auto");
    assert_eq!(note.get("pinned"), "true");
    assert_eq!(note.get("meta.a"), "1");
    assert_eq!(note.get("meta.b"), "x=y");
    assert_eq!(note.get("meta.k"), "[1, 2]");
    assert_eq!(note.keys("meta"), vec!["a", "b", "k"]);
    let message = repo.commit_message(&id);
    assert!(
        message.starts_with("checkpoint: before refactor\n"),
        "{message}"
    );
    let trailers = repo.trailers(&id);
    assert!(
        trailers.contains(&format!("Checkpoint-Id: {id}")),
        "{trailers}"
    );
    assert!(trailers.contains("Checkpoint-Kind: auto"), "{trailers}");
}

#[test]
fn without_quiet_save_reports_on_stderr_only() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "b\n");
    let out = repo.cp(&["save"]).ok();
    let id = out.id();
    assert!(
        out.stderr.contains(&id),
        "stderr says what was saved: {}",
        out.stderr
    );
    let quiet = repo.cp(&["save", "-q", "--allow-empty"]).ok();
    assert_eq!(quiet.stderr, "");
    let long = repo.cp(&["save", "--quiet", "--allow-empty"]).ok();
    assert_eq!(long.stderr, "");
}

#[test]
fn meta_json_must_be_an_object() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "b\n");
    for bad in ["[1]", "1", "\"s\"", "{", "null"] {
        let out = repo.cp(&["save", "--meta-json", bad]);
        out.assert_no_panic();
        assert!(
            out.code == 1 || out.code == 2,
            "--meta-json {bad}: exit {} {}",
            out.code,
            out.stderr
        );
        assert!(out.stderr.starts_with("error:"), "{}", out.stderr);
        assert_eq!(out.stdout, "");
    }
    assert_eq!(repo.checkpoint_ids(), Vec::<String>::new(), "nothing saved");
}

#[test]
fn meta_without_equals_is_a_usage_error() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let out = repo.cp(&["save", "--meta", "novalue"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    out.assert_no_panic();
    assert_eq!(repo.checkpoint_ids(), Vec::<String>::new());
}

#[test]
fn works_through_git_itself() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let out = repo.git_checkpoint(&["save", "-q"]).ok();
    let id = out.id();
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    let list = repo.git_checkpoint(&["list"]).ok();
    assert!(list.stdout.starts_with(&id), "{}", list.stdout);
}

// ---------------------------------------------------------------------------------------------
// The private stat cache and progress (implementation features that must not change results)

#[test]
fn the_stat_cache_of_untracked_files_never_changes_the_result() {
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    for i in 0..30 {
        repo.write(&format!("gen/f{i}.txt"), &format!("untracked {i}\n"));
    }
    save_matches_oracle(&repo, &["--allow-empty"]);
    // Let the cached entries become trustworthy (modified before the caching save's second).
    std::thread::sleep(std::time::Duration::from_millis(1100));
    save_matches_oracle(&repo, &["--allow-empty"]);
    // Same size, new content, and a new file: both seen.
    repo.write("gen/f3.txt", "UNTRACKED 3\n");
    repo.write("gen/new.txt", "new\n");
    save_matches_oracle(&repo, &[]);
    // Attributes change how files hash: committed without touching the files themselves.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    save_matches_oracle(&repo, &["--allow-empty"]);
    repo.write(".gitattributes", "*.txt filter=upper\n");
    repo.git(&["config", "filter.upper.clean", "tr a-z A-Z"]);
    repo.git(&["add", ".gitattributes"]);
    repo.git(&["commit", "-qm", "attributes"]);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "gen/f1.txt"), "UNTRACKED 1");
    // A damaged cache is ignored.
    let cache = repo.path().join(".git/checkpoint-stat-cache");
    if cache.exists() {
        fs::write(&cache, "garbage").unwrap();
    }
    save_matches_oracle(&repo, &["--allow-empty"]);
}

#[test]
fn many_untracked_files_looked_at_in_parallel_and_during_the_walk_are_saved_exactly() {
    // Enough untracked files for the looks to be shared out between threads, and those the
    // stat cache names to be looked at while the walk runs: every kind of change between two
    // saves still shows, in every thread's share (the first, a middle and the last directory).
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    for d in 0..30 {
        for f in 0..100 {
            repo.write(
                &format!("many/d{d:02}/f{f}.txt"),
                &format!("file {d} {f}\n"),
            );
        }
    }
    save_matches_oracle(&repo, &["--allow-empty"]);
    settle_all_files(&repo);
    for n in [0, 15, 29] {
        let d = format!("{n:02}");
        // Same size, new content.
        repo.write(&format!("many/d{d}/f7.txt"), &format!("FILE {n} 7\n"));
        // Deleted, added.
        repo.remove(&format!("many/d{d}/f8.txt"));
        repo.write(&format!("many/d{d}/added.txt"), "added\n");
        // A file turned into a symlink, and one into a directory.
        repo.remove(&format!("many/d{d}/f9.txt"));
        repo.symlink("f10.txt", &format!("many/d{d}/f9.txt"));
        repo.remove(&format!("many/d{d}/f11.txt"));
        repo.write(
            &format!("many/d{d}/f11.txt/inside.txt"),
            "now a directory\n",
        );
    }
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "many/d15/f7.txt"), "FILE 15 7");
    assert_eq!(blob(&repo, &id, "many/d29/f9.txt"), "f10.txt");
    // And back: the directory turned into a file again, the symlink into a file.
    settle_all_files(&repo);
    for d in ["00", "15", "29"] {
        repo.remove(&format!("many/d{d}/f11.txt/inside.txt"));
        fs::remove_dir(repo.path().join(format!("many/d{d}/f11.txt"))).unwrap();
        repo.write(&format!("many/d{d}/f11.txt"), "a file again\n");
        repo.remove(&format!("many/d{d}/f9.txt"));
        repo.write(&format!("many/d{d}/f9.txt"), "f10.txt");
    }
    save_matches_oracle(&repo, &[]);
}

/// An untracked tree `gen/` several directories deep, for the cache of untracked directories.
fn untracked_tree(repo: &Repo) {
    for i in 0..12 {
        repo.write(
            &format!("gen/a/b{}/f{i}.txt", i % 3),
            &format!("untracked {i}\n"),
        );
    }
    repo.write("gen/top.txt", "top\n");
    repo.write("gen/a/b0/c/deep.txt", "deep\n");
}

/// Wait until every file is in an earlier second than now, then save with nothing changed:
/// the stat cache this leaves (returned) trusts every untracked file.
#[track_caller]
fn settled_cache(repo: &Repo) -> String {
    std::thread::sleep(std::time::Duration::from_millis(1100));
    save_matches_oracle(repo, &["--allow-empty"]);
    fs::read_to_string(repo.path().join(".git/checkpoint-stat-cache")).unwrap()
}

/// [`settled_cache`], which names every one of the 3,000 untracked files (checked).
#[track_caller]
fn settle_all_files(repo: &Repo) {
    let cache = settled_cache(repo);
    assert!(
        cache.lines().filter(|l| l.starts_with("f ")).count() >= 3000,
        "the stat cache names every untracked file"
    );
}

/// [`settled_cache`], which names the tree of each untracked directory and lists `gen/`
/// (checked), so the next save takes them without walking, reading or building anything: each
/// change a test makes after this must be seen although `gen/` is not walked.
#[track_caller]
fn settle(repo: &Repo) {
    let cache = settled_cache(repo);
    assert!(
        cache
            .lines()
            .any(|l| l.starts_with("d ") && l.ends_with(" gen")),
        "no cached tree for gen/:\n{cache}"
    );
    assert!(
        cache
            .lines()
            .any(|l| l.starts_with("w ") && l.ends_with(" gen")),
        "no listing of gen/:\n{cache}"
    );
}

/// [`settled_cache`], which lists `dir` (`kind`: `t` with tracked files below it, `u` without;
/// checked).
#[track_caller]
fn settle_listing(repo: &Repo, kind: &str, dir: &str) {
    let cache = settled_cache(repo);
    let suffix = format!(" {kind} {dir}");
    assert!(
        cache
            .lines()
            .any(|l| l.starts_with("w ") && l.ends_with(&suffix)),
        "no listing of {dir}/:\n{cache}"
    );
}

/// The stat cache's listing of `dir`, with one file fewer (the last one of its range, whose
/// path is returned) or one more (a file that does not exist, `ghost`): a save that uses it
/// instead of walking `dir` misses the one or looks for the other.
fn tamper_listing(repo: &Repo, dir: &str, ghost: Option<&str>) -> String {
    let path = repo.path().join(".git/checkpoint-stat-cache");
    let cache = fs::read_to_string(&path).unwrap();
    let is_listing = |l: &str| l.starts_with("w ") && l.ends_with(&format!(" {dir}"));
    let (start, count, kind) = cache
        .lines()
        .find(|l| is_listing(l))
        .and_then(|l| {
            let mut fields = l.split(' ').skip(1);
            let start = fields.next()?.parse::<usize>().ok()?;
            let count = fields.next()?.parse::<usize>().ok()?;
            Some((start, count, fields.next()?.to_string()))
        })
        .expect("a listing");
    let files: Vec<&str> = cache.lines().filter(|l| l.starts_with("f ")).collect();
    let last = files[start + count - 1];
    let last_path = last.splitn(10, ' ').nth(9).unwrap().to_string();
    let mut out = String::new();
    for l in cache.lines() {
        if is_listing(l) {
            let count = if ghost.is_some() {
                count + 1
            } else {
                count - 1
            };
            out.push_str(&format!("w {start} {count} {kind} {dir}\n"));
        } else if l == last {
            if let Some(ghost) = ghost {
                out.push_str(&format!("{l}\n"));
                let fields: Vec<&str> = l.splitn(10, ' ').collect();
                out.push_str(&format!("{} {ghost}\n", fields[..9].join(" ")));
            }
        } else {
            out.push_str(&format!("{l}\n"));
        }
    }
    fs::write(&path, out).unwrap();
    last_path
}

/// With `dir`'s listing short of its last file, the next save leaves that file out: it took the
/// listing rather than walking `dir`. Then, the cache deleted, a save is exact again. The file
/// left out is returned.
#[track_caller]
fn listing_is_used(repo: &Repo, dir: &str) -> String {
    let missing = tamper_listing(repo, dir, None);
    let id = repo.save(&["--allow-empty"]);
    let object = format!("refs/checkpoints/{id}:{missing}");
    assert!(
        !repo.git_ok(&["cat-file", "-e", &object]),
        "{missing} was listed out, and the save did not take the listing"
    );
    fs::remove_file(repo.path().join(".git/checkpoint-stat-cache")).unwrap();
    save_matches_oracle(repo, &["--allow-empty"]);
    missing
}

/// A save that finds what the stat cache says, its listings among it, leaves the file as it is
/// (rewritten, it would name the new checkpoint as the holder of its objects); one that finds
/// something else writes what it found.
#[test]
fn a_save_that_finds_what_the_stat_cache_says_leaves_it_as_it_is() {
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    untracked_tree(&repo);
    save_matches_oracle(&repo, &["--allow-empty"]);
    settle(&repo);
    let path = repo.path().join(".git/checkpoint-stat-cache");
    let before = fs::read(&path).unwrap();
    for args in [&["--allow-empty"][..], &[]] {
        save_matches_oracle(&repo, args);
        assert!(
            fs::read(&path).unwrap() == before,
            "the cache was rewritten by a save with {args:?}"
        );
    }
    repo.write("gen/a/b1/new.txt", "new\n");
    save_matches_oracle(&repo, &[]);
    let after = String::from_utf8(fs::read(&path).unwrap()).unwrap();
    assert!(
        after.lines().any(|l| l.ends_with(" gen/a/b1/new.txt")),
        "the new file is in the cache:\n{after}"
    );
}

#[test]
fn untracked_directories_listed_in_the_stat_cache_are_not_walked() {
    // Not vacuous: a listing with a file left out leaves it out of the next save, so a listed
    // directory is not walked (every other test of the cache would pass without the listings).
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    untracked_tree(&repo);
    save_matches_oracle(&repo, &["--allow-empty"]);
    settle(&repo);
    listing_is_used(&repo, "gen");
    // A listing naming a file that is not there (the directory's times not kept by the file
    // system): the save walks everything again, and is exact.
    settle(&repo);
    tamper_listing(&repo, "gen", Some("gen/a/b0/ghost.txt"));
    save_matches_oracle(&repo, &["--allow-empty"]);
}

#[test]
fn tracked_directories_listed_in_the_stat_cache_are_not_walked_while_the_index_is_the_same() {
    // A tracked directory's listing names its untracked files; which files are untracked is
    // the index's to say, so the listing holds only while the index is the same file.
    let repo = Repo::with_commit(&[
        ("tracked", "t\n"),
        ("src/a.txt", "a\n"),
        ("src/deep/b.txt", "b\n"),
        ("src/deep/c.txt", "c\n"),
    ]);
    repo.write("src/deep/new.txt", "untracked in a tracked directory\n");
    save_matches_oracle(&repo, &["--allow-empty"]);
    let settle_src = |repo: &Repo| settle_listing(repo, "t", "src");
    // Not vacuous: a listing with its untracked file left out leaves it out of the next save.
    settle_src(&repo);
    assert_eq!(listing_is_used(&repo, "src"), "src/deep/new.txt");
    // Untracked by the index alone: no directory changes, the file must still be saved.
    settle_src(&repo);
    repo.git(&["rm", "-q", "--cached", "src/deep/b.txt"]);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "src/deep/b.txt"), "b");
    // Tracked again by the index alone.
    settle_src(&repo);
    repo.git(&["add", "src/deep/b.txt", "src/deep/new.txt"]);
    save_matches_oracle(&repo, &[]);
    repo.git(&["commit", "-qm", "more"]);
    save_matches_oracle(&repo, &[]);
    // Edited, deleted, and made executable while listed: the comparison with the index sees
    // them as before.
    settle_src(&repo);
    repo.write("src/a.txt", "A\n");
    repo.remove("src/deep/c.txt");
    repo.chmod_x("src/deep/b.txt", true);
    save_matches_oracle(&repo, &[]);
    // The .gitignore at the top, tracked, edited without staging: hides an untracked file.
    settle_src(&repo);
    repo.write("src/deep/x.log", "log\n");
    save_matches_oracle(&repo, &[]);
    settle_src(&repo);
    repo.write(".gitignore", "*.log\n");
    repo.git(&["add", ".gitignore"]);
    repo.git(&["commit", "-qm", "ignore"]);
    save_matches_oracle(&repo, &[]);
    settle_src(&repo);
    repo.write(".gitignore", "*.txt\n");
    save_matches_oracle(&repo, &[]);
}

#[test]
fn listed_untracked_directories_see_every_change_below_and_above_them() {
    // `src/` is tracked; `src/gen/` and everything below it untracked, listed after `settle`.
    let repo = Repo::with_commit(&[("tracked", "t\n"), ("src/lib.txt", "lib\n")]);
    let layout = |repo: &Repo| {
        for i in 0..9 {
            repo.write(&format!("src/gen/d{}/f{i}.txt", i % 3), &format!("f{i}\n"));
        }
        repo.write("src/gen/empty-later/.keep-out.log", "ignored\n");
        repo.write("src/gen/x.log", "ignored below\n");
    };
    layout(&repo);
    repo.write(".gitignore", "*.log\n");
    repo.git(&["add", ".gitignore"]);
    repo.git(&["commit", "-qm", "ignore logs"]);
    // A repository embedded in `src/`: its commit can change with no directory's times, so
    // `src/` is not listed, and `src/gen/` is the outermost listed directory.
    repo.git(&["init", "-q", "src/embedded"]);
    repo.write("src/embedded/x", "x\n");
    repo.git(&["-C", "src/embedded", "add", "x"]);
    repo.git(&["-C", "src/embedded", "commit", "-qm", "x"]);
    save_matches_oracle(&repo, &["--allow-empty"]);
    let settle_gen = |repo: &Repo| settle_listing(repo, "u", "src/gen");
    // A file added, then the directory's modification time put back: its change time still
    // moves, and the file is seen.
    settle_gen(&repo);
    let dir = repo.path().join("src/gen/d1");
    let mtime = fs::metadata(&dir).unwrap().modified().unwrap();
    repo.write("src/gen/d1/new.txt", "new\n");
    fs::File::open(&dir).unwrap().set_modified(mtime).unwrap();
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "src/gen/d1/new.txt"), "new");
    // A file in a directory that held only ignored files.
    settle_gen(&repo);
    repo.write("src/gen/empty-later/seen.txt", "seen\n");
    save_matches_oracle(&repo, &[]);
    // The tracked .gitignore above it, edited without staging: reveals x.log, hides f0.txt.
    settle_gen(&repo);
    repo.write(".gitignore", "f0.txt\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "src/gen/x.log"), "ignored below");
    // An untracked .gitignore in the tracked directory above it.
    settle_gen(&repo);
    repo.write("src/.gitignore", "d2/\n");
    save_matches_oracle(&repo, &[]);
    // Its content alone, at the same size.
    settle_gen(&repo);
    repo.write("src/.gitignore", "d1/\n");
    save_matches_oracle(&repo, &[]);
    // The global excludes file (`$XDG_CONFIG_HOME/git/ignore`), created, then edited.
    settle_gen(&repo);
    let global = repo.home().join(".config/git/ignore");
    fs::create_dir_all(global.parent().unwrap()).unwrap();
    fs::write(&global, "f3.txt\n").unwrap();
    save_matches_oracle(&repo, &[]);
    settle_gen(&repo);
    fs::write(&global, "f4.txt\n").unwrap();
    save_matches_oracle(&repo, &[]);
    // `checkpoint.exclude` leaves a file of it out.
    settle_gen(&repo);
    repo.git(&["config", "checkpoint.exclude", "src/gen/d2/f5.txt"]);
    let id = repo.save(&[]);
    assert_eq!(
        repo.checkpoint_tree(&id),
        repo.oracle_tree_without(&["src/gen/d2/f5.txt"])
    );
    repo.git(&["config", "--unset", "checkpoint.exclude"]);
    save_matches_oracle(&repo, &[]);
    // A listed file staged and unstaged; the directory renamed, and back.
    settle_gen(&repo);
    repo.git(&["add", "src/gen/d2/f2.txt"]);
    save_matches_oracle(&repo, &[]);
    repo.git(&["rm", "-q", "--cached", "src/gen/d2/f2.txt"]);
    save_matches_oracle(&repo, &[]);
    settle_gen(&repo);
    fs::rename(repo.path().join("src/gen"), repo.path().join("src/gen2")).unwrap();
    save_matches_oracle(&repo, &[]);
    fs::rename(repo.path().join("src/gen2"), repo.path().join("src/gen")).unwrap();
    save_matches_oracle(&repo, &[]);
    // And a restore through listed directories puts back what the checkpoint had, undoably.
    settle_gen(&repo);
    let before = save_matches_oracle(&repo, &["--allow-empty"]);
    repo.write("src/gen/d0/f0.txt", "edited\n");
    repo.write("src/gen/d2/added.txt", "added\n");
    repo.remove("src/gen/d1/f1.txt");
    repo.cp(&["restore", &before]).ok();
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&before));
    repo.cp(&["undo"]).ok();
    assert_eq!(repo.read("src/gen/d2/added.txt"), "added\n");
    // Without the embedded repository `src/` is listed, from `src/gen/`'s listing and what the
    // walk found around it: a change deep inside `src/gen/` is still seen.
    settle_gen(&repo);
    fs::remove_dir_all(repo.path().join("src/embedded")).unwrap();
    // The first save after it skips `src/gen/` and lists `src/` (settled by then).
    settle_listing(&repo, "t", "src");
    repo.write("src/gen/d0/later.txt", "later\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "src/gen/d0/later.txt"), "later");
}

#[test]
fn the_cached_trees_of_untracked_directories_are_used() {
    // Not vacuous: the other tests of the cache would pass without it. A cached tree swapped
    // for another existing one shows in the next save, so unchanged directories are reused.
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    untracked_tree(&repo);
    save_matches_oracle(&repo, &["--allow-empty"]);
    settle(&repo);
    let path = repo.path().join(".git/checkpoint-stat-cache");
    let cache = fs::read_to_string(&path).unwrap();
    let empty = repo.git_stdin(&["mktree"], b"");
    let swapped: String = cache
        .lines()
        .map(|l| match l.strip_prefix("d ") {
            Some(rest) if l.ends_with(" gen") => {
                let (_, count_and_dir) = rest.split_once(' ').unwrap();
                format!("d {empty} {count_and_dir}\n")
            }
            _ => format!("{l}\n"),
        })
        .collect();
    fs::write(&path, swapped).unwrap();
    let id = repo.save(&["--allow-empty"]);
    assert_eq!(
        repo.git(&["rev-parse", &format!("refs/checkpoints/{id}:gen")]),
        empty
    );
    // Once the directory changes, the cached tree is not used.
    repo.write("gen/top.txt", "TOP\n");
    save_matches_oracle(&repo, &[]);
}

#[test]
fn tracked_files_edited_but_not_staged_are_remembered_and_never_trusted_wrongly() {
    // Not vacuous: a cached blob swapped for another shows in the next save, so an edited
    // tracked file is not re-read while it stays as it was. Every other step must match git.
    let repo = Repo::with_commit(&[
        ("a.txt", "a\n"),
        ("sub/c.txt", "c\n"),
        ("run.sh", "echo\n"),
        ("kept.txt", "k\n"),
    ]);
    repo.write("a.txt", "a edited\n");
    repo.write("sub/c.txt", "c edited\n");
    repo.write("run.sh", "echo edited\n");
    save_matches_oracle(&repo, &[]);
    let cache = settled_cache(&repo);
    let line = |path: &str| {
        cache
            .lines()
            .find(|l| l.starts_with("f ") && l.ends_with(&format!(" {path}")))
            .map(str::to_string)
    };
    let cached = line("a.txt").expect("the edited tracked file is in the stat cache");
    assert!(
        line("kept.txt").is_none(),
        "an unchanged tracked file is not"
    );
    let swapped = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"swapped\n");
    let old = cached.split(' ').nth(1).unwrap().to_string();
    let path = repo.path().join(".git/checkpoint-stat-cache");
    fs::write(
        &path,
        cache.replace(&cached, &cached.replacen(&old, &swapped, 1)),
    )
    .unwrap();
    let id = repo.save(&["--allow-empty"]);
    assert_eq!(
        repo.git(&["rev-parse", &format!("refs/checkpoints/{id}:a.txt")]),
        swapped,
        "the cached blob was used"
    );
    fs::remove_file(&path).unwrap();
    // Rewritten at the same size within a second, made executable, staged, reverted: each
    // is seen.
    settled_cache(&repo);
    repo.write("a.txt", "A EDITED\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "a.txt"), "A EDITED");
    settled_cache(&repo);
    repo.chmod_x("run.sh", true);
    save_matches_oracle(&repo, &[]);
    settled_cache(&repo);
    repo.git(&["add", "sub/c.txt"]);
    save_matches_oracle(&repo, &[]);
    repo.write("sub/c.txt", "c edited again\n");
    save_matches_oracle(&repo, &[]);
    settled_cache(&repo);
    repo.git(&["checkout", "--", "a.txt"]);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "a.txt"), "a");
    // A clean filter changes how the edited files hash: the cache is not used.
    settled_cache(&repo);
    repo.write("a.txt", "lower again\n");
    settled_cache(&repo);
    repo.write(".gitattributes", "*.txt filter=upper\n");
    repo.git(&["config", "filter.upper.clean", "tr a-z A-Z"]);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "a.txt"), "LOWER AGAIN");
}

#[test]
fn untracked_directories_changed_deep_inside_are_rebuilt() {
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    untracked_tree(&repo);
    save_matches_oracle(&repo, &["--allow-empty"]);
    // A file added deep inside.
    settle(&repo);
    repo.write("gen/a/b1/c/d/new.txt", "new\n");
    save_matches_oracle(&repo, &[]);
    // Removed deep inside.
    settle(&repo);
    repo.remove("gen/a/b0/c/deep.txt");
    save_matches_oracle(&repo, &[]);
    // Renamed: as many files as before, one of them elsewhere.
    settle(&repo);
    fs::rename(
        repo.path().join("gen/a/b1/f1.txt"),
        repo.path().join("gen/a/b2/f1.txt"),
    )
    .unwrap();
    save_matches_oracle(&repo, &[]);
    // Same size, new content, and the old modification time put back.
    settle(&repo);
    let file = repo.path().join("gen/a/b2/f2.txt");
    let mtime = fs::metadata(&file).unwrap().modified().unwrap();
    repo.write("gen/a/b2/f2.txt", "UNTRACKED 2\n");
    fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "gen/a/b2/f2.txt"), "UNTRACKED 2");
    // Made executable.
    settle(&repo);
    repo.chmod_x("gen/a/b0/f0.txt", true);
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(mode_of(&repo, &id, "gen/a/b0/f0.txt"), "100755");
    // A directory replaced by a file of the same name, deep inside.
    settle(&repo);
    repo.remove("gen/a/b1/c");
    repo.write("gen/a/b1/c", "a file now\n");
    save_matches_oracle(&repo, &[]);
    // A file replaced by a directory.
    settle(&repo);
    repo.remove("gen/a/b1/c");
    repo.write("gen/a/b1/c/inside.txt", "a directory again\n");
    save_matches_oracle(&repo, &[]);
    // One of its files becomes tracked: the directory is no longer untracked.
    settle(&repo);
    repo.git(&["add", "gen/a/b2/f5.txt"]);
    save_matches_oracle(&repo, &[]);
    repo.git(&["rm", "-q", "--cached", "gen/a/b2/f5.txt"]);
    save_matches_oracle(&repo, &[]);
    // A repository appears inside.
    settle(&repo);
    repo.git(&["init", "-q", "gen/a/b0/nested"]);
    repo.write("gen/a/b0/nested/x", "x\n");
    repo.git(&["-C", "gen/a/b0/nested", "add", "x"]);
    repo.git(&["-C", "gen/a/b0/nested", "commit", "-qm", "x"]);
    save_matches_oracle(&repo, &[]);
}

#[test]
fn untracked_directories_with_symlinks_changed_are_rebuilt() {
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    untracked_tree(&repo);
    repo.symlink("target-1", "gen/a/link");
    save_matches_oracle(&repo, &["--allow-empty"]);
    // A symlink pointed elsewhere (a target of the same length).
    settle(&repo);
    repo.remove("gen/a/link");
    repo.symlink("target-2", "gen/a/link");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "gen/a/link"), "target-2");
    // A file replaced by a symlink to it, and a symlink by a file with its target as content.
    settle(&repo);
    repo.remove("gen/top.txt");
    repo.symlink("a/b0/f0.txt", "gen/top.txt");
    repo.remove("gen/a/link");
    repo.write("gen/a/link", "target-2");
    save_matches_oracle(&repo, &[]);
    // A symlinked directory inside: recorded as a link, never followed.
    settle(&repo);
    std::os::unix::fs::symlink(repo.path().join("gen/a/b1"), repo.path().join("gen/via")).unwrap();
    save_matches_oracle(&repo, &[]);
    settle(&repo);
    repo.write("gen/a/b1/through.txt", "seen through gen/via too\n");
    save_matches_oracle(&repo, &[]);
}

#[test]
fn untracked_directories_are_rebuilt_when_ignore_rules_change() {
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    untracked_tree(&repo);
    repo.write("gen/a/b1/x.log", "log\n");
    repo.write("gen/a/b2/y.tmp", "tmp\n");
    repo.write("gen/.gitignore", "*.log\n");
    save_matches_oracle(&repo, &["--allow-empty"]);
    // A .gitignore edit that hides one file and reveals another: as many files as before.
    settle(&repo);
    repo.write("gen/.gitignore", "*.tmp\n");
    save_matches_oracle(&repo, &[]);
    // A .gitignore added deep inside.
    settle(&repo);
    repo.write("gen/a/b0/.gitignore", "f0.txt\n");
    save_matches_oracle(&repo, &[]);
    // info/exclude.
    settle(&repo);
    fs::write(repo.path().join(".git/info/exclude"), "gen/a/b1/\n").unwrap();
    save_matches_oracle(&repo, &[]);
    settle(&repo);
    fs::write(repo.path().join(".git/info/exclude"), "").unwrap();
    save_matches_oracle(&repo, &[]);
    // core.excludesFile, and then its content alone.
    settle(&repo);
    let excludes = repo.scratch().join("excludes");
    fs::write(&excludes, "top.txt\n").unwrap();
    repo.git(&["config", "core.excludesFile", excludes.to_str().unwrap()]);
    save_matches_oracle(&repo, &[]);
    settle(&repo);
    fs::write(&excludes, "*.log\n").unwrap();
    save_matches_oracle(&repo, &[]);
    // checkpoint.maxFileSize leaves a file out, then lets it in again.
    settle(&repo);
    repo.write("gen/a/b2/big.txt", &"x".repeat(4000));
    save_matches_oracle(&repo, &[]);
    settle(&repo);
    repo.git(&["config", "checkpoint.maxFileSize", "1k"]);
    let id = repo.save(&[]);
    assert_eq!(
        repo.checkpoint_tree(&id),
        repo.oracle_tree_without(&["gen/a/b2/big.txt"])
    );
    settle_without(&repo, "gen/a/b2/big.txt");
    repo.git(&["config", "--unset", "checkpoint.maxFileSize"]);
    save_matches_oracle(&repo, &[]);
}

/// [`settle`], for a save that leaves `left_out` out (too large).
fn settle_without(repo: &Repo, left_out: &str) {
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let id = repo.save(&["--allow-empty"]);
    assert_eq!(
        repo.checkpoint_tree(&id),
        repo.oracle_tree_without(&[left_out])
    );
}

#[test]
fn the_stat_cache_survives_its_checkpoint_being_dropped_and_collected() {
    // The cache names the checkpoint that holds its objects; once that is gone (and its objects
    // collected) nothing it names is used unchecked.
    let repo = Repo::with_commit(&[("tracked", "t\n")]);
    untracked_tree(&repo);
    save_matches_oracle(&repo, &["--allow-empty"]);
    settle(&repo);
    for id in repo.checkpoint_ids() {
        repo.cp(&["drop", &id]).ok();
    }
    repo.git(&["reflog", "expire", "--expire=now", "--all"]);
    repo.git(&["gc", "-q", "--prune=now"]);
    save_matches_oracle(&repo, &["--allow-empty"]);
    save_matches_oracle(&repo, &["--allow-empty"]);
}

#[test]
fn a_tracked_gitattributes_edited_but_not_staged_invalidates_the_stat_cache() {
    let repo = Repo::with_commit(&[("tracked", "t\n"), (".gitattributes", "")]);
    repo.git(&["config", "filter.upper.clean", "tr a-z A-Z"]);
    untracked_tree(&repo);
    save_matches_oracle(&repo, &["--allow-empty"]);
    settle(&repo);
    // git reads the working tree's .gitattributes: the edit applies before it is staged.
    repo.write(".gitattributes", "*.txt filter=upper\n");
    let id = save_matches_oracle(&repo, &[]);
    assert_eq!(blob(&repo, &id, "gen/top.txt"), "TOP");
}

#[test]
fn long_saves_show_progress_on_a_terminal_only() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for i in 0..2500 {
        repo.write(&format!("many/d{}/f{i}", i % 25), "x\n");
    }
    // Not a terminal: nothing but the summary.
    let plain = repo.cp(&["save"]).ok();
    assert!(!plain.stderr.contains("hashing"), "{}", plain.stderr);
    // A terminal (through `script`, when it is installed).
    let has_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok();
    if !has_script {
        crate::common::skip("script(1) is not installed");
        return;
    }
    repo.write("many/another", "y\n");
    let mut cmd = std::process::Command::new("script");
    cmd.args([
        "-qec",
        &format!("{} save --allow-empty", bin()),
        "/dev/null",
    ])
    .current_dir(repo.path());
    repo.env(&mut cmd);
    let tty = String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned();
    assert!(tty.contains("hashing untracked files: 500/"), "{tty:?}");
}

#[test]
fn many_files_feature_a_symlinked_path_and_non_utf8_names() {
    let repo = Repo::with_commit(&[("a", "a\n"), ("dir/b", "b\n")]);
    repo.git(&["config", "feature.manyFiles", "true"]);
    repo.git(&["update-index", "--index-version", "4"]);
    repo.write("a", "many\n");
    save_matches_oracle(&repo, &[]);

    // Bytes that are not UTF-8 in a file name.
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9-latin1.txt");
    fs::write(repo.path().join(name), "latin-1 name\n").unwrap();
    let id = save_matches_oracle(&repo, &[]);
    let listed = repo.git(&[
        "ls-tree",
        "--name-only",
        "-z",
        &format!("refs/checkpoints/{id}"),
    ]);
    assert!(listed.contains("latin1"), "{listed:?}");

    // The work tree entered through a symlink.
    let link = repo.scratch().join("via-link");
    std::os::unix::fs::symlink(repo.path(), &link).unwrap();
    repo.write("dir/b", "through the link\n");
    let out = repo.cp_in_dir(&link.join("dir"), &["save", "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.checkpoint_tree(out.stdout.trim()), repo.oracle_tree());
}

#[test]
fn the_index_is_read_as_git_reads_it_without_verifying_its_checksum() {
    let repo = Repo::with_commit(&[("a", "1\n"), ("dir/b", "2\n")]);
    repo.write("a", "changed\n");
    repo.write("new", "untracked\n");
    // git verifies the index's trailing checksum only in fsck; every other command reads an
    // index whose checksum is off (a torn write of the last bytes, a tool that skips it).
    let index = repo.path().join(".git/index");
    let good = std::fs::read(&index).unwrap();
    let mut bytes = good.clone();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&index, &bytes).unwrap();
    // Without optional locks, so that git does not write a refreshed index (with a good
    // checksum) over the damaged one, as it may when an entry looks racily clean.
    assert!(
        repo.git_ok(&["--no-optional-locks", "status", "--porcelain"]),
        "git reads it"
    );
    let before = repo.fingerprint();
    let id = repo.save(&["-q"]);
    assert_eq!(repo.fingerprint(), before, "save changed the index");
    assert_eq!(
        std::fs::read(&index).unwrap(),
        bytes,
        "save rewrote the index"
    );
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    // fsck is the one git command that checks the checksum: give it the index back whole.
    std::fs::write(&index, &good).unwrap();
    repo.fsck();
    // A damaged structure is still refused, with one error line.
    bytes.truncate(40);
    std::fs::write(&index, &bytes).unwrap();
    let out = repo.cp(&["save"]).fails_with(1);
    out.assert_one_error_line();
}
