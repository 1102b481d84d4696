//! The picker: on a terminal, `restore`, `diff` and `show` without a checkpoint let you choose
//! one from a full-screen list, newest first, with a preview of what it would change.
//!
//! Keys: type to filter (id, kind, session, message); ↑/↓ (or Ctrl-P/Ctrl-N) move, PgUp/PgDn
//! move a page, Home/End; Shift-↑/Shift-↓ (or Ctrl-U/Ctrl-D) scroll the preview; Enter chooses;
//! Esc (or Ctrl-C) leaves with nothing done. For `restore`, Enter first shows the dry run and
//! asks: `y` restores, anything else goes back to the list.
//!
//! For `restore`, → opens the hunks of the difference between the selected checkpoint and the
//! working tree: a list, with the selected hunk's lines in the preview. Enter shows that hunk's
//! dry run and asks: `y` restores that hunk alone (a restore like any other: the files now are
//! saved first, `undo` takes it back), anything else goes back to the hunks; Esc (or ←) goes
//! back to the checkpoints.

use std::collections::HashMap;
use std::io::IsTerminal;

use chrono::Utc;
use gix::bstr::ByteSlice;
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph, Wrap};

use git_checkpoint::{
    Checkpoint, Checkpoints, Control, DiffOptions, HunkInfo, PatchStyle, RestoreOptions, Side,
    WorkingTree,
};

use super::Failure;
use super::output::printable;
use super::render::display_name;

/// What the picked checkpoint is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Restore it (after a confirmation showing the dry run).
    Restore,
    /// Show its diff against the working tree.
    Diff,
    /// Show it.
    Show,
}

impl Purpose {
    fn verb(self) -> &'static str {
        match self {
            Purpose::Restore => "restore",
            Purpose::Diff => "diff",
            Purpose::Show => "show",
        }
    }
}

/// Whether the picker can run: stdin and stdout are a terminal (not a pipe, not CI, not an
/// agent's tool call).
pub fn available() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// On a terminal, [`pick`]; elsewhere (a pipe, CI, an agent) a usage error: the checkpoint
/// must be named.
pub fn pick_or_refuse(
    checkpoints: &Checkpoints,
    purpose: Purpose,
) -> Result<Option<Checkpoint>, Failure> {
    if available() {
        return pick(checkpoints, purpose);
    }
    eprintln!(
        "error: name the checkpoint to {} (an id, `@`, a name…), or run this on a terminal to pick one",
        purpose.verb()
    );
    eprintln!("hint: `git checkpoint list` shows them");
    Err(Failure::Exit(2))
}

/// Let the user pick a checkpoint of this worktree for `purpose`; `None` when they left.
pub fn pick(checkpoints: &Checkpoints, purpose: Purpose) -> Result<Option<Checkpoint>, Failure> {
    Ok(match run_picker(checkpoints, purpose)? {
        Outcome::Left => None,
        Outcome::Picked(c) | Outcome::Hunk(c, _) => Some(c),
    })
}

/// [`pick_or_refuse`] for `restore`: the checkpoint picked, and the one hunk of its difference
/// to the working tree to restore alone, when the user chose one (→ on a checkpoint). The
/// restore itself is the command's, with its flags (`--dry-run`, `-q`, `--json`, …).
pub fn pick_restore(
    checkpoints: &Checkpoints,
) -> Result<Option<(Checkpoint, Option<String>)>, Failure> {
    if !available() {
        // Refused, saying how to name one.
        return Ok(pick_or_refuse(checkpoints, Purpose::Restore)?.map(|c| (c, None)));
    }
    Ok(match run_picker(checkpoints, Purpose::Restore)? {
        Outcome::Left => None,
        Outcome::Picked(c) => Some((c, None)),
        Outcome::Hunk(c, id) => Some((c, Some(id))),
    })
}

fn run_picker(checkpoints: &Checkpoints, purpose: Purpose) -> Result<Outcome, Failure> {
    let loaded = checkpoints.load()?;
    let items: Vec<Checkpoint> = checkpoints.own(&loaded).cloned().collect();
    if items.is_empty() {
        return Err(git_checkpoint::Error::NoCheckpoints.into());
    }
    let working = checkpoints.working_tree(&Control::default())?;
    let mut picker = Picker {
        checkpoints,
        purpose,
        items,
        filter: String::new(),
        state: ListState::default(),
        scroll: 0,
        previews: HashMap::new(),
        working,
        confirm: None,
        hunks: None,
    };
    picker.state.select(Some(0));
    let mut terminal = ratatui::try_init().map_err(Failure::Output)?;
    let result = picker.run(&mut terminal);
    ratatui::restore();
    result
}

