//! Line statistics between trees, as `git diff --numstat` counts them.

use gix::ObjectId;
use gix::bstr::BString;
use gix::objs::tree::EntryKind;

use crate::error::{Context, Result};
use crate::treediff::{FileChange, Side};

/// Lines added and removed in one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStat {
    /// The path.
    pub path: BString,
    /// The change it summarises.
    pub change: FileChange,
    /// Lines added (0 for binary files).
    pub added: u64,
    /// Lines removed (0 for binary files).
    pub deleted: u64,
    /// Sizes in bytes (old, new) when either side is binary.
    pub binary: Option<(u64, u64)>,
}

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

/// Count added and removed lines for each change.
pub fn numstat(repo: &gix::Repository, changes: &[FileChange]) -> Result<Vec<FileStat>> {
    changes
        .iter()
        .map(|change| {
            let old = content(repo, change.old)?;
            let new = content(repo, change.new)?;
            let (added, deleted, binary) = if is_binary(&old) || is_binary(&new) {
                (0, 0, Some((old.len() as u64, new.len() as u64)))
            } else {
                let (a, d) = count_lines(&old, &new);
                (a, d, None)
            };
            Ok(FileStat {
                path: change.path.clone(),
                change: change.clone(),
                added,
                deleted,
                binary,
            })
        })
        .collect()
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
