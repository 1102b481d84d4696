//! The conversation kept with a checkpoint: an agent's transcript as it was at the save (or any
//! file or JSON value given), stored as git objects apart from the checkpoint's tree.
//!
//! `refs/checkpoint-conversations/<id>` points to a commit (no parent) whose tree holds
//! `conversation.json` (what it is: format, size, where it was read from) and the content cut
//! into blobs named `000000`, `000001`, …: a new blob starts at the first line end after
//! [`CHUNK`] bytes. Where the cuts fall depends only on the bytes before them, so an
//! append-only transcript saved again yields the same blobs for everything but its last piece
//! and what was appended: git stores those once, and each checkpoint costs about what was
//! appended since the one before. The checkpoint's own tree is untouched (the save oracle
//! still holds); the ref is created in the same transaction as the checkpoint's ref and
//! deleted with it, and `push` sends it only when asked.

use std::io::Read;
use std::path::Path;

use gix::ObjectId;
use gix::objs::tree;

use crate::error::{Context, Error, Result};
use crate::format;

/// The largest conversation kept: a transcript over this is left out, and the note says why.
pub const MAX_BYTES: u64 = 64 << 20;

/// A blob of the content ends at the first line end after this many bytes.
pub const CHUNK: usize = 64 << 10;

/// The name of the file describing the conversation in its tree.
const INFO: &str = "conversation.json";

/// A conversation to keep with a new checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConversationInput {
    /// Keep this content.
    Content {
        /// The bytes, as read.
        bytes: Vec<u8>,
        /// Their format (see [`format::ConversationNote::format`]).
        format: String,
        /// The file they were read from.
        source: Option<String>,
        /// Whether they are a hook's transcript, read from where the agent keeps its
        /// sessions: only then may a rewind write a new session beside it (see [`rewind`]).
        from_hook: bool,
    },
    /// A transcript was named but cannot be kept: why (recorded in the note).
    Skipped(String),
    /// A hook's transcript, read (see [`ConversationInput::resolved`]) only when the save
    /// makes a checkpoint.
    Transcript {
        /// The file the hook names.
        path: std::path::PathBuf,
        /// The agent whose hook it is.
        agent: Option<String>,
    },
}

impl ConversationInput {
    /// Read the transcript at `path` for a hook's save (its format `agent`'s, unless the
    /// content is plainly another agent's): never an error, a transcript that cannot
    /// be kept (missing, not a regular file, a symbolic link, larger than [`MAX_BYTES`],
    /// unreadable, empty, not in the agent's format) gives [`ConversationInput::Skipped`] with
    /// the reason.
    pub fn from_transcript(path: &Path, agent: Option<&str>) -> ConversationInput {
        ConversationInput::Transcript {
            path: path.to_path_buf(),
            agent: agent.map(str::to_string),
        }
    }

    /// What is kept: a hook's transcript read now ([`ConversationInput::Content`] or
    /// [`ConversationInput::Skipped`]); any other as it is.
    pub fn resolved(&self) -> ConversationInput {
        match self {
            ConversationInput::Transcript { path, agent } => {
                read_transcript(path, agent.as_deref())
            }
            other => other.clone(),
        }
    }

    /// A conversation given by the caller as a file (`save --conversation FILE`): any file of
    /// at most [`MAX_BYTES`], read now. Unlike a hook's transcript, one that cannot be read is
    /// an error.
    pub fn from_file(path: &Path) -> Result<ConversationInput> {
        let bytes = read_file(path, MAX_BYTES).map_err(|why| {
            Error::InvalidInput(why.replacen("the transcript", "the conversation", 1))
        })?;
        Ok(ConversationInput::from_bytes(
            bytes,
            Some(path.display().to_string()),
        ))
    }

    /// A conversation given as bytes: an agent's transcript when it is one (see
    /// [`crate::transcript::detect`]), else JSON when it is JSON, else text.
    pub fn from_bytes(bytes: Vec<u8>, source: Option<String>) -> ConversationInput {
        ConversationInput::Content {
            format: crate::transcript::detect(None, &bytes).name().to_string(),
            bytes,
            source,
            from_hook: false,
        }
    }

    /// A conversation given as a JSON value (the library's and Python's `conversation=`).
    pub fn from_json(value: &serde_json::Value) -> Result<ConversationInput> {
        let mut bytes = serde_json::to_vec(value)
            .map_err(|err| Error::InvalidInput(format!("the conversation is not JSON: {err}")))?;
        bytes.push(b'\n');
        if bytes.len() as u64 > MAX_BYTES {
            return Err(Error::InvalidInput(format!(
                "the conversation has {} bytes, more than the {MAX_BYTES} a conversation may have",
                bytes.len()
            )));
        }
        Ok(ConversationInput::Content {
            bytes,
            format: "json".into(),
            source: None,
            from_hook: false,
        })
    }

