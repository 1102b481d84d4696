//! Restore's promise in the corners: symlinks standing in the way at every depth (the user's
//! own, or planted by a fetched checkpoint to lead outside the working tree or into `.git`),
//! processes writing while a restore runs (on many files, held at a gate rather than timed by
//! sleeps), a restore that fails part-way after creating directories, and paths
//! `checkpoint.exclude` leaves out. After every restore: nothing outside the working tree or
//! inside `.git` changed, and what git itself sees (`git fsck`, the index, the oracle tree) is
//! what it should be.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::Repo;
use crate::odd_configs::assert_index_sound;
use crate::restore::{journal_path, manifest, plant_checkpoint, raw_tree};

/// Every file below `dir`, with its content, for "nothing changed there" checks.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let md = fs::symlink_metadata(&path).unwrap();
            if md.is_dir() {
                stack.push(path);
            } else if md.is_file() {
                out.push((path.clone(), fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The git directory's files that a restore must never change: config, index, HEAD, hooks,
/// refs of branches (not the object store, not git-checkpoint's own refs and files).
fn git_dir_guarded(repo: &Repo) -> Vec<(PathBuf, Vec<u8>)> {
    let git = repo.path().join(".git");
    let mut out: Vec<(PathBuf, Vec<u8>)> = ["config", "HEAD", "description"]
        .iter()
        .filter_map(|f| fs::read(git.join(f)).ok().map(|c| (git.join(f), c)))
        .collect();
    out.extend(contents(&git.join("hooks")));
    out.extend(contents(&git.join("refs/heads")));
    out.extend(contents(&git.join("info")));
    out
}

fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// A repository with `dir/a.md` committed, a checkpoint of it, and then `dir` replaced by a
/// symlink to `link_target` (relative to `dir`'s parent, or absolute). Returns the checkpoint.
fn with_symlink_in_place_of(repo: &Repo, dir: &str, link_target: &str) -> String {
    repo.write(&format!("{dir}/a.md"), "the checkpoint's a.md\n");
    repo.write("top.txt", "top\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = repo.save(&["-q"]);
    fs::remove_dir_all(repo.path().join(dir)).unwrap();
    std::os::unix::fs::symlink(link_target, repo.path().join(dir)).unwrap();
    id
}

#[test]
fn a_symlink_standing_for_a_directory_is_replaced_never_looked_through() {
    for depth in ["docs", "a/docs", "a/b/c/docs"] {
        for flags in [&[][..], &["--force"], &["--staged"]] {
            let repo = Repo::new();
            let outside = tempfile::tempdir().unwrap();
            // The user's own shared docs, with a file of the same name.
            fs::write(outside.path().join("a.md"), "someone else's a.md\n").unwrap();
            let id = with_symlink_in_place_of(&repo, depth, outside.path().to_str().unwrap());
            let outside_before = contents(outside.path());
            let git_before = git_dir_guarded(&repo);

            // A dry run sees the file to write, not an "ignored file" behind the symlink.
            let dry = repo.cp(&["restore", &id, "--dry-run"]);
            assert_eq!(dry.code, 0, "{depth} {flags:?}: {}", dry.stderr);
            assert!(
                dry.stdout.contains(&format!("W  {depth}/a.md")),
                "{depth}: {}",
                dry.stdout
            );
            assert!(!dry.stderr.contains("ignored"), "{depth}: {}", dry.stderr);

            let mut args = vec!["restore", id.as_str()];
            args.extend_from_slice(flags);
            let out = repo.cp(&args);
            assert_eq!(out.code, 0, "{depth} {flags:?}: {}", out.stderr);
            assert!(!out.stderr.contains("ignored"), "{}", out.stderr);
            assert_eq!(
                contents(outside.path()),
                outside_before,
                "{depth} {flags:?}"
            );
            assert_eq!(git_dir_guarded(&repo), git_before, "{depth} {flags:?}");
            assert!(!is_symlink(&repo.path().join(depth)));
            assert_eq!(
                repo.read(&format!("{depth}/a.md")),
                "the checkpoint's a.md\n"
            );
            assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&id));
            if flags == ["--staged"] {
                assert_index_sound(&repo);
            }

            // The symlink itself is what the safety checkpoint holds: undo puts it back.
            let undo = repo.cp(&["undo"]);
            assert_eq!(undo.code, 0, "{}", undo.stderr);
            assert_eq!(
                fs::read_link(repo.path().join(depth)).unwrap(),
                outside.path()
            );
            assert_eq!(contents(outside.path()), outside_before);
            repo.fsck();
        }
    }
}

#[test]
fn a_symlink_into_the_git_directory_never_lets_restore_touch_it() {
    for (link, target) in [("hk", ".git"), ("x/hk", "../.git"), ("h", ".git/hooks")] {
        for flags in [&[][..], &["--force"]] {
            let repo = Repo::new();
            // A checkpoint whose tree has `<link>/config`, `<link>/index` and a hook name.
            let dir = link;
            repo.write(&format!("{dir}/config"), "[core]\n\tbare = true\n");
            repo.write(&format!("{dir}/index"), "not an index\n");
            repo.write(&format!("{dir}/pre-commit"), "#!/bin/sh\nexit 1\n");
            let id = repo.save(&["-q"]);
            fs::remove_dir_all(repo.path().join(dir)).unwrap();
            std::os::unix::fs::symlink(target, repo.path().join(dir)).unwrap();
            let git_before = git_dir_guarded(&repo);
            let index_before = fs::read(repo.path().join(".git/index")).unwrap_or_default();

            let mut args = vec!["restore", id.as_str()];
            args.extend_from_slice(flags);
            let out = repo.cp(&args);
            assert_eq!(out.code, 0, "{link} {flags:?}: {}", out.stderr);
            assert_eq!(git_dir_guarded(&repo), git_before, "{link} {flags:?}");
            assert_eq!(
                fs::read(repo.path().join(".git/index")).unwrap_or_default(),
                index_before
            );
            assert!(!repo.path().join(".git/pre-commit").exists());
            assert!(!repo.path().join(".git/hooks/pre-commit").exists());
            assert_eq!(repo.read(&format!("{dir}/index")), "not an index\n");
            repo.git(&["status", "--porcelain"]);
            repo.fsck();
        }
    }
}

#[test]
fn an_ignored_symlink_in_the_way_is_named_itself_and_kept_with_force() {
    let repo = Repo::new();
    repo.write(".gitignore", "/docs\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "ignore docs"]);
    // A checkpoint that has docs/a.md (added by force: it is ignored now).
    repo.write("docs/a.md", "tracked once\n");
    repo.git(&["add", "-f", "docs/a.md"]);
    repo.git(&["commit", "-qm", "docs"]);
    let id = repo.save(&["-q", "--allow-empty"]);
    repo.git(&["rm", "-q", "--cached", "docs/a.md"]);
    repo.git(&["commit", "-qm", "untrack docs"]);
    fs::remove_dir_all(repo.path().join("docs")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("a.md"), "outside\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.path().join("docs")).unwrap();
    let outside_before = contents(outside.path());

    let refused = repo.cp(&["restore", &id]).fails_with(1);
    assert!(refused.stderr.contains("`docs`"), "{}", refused.stderr);
    assert!(!refused.stderr.contains("docs/a.md"), "{}", refused.stderr);
    assert!(is_symlink(&repo.path().join("docs")));

    let forced = repo.cp(&["restore", &id, "--force"]).ok();
    assert!(forced.stdout.contains("R  docs"), "{}", forced.stdout);
    assert_eq!(contents(outside.path()), outside_before);
    assert_eq!(repo.read("docs/a.md"), "tracked once\n");
    // The symlink was kept in the safety checkpoint: undo brings it back (with --force, since
    // docs/a.md is ignored now, and itself kept in the undo's safety checkpoint).
    repo.cp(&["undo", "--force"]).ok();
    assert_eq!(
        fs::read_link(repo.path().join("docs")).unwrap(),
        outside.path()
    );
    assert_eq!(contents(outside.path()), outside_before);
    repo.fsck();
}

#[test]
fn a_symlink_and_a_directory_swap_both_ways_without_force() {
    let repo = Repo::new();
    repo.write("real/inside.txt", "inside\n");
    repo.symlink("real", "d");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "d is a link"]);
    let link_state = repo.save(&["-q", "--allow-empty"]);
    fs::remove_file(repo.path().join("d")).unwrap();
    repo.write("d/one.txt", "one\n");
    repo.write("d/sub/two.txt", "two\n");
    let dir_state = repo.save(&["-q"]);
    for (id, link) in [
        (&link_state, true),
        (&dir_state, false),
        (&link_state, true),
    ] {
        let out = repo.cp(&["restore", id]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(is_symlink(&repo.path().join("d")), link);
        assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(id));
        assert_eq!(repo.read("real/inside.txt"), "inside\n");
    }
    repo.fsck();
}

#[test]
fn a_fetched_checkpoint_cannot_reach_through_a_symlink_either() {
    let remote = Repo::init(&["--bare"]);
    let url = remote.path().to_str().unwrap().to_string();
    let a = Repo::with_commit(&[("README", "hello\n")]);
    a.git(&["remote", "add", "origin", &url]);
    a.git(&["push", "-q", "-u", "origin", "main"]);
    // Someone else's checkpoint: `hk/config` and `hk/hooks/post-checkout`.
    let blob = a.git_stdin(
        &["hash-object", "-w", "--stdin"],
        b"[core]\n\tbare = true\n",
    );
    let hook = a.git_stdin(
        &["hash-object", "-w", "--stdin"],
        b"#!/bin/sh\necho pwned\n",
    );
    let hooks = raw_tree(&a, &[("100755", b"post-checkout", &hook)]);
    let hk = raw_tree(
        &a,
        &[("100644", b"config", &blob), ("40000", b"hooks", &hooks)],
    );
    let readme = a.git(&["rev-parse", "HEAD:README"]);
    let tree = raw_tree(&a, &[("100644", b"README", &readme), ("40000", b"hk", &hk)]);
    let id = "20260101-000000-000abc";
    plant_checkpoint(&a, id, &tree);
    a.cp(&["push", "origin", id]).ok();

    let b = Repo::new();
    b.git(&["remote", "add", "origin", &url]);
    b.git(&["pull", "-q", "origin", "main"]);
    b.cp(&["fetch", "origin"]).ok();
    std::os::unix::fs::symlink(".git", b.path().join("hk")).unwrap();
    let git_before = git_dir_guarded(&b);
    for flags in [&["--dry-run"][..], &[], &["--force"]] {
        let mut args = vec!["restore", id];
        args.extend_from_slice(flags);
        let out = b.cp(&args);
        assert_eq!(out.code, 0, "{flags:?}: {}", out.stderr);
        assert_eq!(git_dir_guarded(&b), git_before, "{flags:?}");
    }
    assert_eq!(b.read("hk/config"), "[core]\n\tbare = true\n");
    b.fsck();
}

/// A filter command (for `filter.<driver>.clean` or `.smudge`) that, the first time it runs,
/// says so by creating `<dir>/started`, then waits until `<dir>/go` exists (60 s at most) and
/// passes its input through. A restore that runs it stops there until the test lets it go:
/// the test knows where the restore is without guessing a sleep.
fn gate_filter(dir: &Path) -> String {
    format!(
        "touch '{}'; i=0; while [ ! -e '{}' ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i+1)); done; cat",
        dir.join("started").display(),
        dir.join("go").display()
    )
}

/// A restore of `id` in `repo`, run in the background.
fn spawn_restore(repo: &Repo, id: &str) -> std::process::Child {
    let mut cmd = std::process::Command::new(crate::common::bin());
    repo.env(&mut cmd);
    cmd.args(["restore", id])
        .current_dir(repo.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait until the gate in `dir` (see [`gate_filter`]) is reached; fail, with what the restore
/// said, if it ends first (or after two minutes).
fn wait_at_gate(dir: &Path, child: &mut std::process::Child) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !dir.join("started").exists() {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            if let Some(mut err) = child.stderr.take() {
                std::io::Read::read_to_string(&mut err, &mut stderr).unwrap();
            }
            panic!("the restore ended ({status}) before reaching the gate: {stderr}");
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the restore never reached the gate"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Append `text` to the file at `path`, opening it for that alone, as a logger does.
fn append(path: &Path, text: &str) {
    let mut file = fs::OpenOptions::new().append(true).open(path).unwrap();
    std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
}

#[test]
fn a_file_changed_while_restore_runs_is_left_alone_never_lost() {
    let files = 16;
    let repo = Repo::new();
    let gate = repo.scratch().join("gate");
    fs::create_dir_all(&gate).unwrap();
    // Writing the first file stops at the gate: the restore has begun writing, and has not
    // looked at the others yet.
    repo.git(&["config", "filter.gate.smudge", &gate_filter(&gate)]);
    repo.git(&["config", "filter.gate.clean", "cat"]);
    repo.write(".gitattributes", "f* filter=gate\n");
    for i in 0..files {
        repo.write(
            &format!("f{i:02}"),
            &format!("checkpoint line of f{i:02}\n"),
        );
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = repo.save(&["-q", "--allow-empty"]);
    for i in 0..files {
        repo.write(
            &format!("f{i:02}"),
            &format!("work in progress on f{i:02}\n"),
        );
    }
    let mut child = spawn_restore(&repo, &id);
    wait_at_gate(&gate, &mut child);
    // While the restore writes the first file, another process appends to the last ones.
    let mut appended = Vec::new();
    for i in (files - 4)..files {
        for line in 0..50 {
            let text = format!("appended {line} to f{i:02}\n");
            append(&repo.path().join(format!("f{i:02}")), &text);
            appended.push((format!("f{i:02}"), text));
        }
    }
    fs::write(gate.join("go"), "").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Every appended line is still in its file: those files were left alone, and said so.
    for (file, line) in &appended {
        assert!(
            repo.read(file).contains(line.trim_end()),
            "{file}: lost {line:?}"
        );
        assert!(stderr.contains(&format!("`{file}`")), "{stderr}");
    }
    assert_eq!(
        out.status.code(),
        Some(1),
        "an incomplete restore fails: {stderr}"
    );
    // The others were restored, and the work in progress before the restore is in its safety
    // checkpoint.
    for i in 0..(files - 4) {
        assert_eq!(
            repo.read(&format!("f{i:02}")),
            format!("checkpoint line of f{i:02}\n")
        );
    }
    let safety = repo.checkpoint_ids().last().unwrap().clone();
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{safety}:f00")]),
        "work in progress on f00"
    );
    // Restoring again replaces them: their new content is saved first.
    let again = repo.cp(&["restore", &id]).ok();
    assert!(!again.stdout.contains('!'), "{}", again.stdout);
    let newest = repo.checkpoint_ids().last().unwrap().clone();
    let kept = repo.git(&[
        "show",
        &format!("refs/checkpoints/{newest}:f{:02}", files - 1),
    ]);
    assert!(kept.contains("appended 49"), "{kept}");
    repo.fsck();
}

#[test]
fn writers_racing_a_restore_of_many_files_lose_no_line() {
    // Hundreds of files: appended to, replaced by a rename, and files the restore deletes,
    // changed after the restore took its safety checkpoint and before it reaches them, and
    // appended to while it runs.
    const N: usize = 120;
    let repo = Repo::new();
    let gate = repo.scratch().join("gate");
    fs::create_dir_all(&gate).unwrap();
    // The last file the capture hashes holds it at the gate: everything is captured (the
    // safety checkpoint holds what the files had then), nothing restored yet.
    repo.git(&["config", "filter.gate.clean", &gate_filter(&gate)]);
    repo.write(".gitattributes", "zz-gate filter=gate\n");
    let name = |group: char, i: usize| format!("{group}/{group}{i:03}");
    for i in 0..N {
        for group in ['a', 'r', 'p'] {
            repo.write(&name(group, i), &format!("checkpoint {}\n", name(group, i)));
        }
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = repo.save(&["-q", "--allow-empty"]);
    // New since the checkpoint (committed, so that the capture reads them before the gate,
    // the one untracked file): the restore deletes these.
    for i in 0..N {
        repo.write(&name('d', i), &format!("new {}\n", name('d', i)));
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "new files"]);
    for i in 0..N {
        for group in ['a', 'r', 'p'] {
            repo.write(&name(group, i), &format!("work on {}\n", name(group, i)));
        }
    }
    repo.write("zz-gate", "gate\n");

    let mut child = spawn_restore(&repo, &id);
    wait_at_gate(&gate, &mut child);
    // Every line the writers add, by file.
    let mut written: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for i in 0..N {
        for group in ['a', 'd'] {
            let line = format!("appended before to {}\n", name(group, i));
            append(&repo.path().join(name(group, i)), &line);
            written.entry(name(group, i)).or_default().push(line);
        }
        // Replaced whole, by a rename over it, as editors save.
        let path = name('r', i);
        let tmp = repo.path().join(format!("{path}.tmp"));
        let line = format!("replaced {path}\n");
        fs::write(&tmp, &line).unwrap();
        fs::rename(&tmp, repo.path().join(&path)).unwrap();
        written.entry(path).or_default().push(line);
    }
    // Let it go, and keep appending to the files it must leave alone while it runs.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (stop, root) = (stop.clone(), repo.path().to_path_buf());
        std::thread::spawn(move || {
            let mut lines: Vec<(String, String)> = Vec::new();
            let mut round = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) && round < 1000 {
                for i in (round % 7..N).step_by(7) {
                    for group in ['a', 'd'] {
                        let path = format!("{group}/{group}{i:03}");
                        let line = format!("appended during {round} to {path}\n");
                        append(&root.join(&path), &line);
                        lines.push((path, line));
                    }
                }
                round += 1;
                // Paced, to leave the restore a core.
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            lines
        })
    };
    fs::write(gate.join("go"), "").unwrap();
    let out = child.wait_with_output().unwrap();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    for (path, line) in writer.join().unwrap() {
        written.entry(path).or_default().push(line);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stderr}");

    // No line is lost: each is in its file, which the restore left alone and said so.
    let safety = repo.checkpoint_ids().last().unwrap().clone();
    assert!(safety > id);
    let lines_of = |text: &str| -> std::collections::HashSet<String> {
        text.lines().map(str::to_string).collect()
    };
    for (path, lines) in &written {
        let now = lines_of(&repo.read(path));
        for line in lines {
            assert!(now.contains(line.trim_end()), "{path}: lost {line:?}");
        }
        assert!(stdout.contains(&format!("!  {path}\n")), "{path}: {stdout}");
        // What it held before is in the safety checkpoint.
        let before = repo.git(&["show", &format!("refs/checkpoints/{safety}:{path}")]);
        assert!(
            before == format!("work on {path}") || before == format!("new {path}"),
            "{path}: {before}"
        );
    }
    assert_eq!(written.len(), 3 * N);
    // What no one touched was restored (and the gate file, new since, deleted).
    for i in 0..N {
        let path = name('p', i);
        assert_eq!(repo.read(&path), format!("checkpoint {path}\n"));
    }
    assert!(!repo.path().join("zz-gate").exists());

    // Restoring again saves their new content first, then replaces them all.
    repo.cp(&["restore", &id, "-q"]).ok();
    let newest = repo.checkpoint_ids().last().unwrap().clone();
    for (path, lines) in &written {
        let saved = lines_of(&repo.git(&["show", &format!("refs/checkpoints/{newest}:{path}")]));
        for line in lines {
            assert!(saved.contains(line.trim_end()), "{path}: lost {line:?}");
        }
    }
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&id));
    repo.fsck();
}

#[test]
fn a_failed_restore_removes_the_directories_it_created() {
    let repo = Repo::with_commit(&[("keep.txt", "keep\n")]);
    let before = manifest(repo.path());
    // A tree deeper than any path the file system takes: 40 levels of 200-byte names.
    let blob = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"deep\n");
    let mut tree = raw_tree(&repo, &[("100644", b"leaf.txt", &blob)]);
    let name = "d".repeat(200);
    for _ in 0..40 {
        tree = raw_tree(&repo, &[("40000", name.as_bytes(), &tree)]);
    }
    let keep = repo.git(&["rev-parse", "HEAD:keep.txt"]);
    let top = raw_tree(
        &repo,
        &[("40000", b"a", &tree), ("100644", b"keep.txt", &keep)],
    );
    let id = "20260101-000000-000def";
    plant_checkpoint(&repo, id, &top);
    let out = repo.cp(&["restore", id, "-q"]).fails_with(1);
    assert!(out.stderr.contains("put back"), "{}", out.stderr);
    assert_eq!(manifest(repo.path()), before, "no directory left behind");
    assert!(!repo.path().join("a").exists());
    repo.fsck();
}

/// A tree holding `leaf.txt` below `levels` directories named `name`, as `a`.
fn tree_below_a(repo: &Repo, levels: usize, name: &str, leaf: &str) -> String {
    let blob = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"deep\n");
    let mut tree = raw_tree(repo, &[("100644", leaf.as_bytes(), &blob)]);
    for _ in 0..levels {
        tree = raw_tree(repo, &[("40000", name.as_bytes(), &tree)]);
    }
    let keep = repo.git(&["rev-parse", "HEAD:keep.txt"]);
    raw_tree(
        repo,
        &[("40000", b"a", &tree), ("100644", b"keep.txt", &keep)],
    )
}

