//! Codex CLI's rollout, `~/.codex/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl`.
//!
//! One `{"timestamp", "type", "payload"}` a line (`openai/codex`, `RolloutLine` and
//! `RolloutItem`): `session_meta` first (the thread id is its `payload.id`, the first one's
//! when a fork copied its parent's), then `response_item`s (what the model saw and said:
//! `message`, `function_call`, `function_call_output`, `custom_tool_call`, …), `event_msg`s
//! (what the user interface showed: `user_message`, `agent_message`, `token_count`, …),
//! `turn_context`, `compacted`. Before the envelope (2025), the first line was the session
//! (`{"id", "timestamp", "instructions"}`) and the others bare response items; both are read.
//!
//! Prompts come from the `user_message` events: the model's user messages also carry the
//! context Codex injects (`<environment_context>`, `AGENTS.md`); without such events, from the
//! user messages that are not injected context. Replies come from the assistant messages (or,
//! without any, from `agent_message` events), tool calls and results from the response items.
//! Reasoning (encrypted) and developer instructions are left out.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{Role, Turn, blocks_text, records, rewrite_lines, span, str_of, strings_equal};

/// Response item types, as the payload of a `response_item` (or a bare line, before 2025).
const ITEM_TYPES: [&str; 8] = [
    "message",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "web_search_call",
    "reasoning",
];

/// What a user message holds when Codex, not the user, wrote it.
const INJECTED: [&str; 4] = [
    "<environment_context>",
    "<user_instructions>",
    "<permissions instructions>",
    "# AGENTS.md instructions",
];

/// Whether a record is plainly a Codex rollout line.
pub(super) fn looks_like(record: &Map<String, Value>) -> bool {
    let enveloped = matches!(
        str_of(record, "type"),
        Some("session_meta" | "response_item" | "event_msg" | "turn_context" | "compacted")
    ) && record.get("payload").is_some_and(Value::is_object);
    let legacy_head = str_of(record, "id").is_some()
        && str_of(record, "timestamp").is_some()
        && record.contains_key("instructions")
        && !record.contains_key("type");
    enveloped || legacy_head || record.contains_key("record_type")
}

/// A line as `(timestamp, type, payload)`.
fn item(record: &Map<String, Value>) -> Option<(Option<&str>, &str, &Map<String, Value>)> {
    let kind = str_of(record, "type")?;
    match record.get("payload").and_then(Value::as_object) {
        Some(payload) => Some((str_of(record, "timestamp"), kind, payload)),
        None if ITEM_TYPES.contains(&kind) => Some((None, "response_item", record)),
        None => None,
    }
}

pub(super) fn turns(bytes: &[u8]) -> Result<Vec<Turn>, String> {
    let records = records(bytes, "Codex")?;
    let items: Vec<_> = records.iter().filter_map(item).collect();
    let event_prompts = items
        .iter()
        .any(|(_, kind, p)| *kind == "event_msg" && str_of(p, "type") == Some("user_message"));
    let item_replies = items.iter().any(|(_, kind, p)| {
        *kind == "response_item"
            && str_of(p, "type") == Some("message")
            && str_of(p, "role") == Some("assistant")
    });
    let mut out = Vec::new();
    let mut tools = HashMap::new();
    for (at, kind, payload) in items {
        let from = out.len();
        match kind {
            "response_item" => {
                let prompts = !event_prompts;
                response_item(payload, prompts, &mut tools, &mut out);
            }
            "event_msg" => {
                let message = str_of(payload, "message").unwrap_or("");
                match str_of(payload, "type") {
                    Some("user_message") if !message.trim().is_empty() => {
                        out.push(Turn::new(Role::User, message));
                    }
                    Some("agent_message") if !item_replies && !message.trim().is_empty() => {
                        out.push(Turn::new(Role::Assistant, message));
                    }
                    _ => {}
                }
            }
            "compacted" => {
                if let Some(text) = str_of(payload, "message").filter(|t| !t.trim().is_empty()) {
                    out.push(Turn::new(Role::System, text));
                }
            }
            _ => {}
        }
        for turn in out.iter_mut().skip(from) {
            turn.at = at.map(str::to_string);
        }
    }
    Ok(out)
}

