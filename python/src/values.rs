//! The result objects: immutable copies of what the façade returned, safe to share between
//! threads (`frozen`), with `repr`s, equality and `to_dict()`.

use std::sync::{Arc, OnceLock};

use chrono::{DateTime, Utc};
use git_checkpoint as gc;
use gix::bstr::ByteSlice;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::PyDict;

use crate::Shared;

/// Differences from `HEAD` when the checkpoint was taken.
#[pyclass(frozen, get_all, module = "git_checkpoint", eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Stats {
    files: u64,
    added: u64,
    modified: u64,
    deleted: u64,
}

#[pymethods]
impl Stats {
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("files", self.files)?;
        dict.set_item("added", self.added)?;
        dict.set_item("modified", self.modified)?;
        dict.set_item("deleted", self.deleted)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!(
            "Stats(files={}, added={}, modified={}, deleted={})",
            self.files, self.added, self.modified, self.deleted
        )
    }
}

/// One checkpoint: a commit on `refs/checkpoints/<id>` and its note.
#[pyclass(frozen, module = "git_checkpoint")]
pub struct Checkpoint {
    pub(crate) inner: gc::Checkpoint,
    created_at: DateTime<Utc>,
    /// The checkpoints it was read from, to compute `files_changed` on first use.
    source: Option<Arc<Shared>>,
    files_changed: OnceLock<Vec<String>>,
    conversation: OnceLock<Option<gc::Conversation>>,
}

impl Checkpoint {
    pub fn new(inner: gc::Checkpoint, source: Option<Arc<Shared>>) -> Checkpoint {
        let created_at = DateTime::parse_from_rfc3339(&inner.meta.created_at)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or(DateTime::UNIX_EPOCH);
        Checkpoint {
            inner,
            created_at,
            source,
            files_changed: OnceLock::new(),
            conversation: OnceLock::new(),
        }
    }
}

