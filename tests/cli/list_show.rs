//! `list` and `show`: what they print, that they read damaged notes, and that they change
//! nothing.

use std::fs;

use crate::common::{Json, Repo, json_get, notes_plus_commit, skip};

/// A repository with `n` checkpoints, each of a different file state; kinds alternate
/// manual/auto and messages are `message <i>`. Ids oldest first.
fn repo_with_checkpoints(n: usize) -> (Repo, Vec<String>) {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let ids = (0..n)
        .map(|i| {
            repo.write("a", &format!("version {i}\n"));
            let kind = if i % 2 == 0 { "manual" } else { "auto" };
            repo.save(&["-q", "-m", &format!("message {i}"), "--kind", kind])
        })
        .collect();
    (repo, ids)
}

fn first_column(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

fn newest_first(ids: &[String]) -> Vec<String> {
    ids.iter().rev().cloned().collect()
}

// ---------------------------------------------------------------------------------------------
// list

#[test]
fn list_is_newest_first_with_the_id_in_the_first_column() {
    let (repo, ids) = repo_with_checkpoints(4);
    let before = repo.fingerprint();
    let out = repo.cp(&["list"]).ok();
    assert_eq!(first_column(&out.stdout), newest_first(&ids));
    let first = out.stdout.lines().next().unwrap();
    assert!(first.contains("message 3"), "{first}");
    assert!(first.contains("auto"), "{first}");
    let short = repo.git(&[
        "rev-parse",
        "--short=7",
        &format!("refs/checkpoints/{}", ids[3]),
    ]);
    assert!(first.contains(&short), "the short commit: {first}");
    assert_eq!(repo.fingerprint(), before);
}

#[test]
fn list_limits_filters_by_kind_and_has_an_ls_alias() {
    let (repo, ids) = repo_with_checkpoints(4);
    let all = newest_first(&ids);
    assert_eq!(first_column(&repo.cp(&["ls"]).ok().stdout), all);
    assert_eq!(
        first_column(&repo.cp(&["list", "-n", "2"]).ok().stdout),
        all[..2]
    );
    assert_eq!(
        first_column(&repo.cp(&["list", "-n", "1"]).ok().stdout),
        all[..1]
    );
    assert_eq!(
        first_column(&repo.cp(&["list", "--kind", "auto"]).ok().stdout),
        vec![ids[3].clone(), ids[1].clone()]
    );
    assert_eq!(
        first_column(
            &repo
                .cp(&["list", "--kind", "manual", "-n", "1"])
                .ok()
                .stdout
        ),
        vec![ids[2].clone()]
    );
    assert_eq!(repo.cp(&["list", "--kind", "session"]).ok().stdout, "");
}

#[test]
fn list_json_is_an_array_of_notes_with_their_commits() {
    let (repo, ids) = repo_with_checkpoints(3);
    let out = repo.cp(&["list", "--json"]).ok().stdout;
    let json = Json::parse(&out);
    assert_eq!(json.keys(""), vec!["0", "1", "2"]);
    let newest = newest_first(&ids);
    for (i, id) in newest.iter().enumerate() {
        assert_eq!(&json.get(&format!("{i}.id")), id);
        assert_eq!(json.get(&format!("{i}.commit")), repo.checkpoint_commit(id));
    }
    let notes: Vec<String> = newest.iter().map(|id| repo.note(id)).collect();
    assert!(
        notes_plus_commit(&out, &notes),
        "each element is the note plus \"commit\": {out}"
    );
    let limited = Json::parse(
        &repo
            .cp(&["list", "--json", "-n", "1", "--kind", "manual"])
            .ok()
            .stdout,
    );
    assert_eq!(limited.keys(""), vec!["0"]);
    assert_eq!(limited.get("0.id"), ids[2]);
}

/// An empty list prints nothing on stdout (`--json`: `[]`), and says on stderr that there are
/// no checkpoints yet and how to make one.
#[test]
fn list_without_checkpoints_is_empty_and_says_how_to_make_one() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let out = repo.cp(&["list"]).ok();
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "no checkpoints yet; make one with `git checkpoint save`\n"
    );
    let json = repo.cp(&["list", "--json"]).ok();
    assert_eq!(json.stdout, "[]\n");
    assert_eq!(json.stderr, "");
    let unborn = Repo::new();
    let out = unborn.cp(&["list"]).ok();
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("git checkpoint save"), "{}", out.stderr);
    // Filters that leave nothing say so.
    repo.save(&["-q"]);
    let out = repo.cp(&["list", "--kind", "auto"]).ok();
    assert_eq!(
        (out.stdout.as_str(), out.stderr.as_str()),
        ("", "no checkpoints match\n")
    );
}

