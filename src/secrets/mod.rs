//! Secrets stay home: what a checkpoint adds beyond `HEAD` (new and changed files, not
//! symlinks or submodules, up to [`MAX_SCANNED_FILE`]) is scanned with gitleaks' rule set and
//! a few rules of our own (`local.toml`), and the findings go in the note: path, line, rule.
//! The secret itself is never kept, printed or returned.
//!
//! The rules are compiled in from `rules.rs`, which `generate.py` writes from `gitleaks.toml`
//! (gitleaks' default configuration, MIT, vendored unchanged; `LICENSE-gitleaks`) and
//! `local.toml`. To update: replace `gitleaks.toml` with upstream's `config/gitleaks.toml`,
//! note its commit in `generate.py`, run `python3 src/secrets/generate.py`, then the tests
//! (`cargo test --lib secrets`: every regex compiles, the corpus keeps its recall).

mod engine;
#[rustfmt::skip]
mod rules;

use std::collections::BTreeSet;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::objs::tree::EntryKind;

use crate::error::{Context, Result};
use crate::format::{MAX_SECRET_FINDINGS, SecretFinding, SecretsNote};
use crate::select::Patterns;

/// The largest file the scan reads: larger ones are counted as unscanned (as gitleaks'
/// `--max-target-megabytes` would leave them), whatever `checkpoint.maxFileSize` allows.
pub const MAX_SCANNED_FILE: u64 = 10 << 20;

/// Whether `id` is a rule's id.
pub fn is_rule(id: &str) -> bool {
    rules::RULES.iter().any(|r| r.id == id)
}

/// The findings `checkpoint.secretsAllow` allows: each value is a rule id, or else a path in
/// gitignore syntax (a directory: everything below it).
pub struct Allowed {
    rules: BTreeSet<String>,
    paths: Patterns,
}

impl Allowed {
    /// Read `checkpoint.secretsAllow`'s values.
    pub fn new(values: &[String]) -> Allowed {
        let (rules, paths): (Vec<String>, Vec<String>) =
            values.iter().cloned().partition(|v| is_rule(v));
        Allowed {
            rules: rules.into_iter().collect(),
            paths: Patterns::new(&paths),
        }
    }

    /// Whether `finding` is allowed.
    pub fn allows(&self, finding: &SecretFinding) -> bool {
        self.rules.contains(&finding.rule) || self.paths.matches(finding.path.as_bytes().as_bstr())
    }

    /// Whether every finding in `path` is allowed, so that it need not be read.
    fn allows_path(&self, path: &BStr) -> bool {
        self.paths.matches(path)
    }

    /// `note` without the findings allowed now (the allowlist may have grown since the save).
    pub fn filter(&self, note: &SecretsNote) -> SecretsNote {
        SecretsNote {
            findings: note
                .findings
                .iter()
                .filter(|f| !self.allows(f))
                .cloned()
                .collect(),
            ..note.clone()
        }
    }
}

/// A file to scan.
struct Candidate {
    path: BString,
    id: ObjectId,
}

/// Scan the files `tree` adds or changes beyond `base` (`None`: every file of `tree`), leaving
/// out what `allowed` allows.
pub fn scan(
    repo: &gix::Repository,
    base: Option<ObjectId>,
    tree: ObjectId,
    allowed: &Allowed,
) -> Result<SecretsNote> {
    let candidates: Vec<Candidate> = crate::treediff::changes(repo, base, Some(tree))?
        .into_iter()
        .filter_map(|change| {
            let new = change.new?;
            let blob = matches!(new.kind, EntryKind::Blob | EntryKind::BlobExecutable);
            (blob
                && !allowed.allows_path(change.path.as_bstr())
                && !engine::path_skipped(rules::RULES, &rules::GLOBAL, &change.path))
            .then_some(Candidate {
                path: change.path,
                id: new.id,
            })
        })
        .collect();
    let mut note = SecretsNote::default();
    let mut findings: Vec<SecretFinding> = Vec::new();
    // Many files (a first save of a plain directory): every core reads its share.
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    if candidates.len() > 64 && threads > 1 {
        let chunk = candidates.len().div_ceil(threads);
        let results: Vec<Result<(Vec<SecretFinding>, u64)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = candidates
                .chunks(chunk)
                .map(|part| {
                    let repo = repo.clone();
                    scope.spawn(move || scan_files(&repo, part))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(crate::error::Error::InvalidInput(
                            "the secret scan stopped unexpectedly".into(),
                        ))
                    })
                })
                .collect()
        });
        for result in results {
            let (found, unscanned) = result?;
            findings.extend(found);
            note.unscanned += unscanned;
        }
    } else {
        let (found, unscanned) = scan_files(repo, &candidates)?;
        findings = found;
        note.unscanned = unscanned;
    }
    findings.retain(|f| !allowed.allows(f));
    findings.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
    if findings.len() > MAX_SECRET_FINDINGS {
        note.omitted = (findings.len() - MAX_SECRET_FINDINGS) as u64;
        findings.truncate(MAX_SECRET_FINDINGS);
    }
    note.findings = findings;
    Ok(note)
}

/// The findings in `files`, and how many were too large to scan.
fn scan_files(repo: &gix::Repository, files: &[Candidate]) -> Result<(Vec<SecretFinding>, u64)> {
    let mut found = Vec::new();
    let mut unscanned = 0;
    for file in files {
        let header = repo
            .find_header(file.id)
            .context(|| format!("cannot read `{}` to scan it for secrets", file.path))?;
        if header.size() > MAX_SCANNED_FILE {
            unscanned += 1;
            continue;
        }
        let blob = repo
            .find_blob(file.id)
            .context(|| format!("cannot read `{}` to scan it for secrets", file.path))?;
        for hit in engine::scan(rules::RULES, &rules::GLOBAL, &file.path, &blob.data) {
            found.push(SecretFinding {
                path: file.path.to_str_lossy().into_owned(),
                line: hit.line,
                rule: hit.rule.to_string(),
            });
        }
    }
    Ok((found, unscanned))
}

/// The findings of `content` as the file `path` (for tests and the corpus).
#[cfg(test)]
pub(crate) fn scan_bytes(path: &str, content: &[u8]) -> Vec<(&'static str, Option<u32>)> {
    engine::scan(rules::RULES, &rules::GLOBAL, path.as_bytes(), content)
        .into_iter()
        .map(|h| (h.rule, h.line))
        .collect()
}

#[cfg(test)]
mod tests;
