//! Restore, save, diff and the human output under odd input and odd settings (issue 14): tree
//! entry names git's fsck rejects, control characters in notes, ids and paths,
//! `core.symlinks=false`, `core.quotePath=false`, abbreviated ids of objects that are not in
//! the object database, and `core.ignoreCase=true`. git is the oracle throughout.

use std::fs;
use std::process::Command;

use crate::common::{Repo, Run, bin};
use crate::restore::{manifest, plant_checkpoint, raw_tree};

/// Run `program` in the repository with its hermetic environment plus `envs`; return (exit
/// code, stdout bytes, stderr).
fn run_raw(
    repo: &Repo,
    program: &str,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (i32, Vec<u8>, String) {
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(repo.path());
    repo.env(&mut cmd);
    cmd.envs(envs.iter().copied());
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The tool's stdout, as bytes; it must succeed.
#[track_caller]
fn cp_bytes(repo: &Repo, args: &[&str]) -> Vec<u8> {
    let (code, stdout, stderr) = run_raw(repo, bin(), args, &[]);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stdout
}

/// git's stdout, as bytes (not trimmed); it must succeed.
#[track_caller]
fn git_bytes(repo: &Repo, args: &[&str]) -> Vec<u8> {
    let (code, stdout, stderr) = run_raw(repo, "git", args, &[]);
    assert_eq!(code, 0, "git {args:?}: {stderr}");
    stdout
}

/// Show bytes readably in assertion messages.
fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// ---------------------------------------------------------------------------------------
// (3) Tree entry names that git's fsck rejects.
// ---------------------------------------------------------------------------------------

/// One hostile checkpoint: a tree holding `ok.txt` (a healthy file) next to an entry whose
/// name git's fsck rejects, at the top or inside the directory `d`.
struct Hostile {
    what: &'static str,
    /// The top tree of the checkpoint.
    tree: String,
    /// The tree that holds the bad name (the one `git fsck` names).
    holder: String,
    /// Whether the bad name is inside `d` (else at the top).
    nested: bool,
    /// Whether git takes it into its index (`verify_path` lets it through), so that
    /// `--staged` writes it there as git would; restore still never writes it to disk.
    git_indexes_it: bool,
}

fn hostile_cases(repo: &Repo) -> Vec<Hostile> {
    let blob = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"pwned\n");
    let ok = repo.git_stdin(
        &["hash-object", "-w", "--stdin"],
        b"ok from the checkpoint\n",
    );
    let link_target = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"../../outside");
    let file_tree = raw_tree(repo, &[("100644", b"f", &blob)]);
    let hooks = raw_tree(repo, &[("100755", b"post-checkout", &blob)]);
    // What a checkout of it would make of `.git`: a hook and a config.
    let git_dir = raw_tree(
        repo,
        &[("100644", b"config", &blob), ("40000", b"hooks", &hooks)],
    );
    let bad: Vec<(&'static str, &'static str, &'static [u8], &String)> = vec![
        ("empty name, a directory", "40000", b"", &file_tree),
        ("empty name, a file", "100644", b"", &blob),
        ("`.`", "40000", b".", &file_tree),
        ("`..`", "40000", b"..", &file_tree),
        ("`.git`", "40000", b".git", &git_dir),
        ("`.GIT`", "40000", b".GIT", &git_dir),
        ("`.Git`", "40000", b".Git", &git_dir),
        ("`.git.` (NTFS)", "40000", b".git.", &git_dir),
        ("`.git ` (NTFS)", "40000", b".git ", &git_dir),
        ("`git~1` (NTFS short name)", "40000", b"git~1", &git_dir),
        (
            "`.git::$INDEX_ALLOCATION` (NTFS stream)",
            "40000",
            b".git::$INDEX_ALLOCATION",
            &git_dir,
        ),
        (
            "`.g\\u{200c}it` (HFS+ ignorable)",
            "40000",
            ".g\u{200c}it".as_bytes(),
            &git_dir,
        ),
        (
            "`\\u{200f}.GIT\\u{feff}` (HFS+ ignorable)",
            "40000",
            "\u{200f}.GIT\u{feff}".as_bytes(),
            &git_dir,
        ),
        (
            "`.git\\config` (backslash)",
            "100644",
            b".git\\config",
            &blob,
        ),
        ("`x\\.git` (backslash)", "40000", b"x\\.git", &git_dir),
        ("a name holding `/`", "100644", b"d2/f", &blob),
        ("`../outside`", "100644", b"../outside", &blob),
        (
            "`.gitmodules` as a symlink",
            "120000",
            b".gitmodules",
            &link_target,
        ),
        // What git reads from the working tree itself, and never through a symlink.
        (
            "`.gitattributes` as a symlink",
            "120000",
            b".gitattributes",
            &link_target,
        ),
        (
            "`.GitIgnore` as a symlink",
            "120000",
            b".GitIgnore",
            &link_target,
        ),
        (
            "`.mailmap` as a symlink",
            "120000",
            b".mailmap",
            &link_target,
        ),
        (
            "`GITATT~1` (NTFS short name) as a symlink",
            "120000",
            b"GITATT~1",
            &link_target,
        ),
        (
            "`.git\\u{200c}ignore` (HFS+ ignorable) as a symlink",
            "120000",
            ".git\u{200c}ignore".as_bytes(),
            &link_target,
        ),
        (
            "`.mailmap:$DATA` (NTFS stream) as a symlink",
            "120000",
            b".mailmap:$DATA",
            &link_target,
        ),
    ];
    // Entries git's fsck rejects together: one name twice (two files, a file and a directory),
    // and entries out of git's order. Kept in the order given, next to `ok.txt` at the end.
    let file_y = raw_tree(repo, &[("100644", b"x", &ok)]);
    type Entries<'a> = Vec<(&'static str, &'static [u8], &'a str)>;
    let together: Vec<(&'static str, Entries<'_>)> = vec![
        (
            "a file named twice",
            vec![("100644", b"f", &blob), ("100644", b"f", &link_target)],
        ),
        (
            "a file and a directory of one name",
            vec![("100644", b"f", &blob), ("40000", b"f", &file_y)],
        ),
        (
            "a directory and a file of one name, apart",
            vec![
                ("100644", b"f", &blob),
                ("100644", b"f.txt", &blob),
                ("40000", b"f", &file_y),
            ],
        ),
        (
            "entries out of order",
            vec![("100644", b"z", &blob), ("100644", b"f", &blob)],
        ),
    ];
    let mut cases = Vec::new();
    for (what, entries) in together {
        for nested in [false, true] {
            let holder = raw_tree(repo, &entries);
            let top = if nested {
                raw_tree(
                    repo,
                    &[("40000", b"d", &holder), ("100644", b"ok.txt", &ok)],
                )
            } else {
                let mut entries = entries.clone();
                entries.push(("100644", b"ok.txt", &ok));
                raw_tree(repo, &entries)
            };
            cases.push(Hostile {
                what,
                holder: if nested { holder } else { top.clone() },
                tree: top,
                nested,
                git_indexes_it: false,
            });
        }
    }
    for (what, mode, name, id) in bad {
        for nested in [false, true] {
            let holder = raw_tree(repo, &[(mode, name, id)]);
            let top = if nested {
                raw_tree(
                    repo,
                    &[("40000", b"d", &holder), ("100644", b"ok.txt", &ok)],
                )
            } else {
                sorted_tree(repo, vec![(mode, name, id), ("100644", b"ok.txt", &ok)])
            };
            cases.push(Hostile {
                what,
                holder: if nested { holder } else { top.clone() },
                tree: top,
                nested,
                git_indexes_it: mode == "120000" && !what.contains(".gitmodules"),
            });
        }
    }
    cases
}