#[pymethods]
impl Checkpoint {
    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }
    /// The checkpoint commit, in hex.
    #[getter]
    fn commit(&self) -> String {
        self.inner.commit.to_string()
    }
    #[getter]
    fn name(&self) -> Option<&str> {
        self.inner.meta.name.as_deref()
    }
    #[getter]
    fn message(&self) -> Option<&str> {
        self.inner.meta.message.as_deref()
    }
    #[getter]
    fn kind(&self) -> &str {
        &self.inner.meta.kind
    }
    /// When it was made (UTC, time-zone aware).
    #[getter]
    fn created_at(&self) -> DateTime<Utc> {
        self.created_at
    }
    /// The same as `created_at` (the name the Checkpoints Module's users know).
    #[getter]
    fn timestamp(&self) -> DateTime<Utc> {
        self.created_at
    }
    #[getter]
    fn session(&self) -> Option<&str> {
        self.inner.meta.session.as_deref()
    }
    #[getter]
    fn agent(&self) -> Option<&str> {
        self.inner.meta.agent.as_deref()
    }
    #[getter]
    fn worktree(&self) -> Option<&str> {
        self.inner.meta.worktree.as_deref()
    }
    /// The commit `HEAD` pointed to (`None` on an unborn branch).
    #[getter]
    fn head(&self) -> Option<&str> {
        self.inner.meta.head.commit.as_deref()
    }
    /// The branch `HEAD` was on, as `git branch` names it (`main`; `None` when detached).
    #[getter]
    fn branch(&self) -> Option<&str> {
        let reference = self.inner.meta.head.reference.as_deref()?;
        Some(reference.strip_prefix("refs/heads/").unwrap_or(reference))
    }
    #[getter]
    fn stats(&self) -> Stats {
        let s = &self.inner.meta.stats;
        Stats {
            files: s.files,
            added: s.added,
            modified: s.modified,
            deleted: s.deleted,
        }
    }
    /// The free-form metadata given at save (`meta=`), a new dict each time.
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::json::map_to_py(py, &self.inner.meta.meta)
    }
    #[getter]
    fn pinned(&self) -> bool {
        self.inner.meta.pinned
    }
    /// What the save's secret scan found, as the note says (`{"findings": [{"path", "line",
    /// "rule"}]}`, never a value); `None` when no scan ran.
    #[getter]
    fn secrets<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.inner.meta.secrets {
            Some(note) => crate::json::to_py(py, &serde_json::to_value(note).unwrap_or_default()),
            None => Ok(py.None().into_bound(py)),
        }
    }
    /// The conversation kept with the checkpoint (`save(conversation=...)`, a hook's
    /// transcript), read on first use: a JSON one as its value, any other as text; `None`
    /// when none was kept.
    #[getter]
    fn conversation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let stored = match self.conversation.get() {
            Some(stored) => stored.clone(),
            None => {
                let Some(source) = &self.source else {
                    return Ok(py.None().into_bound(py));
                };
                let target = self.inner.clone();
                let read = crate::call(py, source, move |checkpoints, _| {
                    checkpoints.conversation(&target)
                })?;
                self.conversation.get_or_init(|| read).clone()
            }
        };
        let Some(stored) = stored else {
            return Ok(py.None().into_bound(py));
        };
        if stored.format == "json"
            && let Ok(value) = serde_json::from_slice::<serde_json::Value>(&stored.bytes)
        {
            return crate::json::to_py(py, &value);
        }
        Ok(pyo3::types::PyString::new(py, &String::from_utf8_lossy(&stored.bytes)).into_any())
    }
    /// The paths that differ from the `HEAD` it was taken on, read on first use.
    #[getter]
    fn files_changed(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        if let Some(files) = self.files_changed.get() {
            return Ok(files.clone());
        }
        let Some(source) = &self.source else {
            return Ok(Vec::new());
        };
        let target = self.inner.clone();
        let files = crate::call(py, source, move |checkpoints, ctl| {
            let diff = checkpoints.diff(
                gc::Side::HeadOf(&target),
                gc::Side::Checkpoint(&target),
                &[],
                gc::DiffOptions {
                    hunks: false,
                    ..Default::default()
                },
                ctl,
            )?;
            Ok(diff
                .files
                .iter()
                .map(|f| f.path.to_str_lossy().into_owned())
                .collect::<Vec<String>>())
        })?;
        Ok(self.files_changed.get_or_init(|| files).clone())
    }

    /// Its note's fields plus `commit`, as `git checkpoint show --json` gives them.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::json::to_py(py, &self.inner.to_json())
    }

    fn __repr__(&self) -> String {
        let mut out = format!(
            "Checkpoint(id={:?}, kind={:?}",
            self.inner.id, self.inner.meta.kind
        );
        if let Some(name) = &self.inner.meta.name {
            out.push_str(&format!(", name={name:?}"));
        }
        if let Some(message) = &self.inner.meta.message {
            out.push_str(&format!(", message={message:?}"));
        }
        out.push(')');
        out
    }

    fn __str__(&self) -> String {
        self.inner.id.clone()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp, py: Python<'_>) -> Py<PyAny> {
        let Ok(other) = other.cast::<Checkpoint>() else {
            return py.NotImplemented();
        };
        let equal = self.inner == other.get().inner;
        match op {
            CompareOp::Eq => equal
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind()),
            CompareOp::Ne => (!equal)
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind()),
            _ => Ok(py.NotImplemented()),
        }
        .unwrap_or_else(|_| py.NotImplemented())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.inner.id.hash(&mut hasher);
        self.inner.commit.hash(&mut hasher);
        hasher.finish()
    }
}

/// One file of a comparison.
#[pyclass(frozen, get_all, module = "git_checkpoint")]
#[derive(Clone)]
pub struct FileDiff {
    path: String,
    old_path: Option<String>,
    status: &'static str,
    additions: u64,
    deletions: u64,
    binary: bool,
}

#[pymethods]
impl FileDiff {
    fn __repr__(&self) -> String {
        match &self.old_path {
            Some(old) => format!(
                "FileDiff({:?} -> {:?}, {}, +{} -{})",
                old, self.path, self.status, self.additions, self.deletions
            ),
            None => format!(
                "FileDiff({:?}, {}, +{} -{})",
                self.path, self.status, self.additions, self.deletions
            ),
        }
    }
}

fn status_word(status: &gc::Status) -> &'static str {
    match status {
        gc::Status::Added => "added",
        gc::Status::Deleted => "deleted",
        gc::Status::Modified => "modified",
        gc::Status::TypeChanged => "type-changed",
        gc::Status::Renamed(_) => "renamed",
    }
}

