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

/// Get the scanner ready on another thread, while the caller does other work (a save's
/// snapshot): its first scan then finds the rules compiled.
pub fn prepare() {
    let _ = std::thread::Builder::new()
        .name("secrets-warm-up".into())
        .spawn(|| engine::warm_up(rules::RULES, &rules::GLOBAL));
}

/// Whether `id` is a rule's id.
pub fn is_rule(id: &str) -> bool {
    rules::RULES.iter().any(|r| r.id == id)
}

/// The findings `checkpoint.secretsAllow` allows: each value is a rule id, or else a path in
/// gitignore syntax (a directory: everything below it).
pub struct Allowed {
    rules: BTreeSet<String>,
    paths: Patterns,
    /// The values as given, for the scan's cache: findings kept under another allowlist are
    /// not reused.
    key: String,
}

impl Allowed {
    /// Read `checkpoint.secretsAllow`'s values.
    pub fn new(values: &[String]) -> Allowed {
        let (rules, paths): (Vec<String>, Vec<String>) =
            values.iter().cloned().partition(|v| is_rule(v));
        let key = values
            .iter()
            .map(|v| v.escape_default().to_string())
            .collect::<Vec<_>>()
            .join(" ");
        Allowed {
            rules: rules.into_iter().collect(),
            paths: Patterns::new(&paths),
            key,
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

/// What the scan of one file gave: its findings (line, rule), or `None` when it was too large
/// to read.
type Scanned = Option<Vec<(Option<u32>, String)>>;

/// Up to how many files beyond `HEAD` the cache keeps each file (above: the tree scanned).
const MOST_KNOWN: usize = 2000;

/// The files a save adds or changes beyond its `HEAD`, when the snapshot knows them without
/// comparing trees (path, kind, object).
pub type Known = Vec<(BString, EntryKind, ObjectId)>;

/// Scan the files `tree` adds or changes beyond `base` (`None`: every file of `tree`; `known`:
/// those files, as the snapshot listed them), leaving out what `allowed` allows.
///
/// With `remember` (a save), what was found is kept in `checkpoint-secrets-cache` for the next
/// save (paths, objects, lines and rules; never a value), so that a save reads only the files
/// that changed since the last one:
///
/// - with `known` files (up to [`MOST_KNOWN`]), the cache holds each of them, clean or not, by
///   path and object: a file of the same path and object is not read again;
/// - without (a plain directory, something staged), it holds the tree scanned and its files
///   with findings: the next save over the same base compares the trees and reads only the
///   files that changed since.
pub fn scan(
    repo: &gix::Repository,
    base: Option<ObjectId>,
    tree: ObjectId,
    known: Option<Known>,
    allowed: &Allowed,
    remember: bool,
) -> Result<SecretsNote> {
    let cached = if remember {
        Cache::read(repo, base, allowed)
    } else {
        None
    };
    // Many files beyond HEAD (thousands of untracked ones): comparing trees costs only what
    // changed since the last save, where the cache of every file would cost them all.
    let known = known.filter(|files| files.len() <= MOST_KNOWN);
    let mut entries = Entries::new();
    let results = match (known, cached) {
        (Some(known), cached) => {
            let cached = cached.filter(|c| c.tree.is_none()).map(|c| c.entries);
            let mut unknown = Vec::new();
            for (path, kind, id) in known {
                let change = crate::treediff::FileChange {
                    path,
                    old: None,
                    new: Some(crate::treediff::Side { kind, id }),
                };
                let Some(file) = candidate(repo, base, change, allowed, false)? else {
                    continue;
                };
                match cached.as_ref().and_then(|c| c.get(&file.path)) {
                    Some((was, hits)) if *was == file.id => {
                        entries.insert(file.path, (file.id, hits.clone()));
                    }
                    _ => unknown.push(file),
                }
            }
            let scanned = scan_all(repo, unknown)?;
            for (file, hits) in scanned {
                entries.insert(file.path, (file.id, hits));
            }
            if remember {
                Cache {
                    tree: None,
                    entries: entries.clone(),
                }
                .write(repo, base, allowed);
            }
            None
        }
        // Since the tree the cache was written for: only what changed since.
        (
            None,
            Some(Cache {
                tree: Some(last),
                entries: kept,
            }),
        ) => match crate::treediff::changes(repo, Some(last), Some(tree)) {
            Ok(changes) => {
                entries = kept;
                let mut candidates = Vec::new();
                for change in changes {
                    entries.remove(&change.path);
                    if let Some(candidate) = candidate(repo, base, change, allowed, true)? {
                        candidates.push(candidate);
                    }
                }
                Some(scan_all(repo, candidates)?)
            }
            Err(_) => Some(scan_beyond(repo, base, tree, allowed)?),
        },
        (None, _) => Some(scan_beyond(repo, base, tree, allowed)?),
    };
    if let Some(results) = results {
        // Only the files with findings (or too large) are kept: the trees say which changed.
        for (file, hits) in results {
            if hits.as_ref().is_none_or(|h| !h.is_empty()) {
                entries.insert(file.path, (file.id, hits));
            }
        }
        if remember {
            Cache {
                tree: Some(tree),
                entries: entries.clone(),
            }
            .write(repo, base, allowed);
        }
    }
    let mut note = SecretsNote::default();
    let mut findings: Vec<SecretFinding> = Vec::new();
    for (path, (_, hits)) in &entries {
        let Some(hits) = hits else {
            note.unscanned += 1;
            continue;
        };
        for (line, rule) in hits {
            findings.push(SecretFinding {
                path: path.to_str_lossy().into_owned(),
                line: *line,
                rule: rule.clone(),
            });
        }
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

/// Every file `tree` adds or changes beyond `base`, scanned.
fn scan_beyond(
    repo: &gix::Repository,
    base: Option<ObjectId>,
    tree: ObjectId,
    allowed: &Allowed,
) -> Result<Vec<(Candidate, Scanned)>> {
    let mut candidates = Vec::new();
    for change in crate::treediff::changes(repo, base, Some(tree))? {
        if let Some(candidate) = candidate(repo, base, change, allowed, false)? {
            candidates.push(candidate);
        }
    }
    scan_all(repo, candidates)
}

/// The file to scan for `change`, if any: a file (not a symlink or submodule) that is not
/// allowed or skipped. `check_base`: the change is against another tree than `base`, so a file
/// that is as `base` has it is no candidate.
fn candidate(
    repo: &gix::Repository,
    base: Option<ObjectId>,
    change: crate::treediff::FileChange,
    allowed: &Allowed,
    check_base: bool,
) -> Result<Option<Candidate>> {
    let Some(new) = change.new else {
        return Ok(None);
    };
    if !matches!(new.kind, EntryKind::Blob | EntryKind::BlobExecutable)
        || allowed.allows_path(change.path.as_bstr())
        || engine::path_skipped(rules::RULES, &rules::GLOBAL, &change.path)
    {
        return Ok(None);
    }
    if check_base
        && let Some(base) = base
        && crate::treediff::entry_at(repo, Some(base), change.path.as_bstr())?
            .is_some_and(|e| e.id == new.id)
    {
        return Ok(None);
    }
    Ok(Some(Candidate {
        path: change.path,
        id: new.id,
    }))
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

/// Files scanned, by path: the object scanned and what it gave.
type Entries = std::collections::BTreeMap<BString, (ObjectId, Scanned)>;

/// What the last save's scan found (see [`scan`]): the tree it scanned and its files with
/// findings or too large to scan, or (`tree` none) every file it was given. Only ever a
/// shortcut: a file that cannot be read, or was written under another base, other rules,
/// another allowlist or another version, is ignored.
struct Cache {
    tree: Option<ObjectId>,
    entries: Entries,
}

/// The cache's file, in the worktree's git directory.
const CACHE_FILE: &str = "checkpoint-secrets-cache";

impl Cache {
    /// The first line: the format, the rules, the version, the base and the allowlist.
    fn header(base: Option<ObjectId>, allowed: &Allowed) -> String {
        format!(
            "git-checkpoint secrets cache 2 {} {} {} {}\n",
            rules::DIGEST,
            env!("CARGO_PKG_VERSION"),
            base.map_or_else(|| "-".to_string(), |b| b.to_string()),
            allowed.key
        )
    }

    fn read(repo: &gix::Repository, base: Option<ObjectId>, allowed: &Allowed) -> Option<Cache> {
        let data = std::fs::read(repo.git_dir().join(CACHE_FILE)).ok()?;
        let rest = data.strip_prefix(Cache::header(base, allowed).as_bytes())?;
        let end = rest.find_byte(b'\n')?;
        let tree = match &rest[..end] {
            b"files" => None,
            line => Some(ObjectId::from_hex(line.strip_prefix(b"tree ")?).ok()?),
        };
        Some(Cache {
            tree,
            entries: Cache::parse(&rest[end + 1..])?,
        })
    }

    /// Records: `<object> <count or -> <path>` and a NUL, then `count` lines `<line or -> <rule>`.
    fn parse(mut rest: &[u8]) -> Option<Entries> {
        let mut entries = Entries::new();
        while !rest.is_empty() {
            let nul = rest.find_byte(0)?;
            let (record, after) = (&rest[..nul], &rest[nul + 1..]);
            let (id, record) = record.split_once_str(" ")?;
            let id = ObjectId::from_hex(id).ok()?;
            let (count, path) = record.split_once_str(" ")?;
            rest = after;
            if count == b"-" {
                entries.insert(BString::from(path), (id, None));
                continue;
            }
            let count: usize = count.to_str().ok()?.parse().ok()?;
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
            entries.insert(BString::from(path), (id, Some(hits)));
        }
        Some(entries)
    }

    fn write(&self, repo: &gix::Repository, base: Option<ObjectId>, allowed: &Allowed) {
        let mut out = Cache::header(base, allowed).into_bytes();
        match self.tree {
            Some(tree) => out.extend_from_slice(format!("tree {tree}\n").as_bytes()),
            None => out.extend_from_slice(b"files\n"),
        }
        for (path, (id, hits)) in &self.entries {
            out.extend_from_slice(format!("{id} ").as_bytes());
            match hits {
                None => out.extend_from_slice(b"- "),
                Some(hits) => out.extend_from_slice(format!("{} ", hits.len()).as_bytes()),
            }
            out.extend_from_slice(path);
            out.push(0);
            for (line, rule) in hits.iter().flatten() {
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
