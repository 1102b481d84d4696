//! `git_checkpoint._native`: the library's façade, [`git_checkpoint::Checkpoints`], in a
//! Python process, and the command line for the package's `git-checkpoint` console script.
//!
//! Every method converts its Python arguments first, then runs the façade with the GIL
//! released (on a worker thread, while this thread watches for Ctrl-C, which cancels it), then
//! builds the Python results: one helper, [`call`], does it for all of them. A `Checkpoints`
//! holds the façade behind a mutex, so one object may be used from several threads (its calls
//! then run one at a time); separate objects on one repository work at once, as separate
//! processes do, through the library's own locking.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use git_checkpoint as gc;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

// The command line, compiled here from the binary's own sources, for the console script.
#[path = "../../src/cli/mod.rs"]
#[allow(dead_code)] // `cli::run` is the binary's; the console script runs `cli::run_with`.
mod cli;
#[path = "../../src/mcp/mod.rs"]
mod mcp;
#[path = "../../src/serve/mod.rs"]
mod serve;

mod errors;
mod json;
mod values;

use errors::CheckpointError;
use values::{
    Checkpoint, CheckpointDiff, CheckpointEvent, DiskUsage, FileDiff, Hunk, Pruned, Restored,
    Reverted, Stats,
};

/// The façade of one `Checkpoints` object, and the events it reported during the call that
/// is running.
pub struct Shared {
    checkpoints: Mutex<Option<gc::Checkpoints>>,
    events: Arc<Mutex<Vec<gc::CheckpointEvent>>>,
}

