//! Diff drivers, as `git diff` applies them: the `diff` attribute of a path selects a driver,
//! built in (`diff=perl`) or defined by `diff.<name>.*` settings, and the driver says whether the
//! file is binary and which lines name the function a hunk is in (the text after `@@ … @@`).
//!
//! Attributes are read as `git diff` reads them in a repository with a working tree: the
//! working tree's `.gitattributes` files (the index's where a file is missing there),
//! `$GIT_DIR/info/attributes`, `core.attributesFile` and the system file; in a bare repository
//! only the last three. What a driver's `textconv` or `command` would do is not applied: a
//! patch must apply to the files as they are.

mod builtin;
mod posix;

use std::collections::HashMap;
use std::rc::Rc;

use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::EntryKind;

use crate::error::{Error, Result};
use crate::treediff::Side;
use posix::Flavor;

/// The driver one side of a change is diffed with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Selected {
    /// No `diff` attribute, a name no driver has, or not a regular file: git's `default`
    /// driver (which `diff.default.*` can configure).
    Default,
    /// `diff` set: always text, git's default function lines.
    Text,
    /// `-diff` (and the `binary` macro): always binary.
    Binary,
    /// `diff=<name>` naming a built-in or configured driver.
    Named(BString),
}

/// A driver's settings from `diff.<name>.*`.
#[derive(Debug, Default)]
struct Configured {
    /// `diff.<name>.binary`: `None` for `auto`.
    binary: Option<bool>,
    /// The last of `funcname` (basic) and `xfuncname` (extended), and its key for messages.
    funcname: Option<(BString, Flavor, String)>,
}

/// The drivers of one diff: settings read once, attributes looked up per path when the
/// repository has attribute files, each pattern compiled once.
pub(crate) struct Drivers<'repo> {
    repo: &'repo gix::Repository,
    configured: HashMap<BString, Configured>,
    /// Read when a path first needs them.
    attributes: Option<Box<Attributes<'repo>>>,
    compiled: HashMap<Selected, Option<Rc<FuncName>>>,
}

struct Attributes<'repo> {
    stack: gix::AttributeStack<'repo>,
    outcome: gix::attrs::search::Outcome,
}

impl<'repo> Drivers<'repo> {
    /// The drivers `repo`'s settings define.
    pub(crate) fn new(repo: &'repo gix::Repository) -> Result<Drivers<'repo>> {
        Ok(Drivers {
            repo,
            configured: configured(repo)?,
            attributes: None,
            compiled: HashMap::new(),
        })
    }

    /// The driver of the side of a change at `path`.
    pub(crate) fn select(&mut self, path: &BStr, side: Option<Side>) -> Result<Selected> {
        // git looks at attributes for regular files only.
        if !side.is_some_and(|s| matches!(s.kind, EntryKind::Blob | EntryKind::BlobExecutable)) {
            return Ok(Selected::Default);
        }
        let read = match &mut self.attributes {
            Some(read) => read,
            unread => unread.insert(Box::new(read_attributes(self.repo)?)),
        };
        let Attributes { stack, outcome } = &mut **read;
        // A path no attribute file can name (an empty or hostile name in someone else's
        // tree, which restore refuses) has the default driver.
        let Ok(platform) = stack.at_entry(path, Some(gix::index::entry::Mode::FILE)) else {
            return Ok(Selected::Default);
        };
        platform.matching_attributes(outcome);
        let Some(diff) = outcome.iter_selected().next() else {
            return Ok(Selected::Default);
        };
        use gix::attrs::StateRef;
        Ok(match diff.assignment.state {
            StateRef::Set => Selected::Text,
            StateRef::Unset => Selected::Binary,
            StateRef::Unspecified => Selected::Default,
            StateRef::Value(name) => {
                let name = name.as_bstr();
                if self.configured.contains_key(name) || builtin::find(name).is_some() {
                    Selected::Named(name.to_owned())
                } else {
                    Selected::Default
                }
            }
        })
    }

    /// Whether the driver makes a file binary (`Some(true)`) or text (`Some(false)`); `None`
    /// leaves it to the content.
    pub(crate) fn binary(&self, selected: &Selected) -> Option<bool> {
        match selected {
            Selected::Text => Some(false),
            Selected::Binary => Some(true),
            Selected::Default => self.configured.get(b"default".as_bstr())?.binary,
            Selected::Named(name) => self.configured.get(name)?.binary,
        }
    }

    /// The driver's function-name pattern, compiled (once a diff), or `None` for git's
    /// default rule.
    pub(crate) fn funcname(&mut self, selected: &Selected) -> Result<Option<Rc<FuncName>>> {
        if let Some(compiled) = self.compiled.get(selected) {
            return Ok(compiled.clone());
        }
        let name: &BStr = match selected {
            Selected::Text | Selected::Binary => return Ok(None),
            Selected::Default => b"default".as_bstr(),
            Selected::Named(name) => name.as_ref(),
        };
        let compiled = match self.configured.get(name).and_then(|c| c.funcname.as_ref()) {
            Some((pattern, flavor, key)) => Some(
                FuncName::compile(pattern, *flavor, false).map_err(|message| Error::Config {
                    key: key.clone(),
                    message,
                })?,
            ),
            None => match builtin::find(name) {
                Some(b) => Some(
                    FuncName::compile(b.pattern.as_bytes(), Flavor::Extended, b.icase).map_err(
                        |message| Error::Config {
                            key: format!("diff.{}.xfuncname", b.name),
                            message,
                        },
                    )?,
                ),
                None => None,
            },
        }
        .map(Rc::new);
        self.compiled.insert(selected.clone(), compiled.clone());
        Ok(compiled)
    }
}

/// The attribute stack, reading `.gitattributes` files of the working tree (or the index, as
/// git does where one is missing there); in a bare repository only the global files.
fn read_attributes(repo: &gix::Repository) -> Result<Attributes<'_>> {
    use gix::worktree::stack::state::attributes::Source;
    let git = |context: &str| {
        let context = context.to_owned();
        move |e: Box<dyn std::error::Error + Send + Sync>| Error::Git { context, source: e }
    };
    let (loaded, empty);
    let (index, source): (&gix::index::State, _) = match repo.workdir() {
        Some(_) => {
            loaded = repo
                .index_or_empty()
                .map_err(|e| git("cannot read the index")(e.into()))?;
            (&loaded, Source::WorktreeThenIdMapping)
        }
        None => {
            empty = gix::index::State::new(repo.object_hash());
            (&empty, Source::IdMapping)
        }
    };
    let stack = repo
        .attributes_only(index, source)
        .map_err(|e| git("cannot read the attributes")(e.into()))?;
    let outcome = stack.selected_attribute_matches(["diff"]);
    Ok(Attributes { stack, outcome })
}

