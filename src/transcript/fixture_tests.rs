//! The formats on transcripts in each agent's real format (`tests/fixtures/transcripts`, see
//! its README for where each format was read), and on broken ones.

use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use super::*;

type R = std::result::Result<(), String>;

const CLAUDE: &[u8] = include_bytes!(
    "../../tests/fixtures/transcripts/claude-code/8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31.jsonl"
);
const CODEX: &[u8] = include_bytes!(
    "../../tests/fixtures/transcripts/codex/rollout-2026-08-20T10-02-11-0198c4a2-6f3b-7d21-a8e4-3c5b9f0d2e17.jsonl"
);
const GEMINI: &[u8] = include_bytes!(
    "../../tests/fixtures/transcripts/gemini/session-2026-08-20T07-30-3c1e7f0a.jsonl"
);
const COPILOT: &[u8] = include_bytes!(
    "../../tests/fixtures/transcripts/copilot/b0ff98c0-8e01-4b73-bf92-9649b139931b/events.jsonl"
);
const CURSOR: &[u8] = include_bytes!(
    "../../tests/fixtures/transcripts/cursor/e3a1c5b7-9d2f-4e6a-8b0c-4f7d1a3e5c92.jsonl"
);
const CHAT: &[u8] = include_bytes!("../../tests/fixtures/transcripts/json/chat-completions.json");

/// Each agent fixture, its format and its session id (`None`: the format keeps none).
const AGENTS: [(Format, &[u8], Option<&str>); 5] = [
    (
        Format::ClaudeCode,
        CLAUDE,
        Some("8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31"),
    ),
    (
        Format::Codex,
        CODEX,
        Some("0198c4a2-6f3b-7d21-a8e4-3c5b9f0d2e17"),
    ),
    (
        Format::Gemini,
        GEMINI,
        Some("3c1e7f0a-92b4-4d6e-b815-7a2f9c0e4d63"),
    ),
    (
        Format::Copilot,
        COPILOT,
        Some("b0ff98c0-8e01-4b73-bf92-9649b139931b"),
    ),
    (Format::Cursor, CURSOR, None),
];

const PROMPT: &str = "Add a --shout flag to greet.py that prints the greeting in upper case.";
const SECOND: &str = "Now add a test for it.";
const NEW_ID: &str = "1f0e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";

