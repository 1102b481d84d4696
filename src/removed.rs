//! What `drop` and `prune` removed: a private log, `checkpoint-removed` in the common git
//! directory (one JSON object a line, the newest last, the oldest forgotten past
//! [`KEEP`]), so that a name or id that no longer resolves can say that its checkpoint was
//! removed, by what, and how to get it back while `git gc` has not collected its commit.
//! Safe to delete: only that explanation is lost.

use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::store::Checkpoint;

/// The file's name in the common git directory.
const FILE: &str = "checkpoint-removed";

/// How many removals are remembered: the file is cut back to this many once it holds twice
/// as many.
const KEEP: usize = 1000;

/// One removed checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Removal {
    /// Its id.
    pub id: String,
    /// Its name, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its commit, which stays in the repository until `git gc` collects it.
    pub commit: String,
    /// What removed it: `drop`, or the setting or `prune` flag that pruned it
    /// (`checkpoint.keep`, `checkpoint.auto.keep`, `checkpoint.maxAge`, `prune --keep`, …).
    pub by: String,
    /// When (RFC 3339, UTC).
    pub at: String,
}

/// Remember that `removed` (each with what removed it) are gone. Never fails: a log that
/// cannot be written only loses the explanation.
pub fn remember<'a>(
    repo: &gix::Repository,
    removed: impl IntoIterator<Item = (&'a Checkpoint, &'a str)>,
) {
    let at = crate::format::rfc3339(chrono::Utc::now());
    let mut lines = Vec::new();
    for (c, by) in removed {
        let removal = Removal {
            id: c.id.clone(),
            name: c.meta.name.clone(),
            commit: c.commit.to_string(),
            by: by.to_string(),
            at: at.clone(),
        };
        if let Ok(line) = serde_json::to_string(&removal) {
            lines.push(line);
        }
    }
    if lines.is_empty() {
        return;
    }
    let path = repo.common_dir().join(FILE);
    let mut text = lines.join("\n");
    text.push('\n');
    // Appended in one write: concurrent removers do not lose each other's lines.
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(text.as_bytes()));
    if appended.is_err() {
        return;
    }
    let Ok(all) = std::fs::read_to_string(&path) else {
        return;
    };
    let count = all.lines().count();
    if count > 2 * KEEP {
        let kept: Vec<&str> = all.lines().skip(count - KEEP).collect();
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = std::fs::write(&tmp, kept.join("\n") + "\n")
            .and_then(|()| std::fs::rename(&tmp, &path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// The newest removal that `spec` names: by its name, its id, or a prefix of its id (at least
/// four characters). `None` when nothing removed is remembered under `spec`.
pub fn find(repo: &gix::Repository, spec: &str) -> Option<Removal> {
    let text = std::fs::read_to_string(repo.common_dir().join(FILE)).ok()?;
    text.lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<Removal>(line).ok())
        .find(|r| {
            r.name.as_deref() == Some(spec)
                || r.id == spec
                || (spec.len() >= 4 && r.id.starts_with(spec))
        })
}
