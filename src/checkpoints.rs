//! The façade: one value, [`Checkpoints`], that owns the repository, the worktree and the
//! settings, with one method per operation. Every front end (the CLI, agent hooks, the MCP
//! server, the HTTP server, the picker) calls only this, so the policy it applies is the same
//! for all of them: completing a restore that was killed part-way, the safety checkpoint before
//! anything in the working tree changes, retention and `git gc --auto` after every new
//! checkpoint.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use gix::bstr::{BStr, BString};

use crate::capture::{self, Captured};
use crate::config::{Capture, Settings};
use crate::control::Control;
use crate::diff::{DiffOptions, FileDiff};
use crate::error::{Error, RemovedCheckpoint, Result};
use crate::format::{self, Operation};
use crate::history::{History, Step};
use crate::journal::{self, Completed, Guard, Interrupted};
use crate::naming::{self, Loaded};
use crate::patch::{PatchPaint, PatchStyle, Quoting};
use crate::record::{self, Housekeeping, SaveOptions, Saved};
use crate::repair::Repaired;
use crate::restore::{self, RestoreOptions, Restored, Safety};
use crate::retention::{self, Pruned};
pub use crate::revert::ConflictKind;
use crate::sharing::{self, Exposure, Fetched, Flagged, Pushed};
use crate::store::{self, Checkpoint};
use crate::treediff::{self, Summary};

/// Something that happened to the checkpoints, reported to the [`Observer`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CheckpointEvent {
    /// A new checkpoint was made (by a save, or as a restore's safety checkpoint).
    Saved(Box<Checkpoint>),
    /// The working tree was restored to a checkpoint.
    Restored {
        /// The checkpoint restored.
        target: String,
        /// The checkpoint holding the state before, if one was kept.
        safety: Option<String>,
    },
    /// Retention removed these checkpoints.
    Pruned(Vec<String>),
    /// These checkpoints were dropped.
    Dropped(Vec<String>),
    /// A checkpoint was pinned or unpinned.
    Pinned {
        /// The checkpoint.
        id: String,
        /// Whether it is pinned now.
        pinned: bool,
    },
}

/// Receives the [`CheckpointEvent`]s of a [`Checkpoints`]. Closures taking `&CheckpointEvent`
/// are observers.
pub trait Observer: Send + Sync {
    /// Called after each event, on the thread that caused it.
    fn event(&self, event: &CheckpointEvent);
}

impl<F: Fn(&CheckpointEvent) + Send + Sync> Observer for F {
    fn event(&self, event: &CheckpointEvent) {
        self(event)
    }
}

/// What [`Checkpoints::save`] did.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SaveOutcome {
    /// The checkpoint made, or found unchanged.
    pub saved: Saved,
    /// A restore that had died part-way in this worktree, which the save completed first: the
    /// save is then of the completed state.
    pub interrupted_restore: Option<Completed>,
    /// What retention did after a new checkpoint.
    pub housekeeping: Housekeeping,
}

impl SaveOutcome {
    /// The checkpoint made or found.
    pub fn checkpoint(&self) -> &Checkpoint {
        self.saved.checkpoint()
    }
}

/// One side of a comparison.
#[derive(Debug, Clone, Copy)]
pub enum Side<'a> {
    /// A checkpoint's snapshot.
    Checkpoint(&'a Checkpoint),
    /// The `HEAD` commit a checkpoint was taken on (read from its commit, never from its
    /// note): the empty tree on an unborn branch.
    HeadOf(&'a Checkpoint),
    /// The working tree now, as a save would snapshot it (nothing is written to the
    /// repository).
    WorkingTree,
}

/// A comparison: the files that differ, and what is needed to print them as a patch.
pub struct Diff {
    /// The files that differ, sorted by path (renames last, as git lists them).
    pub files: Vec<FileDiff>,
    /// The repository to read blobs from: with an in-memory object store when one side is the
    /// working tree.
    repo: gix::Repository,
}

impl std::fmt::Debug for Diff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Diff").field("files", &self.files).finish()
    }
}

impl Diff {
    /// Write the patch in git's unified format (it applies with `git apply`).
    pub fn write_patch(
        &self,
        out: &mut dyn std::io::Write,
        paint: &dyn PatchPaint,
        style: PatchStyle,
    ) -> std::io::Result<()> {
        crate::patch::write_patch(out, paint, &self.repo, &self.files, style)
    }

    /// The JSON object every front end gives for a comparison (`diff --json`, the HTTP API,
    /// the MCP tools): `{"files": [{"path", "old_path", "status", "additions", "deletions",
    /// "binary"}]}`.
    ///
    /// Each file also has `hunks`: `[{"id", "header", "old_start", "old_lines", "new_start",
    /// "new_lines", "lines"}]`, the ids `restore --hunk` and `revert --hunk` take (none for a
    /// binary file, a symlink or a submodule).
    pub fn to_json(&self) -> serde_json::Value {
        use gix::bstr::ByteSlice;
        let files: Vec<serde_json::Value> = self
            .files
            .iter()
            .map(|f| {
                let hunks: Vec<serde_json::Value> =
                    HunkInfo::of_file(f).iter().map(HunkInfo::to_json).collect();
                serde_json::json!({
                    "path": f.path.to_str_lossy(),
                    "old_path": f.old_path.as_ref().map(|p| p.to_str_lossy().into_owned()),
                    "status": f.status.code(),
                    "additions": f.added,
                    "deletions": f.deleted,
                    "binary": f.binary,
                    "hunks": hunks,
                })
            })
            .collect();
        serde_json::json!({ "files": files })
    }

    /// Every hunk of the comparison with its id, file by file: what `restore -p` asks about
    /// and `--hunk` takes.
    pub fn hunks(&self) -> Vec<HunkInfo> {
        self.files.iter().flat_map(HunkInfo::of_file).collect()
    }

    /// The patch as text (invalid UTF-8 replaced).
    pub fn patch_text(&self, style: PatchStyle) -> String {
        let mut out = Vec::new();
        // Writing into a Vec fails only when a blob cannot be read.
        let _ = self.write_patch(&mut out, &crate::patch::Plain, style);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// One hunk of a comparison, as `diff --json` gives it and `restore --hunk` takes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HunkInfo {
    /// Its id: 16 hex digits that depend only on the file's path and the hunk's lines.
    pub id: String,
    /// Its file (in the newer side).
    pub path: String,
    /// First line in the older side (1-based; 0 with no lines).
    pub old_start: usize,
    /// Lines of the older side.
    pub old_lines: usize,
    /// First line in the newer side.
    pub new_start: usize,
    /// Lines of the newer side.
    pub new_lines: usize,
    /// The function line `diff` prints after the header, if any.
    pub function: Option<String>,
    /// The lines, each starting with `' '`, `'-'` or `'+'` (invalid UTF-8 replaced), and
    /// git's `\ No newline at end of file` after a line without one.
    pub lines: Vec<String>,
    /// The pieces `s` splits it into (`git add -p`'s split): empty when it cannot split.
    pub pieces: Vec<HunkInfo>,
}

impl HunkInfo {
    fn of_file(file: &FileDiff) -> Vec<HunkInfo> {
        use gix::bstr::ByteSlice;
        let found = crate::partial::hunks_of(file);
        let path = file.path.to_str_lossy().into_owned();
        let info = |id: &str, hunk: &crate::diff::Hunk, pieces: Vec<HunkInfo>| {
            let mut lines = Vec::with_capacity(hunk.lines.len());
            for line in &hunk.lines {
                lines.push(format!("{}{}", line.origin, line.text.to_str_lossy()));
                if line.no_newline {
                    lines.push("\\ No newline at end of file".to_string());
                }
            }
            HunkInfo {
                id: id.to_string(),
                path: path.clone(),
                old_start: hunk.old_start,
                old_lines: hunk.old_len,
                new_start: hunk.new_start,
                new_lines: hunk.new_len,
                function: hunk
                    .function
                    .as_ref()
                    .map(|f| f.to_str_lossy().into_owned()),
                lines,
                pieces,
            }
        };
        found
            .hunks
            .iter()
            .zip(&found.ids)
            .zip(&found.pieces)
            .map(|((hunk, id), pieces)| {
                let pieces = pieces
                    .iter()
                    .map(|(id, piece)| info(id, piece, Vec::new()))
                    .collect();
                info(id, hunk, pieces)
            })
            .collect()
    }

    /// Its header as `git diff` prints it: `@@ -1,3 +1,4 @@ fn main`.
    pub fn header(&self) -> String {
        let range = |start: usize, len: usize| {
            if len == 1 {
                start.to_string()
            } else {
                format!("{start},{len}")
            }
        };
        let mut out = format!(
            "@@ -{} +{} @@",
            range(self.old_start, self.old_lines),
            range(self.new_start, self.new_lines)
        );
        if let Some(function) = &self.function {
            out.push(' ');
            out.push_str(function);
        }
        out
    }

    /// The JSON object of `diff --json`'s `hunks`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "header": self.header(),
            "old_start": self.old_start,
            "old_lines": self.old_lines,
            "new_start": self.new_start,
            "new_lines": self.new_lines,
            "lines": self.lines,
        })
    }
}

/// The working tree as it was at one moment, held in memory (see
/// [`Checkpoints::working_tree`]).
pub struct WorkingTree {
    repo: gix::Repository,
    tree: gix::ObjectId,
    /// The capture, for the paths `checkpoint.exclude` leaves out: not compared.
    snap: crate::snapshot::Snapshot,
}

impl std::fmt::Debug for WorkingTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkingTree")
            .field("tree", &self.tree)
            .finish()
    }
}

impl WorkingTree {
    /// What differs from checkpoint `from` to this working tree.
    pub fn diff_from(&self, from: &Checkpoint, options: DiffOptions) -> Result<Diff> {
        let old = store::commit_tree(&self.repo, from.commit)?;
        let mut changes = treediff::changes(&self.repo, Some(old), Some(self.tree))?;
        changes.retain(|c| !self.snap.excluded(c.path.as_ref(), false));
        let files = crate::diff::file_diffs(&self.repo, &changes, options)?;
        Ok(Diff {
            files,
            repo: self.repo.clone(),
        })
    }
}

