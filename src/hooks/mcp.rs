//! Registering git-checkpoint's MCP server (`git checkpoint mcp`) in an agent's MCP
//! configuration, under the name `git-checkpoint`, merged into what is there.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::install::{
    Installed, edit_json, invalid_settings, read_optional, remove_from_json, remove_server,
    replace_file,
};
use super::{Agent, Level, Places, SERVER_NAME, check_level};
use crate::error::{Error, Result};

/// Where and how an agent lists its MCP servers.
#[derive(Debug, Clone, PartialEq)]
pub struct McpSetup {
    /// The agent.
    pub agent: Agent,
    /// The level chosen.
    pub level: Level,
    /// The file.
    pub path: PathBuf,
    /// Its format.
    pub target: McpTarget,
    /// What the user must still do for the server to run.
    pub next_steps: Vec<String>,
}

/// The format of an agent's MCP configuration.
#[derive(Debug, Clone, PartialEq)]
pub enum McpTarget {
    /// A JSON object whose `key` object maps server names to `entry`.
    Json {
        /// `mcpServers`, or OpenCode's `mcp`.
        key: &'static str,
        /// The server's entry.
        entry: Value,
        /// Keys a new file starts with (OpenCode's `$schema`).
        new_file: Option<Value>,
    },
    /// Codex's `config.toml`: a `[mcp_servers.git-checkpoint]` table.
    CodexToml,
}

