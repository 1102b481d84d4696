//! The command line: clap definitions, rendering, colour, JSON and exit codes. The only part of
//! git-checkpoint that writes to the terminal.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use git_checkpoint::{Checkpoints, Control, OpenOptions};

mod agents;
mod completions;
mod diff;
mod diffargs;
mod drop;
mod du;
mod exec;
mod fetch;
mod generate;
mod hook;
mod hooks;
mod install_docs;
mod interactive;
mod list;
mod mcp;
mod notices;
mod output;
mod picker;
mod pin;
mod prune;
mod push;
mod redo;
mod render;
mod repair;
mod restore;
mod restoring;
mod revert;
mod save;
mod serve;
mod show;
mod stat;
mod stores;
mod undo;

pub use output::ColorChoice;
use output::Ui;

/// Cheap, complete snapshots of a git working tree, and a safe way back.
///
/// Each checkpoint is a commit on a hidden ref `refs/checkpoints/<id>` with its metadata in a
/// git note (`refs/notes/checkpoints`). Your branch, index and stash are never touched.
#[derive(Debug, Parser)]
#[command(
    name = "git-checkpoint",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_help = AFTER_HELP
)]
pub struct Cli {
    /// When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb).
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    color: ColorChoice,

    /// The store to keep checkpoints in: a git directory (made when missing) whose working
    /// tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git
    /// repository. Outside any repository, without it, a private store under
    /// ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used.
    #[arg(long, global = true, value_name = "PATH")]
    store: Option<std::path::PathBuf>,

    #[command(subcommand)]
    command: Command,
}

/// Said after the top-level help: git answers `git checkpoint --help` with the man page, which
/// must be installed first.
const AFTER_HELP: &str = "\
`git checkpoint <COMMAND> -h` shows a command's help, `git checkpoint help <COMMAND>` its long help.
`git checkpoint --help` is git's: it opens the man page, which `git checkpoint install-docs` installs.";

#[derive(Debug, Subcommand)]
enum Command {
    /// Snapshot the working tree now and print the checkpoint's id.
    Save(save::Args),
    /// List checkpoints, newest first.
    ///
    /// One a line: id, age, commit, kind, the files it changed since HEAD (+added ~modified
    /// -deleted; in a plain directory, which has no HEAD, since an empty directory: every file
    /// it holds counts as added), and its name or message. Shows the checkpoints taken in this
    /// worktree; --all shows every worktree's.
    #[command(visible_alias = "ls")]
    List(list::Args),
    /// Show a checkpoint's metadata and what it changed relative to its HEAD.
    ///
    /// The metadata, then a --stat (or with -p the patch, or --numstat, --name-status,
    /// --name-only) of what it changed relative to the HEAD it was taken on (with -- PATHS, in
    /// those paths only). A plain directory has no HEAD: there, everything it holds, against an
    /// empty directory (`git checkpoint diff @{1} @` shows what one save changed). On a
    /// terminal the output goes through git's pager.
    Show(show::Args),
    /// Show changes between checkpoints, or a checkpoint and the working tree, as a patch.
    Diff(diff::Args),
    /// Make the working tree equal to a checkpoint; undoable.
    Restore(restore::Args),
    /// Take back the last thing that happened to the working tree; undoable.
    Undo(undo::Args),
    /// Take back the last undo; undoable.
    Redo(redo::Args),
    /// Take back one step's change (A to B), keeping everything changed since; undoable.
    Revert(revert::Args),
    /// Delete checkpoints (refs and notes).
    Drop(drop::Args),
    /// Apply the retention policy now.
    Prune(prune::Args),
    /// Pin a checkpoint: it is never pruned.
    Pin(pin::Args),
    /// Unpin a checkpoint.
    Unpin(pin::Args),
    /// Push checkpoints and their notes to a remote (untracked files travel too).
    Push(push::Args),
    /// Fetch a remote's checkpoints and merge their notes; never overwrites one.
    Fetch(fetch::Args),
    /// Show what the checkpoints cost on disk, per kind, and the heaviest.
    Du(du::Args),
    /// Remove objects an earlier version wrote that git cannot read, keeping every checkpoint.
    Repair(repair::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::Args),
    /// Install the man page (for `git checkpoint --help`) and the bash, zsh and fish completions.
    InstallDocs(install_docs::Args),
    /// Run a command between two checkpoints; say what it changed and how to undo it.
    Exec(exec::Args),
    // `hooks` and `mcp` take their help, short and long, from their Args.
    Hooks(hooks::Args),
    Mcp(mcp::Args),
    /// Serve an HTTP API and a web page for the checkpoints (timeline, diffs, restore, undo).
    Serve(serve::Args),
    /// List the private stores of plain directories; --prune removes those whose directory is
    /// gone.
    Stores(stores::Args),
}

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// The library reported an error.
    Core(git_checkpoint::Error),
    /// Writing the output failed (a closed pipe is not an error worth reporting).
    Output(io::Error),
    /// Exit with this code, everything having been said already (`exec` passes on the exit
    /// code of the command it ran; a hook configured to block exits 2).
    Exit(u8),
}

