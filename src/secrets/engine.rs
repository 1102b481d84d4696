//! One file's bytes against the rules, as gitleaks' detector reads them: a keyword prefilter
//! picks the rules worth running, each rule's regex finds candidates, the secret is the
//! rule's capture group, too little entropy or an allowlist (gitleaks' global one, the
//! rule's own) drops it, and a `gitleaks:allow` on the line keeps it out. A generic rule's
//! finding gives way to a specific rule's on the same line. Regexes are compiled on first
//! use, once per process.
//!
//! Go's regexes (RE2) and these (the `regex` crate, on bytes, ASCII classes as in Go) agree
//! on every construct the rules use; a rule whose regex would not compile is left out, and a
//! test checks that none is.
//!
//! Never returns, logs or keeps the secret itself: a finding is a rule and a line.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use gix::bstr::ByteSlice;
use regex::bytes::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};

/// A rule, as generated from the rule files.
pub struct Rule {
    /// The rule id, e.g. `aws-access-token`.
    pub id: &'static str,
    /// What a secret looks like; `None` for a rule on the path alone.
    pub regex: Option<&'static str>,
    /// The capture group holding the secret; 0: the first that matched anything.
    pub secret_group: usize,
    /// A secret with this much Shannon entropy or less is no finding; 0: no such check.
    pub entropy: f64,
    /// Lowercase words one of which the file must contain for the rule to run at all.
    pub keywords: &'static [&'static str],
    /// The paths the rule applies to (alone: a finding for the path itself).
    pub path: Option<&'static str>,
    /// What the rule never reports.
    pub allowlists: &'static [Allowlist],
}

/// What is allowed: any of the parts (`and`: all the parts given) makes a finding none.
pub struct Allowlist {
    /// All the given parts must match, rather than any.
    pub and: bool,
    /// What `regexes` are matched against.
    pub target: Target,
    /// Allowed secrets (or matches, or lines).
    pub regexes: &'static [&'static str],
    /// Lowercase words: a secret containing one is allowed.
    pub stopwords: &'static [&'static str],
    /// Allowed paths.
    pub paths: &'static [&'static str],
}

/// What an allowlist's regexes look at.
#[derive(Clone, Copy)]
pub enum Target {
    /// The secret (the capture group).
    Secret,
    /// The whole match.
    Match,
    /// The lines the match spans.
    Line,
}

/// A finding: the rule and the 1-based line where its match starts (`None` for a rule on the
/// path alone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The rule id.
    pub rule: &'static str,
    /// The line of the match.
    pub line: Option<u32>,
}

/// The marker that keeps a line's findings out, as in gitleaks.
const ALLOW_MARKER: &[u8] = b"gitleaks:allow";

/// How much of a file's start is looked at to call it binary (as git does: a NUL byte).
const BINARY_PROBE: usize = 8000;

fn build(pattern: &str) -> Option<Regex> {
    RegexBuilder::new(pattern)
        .unicode(false)
        .size_limit(64 << 20)
        .dfa_size_limit(16 << 20)
        .build()
        .ok()
}

fn build_set(patterns: &[&str]) -> Option<RegexSet> {
    if patterns.is_empty() {
        return None;
    }
    RegexSetBuilder::new(patterns)
        .unicode(false)
        .size_limit(64 << 20)
        .build()
        .ok()
}

/// An allowlist compiled.
struct AllowCompiled {
    list: &'static Allowlist,
    /// Compiled when a candidate is first checked: most files have none.
    regexes: OnceLock<Option<RegexSet>>,
    paths: Option<RegexSet>,
}

impl AllowCompiled {
    fn new(list: &'static Allowlist) -> AllowCompiled {
        AllowCompiled {
            list,
            regexes: OnceLock::new(),
            paths: build_set(list.paths),
        }
    }

    fn path_allowed(&self, path: &[u8]) -> bool {
        !path.is_empty() && self.paths.as_ref().is_some_and(|s| s.is_match(path))
    }

    /// gitleaks' `checkCommitOrPathAllowed`: whether the whole file is allowed.
    fn file_allowed(&self, path: &[u8]) -> bool {
        if self.list.and {
            // Decided with the finding, when regexes or stopwords are part of the condition.
            !self.list.paths.is_empty()
                && self.list.regexes.is_empty()
                && self.list.stopwords.is_empty()
                && self.path_allowed(path)
        } else {
            self.path_allowed(path)
        }
    }

