//! Deterministic random-input tests for the parsers that read untrusted input: checkpoint
//! names, note JSON, durations and tree paths. Each must return an error, never panic, and
//! stay within bounded memory. `FUZZ_ITERATIONS` raises the count for a longer run.

use gix::bstr::ByteSlice;

use crate::format::Metadata;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
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

#[test]
fn name_resolution_never_panics() {
    let mut rng = Rng(2);
    let all: Vec<crate::Checkpoint> = Vec::new();
    for _ in 0..iterations() {
        let spec = String::from_utf8_lossy(&rng.bytes(24)).into_owned();
        let _ = crate::resolve::resolve(&all, None, &spec);
        let _ = crate::format::validate_name(&spec);
        let _ = crate::format::validate_kind(&spec);
        let _ = crate::format::time_of_id(&spec);
        let _ = crate::format::successor(&spec);
    }
}

#[test]
fn duration_parsing_never_panics() {
    let mut rng = Rng(3);
    for _ in 0..iterations() {
        let text = String::from_utf8_lossy(&rng.bytes(12)).into_owned();
        let _ = crate::retention::parse_duration(&text);
        let _ = crate::repo::parse_size(&text);
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
