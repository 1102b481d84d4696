//! The notes of every checkpoint as one file, for the commands that read them all (`list`,
//! `show`, naming): a cache keyed by the notes commit.
//!
//! Reading 500 notes from their tree costs an inflate per note blob (about half of what a
//! `list` costs once the objects are packed), while the notes change only when a checkpoint is
//! saved, pinned, dropped or pruned, and then the notes commit changes too. So the notes read
//! for one notes commit are kept in `checkpoint-notes-cache` in the common git directory: the
//! notes commit's id, then each commit looked up and its note (or that it has none). The file is
//! used only while `refs/notes/checkpoints` still points at that notes commit, is rewritten
//! (atomically) by the next reader after a change, and is safe to delete at any time.
//!
//! Format: `git-checkpoint notes cache 1 <notes commit hex>\n`, then per commit
//! `<commit hex> <length>\n<note bytes>\n`, or `<commit hex> -\n` for a commit without a note.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use gix::ObjectId;

/// The file's name in the common git directory.
pub const FILE: &str = "checkpoint-notes-cache";
const HEADER: &str = "git-checkpoint notes cache 1 ";
/// Not worth keeping beyond this: the notes of thousands of checkpoints.
const MAX_BYTES: usize = 16 << 20;

/// The notes of one notes commit, as far as they were looked up.
#[derive(Debug, Default)]
pub struct NoteCache {
    tip: Option<ObjectId>,
    notes: HashMap<ObjectId, Option<Vec<u8>>>,
    /// Whether lookups added notes the file does not hold.
    added: bool,
}

fn path(repo: &gix::Repository) -> PathBuf {
    repo.common_dir().join(FILE)
}

impl NoteCache {
    /// The cache of the notes commit `tip`: what the file holds if it was written for `tip`,
    /// else nothing yet.
    pub fn load(repo: &gix::Repository, tip: ObjectId) -> NoteCache {
        let mut cache = NoteCache {
            tip: Some(tip),
            ..NoteCache::default()
        };
        if let Ok(bytes) = std::fs::read(path(repo))
            && let Some(notes) = parse(&bytes, tip)
        {
            cache.notes = notes;
        }
        cache
    }

    /// The note of `commit` (`Some(None)`: it has none), if the cache knows.
    pub fn get(&self, commit: &ObjectId) -> Option<Option<&[u8]>> {
        self.notes.get(commit).map(|n| n.as_deref())
    }

    /// Remember what a lookup in the notes tree found.
    pub fn add(&mut self, commit: ObjectId, note: Option<&[u8]>) {
        if self.tip.is_some() {
            self.notes.insert(commit, note.map(<[u8]>::to_vec));
            self.added = true;
        }
    }

    /// Write the file when lookups added to it; a failure only means no cache next time.
    pub fn store(&mut self, repo: &gix::Repository) {
        let Some(tip) = self.tip.filter(|_| self.added) else {
            return;
        };
        self.added = false;
        let mut out = Vec::new();
        out.extend_from_slice(format!("{HEADER}{tip}\n").as_bytes());
        let mut commits: Vec<&ObjectId> = self.notes.keys().collect();
        commits.sort();
        for commit in commits {
            match &self.notes[commit] {
                Some(note) => {
                    out.extend_from_slice(format!("{commit} {}\n", note.len()).as_bytes());
                    out.extend_from_slice(note);
                    out.push(b'\n');
                }
                None => out.extend_from_slice(format!("{commit} -\n").as_bytes()),
            }
            if out.len() > MAX_BYTES {
                return;
            }
        }
        let file = path(repo);
        let tmp = file.with_file_name(format!("{FILE}.{:016x}.tmp", rand::random::<u64>()));
        let written = std::fs::File::create_new(&tmp)
            .and_then(|mut f| f.write_all(&out))
            .and_then(|()| std::fs::rename(&tmp, &file));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// The notes the file `bytes` holds, if it was written for the notes commit `tip` and reads
/// whole.
fn parse(bytes: &[u8], tip: ObjectId) -> Option<HashMap<ObjectId, Option<Vec<u8>>>> {
    let (first, mut rest) = split_line(bytes)?;
    let hex = std::str::from_utf8(first).ok()?.strip_prefix(HEADER)?;
    if ObjectId::from_hex(hex.as_bytes()).ok()? != tip {
        return None;
    }
    let mut notes = HashMap::new();
    while !rest.is_empty() {
        let (line, after) = split_line(rest)?;
        let line = std::str::from_utf8(line).ok()?;
        let (commit, length) = line.split_once(' ')?;
        let commit = ObjectId::from_hex(commit.as_bytes()).ok()?;
        if length == "-" {
            notes.insert(commit, None);
            rest = after;
            continue;
        }
        let length: usize = length.parse().ok()?;
        let note = after.get(..length)?;
        if after.get(length) != Some(&b'\n') {
            return None;
        }
        notes.insert(commit, Some(note.to_vec()));
        rest = &after[length + 1..];
    }
    Some(notes)
}

/// The first line of `bytes` (without its newline) and what follows it.
fn split_line(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = bytes.iter().position(|&b| b == b'\n')?;
    Some((&bytes[..end], &bytes[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_written_reads_back_and_nothing_else_does() {
        let tip = ObjectId::from_hex(b"1111111111111111111111111111111111111111").unwrap_or(ObjectId::null(gix::hash::Kind::Sha1));
        let a = ObjectId::from_hex(b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa").unwrap_or(tip);
        let b = ObjectId::from_hex(b"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb").unwrap_or(tip);
        let note = b"{\"schema\":1}\nwith a newline\n";
        let text = [
            format!("{HEADER}{tip}\n{a} {}\n", note.len()).into_bytes(),
            note.to_vec(),
            format!("\n{b} -\n").into_bytes(),
        ]
        .concat();
        let notes = parse(&text, tip).unwrap_or_default();
        assert_eq!(notes.get(&a), Some(&Some(note.to_vec())));
        assert_eq!(notes.get(&b), Some(&None));
        // Another notes commit, a cut file, a wrong length: nothing.
        assert!(parse(&text, a).is_none());
        assert!(parse(&text[..text.len() - 3], tip).is_none());
        let wrong = String::from_utf8_lossy(&text).replace(&format!(" {}\n", note.len()), " 5\n");
        assert!(parse(wrong.as_bytes(), tip).is_none());
    }
}
