//! The storage format, version 1: ref names, the notes ref, the note's JSON schema, ids and
//! commit trailers. Everything that ends up in the repository is spelled here and nowhere else.
//!
//! # Upgrade path
//!
//! Every note carries `"schema"`. A reader accepts any schema it knows and keeps fields it does
//! not know (see [`Metadata::extra`]), so a note written by a newer version survives a rewrite by
//! an older one. A future schema 2 adds a reader for its own shape here and converts on read;
//! nothing is rewritten in bulk.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};

/// The namespace of checkpoint refs: `refs/checkpoints/<id>`.
pub const REF_PREFIX: &str = "refs/checkpoints/";
/// The notes ref holding every checkpoint's metadata.
pub const NOTES_REF: &str = "refs/notes/checkpoints";
/// Where `fetch` and `push` stage what they fetch from a remote while they work:
/// `refs/checkpoint-fetch/<run>/checkpoints/<id>` and `refs/checkpoint-fetch/<run>/notes`. Each
/// run deletes its own staging refs when it ends, and leftovers of a run that died are deleted
/// by a later one, so that nothing outside `refs/checkpoints/` keeps fetched objects alive.
pub const STAGING_PREFIX: &str = "refs/checkpoint-fetch/";
/// The namespace of the conversations kept with checkpoints: `refs/checkpoint-conversations/<id>`
/// points to a commit whose tree holds the conversation of checkpoint `<id>` (see
/// `crate::conversation`). Apart from `refs/checkpoints/`, so that a checkpoint pushed without
/// `--with-conversation` carries nothing of it; deleted with the checkpoint.
pub const CONVERSATION_PREFIX: &str = "refs/checkpoint-conversations/";
/// The schema version this build writes.
pub const SCHEMA: u32 = 1;
/// The largest note this version reads; bigger ones are treated as damaged.
pub const MAX_NOTE_BYTES: usize = 1024 * 1024;

/// Trailer naming the checkpoint id in the commit message.
pub const TRAILER_ID: &str = "Checkpoint-Id";
/// Trailer naming the kind.
pub const TRAILER_KIND: &str = "Checkpoint-Kind";
/// Trailer naming the name given with `--name`, when there is one.
pub const TRAILER_NAME: &str = "Checkpoint-Name";
/// Trailer naming the linked worktree the checkpoint was taken in, when not the main one.
pub const TRAILER_WORKTREE: &str = "Checkpoint-Worktree";
/// Trailer naming the agent session the checkpoint belongs to, when there is one.
pub const TRAILER_SESSION: &str = "Checkpoint-Session";

/// First words of the message of an index commit (the last parent holding the staged state).
pub const INDEX_COMMIT_PREFIX: &str = "index of checkpoint ";

/// The message of the index commit of checkpoint `id`.
pub fn index_commit_message(id: &str) -> String {
    format!("{INDEX_COMMIT_PREFIX}{id}\n")
}

/// The message of the notes commit that removes the notes of dropped checkpoints.
pub const NOTES_MESSAGE_DROP: &str = "checkpoint: drop";
/// The message of the notes commit that removes the notes of pruned checkpoints.
pub const NOTES_MESSAGE_PRUNE: &str = "checkpoint: prune";

/// The kind given when none is.
pub const DEFAULT_KIND: &str = "manual";
/// The kind of the safety checkpoint restore takes.
pub const KIND_PRE_RESTORE: &str = "pre-restore";
/// The kind of checkpoints made by a hook before an agent's tool call.
pub const KIND_AUTO: &str = "auto";
/// The kind of the checkpoint made when an agent session starts.
pub const KIND_SESSION: &str = "session";
/// How a session's first checkpoint is named on the command line: `session:<ID>`.
pub const SESSION_PREFIX: &str = "session:";

/// The full ref name of checkpoint `id`.
pub fn ref_name(id: &str) -> String {
    format!("{REF_PREFIX}{id}")
}

/// The full ref name of the conversation kept with checkpoint `id`.
pub fn conversation_ref_name(id: &str) -> String {
    format!("{CONVERSATION_PREFIX}{id}")
}

/// What the note says of the conversation kept with a checkpoint (its `conversation` field).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationNote {
    /// Its format: an agent's transcript (`claude-code`, `codex`, `gemini`, `copilot`,
    /// `cursor`), `json` or `text`. `None` when none was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Its size in bytes.
    #[serde(default)]
    pub bytes: u64,
    /// The file it was read from, when it was read from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Why none was kept, when a hook named a transcript that could not be kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// What `HEAD` was when the checkpoint was taken.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// The commit `HEAD` pointed to, `None` on an unborn branch.
    pub commit: Option<String>,
    /// The branch `HEAD` was on, `None` when detached.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
}

