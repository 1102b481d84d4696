//! POSIX regular expressions, as git compiles them with `regcomp` (basic for
//! `diff.<name>.funcname`, extended for `xfuncname` and the built-in drivers), rewritten in the
//! syntax of the `regex` crate.
//!
//! Only the syntax is translated; the matching is the crate's, in its byte-oriented mode without
//! Unicode (as `regcomp` in the C locale: `.` and `[^…]` match any byte, the classes are ASCII).
//! What is not translated: back-references (`\1`, which the crate cannot match: refused), and
//! multi-character collating elements (`[[.ch.]]`: refused). What differs in matching: POSIX
//! takes the longest of the matches that start leftmost, the crate the first by the order of
//! alternatives and greediness. git's built-in patterns are anchored so that both agree; a
//! user's pattern with alternatives of which one is a prefix of another may match less.

use std::fmt::Write;

/// Which POSIX syntax a pattern is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// Basic (`regcomp` without `REG_EXTENDED`): `\(…\)`, `\{m,n\}`, and git's GNU regex
    /// extensions `\|`, `\+`, `\?`.
    Basic,
    /// Extended (`REG_EXTENDED`).
    Extended,
}

/// `pattern` in the `regex` crate's syntax, or why it cannot be.
pub(crate) fn translate(pattern: &[u8], flavor: Flavor) -> Result<String, String> {
    let mut out = Out {
        at_start: true,
        ..Out::default()
    };
    let mut i = 0;
    while i < pattern.len() {
        let c = pattern[i];
        i += 1;
        match (c, flavor) {
            (b'\\', _) => {
                let Some(&e) = pattern.get(i) else {
                    return Err("trailing backslash".into());
                };
                i += 1;
                i = escaped(pattern, i, e, flavor, &mut out)?;
            }
            (b'[', _) => {
                out.atom();
                i = bracket(pattern, i, &mut out.s)?;
            }
            (b'.', _) => {
                out.atom();
                out.s.push('.');
            }
            (b'(', Flavor::Extended) => out.open(),
            (b')', Flavor::Extended) if !out.groups.is_empty() => out.close(),
            (b'|', Flavor::Extended) => out.alternative(),
            (b'^', Flavor::Extended) => out.anchor('^'),
            (b'^', Flavor::Basic) if out.at_start => out.anchor('^'),
            (b'$', Flavor::Extended) => out.anchor('$'),
            (b'$', Flavor::Basic)
                if i == pattern.len()
                    || pattern[i..].starts_with(b"\\)")
                    || pattern[i..].starts_with(b"\\|") =>
            {
                out.anchor('$')
            }
            (b'*', _) | (b'+' | b'?', Flavor::Extended) => {
                if out.atom.is_none() {
                    if flavor == Flavor::Extended {
                        return Err(format!("`{}` repeats nothing", c as char));
                    }
                    out.literal(c);
                } else {
                    out.repeat(&(c as char).to_string());
                }
            }
            (b'{', Flavor::Extended) => match interval(pattern, i, b"}") {
                Some((bounds, next)) if out.atom.is_some() => {
                    out.repeat(&bounds);
                    i = next;
                }
                Some(_) => return Err("an interval `{…}` repeats nothing".into()),
                None => out.literal(c),
            },
            _ => out.literal(c),
        }
    }
    if !out.groups.is_empty() {
        return Err("unmatched `(`".into());
    }
    Ok(out.s)
}

