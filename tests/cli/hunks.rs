//! Hunks and sessions: `diff --json`'s hunk ids, `restore --hunk` / `revert --hunk` and `-p`
//! checked against `git apply -R` of the same hunk, and `revert session:<ID>` / `--agent`
//! taking back exactly one session's steps. (The random interleavings of two sessions and a
//! user are the library's `session_tests`, in process: a thousand of them.)

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::Value;

use crate::common::*;

/// Each hunk of `diff --json args…`: (path, id, the hunk as a patch of its own).
fn hunks(repo: &Repo, args: &[&str]) -> Vec<(String, String, String)> {
    let mut full = vec!["diff", "--json"];
    full.extend_from_slice(args);
    let out = repo.cp(&full).ok();
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let mut found = Vec::new();
    for file in json["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap().to_string();
        let old = file["old_path"].as_str().unwrap_or(&path).to_string();
        for hunk in file["hunks"].as_array().unwrap() {
            let id = hunk["id"].as_str().unwrap().to_string();
            let mut patch = format!(
                "--- {}\n+++ {}\n{}\n",
                if file["status"] == "A" {
                    "/dev/null".into()
                } else {
                    format!("a/{old}")
                },
                if file["status"] == "D" {
                    "/dev/null".into()
                } else {
                    format!("b/{path}")
                },
                hunk["header"].as_str().unwrap()
            );
            for line in hunk["lines"].as_array().unwrap() {
                patch.push_str(line.as_str().unwrap());
                patch.push('\n');
            }
            found.push((path.clone(), id, patch));
        }
    }
    found
}

/// What `git apply -R` of `patch` makes of `path` in the working tree as it is now (the
/// working tree is left as it was).
fn git_apply_reverse(repo: &Repo, path: &str, patch: &str) -> Option<Vec<u8>> {
    let file = repo.path().join(path);
    let saved = std::fs::read(&file).ok();
    let patch_file = repo.scratch().join("hunk.patch");
    std::fs::write(&patch_file, patch).unwrap();
    let applied = repo.git_ok(&["apply", "-R", &patch_file.display().to_string()]);
    let result = applied.then(|| std::fs::read(&file).unwrap_or_default());
    match saved {
        Some(bytes) => std::fs::write(&file, bytes).unwrap(),
        None => {
            let _ = std::fs::remove_file(&file);
        }
    }
    result
}

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

fn everything(repo: &Repo) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    walk(repo.path(), repo.path(), &mut out);
    out.sort();
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        if rel == ".git" {
            continue;
        }
        let md = std::fs::symlink_metadata(&path).unwrap();
        if md.is_dir() {
            out.push((format!("{rel}/"), Vec::new()));
            walk(root, &path, out);
        } else if md.file_type().is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            out.push((format!("{rel}@"), target.display().to_string().into_bytes()));
        } else {
            out.push((rel, std::fs::read(&path).unwrap()));
        }
    }
}

/// A checkpoint `A` of 40 numbered lines, then a step to `B` changing lines 5 and 30: two
/// hunks.
fn two_hunk_step() -> (Repo, String, String) {
    let repo = Repo::with_commit(&[("a.txt", &numbered(40))]);
    let a = repo.save(&["-q"]);
    repo.write(
        "a.txt",
        &numbered(40)
            .replace("line 5\n", "five\n")
            .replace("line 30\n", "thirty\n"),
    );
    let b = repo.save(&["-q"]);
    (repo, a, b)
}

