//! `git checkpoint diff`.

use std::io::Write;

use gix::bstr::ByteSlice;

use git_checkpoint::{DiffOptions, PatchStyle, Side};

use super::notices;
use super::output::{ColorChoice, Ui, json_line};
use super::picker::{self, Purpose};
use super::render::{diff_painter, numstat, stat_entries, stat_width};
use super::{Failure, open, repo_paths, stat};

/// Show what changed between two checkpoints, or between a checkpoint and the working tree,
/// as a patch `git apply` accepts.
///
/// `diff A B`: from checkpoint A to checkpoint B. `diff A`: from A to the working tree now
/// (untracked files that are not ignored included). `diff`: from the newest checkpoint of
/// this worktree to the working tree. Nothing is written to the repository.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
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
    /// Lines of context (`-U5`, `-U 5`, `--unified=5`).
    #[arg(short = 'U', long = "unified", value_name = "N", default_value_t = 3)]
    context: usize,
    /// Detect renames, with a minimal similarity as git spells it: `-M90` or
    /// `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`;
    /// `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false.
    #[arg(
        short = 'M',
        long = "find-renames",
        value_name = "N",
        num_args = 0..=1,
        default_missing_value = "",
        require_equals = true,
        value_parser = rename_score
    )]
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

const EXAMPLES: &str = "\
Examples:
  git checkpoint diff                              # newest checkpoint -> working tree now
  git checkpoint diff before-refactor --stat       # a checkpoint -> working tree now
  git checkpoint diff @{1} @ -- src/               # between two checkpoints, under src/
  git checkpoint diff @{1} @ | git apply -R        # any tool that reads git patches
  git checkpoint diff -M90 -U5 @ --name-status";

/// git's `-M<n>`, the score attached to the short flag, becomes `--find-renames=<n>` before clap
/// parses the line: clap would also take a separate word after `-M` as its score, where git
/// takes it for the next argument (`diff -M @{1}` compares with `@{1}`). `-M=90`, which git
/// refuses, stays refused: `=90` is no score. Stops at `--`.
pub fn git_spellings(args: &mut [std::ffi::OsString]) {
    for arg in args.iter_mut() {
        if arg == "--" {
            break;
        }
        if let Some(score) = arg.to_str().and_then(|a| a.strip_prefix("-M"))
            && !score.is_empty()
        {
            *arg = format!("--find-renames={score}").into();
        }
    }
}

/// A rename score as git reads it (`parse_rename_score`): digits are a fraction with a
/// decimal point before them (`90` and `9` are 90 %, `05` is 5 %), a decimal point may be
/// given (`0.9`), a `%` ends a percentage (`90%`); nothing, or zero, is git's default of 50 %.
/// Returned in percent, rounded down (git keeps finer steps: `-M555` is 55.5 % there, 55 here).
fn rename_score(text: &str) -> Result<u8, String> {
    const MAX: u64 = 60_000;
    let (mut num, mut scale, mut dot) = (0u64, 1u64, false);
    let bytes = text.as_bytes();
    let mut end = 0;
    while let Some(&c) = bytes.get(end) {
        match c {
            b'.' if !dot => {
                scale = 1;
                dot = true;
            }
            b'%' => {
                scale = if dot { scale * 100 } else { 100 };
                end += 1;
                break;
            }
            b'0'..=b'9' => {
                if scale < 100_000 {
                    scale *= 10;
                    num = num * 10 + u64::from(c - b'0');
                }
            }
            _ => break,
        }
        end += 1;
    }
    if end != bytes.len() {
        return Err(format!(
            "`{text}` is not a similarity: give digits as git does, e.g. -M90, -M90% or --find-renames=90"
        ));
    }
    let score = if num >= scale { MAX } else { MAX * num / scale };
    if score == 0 {
        return Ok(50);
    }
    Ok(u8::try_from(score * 100 / MAX).unwrap_or(100))
}

pub fn run(ui: &Ui, color: ColorChoice, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    notices::warn_interrupted(ui, &checkpoints);
    let loaded = checkpoints.load()?;
    // Without a checkpoint: on a terminal, the picker; else this worktree's newest.
    let picked;
    let from = match &args.from {
        Some(spec) => checkpoints.resolve(&loaded, spec)?,
        None if picker::available() => match picker::pick(&checkpoints, Purpose::Diff)? {
            Some(c) => {
                picked = c;
                &picked
            }
            None => return Ok(()),
        },
        None => checkpoints.resolve(&loaded, "@")?,
    };
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
    let quoting = checkpoints.quoting();
    let quote_path = |path: &gix::bstr::BStr| quoting.quote(path);
    if args.stat {
        stat::render(
            &mut out,
            &paint,
            &stat_entries(files, quoting),
            stat_width(),
        )?;
    } else if args.numstat {
        numstat(&mut out, files, quoting)?;
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
        writeln!(out, "{}", json_line(&diff.to_json()))?;
    } else {
        let style = PatchStyle {
            binary: args.binary,
            quoting,
        };
        diff.write_patch(&mut out, &paint, style)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_scores_read_as_git_reads_them() {
        for (text, percent) in [
            ("", 50),
            ("90", 90),
            ("9", 90),
            ("5", 50),
            ("05", 5),
            ("100", 10),
            ("100%", 100),
            ("90%", 90),
            ("0.9", 90),
            ("1.5", 100),
            ("0", 50),
            ("005", 0),
        ] {
            assert_eq!(rename_score(text), Ok(percent), "{text:?}");
        }
        for bad in ["=90", "x", "90x", "9%0"] {
            assert!(rename_score(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn only_an_attached_score_is_rewritten() {
        let mut args: Vec<std::ffi::OsString> = ["-M90", "-M", "@", "-M=5", "--", "-M1"]
            .iter()
            .map(Into::into)
            .collect();
        git_spellings(&mut args);
        assert_eq!(
            args,
            [
                "--find-renames=90",
                "-M",
                "@",
                "--find-renames==5",
                "--",
                "-M1"
            ]
        );
    }
}