/// A linked worktree without a checkpoint of its own, in a repository that has some: `list`,
/// `@`, `diff` and `restore @` say that this worktree has none yet, and how to make one,
/// rather than "no checkpoint named `@`".
#[test]
fn a_worktree_without_checkpoints_of_its_own_says_so() {
    let (repo, ids) = repo_with_checkpoints(1);
    let wt = repo.scratch().join("wt");
    repo.git(&["worktree", "add", "-q", "--detach", wt.to_str().unwrap()]);
    let list = repo.cp_in_dir(&wt, &["list"]).ok();
    assert_eq!(list.stdout, "");
    assert!(
        list.stderr
            .contains("no checkpoints in this worktree yet (1 checkpoint in other worktrees")
            && list.stderr.contains("git checkpoint save"),
        "{}",
        list.stderr
    );
    // Plain diff names no `@`: the user typed none.
    let diff = repo.cp_in_dir(&wt, &["diff"]).fails_with(1);
    assert!(
        diff.stderr.starts_with(
            "error: nothing to compare with: this worktree has no checkpoints of its own yet"
        ) && !diff.stderr.contains('@')
            && diff.stderr.contains("git checkpoint diff <CP>"),
        "{}",
        diff.stderr
    );
    for args in [&["show", "@"][..], &["restore", "@"], &["restore", "@{1}"]] {
        let out = repo.cp_in_dir(&wt, args).fails_with(1);
        out.assert_one_error_line();
        assert!(
            out.stderr
                .starts_with("error: this worktree has no checkpoints of its own yet")
                && out
                    .stderr
                    .contains("hint: make one with `git checkpoint save`"),
            "{args:?}: {}",
            out.stderr
        );
    }
    // Its id still names it from there.
    repo.cp_in_dir(&wt, &["show", &ids[0]]).ok();
}

/// Counts agree with their nouns, a second pin says it was already pinned, and unpinning one
/// that is not pinned says so.
#[test]
fn one_file_is_one_file_and_a_second_pin_says_so() {
    let repo = Repo::new();
    repo.write("only", "one\n");
    let out = repo.cp(&["save"]).ok();
    assert!(
        out.stderr
            .contains("(1 file; 1 added, 0 modified, 0 deleted since HEAD)"),
        "{}",
        out.stderr
    );
    let id = out.id();
    repo.write("only", "two\n");
    let restored = repo.cp(&["restore", &id]).ok();
    assert!(
        restored.stderr.contains(": 1 file written, 0 deleted"),
        "{}",
        restored.stderr
    );
    let first = repo.cp(&["pin", &id]).ok();
    assert_eq!(first.stderr, format!("pinned checkpoint {id}\n"));
    let second = repo.cp(&["pin", &id]).ok();
    assert_eq!(
        second.stderr,
        format!("checkpoint {id} was already pinned\n")
    );
    assert_eq!(repo.note_json(&id).get("pinned"), "true");
    repo.cp(&["unpin", &id]).ok();
    let again = repo.cp(&["unpin", &id]).ok();
    assert_eq!(again.stderr, format!("checkpoint {id} was not pinned\n"));
}