/// Checks each turn's role, the start of its text and its tool.
fn expect(turns: &[Turn], expected: &[(Role, &str, Option<&str>)]) -> R {
    let found: Vec<(Role, &str, Option<&str>)> = turns
        .iter()
        .map(|t| (t.role, t.text.as_str(), t.tool.as_deref()))
        .collect();
    let matches = found.len() == expected.len()
        && found
            .iter()
            .zip(expected)
            .all(|(f, e)| f.0 == e.0 && f.1.starts_with(e.1) && f.2 == e.2);
    if matches {
        Ok(())
    } else {
        Err(format!(
            "expected {expected:#?}
found {found:#?}"
        ))
    }
}

#[test]
fn names_round_trip() {
    for format in Format::ALL {
        assert_eq!(Format::from_name(format.name()), Some(format));
        assert_eq!(format.to_string(), format.name());
    }
    assert_eq!(Format::from_name("claude"), None);
}

#[test]
fn roles_serialize_in_snake_case() -> R {
    let turn = Turn::call("Edit", json!({"a": 1}));
    let value = serde_json::to_value(&turn).map_err(|e| e.to_string())?;
    assert_eq!(value["role"], "tool_call");
    assert_eq!(value["tool"], "Edit");
    assert_eq!(value["at"], Value::Null);
    let back: Turn = serde_json::from_value(value).map_err(|e| e.to_string())?;
    assert_eq!(back, turn);
    Ok(())
}

#[test]
fn detects_each_format_by_content_and_by_agent() {
    for (format, bytes, _) in AGENTS {
        assert_eq!(detect(None, bytes), format, "{format}");
        assert_eq!(detect(Some(format.name()), bytes), format, "{format}");
        // An agent that runs another's hooks (Copilot CLI runs Claude Code's): the content wins.
        assert_eq!(detect(Some("claude-code"), bytes), format, "{format}");
    }
    assert_eq!(detect(None, CHAT), Format::Json);
    assert_eq!(detect(None, b"{\"notes\": [1, 2]}"), Format::Json);
    let jsonl =
        b"{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"hello\"}\n";
    assert_eq!(detect(None, jsonl), Format::Json);
    assert_eq!(
        detect(None, b"User: hi\n\nAssistant: hello\n"),
        Format::Text
    );
    assert_eq!(detect(None, b""), Format::Text);
    // A named agent's format is taken when the content says nothing else (empty, being written).
    assert_eq!(detect(Some("codex"), b""), Format::Codex);
    assert_eq!(detect(Some("cline"), b"hello"), Format::Text);
}

#[test]
fn claude_code_transcript_reads_as_its_turns() -> R {
    let turns = turns(Format::ClaudeCode, CLAUDE)?;
    expect(
        &turns,
        &[
            (Role::User, PROMPT, None),
            (Role::Assistant, "I'll add the flag with argparse", None),
            (Role::ToolCall, "", Some("Edit")),
            (
                Role::ToolResult,
                "The file /home/ada/src/greeter",
                Some("Edit"),
            ),
            (Role::Assistant, "Done: `python greet.py --shout", None),
            (Role::User, SECOND, None),
            (Role::Assistant, "I'll add tests/test_greet.py", None),
        ],
    )?;
    let call = &turns[2];
    assert_eq!(call.id.as_deref(), Some("toolu_01HvT8cX5kP2mQ9rN4sW7yZa"));
    assert_eq!(turns[3].id, call.id, "the result pairs with its call");
    let arguments = call.arguments.as_ref().ok_or("no arguments")?;
    assert_eq!(arguments["file_path"], "/home/ada/src/greeter/greet.py");
    assert!(
        arguments["new_string"]
            .as_str()
            .is_some_and(|s| s.contains("--shout"))
    );
    assert_eq!(turns[0].at.as_deref(), Some("2026-08-20T09:14:02.104Z"));
    assert_eq!(
        turns[0].id.as_deref(),
        Some("6f1c2a90-3e4d-4b8a-8c1f-0a9b7d6e5f41")
    );
    Ok(())
}

#[test]
fn codex_rollout_reads_as_its_turns() -> R {
    let turns = turns(Format::Codex, CODEX)?;
    expect(
        &turns,
        &[
            (Role::User, PROMPT, None),
            (Role::Assistant, "I'll patch greet.py", None),
            (Role::ToolCall, "", Some("apply_patch")),
            (
                Role::ToolResult,
                "Success. Updated the following files:\nM greet.py",
                Some("apply_patch"),
            ),
            (Role::ToolCall, "", Some("shell")),
            (Role::ToolResult, "Exit code: 0", Some("shell")),
            (Role::Assistant, "Done: `python greet.py", None),
            (Role::User, SECOND, None),
        ],
    )?;
    // apply_patch takes free text; shell a JSON object (given as a string, read as JSON).
    assert!(
        turns[2]
            .arguments
            .as_ref()
            .and_then(Value::as_str)
            .is_some_and(|patch| patch.starts_with("*** Begin Patch"))
    );
    assert_eq!(
        turns[4].arguments,
        Some(
            json!({"command": ["bash", "-lc", "python greet.py --shout Ada"],
                    "workdir": "/home/ada/src/greeter"})
        )
    );
    assert_eq!(
        turns[4].id.as_deref(),
        Some("call_Hk3nV8pQ2wE5rT9yU1iO4aSd")
    );
    assert_eq!(turns[5].id, turns[4].id);
    assert_eq!(turns[0].at.as_deref(), Some("2026-08-20T08:02:40.108Z"));
    Ok(())
}

#[test]
fn codex_without_user_events_takes_the_users_messages_but_not_injected_context() -> R {
    let without: Vec<u8> = lines(CODEX)
        .filter(|(line, _)| !line.windows(14).any(|w| w == b"\"user_message\""))
        .flat_map(|(line, _)| line.iter().copied().chain([b'\n']))
        .collect();
    let turns = turns(Format::Codex, &without)?;
    let prompts: Vec<&str> = turns
        .iter()
        .filter(|t| t.role == Role::User)
        .map(|t| t.text.as_str())
        .collect();
    assert_eq!(prompts, [PROMPT, SECOND]);
    Ok(())
}

#[test]
fn gemini_recording_reads_as_its_turns() -> R {
    let turns = turns(Format::Gemini, GEMINI)?;
    expect(
        &turns,
        &[
            (Role::User, PROMPT, None),
            (Role::Assistant, "I'll update `main()`", None),
            (Role::ToolCall, "", Some("replace")),
            (
                Role::ToolResult,
                "Successfully modified file",
                Some("replace"),
            ),
            (Role::Assistant, "Done: `python greet.py", None),
            (Role::User, SECOND, None),
        ],
    )?;
    assert_eq!(
        turns[2].id.as_deref(),
        Some("replace__replace_1755675026117_0")
    );
    assert_eq!(turns[2].at.as_deref(), Some("2026-08-20T07:30:27.902Z"));
    let arguments = turns[2].arguments.as_ref().ok_or("no arguments")?;
    assert_eq!(arguments["file_path"], "/home/ada/src/greeter/greet.py");
    Ok(())
}

#[test]
fn gemini_rewinds_and_checkpoints_are_replayed() -> R {
    let mut log = GEMINI.to_vec();
    // Rewinding to the second prompt removes it and what follows.
    log.extend_from_slice(b"{\"$rewindTo\":\"c1d2e3f4-a5b6-4c7d-9e8f-0a1b2c3d4e5f\"}\n");
    let rewound = turns(Format::Gemini, &log)?;
    assert_eq!(rewound.len(), 5);
    assert_eq!(rewound.last().map(|t| t.role), Some(Role::Assistant));
    // A message written again after the rewind comes back at the end.
    log.extend_from_slice(
        b"{\"id\":\"c1d2e3f4-a5b6-4c7d-9e8f-0a1b2c3d4e5f\",\"timestamp\":\"2026-08-20T07:32:00.000Z\",\"type\":\"user\",\"content\":\"Add a test instead.\"}\n",
    );
    let again = turns(Format::Gemini, &log)?;
    assert_eq!(
        again.last().map(|t| t.text.as_str()),
        Some("Add a test instead.")
    );
    // `$set` with messages replaces them all.
    log.extend_from_slice(
        b"{\"$set\":{\"messages\":[{\"id\":\"x\",\"timestamp\":\"t\",\"type\":\"user\",\"content\":[{\"text\":\"only this\"}]}]}}\n",
    );
    let replaced = turns(Format::Gemini, &log)?;
    expect(&replaced, &[(Role::User, "only this", None)])?;
    Ok(())
}

#[test]
fn gemini_older_single_document_files_are_read() -> R {
    let doc = json!({
        "sessionId": "3c1e7f0a-92b4-4d6e-b815-7a2f9c0e4d63",
        "projectHash": "9f2c",
        "startTime": "2026-08-20T07:30:02.417Z",
        "lastUpdated": "2026-08-20T07:30:02.417Z",
        "messages": [
            {"id": "1", "timestamp": "t", "type": "user", "content": "hi"},
            {"id": "2", "timestamp": "t", "type": "gemini", "content": "hello"}
        ]
    });
    let pretty = serde_json::to_vec_pretty(&doc).map_err(|e| e.to_string())?;
    assert_eq!(detect(None, &pretty), Format::Gemini);
    let read = turns(Format::Gemini, &pretty)?;
    expect(
        &read,
        &[(Role::User, "hi", None), (Role::Assistant, "hello", None)],
    )?;
    let renamed = new_session(Format::Gemini, &pretty, NEW_ID)?;
    let expected =
        String::from_utf8_lossy(&pretty).replace("3c1e7f0a-92b4-4d6e-b815-7a2f9c0e4d63", NEW_ID);
    assert_eq!(String::from_utf8_lossy(&renamed), expected);
    Ok(())
}

#[test]
fn copilot_log_reads_as_its_turns() -> R {
    let turns = turns(Format::Copilot, COPILOT)?;
    expect(
        &turns,
        &[
            (Role::User, PROMPT, None),
            (Role::Assistant, "I'll add the flag to greet", None),
            (Role::ToolCall, "", Some("edit")),
            (Role::ToolResult, "File /home/ada/src/greeter", Some("edit")),
            (Role::Assistant, "Done: `python greet.py", None),
            (Role::User, SECOND, None),
        ],
    )?;
    assert_eq!(
        turns[2].id.as_deref(),
        Some("toolu_vrtx_01RfH8kM3nP5qS7tV9wX2yZ4")
    );
    assert_eq!(turns[3].id, turns[2].id);
    Ok(())
}

#[test]
fn copilot_snapshot_rewinds_undo_events() -> R {
    let mut log = COPILOT.to_vec();
    // Back to before the first assistant message.
    log.extend_from_slice(
        b"{\"type\":\"session.snapshot_rewind\",\"data\":{\"upToEventId\":\"3b61c4d5-6e7f-4081-8b9c-1d2e3f4a5b6c\",\"eventsRemoved\":7},\"id\":\"9ede4c53-e6f7-4809-8314-9fa0b1c2d3e4\",\"timestamp\":\"2026-08-20T10:42:00.000Z\",\"parentId\":\"8dcd3b42-d5e6-47f8-b203-8e9fa0b1c2d3\"}\n",
    );
    let turns = turns(Format::Copilot, &log)?;
    expect(&turns, &[(Role::User, PROMPT, None)])?;
    Ok(())
}

#[test]
fn cursor_transcript_reads_as_its_turns() -> R {
    let turns = turns(Format::Cursor, CURSOR)?;
    expect(
        &turns,
        &[
            (Role::User, PROMPT, None),
            (Role::Assistant, "I'll add the flag to `main", None),
            (Role::ToolCall, "", Some("StrReplace")),
            (Role::Assistant, "Done: `python greet.py", None),
            (Role::User, SECOND, None),
        ],
    )?;
    assert_eq!(turns[0].text, PROMPT, "the prompt without its tags");
    Ok(())
}

#[test]
fn claude_code_follows_the_chain_past_a_rewound_timeline() -> R {
    // After the first reply the user went back and asked again: the file holds both branches,
    // the conversation is the newest.
    let log = concat!(
        r#"{"type":"user","uuid":"a","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"first"}}"#,
        "\n",
        r#"{"type":"assistant","uuid":"b","parentUuid":"a","sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"one"}]}}"#,
        "\n",
        r#"{"type":"user","uuid":"c","parentUuid":"b","sessionId":"s","message":{"role":"user","content":"abandoned"}}"#,
        "\n",
        r#"{"type":"user","uuid":"d","parentUuid":"b","sessionId":"s","message":{"role":"user","content":"second"}}"#,
        "\n",
        r#"{"type":"user","uuid":"e","parentUuid":"d","sessionId":"s","isMeta":true,"message":{"role":"user","content":"<meta>"}}"#,
        "\n",
        r#"{"type":"assistant","uuid":"f","parentUuid":"a","sessionId":"s","isSidechain":true,"message":{"role":"assistant","content":"side"}}"#,
        "\n",
    );
    let read = turns(Format::ClaudeCode, log.as_bytes())?;
    let texts: Vec<&str> = read.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["first", "one", "second"]);
    // A cycle does not hang.
    let cycle = concat!(
        r#"{"type":"user","uuid":"a","parentUuid":"b","message":{"role":"user","content":"x"}}"#,
        "\n",
        r#"{"type":"assistant","uuid":"b","parentUuid":"a","message":{"role":"assistant","content":"y"}}"#,
        "\n",
    );
    assert!(turns(Format::ClaudeCode, cycle.as_bytes())?.len() <= 2);
    Ok(())
}

