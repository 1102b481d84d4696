//! What checkpoints cost on disk: the objects only they hold, beyond branches and tags.
//!
//! The objects a checkpoint holds are its commit, its tree and everything below it, and its
//! index commit and tree. Those that a branch, a tag, `HEAD` or the commit a checkpoint was
//! taken on also hold cost nothing extra: `git gc` would keep them anyway. The rest is what
//! the checkpoints cost, and what `git gc` frees once they are dropped.
//!
//! Each object is counted once, for the *oldest* checkpoint that holds it (the one that added
//! it to the store); so the figure per checkpoint is what it added, and per kind what the
//! checkpoints of that kind added. Sizes are the objects' sizes (their content, as
//! `git cat-file -s` gives them), not the compressed bytes a pack gives them.
//!
//! Other refs are compared by their tips' trees, not their whole history: an object that only
//! older history shares with a checkpoint is counted as the checkpoint's (an overestimate of
//! what dropping it frees, never an underestimate).

use std::collections::{BTreeMap, HashSet};

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::error::{Context, Result};
use crate::format::{NOTES_REF, REF_PREFIX, STAGING_PREFIX};
use crate::refdb;
use crate::store::{self, Checkpoint};

/// Objects and bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Amount {
    /// Number of objects.
    pub objects: u64,
    /// Their total size in bytes.
    pub bytes: u64,
}

impl Amount {
    fn add(&mut self, bytes: u64) {
        self.objects += 1;
        self.bytes += bytes;
    }
}

/// What one checkpoint added to the store.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Added {
    /// The checkpoint's id.
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// The objects it added: held by no older checkpoint, no branch or tag.
    pub added: Amount,
}

/// What the checkpoints cost on disk (see the [module documentation](self)).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Usage {
    /// How many checkpoints there are.
    pub checkpoints: usize,
    /// Everything only checkpoints hold (their notes included).
    pub total: Amount,
    /// The notes of the checkpoints (`refs/notes/checkpoints`).
    pub notes: Amount,
    /// What the checkpoints of each kind added.
    pub by_kind: BTreeMap<String, Amount>,
    /// What each checkpoint added, oldest first.
    pub by_checkpoint: Vec<Added>,
}

impl Usage {
    /// The checkpoints that added the most, heaviest first, at most `n`.
    pub fn heaviest(&self, n: usize) -> Vec<&Added> {
        let mut out: Vec<&Added> = self.by_checkpoint.iter().collect();
        out.sort_by(|a, b| b.added.bytes.cmp(&a.added.bytes).then(b.id.cmp(&a.id)));
        out.truncate(n);
        out
    }
}

/// Walks objects once each, remembering what was seen.
struct Walker<'r> {
    repo: &'r gix::Repository,
    seen: HashSet<ObjectId>,
}

impl Walker<'_> {
    /// Mark everything below `tree` as seen, counting what was new into `amount`.
    fn tree(&mut self, tree: ObjectId, amount: &mut Amount) -> Result<()> {
        if !self.seen.insert(tree) {
            return Ok(());
        }
        let data = self
            .repo
            .find_tree(tree)
            .context(|| format!("cannot read tree {tree}"))?;
        amount.add(data.data.len() as u64);
        let entries: Vec<(EntryKind, ObjectId)> = data
            .decode()
            .context(|| format!("cannot read tree {tree}"))?
            .entries
            .iter()
            .map(|e| (e.mode.kind(), e.oid.to_owned()))
            .collect();
        for (kind, id) in entries {
            match kind {
                EntryKind::Tree => self.tree(id, amount)?,
                // A submodule's commit lives in the submodule's repository.
                EntryKind::Commit => {}
                _ => self.object(id, amount)?,
            }
        }
        Ok(())
    }

    /// Mark the blob (or commit) `id` as seen, counting it into `amount` if it was new. A
    /// missing object (a shallow or partial clone) costs nothing here.
    fn object(&mut self, id: ObjectId, amount: &mut Amount) -> Result<()> {
        if self.seen.insert(id)
            && let Ok(header) = self.repo.find_header(id)
        {
            amount.add(header.size());
        }
        Ok(())
    }

    /// A commit: itself and its tree (not its parents).
    fn commit(&mut self, commit: ObjectId, amount: &mut Amount) -> Result<()> {
        if self.seen.contains(&commit) {
            return Ok(());
        }
        self.object(commit, amount)?;
        let tree = store::commit_tree(self.repo, commit)?;
        self.tree(tree, amount)
    }
}

