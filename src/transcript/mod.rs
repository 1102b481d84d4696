//! What was said with an agent: each agent's transcript file read as turns (the prompts, the
//! assistant's replies, the tool calls with their arguments and the tools' results), rewritten
//! as a new session, and where and how that agent resumes it.
//!
//! Pure functions on bytes and paths: the caller reads and writes the files. Nothing of the
//! crate is used. Where each format was read, and what is not verified, is in
//! `tests/fixtures/transcripts/README.md` and `docs/conversation-formats.md`.
//!
//! | format | the file | the session id inside | a new session's file | resumed with |
//! | --- | --- | --- | --- | --- |
//! | Claude Code | `~/.claude/projects/<project>/<id>.jsonl` | `sessionId` on every line | `<same dir>/<new>.jsonl` | `claude --resume <id>` |
//! | Codex | `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` | `session_meta`'s `payload.id` | `<sessions>/<today>/rollout-<now>-<new>.jsonl` | `codex resume <id>` |
//! | Gemini CLI | `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl` | the first line's `sessionId` (and `$set`s) | `<same dir>/session-<now>-<new8>.jsonl` | `gemini --resume <id>` |
//! | Copilot CLI | `~/.copilot/session-state/<id>/events.jsonl` | `session.start`'s `data.sessionId` | `<session-state>/<new>/events.jsonl` | `copilot --resume=<id>` |
//! | Cursor | `~/.cursor/projects/<project>/agent-transcripts/<id>.jsonl` | none | none: Cursor resumes from its own store | — |
//!
//! Reading is tolerant: a line or entry this version does not know is skipped, and so is the
//! last line of a transcript still being written (cut short, it is not JSON). Only input with
//! no line of the format at all is an error.

mod chat;
mod claude;
mod codex;
mod copilot;
mod cursor;
mod gemini;
mod span;

#[cfg(test)]
mod fixture_tests;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A transcript's format: one agent's, a JSON value given by the user, or plain text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Claude Code's session file: JSON Lines of entries chained by `parentUuid`.
    ClaudeCode,
    /// Codex CLI's rollout: JSON Lines of `{timestamp, type, payload}`.
    Codex,
    /// Gemini CLI's chat recording: JSON Lines of a metadata record, messages and updates (or,
    /// before, one JSON document).
    Gemini,
    /// GitHub Copilot CLI's `events.jsonl`: JSON Lines of `{type, data, id, parentId}` events.
    Copilot,
    /// Cursor's agent transcript: JSON Lines of `{role, message}`.
    Cursor,
    /// A JSON value given by the user: a list of chat messages (`{"role", "content"}`), or
    /// anything else (which gives no turns).
    Json,
    /// Plain text given by the user.
    Text,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 7] = [
        Format::ClaudeCode,
        Format::Codex,
        Format::Gemini,
        Format::Copilot,
        Format::Cursor,
        Format::Json,
        Format::Text,
    ];

    /// The format's name, as stored and shown: `claude-code`, `codex`, `gemini`, `copilot`,
    /// `cursor`, `json`, `text` (an agent's format has that agent's name in `hooks`).
    pub fn name(self) -> &'static str {
        match self {
            Format::ClaudeCode => "claude-code",
            Format::Codex => "codex",
            Format::Gemini => "gemini",
            Format::Copilot => "copilot",
            Format::Cursor => "cursor",
            Format::Json => "json",
            Format::Text => "text",
        }
    }

    /// The format of a [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether this is an agent's own format (not one given by the user).
    pub fn is_agent(self) -> bool {
        !matches!(self, Format::Json | Format::Text)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who speaks in a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The user: a prompt.
    User,
    /// The assistant's text.
    Assistant,
    /// The assistant calls a tool.
    ToolCall,
    /// What a tool gave back.
    ToolResult,
    /// The agent itself: a notice, a compaction summary, an error it recorded.
    System,
}

