//! Gemini CLI's chat recording, `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`.
//!
//! An append-only log (`google-gemini/gemini-cli`,
//! `packages/core/src/services/chatRecordingService.ts`): a metadata record first
//! (`sessionId`, `projectHash`, `startTime`, …), then records replayed in order as
//! `loadConversationRecord` does: a message record (`id`, `timestamp`, `type` `user`,
//! `gemini`, `info`, `error` or `warning`, `content` as Gemini API parts) is added, or replaces
//! the message of the same id in place (a reply is written again when its tool calls
//! complete); `{"$rewindTo": id}` removes that message and all after it; `{"$set": {…}}`
//! updates the metadata, and with `messages` replaces every message. Earlier versions wrote
//! the whole conversation as one JSON document (`session-….json`), read as well.
//!
//! A `gemini` message holds the reply's text and its `toolCalls` (`id`, `name`, `args`,
//! `result` as `functionResponse` parts); the tool results are also sent back as a `user`
//! message of `functionResponse` parts, read only for calls not already shown.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Role, Turn, records, rewrite_lines, span, str_of, strings_equal};

/// Whether a record is plainly a Gemini CLI chat recording's.
pub(super) fn looks_like(record: &Map<String, Value>) -> bool {
    (str_of(record, "sessionId").is_some() && str_of(record, "projectHash").is_some())
        || str_of(record, "$rewindTo").is_some()
        || record.get("$set").is_some_and(Value::is_object)
}

/// The records of a recording: the lines, or the one document of an older file.
fn all_records(bytes: &[u8]) -> Result<Vec<Map<String, Value>>, String> {
    match serde_json::from_slice(bytes) {
        Ok(Value::Object(doc)) => Ok(vec![doc]),
        _ => records(bytes, "Gemini CLI"),
    }
}

pub(super) fn turns(bytes: &[u8]) -> Result<Vec<Turn>, String> {
    let mut order: Vec<String> = Vec::new();
    let mut messages: HashMap<String, Map<String, Value>> = HashMap::new();
    for record in all_records(bytes)? {
        if let Some(to) = str_of(&record, "$rewindTo") {
            let removed = match order.iter().position(|id| id == to) {
                Some(at) => order.split_off(at),
                None => std::mem::take(&mut order),
            };
            for id in removed {
                messages.remove(&id);
            }
        } else if str_of(&record, "id").is_some() {
            put(&mut order, &mut messages, &record);
        } else if let Some(set) = record.get("$set").and_then(Value::as_object) {
            if let Some(list) = set.get("messages").and_then(Value::as_array) {
                order.clear();
                messages.clear();
                for message in list.iter().filter_map(Value::as_object) {
                    put(&mut order, &mut messages, message);
                }
            }
        } else if str_of(&record, "sessionId").is_some() {
            let list = record.get("messages").and_then(Value::as_array);
            for message in list.into_iter().flatten().filter_map(Value::as_object) {
                put(&mut order, &mut messages, message);
            }
        }
    }
    let mut out = Vec::new();
    let mut shown: HashSet<String> = HashSet::new();
    let mut tools: HashMap<String, String> = HashMap::new();
    for id in &order {
        if let Some(message) = messages.get(id) {
            message_turns(message, &mut shown, &mut tools, &mut out);
        }
    }
    Ok(out)
}

/// Adds a message record, or replaces the one of the same id where it stands.
fn put(
    order: &mut Vec<String>,
    messages: &mut HashMap<String, Map<String, Value>>,
    message: &Map<String, Value>,
) {
    if let Some(id) = str_of(message, "id")
        && messages.insert(id.to_string(), message.clone()).is_none()
    {
        order.push(id.to_string());
    }
}

