//! The checkpoint store: refs under `refs/checkpoints/` and their notes in
//! `refs/notes/checkpoints`, read and written with compare-and-swap.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::note::plumbing::State as NotesState;

use crate::error::{Context, Error, Result};
use crate::format::{
    self, Head, IndexState, MAX_NOTE_BYTES, Metadata, NOTES_REF, NoteJson, REF_PREFIX, Stats, Tool,
};
use crate::notecache::{self, NoteCache};
use crate::refdb::{self, Edit, EditError, Expect, Value};

/// A checkpoint as found in the repository.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The id (the ref name without `refs/checkpoints/`).
    pub id: String,
    /// The checkpoint commit.
    pub commit: ObjectId,
    /// Its metadata: the note, or what could be derived from the commit when the note is
    /// missing or damaged.
    pub meta: Metadata,
    /// Why the metadata had to be derived from the commit, if it had to; for a checkpoint just
    /// saved, why its note could not be written.
    pub note_problem: Option<String>,
}

impl Checkpoint {
    /// Whether the checkpoint was taken here in `worktree` (`None`: the main worktree), as
    /// opposed to taken in another worktree or fetched from another repository. Positions
    /// (`@`, `@{N}`) and `undo` count only these.
    pub fn is_own(&self, worktree: Option<&str>) -> bool {
        self.meta.worktree.as_deref() == worktree && self.meta.fetched.is_none()
    }

    /// The JSON object every front end gives for a checkpoint (`save --json`, `show --json`,
    /// `list --json`, the HTTP API, the MCP tools): its note's fields plus `"commit"`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(&self.meta).unwrap_or(serde_json::Value::Null);
        if let serde_json::Value::Object(map) = &mut value {
            map.insert("commit".into(), self.commit.to_string().into());
        }
        value
    }

    /// [`Checkpoint::to_json`] written as compact JSON text to `out`, the same text in the same
    /// key order, without building the value first (a list of hundreds spent most of its time
    /// there).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let start = out.len();
        // A note that has a "commit" of its own has it replaced in place by `to_json`.
        if self.meta.extra.contains_key("commit")
            || serde_json::to_writer(&mut *out, &self.meta).is_err()
            || out.last() != Some(&b'}')
        {
            out.truncate(start);
            out.extend_from_slice(self.to_json().to_string().as_bytes());
            return;
        }
        out.pop();
        if out.len() > start + 1 {
            out.push(b',');
        }
        out.extend_from_slice(b"\"commit\":\"");
        let _ = self.commit.write_hex_to(&mut *out);
        out.extend_from_slice(b"\"}");
    }
}

/// A checkpoint ref: id and commit, without the note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointRef {
    /// The id.
    pub id: String,
    /// The commit the ref points to.
    pub commit: ObjectId,
}

/// A ref under `refs/checkpoints/` that is not a readable checkpoint: made by hand, fetched
/// from a broken repository, or pointing at an object that is missing or not a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenRef {
    /// The id (the ref name without `refs/checkpoints/`); `None` when the ref could not even
    /// be named (the reason then says which file it is).
    pub id: Option<String>,
    /// The object the ref points to, when it points to one.
    pub target: Option<ObjectId>,
    /// Why it is not a checkpoint.
    pub reason: String,
}

/// Every checkpoint ref, newest (greatest id) first. Refs that cannot be read as a direct ref
/// are left out; see [`refs_reporting`].
pub fn refs(repo: &gix::Repository) -> Result<Vec<CheckpointRef>> {
    Ok(refs_reporting(repo)?.0)
}

/// Every checkpoint ref, newest first, and the refs under `refs/checkpoints/` that could not
/// be read: a problem with one ref never hides the others. Whether the object a ref points to
/// exists is not checked here (it is not needed to list, save or delete).
pub fn refs_reporting(repo: &gix::Repository) -> Result<(Vec<CheckpointRef>, Vec<BrokenRef>)> {
    let listing = refdb::list(repo, REF_PREFIX)?;
    let mut out = Vec::new();
    let mut broken: Vec<BrokenRef> = listing
        .unnamed
        .into_iter()
        .map(|reason| BrokenRef {
            id: None,
            target: None,
            reason,
        })
        .collect();
    for reference in listing.refs {
        let Some(id) = reference.name.strip_prefix(REF_PREFIX) else {
            continue;
        };
        let id = id.to_string();
        match reference.value {
            Value::Object(commit) => out.push(CheckpointRef { id, commit }),
            Value::Symbolic(_) => broken.push(BrokenRef {
                id: Some(id),
                target: None,
                reason: "it is a symbolic ref".into(),
            }),
            Value::Unreadable(reason) => broken.push(BrokenRef {
                id: Some(id),
                target: None,
                reason,
            }),
        }
    }
    out.sort_by(|a, b| b.id.cmp(&a.id));
    broken.sort_by(|a, b| b.id.cmp(&a.id));
    Ok((out, broken))
}

/// The checkpoint refs, newest id first, each read only when it is reached: a save looks at
/// the newest one or two of what may be thousands, and reading each loose ref file is most of
/// what listing them costs.
pub struct NewestFirst {
    names: Vec<(String, Option<Value>)>,
}

impl NewestFirst {
    /// The checkpoint refs of `repo` as they are now.
    pub fn of(repo: &gix::Repository) -> Result<NewestFirst> {
        let mut names: Vec<(String, Option<Value>)> = refdb::names(repo, REF_PREFIX)?
            .into_iter()
            .filter_map(|(name, value)| Some((name.strip_prefix(REF_PREFIX)?.to_owned(), value)))
            .collect();
        names.sort_by(|a, b| b.0.cmp(&a.0));
        Ok(NewestFirst { names })
    }

