//! What an agent's hook passes on stdin, and what the agent expects back.
//!
//! Each agent sends its own JSON; the fields read, per agent (sources as read in November
//! 2026; values of unknown fields are ignored, fields of unexpected types too):
//!
//! | agent | event | session | tool | tool call | turn | cwd | transcript |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | Claude Code | `hook_event_name` | `session_id` | `tool_name`, `tool_input` | `tool_use_id` | `prompt_id` (unverified) | `cwd` | `transcript_path` |
//! | Gemini CLI | `hook_event_name` | `session_id` | `tool_name`, `tool_input` | — | — | `cwd` | `transcript_path` (`""` when none) |
//! | Codex CLI | `hook_event_name` | `session_id` | `tool_name`, `tool_input` | `tool_use_id` | `turn_id` | `cwd` | `transcript_path` (or `null`) |
//! | Cursor | `hook_event_name` | `conversation_id` | `tool_name`, `tool_input` | `tool_use_id` | `generation_id` | `cwd`, else `workspace_roots[0]` | `transcript_path` (or `null`) |
//! | Copilot CLI | none: inferred | `sessionId` | `toolName`, `toolArgs` (a JSON string or an object; `apply_patch`'s: the patch) | — | — | `cwd` | none: `session-state/<sessionId>/events.jsonl` ([`HookInput::transcript_file`]) |
//! | Copilot CLI, VS Code compatible (PascalCase events) | `hook_event_name` | `session_id` | `tool_name`, `tool_input` | — | — | `cwd` | `transcript_path` |
//! | Cline | `hookName` | `taskId` | `tool_call.name` / `preToolUse.toolName`, `tool_call.input` / `preToolUse.parameters` | `tool_call.id` | `iteration` | `workspaceRoots[0]` | — |
//! | OpenCode | our plugin's `hook_event_name` | `session_id` | `tool_name`, `tool_input` | `tool_use_id` | — | `cwd` | — |
//!
//! Sources: Claude Code: https://code.claude.com/docs/en/hooks and `anthropics/claude-code`
//! `CHANGELOG.md` ("Added tool_use_id field to PreToolUseHookInput"). Gemini CLI:
//! `google-gemini/gemini-cli` `packages/core/src/hooks/types.ts` (`HookInput`,
//! `BeforeToolInput`), `docs/hooks/reference.md`. Codex: `openai/codex`
//! `codex-rs/hooks/src/schema.rs` (`PreToolUseCommandInput`, `turn_id`), and
//! https://developers.openai.com/codex/hooks. Cursor: https://cursor.com/docs/hooks
//! ("Reference": `conversation_id`, `generation_id`, `workspace_roots`, `preToolUse`).
//! Copilot CLI: `github/docs` `content/copilot/reference/copilot-cli-reference/
//! cli-hooks-reference.md` and `content/copilot/reference/hooks-configuration.md` ("toolArgs:
//! JSON string containing the tool's arguments"). Cline: `cline/cline`
//! `apps/vscode/proto/cline/hooks.proto`, `apps/vscode/src/core/hooks/hook-factory.ts`,
//! `sdk/packages/core/src/hooks/subprocess.ts` (`tool_call`, `iteration`). OpenCode: the JSON
//! our own plugin writes (see `install.rs`), from `anomalyco/opencode`
//! `packages/plugin/src/index.ts` (`tool.execute.before`: `tool`, `sessionID`, `callID`,
//! `args`).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::Agent;
use crate::format;
use crate::record::SaveOptions;

/// Longer paths, tool and event names in a hook's input are left out: a note must stay far
/// below [`format::MAX_NOTE_BYTES`] whatever an agent sends.
const MAX_FIELD_BYTES: usize = 4096;

/// At most this many edited paths are recorded (a patch may touch hundreds of files).
const MAX_PATHS: usize = 64;

/// What moment of an agent's work a hook reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Phase {
    /// An event this version does not know.
    #[default]
    Unknown,
    /// Before a tool call (Claude Code and Codex `PreToolUse`, Gemini `BeforeTool`, Cursor,
    /// Copilot `preToolUse`, Cline `PreToolUse`/`tool_call`, OpenCode `tool.execute.before`).
    PreTool,
    /// A session (Cline: a task) starts or resumes.
    SessionStart,
    /// The agent finished a turn (Claude Code and Codex `Stop`, Gemini `AfterAgent`, Cursor
    /// `stop`, Copilot `agentStop`, Cline `TaskComplete`/`TaskCancel`, OpenCode
    /// `session.idle`).
    EndOfTurn,
    /// A session ends.
    SessionEnd,
}

impl Phase {
    /// The phase of an event name; names do not collide between agents.
    fn of(event: &str) -> Phase {
        match event {
            // Claude Code, Codex; Gemini; Cursor, Copilot; Cline (VS Code file name, SDK wire
            // name); our OpenCode plugin.
            "PreToolUse"
            | "BeforeTool"
            | "preToolUse"
            | "beforeShellExecution"
            | "tool_call"
            | "tool.execute.before" => Phase::PreTool,
            "SessionStart" | "sessionStart" | "TaskStart" | "TaskResume" | "agent_start"
            | "agent_resume" | "session.created" => Phase::SessionStart,
            "Stop" | "AfterAgent" | "stop" | "agentStop" | "TaskComplete" | "TaskCancel"
            | "agent_end" | "agent_abort" | "session.idle" => Phase::EndOfTurn,
            "SessionEnd" | "sessionEnd" | "SessionShutdown" | "session_shutdown"
            | "session.deleted" => Phase::SessionEnd,
            _ => Phase::Unknown,
        }
    }
}

