//! `du` and `checkpoint.maxSize`: what checkpoints cost on disk, checked against git's own
//! count of the objects reachable from checkpoint refs and notes but not from branches and
//! tags; and a store that is filled, bounded by retention, collected by `git gc`, and
//! measured again.

use crate::common::{Json, Repo};

/// Bytes no compressor can shrink, different for each `seed`.
fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// What git counts: objects reachable from the checkpoints and their notes, not from branches
/// or tags; and their total size.
fn git_count(repo: &Repo) -> (u64, u64) {
    let objects = repo.git(&[
        "rev-list",
        "--objects",
        "--glob=refs/checkpoints/*",
        "refs/notes/checkpoints",
        "--not",
        "--branches",
        "--tags",
    ]);
    let ids: Vec<&str> = objects
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let input = ids.join("\n") + "\n";
    let sizes = repo.git_stdin(
        &["cat-file", "--batch-check=%(objectsize)"],
        input.as_bytes(),
    );
    let bytes = sizes
        .lines()
        .map(|l| l.trim().parse::<u64>().unwrap())
        .sum();
    (ids.len() as u64, bytes)
}

fn du(repo: &Repo) -> Json {
    Json::parse(&repo.cp(&["du", "--json"]).ok().stdout)
}

#[test]
fn du_counts_what_git_counts_beyond_branches_and_tags() {
    let repo = Repo::with_commit(&[("src/a.rs", "fn a() {}\n"), ("README", "hi\n")]);
    repo.git(&["tag", "v1"]);
    repo.write_bytes("data/big.bin", &random_bytes(1, 200_000));
    let first = repo.save(&["-q", "-m", "big file"]);
    repo.write("src/a.rs", "fn a() { changed }\n");
    repo.git(&["add", "src/a.rs"]);
    repo.save(&["-q", "-m", "staged change", "--kind", "auto"]);
    repo.write("notes.txt", "small\n");
    repo.save(&["-q", "-m", "small file", "--kind", "auto"]);

    let usage = du(&repo);
    let (objects, bytes) = git_count(&repo);
    assert_eq!(usage.get("total.objects"), objects.to_string());
    assert_eq!(usage.get("total.bytes"), bytes.to_string());
    assert_eq!(usage.get("checkpoints"), "3");
    // The big file is what the oldest checkpoint added; the kinds add up to the total.
    let first_added: u64 = usage.get("by_checkpoint.0.added.bytes").parse().unwrap();
    assert_eq!(usage.get("by_checkpoint.0.id"), first);
    assert!(first_added > 200_000, "{first_added}");
    let by_kind: u64 = ["manual", "auto"]
        .iter()
        .map(|k| {
            usage
                .get(&format!("by_kind.{k}.bytes"))
                .parse::<u64>()
                .unwrap()
        })
        .sum::<u64>()
        + usage.get("notes.bytes").parse::<u64>().unwrap();
    assert_eq!(by_kind, bytes);

    // Once a branch holds the big file, it no longer counts.
    repo.git(&["add", "data/big.bin"]);
    repo.git(&["commit", "-qm", "keep the big file"]);
    let usage = du(&repo);
    let after: u64 = usage.get("total.bytes").parse().unwrap();
    assert!(after + 200_000 <= bytes, "{after} vs {bytes}");

    let human = repo.cp(&["du"]).ok();
    assert!(
        human.stdout.starts_with("3 checkpoints hold "),
        "{}",
        human.stdout
    );
    assert!(human.stdout.contains("heaviest:"), "{}", human.stdout);
}

#[test]
fn max_size_keeps_the_store_bounded_and_gc_frees_the_rest() {
    let repo = Repo::with_commit(&[("README", "hi\n")]);
    repo.git(&["config", "checkpoint.maxSize", "350k"]);
    // By default a size limit keeps what is younger than an hour (checkpoint.minAge).
    repo.git(&["config", "checkpoint.minAge", "0"]);
    let mut blobs = Vec::new();
    let mut ids = Vec::new();
    for i in 0..6u64 {
        // A build output replaced by the next one: each checkpoint holds one of them.
        if i > 0 {
            repo.remove(&format!("out/{}.bin", i - 1));
        }
        let data = random_bytes(i + 10, 100_000);
        repo.write_bytes(&format!("out/{i}.bin"), &data);
        ids.push(repo.save(&["-q", "-m", &format!("file {i}")]));
        blobs.push(repo.git_stdin(&["hash-object", "--stdin"], &data));
        let usage = du(&repo);
        let bytes: u64 = usage.get("total.bytes").parse().unwrap();
        assert!(bytes <= 350 * 1024, "after save {i}: {bytes}");
        // git agrees with what du says.
        assert_eq!(git_count(&repo).1, bytes);
        // No more went than needed: three files of 100,000 bytes fit in 350 KiB, four do not.
        assert_eq!(
            repo.checkpoint_ids().len(),
            (i as usize + 1).min(3),
            "after save {i}"
        );
    }
    // The newest stay; the oldest went.
    let left = repo.checkpoint_ids();
    assert!(left.contains(ids.last().unwrap()));
    assert!(!left.contains(&ids[0]));

    // A pinned checkpoint is never removed, whatever it costs: others go instead.
    repo.cp(&["pin", ids.last().unwrap()]).ok();
    repo.remove("out/5.bin");
    repo.write_bytes("out/extra.bin", &random_bytes(99, 100_000));
    repo.save(&["-q"]);
    assert!(repo.checkpoint_ids().contains(ids.last().unwrap()));

    // git gc frees what the pruned checkpoints held, and keeps what the others hold.
    repo.git(&["gc", "--quiet", "--prune=now"]);
    repo.fsck();
    let files: Vec<String> = repo
        .git(&[
            "ls-tree",
            "-r",
            "--name-only",
            &format!("refs/checkpoints/{}", ids[5]),
        ])
        .lines()
        .map(str::to_string)
        .collect();
    assert!(files.contains(&"out/5.bin".to_string()), "{files:?}");
    assert!(
        !repo.git_ok(&["cat-file", "-e", &blobs[0]]),
        "the oldest file is gone from the store"
    );
    let packed = repo.git(&["count-objects", "-v"]);
    let size_pack: u64 = packed
        .lines()
        .find_map(|l| l.strip_prefix("size-pack: "))
        .unwrap()
        .parse()
        .unwrap();
    // The store holds about maxSize of random data (KiB), not all six files.
    assert!(size_pack < 500, "{packed}");

    // A flag overrides the setting for one run.
    let out = repo.cp(&["prune", "--max-size", "0", "--dry-run"]).ok();
    assert!(out.stdout.contains("would prune"), "{}", out.stdout);
    assert!(
        !out.stdout.contains(ids.last().unwrap()),
        "pinned: {}",
        out.stdout
    );
}
