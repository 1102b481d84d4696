//! Every agent's hooks: its recorded hook input read by `save --from-hook`, its configuration
//! installed into a file that already holds other settings (and uninstalled, leaving exactly
//! them), and the installed hook run the way the agent runs it.
//!
//! The inputs are built from each agent's documented schema, cited beside each case (the ids
//! and paths made up, the work tree's path the test's).

use std::fs;
use std::path::PathBuf;

use crate::common::{
    Json, Repo, Run, feed_and_wait, json_eval, run_hook_command, run_with_env, run_with_stdin,
    skipped,
};

/// What one agent sends at a session's start, before a tool call and at the end of a turn, and
/// what the checkpoints must record of it.
struct Case {
    agent: &'static str,
    start: String,
    pre_tool: String,
    end: String,
    session: &'static str,
    events: [&'static str; 3],
    tool: &'static str,
    tool_call: Option<&'static str>,
    turn: Option<&'static str>,
    transcript: Option<&'static str>,
    /// The edited paths, as JSON.
    paths: Option<&'static str>,
    /// What the hook prints on stdout when it lets the agent go on.
    stdout: &'static str,
}

/// Content the notes must never hold: a file's new text, a prompt, an answer.
const SECRET: &str = "SECRET-CONTENT";

fn case(agent: &str, repo: &Repo) -> Case {
    let w = repo.path().display().to_string();
    match agent {
        // Claude Code: https://code.claude.com/docs/en/hooks ("PreToolUse input",
        // "SessionStart", "Stop"); `tool_use_id`, `last_assistant_message` from CHANGELOG.md.
        "claude-code" => {
            let s = "8c35adc1-3f0e-4a7b-9d1e-2b6c0f9e4a11";
            let t =
                "/home/dev/.claude/projects/-src-app/8c35adc1-3f0e-4a7b-9d1e-2b6c0f9e4a11.jsonl";
            Case {
                agent: "claude-code",
                start: format!(
                    r#"{{"session_id":"{s}","transcript_path":"{t}","cwd":"{w}","permission_mode":"default","hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-4-6"}}"#
                ),
                pre_tool: format!(
                    r#"{{"session_id":"{s}","transcript_path":"{t}","cwd":"{w}","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{{"file_path":"{w}/src/lib.rs","old_string":"a","new_string":"{SECRET}","replace_all":false}},"tool_use_id":"toolu_01DUq3nT7m8c3xYvJ2kLw9aB"}}"#
                ),
                end: format!(
                    r#"{{"session_id":"{s}","transcript_path":"{t}","cwd":"{w}","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"{SECRET}"}}"#
                ),
                session: s,
                events: ["SessionStart", "PreToolUse", "Stop"],
                tool: "Edit",
                tool_call: Some("toolu_01DUq3nT7m8c3xYvJ2kLw9aB"),
                turn: None,
                transcript: Some(t),
                paths: Some(r#"["src/lib.rs"]"#),
                stdout: "",
            }
        }
        // Gemini CLI: packages/core/src/hooks/types.ts (HookInput, BeforeToolInput,
        // SessionStartInput, AfterAgentInput).
        "gemini" => {
            let s = "3f9d2c1e-6b7a-4c55-9e0f-1a2b3c4d5e6f";
            let t = "/home/dev/.gemini/tmp/5c1e/chats/session-2026-11-23T15-04-3f9d2c1e.json";
            Case {
                agent: "gemini",
                start: format!(
                    r#"{{"session_id":"{s}","transcript_path":"","cwd":"{w}","hook_event_name":"SessionStart","timestamp":"2026-11-23T15:00:00.000Z","source":"startup"}}"#
                ),
                pre_tool: format!(
                    r#"{{"session_id":"{s}","transcript_path":"{t}","cwd":"{w}","hook_event_name":"BeforeTool","timestamp":"2026-11-23T15:04:05.123Z","tool_name":"replace","tool_input":{{"file_path":"{w}/src/lib.rs","old_string":"a","new_string":"{SECRET}","instruction":"rename a to b"}}}}"#
                ),
                end: format!(
                    r#"{{"session_id":"{s}","transcript_path":"{t}","cwd":"{w}","hook_event_name":"AfterAgent","timestamp":"2026-11-23T15:05:00.000Z","prompt":"{SECRET}","prompt_response":"{SECRET}","stop_hook_active":false}}"#
                ),
                session: s,
                events: ["SessionStart", "BeforeTool", "AfterAgent"],
                tool: "replace",
                tool_call: None,
                turn: None,
                transcript: Some(t),
                paths: Some(r#"["src/lib.rs"]"#),
                stdout: "",
            }
        }
        // Codex: codex-rs/hooks/src/schema.rs (PreToolUseCommandInput, SessionStart, Stop).
        "codex" => {
            let s = "019a6c1e-2b3d-7f40-9a11-5e6f7a8b9c0d";
            let t = "/home/dev/.codex/sessions/2026/11/23/rollout-2026-11-23T15-04-05-019a6c1e-2b3d-7f40-9a11-5e6f7a8b9c0d.jsonl";
            Case {
                agent: "codex",
                start: format!(
                    r#"{{"session_id":"{s}","transcript_path":null,"cwd":"{w}","hook_event_name":"SessionStart","model":"gpt-5.2-codex","permission_mode":"default","source":"startup"}}"#
                ),
                pre_tool: format!(
                    r#"{{"session_id":"{s}","turn_id":"7","transcript_path":"{t}","cwd":"{w}","hook_event_name":"PreToolUse","model":"gpt-5.2-codex","permission_mode":"default","tool_name":"apply_patch","tool_input":{{"command":"*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+{SECRET}\n*** End Patch\n"}},"tool_use_id":"call_Kq3nV8sX2bT1"}}"#
                ),
                end: format!(
                    r#"{{"session_id":"{s}","turn_id":"7","transcript_path":"{t}","cwd":"{w}","hook_event_name":"Stop","model":"gpt-5.2-codex","permission_mode":"default","stop_hook_active":false,"last_assistant_message":"{SECRET}"}}"#
                ),
                session: s,
                events: ["SessionStart", "PreToolUse", "Stop"],
                tool: "apply_patch",
                tool_call: Some("call_Kq3nV8sX2bT1"),
                turn: Some("7"),
                transcript: Some(t),
                paths: Some(r#"["src/lib.rs"]"#),
                stdout: "",
            }
        }
        // Cursor: https://cursor.com/docs/hooks ("Reference": common fields, preToolUse's own
        // example, sessionStart, stop).
        "cursor" => {
            let s = "c0f8e2a4-5b61-4d7e-9a3c-0e1f2a3b4c5d";
            let common = format!(
                r#""conversation_id":"{s}","generation_id":"g-71b2c3d4","model":"claude-opus-4-7-thinking-max","cursor_version":"2.4.1","workspace_roots":["{w}"],"user_email":null,"transcript_path":null"#
            );
            Case {
                agent: "cursor",
                start: format!(
                    r#"{{{common},"hook_event_name":"sessionStart","session_id":"{s}","is_background_agent":false,"composer_mode":"agent"}}"#
                ),
                pre_tool: format!(
                    r#"{{{common},"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{{"command":"npm install","working_directory":"{w}"}},"tool_use_id":"abc123","cwd":"{w}","agent_message":"{SECRET}"}}"#
                ),
                end: format!(
                    r#"{{{common},"hook_event_name":"stop","status":"completed","loop_count":0}}"#
                ),
                session: s,
                events: ["sessionStart", "preToolUse", "stop"],
                tool: "Shell",
                tool_call: Some("abc123"),
                turn: Some("g-71b2c3d4"),
                transcript: None,
                paths: None,
                stdout: "",
            }
        }
        // Copilot CLI: cli-hooks-reference.md (camelCase payloads; toolArgs as the JSON
        // string of hooks-configuration.md).
        "copilot" => {
            let s = "5d0b6c0e-8f1a-4e2b-9c3d-7a6b5c4d3e2f";
            let t = "/home/dev/.copilot/session-state/5d0b6c0e.jsonl";
            Case {
                agent: "copilot",
                start: format!(
                    r#"{{"sessionId":"{s}","timestamp":1763910000000,"cwd":"{w}","source":"new","initialPrompt":"{SECRET}"}}"#
                ),
                pre_tool: format!(
                    r#"{{"sessionId":"{s}","timestamp":1763910245123,"cwd":"{w}","toolName":"edit","toolArgs":"{{\"path\":\"src/lib.rs\",\"old_str\":\"a\",\"new_str\":\"{SECRET}\"}}"}}"#
                ),
                end: format!(
                    r#"{{"sessionId":"{s}","timestamp":1763910300000,"cwd":"{w}","transcriptPath":"{t}","stopReason":"end_turn"}}"#
                ),
                session: s,
                events: ["sessionStart", "preToolUse", "agentStop"],
                tool: "edit",
                tool_call: None,
                turn: None,
                transcript: None,
                paths: Some(r#"["src/lib.rs"]"#),
                stdout: "",
            }
        }
        // Cline (VS Code extension): apps/vscode/proto/cline/hooks.proto,
        // apps/vscode/src/core/hooks/hook-factory.ts (protobuf JSON: camelCase).
        "cline" => {
            let s = "01JD4X7QK3M2N5P8R0S1T2V3W4";
            let common = format!(
                r#""clineVersion":"4.1.13","timestamp":"1763910245123","taskId":"{s}","workspaceRoots":["{w}"],"userId":"b1c2d3e4","model":{{"provider":"anthropic","slug":"claude-sonnet-4-6"}}"#
            );
            Case {
                agent: "cline",
                start: format!(
                    r#"{{{common},"hookName":"TaskStart","taskStart":{{"taskMetadata":{{"taskId":"{s}","ulid":"","initialTask":"{SECRET}"}}}}}}"#
                ),
                pre_tool: format!(
                    r#"{{{common},"hookName":"PreToolUse","preToolUse":{{"toolName":"editor","parameters":{{"path":"{w}/src/lib.rs","old_text":"a","new_text":"{SECRET}"}}}}}}"#
                ),
                end: format!(
                    r#"{{{common},"hookName":"TaskComplete","taskComplete":{{"taskMetadata":{{"taskId":"{s}","ulid":""}}}}}}"#
                ),
                session: s,
                events: ["TaskStart", "PreToolUse", "TaskComplete"],
                tool: "editor",
                tool_call: None,
                turn: None,
                transcript: None,
                paths: Some(r#"["src/lib.rs"]"#),
                stdout: "{\"cancel\":false}\n",
            }
        }
        // OpenCode: what git-checkpoint's plugin pipes in, from `tool.execute.before`'s
        // `{tool, sessionID, callID}` and `{args}` (packages/plugin/src/index.ts), and the
        // `session.created` / `session.idle` events.
        "opencode" => {
            let s = "ses_5b8f0c2a1ffeYq3Xk9";
            Case {
                agent: "opencode",
                start: format!(
                    r#"{{"hook_event_name":"session.created","session_id":"{s}","cwd":"{w}"}}"#
                ),
                pre_tool: format!(
                    r#"{{"hook_event_name":"tool.execute.before","session_id":"{s}","tool_name":"edit","tool_use_id":"call_01HZX","tool_input":{{"filePath":"{w}/src/lib.rs","oldString":"a","newString":"{SECRET}"}},"cwd":"{w}"}}"#
                ),
                end: format!(
                    r#"{{"hook_event_name":"session.idle","session_id":"{s}","cwd":"{w}"}}"#
                ),
                session: s,
                events: ["session.created", "tool.execute.before", "session.idle"],
                tool: "edit",
                tool_call: Some("call_01HZX"),
                turn: None,
                transcript: None,
                paths: Some(r#"["src/lib.rs"]"#),
                stdout: "",
            }
        }
        other => panic!("no case for {other}"),
    }
}

/// `git checkpoint save <flag>` with `input` on stdin, from the work tree.
#[track_caller]
fn hook(repo: &Repo, flag: &str, input: &str, stdout: &str) -> Run {
    let out = repo
        .cp_stdin(repo.path(), |_| {}, &["save", flag], input.as_bytes())
        .ok();
    assert_eq!(out.stdout, stdout, "the hook's stdout: {}", out.stderr);
    assert_eq!(out.stderr, "", "nothing on stderr");
    out
}

/// Whether the note's `meta` has `key`, and then its value.
#[track_caller]
fn meta(note: &Json, key: &str) -> Option<String> {
    note.keys("meta")
        .contains(&key.to_string())
        .then(|| note.get(&format!("meta.{key}")))
}

/// A session of the agent: start, a tool call after an edit, the end of the turn after
/// another; the pre-tool input goes through the bare `--from-hook`, which must recognise the
/// agent.
fn records_hook_input(agent: &str) {
    let repo = Repo::with_commit(&[("src/lib.rs", "a\n"), ("README", "r\n")]);
    let c = case(agent, &repo);
    let flag = format!("--from-hook={}", c.agent);

    hook(&repo, &flag, &c.start, c.stdout);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 1, "a session's start is saved");
    let start = repo.note_json(&ids[0]);
    assert_eq!(start.get("kind"), "session");
    assert_eq!(start.get("agent"), c.agent);
    assert_eq!(start.get("session"), c.session);
    assert_eq!(meta(&start, "event").as_deref(), Some(c.events[0]));
    assert!(start.get("message").starts_with("session start"));

    // Nothing changed since: the tool call's hook adds nothing.
    hook(&repo, "--from-hook", &c.pre_tool, c.stdout);
    assert_eq!(repo.checkpoint_ids().len(), 1, "deduplicated");

    // The previous tool edited a file: this tool call's hook saves that state.
    repo.write("src/lib.rs", "edited\n");
    repo.write("new.txt", "untracked\n");
    hook(&repo, "--from-hook", &c.pre_tool, c.stdout);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 2);
    assert_eq!(repo.checkpoint_tree(&ids[1]), repo.oracle_tree());
    let pre = repo.note_json(&ids[1]);
    assert_eq!(pre.get("kind"), "auto");
    assert_eq!(pre.get("agent"), c.agent, "recognised from its input");
    assert_eq!(pre.get("session"), c.session);
    assert_eq!(meta(&pre, "event").as_deref(), Some(c.events[1]));
    assert_eq!(meta(&pre, "tool").as_deref(), Some(c.tool));
    assert_eq!(meta(&pre, "session_id").as_deref(), Some(c.session));
    assert_eq!(meta(&pre, "tool_call_id").as_deref(), c.tool_call);
    assert_eq!(meta(&pre, "turn_id").as_deref(), c.turn);
    assert_eq!(meta(&pre, "transcript_path").as_deref(), c.transcript);
    assert_eq!(meta(&pre, "paths").as_deref(), c.paths);
    let expected = match c.paths {
        Some(_) => format!("before {} src/lib.rs", c.tool),
        None => format!("before {}", c.tool),
    };
    assert_eq!(pre.get("message"), expected);

    // The end of the turn saves the state the last tool left.
    repo.write("src/lib.rs", "edited again\n");
    hook(&repo, &flag, &c.end, c.stdout);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 3);
    assert_eq!(repo.checkpoint_tree(&ids[2]), repo.oracle_tree());
    let end = repo.note_json(&ids[2]);
    assert_eq!(end.get("kind"), "auto");
    assert_eq!(end.get("message"), "end of turn");
    assert_eq!(meta(&end, "event").as_deref(), Some(c.events[2]));
    assert_eq!(end.get("agent"), c.agent);

    for id in &ids {
        assert!(
            !repo.note(id).contains(SECRET),
            "no file or prompt content in the note: {}",
            repo.note(id)
        );
    }
    // The whole session, taken back in one command.
    repo.cp(&["restore", &format!("session:{}", c.session)])
        .ok();
    assert_eq!(repo.read("src/lib.rs"), "a\n");
    assert!(!repo.path().join("new.txt").exists());
}

#[test]
fn claude_code_hook_input_is_recorded() {
    records_hook_input("claude-code");
}

#[test]
fn gemini_hook_input_is_recorded() {
    records_hook_input("gemini");
}

#[test]
fn codex_hook_input_is_recorded() {
    records_hook_input("codex");
}

#[test]
fn cursor_hook_input_is_recorded() {
    records_hook_input("cursor");
}

#[test]
fn copilot_hook_input_is_recorded() {
    records_hook_input("copilot");
}

#[test]
fn cline_hook_input_is_recorded() {
    records_hook_input("cline");
}

#[test]
fn opencode_hook_input_is_recorded() {
    records_hook_input("opencode");
}

#[test]
fn hook_failure_block_refuses_only_tool_calls_each_agent_its_own_way() {
    let refusals = [
        ("claude-code", 2, ""),
        ("gemini", 0, r#"{"decision":"deny","reason":"#),
        (
            "codex",
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"#,
        ),
        ("cursor", 0, r#"{"permission":"deny","user_message":"#),
        (
            "copilot",
            0,
            r#"{"permissionDecision":"deny","permissionDecisionReason":"#,
        ),
        ("cline", 0, r#"{"cancel":true,"errorMessage":"#),
        ("opencode", 2, ""),
    ];
    for (agent, code, stdout) in refusals {
        let repo = Repo::with_commit(&[("src/lib.rs", "a\n")]);
        // A setting no save can work with.
        repo.git(&["config", "checkpoint.maxFileSize", "a lot"]);
        let c = case(agent, &repo);
        let flag = format!("--from-hook={agent}");
        let run =
            |input: &str| repo.cp_stdin(repo.path(), |_| {}, &["save", &flag], input.as_bytes());
        // By default: a warning, and the agent goes on.
        let out = run(&c.pre_tool);
        assert_eq!(out.code, 0, "{agent}: {}", out.stderr);
        assert_eq!(out.stdout, c.stdout, "{agent}");
        assert!(
            out.stderr.starts_with("warning: "),
            "{agent}: {}",
            out.stderr
        );

        repo.git(&["config", "checkpoint.hookFailure", "block"]);
        let out = run(&c.pre_tool);
        assert_eq!(out.code, code, "{agent}: {}", out.stderr);
        out.assert_one_error_line();
        assert!(out.stdout.starts_with(stdout), "{agent}: {}", out.stdout);
        if !stdout.is_empty() {
            // One line of JSON naming the problem.
            let reason = json_eval(
                &out.stdout,
                "[v[k] for k in v][-1] if 'hookSpecificOutput' not in v else v['hookSpecificOutput']['permissionDecisionReason']",
            );
            assert!(
                reason.contains("checkpoint.maxFileSize"),
                "{agent}: {reason}"
            );
        } else {
            assert!(
                out.stderr.contains("checkpoint.maxFileSize"),
                "{agent}: {}",
                out.stderr
            );
        }
        // Never at a session's start or a turn's end: blocking there stops nothing.
        for input in [&c.start, &c.end] {
            let out = run(input);
            assert_eq!(out.code, 0, "{agent}: {}", out.stderr);
            assert_eq!(out.stdout, c.stdout, "{agent}");
            assert!(
                out.stderr.starts_with("warning: "),
                "{agent}: {}",
                out.stderr
            );
        }
        assert!(repo.checkpoint_ids().is_empty());
    }
}

#[test]
fn bare_from_hook_tells_codex_and_copilot_from_claude_code_and_gemini() {
    let repo = Repo::with_commit(&[("src/lib.rs", "a\n")]);
    let w = repo.path().display().to_string();
    let agent_of = |flag: &str, input: &str| {
        repo.write("src/lib.rs", &format!("{flag} {}\n", input.len()));
        let out = repo.cp_stdin(repo.path(), |_| {}, &["save", flag], input.as_bytes());
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{input}");
        let ids = repo.checkpoint_ids();
        repo.note_json(&ids[ids.len() - 1]).get("agent")
    };
    // Codex's SessionStart: no turn id, and a `null` transcript (codex-rs/hooks/src/schema.rs
    // `SessionStartCommandInput`).
    let codex_start = format!(
        r#"{{"session_id":"019a6c1e-2b3d-7f40-9a11-5e6f7a8b9c0d","transcript_path":null,"cwd":"{w}","hook_event_name":"SessionStart","model":"gpt-5.2-codex","permission_mode":"default","source":"startup"}}"#
    );
    assert_eq!(agent_of("--from-hook", &codex_start), "codex");
    // Copilot CLI's VS Code compatible format (PascalCase events, snake_case fields, an ISO
    // timestamp: cli-hooks-reference.md), which Claude Code's settings files also get when
    // Copilot runs their hooks.
    let copilot_pre = format!(
        r#"{{"hook_event_name":"PreToolUse","session_id":"5d0b6c0e-8f1a-4e2b-9c3d-7a6b5c4d3e2f","timestamp":"2026-11-23T15:04:05.123Z","cwd":"{w}","tool_name":"edit","tool_input":{{"path":"src/lib.rs","old_str":"a","new_str":"b"}}}}"#
    );
    assert_eq!(agent_of("--from-hook", &copilot_pre), "copilot");
    assert_eq!(agent_of("--from-hook=claude-code", &copilot_pre), "copilot");
    // Cursor runs Claude Code's hooks too; its input has its own common fields.
    let cursor = case("cursor", &repo);
    assert_eq!(
        agent_of("--from-hook=claude-code", &cursor.pre_tool),
        "cursor"
    );
    // Claude Code's own input stays Claude Code's, and Gemini's Gemini's.
    let claude = case("claude-code", &repo);
    assert_eq!(
        agent_of("--from-hook=claude-code", &claude.pre_tool),
        "claude-code"
    );
    assert_eq!(agent_of("--from-hook", &claude.start), "claude-code");
    let gemini = case("gemini", &repo);
    assert_eq!(agent_of("--from-hook", &gemini.start), "gemini");

    // Under checkpoint.hookFailure=block, Copilot's input gets Copilot's refusal.
    repo.git(&["config", "checkpoint.maxFileSize", "a lot"]);
    repo.git(&["config", "checkpoint.hookFailure", "block"]);
    let out = repo.cp_stdin(
        repo.path(),
        |_| {},
        &["save", "--from-hook"],
        copilot_pre.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        json_eval(&out.stdout, "v['permissionDecision']"),
        "deny",
        "{}",
        out.stdout
    );
}

#[test]
fn read_only_tools_make_no_checkpoint_and_unknown_agents_are_no_failure() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    repo.write("a", "2\n");
    let w = repo.path().display();
    // Cline runs PreToolUse before every tool, reading ones too.
    let read = format!(
        r#"{{"hookName":"PreToolUse","taskId":"t1","workspaceRoots":["{w}"],"preToolUse":{{"toolName":"read_file","parameters":{{"path":"{w}/a"}}}}}}"#
    );
    hook(&repo, "--from-hook=cline", &read, "{\"cancel\":false}\n");
    assert!(
        repo.checkpoint_ids().is_empty(),
        "no checkpoint before a read"
    );
    // An agent this version does not know: a warning and exit 0, as for any hook problem.
    let out = repo.cp_stdin(repo.path(), |_| {}, &["save", "--from-hook=vim"], b"{}");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.starts_with("warning: "), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    // …and Cline still gets its answer when the command line itself is refused.
    let out = repo.cp_stdin(
        repo.path(),
        |_| {},
        &["save", "--from-hook=cline", "--flag-from-the-future"],
        b"{}",
    );
    assert_eq!((out.code, out.stdout.as_str()), (0, "{\"cancel\":false}\n"));
}

// --- Installing into a configuration that holds other settings ---------------------------

/// `hooks <agent> --install` into `rel` (under the work tree or, with `--user`, the home
/// directory) holding `original`; `check` (a python expression over the installed JSON `v`)
/// must hold; a second install changes nothing; uninstall leaves exactly `original`.
fn install_keeps_the_rest(
    agent: &str,
    level: &str,
    rel: &str,
    original: &str,
    check: &str,
) -> Repo {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let base = if level == "--user" {
        repo.home()
    } else {
        repo.path()
    };
    let path = base.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, original).unwrap();

    let out = repo.cp(&["hooks", agent, "--install", level]).ok();
    assert!(out.stderr.contains(".bak"), "{}", out.stderr);
    assert!(
        out.stderr.contains("next: "),
        "the agent's own step: {}",
        out.stderr
    );
    assert!(out.stderr.contains("git checkpoint undo"), "{}", out.stderr);
    let mut bak = path.clone().into_os_string();
    bak.push(".bak");
    assert_eq!(
        fs::read_to_string(&bak).unwrap(),
        original,
        "the old file is kept"
    );
    let installed = fs::read_to_string(&path).unwrap();
    assert_eq!(json_eval(&installed, check), "true", "{installed}");

    let again = repo.cp(&["hooks", agent, "--install", level]).ok();
    assert!(again.stderr.contains("already"), "{}", again.stderr);
    assert_eq!(fs::read_to_string(&path).unwrap(), installed, "idempotent");

    repo.cp(&["hooks", agent, "--uninstall", level]).ok();
    let left = fs::read_to_string(&path).unwrap();
    assert_eq!(
        json_eval(&format!("[{left},{original}]"), "v[0] == v[1]"),
        "true",
        "uninstall leaves exactly the rest: {left}"
    );
    repo
}

/// The command of each entry of `event` in a hooks file (nested groups or flat entries).
fn commands(text: &str, event: &str, key: &str) -> String {
    json_eval(
        text,
        &format!(
            "[h.get('{key}') for e in v['hooks'].get('{event}', []) for h in (e['hooks'] if 'hooks' in e else [e])]"
        ),
    )
}

#[test]
fn claude_code_install_adds_stop_and_keeps_the_rest() {
    install_keeps_the_rest(
        "claude-code",
        "--project",
        ".claude/settings.json",
        r#"{"permissions": {"allow": ["Bash(npm test:*)"]},
 "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
           "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}]}}
"#,
        "v['permissions'] == {'allow': ['Bash(npm test:*)']} \
         and [h['command'] for g in v['hooks']['Stop'] for h in g['hooks']] == ['say done', 'git checkpoint save --from-hook=claude-code'] \
         and v['hooks']['PreToolUse'][0]['matcher'] == 'Edit|MultiEdit|Write|NotebookEdit|Bash|PowerShell' \
         and v['hooks']['SessionStart'][0]['hooks'][0]['timeout'] == 30 \
         and len(v['hooks']['PostToolUse']) == 1",
    );
}

#[test]
fn gemini_install_keeps_the_rest() {
    install_keeps_the_rest(
        "gemini",
        "--project",
        ".gemini/settings.json",
        r#"{"theme": "GitHub", "mcpServers": {"docs": {"command": "docs-mcp"}},
 "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"name": "guard", "type": "command", "command": "./guard.sh"}]}]}}
"#,
        "v['theme'] == 'GitHub' and v['mcpServers'] == {'docs': {'command': 'docs-mcp'}} \
         and [g.get('matcher') for g in v['hooks']['BeforeTool']] == ['run_shell_command', '^(write_file|replace|run_shell_command)$'] \
         and v['hooks']['BeforeTool'][1]['hooks'][0]['timeout'] == 30000 \
         and sorted(v['hooks']) == ['AfterAgent', 'BeforeTool', 'SessionStart']",
    );
}

#[test]
fn gemini_settings_with_comments_are_refused_and_left_as_they_are() {
    // Gemini CLI reads its settings through strip-json-comments, so they may hold comments;
    // writing the file would drop them.
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let path = repo.path().join(".gemini/settings.json");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let original = "{\n  // my theme\n  \"theme\": \"GitHub\", /* the docs server */\n  \"mcpServers\": {\"docs\": {\"url\": \"http://localhost:8080/mcp\"}}\n}\n";
    fs::write(&path, original).unwrap();
    for args in [
        &["hooks", "gemini", "--install"][..],
        &["hooks", "gemini", "--uninstall"],
        &["mcp", "--install", "gemini"],
    ] {
        let out = repo.cp(args).fails_with(1);
        out.assert_one_error_line();
        assert!(
            out.stderr
                .contains("has comments, which git-checkpoint cannot keep")
                && out.stderr.contains("git checkpoint hooks <AGENT>"),
            "{args:?}: {}",
            out.stderr
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), original, "{args:?}");
        assert!(!repo.path().join(".gemini/settings.json.bak").exists());
    }
    // `//` inside a string is no comment, and a file that is not JSON either still says so.
    fs::write(&path, "{\"url\": \"http://x\"}").unwrap();
    repo.cp(&["hooks", "gemini", "--install"]).ok();
    fs::write(&path, "{\"a\": 1 // c\n,,}").unwrap();
    let out = repo.cp(&["hooks", "gemini", "--install"]).fails_with(1);
    assert!(out.stderr.contains("not valid JSON"), "{}", out.stderr);
}

#[test]
fn codex_install_keeps_the_rest_and_says_to_trust_the_hooks() {
    let repo = install_keeps_the_rest(
        "codex",
        "--user",
        ".codex/hooks.json",
        r#"{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "notify-send ran", "timeout": 5}]}]}}
"#,
        "v['hooks']['PostToolUse'] == [{'matcher': 'Bash', 'hooks': [{'type': 'command', 'command': 'notify-send ran', 'timeout': 5}]}] \
         and v['hooks']['PreToolUse'][0]['matcher'] == '^(Bash|apply_patch)$' \
         and sorted(v['hooks']) == ['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop']",
    );
    let out = repo.cp(&["hooks", "codex", "--install", "--user"]).ok();
    assert!(out.stderr.contains("/hooks"), "{}", out.stderr);
    // No trust state is written anywhere.
    assert!(!repo.home().join(".codex/config.toml").exists());
}

#[test]
fn cursor_install_keeps_the_rest() {
    install_keeps_the_rest(
        "cursor",
        "--project",
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"afterFileEdit": [{"command": "./hooks/format.sh"}], "stop": [{"command": "./hooks/audit.sh", "timeout": 10}]}}
"#,
        "v['version'] == 1 and v['hooks']['afterFileEdit'] == [{'command': './hooks/format.sh'}] \
         and [e['command'] for e in v['hooks']['stop']] == ['./hooks/audit.sh', 'git checkpoint save --from-hook=cursor'] \
         and 'matcher' not in v['hooks']['preToolUse'][0]",
    );
}

#[test]
fn copilot_install_writes_its_own_file_beside_the_others() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let lint = repo.path().join(".github/hooks/lint.json");
    fs::create_dir_all(lint.parent().unwrap()).unwrap();
    let theirs =
        r#"{"version": 1, "hooks": {"postToolUse": [{"type": "command", "bash": "./lint.sh"}]}}"#;
    fs::write(&lint, theirs).unwrap();
    let ours = repo.path().join(".github/hooks/git-checkpoint.json");

    repo.cp(&["hooks", "copilot", "--install"]).ok();
    let installed = fs::read_to_string(&ours).unwrap();
    assert_eq!(
        json_eval(
            &installed,
            "v['version'] == 1 and sorted(v['hooks']) == ['agentStop', 'preToolUse', 'sessionStart'] \
             and v['hooks']['preToolUse'][0]['matcher'] == 'bash|powershell|create|edit|apply_patch' \
             and v['hooks']['preToolUse'][0]['bash'] == 'git checkpoint save --from-hook=copilot || true' \
             and v['hooks']['preToolUse'][0]['powershell'] == 'git checkpoint save --from-hook=copilot; exit 0' \
             and v['hooks']['agentStop'][0]['timeoutSec'] == 30"
        ),
        "true",
        "{installed}"
    );
    // Someone added a hook of their own to our file: a reinstall keeps it, uninstall too.
    let edited = installed.replacen(
        "\"hooks\": {",
        "\"hooks\": {\"errorOccurred\": [{\"type\": \"command\", \"bash\": \"./report.sh\"}],",
        1,
    );
    fs::write(&ours, &edited).unwrap();
    let out = repo.cp(&["hooks", "copilot", "--install"]).ok();
    assert!(out.stderr.contains("already"), "{}", out.stderr);
    repo.cp(&["hooks", "copilot", "--uninstall"]).ok();
    assert_eq!(
        json_eval(&fs::read_to_string(&ours).unwrap(), "v"),
        r#"{"version": 1, "hooks": {"errorOccurred": [{"type": "command", "bash": "./report.sh"}]}}"#
    );
    // Only ours left: the file goes.
    fs::write(&ours, &installed).unwrap();
    repo.cp(&["hooks", "copilot", "--uninstall"]).ok();
    assert!(!ours.exists());
    assert_eq!(
        fs::read_to_string(&lint).unwrap(),
        theirs,
        "the other file untouched"
    );
}

#[test]
fn reinstall_brings_an_older_install_up_to_date() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    // What an earlier version installed for Claude Code (bare `--from-hook`, a narrower
    // matcher, no `Stop`), beside the user's own hooks.
    let settings = repo.path().join(".claude/settings.json");
    fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let users = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#;
    fs::write(
        &settings,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]},
                                    {"matcher": "Edit|Write|Bash", "hooks": [{"type": "command", "command": "git checkpoint save --from-hook"}]}],
                     "SessionStart": [{"hooks": [{"type": "command", "command": "git checkpoint save --from-hook"}]}]}}"#,
    )
    .unwrap();
    let out = repo.cp(&["hooks", "claude-code", "--install"]).ok();
    assert!(out.stderr.contains("updated"), "{}", out.stderr);
    let text = fs::read_to_string(&settings).unwrap();
    assert_eq!(
        commands(&text, "PreToolUse", "command"),
        r#"["./guard.sh", "git checkpoint save --from-hook=claude-code"]"#
    );
    assert_eq!(
        json_eval(
            &text,
            "[g.get('matcher') for g in v['hooks']['PreToolUse']]"
        ),
        r#"["Bash", "Edit|MultiEdit|Write|NotebookEdit|Bash|PowerShell"]"#
    );
    assert_eq!(
        commands(&text, "SessionStart", "command"),
        r#"["git checkpoint save --from-hook=claude-code"]"#
    );
    assert_eq!(
        commands(&text, "Stop", "command"),
        r#"["git checkpoint save --from-hook=claude-code"]"#
    );
    let again = repo.cp(&["hooks", "claude-code", "--install"]).ok();
    assert!(again.stderr.contains("already"), "{}", again.stderr);
    repo.cp(&["hooks", "claude-code", "--uninstall"]).ok();
    let left = fs::read_to_string(&settings).unwrap();
    assert_eq!(
        json_eval(&format!("[{left},{users}]"), "v[0] == v[1]"),
        "true",
        "{left}"
    );

    // Copilot's own file from before the commands ended in `|| true`: rewritten, and as it
    // held nothing of the user's, with no `.bak`.
    let ours = repo.path().join(".github/hooks/git-checkpoint.json");
    fs::create_dir_all(ours.parent().unwrap()).unwrap();
    let old = |matcher: &str| {
        format!(
            r#"[{{"type": "command", {matcher}"bash": "git checkpoint save --from-hook=copilot", "powershell": "git checkpoint save --from-hook=copilot", "timeoutSec": 30}}]"#
        )
    };
    fs::write(
        &ours,
        format!(
            r#"{{"version": 1, "hooks": {{"preToolUse": {}, "sessionStart": {}, "agentStop": {}}}}}"#,
            old(r#""matcher": "bash|powershell|create|edit", "#),
            old(""),
            old("")
        ),
    )
    .unwrap();
    let out = repo.cp(&["hooks", "copilot", "--install"]).ok();
    assert!(
        out.stderr.contains("updated") && !out.stderr.contains(".bak"),
        "{}",
        out.stderr
    );
    let text = fs::read_to_string(&ours).unwrap();
    assert_eq!(
        json_eval(
            &text,
            "[(e.get('matcher'), e['bash']) for k in ['preToolUse', 'sessionStart', 'agentStop'] for e in v['hooks'][k]]"
        ),
        r#"[["bash|powershell|create|edit|apply_patch", "git checkpoint save --from-hook=copilot || true"], [null, "git checkpoint save --from-hook=copilot || true"], [null, "git checkpoint save --from-hook=copilot || true"]]"#
    );
    assert!(
        !repo
            .path()
            .join(".github/hooks/git-checkpoint.json.bak")
            .exists()
    );
}