/// The MCP configuration of `agent` at `level` (the project's when `None`, Cline's user
/// file for Cline, which has no other).
///
/// | agent | project | user | entry |
/// | --- | --- | --- | --- |
/// | Claude Code | `.mcp.json` | (`claude mcp add --scope user`) | `mcpServers`: `{"type": "stdio", "command", "args", "env"}` |
/// | Gemini CLI | `.gemini/settings.json` | `~/.gemini/settings.json` | `mcpServers`: `{"command", "args"}` |
/// | Codex | `.codex/config.toml` | `~/.codex/config.toml` | `[mcp_servers.git-checkpoint]` `command`, `args` |
/// | Cursor | `.cursor/mcp.json` | `~/.cursor/mcp.json` | `mcpServers`: `{"command", "args", "env"}` |
/// | Copilot CLI | `.github/mcp.json` | `~/.copilot/mcp-config.json` | `mcpServers`: `{"type": "local", "command", "args", "env", "tools": ["*"]}` |
/// | Cline | — | `cline_mcp_settings.json` | `mcpServers`: `{"type": "stdio", "command", "args", "env", "disabled", "autoApprove"}` |
/// | OpenCode | `opencode.json` | `~/.config/opencode/opencode.json` | `mcp`: `{"type": "local", "command": [...], "enabled"}` |
///
/// Sources: Claude Code: `anthropics/claude-code` `CHANGELOG.md` (`.mcp.json` must use
/// `mcpServers`; per-server approval of project servers). Gemini CLI: `google-gemini/
/// gemini-cli` `docs/reference/configuration.md` (`mcpServers`). Codex: `openai/codex`
/// `docs/config.md` (`[mcp_servers.<name>]`, via PR openai/codex#6845). Cursor:
/// https://cursor.com/docs/mcp as quoted by third parties (the page itself was not read).
/// Copilot CLI: `github/docs` `content/copilot/how-tos/copilot-cli/customize-copilot/
/// add-mcp-servers.md` (the user file and its shape); `github/copilot-cli` `changelog.md`
/// 1.0.61 ("Auto-load MCP servers from .github/mcp.json"). Copilot also reads Claude Code's
/// `.mcp.json` (1.0.22: "CLI now only reads .mcp.json"), so a server registered for both is
/// listed twice there. Cline: `cline/cline`
/// `apps/vscode/src/services/mcp/schemas.ts`, `apps/vscode/src/core/storage/disk.ts`
/// (`getMcpSettingsFilePath`), `sdk/packages/shared/src/storage/paths.ts`
/// (`resolveMcpSettingsPath`). OpenCode: `anomalyco/opencode`
/// `packages/web/src/content/docs/mcp-servers.mdx` (`command` is one array).
pub fn mcp_setup(agent: Agent, level: Option<Level>, places: &Places) -> Result<McpSetup> {
    let default = if agent == Agent::Cline {
        Level::User
    } else {
        Level::Project
    };
    let level = level.unwrap_or(default);
    if agent == Agent::ClaudeCode && level != Level::Project {
        return Err(Error::InvalidInput(format!(
            "git-checkpoint registers the MCP server for Claude Code only in the project's .mcp.json; for your user or local scope run: claude mcp add --scope {} {SERVER_NAME} -- git checkpoint mcp",
            if level == Level::User {
                "user"
            } else {
                "local"
            }
        )));
    }
    check_level(agent, level, agent.mcp_levels(), "MCP servers")?;
    let project = || places.project();
    let home = || places.home();
    let args = json!(["checkpoint", "mcp"]);
    let servers = |entry: Value| McpTarget::Json {
        key: "mcpServers",
        entry,
        new_file: None,
    };
    let mut steps = Vec::new();
    let (path, target) = match agent {
        Agent::ClaudeCode => {
            steps.push("Claude Code asks you to approve a project's MCP servers, one by one, when it next starts".into());
            (
                project()?.join(".mcp.json"),
                servers(json!({"type": "stdio", "command": "git", "args": args, "env": {}})),
            )
        }
        Agent::Gemini => {
            steps.push("restart Gemini CLI; /mcp lists the server and its tools".into());
            let path = match level {
                Level::User => home()?.join(".gemini/settings.json"),
                _ => project()?.join(".gemini/settings.json"),
            };
            (path, servers(json!({"command": "git", "args": args})))
        }
        Agent::Codex => {
            let path = match level {
                Level::User => match places.var("CODEX_HOME") {
                    Some(dir) => dir,
                    None => home()?.join(".codex"),
                }
                .join("config.toml"),
                _ => project()?.join(".codex/config.toml"),
            };
            steps.push(
                "Codex starts MCP servers with a session: start a new one; /mcp lists them".into(),
            );
            if level == Level::Project {
                steps.push(
                    "Codex reads a project's .codex/config.toml only when the project is trusted"
                        .into(),
                );
            }
            (path, McpTarget::CodexToml)
        }
        Agent::Cursor => {
            let path = match level {
                Level::User => home()?.join(".cursor/mcp.json"),
                _ => project()?.join(".cursor/mcp.json"),
            };
            steps.push("enable the server in Cursor's settings (MCP) if it asks".into());
            (
                path,
                servers(json!({"command": "git", "args": args, "env": {}})),
            )
        }
        Agent::Copilot => {
            let path = match level {
                Level::User => match places.var("COPILOT_HOME") {
                    Some(dir) => dir,
                    None => home()?.join(".copilot"),
                }
                .join("mcp-config.json"),
                _ => project()?.join(".github/mcp.json"),
            };
            if level == Level::Project {
                steps.push("Copilot CLI loads a repository's MCP servers only in a trusted folder; if yours does not read .github/mcp.json, use --user".into());
            }
            (
                path,
                servers(
                    json!({"type": "local", "command": "git", "args": args, "env": {},
                               "tools": ["*"]}),
                ),
            )
        }
        Agent::Cline => {
            steps.push("Cline starts the server from outside your project: its tools take a `directory` argument, the working tree to act on".into());
            (
                cline_settings(places)?,
                servers(
                    json!({"type": "stdio", "command": "git", "args": args, "env": {},
                               "disabled": false, "autoApprove": []}),
                ),
            )
        }
        Agent::OpenCode => {
            let dir = match level {
                Level::User => places.config_home()?.join("opencode"),
                _ => project()?.to_path_buf(),
            };
            let jsonc = dir.join("opencode.jsonc");
            if jsonc.exists() && !dir.join("opencode.json").exists() {
                return Err(Error::InvalidInput(format!(
                    "`{}` may hold comments, which git-checkpoint cannot keep: add the server by hand under \"mcp\": \"{SERVER_NAME}\": {{\"type\": \"local\", \"command\": [\"git\", \"checkpoint\", \"mcp\"], \"enabled\": true}}",
                    jsonc.display()
                )));
            }
            steps.push("OpenCode starts MCP servers when it starts: restart it (newer releases may ask you to approve a project's server: opencode mcp approve git-checkpoint)".into());
            (
                dir.join("opencode.json"),
                McpTarget::Json {
                    key: "mcp",
                    entry: json!({"type": "local", "command": ["git", "checkpoint", "mcp"],
                                  "enabled": true}),
                    new_file: Some(json!({"$schema": "https://opencode.ai/config.json"})),
                },
            )
        }
    };
    Ok(McpSetup {
        agent,
        level,
        path,
        target,
        next_steps: steps,
    })
}

