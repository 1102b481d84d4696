//! Naming a checkpoint on the command line.
//!
//! In this order, the first rule that matches wins:
//! 1. an exact id;
//! 2. `@` or `latest` (the newest), `@{N}` (the N-th newest, `@{0}` = newest), counted among
//!    the checkpoints of the current worktree; `session:<ID>`, the first checkpoint of an agent
//!    session (see [`session`]);
//! 3. a name given with `--name` (the newest checkpoint of that name);
//! 4. a unique prefix of an id;
//! 5. a unique prefix (at least 4 hex digits) of the checkpoint commit id.

use crate::error::{Error, Result};
use crate::format::SESSION_PREFIX;
use crate::store::{self, Checkpoint};

/// Every checkpoint with its metadata, newest first.
///
/// A ref under `refs/checkpoints/` that does not lead to a readable checkpoint commit (made by
/// hand, fetched from elsewhere, or pointing at a missing object) is left out, so that it
/// cannot break the others; see [`load_all_reporting`] to learn about them.
pub fn load_all(repo: &gix::Repository) -> Result<Vec<Checkpoint>> {
    Ok(load_all_reporting(repo)?.checkpoints)
}

/// Refs under `refs/checkpoints/` left out by [`load_all`], each with the reason.
pub type Broken = Vec<store::BrokenRef>;

/// What [`load_all_reporting`] found.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// The checkpoints, newest first.
    pub checkpoints: Vec<Checkpoint>,
    /// The refs left out.
    pub broken: Broken,
    /// Why `refs/notes/checkpoints` could not be read, if it could not: then every checkpoint
    /// has metadata derived from its commit, with this text as its `note_problem`.
    pub notes_problem: Option<String>,
}

/// Like [`load_all`], and also the refs left out, each with the reason.
pub fn load_all_reporting(repo: &gix::Repository) -> Result<Loaded> {
    let (refs, mut broken) = store::refs_reporting(repo)?;
    let mut notes = store::Notes::open(repo)?;
    let mut checkpoints = Vec::with_capacity(refs.len());
    for r in &refs {
        match notes.checkpoint(repo, r) {
            Ok(c) => checkpoints.push(c),
            Err(err) => broken.push(store::BrokenRef {
                id: Some(r.id.clone()),
                target: Some(r.commit),
                reason: err.to_string(),
            }),
        }
    }
    broken.sort_by(|a, b| b.id.cmp(&a.id));
    Ok(Loaded {
        checkpoints,
        broken,
        notes_problem: notes.problem().map(str::to_string),
    })
}

/// The broken ref (see [`load_all_reporting`]) whose id is exactly `spec`: only an exact id
/// names a broken ref, never a prefix or a position, so that it is never chosen by accident.
pub fn broken_exact<'a>(
    broken: &'a [store::BrokenRef],
    spec: &str,
) -> Option<&'a store::BrokenRef> {
    broken.iter().find(|b| b.id.as_deref() == Some(spec))
}

/// The checkpoints taken in one worktree (`None`: the main one), newest first; fetched ones
/// are not among them (see [`Checkpoint::is_own`]).
pub fn of_worktree<'a>(
    all: &'a [Checkpoint],
    worktree: Option<&'a str>,
) -> impl Iterator<Item = &'a Checkpoint> + 'a {
    all.iter().filter(move |c| c.is_own(worktree))
}