impl From<git_checkpoint::Error> for Failure {
    fn from(err: git_checkpoint::Error) -> Self {
        Failure::Core(err)
    }
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Self {
        Failure::Output(err)
    }
}

/// Parse the command line, run it, and turn the outcome into an exit code:
/// 0 success, 1 error, 2 usage error.
pub fn run() -> ExitCode {
    ExitCode::from(run_with(None, std::env::args_os().collect()))
}

/// Run the command line `args` (the program's name first) in this process, as `run` does for
/// the process's own: the Python package's `git-checkpoint` console script. `program` is where
/// that command is installed (`install-docs` puts the manual beside it), when it is not this
/// executable. One command line runs at a time; another waits for it.
pub fn run_with(program: Option<std::path::PathBuf>, args: Vec<std::ffi::OsString>) -> u8 {
    let _running = RUNNING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *INVOCATION
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Invocation {
        args,
        program,
        store: None,
    };
    run_invocation()
}

/// The command line being run: its words, where its program is installed, and `--store`.
struct Invocation {
    args: Vec<std::ffi::OsString>,
    program: Option<std::path::PathBuf>,
    store: Option<std::path::PathBuf>,
}

static INVOCATION: std::sync::Mutex<Invocation> = std::sync::Mutex::new(Invocation {
    args: Vec::new(),
    program: None,
    store: None,
});

/// Held while a command line runs: its settings above are global.
static RUNNING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The command line's words (the program's name first).
fn command_line() -> Vec<std::ffi::OsString> {
    let invocation = INVOCATION
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    invocation.args.clone()
}

/// Where the running command is installed, when the Python package runs it in process.
pub(crate) fn installed_program() -> Option<std::path::PathBuf> {
    let invocation = INVOCATION
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    invocation.program.clone()
}

/// The store `--store` names, if given.
fn given_store() -> Option<std::path::PathBuf> {
    let invocation = INVOCATION
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    invocation.store.clone()
}

