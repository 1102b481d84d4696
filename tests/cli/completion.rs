//! Completions through git's own completion, and the man page through `git checkpoint --help`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Repo, bin};

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
    format!(
        "{}:{}",
        Path::new(bin()).parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    )
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
fn candidates(repo: &Repo, mut cmd: Command) -> Vec<String> {
    cmd.current_dir(repo.path());
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
    candidates(repo, cmd)
}

#[test]
fn bash_completes_through_git_and_directly() {
    if !Path::new(GIT_BASH_COMPLETION).exists() {
        eprintln!("skipped: {GIT_BASH_COMPLETION} is not installed");
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

#[test]
fn fish_completes_through_git_and_directly() {
    if !have("fish") {
        eprintln!("skipped: fish is not installed");
        return;
    }
    let (repo, id) = repo_with_checkpoints();
    let complete = |line: &str| {
        let script = format!(
            "source {}; complete -C '{line}'",
            root().join("completions/git-checkpoint.fish").display()
        );
        let mut cmd = Command::new("fish");
        cmd.arg("--no-config")
            .arg("-c")
            .arg(script)
            .current_dir(repo.path());
        repo.env(&mut cmd);
        cmd.env("PATH", path_with_binary());
        let out = cmd.output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
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
    candidates(repo, cmd)
}

#[test]
fn zsh_completes_through_git_and_directly() {
    if !have("zsh") {
        eprintln!("skipped: zsh is not installed");
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
        eprintln!("skipped: man is not installed");
        return;
    }
    let rendered = Command::new("man")
        .arg("-l")
        .arg(root().join("man/git-checkpoint.1"))
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .unwrap();
    assert!(rendered.status.success());
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
