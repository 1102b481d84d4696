//! `push` and `fetch` between two clones and a bare remote, all in temporary directories, with
//! the git CLI as the oracle: ref and tree ids, `git notes show`, `git fsck`.

use crate::common::{Json, Repo, json_eval};

/// A bare remote and two clones of it, `a` and `b`, both on `main` tracking `origin/main`.
struct Trio {
    remote: Repo,
    a: Repo,
    b: Repo,
}

fn trio() -> Trio {
    let remote = Repo::init(&["--bare"]);
    let url = remote.path().to_str().unwrap().to_string();
    let a = Repo::with_commit(&[
        ("README", "hello\n"),
        ("src/lib.rs", "pub fn a() {}\n"),
        ("run.sh", "#!/bin/sh\necho run\n"),
    ]);
    a.git(&["remote", "add", "origin", &url]);
    a.git(&["push", "-q", "-u", "origin", "main"]);
    let b = Repo::new();
    b.git(&["remote", "add", "origin", &url]);
    b.git(&["pull", "-q", "origin", "main"]);
    b.git(&["branch", "-q", "-u", "origin/main"]);
    // The `.env` of `make_changes` is a secret that was not ignored: these tests are about
    // what travels, so it is allowed here (secrets.rs tests what push holds back).
    for clone in [&a, &b] {
        clone.git(&["config", "checkpoint.secretsAllow", ".env"]);
    }
    Trio { remote, a, b }
}

/// Work in progress: a modified file, an untracked file, a secret that was not ignored.
fn make_changes(repo: &Repo, tag: &str) {
    repo.write("src/lib.rs", &format!("pub fn a() {{}}\n// {tag}\n"));
    repo.write(&format!("notes/{tag}.txt"), "todo\n");
    repo.write(".env", &format!("TOKEN={tag}\n"));
}

/// The refs of a repository (`for-each-ref` output).
fn refs(repo: &Repo) -> String {
    repo.git(&["for-each-ref", "--format=%(objectname) %(refname)"])
}

/// The commits that have a note in `refs/notes/checkpoints`, sorted.
fn noted_commits(repo: &Repo) -> Vec<String> {
    if !repo.git_ok(&["rev-parse", "-q", "--verify", "refs/notes/checkpoints"]) {
        return Vec::new();
    }
    let mut out: Vec<String> = repo
        .git(&["notes", "--ref=checkpoints", "list"])
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1).map(str::to_string))
        .collect();
    out.sort();
    out
}

/// The note of `id` as the sending side wrote it: without the `fetched` key, which only the
/// receiving side adds, re-serialized canonically.
fn shared_note(repo: &Repo, id: &str) -> String {
    json_eval(
        &repo.note(id),
        "json.dumps({k: x for k, x in v.items() if k != 'fetched'})",
    )
}

/// The remote a checkpoint was fetched from, per its note; "" for one made here.
fn fetched_from(repo: &Repo, id: &str) -> String {
    json_eval(&repo.note(id), "(v.get('fetched') or {}).get('remote', '')")
}

/// No staging refs are left, in any of the repositories.
#[track_caller]
fn assert_no_staging(repos: &[&Repo]) {
    for repo in repos {
        assert_eq!(
            repo.git(&["for-each-ref", "refs/checkpoint-fetch/"]),
            "",
            "staging refs left behind"
        );
    }
}