/// Cline's MCP settings file: `$CLINE_MCP_SETTINGS_PATH`; else the VS Code extension's, when
/// the extension's storage exists (`<VS Code user dir>/User/globalStorage/
/// saoudrizwan.claude-dev/settings/cline_mcp_settings.json`); else the Cline CLI's
/// (`$CLINE_DATA_DIR`, default `~/.cline/data`, `/settings/cline_mcp_settings.json`).
fn cline_settings(places: &Places) -> Result<PathBuf> {
    if let Some(path) = places.var("CLINE_MCP_SETTINGS_PATH") {
        return Ok(path);
    }
    let home = places.home()?;
    let user_dir = if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Code/User")
    } else if cfg!(windows) {
        match places.var("APPDATA") {
            Some(dir) => dir.join("Code/User"),
            None => home.join("AppData/Roaming/Code/User"),
        }
    } else {
        places.config_home()?.join("Code/User")
    };
    let extension = user_dir.join("globalStorage/saoudrizwan.claude-dev");
    if extension.is_dir() {
        return Ok(extension.join("settings/cline_mcp_settings.json"));
    }
    let data = match places.var("CLINE_DATA_DIR") {
        Some(dir) => dir,
        None => home.join(".cline/data"),
    };
    Ok(data.join("settings/cline_mcp_settings.json"))
}

/// The configuration as text, to print.
pub fn render_mcp(setup: &McpSetup) -> String {
    match &setup.target {
        McpTarget::Json { key, entry, .. } => {
            let mut text = serde_json::to_string_pretty(&json!({ *key: { SERVER_NAME: entry } }))
                .unwrap_or_default();
            text.push('\n');
            text
        }
        McpTarget::CodexToml => CODEX_TABLE.to_string(),
    }
}

/// Register the server (idempotent: an entry of that name, whatever it holds, is left as it
/// is), keeping everything else; the old file is copied to `<file>.bak` when it held something
/// of the user's.
pub fn install_mcp(setup: &McpSetup) -> Result<Installed> {
    match &setup.target {
        McpTarget::Json {
            key,
            entry,
            new_file,
        } => {
            let path = &setup.path;
            let fresh = !path.exists();
            edit_json(
                path,
                |settings| {
                    let Value::Object(map) = settings else {
                        return Ok(false);
                    };
                    if fresh && let Some(Value::Object(start)) = new_file {
                        for (k, v) in start {
                            map.insert(k.clone(), v.clone());
                        }
                    }
                    let servers = map
                        .entry(key.to_string())
                        .or_insert_with(|| Value::Object(Map::new()));
                    let Value::Object(servers) = servers else {
                        return Err(invalid_settings(
                            path,
                            &format!("`{key}` is not a JSON object"),
                        ));
                    };
                    if servers.contains_key(SERVER_NAME) {
                        return Ok(false);
                    }
                    servers.insert(SERVER_NAME.into(), entry.clone());
                    Ok(true)
                },
                &new_file_rest(new_file.as_ref()),
            )
        }
        McpTarget::CodexToml => edit_toml(&setup.path, true),
    }
}

/// What git-checkpoint puts in an MCP configuration it creates, besides the server: OpenCode's
/// `$schema`, else nothing.
fn new_file_rest(new_file: Option<&Value>) -> Value {
    new_file
        .cloned()
        .unwrap_or_else(|| Value::Object(Map::new()))
}

