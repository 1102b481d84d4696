//! Stages 4 and 5 of a capture: what each path the status found needs, and whether a plain
//! directory's stand-in index still stands.

use std::collections::HashMap;

use gix::bstr::{BStr, BString};
use gix::dir::entry::{Kind as DiskKind, Status as DirStatus};
use gix::index::entry::Stage;
use gix::status::plumbing::index_as_worktree::{Change, EntryStatus};

use super::Env;
use super::listing::Skip;
use super::scan::Found;
use crate::error::Result;
use crate::standin;
use crate::statcache::{self, PathMap};

/// What status said about a tracked path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Action {
    Rehash,
    Remove,
}

/// Looked up for every index entry: hashed as the stat cache hashes paths, not with SipHash
/// (20 M instructions at 100,000 files).
pub(super) type Actions<'index> =
    HashMap<&'index BStr, Action, std::hash::BuildHasherDefault<statcache::PathHasher>>;

/// What stage 4 makes of what the status found.
pub(super) struct Classified<'index> {
    /// The tracked paths to hash again or remove.
    pub actions: Actions<'index>,
    /// The untracked files (and repositories, and directories git cannot track) to take, in
    /// path order.
    pub untracked: Vec<(BString, DiskKind)>,
    /// Which of `untracked` come from a listing rather than the walk (empty when none does).
    pub listed: Vec<bool>,
    /// For the stand-in: ignore files that are themselves ignored (still read).
    pub ignored_rule_files: Vec<BString>,
    /// For the stand-in: new stat data of files found unchanged by content.
    pub refreshed: PathMap<gix::index::entry::Stat>,
    /// Every tracked path the status found differing from its index entry, by content or by
    /// stat alone: what a monitor's token is kept relative to.
    pub dirty: Vec<BString>,
}

/// Stage 4: sort what the status found (`skipped_dirs`: the directories whose files came from
/// their listings) into what the later stages do with each path. Pure but for
/// `checkpoint.include`, which lists what it captures below an ignored directory.
pub(super) fn classify<'index>(
    env: &Env<'_>,
    mut found: Found<'index>,
    skipped_dirs: &[Skip],
) -> Result<Classified<'index>> {
    let mut out = Classified {
        actions: Actions::default(),
        untracked: Vec::new(),
        listed: Vec::new(),
        ignored_rule_files: Vec::new(),
        refreshed: PathMap::default(),
        dirty: Vec::with_capacity(found.modified.len()),
    };
    for (rela_path, status) in &found.modified {
        out.dirty.push((*rela_path).to_owned());
        let action = match status {
            EntryStatus::Change(Change::Removed) => Action::Remove,
            EntryStatus::Change(
                Change::Type { .. }
                | Change::Modification { .. }
                | Change::SubmoduleModification(_),
            )
            | EntryStatus::IntentToAdd => Action::Rehash,
            EntryStatus::NeedsUpdate(stat) => {
                if env.options.stand_in.is_some() {
                    out.refreshed.insert((*rela_path).to_owned(), *stat);
                }
                continue;
            }
            // Conflicts are read from the index when hashing.
            EntryStatus::Conflict { .. } => continue,
        };
        out.actions.insert(rela_path, action);
    }
    let mut ranges = skipped_dirs
        .iter()
        .map(|(_, _, range)| range.clone())
        .peekable();
    let rules = &env.rules;
    // The walk's paths are moved, not copied: tens of thousands of them.
    for (at, entry) in std::mem::take(&mut found.walked).into_iter().enumerate() {
        while ranges.peek().is_some_and(|r| r.end <= at) {
            ranges.next();
        }
        match (entry.status, entry.disk_kind) {
            (DirStatus::Untracked, Some(kind)) => {
                out.untracked.push((entry.rela_path, kind));
                if !skipped_dirs.is_empty() {
                    out.listed.resize(out.untracked.len() - 1, false);
                    out.listed
                        .push(ranges.peek().is_some_and(|r| r.contains(&at)));
                }
            }
            (DirStatus::Ignored(_), Some(DiskKind::File | DiskKind::Symlink))
                if standin::is_rule_file(entry.rela_path.as_ref())
                    && !rules.included(entry.rela_path.as_ref(), false) =>
            {
                out.ignored_rule_files.push(entry.rela_path);
            }
            // `checkpoint.include`: ignored, and captured anyway.
            (DirStatus::Ignored(_), Some(DiskKind::Directory)) if rules.includes_any() => {
                for path in rules.included_below(&env.workdir, entry.rela_path.as_ref())? {
                    out.untracked.push((path, DiskKind::File));
                }
            }
            (DirStatus::Ignored(_), Some(kind @ (DiskKind::File | DiskKind::Symlink)))
                if rules.included(entry.rela_path.as_ref(), false) =>
            {
                out.untracked.push((entry.rela_path, kind));
            }
            _ => {}
        }
    }
    sort_untracked(&mut out);
    Ok(out)
}

/// In path order (the walk's is the order directories list their entries in): the order of
/// the overrides they become and of the stat cache's files, which the next save's listings
/// give back, so that it finds them in order and has nothing to sort.
fn sort_untracked(out: &mut Classified<'_>) {
    if out.untracked.is_sorted_by(|a, b| a.0 <= b.0) {
        return;
    }
    let untracked = std::mem::take(&mut out.untracked);
    let mut listed = std::mem::take(&mut out.listed);
    listed.resize(untracked.len(), false);
    let mut both: Vec<_> = untracked.into_iter().zip(listed).collect();
    both.sort_by(|a, b| a.0.0.cmp(&b.0.0));
    (out.untracked, out.listed) = both.into_iter().unzip();
}

/// Stage 5: in a plain directory's save, the stand-in's mode and the key of what decides it
/// (see [`standin::key`]); a loaded stand-in stands only while that key is the one it was made
/// under. `None` elsewhere.
pub(super) fn stand_in_key(
    env: &Env<'_>,
    index: &gix::index::State,
    classified: &Classified<'_>,
) -> Option<(standin::Mode, Option<u64>)> {
    let mode = env.options.stand_in?;
    let mut rule_files: Vec<&BStr> = classified
        .ignored_rule_files
        .iter()
        .map(|p| p.as_ref())
        .collect();
    rule_files.extend(
        index
            .entries()
            .iter()
            .filter(|e| e.stage() == Stage::Unconflicted)
            .map(|e| e.path(index))
            .filter(|p| standin::is_rule_file(p)),
    );
    rule_files.extend(
        classified
            .untracked
            .iter()
            .map(|(p, _)| p.as_ref())
            .filter(|p| standin::is_rule_file(p)),
    );
    let key = standin::key(
        env.repo,
        env.options.capture,
        &env.workdir,
        rule_files,
        env.started(),
    );
    Some((mode, key))
}