/// The ids depend only on the two sides' content: the same whether the newer side is the
/// working tree or a checkpoint of it, the same for an unchanged hunk when another part of the
/// file changes, and different once the hunk's own lines change.
#[test]
fn hunk_ids_depend_only_on_the_two_sides_content() {
    let repo = Repo::with_commit(&[("a.txt", &numbered(40)), ("b.txt", "b\n")]);
    let a = repo.save(&["-q"]);
    let edited = numbered(40)
        .replace("line 3\n", "three\n")
        .replace("line 30\n", "thirty\n");
    repo.write("a.txt", &edited);
    repo.write("b.txt", "b changed\n");
    let against_worktree = hunks(&repo, &[&a]);
    assert_eq!(against_worktree.len(), 3);
    let b = repo.save(&["-q"]);
    let between_checkpoints = hunks(&repo, &[&a, &b]);
    assert_eq!(against_worktree, between_checkpoints);
    // Every id is 16 lowercase hex digits, all different.
    let ids: Vec<&String> = against_worktree.iter().map(|(_, id, _)| id).collect();
    for id in &ids {
        assert!(
            id.len() == 16
                && id
                    .bytes()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
            "{id}"
        );
    }
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(unique.len(), ids.len());
    // Another part of a.txt edited: the first hunk keeps its id; editing in it changes it.
    repo.write("a.txt", &edited.replace("line 15\n", "fifteen\n"));
    let now = hunks(&repo, &[&a]);
    assert!(now.iter().any(|h| h.1 == against_worktree[0].1));
    assert!(now.iter().any(|h| h.1 == against_worktree[1].1));
    repo.write("a.txt", &edited.replace("line 4\n", "four\n"));
    let now = hunks(&repo, &[&a]);
    assert!(
        !now.iter().any(|h| h.1 == against_worktree[0].1),
        "its lines changed"
    );
    assert!(now.iter().any(|h| h.1 == against_worktree[1].1));
}

