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

/// What the scan of one file gave: its findings (rule, line), or `None` when it was too large
/// to read.
type Scanned = Option<Vec<(Option<u32>, String)>>;

/// Scan the files `tree` adds or changes beyond `base` (`None`: every file of `tree`), leaving
/// out what `allowed` allows. A file scanned by an earlier save at the same path with the same
/// content is not read again: the findings of the last save's files are kept in
/// `checkpoint-secrets-cache` (paths, lines and rules only), which `remember` rewrites.
pub fn scan(
    repo: &gix::Repository,
    base: Option<ObjectId>,
    tree: ObjectId,
    allowed: &Allowed,
    remember: bool,
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
    let mut cache = Cache::read(repo);
    let (known, unknown): (Vec<Candidate>, Vec<Candidate>) =
        candidates.into_iter().partition(|c| cache.get(c).is_some());
    let mut results: Vec<(Candidate, Scanned)> = known
        .into_iter()
        .map(|c| {
            let hits = cache.get(&c).cloned();
            (c, hits)
        })
        .collect();
    results.extend(scan_all(repo, unknown)?);
    let mut note = SecretsNote::default();
    let mut findings: Vec<SecretFinding> = Vec::new();
    for (file, hits) in &results {
        let Some(hits) = hits else {
            note.unscanned += 1;
            continue;
        };
        for (line, rule) in hits {
            findings.push(SecretFinding {
                path: file.path.to_str_lossy().into_owned(),
                line: *line,
                rule: rule.clone(),
            });
        }
    }
    if remember {
        cache.entries = results
            .into_iter()
            .filter_map(|(c, hits)| Some((c.path, (c.id, hits?))))
            .collect();
        cache.write(repo);
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

/// Scan `files`; many (a first save of a plain directory) on every core.
fn scan_all(repo: &gix::Repository, files: Vec<Candidate>) -> Result<Vec<(Candidate, Scanned)>> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    if files.len() <= 64 || threads < 2 {
        return scan_files(repo, files);
    }
    let chunk = files.len().div_ceil(threads);
    let mut parts: Vec<Vec<Candidate>> = Vec::new();
    let mut files = files.into_iter().peekable();
    while files.peek().is_some() {
        parts.push(files.by_ref().take(chunk).collect());
    }
    let results: Vec<Result<Vec<(Candidate, Scanned)>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .into_iter()
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
    let mut out = Vec::new();
    for part in results {
        out.extend(part?);
    }
    Ok(out)
}

fn scan_files(repo: &gix::Repository, files: Vec<Candidate>) -> Result<Vec<(Candidate, Scanned)>> {
    let mut out = Vec::with_capacity(files.len());
    for file in files {
        let header = repo
            .find_header(file.id)
            .context(|| format!("cannot read `{}` to scan it for secrets", file.path))?;
        if header.size() > MAX_SCANNED_FILE {
            out.push((file, None));
            continue;
        }
        let blob = repo
            .find_blob(file.id)
            .context(|| format!("cannot read `{}` to scan it for secrets", file.path))?;
        let hits = engine::scan(rules::RULES, &rules::GLOBAL, &file.path, &blob.data)
            .into_iter()
            .map(|hit| (hit.line, hit.rule.to_string()))
            .collect();
        drop(blob);
        out.push((file, Some(hits)));
    }
    Ok(out)
}

/// The findings of the files the last save scanned, by path: a file of the same path and
/// content is not read again. Only ever a shortcut: a file that cannot be read, or was written
/// under other rules or another version, is ignored.
struct Cache {
    entries: std::collections::HashMap<BString, (ObjectId, Vec<(Option<u32>, String)>)>,
}

/// The cache's file, in the worktree's git directory.
const CACHE_FILE: &str = "checkpoint-secrets-cache";

impl Cache {
    /// The first line: the format, the rules and the version that wrote it.
    fn header() -> String {
        format!(
            "git-checkpoint secrets cache 1 {} {}\n",
            rules::DIGEST,
            env!("CARGO_PKG_VERSION")
        )
    }

    fn read(repo: &gix::Repository) -> Cache {
        let mut cache = Cache {
            entries: Default::default(),
        };
        let Ok(data) = std::fs::read(repo.git_dir().join(CACHE_FILE)) else {
            return cache;
        };
        let Some(rest) = data.strip_prefix(Cache::header().as_bytes()) else {
            return cache;
        };
        if let Some(entries) = Cache::parse(rest) {
            cache.entries = entries;
        }
        cache
    }

    /// Records: `<object id> <count> <path>` and a NUL, then `count` lines `<line or -> <rule>`.
    #[allow(clippy::type_complexity)]
    fn parse(
        mut rest: &[u8],
    ) -> Option<std::collections::HashMap<BString, (ObjectId, Vec<(Option<u32>, String)>)>> {
        let mut entries = std::collections::HashMap::new();
        while !rest.is_empty() {
            let nul = rest.find_byte(0)?;
            let (record, after) = (&rest[..nul], &rest[nul + 1..]);
            let mut fields = record.splitn(3, |b| *b == b' ');
            let id = ObjectId::from_hex(fields.next()?).ok()?;
            let count: usize = fields.next()?.to_str().ok()?.parse().ok()?;
            let path = BString::from(fields.next()?);
            rest = after;
            let mut hits = Vec::with_capacity(count.min(1024));
            for _ in 0..count {
                let end = rest.find_byte(b'\n')?;
                let line = rest[..end].to_str().ok()?;
                rest = &rest[end + 1..];
                let (at, rule) = line.split_once(' ')?;
                let at = if at == "-" {
                    None
                } else {
                    Some(at.parse().ok()?)
                };
                hits.push((at, rule.to_string()));
            }
            entries.insert(path, (id, hits));
        }
        Some(entries)
    }

    fn get(&self, file: &Candidate) -> Option<&Vec<(Option<u32>, String)>> {
        self.entries
            .get(&file.path)
            .filter(|(id, _)| *id == file.id)
            .map(|(_, hits)| hits)
    }

    fn write(&self, repo: &gix::Repository) {
        let mut out = Cache::header().into_bytes();
        for (path, (id, hits)) in &self.entries {
            out.extend_from_slice(id.to_hex().to_string().as_bytes());
            out.extend_from_slice(format!(" {} ", hits.len()).as_bytes());
            out.extend_from_slice(path);
            out.push(0);
            for (line, rule) in hits {
                match line {
                    Some(line) => out.extend_from_slice(format!("{line} {rule}\n").as_bytes()),
                    None => out.extend_from_slice(format!("- {rule}\n").as_bytes()),
                }
            }
        }
        let path = repo.git_dir().join(CACHE_FILE);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, out).is_err() || std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
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