/// A raw tree with its entries in git's order (a directory sorts as its name and `/`), so that
/// git's own tree walks, which rely on that order, find every entry.
fn sorted_tree(repo: &Repo, mut entries: Vec<(&str, &[u8], &str)>) -> String {
    let key = |(mode, name, _): &(&str, &[u8], &str)| {
        let mut key = name.to_vec();
        if *mode == "40000" {
            key.push(b'/');
        }
        key
    };
    entries.sort_by_key(key);
    raw_tree(repo, &entries)
}

/// `git fsck`'s complaints (it may exit non-zero: an empty name is an error).
fn fsck_output(repo: &Repo) -> String {
    let (_, stdout, stderr) = run_raw(
        repo,
        "git",
        &["fsck", "--no-dangling", "--no-progress"],
        &[],
    );
    format!("{}{stderr}", text(&stdout))
}

#[track_caller]
fn assert_refused(out: &Run, what: &str) {
    out.assert_no_panic();
    assert_eq!(out.code, 1, "{what}: {}{}", out.stdout, out.stderr);
    // (A warning that the planted checkpoint has no note may come first.)
    assert!(
        out.stderr.lines().any(|l| l.starts_with("error: refusing")),
        "{what}: {}",
        out.stderr
    );
}

/// Would git check out `ok.txt` alone from `commit`? Run in a scratch work tree with a scratch
/// index, so the repository's own are not touched.
fn git_checks_out_ok_txt(repo: &Repo, commit: &str) -> Option<Vec<u8>> {
    let scratch = repo.scratch().join("git-checkout-oracle");
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch).unwrap();
    let index = repo.scratch().join("git-checkout-oracle-index");
    let _ = fs::remove_file(&index);
    let work_tree = format!("--work-tree={}", scratch.display());
    let (code, _, _) = run_raw(
        repo,
        "git",
        &[&work_tree, "checkout", commit, "--", "ok.txt"],
        &[("GIT_INDEX_FILE", index.to_str().unwrap())],
    );
    (code == 0).then(|| fs::read(scratch.join("ok.txt")).unwrap())
}