#[test]
fn uninstall_removes_only_what_install_added() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let untracked = |repo: &Repo| repo.git(&["status", "--porcelain", "--untracked-files=all"]);
    // Files the install created: removed again, and no `.bak` of them left behind for the
    // next checkpoint to capture.
    for (agent, rel) in [
        ("copilot", ".github/hooks/git-checkpoint.json"),
        ("claude-code", ".claude/settings.json"),
        ("cursor", ".cursor/hooks.json"),
    ] {
        let out = repo.cp(&["hooks", agent, "--install"]).ok();
        assert!(!out.stderr.contains(".bak"), "{agent}: {}", out.stderr);
        assert_ne!(untracked(&repo), "", "{agent}");
        let out = repo.cp(&["hooks", agent, "--uninstall"]).ok();
        assert!(out.stderr.contains("removed"), "{agent}: {}", out.stderr);
        assert!(!out.stderr.contains(".bak"), "{agent}: {}", out.stderr);
        assert!(!repo.path().join(rel).exists(), "{agent}");
        assert_eq!(untracked(&repo), "", "{agent}: nothing left");
    }
    // A file the user had, holding nothing but the skeleton: kept, as the user had it.
    let hooks = repo.home().join(".cursor/hooks.json");
    fs::create_dir_all(hooks.parent().unwrap()).unwrap();
    let skeleton = "{\"version\": 1, \"hooks\": {}}\n";
    fs::write(&hooks, skeleton).unwrap();
    let out = repo.cp(&["hooks", "cursor", "--install", "--user"]).ok();
    assert!(out.stderr.contains(".bak"), "{}", out.stderr);
    repo.cp(&["hooks", "cursor", "--uninstall", "--user"]).ok();
    let left = fs::read_to_string(&hooks).unwrap();
    assert_eq!(json_eval(&left, "v"), r#"{"version": 1, "hooks": {}}"#);
    assert_eq!(
        fs::read_to_string(repo.home().join(".cursor/hooks.json.bak")).unwrap(),
        skeleton,
        "the user's own file is still in the .bak"
    );
    // …and one created by the install stays removed even after a reinstall.
    fs::remove_file(&hooks).unwrap();
    fs::remove_file(repo.home().join(".cursor/hooks.json.bak")).unwrap();
    repo.cp(&["hooks", "cursor", "--install", "--user"]).ok();
    repo.cp(&["hooks", "cursor", "--install", "--user"]).ok();
    repo.cp(&["hooks", "cursor", "--uninstall", "--user"]).ok();
    assert!(!hooks.exists());
    assert!(!repo.home().join(".cursor/hooks.json.bak").exists());
}

