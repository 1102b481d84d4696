//! `git checkpoint drop`.

use std::io::Write;

use super::output::{Ui, printable};
use super::{Failure, open};

/// Delete checkpoints: their refs and notes, in one transaction.
///
/// Each dropped id is printed with its commit: until `git gc` runs, a mistaken drop can still
/// be restored from that commit (`git update-ref refs/checkpoints/<id> <commit>`).
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The checkpoints to delete.
    #[arg(value_name = "CP", required = true)]
    checkpoints: Vec<String>,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint drop @{3}                        # the fourth newest
  git checkpoint drop before-refactor 20261122-143022-481a2b";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    let specs: Vec<&str> = args.checkpoints.iter().map(String::as_str).collect();
    let chosen = checkpoints.drop_checkpoints(&specs, &ui.ctl)?;
    let mut out = std::io::stdout().lock();
    for dropped in &chosen {
        let id = printable(&dropped.id, false);
        match dropped.commit {
            Some(target) => writeln!(out, "dropped {id} ({target})")?,
            None => writeln!(out, "dropped {id}")?,
        }
    }
    if !args.quiet {
        ui.info("a dropped checkpoint can be brought back from its commit until `git gc` runs: git update-ref refs/checkpoints/<id> <commit>");
    }
    Ok(())
}