#[test]
fn json_chat_messages_read_as_turns() -> R {
    let read = turns(Format::Json, CHAT)?;
    expect(
        &read,
        &[
            (Role::System, "You are a careful coding", None),
            (Role::User, PROMPT, None),
            (Role::Assistant, "I'll edit greet.py.", None),
            (Role::ToolCall, "", Some("edit_file")),
            (Role::ToolResult, "edited greet.py", Some("edit_file")),
            (Role::Assistant, "Done.", None),
            (Role::User, SECOND, None),
        ],
    )?;
    assert_eq!(
        read[3].arguments.as_ref().map(|a| a["path"].clone()),
        Some(json!("greet.py"))
    );
    // Anthropic's shape, inside an object's `messages`.
    let anthropic = json!({"messages": [
        {"role": "user", "content": [{"type": "text", "text": "fix it"}]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Reading."},
            {"type": "tool_use", "id": "t1", "name": "read", "input": {"path": "a"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "body"}]}
    ]});
    let read = turns(Format::Json, anthropic.to_string().as_bytes())?;
    expect(
        &read,
        &[
            (Role::User, "fix it", None),
            (Role::Assistant, "Reading.", None),
            (Role::ToolCall, "", Some("read")),
            (Role::ToolResult, "body", Some("read")),
        ],
    )?;
    // Gemini API contents.
    let gemini = json!({"contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "ls", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "ls", "response": {"output": "a b"}}}]}
    ]});
    let read = turns(Format::Json, gemini.to_string().as_bytes())?;
    expect(
        &read,
        &[
            (Role::User, "hi", None),
            (Role::ToolCall, "", Some("ls")),
            (Role::ToolResult, "a b", Some("ls")),
        ],
    )?;
    // JSON Lines of messages.
    let lines =
        b"{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"hello\"}\n";
    assert_eq!(turns(Format::Json, lines)?.len(), 2);
    // Other values: no turns; not JSON: an error.
    assert!(turns(Format::Json, b"{\"notes\": [1, 2]}")?.is_empty());
    assert!(turns(Format::Json, b"42")?.is_empty());
    assert!(turns(Format::Json, b"not json").is_err());
    Ok(())
}

