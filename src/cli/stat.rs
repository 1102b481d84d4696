//! `--stat` rendering, following git's `show_stats` layout.

use std::io::Write;

use super::output::Painter;

/// One line of a stat.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The path as printed (quoted, or `{old => new}` for a rename).
    pub name: String,
    /// Lines added.
    pub added: u64,
    /// Lines deleted.
    pub deleted: u64,
    /// Sizes (old, new) when binary.
    pub binary: Option<(u64, u64)>,
}

/// Write the stat lines and the summary line, as `git diff --stat` does for a `width`-column
/// terminal (git uses 80 when the output is not a terminal).
pub fn render(
    out: &mut impl Write,
    paint: &Painter,
    stats: &[Entry],
    width: usize,
) -> std::io::Result<()> {
    if stats.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = stats.iter().map(|s| s.name.clone()).collect();
    let max_len = names.iter().map(|n| display_width(n)).max().unwrap_or(0);
    let max_change = stats
        .iter()
        .filter(|s| s.binary.is_none())
        .map(|s| s.added + s.deleted)
        .max()
        .unwrap_or(0) as usize;
    let has_binary = stats.iter().any(|s| s.binary.is_some());
    let mut number_width = max_change.to_string().len();
    if has_binary {
        number_width = number_width.max(3);
    }
    let bin_width = stats
        .iter()
        .filter_map(|s| s.binary)
        .map(|(a, b)| format!("Bin {a} -> {b} bytes").len())
        .max()
        .unwrap_or(0);

    let width = width.max(16 + 6 + number_width);
    let mut graph_width = if max_change + 4 > bin_width {
        max_change
    } else {
        bin_width - 4
    };
    let mut name_width = max_len;
    if name_width + number_width + 6 + graph_width > width {
        let limit = (width * 3 / 8).saturating_sub(number_width + 6);
        if graph_width > limit {
            graph_width = limit.max(6);
        }
        if name_width > width.saturating_sub(number_width + 6 + graph_width) {
            name_width = width.saturating_sub(number_width + 6 + graph_width);
        } else {
            graph_width = width.saturating_sub(number_width + 6 + name_width);
        }
    }

    let (mut insertions, mut deletions) = (0u64, 0u64);
    for (stat, name) in stats.iter().zip(&names) {
        let (shown, padding) = fit_name(name, name_width);
        let padding = " ".repeat(padding);
        // Bytes: a name git cuts inside a character is printed cut there, as git prints it.
        out.write_all(b" ")?;
        out.write_all(&shown)?;
        if let Some((old, new)) = stat.binary {
            writeln!(
                out,
                "{padding} | {:>number_width$} {old} -> {new} bytes",
                "Bin"
            )?;
            continue;
        }
        insertions += stat.added;
        deletions += stat.deleted;
        let total = stat.added + stat.deleted;
        let (mut add, mut del) = (stat.added as usize, stat.deleted as usize);
        if graph_width <= max_change {
            let total_scaled = scale(add + del, graph_width, max_change);
            if total_scaled < 2 && add > 0 && del > 0 {
                (add, del) = (1, 1);
            } else if add < del {
                add = scale(add, graph_width, max_change);
                del = total_scaled.saturating_sub(add);
            } else {
                del = scale(del, graph_width, max_change);
                add = total_scaled.saturating_sub(del);
            }
        }
        let graph = format!(
            "{}{}",
            paint.added(&"+".repeat(add)),
            paint.deleted(&"-".repeat(del))
        );
        let space = if add + del > 0 { " " } else { "" };
        writeln!(out, "{padding} | {total:>number_width$}{space}{graph}")?;
    }
    writeln!(out, "{}", summary(stats.len(), insertions, deletions))
}

/// git's `scale_linear`.
fn scale(it: usize, width: usize, max_change: usize) -> usize {
    if it == 0 || max_change < 2 {
        return it;
    }
    1 + (it * (width.saturating_sub(1)) / max_change)
}

/// A name in `width` columns as git's `show_stats` fits it, and the padding after it. A name
/// that does not fit is cut as git 2.47 cuts it: it skips as many *bytes* from the front as
/// the name is columns too wide (`...` included), then goes on to the next `/` if there is one.
/// A character that takes fewer columns than bytes (CJK: two columns, three bytes) makes the
/// cut go further than needed, and may make it fall inside a character when no `/` follows;
/// the padding then counts what is left as git counts it.
fn fit_name(name: &str, width: usize) -> (Vec<u8>, usize) {
    let name_len = display_width(name);
    if name_len <= width {
        return (name.as_bytes().to_vec(), width - name_len);
    }
    let len = width.saturating_sub(3);
    let bytes = name.as_bytes();
    let mut rest = &bytes[(name_len - len).min(bytes.len())..];
    if let Some(pos) = rest.iter().position(|b| *b == b'/') {
        rest = &rest[pos..];
    }
    let mut shown = b"...".to_vec();
    shown.extend_from_slice(rest);
    (shown, len.saturating_sub(bytes_width(rest)))
}

