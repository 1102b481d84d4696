//! `git checkpoint push`.

use std::collections::BTreeSet;
use std::io::Write;

use git_checkpoint::{Checkpoint, Checkpoints, Error};

use super::output::{Ui, printable};
use super::render::checkpoints as count_checkpoints;
use super::{Failure, open};

/// Push checkpoints and their notes to a remote: the ones named, or all of this repository's
/// own except the pre-restore safety snapshots (--all: every one, fetched ones too).
///
/// A checkpoint carries its whole working tree, untracked files included (possibly secrets
/// that were not ignored), and the commits it was taken on: check with --dry-run first. A
/// checkpoint the remote holds under the same id with another commit is rejected, never
/// overwritten. Notes are merged as JSON with the remote's (this side wins where both set a
/// key); only the notes of the pushed checkpoints are sent. The default remote is the current
/// branch's upstream remote, else `origin`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The remote (a name or URL); default: the current branch's upstream remote, else origin.
    #[arg(value_name = "REMOTE")]
    remote: Option<String>,
    /// The checkpoints to push (default: this repository's own, without pre-restore ones).
    #[arg(value_name = "CP")]
    checkpoints: Vec<String>,
    /// Push every checkpoint: pre-restore ones, and those fetched from elsewhere, too.
    #[arg(long, conflicts_with = "checkpoints")]
    all: bool,
    /// List, for each checkpoint, the files it holds that its HEAD commit does not; push
    /// nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print nothing on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Also push the conversations kept with them (agents' transcripts, `save
    /// --conversation`), which otherwise never leave this machine.
    #[arg(long)]
    with_conversation: bool,
    /// Also push the checkpoints where a save found what looks like secrets (held back
    /// otherwise, and the push fails naming them).
    #[arg(long)]
    allow_secrets: bool,
}

/// Whether `first`, given where the remote goes, names a checkpoint and cannot be a remote: it is
/// no configured remote's name and no existing path, and it is a checkpoint's id, name or
/// position (`@` can never be a remote's name, nor can `@{1}`).
fn names_a_checkpoint_not_a_remote(
    checkpoints: &Checkpoints,
    loaded: &git_checkpoint::Loaded,
    first: &str,
) -> bool {
    !checkpoints.is_remote(first)
        && !std::path::Path::new(first).exists()
        && checkpoints.resolve(loaded, first).is_ok()
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint push --dry-run                    # the files that would travel, per checkpoint
  git checkpoint push                              # to the upstream remote (else origin)
  git checkpoint push origin before-refactor @     # these two only
  git checkpoint push --all backup                 # every one, pre-restore and fetched too";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    let loaded = checkpoints.load()?;
    if let Some(first) = &args.remote
        && names_a_checkpoint_not_a_remote(&checkpoints, &loaded, first)
    {
        ui.error(&format!(
            "`{}` is a checkpoint, not a remote: the first argument of push is the remote",
            printable(first, false)
        ));
        let remote = checkpoints
            .remote(None)
            .unwrap_or_else(|_| "<REMOTE>".into());
        let mut line = format!("git checkpoint push {remote}");
        for spec in std::iter::once(first).chain(&args.checkpoints) {
            line.push(' ');
            line.push_str(&printable(spec, false));
        }
        ui.hint(&format!("name the remote first: {line}"));
        return Err(Failure::Exit(2));
    }
    let remote = checkpoints.remote(args.remote.as_deref())?;
    let mut chosen: Vec<Checkpoint> = Vec::new();
    if args.all {
        chosen = loaded.checkpoints.clone();
    } else if args.checkpoints.is_empty() {
        chosen = checkpoints.to_push(&loaded).cloned().collect();
    }
    for spec in &args.checkpoints {
        let c = checkpoints.resolve(&loaded, spec)?;
        if !chosen.iter().any(|d| d.id == c.id) {
            chosen.push(c.clone());
        }
    }
    if chosen.is_empty() {
        if !args.quiet {
            match loaded.checkpoints.len() {
                0 => ui.info("there are no checkpoints to push"),
                n => ui.info(&format!(
                    "there are no checkpoints to push: {} pre-restore or fetched, which --all pushes too",
                    if n == 1 {
                        "the only one is".to_string()
                    } else {
                        format!("all {n} are")
                    }
                )),
            }
        }
        return Ok(());
    }
    if args.dry_run {
        return dry_run(ui, &checkpoints, &chosen, &remote, &args);
    }
    let mut out = std::io::stdout().lock();
    let mut warn_before_sending = |sending: &[Checkpoint]| {
        if !args.quiet {
            warn_what_travels(ui, &checkpoints, sending);
        }
    };
    let pushed = checkpoints.push(
        &remote,
        &chosen,
        git_checkpoint::PushOptions {
            with_conversation: args.with_conversation,
            allow_secrets: args.allow_secrets,
        },
        &mut warn_before_sending,
        &ui.ctl,
    )?;
    if !args.quiet {
        for warning in &pushed.warnings {
            ui.warn(warning);
        }
        if !pushed.atomic {
            ui.warn(&format!(
                "`{remote}` cannot take atomic pushes: refs and notes were pushed one by one"
            ));
        }
    }
    let all_held_back = pushed.pushed.is_empty()
        && pushed.already.is_empty()
        && pushed.rejected.is_empty()
        && !pushed.held_back.is_empty();
    if !all_held_back {
        writeln!(
            out,
            "pushed {} to {} ({} already there)",
            count_checkpoints(pushed.pushed.len()),
            pushed.remote,
            pushed.already.len()
        )?;
    }
    if args.with_conversation {
        writeln!(
            out,
            "pushed the conversations of {}",
            count_checkpoints(pushed.conversations.len())
        )?;
    } else if !args.quiet {
        let kept = chosen
            .iter()
            .filter(|c| {
                c.meta
                    .conversation
                    .as_ref()
                    .is_some_and(|n| n.format.is_some())
            })
            .count();
        if kept > 0 {
            ui.info(&format!(
                "the conversations of {} stayed here (--with-conversation sends them)",
                count_checkpoints(kept)
            ));
        }
    }
    if !pushed.held_back.is_empty() {
        for held in &pushed.held_back {
            ui.error(&format!(
                "not pushed: checkpoint {} holds {} in {}",
                printable(&held.id, false),
                held.secrets.counted(),
                secret_files(&checkpoints, &held.secrets)
            ));
        }
        ui.hint(&format!(
            "`git checkpoint show {}` says where; remove them or ignore the files and save again, allow them with `git config --add checkpoint.secretsAllow <path or rule>`, or push them anyway with --allow-secrets",
            printable(&pushed.held_back[0].id, false)
        ));
        return Err(Failure::Exit(1));
    }
    if !pushed.rejected.is_empty() {
        let ids: Vec<String> = pushed
            .rejected
            .iter()
            .map(|c| format!("`{}`", c.id))
            .collect();
        return Err(Error::Remote(format!(
            "not pushed: {} already on `{remote}` with another commit ({}); a checkpoint is never overwritten",
            count_checkpoints(ids.len()),
            ids.join(", ")
        ))
        .into());
    }
    Ok(())
}

