//! Races: saves running at the same time as prune, drop, pin and the user's own git.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::common::{Json, Repo};

/// Savers of kind `manual` run while, at the same time, a prune keeps deleting the checkpoints
/// of kind `victim` (which another thread keeps making), a drop removes older checkpoints one by
/// one, a pin rewrites a note, and the user runs `git add`/`git commit` in a loop. Every one of
/// these writes the notes ref; a lost compare-and-swap must be retried, never overwrite.
///
/// Afterwards: every save reported is there with its own note (none lost, none on the wrong
/// checkpoint), no victim survives but the pinned one, every drop took, every note belongs to a
/// checkpoint and every checkpoint has its note, and prune really deleted while saves ran.
/// Sets every flag when dropped, also while a panic unwinds.
struct StopAll<'a>(&'a [&'a AtomicBool]);

impl Drop for StopAll<'_> {
    fn drop(&mut self) {
        for flag in self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

#[test]
fn saves_race_prune_drop_pin_and_the_users_git() {
    let repo = Repo::new();
    repo.write("a", "a\n");
    repo.git(&["add", "a"]);
    repo.git(&["commit", "-qm", "base"]);
    // Only the explicit prune deletes: the automatic one after each save keeps everything.
    repo.git(&["config", "checkpoint.keep", "1000"]);
    if repo.is_reftable() {
        // reftable has one lock for every ref of the repository, which a checkpoint's ref
        // update (through git) holds for a moment, as any other git writing a ref would; git
        // waits only `reftable.lockTimeout` for it (100 ms by default), which a loaded 2-core
        // machine running 7 writers at once exceeds: the user's `git commit` then fails with
        // "cannot lock references". docs/limitations.md says so and how to raise it, as here.
        repo.git(&["config", "reftable.lockTimeout", "5000"]);
    }
    let save = |args: &[&str]| {
        let mut full = vec!["save", "-q", "--allow-empty"];
        full.extend_from_slice(args);
        let out = repo.cp(&full);
        assert_eq!(out.code, 0, "save {args:?}: {}", out.stderr);
        out.id()
    };
    let pinned_victim = save(&["--kind", "victim", "-m", "pinned victim", "--pin"]);
    let to_drop: Vec<String> = (0..6)
        .map(|i| save(&["--kind", "drop-me", "-m", &format!("drop {i}")]))
        .collect();
    let stop = AtomicBool::new(false);
    let stop_victims = AtomicBool::new(false);
    let pruned_while_saving = AtomicUsize::new(0);

    let started = std::time::Instant::now();
    let (saved, user_commits) = std::thread::scope(|s| {
        // Whatever fails (a save, a prune, an assertion here), the loops that run until told
        // to stop are told: the scope waits for every thread before it reports the failure,
        // and would otherwise wait for ever.
        let _stop_all = StopAll(&[&stop, &stop_victims]);
        let pruned = &pruned_while_saving;
        let savers: Vec<_> = (0..4)
            .map(|t| {
                let (save, started) = (&save, &started);
                s.spawn(move || {
                    // At least 8 saves each, and more until prune has deleted something, so
                    // that the race happens on a machine of any speed (up to a bound in number
                    // and in time: a prune that keeps failing must fail the test soon).
                    let mut saved = Vec::new();
                    while saved.len() < 8
                        || (pruned.load(Ordering::Relaxed) == 0
                            && saved.len() < 100
                            && started.elapsed() < std::time::Duration::from_secs(60))
                    {
                        let message = format!("t{t} i{}", saved.len());
                        saved.push((save(&["-m", &message]), message));
                    }
                    saved
                })
            })
            .collect();
        let (repo, stop, stop_victims) = (&repo, &stop, &stop_victims);
        let victims = s.spawn(move || {
            let mut n = 0;
            while !stop_victims.load(Ordering::Relaxed) {
                save(&["--kind", "victim", "-m", &format!("victim {n}")]);
                n += 1;
            }
            n
        });
        let (pinned_victim, to_drop) = (&pinned_victim, &to_drop);
        let background = s.spawn(move || {
            let mut n = 0;
            // Until stopped, and at least until every drop has run.
            while !stop.load(Ordering::Relaxed) || n < to_drop.len() {
                let out = repo.cp(&["prune", "--kind", "victim", "--keep", "0"]);
                assert_eq!(out.code, 0, "prune: {}", out.stderr);
                pruned.fetch_add(out.stdout.lines().count(), Ordering::Relaxed);
                if let Some(victim) = to_drop.get(n) {
                    let out = repo.cp(&["drop", "-q", victim]);
                    assert_eq!(out.code, 0, "drop: {}", out.stderr);
                }
                let out = repo.cp(&["pin", "-q", pinned_victim]);
                assert_eq!(out.code, 0, "pin: {}", out.stderr);
                n += 1;
            }
            n
        });
        let user = s.spawn(move || {
            // The user keeps working: git add and git commit must never fail because of us.
            let mut commits = 0;
            while !stop.load(Ordering::Relaxed) {
                repo.write("user.txt", &format!("commit {commits}\n"));
                repo.git(&["add", "user.txt"]);
                repo.git(&["commit", "-qm", &format!("user {commits}")]);
                commits += 1;
                // A busy user, not a loop: on a reftable repository every commit takes the one
                // lock of all refs, and git committing flat out on an idle machine (dozens a
                // second) starves every other writer of it, ours as any other program's.
                std::thread::sleep(std::time::Duration::from_millis(25));
            }
            commits
        });
        let saved: Vec<(String, String)> =
            savers.into_iter().flat_map(|h| h.join().unwrap()).collect();
        // The savers are done: what prune deleted so far, it deleted while they ran.
        let pruned_during = pruned_while_saving.load(Ordering::Relaxed);
        stop_victims.store(true, Ordering::Relaxed);
        let victims_made = victims.join().unwrap();
        stop.store(true, Ordering::Relaxed);
        let rounds = background.join().unwrap();
        assert!(
            pruned_during > 0,
            "prune deleted nothing while the saves ran: the race was not real"
        );
        eprintln!(
            "races: {} saves and {victims_made} victims against {rounds} prune/drop/pin rounds \
             ({pruned_during} pruned during the saves)",
            saved.len()
        );
        (saved, user.join().unwrap())
    });

    assert!(user_commits > 0);
    // A last prune for the victims made after the background loop's last round.
    let last = repo.cp(&["prune", "--kind", "victim", "--keep", "0"]);
    assert_eq!(last.code, 0, "{}", last.stderr);

    // Nothing saved is lost, and every note sits on its own checkpoint.
    let ids = repo.checkpoint_ids();
    for (id, message) in &saved {
        assert!(ids.contains(id), "{id} lost");
        let note = repo.note_json(id);
        assert_eq!(note.get("id"), *id, "note on the wrong checkpoint");
        assert_eq!(note.get("message"), *message);
        assert_eq!(note.get("kind"), "manual");
    }
    for id in &to_drop {
        assert!(!ids.contains(id), "{id} was dropped");
    }
    // No victim survives but the pinned one, which is still pinned.
    let victims = Json::parse(
        &repo
            .cp(&["list", "--all", "--kind", "victim", "--json"])
            .ok()
            .stdout,
    );
    assert_eq!(
        victims.keys(""),
        vec!["0".to_string()],
        "only the pinned victim is left"
    );
    assert_eq!(victims.get("0.id"), pinned_victim);
    assert_eq!(
        victims.get("0.pinned"),
        "true",
        "the pin survived the races"
    );
    // Every checkpoint has its note and every note its checkpoint.
    assert_eq!(ids.len(), saved.len() + 1);
    let notes = repo.git(&["notes", "--ref=checkpoints", "list"]);
    assert_eq!(
        notes.lines().count(),
        ids.len(),
        "no orphaned or missing note"
    );
    let list = repo.cp(&["list", "--all"]).ok();
    assert_eq!(list.stderr, "", "no damaged note: {}", list.stderr);
    repo.fsck();
}

/// A tracked file that another process keeps rewriting (truncated, then written, as most
/// programs save a file) while saves run: git's look at the file and its read of it may see
/// two sizes ("failed to fill whole buffer"). Every save must still succeed, holding the file
/// as it was at some moment.
#[test]
fn saves_succeed_while_a_tracked_file_is_rewritten() {
    let body = |n: usize| format!("version {n}\n").repeat(20_000);
    let repo = Repo::with_commit(&[("big.txt", &body(0))]);
    let stop = AtomicBool::new(false);
    let versions = std::thread::scope(|s| {
        let _stop = StopAll(&[&stop]);
        let (repo, stop) = (&repo, &stop);
        let writer = s.spawn(move || {
            let mut n = 1;
            while !stop.load(Ordering::Relaxed) {
                std::fs::write(repo.path().join("big.txt"), body(n)).unwrap();
                n += 1;
                std::thread::sleep(std::time::Duration::from_millis(3));
            }
            n
        });
        for i in 0..25 {
            let out = repo.cp(&["save", "-q", "--allow-empty", "-m", &format!("save {i}")]);
            assert_eq!(out.code, 0, "save {i}: {}", out.stderr);
            let id = out.id();
            repo.git(&["cat-file", "-e", &format!("refs/checkpoints/{id}:big.txt")]);
        }
        stop.store(true, Ordering::Relaxed);
        writer.join().unwrap()
    });
    assert!(versions > 25, "the file was rewritten while the saves ran");
}

/// Saves writing many new objects while `git gc` packs and prunes beside them (as the `git gc
/// --auto` a save starts in the background does): `git prune-packed` removes an object
/// directory while it is empty, which once made a save fail ("Could not persist loose
/// object") when it fell between gix creating the directory and moving the object into it.
/// Every save succeeds, and every checkpoint holds what `git add -A` would.
#[test]
fn saves_succeed_while_git_gc_packs_and_prunes_beside_them() {
    let repo = Repo::with_commit(&[("base.txt", "base\n")]);
    let stop = AtomicBool::new(false);
    let gcs = AtomicUsize::new(0);
    // The packing thread stops when the saves end, and when one fails (a panic leaves the
    // scope waiting for it otherwise).
    struct Stop<'a>(&'a AtomicBool);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    // git's own `add` meets the same race (its temporary file's directory removed): the
    // oracle runs while the packing waits.
    let gate = std::sync::Mutex::new(());
    std::thread::scope(|scope| {
        let _stop = Stop(&stop);
        scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                {
                    let _packing = gate
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    repo.git_ok(&["repack", "-d", "-q"]);
                    repo.git_ok(&["prune-packed", "-q"]);
                }
                gcs.fetch_add(1, Ordering::Relaxed);
                // Room for the oracle to take its turn.
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        });
        for round in 0..25 {
            for f in 0..120 {
                repo.write(&format!("r{round}/f{f}.txt"), &format!("{round} {f}\n"));
            }
            let id = repo.save(&["-q"]);
            let _oracle = gate
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            assert_eq!(
                repo.git(&["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")]),
                repo.oracle_tree(),
                "round {round}"
            );
        }
    });
    assert!(
        gcs.load(Ordering::Relaxed) > 0,
        "git gc ran beside the saves"
    );
    repo.fsck();
}
