//! Retention: which checkpoints to delete (`drop`, `prune`, the automatic prune after `save`),
//! and pinning. Deleting a checkpoint deletes its ref and its note; `git gc` then frees the
//! objects nothing else holds.

use std::collections::{BTreeMap, HashMap, HashSet};

pub use crate::config::{Limit, Policy};

use chrono::{DateTime, Utc};

use crate::error::Result;
use crate::store::{self, Checkpoint};

/// The checkpoints `policy` removes from `all` (newest first), at time `now`, each with the
/// limit that removes it.
///
/// - Each kind has its own budget: `checkpoint.<kind>.keep`, else `checkpoint.keep`, so that
///   agents' `auto` saves never push out `manual` or `pre-restore` ones; a named checkpoint
///   counts only against the other named ones, whatever its kind.
/// - No count limit removes a checkpoint younger than `policy.min_age` (a burst of saves or
///   restores cannot push out the safety copy of work saved minutes ago), except a keep given
///   on the command line; `max_age` removes what is older than it in any case.
/// - Pinned ones are never removed and do not count toward any keep, and neither are those
///   whose note cannot be read ([`Checkpoint::note_problem`]): the pin is kept in the note, so
///   whether they are pinned is unknown. `protect` (the ids just saved, or just restored) are
///   kept, and counted first.
/// - Fetched checkpoints neither count toward a keep nor are removed by one: only `max_age`
///   removes them (a fetch must not push the user's own checkpoints out).
/// - The first checkpoint of an agent session is not removed by a keep while a later
///   checkpoint of that session is kept, so that `session:<ID>` keeps naming where the session
///   started (`max_age` still applies to it).
pub fn select<'a>(
    all: &'a [Checkpoint],
    policy: &Policy,
    now: DateTime<Utc>,
    protect: &[&str],
) -> Vec<(&'a Checkpoint, Limit)> {
    let mut out: Vec<(&Checkpoint, Limit)> = Vec::new();
    let too_old = |c: &Checkpoint| {
        policy
            .max_age
            .zip(c.meta.created())
            .is_some_and(|(age, created)| now - created > age)
    };
    let of_kind = |c: &Checkpoint| policy.only_kind.as_ref().is_none_or(|k| k == &c.meta.kind);
    // The checkpoints a keep limit counts: this repository's own, of the kind pruned, whose
    // pin is known to be off.
    let counted = |c: &&Checkpoint| {
        !c.meta.pinned && c.note_problem.is_none() && c.meta.fetched.is_none() && of_kind(c)
    };
    // Each checkpoint's budget: its name's, else its kind's.
    fn budget<'c>(c: &'c Checkpoint, policy: &Policy) -> (Option<&'c str>, Option<usize>, Limit) {
        if c.meta.name.is_some() {
            return (None, policy.keep, Limit::Keep);
        }
        let kind = c.meta.kind.as_str();
        match policy.keep_per_kind.get(kind) {
            Some(keep) => (Some(kind), Some(*keep), Limit::KindKeep(kind.to_string())),
            None => (Some(kind), policy.keep, Limit::Keep),
        }
    }
    let young = |c: &Checkpoint| young(c, policy, now);
    // Protected checkpoints are kept, and counted first: wherever they stand, the others make
    // room for them.
    let mut kept: HashMap<Option<&str>, usize> = HashMap::new();
    for c in all.iter().filter(counted) {
        if protect.contains(&c.id.as_str()) {
            *kept.entry(budget(c, policy).0).or_default() += 1;
        }
    }
    for c in all {
        if c.meta.pinned || c.note_problem.is_some() || protect.contains(&c.id.as_str()) {
            continue;
        }
        // Fetched checkpoints do not count toward a keep limit and go only by age (or drop).
        if c.meta.fetched.is_some() {
            if too_old(c) && of_kind(c) {
                out.push((c, Limit::MaxAge));
            }
            continue;
        }
        if !counted(&c) {
            continue;
        }
        if too_old(c) {
            out.push((c, Limit::MaxAge));
            continue;
        }
        let (bucket, keep, limit) = budget(c, policy);
        let count = kept.entry(bucket).or_default();
        if keep.is_some_and(|keep| *count >= keep) && !young(c) {
            out.push((c, limit));
        } else {
            *count += 1;
        }
    }
    // Sessions that keep a checkpoint, and the first (oldest) checkpoint of each session.
    let removed: HashSet<&str> = out.iter().map(|(c, _)| c.id.as_str()).collect();
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
    out.retain(|(c, limit)| {
        let starts_a_live_session = c
            .meta
            .session
            .as_deref()
            .is_some_and(|s| alive.contains(s) && first.get(s) == Some(&c.id.as_str()));
        !starts_a_live_session || *limit == Limit::MaxAge
    });
    out
}

