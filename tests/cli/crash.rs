//! Crash safety: commands killed with SIGKILL at random moments leave a repository that works.
//!
//! `save`, `restore`, `drop` and `prune` are started and killed after a random delay, until
//! `CRASH_KILLS` (default 200) of them have really died of the signal (a command that finished
//! before its kill does not count); every tenth command is left to finish. After every command:
//! the user's index, HEAD, branches and stash are untouched; every checkpoint reported saved
//! (its id printed) is still listed with its note; and, after every kill, `git fsck --strict`
//! is clean. After every restore, killed or not, the next command (a `save`) completes what the
//! restore left, and then the working tree is either unchanged or equal to the target (oracle
//! trees compared); a pre-restore checkpoint it reported brings the old state back. A lock left
//! behind must not block the next command: every command left to finish must finish in time.
//!
//! A second run packs the refs (`git pack-refs --all`) every few commands, so that killed
//! drops and prunes rewrite `packed-refs` and can leave `packed-refs.lock` behind.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// How a command ended.
struct Ended {
    stdout: String,
    stderr: String,
    /// Whether SIGKILL ended it (rather than it finishing first).
    killed: bool,
    /// How long it ran.
    took: Duration,
}

/// When to kill each command: at a random point of its last complete run, so that kills land
/// anywhere in it on this machine, however fast, and few runs finish before their kill.
struct Spans(BTreeMap<&'static str, Duration>);

impl Spans {
    fn delay(&self, verb: &'static str, rng: &mut Rng) -> Duration {
        let span = self.0.get(verb).or_else(|| self.0.get("save"));
        let micros = span.map_or(1000, |s| (s.as_micros() as u64).max(1000));
        Duration::from_micros(rng.next() % micros)
    }

    fn learn(&mut self, verb: &'static str, ended: &Ended) {
        if !ended.killed {
            self.0.insert(verb, ended.took);
        }
    }
}

/// A command left to finish must finish within this, or a lock is blocking it.
const UNBLOCKED: Duration = Duration::from_secs(20);

/// Start the tool, kill it after `delay` (`None`: let it finish).
fn run_and_kill(repo: &Repo, args: &[&str], delay: Option<Duration>) -> Ended {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .current_dir(repo.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    repo.env(&mut cmd);
    let started = Instant::now();
    let mut child = cmd.spawn().unwrap();
    if let Some(delay) = delay {
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL
    }
    let out = child.wait_with_output().unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if delay.is_none() && !out.status.success() && stderr.contains("packed-refs.lock") {
        // A killed drop or prune left git's lock on packed-refs. git-checkpoint may not remove
        // it (git's own commands take it too): it must say so, naming the file, within
        // seconds. Then do what the hint says, as the user would, and run the command again.
        assert!(
            took < Duration::from_secs(10),
            "{args:?} took {took:?}: {stderr}"
        );
        assert!(
            stderr.starts_with("error: ") && stderr.contains("\nhint: "),
            "{stderr}"
        );
        let lock = repo.git_dir().join("packed-refs.lock");
        assert!(lock.exists(), "{stderr}");
        std::fs::remove_file(lock).unwrap();
        eprintln!("crash harness: {args:?} reported a packed-refs.lock left behind");
        return run_and_kill(repo, args, None);
    }
    if delay.is_none() {
        assert!(
            took < UNBLOCKED,
            "{args:?} took {:?}: something left behind blocks it; lock files: {:?}",
            started.elapsed(),
            repo.git_dir_manifest()
                .into_iter()
                .filter(|p| p.ends_with(".lock"))
                .collect::<Vec<_>>()
        );
    }
    Ended {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        killed: out.status.signal() == Some(9),
        took,
    }
}

/// The checkpoint ids and their commits.
fn checkpoint_commits(repo: &Repo) -> BTreeMap<String, String> {
    repo.git(&[
        "for-each-ref",
        "--format=%(refname:lstrip=2) %(objectname)",
        "refs/checkpoints/",
    ])
    .lines()
    .filter_map(|l| l.split_once(' '))
    .map(|(id, commit)| (id.to_string(), commit.to_string()))
    .collect()
}

/// Every reported checkpoint is listed, and has a note.
#[track_caller]
fn assert_reported_have_notes(repo: &Repo, reported: &[String], when: &str) {
    let commits = checkpoint_commits(repo);
    let annotated: BTreeSet<String> = repo
        .git(&["notes", "--ref=checkpoints", "list"])
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .map(str::to_string)
        .collect();
    for id in reported {
        let commit = commits
            .get(id)
            .unwrap_or_else(|| panic!("{when}: {id} was reported saved and is gone"));
        assert!(
            annotated.contains(commit),
            "{when}: {id} was reported saved and has lost its note"
        );
    }
}

/// The pre-restore checkpoint a restore's stderr names ("… checkpoint <id>; undo with …").
fn reported_safety(stderr: &str) -> Option<String> {
    let line = stderr.lines().find(|l| l.contains("; undo with: "))?;
    let before = line.split("; undo with: ").next()?;
    before.rsplit(' ').next().map(str::to_string)
}

struct Run {
    kills: usize,
    seed: u64,
    /// Pack the refs every this many commands.
    pack_every: Option<usize>,
    /// Run `git fsck` after every this many kills.
    fsck_every: usize,
    /// In a plain directory (its private store) rather than a repository.
    plain: bool,
}

fn crash_run(run: Run) {
    let repo = if run.plain {
        Repo::plain()
    } else {
        Repo::new()
    };
    for i in 0..200 {
        repo.write(&format!("d{}/f{i}.txt", i % 10), &format!("file {i}\n"));
    }
    let mut spans = Spans(BTreeMap::new());
    if run.plain {
        // The first save makes the store, which git then reads.
        let warm = run_and_kill(&repo, &["save", "-q", "--allow-empty"], None);
        spans.learn("save", &warm);
    } else {
        repo.git(&["add", "-A"]);
        repo.git(&["commit", "-qm", "base"]);
    }
    repo.git(&["config", "checkpoint.keep", "1000"]);
    let fingerprint = repo.fingerprint();
    let warm = run_and_kill(&repo, &["save", "-q", "--allow-empty"], None);
    spans.learn("save", &warm);
    let mut rng = Rng(run.seed);
    let mut reported: Vec<String> = Vec::new();
    // Checkpoints a drop or prune was asked to delete: a killed one may have removed the note
    // and not yet the ref (gix commits ref updates before deletions).
    let mut doomed: BTreeSet<String> = BTreeSet::new();
    let (mut killed, mut restores_killed, mut finished) = (0, 0, 0);

    let mut round = 0;
    while killed < run.kills {
        round += 1;
        assert!(
            round < run.kills * 6,
            "only {killed} of {} commands were killed in {round} rounds",
            run.kills
        );
        let when = format!("round {round}");
        for k in 0..5 {
            let i = (rng.next() % 200) as usize;
            repo.write(
                &format!("d{}/f{i}.txt", i % 10),
                &format!("round {round} edit {k}\n"),
            );
        }
        repo.write(&format!("new/r{round}.txt"), "new\n");
        if let Some(every) = run.pack_every
            && round % every == 0
        {
            // A stale packed-refs.lock makes this fail; the tool must cope either way.
            let _ = repo.git_ok(&["pack-refs", "--all"]);
        }
        let ids: Vec<String> = checkpoint_commits(&repo).into_keys().collect();
        let verb = match (round % 8, ids.len()) {
            (0..=3, _) | (_, 0..=2) => "save",
            (4 | 5, _) => "restore",
            (6, _) => "drop",
            _ => "prune",
        };
        // Every tenth command runs to its end, so that there are reported saves to check.
        let delay = (round % 10 != 9).then(|| spans.delay(verb, &mut rng));
        let ended = match verb {
            "save" => {
                let ended = run_and_kill(&repo, &["save", "-q", "--allow-empty"], delay);
                let id = ended.stdout.trim();
                if !id.is_empty() {
                    reported.push(id.to_string());
                }
                ended
            }
            "restore" => {
                let target = ids[(rng.next() as usize) % ids.len()].clone();
                let before = repo.oracle_tree();
                let ended = run_and_kill(&repo, &["restore", &target], delay);
                restores_killed += usize::from(ended.killed);
                // Whatever pre-restore checkpoint it made holds the state before it.
                let made: Vec<String> = checkpoint_commits(&repo)
                    .into_keys()
                    .filter(|id| !ids.contains(id))
                    .collect();
                for id in &made {
                    assert_eq!(
                        repo.checkpoint_tree(id),
                        before,
                        "{when}: pre-restore checkpoint {id} does not hold the state before"
                    );
                }
                // The next command completes what a killed restore left.
                let next = run_and_kill(&repo, &["save", "--allow-empty"], None);
                reported.push(next.stdout.trim().to_string());
                let now = repo.oracle_tree();
                let target_tree = repo.checkpoint_tree(&target);
                assert!(
                    now == before || now == target_tree,
                    "{when}: after restoring {target} (killed: {}) the working tree is neither \
                     unchanged nor the target\nrestore: {}\nnext save: {}",
                    ended.killed,
                    ended.stderr,
                    next.stderr
                );
                assert_eq!(
                    repo.checkpoint_tree(next.stdout.trim()),
                    now,
                    "{when}: the save after the restore"
                );
                // A reported pre-restore checkpoint brings the old state back.
                if let Some(safety) = reported_safety(&ended.stderr) {
                    reported.push(safety.clone());
                    let back = run_and_kill(&repo, &["restore", "-q", &safety], None);
                    assert!(!back.killed && back.stderr.is_empty(), "{}", back.stderr);
                    assert_eq!(
                        repo.oracle_tree(),
                        before,
                        "{when}: restoring the pre-restore checkpoint {safety}"
                    );
                }
                ended
            }
            "drop" => {
                let victim = ids[(rng.next() as usize) % ids.len()].clone();
                reported.retain(|id| id != &victim);
                doomed.insert(victim.clone());
                run_and_kill(&repo, &["drop", "-q", &victim], delay)
            }
            _ => {
                // `ids` is sorted: all but the 30 newest go.
                let pruned = &ids[..ids.len().saturating_sub(30)];
                reported.retain(|id| !pruned.contains(id));
                doomed.extend(pruned.iter().cloned());
                run_and_kill(&repo, &["prune", "-q", "--keep", "30"], delay)
            }
        };
        spans.learn(verb, &ended);
        if ended.killed {
            killed += 1;
            if killed % run.fsck_every == 0 {
                repo.fsck();
            }
        } else {
            finished += 1;
        }
        assert_reported_have_notes(&repo, &reported, &when);
        assert_eq!(
            repo.fingerprint(),
            fingerprint,
            "{when}: index, HEAD, branches or stash touched"
        );
    }

    // The next command works, and nothing that was reported saved is missing.
    let last = run_and_kill(&repo, &["save", "-q", "--allow-empty"], None);
    assert!(!last.killed, "{}", last.stderr);
    reported.push(last.stdout.trim().to_string());
    assert_reported_have_notes(&repo, &reported, "at the end");
    let listed = repo.cp(&["list", "--all", "--json"]).ok();
    for id in &reported {
        assert!(
            listed.stdout.contains(&format!("\"id\":\"{id}\"")),
            "{id} is not listed: {}",
            listed.stderr
        );
        assert!(
            repo.note(id).contains(&format!("\"id\":\"{id}\"")),
            "{id}: its note is not its own"
        );
    }
    // A checkpoint listed without its note was on its way out.
    let annotated = repo.git(&["notes", "--ref=checkpoints", "list"]);
    for (id, commit) in checkpoint_commits(&repo) {
        assert!(
            annotated.contains(&commit) || doomed.contains(&id),
            "{id} has no note, and no drop or prune was asked to delete it"
        );
    }
    assert!(
        restores_killed > 0,
        "no restore was ever killed: the delays are too long"
    );
    repo.fsck();
    eprintln!(
        "crash harness: {killed} kills ({restores_killed} of them restores) in {round} commands, \
         {finished} finished, {} saves reported",
        reported.len()
    );
}

#[test]
fn killed_commands_never_break_the_repository() {
    let kills = std::env::var("CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    crash_run(Run {
        kills,
        seed: 0x5eed_cafe,
        pack_every: None,
        fsck_every: 1,
        plain: false,
    });
}

/// The same in a plain directory, whose checkpoints, journal and locks live in its private
/// store: a killed restore is completed by the next command there too.
#[test]
fn killed_commands_never_break_a_plain_directory() {
    let kills = std::env::var("CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(60, |k| k / 3);
    crash_run(Run {
        kills,
        seed: 0x9a1_d12,
        pack_every: Some(5),
        fsck_every: 2,
        plain: true,
    });
}

/// The same with the refs packed now and then: a killed drop or prune can then leave git's
/// `packed-refs.lock`, which the next command must report within seconds (see `run_and_kill`).
#[test]
fn killed_commands_never_break_a_repository_with_packed_refs() {
    let kills = std::env::var("CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(60, |k| k / 3);
    crash_run(Run {
        kills,
        seed: 0xdec0_de42,
        pack_every: Some(4),
        fsck_every: 1,
        plain: false,
    });
}

/// A process killed while it created a checkpoint ref (a restore's safety checkpoint) leaves
/// `refs/checkpoints/<id>.lock` for a ref that was never made; nothing takes that name again.
/// The next save and an explicit prune remove such locks once stale, and leave alone a fresh
/// one (a transaction under way) and the lock of a ref that exists (the next writer of that
/// ref deals with it).
#[test]
fn stale_locks_of_checkpoint_refs_never_created_are_swept() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    if repo.is_reftable() {
        crate::common::skip("reftable keeps no lock file per ref");
        return;
    }
    let existing = repo.save(&["-q"]);
    let dir = repo.git_dir().join("refs/checkpoints");
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    let lock = |name: &str, stale: bool| {
        let path = dir.join(format!("{name}.lock"));
        std::fs::write(&path, "").unwrap();
        if stale {
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        path
    };
    for verb in ["save", "prune"] {
        let never = lock("20200101-000000-000abc", true);
        let fresh = lock("20200101-000000-000def", false);
        let of_existing = lock(&existing, true);
        if verb == "save" {
            repo.write("a", "changed\n");
            repo.save(&["-q"]);
        } else {
            repo.cp(&["prune"]).ok();
        }
        assert!(
            !never.exists(),
            "{verb} left a stale lock of a ref never created"
        );
        assert!(fresh.exists(), "{verb} removed a fresh lock");
        assert!(
            of_existing.exists(),
            "{verb} removed the lock of an existing ref"
        );
        for path in [fresh, of_existing] {
            std::fs::remove_file(path).unwrap();
        }
    }
}
