//! The `git-checkpoint` binary: parse the command line, run it, map the result to an exit code.
//! Its front ends: the CLI (`cli`) and the MCP server (`mcp`), which the CLI's `mcp` verb starts.

mod cli;
mod mcp;
mod serve;

fn main() -> std::process::ExitCode {
    cli::run()
}
