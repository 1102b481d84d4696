//! Cursor's agent transcript,
//! `~/.cursor/projects/<project>/agent-transcripts/<conversation id>.jsonl` (the IDE nests it
//! in a directory of the same id).
//!
//! Cursor is closed source and documents no transcript format; this reads what
//! `entireio/cli` found in real files (`cmd/entire/cli/agent/cursor/AGENT.md`): one
//! `{"role": "user" | "assistant", "message": {"content": [...]}}` a line, content blocks in
//! the Anthropic shape (`text`, `tool_use` with `name` and `input`, no ids), the prompt
//! wrapped in `<user_query>` and perhaps preceded by a `<timestamp>`. No tool results were
//! seen; `tool_result` blocks would be read as Claude Code's. The lines carry no session id
//! and no time.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Role, Turn, block_turns, records, str_of};

/// Whether a record is plainly a Cursor transcript line.
pub(super) fn looks_like(record: &Map<String, Value>) -> bool {
    matches!(str_of(record, "role"), Some("user" | "assistant"))
        && record.get("message").is_some_and(Value::is_object)
        && !record.contains_key("type")
}

pub(super) fn turns(bytes: &[u8]) -> Result<Vec<Turn>, String> {
    let mut out = Vec::new();
    let mut tools = HashMap::new();
    for record in records(bytes, "Cursor")? {
        let role = match str_of(&record, "role") {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            _ => continue,
        };
        let Some(content) = record.get("message").and_then(|m| m.get("content")) else {
            continue;
        };
        let from = out.len();
        block_turns(role, content, &mut tools, &mut out);
        if role == Role::User {
            for turn in out.iter_mut().skip(from) {
                if turn.role == Role::User {
                    turn.text = query(&turn.text);
                }
            }
        }
    }
    Ok(out
        .into_iter()
        .filter(|t| !t.text.is_empty() || t.role != Role::User)
        .collect())
}

/// What the user typed: the text inside `<user_query>`, else the text without a leading
/// `<timestamp>`.
fn query(text: &str) -> String {
    if let Some((_, rest)) = text.split_once("<user_query>") {
        let inner = rest.split_once("</user_query>").map_or(rest, |(q, _)| q);
        return inner.trim().to_string();
    }
    let trimmed = text.trim_start();
    match trimmed
        .strip_prefix("<timestamp>")
        .and_then(|rest| rest.split_once("</timestamp>"))
    {
        Some((_, rest)) => rest.trim().to_string(),
        None => text.trim().to_string(),
    }
}
