//! The `git-checkpoint` binary: parse the command line, run it, map the result to an exit code.

mod cli;
mod serve;

fn main() -> std::process::ExitCode {
    cli::run()
}
