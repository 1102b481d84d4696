//! Patches in git's unified format, as `git diff` writes them: headers, hunks, binary files
//! (`Binary files … differ`, or git's binary patches with `--binary`), and paths quoted as git
//! quotes them.

use std::io::Write;

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice};
use gix::objs::tree::EntryKind;

use crate::diff::{DiffOptions, FileDiff, Status};
use crate::treediff::{self, Side};

/// Colours for a patch, following git's `color.diff.*` slots. Every method has a default that
/// paints nothing; [`Plain`] is that.
pub trait PatchPaint {
    /// A header line (`diff --git`, `index`, `---`, `+++`): git's `meta` slot.
    fn meta(&self, line: &str) -> String {
        line.to_string()
    }
    /// A hunk header (`@@ … @@`): git's `frag` slot.
    fn frag(&self, header: &str) -> String {
        header.to_string()
    }
    /// A removed line, with its `-`: git's `old` slot.
    fn removed(&self, line: &[u8]) -> Vec<u8> {
        line.to_vec()
    }
    /// An added line, with its `+`: git's `new` slot.
    fn added(&self, line: &[u8]) -> Vec<u8> {
        line.to_vec()
    }
}

/// A patch without colours.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl PatchPaint for Plain {}

/// git's `pprint_rename`: `dir/{old => new}/file`.
pub fn rename_name(a: &str, b: &str) -> String {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let mut pfx = 0;
    let mut i = 0;
    while i < ab.len() && i < bb.len() && ab[i] == bb[i] {
        if ab[i] == b'/' {
            pfx = i + 1;
        }
        i += 1;
    }
    let adjust = usize::from(pfx > 0);
    let mut sfx = 0;
    let (mut oi, mut ni) = (ab.len() as isize - 1, bb.len() as isize - 1);
    let floor = pfx as isize - adjust as isize;
    while oi >= floor && ni >= floor && oi >= 0 && ni >= 0 && ab[oi as usize] == bb[ni as usize] {
        if ab[oi as usize] == b'/' {
            sfx = ab.len() - oi as usize;
        }
        oi -= 1;
        ni -= 1;
    }
    let a_mid = ab.len().saturating_sub(pfx + sfx);
    let b_mid = bb.len().saturating_sub(pfx + sfx);
    if pfx + sfx > 0 {
        format!(
            "{}{{{} => {}}}{}",
            &a[..pfx],
            &a[pfx..pfx + a_mid],
            &b[pfx..pfx + b_mid],
            &a[a.len() - sfx..]
        )
    } else {
        format!("{a} => {b}")
    }
}

/// How paths are quoted for output: git's `quote_c_style` under `core.quotePath`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quoting {
    /// `core.quotePath` (on by default): bytes from 0x80 up are quoted as octal escapes too.
    /// Off, UTF-8 is printed as it is, except for what must never reach a terminal raw: the C1
    /// controls (U+0080–U+009F, CSI and OSC among them) and bytes that are not UTF-8, which
    /// are then escaped where git would print them raw.
    pub non_ascii: bool,
}

impl Default for Quoting {
    fn default() -> Self {
        Quoting { non_ascii: true }
    }
}

impl Quoting {
    /// Whether `path` is printed in quotes.
    pub fn needs_quotes(self, path: &BStr) -> bool {
        path.char_indices()
            .any(|(start, end, c)| self.escaped(&path[start..end], c))
    }

    /// Whether the bytes `raw` of the char `c` (U+FFFD for bytes that are not UTF-8) are
    /// escaped.
    fn escaped(self, raw: &[u8], c: char) -> bool {
        match raw {
            [b] if b.is_ascii() => *b < 0x20 || *b == b'"' || *b == b'\\' || *b == 0x7f,
            _ if self.non_ascii => true,
            _ => {
                ('\u{80}'..='\u{9f}').contains(&c)
                    || (c == '\u{fffd}' && raw != "\u{fffd}".as_bytes())
            }
        }
    }

    /// `path` as git prints it: as it is, or in double quotes with C escapes.
    pub fn quote(self, path: &BStr) -> String {
        if !self.needs_quotes(path) {
            return path.to_str_lossy().into_owned();
        }
        let mut out = String::from("\"");
        for (start, end, c) in path.char_indices() {
            let raw = &path[start..end];
            if !self.escaped(raw, c) {
                out.push_str(&raw.to_str_lossy());
                continue;
            }
            for &b in raw.iter() {
                match b {
                    b'\x07' => out.push_str("\\a"),
                    b'\x08' => out.push_str("\\b"),
                    b'\t' => out.push_str("\\t"),
                    b'\n' => out.push_str("\\n"),
                    b'\x0b' => out.push_str("\\v"),
                    b'\x0c' => out.push_str("\\f"),
                    b'\r' => out.push_str("\\r"),
                    b'"' => out.push_str("\\\""),
                    b'\\' => out.push_str("\\\\"),
                    b => out.push_str(&format!("\\{b:03o}")),
                }
            }
        }
        out.push('"');
        out
    }
}