/// Which checkpoints a listing shows (see [`Checkpoints::listed`]): `list`, the MCP tool, the
/// HTTP API.
#[derive(Debug, Clone, Default)]
pub struct ListOptions {
    /// Every worktree's checkpoints, not only this one's (and fetched ones).
    pub all: bool,
    /// Only this agent session's, from whichever worktree: an id, a unique prefix, or `@`.
    pub session: Option<String>,
    /// Only checkpoints of this kind.
    pub kind: Option<String>,
    /// At most this many.
    pub limit: Option<usize>,
}

/// How to prune (`prune`): each field overrides its setting for this run.
#[derive(Debug, Clone, Default)]
pub struct PruneOptions {
    /// Keep at most this many (with `kind`, of that kind).
    pub keep: Option<usize>,
    /// Remove checkpoints older than this.
    pub older_than: Option<chrono::Duration>,
    /// Only consider checkpoints of this kind.
    pub kind: Option<String>,
    /// Then remove the oldest unpinned checkpoints until what only checkpoints hold is at
    /// most this many bytes.
    pub max_size: Option<u64>,
    /// No count or size limit removes a checkpoint younger than this (instead of
    /// `checkpoint.minAge`; zero: no minimum). An explicit `keep` goes below it anyway.
    pub min_age: Option<chrono::Duration>,
    /// Say what would go; remove nothing.
    pub dry_run: bool,
}

/// How to revert (see [`Checkpoints::revert`]).
#[derive(Debug, Clone, Default)]
pub struct RevertOptions {
    /// Write conflicting files with conflict markers instead of refusing the whole revert.
    pub markers: bool,
    /// Only say what would be written and deleted.
    pub dry_run: bool,
    /// Revert during a merge, rebase, …, and replace ignored files in the way (kept in the
    /// safety checkpoint first).
    pub force: bool,
    /// Take back only these hunks of the step's change (ids as `diff --json <A> <B>` gives
    /// them); empty: all of it. One step only, not a session's or an agent's.
    pub hunks: Vec<String>,
}

/// What `revert` takes back (see [`Checkpoints::revert_range`]): one step, from one checkpoint
/// to another, or the steps of one session or one agent.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RevertSpan {
    /// The start of the first step.
    pub from: Checkpoint,
    /// The end of the last step (for a step no checkpoint has ended yet: its start).
    pub to: Checkpoint,
    /// Each step, oldest first: its start, and its end (`None`: the working tree now).
    pub steps: Vec<(Checkpoint, Option<Checkpoint>)>,
    /// The steps are a session's or an agent's own (each ending at the next checkpoint of the
    /// worktree), not one span from `from` to `to`.
    pub own_steps: bool,
}

/// What a revert did (or, for a dry run, would do).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Reverted {
    /// The start of the step taken back.
    pub from: Checkpoint,
    /// Its end.
    pub to: Checkpoint,
    /// Files that conflicted (with [`RevertOptions::markers`]), written as git writes them.
    pub conflicts: Vec<String>,
    /// What each of `conflicts` is, in the same order: only [`ConflictKind::Markers`] files
    /// hold markers to resolve.
    pub conflict_kinds: Vec<ConflictKind>,
    /// The restore of the merged result: what was written and deleted, the safety checkpoint.
    pub restored: Restored,
    /// How many steps were taken back (a session's or an agent's may be several).
    pub steps: usize,
}

impl Reverted {
    /// The JSON object every front end gives for a revert: the restore's, plus `from`, `to`
    /// and `conflicts`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = self.restored.to_json();
        if let serde_json::Value::Object(map) = &mut value {
            map.insert("from".into(), self.from.id.clone().into());
            map.insert("to".into(), self.to.id.clone().into());
            map.insert("steps".into(), self.steps.into());
            map.insert("conflicts".into(), self.conflicts.clone().into());
            let kinds: serde_json::Map<String, serde_json::Value> = self
                .conflicts
                .iter()
                .zip(&self.conflict_kinds)
                .map(|(path, kind)| (path.clone(), kind.as_str().into()))
                .collect();
            map.insert("conflict_kinds".into(), kinds.into());
        }
        value
    }
}

/// A checkpoint [`Checkpoints::drop_checkpoints`] deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// Its id.
    pub id: String,
    /// The commit (or whatever object a broken ref pointed to), from which it can be brought
    /// back until `git gc` runs.
    pub commit: Option<gix::ObjectId>,
}

/// The checkpoints of one repository, seen from one working tree.
///
/// ```no_run
/// use git_checkpoint::{Checkpoints, Control, SaveOptions};
///
/// let checkpoints = Checkpoints::open(std::path::Path::new("."))?;
/// let outcome = checkpoints.save(
///     &SaveOptions { message: Some("before refactor".into()), ..Default::default() },
///     &Control::default(),
/// )?;
/// let newest = checkpoints.find("@")?;
/// assert_eq!(newest.id, outcome.checkpoint().id);
/// # Ok::<(), git_checkpoint::Error>(())
/// ```
pub struct Checkpoints {
    repo: gix::Repository,
    worktree: Option<String>,
    settings: Settings,
    observer: Option<Arc<dyn Observer>>,
    /// A plain directory's private store, when the working tree is not a git repository's.
    plain: Option<Plain>,
    /// How it was opened (to open it again).
    options: OpenOptions,
}

/// How [`Checkpoints::open_with`] finds, or makes, the store of a directory that is in no git
/// working tree.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct OpenOptions {
    /// The store to use: a git directory, made when missing, whose working tree is the
    /// directory (`--store`; [`OpenOptions::default`] reads `GIT_CHECKPOINT_STORE`). Used even
    /// inside a git repository.
    pub store: Option<PathBuf>,
    /// Make the private store when the directory has none yet (what saving needs). Without
    /// it, opening such a directory fails with [`Error::NoStore`].
    pub create: bool,
    /// Make a store even for a home directory itself, the system's temporary directory itself
    /// or a file system root.
    pub force: bool,
    /// Settings for this opening only, each `key=value`, as `git -c key=value` gives them:
    /// over every config file (the Python package's `config=`).
    pub config: Vec<String>,
}

impl Default for OpenOptions {
    /// The store `GIT_CHECKPOINT_STORE` names, if any; made when missing; home directories
    /// temporary directories and file system roots refused.
    fn default() -> Self {
        OpenOptions {
            store: std::env::var_os("GIT_CHECKPOINT_STORE")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            create: true,
            force: false,
            config: Vec::new(),
        }
    }
}

/// The private store of a plain directory.
#[derive(Debug, Clone)]
struct Plain {
    /// The store (a git directory).
    store: PathBuf,
    /// Whether this opening made it.
    created: bool,
}

/// A plain directory's private store, as [`Checkpoints::stores`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoreInfo {
    /// The store: a git directory.
    pub store: PathBuf,
    /// The directory whose checkpoints it keeps (`None`: its config does not say).
    pub directory: Option<PathBuf>,
    /// Whether that directory still exists.
    pub exists: bool,
    /// Whether that directory is known to be gone (its path does not exist on the file
    /// system it was on): only then does [`Checkpoints::prune_stores`] remove the store.
    pub gone: bool,
    /// Why it can be told neither to exist nor to be gone (it cannot be read, its file system
    /// is not mounted, …), when it cannot.
    pub unknown: Option<String>,
    /// Whether that directory is now inside a git working tree (whose repository is then used
    /// instead of the store).
    pub in_repository: bool,
    /// How many checkpoints it holds.
    pub checkpoints: usize,
    /// Its size on disk, in bytes.
    pub size: u64,
}

impl StoreInfo {
    /// The JSON object `stores --json` gives for it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "store": self.store.to_string_lossy(),
            "directory": self.directory.as_ref().map(|d| d.to_string_lossy().into_owned()),
            "exists": self.exists,
            "gone": self.gone,
            "unknown": self.unknown,
            "in_repository": self.in_repository,
            "checkpoints": self.checkpoints,
            "size": self.size,
        })
    }
}

impl std::fmt::Debug for Checkpoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoints")
            .field("git_dir", &self.repo.git_dir())
            .field("worktree", &self.worktree)
            .finish()
    }
}

