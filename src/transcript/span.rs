//! Where a member's value lies in the bytes of a JSON object, so that an id can be rewritten in
//! place without serialising the rest of the line again (which could change its key order,
//! escapes or number forms: a new session must differ from the old one in its ids only).
//!
//! The scanner expects JSON that `serde_json` has already accepted; on anything else it finds
//! nothing rather than guessing.

use std::ops::Range;

/// The byte ranges of the values of the members named `key` of the object that `text` holds
/// (surrounding whitespace allowed), in order. Empty when `text` is not an object.
pub(super) fn member_values(text: &[u8], key: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut at = skip_ws(text, 0);
    if text.get(at) != Some(&b'{') {
        return found;
    }
    at += 1;
    loop {
        at = skip_ws(text, at);
        if text.get(at) != Some(&b'"') {
            return found;
        }
        let Some(name_end) = string_end(text, at) else {
            return found;
        };
        let name = text.get(at..name_end).unwrap_or_default();
        at = skip_ws(text, name_end);
        if text.get(at) != Some(&b':') {
            return found;
        }
        at = skip_ws(text, at + 1);
        let Some(end) = value_end(text, at) else {
            return found;
        };
        if names(name, key) {
            found.push(at..end);
        }
        at = skip_ws(text, end);
        if text.get(at) != Some(&b',') {
            return found;
        }
        at += 1;
    }
}

/// The byte ranges of the values at `path` (member names, outermost first) in the object that
/// `text` holds: `["payload", "id"]` is the `id` of the object that is the `payload` member.
pub(super) fn values_at(text: &[u8], path: &[&str]) -> Vec<Range<usize>> {
    let Some((first, rest)) = path.split_first() else {
        return Vec::new();
    };
    let here = member_values(text, first);
    if rest.is_empty() {
        return here;
    }
    let mut found = Vec::new();
    for range in here {
        let Some(inner) = text.get(range.clone()) else {
            continue;
        };
        found.extend(
            values_at(inner, rest)
                .into_iter()
                .map(|r| r.start + range.start..r.end + range.start),
        );
    }
    found
}

/// `text` with each range replaced by its bytes. Ranges must not overlap.
pub(super) fn replace(text: &[u8], mut edits: Vec<(Range<usize>, Vec<u8>)>) -> Vec<u8> {
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    for (range, bytes) in edits {
        if range.start < at || range.end > text.len() {
            continue;
        }
        out.extend_from_slice(text.get(at..range.start).unwrap_or_default());
        out.extend_from_slice(&bytes);
        at = range.end;
    }
    out.extend_from_slice(text.get(at..).unwrap_or_default());
    out
}

/// Whether the quoted member name `raw` (quotes included) is `key`.
fn names(raw: &[u8], key: &str) -> bool {
    if raw.contains(&b'\\') {
        serde_json::from_slice::<String>(raw).is_ok_and(|name| name == key)
    } else {
        raw.len() == key.len() + 2 && raw.get(1..raw.len() - 1) == Some(key.as_bytes())
    }
}

fn skip_ws(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
        at += 1;
    }
    at
}

/// The end (past the closing quote) of the string that starts at `start`.
fn string_end(text: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        match text.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

/// The end of the value that starts at `start`.
fn value_end(text: &[u8], start: usize) -> Option<usize> {
    match text.get(start)? {
        b'"' => string_end(text, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = start;
            loop {
                match text.get(at)? {
                    b'"' => {
                        at = string_end(text, at)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            let mut at = start;
            while text
                .get(at)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                at += 1;
            }
            (at > start).then_some(at)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, path: &[&str]) -> Vec<String> {
        values_at(text.as_bytes(), path)
            .into_iter()
            .map(|r| text.get(r).unwrap_or_default().to_string())
            .collect()
    }

    #[test]
    fn finds_members_at_any_depth_and_only_there() {
        let line = r#" {"a": [1, {"id": "x"}], "id" : "top", "p": {"id": "in\"ner", "q": {}}, "n": -1.5e3} "#;
        assert_eq!(at(line, &["id"]), [r#""top""#]);
        assert_eq!(at(line, &["p", "id"]), [r#""in\"ner""#]);
        assert_eq!(at(line, &["n"]), ["-1.5e3"]);
        assert_eq!(at(line, &["a"]), [r#"[1, {"id": "x"}]"#]);
        assert!(at(line, &["q"]).is_empty());
        assert!(at("[1]", &["id"]).is_empty());
        assert!(at(r#"{"id":"#, &["id"]).is_empty());
        // An escaped member name is still its name.
        assert_eq!(at(r#"{"\u0069d": 2}"#, &["id"]), ["2"]);
    }

    #[test]
    fn replaces_ranges_and_nothing_else() {
        let text = br#"{"id":"a","b":{"id":"a"}}"#;
        let mut edits: Vec<(Range<usize>, Vec<u8>)> = values_at(text, &["b", "id"])
            .into_iter()
            .map(|r| (r, b"\"z\"".to_vec()))
            .collect();
        edits.extend(
            values_at(text, &["id"])
                .into_iter()
                .map(|r| (r, b"\"y\"".to_vec())),
        );
        assert_eq!(replace(text, edits), br#"{"id":"y","b":{"id":"z"}}"#);
    }
}
