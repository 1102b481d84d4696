//! Line diffs between trees: hunks, counts and renames, as `git diff` computes them.

use gix::ObjectId;
use gix::bstr::BString;
use gix::objs::tree::EntryKind;

use crate::error::{Context, Result};
use crate::treediff::{FileChange, Side};
use crate::userdiff::{Drivers, FuncName};

/// How many bytes git looks at to decide that a file is binary.
const BINARY_PROBE: usize = 8000;

/// Whether git would call `data` binary: a NUL byte in its first 8000 bytes.
pub fn is_binary(data: &[u8]) -> bool {
    data[..data.len().min(BINARY_PROBE)].contains(&0)
}

/// The content git diffs for one side of a change.
pub fn content(repo: &gix::Repository, side: Option<Side>) -> Result<Vec<u8>> {
    let Some(side) = side else {
        return Ok(Vec::new());
    };
    if side.kind == EntryKind::Commit {
        return Ok(format!("Subproject commit {}\n", side.id).into_bytes());
    }
    blob(repo, side.id)
}

fn blob(repo: &gix::Repository, id: ObjectId) -> Result<Vec<u8>> {
    let blob = repo
        .find_blob(id)
        .context(|| format!("cannot read blob {id}"))?;
    Ok(blob.data.clone())
}

/// Lines added and removed between two texts, with a minimal line diff.
pub fn count_lines(old: &[u8], new: &[u8]) -> (u64, u64) {
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_lines(old, new);
    let (mut added, mut deleted) = (0, 0);
    for op in diff.ops() {
        match op {
            similar::DiffOp::Insert { new_len, .. } => added += *new_len as u64,
            similar::DiffOp::Delete { old_len, .. } => deleted += *old_len as u64,
            similar::DiffOp::Replace {
                old_len, new_len, ..
            } => {
                added += *new_len as u64;
                deleted += *old_len as u64;
            }
            similar::DiffOp::Equal { .. } => {}
        }
    }
    (added, deleted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts_match_a_minimal_diff() {
        assert_eq!(count_lines(b"a\nb\nc\n", b"a\nB\nc\nd\n"), (2, 1));
        assert_eq!(count_lines(b"", b"x\ny\n"), (2, 0));
        assert_eq!(
            count_lines(b"x", b"x\n"),
            (1, 1),
            "a missing final newline differs"
        );
        assert_eq!(count_lines(b"same\n", b"same\n"), (0, 0));
    }

    #[test]
    fn binary_means_a_nul_in_the_first_8000_bytes() {
        assert!(is_binary(b"a\0b"));
        assert!(!is_binary(b"plain text\n"));
        let mut late = vec![b'a'; 9000];
        late[8500] = 0;
        assert!(!is_binary(&late));
    }
}

/// How a path changed, as `git diff --name-status` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Status {
    /// Added.
    #[serde(rename = "A")]
    Added,
    /// Deleted.
    #[serde(rename = "D")]
    Deleted,
    /// Content or mode changed.
    #[serde(rename = "M")]
    Modified,
    /// Changed between file, symlink and submodule.
    #[serde(rename = "T")]
    TypeChanged,
    /// Renamed (with `-M`), with a similarity in percent.
    #[serde(rename = "R")]
    Renamed(u8),
}

impl Status {
    /// The letter `--name-status` prints (`R` with its score).
    pub fn code(&self) -> String {
        match self {
            Status::Added => "A".into(),
            Status::Deleted => "D".into(),
            Status::Modified => "M".into(),
            Status::TypeChanged => "T".into(),
            Status::Renamed(score) => format!("R{score:03}"),
        }
    }
}

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// `' '`, `'-'` or `'+'`.
    pub origin: char,
    /// The line without its newline.
    pub text: Vec<u8>,
    /// The file ends with this line and it has no newline.
    pub no_newline: bool,
}

/// One hunk of a unified diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// First line in the old file (1-based; 0 with an empty range).
    pub old_start: usize,
    /// Number of old lines.
    pub old_len: usize,
    /// First line in the new file.
    pub new_start: usize,
    /// Number of new lines.
    pub new_len: usize,
    /// The function context git prints after `@@`: the nearest line above the hunk that the
    /// file's diff driver (its `diff` attribute) takes for a function line, or by git's default
    /// rule one starting with a letter, `_` or `$`.
    pub function: Option<Vec<u8>>,
    /// The lines.
    pub lines: Vec<Line>,
}