/// git's `utf8_strwidth` of bytes that may not be UTF-8: their byte count when they are not.
fn bytes_width(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(text) => display_width(text),
        Err(_) => bytes.len(),
    }
}

/// The columns `text` takes on a terminal, as git counts them (`utf8_strwidth`): wide East
/// Asian characters take two, combining marks and zero-width characters none.
fn display_width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// git's `git_wcwidth` for one printable character, on the ranges that matter for names:
/// its table of double-width characters (East Asian Wide and Fullwidth, emoji) in outline,
/// and the common combining and zero-width ones.
fn char_width(c: char) -> usize {
    let c = u32::from(c);
    let zero = matches!(c,
        0x0300..=0x036f | 0x0483..=0x0489 | 0x0591..=0x05bd | 0x0610..=0x061a
        | 0x064b..=0x065f | 0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x200b..=0x200f
        | 0x202a..=0x202e | 0x2060..=0x2064 | 0x20d0..=0x20ff | 0x302a..=0x302d
        | 0x3099..=0x309a | 0xfe00..=0xfe0f | 0xfe20..=0xfe2f | 0xfeff);
    let wide = matches!(c,
        0x1100..=0x115f | 0x2329..=0x232a | 0x2e80..=0x303e | 0x3040..=0xa4cf
        | 0xac00..=0xd7a3 | 0xf900..=0xfaff | 0xfe10..=0xfe19 | 0xfe30..=0xfe6f
        | 0xff00..=0xff60 | 0xffe0..=0xffe6 | 0x1f300..=0x1f64f | 0x1f900..=0x1f9ff
        | 0x20000..=0x2fffd | 0x30000..=0x3fffd);
    if zero {
        0
    } else if wide {
        2
    } else {
        1
    }
}

/// ` 3 files changed, 10 insertions(+), 2 deletions(-)`.
pub fn summary(files: usize, insertions: u64, deletions: u64) -> String {
    let plural = |n: u64, one: &str, many: &str| {
        if n == 1 {
            one.to_string()
        } else {
            many.to_string()
        }
    };
    let mut line = format!(" {files} {} changed", plural(files as u64, "file", "files"));
    if insertions > 0 || deletions == 0 {
        line.push_str(&format!(
            ", {insertions} {}(+)",
            plural(insertions, "insertion", "insertions")
        ));
    }
    if deletions > 0 || insertions == 0 {
        line.push_str(&format!(
            ", {deletions} {}(-)",
            plural(deletions, "deletion", "deletions")
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_reads_like_git() {
        assert_eq!(summary(1, 1, 0), " 1 file changed, 1 insertion(+)");
        assert_eq!(summary(2, 0, 3), " 2 files changed, 3 deletions(-)");
        assert_eq!(
            summary(3, 10, 2),
            " 3 files changed, 10 insertions(+), 2 deletions(-)"
        );
        assert_eq!(
            summary(1, 0, 0),
            " 1 file changed, 0 insertions(+), 0 deletions(-)"
        );
    }

    #[test]
    fn long_names_are_cut_as_git_cuts_them() {
        let fit = |name: &str, width| {
            let (shown, padding) = fit_name(name, width);
            (String::from_utf8_lossy(&shown).into_owned(), padding)
        };
        assert_eq!(fit("short", 10), ("short".into(), 5));
        assert_eq!(fit("aaaa/bbbb/cccc.rs", 12), (".../cccc.rs".into(), 1));
        // Widths count columns: each of these takes two.
        assert_eq!(display_width("日本/語.md"), 10);
        assert_eq!(display_width("e\u{301}"), 1);
        // 18 columns in 12: 9 bytes skipped ("日本語"), then on to the next `/`.
        assert_eq!(fit("日本語/日本語/x.md", 12), (".../日本語/x.md".into(), 0));
        // 15 columns in 9: 9 bytes skipped, no `/` after them; wider than 9, no padding.
        assert_eq!(fit("日本語日本語.md", 9), ("...日本語.md".into(), 0));
        // 11 columns in 9: 5 bytes skipped, inside "本", printed from there as git prints it;
        // git counts what is not UTF-8 by its bytes (8 > 6: no padding).
        let (shown, padding) = fit_name("日本日本.md", 9);
        assert_eq!(&shown[..3], b"...");
        assert_eq!(&shown[3..], &"日本日本.md".as_bytes()[5..]);
        assert_eq!(padding, 0);
    }
}