    /// How many there may be: every checkpoint, and any file under `refs/checkpoints/` that
    /// turns out to be no readable ref.
    pub fn at_most(&self) -> usize {
        self.names.len()
    }

    /// The readable ones, as [`refs`] gives them, each read as the iteration reaches it.
    pub fn iter<'a>(
        &'a self,
        repo: &'a gix::Repository,
    ) -> impl Iterator<Item = CheckpointRef> + 'a {
        self.names.iter().filter_map(move |(id, value)| {
            let value = match value {
                Some(value) => Cow::Borrowed(value),
                None => Cow::Owned(refdb::find(repo, &format!("{REF_PREFIX}{id}")).ok()??),
            };
            Some(CheckpointRef {
                id: id.clone(),
                commit: value.object()?,
            })
        })
    }
}

/// A cheap token of the checkpoint refs and the notes ref as they are now: it changes when a
/// checkpoint is created or deleted, and when a note is written (a save, a pin or unpin).
/// Reads refs only, never an object, so it can be polled to notice other processes' changes.
pub fn revision(repo: &gix::Repository) -> Result<u64> {
    use std::hash::{Hash, Hasher};
    let (refs, broken) = refs_reporting(repo)?;
    let mut hasher = std::hash::DefaultHasher::new();
    for r in &refs {
        r.id.hash(&mut hasher);
        r.commit.hash(&mut hasher);
    }
    for b in &broken {
        b.id.hash(&mut hasher);
        b.target.hash(&mut hasher);
    }
    let notes = refdb::find(repo, NOTES_REF)
        .ok()
        .flatten()
        .and_then(|value| value.object());
    notes.hash(&mut hasher);
    Ok(hasher.finish())
}

/// Read access to the notes of checkpoints.
pub struct Notes {
    /// The notes commit, when there is one and it could be read.
    tip: Option<ObjectId>,
    /// Its notes tree, read on first need when the memo answered so far.
    state: Option<NotesState>,
    /// Why `refs/notes/checkpoints` could not be read, when it could not.
    problem: Option<String>,
    /// The private memo of notes (see [`crate::notecache`]), for [`Notes::open`] only.
    memo: Option<NoteCache>,
}

impl Notes {
    /// Open the notes tree as it is now. A notes ref that cannot be read (pointing at a blob,
    /// at a commit whose tree is missing, …) is not an error: every checkpoint then gets the
    /// metadata derived from its commit, and [`Notes::problem`] says why.
    ///
    /// Notes are answered from the private memo where it knows them (see
    /// [`crate::notecache`]).
    pub fn open(repo: &gix::Repository) -> Result<Notes> {
        let memo = NoteCache::open(repo);
        let read = notes_ref(repo).and_then(|tip| match tip {
            // The memo knows this notes commit: its notes are read only if asked about a
            // commit the memo does not know. A notes commit or tree gone missing since is
            // still reported as damage.
            Some(tip) if memo.tip() == Some(tip) => {
                let tree =
                    commit_tree(repo, tip).map_err(|e| Error::NotesDamaged(e.to_string()))?;
                if !repo.has_object(tree) {
                    return notes_tree(repo, tip).map(|state| Some((tip, Some(state))));
                }
                Ok(Some((tip, None)))
            }
            Some(tip) => notes_tree(repo, tip).map(|state| Some((tip, Some(state)))),
            None => Ok(None),
        });
        Ok(match read {
            Ok(found) => Notes {
                tip: found.as_ref().map(|(tip, _)| *tip),
                state: found.and_then(|(_, state)| state),
                problem: None,
                memo: Some(memo),
            },
            Err(problem) => Notes {
                tip: None,
                state: None,
                problem: Some(problem.to_string()),
                memo: None,
            },
        })
    }

    /// Open the notes tree of the notes commit `tip` (`None`: no notes at all), e.g. one fetched
    /// from a remote. Unlike [`Notes::open`], a tip that cannot be read is an error.
    pub fn at(repo: &gix::Repository, tip: Option<ObjectId>) -> Result<Notes> {
        let state = tip.map(|commit| notes_state(repo, commit)).transpose()?;
        Ok(Notes {
            tip,
            state,
            problem: None,
            memo: None,
        })
    }

    /// Why `refs/notes/checkpoints` could not be read, if it could not: then no checkpoint
    /// has its note, and each one's [`Checkpoint::note_problem`] is this text.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// The raw note of `commit`, if there is one. A note above [`MAX_NOTE_BYTES`] is an error
    /// and is never loaded.
    pub fn raw(&mut self, repo: &gix::Repository, commit: ObjectId) -> Result<Option<Vec<u8>>> {
        Ok(self.note(repo, commit)?.map(Cow::into_owned))
    }

    /// [`Notes::raw`], borrowed from the memo when it holds the note.
    fn note(&mut self, repo: &gix::Repository, commit: ObjectId) -> Result<Option<Cow<'_, [u8]>>> {
        let Some(tip) = self.tip else {
            return Ok(None);
        };
        if let Some((blob, bytes)) = self.memo.as_ref().and_then(|memo| memo.note(tip, &commit))
            // A blob deleted since is read (and found missing) as if the memo did not know it.
            && repo.has_object(blob)
        {
            return Ok(Some(Cow::Borrowed(bytes)));
        }
        let state = match &mut self.state {
            Some(state) => state,
            none => none.insert(notes_tree(repo, tip)?),
        };
        let note = note_of(repo, state, commit, self.memo.as_ref())?;
        Ok(note.map(Cow::Owned))
    }

    /// The checkpoint of `reference`, with its note or derived metadata.
    pub fn checkpoint(
        &mut self,
        repo: &gix::Repository,
        reference: &CheckpointRef,
    ) -> Result<Checkpoint> {
        let read = match &self.problem {
            Some(problem) => Err(problem.clone()),
            None => self.note(repo, reference.commit).map_err(|e| e.to_string()),
        };
        let problem = match read {
            Ok(Some(bytes)) => match Metadata::from_note(&bytes) {
                Ok(meta) if meta.id == reference.id => {
                    return Ok(Checkpoint {
                        id: reference.id.clone(),
                        commit: reference.commit,
                        meta,
                        note_problem: None,
                    });
                }
                Ok(meta) => format!(
                    "note names checkpoint `{}`, not `{}`",
                    meta.id.escape_debug(),
                    reference.id
                ),
                Err(err) => err.to_string(),
            },
            Ok(None) => "note is missing".to_string(),
            Err(problem) => problem,
        };
        let meta = derive(repo, reference)?;
        Ok(Checkpoint {
            id: reference.id.clone(),
            commit: reference.commit,
            meta,
            note_problem: Some(problem),
        })
    }
}

