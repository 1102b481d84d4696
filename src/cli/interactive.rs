//! `restore -p` and `revert -p`: the hunks shown one by one, each answered as `git restore -p`
//! asks (y, n, q, a, d, s, ?), answers read a line at a time from standard input.

use std::io::{BufRead, Write};

use git_checkpoint::HunkInfo;

use super::Failure;
use super::output::{Ui, printable};

/// What the chosen hunks will be used for: the words of the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// `restore -p`: hunks of the difference between a checkpoint and the working tree.
    Restore,
    /// `revert -p`: hunks of one step's change.
    Revert,
}

impl Verb {
    fn prompt(self) -> &'static str {
        match self {
            Verb::Restore => "Restore this hunk in the working tree",
            Verb::Revert => "Take back this hunk from the working tree",
        }
    }

    fn help(self) -> &'static str {
        match self {
            Verb::Restore => {
                "y - restore this hunk\n\
                 n - do not restore this hunk\n\
                 q - quit; do not restore this hunk or any of the remaining ones\n\
                 a - restore this hunk and all later hunks in the file\n\
                 d - do not restore this hunk or any of the later hunks in the file\n\
                 s - split the current hunk into smaller hunks\n\
                 ? - print help"
            }
            Verb::Revert => {
                "y - take back this hunk\n\
                 n - do not take back this hunk\n\
                 q - quit; do not take back this hunk or any of the remaining ones\n\
                 a - take back this hunk and all later hunks in the file\n\
                 d - do not take back this hunk or any of the later hunks in the file\n\
                 s - split the current hunk into smaller hunks\n\
                 ? - print help"
            }
        }
    }
}

/// Ask about each of `hunks`; the ids chosen (whole hunks, or the pieces of split ones), or
/// `None` when none was (then nothing is to be done, and that was said).
pub fn choose(ui: &Ui, hunks: &[HunkInfo], verb: Verb) -> Result<Option<Vec<String>>, Failure> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let chosen = ask(&mut input, &mut out, ui, hunks, verb)?;
    if chosen.is_empty() {
        ui.info("no hunk chosen; nothing was changed");
        return Ok(None);
    }
    Ok(Some(chosen))
}

/// The dialogue itself, on any input and output (tested without a terminal).
fn ask(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    ui: &Ui,
    hunks: &[HunkInfo],
    verb: Verb,
) -> Result<Vec<String>, Failure> {
    let p = &ui.out_paint;
    if hunks.is_empty() {
        ui.info("no hunks to choose from: the files are the same, or differ only as wholes (binary files, symlinks, modes)");
        return Ok(Vec::new());
    }
    // The queue of what is still to be asked: hunks, and pieces of split ones in their place.
    let mut queue: Vec<&HunkInfo> = hunks.iter().collect();
    let mut chosen = Vec::new();
    let mut i = 0;
    let mut shown_file: Option<&str> = None;
    'hunks: while i < queue.len() {
        let hunk = queue[i];
        if shown_file != Some(hunk.path.as_str()) {
            let path = printable(&hunk.path, false);
            writeln!(out, "{}", p.meta(&format!("--- a/{path}")))?;
            writeln!(out, "{}", p.meta(&format!("+++ b/{path}")))?;
            shown_file = Some(hunk.path.as_str());
        }
        writeln!(out, "{}", p.frag(&printable(&hunk.header(), false)))?;
        for line in &hunk.lines {
            let text = printable(line, false);
            let painted = match line.as_bytes().first() {
                Some(b'-') => p.deleted(&text),
                Some(b'+') => p.added(&text),
                _ => text,
            };
            writeln!(out, "{painted}")?;
        }
        loop {
            let split = if hunk.pieces.len() > 1 { ",s" } else { "" };
            write!(
                out,
                "{}",
                p.hint(&format!(
                    "({}/{}) {} [y,n,q,a,d{split},?]? ",
                    i + 1,
                    queue.len(),
                    verb.prompt()
                ))
            )?;
            out.flush()?;
            let mut line = String::new();
            // The end of the input: as `q`.
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                break 'hunks;
            }
            match line.trim() {
                "y" | "Y" => {
                    chosen.push(hunk.id.clone());
                    break;
                }
                "n" | "N" => break,
                "q" | "Q" => break 'hunks,
                "a" | "A" | "d" | "D" => {
                    let take = line.trim().eq_ignore_ascii_case("a");
                    let path = hunk.path.as_str();
                    while i < queue.len() && queue[i].path == path {
                        if take {
                            chosen.push(queue[i].id.clone());
                        }
                        i += 1;
                    }
                    continue 'hunks;
                }
                "s" | "S" if hunk.pieces.len() > 1 => {
                    writeln!(
                        out,
                        "{}",
                        p.hint(&format!("Split into {} hunks.", hunk.pieces.len()))
                    )?;
                    queue.splice(i..=i, hunk.pieces.iter());
                    continue 'hunks;
                }
                "s" | "S" => writeln!(out, "{}", p.hint("Sorry, cannot split this hunk"))?,
                _ => writeln!(out, "{}", p.hint(verb.help()))?,
            }
        }
        i += 1;
    }
    Ok(chosen)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn hunk(id: &str, path: &str, pieces: Vec<HunkInfo>) -> HunkInfo {
        let mut h = git_checkpoint::HunkInfo::default();
        h.id = id.into();
        h.path = path.into();
        h.lines = vec!["-a".into(), "+b".into()];
        h.pieces = pieces;
        h
    }

    fn run(answers: &str, hunks: &[HunkInfo]) -> (Vec<String>, String) {
        let ui = Ui::new(super::super::ColorChoice::Never);
        let mut out = Vec::new();
        let chosen = ask(&mut answers.as_bytes(), &mut out, &ui, hunks, Verb::Restore).unwrap();
        (chosen, String::from_utf8(out).unwrap())
    }

    #[test]
    fn each_answer_does_what_git_s_does() {
        let hunks = [
            hunk("1", "a", Vec::new()),
            hunk("2", "a", Vec::new()),
            hunk(
                "3",
                "b",
                vec![hunk("3a", "b", vec![]), hunk("3b", "b", vec![])],
            ),
            hunk("4", "c", Vec::new()),
        ];
        assert_eq!(run("y\nn\nn\ny\n", &hunks).0, ["1", "4"]);
        assert_eq!(
            run("n\na\ny\n", &hunks).0,
            ["2", "3"],
            "a: the rest of the file"
        );
        assert_eq!(
            run("d\ny\ny\n", &hunks).0,
            ["3", "4"],
            "d: none of the rest of the file"
        );
        assert_eq!(run("y\nq\n", &hunks).0, ["1"]);
        assert_eq!(run("y\n", &hunks).0, ["1"], "the end of the input quits");
        let (chosen, out) = run("n\nn\ns\nn\ny\nn\n", &hunks);
        assert_eq!(chosen, ["3b"], "s splits into pieces asked one by one");
        assert!(out.contains("Split into 2 hunks."), "{out}");
        let (chosen, out) = run("s\n?\ny\nn\nn\nn\n", &hunks);
        assert_eq!(chosen, ["1"]);
        assert!(out.contains("Sorry, cannot split this hunk"), "{out}");
        assert!(out.contains("s - split the current hunk"), "{out}");
        assert!(out.contains("(1/4) Restore this hunk in the working tree [y,n,q,a,d,?]? "));
        assert!(
            out.contains("[y,n,q,a,d,s,?]? "),
            "a hunk that splits offers s"
        );
    }
}
