//! `git checkpoint prune`.

use std::io::Write;

use git_checkpoint::PruneOptions;

use super::output::{Ui, checkpoint_json, json_line, printable};
use super::render::{checkpoints as count_checkpoints, count};
use super::{Failure, open};

/// Apply the retention policy now: delete the checkpoints it does not keep, and notes whose
/// checkpoint is gone. Pinned checkpoints are never pruned, nor are those whose note cannot be
/// read (a pin there cannot be seen). Each one pruned is named with the setting that pruned it.
///
/// The policy comes from git config: checkpoint.keep (default 50 of each kind, all worktrees
/// together: agents' auto saves never push out manual or pre-restore ones, and a named
/// checkpoint counts only against the other named ones), checkpoint.<kind>.keep,
/// checkpoint.maxAge, checkpoint.maxSize, and checkpoint.minAge (default 1h): no count or size
/// limit removes a checkpoint younger than that, except --keep given here; maxAge does. A
/// flag overrides its setting for this run.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// Keep at most N checkpoints of each kind (overrides checkpoint.keep and the kinds' own;
    /// with --kind, N of that kind). Applies to young checkpoints too.
    #[arg(long, value_name = "N")]
    keep: Option<usize>,
    /// Prune checkpoints older than this: 90m, 12h, 30d, 2w (overrides checkpoint.maxAge).
    #[arg(long, value_name = "DURATION", value_parser = git_checkpoint::parse_duration)]
    older_than: Option<chrono::Duration>,
    /// Remove the oldest unpinned checkpoints until what only checkpoints hold fits in SIZE:
    /// 512m, 2g (overrides checkpoint.maxSize; see `git checkpoint du`).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_size: Option<u64>,
    /// Only prune checkpoints of this kind.
    #[arg(long, value_name = "KIND")]
    kind: Option<String>,
    /// No count or size limit removes a checkpoint younger than this: 0, 30m, 2h (overrides
    /// checkpoint.minAge, default 1h).
    #[arg(long, value_name = "DURATION", value_parser = git_checkpoint::parse_duration)]
    min_age: Option<chrono::Duration>,
    /// Print what would be pruned; delete nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print the pruned checkpoints as a JSON array, each with `pruned_by`: the setting (or
    /// flag) that pruned it.
    #[arg(long)]
    json: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint prune --dry-run                   # what the configured policy would remove
  git checkpoint prune --keep 10
  git checkpoint prune --older-than 2w --kind auto
  git checkpoint prune --max-size 1g --min-age 0   # down to 1 GiB, recent ones too
  git config checkpoint.auto.keep 20               # agents' saves: 20 at most";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    let pruned = checkpoints.prune(
        &PruneOptions {
            keep: args.keep,
            older_than: args.older_than,
            kind: args.kind,
            max_size: args.max_size,
            min_age: args.min_age,
            dry_run: args.dry_run,
        },
        &ui.ctl,
    )?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let array: Vec<_> = pruned
            .removed
            .iter()
            .map(|c| {
                let mut json = checkpoint_json(c);
                if let (Some(object), Some(by)) = (json.as_object_mut(), pruned.why.get(&c.id)) {
                    object.insert("pruned_by".into(), by.clone().into());
                }
                json
            })
            .collect();
        writeln!(out, "{}", json_line(&serde_json::Value::Array(array)))?;
    } else {
        for c in &pruned.removed {
            writeln!(
                out,
                "{} {} ({}) by {}",
                if args.dry_run {
                    "would prune"
                } else {
                    "pruned"
                },
                printable(&c.id, false),
                c.commit,
                pruned.why.get(&c.id).map_or("retention", String::as_str),
            )?;
        }
    }
    if !args.quiet {
        let verb = if args.dry_run {
            "would remove"
        } else {
            "removed"
        };
        ui.info(&format!(
            "{verb} {} and {}",
            count_checkpoints(pruned.removed.len()),
            count(pruned.orphan_notes, "orphaned note", "orphaned notes"),
        ));
        if pruned.orphan_conversations > 0 {
            ui.info(&format!(
                "{verb} {} whose checkpoint is gone",
                count(pruned.orphan_conversations, "conversation", "conversations"),
            ));
        }
        if pruned.unreadable_kept > 0 {
            ui.info(&format!(
                "kept {} whose note cannot be read (a pin there cannot be seen); `git checkpoint drop <id>` removes one",
                count_checkpoints(pruned.unreadable_kept),
            ));
        }
    }
    Ok(())
}

fn parse_size(text: &str) -> Result<u64, String> {
    git_checkpoint::parse_size(text.trim())
        .ok_or_else(|| format!("`{text}` is not a size (use e.g. 512k, 100m, 1g)"))
}
