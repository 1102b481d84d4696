//! The hooks in each agent's own configuration: which file, which format, which events; and
//! merging them into what is there, or taking them out again, without touching the rest.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::{Agent, Level, Places, check_level};
use crate::error::{Error, Result};

/// The tools of Claude Code that change files: its editing tools, its shell, and PowerShell
/// on Windows (`anthropics/claude-code` `plugins/security-guidance/hooks/hooks.json` matches
/// `Edit|Write|MultiEdit|NotebookEdit` and `Bash`; `CHANGELOG.md`: "Added PowerShell tool for
/// Windows"). A plain `A|B` list is matched as exact names (hooks docs, "Matchers").
pub const CLAUDE_CODE_MATCHER: &str = "Edit|MultiEdit|Write|NotebookEdit|Bash|PowerShell";

/// Gemini CLI's tools that change files: `write_file`, `replace` (its `EDIT_TOOL_NAMES`,
/// `packages/core/src/tools/tool-names.ts`) and `run_shell_command`. Its matcher is an
/// unanchored regular expression (`packages/core/src/hooks/hookPlanner.ts`), so it is
/// anchored.
pub const GEMINI_MATCHER: &str = "^(write_file|replace|run_shell_command)$";

/// Codex's tools that change files: every shell tool is reported as `Bash`, its edit tool as
/// `apply_patch` (`openai/codex` `codex-rs/hooks/src/events/pre_tool_use.rs`; docs
/// https://developers.openai.com/codex/hooks "Support includes `Bash`, `apply_patch`").
pub const CODEX_MATCHER: &str = "^(Bash|apply_patch)$";

/// Copilot CLI's tools that change files: `bash`, `powershell`, `create`, `edit`
/// (`cli-hooks-reference.md`, "Tool names for hook matching"), and `apply_patch`, its edit tool
/// for OpenAI models (`github/copilot-cli` `changelog.md` 0.0.366: "Add apply_patch toolchain
/// for OpenAI Codex models"; the name as Copilot CLI 1.0.63 reports it to hooks, with the raw
/// patch as `toolArgs`: pbakaus/impeccable#279, which matches `edit|create|apply_patch`). The
/// other tools of that list read, search, ask or delegate. The matcher must match the whole
/// name (`changelog.md` 1.0.36: "hooks with matcher run only for tool names that fully match
/// the regex").
pub const COPILOT_MATCHER: &str = "bash|powershell|create|edit|apply_patch";

/// Written into every file git-checkpoint owns (Cline's hook scripts, OpenCode's plugin), so
/// that it never overwrites or removes a file of someone else's.
const MARKER: &str = "installed by git-checkpoint";

/// Seconds an agent waits for the hook (Gemini CLI counts milliseconds).
const TIMEOUT_SECS: u64 = 30;

/// Where and how an agent's hooks are configured.
#[derive(Debug, Clone, PartialEq)]
pub struct HookSetup {
    /// The agent.
    pub agent: Agent,
    /// The level chosen.
    pub level: Level,
    /// The file(s).
    pub target: HookTarget,
    /// The agent's events that run the hook.
    pub events: Vec<&'static str>,
    /// What the user must still do for the hooks to run.
    pub next_steps: Vec<String>,
}

/// Where an agent's hooks go.
#[derive(Debug, Clone, PartialEq)]
pub enum HookTarget {
    /// A JSON settings file: `ours` (an object with `hooks`) is merged into it.
    Settings {
        /// The file.
        path: PathBuf,
        /// git-checkpoint's part of it.
        ours: Value,
    },
    /// Files of git-checkpoint's own (Cline's hook scripts, OpenCode's plugin).
    Files(Vec<OwnFile>),
}

/// A file git-checkpoint writes whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnFile {
    /// Where.
    pub path: PathBuf,
    /// Its content.
    pub content: String,
    /// Whether it must be executable.
    pub executable: bool,
}

/// What an install or uninstall did to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// The file.
    pub path: PathBuf,
    /// What happened to it.
    pub change: Change,
    /// Where its previous content was copied, when a file of the user's changed.
    pub backup: Option<PathBuf>,
}

/// What happened to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Nothing: it already was as asked.
    Unchanged,
    /// A new file.
    Created,
    /// An existing file was changed.
    Updated,
    /// The file was removed (nothing but git-checkpoint's part was left in it).
    Removed,
    /// The file is someone else's: left alone.
    NotOurs,
}

/// One command hook in Claude Code's nested form, shared by Codex: `{"matcher", "hooks":
/// [{"type": "command", "command", "timeout"}]}`, `timeout` in seconds.
fn nested(agent: Agent, matcher: Option<&str>) -> Value {
    let mut group = Map::new();
    if let Some(m) = matcher {
        group.insert("matcher".into(), m.into());
    }
    group.insert(
        "hooks".into(),
        json!([{"type": "command", "command": agent.hook_command(), "timeout": TIMEOUT_SECS}]),
    );
    Value::Object(group)
}

/// Claude Code's hooks: `PreToolUse` on the tools that change files, `SessionStart`, and
/// `Stop` (the end of each turn), in `.claude/settings.json` (project),
/// `.claude/settings.local.json` (local) or `~/.claude/settings.json` (user,
/// `$CLAUDE_CONFIG_DIR`). Shape: `{"hooks": {"<Event>": [{"matcher", "hooks": [{"type":
/// "command", "command", "timeout"}]}]}}`, `timeout` in seconds; `Stop` and `SessionStart`
/// need no matcher. Source: https://code.claude.com/docs/en/hooks ("Structure",
/// "Hook events"), `anthropics/claude-code` `examples/hooks/bash_command_validator_example.py`.
pub fn claude_code_settings() -> Value {
    let a = Agent::ClaudeCode;
    json!({"hooks": {
        "PreToolUse": [nested(a, Some(CLAUDE_CODE_MATCHER))],
        "SessionStart": [nested(a, None)],
        "Stop": [nested(a, None)],
    }})
}

/// Gemini CLI's hooks: `BeforeTool` on the tools that change files, `SessionStart`,
/// `AfterAgent` (the end of each turn), in `.gemini/settings.json` (project) or
/// `~/.gemini/settings.json` (user). Shape: `{"hooks": {"<Event>": [{"matcher", "hooks":
/// [{"name", "type": "command", "command", "timeout"}]}]}}`, `timeout` in **milliseconds**; a
/// hook's identity is `name:command`. Source: `google-gemini/gemini-cli`
/// `docs/hooks/reference.md` ("Configuration schema"), `packages/core/src/hooks/types.ts`
/// (`HookEventName`, `CommandHookConfig`). `SessionEnd` is not hooked: Gemini "will not wait
/// for this hook to complete", and `AfterAgent` already saves the final state.
pub fn gemini_settings() -> Value {
    let group = |name: &str, matcher: Option<&str>| {
        let mut group = Map::new();
        if let Some(m) = matcher {
            group.insert("matcher".into(), m.into());
        }
        group.insert(
            "hooks".into(),
            json!([{"name": name, "type": "command", "command": Agent::Gemini.hook_command(),
                    "timeout": TIMEOUT_SECS * 1000}]),
        );
        Value::Object(group)
    };
    json!({"hooks": {
        "BeforeTool": [group("git-checkpoint-before-tool", Some(GEMINI_MATCHER))],
        "SessionStart": [group("git-checkpoint-session-start", None)],
        "AfterAgent": [group("git-checkpoint-after-agent", None)],
    }})
}

