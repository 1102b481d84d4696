//! Sharing checkpoints through a remote: `push` and `fetch`. Never automatic: nothing else in
//! the library calls them.
//!
//! The transfer goes through the `git` binary ([`crate::gitcli`]); everything else is done here
//! with gix. What travels is the checkpoint refs `refs/checkpoints/<id>` (with every object they
//! reach: the snapshot trees, the index commits and the `HEAD` commits the checkpoints were taken
//! on) and the notes of those checkpoints in `refs/notes/checkpoints`.
//!
//! # Notes are merged, never line-merged
//!
//! Notes commits have no parent (see [`crate::store`]), so the notes ref of two repositories
//! can never fast-forward: `push` and `fetch` merge notes themselves, as JSON. Notes of different
//! checkpoints are all kept (a union by annotated commit); when both sides have a note for the
//! same commit, the two JSON objects are merged key by key ([`merge_notes`]), recursively into
//! nested objects such as `"meta"`, and this repository's side wins where both have a key:
//! a local pin survives a fetch, and a push never changes what the remote says about keys it
//! already had unless this side has them too. git's `union` strategy, which concatenates lines
//! and corrupts JSON, is never used.
//!
//! # Fetched checkpoints are untrusted
//!
//! A fetch never overwrites a local checkpoint: a remote checkpoint whose id exists here with
//! another commit is left out (and reported). Refs whose name is not an id, that do not point to
//! a commit, and notes that are too large, are not a checkpoint's JSON, or name another
//! checkpoint, are left out with a warning. Notes are re-serialized by this library, so nothing
//! of the remote's notes tree itself enters the local one. Restoring a fetched checkpoint
//! validates its tree as it does for any other.
//!
//! ```no_run
//! use git_checkpoint::Checkpoints;
//!
//! let checkpoints = Checkpoints::open(std::path::Path::new("."))?;
//! let remote = checkpoints.remote(None)?;
//! let fetched = checkpoints.fetch(&remote, &git_checkpoint::Control::default())?;
//! println!("{} new, {} already here", fetched.fetched.len(), fetched.already);
//! # Ok::<(), git_checkpoint::Error>(())
//! ```

use std::collections::{BTreeMap, HashMap};

use gix::ObjectId;
use gix::bstr::BString;
use serde_json::{Map, Value};

use crate::control::Control;
use crate::error::{Context, Error, Result};
use crate::format::{self, FetchedFrom, NOTES_REF, REF_PREFIX, STAGING_PREFIX};
use crate::gitcli::{self, PushOutcome, PushUpdate};
use crate::refdb::{self, Edit, Expect};
use crate::store::{self, Checkpoint, Notes};

/// The remote used when none is given: the current branch's upstream remote
/// (`branch.<name>.remote`), else `origin`.
pub fn default_remote(repo: &gix::Repository) -> Result<String> {
    let head = refdb::head(repo)?.branch;
    if let Some(head) = head
        && let Ok(head) = refdb::full_name(&head)
        && let Some(branch) =
            head.as_ref()
                .category_and_short_name()
                .and_then(|(category, short)| {
                    (category == gix::refs::Category::LocalBranch).then_some(short)
                })
        && let Some(name) = repo.branch_remote_name(branch, gix::remote::Direction::Fetch)
    {
        let name = name.as_bstr().to_string();
        // `.` means the upstream is a branch of this repository: not a remote.
        if name != "." && !name.is_empty() {
            return Ok(name);
        }
    }
    if repo
        .remote_names()
        .iter()
        .any(|name| name.as_slice() == b"origin")
    {
        return Ok("origin".into());
    }
    Err(Error::Remote(
        "no remote given, the current branch has no upstream and there is no remote named `origin`"
            .into(),
    ))
}

/// `remote` when given, else [`default_remote`].
pub fn remote_or_default(repo: &gix::Repository, remote: Option<&str>) -> Result<String> {
    match remote {
        Some(remote) => Ok(remote.to_string()),
        None => default_remote(repo),
    }
}

/// Merge two notes key by key: every key of either side is kept; where both have a key, two
/// objects are merged the same way, and otherwise `winner`'s value is kept.
/// Merge two notes key by key: every key of either side is kept; where both have a key, two
/// objects are merged the same way, and otherwise `winner`'s value is kept. The merged note
/// has the newer of the two schemas.
pub fn merge_notes(winner: &Map<String, Value>, other: &Map<String, Value>) -> Map<String, Value> {
    let mut out = merge_objects(winner, other);
    // Fields of a newer schema may have come from `other`: the note is of the newer schema.
    let schema = |note: &Map<String, Value>| note.get("schema").and_then(Value::as_u64);
    if let (Some(ours), Some(theirs)) = (schema(winner), schema(other))
        && theirs > ours
    {
        out.insert("schema".into(), theirs.into());
    }
    out
}