#[test]
fn cline_install_writes_executable_hooks_and_never_overwrites_a_users() {
    use std::os::unix::fs::PermissionsExt;
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let dir = repo.path().join(".clinerules/hooks");
    fs::create_dir_all(&dir).unwrap();
    let theirs = "#!/bin/sh\necho '{\"cancel\":false,\"contextModification\":\"lint ran\"}'\n";
    fs::write(dir.join("PostToolUse"), theirs).unwrap();
    fs::write(repo.path().join(".clinerules/style.md"), "Use tabs.\n").unwrap();

    let out = repo.cp(&["hooks", "cline", "--install"]).ok();
    assert!(out.stderr.contains("TaskComplete"), "{}", out.stderr);
    let events = [
        "PreToolUse",
        "TaskStart",
        "TaskResume",
        "TaskComplete",
        "TaskCancel",
    ];
    for event in events {
        let path = dir.join(event);
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755, "{event} is executable");
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("#!/bin/sh\n"), "{text}");
        assert!(
            text.contains("git checkpoint save --from-hook=cline"),
            "{text}"
        );
    }
    let again = repo.cp(&["hooks", "cline", "--install"]).ok();
    assert_eq!(
        again.stderr.matches("already").count(),
        events.len(),
        "{}",
        again.stderr
    );
    repo.cp(&["hooks", "cline", "--uninstall"]).ok();
    let mut left: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["PostToolUse"]);
    assert_eq!(fs::read_to_string(dir.join("PostToolUse")).unwrap(), theirs);
    assert_eq!(
        fs::read_to_string(repo.path().join(".clinerules/style.md")).unwrap(),
        "Use tabs.\n"
    );

    // A PreToolUse hook of the user's own is never overwritten, and then nothing is written.
    let mine = "#!/bin/sh\necho '{\"cancel\":false}'\n";
    fs::write(dir.join("PreToolUse"), mine).unwrap();
    let out = repo.cp(&["hooks", "cline", "--install"]).fails_with(1);
    out.assert_one_error_line();
    assert!(out.stderr.contains("PreToolUse"), "{}", out.stderr);
    assert_eq!(fs::read_to_string(dir.join("PreToolUse")).unwrap(), mine);
    assert!(!dir.join("TaskStart").exists());
    // Uninstall leaves it too.
    let out = repo.cp(&["hooks", "cline", "--uninstall"]).ok();
    assert!(
        out.stderr.contains("not git-checkpoint's"),
        "{}",
        out.stderr
    );
    assert_eq!(fs::read_to_string(dir.join("PreToolUse")).unwrap(), mine);
}

