//! Git 3.0 repositories: SHA-256 object ids and the reftable ref format, made explicitly here
//! (whatever `GIT_DEFAULT_HASH` and `GIT_DEFAULT_REF_FORMAT` say), so that every run of the
//! suite covers them; `ci/test-matrix` also runs the whole suite in each combination.

use std::fs;
use std::path::Path;

use crate::common::{Json, Repo, git_knows_reftable, git_version, skip};

/// Whether a test that makes a reftable repository cannot run here (git older than 2.45): it
/// then skips, saying so.
fn no_reftable() -> bool {
    if git_knows_reftable() {
        return false;
    }
    skip(&format!(
        "{} cannot make reftable repositories (2.45 or newer can)",
        git_version()
    ));
    true
}

/// A repository made with `args` (formats), one commit, and work in progress.
fn repo_with_work(args: &[&str]) -> Repo {
    let repo = Repo::init(args);
    repo.write("a.txt", "a\n");
    repo.write("dir/b.txt", "b\n");
    repo.write("run.sh", "#!/bin/sh\n");
    repo.chmod_x("run.sh", true);
    repo.symlink("a.txt", "link");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    repo.write("a.txt", "changed\n");
    repo.remove("dir/b.txt");
    repo.write("new.txt", "new\n");
    repo.git(&["add", "new.txt"]);
    repo.write("untracked.txt", "u\n");
    repo
}

/// Every command, in a repository of the given formats, checked against git: ids of the
/// repository's length everywhere, trees equal to the oracle's, notes readable by git, refs
/// where git sees them, `git fsck` clean, and checkpoints that survive `git gc --prune=now`.
fn every_command_works(args: &[&str]) {
    let repo = repo_with_work(args);
    let hex = if repo.object_format() == "sha256" {
        64
    } else {
        40
    };
    let before = repo.fingerprint();

    let first = repo.save(&["-q", "-m", "first", "--name", "one"]);
    assert_eq!(repo.checkpoint_tree(&first), repo.oracle_tree());
    assert_eq!(repo.checkpoint_commit(&first).len(), hex);
    assert_eq!(repo.note_json(&first).get("id"), first);
    assert_eq!(repo.note_json(&first).get("head.ref"), "refs/heads/main");
    assert_eq!(
        repo.note_json(&first).get("head.commit"),
        repo.git(&["rev-parse", "HEAD"])
    );
    assert_eq!(repo.note_json(&first).get("index"), "saved");
    assert_eq!(repo.parents(&first).len(), 2, "HEAD and the index commit");
    assert_eq!(repo.fingerprint(), before, "nothing of the user's changed");
    // Unchanged: the same checkpoint, and no new ref.
    assert_eq!(repo.cp(&["save"]).ok().id(), first);
    assert_eq!(repo.checkpoint_ids(), vec![first.clone()]);

    repo.write("a.txt", "second\n");
    repo.write_bytes("blob.bin", b"\0binary\0");
    let second = repo.save(&["-q", "--pin"]);
    assert_eq!(repo.checkpoint_tree(&second), repo.oracle_tree());

    let list = Json::parse(&repo.cp(&["list", "--json"]).ok().stdout);
    assert_eq!(list.get("0.id"), second);
    assert_eq!(list.get("0.commit").len(), hex);
    assert_eq!(list.get("1.id"), first);
    let human = repo.cp(&["list"]).ok().stdout;
    assert!(human.contains(&first) && human.contains(&second), "{human}");

    let show = Json::parse(&repo.cp(&["show", "one", "--json"]).ok().stdout);
    assert_eq!(show.get("commit"), repo.checkpoint_commit(&first));
    // A commit prefix names a checkpoint too.
    let commit = repo.checkpoint_commit(&second);
    assert_eq!(
        Json::parse(&repo.cp(&["show", &commit[..10], "--json"]).ok().stdout).get("id"),
        second
    );

    // A binary patch, with full index lines of this format.
    let patch = repo.cp(&["diff", &first, &second, "--binary"]).ok().stdout;
    assert!(
        patch
            .lines()
            .any(|l| l.starts_with("index ") && l.split(['.', ' ']).any(|part| part.len() == hex)),
        "{patch}"
    );
    assert!(patch.contains("GIT binary patch"), "{patch}");
    let names = repo.cp(&["diff", &first, "--name-only"]).ok().stdout;
    assert_eq!(names, "a.txt\nblob.bin\n");

    // Restore, undo, redo.
    repo.cp(&["restore", "-q", &first]).ok();
    assert_eq!(repo.read("a.txt"), "changed\n");
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&first));
    repo.cp(&["undo", "-q"]).ok();
    assert_eq!(repo.read("a.txt"), "second\n");
    repo.cp(&["redo", "-q"]).ok();
    assert_eq!(repo.read("a.txt"), "changed\n");
    assert_eq!(
        repo.fingerprint(),
        before,
        "HEAD, branch and index untouched"
    );

    // Pin, unpin, prune, drop.
    repo.cp(&["pin", "-q", &first]).ok();
    assert_eq!(repo.note_json(&first).get("pinned"), "true");
    repo.cp(&["unpin", "-q", &first]).ok();
    assert_eq!(repo.note_json(&first).get("pinned"), "false");
    repo.cp(&["prune", "-q", "--keep", "0"]).ok();
    assert!(
        repo.checkpoint_ids().contains(&second),
        "the pinned one stays"
    );
    assert!(!repo.checkpoint_ids().contains(&first));
    repo.cp(&["drop", "-q", &second]).ok();
    assert!(!repo.checkpoint_ids().contains(&second));

    // What is left survives git's garbage collection, and restores.
    repo.write("a.txt", "kept\n");
    let kept = repo.save(&["-q"]);
    repo.git(&["gc", "-q", "--prune=now"]);
    repo.write("a.txt", "overwritten\n");
    repo.cp(&["restore", "-q", &kept]).ok();
    assert_eq!(repo.read("a.txt"), "kept\n");
    assert_eq!(repo.note_json(&kept).get("id"), kept);
    repo.fsck();
}