/// Tools known to change no file in the working tree: a pre-tool hook for them makes no
/// checkpoint. Agents whose hooks cannot be limited to some tools (Cline, Cursor's
/// `preToolUse`) call the hook before every tool; so may a hand-written configuration.
/// Names: Claude Code's tools (https://code.claude.com/docs/en/settings, "Tools available");
/// Gemini CLI's read-only tools (`packages/core/src/tools/tool-names.ts`); Cursor's matcher
/// values `Read`, `Grep` (https://cursor.com/docs/hooks); Copilot CLI's `view`, `glob`, `grep`,
/// `ask_user`, `web_fetch` (`cli-hooks-reference.md`, "Tool names for hook matching"); Cline's
/// read tools (`cline/cline` `.clinerules/hooks/README.md` examples, `apps/vscode/src/sdk/
/// sdk-tool-policies.ts`). A tool missing here is checkpointed: a save that finds nothing
/// changed costs one status and adds nothing.
const READ_ONLY_TOOLS: &[&str] = &[
    // Claude Code.
    "Read",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
    "NotebookRead",
    // Gemini CLI.
    "read_file",
    "read_many_files",
    "list_directory",
    "glob",
    "search_file_content",
    "grep_search",
    "google_web_search",
    "web_fetch",
    // Copilot CLI.
    "view",
    "grep",
    "ask_user",
    // Cline.
    "read_files",
    "list_files",
    "search_files",
    "list_code_definition_names",
    "ask_followup_question",
    "attempt_completion",
    "plan_mode_respond",
];

/// What an agent's hook said about the moment the checkpoint is taken.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookInput {
    /// The agent: as told (`--from-hook=<agent>`), or recognised from the input.
    pub agent: Option<Agent>,
    /// The agent's own name of the event: `PreToolUse`, `BeforeTool`, `preToolUse`, …
    pub event: Option<String>,
    /// What the event means.
    pub phase: Phase,
    /// The session (Cursor: conversation; Cline: task) id.
    pub session: Option<String>,
    /// The tool about to run.
    pub tool: Option<String>,
    /// The id of this tool call.
    pub tool_call: Option<String>,
    /// The id of the turn (Codex `turn_id`, Cursor `generation_id`, Cline `iteration`).
    pub turn: Option<String>,
    /// The transcript file of the session.
    pub transcript: Option<String>,
    /// The paths the tool is about to edit, as the agent gave them.
    pub paths: Vec<String>,
    /// The directory the agent works in.
    pub cwd: Option<PathBuf>,
    /// How a session started: `startup`, `resume`, `clear`, …
    pub source: Option<String>,
}

/// What a hook prints on stdout, and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// One line for stdout, if the agent expects one.
    pub stdout: Option<String>,
    /// The exit code.
    pub exit: u8,
}

impl HookInput {
    /// The session's transcript file: the one the input names, else where the agent keeps it
    /// when its input names none (when the session id is one file name):
    /// - Copilot CLI, whose camelCase events (`preToolUse`, …) never name one:
    ///   `<copilot_home>/session-state/<sessionId>/events.jsonl` (`copilot_home`:
    ///   `$COPILOT_HOME`, else `~/.copilot`);
    /// - Cursor, whose `transcript_path` is often `null`: the file of that conversation id under
    ///   `<cursor_home>/projects/*/agent-transcripts/` (`<id>.jsonl`, or the IDE's
    ///   `<id>/<id>.jsonl`), when there is one (`cursor_home`: `~/.cursor`).
    pub fn transcript_file(
        &self,
        copilot_home: Option<&Path>,
        cursor_home: Option<&Path>,
    ) -> Option<PathBuf> {
        if let Some(named) = &self.transcript {
            return Some(PathBuf::from(named));
        }
        let session = self.session.as_deref()?;
        let one_name = !session.is_empty()
            && session.len() <= 128
            && session != "."
            && session != ".."
            && session
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        if !one_name {
            return None;
        }
        match self.agent? {
            Agent::Copilot => Some(
                copilot_home?
                    .join("session-state")
                    .join(session)
                    .join("events.jsonl"),
            ),
            Agent::Cursor => {
                let file = format!("{session}.jsonl");
                std::fs::read_dir(cursor_home?.join("projects"))
                    .ok()?
                    .flatten()
                    .take(10_000)
                    .flat_map(|project| {
                        let dir = project.path().join("agent-transcripts");
                        [dir.join(&file), dir.join(session).join(&file)]
                    })
                    .find(|path| path.is_file())
            }
            _ => None,
        }
    }

    /// An input that says nothing but which agent sent it.
    pub fn of_agent(agent: Option<Agent>) -> HookInput {
        HookInput {
            agent,
            ..HookInput::default()
        }
    }