/// The state of the index when the checkpoint was taken.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IndexState {
    /// The index equalled `HEAD`'s tree: no index commit.
    #[default]
    Clean,
    /// The index differed from `HEAD`: it is the last parent of the checkpoint commit.
    Saved,
    /// The index had conflicts: it could not be saved as a tree.
    Unmerged,
}

impl IndexState {
    /// The word used in the note and in human output.
    pub fn as_str(self) -> &'static str {
        match self {
            IndexState::Clean => "clean",
            IndexState::Saved => "saved",
            IndexState::Unmerged => "unmerged",
        }
    }
}

/// How the checkpoint's tree differs from `HEAD`'s.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Files (blobs, symlinks, gitlinks) in the checkpoint tree.
    pub files: u64,
    /// Paths in the checkpoint but not in `HEAD`.
    pub added: u64,
    /// Paths in both whose content or mode differs.
    pub modified: u64,
    /// Paths in `HEAD` but not in the checkpoint.
    pub deleted: u64,
}

/// A path left out of the snapshot, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Path relative to the top of the working tree.
    pub path: String,
    /// `too-large` or `embedded-repo-no-commit`.
    pub reason: String,
    /// Size in bytes, for `too-large`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// Reason recorded for an untracked file above `checkpoint.maxFileSize`.
pub const SKIP_TOO_LARGE: &str = "too-large";
/// Reason recorded for an embedded repository without any commit.
pub const SKIP_EMBEDDED_NO_COMMIT: &str = "embedded-repo-no-commit";

/// Where a save found what looks like a secret: the path, the line and the rule; never the
/// value, nor any part of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretFinding {
    /// Path relative to the top of the working tree.
    pub path: String,
    /// The 1-based line where the rule matched; none for a rule on the file's name alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The rule's id (gitleaks' ids, e.g. `aws-access-token`, and `dotenv-secret`).
    pub rule: String,
}

/// The note's `secrets`: what the scan of a save found. Empty `findings`: the scan ran and
/// found nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretsNote {
    /// The findings, by path, then line (at most [`MAX_SECRET_FINDINGS`]).
    #[serde(default)]
    pub findings: Vec<SecretFinding>,
    /// Findings beyond [`MAX_SECRET_FINDINGS`], counted but not listed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted: u64,
    /// Files too large to scan (above the scan's size limit), not looked into.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unscanned: u64,
}

impl SecretsNote {
    /// How many findings, listed or not.
    pub fn count(&self) -> u64 {
        self.findings.len() as u64 + self.omitted
    }

    /// Where the findings are, in one line: `` `.env` line 3 (dotenv-secret), … and 4 more``,
    /// `shown` of them named.
    pub fn places(&self, shown: usize) -> String {
        let mut places: Vec<String> = self
            .findings
            .iter()
            .take(shown)
            .map(|f| match f.line {
                Some(line) => format!("`{}` line {line} ({})", f.path, f.rule),
                None => format!("`{}` ({})", f.path, f.rule),
            })
            .collect();
        let rest = self.count().saturating_sub(places.len() as u64);
        if rest > 0 {
            places.push(format!("{rest} more"));
        }
        places.join(", ")
    }

    /// How many, in words: `1 possible secret`, `3 possible secrets`.
    pub fn counted(&self) -> String {
        match self.count() {
            1 => "1 possible secret".to_string(),
            n => format!("{n} possible secrets"),
        }
    }

    /// The distinct paths of the listed findings, in order.
    pub fn paths(&self) -> Vec<&str> {
        let mut paths: Vec<&str> = self.findings.iter().map(|f| f.path.as_str()).collect();
        paths.dedup();
        paths
    }
}

/// The most findings a note lists.
pub const MAX_SECRET_FINDINGS: usize = 100;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The program that wrote a note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// Always `git-checkpoint` when written by this program.
    pub name: String,
    /// Its version.
    pub version: String,
}