#[test]
fn checkpoints_and_notes_arrive_intact() {
    let t = trio();
    make_changes(&t.a, "one");
    t.a.chmod_x("run.sh", true);
    let first =
        t.a.save(&["-m", "first", "--name", "before", "--meta", "agent=x"]);
    t.a.write("notes/two.txt", "more\n");
    let second = t.a.save(&["-m", "second"]);

    let pushed = t.a.cp(&["push"]).ok();
    assert_eq!(
        pushed.stdout,
        "pushed 2 checkpoints to origin (0 already there)\n"
    );
    assert!(
        pushed
            .stderr
            .contains("sends 3 files that are not in their HEAD commit")
            && pushed.stderr.contains("secrets"),
        "the warning counts .env, notes/one.txt and notes/two.txt: {}",
        pushed.stderr
    );
    for id in [&first, &second] {
        assert_eq!(t.remote.checkpoint_commit(id), t.a.checkpoint_commit(id));
        assert_eq!(t.remote.note(id), t.a.note(id));
    }

    let fetched = t.b.cp(&["fetch"]).ok();
    assert_eq!(
        fetched.stdout,
        "fetched 2 checkpoints from origin (0 already here)\n"
    );
    assert_eq!(fetched.stderr, "");
    for id in [&first, &second] {
        assert_eq!(t.b.checkpoint_commit(id), t.a.checkpoint_commit(id));
        assert_eq!(t.b.checkpoint_tree(id), t.a.checkpoint_tree(id));
        assert_eq!(t.b.parents(id), t.a.parents(id));
        assert_eq!(
            shared_note(&t.b, id),
            shared_note(&t.a, id),
            "the note arrives whole"
        );
        assert_eq!(
            fetched_from(&t.b, id),
            "origin",
            "and says where it came from"
        );
        assert_eq!(fetched_from(&t.a, id), "");
    }
    let note = t.b.note_json(&first);
    assert_eq!(note.get("name"), "before");
    assert_eq!(note.get("meta.agent"), "x");
    // The receiving side lists them, marked, and names them by id or name…
    let show = t.b.cp(&["show", "before", "--json"]).ok();
    assert_eq!(Json::parse(&show.stdout).get("id"), first);
    let list = t.b.cp(&["list"]).ok();
    assert_eq!(list.stdout.lines().count(), 2, "{}", list.stdout);
    assert!(
        list.stdout.lines().all(|l| l.contains("(from origin)")),
        "{}",
        list.stdout
    );
    // …but they are not its own history: `@` and `undo` do not count them.
    t.b.cp(&["show", "@"]).fails_with(1);
    t.b.cp(&["undo", "--dry-run"]).fails_with(1);
    let own = t.b.save(&["-q", "--allow-empty"]);
    assert_eq!(
        Json::parse(&t.b.cp(&["show", "@", "--json"]).ok().stdout).get("id"),
        own
    );

    // Again: nothing new, nothing changed.
    let before = refs(&t.b);
    let again = t.b.cp(&["fetch"]).ok();
    assert_eq!(
        again.stdout,
        "fetched 0 checkpoints from origin (2 already here)\n"
    );
    assert_eq!(refs(&t.b), before);
    let again = t.a.cp(&["push", "-q"]).ok();
    assert_eq!(
        again.stdout,
        "pushed 0 checkpoints to origin (2 already there)\n"
    );
    assert_eq!(again.stderr, "");

    assert_no_staging(&[&t.a, &t.b, &t.remote]);
    t.a.fsck();
    t.b.fsck();
    t.remote.fsck();
}

#[test]
fn notes_from_both_sides_survive() {
    let t = trio();
    make_changes(&t.a, "from-a");
    let from_a = t.a.save(&["-m", "from a"]);
    make_changes(&t.b, "from-b");
    let from_b = t.b.save(&["-m", "from b"]);

    t.a.cp(&["push"]).ok();
    // b has not fetched: its push must merge the remote's notes, not replace them.
    t.b.cp(&["push"]).ok();
    assert_eq!(noted_commits(&t.remote), {
        let mut v = vec![
            t.a.checkpoint_commit(&from_a),
            t.b.checkpoint_commit(&from_b),
        ];
        v.sort();
        v
    });

    t.a.cp(&["fetch"]).ok();
    t.b.cp(&["fetch"]).ok();
    for repo in [&t.a, &t.b] {
        assert_eq!(repo.checkpoint_ids(), {
            let mut v = vec![from_a.clone(), from_b.clone()];
            v.sort();
            v
        });
        for id in [&from_a, &from_b] {
            let note = repo.note_json(id);
            assert_eq!(note.get("id"), *id, "a valid JSON note for {id}");
        }
        let list = repo.cp(&["list", "--all"]).ok();
        assert!(!list.stderr.contains("warning"), "{}", list.stderr);
        repo.fsck();
    }
    assert_eq!(shared_note(&t.a, &from_b), shared_note(&t.b, &from_b));
    assert_eq!(shared_note(&t.b, &from_a), shared_note(&t.a, &from_a));
    // Pushing back what was fetched does not spread where it was fetched from.
    t.b.cp(&["push", "-q"]).ok();
    assert_eq!(fetched_from(&t.remote, &from_a), "");
    assert_no_staging(&[&t.a, &t.b]);
    t.remote.fsck();
}

