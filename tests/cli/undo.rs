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

/// The newcomer's sequence: save A, save B, edit X, undo (B), redo (X), edit Y; then undo
/// walks back X, B, A: the undo and the redo that took it back cancel out, and the walk never
/// swings between X and B.
#[test]
fn an_undo_taken_back_by_redo_is_not_walked_through_again() {
    let repo = Repo::with_commit(&[("f", "A\n")]);
    repo.save(&["-q", "--name", "A"]);
    repo.write("f", "B\n");
    repo.save(&["-q", "--name", "B"]);
    repo.write("f", "X\n");
    assert_eq!(step(&repo, &["undo"]), "B\n");
    assert_eq!(step(&repo, &["redo"]), "X\n");
    repo.write("f", "Y\n");
    let walked: Vec<String> = (0..3).map(|_| step(&repo, &["undo"])).collect();
    assert_eq!(walked, ["X\n", "B\n", "A\n"]);
    let none = repo.cp(&["undo"]).fails_with(1);
    assert!(none.stderr.contains("nothing to undo"), "{}", none.stderr);
    assert_eq!(repo.read("f"), "A\n");
    // Redo walks the same way forward, to the unsaved edit.
    let forward: Vec<String> = (0..3).map(|_| step(&repo, &["redo"])).collect();
    assert_eq!(forward, ["B\n", "X\n", "Y\n"]);
}

/// After a restore, undo takes it back, and the undos after it walk back to the first
/// checkpoint, though the restore had brought back that very state: the walk goes back in
/// time, it only never swings back to the state it just left.
#[test]
fn undos_after_taking_back_a_restore_walk_back_to_the_first_checkpoint() {
    let repo = Repo::with_commit(&[("f", "B\n")]);
    let first = repo.save(&["-q", "--name", "before-refactor"]);
    repo.write("f", "E\n");
    repo.save(&["-q"]);
    repo.write("f", "X\n");
    assert_eq!(step(&repo, &["restore", &first]), "B\n");
    let walked: Vec<String> = (0..3).map(|_| step(&repo, &["undo"])).collect();
    assert_eq!(walked, ["X\n", "E\n", "B\n"]);
    repo.cp(&["undo"]).fails_with(1);
}

/// Two undos taken back by two redos, then an edit: the walk back passes over all four, which
/// only repeat the states around them, and stops at the first state.
#[test]
fn undos_and_the_redos_that_took_them_back_are_walked_over() {
    let repo = Repo::with_commit(&[("f", "A\n")]);
    repo.save(&["-q", "--name", "A"]);
    repo.write("f", "B\n");
    repo.save(&["-q", "--name", "B"]);
    repo.write("f", "X\n");
    let there: Vec<String> = ["undo", "undo", "redo", "redo"]
        .iter()
        .map(|verb| step(&repo, &[verb]))
        .collect();
    assert_eq!(there, ["B\n", "A\n", "B\n", "X\n"]);
    repo.write("f", "Y\n");
    let walked: Vec<String> = (0..3).map(|_| step(&repo, &["undo"])).collect();
    assert_eq!(walked, ["X\n", "B\n", "A\n"]);
    repo.cp(&["undo"]).fails_with(1);
}

/// Sequences of edits, undos, redos and restores, each checked against the rules of "Undo and
/// redo" in DESIGN.md:
/// - right after a restore or a redo (nothing changed since), undo brings back the state from
///   before it;
/// - right after an edit, undo goes back to the newest earlier state a checkpoint holds;
/// - a run of undos never swings back to the state it just left (only redo goes forward);
/// - every undo can be redone: redo brings back the states the undos left, in reverse order,
///   until something else changes the working tree; with nothing to redo it says so.
#[test]
fn undo_and_redo_keep_the_design_rules_over_random_sequences() {
    for seed in 1..=24u64 {
        random_sequence(seed, 24);
    }
}

