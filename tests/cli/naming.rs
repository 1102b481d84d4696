//! Naming a checkpoint on the command line (DESIGN.md, "Naming"), through `show <CP> --json`.
//!
//! In order, the first rule that matches wins: an exact id; `@`/`latest`/`@{N}` among this
//! worktree's checkpoints; a `--name`; a unique id prefix; a unique commit prefix of at least
//! four hex digits. Ambiguity is an error listing the candidates.

use crate::common::{Repo, Run, json_get};

/// A repository with `n` checkpoints; ids oldest first.
fn repo_with_checkpoints(n: usize) -> (Repo, Vec<String>) {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let ids = (0..n)
        .map(|i| {
            repo.write("a", &format!("version {i}\n"));
            repo.save(&["-q", "-m", &format!("message {i}")])
        })
        .collect();
    (repo, ids)
}

/// The id that `spec` names, or a panic showing why it did not resolve.
#[track_caller]
fn resolve(repo: &Repo, spec: &str) -> String {
    let out = repo.cp(&["show", spec, "--json"]).ok();
    json_get(&out.stdout, "id")
}

/// `show <spec>` must fail with exit 1 and an `error:` line.
#[track_caller]
fn fails(repo: &Repo, spec: &str) -> Run {
    let out = repo.cp(&["show", spec, "--json"]).fails_with(1);
    assert_eq!(out.stdout, "", "nothing on stdout for {spec:?}");
    out
}

#[test]
fn an_exact_id() {
    let (repo, ids) = repo_with_checkpoints(3);
    for id in &ids {
        assert_eq!(&resolve(&repo, id), id);
    }
}

#[test]
fn at_and_latest_are_the_newest() {
    let (repo, ids) = repo_with_checkpoints(3);
    assert_eq!(resolve(&repo, "@"), ids[2]);
    assert_eq!(resolve(&repo, "latest"), ids[2]);
    assert_eq!(resolve(&repo, "@{0}"), ids[2]);
}

#[test]
fn at_n_counts_back_from_the_newest() {
    let (repo, ids) = repo_with_checkpoints(3);
    assert_eq!(resolve(&repo, "@{1}"), ids[1]);
    assert_eq!(resolve(&repo, "@{2}"), ids[0]);
    let out = fails(&repo, "@{3}");
    assert!(out.stderr.contains("git checkpoint list"), "{}", out.stderr);
    fails(&repo, "@{99}");
    fails(&repo, "@{-1}");
    fails(&repo, "@{x}");
}

#[test]
fn positions_count_only_this_worktrees_checkpoints() {
    let (repo, ids) = repo_with_checkpoints(2);
    let wt = repo.scratch().join("wt");
    repo.git(&["worktree", "add", "-q", "--detach", wt.to_str().unwrap()]);
    std::fs::write(wt.join("w"), "w\n").unwrap();
    let wt_id = repo.cp_in_dir(&wt, &["save", "-q"]).ok().id();
    // The worktree's checkpoint is the newest of all, but not the main worktree's `@`.
    assert_eq!(resolve(&repo, "@"), ids[1]);
    assert_eq!(resolve(&repo, "@{1}"), ids[0]);
    let in_wt = |spec: &str| {
        let out = repo.cp_in_dir(&wt, &["show", spec, "--json"]).ok();
        json_get(&out.stdout, "id")
    };
    assert_eq!(in_wt("@"), wt_id);
    assert_eq!(in_wt("latest"), wt_id);
    assert_eq!(repo.cp_in_dir(&wt, &["show", "@{1}"]).code, 1);
    // An exact id works across worktrees.
    assert_eq!(in_wt(&ids[0]), ids[0]);
    assert_eq!(resolve(&repo, &wt_id), wt_id);
}

#[test]
fn a_name_is_its_newest_checkpoint() {
    let (repo, ids) = repo_with_checkpoints(1);
    repo.write("a", "named 1\n");
    let older = repo.save(&["-q", "--name", "wip"]);
    repo.write("a", "named 2\n");
    let newer = repo.save(&["-q", "--name", "wip"]);
    repo.write("a", "unnamed\n");
    let unnamed = repo.save(&["-q"]);
    assert!(older != newer && newer != unnamed);
    assert_eq!(resolve(&repo, "wip"), newer);
    assert_eq!(resolve(&repo, "@"), unnamed);
    assert_eq!(resolve(&repo, &ids[0]), ids[0]);
}

#[test]
fn a_unique_id_prefix() {
    let (repo, ids) = repo_with_checkpoints(3);
    for id in &ids {
        // All but the last hex digit. Two saves in the same millisecond could share it, so
        // only prefixes that are in fact unique are checked.
        let prefix = &id[..21];
        if ids.iter().filter(|other| other.starts_with(prefix)).count() == 1 {
            assert_eq!(&resolve(&repo, prefix), id);
        }
    }
    // The full date-time-milliseconds part of the newest (unique: ids grow).
    let newest = &ids[2];
    let prefix = &newest[..19];
    if ids.iter().filter(|other| other.starts_with(prefix)).count() == 1 {
        assert_eq!(&resolve(&repo, prefix), newest);
    }
}

