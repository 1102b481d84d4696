//! Recording a capture as a checkpoint: its commit (and index commit), ref and note; or, when
//! nothing changed since this worktree's newest checkpoint, that checkpoint.

use chrono::Utc;
use gix::ObjectId;

use crate::capture::Captured;
use crate::error::{Context, Error, Result};
use crate::format::{self, Head, IndexState, Metadata, Stats, Tool};
use crate::store::{self, Checkpoint, CreateError};

/// What to save.
#[derive(Debug, Clone, Default)]
pub struct SaveOptions {
    /// A message (`-m`).
    pub message: Option<String>,
    /// A name to find it by (`--name`).
    pub name: Option<String>,
    /// The kind; `manual` when `None`.
    pub kind: Option<String>,
    /// Free-form metadata.
    pub meta: serde_json::Map<String, serde_json::Value>,
    /// Pin it (never pruned).
    pub pin: bool,
    /// Make a checkpoint even when nothing changed since the newest one.
    pub allow_empty: bool,
    /// On a safety checkpoint: the operation it is taken before (see [`format::Operation`]).
    /// The library sets it on the safety checkpoints it takes; a save leaves it `None`.
    pub operation: Option<format::Operation>,
    /// The message only describes the save (a hook's `before Edit`, `exec`'s `before: CMD`, a
    /// safety checkpoint's `before restoring …`) rather than being one the user gave: it does
    /// not, by itself, make a save of an unchanged working tree record a new checkpoint (see
    /// [`SaveOptions::records_unchanged`]).
    pub generated_message: bool,
    /// The agent session this checkpoint belongs to. A save with a session is deduplicated
    /// only against a checkpoint of the same session, so that every session has a first
    /// checkpoint of its own, taken before it changed anything.
    pub session: Option<String>,
    /// The coding agent whose hook asks for this save (`claude-code`, `gemini`, …), recorded
    /// in the note's `agent` field.
    pub agent: Option<String>,
    /// The conversation to keep with the checkpoint (`--conversation`, a hook's transcript), or
    /// why a hook's transcript is not kept.
    pub conversation: Option<crate::conversation::ConversationInput>,
}

impl SaveOptions {
    /// Whether this save makes a new checkpoint even when the working tree, `HEAD` and the
    /// staged state are the same as at this worktree's newest checkpoint: with `allow_empty`,
    /// and whenever it carries something the user asked to record — a name, a pin, a
    /// message of their own, or a conversation given by the caller (not a hook's transcript,
    /// which comes with a generated message). Reporting the older checkpoint instead would drop it (a name that
    /// then finds nothing, a pin on another checkpoint).
    ///
    /// ```
    /// use git_checkpoint::SaveOptions;
    ///
    /// assert!(!SaveOptions::default().records_unchanged());
    /// let named = SaveOptions { name: Some("before-refactor".into()), ..Default::default() };
    /// assert!(named.records_unchanged());
    /// let described = SaveOptions {
    ///     message: Some("before Edit src/lib.rs".into()),
    ///     generated_message: true,
    ///     ..Default::default()
    /// };
    /// assert!(!described.records_unchanged());
    /// ```
    pub fn records_unchanged(&self) -> bool {
        self.allow_empty
            || self.name.is_some()
            || self.pin
            || (self.message.is_some() && !self.generated_message)
            || (self.conversation.is_some() && !self.generated_message)
    }
}

/// What `save` did.
#[derive(Debug, Clone)]
pub enum Saved {
    /// A new checkpoint.
    Created(Checkpoint),
    /// Nothing changed since this checkpoint, which is reported instead of a new one.
    Unchanged(Checkpoint),
}

impl Saved {
    /// The checkpoint made or found.
    pub fn checkpoint(&self) -> &Checkpoint {
        match self {
            Saved::Created(c) | Saved::Unchanged(c) => c,
        }
    }
}