/// A path as git prints it with `core.quotePath` on (the default): see [`Quoting`].
pub fn quote_path(path: &BStr) -> String {
    Quoting::default().quote(path)
}

/// `a/` or `b/` prefixed path, quoted as a whole as git does.
fn prefixed(prefix: &str, path: &BStr, quoting: Quoting) -> String {
    let mut full = prefix.as_bytes().to_vec();
    full.extend_from_slice(path);
    quoting.quote(full.as_bstr())
}

fn mode(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Blob => "100644",
        EntryKind::BlobExecutable => "100755",
        EntryKind::Link => "120000",
        EntryKind::Commit => "160000",
        EntryKind::Tree => "040000",
    }
}

/// `id` abbreviated as git's `find_unique_abbrev` does it, whether or not the object is in the
/// object database (the working tree's blobs are hashed into memory only, as git hashes them
/// without writing, and the null id stands for a missing side).
fn abbrev(repo: &gix::Repository, id: ObjectId) -> String {
    let mut hex = id.to_string();
    hex.truncate(abbrev_len(repo, &id));
    hex
}

/// `core.abbrev` hex digits (`auto`, the default: from the number of packed objects, at least
/// 7), then one more than the longest prefix `id` shares with any other object in the object
/// database (objects held only in memory are not in it, as git never sees them).
fn abbrev_len(repo: &gix::Repository, id: &ObjectId) -> usize {
    let full = id.kind().len_in_hex();
    let configured = repo.config_snapshot().string("core.abbrev").map(|value| {
        gix::config::tree::Core::ABBREV.try_into_abbreviation(value.as_bstr(), id.kind())
    });
    let start = match configured {
        Some(Ok(Some(len))) => len,
        // `auto` (or a value git would reject): as git and gix compute it.
        _ => {
            let packed = repo.objects.packed_object_count().unwrap_or(0);
            let bits = 64 - packed.leading_zeros() as usize;
            bits.div_ceil(2).max(7)
        }
    };
    if start >= full {
        return full;
    }
    let Ok(prefix) = gix::hash::Prefix::new(id, start) else {
        return full;
    };
    let mut candidates = std::collections::HashSet::new();
    if repo
        .objects
        .lookup_prefix(prefix, Some(&mut candidates))
        .is_err()
    {
        return full;
    }
    candidates
        .iter()
        .filter(|other| *other != id)
        .map(|other| common_hex_prefix(id, other) + 1)
        .fold(start, usize::max)
        .min(full)
}

/// How many leading hex digits `a` and `b` share.
fn common_hex_prefix(a: &ObjectId, b: &ObjectId) -> usize {
    let mut len = 0;
    for (x, y) in a.as_bytes().iter().zip(b.as_bytes()) {
        if x == y {
            len += 2;
        } else {
            if x >> 4 == y >> 4 {
                len += 1;
            }
            break;
        }
    }
    len
}

/// How a patch is written.
#[derive(Debug, Clone, Copy, Default)]
pub struct PatchStyle {
    /// `--binary`: binary patches and full index lines.
    pub binary: bool,
    /// How paths are quoted (`core.quotePath`).
    pub quoting: Quoting,
}

/// Write a patch of `files` in git's unified format, reading blobs from `repo`.
pub(crate) fn write_patch(
    out: &mut dyn Write,
    paint: &dyn PatchPaint,
    repo: &gix::Repository,
    files: &[FileDiff],
    style: PatchStyle,
) -> std::io::Result<()> {
    for f in files {
        if f.status == Status::TypeChanged {
            // git shows a change of type as a deletion and an addition.
            let (old, new) = (f.old, f.new);
            let mut deletion = crate::diff::file_diffs(
                repo,
                &[treediff::FileChange {
                    path: f.path.clone(),
                    old,
                    new: None,
                }],
                DiffOptions::default(),
            )
            .map_err(std::io::Error::other)?;
            let addition = crate::diff::file_diffs(
                repo,
                &[treediff::FileChange {
                    path: f.path.clone(),
                    old: None,
                    new,
                }],
                DiffOptions::default(),
            )
            .map_err(std::io::Error::other)?;
            deletion.extend(addition);
            write_patch(out, paint, repo, &deletion, style)?;
            continue;
        }
        render_file(out, paint, repo, f, style)?;
    }
    Ok(())
}