#[test]
fn every_tree_name_git_fsck_rejects_is_refused_before_anything_is_written() {
    let repo = Repo::with_commit(&[("ok.txt", "ok\n"), ("d/keep.txt", "keep\n")]);
    let outside = repo.scratch().join("outside");
    let cases = hostile_cases(&repo);
    for (i, case) in cases.iter().enumerate() {
        plant_checkpoint(&repo, &format!("20200101-000000-{i:03}aaa"), &case.tree);
    }
    // git's own verdict on each of these trees.
    let fsck = fsck_output(&repo);
    for case in &cases {
        assert!(
            fsck.lines().any(|l| l.contains(&case.holder)
                && (l.starts_with("warning") || l.starts_with("error"))),
            "git fsck has nothing to say about {} (tree {}):\n{fsck}",
            case.what,
            case.holder
        );
    }

    for (i, case) in cases.iter().enumerate() {
        let id = format!("20200101-000000-{i:03}aaa");
        let what = format!(
            "{} {}",
            case.what,
            if case.nested { "in d/" } else { "at the top" }
        );
        let before = manifest(repo.path());
        let fingerprint = repo.fingerprint();
        let ids = repo.checkpoint_ids();

        assert_refused(&repo.cp(&["restore", &id]), &what);
        assert_refused(&repo.cp(&["restore", "--dry-run", &id]), &what);
        assert_refused(&repo.cp(&["restore", "--dry-run", "--json", &id]), &what);
        assert_refused(&repo.cp(&["restore", "--staged", &id]), &what);
        assert_refused(&repo.cp(&["restore", "--force", &id]), &what);
        if case.nested {
            assert_refused(&repo.cp(&["restore", &id, "--", "d"]), &what);
        }
        // A path that only a naive reading of the bad name leads to is refused, or finds
        // nothing to restore.
        for path in ["d/f", "d/hooks/post-checkout"] {
            let out = repo.cp(&["restore", &id, "--", path]);
            out.assert_no_panic();
            assert!(out.code == 0 || out.code == 1, "{what}: {}", out.stderr);
        }
        assert_eq!(
            manifest(repo.path()),
            before,
            "{what}: working tree changed"
        );
        assert_eq!(
            repo.fingerprint(),
            fingerprint,
            "{what}: index or HEAD changed"
        );
        assert_eq!(repo.checkpoint_ids(), ids, "{what}: a checkpoint was made");
        assert!(!outside.exists(), "{what}: wrote outside the working tree");
        assert!(
            !repo.path().join(".git/hooks/post-checkout").exists(),
            "{what}"
        );
        assert_ne!(
            fs::read(repo.path().join(".git/config")).unwrap(),
            b"pwned\n"
        );

        // Reading it is fine: diff and show never crash, whatever they make of it.
        for args in [
            vec!["diff", &id],
            vec!["diff", &id, "--numstat"],
            vec!["diff", "--name-status", &ids[0], &id],
            vec!["show", &id],
            vec!["show", "-p", &id],
        ] {
            let out = repo.cp(&args);
            out.assert_no_panic();
            assert!(
                out.code == 0 || (out.code == 1 && out.stderr.starts_with("error:")),
                "{what}: {args:?}: {}",
                out.stderr
            );
        }

        // A path that does not lead to the bad name restores as git checks it out: from the
        // same commit, `git checkout <commit> -- ok.txt` is the oracle.
        let commit = repo.checkpoint_commit(&id);
        let out = repo.cp(&["restore", &id, "--", "ok.txt"]);
        out.assert_no_panic();
        match git_checks_out_ok_txt(&repo, &commit) {
            Some(content) => {
                assert_eq!(out.code, 0, "{what}: {}", out.stderr);
                assert_eq!(fs::read(repo.path().join("ok.txt")).unwrap(), content);
                let mut expected = before.clone();
                expected.insert("ok.txt".into(), manifest(repo.path())["ok.txt"].clone());
                assert_eq!(
                    manifest(repo.path()),
                    expected,
                    "{what}: only ok.txt changed"
                );
                assert_eq!(
                    repo.fingerprint(),
                    fingerprint,
                    "{what}: index or HEAD changed"
                );
                repo.write("ok.txt", "ok\n");
            }
            None => assert_refused(&out, &what),
        }
    }
    repo.write("ok.txt", "ok\n");
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

/// A checkpoint like `real` (a save with staged changes, `"index": "saved"`), but whose index
/// commit (its last parent) has `index_tree`, under the id `id`, with `real`'s note.
fn plant_with_index_tree(repo: &Repo, real: &str, id: &str, index_tree: &str) {
    let commit = repo.checkpoint_commit(real);
    let head = repo.git(&["rev-parse", &format!("{commit}^1")]);
    let index_commit = repo.git(&["commit-tree", index_tree, "-p", &head, "-m", "index"]);
    let tree = repo.git(&["rev-parse", &format!("{commit}^{{tree}}")]);
    let planted = repo.git(&[
        "commit-tree",
        &tree,
        "-p",
        &head,
        "-p",
        &index_commit,
        "-m",
        &format!("checkpoint: hostile index\n\nCheckpoint-Id: {id}\nCheckpoint-Kind: manual"),
    ]);
    repo.git(&["update-ref", &format!("refs/checkpoints/{id}"), &planted]);
    let mut note: serde_json::Value = serde_json::from_str(&repo.note(real)).unwrap();
    note["id"] = id.into();
    assert_eq!(note["index"], "saved");
    let file = repo.scratch().join("hostile-note.json");
    fs::write(&file, note.to_string()).unwrap();
    repo.git(&[
        "notes",
        "--ref=checkpoints",
        "add",
        "-f",
        "-F",
        file.to_str().unwrap(),
        &planted,
    ]);
}

/// The index is one git reads: `git ls-files -s` has each path once, at stage 0, and
/// `git write-tree` writes a tree of it that `git fsck` would accept (`git fsck` itself is for
/// the caller: a repository holding hostile checkpoints never passes it).
#[track_caller]
pub(crate) fn assert_index_sound(repo: &Repo) {
    let staged = repo.git(&["ls-files", "-s"]);
    let mut paths: Vec<&str> = staged
        .lines()
        .filter_map(|l| l.split('\t').nth(1))
        .collect();
    assert!(
        staged.lines().all(|l| l.contains(" 0\t")),
        "unmerged entries: {staged}"
    );
    let count = paths.len();
    paths.dedup();
    assert_eq!(paths.len(), count, "a path twice in the index: {staged}");
    let tree = repo.git(&["write-tree"]);
    let listed = repo.git(&["ls-tree", "-r", "--name-only", &tree]);
    assert_eq!(listed.lines().collect::<Vec<_>>(), paths, "{staged}");
}

#[test]
fn an_index_tree_git_fsck_rejects_is_refused_by_staged_and_the_index_left_alone() {
    let repo = Repo::with_commit(&[("ok.txt", "ok\n"), ("d/keep.txt", "keep\n")]);
    repo.write("staged.txt", "staged\n");
    repo.git(&["add", "staged.txt"]);
    let real = repo.save(&["-q"]);
    repo.git(&["reset", "-q"]);
    let cases = hostile_cases(&repo);
    let fingerprint = repo.fingerprint();
    for (i, case) in cases.iter().enumerate() {
        if case.git_indexes_it {
            continue;
        }
        let id = format!("20200101-000002-{i:03}ccc");
        plant_with_index_tree(&repo, &real, &id, &case.tree);
        let what = format!(
            "{} {}",
            case.what,
            if case.nested { "in d/" } else { "at the top" }
        );
        let before = manifest(repo.path());
        for args in [
            vec!["restore", "--staged", &id],
            vec!["restore", "--staged", "--force", &id],
            vec!["restore", "--staged", "--dry-run", &id],
        ] {
            assert_refused(&repo.cp(&args), &format!("{what}: {args:?}"));
            assert_eq!(repo.fingerprint(), fingerprint, "{what}: {args:?}");
            assert_eq!(manifest(repo.path()), before, "{what}: {args:?}");
        }
        // Without --staged the index tree is not read: the working tree is restored.
        repo.cp(&["restore", &id, "-q"]).ok();
        assert_eq!(repo.read("staged.txt"), "staged\n");
        assert_eq!(repo.fingerprint(), fingerprint, "{what}");
        repo.remove("staged.txt");
    }
    assert_index_sound(&repo);
    // The healthy checkpoint restores its index as recorded.
    repo.cp(&["restore", "--staged", &real, "-q"]).ok();
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "staged.txt");
    assert_index_sound(&repo);
}