impl Default for Tool {
    fn default() -> Self {
        Tool {
            name: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

/// A checkpoint's metadata: the JSON object stored in its note.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// Schema version of the note.
    pub schema: u32,
    /// The checkpoint id.
    pub id: String,
    /// The name given with `--name`.
    #[serde(default)]
    pub name: Option<String>,
    /// The message given with `-m`.
    #[serde(default)]
    pub message: Option<String>,
    /// The kind, e.g. `manual`, `auto`, `pre-restore`.
    pub kind: String,
    /// Creation time, RFC 3339 UTC with milliseconds.
    pub created_at: String,
    /// `HEAD` at the time.
    #[serde(default)]
    pub head: Head,
    /// The linked worktree's name, `None` for the main worktree.
    #[serde(default)]
    pub worktree: Option<String>,
    /// The agent session the checkpoint belongs to (`save --session`, or a hook's input).
    /// Left out of the note when there is none, so notes without sessions keep schema 1's
    /// original shape; older versions keep the field as an unknown one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The coding agent whose hook made the checkpoint (`claude-code`, `gemini`, `codex`,
    /// `cursor`, `copilot`, `cline`, `opencode`). Left out when there is none, like `session`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Where a checkpoint brought by `fetch` came from; `None` for checkpoints made here. A
    /// local fact: `push` never sends it. Fetched checkpoints are not counted by `@`, `@{N}` and
    /// `undo`, and are not pruned by a `keep` limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetched: Option<FetchedFrom>,
    /// On a safety checkpoint: the operation (restore, undo, redo, revert) it was taken
    /// before, and what that operation left. `undo` and `redo` read it to know what happened
    /// last. Left out of the note when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<Operation>,
    /// Whether the index was saved.
    #[serde(default)]
    pub index: IndexState,
    /// Differences from `HEAD`.
    #[serde(default)]
    pub stats: Stats,
    /// Paths left out.
    #[serde(default)]
    pub skipped: Vec<Skipped>,
    /// Pinned checkpoints are never pruned.
    #[serde(default)]
    pub pinned: bool,
    /// Free-form data given with `--meta` / `--meta-json`.
    #[serde(default)]
    pub meta: serde_json::Map<String, serde_json::Value>,
    /// The conversation kept with it (`refs/checkpoint-conversations/<id>`), or why a hook's
    /// transcript was not kept. Left out when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation: Option<ConversationNote>,
    /// What the secret scan of the save found in the files the checkpoint adds beyond `HEAD`
    /// (never a secret itself). Left out when no scan ran (`checkpoint.secrets=off`, an older
    /// version, a fetched checkpoint whose note had none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets: Option<SecretsNote>,
    /// The program that wrote the note.
    #[serde(default)]
    pub tool: Tool,
    /// Fields this version does not know, kept when the note is rewritten.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl Metadata {
    /// Serialize as the compact JSON stored in a note.
    pub fn to_note(&self) -> String {
        // Serializing plain data into a String cannot fail.
        let mut json = serde_json::to_string(self).unwrap_or_default();
        json.push('\n');
        json
    }

    /// Parse a note. Refuses notes above [`MAX_NOTE_BYTES`], invalid JSON and (through
    /// serde_json's recursion limit) hostile nesting, without panicking.
    pub fn from_note(bytes: &[u8]) -> Result<Metadata, NoteError> {
        if bytes.len() > MAX_NOTE_BYTES {
            return Err(NoteError::TooLarge(bytes.len() as u64));
        }
        let meta: Metadata = serde_json::from_slice(bytes).map_err(|e| {
            // A newer schema may have another shape: say that, rather than what is missing.
            match schema_of_text(bytes) {
                Some(schema) if schema > u64::from(SCHEMA) => {
                    NoteError::Schema(u32::try_from(schema).unwrap_or(u32::MAX))
                }
                _ => NoteError::Invalid(e.to_string()),
            }
        })?;
        if meta.schema == 0 || meta.schema > SCHEMA {
            return Err(NoteError::Schema(meta.schema));
        }
        Ok(meta)
    }

    /// The creation time, from `created_at` or else from the id.
    pub fn created(&self) -> Option<DateTime<Utc>> {
        DateTime::parse_from_rfc3339(&self.created_at)
            .ok()
            .map(|t| t.with_timezone(&Utc))
            .or_else(|| time_of_id(&self.id))
    }

    /// What a human reads as the checkpoint's label: its name, else its message.
    pub fn label(&self) -> &str {
        self.name
            .as_deref()
            .or(self.message.as_deref())
            .unwrap_or("")
    }
}

/// An operation that changed the working tree, as its safety checkpoint records it (the note
/// key `operation`). The safety checkpoint holds the state before the operation; `result` is
/// the tree the operation left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operation {
    /// What it was: `restore`, `undo`, `redo` or `revert`.
    pub name: String,
    /// The checkpoint it brought back (for `revert`, the step it took back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The tree (hex id) of the working tree the operation left.
    pub result: String,
    /// `undo`: where the walk back through this worktree's states stands: the id of the
    /// checkpoint whose state it brought back, with a `+` when it is the state an operation
    /// recorded in that checkpoint left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// `undo`: the undo before it in the same run of undos; `redo`: the undo a further redo
    /// takes back; `restore`, `revert`: the operation that was in effect before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<String>,
    /// `redo`: the undo it took back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undone: Option<String>,
}

/// Operation names recorded in [`Operation::name`].
pub const OP_RESTORE: &str = "restore";
/// See [`OP_RESTORE`].
pub const OP_UNDO: &str = "undo";
/// See [`OP_RESTORE`].
pub const OP_REDO: &str = "redo";
/// See [`OP_RESTORE`].
pub const OP_REVERT: &str = "revert";

/// The note key of [`Metadata::fetched`].
pub const FETCHED_KEY: &str = "fetched";

/// Where a fetched checkpoint came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchedFrom {
    /// The remote it was fetched from.
    pub remote: String,
    /// When, RFC 3339 UTC.
    pub at: String,
}