/// Two JSON objects merged key by key, recursively, `winner`'s value kept where both have one.
fn merge_objects(winner: &Map<String, Value>, other: &Map<String, Value>) -> Map<String, Value> {
    let mut out = winner.clone();
    for (key, theirs) in other {
        match out.get_mut(key) {
            None => {
                out.insert(key.clone(), theirs.clone());
            }
            Some(Value::Object(ours)) => {
                if let Value::Object(theirs) = theirs {
                    *ours = merge_objects(ours, theirs);
                }
            }
            Some(_) => {}
        }
    }
    out
}

/// A checkpoint whose id is taken by another commit on the other side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The id.
    pub id: String,
    /// The commit of the checkpoint here.
    pub local: ObjectId,
    /// The commit of the checkpoint of that id on the remote.
    pub remote: ObjectId,
}

/// `remote` as it may be recorded and shown: a URL without the user and password it may carry
/// (`https://user:token@host/repo` → `https://host/repo`).
fn without_credentials(remote: &str) -> String {
    let Some((scheme, rest)) = remote.split_once("://") else {
        return remote.to_string();
    };
    let host_end = rest.find('/').unwrap_or(rest.len());
    match rest[..host_end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => remote.to_string(),
    }
}

/// Note keys that say whose a checkpoint is: a fetch never takes them from the remote for a
/// checkpoint that is already here.
const LOCAL_KEYS: &[&str] = &[format::FETCHED_KEY, "session", "worktree"];

/// What [`fetch`] did.
#[derive(Debug, Clone, Default)]
pub struct Fetched {
    /// The remote fetched from.
    pub remote: String,
    /// Ids of the checkpoints created here, newest first.
    pub fetched: Vec<String>,
    /// How many of the remote's checkpoints were already here (same id, same commit).
    pub already: usize,
    /// Remote checkpoints not imported because the id is taken here by another commit.
    pub conflicts: Vec<Conflict>,
    /// How many notes here were created or changed by merging the remote's.
    pub notes_merged: usize,
    /// What was left out and why, one line each.
    pub warnings: Vec<String>,
}