/// Codex's hooks: `PreToolUse` on `Bash` and `apply_patch`, `SessionStart`, `Stop`, in
/// `<repo>/.codex/hooks.json` (project) or `~/.codex/hooks.json` (user, `$CODEX_HOME`).
/// Shape: Claude Code's (`{"hooks": {"<Event>": [{"matcher", "hooks": [{"type": "command",
/// "command", "timeout"}]}]}}`, seconds). Source: https://developers.openai.com/codex/hooks,
/// `openai/codex` `codex-rs/hooks/src/engine/discovery.rs` (`load_hooks_json`). The handler
/// field names (`timeout`) come from parsers mirroring `codex_config`, which itself was not
/// read; `$CODEX_HOME` for hooks is unverified. Codex runs a hook only once the user trusted it
/// (`/hooks`); that trust is Codex's state and is never written here.
pub fn codex_hooks() -> Value {
    let a = Agent::Codex;
    json!({"hooks": {
        "PreToolUse": [nested(a, Some(CODEX_MATCHER))],
        "SessionStart": [nested(a, None)],
        "Stop": [nested(a, None)],
    }})
}

/// Cursor's hooks: `preToolUse`, `sessionStart`, `stop`, in
/// `<project>/.cursor/hooks.json` or `~/.cursor/hooks.json`. Shape: `{"version": 1, "hooks":
/// {"<event>": [{"command", "timeout"}]}}`: flat entries, `timeout` in seconds. Source:
/// https://cursor.com/docs/hooks ("Configuration", "Per-Script Configuration Options").
/// `beforeShellExecution` is not hooked as well: `preToolUse` already covers the `Shell` tool.
/// `preToolUse` has no matcher: Cursor documents the tool types a matcher can name (`Shell`,
/// `Read`, `Write`, `Grep`, `Delete`, `Task`, `MCP:<tool>`), but not every tool that edits
/// (hooks written for Cursor also match `StrReplace`, `Edit`), and a matcher of the documented
/// names could miss an edit; the hook leaves out the read-only ones (`Read`, `Grep`) itself.
/// No hook is marked `failClosed`, so one that fails lets the tool call through. Cursor also
/// runs the hooks of `.claude/settings.json` (https://cursor.com/docs/reference/
/// third-party-hooks), where its input is still its own (see `input.rs`, `unmistakable`).
pub fn cursor_hooks() -> Value {
    let entry = json!([{"command": Agent::Cursor.hook_command(), "timeout": TIMEOUT_SECS}]);
    json!({"version": 1, "hooks": {
        "preToolUse": entry,
        "sessionStart": entry,
        "stop": entry,
    }})
}

/// Copilot CLI's hooks: `preToolUse` on the tools that change files, `sessionStart`,
/// `agentStop`, in a file of git-checkpoint's own: `.github/hooks/git-checkpoint.json`
/// (repository) or `~/.copilot/hooks/git-checkpoint.json` (user, `$COPILOT_HOME`). Shape:
/// `{"version": 1, "hooks": {"<event>": [{"type": "command", "bash", "powershell",
/// "timeoutSec", "matcher"}]}}`. camelCase event names make Copilot send camelCase input.
/// Source: `github/docs` `content/copilot/reference/copilot-cli-reference/
/// cli-hooks-reference.md`, `content/copilot/how-tos/copilot-cli/customize-copilot/
/// use-hooks.md`; `github/copilot-cli` `changelog.md` (matchers, repository hooks only in
/// trusted folders).
///
/// Copilot CLI denies the tool call when a `preToolUse` hook errors (`changelog.md` 1.0.57:
/// "preToolUse hook errors now deny the tool call instead of silently allowing execution"):
/// were `git checkpoint` missing from the hook's `PATH`, or `git` to fail, every edit would be
/// refused. So the commands end with a success whatever happened (`|| true`; PowerShell's
/// `; exit 0`, which Windows PowerShell 5.1 understands too, unlike `||`). git-checkpoint's own
/// refusal (`checkpoint.hookFailure=block`) is Copilot's deny JSON on stdout with exit 0, which
/// this keeps. A hook that runs out of time (`timeoutSec`) still fails, and denies. The other
/// agents let a failed hook's tool call through: Claude Code and Gemini
/// CLI block only on exit 2, Codex marks other exits failed without blocking
/// (`codex-rs/hooks/src/events/pre_tool_use.rs`), and Cursor blocks on a failure only for
/// hooks marked `failClosed`, which git-checkpoint never writes.
pub fn copilot_hooks() -> Value {
    let command = Agent::Copilot.hook_command();
    let entry = |matcher: Option<&str>| {
        let mut e = Map::new();
        e.insert("type".into(), "command".into());
        if let Some(m) = matcher {
            e.insert("matcher".into(), m.into());
        }
        e.insert("bash".into(), format!("{command} || true").into());
        e.insert("powershell".into(), format!("{command}; exit 0").into());
        e.insert("timeoutSec".into(), TIMEOUT_SECS.into());
        Value::Array(vec![Value::Object(e)])
    };
    json!({"version": 1, "hooks": {
        "preToolUse": entry(Some(COPILOT_MATCHER)),
        "sessionStart": entry(None),
        "agentStop": entry(None),
    }})
}

/// Cline's hook events: an executable file per event, named after it (`cline/cline`
/// `apps/vscode/src/core/hooks/utils.ts` `VALID_HOOK_TYPES`, `resolveExistingHookPath`;
/// `.clinerules/hooks/README.md`). `PreToolUse` runs before every tool (no matcher);
/// `TaskStart`/`TaskResume` start a task, `TaskComplete`/`TaskCancel` end a run of it.
const CLINE_EVENTS: [&str; 5] = [
    "PreToolUse",
    "TaskStart",
    "TaskResume",
    "TaskComplete",
    "TaskCancel",
];

/// Cline's hook script: `sh` reads the hook's JSON from stdin and passes it on; the answer
/// Cline expects on stdout (`{"cancel": false}`) is printed by `save --from-hook=cline`.
fn cline_script() -> String {
    format!(
        "#!/bin/sh\n\
         # {MARKER}: a checkpoint before Cline's tool calls and at the start and end of a task.\n\
         # `git checkpoint hooks cline --uninstall` removes it.\n\
         exec {}\n",
        Agent::Cline.hook_command()
    )
}