#[test]
fn opencode_install_writes_a_plugin_beside_the_others() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let dir = repo.path().join(".opencode/plugins");
    fs::create_dir_all(&dir).unwrap();
    let theirs = "export const Notify = async () => ({})\n";
    fs::write(dir.join("notify.js"), theirs).unwrap();
    let config =
        r#"{"$schema": "https://opencode.ai/config.json", "model": "anthropic/claude-sonnet-4-6"}"#;
    fs::write(repo.path().join("opencode.json"), config).unwrap();

    let out = repo.cp(&["hooks", "opencode", "--install"]).ok();
    assert!(out.stderr.contains("restart"), "{}", out.stderr);
    let plugin = fs::read_to_string(dir.join("git-checkpoint.js")).unwrap();
    assert!(plugin.contains("\"tool.execute.before\""), "{plugin}");
    assert!(plugin.contains("--from-hook=opencode"), "{plugin}");
    let again = repo.cp(&["hooks", "opencode", "--install"]).ok();
    assert!(again.stderr.contains("already"), "{}", again.stderr);
    repo.cp(&["hooks", "opencode", "--uninstall"]).ok();
    assert!(!dir.join("git-checkpoint.js").exists());
    assert_eq!(fs::read_to_string(dir.join("notify.js")).unwrap(), theirs);
    assert_eq!(
        fs::read_to_string(repo.path().join("opencode.json")).unwrap(),
        config
    );
}

