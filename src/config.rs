//! Typed settings: every `checkpoint.*` key, and the git keys that change what git-checkpoint
//! prints (`diff.renames`, `core.quotePath`, `color.diff`/`color.ui`), read in one place, when
//! the repository is opened. Git keys that change how git itself works on the repository
//! (`core.abbrev`, `core.attributesFile`, `core.fsCache`, `gc.auto`, and what gix reads of
//! `core.*` to hash files as git does) are read where git reads them, by gix or beside the code
//! that needs them.
//!
//! A value that cannot be understood does not stop the commands that do not need it: it is
//! kept as the error, and the operation that needs it fails with that error (`prune` with a bad
//! `checkpoint.maxAge`), or reports it as a warning (the automatic prune after a save).

use std::collections::BTreeMap;

use chrono::Duration;
use gix::bstr::ByteSlice;

use crate::error::Error;

/// Default for `checkpoint.keep`.
pub const DEFAULT_KEEP: usize = 50;
/// `checkpoint.minAge` by default: an hour, in minutes.
pub const DEFAULT_MIN_AGE_MINUTES: i64 = 60;
/// Default for `checkpoint.maxFileSize`: 100 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 100 * 1024 * 1024;

/// What a plain directory's checkpoints leave out unless `checkpoint.defaultExcludes` is false:
/// dependency, virtual-environment, cache and build directories, which are large, rebuilt from
/// the project's own files, and what a `.gitignore` would list in a repository.
pub const DEFAULT_EXCLUDES: &[&str] = &[
    "node_modules/",
    ".venv/",
    "venv/",
    "__pycache__/",
    ".tox/",
    ".mypy_cache/",
    ".pytest_cache/",
    ".gradle/",
    ".next/",
    "target/",
];

/// What a snapshot holds beyond git's rules: the size guard, and the patterns (gitignore syntax)
/// of `checkpoint.exclude` and `checkpoint.include`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capture {
    /// Untracked files larger than this many bytes are left out (`checkpoint.maxFileSize`).
    pub max_file_size: u64,
    /// Left out of every checkpoint, tracked or not (`checkpoint.exclude`, and in a plain
    /// directory [`DEFAULT_EXCLUDES`]).
    pub exclude: Vec<String>,
    /// Captured even though git ignores them (`checkpoint.include`).
    pub include: Vec<String>,
}

/// What `checkpoint.hookFailure` asks for when a hook's save fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HookFailure {
    /// A warning on stderr and success: the agent goes on (the default).
    #[default]
    Warn,
    /// Refuse the tool call, the way the agent understands.
    Block,
}

/// The retention policy: which checkpoints to keep.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// Keep at most this many (unpinned) checkpoints of each kind, all worktrees together; a
    /// named checkpoint counts only against the other named ones (`checkpoint.keep`).
    pub keep: Option<usize>,
    /// Keep at most this many of a kind (`checkpoint.<kind>.keep`), instead of `keep`.
    pub keep_per_kind: BTreeMap<String, usize>,
    /// Prune checkpoints older than this.
    pub max_age: Option<Duration>,
    /// Remove the oldest unpinned checkpoints until what only checkpoints hold is at most
    /// this many bytes (`checkpoint.maxSize`).
    pub max_size: Option<u64>,
    /// A count or size limit never removes a checkpoint younger than this
    /// (`checkpoint.minAge`, default [`DEFAULT_MIN_AGE_MINUTES`]); `maxAge` and an explicit
    /// `prune --keep` still do.
    pub min_age: Option<Duration>,
    /// Only consider checkpoints of this kind (`prune --kind`).
    pub only_kind: Option<String>,
    /// Which limits the command line gave for this run rather than the settings: they are
    /// named so, and an explicit keep goes below `min_age`.
    pub given: Given,
}

/// Which of a [`Policy`]'s limits the command line gave (`prune`'s flags).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Given {
    /// `prune --keep`.
    pub keep: bool,
    /// `prune --older-than`.
    pub max_age: bool,
    /// `prune --max-size`.
    pub max_size: bool,
    /// `prune --min-age`.
    pub min_age: bool,
}

/// Which limit of a [`Policy`] removes a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Limit {
    /// `checkpoint.keep` (or `prune --keep`).
    Keep,
    /// `checkpoint.<kind>.keep` (or `prune --kind <kind> --keep`).
    KindKeep(String),
    /// `checkpoint.maxAge` (or `prune --older-than`).
    MaxAge,
    /// `checkpoint.maxSize` (or `prune --max-size`).
    MaxSize,
}

