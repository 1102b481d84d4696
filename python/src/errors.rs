//! The exceptions: `CheckpointError` and its subclasses, and the one conversion from the
//! library's [`Error`] to them. Every message is the library's own, the one the CLI prints.

use git_checkpoint::Error;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

pyo3::create_exception!(
    git_checkpoint,
    CheckpointError,
    PyException,
    "Base class of every error git-checkpoint raises; `str(err)` is the CLI's message."
);
pyo3::create_exception!(
    git_checkpoint,
    CheckpointNotFound,
    CheckpointError,
    "No checkpoint answers to that name, id, prefix or position (or it was pruned)."
);
pyo3::create_exception!(
    git_checkpoint,
    AmbiguousCheckpoint,
    CheckpointNotFound,
    "A prefix or name that could be several checkpoints; `candidates` lists them."
);
pyo3::create_exception!(
    git_checkpoint,
    CheckpointConflict,
    CheckpointError,
    "Refused because files stand in the way or changes overlap; `paths` names them."
);
pyo3::create_exception!(
    git_checkpoint,
    CheckpointLocked,
    CheckpointError,
    "Another process holds the lock, or another restore is running in this worktree."
);
pyo3::create_exception!(
    git_checkpoint,
    NothingToUndo,
    CheckpointError,
    "`undo` found nothing (more) to take back."
);
pyo3::create_exception!(
    git_checkpoint,
    NothingToRedo,
    CheckpointError,
    "`redo` found no undo to take back."
);

/// `InvalidArgument(CheckpointError, ValueError)` and `CheckpointOSError(CheckpointError,
/// OSError)`: two bases each, which `create_exception!` cannot make, so made by `type()` once.
static INVALID_ARGUMENT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static OS_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn two_bases<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyType>>,
    name: &str,
    other: Bound<'py, PyType>,
    doc: &str,
) -> PyResult<Bound<'py, PyType>> {
    let made = cell.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let bases = PyTuple::new(py, [py.get_type::<CheckpointError>(), other])?;
        let namespace = PyDict::new(py);
        namespace.set_item("__doc__", doc)?;
        namespace.set_item("__module__", "git_checkpoint")?;
        let made = py
            .get_type::<PyType>()
            .call1((name, bases, namespace))?
            .cast_into::<PyType>()?;
        Ok(made.unbind())
    })?;
    Ok(made.bind(py).clone())
}

/// The class `InvalidArgument`.
pub fn invalid_argument(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
    two_bases(
        py,
        &INVALID_ARGUMENT,
        "InvalidArgument",
        py.get_type::<PyValueError>(),
        "A value the library refuses: a bad kind, a path outside the tree, a bad setting.",
    )
}

/// An `InvalidArgument` error saying `message`.
pub fn invalid(py: Python<'_>, message: impl Into<String>) -> PyErr {
    match invalid_argument(py) {
        Ok(class) => PyErr::from_type(class, message.into()),
        Err(err) => err,
    }
}

/// The class `CheckpointOSError`.
pub fn os_error(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
    two_bases(
        py,
        &OS_ERROR,
        "CheckpointOSError",
        py.get_type::<PyOSError>(),
        "A file or directory could not be read or written (`errno` set where known).",
    )
}

/// An exception of class `class` with `message`, and attributes `attrs`.
fn raise_as(
    class: Bound<'_, PyType>,
    args: Bound<'_, PyTuple>,
    attrs: &[(&str, Vec<String>)],
) -> PyErr {
    match class.call1(args) {
        Ok(value) => {
            for (name, list) in attrs {
                if let Err(err) = value.setattr(*name, list.clone()) {
                    return err;
                }
            }
            PyErr::from_value(value)
        }
        Err(err) => err,
    }
}

