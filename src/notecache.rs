//! A private memo of the checkpoints' notes, so that listing 500 checkpoints does not inflate
//! 500 note blobs (and their delta chains, once `git gc` has packed them) every time.
//!
//! It lives in the repository's common git directory as `checkpoint-notes-cache` and is only
//! ever a shortcut: deleting it is harmless. Only the commands that write notes write it, so
//! that reading commands write nothing:
//!
//! - a save, and a pin or unpin, **append** one segment: the note it wrote (checkpoint commit,
//!   note blob, the blob's bytes), then the notes commit it moved `refs/notes/checkpoints`
//!   from and the one it moved it to;
//! - a drop or prune rewrites the file without the notes it removed, when the memo was up to
//!   date with the notes commit it started from.
//!
//! A reader follows the segments in order. A segment that does not start from the notes commit
//! the previous one ended at (another writer raced, or moved the notes ref without writing
//! here, as fetch does) starts the memo afresh: what came before is no longer known to be true
//! of the notes commit reached. The memo then answers for the notes commit its last segment
//! reached, and only while `refs/notes/checkpoints` still points there; a checkpoint it does
//! not know about is read from the notes tree as before. Blob bytes stay usable whatever the
//! notes commit, since a blob's id names its bytes. A damaged tail is ignored from the first
//! record that cannot be read.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::hashtable::HashMap;

use crate::format::MAX_NOTE_BYTES;

/// File name in the common git directory.
const FILE: &str = "checkpoint-notes-cache";
/// First line of the file.
const MAGIC: &[u8] = b"git-checkpoint notes cache 1\n";
/// Past this size the next save starts a new memo instead of appending (checkpoints older than
/// it are then read from the notes tree again), so that the file stays bounded whatever
/// pins and prunes left in it.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// The memo as read.
#[derive(Default)]
pub struct NoteCache {
    /// The file's text (the bytes of blobs are read from it in place).
    text: Vec<u8>,
    /// The notes commit the memo's `commits` are true of.
    tip: Option<ObjectId>,
    /// Checkpoint commit → its note blob and where the blob's bytes are in `text`.
    commits: HashMap<ObjectId, (ObjectId, Range<usize>)>,
    /// Every note blob the memo holds, with where its bytes are in `text`.
    notes: Vec<(ObjectId, Range<usize>)>,
    /// `notes` by blob, made on first need (a reader the memo answers whole never needs it).
    blobs: std::cell::OnceCell<HashMap<ObjectId, Range<usize>>>,
}

impl NoteCache {
    /// The memo of `repo`, empty when there is none or it cannot be read.
    pub fn open(repo: &gix::Repository) -> NoteCache {
        let text = std::fs::read(path(repo)).unwrap_or_default();
        parse(text, repo.object_hash())
    }

    /// The notes commit the memo is true of.
    pub fn tip(&self) -> Option<ObjectId> {
        self.tip
    }

    /// The note blob of `commit` and its bytes, if the memo knows them for the notes commit
    /// `tip`; `None` when it does not know (not that there is no note).
    pub fn note(&self, tip: ObjectId, commit: &ObjectId) -> Option<(ObjectId, &[u8])> {
        if self.tip != Some(tip) {
            return None;
        }
        let (blob, range) = self.commits.get(commit)?;
        Some((*blob, &self.text[range.clone()]))
    }

    /// The bytes of the blob `blob`, if the memo holds them.
    pub fn blob(&self, blob: &ObjectId) -> Option<&[u8]> {
        let blobs = self
            .blobs
            .get_or_init(|| self.notes.iter().cloned().collect());
        blobs.get(blob).map(|range| &self.text[range.clone()])
    }
}

/// After the notes ref moved from `from` (`None`: there were no notes) to `to` by writing the
/// notes `written` (checkpoint commit, note blob, the blob's bytes): append that to the memo.
/// Never fails: the memo is only a shortcut.
pub fn append(
    repo: &gix::Repository,
    from: Option<ObjectId>,
    to: ObjectId,
    written: &[(ObjectId, ObjectId, &[u8])],
) {
    let from = from.unwrap_or_else(|| repo.object_hash().null());
    append_to(&path(repo), from, to, written, MAX_BYTES);
}