#[test]
fn sha256_repository_every_command_works() {
    every_command_works(&["--object-format=sha256"]);
}

#[test]
fn reftable_repository_every_command_works() {
    if no_reftable() {
        return;
    }
    every_command_works(&["--ref-format=reftable"]);
}

#[test]
fn sha256_reftable_repository_every_command_works() {
    if no_reftable() {
        return;
    }
    every_command_works(&["--object-format=sha256", "--ref-format=reftable"]);
}

/// In a reftable repository, refs live in the reftable stack only: git lists them, and no
/// loose ref file (which git would never read, leaving its objects to `git gc`) is written.
#[test]
fn reftable_refs_are_written_where_git_reads_them() {
    if no_reftable() {
        return;
    }
    let repo = repo_with_work(&["--ref-format=reftable"]);
    let id = repo.save(&["-q"]);
    assert_eq!(
        repo.git(&["for-each-ref", "--format=%(refname)", "refs/checkpoints/"]),
        format!("refs/checkpoints/{id}")
    );
    assert!(repo.ref_value("refs/notes/checkpoints").len() >= 40);
    // git's own stub aside (`refs/heads`, a file, keeps older gits away), nothing is there.
    let refs = repo.path().join(".git/refs");
    assert_eq!(
        loose_refs(&refs),
        vec![refs.join("heads").display().to_string()]
    );
    assert!(
        !repo.path().join(".git/packed-refs").exists(),
        "no packed-refs written"
    );
    // No object git-checkpoint wrote is unreachable: nothing for gc to take.
    let dangling = repo.git(&["fsck", "--dangling", "--no-progress"]);
    assert_eq!(dangling, "", "dangling objects");
}