/// A note read as JSON without knowing its schema: what `pin`, `push` and `fetch`, which
/// carry notes of any version on, need to know before they rewrite one.
#[derive(Debug, Clone, PartialEq)]
pub enum NoteJson {
    /// A JSON object that can be rewritten without changing the meaning of anything in it:
    /// a note of a schema this version reads, or of a newer one that serde_json re-serializes
    /// exactly.
    Object(serde_json::Map<String, serde_json::Value>),
    /// A note this version must not rewrite: written by a newer version (or holding numbers
    /// that serde_json would round), whose every byte of meaning only its own writer knows.
    /// Kept exactly as it is; the string says why.
    KeepAsIs(String),
    /// Not a checkpoint note: damaged, too large, or not a JSON object.
    Damaged(NoteError),
}

impl NoteJson {
    /// Classify the bytes of a note.
    pub fn read(bytes: &[u8]) -> NoteJson {
        if bytes.len() > MAX_NOTE_BYTES {
            return NoteJson::Damaged(NoteError::TooLarge(bytes.len() as u64));
        }
        let newer = schema_of_text(bytes).filter(|schema| *schema > u64::from(SCHEMA));
        let map = match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(serde_json::Value::Object(map)) => map,
            Ok(_) => return NoteJson::Damaged(NoteError::Invalid("not a JSON object".into())),
            Err(err) => {
                return match newer {
                    Some(schema) => NoteJson::KeepAsIs(format!(
                        "was written by a newer version (schema {schema}) in a form this version cannot read"
                    )),
                    None => NoteJson::Damaged(NoteError::Invalid(err.to_string())),
                };
            }
        };
        if has_rounded_numbers(bytes) {
            return NoteJson::KeepAsIs(
                "holds numbers this version cannot write back exactly".into(),
            );
        }
        match map.get("schema").and_then(serde_json::Value::as_u64) {
            Some(schema) if schema > u64::from(SCHEMA) => NoteJson::Object(map),
            // A schema this version knows: the note must be one of its notes.
            _ => match Metadata::from_note(bytes) {
                Ok(_) => NoteJson::Object(map),
                Err(err) => NoteJson::Damaged(err),
            },
        }
    }
}

/// The value of the first `"schema"` key in a note's text, read without parsing the JSON: how
/// a note that this version cannot parse still tells that a newer version wrote it.
fn schema_of_text(bytes: &[u8]) -> Option<u64> {
    const KEY: &[u8] = b"\"schema\"";
    let at = bytes.windows(KEY.len()).position(|w| w == KEY)?;
    let rest = &bytes[at + KEY.len()..];
    let rest = rest
        .trim_ascii_start()
        .strip_prefix(b":")?
        .trim_ascii_start();
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()
}