/// Fetch the checkpoints of `remote` and their notes, and import them here in one ref
/// transaction: each checkpoint whose id does not exist here is created, none is overwritten,
/// and the remote's notes of the checkpoints held here afterwards are merged into the local
/// notes (see the [module documentation](self)). A remote without checkpoints is not an error.
pub fn fetch(repo: &gix::Repository, remote: &str, ctl: &Control<'_>) -> Result<Fetched> {
    let mut report = Fetched {
        remote: remote.to_string(),
        ..Fetched::default()
    };
    ctl.check()?;
    clean_stale_staging(repo);
    let listed = RemoteState::list(repo, remote)?;
    if listed.checkpoints.is_empty() {
        return Ok(report);
    }
    let staging = Staging::new(repo);
    let mut refspecs = vec![format!("+{REF_PREFIX}*:{}*", staging.checkpoints_prefix())];
    if listed.notes.is_some() {
        refspecs.push(format!("+{NOTES_REF}:{}", staging.notes_ref()));
    }
    ctl.check()?;
    gitcli::fetch(repo, remote, &refspecs)?;
    // What the remote sent is staged (and dropped with `staging`); cancelled now, nothing
    // is imported.
    ctl.check()?;

    // What arrived, checked once.
    let mut arrived: Vec<(String, ObjectId)> = Vec::new();
    for (id, target) in staging.checkpoints()? {
        if !format::is_id(&id) {
            report.warnings.push(format!(
                "skipped remote ref `{}{}`: not a checkpoint id",
                REF_PREFIX,
                id.escape_debug()
            ));
        } else if repo.find_commit(target).is_err() {
            report.warnings.push(format!(
                "skipped remote checkpoint {id}: it is not a commit"
            ));
        } else {
            arrived.push((id, target));
        }
    }
    let remote_tip = staging.notes()?;

    let mut retry = store::Retry::new();
    loop {
        let mut round = Fetched {
            remote: remote.to_string(),
            warnings: report.warnings.clone(),
            ..Fetched::default()
        };
        let local_tip = store::notes_tip(repo)?;
        let mut held: HashMap<String, ObjectId> = store::refs(repo)?
            .into_iter()
            .map(|r| (r.id, r.commit))
            .collect();
        let mut edits = Vec::new();
        for (id, commit) in &arrived {
            match held.get(id) {
                Some(local) if local == commit => round.already += 1,
                Some(local) => {
                    round.warnings.push(format!(
                        "kept local checkpoint {id}: the remote's checkpoint of that id is another commit ({}), not fetched",
                        commit.to_hex_with_len(12)
                    ));
                    round.conflicts.push(Conflict {
                        id: id.clone(),
                        local: *local,
                        remote: *commit,
                    });
                }
                None => {
                    edits.push(Edit {
                        name: format::ref_name(id),
                        new: Some(*commit),
                        expect: Expect::MustNotExist,
                    });
                    round.fetched.push(id.clone());
                    held.insert(id.clone(), *commit);
                }
            }
        }
        round.fetched.sort_by(|a, b| b.cmp(a));

        let fetched_from = FetchedFrom {
            remote: without_credentials(remote),
            at: format::rfc3339(chrono::Utc::now()),
        };
        let note_edits = merged_local_notes(
            repo,
            local_tip,
            remote_tip,
            &held,
            (&round.fetched, &fetched_from),
            &mut round.warnings,
        )?;
        round.notes_merged = note_edits.len();
        if !note_edits.is_empty() {
            let commit = store::notes_commit_on(
                repo,
                local_tip,
                &note_edits,
                &format!("checkpoint: merge notes fetched from {remote}"),
            )?;
            edits.push(store::notes_edit(local_tip, commit));
        }
        if edits.is_empty() {
            return Ok(round);
        }
        let names: Vec<&str> = edits.iter().map(|e| e.name.as_str()).collect();
        // A checkpoint ref created meanwhile (by another fetch) is a lost race like any other:
        // the next round reads it and counts it as already here.
        match refdb::edit(repo, &edits) {
            Ok(()) => return Ok(round),
            Err(err) => retry.again(repo, err, &names, || {
                "cannot import the fetched checkpoints".into()
            })?,
        }
    }
}

/// The note edits that merge the remote's notes (`remote_tip`) of the checkpoints `held` here
/// into the local notes (`local_tip`), the local side winning on conflicting keys. The
/// checkpoints `created` by this fetch get a note in any case (derived from the commit when the
/// remote has none), marked with where they came from.
fn merged_local_notes(
    repo: &gix::Repository,
    local_tip: Option<ObjectId>,
    remote_tip: Option<ObjectId>,
    held: &HashMap<String, ObjectId>,
    (created, fetched_from): (&[String], &FetchedFrom),
    warnings: &mut Vec<String>,
) -> Result<Vec<(ObjectId, Option<ObjectId>)>> {
    let mut theirs = match Notes::at(repo, remote_tip) {
        Ok(notes) => notes,
        Err(err) => {
            warnings.push(format!(
                "the remote's notes could not be read, none were merged: {err}"
            ));
            Notes::at(repo, None)?
        }
    };
    let mut ours = Notes::at(repo, local_tip)?;
    let mut by_commit: BTreeMap<ObjectId, Vec<&str>> = BTreeMap::new();
    for (id, commit) in held {
        by_commit.entry(*commit).or_default().push(id);
    }
    let marker = serde_json::to_value(fetched_from).unwrap_or(Value::Null);
    let mut edits = Vec::new();
    for (commit, ids) in by_commit {
        let first = ids.first().copied().unwrap_or_default();
        let remote_note = side_note(repo, &mut theirs, commit, &ids, "the remote's", warnings);
        let new_here = ids.iter().find(|id| created.iter().any(|c| c == *id));
        let remote_note = match (remote_note, new_here) {
            (SideNote::Object(mut note), Some(_)) => {
                note.insert(format::FETCHED_KEY.into(), marker.clone());
                note
            }
            // Only the version that wrote it can add to it: it comes as it is.
            (SideNote::Keep(bytes, _), Some(_)) => {
                edits.push((commit, Some(write_blob(repo, &bytes)?)));
                continue;
            }
            (SideNote::None | SideNote::Damaged, Some(id)) => {
                let derived = store::derive(
                    repo,
                    &store::CheckpointRef {
                        id: id.to_string(),
                        commit,
                    },
                )?;
                let Value::Object(mut note) = serde_json::to_value(derived).unwrap_or_default()
                else {
                    continue;
                };
                note.insert(format::FETCHED_KEY.into(), marker.clone());
                note
            }
            (SideNote::Object(mut note), None) => {
                // Who a checkpoint made here belongs to is not the remote's to say.
                for key in LOCAL_KEYS {
                    note.remove(*key);
                }
                note
            }
            (SideNote::Keep(_, why), None) => {
                warnings.push(format!(
                    "left out the remote's note of {first}: it {why}, and this repository has the checkpoint already"
                ));
                continue;
            }
            (SideNote::None | SideNote::Damaged, None) => continue,
        };
        let merged = match side_note(repo, &mut ours, commit, &ids, "", &mut Vec::new()) {
            SideNote::Object(local) => {
                let merged = merge_notes(&local, &remote_note);
                if merged == local {
                    continue;
                }
                merged
            }
            SideNote::Keep(_, why) => {
                warnings.push(format!(
                    "kept this repository's note of {first} as it is: it {why}"
                ));
                continue;
            }
            // A damaged note here is replaced by the remote's.
            SideNote::None | SideNote::Damaged => remote_note,
        };
        edits.push((commit, Some(write_note(repo, &merged)?)));
    }
    Ok(edits)
}