impl Shared {
    /// Run `f` on the façade (locked for the call), with `cancel` as its cancel flag; return
    /// its result and the events it caused.
    fn run<T>(
        &self,
        cancel: &AtomicBool,
        f: impl FnOnce(&gc::Checkpoints, &gc::Control<'_>) -> gc::Result<T>,
    ) -> (gc::Result<T>, Vec<gc::CheckpointEvent>) {
        let guard = self
            .checkpoints
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let Some(checkpoints) = guard.as_ref() else {
            return (
                Err(gc::Error::InvalidInput(
                    "this Checkpoints object was closed".into(),
                )),
                Vec::new(),
            );
        };
        let ctl = gc::Control::default().with_cancel(cancel);
        let result = f(checkpoints, &ctl);
        let events =
            std::mem::take(&mut *self.events.lock().unwrap_or_else(PoisonError::into_inner));
        (result, events)
    }
}

/// The stack of the worker thread: as deep as a main thread's.
const WORKER_STACK: usize = 8 << 20;

/// Run `f` on the façade with the GIL released, on a worker thread while this one waits and,
/// on the main thread, turns Ctrl-C into a cancel (the library stops at its next check, a
/// restore only between files, and `KeyboardInterrupt` is raised). Errors become exceptions.
fn call_with_events<T: Send>(
    py: Python<'_>,
    shared: &Arc<Shared>,
    f: impl FnOnce(&gc::Checkpoints, &gc::Control<'_>) -> gc::Result<T> + Send,
) -> PyResult<(T, Vec<gc::CheckpointEvent>)> {
    let cancel = AtomicBool::new(false);
    let done = (Mutex::new(false), std::sync::Condvar::new());
    let (result, events) = std::thread::scope(|scope| -> PyResult<_> {
        let done = &done;
        let cancel = &cancel;
        let worker = std::thread::Builder::new()
            .name("git-checkpoint".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, move || {
                let outcome = shared.run(cancel, f);
                *done.0.lock().unwrap_or_else(PoisonError::into_inner) = true;
                done.1.notify_all();
                outcome
            })
            .map_err(|err| CheckpointError::new_err(format!("cannot start a thread: {err}")))?;
        let mut interrupted = None;
        loop {
            let finished = py.detach(|| {
                let guard = done.0.lock().unwrap_or_else(PoisonError::into_inner);
                let (guard, _) = done
                    .1
                    .wait_timeout_while(guard, Duration::from_millis(100), |finished| !*finished)
                    .unwrap_or_else(PoisonError::into_inner);
                *guard
            });
            if finished {
                break;
            }
            if interrupted.is_none()
                && let Err(interrupt) = py.check_signals()
            {
                cancel.store(true, Ordering::Relaxed);
                interrupted = Some(interrupt);
            }
        }
        let joined = py.detach(|| worker.join());
        if let Some(interrupt) = interrupted {
            return Err(interrupt);
        }
        joined.map_err(|_| {
            CheckpointError::new_err("internal error: the operation stopped unexpectedly")
        })
    })?;
    match result {
        Ok(value) => Ok((value, events)),
        Err(err) => Err(errors::to_py(py, err)),
    }
}

/// [`call_with_events`] for calls that report no events.
pub(crate) fn call<T: Send>(
    py: Python<'_>,
    shared: &Arc<Shared>,
    f: impl FnOnce(&gc::Checkpoints, &gc::Control<'_>) -> gc::Result<T> + Send,
) -> PyResult<T> {
    call_with_events(py, shared, f).map(|(value, _)| value)
}

/// A checkpoint named by a `Checkpoint` or a string (any naming rule of the CLI).
fn spec_of(spec: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(checkpoint) = spec.cast::<Checkpoint>() {
        return Ok(checkpoint.get().inner.id.clone());
    }
    if let Ok(text) = spec.cast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    Err(PyTypeError::new_err(format!(
        "a checkpoint is named by a str (id, name, prefix, @, @{{N}}) or a Checkpoint, not a {}",
        spec.get_type().name()?
    )))
}

/// What `save(conversation=...)` keeps: a file (`os.PathLike`, or a `str` naming one), the
/// bytes given, or a JSON value (dict, list, number, bool).
fn conversation_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<gc::ConversationInput> {
    if let Ok(bytes) = value.cast::<pyo3::types::PyBytes>() {
        let bytes = bytes.as_bytes().to_vec();
        if bytes.len() as u64 > gc::CONVERSATION_MAX_BYTES {
            return Err(errors::invalid(
                py,
                format!(
                    "the conversation has {} bytes, more than the {} a conversation may have",
                    bytes.len(),
                    gc::CONVERSATION_MAX_BYTES
                ),
            ));
        }
        return Ok(gc::ConversationInput::from_bytes(bytes, None));
    }
    let is_path = value.cast::<PyString>().is_ok() || value.hasattr("__fspath__").unwrap_or(false);
    if is_path {
        let path: PathBuf = value.extract()?;
        return py
            .detach(move || gc::ConversationInput::from_file(&path))
            .map_err(|err| errors::to_py(py, err));
    }
    let json = json::from_py(value, "conversation", 0)?;
    gc::ConversationInput::from_json(&json).map_err(|err| errors::to_py(py, err))
}

/// The hunk ids of `hunks=`: `None` when not given; a list (or another iterable) of at least
/// one id otherwise. A lone `str` is refused rather than read as a list of characters, and an
/// empty list rather than read as "everything".
fn hunk_ids(py: Python<'_>, hunks: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(hunks) = hunks.filter(|h| !h.is_none()) else {
        return Ok(Vec::new());
    };
    if hunks.cast::<PyString>().is_ok() {
        return Err(PyTypeError::new_err(
            "hunks is a list of hunk ids, not a str: hunks=[\"<id>\"]",
        ));
    }
    let mut ids = Vec::new();
    for item in hunks.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "hunks is a list of hunk ids (str), not a {}",
            hunks
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })? {
        let item = item?;
        let Ok(id) = item.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "a hunk id is a str (as `diff(...).hunks[i].id` gives it), not a {}",
                item.get_type().name()?
            )));
        };
        ids.push(id.to_cow()?.into_owned());
    }
    if ids.is_empty() {
        return Err(errors::invalid(
            py,
            "hunks is empty: give the ids of the hunks to take back, or leave hunks out for all of it",
        ));
    }
    Ok(ids)
}

/// A count given from Python: at least `min`.
fn count(py: Python<'_>, what: &str, n: i64, min: i64) -> PyResult<usize> {
    if n < min {
        return Err(errors::invalid(
            py,
            format!("{what} must be at least {min}, not {n}"),
        ));
    }
    usize::try_from(n).map_err(|_| errors::invalid(py, format!("{what} is too large: {n}")))
}