/// The note of `commit` in `state`, if there is one: its bytes, taken from `memo` when it
/// holds them and the blob still exists. A note above [`MAX_NOTE_BYTES`] is an error
/// and is never loaded.
fn note_of(
    repo: &gix::Repository,
    state: &mut NotesState,
    commit: ObjectId,
    memo: Option<&NoteCache>,
) -> Result<Option<Vec<u8>>> {
    let Some(blob) = state
        .get(&commit, &repo.objects)
        .context(|| format!("cannot read the note of {commit}"))?
    else {
        return Ok(None);
    };
    if let Some(bytes) = memo.and_then(|memo| memo.blob(&blob))
        && repo.has_object(blob)
    {
        return Ok(Some(bytes.to_vec()));
    }
    // Never load a hostile multi-gigabyte note into memory.
    let header = repo
        .find_header(blob)
        .context(|| format!("cannot read note blob {blob}"))?;
    if header.size() > MAX_NOTE_BYTES as u64 {
        return Err(Error::InvalidInput(
            format::NoteError::TooLarge(header.size()).to_string(),
        ));
    }
    let data = repo
        .find_blob(blob)
        .context(|| format!("cannot read note blob {blob}"))?;
    Ok(Some(data.data.clone()))
}

pub use crate::capture::commit_tree;

/// `refs/notes/checkpoints` as read at one moment.
struct NotesTip {
    /// The notes commit.
    tip: ObjectId,
    /// Its tree.
    tree: ObjectId,
    /// The notes in that tree.
    state: NotesState,
}

/// The notes ref as it is now, `None` when there is no notes ref; [`Error::NotesDamaged`] when
/// it exists but cannot be read as a notes commit (it points at a blob, its tree is missing, …).
fn read_notes(repo: &gix::Repository) -> Result<Option<NotesTip>> {
    notes_ref(repo)?.map(|tip| read_tip(repo, tip)).transpose()
}

/// The commit the notes ref points to, `None` when there is no notes ref;
/// [`Error::NotesDamaged`] when it is symbolic or unreadable.
fn notes_ref(repo: &gix::Repository) -> Result<Option<ObjectId>> {
    match refdb::find(repo, NOTES_REF)? {
        None => Ok(None),
        Some(Value::Object(tip)) => Ok(Some(tip)),
        Some(Value::Symbolic(_)) => Err(Error::NotesDamaged("it is a symbolic ref".into())),
        Some(Value::Unreadable(why)) => Err(Error::NotesDamaged(why)),
    }
}

/// The notes in the tree of the notes commit `tip`, [`Error::NotesDamaged`] when it cannot be
/// read as a notes commit.
fn notes_tree(repo: &gix::Repository, tip: ObjectId) -> Result<NotesState> {
    Ok(read_tip(repo, tip)?.state)
}

/// [`read_notes`] of a known notes commit.
fn read_tip(repo: &gix::Repository, tip: ObjectId) -> Result<NotesTip> {
    let tree = commit_tree(repo, tip).map_err(|e| Error::NotesDamaged(e.to_string()))?;
    let state = NotesState::new(tree, &repo.objects)
        .map_err(|e| Error::NotesDamaged(format!("cannot read its tree {tree}: {e}")))?;
    Ok(NotesTip { tip, tree, state })
}

/// The notes of the notes commit `tip`.
fn notes_state(repo: &gix::Repository, tip: ObjectId) -> Result<NotesState> {
    let tree = commit_tree(repo, tip)?;
    NotesState::new(tree, &repo.objects).context(|| format!("cannot read notes tree {tree}"))
}

/// The commit `refs/notes/checkpoints` points to, if it exists; [`Error::NotesDamaged`] when
/// it cannot be read as a notes commit.
pub(crate) fn notes_tip(repo: &gix::Repository) -> Result<Option<ObjectId>> {
    Ok(read_notes(repo)?.map(|n| n.tip))
}

/// Whether the newest notes commit removed notes, and if so whether by a prune (`Some(true)`)
/// or a drop (`Some(false)`); `None` when it did neither or cannot be read.
pub(crate) fn last_removal_was_prune(repo: &gix::Repository) -> Option<bool> {
    let tip = notes_tip(repo).ok().flatten()?;
    let commit = repo.find_commit(tip).ok()?;
    let message = commit.message_raw().ok()?;
    let first = message.lines().next().unwrap_or_default();
    if first == format::NOTES_MESSAGE_PRUNE.as_bytes() {
        Some(true)
    } else if first == format::NOTES_MESSAGE_DROP.as_bytes() {
        Some(false)
    } else {
        None
    }
}

/// [`read_notes`], with a damaged notes ref as `Err(why)` inside `Ok`: for writers that can
/// still do their part without touching the notes.
fn read_notes_or_damage(
    repo: &gix::Repository,
) -> Result<std::result::Result<Option<NotesTip>, String>> {
    match read_notes(repo) {
        Ok(notes) => Ok(Ok(notes)),
        Err(damaged @ Error::NotesDamaged(_)) => Ok(Err(damaged.to_string())),
        Err(err) => Err(err),
    }
}