/// Whether the JSON text holds a number that serde_json reads as something else than it says:
/// an integer beyond 64 bits (read as a rounded float) or a float out of range.
fn has_rounded_numbers(bytes: &[u8]) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if b == b'-' || b.is_ascii_digit() {
            let len = bytes[i..]
                .iter()
                .take_while(|c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E'))
                .count();
            let text = std::str::from_utf8(&bytes[i..i + len]).unwrap_or("");
            let exact = if text.contains(['.', 'e', 'E']) {
                text.parse::<f64>().is_ok_and(f64::is_finite)
            } else {
                text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok()
            };
            if !exact {
                return true;
            }
            i += len;
            continue;
        }
        i += 1;
    }
    false
}

/// Why a note could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoteError {
    /// The note is larger than [`MAX_NOTE_BYTES`].
    #[error("note is too large ({0} bytes)")]
    TooLarge(u64),
    /// The note is not the JSON object of the schema.
    #[error("note is not valid checkpoint JSON: {0}")]
    Invalid(String),
    /// The note has a schema this version does not know.
    #[error("note has unknown schema {0}")]
    Schema(u32),
}

/// Format a time as the note's `created_at`: RFC 3339, UTC, milliseconds.
pub fn rfc3339(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// A new id for a checkpoint created at `now`, with random digits `random` (only the low 12
/// bits are used).
pub fn new_id(now: DateTime<Utc>, random: u16) -> String {
    format!("{}{:03x}", now.format("%Y%m%d-%H%M%S-%3f"), random & 0xfff)
}

/// The smallest id greater than `id`, used when the clock gives an id not newer than the
/// newest existing one (clock skew, or many saves in one millisecond): ids only grow.
pub fn successor(id: &str) -> String {
    let mut bytes = id.as_bytes().to_vec();
    // Increment the trailing run of hex / decimal digits, carrying leftwards and skipping `-`.
    for i in (0..bytes.len()).rev() {
        let (next, carry) = match bytes[i] {
            b'0'..=b'8' | b'a'..=b'e' => (bytes[i] + 1, false),
            b'9' if i + 3 >= bytes.len() => (b'a', false),
            b'9' => (b'0', true),
            b'f' => (b'0', true),
            _ => continue,
        };
        bytes[i] = next;
        if !carry {
            return String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    format!("{id}0")
}

/// Whether `s` has the shape of an id: `YYYYMMDD-HHMMSS-mmmrrr`.
pub fn is_id(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 22
        && b[..8].iter().all(u8::is_ascii_digit)
        && b[8] == b'-'
        && b[9..15].iter().all(u8::is_ascii_digit)
        && b[15] == b'-'
        && b[16..19].iter().all(u8::is_ascii_digit)
        && b[19..]
            .iter()
            .all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
}

/// The creation time encoded in an id.
pub fn time_of_id(id: &str) -> Option<DateTime<Utc>> {
    if id.len() < 19 || !id.is_char_boundary(19) {
        return None;
    }
    let naive = NaiveDateTime::parse_from_str(&id[..19], "%Y%m%d-%H%M%S-%3f").ok()?;
    Some(Utc.from_utc_datetime(&naive))
}

/// Checks a kind: a short lowercase word (`a-z`, `0-9`, `-`, `_`), at most 32 bytes.
pub fn validate_kind(kind: &str) -> Result<(), String> {
    let ok = !kind.is_empty()
        && kind.len() <= 32
        && kind.as_bytes()[0].is_ascii_lowercase()
        && kind
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "invalid kind `{}`: use a short lowercase word such as `manual` or `auto`",
            kind.escape_debug()
        ))
    }
}

/// Checks a name: not empty, at most 200 bytes, no control characters, and not something that
/// would be read as another naming rule (`@`, `latest`, `@{N}`).
pub fn validate_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 200 {
        return Err("a checkpoint name must be 1 to 200 bytes long".into());
    }
    if name.chars().any(char::is_control) {
        return Err(format!(
            "invalid name `{}`: control characters are not allowed",
            name.escape_debug()
        ));
    }
    if name == "@" || name == "latest" || name.starts_with("@{") {
        return Err(format!(
            "invalid name `{name}`: it would be read as a position (`@`, `latest`, `@{{N}}`)"
        ));
    }
    if name.starts_with(SESSION_PREFIX) {
        return Err(format!(
            "invalid name `{name}`: `{SESSION_PREFIX}…` names the first checkpoint of a session"
        ));
    }
    Ok(())
}

/// Checks an agent's name: a short lowercase word, like a kind.
pub fn validate_agent(agent: &str) -> Result<(), String> {
    validate_kind(agent).map_err(|_| {
        format!(
            "invalid agent `{}`: use a short lowercase word such as `claude-code`",
            agent.escape_debug()
        )
    })
}