/// The note of a checkpoint on one side of a push or fetch.
enum SideNote {
    /// There is none.
    None,
    /// A JSON object that can be merged and rewritten.
    Object(Map<String, Value>),
    /// A note that must travel or stay exactly as it is ([`format::NoteJson::KeepAsIs`]): its
    /// bytes, and why.
    Keep(Vec<u8>, String),
    /// Damaged, or naming another checkpoint than one of `ids`; a warning says so.
    Damaged,
}

/// The note of `commit` in `notes` (`whose`: "the remote's", for warnings; empty: no warning
/// for a damaged note).
fn side_note(
    repo: &gix::Repository,
    notes: &mut Notes,
    commit: ObjectId,
    ids: &[&str],
    whose: &str,
    warnings: &mut Vec<String>,
) -> SideNote {
    let first = ids.first().copied().unwrap_or_default();
    let mut damaged = |why: String| {
        if !whose.is_empty() {
            warnings.push(format!("skipped {whose} note of {first}: {why}"));
        }
        SideNote::Damaged
    };
    let bytes = match notes.raw(repo, commit) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return SideNote::None,
        Err(err) => return damaged(err.to_string()),
    };
    match format::NoteJson::read(&bytes) {
        format::NoteJson::Object(map) => match map.get("id").and_then(Value::as_str) {
            Some(id) if ids.contains(&id) => SideNote::Object(map),
            Some(id) => damaged(format!("it names checkpoint `{}`", id.escape_debug())),
            None => damaged("it names no checkpoint".into()),
        },
        format::NoteJson::KeepAsIs(why) => SideNote::Keep(bytes, why),
        format::NoteJson::Damaged(err) => damaged(err.to_string()),
    }
}

/// Write `note` as a note blob, in the compact form the store writes.
fn write_note(repo: &gix::Repository, note: &Map<String, Value>) -> Result<ObjectId> {
    let mut json = serde_json::to_string(note).map_err(|err| Error::Git {
        context: "cannot serialize a note".into(),
        source: Box::new(err),
    })?;
    json.push('\n');
    write_blob(repo, json.as_bytes())
}

/// Write the bytes of a note as a blob.
fn write_blob(repo: &gix::Repository, bytes: &[u8]) -> Result<ObjectId> {
    Ok(crate::repo::retry_write(|| repo.write_blob(bytes))
        .context(|| "cannot write a note".into())?
        .detach())
}

/// The files a checkpoint carries that are not in its `HEAD` commit: untracked files (possibly
/// secrets that were not ignored) and new staged ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exposure {
    /// The checkpoint id.
    pub id: String,
    /// Paths in the checkpoint's tree but not in its `HEAD` commit's, sorted.
    pub paths: Vec<BString>,
}

/// For each of `checkpoints`, the files it holds that its `HEAD` commit does not: what a push
/// sends that the branch does not.
pub fn exposure(repo: &gix::Repository, checkpoints: &[Checkpoint]) -> Result<Vec<Exposure>> {
    checkpoints
        .iter()
        .map(|c| {
            let head_tree = store::head_commit(repo, c.commit)?
                .map(|head| store::commit_tree(repo, head))
                .transpose()?;
            let tree = store::commit_tree(repo, c.commit)?;
            let paths = crate::treediff::changes(repo, head_tree, Some(tree))?
                .into_iter()
                .filter(|change| change.old.is_none())
                .map(|change| change.path)
                .collect();
            Ok(Exposure {
                id: c.id.clone(),
                paths,
            })
        })
        .collect()
}