#[test]
fn notes_merge_key_by_key_and_a_local_pin_survives_a_fetch() {
    let t = trio();
    make_changes(&t.a, "pin");
    let id = t.a.save(&["-m", "shared", "--meta", "from=a"]);
    t.a.cp(&["push", "-q"]).ok();
    t.b.cp(&["fetch", "-q"]).ok();
    t.b.cp(&["pin", &id]).ok();
    assert_eq!(t.b.note_json(&id).get("pinned"), "true");

    // a adds a key this version does not know (as a newer version might) and pushes again.
    let commit = t.a.checkpoint_commit(&id);
    let mut note = t.a.note(&id);
    note.truncate(note.rfind('}').unwrap());
    note.push_str(",\"review\":{\"by\":\"a\"}}");
    t.a.set_note(&commit, &note);
    t.a.cp(&["push", "-q"]).ok();
    assert_eq!(t.remote.note_json(&id).get("review.by"), "a");
    assert_eq!(t.remote.note_json(&id).get("pinned"), "false");

    let fetched = t.b.cp(&["fetch"]).ok();
    assert_eq!(
        fetched.stdout,
        "fetched 0 checkpoints from origin (1 already here)\n"
    );
    let merged = t.b.note_json(&id);
    assert_eq!(merged.get("pinned"), "true", "the local pin wins");
    assert_eq!(merged.get("review.by"), "a", "the remote's new key arrives");
    assert_eq!(merged.get("meta.from"), "a");
    // And the pin keeps the checkpoint from being pruned.
    t.b.cp(&["prune", "--keep", "0"]).ok();
    assert_eq!(t.b.checkpoint_ids(), vec![id.clone()]);

    // b pushes it (named: a fetched checkpoint is not among those a bare `push` sends): its
    // side wins on the remote, the remote's own key stays.
    t.b.cp(&["push", "-q", "origin", &id]).ok();
    let remote = t.remote.note_json(&id);
    assert_eq!(remote.get("pinned"), "true");
    assert_eq!(remote.get("review.by"), "a");
    t.remote.fsck();
    t.b.fsck();
}

/// Rewrite the note of checkpoint `id` in `repo` with `edit` applied to its JSON text.
fn edit_note(repo: &Repo, id: &str, edit: impl FnOnce(String) -> String) -> String {
    let note = edit(repo.note(id));
    let commit = repo.checkpoint_commit(id);
    repo.set_note(&commit, &note);
    repo.note(id)
}

/// Notes written by a newer version (schema 2) travel whole both ways and merge key by key like
/// any other; a note this version could not write back exactly is never rewritten, on either
/// side, and a warning says so.
#[test]
fn notes_of_a_newer_schema_travel_whole_and_are_never_overwritten() {
    let t = trio();
    make_changes(&t.a, "newer");
    let sent = t.a.save(&["-m", "from a newer version"]);
    edit_note(&t.a, &sent, |note| {
        note.replacen("\"schema\":1", "\"schema\":2", 1).replacen(
            '{',
            "{\"future\":{\"x\":[1,2]},",
            1,
        )
    });
    t.a.cp(&["push", "-q", "origin", &sent]).ok();
    let remote = t.remote.note_json(&sent);
    assert_eq!(remote.get("schema"), "2");
    assert_eq!(remote.get("future.x"), "[1, 2]");
    t.b.cp(&["fetch", "-q"]).ok();
    let arrived = t.b.note_json(&sent);
    assert_eq!(arrived.get("future.x"), "[1, 2]");
    assert_eq!(arrived.get("schema"), "2");
    assert_eq!(fetched_from(&t.b, &sent), "origin");
    assert_eq!(shared_note(&t.b, &sent), shared_note(&t.a, &sent));

    // b's own newer field survives a fetch that brings a new key from a.
    edit_note(&t.b, &sent, |note| {
        note.replacen('{', "{\"mine\":\"b\",", 1)
    });
    edit_note(&t.a, &sent, |note| {
        note.replacen('{', "{\"review\":\"a\",", 1)
    });
    t.a.cp(&["push", "-q", "origin", &sent]).ok();
    t.b.cp(&["fetch", "-q"]).ok();
    let merged = t.b.note_json(&sent);
    assert_eq!(merged.get("mine"), "b");
    assert_eq!(merged.get("review"), "a");
    assert_eq!(merged.get("future.x"), "[1, 2]");
    assert_eq!(
        fetched_from(&t.b, &sent),
        "origin",
        "still a fetched checkpoint"
    );

    // A note this version cannot write back exactly stays byte for byte on b through a fetch
    // that has news for it...
    let kept = edit_note(&t.b, &sent, |note| {
        note.replacen('{', "{\"big\":123456789012345678901234567890,", 1)
    });
    edit_note(&t.a, &sent, |note| {
        note.replacen('{', "{\"later\":true,", 1)
    });
    t.a.cp(&["push", "-q", "origin", &sent]).ok();
    let fetched = t.b.cp(&["fetch"]).ok();
    assert_eq!(t.b.note(&sent), kept);
    assert!(
        fetched
            .stderr
            .contains(&format!("kept this repository's note of {sent} as it is")),
        "{}",
        fetched.stderr
    );
    // ... and is not pushed, with a warning, leaving the remote's note as it was.
    let on_remote = t.remote.note(&sent);
    let pushed = t.b.cp(&["push", "origin", &sent]).ok();
    assert!(
        pushed
            .stderr
            .contains(&format!("did not push the note of {sent}")),
        "{}",
        pushed.stderr
    );
    assert_eq!(t.remote.note(&sent), on_remote);
    // Nor does a push from a overwrite such a note on the remote.
    let big = edit_note(&t.remote, &sent, |note| {
        note.replacen('{', "{\"n\":1e400,", 1)
    });
    edit_note(&t.a, &sent, |note| note.replacen('{', "{\"again\":1,", 1));
    let pushed = t.a.cp(&["push", "origin", &sent]).ok();
    assert!(
        pushed
            .stderr
            .contains(&format!("left the remote's note of {sent} as it is")),
        "{}",
        pushed.stderr
    );
    assert_eq!(t.remote.note(&sent), big);
    for repo in [&t.remote, &t.a, &t.b] {
        repo.fsck();
    }
}