/// Find the checkpoint `spec` names among `all` (newest first), for a user in `worktree`.
pub fn resolve<'a>(
    all: &'a [Checkpoint],
    worktree: Option<&str>,
    spec: &str,
) -> Result<&'a Checkpoint> {
    let unknown = || Error::UnknownCheckpoint(spec.to_string());
    if spec.is_empty() {
        return Err(unknown());
    }
    // 1. An exact id.
    if let Some(c) = all.iter().find(|c| c.id == spec) {
        return Ok(c);
    }
    // 2. Positions.
    if let Some(n) = position(spec) {
        let n = n.ok_or_else(|| {
            Error::InvalidInput(format!(
                "`{spec}` is not a position: use `@`, `latest` or `@{{N}}` with N a number"
            ))
        })?;
        let mut own = all.iter().filter(|c| c.is_own(worktree)).peekable();
        if own.peek().is_none() {
            // Not "no checkpoint named `@`": there is none of this worktree's to count.
            return Err(if all.is_empty() {
                Error::NoCheckpoints
            } else {
                Error::NoOwnCheckpoints(all.len())
            });
        }
        let own: Vec<&Checkpoint> = own.collect();
        return own
            .get(n)
            .copied()
            .ok_or_else(|| Error::PositionOutOfRange {
                spec: spec.to_string(),
                count: own.len(),
            });
    }
    // 2b. The first checkpoint of a session.
    if let Some(session_spec) = spec.strip_prefix(SESSION_PREFIX) {
        let session = session(all, worktree, session_spec)?;
        return all
            .iter()
            .rev()
            .find(|c| c.meta.session.as_deref() == Some(session.as_str()))
            .ok_or_else(unknown);
    }
    // 3. A name (the newest of that name).
    if let Some(c) = all.iter().find(|c| c.meta.name.as_deref() == Some(spec)) {
        return Ok(c);
    }
    // 4. A unique prefix of an id.
    let by_id: Vec<&Checkpoint> = all.iter().filter(|c| c.id.starts_with(spec)).collect();
    match by_id.as_slice() {
        [one] => return Ok(one),
        [] => {}
        many => return Err(ambiguous(spec, many)),
    }
    // 5. A unique prefix of a commit id.
    let hex = spec.to_ascii_lowercase();
    if hex.len() >= 4 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        let by_commit: Vec<&Checkpoint> = all
            .iter()
            .filter(|c| c.commit.to_string().starts_with(&hex))
            .collect();
        match by_commit.as_slice() {
            [one] => return Ok(one),
            [] => {}
            many => return Err(ambiguous(spec, many)),
        }
    }
    Err(unknown())
}

/// The session id that `spec` names among the sessions of `all` (newest first): `@` or
/// `latest` for the session of the newest checkpoint of `worktree` that has one, else a
/// session id or a unique prefix of one.
pub fn session(all: &[Checkpoint], worktree: Option<&str>, spec: &str) -> Result<String> {
    let unknown = || Error::UnknownCheckpoint(format!("{SESSION_PREFIX}{spec}"));
    if spec == "@" || spec == "latest" {
        return of_worktree(all, worktree)
            .find_map(|c| c.meta.session.clone())
            .ok_or_else(unknown);
    }
    if spec.is_empty() {
        return Err(unknown());
    }
    let mut matches: Vec<&str> = Vec::new();
    for c in all {
        let Some(s) = c.meta.session.as_deref() else {
            continue;
        };
        if s == spec {
            return Ok(s.to_string());
        }
        if s.starts_with(spec) && !matches.contains(&s) {
            matches.push(s);
        }
    }
    match matches.as_slice() {
        [one] => Ok(one.to_string()),
        [] => Err(unknown()),
        many => Err(Error::AmbiguousCheckpoint {
            name: format!("{SESSION_PREFIX}{spec}"),
            candidates: many
                .iter()
                .map(|s| format!("{SESSION_PREFIX}{s}"))
                .collect(),
        }),
    }
}

/// `Some(Some(n))` for `@`, `latest`, `@{n}`; `Some(None)` for a malformed `@{…}`; `None` when
/// `spec` is not a position at all.
fn position(spec: &str) -> Option<Option<usize>> {
    if spec == "@" || spec == "latest" {
        return Some(Some(0));
    }
    let inner = spec.strip_prefix("@{")?.strip_suffix('}');
    Some(inner.and_then(|n| n.parse::<usize>().ok()))
}