/// Everything needed to print one file of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDiff {
    /// Path in the new tree (or the old one, for a deletion).
    pub path: BString,
    /// Path in the old tree, when renamed.
    pub old_path: Option<BString>,
    /// The status.
    pub status: Status,
    /// The old side.
    pub old: Option<Side>,
    /// The new side.
    pub new: Option<Side>,
    /// Lines added (0 for binary files).
    pub added: u64,
    /// Lines removed (0 for binary files).
    pub deleted: u64,
    /// Either side is binary.
    pub binary: bool,
    /// Byte sizes of both sides.
    pub sizes: (u64, u64),
    /// The hunks (empty for binary files).
    pub hunks: Vec<Hunk>,
}

/// Options for [`file_diffs`].
#[derive(Debug, Clone, Copy)]
pub struct DiffOptions {
    /// Lines of context around changes (`-U`).
    pub context: usize,
    /// Detect renames (`-M`), with this minimal similarity in percent.
    pub renames: Option<u8>,
    /// Compute hunks (not needed for `--stat`, `--numstat`, …).
    pub hunks: bool,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            context: 3,
            renames: None,
            hunks: true,
        }
    }
}

/// Compute the per-file diff of `changes` (from [`crate::treediff::changes`]), reading blobs
/// from `repo`.
pub fn file_diffs(
    repo: &gix::Repository,
    changes: &[FileChange],
    options: DiffOptions,
) -> Result<Vec<FileDiff>> {
    let mut out = Vec::with_capacity(changes.len());
    let mut pairs: Vec<Pair> = changes
        .iter()
        .map(|c| (None, c.path.clone(), c.old, c.new, None))
        .collect();
    if let Some(min) = options.renames {
        pairs = detect_renames(repo, pairs, min)?;
    }
    let mut drivers = Drivers::new(repo)?;
    for (old_path, path, old, new, score) in pairs {
        let old_data = content(repo, old)?;
        let new_data = content(repo, new)?;
        // Each side's driver, from its own path, as git's `diff_filespec_load_driver`.
        let old_driver = drivers.select(old_path.as_ref().unwrap_or(&path).as_ref(), old)?;
        let new_driver = drivers.select(path.as_ref(), new)?;
        let binary = drivers
            .binary(&old_driver)
            .unwrap_or_else(|| is_binary(&old_data))
            || drivers
                .binary(&new_driver)
                .unwrap_or_else(|| is_binary(&new_data));
        let status = match (old, new, score) {
            (_, _, Some(score)) => Status::Renamed(score),
            (None, _, _) => Status::Added,
            (_, None, _) => Status::Deleted,
            (Some(o), Some(n), _) if kind_class(o.kind) != kind_class(n.kind) => {
                Status::TypeChanged
            }
            _ => Status::Modified,
        };
        let (added, deleted, hunks) = if binary {
            (0, 0, Vec::new())
        } else {
            let (a, d) = count_lines(&old_data, &new_data);
            let hunks = if options.hunks {
                // The old side's pattern, else the new side's (git's `diff_funcname_pattern`).
                let funcname = match drivers.funcname(&old_driver)? {
                    Some(funcname) => Some(funcname),
                    None => drivers.funcname(&new_driver)?,
                };
                hunks(&old_data, &new_data, options.context, funcname.as_deref())
            } else {
                Vec::new()
            };
            (a, d, hunks)
        };
        out.push(FileDiff {
            path,
            old_path,
            status,
            old,
            new,
            added,
            deleted,
            binary,
            sizes: (old_data.len() as u64, new_data.len() as u64),
            hunks,
        });
    }
    Ok(out)
}

/// Files, symlinks and submodules are different kinds of thing; executable or not is a mode.
fn kind_class(kind: EntryKind) -> u8 {
    match kind {
        EntryKind::Blob | EntryKind::BlobExecutable => 0,
        EntryKind::Link => 1,
        EntryKind::Commit => 2,
        EntryKind::Tree => 3,
    }
}

type Pair = (
    Option<BString>,
    BString,
    Option<Side>,
    Option<Side>,
    Option<u8>,
);