/// A setting's values as `git -c` takes them: a list gives a multi-valued setting (one
/// `key=value` each, as `git config --add` does).
fn setting_values(value: &Bound<'_, PyAny>, key: &str, nested: bool) -> PyResult<Vec<String>> {
    if let Ok(b) = value.cast::<pyo3::types::PyBool>() {
        return Ok(vec![if b.is_true() { "true" } else { "false" }.into()]);
    }
    if value.cast::<pyo3::types::PyInt>().is_ok() {
        return Ok(vec![value.extract::<i64>()?.to_string()]);
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(vec![s.to_cow()?.into_owned()]);
    }
    if !nested && (value.cast::<PyList>().is_ok() || value.cast::<pyo3::types::PyTuple>().is_ok()) {
        let mut out = Vec::new();
        for item in value.try_iter()? {
            out.extend(setting_values(&item?, key, true)?);
        }
        return Ok(out);
    }
    Err(PyTypeError::new_err(format!(
        "config[{key:?}]: a setting is a str, int, bool or a list of them, not a {}",
        value.get_type().name()?
    )))
}

/// The checkpoints of the git repository (or plain directory) containing `path`.
///
/// A plain directory (in no git repository) gets a private store on first use, as with the
/// CLI. Every call runs with the GIL released; one object may be shared between threads.
#[pyclass(frozen, module = "git_checkpoint")]
struct Checkpoints {
    shared: Arc<Shared>,
    callbacks: Mutex<Vec<Py<PyAny>>>,
    path: PathBuf,
    store: Option<PathBuf>,
}

impl Checkpoints {
    /// [`call_with_events`], then the events to the callbacks (with no lock held, so a
    /// callback may use this object).
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&gc::Checkpoints, &gc::Control<'_>) -> gc::Result<T> + Send,
    ) -> PyResult<T> {
        let (value, events) = call_with_events(py, &self.shared, f)?;
        if !events.is_empty() {
            self.dispatch(py, events)?;
        }
        Ok(value)
    }

    fn dispatch(&self, py: Python<'_>, events: Vec<gc::CheckpointEvent>) -> PyResult<()> {
        let callbacks: Vec<Py<PyAny>> = self
            .callbacks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .map(|c| c.clone_ref(py))
            .collect();
        if callbacks.is_empty() {
            return Ok(());
        }
        for event in events {
            let Some(event) = CheckpointEvent::new(py, event, &self.shared)? else {
                continue;
            };
            let event = Py::new(py, event)?;
            for callback in &callbacks {
                // A failing callback must not undo what was done: reported as Python
                // reports an exception it cannot raise.
                if let Err(err) = callback.call1(py, (event.clone_ref(py),)) {
                    err.write_unraisable(py, Some(callback.bind(py)));
                }
            }
        }
        Ok(())
    }

    fn checkpoint(&self, py: Python<'_>, c: gc::Checkpoint) -> PyResult<Py<Checkpoint>> {
        Py::new(py, Checkpoint::new(c, Some(self.shared.clone())))
    }
}

