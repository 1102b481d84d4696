//! The library's layers, checked: every `crate::` import of a module (plain or in a `use` group,
//! anywhere in its code but its `#[cfg(test)]` items) names a module of its own layer or of one
//! below, and the imports form no circle. A new module must be placed here.

use std::collections::{BTreeMap, BTreeSet};

/// Each module of the library (a file under `src/`, the CLI aside) and its layer; a module may
/// use only modules of its layer or lower.
const LAYERS: &[(&str, u8)] = &[
    // The storage format and the error type.
    ("error", 0),
    ("format", 0),
    // Typed settings; progress and cancellation.
    ("config", 1),
    ("control", 1),
    // Agents' transcripts: reading them as turns, writing a new session (pure, uses nothing).
    ("transcript/mod", 1),
    ("transcript/span", 1),
    ("transcript/claude", 1),
    ("transcript/codex", 1),
    ("transcript/gemini", 1),
    ("transcript/copilot", 1),
    ("transcript/cursor", 1),
    ("transcript/chat", 1),
    // Secrets in a file's bytes: gitleaks' rules, matched (pure, uses nothing).
    ("secrets/engine", 1),
    ("secrets/rules", 1),
    // Opening the repository; the one module that runs `git`.
    ("repo", 2),
    ("gitcli", 2),
    // Plain directories: their private stores.
    ("plain", 2),
    // Capture: the working tree as objects, and trees compared path by path (recording a
    // checkpoint counts what it changed).
    // Refs, in process or through git, as the repository's ref storage allows.
    ("refdb", 3),
    ("statcache", 3),
    ("notecache", 3),
    ("standin", 3),
    ("select", 3),
    ("snapshot/mod", 3),
    ("snapshot/monitor", 3),
    ("snapshot/scan", 3),
    ("snapshot/listing", 3),
    ("snapshot/classify", 3),
    ("snapshot/probe", 3),
    ("snapshot/hash", 3),
    ("snapshot/trees", 3),
    ("treediff", 3),
    ("capture", 3),
    // The store: refs and notes; recording a capture as a checkpoint.
    ("store", 4),
    ("conversation", 4),
    ("removed", 4),
    // The secret scan of what a checkpoint adds beyond HEAD (a save's, a push's).
    ("secrets/mod", 4),
    ("secrets/tests", 4),
    ("record", 4),
    // Naming.
    ("naming", 5),
    // Comparing: line diffs and patches, and the diff drivers of `.gitattributes`.
    ("userdiff/mod", 6),
    ("userdiff/builtin", 6),
    ("userdiff/posix", 6),
    ("diff", 6),
    ("patch", 6),
    ("hunks", 6),
    // Restore: the journal, a pure plan, then apply.
    ("journal", 7),
    ("restore/mod", 7),
    ("restore/plan", 7),
    ("restore/apply", 7),
    // Recovery of a killed restore; the history undo and redo walk.
    ("recovery", 8),
    ("history", 8),
    // Taking back one step by a three-way merge.
    ("revert", 8),
    // Restore and revert of chosen hunks.
    ("partial", 8),
    // Retention, and what checkpoints cost on disk.
    ("retention", 9),
    ("disk", 9),
    // Rewriting what an earlier version wrote that git cannot read.
    ("repair", 9),
    // Sharing through a remote.
    ("sharing", 10),
    // Agents' hook formats and configuration files.
    ("hooks/mod", 11),
    ("hooks/input", 11),
    ("hooks/install", 11),
    ("hooks/mcp", 11),
    // The façade.
    ("checkpoints", 12),
    ("lib", 13),
];

/// The binary's front ends, beside `main` (a file or a directory under `src/`): they use the
/// library through its public face and are no layer of it.
const FRONT_ENDS: &[&str] = &["cli", "mcp", "serve"];