#[test]
fn list_shows_this_worktree_and_all_shows_every_worktree() {
    let (repo, ids) = repo_with_checkpoints(2);
    let wt = repo.scratch().join("wt");
    repo.git(&["worktree", "add", "-q", "--detach", wt.to_str().unwrap()]);
    fs::write(wt.join("w"), "w\n").unwrap();
    let wt_id = repo.cp_in_dir(&wt, &["save", "-q"]).ok().id();
    repo.write("a", "after the worktree's\n");
    let last = repo.save(&["-q"]);

    let main = repo.cp(&["list"]).ok();
    assert_eq!(
        first_column(&main.stdout),
        vec![last.clone(), ids[1].clone(), ids[0].clone()]
    );
    let in_wt = repo.cp_in_dir(&wt, &["list"]).ok();
    assert_eq!(first_column(&in_wt.stdout), vec![wt_id.clone()]);
    let everything = vec![last.clone(), wt_id.clone(), ids[1].clone(), ids[0].clone()];
    assert_eq!(
        first_column(&repo.cp(&["list", "--all"]).ok().stdout),
        everything
    );
    assert_eq!(
        first_column(&repo.cp_in_dir(&wt, &["list", "--all"]).ok().stdout),
        everything
    );
    let json = repo.cp(&["list", "--all", "--json"]).ok().stdout;
    let json = Json::parse(&json);
    let worktrees: Vec<String> = (0..4).map(|i| json.get(&format!("{i}.worktree"))).collect();
    assert_eq!(worktrees, vec!["null", "wt", "null", "null"]);
}

// ---------------------------------------------------------------------------------------------
// Damaged notes: still listed and shown, from the commit's trailers, with a warning

/// Two checkpoints (an `auto` one, then a `manual` one); `damage` is applied to the older
/// one's note, given its commit. Then list, list --json, show and a new save must all work.
fn damaged_note_still_lists(damage: impl FnOnce(&Repo, &str)) {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "first\n");
    let old = repo.save(&["-q", "-m", "first message", "--kind", "auto"]);
    repo.write("a", "second\n");
    let new = repo.save(&["-q", "-m", "second message"]);
    damage(&repo, &repo.checkpoint_commit(&old));
    let before = repo.fingerprint();

    let out = repo.cp(&["list"]).ok();
    assert_eq!(first_column(&out.stdout), vec![new.clone(), old.clone()]);
    assert!(
        out.stderr.contains("note"),
        "a warning about the note: {}",
        out.stderr
    );
    assert!(
        out.stderr.contains(&old),
        "the warning names {old}: {}",
        out.stderr
    );
    assert!(
        !out.stderr.contains(&new),
        "only the damaged one is warned about: {}",
        out.stderr
    );
    let line = out.stdout.lines().nth(1).unwrap();
    assert!(line.contains("auto"), "kind from the trailer: {line}");
    assert!(
        line.contains("first message"),
        "message from the commit: {line}"
    );

    let json = Json::parse(&repo.cp(&["list", "--json"]).ok().stdout);
    assert_eq!(json.get("1.id"), old);
    assert_eq!(json.get("1.kind"), "auto");
    assert_eq!(json.get("1.message"), "first message");
    assert_eq!(json.get("1.commit"), repo.checkpoint_commit(&old));
    assert_eq!(json.get("0.message"), "second message");

    let show = repo.cp(&["show", &old]).ok();
    assert!(show.stdout.contains(&old), "{}", show.stdout);
    assert!(show.stdout.contains("first message"), "{}", show.stdout);
    assert!(show.stderr.contains("note"), "{}", show.stderr);
    let show_json = Json::parse(&repo.cp(&["show", &old, "--json"]).ok().stdout);
    assert_eq!(show_json.get("id"), old);
    assert_eq!(show_json.get("kind"), "auto");
    assert_eq!(repo.fingerprint(), before, "reading changes nothing");

    // Saving still works next to a damaged note, and leaves it to the user.
    repo.write("a", "third\n");
    repo.save(&["-q"]);
    assert_eq!(repo.checkpoint_ids().len(), 3);
    repo.fsck();
}

