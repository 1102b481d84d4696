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

use crate::control::Control;
use crate::error::{Context, Result};
use crate::format::{self, NOTES_REF, REF_PREFIX, STAGING_PREFIX};
use crate::refdb::{self, Value};
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
    /// The conversations kept with them (`refs/checkpoint-conversations/`), counted in
    /// `total` and in each checkpoint's `added` too.
    pub conversations: Amount,
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
struct Walker<'r, 'c> {
    repo: &'r gix::Repository,
    /// Keyed by the ids' own bytes, which are already uniformly distributed: no SipHash.
    seen: gix::hashtable::HashSet<ObjectId>,
    ctl: &'r Control<'c>,
}

/// Where the objects a walk finds are counted: into an amount, or nowhere (objects that other
/// refs hold, whose size does not matter and is not even looked up).
enum Sink<'a> {
    Count(&'a mut Amount),
    Ignore,
}

impl Sink<'_> {
    fn add(&mut self, bytes: impl FnOnce() -> Option<u64>) {
        if let Sink::Count(amount) = self
            && let Some(bytes) = bytes()
        {
            amount.add(bytes);
        }
    }
}

impl<'r, 'c> Walker<'r, 'c> {
    fn new(repo: &'r gix::Repository, ctl: &'r Control<'c>) -> Self {
        Walker {
            repo,
            seen: gix::hashtable::HashSet::default(),
            ctl,
        }
    }

    /// Mark everything below `tree` as seen, counting what was new into `sink`.
    fn tree(&mut self, tree: ObjectId, sink: &mut Sink<'_>) -> Result<()> {
        if !self.seen.insert(tree) {
            return Ok(());
        }
        if self.seen.len().is_multiple_of(4096) {
            self.ctl.check()?;
        }
        let data = self
            .repo
            .find_tree(tree)
            .context(|| format!("cannot read tree {tree}"))?;
        let len = data.data.len() as u64;
        sink.add(|| Some(len));
        let entries: Vec<(EntryKind, ObjectId)> = data
            .decode()
            .context(|| format!("cannot read tree {tree}"))?
            .entries
            .iter()
            .map(|e| (e.mode.kind(), e.oid.to_owned()))
            .collect();
        for (kind, id) in entries {
            match kind {
                EntryKind::Tree => self.tree(id, sink)?,
                // A submodule's commit lives in the submodule's repository.
                EntryKind::Commit => {}
                _ => self.object(id, sink),
            }
        }
        Ok(())
    }

    /// Mark the blob (or commit) `id` as seen, counting it into `sink` if it was new. A
    /// missing object (a shallow or partial clone) costs nothing here.
    fn object(&mut self, id: ObjectId, sink: &mut Sink<'_>) {
        if self.seen.insert(id) {
            let repo = self.repo;
            sink.add(|| repo.find_header(id).ok().map(|h| h.size()));
        }
    }

    /// A commit: itself and its tree (not its parents).
    fn commit(&mut self, commit: ObjectId, sink: &mut Sink<'_>) -> Result<()> {
        if self.seen.contains(&commit) {
            return Ok(());
        }
        self.object(commit, sink);
        let tree = store::commit_tree(self.repo, commit)?;
        self.tree(tree, sink)
    }

    /// What a checkpoint holds: its commit and tree, its index commit when it has one (the
    /// last parent, when that is not the `HEAD` commit), and the conversation kept with it.
    /// Returns what its conversation added (counted in `amount` too).
    fn checkpoint(&mut self, c: &Checkpoint, amount: &mut Amount) -> Result<Amount> {
        let commit = self
            .repo
            .find_commit(c.commit)
            .context(|| format!("cannot read checkpoint {}", c.id))?;
        let last = commit.parent_ids().last().map(|p| p.detach());
        let mut sink = Sink::Count(amount);
        self.commit(c.commit, &mut sink)?;
        let head = store::head_commit(self.repo, c.commit)?;
        if let Some(last) = last
            && Some(last) != head
        {
            self.commit(last, &mut sink)?;
        }
        let mut conversation = Amount::default();
        if let Some(Value::Object(commit)) =
            refdb::find(self.repo, &format::conversation_ref_name(&c.id))?
        {
            self.commit(commit, &mut Sink::Count(&mut conversation))?;
            amount.objects += conversation.objects;
            amount.bytes += conversation.bytes;
        }
        Ok(conversation)
    }

