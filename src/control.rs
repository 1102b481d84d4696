//! Progress and cancellation of one operation.
//!
//! The library never prints: every operation of [`Checkpoints`](crate::Checkpoints) takes a
//! [`Control`], through which it reports progress (the CLI prints it on a terminal; the HTTP
//! server could stream it) and learns that it should stop. Reports come every [`STEP`] items,
//! and only for operations of at least [`MIN_TOTAL`] items.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::error::{Error, Result};

/// Operations smaller than this report nothing.
pub const MIN_TOTAL: usize = 2000;
/// Items between two reports.
pub const STEP: usize = 500;
/// An operation without steps of its own reports only when it takes longer than this.
pub const DELAY: Duration = Duration::from_millis(400);

/// One progress report: what is being done, how many items are done, out of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress<'a> {
    /// What is being done, e.g. `hashing untracked files`.
    pub what: &'a str,
    /// Items done.
    pub done: usize,
    /// Items in all.
    pub total: usize,
}

/// The progress sink and cancel flag of one operation. `Control::default()` has neither.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use git_checkpoint::{Control, Progress};
///
/// let cancel = AtomicBool::new(false);
/// let print = |p: &Progress<'_>| eprintln!("{}: {}/{}", p.what, p.done, p.total);
/// let control = Control::default().with_progress(&print).with_cancel(&cancel);
/// assert!(!control.is_cancelled());
/// ```
#[derive(Clone, Copy, Default)]
pub struct Control<'a> {
    progress: Option<&'a (dyn Fn(&Progress<'_>) + Sync)>,
    cancel: Option<&'a AtomicBool>,
}

impl std::fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("progress", &self.progress.is_some())
            .field("cancel", &self.cancel)
            .finish()
    }
}

static NEVER: AtomicBool = AtomicBool::new(false);

impl<'a> Control<'a> {
    /// Report progress to `sink`.
    pub fn with_progress(mut self, sink: &'a (dyn Fn(&Progress<'_>) + Sync)) -> Self {
        self.progress = Some(sink);
        self
    }

    /// Stop as soon as it is safe once `flag` is set: the operation then fails with
    /// [`Error::Cancelled`] and changes nothing (a restore cancelled while writing puts the
    /// working tree back as it was).
    pub fn with_cancel(mut self, flag: &'a AtomicBool) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Whether the operation was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// `Err(Error::Cancelled)` once the operation was asked to stop.
    pub(crate) fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }

    /// The cancel flag, for gix calls that take one.
    pub(crate) fn flag(&self) -> &'a AtomicBool {
        self.cancel.unwrap_or(&NEVER)
    }

    /// Report that `done` of `total` items of `what` are done, if it is time to.
    pub(crate) fn report(&self, what: &str, done: usize, total: usize) {
        if total < MIN_TOTAL || (!done.is_multiple_of(STEP) && done != total) {
            return;
        }
        if let Some(sink) = self.progress {
            sink(&Progress { what, done, total });
        }
    }

    /// Run `work`, an operation over `total` items that reports no steps; when it takes longer
    /// than [`DELAY`] (and is large enough to report at all), say so at that moment, and that
    /// it is done at the end.
    pub(crate) fn during<T>(&self, what: &str, total: usize, work: impl FnOnce() -> T) -> T {
        if total < MIN_TOTAL || self.progress.is_none() {
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
                    self.report(what, 0, total);
                }
                slow
            });
            let out = work();
            drop(done);
            if watcher.join().unwrap_or(false) {
                self.report(what, total, total);
            }
            out
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn slow_operations_say_so_once_they_are_slow_and_quick_ones_say_nothing() {
        let seen: Mutex<Vec<(String, usize, usize)>> = Mutex::new(Vec::new());
        let record = |p: &Progress<'_>| {
            if let Ok(mut seen) = seen.lock() {
                seen.push((p.what.to_string(), p.done, p.total));
            }
        };
        let control = Control::default().with_progress(&record);
        let of = |what: &str| -> Vec<(usize, usize)> {
            seen.lock()
                .map(|s| {
                    s.iter()
                        .filter(|(w, _, _)| w == what)
                        .map(|(_, d, t)| (*d, *t))
                        .collect()
                })
                .unwrap_or_default()
        };
        assert_eq!(control.during("quick work", 5000, || 7), 7);
        assert_eq!(of("quick work"), []);
        control.during("slow work", 5000, || std::thread::sleep(DELAY * 2));
        assert_eq!(of("slow work"), [(0, 5000), (5000, 5000)]);
        control.during("small work", 10, || std::thread::sleep(DELAY * 2));
        assert_eq!(of("small work"), []);
        for done in 1..=1000 {
            control.report("counted work", done, 1000);
        }
        assert_eq!(of("counted work"), [], "below MIN_TOTAL");
        for done in 1..=2100 {
            control.report("counted big work", done, 2100);
        }
        assert_eq!(
            of("counted big work"),
            [
                (500, 2100),
                (1000, 2100),
                (1500, 2100),
                (2000, 2100),
                (2100, 2100)
            ]
        );
    }

    #[test]
    fn a_cancel_flag_is_seen() {
        let flag = AtomicBool::new(false);
        let control = Control::default().with_cancel(&flag);
        assert!(control.check().is_ok());
        flag.store(true, Ordering::Relaxed);
        assert!(matches!(control.check(), Err(Error::Cancelled)));
        assert!(Control::default().check().is_ok());
    }
}