/// Checks a session id: 1 to 200 bytes, no control characters or white space (agents use
/// UUIDs and similar tokens).
pub fn validate_session(session: &str) -> Result<(), String> {
    if session.is_empty() || session.len() > 200 {
        return Err("a session id must be 1 to 200 bytes long".into());
    }
    if session.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(format!(
            "invalid session id `{}`: control characters and spaces are not allowed",
            session.escape_debug()
        ));
    }
    Ok(())
}

/// The fields a commit message carries, for listing a checkpoint whose note is lost.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageFields {
    /// The summary line without the `checkpoint: ` prefix, plus any body before the trailers.
    pub message: Option<String>,
    /// `Checkpoint-Id`.
    pub id: Option<String>,
    /// `Checkpoint-Kind`.
    pub kind: Option<String>,
    /// `Checkpoint-Name`.
    pub name: Option<String>,
    /// `Checkpoint-Worktree`.
    pub worktree: Option<String>,
    /// `Checkpoint-Session`.
    pub session: Option<String>,
}

/// The commit message of a checkpoint: a readable summary (the message, else the name, else
/// the branch), then trailers carrying `fields`. `branch` is the full ref `HEAD` is on.
///
/// The trailers are always the last paragraph, after a blank line, and there is always at
/// least one (`Checkpoint-Kind`, `manual` when `fields.kind` is `None`), so whatever the
/// message holds — even lines that look like trailers, or a paragraph of them — it can never
/// be read back as the trailer block by [`parse_commit_message`].
pub fn commit_message(fields: &MessageFields, branch: Option<&str>) -> String {
    let mut out = String::new();
    let name = fields.name.as_deref();
    match fields
        .message
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
    {
        Some(m) => {
            out.push_str("checkpoint: ");
            out.push_str(m);
        }
        None => match (name, branch) {
            (Some(n), _) => {
                out.push_str("checkpoint ");
                out.push_str(n);
            }
            (None, Some(b)) => {
                out.push_str("checkpoint on ");
                out.push_str(b.strip_prefix("refs/heads/").unwrap_or(b));
            }
            (None, None) => out.push_str("checkpoint on detached HEAD"),
        },
    }
    out.push_str("\n\n");
    // Trailer values must stay on one line.
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    let kind = Some(fields.kind.as_deref().unwrap_or(DEFAULT_KIND).to_string());
    for (key, value) in [
        (TRAILER_ID, &fields.id),
        (TRAILER_KIND, &kind),
        (TRAILER_NAME, &fields.name),
        (TRAILER_WORKTREE, &fields.worktree),
        (TRAILER_SESSION, &fields.session),
    ] {
        if let Some(value) = value {
            out.push_str(&format!("{key}: {}\n", one_line(value)));
        }
    }
    out
}

/// Read back what [`commit_message`] wrote.
///
/// Only the trailer block counts: the last paragraph, when it is not the summary and every
/// line of it is a trailer (`Token: value`; tokens this version does not know are skipped).
/// Trailer-like lines anywhere else belong to the message.
pub fn parse_commit_message(text: &str) -> MessageFields {
    let mut fields = MessageFields::default();
    let lines: Vec<&str> = text.lines().collect();
    let blank = |line: &&&str| line.trim().is_empty();
    let end = lines.len() - lines.iter().rev().take_while(blank).count();
    let start = end - lines[..end].iter().rev().take_while(|l| !blank(l)).count();
    let has_summary = lines[..start].iter().any(|l| !blank(&l));
    let block = &lines[start..end];
    let is_trailer_block = has_summary && !block.is_empty() && block.iter().all(|l| is_trailer(l));
    let body_end = if is_trailer_block { start } else { end };
    if is_trailer_block {
        for line in block {
            let Some((key, value)) = line.split_once(": ") else {
                continue;
            };
            let value = Some(value.trim().to_string());
            match key {
                TRAILER_ID => fields.id = value,
                TRAILER_KIND => fields.kind = value,
                TRAILER_NAME => fields.name = value,
                TRAILER_WORKTREE => fields.worktree = value,
                TRAILER_SESSION => fields.session = value,
                _ => {}
            }
        }
    }
    let body = lines[..body_end].join("\n");
    if let Some(m) = body.trim().strip_prefix("checkpoint: ") {
        fields.message = Some(m.to_string());
    }
    fields
}