/// The rest of `\e` (`i` is past `e`); returns where the pattern goes on.
fn escaped(
    pattern: &[u8],
    i: usize,
    e: u8,
    flavor: Flavor,
    out: &mut Out,
) -> Result<usize, String> {
    match (e, flavor) {
        (b'1'..=b'9', _) => return Err("back-references (`\\1`…) are not supported".into()),
        (b'(', Flavor::Basic) => out.open(),
        (b')', Flavor::Basic) => {
            if out.groups.is_empty() {
                return Err("unmatched `\\)`".into());
            }
            out.close();
        }
        (b'|', Flavor::Basic) => out.alternative(),
        (b'+' | b'?', Flavor::Basic) => {
            if out.atom.is_none() {
                out.literal(e);
            } else {
                out.repeat(&(e as char).to_string());
            }
        }
        (b'{', Flavor::Basic) => {
            let Some((bounds, next)) = interval(pattern, i, b"\\}") else {
                return Err("invalid interval `\\{…\\}`".into());
            };
            if out.atom.is_none() {
                return Err("an interval `\\{…\\}` repeats nothing".into());
            }
            out.repeat(&bounds);
            return Ok(next);
        }
        // GNU's word and space classes and boundaries, which the crate also has.
        (b'w' | b'W' | b's' | b'S', _) => {
            out.atom();
            out.s.push('\\');
            out.s.push(e as char);
        }
        (b'b' | b'B', _) => out.anchor_str(if e == b'b' { "\\b" } else { "\\B" }),
        (b'<', _) => out.anchor_str("\\b{start}"),
        (b'>', _) => out.anchor_str("\\b{end}"),
        (b'`', _) => out.anchor_str("\\A"),
        (b'\'', _) => out.anchor_str("\\z"),
        _ => out.literal(e),
    }
    Ok(i)
}

/// An interval's bounds `m`, `m,` or `m,n` (GNU: also `,n`) from `i` up to `close`, as the
/// crate writes them, and where the pattern goes on after `close`.
fn interval(pattern: &[u8], i: usize, close: &[u8]) -> Option<(String, usize)> {
    let rest = &pattern[i..];
    let end = rest.windows(close.len()).position(|w| w == close)?;
    let body = std::str::from_utf8(&rest[..end]).ok()?;
    let number = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let bounds = match body.split_once(',') {
        None => format!("{{{}}}", number(body)?),
        Some((min, "")) => format!("{{{},}}", number(min)?),
        Some(("", max)) => format!("{{0,{}}}", number(max)?),
        Some((min, max)) => {
            let (min, max) = (number(min)?, number(max)?);
            if min > max {
                return None;
            }
            format!("{{{min},{max}}}")
        }
    };
    Some((bounds, i + end + close.len()))
}

/// A bracket expression from `i` (just past its `[`) to its `]`, written to `out`; returns
/// where the pattern goes on. In POSIX a backslash is an ordinary character there, a `]`
/// first is one too, and `[:class:]`, `[=c=]`, `[.c.]` name classes and characters.
fn bracket(pattern: &[u8], mut i: usize, out: &mut String) -> Result<usize, String> {
    out.push('[');
    if pattern.get(i) == Some(&b'^') {
        out.push('^');
        i += 1;
    }
    let start = i;
    loop {
        let Some(&c) = pattern.get(i) else {
            return Err("unmatched `[`".into());
        };
        if c == b']' && i > start {
            out.push(']');
            return Ok(i + 1);
        }
        let (first, next) = element(pattern, i)?;
        i = next;
        // A range `a-z`, unless the `-` is the last character before `]`.
        if let Element::Char(low) = first
            && pattern.get(i) == Some(&b'-')
            && pattern.get(i + 1).is_some_and(|&c| c != b']')
        {
            let (last, next) = element(pattern, i + 1)?;
            let Element::Char(high) = last else {
                return Err("a range cannot end with a character class".into());
            };
            if high < low {
                return Err("a range's end comes before its start".into());
            }
            class_char(low, out);
            out.push('-');
            class_char(high, out);
            i = next;
            continue;
        }
        match first {
            Element::Char(c) => class_char(c, out),
            Element::Class(name) => {
                let _ = write!(out, "[:{name}:]");
            }
        }
    }
}

enum Element<'a> {
    Char(u8),
    Class(&'a str),
}