#[test]
fn a_unique_commit_prefix_of_at_least_four_hex_digits() {
    let (repo, ids) = repo_with_checkpoints(3);
    for id in &ids {
        let commit = repo.checkpoint_commit(id);
        assert_eq!(&resolve(&repo, &commit), id, "the full commit id");
        assert_eq!(&resolve(&repo, &commit[..12]), id);
        let four = &commit[..4];
        let others_share = ids
            .iter()
            .filter(|other| *other != id)
            .any(|other| repo.checkpoint_commit(other).starts_with(four));
        if !others_share && !ids.iter().any(|i| i.starts_with(four)) {
            assert_eq!(&resolve(&repo, four), id, "four hex digits: {four}");
        }
        let three = &commit[..3];
        if !ids.iter().any(|i| i.starts_with(three)) {
            fails(&repo, three);
        }
    }
}

#[test]
fn an_ambiguous_prefix_is_an_error_listing_the_candidates() {
    let (repo, ids) = repo_with_checkpoints(3);
    // The date part is shared by all of them (barring a save across midnight).
    let date = &ids[0][..8];
    if !ids.iter().all(|id| id.starts_with(date)) {
        crate::common::skip("the saves spanned midnight");
        return;
    }
    let out = fails(&repo, date);
    let first = out.stderr.lines().next().unwrap();
    assert!(first.starts_with("error:"), "{}", out.stderr);
    assert!(out.stderr.contains("ambiguous"), "{}", out.stderr);
    for id in &ids {
        assert!(
            out.stderr.contains(id.as_str()),
            "candidate {id} listed: {}",
            out.stderr
        );
    }
    // The same without --json.
    let plain = repo.cp(&["show", date]).fails_with(1);
    assert!(plain.stderr.contains("ambiguous"), "{}", plain.stderr);
}

#[test]
fn an_unknown_name_points_at_the_list() {
    let (repo, _ids) = repo_with_checkpoints(1);
    for spec in [
        "no-such-checkpoint",
        "19990101",
        "ffffffffffff",
        "@{5}",
        "wip",
    ] {
        let out = fails(&repo, spec);
        out.assert_one_error_line();
        assert!(
            out.stderr.contains("git checkpoint list"),
            "{spec}: {}",
            out.stderr
        );
    }
    fails(&repo, "");
}

#[test]
fn no_checkpoint_at_all() {
    // With no checkpoints, every name says so and how to make one, rather than pointing at an
    // empty list.
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for spec in ["@", "latest", "@{0}", "20260101-000000-000abc", "abc"] {
        let out = fails(&repo, spec);
        assert!(
            out.stderr
                .starts_with("error: there are no checkpoints yet"),
            "{spec}: {}",
            out.stderr
        );
        assert!(
            out.stderr
                .contains("hint: make one with `git checkpoint save`"),
            "{spec}: {}",
            out.stderr
        );
    }
    for args in [&["diff"][..], &["restore", "@"], &["show", "@"], &["undo"]] {
        let out = repo.cp(args);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("no checkpoints yet") || out.stderr.contains("nothing to undo"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// With nothing to undo, plain words: no `1-th` or `100-th`.
#[test]
fn nothing_to_undo_is_said_in_plain_words() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    // With no checkpoint at all, it says so, and how to make one.
    let out = repo.cp(&["undo"]).fails_with(1);
    assert_eq!(
        out.stderr,
        "error: nothing to undo: there are no checkpoints yet\n\
         hint: make one with `git checkpoint save` before a change; `git checkpoint undo` then takes the change back\n"
    );
    repo.save(&["-q"]);
    let out = repo.cp(&["undo"]).fails_with(1);
    assert_eq!(
        out.stderr,
        "error: nothing to undo: this worktree has no earlier checkpoint whose files differ from the files now\n"
    );
    let out = repo.cp(&["undo", "100"]).fails_with(1);
    out.assert_one_error_line();
    assert!(
        out.stderr.starts_with("error: nothing to undo: ") && !out.stderr.contains("-th"),
        "{}",
        out.stderr
    );
}

#[test]
fn rules_apply_in_order() {
    let (repo, ids) = repo_with_checkpoints(2);
    let date = ids[0][..8].to_string();
    // 1 before 3: a checkpoint *named* like another's id does not hide that id.
    repo.write("a", "named like an id\n");
    let impostor = repo.save(&["-q", "--name", &ids[0]]);
    assert_eq!(resolve(&repo, &ids[0]), ids[0]);
    // 2 before 3: a checkpoint named `latest` (if such a name is accepted at all) does not
    // hide the newest.
    repo.write("a", "named latest\n");
    let named_latest = repo.cp(&["save", "-q", "--name", "latest"]);
    named_latest.assert_no_panic();
    if named_latest.code != 0 {
        assert!(
            named_latest.stderr.starts_with("error:"),
            "{}",
            named_latest.stderr
        );
    }
    repo.write("a", "newest\n");
    let newest = repo.save(&["-q"]);
    assert_eq!(resolve(&repo, "latest"), newest);
    assert_eq!(resolve(&repo, "@"), newest);
    // 3 before 4: a name that is also a (shared, ambiguous) id prefix resolves to the name.
    repo.write("a", "named like a prefix\n");
    let by_prefix_name = repo.save(&["-q", "--name", &date]);
    repo.write("a", "after\n");
    repo.save(&["-q"]);
    if repo.checkpoint_ids().iter().all(|id| id.starts_with(&date)) {
        assert_eq!(resolve(&repo, &date), by_prefix_name);
    }
    assert_ne!(impostor, ids[0]);
}