/// [`append`] to the memo at `path`, which is started anew past `max` bytes.
fn append_to(
    path: &Path,
    from: ObjectId,
    to: ObjectId,
    written: &[(ObjectId, ObjectId, &[u8])],
    max: u64,
) {
    let mut segment = Vec::new();
    for (commit, blob, bytes) in written {
        push_note(&mut segment, commit, blob, bytes);
    }
    push_tip(&mut segment, to, from);
    let Ok(mut file) = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
    else {
        return;
    };
    let Ok(size) = file.metadata().map(|m| m.len()) else {
        return;
    };
    if size > 0 && size <= max && ends_with_tip(&file, size, from) {
        // One write, so that a concurrent appender's segment cannot land inside this one.
        let _ = file.write_all(&segment);
        return;
    }
    // No memo yet, one grown past `max`, or one whose end was cut short (a save killed while
    // appending) or that another version wrote: start a new one rather than append after
    // what cannot be read.
    drop(file);
    replace(path, [MAGIC, &segment].concat());
}

/// Whether the memo `file` of `size` bytes ends with a whole tip line: one that ends a segment,
/// so that a segment appended after it can be read.
fn ends_with_tip(mut file: &std::fs::File, size: u64, some_id: ObjectId) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let mut line = Vec::new();
    push_tip(&mut line, some_id, some_id);
    let Some(start) = size.checked_sub(line.len() as u64 + 1) else {
        return false;
    };
    let mut tail = vec![0; line.len() + 1];
    // (A file opened to append is written at its end wherever it was read.)
    if file.seek(SeekFrom::Start(start)).is_err() || file.read_exact(&mut tail).is_err() {
        return false;
    }
    let hex = some_id.kind().len_in_hex();
    let is_hex = |b: &[u8]| b.iter().all(u8::is_ascii_hexdigit);
    tail[0] == b'\n'
        && tail[1..3] == *b"t "
        && is_hex(&tail[3..3 + hex])
        && tail[3 + hex] == b' '
        && is_hex(&tail[4 + hex..4 + 2 * hex])
        && tail[4 + 2 * hex] == b'\n'
}

/// Replace the memo at `path` by `text`, atomically.
fn replace(path: &Path, text: Vec<u8>) {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, text).is_err() || std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// After the notes ref moved from `from` to `to` by removing the notes of `removed`: rewrite
/// the memo without them, if it was up to date with `from` (otherwise it no longer answers
/// for the notes ref anyway). Never fails.
pub fn forget(repo: &gix::Repository, from: ObjectId, to: ObjectId, removed: &[ObjectId]) {
    let memo = NoteCache::open(repo);
    if memo.tip != Some(from) {
        return;
    }
    let removed: gix::hashtable::HashSet<ObjectId> = removed.iter().copied().collect();
    let mut out = MAGIC.to_vec();
    for (commit, (blob, range)) in &memo.commits {
        if !removed.contains(commit) {
            push_note(&mut out, commit, blob, &memo.text[range.clone()]);
        }
    }
    push_tip(&mut out, to, from);
    replace(&path(repo), out);
}

fn path(repo: &gix::Repository) -> PathBuf {
    Path::new(repo.common_dir()).join(FILE)
}

fn push_note(out: &mut Vec<u8>, commit: &ObjectId, blob: &ObjectId, bytes: &[u8]) {
    out.extend_from_slice(b"b ");
    let _ = commit.write_hex_to(&mut *out);
    out.push(b' ');
    let _ = blob.write_hex_to(&mut *out);
    out.push(b' ');
    out.extend_from_slice(bytes.len().to_string().as_bytes());
    out.push(b'\n');
    out.extend_from_slice(bytes);
    out.push(b'\n');
}

fn push_tip(out: &mut Vec<u8>, to: ObjectId, from: ObjectId) {
    out.extend_from_slice(b"t ");
    let _ = to.write_hex_to(&mut *out);
    out.push(b' ');
    let _ = from.write_hex_to(&mut *out);
    out.push(b'\n');
}