/// One element of a bracket expression at `i`, and where the next one starts.
fn element(pattern: &[u8], i: usize) -> Result<(Element<'_>, usize), String> {
    let c = pattern[i];
    let kind = pattern.get(i + 1).copied();
    if c != b'[' || !matches!(kind, Some(b':' | b'=' | b'.')) {
        return Ok((Element::Char(c), i + 1));
    }
    let Some(kind) = kind else {
        return Ok((Element::Char(c), i + 1));
    };
    let body_start = i + 2;
    let Some(len) = pattern[body_start..]
        .windows(2)
        .position(|w| w == [kind, b']'])
    else {
        return Err(format!("unmatched `[{}`", kind as char));
    };
    let body = &pattern[body_start..body_start + len];
    let next = body_start + len + 2;
    match kind {
        b':' => {
            const CLASSES: [&str; 12] = [
                "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
                "space", "upper", "xdigit",
            ];
            match CLASSES.iter().find(|name| name.as_bytes() == body) {
                Some(name) => Ok((Element::Class(name), next)),
                None => Err(format!(
                    "unknown character class `[:{}:]`",
                    String::from_utf8_lossy(body)
                )),
            }
        }
        _ => match body {
            [one] => Ok((Element::Char(*one), next)),
            _ => Err("multi-character collating elements are not supported".into()),
        },
    }
}

/// A character inside a class: the crate's class syntax (nesting, set operations) escaped.
fn class_char(c: u8, out: &mut String) {
    if matches!(c, b'\\' | b'[' | b']' | b'^' | b'-' | b'&' | b'~') {
        out.push('\\');
        out.push(c as char);
    } else if c.is_ascii_graphic() || c == b' ' {
        out.push(c as char);
    } else {
        let _ = write!(out, "\\x{c:02X}");
    }
}

/// The translated pattern, with what the next character needs to know: where the last atom
/// starts (to apply a repetition to it) and the groups still open.
#[derive(Default)]
struct Out {
    s: String,
    /// Where the last atom starts in `s`, while a repetition may follow it.
    atom: Option<usize>,
    /// The last atom is already repeated.
    repeated: bool,
    /// Where each open group starts in `s`.
    groups: Vec<usize>,
    /// At the start of the pattern or of an alternative (where a basic `^` anchors).
    at_start: bool,
}

impl Out {
    /// A new atom starts here.
    fn atom(&mut self) {
        self.atom = Some(self.s.len());
        self.repeated = false;
        self.at_start = false;
    }

    fn literal(&mut self, c: u8) {
        self.atom();
        if c.is_ascii_alphanumeric() || c == b' ' || c == b'_' {
            self.s.push(c as char);
        } else if c.is_ascii_punctuation() {
            let text = (c as char).to_string();
            self.s.push_str(&regex::escape(&text));
        } else {
            let _ = write!(self.s, "\\x{c:02X}");
        }
    }

    fn open(&mut self) {
        self.groups.push(self.s.len());
        self.s.push('(');
        self.atom = None;
        self.at_start = true;
    }

    fn close(&mut self) {
        self.s.push(')');
        self.atom = self.groups.pop();
        self.repeated = false;
        self.at_start = false;
    }

    fn alternative(&mut self) {
        self.s.push('|');
        self.atom = None;
        self.at_start = true;
    }

    fn anchor(&mut self, c: char) {
        self.s.push(c);
        self.atom = None;
    }

    fn anchor_str(&mut self, s: &str) {
        self.s.push_str(s);
        self.atom = None;
        self.at_start = false;
    }

