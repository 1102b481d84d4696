//! `git checkpoint drop`.

use std::io::Write;

use git_checkpoint::{resolve, store};

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
    let loaded = resolve::load_all_reporting(&repo)?;
    // The id and the commit (or whatever object a broken ref points to) of each one to drop.
    let mut chosen: Vec<(String, Option<gix::ObjectId>)> = Vec::new();
    for spec in &args.checkpoints {
        // A ref that is not a readable checkpoint goes only by its exact id.
        let (id, target) = match resolve::broken_exact(&loaded.broken, spec) {
            Some(broken) => (spec.clone(), broken.target),
            None => {
                let c = resolve::resolve(&loaded.checkpoints, worktree.as_deref(), spec)?;
                (c.id.clone(), Some(c.commit))
            }
        };
        if !chosen.iter().any(|(d, _)| *d == id) {
            chosen.push((id, target));
        }
    }
    let ids: Vec<String> = chosen.iter().map(|(id, _)| id.clone()).collect();
    store::delete_ids(&repo, &ids, false)?;
    let mut out = std::io::stdout().lock();
    for (id, target) in &chosen {
        match target {
            Some(target) => writeln!(out, "dropped {id} ({target})")?,
            None => writeln!(out, "dropped {id}")?,
        }
    }
    if !args.quiet {
        ui.info("a dropped checkpoint can be brought back from its commit until `git gc` runs: git update-ref refs/checkpoints/<id> <commit>");
    }
    Ok(())
}
