//! The scanner on hand-made files; the corpus of gitleaks' own rule tests
//! (`tests/secrets/gitleaks-cases.jsonl`); and this repository's own files, which hold no
//! secret and must give no finding.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::scan_bytes;

/// A fake AWS access key id, put together here so that this file does not hold one.
fn aws_key() -> String {
    format!("{}{}", "AKIA", "Z7Q4XW2JMRTB5NKL")
}

#[test]
fn finds_a_key_and_says_only_where() {
    let text = format!("fn main() {{}}\n\nlet id = \"{}\";\n", aws_key());
    assert_eq!(
        scan_bytes("src/main.rs", text.as_bytes()),
        vec![("aws-access-token", Some(3))]
    );
}

#[test]
fn the_allow_marker_and_placeholders_are_no_findings() {
    let marked = format!("let id = \"{}\"; // gitleaks:allow\n", aws_key());
    assert!(scan_bytes("a.rs", marked.as_bytes()).is_empty());
    // AWS's documented example key ends in EXAMPLE: the rule's allowlist.
    let example = format!("id = {}{}\n", "AKIAIOSFODNN7", "EXAMPLE");
    assert!(scan_bytes("a.rs", example.as_bytes()).is_empty());
}

#[test]
fn dotenv_values_of_secret_names_are_found_but_not_in_templates() {
    let env = "DEBUG=true\nPORT=8080\nSTRIPE_SECRET=x9Kq2LmP4vT7wZ\nDATABASE_URL=postgres://app:hunter2xyz@db/app\n";
    let found = scan_bytes(".env", env.as_bytes());
    assert!(found.contains(&("dotenv-secret", Some(3))), "{found:?}");
    assert!(found.contains(&("dotenv-secret", Some(4))), "{found:?}");
    assert!(
        !found
            .iter()
            .any(|(_, line)| *line == Some(1) || *line == Some(2)),
        "{found:?}"
    );
    // A template's values are examples; gitleaks' own rules still look at it.
    assert!(
        !scan_bytes(".env.example", env.as_bytes())
            .iter()
            .any(|(rule, _)| *rule == "dotenv-secret")
    );
    assert!(scan_bytes("config/.env.local", env.as_bytes()).len() >= 2);
    // A reference to another variable is no value.
    assert!(scan_bytes(".env", b"API_TOKEN=${OTHER_TOKEN}\n").is_empty());
}

#[test]
fn a_private_key_is_found() {
    let key = format!(
        "-----BEGIN {} PRIVATE KEY-----\n{}\n-----END {} PRIVATE KEY-----\n",
        "RSA",
        "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi6Zq5lXr9Qy8S7kPbDpXmJ1n0cVw4lE2fTqKa8HgR3y5WbZuN7oLsC6dI1vYjX9tQe",
        "RSA"
    );
    let found = scan_bytes("id_rsa", key.as_bytes());
    assert_eq!(found, vec![("private-key", Some(1))]);
}

#[test]
fn binary_files_and_lock_files_are_not_scanned_for_content() {
    let mut binary = b"\0\0\0".to_vec();
    binary.extend_from_slice(aws_key().as_bytes());
    assert!(scan_bytes("blob.dat", &binary).is_empty());
    let lock = format!("\"integrity\": \"{}\"\n", aws_key());
    assert!(scan_bytes("web/package-lock.json", lock.as_bytes()).is_empty());
}

/// One case of gitleaks' own rule tests.
#[derive(serde::Deserialize)]
struct Case {
    rule: String,
    expect: String,
    text: String,
    #[serde(default)]
    path: Option<String>,
}

/// What the corpus gives: the true positives found, the false positives reported.
struct Tally {
    positives: usize,
    found: usize,
    missed: Vec<String>,
    negatives: usize,
    false_positives: Vec<String>,
}

