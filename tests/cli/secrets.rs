//! Secrets stay home: a save scans what it adds beyond `HEAD`, its note says where (never
//! what), `show`/`list`/`--json` say so, `block` refuses the save (never a safety
//! checkpoint), `push` holds such checkpoints back unless `--allow-secrets`, and the
//! allowlist lets fixtures through. The fake secrets are put together at run time, so that
//! this file holds none.

use crate::common::{Repo, json_eval};

/// A fake AWS access key id (the rule's format, not AWS's example key).
fn aws_key() -> String {
    format!("{}{}", "AKIA", "Q7ZK4WX2MRTB5NJL")
}

/// A fake Stripe-like secret for a `.env` file.
fn env_secret() -> String {
    format!("{}{}", "x9Kq2LmP", "4vT7wZr8")
}

/// Every text a user or a program could read about checkpoints in `repo`: the notes, and
/// what list, show and their JSON print.
fn everything_said(repo: &Repo, ids: &[&str]) -> String {
    let mut all = String::new();
    for id in ids {
        all += &repo.note(id);
        all += &repo.cp(&["show", id, "--stat"]).ok().stdout;
        all += &repo.cp(&["show", id, "--json"]).ok().stdout;
    }
    all += &repo.cp(&["list", "--all"]).ok().stdout;
    all += &repo.cp(&["list", "--all", "--json"]).ok().stdout;
    all
}

/// Neither a secret nor the half of it that is not its public prefix appears in `text`.
#[track_caller]
fn assert_never_said(text: &str, secret: &str) {
    assert!(!text.contains(secret), "the secret was printed: {text}");
    let tail = &secret[secret.len() / 2..];
    assert!(
        !text.contains(tail),
        "part of the secret was printed: {text}"
    );
}

#[test]
fn a_save_records_where_a_secret_is_and_never_what() {
    let repo = Repo::with_commit(&[("src/app.py", "print('hi')\n")]);
    repo.write(
        ".env",
        &format!("DEBUG=1\nSTRIPE_SECRET={}\n", env_secret()),
    );
    repo.write(
        "src/app.py",
        &format!("print('hi')\n\nAWS_ID = \"{}\"\n", aws_key()),
    );
    repo.write("notes.txt", "nothing to see\n");
    let run = repo.cp(&["save", "-m", "work"]).ok();
    let id = run.id();
    assert!(
        run.stderr.contains("2 possible secrets")
            && run.stderr.contains("`.env` line 2 (dotenv-secret)")
            && run
                .stderr
                .contains("`src/app.py` line 3 (aws-access-token)"),
        "{}",
        run.stderr
    );
    let note = repo.note(&id);
    assert_eq!(
        json_eval(&note, "v['secrets']['findings']"),
        r#"[{"path": ".env", "line": 2, "rule": "dotenv-secret"}, {"path": "src/app.py", "line": 3, "rule": "aws-access-token"}]"#
    );
    let list = repo.cp(&["list"]).ok().stdout;
    assert!(list.contains("work [secrets]"), "{list}");
    let show = repo.cp(&["show", &id, "--stat"]).ok().stdout;
    assert!(
        show.contains("secrets   .env line 2 (dotenv-secret)")
            && show.contains("secrets   src/app.py line 3 (aws-access-token)"),
        "{show}"
    );
    let said = everything_said(&repo, &[&id]) + &run.stderr;
    assert_never_said(&said, &env_secret());
    assert_never_said(&said, &aws_key());
    // The checkpoint holds the files as they are: the scan only reports.
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{id}:.env")]),
        format!("DEBUG=1\nSTRIPE_SECRET={}", env_secret())
    );
    repo.fsck();
    repo.git(&["gc", "-q"]);
    repo.fsck();
}

#[test]
fn only_what_the_checkpoint_adds_beyond_head_is_scanned() {
    let committed = format!("KEY = \"{}\"\n", aws_key());
    let repo = Repo::with_commit(&[("keys.py", &committed), ("a.txt", "1\n")]);
    repo.write("a.txt", "2\n");
    let clean = repo.save(&["-q", "-m", "unrelated change"]);
    assert_eq!(
        json_eval(&repo.note(&clean), "v['secrets']"),
        r#"{"findings": []}"#,
        "a secret already in HEAD is not the checkpoint's to report"
    );
    // A changed file is scanned whole.
    repo.write("keys.py", &format!("# edited\n{committed}"));
    let changed = repo.save(&["-q", "-m", "edited keys"]);
    assert_eq!(
        json_eval(&repo.note(&changed), "v['secrets']['findings']"),
        r#"[{"path": "keys.py", "line": 2, "rule": "aws-access-token"}]"#
    );
}