/// One hunk of a comparison: what `restore(hunks=[id])` and `revert(hunks=[id])` take.
#[pyclass(frozen, get_all, module = "git_checkpoint", eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Hunk {
    id: String,
    path: String,
    header: String,
    old_start: usize,
    old_lines: usize,
    new_start: usize,
    new_lines: usize,
    lines: Vec<String>,
}

impl Hunk {
    fn new(h: &gc::HunkInfo) -> Hunk {
        Hunk {
            id: h.id.clone(),
            path: h.path.clone(),
            header: h.header(),
            old_start: h.old_start,
            old_lines: h.old_lines,
            new_start: h.new_start,
            new_lines: h.new_lines,
            lines: h.lines.clone(),
        }
    }
}

#[pymethods]
impl Hunk {
    /// As `git checkpoint diff --json` gives it (with `path`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("id", &self.id)?;
        dict.set_item("path", &self.path)?;
        dict.set_item("header", &self.header)?;
        dict.set_item("old_start", self.old_start)?;
        dict.set_item("old_lines", self.old_lines)?;
        dict.set_item("new_start", self.new_start)?;
        dict.set_item("new_lines", self.new_lines)?;
        dict.set_item("lines", self.lines.clone())?;
        Ok(dict)
    }

    /// The header and the lines, as in a patch.
    fn __str__(&self) -> String {
        let mut out = self.header.clone();
        for line in &self.lines {
            out.push('\n');
            out.push_str(line);
        }
        out.push('\n');
        out
    }

    fn __repr__(&self) -> String {
        format!(
            "Hunk(id={:?}, path={:?}, header={:?})",
            self.id, self.path, self.header
        )
    }
}

/// What differs from `from_id` to `to_id` (`None`: the working tree now).
#[pyclass(frozen, get_all, module = "git_checkpoint")]
pub struct CheckpointDiff {
    from_id: String,
    to_id: Option<String>,
    files: Vec<FileDiff>,
    hunks: Vec<Hunk>,
    added_files: Vec<String>,
    modified_files: Vec<String>,
    deleted_files: Vec<String>,
    renamed_files: Vec<(String, String)>,
    diff_content: String,
}

impl CheckpointDiff {
    pub fn new(from_id: String, to_id: Option<String>, diff: &gc::Diff) -> CheckpointDiff {
        let mut out = CheckpointDiff {
            from_id,
            to_id,
            files: Vec::new(),
            hunks: diff.hunks().iter().map(Hunk::new).collect(),
            added_files: Vec::new(),
            modified_files: Vec::new(),
            deleted_files: Vec::new(),
            renamed_files: Vec::new(),
            diff_content: diff.patch_text(gc::PatchStyle::default()),
        };
        for f in &diff.files {
            let path = f.path.to_str_lossy().into_owned();
            let old_path = f.old_path.as_ref().map(|p| p.to_str_lossy().into_owned());
            match (&f.status, &old_path) {
                (gc::Status::Added, _) => out.added_files.push(path.clone()),
                (gc::Status::Deleted, _) => out.deleted_files.push(path.clone()),
                (gc::Status::Renamed(_), Some(old)) => {
                    out.renamed_files.push((old.clone(), path.clone()))
                }
                _ => out.modified_files.push(path.clone()),
            }
            out.files.push(FileDiff {
                path,
                old_path,
                status: status_word(&f.status),
                additions: f.added,
                deletions: f.deleted,
                binary: f.binary,
            });
        }
        out
    }
}

#[pymethods]
impl CheckpointDiff {
    fn __len__(&self) -> usize {
        self.files.len()
    }
    fn __bool__(&self) -> bool {
        !self.files.is_empty()
    }
    fn __str__(&self) -> String {
        self.diff_content.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "CheckpointDiff(from_id={:?}, to_id={:?}, files={})",
            self.from_id,
            self.to_id,
            self.files.len()
        )
    }
}

