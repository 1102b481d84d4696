//! Crash safety: commands killed with SIGKILL at random moments leave a repository that works.
//!
//! After every kill: the user's index, HEAD, branches and stash are untouched. At the end:
//! `git fsck` is clean, the next command is not blocked by a lock file, every checkpoint whose
//! id was printed (so reported saved) is still listed, and a killed restore can be taken back
//! with its pre-restore checkpoint. The number of kills is `CRASH_KILLS` (default 200).

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{Repo, bin};

/// A small deterministic generator, so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Start the tool, kill it after `delay` (`None`: let it finish), return what it printed on
/// stdout.
fn run_and_kill(repo: &Repo, args: &[&str], delay: Option<Duration>) -> String {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .current_dir(repo.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    repo.env(&mut cmd);
    let mut child = cmd.spawn().unwrap();
    if let Some(delay) = delay {
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn killed_commands_never_break_the_repository() {
    let kills: usize = std::env::var("CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let repo = Repo::new();
    for i in 0..200 {
        repo.write(&format!("d{}/f{i}.txt", i % 10), &format!("file {i}\n"));
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    repo.git(&["config", "checkpoint.keep", "1000"]);
    let fingerprint = repo.fingerprint();
    // Kill points spread over the whole run of a command on this machine, however fast it is.
    let started = std::time::Instant::now();
    let warm = repo.cp(&["save", "-q", "--allow-empty"]);
    assert_eq!(warm.code, 0, "{}", warm.stderr);
    let span = (started.elapsed().as_micros() as u64 * 2).max(1000);
    let mut rng = Rng(0x5eed_cafe);
    let mut reported: Vec<String> = Vec::new();

    for round in 0..kills {
        // Some work for every command: a few changed and new files.
        for k in 0..5 {
            let i = (rng.next() % 200) as usize;
            repo.write(
                &format!("d{}/f{i}.txt", i % 10),
                &format!("round {round} edit {k}\n"),
            );
        }
        repo.write(&format!("new/r{round}.txt"), "new\n");
        // Every tenth command runs to its end, so that there are reported saves to check.
        let delay = (round % 10 != 9).then(|| Duration::from_micros(rng.next() % span));
        let ids = repo.checkpoint_ids();
        let out = match (round % 8, ids.len()) {
            (0..=4, _) | (_, 0..=2) => run_and_kill(&repo, &["save", "-q", "--allow-empty"], delay),
            (5, _) => {
                let target = ids[(rng.next() as usize) % ids.len()].clone();
                let before = repo.checkpoint_ids();
                run_and_kill(&repo, &["restore", "-q", &target], delay);
                // A killed restore is taken back by its pre-restore checkpoint, if it made one.
                let made: Vec<String> = repo
                    .checkpoint_ids()
                    .into_iter()
                    .filter(|id| !before.contains(id))
                    .collect();
                if let Some(pre) = made.last() {
                    let back = repo.cp(&["restore", "-q", "--no-save", "--force", pre]);
                    assert_eq!(back.code, 0, "round {round}: {}", back.stderr);
                    assert_eq!(
                        repo.oracle_tree(),
                        repo.checkpoint_tree(pre),
                        "round {round}: the pre-restore checkpoint did not bring the state back"
                    );
                }
                String::new()
            }
            (6, _) => {
                let victim = ids[(rng.next() as usize) % ids.len()].clone();
                run_and_kill(&repo, &["drop", "-q", &victim], delay);
                reported.retain(|id| id != &victim && repo.checkpoint_ids().contains(id));
                String::new()
            }
            _ => {
                run_and_kill(&repo, &["prune", "-q", "--keep", "30"], delay);
                let now = repo.checkpoint_ids();
                reported.retain(|id| now.contains(id));
                String::new()
            }
        };
        let id = out.trim();
        if !id.is_empty() {
            reported.push(id.to_string());
        }
        assert_eq!(
            repo.fingerprint(),
            fingerprint,
            "round {round}: index or HEAD touched"
        );
    }

    // The next command works (a lock left by a killed process is cleared), and nothing that
    // was reported saved is missing.
    let next = repo.cp(&["save", "-q", "--allow-empty"]);
    assert_eq!(next.code, 0, "{}", next.stderr);
    let listed = repo.cp(&["list", "--all"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    for id in &reported {
        assert!(
            listed.stdout.contains(id.as_str()),
            "{id} was reported saved and is gone"
        );
    }
    assert!(
        !reported.is_empty(),
        "no save ever finished: the delays are too short"
    );
    repo.fsck();
    eprintln!(
        "crash harness: {kills} kills, {} saves reported",
        reported.len()
    );
}