/// Whether `c` is younger than the policy's minimum age, which count and size limits respect
/// (a keep given on the command line aside, for counts).
fn young(c: &Checkpoint, policy: &Policy, now: DateTime<Utc>) -> bool {
    if policy.given.keep {
        return false;
    }
    young_for_size(c, policy, now)
}

/// Whether `c` is younger than the policy's minimum age, for the size limit.
fn young_for_size(c: &Checkpoint, policy: &Policy, now: DateTime<Utc>) -> bool {
    policy
        .min_age
        .is_some_and(|min| c.meta.created().is_none_or(|created| now - created < min))
}

/// What a prune did (or would do).
#[derive(Debug, Clone, Default)]
pub struct Pruned {
    /// The checkpoints removed.
    pub removed: Vec<Checkpoint>,
    /// For each removed checkpoint (by id), the setting (or `prune` flag) that removed it:
    /// `checkpoint.keep`, `checkpoint.auto.keep`, `checkpoint.maxAge`, `checkpoint.maxSize`,
    /// `prune --keep`, ….
    pub why: BTreeMap<String, String>,
    /// Notes removed because their checkpoint ref is gone.
    pub orphan_notes: usize,
    /// Conversations removed because their checkpoint ref is gone.
    pub orphan_conversations: usize,
    /// Checkpoints kept because their note cannot be read, so their pin cannot be seen.
    pub unreadable_kept: usize,
}

