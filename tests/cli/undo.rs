//! `undo` and `redo`: taking back the last thing that happened, walking back without swinging
//! between two states, and redoing undos while nothing changed. The working tree's content is
//! checked after every step, and the tree against git's own snapshot of it.

use crate::common::Repo;

/// A repository with one tracked file `f` committed as `v1`, and checkpoints of `v1`, `v2`,
/// `v3` (in that order); the working tree holds `v3`.
fn three_states() -> Repo {
    let repo = Repo::new();
    repo.write("f", "v1\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "v1"]);
    repo.save(&["-q", "--allow-empty"]);
    repo.write("f", "v2\n");
    repo.save(&["-q"]);
    repo.write("f", "v3\n");
    repo.save(&["-q"]);
    repo
}

fn step(repo: &Repo, args: &[&str]) -> String {
    let out = repo.cp(args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    repo.read("f")
}

#[test]
fn undo_takes_back_the_restore_that_just_happened() {
    let repo = three_states();
    repo.write("f", "unsaved edit\n");
    repo.write("new.txt", "a new file\n");
    let ids = repo.checkpoint_ids();
    let oldest = ids.first().unwrap().clone();
    assert_eq!(step(&repo, &["restore", &oldest]), "v1\n");
    assert!(!repo.path().join("new.txt").exists());
    // The restore printed how to take it back; `undo` does exactly that.
    assert_eq!(step(&repo, &["undo"]), "unsaved edit\n");
    assert_eq!(repo.read("new.txt"), "a new file\n");
    // And redo restores the restore.
    assert_eq!(step(&repo, &["redo"]), "v1\n");
    assert!(!repo.path().join("new.txt").exists());
    // Undo of the redo: back to the edit again.
    assert_eq!(step(&repo, &["undo"]), "unsaved edit\n");
    repo.fsck();
}

#[test]
fn a_hook_checkpoint_after_the_restore_does_not_hide_it() {
    let repo = three_states();
    let ids = repo.checkpoint_ids();
    assert_eq!(step(&repo, &["restore", ids.first().unwrap()]), "v1\n");
    // An agent's hook saves before its next tool call: same files as the restore left.
    repo.save(&["-q", "--kind", "auto", "--allow-empty"]);
    assert_eq!(step(&repo, &["undo"]), "v3\n");
}

#[test]
fn repeated_undos_walk_back_and_never_swing_between_two_states() {
    let repo = three_states();
    repo.write("f", "v4 unsaved\n");
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(step(&repo, &["undo"]));
    }
    assert_eq!(seen, ["v3\n", "v2\n", "v1\n"]);
    let none = repo.cp(&["undo"]).fails_with(1);
    assert!(none.stderr.contains("nothing to undo"), "{}", none.stderr);
    assert_eq!(repo.read("f"), "v1\n", "a refused undo changes nothing");
    // Every undo is undoable: redo walks forward through them, in order.
    let forward: Vec<String> = (0..3).map(|_| step(&repo, &["redo"])).collect();
    assert_eq!(forward, ["v2\n", "v3\n", "v4 unsaved\n"]);
    let none = repo.cp(&["redo"]).fails_with(1);
    assert!(none.stderr.contains("nothing to redo"), "{}", none.stderr);
    repo.fsck();
}

#[test]
fn undo_n_and_redo_n_take_n_steps() {
    let repo = three_states();
    repo.write("f", "v4\n");
    // A dry run of two steps shows where two steps end, and changes nothing.
    let dry = repo.cp(&["undo", "2", "--dry-run", "--json"]).ok();
    assert!(dry.stdout.contains("\"write\":[\"f\"]"), "{}", dry.stdout);
    assert!(dry.stdout.contains("\"steps\":2"), "{}", dry.stdout);
    assert_eq!(repo.read("f"), "v4\n");
    let before = repo.checkpoint_ids().len();
    assert_eq!(step(&repo, &["undo", "2"]), "v2\n");
    assert_eq!(
        repo.checkpoint_ids().len(),
        before + 2,
        "each step took its own safety checkpoint"
    );
    assert_eq!(step(&repo, &["redo", "2"]), "v4\n");
    // More steps than there are: as many as there are, and a warning.
    let out = repo.cp(&["undo", "9"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.read("f"), "v1\n");
    assert!(
        out.stderr.contains("only 3 of 9 steps could be undone"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_change_after_an_undo_ends_redo_and_undo_goes_back_before_it() {
    let repo = three_states();
    assert_eq!(step(&repo, &["undo"]), "v2\n");
    repo.write("f", "edited after the undo\n");
    let none = repo.cp(&["redo"]).fails_with(1);
    assert!(none.stderr.contains("nothing to redo"), "{}", none.stderr);
    // The newest earlier state is the one the undo left, before the edit.
    assert_eq!(step(&repo, &["undo"]), "v2\n");
    // Walking on back: the state before the first undo.
    assert_eq!(step(&repo, &["undo"]), "v3\n");
    // The edit is not lost: redo walks forward to it.
    assert_eq!(step(&repo, &["redo"]), "v2\n");
    assert_eq!(step(&repo, &["redo"]), "edited after the undo\n");
}

#[test]
fn undo_of_a_path_restore_puts_back_only_what_it_changed() {
    let repo = three_states();
    repo.write("g", "g now\n");
    repo.write("f", "f now\n");
    let ids = repo.checkpoint_ids();
    assert_eq!(
        step(&repo, &["restore", ids.first().unwrap(), "--", "f"]),
        "v1\n"
    );
    assert_eq!(repo.read("g"), "g now\n");
    assert_eq!(step(&repo, &["undo"]), "f now\n");
    assert_eq!(repo.read("g"), "g now\n");
    // The working tree is exactly the state before the restore, which its safety checkpoint
    // (the newest) holds.
    let newest = repo.checkpoint_ids().last().unwrap().clone();
    let safety_of_the_restore = repo.checkpoint_ids()[repo.checkpoint_ids().len() - 2].clone();
    assert_eq!(
        repo.oracle_tree(),
        repo.checkpoint_tree(&safety_of_the_restore)
    );
    assert_ne!(newest, safety_of_the_restore);
}

#[test]
fn restore_on_failure_of_exec_is_undone_by_undo() {
    let repo = three_states();
    let out = repo.cp(&[
        "exec",
        "--restore-on-failure",
        "--",
        "sh",
        "-c",
        "echo broken > f; exit 3",
    ]);
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert_eq!(repo.read("f"), "v3\n");
    assert_eq!(step(&repo, &["undo"]), "broken\n");
}

#[test]
fn nothing_to_undo_or_redo_is_said_in_plain_words() {
    let repo = Repo::with_commit(&[("f", "v1\n")]);
    repo.save(&["-q", "--allow-empty"]);
    for (verb, words) in [("undo", "nothing to undo"), ("redo", "nothing to redo")] {
        let out = repo.cp(&[verb]).fails_with(1);
        out.assert_one_error_line();
        assert!(out.stderr.contains(words), "{}", out.stderr);
        assert!(!out.stderr.contains("-th"), "{}", out.stderr);
    }
}