/// Cline's hook script on Windows, `<Event>.ps1`, run by `powershell -File` with the JSON on
/// stdin (`apps/vscode/src/core/hooks/HookProcess.ts`). Not tried on Windows.
fn cline_powershell() -> String {
    format!(
        "# {MARKER}: a checkpoint before Cline's tool calls and at the start and end of a task.\r\n\
         # `git checkpoint hooks cline --uninstall` removes it.\r\n\
         [Console]::In.ReadToEnd() | {}\r\n\
         exit $LASTEXITCODE\r\n",
        Agent::Cline.hook_command()
    )
}

/// OpenCode's plugin: a file in `.opencode/plugins/` (project) or
/// `~/.config/opencode/plugins/` (user), loaded at startup by OpenCode 1 and 2
/// (`anomalyco/opencode` `packages/web/src/content/docs/plugins.mdx`; OpenCode 2 discovers
/// `.opencode/plugin(s)/` and the global config directory: `packages/core/src/plugin/
/// discovery.ts`). OpenCode 2 does not run OpenCode 1's plugins ("V1 plugin implementations do
/// not run in V2", https://opencode.ai/v2/docs/build/plugins/migrate-v1), so the file has one
/// default export that serves both, as that guide's "Support V1 and V2 from one package" shows:
/// - OpenCode 2 decodes the default export as `{id, setup}` (`packages/core/src/plugin/
///   module.ts`, `Definition`; other keys ignored) and calls `setup(ctx)`. `Plugin.define` is
///   the identity (`packages/plugin/src/promise/plugin.ts`), so the plain object needs no
///   import and no `npm install`. `ctx.tool.hook("execute.before", …)` runs before a tool with
///   one mutable event `{tool, sessionID, agent, messageID, id, input}`, and a throw rejects the
///   call (`packages/plugin/src/promise/tool.ts`; the guide maps `tool.execute.before` to it);
///   `ctx.event.subscribe()` is an async iterable of events `{type, data}` (the guide maps
///   `event` to it): `session.created` (`data.sessionID`, `data.location.directory`), and the
///   end of a turn as `session.status` with `data.status.type` `idle`, or the older
///   `session.idle` (`packages/schema/src/session-status-event.ts`). `setup` returns the cleanup
///   that ends the subscription.
/// - OpenCode 1 (object entrypoints since 1.18.29, per the guide) reads a default export with
///   an `id` and calls its `server(input)` (`packages/opencode/src/plugin/shared.ts`,
///   `readV1Plugin`), whose hooks are V1's: `tool.execute.before` (`input {tool, sessionID,
///   callID}`, `output {args}`: `packages/plugin/src/index.ts`) and `event` (`session.created`
///   with `properties.info.id`, `session.idle` with `properties.sessionID`).
///
/// It saves before the tools that change files (`bash` in 1, `shell` in 2, `edit`, `write`,
/// `apply_patch`, …: `packages/opencode/src/tool/registry.ts`, `packages/core/src/tool/`), at a
/// session's start and at the end of each turn. The JSON it pipes to `git checkpoint save
/// --from-hook=opencode` is git-checkpoint's own, in Claude Code's field names. It throws only
/// when git-checkpoint exits 2 (`checkpoint.hookFailure=block`). It uses `node:child_process`,
/// which both Bun (OpenCode's runtime) and Node provide.
const OPENCODE_PLUGIN: &str = r#"// __MARKER__: a checkpoint before OpenCode's tools change files, when a
// session starts and when it goes idle (the end of a turn).
// `git checkpoint hooks opencode --uninstall` removes this file.
//
// One default export for both plugin APIs: OpenCode 2 calls `setup(ctx)`, OpenCode 1 calls
// `server(input)` (https://opencode.ai/v2/docs/build/plugins/migrate-v1).
import { spawn } from "node:child_process"

const CHANGING = new Set(["bash", "shell", "edit", "write", "multiedit", "patch", "apply_patch"])