#[test]
fn restore_works_on_the_receiving_side() {
    let t = trio();
    make_changes(&t.a, "restore");
    t.a.chmod_x("run.sh", true);
    t.a.remove("README");
    t.a.symlink("src/lib.rs", "link");
    let id = t.a.save(&["-m", "to hand over"]);
    t.a.cp(&["push", "-q"]).ok();

    t.b.cp(&["fetch", "-q"]).ok();
    t.b.write("scratch.txt", "b's own work\n");
    let restored = t.b.cp(&["restore", &id]).ok();
    assert!(
        restored.stderr.contains("restored checkpoint"),
        "{}",
        restored.stderr
    );
    assert_eq!(t.b.oracle_tree(), t.a.checkpoint_tree(&id));
    assert_eq!(t.b.read(".env"), "TOKEN=restore\n");
    // b's own work is in the pre-restore checkpoint, as after any restore.
    t.b.cp(&["restore", "@", "-q"]).ok();
    assert_eq!(t.b.read("scratch.txt"), "b's own work\n");
    t.b.fsck();
}

#[test]
fn a_checkpoint_of_the_same_id_is_never_overwritten() {
    let t = trio();
    make_changes(&t.a, "a");
    let id = t.a.save(&["-m", "a's"]);
    t.a.cp(&["push", "-q"]).ok();
    let remote_before = t.remote.checkpoint_commit(&id);

    // b has a checkpoint of the same id on another commit.
    make_changes(&t.b, "b");
    let other = t.b.save(&["-m", "b's"]);
    let b_commit = t.b.checkpoint_commit(&other);
    t.b.git(&["update-ref", &format!("refs/checkpoints/{id}"), &b_commit]);

    let fetched = t.b.cp(&["fetch"]).ok();
    assert_eq!(
        fetched.stdout,
        "fetched 0 checkpoints from origin (0 already here)\n"
    );
    assert!(
        fetched
            .stderr
            .contains(&format!("kept local checkpoint {id}")),
        "{}",
        fetched.stderr
    );
    assert_eq!(
        t.b.checkpoint_commit(&id),
        b_commit,
        "fetch kept the local one"
    );
    assert!(
        !noted_commits(&t.b).contains(&remote_before),
        "the note of a checkpoint not imported is not imported"
    );

    let pushed = t.b.cp(&["push", "-q"]).fails_with(1);
    pushed.assert_one_error_line();
    assert!(
        pushed.stderr.contains(&format!("`{id}`")),
        "{}",
        pushed.stderr
    );
    assert_eq!(
        pushed.stdout, "pushed 1 checkpoint to origin (0 already there)\n",
        "the other checkpoint is pushed"
    );
    assert_eq!(
        t.remote.checkpoint_commit(&id),
        remote_before,
        "push forced nothing"
    );
    assert_eq!(t.remote.checkpoint_commit(&other), b_commit);
    let only = t.b.cp(&["push", "-q", "origin", &id]).fails_with(1);
    only.assert_one_error_line();
    assert_eq!(t.remote.checkpoint_commit(&id), remote_before);
    assert_no_staging(&[&t.b]);
    t.remote.fsck();
    t.b.fsck();
}

#[test]
fn push_of_selected_checkpoints_sends_only_those_and_their_notes() {
    let t = trio();
    make_changes(&t.a, "one");
    let one = t.a.save(&["-m", "one", "--name", "first"]);
    t.a.write("notes/two.txt", "2\n");
    let two = t.a.save(&["-m", "two"]);
    t.a.write("notes/three.txt", "3\n");
    let three = t.a.save(&["-m", "three"]);

    let pushed = t.a.cp(&["push", "origin", "first", &three]).ok();
    assert_eq!(
        pushed.stdout,
        "pushed 2 checkpoints to origin (0 already there)\n"
    );
    let mut expected = vec![one.clone(), three.clone()];
    expected.sort();
    assert_eq!(t.remote.checkpoint_ids(), expected);
    let mut noted = vec![t.a.checkpoint_commit(&one), t.a.checkpoint_commit(&three)];
    noted.sort();
    assert_eq!(
        noted_commits(&t.remote),
        noted,
        "no note of an unpushed checkpoint"
    );
    assert!(
        !t.remote
            .git(&["log", "--all", "--format=%B"])
            .contains(&two)
    );

    t.b.cp(&["fetch", "-q"]).ok();
    assert_eq!(t.b.checkpoint_ids(), expected);
    t.remote.fsck();
}