fn render_file(
    out: &mut dyn Write,
    paint: &dyn PatchPaint,
    repo: &gix::Repository,
    f: &FileDiff,
    style: PatchStyle,
) -> std::io::Result<()> {
    let new_path = f.path.as_bstr();
    let old_path = f.old_path.as_ref().map_or(new_path, |p| p.as_bstr());
    let meta = |s: String| paint.meta(&s);
    let quote_path = |path: &BStr| style.quoting.quote(path);
    let prefixed = |prefix: &str, path: &BStr| prefixed(prefix, path, style.quoting);
    writeln!(
        out,
        "{}",
        meta(format!(
            "diff --git {} {}",
            prefixed("a/", old_path),
            prefixed("b/", new_path)
        ))
    )?;
    let ids = |old: Option<Side>, new: Option<Side>| {
        let show = |id: ObjectId| {
            if style.binary && f.binary {
                id.to_string()
            } else {
                abbrev(repo, id)
            }
        };
        // A missing side is the null id, abbreviated like any other (git does the same).
        let null = ObjectId::null(repo.object_hash());
        (
            show(old.map_or(null, |s| s.id)),
            show(new.map_or(null, |s| s.id)),
        )
    };
    match (f.old, f.new) {
        (None, Some(new)) => {
            writeln!(out, "{}", meta(format!("new file mode {}", mode(new.kind))))?;
            let (o, n) = ids(None, Some(new));
            writeln!(out, "{}", meta(format!("index {o}..{n}")))?;
        }
        (Some(old), None) => {
            writeln!(
                out,
                "{}",
                meta(format!("deleted file mode {}", mode(old.kind)))
            )?;
            let (o, n) = ids(Some(old), None);
            writeln!(out, "{}", meta(format!("index {o}..{n}")))?;
        }
        (Some(old), Some(new)) => {
            if let Status::Renamed(score) = f.status {
                writeln!(out, "{}", meta(format!("similarity index {score}%")))?;
                writeln!(
                    out,
                    "{}",
                    meta(format!("rename from {}", quote_path(old_path)))
                )?;
                writeln!(
                    out,
                    "{}",
                    meta(format!("rename to {}", quote_path(new_path)))
                )?;
            }
            if old.kind != new.kind {
                writeln!(out, "{}", meta(format!("old mode {}", mode(old.kind))))?;
                writeln!(out, "{}", meta(format!("new mode {}", mode(new.kind))))?;
            }
            if old.id != new.id {
                let (o, n) = ids(Some(old), Some(new));
                if old.kind == new.kind {
                    writeln!(
                        out,
                        "{}",
                        meta(format!("index {o}..{n} {}", mode(new.kind)))
                    )?;
                } else {
                    writeln!(out, "{}", meta(format!("index {o}..{n}")))?;
                }
            }
        }
        (None, None) => return Ok(()),
    }
    let a = if f.old.is_some() {
        prefixed("a/", old_path)
    } else {
        "/dev/null".into()
    };
    let b = if f.new.is_some() {
        prefixed("b/", new_path)
    } else {
        "/dev/null".into()
    };
    if f.binary {
        if f.old.map(|s| s.id) == f.new.map(|s| s.id) {
            return Ok(());
        }
        if style.binary {
            let data = |side: Option<Side>| {
                crate::diff::content(repo, side).map_err(std::io::Error::other)
            };
            writeln!(out, "GIT binary patch")?;
            binary_literal(out, &data(f.new)?)?;
            binary_literal(out, &data(f.old)?)?;
        } else {
            writeln!(out, "Binary files {a} and {b} differ")?;
        }
        return Ok(());
    }
    if f.hunks.is_empty() {
        return Ok(());
    }
    // git ends these lines with a tab when the name has a space, so the name is unambiguous.
    let tab = |p: &BStr| if p.contains(&b' ') { "\t" } else { "" };
    let a_tab = if f.old.is_some() { tab(old_path) } else { "" };
    let b_tab = if f.new.is_some() { tab(new_path) } else { "" };
    writeln!(out, "{}", meta(format!("--- {a}{a_tab}")))?;
    writeln!(out, "{}", meta(format!("+++ {b}{b_tab}")))?;
    for hunk in &f.hunks {
        let range = |start: usize, len: usize| {
            if len == 1 {
                format!("{start}")
            } else {
                format!("{start},{len}")
            }
        };
        let header = format!(
            "@@ -{} +{} @@",
            range(hunk.old_start, hunk.old_len),
            range(hunk.new_start, hunk.new_len)
        );
        write!(out, "{}", paint.frag(&header))?;
        if let Some(function) = &hunk.function {
            out.write_all(b" ")?;
            out.write_all(function)?;
        }
        out.write_all(b"\n")?;
        for line in &hunk.lines {
            let mut text = vec![line.origin as u8];
            text.extend_from_slice(&line.text);
            let painted = match line.origin {
                '-' => paint.removed(&text),
                '+' => paint.added(&text),
                _ => text,
            };
            out.write_all(&painted)?;
            out.write_all(b"\n")?;
            if line.no_newline {
                out.write_all(b"\\ No newline at end of file\n")?;
            }
        }
    }
    Ok(())
}

