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
    // Checkpoints of a minute ago are kept by default (checkpoint.minAge, 1h).
    repo.git(&["config", "checkpoint.minAge", "0"]);
    let newest = save_change(&repo, "v9", "auto");
    let ids = refs(&repo);
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&newest));
    repo.git(&["config", "checkpoint.autoPrune", "false"]);
    save_change(&repo, "v10", "auto");
    assert_eq!(refs(&repo).len(), 3, "autoPrune=false keeps everything");
}

/// A save counts the checkpoints from their refs' names to decide whether to prune: packed refs
/// count, and files under `refs/checkpoints/` that are no ref (a lock file, a damaged ref)
/// never make it skip the pruning that is due.
#[test]
fn saving_applies_the_policy_to_packed_refs_and_beside_stray_files() {
    let (repo, _) = repo_with(3, "auto");
    repo.git(&["pack-refs", "--all"]);
    // (A reftable repository keeps no ref in files: there, nothing lies beside them.)
    if !repo.is_reftable() {
        let dir = repo.path().join(".git/refs/checkpoints");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("20200101-000000-000000.lock"), "garbage\n").unwrap();
    }
    repo.git(&["config", "checkpoint.keep", "2"]);
    repo.git(&["config", "checkpoint.minAge", "0"]);
    let newest = save_change(&repo, "v9", "auto");
    let ids = refs(&repo);
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert!(ids.contains(&newest));
    // Within `keep`, nothing is pruned, whatever else lies there.
    repo.git(&["config", "checkpoint.keep", "3"]);
    let next = save_change(&repo, "v10", "auto");
    let ids = refs(&repo);
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert!(ids.contains(&newest) && ids.contains(&next));
}