/// Refuse a kind, name or session that cannot be stored.
pub fn validate(options: &SaveOptions) -> Result<()> {
    format::validate_kind(options.kind.as_deref().unwrap_or(format::DEFAULT_KIND))
        .map_err(Error::InvalidInput)?;
    if let Some(name) = &options.name {
        format::validate_name(name).map_err(Error::InvalidInput)?;
    }
    if let Some(session) = &options.session {
        format::validate_session(session).map_err(Error::InvalidInput)?;
    }
    if let Some(agent) = &options.agent {
        format::validate_agent(agent).map_err(Error::InvalidInput)?;
    }
    Ok(())
}

/// What the retention that follows a new checkpoint did (see
/// [`Checkpoints::save`](crate::Checkpoints::save)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Housekeeping {
    /// The checkpoints the configured retention removed.
    pub pruned: Vec<String>,
    /// For each of them (by id), the setting that pruned it (`checkpoint.keep`,
    /// `checkpoint.auto.keep`, `checkpoint.maxAge`, `checkpoint.maxSize`).
    pub pruned_by: std::collections::BTreeMap<String, String>,
    /// Why the automatic prune could not run (a bad setting, a lock), if it could not. The
    /// operation itself succeeded.
    pub problem: Option<String>,
}

/// Make a checkpoint of `captured` (or report the newest one when nothing changed, unless
/// [`SaveOptions::records_unchanged`]).
pub fn record(repo: &gix::Repository, captured: &Captured, options: &SaveOptions) -> Result<Saved> {
    let kind = options.kind.as_deref().unwrap_or(format::DEFAULT_KIND);
    let Captured {
        snap,
        head_commit,
        head_ref,
        head_tree,
        worktree,
        index_state,
    } = captured;
    let (head_commit, head_tree, index_state) = (*head_commit, *head_tree, *index_state);
    let existing = store::NewestFirst::of(repo)?;
    // The notes, opened once if the search for an unchanged checkpoint needs them.
    let mut notes = None;
    // A safety checkpoint that records an operation is always a new one: undo and redo read it.
    if !options.records_unchanged()
        && options.operation.is_none()
        && let Some(same) = unchanged_since(
            repo,
            existing.iter(repo),
            captured,
            options.session.as_deref(),
            &mut notes,
        )?
    {
        let mut notes = match notes {
            Some(notes) => notes,
            None => store::Notes::open(repo)?,
        };
        return Ok(Saved::Unchanged(notes.checkpoint(repo, &same)?));
    }

    let summary = match head_tree {
        // Against no commit (a plain directory, an unborn branch) every file is added: the
        // snapshot counted them, so the tree need not be walked again.
        None => crate::treediff::Summary {
            added: snap.files,
            ..Default::default()
        },
        Some(_) => match snap.summary_since(head_tree) {
            Some(summary) => summary,
            None => crate::treediff::summary(repo, head_tree, Some(snap.tree))?,
        },
    };
    // A hook's transcript is read only now that a checkpoint is made: a save that finds
    // nothing changed never reads it.
    let conversation = options
        .conversation
        .as_ref()
        .map(crate::conversation::ConversationInput::resolved);
    let secrets = scan_for_secrets(repo, head_tree, snap, options)?;
    let stats = Stats {
        files: snap.files,
        added: summary.added,
        modified: summary.modified,
        deleted: summary.deleted,
    };

    let mut newest = newest_id(repo, &existing);
    loop {
        let now = Utc::now();
        let mut id = format::new_id(now, rand::random::<u16>());
        if let Some(newest) = &newest
            && id <= *newest
        {
            id = format::successor(newest);
        }
        let index_commit = match (index_state, snap.index_tree) {
            (IndexState::Saved, Some(tree)) => Some(write_commit(
                repo,
                &format::index_commit_message(&id),
                tree,
                head_commit.into_iter().collect(),
            )?),
            _ => None,
        };
        let message = format::commit_message(
            &format::MessageFields {
                message: options.message.clone(),
                id: Some(id.clone()),
                kind: Some(kind.to_string()),
                name: options.name.clone(),
                worktree: worktree.clone(),
                session: options.session.clone(),
            },
            head_ref.as_deref(),
        );
        let parents = head_commit.into_iter().chain(index_commit).collect();
        let commit = write_commit(repo, &message, snap.tree, parents)?;
        let meta = Metadata {
            schema: format::SCHEMA,
            id: id.clone(),
            name: options.name.clone(),
            message: options.message.clone(),
            kind: kind.to_string(),
            created_at: format::rfc3339(format::time_of_id(&id).unwrap_or(now)),
            head: Head {
                commit: head_commit.map(|c| c.to_string()),
                reference: head_ref.clone(),
            },
            worktree: worktree.clone(),
            session: options.session.clone(),
            agent: options.agent.clone(),
            fetched: None,
            operation: options.operation.clone(),
            index: index_state,
            stats,
            skipped: snap.skipped.clone(),
            pinned: options.pin,
            meta: options.meta.clone(),
            conversation: conversation
                .as_ref()
                .map(crate::conversation::ConversationInput::note),
            secrets: secrets.clone(),
            tool: Tool::default(),
            extra: Default::default(),
        };
        let conversation_commit = match &conversation {
            Some(input) => crate::conversation::write(repo, &id, input)?,
            None => None,
        };
        let note_len = meta.to_note().len();
        if note_len > format::MAX_NOTE_BYTES {
            return Err(Error::InvalidInput(format!(
                "the checkpoint's metadata would take {note_len} bytes, more than the {} a note may hold: shorten the message or the metadata",
                format::MAX_NOTE_BYTES
            )));
        }
        match store::create(repo, &id, commit, &meta, conversation_commit) {
            Ok(note_problem) => {
                return Ok(Saved::Created(Checkpoint {
                    id,
                    commit,
                    meta,
                    note_problem,
                }));
            }
            Err(CreateError::IdTaken) => newest = Some(id),
            Err(CreateError::Other(err)) => return Err(err),
        }
    }
}

