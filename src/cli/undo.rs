//! `git checkpoint undo`.

use super::output::Ui;
use super::restoring::{Action, Flags, housekeeping, report};
use super::{Failure, open};

/// Take back the last thing that happened to the working tree.
///
/// Right after a restore (or a redo), while the files are still as it left them, undo brings
/// back the state from before it. Otherwise it goes back to the newest earlier state of this
/// worktree whose files differ from now; repeated, it keeps walking back, never swinging
/// between two states. With N, it takes N steps. Each step saves a `pre-restore` checkpoint
/// first, so each can itself be undone; `git checkpoint redo` takes undos back.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint undo                 # take back the last restore, or go back one state
  git checkpoint undo 3               # three steps back
  git checkpoint undo --dry-run       # what one step would write and delete
  git checkpoint redo                 # take the last undo back")]
pub struct Args {
    /// How many steps to take.
    #[arg(value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    steps: u32,
    #[command(flatten)]
    flags: Flags,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    args.flags.warn_if_interrupted(ui, &checkpoints);
    let restored = checkpoints.undo(
        args.steps as usize,
        &args.flags.options(Vec::new()),
        &ui.ctl,
    )?;
    report(
        ui,
        checkpoints.quoting(),
        &args.flags,
        Action::Undo,
        &restored,
    )?;
    if restored.steps < args.steps as usize && !args.flags.quiet {
        ui.warn(&format!(
            "only {} of {} steps could be undone: there is no earlier state",
            restored.steps, args.steps
        ));
    }
    housekeeping(ui, &args.flags, &restored);
    Ok(())
}