fn run_invocation() -> u8 {
    let cli = match Cli::try_parse_from(arguments()) {
        Ok(cli) => cli,
        Err(err) if err.use_stderr() && from_hook().is_some() => {
            // A hook must never stand in the agent's way, not even with flags (or an agent)
            // this version does not know.
            let message = err.to_string();
            let first = message.lines().next().unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("warning: git-checkpoint hook: no checkpoint was made: {first}");
            let agent = from_hook().flatten();
            if let Some(line) = git_checkpoint::hooks::HookInput::of_agent(agent)
                .allow()
                .stdout
            {
                println!("{line}");
            }
            return 0;
        }
        Err(mut err) => {
            suggest_command(&mut err);
            let _ = err.print();
            return if err.use_stderr() { 2 } else { 0 };
        }
    };
    if let Some(store) = cli.store {
        INVOCATION
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .store = Some(store);
    }
    let mut ui = Ui::new(cli.color);
    if std::io::IsTerminal::is_terminal(&io::stderr()) && !quiet_requested() {
        ui.ctl = Control::default().with_progress(&output::print_progress);
    }
    let result = match cli.command {
        Command::Save(args) => save::run(&ui, args),
        Command::List(args) => list::run(&ui, args),
        Command::Show(args) => show::run(&ui, cli.color, args),
        Command::Diff(args) => diff::run(&ui, cli.color, args),
        Command::Restore(args) => restore::run(&ui, args),
        Command::Undo(args) => undo::run(&ui, args),
        Command::Redo(args) => redo::run(&ui, args),
        Command::Revert(args) => revert::run(&ui, args),
        Command::Drop(args) => drop::run(&ui, args),
        Command::Du(args) => du::run(&ui, args),
        Command::Repair(args) => repair::run(&ui, args),
        Command::Prune(args) => prune::run(&ui, args),
        Command::Pin(args) => pin::run(&ui, args, true),
        Command::Unpin(args) => pin::run(&ui, args, false),
        Command::Push(args) => push::run(&ui, args),
        Command::Fetch(args) => fetch::run(&ui, args),
        Command::Completions(args) => completions::run(&ui, args),
        Command::InstallDocs(args) => install_docs::run(&ui, args),
        Command::Exec(args) => exec::run(&ui, args),
        Command::Hooks(args) => hooks::run(&ui, args),
        Command::Mcp(args) => mcp::run(&ui, args),
        Command::Serve(args) => serve::run(&ui, args),
        Command::Stores(args) => stores::run(&ui, args),
    };
    match result {
        Ok(()) => 0,
        Err(Failure::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(Failure::Exit(code)) => code,
        Err(failure) => {
            report(&ui, &failure);
            1
        }
    }
}

/// The command line, with git's spellings that clap cannot parse as git does put in a form it
/// can, by the verb whose arguments they are.
fn arguments() -> Vec<std::ffi::OsString> {
    let mut args = command_line();
    // The subcommand: the first word after the global options (`--color` takes a value).
    let mut at = 1;
    while let Some(arg) = args.get(at) {
        if arg == "--color" || arg == "--store" {
            at += 2;
        } else if arg.to_str().is_some_and(|a| a.starts_with('-')) {
            at += 1;
        } else {
            break;
        }
    }
    if args.get(at).is_some_and(|a| a == "diff" || a == "show") {
        diffargs::git_spellings(&mut args[at + 1..]);
    }
    args
}

/// For a command this tool does not have, suggest the one meant, by what the word means
/// (`create`, `record`, `snapshot` are a `save`) rather than by spelling alone: clap's guess by
/// similarity offered `restore`, which overwrites the working tree, for `create` and
/// `record`. A guess by spelling is kept only when it changes nothing, or when the word is a
/// typo of it (two letters off).
fn suggest_command(err: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if err.kind() != ErrorKind::InvalidSubcommand {
        return;
    }
    let Some(ContextValue::String(word)) = err.get(ContextKind::InvalidSubcommand).cloned() else {
        return;
    };
    const MEANT: &[(&[&str], &str, &str)] = &[
        (
            &[
                "create",
                "record",
                "snapshot",
                "snap",
                "new",
                "add",
                "commit",
                "take",
                "make",
                "checkpoint",
                "store",
                "stash",
                "backup",
                "mark",
            ],
            "save",
            "to make a checkpoint",
        ),
        (
            &[
                "rollback", "reset", "checkout", "back", "rewind", "load", "apply",
            ],
            "restore",
            "to bring a checkpoint back (a pre-restore checkpoint first; `undo` takes it back)",
        ),
        (
            &["log", "history", "status", "all"],
            "list",
            "to list the checkpoints",
        ),
        (
            &["delete", "remove", "rm", "del"],
            "drop",
            "to delete checkpoints",
        ),
        (
            &["gc", "clean", "cleanup"],
            "prune",
            "to apply the retention policy",
        ),
        (
            &["fsck", "fix", "doctor", "check"],
            "repair",
            "to repair what git cannot read",
        ),
        (&["info", "inspect", "view"], "show", "to show a checkpoint"),
        (&["compare", "changes"], "diff", "to compare"),
    ];
    let lower = word.to_ascii_lowercase();
    let tip = MEANT
        .iter()
        .find(|(words, _, _)| words.contains(&lower.as_str()))
        .map(|(_, verb, why)| format!("{why}: 'git checkpoint {verb}'"));
    let guessed = match err.get(ContextKind::SuggestedSubcommand) {
        Some(ContextValue::String(one)) => vec![one.clone()],
        Some(ContextValue::Strings(many)) => many.clone(),
        _ => Vec::new(),
    };
    const CHANGES_FILES: &[&str] = &["restore", "undo", "redo", "revert", "exec", "drop", "prune"];
    let kept: Vec<String> = guessed
        .into_iter()
        .filter(|g| !CHANGES_FILES.contains(&g.as_str()) || typo_of(&lower, g))
        .collect();
    let tips: Vec<String> = match tip {
        Some(tip) => vec![tip],
        None if kept.is_empty() => vec!["'git checkpoint -h' lists the commands".to_string()],
        None => vec![format!(
            "a similar command exists: {}",
            kept.iter()
                .map(|k| format!("'{k}'"))
                .collect::<Vec<_>>()
                .join(", ")
        )],
    };
    // Replaced, not added to: the context kinds are a list.
    let mut fresh = clap::Error::new(ErrorKind::InvalidSubcommand).with_cmd(&Cli::command());
    fresh.insert(ContextKind::InvalidSubcommand, ContextValue::String(word));
    fresh.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(tips.into_iter().map(Into::into).collect()),
    );
    if let Some(usage) = err.get(ContextKind::Usage).cloned() {
        fresh.insert(ContextKind::Usage, usage);
    }
    *err = fresh;
}

