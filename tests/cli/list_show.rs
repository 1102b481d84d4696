//! `list`, `show`, naming a checkpoint, and errors.

use crate::common::Repo;

fn repo_with_checkpoints(n: usize) -> (Repo, Vec<String>) {
    let repo = Repo::new();
    repo.write("a", "a\n");
    repo.git(&["add", "a"]);
    repo.git(&["commit", "-qm", "base"]);
    let mut ids = Vec::new();
    for i in 0..n {
        repo.write("a", &format!("version {i}\n"));
        let kind = if i % 2 == 0 { "manual" } else { "auto" };
        let out = repo.cp(&["save", "-q", "-m", &format!("message {i}"), "--kind", kind]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        ids.push(out.stdout.trim().to_string());
    }
    (repo, ids)
}

fn first_column(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn list_is_newest_first_and_filters() {
    let (repo, ids) = repo_with_checkpoints(4);
    let before = repo.fingerprint();
    let out = repo.cp(&["list"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut newest_first = ids.clone();
    newest_first.reverse();
    assert_eq!(first_column(&out.stdout), newest_first);
    assert!(out.stdout.contains("message 3"), "{}", out.stdout);
    let short = repo.git(&[
        "rev-parse",
        "--short=7",
        &format!("refs/checkpoints/{}", ids[3]),
    ]);
    assert!(out.stdout.lines().next().unwrap().contains(&short));
    assert!(out.stdout.contains("+0 ~1 -0"), "{}", out.stdout);
    // Columns are aligned: the kind column starts at the same offset on every line.
    let offsets: Vec<_> = out
        .stdout
        .lines()
        .map(|l| l.find("manual").or_else(|| l.find("auto")).unwrap())
        .collect();
    assert!(offsets.windows(2).all(|w| w[0] == w[1]), "{}", out.stdout);

    assert_eq!(
        first_column(&repo.cp(&["ls", "-n", "2"]).stdout),
        newest_first[..2]
    );
    assert_eq!(
        first_column(&repo.cp(&["list", "--kind", "auto"]).stdout),
        vec![ids[3].clone(), ids[1].clone()]
    );
    let json = repo.cp(&["list", "--json"]).stdout;
    assert_eq!(Repo::json_get(&json, "0.id"), ids[3]);
    assert_eq!(Repo::json_get(&json, "3.id"), ids[0]);
    assert_eq!(
        Repo::json_get(&json, "0.commit"),
        repo.git(&["rev-parse", &format!("refs/checkpoints/{}", ids[3])])
    );
    assert_eq!(repo.fingerprint(), before);
}

#[test]
fn damaged_notes_still_list_from_the_commit() {
    let (repo, ids) = repo_with_checkpoints(3);
    let commit = |id: &str| repo.git(&["rev-parse", &format!("refs/checkpoints/{id}")]);
    // Missing, not JSON, hostile nesting, huge.
    repo.git(&["notes", "--ref=checkpoints", "remove", &commit(&ids[0])]);
    repo.git(&[
        "notes",
        "--ref=checkpoints",
        "add",
        "-f",
        "-m",
        "garbage{",
        &commit(&ids[1]),
    ]);
    let deep = "[".repeat(100_000);
    let deep_file = repo.scratch().join("deep");
    std::fs::write(&deep_file, deep).unwrap();
    repo.git(&[
        "notes",
        "--ref=checkpoints",
        "add",
        "-f",
        "-F",
        deep_file.to_str().unwrap(),
        &commit(&ids[2]),
    ]);
    let out = repo.cp(&["list"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(first_column(&out.stdout).len(), 3);
    assert!(!out.stderr.contains("panicked"));
    for id in &ids {
        assert!(
            out.stderr.contains(id),
            "warning names {id}: {}",
            out.stderr
        );
    }
    assert!(out.stderr.contains("note"), "{}", out.stderr);
    // What the note would say comes from the commit's trailers.
    let json = repo.cp(&["list", "--json"]).stdout;
    assert_eq!(Repo::json_get(&json, "2.kind"), "manual");
    assert_eq!(Repo::json_get(&json, "1.kind"), "auto");
    assert_eq!(Repo::json_get(&json, "2.message"), "message 0");

    let huge = format!("{{\"a\":\"{}\"}}", "x".repeat(3_000_000));
    let huge_file = repo.scratch().join("huge");
    std::fs::write(&huge_file, huge).unwrap();
    repo.git(&[
        "notes",
        "--ref=checkpoints",
        "add",
        "-f",
        "-F",
        huge_file.to_str().unwrap(),
        &commit(&ids[2]),
    ]);
    let out = repo.cp(&["show", &ids[2]]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("too large"), "{}", out.stderr);
}

#[test]
fn show_prints_metadata_and_a_stat() {
    let repo = Repo::new();
    repo.write("a", "one\ntwo\n");
    repo.write("gone", "bye\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    repo.write("a", "one\nTWO\nthree\n");
    repo.remove("gone");
    repo.write("new", "n\n");
    let id = repo
        .cp(&["save", "-q", "-m", "my message", "--name", "nm"])
        .stdout
        .trim()
        .to_string();
    let before = repo.fingerprint();
    let out = repo.cp(&["show", &id]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let commit = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}")]);
    assert!(out.stdout.contains(&id));
    assert!(out.stdout.contains(&commit));
    assert!(out.stdout.contains("my message"));
    assert!(out.stdout.contains("manual"));
    // The stat is git's own for the same two trees.
    let git_stat = repo.git(&["diff", "--stat", "HEAD", &commit]);
    for line in git_stat.lines() {
        assert!(
            out.stdout.contains(line),
            "missing {line:?} in\n{}",
            out.stdout
        );
    }
    let json = repo.cp(&["show", "nm", "--json"]).stdout;
    assert_eq!(Repo::json_get(&json, "id"), id);
    assert_eq!(Repo::json_get(&json, "commit"), commit);
    assert_eq!(repo.fingerprint(), before);
}

#[test]
fn every_naming_rule() {
    let (repo, ids) = repo_with_checkpoints(3);
    let resolve = |spec: &str| {
        let out = repo.cp(&["show", spec, "--json"]);
        assert_eq!(out.code, 0, "{spec}: {}", out.stderr);
        Repo::json_get(&out.stdout, "id")
    };
    assert_eq!(resolve(&ids[1]), ids[1], "exact id");
    assert_eq!(resolve("@"), ids[2]);
    assert_eq!(resolve("latest"), ids[2]);
    assert_eq!(resolve("@{0}"), ids[2]);
    assert_eq!(resolve("@{2}"), ids[0]);
    // Names: the newest of a name wins.
    repo.write("a", "named 1\n");
    let named_old = repo
        .cp(&["save", "-q", "--name", "wip"])
        .stdout
        .trim()
        .to_string();
    repo.write("a", "named 2\n");
    let named_new = repo
        .cp(&["save", "-q", "--name", "wip"])
        .stdout
        .trim()
        .to_string();
    assert_ne!(named_old, named_new);
    assert_eq!(resolve("wip"), named_new);
    // A unique id prefix (all but the last character).
    assert_eq!(resolve(&ids[0][..21]), ids[0]);
    // A unique commit prefix.
    let commit = repo.git(&["rev-parse", &format!("refs/checkpoints/{}", ids[1])]);
    assert_eq!(resolve(&commit[..10]), ids[1]);

    // Ambiguous: the date part is shared by all.
    let amb = repo.cp(&["show", &ids[0][..8]]);
    assert_eq!(amb.code, 1);
    assert!(amb.stderr.starts_with("error:"), "{}", amb.stderr);
    assert!(amb.stderr.contains("ambiguous"), "{}", amb.stderr);
    assert!(
        amb.stderr.contains(&ids[0]) && amb.stderr.contains(&ids[1]),
        "{}",
        amb.stderr
    );
    // Unknown.
    let unknown = repo.cp(&["show", "no-such-checkpoint"]);
    assert_eq!(unknown.code, 1);
    assert!(unknown.stderr.starts_with("error:"));
    assert!(
        unknown.stderr.contains("git checkpoint list"),
        "{}",
        unknown.stderr
    );
    let too_far = repo.cp(&["show", "@{99}"]);
    assert_eq!(too_far.code, 1);
}

#[test]
fn errors_are_one_line_with_exit_codes() {
    // Outside a repository.
    let dir = tempfile::tempdir().unwrap();
    let repo = Repo::new();
    let out = repo.cp_with(
        |cmd| {
            cmd.current_dir(dir.path())
                .env("GIT_CEILING_DIRECTORIES", dir.path().parent().unwrap());
        },
        &["save"],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.starts_with("error: not a git repository"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.lines().skip(1).all(|l| l.starts_with("hint:")),
        "{}",
        out.stderr
    );

    // A bare repository.
    let bare = Repo::init(&["--bare"]);
    let out = bare.cp(&["list"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error:") && out.stderr.contains("bare"),
        "{}",
        out.stderr
    );

    // A reftable repository: refused clearly.
    let reftable = Repo::init(&["--ref-format=reftable"]);
    reftable.write("a", "a\n");
    let out = reftable.cp(&["save"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.starts_with("error:") && out.stderr.contains("reftable"),
        "{}",
        out.stderr
    );

    // Usage errors exit 2.
    assert_eq!(repo.cp(&["--bogus"]).code, 2);
    assert_eq!(repo.cp(&["show"]).code, 2);
    assert_eq!(repo.cp(&["list", "-n", "x"]).code, 2);
    assert_eq!(repo.cp(&["--help"]).code, 0);
    assert_eq!(repo.cp(&["--version"]).code, 0);
}

#[test]
fn an_unreadable_file_fails_the_save_and_names_it() {
    let repo = Repo::new();
    repo.write("a", "a\n");
    repo.git(&["add", "a"]);
    repo.git(&["commit", "-qm", "base"]);
    repo.write("secret", "s\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        repo.path().join("secret"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    // Root reads anything: drop privileges with setpriv when running as root.
    let is_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .unwrap()
        .stdout
        == b"0\n";
    let out = if is_root {
        let has_setpriv = std::process::Command::new("setpriv")
            .arg("--help")
            .output()
            .is_ok();
        if !has_setpriv {
            eprintln!("skipped: running as root without setpriv");
            return;
        }
        // Let the unprivileged user write objects and refs.
        std::process::Command::new("chmod")
            .args(["-R", "a+rwX", repo.scratch().to_str().unwrap()])
            .status()
            .unwrap();
        std::fs::set_permissions(
            repo.path().join("secret"),
            std::fs::Permissions::from_mode(0o000),
        )
        .unwrap();
        repo.cp_wrapped(
            &[
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
            ],
            &["save"],
        )
    } else {
        repo.cp(&["save"])
    };
    assert_eq!(out.code, 1, "stdout {} stderr {}", out.stdout, out.stderr);
    assert!(out.stderr.starts_with("error:"), "{}", out.stderr);
    assert!(out.stderr.contains("secret"), "{}", out.stderr);
    assert_eq!(
        repo.git(&["for-each-ref", "refs/checkpoints"]),
        "",
        "nothing half-written"
    );
}