#[test]
fn levels_an_agent_does_not_have_are_usage_errors() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    for agent in ["gemini", "codex", "cursor", "copilot", "cline", "opencode"] {
        let out = repo.cp(&["hooks", agent, "--install", "--local"]);
        assert_eq!(out.code, 2, "{agent}: {}", out.stderr);
        out.assert_one_error_line();
        assert!(out.stderr.contains("no local level"), "{}", out.stderr);
    }
    let out = repo.cp(&["mcp", "--install", "cline", "--project"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("no project level"), "{}", out.stderr);
    let out = repo.cp(&["mcp", "--install", "claude-code", "--user"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("claude mcp add --scope user"),
        "{}",
        out.stderr
    );
    assert!(!repo.path().join(".claude").exists() && !repo.home().join(".claude.json").exists());
}

// --- Running the installed hook as the agent does --------------------------------------

/// What every installed hook run must have done: exit 0, the agent's stdout, one checkpoint
/// of the agent with the state on disk.
#[track_caller]
fn ran_as_agent(repo: &Repo, c: &Case, out: &Run) {
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, c.stdout);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 1, "{}", out.stderr);
    let note = repo.note_json(&ids[0]);
    assert_eq!(note.get("agent"), c.agent);
    assert_eq!(note.get("session"), c.session);
    assert_eq!(repo.checkpoint_tree(&ids[0]), repo.oracle_tree());
}