/// Remove the server's entry, keeping everything else (a file that held nothing else, created
/// by the install, is removed).
pub fn uninstall_mcp(setup: &McpSetup) -> Result<Installed> {
    match &setup.target {
        McpTarget::Json { key, new_file, .. } => remove_from_json(
            &setup.path,
            |settings, prune| Ok(remove_server(settings, key, SERVER_NAME, prune)),
            &new_file_rest(new_file.as_ref()),
        ),
        McpTarget::CodexToml => edit_toml(&setup.path, false),
    }
}

/// What is added to Codex's `config.toml` (`[mcp_servers.<name>]` with `command` and `args`;
/// `openai/codex` `docs/config.md`).
const CODEX_TABLE: &str = "# installed by git-checkpoint: `git checkpoint mcp --uninstall codex` removes it\n\
[mcp_servers.git-checkpoint]\n\
command = \"git\"\n\
args = [\"checkpoint\", \"mcp\"]\n";

/// Where the server stands in a `config.toml`: the lines of its table (and its sub-tables,
/// and the comment git-checkpoint put above it), or the line of an inline definition under
/// `[mcp_servers]`, which is not edited.
enum TomlEntry {
    Absent,
    Table(std::ops::Range<usize>),
    Inline,
}

fn find_toml(lines: &[&str]) -> TomlEntry {
    let header = |line: &str| {
        let t = line.trim();
        (t.starts_with('[') && !t.starts_with("[[")).then(|| {
            t.trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .split('.')
                .map(|part| part.trim().trim_matches('"').to_string())
                .collect::<Vec<_>>()
        })
    };
    let ours =
        |parts: &[String]| parts.len() >= 2 && parts[0] == "mcp_servers" && parts[1] == SERVER_NAME;
    let mut current: Vec<String> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(parts) = header(line) {
            if ours(&parts) {
                let mut start = i;
                if i > 0
                    && lines[i - 1]
                        .trim_start()
                        .starts_with("# installed by git-checkpoint")
                {
                    start = i - 1;
                }
                let mut end = i + 1;
                while end < lines.len() {
                    match header(lines[end]) {
                        Some(p) if !ours(&p) => break,
                        _ => end += 1,
                    }
                }
                return TomlEntry::Table(start..end);
            }
            current = parts;
            continue;
        }
        let key = line
            .split('=')
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        if line.contains('=') && current == ["mcp_servers"] && key == SERVER_NAME {
            return TomlEntry::Inline;
        }
        if line.contains('=')
            && current.is_empty()
            && key.starts_with("mcp_servers")
            && line.contains(SERVER_NAME)
        {
            return TomlEntry::Inline;
        }
    }
    TomlEntry::Absent
}