/// The drivers `diff.<name>.*` defines, in git's order: later settings win.
fn configured(repo: &gix::Repository) -> Result<HashMap<BString, Configured>> {
    let mut out: HashMap<BString, Configured> = HashMap::new();
    let snapshot = repo.config_snapshot();
    let Some(sections) = snapshot.plumbing().sections_by_name("diff") else {
        return Ok(out);
    };
    for section in sections {
        let Some(name) = section.header().subsection_name() else {
            continue;
        };
        let driver = out.entry(name.to_owned()).or_default();
        let body = section.body();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for key in body.value_names() {
            let key = key.to_ascii_lowercase();
            let nth = seen.entry(key.clone()).or_default();
            let full = format!("diff.{name}.{key}");
            match key.as_str() {
                "funcname" | "xfuncname" => {
                    let Some(value) = body.values(&key).into_iter().nth(*nth) else {
                        return Err(Error::Config {
                            key: full,
                            message: "a pattern is needed".into(),
                        });
                    };
                    let flavor = if key == "xfuncname" {
                        Flavor::Extended
                    } else {
                        Flavor::Basic
                    };
                    driver.funcname = Some((value, flavor, full));
                }
                "binary" => {
                    let value = body.value_implicit("binary").flatten();
                    driver.binary =
                        tristate(value.as_ref().map(|v| v.as_bstr())).ok_or_else(|| {
                            Error::Config {
                                key: full,
                                message: "expected a boolean or `auto`".into(),
                            }
                        })?;
                }
                _ => {}
            }
            *nth += 1;
        }
    }
    Ok(out)
}

/// git's `parse_tristate`: `auto`, or a boolean (a key without a value is true).
fn tristate(value: Option<&BStr>) -> Option<Option<bool>> {
    let Some(value) = value else {
        return Some(Some(true));
    };
    let text = value.to_str().ok()?.trim().to_ascii_lowercase();
    Some(match text.as_str() {
        "auto" => None,
        "true" | "yes" | "on" => Some(true),
        "false" | "no" | "off" | "" => Some(false),
        number => {
            let digits = number.trim_end_matches(['k', 'm', 'g']);
            Some(digits.parse::<i64>().ok()? != 0)
        }
    })
}

/// The longest function line git keeps (`struct func_line`'s buffer).
const FUNC_LINE_MAX: usize = 80;

/// A driver's function-name pattern, compiled: its rules in order, each rejecting or
/// accepting the lines it matches (git's `ff_regexp`).
#[derive(Debug)]
pub(crate) struct FuncName {
    rules: Vec<(regex::bytes::Regex, bool)>,
}

impl FuncName {
    /// Compile `pattern`: one rule a line, `!` before a rule that rejects.
    pub(crate) fn compile(pattern: &[u8], flavor: Flavor, icase: bool) -> Result<Self, String> {
        let lines: Vec<&[u8]> = pattern.split(|&b| b == b'\n').collect();
        let mut rules = Vec::with_capacity(lines.len());
        for (n, line) in lines.iter().enumerate() {
            let (negate, rule) = match line.strip_prefix(b"!") {
                Some(rule) => (true, rule),
                None => (false, *line),
            };
            if negate && n + 1 == lines.len() {
                return Err("the last rule must not start with `!`".into());
            }
            let translated = posix::translate(rule, flavor)
                .map_err(|e| format!("cannot use `{}`: {e}", rule.as_bstr()))?;
            let regex = regex::bytes::RegexBuilder::new(&translated)
                .unicode(false)
                .case_insensitive(icase)
                .build()
                .map_err(|e| format!("cannot use `{}`: {e}", rule.as_bstr()))?;
            rules.push((regex, negate));
        }
        Ok(FuncName { rules })
    }

