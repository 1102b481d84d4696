//! Notices on stderr that several commands give: what a save left out, what retention did, an
//! interrupted restore found or completed, what a restore left in place.

use git_checkpoint::format::Skipped;
use git_checkpoint::{Checkpoints, Completed, Housekeeping, Restored};

use super::output::Ui;
use super::render::{count, human_size};

/// Warn about each path a save left out.
pub fn warn_skipped<'a>(ui: &Ui, skipped: impl IntoIterator<Item = &'a Skipped>) {
    for skipped in skipped {
        match skipped.size {
            Some(size) => ui.warn(&format!(
                "left out `{}`: {} is larger than checkpoint.maxFileSize",
                skipped.path,
                human_size(size)
            )),
            None => ui.warn(&format!(
                "left out `{}`: an embedded repository without any commit",
                skipped.path
            )),
        }
    }
}

/// What a new checkpoint's secret scan found: where, never what.
pub fn warn_secrets(ui: &Ui, checkpoint: &git_checkpoint::Checkpoint) {
    let Some(note) = &checkpoint.meta.secrets else {
        return;
    };
    if note.count() > 0 {
        ui.warn(&format!(
            "checkpoint {} holds {}: {}; push holds it back (see docs/secrets.md)",
            checkpoint.id,
            note.counted(),
            note.places(5)
        ));
    }
}

/// What the retention after a new checkpoint did: nothing is said of an ordinary prune when
/// `quiet`; a prune that could not run is a warning.
pub fn housekeeping(ui: &Ui, done: &Housekeeping, quiet: bool) {
    if quiet {
        return;
    }
    if !done.pruned.is_empty() {
        // Each setting that pruned, with how many it pruned.
        let mut by: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
        for id in &done.pruned {
            let setting = done.pruned_by.get(id).map_or("retention", String::as_str);
            *by.entry(setting).or_default() += 1;
        }
        let settings: Vec<String> = by
            .iter()
            .map(|(setting, n)| {
                if by.len() == 1 {
                    setting.to_string()
                } else {
                    format!("{n} by {setting}")
                }
            })
            .collect();
        ui.info(&format!(
            "pruned {} ({})",
            count(done.pruned.len(), "old checkpoint", "old checkpoints"),
            settings.join(", ")
        ));
    }
    if let Some(problem) = &done.problem {
        ui.warn(&format!("automatic prune failed: {problem}"));
    }
}

/// One line about an interrupted restore that this command found and completed first.
pub fn report_completed(ui: &Ui, done: &Completed) {
    match &done.failed {
        None => ui.info(&done.describe()),
        Some(_) => ui.warn(&done.describe()),
    }
}

/// For commands that change nothing: warn when a restore died part-way and waits to be
/// completed by the next save, restore or undo.
pub fn warn_interrupted(ui: &Ui, checkpoints: &Checkpoints) {
    if let Some(found) = checkpoints.interrupted() {
        let before = match &found.safety {
            Some(safety) => format!("the state before it is checkpoint {safety}"),
            None => "it ran with --no-save".to_string(),
        };
        ui.warn(&format!(
            "a restore of {} was interrupted; the next save, restore or undo completes it ({before})",
            found.target
        ));
    }
}

/// Warn about what a restore left in place: nested repositories, and a `HEAD` that moved.
pub fn warn_kept_and_head(ui: &Ui, restored: &Restored) {
    for path in &restored.plan.kept {
        ui.warn(&format!(
            "kept `{path}`: a nested repository or submodule is never deleted"
        ));
    }
    if let Some(now) = &restored.head_moved {
        let then = restored
            .target
            .meta
            .head
            .commit
            .as_deref()
            .unwrap_or("none");
        ui.warn(&format!(
            "HEAD has moved since this checkpoint was taken (then {}, now {}); HEAD was left alone",
            then.get(..7).unwrap_or(then),
            now.as_deref().map_or("none", |n| n.get(..7).unwrap_or(n))
        ));
    }
}

/// After a restore that left the index alone: the files it changed whose index entry differs
/// from what was staged when the checkpoint was taken, so that `git status` shows them
/// otherwise than then (a file staged as new shows as untracked, a staged rename as `RD`).
pub fn index_mismatch(ui: &Ui, restored: &Restored) {
    let paths = &restored.index_mismatch;
    if paths.is_empty() {
        return;
    }
    const NAMED: usize = 3;
    let quoted: Vec<String> = paths.iter().take(NAMED).map(|p| format!("`{p}`")).collect();
    let which = match (paths.len(), quoted.as_slice()) {
        (_, [one]) => one.clone(),
        (n, [first @ .., last]) if n <= NAMED => format!("{} and {last}", first.join(", ")),
        (n, _) => format!(
            "{} and {}",
            quoted.join(", "),
            count(n - NAMED, "other file", "other files")
        ),
    };
    let verb = if restored.dry_run {
        "would be left as it is"
    } else {
        "was left as it is"
    };
    ui.hint(&format!(
        "the index {verb}, and for {which} it differs from what was staged when checkpoint {} was taken, so `git status` shows {} otherwise than then; restore with --staged to bring back the staged state too",
        restored.target.id,
        if paths.len() == 1 { "it" } else { "them" }
    ));
}
