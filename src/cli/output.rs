//! Colour, warnings, ages and JSON: what every command's output shares.

use std::io::{IsTerminal, Write};

use chrono::{DateTime, Utc};
use owo_colors::OwoColorize;

use git_checkpoint::Checkpoint;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Always colour.
    Always,
    /// Never colour.
    Never,
    /// Colour when writing to a terminal (or to git's pager), unless NO_COLOR or TERM=dumb.
    Auto,
}

/// Whether to colour one stream.
#[derive(Debug, Clone, Copy)]
pub struct Painter {
    enabled: bool,
}

impl Painter {
    fn new(choice: ColorChoice, is_terminal: bool) -> Painter {
        let enabled = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
                let pager = std::env::var_os("GIT_PAGER_IN_USE").is_some();
                !no_color && !dumb && (is_terminal || pager)
            }
        };
        Painter { enabled }
    }

    /// Colours for stdout.
    pub fn for_stdout(choice: ColorChoice) -> Painter {
        Painter::new(choice, std::io::stdout().is_terminal())
    }

    /// Whether colours are written at all.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    fn paint(&self, text: &str, f: impl FnOnce(&str) -> String) -> String {
        if self.enabled {
            f(text)
        } else {
            text.to_string()
        }
    }

    /// Ids and commits, as git colours commit ids.
    pub fn id(&self, text: &str) -> String {
        self.paint(text, |t| t.yellow().to_string())
    }
    /// Secondary information: ages.
    pub fn dim(&self, text: &str) -> String {
        self.paint(text, |t| t.dimmed().to_string())
    }
    /// Kinds.
    pub fn kind(&self, text: &str) -> String {
        self.paint(text, |t| t.cyan().to_string())
    }
    /// Additions.
    pub fn added(&self, text: &str) -> String {
        self.paint(text, |t| t.green().to_string())
    }
    /// Deletions.
    pub fn deleted(&self, text: &str) -> String {
        self.paint(text, |t| t.red().to_string())
    }
    /// Diff headers (git's `meta` slot: bold).
    pub fn meta(&self, text: &str) -> String {
        self.paint(text, |t| t.bold().to_string())
    }
    /// Hunk headers (git's `frag` slot: cyan).
    pub fn frag(&self, text: &str) -> String {
        self.paint(text, |t| t.cyan().to_string())
    }
    /// A removed line (git's `old` slot: red), as bytes.
    pub fn deleted_bytes(&self, text: &[u8]) -> Vec<u8> {
        self.wrap(text, "\x1b[31m")
    }
    /// An added line (git's `new` slot: green), as bytes.
    pub fn added_bytes(&self, text: &[u8]) -> Vec<u8> {
        self.wrap(text, "\x1b[32m")
    }
    fn wrap(&self, text: &[u8], start: &str) -> Vec<u8> {
        if !self.enabled {
            return text.to_vec();
        }
        let mut out = start.as_bytes().to_vec();
        out.extend_from_slice(text);
        out.extend_from_slice(b"\x1b[m");
        out
    }
    /// `error:`.
    pub fn error(&self, text: &str) -> String {
        self.paint(text, |t| t.red().bold().to_string())
    }
    /// `warning:`.
    pub fn warning(&self, text: &str) -> String {
        self.paint(text, |t| t.yellow().bold().to_string())
    }
    /// `hint:`.
    pub fn hint(&self, text: &str) -> String {
        self.paint(text, |t| t.bold().to_string())
    }
}

/// The terminal side of a command run: colour for each stream, and stderr messages.
pub struct Ui {
    /// Colours for stdout.
    pub out_paint: Painter,
    /// Colours for stderr.
    pub err_paint: Painter,
    /// Progress (on a terminal) for the library's operations.
    pub ctl: git_checkpoint::Control<'static>,
}

impl Ui {
    /// Decide colours once, from `--color` and the environment.
    pub fn new(choice: ColorChoice) -> Ui {
        Ui {
            out_paint: Painter::new(choice, std::io::stdout().is_terminal()),
            err_paint: Painter::new(choice, std::io::stderr().is_terminal()),
            ctl: git_checkpoint::Control::default(),
        }
    }