    /// The note's `conversation` field for it.
    pub fn note(&self) -> format::ConversationNote {
        match self {
            ConversationInput::Content { bytes, format, .. } => format::ConversationNote {
                format: Some(format.clone()),
                bytes: bytes.len() as u64,
                // Where it was read from stays in the conversation's own tree: the note
                // travels with every push.
                source: None,
                skipped: None,
            },
            ConversationInput::Skipped(why) => format::ConversationNote {
                skipped: Some(why.clone()),
                ..Default::default()
            },
            ConversationInput::Transcript { .. } => self.resolved().note(),
        }
    }
}

/// Read a hook's transcript: [`ConversationInput::from_transcript`], resolved.
fn read_transcript(path: &Path, agent: Option<&str>) -> ConversationInput {
    let bytes = match read_file(path, MAX_BYTES) {
        Ok(bytes) => bytes,
        Err(why) => return ConversationInput::Skipped(why),
    };
    let shown = path.display();
    if bytes.is_empty() {
        return ConversationInput::Skipped(format!("the transcript `{shown}` is empty"));
    }
    let format = crate::transcript::detect(agent, &bytes);
    // Its beginning must read as that format (the rest is read when it is shown): a file
    // that is not a transcript at all is not kept as one.
    let head = &bytes[..cuts(&bytes).first().copied().unwrap_or(bytes.len())];
    if format.is_agent()
        && let Err(why) = crate::transcript::turns(format, head)
    {
        return ConversationInput::Skipped(format!(
            "the transcript `{shown}` is not in {}'s format: {why}",
            format.name()
        ));
    }
    ConversationInput::Content {
        format: format.name().to_string(),
        bytes,
        source: Some(path.display().to_string()),
        from_hook: true,
    }
}

/// The bytes of the regular file at `path` (a symbolic link is refused: a transcript is the
/// agent's own file, and a link could point anywhere), at most `limit` of them.
pub fn read_file(path: &Path, limit: u64) -> std::result::Result<Vec<u8>, String> {
    let shown = path.display();
    let meta = std::fs::symlink_metadata(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => format!("the transcript `{shown}` does not exist"),
        _ => format!("the transcript `{shown}` cannot be read: {err}"),
    })?;
    if meta.file_type().is_symlink() {
        return Err(format!(
            "the transcript `{shown}` is a symbolic link; only a regular file is kept"
        ));
    }
    if !meta.is_file() {
        return Err(format!("the transcript `{shown}` is not a regular file"));
    }
    if meta.len() > limit {
        return Err(format!(
            "the transcript `{shown}` has {} bytes, more than the {limit} a conversation may have",
            meta.len()
        ));
    }
    let file = std::fs::File::open(path)
        .map_err(|err| format!("the transcript `{shown}` cannot be read: {err}"))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // It may grow while it is read (the agent writes on): what was there up to the limit.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| format!("the transcript `{shown}` cannot be read: {err}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "the transcript `{shown}` grew past the {limit} bytes a conversation may have"
        ));
    }
    Ok(bytes)
}

/// Where the blobs of `bytes` end: after the first line end past each [`CHUNK`] bytes (or at
/// the end).
fn cuts(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let from = (start + CHUNK).min(bytes.len());
        let end = match bytes[from..].iter().position(|&b| b == b'\n') {
            Some(at) if from < bytes.len() => from + at + 1,
            _ => bytes.len(),
        };
        out.push(end);
        start = end;
    }
    out
}

/// Write the objects of a conversation (resolved: see [`ConversationInput::resolved`]): its
/// blobs, its tree and the commit the ref will point to. Nothing refers to them until that
/// ref is created.
pub fn write(
    repo: &gix::Repository,
    id: &str,
    input: &ConversationInput,
) -> Result<Option<ObjectId>> {
    let ConversationInput::Content {
        bytes,
        format: kind,
        source,
        from_hook,
    } = input
    else {
        return Ok(None);
    };
    let mut entries = Vec::new();
    let mut start = 0;
    for (n, end) in cuts(bytes).into_iter().enumerate() {
        let blob = write_once(repo, &bytes[start..end])?;
        entries.push(tree::Entry {
            mode: tree::EntryKind::Blob.into(),
            filename: format!("{n:06}").into(),
            oid: blob,
        });
        start = end;
    }
    let info = serde_json::json!({
        "schema": 1,
        "checkpoint": id,
        "format": kind,
        "bytes": bytes.len(),
        "source": source,
        "origin": if *from_hook { "hook" } else { "given" },
    });
    let info = format!("{info}\n");
    let info = crate::repo::retry_write(|| repo.write_blob(info.as_bytes()))
        .context(|| "cannot write the conversation".into())?
        .detach();
    entries.push(tree::Entry {
        mode: tree::EntryKind::Blob.into(),
        filename: INFO.into(),
        oid: info,
    });
    entries.sort();
    let tree = gix::objs::Tree { entries };
    let tree = crate::repo::retry_write(|| repo.write_object(&tree))
        .context(|| "cannot write the conversation".into())?
        .detach();
    let message = format!("conversation of checkpoint {id}\n");
    crate::repo::new_commit(repo, &message, tree, Vec::<ObjectId>::new()).map(Some)
}

