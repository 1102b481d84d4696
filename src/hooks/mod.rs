//! Coding agents: a checkpoint before every tool call of an agent, at a session's start and
//! at the end of each turn, without anyone remembering to take it; and the registration of the
//! MCP server in an agent's configuration.
//!
//! Three parts, each of them pure data and file editing (no terminal):
//! - [`HookInput`]: what an agent's hook passes on stdin, for each of the [`Agent`]s (detected
//!   when not told), turned into a save ([`HookInput::save_options`]) and into the answer the
//!   agent expects on stdout and in the exit code ([`HookInput::allow`],
//!   [`HookInput::refuse`]);
//! - [`hook_setup`], [`install_hooks`], [`uninstall_hooks`]: the hooks in the agent's own
//!   configuration file and format, merged into what is there (the rest is kept, a file
//!   holding anything of the user's copied to `<file>.bak`), idempotent, and removed again
//!   leaving only the rest (a file the install created goes, with no `.bak`);
//! - [`mcp_setup`], [`install_mcp`], [`uninstall_mcp`]: the same for the agent's MCP server
//!   list.
//!
//! Every agent format is documented next to the code that reads or writes it, with its source:
//! the agent's documentation, source file or changelog entry, read in November 2026. What
//! could not be checked against the agent's own documentation or source says so.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

mod input;
mod install;
mod mcp;

pub use input::{HookInput, Phase, Reply};
pub use install::{
    Change, HookSetup, HookTarget, Installed, OwnFile, hook_setup, install_hooks, merge_hooks,
    remove_hooks, render_hooks, uninstall_hooks,
};
pub use mcp::{McpSetup, McpTarget, install_mcp, mcp_setup, render_mcp, uninstall_mcp};

/// The coding agents git-checkpoint has hooks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Agent {
    /// Anthropic's Claude Code.
    ClaudeCode,
    /// Google's Gemini CLI.
    Gemini,
    /// OpenAI's Codex CLI.
    Codex,
    /// The Cursor editor's agent.
    Cursor,
    /// GitHub Copilot CLI.
    Copilot,
    /// Cline (the VS Code extension and its CLI).
    Cline,
    /// OpenCode.
    OpenCode,
}

impl Agent {
    /// Every agent, in the order they are documented.
    pub const ALL: [Agent; 7] = [
        Agent::ClaudeCode,
        Agent::Gemini,
        Agent::Codex,
        Agent::Cursor,
        Agent::Copilot,
        Agent::Cline,
        Agent::OpenCode,
    ];

    /// The name on the command line and in the note's `agent` field.
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Gemini => "gemini",
            Agent::Codex => "codex",
            Agent::Cursor => "cursor",
            Agent::Copilot => "copilot",
            Agent::Cline => "cline",
            Agent::OpenCode => "opencode",
        }
    }

    /// The agent's name as its makers write it.
    pub fn title(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "Claude Code",
            Agent::Gemini => "Gemini CLI",
            Agent::Codex => "Codex CLI",
            Agent::Cursor => "Cursor",
            Agent::Copilot => "GitHub Copilot CLI",
            Agent::Cline => "Cline",
            Agent::OpenCode => "OpenCode",
        }
    }

    /// The agent of a [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The command the agent's hooks run: `git checkpoint save --from-hook=<agent>`.
    pub fn hook_command(self) -> String {
        format!("{HOOK_COMMAND}={}", self.name())
    }

    /// The levels at which the agent reads hooks.
    pub fn hook_levels(self) -> &'static [Level] {
        match self {
            // `.claude/settings.local.json`: the project's settings for one user.
            Agent::ClaudeCode => &[Level::Project, Level::Local, Level::User],
            _ => &[Level::Project, Level::User],
        }
    }

    /// The levels at which git-checkpoint can register the MCP server.
    pub fn mcp_levels(self) -> &'static [Level] {
        match self {
            // User and local MCP servers live in `~/.claude.json`, whose layout is not
            // documented: `claude mcp add --scope user` writes them.
            Agent::ClaudeCode => &[Level::Project],
            // No project-level MCP file exists for Cline.
            Agent::Cline => &[Level::User],
            _ => &[Level::Project, Level::User],
        }
    }

    /// The agent a hook runs under, judged from the environment variables agents set for
    /// their hooks (`var` says whether one is set): only a hint, for input that does not tell.
    pub fn from_env(var: impl Fn(&str) -> bool) -> Option<Agent> {
        // Gemini CLI: `GEMINI_PROJECT_DIR`, `GEMINI_SESSION_ID` (packages/core/src/hooks/
        // hookRunner.ts). Cursor: `CURSOR_PROJECT_DIR`, `CURSOR_VERSION`
        // (https://cursor.com/docs/hooks). Both also set `CLAUDE_PROJECT_DIR`, Claude Code's
        // (https://code.claude.com/docs/en/hooks), so they are asked first.
        if var("GEMINI_PROJECT_DIR") || var("GEMINI_SESSION_ID") {
            Some(Agent::Gemini)
        } else if var("CURSOR_PROJECT_DIR") || var("CURSOR_VERSION") {
            Some(Agent::Cursor)
        } else if var("CLAUDE_PROJECT_DIR") {
            Some(Agent::ClaudeCode)
        } else {
            None
        }
    }
}