/// The secret scan of a new checkpoint's files beyond `HEAD`, as `checkpoint.secrets` asks:
/// `None` when it is off. With `block`, findings refuse the save, unless it is a safety
/// checkpoint: that one protects work about to be overwritten, so it is always made (and
/// marked). A scan that cannot run makes no save fail: the note then has no scan, and `push`
/// scans before sending.
fn scan_for_secrets(
    repo: &gix::Repository,
    head_tree: Option<ObjectId>,
    snap: &crate::snapshot::Snapshot,
    options: &SaveOptions,
) -> Result<Option<format::SecretsNote>> {
    let safety =
        options.operation.is_some() || options.kind.as_deref() == Some(format::KIND_PRE_RESTORE);
    let (mode, allow) = crate::config::secrets(repo);
    let mode = match mode {
        Ok(mode) => mode,
        // A safety checkpoint is never stopped by a setting; a save is (the façade has
        // refused it already).
        Err(_) if safety => crate::config::SecretsMode::Warn,
        Err(problem) => return Err(Error::from(&problem)),
    };
    if mode == crate::config::SecretsMode::Off {
        return Ok(None);
    }
    let allowed = crate::secrets::Allowed::new(&allow);
    // The snapshot lists what it adds beyond HEAD when it can: no tree is read for that.
    let known = snap.added_or_changed_since(head_tree);
    let Ok(note) = crate::secrets::scan(repo, head_tree, snap.tree, known, &allowed, true) else {
        return Ok(None);
    };
    if mode == crate::config::SecretsMode::Block && !safety && note.count() > 0 {
        return Err(Error::SecretsFound(Box::new(note)));
    }
    Ok(Some(note))
}