/// Write a blob unless the repository has it already: a transcript saved again is mostly
/// pieces written before, which need hashing but neither compressing nor writing.
fn write_once(repo: &gix::Repository, data: &[u8]) -> Result<ObjectId> {
    let id = gix::objs::compute_hash(repo.object_hash(), gix::object::Kind::Blob, data)
        .context(|| "cannot hash the conversation".into())?;
    if repo.has_object(id) {
        return Ok(id);
    }
    Ok(crate::repo::retry_write(|| repo.write_blob(data))
        .context(|| "cannot write the conversation".into())?
        .detach())
}

/// A conversation read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversation {
    /// Its format (see [`format::ConversationNote::format`]).
    pub format: String,
    /// The file it was read from, if any.
    pub source: Option<String>,
    /// Whether it is a hook's transcript (`"origin": "hook"` in its `conversation.json`),
    /// read where the agent keeps its sessions; a conversation given by the caller, or one
    /// kept before the origin was recorded, is not.
    pub from_hook: bool,
    /// The content, whole.
    pub bytes: Vec<u8>,
}

impl Conversation {
    /// Its turns: prompts, the assistant's replies, tool calls with their arguments, tool
    /// results (see [`crate::transcript::turns`]). Text has none: it is shown as it is.
    pub fn turns(&self) -> std::result::Result<Vec<crate::transcript::Turn>, String> {
        let format = crate::transcript::Format::from_name(&self.format)
            .unwrap_or(crate::transcript::Format::Text);
        if format == crate::transcript::Format::Text {
            return Ok(Vec::new());
        }
        crate::transcript::turns(format, &self.bytes)
    }

    /// The JSON object every front end gives for it (`show --conversation --json`, MCP's
    /// `checkpoint_show`, Python): `{"format", "source", "bytes", "turns", "content"}`,
    /// `turns` as [`turns`](Self::turns) reads them (empty for text, or a transcript that
    /// cannot be read as its format), `content` parsed when the format is JSON, else the text
    /// (invalid UTF-8 replaced).
    pub fn to_json(&self) -> serde_json::Value {
        let text = || serde_json::Value::String(String::from_utf8_lossy(&self.bytes).into_owned());
        let content = match self.format.as_str() {
            "json" => serde_json::from_slice(&self.bytes).unwrap_or_else(|_| text()),
            _ => text(),
        };
        let turns = self.turns().unwrap_or_default();
        serde_json::json!({
            "format": self.format,
            "source": self.source,
            "bytes": self.bytes.len(),
            "turns": turns,
            "content": content,
        })
    }
}

/// What [`rewind`] wrote: a new session of the agent whose transcript ends at the checkpoint,
/// or, where the agent's format cannot be written safely, the conversation exported to a file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rewound {
    /// The conversation's format.
    pub format: String,
    /// The new file.
    pub path: std::path::PathBuf,
    /// The new session's id, when a session was written for the agent.
    pub session: Option<String>,
    /// The command that resumes it (`claude --resume <id>`, …), when there is one.
    pub resume: Option<String>,
    /// Why it was exported to a file instead of written as a session, when it was.
    pub exported: Option<String>,
}