    /// Repeat the last atom. POSIX lets a repetition follow another (`a*?` is `(a*)?`), where
    /// the crate would read a lazy or a nested repetition: the first is grouped then.
    fn repeat(&mut self, op: &str) {
        let Some(start) = self.atom else {
            return;
        };
        if self.repeated {
            self.s.insert_str(start, "(?:");
            self.s.push(')');
        }
        self.s.push_str(op);
        self.repeated = true;
        self.at_start = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ere(p: &str) -> String {
        translate(p.as_bytes(), Flavor::Extended).unwrap_or_else(|e| format!("error: {e}"))
    }

    fn bre(p: &str) -> String {
        translate(p.as_bytes(), Flavor::Basic).unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn extended_syntax_maps_to_the_crates() {
        assert_eq!(
            ere("^[ \t]*(def|class)[ \t].*$"),
            "^[ \\x09]*(def|class)[ \\x09].*$"
        );
        assert_eq!(ere("a{2}b{1,}c{,3}"), "a{2}b{1,}c{0,3}");
        assert_eq!(ere("a{x"), "a\\{x", "not an interval: a literal brace");
        assert_eq!(
            ere("a*?"),
            "(?:a*)?",
            "a repetition of a repetition is greedy"
        );
        assert_eq!(ere("(ab)+*"), "(?:(ab)+)*");
        assert_eq!(ere("\\(x\\)"), "\\(x\\)");
        assert_eq!(ere("a)"), "a\\)", "an unmatched `)` is ordinary");
        assert_eq!(ere("\\<sub\\>"), "\\b{start}sub\\b{end}");
        assert_eq!(ere("#&~-"), "\\#\\&\\~\\-");
        assert_eq!(ere("\u{e9}"), "\\xC3\\xA9", "bytes beyond ASCII");
        assert!(ere("*a").starts_with("error"));
        assert!(ere("(a").starts_with("error"));
        assert!(ere("(a)\\1").starts_with("error"));
    }

    #[test]
    fn brackets_follow_posix() {
        assert_eq!(ere("[]a]"), "[\\]a]", "a `]` first is a member");
        assert_eq!(ere("[^]a]"), "[^\\]a]");
        assert_eq!(ere("[][[:alnum:]@_.]"), "[\\]\\[[:alnum:]@_.]");
        assert_eq!(ere("[\\#}]"), "[\\\\#}]", "a backslash is a member");
        assert_eq!(ere("[a-z-]"), "[a-z\\-]");
        assert_eq!(ere("[-a]"), "[\\-a]");
        assert_eq!(ere("[[=e=][.x.]]"), "[ex]");
        assert_eq!(ere("[&&~~]"), "[\\&\\&\\~\\~]", "no set operations");
        assert!(ere("[[:nope:]]").starts_with("error"));
        assert!(ere("[abc").starts_with("error"));
        assert!(ere("[z-a]").starts_with("error"));
    }

    #[test]
    fn basic_syntax_maps_to_the_crates() {
        assert_eq!(bre("^\\(sub\\|package\\) .*$"), "^(sub|package) .*$");
        assert_eq!(bre("a\\{2,3\\}"), "a{2,3}");
        assert_eq!(
            bre("(a)+?{|}"),
            "\\(a\\)\\+\\?\\{\\|\\}",
            "ordinary in basic"
        );
        assert_eq!(bre("*a"), "\\*a", "a leading `*` is ordinary");
        assert_eq!(bre("\\(*a\\)"), "(\\*a)");
        assert_eq!(bre("a^b$c$"), "a\\^b\\$c$", "anchors only at the ends");
        assert_eq!(bre("a\\+\\?"), "(?:a+)?");
        assert!(bre("\\(a").starts_with("error"));
        assert!(bre("a\\{x\\}").starts_with("error"));
    }

    #[test]
    fn every_builtin_pattern_translates_and_compiles() -> Result<(), String> {
        for builtin in super::super::builtin::BUILTINS {
            for rule in builtin.pattern.split('\n') {
                let rule = rule.strip_prefix('!').unwrap_or(rule);
                let translated = translate(rule.as_bytes(), Flavor::Extended)
                    .map_err(|e| format!("{}: {rule}: {e}", builtin.name))?;
                regex::bytes::RegexBuilder::new(&translated)
                    .unicode(false)
                    .build()
                    .map_err(|e| format!("{}: {translated}: {e}", builtin.name))?;
            }
        }
        Ok(())
    }
}
