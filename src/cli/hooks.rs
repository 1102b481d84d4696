//! `git checkpoint hooks`.

use std::io::Write;
use std::path::PathBuf;

use git_checkpoint::Error;
use git_checkpoint::hooks::{self, Installed};

use super::output::Ui;
use super::{Failure, open};

/// Print, install or remove the hook configuration that makes an agent take a checkpoint
/// before each tool call that can change files, and when a session starts.
///
/// The hooks run `git checkpoint save --from-hook`, which reads the hook's JSON from stdin:
/// the checkpoints are of kind auto (session at a session's start), carry the session id, the
/// tool and the edited paths, are deduplicated (a tool call that changed nothing adds
/// nothing), and never block the agent. Without --install, the configuration is printed.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The agent.
    #[arg(value_name = "AGENT")]
    agent: Agent,
    /// Merge the hooks into the agent's settings file, keeping everything else in it (the old
    /// file is copied to <file>.bak); running it again changes nothing.
    #[arg(long, conflicts_with = "uninstall")]
    install: bool,
    /// Remove git-checkpoint's hooks from the settings file, keeping everything else.
    #[arg(long)]
    uninstall: bool,
    /// The project's settings, shared through the repository: .claude/settings.json at the
    /// top of the working tree (the default).
    #[arg(long, conflicts_with_all = ["local", "user"])]
    project: bool,
    /// The project's settings for you only: .claude/settings.local.json.
    #[arg(long, conflicts_with = "user")]
    local: bool,
    /// Your settings for every project: ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR).
    #[arg(long)]
    user: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint hooks claude-code                 # print the configuration
  git checkpoint hooks claude-code --install       # into .claude/settings.json
  git checkpoint hooks claude-code --install --user
  git checkpoint hooks claude-code --uninstall";

/// Agents git-checkpoint has hooks for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Agent {
    /// Claude Code: PreToolUse on Edit, MultiEdit, Write, NotebookEdit and Bash; SessionStart.
    ClaudeCode,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let Agent::ClaudeCode = args.agent;
    let ours = hooks::claude_code_settings();
    if !args.install && !args.uninstall {
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&ours).unwrap_or_default()
        )?;
        if !args.quiet {
            ui.info(
                "merge this into Claude Code's settings.json, or let \
                 `git checkpoint hooks claude-code --install` do it",
            );
        }
        return Ok(());
    }
    let path = settings_path(&args)?;
    let done = if args.install {
        hooks::install(&path, &ours)?
    } else {
        hooks::uninstall(&path)?
    };
    if !args.quiet {
        ui.info(&describe(&done, args.install));
    }
    Ok(())
}

/// The settings file the scope flags choose.
fn settings_path(args: &Args) -> Result<PathBuf, Failure> {
    if args.user {
        let dir = match std::env::var_os("CLAUDE_CONFIG_DIR") {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => std::env::home_dir()
                .ok_or_else(|| {
                    Error::InvalidInput("cannot tell your home directory: set HOME".into())
                })?
                .join(".claude"),
        };
        return Ok(dir.join("settings.json"));
    }
    let checkpoints = open()?;
    let workdir = checkpoints.workdir().ok_or(Error::NoWorkingTree(
        "install the hooks in; --user installs them for every project",
    ))?;
    let file = if args.local {
        "settings.local.json"
    } else {
        "settings.json"
    };
    Ok(workdir.join(".claude").join(file))
}

fn describe(done: &Installed, install: bool) -> String {
    let path = done.path.display();
    match (done.changed, install, &done.backup) {
        (false, true, _) => format!("the hooks are already in `{path}`; nothing changed"),
        (false, false, _) => format!("no git-checkpoint hooks in `{path}`; nothing changed"),
        (true, true, None) => format!("installed the hooks in `{path}` (a new file)"),
        (true, true, Some(b)) => format!(
            "installed the hooks in `{path}`; the previous file is kept as `{}`",
            b.display()
        ),
        (true, false, Some(b)) => format!(
            "removed the hooks from `{path}`; the previous file is kept as `{}`",
            b.display()
        ),
        (true, false, None) => format!("removed the hooks from `{path}`"),
    }
}