#[test]
fn an_empty_name_does_not_put_a_subtree_at_the_parent() {
    // Read naively, `"" -> {f}` inside `d` is `d/f`, and at the top it is `f`: paths that a
    // healthy tree could hold, and that must not be written from this one.
    let repo = Repo::with_commit(&[("keep.txt", "keep\n")]);
    let blob = repo.git_stdin(&["hash-object", "-w", "--stdin"], b"from nowhere\n");
    let sub = raw_tree(&repo, &[("100644", b"f", &blob)]);
    let empty_top = raw_tree(&repo, &[("40000", b"", &sub)]);
    let inner = raw_tree(&repo, &[("40000", b"", &sub)]);
    let empty_nested = raw_tree(&repo, &[("40000", b"d", &inner)]);
    for (i, tree) in [empty_top, empty_nested].iter().enumerate() {
        let id = format!("20200101-000001-{i:03}bbb");
        plant_checkpoint(&repo, &id, tree);
        let mut refused = vec![
            vec!["restore", &id],
            vec!["restore", "--staged", &id],
            vec!["restore", "--dry-run", &id],
        ];
        let mut harmless = vec![];
        if i == 0 {
            // An empty name at the top lies on the way to every path.
            refused.push(vec!["restore", &id, "--", "f"]);
            refused.push(vec!["restore", &id, "--", "keep.txt"]);
        } else {
            refused.push(vec!["restore", &id, "--", "d"]);
            harmless.push(vec!["restore", &id, "--", "d/f"]);
            harmless.push(vec!["restore", &id, "--", "f"]);
        }
        for args in refused {
            assert_refused(&repo.cp(&args), &format!("{args:?}"));
        }
        for args in harmless {
            let out = repo.cp(&args);
            out.assert_no_panic();
            assert!(out.code == 0 || out.code == 1, "{args:?}: {}", out.stderr);
        }
        assert!(!repo.path().join("f").exists());
        assert!(!repo.path().join("d").exists());
        assert_eq!(repo.read("keep.txt"), "keep\n");
        // diff names the path with its empty component instead of pretending it is `f`.
        let names = repo.cp(&["diff", "--name-only", &id]).ok().stdout;
        assert!(!names.lines().any(|l| l == "f" || l == "d/f"), "{names}");
    }
}

// ---------------------------------------------------------------------------------------
// (5) Control characters in notes, ids and paths never reach the terminal raw.
// ---------------------------------------------------------------------------------------

/// C0 (ESC), DEL and C1 controls: CSI (U+009B), OSC (U+009D) and ST (U+009C).
const HOSTILE: &str = "x\u{9b}31m\u{9d}0;title\u{9c}\u{1b}[2J\u{7f}y";

/// No control character other than newlines (and tabs, where `tabs`).
#[track_caller]
fn assert_terminal_safe(what: &str, output: &str, tabs: bool) {
    let bad: Vec<char> = output
        .chars()
        .filter(|c| c.is_control() && *c != '\n' && !(tabs && *c == '\t'))
        .collect();
    assert!(bad.is_empty(), "{what} printed {bad:?} raw: {output:?}");
}

/// Rewrite the note of checkpoint `id` with `edit`.
fn edit_note(repo: &Repo, id: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut note: serde_json::Value = serde_json::from_str(&repo.note(id)).unwrap();
    edit(&mut note);
    let file = repo.scratch().join("note.json");
    fs::write(&file, note.to_string()).unwrap();
    repo.git(&[
        "notes",
        "--ref=checkpoints",
        "add",
        "-f",
        "-F",
        file.to_str().unwrap(),
        &repo.checkpoint_commit(id),
    ]);
}

#[test]
fn control_characters_from_a_note_are_escaped_in_everything_printed_for_humans() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    repo.write("a.txt", "changed\n");
    let id = repo.save(&["-m", "plain"]);
    let hostile = serde_json::Value::from(HOSTILE);
    edit_note(&repo, &id, |note| {
        for key in ["name", "message", "kind", "session", "agent", "worktree"] {
            note[key] = hostile.clone();
        }
        note["head"]["ref"] = format!("refs/heads/{HOSTILE}").into();
        note["skipped"] = serde_json::json!([
            {"path": HOSTILE, "reason": HOSTILE, "size": 1},
            {"path": "big.bin", "reason": "too-large", "size": 734003200u64}
        ]);
        note["meta"] = serde_json::json!({ HOSTILE: HOSTILE, "nested": { "k": [HOSTILE] } });
        note["fetched"] = serde_json::json!({"remote": HOSTILE, "at": HOSTILE});
    });
    let note: serde_json::Value = serde_json::from_str(&repo.note(&id)).unwrap();
    assert_eq!(
        note["meta"][HOSTILE], HOSTILE,
        "the note holds the raw characters"
    );

    for args in [
        vec!["show", id.as_str()],
        vec!["show", "-p", id.as_str()],
        vec!["list"],
        vec!["list", "--all"],
        vec!["ls", "--all", "-n", "1"],
    ] {
        let out = repo.cp(&args).ok();
        assert_terminal_safe(&format!("{args:?} stdout"), &out.stdout, false);
        assert_terminal_safe(&format!("{args:?} stderr"), &out.stderr, false);
    }
    let show = repo.cp(&["show", &id]).ok().stdout;
    assert!(show.contains("x\\u{9b}31m\\u{9d}0;title"), "{show}");
    // The `meta` line is JSON still, with the controls as JSON escapes.
    let meta = show
        .lines()
        .find_map(|l| l.strip_prefix("meta      "))
        .unwrap_or_else(|| panic!("no meta line: {show}"));
    let parsed: serde_json::Value = serde_json::from_str(meta).unwrap();
    assert_eq!(parsed, note["meta"]);
    assert!(
        meta.contains("\\u009b") && meta.contains("\\u009d"),
        "{meta}"
    );

    // --json: valid JSON that means exactly what the note says, with no raw control.
    for args in [
        vec!["show", "--json", id.as_str()],
        vec!["list", "--all", "--json"],
    ] {
        let out = repo.cp(&args).ok();
        assert_terminal_safe(&format!("{args:?}"), &out.stdout, false);
        let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let shown = if value.is_array() { &value[0] } else { &value };
        for key in [
            "name", "message", "kind", "session", "meta", "skipped", "fetched",
        ] {
            assert_eq!(shown[key], note[key], "{args:?} {key}");
        }
    }

    // Restoring it reports without raw controls either (the names in its messages).
    let out = repo.cp(&["restore", "--dry-run", &id]).ok();
    assert_terminal_safe("restore --dry-run stderr", &out.stderr, false);
    let out = repo.cp(&["restore", &id]).ok();
    assert_terminal_safe("restore stderr", &out.stderr, false);
    repo.fsck();
}