#[test]
fn missing_note_still_lists() {
    damaged_note_still_lists(|repo, commit| {
        repo.git(&["notes", "--ref=checkpoints", "remove", commit]);
    });
}

#[test]
fn note_that_is_not_json_still_lists() {
    damaged_note_still_lists(|repo, commit| {
        repo.set_note(commit, "garbage{");
    });
}

#[test]
fn deeply_nested_note_still_lists() {
    damaged_note_still_lists(|repo, commit| {
        let file = repo.scratch().join("deep-note");
        fs::write(&file, "[".repeat(100_000)).unwrap();
        repo.git(&[
            "notes",
            "--ref=checkpoints",
            "add",
            "-f",
            "-F",
            file.to_str().unwrap(),
            commit,
        ]);
    });
}

#[test]
fn deeply_nested_valid_json_note_still_lists() {
    damaged_note_still_lists(|repo, commit| {
        let file = repo.scratch().join("deep-valid-note");
        let depth = 50_000;
        let doc = format!(
            "{{\"schema\":1,\"x\":{}{}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        fs::write(&file, doc).unwrap();
        repo.git(&[
            "notes",
            "--ref=checkpoints",
            "add",
            "-f",
            "-F",
            file.to_str().unwrap(),
            commit,
        ]);
    });
}

#[test]
fn huge_note_still_lists() {
    damaged_note_still_lists(|repo, commit| {
        let file = repo.scratch().join("huge-note");
        fs::write(&file, format!("{{\"a\":\"{}\"}}", "x".repeat(4_000_000))).unwrap();
        repo.git(&[
            "notes",
            "--ref=checkpoints",
            "add",
            "-f",
            "-F",
            file.to_str().unwrap(),
            commit,
        ]);
    });
}

#[test]
fn note_of_another_shape_still_lists() {
    damaged_note_still_lists(|repo, commit| {
        repo.git(&[
            "notes",
            "--ref=checkpoints",
            "add",
            "-f",
            "-m",
            r#"{"schema":"one","id":7,"kind":["x"],"stats":"many"}"#,
            commit,
        ]);
    });
}

/// `refs/notes/checkpoints` itself damaged (`damage` is given its tip): every checkpoint still
/// lists, shows, diffs and restores from its commit, with one warning naming the notes ref;
/// save still works without touching the notes ref; pin, which would have to rewrite the
/// unreadable notes, refuses with a hint; drop deletes refs and leaves the notes alone.
fn damaged_notes_ref_still_works(damage: impl FnOnce(&Repo, &str)) {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "first\n");
    let old = repo.save(&["-q", "-m", "first message", "--kind", "auto"]);
    repo.write("a", "second\n");
    let new = repo.save(&["-q", "-m", "second message", "--pin"]);
    damage(&repo, &repo.git(&["rev-parse", "refs/notes/checkpoints"]));
    // The damaged ref as git lists it, and on the files backend the loose file's bytes.
    let notes_ref = || {
        let file = fs::read(repo.path().join(".git/refs/notes/checkpoints")).unwrap_or_default();
        (repo.ref_value("refs/notes/checkpoints"), file)
    };
    let damaged = notes_ref();

    let out = repo.cp(&["list"]).ok();
    assert_eq!(first_column(&out.stdout), vec![new.clone(), old.clone()]);
    assert_eq!(out.stderr.lines().count(), 1, "one warning: {}", out.stderr);
    assert!(
        out.stderr.starts_with("warning:") && out.stderr.contains("refs/notes/checkpoints"),
        "the warning names the notes ref: {}",
        out.stderr
    );
    let line = out.stdout.lines().nth(1).unwrap();
    assert!(
        line.contains("auto") && line.contains("first message"),
        "{line}"
    );
    let json = Json::parse(&repo.cp(&["list", "--json"]).ok().stdout);
    assert_eq!(json.get("0.message"), "second message");
    assert_eq!(json.get("1.kind"), "auto");
    let show = repo.cp(&["show", &old]).ok();
    assert!(show.stdout.contains("first message"), "{}", show.stdout);
    assert!(
        show.stderr.contains("refs/notes/checkpoints"),
        "{}",
        show.stderr
    );
    let diff = repo.cp(&["diff", &old, &new, "--name-only"]).ok();
    assert_eq!(diff.stdout, "a\n");

    // Saving works; the new checkpoint has no note, and the damaged ref is left as it was.
    repo.write("a", "third\n");
    let saved = repo.cp(&["save"]).ok();
    let third = saved.id();
    assert!(
        saved.stderr.contains("refs/notes/checkpoints"),
        "the save says its note is missing: {}",
        saved.stderr
    );
    assert_eq!(repo.checkpoint_tree(&third), repo.oracle_tree());
    assert_eq!(notes_ref(), damaged, "left for the user");
    assert_eq!(repo.checkpoint_ids().len(), 3);

    // Restore works too (its pre-restore checkpoint is saved the same way).
    repo.cp(&["restore", "-q", &old]).ok();
    assert_eq!(repo.read("a"), "first\n");

    // Writing a note would drop every unreadable one: refused, with a hint.
    let pin = repo.cp(&["pin", "-q", &old]).fails_with(1);
    pin.assert_one_error_line();
    assert!(
        pin.stderr.contains("refs/notes/checkpoints") && pin.stderr.contains("hint:"),
        "{}",
        pin.stderr
    );
    // The pin of `new` cannot be read: prune keeps every checkpoint whose note it cannot read.
    let prune = repo.cp(&["prune", "--keep", "0"]).ok();
    assert!(!prune.stdout.contains(&new), "{}", prune.stdout);
    assert!(
        repo.checkpoint_ids().contains(&new),
        "a pinned one survives"
    );
    // Drop deletes the ref; the notes are left alone.
    repo.cp(&["drop", "-q", &old]).ok();
    assert!(!repo.checkpoint_ids().contains(&old));
    assert_eq!(notes_ref(), damaged);
}