impl Checkpoints {
    /// Open the checkpoints of the repository that contains `dir` (honouring `GIT_DIR` and
    /// friends, as git does), seen from the worktree `dir` is in.
    ///
    /// Checkpoints live in the repository, shared by all its worktrees; each worktree counts
    /// its own (`@`, `@{N}`, undo), and a restore only ever touches the worktree it is opened
    /// in:
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let tmp = tempfile::tempdir()?;
    /// # let main_dir = tmp.path().join("main");
    /// # let linked_dir = tmp.path().join("linked");
    /// # let git = |dir: &std::path::Path, args: &[&str]| -> std::io::Result<()> {
    /// #     let status = std::process::Command::new("git")
    /// #         .current_dir(dir).args(args).env("GIT_CONFIG_NOSYSTEM", "1")
    /// #         .env("GIT_CONFIG_GLOBAL", "/dev/null").env("GIT_AUTHOR_NAME", "A")
    /// #         .env("GIT_AUTHOR_EMAIL", "a@example.com").env("GIT_COMMITTER_NAME", "A")
    /// #         .env("GIT_COMMITTER_EMAIL", "a@example.com").status()?;
    /// #     if status.success() { Ok(()) } else { Err(std::io::Error::other("git failed")) }
    /// # };
    /// # std::fs::create_dir(&main_dir)?;
    /// # git(&main_dir, &["init", "-q", "-b", "main"])?;
    /// # std::fs::write(main_dir.join("a.txt"), "a\n")?;
    /// # git(&main_dir, &["add", "a.txt"])?;
    /// # git(&main_dir, &["commit", "-q", "-m", "init"])?;
    /// # git(&main_dir, &["worktree", "add", "-q", linked_dir.to_str().ok_or("path")?])?;
    /// use git_checkpoint::{Checkpoints, Control, RestoreOptions, SaveOptions};
    ///
    /// let ctl = Control::default();
    /// std::fs::write(linked_dir.join("a.txt"), "edited in the linked worktree\n")?;
    /// let linked = Checkpoints::open(&linked_dir)?;
    /// assert_eq!(linked.worktree(), Some("linked"));
    /// let saved = linked.save(&SaveOptions::default(), &ctl)?;
    ///
    /// let main = Checkpoints::open(&main_dir)?;
    /// assert_eq!(main.worktree(), None);
    /// // The main worktree sees the checkpoint, but `@` is its own newest: there is none.
    /// let loaded = main.load()?;
    /// assert_eq!(loaded.checkpoints.len(), 1);
    /// assert_eq!(main.own(&loaded).count(), 0);
    ///
    /// // Restoring in the linked worktree brings its file back, and only there.
    /// std::fs::write(linked_dir.join("a.txt"), "a mistake\n")?;
    /// let target = linked.find("@")?;
    /// assert_eq!(target.id, saved.checkpoint().id);
    /// linked.restore(&target, &RestoreOptions::default(), &ctl)?;
    /// assert_eq!(
    ///     std::fs::read_to_string(linked_dir.join("a.txt"))?,
    ///     "edited in the linked worktree\n"
    /// );
    /// assert_eq!(std::fs::read_to_string(main_dir.join("a.txt"))?, "a\n");
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// Outside any git working tree, `dir` is a plain directory: its checkpoints are kept in a
    /// private store (see [`OpenOptions`]), made on the first opening.
    pub fn open(dir: &Path) -> Result<Checkpoints> {
        Checkpoints::open_with(dir, &OpenOptions::default())
    }

    /// [`open`](Self::open), choosing how a plain directory's store is found or made.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let tmp = tempfile::tempdir()?;
    /// # let dir = tmp.path().join("notes");
    /// # std::fs::create_dir(&dir)?;
    /// use git_checkpoint::{Checkpoints, Control, OpenOptions, SaveOptions};
    ///
    /// std::fs::write(dir.join("draft.md"), "first draft\n")?;
    /// let mut options = OpenOptions::default();
    /// options.store = Some(tmp.path().join("store"));
    /// let checkpoints = Checkpoints::open_with(&dir, &options)?;
    /// assert_eq!(checkpoints.store(), Some(tmp.path().join("store").as_path()));
    /// checkpoints.save(&SaveOptions::default(), &Control::default())?;
    /// // Nothing was written into the directory.
    /// assert_eq!(std::fs::read_dir(&dir)?.count(), 1);
    /// # Ok(())
    /// # }
    /// ```
    pub fn open_with(dir: &Path, options: &OpenOptions) -> Result<Checkpoints> {
        let (repo, plain) = match &options.store {
            Some(store) => {
                let (repo, created) = open_store(dir, store, options)?;
                (
                    repo,
                    Some(Plain {
                        store: store.clone(),
                        created,
                    }),
                )
            }
            None => match crate::repo::open(dir) {
                Ok(repo) => (repo, None),
                Err(Error::NotARepository(_)) => {
                    let canonical = crate::plain::canonical(dir)?;
                    let root = crate::plain::stores_root()?;
                    let (store, directory) =
                        crate::plain::find(&root, &canonical).unwrap_or_else(|| {
                            (
                                crate::plain::store_path(&root, &canonical),
                                canonical.clone(),
                            )
                        });
                    let (repo, created) = open_store(&directory, &store, options)?;
                    (repo, Some(Plain { store, created }))
                }
                Err(err) => return Err(err),
            },
        };
        let mut repo = repo;
        if !options.config.is_empty() {
            for setting in &options.config {
                if !setting.contains('=') {
                    return Err(Error::InvalidInput(format!(
                        "bad setting `{setting}`: expected key=value"
                    )));
                }
            }
            let mut config = repo.config_snapshot_mut();
            config
                .append_config(options.config.iter(), gix::config::Source::Api)
                .map_err(|err| Error::InvalidInput(format!("bad setting: {err}")))?;
            config.commit().map_err(|err| Error::Git {
                context: "cannot apply the settings given".into(),
                source: Box::new(err),
            })?;
        }
        let worktree = crate::repo::worktree_name(&repo)?;
        let settings = Settings::load(&repo);
        Ok(Checkpoints {
            repo,
            worktree,
            settings,
            observer: None,
            plain,
            options: options.clone(),
        })
    }

