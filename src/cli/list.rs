//! `git checkpoint list`.

use std::io::Write;

use chrono::Utc;

use git_checkpoint::{Checkpoint, ListOptions};

use super::notices;
use super::output::{Painter, Ui, pad_into, printable, relative_age, short, terminal_safe};
use super::render::checkpoints as count_checkpoints;
use super::{Failure, open};

/// List checkpoints, newest first: id, age, commit, kind, files changed since HEAD
/// (+added ~modified -deleted; in a plain directory, which has no HEAD, since an empty
/// directory: every file it holds is counted as added), and name or message.
///
/// Shows the checkpoints taken in this worktree; --all shows every worktree's.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// Show at most N checkpoints.
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    max_count: Option<usize>,
    /// Only checkpoints of this kind.
    #[arg(long, value_name = "KIND")]
    kind: Option<String>,
    /// Checkpoints of every worktree, not just this one.
    #[arg(long)]
    all: bool,
    /// Only the checkpoints of this agent session (an id, a unique prefix of one, or `@` for
    /// the newest session), from whichever worktree.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Print a JSON array of the checkpoints' metadata.
    #[arg(long)]
    json: bool,
}

const EXAMPLES: &str = "\
Examples:
  git checkpoint list                              # this worktree's, newest first
  git checkpoint list -n 5 --kind manual
  git checkpoint list --all                        # every worktree's
  git checkpoint list --session @                  # the latest agent session's
  git checkpoint list --json";

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let checkpoints = match open() {
        // A plain directory where nothing was saved: no checkpoints, like any empty list.
        Err(Failure::Core(git_checkpoint::Error::NoStore(_))) => {
            if args.json {
                writeln!(std::io::stdout().lock(), "[]")?;
            } else {
                ui.info("no checkpoints yet; make one with `git checkpoint save`");
            }
            return Ok(());
        }
        opened => opened?,
    };
    notices::warn_interrupted(ui, &checkpoints);
    let loaded = checkpoints.load()?;
    for broken in &loaded.broken {
        ui.warn_broken(broken);
    }
    let all = &loaded.checkpoints;
    let shown = checkpoints.listed(
        &loaded,
        &ListOptions {
            all: args.all,
            session: args.session.clone(),
            kind: args.kind.clone(),
            limit: args.max_count,
        },
    )?;
    // A notes ref that cannot be read is one warning, not one per checkpoint.
    if let Some(problem) = &loaded.notes_problem {
        ui.warn(&format!(
            "{problem}; every checkpoint is shown from what its commit records"
        ));
    }
    ui.warn_damaged(
        shown
            .iter()
            .copied()
            .filter(|c| c.note_problem != loaded.notes_problem),
    );
    // One write for the whole output, not one per line (stdout is line-buffered).
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        let mut text = Vec::with_capacity(shown.len() * 512 + 2);
        text.push(b'[');
        for (n, c) in shown.iter().enumerate() {
            if n > 0 {
                text.push(b',');
            }
            c.write_json(&mut text);
        }
        text.push(b']');
        out.write_all(&terminal_safe(text))?;
        out.write_all(b"\n")?;
        out.flush()?;
        return Ok(());
    }
    if shown.is_empty() {
        // Nothing on stdout, as for any empty list; say why on stderr.
        ui.info(&if all.is_empty() {
            "no checkpoints yet; make one with `git checkpoint save`".to_string()
        } else if args.all || args.session.is_some() || args.kind.is_some() || args.max_count.is_some()
        {
            "no checkpoints match".to_string()
        } else {
            format!(
                "no checkpoints in this worktree yet ({} in other worktrees: `git checkpoint list --all`); make one with `git checkpoint save`",
                count_checkpoints(all.len())
            )
        });
        return Ok(());
    }
    render(&mut out, ui, &shown, args.all)?;
    out.flush()?;
    Ok(())
}

/// Aligned columns, like `git log --oneline` with more to say.
fn render(
    out: &mut impl Write,
    ui: &Ui,
    shown: &[&Checkpoint],
    with_worktree: bool,
) -> std::io::Result<()> {
    let now = Utc::now();
    let rows: Vec<[String; 6]> = shown
        .iter()
        .map(|c| {
            let age = c
                .meta
                .created()
                .map(|t| relative_age(t, now))
                .unwrap_or_else(|| "unknown age".into());
            let stats = if c.note_problem.is_some() {
                "?".to_string()
            } else {
                let s = c.meta.stats;
                format!("+{} ~{} -{}", s.added, s.modified, s.deleted)
            };
            let label = c.meta.label();
            let mut label = if label.contains(['\n', '\r']) {
                printable(&label.replace(['\n', '\r'], " "), false)
            } else {
                printable(label, false)
            };
            if c.meta.pinned {
                label = format!("{label} [pinned]").trim_start().to_string();
            }
            if c.meta.secrets.as_ref().is_some_and(|s| s.count() > 0) {
                label = format!("{label} [secrets]").trim_start().to_string();
            }
            if with_worktree && let Some(w) = &c.meta.worktree {
                label = format!("({}) {label}", printable(w, false));
            }
            if let Some(f) = &c.meta.fetched {
                label = format!("(from {}) {label}", printable(&f.remote, false))
                    .trim_end()
                    .to_string();
            }
            [
                printable(&c.id, false),
                age,
                short(&c.commit),
                printable(&c.meta.kind, false),
                stats,
                label,
            ]
        })
        .collect();
    let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2), width(3), width(4)];
    let p = &ui.out_paint;
    let paints: [fn(&Painter, &str) -> String; 4] =
        [Painter::id, Painter::dim, Painter::id, Painter::kind];
    // Each line is built in one buffer: hundreds of checkpoints make as many lines.
    let (mut line, mut cell) = (String::new(), String::new());
    for row in &rows {
        line.clear();
        for (i, text) in row[..5].iter().enumerate() {
            cell.clear();
            pad_into(&mut cell, text, widths[i]);
            match paints.get(i) {
                Some(paint) if p.enabled() => line.push_str(&paint(p, &cell)),
                _ => line.push_str(&cell),
            }
            line.push_str("  ");
        }
        line.push_str(&row[5]);
        out.write_all(line.trim_end().as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