/// The files under a `refs` directory (a reftable repository has only git's stubs there).
fn loose_refs(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n != ".invalid") {
                out.push(path.display().to_string());
            }
        }
    }
    out
}

/// A linked worktree of a reftable repository reads its own `HEAD` from its own stack and
/// shares the checkpoints of the common one.
#[test]
fn reftable_linked_worktree_has_its_own_head() {
    if no_reftable() {
        return;
    }
    let repo = repo_with_work(&["--ref-format=reftable"]);
    repo.git(&["commit", "-qam", "second"]);
    let linked = repo.scratch().join("linked");
    repo.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "side",
        linked.to_str().unwrap(),
        "HEAD~1",
    ]);
    fs::write(linked.join("a.txt"), "in the linked worktree\n").unwrap();
    let out = repo.cp_in_dir(&linked, &["save", "--json"]).ok();
    let json = Json::parse(&out.stdout);
    assert_eq!(json.get("head.ref"), "refs/heads/side");
    assert_eq!(json.get("head.commit"), repo.git(&["rev-parse", "HEAD~1"]));
    assert_eq!(json.get("worktree"), "linked");
    let id = json.get("id");
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree_in(&linked));
    // The main worktree sees it (with --all) and its own HEAD is unchanged.
    let all = repo.cp(&["list", "--all"]).ok().stdout;
    assert!(all.contains(&id), "{all}");
    let main = repo.cp(&["save", "--json", "--allow-empty"]).ok().stdout;
    assert_eq!(
        Json::parse(&main).get("head.commit"),
        repo.git(&["rev-parse", "HEAD"])
    );
    fs::write(linked.join("a.txt"), "changed again\n").unwrap();
    repo.cp_in_dir(&linked, &["restore", "-q", &id]).ok();
    assert_eq!(
        fs::read_to_string(linked.join("a.txt")).unwrap(),
        "in the linked worktree\n"
    );
}

/// An unborn branch in a reftable repository: `HEAD` names a branch that does not exist yet.
#[test]
fn reftable_unborn_branch() {
    if no_reftable() {
        return;
    }
    let repo = Repo::init(&["--ref-format=reftable"]);
    repo.write("a.txt", "a\n");
    let out = repo.cp(&["save", "--json"]).ok();
    let json = Json::parse(&out.stdout);
    assert_eq!(json.get("head.ref"), "refs/heads/main");
    assert_eq!(json.get("head.commit"), "null");
    assert_eq!(repo.checkpoint_tree(&json.get("id")), repo.oracle_tree());
}

/// A nested repository and a submodule whose refs are in the reftable format are recorded as
/// gitlinks to their `HEAD`, as `git add -A` does, whatever the outer repository's formats.
#[test]
fn nested_reftable_repositories_are_recorded_at_their_head() {
    if no_reftable() {
        return;
    }
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let format = format!("--object-format={}", repo.object_format());
    let nested = repo.path().join("nested");
    repo.git(&["init", "-q", &format, "--ref-format=reftable", "nested"]);
    fs::write(nested.join("n.txt"), "n\n").unwrap();
    repo.git_in_dir(&nested, &["add", "-A"]);
    repo.git_in_dir(&nested, &["commit", "-qm", "nested"]);
    let id = repo.save(&["-q"]);
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    assert_eq!(
        repo.git(&[
            "rev-parse",
            &format!("{}:nested", repo.checkpoint_commit(&id))
        ]),
        repo.git_in_dir(&nested, &["rev-parse", "HEAD"])
    );
    assert_eq!(repo.note_json(&id).keys("skipped"), Vec::<String>::new());
}