/// Whether `word` is `verb` mistyped: at most two letters off.
fn typo_of(word: &str, verb: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (word.chars().collect(), verb.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()] <= 2
}

/// `--from-hook` (`Some(None)`) or `--from-hook=<AGENT>` on the command line, read without
/// clap (for when clap refuses the command line).
fn from_hook() -> Option<Option<git_checkpoint::hooks::Agent>> {
    command_line()
        .into_iter()
        .take_while(|a| a != "--")
        .find_map(|a| {
            let a = a.to_str()?;
            if a == "--from-hook" {
                return Some(None);
            }
            a.strip_prefix("--from-hook=")
                .map(git_checkpoint::hooks::Agent::from_name)
        })
}

/// Whether `-q`/`--quiet` is on the command line before any `--` (progress is then not
/// shown; what follows `--` are paths, or the command that `exec` runs).
fn quiet_requested() -> bool {
    // `args_os`: an argument that is not UTF-8 (a file name, an exec'd command's) is fine.
    command_line()
        .into_iter()
        .take_while(|a| a != "--")
        .any(|a| a == "-q" || a == "--quiet" || a == "--json")
}

/// Print `error: …` (one line) and a hint where one helps.
pub(crate) fn report(ui: &Ui, failure: &Failure) {
    use git_checkpoint::Error;
    let mut stderr = io::stderr().lock();
    let message = match failure {
        Failure::Core(err) => one_line(&err.to_string()),
        Failure::Output(err) => format!("cannot write the output: {err}"),
        Failure::Exit(_) => return,
    };
    let _ = writeln!(stderr, "{} {message}", ui.err_paint.error("error:"));
    let hint = match failure {
        Failure::Core(Error::Locked(path)) => Some(format!(
            "if no git process is running in this repository, remove the lock file and try again: rm '{}'",
            path.display()
        )),
        // Nothing is saved in a bare repository: checkpoints come to it from elsewhere.
        Failure::Core(Error::NoCheckpoints) if bare_here() => Some(
            "checkpoints come to a bare repository with `git checkpoint push` from a clone, or with `git checkpoint fetch` here".into(),
        ),
        Failure::Core(Error::NoOwnCheckpoints(_)) if bare_here() => Some(
            "`git checkpoint list --all` lists them: name one by its id (`@` counts only checkpoints pushed here, not fetched ones)".into(),
        ),
        Failure::Core(Error::Removed(removed)) if removed.recoverable => Some(format!(
            "its commit is still in the repository until `git gc` collects it: `git update-ref refs/checkpoints/{} {}` brings it back (without its note); `git checkpoint pin` keeps a checkpoint from being pruned",
            removed.id, removed.commit
        )),
        Failure::Core(Error::Removed(_)) => Some(
            "`git checkpoint pin` keeps a checkpoint from being pruned; checkpoint.keep, checkpoint.<kind>.keep and checkpoint.minAge decide what retention keeps".into(),
        ),
        // A tree that cannot be parsed: an earlier version wrote such trees next to an
        // embedded repository of the other object format.
        Failure::Core(Error::Git { context, .. })
            if context.starts_with("cannot decode tree") || context.starts_with("cannot read tree") =>
        {
            Some("if `git fsck` calls that tree a badTree, an earlier git-checkpoint wrote it: `git checkpoint repair` rewrites it and keeps the checkpoint".into())
        }
        failure => static_hint(failure).map(str::to_string),
    };
    if let Some(hint) = hint {
        let _ = writeln!(stderr, "{} {hint}", ui.err_paint.hint("hint:"));
    }
}

