//! `git checkpoint show`.

use std::io::Write;

use chrono::Utc;

use git_checkpoint::{Checkpoint, Side};

use super::diffargs::{self, DiffArgs, Format};
use super::notices;
use super::output::{ColorChoice, Paged, Ui, checkpoint_json, json_line, printable, relative_age};
use super::picker::{self, Purpose};
use super::render::human_size;
use super::{Failure, open, repo_paths};

/// Show a checkpoint: its metadata, then a --stat (or with -p the patch, or --numstat,
/// --name-status, --name-only) of what it changed relative to the HEAD it was taken on (with
/// -- PATHS, in those paths only). A plain directory has no HEAD: there, everything it holds,
/// against an empty directory (`git checkpoint diff @{1} @` shows what one save changed). The
/// diff options are those of `diff`, as `git show` takes those of `git diff`.
///
/// <CP> is an id, `@`/`latest` (newest), `@{N}` (N-th newest), a name, an id prefix or a commit
/// prefix.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// The checkpoint. Without it, on a terminal, a picker lists this worktree's checkpoints.
    #[arg(value_name = "CP")]
    checkpoint: Option<String>,
    /// The patch of what it changed relative to its HEAD (instead of the diffstat).
    #[arg(short = 'p', long = "patch", group = "format")]
    patch: bool,
    #[command(flatten)]
    diff: DiffArgs,
    /// Print the metadata as JSON (the note's fields plus "commit").
    #[arg(long, group = "format", conflicts_with_all = ["paths", "context"])]
    json: bool,
    /// Print the conversation kept with the checkpoint (its agent's transcript as it was at
    /// the save, or the file given to `save --conversation`) instead; with --json, as JSON.
    #[arg(long, conflicts_with_all = ["patch", "paths", "context"])]
    conversation: bool,
    /// Only what it changed in these paths (files or directories), relative to the current
    /// directory.
    #[arg(last = true, value_name = "PATHS")]
    paths: Vec<std::path::PathBuf>,
}

/// `show --conversation`: the conversation kept with `checkpoint`, or why there is none.
fn show_conversation(
    checkpoints: &git_checkpoint::Checkpoints,
    checkpoint: &Checkpoint,
    json: bool,
) -> Result<(), Failure> {
    let Some(conversation) = checkpoints.conversation(checkpoint)? else {
        return Err(
            git_checkpoint::Error::InvalidInput(git_checkpoint::no_conversation(checkpoint)).into(),
        );
    };
    let mut out = std::io::stdout().lock();
    let text = String::from_utf8_lossy(&conversation.bytes);
    if json {
        let mut value = conversation.to_json();
        if let serde_json::Value::Object(map) = &mut value {
            map.insert("id".into(), checkpoint.id.clone().into());
        }
        writeln!(out, "{}", json_line(&value))?;
    } else {
        let turns = conversation.turns().unwrap_or_default();
        if turns.is_empty() {
            out.write_all(printable(&text, true).as_bytes())?;
            if !text.ends_with('\n') {
                writeln!(out)?;
            }
        } else {
            let short = std::io::IsTerminal::is_terminal(&std::io::stdout());
            for turn in &turns {
                writeln!(out, "{}", render_turn(turn, short))?;
            }
        }
    }
    Ok(())
}