/// The exception for `err`.
pub fn to_py(py: Python<'_>, err: Error) -> PyErr {
    // The library's own message, the one the CLI prints after `error:`.
    let text = err.to_string();
    let plain = |class: Bound<'_, PyType>| match PyTuple::new(py, [text.clone()]) {
        Ok(args) => raise_as(class, args, &[]),
        Err(err) => err,
    };
    match &err {
        Error::UnknownCheckpoint(_)
        | Error::Removed(_)
        | Error::PositionOutOfRange { .. }
        | Error::NoCheckpoints
        | Error::NoOwnCheckpoints(_)
        | Error::NoStore(_) => plain(py.get_type::<CheckpointNotFound>()),
        Error::AmbiguousCheckpoint { candidates, .. } => match PyTuple::new(py, [text.clone()]) {
            Ok(args) => raise_as(
                py.get_type::<AmbiguousCheckpoint>(),
                args,
                &[("candidates", candidates.clone())],
            ),
            Err(err) => err,
        },
        Error::InTheWay { .. }
        | Error::NestedRepositoryInTheWay { .. }
        | Error::RevertConflicts { .. }
        | Error::HunkDoesNotApply { .. }
        | Error::UnsafeTree { .. }
        | Error::SecretsFound(_)
        | Error::OperationInProgress(_) => {
            let paths = conflict_paths(&err);
            match PyTuple::new(py, [text.clone()]) {
                Ok(args) => raise_as(
                    py.get_type::<CheckpointConflict>(),
                    args,
                    &[("paths", paths)],
                ),
                Err(err) => err,
            }
        }
        Error::Locked(_) | Error::RestoreInProgress | Error::Contention(_) => {
            plain(py.get_type::<CheckpointLocked>())
        }
        Error::NothingToUndo(_) => plain(py.get_type::<NothingToUndo>()),
        Error::NothingToRedo => plain(py.get_type::<NothingToRedo>()),
        Error::InvalidInput(_)
        | Error::UnknownHunk { .. }
        | Error::Config { .. }
        | Error::PathMatchesNothing { .. }
        | Error::RefusedDirectory { .. }
        | Error::Unsupported(_)
        | Error::NotARepository(_)
        | Error::BareRepository
        | Error::NoWorkingTree(_) => match invalid_argument(py) {
            Ok(class) => plain(class),
            Err(err) => err,
        },
        Error::Io { source, .. } | Error::UnreadableFile { source, .. } => {
            let errno = source.raw_os_error();
            match (os_error(py), PyTuple::new(py, [text.clone()])) {
                (Ok(class), Ok(args)) => {
                    let err = raise_as(class, args, &[]);
                    if let Some(errno) = errno {
                        let _ = err.value(py).setattr("errno", errno);
                    }
                    err
                }
                (Err(err), _) | (_, Err(err)) => err,
            }
        }
        Error::Cancelled => PyKeyboardInterrupt::new_err(text),
        _ => plain(py.get_type::<CheckpointError>()),
    }
}

/// The paths a refusal names, for the exception's `paths`.
fn conflict_paths(err: &Error) -> Vec<String> {
    match err {
        Error::RevertConflicts { paths, .. } => paths.clone(),
        Error::HunkDoesNotApply { path, .. } => vec![path.clone()],
        Error::InTheWay {
            ignored, too_large, ..
        } => ignored.iter().chain(too_large).cloned().collect(),
        Error::NestedRepositoryInTheWay { path, .. } | Error::UnsafeTree { path, .. } => {
            vec![path.clone()]
        }
        Error::SecretsFound(note) => note.paths().into_iter().map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

/// Add the exception classes to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("CheckpointError", py.get_type::<CheckpointError>())?;
    module.add("CheckpointNotFound", py.get_type::<CheckpointNotFound>())?;
    module.add("AmbiguousCheckpoint", py.get_type::<AmbiguousCheckpoint>())?;
    module.add("CheckpointConflict", py.get_type::<CheckpointConflict>())?;
    module.add("CheckpointLocked", py.get_type::<CheckpointLocked>())?;
    module.add("NothingToUndo", py.get_type::<NothingToUndo>())?;
    module.add("NothingToRedo", py.get_type::<NothingToRedo>())?;
    module.add("InvalidArgument", invalid_argument(py)?)?;
    module.add("CheckpointOSError", os_error(py)?)?;
    Ok(())
}