/// The id a new one must be greater than. Ids only grow: a new one is greater than every
/// existing id. Refs whose names are not ids, that do not point at a commit, or whose id lies
/// more than an hour ahead of this clock (made by hand, or fetched from a machine whose clock
/// is wrong) do not count: they would otherwise push every new id, and its time, into the
/// future.
fn newest_id(repo: &gix::Repository, existing: &store::NewestFirst) -> Option<String> {
    let horizon = Utc::now() + chrono::Duration::hours(1);
    existing
        .iter(repo)
        .find(|r| {
            format::is_id(&r.id)
                && format::time_of_id(&r.id).is_some_and(|t| t <= horizon)
                && repo
                    .find_header(r.commit)
                    .is_ok_and(|h| h.kind() == gix::object::Kind::Commit)
        })
        .map(|r| r.id.clone())
}

fn write_commit(
    repo: &gix::Repository,
    message: &str,
    tree: ObjectId,
    parents: Vec<ObjectId>,
) -> Result<ObjectId> {
    crate::repo::new_commit(repo, message, tree, parents)
}

/// Whether `candidate` was fetched from another repository (its note says so): such a
/// checkpoint is not this worktree's newest. The notes are opened on first use.
fn is_fetched(
    repo: &gix::Repository,
    notes: &mut Option<store::Notes>,
    candidate: &store::CheckpointRef,
) -> bool {
    if notes.is_none() {
        *notes = store::Notes::open(repo).ok();
    }
    notes
        .as_mut()
        .and_then(|n| n.raw(repo, candidate.commit).ok().flatten())
        .and_then(|bytes| Metadata::from_note(&bytes).ok())
        .is_some_and(|meta| meta.fetched.is_some())
}

/// The newest checkpoint of this worktree, if the working tree, `HEAD` and the staged state
/// are all the same as when it was taken (and, for a save with a `session`, it belongs to
/// that session).
fn unchanged_since(
    repo: &gix::Repository,
    existing: impl Iterator<Item = store::CheckpointRef>,
    captured: &Captured,
    session: Option<&str>,
    notes: &mut Option<store::Notes>,
) -> Result<Option<store::CheckpointRef>> {
    let (worktree, snap) = (captured.worktree.as_deref(), &captured.snap);
    let (head, index_state) = (captured.head_commit, captured.index_state);
    for candidate in existing {
        // A ref that does not lead to a commit is not a checkpoint this save can match.
        let Ok(commit) = repo.find_commit(candidate.commit) else {
            continue;
        };
        let fields =
            format::parse_commit_message(&String::from_utf8_lossy(commit.message_raw_sloppy()));
        if fields.worktree.as_deref() != worktree || is_fetched(repo, notes, &candidate) {
            continue;
        }
        // The newest checkpoint of this worktree decides.
        if session.is_some() && fields.session.as_deref() != session {
            return Ok(None);
        }
        let tree = commit
            .tree_id()
            .context(|| format!("cannot read checkpoint {}", candidate.id))?;
        if tree != snap.tree {
            return Ok(None);
        }
        let parents: Vec<ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
        let (head_parent, index_parent) = match head {
            Some(_) => (parents.first().copied(), parents.get(1).copied()),
            None => (None, parents.first().copied()),
        };
        if head_parent != head || parents.len() > usize::from(head.is_some()) + 1 {
            return Ok(None);
        }
        let same_index = match (index_state, index_parent) {
            (IndexState::Saved, Some(index_commit)) => {
                let index_commit = repo
                    .find_commit(index_commit)
                    .context(|| format!("cannot read checkpoint {}", candidate.id))?;
                // On an unborn branch the only parent must be an index commit, not a HEAD.
                let is_index_commit = index_commit
                    .message_raw_sloppy()
                    .starts_with(format::INDEX_COMMIT_PREFIX.as_bytes());
                let index_tree = index_commit
                    .tree_id()
                    .context(|| format!("cannot read checkpoint {}", candidate.id))?;
                is_index_commit && Some(index_tree.detach()) == snap.index_tree
            }
            (IndexState::Clean | IndexState::Unmerged, None) => true,
            _ => false,
        };
        return Ok(same_index.then(|| candidate.clone()));
    }
    Ok(None)
}
