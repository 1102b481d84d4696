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
    /// stat alone: what a monitor's token is kept relative to (only where one is asked).
    pub dirty: Vec<BString>,
}

/// Stage 4: sort what the status found (`skipped_dirs`: the directories whose files came from
/// their listings) into what the later stages do with each path; `dirty`: keep the tracked
/// paths found differing (for a monitor's token). Pure but for `checkpoint.include`, which
/// lists what it captures below an ignored directory.
pub(super) fn classify<'index>(
    env: &Env<'_>,
    mut found: Found<'index>,
    skipped_dirs: &[Skip],
    dirty: bool,
) -> Result<Classified<'index>> {
    let mut out = Classified {
        actions: Actions::default(),
        untracked: Vec::new(),
        listed: Vec::new(),
        ignored_rule_files: Vec::new(),
        refreshed: PathMap::default(),
        dirty: Vec::new(),
    };
    for (rela_path, status) in &found.modified {
        if dirty {
            out.dirty.push((*rela_path).to_owned());
        }
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use gix::dir::entry::PathspecMatch;

    fn walked(path: &str, status: DirStatus, kind: DiskKind) -> gix::dir::Entry {
        gix::dir::Entry {
            rela_path: path.into(),
            status,
            property: None,
            disk_kind: Some(kind),
            index_kind: None,
            pathspec_match: Some(PathspecMatch::Always),
        }
    }

    /// Stage 4 alone: what the status found, sorted into what the later stages do with it.
    #[test]
    fn what_the_status_found_is_sorted_into_what_each_path_needs() {
        let dir = tempfile::tempdir().unwrap();
        let repo = gix::init(dir.path()).unwrap();
        let index = repo.index_or_empty().unwrap();
        let capture = crate::config::Capture {
            max_file_size: u64::MAX,
            ..Default::default()
        };
        let options = super::super::Options {
            capture: &capture,
            stat_cache: false,
            stand_in: None,
        };
        let env = Env::new(&repo, &index, options).unwrap();
        let found = Found {
            modified: vec![
                ("gone".into(), EntryStatus::Change(Change::Removed)),
                ("new-intent".into(), EntryStatus::IntentToAdd),
                (
                    "restat".into(),
                    EntryStatus::NeedsUpdate(gix::index::entry::Stat::default()),
                ),
            ],
            walked: vec![
                walked("z/listed.txt", DirStatus::Untracked, DiskKind::File),
                walked("b.txt", DirStatus::Untracked, DiskKind::File),
                walked("link", DirStatus::Untracked, DiskKind::Symlink),
                walked(
                    "ignored.o",
                    DirStatus::Ignored(gix::ignore::Kind::Expendable),
                    DiskKind::File,
                ),
                walked("a.txt", DirStatus::Untracked, DiskKind::File),
            ],
        };
        // The first entry came from the listing of `z`.
        let skipped = vec![(BString::from("z"), false, 0..1)];
        let classified = classify(&env, found, &skipped, true).unwrap();
        let actions: Vec<(String, Action)> = {
            let mut a: Vec<_> = classified
                .actions
                .iter()
                .map(|(p, a)| (p.to_string(), *a))
                .collect();
            a.sort_by(|x, y| x.0.cmp(&y.0));
            a
        };
        assert_eq!(
            actions,
            vec![
                ("gone".into(), Action::Remove),
                ("new-intent".into(), Action::Rehash)
            ]
        );
        // Stat data alone differing is no action, but the path is dirty for a monitor's token.
        assert_eq!(classified.dirty, vec!["gone", "new-intent", "restat"]);
        // Untracked entries in path order, each still marked as listed or walked.
        let untracked: Vec<(String, DiskKind)> = classified
            .untracked
            .iter()
            .map(|(p, k)| (p.to_string(), *k))
            .collect();
        assert_eq!(
            untracked,
            vec![
                ("a.txt".into(), DiskKind::File),
                ("b.txt".into(), DiskKind::File),
                ("link".into(), DiskKind::Symlink),
                ("z/listed.txt".into(), DiskKind::File),
            ]
        );
        assert_eq!(classified.listed, vec![false, false, false, true]);
        assert!(
            classified.refreshed.is_empty(),
            "refreshed only for a stand-in"
        );
    }
}