#[test]
fn text_reads_as_one_turn_per_speaker() -> R {
    let text = "User: add a flag\n\nplease\n\n**Assistant:** done\n\n## System: compacted\n";
    assert_eq!(
        turns(Format::Text, text.as_bytes())?,
        [
            Turn::new(Role::User, "add a flag\n\nplease"),
            Turn::new(Role::Assistant, "done"),
            Turn::new(Role::System, "compacted"),
        ]
    );
    assert_eq!(
        turns(Format::Text, b"just a note\n\nin two paragraphs")?,
        [Turn::new(Role::User, "just a note\n\nin two paragraphs")]
    );
    assert!(turns(Format::Text, b"  \n\n")?.is_empty());
    Ok(())
}

/// `bytes` with two lines this version does not know between every two lines.
fn with_unknown_lines(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (line, _) in lines(bytes) {
        out.extend_from_slice(line);
        out.extend_from_slice(
            b"\n{\"type\":\"a-future-kind\",\"data\":{},\"payload\":{}}\nnot json at all\n\n",
        );
    }
    out
}

#[test]
fn unknown_lines_are_skipped() -> R {
    for (format, bytes, _) in AGENTS {
        let plain = turns(format, bytes)?;
        let noisy = turns(format, &with_unknown_lines(bytes))?;
        assert_eq!(noisy, plain, "{format}");
    }
    Ok(())
}

