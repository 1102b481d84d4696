//! The library's error type.

use std::path::PathBuf;

/// A checkpoint that a name or id named before `drop` or a prune removed it (see
/// [`Error::Removed`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RemovedCheckpoint {
    /// The name or id as given.
    pub spec: String,
    /// The id of the checkpoint it named.
    pub id: String,
    /// That checkpoint's commit.
    pub commit: String,
    /// What removed it: `drop`, or the setting or flag that pruned it.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
    /// Whether its commit is still in the repository (`git gc` has not collected it), so that
    /// it can be brought back.
    pub recoverable: bool,
}

impl std::fmt::Display for RemovedCheckpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let whose = if self.spec == self.id {
            "checkpoint"
        } else {
            "its checkpoint"
        };
        let how = if self.by == "drop" {
            "dropped".to_string()
        } else {
            format!("pruned by {}", self.by)
        };
        write!(
            f,
            "no checkpoint named `{}`: {whose} {} was {how} ({})",
            self.spec, self.id, self.at
        )
    }
}

/// Everything that can go wrong in git-checkpoint's core.
///
/// Errors coming from `gix` are kept as their source, so `{:#}`-style
/// renderers can show the whole chain; the `Display` text of each variant is
/// one line meant for a user.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No git repository at or above the directory.
    #[error("not a git repository (or any of the parent directories): {}", .0.display())]
    NotARepository(PathBuf),
    /// A plain directory (in no git working tree) where nothing was saved yet: it has no
    /// private store, and only a save makes one.
    #[error("no checkpoints yet: `{}` is not in a git repository, and nothing was saved here", .0.display())]
    NoStore(PathBuf),
    /// A home directory itself, the system's temporary directory itself or a file system root,
    /// where a first save would copy a whole disk into a store: refused unless forced.
    #[error("refusing to checkpoint `{}`: it is {why}, and a first save would copy all of it into a store", .dir.display())]
    RefusedDirectory {
        /// The directory.
        dir: PathBuf,
        /// What it is: "your home directory", "the system's temporary directory", "a file
        /// system root".
        why: &'static str,
    },
    /// The repository has no working tree.
    #[error("this is a bare repository: a checkpoint needs a working tree")]
    BareRepository,
    /// The repository is bare, and the operation needs a working tree (saving, restoring,
    /// comparing with the working tree). What only reads checkpoints works in a bare
    /// repository.
    #[error("this is a bare repository: there is no working tree to {0}")]
    NoWorkingTree(&'static str),
    /// A repository feature this version cannot handle.
    #[error("{0}")]
    Unsupported(String),
    /// There are no checkpoints at all to name.
    #[error("there are no checkpoints yet")]
    NoCheckpoints,
    /// `@`, `@{N}` (or a comparison with the newest) in a worktree that has taken no
    /// checkpoint, while there are others: of other worktrees, or fetched. The number of those.
    #[error(
        "this worktree has no checkpoints of its own yet (`@` counts only those; there {})",
        others(*.0)
    )]
    NoOwnCheckpoints(usize),
    /// The operation was cancelled through its [`Control`](crate::Control).
    #[error("cancelled")]
    Cancelled,
    /// A name on the command line matched no checkpoint.
    #[error("no checkpoint named `{0}`")]
    UnknownCheckpoint(String),
    /// A name or id that matches no checkpoint now, but did match one that `drop` or a prune
    /// removed.
    #[error("{0}")]
    Removed(Box<RemovedCheckpoint>),
    /// `@{N}` beyond the checkpoints this worktree has (`count` of them, at least one).
    #[error(
        "no checkpoint `{spec}`: this worktree only has {}",
        match count {
            1 => "1 checkpoint, `@{0}`".to_string(),
            n => format!("{n} checkpoints, `@{{0}}` to `@{{{}}}`", n - 1),
        }
    )]
    PositionOutOfRange {
        /// The position as given.
        spec: String,
        /// How many checkpoints this worktree has.
        count: usize,
    },
    /// A path given to limit a restore or a comparison matches nothing on either side: no file
    /// at it or below it (as git says of a pathspec that matches nothing). Nothing was changed.
    #[error("{}", unmatched_path(.path, .searched, *.left_out))]
    PathMatchesNothing {
        /// The path, relative to the top of the working tree.
        path: String,
        /// Where it was looked for, e.g. "checkpoint 20261122-143022-481a2b or the working
        /// tree".
        searched: String,
        /// Whether something exists at that path in the working tree that checkpoints leave
        /// out (an ignored file, one larger than `checkpoint.maxFileSize`, the inside of a
        /// nested repository): restore never touches it, and comparisons do not see it.
        left_out: bool,
    },
    /// A name on the command line matched several checkpoints.
    #[error("`{name}` is ambiguous: it could be {}", list_some(.candidates))]
    AmbiguousCheckpoint {
        /// What the user typed.
        name: String,
        /// The ids it could mean.
        candidates: Vec<String>,
    },
    /// A file of the working tree could not be read during a save.
    #[error("cannot read `{path}`: {source}")]
    UnreadableFile {
        /// Path relative to the working tree.
        path: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A configuration value could not be understood.
    #[error("bad config value for `{key}`: {message}")]
    Config {
        /// The config key, e.g. `checkpoint.maxFileSize`.
        key: String,
        /// What is wrong with it.
        message: String,
    },
    /// `checkpoint.secrets=block` and the save found what looks like secrets in the files it
    /// adds beyond `HEAD`; nothing was saved. The findings name paths, lines and rules, never
    /// a secret.
    #[error(
        "not saved: {} in {} (`checkpoint.secrets` is `block`)",
        .0.counted(),
        .0.places(5)
    )]
    SecretsFound(Box<crate::format::SecretsNote>),
    /// Invalid input given by the caller (a bad `--meta-json`, a bad kind).
    #[error("{0}")]
    InvalidInput(String),
    /// Another process kept winning the race for the notes ref.
    #[error("could not update `{0}`: it kept changing under concurrent writers; try again")]
    Contention(String),
    /// Talking to a remote failed, or the remote refused what was sent.
    #[error("{0}")]
    Remote(String),
    /// `refs/notes/checkpoints` exists but cannot be read as a notes commit: the checkpoints'
    /// metadata is then derived from their commits, and notes cannot be written without
    /// dropping the unreadable ones.
    #[error("`refs/notes/checkpoints` cannot be read: {0}")]
    NotesDamaged(String),
    /// A lock file that is not git-checkpoint's to remove stands in the way of updating refs.
    #[error(
        "cannot update refs: the lock file `{}` exists; another git process seems to be running in this repository, or one was killed and left it behind",
        .0.display()
    )]
    Locked(PathBuf),
    /// A merge, rebase, cherry-pick, revert or bisect is in progress.
    #[error("{0} is in progress; finish or abort it first, or use --force")]
    OperationInProgress(String),
    /// `undo` found no earlier state to go back to; why.
    #[error("nothing to undo: {0}")]
    NothingToUndo(UndoEnd),
    /// Taking a step back conflicts with what changed since; nothing was changed.
    #[error(
        "the revert conflicts with changes made since, in {}; nothing was changed",
        list_some(&paths.iter().zip(lines).map(|(p, l)| if l.is_empty() { format!("`{p}`") } else { format!("`{p}` ({l})") }).collect::<Vec<_>>())
    )]
    RevertConflicts {
        /// The conflicting paths, sorted.
        paths: Vec<String>,
        /// For each path, the lines of the working tree's file where the changes overlap
        /// (`lines 3-5, 9`), or empty when the conflict is the whole file's.
        lines: Vec<String>,
    },
    /// A hunk id names no hunk of the comparison it was given for; why (it changed since, it
    /// is another comparison's, its file is binary or no longer a file). Nothing was changed.
    #[error("no hunk `{id}`: {why}; nothing was changed")]
    UnknownHunk {
        /// The id as given.
        id: String,
        /// Why it names nothing.
        why: String,
    },
    /// A hunk cannot be taken back from the working tree as it is now. Nothing was changed.
    #[error("hunk `{id}` of `{path}` cannot be taken back: {why}; nothing was changed")]
    HunkDoesNotApply {
        /// The hunk's id.
        id: String,
        /// Its file.
        path: String,
        /// Why.
        why: String,
    },
    /// `redo` found no undo to take back.
    #[error(
        "nothing to redo: redo takes back the last undos, and only while nothing changed since"
    )]
    NothingToRedo,
    /// A checkpoint's tree holds a path that must never be written.
    #[error("refusing to restore `{path}`: {reason}")]
    UnsafeTree {
        /// The path, escaped for display.
        path: String,
        /// Why it is refused.
        reason: String,
    },
    /// Files that checkpoints do not hold (ignored ones, and untracked ones larger than
    /// `checkpoint.maxFileSize`) stand where the checkpoint needs to write.
    #[error("{}", in_the_way(.ignored, .too_large, *.no_save))]
    InTheWay {
        /// Ignored files or directories in the way.
        ignored: Vec<String>,
        /// Files (or directories holding files) left out by the size guard.
        too_large: Vec<String>,
        /// Whether `--no-save` was given: then nothing could keep their content, so restore
        /// refuses even with `--force`.
        no_save: bool,
    },
    /// Restoring would change a nested repository or submodule, or what is inside one.
    #[error("{}", nested_in_the_way(.repo, .path))]
    NestedRepositoryInTheWay {
        /// The nested repository or submodule.
        repo: String,
        /// The path the checkpoint needs to write or delete (the repository itself, or a path
        /// inside it).
        path: String,
    },
    /// Another restore is running in this worktree.
    #[error("another restore is running in this worktree; wait for it to finish")]
    RestoreInProgress,
    /// A restore failed part-way.
    #[error("{source}; {}", if *.rolled_back { "the working tree was put back as it was" } else { "the working tree could NOT be fully put back: see the pre-restore checkpoint" })]
    RestoreFailed {
        /// What failed.
        source: Box<Error>,
        /// Whether the working tree was put back.
        rolled_back: bool,
    },
    /// A failure inside gix, with what we were doing.
    #[error("{context}: {source}")]
    Git {
        /// What git-checkpoint was doing.
        context: String,
        /// The underlying error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync + 'static>,
    },
    /// A plain I/O failure, with what we were doing.
    #[error("{context}: {source}")]
    Io {
        /// What git-checkpoint was doing.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attach a context message to fallible gix calls.
pub(crate) trait Context<T> {
    fn context(self, context: impl FnOnce() -> String) -> Result<T>;
}

impl<T, E> Context<T> for std::result::Result<T, E>
where
    E: std::error::Error + Send + Sync + 'static,
{
    fn context(self, context: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|err| Error::Git {
            context: context(),
            source: Box::new(err),
        })
    }
}