/// The memo in `text`, read up to its last whole segment; everything from the first record
/// that cannot be read (or names ids of another hash) on is ignored.
fn parse(text: Vec<u8>, hash: gix::hash::Kind) -> NoteCache {
    let mut memo = NoteCache::default();
    if !text.starts_with(MAGIC) {
        return memo;
    }
    // Room for as many notes as a file of this size holds (a note is some 400 bytes).
    memo.commits.reserve(text.len() / 512);
    // The segment being read: its notes, not yet known to be whole.
    let mut pending: Vec<(ObjectId, ObjectId, Range<usize>)> = Vec::new();
    let mut pos = MAGIC.len();
    let id = |hex: &[u8]| -> Option<ObjectId> {
        let id = ObjectId::from_hex(hex).ok()?;
        (id.kind() == hash).then_some(id)
    };
    while pos < text.len() {
        let Some(end) = text[pos..].find_byte(b'\n') else {
            break;
        };
        let line = &text[pos..pos + end];
        pos += end + 1;
        let mut fields = line.split(|&b| b == b' ');
        let (Some(tag), Some(first), Some(second)) = (fields.next(), fields.next(), fields.next())
        else {
            break;
        };
        let (Some(first), Some(second)) = (id(first), id(second)) else {
            break;
        };
        match (tag, fields.next(), fields.next()) {
            (b"b", Some(len), None) => {
                let Some(len) = std::str::from_utf8(len)
                    .ok()
                    .and_then(|l| l.parse::<usize>().ok())
                    .filter(|&l| l <= MAX_NOTE_BYTES)
                else {
                    break;
                };
                if text.len() < pos + len + 1 || text[pos + len] != b'\n' {
                    break;
                }
                pending.push((first, second, pos..pos + len));
                pos += len + 1;
            }
            (b"t", None, None) => {
                // A segment that does not follow on from the last starts afresh.
                if memo.tip.is_none_or(|tip| tip != second) {
                    memo.commits.clear();
                }
                for (commit, blob, range) in pending.drain(..) {
                    memo.notes.push((blob, range.clone()));
                    memo.commits.insert(commit, (blob, range));
                }
                memo.tip = Some(first);
            }
            _ => break,
        }
    }
    if memo.tip.is_some() {
        memo.text = text;
    } else {
        memo.commits.clear();
        memo.notes.clear();
    }
    memo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oid(n: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[n; 20])
    }

    fn segment(notes: &[(u8, u8, &[u8])], to: u8, from: u8) -> Vec<u8> {
        let mut out = Vec::new();
        for (commit, blob, bytes) in notes {
            push_note(&mut out, &oid(*commit), &oid(*blob), bytes);
        }
        push_tip(&mut out, oid(to), oid(from));
        out
    }

    fn read(parts: &[Vec<u8>]) -> NoteCache {
        parse(
            [&[MAGIC.to_vec()], parts].concat().concat(),
            gix::hash::Kind::Sha1,
        )
    }

    #[test]
    fn segments_that_follow_on_add_up() {
        let memo = read(&[
            segment(&[(1, 11, b"one\n")], 100, 0),
            segment(&[(2, 12, b"two")], 101, 100),
            // A pin rewrites the note of 1.
            segment(&[(1, 13, b"one, pinned")], 102, 101),
        ]);
        assert_eq!(memo.tip(), Some(oid(102)));
        assert_eq!(
            memo.note(oid(102), &oid(1)),
            Some((oid(13), &b"one, pinned"[..]))
        );
        assert_eq!(memo.note(oid(102), &oid(2)), Some((oid(12), &b"two"[..])));
        assert_eq!(memo.note(oid(102), &oid(3)), None, "never written");
        assert_eq!(memo.note(oid(101), &oid(2)), None, "another notes commit");
        assert_eq!(
            memo.blob(&oid(11)),
            Some(&b"one\n"[..]),
            "bytes outlive their note"
        );
    }

    #[test]
    fn a_segment_that_does_not_follow_on_starts_afresh() {
        // Two saves raced: the second to move the notes ref appended first.
        let memo = read(&[
            segment(&[(1, 11, b"one")], 100, 0),
            segment(&[(3, 13, b"three")], 102, 101),
            segment(&[(2, 12, b"two")], 101, 100),
        ]);
        assert_eq!(memo.tip(), Some(oid(101)));
        assert_eq!(memo.note(oid(101), &oid(2)), Some((oid(12), &b"two"[..])));
        assert_eq!(memo.note(oid(101), &oid(1)), None, "before the break");
        assert_eq!(memo.note(oid(101), &oid(3)), None, "not true of 101");
        assert_eq!(memo.blob(&oid(13)), Some(&b"three"[..]));
    }

    #[test]
    fn a_damaged_tail_is_ignored_from_where_it_starts() {
        let whole = [
            segment(&[(1, 11, b"one")], 100, 0),
            segment(&[(2, 12, b"two")], 101, 100),
        ];
        let second = whole[1].clone();
        let cuts = [
            second[..second.len() - 1].to_vec(), // the tip line cut short
            second[..10].to_vec(),               // inside a note line
            segment(&[(2, 12, b"two")], 101, 100)
                .iter()
                .map(|&b| if b == b'3' { b'x' } else { b })
                .collect(), // a length that is not a number
            second.replace_first(b" 3\n", b" 9\n"), // a length past the bytes
            [b"q".to_vec(), second[1..].to_vec()].concat(), // an unknown record
            [MAGIC.to_vec(), second.clone()].concat(), // a second header
        ];
        for cut in cuts {
            let memo = read(&[whole[0].clone(), cut.clone()]);
            assert_eq!(
                memo.tip(),
                Some(oid(100)),
                "{}",
                String::from_utf8_lossy(&cut)
            );
            assert_eq!(memo.note(oid(100), &oid(1)), Some((oid(11), &b"one"[..])));
            assert_eq!(memo.blob(&oid(12)), None);
        }
        assert_eq!(read(&whole).tip(), Some(oid(101)));
        let mut no_magic = whole.concat();
        no_magic.insert(0, b'x');
        assert!(parse(no_magic, gix::hash::Kind::Sha1).tip().is_none());
        assert!(
            parse(
                [MAGIC.to_vec(), whole.concat()].concat(),
                gix::hash::Kind::Sha256
            )
            .tip()
            .is_none(),
            "ids of another hash"
        );
    }

    #[test]
    fn appends_follow_on_and_a_memo_too_large_or_cut_short_starts_anew() {
        let Ok(dir) = tempfile::tempdir() else {
            return;
        };
        let path = dir.path().join(FILE);
        let read_back = || {
            parse(
                std::fs::read(&path).unwrap_or_default(),
                gix::hash::Kind::Sha1,
            )
        };
        append_to(
            &path,
            oid(0),
            oid(100),
            &[(oid(1), oid(11), b"one")],
            1 << 20,
        );
        append_to(
            &path,
            oid(100),
            oid(101),
            &[(oid(2), oid(12), b"two")],
            1 << 20,
        );
        let memo = read_back();
        assert_eq!(memo.note(oid(101), &oid(1)), Some((oid(11), &b"one"[..])));
        assert_eq!(memo.note(oid(101), &oid(2)), Some((oid(12), &b"two"[..])));
        // Past the limit: a new memo with the last segment only.
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        append_to(
            &path,
            oid(101),
            oid(102),
            &[(oid(3), oid(13), b"3")],
            size - 1,
        );
        let memo = read_back();
        assert_eq!(memo.note(oid(102), &oid(3)), Some((oid(13), &b"3"[..])));
        assert_eq!(memo.note(oid(102), &oid(2)), None);
        assert_eq!(memo.blob(&oid(12)), None);
        // Cut short: the same.
        let text = std::fs::read(&path).unwrap_or_default();
        let _ = std::fs::write(&path, &text[..text.len() - 2]);
        append_to(
            &path,
            oid(102),
            oid(103),
            &[(oid(4), oid(14), b"4")],
            1 << 20,
        );
        let memo = read_back();
        assert_eq!(memo.note(oid(103), &oid(4)), Some((oid(14), &b"4"[..])));
        assert_eq!(memo.blob(&oid(13)), None);
        assert_eq!(std::fs::read(&path).unwrap_or_default().len(), text.len());
    }

    trait ReplaceFirst {
        fn replace_first(&self, from: &[u8], to: &[u8]) -> Vec<u8>;
    }

    impl ReplaceFirst for Vec<u8> {
        fn replace_first(&self, from: &[u8], to: &[u8]) -> Vec<u8> {
            use gix::bstr::ByteSlice;
            self.as_slice().replacen(from, to, 1)
        }
    }
}
