//! Retention: which checkpoints to delete (`drop`, `prune`, the automatic prune after `save`),
//! and pinning. Deleting a checkpoint deletes its ref and its note; `git gc` then frees the
//! objects nothing else holds.

use std::collections::{HashMap, HashSet};

pub use crate::config::Policy;

use chrono::{DateTime, Utc};

use crate::error::Result;
use crate::store::{self, Checkpoint};

/// The checkpoints `policy` removes from `all` (newest first), at time `now`. Pinned ones are
/// never removed and do not count toward any `keep`, and neither are those whose note cannot
/// be read ([`Checkpoint::note_problem`]): the pin is kept in the note, so whether they are
/// pinned is unknown. `protect` (the ids just saved, or just restored) are kept.
/// Fetched checkpoints neither count toward a `keep` nor are removed by one: only `max_age`
/// removes them (a fetch must not push the user's own checkpoints out).
/// The first checkpoint of an agent session is not removed by a `keep` limit while a later
/// checkpoint of that session is kept, so that `session:<ID>` keeps naming where the session
/// started (`max_age` still applies to it).
pub fn select<'a>(
    all: &'a [Checkpoint],
    policy: &Policy,
    now: DateTime<Utc>,
    protect: &[&str],
) -> Vec<&'a Checkpoint> {
    let mut out = Vec::new();
    let too_old = |c: &Checkpoint| {
        policy
            .max_age
            .zip(c.meta.created())
            .is_some_and(|(age, created)| now - created > age)
    };
    // The checkpoints a keep limit counts: this repository's own, of the kind pruned, whose
    // pin is known to be off.
    let counted = |c: &&Checkpoint| {
        !c.meta.pinned
            && c.note_problem.is_none()
            && c.meta.fetched.is_none()
            && policy.only_kind.as_ref().is_none_or(|k| k == &c.meta.kind)
    };
    // Protected checkpoints are kept, and counted first: wherever they stand, the others make
    // room for them.
    let mut kept_total = 0usize;
    let mut kept_per_kind: HashMap<&str, usize> = HashMap::new();
    for c in all.iter().filter(counted) {
        if protect.contains(&c.id.as_str()) {
            kept_total += 1;
            *kept_per_kind.entry(&c.meta.kind).or_default() += 1;
        }
    }
    for c in all {
        if c.meta.pinned || c.note_problem.is_some() || protect.contains(&c.id.as_str()) {
            continue;
        }
        // Fetched checkpoints do not count toward a keep limit and go only by age (or drop).
        if c.meta.fetched.is_some() {
            if too_old(c) && policy.only_kind.as_ref().is_none_or(|k| k == &c.meta.kind) {
                out.push(c);
            }
            continue;
        }
        if !counted(&c) {
            continue;
        }
        let too_old = too_old(c);
        let over_total = policy.keep.is_some_and(|keep| kept_total >= keep);
        let kind_count = kept_per_kind
            .get(c.meta.kind.as_str())
            .copied()
            .unwrap_or(0);
        let over_kind = policy
            .keep_per_kind
            .get(&c.meta.kind)
            .is_some_and(|keep| kind_count >= *keep);
        if too_old || over_total || over_kind {
            out.push(c);
        } else {
            kept_total += 1;
            *kept_per_kind.entry(&c.meta.kind).or_default() += 1;
        }
    }
    // Sessions that keep a checkpoint, and the first (oldest) checkpoint of each session.
    let removed: HashSet<&str> = out.iter().map(|c| c.id.as_str()).collect();
    let mut first: HashMap<&str, &str> = HashMap::new();
    let mut alive: HashSet<&str> = HashSet::new();
    for c in all {
        if let Some(session) = c.meta.session.as_deref() {
            first.insert(session, c.id.as_str());
            if !removed.contains(c.id.as_str()) {
                alive.insert(session);
            }
        }
    }
    out.retain(|c| {
        let starts_a_live_session = c
            .meta
            .session
            .as_deref()
            .is_some_and(|s| alive.contains(s) && first.get(s) == Some(&c.id.as_str()));
        !starts_a_live_session || too_old(c)
    });
    out
}

/// What a prune did (or would do).
#[derive(Debug, Clone, Default)]
pub struct Pruned {
    /// The checkpoints removed.
    pub removed: Vec<Checkpoint>,
    /// Notes removed because their checkpoint ref is gone.
    pub orphan_notes: usize,
    /// Checkpoints kept because their note cannot be read, so their pin cannot be seen.
    pub unreadable_kept: usize,
}