/// A checkpoint with what looks like secrets (see `Checkpoints::secrets`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flagged {
    /// The checkpoint's id.
    pub id: String,
    /// Where, and by which rule (never the value).
    pub secrets: crate::format::SecretsNote,
}

/// What [`push`] did.
#[derive(Debug, Clone, Default)]
pub struct Pushed {
    /// The remote pushed to.
    pub remote: String,
    /// Ids of the checkpoints created on the remote.
    pub pushed: Vec<String>,
    /// Ids of the checkpoints the remote already had (same id, same commit).
    pub already: Vec<String>,
    /// Checkpoints not pushed because the remote has another commit under their id.
    pub rejected: Vec<Conflict>,
    /// How many notes on the remote were created or changed.
    pub notes_updated: usize,
    /// Whether the push was atomic (false when the remote cannot do atomic pushes).
    pub atomic: bool,
    /// Remarks, one line each (e.g. a damaged note on the remote replaced by ours).
    pub warnings: Vec<String>,
    /// Checkpoints whose conversation was sent (`--with-conversation`).
    pub conversations: Vec<String>,
    /// Checkpoints not pushed because of what looks like secrets in them (filled in by the
    /// façade's push, which holds them back unless told `allow_secrets`).
    pub held_back: Vec<Flagged>,
}

/// How many times a push is retried when the remote changed between reading and pushing.
const PUSH_ATTEMPTS: u32 = 5;

/// Push `checkpoints` and their notes to `remote`.
///
/// A checkpoint the remote already has is left alone; one whose id the remote holds with
/// another commit is rejected (see [`Pushed::rejected`]), never forced. The remote's notes are
/// read and merged with this repository's notes of the pushed checkpoints only (this side wins
/// on conflicting keys), so that nothing is said about checkpoints that are not pushed. The
/// checkpoint refs are pushed with a lease that they do not exist, the notes with a lease on
/// the notes commit that was read, in one atomic push (or, when the remote cannot do that, one
/// plain push); a push that loses a race is retried from a fresh read.
///
/// `before_sending` is called once, with the checkpoints about to be created on the remote,
/// right before the first push that sends any: the moment to warn about what travels with them
/// (see [`exposure`]).
pub fn push(
    repo: &gix::Repository,
    remote: &str,
    checkpoints: &[Checkpoint],
    with_conversation: bool,
    before_sending: &mut dyn FnMut(&[Checkpoint]),
    ctl: &Control<'_>,
) -> Result<Pushed> {
    ctl.check()?;
    clean_stale_staging(repo);
    let mut atomic = true;
    let mut warned = false;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut report = Pushed {
            remote: remote.to_string(),
            atomic,
            ..Pushed::default()
        };
        let listed = RemoteState::list(repo, remote)?;
        let mut updates = Vec::new();
        let mut noted = Vec::new();
        for c in checkpoints {
            match listed.checkpoints.get(&c.id) {
                Some(theirs) if *theirs == c.commit => {
                    report.already.push(c.id.clone());
                    noted.push(c);
                }
                Some(theirs) => report.rejected.push(Conflict {
                    id: c.id.clone(),
                    local: c.commit,
                    remote: *theirs,
                }),
                None => {
                    updates.push(PushUpdate {
                        src: c.commit,
                        dst: format::ref_name(&c.id),
                        expected: None,
                    });
                    report.pushed.push(c.id.clone());
                    noted.push(c);
                }
            }
        }

        if with_conversation {
            conversation_updates(repo, &listed, &noted, &mut updates, &mut report)?;
        }
        let staging = Staging::new(repo);
        let remote_tip = match listed.notes {
            None => None,
            Some(_) => {
                gitcli::fetch(
                    repo,
                    remote,
                    &[format!("+{NOTES_REF}:{}", staging.notes_ref())],
                )?;
                staging.notes()?
            }
        };
        let notes_update = merged_remote_notes(repo, remote, remote_tip, &noted, &mut report)?;
        if let Some(new) = notes_update {
            updates.push(PushUpdate {
                src: new,
                dst: NOTES_REF.into(),
                expected: remote_tip,
            });
        }
        if updates.is_empty() {
            return Ok(report);
        }
        if !warned && !report.pushed.is_empty() {
            warned = true;
            let sending: Vec<Checkpoint> = checkpoints
                .iter()
                .filter(|c| report.pushed.contains(&c.id))
                .cloned()
                .collect();
            before_sending(&sending);
        }
        ctl.check()?;
        match gitcli::push(repo, remote, &updates, atomic)? {
            PushOutcome::AtomicUnsupported => {
                atomic = false;
                attempt -= 1;
            }
            PushOutcome::Done(statuses) => {
                let Some(refused) = refusal(&statuses) else {
                    return Ok(report);
                };
                // A lease that failed, or a ref that moved between git's read and its update:
                // when the remote changed since it was read, start again from a fresh read.
                if RemoteState::list(repo, remote)? == listed {
                    return Err(Error::Remote(format!(
                        "`{remote}` refused `{}`: {}",
                        refused.dst, refused.summary
                    )));
                }
                if attempt >= PUSH_ATTEMPTS {
                    return Err(Error::Remote(format!(
                        "cannot push to `{remote}`: its checkpoints kept changing while pushing; try again"
                    )));
                }
            }
        }
    }
}

