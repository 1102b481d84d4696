//! The conversation kept with a checkpoint: `save --conversation`, a hook's transcript,
//! `show --conversation`, what it costs, and that it is dropped, pruned and pushed (only when
//! asked) with its checkpoint. git is the oracle: the checkpoint's tree is still `git add -A`'s,
//! `git fsck` and `git gc` pass, and the refs are what `for-each-ref` lists.

use std::fs;
use std::path::Path;

use crate::common::{Repo, json_eval};

const SESSION: &str = "5b2a7c10-1d3e-4f6a-8b9c-0d1e2f3a4b5c";

/// Claude Code's `PreToolUse` input naming `transcript` (a path) as its transcript.
fn pre_tool_use(repo: &Repo, transcript: &str) -> String {
    let cwd = repo.path().display();
    format!(
        r#"{{"session_id":"{SESSION}","transcript_path":"{transcript}","cwd":"{cwd}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"make"}}}}"#
    )
}

/// A Claude Code transcript line (the shape of its JSONL session files).
fn claude_line(n: usize, role: &str, text: &str) -> String {
    format!(
        r#"{{"type":"{role}","sessionId":"{SESSION}","uuid":"u{n}","message":{{"role":"{role}","content":"{text}"}}}}"#
    ) + "\n"
}

fn conversation_refs(repo: &Repo) -> Vec<String> {
    repo.git(&[
        "for-each-ref",
        "--format=%(refname)",
        "refs/checkpoint-conversations/",
    ])
    .lines()
    .map(str::to_string)
    .collect()
}

#[test]
fn save_keeps_a_file_as_the_conversation_and_show_prints_it() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    repo.write("a.txt", "changed\n");
    let transcript = repo.path().parent().unwrap().join("chat.txt");
    fs::write(&transcript, "user: rename it\nassistant: done\n").unwrap();
    let id = repo.save(&["--conversation", transcript.to_str().unwrap()]);

    // The snapshot is untouched by it.
    let tree = repo.git(&["rev-parse", &format!("refs/checkpoints/{id}^{{tree}}")]);
    assert_eq!(tree.trim(), repo.oracle_tree());
    assert_eq!(
        conversation_refs(&repo),
        [format!("refs/checkpoint-conversations/{id}")]
    );
    let shown = repo.cp(&["show", &id, "--conversation"]).ok();
    assert_eq!(shown.stdout, "user: rename it\nassistant: done\n");
    let json = repo.cp(&["show", &id, "--conversation", "--json"]).ok();
    assert_eq!(json_eval(&json.stdout, "v['format']"), "text");
    assert_eq!(json_eval(&json.stdout, "v['bytes']"), "32");
    assert_eq!(
        json_eval(
            &json.stdout,
            "v['content'] == 'user: rename it\\nassistant: done\\n'"
        ),
        "true"
    );
    let note = repo.note_json(&id);
    assert_eq!(note.get("conversation.format"), "text");
    assert!(
        !repo.note(&id).contains("chat.txt"),
        "the note names no local path"
    );

    // A JSON conversation on stdin is kept as JSON.
    let chat = r#"[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]"#;
    let second = repo
        .cp_stdin(
            repo.path(),
            |_| {},
            &["save", "-q", "--conversation", "-"],
            chat.as_bytes(),
        )
        .ok()
        .stdout
        .trim()
        .to_string();
    assert_ne!(
        second, id,
        "a conversation given is recorded even when nothing changed"
    );
    let json = repo.cp(&["show", &second, "--conversation", "--json"]).ok();
    assert_eq!(
        json_eval(&json.stdout, "v['content'][1]['content']"),
        "hello"
    );

    repo.git(&["fsck", "--strict"]);
    repo.git(&["gc", "-q", "--prune=now"]);
    assert_eq!(
        repo.cp(&["show", &id, "--conversation"]).ok().stdout,
        "user: rename it\nassistant: done\n"
    );
}

