//! Checkpoints anywhere: plain directories (in no git working tree) with a private store, and
//! `checkpoint.exclude` / `checkpoint.include` in both plain directories and repositories.
//!
//! The oracle is git's, run on the store (`git --git-dir=<store>`, whose `core.worktree` is the
//! directory) with an empty scratch index: `git add -A`, plus `git add -f` of included paths,
//! minus excluded ones (`git rm --cached`), then `git write-tree`.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{Json, Repo};

/// Every path below `root` with its kind, size and mtime: what "nothing was written into the
/// directory" compares.
fn listing(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let md = path.symlink_metadata().unwrap();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            out.push(format!(
                "{rel} dir={} len={} mtime={:?}",
                md.is_dir(),
                if md.is_dir() { 0 } else { md.len() },
                md.modified().unwrap()
            ));
            if md.is_dir() {
                dirs.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The oracle with a scratch index: `git add -A`, `git add -f -- <include>`, `git rm -r
/// --cached -- <exclude>` (pathspecs), `git write-tree`.
fn oracle(repo: &Repo, include: &[&str], exclude: &[&str]) -> String {
    let index = repo.scratch().join("oracle-scratch-index");
    let _ = fs::remove_file(&index);
    let index = index.to_str().unwrap().to_string();
    let env = [("GIT_INDEX_FILE", index.as_str())];
    if !repo.is_plain() {
        // The index as it is: tracked files stay tracked, as on a copy of the index.
        fs::copy(repo.path().join(".git/index"), &index).unwrap();
    }
    repo.git_env(&env, &["add", "-A"]);
    if !include.is_empty() {
        let mut args = vec!["add", "-f", "--"];
        args.extend_from_slice(include);
        repo.git_env(&env, &args);
    }
    if !exclude.is_empty() {
        let mut args = vec!["rm", "-r", "-q", "--cached", "--ignore-unmatch", "--"];
        args.extend_from_slice(exclude);
        repo.git_env(&env, &args);
    }
    let tree = repo.git_env(&env, &["write-tree"]);
    let _ = fs::remove_file(&index);
    tree
}

fn project(repo: &Repo) {
    repo.write("README.md", "hello\n");
    repo.write("src/main.py", "print('hi')\n");
    repo.write("src/util/helpers.py", "x = 1\n");
    repo.write(".gitignore", "*.log\n");
    repo.write("debug.log", "noise\n");
    repo.write("node_modules/left-pad/index.js", "module.exports = 1\n");
    repo.write("src/__pycache__/main.cpython-312.pyc", "\0bytecode");
    repo.write(".venv/bin/python", "#!/bin/sh\n");
    repo.symlink("src/main.py", "link");
    repo.chmod_x("src/main.py", true);
}

#[test]
fn a_plain_directory_is_checkpointed_without_writing_into_it() {
    let repo = Repo::plain();
    project(&repo);
    let before = listing(repo.path());

    // Nothing saved yet: list says so, and makes no store.
    let listed = repo.cp(&["list", "--json"]).ok();
    assert_eq!(listed.stdout.trim(), "[]");
    assert!(repo.stores().is_empty(), "list made a store");
    repo.cp(&["show", "@"]).fails_with(1);
    assert!(repo.stores().is_empty(), "show made a store");

    let first = repo.cp(&["save", "-m", "first"]).ok();
    let id = first.id();
    let store = repo.store();
    assert!(
        first.stderr.contains(&store.display().to_string()),
        "the first save says where the store is: {}",
        first.stderr
    );
    assert_eq!(
        listing(repo.path()),
        before,
        "the save wrote into the directory"
    );
    let name = store.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("proj-") && name.len() == "proj-".len() + 12,
        "{name}"
    );
    assert_eq!(
        repo.git(&["config", "checkpoint.directory"]),
        repo.path().canonicalize().unwrap().display().to_string()
    );

    // The oracle: .gitignore applies, and so do the default excludes.
    let expected = oracle(
        &repo,
        &[],
        &[
            ":(glob)**/node_modules/**",
            ":(glob)**/__pycache__/**",
            ":(glob)**/.venv/**",
        ],
    );
    assert_eq!(repo.checkpoint_tree(&id), expected);
    let files = repo.checkpoint_files(&id);
    assert!(
        files.contains(&"src/util/helpers.py".to_string()),
        "{files:?}"
    );
    assert!(
        files
            .iter()
            .all(|f| !f.contains("node_modules") && !f.ends_with(".log"))
    );

    // A second save says nothing about the store, and an unchanged one makes nothing.
    repo.write("src/main.py", "print('changed')\n");
    let second = repo.cp(&["save"]).ok();
    assert!(!second.stderr.contains("kept in"), "{}", second.stderr);
    assert_eq!(
        repo.checkpoint_tree(&second.id()),
        oracle(
            &repo,
            &[],
            &[
                ":(glob)**/node_modules/**",
                ":(glob)**/__pycache__/**",
                ":(glob)**/.venv/**"
            ],
        )
    );
    let again = repo.cp(&["save"]).ok();
    assert_eq!(again.id(), second.id());
    assert_eq!(repo.checkpoint_ids().len(), 2);
    repo.fsck();
}

#[test]
fn restore_undo_and_redo_work_in_a_plain_directory() {
    let repo = Repo::plain();
    project(&repo);
    let base = repo.save(&["-m", "base"]);
    let base_listing: Vec<String> = repo.checkpoint_files(&base);

    // An agent goes wild.
    repo.write("README.md", "rewritten\n");
    repo.remove("src/util/helpers.py");
    repo.write("new.txt", "new\n");
    repo.write("debug.log", "ignored, changed\n");
    repo.write("node_modules/left-pad/index.js", "excluded, changed\n");

    let restored = repo.cp(&["restore", &base]).ok();
    assert!(restored.stderr.contains("undo"), "{}", restored.stderr);
    assert_eq!(repo.read("README.md"), "hello\n");
    assert_eq!(repo.read("src/util/helpers.py"), "x = 1\n");
    assert!(!repo.path().join("new.txt").exists());
    // What checkpoints leave out is never touched.
    assert_eq!(repo.read("debug.log"), "ignored, changed\n");
    assert_eq!(
        repo.read("node_modules/left-pad/index.js"),
        "excluded, changed\n"
    );
    assert_eq!(repo.checkpoint_files(&base), base_listing);

    // Undo brings the wild state back, redo takes it away again.
    repo.cp(&["undo"]).ok();
    assert_eq!(repo.read("README.md"), "rewritten\n");
    assert_eq!(repo.read("new.txt"), "new\n");
    assert!(!repo.path().join("src/util/helpers.py").exists());
    repo.cp(&["redo"]).ok();
    assert_eq!(repo.read("README.md"), "hello\n");
    assert!(!repo.path().join("new.txt").exists());

    // diff and show work as in a repository.
    repo.write("README.md", "again\n");
    let diff = repo.cp(&["diff", &base, "--name-status"]).ok();
    assert_eq!(diff.stdout, "M\tREADME.md\n");
    repo.cp(&["show", &base]).ok();
    repo.fsck();
}

#[test]
fn retention_and_settings_live_in_the_store() {
    let repo = Repo::plain();
    repo.write("a.txt", "0\n");
    repo.save(&[]);
    // Settings of this directory: its store's config.
    repo.git(&["config", "checkpoint.keep", "3"]);
    // Checkpoints of a moment ago are kept by default (checkpoint.minAge).
    repo.git(&["config", "checkpoint.minAge", "0"]);
    repo.git(&["config", "checkpoint.defaultExcludes", "false"]);
    repo.write("node_modules/m.js", "kept now\n");
    for i in 1..6 {
        repo.write("a.txt", &format!("{i}\n"));
        repo.save(&[]);
    }
    assert_eq!(repo.checkpoint_ids().len(), 3, "checkpoint.keep applies");
    let newest = repo.checkpoint_ids().pop().unwrap();
    assert!(
        repo.checkpoint_files(&newest)
            .contains(&"node_modules/m.js".to_string()),
        "checkpoint.defaultExcludes=false captures node_modules"
    );
    assert_eq!(repo.checkpoint_tree(&newest), oracle(&repo, &[], &[]));
}

#[test]
fn subdirectories_use_the_store_of_the_directory_above() {
    let repo = Repo::plain();
    repo.write("top.txt", "top\n");
    repo.write("sub/inner.txt", "inner\n");
    repo.save(&[]);
    repo.write("sub/inner.txt", "changed\n");
    let id = repo.cp_in("sub", &["save", "-q"]).ok().id();
    assert_eq!(
        repo.stores().len(),
        1,
        "one store for the directory and below"
    );
    assert_eq!(
        repo.checkpoint_files(&id),
        vec!["sub/inner.txt".to_string(), "top.txt".to_string()]
    );
    // Paths are relative to where the command runs.
    repo.write("sub/inner.txt", "again\n");
    repo.write("top.txt", "again\n");
    repo.cp_in("sub", &["restore", "-q", &id, "--", "inner.txt"])
        .ok();
    assert_eq!(repo.read("sub/inner.txt"), "changed\n");
    assert_eq!(repo.read("top.txt"), "again\n");
}

#[test]
fn two_directories_with_the_same_name_get_different_stores() {
    let repo = Repo::plain();
    let a = repo.scratch().join("a/proj");
    let b = repo.scratch().join("b/proj");
    for (dir, content) in [(&a, "a\n"), (&b, "b\n")] {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join("f.txt"), content).unwrap();
        repo.cp_in_dir(dir, &["save", "-q"]).ok();
    }
    let stores = repo.stores();
    assert_eq!(stores.len(), 2, "{stores:?}");
    assert_ne!(stores[0], stores[1]);
    let json = Json::parse(&repo.cp(&["stores", "--json"]).ok().stdout);
    let mut dirs = vec![json.get("0.directory"), json.get("1.directory")];
    dirs.sort();
    assert_eq!(
        dirs,
        vec![
            a.canonicalize().unwrap().display().to_string(),
            b.canonicalize().unwrap().display().to_string()
        ]
    );
    assert_eq!(json.get("0.checkpoints"), "1");
    assert_eq!(json.get("0.exists"), "true");
    // Each restores its own.
    fs::write(a.join("f.txt"), "changed\n").unwrap();
    repo.cp_in_dir(&a, &["restore", "-q", "@"]).ok();
    assert_eq!(fs::read_to_string(a.join("f.txt")).unwrap(), "a\n");
    assert_eq!(fs::read_to_string(b.join("f.txt")).unwrap(), "b\n");
}

