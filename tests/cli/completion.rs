//! Completions through git's own completion, and the man page through `git checkpoint --help`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Repo, Run, bin, skip};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

fn path_with_binary() -> String {
    crate::common::path_with(Path::new(bin()).parent().unwrap())
}

fn repo_with_checkpoints() -> (Repo, String) {
    let repo = Repo::new();
    repo.write("a", "a\n");
    repo.git(&["add", "a"]);
    repo.git(&["commit", "-qm", "base"]);
    let id = repo
        .cp(&["save", "-q", "--name", "before-refactor"])
        .stdout
        .trim()
        .to_string();
    // Remotes, for push and fetch.
    repo.git(&["remote", "add", "origin", "/nowhere/origin.git"]);
    repo.git(&["remote", "add", "backup", "/nowhere/backup.git"]);
    (repo, id)
}

/// Run a shell that prints completion candidates, one a line, in `repo` with the binary on
/// `PATH`; it must succeed.
fn candidates(repo: &Repo, cmd: Command) -> Vec<String> {
    candidates_in(repo, repo.path(), cmd)
}

/// [`candidates`], with `dir` as the current directory.
fn candidates_in(repo: &Repo, dir: &Path, mut cmd: Command) -> Vec<String> {
    cmd.current_dir(dir);
    repo.env(&mut cmd);
    cmd.env("PATH", path_with_binary());
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

const GIT_BASH_COMPLETION: &str = "/usr/share/bash-completion/completions/git";

/// Complete `line` in a real bash with git's completion script and ours loaded.
fn bash_complete(repo: &Repo, line: &str, function: &str) -> Vec<String> {
    bash_complete_in(repo, repo.path(), line, function)
}

/// [`bash_complete`] with `dir` as the current directory.
fn bash_complete_in(repo: &Repo, dir: &Path, line: &str, function: &str) -> Vec<String> {
    let script = format!(
        r#"
source {GIT_BASH_COMPLETION}
source {ours}
COMP_LINE="$1"; COMP_POINT=${{#COMP_LINE}}
read -ra COMP_WORDS <<< "$1"
[[ "$1" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
COMPREPLY=()
{function} "${{COMP_WORDS[0]}}" "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}"
"#,
        ours = root().join("completions/git-checkpoint.bash").display()
    );
    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(script).arg("bash").arg(line);
    candidates_in(repo, dir, cmd)
}

#[test]
fn bash_completes_through_git_and_directly() {
    if !Path::new(GIT_BASH_COMPLETION).exists() {
        skip(&format!("{GIT_BASH_COMPLETION} is not installed"));
        return;
    }
    let (repo, id) = repo_with_checkpoints();
    let subcommands = bash_complete(&repo, "git checkpoint ", "__git_wrap__git_main");
    for sub in [
        "save",
        "list",
        "show",
        "diff",
        "restore",
        "undo",
        "drop",
        "prune",
        "pin",
        "unpin",
        "push",
        "fetch",
        "completions",
    ] {
        assert!(
            subcommands.iter().any(|s| s == sub),
            "{sub} missing from {subcommands:?}"
        );
    }
    let ids = bash_complete(&repo, "git checkpoint restore ", "__git_wrap__git_main");
    assert!(ids.contains(&id), "{ids:?}");
    assert!(ids.iter().any(|s| s == "before-refactor"), "{ids:?}");
    let to_push = bash_complete(&repo, "git checkpoint push origin ", "__git_wrap__git_main");
    assert!(to_push.contains(&id), "{to_push:?}");
    assert!(!to_push.iter().any(|s| s == "origin"), "{to_push:?}");
    // The remote first, for push and fetch, as with git push.
    for line in [
        "git checkpoint push ",
        "git checkpoint fetch ",
        "git checkpoint push --dry-run ",
    ] {
        let remotes = bash_complete(&repo, line, "__git_wrap__git_main");
        assert_eq!(remotes, vec!["backup", "origin"], "{line:?}");
    }
    let direct = bash_complete(&repo, "git-checkpoint push o", "__git_checkpoint_main");
    assert_eq!(direct, vec!["origin"]);
    let after_fetch = bash_complete(
        &repo,
        "git checkpoint fetch origin ",
        "__git_wrap__git_main",
    );
    assert!(
        !after_fetch.iter().any(|s| s == "origin" || *s == id),
        "fetch takes one remote and no checkpoint: {after_fetch:?}"
    );
    let flags = bash_complete(&repo, "git checkpoint restore --dr", "__git_wrap__git_main");
    assert_eq!(flags, vec!["--dry-run"]);
    let direct = bash_complete(&repo, "git-checkpoint show ", "__git_checkpoint_main");
    assert!(direct.contains(&id), "{direct:?}");
    let direct_sub = bash_complete(&repo, "git-checkpoint res", "__git_checkpoint_main");
    assert_eq!(direct_sub, vec!["restore"]);
    // git's own commands still complete.
    let git = bash_complete(&repo, "git sta", "__git_wrap__git_main");
    assert!(git.iter().any(|s| s == "status"), "{git:?}");
}

/// Checkpoints for revert; remotes for push after options that take a value (whose value is
/// no argument), and from the repository `git -C` names; files after `restore <CP> --`.
#[test]
fn bash_completes_revert_option_values_git_c_and_paths() {
    if !Path::new(GIT_BASH_COMPLETION).exists() {
        skip(&format!("{GIT_BASH_COMPLETION} is not installed"));
        return;
    }
    let (repo, id) = repo_with_checkpoints();
    let through_git = |line: &str| bash_complete(&repo, line, "__git_wrap__git_main");
    for line in ["git checkpoint revert ", "git checkpoint revert @{1} "] {
        let ids = through_git(line);
        assert!(ids.contains(&id), "{line:?}: {ids:?}");
    }
    let direct = bash_complete(&repo, "git-checkpoint revert ", "__git_checkpoint_main");
    assert!(direct.contains(&id), "{direct:?}");
    for line in [
        "git checkpoint push --color never ",
        "git checkpoint push --store /tmp ",
        "git checkpoint --color never push ",
        "git checkpoint push --color=never ",
    ] {
        assert_eq!(through_git(line), vec!["backup", "origin"], "{line:?}");
    }
    let to_push = through_git("git checkpoint push --color never origin ");
    assert!(to_push.contains(&id), "{to_push:?}");
    // The value of --color itself is clap's to complete.
    let colors = through_git("git checkpoint push --color ");
    assert!(colors.iter().any(|c| c == "never"), "{colors:?}");
    // git -C <repo>, from another directory: that repository's remotes and checkpoints.
    let elsewhere = repo.scratch();
    let dir = repo.path().to_str().unwrap();
    let remotes = bash_complete_in(
        &repo,
        elsewhere,
        &format!("git -C {dir} checkpoint push "),
        "__git_wrap__git_main",
    );
    assert_eq!(remotes, vec!["backup", "origin"]);
    let ids = bash_complete_in(
        &repo,
        elsewhere,
        &format!("git -C {dir} checkpoint restore "),
        "__git_wrap__git_main",
    );
    assert!(ids.contains(&id), "{ids:?}");
    // Paths after `--`.
    repo.write("src/lib.rs", "x\n");
    for line in ["git checkpoint restore @ -- ", "git checkpoint diff -- "] {
        let files = through_git(line);
        assert!(
            files.iter().any(|f| f == "a") && files.iter().any(|f| f == "src"),
            "{line:?}: {files:?}"
        );
        assert!(!files.contains(&id), "{files:?}");
    }
    assert_eq!(through_git("git checkpoint restore @ -- sr"), vec!["src"]);
}

#[test]
fn fish_completes_through_git_and_directly() {
    if !have("fish") {
        skip("fish is not installed");
        return;
    }
    let (repo, id) = repo_with_checkpoints();
    let complete_in = |dir: &Path, line: &str| {
        let script = format!(
            "source {}; complete -C '{line}'",
            root().join("completions/git-checkpoint.fish").display()
        );
        let mut cmd = Command::new("fish");
        cmd.arg("--no-config")
            .arg("-c")
            .arg(script)
            .current_dir(dir);
        repo.env(&mut cmd);
        cmd.env("PATH", path_with_binary());
        let out = cmd.output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let complete = |line: &str| complete_in(repo.path(), line);
    let subs = complete("git checkpoint ");
    assert!(subs.contains("restore\t"), "{subs}");
    assert!(complete("git checkpoint restore ").contains(&id));
    assert!(complete("git-checkpoint show ").contains("before-refactor"));
    for line in [
        "git checkpoint push ",
        "git checkpoint fetch ",
        "git-checkpoint push ",
    ] {
        let remotes = complete(line);
        assert!(
            remotes.lines().any(|l| l.starts_with("origin")) && !remotes.contains(&id),
            "{line:?}: {remotes}"
        );
    }
    let ids = complete("git checkpoint push origin ");
    assert!(
        ids.contains(&id) && !ids.lines().any(|l| l.starts_with("origin")),
        "{ids}"
    );
    // revert takes checkpoints; an option's value is no argument; git -C names the repository;
    // files after `--`.
    assert!(complete("git checkpoint revert ").contains(&id));
    assert!(complete("git-checkpoint revert ").contains(&id));
    for line in [
        "git checkpoint push --color never ",
        "git checkpoint push --store /tmp ",
    ] {
        let remotes = complete(line);
        assert!(
            remotes.lines().any(|l| l.starts_with("origin")) && !remotes.contains(&id),
            "{line:?}: {remotes}"
        );
    }
    let dir = repo.path().to_str().unwrap();
    let remotes = complete_in(repo.scratch(), &format!("git -C {dir} checkpoint push "));
    assert!(
        remotes.lines().any(|l| l.starts_with("origin")),
        "{remotes}"
    );
    assert!(complete_in(repo.scratch(), &format!("git -C {dir} checkpoint show ")).contains(&id));
    let files = complete("git checkpoint restore @ -- ");
    assert!(
        files.lines().any(|l| l == "a") && !files.contains(&id),
        "{files}"
    );
}

/// Drives an interactive zsh in a pseudo-terminal (zsh's own zpty module), with compinit and
/// our function on `fpath`, types `$2` and TAB, and prints each candidate that completion
/// offers (a `compadd` wrapper echoes them). `$1` is the directory holding `_git-checkpoint`.
const ZSH_CAPTURE: &str = r#"
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "PROMPT=''; RPROMPT=''; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a __hits; builtin compadd -A __hits "$@"; local ret=$?; (( $#__hits )) && print -l -- "<hit>"${^__hits}; return $ret }'
zpty -w z 'bindkey "^I" complete-word; zle -C complete-word complete-word _main_complete'
zpty -w z "print -- '<start>'"
zpty -r z line '*<start>*'
zpty -n -w z "$2"$'\t'
integer idle=0 hits=0
while (( idle < (hits ? 15 : 150) )); do
  if zpty -r -t z line 2>/dev/null; then
    idle=0
    if [[ $line == *'<hit>'* ]]; then
      hits+=1
      print -r -- ${${line#*<hit>}%%$'\r'*}
    fi
  else
    idle+=1
    sleep 0.1
  fi
done
zpty -d z
"#;

/// Complete `line` in a real interactive zsh with git's `_git` (zsh's own) and ours loaded.
fn zsh_complete(repo: &Repo, line: &str) -> Vec<String> {
    zsh_complete_in(repo, repo.path(), line)
}

/// [`zsh_complete`] with `dir` as the current directory.
fn zsh_complete_in(repo: &Repo, cwd: &Path, line: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("completions/_git-checkpoint"),
        dir.path().join("_git-checkpoint"),
    )
    .unwrap();
    let script = dir.path().join("capture.zsh");
    std::fs::write(&script, ZSH_CAPTURE).unwrap();
    let mut cmd = Command::new("zsh");
    cmd.arg("-f").arg(&script).arg(dir.path()).arg(line);
    candidates_in(repo, cwd, cmd)
}

#[test]
fn zsh_completes_through_git_and_directly() {
    if !have("zsh") {
        skip("zsh is not installed");
        return;
    }
    let (repo, id) = repo_with_checkpoints();
    let subs = zsh_complete(&repo, "git checkpoint ");
    for sub in ["save", "restore", "list", "hooks"] {
        assert!(subs.iter().any(|s| s == sub), "{sub} in {subs:?}");
    }
    let ids = zsh_complete(&repo, "git checkpoint restore ");
    assert!(ids.contains(&id), "{ids:?}");
    assert!(ids.iter().any(|s| s == "before-refactor"), "{ids:?}");
    let direct = zsh_complete(&repo, "git-checkpoint show ");
    assert!(direct.contains(&id), "{direct:?}");
    for line in ["git checkpoint push ", "git checkpoint fetch "] {
        let remotes = zsh_complete(&repo, line);
        assert!(
            remotes.iter().any(|s| s == "origin") && !remotes.contains(&id),
            "{line:?}: {remotes:?}"
        );
    }
    let ids = zsh_complete(&repo, "git checkpoint push origin ");
    assert!(
        ids.contains(&id) && !ids.iter().any(|s| s == "origin"),
        "{ids:?}"
    );
    // revert takes checkpoints; an option's value is no argument; git -C names the repository;
    // files after `--`.
    assert!(zsh_complete(&repo, "git checkpoint revert ").contains(&id));
    let remotes = zsh_complete(&repo, "git checkpoint push --color never ");
    assert!(
        remotes.iter().any(|s| s == "origin") && !remotes.contains(&id),
        "{remotes:?}"
    );
    let dir = repo.path().to_str().unwrap();
    let remotes = zsh_complete_in(
        &repo,
        repo.scratch(),
        &format!("git -C {dir} checkpoint push "),
    );
    assert!(remotes.iter().any(|s| s == "origin"), "{remotes:?}");
    let files = zsh_complete(&repo, "git checkpoint restore @ -- ");
    assert!(
        files.iter().any(|f| f == "a") && !files.contains(&id),
        "{files:?}"
    );
}

#[test]
fn completions_command_prints_the_committed_scripts() {
    let repo = Repo::new();
    for (shell, file) in [
        ("bash", "git-checkpoint.bash"),
        ("zsh", "_git-checkpoint"),
        ("fish", "git-checkpoint.fish"),
        ("elvish", "git-checkpoint.elv"),
        ("powershell", "_git-checkpoint.ps1"),
    ] {
        let out = repo.cp(&["completions", shell]);
        assert_eq!(out.code, 0);
        let committed = std::fs::read_to_string(root().join("completions").join(file)).unwrap();
        assert_eq!(out.stdout, committed, "{shell}");
    }
    assert_eq!(repo.cp(&["completions", "tcsh"]).code, 2);
}

fn man_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let man1 = dir.path().join("man1");
    std::fs::create_dir(&man1).unwrap();
    std::fs::copy(
        root().join("man/git-checkpoint.1"),
        man1.join("git-checkpoint.1"),
    )
    .unwrap();
    let path = dir.path().to_owned();
    (dir, path)
}

#[test]
fn man_page_renders_and_git_help_shows_it() {
    if !have("man") {
        skip("man is not installed");
        return;
    }
    let rendered = Command::new("man")
        .arg("-l")
        .arg(root().join("man/git-checkpoint.1"))
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    assert!(rendered.status.success());
    // Nothing troff cannot render in the C locale (it warns on stderr for each, e.g. "…").
    assert_eq!(String::from_utf8_lossy(&rendered.stderr), "");
    let text = String::from_utf8_lossy(&rendered.stdout);
    for needle in [
        "git checkpoint save",
        "git checkpoint list",
        "git checkpoint show",
        "git checkpoint diff",
        "git checkpoint restore",
        "git checkpoint undo",
        "git checkpoint drop",
        "git checkpoint prune",
        "git checkpoint pin",
        "git checkpoint unpin",
        "git checkpoint completions",
        "CONFIGURATION",
        "checkpoint.maxFileSize",
        "EXIT STATUS",
        "STORAGE FORMAT",
        "EXAMPLES",
        "SEE ALSO",
    ] {
        assert!(text.contains(needle), "man page lacks {needle:?}");
    }
    // The picker's section: when it opens, what it shows, its keys.
    let picker = text
        .split_once("THE PICKER")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("the man page has no picker section"));
    for needle in [
        "restore, diff and show",
        "preview",
        "filters",
        "Up, Down",
        "Enter",
        "dry run",
        "y ",
        "Esc",
        "Off a terminal",
    ] {
        assert!(
            picker.contains(needle),
            "the picker section lacks {needle:?}"
        );
    }

    let (_keep, manpath) = man_dir();
    let repo = Repo::new();
    let mut cmd = Command::new("git");
    cmd.args(["checkpoint", "--help"]).current_dir(repo.path());
    repo.env(&mut cmd);
    cmd.env("PATH", path_with_binary())
        .env("MANPATH", &manpath)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat");
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("git-checkpoint") && text.contains("NAMING A CHECKPOINT"),
        "{text}"
    );
}

/// `install-docs`, run from an installed binary (a copy in `<prefix>/bin`), puts the man page
/// in `<prefix>/share/man`, where man looks for a directory on PATH, and the completion scripts
/// where bash, zsh and fish look: then `git checkpoint --help` shows the man page without any
/// MANPATH, and bash completes `git checkpoint` with nothing sourced by hand.
#[test]
fn install_docs_makes_git_help_and_completion_work() {
    let repo = Repo::new();
    let prefix = tempfile::tempdir().unwrap();
    let bin_dir = prefix.path().join("bin");
    std::fs::create_dir(&bin_dir).unwrap();
    let installed = bin_dir.join("git-checkpoint");
    std::fs::copy(bin(), &installed).unwrap();
    let path = crate::common::path_with(&bin_dir);
    // man-db looks beside a PATH directory only where a man directory exists when MANPATH is
    // worked out, which the tests do before each process (install-docs runs man to check its
    // work): an empty one from the start, as a prefix such as ~/.local usually has.
    std::fs::create_dir_all(prefix.path().join("share/man")).unwrap();
    let canonical_prefix = prefix.path().canonicalize().unwrap();
    let run = |program: &Path, args: &[&str]| -> Run {
        let mut cmd = Command::new(program);
        cmd.args(args).current_dir(repo.path());
        repo.env(&mut cmd);
        // What man finds from PATH with no MANPATH (man-db's own answer, asked now: the
        // prefix's share/man once it exists), less a page the user installed.
        match crate::common::hermetic_manpath(
            &path,
            repo.home(),
            &[prefix.path(), &canonical_prefix],
        ) {
            Some(manpath) => cmd.env("MANPATH", manpath),
            None => cmd.env_remove("MANPATH"),
        };
        cmd.env("PATH", &path)
            .env_remove("XDG_DATA_HOME")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat");
        cmd.output().unwrap().into()
    };
    let home = repo.home();
    // The binary finds its own directory with symlinks resolved.
    let man = prefix
        .path()
        .canonicalize()
        .unwrap()
        .join("share/man/man1/git-checkpoint.1");
    let files = [
        (man.clone(), root().join("man/git-checkpoint.1")),
        (
            home.join(".local/share/bash-completion/completions/git-checkpoint"),
            root().join("completions/git-checkpoint.bash"),
        ),
        (
            home.join(".local/share/zsh/site-functions/_git-checkpoint"),
            root().join("completions/_git-checkpoint"),
        ),
        (
            home.join(".config/fish/completions/git-checkpoint.fish"),
            root().join("completions/git-checkpoint.fish"),
        ),
    ];
    let expected: String = files
        .iter()
        .map(|(path, _)| format!("{}\n", path.display()))
        .collect();

    // Before: git's --help has no page to show; -h points at install-docs.
    if have("man") {
        assert!(
            !run(Path::new("git"), &["checkpoint", "--help"])
                .stdout
                .contains("NAMING A CHECKPOINT")
        );
    }
    let short = run(Path::new("git"), &["checkpoint", "-h"]).ok();
    assert!(
        short.stdout.contains("git checkpoint install-docs"),
        "{}",
        short.stdout
    );

    let dry = run(&installed, &["install-docs", "--dry-run"]).ok();
    assert!(
        files.iter().all(|(path, _)| !path.exists()),
        "a dry run writes nothing"
    );
    let out = run(&installed, &["install-docs"]).ok();
    assert_eq!(dry.stdout, out.stdout);
    assert_eq!(out.stdout, expected);
    for (path, committed) in &files {
        assert_eq!(
            std::fs::read(path).unwrap(),
            std::fs::read(committed).unwrap(),
            "{}",
            path.display()
        );
    }
    assert!(out.stderr.contains("fpath=("), "{}", out.stderr);

    if have("man") {
        assert!(
            out.stderr
                .contains("`git checkpoint --help` now shows the man page"),
            "{}",
            out.stderr
        );
        let help = run(Path::new("git"), &["checkpoint", "--help"]).ok();
        assert!(
            help.stdout.contains("NAMING A CHECKPOINT"),
            "{}",
            help.stdout
        );
    } else {
        skip("the man part: man is not installed");
    }

    const BASH_COMPLETION: &str = "/usr/share/bash-completion/bash_completion";
    if Path::new(BASH_COMPLETION).exists() {
        // Nothing sourced but bash-completion itself: git's completion and ours load on demand.
        let script = format!(
            r#"
source {BASH_COMPLETION}
_completion_loader git
COMP_WORDS=(git checkpoint res); COMP_CWORD=2; COMP_LINE="git checkpoint res"; COMP_POINT=${{#COMP_LINE}}
__git_wrap__git_main git res checkpoint
printf '%s\n' "${{COMPREPLY[@]}}"
COMP_WORDS=(git checkpoint restore ""); COMP_CWORD=3; COMP_LINE="git checkpoint restore "; COMP_POINT=${{#COMP_LINE}}
__git_wrap__git_main git "" restore
printf '%s\n' "${{COMPREPLY[@]}}"
"#
        );
        let saved = repo.cp(&["save", "-q", "--allow-empty"]).ok().id();
        let mut cmd = Command::new("bash");
        cmd.arg("-c").arg(script);
        let got = candidates(&repo, {
            cmd.env("PATH", &path);
            cmd
        });
        assert!(got.iter().any(|c| c == "restore"), "{got:?}");
        assert!(got.contains(&saved), "{got:?}");
    } else {
        skip(&format!(
            "the bash part: {BASH_COMPLETION} is not installed"
        ));
    }

    // --prefix: a package's layout; --man-only: the man page alone.
    let pkg = tempfile::tempdir().unwrap();
    let out = repo
        .cp(&[
            "install-docs",
            "-q",
            "--prefix",
            pkg.path().to_str().unwrap(),
        ])
        .ok();
    assert_eq!(out.stderr, "");
    for rel in [
        "share/man/man1/git-checkpoint.1",
        "share/bash-completion/completions/git-checkpoint",
        "share/zsh/site-functions/_git-checkpoint",
        "share/fish/vendor_completions.d/git-checkpoint.fish",
    ] {
        assert!(pkg.path().join(rel).is_file(), "{rel}");
    }
    let only = tempfile::tempdir().unwrap();
    let out = repo
        .cp(&[
            "install-docs",
            "-q",
            "--man-only",
            "--man-dir",
            only.path().to_str().unwrap(),
        ])
        .ok();
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    assert!(only.path().join("man1/git-checkpoint.1").is_file());
}

/// The commands, as clap lists them in the top-level help (`help` aside): a new command is
/// checked without anyone adding it to a list.
fn subcommands(repo: &Repo) -> Vec<String> {
    let help = repo.cp(&["--help"]).ok().stdout;
    let commands = help
        .split_once("Commands:\n")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no commands in the help: {help}"));
    let subs: Vec<String> = commands
        .lines()
        .take_while(|l| l.starts_with("  "))
        // A description that does not fit goes on under it, further indented.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    for expected in [
        "save", "undo", "redo", "revert", "du", "serve", "stores", "mcp",
    ] {
        assert!(subs.iter().any(|s| s == expected), "{expected}: {subs:?}");
    }
    subs
}

/// Every command's long help (`<verb> --help` and `help <verb>`) ends with examples, and the
/// man page (generated from the same help) has them too. Each example is a command that runs
/// as it is pasted: a comment after it starts with `#`.
#[test]
fn every_command_has_examples_in_its_help_and_the_man_page() {
    let repo = Repo::new();
    let man = std::fs::read_to_string(root().join("man/git-checkpoint.1")).unwrap();
    let subs = subcommands(&repo);
    for sub in &subs {
        let long = repo.cp(&[sub, "--help"]).ok();
        assert_eq!(
            repo.cp(&["help", sub]).ok().stdout,
            long.stdout,
            "{sub}: help <verb> is the long help"
        );
        let examples: Vec<&str> = long
            .stdout
            .split_once("Examples:\n")
            .map(|(_, rest)| rest)
            .unwrap_or_else(|| panic!("{sub} --help has no examples: {}", long.stdout))
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .collect();
        let mut continued = false;
        for line in &examples {
            let line = line.trim();
            let command = line.split(" # ").next().unwrap().trim();
            if !continued {
                assert!(
                    ["git ", "id=$(git ", "curl ", "sudo git ", "mkdir "]
                        .iter()
                        .any(|p| command.starts_with(p)),
                    "{sub}: not a command: {line}"
                );
            }
            // Words after a run of spaces that is not a `#` comment are a comment without one.
            assert!(
                !command.contains("  "),
                "{sub}: a comment without `#` in {line:?}"
            );
            continued = command.ends_with('\\');
        }
        assert!(
            examples
                .iter()
                .any(|l| l.contains(&format!("git checkpoint {sub}"))),
            "{sub}: no example of git checkpoint {sub}: {examples:?}"
        );
        for line in &examples {
            let command = line.trim().split(" # ").next().unwrap().trim();
            assert!(
                man.contains(&command.replace('\\', "\\\\").replace('-', "\\-")),
                "{sub}: the man page lacks {command:?}"
            );
        }
        // -h stays short: the examples are in the long help only.
        assert!(
            !repo.cp(&[sub, "-h"]).ok().stdout.contains("Examples:"),
            "{sub}"
        );
    }
}

/// The install guide's fallback for a system where the man page cannot be installed: git's
/// `man.viewer` set to a command that shows the built-in help for this one page.
#[test]
fn git_help_falls_back_to_the_built_in_help_as_the_install_guide_says() {
    let guide = std::fs::read_to_string(root().join("docs/install.md")).unwrap();
    let config: Vec<&str> = guide
        .lines()
        .filter(|l| l.starts_with("git config --global man."))
        .collect();
    assert_eq!(config.len(), 2, "the install guide gives the two settings");
    let repo = Repo::new();
    let empty_man = tempfile::tempdir().unwrap();
    let git_help = |setup: &str| {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("{setup}\ngit checkpoint --help"))
            .current_dir(repo.path());
        repo.env(&mut cmd);
        cmd.env("PATH", path_with_binary())
            .env("MANPATH", empty_man.path())
            .env("MANPAGER", "cat")
            .env("PAGER", "cat");
        let out: Run = cmd.output().unwrap().into();
        out
    };
    let without = git_help("");
    assert!(
        !without.stdout.contains("Usage: git-checkpoint"),
        "{}",
        without.stdout
    );
    let with = git_help(&config.join("\n")).ok();
    assert!(
        with.stdout.contains("Usage: git-checkpoint") && with.stdout.contains("install-docs"),
        "{}",
        with.stdout
    );
    // Other pages still go to man.
    let mut cmd = Command::new("git");
    cmd.args(["status", "--help"]).current_dir(repo.path());
    repo.env(&mut cmd);
    cmd.env("PATH", path_with_binary()).env("MANPAGER", "cat");
    let out: Run = cmd.output().unwrap().into();
    assert!(!out.stdout.contains("git-checkpoint"), "{}", out.stdout);
}

/// The tests never see what a user installed of git-checkpoint, and still see everything else
/// the user has. Simulated in a home and prefixes this test controls: the binary and its man
/// page in `~/.local` (`cargo install --root ~/.local`, then `install-docs`), and in a prefix
/// like `/usr/local` whose `bin` also holds a program the tests need (there: git, python3), with
/// its man directory made mandatory (as `/etc/manpath.config` makes `/usr/local/share/man`, here
/// through `~/.manpath`), so that man finds the page whatever `PATH` holds.
#[test]
fn the_tests_never_find_what_a_user_installed() {
    let fake = tempfile::tempdir().unwrap();
    let fake = fake.path();
    let home = fake.join("home");
    let page = std::fs::read(root().join("man/git-checkpoint.1")).unwrap();
    let install = |prefix: &Path| {
        std::fs::create_dir_all(prefix.join("bin")).unwrap();
        std::fs::copy(bin(), prefix.join("bin/git-checkpoint")).unwrap();
        std::fs::create_dir_all(prefix.join("share/man/man1")).unwrap();
        std::fs::write(prefix.join("share/man/man1/git-checkpoint.1"), &page).unwrap();
    };
    let local = home.join(".local");
    let usr_local = fake.join("usr/local");
    install(&local);
    install(&usr_local);
    let tool = usr_local.join("bin/needed-tool");
    std::fs::write(&tool, "#!/bin/sh\necho needed\n").unwrap();
    std::fs::set_permissions(&tool, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mandatory = fake.join("mandatory/share/man");
    std::fs::create_dir_all(mandatory.join("man1")).unwrap();
    std::fs::write(mandatory.join("man1/git-checkpoint.1"), &page).unwrap();
    std::fs::write(
        home.join(".manpath"),
        format!("MANDATORY_MANPATH {}\n", mandatory.display()),
    )
    .unwrap();
    let users_path = std::env::join_paths(
        [local.join("bin"), usr_local.join("bin")]
            .into_iter()
            .chain(std::env::split_paths(crate::common::hermetic_path())),
    )
    .unwrap();
    let shadows = fake.join("shadows");
    let path = crate::common::hermetic_path_of(&users_path, &shadows);

    let sh = |path: &str, script: &str| -> Run {
        Command::new("sh")
            .arg("-c")
            .arg(script)
            .env("PATH", path)
            .env("HOME", &home)
            .env_remove("MANPATH")
            .output()
            .unwrap()
            .into()
    };
    // The other program of a directory that holds an install is still found; git-checkpoint
    // is not, from either.
    assert_eq!(sh(&path, "needed-tool").ok().stdout, "needed\n");
    let found = sh(&path, "command -v git-checkpoint");
    assert_ne!(found.code, 0, "{}", found.stdout);
    assert!(sh(&path, "command -v git").ok().stdout.trim().len() > 1);

    if !have("man") || !have("manpath") {
        skip("the man part: man-db's man and manpath are not installed");
        return;
    }
    // The simulation is real: with the user's PATH man finds the page, and with the tests'
    // PATH alone still the mandatory one.
    let users_path = users_path.to_string_lossy().into_owned();
    sh(&users_path, "man -w git-checkpoint").ok();
    let mandatory_found = sh(&path, "man -w git-checkpoint").ok();
    assert!(
        mandatory_found
            .stdout
            .starts_with(&mandatory.display().to_string()),
        "{}",
        mandatory_found.stdout
    );
    // With the tests' MANPATH too: no page, and every other directory kept.
    let manpath = crate::common::hermetic_manpath(&path, &home, &[]).unwrap();
    let with_manpath = format!("MANPATH='{manpath}' man -w git-checkpoint");
    let out = sh(&path, &with_manpath);
    assert_ne!(out.code, 0, "{manpath}: {}", out.stdout);
    let all = sh(&path, "manpath -q").ok().stdout;
    for dir in all.trim().split(':') {
        let has_page = Path::new(dir).join("man1/git-checkpoint.1").exists();
        assert_eq!(
            manpath.split(':').any(|d| d == dir),
            !has_page,
            "{dir} in {manpath}"
        );
    }
    // And the tests' own install is kept when named.
    let own = crate::common::hermetic_manpath(&users_path, &home, &[&local]).unwrap();
    assert!(
        own.contains(&local.join("share/man").display().to_string()),
        "{own}"
    );
    assert!(!own.contains(&usr_local.display().to_string()), "{own}");
}
