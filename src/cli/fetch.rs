//! `git checkpoint fetch`.

use std::io::Write;

use super::output::Ui;
use super::render::checkpoints as count_checkpoints;
use super::{Failure, open};

/// Fetch the checkpoints of a remote and their notes.
///
/// A checkpoint whose id already exists here is never overwritten: when the remote's is another
/// commit, the local one is kept and a warning names it. Notes are merged as JSON with the
/// local ones (the local side wins where both set a key), never line by line. The default
/// remote is the current branch's upstream remote, else `origin`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The remote (a name or URL); default: the current branch's upstream remote, else origin.
    #[arg(value_name = "REMOTE")]
    remote: Option<String>,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint fetch                             # from the upstream remote (else origin)
  git checkpoint fetch backup";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    let remote = checkpoints.remote(args.remote.as_deref())?;
    let fetched = checkpoints.fetch(&remote, &ui.ctl)?;
    if !args.quiet {
        for warning in &fetched.warnings {
            ui.warn(warning);
        }
    }
    writeln!(
        std::io::stdout().lock(),
        "fetched {} from {} ({} already here)",
        count_checkpoints(fetched.fetched.len()),
        fetched.remote,
        fetched.already
    )?;
    Ok(())
}
