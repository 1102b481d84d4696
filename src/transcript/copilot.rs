//! GitHub Copilot CLI's session log, `~/.copilot/session-state/<session id>/events.jsonl`.
//!
//! One event a line, `{"type", "data", "id", "timestamp", "parentId"}` (the event types of
//! `github/copilot-sdk`, `nodejs/src/generated/session-events.ts`; Copilot CLI itself is
//! closed source): `session.start` (`data.sessionId`), `user.message` (`content`, and the
//! `transformedContent` sent to the model), `assistant.message` (`content`, `toolRequests`
//! with `toolCallId`, `name`, `arguments`), `tool.execution_start` and
//! `tool.execution_complete` (`result.content` or `error.message`), `session.snapshot_rewind`
//! (`upToEventId`: that event and all after it are undone), and many more, not turns. Events
//! of sub-agents (`agentId`) and transient ones (`ephemeral`) are left out.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Role, Turn, records, rewrite_lines, span, str_of, strings_equal};

/// Whether a record is plainly a Copilot CLI event.
pub(super) fn looks_like(record: &Map<String, Value>) -> bool {
    str_of(record, "type").is_some_and(|t| {
        t.contains('.')
            && t.bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'.' || b == b'_')
    }) && record.get("data").is_some_and(Value::is_object)
        && str_of(record, "id").is_some()
}

pub(super) fn turns(bytes: &[u8]) -> Result<Vec<Turn>, String> {
    let mut out: Vec<Turn> = Vec::new();
    // Where each event's turns begin, for a rewind to it.
    let mut starts: Vec<(String, usize)> = Vec::new();
    let mut called: HashSet<String> = HashSet::new();
    let mut tools: HashMap<String, String> = HashMap::new();
    for event in records(bytes, "Copilot CLI")? {
        let ephemeral = event.get("ephemeral").and_then(Value::as_bool) == Some(true);
        if event.contains_key("agentId") || ephemeral {
            continue;
        }
        let Some(data) = event.get("data").and_then(Value::as_object) else {
            continue;
        };
        let at = str_of(&event, "timestamp");
        let id = str_of(&event, "id");
        if let Some(id) = id {
            starts.push((id.to_string(), out.len()));
        }
        match str_of(&event, "type") {
            Some("user.message") => {
                let text = str_of(data, "content")
                    .filter(|t| !t.trim().is_empty())
                    .or_else(|| str_of(data, "transformedContent"))
                    .unwrap_or("");
                if !text.trim().is_empty() {
                    out.push(Turn::new(Role::User, text).when(at).with_id(id));
                }
            }
            Some("assistant.message") => {
                let text = str_of(data, "content").unwrap_or("");
                if !text.trim().is_empty() {
                    out.push(Turn::new(Role::Assistant, text).when(at).with_id(id));
                }
                let requests = data.get("toolRequests").and_then(Value::as_array);
                for request in requests.into_iter().flatten().filter_map(Value::as_object) {
                    let name = str_of(request, "name").unwrap_or("");
                    let call = str_of(request, "toolCallId");
                    if let Some(call) = call {
                        called.insert(call.to_string());
                        tools.insert(call.to_string(), name.to_string());
                    }
                    let arguments = request.get("arguments").cloned().unwrap_or(Value::Null);
                    out.push(Turn::call(name, arguments).when(at).with_id(call));
                }
            }
            Some("tool.execution_start") => {
                let call = str_of(data, "toolCallId");
                if call.is_some_and(|c| called.contains(c)) {
                    continue;
                }
                let name = str_of(data, "toolName").unwrap_or("");
                if let Some(call) = call {
                    called.insert(call.to_string());
                    tools.insert(call.to_string(), name.to_string());
                }
                let arguments = data.get("arguments").cloned().unwrap_or(Value::Null);
                out.push(Turn::call(name, arguments).when(at).with_id(call));
            }
            Some("tool.execution_complete") => {
                let call = str_of(data, "toolCallId");
                let result = data.get("result").and_then(|r| r.get("content"));
                let error = data.get("error").and_then(|e| e.get("message"));
                let text = result.or(error).and_then(Value::as_str).unwrap_or("");
                let mut turn = Turn::new(Role::ToolResult, text).when(at).with_id(call);
                turn.tool = call.and_then(|c| tools.get(c)).cloned();
                out.push(turn);
            }
            Some("session.snapshot_rewind") => {
                let to = str_of(data, "upToEventId");
                let found = starts.iter().position(|(id, _)| Some(id.as_str()) == to);
                if let Some((at, keep)) = found.and_then(|at| Some((at, starts.get(at)?.1))) {
                    out.truncate(keep);
                    starts.truncate(at);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The log as session `new_id`: `data.sessionId` rewritten wherever it is `session.start`'s.
pub(super) fn new_session(bytes: &[u8], new_id: &str) -> Result<Vec<u8>, String> {
    let old = super::objects(bytes).find_map(|event| {
        if str_of(&event, "type") != Some("session.start") {
            return None;
        }
        let data = event.get("data")?;
        data.get("sessionId")?.as_str().map(str::to_string)
    });
    let Some(old) = old else {
        return Err("the Copilot CLI log has no `session.start` event with a session id".into());
    };
    let (out, _) = rewrite_lines(bytes, new_id, |line, _| {
        strings_equal(
            line,
            span::values_at(line, &["data", "sessionId"]),
            Some(&old),
        )
    });
    Ok(out)
}