#[test]
fn push_dry_run_lists_untracked_paths_and_changes_nothing() {
    let t = trio();
    make_changes(&t.a, "dry");
    let id = t.a.save(&["-m", "dry"]);
    let remote_refs = refs(&t.remote);
    let local_refs = refs(&t.a);

    let run = t.a.cp(&["push", "--dry-run"]).ok();
    assert_eq!(
        run.stdout,
        format!("{id}  2 files not in its HEAD commit:\n\t.env\n\tnotes/dry.txt\n"),
        "the modified tracked file src/lib.rs is not listed"
    );
    assert!(run.stderr.contains("nothing was sent"), "{}", run.stderr);
    assert_eq!(refs(&t.remote), remote_refs);
    assert_eq!(refs(&t.a), local_refs);

    let quiet = t.a.cp(&["push", "--dry-run", "-q", "origin", &id]).ok();
    assert_eq!(quiet.stdout, run.stdout);
    assert_eq!(quiet.stderr, "");
}

#[test]
fn hostile_remote_refs_and_notes_are_skipped() {
    let t = trio();
    make_changes(&t.a, "h");
    let good = t.a.save(&["-m", "good"]);
    t.a.write("notes/2.txt", "2\n");
    let bad_json = t.a.save(&["-m", "bad json"]);
    t.a.write("notes/3.txt", "3\n");
    let too_big = t.a.save(&["-m", "too big"]);
    t.a.write("notes/4.txt", "4\n");
    let wrong_id = t.a.save(&["-m", "wrong id"]);
    t.a.write("notes/5.txt", "5\n");
    let dropped = t.a.save(&["-m", "ref gone, note stays"]);
    t.a.cp(&["push", "-q"]).ok();

    let r = &t.remote;
    let commit = |id: &str| r.checkpoint_commit(id);
    let add_note = |id: &str, args: &[&str]| {
        let c = commit(id);
        let mut full = vec!["notes", "--ref=checkpoints", "add", "-f"];
        full.extend_from_slice(args);
        full.push(&c);
        r.git(&full);
    };
    add_note(&bad_json, &["-m", "{\"schema\": 1, \"id\": "]);
    let big = r.scratch().join("big-note");
    std::fs::write(&big, format!("{{\"pad\":\"{}\"}}", "x".repeat(2 << 20))).unwrap();
    add_note(&too_big, &["-F", big.to_str().unwrap()]);
    let forged = t.a.note(&wrong_id).replace(&wrong_id, &good);
    add_note(&wrong_id, &["-m", &forged]);
    let gone = commit(&dropped);
    r.git(&["update-ref", "-d", &format!("refs/checkpoints/{dropped}")]);
    let blob = r.git_stdin(&["hash-object", "-w", "--stdin"], b"not a commit\n");
    r.git(&[
        "update-ref",
        "refs/checkpoints/20260101-000000-000abc",
        &blob,
    ]);
    r.git(&["update-ref", "refs/checkpoints/not-an-id", &commit(&good)]);

    let fetched = t.b.cp(&["fetch"]).ok();
    assert_eq!(
        fetched.stdout,
        "fetched 4 checkpoints from origin (0 already here)\n"
    );
    for expected in [
        "`refs/checkpoints/not-an-id`: not a checkpoint id",
        "20260101-000000-000abc: it is not a commit",
        &format!("note of {bad_json}: note is not valid checkpoint JSON"),
        &format!("note of {too_big}: note is too large"),
        &format!("note of {wrong_id}: it names checkpoint `{good}`"),
    ] {
        assert!(
            fetched.stderr.contains(expected),
            "{expected:?} in {}",
            fetched.stderr
        );
    }
    let mut ids = vec![
        good.clone(),
        bad_json.clone(),
        too_big.clone(),
        wrong_id.clone(),
    ];
    ids.sort();
    assert_eq!(t.b.checkpoint_ids(), ids);
    let mut noted: Vec<String> = ids.iter().map(|id| commit(id)).collect();
    noted.sort();
    assert_eq!(
        noted_commits(&t.b),
        noted,
        "a note for each checkpoint fetched, and none for {gone}"
    );
    // The good note came whole; the hostile ones were replaced by what the commits record.
    assert_eq!(shared_note(&t.b, &good), shared_note(&t.a, &good));
    for id in [&bad_json, &too_big, &wrong_id] {
        let note = t.b.note_json(id);
        assert_eq!(note.get("id"), *id);
        assert_eq!(note.get("fetched.remote"), "origin");
        assert!(!t.b.note(id).contains("pad"));
    }
    // The others still list and restore, from what their commits record.
    let list = t.b.cp(&["list"]).ok();
    assert_eq!(list.stdout.lines().count(), 4, "{}", list.stdout);
    t.b.cp(&["restore", &too_big, "-q"]).ok();
    assert_eq!(t.b.read("notes/3.txt"), "3\n");
    assert_no_staging(&[&t.b]);
    t.b.fsck();
}