    /// Read a hook's JSON input. `told` is the agent given with `--from-hook=<agent>`;
    /// without it the agent is recognised from the input's fields, and `hint` (from the
    /// environment, see [`Agent::from_env`]) decides what the fields leave open. Empty input
    /// is no information, not an error; anything but a JSON object is an error.
    pub fn parse(
        bytes: &[u8],
        told: Option<Agent>,
        hint: Option<Agent>,
    ) -> std::result::Result<HookInput, String> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(HookInput::of_agent(told.or(hint)));
        }
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| format!("the hook input is not JSON: {e}"))?;
        let Value::Object(map) = value else {
            return Err("the hook input is not a JSON object".into());
        };
        let agent = match told {
            // Cursor and Copilot CLI also run the hooks in Claude Code's settings files.
            Some(Agent::ClaudeCode) => unmistakable(&map).or(told),
            Some(agent) => Some(agent),
            None => recognise(&map, hint),
        };
        Ok(read(&map, agent))
    }

    /// Whether this hook asks for a checkpoint: not before a tool known to change no file.
    pub fn wants_checkpoint(&self) -> bool {
        !(self.phase == Phase::PreTool
            && self
                .tool
                .as_deref()
                .is_some_and(|t| READ_ONLY_TOOLS.contains(&t)))
    }

    /// The save this hook asks for: kind `session` at a session's start or end, `auto`
    /// otherwise (before a tool call, and at the end of a turn, with the event in `meta`); a
    /// message saying what comes next; the agent and the session; and in `meta` the event,
    /// tool, session, turn and tool-call ids, the edited paths (relative to `workdir` when
    /// inside it) and the transcript's path. Never a file's or a prompt's content. A session
    /// id that is not valid as one is left out of the `session` field but kept in `meta`.
    pub fn save_options(&self, workdir: Option<&Path>) -> SaveOptions {
        let mut meta = Map::new();
        let mut put = |key: &str, value: Option<&String>| {
            if let Some(v) = value {
                meta.insert(key.into(), Value::String(v.clone()));
            }
        };
        put("event", self.event.as_ref());
        put("tool", self.tool.as_ref());
        put("session_id", self.session.as_ref());
        put("turn_id", self.turn.as_ref());
        put("tool_call_id", self.tool_call.as_ref());
        put("transcript_path", self.transcript.as_ref());
        let mut paths: Vec<String> = Vec::new();
        for p in &self.paths {
            let rel = relative_to(p, self.cwd.as_deref(), workdir);
            if !paths.contains(&rel) {
                paths.push(rel);
            }
        }
        if !paths.is_empty() {
            meta.insert(
                "paths".into(),
                Value::Array(paths.iter().cloned().map(Value::String).collect()),
            );
        }
        let kind = match self.phase {
            Phase::SessionStart | Phase::SessionEnd => format::KIND_SESSION,
            _ => format::KIND_AUTO,
        };
        let message = match self.phase {
            Phase::SessionStart => Some(match self.source.as_deref() {
                Some(source) => format!("session start ({source})"),
                None => "session start".into(),
            }),
            Phase::SessionEnd => Some("session end".into()),
            Phase::EndOfTurn => Some("end of turn".into()),
            Phase::PreTool | Phase::Unknown => {
                match (self.tool.as_deref(), self.event.as_deref()) {
                    (Some(tool), _) => Some(match paths.as_slice() {
                        [] => format!("before {tool}"),
                        [one] => format!("before {tool} {one}"),
                        [first, rest @ ..] => {
                            format!("before {tool} {first} and {} more", rest.len())
                        }
                    }),
                    (None, Some(event)) => Some(format!("before {event}")),
                    (None, None) => None,
                }
            }
        };
        SaveOptions {
            message: message.map(|m| m.replace(['\n', '\r'], " ")),
            generated_message: true,
            kind: Some(kind.into()),
            meta,
            session: self
                .session
                .clone()
                .filter(|s| format::validate_session(s).is_ok()),
            agent: self.agent.map(|a| a.name().to_string()),
            ..SaveOptions::default()
        }
    }

    /// What to answer when the hook lets the agent go on: nothing and exit 0, except for
    /// Cline, which logs a warning unless it reads its JSON answer (`{"cancel": false}`;
    /// `.clinerules/hooks/README.md` "Output", `apps/vscode/src/core/hooks/hook-factory.ts`).
    ///
    /// Nothing else may be printed: Codex parses stdout as JSON with unknown fields denied
    /// (`codex-rs/hooks/src/events/pre_tool_use.rs`), Gemini CLI turns plain stdout into a
    /// message to the user (`hookRunner.ts` `convertPlainTextToHookOutput`), Claude Code adds a
    /// `SessionStart` hook's stdout to the model's context (hooks docs, "SessionStart").
    pub fn allow(&self) -> Reply {
        Reply {
            stdout: (self.agent == Some(Agent::Cline))
                .then(|| json!({"cancel": false}).to_string()),
            exit: 0,
        }
    }

    /// How to refuse the tool call, saying `reason`, in the way the agent understands; `None`
    /// for events that must never be blocked: blocking at a session's start or at the end of a
    /// turn stops nothing and makes some agents go on working (Claude Code `Stop`: "prevents
    /// stopping"; Gemini `AfterAgent`: "triggers an automatic retry"; Copilot `agentStop`:
    /// "forces another agent turn").
    pub fn refuse(&self, reason: &str) -> Option<Reply> {
        if self.phase != Phase::PreTool {
            return None;
        }
        let json = |value: Value| {
            Some(Reply {
                stdout: Some(value.to_string()),
                exit: 0,
            })
        };
        match self.agent {
            // Gemini CLI, `BeforeTool`: `{"decision": "deny", "reason"}`, the reason sent to
            // the agent as the tool's error (docs/hooks/reference.md, "BeforeTool").
            Some(Agent::Gemini) => json(json!({"decision": "deny", "reason": reason})),
            // Codex: the `hookSpecificOutput` deny (codex-rs/hooks/src/events/pre_tool_use.rs,
            // test `permission_decision_deny_blocks_processing`).
            Some(Agent::Codex) => json(json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }})),
            // Cursor, `preToolUse`: `{"permission": "deny", "user_message", "agent_message"}`
            // (https://cursor.com/docs/hooks, "preToolUse").
            Some(Agent::Cursor) => json(json!({
                "permission": "deny",
                "user_message": reason,
                "agent_message": reason,
            })),
            // Copilot CLI: `{"permissionDecision": "deny", "permissionDecisionReason"}`
            // (cli-hooks-reference.md, "preToolUse decision control").
            Some(Agent::Copilot) => json(json!({
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            })),
            // Cline: `{"cancel": true, "errorMessage"}` (.clinerules/hooks/README.md "Output").
            Some(Agent::Cline) => json(json!({"cancel": true, "errorMessage": reason})),
            // Claude Code: exit 2 blocks the tool call and shows stderr to the model (hooks
            // docs, "Exit code 2"); our OpenCode plugin throws on exit 2, which OpenCode
            // reports to the agent as the tool's error (docs `plugins.mdx`, ".env protection").
            Some(Agent::ClaudeCode | Agent::OpenCode) | None => Some(Reply {
                stdout: None,
                exit: 2,
            }),
        }
    }
}

