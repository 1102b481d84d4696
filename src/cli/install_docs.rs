//! `git checkpoint install-docs`: the man page and the completion scripts, written where `man`
//! and the shells look for them.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap_complete::Shell;
use git_checkpoint::Error;

use super::Failure;
use super::generate::{completion, man_page};
use super::output::Ui;

/// Install the man page, so that `git checkpoint --help` works (git turns it into `man
/// git-checkpoint`), and the completion scripts for bash, zsh and fish.
///
/// Without options, for you alone: the man page beside the binary (for
/// ~/.cargo/bin/git-checkpoint in ~/.cargo/share/man/man1, where man looks because
/// ~/.cargo/bin is on PATH); bash's script in ~/.local/share/bash-completion/completions
/// (loaded on demand, for `git checkpoint <TAB>` too); fish's in ~/.config/fish/completions;
/// zsh's in ~/.local/share/zsh/site-functions, a directory to add to $fpath. XDG_DATA_HOME and
/// XDG_CONFIG_HOME are honoured. With --prefix, the layout of a package: <prefix>/share/man,
/// share/bash-completion/completions, share/zsh/site-functions and
/// share/fish/vendor_completions.d. Existing files are replaced (an upgrade); nothing else is
/// changed, not even a shell's startup file.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// Install under this prefix (e.g. /usr/local), in the layout of a package.
    #[arg(long, value_name = "DIR")]
    prefix: Option<PathBuf>,
    /// The man directory, which gets man1/git-checkpoint.1 [default: share/man beside the
    /// binary's directory, or under --prefix].
    #[arg(long, value_name = "DIR")]
    man_dir: Option<PathBuf>,
    /// Only the man page, no completion scripts.
    #[arg(long)]
    man_only: bool,
    /// Print where the files would go; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print nothing on stderr (the paths are still printed on stdout).
    #[arg(short, long)]
    quiet: bool,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint install-docs                   # for you, under your home directory
  git checkpoint install-docs --dry-run         # where the files would go
  sudo git checkpoint install-docs --prefix /usr/local    # for everyone
  git checkpoint install-docs --man-only --man-dir ~/.local/share/man";

/// One file to install.
struct Target {
    path: PathBuf,
    content: Vec<u8>,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let man_dir = match (&args.man_dir, &args.prefix) {
        (Some(dir), _) => absolute(dir)?,
        (None, Some(prefix)) => absolute(prefix)?.join("share/man"),
        (None, None) => beside_binary()?,
    };
    let mut targets = vec![Target {
        path: man_dir.join("man1").join("git-checkpoint.1"),
        content: man_page(),
    }];
    let mut zsh_dir = None;
    if !args.man_only {
        let (bash, zsh, fish) = match &args.prefix {
            Some(prefix) => {
                let share = absolute(prefix)?.join("share");
                (
                    share.join("bash-completion/completions"),
                    share.join("zsh/site-functions"),
                    share.join("fish/vendor_completions.d"),
                )
            }
            None => {
                let data = xdg("XDG_DATA_HOME", ".local/share")?;
                (
                    data.join("bash-completion/completions"),
                    data.join("zsh/site-functions"),
                    xdg("XDG_CONFIG_HOME", ".config")?.join("fish/completions"),
                )
            }
        };
        targets.push(Target {
            path: bash.join("git-checkpoint"),
            content: completion(Shell::Bash),
        });
        targets.push(Target {
            path: zsh.join("_git-checkpoint"),
            content: completion(Shell::Zsh),
        });
        targets.push(Target {
            path: fish.join("git-checkpoint.fish"),
            content: completion(Shell::Fish),
        });
        zsh_dir = Some(zsh);
    }

    let mut out = std::io::stdout().lock();
    for target in &targets {
        if !args.dry_run {
            write(target)?;
        }
        writeln!(out, "{}", target.path.display())?;
    }
    if args.quiet {
        return Ok(());
    }
    if args.dry_run {
        ui.info("dry run: these files would be written; nothing was");
        return Ok(());
    }
    ui.info(if args.man_only {
        "installed the man page"
    } else {
        "installed the man page and the completions for bash, zsh and fish"
    });
    if let Some(zsh) = zsh_dir {
        ui.hint(&format!(
            "zsh reads completions from $fpath: add `fpath=({} $fpath)` to ~/.zshrc, before compinit",
            zsh.display()
        ));
    }
    match man_finds(&targets[0].path) {
        Some(true) => ui.info("`git checkpoint --help` now shows the man page"),
        Some(false) => ui.hint(&format!(
            "man does not look in `{}` (`man -w git-checkpoint` finds another page or none): add it to MANPATH, e.g. export MANPATH=\"{}:$MANPATH\"",
            man_dir.display(),
            man_dir.display()
        )),
        None => {}
    }
    Ok(())
}

/// `share/man` beside the directory of the running binary: `~/.cargo/share/man` for
/// `~/.cargo/bin/git-checkpoint`, `/usr/local/share/man` for `/usr/local/bin`. man-db looks
/// there for every directory on `PATH`.
fn beside_binary() -> Result<PathBuf, Failure> {
    // The Python package's console script (`<venv>/bin/git-checkpoint`) runs this in the
    // interpreter's process: the manual goes beside the script, not beside `python`.
    let exe = match super::installed_program() {
        Some(program) => program,
        None => std::env::current_exe().map_err(|source| Error::Io {
            context: "cannot tell where this binary is installed; use --man-dir or --prefix".into(),
            source,
        })?,
    };
    let exe = exe.canonicalize().unwrap_or(exe);
    let prefix = exe.parent().and_then(Path::parent).ok_or_else(|| {
        Error::InvalidInput(format!(
            "`{}` has no parent directory to put share/man in; use --man-dir or --prefix",
            exe.display()
        ))
    })?;
    Ok(prefix.join("share/man"))
}

/// `$VAR` when it is an absolute path (as the XDG specification wants), else `~/fallback`.
fn xdg(var: &str, fallback: &str) -> Result<PathBuf, Failure> {
    if let Some(dir) = std::env::var_os(var).map(PathBuf::from)
        && dir.is_absolute()
    {
        return Ok(dir);
    }
    let home = std::env::home_dir()
        .filter(|h| h.is_absolute())
        .ok_or_else(|| {
            Error::InvalidInput("cannot tell your home directory: set HOME, or use --prefix".into())
        })?;
    Ok(home.join(fallback))
}

fn absolute(dir: &Path) -> Result<PathBuf, Failure> {
    std::path::absolute(dir).map_err(|source| {
        Failure::Core(Error::Io {
            context: format!("cannot resolve `{}`", dir.display()),
            source,
        })
    })
}

fn write(target: &Target) -> Result<(), Failure> {
    let io = |source| {
        Failure::Core(Error::Io {
            context: format!("cannot write `{}`", target.path.display()),
            source,
        })
    };
    if let Some(dir) = target.path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(&target.path, &target.content).map_err(io)
}

/// Whether `man -w git-checkpoint` finds the page at `installed`; `None` when `man` cannot be
/// run (then nothing is said).
fn man_finds(installed: &Path) -> Option<bool> {
    let out = std::process::Command::new("man")
        .args(["-w", "git-checkpoint"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let found = String::from_utf8_lossy(&out.stdout);
    let found = Path::new(found.trim());
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    Some(out.status.success() && same(found, installed))
}