fn in_the_way(ignored: &[String], too_large: &[String], no_save: bool) -> String {
    let what = match (ignored.is_empty(), too_large.is_empty()) {
        (false, true) => "ignored files stand",
        (true, false) => {
            "files larger than checkpoint.maxFileSize (which checkpoints leave out) stand"
        }
        _ => "ignored files and files larger than checkpoint.maxFileSize stand",
    };
    let named: Vec<String> = ignored
        .iter()
        .chain(too_large)
        .map(|p| format!("`{p}`"))
        .collect();
    let mut text = format!(
        "{what} where the checkpoint needs to write: {}",
        list_some(&named)
    );
    if no_save {
        text.push_str(
            "; with --no-save there is no pre-restore checkpoint to keep their content, so restore never replaces them, not even with --force",
        );
    }
    text
}

fn others(n: usize) -> String {
    if n == 1 {
        "is 1 of another worktree or fetched".into()
    } else {
        format!("are {n} of other worktrees or fetched")
    }
}

fn unmatched_path(path: &str, searched: &str, left_out: bool) -> String {
    let mut text = format!("pathspec `{path}` did not match any file in {searched}");
    if left_out {
        text.push_str(
            "; it exists in the working tree, but checkpoints leave it out (it is ignored, larger than checkpoint.maxFileSize, or inside a nested repository)",
        );
    }
    text
}