#[pymethods]
impl Checkpoints {
    /// Open the checkpoints of `path` (default: the current directory). `store` names a
    /// private store to use (a git directory, made when missing), as the CLI's `--store`.
    /// `config` gives settings for this object only, as `git -c key=value` does, e.g.
    /// `{"checkpoint.keep": 20}`.
    #[new]
    #[pyo3(signature = (path = None, *, store = None, config = None))]
    fn new(
        py: Python<'_>,
        path: Option<PathBuf>,
        store: Option<PathBuf>,
        config: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Checkpoints> {
        let path = path.unwrap_or_else(|| PathBuf::from("."));
        let path = std::path::absolute(&path).unwrap_or(path);
        check_directory(py, &path)?;
        let mut options = gc::OpenOptions::default();
        if let Some(store) = &store {
            options.store = Some(std::path::absolute(store).unwrap_or_else(|_| store.clone()));
        }
        if let Some(config) = config {
            let items = config.call_method0("items").map_err(|_| {
                PyTypeError::new_err("config must be a dict of setting names to values")
            })?;
            for item in items.try_iter()? {
                let (key, value): (String, Bound<'_, PyAny>) = item?.extract()?;
                for value in setting_values(&value, &key, false)? {
                    options.config.push(format!("{key}={value}"));
                }
            }
        }
        let events: Arc<Mutex<Vec<gc::CheckpointEvent>>> = Arc::default();
        let sink = events.clone();
        let dir = path.clone();
        let opened = py.detach(move || gc::Checkpoints::open_with(&dir, &options));
        let checkpoints = opened.map_err(|err| errors::to_py(py, err))?.with_observer(
            move |event: &gc::CheckpointEvent| {
                sink.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(event.clone());
            },
        );
        let store = checkpoints.store().map(Path::to_path_buf);
        Ok(Checkpoints {
            shared: Arc::new(Shared {
                checkpoints: Mutex::new(Some(checkpoints)),
                events,
            }),
            callbacks: Mutex::new(Vec::new()),
            path,
            store,
        })
    }

    /// The directory given (absolute).
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// A plain directory's private store (a git directory); `None` in a git repository.
    #[getter]
    fn store(&self) -> Option<PathBuf> {
        self.store.clone()
    }

    /// Snapshot the working tree as a checkpoint and return it (the newest one, unchanged,
    /// when nothing changed since it and nothing new is asked to be recorded). Never touches
    /// the index, `HEAD` or a branch. `session` tags it as one of an agent session's saves
    /// (`list(session=...)`, `revert("session:<ID>")`).
    //
    // `text_signature` spells the defaults out: PyO3 renders a default that is not a literal
    // (`"manual".to_string()`, needed for a `String`) as `...` in `help()` and `inspect`.
    #[pyo3(
        signature = (message = None, *, name = None, kind = "manual".to_string(), meta = None, pin = false, conversation = None, session = None),
        text_signature = "($self, message=None, *, name=None, kind='manual', meta=None, pin=False, conversation=None, session=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn save(
        &self,
        py: Python<'_>,
        message: Option<String>,
        name: Option<String>,
        kind: String,
        meta: Option<Bound<'_, PyAny>>,
        pin: bool,
        conversation: Option<Bound<'_, PyAny>>,
        session: Option<String>,
    ) -> PyResult<Py<Checkpoint>> {
        let conversation = conversation
            .filter(|c| !c.is_none())
            .map(|c| conversation_of(py, &c))
            .transpose()?;
        let meta = match meta.filter(|m| !m.is_none()) {
            Some(meta) => json::dict_from_py(&meta, "meta", 0)?,
            None => serde_json::Map::new(),
        };
        let options = gc::SaveOptions {
            message,
            name,
            kind: Some(kind),
            meta,
            pin,
            conversation,
            session,
            ..Default::default()
        };
        let (saved, completed) = self.run(py, move |c, ctl| {
            c.save(&options, ctl).map(|o| {
                let completed = o.interrupted_restore.as_ref().map(gc::Completed::describe);
                (o.checkpoint().clone(), completed)
            })
        })?;
        // A restore killed part-way was completed first (the working tree changed): said as
        // the CLI says it, as a warning.
        if let Some(line) = completed {
            let line = std::ffi::CString::new(line.replace('\0', " ")).unwrap_or_default();
            PyErr::warn(
                py,
                &py.get_type::<pyo3::exceptions::PyUserWarning>(),
                &line,
                1,
            )?;
        }
        self.checkpoint(py, saved)
    }

    /// This worktree's checkpoints (and fetched ones), newest first; or one session's.
    #[pyo3(signature = (*, kind = None, session = None, limit = None))]
    fn list(
        &self,
        py: Python<'_>,
        kind: Option<String>,
        session: Option<String>,
        limit: Option<i64>,
    ) -> PyResult<Vec<Py<Checkpoint>>> {
        let options = gc::ListOptions {
            kind,
            session,
            limit: limit.map(|n| count(py, "limit", n, 0)).transpose()?,
            ..Default::default()
        };
        let found = self.run(py, move |c, _| {
            let loaded = c.load()?;
            Ok(c.listed(&loaded, &options)?
                .into_iter()
                .cloned()
                .collect::<Vec<_>>())
        })?;
        found.into_iter().map(|c| self.checkpoint(py, c)).collect()
    }

    /// The checkpoint `spec` names: an id, a unique prefix, a name, `@`, `@{N}`, or a
    /// `Checkpoint`. Raises `CheckpointNotFound` when there is none.
    fn get(&self, py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<Py<Checkpoint>> {
        let spec = spec_of(spec)?;
        let found = self.run(py, move |c, _| c.find(&spec))?;
        self.checkpoint(py, found)
    }

    /// What differs from checkpoint `a` to checkpoint `b`, or to the working tree now when
    /// `b` is `None` (nothing is written to the repository for it).
    #[pyo3(signature = (a, b = None))]
    fn diff(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<CheckpointDiff> {
        let a = spec_of(a)?;
        let b = b.filter(|b| !b.is_none()).map(spec_of).transpose()?;
        self.run(py, move |c, ctl| {
            let loaded = c.load()?;
            let from = c.resolve(&loaded, &a)?;
            let to = b.as_deref().map(|b| c.resolve(&loaded, b)).transpose()?;
            let options = gc::DiffOptions {
                renames: c.renames(None, false),
                ..Default::default()
            };
            let side = to.map_or(gc::Side::WorkingTree, gc::Side::Checkpoint);
            let diff = c.diff(gc::Side::Checkpoint(from), side, &[], options, ctl)?;
            Ok(CheckpointDiff::new(
                from.id.clone(),
                to.map(|t| t.id.clone()),
                &diff,
            ))
        })
    }

    /// Make the working tree (or only `paths` of it, relative to `path`) what checkpoint
    /// `spec` holds, after saving the state before as a safety checkpoint: undoable. With
    /// `hunks` (ids from `diff(spec).hunks`), only those hunks of the difference between the
    /// checkpoint and the working tree are taken back; every other change stays.
    #[pyo3(signature = (spec, *, paths = None, dry_run = false, hunks = None))]
    fn restore(
        &self,
        py: Python<'_>,
        spec: &Bound<'_, PyAny>,
        paths: Option<Vec<PathBuf>>,
        dry_run: bool,
        hunks: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Restored> {
        let spec = spec_of(spec)?;
        let hunks = hunk_ids(py, hunks)?;
        let dir = self.path.clone();
        let restored = self.run(py, move |c, ctl| {
            let target = c.find(&spec)?;
            let options = gc::RestoreOptions {
                paths: c.paths_from(&dir, &paths.unwrap_or_default())?,
                dry_run,
                hunks,
                ..Default::default()
            };
            c.restore(&target, &options, ctl)
        })?;
        Restored::new(py, &restored, &self.shared)
    }

    /// Take back the last thing that happened to the working tree, `n` times.
    #[pyo3(signature = (n = 1))]
    fn undo(&self, py: Python<'_>, n: i64) -> PyResult<Restored> {
        self.step(py, n, gc::Checkpoints::undo)
    }

    /// Take back the last `n` undos, while nothing changed since.
    #[pyo3(signature = (n = 1))]
    fn redo(&self, py: Python<'_>, n: i64) -> PyResult<Restored> {
        self.step(py, n, gc::Checkpoints::redo)
    }

    /// Take back the change from checkpoint `a` to `b` (default: the checkpoint after `a`),
    /// keeping everything changed since. `a` may be `session:<ID>`: that session's own steps;
    /// or, instead of `a`, `agent`: the own steps of every session of that agent. With
    /// `hunks` (ids from `diff(a, b).hunks`), only those hunks of one step.
    #[pyo3(signature = (a = None, b = None, *, hunks = None, agent = None))]
    fn revert(
        &self,
        py: Python<'_>,
        a: Option<&Bound<'_, PyAny>>,
        b: Option<&Bound<'_, PyAny>>,
        hunks: Option<&Bound<'_, PyAny>>,
        agent: Option<String>,
    ) -> PyResult<Reverted> {
        let a = a.filter(|a| !a.is_none()).map(spec_of).transpose()?;
        let b = b.filter(|b| !b.is_none()).map(spec_of).transpose()?;
        let options = gc::RevertOptions {
            hunks: hunk_ids(py, hunks)?,
            ..Default::default()
        };
        let what = match (a, b, agent) {
            (Some(a), b, None) => Reverting::Range(a, b),
            (None, None, Some(agent)) => Reverting::Agent(agent),
            (Some(_), _, Some(_)) | (None, Some(_), Some(_)) => {
                return Err(errors::invalid(
                    py,
                    "revert takes the change from a checkpoint (a, b) or an agent's steps (agent=), not both",
                ));
            }
            (None, _, None) => {
                return Err(errors::invalid(
                    py,
                    "revert takes a checkpoint (a, or \"session:<ID>\" for a session's steps) or agent=\"<NAME>\"",
                ));
            }
        };
        let reverted = self.run(py, move |c, ctl| {
            let loaded = c.load()?;
            let span = match &what {
                Reverting::Range(a, b) => c.revert_range(&loaded, a, b.as_deref())?,
                Reverting::Agent(agent) => c.revert_agent(&loaded, agent)?,
            };
            c.revert(&span, &options, ctl)
        })?;
        Reverted::new(py, &reverted, &self.shared)
    }

    /// Delete checkpoint `spec`; returns its id.
    fn drop(&self, py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<String> {
        let spec = spec_of(spec)?;
        let dropped = self.run(py, move |c, ctl| c.drop_checkpoints(&[spec.as_str()], ctl))?;
        Ok(dropped.into_iter().next().map(|d| d.id).unwrap_or_default())
    }

    /// Pin checkpoint `spec`: never pruned. Returns it.
    fn pin(&self, py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<Py<Checkpoint>> {
        self.set_pinned(py, spec, true)
    }

    /// Unpin checkpoint `spec`. Returns it.
    fn unpin(&self, py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<Py<Checkpoint>> {
        self.set_pinned(py, spec, false)
    }

    /// Apply retention now: keep at most `keep` checkpoints, remove those older than
    /// `older_than` (a `timedelta`, or a duration such as "30d"). Pinned ones always stay.
    #[pyo3(signature = (*, keep = None, older_than = None, dry_run = false))]
    fn prune(
        &self,
        py: Python<'_>,
        keep: Option<i64>,
        older_than: Option<Bound<'_, PyAny>>,
        dry_run: bool,
    ) -> PyResult<Pruned> {
        let options = gc::PruneOptions {
            keep: keep.map(|n| count(py, "keep", n, 0)).transpose()?,
            older_than: older_than
                .filter(|o| !o.is_none())
                .map(|o| duration(py, &o))
                .transpose()?,
            dry_run,
            ..Default::default()
        };
        let pruned = self.run(py, move |c, ctl| c.prune(&options, ctl))?;
        Pruned::new(py, &pruned, dry_run)
    }

    /// What the checkpoints cost on disk.
    fn du(&self, py: Python<'_>) -> PyResult<DiskUsage> {
        let usage = self.run(py, |c, ctl| c.du(ctl))?;
        Ok(DiskUsage::new(&usage))
    }

    /// Call `callback(event)` after each event (saved, restored, pruned, dropped, pinned) of
    /// this object's calls, on the thread that made the call. Returns `callback`, so it can
    /// be used as a decorator.
    fn on_event(&self, py: Python<'_>, callback: Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if !callback.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "on_event takes a callable, not a {}",
                callback.get_type().name()?
            )));
        }
        let callback = callback.unbind();
        self.callbacks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(callback.clone_ref(py));
        Ok(callback)
    }

    /// Release the repository; any later call raises `CheckpointError`.
    fn close(&self, py: Python<'_>) {
        let shared = self.shared.clone();
        let taken = py.detach(move || {
            shared
                .checkpoints
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
        });
        drop(taken);
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) {
        self.close(py);
    }

    fn __repr__(&self) -> String {
        match &self.store {
            Some(store) => format!(
                "Checkpoints({:?}, store={:?})",
                self.path.display().to_string(),
                store.display().to_string()
            ),
            None => format!("Checkpoints({:?})", self.path.display().to_string()),
        }
    }
}

/// What `revert` was asked to take back.
enum Reverting {
    /// From checkpoint `a` to `b` (or the step after `a`; or a session's own steps).
    Range(String, Option<String>),
    /// Every own step of this agent's sessions.
    Agent(String),
}

/// `Checkpoints::undo` or `Checkpoints::redo`.
type Step =
    fn(&gc::Checkpoints, usize, &gc::RestoreOptions, &gc::Control<'_>) -> gc::Result<gc::Restored>;

impl Checkpoints {
    /// `undo(n)` or `redo(n)`: `n` steps, at least one.
    fn step(&self, py: Python<'_>, n: i64, step: Step) -> PyResult<Restored> {
        let n = count(py, "n", n, 1)?;
        let restored = self.run(py, move |c, ctl| {
            step(c, n, &gc::RestoreOptions::default(), ctl)
        })?;
        Restored::new(py, &restored, &self.shared)
    }

    fn set_pinned(
        &self,
        py: Python<'_>,
        spec: &Bound<'_, PyAny>,
        pinned: bool,
    ) -> PyResult<Py<Checkpoint>> {
        let spec = spec_of(spec)?;
        let updated = self.run(py, move |c, ctl| {
            let target = c.find(&spec)?;
            c.set_pinned(&target, pinned, ctl)?;
            c.find(&target.id)
        })?;
        self.checkpoint(py, updated)
    }
}

/// A `timedelta`, or a duration as the CLI takes it ("90m", "30d").
fn duration(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<chrono::Duration> {
    if let Ok(text) = value.cast::<PyString>() {
        return gc::parse_duration(&text.to_cow()?).map_err(|message| errors::invalid(py, message));
    }
    value.extract::<chrono::Duration>().map_err(|_| {
        PyTypeError::new_err("older_than is a datetime.timedelta or a str such as \"30d\"")
    })
}

/// Refuse a path that is not a directory, before opening anything.
fn check_directory(py: Python<'_>, path: &Path) -> PyResult<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(errors::invalid(
            py,
            format!("`{}` is a file, not a directory", path.display()),
        )),
        Err(source) => Err(errors::to_py(
            py,
            gc::Error::Io {
                context: format!("cannot open `{}`", path.display()),
                source,
            },
        )),
    }
}

/// Run the `git-checkpoint` command line in this process (`argv`: its arguments, without the
/// program's name; default `sys.argv[1:]`) and return its exit code: 0 success, 1 error,
/// 2 usage error. Output goes to the process's standard output and error.
#[pyfunction]
#[pyo3(signature = (argv = None))]
fn main(py: Python<'_>, argv: Option<Vec<std::ffi::OsString>>) -> PyResult<u8> {
    let sys = py.import("sys")?;
    let sys_argv: Vec<std::ffi::OsString> = sys.getattr("argv")?.extract().unwrap_or_default();
    let program = sys_argv
        .first()
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .map(|p| std::path::absolute(&p).unwrap_or(p));
    let rest = match argv {
        Some(argv) => argv,
        None => sys_argv.iter().skip(1).cloned().collect(),
    };
    let mut args = vec![std::ffi::OsString::from("git-checkpoint")];
    args.extend(rest);
    // What Python buffered must come out before what the command line writes.
    for stream in ["stdout", "stderr"] {
        if let Ok(stream) = sys.getattr(stream) {
            let _ = stream.call_method0("flush");
        }
    }
    Ok(py.detach(move || cli::run_with(program, args)))
}

/// The extension module.
#[pymodule(gil_used = false)]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<Checkpoints>()?;
    module.add_class::<Checkpoint>()?;
    module.add_class::<Stats>()?;
    module.add_class::<FileDiff>()?;
    module.add_class::<CheckpointDiff>()?;
    module.add_class::<Hunk>()?;
    module.add_class::<Restored>()?;
    module.add_class::<Reverted>()?;
    module.add_class::<Pruned>()?;
    module.add_class::<DiskUsage>()?;
    module.add_class::<CheckpointEvent>()?;
    module.add_function(wrap_pyfunction!(main, module)?)?;
    errors::register(module)?;
    Ok(())
}