/// Which agent sent `map`: fields only one agent sends decide; Claude Code and Codex send
/// the same shape, told apart by Codex's `turn_id`, its `apply_patch` tool, its `null`
/// transcript path and where its transcripts are, else by `hint`, else it is Claude Code's.
fn recognise(map: &Map<String, Value>, hint: Option<Agent>) -> Option<Agent> {
    let has = |k: &str| map.contains_key(k);
    let text = |k: &str| map.get(k).and_then(Value::as_str);
    let event = text("hook_event_name");
    if has("hookName") || has("clineVersion") || has("taskId") {
        return Some(Agent::Cline);
    }
    if let Some(agent) = unmistakable(map) {
        return Some(agent);
    }
    if event.is_some_and(|e| e.contains('.')) {
        return Some(Agent::OpenCode);
    }
    // Gemini CLI's event names, and the ISO `timestamp` its base input has and Claude Code's
    // and Codex's lack (types.ts `HookInput`); Copilot's ISO timestamps are told apart by
    // [`unmistakable`] first.
    if matches!(
        event,
        Some(
            "BeforeTool"
                | "AfterTool"
                | "BeforeAgent"
                | "AfterAgent"
                | "BeforeModel"
                | "AfterModel"
                | "BeforeToolSelection"
                | "PreCompress"
        )
    ) || (event.is_some() && text("timestamp").is_some())
    {
        return Some(Agent::Gemini);
    }
    if event.is_none() {
        return hint;
    }
    // Codex's transcript path may be `null` (`NullableString` in `codex-rs/hooks/src/
    // schema.rs`, e.g. at `SessionStart`, which has no `turn_id`); Claude Code's is a string.
    let codex_transcript = match map.get("transcript_path") {
        Some(Value::Null) => true,
        Some(Value::String(t)) => t.contains("/.codex/"),
        _ => false,
    };
    if has("turn_id") || text("tool_name") == Some("apply_patch") || codex_transcript {
        return Some(Agent::Codex);
    }
    match hint {
        Some(Agent::Codex) => Some(Agent::Codex),
        _ => Some(Agent::ClaudeCode),
    }
}

/// Cursor or Copilot CLI, from fields no other agent sends. Both also run the hooks of Claude
/// Code's settings files, so this decides even under `--from-hook=claude-code`.
/// - Cursor: `cursor_version`, `conversation_id`, `workspace_roots`, in every hook's input
///   (https://cursor.com/docs/hooks, "Common schema"); it loads `.claude/settings.json`
///   (https://cursor.com/docs/reference/third-party-hooks).
/// - Copilot CLI: the camelCase input (`sessionId`, `toolName`, `toolArgs`) of its camelCase
///   events, and, for the PascalCase events of its VS Code compatible format, an ISO 8601
///   `timestamp` string with `hook_event_name` (`cli-hooks-reference.md`, "Hook event input
///   payloads"), which Claude Code does not send (https://code.claude.com/docs/en/hooks,
///   "Common input fields"). Gemini CLI sends such a timestamp too, always with
///   `transcript_path` (types.ts `HookInput`) and never with the events only Copilot has
///   (`PreToolUse`, `Stop`, …); of the two events both have, Copilot's `SessionStart` and
///   `SessionEnd` carry no `transcript_path`. Copilot reads `.claude/settings.json` since
///   1.0.12 (`github/copilot-cli` `changelog.md`).
fn unmistakable(map: &Map<String, Value>) -> Option<Agent> {
    let has = |k: &str| map.contains_key(k);
    if has("cursor_version") || has("conversation_id") || has("workspace_roots") {
        return Some(Agent::Cursor);
    }
    if has("sessionId") || has("toolName") || has("toolArgs") {
        return Some(Agent::Copilot);
    }
    let event = map.get("hook_event_name").and_then(Value::as_str)?;
    map.get("timestamp").and_then(Value::as_str)?;
    let copilot = match event {
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "UserPromptSubmit" | "Stop"
        | "SubagentStop" | "ErrorOccurred" | "PreCompact" => true,
        "SessionStart" | "SessionEnd" => !has("transcript_path"),
        _ => false,
    };
    copilot.then_some(Agent::Copilot)
}

/// A string field, when it is one and not too long.
fn text_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) if s.len() <= MAX_FIELD_BYTES => Some(s.clone()),
        _ => None,
    }
}

/// A tool's input: an object, or (Copilot's `toolArgs`) a JSON string holding one.
fn object_of(value: Option<&Value>) -> Option<Map<String, Value>> {
    match value? {
        Value::Object(map) => Some(map.clone()),
        Value::String(s) => match serde_json::from_str(s) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        },
        _ => None,
    }
}

