//! Errors: one `error:` line on stderr (and `hint:` lines), exit 1 for errors and 2 for usage
//! errors, never a panic, and nothing half-written.

use std::fs;
use std::process::{Command, Stdio};

use crate::common::{Repo, Run, bin, is_root, json_get};

#[test]
fn outside_a_repository() {
    let repo = Repo::new();
    let outside = tempfile::tempdir().unwrap();
    let dir = outside.path().join("not-a-repo");
    fs::create_dir(&dir).unwrap();
    let run = |args: &[&str]| {
        repo.cp_with(
            |cmd| {
                cmd.current_dir(&dir)
                    .env("GIT_CEILING_DIRECTORIES", outside.path());
            },
            args,
        )
    };
    // A plain directory where nothing was saved: no checkpoints, said in one line.
    let list = run(&["list"]).ok();
    assert_eq!(list.stdout, "");
    let out = run(&["show", "@"]).fails_with(1);
    out.assert_one_error_line();
    assert!(
        out.stderr.contains("not in a git repository"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
    // A save works there, and writes nothing into the directory.
    run(&["save", "-q"]).ok();
    run(&["show", "@"]).ok();
    assert_eq!(
        fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written there"
    );
}

/// In a bare repository (a server that received pushed checkpoints), what reads checkpoints
/// works: list, show, diff between two, their --json forms, push and fetch. What needs a
/// working tree refuses with one line saying so, and writes nothing.
#[test]
fn a_bare_repository_reads_checkpoints_and_refuses_what_needs_a_working_tree() {
    let bare = Repo::init(&["--bare"]);
    let empty = bare.cp(&["list"]).ok();
    assert_eq!(empty.stdout, "");
    assert_eq!(bare.cp(&["list", "--json"]).ok().stdout, "[]\n");

    let clone = Repo::with_commit(&[("a", "a\n")]);
    let url = bare.path().to_str().unwrap().to_string();
    clone.git(&["remote", "add", "origin", &url]);
    clone.git(&["push", "-q", "origin", "main"]);
    clone.write("a", "changed\n");
    let first = clone.save(&["-q", "-m", "first"]);
    clone.write("b", "new\n");
    let second = clone.save(&["-q", "-m", "second"]);
    clone.cp(&["push", "-q"]).ok();
    let refs = bare.git(&["for-each-ref"]);

    let list = bare.cp(&["list"]).ok();
    let ids: Vec<&str> = list
        .stdout
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(ids, [second.as_str(), first.as_str()], "{}", list.stdout);
    let json = bare.cp(&["list", "--json"]).ok();
    assert_eq!(json_get(&json.stdout, "0.id"), second);
    let show = bare.cp(&["show", &second]).ok();
    assert!(
        show.stdout.starts_with(&format!("checkpoint {second}\n")),
        "{}",
        show.stdout
    );
    let (c1, c2) = (
        bare.git(&["rev-parse", &format!("refs/checkpoints/{first}")]),
        bare.git(&["rev-parse", &format!("refs/checkpoints/{second}")]),
    );
    assert!(
        show.stdout
            .trim_end()
            .ends_with(&bare.git(&["diff", "--stat", "main", &c2])),
        "{}",
        show.stdout
    );
    assert_eq!(
        json_get(&bare.cp(&["show", "@", "--json"]).ok().stdout, "id"),
        second
    );
    let diff = bare.cp(&["diff", &first, &second]).ok();
    assert_eq!(diff.stdout.trim_end(), bare.git(&["diff", &c1, &c2]));
    assert_eq!(bare.cp(&["diff", "@{1}", "@"]).ok().stdout, diff.stdout);
    let only_b = bare
        .cp(&["diff", &first, &second, "--name-only", "--", "b"])
        .ok();
    assert_eq!(
        only_b.stdout, "b\n",
        "paths are taken from the top of the tree"
    );
    assert_eq!(
        json_get(
            &bare.cp(&["diff", &first, &second, "--json"]).ok().stdout,
            "files.0.path"
        ),
        "b"
    );

    for args in [
        &["save"][..],
        &["save", "-m", "x", "--name", "n"],
        &["restore", &first],
        &["restore", &first, "--dry-run"],
        &["undo"],
        &["diff"],
        &["diff", &first],
        &["exec", "--", "true"],
        &["hooks", "claude-code", "--install"],
    ] {
        let out = bare.cp(args).fails_with(1);
        out.assert_one_error_line();
        assert!(
            out.stderr
                .starts_with("error: this is a bare repository: there is no working tree to "),
            "{args:?}: {}",
            out.stderr
        );
        assert_eq!(out.stdout, "", "{args:?}");
    }
    assert_eq!(bare.git(&["for-each-ref"]), refs, "nothing was written");

    // Sharing from and to a bare repository.
    let other = Repo::init(&["--bare"]);
    let pushed = bare
        .cp(&["push", "-q", other.path().to_str().unwrap()])
        .ok();
    assert_eq!(
        pushed.stdout,
        format!(
            "pushed 2 checkpoints to {} (0 already there)\n",
            other.path().display()
        )
    );
    let third = Repo::init(&["--bare"]);
    let fetched = third.cp(&["fetch", "-q", &url]).ok();
    assert_eq!(
        fetched.stdout,
        format!("fetched 2 checkpoints from {url} (0 already here)\n")
    );
    assert_eq!(third.checkpoint_ids(), other.checkpoint_ids());
    // A fetched checkpoint is named by its id there; list shows every one.
    assert!(third.cp(&["list"]).ok().stdout.contains(&first));
    bare.fsck();
}

#[test]
fn unreadable_untracked_file_fails_the_save_and_names_it() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    repo.write("dir/secret", "s\n");
    let before = repo.fingerprint();
    let Some(out) = repo.run_unprivileged(&["save"], &repo.path().join("dir/secret"), b"") else {
        return;
    };
    let out = out.fails_with(1);
    out.assert_one_error_line();
    assert!(out.stderr.contains("dir/secret"), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert_eq!(
        repo.git(&["for-each-ref", "refs/checkpoints"]),
        "",
        "no ref"
    );
    assert_eq!(repo.git(&["for-each-ref", "refs/notes"]), "", "no note");
    assert_eq!(repo.fingerprint(), before);
}

#[test]
fn unreadable_modified_tracked_file_fails_the_save_and_names_it() {
    let repo = Repo::with_commit(&[("a", "a\n"), ("locked", "before\n")]);
    repo.write("locked", "after, and longer\n");
    let before = repo.fingerprint();
    let Some(out) = repo.run_unprivileged(&["save"], &repo.path().join("locked"), b"") else {
        return;
    };
    let out = out.fails_with(1);
    assert!(out.stderr.contains("locked"), "{}", out.stderr);
    assert_eq!(
        repo.git(&["for-each-ref", "refs/checkpoints"]),
        "",
        "no ref"
    );
    assert_eq!(repo.fingerprint(), before);
}

#[test]
fn usage_errors_exit_2() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for args in [
        &["--bogus"][..],
        &["save", "--bogus"],
        &["save", "-m"],
        &["list", "-n", "x"],
        &["list", "--bogus"],
        &["show"],
        &["show", "@", "--bogus"],
        &["frobnicate"],
    ] {
        let out = repo.cp(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        out.assert_no_panic();
        assert!(out.stderr.contains("error"), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
    }
    assert_eq!(repo.git(&["for-each-ref", "refs/checkpoints"]), "");
}

#[test]
fn help_and_version_exit_0() {
    let repo = Repo::new();
    let help = repo.cp(&["--help"]).ok();
    assert!(help.stdout.contains("save"), "{}", help.stdout);
    assert!(
        repo.cp(&["save", "--help"])
            .ok()
            .stdout
            .contains("--allow-empty")
    );
    let version = repo.cp(&["--version"]).ok();
    assert!(
        version.stdout.contains(env!("CARGO_PKG_VERSION")),
        "{}",
        version.stdout
    );
}

#[test]
fn inside_the_git_directory_there_is_no_work_tree() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    let out = repo.cp_in(".git", &["save"]);
    out.assert_no_panic();
    match out.code {
        // Refused: there is no work tree to snapshot from here.
        1 => out.assert_one_error_line(),
        // Or the work tree is found all the same: then it must be the right tree.
        0 => assert_eq!(repo.checkpoint_tree(&out.id()), repo.oracle_tree()),
        other => panic!("exit {other}: {}", out.stderr),
    }
}

/// A ref under `refs/checkpoints/` that does not point at a commit (made by hand, or fetched
/// from someone else: untrusted input) must not stop saving, listing or showing the others.
fn a_bad_ref_breaks_nothing(bad_ref_name: &str, object: &str) {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    let id = repo.save(&["-q"]);
    let target = repo.git(&["rev-parse", object]);
    repo.git(&["update-ref", bad_ref_name, &target]);

    // Above all, one bad ref must not stop anyone from saving.
    repo.write("a", "changed again\n");
    let saved = repo.cp(&["save", "-q"]);
    saved.assert_no_panic();
    assert_eq!(saved.code, 0, "save still works: {}", saved.stderr);
    let new_id = saved.id();
    assert_eq!(repo.checkpoint_tree(&new_id), repo.oracle_tree());

    let out = repo.cp(&["list"]);
    out.assert_no_panic();
    assert_eq!(
        out.code, 0,
        "the good checkpoints still list: {}",
        out.stderr
    );
    assert!(
        out.stdout.contains(&id) && out.stdout.contains(&new_id),
        "{}",
        out.stdout
    );
    let shown = repo.cp(&["show", &id, "--json"]);
    shown.assert_no_panic();
    assert_eq!(shown.code, 0, "{}", shown.stderr);
}

#[test]
fn a_ref_to_a_blob_with_the_newest_id_breaks_nothing() {
    a_bad_ref_breaks_nothing("refs/checkpoints/20990101-000000-000abc", "HEAD:a");
}

#[test]
fn a_ref_to_a_tree_with_an_old_id_breaks_nothing() {
    a_bad_ref_breaks_nothing("refs/checkpoints/20000101-000000-000abc", "HEAD^{tree}");
}

#[test]
fn a_closed_stdout_is_not_a_crash() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for i in 0..3 {
        repo.write("a", &format!("{i}\n"));
        repo.save(&["-q", "-m", &"long message ".repeat(50)]);
    }
    for args in [&["list"][..], &["list", "--json"], &["show", "@"]] {
        let mut cmd = Command::new(bin());
        cmd.args(args)
            .current_dir(repo.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        repo.env(&mut cmd);
        let mut child = cmd.spawn().unwrap();
        drop(child.stdout.take()); // like `| head -0`: the reader is gone
        let out: Run = child.wait_with_output().unwrap().into();
        out.assert_no_panic();
        assert!(
            out.code == 0 || out.code == 141 || out.code == -1,
            "{args:?}: exit {} {}",
            out.code,
            out.stderr
        );
        assert!(
            !out.stderr.contains("Broken pipe"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

#[test]
fn a_ref_whose_name_is_not_an_id_does_not_bend_new_ids() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let head = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["update-ref", "refs/checkpoints/zzz", &head]);
    repo.git(&["update-ref", "refs/checkpoints/x", &head]);
    let out = repo.cp(&["save", "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = out.stdout.trim();
    assert!(id.starts_with("20") && id.len() == 22, "a real id: {id}");
}

#[test]
fn a_read_only_git_directory_is_one_clear_error() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    let run = |args: &[&str]| {
        if !is_root() {
            return Some(repo.cp(args));
        }
        if Command::new("setpriv").arg("--help").output().is_err() {
            return None;
        }
        Some(repo.cp_wrapped(
            &[
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
            ],
            args,
        ))
    };
    // Readable by everyone, writable by no one but root.
    let status = Command::new("chmod")
        .args(["-R", "a+rX,a-w", repo.path().join(".git").to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let Some(out) = run(&["save"]) else {
        crate::common::skip("running as root without setpriv");
        return;
    };
    let _ = Command::new("chmod")
        .args(["-R", "u+w", repo.path().join(".git").to_str().unwrap()])
        .status();
    assert_eq!(out.code, 1, "{} {}", out.stdout, out.stderr);
    assert!(out.stderr.starts_with("error:"), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(repo.checkpoint_ids().is_empty());
}

#[test]
fn names_with_shell_metacharacters_and_control_characters() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let name = "$(touch pwned); `id` 'quoted' \"double\" | & ; *";
    let out = repo.cp(&["save", "-q", "--name", name, "-m", "line one\nline two"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = out.stdout.trim().to_string();
    let shown = repo.cp(&["show", name, "--json"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(shown.stdout.contains(&id));
    assert!(!repo.path().join("pwned").exists());
    let list = repo.cp(&["list"]);
    assert_eq!(
        list.stdout.lines().count(),
        1,
        "one line per checkpoint: {}",
        list.stdout
    );
    let newline = repo.cp(&["save", "--allow-empty", "--name", "two\nlines"]);
    assert_eq!(newline.code, 1, "{}", newline.stderr);
    assert!(newline.stderr.starts_with("error:"), "{}", newline.stderr);
}

#[test]
fn very_long_paths() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let component = "d".repeat(200);
    let long = format!(
        "{0}/{0}/{0}/{0}/{0}/file-{1}.txt",
        component,
        "x".repeat(150)
    );
    repo.write(&long, "deep\n");
    let out = repo.cp(&["save", "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = out.stdout.trim().to_string();
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    repo.remove(&component);
    let back = repo.cp(&["restore", "-q", &id]);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(repo.read(&long), "deep\n");
}

/// A ref under `refs/checkpoints/` pointing at an object that does not exist (written by hand,
/// or left by a broken fetch) is left out with a warning naming it; it never stops `save`,
/// `list`, `show` or `drop` of the others, and `drop <exact-id>` removes it.
#[test]
fn a_ref_to_a_missing_object_is_left_out_and_can_be_dropped() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.write("a", "changed\n");
    let good = repo.save(&["-q"]);
    let bad = "20990101-000000-000bad";
    // A ref to an object that git then loses: written while the object exists (git refuses a
    // ref to a missing object, in either ref format), then the loose object deleted.
    let made_up = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"soon gone\n");
    let dangle = || {
        repo.git_stdin(&["hash-object", "-w", "--stdin"], b"soon gone\n");
        repo.git(&["update-ref", &format!("refs/checkpoints/{bad}"), &made_up]);
        fs::remove_file(
            repo.path()
                .join(".git/objects")
                .join(&made_up[..2])
                .join(&made_up[2..]),
        )
        .unwrap();
        assert!(
            !repo.git_ok(&["cat-file", "-e", &made_up]),
            "the object is missing"
        );
    };
    dangle();

    repo.write("a", "changed again\n");
    let newer = repo.save(&["-q"]);
    assert_eq!(repo.checkpoint_tree(&newer), repo.oracle_tree());
    assert!(
        newer.as_str() < bad,
        "a ref that is not a checkpoint does not push new ids into its future: {newer}"
    );

    let list = repo.cp(&["list"]).ok();
    assert!(
        list.stdout.contains(&good) && list.stdout.contains(&newer),
        "{}",
        list.stdout
    );
    assert!(!list.stdout.contains(bad), "left out: {}", list.stdout);
    assert!(
        list.stderr.starts_with("warning:") && list.stderr.contains(bad),
        "the warning names the bad ref: {}",
        list.stderr
    );
    let json = repo.cp(&["list", "--json"]).ok();
    assert!(!json.stdout.contains(bad), "{}", json.stdout);
    repo.cp(&["show", &good]).ok();

    // Dropping a good one works next to the bad ref, and the bad ref goes by its exact id.
    repo.cp(&["drop", "-q", &good]).ok();
    let dropped = repo.cp(&["drop", "-q", bad]).ok();
    assert!(dropped.stdout.contains(bad), "{}", dropped.stdout);
    assert!(dropped.stdout.contains(&made_up), "{}", dropped.stdout);
    assert_eq!(repo.checkpoint_ids(), vec![newer.clone()]);
    let list = repo.cp(&["list"]).ok();
    assert_eq!(list.stderr, "", "nothing left to warn about");
    // A prefix never selects a broken ref: only its exact id does.
    dangle();
    repo.cp(&["drop", "2099"]).fails_with(1);
    assert_eq!(repo.checkpoint_ids().len(), 2);
    repo.cp(&["drop", "-q", bad]).ok();
    repo.fsck();
}

#[test]
fn arguments_that_are_not_utf8_are_refused_or_passed_on_never_a_panic() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let bad = OsStr::from_bytes(b"caf\xe9");
    let run = |args: &[&OsStr], quiet_terminal: bool| {
        let mut cmd = std::process::Command::new(crate::common::bin());
        cmd.args(args).current_dir(repo.path());
        repo.env(&mut cmd);
        if quiet_terminal {
            cmd.env("TERM", "xterm");
        }
        crate::common::Run::from(cmd.output().unwrap())
    };
    // A message must be text: a usage error, exit 2.
    let out = run(&[OsStr::new("save"), OsStr::new("-m"), bad], false);
    out.assert_no_panic();
    assert_eq!(out.code, 2, "{}", out.stderr);
    // The same with --from-hook: a hook never fails the agent.
    let out = run(
        &[
            OsStr::new("save"),
            OsStr::new("--from-hook"),
            OsStr::new("-m"),
            bad,
        ],
        false,
    );
    out.assert_no_panic();
    assert_eq!(out.code, 0, "{}", out.stderr);
    // A command's arguments are bytes, passed on as they are.
    let out = run(
        &[
            OsStr::new("exec"),
            OsStr::new("-q"),
            OsStr::new("--"),
            OsStr::new("printf"),
            OsStr::new("%s"),
            bad,
        ],
        true,
    );
    out.assert_no_panic();
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// What a bare repository's hint lists works there: drop, prune, pin, unpin and du too. With
/// only fetched checkpoints, the hint of `show @` does not suggest a save, which is refused
/// there.
#[test]
fn a_bare_repository_s_hints_name_what_works_there() {
    let bare = Repo::init(&["--bare"]);
    let clone = Repo::with_commit(&[("a", "a\n")]);
    let url = bare.path().to_str().unwrap().to_string();
    clone.git(&["remote", "add", "origin", &url]);
    clone.git(&["push", "-q", "origin", "main"]);
    for i in 0..3 {
        clone.write("a", &format!("{i}\n"));
        clone.save(&["-q", "--name", &format!("n{i}")]);
    }
    clone.cp(&["push", "-q"]).ok();
    let hint = bare.cp(&["save"]).fails_with(1).stderr;
    let works = hint
        .split("in a bare repository, ")
        .nth(1)
        .and_then(|rest| rest.split(" work;").next())
        .unwrap_or_else(|| panic!("{hint}"))
        .to_string();
    for verb in ["drop", "prune", "pin", "unpin", "du", "list", "show"] {
        assert!(works.contains(verb), "{verb}: {hint}");
    }
    for args in [
        &["pin", "n0"][..],
        &["unpin", "n0"],
        &["du"],
        &["prune", "--keep", "2"],
        &["drop", "n2"],
        &["list"],
        &["show", "@"],
    ] {
        bare.cp(args).ok();
    }
    // Only fetched checkpoints: `@` counts none, and the hint says how to name them.
    let fetched = Repo::init(&["--bare"]);
    fetched.cp(&["fetch", "-q", &url]).ok();
    let out = fetched.cp(&["show", "@"]).fails_with(1);
    assert!(out.stderr.contains("hint: "), "{}", out.stderr);
    assert!(
        !out.stderr.contains("git checkpoint save") && out.stderr.contains("list --all"),
        "{}",
        out.stderr
    );
}

/// `@{N}` beyond the checkpoints there are says how many there are, as git says of `stash@{N}`.
#[test]
fn a_position_beyond_the_checkpoints_says_how_many_there_are() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for i in 0..3 {
        repo.write("a", &format!("{i}\n"));
        repo.save(&["-q"]);
    }
    let out = repo.cp(&["show", "@{3}"]).fails_with(1);
    assert!(
        out.stderr.starts_with(
            "error: no checkpoint `@{3}`: this worktree only has 3 checkpoints, `@{0}` to `@{2}`\n"
        ),
        "{}",
        out.stderr
    );
    repo.cp(&["show", "@{2}"]).ok();
}

/// `push @`: the first argument of push is the remote, and the error says so and how to write
/// it; nothing is pushed.
#[test]
fn push_with_a_checkpoint_where_the_remote_goes_says_the_remote_comes_first() {
    let remote = Repo::init(&["--bare"]);
    let repo = Repo::with_commit(&[("a", "a\n")]);
    repo.git(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
    repo.save(&["-q", "--allow-empty", "--name", "mine"]);
    for spec in ["@", "mine", "@{0}"] {
        let out = repo.cp(&["push", spec]).fails_with(2);
        assert!(
            out.stderr.starts_with(&format!(
                "error: `{spec}` is a checkpoint, not a remote: the first argument of push is the remote\n"
            )) && out
                .stderr
                .contains(&format!("hint: name the remote first: git checkpoint push origin {spec}\n")),
            "{}",
            out.stderr
        );
    }
    assert!(remote.checkpoint_ids().is_empty(), "nothing was pushed");
    // A remote still goes there.
    repo.cp(&["push", "-q", "origin", "@"]).ok();
    assert_eq!(remote.checkpoint_ids(), repo.checkpoint_ids());
}

/// In a home directory outside any repository, `exec` (which has no --force) is refused with a
/// hint that works: a first `save --force`, then exec.
#[test]
fn exec_in_a_home_directory_gets_a_hint_it_can_follow() {
    let repo = Repo::new();
    let outside = tempfile::tempdir().unwrap();
    let home = outside.path().join("home");
    fs::create_dir(&home).unwrap();
    let run = |args: &[&str]| {
        repo.cp_with(
            |cmd| {
                cmd.current_dir(&home)
                    .env("HOME", &home)
                    .env("GIT_CEILING_DIRECTORIES", outside.path());
            },
            args,
        )
    };
    let out = run(&["exec", "--", "true"]).fails_with(1);
    assert!(!out.stderr.contains("pass --force"), "{}", out.stderr);
    assert!(
        out.stderr.contains("`git checkpoint save --force`"),
        "{}",
        out.stderr
    );
    let save = run(&["save", "-h"]).ok();
    assert!(save.stdout.contains("--force"), "save takes --force");
    run(&["save", "-q", "--force"]).ok();
    run(&["exec", "-q", "--", "true"]).ok();
}

/// A command this tool does not have gets the command meant, by what the word means: `create`
/// and `record` are a `save` (a guess by spelling once offered `restore`, which overwrites the
/// working tree); a command that changes files is suggested only for a typo of it.
#[test]
fn an_unknown_command_suggests_what_was_meant_never_a_destructive_guess() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    for (word, meant) in [
        ("create", "'git checkpoint save'"),
        ("record", "'git checkpoint save'"),
        ("snapshot", "'git checkpoint save'"),
        ("rollback", "'git checkpoint restore'"),
        ("delete", "'git checkpoint drop'"),
        ("restroe", "'restore'"),
    ] {
        let out = repo.git_checkpoint(&[word]).fails_with(2);
        let tips: Vec<&str> = out.stderr.lines().filter(|l| l.contains("tip:")).collect();
        assert_eq!(tips.len(), 1, "{word}: {}", out.stderr);
        assert!(tips[0].contains(meant), "{word}: {}", out.stderr);
        if meant.contains("save") {
            assert!(!out.stderr.contains("restore"), "{word}: {}", out.stderr);
        }
    }
    assert!(repo.checkpoint_ids().is_empty());
}

/// `diff <CP> FILE`, git's habit: a word after the checkpoints that names no checkpoint but a
/// file or directory of the working tree is a path, as `git diff HEAD FILE` takes it; a word
/// that names neither says both, and that paths go after `--`.
#[test]
fn diff_takes_paths_after_the_checkpoints_as_git_diff_does() {
    let repo = Repo::with_commit(&[("a.txt", "a\n"), ("dir/b.txt", "b\n"), ("c.txt", "c\n")]);
    let id = repo.save(&["-q"]);
    repo.write("a.txt", "changed a\n");
    repo.write("dir/b.txt", "changed b\n");
    repo.write("c.txt", "changed c\n");
    let with_dashes = repo.cp(&["diff", &id, "--", "a.txt", "dir"]).ok().stdout;
    assert!(with_dashes.contains("a/dir/b.txt") && !with_dashes.contains("c.txt"));
    assert_eq!(
        repo.cp(&["diff", &id, "a.txt", "dir"]).ok().stdout,
        with_dashes
    );
    assert_eq!(repo.cp(&["diff", "a.txt", "dir"]).ok().stdout, with_dashes);
    let two = repo.cp(&["diff", &id, &id, "a.txt"]).ok();
    assert!(two.stdout.is_empty(), "{}", two.stdout);
    for args in [
        &[id.as_str(), "nothere"][..],
        &["nothere"],
        &[&id, "a.txt", "nothere"],
    ] {
        let mut full = vec!["diff"];
        full.extend_from_slice(args);
        let out = repo.cp(&full).fails_with(1);
        out.assert_one_error_line();
        assert!(
            out.stderr.contains("`nothere` names no checkpoint"),
            "{}",
            out.stderr
        );
        assert!(out.stderr.contains("after `--`"), "{}", out.stderr);
    }
}
