//! `git checkpoint save`.

use std::io::{Read, Write};

use git_checkpoint::save::{SaveOptions, Saved};
use git_checkpoint::{Error, format};

use super::output::{Ui, checkpoint_json};
use super::{Failure, open_repo};

/// Snapshot the working tree: tracked files as they are on disk, and untracked files that are
/// not ignored. Nothing else changes: not HEAD, not the branch, not the index, not the stash.
///
/// Prints the new checkpoint's id. When nothing changed since this worktree's newest
/// checkpoint, no new one is made and that checkpoint's id is printed (unless --allow-empty).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A message describing the checkpoint.
    #[arg(short, long, value_name = "MSG")]
    message: Option<String>,
    /// A name to find the checkpoint by later (the newest of a name wins).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The kind: a short lowercase word such as manual (the default), auto or session.
    #[arg(long, value_name = "KIND")]
    kind: Option<String>,
    /// Free-form metadata stored in the note's "meta" object; repeatable.
    #[arg(long, value_name = "KEY=VALUE", value_parser = parse_key_value)]
    meta: Vec<(String, String)>,
    /// Metadata as a JSON object (merged into "meta"); `-` reads it from stdin.
    #[arg(long, value_name = "JSON")]
    meta_json: Option<String>,
    /// Pin the checkpoint: it is never pruned.
    #[arg(long)]
    pin: bool,
    /// Make a checkpoint even if nothing changed since the newest one.
    #[arg(long)]
    allow_empty: bool,
    /// Print nothing on stderr (the id is still printed on stdout).
    #[arg(short, long)]
    quiet: bool,
    /// Print the checkpoint's metadata as JSON instead of its id.
    #[arg(long)]
    json: bool,
    /// The agent session this checkpoint belongs to; `session:<ID>` then names the session's
    /// first checkpoint, and `list --session <ID>` lists them.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Run as an agent's hook: read the hook's JSON from stdin (session id, tool name, edited
    /// paths go into the note), kind auto (session for a session's start), print nothing, and
    /// never fail the agent: errors are warnings and exit 0, unless checkpoint.hookFailure is
    /// `block` (then exit 2).
    #[arg(long, conflicts_with_all = ["meta_json", "json"])]
    from_hook: bool,
}

fn parse_key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_string(), value.to_string())),
        _ => Err(format!("`{text}` is not KEY=VALUE")),
    }
}

fn meta_object(
    meta_json: Option<&str>,
    pairs: &[(String, String)],
) -> Result<serde_json::Map<String, serde_json::Value>, Error> {
    let mut meta = serde_json::Map::new();
    if let Some(text) = meta_json {
        let text = if text == "-" {
            let mut buf = String::new();
            std::io::stdin()
                .take(format::MAX_NOTE_BYTES as u64 / 2)
                .read_to_string(&mut buf)
                .map_err(|source| Error::Io {
                    context: "cannot read --meta-json from stdin".into(),
                    source,
                })?;
            buf
        } else {
            text.to_string()
        };
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(serde_json::Value::Object(map)) => meta = map,
            Ok(_) => {
                return Err(Error::InvalidInput(
                    "--meta-json must be a JSON object, like '{\"key\": \"value\"}'".into(),
                ));
            }
            Err(err) => {
                return Err(Error::InvalidInput(format!(
                    "--meta-json is not valid JSON: {err}"
                )));
            }
        }
    }
    for (key, value) in pairs {
        meta.insert(key.clone(), value.clone().into());
    }
    if serde_json::to_vec(&meta).map_or(0, |v| v.len()) > format::MAX_NOTE_BYTES / 2 {
        return Err(Error::InvalidInput(
            "the metadata is too large (keep it under 512 KiB)".into(),
        ));
    }
    Ok(meta)
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    if args.from_hook {
        return run_hook(ui, args);
    }
    let meta = meta_object(args.meta_json.as_deref(), &args.meta)?;
    let repo = open_repo()?;
    let outcome = git_checkpoint::save::save(
        &repo,
        &SaveOptions {
            message: args.message,
            name: args.name,
            kind: args.kind,
            meta,
            pin: args.pin,
            allow_empty: args.allow_empty,
            max_file_size: None,
            session: args.session,
        },
    )?;
    // A save that completed a killed restore changed files: that is said even with -q.
    if let Some(done) = &outcome.interrupted_restore {
        super::restore::report_completed(ui, done);
    }
    let saved = outcome.saved;
    let checkpoint = saved.checkpoint();
    if let Saved::Created(c) = &saved {
        after_save(ui, &repo, &[&c.id], args.quiet);
    }
    if !args.quiet {
        warn_skipped(ui, &checkpoint.meta.skipped);
        match &saved {
            Saved::Created(c) => {
                if let Some(problem) = &c.note_problem {
                    ui.warn(&format!(
                        "checkpoint {} was saved, but {problem}; it lists from what its commit records (its pin and --meta are not kept)",
                        c.id
                    ));
                }
                let s = c.meta.stats;
                ui.info(&format!(
                    "saved checkpoint {} ({} files; {} added, {} modified, {} deleted since HEAD)",
                    c.id, s.files, s.added, s.modified, s.deleted
                ));
            }
            Saved::Unchanged(c) => ui.info(&format!(
                "nothing changed since checkpoint {}; no new checkpoint made (--allow-empty makes one)",
                c.id
            )),
        }
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", checkpoint_json(checkpoint))?;
    } else {
        writeln!(out, "{}", checkpoint.id)?;
    }
    Ok(())
}