    /// Mark what other refs hold as seen, without counting it: their tips' trees, `HEAD`, and
    /// the commits `checkpoints` were taken on.
    fn others(&mut self, checkpoints: &[Checkpoint]) -> Result<()> {
        for reference in refdb::list(self.repo, "refs/")?.refs {
            let name = reference.name.as_str();
            if name.starts_with(REF_PREFIX)
                || name.starts_with(STAGING_PREFIX)
                || name.starts_with(format::CONVERSATION_PREFIX)
                || name == NOTES_REF
            {
                continue;
            }
            // A symbolic ref's target is listed itself.
            if let Some(id) = reference.value.object()
                && let Some(commit) = peeled_commit(self.repo, id)
            {
                self.commit(commit, &mut Sink::Ignore)?;
            }
        }
        if let Some(head) = refdb::head(self.repo).ok().and_then(|head| head.commit) {
            self.commit(head, &mut Sink::Ignore)?;
        }
        for c in checkpoints {
            if let Some(head) = store::head_commit(self.repo, c.commit)? {
                self.commit(head, &mut Sink::Ignore)?;
            }
        }
        Ok(())
    }

    /// The notes: their commit and tree (and blobs).
    fn notes(&mut self) -> Result<Amount> {
        let mut notes = Amount::default();
        if let Some(tip) = store::notes_tip(self.repo).ok().flatten() {
            self.commit(tip, &mut Sink::Count(&mut notes))?;
        }
        Ok(notes)
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
pub fn usage(
    repo: &gix::Repository,
    checkpoints: &[Checkpoint],
    ctl: &Control<'_>,
) -> Result<Usage> {
    ctl.check()?;
    let mut walker = Walker::new(repo, ctl);
    walker.others(checkpoints)?;
    // Each object for the oldest checkpoint that holds it.
    let mut usage = Usage {
        checkpoints: checkpoints.len(),
        ..Usage::default()
    };
    for (done, c) in checkpoints.iter().rev().enumerate() {
        ctl.report("counting what checkpoints hold", done, checkpoints.len());
        let mut added = Amount::default();
        let conversation = walker.checkpoint(c, &mut added)?;
        usage.conversations.objects += conversation.objects;
        usage.conversations.bytes += conversation.bytes;
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
    let notes = walker.notes()?;
    usage.notes = notes;
    usage.total.objects += notes.objects;
    usage.total.bytes += notes.bytes;
    Ok(usage)
}

/// How many of the oldest of `candidates` (checkpoints retention may remove, oldest first)
/// must go for what `all` (newest first) cost on disk to fit in `max` bytes: the smallest such
/// number, or all of them when even that does not fit.
///
/// One walk answers it for every number: an object is freed once every checkpoint holding it
/// is gone, so what stays is walked first (its objects are never freed), then the candidates
/// from the newest back, so that each object is first met at the newest candidate holding it,
/// the one whose removal frees it.
pub fn oldest_to_remove(
    repo: &gix::Repository,
    all: &[Checkpoint],
    candidates: &[&Checkpoint],
    max: u64,
) -> Result<usize> {
    let ctl = Control::default();
    let mut walker = Walker::new(repo, &ctl);
    walker.others(all)?;
    let mut cost = Amount::default();
    let candidate: HashSet<&str> = candidates.iter().map(|c| c.id.as_str()).collect();
    for c in all.iter().filter(|c| !candidate.contains(c.id.as_str())) {
        walker.checkpoint(c, &mut cost)?;
    }
    let mut freed = vec![0u64; candidates.len()];
    for (i, c) in candidates.iter().enumerate().rev() {
        let mut added = Amount::default();
        walker.checkpoint(c, &mut added)?;
        freed[i] = added.bytes;
        cost.bytes += added.bytes;
    }
    let mut left = cost.bytes + walker.notes()?.bytes;
    let mut n = 0;
    while left > max && n < candidates.len() {
        left -= freed[n];
        n += 1;
    }
    Ok(n)
}