/// Pair deleted and added files whose content is similar enough, as git's `diffcore-rename`
/// does: identical blobs first, then the best-scoring pairs at or above `min` percent.
fn detect_renames(repo: &gix::Repository, pairs: Vec<Pair>, min: u8) -> Result<Vec<Pair>> {
    let is_file = |s: Option<Side>| s.is_some_and(|s| kind_class(s.kind) == 0);
    let (sources, rest): (Vec<Pair>, Vec<Pair>) = pairs
        .into_iter()
        .partition(|p| p.3.is_none() && is_file(p.2));
    let (mut dests, others): (Vec<Pair>, Vec<Pair>) = rest
        .into_iter()
        .partition(|p| p.2.is_none() && is_file(p.3));
    let mut used = vec![false; sources.len()];
    let mut assigned: Vec<Option<(usize, u8)>> = vec![None; dests.len()];
    // Exact renames.
    for (d, dest) in dests.iter().enumerate() {
        let id = dest.3.map(|s| s.id);
        if let Some(s) = (0..sources.len()).find(|&s| !used[s] && sources[s].2.map(|x| x.id) == id)
        {
            used[s] = true;
            assigned[d] = Some((s, 100));
        }
    }
    // Inexact ones, best score first.
    let min_score = u64::from(min) * MAX_SCORE / 100;
    let mut source_data = Vec::with_capacity(sources.len());
    for source in &sources {
        source_data.push(content(repo, source.2)?);
    }
    let mut candidates = Vec::new();
    for (d, dest) in dests.iter().enumerate() {
        if assigned[d].is_some() {
            continue;
        }
        let dest_data = content(repo, dest.3)?;
        for (s, src) in source_data.iter().enumerate() {
            if used[s] {
                continue;
            }
            let score = similarity_score(src, &dest_data, min_score);
            if score >= min_score {
                let same_name = basename(&sources[s].1) == basename(&dest.1);
                candidates.push((score, same_name, d, s));
            }
        }
    }
    candidates.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    for (score, _, d, s) in candidates {
        if used[s] || assigned[d].is_some() {
            continue;
        }
        used[s] = true;
        assigned[d] = Some((s, (score * 100 / MAX_SCORE) as u8));
    }
    let mut out = others;
    for (d, dest) in dests.iter_mut().enumerate() {
        if let Some((s, score)) = assigned[d] {
            dest.0 = Some(sources[s].1.clone());
            dest.2 = sources[s].2;
            dest.4 = Some(score);
        }
    }
    out.extend(dests);
    out.extend(
        sources
            .into_iter()
            .enumerate()
            .filter(|(s, _)| !used[*s])
            .map(|(_, p)| p),
    );
    out.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(out)
}

fn basename(path: &BString) -> &[u8] {
    path.rsplit(|b| *b == b'/').next().unwrap_or(path)
}

/// git's scale for similarity scores.
const MAX_SCORE: u64 = 60000;

/// git's `estimate_similarity`: bytes of `old` found again in `new`, counted in line-sized
/// spans by `diffcore-delta`'s hash, over the larger size; on git's 0..60000 scale.
fn similarity_score(old: &[u8], new: &[u8], min_score: u64) -> u64 {
    let (max, min) = (
        old.len().max(new.len()) as u64,
        old.len().min(new.len()) as u64,
    );
    if new.is_empty() || max * (MAX_SCORE - min_score) < (max - min) * MAX_SCORE {
        return 0;
    }
    let text = !is_binary(old) && !is_binary(new);
    let src = span_hashes(old, text);
    let dst = span_hashes(new, text);
    let mut copied = 0u64;
    for (hash, &count) in &src {
        copied += count.min(dst.get(hash).copied().unwrap_or(0));
    }
    copied * MAX_SCORE / max
}

/// `hash_chars` of git's `diffcore-delta.c`: spans end at a newline or after 64 bytes.
fn span_hashes(data: &[u8], text: bool) -> std::collections::HashMap<u32, u64> {
    const HASHBASE: u32 = 107_927;
    let mut out = std::collections::HashMap::new();
    let (mut accum1, mut accum2, mut n) = (0u32, 0u32, 0u64);
    let mut i = 0;
    while i < data.len() {
        let c = data[i];
        i += 1;
        if text && c == b'\r' && data.get(i) == Some(&b'\n') {
            continue;
        }
        let old1 = accum1;
        accum1 = (accum1 << 7) ^ (accum2 >> 25);
        accum2 = (accum2 << 7) ^ (old1 >> 25);
        accum1 = accum1.wrapping_add(u32::from(c));
        n += 1;
        if n < 64 && c != b'\n' {
            continue;
        }
        let hash = accum1.wrapping_add(accum2.wrapping_mul(0x61)) % HASHBASE;
        *out.entry(hash).or_insert(0) += n;
        (accum1, accum2, n) = (0, 0, 0);
    }
    if n > 0 {
        let hash = accum1.wrapping_add(accum2.wrapping_mul(0x61)) % HASHBASE;
        *out.entry(hash).or_insert(0) += n;
    }
    out
}