#[test]
fn a_checkpoint_without_one_says_so_and_bad_files_are_refused() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let id = repo.save(&[]);
    let out = repo.cp(&["show", &id, "--conversation"]).fails_with(1);
    assert!(
        out.stderr.contains("no conversation was kept"),
        "{}",
        out.stderr
    );

    let missing = repo.path().join("no-such.jsonl");
    let out = repo
        .cp(&["save", "--conversation", missing.to_str().unwrap()])
        .fails_with(1);
    assert!(out.stderr.contains("does not exist"), "{}", out.stderr);
    let out = repo.cp(&["save", "--conversation", "."]).fails_with(1);
    assert!(out.stderr.contains("not a regular file"), "{}", out.stderr);
    assert!(conversation_refs(&repo).is_empty());
}

#[test]
fn a_hook_keeps_the_transcript_as_it_was_and_each_save_costs_what_was_appended() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let transcript = repo.path().parent().unwrap().join("session.jsonl");
    let mut text = String::new();
    // About 1 MB of conversation before the first checkpoint.
    for n in 0..4000 {
        text += &claude_line(
            n,
            if n % 2 == 0 { "user" } else { "assistant" },
            &"x".repeat(200),
        );
    }
    let mut states = Vec::new();
    for step in 0..12 {
        text += &claude_line(10_000 + step, "user", &format!("step {step}"));
        fs::write(&transcript, &text).unwrap();
        repo.write("a.txt", &format!("step {step}\n"));
        repo.cp_stdin(
            repo.path(),
            |_| {},
            &["save", "--from-hook"],
            pre_tool_use(&repo, transcript.to_str().unwrap()).as_bytes(),
        )
        .ok();
        states.push(text.clone());
    }
    let json = repo.cp(&["list", "--json"]).ok().stdout;
    let ids: Vec<String> = json_eval(&json, "' '.join(c['id'] for c in v)")
        .split(' ')
        .map(str::to_string)
        .collect();
    assert_eq!(ids.len(), 12);
    // Each checkpoint holds the transcript as it was at its save (newest first).
    for (id, state) in ids.iter().zip(states.iter().rev()) {
        assert_eq!(&repo.cp(&["show", id, "--conversation"]).ok().stdout, state);
        assert_eq!(repo.note_json(id).get("conversation.format"), "claude-code");
    }
    // Stored once: the loose objects of 12 saves of a 1 MB transcript weigh far less than 12
    // copies (each save adds its last 64 KiB piece and what was appended).
    repo.git(&["gc", "-q"]);
    let packed: u64 = repo
        .git(&["count-objects", "-v"])
        .lines()
        .find_map(|l| l.strip_prefix("size-pack: "))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let copies = 12 * text.len() as u64 / 1024;
    assert!(
        packed * 4 < copies,
        "{packed} KiB packed for {copies} KiB of copies"
    );
    // `du` counts them: more than one transcript, far less than twelve.
    let du = repo.cp(&["du", "--json"]).ok().stdout;
    let bytes: u64 = json_eval(&du, "v['conversations']['bytes']")
        .parse()
        .unwrap();
    assert!(bytes >= text.len() as u64, "{bytes}");
    assert!(
        bytes < 3 * text.len() as u64,
        "{bytes} for a {} byte transcript",
        text.len()
    );
    assert!(
        repo.cp(&["du"])
            .ok()
            .stdout
            .contains("of which conversations")
    );
    repo.git(&["fsck", "--strict"]);
}