impl Policy {
    /// The setting (or flag) that sets `limit`, as a user would look for it.
    pub fn name(&self, limit: &Limit) -> String {
        let (flag, setting) = match limit {
            Limit::Keep => (self.given.keep, "checkpoint.keep".to_string()),
            Limit::KindKeep(kind) => (self.given.keep, format!("checkpoint.{kind}.keep")),
            Limit::MaxAge => (self.given.max_age, "checkpoint.maxAge".to_string()),
            Limit::MaxSize => (self.given.max_size, "checkpoint.maxSize".to_string()),
        };
        if !flag {
            return setting;
        }
        match limit {
            Limit::Keep | Limit::KindKeep(_) => "prune --keep",
            Limit::MaxAge => "prune --older-than",
            Limit::MaxSize => "prune --max-size",
        }
        .to_string()
    }
}

/// `checkpoint.secrets`: what a save does about secrets in the files it adds beyond `HEAD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretsMode {
    /// No scan at save, and none at push for checkpoints saved without one.
    Off,
    /// Scan, record the findings in the note, and say so (the default).
    Warn,
    /// Scan, and refuse a save that finds any (never a safety checkpoint).
    Block,
}

/// A setting that could not be read: the key and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The config key, e.g. `checkpoint.maxAge`.
    pub key: String,
    /// What is wrong with its value.
    pub message: String,
}

impl From<&Problem> for Error {
    fn from(p: &Problem) -> Error {
        Error::Config {
            key: p.key.clone(),
            message: p.message.clone(),
        }
    }
}

/// Every setting git-checkpoint reads, typed.
#[derive(Debug, Clone)]
pub struct Settings {
    policy: Result<Policy, Problem>,
    max_file_size: Result<u64, Problem>,
    secrets: Result<SecretsMode, Problem>,
    /// `checkpoint.secretsAllow` (multi-valued): rule ids, or paths in gitignore syntax, whose
    /// findings are allowed (test fixtures, documented examples).
    pub secrets_allow: Vec<String>,
    /// `checkpoint.autoPrune` (default true): apply the retention policy after every save.
    pub auto_prune: bool,
    /// `checkpoint.conversation` (default true): a hook's save keeps the agent's transcript
    /// with the checkpoint. An explicit `--conversation` is kept either way.
    pub conversation: bool,
    /// `checkpoint.hookFailure`: `warn` (default) or `block`.
    pub hook_failure: HookFailure,
    /// `diff.renames` (default true): detect renames in diffs.
    pub diff_renames: bool,
    /// `core.quotePath` (default true): quote non-ASCII bytes in paths, as git does.
    pub quote_path: bool,
    /// `color.diff`, else `color.ui`: `Some(true)` for `always`, `Some(false)` for `never`
    /// (or `false`, `no`, `off`, `0`), `None` for `auto` or unset (colour on a terminal).
    pub diff_color: Option<bool>,
    /// `checkpoint.exclude` (multi-valued, gitignore patterns): never captured, never touched
    /// by restore.
    pub exclude: Vec<String>,
    /// `checkpoint.include` (multi-valued, gitignore patterns): ignored paths captured anyway.
    pub include: Vec<String>,
    /// `checkpoint.defaultExcludes` (default true): in a plain directory, leave out
    /// [`DEFAULT_EXCLUDES`].
    pub default_excludes: bool,
    /// The pager for long output on a terminal, chosen as git chooses it for its own commands:
    /// `GIT_PAGER`, else `pager.checkpoint` (false: none; a command: that one), else
    /// `core.pager`, else `PAGER`, else `less`. `None`: no pager (also for `cat` or an empty
    /// one).
    pub pager: Option<String>,
}

impl Settings {
    /// Read the settings from `repo`'s configuration.
    pub fn load(repo: &gix::Repository) -> Settings {
        let config = repo.config_snapshot();
        let boolean = |key: &str, default: bool| config.boolean(key).unwrap_or(default);
        let hook_failure = match config.string("checkpoint.hookFailure") {
            Some(v) if v.eq_ignore_ascii_case(b"block") => HookFailure::Block,
            _ => HookFailure::Warn,
        };
        let max_file_size = match config.string("checkpoint.maxFileSize") {
            None => Ok(DEFAULT_MAX_FILE_SIZE),
            Some(raw) => parse_size(raw.to_str_lossy().trim()).ok_or_else(|| Problem {
                key: "checkpoint.maxFileSize".into(),
                message: format!("`{raw}` is not a size (use e.g. 512k, 100m, 1g)"),
            }),
        };
        let secrets = secrets_mode(&config);
        Settings {
            policy: policy(&config),
            max_file_size,
            secrets,
            secrets_allow: patterns(&config, "checkpoint.secretsAllow"),
            auto_prune: boolean("checkpoint.autoPrune", true),
            conversation: boolean("checkpoint.conversation", true),
            hook_failure,
            diff_renames: boolean("diff.renames", true),
            quote_path: boolean("core.quotePath", true),
            diff_color: config
                .string("color.diff")
                .or_else(|| config.string("color.ui"))
                .and_then(|v| match v.to_str_lossy().to_ascii_lowercase().as_str() {
                    "always" => Some(true),
                    "never" | "false" | "no" | "off" | "0" => Some(false),
                    _ => None,
                }),
            exclude: patterns(&config, "checkpoint.exclude"),
            include: patterns(&config, "checkpoint.include"),
            default_excludes: boolean("checkpoint.defaultExcludes", true),
            pager: pager(&config),
        }
    }