/// Whether `line` has the shape of a trailer: a token of letters, digits and `-`, then `: `.
fn is_trailer(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(token, _)| {
        !token.is_empty()
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_sort_by_time_and_have_the_documented_shape() {
        let t1 = Utc.with_ymd_and_hms(2026, 11, 22, 14, 30, 22).single();
        let Some(t1) = t1 else {
            unreachable!("a valid date")
        };
        let t2 = t1 + chrono::Duration::milliseconds(481);
        let a = new_id(t1, 0xfff);
        let b = new_id(t2, 0x000);
        assert_eq!(a, "20261122-143022-000fff");
        assert_eq!(b, "20261122-143022-481000");
        assert!(a < b);
        assert!(is_id(&a) && is_id(&b));
        assert_eq!(time_of_id(&b), Some(t2));
    }

    #[test]
    fn successor_is_the_next_id() {
        for id in [
            "20261122-143022-481a2b",
            "20261122-143022-481fff",
            "20261122-143022-999fff",
            "20261122-143022-48109f",
        ] {
            let next = successor(id);
            assert!(next.as_str() > id, "{next} > {id}");
            assert!(is_id(&next), "{next}");
        }
        assert_eq!(
            successor("20261122-143022-481a2b"),
            "20261122-143022-481a2c"
        );
        assert_eq!(
            successor("20261122-143022-481a2f"),
            "20261122-143022-481a30"
        );
        assert_eq!(
            successor("20261122-143022-481a99"),
            "20261122-143022-481a9a"
        );
    }

    #[test]
    fn note_round_trip_keeps_unknown_fields() {
        let json = r#"{"schema":1,"id":"20261122-143022-481a2b","kind":"auto","created_at":"2026-11-22T14:30:22.481Z","future":{"x":[1,2]},"pinned":true}"#;
        let meta = Metadata::from_note(json.as_bytes());
        let Ok(mut meta) = meta else {
            unreachable!("valid note rejected: {meta:?}")
        };
        assert!(meta.pinned);
        meta.pinned = false;
        let again = meta.to_note();
        assert!(again.contains(r#""future":{"x":[1,2]}"#), "{again}");
        assert!(again.contains(r#""pinned":false"#), "{again}");
    }

    #[test]
    fn hostile_notes_are_errors_not_panics() {
        let deep = "[".repeat(100_000);
        assert!(Metadata::from_note(deep.as_bytes()).is_err());
        let huge = vec![b' '; MAX_NOTE_BYTES + 1];
        assert!(matches!(
            Metadata::from_note(&huge),
            Err(NoteError::TooLarge(_))
        ));
        assert!(Metadata::from_note(b"garbage{").is_err());
        assert!(
            Metadata::from_note(b"{\"schema\":99,\"id\":\"x\",\"kind\":\"k\",\"created_at\":\"\"}")
                .is_err()
        );
    }

    #[test]
    fn notes_of_any_schema_are_classified_before_a_rewrite() {
        let kind = |text: &str| match NoteJson::read(text.as_bytes()) {
            NoteJson::Object(_) => "object",
            NoteJson::KeepAsIs(_) => "keep",
            NoteJson::Damaged(_) => "damaged",
        };
        let ours = r#"{"schema":1,"id":"x","kind":"k","created_at":"","meta":{"n":-12,"f":1.5e3}}"#;
        assert_eq!(kind(ours), "object");
        // A newer schema is an object to carry on, whatever its shape.
        assert_eq!(
            kind(r#"{"schema":2,"id":"x","kind":["new"],"more":{}}"#),
            "object"
        );
        // ... unless serde_json would round a number of it, or cannot read it at all.
        assert_eq!(
            kind(r#"{"schema":2,"id":"x","n":123456789012345678901234567890}"#),
            "keep"
        );
        assert_eq!(kind(r#"{"schema": 3 ,"id":"x","n":1e400}"#), "keep");
        assert_eq!(
            kind(r#"{"schema":1,"id":"x","kind":"k","created_at":"","n":99999999999999999999}"#),
            "keep"
        );
        // Digits inside strings are text.
        assert_eq!(
            kind(
                r#"{"schema":1,"id":"x","kind":"k","created_at":"","m":"123456789012345678901234567890 \" 1e999"}"#
            ),
            "object"
        );
        // Damaged: not JSON, not an object, a schema-1 note that is not one, too large.
        assert_eq!(kind(r#"{"schema":1,"id":"#), "damaged");
        assert_eq!(kind("[1]"), "damaged");
        assert_eq!(kind(r#"{"schema":1,"id":"x"}"#), "damaged");
        assert_eq!(kind(&" ".repeat(MAX_NOTE_BYTES + 1)), "damaged");
        assert_eq!(kind(&"[".repeat(100_000)), "damaged");
    }

    #[test]
    fn commit_message_trailers_round_trip() {
        let fields = MessageFields {
            message: Some("before refactor\nsecond line".into()),
            id: Some("20261122-143022-481a2b".into()),
            kind: Some("auto".into()),
            name: Some("n1".into()),
            worktree: Some("wt".into()),
            session: Some("5f2c-77".into()),
        };
        let msg = commit_message(&fields, Some("refs/heads/main"));
        assert!(msg.starts_with("checkpoint: before refactor\n"));
        let f = parse_commit_message(&msg);
        assert_eq!(f.id.as_deref(), Some("20261122-143022-481a2b"));
        assert_eq!(f.kind.as_deref(), Some("auto"));
        assert_eq!(f.name.as_deref(), Some("n1"));
        assert_eq!(f.worktree.as_deref(), Some("wt"));
        assert_eq!(f.session.as_deref(), Some("5f2c-77"));
        assert_eq!(f.message.as_deref(), Some("before refactor\nsecond line"));
        assert_eq!(f, fields);
        let plain = commit_message(
            &MessageFields {
                id: Some("x".into()),
                kind: Some("manual".into()),
                ..Default::default()
            },
            Some("refs/heads/dev"),
        );
        assert!(plain.starts_with("checkpoint on dev\n"));
        assert_eq!(parse_commit_message(&plain).message, None);
    }

    #[test]
    fn only_the_final_trailer_block_is_read() {
        // Trailer lookalikes in the message, on its own lines or as a paragraph of their own.
        for message in [
            "hi\nCheckpoint-Worktree: other\nCheckpoint-Name: fake",
            "hi\n\nCheckpoint-Worktree: other\nCheckpoint-Session: s\nCheckpoint-Id: x",
            "hi\n\nCheckpoint-Worktree: other\n\n\n",
            "Checkpoint-Kind: evil",
        ] {
            for kind in [Some("auto".to_string()), None] {
                let fields = MessageFields {
                    message: Some(message.trim().into()),
                    id: Some("20261122-143022-481a2b".into()),
                    kind: kind.clone(),
                    ..Default::default()
                };
                let parsed = parse_commit_message(&commit_message(&fields, None));
                let expected = MessageFields {
                    kind: Some(kind.unwrap_or_else(|| DEFAULT_KIND.into())),
                    ..fields
                };
                assert_eq!(parsed, expected, "{message:?}");
            }
        }
        // Not written by us: a trailer-like line mixed with prose, or a lone trailer paragraph
        // without a summary, is no trailer block.
        let mixed = parse_commit_message("s\n\nCheckpoint-Id: x\nprose here\n");
        assert_eq!(mixed.id, None);
        assert_eq!(parse_commit_message("Checkpoint-Id: x\n").id, None);
        assert_eq!(parse_commit_message("").id, None);
        assert_eq!(parse_commit_message("\n\n").message, None);
        // Tokens this version does not know are skipped, not a reason to ignore the block.
        let future = parse_commit_message(
            "checkpoint: m\n\nCheckpoint-Id: x\nCheckpoint-Future: y\nCheckpoint-Kind: auto\n",
        );
        assert_eq!(future.id.as_deref(), Some("x"));
        assert_eq!(future.kind.as_deref(), Some("auto"));
        assert_eq!(future.message.as_deref(), Some("m"));
    }

    #[test]
    fn kinds_and_names_are_validated() {
        assert!(validate_kind("manual").is_ok());
        assert!(validate_kind("pre-restore").is_ok());
        assert!(validate_kind("Bad").is_err());
        assert!(validate_kind("").is_err());
        assert!(validate_kind("a b").is_err());
        assert!(validate_name("before refactor").is_ok());
        assert!(validate_name("@").is_err());
        assert!(validate_name("@{2}").is_err());
        assert!(validate_name("a\nb").is_err());
        assert!(validate_name("session:x").is_err());
        assert!(validate_session("0b6f7e1c-8a2d-4c1e-9f3a-2d5e6c7b8a90").is_ok());
        assert!(validate_session("a b").is_err());
        assert!(validate_session("a\nb").is_err());
        assert!(validate_session("").is_err());
    }
}