#[test]
fn notes_ref_pointing_at_a_blob_still_works() {
    damaged_notes_ref_still_works(|repo, _| {
        let blob = repo.git(&["rev-parse", "HEAD:a"]);
        repo.git(&["update-ref", "refs/notes/checkpoints", &blob]);
    });
}

#[test]
fn notes_ref_whose_tree_is_missing_still_works() {
    damaged_notes_ref_still_works(|repo, tip| {
        let tree = repo.git(&["rev-parse", &format!("{tip}^{{tree}}")]);
        fs::remove_file(
            repo.path()
                .join(".git/objects")
                .join(&tree[..2])
                .join(&tree[2..]),
        )
        .unwrap();
        // The notes ref stays a ref that the test can compare.
        assert_ne!(repo.ref_value("refs/notes/checkpoints"), "");
    });
}

#[test]
fn notes_ref_that_is_not_a_ref_still_works() {
    if Repo::new().is_reftable() {
        skip("a reftable stack holds no unparseable ref for the test to write");
        return;
    }
    damaged_notes_ref_still_works(|repo, _| {
        fs::write(repo.path().join(".git/refs/notes/checkpoints"), "garbage\n").unwrap();
    });
}

#[test]
fn trailer_lookalikes_in_a_message_do_not_fool_the_fallback() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "x\n");
    let id = repo.save(&[
        "-q",
        "--kind",
        "auto",
        "-m",
        "tricky\n\nCheckpoint-Kind: evil\nCheckpoint-Id: 20000101-000000-000000",
    ]);
    repo.git(&[
        "notes",
        "--ref=checkpoints",
        "remove",
        &repo.checkpoint_commit(&id),
    ]);
    let json = Json::parse(&repo.cp(&["list", "--json"]).ok().stdout);
    assert_eq!(json.get("0.id"), id);
    assert_eq!(json.get("0.kind"), "auto");
    let shown = repo.cp(&["show", &id, "--json"]).ok().stdout;
    assert_eq!(json_get(&shown, "id"), id);
}

// ---------------------------------------------------------------------------------------------
// show