    /// The retention policy (`checkpoint.keep`, `checkpoint.<kind>.keep`, `checkpoint.maxAge`).
    pub fn policy(&self) -> Result<&Policy, Error> {
        self.policy.as_ref().map_err(Error::from)
    }

    /// `checkpoint.maxFileSize`: untracked files larger than this are left out.
    pub fn max_file_size(&self) -> Result<u64, Error> {
        self.max_file_size.clone().map_err(|p| Error::from(&p))
    }

    /// `checkpoint.secrets`: whether a save scans for secrets, and whether a finding refuses it.
    pub fn secrets(&self) -> Result<SecretsMode, Error> {
        self.secrets.clone().map_err(|p| Error::from(&p))
    }
}

impl Settings {
    /// What a snapshot holds: the size guard and the exclude and include patterns; `plain`: of
    /// a plain directory, where [`DEFAULT_EXCLUDES`] apply unless turned off.
    pub fn capture(&self, plain: bool) -> Result<Capture, Error> {
        let mut exclude: Vec<String> = Vec::new();
        if plain && self.default_excludes {
            exclude.extend(DEFAULT_EXCLUDES.iter().map(|p| p.to_string()));
        }
        exclude.extend(self.exclude.iter().cloned());
        Ok(Capture {
            max_file_size: self.max_file_size()?,
            exclude,
            include: self.include.clone(),
        })
    }
}

/// `checkpoint.secrets` and `checkpoint.secretsAllow` of `repo`, read where no [`Settings`]
/// are at hand (the safety checkpoint of a restore).
pub fn secrets(repo: &gix::Repository) -> (Result<SecretsMode, Problem>, Vec<String>) {
    let config = repo.config_snapshot();
    (
        secrets_mode(&config),
        patterns(&config, "checkpoint.secretsAllow"),
    )
}

fn secrets_mode(config: &gix::config::Snapshot<'_>) -> Result<SecretsMode, Problem> {
    match config.string("checkpoint.secrets") {
        None => Ok(SecretsMode::Warn),
        Some(raw) => match raw.to_str_lossy().trim().to_ascii_lowercase().as_str() {
            "off" | "false" | "no" | "0" => Ok(SecretsMode::Off),
            "warn" | "true" | "yes" | "on" | "1" => Ok(SecretsMode::Warn),
            "block" => Ok(SecretsMode::Block),
            _ => Err(Problem {
                key: "checkpoint.secrets".into(),
                message: format!("`{raw}` is not one of off, warn, block"),
            }),
        },
    }
}

/// The pager, as git chooses it (`git var GIT_PAGER`, and `pager.<cmd>` for the command).
fn pager(config: &gix::config::Snapshot<'_>) -> Option<String> {
    let env = |name: &str| std::env::var(name).ok();
    let own = config.string("pager.checkpoint").map(|v| v.to_string());
    let chosen = match env("GIT_PAGER") {
        Some(pager) => pager,
        None => match own.as_deref().map(|v| (v, v.trim().to_ascii_lowercase())) {
            Some((_, off)) if ["false", "no", "off", "0"].contains(&off.as_str()) => return None,
            Some((command, on)) if !["true", "yes", "on", "1", ""].contains(&on.as_str()) => {
                command.to_string()
            }
            _ => config
                .string("core.pager")
                .map(|v| v.to_string())
                .or_else(|| env("PAGER"))
                .unwrap_or_else(|| "less".into()),
        },
    };
    let chosen = chosen.trim().to_string();
    (!chosen.is_empty() && chosen != "cat").then_some(chosen)
}

