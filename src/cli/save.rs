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
    let meta = meta_object(args.meta_json.as_deref(), &args.meta)?;
    let repo = open_repo()?;
    let saved = git_checkpoint::save::save(
        &repo,
        &SaveOptions {
            message: args.message,
            name: args.name,
            kind: args.kind,
            meta,
            pin: args.pin,
            allow_empty: args.allow_empty,
            max_file_size: None,
        },
    )?;
    let checkpoint = saved.checkpoint();
    if let Saved::Created(c) = &saved {
        after_save(ui, &repo, &c.id, args.quiet);
    }
    if !args.quiet {
        warn_skipped(ui, &checkpoint.meta.skipped);
        match &saved {
            Saved::Created(c) => {
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

/// Housekeeping after a new checkpoint: the configured retention (`checkpoint.autoPrune`,
/// default on), then `git gc --auto` in the background when loose objects pile up. Neither
/// can fail the save: problems are warnings.
pub fn after_save(ui: &Ui, repo: &gix::Repository, id: &str, quiet: bool) {
    let auto = repo
        .config_snapshot()
        .boolean("checkpoint.autoPrune")
        .unwrap_or(true);
    if auto {
        let pruned = git_checkpoint::retention::auto_prune(repo, id);
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