/// git's SHA-1/SHA-256 interoperability keeps a map of every object's other id, which gix does
/// not write: such a repository is refused, with what to know, before anything is written.
#[test]
fn compat_object_format_is_refused_clearly() {
    let repo = Repo::init(&["--object-format=sha256"]);
    repo.git(&["config", "extensions.compatObjectFormat", "sha1"]);
    repo.write("a", "a\n");
    for args in [&["save"][..], &["list"]] {
        let out = repo.cp(args).fails_with(1);
        out.assert_one_error_line();
        assert!(out.stderr.contains("compatObjectFormat"), "{}", out.stderr);
    }
    // Without the extension again (a git before 2.43 refuses to work with it at all), git
    // shows that nothing was written.
    let config = repo.path().join(".git/config");
    let text = fs::read_to_string(&config).unwrap();
    let without: Vec<&str> = text
        .lines()
        .filter(|l| !l.to_ascii_lowercase().contains("compatobjectformat"))
        .collect();
    fs::write(&config, without.join("\n") + "\n").unwrap();
    assert_eq!(repo.git(&["for-each-ref", "refs/checkpoints/"]), "");
}

/// An unknown ref storage is refused, never guessed.
#[test]
fn an_unknown_ref_storage_is_refused() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    if repo.is_reftable() {
        skip("the test changes a files repository's ref storage by hand");
        return;
    }
    repo.git(&["config", "core.repositoryFormatVersion", "1"]);
    repo.git(&["config", "extensions.refStorage", "mystery"]);
    let out = repo.cp(&["list"]).fails_with(1);
    out.assert_one_error_line();
    assert!(out.stderr.contains("mystery"), "{}", out.stderr);
}

/// The first git found among older ones installed here, with its version, if any.
fn older_git() -> Option<(String, String)> {
    for path in ["/usr/bin/git", "/bin/git", "/usr/local/bin/git-2.39"] {
        let Ok(out) = std::process::Command::new(path).arg("--version").output() else {
            continue;
        };
        let version = String::from_utf8_lossy(&out.stdout)
            .trim()
            .trim_start_matches("git version ")
            .to_string();
        let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
        let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
        if (major, minor) < (2, 45) {
            return Some((path.to_string(), version));
        }
    }
    None
}

/// reftable needs git 2.45 or newer on PATH: with an older one every command says so, and
/// nothing is written.
#[test]
fn reftable_with_an_old_git_says_which_git_is_needed() {
    if no_reftable() {
        return;
    }
    let Some((old, version)) = older_git() else {
        skip("no git older than 2.45 is installed to run the tool with");
        return;
    };
    let repo = repo_with_work(&["--ref-format=reftable"]);
    let bin_dir = repo.scratch().join("old-git");
    fs::create_dir_all(&bin_dir).unwrap();
    std::os::unix::fs::symlink(&old, bin_dir.join("git")).unwrap();
    let path = crate::common::path_with(&bin_dir);
    for args in [&["save"][..], &["list"]] {
        let out = repo
            .cp_with(
                |cmd| {
                    cmd.env("PATH", &path);
                },
                args,
            )
            .fails_with(1);
        out.assert_one_error_line();
        assert!(
            out.stderr.contains("reftable")
                && out.stderr.contains("2.45")
                && out.stderr.contains(&version),
            "{}",
            out.stderr
        );
    }
    assert_eq!(repo.checkpoint_ids(), Vec::<String>::new());
}