    /// `warning: …` on stderr.
    pub fn warn(&self, message: &str) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "{} {}",
            self.err_paint.warning("warning:"),
            printable(&message.replace(['\n', '\r'], " "), false)
        );
    }

    /// `error: …` on stderr, for a command that goes on after an error (others return it).
    pub fn error(&self, message: &str) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "{} {}",
            self.err_paint.error("error:"),
            printable(&message.replace(['\n', '\r'], " "), false)
        );
    }

    /// `hint: …` on stderr.
    pub fn hint(&self, message: &str) {
        let _ = writeln!(
            std::io::stderr().lock(),
            "{} {}",
            self.err_paint.hint("hint:"),
            printable(message, false)
        );
    }

    /// An informational line on stderr. Ids, names and paths in it may come from someone
    /// else's repository: control characters are escaped.
    pub fn info(&self, message: &str) {
        let _ = writeln!(std::io::stderr().lock(), "{}", printable(message, true));
    }

    /// Warn about a ref under `refs/checkpoints/` that is left out because it is not a
    /// readable checkpoint.
    pub fn warn_broken(&self, broken: &git_checkpoint::BrokenRef) {
        match &broken.id {
            Some(id) => self.warn(&format!(
                "refs/checkpoints/{id} is not a checkpoint and is left out: {}; `git checkpoint drop {id}` deletes it",
                broken.reason
            )),
            None => self.warn(&format!(
                "a ref under refs/checkpoints/ cannot be read and is left out: {}",
                broken.reason
            )),
        }
    }

    /// Warn about each checkpoint whose metadata had to be derived from its commit.
    pub fn warn_damaged<'a>(&self, checkpoints: impl IntoIterator<Item = &'a Checkpoint>) {
        for c in checkpoints {
            if let Some(problem) = &c.note_problem {
                self.warn(&format!(
                    "checkpoint {}: {problem}; showing what its commit records",
                    c.id
                ));
            }
        }
    }
}

/// The JSON object of a checkpoint: its note's fields plus `"commit"`.
pub fn checkpoint_json(c: &Checkpoint) -> serde_json::Value {
    c.to_json()
}

