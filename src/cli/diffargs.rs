//! The diff options that `diff` and `show` share, as git spells them (`--stat`, `--numstat`,
//! `--name-status`, `--name-only`, `-U<n>`, `-M<n>`, `--no-renames`, `--binary`), and the
//! printing of a comparison in the format they choose.

use std::io::Write;

use gix::bstr::ByteSlice;

use git_checkpoint::{Checkpoints, Diff, DiffOptions, PatchStyle};

use super::output::ColorChoice;
use super::render::{diff_painter, numstat, stat_entries, stat_width};
use super::stat;

/// The options; a verb flattens them into its own arguments.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// A diffstat, as `git diff --stat`.
    #[arg(long, group = "format")]
    pub stat: bool,
    /// Added and deleted lines per file, as `git diff --numstat`.
    #[arg(long, group = "format")]
    pub numstat: bool,
    /// Status letter and path per file, as `git diff --name-status`.
    #[arg(long, group = "format")]
    pub name_status: bool,
    /// Changed paths only.
    #[arg(long, group = "format")]
    pub name_only: bool,
    /// Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in
    /// git.
    #[arg(short = 'U', long = "unified", value_name = "N")]
    pub context: Option<usize>,
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
    pub renames: Option<u8>,
    /// Do not detect renames.
    #[arg(long, conflicts_with = "renames")]
    pub no_renames: bool,
    /// Emit binary files as git binary patches (with full index lines) so they apply too.
    #[arg(long)]
    pub binary: bool,
}

/// How a comparison is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Patch,
    Stat,
    Numstat,
    NameStatus,
    NameOnly,
}

impl DiffArgs {
    /// The format asked for: a format flag, else the patch when `patch` (the verb's `-p`) or
    /// `-U` asks for it, else `default`.
    pub fn format(&self, patch: bool, default: Format) -> Format {
        if self.stat {
            Format::Stat
        } else if self.numstat {
            Format::Numstat
        } else if self.name_status {
            Format::NameStatus
        } else if self.name_only {
            Format::NameOnly
        } else if patch || self.context.is_some() {
            Format::Patch
        } else {
            default
        }
    }

    /// The comparison's options, for printing in `format`.
    pub fn options(&self, checkpoints: &Checkpoints, format: Format) -> DiffOptions {
        DiffOptions {
            context: self.context.unwrap_or(3),
            renames: checkpoints.renames(self.renames, self.no_renames),
            hunks: format == Format::Patch,
        }
    }
}

/// Print `diff` in `format`.
pub fn write(
    out: &mut impl Write,
    checkpoints: &Checkpoints,
    color: ColorChoice,
    args: &DiffArgs,
    format: Format,
    diff: &Diff,
) -> std::io::Result<()> {
    let files = &diff.files;
    let paint = diff_painter(checkpoints, color);
    let quoting = checkpoints.quoting();
    let quote_path = |path: &gix::bstr::BStr| quoting.quote(path);
    match format {
        Format::Stat => stat::render(out, &paint, &stat_entries(files, quoting), stat_width()),
        Format::Numstat => numstat(out, files, quoting),
        Format::NameStatus => {
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
            Ok(())
        }
        Format::NameOnly => {
            for f in files {
                writeln!(out, "{}", quote_path(f.path.as_bstr()))?;
            }
            Ok(())
        }
        Format::Patch => {
            let style = PatchStyle {
                binary: args.binary,
                quoting,
            };
            diff.write_patch(out, &paint, style)
        }
    }
}

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
