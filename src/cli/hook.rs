//! The hook runner: `save --from-hook[=<AGENT>]`, a save that reads an agent's hook input from
//! stdin, answers the agent in the form it expects, and never stands in its way.

use std::io::{Read, Write};
use std::path::PathBuf;

use git_checkpoint::hooks::{Agent, HookInput, Reply};
use git_checkpoint::{Control, HookFailure};

use super::Failure;
use super::notices;
use super::output::Ui;
use super::render::human_size;

/// The largest hook input read from stdin; the rest is drained and the input treated as
/// unreadable (a tool's input may carry a whole file's content).
const MAX_HOOK_INPUT: usize = 64 * 1024 * 1024;

/// What the command line adds to, or sets over, what the hook's input says.
#[derive(Debug, Default)]
pub struct Args {
    /// The agent named with `--from-hook=<AGENT>`; `None`: recognise it from the input.
    pub agent: Option<Agent>,
    pub message: Option<String>,
    pub name: Option<String>,
    pub kind: Option<String>,
    pub session: Option<String>,
    pub pin: bool,
    pub allow_empty: bool,
    pub meta: Vec<(String, String)>,
    /// Checkpoint even a home directory itself, the temporary directory itself or a file system
    /// root (`save --force`).
    pub force: bool,
}

/// `save --from-hook`: save, then answer the agent. Prints nothing on stdout but the answer
/// the agent expects (only Cline expects one when nothing is refused); a failure is a warning
/// and exit 0, unless `checkpoint.hookFailure` is `block` and the event is one before a tool
/// call: then the tool call is refused in the agent's own way.
pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let hint = Agent::from_env(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()));
    let input = read_hook_input()
        .and_then(|bytes| HookInput::parse(&bytes, args.agent, hint))
        .unwrap_or_else(|why| {
            // The checkpoint matters more than what the hook said about it.
            ui.warn(&format!("git-checkpoint hook: {why}; saving without it"));
            HookInput::of_agent(args.agent.or(hint))
        });
    if !input.wants_checkpoint() {
        return answer(&input.allow());
    }
    let mut policy = HookFailure::Warn;
    let failure = match hook_save(ui, args, &input, &mut policy) {
        Ok(()) => return answer(&input.allow()),
        Err(failure) => failure,
    };
    let reason = match &failure {
        Failure::Core(err) => format!("no checkpoint was made: {err}"),
        _ => "no checkpoint was made".to_string(),
    };
    if policy == HookFailure::Block
        && let Some(refusal) = input.refuse(&format!(
            "git-checkpoint refused the tool call (checkpoint.hookFailure is block): {reason}"
        ))
    {
        super::report(ui, &failure);
        answer(&refusal)?;
        return match refusal.exit {
            0 => Ok(()),
            code => Err(Failure::Exit(code)),
        };
    }
    if let Failure::Core(_) = failure {
        ui.warn(&format!("git-checkpoint hook: {reason}"));
    }
    answer(&input.allow())
}

/// Print the answer's line, if it has one; a refusal's exit code is the caller's.
fn answer(reply: &Reply) -> Result<(), Failure> {
    if let Some(line) = &reply.stdout {
        let mut out = std::io::stdout().lock();
        // An agent that stopped listening is no reason to fail.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    }
    Ok(())
}

/// The directory to save: the agent's (from its input, else the project directory agents put
/// in the environment: Cursor's user-level hooks run from `~/.cursor`), else the current one.
fn directory(input: &HookInput) -> Option<PathBuf> {
    input.cwd.clone().filter(|d| d.is_dir()).or_else(|| {
        [
            "CURSOR_PROJECT_DIR",
            "CLAUDE_PROJECT_DIR",
            "GEMINI_PROJECT_DIR",
        ]
        .iter()
        .filter_map(std::env::var_os)
        .map(PathBuf::from)
        .find(|d| d.is_dir())
    })
}

fn hook_save(
    ui: &Ui,
    args: Args,
    input: &HookInput,
    policy: &mut HookFailure,
) -> Result<(), Failure> {
    // A plain directory gets its private store, as a save there does.
    let dir = match directory(input) {
        Some(dir) => dir,
        None => super::cwd()?,
    };
    let checkpoints = super::open_creating(ui, &dir, args.force, true)?;
    *policy = checkpoints.settings().hook_failure;
    let mut options = input.save_options(checkpoints.workdir());
    // A message given on the command line is the user's: like a name or a pin, it is recorded
    // even when nothing changed. The hook's own description of the tool call is not.
    if args.message.is_some() {
        options.message = args.message;
        options.generated_message = false;
    }
    options.name = args.name;
    options.kind = args.kind.or(options.kind);
    options.session = args.session.or(options.session);
    options.pin = args.pin;
    options.allow_empty = args.allow_empty;
    for (key, value) in args.meta {
        options.meta.insert(key, value.into());
    }
    // The agent's transcript as it is now, kept with the checkpoint (never failing the save:
    // one that cannot be kept is left out, and the note says why).
    let home = std::env::home_dir();
    let copilot_home = std::env::var_os("COPILOT_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|home| home.join(".copilot")));
    let cursor_home = home.as_ref().map(|home| home.join(".cursor"));
    if checkpoints.settings().conversation
        && let Some(transcript) =
            input.transcript_file(copilot_home.as_deref(), cursor_home.as_deref())
    {
        options.conversation = Some(git_checkpoint::ConversationInput::from_transcript(
            &transcript,
            options.agent.as_deref(),
        ));
    }
    let outcome = checkpoints.save(&options, &Control::default())?;
    // Quiet as a hook is, a restore it completed (or could not) is said, whatever -q says.
    if let Some(done) = &outcome.interrupted_restore {
        notices::report_completed(ui, done);
    }
    Ok(())
}

/// The hook's JSON from stdin, at most [`MAX_HOOK_INPUT`] bytes; nothing when stdin is a
/// terminal (someone trying the command by hand).
fn read_hook_input() -> Result<Vec<u8>, String> {
    let stdin = std::io::stdin();
    if std::io::IsTerminal::is_terminal(&stdin) {
        return Ok(Vec::new());
    }
    let mut bytes = Vec::new();
    let mut lock = stdin.lock();
    (&mut lock)
        .take(MAX_HOOK_INPUT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the hook input: {e}"))?;
    if bytes.len() > MAX_HOOK_INPUT {
        // Drain the rest so that the agent's write does not fail; a truncation is not parsed.
        let _ = std::io::copy(&mut lock, &mut std::io::sink());
        return Err(format!(
            "the hook input is larger than {}",
            human_size(MAX_HOOK_INPUT as u64)
        ));
    }
    Ok(bytes)
}