/// With `--with-conversation`: the conversations of the checkpoints pushed (or already there)
/// that the remote does not have yet. One the remote holds otherwise is left as it is there,
/// with a warning.
fn conversation_updates(
    repo: &gix::Repository,
    listed: &RemoteState,
    checkpoints: &[&Checkpoint],
    updates: &mut Vec<PushUpdate>,
    report: &mut Pushed,
) -> Result<()> {
    for c in checkpoints {
        let name = format::conversation_ref_name(&c.id);
        let Some(crate::refdb::Value::Object(ours)) = crate::refdb::find(repo, &name)? else {
            continue;
        };
        match listed.conversations.get(&c.id) {
            None => {
                updates.push(PushUpdate {
                    src: ours,
                    dst: name,
                    expected: None,
                });
                report.conversations.push(c.id.clone());
            }
            Some(theirs) if *theirs == ours => {}
            Some(_) => report.warnings.push(format!(
                "did not push the conversation of {}: the remote holds another one for it",
                c.id
            )),
        }
    }
    Ok(())
}

/// The refused ref that explains why a push failed, if one was refused. With `--atomic`, every
/// other ref of a refused push reads "atomic push failed": the cause is preferred.
fn refusal(statuses: &[gitcli::RefStatus]) -> Option<&gitcli::RefStatus> {
    statuses
        .iter()
        .find(|s| s.rejected() && !s.summary.contains("atomic push failed"))
        .or_else(|| statuses.iter().find(|s| s.rejected()))
}

/// The notes commit to push: the remote's notes (`remote_tip`) with this repository's notes of
/// `checkpoints` merged in. `None` when that changes nothing.
fn merged_remote_notes(
    repo: &gix::Repository,
    remote: &str,
    remote_tip: Option<ObjectId>,
    checkpoints: &[&Checkpoint],
    report: &mut Pushed,
) -> Result<Option<ObjectId>> {
    let mut ours = Notes::open(repo)?;
    let mut theirs = Notes::at(repo, remote_tip).map_err(|err| {
        Error::Remote(format!(
            "cannot read the checkpoint notes of `{remote}`: {err}"
        ))
    })?;
    let mut edits = Vec::new();
    for c in checkpoints {
        let ids = [c.id.as_str()];
        let mut local = match side_note(repo, &mut ours, c.commit, &ids, "", &mut Vec::new()) {
            SideNote::Object(local) => local,
            SideNote::None => continue,
            SideNote::Keep(_, why) => {
                report
                    .warnings
                    .push(format!("did not push the note of {}: it {why}", c.id));
                continue;
            }
            SideNote::Damaged => {
                report
                    .warnings
                    .push(format!("did not push the note of {}: it is damaged", c.id));
                continue;
            }
        };
        // Where this repository fetched it from is its own business.
        local.remove(format::FETCHED_KEY);
        let mut damaged = Vec::new();
        let merged = match side_note(
            repo,
            &mut theirs,
            c.commit,
            &ids,
            "the remote's",
            &mut damaged,
        ) {
            SideNote::Object(remote_note) => {
                let merged = merge_notes(&local, &remote_note);
                if merged == remote_note {
                    continue;
                }
                merged
            }
            SideNote::Keep(_, why) => {
                report.warnings.push(format!(
                    "left the remote's note of {} as it is: it {why}",
                    c.id
                ));
                continue;
            }
            SideNote::Damaged => {
                for warning in damaged {
                    report
                        .warnings
                        .push(format!("{warning}; replaced by this repository's"));
                }
                local
            }
            SideNote::None => local,
        };
        edits.push((c.commit, Some(write_note(repo, &merged)?)));
    }
    report.notes_updated = edits.len();
    if edits.is_empty() {
        return Ok(None);
    }
    store::notes_commit_on(repo, remote_tip, &edits, "checkpoint: notes").map(Some)
}