/// git cannot push or fetch between a SHA-1 and a SHA-256 repository: both commands say so
/// in one line, whichever side has checkpoints, and nothing is written on either side.
#[test]
fn push_and_fetch_between_sha1_and_sha256_refuse_clearly() {
    for (here, there) in [("sha256", "sha1"), ("sha1", "sha256")] {
        let remote = Repo::init(&["--bare", &format!("--object-format={there}")]);
        let other = Repo::init(&[&format!("--object-format={there}")]);
        other.write("a", "a\n");
        other.git(&["add", "-A"]);
        other.git(&["commit", "-qm", "a"]);
        other.git(&["push", "-q", remote.path().to_str().unwrap(), "main"]);
        let repo = repo_with_work(&[&format!("--object-format={here}")]);
        repo.git(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
        repo.save(&["-q"]);
        for args in [&["push"][..], &["fetch"]] {
            let out = repo.cp(args).fails_with(1);
            out.assert_one_error_line();
            assert!(
                out.stderr.contains("SHA-1") && out.stderr.contains("SHA-256"),
                "{here} → {there} {args:?}: {}",
                out.stderr
            );
        }
        assert_eq!(remote.git(&["for-each-ref", "refs/checkpoints/"]), "");
        assert_eq!(repo.checkpoint_ids().len(), 1);

        // A remote with no ref at all shows no format until git tries to send (after push's
        // warning about what travels): git's own refusal is said the same way.
        let empty = Repo::init(&["--bare", &format!("--object-format={there}")]);
        let out = repo.cp(&["push", empty.path().to_str().unwrap()]);
        out.assert_no_panic();
        assert_eq!(out.code, 1, "{}", out.stderr);
        let last = out.stderr.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("error: ") && last.contains("SHA-1") && last.contains("SHA-256"),
            "{}",
            out.stderr
        );
        assert_eq!(empty.git(&["for-each-ref"]), "");
    }
}

/// Two embedded repositories below `dir` (`""`: the top), one of each object format, each with
/// a commit: whatever the outer repository's format, one of them is of the other.
fn embed_both_formats(repo: &Repo, dir: &str) -> Vec<(String, String)> {
    let mut made = Vec::new();
    for format in ["sha1", "sha256"] {
        let rel = if dir.is_empty() {
            format!("inner-{format}")
        } else {
            format!("{dir}/inner-{format}")
        };
        let path = repo.path().join(&rel);
        fs::create_dir_all(&path).unwrap();
        repo.git_in_dir(&path, &["init", "-q", &format!("--object-format={format}")]);
        repo.write(&format!("{rel}/file"), &format!("{format}\n"));
        repo.git_in_dir(&path, &["add", "file"]);
        repo.git_in_dir(&path, &["commit", "-qm", "inner"]);
        let head = repo.git_in_dir(&path, &["rev-parse", "HEAD"]);
        made.push((rel, head));
    }
    made
}

/// What `git add -A` records for an embedded repository whose `HEAD` is `head`, in a
/// repository of `hex` hex digits: the id cut, or padded with zeros.
fn gitlink_as_git_records(head: &str, hex: usize) -> String {
    let mut id: String = head.chars().take(hex).collect();
    while id.len() < hex {
        id.push('0');
    }
    id
}

/// A save next to embedded repositories of both object formats writes what `git add -A`
/// writes (the other format's id cut or padded to this repository's length), and nothing git
/// cannot read: `git fsck` is clean, `git gc` works, `show` and `restore` read it, in a
/// repository and in a plain directory.
#[test]
fn embedded_repositories_of_the_other_object_format_are_gitlinks_git_can_read() {
    for plain in [false, true] {
        let repo = if plain {
            Repo::plain()
        } else {
            Repo::with_commit(&[("a", "a\n")])
        };
        repo.write("top.txt", "top\n");
        let mut inner = embed_both_formats(&repo, "");
        inner.extend(embed_both_formats(&repo, "deep/er"));
        let id = repo.save(&["-q"]);
        let hex = if repo.object_format() == "sha256" {
            64
        } else {
            40
        };
        assert_eq!(
            repo.checkpoint_tree(&id),
            repo.oracle_tree(),
            "plain: {plain}"
        );
        for (rel, head) in &inner {
            let at = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}:{rel}")]);
            assert_eq!(
                at,
                gitlink_as_git_records(head, hex),
                "{rel} (plain: {plain})"
            );
        }
        repo.fsck();
        repo.cp(&["show", &id]).ok();
        repo.write("top.txt", "changed\n");
        repo.cp(&["restore", &id]).ok();
        assert_eq!(repo.read("top.txt"), "top\n");
        repo.fsck();
        repo.git(&["gc", "-q"]);
        // Dropped, its objects go with `gc` as any others.
        repo.cp(&["drop", &id]).ok();
        repo.git(&["gc", "-q", "--prune=now"]);
        repo.fsck();
    }
}