/// The JSON agents: install at `level` into `rel`, take the commands of the pre-tool
/// `events[0]` and end-of-turn `events[1]` (under `key`) from the file, and run them from the
/// directory `from` gives, as the agent does.
fn json_hook_runs(
    agent: &str,
    level: &str,
    rel: &str,
    events: [&str; 2],
    key: &str,
    from: fn(&Repo) -> PathBuf,
) {
    let repo = Repo::with_commit(&[("src/lib.rs", "a\n")]);
    repo.write("src/lib.rs", "edited by the agent\n");
    repo.cp(&["hooks", agent, "--install", level]).ok();
    let base = if level == "--user" {
        repo.home()
    } else {
        repo.path()
    };
    let text = fs::read_to_string(base.join(rel)).unwrap();
    let command_of = |event: &str| json_eval(&commands(&text, event, key), "v[-1]");
    let command = command_of(events[0]);
    // Copilot's commands end in a success whatever happens (a failing hook denies there).
    let tail = if agent == "copilot" { " || true" } else { "" };
    assert_eq!(
        command,
        format!("git checkpoint save --from-hook={agent}{tail}")
    );
    let c = case(agent, &repo);
    let dir = from(&repo);
    fs::create_dir_all(&dir).unwrap();
    let out = run_hook_command(&repo, &dir, &command, &c.pre_tool);
    ran_as_agent(&repo, &c, &out);
    // The end of the turn, after another edit.
    repo.write("src/lib.rs", "edited again\n");
    let out = run_hook_command(&repo, &dir, &command_of(events[1]), &c.end);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, c.stdout),
        "{}",
        out.stderr
    );
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 2);
    assert_eq!(repo.note_json(&ids[1]).get("message"), "end of turn");
}

