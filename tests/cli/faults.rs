//! Faults: a full disk during save, missing and corrupt objects during restore. One clear
//! error, nothing half-applied.

use std::fs;

use crate::common::{Repo, skip};

fn committed() -> Repo {
    let repo = Repo::new();
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    repo
}

/// Bytes that do not compress, so their loose object is as large as they are.
fn noise(len: usize) -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn a_full_disk_during_save_is_one_error_and_no_checkpoint() {
    let repo = committed();
    repo.write_bytes("big.bin", &noise(300_000));
    // Files above 64 KiB cannot be written: the loose object of big.bin fails.
    let out = repo.cp_with_shell_prefix("trap '' XFSZ; ulimit -f 64;", &["save"]);
    assert_eq!(out.code, 1, "stdout {} stderr {}", out.stdout, out.stderr);
    assert!(out.stderr.starts_with("error:"), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(repo.checkpoint_ids().is_empty(), "no checkpoint half-made");
    // With room again, the save works.
    let ok = repo.cp(&["save", "-q"]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    repo.fsck();
}

fn loose_object_path(repo: &Repo, id: &str) -> std::path::PathBuf {
    repo.path()
        .join(".git/objects")
        .join(&id[..2])
        .join(&id[2..])
}

fn restore_with_damaged_blob(damage: impl Fn(&std::path::Path)) {
    let repo = committed();
    repo.write("a.txt", "version only the checkpoint holds\n");
    repo.write("z-new.txt", "new\n");
    let id = repo.cp(&["save", "-q"]).stdout.trim().to_string();
    let blob = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}:z-new.txt")]);
    repo.write("a.txt", "now\n");
    repo.remove("z-new.txt");
    repo.write("c.txt", "c\n");
    let before = (repo.read("a.txt"), repo.read("c.txt"));
    let path = loose_object_path(&repo, &blob);
    assert!(path.exists(), "the blob is loose");
    damage(&path);
    let out = repo.cp(&["restore", &id]);
    assert_eq!(out.code, 1, "{} {}", out.stdout, out.stderr);
    assert!(out.stderr.starts_with("error:"), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(out.stderr.contains("put back"), "{}", out.stderr);
    assert_eq!(
        (repo.read("a.txt"), repo.read("c.txt")),
        before,
        "nothing half-applied"
    );
    assert!(!repo.path().join("z-new.txt").exists());
}

#[test]
fn a_missing_blob_in_the_checkpoint_fails_the_restore_cleanly() {
    restore_with_damaged_blob(|path| fs::remove_file(path).unwrap());
}

#[test]
fn a_corrupt_object_fails_the_restore_cleanly() {
    restore_with_damaged_blob(|path| {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o644)).unwrap();
        let data = fs::read(path).unwrap();
        fs::write(path, &data[..data.len() / 2]).unwrap();
    });
}

/// Set a file's modification time `secs` seconds into the past.
fn age_file(path: &std::path::Path, secs: u64) {
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(secs);
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}

/// The lock git takes to write packed refs (files), or any ref (reftable), relative to the
/// work tree.
fn gits_ref_lock(repo: &Repo) -> &'static str {
    if repo.is_reftable() {
        ".git/reftable/tables.list.lock"
    } else {
        ".git/packed-refs.lock"
    }
}

/// A `packed-refs.lock` left by a killed git (or a killed drop) after the refs were packed
/// (`git pack-refs --all`, `git gc`), or reftable's `tables.list.lock` left by a killed git:
/// every command that updates refs fails within seconds with one error naming the lock file
/// and a hint, and the lock, which is git's as much as ours, is left for the user to judge.
#[test]
fn a_stale_packed_refs_lock_fails_fast_and_names_the_lock() {
    let repo = committed();
    let first = repo.save(&["-q", "--allow-empty"]);
    repo.git(&["pack-refs", "--all"]);
    let name = gits_ref_lock(&repo);
    let lock = repo.path().join(name);
    fs::write(&lock, "").unwrap();
    age_file(&lock, 3600);
    repo.write("a.txt", "changed\n");
    for args in [&["save"][..], &["drop", first.as_str()], &["pin", "@"]] {
        let started = std::time::Instant::now();
        let out = repo.cp(args).fails_with(1);
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(8),
            "{args:?} gave up after {took:?}, not within seconds"
        );
        out.assert_one_error_line();
        assert!(
            out.stderr.contains(name),
            "{args:?} names the lock: {}",
            out.stderr
        );
        assert!(
            out.stderr.contains("hint:") && out.stderr.contains("no git process"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(lock.exists(), "git's lock is the user's to remove");
    }
    assert_eq!(
        repo.checkpoint_ids(),
        vec![first.clone()],
        "nothing half-made"
    );
    fs::remove_file(&lock).unwrap();
    let second = repo.save(&["-q"]);
    assert_eq!(repo.checkpoint_ids(), vec![first, second]);
    repo.fsck();
}

/// A `packed-refs.lock` (or reftable's `tables.list.lock`) that a running git holds for a
/// moment is waited for, not reported (longer than gix's own wait of 1 s and git's 100 ms,
/// shorter than the 2 s after which a lock counts as left behind).
#[test]
fn a_packed_refs_lock_held_briefly_is_waited_for() {
    let repo = committed();
    repo.save(&["-q", "--allow-empty"]);
    repo.git(&["pack-refs", "--all"]);
    let lock = repo.path().join(gits_ref_lock(&repo));
    fs::write(&lock, "").unwrap();
    let remover = {
        let lock = lock.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(1200));
            fs::remove_file(lock).unwrap();
        })
    };
    repo.write("a.txt", "changed\n");
    let id = repo.save(&["-q"]);
    remover.join().unwrap();
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    assert_eq!(repo.checkpoint_ids().len(), 2);
}

/// A lock that only git-checkpoint takes (the notes ref's), left by a killed process, is
/// removed once it is stale, and the save goes on.
#[test]
fn a_stale_lock_of_our_own_is_removed() {
    let repo = committed();
    if repo.is_reftable() {
        skip("reftable has no lock of one ref: only git's lock of the whole stack");
        return;
    }
    repo.save(&["-q", "--allow-empty"]);
    let lock = repo.path().join(".git/refs/notes/checkpoints.lock");
    fs::write(&lock, "").unwrap();
    age_file(&lock, 60);
    repo.write("a.txt", "changed\n");
    let started = std::time::Instant::now();
    let id = repo.save(&["-q"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(8));
    assert!(!lock.exists());
    assert_eq!(repo.note_json(&id).get("id"), id);
    repo.fsck();
}