/// Apply `policy` now: delete the selected checkpoints and the notes whose checkpoint is gone,
/// in one ref transaction and one notes commit. With `dry_run`, only say what would go. What
/// is removed is remembered (see [`crate::removed`]), so that a name that no longer resolves
/// says why.
pub fn prune(
    repo: &gix::Repository,
    policy: &Policy,
    dry_run: bool,
    protect: &[&str],
) -> Result<Pruned> {
    let all = crate::naming::load_all(repo)?;
    let now = Utc::now();
    let mut selected: Vec<(Checkpoint, Limit)> = select(&all, policy, now, protect)
        .into_iter()
        .map(|(c, limit)| (c.clone(), limit))
        .collect();
    if let Some(max) = policy.max_size {
        // Then the oldest unpinned ones, until what only checkpoints hold fits; none younger
        // than the minimum age.
        let kept: Vec<Checkpoint> = all
            .iter()
            .filter(|c| !selected.iter().any(|(s, _)| s.id == c.id))
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
                    && !young_for_size(c, policy, now)
            })
            .collect();
        let n = crate::disk::oldest_to_remove(repo, &kept, &candidates, max)?;
        selected.extend(
            candidates[..n]
                .iter()
                .map(|c| ((*c).clone(), Limit::MaxSize)),
        );
        selected.sort_by(|a, b| b.0.id.cmp(&a.0.id));
    }
    let live: Vec<gix::ObjectId> = all.iter().map(|c| c.commit).collect();
    let orphans = store::orphan_notes(repo, &live)?;
    let orphan_conversations = store::orphan_conversations(repo)?;
    let why: BTreeMap<String, String> = selected
        .iter()
        .map(|(c, limit)| (c.id.clone(), policy.name(limit)))
        .collect();
    let removed: Vec<Checkpoint> = selected.into_iter().map(|(c, _)| c).collect();
    if !dry_run && (!removed.is_empty() || !orphans.is_empty() || !orphan_conversations.is_empty())
    {
        store::delete(repo, &removed, true)?;
        crate::removed::remember(
            repo,
            removed
                .iter()
                .map(|c| (c, why.get(&c.id).map_or("prune", String::as_str))),
        );
    }
    Ok(Pruned {
        removed,
        why,
        orphan_notes: orphans.len(),
        orphan_conversations: orphan_conversations.len(),
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
    use std::collections::BTreeMap;

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
                conversation: None,
                secrets: None,
                tool: Tool::default(),
                extra: Default::default(),
            },
            note_problem: None,
        }
    }

    fn ids(v: Vec<(&Checkpoint, Limit)>) -> Vec<&str> {
        v.into_iter().map(|(c, _)| c.id.as_str()).collect()
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
        // s1 keeps 6 and 5, so its start (4) stays; s0 keeps nothing, so all of it goes; the
        // manual checkpoint has a budget of its own.
        assert_eq!(ids(select(&all, &policy, now, &[])), ["3", "2"]);
        let aged = Policy {
            keep: Some(2),
            max_age: Some(Duration::minutes(150)),
            ..Policy::default()
        };
        assert_eq!(ids(select(&all, &aged, now, &[])), ["4", "3", "2", "1"]);
    }

    #[test]
    fn each_kind_and_the_named_ones_have_a_budget_of_their_own() {
        let now = Utc::now();
        let named = |id: &str, kind: &str, hours_ago: i64| {
            let mut c = cp(id, kind, hours_ago, false, now);
            c.meta.name = Some(format!("name-{id}"));
            c
        };
        let all = vec![
            cp("9", "auto", 1, false, now),
            cp("8", "auto", 2, false, now),
            cp("7", "auto", 3, false, now),
            named("6", "auto", 4),
            cp("5", "auto", 5, false, now),
            named("4", "manual", 6),
            cp("3", "pre-restore", 7, false, now),
            cp("2", "manual", 8, false, now),
            named("1", "manual", 9),
        ];
        let policy = Policy {
            keep: Some(2),
            ..Policy::default()
        };
        // Agents' saves push out only agents' saves; two named ones stay, whatever their kind.
        let selected = select(&all, &policy, now, &[]);
        assert_eq!(ids(selected.clone()), ["7", "5", "1"]);
        assert!(selected.iter().all(|(_, limit)| *limit == Limit::Keep));
        let mut per_kind = BTreeMap::new();
        per_kind.insert("auto".to_string(), 1);
        let policy = Policy {
            keep: Some(2),
            keep_per_kind: per_kind,
            ..Policy::default()
        };
        let selected = select(&all, &policy, now, &[]);
        assert_eq!(ids(selected.clone()), ["8", "7", "5", "1"]);
        assert_eq!(policy.name(&selected[0].1), "checkpoint.auto.keep");
        assert_eq!(policy.name(&selected[3].1), "checkpoint.keep");
    }

    #[test]
    fn young_checkpoints_outlast_keep_but_not_max_age_or_an_explicit_keep() {
        let now = Utc::now();
        let all = vec![
            cp("5", "auto", 0, false, now),
            cp("4", "auto", 0, false, now),
            cp("3", "auto", 0, false, now),
            cp("2", "auto", 2, false, now),
            cp("1", "auto", 30, false, now),
        ];
        let mut policy = Policy {
            keep: Some(1),
            min_age: Some(Duration::hours(1)),
            ..Policy::default()
        };
        assert_eq!(ids(select(&all, &policy, now, &[])), ["2", "1"]);
        policy.max_age = Some(Duration::hours(24));
        let selected = select(&all, &policy, now, &[]);
        assert_eq!(ids(selected.clone()), ["2", "1"]);
        assert_eq!(policy.name(&selected[1].1), "checkpoint.maxAge");
        policy.given.keep = true;
        let selected = select(&all, &policy, now, &[]);
        assert_eq!(ids(selected.clone()), ["4", "3", "2", "1"]);
        assert_eq!(policy.name(&selected[0].1), "prune --keep");
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