/// Write the conversation of checkpoint `id` as a **new** session of its agent, next to the
/// transcript its hook read it from, so that the agent resumes the conversation as it was
/// then; the original transcript is never changed. Where that cannot be done safely (the
/// format has no session file the agent reads, the transcript's place is unknown, the rewrite
/// fails) and for a conversation the caller gave (`save --conversation`: its file may lie
/// anywhere, not where the agent keeps sessions), write it as it was to a new file under
/// `${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/conversations/` instead. A file is never
/// overwritten.
pub fn rewind(id: &str, conversation: &Conversation) -> Result<Rewound> {
    use crate::transcript::{self, Format};
    let format = Format::from_name(&conversation.format).unwrap_or(Format::Text);
    let session = transcript::random_session_id();
    let from_hook = conversation
        .source
        .as_deref()
        .filter(|_| conversation.from_hook);
    let written = from_hook.and_then(|source| {
        let path = transcript::session_file(format, Path::new(source), &session)?;
        Some(
            transcript::new_session(format, &conversation.bytes, &session)
                .and_then(|bytes| write_new(&path, &bytes).map_err(|err| err.to_string()))
                .map(|()| path),
        )
    });
    let exported = match written {
        Some(Ok(path)) => {
            return Ok(Rewound {
                format: conversation.format.clone(),
                path,
                resume: transcript::resume_command(format, &session),
                session: Some(session),
                exported: None,
            });
        }
        Some(Err(why)) => format!(
            "a new {} session could not be written: {why}",
            format.name()
        ),
        None if format.is_agent() && !conversation.from_hook => {
            "it was given with the checkpoint, not read where the agent keeps its sessions"
                .to_string()
        }
        None if format.is_agent() && conversation.source.is_none() => {
            "where the agent keeps its sessions is not known".to_string()
        }
        None if format.is_agent() => {
            format!("{} sessions cannot be written safely", format.name())
        }
        None => "it is not an agent's transcript".to_string(),
    };
    let dir = crate::plain::data_dir()?.join("conversations");
    std::fs::create_dir_all(&dir).map_err(|source| Error::Io {
        context: format!("cannot create `{}`", dir.display()),
        source,
    })?;
    let extension = match format {
        Format::Json => "json",
        Format::Text => "txt",
        Format::Gemini if conversation.bytes.first() == Some(&b'{') => "json",
        _ => "jsonl",
    };
    let mut n = 0;
    loop {
        let name = match n {
            0 => format!("{id}.{extension}"),
            n => format!("{id}-{n}.{extension}"),
        };
        let path = dir.join(name);
        match write_new(&path, &conversation.bytes) {
            Ok(()) => {
                return Ok(Rewound {
                    format: conversation.format.clone(),
                    path,
                    session: None,
                    resume: None,
                    exported: Some(exported),
                });
            }
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(source) => {
                return Err(Error::Io {
                    context: format!("cannot write `{}`", path.display()),
                    source,
                });
            }
        }
    }
}

/// Write `bytes` to `path`, which must not exist yet (its directory is made when missing).
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// The conversation kept with checkpoint `id`, if there is one.
pub fn read(repo: &gix::Repository, id: &str) -> Result<Option<Conversation>> {
    let name = format::conversation_ref_name(id);
    let damaged =
        |why: String| Error::InvalidInput(format!("the conversation of {id} ({name}) {why}"));
    let commit = match crate::refdb::find(repo, &name)? {
        None => return Ok(None),
        Some(crate::refdb::Value::Object(commit)) => commit,
        Some(_) => return Err(damaged("is not a direct ref to a commit".into())),
    };
    let commit = repo
        .find_commit(commit)
        .map_err(|err| damaged(format!("cannot be read: {err}")))?;
    let tree = commit
        .tree()
        .map_err(|err| damaged(format!("cannot be read: {err}")))?;
    let mut info = None;
    let mut pieces: Vec<(String, ObjectId)> = Vec::new();
    for entry in tree.iter() {
        let entry = entry.map_err(|err| damaged(format!("cannot be read: {err}")))?;
        let name = entry.filename().to_string();
        if name == INFO {
            let blob = repo
                .find_blob(entry.oid())
                .map_err(|err| damaged(format!("cannot be read: {err}")))?;
            info = serde_json::from_slice::<serde_json::Value>(&blob.data).ok();
        } else if name.len() == 6 && name.bytes().all(|b| b.is_ascii_digit()) {
            pieces.push((name, entry.oid().to_owned()));
        }
    }
    pieces.sort();
    let mut bytes = Vec::new();
    for (_, oid) in pieces {
        let blob = repo
            .find_blob(oid)
            .map_err(|err| damaged(format!("cannot be read: {err}")))?;
        bytes.extend_from_slice(&blob.data);
    }
    let field = |key: &str| {
        info.as_ref()
            .and_then(|i| i.get(key))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    Ok(Some(Conversation {
        format: field("format").unwrap_or_else(|| "text".into()),
        source: field("source"),
        from_hook: field("origin").as_deref() == Some("hook"),
        bytes,
    }))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn cuts_fall_at_line_ends_and_depend_only_on_what_comes_before() {
        let line = b"0123456789abcdef0123456789abcdef0123456789abcdef012345678\n";
        let mut text = Vec::new();
        while text.len() < 3 * CHUNK + 100 {
            text.extend_from_slice(line);
        }
        let all = cuts(&text);
        assert_eq!(*all.last().unwrap(), text.len());
        for &end in &all[..all.len() - 1] {
            assert_eq!(text[end - 1], b'\n');
            assert!(end >= CHUNK);
        }
        // Appending keeps every cut but the last.
        let mut longer = text.clone();
        longer.extend_from_slice(b"one more line\n");
        let again = cuts(&longer);
        assert_eq!(all[..all.len() - 1], again[..all.len() - 1]);
        assert!(cuts(b"").is_empty());
        assert_eq!(cuts(b"no newline at all"), vec![17]);
    }
}