/// A tree as an earlier version wrote it next to an embedded repository of the other object
/// format: the entries of `tree` (a tree of this repository), with the gitlink at `rel` holding
/// `head` at its own length. Written with `--literally`, as git itself refuses to.
fn unreadable_like_before(repo: &Repo, tree: &str, rel: &str, head: &str) -> String {
    let mut data: Vec<u8> = Vec::new();
    for line in repo.git(&["ls-tree", tree]).lines() {
        let (meta, name) = line.split_once('\t').unwrap();
        let mut fields = meta.split_whitespace();
        let mode = fields.next().unwrap().trim_start_matches('0');
        let _kind = fields.next();
        let oid = fields.next().unwrap();
        let oid = if name == rel { head } else { oid };
        data.extend_from_slice(format!("{mode} {name}\0").as_bytes());
        data.extend(
            (0..oid.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&oid[i..i + 2], 16).unwrap()),
        );
    }
    repo.git_stdin(
        &["hash-object", "--literally", "-t", "tree", "-w", "--stdin"],
        &data,
    )
}

/// Of the embedded repositories `embed_both_formats` made, the one (path, `HEAD`) whose object
/// format is not `repo`'s.
fn of_the_other_format(repo: &Repo, inner: &[(String, String)]) -> (String, String) {
    let hex = if repo.object_format() == "sha256" {
        64
    } else {
        40
    };
    inner
        .iter()
        .find(|(_, head)| head.len() != hex)
        .unwrap()
        .clone()
}

/// Make checkpoint `id` a commit like its own but of `tree`, its note moved along: as an
/// earlier version left a checkpoint whose tree it broke.
fn point_at_tree(repo: &Repo, id: &str, tree: &str) {
    let old = repo.checkpoint_commit(id);
    let body = repo.git(&["cat-file", "commit", &old]);
    let body = body.split_once('\n').unwrap().1;
    let bad = repo.git_stdin(
        &[
            "hash-object",
            "--literally",
            "-t",
            "commit",
            "-w",
            "--stdin",
        ],
        format!("tree {tree}\n{body}\n").as_bytes(),
    );
    repo.git(&["update-ref", &format!("refs/checkpoints/{id}"), &bad, &old]);
    repo.git(&["notes", "--ref=checkpoints", "copy", &old, &bad]);
    repo.git(&["notes", "--ref=checkpoints", "remove", &old]);
}