    /// Whether `line` (with its newline) names a function, and the text git shows for it:
    /// the first group of the first rule that matches (or all it matched), at most 80 bytes,
    /// without trailing white space. An empty text still ends git's search.
    pub(crate) fn function<'a>(&self, line: &'a [u8]) -> Option<&'a [u8]> {
        let line = match line.strip_suffix(b"\n") {
            Some(rest) => rest.strip_suffix(b"\r").unwrap_or(rest),
            None => line,
        };
        for (regex, negate) in &self.rules {
            let Some(captures) = regex.captures(line) else {
                continue;
            };
            if *negate {
                return None;
            }
            let found = captures.get(1).or_else(|| captures.get(0))?;
            let text = &line[found.start()..];
            let text = &text[..found.len().min(FUNC_LINE_MAX)];
            return Some(trim_end(text));
        }
        None
    }
}

/// git's default rule (`def_ff` in xdiff), for files no pattern covers: a line starting with a
/// letter, `_` or `$`, cut to 80 bytes, without trailing white space.
pub(crate) fn default_function(line: &[u8]) -> Option<&[u8]> {
    let first = *line.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_' || first == b'$') {
        return None;
    }
    Some(trim_end(&line[..line.len().min(FUNC_LINE_MAX)]))
}

/// Without trailing white space as C's `isspace` has it (vertical tab included).
fn trim_end(mut text: &[u8]) -> &[u8] {
    while let Some((last, rest)) = text.split_last() {
        if matches!(last, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
            text = rest;
        } else {
            break;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(name: &str) -> Result<FuncName, String> {
        let b = builtin::find(name.as_bytes()).ok_or(format!("no driver {name}"))?;
        FuncName::compile(b.pattern.as_bytes(), Flavor::Extended, b.icase)
    }

    fn shown(f: &FuncName, line: &str) -> Option<String> {
        f.function(line.as_bytes())
            .map(|t| String::from_utf8_lossy(t).into_owned())
    }

    #[test]
    fn rules_take_the_first_group_or_the_whole_match() -> Result<(), String> {
        let python = builtin("python")?;
        assert_eq!(
            shown(&python, "    def run(self):  \n").as_deref(),
            Some("def run(self):")
        );
        assert_eq!(shown(&python, "x = 1\n"), None);
        let markdown = builtin("markdown")?;
        assert_eq!(
            shown(&markdown, "## Usage\r\n").as_deref(),
            Some("## Usage"),
            "no group: all of the match, without the line's end"
        );
        Ok(())
    }

    #[test]
    fn a_rejecting_rule_wins_when_it_matches_first() -> Result<(), String> {
        let java = builtin("java")?;
        assert_eq!(shown(&java, "        return foo(bar);\n"), None);
        assert_eq!(
            shown(&java, "    public int size(int a) {\n").as_deref(),
            Some("public int size(int a) {")
        );
        Ok(())
    }

    #[test]
    fn case_is_ignored_where_git_ignores_it() -> Result<(), String> {
        let fortran = builtin("fortran")?;
        assert!(shown(&fortran, "      subroutine foo(x)\n").is_some());
        assert!(shown(&fortran, "      SUBROUTINE FOO(X)\n").is_some());
        let python = builtin("python")?;
        assert_eq!(shown(&python, "DEF run():\n"), None);
        Ok(())
    }

    #[test]
    fn texts_are_cut_to_80_bytes_then_trimmed() -> Result<(), String> {
        let f = FuncName::compile(b"^f.*", Flavor::Extended, false)?;
        let long = format!("f{}{}\n", "x".repeat(78), " tail");
        assert_eq!(shown(&f, &long).map(|s| s.len()), Some(79));
        let line = format!("{}\x0b\n", "a".repeat(10));
        assert_eq!(default_function(line.as_bytes()), Some(&b"aaaaaaaaaa"[..]));
        Ok(())
    }

    #[test]
    fn a_last_rule_that_rejects_is_refused() {
        assert!(FuncName::compile(b"^a\n!^b", Flavor::Extended, false).is_err());
        assert!(FuncName::compile(b"!^a\n^b", Flavor::Extended, false).is_ok());
    }

    #[test]
    fn binary_settings_read_as_git_reads_them() {
        assert_eq!(tristate(None), Some(Some(true)));
        assert_eq!(tristate(Some(b"auto".as_bstr())), Some(None));
        assert_eq!(tristate(Some(b"Yes".as_bstr())), Some(Some(true)));
        assert_eq!(tristate(Some(b"0".as_bstr())), Some(Some(false)));
        assert_eq!(tristate(Some(b"maybe".as_bstr())), None);
    }
}
