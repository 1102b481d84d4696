//! `git checkpoint stores`.

use std::io::Write;

use git_checkpoint::{Checkpoints, StoreInfo};

use super::Failure;
use super::output::{Ui, json_line, pad, printable};
use super::render::{count, human_size};

/// List the private stores that keep the checkpoints of plain directories (directories in no
/// git repository): each one's directory, checkpoints and size, and whether the directory
/// still exists.
///
/// They live under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores, one per directory.
/// A store whose directory was moved or renamed is found no more by the directory in its new
/// place: --adopt STORE, run there, makes it that directory's store again, with its
/// checkpoints and undo history. A store whose directory was deleted stays until --prune
/// removes it; --prune never removes one whose directory merely cannot be read now (permission
/// denied) or is on a file system that is not mounted. One whose directory has since become a git repository is no longer used (the
/// repository is) and is marked so: remove it with `rm -r` once its checkpoints are not
/// needed.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint stores                 # every private store
  git checkpoint stores --prune         # remove those whose directory is gone
  git checkpoint stores --adopt \"$OLD\"   # run in a moved directory: keep its checkpoints
  git --git-dir=\"$STORE\" config checkpoint.exclude 'data/'   # a setting for one directory")]
pub struct Args {
    /// Remove the stores whose directory is known to be gone (its path does not exist), with
    /// their checkpoints; never one whose directory cannot be read, is on a file system that is
    /// not mounted, or is not recorded.
    #[arg(long, conflicts_with = "adopt")]
    prune: bool,
    /// Make STORE, the store of a directory that was moved or renamed (its recorded directory
    /// is gone), the store of the current directory.
    #[arg(long, value_name = "STORE")]
    adopt: Option<std::path::PathBuf>,
    /// With --prune: only say which stores would be removed.
    #[arg(long, requires = "prune")]
    dry_run: bool,
    /// Print a JSON array: each store's path, directory, whether it exists, is known to be
    /// gone or is unknown (and why), whether it is now in a git repository, checkpoints and
    /// size in bytes.
    #[arg(long)]
    json: bool,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    if let Some(store) = &args.adopt {
        let cwd = std::env::current_dir()?;
        let now = Checkpoints::adopt_store(store, &cwd)?;
        ui.info(&format!(
            "the checkpoints of this directory are kept in `{}` from now on",
            now.display()
        ));
        return Ok(());
    }
    if args.prune {
        let removed = Checkpoints::prune_stores(args.dry_run)?;
        if args.json {
            let array = removed.iter().map(StoreInfo::to_json).collect();
            writeln!(out, "{}", json_line(&serde_json::Value::Array(array)))?;
            return Ok(());
        }
        let verb = if args.dry_run {
            "would remove"
        } else {
            "removed"
        };
        for store in &removed {
            writeln!(
                out,
                "{verb} {} ({}, {}; its directory {} is gone)",
                printable(&store.store.display().to_string(), false),
                count(store.checkpoints, "checkpoint", "checkpoints"),
                human_size(store.size),
                directory(store),
            )?;
        }
        if removed.is_empty() {
            ui.info("no store's directory is known to be gone; nothing to remove");
        }
        return Ok(());
    }
    let stores = Checkpoints::stores()?;
    if args.json {
        let array = stores.iter().map(StoreInfo::to_json).collect();
        writeln!(out, "{}", json_line(&serde_json::Value::Array(array)))?;
        return Ok(());
    }
    if stores.is_empty() {
        ui.info("no private stores yet: a save outside any git repository makes one");
        return Ok(());
    }
    let width = stores
        .iter()
        .map(|s| directory(s).chars().count())
        .max()
        .unwrap_or(0);
    for store in &stores {
        let state = if store.gone {
            "  (directory gone: `git checkpoint stores --prune` removes it; `--adopt` in its new place keeps it)".to_string()
        } else if let Some(why) = &store.unknown {
            format!("  (directory unknown: {}; kept)", printable(why, false))
        } else if store.in_repository {
            "  (now in a git repository, which is used instead)".to_string()
        } else {
            String::new()
        };
        writeln!(
            out,
            "{}  {:>15}  {:>9}  {}{state}",
            pad(&directory(store), width),
            count(store.checkpoints, "checkpoint", "checkpoints"),
            human_size(store.size),
            printable(&store.store.display().to_string(), false),
        )?;
    }
    Ok(())
}

/// The directory a store keeps, printable.
fn directory(store: &StoreInfo) -> String {
    match &store.directory {
        Some(dir) => printable(&dir.display().to_string(), false),
        None => "(unknown directory)".into(),
    }
}
