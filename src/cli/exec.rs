//! `git checkpoint exec`: a checkpoint, a command, another checkpoint, and what changed.

use std::ffi::OsString;
use std::io;
use std::process::ExitStatus;

use git_checkpoint::{
    Checkpoint, Checkpoints, Error, RestoreOptions, Restored, SaveOptions, Summary,
};

use super::Failure;
use super::notices;
use super::output::Ui;

/// Save a checkpoint, run a command, save another checkpoint, and print on stderr what the
/// command changed and how to undo it. Exits with the command's own exit code (see
/// [`EXIT_STATUS`], shown by `--help` with examples).
///
/// The command runs in the current directory with stdin, stdout and stderr as they are;
/// git checkpoint itself prints only on stderr.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXIT_STATUS)]
pub struct Args {
    /// A name for the checkpoint before the command (always a new checkpoint, so the name
    /// finds it).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The kind of both checkpoints.
    #[arg(long, value_name = "KIND", default_value = "exec")]
    kind: String,
    /// The message of the checkpoint before the command [default: before: <CMD...>].
    #[arg(short, long, value_name = "MSG")]
    message: Option<String>,
    /// When the command fails (a non-zero exit, or killed by a signal), restore the checkpoint
    /// taken before it; that restore is undoable as usual.
    #[arg(long)]
    restore_on_failure: bool,
    /// Print nothing on stderr but errors (the command's own output is not affected).
    #[arg(short, long)]
    quiet: bool,
    /// The command and its arguments, after `--`.
    #[arg(
        value_name = "CMD",
        required = true,
        num_args = 1..,
        trailing_var_arg = true,
        value_hint = clap::ValueHint::CommandWithArguments
    )]
    command: Vec<OsString>,
}

const EXIT_STATUS: &str = "\
Examples:
  git checkpoint exec -- ./scripts/codemod.sh src/
  git checkpoint exec --restore-on-failure -- cargo fix --allow-dirty
  git checkpoint exec --name before-migration -- ./migrate.sh

Exit status: the command's own; 128+N when signal N killed it; 127 when the command is
not found and 126 when it cannot be run (nothing ran); 1 when the checkpoint before it
cannot be saved (the command is not run); 2 for a usage error.

