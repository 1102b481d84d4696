//! Conversations given by the user: a JSON value of chat messages, or plain text.
//!
//! The JSON shapes read are the chat APIs' own: a list of messages `{"role", "content"}`
//! (OpenAI Chat Completions, Anthropic Messages: content a string or a list of parts, tool
//! calls as OpenAI's `tool_calls` or Anthropic's `tool_use` and `tool_result` blocks, tool
//! results as OpenAI's `"role": "tool"` messages), Gemini API contents (`{"role", "parts"}`),
//! OpenAI Responses API items (`function_call`, `function_call_output`), an object holding
//! such a list as `messages` or `contents`, or the same messages one a line (JSON Lines).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Role, Turn, block_turns, codex, str_of};

/// Whether `bytes` is JSON Lines of which some line is a chat message.
pub(super) fn is_jsonl_chat(bytes: &[u8]) -> bool {
    super::objects(bytes)
        .take(32)
        .any(|m| message_role(&m).is_some())
}

pub(super) fn json_turns(bytes: &[u8]) -> Result<Vec<Turn>, String> {
    let mut out = Vec::new();
    let mut tools = HashMap::new();
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value) => {
            for message in messages(&value) {
                message_turns(message, &mut tools, &mut out);
            }
        }
        Err(e) => {
            let lines: Vec<Map<String, Value>> = super::objects(bytes).collect();
            if !lines
                .iter()
                .any(|m| message_role(m).is_some() || is_item(m))
            {
                return Err(format!("the conversation is not JSON: {e}"));
            }
            for line in &lines {
                for message in messages_of_object(line) {
                    message_turns(message, &mut tools, &mut out);
                }
            }
        }
    }
    Ok(out)
}

/// The messages a value holds: itself if a list, its `messages` or `contents` if an object
/// with such a list, else itself as one message.
fn messages(value: &Value) -> Vec<&Map<String, Value>> {
    match value {
        Value::Array(items) => items.iter().filter_map(Value::as_object).collect(),
        Value::Object(map) => messages_of_object(map),
        _ => Vec::new(),
    }
}

fn messages_of_object(map: &Map<String, Value>) -> Vec<&Map<String, Value>> {
    for key in ["messages", "contents", "input"] {
        if let Some(list) = map.get(key).and_then(Value::as_array) {
            return list.iter().filter_map(Value::as_object).collect();
        }
    }
    vec![map]
}

/// The role of a chat message, if it is one.
fn message_role(message: &Map<String, Value>) -> Option<Role> {
    let has_body = ["content", "parts", "tool_calls"]
        .iter()
        .any(|k| message.contains_key(*k));
    if !has_body {
        return None;
    }
    match str_of(message, "role")? {
        "user" | "human" => Some(Role::User),
        "assistant" | "model" | "ai" => Some(Role::Assistant),
        "system" | "developer" => Some(Role::System),
        "tool" | "function" => Some(Role::ToolResult),
        _ => None,
    }
}

/// Whether a message is an OpenAI Responses API tool item.
fn is_item(message: &Map<String, Value>) -> bool {
    matches!(
        str_of(message, "type"),
        Some(
            "function_call"
                | "function_call_output"
                | "custom_tool_call"
                | "custom_tool_call_output"
                | "local_shell_call"
                | "web_search_call"
        )
    )
}