#[test]
fn show_prints_metadata_and_the_changed_paths() {
    let repo = Repo::with_commit(&[
        ("alpha.txt", "one\ntwo\n"),
        ("gone.txt", "bye\n"),
        ("same.txt", "s\n"),
    ]);
    repo.write("alpha.txt", "one\nTWO\nthree\n");
    repo.remove("gone.txt");
    repo.write("fresh.txt", "n\n");
    let id = repo.save(&[
        "-q",
        "-m",
        "my message",
        "--name",
        "nm",
        "--kind",
        "session",
    ]);
    let before = repo.fingerprint();
    let out = repo.cp(&["show", &id]).ok();
    let commit = repo.checkpoint_commit(&id);
    assert!(out.stdout.contains(&id), "{}", out.stdout);
    assert!(out.stdout.contains(&commit[..7]), "{}", out.stdout);
    assert!(out.stdout.contains("my message"), "{}", out.stdout);
    assert!(out.stdout.contains("session"), "{}", out.stdout);
    assert!(out.stdout.contains("nm"), "{}", out.stdout);
    for path in ["alpha.txt", "gone.txt", "fresh.txt"] {
        assert!(out.stdout.contains(path), "{path} in\n{}", out.stdout);
    }
    assert!(
        !out.stdout.contains("same.txt"),
        "unchanged paths are not listed:\n{}",
        out.stdout
    );
    // The stat is git's own for the same two trees.
    let git_stat = repo.git(&["diff", "--stat", "HEAD", &commit]);
    for line in git_stat.lines() {
        assert!(
            out.stdout.contains(line),
            "missing {line:?} in\n{}",
            out.stdout
        );
    }
    assert_eq!(repo.fingerprint(), before);
}

#[test]
fn show_json_is_the_note_plus_the_commit() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "b\n");
    let id = repo.save(&["-q", "-m", "m", "--meta", "x=1"]);
    let out = repo.cp(&["show", &id, "--json"]).ok().stdout;
    assert_eq!(out.lines().count(), 1, "{out}");
    let json = Json::parse(&out);
    assert_eq!(json.get("id"), id);
    assert_eq!(json.get("commit"), repo.checkpoint_commit(&id));
    assert!(
        notes_plus_commit(&format!("[{out}]"), &[repo.note(&id)]),
        "show --json is the note plus \"commit\": {out}"
    );
}

#[test]
fn show_of_a_checkpoint_taken_on_an_unborn_branch() {
    let repo = Repo::new();
    repo.write("first.txt", "1\n");
    repo.write("dir/second.txt", "2\n");
    let id = repo.save(&["-q"]);
    let out = repo.cp(&["show", &id]).ok();
    assert!(out.stdout.contains("first.txt"), "{}", out.stdout);
    assert!(out.stdout.contains("dir/second.txt"), "{}", out.stdout);
    let empty = Repo::new();
    let id = empty.save(&["-q"]);
    let out = empty.cp(&["show", &id]).ok();
    assert!(out.stdout.contains(&id), "{}", out.stdout);
}

#[test]
fn show_mentions_skipped_files() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.git(&["config", "checkpoint.maxFileSize", "1k"]);
    repo.write("huge.bin", &"z".repeat(5000));
    repo.write("a", "changed\n");
    let id = repo.save(&["-q"]);
    let out = repo.cp(&["show", &id]).ok();
    assert!(
        out.stdout.contains("huge.bin"),
        "skipped files are shown: {}",
        out.stdout
    );
}

#[test]
fn reading_commands_write_nothing() {
    let (repo, ids) = repo_with_checkpoints(3);
    let manifest = repo.git_dir_manifest();
    let refs = repo.git(&["for-each-ref"]);
    let before = repo.fingerprint();
    repo.cp(&["list"]).ok();
    repo.cp(&["list", "--all", "--json"]).ok();
    repo.cp(&["show", &ids[0]]).ok();
    repo.cp(&["show", "@", "--json"]).ok();
    repo.cp(&["show", "@{2}", "-p"]).ok();
    assert_eq!(repo.fingerprint(), before);
    assert_eq!(repo.git(&["for-each-ref"]), refs);
    assert_eq!(
        repo.git_dir_manifest(),
        manifest,
        "no file in .git was added or removed"
    );
}

