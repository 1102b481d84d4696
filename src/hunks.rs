//! Hunks: the pieces of one file's change that `restore --hunk` and `revert --hunk` take back
//! alone, each named by an id that depends only on what the two sides hold there.
//!
//! A file's hunks are those `diff` prints (three lines of context). A hunk holding several
//! runs of changed lines splits, as `git add -p`'s `s` splits one, into pieces: each run with
//! the unchanged lines around it up to the neighbouring runs. Hunks and pieces have ids alike.
//!
//! An id is 16 hex digits: the first 4 of the path alone (so that an id which no longer names a
//! hunk can still name its file), the other 12 of the path and the hunk's lines (context,
//! removed and added, and where a line has no newline). The same two contents give the same
//! ids whichever of them is the working tree; an id whose lines changed since names nothing.
//! Two hunks of one file with the same lines are told apart by their order.
//!
//! Taking hunks back ([`take_back`]) replaces, in the file as it is, each hunk's new side (its
//! context and added lines) by its old side: found where the hunk says, or the nearest place
//! it matches exactly, as `git apply` finds it without fuzz. A hunk that matches nowhere is
//! refused, never guessed.

use gix::bstr::{BStr, ByteSlice};

use crate::diff::{FileDiff, Hunk, Line};

/// The length of an id.
pub const ID_LEN: usize = 16;

/// One file's hunks with their ids, and the pieces of those that split.
#[derive(Debug, Clone)]
pub struct FileHunks {
    /// The hunks as `diff` shows them.
    pub hunks: Vec<Hunk>,
    /// The id of each hunk.
    pub ids: Vec<String>,
    /// For each hunk, its pieces with their ids (empty when it holds one run only: then the
    /// hunk is its own piece).
    pub pieces: Vec<Vec<(String, Hunk)>>,
}

impl FileHunks {
    /// The hunks of `file` (none for a binary file).
    pub fn of(file: &FileDiff) -> FileHunks {
        let path = file.path.as_bstr();
        let old_path = file.old_path.as_ref().map(|p| p.as_bstr());
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut id = |hunk: &Hunk| {
            let mut content = content(path, old_path, hunk);
            let nth = seen.iter().filter(|s| **s == content).count();
            seen.push(content.clone());
            if nth > 0 {
                content.extend_from_slice(format!("#{nth}").as_bytes());
            }
            format!("{}{}", &sha1_hex(path)[..4], &sha1_hex(&content)[..12])
        };
        let ids: Vec<String> = file.hunks.iter().map(&mut id).collect();
        let pieces = file
            .hunks
            .iter()
            .map(|hunk| {
                let parts = split(hunk);
                if parts.len() < 2 {
                    Vec::new()
                } else {
                    parts.into_iter().map(|p| (id(&p), p)).collect()
                }
            })
            .collect();
        FileHunks {
            hunks: file.hunks.clone(),
            ids,
            pieces,
        }
    }

    /// Where `id` is: the hunk, and the piece of it (`None`: the whole hunk).
    pub fn find(&self, id: &str) -> Option<(usize, Option<usize>)> {
        if let Some(h) = self.ids.iter().position(|i| i == id) {
            return Some((h, None));
        }
        self.pieces.iter().enumerate().find_map(|(h, pieces)| {
            pieces
                .iter()
                .position(|(i, _)| i == id)
                .map(|p| (h, Some(p)))
        })
    }
}

/// Whether `id` could be one of `path`'s: its first 4 digits are the path's.
pub fn may_be_of(id: &str, path: &BStr) -> bool {
    id.len() == ID_LEN && id.get(..4) == sha1_hex(path).get(..4)
}

/// Whether `id` is spelled as an id is.
pub fn well_formed(id: &str) -> bool {
    id.len() == ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// What a hunk's id is made of: its path (and old path) and its lines.
fn content(path: &BStr, old_path: Option<&BStr>, hunk: &Hunk) -> Vec<u8> {
    let mut data: Vec<u8> = Vec::new();
    data.extend_from_slice(path);
    data.push(0);
    if let Some(old) = old_path {
        data.extend_from_slice(old);
    }
    data.push(0);
    for line in &hunk.lines {
        data.push(line.origin as u8);
        data.extend_from_slice(&line.text);
        data.extend_from_slice(if line.no_newline { b"\\\n" } else { b"\n" });
    }
    data
}

fn sha1_hex(data: &[u8]) -> String {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, data)
        .map(|id| id.to_hex().to_string())
        .unwrap_or_default()
}