/// Unified-diff hunks between two texts, with `context` lines around each change, each headed
/// by its function line from `funcname` (git's default rule without one).
pub(crate) fn hunks(
    old: &[u8],
    new: &[u8],
    context: usize,
    funcname: Option<&FuncName>,
) -> Vec<Hunk> {
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_lines(old, new);
    let old_lines = diff.old_slices();
    let new_lines = diff.new_slices();
    let mut out = Vec::new();
    let mut functions = Functions::new(funcname);
    for group in diff.grouped_ops(context) {
        let Some(first) = group.first() else {
            continue;
        };
        // Ranges from the first op's start and the ops' lengths (an op's empty range may sit
        // at a position that is not where the hunk continues).
        let old_start = first.old_range().start;
        let new_start = first.new_range().start;
        let old_range =
            old_start..old_start + group.iter().map(|op| op.old_range().len()).sum::<usize>();
        let new_range =
            new_start..new_start + group.iter().map(|op| op.new_range().len()).sum::<usize>();
        let mut lines = Vec::new();
        let mut push = |origin: char, line: &[u8]| {
            let no_newline = !line.ends_with(b"\n");
            let text = line.strip_suffix(b"\n").unwrap_or(line).to_vec();
            lines.push(Line {
                origin,
                text,
                no_newline,
            });
        };
        for op in &group {
            match *op {
                similar::DiffOp::Equal { old_index, len, .. } => {
                    for line in &old_lines[old_index..old_index + len] {
                        push(' ', line);
                    }
                }
                similar::DiffOp::Delete {
                    old_index, old_len, ..
                } => {
                    for line in &old_lines[old_index..old_index + old_len] {
                        push('-', line);
                    }
                }
                similar::DiffOp::Insert {
                    new_index, new_len, ..
                } => {
                    for line in &new_lines[new_index..new_index + new_len] {
                        push('+', line);
                    }
                }
                similar::DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => {
                    for line in &old_lines[old_index..old_index + old_len] {
                        push('-', line);
                    }
                    for line in &new_lines[new_index..new_index + new_len] {
                        push('+', line);
                    }
                }
            }
        }
        let function = functions.above(old_lines, old_range.start);
        let mut hunk = Hunk {
            old_start: if old_range.is_empty() {
                old_range.start
            } else {
                old_range.start + 1
            },
            old_len: old_range.len(),
            new_start: if new_range.is_empty() {
                new_range.start
            } else {
                new_range.start + 1
            },
            new_len: new_range.len(),
            function: None,
            lines,
        };
        hunk.function = function.map(|text| printed_function(&hunk, &text));
        out.push(hunk);
    }
    out
}

/// The function text as `git diff` prints it after the hunk's `@@ … @@ `: xdiff writes the
/// header into a 128-byte buffer (`xdl_format_hunk_hdr`), and diff.c cuts the line at its
/// first byte that does not start a valid UTF-8 character (`sane_truncate_line`), so that a
/// function line in another encoding, or one cut inside a character, shows only up to there
/// (possibly nothing, after the space).
fn printed_function(hunk: &Hunk, text: &[u8]) -> Vec<u8> {
    let digits = |n: usize| n.to_string().len();
    let range =
        |start: usize, len: usize| digits(start) + if len == 1 { 0 } else { 1 + digits(len) };
    // "@@ -" old " +" new " @@ ", and room for the newline.
    let header =
        4 + range(hunk.old_start, hunk.old_len) + 2 + range(hunk.new_start, hunk.new_len) + 4;
    let text = &text[..text.len().min(128 - header - 1)];
    text[..utf8_prefix(text)].to_vec()
}

/// How many bytes of `text` are whole, valid UTF-8 characters before the first that is not,
/// by git's rules (`pick_one_utf8_char`: no overlong forms, surrogates, U+FFFE, U+FFFF or code
/// points past U+10FFFF).
fn utf8_prefix(text: &[u8]) -> usize {
    let mut i = 0;
    while i < text.len() {
        let s = &text[i..];
        let cont = |k: usize| s.get(k).is_some_and(|b| b & 0xc0 == 0x80);
        let len = match s[0] {
            0x00..=0x7f => 1,
            0xc2..=0xdf if cont(1) => 2,
            0xe0..=0xef
                if cont(1)
                    && cont(2)
                    && !(s[0] == 0xe0 && s[1] & 0xe0 == 0x80)
                    && !(s[0] == 0xed && s[1] & 0xe0 == 0xa0)
                    && !(s[0] == 0xef && s[1] == 0xbf && s[2] & 0xfe == 0xbe) =>
            {
                3
            }
            0xf0..=0xf4
                if cont(1)
                    && cont(2)
                    && cont(3)
                    && !(s[0] == 0xf0 && s[1] & 0xf0 == 0x80)
                    && !(s[0] == 0xf4 && s[1] > 0x8f) =>
            {
                4
            }
            _ => return i,
        };
        i += len;
    }
    i
}

