//! Rendering shared by several commands: diff colours, `--stat` entries, sizes and counts.

use std::io::Write;

use git_checkpoint::{Checkpoints, FileDiff, PatchPaint, Quoting, rename_name};
use gix::bstr::ByteSlice;

use super::output::{ColorChoice, Painter};
use super::stat;

impl PatchPaint for Painter {
    fn meta(&self, line: &str) -> String {
        Painter::meta(self, line)
    }
    fn frag(&self, header: &str) -> String {
        Painter::frag(self, header)
    }
    fn removed(&self, line: &[u8]) -> Vec<u8> {
        self.deleted_bytes(line)
    }
    fn added(&self, line: &[u8]) -> Vec<u8> {
        self.added_bytes(line)
    }
}

/// The width git gives `--stat`: the terminal's, or 80.
pub fn stat_width() -> usize {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(80)
    } else {
        80
    }
}

/// Colour for diffs: `--color`, then `color.diff` / `color.ui`, then the usual rules.
pub fn diff_painter(checkpoints: &Checkpoints, choice: ColorChoice) -> Painter {
    if choice != ColorChoice::Auto {
        return Painter::for_stdout(choice);
    }
    match checkpoints.settings().diff_color {
        Some(false) => Painter::for_stdout(ColorChoice::Never),
        Some(true) => Painter::for_stdout(ColorChoice::Always),
        None => Painter::for_stdout(ColorChoice::Auto),
    }
}

/// Stat entries in the shape the stat renderer takes, with git's rename notation.
pub fn stat_entries(files: &[FileDiff], quoting: Quoting) -> Vec<stat::Entry> {
    files
        .iter()
        .map(|f| stat::Entry {
            name: display_name(f, quoting),
            added: f.added,
            deleted: f.deleted,
            binary: f.binary.then_some(f.sizes),
        })
        .collect()
}

/// The name `--stat` and `--numstat` print: the path, quoted, or for a rename git's
/// `pprint_rename`: `dir/{old => new}`, or both names quoted in full when either needs it.
pub fn display_name(f: &FileDiff, quoting: Quoting) -> String {
    match &f.old_path {
        Some(old)
            if quoting.needs_quotes(old.as_bstr()) || quoting.needs_quotes(f.path.as_bstr()) =>
        {
            format!(
                "{} => {}",
                quoting.quote(old.as_bstr()),
                quoting.quote(f.path.as_bstr())
            )
        }
        Some(old) => rename_name(&old.to_str_lossy(), &f.path.to_str_lossy()),
        None => quoting.quote(f.path.as_bstr()),
    }
}

/// `git diff --numstat`.
pub fn numstat(out: &mut impl Write, files: &[FileDiff], quoting: Quoting) -> std::io::Result<()> {
    for f in files {
        if f.binary {
            writeln!(out, "-\t-\t{}", display_name(f, quoting))?;
        } else {
            writeln!(
                out,
                "{}\t{}\t{}",
                f.added,
                f.deleted,
                display_name(f, quoting)
            )?;
        }
    }
    Ok(())
}

/// Sizes as people read them: `700.0 MiB`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// `n` and the noun, singular or plural: "1 file", "3 files", "0 files".
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "1 checkpoint", "2 checkpoints".
pub fn checkpoints(n: usize) -> String {
    count(n, "checkpoint", "checkpoints")
}

/// "1 file", "2 files".
pub fn files(n: usize) -> String {
    count(n, "file", "files")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_readable() {
        assert_eq!(human_size(12), "12 bytes");
        assert_eq!(human_size(734_003_200), "700.0 MiB");
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(files(1), "1 file");
        assert_eq!(files(0), "0 files");
        assert_eq!(checkpoints(100), "100 checkpoints");
    }
}