Signals: while the command runs, SIGINT and SIGQUIT (which the terminal sends to the
command too) do not stop git checkpoint, and SIGTERM and SIGHUP are passed on to the
command. The checkpoint after it is saved however it ended.";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let Some(program) = args.command.first() else {
        return Err(Error::InvalidInput("no command to run".into()).into());
    };
    let line = command_line(&args.command);
    let argv: Vec<serde_json::Value> = args
        .command
        .iter()
        .map(|a| a.to_string_lossy().into_owned().into())
        .collect();
    // Before: with --name or -m always a new checkpoint, so that what the user asked to record
    // is recorded (and the name finds this one); otherwise an unchanged working tree reuses the
    // newest checkpoint.
    let before = super::cwd()
        .and_then(|dir| super::open_creating(ui, &dir, false, false))
        .and_then(|checkpoints| {
            let saved = checkpoints.save(
                &SaveOptions {
                    generated_message: args.message.is_none(),
                    message: Some(args.message.unwrap_or_else(|| format!("before: {line}"))),
                    name: args.name.clone(),
                    kind: Some(args.kind.clone()),
                    meta: meta(&argv, None),
                    ..SaveOptions::default()
                },
                &ui.ctl,
            )?;
            Ok((checkpoints, saved))
        });
    let (mut checkpoints, before) = match before {
        Ok(opened_and_saved) => opened_and_saved,
        // exec has no --force: the way on is a first save that has one.
        Err(Failure::Core(err @ git_checkpoint::Error::RefusedDirectory { .. })) => {
            ui.error(&err.to_string());
            ui.hint(
                "run it in a project's directory; to checkpoint all of this one anyway, make its first checkpoint with `git checkpoint save --force`, then run exec again",
            );
            ui.hint(&format!("`{line}` was not run"));
            return Err(Failure::Exit(1));
        }
        Err(failure) => {
            super::report(ui, &failure);
            ui.hint(&format!("`{line}` was not run"));
            return Err(Failure::Exit(1));
        }
    };
    if let Some(done) = &before.interrupted_restore {
        notices::report_completed(ui, done);
    }
    notices::housekeeping(ui, &before.housekeeping, args.quiet);
    let before = before.checkpoint().clone();
    if !args.quiet {
        notices::warn_skipped(ui, &before.meta.skipped);
    }

    let ending = match run_command(&args.command) {
        Ok(ending) => ending,
        Err(RunError::Start(err)) => {
            ui.error(&format!(
                "cannot run `{}`: {err}",
                quote(&program.to_string_lossy())
            ));
            let code = if err.kind() == io::ErrorKind::NotFound {
                127
            } else {
                126
            };
            return Err(Failure::Exit(code));
        }
        Err(RunError::Other(err)) => return Err(err.into()),
    };

    // The command may have changed the configuration, the index, HEAD: read the repository
    // anew (from the top of the working tree, in case it removed the current directory). If
    // that fails, the repository as it was opened is used.
    let _ = checkpoints.reload();
    let after = checkpoints.save_keeping(
        &SaveOptions {
            message: Some(format!("after: {line} ({ending})")),
            generated_message: true,
            kind: Some(args.kind.clone()),
            meta: meta(&argv, Some(ending)),
            ..SaveOptions::default()
        },
        &[&before.id],
        &ui.ctl,
    );
    let restore = args.restore_on_failure && ending.failed();
    match &after {
        Ok(outcome) => {
            let after = outcome.checkpoint();
            notices::housekeeping(ui, &outcome.housekeeping, args.quiet);
            if !args.quiet {
                notices::warn_skipped(
                    ui,
                    after
                        .meta
                        .skipped
                        .iter()
                        .filter(|s| !before.meta.skipped.contains(s)),
                );
                match checkpoints.summary(&before, after) {
                    Ok(summary) => ui.info(&summary_line(&before.id, &after.id, summary, !restore)),
                    Err(err) => ui.warn(&format!(
                        "cannot compare checkpoints {} and {}: {err}",
                        before.id, after.id
                    )),
                }
            }
        }
        Err(err) if !args.quiet => ui.warn(&format!(
            "cannot save the checkpoint after the command: {err}; the one before it is {}{}",
            before.id,
            if restore {
                String::new()
            } else {
                format!(" (undo with: git checkpoint restore {})", before.id)
            }
        )),
        Err(_) => {}
    }

    if restore {
        restore_before(ui, &checkpoints, &before, ending, args.quiet);
    }
    match ending.exit_code() {
        0 => Ok(()),
        code => Err(Failure::Exit(code)),
    }
}

/// The note's `meta`: the command, and how it ended.
fn meta(
    argv: &[serde_json::Value],
    ending: Option<Ending>,
) -> serde_json::Map<String, serde_json::Value> {
    let mut meta = serde_json::Map::new();
    meta.insert("command".into(), argv.to_vec().into());
    match ending {
        Some(Ending::Exited(code)) => {
            meta.insert("exit_code".into(), code.into());
        }
        Some(Ending::Signaled(signal)) => {
            meta.insert("signal".into(), signal.into());
        }
        None => {}
    }
    meta
}