fn work_tree(repo: &Repo) -> PathBuf {
    repo.path().to_path_buf()
}

#[test]
fn claude_code_installed_hook_runs_as_claude_code_runs_it() {
    json_hook_runs(
        "claude-code",
        "--local",
        ".claude/settings.local.json",
        ["PreToolUse", "Stop"],
        "command",
        work_tree,
    );
}

#[test]
fn gemini_installed_hook_runs_as_gemini_runs_it() {
    json_hook_runs(
        "gemini",
        "--project",
        ".gemini/settings.json",
        ["BeforeTool", "AfterAgent"],
        "command",
        work_tree,
    );
}

#[test]
fn codex_installed_hook_runs_as_codex_runs_it() {
    json_hook_runs(
        "codex",
        "--project",
        ".codex/hooks.json",
        ["PreToolUse", "Stop"],
        "command",
        work_tree,
    );
}

#[test]
fn cursor_user_hook_runs_from_dot_cursor_and_finds_the_project() {
    // User-level Cursor hooks run from ~/.cursor (docs, "Configuration"): the repository
    // comes from the input's cwd.
    json_hook_runs(
        "cursor",
        "--user",
        ".cursor/hooks.json",
        ["preToolUse", "stop"],
        "command",
        |repo| repo.home().join(".cursor"),
    );
}

#[test]
fn copilot_installed_hook_runs_as_copilot_runs_it() {
    json_hook_runs(
        "copilot",
        "--project",
        ".github/hooks/git-checkpoint.json",
        ["preToolUse", "agentStop"],
        "bash",
        work_tree,
    );
}

/// Copilot CLI's `apply_patch` before a tool call: its arguments are the patch itself, not
/// JSON (the shape Copilot CLI 1.0.63 sent, recorded in pbakaus/impeccable#279; the fields as
/// `cli-hooks-reference.md` documents them).
fn copilot_apply_patch(repo: &Repo) -> String {
    let w = repo.path().display();
    format!(
        r#"{{"sessionId":"5d0b6c0e-8f1a-4e2b-9c3d-7a6b5c4d3e2f","timestamp":1763910245123,"cwd":"{w}","toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+{SECRET}\n*** Add File: {w}/src/new.rs\n+{SECRET}\n*** End Patch\n"}}"#
    )
}

#[test]
fn copilot_apply_patch_is_checkpointed_with_its_paths() {
    let repo = Repo::with_commit(&[("src/lib.rs", "a\n")]);
    repo.cp(&["hooks", "copilot", "--install"]).ok();
    let text = fs::read_to_string(repo.path().join(".github/hooks/git-checkpoint.json")).unwrap();
    // Copilot anchors the matcher: `^(?:…)$` must match the whole tool name.
    let matcher = json_eval(&text, "v['hooks']['preToolUse'][0]['matcher']");
    assert_eq!(
        json_eval(
            &format!("\"{matcher}\""),
            "[n for n in ['apply_patch', 'edit', 'create', 'bash', 'powershell', 'view', 'grep', 'glob'] \
              if __import__('re').fullmatch('(?:' + v + ')', n)]"
        ),
        r#"["apply_patch", "edit", "create", "bash", "powershell"]"#
    );
    repo.write("src/lib.rs", "edited by the agent\n");
    let command = json_eval(&text, "v['hooks']['preToolUse'][0]['bash']");
    let out = run_hook_command(&repo, repo.path(), &command, &copilot_apply_patch(&repo));
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{}", out.stderr);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 1);
    let note = repo.note_json(&ids[0]);
    assert_eq!(note.get("agent"), "copilot");
    assert_eq!(note.get("meta.tool"), "apply_patch");
    assert_eq!(note.get("meta.paths"), r#"["src/lib.rs", "src/new.rs"]"#);
    assert_eq!(
        note.get("message"),
        "before apply_patch src/lib.rs and 1 more"
    );
    assert!(
        !repo.note(&ids[0]).contains(SECRET),
        "{}",
        repo.note(&ids[0])
    );
}

#[test]
fn copilot_hook_never_fails_even_without_git_checkpoint() {
    let repo = Repo::with_commit(&[("src/lib.rs", "a\n")]);
    repo.cp(&["hooks", "copilot", "--install"]).ok();
    let text = fs::read_to_string(repo.path().join(".github/hooks/git-checkpoint.json")).unwrap();
    let c = case("copilot", &repo);
    // A PATH with git and nothing else: `git checkpoint` is not a git command there.
    let bin = repo.scratch().join("only-git");
    fs::create_dir_all(&bin).unwrap();
    let git = which("git");
    std::os::unix::fs::symlink(&git, bin.join("git")).unwrap();
    let run = |command: &str| {
        let mut cmd = std::process::Command::new("/bin/sh");
        cmd.args(["-c", command]).current_dir(repo.path());
        repo.env(&mut cmd);
        cmd.env("PATH", &bin);
        Run::from(feed_and_wait(&mut cmd, c.pre_tool.as_bytes()))
    };
    let bare = run("git checkpoint save --from-hook=copilot");
    assert_ne!(
        bare.code, 0,
        "the bare command fails there: {}",
        bare.stderr
    );
    for event in ["preToolUse", "sessionStart", "agentStop"] {
        let command = json_eval(&text, &format!("v['hooks']['{event}'][0]['bash']"));
        let out = run(&command);
        assert_eq!(
            (out.code, out.stdout.as_str()),
            (0, ""),
            "{event}: {}",
            out.stderr
        );
        assert!(out.stderr.contains("checkpoint"), "{event}: {}", out.stderr);
    }
    assert!(repo.checkpoint_ids().is_empty());

    // git-checkpoint's own refusal still reaches Copilot: its deny JSON, exit 0.
    repo.git(&["config", "checkpoint.maxFileSize", "a lot"]);
    repo.git(&["config", "checkpoint.hookFailure", "block"]);
    let command = json_eval(&text, "v['hooks']['preToolUse'][0]['bash']");
    let out = run_hook_command(&repo, repo.path(), &command, &c.pre_tool);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        json_eval(&out.stdout, "v['permissionDecision']"),
        "deny",
        "{}",
        out.stdout
    );
}

/// The absolute path of `program` on this machine's PATH.
fn which(program: &str) -> PathBuf {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{program} is not on PATH"))
}

#[test]
fn cline_installed_hook_file_runs_as_cline_runs_it() {
    let repo = Repo::with_commit(&[("src/lib.rs", "a\n")]);
    repo.write("src/lib.rs", "edited by the agent\n");
    repo.cp(&["hooks", "cline", "--install"]).ok();
    let c = case("cline", &repo);
    // Cline runs the file itself, from the workspace root, the JSON on stdin.
    let hook = repo.path().join(".clinerules/hooks/PreToolUse");
    let out = run_with_stdin(
        &repo,
        hook.to_str().unwrap(),
        &[],
        repo.path(),
        c.pre_tool.as_bytes(),
    );
    ran_as_agent(&repo, &c, &out);
    // TaskComplete's file answers too, and saves the state at the end of the run.
    repo.write("src/lib.rs", "edited again\n");
    let hook = repo.path().join(".clinerules/hooks/TaskComplete");
    let out = run_with_stdin(
        &repo,
        hook.to_str().unwrap(),
        &[],
        repo.path(),
        c.end.as_bytes(),
    );
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, c.stdout),
        "{}",
        out.stderr
    );
    assert_eq!(repo.checkpoint_ids().len(), 2);
}