#[test]
fn a_failed_restore_puts_back_a_file_it_replaced_by_a_directory() {
    // The checkpoint has a directory `a` where the working tree has a file: restore deletes
    // the file, creates directories, and then cannot write below them. Too deep for any path
    // (40 levels of 200-byte names), or one name too long (300 bytes) right below `a`.
    for (levels, name, leaf) in [
        (40, "d".repeat(200), "leaf.txt".to_string()),
        (0, String::new(), "x".repeat(300)),
        (3, "d".repeat(200), "y".repeat(300)),
    ] {
        let repo = Repo::with_commit(&[("a", "precious a\n"), ("keep.txt", "keep\n")]);
        let before = manifest(repo.path());
        let fingerprint = repo.fingerprint();
        let id = "20260101-000000-000fed";
        plant_checkpoint(&repo, id, &tree_below_a(&repo, levels, &name, &leaf));
        let out = repo.cp(&["restore", id, "-q"]).fails_with(1);
        let what = format!("{levels} levels, a leaf of {} bytes", leaf.len());
        assert!(
            out.stderr
                .contains("the working tree was put back as it was"),
            "{what}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("NOT"), "{what}: {}", out.stderr);
        assert_eq!(repo.read("a"), "precious a\n", "{what}");
        assert_eq!(manifest(repo.path()), before, "{what}");
        assert_eq!(repo.fingerprint(), fingerprint, "{what}");
        // Put back: nothing is left for the next command to complete.
        assert_eq!(fs::read(journal_path(&repo)).unwrap(), b"", "{what}");
        let next = repo.cp(&["save", "-q"]).ok();
        assert!(
            !next.stderr.contains("interrupted"),
            "{what}: {}",
            next.stderr
        );
        assert_eq!(repo.git(&["status", "--porcelain"]), "", "{what}");
        repo.fsck();
    }
}

#[test]
fn paths_checkpoint_exclude_leaves_out_are_never_touched_by_restore() {
    for flags in [
        &[][..],
        &["--force"],
        &["--dry-run"],
        &["--staged"],
        &["--", ".env", "secrets", "notes.txt", "cfg", "a.txt"],
    ] {
        let repo = Repo::with_commit(&[
            (".env", "old secret\n"),
            ("secrets/key", "old key\n"),
            ("cfg", "a file once\n"),
            ("a.txt", "a1\n"),
        ]);
        repo.write("notes.txt", "old notes\n");
        // Taken before the paths were excluded: it holds them.
        let old = repo.save(&["-q"]);
        for pattern in [".env", "secrets/", "notes.txt", "*.local"] {
            repo.git(&["config", "--add", "checkpoint.exclude", pattern]);
        }
        repo.write(".env", "new secret\n");
        repo.write("secrets/key", "new key\n");
        repo.write("secrets/new", "new\n");
        repo.remove("notes.txt");
        // An excluded file below a directory standing where the checkpoint has a file.
        repo.remove("cfg");
        repo.write("cfg/x.local", "local\n");
        repo.write("a.txt", "a2\n");
        let excluded_state = |what: &str| {
            assert_eq!(repo.read(".env"), "new secret\n", "{what}");
            assert_eq!(repo.read("secrets/key"), "new key\n", "{what}");
            assert_eq!(repo.read("secrets/new"), "new\n", "{what}");
            assert!(!repo.path().join("notes.txt").exists(), "{what}");
            assert_eq!(repo.read("cfg/x.local"), "local\n", "{what}");
        };
        let ids = repo.checkpoint_ids();

        let mut args = vec!["restore", old.as_str()];
        args.extend_from_slice(flags);
        let out = repo.cp(&args);
        let what = format!("{flags:?}");
        assert_eq!(out.code, 0, "{what}: {}", out.stderr);
        // Listed nothing for them: only a.txt is written.
        assert_eq!(out.stdout, "W  a.txt\n", "{what}: {}", out.stderr);
        assert!(
            out.stderr.contains("checkpoint.exclude") && out.stderr.contains("`.env`"),
            "{what}: {}",
            out.stderr
        );
        excluded_state(&what);
        if flags == ["--dry-run"] {
            assert_eq!(repo.read("a.txt"), "a2\n");
            assert_eq!(repo.checkpoint_ids(), ids, "a dry run saves nothing");
            continue;
        }
        assert_eq!(repo.read("a.txt"), "a1\n", "{what}");
        // The safety checkpoint captured none of it (no secret went into it).
        let safety = repo.checkpoint_ids().last().unwrap().clone();
        assert!(!ids.contains(&safety), "{what}");
        let held = repo.checkpoint_files(&safety);
        for path in [".env", "secrets/key", "secrets/new", "cfg/x.local"] {
            assert!(
                !held.contains(&path.to_string()),
                "{what}: {path} in {held:?}"
            );
        }
        assert_eq!(held, ["a.txt"], "{what}");

        // Against the working tree, diff says nothing of them either (restore would not touch
        // them); between two checkpoints it shows what each holds.
        let names = repo.cp(&["diff", &old, "--name-only"]).ok().stdout;
        for path in [".env", "secrets/key", "notes.txt"] {
            assert!(!names.lines().any(|l| l == path), "{what}: {names}");
        }
        let between = repo.cp(&["diff", &old, &safety, "--name-only"]).ok().stdout;
        assert!(between.lines().any(|l| l == ".env"), "{between}");

        // Undo leaves them alone too.
        repo.cp(&["undo", "-q"]).ok();
        assert_eq!(repo.read("a.txt"), "a2\n", "{what}");
        excluded_state(&what);
        repo.fsck();
    }
}

#[test]
fn a_symlinked_ancestor_above_the_parent_is_replaced_never_looked_through() {
    // The checkpoint has `a/b/c/f`; now `a` (or `a/b`) is a symlink to a directory outside
    // that mirrors the paths below it, with a file of its own at `.../c/f`.
    let path_restores: [&[&str]; 2] = [&["--", "a/b/c/f"], &["--", "a/b"]];
    for link in ["a", "a/b"] {
        for flags in [&[][..], &["--force"], &["--staged"], &["--dry-run"]]
            .into_iter()
            .chain(path_restores)
        {
            let what = format!("{link} {flags:?}");
            let repo = Repo::new();
            let outside = tempfile::tempdir().unwrap();
            let below = "a/b/c/f".strip_prefix(&format!("{link}/")).unwrap();
            let mirrored = outside.path().join(below);
            fs::create_dir_all(mirrored.parent().unwrap()).unwrap();
            fs::write(&mirrored, "someone else's f\n").unwrap();
            repo.write("a/b/c/f", "the checkpoint's f\n");
            repo.write("a/b/side.txt", "side\n");
            repo.write("top.txt", "top\n");
            repo.git(&["add", "-A"]);
            repo.git(&["commit", "-qm", "base"]);
            let id = repo.save(&["-q"]);
            fs::remove_dir_all(repo.path().join(link)).unwrap();
            std::os::unix::fs::symlink(outside.path(), repo.path().join(link)).unwrap();
            let outside_before = contents(outside.path());
            let git_before = git_dir_guarded(&repo);

            let mut args = vec!["restore", id.as_str()];
            args.extend_from_slice(flags);
            let out = repo.cp(&args);
            assert_eq!(out.code, 0, "{what}: {}", out.stderr);
            assert!(!out.stderr.contains("ignored"), "{what}: {}", out.stderr);
            assert!(out.stdout.contains("W  a/b/c/f"), "{what}: {}", out.stdout);
            assert_eq!(contents(outside.path()), outside_before, "{what}");
            assert_eq!(git_dir_guarded(&repo), git_before, "{what}");
            if flags == ["--dry-run"] {
                assert!(is_symlink(&repo.path().join(link)), "{what}");
                continue;
            }
            assert!(!is_symlink(&repo.path().join(link)), "{what}");
            assert_eq!(repo.read("a/b/c/f"), "the checkpoint's f\n", "{what}");
            if flags == ["--", "a/b/c/f"] {
                // The symlink made way for that file alone.
                assert!(!repo.path().join("a/b/side.txt").exists(), "{what}");
            } else {
                assert_eq!(repo.read("a/b/side.txt"), "side\n", "{what}");
                assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&id), "{what}");
            }
            if flags == ["--staged"] {
                assert_index_sound(&repo);
            }
            // The symlink is what the safety checkpoint holds: undo brings it back.
            repo.cp(&["undo", "-q"]).ok();
            assert_eq!(
                fs::read_link(repo.path().join(link)).unwrap(),
                outside.path(),
                "{what}"
            );
            assert_eq!(contents(outside.path()), outside_before, "{what}");
            repo.fsck();
        }
    }
}