/// Metadata reconstructed from the checkpoint commit alone: its trailers, parents and time.
pub fn derive(repo: &gix::Repository, reference: &CheckpointRef) -> Result<Metadata> {
    let commit = repo
        .find_commit(reference.commit)
        .context(|| format!("cannot read checkpoint commit {}", reference.commit))?;
    let message = commit.message_raw_sloppy().to_str_lossy().into_owned();
    let fields = format::parse_commit_message(&message);
    let parents: Vec<ObjectId> = commit.parent_ids().map(|id| id.detach()).collect();
    let created = format::time_of_id(&reference.id).or_else(|| {
        commit
            .time()
            .ok()
            .and_then(|t| chrono::DateTime::from_timestamp(t.seconds, 0))
    });
    let (head, index) = head_and_index(repo, &parents);
    let tree = commit
        .tree_id()
        .context(|| format!("cannot read checkpoint commit {}", reference.commit))?
        .detach();
    let head_tree = head.map(|h| commit_tree(repo, h)).transpose()?;
    let summary = crate::treediff::summary(repo, head_tree, Some(tree))?;
    let stats = Stats {
        files: crate::treediff::count_files(repo, tree)?,
        added: summary.added,
        modified: summary.modified,
        deleted: summary.deleted,
    };
    Ok(Metadata {
        schema: format::SCHEMA,
        // The ref names the checkpoint; a commit's `Checkpoint-Id` differing from it (a commit
        // copied under another ref) must not make the metadata disagree with the id.
        id: reference.id.clone(),
        name: fields.name,
        message: fields.message,
        kind: fields
            .kind
            .unwrap_or_else(|| format::DEFAULT_KIND.to_string()),
        created_at: created.map(format::rfc3339).unwrap_or_default(),
        head: Head {
            commit: head.map(|h| h.to_string()),
            reference: None,
        },
        worktree: fields.worktree,
        session: fields.session,
        agent: None,
        fetched: None,
        operation: None,
        index,
        stats,
        skipped: Vec::new(),
        pinned: false,
        meta: Default::default(),
        conversation: None,
        secrets: None,
        tool: Tool::default(),
        extra: Default::default(),
    })
}

/// The `HEAD` commit a checkpoint commit was taken on (`None` on an unborn branch), read from
/// the commit itself, never from its note.
pub fn head_commit(repo: &gix::Repository, checkpoint: ObjectId) -> Result<Option<ObjectId>> {
    let commit = repo
        .find_commit(checkpoint)
        .context(|| format!("cannot read checkpoint commit {checkpoint}"))?;
    let parents: Vec<ObjectId> = commit.parent_ids().map(|id| id.detach()).collect();
    Ok(head_and_index(repo, &parents).0)
}

/// `HEAD` and the index state of a checkpoint commit with `parents`. The first parent is `HEAD`
/// unless the only parent is the index commit of an unborn branch; they are told apart by the
/// index commit's message.
fn head_and_index(repo: &gix::Repository, parents: &[ObjectId]) -> (Option<ObjectId>, IndexState) {
    match parents {
        [] => (None, IndexState::Clean),
        [one] => {
            let is_index_commit = repo
                .find_commit(*one)
                .map(|c| {
                    c.message_raw_sloppy()
                        .starts_with(format::INDEX_COMMIT_PREFIX.as_bytes())
                })
                .unwrap_or(false);
            if is_index_commit {
                (None, IndexState::Saved)
            } else {
                (Some(*one), IndexState::Clean)
            }
        }
        [first, ..] => (Some(*first), IndexState::Saved),
    }
}

/// Why creating a checkpoint ref did not happen.
#[derive(Debug)]
pub enum CreateError {
    /// Another checkpoint already has this id: make a new one and try again.
    IdTaken,
    /// Anything else.
    Other(Error),
}

impl From<Error> for CreateError {
    fn from(err: Error) -> Self {
        CreateError::Other(err)
    }
}

/// How long a writer keeps trying, in all, while other writers win the race for the notes ref
/// or hold a lock for a moment: enough for dozens of concurrent savers on a loaded machine,
/// short enough that a lock that does not go away is reported within seconds.
const RETRY_BUDGET: Duration = Duration::from_secs(5);

/// A writer gives up only after this many attempts too, so that a machine too busy to make
/// many attempts within [`RETRY_BUDGET`] does not turn a lost race into a failed save.
const MIN_ATTEMPTS: u32 = 8;

/// A lock file older than this was left by a process that died (a transaction holds its locks
/// for milliseconds). Ours (the notes ref's, a checkpoint ref's) are then removed, so that one
/// killed save cannot block every later one; git's own (`packed-refs.lock`, reftable's
/// `tables.list.lock`) are reported instead.
const STALE_LOCK: Duration = Duration::from_secs(2);

/// The retry policy of ref transactions: a lost compare-and-swap or a lock held for a moment
/// is tried again after a pause; anything else, a lock that stays, or an exhausted budget is
/// an error at once.
pub(crate) struct Retry {
    started: Instant,
    attempt: u32,
}

impl Retry {
    pub(crate) fn new() -> Retry {
        Retry {
            started: Instant::now(),
            attempt: 0,
        }
    }