/// How the picker was left.
enum Outcome {
    /// With Esc or Ctrl-C: nothing chosen.
    Left,
    /// With this checkpoint chosen.
    Picked(Checkpoint),
    /// With this hunk of the checkpoint's difference to the working tree to restore.
    Hunk(Checkpoint, String),
}

/// What the picker asks before a restore: the dry run of the whole checkpoint, or of one hunk.
struct Confirm {
    /// The checkpoint's index in the items.
    index: usize,
    /// The hunk's id, when one hunk is restored.
    hunk: Option<String>,
    lines: Vec<Line<'static>>,
}

/// The hunks of the difference between one checkpoint and the working tree, one selected.
struct Hunks {
    /// The checkpoint's index in the items.
    index: usize,
    /// The hunks, or why there are none to show.
    hunks: Result<Vec<HunkInfo>, String>,
    /// How many files differ (some may have no hunk: binary files, symlinks, submodules).
    files: usize,
    state: ListState,
}

struct Picker<'a> {
    checkpoints: &'a Checkpoints,
    purpose: Purpose,
    items: Vec<Checkpoint>,
    filter: String,
    state: ListState,
    /// How far the preview is scrolled.
    scroll: u16,
    /// Previews by checkpoint id, computed once each.
    previews: HashMap<String, Vec<Line<'static>>>,
    working: WorkingTree,
    /// For restore: the dry run shown for confirmation.
    confirm: Option<Confirm>,
    /// For restore: the hunks view, when open.
    hunks: Option<Hunks>,
}