fn message_turns(
    message: &Map<String, Value>,
    shown: &mut HashSet<String>,
    tools: &mut HashMap<String, String>,
    out: &mut Vec<Turn>,
) {
    let at = str_of(message, "timestamp");
    let id = str_of(message, "id");
    let content = message.get("content").unwrap_or(&Value::Null);
    match str_of(message, "type") {
        Some("user") => {
            for part in parts(content) {
                if let Some(response) = part.get("functionResponse") {
                    let call = response.get("id").and_then(Value::as_str);
                    if call.is_some_and(|c| shown.contains(c)) {
                        continue;
                    }
                    let mut turn = Turn::new(Role::ToolResult, response_text(response))
                        .when(at)
                        .with_id(call);
                    turn.tool = response
                        .get("name")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .or_else(|| call.and_then(|c| tools.get(c)).cloned());
                    out.push(turn);
                }
            }
            let shown_text = message
                .get("displayContent")
                .map(parts_text)
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| parts_text(content));
            if !shown_text.trim().is_empty() {
                out.push(Turn::new(Role::User, shown_text).when(at).with_id(id));
            }
        }
        Some("gemini") => {
            let text = parts_text(content);
            if !text.trim().is_empty() {
                out.push(Turn::new(Role::Assistant, text).when(at).with_id(id));
            }
            let calls = message.get("toolCalls").and_then(Value::as_array);
            for call in calls.into_iter().flatten().filter_map(Value::as_object) {
                let name = str_of(call, "name").unwrap_or("");
                let call_id = str_of(call, "id");
                let when = str_of(call, "timestamp").or(at);
                let arguments = call.get("args").cloned().unwrap_or(Value::Null);
                out.push(Turn::call(name, arguments).when(when).with_id(call_id));
                if let Some(call_id) = call_id {
                    tools.insert(call_id.to_string(), name.to_string());
                }
                let result = call.get("result").filter(|r| !r.is_null());
                if let Some(result) = result {
                    let text = parts(result)
                        .filter_map(|p| p.get("functionResponse"))
                        .map(response_text)
                        .collect::<Vec<_>>()
                        .join("\n");
                    let mut turn = Turn::new(Role::ToolResult, text)
                        .when(when)
                        .with_id(call_id);
                    turn.tool = Some(name.to_string());
                    out.push(turn);
                    if let Some(call_id) = call_id {
                        shown.insert(call_id.to_string());
                    }
                }
            }
        }
        Some("info" | "error" | "warning") => {
            let text = parts_text(content);
            if !text.trim().is_empty() {
                out.push(Turn::new(Role::System, text).when(at).with_id(id));
            }
        }
        _ => {}
    }
}

/// The parts of a `PartListUnion`: a string, a part, or a list of strings and parts.
fn parts(content: &Value) -> impl Iterator<Item = &Map<String, Value>> {
    let list: Vec<&Value> = match content {
        Value::Array(items) => items.iter().collect(),
        Value::Object(_) => vec![content],
        _ => Vec::new(),
    };
    list.into_iter().filter_map(Value::as_object)
}

/// The text of a `PartListUnion`: its strings and `text` parts, joined.
fn parts_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .filter_map(|item| match item {
                Value::String(s) => Some(s.as_str()),
                Value::Object(part) => str_of(part, "text"),
                _ => None,
            })
            .collect(),
        Value::Object(part) => str_of(part, "text").unwrap_or("").to_string(),
        _ => String::new(),
    }
}

/// A `functionResponse`'s text: its `response.output` (or `error`), else the response.
fn response_text(response: &Value) -> String {
    let body = response.get("response").unwrap_or(&Value::Null);
    for key in ["output", "error"] {
        if let Some(text) = body.get(key).and_then(Value::as_str) {
            return text.to_string();
        }
    }
    match body {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The recording as session `new_id`: the metadata's `sessionId` (and that of `$set`
/// updates) rewritten.
pub(super) fn new_session(bytes: &[u8], new_id: &str) -> Result<Vec<u8>, String> {
    // An older file is one document, perhaps over many lines: its top-level `sessionId`.
    if let Ok(Value::Object(doc)) = serde_json::from_slice::<Value>(bytes)
        && doc.contains_key("messages")
    {
        let ranges = strings_equal(bytes, span::member_values(bytes, "sessionId"), None);
        if ranges.is_empty() {
            return Err("the Gemini CLI recording has no `sessionId`".into());
        }
        let quoted = Value::String(new_id.to_string()).to_string().into_bytes();
        let edits = ranges.into_iter().map(|r| (r, quoted.clone())).collect();
        return Ok(span::replace(bytes, edits));
    }
    let (out, count) = rewrite_lines(bytes, new_id, |line, record| {
        let mut ranges = Vec::new();
        if str_of(record, "projectHash").is_some() {
            ranges.extend(span::member_values(line, "sessionId"));
        }
        ranges.extend(span::values_at(line, &["$set", "sessionId"]));
        strings_equal(line, ranges, None)
    });
    if count == 0 {
        return Err("the Gemini CLI recording has no metadata record with a `sessionId`".into());
    }
    Ok(out)
}
