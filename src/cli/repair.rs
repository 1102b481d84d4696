//! `git checkpoint repair`.

use std::io::Write;

use super::output::{Ui, json_line};
use super::render::count;
use super::{Failure, open};

/// Remove the objects an earlier version of git-checkpoint wrote that git cannot read, keeping
/// every checkpoint.
///
/// Before this version, a save next to an embedded repository of the other object format (a
/// SHA-256 repository inside a SHA-1 one, or the reverse) wrote a tree git cannot parse: `git
/// fsck` reports it ("badTree"), `show` and `restore` of that checkpoint fail, and `git gc`
/// fails ("too-short tree object"), even after the checkpoint is dropped. `repair` finds such
/// trees among the loose objects, gives each checkpoint that holds one the tree `git add -A`
/// would have written (the embedded repository's commit id cut or padded to this repository's
/// length, as git records it; same id, same note, every file kept) and deletes them. Nothing
/// else is changed. Running it again finds nothing.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint repair --dry-run     # what it would rewrite and remove
  git checkpoint repair && git gc     # then gc works again")]
pub struct Args {
    /// Say what would be rewritten and removed; change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print a JSON object: `unreadable` (the object ids) and `rewritten` (each checkpoint's
    /// id, old commit and new commit).
    #[arg(long)]
    json: bool,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    let repaired = checkpoints.repair(args.dry_run, &ui.ctl)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let value = serde_json::json!({
            "dry_run": args.dry_run,
            "unreadable": repaired.unreadable.iter().map(|id| id.to_string()).collect::<Vec<_>>(),
            "rewritten": repaired.rewritten.iter().map(|(id, old, new)| serde_json::json!({
                "id": id,
                "old_commit": old.to_string(),
                "commit": new.to_string(),
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{}", json_line(&value))?;
        return Ok(());
    }
    if repaired.unreadable.is_empty() {
        ui.info("nothing to repair: no object git cannot read was written by git-checkpoint");
        return Ok(());
    }
    let (rewrite, remove) = if args.dry_run {
        ("would rewrite", "would remove")
    } else {
        ("rewrote", "removed")
    };
    for (id, old, new) in &repaired.rewritten {
        writeln!(out, "{rewrite} checkpoint {id} ({old} -> {new})")?;
    }
    for id in &repaired.unreadable {
        writeln!(out, "{remove} unreadable tree {id}")?;
    }
    ui.info(&format!(
        "{} {}, {} {}{}",
        rewrite,
        count(repaired.rewritten.len(), "checkpoint", "checkpoints"),
        remove,
        count(
            repaired.unreadable.len(),
            "unreadable tree",
            "unreadable trees"
        ),
        if args.dry_run {
            ""
        } else {
            "; `git fsck` and `git gc` can read everything again"
        }
    ));
    Ok(())
}
