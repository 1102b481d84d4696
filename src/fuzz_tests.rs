//! Deterministic random-input tests for the parsers that read untrusted input: checkpoint
//! names, note JSON, durations and tree paths. Each must return an error, never panic, and
//! stay within bounded memory. `FUZZ_ITERATIONS` raises the count for a longer run.

use gix::bstr::ByteSlice;

use crate::format::Metadata;

/// xorshift64: deterministic, so that a failing input comes back with its seed (also used by
/// `session_tests`).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// Bytes biased toward the characters parsers care about.
    fn bytes(&mut self, max: usize) -> Vec<u8> {
        const SPECIAL: &[u8] = b"@{}-./\\\0\n\r\t :\"[]0123456789abcdefsmhdw{},\xff\xc3";
        let len = self.below(max + 1);
        (0..len)
            .map(|_| {
                if self.below(3) == 0 {
                    self.next() as u8
                } else {
                    SPECIAL[self.below(SPECIAL.len())]
                }
            })
            .collect()
    }
}

fn iterations() -> usize {
    std::env::var("FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

const VALID_NOTE: &str = r#"{"schema":1,"id":"20261122-143022-481a2b","name":"n","message":"m","kind":"manual","created_at":"2026-11-22T14:30:22.481Z","head":{"commit":null,"ref":"refs/heads/main"},"worktree":null,"index":"clean","stats":{"files":1,"added":0,"modified":0,"deleted":0},"skipped":[],"pinned":false,"meta":{},"tool":{"name":"git-checkpoint","version":"0.1.0"}}"#;

#[test]
fn note_parsing_never_panics_on_mutated_notes() {
    let mut rng = Rng(1);
    let valid = VALID_NOTE.as_bytes();
    for _ in 0..iterations() {
        let mut note = valid.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(note.len());
            match rng.below(3) {
                0 => note[at] = rng.next() as u8,
                1 => {
                    note.remove(at);
                }
                _ => {
                    let insert = rng.bytes(8);
                    note.splice(at..at, insert);
                }
            }
        }
        let _ = Metadata::from_note(&note);
        let _ = Metadata::from_note(&rng.bytes(64));
    }
    assert!(Metadata::from_note(valid).is_ok());
}

/// Checkpoints that exercise every naming rule: ids sharing long prefixes (same day, same
/// second), commits sharing hex prefixes, names that repeat, that look like ids, id prefixes,
/// hex or positions (a fetched note may say anything), two worktrees, and sessions sharing
/// prefixes. Newest first, as `load_all` gives them.
fn naming_fixture() -> Vec<crate::Checkpoint> {
    use crate::naming::tests::cp_in;
    let c = |hex: &str| format!("{hex:0<40}");
    vec![
        cp_in(
            "20261122-150000-000aaa",
            &c("aaaa11"),
            Some("wip"),
            Some("wt"),
            None,
        ),
        cp_in(
            "20261122-150000-000aab",
            &c("aaaa12"),
            None,
            None,
            Some("abcd-1"),
        ),
        cp_in(
            "20261122-140000-000bbb",
            &c("bbbb22"),
            Some("wip"),
            None,
            Some("abcd-1"),
        ),
        cp_in(
            "20261122-140000-000bbc",
            &c("bbbb23"),
            Some("latest"),
            None,
            Some("abce-9"),
        ),
        cp_in(
            "20261121-130000-000ccc",
            &c("cccc33"),
            Some("20261122"),
            None,
            Some("abce-9"),
        ),
        cp_in(
            "20261121-130000-000ccd",
            &c("ccdd44"),
            Some("20261122-140000-000bbb"),
            Some("wt"),
            Some("beef"),
        ),
        cp_in(
            "20261120-120000-000ddd",
            &c("dddd55"),
            Some("deadbeef"),
            None,
            None,
        ),
        cp_in(
            "20261120-120000-000dde",
            &c("deadbeef66"),
            Some("@{0}"),
            None,
            Some("abcd-1"),
        ),
        cp_in(
            "20261119-110000-000eee",
            &c("eeee77"),
            Some("session:beef"),
            Some("wt"),
            None,
        ),
        cp_in(
            "20261119-110000-000eef",
            &c("aaaa11f"),
            Some("wip"),
            None,
            Some("beef-2"),
        ),
    ]
}

/// A spec derived from the fixture (a prefix of an id, commit, name or session, with noise) or
/// random bytes.
fn naming_spec(rng: &mut Rng, all: &[crate::Checkpoint]) -> String {
    let c = &all[rng.below(all.len())];
    let commit = c.commit.to_string();
    let base: String = match rng.below(8) {
        0 => c.id.clone(),
        1 => commit.to_ascii_uppercase(),
        2 => c.meta.name.clone().unwrap_or_default(),
        3 => format!("session:{}", c.meta.session.clone().unwrap_or_default()),
        4 => format!("@{{{}}}", rng.below(12)),
        5 => commit,
        6 => c.id.clone(),
        _ => return String::from_utf8_lossy(&rng.bytes(24)).into_owned(),
    };
    let mut spec: String = base.chars().take(rng.below(base.len() + 2)).collect();
    if rng.below(6) == 0 {
        spec.push_str(&String::from_utf8_lossy(&rng.bytes(3)));
    }
    spec
}

#[test]
fn name_resolution_never_panics_and_keeps_its_rules() {
    use crate::Error;
    use crate::naming::resolve;
    let all = naming_fixture();
    let mut rng = Rng(2);
    // An exact id always names that checkpoint, whatever the names around it say.
    for c in &all {
        for wt in [None, Some("wt")] {
            assert_eq!(resolve(&all, wt, &c.id).map(|r| &r.id).ok(), Some(&c.id));
        }
    }
    let mut resolved = 0usize;
    let mut ambiguous = 0usize;
    for _ in 0..iterations() {
        let spec = naming_spec(&mut rng, &all);
        let wt = [None, Some("wt")][rng.below(2)];
        let is_position = spec == "@" || spec == "latest" || spec.starts_with("@{");
        let is_session = spec.starts_with(crate::format::SESSION_PREFIX);
        let hex = spec.to_ascii_lowercase();
        let commit_prefix = |c: &crate::Checkpoint| {
            hex.len() >= 4
                && hex.bytes().all(|b| b.is_ascii_hexdigit())
                && c.commit.to_string().starts_with(&hex)
        };
        let exact = all.iter().find(|c| c.id == spec);
        let named = all
            .iter()
            .find(|c| c.meta.name.as_deref() == Some(spec.as_str()));
        match resolve(&all, wt, &spec) {
            Ok(c) => {
                resolved += 1;
                assert!(all.iter().any(|a| std::ptr::eq(a, c)), "{spec:?}");
                if let Some(exact) = exact {
                    assert_eq!(c.id, exact.id, "an exact id wins: {spec:?}");
                } else if is_position {
                    assert_eq!(
                        c.meta.worktree.as_deref(),
                        wt,
                        "positions count this worktree: {spec:?}"
                    );
                } else if is_session {
                    // The oldest checkpoint of its session.
                    let session = c.meta.session.as_deref();
                    assert!(session.is_some(), "{spec:?}");
                    let oldest = all
                        .iter()
                        .rev()
                        .find(|a| a.meta.session.as_deref() == session);
                    assert_eq!(oldest.map(|a| &a.id), Some(&c.id), "{spec:?}");
                } else if let Some(named) = named {
                    assert_eq!(c.id, named.id, "the newest of that name: {spec:?}");
                } else {
                    let by_id = all.iter().filter(|a| a.id.starts_with(&spec)).count();
                    let by_commit = all.iter().filter(|a| commit_prefix(a)).count();
                    assert!(
                        (by_id == 1 && c.id.starts_with(&spec))
                            || (by_id == 0 && by_commit == 1 && commit_prefix(c)),
                        "{spec:?} resolved to {} by no rule",
                        c.id
                    );
                }
            }
            Err(Error::AmbiguousCheckpoint { candidates, .. }) => {
                ambiguous += 1;
                assert!(
                    exact.is_none() && named.is_none() && !is_position,
                    "{spec:?}"
                );
                assert!(candidates.len() >= 2, "{spec:?}: {candidates:?}");
                for candidate in &candidates {
                    let ok = if is_session {
                        all.iter().any(|a| {
                            a.meta
                                .session
                                .as_deref()
                                .map(|s| format!("session:{s}"))
                                .as_deref()
                                == Some(candidate.as_str())
                        })
                    } else {
                        all.iter().any(|a| {
                            a.id == *candidate && (a.id.starts_with(&spec) || commit_prefix(a))
                        })
                    };
                    assert!(ok, "{spec:?}: candidate {candidate} does not match");
                }
            }
            Err(Error::UnknownCheckpoint(_)) => {
                assert!(exact.is_none(), "{spec:?}");
                if !is_position && !is_session && !spec.is_empty() {
                    assert!(named.is_none(), "{spec:?}");
                    assert!(!all.iter().any(|a| a.id.starts_with(&spec)), "{spec:?}");
                    assert!(!all.iter().any(commit_prefix), "{spec:?}");
                }
            }
            Err(Error::InvalidInput(_)) => assert!(spec.starts_with("@{"), "{spec:?}"),
            Err(Error::PositionOutOfRange { count, .. }) => {
                assert!(is_position, "{spec:?}");
                assert_eq!(
                    count,
                    all.iter().filter(|a| a.is_own(wt)).count(),
                    "{spec:?}"
                );
            }
            Err(Error::NoOwnCheckpoints(_) | Error::NoCheckpoints) => {
                assert!(is_position, "{spec:?}");
                assert!(!all.iter().any(|a| a.is_own(wt)), "{spec:?}");
            }
            Err(other) => unreachable!("{spec:?}: unexpected {other}"),
        }
        let _ = crate::format::validate_name(&spec);
        let _ = crate::format::validate_kind(&spec);
        let _ = crate::format::time_of_id(&spec);
        let _ = crate::format::successor(&spec);
    }
    // The generator reaches the interesting paths, not only "unknown".
    assert!(resolved > iterations() / 10, "{resolved} resolved");
    assert!(ambiguous > iterations() / 100, "{ambiguous} ambiguous");
}

#[test]
fn duration_parsing_never_panics() {
    let mut rng = Rng(3);
    for _ in 0..iterations() {
        let text = String::from_utf8_lossy(&rng.bytes(12)).into_owned();
        let _ = crate::config::parse_duration(&text);
        let _ = crate::config::parse_size(&text);
    }
}

#[test]
fn tree_path_validation_never_panics_and_refuses_escapes() {
    let mut rng = Rng(4);
    let kinds = [
        gix::objs::tree::EntryKind::Blob,
        gix::objs::tree::EntryKind::Link,
        gix::objs::tree::EntryKind::Commit,
    ];
    for _ in 0..iterations() {
        let path = rng.bytes(40);
        let kind = kinds[rng.below(kinds.len())];
        if crate::restore::validate_path(path.as_bstr(), kind).is_ok() {
            // Whatever passes has no component that leaves the tree or enters .git.
            for component in path.split(|b| *b == b'/') {
                assert!(!component.is_empty() && component != b".." && component != b".");
                assert!(!component.eq_ignore_ascii_case(b".git"));
            }
        }
    }
}
