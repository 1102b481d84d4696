//! The picker: on a terminal, `restore`, `diff` and `show` without a checkpoint let you choose
//! one from a full-screen list, newest first, with a preview of what it would change.
//!
//! Keys: type to filter (id, kind, session, message); ↑/↓ (or Ctrl-P/Ctrl-N) move, PgUp/PgDn
//! move a page, Home/End; Shift-↑/Shift-↓ (or Ctrl-U/Ctrl-D) scroll the preview; Enter chooses;
//! Esc (or Ctrl-C) leaves with nothing done. For `restore`, Enter first shows the dry run and
//! asks: `y` restores, anything else goes back to the list.

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
    Checkpoint, Checkpoints, Control, DiffOptions, PatchStyle, RestoreOptions, WorkingTree,
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
    };
    picker.state.select(Some(0));
    let mut terminal = ratatui::try_init().map_err(Failure::Output)?;
    let result = picker.run(&mut terminal);
    ratatui::restore();
    result
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
    /// For restore: the dry run shown for confirmation, with the chosen index.
    confirm: Option<(usize, Vec<Line<'static>>)>,
}

impl Picker<'_> {
    fn run(
        &mut self,
        terminal: &mut ratatui::DefaultTerminal,
    ) -> Result<Option<Checkpoint>, Failure> {
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
    fn key(&mut self, key: KeyEvent) -> Result<Option<Option<Checkpoint>>, Failure> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if let Some((index, _)) = &self.confirm {
            let index = *index;
            self.confirm = None;
            return Ok(match key.code {
                KeyCode::Char('y' | 'Y') => Some(Some(self.items[index].clone())),
                KeyCode::Char('c') if ctrl => Some(None),
                _ => None,
            });
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
            KeyCode::Esc => return Ok(Some(None)),
            KeyCode::Char('c') if ctrl => return Ok(Some(None)),
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
                    return Ok(Some(Some(self.items[index].clone())));
                }
                let lines = self.dry_run(index)?;
                self.confirm = Some((index, lines));
            }
            _ => {}
        }
        Ok(None)
    }

    /// The dry run of restoring item `index`, as lines to confirm.
    fn dry_run(&self, index: usize) -> Result<Vec<Line<'static>>, Failure> {
        let c = &self.items[index];
        let options = RestoreOptions {
            dry_run: true,
            ..RestoreOptions::default()
        };
        let mut lines = Vec::new();
        match self.checkpoints.restore(c, &options, &Control::default()) {
            Ok(restored) => {
                let plan = &restored.plan;
                lines.push(Line::from(format!(
                    "Restore checkpoint {}? {} written, {} deleted.",
                    c.id,
                    plan.write.len(),
                    plan.delete.len()
                )));
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
                lines.push(Line::styled(
                    "y: restore    any other key: back to the list",
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
                lines.push(Line::from("any key: back to the list"));
            }
        }
        Ok(lines)
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
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(
                    format!("git checkpoint {} › ", self.purpose.verb()),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!("filter: {}", self.filter)),
                Span::styled("▏", Style::default().add_modifier(Modifier::SLOW_BLINK)),
            ])),
            top,
        );
        let wide = main.width >= 110;
        let [list_area, preview_area] = Layout::default()
            .direction(if wide {
                Direction::Horizontal
            } else {
                Direction::Vertical
            })
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(main);
        self.draw_list(frame, list_area);
        if let Some((_, lines)) = &self.confirm {
            let text = Text::from(lines.clone());
            frame.render_widget(
                Paragraph::new(text)
                    .block(Block::default().borders(Borders::ALL).title(" confirm "))
                    .wrap(Wrap { trim: false }),
                preview_area,
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
                preview_area,
            );
        } else {
            frame.render_widget(
                Paragraph::new("no checkpoint matches the filter")
                    .block(Block::default().borders(Borders::ALL)),
                preview_area,
            );
        }
        let keys = match self.purpose {
            Purpose::Restore => {
                "↑↓ move  type to filter  Shift-↑↓ scroll  Enter restore…  Esc leave"
            }
            Purpose::Diff => "↑↓ move  type to filter  Shift-↑↓ scroll  Enter diff  Esc leave",
            Purpose::Show => "↑↓ move  type to filter  Shift-↑↓ scroll  Enter show  Esc leave",
        };
        frame.render_widget(
            Paragraph::new(keys).style(Style::default().add_modifier(Modifier::DIM)),
            help,
        );
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