/// One turn of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Who speaks.
    pub role: Role,
    /// What was said; for a tool result, its text. Empty for a tool call: what it does is
    /// [`tool`](Self::tool) and [`arguments`](Self::arguments).
    pub text: String,
    /// The tool called, or whose result this is (when the transcript says).
    pub tool: Option<String>,
    /// A tool call's arguments, as the agent recorded them (a JSON object, or a string when the
    /// tool takes free text, as Codex's `apply_patch`).
    pub arguments: Option<Value>,
    /// When, as the transcript has it (RFC 3339 in every agent format).
    pub at: Option<String>,
    /// The transcript's own id of this turn: for a tool call or result, the tool call's id (so
    /// the two pair up); otherwise the entry's or message's id.
    pub id: Option<String>,
}

impl Turn {
    fn new(role: Role, text: impl Into<String>) -> Turn {
        Turn {
            role,
            text: text.into(),
            tool: None,
            arguments: None,
            at: None,
            id: None,
        }
    }

    fn call(tool: &str, arguments: Value) -> Turn {
        Turn {
            tool: Some(tool.to_string()),
            arguments: Some(arguments),
            ..Turn::new(Role::ToolCall, "")
        }
    }

    fn when(mut self, at: Option<&str>) -> Turn {
        self.at = at.map(str::to_string);
        self
    }

    fn with_id(mut self, id: Option<&str>) -> Turn {
        self.id = id.map(str::to_string);
        self
    }
}

/// The format of a transcript: the named agent's (names as in `hooks`: `claude-code`, `codex`,
/// `gemini`, `cursor`, `copilot`), unless the content is plainly another agent's (Cursor and
/// Copilot CLI also run the hooks of Claude Code's settings, with their own transcripts);
/// without an agent (or for one with no format here), whatever the content looks like: an
/// agent's format, else JSON (a whole JSON document, or JSON Lines of chat messages), else
/// text.
pub fn detect(agent: Option<&str>, bytes: &[u8]) -> Format {
    let sniffed = sniff(bytes);
    match (agent.and_then(of_agent), sniffed) {
        (Some(told), Some(seen)) if seen != told => seen,
        (Some(told), _) => told,
        (None, Some(seen)) => seen,
        (None, None) => {
            if serde_json::from_slice::<Value>(bytes).is_ok() || chat::is_jsonl_chat(bytes) {
                Format::Json
            } else {
                Format::Text
            }
        }
    }
}

/// The format of an agent named as in `hooks`.
fn of_agent(agent: &str) -> Option<Format> {
    match agent {
        "claude-code" => Some(Format::ClaudeCode),
        "codex" => Some(Format::Codex),
        "gemini" => Some(Format::Gemini),
        "copilot" => Some(Format::Copilot),
        "cursor" => Some(Format::Cursor),
        _ => None,
    }
}

/// Whether a record is plainly of a format.
type Check = fn(&Map<String, Value>) -> bool;

/// The agent format the first records of `bytes` are in, if plainly one.
fn sniff(bytes: &[u8]) -> Option<Format> {
    let checks: [(Format, Check); 5] = [
        (Format::Codex, codex::looks_like),
        (Format::Copilot, copilot::looks_like),
        (Format::Gemini, gemini::looks_like),
        (Format::ClaudeCode, claude::looks_like),
        (Format::Cursor, cursor::looks_like),
    ];
    let first = objects(bytes).take(32);
    for record in first {
        if let Some((format, _)) = checks.iter().find(|(_, check)| check(&record)) {
            return Some(*format);
        }
    }
    // Gemini CLI's older files are one (often indented) JSON document.
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(doc)) if gemini::looks_like(&doc) => Some(Format::Gemini),
        _ => None,
    }
}