/// The library's source files, by module name, without their tests and comments.
fn sources() -> BTreeMap<String, String> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path
                    .file_name()
                    .is_some_and(|n| !FRONT_ENDS.iter().any(|f| n == *f))
                {
                    dirs.push(path);
                }
                continue;
            }
            let Ok(rel) = path.strip_prefix(&src) else {
                continue;
            };
            let name = rel.with_extension("").to_string_lossy().replace('\\', "/");
            if path.extension().is_none_or(|e| e != "rs")
                || name == "main"
                || FRONT_ENDS.contains(&name.as_str())
                || name.ends_with("_tests")
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            out.insert(name, without_tests(&code_only(&text)));
        }
    }
    out
}

/// `text` with its comments removed and the contents of its string and character literals
/// emptied, so that only code is left to read imports from (and braces balance).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == Some('#') || next == Some('"'))
            && !chars[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#, …
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < chars.len() {
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1f}'), not a lifetime ('a).
            let end = if next == Some('\\') {
                chars[i + 2..]
                    .iter()
                    .position(|&x| x == '\'')
                    .map(|p| i + 2 + p)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.push_str("' '");
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` (from [`code_only`]) without the items marked `#[cfg(test)]`: a test module, a
/// test-only `use` or function.
fn without_tests(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        // The item ends at a `;` before any brace, or with the brace that closes its body.
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The first path segments of the paths of a `use` group: `a::{b::C, d}` → `a`;
/// `{b::{C, D}, e}` (what follows `crate::`) → `b`, `e`.
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut start = false;
    let mut word = String::new();
    for c in group.chars() {
        if c.is_alphanumeric() || c == '_' {
            if depth == 1 && start {
                word.push(c);
            }
            continue;
        }
        if !word.is_empty() {
            heads.push(std::mem::take(&mut word));
            start = false;
        }
        match c {
            '{' => {
                depth += 1;
                start = depth == 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => start = true,
            _ => {}
        }
    }
    heads
}

/// The modules `text` (of module `name`) imports: `crate::x`, `super::x` and `mod x`.
fn imports(name: &str, text: &str, known: &BTreeSet<&str>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let parent = name.rsplit_once('/').map(|(dir, _)| dir);
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .collect();
    let mut firsts: Vec<(bool, String)> = Vec::new();
    for (at, _) in text.match_indices("crate::{") {
        for head in group_heads(&text[at + "crate::".len()..]) {
            firsts.push((true, head));
        }
    }
    if let Some(dir) = parent {
        for (at, _) in text.match_indices("super::{") {
            for head in group_heads(&text[at + "super::".len()..]) {
                firsts.push((false, format!("{dir}/{head}")));
            }
        }
    }
    for word in words {
        if let Some(rest) = word.strip_prefix("crate::") {
            firsts.push((true, rest.split("::").next().unwrap_or("").to_string()));
        } else if let (Some(rest), Some(dir)) = (word.strip_prefix("super::"), parent) {
            let first = rest.split("::").next().unwrap_or("");
            firsts.push((false, format!("{dir}/{first}")));
        }
    }
    for (from_crate, first) in firsts {
        let target = if from_crate {
            if known.contains(format!("{first}/mod").as_str()) {
                format!("{first}/mod")
            } else {
                first.to_string()
            }
        } else if known.contains(first.as_str()) {
            first
        } else {
            match first.rsplit_once('/') {
                Some((dir, _)) => format!("{dir}/mod"),
                None => continue,
            }
        };
        if known.contains(target.as_str()) && target != name {
            out.insert(target);
        }
    }
    out
}

#[test]
fn imports_never_run_back_up_a_layer_or_in_a_circle() {
    let layers: BTreeMap<&str, u8> = LAYERS.iter().copied().collect();
    let sources = sources();
    let known: BTreeSet<&str> = layers.keys().copied().collect();
    let mut problems = Vec::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in &sources {
        let Some(own) = layers.get(name.as_str()) else {
            problems.push(format!("{name} has no layer in layering_tests.rs"));
            continue;
        };
        let used = imports(name, text, &known);
        for target in &used {
            let theirs = layers.get(target.as_str()).copied().unwrap_or(u8::MAX);
            if theirs > *own {
                problems.push(format!(
                    "{name} (layer {own}) uses {target} (layer {theirs}), a higher layer"
                ));
            }
        }
        graph.insert(name.clone(), used);
    }
    // A circle: a module reaching itself through its imports.
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = graph[start].iter().collect();
        while let Some(next) = stack.pop() {
            if next == start {
                problems.push(format!("{start} is part of an import circle"));
                break;
            }
            if seen.insert(next.clone())
                && let Some(more) = graph.get(next)
            {
                stack.extend(more.iter());
            }
        }
    }
    assert!(
        sources.len() >= LAYERS.len() - 1,
        "the sources were not found"
    );
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_checker_sees_an_upward_import() {
    let known: BTreeSet<&str> = ["store", "checkpoints", "restore/mod", "restore/plan"]
        .into_iter()
        .collect();
    let used = imports("store", "use crate::checkpoints::Checkpoints;", &known);
    assert!(used.contains("checkpoints"));
    let used = imports("restore/plan", "use super::{Obstacle, Plan};", &known);
    assert!(used.contains("restore/mod"));
    let used = imports("restore/mod", "use crate::restore::plan;", &known);
    assert!(used.is_empty(), "a module's own path is not an import");
    // Grouped imports, nested or not.
    let used = imports(
        "store",
        "use crate::{format, checkpoints::Checkpoints};",
        &known,
    );
    assert!(used.contains("checkpoints"), "{used:?}");
    let used = imports("store", "use crate::{a::{B, C}, checkpoints};", &known);
    assert!(used.contains("checkpoints"), "{used:?}");
    let used = imports("restore/plan", "use super::{plan::X, Obstacle};", &known);
    assert!(used.contains("restore/mod"), "{used:?}");
    // Code after a test module or a test-only item is read; the test code is not.
    let text = without_tests(&code_only(
        "#[cfg(test)]\npub(crate) use crate::checkpoints::X;\n\
         #[cfg(test)]\nmod tests {\n    use crate::checkpoints;\n    fn f() { let s = \"}\"; let c = '{'; }\n}\n\
         fn later() -> &'static str { crate::checkpoints::Y }\n",
    ));
    assert!(!text.contains("X"), "{text}");
    assert!(text.contains("fn later"), "{text}");
    let used = imports("store", &text, &known);
    assert!(used.contains("checkpoints"), "{used:?}");
    // Comments and strings are not code.
    let text = code_only(
        "// use crate::checkpoints;\n/* crate::checkpoints */ let s = \"crate::checkpoints\"; let r = r#\"crate::checkpoints\"#;",
    );
    assert!(imports("store", &text, &known).is_empty(), "{text}");
}

/// The Rust files below `src/<dir>`, by path relative to `src/`, without comments.
fn front_end_sources(dir: &str) -> BTreeMap<String, String> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let file = src.join(format!("{dir}.rs"));
    if let Ok(text) = std::fs::read_to_string(&file) {
        out.insert(format!("{dir}.rs"), code_only(&text));
    }
    let mut dirs = vec![src.join(dir)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let rel = path.strip_prefix(&src).unwrap_or(&path);
                out.insert(rel.to_string_lossy().replace('\\', "/"), code_only(&text));
            }
        }
    }
    out
}

#[test]
fn front_ends_never_import_one_another() {
    let mut problems = Vec::new();
    for own in FRONT_ENDS {
        let sources = front_end_sources(own);
        assert!(!sources.is_empty(), "no sources under src/{own}");
        for (path, text) in &sources {
            for other in FRONT_ENDS.iter().filter(|f| *f != own) {
                let import = format!("crate::{other}");
                // The CLI's `serve` and `mcp` verbs only parse their arguments and start the
                // server.
                let allowed = *own == "cli"
                    && ((*other == "serve" && path == "cli/serve.rs")
                        || (*other == "mcp" && path == "cli/mcp.rs"));
                let grouped = text.match_indices("crate::{").any(|(at, _)| {
                    group_heads(&text[at + "crate::".len()..]).contains(&other.to_string())
                });
                if (text.contains(&import) || grouped) && !allowed {
                    problems.push(format!("{path} uses {import}"));
                }
            }
            // The façade's escape hatch to the repository is for other programs.
            if text.contains(".repo()") {
                problems.push(format!("{path} goes around the façade with .repo()"));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