/// The checkpoint refs and notes tip of a remote, as `git ls-remote` lists them.
#[derive(Debug, PartialEq, Eq)]
struct RemoteState {
    checkpoints: HashMap<String, ObjectId>,
    notes: Option<ObjectId>,
    /// `refs/checkpoint-conversations/<id>` there, by id.
    conversations: HashMap<String, ObjectId>,
}

impl RemoteState {
    /// The remote's state; an error when the remote uses another object format than this
    /// repository (SHA-1 and SHA-256), which git cannot push or fetch between. `HEAD` is listed
    /// too so that a remote without checkpoints shows its format; a remote without any ref
    /// shows none, and then git's own refusal is turned into the same error
    /// ([`gitcli::push`], [`gitcli::fetch`]).
    fn list(repo: &gix::Repository, remote: &str) -> Result<RemoteState> {
        let pattern = format!("{REF_PREFIX}*");
        let conversations = format!("{}*", format::CONVERSATION_PREFIX);
        let refs = gitcli::ls_remote(repo, remote, &[&pattern, &conversations, NOTES_REF, "HEAD"])?;
        let ours = repo.object_hash();
        if let Some(other) = refs.iter().find(|r| r.id.kind() != ours) {
            return Err(Error::Remote(format!(
                "`{remote}` uses {} object ids and this repository {}: checkpoints cannot be pushed or fetched between them",
                hash_name(other.id.kind()),
                hash_name(ours)
            )));
        }
        let mut state = RemoteState {
            checkpoints: HashMap::new(),
            notes: None,
            conversations: HashMap::new(),
        };
        for r in refs {
            if r.name == NOTES_REF {
                state.notes = Some(r.id);
            } else if let Some(id) = r.name.strip_prefix(format::CONVERSATION_PREFIX) {
                state.conversations.insert(id.to_string(), r.id);
            } else if let Some(id) = r.name.strip_prefix(REF_PREFIX) {
                state.checkpoints.insert(id.to_string(), r.id);
            }
        }
        Ok(state)
    }
}

/// How people name an object format.
fn hash_name(kind: gix::hash::Kind) -> String {
    kind.to_string().to_ascii_uppercase().replace("SHA", "SHA-")
}

/// Staging refs older than this belong to a run that died: a run keeps them for as long as
/// one fetch takes.
const STALE_STAGING_SECS: u64 = 600;

/// This run's staging namespace under [`STAGING_PREFIX`], deleted when dropped.
struct Staging<'r> {
    repo: &'r gix::Repository,
    prefix: String,
}

impl<'r> Staging<'r> {
    fn new(repo: &'r gix::Repository) -> Staging<'r> {
        let prefix = format!(
            "{STAGING_PREFIX}{}-{}-{:04x}/",
            now_secs(),
            std::process::id(),
            rand::random::<u16>()
        );
        Staging { repo, prefix }
    }

    fn checkpoints_prefix(&self) -> String {
        format!("{}checkpoints/", self.prefix)
    }

    fn notes_ref(&self) -> String {
        format!("{}notes", self.prefix)
    }

    /// The staged checkpoints: id and the object the ref points to.
    fn checkpoints(&self) -> Result<Vec<(String, ObjectId)>> {
        let prefix = self.checkpoints_prefix();
        Ok(staging_refs(self.repo, &prefix)?
            .into_iter()
            .filter_map(|(name, id)| Some((name.strip_prefix(&prefix)?.to_string(), id?)))
            .collect())
    }

    /// The staged notes commit, if one was fetched.
    fn notes(&self) -> Result<Option<ObjectId>> {
        let name = self.notes_ref();
        match refdb::find(self.repo, &name)? {
            Some(refdb::Value::Unreadable(why)) => Err(Error::Remote(format!(
                "cannot read the fetched notes ({name}): {why}"
            ))),
            found => Ok(found.and_then(|v| v.object())),
        }
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        delete_refs(self.repo, |name| name.starts_with(&self.prefix));
        remove_empty_staging_dirs(self.repo);
    }
}

/// Remove the empty directories left under the staging namespace: gix does not always remove
/// the directories of the loose refs it deletes (e.g. when `GIT_DIR` is a relative path).
/// Only empty directories are removed; symlinks are not followed.
fn remove_empty_staging_dirs(repo: &gix::Repository) {
    fn remove_empty(dir: &std::path::Path) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    remove_empty(&entry.path());
                }
            }
        }
        let _ = std::fs::remove_dir(dir);
    }
    remove_empty(&repo.common_dir().join(STAGING_PREFIX.trim_end_matches('/')));
}