/// The commit `id` is, or the one a tag (of a tag …) points to; `None` for anything else, or
/// an object that is missing.
fn peeled_commit(repo: &gix::Repository, id: ObjectId) -> Option<ObjectId> {
    match repo.find_header(id).ok()?.kind() {
        gix::object::Kind::Commit => Some(id),
        gix::object::Kind::Tag => {
            let object = repo.find_object(id).ok()?.peel_tags_to_end().ok()?;
            (object.kind == gix::object::Kind::Commit).then_some(object.id)
        }
        _ => None,
    }
}

/// What `checkpoints` (every checkpoint of the repository, newest first) cost on disk.
pub fn usage(repo: &gix::Repository, checkpoints: &[Checkpoint]) -> Result<Usage> {
    let mut walker = Walker {
        repo,
        seen: HashSet::new(),
    };
    // What other refs hold: their tips' trees, and the commits checkpoints were taken on.
    let mut ignored = Amount::default();
    for reference in refdb::list(repo, "refs/")?.refs {
        let name = reference.name.as_str();
        if name.starts_with(REF_PREFIX) || name.starts_with(STAGING_PREFIX) || name == NOTES_REF {
            continue;
        }
        // A symbolic ref's target is listed itself.
        if let Some(id) = reference.value.object()
            && let Some(commit) = peeled_commit(repo, id)
        {
            walker.commit(commit, &mut ignored)?;
        }
    }
    if let Some(head) = refdb::head(repo).ok().and_then(|head| head.commit) {
        walker.commit(head, &mut ignored)?;
    }
    for c in checkpoints {
        if let Some(head) = store::head_commit(repo, c.commit)? {
            walker.commit(head, &mut ignored)?;
        }
    }

    // Each object for the oldest checkpoint that holds it.
    let mut usage = Usage {
        checkpoints: checkpoints.len(),
        ..Usage::default()
    };
    for c in checkpoints.iter().rev() {
        let mut added = Amount::default();
        let commit = repo
            .find_commit(c.commit)
            .context(|| format!("cannot read checkpoint {}", c.id))?;
        let parents: Vec<ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
        walker.commit(c.commit, &mut added)?;
        // The index commit, when there is one: the last parent, not the HEAD commit.
        let head = store::head_commit(repo, c.commit)?;
        if let Some(&last) = parents.last()
            && Some(last) != head
        {
            walker.commit(last, &mut added)?;
        }
        usage.total.objects += added.objects;
        usage.total.bytes += added.bytes;
        let kind = usage.by_kind.entry(c.meta.kind.clone()).or_default();
        kind.objects += added.objects;
        kind.bytes += added.bytes;
        usage.by_checkpoint.push(Added {
            id: c.id.clone(),
            kind: c.meta.kind.clone(),
            added,
        });
    }
    // The notes: their commit and tree (and blobs).
    if let Some(tip) = store::notes_tip(repo).ok().flatten() {
        let mut notes = Amount::default();
        walker.commit(tip, &mut notes)?;
        usage.notes = notes;
        usage.total.objects += notes.objects;
        usage.total.bytes += notes.bytes;
    }
    Ok(usage)
}

/// How many of the oldest of `candidates` (checkpoints retention may remove, oldest first)
/// must go for what `all` (newest first) cost on disk to fit in `max` bytes: the smallest such
/// number, or all of them when even that does not fit.
pub fn oldest_to_remove(
    repo: &gix::Repository,
    all: &[Checkpoint],
    candidates: &[&Checkpoint],
    max: u64,
) -> Result<usize> {
    let cost_without = |n: usize| -> Result<u64> {
        let gone: HashSet<&str> = candidates[..n].iter().map(|c| c.id.as_str()).collect();
        let kept: Vec<Checkpoint> = all
            .iter()
            .filter(|c| !gone.contains(c.id.as_str()))
            .cloned()
            .collect();
        Ok(usage(repo, &kept)?.total.bytes)
    };
    if cost_without(0)? <= max {
        return Ok(0);
    }
    // Removing more never costs more: the smallest number that fits, by bisection.
    let (mut fits_not, mut fits) = (0, candidates.len());
    while fits - fits_not > 1 {
        let mid = (fits_not + fits) / 2;
        if cost_without(mid)? <= max {
            fits = mid;
        } else {
            fits_not = mid;
        }
    }
    Ok(fits)
}
