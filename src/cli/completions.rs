//! `git checkpoint completions`.

use std::io::Write;

use clap_complete::Shell;

use super::Failure;
use super::generate::completion;
use super::output::Ui;

/// Print a completion script for a shell.
///
/// `git checkpoint install-docs` installs the scripts where the shells find them. By hand, for
/// example: bash: `git checkpoint completions bash >
/// ~/.local/share/bash-completion/completions/git-checkpoint`; zsh: into a directory of
/// `$fpath` as `_git-checkpoint`; fish: `~/.config/fish/completions/git-checkpoint.fish`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The shell.
    #[arg(value_name = "SHELL")]
    shell: Shell,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint install-docs       # the man page and the bash, zsh and fish scripts, in one go
  mkdir -p ~/.local/share/bash-completion/completions
  git checkpoint completions bash > ~/.local/share/bash-completion/completions/git-checkpoint
  mkdir -p ~/.zfunc                 # then fpath=(~/.zfunc $fpath) in ~/.zshrc, before compinit
  git checkpoint completions zsh > ~/.zfunc/_git-checkpoint
  mkdir -p ~/.config/fish/completions
  git checkpoint completions fish > ~/.config/fish/completions/git-checkpoint.fish";

pub fn run(_ui: &Ui, args: Args) -> Result<(), Failure> {
    std::io::stdout()
        .lock()
        .write_all(&completion(args.shell))?;
    Ok(())
}
