//! `git checkpoint drop`.

use std::io::Write;

use git_checkpoint::{Checkpoint, resolve, store};

use super::output::Ui;
use super::{Failure, open_repo};

/// Delete checkpoints: their refs and notes, in one transaction.
///
/// Each dropped id is printed with its commit: until `git gc` runs, a mistaken drop can still
/// be restored from that commit (`git update-ref refs/checkpoints/<id> <commit>`).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The checkpoints to delete.
    #[arg(value_name = "CP", required = true)]
    checkpoints: Vec<String>,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let repo = open_repo()?;
    let worktree = git_checkpoint::repo::worktree_name(&repo)?;
    let all = resolve::load_all(&repo)?;
    let mut chosen: Vec<Checkpoint> = Vec::new();
    for spec in &args.checkpoints {
        let c = resolve::resolve(&all, worktree.as_deref(), spec)?;
        if !chosen.iter().any(|d| d.id == c.id) {
            chosen.push(c.clone());
        }
    }
    store::delete(&repo, &chosen, false)?;
    let mut out = std::io::stdout().lock();
    for c in &chosen {
        writeln!(out, "dropped {} ({})", c.id, c.commit)?;
    }
    if !args.quiet {
        ui.info("a dropped checkpoint can be brought back from its commit until `git gc` runs: git update-ref refs/checkpoints/<id> <commit>");
    }
    Ok(())
}