#[test]
fn a_hook_never_fails_for_its_transcript_and_the_note_says_why() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let dir = repo.path().parent().unwrap().to_path_buf();
    let real = dir.join("real.jsonl");
    fs::write(&real, claude_line(1, "user", "hi")).unwrap();
    let link = dir.join("link.jsonl");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let huge = dir.join("huge.jsonl");
    fs::File::create(&huge).unwrap().set_len(65 << 20).unwrap();
    let cases: [(&Path, &str); 4] = [
        (&dir.join("missing.jsonl"), "does not exist"),
        (&link, "symbolic link"),
        (&huge, "more than"),
        (&dir, "not a regular file"),
    ];
    for (n, (path, why)) in cases.iter().enumerate() {
        repo.write("a.txt", &format!("case {n}\n"));
        let out = repo
            .cp_stdin(
                repo.path(),
                |_| {},
                &["save", "--from-hook"],
                pre_tool_use(&repo, path.to_str().unwrap()).as_bytes(),
            )
            .ok();
        assert_eq!(out.stdout, "");
        let id = repo.cp(&["show", "@", "--json"]).ok().stdout;
        let id = json_eval(&id, "v['id']");
        let note = repo.note_json(&id);
        assert!(
            note.get("conversation.skipped").contains(why),
            "{path:?}: {}",
            note.get("conversation.skipped")
        );
        let shown = repo.cp(&["show", &id, "--conversation"]).fails_with(1);
        assert!(shown.stderr.contains(why), "{}", shown.stderr);
    }
    assert!(conversation_refs(&repo).is_empty());
}

#[test]
fn checkpoint_conversation_false_turns_the_hooks_capture_off() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    repo.git(&["config", "checkpoint.conversation", "false"]);
    let transcript = repo.path().parent().unwrap().join("t.jsonl");
    fs::write(&transcript, claude_line(1, "user", "hi")).unwrap();
    repo.write("a.txt", "b\n");
    repo.cp_stdin(
        repo.path(),
        |_| {},
        &["save", "--from-hook"],
        pre_tool_use(&repo, transcript.to_str().unwrap()).as_bytes(),
    )
    .ok();
    assert!(conversation_refs(&repo).is_empty());
    // An explicit one is still kept.
    repo.write("a.txt", "c\n");
    repo.save(&["--conversation", transcript.to_str().unwrap()]);
    assert_eq!(conversation_refs(&repo).len(), 1);
}

#[test]
fn drop_and_prune_take_the_conversation_with_the_checkpoint() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    repo.git(&["config", "checkpoint.minAge", "0"]);
    let chat = repo.path().parent().unwrap().join("chat.txt");
    fs::write(&chat, "hello\n").unwrap();
    let mut ids = Vec::new();
    for n in 0..3 {
        repo.write("a.txt", &format!("{n}\n"));
        ids.push(repo.save(&["--conversation", chat.to_str().unwrap()]));
    }
    repo.cp(&["drop", &ids[0]]).ok();
    assert_eq!(conversation_refs(&repo).len(), 2);
    repo.cp(&["prune", "--keep", "1"]).ok();
    assert_eq!(
        conversation_refs(&repo),
        [format!("refs/checkpoint-conversations/{}", ids[2])]
    );
    repo.git(&["fsck", "--strict"]);
}

#[test]
fn push_sends_conversations_only_when_asked() {
    let remote = Repo::init(&["--bare"]);
    let url = remote.path().to_str().unwrap().to_string();
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    repo.git(&["remote", "add", "origin", &url]);
    repo.git(&["push", "-q", "origin", "main"]);
    let chat = repo.path().parent().unwrap().join("chat.txt");
    fs::write(&chat, "a private conversation\n").unwrap();
    repo.write("a.txt", "b\n");
    let id = repo.save(&["--conversation", chat.to_str().unwrap()]);

    let out = repo.cp(&["push", "origin"]).ok();
    assert!(out.stderr.contains("--with-conversation"), "{}", out.stderr);
    assert!(conversation_refs(&remote).is_empty());
    assert!(
        !remote
            .git(&["for-each-ref", "refs/checkpoints/"])
            .is_empty()
    );
    // Nothing of it reached the remote: no object holds its text.
    let all = remote.git(&["cat-file", "--batch-all-objects", "--batch"]);
    assert!(!all.contains("a private conversation"));

    let out = repo.cp(&["push", "origin", "--with-conversation"]).ok();
    assert!(
        out.stdout
            .contains("pushed the conversations of 1 checkpoint"),
        "{}",
        out.stdout
    );
    assert_eq!(
        conversation_refs(&remote),
        [format!("refs/checkpoint-conversations/{id}")]
    );
    remote.git(&["fsck", "--strict"]);
}