fn message_turns(
    message: &Map<String, Value>,
    tools: &mut HashMap<String, String>,
    out: &mut Vec<Turn>,
) {
    if is_item(message) {
        codex::response_item(message, true, tools, out);
        return;
    }
    let Some(role) = message_role(message) else {
        return;
    };
    let at = str_of(message, "timestamp").or_else(|| str_of(message, "created_at"));
    let from = out.len();
    if role == Role::ToolResult {
        let id = str_of(message, "tool_call_id");
        let text = message
            .get("content")
            .map(super::blocks_text)
            .unwrap_or_default();
        let mut turn = Turn::new(Role::ToolResult, text).with_id(id);
        turn.tool = str_of(message, "name")
            .map(str::to_string)
            .or_else(|| id.and_then(|id| tools.get(id)).cloned());
        out.push(turn);
    } else if let Some(parts) = message.get("parts").and_then(Value::as_array) {
        gemini_parts(role, parts, out);
    } else if let Some(content) = message.get("content") {
        block_turns(role, content, tools, out);
    }
    let calls = message.get("tool_calls").and_then(Value::as_array);
    for call in calls.into_iter().flatten().filter_map(Value::as_object) {
        let id = str_of(call, "id");
        let function = call.get("function").and_then(Value::as_object);
        let name = function.and_then(|f| str_of(f, "name")).unwrap_or("");
        let arguments = match function.and_then(|f| f.get("arguments")) {
            Some(Value::String(raw)) => {
                serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.clone()))
            }
            Some(other) => other.clone(),
            None => Value::Null,
        };
        if let Some(id) = id {
            tools.insert(id.to_string(), name.to_string());
        }
        out.push(Turn::call(name, arguments).with_id(id));
    }
    let id = str_of(message, "id");
    for turn in out.iter_mut().skip(from) {
        if turn.at.is_none() {
            turn.at = at.map(str::to_string);
        }
        if turn.id.is_none() {
            turn.id = id.map(str::to_string);
        }
    }
}

/// Gemini API parts: `text`, `functionCall` (`name`, `args`), `functionResponse` (`name`,
/// `response`).
fn gemini_parts(role: Role, parts: &[Value], out: &mut Vec<Turn>) {
    let mut text = String::new();
    for part in parts.iter().filter_map(Value::as_object) {
        if let Some(t) = str_of(part, "text") {
            text.push_str(t);
        } else if let Some(call) = part.get("functionCall") {
            let name = call.get("name").and_then(Value::as_str).unwrap_or("");
            let args = call.get("args").cloned().unwrap_or(Value::Null);
            let id = call.get("id").and_then(Value::as_str);
            out.push(Turn::call(name, args).with_id(id));
        } else if let Some(response) = part.get("functionResponse") {
            let body = response.get("response").cloned().unwrap_or(Value::Null);
            let text = match body.get("output").or_else(|| body.get("content")) {
                Some(Value::String(s)) => s.clone(),
                _ => body.to_string(),
            };
            let mut turn = Turn::new(Role::ToolResult, text)
                .with_id(response.get("id").and_then(Value::as_str));
            turn.tool = response
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string);
            out.push(turn);
        }
    }
    if !text.trim().is_empty() {
        out.push(Turn::new(role, text));
    }
}

/// Labels that start a speaker's turn in plain text.
const LABELS: [(&str, Role); 7] = [
    ("user", Role::User),
    ("human", Role::User),
    ("you", Role::User),
    ("assistant", Role::Assistant),
    ("ai", Role::Assistant),
    ("model", Role::Assistant),
    ("system", Role::System),
];

/// Plain text as turns: a paragraph starting with a label (`User:`, `**Assistant:**`, `##
/// System:`, …) starts a turn; the paragraphs after it are part of it; text before any label
/// is one user turn.
pub(super) fn text_turns(bytes: &[u8]) -> Vec<Turn> {
    let text = String::from_utf8_lossy(bytes);
    let mut out: Vec<Turn> = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, out: &mut Vec<Turn>| {
        if paragraph.is_empty() {
            return;
        }
        let body = paragraph.join("\n");
        paragraph.clear();
        match (label(&body), out.last_mut()) {
            (Some((role, rest)), _) => out.push(Turn::new(role, rest.trim())),
            (None, Some(last)) => {
                if !last.text.is_empty() {
                    last.text.push_str("\n\n");
                }
                last.text.push_str(body.trim());
            }
            (None, None) => out.push(Turn::new(Role::User, body.trim())),
        }
    };
    for line in text.lines() {
        if line.trim().is_empty() {
            flush(&mut paragraph, &mut out);
        } else {
            paragraph.push(line);
        }
    }
    flush(&mut paragraph, &mut out);
    out
}

/// The role a paragraph's label names, and the text after the label.
fn label(paragraph: &str) -> Option<(Role, &str)> {
    let start = paragraph.trim_start_matches(['#', '*', '>', ' ', '\t']);
    let (word, rest) = start.split_once(':')?;
    let word = word.trim_end_matches('*').trim();
    let role = LABELS
        .iter()
        .find(|(name, _)| word.eq_ignore_ascii_case(name))?
        .1;
    Some((role, rest.trim_start_matches('*')))
}