/// Warn about each path a save left out.
pub fn warn_skipped<'a>(ui: &Ui, skipped: impl IntoIterator<Item = &'a format::Skipped>) {
    for skipped in skipped {
        match skipped.size {
            Some(size) => ui.warn(&format!(
                "left out `{}`: {} is larger than checkpoint.maxFileSize",
                skipped.path,
                human_size(size)
            )),
            None => ui.warn(&format!(
                "left out `{}`: an embedded repository without any commit",
                skipped.path
            )),
        }
    }
}

/// The largest hook input read from stdin; the rest is drained and the input treated as
/// unreadable (a tool's input may carry a whole file's content).
const MAX_HOOK_INPUT: usize = 64 * 1024 * 1024;

/// What `checkpoint.hookFailure` asks for when a hook's save fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookFailure {
    /// A warning on stderr, exit 0: the agent goes on (the default).
    Warn,
    /// `error: …` and exit 2, which makes Claude Code refuse the tool call.
    Block,
}

impl HookFailure {
    /// Read `checkpoint.hookFailure` (`warn` or `block`); anything else is `warn`.
    pub fn of(repo: &gix::Repository) -> HookFailure {
        let config = repo.config_snapshot();
        match config.string("checkpoint.hookFailure") {
            Some(v) if v.eq_ignore_ascii_case(b"block") => HookFailure::Block,
            _ => HookFailure::Warn,
        }
    }
}

/// `save --from-hook`: a save that never stands in an agent's way.
fn run_hook(ui: &Ui, args: Args) -> Result<(), Failure> {
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
    let repo = match input.cwd.as_deref().filter(|d| d.is_dir()) {
        Some(dir) => git_checkpoint::repo::open(dir)?,
        None => open_repo()?,
    };
    *policy = HookFailure::of(&repo);
    let mut options = input.save_options(repo.workdir());
    options.message = args.message.or(options.message);
    options.name = args.name;
    options.kind = args.kind.or(options.kind);
    options.session = args.session.or(options.session);
    options.pin = args.pin;
    options.allow_empty = args.allow_empty;
    for (key, value) in args.meta {
        options.meta.insert(key, value.into());
    }
    let outcome = git_checkpoint::save::save(&repo, &options)?;
    // Quiet as a hook is, a restore it completed (or could not) is said, whatever -q says.
    if let Some(done) = &outcome.interrupted_restore {
        super::restore::report_completed(ui, done);
    }
    if let Saved::Created(c) = &outcome.saved {
        after_save(ui, &repo, &[&c.id], true);
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

/// Housekeeping after a new checkpoint: the configured retention (`checkpoint.autoPrune`,
/// default on), then `git gc --auto` in the background when loose objects pile up. Neither
/// can fail the save: problems are warnings.
pub fn after_save(ui: &Ui, repo: &gix::Repository, protect: &[&str], quiet: bool) {
    let auto = repo
        .config_snapshot()
        .boolean("checkpoint.autoPrune")
        .unwrap_or(true);
    if auto {
        let pruned = git_checkpoint::retention::auto_prune(repo, protect);
        match pruned {
            Ok(p) if !quiet && !p.removed.is_empty() => ui.info(&format!(
                "pruned {} old checkpoint{} (checkpoint.keep / checkpoint.maxAge)",
                p.removed.len(),
                if p.removed.len() == 1 { "" } else { "s" }
            )),
            Ok(_) => {}
            Err(err) if !quiet => ui.warn(&format!("automatic prune failed: {err}")),
            Err(_) => {}
        }
    }
    git_checkpoint::gitcli::maybe_gc_in_background(repo);
}

/// Sizes as people read them: `700.0 MiB`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_merges_json_then_pairs() -> Result<(), Error> {
        let meta = meta_object(
            Some(r#"{"a":[1,2],"b":"x"}"#),
            &[("b".into(), "y".into()), ("c".into(), "1".into())],
        )?;
        assert_eq!(meta["a"], serde_json::json!([1, 2]));
        assert_eq!(meta["b"], "y");
        assert_eq!(meta["c"], "1");
        assert!(meta_object(Some("[1]"), &[]).is_err());
        assert!(meta_object(Some("{"), &[]).is_err());
        Ok(())
    }

    #[test]
    fn key_value_needs_a_key() {
        assert_eq!(parse_key_value("a=b=c"), Ok(("a".into(), "b=c".into())));
        assert!(parse_key_value("=b").is_err());
        assert!(parse_key_value("ab").is_err());
    }

    #[test]
    fn sizes_are_readable() {
        assert_eq!(human_size(12), "12 bytes");
        assert_eq!(human_size(734_003_200), "700.0 MiB");
    }
}