#[test]
fn block_refuses_a_save_but_never_the_safety_checkpoint_of_a_restore() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    let before = repo.save(&["-q", "-m", "clean"]);
    repo.git(&["config", "checkpoint.secrets", "block"]);
    repo.write(".env", &format!("API_TOKEN={}\n", env_secret()));
    let refs_before = repo.git(&["for-each-ref", "refs/checkpoints/"]);
    let run = repo.cp(&["save", "-m", "with a secret"]).fails_with(1);
    run.assert_one_error_line();
    assert!(
        run.stderr
            .starts_with("error: not saved: 1 possible secret in `.env` line 1 (dotenv-secret)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("checkpoint.secretsAllow"),
        "{}",
        run.stderr
    );
    assert_never_said(&run.stderr, &env_secret());
    assert_eq!(
        repo.git(&["for-each-ref", "refs/checkpoints/"]),
        refs_before,
        "nothing was saved"
    );
    // A restore over the secret's file still takes its safety checkpoint (marked), and undo
    // brings the file back.
    repo.cp(&["restore", &before, "-q"]).ok();
    assert!(!repo.path().join(".env").exists());
    let safety = json_eval(
        &repo
            .cp(&["list", "--json", "--kind", "pre-restore"])
            .ok()
            .stdout,
        "v[0]['id']",
    );
    assert_eq!(
        json_eval(&repo.note(&safety), "v['secrets']['findings'][0]['path']"),
        ".env"
    );
    repo.cp(&["undo", "-q"]).ok();
    assert_eq!(repo.read(".env"), format!("API_TOKEN={}\n", env_secret()));
    // Saved anyway, once, by choice (what `git -c checkpoint.secrets=warn checkpoint save`
    // does).
    let run = repo.cp_with(
        |cmd| {
            cmd.env("GIT_CONFIG_COUNT", "1")
                .env("GIT_CONFIG_KEY_0", "checkpoint.secrets")
                .env("GIT_CONFIG_VALUE_0", "warn");
        },
        &["save", "-q"],
    );
    run.ok();
}

#[test]
fn off_scans_nothing_and_push_scans_what_was_saved_unscanned() {
    let (repo, remote) = with_remote();
    repo.git(&["config", "checkpoint.secrets", "off"]);
    repo.write("deploy.sh", &format!("export AWS_ID={}\n", aws_key()));
    let id = repo.save(&["-q", "-m", "unscanned"]);
    assert_eq!(json_eval(&repo.note(&id), "'secrets' in v"), "false");
    assert!(!repo.cp(&["list"]).ok().stdout.contains("[secrets]"));
    // Off at push too: the user chose not to scan.
    repo.git(&["config", "checkpoint.secrets", "warn"]);
    let run = repo.cp(&["push", "-q"]).fails_with(1);
    assert!(
        run.stderr.contains(&format!(
            "not pushed: checkpoint {id} holds 1 possible secret in `deploy.sh`"
        )),
        "{}",
        run.stderr
    );
    assert_never_said(&run.stderr, &aws_key());
    assert!(!remote.git_ok(&[
        "rev-parse",
        "-q",
        "--verify",
        &format!("refs/checkpoints/{id}")
    ]));
    repo.git(&["config", "checkpoint.secrets", "off"]);
    repo.cp(&["push", "-q"]).ok();
    assert!(remote.git_ok(&[
        "rev-parse",
        "-q",
        "--verify",
        &format!("refs/checkpoints/{id}")
    ]));
}