    /// In a plain directory, the directory acted on when it is not `dir` but a directory above
    /// it that has a store (canonical): everything below it is its working tree, so a restore
    /// or an undo from `dir` rewrites all of it, which a front end should say. `None` in a git
    /// repository (whose working tree is the repository's, as for git itself) and at the
    /// directory itself.
    pub fn acting_on(&self, dir: &Path) -> Option<PathBuf> {
        self.plain.as_ref()?;
        let workdir = self.repo.workdir()?;
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_owned());
        let there = canonical(workdir);
        (there != canonical(dir)).then_some(there)
    }

    /// A plain directory's private store (a git directory whose working tree is the
    /// directory); `None` in a git repository.
    pub fn store(&self) -> Option<&Path> {
        self.plain.as_ref().map(|p| p.store.as_path())
    }

    /// Whether opening made the private store just now (the first save of a plain directory).
    pub fn store_created(&self) -> bool {
        self.plain.as_ref().is_some_and(|p| p.created)
    }

    /// The private stores of plain directories (under
    /// `${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores`), sorted by path.
    pub fn stores() -> Result<Vec<StoreInfo>> {
        let root = crate::plain::stores_root()?;
        let mut out = Vec::new();
        for listed in crate::plain::list(&root)? {
            let presence = crate::plain::presence(&listed.store);
            let exists = presence == crate::plain::Presence::Exists;
            let in_repository = exists
                && listed
                    .directory
                    .as_ref()
                    .is_some_and(|d| crate::repo::open(d).is_ok());
            let checkpoints = gix::open(&listed.store)
                .ok()
                .and_then(|repo| naming::load_all(&repo).ok())
                .map_or(0, |all| all.len());
            out.push(StoreInfo {
                size: crate::plain::size_on_disk(&listed.store),
                store: listed.store,
                directory: listed.directory,
                exists,
                gone: presence == crate::plain::Presence::Absent,
                unknown: match presence {
                    crate::plain::Presence::Unknown(why) => Some(why),
                    _ => None,
                },
                in_repository,
                checkpoints,
            });
        }
        Ok(out)
    }

    /// Make `store`, the private store of a directory that was moved or renamed (whose
    /// recorded directory no longer exists), the store of `dir`, the directory in its new
    /// place: its checkpoints, undo history and settings go on there. A store under the stores
    /// root is renamed to the name `dir`'s store has. Refused when `dir` is in a git
    /// repository, already has a store, or when the store's directory still exists. Returns
    /// where the store is now.
    pub fn adopt_store(store: &Path, dir: &Path) -> Result<PathBuf> {
        if !crate::plain::is_store(store) {
            return Err(Error::InvalidInput(format!(
                "`{}` is not a store of git-checkpoint (see `git checkpoint stores`)",
                store.display()
            )));
        }
        match crate::repo::open(dir) {
            Err(Error::NotARepository(_)) => {}
            Ok(_) => {
                return Err(Error::InvalidInput(format!(
                    "`{}` is in a git repository, which keeps its checkpoints itself",
                    dir.display()
                )));
            }
            Err(err) => return Err(err),
        }
        let canonical = crate::plain::canonical(dir)?;
        crate::plain::refuse(&canonical)?;
        if let Some(recorded) = crate::plain::recorded_directory(store)
            && recorded.exists()
        {
            return Err(Error::InvalidInput(format!(
                "the store `{}` keeps the checkpoints of `{}`, which still exists",
                store.display(),
                recorded.display()
            )));
        }
        let root = crate::plain::stores_root()?;
        let own = crate::plain::store_path(&root, &canonical);
        if crate::plain::is_store(&own) {
            return Err(Error::InvalidInput(format!(
                "`{}` has a store of its own already: `{}`",
                canonical.display(),
                own.display()
            )));
        }
        crate::plain::readdress(store, &canonical)?;
        let under_root = store
            .canonicalize()
            .ok()
            .zip(root.canonicalize().ok())
            .is_some_and(|(store, root)| store.parent() == Some(root.as_path()));
        if !under_root {
            return Ok(store.to_owned());
        }
        std::fs::rename(store, &own).map_err(|source| Error::Io {
            context: format!("cannot rename `{}` to `{}`", store.display(), own.display()),
            source,
        })?;
        Ok(own)
    }

    /// Remove the private stores whose directory is known to be gone, with their checkpoints;
    /// `dry_run` only says which. Returns them. A directory that cannot be looked at (permission
    /// denied), is on a file system that is not mounted, or that the store does not record
    /// keeps its store.
    pub fn prune_stores(dry_run: bool) -> Result<Vec<StoreInfo>> {
        let gone: Vec<StoreInfo> = Checkpoints::stores()?
            .into_iter()
            .filter(|s| s.gone)
            .collect();
        if !dry_run {
            for store in &gone {
                std::fs::remove_dir_all(&store.store).map_err(|source| Error::Io {
                    context: format!("cannot remove the store `{}`", store.store.display()),
                    source,
                })?;
            }
        }
        Ok(gone)
    }

    /// Report every [`CheckpointEvent`] to `observer`.
    pub fn with_observer(mut self, observer: impl Observer + 'static) -> Checkpoints {
        self.observer = Some(Arc::new(observer));
        self
    }

    /// Read the repository and the settings anew (after a command that may have changed them).
    pub fn reload(&mut self) -> Result<()> {
        let dir = self
            .repo
            .workdir()
            .unwrap_or_else(|| self.repo.git_dir())
            .to_owned();
        let observer = self.observer.take();
        let mut options = self.options.clone();
        if let Some(plain) = &self.plain {
            options.store = Some(plain.store.clone());
        }
        *self = Checkpoints::open_with(&dir, &options)?;
        self.observer = observer;
        Ok(())
    }

    /// The top of the working tree; `None` in a bare repository.
    pub fn workdir(&self) -> Option<&Path> {
        self.repo.workdir()
    }

    /// Whether the repository is bare: its checkpoints can be listed, shown, compared with
    /// each other, pushed and fetched, but nothing can be saved or restored there.
    pub fn is_bare(&self) -> bool {
        self.repo.workdir().is_none()
    }

    /// The top of the working tree, or [`Error::NoWorkingTree`] saying what there is none to
    /// do (`save`, `restore`, `compare with`).
    fn need_working_tree(&self, to: &'static str) -> Result<&Path> {
        self.repo.workdir().ok_or(Error::NoWorkingTree(to))
    }

    /// The linked worktree's name; `None` for the main worktree.
    pub fn worktree(&self) -> Option<&str> {
        self.worktree.as_deref()
    }

    /// The settings read when the repository was opened.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The repository, for a program's own needs beyond what the façade covers (reading
    /// objects, configuration). This crate's front ends never use it: everything they do goes
    /// through the façade's methods, so that its policy applies.
    pub fn repo(&self) -> &gix::Repository {
        &self.repo
    }

    fn emit(&self, event: CheckpointEvent) {
        if let Some(observer) = &self.observer {
            observer.event(&event);
        }
    }

    // --- Reading ------------------------------------------------------------------------

    /// Every checkpoint, newest first, with the refs that are not readable checkpoints and
    /// whether the notes ref is damaged.
    pub fn load(&self) -> Result<Loaded> {
        naming::load_all_reporting(&self.repo)
    }

    /// A token that changes whenever a checkpoint is saved, dropped, pruned, pinned or unpinned,
    /// by this process or any other: cheap (it reads refs, not notes), for watching the
    /// checkpoints without loading them all (`serve`'s live updates).
    pub fn revision(&self) -> Result<u64> {
        store::revision(&self.repo)
    }

    /// When checkpoints went missing since the last look: whether the newest removal was a
    /// prune (`Some(true)`) or a drop (`Some(false)`), by this process or another, as the notes
    /// commit that removed their notes says; `None` when that cannot be told.
    pub fn last_removal_was_prune(&self) -> Option<bool> {
        store::last_removal_was_prune(&self.repo)
    }

    /// The checkpoint `spec` names among `loaded` (see the naming rules in
    /// [`crate::naming`]), seen from this worktree.
    ///
    /// A name or id that names nothing now, but named a checkpoint that `drop` or `prune`
    /// removed, is [`Error::Removed`], saying by what and when.
    pub fn resolve<'a>(&self, loaded: &'a Loaded, spec: &str) -> Result<&'a Checkpoint> {
        let found = if loaded.checkpoints.is_empty() {
            Err(Error::NoCheckpoints)
        } else {
            naming::resolve(&loaded.checkpoints, self.worktree(), spec)
        };
        match found {
            Err(Error::UnknownCheckpoint(_) | Error::NoCheckpoints) => {
                match crate::removed::find(&self.repo, spec) {
                    Some(removal) => Err(Error::Removed(Box::new(RemovedCheckpoint {
                        spec: spec.to_string(),
                        recoverable: gix::ObjectId::from_hex(removal.commit.as_bytes())
                            .is_ok_and(|commit| self.repo.has_object(commit)),
                        id: removal.id,
                        commit: removal.commit,
                        by: removal.by,
                        at: removal.at,
                    }))),
                    None => found,
                }
            }
            found => found,
        }
    }

    /// The conversation kept with `checkpoint` (`save --conversation`, a hook's transcript),
    /// if one was.
    pub fn conversation(&self, checkpoint: &Checkpoint) -> Result<Option<crate::Conversation>> {
        crate::conversation::read(&self.repo, &checkpoint.id)
    }

    /// What the web page shows beside a checkpoint: the last prompt of the conversation kept
    /// with it, and the tool call that came next: the call this conversation ends waiting on
    /// (a hook's save before a tool call runs holds the call, not yet its result), else the
    /// first call the next checkpoint of the same session has beyond this conversation.
    /// `None` when no conversation was kept.
    pub fn conversation_summary(
        &self,
        loaded: &Loaded,
        checkpoint: &Checkpoint,
    ) -> Result<Option<(Option<crate::Turn>, Option<crate::Turn>)>> {
        use crate::Role;
        let Some(conversation) = self.conversation(checkpoint)? else {
            return Ok(None);
        };
        let turns = conversation.turns().unwrap_or_default();
        let prompt = turns.iter().rev().find(|t| t.role == Role::User).cloned();
        let pending = turns
            .iter()
            .rposition(|t| t.role == Role::ToolCall)
            .filter(|&at| !turns[at..].iter().any(|t| t.role == Role::ToolResult))
            .map(|at| turns[at].clone());
        if pending.is_some() {
            return Ok(Some((prompt, pending)));
        }
        let next = loaded
            .checkpoints
            .iter()
            .filter(|c| c.id > checkpoint.id && c.meta.session == checkpoint.meta.session)
            .filter(|c| {
                c.meta
                    .conversation
                    .as_ref()
                    .is_some_and(|n| n.format.is_some())
            })
            .min_by(|a, b| a.id.cmp(&b.id));
        let mut next_tool = None;
        if checkpoint.meta.session.is_some()
            && let Some(next) = next
            && let Some(later) = self.conversation(next)?
        {
            let later = later.turns().unwrap_or_default();
            next_tool = later
                .iter()
                .skip(turns.len())
                .find(|t| t.role == Role::ToolCall)
                .cloned();
        }
        Ok(Some((prompt, next_tool)))
    }

    /// Write the conversation kept with `checkpoint` as a new session of its agent (or export
    /// it to a new file where that cannot be done safely): `restore --conversation`, after the
    /// files. The agent's original transcript is never changed. An error, before anything is
    /// written, when no conversation was kept with it.
    pub fn rewind_conversation(
        &self,
        checkpoint: &Checkpoint,
    ) -> Result<crate::conversation::Rewound> {
        let Some(conversation) = self.conversation(checkpoint)? else {
            return Err(Error::InvalidInput(no_conversation(checkpoint)));
        };
        crate::conversation::rewind(&checkpoint.id, &conversation)
    }

    /// The checkpoint `spec` names.
    pub fn find(&self, spec: &str) -> Result<Checkpoint> {
        let loaded = self.load()?;
        self.resolve(&loaded, spec).cloned()
    }

    /// The checkpoints taken in this worktree (not fetched), newest first.
    pub fn own<'a>(&'a self, loaded: &'a Loaded) -> impl Iterator<Item = &'a Checkpoint> + 'a {
        naming::of_worktree(&loaded.checkpoints, self.worktree())
    }

    /// The checkpoints a listing shows, newest first: this worktree's own and fetched ones
    /// (every one with `all`, and in a bare repository, which has no worktree of its own), or
    /// one session's from every worktree; then only one kind, and at most `limit`.
    pub fn listed<'a>(
        &self,
        loaded: &'a Loaded,
        options: &ListOptions,
    ) -> Result<Vec<&'a Checkpoint>> {
        let session = options
            .session
            .as_deref()
            .map(|spec| self.session(loaded, spec))
            .transpose()?;
        let worktree = self.worktree();
        Ok(loaded
            .checkpoints
            .iter()
            .filter(|c| match &session {
                Some(s) => c.meta.session.as_ref() == Some(s),
                None => {
                    options.all
                        || self.is_bare()
                        || c.meta.worktree.as_deref() == worktree
                        || c.meta.fetched.is_some()
                }
            })
            .filter(|c| options.kind.as_ref().is_none_or(|k| &c.meta.kind == k))
            .take(options.limit.unwrap_or(usize::MAX))
            .collect())
    }

    /// The session id `spec` names: `@`/`latest` for this worktree's newest session, else an
    /// id or a unique prefix of one.
    pub fn session(&self, loaded: &Loaded, spec: &str) -> Result<String> {
        naming::session(&loaded.checkpoints, self.worktree(), spec)
    }

    /// A restore that died part-way in this worktree and waits for the next save, restore or
    /// undo to complete it. Changes nothing.
    pub fn interrupted(&self) -> Option<Interrupted> {
        journal::interrupted(&self.repo)
    }

    // --- Saving -------------------------------------------------------------------------

    /// Snapshot the working tree as a new checkpoint (or report the newest one of this
    /// worktree when nothing changed since, unless `options` ask for something to record).
    ///
    /// Never writes the index, never moves `HEAD` or a branch. First completes a restore that
    /// died part-way; afterwards applies the retention policy and starts `git gc --auto` in the
    /// background when loose objects pile up.
    pub fn save(&self, options: &SaveOptions, ctl: &Control<'_>) -> Result<SaveOutcome> {
        self.save_keeping(options, &[], ctl)
    }

    /// [`save`](Self::save), and the retention that follows never removes `keep` either (the
    /// checkpoint an operation took before, such as `exec`'s).
    pub fn save_keeping(
        &self,
        options: &SaveOptions,
        keep: &[&str],
        ctl: &Control<'_>,
    ) -> Result<SaveOutcome> {
        self.need_working_tree("save")?;
        record::validate(options)?;
        // A bad `checkpoint.secrets` refuses the save before anything is captured; otherwise
        // the scanner gets ready while the working tree is captured.
        if self.settings.secrets()? != crate::config::SecretsMode::Off {
            crate::secrets::prepare();
        }
        let scope = self.scope()?;
        let interrupted_restore =
            crate::recovery::complete_interrupted(&self.repo, self.worktree(), &scope, ctl)?;
        let captured = self.capture(&scope, ctl)?;
        let saved = record::record(&self.repo, &captured, options)?;
        // The checkpoint made or found holds exactly the snapshot's tree, so every object the
        // stat cache names.
        let held = saved.checkpoint();
        captured
            .snap
            .remember(Some((held.id.as_str(), held.commit)));
        let mut housekeeping = Housekeeping::default();
        if let Saved::Created(c) = &saved {
            self.emit(CheckpointEvent::Saved(Box::new(c.clone())));
            let mut protect = vec![c.id.as_str()];
            protect.extend_from_slice(keep);
            housekeeping = self.housekeeping(&protect);
        }
        Ok(SaveOutcome {
            saved,
            interrupted_restore,
            housekeeping,
        })
    }

    fn capture(&self, scope: &Capture, ctl: &Control<'_>) -> Result<Captured> {
        capture::capture(
            &self.repo,
            self.worktree(),
            scope,
            true,
            self.plain.is_some(),
            ctl,
        )
    }

    /// What a snapshot holds here: the size guard, `checkpoint.exclude` and
    /// `checkpoint.include`, and in a plain directory the default excludes.
    fn scope(&self) -> Result<Capture> {
        let mut scope = self.settings.capture(self.plain.is_some())?;
        // A store inside its own directory (a forced home directory's) is never captured.
        if let (Some(plain), Some(workdir)) = (&self.plain, self.repo.workdir()) {
            let stores_root = crate::plain::stores_root().ok();
            for dir in [Some(plain.store.as_path()), stores_root.as_deref()]
                .into_iter()
                .flatten()
            {
                let dir = crate::plain::canonical(dir).unwrap_or_else(|_| dir.to_owned());
                if let Ok(rela) = dir.strip_prefix(workdir)
                    && let Some(rela) = rela.to_str().filter(|r| !r.is_empty())
                {
                    scope.exclude.push(format!("/{}/", rela.replace('\\', "/")));
                }
            }
        }
        Ok(scope)
    }

    /// After a new checkpoint: the configured retention (`checkpoint.autoPrune`), never
    /// removing `protect`, then `git gc --auto` in the background when loose objects pile up.
    /// Neither can fail the operation: a problem is reported in the outcome.
    fn housekeeping(&self, protect: &[&str]) -> Housekeeping {
        let mut done = Housekeeping::default();
        if self.settings.auto_prune {
            let pruned = self
                .settings
                .policy()
                .and_then(|policy| retention::auto_prune(&self.repo, policy, protect));
            match pruned {
                Ok(p) => {
                    done.pruned = p.removed.iter().map(|c| c.id.clone()).collect();
                    done.pruned_by = p.why;
                    if !done.pruned.is_empty() {
                        self.emit(CheckpointEvent::Pruned(done.pruned.clone()));
                    }
                }
                Err(err) => done.problem = Some(err.to_string()),
            }
        }
        store::sweep_stale_locks(&self.repo);
        crate::gitcli::maybe_gc_in_background(&self.repo);
        done
    }

    // --- Comparing ----------------------------------------------------------------------

    /// What differs from `from` to `to`, limited to `paths` (relative to the top of the
    /// working tree; a directory means everything below it) when there are some. Nothing is
    /// written to the repository, not even for the working tree's side.
    pub fn diff(
        &self,
        from: Side<'_>,
        to: Side<'_>,
        paths: &[BString],
        options: DiffOptions,
        ctl: &Control<'_>,
    ) -> Result<Diff> {
        // The working tree is snapshotted into memory: the repository is not written to.
        let memory = self.repo.clone().with_object_memory();
        let mut excluded = None;
        let old = self.tree_of(&memory, from, ctl, &mut excluded)?;
        let new = self.tree_of(&memory, to, ctl, &mut excluded)?;
        let on_disk = matches!(from, Side::WorkingTree) || matches!(to, Side::WorkingTree);
        self.every_path_matches(&memory, paths, &[old, new], on_disk, || {
            format!("{} or {}", describe(from), describe(to))
        })?;
        let mut changes = treediff::changes(&memory, old, new)?;
        if !paths.is_empty() {
            changes.retain(|c| {
                paths
                    .iter()
                    .any(|p| restore::is_at_or_below(c.path.as_ref(), p.as_ref()))
            });
        }
        if let Some(snap) = &excluded {
            changes.retain(|c| !snap.excluded(c.path.as_ref(), false));
        }
        let files = crate::diff::file_diffs(&memory, &changes, options)?;
        Ok(Diff {
            files,
            repo: memory,
        })
    }

    /// The working tree captured once, into memory (nothing is written to the repository),
    /// to compare many checkpoints with: cheaper than [`diff`](Self::diff) against
    /// [`Side::WorkingTree`] for each.
    pub fn working_tree(&self, ctl: &Control<'_>) -> Result<WorkingTree> {
        self.need_working_tree("compare with")?;
        let repo = self.repo.clone().with_object_memory();
        let scope = self.scope()?;
        let snap = capture::capture(&repo, self.worktree(), &scope, false, false, ctl)?.snap;
        Ok(WorkingTree {
            repo,
            tree: snap.tree,
            snap,
        })
    }

    /// The tree of `side`; for the working tree, its capture lands in `captured`, whose
    /// `checkpoint.exclude` the comparison follows: what a save leaves out, restore never
    /// touches, so it is no difference between a checkpoint and the working tree.
    fn tree_of(
        &self,
        repo: &gix::Repository,
        side: Side<'_>,
        ctl: &Control<'_>,
        captured: &mut Option<crate::snapshot::Snapshot>,
    ) -> Result<Option<gix::ObjectId>> {
        Ok(Some(match side {
            Side::Checkpoint(c) => store::commit_tree(repo, c.commit)?,
            Side::HeadOf(c) => match store::head_commit(repo, c.commit)? {
                Some(head) => store::commit_tree(repo, head)?,
                None => return Ok(None),
            },
            Side::WorkingTree => {
                self.need_working_tree("compare with")?;
                let scope = self.scope()?;
                let snap = capture::capture(repo, self.worktree(), &scope, false, false, ctl)?.snap;
                let tree = snap.tree;
                *captured = Some(snap);
                tree
            }
        }))
    }

    /// How paths are quoted in output, as `core.quotePath` says.
    pub fn quoting(&self) -> Quoting {
        Quoting {
            non_ascii: self.settings.quote_path,
        }
    }

    /// A path of `paths` that matches nothing in any of `trees` is an error naming it (git's
    /// "pathspec … did not match"): a typo must not pass for "nothing to do". `on_disk`: one
    /// side is the working tree, so say when the path exists there but checkpoints leave it
    /// out. `searched` says where the path was looked for.
    fn every_path_matches(
        &self,
        repo: &gix::Repository,
        paths: &[BString],
        trees: &[Option<gix::ObjectId>],
        on_disk: bool,
        searched: impl FnOnce() -> String,
    ) -> Result<()> {
        for path in paths {
            let mut found = false;
            for tree in trees {
                if treediff::has_path(repo, *tree, path.as_ref())? {
                    found = true;
                    break;
                }
            }
            if found {
                continue;
            }
            let left_out = on_disk
                && self.repo.workdir().is_some_and(|workdir| {
                    crate::snapshot::worktree_path(workdir, path.as_ref())
                        .is_ok_and(|p| p.symlink_metadata().is_ok())
                });
            return Err(Error::PathMatchesNothing {
                path: path.to_string(),
                searched: searched(),
                left_out,
            });
        }
        Ok(())
    }

    /// Rename detection as git does it: `-M` (`flag`), `--no-renames` (`off`), else
    /// `diff.renames` (default on, with a similarity of 50%).
    pub fn renames(&self, flag: Option<u8>, off: bool) -> Option<u8> {
        if off {
            return None;
        }
        flag.or(self.settings.diff_renames.then_some(50))
    }

    /// How many paths differ between two checkpoints: what happened between them.
    ///
    /// ```no_run
    /// let checkpoints = git_checkpoint::Checkpoints::open(std::path::Path::new("."))?;
    /// let (before, after) = (checkpoints.find("@{1}")?, checkpoints.find("@")?);
    /// let s = checkpoints.summary(&before, &after)?;
    /// println!("{} added, {} modified, {} deleted", s.added, s.modified, s.deleted);
    /// # Ok::<(), git_checkpoint::Error>(())
    /// ```
    pub fn summary(&self, from: &Checkpoint, to: &Checkpoint) -> Result<Summary> {
        treediff::summary(
            &self.repo,
            Some(store::commit_tree(&self.repo, from.commit)?),
            Some(store::commit_tree(&self.repo, to.commit)?),
        )
    }

    // --- Restoring ----------------------------------------------------------------------

    /// Make the working tree equal to `target` (or only `options.paths` of it), after saving
    /// the current state as a `pre-restore` checkpoint. See [`crate::restore`] for the promise
    /// it keeps. Afterwards retention runs, never removing `target` or the safety checkpoint.
    pub fn restore(
        &self,
        target: &Checkpoint,
        options: &RestoreOptions,
        ctl: &Control<'_>,
    ) -> Result<Restored> {
        if !options.hunks.is_empty() && (!options.paths.is_empty() || options.staged) {
            return Err(Error::InvalidInput(
                "hunks cannot be restored together with paths or the index: give one or the other"
                    .into(),
            ));
        }
        self.restore_with(options, ctl, |repo, captured| {
            let all = naming::load_all(repo)?;
            let history = History::load(repo, &all, self.worktree())?;
            let operation = Operation {
                name: format::OP_RESTORE.into(),
                target: Some(target.id.clone()),
                result: String::new(),
                cursor: None,
                chain: history.in_effect_id(captured.snap.tree),
                undone: None,
            };
            if options.hunks.is_empty() {
                return Ok((target.clone(), safety(&target.id, operation)));
            }
            // Only those hunks: the working tree with them taken back, as the target.
            let what = format!("checkpoint {} and the working tree", target.id);
            let listed_by = format!("git checkpoint diff --json {}", target.id);
            let tree = crate::partial::take_back(
                repo,
                &captured.snap,
                &crate::partial::Comparison {
                    old: Some(store::commit_tree(repo, target.commit)?),
                    new: Some(captured.snap.tree),
                    renames: self.renames(None, false),
                    what: &what,
                    listed_by: &listed_by,
                },
                &options.hunks,
            )?;
            let partial = crate::revert::partial_target(repo, tree, captured.head_commit, target)?;
            Ok((partial, safety(&target.id, operation)))
        })
    }

    /// Undo: take back the last thing that happened to the working tree, `n` times (see
    /// [`crate::history`]). After a restore (or revert, redo), while the working tree is still
    /// as it left it, that brings back the state before it; otherwise it goes back to the
    /// newest earlier state that differs from the working tree now, and repeated, keeps walking
    /// back. Each step takes its safety checkpoint first, so each step can be undone.
    pub fn undo(&self, n: usize, options: &RestoreOptions, ctl: &Control<'_>) -> Result<Restored> {
        self.steps(n, options, ctl, History::undo)
    }

    /// Redo: take back the last `n` undos, in order, while nothing changed since.
    pub fn redo(&self, n: usize, options: &RestoreOptions, ctl: &Control<'_>) -> Result<Restored> {
        self.steps(n, options, ctl, History::redo)
    }

    /// `n` steps of undo or redo, each chosen by `next` from the history as it is then.
    fn steps(
        &self,
        n: usize,
        options: &RestoreOptions,
        ctl: &Control<'_>,
        next: fn(&History, gix::ObjectId) -> Result<Step>,
    ) -> Result<Restored> {
        let n = n.max(1);
        let choose = |imagined: usize| {
            move |repo: &gix::Repository, captured: &Captured| -> Result<(Checkpoint, Safety)> {
                let all = naming::load_all(repo)?;
                let mut history = History::load(repo, &all, self.worktree())?;
                let mut now = captured.snap.tree;
                // A dry run of several steps imagines the first ones done.
                for _ in 0..imagined {
                    let step = next(&history, now)?;
                    let result = store::commit_tree(repo, step.target.commit)?;
                    history.imagine(now, &step, result);
                    now = result;
                }
                let step = next(&history, now)?;
                let id = step.target.id.clone();
                Ok((step.target, safety(&id, step.operation)))
            }
        };
        if options.dry_run {
            // Where as many of the n steps as there are would end, as the steps themselves go.
            let mut imagined = n - 1;
            loop {
                match self.restore_with(options, ctl, choose(imagined)) {
                    Ok(mut restored) => {
                        restored.steps = imagined + 1;
                        return Ok(restored);
                    }
                    Err(Error::NothingToUndo(_) | Error::NothingToRedo) if imagined > 0 => {
                        imagined -= 1;
                    }
                    Err(err) => return Err(err),
                }
            }
        }
        let mut taken = vec![self.restore_with(options, ctl, choose(0))?];
        while taken.len() < n {
            match self.restore_with(options, ctl, choose(0)) {
                Ok(restored) => taken.push(restored),
                Err(Error::NothingToUndo(_) | Error::NothingToRedo) => break,
                Err(err) => return Err(err),
            }
        }
        combine_steps(&self.repo, taken)
    }

    /// What `revert <from> [<to>]` takes back: from `from` to `to`; without `to`, the step
    /// after `from` in this worktree's history (what one agent step did); `session:<ID>` as
    /// `from` (and no `to`), that session's own steps (see [`revert_agent`](Self::revert_agent)).
    pub fn revert_range(
        &self,
        loaded: &Loaded,
        from: &str,
        to: Option<&str>,
    ) -> Result<RevertSpan> {
        let start = self.resolve(loaded, from)?.clone();
        if let Some(to) = to {
            let end = self.resolve(loaded, to)?.clone();
            return Ok(RevertSpan {
                steps: vec![(start.clone(), Some(end.clone()))],
                from: start,
                to: end,
                own_steps: false,
            });
        }
        if let Some(spec) = from.strip_prefix(format::SESSION_PREFIX) {
            let session = self.session(loaded, spec)?;
            return self.own_steps(loaded, &format!("session {session}"), |c| {
                c.meta.session.as_deref() == Some(session.as_str())
            });
        }
        let own: Vec<&Checkpoint> = self.own(loaded).collect();
        let end = crate::revert::step_after(&own, &start)?.clone();
        Ok(RevertSpan {
            steps: vec![(start.clone(), Some(end.clone()))],
            from: start,
            to: end,
            own_steps: false,
        })
    }

    /// What `revert --agent <NAME>` takes back: the own steps of every session of that agent
    /// in this worktree. A step starts at a checkpoint the agent took before acting (its hook's
    /// before a tool call) and ends at the next checkpoint of the worktree, taken by anyone;
    /// what others changed between its steps is not in them.
    pub fn revert_agent(&self, loaded: &Loaded, agent: &str) -> Result<RevertSpan> {
        self.own_steps(loaded, &format!("agent {agent}"), |c| {
            c.meta.agent.as_deref() == Some(agent)
        })
    }

    fn own_steps(
        &self,
        loaded: &Loaded,
        whose: &str,
        belongs: impl Fn(&Checkpoint) -> bool,
    ) -> Result<RevertSpan> {
        let own: Vec<&Checkpoint> = self.own(loaded).collect();
        let steps: Vec<(Checkpoint, Option<Checkpoint>)> = crate::revert::steps(&own, belongs)
            .into_iter()
            .map(|(a, b)| (a.clone(), b.cloned()))
            .collect();
        let (Some(first), Some(last)) = (steps.first(), steps.last()) else {
            return Err(Error::InvalidInput(format!(
                "{whose} has no step in this worktree to take back: no checkpoint of it was taken before a tool call"
            )));
        };
        Ok(RevertSpan {
            from: first.0.clone(),
            to: last.1.clone().unwrap_or_else(|| last.0.clone()),
            own_steps: true,
            steps,
        })
    }

    /// Take back what `span` names from the working tree now, keeping everything changed
    /// since, by a three-way merge per step, newest first (as `git revert` does; base the
    /// step's end, ours the working tree, theirs its start). Conflicting files refuse the whole
    /// revert, naming their lines, unless `options.markers`. With `options.hunks`, only those
    /// hunks of a one-step span. A safety checkpoint first; undoable like a restore.
    pub fn revert(
        &self,
        span: &RevertSpan,
        options: &RevertOptions,
        ctl: &Control<'_>,
    ) -> Result<Reverted> {
        let (from, to) = (&span.from, &span.to);
        if !options.hunks.is_empty() && (span.own_steps || span.steps.len() != 1) {
            return Err(Error::InvalidInput(
                "hunks are taken back from one step (`revert <A> [<B>]`), not from a session's or an agent's steps".into(),
            ));
        }
        let restore_options = RestoreOptions {
            dry_run: options.dry_run,
            force: options.force,
            ..RestoreOptions::default()
        };
        let mut conflicts: Vec<String> = Vec::new();
        let mut conflict_kinds = Vec::new();
        let restored = self.restore_with(&restore_options, ctl, |repo, captured| {
            let tree = |c: &Checkpoint| store::commit_tree(repo, c.commit);
            let merged = if options.hunks.is_empty() {
                let merged = crate::revert::merge_steps(repo, captured.snap.tree, &span.steps)?;
                if !merged.conflicts.is_empty() && !options.markers {
                    return Err(Error::RevertConflicts {
                        paths: merged.conflicts,
                        lines: merged.lines,
                    });
                }
                conflicts = merged.conflicts;
                conflict_kinds = merged.kinds;
                merged.tree
            } else {
                let (start, end) = &span.steps[0];
                let what = format!("the step from checkpoint {} to {}", from.id, to.id);
                let listed_by = format!("git checkpoint diff --json {} {}", from.id, to.id);
                crate::partial::take_back(
                    repo,
                    &captured.snap,
                    &crate::partial::Comparison {
                        old: Some(tree(start)?),
                        new: Some(match end {
                            Some(end) => tree(end)?,
                            None => captured.snap.tree,
                        }),
                        renames: self.renames(None, false),
                        what: &what,
                        listed_by: &listed_by,
                    },
                    &options.hunks,
                )?
            };
            let target = crate::revert::target(repo, merged, captured.head_commit, from, to)?;
            let all = naming::load_all(repo)?;
            let history = History::load(repo, &all, self.worktree())?;
            let operation = Operation {
                name: format::OP_REVERT.into(),
                target: Some(from.id.clone()),
                result: String::new(),
                cursor: None,
                chain: history.in_effect_id(captured.snap.tree),
                undone: None,
            };
            let id = target.id.clone();
            Ok((target, safety(&id, operation)))
        })?;
        Ok(Reverted {
            from: from.clone(),
            to: to.clone(),
            conflicts,
            conflict_kinds,
            restored,
            steps: span.steps.len(),
        })
    }

    /// The common course of every restore: refuse during a merge (unless forced); take the
    /// restore lock and complete an interrupted restore (not for a dry run, which writes no
    /// object); capture the working tree; let `choose` pick the target and the safety
    /// checkpoint from that capture; restore; housekeeping.
    fn restore_with(
        &self,
        options: &RestoreOptions,
        ctl: &Control<'_>,
        choose: impl FnOnce(&gix::Repository, &Captured) -> Result<(Checkpoint, Safety)>,
    ) -> Result<Restored> {
        self.need_working_tree("restore")?;
        restore::refuse_in_progress(&self.repo, options.force)?;
        let scope = self.scope()?;
        if options.dry_run {
            // A dry run writes no object: the snapshot of the working tree stays in memory.
            let memory = self.repo.clone().with_object_memory();
            let captured = capture::capture(&memory, self.worktree(), &scope, false, false, ctl)?;
            let (target, safety) = choose(&memory, &captured)?;
            self.restored_paths_match(&memory, &captured, &target, options)?;
            let mut restored =
                restore::run(&memory, &captured, &target, options, None, safety, ctl)?;
            restored.index_mismatch = index_mismatch(&memory, &captured, options, &restored);
            return Ok(restored);
        }
        let mut guard = Guard::acquire(&self.repo)?;
        let interrupted =
            crate::recovery::complete_locked(&self.repo, self.worktree(), &scope, &mut guard, ctl)?;
        let captured = self.capture(&scope, ctl)?;
        let (target, safety) = choose(&self.repo, &captured)?;
        self.restored_paths_match(&self.repo, &captured, &target, options)?;
        // What the event names: the checkpoint the operation brought back (for a revert, the
        // step's start, not the merged tree), as its safety checkpoint's note records it, so
        // that watchers see the same whether this process or another one did it.
        let announced = safety
            .operation
            .as_ref()
            .and_then(|o| o.target.clone())
            .unwrap_or_else(|| target.id.clone());
        let mut restored = restore::run(
            &self.repo,
            &captured,
            &target,
            options,
            Some(&mut guard),
            safety,
            ctl,
        )?;
        drop(guard);
        restored.index_mismatch = index_mismatch(&self.repo, &captured, options, &restored);
        restored.interrupted = interrupted;
        if let Some(Saved::Created(safety)) = &restored.safety {
            self.emit(CheckpointEvent::Saved(Box::new(safety.clone())));
            restored.housekeeping = self.housekeeping(&[safety.id.as_str(), target.id.as_str()]);
        }
        if !restored.plan.is_empty() || restored.index_restored {
            self.emit(CheckpointEvent::Restored {
                target: announced,
                safety: restored.safety.as_ref().map(|s| s.checkpoint().id.clone()),
            });
        }
        Ok(restored)
    }

    /// Before a restore of some paths changes anything: each must match something in the
    /// target or in the working tree now.
    fn restored_paths_match(
        &self,
        repo: &gix::Repository,
        captured: &Captured,
        target: &Checkpoint,
        options: &RestoreOptions,
    ) -> Result<()> {
        if options.paths.is_empty() {
            return Ok(());
        }
        // A path spelled as the working tree spells a file the capture respelled
        // (`core.ignoreCase`) matches that file.
        let paths: Vec<BString> = options
            .paths
            .iter()
            .filter(|p| !captured.snap.matches_on_disk(p.as_ref()))
            .cloned()
            .collect();
        let target_tree = store::commit_tree(repo, target.commit)?;
        self.every_path_matches(
            repo,
            &paths,
            &[Some(target_tree), Some(captured.snap.tree)],
            true,
            || format!("checkpoint {} or the working tree", target.id),
        )
    }

    // --- Retention ----------------------------------------------------------------------

    /// Delete the checkpoints `specs` name (refs and notes, in one transaction). A ref under
    /// `refs/checkpoints/` that is not a readable checkpoint is named only by its exact id.
    pub fn drop_checkpoints(&self, specs: &[&str], ctl: &Control<'_>) -> Result<Vec<Dropped>> {
        let loaded = self.load()?;
        let mut chosen: Vec<Dropped> = Vec::new();
        for spec in specs {
            let dropped = match naming::broken_exact(&loaded.broken, spec) {
                Some(broken) => Dropped {
                    id: spec.to_string(),
                    commit: broken.target,
                },
                None => {
                    let c = self.resolve(&loaded, spec)?;
                    Dropped {
                        id: c.id.clone(),
                        commit: Some(c.commit),
                    }
                }
            };
            if !chosen.iter().any(|d| d.id == dropped.id) {
                chosen.push(dropped);
            }
        }
        let ids: Vec<String> = chosen.iter().map(|d| d.id.clone()).collect();
        ctl.check()?;
        store::delete_ids(&self.repo, &ids, false)?;
        crate::removed::remember(
            &self.repo,
            loaded
                .checkpoints
                .iter()
                .filter(|c| ids.contains(&c.id))
                .map(|c| (c, "drop")),
        );
        self.emit(CheckpointEvent::Dropped(ids));
        Ok(chosen)
    }

    /// Apply the retention policy now, each option overriding its setting for this run.
    pub fn prune(&self, options: &PruneOptions, ctl: &Control<'_>) -> Result<Pruned> {
        let mut policy = self.settings.policy()?.clone();
        if let Some(kind) = &options.kind {
            // With a kind, the kind's own keep applies, or the given one.
            if let Some(keep) = options.keep {
                policy.keep_per_kind.insert(kind.clone(), keep);
            }
            policy.only_kind = Some(kind.clone());
        } else if let Some(keep) = options.keep {
            // Of each kind, for this run: the kinds' own keeps give way to it.
            policy.keep = Some(keep);
            policy.keep_per_kind.clear();
        }
        policy.given.keep = options.keep.is_some();
        if let Some(age) = options.older_than {
            policy.max_age = Some(age);
            policy.given.max_age = true;
        }
        if let Some(size) = options.max_size {
            policy.max_size = Some(size);
            policy.given.max_size = true;
        }
        if let Some(age) = options.min_age {
            policy.min_age = Some(age).filter(|age| *age > chrono::Duration::zero());
            policy.given.min_age = true;
        }
        ctl.check()?;
        if !options.dry_run {
            store::sweep_stale_locks(&self.repo);
        }
        let pruned = retention::prune(&self.repo, &policy, options.dry_run, &[])?;
        if !options.dry_run && !pruned.removed.is_empty() {
            self.emit(CheckpointEvent::Pruned(
                pruned.removed.iter().map(|c| c.id.clone()).collect(),
            ));
        }
        Ok(pruned)
    }

    /// What the checkpoints cost on disk: the objects only they hold, beyond branches and
    /// tags, per kind and per checkpoint (see [`crate::disk`]).
    pub fn du(&self, ctl: &Control<'_>) -> Result<crate::disk::Usage> {
        let loaded = self.load()?;
        crate::disk::usage(&self.repo, &loaded.checkpoints, ctl)
    }

    /// Find the trees an earlier version wrote that git cannot read (gitlinks of an embedded
    /// repository of the other object format, at that format's length), give every
    /// checkpoint that holds one the tree git would have written (same id, same note), and
    /// delete them, so that `git fsck` and `git gc` work again. With `dry_run`, only say
    /// what would be done. See [`crate::repair`].
    pub fn repair(&self, dry_run: bool, ctl: &Control<'_>) -> Result<Repaired> {
        ctl.check()?;
        crate::repair::repair(&self.repo, dry_run)
    }

    /// Pin (or unpin) `checkpoint`: pinned checkpoints are never pruned. Only the note's
    /// `pinned` changes; every other field stays, whatever version wrote it. Returns whether
    /// anything changed (`false`: it already was).
    pub fn set_pinned(
        &self,
        checkpoint: &Checkpoint,
        pinned: bool,
        ctl: &Control<'_>,
    ) -> Result<bool> {
        ctl.check()?;
        let changed = store::set_pinned(&self.repo, checkpoint, pinned)?;
        if changed {
            self.emit(CheckpointEvent::Pinned {
                id: checkpoint.id.clone(),
                pinned,
            });
        }
        Ok(changed)
    }

    // --- Sharing ------------------------------------------------------------------------

    /// Whether `name` is a configured remote's name.
    pub fn is_remote(&self, name: &str) -> bool {
        self.repo
            .remote_names()
            .iter()
            .any(|remote| remote.as_slice() == name.as_bytes())
    }

    /// `remote`, or the default one: the current branch's upstream remote, else `origin`.
    pub fn remote(&self, remote: Option<&str>) -> Result<String> {
        sharing::remote_or_default(&self.repo, remote)
    }

    /// What `push` sends when no checkpoint is named: this repository's own checkpoints (of
    /// every worktree), newest first, without the fetched ones (someone else's) and without
    /// the `pre-restore` safety snapshots (this worktree's private undo history, which would
    /// show a colleague your state before each restore).
    pub fn to_push<'a>(&self, loaded: &'a Loaded) -> impl Iterator<Item = &'a Checkpoint> + 'a {
        loaded
            .checkpoints
            .iter()
            .filter(|c| c.meta.fetched.is_none() && c.meta.kind != format::KIND_PRE_RESTORE)
    }

    /// For each of `checkpoints`, the files it holds that its `HEAD` commit does not: what a
    /// push sends that the branch does not.
    pub fn exposure(&self, checkpoints: &[Checkpoint]) -> Result<Vec<Exposure>> {
        sharing::exposure(&self.repo, checkpoints)
    }

    /// What looks like secrets in the files each of `checkpoints` adds beyond its `HEAD`
    /// commit, for those where anything does: the findings its note records, less what
    /// `checkpoint.secretsAllow` allows now. A checkpoint saved without a scan (an older
    /// version, `checkpoint.secrets=off` then, a fetched one) is scanned now, unless
    /// `checkpoint.secrets` is `off` now. Never holds a secret itself.
    pub fn secrets(&self, checkpoints: &[Checkpoint]) -> Result<Vec<Flagged>> {
        let mode = self.settings.secrets()?;
        let allowed = crate::secrets::Allowed::new(&self.settings.secrets_allow);
        let mut flagged = Vec::new();
        for c in checkpoints {
            let note = match &c.meta.secrets {
                Some(note) => allowed.filter(note),
                None if mode == crate::config::SecretsMode::Off => continue,
                None => {
                    let base = store::head_commit(&self.repo, c.commit)?
                        .map(|head| store::commit_tree(&self.repo, head))
                        .transpose()?;
                    let tree = store::commit_tree(&self.repo, c.commit)?;
                    crate::secrets::scan(&self.repo, base, tree, None, &allowed, false)?
                }
            };
            if note.count() > 0 {
                flagged.push(Flagged {
                    id: c.id.clone(),
                    secrets: note,
                });
            }
        }
        Ok(flagged)
    }

    /// Push `checkpoints` and their notes to `remote` (see [`crate::sharing`]);
    /// `before_sending` is called with the checkpoints about to be created there.
    ///
    /// Unless `allow_secrets`, a checkpoint where [`secrets`](Self::secrets) finds anything
    /// is held back (in [`Pushed::held_back`]), its note too, and the others are pushed.
    pub fn push(
        &self,
        remote: &str,
        checkpoints: &[Checkpoint],
        options: PushOptions,
        before_sending: &mut dyn FnMut(&[Checkpoint]),
        ctl: &Control<'_>,
    ) -> Result<Pushed> {
        let held_back = if options.allow_secrets {
            Vec::new()
        } else {
            self.secrets(checkpoints)?
        };
        let sending: Vec<Checkpoint> = checkpoints
            .iter()
            .filter(|c| !held_back.iter().any(|h| h.id == c.id))
            .cloned()
            .collect();
        let mut pushed = if sending.is_empty() {
            Pushed {
                remote: remote.to_string(),
                atomic: true,
                ..Pushed::default()
            }
        } else {
            sharing::push(
                &self.repo,
                remote,
                &sending,
                options.with_conversation,
                before_sending,
                ctl,
            )?
        };
        pushed.held_back = held_back;
        Ok(pushed)
    }

    /// Fetch `remote`'s checkpoints and merge their notes; never overwrites a checkpoint.
    pub fn fetch(&self, remote: &str, ctl: &Control<'_>) -> Result<Fetched> {
        sharing::fetch(&self.repo, remote, ctl)
    }

    /// Turn `paths`, given relative to `cwd`, into paths relative to the top of the working
    /// tree. A path outside the working tree is an error. In a bare repository, which has no
    /// working tree to be in, paths are taken as relative to the top of the tree.
    pub fn paths_from(&self, cwd: &Path, paths: &[std::path::PathBuf]) -> Result<Vec<BString>> {
        // As git says of an empty pathspec: it names nothing, and taking it for the whole tree
        // would turn a one-file restore into a restore of everything.
        if paths.iter().any(|p| p.as_os_str().is_empty()) {
            return Err(Error::InvalidInput(
                "an empty path names no file: give a file or a directory (`.` for the whole tree)"
                    .into(),
            ));
        }
        let Some(workdir) = self.repo.workdir() else {
            return paths.iter().map(|p| from_top(p)).collect();
        };
        if paths.is_empty() {
            return Ok(Vec::new());
        }
        let workdir = workdir
            .canonicalize()
            .unwrap_or_else(|_| workdir.to_owned());
        let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_owned());
        paths
            .iter()
            .map(|p| {
                let joined = crate::repo::lexical(&cwd.join(p));
                let rela = joined.strip_prefix(&workdir).map_err(|_| {
                    Error::InvalidInput(format!("`{}` is outside the working tree", p.display()))
                })?;
                git_path(rela, p)
            })
            .collect()
    }
}