/// `exec: 3 modified, 1 added, 2 deleted (checkpoints A → B); undo with: …`, or
/// `exec: no files changed`.
fn summary_line(before: &str, after: &str, summary: Summary, with_undo: bool) -> String {
    if summary.changed() == 0 {
        return "exec: no files changed".into();
    }
    let counts: Vec<String> = [
        (summary.modified, "modified"),
        (summary.added, "added"),
        (summary.deleted, "deleted"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    let mut line = format!(
        "exec: {} (checkpoints {before} → {after})",
        counts.join(", ")
    );
    if with_undo {
        line.push_str(&format!("; undo with: git checkpoint restore {before}"));
    }
    line
}

/// `--restore-on-failure`: put the working tree back as it was before the command, and say how
/// to take that back. A refusal or failure is reported; the exit code stays the command's.
fn restore_before(
    ui: &Ui,
    checkpoints: &Checkpoints,
    before: &Checkpoint,
    ending: Ending,
    quiet: bool,
) {
    let id = &before.id;
    match checkpoints.restore(before, &RestoreOptions::default(), &ui.ctl) {
        Ok(restored) => {
            if !quiet {
                ui.info(&restored_line(id, ending, &restored));
                notices::warn_kept_and_head(ui, &restored);
            }
            for path in &restored.plan.left_alone {
                ui.warn(&format!(
                    "left `{path}` as it is: it changed while the restore ran; `git checkpoint restore {id}` replaces it too"
                ));
            }
            notices::housekeeping(ui, &restored.housekeeping, quiet);
        }
        Err(err) => {
            ui.error(&format!(
                "the command failed ({ending}), and restoring checkpoint {id} failed: {err}"
            ));
            ui.hint(&restore_hint(&err, id));
        }
    }
}

fn restored_line(id: &str, ending: Ending, restored: &Restored) -> String {
    let failed = format!("exec: the command failed ({ending})");
    if restored.plan.is_empty() {
        return format!(
            "{failed}; its files are as before it (checkpoint {id}): nothing to restore"
        );
    }
    match &restored.safety {
        Some(safety) => format!(
            "{failed}; restored checkpoint {id}; undo with: git checkpoint restore {}",
            safety.checkpoint().id
        ),
        None => format!("{failed}; restored checkpoint {id}"),
    }
}

/// What to do when the restore after a failed command did not happen.
fn restore_hint(err: &Error, id: &str) -> String {
    match err {
        Error::InTheWay { no_save: false, .. } => format!(
            "the command's changes are still in place; `git checkpoint restore {id} --force` restores anyway, keeping those ignored files in its pre-restore checkpoint"
        ),
        Error::OperationInProgress(_) => format!(
            "the command's changes are still in place; once that is finished or aborted, run `git checkpoint restore {id}`, or now: `git checkpoint restore {id} --force`"
        ),
        Error::RestoreFailed {
            rolled_back: false, ..
        } => format!(
            "`git checkpoint restore @` brings back the state the command left; `git checkpoint restore {id}` tries again"
        ),
        _ => format!(
            "the command's changes are still in place; to try again: `git checkpoint restore {id}`"
        ),
    }
}

/// How the command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// It exited with this code.
    Exited(i32),
    /// This signal killed it (only on Unix: elsewhere a process ends with an exit code).
    #[cfg_attr(not(unix), allow(dead_code))]
    Signaled(i32),
}

impl Ending {
    fn of(status: ExitStatus) -> Ending {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            if let Some(signal) = status.signal() {
                return Ending::Signaled(signal);
            }
        }
        Ending::Exited(status.code().unwrap_or(1))
    }

    fn failed(self) -> bool {
        self != Ending::Exited(0)
    }

    /// The exit code to pass on: the command's, or 128+N for signal N, as shells do.
    fn exit_code(self) -> u8 {
        match self {
            // Codes that do not fit (on Windows) must not turn into success.
            Ending::Exited(code) => u8::try_from(code).unwrap_or(1),
            Ending::Signaled(signal) => u8::try_from(128 + signal).unwrap_or(255),
        }
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Ending::Exited(code) => write!(f, "exit {code}"),
            Ending::Signaled(signal) => match signal_name(signal) {
                Some(name) => write!(f, "killed by {name}"),
                None => write!(f, "killed by signal {signal}"),
            },
        }
    }
}

#[cfg(unix)]
fn signal_name(signal: i32) -> Option<&'static str> {
    use signal_hook::consts::signal::*;
    Some(match signal {
        SIGHUP => "SIGHUP",
        SIGINT => "SIGINT",
        SIGQUIT => "SIGQUIT",
        SIGABRT => "SIGABRT",
        SIGKILL => "SIGKILL",
        SIGSEGV => "SIGSEGV",
        SIGPIPE => "SIGPIPE",
        SIGTERM => "SIGTERM",
        _ => return None,
    })
}

#[cfg(not(unix))]
fn signal_name(_: i32) -> Option<&'static str> {
    None
}

enum RunError {
    /// The command could not be started: nothing ran.
    Start(io::Error),
    /// Anything else.
    Other(Error),
}