#[test]
fn list_aligns_its_columns_and_never_prints_terminal_escapes() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "1\n");
    let first = repo.save(&["-q", "-m", "short", "--kind", "auto"]);
    repo.write("a", "2\n");
    repo.write("b", "new\n");
    let hostile = "title\u{1b}]0;pwned\u{7}\u{1b}[2J";
    let second = repo.save(&["-q", "-m", hostile, "--kind", "pre-restore"]);
    let list = repo.cp(&["list"]).ok();
    assert!(!list.stdout.contains('\u{1b}'), "{:?}", list.stdout);
    let lines: Vec<&str> = list.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", list.stdout);
    // id, age, commit, kind, +a ~m -d, label: each column starts at the same place.
    let column_starts = |line: &str| -> Vec<usize> {
        let mut starts = vec![0];
        let bytes = line.as_bytes();
        for i in 2..bytes.len() {
            if bytes[i - 2] == b' ' && bytes[i - 1] == b' ' && bytes[i] != b' ' {
                starts.push(i);
            }
        }
        starts
    };
    let (a, b) = (column_starts(lines[0]), column_starts(lines[1]));
    assert_eq!(a[..5], b[..5], "{}", list.stdout);
    assert!(lines[0].starts_with(&second) && lines[1].starts_with(&first));
    assert_eq!(&lines[0][a[3]..a[4]].trim_end(), &"pre-restore");
    assert_eq!(&lines[1][b[3]..b[4]].trim_end(), &"auto");
    assert_eq!(&lines[0][a[4]..a[5]].trim_end(), &"+1 ~1 -0");
    assert_eq!(&lines[1][b[4]..b[5]].trim_end(), &"+0 ~1 -0");
    let commit = repo.checkpoint_commit(&second);
    assert_eq!(&lines[0][a[2]..a[3]].trim_end(), &&commit[..7]);
    assert!(
        lines[0].ends_with("title\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"),
        "{}",
        lines[0]
    );
    let show = repo.cp(&["show", &second]).ok();
    assert!(!show.stdout.contains('\u{1b}'), "{:?}", show.stdout);
    // JSON carries the message exactly, escaped as JSON.
    let json = repo.cp(&["show", &second, "--json"]).ok();
    assert_eq!(json_get(&json.stdout, "message"), hostile);
}

/// `show` takes the diff options `diff` takes, as `git show` takes `git diff`'s: what follows
/// the metadata is git's own output for the same two trees with the same options.
#[test]
fn show_takes_the_diff_options_and_prints_what_git_prints() {
    let body: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    let repo = Repo::with_commit(&[("old.txt", body.as_str()), ("b.txt", "one\ntwo\n")]);
    repo.remove("old.txt");
    repo.write("new.txt", &body.replace("line 10\n", "line ten\n"));
    repo.write("b.txt", "one\nTWO\n");
    let id = repo.save(&["-q"]);
    let commit = repo.checkpoint_commit(&id);
    let after_header = |out: &str| -> String {
        out.split_once("\n\n")
            .map(|(_, rest)| rest.to_string())
            .unwrap_or_default()
    };
    for (ours, git) in [
        (&["-p", "-M90", "-U1"][..], &["-M90%", "-U1"][..]),
        (&["-p", "-M"], &["-M"]),
        (&["-U1"], &["-M", "-U1"]),
        (&["--name-status"], &["-M", "--name-status"]),
        (&["--name-status", "-M95"], &["-M95%", "--name-status"]),
        (
            &["--name-only", "--no-renames"],
            &["--no-renames", "--name-only"],
        ),
        (&["--numstat"], &["-M", "--numstat"]),
    ] {
        let mut args = vec!["show", id.as_str()];
        args.extend_from_slice(ours);
        let out = repo.cp(&args).ok();
        let mut git_args = vec!["diff"];
        git_args.extend_from_slice(git);
        git_args.extend_from_slice(&["HEAD", &commit]);
        let expected = repo.git(&git_args);
        assert_eq!(
            after_header(&out.stdout).trim_end(),
            expected.trim_end(),
            "show {ours:?} against git diff {git:?}"
        );
    }
    // The metadata stays; --json still prints the metadata alone, and refuses a format.
    assert!(
        repo.cp(&["show", &id, "--name-only"])
            .ok()
            .stdout
            .starts_with(&format!("checkpoint {id}\n"))
    );
    repo.cp(&["show", &id, "--json", "--stat"]).fails_with(2);
}