impl Picker<'_> {
    fn run(&mut self, terminal: &mut ratatui::DefaultTerminal) -> Result<Outcome, Failure> {
        loop {
            terminal
                .draw(|frame| self.draw(frame))
                .map_err(Failure::Output)?;
            let Event::Key(key) = event::read().map_err(Failure::Output)? else {
                continue;
            };
            if key.kind != KeyEventKind::Press {
                continue;
            }
            if let Some(done) = self.key(key)? {
                return Ok(done);
            }
        }
    }

    /// Indexes of the items the filter lets through.
    fn shown(&self) -> Vec<usize> {
        let needle = self.filter.to_lowercase();
        self.items
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                needle.is_empty()
                    || [
                        c.id.as_str(),
                        c.meta.kind.as_str(),
                        c.meta.session.as_deref().unwrap_or(""),
                        c.meta.name.as_deref().unwrap_or(""),
                        c.meta.message.as_deref().unwrap_or(""),
                    ]
                    .iter()
                    .any(|field| field.to_lowercase().contains(&needle))
            })
            .map(|(i, _)| i)
            .collect()
    }

    fn selected(&self) -> Option<usize> {
        let shown = self.shown();
        self.state.selected().and_then(|i| shown.get(i).copied())
    }

    /// Handle a key: `Some(outcome)` to leave.
    fn key(&mut self, key: KeyEvent) -> Result<Option<Outcome>, Failure> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if let Some(confirm) = self.confirm.take() {
            let chosen = self.items[confirm.index].clone();
            return Ok(match key.code {
                KeyCode::Char('y' | 'Y') => Some(match confirm.hunk {
                    Some(id) => Outcome::Hunk(chosen, id),
                    None => Outcome::Picked(chosen),
                }),
                KeyCode::Char('c') if ctrl => Some(Outcome::Left),
                _ => None,
            });
        }
        if self.hunks.is_some() {
            return self.hunks_key(key);
        }
        let count = self.shown().len();
        let page = 10;
        let at = self.state.selected().unwrap_or(0);
        let mut moved = |to: usize| {
            self.state
                .select((count > 0).then(|| to.min(count.saturating_sub(1))));
            self.scroll = 0;
        };
        match key.code {
            KeyCode::Esc => return Ok(Some(Outcome::Left)),
            KeyCode::Char('c') if ctrl => return Ok(Some(Outcome::Left)),
            KeyCode::Right if self.purpose == Purpose::Restore => {
                if let Some(index) = self.selected() {
                    self.hunks = Some(self.open_hunks(index));
                    self.scroll = 0;
                }
            }
            KeyCode::Up if key.modifiers.contains(KeyModifiers::SHIFT) => {
                self.scroll = self.scroll.saturating_sub(5);
            }
            KeyCode::Down if key.modifiers.contains(KeyModifiers::SHIFT) => {
                self.scroll = self.scroll.saturating_add(5);
            }
            KeyCode::Char('u') if ctrl => self.scroll = self.scroll.saturating_sub(10),
            KeyCode::Char('d') if ctrl => self.scroll = self.scroll.saturating_add(10),
            KeyCode::Up => moved(at.saturating_sub(1)),
            KeyCode::Char('p') if ctrl => moved(at.saturating_sub(1)),
            KeyCode::Down => moved(at + 1),
            KeyCode::Char('n') if ctrl => moved(at + 1),
            KeyCode::PageUp => moved(at.saturating_sub(page)),
            KeyCode::PageDown => moved(at + page),
            KeyCode::Home => moved(0),
            KeyCode::End => moved(usize::MAX),
            KeyCode::Backspace => {
                self.filter.pop();
                moved(0);
            }
            KeyCode::Char(c) if !ctrl => {
                self.filter.push(c);
                moved(0);
            }
            KeyCode::Enter => {
                let Some(index) = self.selected() else {
                    return Ok(None);
                };
                if self.purpose != Purpose::Restore {
                    return Ok(Some(Outcome::Picked(self.items[index].clone())));
                }
                self.confirm = Some(self.dry_run(index, None));
            }
            _ => {}
        }
        Ok(None)
    }

    /// Handle a key in the hunks view: move, scroll, Enter to confirm the selected hunk's
    /// restore, Esc (or ←) back to the checkpoints.
    fn hunks_key(&mut self, key: KeyEvent) -> Result<Option<Outcome>, Failure> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let shift = key.modifiers.contains(KeyModifiers::SHIFT);
        let Some(view) = &self.hunks else {
            return Ok(None);
        };
        let index = view.index;
        let count = view.hunks.as_ref().map_or(0, Vec::len);
        let at = view.state.selected().unwrap_or(0);
        let page = 10;
        let to = match key.code {
            KeyCode::Esc | KeyCode::Left => {
                self.hunks = None;
                self.scroll = 0;
                None
            }
            KeyCode::Char('c') if ctrl => return Ok(Some(Outcome::Left)),
            KeyCode::Up if shift => {
                self.scroll = self.scroll.saturating_sub(5);
                None
            }
            KeyCode::Down if shift => {
                self.scroll = self.scroll.saturating_add(5);
                None
            }
            KeyCode::Char('u') if ctrl => {
                self.scroll = self.scroll.saturating_sub(10);
                None
            }
            KeyCode::Char('d') if ctrl => {
                self.scroll = self.scroll.saturating_add(10);
                None
            }
            KeyCode::Up => Some(at.saturating_sub(1)),
            KeyCode::Char('p') if ctrl => Some(at.saturating_sub(1)),
            KeyCode::Down => Some(at + 1),
            KeyCode::Char('n') if ctrl => Some(at + 1),
            KeyCode::PageUp => Some(at.saturating_sub(page)),
            KeyCode::PageDown => Some(at + page),
            KeyCode::Home => Some(0),
            KeyCode::End => Some(usize::MAX),
            KeyCode::Enter => {
                let hunk = view.hunks.as_ref().ok().and_then(|h| h.get(at)).cloned();
                if let Some(hunk) = hunk {
                    self.confirm = Some(self.dry_run(index, Some(&hunk)));
                }
                None
            }
            _ => None,
        };
        if let (Some(to), Some(view)) = (to, &mut self.hunks) {
            view.state
                .select((count > 0).then(|| to.min(count.saturating_sub(1))));
            self.scroll = 0;
        }
        Ok(None)
    }

    /// The hunks view of item `index`: the hunks of its difference to the working tree now
    /// (the ids `restore --hunk` takes: found again by the restore, in the files as they are).
    fn open_hunks(&self, index: usize) -> Hunks {
        let c = &self.items[index];
        let options = DiffOptions {
            renames: self.checkpoints.renames(None, false),
            ..DiffOptions::default()
        };
        let diff = self.checkpoints.diff(
            Side::Checkpoint(c),
            Side::WorkingTree,
            &[],
            options,
            &Control::default(),
        );
        let files = diff.as_ref().map_or(0, |d| d.files.len());
        let mut state = ListState::default();
        state.select(Some(0));
        Hunks {
            index,
            hunks: diff
                .map(|d| d.hunks())
                .map_err(|err| printable(&err.to_string(), false)),
            files,
            state,
        }
    }

    /// The dry run of restoring item `index` (or only `hunk` of it), to confirm.
    fn dry_run(&self, index: usize, hunk: Option<&HunkInfo>) -> Confirm {
        let c = &self.items[index];
        let options = RestoreOptions {
            dry_run: true,
            hunks: hunk.map(|h| vec![h.id.clone()]).unwrap_or_default(),
            ..RestoreOptions::default()
        };
        let mut lines = Vec::new();
        let back = if hunk.is_some() {
            "the hunks"
        } else {
            "the list"
        };
        match self.checkpoints.restore(c, &options, &Control::default()) {
            Ok(restored) => {
                let plan = &restored.plan;
                lines.push(Line::from(match hunk {
                    Some(h) => format!(
                        "Restore hunk {} of `{}` from checkpoint {}? {} written.",
                        h.id,
                        printable(&h.path, false),
                        c.id,
                        plan.write.len()
                    ),
                    None => format!(
                        "Restore checkpoint {}? {} written, {} deleted.",
                        c.id,
                        plan.write.len(),
                        plan.delete.len()
                    ),
                }));
                if hunk.is_some() {
                    lines.push(Line::from(
                        "Its lines become the checkpoint's again; the rest of the file stays as it is.",
                    ));
                }
                lines.push(Line::from(
                    "The files now are saved first: `git checkpoint undo` takes it back.",
                ));
                lines.push(Line::from(""));
                let quoting = self.checkpoints.quoting();
                for path in &plan.delete {
                    lines.push(Line::styled(
                        format!("D  {}", quoting.quote(path.as_bytes().as_bstr())),
                        Style::default().fg(Color::Red),
                    ));
                }
                for path in &plan.write {
                    lines.push(Line::styled(
                        format!("W  {}", quoting.quote(path.as_bytes().as_bstr())),
                        Style::default().fg(Color::Green),
                    ));
                }
                lines.push(Line::from(""));
                let what = if hunk.is_some() {
                    "y: restore this hunk"
                } else {
                    "y: restore"
                };
                lines.push(Line::styled(
                    format!("{what}    any other key: back to {back}"),
                    Style::default().add_modifier(Modifier::BOLD),
                ));
            }
            Err(err) => {
                lines.push(Line::styled(
                    format!(
                        "cannot restore {}: {}",
                        c.id,
                        printable(&err.to_string(), false)
                    ),
                    Style::default().fg(Color::Red),
                ));
                lines.push(Line::from(format!("any key: back to {back}")));
            }
        }
        Confirm {
            index,
            hunk: hunk.map(|h| h.id.clone()),
            lines,
        }
    }

    /// The preview of item `index`: its change against the working tree, stat then patch.
    fn preview(&mut self, index: usize) -> &[Line<'static>] {
        let c = &self.items[index];
        if !self.previews.contains_key(&c.id) {
            let lines = preview_lines(self.checkpoints, &self.working, c);
            self.previews.insert(c.id.clone(), lines);
        }
        self.previews.get(&c.id).map_or(&[], Vec::as_slice)
    }

    fn draw(&mut self, frame: &mut Frame<'_>) {
        let area = frame.area();
        let [top, main, help] = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Length(1),
                Constraint::Min(3),
                Constraint::Length(1),
            ])
            .areas(area);
        let heading = Span::styled(
            format!("git checkpoint {} › ", self.purpose.verb()),
            Style::default().add_modifier(Modifier::BOLD),
        );
        let bar = match &self.hunks {
            Some(view) => vec![
                heading,
                Span::raw(format!(
                    "hunks of checkpoint {} to restore",
                    self.items[view.index].id
                )),
            ],
            None => vec![
                heading,
                Span::raw(format!("filter: {}", self.filter)),
                Span::styled("▏", Style::default().add_modifier(Modifier::SLOW_BLINK)),
            ],
        };
        frame.render_widget(Paragraph::new(Line::from(bar)), top);
        let wide = main.width >= 110;
        let [list_area, preview_area] = Layout::default()
            .direction(if wide {
                Direction::Horizontal
            } else {
                Direction::Vertical
            })
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(main);
        if self.hunks.is_some() {
            self.draw_hunks(frame, list_area);
        } else {
            self.draw_list(frame, list_area);
        }
        self.draw_preview(frame, preview_area);
        let keys = match self.purpose {
            Purpose::Restore if self.hunks.is_some() => {
                "↑↓ move  Shift-↑↓ scroll  Enter restore this hunk…  Esc back"
            }
            Purpose::Restore => {
                "↑↓ move  type to filter  Shift-↑↓ scroll  → hunks  Enter restore…  Esc leave"
            }
            Purpose::Diff => "↑↓ move  type to filter  Shift-↑↓ scroll  Enter diff  Esc leave",
            Purpose::Show => "↑↓ move  type to filter  Shift-↑↓ scroll  Enter show  Esc leave",
        };
        frame.render_widget(
            Paragraph::new(keys).style(Style::default().add_modifier(Modifier::DIM)),
            help,
        );
    }

    /// The right (or lower) pane: the confirmation asked, the selected hunk's lines, or the
    /// selected checkpoint's change to the working tree.
    fn draw_preview(&mut self, frame: &mut Frame<'_>, area: Rect) {
        if let Some(confirm) = &self.confirm {
            let text = Text::from(confirm.lines.clone());
            frame.render_widget(
                Paragraph::new(text)
                    .block(Block::default().borders(Borders::ALL).title(" confirm "))
                    .wrap(Wrap { trim: false }),
                area,
            );
        } else if let Some(view) = &self.hunks {
            let selected = view.state.selected().unwrap_or(0);
            let hunk = view.hunks.as_ref().ok().and_then(|h| h.get(selected));
            let title = hunk.map(|h| format!(" hunk {} ", h.id)).unwrap_or_default();
            let lines = hunk.map(hunk_lines).unwrap_or_default();
            frame.render_widget(
                Paragraph::new(Text::from(lines))
                    .block(Block::default().borders(Borders::ALL).title(title))
                    .scroll((self.scroll, 0)),
                area,
            );
        } else if let Some(index) = self.selected() {
            let scroll = self.scroll;
            let lines = self.preview(index).to_vec();
            frame.render_widget(
                Paragraph::new(Text::from(lines))
                    .block(
                        Block::default()
                            .borders(Borders::ALL)
                            .title(" change to the working tree now "),
                    )
                    .scroll((scroll, 0)),
                area,
            );
        } else {
            frame.render_widget(
                Paragraph::new("no checkpoint matches the filter")
                    .block(Block::default().borders(Borders::ALL)),
                area,
            );
        }
    }

    fn draw_list(&mut self, frame: &mut Frame<'_>, area: Rect) {
        let now = Utc::now();
        let items: Vec<ListItem<'_>> = self
            .shown()
            .into_iter()
            .map(|i| {
                let c = &self.items[i];
                let age = c
                    .meta
                    .created()
                    .map(|t| short_age(t, now))
                    .unwrap_or_default();
                let s = c.meta.stats;
                let session = c
                    .meta
                    .session
                    .as_deref()
                    .map(|s| s.chars().take(8).collect::<String>())
                    .unwrap_or_default();
                let label = printable(&c.meta.label().replace(['\n', '\r'], " "), false);
                ListItem::new(Line::from(vec![
                    Span::styled(
                        format!("{age:>4} "),
                        Style::default().add_modifier(Modifier::DIM),
                    ),
                    Span::styled(
                        format!("{:<11} ", printable(&c.meta.kind, false)),
                        Style::default().fg(Color::Cyan),
                    ),
                    Span::styled(
                        format!("{:<8} ", printable(&session, false)),
                        Style::default().fg(Color::Magenta),
                    ),
                    Span::styled(format!("+{}", s.added), Style::default().fg(Color::Green)),
                    Span::raw(" "),
                    Span::styled(
                        format!("~{}", s.modified),
                        Style::default().fg(Color::Yellow),
                    ),
                    Span::raw(" "),
                    Span::styled(format!("-{} ", s.deleted), Style::default().fg(Color::Red)),
                    Span::raw(label),
                ]))
            })
            .collect();
        let title = format!(" {} of {} checkpoints ", items.len(), self.items.len());
        let list = List::new(items)
            .block(Block::default().borders(Borders::ALL).title(title))
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
            .highlight_symbol("› ");
        frame.render_stateful_widget(list, area, &mut self.state);
    }

    /// The hunks of the open hunks view, one line each: file, header, counts.
    fn draw_hunks(&mut self, frame: &mut Frame<'_>, area: Rect) {
        let Some(view) = &mut self.hunks else {
            return;
        };
        let id = &self.items[view.index].id;
        let hunks = match &view.hunks {
            Ok(hunks) if !hunks.is_empty() => hunks,
            found => {
                let why = match found {
                    Err(err) => format!("cannot compare checkpoint {id} with the working tree: {err}"),
                    Ok(_) if view.files > 0 => {
                        "no hunk to restore: what differs is binary, a symlink or a submodule, which only a whole restore brings back".to_string()
                    }
                    Ok(_) => format!("no hunk: the working tree is exactly checkpoint {id}"),
                };
                frame.render_widget(
                    Paragraph::new(why)
                        .block(Block::default().borders(Borders::ALL).title(" hunks "))
                        .wrap(Wrap { trim: false }),
                    area,
                );
                return;
            }
        };
        let quoting = self.checkpoints.quoting();
        let items: Vec<ListItem<'_>> = hunks
            .iter()
            .map(|h| {
                let added = h.lines.iter().filter(|l| l.starts_with('+')).count();
                let deleted = h.lines.iter().filter(|l| l.starts_with('-')).count();
                ListItem::new(Line::from(vec![
                    Span::raw(format!(
                        "{} ",
                        printable(&quoting.quote(h.path.as_bytes().as_bstr()), false)
                    )),
                    Span::styled(
                        format!("{} ", printable(&h.header(), false)),
                        Style::default().fg(Color::Cyan),
                    ),
                    Span::styled(format!("+{added}"), Style::default().fg(Color::Green)),
                    Span::raw(" "),
                    Span::styled(format!("-{deleted}"), Style::default().fg(Color::Red)),
                ]))
            })
            .collect();
        let title = format!(
            " {} of checkpoint {id} → working tree ",
            super::restoring::hunks(hunks.len())
        );
        let list = List::new(items)
            .block(Block::default().borders(Borders::ALL).title(title))
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
            .highlight_symbol("› ");
        frame.render_stateful_widget(list, area, &mut view.state);
    }
}