fn ambiguous(spec: &str, many: &[&Checkpoint]) -> Error {
    Error::AmbiguousCheckpoint {
        name: spec.to_string(),
        candidates: many.iter().map(|c| c.id.clone()).collect(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::format::{Metadata, Tool};

    fn cp(id: &str, commit: &str, name: Option<&str>, worktree: Option<&str>) -> Checkpoint {
        cp_in(id, commit, name, worktree, None)
    }

    /// A checkpoint for tests: `commit` in hex (the null id when it is not valid hex).
    pub(crate) fn cp_in(
        id: &str,
        commit: &str,
        name: Option<&str>,
        worktree: Option<&str>,
        session: Option<&str>,
    ) -> Checkpoint {
        Checkpoint {
            id: id.into(),
            commit: gix::ObjectId::from_hex(commit.as_bytes())
                .unwrap_or_else(|_| gix::ObjectId::null(gix::hash::Kind::Sha1)),
            meta: Metadata {
                schema: 1,
                id: id.into(),
                name: name.map(Into::into),
                message: None,
                kind: "manual".into(),
                created_at: String::new(),
                head: Default::default(),
                worktree: worktree.map(Into::into),
                session: session.map(Into::into),
                agent: None,
                fetched: None,
                operation: None,
                index: Default::default(),
                stats: Default::default(),
                skipped: vec![],
                pinned: false,
                meta: Default::default(),
                conversation: None,
                secrets: None,
                tool: Tool::default(),
                extra: Default::default(),
            },
            note_problem: None,
        }
    }

    fn fixture() -> Vec<Checkpoint> {
        vec![
            cp(
                "20261122-150000-000aaa",
                "aaaa111111111111111111111111111111111111",
                Some("wip"),
                Some("wt"),
            ),
            cp(
                "20261122-140000-000bbb",
                "bbbb222222222222222222222222222222222222",
                Some("wip"),
                None,
            ),
            cp(
                "20261121-130000-000ccc",
                "bbbb333333333333333333333333333333333333",
                Some("20261122"),
                None,
            ),
        ]
    }

    fn id_of(all: &[Checkpoint], wt: Option<&str>, spec: &str) -> Result<String> {
        resolve(all, wt, spec).map(|c| c.id.clone())
    }

    #[test]
    fn every_rule_in_order() -> Result<()> {
        let all = fixture();
        assert_eq!(id_of(&all, None, "20261121-130000-000ccc")?, all[2].id);
        assert_eq!(
            id_of(&all, None, "@")?,
            all[1].id,
            "@ counts this worktree only"
        );
        assert_eq!(id_of(&all, None, "latest")?, all[1].id);
        assert_eq!(id_of(&all, Some("wt"), "@")?, all[0].id);
        assert_eq!(id_of(&all, None, "@{1}")?, all[2].id);
        assert!(matches!(
            resolve(&all, None, "@{2}"),
            Err(Error::PositionOutOfRange { count: 2, .. })
        ));
        assert_eq!(id_of(&all, None, "wip")?, all[0].id, "newest of that name");
        // A name wins over an id prefix.
        assert_eq!(id_of(&all, None, "20261122")?, all[2].id);
        assert_eq!(id_of(&all, None, "20261121")?, all[2].id);
        assert_eq!(id_of(&all, None, "aaaa1")?, all[0].id);
        assert!(matches!(
            resolve(&all, None, "bbbb"),
            Err(Error::AmbiguousCheckpoint { ref candidates, .. }) if candidates.len() == 2
        ));
        assert!(matches!(
            resolve(&all, None, "2026112"),
            Err(Error::AmbiguousCheckpoint { .. })
        ));
        assert!(matches!(
            resolve(&all, None, "aaa"),
            Err(Error::UnknownCheckpoint(_))
        ));
        assert!(matches!(
            resolve(&all, None, "@{x}"),
            Err(Error::InvalidInput(_))
        ));
        assert!(resolve(&all, None, "").is_err());
        Ok(())
    }

    #[test]
    fn a_session_names_its_first_checkpoint() -> Result<()> {
        let c = "cccc000000000000000000000000000000000000";
        let all = vec![
            cp_in("20261122-150000-000004", c, None, None, None),
            cp_in("20261122-140000-000003", c, None, None, Some("beef-2")),
            cp_in(
                "20261122-130000-000002",
                c,
                None,
                Some("wt"),
                Some("abcd-1"),
            ),
            cp_in("20261122-120000-000001", c, None, None, Some("abcd-1")),
            cp_in("20261122-110000-000000", c, None, None, Some("abce-9")),
        ];
        assert_eq!(
            id_of(&all, None, "session:abcd-1")?,
            all[3].id,
            "the oldest"
        );
        assert_eq!(id_of(&all, None, "session:abcd")?, all[3].id, "a prefix");
        assert_eq!(id_of(&all, None, "session:beef-2")?, all[1].id);
        assert_eq!(
            id_of(&all, None, "session:@")?,
            all[1].id,
            "@: the session of this worktree's newest checkpoint that has one"
        );
        assert_eq!(id_of(&all, Some("wt"), "session:latest")?, all[3].id);
        assert!(matches!(
            resolve(&all, None, "session:abc"),
            Err(Error::AmbiguousCheckpoint { ref candidates, .. })
                if candidates == &["session:abcd-1", "session:abce-9"]
        ));
        assert!(matches!(
            resolve(&all, None, "session:zz"),
            Err(Error::UnknownCheckpoint(ref s)) if s == "session:zz"
        ));
        assert!(resolve(&all, None, "session:").is_err());
        assert!(resolve(&all[..1], None, "session:@").is_err());
        Ok(())
    }
}