/// What a restore, undo or redo did (or, with `dry_run`, would do).
#[pyclass(frozen, module = "git_checkpoint")]
pub struct Restored {
    #[pyo3(get)]
    checkpoint: Py<Checkpoint>,
    #[pyo3(get)]
    written: Vec<String>,
    #[pyo3(get)]
    deleted: Vec<String>,
    #[pyo3(get)]
    kept: Vec<String>,
    #[pyo3(get)]
    left_alone: Vec<String>,
    #[pyo3(get)]
    excluded: Vec<String>,
    #[pyo3(get)]
    safety: Option<Py<Checkpoint>>,
    #[pyo3(get)]
    dry_run: bool,
    #[pyo3(get)]
    steps: usize,
    #[pyo3(get)]
    head_moved: bool,
    json: serde_json::Value,
}

impl Restored {
    pub fn new(py: Python<'_>, r: &gc::Restored, source: &Arc<Shared>) -> PyResult<Restored> {
        Ok(Restored {
            checkpoint: Py::new(py, Checkpoint::new(r.target.clone(), Some(source.clone())))?,
            written: r.plan.write.clone(),
            deleted: r.plan.delete.clone(),
            kept: r.plan.kept.clone(),
            left_alone: r.plan.left_alone.clone(),
            excluded: r.plan.excluded.clone(),
            safety: r
                .safety
                .as_ref()
                .map(|s| {
                    Py::new(
                        py,
                        Checkpoint::new(s.checkpoint().clone(), Some(source.clone())),
                    )
                })
                .transpose()?,
            dry_run: r.dry_run,
            steps: r.steps,
            head_moved: r.head_moved.is_some(),
            json: r.to_json(),
        })
    }
}

#[pymethods]
impl Restored {
    /// The conversation kept with the checkpoint restored (`checkpoint.conversation`): the
    /// files and the conversation they went with, back together. `None` when none was kept.
    #[getter]
    fn conversation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.checkpoint.get().conversation(py)
    }
    /// As `git checkpoint restore --json` gives it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::json::to_py(py, &self.json)
    }
    fn __repr__(&self) -> String {
        format!(
            "Restored(checkpoint={:?}, written={}, deleted={}, dry_run={})",
            self.checkpoint.get().inner.id,
            self.written.len(),
            self.deleted.len(),
            if self.dry_run { "True" } else { "False" }
        )
    }
}

/// What a revert did: the change taken back, from `from_checkpoint` to `to_checkpoint` (for a
/// session's or an agent's own steps: the first step's start and the last one's end), in
/// `steps` steps.
#[pyclass(frozen, module = "git_checkpoint")]
pub struct Reverted {
    #[pyo3(get)]
    from_checkpoint: Py<Checkpoint>,
    #[pyo3(get)]
    to_checkpoint: Py<Checkpoint>,
    #[pyo3(get)]
    conflicts: Vec<String>,
    #[pyo3(get)]
    written: Vec<String>,
    #[pyo3(get)]
    deleted: Vec<String>,
    #[pyo3(get)]
    safety: Option<Py<Checkpoint>>,
    #[pyo3(get)]
    dry_run: bool,
    #[pyo3(get)]
    steps: usize,
    json: serde_json::Value,
}

impl Reverted {
    pub fn new(py: Python<'_>, r: &gc::Reverted, source: &Arc<Shared>) -> PyResult<Reverted> {
        let wrap =
            |c: &gc::Checkpoint| Py::new(py, Checkpoint::new(c.clone(), Some(source.clone())));
        Ok(Reverted {
            from_checkpoint: wrap(&r.from)?,
            to_checkpoint: wrap(&r.to)?,
            conflicts: r.conflicts.clone(),
            written: r.restored.plan.write.clone(),
            deleted: r.restored.plan.delete.clone(),
            safety: r
                .restored
                .safety
                .as_ref()
                .map(|s| wrap(s.checkpoint()))
                .transpose()?,
            dry_run: r.restored.dry_run,
            steps: r.steps,
            json: r.to_json(),
        })
    }
}

#[pymethods]
impl Reverted {
    /// As `git checkpoint revert --json` gives it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::json::to_py(py, &self.json)
    }
    fn __repr__(&self) -> String {
        format!(
            "Reverted(from={:?}, to={:?}, written={}, deleted={}, conflicts={})",
            self.from_checkpoint.get().inner.id,
            self.to_checkpoint.get().inner.id,
            self.written.len(),
            self.deleted.len(),
            self.conflicts.len()
        )
    }
}