#[test]
fn fetched_checkpoints_with_deep_links_leading_outside_never_reach_through_them() {
    let remote = Repo::init(&["--bare"]);
    let url = remote.path().to_str().unwrap().to_string();
    let a = Repo::with_commit(&[("README", "hello\n")]);
    a.git(&["remote", "add", "origin", &url]);
    a.git(&["push", "-q", "-u", "origin", "main"]);
    let blob = |content: &[u8]| a.git_stdin(&["hash-object", "-w", "--stdin"], content);
    let readme = a.git(&["rev-parse", "HEAD:README"]);
    // Someone else's two checkpoints: in the first, `x/y/l` is a symlink leading out of the
    // work tree (three levels up); in the second, a directory at the same place, with files
    // named as those outside.
    let out_link = blob(b"../../../outside-target");
    let z = raw_tree(&a, &[("100644", b"f", &blob(b"z/f\n"))]);
    let y1 = raw_tree(&a, &[("120000", b"l", &out_link), ("40000", b"z", &z)]);
    let deeper = raw_tree(&a, &[("100644", b"g", &blob(b"fetched g\n"))]);
    let l = raw_tree(
        &a,
        &[
            ("40000", b"deeper", &deeper),
            ("100644", b"f", &blob(b"fetched f\n")),
        ],
    );
    let y2 = raw_tree(&a, &[("40000", b"l", &l), ("40000", b"z", &z)]);
    let top = |y: &str| {
        let x = raw_tree(&a, &[("40000", b"y", y)]);
        raw_tree(&a, &[("100644", b"README", &readme), ("40000", b"x", &x)])
    };
    let (linked, filled) = ("20260101-000000-000aa1", "20260101-000000-000aa2");
    plant_checkpoint(&a, linked, &top(&y1));
    plant_checkpoint(&a, filled, &top(&y2));
    a.cp(&["push", "origin", linked, filled]).ok();

    let b = Repo::new();
    b.git(&["remote", "add", "origin", &url]);
    b.git(&["pull", "-q", "origin", "main"]);
    b.cp(&["fetch", "origin"]).ok();
    // What the link leads to, and what the second checkpoint's paths would reach through it.
    let outside = b.path().parent().unwrap().join("outside-target");
    fs::create_dir_all(outside.join("deeper")).unwrap();
    fs::write(outside.join("f"), "outside f\n").unwrap();
    fs::write(outside.join("deeper/g"), "outside g\n").unwrap();
    let outside_before = contents(&outside);
    let git_before = git_dir_guarded(&b);
    let flag_sets: [&[&str]; 6] = [
        &["--dry-run"],
        &[],
        &["--force"],
        &["--staged"],
        &["--", "x/y/l/f"],
        &["--", "x/y"],
    ];
    for flags in flag_sets {
        let what = format!("{flags:?}");
        // The link, as the first checkpoint has it: content like any other, written as a link.
        b.cp(&["restore", linked, "-q"]).ok();
        assert_eq!(
            fs::read_link(b.path().join("x/y/l")).unwrap(),
            Path::new("../../../outside-target")
        );
        let mut args = vec!["restore", filled];
        args.extend_from_slice(flags);
        let out = b.cp(&args);
        assert_eq!(out.code, 0, "{what}: {}", out.stderr);
        assert!(out.stdout.contains("W  x/y/l/f"), "{what}: {}", out.stdout);
        assert_eq!(contents(&outside), outside_before, "{what}");
        assert_eq!(git_dir_guarded(&b), git_before, "{what}");
        if flags == ["--dry-run"] {
            assert!(is_symlink(&b.path().join("x/y/l")), "{what}");
            continue;
        }
        assert!(!is_symlink(&b.path().join("x/y/l")), "{what}");
        assert_eq!(b.read("x/y/l/f"), "fetched f\n", "{what}");
        if flags != ["--", "x/y/l/f"] {
            assert_eq!(b.read("x/y/l/deeper/g"), "fetched g\n", "{what}");
            assert_eq!(b.oracle_tree(), b.checkpoint_tree(filled), "{what}");
        }
        if flags == ["--staged"] {
            assert_index_sound(&b);
        }
    }
    // The user's own link above them all: `x` leading outside, where the same paths exist.
    fs::remove_dir_all(b.path().join("x")).unwrap();
    fs::create_dir_all(outside.join("y/l")).unwrap();
    fs::write(outside.join("y/l/f"), "outside y/l/f\n").unwrap();
    let outside_before = contents(&outside);
    std::os::unix::fs::symlink(&outside, b.path().join("x")).unwrap();
    for flags in [&["--dry-run"][..], &["--", "x/y/l/f"], &[]] {
        let mut args = vec!["restore", filled];
        args.extend_from_slice(flags);
        let out = b.cp(&args);
        assert_eq!(out.code, 0, "{flags:?}: {}", out.stderr);
        assert_eq!(contents(&outside), outside_before, "{flags:?}");
    }
    assert_eq!(b.oracle_tree(), b.checkpoint_tree(filled));
    b.fsck();
}