impl std::fmt::Display for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The MCP server's name in every agent's configuration. No `_`: Gemini CLI names tools
/// `mcp_<server>_<tool>` and splits at the first `_` (`docs/reference/configuration.md`).
pub const SERVER_NAME: &str = "git-checkpoint";

/// The command the hooks run, before `=<agent>`. It reads the hook's JSON from stdin.
pub const HOOK_COMMAND: &str = "git checkpoint save --from-hook";

/// Which of an agent's configuration files to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The project's, shared through the repository (the default).
    Project,
    /// The project's, for one user only (only Claude Code has it).
    Local,
    /// The user's, for every project.
    User,
}

impl Level {
    /// The command-line flag choosing the level.
    pub fn flag(self) -> &'static str {
        match self {
            Level::Project => "--project",
            Level::Local => "--local",
            Level::User => "--user",
        }
    }
}

/// Where an agent's files are: the top of the working tree, the home directory and the
/// environment variables that move an agent's configuration (`CLAUDE_CONFIG_DIR`,
/// `CODEX_HOME`, `COPILOT_HOME`, `XDG_CONFIG_HOME`, `CLINE_DATA_DIR`,
/// `CLINE_MCP_SETTINGS_PATH`, `APPDATA`).
#[derive(Debug, Clone, Default)]
pub struct Places {
    /// The top of the working tree, for the project level.
    pub workdir: Option<PathBuf>,
    /// The user's home directory.
    pub home: Option<PathBuf>,
    /// Environment variables ([`Places::VARS`]).
    pub vars: BTreeMap<String, OsString>,
    /// Write Windows' forms of files (Cline's `.ps1` hooks).
    pub windows: bool,
}

impl Places {
    /// The environment variables that move an agent's configuration.
    pub const VARS: &'static [&'static str] = &[
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "COPILOT_HOME",
        "XDG_CONFIG_HOME",
        "CLINE_DATA_DIR",
        "CLINE_MCP_SETTINGS_PATH",
        "APPDATA",
    ];

    /// A variable's value, when set and not empty.
    fn var(&self, name: &str) -> Option<PathBuf> {
        self.vars
            .get(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    }

    fn home(&self) -> Result<&Path> {
        self.home
            .as_deref()
            .ok_or_else(|| Error::InvalidInput("cannot tell your home directory: set HOME".into()))
    }

    fn project(&self) -> Result<&Path> {
        self.workdir.as_deref().ok_or(Error::NoWorkingTree(
            "install the hooks in; --user installs them for every project",
        ))
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    fn config_home(&self) -> Result<PathBuf> {
        match self.var("XDG_CONFIG_HOME") {
            Some(dir) => Ok(dir),
            None => Ok(self.home()?.join(".config")),
        }
    }
}

/// Refuse a level the agent does not have, saying which it has.
fn check_level(agent: Agent, level: Level, levels: &[Level], what: &str) -> Result<()> {
    if levels.contains(&level) {
        return Ok(());
    }
    let have: Vec<&str> = levels.iter().map(|l| l.flag()).collect();
    Err(Error::InvalidInput(format!(
        "{} has no {} level for {what}; use {}",
        agent.title(),
        &level.flag()[2..],
        have.join(" or ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_env_hints() {
        for agent in Agent::ALL {
            assert_eq!(Agent::from_name(agent.name()), Some(agent));
            assert!(agent.hook_command().ends_with(&format!("={agent}")));
        }
        assert_eq!(Agent::from_name("vim"), None);
        assert_eq!(
            Agent::from_env(|v| v == "CLAUDE_PROJECT_DIR" || v == "GEMINI_SESSION_ID"),
            Some(Agent::Gemini)
        );
        assert_eq!(
            Agent::from_env(|v| v == "CLAUDE_PROJECT_DIR"),
            Some(Agent::ClaudeCode)
        );
        assert_eq!(Agent::from_env(|_| false), None);
        let err = check_level(
            Agent::Gemini,
            Level::Local,
            Agent::Gemini.hook_levels(),
            "x",
        );
        assert!(err.is_err_and(|e| e.to_string().contains("no local level")
            && e.to_string().contains("--project or --user")));
    }
}