#[test]
fn control_characters_in_ids_and_paths_are_escaped() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    // A checkpoint ref whose name git allows but holds a C1 control (not made by this tool,
    // e.g. fetched by hand), and a checkpoint whose paths hold controls.
    let weird_id = "20200101-000000-000\u{9b}2J";
    let commit = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&[
        "update-ref",
        &format!("refs/checkpoints/{weird_id}"),
        &commit,
    ]);
    let csi_path = "csi\u{9b}31m.txt";
    let esc_path = "esc\u{1b}]0;t\u{7}.txt";
    repo.write(csi_path, "c1\n");
    repo.write(esc_path, "c0\n");
    let id = repo.save(&[]);
    repo.write(csi_path, "c1 changed\n");
    repo.remove(esc_path);

    for args in [
        vec!["list"],
        vec!["list", "--json"],
        vec!["show", weird_id],
        vec!["show", &id],
        vec!["diff", &id],
        vec!["diff", &id, "--stat"],
        vec!["diff", &id, "--name-only"],
        vec!["diff", &id, "--json"],
        vec!["restore", "--dry-run", &id],
        vec!["restore", "--dry-run", "--json", &id],
    ] {
        let out = repo.cp(&args);
        out.assert_no_panic();
        assert_terminal_safe(&format!("{args:?} stdout"), &out.stdout, true);
        assert_terminal_safe(&format!("{args:?} stderr"), &out.stderr, false);
    }
    let list = repo.cp(&["list"]).ok().stdout;
    assert!(list.contains("20200101-000000-000\\u{9b}2J"), "{list}");
    // The paths are quoted as git quotes them.
    let names = repo.cp(&["diff", &id, "--name-only"]).ok().stdout;
    assert_eq!(
        names, "\"csi\\302\\23331m.txt\"\n\"esc\\033]0;t\\a.txt\"\n",
        "{names}"
    );
    let out = repo.cp(&["drop", weird_id]).ok();
    assert_terminal_safe("drop", &out.stdout, false);
    assert!(out.stdout.contains("\\u{9b}"), "{}", out.stdout);
    repo.fsck();
}

// ---------------------------------------------------------------------------------------
// (6) core.symlinks=false: a symlink is a plain file holding its target, as git writes it.
// ---------------------------------------------------------------------------------------