/// The turns of a transcript in `format`, in order. Lines and entries of a kind this version
/// does not know are skipped, and so is a last line cut short; an error only when nothing in
/// `bytes` is of the format (for JSON Lines formats: not one line is a JSON object; for
/// [`Format::Json`]: not JSON). [`Format::Json`] gives turns for a list of chat messages
/// (`{"role", "content"}`, content a string or a list of parts, in the OpenAI, Anthropic or
/// Gemini API shapes, or an object holding such a list as `messages`), and none for any
/// other value. [`Format::Text`] gives one turn per speaker: a paragraph that starts with a
/// label (`User:`, `Human:`, `You:`, `Assistant:`, `AI:`, `Model:`, `System:`) starts a turn,
/// and the paragraphs after it belong to it; text before any label is one user turn.
pub fn turns(format: Format, bytes: &[u8]) -> Result<Vec<Turn>, String> {
    match format {
        Format::ClaudeCode => claude::turns(bytes),
        Format::Codex => codex::turns(bytes),
        Format::Gemini => gemini::turns(bytes),
        Format::Copilot => copilot::turns(bytes),
        Format::Cursor => cursor::turns(bytes),
        Format::Json => chat::json_turns(bytes),
        Format::Text => Ok(chat::text_turns(bytes)),
    }
}

/// The transcript `bytes` as a new session `new_id` of its agent: the session id rewritten
/// wherever the format keeps it (Claude Code: `sessionId` on every line; Codex: the
/// `session_meta` line's `payload.id`, and `payload.session_id` where equal; Gemini CLI:
/// `sessionId` of the metadata record and of `$set` updates; Copilot CLI: `data.sessionId`
/// where it is `session.start`'s), byte for byte the same elsewhere. A last line cut short is
/// left out, and a last line without its newline gets one, so that the agent can append.
/// Cursor's transcript carries no id, and JSON or text given by the user none either: their
/// bytes come back as they are. An error when `new_id` is not an id (letters, digits, `-`,
/// `_`) or the transcript has no session id where its format keeps one.
pub fn new_session(format: Format, bytes: &[u8], new_id: &str) -> Result<Vec<u8>, String> {
    if !is_safe_id(new_id) {
        return Err(format!("`{new_id}` is not a session id"));
    }
    match format {
        Format::Json | Format::Text => Ok(bytes.to_vec()),
        Format::Cursor => Ok(complete_lines(bytes).to_vec()),
        Format::ClaudeCode => claude::new_session(bytes, new_id),
        Format::Codex => codex::new_session(bytes, new_id),
        Format::Gemini => gemini::new_session(bytes, new_id),
        Format::Copilot => copilot::new_session(bytes, new_id),
    }
}

/// Where the agent looks for session `new_id`, for a transcript of its found at
/// `original_path`: Claude Code `<same dir>/<new_id>.jsonl`; Codex
/// `<codex home>/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<new_id>.jsonl` (today, local
/// time, as Codex names them; beside the original when it is not under a `sessions`
/// directory); Gemini CLI `<same dir>/session-YYYY-MM-DDThh-mm-<first 8 of new_id>.jsonl` (UTC,
/// as Gemini CLI names them); Copilot CLI `<session-state>/<new_id>/events.jsonl`. The
/// directories may not exist yet. `None` where no file can be written safely for the agent to
/// resume (Cursor keeps its chats in its own store; JSON and text were not an agent's), when
/// `new_id` is not a UUID (every agent's session ids are), or when the original path is not
/// where that agent keeps transcripts: the caller then exports the conversation to a file of
/// its own.
pub fn session_file(format: Format, original_path: &Path, new_id: &str) -> Option<PathBuf> {
    session_file_at(format, original_path, new_id, chrono::Utc::now())
}