    /// Decide after `err`, the failure of a transaction editing `names`: `Ok` (after a pause)
    /// to try again, else the error to report, with `context` saying what was being done.
    pub(crate) fn again(
        &mut self,
        repo: &gix::Repository,
        err: EditError,
        names: &[&str],
        context: impl FnOnce() -> String,
    ) -> Result<()> {
        self.attempt += 1;
        let (lost_race, err) = match err {
            EditError::Conflict(err) => (true, err),
            EditError::Locked(err) => (false, err),
            // Said with what was being done; an error that is not git's (a git too old for
            // this repository) as it is.
            EditError::Failed(Error::Git { source, .. }) => {
                return Err(Error::Git {
                    context: context(),
                    source,
                });
            }
            EditError::Failed(err) => return Err(err),
        };
        let locked = !lost_race;
        let lock = if locked { held_lock(repo, names) } else { None };
        if let Some(lock) = &lock
            && lock.age > STALE_LOCK
        {
            if !lock.ours {
                return Err(Error::Locked(lock.path.clone()));
            }
            // Left by a process that died: nobody else will remove it.
            return match std::fs::remove_file(&lock.path) {
                Ok(()) => Ok(()),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
                Err(_) => Err(Error::Locked(lock.path.clone())),
            };
        }
        if self.started.elapsed() > RETRY_BUDGET && self.attempt >= MIN_ATTEMPTS {
            return Err(match lock {
                Some(lock) => Error::Locked(lock.path),
                None if lost_race => Error::Contention(NOTES_REF.into()),
                None => Error::Git {
                    context: context(),
                    source: err,
                },
            });
        }
        // Sleep a little, more after each lost race, with jitter so that racing writers
        // spread out.
        let base = 1u64 << self.attempt.min(5);
        let jitter = rand::random::<u64>() % (base * 2 + 1);
        std::thread::sleep(Duration::from_millis(base + jitter));
        Ok(())
    }
}

/// A lock file in the way of a transaction.
struct HeldLock {
    path: std::path::PathBuf,
    /// How long since it was last written.
    age: Duration,
    /// Whether only git-checkpoint takes it (a checkpoint ref's, the notes ref's), so that a
    /// stale one is ours to remove.
    ours: bool,
}

/// The lock file that stands in the way of a transaction editing `names`: the stalest of those
/// that can (see [`refdb::lock_files`]), if any exists.
fn held_lock(repo: &gix::Repository, names: &[&str]) -> Option<HeldLock> {
    refdb::lock_files(repo, names)
        .into_iter()
        .filter_map(|(path, ours)| {
            Some(HeldLock {
                age: lock_age(&path)?,
                path,
                ours,
            })
        })
        .max_by_key(|lock| lock.age)
}

/// How long ago the lock file at `path` was last written; `None` when there is none.
fn lock_age(path: &std::path::Path) -> Option<Duration> {
    let modified = std::fs::metadata(path).ok()?.modified().ok();
    // A time in the future (clock skew) counts as fresh.
    Some(modified.and_then(|t| t.elapsed().ok()).unwrap_or_default())
}