/// A small deterministic generator (xorshift), so a failing sequence can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn random_sequence(seed: u64, actions: usize) {
    let repo = Repo::with_commit(&[("f", "s0\n")]);
    repo.git(&["config", "checkpoint.keep", "1000"]);
    repo.save(&["-q", "--allow-empty"]);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    // What the model knows: the states redo brings back (last first); the state before the
    // last undo of the current run; the operation in effect (name, state before it); the
    // newest state a checkpoint holds before the unsaved edits, and whether the working
    // tree's state is held by one.
    let mut redo_stack: Vec<String> = Vec::new();
    let mut just_left: Option<String> = None;
    let mut in_effect: Option<(&str, String)> = None;
    let mut recorded_before: Option<String> = None;
    let mut recorded = true;
    let mut edits = 0;
    let mut log = Vec::new();
    for _ in 0..actions {
        let now = repo.read("f");
        let action = [
            "edit", "edit", "undo", "undo", "undo", "redo", "redo", "restore",
        ][rng.below(8)];
        let mut target = String::new();
        if action == "restore" {
            let ids = repo.checkpoint_ids();
            target = ids[rng.below(ids.len())].clone();
            let content = repo.git(&["show", &format!("refs/checkpoints/{target}:f")]);
            log.push(format!("restore {target} ({})", content.trim_end()));
        } else {
            log.push(action.to_string());
        }
        let context = || format!("seed {seed}, after {log:?}");
        match action {
            "edit" => {
                edits += 1;
                if recorded {
                    recorded_before = Some(now.clone());
                }
                repo.write("f", &format!("e{edits}\n"));
                recorded = rng.below(2) == 0;
                if recorded {
                    repo.save(&["-q"]);
                }
                redo_stack.clear();
                just_left = None;
                in_effect = None;
            }
            "undo" => {
                let out = repo.cp(&["undo"]);
                let after = repo.read("f");
                let expected = match &in_effect {
                    Some((name, before)) if *name != "undo" => Some(before.clone()),
                    None => recorded_before.clone().filter(|p| *p != now),
                    _ => None,
                };
                if out.code != 0 {
                    assert!(
                        out.stderr.contains("nothing to undo"),
                        "{}: {}",
                        context(),
                        out.stderr
                    );
                    assert_eq!(after, now, "{}: a refused undo changes nothing", context());
                    assert_eq!(expected, None, "{}: undo had a state to go to", context());
                    continue;
                }
                if let Some(expected) = expected {
                    assert_eq!(after, expected, "{}", context());
                }
                assert_ne!(
                    Some(&after),
                    just_left.as_ref(),
                    "{}: the undo swung back to the state the last one left",
                    context()
                );
                just_left = Some(now.clone());
                redo_stack.push(now.clone());
                in_effect = Some(("undo", now));
                recorded = true;
                recorded_before = None;
            }
            "redo" => {
                let out = repo.cp(&["redo"]);
                let after = repo.read("f");
                match redo_stack.pop() {
                    Some(expected) => {
                        assert_eq!(out.code, 0, "{}: {}", context(), out.stderr);
                        assert_eq!(after, expected, "{}", context());
                        just_left = None;
                        in_effect = Some(("redo", now));
                        recorded = true;
                        recorded_before = None;
                    }
                    None => {
                        assert_eq!(out.code, 1, "{}: {}", context(), out.stderr);
                        assert!(
                            out.stderr.contains("nothing to redo"),
                            "{}: {}",
                            context(),
                            out.stderr
                        );
                        assert_eq!(after, now, "{}", context());
                    }
                }
            }
            _ => {
                let content = repo.git(&["show", &format!("refs/checkpoints/{target}:f")]) + "\n";
                let after = step(&repo, &["restore", &target]);
                assert_eq!(after, content, "{}", context());
                if after != now {
                    redo_stack.clear();
                    just_left = None;
                    in_effect = Some(("restore", now));
                    recorded = true;
                    recorded_before = None;
                }
            }
        }
    }
    repo.fsck();
}

/// `undo 3` at D (after checkpoints A, B, C, D) says it took three steps, lists what the three
/// together changed (a file one step wrote and a later one put back is not listed), and
/// prints a command that brings back D, the state before all three, not only before the last.
#[test]
fn undo_n_reports_all_its_steps_and_how_to_take_them_all_back() {
    let repo = Repo::with_commit(&[("f", "A\n"), ("h", "same\n")]);
    repo.save(&["-q", "--name", "A"]);
    for (state, h) in [("B", "same\n"), ("C", "C only\n"), ("D", "same\n")] {
        repo.write("f", &format!("{state}\n"));
        repo.write("h", h);
        if state == "D" {
            repo.write("g", "new in D\n");
        }
        repo.save(&["-q", "--name", state]);
    }
    let d_tree = repo.oracle_tree();
    let out = repo.cp(&["undo", "3"]).ok();
    assert_eq!(repo.read("f"), "A\n");
    assert_eq!(
        out.stdout, "D  g\nW  f\n",
        "what the three steps changed together"
    );
    assert!(
        out.stderr.contains("undid 3 steps, back to checkpoint "),
        "{}",
        out.stderr
    );
    let command = out
        .stderr
        .lines()
        .find_map(|l| l.split("undo them all with: ").nth(1))
        .unwrap_or_else(|| panic!("no undo command: {}", out.stderr));
    assert!(
        command.starts_with("git checkpoint redo 3, or "),
        "{command}"
    );
    let restore = command.trim_start_matches("git checkpoint redo 3, or ");
    let safety = restore
        .strip_prefix("git checkpoint restore ")
        .unwrap_or_else(|| panic!("{restore}"));
    assert_eq!(
        repo.checkpoint_tree(safety),
        d_tree,
        "the command brings back the state before the three steps"
    );
    // Both commands it prints do.
    let out = repo.cp(&["redo", "3"]).ok();
    assert!(out.stderr.contains("redid 3 undos"), "{}", out.stderr);
    assert_eq!(repo.oracle_tree(), d_tree);
    repo.cp(&["undo", "3"]).ok();
    assert_eq!(repo.read("f"), "A\n");
    repo.cp(&["restore", safety]).ok();
    assert_eq!(repo.oracle_tree(), d_tree);
}

/// A dry run says what it would write and delete, in the words of the operation.
#[test]
fn dry_runs_say_what_they_would_write_and_delete() {
    let repo = three_states();
    repo.write("new.txt", "new\n");
    let ids = repo.checkpoint_ids();
    let oldest = ids.first().unwrap();
    let out = repo.cp(&["restore", oldest, "--dry-run"]).ok();
    assert_eq!(
        out.stderr,
        format!(
            "dry run: restoring checkpoint {oldest} would write 1 file and delete 1 file; nothing was changed\n"
        )
    );
    let out = repo.cp(&["undo", "2", "--dry-run"]).ok();
    assert!(
        out.stderr
            .starts_with("dry run: undoing 2 steps (to checkpoint "),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .ends_with(") would write 1 file and delete 1 file; nothing was changed\n"),
        "{}",
        out.stderr
    );
    // More steps than there are: where as many as there are would end, and a warning, as
    // without --dry-run.
    let out = repo.cp(&["undo", "9", "--dry-run"]).ok();
    assert!(
        out.stderr.contains("dry run: undoing 3 steps")
            && out.stderr.contains("only 3 of 9 steps could be undone"),
        "{}",
        out.stderr
    );
    assert_eq!(repo.read("f"), "v3\n");
}