/// `push --dry-run`: per checkpoint, the files it holds beyond its HEAD commit, and whether
/// it would be held back for secrets; nothing is sent.
fn dry_run(
    ui: &Ui,
    checkpoints: &Checkpoints,
    chosen: &[Checkpoint],
    remote: &str,
    args: &Args,
) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let flagged = if args.allow_secrets {
        Vec::new()
    } else {
        checkpoints.secrets(chosen)?
    };
    for e in &checkpoints.exposure(chosen)? {
        match e.paths.len() {
            0 => writeln!(
                out,
                "{}  no files outside its HEAD commit",
                printable(&e.id, false)
            )?,
            n => writeln!(
                out,
                "{}  {n} file{} not in its HEAD commit:",
                printable(&e.id, false),
                if n == 1 { "" } else { "s" }
            )?,
        }
        for path in &e.paths {
            writeln!(out, "\t{}", checkpoints.quoting().quote(path.as_ref()))?;
        }
        if let Some(held) = flagged.iter().find(|f| f.id == e.id) {
            writeln!(
                out,
                "\tnot pushed: {} in {} (--allow-secrets sends it)",
                held.secrets.counted(),
                secret_files(checkpoints, &held.secrets)
            )?;
        }
    }
    if !args.quiet {
        let held = if flagged.is_empty() {
            String::new()
        } else {
            format!(" ({} held back for secrets)", flagged.len())
        };
        ui.info(&format!(
            "dry run: would push {}{held} to {remote}; nothing was sent",
            count_checkpoints(chosen.len() - flagged.len())
        ));
    }
    Ok(())
}

/// The files of `note`'s findings, quoted as paths are, for one line.
fn secret_files(checkpoints: &Checkpoints, note: &git_checkpoint::format::SecretsNote) -> String {
    let paths = note.paths();
    let shown: Vec<String> = paths
        .iter()
        .take(5)
        .map(|p| format!("`{}`", checkpoints.quoting().quote(p.as_bytes().into())))
        .collect();
    match paths.len().saturating_sub(shown.len()) {
        0 => shown.join(", "),
        more => format!("{} and {more} more files", shown.join(", ")),
    }
}

/// The reminder that untracked files and the commits checkpoints were taken on travel with
/// them, counting the files that are in the checkpoints but not in their HEAD commits.
fn warn_what_travels(ui: &Ui, checkpoints: &Checkpoints, sending: &[Checkpoint]) {
    let count = checkpoints.exposure(sending).map(|exposure| {
        exposure
            .iter()
            .flat_map(|e| e.paths.iter().map(|p| p.as_slice()))
            .collect::<BTreeSet<&[u8]>>()
            .len()
    });
    let one = sending.len() == 1;
    let files = match count {
        Ok(0) => {
            // No file beyond the commits: nothing to warn about but the commits themselves.
            ui.info(&format!(
                "pushing {}: {}, which {} with {}",
                count_checkpoints(sending.len()),
                if one {
                    "every file it holds is in its HEAD commit"
                } else {
                    "every file they hold is in their HEAD commits"
                },
                if one { "travels" } else { "travel" },
                if one { "it" } else { "them" },
            ));
            return;
        }
        Ok(1) => "1 file that is".to_string(),
        Ok(n) => format!("{n} files that are"),
        Err(_) => "files that are".to_string(),
    };
    ui.warn(&format!(
        "pushing {} sends {files} not in {} HEAD commit (untracked files travel too, possibly secrets that were not ignored), and the commits {} taken on; list them with --dry-run",
        count_checkpoints(sending.len()),
        if one { "its" } else { "their" },
        if one { "it was" } else { "they were" },
    ));
}