/// A turn as `show --conversation` prints it: who, then what (a tool call: the tool and its
/// arguments as JSON). On a terminal, long ones are cut to a few lines.
fn render_turn(turn: &git_checkpoint::Turn, short: bool) -> String {
    use git_checkpoint::Role;
    let (who, what) = match turn.role {
        Role::User => ("user".to_string(), turn.text.clone()),
        Role::Assistant => ("assistant".to_string(), turn.text.clone()),
        Role::System => ("system".to_string(), turn.text.clone()),
        Role::ToolCall => (
            format!("tool call {}", turn.tool.as_deref().unwrap_or("?")),
            turn.arguments
                .as_ref()
                .map(|a| match a {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .unwrap_or_default(),
        ),
        Role::ToolResult => (
            match &turn.tool {
                Some(tool) => format!("tool result {tool}"),
                None => "tool result".to_string(),
            },
            turn.text.clone(),
        ),
    };
    let what = if short { shorten(&what, 4, 400) } else { what };
    // A tool's output keeps its columns (`cat -n`); other control characters are escaped.
    let what = what.replace('\t', "    ");
    let what = printable(what.trim_end(), true);
    match what.contains('\n') {
        true => format!("{who}:\n  {}", what.replace('\n', "\n  ")),
        false => format!("{who}: {what}"),
    }
}

/// At most `lines` lines and `chars` characters of `text`, with `…` where it was cut.
fn shorten(text: &str, lines: usize, chars: usize) -> String {
    let mut out: String = text.lines().take(lines).collect::<Vec<_>>().join("\n");
    if out.chars().count() > chars {
        out = out.chars().take(chars).collect();
    }
    if out.len() < text.trim_end().len() {
        out.push('…');
    }
    out
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint show @ --conversation             # the agent's conversation up to it
  git checkpoint show @                            # the newest: metadata and --stat
  git checkpoint show before-refactor -p           # the patch it holds beyond its HEAD
  git checkpoint show @{2} -- src/                 # only what it changed under src/
  git checkpoint show @ -p -M90 -U1                # renames at 90 %, one line of context
  git checkpoint show @ --name-status
  git checkpoint show @ --json";

pub fn run(ui: &Ui, color: ColorChoice, args: Args) -> Result<(), Failure> {
    let checkpoints = open()?;
    notices::warn_interrupted(ui, &checkpoints);
    let loaded = checkpoints.load()?;
    let picked;
    let checkpoint = match &args.checkpoint {
        Some(spec) => checkpoints.resolve(&loaded, spec)?,
        None => match picker::pick_or_refuse(&checkpoints, Purpose::Show)? {
            Some(c) => {
                picked = c;
                &picked
            }
            // Left with Esc: nothing was done, which a script must be able to tell.
            None => {
                ui.info("nothing shown");
                return Err(Failure::Exit(1));
            }
        },
    };
    ui.warn_damaged([checkpoint]);
    if args.conversation {
        return show_conversation(&checkpoints, checkpoint, args.json);
    }
    if args.json {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", json_line(&checkpoint_json(checkpoint)))?;
        return Ok(());
    }
    let paths = repo_paths(&checkpoints, &args.paths)?;
    // What the checkpoint changed is read from its commit's parents, not from the note, which
    // may come from someone else. Computed first: a path that matches nothing is an error
    // before anything is printed.
    let format = args.diff.format(args.patch, Format::Stat);
    let diff = checkpoints.diff(
        Side::HeadOf(checkpoint),
        Side::Checkpoint(checkpoint),
        &paths,
        args.diff.options(&checkpoints, format),
        &ui.ctl,
    )?;
    // On a terminal, through the pager, as `git show`.
    let mut out = Paged::start(checkpoints.settings().pager.as_deref());
    header(&mut out, ui, checkpoint, checkpoints.store().is_some())?;
    if !diff.files.is_empty() {
        writeln!(out)?;
    }
    diffargs::write(&mut out, &checkpoints, color, &args.diff, format, &diff)?;
    out.finish()?;
    Ok(())
}

/// The metadata lines; `plain`: the checkpoints of a plain directory (or of a store named with
/// `--store`), where there is no HEAD and what a checkpoint changed is counted against nothing.
fn header(out: &mut impl Write, ui: &Ui, c: &Checkpoint, plain: bool) -> std::io::Result<()> {
    let p = &ui.out_paint;
    let m = &c.meta;
    writeln!(
        out,
        "{} {}",
        p.id("checkpoint"),
        p.id(&printable(&c.id, false))
    )?;
    writeln!(out, "commit    {}", c.commit)?;
    if let Some(created) = m.created() {
        writeln!(
            out,
            "date      {} ({})",
            created.format("%Y-%m-%d %H:%M:%S UTC"),
            relative_age(created, Utc::now())
        )?;
    }
    writeln!(out, "kind      {}", p.kind(&printable(&m.kind, false)))?;
    if let Some(name) = &m.name {
        writeln!(out, "name      {}", printable(name, false))?;
    }
    if let Some(message) = &m.message {
        let message = printable(message, true);
        let mut lines = message.lines();
        writeln!(out, "message   {}", lines.next().unwrap_or(""))?;
        for line in lines {
            writeln!(out, "          {line}")?;
        }
    }
    let head = match (&m.head.commit, &m.head.reference) {
        (Some(commit), Some(branch)) => format!(
            "{} ({})",
            commit.get(..7).unwrap_or(commit),
            branch.strip_prefix("refs/heads/").unwrap_or(branch)
        ),
        (Some(commit), None) => format!("{} (detached)", commit.get(..7).unwrap_or(commit)),
        (None, _) if plain => "none (a plain directory has no HEAD)".into(),
        (None, Some(branch)) => format!(
            "unborn branch {}",
            branch.strip_prefix("refs/heads/").unwrap_or(branch)
        ),
        (None, None) => "none".into(),
    };
    writeln!(out, "head      {}", printable(&head, false))?;
    if let Some(worktree) = &m.worktree {
        writeln!(out, "worktree  {}", printable(worktree, false))?;
    }
    if let Some(session) = &m.session {
        writeln!(out, "session   {}", printable(session, false))?;
    }
    if let Some(fetched) = &m.fetched {
        writeln!(
            out,
            "fetched   from {} at {}",
            printable(&fetched.remote, false),
            printable(&fetched.at, false)
        )?;
    }
    writeln!(out, "index     {}", m.index.as_str())?;
    if c.note_problem.is_none() {
        let s = m.stats;
        if plain && m.head.commit.is_none() {
            // No HEAD: the counts, and the diff below, are against an empty directory.
            writeln!(
                out,
                "files     {} ({} added, {} modified, {} deleted since an empty directory: no HEAD to compare with)",
                s.files, s.added, s.modified, s.deleted
            )?;
        } else {
            writeln!(
                out,
                "files     {} ({} added, {} modified, {} deleted since head)",
                s.files, s.added, s.modified, s.deleted
            )?;
        }
    }
    if m.pinned {
        writeln!(out, "pinned    yes")?;
    }
    if let Some(secrets) = &m.secrets {
        for f in &secrets.findings {
            let place = match f.line {
                Some(line) => format!("{} line {line}", printable(&f.path, false)),
                None => printable(&f.path, false),
            };
            writeln!(out, "secrets   {place} ({})", printable(&f.rule, false))?;
        }
        if secrets.omitted > 0 {
            writeln!(out, "secrets   and {} more", secrets.omitted)?;
        }
        if secrets.unscanned > 0 {
            writeln!(
                out,
                "secrets   {} too large to scan",
                if secrets.unscanned == 1 {
                    "1 file".to_string()
                } else {
                    format!("{} files", secrets.unscanned)
                }
            )?;
        }
    }
    for skipped in &m.skipped {
        let why = match skipped.size {
            Some(size) => format!("{}, {}", skipped.reason, human_size(size)),
            None => skipped.reason.clone(),
        };
        writeln!(
            out,
            "skipped   {} ({})",
            printable(&skipped.path, false),
            printable(&why, false)
        )?;
    }
    if !m.meta.is_empty() {
        writeln!(
            out,
            "meta      {}",
            json_line(&serde_json::Value::Object(m.meta.clone()))
        )?;
    }
    Ok(())
}
