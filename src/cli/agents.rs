//! What `hooks`, `mcp` and `save --from-hook` share: the agent argument, the level flags,
//! where the agents' files are, and the report of what an install did.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use git_checkpoint::hooks::{Agent, Change, Installed, Level, Places};

use super::Failure;
use super::output::Ui;

/// Parses an agent's name (`claude-code`, `gemini`, …), listing them in `--help` and in the
/// completions.
pub fn agent_parser() -> impl TypedValueParser<Value = Agent> {
    // The possible values are exactly the agents' names: the fallback is never taken.
    PossibleValuesParser::new(Agent::ALL.map(Agent::name))
        .map(|name| Agent::from_name(&name).unwrap_or(Agent::ClaudeCode))
}

/// The value of `--from-hook[=<AGENT>]`: `None` for `auto` (the bare flag), which recognises
/// the agent from its input.
#[derive(Debug, Clone, Copy)]
pub struct HookAgent(pub Option<Agent>);

/// Parses `--from-hook`'s value: `auto` or an agent's name.
pub fn hook_agent_parser() -> impl TypedValueParser<Value = HookAgent> {
    let mut names = vec!["auto"];
    names.extend(Agent::ALL.map(Agent::name));
    PossibleValuesParser::new(names).map(|name| HookAgent(Agent::from_name(&name)))
}

/// `--project`, `--local`, `--user`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct LevelFlags {
    /// The project's configuration, shared through the repository (the default; for Cline's
    /// MCP server, which has none, --user is).
    #[arg(long, conflicts_with_all = ["local", "user"])]
    pub project: bool,
    /// The project's configuration for you only: Claude Code's .claude/settings.local.json
    /// (no other agent has this level).
    #[arg(long, conflicts_with = "user")]
    pub local: bool,
    /// Your configuration, for every project.
    #[arg(long)]
    pub user: bool,
}

impl LevelFlags {
    /// The level asked for, if one was.
    pub fn level(&self) -> Option<Level> {
        if self.user {
            Some(Level::User)
        } else if self.local {
            Some(Level::Local)
        } else if self.project {
            Some(Level::Project)
        } else {
            None
        }
    }
}

/// Where the agents' files are: the top of the working tree (needed only when `project`), the
/// home directory and the environment variables that move them.
pub fn places(project: bool) -> Result<Places, Failure> {
    // Installing hooks in a plain directory makes its private store, as its first save would.
    let open = |create: bool| -> Result<git_checkpoint::Checkpoints, Failure> {
        Ok(git_checkpoint::Checkpoints::open_with(
            &super::cwd()?,
            &super::open_options(create, false),
        )?)
    };
    let workdir = if project {
        open(true)?.workdir().map(|p| p.to_path_buf())
    } else {
        open(false)
            .ok()
            .and_then(|c| c.workdir().map(|p| p.to_path_buf()))
            .or_else(|| std::env::current_dir().ok())
    };
    let vars = Places::VARS
        .iter()
        .filter_map(|name| std::env::var_os(name).map(|v| (name.to_string(), v)))
        .collect();
    Ok(Places {
        workdir,
        home: std::env::home_dir(),
        vars,
        windows: cfg!(windows),
    })
}

/// A level the agent does not have is a usage error (exit 2), said in one line.
pub fn usage(ui: &Ui, message: &str) -> Failure {
    super::report(
        ui,
        &Failure::Core(git_checkpoint::Error::InvalidInput(message.to_string())),
    );
    Failure::Exit(2)
}

/// One line saying what happened to a file.
pub fn describe(done: &Installed, what: &str) -> String {
    let path = done.path.display();
    let kept = |b: &Option<PathBuf>| match b {
        Some(b) => format!("; the previous file is kept as `{}`", b.display()),
        None => String::new(),
    };
    match done.change {
        Change::Unchanged => format!("`{path}`: {what} already as they should be; nothing changed"),
        Change::Created => format!("wrote {what} in `{path}` (a new file)"),
        Change::Updated => format!("updated {what} in `{path}`{}", kept(&done.backup)),
        Change::Removed => format!("removed `{path}`{}", kept(&done.backup)),
        Change::NotOurs => format!("`{path}` is not git-checkpoint's; left as it is"),
    }
}

/// The lines that close an install: what to do next, and how to take an agent's work back.
pub fn after_install(ui: &Ui, steps: &[String]) {
    for step in steps {
        ui.info(&format!("next: {step}"));
    }
    ui.info(
        "undo the agent's last step: git checkpoint undo; its whole session: git checkpoint revert session:@",
    );
}