/// Whether the current directory is in a bare repository (said when a failure's usual hint,
/// making a checkpoint, cannot work there).
fn bare_here() -> bool {
    open().is_ok_and(|checkpoints| checkpoints.is_bare())
}

/// The hints that do not depend on the error's details.
fn static_hint(failure: &Failure) -> Option<&'static str> {
    use git_checkpoint::{Error, UndoEnd};
    match failure {
        Failure::Core(Error::NotesDamaged(_)) => Some(
            "the checkpoints are intact and still listed; repair the notes ref, or move it aside to start new notes: git update-ref refs/notes/checkpoints-damaged refs/notes/checkpoints && git update-ref -d refs/notes/checkpoints",
        ),
        Failure::Core(Error::NoCheckpoints) => Some("make one with `git checkpoint save`"),
        Failure::Core(Error::NothingToUndo(UndoEnd::NoCheckpoints | UndoEnd::NoOwnCheckpoints)) => {
            Some(
                "make one with `git checkpoint save` before a change; `git checkpoint undo` then takes the change back",
            )
        }
        Failure::Core(Error::NothingToUndo(UndoEnd::WalkedThrough)) => Some(
            "`git checkpoint redo` walks forward again; `git checkpoint list` lists every checkpoint, which `git checkpoint restore <CP>` brings back",
        ),
        Failure::Core(Error::NoOwnCheckpoints(_)) => Some(
            "make one with `git checkpoint save`; `git checkpoint list --all` lists the others, which their ids name",
        ),
        Failure::Core(Error::NoWorkingTree(_)) => Some(
            "in a bare repository, list, show, diff between two checkpoints, drop, prune, pin, unpin, du, push and fetch work; save, restore, undo, redo, revert, exec and diff against the working tree need one",
        ),
        Failure::Core(Error::UnknownCheckpoint(_) | Error::PositionOutOfRange { .. }) => Some(
            "run `git checkpoint list` to see the checkpoints of this worktree (`--all` for every worktree)",
        ),
        Failure::Core(Error::AmbiguousCheckpoint { .. }) => {
            Some("give more characters of the id, or the full id")
        }
        Failure::Core(Error::NotARepository(_)) => {
            Some("run git checkpoint inside a git working tree, or create one with `git init`")
        }
        Failure::Core(Error::NoStore(_)) => Some(
            "make the first with `git checkpoint save`: a plain directory's checkpoints are kept in a private store (`git checkpoint stores` lists them)",
        ),
        // Only `save` (and `save --from-hook`) reach it here, and both take --force; `exec`
        // says its own.
        Failure::Core(Error::RefusedDirectory { .. }) => {
            Some("run it in a project's directory, or pass --force if you really mean all of it")
        }
        Failure::Core(Error::InTheWay { no_save: false, .. }) => Some(
            "move them away, or use --force: their content is kept in the pre-restore checkpoint, then replaced",
        ),
        Failure::Core(Error::InTheWay { no_save: true, .. }) => Some(
            "move them away, or restore without --no-save (then --force keeps them in the pre-restore checkpoint)",
        ),
        Failure::Core(Error::UnreadableFile { .. }) => {
            Some("fix the file's permissions, or ignore it in .gitignore; no checkpoint was made")
        }
        Failure::Core(Error::SecretsFound(_)) => Some(
            "remove them or add the files to .gitignore; allow a test fixture with `git config --add checkpoint.secretsAllow <path or rule>`; save this once anyway with `git -c checkpoint.secrets=warn checkpoint save`",
        ),
        _ => None,
    }
}