/// Remove the lock files of checkpoint refs that do not exist, left by a process killed while
/// it created one (a restore's safety checkpoint, a save): nothing takes that name again, so
/// nothing else would ever remove them. Only locks older than [`STALE_LOCK`]: a younger one
/// may be a transaction under way. (Reftable repositories have no lock file per ref.) Never
/// fails: what cannot be removed stays for a later sweep.
pub(crate) fn sweep_stale_locks(repo: &gix::Repository) {
    for (name, path) in refdb::loose_locks(repo, format::REF_PREFIX) {
        let stale = lock_age(&path).is_some_and(|age| age > STALE_LOCK);
        if stale && matches!(refdb::find(repo, &name), Ok(None)) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Create `refs/checkpoints/<id>` pointing at `commit` and attach `meta` as its note, in one ref
/// transaction: the checkpoint ref must not exist, the notes ref must still be what was read.
/// A lost race for the notes ref is retried with a fresh read; a taken id is reported.
///
/// When `refs/notes/checkpoints` cannot be read at all, writing a note would drop every other
/// note with it: the checkpoint ref is then created alone (its commit's trailers still carry
/// its id, kind and message), the damaged notes ref is left for the user to repair, and the
/// returned text says why the note is missing. `Ok(None)`: ref and note were both written.
pub fn create(
    repo: &gix::Repository,
    id: &str,
    commit: ObjectId,
    meta: &Metadata,
    conversation: Option<ObjectId>,
) -> std::result::Result<Option<String>, CreateError> {
    let ref_name = format::ref_name(id);
    let note = meta.to_note();
    let blob = crate::repo::retry_write(|| repo.write_blob(note.as_bytes()))
        .context(|| "cannot write the note".into())?
        .detach();
    let message = format!("checkpoint: note for {id}");
    let mut retry = Retry::new();
    loop {
        if refdb::find(repo, &ref_name)?.is_some() {
            return Err(CreateError::IdTaken);
        }
        let mut edits = vec![Edit {
            name: ref_name.clone(),
            new: Some(commit),
            expect: Expect::MustNotExist,
        }];
        let mut names = vec![ref_name.as_str()];
        // The conversation with it, in the same transaction (after it: a process killed in
        // between leaves a checkpoint without its conversation, never a stray conversation).
        let conversation_ref = format::conversation_ref_name(id);
        if let Some(conversation) = conversation {
            edits.push(Edit {
                name: conversation_ref.clone(),
                new: Some(conversation),
                expect: Expect::Any,
            });
            names.push(conversation_ref.as_str());
        }
        let mut moved = None;
        let note_problem = match read_notes_or_damage(repo)? {
            Ok(notes) => {
                let tip = notes.as_ref().map(|n| n.tip);
                let notes_commit = notes_commit(
                    repo,
                    notes.map(|n| n.state),
                    &[(commit, Some(blob))],
                    &message,
                )?;
                // The note first: on the files backend the refs of one transaction are renamed
                // into place one after the other, in this order, and a process killed between
                // the two must leave an unused note (harmless) rather than a checkpoint without
                // its note. (On reftable both change in one table write.)
                edits.insert(0, notes_edit(tip, notes_commit));
                names.insert(0, NOTES_REF);
                moved = Some((tip, notes_commit));
                None
            }
            Err(why) => Some(format!("its note was not written: {why}")),
        };
        match refdb::edit(repo, &edits) {
            Ok(()) => {
                if let Some((from, to)) = moved {
                    notecache::append(repo, from, to, &[(commit, blob, note.as_bytes())]);
                }
                return Ok(note_problem);
            }
            Err(err) => retry.again(repo, err, &names, || format!("cannot create {ref_name}"))?,
        }
    }
}

/// [`notes_commit`] on top of the notes commit `tip` (`None`: no notes yet).
pub(crate) fn notes_commit_on(
    repo: &gix::Repository,
    tip: Option<ObjectId>,
    edits: &[(ObjectId, Option<ObjectId>)],
    message: &str,
) -> Result<ObjectId> {
    let state = tip.map(|tip| notes_state(repo, tip)).transpose()?;
    notes_commit(repo, state, edits, message)
}

/// Write a notes commit of `notes` (`None`: no notes yet) with `edits` applied (`None` removes
/// a note). Notes commits have no parent: the notes ref keeps no history, so dropped metadata
/// does not linger.
fn notes_commit(
    repo: &gix::Repository,
    notes: Option<NotesState>,
    edits: &[(ObjectId, Option<ObjectId>)],
    message: &str,
) -> Result<ObjectId> {
    let mut state = match notes {
        Some(state) => state,
        None => NotesState::new(ObjectId::empty_tree(repo.object_hash()), &repo.objects)
            .context(|| format!("cannot read {NOTES_REF}"))?,
    };
    for (annotated, blob) in edits {
        state
            .edit(*annotated, *blob, &repo.objects)
            .context(|| format!("cannot update {NOTES_REF}"))?;
    }
    let tree = crate::repo::retry_write(|| state.write(&repo.objects))
        .context(|| format!("cannot write {NOTES_REF}"))?;
    crate::repo::new_commit(repo, message, tree, Vec::<ObjectId>::new())
}

/// The edit moving the notes ref from `tip` to `new`, failing if someone moved it meanwhile.
pub(crate) fn notes_edit(tip: Option<ObjectId>, new: ObjectId) -> Edit {
    Edit {
        name: NOTES_REF.into(),
        new: Some(new),
        expect: match tip {
            Some(tip) => Expect::Is(tip),
            None => Expect::MustNotExist,
        },
    }
}

/// Delete checkpoints (refs and notes) in one ref transaction with one notes commit. With
/// `clean_orphans`, notes whose checkpoint ref is gone are removed too. Retried when another
/// writer moves the notes ref meanwhile.
pub fn delete(
    repo: &gix::Repository,
    checkpoints: &[Checkpoint],
    clean_orphans: bool,
) -> Result<()> {
    let ids: Vec<String> = checkpoints.iter().map(|c| c.id.clone()).collect();
    delete_ids(repo, &ids, clean_orphans)
}

/// [`delete`] by id: also deletes refs under `refs/checkpoints/` that are not readable
/// checkpoints (see [`refs_reporting`]). Ids that name no ref are ignored. The notes commit
/// says which it was, a prune (`clean_orphans`) or a drop, for whoever watches the store.
pub fn delete_ids(repo: &gix::Repository, ids: &[String], clean_orphans: bool) -> Result<()> {
    let mut retry = Retry::new();
    loop {
        // Read the notes tip before the refs: a save that lands after this read moves the tip,
        // and the compare-and-swap below then fails and retries. Notes that cannot be read are
        // left alone: the refs go, and their notes stay in the damaged tree (as orphans that a
        // prune removes once the notes ref is repaired).
        let notes = read_notes_or_damage(repo)?.ok().flatten();
        let (live, broken) = refs_reporting(repo)?;
        let mut edits = Vec::new();
        let mut note_edits: Vec<(ObjectId, Option<ObjectId>)> = Vec::new();
        for id in ids {
            let expect = if let Some(current) = live.iter().find(|r| r.id == *id) {
                note_edits.push((current.commit, None));
                Expect::Is(current.commit)
            } else if broken.iter().any(|b| b.id.as_ref() == Some(id)) {
                Expect::MustExist
            } else {
                continue;
            };
            edits.push(Edit {
                name: format::ref_name(id),
                new: None,
                expect,
            });
        }
        // Their conversations go with them (in the same transaction).
        for (name, value) in refdb::names(repo, format::CONVERSATION_PREFIX)? {
            let Some(id) = name.strip_prefix(format::CONVERSATION_PREFIX) else {
                continue;
            };
            // With orphans cleaned: also a conversation whose checkpoint ref is gone (deleted
            // by hand; a save creates both in one transaction).
            let orphan = clean_orphans && !has_ref(&live, &broken, id);
            if ids.iter().any(|i| i == id) || orphan {
                edits.push(Edit {
                    name: name.clone(),
                    new: None,
                    expect: match value {
                        Some(Value::Object(target)) => Expect::Is(target),
                        _ => Expect::MustExist,
                    },
                });
            }
        }
        if clean_orphans {
            let keep: std::collections::HashSet<ObjectId> = live
                .iter()
                .filter(|r| !ids.contains(&r.id))
                .map(|r| r.commit)
                .collect();
            for annotated in note_targets(repo, notes.as_ref())? {
                if !keep.contains(&annotated)
                    && !note_edits.iter().any(|(c, _)| *c == annotated)
                    && !maybe_in_flight(repo, annotated)
                {
                    note_edits.push((annotated, None));
                }
            }
        }
        let mut moved = None;
        if let Some(notes) = notes
            && !note_edits.is_empty()
        {
            let tip = notes.tip;
            let commit = notes_commit(
                repo,
                Some(notes.state),
                &note_edits,
                if clean_orphans {
                    format::NOTES_MESSAGE_PRUNE
                } else {
                    format::NOTES_MESSAGE_DROP
                },
            )?;
            edits.push(notes_edit(Some(tip), commit));
            moved = Some((tip, commit));
        }
        if edits.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = edits.iter().map(|e| e.name.as_str()).collect();
        match refdb::edit(repo, &edits) {
            Ok(()) => {
                if let Some((from, to)) = moved {
                    let removed: Vec<ObjectId> = note_edits.iter().map(|(c, _)| *c).collect();
                    notecache::forget(repo, from, to, &removed);
                }
                return Ok(());
            }
            Err(err) => retry.again(repo, err, &names, || "cannot delete checkpoints".into())?,
        }
    }
}

/// Point each checkpoint of `moves` (id, the commit its ref holds, the new commit) at its new
/// commit and move its note there, in one ref transaction with one notes commit: a ref that
/// moved meanwhile fails the whole transaction, which is retried after a fresh read of the
/// notes. The checkpoint keeps its id, its note and everything else; only its commit changes
/// (`repair` rewrites a commit whose tree git cannot read).
pub(crate) fn move_checkpoints(
    repo: &gix::Repository,
    moves: &[(String, ObjectId, ObjectId)],
) -> Result<()> {
    if moves.is_empty() {
        return Ok(());
    }
    let mut retry = Retry::new();
    loop {
        // A notes ref that cannot be read is refused (Error::NotesDamaged): a new notes tree
        // would drop every note in it.
        let mut notes = read_notes(repo)?;
        let tip = notes.as_ref().map(|n| n.tip);
        let mut edits = Vec::new();
        let mut note_edits: Vec<(ObjectId, Option<ObjectId>)> = Vec::new();
        for (id, old, new) in moves {
            edits.push(Edit {
                name: format::ref_name(id),
                new: Some(*new),
                expect: Expect::Is(*old),
            });
            if let Some(notes) = notes.as_mut()
                && let Some(blob) = notes
                    .state
                    .get(old, &repo.objects)
                    .context(|| format!("cannot read the note of {old}"))?
            {
                note_edits.push((*old, None));
                note_edits.push((*new, Some(blob)));
            }
        }
        let mut moved = None;
        if let Some(notes) = notes
            && !note_edits.is_empty()
        {
            let commit = notes_commit(repo, Some(notes.state), &note_edits, "checkpoint: repair")?;
            edits.insert(0, notes_edit(tip, commit));
            moved = Some((notes.tip, commit));
        }
        let names: Vec<&str> = edits.iter().map(|e| e.name.as_str()).collect();
        match refdb::edit(repo, &edits) {
            Ok(()) => {
                if let Some((from, to)) = moved {
                    let old: Vec<ObjectId> = moves.iter().map(|(_, old, _)| *old).collect();
                    notecache::forget(repo, from, to, &old);
                }
                return Ok(());
            }
            Err(err) => retry.again(repo, err, &names, || "cannot repair checkpoints".into())?,
        }
    }
}

/// Set `pinned` in the note of `checkpoint`, with compare-and-swap and retry, and return
/// whether anything changed (`false`: it already was).
///
/// Only that one key changes: every other key of the note and its value stay as they are,
/// whatever version wrote it, so a note with a newer schema (from a colleague's newer version,
/// through `fetch`) keeps every field. A note this version cannot rewrite without loss (see
/// [`NoteJson::KeepAsIs`]) is refused, unchanged. A note that is missing, damaged, or that
/// names another checkpoint is replaced by the metadata derived from the commit, pinned as
/// asked.
pub fn set_pinned(repo: &gix::Repository, checkpoint: &Checkpoint, pinned: bool) -> Result<bool> {
    let mut retry = Retry::new();
    loop {
        // A notes ref that cannot be read is refused (Error::NotesDamaged): a new notes tree
        // would drop every note in it.
        let mut notes = read_notes(repo)?;
        let tip = notes.as_ref().map(|n| n.tip);
        let current = match notes.as_mut() {
            Some(n) => note_of(repo, &mut n.state, checkpoint.commit, None)
                .ok()
                .flatten(),
            None => None,
        };
        let edited = match current.as_deref().map(NoteJson::read) {
            Some(NoteJson::Object(map))
                if map.get("id").and_then(|v| v.as_str()) == Some(checkpoint.id.as_str()) =>
            {
                Some(map)
            }
            Some(NoteJson::KeepAsIs(why)) => {
                return Err(Error::Unsupported(format!(
                    "cannot {} checkpoint {}: its note {why}, and rewriting it here would lose some of it; {} it with the version that wrote it",
                    if pinned { "pin" } else { "unpin" },
                    checkpoint.id,
                    if pinned { "pin" } else { "unpin" },
                )));
            }
            _ => None,
        };
        let text = match edited {
            Some(mut map) => {
                if map.get("pinned") == Some(&serde_json::Value::Bool(pinned)) {
                    return Ok(false);
                }
                map.insert("pinned".into(), pinned.into());
                let mut text = serde_json::Value::Object(map).to_string();
                text.push('\n');
                text
            }
            None => {
                let mut meta = derive(
                    repo,
                    &CheckpointRef {
                        id: checkpoint.id.clone(),
                        commit: checkpoint.commit,
                    },
                )?;
                meta.pinned = pinned;
                meta.to_note()
            }
        };
        let blob = crate::repo::retry_write(|| repo.write_blob(text.as_bytes()))
            .context(|| "cannot write the note".into())?
            .detach();
        let new = notes_commit(
            repo,
            notes.map(|n| n.state),
            &[(checkpoint.commit, Some(blob))],
            &format!("checkpoint: update note of {}", checkpoint.id),
        )?;
        match refdb::edit(repo, &[notes_edit(tip, new)]) {
            Ok(()) => {
                notecache::append(
                    repo,
                    tip,
                    new,
                    &[(checkpoint.commit, blob, text.as_bytes())],
                );
                return Ok(true);
            }
            Err(err) => retry.again(repo, err, &[NOTES_REF], || {
                format!("cannot update {NOTES_REF}")
            })?,
        }
    }
}

/// Whether the note of `commit` may belong to a save that is putting its checkpoint in place
/// right now: [`create`] moves the notes ref into place before the checkpoint ref, holding the
/// checkpoint ref's lock until then, so a fresh lock of the ref the commit names means the
/// ref is about to exist. Orphan cleaning leaves such a note for a later prune. (In a reftable
/// repository a save's two refs change together, in one table: there is no such moment, and
/// no such lock file.)
fn maybe_in_flight(repo: &gix::Repository, commit: ObjectId) -> bool {
    let Ok(commit) = repo.find_commit(commit) else {
        return false;
    };
    let Ok(message) = commit.message_raw() else {
        return false;
    };
    let Some(id) = format::parse_commit_message(&message.to_str_lossy()).id else {
        return false;
    };
    if !format::is_id(&id) {
        return false;
    }
    let lock = repo
        .common_dir()
        .join(format!("{}.lock", format::ref_name(&id)));
    if lock_age(&lock).is_some_and(|age| age < Duration::from_secs(60)) {
        return true;
    }
    // No lock: the save either died or has just put its ref in place, after the caller listed
    // the refs. Looked at in this order (lock, then ref), one of the two is always seen.
    crate::refdb::find(repo, &format::ref_name(&id))
        .ok()
        .flatten()
        .is_some()
}

/// The objects annotated in the notes tree of `tip` (names in git's fanout layout).
fn note_targets(repo: &gix::Repository, notes: Option<&NotesTip>) -> Result<Vec<ObjectId>> {
    let Some(notes) = notes else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    collect_note_targets(repo, notes.tree, &mut String::new(), &mut out)?;
    Ok(out)
}

fn collect_note_targets(
    repo: &gix::Repository,
    tree: ObjectId,
    prefix: &mut String,
    out: &mut Vec<ObjectId>,
) -> Result<()> {
    let hex_len = repo.object_hash().len_in_hex();
    let tree_obj = repo
        .find_tree(tree)
        .context(|| format!("cannot read notes tree {tree}"))?;
    let decoded = tree_obj
        .decode()
        .context(|| format!("cannot read notes tree {tree}"))?;
    let entries: Vec<(String, bool, ObjectId)> = decoded
        .entries
        .iter()
        .map(|e| (e.filename.to_string(), e.mode.is_tree(), e.oid.to_owned()))
        .collect();
    for (name, is_tree, oid) in entries {
        if !name.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        let len = prefix.len();
        prefix.push_str(&name);
        if is_tree && prefix.len() < hex_len {
            collect_note_targets(repo, oid, prefix, out)?;
        } else if !is_tree
            && prefix.len() == hex_len
            && let Ok(id) = ObjectId::from_hex(prefix.as_bytes())
        {
            out.push(id);
        }
        prefix.truncate(len);
    }
    Ok(())
}

/// Notes in `refs/notes/checkpoints` whose checkpoint is not among `live`; none when the
/// notes ref cannot be read.
/// Whether checkpoint `id` has a ref, readable or not.
fn has_ref(live: &[CheckpointRef], broken: &[BrokenRef], id: &str) -> bool {
    live.iter().any(|r| r.id == id) || broken.iter().any(|b| b.id.as_deref() == Some(id))
}

/// The ids of the conversations (`refs/checkpoint-conversations/<id>`) whose checkpoint ref is
/// gone: deleted by hand, or by a tool other than this one.
pub fn orphan_conversations(repo: &gix::Repository) -> Result<Vec<String>> {
    let (live, broken) = refs_reporting(repo)?;
    Ok(refdb::names(repo, format::CONVERSATION_PREFIX)?
        .into_iter()
        .filter_map(|(name, _)| {
            let id = name.strip_prefix(format::CONVERSATION_PREFIX)?;
            (!has_ref(&live, &broken, id)).then(|| id.to_string())
        })
        .collect())
}

pub fn orphan_notes(repo: &gix::Repository, live: &[ObjectId]) -> Result<Vec<ObjectId>> {
    let live: std::collections::HashSet<&ObjectId> = live.iter().collect();
    let notes = read_notes_or_damage(repo)?.ok().flatten();
    Ok(note_targets(repo, notes.as_ref())?
        .into_iter()
        .filter(|id| !live.contains(id))
        .collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn json_written_directly_is_the_json_of_the_value() {
        let notes = [
            r#"{"schema":1,"id":"20260101-000000-abcdef","kind":"manual","created_at":"2026-01-01T00:00:00Z"}"#,
            r#"{"schema":1,"id":"x","name":"ünï\u009b","kind":"auto","created_at":"t","meta":{"b":1,"a":[true,null]},"future":{"z":1}}"#,
            r#"{"schema":1,"id":"x","kind":"auto","created_at":"t","commit":"not ours"}"#,
        ];
        for note in notes {
            let c = Checkpoint {
                id: "x".into(),
                commit: ObjectId::empty_tree(gix::hash::Kind::Sha1),
                meta: serde_json::from_str(note).unwrap(),
                note_problem: None,
            };
            let mut out = Vec::new();
            c.write_json(&mut out);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                c.to_json().to_string(),
                "{note}"
            );
        }
    }
}