/// Add (`install`) or remove our table in Codex's `config.toml`, as text: everything else,
/// comments included, stays byte for byte.
fn edit_toml(path: &Path, install: bool) -> Result<Installed> {
    let old = read_optional(path)?;
    let text = match &old {
        Some(bytes) => String::from_utf8(bytes.clone())
            .map_err(|_| invalid_settings(path, "not UTF-8 text"))?,
        None => String::new(),
    };
    let lines: Vec<&str> = text.lines().collect();
    let unchanged = || {
        Ok(Installed {
            path: path.to_owned(),
            change: super::Change::Unchanged,
            backup: None,
        })
    };
    let new = match (find_toml(&lines), install) {
        (TomlEntry::Absent, false) | (TomlEntry::Table(_), true) | (TomlEntry::Inline, true) => {
            return unchanged();
        }
        (TomlEntry::Inline, false) => {
            return Err(invalid_settings(
                path,
                &format!(
                    "`{SERVER_NAME}` is defined inline under `mcp_servers`; remove it by hand"
                ),
            ));
        }
        (TomlEntry::Absent, true) => {
            let mut new = text.clone();
            if !new.is_empty() && !new.ends_with('\n') {
                new.push('\n');
            }
            if !new.trim().is_empty() {
                new.push('\n');
            }
            new.push_str(CODEX_TABLE);
            new
        }
        (TomlEntry::Table(range), false) => {
            let mut kept: Vec<&str> = lines[..range.start].to_vec();
            // The blank line install put before the table goes with it.
            if range.start > 0 && kept.last().is_some_and(|l| l.trim().is_empty()) {
                kept.pop();
            }
            kept.extend_from_slice(&lines[range.end..]);
            let mut new = kept.join("\n");
            if !new.is_empty() {
                new.push('\n');
            }
            new
        }
    };
    // A file left with nothing but git-checkpoint's table is removed, with no `.bak`; one with
    // something of the user's is backed up before it changes.
    let keep = (!new.trim().is_empty()).then_some(new.as_bytes());
    let users = if install {
        !text.trim().is_empty()
    } else {
        keep.is_some()
    };
    replace_file(path, old.as_deref(), keep, users)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::Change;

    #[test]
    fn codex_toml_keeps_every_other_byte() -> std::result::Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let path = dir.path().join("config.toml");
        let original =
            "# my settings\nmodel = \"gpt-5\"\n\n[mcp_servers.other]\ncommand = \"x\" # keep\n";
        std::fs::write(&path, original).map_err(|e| e.to_string())?;
        let setup = McpSetup {
            agent: Agent::Codex,
            level: Level::User,
            path: path.clone(),
            target: McpTarget::CodexToml,
            next_steps: vec![],
        };
        let e = |e: Error| e.to_string();
        assert_eq!(install_mcp(&setup).map_err(e)?.change, Change::Updated);
        let installed = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        assert!(
            installed.starts_with(original) && installed.ends_with(CODEX_TABLE),
            "{installed}"
        );
        assert_eq!(install_mcp(&setup).map_err(e)?.change, Change::Unchanged);
        assert_eq!(uninstall_mcp(&setup).map_err(e)?.change, Change::Updated);
        assert_eq!(
            std::fs::read_to_string(&path).map_err(|e| e.to_string())?,
            original
        );
        assert_eq!(uninstall_mcp(&setup).map_err(e)?.change, Change::Unchanged);
        // Defined inline by hand: seen, never edited.
        std::fs::write(&path, "mcp_servers.git-checkpoint = { command = \"g\" }\n")
            .map_err(|e| e.to_string())?;
        assert_eq!(install_mcp(&setup).map_err(e)?.change, Change::Unchanged);
        assert!(uninstall_mcp(&setup).is_err());
        Ok(())
    }

    #[test]
    fn levels_and_files() -> std::result::Result<(), String> {
        let places = Places {
            workdir: Some("/w".into()),
            home: Some("/h".into()),
            ..Places::default()
        };
        let path = |agent, level| {
            mcp_setup(agent, level, &places)
                .map(|s| s.path.display().to_string())
                .map_err(|e| e.to_string())
        };
        assert_eq!(path(Agent::ClaudeCode, None)?, "/w/.mcp.json");
        assert!(
            path(Agent::ClaudeCode, Some(Level::User))
                .is_err_and(|e| e.contains("claude mcp add --scope user"))
        );
        assert_eq!(
            path(Agent::Gemini, Some(Level::User))?,
            "/h/.gemini/settings.json"
        );
        assert_eq!(path(Agent::Codex, None)?, "/w/.codex/config.toml");
        assert_eq!(
            path(Agent::Cursor, Some(Level::User))?,
            "/h/.cursor/mcp.json"
        );
        assert_eq!(
            path(Agent::Copilot, Some(Level::User))?,
            "/h/.copilot/mcp-config.json"
        );
        assert_eq!(
            path(Agent::Cline, None)?,
            "/h/.cline/data/settings/cline_mcp_settings.json"
        );
        assert!(path(Agent::Cline, Some(Level::Project)).is_err());
        assert_eq!(path(Agent::OpenCode, None)?, "/w/opencode.json");
        assert_eq!(
            path(Agent::OpenCode, Some(Level::User))?,
            "/h/.config/opencode/opencode.json"
        );
        Ok(())
    }
}