#[test]
fn a_last_line_being_written_is_skipped_not_an_error() -> R {
    for (format, bytes, _) in AGENTS {
        let ends: Vec<usize> = bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        let mut start = 0;
        for end in ends {
            let complete = turns(format, &bytes[..start])?;
            for cut in [start + 1, (start + end) / 2, end - 2] {
                if cut <= start || cut >= end {
                    continue;
                }
                let partial = turns(format, &bytes[..cut])
                    .map_err(|e| format!("{format} cut at {cut}: {e}"))?;
                assert_eq!(partial, complete, "{format} cut at {cut}");
            }
            start = end;
        }
    }
    Ok(())
}

#[test]
fn a_new_session_differs_in_its_ids_only_and_reads_the_same() -> R {
    for (format, bytes, old) in AGENTS {
        let renamed = new_session(format, bytes, NEW_ID)?;
        let text = String::from_utf8_lossy(bytes);
        match old {
            Some(old) => {
                assert!(text.contains(old), "{format}: the fixture holds its id");
                assert_eq!(
                    String::from_utf8_lossy(&renamed),
                    text.replace(old, NEW_ID),
                    "{format}"
                );
            }
            None => assert_eq!(renamed, bytes, "{format}"),
        }
        assert_eq!(turns(format, &renamed)?, turns(format, bytes)?, "{format}");
        // The id is where the agent reads it.
        let lines: Vec<Value> = objects(&renamed).map(Value::Object).collect();
        let first_id = match format {
            Format::ClaudeCode => lines.iter().find_map(|l| l.get("sessionId")).cloned(),
            Format::Codex => lines.first().map(|l| l["payload"]["id"].clone()),
            Format::Gemini => lines.first().map(|l| l["sessionId"].clone()),
            Format::Copilot => lines.first().map(|l| l["data"]["sessionId"].clone()),
            _ => None,
        };
        if old.is_some() {
            assert_eq!(first_id, Some(json!(NEW_ID)), "{format}");
        }
    }
    Ok(())
}

