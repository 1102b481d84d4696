//! The one place git-checkpoint runs the `git` binary.
//!
//! gix writes objects but never packs or collects them: it has no `gc`. Saves accumulate loose
//! objects, and dropped checkpoints leave unreachable ones, so git's own `git gc --auto` is
//! started now and then, in the background, quietly, never making a save wait for it.

use std::path::Path;
use std::process::{Command, Stdio};

/// git's default for `gc.auto`.
const DEFAULT_GC_AUTO: u64 = 6700;

/// Whether there are enough loose objects that `git gc --auto` would do something, estimated
/// the way git does: by counting the files in `objects/17`.
pub fn gc_looks_needed(repo: &gix::Repository) -> bool {
    let limit = repo
        .config_snapshot()
        .integer("gc.auto")
        .map_or(DEFAULT_GC_AUTO, |n| n.max(0) as u64);
    if limit == 0 {
        return false;
    }
    let dir = repo.objects.store_ref().path().join("17");
    let count = std::fs::read_dir(dir).map_or(0, |entries| entries.count() as u64);
    count > limit.div_ceil(256)
}

/// Start `git gc --auto --quiet` in the background when it looks needed. Failures are ignored:
/// this is housekeeping, never a reason for a save to fail.
pub fn maybe_gc_in_background(repo: &gix::Repository) {
    if !gc_looks_needed(repo) {
        return;
    }
    let Some(workdir) = repo.workdir() else {
        return;
    };
    spawn_gc(workdir);
}

fn spawn_gc(workdir: &Path) {
    let _ = Command::new("git")
        .args(["gc", "--auto", "--quiet"])
        .current_dir(workdir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
}
