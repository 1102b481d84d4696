//! `diff`, checked against `git diff` on the same two commits and with `git apply`.

use crate::common::Repo;

fn save(repo: &Repo) -> String {
    let out = repo.cp(&["save", "-q", "--allow-empty"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout.trim().to_string()
}

fn commit_of(repo: &Repo, id: &str) -> String {
    repo.git(&["rev-parse", &format!("refs/checkpoints/{id}")])
}

/// Two checkpoints A and B differing in every way a patch can express.
fn two_checkpoints() -> (Repo, String, String) {
    let repo = Repo::new();
    repo.write(
        "edit.rs",
        "fn a() {\n    1\n}\n\nfn b() {\n    2\n    3\n    4\n    5\n    6\n}\n",
    );
    repo.write("no-newline.txt", "x\ny");
    repo.write("gone.txt", "bye\n");
    repo.write("empty-then-full", "");
    repo.write("to-empty", "content\n");
    repo.write("crlf.txt", "one\r\ntwo\r\n");
    repo.write_bytes("image.bin", b"\x89PNG\0\x01\x02");
    repo.write("mode.sh", "#!/bin/sh\n");
    repo.write("file-then-link", "plain\n");
    repo.symlink("edit.rs", "link");
    repo.write(
        "old/name.txt",
        "a file that moves\nwith several lines\nof text\n",
    );
    repo.write("ünïcode name.txt", "u\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let a = save(&repo);

    repo.write(
        "edit.rs",
        "fn a() {\n    1\n}\n\nfn b() {\n    2\n    3\n    four\n    5\n    6\n}\nfn c() {}\n",
    );
    repo.write("no-newline.txt", "x\nz");
    repo.remove("gone.txt");
    repo.write("empty-then-full", "now full\n");
    repo.write("to-empty", "");
    repo.write("crlf.txt", "one\r\nTWO\r\n");
    repo.write_bytes("image.bin", b"\x89PNG\0\x03");
    repo.chmod_x("mode.sh", true);
    repo.remove("file-then-link");
    repo.symlink("edit.rs", "file-then-link");
    repo.remove("link");
    repo.symlink("no-newline.txt", "link");
    repo.remove("old/name.txt");
    repo.write(
        "new/name.txt",
        "a file that moves\nwith several lines\nof text\n",
    );
    repo.write("added.txt", "new\n");
    repo.write("ünïcode name.txt", "v\n");
    let b = save(&repo);
    (repo, a, b)
}

#[test]
fn output_matches_git_diff_on_the_same_commits() {
    let (repo, a, b) = two_checkpoints();
    let (ca, cb) = (commit_of(&repo, &a), commit_of(&repo, &b));
    for flags in [
        &[][..],
        &["--numstat"],
        &["--name-status"],
        &["--name-only"],
        &["--stat"],
        &["--no-renames"],
        &["--no-renames", "--stat"],
        &["-U1"],
        &["-U0"],
    ] {
        let mut ours_args = vec!["diff", a.as_str(), b.as_str()];
        ours_args.extend_from_slice(flags);
        let ours = repo.cp(&ours_args);
        assert_eq!(ours.code, 0, "{flags:?}: {}", ours.stderr);
        let mut git_args = vec!["diff"];
        git_args.extend_from_slice(flags);
        git_args.extend_from_slice(&[ca.as_str(), cb.as_str()]);
        let git = repo.git(&git_args);
        assert_eq!(ours.stdout.trim_end(), git, "{flags:?}");
    }
}

/// Rename and context options spelled as git spells them, each compared with git on the same
/// commits: `-M90` (the score attached), `--find-renames=90`, `-M90%`, `-M0.9`, `-M` alone (and
/// a checkpoint after it is not taken for its score), `-U5`, `--unified=5`; `-M=90` is refused,
/// as git refuses it.
#[test]
fn rename_and_context_options_are_spelled_as_in_git() {
    let repo = Repo::new();
    let lines: Vec<String> = (1..=10)
        .map(|i| format!("line number {i:02} of the file"))
        .collect();
    repo.write("before.txt", &(lines.join("\n") + "\n"));
    let long: Vec<String> = (1..=30).map(|i| format!("context line {i}")).collect();
    repo.write("long.txt", &(long.join("\n") + "\n"));
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "base"]);
    let a = save(&repo);
    let mut changed = lines.clone();
    for line in changed.iter_mut().take(3) {
        *line = format!("{line}, now changed");
    }
    repo.remove("before.txt");
    repo.write("after.txt", &(changed.join("\n") + "\n"));
    repo.write(
        "long.txt",
        &(long.join("\n").replace("line 15\n", "line fifteen\n") + "\n"),
    );
    let b = save(&repo);
    let (ca, cb) = (commit_of(&repo, &a), commit_of(&repo, &b));
    let compare = |ours: &[&str], git: &[&str]| {
        let mut args = vec!["diff"];
        args.extend_from_slice(ours);
        args.extend_from_slice(&[a.as_str(), b.as_str()]);
        let out = repo.cp(&args).ok();
        let mut git_args = vec!["diff"];
        git_args.extend_from_slice(git);
        git_args.extend_from_slice(&[ca.as_str(), cb.as_str()]);
        assert_eq!(out.stdout.trim_end(), repo.git(&git_args), "{ours:?}");
        out.stdout
    };
    let strict = compare(&["-M90", "--name-status"], &["-M90", "--name-status"]);
    let loose = compare(&["-M60", "--name-status"], &["-M60", "--name-status"]);
    assert!(
        strict.starts_with("A\tafter.txt\nD\tbefore.txt"),
        "{strict}"
    );
    assert!(loose.starts_with("R0"), "{loose}");
    for spelling in [&["--find-renames=90"][..], &["-M90%"], &["-M0.9"], &["-M9"]] {
        let mut ours = spelling.to_vec();
        ours.push("--name-status");
        assert_eq!(compare(&ours, &ours), strict, "{spelling:?}");
    }
    compare(&["-M", "--name-status"], &["-M", "--name-status"]);
    // `-M A B`: A is a checkpoint, not a score.
    let out = repo.cp(&["diff", "-M", &a, &b, "--name-status"]).ok();
    assert_eq!(out.stdout, loose);
    let out = repo
        .cp(&["diff", "--find-renames", &a, &b, "--name-status"])
        .ok();
    assert_eq!(out.stdout, loose);
    // -M=90 is no score for git, nor here.
    assert!(!repo.git_ok(&["diff", "-M=90", &ca, &cb]));
    let refused = repo.cp(&["diff", "-M=90", &a, &b]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("=90"), "{}", refused.stderr);
    // Context: -U5 as git; -U 5 and --unified 5 (which git would take for a path) too.
    let five = compare(&["-U5", "--no-renames"], &["-U5", "--no-renames"]);
    assert_eq!(
        compare(&["--unified=5", "--no-renames"], &["-U5", "--no-renames"]),
        five
    );
    assert_eq!(
        compare(&["-U", "5", "--no-renames"], &["-U5", "--no-renames"]),
        five
    );
    assert_ne!(
        compare(&["-U1", "--no-renames"], &["-U1", "--no-renames"]),
        five
    );
}

/// A path that matches nothing on either side of a comparison is an error naming it, for diff
/// and show alike; show takes paths as diff does.
#[test]
fn a_path_that_matches_nothing_is_an_error_in_diff_and_show() {
    let (repo, a, b) = two_checkpoints();
    let out = repo
        .cp(&["diff", &a, &b, "--", "edit.rs", "eidt.rs"])
        .fails_with(1);
    out.assert_one_error_line();
    assert!(
        out.stderr.starts_with(&format!(
            "error: pathspec `eidt.rs` did not match any file in checkpoint {a} or checkpoint {b}"
        )),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
    let out = repo
        .cp(&["diff", &a, "--stat", "--", "nope/"])
        .fails_with(1);
    assert!(
        out.stderr.contains(&format!(
            "pathspec `nope` did not match any file in checkpoint {a} or the working tree"
        )),
        "{}",
        out.stderr
    );
    // A path on one side only is a match: gone.txt is only in A, added.txt only in B.
    let ok = repo
        .cp(&["diff", &a, &b, "--name-only", "--", "gone.txt", "added.txt"])
        .ok();
    assert_eq!(ok.stdout, "added.txt\ngone.txt\n");

    // show -- PATHS: the stat of those paths only, as git gives it for the same commits.
    let shown = repo.cp(&["show", &b, "--", "new", "edit.rs"]).ok();
    let head = repo.git(&["rev-parse", &format!("{}^1", commit_of(&repo, &b))]);
    let git_stat = repo.git(&[
        "diff",
        "--stat",
        &head,
        &commit_of(&repo, &b),
        "--",
        "new",
        "edit.rs",
    ]);
    assert!(
        shown.stdout.trim_end().ends_with(&git_stat),
        "{}\n--- git:\n{git_stat}",
        shown.stdout
    );
    assert!(!shown.stdout.contains("added.txt"), "{}", shown.stdout);
    let out = repo.cp(&["show", &b, "--", "nope"]).fails_with(1);
    assert!(
        out.stderr.contains("pathspec `nope` did not match"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "", "nothing of the checkpoint is printed");
}

#[test]
fn the_patch_applies_and_gives_b_exactly() {
    let (repo, a, b) = two_checkpoints();
    let out = repo.cp(&["diff", &a, &b, "--binary"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_applies(&repo, &a, &b, &out.stdout);
}

/// `git apply --cached` of `patch` onto A's tree gives B's tree.
fn assert_applies(repo: &Repo, a: &str, b: &str, patch: &str) {
    let index = repo.scratch().join("apply-index");
    let index = index.to_str().unwrap();
    let env = [("GIT_INDEX_FILE", index)];
    repo.git_env(
        &env,
        &["read-tree", &format!("refs/checkpoints/{a}^{{tree}}")],
    );
    let patch_file = repo.scratch().join("patch");
    std::fs::write(&patch_file, patch).unwrap();
    repo.git_env(&env, &["apply", "--cached", patch_file.to_str().unwrap()]);
    assert_eq!(
        repo.git_env(&env, &["write-tree"]),
        repo.checkpoint_tree(b),
        "applying the patch does not give B"
    );
}

/// A small deterministic generator (xorshift), so every run tries the same scripts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_text(rng: &mut Rng) -> String {
    let words = [
        "alpha",
        "beta",
        "gamma",
        "",
        "fn x() {",
        "}",
        "    return",
        "delta",
    ];
    let mut text = String::new();
    for _ in 0..rng.below(30) {
        text.push_str(words[rng.below(words.len() as u64) as usize]);
        text.push('\n');
    }
    if rng.below(5) == 0 {
        text.push_str("no newline at the end");
    }
    text
}

#[test]
fn random_edit_scripts_round_trip_through_git_apply() {
    for seed in 1..=40u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let repo = Repo::new();
        let mut files: Vec<String> = Vec::new();
        for i in 0..8 {
            let name = format!("d{}/f{i}.txt", rng.below(3));
            repo.write(&name, &random_text(&mut rng));
            files.push(name);
        }
        let a = save(&repo);
        for _ in 0..10 {
            let pick = rng.below(files.len() as u64) as usize;
            match rng.below(4) {
                0 => {
                    repo.remove(&files[pick]);
                    files.remove(pick);
                    if files.is_empty() {
                        break;
                    }
                }
                1 => {
                    let name = format!("n{}/g{}.txt", rng.below(3), rng.next() % 1000);
                    repo.write(&name, &random_text(&mut rng));
                    files.push(name);
                }
                _ => {
                    // Edit some lines of an existing file.
                    let old = repo.read(&files[pick]);
                    let mut lines: Vec<String> = old.lines().map(String::from).collect();
                    for _ in 0..3 {
                        let at = rng.below(lines.len() as u64 + 1) as usize;
                        if rng.below(2) == 0 && at < lines.len() {
                            lines.remove(at);
                        } else {
                            lines.insert(at, format!("line {}", rng.next() % 100));
                        }
                    }
                    let mut text = lines.join("\n");
                    if rng.below(4) != 0 {
                        text.push('\n');
                    }
                    repo.write(&files[pick], &text);
                }
            }
        }
        let b = save(&repo);
        let out = repo.cp(&["diff", &a, &b]);
        assert_eq!(out.code, 0, "seed {seed}: {}", out.stderr);
        let ca = commit_of(&repo, &a);
        let cb = commit_of(&repo, &b);
        if std::env::var_os("DEBUG_SEED").is_some() {
            eprintln!(
                "seed {seed}\n--- ours\n{}\n--- git\n{}",
                out.stdout,
                repo.git(&["diff", &ca, &cb])
            );
        }
        assert_applies(&repo, &a, &b, &out.stdout);
        assert_eq!(
            repo.cp(&["diff", &a, &b, "--numstat"]).stdout.trim_end(),
            repo.git(&["diff", "--numstat", &ca, &cb]),
            "seed {seed}"
        );
    }
}

#[test]
fn diff_against_the_working_tree_writes_nothing() {
    let repo = Repo::new();
    repo.write("a", "a\n");
    repo.git(&["add", "a"]);
    repo.git(&["commit", "-qm", "base"]);
    let a = save(&repo);
    repo.write("a", "changed\n");
    repo.write("untracked.txt", "new and untracked\n");
    repo.write(".gitignore", "*.log\n");
    repo.write("ignored.log", "never shown\n");
    let objects = repo.object_files();
    let refs = repo.git(&["for-each-ref"]);
    let fingerprint = repo.fingerprint();

    let with_id = repo.cp(&["diff", &a, "--name-status"]);
    assert_eq!(with_id.code, 0, "{}", with_id.stderr);
    assert_eq!(with_id.stdout, "A\t.gitignore\nM\ta\nA\tuntracked.txt\n");
    let newest = repo.cp(&["diff", "--name-status"]);
    assert_eq!(
        newest.stdout, with_id.stdout,
        "no argument: the newest checkpoint"
    );
    let patch = repo.cp(&["diff"]);
    assert!(
        patch.stdout.contains("+new and untracked"),
        "{}",
        patch.stdout
    );
    assert!(!patch.stdout.contains("never shown"));

    assert_eq!(repo.object_files(), objects, "no object written");
    assert_eq!(repo.git(&["for-each-ref"]), refs);
    assert_eq!(repo.fingerprint(), fingerprint);
}

#[test]
fn paths_json_and_colour() {
    let (repo, a, b) = two_checkpoints();
    let only = repo.cp(&["diff", &a, &b, "--name-only", "--", "new", "edit.rs"]);
    assert_eq!(only.stdout, "edit.rs\nnew/name.txt\n");
    let json = repo.cp(&["diff", &a, &b, "--json"]).stdout;
    let files = Repo::json_get(&json, "files");
    assert!(files.contains(r#""path": "new/name.txt""#), "{files}");
    assert!(files.contains(r#""old_path": "old/name.txt""#), "{files}");
    assert!(files.contains(r#""status": "R100""#), "{files}");
    assert_eq!(
        Repo::json_get(&json, "files.0.path"),
        "added.txt",
        "sorted by path"
    );
    assert_eq!(Repo::json_get(&json, "files.0.additions"), "1");

    let plain = repo.cp(&["diff", &a, &b]);
    assert!(!plain.stdout.contains('\x1b'), "NO_COLOR / not a terminal");
    let always = repo.cp(&["--color=always", "diff", &a, &b]);
    assert!(always.stdout.contains("\x1b[32m+"), "{}", always.stdout);
    repo.git(&["config", "color.diff", "always"]);
    let config = repo.cp(&["diff", &a, &b]);
    assert!(config.stdout.contains('\x1b'), "color.diff=always");
    let never = repo.cp(&["--color=never", "diff", &a, &b]);
    assert!(!never.stdout.contains('\x1b'));
}

#[test]
fn colour_follows_no_color_term_the_pager_and_git_config() {
    let (repo, a, b) = two_checkpoints();
    // The harness sets NO_COLOR=1 and TERM=dumb; each case starts from a colour terminal's
    // environment, with stdout a pipe (not a terminal).
    let run = |vars: &[(&str, &str)], args: &[&str]| {
        let out = repo.cp_with(
            |cmd| {
                cmd.env_remove("NO_COLOR").env("TERM", "xterm-256color");
                for (k, v) in vars {
                    cmd.env(k, v);
                }
            },
            args,
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        // A coloured patch: git's `new` (green) slot on an added line.
        out.stdout.contains("\x1b[32m+")
    };
    let diff = ["diff", a.as_str(), b.as_str()];
    assert!(!run(&[], &diff), "a pipe is not a terminal");
    assert!(run(&[("GIT_PAGER_IN_USE", "1")], &diff), "git's pager");
    assert!(!run(&[("GIT_PAGER_IN_USE", "1"), ("NO_COLOR", "1")], &diff));
    assert!(!run(&[("GIT_PAGER_IN_USE", "1"), ("TERM", "dumb")], &diff));
    // NO_COLOR with an empty value does not count (no-color.org).
    assert!(run(&[("GIT_PAGER_IN_USE", "1"), ("NO_COLOR", "")], &diff));
    // --color=always wins over everything; --color=never too.
    let always = ["--color=always", "diff", a.as_str(), b.as_str()];
    assert!(run(&[("NO_COLOR", "1"), ("TERM", "dumb")], &always));
    let never = ["--color=never", "diff", a.as_str(), b.as_str()];
    assert!(!run(&[("GIT_PAGER_IN_USE", "1")], &never));
    // color.ui, and color.diff over color.ui, as git reads them.
    repo.git(&["config", "color.ui", "always"]);
    assert!(run(&[], &diff), "color.ui=always");
    repo.git(&["config", "color.diff", "never"]);
    assert!(!run(&[("GIT_PAGER_IN_USE", "1")], &diff), "color.diff wins");
    // show -p colours its patch by the same rules; --json never has colour.
    assert!(!run(
        &[("GIT_PAGER_IN_USE", "1")],
        &["show", "-p", b.as_str()]
    ));
    let json = repo.cp(&["--color=always", "diff", &a, &b, "--json"]);
    assert!(json.stdout.starts_with('{') && !json.stdout.contains('\x1b'));
}

#[test]
fn show_patch_uses_the_same_renderer() {
    let (repo, _a, b) = two_checkpoints();
    let out = repo.cp(&["show", &b, "-p"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let commit = commit_of(&repo, &b);
    let git = repo.git(&["diff", "HEAD", &commit]);
    assert!(out.stdout.contains(&git), "{}\n---\n{git}", out.stdout);
}

/// Files of several languages whose change lies under a function that git's default rule (the
/// nearest line starting with a letter) would not name, each with the driver that names it.
/// The second element is the file before, the third after.
fn driver_samples() -> Vec<(&'static str, String, String)> {
    let body = |n: usize| -> String { (1..=n).map(|i| format!("    step{i}();\n")).collect() };
    let edit = |text: &str| text.replacen("step5()", "step5(changed)", 1);
    let mut samples = Vec::new();
    let mut add = |path: &'static str, before: String| {
        let after = edit(&before);
        assert_ne!(before, after, "{path}: the sample has a step5");
        samples.push((path, before, after));
    };
    // perl: the label at the left margin is no function.
    add(
        "lib/Tool.pm",
        format!(
            "package Tool;\n\nsub run {{\n    my $x = 1;\nLOOP: for my $i (1..3) {{\n{}    }}\n}}\n",
            body(8)
        ),
    );
    // python: a method below its class.
    add(
        "tool.py",
        format!("class Tool:\n    x = 1\n\n    def run(self):\n{}", body(8)),
    );
    // rust: a method inside its impl block.
    add(
        "src/tool.rs",
        format!(
            "impl Tool {{\n    pub fn run(&self) {{\n{}    }}\n}}\n",
            body(8)
        ),
    );
    // cpp: an access label is no function.
    add(
        "tool.cc",
        format!(
            "class Tool {{\npublic:\n  int run() {{\n{}  }}\n}};\n",
            body(8)
        ),
    );
    // java: a method inside its class.
    add(
        "Tool.java",
        format!(
            "public class Tool {{\n    int x;\n    public void run(int a) {{\n{}    }}\n}}\n",
            body(8)
        ),
    );
    // golang: a change in a table after a function is under that function for git.
    add(
        "tool.go",
        format!(
            "func Run() {{\n\tx := 1\n}}\n\nvar table = []int{{\n{}}}\n",
            body(8)
        ),
    );
    // markdown: a heading, where prose starts with letters.
    add(
        "README.md",
        format!("# Tool\n\n## Usage\n\nSome text.\n{}", body(8)),
    );
    // fortran (matched ignoring case): an indented subroutine.
    add(
        "solve.f",
        format!(
            "      subroutine solve(x)\n      real x\n{}      end\n",
            body(8)
        ),
    );
    // A driver defined by `diff.<name>.xfuncname` (its first group shown).
    add("app.cfg", format!("[server]\nport = 1\n{}", body(8)));
    // A driver defined by `diff.<name>.funcname`, a basic regular expression.
    add(
        "notes.ini",
        format!("section 12 intro\nplain words\n{}", body(8)),
    );
    // A configured pattern replaces the built-in one of the same name.
    add(
        "tool.rb",
        format!(
            "# Region: core\nclass Tool\n  def run\n{}  end\nend\n",
            body(8)
        ),
    );
    // A name no driver has behaves like no attribute at all.
    add("other.txt", format!("first line\n  indented\n{}", body(8)));
    samples
}

const DRIVER_ATTRIBUTES: &str = "*.pm diff=perl\n*.py diff=python\n*.rs diff=rust\n\
*.cc diff=cpp\n*.java diff=java\n*.go diff=golang\n*.md diff=markdown\n*.f diff=fortran\n\
*.cfg diff=conf\n*.ini diff=notes\n*.rb diff=ruby\n*.txt diff=nosuch\n";

/// A repository whose `.gitattributes` and config select a driver for each sample, with
/// checkpoints A (before) and B (after), and commits of both for git.
fn drivers_repo() -> (Repo, String, String) {
    let repo = Repo::new();
    repo.git(&["config", "diff.conf.xfuncname", "^\\[([a-z]+)\\]"]);
    repo.git(&[
        "config",
        "diff.notes.funcname",
        "^\\(\\(section\\|part\\) [0-9]\\{1,\\}\\)",
    ]);
    repo.git(&["config", "diff.ruby.xfuncname", "^# Region: (.*)$"]);
    repo.write(".gitattributes", DRIVER_ATTRIBUTES);
    let samples = driver_samples();
    for (path, before, _) in &samples {
        repo.write(path, before);
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "before"]);
    let a = save(&repo);
    for (path, _, after) in &samples {
        repo.write(path, after);
    }
    repo.git(&["add", "-A"]);
    let b = save(&repo);
    (repo, a, b)
}

/// The hunk headers of a patch, with the file each belongs to.
fn hunk_headers(patch: &str) -> Vec<&str> {
    patch
        .lines()
        .filter(|l| l.starts_with("+++ ") || l.starts_with("@@ "))
        .collect()
}

/// Hunk headers follow the `diff` attribute as `git diff` does: built-in drivers (perl,
/// python, rust, cpp, java, golang, markdown, fortran ignoring case), drivers defined by
/// `diff.<name>.xfuncname` and `diff.<name>.funcname`, a configured pattern over the built-in
/// one of its name, an unknown name as no driver; between checkpoints, against the working
/// tree, and with other context sizes. The patch still applies.
#[test]
fn hunk_headers_follow_diff_drivers_as_in_git() {
    let (repo, a, b) = drivers_repo();
    let (ca, cb) = (commit_of(&repo, &a), commit_of(&repo, &b));
    for flags in [&[][..], &["-U1"], &["-U6"]] {
        let (ours, git) = ours_and_gits(&repo, [&a, &b], [&ca, &cb], flags);
        assert_eq!(hunk_headers(&ours), hunk_headers(&git), "{flags:?}");
        assert_eq!(ours.trim_end(), git, "{flags:?}");
    }
    // Against the working tree (everything is staged, so `git diff <commit>` sees it all).
    let ours = repo.cp(&["diff", &a]).ok();
    assert_eq!(ours.stdout.trim_end(), repo.git(&["diff", &ca]));
    let headers = hunk_headers(&ours.stdout).join("\n");
    for expected in [
        "@@ sub run {",
        "@@ def run(self):",
        "@@ pub fn run(&self) {",
        "@@ class Tool {",
        "@@ public void run(int a) {",
        "@@ func Run() {",
        "@@ ## Usage",
        "@@ subroutine solve(x)",
        "@@ server",
        "@@ section 12",
        "@@ core",
        "@@ first line",
    ] {
        assert!(headers.contains(expected), "{expected:?} in\n{headers}");
    }
    let patch = repo.cp(&["diff", &a, &b]).ok().stdout;
    assert_applies(&repo, &a, &b, &patch);
}

/// `-diff`, the `binary` macro and `diff.<name>.binary` make a text file binary, and a set
/// `diff` makes a file with NUL bytes text, in the patch, `--numstat`, `--stat` and `--json`
/// as in `git diff`; `--binary` patches of them apply.
#[test]
fn diff_attributes_decide_what_is_binary_as_in_git() {
    let repo = Repo::new();
    repo.git(&["config", "diff.generated.binary", "true"]);
    repo.write(
        ".gitattributes",
        "*.lock -diff\n*.dat binary\n*.gen diff=generated\n*.raw diff\n",
    );
    repo.write("Cargo.lock", "a = 1\n");
    repo.write("table.dat", "x\n");
    repo.write("parser.gen", "rule\n");
    repo.write_bytes("data.raw", b"head\0er\nline\n");
    repo.write("plain.txt", "plain\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "before"]);
    let a = save(&repo);
    repo.write("Cargo.lock", "a = 2\n");
    repo.write("table.dat", "y\n");
    repo.write("parser.gen", "rule2\n");
    repo.write_bytes("data.raw", b"head\0er\nline two\n");
    repo.write("plain.txt", "plain two\n");
    repo.git(&["add", "-A"]);
    let b = save(&repo);
    let (ca, cb) = (commit_of(&repo, &a), commit_of(&repo, &b));
    for flags in [&[][..], &["--numstat"], &["--stat"]] {
        let (ours, git) = ours_and_gits(&repo, [&a, &b], [&ca, &cb], flags);
        assert_eq!(ours.trim_end(), git, "{flags:?}");
    }
    let numstat = repo.cp(&["diff", &a, &b, "--numstat"]).ok().stdout;
    assert!(numstat.contains("-\t-\tCargo.lock"), "{numstat}");
    assert!(numstat.contains("1\t1\tdata.raw"), "{numstat}");
    let json = repo.cp(&["diff", &a, &b, "--json"]).ok().stdout;
    assert_eq!(Repo::json_get(&json, "files.0.path"), "Cargo.lock");
    assert_eq!(Repo::json_get(&json, "files.0.binary"), "true");
    let patch = repo
        .cp(&[
            "diff",
            &a,
            &b,
            "--binary",
            "--",
            "Cargo.lock",
            "table.dat",
            "parser.gen",
        ])
        .ok()
        .stdout;
    assert!(patch.contains("GIT binary patch"), "{patch}");
    let index = repo.scratch().join("binary-index");
    let env = [("GIT_INDEX_FILE", index.to_str().unwrap())];
    repo.git_env(&env, &["read-tree", &format!("{ca}^{{tree}}")]);
    let patch_file = repo.scratch().join("binary.patch");
    std::fs::write(&patch_file, &patch).unwrap();
    repo.git_env(&env, &["apply", "--cached", patch_file.to_str().unwrap()]);
    for path in ["Cargo.lock", "table.dat", "parser.gen"] {
        assert_eq!(
            repo.git_env(&env, &["rev-parse", &format!(":{path}")]),
            repo.git(&["rev-parse", &format!("{cb}:{path}")]),
            "{path}"
        );
    }
}

/// A pattern git cannot compile stops the patch as it stops `git diff`, naming the setting;
/// what needs no hunks (`--stat`) still works, as in git.
#[test]
fn a_bad_funcname_pattern_is_an_error_naming_the_setting() {
    let repo = Repo::new();
    repo.git(&["config", "diff.broken.xfuncname", "^(unclosed"]);
    repo.write(".gitattributes", "*.x diff=broken\n");
    repo.write("a.x", "one\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "one"]);
    let a = save(&repo);
    repo.write("a.x", "two\n");
    assert!(!repo.git_ok(&["diff"]), "git refuses the pattern too");
    let out = repo.cp(&["diff", &a]).fails_with(1);
    assert!(
        out.stderr.contains("diff.broken.xfuncname"),
        "{}",
        out.stderr
    );
    out.assert_one_error_line();
    repo.cp(&["diff", &a, "--stat"]).ok();
}

/// In a bare repository git reads no `.gitattributes` of a tree, only the global files such as
/// `info/attributes`; so does `diff` there.
#[test]
fn a_bare_repository_reads_only_the_global_attribute_files() {
    let repo = Repo::new();
    repo.write(".gitattributes", "*.py diff=python\n");
    let (path, before, after) = driver_samples()
        .into_iter()
        .find(|(path, _, _)| path.ends_with(".py"))
        .unwrap();
    repo.write(path, &before);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "before"]);
    let a = save(&repo);
    repo.write(path, &after);
    let b = save(&repo);
    let (ca, cb) = (commit_of(&repo, &a), commit_of(&repo, &b));
    let bare = repo.scratch().join("bare.git");
    let bare_arg = bare.to_str().unwrap();
    repo.git(&["clone", "-q", "--mirror", ".", bare_arg]);
    let headers = |expected: &str| {
        let ours = repo.cp_in_dir(&bare, &["diff", &a, &b]).ok().stdout;
        let git = repo.git_in_dir(&bare, &["diff", &ca, &cb]);
        assert_eq!(ours.trim_end(), git);
        assert!(
            hunk_headers(&ours).iter().any(|h| h.ends_with(expected)),
            "{expected:?} in {ours}"
        );
    };
    headers("@@ class Tool:");
    std::fs::write(bare.join("info/attributes"), "*.py diff=python\n").unwrap();
    headers("@@ def run(self):");
}

/// git prints a function line only up to its first byte that is not UTF-8 (a Latin-1 file, a
/// character cut at 80 bytes), and keeps the space after `@@` when nothing is left of it.
#[test]
fn function_lines_stop_where_git_stops_them() {
    let repo = Repo::new();
    repo.git(&["config", "diff.any.xfuncname", "^[^ ].*"]);
    repo.write(".gitattributes", "*.any diff=any\n");
    let body: String = (1..=8).map(|i| format!("    step{i}();\n")).collect();
    let files: [(&str, Vec<u8>); 3] = [
        ("latin1.txt", b"caf\xe9 au lait\n".to_vec()),
        (
            "long.txt",
            format!("a{}\n", "\u{e9}".repeat(40)).into_bytes(),
        ),
        ("invalid.any", b"\xe9t\xe9\n".to_vec()),
    ];
    for (path, head) in &files {
        repo.write_bytes(path, &[head.as_slice(), body.as_bytes()].concat());
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "before"]);
    let a = save(&repo);
    for (path, head) in &files {
        let changed = body.replace("step5()", "step5(1)");
        repo.write_bytes(path, &[head.as_slice(), changed.as_bytes()].concat());
    }
    repo.git(&["add", "-A"]);
    let ours = repo.cp(&["diff", &a]).ok().stdout;
    let ca = commit_of(&repo, &a);
    assert_eq!(ours.trim_end(), repo.git(&["diff", &ca]));
    let headers = hunk_headers(&ours);
    let long = format!("a{}", "\u{e9}".repeat(39));
    for expected in ["@@ -3,7 +3,7 @@ ", "@@ -3,7 +3,7 @@ caf"] {
        assert!(headers.contains(&expected), "{expected:?} in {headers:?}");
    }
    assert!(
        headers.contains(&format!("@@ -3,7 +3,7 @@ {long}").as_str()),
        "{headers:?}"
    );
}

/// `diff` between the checkpoints `ids` and `git diff` between their `commits`, both with
/// `flags`: our stdout and git's.
fn ours_and_gits(
    repo: &Repo,
    ids: [&str; 2],
    commits: [&str; 2],
    flags: &[&str],
) -> (String, String) {
    let mut ours = vec!["diff", ids[0], ids[1]];
    ours.extend_from_slice(flags);
    let ours = repo.cp(&ours).ok().stdout;
    let mut git = vec!["diff"];
    git.extend_from_slice(flags);
    git.extend_from_slice(&commits);
    (ours, repo.git(&git))
}