/// What `prune` removed (or, with `dry_run`, would remove), and why.
#[pyclass(frozen, get_all, module = "git_checkpoint")]
pub struct Pruned {
    removed: Vec<Py<Checkpoint>>,
    reasons: std::collections::BTreeMap<String, String>,
    dry_run: bool,
}

impl Pruned {
    pub fn new(py: Python<'_>, p: &gc::Pruned, dry_run: bool) -> PyResult<Pruned> {
        Ok(Pruned {
            removed: p
                .removed
                .iter()
                .map(|c| Py::new(py, Checkpoint::new(c.clone(), None)))
                .collect::<PyResult<_>>()?,
            reasons: p.why.clone(),
            dry_run,
        })
    }
}

#[pymethods]
impl Pruned {
    fn __len__(&self) -> usize {
        self.removed.len()
    }
    fn __repr__(&self) -> String {
        format!(
            "Pruned(removed={}, dry_run={})",
            self.removed.len(),
            if self.dry_run { "True" } else { "False" }
        )
    }
}

/// What the checkpoints cost on disk: what only they hold.
#[pyclass(frozen, get_all, module = "git_checkpoint")]
pub struct DiskUsage {
    checkpoints: usize,
    bytes: u64,
    objects: u64,
    notes_bytes: u64,
    conversations_bytes: u64,
    by_kind: std::collections::BTreeMap<String, u64>,
}

impl DiskUsage {
    pub fn new(u: &gc::Usage) -> DiskUsage {
        DiskUsage {
            checkpoints: u.checkpoints,
            bytes: u.total.bytes,
            objects: u.total.objects,
            notes_bytes: u.notes.bytes,
            conversations_bytes: u.conversations.bytes,
            by_kind: u
                .by_kind
                .iter()
                .map(|(k, a)| (k.clone(), a.bytes))
                .collect(),
        }
    }
}

#[pymethods]
impl DiskUsage {
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("checkpoints", self.checkpoints)?;
        dict.set_item("bytes", self.bytes)?;
        dict.set_item("objects", self.objects)?;
        dict.set_item("notes_bytes", self.notes_bytes)?;
        dict.set_item("conversations_bytes", self.conversations_bytes)?;
        dict.set_item("by_kind", self.by_kind.clone())?;
        Ok(dict)
    }
    fn __repr__(&self) -> String {
        format!(
            "DiskUsage(checkpoints={}, bytes={})",
            self.checkpoints, self.bytes
        )
    }
}

/// Something that happened: `type` is saved, restored, pruned, dropped or pinned.
#[pyclass(frozen, get_all, module = "git_checkpoint")]
pub struct CheckpointEvent {
    #[pyo3(name = "type")]
    kind: &'static str,
    checkpoint: Option<Py<Checkpoint>>,
    target: Option<String>,
    safety: Option<String>,
    ids: Vec<String>,
    pinned: Option<bool>,
}

impl CheckpointEvent {
    pub fn new(
        py: Python<'_>,
        event: gc::CheckpointEvent,
        source: &Arc<Shared>,
    ) -> PyResult<Option<CheckpointEvent>> {
        let mut out = CheckpointEvent {
            kind: "saved",
            checkpoint: None,
            target: None,
            safety: None,
            ids: Vec::new(),
            pinned: None,
        };
        match event {
            gc::CheckpointEvent::Saved(c) => {
                out.ids = vec![c.id.clone()];
                out.checkpoint = Some(Py::new(py, Checkpoint::new(*c, Some(source.clone())))?);
            }
            gc::CheckpointEvent::Restored { target, safety } => {
                out.kind = "restored";
                out.ids = vec![target.clone()];
                out.target = Some(target);
                out.safety = safety;
            }
            gc::CheckpointEvent::Pruned(ids) => {
                out.kind = "pruned";
                out.ids = ids;
            }
            gc::CheckpointEvent::Dropped(ids) => {
                out.kind = "dropped";
                out.ids = ids;
            }
            gc::CheckpointEvent::Pinned { id, pinned } => {
                out.kind = "pinned";
                out.ids = vec![id];
                out.pinned = Some(pinned);
            }
            _ => return Ok(None),
        }
        Ok(Some(out))
    }
}

#[pymethods]
impl CheckpointEvent {
    fn __repr__(&self) -> String {
        format!("CheckpointEvent(type={:?}, ids={:?})", self.kind, self.ids)
    }
}
