//! `git checkpoint pin` and `unpin`.

use super::output::Ui;
use super::{Failure, open};

/// Pin (or unpin) a checkpoint: pinned checkpoints are never pruned.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The checkpoint.
    #[arg(value_name = "CP")]
    checkpoint: String,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint pin before-refactor                 # never pruned
  git checkpoint unpin before-refactor";

pub fn run(ui: &Ui, args: Args, pinned: bool) -> Result<(), Failure> {
    let checkpoints = open()?;
    let loaded = checkpoints.load()?;
    let c = checkpoints.resolve(&loaded, &args.checkpoint)?;
    if !args.quiet {
        ui.warn_damaged([c]);
    }
    let changed = checkpoints.set_pinned(c, pinned, &ui.ctl)?;
    if !args.quiet {
        let done = if pinned { "pinned" } else { "unpinned" };
        if changed {
            ui.info(&format!("{done} checkpoint {}", c.id));
        } else if pinned {
            ui.info(&format!("checkpoint {} was already pinned", c.id));
        } else {
            ui.info(&format!("checkpoint {} was not pinned", c.id));
        }
    }
    Ok(())
}