/// Open (or make, as `options` allow) the store `store` of the plain directory `dir`: a store
/// that exists keeps the directory it records, which must be `dir` or above it. Returns the
/// repository, its working tree that directory, and whether the store was made now.
fn open_store(dir: &Path, store: &Path, options: &OpenOptions) -> Result<(gix::Repository, bool)> {
    let canonical = crate::plain::canonical(dir)?;
    let mut created = false;
    let directory = if crate::plain::is_store(store) {
        let recorded = crate::plain::recorded_directory(store)
            .and_then(|d| d.canonicalize().ok())
            .ok_or_else(|| {
                Error::InvalidInput(format!(
                    "the store `{}` records no directory that exists (checkpoint.directory); if its directory was moved to `{}`, `git checkpoint stores --adopt {}` there makes it its store",
                    store.display(),
                    canonical.display(),
                    store.display()
                ))
            })?;
        if !canonical.starts_with(&recorded) {
            return Err(Error::InvalidInput(format!(
                "the store `{}` keeps the checkpoints of `{}`, not of `{}`",
                store.display(),
                recorded.display(),
                canonical.display()
            )));
        }
        recorded
    } else {
        if !options.create {
            return Err(Error::NoStore(canonical));
        }
        if !options.force {
            crate::plain::refuse(&canonical)?;
        }
        crate::plain::create(store, &canonical)?;
        created = true;
        canonical
    };
    let repo = crate::plain::open(store, &directory)?;
    Ok((crate::repo::configure(repo)?, created))
}

