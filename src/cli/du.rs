//! `git checkpoint du`.

use std::io::Write;

use super::output::{Ui, json_line, pad, printable};
use super::render::{count, human_size};
use super::{Failure, open};

/// Show what the checkpoints cost on disk: the objects only they hold, beyond what branches,
/// tags and the commits they were taken on hold — what `git gc` frees once they are dropped.
///
/// Each object counts once, for the oldest checkpoint that holds it (the one that added it), so
/// the figures per kind and per checkpoint are what those checkpoints added. Sizes are object
/// sizes (their content), before git's compression. checkpoint.maxSize bounds the total.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint du                   # the total, per kind, and the heaviest checkpoints
  git checkpoint du -n 20             # the 20 heaviest
  git config checkpoint.maxSize 2g    # keep it under 2 GiB (oldest unpinned go first)")]
pub struct Args {
    /// How many of the heaviest checkpoints to list.
    #[arg(short = 'n', long = "max-count", value_name = "N", default_value_t = 5)]
    max_count: usize,
    /// Print a JSON object: total, notes, conversations, by_kind, by_checkpoint (each one's
    /// id, kind and what it added).
    #[arg(long)]
    json: bool,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    let usage = checkpoints.du(&ui.ctl)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let value = serde_json::to_value(&usage).unwrap_or(serde_json::Value::Null);
        writeln!(out, "{}", json_line(&value))?;
        return Ok(());
    }
    writeln!(
        out,
        "{} hold {} ({}) that no branch or tag holds",
        count(usage.checkpoints, "checkpoint", "checkpoints"),
        count(usage.total.objects as usize, "object", "objects"),
        human_size(usage.total.bytes)
    )?;
    if usage.by_kind.is_empty() {
        return Ok(());
    }
    let width = usage
        .by_kind
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(0);
    for (kind, amount) in &usage.by_kind {
        writeln!(
            out,
            "  {}  {:>10}  {}",
            pad(&printable(kind, false), width),
            human_size(amount.bytes),
            count(amount.objects as usize, "object", "objects")
        )?;
    }
    writeln!(
        out,
        "  {}  {:>10}  {}",
        pad("(notes)", width),
        human_size(usage.notes.bytes),
        count(usage.notes.objects as usize, "object", "objects")
    )?;
    if usage.conversations.objects > 0 {
        writeln!(
            out,
            "  of which conversations  {}  {}",
            human_size(usage.conversations.bytes),
            count(usage.conversations.objects as usize, "object", "objects")
        )?;
    }
    let heaviest = usage.heaviest(args.max_count);
    if !heaviest.is_empty() {
        writeln!(out, "heaviest:")?;
        for added in heaviest {
            writeln!(
                out,
                "  {}  {}  {:>10}",
                printable(&added.id, false),
                pad(&printable(&added.kind, false), width),
                human_size(added.added.bytes)
            )?;
        }
    }
    Ok(())
}