/// Run the command with this process's stdin, stdout, stderr and current directory, passing
/// signals on (see [`signals`]), and wait for it.
fn run_command(argv: &[OsString]) -> Result<Ending, RunError> {
    let Some((program, rest)) = argv.split_first() else {
        return Err(RunError::Other(Error::InvalidInput(
            "no command to run".into(),
        )));
    };
    let io_error = |context: &str| {
        let context = context.to_string();
        move |source| RunError::Other(Error::Io { context, source })
    };
    let guard = signals::Guard::install().map_err(io_error("cannot set up signal handling"))?;
    let mut child = std::process::Command::new(program)
        .args(rest)
        .spawn()
        .map_err(RunError::Start)?;
    guard.started(&child);
    let status = guard
        .wait(&mut child)
        .map_err(io_error("cannot wait for the command"))?;
    Ok(Ending::of(status))
}

/// Signals while the command runs. The terminal sends SIGINT (Ctrl-C) and SIGQUIT to the whole
/// foreground process group, so the command gets them itself; this process only must not die
/// of them before it has saved the checkpoint after. SIGTERM and SIGHUP are sent to this
/// process alone (by `kill`, a service manager, a closing terminal): they are passed on.
///
/// signal-hook installs handlers (not `SIG_IGN`, which the command would inherit: a handled
/// signal is reset to its default in the command). They stay installed until this process
/// ends, so it is not interrupted while it saves the checkpoint after the command or restores.
#[cfg(unix)]
mod signals {
    use std::io;
    use std::process::{Child, ExitStatus};
    use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

    use rustix::process::{Pid, Signal, kill_process};
    use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    use signal_hook::iterator::{Handle, Signals};

    /// Where the command is, for the thread that passes signals on.
    enum State {
        /// Being started; a signal that came meanwhile, to pass on once it runs.
        Starting(Option<Signal>),
        /// Running, or exited but not reaped yet (so its pid cannot be anyone else's).
        Running(Pid),
        /// Reaped: there is no one to pass a signal to.
        Done,
    }

    pub struct Guard {
        state: Arc<Mutex<State>>,
        handle: Handle,
        thread: Option<std::thread::JoinHandle<()>>,
    }

    fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
        state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    impl Guard {
        /// Handle SIGINT, SIGQUIT, SIGTERM and SIGHUP from now on.
        pub fn install() -> io::Result<Guard> {
            let mut signals = Signals::new([SIGINT, SIGQUIT, SIGTERM, SIGHUP])?;
            let handle = signals.handle();
            let state = Arc::new(Mutex::new(State::Starting(None)));
            let shared = Arc::clone(&state);
            let thread = std::thread::Builder::new()
                .name("signals".into())
                .spawn(move || {
                    for signal in signals.forever() {
                        let signal = match signal {
                            SIGTERM => Signal::TERM,
                            SIGHUP => Signal::HUP,
                            _ => continue,
                        };
                        let mut state = lock(&shared);
                        match &mut *state {
                            State::Starting(pending) => *pending = Some(signal),
                            State::Running(pid) => {
                                let _ = kill_process(*pid, signal);
                            }
                            State::Done => {}
                        }
                    }
                })?;
            Ok(Guard {
                state,
                handle,
                thread: Some(thread),
            })
        }

        /// The command runs: pass on what came while it was being started.
        pub fn started(&self, child: &Child) {
            let pid = Pid::from_child(child);
            let mut state = lock(&self.state);
            if let State::Starting(Some(signal)) = *state {
                let _ = kill_process(pid, signal);
            }
            *state = State::Running(pid);
        }

        /// Wait for the command to end. It is reaped only once no signal can be sent to its pid
        /// any more.
        pub fn wait(mut self, child: &mut Child) -> io::Result<ExitStatus> {
            wait_unreaped(child);
            *lock(&self.state) = State::Done;
            let status = child.wait();
            self.stop();
            status
        }

        fn stop(&mut self) {
            self.handle.close();
            if let Some(thread) = self.thread.take() {
                let _ = thread.join();
            }
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            self.stop();
        }
    }