/// [`session_file`] at time `now`.
fn session_file_at(
    format: Format,
    original_path: &Path,
    new_id: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<PathBuf> {
    if !format.is_agent() || !is_uuid(new_id) {
        return None;
    }
    let dir = original_path.parent()?;
    let path = match format {
        Format::ClaudeCode => dir.join(format!("{new_id}.jsonl")),
        Format::Codex => {
            let local = now.with_timezone(&chrono::Local).naive_local();
            codex::session_file(original_path, new_id, local)
        }
        Format::Gemini => {
            let extension = match original_path.extension() {
                Some(e) if e == "json" => "json",
                _ => "jsonl",
            };
            let short = new_id.get(..8)?;
            let stamp = now.format("%Y-%m-%dT%H-%M");
            dir.join(format!("session-{stamp}-{short}.{extension}"))
        }
        Format::Copilot => {
            if original_path.file_name()? != "events.jsonl" {
                return None;
            }
            dir.parent()?.join(new_id).join("events.jsonl")
        }
        Format::Cursor | Format::Json | Format::Text => return None,
    };
    (path != original_path).then_some(path)
}

/// The command that resumes session `id` of the format's agent: `claude --resume <id>`,
/// `codex resume <id>`, `gemini --resume <id>` (Gemini CLI and Claude Code look in the
/// current project's sessions: run it in the project), `copilot --resume=<id>`. `None` for
/// Cursor (whose new sessions [`session_file`] cannot write; its own is `agent --resume
/// <chat id>`), for JSON and text, and for an id that is not an id.
pub fn resume_command(format: Format, id: &str) -> Option<String> {
    if !is_safe_id(id) {
        return None;
    }
    match format {
        Format::ClaudeCode => Some(format!("claude --resume {id}")),
        Format::Codex => Some(format!("codex resume {id}")),
        Format::Gemini => Some(format!("gemini --resume {id}")),
        Format::Copilot => Some(format!("copilot --resume={id}")),
        Format::Cursor | Format::Json | Format::Text => None,
    }
}

/// A new random session id: a version 4 UUID, the form every agent here uses.
pub fn random_session_id() -> String {
    let mut bytes: [u8; 16] = rand::random();
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// Whether `id` is a UUID (any version, either case).
fn is_uuid(id: &str) -> bool {
    let groups: Vec<&str> = id.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether `id` can name a session in a file name and a command line unquoted.
fn is_safe_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

// Shared by the formats.

/// The lines of `bytes`, each without its `\n`, and whether it had one.
fn lines(bytes: &[u8]) -> impl Iterator<Item = (&[u8], bool)> {
    let count = bytes.split(|b| *b == b'\n').count();
    bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .map(move |(i, line)| (line, i + 1 < count))
        .filter(|(line, ended)| *ended || !line.is_empty())
}

/// The JSON objects of JSON Lines `bytes`, in order, skipping every line that is not one.
fn objects(bytes: &[u8]) -> impl Iterator<Item = Map<String, Value>> {
    lines(bytes).filter_map(|(line, _)| match serde_json::from_slice(line) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    })
}

/// The JSON objects of JSON Lines `bytes` in the format `what`; an error when not one line is
/// an object though some ended line is not blank.
fn records(bytes: &[u8], what: &str) -> Result<Vec<Map<String, Value>>, String> {
    let found: Vec<Map<String, Value>> = objects(bytes).collect();
    let complete_text = lines(bytes).any(|(line, ended)| ended && !is_blank(line));
    if found.is_empty() && complete_text {
        return Err(format!(
            "not a {what} transcript: no line of it is a JSON object"
        ));
    }
    Ok(found)
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

/// `bytes` up to its last complete line: a last line without its newline is kept only when it
/// is JSON (a writer stopped just before the newline).
fn complete_lines(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let start = bytes
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |at| at + 1);
    let (done, last) = bytes.split_at(start);
    if last.is_empty() {
        return done.into();
    }
    if !is_blank(last) && serde_json::from_slice::<Value>(last).is_ok() {
        let mut whole = bytes.to_vec();
        whole.push(b'\n');
        return whole.into();
    }
    done.into()
}

/// A JSON Lines transcript's complete lines (see [`complete_lines`]) with ids rewritten: for
/// each line that is a JSON object, `edit` gives the byte ranges to replace by `new_id`.
/// Returns the result and how many ranges were rewritten.
fn rewrite_lines(
    bytes: &[u8],
    new_id: &str,
    mut edit: impl FnMut(&[u8], &Map<String, Value>) -> Vec<std::ops::Range<usize>>,
) -> (Vec<u8>, usize) {
    let whole = complete_lines(bytes);
    let quoted = Value::String(new_id.to_string()).to_string().into_bytes();
    let mut out = Vec::with_capacity(whole.len() + 64);
    let mut count = 0;
    for (line, ended) in lines(&whole) {
        let ranges = match serde_json::from_slice(line) {
            Ok(Value::Object(record)) => edit(line, &record),
            _ => Vec::new(),
        };
        count += ranges.len();
        let edits = ranges.into_iter().map(|r| (r, quoted.clone())).collect();
        out.extend_from_slice(&span::replace(line, edits));
        if ended {
            out.push(b'\n');
        }
    }
    (out, count)
}

/// The ranges among `ranges` of `line` that hold a JSON string equal to `id` (any string
/// when `id` is `None`).
fn strings_equal(
    line: &[u8],
    ranges: Vec<std::ops::Range<usize>>,
    id: Option<&str>,
) -> Vec<std::ops::Range<usize>> {
    ranges
        .into_iter()
        .filter(
            |r| match line.get(r.clone()).map(serde_json::from_slice::<Value>) {
                Some(Ok(Value::String(s))) => id.is_none_or(|id| s == id),
                _ => false,
            },
        )
        .collect()
}

/// A string member of an object.
fn str_of<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

/// The text of a message content in the Anthropic shape: a string, or the `text` of its
/// `{"type": "text"}` blocks (and of blocks with no type but a `text`) joined by newlines.
fn blocks_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| {
                matches!(
                    b.get("type").and_then(Value::as_str),
                    None | Some("text" | "input_text" | "output_text")
                )
            })
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The turns of an Anthropic-shaped message content (Claude Code's and Cursor's entries, and
/// chat messages given as JSON): text blocks make a `role` turn, `tool_use` blocks tool
/// calls, `tool_result` blocks tool results (named after their call when `tools` knows it);
/// thinking and images are left out.
fn block_turns(
    role: Role,
    content: &Value,
    tools: &mut std::collections::HashMap<String, String>,
    out: &mut Vec<Turn>,
) {
    let blocks = match content {
        Value::String(s) => {
            if !s.trim().is_empty() {
                out.push(Turn::new(role, s.as_str()));
            }
            return;
        }
        Value::Array(blocks) => blocks,
        _ => return,
    };
    let mut text: Vec<&str> = Vec::new();
    let flush = |text: &mut Vec<&str>, out: &mut Vec<Turn>| {
        let joined = text.join("\n");
        if !joined.trim().is_empty() {
            out.push(Turn::new(role, joined));
        }
        text.clear();
    };
    for block in blocks {
        let kind = block.get("type").and_then(Value::as_str);
        match kind {
            None | Some("text" | "input_text" | "output_text") => {
                if let Some(t) = block.get("text").and_then(Value::as_str) {
                    text.push(t);
                }
            }
            Some("tool_use") => {
                flush(&mut text, out);
                let name = block.get("name").and_then(Value::as_str).unwrap_or("");
                let id = block.get("id").and_then(Value::as_str);
                if let Some(id) = id {
                    tools.insert(id.to_string(), name.to_string());
                }
                let input = block.get("input").cloned().unwrap_or(Value::Null);
                out.push(Turn::call(name, input).with_id(id));
            }
            Some("tool_result") => {
                flush(&mut text, out);
                let id = block.get("tool_use_id").and_then(Value::as_str);
                let body = block.get("content").map(blocks_text).unwrap_or_default();
                let mut turn = Turn::new(Role::ToolResult, body).with_id(id);
                turn.tool = id.and_then(|id| tools.get(id)).cloned();
                out.push(turn);
            }
            Some(_) => {}
        }
    }
    flush(&mut text, out);
}