fn nested_in_the_way(repo: &str, path: &str) -> String {
    if repo == path {
        format!(
            "a nested repository at `{repo}` stands where the checkpoint needs a file; restore never modifies one: move it away first"
        )
    } else {
        format!(
            "restoring would change `{path}` inside `{repo}`, a nested repository or submodule, which restore never modifies; move it away first"
        )
    }
}

/// At most ten items, then how many more.
fn list_some(items: &[String]) -> String {
    const SHOWN: usize = 10;
    let mut text = items
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(" and {} more", items.len() - SHOWN));
    }
    text
}

/// Why `undo` found nothing to undo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UndoEnd {
    /// There are no checkpoints at all.
    NoCheckpoints,
    /// There are checkpoints, but none of this worktree's own (they are other worktrees' or
    /// fetched).
    NoOwnCheckpoints,
    /// No checkpoint of this worktree holds an earlier state that differs from the files now.
    NoEarlierState,
    /// The undos since the last change have been back through every earlier state.
    WalkedThrough,
}

impl std::fmt::Display for UndoEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UndoEnd::NoCheckpoints => "there are no checkpoints yet",
            UndoEnd::NoOwnCheckpoints => "this worktree has no checkpoints of its own yet",
            UndoEnd::NoEarlierState => {
                "this worktree has no earlier checkpoint whose files differ from the files now"
            }
            UndoEnd::WalkedThrough => {
                "the undos since the last change have been back through every earlier state of this worktree"
            }
        })
    }
}
