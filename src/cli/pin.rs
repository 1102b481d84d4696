//! `git checkpoint pin` and `unpin`.

use git_checkpoint::{resolve, retention};

use super::output::Ui;
use super::{Failure, open_repo};

/// Pin (or unpin) a checkpoint: pinned checkpoints are never pruned.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The checkpoint.
    #[arg(value_name = "CP")]
    checkpoint: String,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(ui: &Ui, args: Args, pinned: bool) -> Result<(), Failure> {
    let repo = open_repo()?;
    let worktree = git_checkpoint::repo::worktree_name(&repo)?;
    let all = resolve::load_all(&repo)?;
    let c = resolve::resolve(&all, worktree.as_deref(), &args.checkpoint)?;
    if !args.quiet {
        ui.warn_damaged([c]);
    }
    retention::set_pinned(&repo, c, pinned)?;
    if !args.quiet {
        ui.info(&format!(
            "{} checkpoint {}",
            if pinned { "pinned" } else { "unpinned" },
            c.id
        ));
    }
    Ok(())
}