/// `path`, relative to the top of a tree, in git's form (`.` and `..` resolved); one that is
/// absolute or climbs above the top is an error.
fn from_top(path: &Path) -> Result<BString> {
    use std::path::Component;
    let mut rela = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => rela.push(part),
            Component::CurDir => {}
            Component::ParentDir if rela.pop() => {}
            _ => {
                return Err(Error::InvalidInput(format!(
                    "`{}` is not a path inside the repository (in a bare repository, paths are relative to the top of the tree)",
                    path.display()
                )));
            }
        }
    }
    git_path(&rela, path)
}

/// A relative path in git's form: `/`-separated bytes.
fn git_path(rela: &Path, given: &Path) -> Result<BString> {
    let rela = gix::path::into_bstr(rela)
        .map_err(|e| Error::InvalidInput(format!("`{}`: {e}", given.display())))?;
    Ok(gix::path::to_unix_separators_on_windows(rela).into_owned())
}

/// After a restore that left the index alone (and `HEAD` where the checkpoint was taken): the
/// files it changed whose index entry differs from the staged state the checkpoint recorded.
/// Only a notice: when it cannot be worked out, the restore, done, is not failed for it.
fn index_mismatch(
    repo: &gix::Repository,
    captured: &Captured,
    options: &RestoreOptions,
    restored: &Restored,
) -> Vec<String> {
    if options.staged || restored.head_moved.is_some() || restored.plan.is_empty() {
        return Vec::new();
    }
    restore::index_mismatch(repo, captured, &restored.target, &restored.plan).unwrap_or_default()
}

