//! The hook runner: `save --from-hook`, a save that reads an agent's hook input from stdin and
//! never stands in the agent's way.

use std::io::Read;

use git_checkpoint::{Checkpoints, Control, HookFailure};

use super::notices;
use super::output::Ui;
use super::render::human_size;
use super::{Failure, open};

/// The largest hook input read from stdin; the rest is drained and the input treated as
/// unreadable (a tool's input may carry a whole file's content).
const MAX_HOOK_INPUT: usize = 64 * 1024 * 1024;

/// What the command line adds to, or sets over, what the hook's input says.
#[derive(Debug, Default)]
pub struct Args {
    pub message: Option<String>,
    pub name: Option<String>,
    pub kind: Option<String>,
    pub session: Option<String>,
    pub pin: bool,
    pub allow_empty: bool,
    pub meta: Vec<(String, String)>,
}

/// `save --from-hook`: a save that never stands in an agent's way.
pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let mut policy = HookFailure::Warn;
    let result = hook_save(ui, args, &mut policy);
    match (result, policy) {
        (Ok(()), _) => Ok(()),
        (Err(failure), HookFailure::Block) => {
            super::report(ui, &failure);
            Err(Failure::Exit(2))
        }
        (Err(Failure::Core(err)), HookFailure::Warn) => {
            ui.warn(&format!(
                "git-checkpoint hook: no checkpoint was made: {err}"
            ));
            Ok(())
        }
        (Err(_), HookFailure::Warn) => Ok(()),
    }
}

fn hook_save(ui: &Ui, args: Args, policy: &mut HookFailure) -> Result<(), Failure> {
    let input = read_hook_input().and_then(|bytes| git_checkpoint::hooks::HookInput::parse(&bytes));
    let input = match input {
        Ok(input) => input,
        Err(why) => {
            // The checkpoint matters more than what the hook said about it.
            ui.warn(&format!("git-checkpoint hook: {why}; saving without it"));
            Default::default()
        }
    };
    let checkpoints = match input.cwd.as_deref().filter(|d| d.is_dir()) {
        Some(dir) => Checkpoints::open(dir)?,
        None => open()?,
    };
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