    /// gitleaks' `checkFindingAllowed`.
    fn finding_allowed(&self, path: &[u8], secret: &[u8], matched: &[u8], line: &[u8]) -> bool {
        let target = match self.list.target {
            Target::Secret => secret,
            Target::Match => matched,
            Target::Line => line,
        };
        let regex = !target.is_empty()
            && self
                .regexes
                .get_or_init(|| build_set(self.list.regexes))
                .as_ref()
                .is_some_and(|s| s.is_match(target));
        let stopword = contains_stopword(secret, self.list.stopwords);
        if self.list.and {
            let mut checks = Vec::new();
            if !self.list.paths.is_empty() {
                checks.push(self.path_allowed(path));
            }
            if !self.list.regexes.is_empty() {
                checks.push(regex);
            }
            if !self.list.stopwords.is_empty() {
                checks.push(stopword);
            }
            checks.iter().all(|c| *c)
        } else {
            regex || stopword
        }
    }
}

fn contains_stopword(secret: &[u8], stopwords: &[&str]) -> bool {
    if secret.is_empty() || stopwords.is_empty() {
        return false;
    }
    let lower = secret.to_ascii_lowercase();
    stopwords.iter().any(|w| lower.contains_str(w))
}

/// A rule compiled: its regexes on first use.
struct RuleCompiled {
    rule: &'static Rule,
    regex: OnceLock<Option<Regex>>,
    path: OnceLock<Option<Regex>>,
    allowlists: OnceLock<Vec<AllowCompiled>>,
}

impl RuleCompiled {
    fn regex(&self) -> Option<&Regex> {
        self.regex
            .get_or_init(|| self.rule.regex.and_then(build))
            .as_ref()
    }

    fn path(&self) -> Option<&Regex> {
        self.path
            .get_or_init(|| self.rule.path.and_then(build))
            .as_ref()
    }

    fn allowlists(&self) -> &[AllowCompiled] {
        self.allowlists.get_or_init(|| {
            self.rule
                .allowlists
                .iter()
                .map(AllowCompiled::new)
                .collect()
        })
    }
}

/// Everything compiled once per process.
struct Compiled {
    rules: Vec<RuleCompiled>,
    global: AllowCompiled,
    /// Every rule's keywords, found in any case.
    keywords: Option<AhoCorasick>,
    /// For each keyword (by pattern index), the rules it turns on.
    keyword_rules: Vec<Vec<usize>>,
    /// Rules without keywords: run on every file.
    always: Vec<usize>,
}

/// The rule table compiled, once per process: `rules` and `global` are always the same tables
/// (`rules::RULES`, `rules::GLOBAL`), which the caller passes so that this module needs none.
fn compiled(rules: &'static [Rule], global: &'static Allowlist) -> &'static Compiled {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let mut words: Vec<&'static str> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        let mut always = Vec::new();
        for (i, rule) in rules.iter().enumerate() {
            if rule.keywords.is_empty() {
                always.push(i);
            }
            for word in rule.keywords {
                match words.iter().position(|w| w == word) {
                    Some(at) => keyword_rules[at].push(i),
                    None => {
                        words.push(word);
                        keyword_rules.push(vec![i]);
                    }
                }
            }
        }
        let keywords = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(aho_corasick::MatchKind::Standard)
            .build(&words)
            .ok();
        Compiled {
            rules: rules
                .iter()
                .map(|rule| RuleCompiled {
                    rule,
                    regex: OnceLock::new(),
                    path: OnceLock::new(),
                    allowlists: OnceLock::new(),
                })
                .collect(),
            global: AllowCompiled::new(global),
            keywords,
            keyword_rules,
            always,
        }
    })
}

/// Compile what every scan needs, and the rules most files turn on (their keywords are
/// ordinary words: `key`, `token`, `auth`), so that a scan started later finds them ready.
pub fn warm_up(rules: &'static [Rule], global: &'static Allowlist) {
    let compiled = compiled(rules, global);
    for rule in &compiled.rules {
        if rule.rule.id == "generic-api-key" {
            if let Some(regex) = rule.regex() {
                // The lazy DFA's first states, from a line like those it meets.
                let _ = regex.find(b"let api_key = config.get(\"key\")?; // token auth\n");
            }
            let _ = rule.allowlists();
        }
    }
}

/// Whether gitleaks' global allowlist leaves `path` unscanned (lock files, images, vendored
/// code): its content need not even be read.
pub fn path_skipped(rules: &'static [Rule], global: &'static Allowlist, path: &[u8]) -> bool {
    compiled(rules, global).global.file_allowed(path)
}