/// Apply `policy` now: delete the selected checkpoints and the notes whose checkpoint is gone,
/// in one ref transaction and one notes commit. With `dry_run`, only say what would go.
pub fn prune(
    repo: &gix::Repository,
    policy: &Policy,
    dry_run: bool,
    protect: &[&str],
) -> Result<Pruned> {
    let all = crate::naming::load_all(repo)?;
    let mut selected: Vec<Checkpoint> = select(&all, policy, Utc::now(), protect)
        .into_iter()
        .cloned()
        .collect();
    if let Some(max) = policy.max_size {
        // Then the oldest unpinned ones, until what only checkpoints hold fits.
        let kept: Vec<Checkpoint> = all
            .iter()
            .filter(|c| !selected.iter().any(|s| s.id == c.id))
            .cloned()
            .collect();
        let candidates: Vec<&Checkpoint> = kept
            .iter()
            .rev()
            .filter(|c| {
                !c.meta.pinned
                    && c.note_problem.is_none()
                    && !protect.contains(&c.id.as_str())
                    && policy.only_kind.as_ref().is_none_or(|k| k == &c.meta.kind)
            })
            .collect();
        let n = crate::disk::oldest_to_remove(repo, &kept, &candidates, max)?;
        let mut more: Vec<Checkpoint> = candidates[..n].iter().map(|c| (*c).clone()).collect();
        selected.append(&mut more);
        selected.sort_by(|a, b| b.id.cmp(&a.id));
    }
    let live: Vec<gix::ObjectId> = all.iter().map(|c| c.commit).collect();
    let orphans = store::orphan_notes(repo, &live)?;
    if !dry_run && (!selected.is_empty() || !orphans.is_empty()) {
        store::delete(repo, &selected, true)?;
    }
    Ok(Pruned {
        removed: selected,
        orphan_notes: orphans.len(),
        unreadable_kept: all
            .iter()
            .filter(|c| c.note_problem.is_some())
            .filter(|c| policy.only_kind.as_ref().is_none_or(|k| *k == c.meta.kind))
            .count(),
    })
}

