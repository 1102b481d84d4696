//! Faults: a full disk during save, missing and corrupt objects during restore. One clear
//! error, nothing half-applied.

use std::fs;

use crate::common::Repo;

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
