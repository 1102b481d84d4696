//! Progress of long operations (hashing a first save of many files, a large restore).
//!
//! The library never prints: a program that wants progress installs a hook once with
//! [`set_hook`]; the CLI prints to stderr when it is a terminal. Reports come every
//! [`STEP`] items, and only for operations of at least [`MIN_TOTAL`] items.

use std::sync::OnceLock;

/// A progress hook: what is being done, how many items are done, out of how many.
pub type Hook = fn(&str, usize, usize);

static HOOK: OnceLock<Hook> = OnceLock::new();

/// Operations smaller than this report nothing.
pub const MIN_TOTAL: usize = 2000;
/// Items between two reports.
pub const STEP: usize = 500;

/// Install the progress hook (once per process; later calls are ignored).
pub fn set_hook(hook: Hook) {
    let _ = HOOK.set(hook);
}

/// Report that `done` of `total` items of `what` are done, if it is time to.
pub(crate) fn report(what: &str, done: usize, total: usize) {
    if total < MIN_TOTAL || (!done.is_multiple_of(STEP) && done != total) {
        return;
    }
    if let Some(hook) = HOOK.get() {
        hook(what, done, total);
    }
}