/// A hunk's header and lines, coloured as in a patch.
fn hunk_lines(hunk: &HunkInfo) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled(
        printable(&hunk.header(), false),
        Style::default().fg(Color::Cyan),
    )];
    for text in &hunk.lines {
        let style = if text.starts_with('+') {
            Style::default().fg(Color::Green)
        } else if text.starts_with('-') {
            Style::default().fg(Color::Red)
        } else {
            Style::default()
        };
        lines.push(Line::styled(printable(text, false), style));
    }
    lines
}

/// Stat lines then the coloured patch of `c`'s change to the working tree.
fn preview_lines(
    checkpoints: &Checkpoints,
    working: &WorkingTree,
    c: &Checkpoint,
) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled(
        format!(
            "checkpoint {}  ({})",
            c.id,
            printable(&c.meta.label().replace('\n', " "), false)
        ),
        Style::default().fg(Color::Yellow),
    )];
    let options = DiffOptions {
        renames: checkpoints.renames(None, false),
        ..DiffOptions::default()
    };
    let diff = match working.diff_from(c, options) {
        Ok(diff) => diff,
        Err(err) => {
            lines.push(Line::from(printable(&err.to_string(), false)));
            return lines;
        }
    };
    if diff.files.is_empty() {
        lines.push(Line::from("the working tree is exactly this checkpoint"));
        return lines;
    }
    let quoting = checkpoints.quoting();
    for f in &diff.files {
        let counts = if f.binary {
            "binary".to_string()
        } else {
            format!("+{} -{}", f.added, f.deleted)
        };
        lines.push(Line::from(format!(
            " {}  {}",
            display_name(f, quoting),
            counts
        )));
    }
    lines.push(Line::from(""));
    let style = PatchStyle {
        quoting,
        ..PatchStyle::default()
    };
    for text in diff.patch_text(style).lines() {
        let text = printable(text, false);
        let style =
            if text.starts_with("+++") || text.starts_with("---") || text.starts_with("diff ") {
                Style::default().add_modifier(Modifier::BOLD)
            } else if text.starts_with('+') {
                Style::default().fg(Color::Green)
            } else if text.starts_with('-') {
                Style::default().fg(Color::Red)
            } else if text.starts_with("@@") {
                Style::default().fg(Color::Cyan)
            } else {
                Style::default()
            };
        lines.push(Line::styled(text, style));
        if lines.len() > 5000 {
            lines.push(Line::from("… (the rest: git checkpoint diff)"));
            break;
        }
    }
    lines
}

/// An age in a few columns: `42s`, `5m`, `3h`, `12d`.
fn short_age(then: chrono::DateTime<Utc>, now: chrono::DateTime<Utc>) -> String {
    let secs = (now - then).num_seconds().max(0);
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        3600..172_800 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86_400),
    }
}