fn corpus() -> Tally {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/secrets/gitleaks-cases.jsonl");
    let text = std::fs::read_to_string(&file).expect("the corpus");
    let mut tally = Tally {
        positives: 0,
        found: 0,
        missed: Vec::new(),
        negatives: 0,
        false_positives: Vec::new(),
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).expect("a case");
        let path = case.path.as_deref().unwrap_or("corpus.txt");
        let rules: Vec<&str> = scan_bytes(path, case.text.as_bytes())
            .into_iter()
            .map(|(rule, _)| rule)
            .collect();
        let hit = rules.contains(&case.rule.as_str());
        match case.expect.as_str() {
            "match" => {
                tally.positives += 1;
                // gitleaks' precedence: a specific rule's finding replaces a generic one's.
                let specific = case.rule.contains("generic") && !rules.is_empty();
                if hit || specific {
                    tally.found += 1;
                } else {
                    tally.missed.push(format!("{}: {:?}", case.rule, rules));
                }
            }
            "none" => {
                tally.negatives += 1;
                if hit {
                    tally.false_positives.push(case.rule.clone());
                }
            }
            other => panic!("unknown expectation {other}"),
        }
    }
    tally
}

/// gitleaks' own test cases: the real-format fake secrets each rule must find, and the
/// near misses it must not report.
#[test]
fn gitleaks_own_cases_keep_their_recall_and_precision() {
    let tally = corpus();
    let recall = tally.found as f64 / tally.positives as f64;
    eprintln!(
        "corpus: {} of {} true positives found (recall {:.4}); {} of {} near misses reported",
        tally.found,
        tally.positives,
        recall,
        tally.false_positives.len(),
        tally.negatives
    );
    assert!(
        tally.positives > 5000 && tally.negatives > 300,
        "the corpus shrank"
    );
    assert!(recall >= 0.99, "missed: {:?}", tally.missed);
    assert!(
        tally.false_positives.len() <= tally.negatives / 100,
        "reported: {:?}",
        tally.false_positives
    );
}

/// Ordinary code: every file of this repository (sources, tests, docs, the web page, Python),
/// except the scanner's own rules and corpus, which are about secrets. Not one finding.
#[test]
fn this_repositorys_own_files_give_no_finding() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .ok();
    let Some(listed) = listed.filter(|o| o.status.success() && !o.stdout.is_empty()) else {
        eprintln!("SKIPPED: not in a git checkout, no files to scan");
        return;
    };
    let mut scanned = 0;
    let mut lines = 0;
    let mut findings = Vec::new();
    for path in listed.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let path = String::from_utf8_lossy(path).into_owned();
        if path.starts_with("src/secrets/") || path.starts_with("tests/secrets/") {
            continue;
        }
        let Ok(content) = std::fs::read(root.join(&path)) else {
            continue;
        };
        scanned += 1;
        lines += content.iter().filter(|b| **b == b'\n').count();
        for (rule, line) in scan_bytes(&path, &content) {
            findings.push(format!("{path}:{line:?} {rule}"));
        }
    }
    eprintln!(
        "ordinary code: {scanned} files, {lines} lines, {} findings",
        findings.len()
    );
    assert!(scanned > 100, "only {scanned} files");
    assert!(findings.is_empty(), "{findings:#?}");
}

/// `rules.rs` is what `generate.py` writes from the two rule files.
#[test]
fn the_rule_table_is_generated_from_the_rule_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = std::process::Command::new("python3")
        .arg(root.join("src/secrets/generate.py"))
        .arg("--check")
        .output();
    match run {
        Ok(out) if out.status.success() => {}
        Ok(out) if String::from_utf8_lossy(&out.stderr).contains("tomllib") => {
            eprintln!("SKIPPED: python3 has no tomllib (3.11 or later is needed)");
        }
        Ok(out) => panic!("{}", String::from_utf8_lossy(&out.stderr)),
        Err(err) => eprintln!("SKIPPED: python3 cannot run: {err}"),
    }
}