/// The rules' findings in `content`, the file at `path` (relative to the top of the tree,
/// with `/`), sorted by line, then rule.
pub fn scan(
    rules: &'static [Rule],
    global: &'static Allowlist,
    path: &[u8],
    content: &[u8],
) -> Vec<Hit> {
    let compiled = compiled(rules, global);
    if compiled.global.file_allowed(path) {
        return Vec::new();
    }
    let binary = content[..content.len().min(BINARY_PROBE)].contains(&0);
    let mut turned_on = vec![false; compiled.rules.len()];
    for &i in &compiled.always {
        turned_on[i] = true;
    }
    if !binary && let Some(keywords) = &compiled.keywords {
        // Overlapping: "key" inside "apikey" turns on its own rules too.
        for m in keywords.find_overlapping_iter(content) {
            for &i in &compiled.keyword_rules[m.pattern().as_usize()] {
                turned_on[i] = true;
            }
        }
    }
    let lines = LineIndex::new(content);
    let mut found: Vec<Found> = Vec::new();
    for (i, rule) in compiled.rules.iter().enumerate() {
        if rule.rule.path.is_some() && rule.rule.regex.is_none() {
            // A rule on the path alone applies to binary files too.
            let allowed = rule.allowlists().iter().any(|a| a.file_allowed(path));
            if !allowed && rule.path().is_some_and(|p| p.is_match(path)) {
                found.push(Found {
                    hit: Hit {
                        rule: rule.rule.id,
                        line: None,
                    },
                    secret: Vec::new(),
                });
            }
            continue;
        }
        if binary || !turned_on[i] {
            continue;
        }
        scan_rule(rule, &compiled.global, path, content, &lines, &mut found);
    }
    let mut hits: Vec<Hit> = found
        .iter()
        .filter(|f| !gives_way(f, &found))
        .map(|f| f.hit.clone())
        .collect();
    hits.sort_by(|a, b| a.line.cmp(&b.line).then(a.rule.cmp(b.rule)));
    hits.dedup();
    hits
}

/// A finding with its secret, which lives only as long as the scan of one file.
struct Found {
    hit: Hit,
    secret: Vec<u8>,
}

/// gitleaks' `filter`: a generic rule's finding is dropped where a specific rule found, on the
/// same line, a secret containing it.
fn gives_way(generic: &Found, all: &[Found]) -> bool {
    generic.hit.rule.contains("generic")
        && all.iter().any(|other| {
            other.hit.line == generic.hit.line
                && other.hit.rule != generic.hit.rule
                && !other.hit.rule.contains("generic")
                && other.secret.contains_str(&generic.secret)
        })
}

fn scan_rule(
    rule: &RuleCompiled,
    global: &AllowCompiled,
    path: &[u8],
    content: &[u8],
    lines: &LineIndex,
    found: &mut Vec<Found>,
) {
    if rule.allowlists().iter().any(|a| a.file_allowed(path)) {
        return;
    }
    if rule.rule.path.is_some() && !rule.path().is_some_and(|p| p.is_match(path)) {
        return;
    }
    let Some(regex) = rule.regex() else {
        return;
    };
    for m in regex.find_iter(content) {
        // As gitleaks: the match without the newlines at its ends.
        let matched = trim_newlines(m.as_bytes());
        if matched.is_empty() {
            continue;
        }
        let start = m.start() + (m.as_bytes().len() - trim_start_newlines(m.as_bytes()).len());
        let end = start + matched.len();
        let (line_no, line) = lines.span(content, start, end);
        if line.contains_str(ALLOW_MARKER) {
            continue;
        }
        // The secret: gitleaks matches the regex again on the match alone.
        let secret = match regex.captures(matched) {
            Some(caps) if caps.len() >= 2 => {
                if rule.rule.secret_group > 0 {
                    match caps.get(rule.rule.secret_group) {
                        Some(g) => g.as_bytes(),
                        None if caps.len() <= rule.rule.secret_group => continue,
                        None => b"",
                    }
                } else {
                    (1..caps.len())
                        .filter_map(|g| caps.get(g))
                        .map(|g| g.as_bytes())
                        .find(|s| !s.is_empty())
                        .unwrap_or(matched)
                }
            }
            _ => matched,
        };
        if rule.rule.entropy != 0.0 && shannon_entropy(secret) <= rule.rule.entropy {
            continue;
        }
        if global.finding_allowed(path, secret, matched, line)
            || rule
                .allowlists()
                .iter()
                .any(|a| a.finding_allowed(path, secret, matched, line))
        {
            continue;
        }
        found.push(Found {
            hit: Hit {
                rule: rule.rule.id,
                line: Some(line_no),
            },
            secret: secret.to_vec(),
        });
    }
}

