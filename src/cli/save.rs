//! `git checkpoint save`.

use std::io::{Read, Write};

use git_checkpoint::{ConversationInput, Error, SaveOptions, Saved, format};

use super::agents::{HookAgent, hook_agent_parser};
use super::notices;
use super::output::{Ui, checkpoint_json, json_line};
use super::render::files;
use super::{Failure, open_creating};

/// Snapshot the working tree: tracked files as they are on disk, and untracked files that are
/// not ignored. Nothing else changes: not HEAD, not the branch, not the index, not the stash.
///
/// Prints the new checkpoint's id. When nothing changed since this worktree's newest
/// checkpoint, no new one is made and that checkpoint's id is printed (unless --allow-empty).
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
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
    /// Run as an agent's hook: read the hook's JSON from stdin (the agent's, recognised when
    /// AGENT is not given), record the agent, session, event, tool, turn and call ids, edited
    /// paths and transcript path in the note (never a file's or prompt's content), kind auto
    /// (session at a session's start), print nothing but the answer the agent expects, and
    /// never fail the agent: errors are warnings and exit 0, unless checkpoint.hookFailure is
    /// `block`, which refuses the tool call in the agent's own way (never at a session's start
    /// or a turn's end).
    #[arg(
        long,
        value_name = "AGENT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "auto",
        value_parser = hook_agent_parser(),
        conflicts_with_all = ["meta_json", "json"]
    )]
    from_hook: Option<HookAgent>,
    /// Outside any git repository, checkpoint even a home directory itself, the system's
    /// temporary directory itself or a file system root (refused otherwise: a first save would
    /// copy all of it into a store).
    #[arg(long)]
    force: bool,
    /// Keep this file with the checkpoint as its conversation (an agent's transcript, a chat
    /// log, any file up to 64 MiB; `-` reads it from stdin): `show --conversation` prints it.
    /// Stored apart from the snapshot, and pushed only with `push --with-conversation`.
    #[arg(long, value_name = "FILE", conflicts_with = "from_hook")]
    conversation: Option<std::path::PathBuf>,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint save                              # snapshot now; prints the id
  git checkpoint save -m \"before refactor\" --name before-refactor
  id=$(git checkpoint save -q)                     # the id alone, for a script
  git checkpoint save --kind auto --meta tool=Edit --session \"$SESSION_ID\"";

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

/// `--conversation FILE`, or `-` for stdin.
fn conversation_from(path: &std::path::Path) -> Result<ConversationInput, Error> {
    if path.as_os_str() != "-" {
        return ConversationInput::from_file(path);
    }
    let limit = git_checkpoint::CONVERSATION_MAX_BYTES;
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Io {
            context: "cannot read --conversation from stdin".into(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(Error::InvalidInput(format!(
            "the conversation on stdin is larger than the {limit} bytes a conversation may have"
        )));
    }
    Ok(ConversationInput::from_bytes(bytes, None))
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    if let Some(HookAgent(agent)) = args.from_hook {
        let hook_args = super::hook::Args {
            agent,
            message: args.message,
            name: args.name,
            kind: args.kind,
            session: args.session,
            pin: args.pin,
            allow_empty: args.allow_empty,
            meta: args.meta,
            force: args.force,
        };
        return super::hook::run(ui, hook_args);
    }
    let meta = meta_object(args.meta_json.as_deref(), &args.meta)?;
    let conversation = args
        .conversation
        .as_deref()
        .map(conversation_from)
        .transpose()?;
    let checkpoints = open_creating(ui, &super::cwd()?, args.force, args.quiet)?;
    let outcome = checkpoints.save(
        &SaveOptions {
            message: args.message,
            name: args.name,
            kind: args.kind,
            meta,
            pin: args.pin,
            allow_empty: args.allow_empty,
            session: args.session,
            agent: None,
            conversation,
            ..SaveOptions::default()
        },
        &ui.ctl,
    )?;
    // A save that completed a killed restore changed files: that is said even with -q.
    if let Some(done) = &outcome.interrupted_restore {
        notices::report_completed(ui, done);
    }
    notices::housekeeping(ui, &outcome.housekeeping, args.quiet);
    let saved = outcome.saved;
    let checkpoint = saved.checkpoint();
    if !args.quiet {
        notices::warn_skipped(ui, &checkpoint.meta.skipped);
        match &saved {
            Saved::Created(c) => {
                notices::warn_secrets(ui, c);
                if let Some(problem) = &c.note_problem {
                    ui.warn(&format!(
                        "checkpoint {} was saved, but {problem}; it lists from what its commit records (its pin and --meta are not kept)",
                        c.id
                    ));
                }
                let s = c.meta.stats;
                // A plain directory has no HEAD: what changed is said against the checkpoint
                // before (its stats, against nothing, would call every file added).
                let since = if checkpoints.store().is_some() {
                    let loaded = checkpoints.load()?;
                    let before = checkpoints.own(&loaded).find(|b| b.id < c.id).cloned();
                    match before {
                        Some(before) => {
                            let d = checkpoints.summary(&before, c)?;
                            Some(format!(
                                "{} added, {} modified, {} deleted since checkpoint {}",
                                d.added, d.modified, d.deleted, before.id
                            ))
                        }
                        None => Some("the first checkpoint of this directory".to_string()),
                    }
                } else {
                    None
                };
                let since = since.unwrap_or_else(|| {
                    format!(
                        "{} added, {} modified, {} deleted since HEAD",
                        s.added, s.modified, s.deleted
                    )
                });
                ui.info(&format!(
                    "saved checkpoint {} ({}; {since})",
                    c.id,
                    files(s.files as usize),
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
        writeln!(out, "{}", json_line(&checkpoint_json(checkpoint)))?;
    } else {
        writeln!(out, "{}", checkpoint.id)?;
    }
    Ok(())
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
}
