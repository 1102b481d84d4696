//! `git checkpoint redo`.

use super::output::Ui;
use super::restoring::{Action, Flags, housekeeping, report};
use super::{Failure, open};

/// Take back the last undo (or the last N undos, in order), while nothing changed since.
///
/// Any other change to the working tree (an edit, a restore) ends what can be redone. Each
/// step saves a `pre-restore` checkpoint first, so each can itself be undone.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint redo                 # take back the last undo
  git checkpoint redo 2               # the last two undos, the later first
  git checkpoint redo --dry-run       # what it would write and delete")]
pub struct Args {
    /// How many undos to take back.
    #[arg(value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    steps: u32,
    #[command(flatten)]
    flags: Flags,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    args.flags.warn_if_interrupted(ui, &checkpoints);
    let restored = checkpoints.redo(
        args.steps as usize,
        &args.flags.options(Vec::new()),
        &ui.ctl,
    )?;
    report(
        ui,
        checkpoints.quoting(),
        &args.flags,
        Action::Redo,
        &restored,
    )?;
    if restored.steps < args.steps as usize && !args.flags.quiet {
        ui.warn(&format!(
            "only {} of {} undos could be taken back",
            restored.steps, args.steps
        ));
    }
    housekeeping(ui, &args.flags, &restored);
    Ok(())
}
