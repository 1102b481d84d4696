//! `git checkpoint undo`.

use git_checkpoint::resolve;

use super::output::Ui;
use super::restore::{Flags, housekeeping, report};
use super::{Failure, open_repo};

/// Go back one step: restore the newest checkpoint of this worktree (other than `pre-restore`
/// ones) whose files differ from the working tree now. With N, go back N distinct states.
///
/// Repeated, it walks further back. Each undo saves a `pre-restore` checkpoint first, so
/// `git checkpoint restore @` takes it back.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many distinct states to go back.
    #[arg(value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    steps: u32,
    #[command(flatten)]
    flags: Flags,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let repo = open_repo()?;
    args.flags.warn_if_interrupted(ui, &repo);
    let all = resolve::load_all(&repo)?;
    let restored = git_checkpoint::restore::undo(
        &repo,
        &all,
        args.steps as usize,
        &args.flags.options(Vec::new()),
    )?;
    report(ui, &args.flags, &restored)?;
    housekeeping(ui, &repo, &args.flags, &restored);
    Ok(())
}
