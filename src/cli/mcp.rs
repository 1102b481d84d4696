//! `git checkpoint mcp`.

use std::io::Write;

use git_checkpoint::Error;
use git_checkpoint::hooks::{self, Agent, Level};

use super::Failure;
use super::agents::{LevelFlags, after_install, agent_parser, describe, places, usage};
use super::output::Ui;

/// Run the MCP server on stdio, or register it in an agent's MCP configuration.
///
/// The server speaks the Model Context Protocol on stdin and stdout. Tools: checkpoint_save,
/// checkpoint_list, checkpoint_show, checkpoint_diff, checkpoint_restore (dry_run, paths;
/// annotated destructive), checkpoint_undo and checkpoint_revert (from, to, markers, dry_run).
/// Each returns the JSON that the command's --json prints, as structured content and as text; an error is
/// a tool error. Every tool takes an optional `directory`: the working tree, by default the
/// server's working directory. An argument a tool does not know is refused, and nothing is
/// done: a JSON-RPC error (-32602) that names it and the arguments the tool takes.
///
/// Each line on stdin is one JSON-RPC message of at most 16 MiB. A line that is none gets a
/// JSON-RPC error (-32700 when it is not JSON, -32600 when it is not a request or is too
/// long), and the server goes on with the next line.
///
/// --install <AGENT> adds the server, named git-checkpoint and run as `git checkpoint mcp`, to
/// the agent's MCP configuration (Claude Code .mcp.json; Gemini CLI .gemini/settings.json;
/// Codex .codex/config.toml; Cursor .cursor/mcp.json; Copilot CLI .github/mcp.json or
/// ~/.copilot/mcp-config.json; Cline its cline_mcp_settings.json; OpenCode opencode.json),
/// keeping everything else (a file holding anything of yours is first copied to <file>.bak);
/// --uninstall takes it out again, removing a file that --install created.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint mcp --install claude-code    # register the server in .mcp.json
  git checkpoint mcp --print codex            # what --install would add, and where
  git checkpoint mcp --uninstall cursor       # remove it, keeping everything else
  git checkpoint mcp                          # the server itself, on stdin and stdout")]
pub struct Args {
    /// Register the server in this agent's MCP configuration.
    #[arg(long, value_name = "AGENT", value_parser = agent_parser(), conflicts_with_all = ["uninstall", "print"])]
    install: Option<Agent>,
    /// Remove the server from this agent's MCP configuration, keeping everything else.
    #[arg(long, value_name = "AGENT", value_parser = agent_parser(), conflicts_with = "print")]
    uninstall: Option<Agent>,
    /// Print what --install would add for this agent, and where.
    #[arg(long, value_name = "AGENT", value_parser = agent_parser())]
    print: Option<Agent>,
    #[command(flatten)]
    level: LevelFlags,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let level = args.level.level();
    let Some(agent) = args.install.or(args.uninstall).or(args.print) else {
        if level.is_some() {
            return Err(usage(
                ui,
                "--project, --local and --user choose where --install, --uninstall or --print write",
            ));
        }
        return crate::mcp::serve().map_err(|source| {
            Failure::Core(Error::Io {
                context: "the MCP server stopped".into(),
                source,
            })
        });
    };
    let changing = args.print.is_none();
    let default_project = agent.mcp_levels().first() == Some(&Level::Project);
    let at_project = match level {
        Some(l) => l != Level::User,
        None => default_project,
    };
    let places = places(changing && at_project)?;
    let setup = match hooks::mcp_setup(agent, level, &places) {
        Err(err) if level.is_some_and(|l| !agent.mcp_levels().contains(&l)) => {
            return Err(usage(ui, &err.to_string()));
        }
        other => other?,
    };
    if !changing {
        std::io::stdout()
            .lock()
            .write_all(hooks::render_mcp(&setup).as_bytes())?;
        if !args.quiet {
            ui.info(&format!(
                "add this to `{}`, or let `git checkpoint mcp --install {agent}` do it",
                setup.path.display()
            ));
        }
        return Ok(());
    }
    let done = if args.install.is_some() {
        hooks::install_mcp(&setup)?
    } else {
        hooks::uninstall_mcp(&setup)?
    };
    if !args.quiet {
        ui.info(&describe(&done, "the git-checkpoint MCP server"));
        if args.install.is_some() {
            after_install(ui, &setup.next_steps);
        }
    }
    Ok(())
}