/// The function lines above successive hunks, searched as xdiff does: each hunk looks back
/// only as far as the previous hunk's start, and keeps that hunk's function when it finds none
/// in between, so every line is matched at most once.
struct Functions<'a> {
    funcname: Option<&'a FuncName>,
    /// Lines before this one were searched already.
    searched: usize,
    /// What the search found: the text of the function line (empty: show none).
    found: Option<Vec<u8>>,
}

impl<'a> Functions<'a> {
    fn new(funcname: Option<&'a FuncName>) -> Self {
        Functions {
            funcname,
            searched: 0,
            found: None,
        }
    }

    /// The function line for a hunk whose old side starts at line `start` (0-based).
    fn above(&mut self, lines: &[&[u8]], start: usize) -> Option<Vec<u8>> {
        let from = self.searched.min(start);
        let hit = lines[from..start]
            .iter()
            .rev()
            .find_map(|line| match self.funcname {
                Some(funcname) => funcname.function(line),
                None => crate::userdiff::default_function(line),
            });
        if let Some(text) = hit {
            self.found = Some(text.to_vec());
        }
        self.searched = start;
        self.found.clone().filter(|text| !text.is_empty())
    }
}

#[cfg(test)]
mod hunk_tests {
    use super::*;

    fn text(seed: &mut u64) -> Vec<u8> {
        let words: [&[u8]; 6] = [b"alpha\n", b"beta\n", b"}\n", b"\n", b"gamma\n", b"delta\n"];
        let mut out = Vec::new();
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let n = (*seed >> 33) % 20;
        for _ in 0..n {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            out.extend_from_slice(words[((*seed >> 33) % 6) as usize]);
        }
        out
    }

    #[test]
    fn function_texts_stop_where_utf8_does_as_git_prints_them() {
        assert_eq!(utf8_prefix("plain é ü 𝄞".as_bytes()), "plain é ü 𝄞".len());
        assert_eq!(utf8_prefix(b"caf\xe9 latin-1"), 3, "a Latin-1 byte");
        assert_eq!(
            utf8_prefix("t\u{1ea3}".as_bytes()[..2].as_ref()),
            1,
            "cut in a character"
        );
        assert_eq!(utf8_prefix(b"a\xc0\x80"), 1, "overlong");
        assert_eq!(utf8_prefix(b"a\xed\xa0\x80"), 1, "a surrogate");
        assert_eq!(utf8_prefix(b"a\xef\xbf\xbf"), 1, "U+FFFF");
        assert_eq!(utf8_prefix(b"a\xf4\x90\x80\x80"), 1, "past U+10FFFF");
        assert_eq!(utf8_prefix(b"nul\0ok"), 6);
        let hunk = |start: usize| Hunk {
            old_start: start,
            old_len: start,
            new_start: start,
            new_len: start,
            function: None,
            lines: Vec::new(),
        };
        let long = [b'x'; 80];
        assert_eq!(printed_function(&hunk(12), &long).len(), 80);
        // "@@ -1234567890,1234567890 +1234567890,1234567890 @@ " leaves 75 bytes.
        assert_eq!(printed_function(&hunk(1_234_567_890), &long).len(), 75);
    }

    #[test]
    fn hunk_headers_count_their_lines() {
        let mut seed = 7u64;
        for _ in 0..3000 {
            let (a, b) = (text(&mut seed), text(&mut seed));
            for hunk in hunks(&a, &b, 3, None) {
                let old = hunk.lines.iter().filter(|l| l.origin != '+').count();
                let new = hunk.lines.iter().filter(|l| l.origin != '-').count();
                assert_eq!(
                    (old, new),
                    (hunk.old_len, hunk.new_len),
                    "{:?} -> {:?}",
                    String::from_utf8_lossy(&a),
                    String::from_utf8_lossy(&b)
                );
            }
        }
    }
}