    /// Block until `child` has exited, leaving it unreaped.
    #[cfg(not(any(
        target_os = "openbsd",
        target_os = "cygwin",
        target_os = "horizon",
        target_os = "redox"
    )))]
    fn wait_unreaped(child: &Child) {
        use rustix::process::{WaitId, WaitIdOptions, waitid};
        let pid = Pid::from_child(child);
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT;
        while let Err(rustix::io::Errno::INTR) = waitid(WaitId::Pid(pid), options) {}
    }

    /// Without `waitid`, the pid may be reused in the instant between reaping and `Done`.
    #[cfg(any(
        target_os = "openbsd",
        target_os = "cygwin",
        target_os = "horizon",
        target_os = "redox"
    ))]
    fn wait_unreaped(_: &Child) {}
}

/// Without unix signals there is nothing to pass on: wait.
#[cfg(not(unix))]
mod signals {
    use std::io;
    use std::process::{Child, ExitStatus};

    pub struct Guard;

    impl Guard {
        pub fn install() -> io::Result<Guard> {
            Ok(Guard)
        }

        pub fn started(&self, _: &Child) {}

        pub fn wait(self, child: &mut Child) -> io::Result<ExitStatus> {
            child.wait()
        }
    }
}

/// The command line as a shell would read it back, on one line: arguments quoted where needed
/// (`'…'`), control characters escaped (`$'…'`).
fn command_line(argv: &[OsString]) -> String {
    argv.iter()
        .map(|a| quote(&a.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn quote(arg: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !arg.is_empty() && arg.chars().all(plain) {
        return arg.to_string();
    }
    if !arg.chars().any(char::is_control) {
        return format!("'{}'", arg.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for c in arg.chars() {
        match c {
            '\n' => out.push_str(r"\n"),
            '\t' => out.push_str(r"\t"),
            '\r' => out.push_str(r"\r"),
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            c if c.is_control() && u32::from(c) < 0x80 => {
                out.push_str(&format!(r"\x{:02x}", u32::from(c)));
            }
            c if c.is_control() => out.push_str(&format!(r"\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_read_back_in_a_shell() {
        let line =
            |args: &[&str]| command_line(&args.iter().map(OsString::from).collect::<Vec<_>>());
        assert_eq!(line(&["cargo", "test", "--", "-q"]), "cargo test -- -q");
        assert_eq!(line(&["sh", "-c", "exit 3"]), "sh -c 'exit 3'");
        assert_eq!(line(&["echo", "it's", ""]), r"echo 'it'\''s' ''");
        assert_eq!(line(&["printf", "a\nb\\'\x01"]), r"printf $'a\nb\\\'\x01'");
        assert_eq!(line(&["x=1", "a@b:c/d.e,f+g%"]), "x=1 a@b:c/d.e,f+g%");
        assert_eq!(line(&["~", "*", "$HOME", "é"]), "'~' '*' '$HOME' 'é'");
    }

    #[test]
    fn endings_map_to_shell_exit_codes() {
        assert_eq!(Ending::Exited(0).exit_code(), 0);
        assert!(!Ending::Exited(0).failed());
        assert_eq!(Ending::Exited(42).exit_code(), 42);
        assert!(Ending::Exited(42).failed());
        assert_eq!(Ending::Exited(-1).exit_code(), 1);
        assert_eq!(Ending::Exited(256).exit_code(), 1);
        assert_eq!(Ending::Signaled(15).exit_code(), 143);
        assert!(Ending::Signaled(15).failed());
        assert_eq!(Ending::Exited(3).to_string(), "exit 3");
        #[cfg(unix)]
        assert_eq!(Ending::Signaled(15).to_string(), "killed by SIGTERM");
        assert_eq!(Ending::Signaled(200).to_string(), "killed by signal 200");
    }

    #[test]
    fn summary_line_counts_only_what_changed() {
        let s = |modified, added, deleted| Summary {
            added,
            modified,
            deleted,
        };
        assert_eq!(
            summary_line("A", "B", s(3, 1, 2), true),
            "exec: 3 modified, 1 added, 2 deleted (checkpoints A → B); undo with: git checkpoint restore A"
        );
        assert_eq!(
            summary_line("A", "B", s(0, 1, 0), false),
            "exec: 1 added (checkpoints A → B)"
        );
        assert_eq!(
            summary_line("A", "A", s(0, 0, 0), true),
            "exec: no files changed"
        );
    }
}
