//! Progress of long operations (hashing a first save of many files, a large restore).
//!
//! The library never prints: a program that wants progress installs a hook once with
//! [`set_hook`]; the CLI prints to stderr when it is a terminal. Reports come every
//! [`STEP`] items, and only for operations of at least [`MIN_TOTAL`] items.

use std::sync::OnceLock;
use std::time::Duration;

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

/// An operation without steps of its own shows a line only when it takes longer than this.
pub const DELAY: Duration = Duration::from_millis(400);

/// Run `work`, an operation over `total` items that reports no steps; when it takes longer
/// than [`DELAY`] (and is large enough to report at all), say so at that moment, and that it
/// is done at the end.
pub(crate) fn during<T>(what: &str, total: usize, work: impl FnOnce() -> T) -> T {
    if total < MIN_TOTAL || HOOK.get().is_none() {
        return work();
    }
    let (done, wait) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let watcher = scope.spawn(move || {
            // The sender is dropped when the work ends: a timeout means it is still going.
            let slow = matches!(
                wait.recv_timeout(DELAY),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout)
            );
            if slow {
                report(what, 0, total);
            }
            slow
        });
        let out = work();
        drop(done);
        if watcher.join().unwrap_or(false) {
            report(what, total, total);
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    static SEEN: Mutex<Vec<(String, usize, usize)>> = Mutex::new(Vec::new());

    fn record(what: &str, done: usize, total: usize) {
        if let Ok(mut seen) = SEEN.lock() {
            seen.push((what.to_string(), done, total));
        }
    }

    fn seen(what: &str) -> Vec<(usize, usize)> {
        SEEN.lock()
            .map(|s| {
                s.iter()
                    .filter(|(w, _, _)| w == what)
                    .map(|(_, d, t)| (*d, *t))
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn slow_operations_say_so_once_they_are_slow_and_quick_ones_say_nothing() {
        set_hook(record);
        assert_eq!(during("quick work", 5000, || 7), 7);
        assert_eq!(seen("quick work"), []);
        during("slow work", 5000, || std::thread::sleep(DELAY * 2));
        assert_eq!(seen("slow work"), [(0, 5000), (5000, 5000)]);
        during("small work", 10, || std::thread::sleep(DELAY * 2));
        assert_eq!(seen("small work"), []);
        for done in 1..=1000 {
            report("counted work", done, 1000);
        }
        assert_eq!(seen("counted work"), [], "below MIN_TOTAL");
        for done in 1..=2100 {
            report("counted big work", done, 2100);
        }
        assert_eq!(
            seen("counted big work"),
            [
                (500, 2100),
                (1000, 2100),
                (1500, 2100),
                (2000, 2100),
                (2100, 2100)
            ]
        );
    }
}