/// A repository with a commit, and a bare remote it pushes to as `origin`.
fn with_remote() -> (Repo, Repo) {
    let remote = Repo::init(&["--bare"]);
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    repo.git(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
    (repo, remote)
}

#[test]
fn push_sends_the_clean_checkpoints_and_holds_back_the_others() {
    let (repo, remote) = with_remote();
    repo.write("a.txt", "2\n");
    let clean = repo.save(&["-q", "-m", "clean"]);
    repo.write("config/prod.env", "nothing\n");
    repo.write(".env", &format!("DB_PASSWORD={}\n", env_secret()));
    let dirty = repo.save(&["-q", "-m", "dirty"]);

    let dry = repo.cp(&["push", "--dry-run"]).ok();
    assert!(
        dry.stdout
            .contains("\tnot pushed: 1 possible secret in `.env` (--allow-secrets sends it)"),
        "{}",
        dry.stdout
    );
    assert!(
        dry.stderr
            .contains("would push 1 checkpoint (1 held back for secrets)"),
        "{}",
        dry.stderr
    );

    let run = repo.cp(&["push"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "error: not pushed: checkpoint {dirty} holds 1 possible secret in `.env`"
        )) && run.stderr.contains("--allow-secrets"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("pushed 1 checkpoint to origin"),
        "{}",
        run.stdout
    );
    assert_never_said(&(run.stdout.clone() + &run.stderr), &env_secret());
    let there = |id: &str| {
        remote.git_ok(&[
            "rev-parse",
            "-q",
            "--verify",
            &format!("refs/checkpoints/{id}"),
        ])
    };
    assert!(there(&clean) && !there(&dirty));
    // Not even its note went.
    let notes = remote.git(&["notes", "--ref=checkpoints", "list"]);
    let dirty_commit = repo.git(&["rev-parse", &format!("refs/checkpoints/{dirty}")]);
    assert!(!notes.contains(&dirty_commit), "{notes}");

    repo.cp(&["push", "--allow-secrets", "-q"]).ok();
    assert!(there(&dirty));
    remote.fsck();
}

#[test]
fn the_allowlist_takes_paths_and_rule_ids_at_save_and_at_push() {
    let (repo, remote) = with_remote();
    repo.git(&[
        "config",
        "--add",
        "checkpoint.secretsAllow",
        "tests/fixtures/",
    ]);
    repo.write(
        "tests/fixtures/creds.py",
        &format!("KEY = \"{}\"\n", aws_key()),
    );
    repo.write(
        "tests/fixtures/deep/more.py",
        &format!("KEY = \"{}\"\n", aws_key()),
    );
    let fixtures = repo.save(&["-q", "-m", "fixtures"]);
    assert_eq!(
        json_eval(&repo.note(&fixtures), "v['secrets']"),
        r#"{"findings": []}"#
    );
    repo.write(".env", &format!("API_KEY={}\n", env_secret()));
    let later = repo.save(&["-q", "-m", "env"]);
    assert_eq!(
        json_eval(
            &repo.note(&later),
            "[f['rule'] for f in v['secrets']['findings']]"
        ),
        r#"["dotenv-secret"]"#
    );
    repo.cp(&["push", "-q"]).fails_with(1);
    // Allowed after the save: push reads the allowlist as it is now.
    repo.git(&[
        "config",
        "--add",
        "checkpoint.secretsAllow",
        "dotenv-secret",
    ]);
    repo.cp(&["push", "-q"]).ok();
    assert!(remote.git_ok(&[
        "rev-parse",
        "-q",
        "--verify",
        &format!("refs/checkpoints/{later}")
    ]));
    repo.write(
        ".env",
        &format!("API_KEY={}\nOTHER_TOKEN={}\n", env_secret(), env_secret()),
    );
    let allowed = repo.save(&["-q", "-m", "allowed rule"]);
    assert_eq!(
        json_eval(&repo.note(&allowed), "v['secrets']"),
        r#"{"findings": []}"#
    );
}

#[test]
fn a_bad_setting_is_refused_with_its_key() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    repo.git(&["config", "checkpoint.secrets", "sometimes"]);
    repo.write("a.txt", "2\n");
    let run = repo.cp(&["save"]).fails_with(1);
    run.assert_one_error_line();
    assert!(
        run.stderr.contains("checkpoint.secrets") && run.stderr.contains("off, warn, block"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_file_above_the_scan_limit_is_counted_unscanned() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    let mut big = format!("KEY = \"{}\"\n", aws_key());
    big.push_str(&"x".repeat(11 << 20));
    repo.write("dump.txt", &big);
    let id = repo.save(&["-q"]);
    assert_eq!(
        json_eval(&repo.note(&id), "v['secrets']"),
        r#"{"findings": [], "unscanned": 1}"#
    );
    let show = repo.cp(&["show", &id]).ok().stdout;
    assert!(
        show.contains("secrets   1 file too large to scan"),
        "{show}"
    );
}

#[test]
fn a_plain_directory_is_scanned_too() {
    let dir = Repo::plain();
    dir.write("settings.py", &format!("AWS = \"{}\"\n", aws_key()));
    dir.write("readme.txt", "hello\n");
    let run = dir.cp(&["save", "-m", "first"]).ok();
    assert!(
        run.stderr
            .contains("`settings.py` line 1 (aws-access-token)"),
        "{}",
        run.stderr
    );
    assert!(dir.cp(&["list"]).ok().stdout.contains("[secrets]"));
}

#[test]
fn the_scan_cache_holds_no_secret_and_a_damaged_one_is_ignored() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    repo.write(".env", &format!("API_TOKEN={}\n", env_secret()));
    repo.write("b.txt", "plain\n");
    let first = repo.save(&["-q"]);
    let cache = repo.git_dir().join("checkpoint-secrets-cache");
    let kept = std::fs::read(&cache).expect("the save keeps what it scanned");
    assert_never_said(&String::from_utf8_lossy(&kept), &env_secret());
    let findings = |id: &str| json_eval(&repo.note(id), "v['secrets']['findings']");
    // Reused, damaged, or from another version: the same findings every time.
    let again = repo.save(&["-q", "--allow-empty"]);
    assert_eq!(findings(&again), findings(&first));
    std::fs::write(&cache, b"git-checkpoint secrets cache 1 x y\ngarbage\0\0").unwrap();
    let damaged = repo.save(&["-q", "--allow-empty"]);
    assert_eq!(findings(&damaged), findings(&first));
    let mut truncated = kept.clone();
    truncated.truncate(kept.len() - 3);
    std::fs::write(&cache, &truncated).unwrap();
    let cut = repo.save(&["-q", "--allow-empty"]);
    assert_eq!(findings(&cut), findings(&first));
    assert!(findings(&first).contains("dotenv-secret"));
    // A changed file is read again.
    repo.write(".env", "API_TOKEN=\n");
    let cleaned = repo.save(&["-q"]);
    assert_eq!(findings(&cleaned), "[]");
}

/// Save after save, each reading only what changed since the last: the findings are always
/// those of a scan of everything beyond HEAD (the cache deleted before each oracle save). In a
/// repository whose index is HEAD's (the snapshot lists what changed), with something staged
/// (the trees are compared), and in a plain directory (no HEAD).
#[test]
fn saves_in_a_row_find_what_a_full_scan_finds() {
    let committed = format!("KEY = \"{}\"\n", aws_key());
    let repo = Repo::with_commit(&[("keys.py", &committed), ("a.txt", "1\n")]);
    saves_in_a_row(&repo);
    let staged = Repo::with_commit(&[("keys.py", &committed), ("a.txt", "1\n")]);
    staged.write("a.txt", "staged\n");
    staged.git(&["add", "a.txt"]);
    saves_in_a_row(&staged);
    let plain = Repo::plain();
    plain.write("keys.py", &committed);
    saves_in_a_row(&plain);
    // Thousands of untracked files: the trees are compared there too.
    let many = Repo::with_commit(&[("keys.py", &committed), ("a.txt", "1\n")]);
    for i in 0..2100 {
        many.write(&format!("out/{:02}/f{i}.txt", i % 50), &format!("{i}\n"));
    }
    saves_in_a_row(&many);
}

fn saves_in_a_row(repo: &Repo) {
    type Step = Box<dyn Fn(&Repo)>;
    let steps: Vec<Step> = vec![
        Box::new(|r| r.write(".env", &format!("API_TOKEN={}\n", env_secret()))),
        Box::new(|r| r.write("keys.py", &format!("# moved\nKEY = \"{}\"\n", aws_key()))),
        Box::new(|r| r.write("b.txt", "unrelated\n")),
        // Back to HEAD's content: nothing beyond HEAD there any more.
        Box::new(|r| r.write("keys.py", &format!("KEY = \"{}\"\n", aws_key()))),
        Box::new(|r| std::fs::remove_file(r.path().join(".env")).unwrap()),
        Box::new(|r| {
            r.write(
                "deep/dir/.env.production",
                &format!("DB_PASSWORD={}\n", env_secret()),
            )
        }),
        Box::new(|r| {
            r.git(&["config", "checkpoint.secretsAllow", "deep/"])
                .truncate(0)
        }),
    ];
    let mut last = String::new();
    for step in &steps {
        step(repo);
        let incremental = repo.save(&["-q", "--allow-empty"]);
        std::fs::remove_file(repo.git_dir().join("checkpoint-secrets-cache")).unwrap();
        let full = repo.save(&["-q", "--allow-empty"]);
        assert_eq!(
            json_eval(&repo.note(&incremental), "v['secrets']"),
            json_eval(&repo.note(&full), "v['secrets']"),
        );
        last = full;
    }
    // The committed key is HEAD's, the last `.env` is allowed: nothing left to report (a
    // plain directory has no HEAD: its key is beyond it).
    let expected = if repo.is_plain() {
        r#"{"findings": [{"path": "keys.py", "line": 1, "rule": "aws-access-token"}]}"#
    } else {
        r#"{"findings": []}"#
    };
    assert_eq!(json_eval(&repo.note(&last), "v['secrets']"), expected);
}