#[test]
fn without_symlinks_restore_writes_what_git_checkout_writes_and_save_keeps_the_link() {
    let repo = Repo::with_commit(&[("target.txt", "the target\n"), ("dir/x", "x\n")]);
    repo.symlink("target.txt", "link");
    repo.symlink("../target.txt", "dir/up");
    repo.write(".gitattributes", "* text=auto eol=crlf\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "links"]);
    // A symlink the index does not know, only in the checkpoint.
    repo.symlink("dir", "untracked-link");
    let id = repo.save(&[]);
    let saved_tree = repo.checkpoint_tree(&id);

    repo.git(&["config", "core.symlinks", "false"]);
    for path in ["link", "dir/up", "untracked-link"] {
        repo.remove(path);
    }
    repo.cp(&["restore", &id]).ok();
    let ours = manifest(repo.path());

    // git, told the same, on the same paths: `git checkout` of the tracked ones, and of the
    // untracked one from the checkpoint commit into a scratch index.
    for path in ["link", "dir/up", "untracked-link"] {
        repo.remove(path);
    }
    repo.git(&["checkout", "--", "link", "dir/up"]);
    let index = repo.scratch().join("symlinks-oracle-index");
    let (code, _, stderr) = run_raw(
        &repo,
        "git",
        &[
            "checkout",
            &repo.checkpoint_commit(&id),
            "--",
            "untracked-link",
        ],
        &[("GIT_INDEX_FILE", index.to_str().unwrap())],
    );
    assert_eq!(code, 0, "{stderr}");
    let git = manifest(repo.path());
    assert_eq!(ours, git);
    for (path, target) in [("link", "target.txt"), ("dir/up", "../target.txt")] {
        let md = fs::symlink_metadata(repo.path().join(path)).unwrap();
        assert!(md.is_file(), "{path} is a plain file");
        // Unfiltered (no CRLF), not executable: exactly what git wrote.
        assert_eq!(fs::read(repo.path().join(path)).unwrap(), target.as_bytes());
    }

    // Saving again keeps the tracked links as links (the index says so), and gives what
    // `git add -A` gives: the untracked one, now a plain file, is a plain file.
    let again = repo.save(&["--allow-empty"]);
    assert_eq!(repo.checkpoint_tree(&again), repo.oracle_tree());
    let ls = repo.git(&["ls-tree", "-r", &repo.checkpoint_commit(&again)]);
    assert!(
        ls.lines()
            .any(|l| l.starts_with("120000") && l.ends_with("\tlink")),
        "{ls}"
    );
    assert!(
        ls.lines()
            .any(|l| l.starts_with("120000") && l.ends_with("\tdir/up")),
        "{ls}"
    );
    // Without the untracked link, the round trip gives the tree first saved.
    repo.remove("untracked-link");
    let third = repo.save(&[]);
    let without = repo.git(&[
        "rev-parse",
        &format!("{}^{{tree}}", repo.checkpoint_commit(&third)),
    ]);
    assert_eq!(
        repo.git(&["ls-tree", "-r", &without]),
        repo.git(&["ls-tree", "-r", &saved_tree])
            .lines()
            .filter(|l| !l.ends_with("\tuntracked-link"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // A restore onto those plain files has nothing to write.
    let out = repo.cp(&["restore", "--dry-run", &third]).ok();
    assert_eq!(out.stdout, "", "{}", out.stderr);
    repo.fsck();
}

// ---------------------------------------------------------------------------------------
// (7) core.quotePath: paths quoted exactly as `git diff` quotes them.
// ---------------------------------------------------------------------------------------

/// Two checkpoints whose paths need every kind of quoting, and a working tree like the second;
/// the second one's state is also staged, so that `git diff <commit>` sees what the working
/// tree holds. Returns (repo, A, B).
fn quoting_repo() -> (Repo, String, String) {
    let repo = Repo::new();
    let names = [
        "plain.txt",
        "sp ace.txt",
        "ü/naïve.txt",
        "日本/語.md",
        "tab\there.txt",
        "quo\"te.txt",
        "back\\slash.txt",
        "new\nline.txt",
        "del\u{7f}.txt",
        "moved\tout.txt",
    ];
    for (i, name) in names.iter().enumerate() {
        repo.write(
            name,
            &format!("line one of {i}\nline two\nline three\nline four\n"),
        );
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let a = repo.save(&[]);
    for name in [
        "plain.txt",
        "ü/naïve.txt",
        "tab\there.txt",
        "quo\"te.txt",
        "new\nline.txt",
    ] {
        repo.write(name, "rewritten\n");
    }
    repo.remove("back\\slash.txt");
    repo.write("ü/neu \"datei\".txt", "neu\n");
    // Renames, with and without names that need quotes.
    let content = repo.read("日本/語.md");
    repo.remove("日本/語.md");
    repo.write("日本/言語.md", &content);
    let content = repo.read("moved\tout.txt");
    repo.remove("moved\tout.txt");
    repo.write("moved/in.txt", &content);
    repo.git(&["add", "-A"]);
    let b = repo.save(&["--allow-empty"]);
    (repo, a, b)
}

#[test]
fn paths_are_quoted_byte_for_byte_as_git_diff_quotes_them() {
    let (repo, a, b) = quoting_repo();
    let (ca, cb) = (repo.checkpoint_commit(&a), repo.checkpoint_commit(&b));
    for quote_path in ["true", "false"] {
        repo.git(&["config", "core.quotePath", quote_path]);
        for format in [
            None,
            Some("--stat"),
            Some("--numstat"),
            Some("--name-status"),
            Some("--name-only"),
        ] {
            // Two checkpoints, and a checkpoint against the working tree.
            for (ours, git) in [
                (vec!["diff", &a, &b], vec!["diff", &ca, &cb]),
                (vec!["diff", &a], vec!["diff", &ca]),
            ] {
                let mut ours = ours.clone();
                let mut git = git.clone();
                ours.extend(format);
                git.extend(format);
                let expected = git_bytes(&repo, &git);
                let got = cp_bytes(&repo, &ours);
                assert_eq!(
                    text(&got),
                    text(&expected),
                    "core.quotePath={quote_path}: {ours:?}"
                );
                assert_eq!(got, expected);
            }
        }

        // restore's listing quotes like `git diff --name-only`.
        let listing = text(&cp_bytes(&repo, &["restore", "--dry-run", &a]));
        let mut got: Vec<&str> = listing.lines().collect();
        got.sort_unstable();
        let status = text(&git_bytes(
            &repo,
            &["diff", "--no-renames", "--name-status", &cb, &ca],
        ));
        let mut expected: Vec<String> = status
            .lines()
            .map(|l| {
                let (letter, path) = l.split_once('\t').unwrap();
                format!("{}  {path}", if letter == "D" { "D" } else { "W" })
            })
            .collect();
        expected.sort_unstable();
        assert_eq!(got, expected, "core.quotePath={quote_path}");
    }
    repo.fsck();
}

#[test]
fn without_quote_path_c1_controls_are_still_escaped_and_the_patch_applies() {
    // Here git would print U+009B raw; a terminal must not get it. The patch stays one that
    // `git apply` reads back to the same paths.
    let repo = Repo::with_commit(&[("plain.txt", "p\n")]);
    repo.git(&["config", "core.quotePath", "false"]);
    let a = repo.save(&[]);
    let name = "ü-csi\u{9b}31m.txt";
    repo.write(name, "c1\n");
    let b = repo.save(&[]);
    let names = text(&cp_bytes(&repo, &["diff", &a, &b, "--name-only"]));
    assert_eq!(names, "\"ü-csi\\302\\23331m.txt\"\n");
    assert_terminal_safe(
        "--stat",
        &text(&cp_bytes(&repo, &["diff", &a, &b, "--stat"])),
        false,
    );
    let patch = cp_bytes(&repo, &["diff", &a, &b]);
    assert_terminal_safe("patch", &text(&patch), false);
    repo.remove(name);
    let file = repo.scratch().join("c1.patch");
    fs::write(&file, &patch).unwrap();
    repo.git(&["apply", file.to_str().unwrap()]);
    assert_eq!(repo.read(name), "c1\n");
    repo.fsck();
}

// ---------------------------------------------------------------------------------------
// (8) Abbreviated ids in `index` lines, also for blobs not in the object database.
// ---------------------------------------------------------------------------------------

/// The object format of `repo`.
fn hash_kind(repo: &Repo) -> gix::hash::Kind {
    match repo.object_format().as_str() {
        "sha256" => gix::hash::Kind::Sha256,
        _ => gix::hash::Kind::Sha1,
    }
}

/// The blob id git gives `content` in the object format `kind`, in hex.
fn blob_id(kind: gix::hash::Kind, content: &[u8]) -> String {
    gix::objs::compute_hash(kind, gix::objs::Kind::Blob, content)
        .unwrap()
        .to_string()
}

/// Contents whose blob ids start with each of `prefixes` (found by trying).
fn contents_with_prefixes(kind: gix::hash::Kind, prefixes: &[&str]) -> Vec<Vec<u8>> {
    let mut found: Vec<Option<Vec<u8>>> = vec![None; prefixes.len()];
    let mut i = 0u64;
    while found.iter().any(Option::is_none) {
        let content = format!("filler {i}\n").into_bytes();
        let id = blob_id(kind, &content);
        for (slot, prefix) in found.iter_mut().zip(prefixes) {
            if slot.is_none() && id.starts_with(prefix) {
                *slot = Some(content.clone());
            }
        }
        i += 1;
    }
    found.into_iter().map(Option::unwrap).collect()
}

/// A checkpoint of a committed state, then a working tree with every kind of change: modified,
/// deleted, new (intent-to-add, so that `git diff` shows it), mode changes with and without
/// new content, a binary change. Nothing of the new content is written to the object database.
fn changed_working_tree() -> (Repo, String) {
    let repo = Repo::new();
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.write("gone.txt", "gone\n");
    repo.write("mode.sh", "echo mode\n");
    repo.write("both.sh", "echo both\n");
    repo.write_bytes("bin.dat", b"\0binary\0one");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = repo.save(&[]);
    repo.write("a.txt", "changed a\n");
    repo.write("b.txt", "changed b\n");
    repo.remove("gone.txt");
    repo.chmod_x("mode.sh", true);
    repo.write("both.sh", "echo both, changed\n");
    repo.chmod_x("both.sh", true);
    repo.write_bytes("bin.dat", b"\0binary\0two");
    repo.write("new.txt", "new\n");
    repo.git(&["add", "-N", "new.txt"]);
    (repo, id)
}

/// `diff <cp>` and `git diff <commit>`, byte for byte, with `extra` arguments.
#[track_caller]
fn assert_diff_like_git(repo: &Repo, id: &str, extra: &[&str]) {
    let commit = repo.checkpoint_commit(id);
    let mut ours = vec!["diff", id];
    ours.extend_from_slice(extra);
    let mut git = vec!["diff", commit.as_str()];
    git.extend_from_slice(extra);
    let expected = git_bytes(repo, &git);
    assert!(!expected.is_empty());
    assert_eq!(text(&cp_bytes(repo, &ours)), text(&expected), "{extra:?}");
}

#[test]
fn index_lines_are_abbreviated_like_git_for_blobs_only_in_memory() {
    let (repo, id) = changed_working_tree();
    let objects_before = repo.object_files();
    assert_diff_like_git(&repo, &id, &[]);
    assert_diff_like_git(&repo, &id, &["--binary"]);
    assert_diff_like_git(&repo, &id, &["--no-renames", "-U1"]);
    repo.git(&["config", "core.abbrev", "12"]);
    assert_diff_like_git(&repo, &id, &[]);
    repo.git(&["config", "core.abbrev", "no"]);
    assert_diff_like_git(&repo, &id, &[]);
    // diff wrote nothing (the new content is hashed into memory only).
    assert_eq!(repo.object_files(), objects_before);
    repo.fsck();
}

#[test]
fn abbreviations_grow_past_objects_in_the_database_but_not_past_those_in_memory() {
    let (repo, id) = changed_working_tree();
    repo.git(&["config", "core.abbrev", "4"]);
    let kind = hash_kind(&repo);
    let a = blob_id(kind, b"changed a\n");
    let b = blob_id(kind, b"changed b\n");
    let found = contents_with_prefixes(kind, &[&a[..5], &b[..5], "0000"]);
    // In the object database: one sharing 5 digits with the new a.txt, one starting with
    // 0000 (the null id of new and deleted files shares those).
    repo.git_stdin(&["hash-object", "-w", "--stdin"], &found[0]);
    repo.git_stdin(&["hash-object", "-w", "--stdin"], &found[2]);
    // Only in the working tree (git never writes it): one sharing 5 digits with the new b.txt.
    repo.write_bytes("z.txt", &found[1]);
    repo.git(&["add", "-N", "z.txt"]);
    assert_diff_like_git(&repo, &id, &[]);
    let patch = text(&cp_bytes(&repo, &["diff", &id]));
    assert!(patch.contains(&format!("..{}", &a[..6])), "{patch}");
    // The null id of new and deleted files grows past the stored blob of zeros.
    let zeros = blob_id(kind, &found[2])
        .bytes()
        .take_while(|b| *b == b'0')
        .count();
    assert!(
        patch.contains(&format!("index {}..", "0".repeat(zeros + 1))),
        "{patch}"
    );
    // And packed objects count the same as loose ones.
    repo.git(&["repack", "-adq"]);
    assert_diff_like_git(&repo, &id, &[]);
    repo.fsck();
}

// ---------------------------------------------------------------------------------------
// (9) core.ignoreCase=true on a case-sensitive file system: save records what `git add -A`
// records.
// ---------------------------------------------------------------------------------------

/// Save, and check the tree against the oracle; return the checkpoint's paths.
#[track_caller]
fn save_like_git(repo: &Repo) -> Vec<String> {
    let oracle = repo.oracle_tree();
    let id = repo.save(&["--allow-empty"]);
    assert_eq!(
        repo.git(&["ls-tree", "-r", "--name-only", &repo.checkpoint_commit(&id)]),
        repo.git(&["ls-tree", "-r", "--name-only", &oracle]),
    );
    assert_eq!(repo.checkpoint_tree(&id), oracle);
    repo.checkpoint_files(&id)
}

#[test]
fn with_ignore_case_new_files_take_the_case_of_the_directories_git_knows() {
    let repo = Repo::with_commit(&[
        ("Docs/a.md", "a\n"),
        ("A/B/c.txt", "c\n"),
        ("README.md", "readme\n"),
        ("src/Lib/mod.rs", "mod\n"),
    ]);
    repo.git(&["config", "core.ignoreCase", "true"]);
    // A new file next to a tracked directory spelled otherwise.
    repo.write("docs/b.md", "b\n");
    // Nested: every level folds, and a new directory below a known one keeps its own case.
    repo.write("a/b/d.txt", "d\n");
    repo.write("a/x/e.txt", "e\n");
    repo.write("A/b/f.txt", "f\n");
    repo.write("SRC/lib/New/g.rs", "g\n");
    // A file whose name differs from a tracked one only in case is that tracked file to git.
    repo.write("readme.md", "another readme\n");
    // Two new directories that differ only in case: the first one added names both.
    repo.write("NEWD/x", "x\n");
    repo.write("newd/y", "y\n");
    let files = save_like_git(&repo);
    for path in [
        "Docs/b.md",
        "A/B/d.txt",
        "A/x/e.txt",
        "A/B/f.txt",
        "src/Lib/New/g.rs",
        "NEWD/y",
    ] {
        assert!(files.iter().any(|f| f == path), "{path} in {files:?}");
    }
    assert!(!files.iter().any(|f| f == "readme.md"), "{files:?}");

    // The tracked file gone, its case twin stays out as git leaves it out.
    repo.remove("README.md");
    save_like_git(&repo);
    // Tracked changes inside a folded directory too.
    repo.write("Docs/a.md", "a changed\n");
    repo.write("docs/b.md", "b changed\n");
    save_like_git(&repo);
    repo.fsck();
}

#[test]
fn with_ignore_case_the_first_spelling_in_the_index_wins() {
    // Two spellings of one directory tracked (made with ignoreCase off).
    let repo = Repo::with_commit(&[("Docs/a.md", "a\n"), ("docs/c.md", "c\n")]);
    repo.git(&["config", "core.ignoreCase", "true"]);
    repo.write("DOCS/new.md", "new\n");
    repo.write("docs/sub/deep.md", "deep\n");
    let files = save_like_git(&repo);
    assert!(files.iter().any(|f| f == "Docs/new.md"), "{files:?}");
    // Off, nothing folds.
    repo.git(&["config", "core.ignoreCase", "false"]);
    let files = save_like_git(&repo);
    assert!(files.iter().any(|f| f == "DOCS/new.md"), "{files:?}");
    repo.fsck();
}

#[test]
fn with_ignore_case_restore_finds_a_respelled_file_where_save_found_it() {
    let repo = Repo::with_commit(&[("Docs/a.md", "a\n"), ("keep.txt", "keep\n")]);
    if repo.path().join("docs/a.md").exists() {
        crate::common::skip("the file system ignores case: `docs` is `Docs` here");
        return;
    }
    repo.git(&["config", "core.ignoreCase", "true"]);
    let before = repo.save(&["-q"]);
    // Saved as `Docs/b.md`, as `git add -A` records it, while the file is `docs/b.md`.
    repo.write("docs/b.md", "b\n");
    let with_b = repo.save(&["-q"]);
    assert!(
        repo.checkpoint_files(&with_b)
            .contains(&"Docs/b.md".to_string())
    );

    // Restoring the state before deletes the file itself, and its safety checkpoint holds it.
    let dry = repo.cp(&["restore", "--dry-run", &before]).ok();
    assert_eq!(dry.stdout, "D  Docs/b.md\n", "{}", dry.stderr);
    let out = repo.cp(&["restore", &before]).ok();
    assert_eq!(out.stdout, "D  Docs/b.md\n");
    assert!(out.stderr.contains("1 deleted"), "{}", out.stderr);
    assert!(!repo.path().join("docs").exists());
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&before));
    let safety = repo.checkpoint_ids().last().unwrap().clone();
    assert_eq!(repo.checkpoint_tree(&safety), repo.checkpoint_tree(&with_b));

    // A path matches in the working tree's spelling, as `git add` matches it, and in the
    // checkpoint's; the file is written where it is.
    for path in ["docs/b.md", "docs", "Docs/b.md"] {
        repo.write("docs/b.md", "changed\n");
        let out = repo.cp(&["restore", &with_b, "--", path]).ok();
        assert_eq!(out.stdout, "W  Docs/b.md\n", "{path}: {}", out.stderr);
        assert_eq!(repo.read("docs/b.md"), "b\n", "{path}");
        assert!(!repo.path().join("Docs/b.md").exists(), "{path}");
        assert_eq!(repo.read("Docs/a.md"), "a\n");
    }
    // `docs` does not name the tracked `Docs/a.md`: on this file system it is elsewhere.
    repo.write("Docs/a.md", "a changed\n");
    repo.cp(&["restore", &with_b, "--", "docs"]).ok();
    assert_eq!(repo.read("Docs/a.md"), "a changed\n");
    let nothing = repo
        .cp(&["restore", &with_b, "--", "docs/none.md"])
        .fails_with(1);
    assert!(
        nothing.stderr.contains("did not match"),
        "{}",
        nothing.stderr
    );
    repo.fsck();
}

#[test]
fn stat_cuts_long_names_byte_for_byte_as_git_diff_stat_does() {
    // Long names of characters two columns wide and three bytes long: git cuts them by a count
    // of columns taken as bytes, which may land inside a character when no `/` follows.
    let names = [
        "日本/長い名前のファイル名前がとても長いのでこれは切り詰められるはずです.txt",
        "長い名前のファイル名前がとても長いのでこれは切り詰められるはずですね、もっと長く.md",
        "長い名前のファイル名前がとても長いのでこれは切り詰められるはずですね、もっと長くx.md",
        "ディレクトリ/もう一つ/さらに深い/名前がとても長いファイルですのでこれはどうなる.rs",
        "mixed-ascii-プレフィックス-とても長い名前のファイルがここにありますよ、まだまだ.txt",
        "a.txt",
        "b/c.txt",
    ];
    let repo = Repo::new();
    for name in names {
        repo.write(name, "one\n");
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = repo.save(&["-q", "--allow-empty"]);
    for (i, name) in names.iter().enumerate() {
        repo.write(name, &"more\n".repeat(i + 1));
    }
    let later = repo.save(&["-q"]);
    let (commit, later_commit) = (repo.checkpoint_commit(&id), repo.checkpoint_commit(&later));
    for quote_path in ["false", "true"] {
        repo.git(&["config", "core.quotePath", quote_path]);
        for (ours, git) in [
            (vec!["diff", &id, "--stat"], vec!["diff", &commit, "--stat"]),
            (
                vec!["diff", &id, &later, "--stat"],
                vec!["diff", &commit, &later_commit, "--stat"],
            ),
        ] {
            let expected = git_bytes(&repo, &git);
            let got = cp_bytes(&repo, &ours);
            assert_eq!(
                text(&got),
                text(&expected),
                "core.quotePath={quote_path}: {ours:?}"
            );
            assert_eq!(got, expected, "core.quotePath={quote_path}: {ours:?}");
        }
    }
    repo.fsck();
}

/// Settings given on git's command line (`git -c key=value checkpoint …`, which git hands to
/// the tool in `GIT_CONFIG_PARAMETERS`) apply as they do to git's own commands, over the
/// repository's config: `checkpoint.*` keys and git's own alike, values with quotes and spaces
/// included.
#[test]
fn settings_given_with_git_dash_c_apply() {
    let repo = Repo::with_commit(&[("base.txt", "base\n")]);
    let mut ids = Vec::new();
    for i in 0..3 {
        repo.write("f.txt", &format!("{i}\n"));
        ids.push(repo.save(&["-q"]));
    }
    repo.git(&["config", "checkpoint.keep", "10"]);
    let through_git =
        |args: &[&str]| crate::common::run_with_stdin(&repo, "git", args, repo.path(), b"");
    let out = through_git(&[
        "-c",
        "checkpoint.keep=1",
        "-c",
        "checkpoint.minAge=0",
        "checkpoint",
        "prune",
        "--dry-run",
    ])
    .ok();
    for id in &ids[..2] {
        assert!(out.stdout.contains(id.as_str()), "{}", out.stdout);
    }
    assert!(!out.stdout.contains(ids[2].as_str()), "{}", out.stdout);
    // Without it, the repository's own setting: nothing to prune.
    let out = through_git(&["checkpoint", "prune", "--dry-run"]).ok();
    assert!(!out.stdout.contains(ids[0].as_str()), "{}", out.stdout);

    // git's own keys: a path with a quote and a non-ASCII letter, unquoted as `git -c
    // core.quotePath=false diff` prints it.
    repo.write("it's café.txt", "new\n");
    let args = ["-c", "core.quotePath=false", "diff", "--name-only"];
    let git_says = through_git(&[
        "-c",
        "core.quotePath=false",
        "checkpoint",
        "diff",
        "--name-only",
    ])
    .ok();
    repo.git(&["add", "-N", "it's café.txt"]);
    let expected = through_git(&args).ok();
    repo.git(&["reset", "-q"]);
    assert!(
        git_says.stdout.contains("it's café.txt"),
        "{}",
        git_says.stdout
    );
    assert!(
        expected.stdout.contains("it's café.txt"),
        "{}",
        expected.stdout
    );
    // A value with a quote and spaces reaches the tool whole.
    let out = through_git(&[
        "-c",
        "checkpoint.exclude=it's café.txt",
        "checkpoint",
        "save",
        "-q",
        "--allow-empty",
    ])
    .ok();
    let id = out.stdout.trim();
    let files = repo.git(&[
        "ls-tree",
        "-r",
        "--name-only",
        &format!("refs/checkpoints/{id}"),
    ]);
    assert!(!files.contains("caf"), "{files}");
    assert!(files.contains("f.txt"), "{files}");
}
