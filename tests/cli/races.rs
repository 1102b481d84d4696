//! Races: saves running at the same time as prune, drop, pin and the user's own git.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::common::Repo;

#[test]
fn saves_race_prune_drop_pin_and_the_users_git() {
    let repo = Repo::new();
    repo.write("a", "a\n");
    repo.git(&["add", "a"]);
    repo.git(&["commit", "-qm", "base"]);
    repo.git(&["config", "checkpoint.keep", "1000"]);
    let victims: Vec<String> = (0..6)
        .map(|i| {
            repo.write("victim", &format!("{i}\n"));
            repo.cp(&["save", "-q", "--allow-empty"])
                .stdout
                .trim()
                .to_string()
        })
        .collect();
    let stop = AtomicBool::new(false);

    let (saved, user_commits) = std::thread::scope(|s| {
        let savers: Vec<_> = (0..4)
            .map(|t| {
                let repo = &repo;
                s.spawn(move || {
                    (0..8)
                        .map(|i| {
                            let out = repo.cp(&[
                                "save",
                                "-q",
                                "--allow-empty",
                                "-m",
                                &format!("t{t} i{i}"),
                            ]);
                            assert_eq!(out.code, 0, "save: {}", out.stderr);
                            (out.stdout.trim().to_string(), format!("t{t} i{i}"))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let (repo_ref, stop_ref) = (&repo, &stop);
        let background = s.spawn(move || {
            let mut n = 0;
            while !stop_ref.load(Ordering::Relaxed) {
                let out = repo_ref.cp(&["prune", "-q", "--keep", "1000"]);
                assert_eq!(out.code, 0, "prune: {}", out.stderr);
                // The last victim is the one pinned: never dropped.
                if let Some(victim) = victims[..victims.len() - 1].get(n) {
                    let out = repo_ref.cp(&["drop", "-q", victim]);
                    assert_eq!(out.code, 0, "drop: {}", out.stderr);
                }
                let out = repo_ref.cp(&["pin", "-q", &victims[victims.len() - 1]]);
                assert_eq!(out.code, 0, "pin: {}", out.stderr);
                n += 1;
            }
            victims
        });
        let user = s.spawn(move || {
            // The user keeps working: git add and git commit must never fail because of us.
            let mut commits = 0;
            while !stop_ref.load(Ordering::Relaxed) {
                repo_ref.write("user.txt", &format!("commit {commits}\n"));
                repo_ref.git(&["add", "user.txt"]);
                repo_ref.git(&["commit", "-qm", &format!("user {commits}")]);
                commits += 1;
            }
            commits
        });
        let saved: Vec<(String, String)> =
            savers.into_iter().flat_map(|h| h.join().unwrap()).collect();
        stop.store(true, Ordering::Relaxed);
        let _victims = background.join().unwrap();
        (saved, user.join().unwrap())
    });

    assert!(user_commits > 0);
    // Nothing saved is lost, and every note sits on its own checkpoint.
    let ids = repo.checkpoint_ids();
    for (id, message) in &saved {
        assert!(ids.contains(id), "{id} lost");
        let note = repo.git(&[
            "notes",
            "--ref=checkpoints",
            "show",
            &format!("refs/checkpoints/{id}"),
        ]);
        assert_eq!(
            Repo::json_get(&note, "id"),
            *id,
            "note on the wrong checkpoint"
        );
        assert_eq!(Repo::json_get(&note, "message"), *message);
    }
    let pinned = repo.cp(&["list", "--json"]).stdout;
    assert!(
        pinned.contains(r#""pinned":true"#),
        "the pin survived the races"
    );
    repo.fsck();
    eprintln!(
        "races: {} saves against prune/drop/pin and {user_commits} user commits",
        saved.len()
    );
}