#[test]
fn a_moved_or_deleted_directory_leaves_a_store_that_prune_removes() {
    let repo = Repo::plain();
    let dir = repo.scratch().join("work/proj");
    let gone = repo.scratch().join("work/gone");
    for d in [&dir, &gone] {
        fs::create_dir_all(d).unwrap();
        fs::write(d.join("f.txt"), "content\n").unwrap();
        repo.cp_in_dir(d, &["save", "-q"]).ok();
    }
    // Moved: the new place is a new directory, with a store of its own.
    let moved = repo.scratch().join("work/moved");
    fs::rename(&dir, &moved).unwrap();
    fs::remove_dir_all(&gone).unwrap();
    let list = repo.cp_in_dir(&moved, &["list", "--json"]).ok();
    assert_eq!(
        list.stdout.trim(),
        "[]",
        "the moved directory starts afresh"
    );
    let stores = repo.cp(&["stores"]).ok().stdout;
    assert_eq!(stores.matches("directory gone").count(), 2, "{stores}");

    let dry = repo.cp(&["stores", "--prune", "--dry-run"]).ok();
    assert_eq!(
        dry.stdout.matches("would remove").count(),
        2,
        "{}",
        dry.stdout
    );
    assert_eq!(repo.stores().len(), 2);
    repo.cp_in_dir(&moved, &["save", "-q"]).ok();
    assert_eq!(repo.stores().len(), 3);
    let pruned = repo.cp(&["stores", "--prune", "--json"]).ok();
    let json = Json::parse(&pruned.stdout);
    assert_eq!(json.keys("").len(), 2, "{}", pruned.stdout);
    let left = repo.stores();
    assert_eq!(left.len(), 1);
    let json = Json::parse(&repo.cp(&["stores", "--json"]).ok().stdout);
    assert_eq!(
        json.get("0.directory"),
        moved.canonicalize().unwrap().display().to_string()
    );
}

