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
    (repo, id)
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
    cmd.arg("-c")
        .arg(script)
        .arg("bash")
        .arg(line)
        .current_dir(repo.path());
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
}

#[test]
fn zsh_script_loads_as_a_completion_function() {
    if !have("zsh") {
        eprintln!("skipped: zsh is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("completions/_git-checkpoint"),
        dir.path().join("_git-checkpoint"),
    )
    .unwrap();
    let out = Command::new("zsh")
        .arg("-fc")
        .arg(format!(
            "fpath=({} $fpath); autoload -U compinit; compinit -u -D; autoload -Uz _git-checkpoint; whence -w _git-checkpoint; print -- $_comps[git-checkpoint]",
            dir.path().display()
        ))
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("_git-checkpoint: function"), "{stdout}");
    assert!(stdout.contains("_git-checkpoint"), "{stdout}");
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
