//! `git checkpoint hooks`.

use std::io::Write;

use git_checkpoint::hooks::{self, Agent, HookTarget, Level};

use super::Failure;
use super::agents::{LevelFlags, after_install, agent_parser, describe, places, usage};
use super::output::Ui;

/// Print or install an agent's hooks that checkpoint before every tool call.
///
/// The hooks make a coding agent take a checkpoint before each tool call that can change
/// files, when a session starts, and at the end of each turn. Each agent's hooks go into its own configuration, in its own format: Claude Code
/// .claude/settings.json (PreToolUse, SessionStart, Stop); Gemini CLI .gemini/settings.json
/// (BeforeTool, SessionStart, AfterAgent); Codex .codex/hooks.json (PreToolUse, SessionStart,
/// Stop); Cursor .cursor/hooks.json (preToolUse, sessionStart, stop); Copilot CLI
/// .github/hooks/git-checkpoint.json (preToolUse, sessionStart, agentStop); Cline executable
/// files in .clinerules/hooks/ (PreToolUse, TaskStart, TaskResume, TaskComplete, TaskCancel);
/// OpenCode a plugin, .opencode/plugins/git-checkpoint.js.
///
/// The hooks run `git checkpoint save --from-hook=<AGENT>`, which reads the hook's JSON from
/// stdin: checkpoints of kind auto (session at a session's start), with the agent, the session,
/// the tool and the edited paths in the note, deduplicated (a tool call that changed nothing
/// adds nothing), and never blocking the agent. Without --install, the configuration is
/// printed.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The agent.
    #[arg(value_name = "AGENT", value_parser = agent_parser())]
    agent: Agent,
    /// Merge the hooks into the agent's configuration, keeping everything else in it (a file
    /// holding anything of yours is first copied to <file>.bak); running it again changes
    /// nothing, except that hooks an older version installed are replaced by the current ones.
    #[arg(long, conflicts_with = "uninstall")]
    install: bool,
    /// Remove git-checkpoint's hooks from the agent's configuration, keeping everything else;
    /// a file that --install created, holding nothing else, is removed.
    #[arg(long)]
    uninstall: bool,
    #[command(flatten)]
    level: LevelFlags,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint hooks claude-code                 # print the configuration
  git checkpoint hooks gemini --install            # into .gemini/settings.json
  git checkpoint hooks codex --install --user      # for every project
  git checkpoint hooks cursor --uninstall          # remove only git-checkpoint's hooks";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let agent = args.agent;
    let level = args.level.level();
    let changing = args.install || args.uninstall;
    let at_project = matches!(level, None | Some(Level::Project | Level::Local));
    let places = places(changing && at_project)?;
    let setup = match hooks::hook_setup(agent, level, &places) {
        Err(err) if level.is_some_and(|l| !agent.hook_levels().contains(&l)) => {
            return Err(usage(ui, &err.to_string()));
        }
        other => other?,
    };
    if !changing {
        std::io::stdout()
            .lock()
            .write_all(hooks::render_hooks(&setup).as_bytes())?;
        if !args.quiet {
            let place = match &setup.target {
                HookTarget::Settings { path, .. } => {
                    format!("merge this into `{}`", path.display())
                }
                HookTarget::Files(_) => "write these files (executable where needed)".into(),
            };
            ui.info(&format!(
                "{place}, or let `git checkpoint hooks {agent} --install` do it"
            ));
        }
        return Ok(());
    }
    let done = if args.install {
        hooks::install_hooks(&setup)?
    } else {
        hooks::uninstall_hooks(&setup)?
    };
    if args.quiet {
        return Ok(());
    }
    let what = format!("{}'s git-checkpoint hooks", agent.title());
    for file in &done {
        ui.info(&describe(file, &what));
    }
    if args.install {
        ui.info(&format!(
            "{} runs `{}` at: {}",
            agent.title(),
            agent.hook_command(),
            setup.events.join(", ")
        ));
        after_install(ui, &setup.next_steps);
    }
    Ok(())
}
