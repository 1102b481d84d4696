//! What a snapshot holds beyond git's own rules: `checkpoint.exclude` (left out, tracked or
//! not), `checkpoint.include` (ignored paths captured anyway), and a plain directory's default
//! excludes. Patterns have gitignore syntax, relative to the top of the working tree.

use gix::bstr::{BStr, BString, ByteSlice};
use gix::glob::pattern::Case;
use gix::ignore::Search;

use crate::config::Capture;
use crate::error::{Error, Result};

/// The exclude and include patterns, ready to match.
pub struct Rules {
    exclude: Option<Search>,
    include: Option<Search>,
    /// The include patterns as given, to tell which directories one may match below.
    include_patterns: Vec<String>,
    case: Case,
}

impl Rules {
    /// Compile `capture`'s patterns; `ignore_case` as `core.ignoreCase` says.
    pub fn new(capture: &Capture, ignore_case: bool) -> Rules {
        let search = |patterns: &[String]| {
            (!patterns.is_empty()).then(|| {
                Search::from_overrides(
                    patterns.iter().map(std::ffi::OsString::from),
                    gix::ignore::search::Ignore::default(),
                )
            })
        };
        Rules {
            exclude: search(&capture.exclude),
            include: search(&capture.include),
            include_patterns: capture.include.clone(),
            case: if ignore_case {
                Case::Fold
            } else {
                Case::Sensitive
            },
        }
    }

    /// The exclude patterns, to give the directory walk as overrides of every other ignore
    /// rule: an excluded directory is then not even entered.
    pub fn walk_overrides(&self) -> Option<Search> {
        self.exclude.clone()
    }

    /// Whether there are exclude patterns.
    pub fn excludes_any(&self) -> bool {
        self.exclude.is_some()
    }

    /// Whether there are include patterns.
    pub fn includes_any(&self) -> bool {
        self.include.is_some()
    }

    /// Whether `path` (a directory when `is_dir`) is left out by `checkpoint.exclude`: it, or a
    /// directory above it, matches.
    pub fn excluded(&self, path: &BStr, is_dir: bool) -> bool {
        self.exclude
            .as_ref()
            .is_some_and(|s| matches_or_below(s, path, is_dir, self.case))
    }

    /// Whether `path` (a directory when `is_dir`) is captured although ignored: it, or a
    /// directory above it, matches `checkpoint.include`, and it is not excluded.
    pub fn included(&self, path: &BStr, is_dir: bool) -> bool {
        self.include
            .as_ref()
            .is_some_and(|s| matches_or_below(s, path, is_dir, self.case))
            && !self.excluded(path, is_dir)
    }

    /// Whether an include pattern may match something below the directory `dir`: a pattern
    /// without a slash matches at any depth; one with a slash only where its leading
    /// components match `dir`'s.
    pub fn may_include_below(&self, dir: &BStr) -> bool {
        if self.excluded(dir, true) {
            return false;
        }
        let dir_parts: Vec<&[u8]> = dir.split_str("/").collect();
        self.include_patterns.iter().any(|pattern| {
            let pattern = pattern.strip_prefix('!').unwrap_or(pattern);
            let trimmed = pattern.trim_end_matches('/');
            let anchored = trimmed.contains('/');
            if !anchored {
                return true;
            }
            let parts: Vec<&str> = trimmed.trim_start_matches('/').split('/').collect();
            for (i, d) in dir_parts.iter().enumerate() {
                let Some(p) = parts.get(i) else {
                    // The pattern names a directory above `dir`: `included` decides.
                    return true;
                };
                if p.contains("**") {
                    return true;
                }
                let glob = p.contains(['*', '?', '[', '\\']);
                let same = match self.case {
                    Case::Fold => p.as_bytes().eq_ignore_ascii_case(d),
                    Case::Sensitive => p.as_bytes() == *d,
                };
                if !glob && !same {
                    return false;
                }
            }
            true
        })
    }

    /// The files (and symlinks) below the ignored directory `dir` that `checkpoint.include`
    /// captures, found by walking it without following symlinks and without entering nested
    /// repositories. Paths are relative to the top of the working tree.
    pub fn included_below(&self, workdir: &std::path::Path, dir: &BStr) -> Result<Vec<BString>> {
        let mut found = Vec::new();
        if self.may_include_below(dir) {
            self.walk(workdir, dir.to_owned(), &mut found)?;
        }
        Ok(found)
    }