#[test]
fn leftovers_of_a_crashed_fetch_are_cleaned() {
    let t = trio();
    let head = t.b.git(&["rev-parse", "HEAD"]);
    t.b.git(&[
        "update-ref",
        "refs/checkpoint-fetch/1-2-abcd/checkpoints/x",
        &head,
    ]);
    t.b.git(&["update-ref", "refs/checkpoint-fetch/crashed/notes", &head]);
    t.b.cp(&["fetch", "-q"]).ok();
    assert_no_staging(&[&t.b]);
    assert!(!t.b.path().join(".git/refs/checkpoint-fetch").exists());

    // Nor are empty directories left, even when git runs us with a relative GIT_DIR (as in a
    // hook), for which gix leaves the directories of deleted refs behind.
    make_changes(&t.a, "x");
    t.a.save(&[]);
    t.a.cp(&["push", "-q"]).ok();
    let run = t.b.cp_with(
        |cmd| {
            cmd.env("GIT_DIR", ".git");
        },
        &["fetch", "-q"],
    );
    assert_eq!(
        run.ok().stdout,
        "fetched 1 checkpoint from origin (0 already here)\n"
    );
    assert_no_staging(&[&t.b]);
    assert!(!t.b.path().join(".git/refs/checkpoint-fetch").exists());
}

#[test]
fn a_remote_without_checkpoints_is_not_an_error() {
    let t = trio();
    let run = t.b.cp(&["fetch"]).ok();
    assert_eq!(
        run.stdout,
        "fetched 0 checkpoints from origin (0 already here)\n"
    );
    assert_eq!(run.stderr, "");
    let run = t.b.cp(&["push"]).ok();
    assert_eq!(run.stderr, "there are no checkpoints to push\n");
    assert_eq!(
        t.remote
            .git(&["for-each-ref", "refs/checkpoints/", "refs/notes/"]),
        ""
    );
}

#[test]
fn an_unknown_remote_is_one_error_line() {
    let t = trio();
    t.a.save(&["-m", "x"]);
    for args in [
        &["push", "nope"][..],
        &["fetch", "nope"],
        &["push", "nope", "@"],
    ] {
        let run = t.a.cp(args).fails_with(1);
        run.assert_one_error_line();
        assert!(run.stderr.contains("`nope`"), "{}", run.stderr);
        assert!(
            run.stderr
                .contains("does not appear to be a git repository"),
            "{}",
            run.stderr
        );
        assert_eq!(run.stdout, "");
    }
    // A remote that would be read as an option is refused before git sees it.
    let run =
        t.a.cp(&["push", "--", "--upload-pack=touch /tmp/x"])
            .fails_with(1);
    run.assert_one_error_line();

    // No remote at all, and none given.
    let lonely = Repo::with_commit(&[("f", "x\n")]);
    lonely.save(&[]);
    for args in [&["push"][..], &["fetch"]] {
        let run = lonely.cp(args).fails_with(1);
        run.assert_one_error_line();
        assert!(
            run.stderr.contains("no remote named `origin`"),
            "{}",
            run.stderr
        );
    }
}