fn read(map: &Map<String, Value>, agent: Option<Agent>) -> HookInput {
    let field = |keys: &[&str]| keys.iter().find_map(|k| text_of(map.get(*k)));
    // Cline sends both its SDK's `tool_call` and the older `preToolUse` object.
    let tool_call = map.get("tool_call").and_then(Value::as_object);
    let pre_tool_use = map.get("preToolUse").and_then(Value::as_object);
    let tool = field(&["tool_name", "toolName"])
        .or_else(|| tool_call.and_then(|t| text_of(t.get("name"))))
        .or_else(|| pre_tool_use.and_then(|t| text_of(t.get("toolName"))));
    let tool_input = object_of(map.get("tool_input"))
        .or_else(|| object_of(map.get("toolInput")))
        .or_else(|| object_of(map.get("toolArgs")))
        .or_else(|| tool_call.and_then(|t| object_of(t.get("input"))))
        .or_else(|| pre_tool_use.and_then(|t| object_of(t.get("parameters"))));
    let mut event = field(&["hook_event_name", "hookEventName", "hookName"]);
    if event.is_none() && agent == Some(Agent::Copilot) {
        // Copilot CLI's camelCase payloads do not name their event: each event has its own
        // fields (cli-hooks-reference.md): `toolName` (preToolUse), `stopReason` (agentStop),
        // `source`/`initialPrompt` (sessionStart), `reason` (sessionEnd).
        let has = |k: &str| map.contains_key(k);
        event = if tool.is_some() {
            Some("preToolUse".into())
        } else if has("stopReason") {
            Some("agentStop".into())
        } else if has("source") || has("initialPrompt") {
            Some("sessionStart".into())
        } else if has("reason") {
            Some("sessionEnd".into())
        } else {
            None
        };
    }
    let mut phase = event.as_deref().map_or(Phase::Unknown, Phase::of);
    if phase == Phase::Unknown && event.is_none() && tool.is_some() {
        phase = Phase::PreTool;
    }
    let mut source = field(&["source"]);
    if source.is_none() && matches!(event.as_deref(), Some("TaskResume" | "agent_resume")) {
        source = Some("resume".into());
    }
    let first_root = |key: &str| {
        map.get(key)
            .and_then(Value::as_array)
            .and_then(|roots| text_of(roots.first()))
    };
    let cwd = field(&["cwd"])
        .or_else(|| first_root("workspace_roots"))
        .or_else(|| first_root("workspaceRoots"))
        .filter(|c| !c.is_empty())
        .map(PathBuf::from);
    HookInput {
        agent,
        event,
        phase,
        session: field(&["session_id", "sessionId", "conversation_id", "taskId"])
            .filter(|s| !s.is_empty()),
        tool,
        tool_call: field(&["tool_use_id", "toolUseId"])
            .or_else(|| tool_call.and_then(|t| text_of(t.get("id")))),
        // Cline's `iteration` is a number.
        turn: field(&["turn_id", "generation_id", "prompt_id"]).or_else(|| {
            map.get("iteration")
                .and_then(Value::as_u64)
                .map(|n| n.to_string())
        }),
        transcript: field(&["transcript_path", "transcriptPath"]).filter(|t| !t.is_empty()),
        paths: match (&tool_input, map.get("toolArgs")) {
            (Some(input), _) => edited_paths(input),
            // Copilot CLI's `apply_patch` passes the patch itself as `toolArgs`, not JSON
            // (recorded from Copilot CLI 1.0.63: pbakaus/impeccable#279).
            (None, Some(Value::String(patch))) => patch_paths(patch)
                .filter(|p| !p.is_empty() && p.len() <= MAX_FIELD_BYTES)
                .take(MAX_PATHS)
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        },
        cwd,
        source,
    }
}

/// The paths a tool's input names: the file a tool edits (Claude Code, Gemini `file_path`,
/// `notebook_path`; Copilot, Cline `path`; OpenCode `filePath`; Cursor's edit tools,
/// undocumented: `file_path`, `path`, `target_file`) and the files of an `apply_patch` body.
fn edited_paths(input: &Map<String, Value>) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    let mut add = |p: &str| {
        let p = p.trim();
        if !p.is_empty()
            && p.len() <= MAX_FIELD_BYTES
            && paths.len() < MAX_PATHS
            && !paths.iter().any(|q| q == p)
        {
            paths.push(p.to_string());
        }
    };
    for key in [
        "file_path",
        "notebook_path",
        "path",
        "filePath",
        "target_file",
    ] {
        if let Some(p) = input.get(key).and_then(Value::as_str) {
            add(p);
        }
    }
    // Codex `apply_patch` (`tool_input.command`), Cline `apply_patch` (`input`), OpenCode
    // `apply_patch` (`patchText`), or a shell command feeding one through a here-document.
    for value in input.values() {
        if let Some(text) = value.as_str()
            && text.contains("*** Begin Patch")
        {
            for p in patch_paths(text) {
                add(p);
            }
        }
    }
    paths
}

/// The files an `apply_patch` body adds, updates, deletes or moves to, from its headers
/// (`openai/codex` `codex-rs/core/src/tools/handlers/apply_patch.rs`, the grammar in
/// `create_apply_patch_json_tool`: `*** Add File: `, `*** Update File: `, `*** Delete File: `,
/// `*** Move to: `, each followed by a relative path).
fn patch_paths(patch: &str) -> impl Iterator<Item = &str> {
    patch.lines().filter_map(|line| {
        let line = line.trim_start();
        [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ]
        .iter()
        .find_map(|prefix| line.strip_prefix(prefix))
        .map(str::trim)
    })
}