/// A tiny stand-in for OpenCode: load the plugin the way OpenCode `API` (1 or 2) loads it, then
/// feed it a session's events and tool calls in that API's shapes.
///
/// - OpenCode 1 (1.18.29 and newer) takes the default export when it has an `id` and calls its
///   `server(input)`; the hooks it returns get `tool.execute.before(input, output)` and
///   `event({event})` (`anomalyco/opencode` `packages/opencode/src/plugin/shared.ts`,
///   `packages/plugin/src/index.ts`).
/// - OpenCode 2 decodes the default export as `{id, setup}` and calls `setup(ctx)`; the plugin
///   registers `ctx.tool.hook("execute.before", fn)` (one mutable event `{tool, sessionID,
///   agent, messageID, id, input}`) and reads `ctx.event.subscribe()`, an async iterable of
///   `{id, type, data}` (`packages/core/src/plugin/module.ts`, `packages/plugin/src/promise/`).
const OPENCODE_STUB: &str = r#"
import { writeFileSync } from "node:fs"
const [plugin, dir, api] = process.argv.slice(2)
const mod = await import(plugin)
if (JSON.stringify(Object.keys(mod)) !== '["default"]') throw new Error(`exports: ${Object.keys(mod)}`)
const definition = mod.default
if (definition.id !== "git-checkpoint") throw new Error(`id: ${definition.id}`)
const log = []

// The OpenCode 2 host: hooks registered by name, and an event stream the test pushes into,
// each push returning once the plugin has handled the event and asks for the next one.
let toolHook
const waiting = []
let pulled
let nextPull = new Promise((resolve) => (pulled = resolve))
let signal
const ctx = {
  app: { version: "2.0.20" },
  options: {},
  tool: {
    hook: async (name, fn) => {
      if (name !== "execute.before") throw new Error(`hook ${name}`)
      toolHook = fn
      return { dispose: async () => {} }
    },
  },
  event: {
    subscribe: (options) => {
      signal = options?.signal
      return {
        [Symbol.asyncIterator]: () => ({
          next: () => {
            pulled()
            return new Promise((resolve) => waiting.push(resolve))
          },
          return: async () => ({ done: true }),
        }),
      }
    },
  },
}
async function emit(type, data) {
  await nextPull
  nextPull = new Promise((resolve) => (pulled = resolve))
  waiting.shift()({ done: false, value: { id: `evt_${type}`, created: 1, type, data } })
  await nextPull
}

let before, event, cleanup
if (api === "2") {
  cleanup = await definition.setup(ctx)
  if (typeof toolHook !== "function") throw new Error("no execute.before hook")
  before = (tool, id, input) => toolHook({ tool, sessionID: "ses_stub2", agent: "build", messageID: "msg_1", id, input })
  event = async (kind) => {
    if (kind === "created") await emit("session.created", { sessionID: "ses_stub2", location: { directory: dir } })
    if (kind === "idle") {
      // The current stream reports the end of a turn twice: one checkpoint.
      await emit("session.status", { sessionID: "ses_stub2", status: { type: "idle" } })
      await emit("session.idle", { sessionID: "ses_stub2" })
    }
    if (kind === "other") await emit("file.edited", { file: "x" })
  }
} else {
  const hooks = await definition.server({ client: {}, project: {}, directory: dir, worktree: dir, serverUrl: new URL("http://localhost:4096"), $: undefined }, {})
  before = (tool, callID, args) => hooks["tool.execute.before"]({ tool, sessionID: "ses_stub1", callID }, { args })
  event = async (kind) => {
    if (kind === "created") await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_stub1" } } } })
    if (kind === "idle") await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_stub1" } } })
    if (kind === "other") await hooks.event({ event: { type: "file.edited", properties: { file: "x" } } })
  }
}

if (process.env.EXPECT_REFUSAL) {
  // checkpoint.hookFailure=block and a save that cannot work: the tool call is refused.
  try {
    await before(api === "2" ? "shell" : "bash", "call_2", { command: "rm -rf src" })
    log.push("allowed")
  } catch (err) {
    log.push(`refused: ${err.message}`)
  }
  // Never at the end of a turn.
  await event("idle")
} else {
  await event("created")
  writeFileSync(`${dir}/src/lib.rs`, "edited by the agent\n")
  // A read is no reason for a checkpoint; an edit is.
  await before("read", "call_0", { filePath: `${dir}/src/lib.rs` })
  await before("edit", "call_1", { filePath: `${dir}/src/lib.rs`, oldString: "a", newString: "b" })
  writeFileSync(`${dir}/src/lib.rs`, "edited again\n")
  await event("idle")
  await event("other")
}
if (cleanup) {
  await cleanup()
  if (!signal?.aborted) throw new Error("the cleanup did not end the event subscription")
}
console.log(JSON.stringify(log))
"#;

/// The installed plugin, loaded by `node` the way OpenCode `api` ("1" or "2") loads it.
fn opencode_plugin_runs_as_opencode(api: &str) {
    let node_version = std::process::Command::new("node").arg("--version").output();
    if !node_version.is_ok_and(|o| o.status.success()) {
        skipped("opencode_plugin_runs_in_node", "node is not installed");
        return;
    }
    let repo = Repo::with_commit(&[("src/lib.rs", "a\n")]);
    repo.cp(&["hooks", "opencode", "--install"]).ok();
    let plugin = repo.path().join(".opencode/plugins/git-checkpoint.js");
    // Node reads `.js` as CommonJS outside a `"type": "module"` package; Bun, OpenCode's
    // runtime, does not care. The same text as an `.mjs` file is the same module.
    let module = repo.scratch().join("git-checkpoint.mjs");
    fs::copy(&plugin, &module).unwrap();
    let stub = repo.scratch().join("stub.mjs");
    fs::write(&stub, OPENCODE_STUB).unwrap();
    let dir = repo.path().to_str().unwrap();
    let args = [stub.to_str().unwrap(), module.to_str().unwrap(), dir, api];
    let out = run_with_stdin(&repo, "node", &args, repo.path(), b"");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "[]\n"),
        "{}",
        out.stderr
    );
    let session = format!("ses_stub{api}");
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 3, "start, before the edit, end of turn");
    let kinds: Vec<String> = ids
        .iter()
        .map(|id| {
            let note = repo.note_json(id);
            assert_eq!(note.get("agent"), "opencode");
            assert_eq!(note.get("session"), session);
            format!("{} {}", note.get("kind"), note.get("message"))
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "session session start",
            "auto before edit src/lib.rs",
            "auto end of turn"
        ]
    );
    // What the plugin piped to `git checkpoint save --from-hook=opencode`.
    let before = repo.note_json(&ids[1]);
    assert_eq!(before.get("meta.event"), "tool.execute.before");
    assert_eq!(before.get("meta.tool"), "edit");
    assert_eq!(before.get("meta.tool_call_id"), "call_1");
    assert_eq!(before.get("meta.session_id"), session);
    assert_eq!(before.get("meta.paths"), r#"["src/lib.rs"]"#);
    assert_eq!(repo.checkpoint_tree(&ids[2]), repo.oracle_tree());
    assert_eq!(repo.note_json(&ids[2]).get("meta.event"), "session.idle");

    // checkpoint.hookFailure=block: the plugin throws, which OpenCode reports as the tool's
    // error; a warning otherwise.
    repo.git(&["config", "checkpoint.maxFileSize", "a lot"]);
    repo.git(&["config", "checkpoint.hookFailure", "block"]);
    let out = run_with_env(
        &repo,
        "node",
        &args,
        repo.path(),
        &[("EXPECT_REFUSAL", "1")],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let log = json_eval(&out.stdout, "v[-1]");
    assert!(
        log.starts_with("refused: error: ") && log.contains("checkpoint.maxFileSize"),
        "{log}"
    );
}

#[test]
fn opencode_plugin_runs_as_opencode_1_runs_it() {
    opencode_plugin_runs_as_opencode("1");
}

#[test]
fn opencode_plugin_runs_as_opencode_2_runs_it() {
    opencode_plugin_runs_as_opencode("2");
}