/// Restoring one hunk is what `git apply -R` of that hunk alone gives, on random edits of
/// files (lines changed, added and removed, files added and deleted); the other hunks stay;
/// `undo` brings the working tree back exactly; a safety checkpoint is taken first.
#[test]
fn restoring_one_hunk_is_git_apply_reverse_of_that_hunk_and_undoable() {
    let mut seed = 7u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let base: Vec<(String, String)> = (0..3)
        .map(|f| (format!("f{f}.txt"), numbered(25 + 10 * f)))
        .collect();
    let files: Vec<(&str, &str)> = base.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let repo = Repo::with_commit(&files);
    let cp = repo.save(&["-q"]);
    for round in 0..6 {
        // Random edits of every file, a new file and, once, a deleted one.
        for (path, content) in &base {
            let mut lines: Vec<String> = content.lines().map(str::to_string).collect();
            for e in 0..1 + next(4) {
                let at = next(lines.len());
                match next(3) {
                    0 => lines[at] = format!("changed {round}.{e}"),
                    1 => lines.insert(at, format!("added {round}.{e}")),
                    _ => {
                        lines.remove(at);
                    }
                }
            }
            let mut text = lines.join("\n");
            if next(4) > 0 {
                text.push('\n');
            }
            repo.write(path, &text);
        }
        repo.write("new.txt", &format!("new {round}\nfile\n"));
        if round == 3 {
            repo.remove("f1.txt");
        }
        let all = hunks(&repo, &[&cp]);
        assert!(all.len() >= 3, "{all:?}");
        let (path, id, patch) = all[next(all.len())].clone();
        let expected = git_apply_reverse(&repo, &path, &patch)
            .unwrap_or_else(|| panic!("git apply -R takes the hunk:\n{patch}"));
        let before = everything(&repo);
        let out = repo.cp(&["restore", &cp, "--hunk", &id]).ok();
        assert!(
            out.stderr
                .starts_with(&format!("restored 1 hunk of checkpoint {cp}: ")),
            "{}",
            out.stderr
        );
        let after = everything(&repo);
        if expected.is_empty() && patch.contains("--- /dev/null") {
            assert!(
                !repo.path().join(&path).exists(),
                "an added file's hunk removes the file"
            );
        } else {
            assert_eq!(
                String::from_utf8_lossy(&std::fs::read(repo.path().join(&path)).unwrap()),
                String::from_utf8_lossy(&expected),
                "round {round}, {path}:\n{patch}"
            );
        }
        // Every other file as it was.
        let others = |files: &[(String, Vec<u8>)]| {
            files
                .iter()
                .filter(|(p, _)| *p != path)
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(others(&before), others(&after));
        // The other hunks are still there, with the same ids.
        let left: Vec<String> = hunks(&repo, &[&cp]).into_iter().map(|h| h.1).collect();
        for (_, other, _) in all.iter().filter(|h| h.1 != id) {
            assert!(left.contains(other), "hunk {other} kept");
        }
        repo.cp(&["undo"]).ok();
        assert_eq!(
            everything(&repo),
            before,
            "undo brings back the working tree"
        );
        repo.fsck();
    }
}

/// Taking back one hunk of a step keeps later work, in the same file too, as `git apply -R`
/// of that hunk does (it finds the hunk where later edits moved it), and refuses, naming the
/// hunk and changing nothing, once the hunk's lines were edited since.
#[test]
fn reverting_one_hunk_of_a_step_keeps_later_work_as_git_apply_does() {
    let (repo, a, b) = two_hunk_step();
    let step = hunks(&repo, &[&a, &b]);
    assert_eq!(step.len(), 2);
    // Later work: lines added at the top (the hunks move) and one far from both.
    let later = format!(
        "top 1\ntop 2\n{}",
        numbered(40)
            .replace("line 5\n", "five\n")
            .replace("line 30\n", "thirty\n")
            .replace("line 18\n", "eighteen\n")
    );
    repo.write("a.txt", &later);
    let (_, id, patch) = &step[1];
    let expected = git_apply_reverse(&repo, "a.txt", patch).unwrap();
    let out = repo.cp(&["revert", &a, &b, "--hunk", id]).ok();
    assert!(
        out.stderr.starts_with(&format!(
            "reverted 1 hunk of the change from checkpoint {a} to {b}"
        )),
        "{}",
        out.stderr
    );
    assert_eq!(repo.read("a.txt"), String::from_utf8(expected).unwrap());
    assert!(repo.read("a.txt").contains("five\n") && repo.read("a.txt").contains("eighteen\n"));
    repo.cp(&["undo"]).ok();
    assert_eq!(repo.read("a.txt"), later);
    // The first hunk's lines edited since: refused, named, nothing changed.
    let edited = later.replace("five\n", "FIVE\n");
    repo.write("a.txt", &edited);
    let before = everything(&repo);
    let out = repo
        .cp(&["revert", &a, &b, "--hunk", &step[0].1])
        .fails_with(1);
    out.assert_one_error_line();
    assert!(
        out.stderr.contains(&step[0].1) && out.stderr.contains("a.txt"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("nothing was changed"), "{}", out.stderr);
    assert_eq!(everything(&repo), before);
    assert!(
        git_apply_reverse(&repo, "a.txt", &step[0].2).is_none(),
        "git apply -R refuses it too"
    );
}

/// Bad input: ids that are not ids, unknown ids, another comparison's ids, a binary file, a
/// file that is now a directory or a symlink, `--hunk` with paths: one clear error line,
/// nothing changed, no checkpoint made.
#[test]
fn bad_hunk_ids_are_refused_and_change_nothing() {
    let repo = Repo::with_commit(&[
        ("a.txt", &numbered(20)),
        ("b.txt", &numbered(20)),
        ("c.bin", "bin\0ary\n"),
    ]);
    let cp = repo.save(&["-q"]);
    repo.write("a.txt", &numbered(20).replace("line 2\n", "two\n"));
    repo.write("b.txt", &numbered(20).replace("line 2\n", "two\n"));
    repo.write_bytes("c.bin", b"bin\0ary changed\n");
    let all = hunks(&repo, &[&cp]);
    assert_eq!(all.len(), 2, "a binary file has no hunks: {all:?}");
    let id_of = |path: &str| all.iter().find(|h| h.0 == path).unwrap().1.clone();
    let checkpoints = |repo: &Repo| repo.cp(&["list", "--json"]).ok().stdout;
    let refused = |args: &[&str], code: i32, says: &str| {
        let before = (everything(&repo), checkpoints(&repo));
        let out = repo.cp(args).fails_with(code);
        if code == 1 {
            out.assert_one_error_line();
        }
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
        assert_eq!(
            (everything(&repo), checkpoints(&repo)),
            before,
            "{args:?} changed nothing"
        );
    };
    refused(&["restore", &cp, "--hunk", "nothex"], 1, "is not a hunk id");
    refused(
        &["restore", &cp, "--hunk", "0123456789abcdef"],
        1,
        "no hunk `0123456789abcdef`",
    );
    // One good id and one bad: nothing at all.
    refused(
        &[
            "restore",
            &cp,
            "--hunk",
            &id_of("a.txt"),
            "--hunk",
            "0123456789abcdef",
        ],
        1,
        "no hunk",
    );
    refused(
        &["restore", &cp, "--hunk", &id_of("a.txt"), "--", "a.txt"],
        2,
        "cannot be used with",
    );
    // Another comparison's id: a hunk between two checkpoints, given to restore.
    let cp2 = repo.save(&["-q"]);
    repo.write("a.txt", &numbered(20).replace("line 12\n", "twelve\n"));
    let other = hunks(&repo, &[&cp2]);
    refused(&["restore", &cp, "--hunk", &other[0].1], 1, "no hunk");
    // The binary file: the id its text version had.
    repo.write_bytes("b.txt", b"now\0binary\n");
    refused(&["restore", &cp, "--hunk", &id_of("b.txt")], 1, "binary");
    // A file that is now a directory, or a symlink.
    repo.remove("b.txt");
    repo.write("b.txt/inside.txt", "x\n");
    refused(&["restore", &cp, "--hunk", &id_of("b.txt")], 1, "directory");
    std::fs::remove_dir_all(repo.path().join("b.txt")).unwrap();
    repo.symlink("a.txt", "b.txt");
    refused(&["restore", &cp, "--hunk", &id_of("b.txt")], 1, "symlink");
    // Revert: a hunk of a session's steps is refused (hunks are one step's).
    refused(
        &["revert", &cp, &cp2, "--hunk", "0123456789abcdef"],
        1,
        "no hunk",
    );
}

/// `restore -p` asks hunk by hunk as `git restore -p` does: answers from standard input, `s`
/// splitting a hunk of two runs, `q` leaving the rest; only the chosen hunks are restored.
#[test]
fn restore_p_restores_the_hunks_answered_yes() {
    let repo = Repo::with_commit(&[("a.txt", &numbered(40)), ("b.txt", &numbered(10))]);
    let cp = repo.save(&["-q"]);
    // a.txt: one hunk of two runs (lines 4 and 8), one of one (line 30); b.txt: one.
    let edited = numbered(40)
        .replace("line 4\n", "four\n")
        .replace("line 8\n", "eight\n")
        .replace("line 30\n", "thirty\n");
    repo.write("a.txt", &edited);
    repo.write("b.txt", &numbered(10).replace("line 1\n", "one\n"));
    let out = repo.cp_stdin(
        repo.path(),
        |_| {},
        &["restore", &cp, "-p"],
        b"s\nn\ny\nn\ny\n",
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("Split into 2 hunks."), "{}", out.stdout);
    assert!(out.stdout.contains("[y,n,q,a,d,s,?]? "), "{}", out.stdout);
    // Answers: split the first, no to "four", yes to "eight", no to "thirty", yes to b.txt.
    assert_eq!(repo.read("a.txt"), edited.replace("eight\n", "line 8\n"));
    assert_eq!(repo.read("b.txt"), numbered(10));
    assert!(
        out.stderr
            .starts_with(&format!("restored 2 hunks of checkpoint {cp}")),
        "{}",
        out.stderr
    );
    repo.cp(&["undo"]).ok();
    // q at once: nothing restored, nothing saved, exit 0.
    let before = repo.cp(&["list", "--json"]).ok().stdout;
    let out = repo.cp_stdin(repo.path(), |_| {}, &["restore", &cp, "-p"], b"q\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("nothing was changed"), "{}", out.stderr);
    assert_eq!(repo.read("a.txt"), edited);
    assert_eq!(repo.cp(&["list", "--json"]).ok().stdout, before);
    // a: this and the rest of the file; then d: none of b.txt.
    repo.cp_stdin(repo.path(), |_| {}, &["restore", &cp, "-p"], b"a\nd\n")
        .ok();
    assert_eq!(repo.read("a.txt"), numbered(40));
    assert_eq!(
        repo.read("b.txt"),
        numbered(10).replace("line 1\n", "one\n")
    );
}

/// In a real terminal (tmux), `revert -p` shows a hunk and takes the answer typed.
#[test]
fn revert_p_asks_in_a_terminal() {
    let (repo, a, b) = two_hunk_step();
    let Some(term) = crate::picker::Tmux::start(&repo, &["revert", &a, &b, "-p"]) else {
        return;
    };
    term.wait_for("(1/2) Take back this hunk from the working tree [y,n,q,a,d,?]?");
    assert!(term.screen().contains("+five"), "{}", term.screen());
    term.keys(&["n", "Enter"]);
    term.wait_for("(2/2)");
    term.keys(&["y", "Enter"]);
    term.wait_for("exit=0");
    assert_eq!(
        repo.read("a.txt"),
        numbered(40).replace("line 5\n", "five\n")
    );
}

/// A hook's saves as Claude Code gives them: before a tool call, or at the end of a turn.
fn hook(repo: &Repo, session: &str, event: &str) {
    let input = format!(
        r#"{{"session_id":"{session}","transcript_path":"","cwd":"{}","hook_event_name":"{event}","tool_name":"Edit","tool_input":{{"file_path":"f.txt"}}}}"#,
        repo.path().display()
    );
    let input = if event == "Stop" {
        format!(
            r#"{{"session_id":"{session}","transcript_path":"","cwd":"{}","hook_event_name":"Stop","stop_hook_active":false}}"#,
            repo.path().display()
        )
    } else {
        input
    };
    repo.cp_stdin(
        repo.path(),
        |_| {},
        &["save", "--from-hook=claude-code", "-q"],
        input.as_bytes(),
    )
    .ok();
}

/// Two sessions interleaved in one worktree, and the user between turns: `revert
/// session:<ID>` takes back exactly that session's steps and keeps every line of the others;
/// `--agent` every session of that agent; where lines overlap it refuses, naming the file and
/// the lines, and changes nothing.
#[test]
fn a_session_s_own_steps_are_taken_back_keeping_the_others() {
    let repo = Repo::with_commit(&[("f.txt", &numbered(30)), ("g.txt", &numbered(10))]);
    let edit = |path: &str, from: &str, to: &str| {
        let text = repo.read(path);
        assert!(text.contains(from));
        repo.write(path, &text.replacen(from, to, 1));
    };
    hook(&repo, "A", "PreToolUse");
    edit("f.txt", "line 2\n", "A two\n");
    hook(&repo, "B", "PreToolUse");
    edit("f.txt", "line 15\n", "B fifteen\n");
    repo.write("b-new.txt", "B's file\n");
    hook(&repo, "A", "PreToolUse");
    edit("f.txt", "line 28\n", "A twenty-eight\n");
    repo.write("a-new.txt", "A's file\n");
    hook(&repo, "A", "Stop");
    // The user, between turns.
    edit("g.txt", "line 5\n", "user five\n");
    hook(&repo, "B", "PreToolUse");
    edit("f.txt", "line 22\n", "B twenty-two\n");
    let before = repo.read("f.txt");
    let out = repo.cp(&["revert", "session:A"]).ok();
    assert!(
        out.stderr
            .starts_with("reverted the 2 own steps of session A: "),
        "{}",
        out.stderr
    );
    let f = repo.read("f.txt");
    assert_eq!(
        f,
        before
            .replace("A two\n", "line 2\n")
            .replace("A twenty-eight\n", "line 28\n")
    );
    assert!(!repo.path().join("a-new.txt").exists());
    assert_eq!(repo.read("b-new.txt"), "B's file\n");
    assert_eq!(
        repo.read("g.txt"),
        numbered(10).replace("line 5\n", "user five\n")
    );
    repo.cp(&["undo"]).ok();
    assert_eq!(repo.read("f.txt"), before);
    // The user then edits a line next to one of A's: refused, naming it.
    edit("f.txt", "line 27\n", "user twenty-seven\n");
    let tree = repo.oracle_tree();
    let out = repo.cp(&["revert", "session:A"]).fails_with(1);
    out.assert_one_error_line();
    assert!(out.stderr.contains("`f.txt` (line"), "{}", out.stderr);
    assert!(out.stderr.contains("nothing was changed"), "{}", out.stderr);
    assert_eq!(repo.oracle_tree(), tree);
    edit("f.txt", "user twenty-seven\n", "line 27\n");
    // --agent: both sessions are claude-code's: every step of both, the user's line kept.
    repo.cp(&["revert", "--agent", "claude-code"]).ok();
    assert_eq!(repo.read("f.txt"), numbered(30));
    assert!(!repo.path().join("b-new.txt").exists() && !repo.path().join("a-new.txt").exists());
    assert_eq!(
        repo.read("g.txt"),
        numbered(10).replace("line 5\n", "user five\n")
    );
    // An agent with no steps here says so.
    let out = repo.cp(&["revert", "--agent", "codex"]).fails_with(1);
    assert!(out.stderr.contains("no step"), "{}", out.stderr);
    // -p and --hunk take one step's hunks, not a session's.
    let out = repo
        .cp(&["revert", "session:A", "--hunk", "0123456789abcdef"])
        .fails_with(1);
    assert!(out.stderr.contains("one step"), "{}", out.stderr);
    repo.fsck();
}

/// The one hunk of a deleted file brings it back (with its mode); of an added file removes it;
/// all of a file's hunks give the checkpoint's file exactly. The same through revert.
#[test]
fn whole_file_hunks_bring_back_or_remove_the_file() {
    let repo = Repo::with_commit(&[
        ("gone.sh", "#!/bin/sh\necho hi\n"),
        ("kept.txt", &numbered(30)),
    ]);
    repo.chmod_x("gone.sh", true);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "x"]);
    let cp = repo.save(&["-q"]);
    repo.remove("gone.sh");
    repo.write("added.txt", "one\ntwo\n");
    repo.write(
        "kept.txt",
        &numbered(30)
            .replace("line 2\n", "two\n")
            .replace("line 29\n", "x\n"),
    );
    let all = hunks(&repo, &[&cp]);
    let id = |path: &str| -> Vec<String> {
        all.iter()
            .filter(|h| h.0 == path)
            .map(|h| h.1.clone())
            .collect()
    };
    let mut args = vec!["restore".to_string(), cp.clone()];
    for h in id("gone.sh")
        .iter()
        .chain(&id("added.txt"))
        .chain(&id("kept.txt"))
    {
        args.push("--hunk".into());
        args.push(h.clone());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    repo.cp(&args).ok();
    assert_eq!(repo.read("gone.sh"), "#!/bin/sh\necho hi\n");
    assert!(
        repo.path()
            .join("gone.sh")
            .metadata()
            .unwrap()
            .permissions()
            .mode()
            & 0o111
            != 0
    );
    assert!(!repo.path().join("added.txt").exists());
    assert_eq!(repo.read("kept.txt"), numbered(30));
    // Revert: the step that deleted and added files, one hunk each.
    repo.remove("gone.sh");
    repo.write("added.txt", "one\ntwo\n");
    let b = repo.save(&["-q"]);
    let step = hunks(&repo, &[&cp, &b]);
    let of = |path: &str| step.iter().find(|h| h.0 == path).unwrap().1.clone();
    repo.cp(&[
        "revert",
        &cp,
        &b,
        "--hunk",
        &of("gone.sh"),
        "--hunk",
        &of("added.txt"),
    ])
    .ok();
    assert_eq!(repo.read("gone.sh"), "#!/bin/sh\necho hi\n");
    assert!(!repo.path().join("added.txt").exists());
    // The deleted file made again since: its hunk is refused, naming it.
    repo.cp(&["undo"]).ok();
    repo.write("gone.sh", "mine\n");
    let out = repo
        .cp(&["revert", &cp, &b, "--hunk", &of("gone.sh")])
        .fails_with(1);
    assert!(
        out.stderr.contains("gone.sh") && out.stderr.contains("exists again"),
        "{}",
        out.stderr
    );
    assert_eq!(repo.read("gone.sh"), "mine\n");
}