/// Checkpoints an earlier version broke (a tree git cannot parse, next to an embedded
/// repository of the other object format) are found by `repair`, given the tree git writes
/// under the same id with the same note, and the unreadable trees are deleted: `git fsck` and
/// `git gc` work again, in the checkpoint's case and in that of one already dropped. Until
/// then, a command that meets such a tree says to run `repair`.
#[test]
fn repair_rewrites_what_an_earlier_version_wrote_next_to_the_other_format() {
    let repo = Repo::with_commit(&[("a", "a\n")]);
    let inner = embed_both_formats(&repo, "");
    let (rel, head) = of_the_other_format(&repo, &inner);
    let id = repo.save(&["-q", "-m", "kept", "--name", "keep"]);
    let dropped = repo.save(&["-q", "--allow-empty", "-m", "dropped"]);
    let good_tree = repo.checkpoint_tree(&id);
    let note = repo.note(&id);

    // Both checkpoints as the earlier version wrote them.
    let bad_tree = unreadable_like_before(&repo, &good_tree, &rel, &head);
    for cp in [&id, &dropped] {
        point_at_tree(&repo, cp, &bad_tree);
    }
    repo.cp(&["drop", &dropped]).ok();
    assert!(
        !repo.git_ok(&["fsck", "--no-progress"]),
        "the tree git cannot read"
    );
    assert!(!repo.git_ok(&["gc", "-q"]), "git gc fails on it");
    let shown = repo.cp(&["show", &id]).fails_with(1);
    assert!(
        shown.stderr.contains("git checkpoint repair"),
        "{}",
        shown.stderr
    );

    // A dry run says what it would do and changes nothing.
    let refs = repo.git(&["for-each-ref"]);
    let dry = repo.cp(&["repair", "--dry-run", "--json"]).ok();
    let report = Json::parse(&dry.stdout);
    assert_eq!(report.get("unreadable.0"), bad_tree);
    assert_eq!(report.get("rewritten.0.id"), id);
    assert_eq!(repo.git(&["for-each-ref"]), refs);
    assert!(repo.git_ok(&["cat-file", "-e", &bad_tree]));

    let out = repo.cp(&["repair"]).ok();
    assert!(
        out.stdout.contains(&format!("rewrote checkpoint {id}")),
        "{}",
        out.stdout
    );
    assert_eq!(repo.checkpoint_tree(&id), good_tree);
    assert_eq!(
        repo.note(&id),
        note,
        "the same note, moved to the new commit"
    );
    assert!(
        !repo.git_ok(&["cat-file", "-e", &bad_tree]),
        "the unreadable tree is gone"
    );
    repo.fsck();
    repo.git(&["gc", "-q"]);
    repo.fsck();
    assert_eq!(
        repo.cp(&["show", "keep"])
            .ok()
            .stdout
            .lines()
            .next()
            .unwrap(),
        format!("checkpoint {id}")
    );
    repo.write("a", "changed\n");
    repo.cp(&["restore", "keep"]).ok();
    assert_eq!(repo.read("a"), "a\n");
    // Nothing left to repair.
    let again = repo.cp(&["repair"]).ok();
    assert!(
        again.stderr.contains("nothing to repair"),
        "{}",
        again.stderr
    );
    assert!(again.stdout.is_empty());
}

/// The same, with the unreadable tree two directories down: repair rewrites the trees above
/// it too, and in a plain directory's store as in a repository.
#[test]
fn repair_rewrites_an_unreadable_tree_below_the_top_and_in_a_plain_directory() {
    let plain = Repo::plain();
    plain.write("a", "a\n");
    for repo in [Repo::with_commit(&[("a", "a\n")]), plain] {
        let inner = embed_both_formats(&repo, "deep/er");
        let id = repo.save(&["-q", "-m", "kept"]);
        let (rel, head) = of_the_other_format(&repo, &inner);
        let name = rel.rsplit('/').next().unwrap().to_string();
        let good_tree = repo.checkpoint_tree(&id);
        let note = repo.note(&id);
        // Bottom up: deep/er holds the bad gitlink, deep and the top hold the trees above it.
        let er = repo.git(&["rev-parse", &format!("{good_tree}:deep/er")]);
        let bad_er = unreadable_like_before(&repo, &er, &name, &head);
        let deep = repo.git(&["rev-parse", &format!("{good_tree}:deep")]);
        let bad_deep = unreadable_like_before(&repo, &deep, "er", &bad_er);
        let bad_top = unreadable_like_before(&repo, &good_tree, "deep", &bad_deep);
        point_at_tree(&repo, &id, &bad_top);
        assert!(
            !repo.git_ok(&["fsck", "--no-progress"]),
            "git cannot read it"
        );

        let out = repo.cp(&["repair"]).ok();
        assert!(
            out.stdout.contains(&format!("rewrote checkpoint {id}")),
            "{}",
            out.stdout
        );
        assert_eq!(repo.checkpoint_tree(&id), good_tree);
        assert_eq!(repo.note(&id), note);
        assert!(
            !repo.git_ok(&["cat-file", "-e", &bad_er]),
            "the bad tree is gone"
        );
        repo.fsck();
        repo.git(&["gc", "-q"]);
        repo.fsck();
    }
}