/// `value` as one line of JSON that is also safe on a terminal: serde escapes the C0 controls,
/// and this escapes what it leaves raw, DEL and the C1 controls (U+0080–U+009F, among them
/// CSI and OSC), as `\u00XX`. Outside strings JSON holds none of them, so it stays valid.
pub fn json_line(value: &serde_json::Value) -> String {
    let text = value.to_string();
    // DEL is 0x7f; the C1 controls are U+0080..U+009F, 0xc2 0x80..0x9f in UTF-8.
    if !text.bytes().any(|b| b == 0x7f || b == 0xc2) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if ('\u{7f}'..='\u{9f}').contains(&c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// JSON text (valid UTF-8, as serde writes it) made safe on a terminal as [`json_line`] makes
/// it.
pub fn terminal_safe(text: Vec<u8>) -> Vec<u8> {
    if !text.iter().any(|b| *b == 0x7f || *b == 0xc2) {
        return text;
    }
    let mut out = Vec::with_capacity(text.len() + 16);
    for c in String::from_utf8_lossy(&text).chars() {
        if ('\u{7f}'..='\u{9f}').contains(&c) {
            out.extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes());
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    out
}

/// The first 7 hex digits of an id, as git abbreviates by default.
pub fn short(id: &gix::ObjectId) -> String {
    id.to_hex_with_len(7).to_string()
}

/// "3 minutes ago", as git writes relative dates.
pub fn relative_age(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let secs = (now - then).num_seconds();
    if secs < 0 {
        return "in the future".into();
    }
    let plural = |n: i64, unit: &str| {
        if n == 1 {
            format!("1 {unit} ago")
        } else {
            format!("{n} {unit}s ago")
        }
    };
    let secs_u = secs;
    if secs_u < 90 {
        return plural(secs_u, "second");
    }
    let minutes = (secs_u + 30) / 60;
    if minutes < 90 {
        return plural(minutes, "minute");
    }
    let hours = (minutes + 30) / 60;
    if hours < 36 {
        return plural(hours, "hour");
    }
    let days = (hours + 12) / 24;
    if days < 14 {
        return plural(days, "day");
    }
    if days < 70 {
        return plural((days + 3) / 7, "week");
    }
    if days < 365 {
        return plural((days + 15) / 30, "month");
    }
    plural((days + 183) / 365, "year")
}

/// `text` safe to print on a terminal: control characters (escape sequences that could move
/// the cursor or retitle the window, carriage returns, …) shown escaped, as `\u{1b}`. Notes
/// may come from someone else's repository. Newlines are kept only with `keep_newlines`.
pub fn printable(text: &str, keep_newlines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && !(keep_newlines && c == '\n') {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Pad `text` to `width` display columns (counted in chars).
pub fn pad(text: &str, width: usize) -> String {
    let mut out = String::new();
    pad_into(&mut out, text, width);
    out
}

/// [`pad`], appended to `out` (a table of hundreds of rows pads into one buffer).
pub fn pad_into(out: &mut String, text: &str, width: usize) {
    out.push_str(text);
    let len = text.chars().count();
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(len)));
}

/// The progress sink of the CLI: one line on stderr, rewritten in place, cleared when done.
pub fn print_progress(progress: &git_checkpoint::Progress<'_>) {
    let git_checkpoint::Progress { what, done, total } = *progress;
    let mut err = std::io::stderr().lock();
    if done >= total {
        let _ = write!(err, "\r\x1b[K");
    } else {
        let _ = write!(
            err,
            "\r{what}: {done}/{total} ({}%)",
            done * 100 / total.max(1)
        );
    }
    let _ = err.flush();
}

/// Where a long output goes: on a terminal, the user's pager, as git pages `git diff` and
/// `git show` (git runs no pager for an external command unless `pager.checkpoint` is set, so
/// this command starts it); elsewhere, or when git already runs one (`GIT_PAGER_IN_USE`),
/// stdout. The pager is [`git_checkpoint::Settings::pager`], run by the shell with `LESS=FRX`
/// and `LV=-c` unless set, as git runs it: `less` leaves at once when everything fits on one
/// screen, keeps colours, and leaves the screen as it was.
pub struct Paged {
    pager: Option<std::process::Child>,
    out: std::io::BufWriter<Box<dyn Write>>,
}

impl Paged {
    /// Output through `pager` when stdout is a terminal and no pager runs yet.
    pub fn start(pager: Option<&str>) -> Paged {
        let wanted = pager.filter(|_| {
            std::io::stdout().is_terminal() && std::env::var_os("GIT_PAGER_IN_USE").is_none()
        });
        let child = wanted.and_then(|pager| {
            let mut cmd = std::process::Command::new("sh");
            cmd.arg("-c")
                .arg(pager)
                .stdin(std::process::Stdio::piped())
                .env("GIT_PAGER_IN_USE", "true");
            for (name, value) in [("LESS", "FRX"), ("LV", "-c")] {
                if std::env::var_os(name).is_none() {
                    cmd.env(name, value);
                }
            }
            cmd.spawn().ok()
        });
        match child {
            Some(mut child) => match child.stdin.take() {
                Some(stdin) => Paged {
                    pager: Some(child),
                    out: std::io::BufWriter::new(Box::new(stdin)),
                },
                None => Paged::stdout(),
            },
            None => Paged::stdout(),
        }
    }

    fn stdout() -> Paged {
        Paged {
            pager: None,
            out: std::io::BufWriter::new(Box::new(std::io::stdout().lock())),
        }
    }

    /// Write what is left and wait for the pager to be left by the user.
    pub fn finish(mut self) -> std::io::Result<()> {
        let flushed = self.out.flush();
        // Closing its input tells the pager the output is complete.
        drop(self.out);
        if let Some(mut pager) = self.pager.take() {
            let _ = pager.wait();
        }
        flushed
    }
}

impl Write for Paged {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn printable_escapes_control_characters() {
        assert_eq!(
            printable("a\x1b]0;pwned\x07b", false),
            "a\\u{1b}]0;pwned\\u{7}b"
        );
        assert_eq!(printable("one\ntwo\r", false), "one\\ntwo\\r");
        assert_eq!(printable("one\ntwo", true), "one\ntwo");
        assert_eq!(printable("ünïcode ok", false), "ünïcode ok");
        assert_eq!(
            printable("a\u{9b}31mb\u{9d}c\u{7f}", true),
            "a\\u{9b}31mb\\u{9d}c\\u{7f}"
        );
    }

    #[test]
    fn json_lines_escape_del_and_c1_and_stay_valid() {
        let value = serde_json::json!({"k\u{9b}": "a\u{1b}b\u{9d}c\u{7f}\u{a0}"});
        let line = json_line(&value);
        assert_eq!(line, "{\"k\\u009b\":\"a\\u001bb\\u009dc\\u007f\u{a0}\"}");
        assert!(!line.chars().any(char::is_control));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&line).ok(),
            Some(value)
        );
    }

    #[test]
    fn terminal_safe_bytes_are_the_json_line() {
        for value in [
            serde_json::json!({"k\u{9b}": "a\u{1b}b\u{9d}c\u{7f}\u{a0}"}),
            serde_json::json!(["plain", 1, null]),
            serde_json::json!({"é": "ü\u{c2}"}),
        ] {
            let safe = terminal_safe(value.to_string().into_bytes());
            assert_eq!(String::from_utf8_lossy(&safe), json_line(&value));
        }
    }

    #[test]
    fn ages_read_like_git() {
        let now = Utc::now();
        let age = |d: Duration| relative_age(now - d, now);
        assert_eq!(age(Duration::seconds(1)), "1 second ago");
        assert_eq!(age(Duration::seconds(45)), "45 seconds ago");
        assert_eq!(age(Duration::minutes(3)), "3 minutes ago");
        assert_eq!(age(Duration::hours(5)), "5 hours ago");
        assert_eq!(age(Duration::days(3)), "3 days ago");
        assert_eq!(age(Duration::days(21)), "3 weeks ago");
        assert_eq!(age(Duration::days(120)), "4 months ago");
        assert_eq!(age(Duration::days(800)), "2 years ago");
        assert_eq!(relative_age(now + Duration::hours(1), now), "in the future");
    }

    #[test]
    fn never_colours_when_told_not_to() {
        let p = Painter::new(ColorChoice::Never, true);
        assert_eq!(p.id("abc"), "abc");
        let p = Painter::new(ColorChoice::Always, false);
        assert_ne!(p.id("abc"), "abc");
    }
}