#[test]
fn per_kind_keep_and_kind_flag() {
    let (repo, autos) = repo_with(4, "auto");
    let manual = save_change(&repo, "m", "manual");
    repo.git(&["config", "checkpoint.auto.keep", "1"]);
    repo.git(&["config", "checkpoint.minAge", "0"]);
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

/// A note written by a newer version (a colleague's, through `fetch`): `pin` and `unpin` change
/// `pinned` and nothing else, and refuse, changing nothing, where this version could not write
/// the rest back exactly.
#[test]
fn pin_and_unpin_never_lose_a_field_of_a_newer_schema() {
    let (repo, _) = repo_with(1, "manual");
    let id = "20200101-000000-000aaa";
    plant_old(&repo, id, "2020-01-01T00:00:00.000Z");
    let commit = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}")]);
    let note_of = || repo.git(&["notes", "--ref=checkpoints", "show", &commit]);
    let set_note = |note: &str| {
        repo.set_note(&commit, note);
    };
    let newer = format!(
        r#"{{"schema":2,"id":"{id}","kind":"manual","created_at":"2020-01-01T00:00:00.000Z","head":{{"commit":null,"ref":"refs/heads/main","upstream":"origin/main"}},"stats":{{"files":3,"lines":{{"added":7}}}},"future":["a",{{"b":1.5}}]}}"#
    );
    set_note(&newer);
    // Every key but `pinned`, compared as JSON.
    let rest = |note: &str| {
        crate::common::json_eval(
            note,
            "json.dumps({k: x for k, x in v.items() if k != 'pinned'}, sort_keys=True)",
        )
    };
    assert_eq!(repo.cp(&["pin", id]).code, 0);
    let pinned = note_of();
    assert_eq!(Repo::json_get(&pinned, "pinned"), "true");
    assert_eq!(Repo::json_get(&pinned, "schema"), "2");
    assert_eq!(rest(&pinned), rest(&newer));
    assert_eq!(repo.cp(&["unpin", id]).code, 0);
    let unpinned = note_of();
    assert_eq!(Repo::json_get(&unpinned, "pinned"), "false");
    assert_eq!(rest(&unpinned), rest(&newer));

    // What serde_json would round (a 30-digit integer) or cannot read (1e400): refused, the
    // note left byte for byte.
    for odd in ["123456789012345678901234567890", "1e400"] {
        let note = newer.replace("1.5", odd);
        set_note(&note);
        let stored = note_of();
        for verb in ["pin", "unpin"] {
            let out = repo.cp(&[verb, id]);
            assert_eq!(out.code, 1, "{verb} with {odd}: {}", out.stderr);
            assert!(
                out.stderr
                    .contains(&format!("error: cannot {verb} checkpoint {id}: its note"))
                    && out.stderr.contains("lose"),
                "{}",
                out.stderr
            );
            assert_eq!(note_of(), stored, "{verb} with {odd} changed the note");
        }
    }
    repo.fsck();
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

/// A save puts its note in place just before its checkpoint ref, holding the ref's lock in
/// between: a prune at that moment must not take the note for an orphan.
#[test]
fn prune_leaves_the_note_of_a_save_in_flight() {
    let (repo, ids) = repo_with(2, "manual");
    if repo.is_reftable() {
        crate::common::skip(
            "reftable changes a save's two refs in one table write: no moment in between, no ref lock",
        );
        return;
    }
    repo.git(&["update-ref", "-d", &format!("refs/checkpoints/{}", ids[0])]);
    let lock = repo
        .path()
        .join(".git/refs/checkpoints")
        .join(format!("{}.lock", ids[0]));
    std::fs::write(&lock, "").unwrap();
    let out = repo.cp(&["prune"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(notes(&repo), 2, "{}", out.stderr);
    std::fs::remove_file(&lock).unwrap();
    let out = repo.cp(&["prune"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("1 orphaned note"), "{}", out.stderr);
    assert_eq!(notes(&repo), 1);
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

/// Contents whose blob ids in `repo`'s object format start with `prefix` (found by hashing
/// candidates as git does).
fn blobs_with_prefix(repo: &Repo, prefix: &str, count: usize) -> Vec<String> {
    let format = repo.object_format();
    let script = format!(
        "import hashlib\nn=0\nfound=[]\nwhile len(found) < {count}:\n    c=f'filler {{n}}\\n'.encode()\n    if hashlib.new('{format}', b'blob %d\\0' % len(c) + c).hexdigest().startswith('{prefix}'):\n        found.append(c.decode().strip())\n    n+=1\nprint('\\n'.join(found))"
    );
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn loose_objects_trigger_git_gc_auto_in_the_background() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    // git estimates loose objects from objects/17, as git-checkpoint does: with gc.auto=256,
    // two loose objects there are "too many". The save writes three, reachable from its
    // checkpoint, so that gc packs them.
    repo.git(&["config", "gc.auto", "256"]);
    let dir17 = repo.path().join(".git/objects/17");
    let loose = || std::fs::read_dir(&dir17).map_or(0, |d| d.count());
    let fill = |tag: &str| {
        for (i, content) in blobs_with_prefix(&repo, "17", 3).iter().enumerate() {
            repo.write(&format!("fill-{tag}-{i}"), &format!("{content}\n"));
        }
    };
    fill("a");
    let id = repo.save(&["-q"]);
    // The save does not wait for gc; gc packs the loose objects soon after.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while loose() > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(loose(), 0, "git gc --auto packed the loose objects");
    // Let gc finish (its pid file goes), then everything is still there.
    let gc_pid = repo.path().join(".git/gc.pid");
    while gc_pid.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(refs(&repo), std::slice::from_ref(&id));
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    repo.fsck();
    // With gc.auto=0 nothing is started.
    repo.git(&["config", "gc.auto", "0"]);
    for i in 0..3 {
        repo.remove(&format!("fill-a-{i}"));
    }
    let before = loose();
    for (i, content) in blobs_with_prefix(&repo, "17", 6).iter().enumerate().skip(3) {
        repo.write(&format!("fill-b-{i}"), &format!("{content}\n"));
    }
    repo.save(&["-q"]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(loose() >= before + 3, "gc.auto=0: no gc");
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
            "would prune {} ({}) by prune --keep",
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
    repo.git(&["config", "checkpoint.minAge", "0"]);
    let newest = save_change(&repo, "v9", "manual");
    assert_eq!(refs(&repo), vec![ids[0].clone(), ids[1].clone(), newest]);
    assert_eq!(repo.cp(&["drop", "-q", &ids[1]]).code, 0);
    assert_eq!(refs(&repo).len(), 2);
}

#[test]
fn a_restores_safety_checkpoint_is_followed_by_the_policy_too() {
    let (repo, ids) = repo_with(3, "manual");
    repo.git(&["config", "checkpoint.keep", "2"]);
    repo.git(&["config", "checkpoint.minAge", "0"]);
    repo.write("a", "changed since\n");
    // Restore the oldest: the policy removes one manual checkpoint, but never the one just
    // restored (the safety checkpoint, of its own kind, counts apart).
    let out = repo.cp(&["restore", &ids[0]]).ok();
    let safety = refs(&repo)
        .into_iter()
        .find(|id| !ids.contains(id))
        .unwrap_or_else(|| panic!("a pre-restore checkpoint: {}", out.stderr));
    assert_eq!(repo.note_json(&safety).get("kind"), "pre-restore");
    assert_eq!(
        refs(&repo),
        [ids[0].clone(), ids[2].clone(), safety],
        "the oldest but the restored one went"
    );
}

/// A save as an agent's hook makes it: `auto`, from Claude Code's PreToolUse input.
fn hook_save(repo: &Repo, i: usize) {
    repo.write("work.txt", &format!("agent step {i}\n"));
    let input = format!(
        r#"{{"session_id":"busy","transcript_path":"/t.jsonl","cwd":"{}","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"work.txt","content":"x"}}}}"#,
        repo.path().display()
    );
    let run = repo.cp_stdin(
        repo.path(),
        |_| {},
        &["save", "--from-hook=claude-code"],
        input.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// One busy agent session cannot push out what the user named, nor the safety checkpoint of a
/// restore: with the default settings, 52 hook saves leave both in place (every kind has its
/// own budget, and nothing younger than checkpoint.minAge goes by count); with minAge 0, the
/// agent's saves push out only the agent's saves, and what a limit removes is named by that
/// limit, down to a name that no longer resolves, which says so and how to get it back.
#[test]
fn agents_saves_never_push_out_named_manual_or_safety_checkpoints() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let important = repo.save(&["-q", "--name", "important", "-m", "important"]);
    repo.write("a", "unsaved work\n");
    let restored = repo.cp(&["restore", "important"]).ok();
    let safety = repo
        .checkpoint_ids()
        .into_iter()
        .find(|id| *id != important)
        .unwrap_or_else(|| panic!("no safety checkpoint: {}", restored.stderr));
    assert_eq!(repo.note_json(&safety).get("kind"), "pre-restore");
    for i in 0..52 {
        hook_save(&repo, i);
    }
    let all = repo.checkpoint_ids();
    assert_eq!(
        all.len(),
        54,
        "nothing younger than an hour is pruned by count"
    );
    repo.cp(&["show", "important"]).ok();

    // Without the minimum age: the agent's saves count against their own budget only.
    repo.git(&["config", "checkpoint.minAge", "0"]);
    hook_save(&repo, 52);
    let all = repo.checkpoint_ids();
    assert_eq!(
        all.len(),
        53,
        "50 auto, the session's first (which names its start), the named and the safety one"
    );
    assert!(all.contains(&important) && all.contains(&safety));
    repo.write("work.txt", "by hand\n");
    let out = repo.cp(&["save", "--kind", "auto"]).ok();
    assert!(
        out.stderr
            .contains("pruned 1 old checkpoint (checkpoint.keep)"),
        "{}",
        out.stderr
    );
    repo.git(&["config", "checkpoint.auto.keep", "5"]);
    repo.write("work.txt", "again\n");
    let out = repo.cp(&["save", "--kind", "auto"]).ok();
    assert!(
        out.stderr
            .contains("pruned 46 old checkpoints (checkpoint.auto.keep)"),
        "{}",
        out.stderr
    );
    assert!(repo.checkpoint_ids().contains(&important));

    // A named checkpoint counts against the named ones: a keep of 0 prunes it, and its name
    // then says what happened and how to bring it back.
    repo.git(&["config", "checkpoint.keep", "0"]);
    let json = repo.cp(&["prune", "--json"]).ok();
    assert!(
        json.stdout.contains("\"pruned_by\":\"checkpoint.keep\""),
        "{}",
        json.stdout
    );
    let gone = repo.cp(&["show", "important"]).fails_with(1);
    assert!(
        gone.stderr
            .contains(&format!("no checkpoint named `important`: its checkpoint {important} was pruned by checkpoint.keep")),
        "{}",
        gone.stderr
    );
    let hint = gone
        .stderr
        .lines()
        .find(|l| l.starts_with("hint:"))
        .unwrap_or_else(|| panic!("{}", gone.stderr));
    let command = hint
        .split('`')
        .find(|part| part.starts_with("git update-ref"))
        .unwrap_or_else(|| panic!("{hint}"));
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    repo.git(&args);
    assert_eq!(
        repo.cp(&["show", "important"])
            .ok()
            .stdout
            .lines()
            .next()
            .unwrap(),
        format!("checkpoint {important}")
    );
    // Dropped, it says so too.
    repo.git(&["config", "checkpoint.keep", "50"]);
    repo.cp(&["drop", &important]).ok();
    let dropped = repo.cp(&["show", &important]).fails_with(1);
    assert!(
        dropped
            .stderr
            .contains(&format!("checkpoint {important} was dropped")),
        "{}",
        dropped.stderr
    );
}

/// A size limit is named as such when it prunes, and respects the minimum age too.
#[test]
fn a_size_limit_names_itself_and_spares_the_young() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for i in 0..3 {
        repo.write("big.txt", &format!("{i}{}\n", "x".repeat(10_000)));
        repo.save(&["-q"]);
    }
    repo.git(&["config", "checkpoint.maxSize", "1"]);
    repo.write("big.txt", "small\n");
    let out = repo.cp(&["save"]).ok();
    assert!(!out.stderr.contains("pruned"), "young: {}", out.stderr);
    assert_eq!(repo.checkpoint_ids().len(), 4);
    repo.git(&["config", "checkpoint.minAge", "0"]);
    repo.write("big.txt", "smaller\n");
    let out = repo.cp(&["save"]).ok();
    assert!(
        out.stderr.contains("(checkpoint.maxSize)"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("checkpoint.keep"), "{}", out.stderr);
    let dry = repo.cp(&["prune", "--max-size", "0", "--dry-run"]).ok();
    assert!(dry.stdout.contains("by prune --max-size"), "{}", dry.stdout);
}