/// How a side of a comparison is named in messages.
fn describe(side: Side<'_>) -> String {
    match side {
        Side::Checkpoint(c) => format!("checkpoint {}", c.id),
        Side::HeadOf(c) => format!("the commit checkpoint {} was taken on", c.id),
        Side::WorkingTree => "the working tree".into(),
    }
}

/// Whether `path` is `prefix` or below it (an empty `prefix` means everything).
pub fn is_at_or_below(path: &BStr, prefix: &BStr) -> bool {
    restore::is_at_or_below(path, prefix)
}

/// The safety checkpoint of a restore of `target` that records `operation`.
/// Several steps of undo or redo told as one: the last step's outcome, with what all of them
/// changed together (from the state before the first to the state the last left) and the
/// first step's safety checkpoint, which holds the state before them all: restoring it takes
/// them all back at once.
fn combine_steps(repo: &gix::Repository, mut taken: Vec<Restored>) -> Result<Restored> {
    let steps = taken.len();
    let Some(mut last) = taken.pop() else {
        return Err(Error::Unsupported(
            "internal error: no step was taken".into(),
        ));
    };
    last.steps = steps;
    let Some(first) = taken.first() else {
        return Ok(last);
    };
    let mut touched: Vec<String> = Vec::new();
    fn union(into: &mut Vec<String>, from: &[String]) {
        for path in from {
            if !into.contains(path) {
                into.push(path.clone());
            }
        }
    }
    for step in taken.iter().chain([&last]) {
        union(&mut touched, &step.plan.write);
        union(&mut touched, &step.plan.delete);
        union(&mut touched, &step.plan.replaced_ignored);
    }
    let mut plan = last.plan.clone();
    for step in &taken {
        union(&mut plan.kept, &step.plan.kept);
        union(&mut plan.replaced_ignored, &step.plan.replaced_ignored);
        union(&mut plan.left_alone, &step.plan.left_alone);
        union(&mut plan.delete, &step.plan.delete);
        union(&mut plan.write, &step.plan.write);
    }
    // The state before and after, where the safety checkpoints say: then what differs between
    // them among the paths some step wrote or deleted (a file one step wrote and the next put
    // back is not a change).
    let before = match &first.safety {
        Some(saved) => Some(store::commit_tree(repo, saved.checkpoint().commit)?),
        None => None,
    };
    let after = last
        .safety
        .as_ref()
        .and_then(|s| s.checkpoint().meta.operation.as_ref())
        .and_then(|op| gix::ObjectId::from_hex(op.result.as_bytes()).ok());
    if let (Some(before), Some(after)) = (before, after) {
        let changes = treediff::changes(repo, Some(before), Some(after))?;
        let changed = |gone: bool| -> Vec<String> {
            changes
                .iter()
                .filter(|c| c.new.is_none() == gone)
                .map(|c| c.path.to_string())
                .filter(|p| touched.contains(p))
                .collect()
        };
        plan.write = changed(false);
        plan.delete = changed(true);
    }
    last.plan = plan;
    last.index_restored |= taken.iter().any(|s| s.index_restored);
    last.interrupted = first.interrupted.clone();
    last.safety = first.safety.clone();
    for step in &taken {
        union(&mut last.housekeeping.pruned, &step.housekeeping.pruned);
        if last.housekeeping.problem.is_none() {
            last.housekeeping.problem = step.housekeeping.problem.clone();
        }
    }
    Ok(last)
}

fn safety(target: &str, operation: Operation) -> Safety {
    let message = match operation.name.as_str() {
        format::OP_RESTORE => format!("before restoring {target}"),
        format::OP_REVERT => format!("before reverting {target}"),
        name => format!("before restoring {target} ({name})"),
    };
    Safety {
        message,
        operation: Some(operation),
    }
}

/// How [`Checkpoints::push`] pushes.
#[derive(Debug, Clone, Copy, Default)]
pub struct PushOptions {
    /// Also the conversations kept with them (`--with-conversation`).
    pub with_conversation: bool,
    /// Also the checkpoints where secrets were found (`--allow-secrets`).
    pub allow_secrets: bool,
}

/// Why there is no conversation to show or rewind for `checkpoint`.
pub fn no_conversation(checkpoint: &Checkpoint) -> String {
    match checkpoint
        .meta
        .conversation
        .as_ref()
        .and_then(|c| c.skipped.as_ref())
    {
        Some(why) => format!(
            "no conversation was kept with checkpoint {}: {why}",
            checkpoint.id
        ),
        None => format!(
            "no conversation was kept with checkpoint {} (hooks keep the agent's transcript; `save --conversation FILE` keeps any file)",
            checkpoint.id
        ),
    }
}