/// A moved directory gets its checkpoints back with `stores --adopt`, run in its new place:
/// the old store becomes its store (renamed to its new name), its checkpoints list and restore
/// there, and its undo history goes on.
#[test]
fn a_moved_directory_adopts_its_old_store() {
    let repo = Repo::plain();
    let dir = repo.scratch().join("work/notes");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("f.txt"), "first\n").unwrap();
    let first = repo
        .cp_in_dir(&dir, &["save", "-q"])
        .ok()
        .stdout
        .trim()
        .to_string();
    fs::write(dir.join("f.txt"), "second\n").unwrap();
    repo.cp_in_dir(&dir, &["save", "-q"]).ok();
    let old = repo.stores();
    assert_eq!(old.len(), 1);
    let old = old[0].clone();

    // Refused while the directory it keeps still exists.
    let elsewhere = repo.scratch().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let out = repo.cp_in_dir(&elsewhere, &["stores", "--adopt", old.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("still exists"), "{}", out.stderr);

    let moved = repo.scratch().join("work/renamed");
    fs::rename(&dir, &moved).unwrap();
    // Naming the old store says what to do.
    let out = repo.cp_in_dir(&moved, &["--store", old.to_str().unwrap(), "list"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("stores --adopt"), "{}", out.stderr);
    let listed = repo.cp(&["stores"]).ok().stdout;
    assert!(listed.contains("--adopt"), "{listed}");

    let adopted = repo
        .cp_in_dir(&moved, &["stores", "--adopt", old.to_str().unwrap()])
        .ok();
    assert!(adopted.stderr.contains("from now on"), "{}", adopted.stderr);
    let now = repo.stores();
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(!old.exists(), "renamed, not copied");
    let json = Json::parse(&repo.cp(&["stores", "--json"]).ok().stdout);
    assert_eq!(
        json.get("0.directory"),
        moved.canonicalize().unwrap().display().to_string()
    );
    assert_eq!(json.get("0.exists"), "true");
    assert_eq!(json.get("0.checkpoints"), "2");
    // Its checkpoints, restored in the new place, and undone.
    fs::write(moved.join("f.txt"), "edited after the move\n").unwrap();
    repo.cp_in_dir(&moved, &["restore", "-q", &first]).ok();
    assert_eq!(fs::read_to_string(moved.join("f.txt")).unwrap(), "first\n");
    repo.cp_in_dir(&moved, &["undo", "-q"]).ok();
    assert_eq!(
        fs::read_to_string(moved.join("f.txt")).unwrap(),
        "edited after the move\n"
    );
    // A directory that has a store of its own keeps it.
    let other = repo.scratch().join("work/other");
    fs::create_dir_all(&other).unwrap();
    fs::write(other.join("g.txt"), "g\n").unwrap();
    repo.cp_in_dir(&other, &["save", "-q"]).ok();
    let mine = repo.stores().into_iter().find(|s| s != &now[0]).unwrap();
    fs::remove_dir_all(&other).unwrap();
    let out = repo.cp_in_dir(&moved, &["stores", "--adopt", mine.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("has a store of its own"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_directory_turned_into_a_repository_uses_the_repository() {
    let repo = Repo::plain();
    repo.write("f.txt", "before git\n");
    let plain_id = repo.save(&[]);
    let store = repo.store();
    // `git init` (without the harness, which would point git at the store).
    let mut init = std::process::Command::new("git");
    repo.env(&mut init);
    let out = init
        .args(["init", "-q", "-b", "main"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    // The helpers' git now goes to the store: ask the repository directly.
    let in_repo = |args: &[&str]| {
        let mut full = vec!["--git-dir", ".git"];
        full.extend_from_slice(args);
        repo.git(&full)
    };
    repo.write("f.txt", "after git\n");
    let id = repo.cp(&["save", "-q"]).ok().id();
    assert_ne!(id, plain_id);
    assert!(
        in_repo(&["for-each-ref", "refs/checkpoints/"]).contains(&id),
        "the checkpoint is in the new repository"
    );
    // The repository's list does not show the store's checkpoint; the store is kept, and
    // `stores` says it is not used any more.
    let list = repo.cp(&["list"]).ok().stdout;
    assert!(!list.contains(&plain_id), "{list}");
    assert!(store.is_dir());
    let stores = repo.cp(&["stores", "--json"]).ok().stdout;
    assert_eq!(Json::parse(&stores).get("0.in_repository"), "true");
    // Its checkpoints can still be reached with --store.
    let old = repo
        .cp(&["--store", store.to_str().unwrap(), "show", &plain_id])
        .ok();
    assert!(old.stdout.contains(&plain_id));
}

#[test]
fn home_directories_and_roots_are_refused_without_force() {
    let repo = Repo::plain();
    fs::write(repo.home().join("notes.txt"), "n\n").unwrap();
    let refused = repo.cp_in_dir(repo.home(), &["save"]).fails_with(1);
    refused.assert_one_error_line();
    assert!(
        refused.stderr.contains("home directory"),
        "{}",
        refused.stderr
    );
    assert!(refused.stderr.contains("--force"), "{}", refused.stderr);
    assert!(repo.stores().is_empty());
    let root = repo.cp_in_dir(Path::new("/"), &["save"]).fails_with(1);
    assert!(root.stderr.contains("file system root"), "{}", root.stderr);
    assert!(repo.stores().is_empty());
    // A hook there does not block the agent, and makes nothing.
    let hook = repo.cp_stdin(repo.home(), |_| {}, &["save", "--from-hook"], b"{}");
    assert_eq!(hook.code, 0, "{}", hook.stderr);
    assert!(repo.stores().is_empty());
    // Forced, it works (this home is small); the store lives below it and is not captured.
    let id = repo
        .cp_in_dir(repo.home(), &["save", "--force", "-q"])
        .ok()
        .id();
    let files = repo.checkpoint_files(&id);
    assert!(files.contains(&"notes.txt".to_string()), "{files:?}");
    assert!(files.iter().all(|f| !f.starts_with(".local/")), "{files:?}");
}

/// The system's temporary directory itself is refused as a plain directory, as home is; a
/// store made for it anyway (forced, or by an older version) is not used for the unrelated
/// folders below it, which get their own.
#[test]
fn the_temporary_directory_is_refused_and_its_store_not_used_below_it() {
    let repo = Repo::plain();
    let tmp = repo.scratch().join("tmp");
    let below = tmp.join("unrelated");
    fs::create_dir_all(&below).unwrap();
    fs::write(tmp.join("scratch.txt"), "s\n").unwrap();
    fs::write(below.join("mine.txt"), "m\n").unwrap();
    let tmpdir = tmp.to_str().unwrap().to_string();
    let in_dir = |dir: &Path, args: &[&str]| {
        let tmpdir = tmpdir.clone();
        repo.cp_stdin(
            dir,
            move |cmd| {
                cmd.env("TMPDIR", tmpdir);
            },
            args,
            b"",
        )
    };
    let refused = in_dir(&tmp, &["save"]);
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    refused.assert_one_error_line();
    assert!(
        refused.stderr.contains("temporary directory"),
        "{}",
        refused.stderr
    );
    assert!(repo.stores().is_empty());
    // Made anyway: below it, an unrelated folder has no checkpoints, and its first save makes
    // its own store.
    let forced = in_dir(&tmp, &["save", "--force", "-q"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(repo.stores().len(), 1);
    let list = in_dir(&below, &["list"]);
    assert!(
        list.stderr.contains("no checkpoints yet"),
        "{}",
        list.stderr
    );
    assert!(list.stdout.is_empty(), "{}", list.stdout);
    let saved = in_dir(&below, &["save", "-q"]);
    assert_eq!(saved.code, 0, "{}", saved.stderr);
    assert_eq!(repo.stores().len(), 2);
    let own = repo
        .stores()
        .into_iter()
        .find(|s| {
            s.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("unrelated-")
        })
        .unwrap();
    let files = repo.git(&[
        &format!("--git-dir={}", own.display()),
        "ls-tree",
        "-r",
        "--name-only",
        &format!("refs/checkpoints/{}", saved.stdout.trim()),
    ]);
    assert_eq!(files, "mine.txt");
}

/// Below a directory that has a store, a command acts on that directory (a restore or an undo
/// there rewrites all of it): it says so, naming it, unless quiet.
#[test]
fn a_command_below_a_checkpointed_directory_says_which_it_acts_on() {
    let repo = Repo::plain();
    repo.write("sub/deeper/f.txt", "f\n");
    repo.save(&["-q"]);
    let sub = repo.path().join("sub/deeper");
    let top = repo.path().canonicalize().unwrap().display().to_string();
    let list = repo.cp_in_dir(&sub, &["list"]).ok();
    assert!(
        list.stderr.contains(&format!("acting on `{top}`")),
        "{}",
        list.stderr
    );
    let save = repo.cp_in_dir(&sub, &["save", "--allow-empty"]).ok();
    assert!(
        save.stderr.contains(&format!("acting on `{top}`")),
        "{}",
        save.stderr
    );
    // Not at the top itself, and not when quiet.
    assert!(!repo.cp(&["list"]).ok().stderr.contains("acting on"));
    assert!(
        !repo
            .cp_in_dir(&sub, &["list", "--json"])
            .ok()
            .stderr
            .contains("acting on")
    );
}

#[test]
fn a_hook_with_a_cwd_in_a_plain_directory_checkpoints_it() {
    let repo = Repo::plain();
    repo.write("app.js", "let x = 1;\n");
    let cwd = repo.path().display().to_string();
    let input = format!(
        r#"{{"session_id":"s-1","transcript_path":"/t.jsonl","cwd":"{cwd}","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"{cwd}/app.js","content":"x"}}}}"#
    );
    // Run from elsewhere: the hook's cwd decides.
    let run = repo.cp_stdin(
        repo.scratch(),
        |_| {},
        &["save", "--from-hook"],
        input.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 1, "{}", run.stderr);
    let note = repo.note_json(&ids[0]);
    assert_eq!(note.get("session"), "s-1");
    assert_eq!(note.get("kind"), "auto");
    assert_eq!(repo.checkpoint_tree(&ids[0]), oracle(&repo, &[], &[]));
}

#[test]
fn a_named_store_is_used_and_checked() {
    let repo = Repo::plain();
    repo.write("f.txt", "f\n");
    let store = repo.scratch().join("my-store");
    let store_arg = store.to_str().unwrap();
    let id = repo.cp(&["--store", store_arg, "save", "-q"]).ok().id();
    assert!(repo.stores().is_empty(), "no private store with --store");
    let listed = repo
        .cp_with(
            |c| {
                c.env("GIT_CHECKPOINT_STORE", &store);
            },
            &["list", "--json"],
        )
        .ok();
    assert!(listed.stdout.contains(&id));
    // Another directory cannot use it.
    let other = repo.scratch().join("other");
    fs::create_dir_all(&other).unwrap();
    let wrong = repo
        .cp_in_dir(&other, &["--store", store_arg, "save"])
        .fails_with(1);
    assert!(wrong.stderr.contains("not of"), "{}", wrong.stderr);
}

#[test]
fn concurrent_first_saves_share_one_store() {
    let repo = Repo::plain();
    for i in 0..50 {
        repo.write(&format!("f{i}.txt"), &format!("{i}\n"));
    }
    let ids: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| repo.cp(&["save", "-q", "--allow-empty"]).ok().id()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(repo.stores().len(), 1);
    let leftovers: Vec<PathBuf> = fs::read_dir(repo.stores_root())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let listed = repo.checkpoint_ids();
    for id in &ids {
        assert!(listed.contains(id), "{id} missing");
    }
    repo.fsck();
}

#[test]
fn exclude_and_include_in_a_repository() {
    let repo = Repo::with_commit(&[
        (".gitignore", ".loki/\n*.log\nbuild/\n"),
        ("src/a.rs", "a\n"),
        ("secrets.env", "tracked secret\n"),
    ]);
    repo.write(".loki/state/progress.json", "{\"step\":3}\n");
    repo.write(".loki/cache/big.bin", "cache\n");
    repo.write("features.log", "feature list\n");
    repo.write("run.log", "noise\n");
    repo.write("build/out.o", "obj\n");
    repo.write("data/big.csv", "1,2\n");
    repo.write("src/b.rs", "b\n");
    repo.git(&["config", "--add", "checkpoint.include", ".loki/state/"]);
    repo.git(&["config", "--add", "checkpoint.include", "features.log"]);
    repo.git(&["config", "--add", "checkpoint.exclude", "data/"]);
    repo.git(&["config", "--add", "checkpoint.exclude", "secrets.env"]);

    let id = repo.save(&[]);
    let expected = oracle(
        &repo,
        &[".loki/state", "features.log"],
        &["data", "secrets.env"],
    );
    assert_eq!(repo.checkpoint_tree(&id), expected);
    let files = repo.checkpoint_files(&id);
    assert!(
        files.contains(&".loki/state/progress.json".to_string()),
        "{files:?}"
    );
    assert!(
        !files
            .iter()
            .any(|f| f.starts_with(".loki/cache") || f == "run.log")
    );
    assert!(
        !files
            .iter()
            .any(|f| f.starts_with("data/") || f == "secrets.env")
    );

    // Restore brings back what is included, never touches what is excluded.
    repo.write(".loki/state/progress.json", "{\"step\":9}\n");
    repo.write("data/big.csv", "changed\n");
    repo.write("secrets.env", "changed secret\n");
    repo.remove("features.log");
    repo.cp(&["restore", "-q", &id]).ok();
    assert_eq!(repo.read(".loki/state/progress.json"), "{\"step\":3}\n");
    assert_eq!(repo.read("features.log"), "feature list\n");
    assert_eq!(repo.read("data/big.csv"), "changed\n");
    assert_eq!(repo.read("secrets.env"), "changed secret\n");
    // The index is the user's and stays as it was.
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "");
}

#[test]
fn exclude_and_include_in_a_plain_directory() {
    let repo = Repo::plain();
    repo.write(".gitignore", "*.tmp\n");
    repo.write("keep.tmp", "included although ignored\n");
    repo.write("drop.tmp", "ignored\n");
    repo.write("node_modules/pkg/package.json", "{}\n");
    repo.write("secret/key", "k\n");
    repo.write("main.c", "int main;\n");
    // Settings before the first save: global git config applies.
    let global = repo.home().join(".gitconfig");
    fs::write(
        &global,
        "[checkpoint]\n\texclude = secret/\n\tinclude = keep.tmp\n\tinclude = node_modules/pkg/package.json\n",
    )
    .unwrap();
    let id = repo.save(&[]);
    let files = repo.checkpoint_files(&id);
    assert_eq!(
        files,
        vec![
            ".gitignore".to_string(),
            "keep.tmp".to_string(),
            "main.c".to_string()
        ],
        "default excludes win over include, as checkpoint.exclude does"
    );
    assert_eq!(
        repo.checkpoint_tree(&id),
        oracle(
            &repo,
            &["keep.tmp"],
            &["secret", ":(glob)**/node_modules/**"]
        )
    );
}

/// The other commands a repository has work the same in a plain directory: revert (git's
/// merge-tree run on the store is the oracle), undo of it, pin, prune, drop, du and
/// exec --restore-on-failure.
#[test]
fn revert_pin_prune_drop_du_and_exec_work_in_a_plain_directory() {
    let repo = Repo::plain();
    repo.write("a.txt", "1\n2\n3\n4\n5\n");
    repo.write("keep.txt", "keep\n");
    let start = repo.save(&["-q", "--name", "start"]);
    // One step of an agent: a line changed, a file added.
    repo.write("a.txt", "1\nX\n3\n4\n5\n");
    repo.write("added.txt", "by the step\n");
    let step = repo.save(&["-q"]);
    // Later work, kept by the revert.
    repo.write("a.txt", "1\nX\n3\n4\nlater\n");
    repo.write("later.txt", "later\n");
    let ours = oracle(&repo, &[], &[]);
    let ours_commit = repo.git(&["commit-tree", &ours, "-m", "working tree"]);
    let expected = repo.git(&[
        "merge-tree",
        "--write-tree",
        &format!("--merge-base=refs/checkpoints/{step}"),
        &ours_commit,
        &format!("refs/checkpoints/{start}"),
    ]);
    repo.cp(&["revert", &start]).ok();
    assert_eq!(oracle(&repo, &[], &[]), expected.trim());
    assert_eq!(repo.read("a.txt"), "1\n2\n3\n4\nlater\n");
    assert!(!repo.path().join("added.txt").exists());
    repo.cp(&["undo", "-q"]).ok();
    assert_eq!(oracle(&repo, &[], &[]), ours);

    // pin, prune, drop.
    repo.cp(&["pin", "start"]).ok();
    let before = repo.checkpoint_ids();
    assert!(before.len() >= 3, "{before:?}");
    repo.cp(&["prune", "-q", "--keep", "1", "--kind", "manual"])
        .ok();
    let left = repo.checkpoint_ids();
    assert!(left.contains(&start), "pinned: {left:?}");
    let manual: Vec<&String> = left
        .iter()
        .filter(|id| **id != start && repo.note_json(id).get("kind") == "manual")
        .collect();
    assert_eq!(
        manual.len(),
        1,
        "the pinned one and the newest manual one: {left:?}"
    );
    let others: Vec<&str> = left
        .iter()
        .filter(|id| **id != start)
        .map(String::as_str)
        .collect();
    let mut drop = vec!["drop"];
    drop.extend(others);
    repo.cp(&drop).ok();
    assert_eq!(repo.checkpoint_ids(), std::slice::from_ref(&start));

    // du counts what the store holds.
    let du = Json::parse(&repo.cp(&["du", "--json"]).ok().stdout);
    assert_eq!(du.get("checkpoints"), "1");
    assert_ne!(du.get("total.bytes"), "0");

    // exec: a failing command is undone.
    repo.write("a.txt", "before exec\n");
    let out = repo.cp(&[
        "exec",
        "-q",
        "--restore-on-failure",
        "--",
        "sh",
        "-c",
        "echo broken > a.txt; rm keep.txt; exit 3",
    ]);
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert_eq!(repo.read("a.txt"), "before exec\n");
    assert_eq!(repo.read("keep.txt"), "keep\n");
    repo.fsck();
}

/// Restore's rule about symlinks holds in a plain directory: a directory of the checkpoint
/// that is a symlink now (leading out of the directory) is replaced, never written through,
/// with or without --force; undo brings the symlink back.
#[test]
fn restore_in_a_plain_directory_never_writes_through_a_symlink() {
    let repo = Repo::plain();
    repo.write("docs/a.md", "checkpointed\n");
    repo.write("docs/deep/b.md", "deep\n");
    let id = repo.save(&["-q"]);
    let outside = repo.scratch().join("outside");
    fs::create_dir_all(outside.join("deep")).unwrap();
    fs::write(outside.join("a.md"), "someone else's\n").unwrap();
    fs::write(outside.join("deep/b.md"), "someone else's too\n").unwrap();
    for force in [false, true] {
        fs::remove_dir_all(repo.path().join("docs")).unwrap();
        std::os::unix::fs::symlink(&outside, repo.path().join("docs")).unwrap();
        let mut args = vec!["restore", "-q", id.as_str()];
        if force {
            args.push("--force");
        }
        repo.cp(&args).ok();
        let md = repo.path().join("docs").symlink_metadata().unwrap();
        assert!(md.is_dir(), "force={force}: docs is a directory again");
        assert_eq!(repo.read("docs/a.md"), "checkpointed\n");
        assert_eq!(repo.read("docs/deep/b.md"), "deep\n");
        assert_eq!(
            fs::read_to_string(outside.join("a.md")).unwrap(),
            "someone else's\n"
        );
        assert_eq!(
            fs::read_to_string(outside.join("deep/b.md")).unwrap(),
            "someone else's too\n"
        );
        // The symlink is what the safety checkpoint holds: undo puts it back.
        repo.cp(&["undo", "-q"]).ok();
        assert!(
            repo.path()
                .join("docs")
                .symlink_metadata()
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            fs::read_to_string(outside.join("a.md")).unwrap(),
            "someone else's\n"
        );
    }
    repo.fsck();
}

/// Concurrent saves in a plain directory (agents' hooks) each land, with their own note.
#[test]
fn concurrent_saves_in_a_plain_directory_all_land() {
    let repo = Repo::plain();
    repo.write("base.txt", "base\n");
    repo.save(&["-q"]);
    let ids: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let repo = &repo;
                scope.spawn(move || {
                    let out =
                        repo.cp(&["save", "-q", "--allow-empty", "-m", &format!("saver {i}")]);
                    assert_eq!(out.code, 0, "{}", out.stderr);
                    out.stdout.trim().to_string()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let listed = repo.checkpoint_ids();
    assert_eq!(listed.len(), 9, "{listed:?}");
    for (i, id) in ids.iter().enumerate() {
        assert!(listed.contains(id), "{id}");
        assert_eq!(repo.note_json(id).get("message"), format!("saver {i}"));
    }
    repo.fsck();
}

/// Stores live under `$XDG_DATA_HOME` when it is set (and absolute, as the XDG spec wants),
/// else under `~/.local/share`.
#[test]
fn xdg_data_home_says_where_stores_live() {
    let repo = Repo::plain();
    repo.write("f.txt", "f\n");
    let data = repo.scratch().join("data");
    let with_data = |args: &[&str], value: &str| {
        crate::common::run_with_env(
            &repo,
            crate::common::bin(),
            args,
            repo.path(),
            &[("XDG_DATA_HOME", value)],
        )
    };
    let saved = with_data(&["save"], data.to_str().unwrap()).ok();
    let root = data.join("git-checkpoint/stores");
    let made: Vec<_> = fs::read_dir(&root).unwrap().flatten().collect();
    assert_eq!(made.len(), 1, "one store under XDG_DATA_HOME");
    assert!(
        saved.stderr.contains(&root.display().to_string()),
        "the first save says where: {}",
        saved.stderr
    );
    assert!(repo.stores().is_empty(), "nothing under ~/.local/share");
    let listed = with_data(&["list", "--json"], data.to_str().unwrap()).ok();
    assert_eq!(Json::parse(&listed.stdout).keys("").len(), 1);
    // A relative XDG_DATA_HOME is ignored, as the spec says: ~/.local/share then.
    with_data(&["save", "-q"], "relative/data").ok();
    assert_eq!(repo.stores().len(), 1);
    assert!(!repo.path().join("relative").exists());
}

/// Whether the plain directory's store holds a stand-in index.
fn stands_in(repo: &Repo) -> bool {
    repo.store().join("checkpoint-index").exists()
}

/// A save, which must hold what git's `add -A` on an empty index gives; its id.
#[track_caller]
fn save_as_git_adds(repo: &Repo, what: &str) -> String {
    let id = repo.save(&[]);
    assert_eq!(
        repo.checkpoint_tree(&id),
        oracle(repo, &[], &[]),
        "after {what}: {:?}",
        repo.checkpoint_files(&id)
    );
    id
}

/// A second later: files changed before are settled (older than any save that starts now).
fn settle() {
    std::thread::sleep(std::time::Duration::from_millis(1100));
}

/// The stand-in index (what the last save found, kept in the store so that the next one costs
/// what a save in a repository costs) changes no checkpoint: after every kind of change — a
/// file edited twice within a second, ignore files edited, added, deleted and ignored
/// themselves, settings changed, a file grown past the size guard, a file turned into a
/// directory or a symlink, the checkpoint it was made from dropped and its objects collected —
/// each save is what git's `add -A` on an empty index gives.
#[test]
fn the_stand_in_index_never_changes_what_a_checkpoint_holds() {
    let repo = Repo::plain();
    repo.write("README.md", "hello\n");
    repo.write("src/a.rs", "fn a() {}\n");
    repo.write("src/b.rs", "fn b() {}\n");
    repo.write("lib/x.dat", "data\n");
    repo.write("lib/y.txt", "text\n");
    repo.write("docs/guide.md", "guide\n");
    repo.write(".gitignore", "*.log\n");
    repo.write("docs/.gitignore", "*.tmp\n!keep.tmp\n");
    repo.write("docs/keep.tmp", "kept by a negation\n");
    repo.write("docs/drop.tmp", "ignored\n");
    // git's write-tree from the stand-in takes its cache-tree on trust: a wrong tree id in it
    // would show.
    let stand_in_tree = || {
        let index = repo.store().join("checkpoint-index");
        let index = index.to_str().unwrap().to_string();
        repo.git_env(&[("GIT_INDEX_FILE", &index)], &["write-tree"])
    };
    let check = |what: &str| {
        let id = save_as_git_adds(&repo, what);
        if stands_in(&repo) {
            assert_eq!(
                stand_in_tree(),
                repo.checkpoint_tree(&id),
                "the stand-in after {what}"
            );
        }
        id
    };
    check("the first save");
    // The store was made in this second: a save a second later leaves a stand-in.
    settle();
    check("nothing");
    assert!(stands_in(&repo), "a settled save leaves a stand-in");
    // The stand-in lists exactly what the checkpoint holds.
    let index = repo.store().join("checkpoint-index");
    let index = index.to_str().unwrap();
    let listed = repo.git_env(&[("GIT_INDEX_FILE", index)], &["ls-files", "-s"]);
    let id = repo.checkpoint_ids().pop().unwrap();
    let tree = repo.git(&["ls-tree", "-r", &format!("refs/checkpoints/{id}")]);
    let as_index: Vec<String> = tree
        .lines()
        .map(|l| {
            let (meta, path) = l.split_once('\t').unwrap();
            let f: Vec<&str> = meta.split(' ').collect();
            format!("{} {} 0\t{path}", f[0], f[2])
        })
        .collect();
    assert_eq!(listed, as_index.join("\n"));

    // Edits, twice in the same second with the same size: the second is seen too.
    repo.write("src/a.rs", "fn a() {1}\n");
    check("an edit");
    repo.write("src/a.rs", "fn a() {2}\n");
    check("a second edit of the same size");
    settle();
    check("nothing");
    repo.write("new/n.txt", "new\n");
    repo.remove("src/b.rs");
    check("a file added and one deleted");

    // Ignore files: edited (a saved file becomes ignored), a new one, one deleted (its
    // negation no longer keeps a file), and one that is ignored itself, which git still reads.
    // Before each change, a save a second after the last one leaves a stand-in to be used.
    let ready = || {
        settle();
        check("nothing");
        assert!(stands_in(&repo));
    };
    ready();
    repo.write(".gitignore", "*.log\n*.dat\n");
    check(".gitignore edited");
    ready();
    repo.write("src/.gitignore", "a.rs\n");
    check("a new .gitignore");
    ready();
    repo.write(".gitignore", "*.log\n/docs/*.tmp\n");
    repo.remove("docs/.gitignore");
    check("a .gitignore deleted");
    ready();
    repo.write(".gitignore", "*.log\nlib/.gitignore\n");
    check("a .gitignore ignoring another");
    ready();
    repo.write("lib/.gitignore", "y.txt\n");
    check("an ignored .gitignore written");
    ready();
    let info = repo.store().join("info");
    fs::create_dir_all(&info).unwrap();
    fs::write(info.join("exclude"), "README.md\n").unwrap();
    check("info/exclude");
    ready();
    fs::create_dir_all(repo.home().join(".config/git")).unwrap();
    fs::write(repo.home().join(".config/git/ignore"), "guide.md\n").unwrap();
    check("the global ignore file");

    // Settings: the size guard, checkpoint.exclude.
    ready();
    repo.git(&["config", "checkpoint.maxFileSize", "25"]);
    check("a size guard");
    ready();
    repo.write("new/n.txt", "now far larger than the guard\n");
    let id = repo.save(&[]);
    assert_eq!(
        repo.checkpoint_tree(&id),
        oracle(&repo, &[], &["new/n.txt"]),
        "a saved file grown past the size guard is left out"
    );
    let show = repo.cp(&["show", "--json", &id]).ok().stdout;
    assert!(show.contains("new/n.txt"), "and said to be: {show}");
    repo.git(&["config", "checkpoint.maxFileSize", "1000"]);
    check("the size guard raised");
    ready();
    repo.git(&["config", "checkpoint.exclude", "lib/"]);
    let id = repo.save(&[]);
    assert_eq!(repo.checkpoint_tree(&id), oracle(&repo, &[], &["lib"]));
    repo.git(&["config", "--unset", "checkpoint.exclude"]);

    // Kinds: a file turned into a directory, another into a symlink.
    ready();
    repo.remove("new/n.txt");
    repo.write("new/n.txt/inner", "a directory now\n");
    repo.remove("src/a.rs");
    repo.symlink("../README.md", "src/a.rs");
    check("a file turned into a directory and one into a symlink");

    // The checkpoint the stand-in names gone, its objects collected: the stand-in is not used.
    ready();
    repo.write("docs/guide2.md", "second guide\n");
    check("a new file");
    let ids = repo.checkpoint_ids();
    for id in &ids {
        repo.cp(&["drop", id]).ok();
    }
    repo.git(&["reflog", "expire", "--expire=now", "--all"]);
    repo.git(&["gc", "-q", "--prune=now"]);
    settle();
    check("every checkpoint dropped and collected");
    repo.git(&["fsck", "--no-dangling", "--no-progress"]);
}

/// The id of the checkpoint a stand-in index names as its holder (its `GCKP` extension holds
/// the holder's ref name).
fn stand_in_holder(index: &[u8]) -> String {
    let prefix = b"refs/checkpoints/";
    let at = index
        .windows(prefix.len())
        .rposition(|w| w == prefix)
        .expect("the stand-in names its holder")
        + prefix.len();
    index[at..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
        .map(|b| *b as char)
        .collect()
}

/// In a large directory the stand-in is not written again after every small change: the next
/// save compares the files changed since by content. Each checkpoint is still exactly git's
/// `add -A`, and once the checkpoint holding the stand-in is dropped and its objects
/// collected, the stand-in is not used.
#[test]
fn a_large_directory_keeps_its_stand_in_across_small_changes() {
    let repo = Repo::plain();
    for d in 0..101 {
        for f in 0..100 {
            repo.write(&format!("d{d}/f{f}.txt"), &format!("{d} {f}\n"));
        }
    }
    let check = |what: &str| save_as_git_adds(&repo, what);
    let first = check("the first save");
    settle();
    let second = check("a save that writes the stand-in");
    let index = repo.store().join("checkpoint-index");
    let written = fs::read(&index).unwrap();
    // Which of the two holds it depends on the clock: the first save writes none when the
    // store it created is younger than a second, and the second keeps the first's when only a
    // few files were racy for it. The stand-in names its holder.
    let holder = stand_in_holder(&written);
    assert!(
        holder == first || holder == second,
        "the stand-in is held by {holder}, neither {first} nor {second}"
    );
    for round in 0..3 {
        repo.write(&format!("d{round}/f1.txt"), &format!("edit {round}\n"));
        repo.write(&format!("d{round}/f2.txt"), "x\n");
        repo.write(&format!("new/n{round}.txt"), "new\n");
        repo.remove(&format!("d50/f{round}.txt"));
        check("a few changes");
        assert_eq!(
            fs::read(&index).unwrap(),
            written,
            "the stand-in stays while few files changed"
        );
    }
    settle();
    check("nothing");
    // The checkpoint holding the stand-in's objects dropped and collected.
    repo.cp(&["drop", &holder]).ok();
    repo.git(&["reflog", "expire", "--expire=now", "--all"]);
    repo.git(&["gc", "-q", "--prune=now"]);
    repo.write("d3/f3.txt", "after the drop\n");
    check("the holder dropped");
    assert_ne!(fs::read(&index).unwrap(), written, "a new stand-in");
    repo.git(&["fsck", "--no-dangling", "--no-progress"]);
}

/// `stores --prune` removes a store only when its directory is known to be gone: not when the
/// directory exists but cannot be looked at (permission denied, checked as an unprivileged
/// user), nor when its path now ends on another file system than the one it was on (its file
/// system is not mounted; here the store records another device).
#[test]
fn stores_prune_keeps_the_store_of_a_directory_it_cannot_see() {
    use std::process::Command;
    let repo = Repo::plain();
    let locked = repo.scratch().join("work/locked/proj");
    let unmounted = repo.scratch().join("work/unmounted");
    let gone = repo.scratch().join("work/gone");
    for d in [&locked, &unmounted, &gone] {
        fs::create_dir_all(d).unwrap();
        fs::write(d.join("f.txt"), "content\n").unwrap();
        repo.cp_in_dir(d, &["save", "-q"]).ok();
    }
    fs::remove_dir_all(&gone).unwrap();
    // The unmounted one: its store says it was on another file system than its path's.
    let store_of = |dir: &std::path::Path| {
        let json = Json::parse(&repo.cp(&["stores", "--json"]).ok().stdout);
        let dir = dir.canonicalize().unwrap().display().to_string();
        (0..json.keys("").len())
            .map(|i| {
                (
                    json.get(&format!("{i}.directory")),
                    json.get(&format!("{i}.store")),
                )
            })
            .find(|(d, _)| *d == dir)
            .map(|(_, s)| std::path::PathBuf::from(s))
            .unwrap()
    };
    let unmounted_store = store_of(&unmounted);
    let config = unmounted_store.join("config");
    let text = fs::read_to_string(&config).unwrap();
    assert!(text.contains("\tdevice = "), "{text}");
    let device = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("device = "))
        .unwrap()
        .parse::<u64>()
        .unwrap();
    let text = text.replace(
        &format!("device = {device}"),
        &format!("device = {}", device + 1),
    );
    fs::write(&config, text).unwrap();
    fs::remove_dir_all(&unmounted).unwrap();

    // The locked one: its parent may not be looked into.
    let locked_parent = locked.parent().unwrap();
    let wrapper: Vec<&str> = if crate::common::is_root() {
        if Command::new("setpriv").arg("--help").output().is_err() {
            crate::common::skip("running as root without setpriv");
            return;
        }
        let status = Command::new("chmod")
            .args(["-R", "a+rwX", repo.scratch().to_str().unwrap()])
            .status()
            .unwrap();
        assert!(status.success());
        vec![
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ]
    } else {
        vec!["env"]
    };
    let chmod = |mode: u32| {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(locked_parent, fs::Permissions::from_mode(mode)).unwrap();
    };
    chmod(0o000);
    let listed = repo.cp_wrapped(&wrapper, &["stores", "--json"]).ok();
    let pruned = repo
        .cp_wrapped(&wrapper, &["stores", "--prune", "--json"])
        .ok();
    chmod(0o755);
    let json = Json::parse(&listed.stdout);
    let states: Vec<(String, String, String)> = (0..json.keys("").len())
        .map(|i| {
            (
                json.get(&format!("{i}.directory")),
                json.get(&format!("{i}.gone")),
                json.get(&format!("{i}.unknown")),
            )
        })
        .collect();
    let state = |dir: &std::path::Path| {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        states
            .iter()
            .find(|(d, _, _)| d.ends_with(&format!("/{name}")))
            .cloned()
            .unwrap()
    };
    assert!(state(&locked).2.contains("Permission denied"), "{states:?}");
    assert!(state(&unmounted).2.contains("not mounted"), "{states:?}");
    assert_eq!(state(&gone).1, "true", "{states:?}");
    let removed = Json::parse(&pruned.stdout);
    assert_eq!(removed.keys("").len(), 1, "{}", pruned.stdout);
    assert!(
        removed.get("0.directory").ends_with("/gone"),
        "{}",
        pruned.stdout
    );
    assert_eq!(
        repo.stores().len(),
        2,
        "the locked and the unmounted one's stores stay"
    );
    // Readable again, the locked directory's checkpoints are all there.
    let list = repo.cp_in_dir(&locked, &["list", "--json"]).ok();
    assert_eq!(Json::parse(&list.stdout).keys("").len(), 1);
}

/// A plain directory has no HEAD: a save says what changed since the checkpoint before, and a
/// store named with --store inside a repository is not said to be for a directory "not in a
/// git repository".
#[test]
fn a_save_says_what_it_compares_with_and_where_it_keeps_checkpoints() {
    let repo = Repo::plain();
    repo.write("f.txt", "f\n");
    let first = repo.cp(&["save"]).ok();
    assert!(
        first
            .stderr
            .contains("(1 file; the first checkpoint of this directory)"),
        "{}",
        first.stderr
    );
    repo.write("g.txt", "g\n");
    let second = repo.cp(&["save"]).ok();
    assert!(
        second.stderr.contains(&format!(
            "(2 files; 1 added, 0 modified, 0 deleted since checkpoint {})",
            first.id()
        )),
        "{}",
        second.stderr
    );
    assert!(!second.stderr.contains("HEAD"), "{}", second.stderr);

    let git = Repo::with_commit(&[("a", "a\n")]);
    let store = git.scratch().join("elsewhere.git");
    let out = git.cp(&["--store", store.to_str().unwrap(), "save"]).ok();
    assert!(
        !out.stderr.contains("not in a git repository"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("(--store names it)"), "{}", out.stderr);
    let out = git
        .cp_with(
            |cmd| {
                cmd.env("GIT_CHECKPOINT_STORE", git.scratch().join("other.git"));
            },
            &["save"],
        )
        .ok();
    assert!(
        out.stderr.contains("(GIT_CHECKPOINT_STORE names it)"),
        "{}",
        out.stderr
    );
}

/// `show` in a plain directory says what its counts are against (there is no HEAD: an empty
/// directory, which its stat below agrees with), and `list --help` says what its column counts
/// there; in a repository show still counts since HEAD.
#[test]
fn show_and_list_say_what_they_compare_with_where_there_is_no_head() {
    let repo = Repo::plain();
    repo.write("f.txt", "f\n");
    repo.write("g.txt", "g\n");
    repo.save(&["-q"]);
    let show = repo.cp(&["show", "@"]).ok();
    assert!(
        show.stdout
            .contains("files     2 (2 added, 0 modified, 0 deleted since an empty directory: no HEAD to compare with)"),
        "{}",
        show.stdout
    );
    assert!(
        show.stdout
            .contains("head      none (a plain directory has no HEAD)"),
        "{}",
        show.stdout
    );
    assert!(!show.stdout.contains("since head"), "{}", show.stdout);
    // The stat below counts the same: both files, as new.
    assert!(
        show.stdout.contains("2 files changed, 2 insertions(+)"),
        "{}",
        show.stdout
    );
    let help = repo.cp(&["list", "--help"]).ok().stdout;
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("in a plain directory, which has no HEAD, since an empty directory"),
        "{help}"
    );

    let git = Repo::with_commit(&[("a", "a\n")]);
    git.write("b", "b\n");
    git.save(&["-q"]);
    let show = git.cp(&["show", "@"]).ok();
    assert!(
        show.stdout
            .contains("files     2 (1 added, 0 modified, 0 deleted since head)"),
        "{}",
        show.stdout
    );
}
