//! Claude Code's session file, `~/.claude/projects/<project>/<session id>.jsonl`.
//!
//! One JSON object a line. Conversation entries (`type` `user`, `assistant`, `system`, and
//! `progress`, `attachment`) carry a `uuid`, the `parentUuid` of the entry before them, the
//! `sessionId`, a `timestamp`, and for `user`/`assistant` an Anthropic API `message` (an
//! assistant reply is written one content block a line). Other lines (`summary`,
//! `file-history-snapshot`, `custom-title`, …) are not turns. A rewind or a branch leaves
//! entries of abandoned timelines in the file: the conversation is the chain of `parentUuid`s
//! from the newest leaf, as `claude-agent-sdk-python` reads it (`_internal/sessions.py`,
//! `_build_conversation_chain`), with one difference: walking up from an entry nothing
//! follows, the leaf is the nearest main-chain message (the SDK takes the nearest message, and
//! drops it if it is meta, so a timeline ending in a meta entry lost to an older one).
//! Sidechain (sub-agent) and meta entries are not shown there, nor here.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Role, Turn, block_turns, records, rewrite_lines, span, str_of, strings_equal};

/// The entries that are part of the conversation chain.
const CHAIN_TYPES: [&str; 5] = ["user", "assistant", "system", "progress", "attachment"];

/// Whether a record is plainly a Claude Code line.
pub(super) fn looks_like(record: &Map<String, Value>) -> bool {
    match str_of(record, "type") {
        Some("user" | "assistant") => {
            record.get("message").is_some_and(Value::is_object)
                && (record.contains_key("uuid") || record.contains_key("sessionId"))
        }
        Some("system" | "progress" | "attachment") => {
            record.contains_key("uuid") && record.contains_key("sessionId")
        }
        Some("summary") => record.contains_key("leafUuid"),
        Some("file-history-snapshot") => record.contains_key("snapshot"),
        _ => false,
    }
}

pub(super) fn turns(bytes: &[u8]) -> Result<Vec<Turn>, String> {
    let records = records(bytes, "Claude Code")?;
    let entries: Vec<&Map<String, Value>> = records
        .iter()
        .filter(|r| str_of(r, "type").is_some_and(|t| CHAIN_TYPES.contains(&t)))
        .collect();
    let mut out = Vec::new();
    let mut tools = HashMap::new();
    for entry in chain(&entries) {
        entry_turns(entry, &mut tools, &mut out);
    }
    Ok(out)
}

/// The conversation: the chain from the newest main-chain leaf back to the root, in order;
/// the entries as they are when none has a `uuid`, or none says its parent (a transcript
/// written by another tool, or cut down by hand: there is no chain to follow).
fn chain<'a>(entries: &[&'a Map<String, Value>]) -> Vec<&'a Map<String, Value>> {
    if !entries.iter().any(|e| str_of(e, "uuid").is_some())
        || !entries.iter().any(|e| e.contains_key("parentUuid"))
    {
        return entries.to_vec();
    }
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if let Some(uuid) = str_of(e, "uuid") {
            index.insert(uuid, i);
        }
    }
    let parent = |i: usize| -> Option<usize> {
        entries
            .get(i)
            .and_then(|e| str_of(e, "parentUuid"))
            .and_then(|p| index.get(p).copied())
    };
    let parents: HashSet<&str> = entries
        .iter()
        .filter_map(|e| str_of(e, "parentUuid"))
        .collect();
    let is_message = |i: usize| {
        entries
            .get(i)
            .is_some_and(|e| matches!(str_of(e, "type"), Some("user" | "assistant")) && is_main(e))
    };
    // From each terminal entry (no child), the nearest main-chain user or assistant entry up
    // its chain; `nearest` remembers the answer for every entry walked, so each is walked
    // once.
    let mut nearest: HashMap<usize, Option<usize>> = HashMap::new();
    let mut leaves = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let Some(uuid) = str_of(e, "uuid") else {
            continue;
        };
        if parents.contains(uuid) || index.get(uuid) != Some(&i) {
            continue;
        }
        let mut path = Vec::new();
        let mut at = Some(i);
        let found = loop {
            let Some(here) = at else { break None };
            if let Some(known) = nearest.get(&here) {
                break *known;
            }
            if is_message(here) {
                break Some(here);
            }
            if path.contains(&here) {
                break None;
            }
            path.push(here);
            at = parent(here);
        };
        for walked in path {
            nearest.insert(walked, found);
        }
        leaves.extend(found);
    }
    let leaf = leaves.iter().max();
    let mut walked = Vec::new();
    let mut seen = HashSet::new();
    let mut at = leaf.copied();
    while let Some(here) = at {
        if !seen.insert(here) {
            break;
        }
        walked.push(here);
        at = parent(here);
    }
    walked.reverse();
    walked
        .into_iter()
        .filter_map(|i| entries.get(i).copied())
        .collect()
}

/// Whether an entry is of the main conversation: not a sub-agent's, a team's, or meta.
fn is_main(entry: &Map<String, Value>) -> bool {
    !flag(entry, "isSidechain") && !flag(entry, "isMeta") && !entry.contains_key("teamName")
}

fn flag(entry: &Map<String, Value>, key: &str) -> bool {
    entry.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// The turns of one entry: what a user or assistant entry says, a system entry's notice.
fn entry_turns(
    entry: &Map<String, Value>,
    tools: &mut HashMap<String, String>,
    out: &mut Vec<Turn>,
) {
    if flag(entry, "isSidechain") || entry.contains_key("teamName") {
        return;
    }
    let at = str_of(entry, "timestamp");
    let uuid = str_of(entry, "uuid");
    let from = out.len();
    match str_of(entry, "type") {
        Some("user") if !flag(entry, "isMeta") => {
            let role = if flag(entry, "isCompactSummary") {
                Role::System
            } else {
                Role::User
            };
            if let Some(content) = entry.get("message").and_then(|m| m.get("content")) {
                block_turns(role, content, tools, out);
            }
        }
        Some("assistant") if !flag(entry, "isMeta") => {
            if let Some(content) = entry.get("message").and_then(|m| m.get("content")) {
                block_turns(Role::Assistant, content, tools, out);
            }
        }
        Some("system") => {
            if let Some(text) = str_of(entry, "content").filter(|t| !t.trim().is_empty()) {
                out.push(Turn::new(Role::System, text));
            }
        }
        _ => {}
    }
    for turn in out.iter_mut().skip(from) {
        turn.at = at.map(str::to_string);
        if turn.id.is_none() {
            turn.id = uuid.map(str::to_string);
        }
    }
}

/// The transcript as session `new_id`: every line's `sessionId` rewritten.
pub(super) fn new_session(bytes: &[u8], new_id: &str) -> Result<Vec<u8>, String> {
    let (out, count) = rewrite_lines(bytes, new_id, |line, _| {
        strings_equal(line, span::member_values(line, "sessionId"), None)
    });
    if count == 0 {
        return Err("the Claude Code transcript has no `sessionId`".into());
    }
    Ok(out)
}