fn trim_start_newlines(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| *b != b'\n')
        .unwrap_or(bytes.len());
    &bytes[start..]
}

fn trim_newlines(bytes: &[u8]) -> &[u8] {
    let bytes = trim_start_newlines(bytes);
    let end = bytes.iter().rposition(|b| *b != b'\n').map_or(0, |e| e + 1);
    &bytes[..end]
}

/// Shannon entropy in bits per character, over the characters of `text` (as Go ranges over a
/// string: by UTF-8 character, an invalid byte counting as one).
pub fn shannon_entropy(text: &[u8]) -> f64 {
    if text.is_empty() {
        return 0.0;
    }
    let text = String::from_utf8_lossy(text);
    let mut counts: std::collections::HashMap<char, usize> = std::collections::HashMap::new();
    for c in text.chars() {
        *counts.entry(c).or_default() += 1;
    }
    // Go divides by the length in bytes.
    let len = text.len() as f64;
    counts
        .values()
        .map(|&n| {
            let freq = n as f64 / len;
            -freq * freq.log2()
        })
        .sum()
}

/// Where lines start, to turn a byte offset into a line number.
struct LineIndex {
    /// The offset of each newline.
    newlines: Vec<usize>,
}

impl LineIndex {
    fn new(content: &[u8]) -> LineIndex {
        LineIndex {
            newlines: content
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// The 1-based line where `start` lies, and the text of the lines `start..end` spans
    /// (without their final newline).
    fn span<'c>(&self, content: &'c [u8], start: usize, end: usize) -> (u32, &'c [u8]) {
        let before = self.newlines.partition_point(|&n| n < start);
        let line_start = if before == 0 {
            0
        } else {
            self.newlines[before - 1] + 1
        };
        let last = end.saturating_sub(1).max(start);
        let after = self.newlines.partition_point(|&n| n < last);
        let line_end = self.newlines.get(after).copied().unwrap_or(content.len());
        let line_no = u32::try_from(before + 1).unwrap_or(u32::MAX);
        (line_no, &content[line_start..line_end.max(line_start)])
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::super::rules::{GLOBAL, RULES};
    use super::*;

    #[test]
    fn every_rule_and_allowlist_compiles() {
        let mut broken = Vec::new();
        for rule in RULES {
            for (what, pattern) in [("regex", rule.regex), ("path", rule.path)] {
                if let Some(p) = pattern
                    && build(p).is_none()
                {
                    broken.push(format!(
                        "{} {what}: {:?}",
                        rule.id,
                        RegexBuilder::new(p).unicode(false).build().err()
                    ));
                }
            }
            for list in rule.allowlists {
                for p in list.regexes.iter().chain(list.paths) {
                    if build(p).is_none() {
                        broken.push(format!("{} allowlist: {p}", rule.id));
                    }
                }
            }
        }
        for p in GLOBAL.regexes.iter().chain(GLOBAL.paths) {
            if build(p).is_none() {
                broken.push(format!("global allowlist: {p}"));
            }
        }
        assert!(broken.is_empty(), "{broken:#?}");
        assert!(RULES.len() > 200, "{} rules", RULES.len());
    }

    #[test]
    fn entropy_is_gos() {
        assert_eq!(shannon_entropy(b""), 0.0);
        assert_eq!(shannon_entropy(b"aaaa"), 0.0);
        assert!((shannon_entropy(b"ab") - 1.0).abs() < 1e-9);
        assert!((shannon_entropy(b"abcd") - 2.0).abs() < 1e-9);
    }

    #[test]
    fn lines_are_counted_from_one() {
        let text = b"one\ntwo\nthree";
        let index = LineIndex::new(text);
        assert_eq!(index.span(text, 0, 3), (1, &b"one"[..]));
        assert_eq!(index.span(text, 4, 7), (2, &b"two"[..]));
        assert_eq!(index.span(text, 8, 13), (3, &b"three"[..]));
        assert_eq!(index.span(text, 4, 10), (2, &b"two\nthree"[..]));
    }
}