    fn walk(
        &self,
        workdir: &std::path::Path,
        dir: BString,
        found: &mut Vec<BString>,
    ) -> Result<()> {
        let Ok(rela) = gix::path::from_bstr(dir.as_bstr()) else {
            return Ok(());
        };
        let full = workdir.join(rela);
        if full.join(".git").symlink_metadata().is_ok() {
            // A nested repository: never looked into.
            return Ok(());
        }
        let entries = match std::fs::read_dir(&full) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(source) => {
                return Err(Error::UnreadableFile {
                    path: dir.to_string(),
                    source,
                });
            }
        };
        let mut names = Vec::new();
        for entry in entries.flatten() {
            let Ok(name) = gix::path::os_str_into_bstr(&entry.file_name()).map(BString::from)
            else {
                continue;
            };
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            names.push((name, kind));
        }
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind) in names {
            let mut path = dir.clone();
            path.push(b'/');
            path.extend_from_slice(&name);
            if kind.is_dir() {
                if self.may_include_below(path.as_bstr()) || self.included(path.as_bstr(), true) {
                    self.walk(workdir, path, found)?;
                }
            } else if (kind.is_file() || kind.is_symlink()) && self.included(path.as_bstr(), false)
            {
                found.push(path);
            }
        }
        Ok(())
    }
}

/// Patterns in gitignore syntax, relative to the top of the working tree, that name paths (a
/// pattern naming a directory names everything below it): `checkpoint.secretsAllow`'s.
pub struct Patterns {
    search: Option<Search>,
}

impl Patterns {
    /// Compile `patterns`.
    pub fn new(patterns: &[String]) -> Patterns {
        Patterns {
            search: (!patterns.is_empty()).then(|| {
                Search::from_overrides(
                    patterns.iter().map(std::ffi::OsString::from),
                    gix::ignore::search::Ignore::default(),
                )
            }),
        }
    }

    /// Whether the file `path`, or a directory above it, matches.
    pub fn matches(&self, path: &BStr) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| matches_or_below(s, path, false, Case::Sensitive))
    }
}

/// Whether `path`, or a directory above it, matches `search` (the last matching pattern of a
/// level deciding, as in a `.gitignore`; a matching directory decides for all below it).
fn matches_or_below(search: &Search, path: &BStr, is_dir: bool, case: Case) -> bool {
    let matched = |p: &BStr, dir: bool| {
        search
            .pattern_matching_relative_path(p, Some(dir), case)
            .is_some_and(|m| !m.pattern.is_negative())
    };
    for pos in path.find_iter(b"/") {
        if matched(path[..pos].as_bstr(), true) {
            return true;
        }
    }
    matched(path, is_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(exclude: &[&str], include: &[&str]) -> Rules {
        Rules::new(
            &Capture {
                max_file_size: 0,
                exclude: exclude.iter().map(|s| s.to_string()).collect(),
                include: include.iter().map(|s| s.to_string()).collect(),
            },
            false,
        )
    }

    #[test]
    fn excludes_match_paths_and_directories_above_them() {
        let r = rules(&["node_modules/", "*.log", "/build"], &[]);
        assert!(r.excluded(b"node_modules".as_bstr(), true));
        assert!(!r.excluded(b"node_modules".as_bstr(), false));
        assert!(r.excluded(b"a/node_modules/x/y.js".as_bstr(), false));
        assert!(r.excluded(b"deep/er.log".as_bstr(), false));
        assert!(r.excluded(b"build/out".as_bstr(), false));
        assert!(!r.excluded(b"src/build/out".as_bstr(), false));
        assert!(!r.excluded(b"src/main.rs".as_bstr(), false));
    }

    #[test]
    fn includes_lose_to_excludes_and_say_where_to_look() {
        let r = rules(&["*.tmp"], &[".loki/state/", "progress.txt"]);
        assert!(r.included(b".loki/state/a.json".as_bstr(), false));
        assert!(!r.included(b".loki/state/a.tmp".as_bstr(), false));
        assert!(!r.included(b".loki/other".as_bstr(), false));
        assert!(r.included(b"x/progress.txt".as_bstr(), false));
        let anchored = rules(&[], &[".loki/state/"]);
        assert!(anchored.may_include_below(b".loki".as_bstr()));
        assert!(anchored.may_include_below(b".loki/state".as_bstr()));
        assert!(!anchored.may_include_below(b"node_modules".as_bstr()));
        assert!(rules(&[], &["*.json"]).may_include_below(b"anything".as_bstr()));
        assert!(
            !rules(&["node_modules/"], &["*.json"]).may_include_below(b"node_modules".as_bstr())
        );
    }
}