#[test]
fn a_new_session_leaves_out_a_cut_last_line_and_ends_lines() -> R {
    for (format, bytes, _) in AGENTS {
        let whole = new_session(format, bytes, NEW_ID)?;
        let mut cut = bytes.to_vec();
        cut.extend_from_slice(b"{\"type\":\"user\",\"mess");
        assert_eq!(new_session(format, &cut, NEW_ID)?, whole, "{format}");
        let unended = bytes.strip_suffix(b"\n").ok_or("no newline")?;
        assert_eq!(new_session(format, unended, NEW_ID)?, whole, "{format}");
    }
    Ok(())
}

#[test]
fn a_new_session_needs_an_id_and_a_session() {
    for (format, bytes, old) in AGENTS {
        assert!(new_session(format, bytes, "").is_err());
        assert!(new_session(format, bytes, "a b").is_err());
        assert!(new_session(format, bytes, "../x").is_err());
        let garbage = new_session(format, b"{\"x\":1}\nnot json\n", NEW_ID);
        assert_eq!(garbage.is_err(), old.is_some(), "{format}");
    }
    assert_eq!(new_session(Format::Json, CHAT, NEW_ID).as_deref(), Ok(CHAT));
    assert_eq!(
        new_session(Format::Text, b"hi", NEW_ID).as_deref(),
        Ok(&b"hi"[..])
    );
}

#[test]
fn codex_rewrites_its_own_thread_id_not_a_parents() -> R {
    let parent = "0198c400-0000-7000-8000-000000000001";
    let mut log = CODEX.to_vec();
    // A fork copies its parent's session_meta after its own.
    log.extend_from_slice(
        format!("{{\"timestamp\":\"t\",\"type\":\"session_meta\",\"payload\":{{\"id\":\"{parent}\",\"session_id\":\"{parent}\"}}}}\n").as_bytes(),
    );
    let renamed = String::from_utf8_lossy(&new_session(Format::Codex, &log, NEW_ID)?).into_owned();
    assert_eq!(renamed.matches(parent).count(), 2);
    assert_eq!(renamed.matches(NEW_ID).count(), 1);
    Ok(())
}

fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp(1_787_216_400, 0).unwrap_or_default()
}

#[test]
fn session_files_are_where_each_agent_looks() {
    let at = |format, original: &str| session_file_at(format, Path::new(original), NEW_ID, now());
    assert_eq!(
        at(
            Format::ClaudeCode,
            "/h/.claude/projects/-h-src-greeter/8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31.jsonl"
        ),
        Some(PathBuf::from(format!(
            "/h/.claude/projects/-h-src-greeter/{NEW_ID}.jsonl"
        )))
    );
    let local = now().with_timezone(&chrono::Local).naive_local();
    assert_eq!(
        at(
            Format::Codex,
            "/h/.codex/sessions/2026/08/01/rollout-2026-08-01T10-02-11-0198c4a2-6f3b-7d21-a8e4-3c5b9f0d2e17.jsonl"
        ),
        Some(PathBuf::from(format!(
            "/h/.codex/sessions/{}/rollout-{}-{NEW_ID}.jsonl",
            local.format("%Y/%m/%d"),
            local.format("%Y-%m-%dT%H-%M-%S")
        )))
    );
    assert_eq!(
        at(Format::Codex, "/elsewhere/rollout-x.jsonl"),
        Some(PathBuf::from(format!(
            "/elsewhere/rollout-{}-{NEW_ID}.jsonl",
            local.format("%Y-%m-%dT%H-%M-%S")
        )))
    );
    assert_eq!(
        at(
            Format::Gemini,
            "/h/.gemini/tmp/greeter/chats/session-2026-08-20T07-30-3c1e7f0a.jsonl"
        ),
        Some(PathBuf::from(format!(
            "/h/.gemini/tmp/greeter/chats/session-{}-1f0e2d3c.jsonl",
            now().format("%Y-%m-%dT%H-%M")
        )))
    );
    assert_eq!(
        at(Format::Gemini, "/h/.gemini/tmp/x/chats/session-old.json")
            .and_then(|p| p.extension().map(|e| e.to_string_lossy().into_owned())),
        Some("json".to_string())
    );
    assert_eq!(
        at(
            Format::Copilot,
            "/h/.copilot/session-state/b0ff98c0-8e01-4b73-bf92-9649b139931b/events.jsonl"
        ),
        Some(PathBuf::from(format!(
            "/h/.copilot/session-state/{NEW_ID}/events.jsonl"
        )))
    );
    assert_eq!(
        at(Format::Copilot, "/h/.copilot/session-state/x/other.jsonl"),
        None
    );
    for format in [Format::Cursor, Format::Json, Format::Text] {
        assert_eq!(at(format, "/h/x/y.jsonl"), None, "{format}");
    }
    // Only UUIDs, and never the original itself.
    let original = Path::new("/h/p/x.jsonl");
    assert_eq!(
        session_file_at(Format::ClaudeCode, original, "../../etc", now()),
        None
    );
    assert_eq!(
        session_file_at(
            Format::ClaudeCode,
            Path::new(&format!("/h/p/{NEW_ID}.jsonl")),
            NEW_ID,
            now()
        ),
        None
    );
    assert!(session_file(Format::ClaudeCode, original, NEW_ID).is_some());
}

#[test]
fn resume_commands() {
    let id = NEW_ID;
    assert_eq!(
        resume_command(Format::ClaudeCode, id),
        Some(format!("claude --resume {id}"))
    );
    assert_eq!(
        resume_command(Format::Codex, id),
        Some(format!("codex resume {id}"))
    );
    assert_eq!(
        resume_command(Format::Gemini, id),
        Some(format!("gemini --resume {id}"))
    );
    assert_eq!(
        resume_command(Format::Copilot, id),
        Some(format!("copilot --resume={id}"))
    );
    for format in [Format::Cursor, Format::Json, Format::Text] {
        assert_eq!(resume_command(format, id), None);
    }
    assert_eq!(resume_command(Format::ClaudeCode, "x; rm -rf ~"), None);
}