/// Delete the staging refs of earlier runs that died (older than [`STALE_STAGING_SECS`], or
/// not named like a run). Failures are ignored: a later run tries again.
fn clean_stale_staging(repo: &gix::Repository) {
    let now = now_secs();
    delete_refs(repo, |name| {
        let run = name
            .strip_prefix(STAGING_PREFIX)
            .and_then(|rest| rest.split('-').next())
            .and_then(|secs| secs.parse::<u64>().ok());
        run.is_none_or(|secs| now.saturating_sub(secs) > STALE_STAGING_SECS)
    });
    remove_empty_staging_dirs(repo);
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Refs whose full name starts with `prefix`, with the object each points to directly.
fn staging_refs(repo: &gix::Repository, prefix: &str) -> Result<Vec<(String, Option<ObjectId>)>> {
    let listing = refdb::list(repo, prefix)?;
    if let Some(why) = listing.unnamed.first() {
        return Err(Error::Remote(format!(
            "cannot read a ref under {prefix}: {why}"
        )));
    }
    Ok(listing
        .refs
        .into_iter()
        .map(|r| {
            let id = r.value.object();
            (r.name, id)
        })
        .collect())
}

/// Delete the refs under [`STAGING_PREFIX`] whose name `pick` chooses, ignoring failures.
fn delete_refs(repo: &gix::Repository, pick: impl Fn(&str) -> bool) {
    let Ok(refs) = staging_refs(repo, STAGING_PREFIX) else {
        return;
    };
    let edits: Vec<Edit> = refs
        .into_iter()
        .filter(|(name, _)| pick(name))
        .map(|(name, _)| Edit {
            name,
            new: None,
            expect: Expect::Any,
        })
        .collect();
    if !edits.is_empty() {
        let _ = refdb::edit(repo, &edits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(json: &str) -> Map<String, Value> {
        match serde_json::from_str(json) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }

    #[test]
    fn credentials_in_a_remote_url_are_never_recorded() {
        assert_eq!(
            without_credentials("https://user:tok@en@example.com/r.git"),
            "https://example.com/r.git"
        );
        assert_eq!(
            without_credentials("https://example.com/a@b"),
            "https://example.com/a@b"
        );
        assert_eq!(without_credentials("origin"), "origin");
        assert_eq!(without_credentials("git@host:repo"), "git@host:repo");
        assert_eq!(without_credentials("/srv/repo.git"), "/srv/repo.git");
    }

    #[test]
    fn merge_keeps_every_key_and_the_winner_wins_conflicts() {
        let ours = object(
            r#"{"id":"x","pinned":true,"meta":{"a":1,"both":"ours"},"skipped":[1],"head":{"ref":null}}"#,
        );
        let theirs = object(
            r#"{"id":"x","pinned":false,"meta":{"b":2,"both":"theirs"},"skipped":[2,3],"head":{"ref":"refs/heads/main","commit":"c"},"new":true}"#,
        );
        let merged = merge_notes(&ours, &theirs);
        assert_eq!(
            Value::Object(merged),
            serde_json::json!({
                "id": "x",
                "pinned": true,
                "meta": {"a": 1, "both": "ours", "b": 2},
                "skipped": [1],
                "head": {"ref": null, "commit": "c"},
                "new": true,
            })
        );
        let merged = merge_notes(&theirs, &ours);
        assert_eq!(merged["pinned"], Value::Bool(false));
        assert_eq!(merged["meta"]["both"], Value::from("theirs"));
        assert_eq!(merge_notes(&ours, &Map::new()), ours);
        assert_eq!(merge_notes(&Map::new(), &theirs), theirs);
    }

    #[test]
    fn a_value_and_an_object_under_one_key_do_not_mix() {
        let ours = object(r#"{"meta":"text"}"#);
        let theirs = object(r#"{"meta":{"a":1}}"#);
        assert_eq!(merge_notes(&ours, &theirs), ours);
        assert_eq!(merge_notes(&theirs, &ours), theirs);
    }
}