/// Keep an error message on one line.
fn one_line(message: &str) -> String {
    // Messages quote paths and names that may come from someone else's repository.
    output::printable(&message.replace(['\n', '\r'], " "), false)
}

/// The current directory.
fn cwd() -> Result<std::path::PathBuf, Failure> {
    std::env::current_dir().map_err(|source| {
        Failure::Core(git_checkpoint::Error::Io {
            context: "cannot read the current directory".into(),
            source,
        })
    })
}

/// How to open the checkpoints of a directory: the store `--store` or `GIT_CHECKPOINT_STORE`
/// names; `create` a plain directory's store when it has none (what saving needs); `force`
/// even for a home directory or a file system root.
fn open_options(create: bool, force: bool) -> OpenOptions {
    let mut options = OpenOptions::default();
    if let Some(store) = given_store() {
        options.store = Some(store);
    }
    options.create = create;
    options.force = force;
    options
}

/// Open the checkpoints of the repository (or plain directory) around the current directory,
/// for a command that only works with checkpoints already made: a plain directory without a
/// store is [`git_checkpoint::Error::NoStore`].
fn open() -> Result<Checkpoints, Failure> {
    let dir = cwd()?;
    let checkpoints = Checkpoints::open_with(&dir, &open_options(false, false))?;
    say_directory(&checkpoints, &dir);
    Ok(checkpoints)
}

/// In a plain directory, say which directory the command acts on when it is not `dir` itself
/// but a directory above it that has a store: everything below that one is its working tree,
/// and a restore or an undo there rewrites all of it. (In a git repository the working tree is
/// the repository's, as for git itself.) Said on stderr, unless quiet.
fn say_directory(checkpoints: &Checkpoints, dir: &std::path::Path) {
    let (Some(store), Some(there)) = (checkpoints.store(), checkpoints.acting_on(dir)) else {
        return;
    };
    if quiet_requested() || given_store().is_some() {
        return;
    }
    eprintln!(
        "{}",
        output::printable(
            &format!(
                "note: acting on `{}`, the directory above this one whose checkpoints are kept in `{}`",
                there.display(),
                store.display()
            ),
            true
        )
    );
}

/// Open the checkpoints of `dir` for a command that makes checkpoints: a plain directory's
/// store is made when missing (said once on stderr, unless `quiet`).
fn open_creating(
    ui: &Ui,
    dir: &std::path::Path,
    force: bool,
    quiet: bool,
) -> Result<Checkpoints, Failure> {
    let checkpoints = Checkpoints::open_with(dir, &open_options(true, force))?;
    say_directory(&checkpoints, dir);
    if checkpoints.store_created()
        && !quiet
        && let (Some(store), Some(workdir)) = (checkpoints.store(), checkpoints.workdir())
    {
        // A store named on the command line or in the environment is used wherever the
        // directory is, in a git repository too.
        let named = if given_store().is_some() {
            Some("--store")
        } else if std::env::var_os("GIT_CHECKPOINT_STORE").is_some_and(|v| !v.is_empty()) {
            Some("GIT_CHECKPOINT_STORE")
        } else {
            None
        };
        ui.info(&match named {
            Some(by) => format!(
                "the checkpoints of `{}` are kept in `{}`, a new store ({by} names it)",
                workdir.display(),
                store.display()
            ),
            None => format!(
                "`{}` is not in a git repository: its checkpoints are kept in `{}`",
                workdir.display(),
                store.display()
            ),
        });
    }
    Ok(checkpoints)
}

/// Turn paths given relative to the current directory into paths relative to the top of the
/// working tree.
fn repo_paths(
    checkpoints: &Checkpoints,
    paths: &[std::path::PathBuf],
) -> Result<Vec<gix::bstr::BString>, Failure> {
    Ok(checkpoints.paths_from(&cwd()?, paths)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