/// `push` without names sends this repository's own checkpoints, never the `pre-restore` safety
/// snapshots nor checkpoints fetched from someone else; `--all` sends every one. A push whose
/// checkpoints hold no file beyond their HEAD commits does not warn of "0 files".
#[test]
fn push_without_names_sends_your_own_but_not_pre_restore_or_fetched_ones() {
    let t = trio();
    let other = Repo::init(&["--bare"]);
    t.a.git(&["remote", "add", "other", other.path().to_str().unwrap()]);
    // b's checkpoint reaches a through origin.
    make_changes(&t.b, "b");
    let theirs = t.b.save(&["-q", "-m", "b's work"]);
    t.b.cp(&["push", "-q"]).ok();
    t.a.cp(&["fetch", "-q"]).ok();
    // a's own: one with only a modified tracked file, then a restore's safety checkpoint.
    t.a.write("src/lib.rs", "pub fn a() {}\n// edited\n");
    let mine = t.a.save(&["-q", "-m", "mine"]);
    t.a.write("src/lib.rs", "pub fn a() {}\n// a mistake\n");
    t.a.cp(&["restore", "-q", &mine]).ok();
    let ids = t.a.checkpoint_ids();
    assert_eq!(ids.len(), 3, "{ids:?}");
    let pre_restore: Vec<&String> = ids
        .iter()
        .filter(|id| **id != mine && **id != theirs)
        .collect();
    assert_eq!(t.a.note_json(pre_restore[0]).get("kind"), "pre-restore");

    let pushed = t.a.cp(&["push", "other"]).ok();
    assert_eq!(
        pushed.stdout,
        "pushed 1 checkpoint to other (0 already there)\n"
    );
    assert_eq!(other.checkpoint_ids(), vec![mine.clone()]);
    assert!(!pushed.stderr.contains("0 files"), "{}", pushed.stderr);
    assert!(!pushed.stderr.contains("warning"), "{}", pushed.stderr);
    assert!(
        pushed
            .stderr
            .contains("pushing 1 checkpoint: every file it holds is in its HEAD commit"),
        "{}",
        pushed.stderr
    );

    let all = t.a.cp(&["push", "--all", "other", "-q"]).ok();
    assert_eq!(
        all.stdout,
        "pushed 2 checkpoints to other (1 already there)\n"
    );
    assert_eq!(other.checkpoint_ids(), ids);
    // --all and names do not mix.
    assert_eq!(t.a.cp(&["push", "--all", "other", &mine]).code, 2);
    // Named, a pre-restore checkpoint is pushed like any other.
    let third = Repo::init(&["--bare"]);
    t.a.cp(&["push", "-q", third.path().to_str().unwrap(), pre_restore[0]])
        .ok();
    assert_eq!(third.checkpoint_ids(), vec![pre_restore[0].clone()]);
}

#[test]
fn the_default_remote_is_the_upstream_then_origin() {
    let t = trio();
    let other = Repo::init(&["--bare"]);
    t.a.git(&["remote", "add", "other", other.path().to_str().unwrap()]);
    t.a.git(&["config", "branch.main.remote", "other"]);
    make_changes(&t.a, "default");
    let id = t.a.save(&["-m", "where to"]);

    let run = t.a.cp(&["push", "-q"]).ok();
    assert_eq!(
        run.stdout,
        "pushed 1 checkpoint to other (0 already there)\n"
    );
    assert_eq!(other.checkpoint_ids(), vec![id.clone()]);
    assert!(t.remote.checkpoint_ids().is_empty());

    t.a.git(&["config", "--unset", "branch.main.remote"]);
    let run = t.a.cp(&["push", "-q"]).ok();
    assert_eq!(
        run.stdout,
        "pushed 1 checkpoint to origin (0 already there)\n"
    );
    assert_eq!(t.remote.checkpoint_ids(), vec![id.clone()]);

    // b's upstream is origin; from a detached HEAD there is no upstream, and origin is used.
    let run = t.b.cp(&["fetch", "-q"]).ok();
    assert_eq!(
        run.stdout,
        "fetched 1 checkpoint from origin (0 already here)\n"
    );
    t.b.git(&["remote", "add", "other", other.path().to_str().unwrap()]);
    t.b.git(&["config", "branch.main.remote", "other"]);
    t.b.git(&["checkout", "-q", "--detach"]);
    let run = t.b.cp(&["fetch", "-q"]).ok();
    assert_eq!(
        run.stdout,
        "fetched 0 checkpoints from origin (1 already here)\n"
    );
    t.b.git(&["checkout", "-q", "main"]);
    let run = t.b.cp(&["fetch", "-q"]).ok();
    assert_eq!(
        run.stdout,
        "fetched 0 checkpoints from other (1 already here)\n"
    );
}

#[test]
fn a_push_that_loses_a_race_for_the_notes_is_retried() {
    let t = trio();
    // A third clone that pushes its own checkpoint while a's push is under way: from a's
    // pre-push hook, after a read the remote's notes and before the remote updates them.
    let c = Repo::new();
    let url = t.remote.path().to_str().unwrap().to_string();
    c.git(&["remote", "add", "origin", &url]);
    c.git(&["pull", "-q", "origin", "main"]);
    make_changes(&c, "c");
    let from_c = c.save(&["-m", "from c"]);
    make_changes(&t.a, "a");
    let from_a = t.a.save(&["-m", "from a"]);
    // The remote has notes already, so that a's push has a lease on a notes commit.
    make_changes(&t.b, "b");
    let from_b = t.b.save(&["-m", "from b"]);
    t.b.cp(&["push", "-q"]).ok();

    let marker = t.a.scratch().join("raced");
    let hook = format!(
        "#!/bin/sh\nif [ ! -e '{marker}' ]; then\n  touch '{marker}'\n  cd '{c}' && env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE '{bin}' push -q >/dev/null 2>&1 || exit 1\nfi\nexit 0\n",
        marker = marker.display(),
        c = c.path().display(),
        bin = crate::common::bin(),
    );
    t.a.write(".git/hooks/pre-push", &hook);
    t.a.chmod(".git/hooks/pre-push", 0o755);

    let run = t.a.cp(&["push"]).ok();
    assert!(marker.exists(), "the hook ran");
    assert_eq!(
        run.stdout,
        "pushed 1 checkpoint to origin (0 already there)\n"
    );
    let mut ids = vec![from_a.clone(), from_b.clone(), from_c.clone()];
    ids.sort();
    assert_eq!(t.remote.checkpoint_ids(), ids);
    for (repo, id) in [(&t.a, &from_a), (&t.b, &from_b), (&c, &from_c)] {
        assert_eq!(t.remote.note(id), repo.note(id), "no note lost in the race");
    }
    t.remote.fsck();
}