/// The notes memo (`checkpoint-notes-cache`) that saves, pins and drops keep, so that `list`
/// need not read every note blob: whatever happened to the notes, what is listed is what the
/// notes say, as it is with no memo at all.
#[test]
fn the_notes_memo_never_shows_what_the_notes_do_not_say() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let memo = repo.path().join(".git/checkpoint-notes-cache");
    let mut ids = Vec::new();
    for i in 0..4 {
        repo.write("a", &format!("{i}\n"));
        ids.push(repo.save(&["-q", "-m", &format!("message {i}")]));
    }
    assert!(memo.exists(), "the saves keep a memo");
    let listed = |repo: &Repo| -> String {
        let with = repo.cp(&["list", "--json"]).ok().stdout;
        let kept = fs::read(&memo).ok();
        let _ = fs::remove_file(&memo);
        let without = repo.cp(&["list", "--json"]).ok().stdout;
        assert!(!memo.exists(), "list writes no memo");
        if let Some(bytes) = kept {
            fs::write(&memo, bytes).unwrap();
        }
        assert_eq!(with, without, "with the memo and without");
        with
    };
    assert_eq!(Json::parse(&listed(&repo)).get("0.message"), "message 3");

    repo.cp(&["pin", &ids[1]]).ok();
    assert_eq!(Json::parse(&listed(&repo)).get("2.pinned"), "true");
    repo.cp(&["unpin", &ids[1]]).ok();
    assert_eq!(Json::parse(&listed(&repo)).get("2.pinned"), "false");
    repo.cp(&["drop", "-q", &ids[0]]).ok();
    assert!(!listed(&repo).contains(&ids[0]));

    // A note rewritten behind git-checkpoint's back, then more saves on top.
    let commit = repo.checkpoint_commit(&ids[2]);
    let note = repo.git(&["notes", "--ref=checkpoints", "show", &commit]);
    let rewritten = note.replace("message 2", "rewritten by hand");
    repo.set_note(&commit, &rewritten);
    assert!(listed(&repo).contains("rewritten by hand"));
    repo.write("a", "after\n");
    ids.push(repo.save(&["-q", "-m", "after the rewrite"]));
    let out = listed(&repo);
    assert!(out.contains("rewritten by hand") && out.contains("after the rewrite"));

    // The notes ref moved back to an older notes commit: the memo is of another one.
    let tip = repo.git(&["rev-parse", "refs/notes/checkpoints"]);
    repo.write("a", "newest\n");
    repo.save(&["-q", "-m", "newest"]);
    repo.git(&["update-ref", "refs/notes/checkpoints", &tip]);
    listed(&repo);

    // Packed by `git gc`, and a memo cut short (a save killed while writing it).
    repo.git(&["gc", "-q"]);
    listed(&repo);
    let bytes = fs::read(&memo).unwrap();
    fs::write(&memo, &bytes[..bytes.len() - 3]).unwrap();
    listed(&repo);
    repo.write("a", "last\n");
    repo.save(&["-q", "-m", "last"]);
    assert!(listed(&repo).contains("\"last\""));
    assert!(
        fs::read(&memo).unwrap().len() < bytes.len(),
        "the save started a new memo rather than append after what cannot be read"
    );
}
