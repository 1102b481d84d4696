//! `git checkpoint diff`.

use std::io::Write;

use gix::bstr::ByteSlice;

use git_checkpoint::{DiffOptions, PatchStyle, Side, quote_path};

use super::notices;
use super::output::{ColorChoice, Ui};
use super::render::{diff_painter, numstat, stat_entries, stat_width};
use super::{Failure, open, repo_paths, stat};

/// Show what changed between two checkpoints, or between a checkpoint and the working tree,
/// as a patch `git apply` accepts.
///
/// `diff A B`: from checkpoint A to checkpoint B. `diff A`: from A to the working tree now
/// (untracked files that are not ignored included). `diff`: from the newest checkpoint of
/// this worktree to the working tree. Nothing is written to the repository.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The old side: a checkpoint (default: the newest).
    #[arg(value_name = "A")]
    from: Option<String>,
    /// The new side: a checkpoint (default: the working tree).
    #[arg(value_name = "B")]
    to: Option<String>,
    /// A diffstat, as `git diff --stat`.
    #[arg(long, group = "format")]
    stat: bool,
    /// Added and deleted lines per file, as `git diff --numstat`.
    #[arg(long, group = "format")]
    numstat: bool,
    /// Status letter and path per file, as `git diff --name-status`.
    #[arg(long, group = "format")]
    name_status: bool,
    /// Changed paths only.
    #[arg(long, group = "format")]
    name_only: bool,
    /// A JSON object with a "files" array.
    #[arg(long, group = "format")]
    json: bool,
    /// Lines of context.
    #[arg(short = 'U', long = "unified", value_name = "N", default_value_t = 3)]
    context: usize,
    /// Detect renames, optionally with a minimal similarity in percent (default 50). On by
    /// default, as in git, unless `diff.renames` is false.
    #[arg(short = 'M', long = "find-renames", value_name = "N", num_args = 0..=1, default_missing_value = "50", require_equals = true)]
    renames: Option<u8>,
    /// Do not detect renames.
    #[arg(long, conflicts_with = "renames")]
    no_renames: bool,
    /// Emit binary files as git binary patches (with full index lines) so they apply too.
    #[arg(long)]
    binary: bool,
    /// Only these paths (files or directories), relative to the current directory.
    #[arg(last = true, value_name = "PATHS")]
    paths: Vec<std::path::PathBuf>,
}

pub fn run(ui: &Ui, color: ColorChoice, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    notices::warn_interrupted(ui, &checkpoints);
    let loaded = checkpoints.load()?;
    // Without a checkpoint: this worktree's newest.
    let from = checkpoints.resolve(&loaded, args.from.as_deref().unwrap_or("@"))?;
    ui.warn_damaged([from]);
    let to = match &args.to {
        Some(spec) => {
            let to = checkpoints.resolve(&loaded, spec)?;
            ui.warn_damaged([to]);
            Side::Checkpoint(to)
        }
        None => Side::WorkingTree,
    };
    let paths = repo_paths(&checkpoints, &args.paths)?;
    let patch = !(args.stat || args.numstat || args.name_status || args.name_only || args.json);
    let diff = checkpoints.diff(
        Side::Checkpoint(from),
        to,
        &paths,
        DiffOptions {
            context: args.context,
            renames: checkpoints.renames(args.renames, args.no_renames),
            hunks: patch,
        },
        &ui.ctl,
    )?;
    let files = &diff.files;
    let mut out = std::io::stdout().lock();
    let paint = diff_painter(&checkpoints, color);
    if args.stat {
        stat::render(&mut out, &paint, &stat_entries(files), stat_width())?;
    } else if args.numstat {
        numstat(&mut out, files)?;
    } else if args.name_status {
        for f in files {
            match &f.old_path {
                Some(old) => writeln!(
                    out,
                    "{}\t{}\t{}",
                    f.status.code(),
                    quote_path(old.as_bstr()),
                    quote_path(f.path.as_bstr())
                )?,
                None => writeln!(out, "{}\t{}", f.status.code(), quote_path(f.path.as_bstr()))?,
            }
        }
    } else if args.name_only {
        for f in files {
            writeln!(out, "{}", quote_path(f.path.as_bstr()))?;
        }
    } else if args.json {
        writeln!(out, "{}", diff.to_json())?;
    } else {
        let style = PatchStyle {
            binary: args.binary,
        };
        diff.write_patch(&mut out, &paint, style)?;
    }
    Ok(())
}