/// The runs of changed lines of `hunk`: ranges of indexes into its lines.
fn runs(hunk: &Hunk) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, line) in hunk.lines.iter().enumerate() {
        if line.origin == ' ' {
            continue;
        }
        match out.last_mut() {
            Some(run) if run.end == i => run.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// `hunk` split as `git add -p`'s `s` splits it: one piece per run of changed lines, each with
/// the context lines around it up to the neighbouring runs (shared between neighbours). A hunk
/// of one run gives itself.
pub fn split(hunk: &Hunk) -> Vec<Hunk> {
    let runs = runs(hunk);
    if runs.len() < 2 {
        return vec![hunk.clone()];
    }
    let old_first = first_index(hunk.old_start, hunk.old_len);
    let new_first = first_index(hunk.new_start, hunk.new_len);
    let mut out = Vec::with_capacity(runs.len());
    for r in 0..runs.len() {
        let from = if r == 0 { 0 } else { runs[r - 1].end };
        let to = runs.get(r + 1).map_or(hunk.lines.len(), |next| next.start);
        let lines = &hunk.lines[from..to];
        // Lines of each side before the piece.
        let before = &hunk.lines[..from];
        let old_before = before.iter().filter(|l| l.origin != '+').count();
        let new_before = before.iter().filter(|l| l.origin != '-').count();
        let old_len = lines.iter().filter(|l| l.origin != '+').count();
        let new_len = lines.iter().filter(|l| l.origin != '-').count();
        out.push(Hunk {
            old_start: start_of(old_first + old_before, old_len),
            old_len,
            new_start: start_of(new_first + new_before, new_len),
            new_len,
            function: hunk.function.clone(),
            lines: lines.to_vec(),
        });
    }
    out
}

/// The 0-based index of a hunk side's first line from its header's start and length.
fn first_index(start: usize, len: usize) -> usize {
    if len == 0 {
        start
    } else {
        start.saturating_sub(1)
    }
}

/// A header's start from the 0-based index of the side's first line.
fn start_of(index: usize, len: usize) -> usize {
    if len == 0 { index } else { index + 1 }
}

/// One hunk to take back: the hunk, and which of its runs (all, or the pieces chosen).
#[derive(Debug, Clone)]
pub struct Chosen<'a> {
    /// The hunk as `diff` shows it.
    pub hunk: &'a Hunk,
    /// For each run of changed lines of the hunk, whether to take it back.
    pub runs: Vec<bool>,
}

#[cfg(test)]
impl<'a> Chosen<'a> {
    /// Nothing of `hunk` chosen yet.
    pub fn none(hunk: &'a Hunk) -> Chosen<'a> {
        Chosen {
            hunk,
            runs: vec![false; runs(hunk).len()],
        }
    }
}

/// Why a hunk cannot be taken back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The index, in the `chosen` given to [`take_back`], of the hunk that matched nowhere.
    pub index: usize,
}

/// `current` with the chosen runs of each hunk taken back: each hunk's new side (its context
/// and added lines) found in `current`, where the hunk says or the nearest place after the
/// previous hunk where it matches exactly, and replaced by the hunk's lines with its chosen
/// runs' old lines and its other runs' new lines. Hunks are given in the file's order.
pub fn take_back(current: &[u8], chosen: &[Chosen<'_>]) -> Result<Vec<u8>, Mismatch> {
    let lines: Vec<&[u8]> = current.split_inclusive(|b| *b == b'\n').collect();
    let mut out: Vec<u8> = Vec::with_capacity(current.len());
    let mut at = 0usize;
    for (index, c) in chosen.iter().enumerate() {
        let expected: Vec<Vec<u8>> = c
            .hunk
            .lines
            .iter()
            .filter(|l| l.origin != '-')
            .map(bytes)
            .collect();
        let preferred = first_index(c.hunk.new_start, c.hunk.new_len);
        let found = if expected.is_empty() {
            // Nothing to find (the new side was empty): only an empty file is that side.
            lines.is_empty().then_some(0)
        } else {
            locate(&lines, &expected, preferred, at)
        };
        let Some(pos) = found else {
            return Err(Mismatch { index });
        };
        for line in &lines[at..pos] {
            out.extend_from_slice(line);
        }
        let runs = runs(c.hunk);
        for (i, line) in c.hunk.lines.iter().enumerate() {
            let run = runs.iter().position(|r| r.contains(&i));
            let back = run.is_some_and(|r| c.runs.get(r).copied().unwrap_or(false));
            let keep = match line.origin {
                ' ' => true,
                '-' => back,
                _ => !back,
            };
            if keep {
                out.extend_from_slice(&bytes(line));
            }
        }
        at = pos + expected.len();
    }
    for line in &lines[at..] {
        out.extend_from_slice(line);
    }
    Ok(out)
}

/// A line as the file holds it.
fn bytes(line: &Line) -> Vec<u8> {
    let mut out = line.text.clone();
    if !line.no_newline {
        out.push(b'\n');
    }
    out
}

/// Where `expected` stands in `lines` at or after `min`: at `preferred` if it does, else the
/// nearest place that matches exactly.
fn locate(lines: &[&[u8]], expected: &[Vec<u8>], preferred: usize, min: usize) -> Option<usize> {
    let last = lines.len().checked_sub(expected.len())?;
    let matches = |pos: usize| {
        pos >= min
            && pos <= last
            && expected
                .iter()
                .zip(&lines[pos..])
                .all(|(e, l)| e.as_slice() == *l)
    };
    let preferred = preferred.clamp(min, last.max(min));
    for offset in 0..=lines.len() {
        if matches(preferred + offset) {
            return Some(preferred + offset);
        }
        if offset > 0 && offset <= preferred && matches(preferred - offset) {
            return Some(preferred - offset);
        }
    }
    None
}

/// How many runs of changed lines `hunk` holds: the pieces it splits into.
pub fn run_count(hunk: &Hunk) -> usize {
    runs(hunk).len()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn diff(old: &str, new: &str) -> Vec<Hunk> {
        crate::diff::hunks(old.as_bytes(), new.as_bytes(), 3, None)
    }

    fn all(hunk: &Hunk) -> Chosen<'_> {
        Chosen {
            hunk,
            runs: vec![true; run_count(hunk)],
        }
    }

    fn numbered(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    #[test]
    fn taking_back_every_hunk_gives_the_old_side() {
        let old = numbered(30);
        let new = old
            .replace("line 2\n", "two\n")
            .replace("line 20\n", "")
            .replace("line 30\n", "line 30\nadded\n");
        let hunks = diff(&old, &new);
        assert_eq!(hunks.len(), 3);
        let chosen: Vec<Chosen> = hunks.iter().map(all).collect();
        assert_eq!(take_back(new.as_bytes(), &chosen).unwrap(), old.as_bytes());
    }

    #[test]
    fn one_hunk_taken_back_leaves_the_others() {
        let old = numbered(30);
        let new = old
            .replace("line 2\n", "two\n")
            .replace("line 20\n", "twenty\n");
        let hunks = diff(&old, &new);
        let got = take_back(new.as_bytes(), &[all(&hunks[1])]).unwrap();
        assert_eq!(got, old.replace("line 2\n", "two\n").as_bytes());
    }

    #[test]
    fn a_hunk_is_found_where_lines_moved_and_refused_where_its_lines_changed() {
        let old = numbered(30);
        let new = old.replace("line 20\n", "twenty\n");
        let hunks = diff(&old, &new);
        // Five lines inserted above: found further down.
        let moved = format!("a\nb\nc\nd\ne\n{new}");
        let got = take_back(moved.as_bytes(), &[all(&hunks[0])]).unwrap();
        assert_eq!(got, format!("a\nb\nc\nd\ne\n{old}").as_bytes());
        // Its context edited: refused.
        let edited = new.replace("line 19\n", "nineteen\n");
        assert_eq!(
            take_back(edited.as_bytes(), &[all(&hunks[0])]),
            Err(Mismatch { index: 0 })
        );
    }

    #[test]
    fn pieces_split_at_context_and_take_back_one_run() {
        let old = numbered(12);
        let new = old
            .replace("line 4\n", "four\n")
            .replace("line 8\n", "eight\n");
        let hunks = diff(&old, &new);
        assert_eq!(hunks.len(), 1, "three lines apart: one hunk");
        let pieces = split(&hunks[0]);
        assert_eq!(pieces.len(), 2);
        // Each piece is a hunk of its own that applies.
        let got = take_back(new.as_bytes(), &[all(&pieces[1])]).unwrap();
        assert_eq!(got, old.replace("line 4\n", "four\n").as_bytes());
        let mut chosen = Chosen::none(&hunks[0]);
        chosen.runs[0] = true;
        let got = take_back(new.as_bytes(), &[chosen]).unwrap();
        assert_eq!(got, old.replace("line 8\n", "eight\n").as_bytes());
        // Headers of the pieces are those of git's split.
        assert_eq!((pieces[0].old_start, pieces[0].old_len), (1, 7));
        assert_eq!((pieces[1].old_start, pieces[1].old_len), (5, 7));
    }

    #[test]
    fn ids_depend_on_content_only_and_name_their_path() {
        let file = |old: &str, new: &str, path: &str| FileDiff {
            path: path.into(),
            old_path: None,
            status: crate::diff::Status::Modified,
            old: None,
            new: None,
            added: 0,
            deleted: 0,
            binary: false,
            sizes: (0, 0),
            hunks: diff(old, new),
        };
        let old = numbered(30);
        let new = old
            .replace("line 2\n", "two\n")
            .replace("line 20\n", "twenty\n");
        let a = FileHunks::of(&file(&old, &new, "a.txt"));
        assert_eq!(a.ids, FileHunks::of(&file(&old, &new, "a.txt")).ids);
        assert_ne!(a.ids[0], a.ids[1]);
        assert!(
            a.ids
                .iter()
                .all(|id| well_formed(id) && may_be_of(id, "a.txt".into()))
        );
        assert_ne!(a.ids, FileHunks::of(&file(&old, &new, "b.txt")).ids);
        // An edit elsewhere in the file keeps the other hunk's id; an edit in it changes it.
        let elsewhere = new.replace("line 10\n", "ten\n");
        let b = FileHunks::of(&file(&old, &elsewhere, "a.txt"));
        assert!(b.ids.contains(&a.ids[0]) && b.ids.contains(&a.ids[1]));
        let inside = new.replace("line 21\n", "twenty-one\n");
        let c = FileHunks::of(&file(&old, &inside, "a.txt"));
        assert!(c.ids.contains(&a.ids[0]) && !c.ids.contains(&a.ids[1]));
        // The same lines twice in one file: two ids.
        let twice_old =
            "x\n".repeat(3) + "same\n" + &"y\n".repeat(10) + &"x\n".repeat(3) + "same\n";
        let twice_new = twice_old.replace("same\n", "other\n");
        let d = FileHunks::of(&file(&twice_old, &twice_new, "a.txt"));
        assert_eq!(d.ids.len(), 2);
        assert_ne!(d.ids[0], d.ids[1]);
    }

    #[test]
    fn a_file_without_a_final_newline_and_an_emptied_file() {
        let (old, new) = ("a\nb", "a\nc");
        let hunks = diff(old, new);
        let got = take_back(new.as_bytes(), &[all(&hunks[0])]).unwrap();
        assert_eq!(got, old.as_bytes());
        let hunks = diff("a\nb\n", "");
        let got = take_back(b"", &[all(&hunks[0])]).unwrap();
        assert_eq!(got, b"a\nb\n");
        assert!(take_back(b"other\n", &[all(&hunks[0])]).is_err());
    }
}