#[test]
fn random_session_ids_are_version_4_uuids() {
    let a = random_session_id();
    let b = random_session_id();
    assert!(is_uuid(&a), "{a}");
    assert_ne!(a, b);
    assert_eq!(a.as_bytes()[14], b'4');
    assert!(matches!(a.as_bytes()[19], b'8' | b'9' | b'a' | b'b'), "{a}");
}

#[test]
fn garbage_gives_an_error_or_no_turns_never_a_panic() {
    let mut rng = StdRng::seed_from_u64(34);
    let mut inputs: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"\n\n\n".to_vec(),
        b"not json\n".to_vec(),
        b"{\"type\":\"user\",\"message\":5,\"uuid\":7}\n".to_vec(),
        b"{\"type\":\"session_meta\",\"payload\":[]}\n".to_vec(),
        b"{\"$rewindTo\":5}\n{\"$set\":{\"messages\":7}}\n{\"sessionId\":1,\"projectHash\":{}}\n"
            .to_vec(),
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[".to_vec(),
        vec![0xff, 0xfe, b'\n', 0x80, b'{', b'\n'],
    ];
    for _ in 0..200 {
        let len = rng.random_range(0..300);
        inputs.push((0..len).map(|_| rng.random::<u8>()).collect());
    }
    // Fixtures with bytes flipped, removed or cut.
    for (_, bytes, _) in AGENTS.iter().chain([&(Format::Json, CHAT, None)]) {
        for _ in 0..40 {
            let mut mutated = bytes.to_vec();
            for _ in 0..rng.random_range(1..8) {
                let at = rng.random_range(0..mutated.len().max(1));
                match rng.random_range(0..3) {
                    0 => {
                        if let Some(b) = mutated.get_mut(at) {
                            *b = rng.random();
                        }
                    }
                    1 => {
                        if at < mutated.len() {
                            mutated.remove(at);
                        }
                    }
                    _ => mutated.truncate(at),
                }
            }
            inputs.push(mutated);
        }
    }
    for input in &inputs {
        let _ = detect(None, input);
        for format in Format::ALL {
            if let Ok(read) = turns(format, input) {
                // What reads, serializes.
                assert!(serde_json::to_string(&read).is_ok());
            }
            if let Ok(renamed) = new_session(format, input, NEW_ID) {
                let _ = turns(format, &renamed);
            }
        }
    }
    // Random bytes are no agent's transcript.
    let random: Vec<u8> = (0..4000).map(|_| rng.random::<u8>() | 0x80).collect();
    let with_newlines: Vec<u8> = random
        .chunks(100)
        .flat_map(|c| c.iter().copied().chain([b'\n']))
        .collect();
    for (format, _, _) in AGENTS {
        assert!(turns(format, &with_newlines).is_err(), "{format}");
    }
}

#[test]
fn claude_code_entries_that_name_no_parent_are_read_in_file_order() -> R {
    // A transcript another tool wrote (or cut down by hand): uuids but no `parentUuid`.
    let text = concat!(
        r#"{"type":"user","sessionId":"s","uuid":"u0","message":{"role":"user","content":"first"}}"#,
        "\n",
        r#"{"type":"assistant","sessionId":"s","uuid":"a0","message":{"role":"assistant","content":[{"type":"tool_use","id":"t0","name":"Bash","input":{"command":"make"}}]}}"#,
        "\n",
        r#"{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"second"}}"#,
        "\n",
    );
    let read = turns(Format::ClaudeCode, text.as_bytes())?;
    let roles: Vec<Role> = read.iter().map(|t| t.role).collect();
    assert_eq!(roles, [Role::User, Role::ToolCall, Role::User]);
    assert_eq!(read[0].text, "first");
    assert_eq!(read[2].text, "second");
    Ok(())
}
