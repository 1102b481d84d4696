//! drop, prune, pin: refs, notes and what git's gc then frees.

use crate::common::Repo;

fn repo_with(n: usize, kind: &str) -> (Repo, Vec<String>) {
    let repo = Repo::new();
    repo.write("a", "base\n");
    repo.git(&["add", "a"]);
    repo.git(&["commit", "-qm", "base"]);
    let ids = (0..n)
        .map(|i| save_change(&repo, &format!("v{i}"), kind))
        .collect();
    (repo, ids)
}

fn save_change(repo: &Repo, content: &str, kind: &str) -> String {
    repo.write("a", &format!("{content}\n"));
    let out = repo.cp(&["save", "-q", "--kind", kind]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout.trim().to_string()
}

fn refs(repo: &Repo) -> Vec<String> {
    let mut ids: Vec<String> = repo
        .git(&[
            "for-each-ref",
            "--format=%(refname:lstrip=2)",
            "refs/checkpoints/",
        ])
        .lines()
        .map(String::from)
        .collect();
    ids.sort();
    ids
}

fn notes(repo: &Repo) -> usize {
    repo.git(&["notes", "--ref=checkpoints", "list"])
        .lines()
        .count()
}

#[test]
fn drop_deletes_refs_and_notes_and_prints_the_commits() {
    let (repo, ids) = repo_with(3, "manual");
    let commit0 = repo.git(&["rev-parse", &format!("refs/checkpoints/{}", ids[0])]);
    let out = repo.cp(&["drop", &ids[0], "@"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains(&format!("dropped {} ({commit0})", ids[0])),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(&ids[2]));
    assert_eq!(refs(&repo), vec![ids[1].clone()]);
    assert_eq!(notes(&repo), 1);
    assert!(repo.git_ok(&["fsck", "--strict"]));
    // The printed commit brings it back.
    repo.git(&[
        "update-ref",
        &format!("refs/checkpoints/{}", ids[0]),
        &commit0,
    ]);
    assert_eq!(repo.cp(&["show", &ids[0]]).code, 0);
    assert_eq!(repo.cp(&["drop", "nope"]).code, 1);
    assert_eq!(repo.cp(&["drop"]).code, 2);
}

#[test]
fn keep_from_config_and_flag_and_pins_survive() {
    let (repo, ids) = repo_with(5, "auto");
    assert_eq!(repo.cp(&["pin", &ids[0]]).code, 0);
    // --dry-run changes nothing.
    let before = repo.git(&["for-each-ref"]);
    let dry = repo.cp(&["prune", "--keep", "1", "--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(dry.stdout.lines().count(), 3, "{}", dry.stdout);
    assert_eq!(repo.git(&["for-each-ref"]), before);

    let out = repo.cp(&["prune", "--keep", "1", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(Repo::json_get(&out.stdout, "0.id"), ids[3]);
    assert_eq!(
        refs(&repo),
        vec![ids[0].clone(), ids[4].clone()],
        "newest + pinned"
    );
    assert_eq!(notes(&repo), 2);

    let zero = repo.cp(&["prune", "--keep", "0"]);
    assert_eq!(zero.code, 0);
    assert_eq!(refs(&repo), vec![ids[0].clone()], "pinned survives keep 0");
    assert_eq!(repo.cp(&["unpin", &ids[0]]).code, 0);
    repo.cp(&["prune", "--keep", "0"]);
    assert_eq!(refs(&repo), Vec::<String>::new());
    assert_eq!(notes(&repo), 0);
}

#[test]
fn saving_applies_the_configured_policy() {
    let (repo, _) = repo_with(3, "auto");
    repo.git(&["config", "checkpoint.keep", "2"]);
    let newest = save_change(&repo, "v9", "manual");
    let ids = refs(&repo);
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&newest));
    repo.git(&["config", "checkpoint.autoPrune", "false"]);
    save_change(&repo, "v10", "manual");
    assert_eq!(refs(&repo).len(), 3, "autoPrune=false keeps everything");
}

#[test]
fn per_kind_keep_and_kind_flag() {
    let (repo, autos) = repo_with(4, "auto");
    let manual = save_change(&repo, "m", "manual");
    repo.git(&["config", "checkpoint.auto.keep", "1"]);
    let out = repo.cp(&["prune"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(refs(&repo), vec![autos[3].clone(), manual.clone()]);
    let kind = repo.cp(&["prune", "--kind", "manual", "--keep", "0"]);
    assert_eq!(kind.code, 0, "{}", kind.stderr);
    assert_eq!(refs(&repo), vec![autos[3].clone()], "only that kind");
}

/// A checkpoint made long ago: a ref to a commit with an old id, and its note.
fn plant_old(repo: &Repo, id: &str, created_at: &str) {
    let tree = repo.git(&["write-tree"]);
    let commit = repo.git(&[
        "commit-tree",
        &tree,
        "-m",
        &format!("checkpoint: old\n\nCheckpoint-Id: {id}\nCheckpoint-Kind: manual"),
    ]);
    repo.git(&["update-ref", &format!("refs/checkpoints/{id}"), &commit]);
    let note = format!(
        r#"{{"schema":1,"id":"{id}","kind":"manual","created_at":"{created_at}","future_field":{{"kept":true}}}}"#
    );
    repo.git(&["notes", "--ref=checkpoints", "add", "-m", &note, &commit]);
}

#[test]
fn older_than_and_max_age() {
    let (repo, ids) = repo_with(1, "manual");
    plant_old(&repo, "20200101-000000-000aaa", "2020-01-01T00:00:00.000Z");
    plant_old(&repo, "20200102-000000-000bbb", "2020-01-02T00:00:00.000Z");
    let out = repo.cp(&[
        "prune",
        "--older-than",
        "30d",
        "--kind",
        "manual",
        "--keep",
        "99",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(refs(&repo), ids);
    plant_old(&repo, "20200103-000000-000ccc", "2020-01-03T00:00:00.000Z");
    repo.git(&["config", "checkpoint.maxAge", "2w"]);
    assert_eq!(repo.cp(&["prune"]).code, 0);
    assert_eq!(refs(&repo), ids);
    assert_eq!(repo.cp(&["prune", "--older-than", "soon"]).code, 2);
    repo.git(&["config", "checkpoint.maxAge", "forever"]);
    let bad = repo.cp(&["prune"]);
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("checkpoint.maxAge"), "{}", bad.stderr);
}

#[test]
fn pin_keeps_fields_this_version_does_not_know() {
    let (repo, _) = repo_with(1, "manual");
    plant_old(&repo, "20200101-000000-000aaa", "2020-01-01T00:00:00.000Z");
    assert_eq!(repo.cp(&["pin", "20200101-000000-000aaa"]).code, 0);
    let note = repo.git(&[
        "notes",
        "--ref=checkpoints",
        "show",
        "refs/checkpoints/20200101-000000-000aaa",
    ]);
    assert_eq!(Repo::json_get(&note, "pinned"), "true");
    assert_eq!(Repo::json_get(&note, "future_field.kept"), "true");
    let listed = repo.cp(&["list"]).stdout;
    assert!(listed.contains("[pinned]"), "{listed}");
}

#[test]
fn prune_removes_notes_whose_checkpoint_is_gone() {
    let (repo, ids) = repo_with(2, "manual");
    // A ref deleted by hand leaves its note behind.
    repo.git(&["update-ref", "-d", &format!("refs/checkpoints/{}", ids[0])]);
    assert_eq!(notes(&repo), 2);
    let out = repo.cp(&["prune"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("1 orphaned note"), "{}", out.stderr);
    assert_eq!(notes(&repo), 1);
    assert_eq!(refs(&repo), vec![ids[1].clone()]);
}

#[test]
fn dropped_objects_are_collected_and_live_ones_survive_gc() {
    let (repo, _) = repo_with(0, "manual");
    repo.write(
        "only-in-dropped.txt",
        "content only the dropped checkpoint holds\n",
    );
    let dropped = repo.cp(&["save", "-q"]).stdout.trim().to_string();
    let dropped_blob = repo.git(&[
        "rev-parse",
        &format!("refs/checkpoints/{dropped}:only-in-dropped.txt"),
    ]);
    repo.remove("only-in-dropped.txt");
    repo.write(
        "only-in-live.txt",
        "content only the live checkpoint holds\n",
    );
    let live = repo.cp(&["save", "-q"]).stdout.trim().to_string();
    let live_blob = repo.git(&[
        "rev-parse",
        &format!("refs/checkpoints/{live}:only-in-live.txt"),
    ]);
    repo.remove("only-in-live.txt");

    assert_eq!(repo.cp(&["drop", &dropped]).code, 0);
    repo.git(&["reflog", "expire", "--expire=now", "--all"]);
    repo.git(&["gc", "--prune=now", "--quiet"]);
    assert!(
        !repo.git_ok(&["cat-file", "-e", &dropped_blob]),
        "dropped blob still there"
    );
    assert!(
        repo.git_ok(&["cat-file", "-e", &live_blob]),
        "live blob collected"
    );
    assert_eq!(repo.cp(&["show", &live]).code, 0);
    assert!(repo.git_ok(&["fsck", "--strict"]));
}

/// A pin lives in the note: when the note is lost or damaged, prune cannot see it, so it keeps
/// every checkpoint whose note it cannot read (they do not count toward `keep`) and says so;
/// `drop` still removes one by name.
#[test]
fn prune_keeps_checkpoints_whose_note_it_cannot_read() {
    let (repo, ids) = repo_with(4, "manual");
    assert_eq!(repo.cp(&["pin", &ids[0]]).code, 0);
    for id in [&ids[0], &ids[1]] {
        let commit = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}")]);
        repo.git(&["notes", "--ref=checkpoints", "remove", &commit]);
    }
    let dry = repo.cp(&["prune", "--keep", "1", "--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(
        dry.stdout.trim(),
        format!(
            "would prune {} ({})",
            ids[2],
            repo.git(&["rev-parse", &format!("refs/checkpoints/{}", ids[2])])
        )
    );
    let out = repo.cp(&["prune", "--keep", "0"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("kept 2 checkpoints whose note cannot be read"),
        "{}",
        out.stderr
    );
    assert_eq!(
        refs(&repo),
        vec![ids[0].clone(), ids[1].clone()],
        "the pin survived its note"
    );
    // The automatic prune after a save keeps them too.
    repo.git(&["config", "checkpoint.keep", "0"]);
    let newest = save_change(&repo, "v9", "manual");
    assert_eq!(refs(&repo), vec![ids[0].clone(), ids[1].clone(), newest]);
    assert_eq!(repo.cp(&["drop", "-q", &ids[1]]).code, 0);
    assert_eq!(refs(&repo).len(), 2);
}