#[test]
fn a_remote_notes_ref_that_is_not_notes_breaks_nothing() {
    let t = trio();
    make_changes(&t.a, "n");
    let id = t.a.save(&["-m", "n"]);
    t.a.cp(&["push", "-q"]).ok();
    let blob = t
        .remote
        .git_stdin(&["hash-object", "-w", "--stdin"], b"{}\n");
    t.remote
        .git(&["update-ref", "refs/notes/checkpoints", &blob]);

    let fetched = t.b.cp(&["fetch"]).ok();
    assert_eq!(
        fetched.stdout,
        "fetched 1 checkpoint from origin (0 already here)\n"
    );
    assert!(
        fetched
            .stderr
            .contains("the remote's notes could not be read"),
        "{}",
        fetched.stderr
    );
    // The checkpoint still gets a note: what its commit records, marked as fetched.
    assert_eq!(noted_commits(&t.b), [t.b.checkpoint_commit(&id)]);
    assert_eq!(t.b.note_json(&id).get("message"), "n");
    assert_eq!(fetched_from(&t.b, &id), "origin");
    t.b.cp(&["show", &id]).ok();

    // A push must not replace notes it cannot read.
    let pushed = t.a.cp(&["push", "-q"]).fails_with(1);
    pushed.assert_one_error_line();
    assert!(
        pushed
            .stderr
            .contains("cannot read the checkpoint notes of `origin`"),
        "{}",
        pushed.stderr
    );
    assert_eq!(t.remote.git(&["rev-parse", "refs/notes/checkpoints"]), blob);
    assert_no_staging(&[&t.a, &t.b]);
}

#[test]
fn fetched_checkpoints_never_stand_in_for_this_repositorys_own() {
    let t = trio();
    // The same work on both sides: the same tree on the same HEAD.
    make_changes(&t.a, "same");
    make_changes(&t.b, "same");
    let theirs = t.a.save(&["-q", "-m", "a's"]);
    t.a.cp(&["push", "-q"]).ok();
    t.b.cp(&["fetch", "-q"]).ok();
    // b's save is b's own checkpoint, not "nothing changed since" a's.
    let own = t.b.save(&["-q"]);
    assert_ne!(own, theirs);
    let at = t.b.cp(&["show", "@", "--json"]).ok();
    assert_eq!(Json::parse(&at.stdout).get("id"), own);

    // A remote checkpoint dated far in the future (a wrong clock, a hand-made ref) does not
    // drag this repository's new ids there.
    let commit = t.remote.checkpoint_commit(&theirs);
    t.remote.git(&[
        "update-ref",
        "refs/checkpoints/29991231-235959-999fff",
        &commit,
    ]);
    t.b.cp(&["fetch", "-q"]).ok();
    t.b.write("more", "more\n");
    let next = t.b.save(&["-q"]);
    assert!(next.starts_with("20"), "{next}");
    assert!(next.as_str() < "2999", "{next}");
    assert!(next > own, "{next} after {own}");

    // The remote cannot make one of b's checkpoints look fetched, or move it to a session.
    t.b.cp(&["push", "-q"]).ok();
    let c = t.remote.checkpoint_commit(&own);
    let forged = t.b.note(&own).replacen(
        '{',
        r#"{"fetched":{"remote":"x","at":"2026-01-01T00:00:00Z"},"session":"evil","#,
        1,
    );
    t.remote
        .git(&["notes", "--ref=checkpoints", "add", "-f", "-m", &forged, &c]);
    t.b.cp(&["fetch", "-q"]).ok();
    let note = t.b.note(&own);
    assert!(
        !note.contains("fetched") && !note.contains("evil"),
        "{note}"
    );
    let listed = t.b.cp(&["list", "--session", "evil"]);
    assert_eq!(listed.code, 1, "no session `evil` here: {}", listed.stdout);
}