/// One side of a git binary patch: `literal <size>`, the zlib-deflated data in base85 lines
/// of up to 52 bytes, then an empty line.
fn binary_literal(out: &mut dyn Write, data: &[u8]) -> std::io::Result<()> {
    use gix::zlib::Compression;
    use gix::zlib::stream::deflate;
    // git deflates binary patches at its `zlib_compression_level`, Z_BEST_SPEED by default.
    let mut writer = deflate::Write::new(Vec::new(), Compression::BEST_SPEED);
    writer.write_all(data)?;
    writer.flush()?;
    let deflated = writer.into_inner();
    writeln!(out, "literal {}", data.len())?;
    for chunk in deflated.chunks(52) {
        let len = chunk.len();
        let marker = if len <= 26 {
            b'A' + (len as u8 - 1)
        } else {
            b'a' + (len as u8 - 27)
        };
        let mut line = vec![marker];
        line.extend_from_slice(&base85(chunk));
        line.push(b'\n');
        out.write_all(&line)?;
    }
    writeln!(out)
}

/// git's base85 (`base85.c`): each 4 bytes, big-endian, as 5 digits; the last group padded
/// with zeros.
fn base85(data: &[u8]) -> Vec<u8> {
    const ALPHABET: &[u8; 85] =
        b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
    let mut out = Vec::with_capacity(data.len().div_ceil(4) * 5);
    for group in data.chunks(4) {
        let mut word = [0u8; 4];
        word[..group.len()].copy_from_slice(group);
        let mut value = u32::from_be_bytes(word);
        let mut digits = [0u8; 5];
        for digit in digits.iter_mut().rev() {
            *digit = ALPHABET[(value % 85) as usize];
            value /= 85;
        }
        out.extend_from_slice(&digits);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_print_like_git() {
        assert_eq!(rename_name("a.txt", "b.txt"), "a.txt => b.txt");
        assert_eq!(
            rename_name("dir/a.txt", "dir/b.txt"),
            "dir/{a.txt => b.txt}"
        );
        assert_eq!(rename_name("old/f.rs", "new/f.rs"), "{old => new}/f.rs");
        assert_eq!(rename_name("src/x/f.rs", "src/y/f.rs"), "src/{x => y}/f.rs");
        assert_eq!(rename_name("a/f", "a/b/f"), "a/{ => b}/f");
    }

    #[test]
    fn base85_matches_git() {
        // git's own encoding of these bytes (base85.c).
        assert_eq!(base85(b"\0\0\0\0"), b"00000");
        assert_eq!(base85(&[0xff, 0xff, 0xff, 0xff]), b"|NsC0");
        assert_eq!(base85(b"a"), base85(b"a\0\0\0"));
    }

    #[test]
    fn without_quote_path_utf8_is_raw_but_controls_are_not() {
        let quote = |path: &[u8]| Quoting { non_ascii: false }.quote(path.as_bstr());
        assert_eq!(quote("ü/naïve".as_bytes()), "ü/naïve");
        assert_eq!(quote("ü\tx".as_bytes()), "\"ü\\tx\"");
        assert_eq!(quote(b"a\\b"), "\"a\\\\b\"");
        assert_eq!(quote(b"del\x7f"), "\"del\\177\"");
        // C1 controls and bytes that are not UTF-8 are escaped, never printed raw.
        assert_eq!(quote("csi\u{9b}ü".as_bytes()), "\"csi\\302\\233ü\"");
        assert_eq!(quote(b"latin\xe9"), "\"latin\\351\"");
        assert_eq!(quote("\u{fffd}".as_bytes()), "\u{fffd}");
    }

    #[test]
    fn paths_are_quoted_like_git() {
        assert_eq!(quote_path(b"plain/path.txt".as_bstr()), "plain/path.txt");
        assert_eq!(quote_path(b"with space".as_bstr()), "with space");
        assert_eq!(quote_path("ü".as_bytes().as_bstr()), "\"\\303\\274\"");
        assert_eq!(quote_path(b"tab\there".as_bstr()), "\"tab\\there\"");
        assert_eq!(quote_path(b"q\"uote".as_bstr()), "\"q\\\"uote\"");
    }
}