function checkpoint(cwd, payload) {
  return new Promise((resolve) => {
    let stderr = ""
    let child
    try {
      child = spawn("git", ["checkpoint", "save", "--from-hook=opencode"], {
        cwd,
        stdio: ["pipe", "ignore", "pipe"],
      })
    } catch (err) {
      resolve({ code: null, stderr: String(err) })
      return
    }
    child.on("error", (err) => resolve({ code: null, stderr: String(err) }))
    child.stderr.on("data", (chunk) => {
      stderr += chunk
    })
    child.on("close", (code) => resolve({ code, stderr }))
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

async function beforeTool(cwd, tool, session, call, args) {
  if (!CHANGING.has(tool)) return
  const { code, stderr } = await checkpoint(cwd, {
    hook_event_name: "tool.execute.before",
    session_id: session,
    tool_name: tool,
    tool_use_id: call,
    tool_input: args,
    cwd,
  })
  // Exit 2: checkpoint.hookFailure=block refuses the tool call.
  if (code === 2) throw new Error(stderr.trim() || "git checkpoint refused the tool call")
}

function sessionEvent(cwd, type, session) {
  return checkpoint(cwd, { hook_event_name: type, session_id: session, cwd })
}

export default {
  id: "git-checkpoint",

  // OpenCode 2.
  async setup(ctx) {
    const fallback = ctx.location?.directory ?? process.cwd()
    const directories = new Map()
    const idle = new Set()
    const dir = (session) => directories.get(session) ?? fallback
    await ctx.tool.hook("execute.before", async (event) => {
      idle.delete(event.sessionID)
      await beforeTool(dir(event.sessionID), event.tool, event.sessionID, event.id, event.input)
    })
    const stop = new AbortController()
    const events = ctx.event.subscribe({ signal: stop.signal })
    ;(async () => {
      for await (const event of events) {
        if (stop.signal.aborted) break
        const data = event?.data ?? {}
        if (event?.type === "session.created") {
          const session = data.sessionID ?? data.info?.id
          if (session === undefined) continue
          const where = data.location?.directory ?? data.info?.directory
          if (typeof where === "string") directories.set(session, where)
          await sessionEvent(dir(session), "session.created", session)
        } else if (event?.type === "session.idle" || (event?.type === "session.status" && data.status?.type === "idle")) {
          const session = data.sessionID
          // Both events may report the same end of a turn.
          if (session === undefined || idle.has(session)) continue
          idle.add(session)
          await sessionEvent(dir(session), "session.idle", session)
        }
      }
    })().catch(() => {})
    return () => stop.abort()
  },

  // OpenCode 1.
  async server({ directory }) {
    return {
      "tool.execute.before": (input, output) =>
        beforeTool(directory, input.tool, input.sessionID, input.callID, output?.args),
      event: async ({ event }) => {
        const session =
          event.type === "session.created" ? event.properties?.info?.id
          : event.type === "session.idle" ? event.properties?.sessionID
          : undefined
        if (session === undefined) return
        await sessionEvent(directory, event.type, session)
      },
    }
  },
}
"#;

/// The hooks of `agent` at `level` (the project's when `None`).
pub fn hook_setup(agent: Agent, level: Option<Level>, places: &Places) -> Result<HookSetup> {
    let level = level.unwrap_or(Level::Project);
    check_level(agent, level, agent.hook_levels(), "hooks")?;
    let project = || places.project();
    let home = || places.home();
    let settings = |path: PathBuf, ours: Value| HookTarget::Settings { path, ours };
    let mut steps = Vec::new();
    let (target, events) = match agent {
        Agent::ClaudeCode => {
            let path = match level {
                Level::User => match places.var("CLAUDE_CONFIG_DIR") {
                    Some(dir) => dir,
                    None => home()?.join(".claude"),
                }
                .join("settings.json"),
                Level::Local => project()?.join(".claude/settings.local.json"),
                Level::Project => project()?.join(".claude/settings.json"),
            };
            steps.push(
                "Claude Code reads its hooks when a session starts: start a new session, and check them with /hooks".into(),
            );
            (
                settings(path, claude_code_settings()),
                vec!["PreToolUse", "SessionStart", "Stop"],
            )
        }
        Agent::Gemini => {
            let path = match level {
                Level::User => home()?.join(".gemini/settings.json"),
                _ => project()?.join(".gemini/settings.json"),
            };
            if level == Level::Project {
                steps.push("Gemini CLI runs a project's hooks only in a trusted folder, and warns once when it first sees them".into());
            }
            steps.push("restart Gemini CLI; /hooks lists the hooks".into());
            (
                settings(path, gemini_settings()),
                vec!["BeforeTool", "SessionStart", "AfterAgent"],
            )
        }
        Agent::Codex => {
            let path = match level {
                Level::User => match places.var("CODEX_HOME") {
                    Some(dir) => dir,
                    None => home()?.join(".codex"),
                }
                .join("hooks.json"),
                _ => project()?.join(".codex/hooks.json"),
            };
            steps.push("Codex runs a hook only after you trust it: start codex, open /hooks and trust the three git-checkpoint hooks (git-checkpoint does not write Codex's trust state)".into());
            if level == Level::Project {
                steps.push(
                    "Codex loads a project's .codex/ hooks only when the project is trusted".into(),
                );
            }
            (
                settings(path, codex_hooks()),
                vec!["PreToolUse", "SessionStart", "Stop"],
            )
        }
        Agent::Cursor => {
            let path = match level {
                Level::User => home()?.join(".cursor/hooks.json"),
                _ => project()?.join(".cursor/hooks.json"),
            };
            steps.push("Cursor reloads hooks.json when it changes; project hooks run in trusted workspaces".into());
            (
                settings(path, cursor_hooks()),
                vec!["preToolUse", "sessionStart", "stop"],
            )
        }
        Agent::Copilot => {
            let path = match level {
                Level::User => match places.var("COPILOT_HOME") {
                    Some(dir) => dir,
                    None => home()?.join(".copilot"),
                }
                .join("hooks/git-checkpoint.json"),
                _ => project()?.join(".github/hooks/git-checkpoint.json"),
            };
            if level == Level::Project {
                steps.push("Copilot CLI loads a repository's hooks only once you trust the folder (with -p, only if it is trusted or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS is set)".into());
            }
            (
                settings(path, copilot_hooks()),
                vec!["preToolUse", "sessionStart", "agentStop"],
            )
        }
        Agent::Cline => {
            let dir = match level {
                Level::User => home()?.join("Documents/Cline/Hooks"),
                _ => project()?.join(".clinerules/hooks"),
            };
            let files = CLINE_EVENTS
                .iter()
                .map(|event| {
                    if places.windows {
                        OwnFile {
                            path: dir.join(format!("{event}.ps1")),
                            content: cline_powershell(),
                            executable: false,
                        }
                    } else {
                        OwnFile {
                            path: dir.join(event),
                            content: cline_script(),
                            executable: true,
                        }
                    }
                })
                .collect();
            steps.push("Cline runs hooks while \"Hooks\" is enabled in its settings (the default); PreToolUse runs before every tool, and git-checkpoint skips the read-only ones".into());
            (HookTarget::Files(files), CLINE_EVENTS.to_vec())
        }
        Agent::OpenCode => {
            let dir = match level {
                Level::User => places.config_home()?.join("opencode/plugins"),
                _ => project()?.join(".opencode/plugins"),
            };
            let file = OwnFile {
                path: dir.join("git-checkpoint.js"),
                content: OPENCODE_PLUGIN.replace("__MARKER__", MARKER),
                executable: false,
            };
            steps.push("OpenCode loads plugins when it starts: restart it".into());
            (
                HookTarget::Files(vec![file]),
                vec!["tool.execute.before", "session.created", "session.idle"],
            )
        }
    };
    Ok(HookSetup {
        agent,
        level,
        target,
        events,
        next_steps: steps,
    })
}

/// The configuration as text, to print: the JSON to merge, or each file with its path.
pub fn render_hooks(setup: &HookSetup) -> String {
    match &setup.target {
        HookTarget::Settings { ours, .. } => {
            let mut text = serde_json::to_string_pretty(ours).unwrap_or_default();
            text.push('\n');
            text
        }
        HookTarget::Files(files) => files
            .iter()
            .map(|f| format!("==> {} <==\n{}", f.path.display(), f.content))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Install the hooks: merged into the settings file (created if missing; the old one copied
/// to `<file>.bak` when it held something of the user's), or the files written. Idempotent. A
/// file of the same name that is not git-checkpoint's, or a settings file that is not a JSON
/// object, is refused and left alone.
pub fn install_hooks(setup: &HookSetup) -> Result<Vec<Installed>> {
    match &setup.target {
        HookTarget::Settings { path, ours } => Ok(vec![edit_json(
            path,
            |settings| merge_hooks(settings, ours).map_err(|e| invalid_settings(path, &e)),
            &strip_ours(ours),
        )?]),
        HookTarget::Files(files) => install_files(setup.agent, files),
    }
}

/// Remove git-checkpoint's hooks, keeping everything else. A settings file that held nothing
/// but what the install put in a new file is removed (with no `.bak`: nothing of the user's was
/// in it); one that existed before the install is kept, and so are git-checkpoint's own files.
pub fn uninstall_hooks(setup: &HookSetup) -> Result<Vec<Installed>> {
    match &setup.target {
        HookTarget::Settings { path, ours } => Ok(vec![remove_from_json(
            path,
            |settings, prune| Ok(strip_hooks(settings, prune)),
            &strip_ours(ours),
        )?]),
        HookTarget::Files(files) => files.iter().map(|f| remove_own(&f.path)).collect(),
    }
}

/// Whether a hook entry runs git-checkpoint's hook command, however it is spelled (`git
/// checkpoint` or `git-checkpoint`, with or without `=<agent>`, with other flags after it): a
/// command hook (`command`), or Copilot's (`bash`, `powershell`).
fn is_ours(hook: &Value) -> bool {
    ["command", "bash", "powershell"].iter().any(|key| {
        hook.get(key).and_then(Value::as_str).is_some_and(|c| {
            let c = c.trim_start();
            (c.starts_with("git checkpoint save") || c.starts_with("git-checkpoint save"))
                && c.contains("--from-hook")
        })
    })
}

/// Whether an event's entry is ours, or a matcher group holding one of ours.
fn holds_ours(entry: &Value) -> bool {
    is_ours(entry)
        || entry
            .get("hooks")
            .and_then(Value::as_array)
            .is_some_and(|hs| hs.iter().any(is_ours))
}

/// Merge `ours` (a settings object with `hooks`, and top-level keys such as `version`) into
/// `settings`: for each of our events, when the entries running our command there are not
/// exactly ours (an older install's matcher, command or timeout; none at all), they are taken
/// out (from a matcher group shared with the user's hooks, only our hook) and ours added at
/// the end; a top-level key is added only when missing. Everything else in `settings` is kept
/// as it is, and a second merge changes nothing. Returns whether anything changed.
pub fn merge_hooks(settings: &mut Value, ours: &Value) -> std::result::Result<bool, String> {
    let Value::Object(settings) = settings else {
        return Err("the settings file does not hold a JSON object".into());
    };
    let Value::Object(ours) = ours else {
        return Ok(false);
    };
    let mut changed = false;
    for (key, value) in ours {
        if key != "hooks" && !settings.contains_key(key) {
            settings.insert(key.clone(), value.clone());
            changed = true;
        }
    }
    let Some(Value::Object(our_hooks)) = ours.get("hooks") else {
        return Ok(changed);
    };
    if !settings.contains_key("hooks") {
        settings.insert("hooks".into(), Value::Object(Map::new()));
    }
    let Some(Value::Object(hooks)) = settings.get_mut("hooks") else {
        return Err("`hooks` in the settings file is not a JSON object".into());
    };
    for (event, entries) in our_hooks {
        let existing = hooks
            .entry(event.clone())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(existing) = existing else {
            return Err(format!(
                "`hooks.{event}` in the settings file is not a JSON array"
            ));
        };
        let Value::Array(entries) = entries else {
            continue;
        };
        let held: Vec<&Value> = existing.iter().filter(|e| holds_ours(e)).collect();
        if held.iter().copied().eq(entries.iter()) {
            continue;
        }
        remove_ours(existing);
        existing.extend(entries.iter().cloned());
        changed = true;
    }
    Ok(changed)
}

/// Remove every hook running git-checkpoint's hook command from `settings`, and the matcher
/// groups, event lists and `hooks` object that this leaves empty (not those that were empty
/// before). Returns whether anything was removed.
pub fn remove_hooks(settings: &mut Value) -> bool {
    strip_hooks(settings, true)
}

/// Remove git-checkpoint's hooks and the matcher groups and event lists this leaves empty;
/// the `hooks` object left empty too when `prune`.
fn strip_hooks(settings: &mut Value, prune: bool) -> bool {
    let Some(Value::Object(hooks)) = settings.get_mut("hooks") else {
        return false;
    };
    let mut emptied_events = Vec::new();
    let mut changed = false;
    for (event, entries) in hooks.iter_mut() {
        let Value::Array(entries) = entries else {
            continue;
        };
        let before = entries.len();
        changed |= remove_ours(entries);
        if entries.len() != before {
            changed = true;
            if entries.is_empty() {
                emptied_events.push(event.clone());
            }
        }
    }
    for event in emptied_events {
        hooks.remove(&event);
    }
    if prune
        && changed
        && hooks.is_empty()
        && let Value::Object(settings) = settings
    {
        settings.remove("hooks");
    }
    changed
}

/// Remove from one event's list of matcher groups the groups that run git-checkpoint's hook
/// command, and that command from the groups the user shares with it (a group left empty
/// goes). Returns whether a hook inside a group was removed.
fn remove_ours(groups: &mut Vec<Value>) -> bool {
    let mut changed = false;
    groups.retain_mut(|group| {
        if is_ours(group) {
            return false;
        }
        let Some(Value::Array(hooks)) = group.get_mut("hooks") else {
            return true;
        };
        let n = hooks.len();
        hooks.retain(|h| !is_ours(h));
        if hooks.len() != n {
            changed = true;
            return !hooks.is_empty();
        }
        true
    });
    changed
}

/// Remove the MCP server entry named `name` from the server map at `key` (`mcpServers`, or
/// OpenCode's `mcp`), and the map when that leaves it empty and `prune`.
pub(super) fn remove_server(settings: &mut Value, key: &str, name: &str, prune: bool) -> bool {
    let Some(Value::Object(servers)) = settings.get_mut(key) else {
        return false;
    };
    if servers.remove(name).is_none() {
        return false;
    }
    if prune
        && servers.is_empty()
        && let Value::Object(map) = settings
    {
        map.remove(key);
    }
    true
}

/// `settings` without anything of git-checkpoint's: its hooks, for every agent, and its MCP
/// server entry, with the containers that leaves empty. What remains is the user's, and what
/// git-checkpoint adds to a file it creates (`version`, `$schema`).
pub(super) fn strip_ours(settings: &Value) -> Value {
    let mut rest = settings.clone();
    strip_hooks(&mut rest, true);
    for key in ["mcpServers", "mcp"] {
        remove_server(&mut rest, key, super::SERVER_NAME, true);
    }
    rest
}

pub(super) fn invalid_settings(path: &Path, why: &str) -> Error {
    Error::InvalidInput(format!(
        "{why}: `{}`; fix it or edit it by hand, it was left as it is",
        path.display()
    ))
}

fn io(context: String) -> impl FnOnce(std::io::Error) -> Error {
    move |source| Error::Io { context, source }
}

/// Read the file at `path`; `None` when there is none.
pub(super) fn read_optional(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(format!("cannot read `{}`", path.display()))(e)),
    }
}

/// The JSON object in `bytes`, read from `path` (an empty object for an empty file).
///
/// A file that is JSON once its comments are taken out is refused with a message of its own.
/// Gemini CLI reads its settings through `strip-json-comments` (`google-gemini/gemini-cli`
/// `packages/cli/src/config/settings.ts`), so users write comments there; git-checkpoint
/// would have to drop them to write the file, and a user's comments are theirs to keep.
fn parse_settings(path: &Path, bytes: &[u8]) -> Result<Value> {
    let settings = if bytes.iter().all(u8::is_ascii_whitespace) {
        Value::Object(Map::new())
    } else {
        let kept = std::str::from_utf8(bytes).ok().and_then(keep_numbers);
        let bytes = kept.as_ref().map_or(bytes, |text| text.as_bytes());
        serde_json::from_slice(bytes).map_err(|e| {
            let commented = std::str::from_utf8(bytes)
                .ok()
                .and_then(without_comments)
                .is_some_and(|text| serde_json::from_str::<Value>(&text).is_ok());
            if commented {
                Error::InvalidInput(format!(
                    "`{}` has comments, which git-checkpoint cannot keep when it writes the file, so it was left as it is: add git-checkpoint's part by hand (`git checkpoint hooks <AGENT>` and `git checkpoint mcp --print <AGENT>` print it), or take the comments out and run this again",
                    path.display()
                ))
            } else {
                invalid_settings(path, &format!("not valid JSON ({e})"))
            }
        })?
    };
    if !settings.is_object() {
        return Err(invalid_settings(path, "not a JSON object"));
    }
    Ok(settings)
}

/// `text` without its `//` and `/* */` comments (outside strings), when it has any.
fn without_comments(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut found = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push(c);
                while let Some(c) = chars.next() {
                    out.push(c);
                    match c {
                        '\\' => out.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                found = true;
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push(c);
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                found = true;
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    found.then_some(out)
}

/// Whether a settings file's content holds something of the user's: anything beyond
/// git-checkpoint's entries and `fresh`, what git-checkpoint puts in a file it creates (once
/// its own entries are taken out: `{}`, `{"version": 1}`, OpenCode's `$schema`).
fn holds_users(settings: &Value, fresh: &Value) -> bool {
    strip_ours(settings) != *fresh
}

/// `<path>.bak`.
fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".bak");
    PathBuf::from(name)
}

/// What a number serde_json would write differently from how it was read (an integer beyond
/// 64 bits, `1.10`, `1e3`, `-0`) is read as a string of this form, which [`serialized`] writes
/// back as the number it was: the rest of the user's file is kept as it is.
const NUMBER_MARK: &str = "\u{f8ff}number:";

/// `text` with every number serde_json would not write back the same way turned into a
/// [`NUMBER_MARK`] string; `None` when there is none (or the text holds the mark's character
/// itself, which then cannot be told apart: numbers are read as serde_json reads them).
fn keep_numbers(text: &str) -> Option<String> {
    if text.contains('\u{f8ff}') || text.to_ascii_lowercase().contains("\\uf8ff") {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut chars = text.char_indices().peekable();
    let mut in_string = false;
    while let Some((at, c)) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        out.push(escaped);
                    }
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '-' || c.is_ascii_digit() {
            let mut end = at + c.len_utf8();
            while let Some(&(i, n)) = chars.peek() {
                if !(n.is_ascii_digit() || matches!(n, '.' | 'e' | 'E' | '+' | '-')) {
                    break;
                }
                end = i + n.len_utf8();
                chars.next();
            }
            let token = &text[at..end];
            let written = serde_json::from_str::<Value>(token).map(|v| v.to_string());
            let same = written.is_ok_and(|written| written == token);
            if same {
                out.push_str(token);
            } else {
                out.push('"');
                out.push_str(NUMBER_MARK);
                out.push_str(token);
                out.push('"');
                changed = true;
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
    }
    changed.then_some(out)
}

/// `settings` as the file's new content: pretty-printed with the indentation `old` (the file's
/// content before) used, two spaces by default, and every number [`keep_numbers`] kept as it was
/// written.
fn serialized(settings: &Value, old: Option<&[u8]>) -> Vec<u8> {
    let indent = old.and_then(indentation).unwrap_or(b"  ");
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    if serde::Serialize::serialize(settings, &mut serializer).is_err() {
        out.clear();
    }
    let mut text = String::from_utf8(out).unwrap_or_default();
    let quoted_mark = format!("\"{NUMBER_MARK}");
    while let Some(start) = text.find(&quoted_mark) {
        let from = start + quoted_mark.len();
        let Some(len) = text[from..].find('"') else {
            break;
        };
        let number = text[from..from + len].to_string();
        text.replace_range(start..from + len + 1, &number);
    }
    text.push('\n');
    text.into_bytes()
}

/// The indentation of the first indented line of a JSON file: its unit of indentation.
fn indentation(old: &[u8]) -> Option<&[u8]> {
    let line = old.split(|b| *b == b'\n').nth(1)?;
    let len = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    (len > 0 && len <= 8).then(|| &line[..len])
}

fn unchanged(path: &Path) -> Installed {
    Installed {
        path: path.to_owned(),
        change: Change::Unchanged,
        backup: None,
    }
}

/// Read the JSON object at `path` (an empty object when the file does not exist), apply
/// `edit`, and when it changed something write the result; the old file is copied to
/// `<path>.bak` first when it held something of the user's (see [`holds_users`]).
pub(super) fn edit_json(
    path: &Path,
    edit: impl FnOnce(&mut Value) -> Result<bool>,
    fresh: &Value,
) -> Result<Installed> {
    let old = read_optional(path)?;
    let mut settings = match &old {
        Some(bytes) => parse_settings(path, bytes)?,
        None => Value::Object(Map::new()),
    };
    let users = old.is_some() && holds_users(&settings, fresh);
    if !edit(&mut settings)? {
        return Ok(unchanged(path));
    }
    replace_file(
        path,
        old.as_deref(),
        Some(&serialized(&settings, old.as_deref())),
        users,
    )
}

/// Take git-checkpoint's part out of the JSON object at `path` with `remove` (given whether
/// to prune the containers that leaves empty), keeping the rest. A file left with nothing but
/// `fresh` (what git-checkpoint puts in a file it creates) was git-checkpoint's and is
/// removed, with no `.bak`: unless `<path>.bak` is the user's file from before the install
/// (see [`backup_holds_users`]); then the file is kept, with the `hooks` or server map emptied
/// (`{"version": 1, "hooks": {}}`, `{"mcpServers": {}}`), as the user had it.
pub(super) fn remove_from_json(
    path: &Path,
    remove: impl Fn(&mut Value, bool) -> Result<bool>,
    fresh: &Value,
) -> Result<Installed> {
    let Some(old) = read_optional(path)? else {
        return Ok(unchanged(path));
    };
    let settings = parse_settings(path, &old)?;
    let mut pruned = settings.clone();
    if !remove(&mut pruned, true)? {
        return Ok(unchanged(path));
    }
    let users = holds_users(&settings, fresh);
    if pruned != *fresh {
        return replace_file(
            path,
            Some(&old),
            Some(&serialized(&pruned, Some(&old))),
            users,
        );
    }
    if !backup_holds_users(path, fresh) {
        return replace_file(path, Some(&old), None, false);
    }
    let mut kept = settings;
    remove(&mut kept, false)?;
    replace_file(
        path,
        Some(&old),
        Some(&serialized(&kept, Some(&old))),
        users,
    )
}

/// Whether `<path>.bak` is the user's file from before git-checkpoint's first install into
/// it: something of the user's and nothing of git-checkpoint's (a later `.bak` holds both).
fn backup_holds_users(path: &Path, fresh: &Value) -> bool {
    let backup = backup_path(path);
    let Ok(bytes) = std::fs::read(&backup) else {
        return false;
    };
    // git-checkpoint never writes a file it cannot read back: such a file is the user's.
    parse_settings(&backup, &bytes).map_or(true, |v| strip_ours(&v) == v && holds_users(&v, fresh))
}

/// Write `new` atomically in place of `path` (or remove `path` when `new` is `None`), first
/// copying the old content to `<path>.bak` when `backup`.
pub(super) fn replace_file(
    path: &Path,
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    backup: bool,
) -> Result<Installed> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let backup = match old.filter(|_| backup) {
        Some(bytes) => {
            let backup = backup_path(path);
            std::fs::write(&backup, bytes)
                .map_err(io(format!("cannot write `{}`", backup.display())))?;
            Some(backup)
        }
        None => None,
    };
    let Some(new) = new else {
        std::fs::remove_file(path).map_err(io(format!("cannot remove `{}`", path.display())))?;
        remove_empty_config_dirs(dir);
        return Ok(Installed {
            path: path.to_owned(),
            change: Change::Removed,
            backup,
        });
    };
    std::fs::create_dir_all(dir).map_err(io(format!("cannot create `{}`", dir.display())))?;
    // A settings file that is a symlink (into a dotfiles repository, say) stays one: the file
    // it points to is replaced, keeping its permissions.
    let target = match std::fs::canonicalize(path) {
        Ok(target) if old.is_some() => target,
        _ => path.to_owned(),
    };
    write_atomically(&target, new, None)?;
    Ok(Installed {
        path: path.to_owned(),
        change: if old.is_some() {
            Change::Updated
        } else {
            Change::Created
        },
        backup,
    })
}

/// After the last file of an agent's configuration directory was removed: remove that
/// directory and those above it while they are empty and are agents' configuration
/// directories (`.claude/`, `.github/hooks/` and `.github/`, `.opencode/plugin/`,
/// `~/.cline/data/settings/`, …: a directory whose name, its parent's or its grandparent's
/// starts with a dot), so that an uninstall leaves no empty directory behind (which a
/// project's status would show). Never fails: a directory that cannot be removed stays.
fn remove_empty_config_dirs(dir: &Path) {
    let dotted = |d: &Path| {
        d.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
    };
    let mut dir = dir.to_path_buf();
    loop {
        let config = dir.ancestors().take(3).any(dotted);
        let empty = std::fs::read_dir(&dir).is_ok_and(|mut entries| entries.next().is_none());
        if !config || !empty || std::fs::remove_dir(&dir).is_err() {
            return;
        }
        match dir.parent() {
            Some(parent) => dir = parent.to_path_buf(),
            None => return,
        }
    }
}

/// Write `bytes` to a temporary file beside `target` and rename it over `target`, keeping
/// `target`'s permissions (or giving `mode`).
fn write_atomically(target: &Path, bytes: &[u8], mode: Option<u32>) -> Result<()> {
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(io(format!("cannot write `{}`", tmp.display())))?;
    let permissions = std::fs::metadata(target)
        .map(|md| md.permissions())
        .or_else(|e| match e.kind() {
            std::io::ErrorKind::NotFound => std::fs::metadata(&tmp).map(|md| md.permissions()),
            _ => Err(e),
        });
    let replaced = permissions
        .map(|mut p| {
            set_mode(&mut p, mode);
            p
        })
        .and_then(|p| std::fs::set_permissions(&tmp, p))
        .and_then(|()| std::fs::rename(&tmp, target));
    if let Err(e) = replaced {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(format!("cannot replace `{}`", target.display()))(e));
    }
    Ok(())
}

#[cfg(unix)]
fn set_mode(p: &mut std::fs::Permissions, mode: Option<u32>) {
    use std::os::unix::fs::PermissionsExt;
    if let Some(mode) = mode {
        p.set_mode(mode);
    }
}

#[cfg(not(unix))]
fn set_mode(_: &mut std::fs::Permissions, _: Option<u32>) {}

/// Write git-checkpoint's own files; refuse (before writing any) when a file of that name is
/// someone else's.
fn install_files(agent: Agent, files: &[OwnFile]) -> Result<Vec<Installed>> {
    let mut olds = Vec::new();
    for f in files {
        let old = read_optional(&f.path)?;
        if let Some(bytes) = &old
            && !String::from_utf8_lossy(bytes).contains(MARKER)
        {
            return Err(Error::InvalidInput(format!(
                "`{}` exists and is not git-checkpoint's; it was left as it is: move it away, or add `{}` to it yourself (its stdout is the hook's answer)",
                f.path.display(),
                agent.hook_command()
            )));
        }
        olds.push(old);
    }
    let mut done = Vec::new();
    for (f, old) in files.iter().zip(olds) {
        let mode = f.executable.then_some(0o755);
        let change = match old {
            Some(bytes)
                if bytes == f.content.as_bytes() && is_executable(&f.path) == f.executable =>
            {
                Change::Unchanged
            }
            Some(_) => Change::Updated,
            None => Change::Created,
        };
        if change != Change::Unchanged {
            if let Some(dir) = f.path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(io(format!("cannot create `{}`", dir.display())))?;
            }
            write_atomically(&f.path, f.content.as_bytes(), mode.or(Some(0o644)))?;
        }
        done.push(Installed {
            path: f.path.clone(),
            change,
            backup: None,
        });
    }
    Ok(done)
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|md| md.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    false
}

/// Remove a file of git-checkpoint's own; leave one that is someone else's.
pub(super) fn remove_own(path: &Path) -> Result<Installed> {
    let change = match read_optional(path)? {
        None => Change::Unchanged,
        Some(bytes) if !String::from_utf8_lossy(&bytes).contains(MARKER) => Change::NotOurs,
        Some(_) => {
            std::fs::remove_file(path)
                .map_err(io(format!("cannot remove `{}`", path.display())))?;
            if let Some(dir) = path.parent() {
                remove_empty_config_dirs(dir);
            }
            Change::Removed
        }
    };
    Ok(Installed {
        path: path.to_owned(),
        change,
        backup: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    type R = std::result::Result<(), String>;

    #[test]
    fn merging_is_idempotent_and_keeps_the_rest() -> R {
        let original = json!({
            "model": "x",
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo mine"}]}],
                "Notification": []}
        });
        let mut settings = original.clone();
        let ours = claude_code_settings();
        assert!(merge_hooks(&mut settings, &ours)?);
        let once = settings.clone();
        assert!(
            !merge_hooks(&mut settings, &ours)?,
            "a second merge adds nothing"
        );
        assert_eq!(settings, once);
        let pre = settings["hooks"]["PreToolUse"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(pre.len(), 2);
        assert_eq!(pre[1]["matcher"], CLAUDE_CODE_MATCHER);
        assert!(remove_hooks(&mut settings));
        assert_eq!(
            settings, original,
            "exactly the rest, an empty list included"
        );
        assert!(!remove_hooks(&mut settings));
        assert!(merge_hooks(&mut json!([1]), &ours).is_err());
        assert!(merge_hooks(&mut json!({"hooks": []}), &ours).is_err());
        assert!(merge_hooks(&mut json!({"hooks": {"PreToolUse": {}}}), &ours).is_err());
        Ok(())
    }

    #[test]
    fn an_older_install_is_brought_up_to_date() -> R {
        let old = |matcher: &str, command: &str| json!({"matcher": matcher, "hooks": [{"type": "command", "command": command}]});
        let mine =
            json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]});
        let mut settings = json!({"hooks": {
            "PreToolUse": [mine.clone(), old("Edit|Write|Bash", "git checkpoint save --from-hook")],
            "SessionStart": [{"hooks": [
                {"type": "command", "command": "./greet.sh"},
                {"type": "command", "command": "git-checkpoint save --from-hook"}]}],
        }});
        let ours = claude_code_settings();
        assert!(merge_hooks(&mut settings, &ours)?);
        let once = settings.clone();
        assert!(!merge_hooks(&mut settings, &ours)?, "idempotent");
        assert_eq!(settings, once);
        assert_eq!(
            settings["hooks"]["PreToolUse"],
            json!([mine, ours["hooks"]["PreToolUse"][0]])
        );
        assert_eq!(
            settings["hooks"]["SessionStart"],
            json!([{"hooks": [{"type": "command", "command": "./greet.sh"}]},
                   ours["hooks"]["SessionStart"][0]])
        );
        assert_eq!(settings["hooks"]["Stop"], ours["hooks"]["Stop"]);
        Ok(())
    }

    #[test]
    fn flat_entries_and_top_level_keys() -> R {
        // Cursor: flat entries, and `version` added only when missing.
        let mut settings =
            json!({"version": 1, "hooks": {"afterFileEdit": [{"command": "./fmt.sh"}]}});
        assert!(merge_hooks(&mut settings, &cursor_hooks())?);
        assert_eq!(
            settings["hooks"]["preToolUse"][0]["command"],
            "git checkpoint save --from-hook=cursor"
        );
        assert!(!merge_hooks(&mut settings, &cursor_hooks())?);
        assert!(remove_hooks(&mut settings));
        assert_eq!(
            settings,
            json!({"version": 1, "hooks": {"afterFileEdit": [{"command": "./fmt.sh"}]}})
        );
        // Copilot: `bash`/`powershell` commands are recognised as ours.
        let mut empty = json!({});
        assert!(merge_hooks(&mut empty, &copilot_hooks())?);
        assert!(remove_hooks(&mut empty));
        assert_eq!(empty, json!({"version": 1}));
        Ok(())
    }

    #[test]
    fn comments_are_found_outside_strings_only() {
        assert_eq!(
            without_comments("{\"a\": \"http://x\", // c\n \"b\": 1 /* d */}").as_deref(),
            Some("{\"a\": \"http://x\", \n \"b\": 1  }")
        );
        assert_eq!(without_comments("{\"a\": \"// \\\" /*\"}"), None);
        assert_eq!(
            without_comments("{} /* unterminated").as_deref(),
            Some("{}  ")
        );
    }

    #[test]
    fn every_agent_has_a_setup_at_its_levels() -> R {
        let places = Places {
            workdir: Some("/w".into()),
            home: Some("/h".into()),
            ..Places::default()
        };
        let path_of = |agent, level| -> std::result::Result<String, String> {
            let setup = hook_setup(agent, Some(level), &places).map_err(|e| e.to_string())?;
            Ok(match setup.target {
                HookTarget::Settings { path, .. } => path.display().to_string(),
                HookTarget::Files(files) => files
                    .first()
                    .map(|f| f.path.display().to_string())
                    .unwrap_or_default(),
            })
        };
        let expected = [
            (
                Agent::ClaudeCode,
                Level::Project,
                "/w/.claude/settings.json",
            ),
            (
                Agent::ClaudeCode,
                Level::Local,
                "/w/.claude/settings.local.json",
            ),
            (Agent::ClaudeCode, Level::User, "/h/.claude/settings.json"),
            (Agent::Gemini, Level::Project, "/w/.gemini/settings.json"),
            (Agent::Gemini, Level::User, "/h/.gemini/settings.json"),
            (Agent::Codex, Level::Project, "/w/.codex/hooks.json"),
            (Agent::Codex, Level::User, "/h/.codex/hooks.json"),
            (Agent::Cursor, Level::Project, "/w/.cursor/hooks.json"),
            (Agent::Cursor, Level::User, "/h/.cursor/hooks.json"),
            (
                Agent::Copilot,
                Level::Project,
                "/w/.github/hooks/git-checkpoint.json",
            ),
            (
                Agent::Copilot,
                Level::User,
                "/h/.copilot/hooks/git-checkpoint.json",
            ),
            (
                Agent::Cline,
                Level::Project,
                "/w/.clinerules/hooks/PreToolUse",
            ),
            (
                Agent::Cline,
                Level::User,
                "/h/Documents/Cline/Hooks/PreToolUse",
            ),
            (
                Agent::OpenCode,
                Level::Project,
                "/w/.opencode/plugins/git-checkpoint.js",
            ),
            (
                Agent::OpenCode,
                Level::User,
                "/h/.config/opencode/plugins/git-checkpoint.js",
            ),
        ];
        for (agent, level, path) in expected {
            assert_eq!(path_of(agent, level)?, path, "{agent} {level:?}");
        }
        for agent in Agent::ALL {
            if agent != Agent::ClaudeCode {
                assert!(path_of(agent, Level::Local).is_err(), "{agent}");
            }
            let setup = hook_setup(agent, None, &places).map_err(|e| e.to_string())?;
            assert_eq!(setup.level, Level::Project);
            assert_eq!(
                setup.events.len(),
                if agent == Agent::Cline { 5 } else { 3 }
            );
            assert!(render_hooks(&setup).contains(&agent.name().to_string()));
        }
        Ok(())
    }
}