/// The prune that follows a save: `policy`, protecting the checkpoints just made or restored.
/// It costs only a listing of refs when the policy cannot remove anything.
pub fn auto_prune(repo: &gix::Repository, policy: &Policy, protect: &[&str]) -> Result<Pruned> {
    if policy.max_age.is_none() && policy.keep_per_kind.is_empty() && policy.max_size.is_none() {
        // An upper bound, from the refs' names alone: when it is within `keep`, so is the count.
        let count = store::NewestFirst::of(repo)?.at_most();
        if policy.keep.is_none_or(|keep| count <= keep) {
            return Ok(Pruned::default());
        }
    }
    prune(repo, policy, false, protect)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Metadata, Tool};
    use chrono::Duration;

    fn cp(id: &str, kind: &str, hours_ago: i64, pinned: bool, now: DateTime<Utc>) -> Checkpoint {
        Checkpoint {
            id: id.into(),
            commit: gix::ObjectId::null(gix::hash::Kind::Sha1),
            meta: Metadata {
                schema: 1,
                id: id.into(),
                name: None,
                message: None,
                kind: kind.into(),
                created_at: crate::format::rfc3339(now - Duration::hours(hours_ago)),
                head: Default::default(),
                worktree: None,
                session: None,
                agent: None,
                fetched: None,
                operation: None,
                index: Default::default(),
                stats: Default::default(),
                skipped: vec![],
                pinned,
                meta: Default::default(),
                tool: Tool::default(),
                extra: Default::default(),
            },
            note_problem: None,
        }
    }

    fn ids(v: Vec<&Checkpoint>) -> Vec<&str> {
        v.into_iter().map(|c| c.id.as_str()).collect()
    }

    #[test]
    fn keep_counts_unpinned_only_and_pins_survive() {
        let now = Utc::now();
        let all = vec![
            cp("5", "auto", 1, false, now),
            cp("4", "manual", 2, true, now),
            cp("3", "auto", 3, false, now),
            cp("2", "auto", 4, false, now),
            cp("1", "manual", 5, true, now),
        ];
        let policy = Policy {
            keep: Some(1),
            ..Policy::default()
        };
        assert_eq!(ids(select(&all, &policy, now, &[])), ["3", "2"]);
        let none = Policy {
            keep: Some(0),
            ..Policy::default()
        };
        assert_eq!(
            ids(select(&all, &none, now, &["5"])),
            ["3", "2"],
            "protected"
        );
    }

    #[test]
    fn a_checkpoint_whose_note_cannot_be_read_is_never_selected() {
        let now = Utc::now();
        let mut unreadable = cp("3", "auto", 1000, false, now);
        unreadable.note_problem = Some("note is missing".into());
        let all = vec![
            cp("4", "auto", 1, false, now),
            unreadable,
            cp("2", "auto", 3, false, now),
            cp("1", "auto", 4, false, now),
        ];
        let policy = Policy {
            keep: Some(1),
            max_age: Some(Duration::hours(100)),
            ..Policy::default()
        };
        assert_eq!(
            ids(select(&all, &policy, now, &[])),
            ["2", "1"],
            "neither removed, even when too old, nor counted toward keep"
        );
    }

    #[test]
    fn per_kind_keep_age_and_kind_filter() {
        let now = Utc::now();
        let all = vec![
            cp("6", "auto", 1, false, now),
            cp("5", "manual", 2, false, now),
            cp("4", "auto", 3, false, now),
            cp("3", "auto", 30, false, now),
            cp("2", "manual", 48, false, now),
            cp("1", "manual", 100, true, now),
        ];
        let mut per_kind = std::collections::BTreeMap::new();
        per_kind.insert("auto".to_string(), 2);
        let policy = Policy {
            keep: Some(50),
            keep_per_kind: per_kind,
            ..Policy::default()
        };
        assert_eq!(ids(select(&all, &policy, now, &[])), ["3"]);
        let aged = Policy {
            max_age: Some(Duration::hours(24)),
            ..Policy::default()
        };
        assert_eq!(ids(select(&all, &aged, now, &[])), ["3", "2"]);
        let only_manual = Policy {
            keep: Some(1),
            only_kind: Some("manual".into()),
            ..Policy::default()
        };
        assert_eq!(ids(select(&all, &only_manual, now, &[])), ["2"]);
    }

    #[test]
    fn a_live_sessions_first_checkpoint_outlasts_keep_but_not_max_age() {
        let now = Utc::now();
        let in_session = |id: &str, hours_ago: i64, session: &str| {
            let mut c = cp(id, "auto", hours_ago, false, now);
            c.meta.session = Some(session.into());
            c
        };
        let all = vec![
            in_session("6", 1, "s1"),
            in_session("5", 2, "s1"),
            in_session("4", 3, "s1"),
            in_session("3", 4, "s0"),
            in_session("2", 5, "s0"),
            cp("1", "manual", 30, false, now),
        ];
        let policy = Policy {
            keep: Some(2),
            ..Policy::default()
        };
        // s1 keeps 6 and 5, so its start (4) stays; s0 keeps nothing, so all of it goes.
        assert_eq!(ids(select(&all, &policy, now, &[])), ["3", "2", "1"]);
        let aged = Policy {
            keep: Some(2),
            max_age: Some(Duration::minutes(150)),
            ..Policy::default()
        };
        assert_eq!(ids(select(&all, &aged, now, &[])), ["4", "3", "2", "1"]);
    }

    #[test]
    fn fetched_checkpoints_go_by_age_only() {
        let now = Utc::now();
        let fetched = |id: &str, hours_ago: i64| {
            let mut c = cp(id, "manual", hours_ago, false, now);
            c.meta.fetched = Some(crate::format::FetchedFrom {
                remote: "origin".into(),
                at: crate::format::rfc3339(now),
            });
            c
        };
        let all = vec![
            fetched("5", 1),
            fetched("4", 2),
            cp("3", "manual", 3, false, now),
            cp("2", "manual", 4, false, now),
            fetched("1", 50),
        ];
        let policy = Policy {
            keep: Some(1),
            ..Policy::default()
        };
        // Own checkpoints are counted among themselves: a fetch does not push them out.
        assert_eq!(ids(select(&all, &policy, now, &[])), ["2"]);
        let aged = Policy {
            keep: Some(1),
            max_age: Some(Duration::hours(24)),
            ..Policy::default()
        };
        assert_eq!(ids(select(&all, &aged, now, &[])), ["2", "1"]);
    }
}