/// Every value of a multi-valued key, in the order git reads them (global, then the
/// repository's), without empty ones and comments.
fn patterns(config: &gix::config::Snapshot<'_>, key: &str) -> Vec<String> {
    config
        .plumbing()
        .strings(key)
        .unwrap_or_default()
        .iter()
        .map(|v| v.to_str_lossy().trim().to_string())
        .filter(|v| !v.is_empty() && !v.starts_with('#'))
        .collect()
}

fn policy(config: &gix::config::Snapshot<'_>) -> Result<Policy, Problem> {
    let keep = match config.string("checkpoint.keep") {
        Some(raw) => Some(parse_count("checkpoint.keep", &raw.to_string())?),
        None => Some(DEFAULT_KEEP),
    };
    let max_age = match config.string("checkpoint.maxAge") {
        Some(raw) => Some(parse_duration(&raw.to_string()).map_err(|message| Problem {
            key: "checkpoint.maxAge".into(),
            message,
        })?),
        None => None,
    };
    let max_size = match config.string("checkpoint.maxSize") {
        Some(raw) => Some(
            parse_size(raw.to_str_lossy().trim()).ok_or_else(|| Problem {
                key: "checkpoint.maxSize".into(),
                message: format!("`{raw}` is not a size (use e.g. 512m, 2g)"),
            })?,
        ),
        None => None,
    };
    let min_age = match config.string("checkpoint.minAge") {
        Some(raw) => Some(parse_duration(&raw.to_string()).map_err(|message| Problem {
            key: "checkpoint.minAge".into(),
            message,
        })?),
        None => Some(Duration::minutes(DEFAULT_MIN_AGE_MINUTES)),
    }
    .filter(|age| *age > Duration::zero());
    let mut keep_per_kind = BTreeMap::new();
    if let Some(sections) = config.plumbing().sections_by_name("checkpoint") {
        for section in sections {
            let Some(kind) = section.header().subsection_name() else {
                continue;
            };
            if let Some(raw) = section.value("keep") {
                let key = format!("checkpoint.{kind}.keep");
                keep_per_kind.insert(kind.to_string(), parse_count(&key, &raw.to_string())?);
            }
        }
    }
    Ok(Policy {
        keep,
        keep_per_kind,
        max_age,
        max_size,
        min_age,
        only_kind: None,
        given: Given::default(),
    })
}

fn parse_count(key: &str, raw: &str) -> Result<usize, Problem> {
    raw.trim().parse().map_err(|_| Problem {
        key: key.into(),
        message: format!("`{raw}` is not a number"),
    })
}

/// Parse git's integer syntax with an optional `k`, `m` or `g` suffix (`512k`, `100m`, `1g`).
pub fn parse_size(text: &str) -> Option<u64> {
    let (digits, factor) = match text.as_bytes().last()? {
        b'k' | b'K' => (&text[..text.len() - 1], 1u64 << 10),
        b'm' | b'M' => (&text[..text.len() - 1], 1 << 20),
        b'g' | b'G' => (&text[..text.len() - 1], 1 << 30),
        _ => (text, 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(factor)
}

/// Parse a duration: a number followed by `s`, `m`, `h`, `d` or `w` (`90m`, `12h`, `30d`, `2w`).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let bad = || format!("`{text}` is not a duration (use e.g. 90m, 12h, 30d, 2w)");
    if text == "0" {
        return Ok(Duration::zero());
    }
    let unit = text.chars().last().ok_or_else(bad)?;
    let number: i64 = text[..text.len() - unit.len_utf8()]
        .parse()
        .map_err(|_| bad())?;
    if number < 0 {
        return Err(bad());
    }
    let seconds = match unit {
        's' => Some(number),
        'm' => number.checked_mul(60),
        'h' => number.checked_mul(3600),
        'd' => number.checked_mul(86_400),
        'w' => number.checked_mul(7 * 86_400),
        _ => None,
    }
    .ok_or_else(bad)?;
    Duration::try_seconds(seconds).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_use_git_suffixes() {
        assert_eq!(parse_size("100"), Some(100));
        assert_eq!(parse_size("512k"), Some(512 * 1024));
        assert_eq!(parse_size("100m"), Some(100 * 1024 * 1024));
        assert_eq!(parse_size("1G"), Some(1 << 30));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("-1"), None);
        assert_eq!(parse_size("99999999999999g"), None);
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("90m"), Ok(Duration::minutes(90)));
        assert_eq!(parse_duration("2w"), Ok(Duration::weeks(2)));
        assert_eq!(parse_duration(" 12h "), Ok(Duration::hours(12)));
        assert_eq!(parse_duration("45s"), Ok(Duration::seconds(45)));
        for bad in [
            "",
            "d",
            "12",
            "1y",
            "-1d",
            "1.5h",
            "99999999999999999w",
            "ü",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
