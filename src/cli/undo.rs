//! `git checkpoint undo`.

use super::output::Ui;
use super::restoring::{Flags, housekeeping, report};
use super::{Failure, open};

/// Go back one step: restore the newest checkpoint of this worktree (other than `pre-restore`
/// ones) whose files differ from the working tree now. With N, go back N distinct states.
///
/// Repeated, it walks further back. Each undo saves a `pre-restore` checkpoint first, so
/// `git checkpoint restore @` takes it back.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// How many distinct states to go back.
    #[arg(value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    steps: u32,
    #[command(flatten)]
    flags: Flags,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint undo                              # one step back
  git checkpoint undo 3                            # three distinct states back
  git checkpoint undo --dry-run";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    args.flags.warn_if_interrupted(ui, &checkpoints);
    let restored = checkpoints.undo(
        args.steps as usize,
        &args.flags.options(Vec::new()),
        &ui.ctl,
    )?;
    report(ui, &args.flags, &restored)?;
    housekeeping(ui, &args.flags, &restored);
    Ok(())
}