/// The turns of one response item (also an OpenAI Responses API item given as JSON): a
/// message, a tool call or a tool's output. User messages only when `prompts`.
pub(super) fn response_item(
    payload: &Map<String, Value>,
    prompts: bool,
    tools: &mut HashMap<String, String>,
    out: &mut Vec<Turn>,
) {
    let call_id = str_of(payload, "call_id");
    match str_of(payload, "type") {
        Some("message") => {
            let text = payload.get("content").map(blocks_text).unwrap_or_default();
            let role = match str_of(payload, "role") {
                Some("user") if prompts && !injected(&text) => Role::User,
                Some("assistant") => Role::Assistant,
                _ => return,
            };
            if !text.trim().is_empty() {
                out.push(Turn::new(role, text).with_id(str_of(payload, "id")));
            }
        }
        Some(
            kind @ ("function_call" | "custom_tool_call" | "local_shell_call" | "web_search_call"),
        ) => {
            let (name, arguments) = match kind {
                "function_call" => {
                    let raw = str_of(payload, "arguments").unwrap_or("");
                    let arguments = serde_json::from_str(raw)
                        .unwrap_or_else(|_| Value::String(raw.to_string()));
                    (str_of(payload, "name").unwrap_or(""), arguments)
                }
                "custom_tool_call" => (
                    str_of(payload, "name").unwrap_or(""),
                    payload.get("input").cloned().unwrap_or(Value::Null),
                ),
                "local_shell_call" => (
                    "local_shell",
                    payload.get("action").cloned().unwrap_or(Value::Null),
                ),
                _ => (
                    "web_search",
                    payload.get("action").cloned().unwrap_or(Value::Null),
                ),
            };
            if let Some(id) = call_id {
                tools.insert(id.to_string(), name.to_string());
            }
            out.push(
                Turn::call(name, arguments).with_id(call_id.or_else(|| str_of(payload, "id"))),
            );
        }
        Some("function_call_output" | "custom_tool_call_output") => {
            let text = match payload.get("output") {
                // Older versions wrapped a tool's output as `{"output", "metadata"}`, in a string.
                Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
                    Ok(Value::Object(wrapped))
                        if wrapped.get("output").is_some_and(Value::is_string) =>
                    {
                        str_of(&wrapped, "output").unwrap_or_default().to_string()
                    }
                    _ => s.clone(),
                },
                Some(Value::Object(o)) => o.get("content").map(blocks_text).unwrap_or_default(),
                Some(items) => blocks_text(items),
                None => String::new(),
            };
            let mut turn = Turn::new(Role::ToolResult, text).with_id(call_id);
            turn.tool = call_id.and_then(|id| tools.get(id)).cloned();
            out.push(turn);
        }
        _ => {}
    }
}

fn injected(text: &str) -> bool {
    let text = text.trim_start();
    INJECTED.iter().any(|marker| text.starts_with(marker))
}

/// The transcript as session `new_id`: the `session_meta` lines' `payload.id` (and
/// `payload.session_id`) that are the thread's id rewritten.
pub(super) fn new_session(bytes: &[u8], new_id: &str) -> Result<Vec<u8>, String> {
    let old = super::objects(bytes).find_map(|record| match item(&record) {
        Some((_, "session_meta", payload)) => str_of(payload, "id").map(str::to_string),
        _ => None,
    });
    let Some(old) = old else {
        return Err("the Codex rollout has no `session_meta` line with an id".into());
    };
    let (out, _) = rewrite_lines(bytes, new_id, |line, record| {
        if str_of(record, "type") != Some("session_meta") {
            return Vec::new();
        }
        let mut ranges = span::values_at(line, &["payload", "id"]);
        ranges.extend(span::values_at(line, &["payload", "session_id"]));
        strings_equal(line, ranges, Some(&old))
    });
    Ok(out)
}

/// Where Codex finds thread `new_id` created at `now` (local time): in the date directories
/// under the `sessions` directory above `original`, or beside `original` if there is none
/// (Codex finds a thread by the id in its file name anywhere under `sessions`).
pub(super) fn session_file(original: &Path, new_id: &str, now: chrono::NaiveDateTime) -> PathBuf {
    let name = format!("rollout-{}-{new_id}.jsonl", now.format("%Y-%m-%dT%H-%M-%S"));
    let sessions = original
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == "sessions"));
    match sessions {
        Some(root) => root
            .join(now.format("%Y").to_string())
            .join(now.format("%m").to_string())
            .join(now.format("%d").to_string())
            .join(name),
        None => original.with_file_name(name),
    }
}