/// `path` relative to `workdir` when it is inside it; a relative `path` is taken relative to
/// `cwd` (the agent's directory) first. Seen directly, or with symlinks resolved, as an agent
/// may report either. Else `path` as given.
fn relative_to(path: &str, cwd: Option<&Path>, workdir: Option<&Path>) -> String {
    let p = Path::new(path);
    let absolute = if p.is_absolute() {
        p.to_path_buf()
    } else {
        match cwd.filter(|c| c.is_absolute()) {
            Some(cwd) => cwd.join(p),
            None => return path.to_string(),
        }
    };
    let Some(workdir) = workdir else {
        return path.to_string();
    };
    let absolute = crate::repo::lexical(&absolute);
    let canonical = |dir: &Path| dir.canonicalize().ok();
    let relative = absolute
        .strip_prefix(workdir)
        .ok()
        .map(Path::to_path_buf)
        .or_else(|| {
            let workdir = canonical(workdir)?;
            absolute
                .strip_prefix(&workdir)
                .ok()
                .map(Path::to_path_buf)
                .or_else(|| {
                    // The agent's cwd seen through a symlink, the path relative to it.
                    let cwd = cwd.and_then(canonical)?;
                    let through = crate::repo::lexical(&cwd.join(p));
                    through.strip_prefix(&workdir).ok().map(Path::to_path_buf)
                })
        });
    match relative {
        Some(r) if !r.as_os_str().is_empty() => r.to_string_lossy().replace('\\', "/"),
        _ => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type R = std::result::Result<(), String>;

    fn parse(json: &str) -> std::result::Result<HookInput, String> {
        HookInput::parse(json.as_bytes(), None, None)
    }

    #[test]
    fn copilots_transcript_is_found_from_its_session_when_the_input_names_none() -> R {
        let home = Path::new("/h/.copilot");
        let copilot = |json: &str| parse(json).map(|i| i.transcript_file(Some(home), None));
        assert_eq!(
            copilot(
                r#"{"sessionId":"b0ff-98","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{}"}"#
            )?,
            Some(PathBuf::from(
                "/h/.copilot/session-state/b0ff-98/events.jsonl"
            ))
        );
        // One the input names wins; a session id that is no file name is never a path.
        assert_eq!(
            copilot(r#"{"sessionId":"s","transcriptPath":"/t.jsonl","toolName":"bash"}"#)?,
            Some(PathBuf::from("/t.jsonl"))
        );
        for bad in ["..", "a/b", "", "x\\\\y"] {
            let json = format!(r#"{{"sessionId":"{bad}","cwd":"/w","toolName":"bash"}}"#);
            assert_eq!(copilot(&json)?, None, "{bad}");
        }
        // Other agents name their transcript or have none.
        let claude = parse(
            r#"{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash"}"#,
        )?;
        assert_eq!(claude.transcript_file(Some(home), Some(home)), None);
        Ok(())
    }

    #[test]
    fn cursors_transcript_is_found_from_its_conversation_id_when_the_input_names_none() -> R {
        let cursor = tempfile::tempdir().map_err(|e| e.to_string())?;
        let id = "e3a1c5b7-9d2f-4e6a-8b0c-4f7d1a3e5c92";
        let input = |id: &str| {
            parse(&format!(
                r#"{{"conversation_id":"{id}","hook_event_name":"preToolUse","tool_name":"Shell","workspace_roots":["/w"],"transcript_path":null}}"#
            ))
        };
        // None there yet: nothing is guessed.
        assert_eq!(input(id)?.transcript_file(None, Some(cursor.path())), None);
        // The IDE's nested file, in whichever project directory holds it.
        let dir = cursor.path().join("projects/w/agent-transcripts").join(id);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        std::fs::write(dir.join(format!("{id}.jsonl")), "{}\n").map_err(|e| e.to_string())?;
        std::fs::create_dir_all(cursor.path().join("projects/other")).map_err(|e| e.to_string())?;
        assert_eq!(
            input(id)?.transcript_file(None, Some(cursor.path())),
            Some(dir.join(format!("{id}.jsonl")))
        );
        assert_eq!(
            input("other")?.transcript_file(None, Some(cursor.path())),
            None
        );
        Ok(())
    }

    #[test]
    fn claude_code_input_is_read() -> R {
        let input = parse(
            r#"{"session_id":"abc-123","transcript_path":"/t.jsonl","cwd":"/w",
                "permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write",
                "tool_input":{"file_path":"/w/src/a.rs","content":"fn main() {}"},
                "tool_use_id":"toolu_01"}"#,
        )?;
        assert_eq!(input.agent, Some(Agent::ClaudeCode));
        assert_eq!(input.phase, Phase::PreTool);
        assert_eq!(input.paths, ["/w/src/a.rs"]);
        let options = input.save_options(Some(Path::new("/w")));
        assert_eq!(options.kind.as_deref(), Some("auto"));
        assert_eq!(options.session.as_deref(), Some("abc-123"));
        assert_eq!(options.agent.as_deref(), Some("claude-code"));
        assert_eq!(options.message.as_deref(), Some("before Write src/a.rs"));
        assert_eq!(
            Value::Object(options.meta),
            json!({"event": "PreToolUse", "tool": "Write", "session_id": "abc-123",
                   "tool_call_id": "toolu_01", "transcript_path": "/t.jsonl",
                   "paths": ["src/a.rs"]})
        );
        assert_eq!(
            input.allow(),
            Reply {
                stdout: None,
                exit: 0
            }
        );
        assert_eq!(input.refuse("no").map(|r| r.exit), Some(2));
        Ok(())
    }

    #[test]
    fn every_agent_is_recognised_from_its_fields() -> R {
        let cases = [
            (
                r#"{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-11-23T15:04:05.123Z","tool_name":"replace","tool_input":{"file_path":"src/lib.rs"}}"#,
                Agent::Gemini,
                Phase::PreTool,
            ),
            (
                r#"{"session_id":"s","turn_id":"7","transcript_path":null,"cwd":"/w","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** Add File: b.rs\n+x\n*** End Patch\n"},"tool_use_id":"call_1"}"#,
                Agent::Codex,
                Phase::PreTool,
            ),
            (
                r#"{"conversation_id":"c","generation_id":"g","hook_event_name":"stop","workspace_roots":["/w"],"status":"completed"}"#,
                Agent::Cursor,
                Phase::EndOfTurn,
            ),
            (
                r#"{"sessionId":"s","timestamp":1763910245123,"cwd":"/w","toolName":"edit","toolArgs":"{\"path\":\"src/lib.rs\"}"}"#,
                Agent::Copilot,
                Phase::PreTool,
            ),
            (
                r#"{"clineVersion":"4.1.13","hookName":"TaskStart","taskId":"t1","workspaceRoots":["/w"],"taskStart":{"taskMetadata":{"taskId":"t1"}}}"#,
                Agent::Cline,
                Phase::SessionStart,
            ),
            (
                r#"{"hook_event_name":"session.idle","session_id":"ses_1","cwd":"/w"}"#,
                Agent::OpenCode,
                Phase::EndOfTurn,
            ),
        ];
        for (json, agent, phase) in cases {
            let input = parse(json)?;
            assert_eq!((input.agent, input.phase), (Some(agent), phase), "{json}");
            assert_eq!(input.cwd.as_deref(), Some(Path::new("/w")), "{json}");
        }
        // Codex's patch headers, its turn and call ids.
        let codex = parse(cases[1].0)?;
        assert_eq!(codex.paths, ["src/a.rs", "b.rs"]);
        assert_eq!(codex.turn.as_deref(), Some("7"));
        assert_eq!(codex.transcript, None);
        // Copilot's arguments as a JSON string, and its `apply_patch`'s as the patch itself.
        assert_eq!(parse(cases[3].0)?.paths, ["src/lib.rs"]);
        let patch = parse(
            r#"{"sessionId":"s","timestamp":1763910245123,"cwd":"/w","toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** Add File: /w/b.rs\n+x\n*** End Patch\n"}"#,
        )?;
        assert_eq!(patch.agent, Some(Agent::Copilot));
        assert_eq!(patch.paths, ["src/a.rs", "/w/b.rs"]);
        // Inputs that bare `--from-hook` once took for another agent's. Codex's SessionStart:
        // no turn id, a `null` transcript (codex-rs/hooks/src/schema.rs
        // `SessionStartCommandInput`). Copilot CLI's VS Code compatible format: PascalCase
        // events, snake_case fields, an ISO timestamp (cli-hooks-reference.md); Gemini's
        // SessionStart always has `transcript_path` (types.ts `HookInput`).
        let more = [
            (
                r#"{"session_id":"s","transcript_path":null,"cwd":"/w","hook_event_name":"SessionStart","model":"gpt-5.2-codex","permission_mode":"default","source":"startup"}"#,
                Agent::Codex,
                Phase::SessionStart,
            ),
            (
                r#"{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-11-23T15:04:05.123Z","cwd":"/w","tool_name":"edit","tool_input":{"path":"src/lib.rs"}}"#,
                Agent::Copilot,
                Phase::PreTool,
            ),
            (
                r#"{"hook_event_name":"SessionStart","session_id":"s","timestamp":"2026-11-23T15:00:00.000Z","cwd":"/w","source":"new","initial_prompt":"p"}"#,
                Agent::Copilot,
                Phase::SessionStart,
            ),
            (
                r#"{"hook_event_name":"Stop","session_id":"s","timestamp":"2026-11-23T15:05:00.000Z","cwd":"/w","transcript_path":"/t.jsonl","stop_reason":"end_turn"}"#,
                Agent::Copilot,
                Phase::EndOfTurn,
            ),
            (
                r#"{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"SessionStart","timestamp":"2026-11-23T15:00:00.000Z","source":"startup"}"#,
                Agent::Gemini,
                Phase::SessionStart,
            ),
            (
                r#"{"session_id":"s","transcript_path":"/home/u/.claude/projects/p/s.jsonl","cwd":"/w","hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-4-6"}"#,
                Agent::ClaudeCode,
                Phase::SessionStart,
            ),
        ];
        for (json, agent, phase) in more {
            let input = parse(json)?;
            assert_eq!((input.agent, input.phase), (Some(agent), phase), "{json}");
        }
        // Copilot's PascalCase tool call is refused the way Copilot understands.
        let pascal = parse(more[1].0)?;
        assert_eq!(pascal.paths, ["src/lib.rs"]);
        assert!(
            pascal
                .refuse("r")
                .and_then(|r| r.stdout)
                .is_some_and(|o| o.contains("permissionDecision"))
        );
        // Cursor and Copilot run the hooks of Claude Code's settings too: their input tells,
        // even under `--from-hook=claude-code`; Claude Code's own input stays Claude Code's.
        let claude = Some(Agent::ClaudeCode);
        for (json, agent) in [
            (cases[2].0, Agent::Cursor),
            (more[1].0, Agent::Copilot),
            (cases[3].0, Agent::Copilot),
            (more[5].0, Agent::ClaudeCode),
        ] {
            let input = HookInput::parse(json.as_bytes(), claude, None)?;
            assert_eq!(input.agent, Some(agent), "{json}");
        }
        // A Claude-shaped input with Codex's hint is Codex's; told, the agent is as told.
        let plain = r#"{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}"#;
        let hinted = HookInput::parse(plain.as_bytes(), None, Some(Agent::Codex))?;
        assert_eq!(hinted.agent, Some(Agent::Codex));
        let told = HookInput::parse(plain.as_bytes(), Some(Agent::Cursor), None)?;
        assert_eq!(told.agent, Some(Agent::Cursor));
        Ok(())
    }

    #[test]
    fn cline_sdk_and_vscode_payloads() -> R {
        let sdk = parse(
            r#"{"clineVersion":"","timestamp":"2026-11-23T15:04:05Z","taskId":"t1","workspaceRoots":["/w"],"hookName":"tool_call","iteration":3,"tool_call":{"id":"tc_9","name":"apply_patch","input":{"input":"*** Begin Patch\n*** Delete File: old.txt\n*** End Patch"}},"preToolUse":{"toolName":"apply_patch","parameters":{"input":"x"}}}"#,
        )?;
        assert_eq!(sdk.phase, Phase::PreTool);
        assert_eq!(sdk.tool_call.as_deref(), Some("tc_9"));
        assert_eq!(sdk.turn.as_deref(), Some("3"));
        assert_eq!(sdk.paths, ["old.txt"]);
        assert_eq!(sdk.allow().stdout.as_deref(), Some(r#"{"cancel":false}"#));
        let refused = sdk.refuse("why").and_then(|r| r.stdout).unwrap_or_default();
        assert_eq!(refused, r#"{"cancel":true,"errorMessage":"why"}"#);
        let vscode = parse(
            r#"{"hookName":"PreToolUse","taskId":"t1","workspaceRoots":["/w"],"preToolUse":{"toolName":"read_file","parameters":{"path":"/w/a"}}}"#,
        )?;
        assert!(
            !vscode.wants_checkpoint(),
            "read-only tools make no checkpoint"
        );
        let resume = parse(r#"{"hookName":"TaskResume","taskId":"t1"}"#)?;
        let options = resume.save_options(None);
        assert_eq!(options.message.as_deref(), Some("session start (resume)"));
        assert_eq!(options.kind.as_deref(), Some("session"));
        Ok(())
    }

    #[test]
    fn end_of_turn_is_auto_and_never_blocked() -> R {
        let stop = parse(
            r#"{"session_id":"s","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"secret plan"}"#,
        )?;
        assert_eq!(stop.phase, Phase::EndOfTurn);
        let options = stop.save_options(None);
        assert_eq!(options.kind.as_deref(), Some("auto"));
        assert_eq!(options.message.as_deref(), Some("end of turn"));
        assert!(!format!("{options:?}").contains("secret plan"));
        assert_eq!(stop.refuse("x"), None);
        let gemini_after = HookInput::parse(
            br#"{"hook_event_name":"AfterAgent","prompt":"p","prompt_response":"r"}"#,
            Some(Agent::Gemini),
            None,
        )?;
        assert_eq!(gemini_after.refuse("x"), None);
        Ok(())
    }

    #[test]
    fn each_agent_refuses_in_its_own_shape() -> R {
        let shapes = [
            (Agent::Gemini, r#"{"decision":"deny","reason":"r"}"#),
            (
                Agent::Codex,
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}"#,
            ),
            (
                Agent::Cursor,
                r#"{"permission":"deny","user_message":"r","agent_message":"r"}"#,
            ),
            (
                Agent::Copilot,
                r#"{"permissionDecision":"deny","permissionDecisionReason":"r"}"#,
            ),
        ];
        for (agent, shape) in shapes {
            let input = HookInput {
                agent: Some(agent),
                phase: Phase::PreTool,
                ..HookInput::default()
            };
            let reply = input.refuse("r");
            assert_eq!(
                reply,
                Some(Reply {
                    stdout: Some(shape.into()),
                    exit: 0
                }),
                "{agent}"
            );
            assert_eq!(input.allow().stdout, None, "{agent}");
        }
        Ok(())
    }

    #[test]
    fn session_start_and_odd_input() -> R {
        let start =
            parse(r#"{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}"#)?;
        let options = start.save_options(None);
        assert_eq!(options.kind.as_deref(), Some("session"));
        assert_eq!(options.message.as_deref(), Some("session start (startup)"));
        assert_eq!(parse("")?, HookInput::default());
        assert_eq!(
            HookInput::parse(b"  \n", Some(Agent::Cline), None)?,
            HookInput::of_agent(Some(Agent::Cline))
        );
        assert!(parse("[1]").is_err());
        assert!(parse("{").is_err());
        // Wrong types are ignored, not errors.
        let odd = parse(r#"{"session_id":7,"tool_input":"x","tool_name":null}"#)?;
        assert_eq!(odd, HookInput::default());
        // Oversized fields are left out, so the note stays small.
        let long = "x".repeat(MAX_FIELD_BYTES + 1);
        let big = parse(&format!(
            r#"{{"tool_name":"{long}","tool_input":{{"file_path":"{long}","path":"/w/ok"}}}}"#
        ))?;
        assert_eq!(big.tool, None);
        assert_eq!(big.paths, ["/w/ok"]);
        // A session id that cannot be one is kept in meta only.
        let bad = parse(r#"{"session_id":"a b","tool_name":"Bash"}"#)?;
        let options = bad.save_options(None);
        assert_eq!(options.session, None);
        assert_eq!(options.meta["session_id"], "a b");
        assert_eq!(options.message.as_deref(), Some("before Bash"));
        Ok(())
    }

    #[test]
    fn paths_are_made_relative_to_the_work_tree() {
        let w = Some(Path::new("/w"));
        assert_eq!(relative_to("/w/a/b.rs", None, w), "a/b.rs");
        assert_eq!(
            relative_to("a/b.rs", Some(Path::new("/w/sub")), w),
            "sub/a/b.rs"
        );
        assert_eq!(relative_to("../c.rs", Some(Path::new("/w/sub")), w), "c.rs");
        assert_eq!(relative_to("/elsewhere/x", None, w), "/elsewhere/x");
        assert_eq!(relative_to("rel", None, w), "rel");
        assert_eq!(relative_to("/w/x", None, None), "/w/x");
    }
}
