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

/// A Claude Code hook's save before a tool call, naming `transcript`; it must succeed.
fn hook_save(repo: &Repo, transcript: &Path) {
    repo.cp_stdin(
        repo.path(),
        |_| {},
        &["save", "--from-hook"],
        pre_tool_use(repo, transcript.to_str().unwrap()).as_bytes(),
    )
    .ok();
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
        hook_save(&repo, &transcript);
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
        let json = repo
            .cp(&["show", id, "--conversation", "--json"])
            .ok()
            .stdout;
        let content = json_eval(&json, "v['content']");
        assert_eq!(content.trim_end(), state.trim_end());
        assert_eq!(repo.note_json(id).get("conversation.format"), "claude-code");
    }
    // Read as turns: every prompt of the newest, in order.
    let shown = repo.cp(&["show", &ids[0], "--conversation"]).ok().stdout;
    assert!(
        shown.starts_with("user: "),
        "{}",
        &shown[..200.min(shown.len())]
    );
    assert!(
        shown.trim_end().ends_with("user: step 11"),
        "{}",
        &shown[shown.len().saturating_sub(200)..]
    );
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
    let garbage = dir.join("garbage.jsonl");
    fs::write(&garbage, b"\x00\x01 this is no transcript \xff\n").unwrap();
    let empty = dir.join("empty.jsonl");
    fs::write(&empty, b"").unwrap();
    let cases: [(&Path, &str); 6] = [
        (&dir.join("missing.jsonl"), "does not exist"),
        (&link, "symbolic link"),
        (&huge, "more than"),
        (&dir, "not a regular file"),
        (&garbage, "not in claude-code's format"),
        (&empty, "is empty"),
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
    hook_save(&repo, &transcript);
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

    // A checkpoint ref deleted by hand leaves its conversation behind: a prune removes it,
    // and says so; one whose checkpoint is there stays.
    repo.write("a.txt", "3\n");
    let kept = repo.save(&["--conversation", chat.to_str().unwrap(), "--pin"]);
    repo.git(&["update-ref", "-d", &format!("refs/checkpoints/{}", ids[2])]);
    let out = repo.cp(&["prune"]).ok();
    assert!(
        out.stderr
            .contains("removed 1 conversation whose checkpoint is gone"),
        "{}",
        out.stderr
    );
    assert_eq!(
        conversation_refs(&repo),
        [format!("refs/checkpoint-conversations/{kept}")]
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

#[test]
fn restore_conversation_writes_a_new_claude_session_ending_at_the_checkpoint() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let project = repo.home().join(".claude/projects/-work-app");
    fs::create_dir_all(&project).unwrap();
    let transcript = project.join(format!("{SESSION}.jsonl"));
    let mut text = claude_line(0, "user", "start");
    fs::write(&transcript, &text).unwrap();
    // Turn 1: the agent edits, the hook saves before its tool call.
    text += &claude_line(1, "assistant", "editing a.txt");
    fs::write(&transcript, &text).unwrap();
    repo.write("a.txt", "turn 1\n");
    hook_save(&repo, &transcript);
    let at_turn_1 = text.clone();
    let json = repo.cp(&["show", "@", "--json"]).ok().stdout;
    let id = json_eval(&json, "v['id']");
    // More turns, more edits.
    for n in 2..5 {
        text += &claude_line(n, "user", &format!("turn {n}"));
        fs::write(&transcript, &text).unwrap();
        repo.write("a.txt", &format!("turn {n}\n"));
        hook_save(&repo, &transcript);
    }
    let original = fs::read(&transcript).unwrap();

    let out = repo.cp(&["restore", &id, "--conversation"]).ok();
    assert_eq!(repo.read("a.txt"), "turn 1\n");
    let resume = out
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("resume it with: claude --resume "))
        .unwrap_or_else(|| panic!("no resume command: {}", out.stdout))
        .to_string();
    assert_ne!(resume, SESSION);
    let written = project.join(format!("{resume}.jsonl"));
    let new = fs::read_to_string(&written).unwrap();
    assert_eq!(new, at_turn_1.replace(SESSION, &resume));
    // The original transcript is untouched.
    assert_eq!(fs::read(&transcript).unwrap(), original);

    // Undo takes back the files; the new session stays.
    repo.cp(&["undo"]).ok();
    assert_eq!(repo.read("a.txt"), "turn 4\n");
    assert!(written.exists());
}

#[test]
fn restore_conversation_exports_what_no_agent_can_resume_and_refuses_without_one() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let chat = repo.scratch().join("chat.txt");
    fs::write(&chat, "user: hi\nassistant: hello\n").unwrap();
    repo.write("a.txt", "b\n");
    let id = repo.save(&["--conversation", chat.to_str().unwrap()]);
    repo.write("a.txt", "c\n");
    let out = repo.cp(&["restore", &id, "--conversation"]).ok();
    assert_eq!(repo.read("a.txt"), "b\n");
    let exported = repo
        .home()
        .join(".local/share/git-checkpoint/conversations")
        .join(format!("{id}.txt"));
    assert!(
        out.stdout.contains("exported the conversation"),
        "{}",
        out.stdout
    );
    assert_eq!(
        fs::read_to_string(&exported).unwrap(),
        "user: hi\nassistant: hello\n"
    );
    // Again: a new file, never an overwrite.
    repo.cp(&["restore", &id, "--conversation"]).ok();
    assert!(exported.with_file_name(format!("{id}-1.txt")).exists());

    // Without a conversation, nothing changes.
    repo.write("a.txt", "d\n");
    let plain = repo.save(&["-m", "no conversation"]);
    repo.write("a.txt", "e\n");
    let out = repo
        .cp(&["restore", &plain, "--conversation"])
        .fails_with(1);
    assert!(
        out.stderr.contains("no conversation was kept"),
        "{}",
        out.stderr
    );
    assert_eq!(repo.read("a.txt"), "e\n");
}

/// One agent's round trip, on its fixture (tests/fixtures/transcripts, in the agent's real
/// format): save at turn k through the agent's own hook input, more turns, rewind to k.
struct Agent {
    name: &'static str,
    fixture: &'static str,
    /// Where the agent keeps the transcript, below HOME.
    place: &'static str,
    /// The session id inside the fixture.
    session: &'static str,
    /// The hook's input: `{t}` the transcript, `{w}` the working tree.
    hook: &'static str,
    /// How the new session is resumed; `None`: exported to a file instead.
    resume: Option<&'static str>,
}

const AGENTS: &[Agent] = &[
    Agent {
        name: "claude-code",
        fixture: "claude-code/8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31.jsonl",
        place: ".claude/projects/-work-greeter/8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31.jsonl",
        session: "8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31",
        hook: r#"{"session_id":"8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31","transcript_path":"{t}","cwd":"{w}","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_use_id":"toolu_01"}"#,
        resume: Some("claude --resume "),
    },
    Agent {
        name: "codex",
        fixture: "codex/rollout-2026-08-20T10-02-11-0198c4a2-6f3b-7d21-a8e4-3c5b9f0d2e17.jsonl",
        place: ".codex/sessions/2026/08/20/rollout-2026-08-20T10-02-11-0198c4a2-6f3b-7d21-a8e4-3c5b9f0d2e17.jsonl",
        session: "0198c4a2-6f3b-7d21-a8e4-3c5b9f0d2e17",
        hook: r#"{"session_id":"0198c4a2-6f3b-7d21-a8e4-3c5b9f0d2e17","turn_id":"3","transcript_path":"{t}","cwd":"{w}","hook_event_name":"PreToolUse","model":"gpt-5.2-codex","permission_mode":"default","tool_name":"shell","tool_input":{"command":["make"]},"tool_use_id":"call_1"}"#,
        resume: Some("codex resume "),
    },
    Agent {
        name: "gemini",
        fixture: "gemini/session-2026-08-20T07-30-3c1e7f0a.jsonl",
        place: ".gemini/tmp/9f2c4e6a/chats/session-2026-08-20T07-30-3c1e7f0a.jsonl",
        session: "3c1e7f0a-92b4-4d6e-b815-7a2f9c0e4d63",
        hook: r#"{"session_id":"3c1e7f0a-92b4-4d6e-b815-7a2f9c0e4d63","transcript_path":"{t}","cwd":"{w}","hook_event_name":"BeforeTool","timestamp":"2026-08-20T07:31:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"make"}}"#,
        resume: Some("gemini --resume "),
    },
    Agent {
        name: "copilot",
        fixture: "copilot/b0ff98c0-8e01-4b73-bf92-9649b139931b/events.jsonl",
        place: ".copilot/session-state/b0ff98c0-8e01-4b73-bf92-9649b139931b/events.jsonl",
        session: "b0ff98c0-8e01-4b73-bf92-9649b139931b",
        // Copilot CLI's preToolUse input names no transcript: the save finds the session's
        // events under ~/.copilot (cli-hooks-reference.md, "Hook event input payloads").
        hook: r#"{"sessionId":"b0ff98c0-8e01-4b73-bf92-9649b139931b","timestamp":1763910300000,"cwd":"{w}","toolName":"bash","toolArgs":"{\"command\":\"make\"}"}"#,
        resume: Some("copilot --resume="),
    },
    Agent {
        name: "cursor",
        fixture: "cursor/e3a1c5b7-9d2f-4e6a-8b0c-4f7d1a3e5c92.jsonl",
        place: ".cursor/projects/greeter/agent-transcripts/e3a1c5b7-9d2f-4e6a-8b0c-4f7d1a3e5c92.jsonl",
        session: "e3a1c5b7-9d2f-4e6a-8b0c-4f7d1a3e5c92",
        // Cursor's `transcript_path` is often null: the save finds the conversation's file
        // under ~/.cursor/projects/*/agent-transcripts.
        hook: r#"{"conversation_id":"e3a1c5b7-9d2f-4e6a-8b0c-4f7d1a3e5c92","generation_id":"g-1","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"make"},"workspace_roots":["{w}"],"cwd":"{w}","transcript_path":null}"#,
        resume: None,
    },
];

#[test]
fn each_agents_transcript_is_kept_read_and_rewound_to_the_checkpoint() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts");
    for agent in AGENTS {
        let repo = Repo::with_commit(&[("a.txt", "a\n")]);
        let full = fs::read_to_string(fixtures.join(agent.fixture)).unwrap();
        let lines: Vec<&str> = full.split_inclusive('\n').collect();
        let k = lines.len() / 2;
        let at_k: String = lines[..k].concat();
        let transcript = repo.home().join(agent.place);
        fs::create_dir_all(transcript.parent().unwrap()).unwrap();
        fs::write(&transcript, &at_k).unwrap();
        let hook = agent
            .hook
            .replace("{t}", transcript.to_str().unwrap())
            .replace("{w}", repo.path().to_str().unwrap());
        let flag = format!("--from-hook={}", agent.name);
        repo.write("a.txt", "turn k\n");
        repo.cp_stdin(repo.path(), |_| {}, &["save", &flag], hook.as_bytes())
            .ok();
        let json = repo.cp(&["show", "@", "--json"]).ok().stdout;
        let id = json_eval(&json, "v['id']");
        assert_eq!(
            repo.note_json(&id).get("conversation.format"),
            agent.name,
            "{}",
            agent.name
        );
        // Read as turns: at least one prompt.
        let shown = repo
            .cp(&["show", &id, "--conversation", "--json"])
            .ok()
            .stdout;
        assert_eq!(
            json_eval(&shown, "any(t['role'] == 'user' for t in v['turns'])"),
            "true",
            "{}: {shown}",
            agent.name
        );

        // The rest of the session.
        fs::write(&transcript, &full).unwrap();
        repo.write("a.txt", "later\n");
        repo.cp_stdin(repo.path(), |_| {}, &["save", &flag], hook.as_bytes())
            .ok();
        // Shown as text (piped: every turn whole): the edit's tool call with its arguments.
        let text = repo.cp(&["show", "@", "--conversation"]).ok().stdout;
        assert!(
            text.lines()
                .any(|l| l.starts_with("tool call ") && l.contains("greet.py")),
            "{}: {text}",
            agent.name
        );
        let whole = repo
            .cp(&["show", "@", "--conversation", "--json"])
            .ok()
            .stdout;
        let turns: usize = json_eval(&whole, "len(v['turns'])").parse().unwrap();
        let shown = text
            .lines()
            .filter(|l| {
                [
                    "user:",
                    "assistant:",
                    "system:",
                    "tool call ",
                    "tool result",
                ]
                .iter()
                .any(|p| l.starts_with(p))
            })
            .count();
        assert_eq!(shown, turns, "{}: {text}", agent.name);

        let out = repo.cp(&["restore", &id, "--conversation"]).ok();
        assert_eq!(repo.read("a.txt"), "turn k\n", "{}", agent.name);
        assert_eq!(
            fs::read_to_string(&transcript).unwrap(),
            full,
            "{}: the original",
            agent.name
        );
        match agent.resume {
            Some(prefix) => {
                let new_id = out
                    .stdout
                    .lines()
                    .find_map(|l| l.strip_prefix("resume it with: "))
                    .and_then(|l| l.strip_prefix(prefix))
                    .unwrap_or_else(|| panic!("{}: {}", agent.name, out.stdout))
                    .to_string();
                let path = out
                    .stdout
                    .lines()
                    .find_map(|l| {
                        l.split_once(": ")
                            .filter(|(a, _)| a.starts_with("wrote a new"))
                    })
                    .map(|(_, p)| p.to_string())
                    .unwrap_or_else(|| panic!("{}: {}", agent.name, out.stdout));
                let written = fs::read_to_string(&path).unwrap();
                // The transcript as it was at turn k, its session id the new one.
                assert_eq!(
                    written.replace(&new_id, agent.session),
                    at_k,
                    "{}",
                    agent.name
                );
                assert!(written.contains(&new_id), "{}", agent.name);
                assert!(
                    path.starts_with(repo.home().to_str().unwrap()),
                    "{}: {path}",
                    agent.name
                );
                // Undo takes back the files; the new session stays.
                repo.cp(&["undo"]).ok();
                assert_eq!(repo.read("a.txt"), "later\n", "{}", agent.name);
                assert!(Path::new(&path).exists(), "{}", agent.name);
            }
            None => {
                assert!(
                    out.stdout.contains("exported the conversation"),
                    "{}",
                    out.stdout
                );
                let exported = repo
                    .home()
                    .join(".local/share/git-checkpoint/conversations")
                    .join(format!("{id}.jsonl"));
                assert_eq!(
                    fs::read_to_string(exported).unwrap(),
                    at_k,
                    "{}",
                    agent.name
                );
            }
        }
        repo.git(&["fsck", "--strict"]);
    }
}

#[test]
fn a_transcript_given_with_save_conversation_is_exported_never_written_beside_it() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/transcripts/claude-code/8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31.jsonl");
    // A Claude Code transcript kept anywhere: not where Claude Code keeps its sessions.
    let dir = repo.scratch().join("anywhere");
    fs::create_dir_all(&dir).unwrap();
    let given = dir.join("8d0f5c2e-4b1a-4c7e-9a55-2f1e0b6d7c31.jsonl");
    fs::copy(&fixture, &given).unwrap();
    repo.write("a.txt", "b\n");
    let id = repo.save(&["--conversation", given.to_str().unwrap()]);
    assert_eq!(
        repo.note_json(&id).get("conversation.format"),
        "claude-code"
    );
    repo.write("a.txt", "c\n");
    let out = repo.cp(&["restore", &id, "--conversation"]).ok();
    assert_eq!(repo.read("a.txt"), "b\n");
    assert!(
        out.stdout.contains("exported the conversation") && !out.stdout.contains("resume it"),
        "{}",
        out.stdout
    );
    // Nothing was written beside the given file.
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    let exported = repo
        .home()
        .join(".local/share/git-checkpoint/conversations")
        .join(format!("{id}.jsonl"));
    assert_eq!(fs::read(exported).unwrap(), fs::read(&fixture).unwrap());
}

#[test]
fn an_unreadable_transcript_never_fails_the_hook_and_the_note_says_why() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let transcript = repo.scratch().join("locked.jsonl");
    fs::write(&transcript, claude_line(1, "user", "hi")).unwrap();
    repo.write("a.txt", "b\n");
    let input = pre_tool_use(&repo, transcript.to_str().unwrap());
    let Some(out) = repo.run_unprivileged(&["save", "--from-hook"], &transcript, input.as_bytes())
    else {
        return;
    };
    let out = out.ok();
    assert_eq!(out.stdout, "");
    let id = json_eval(&repo.cp(&["show", "@", "--json"]).ok().stdout, "v['id']");
    let why = repo.note_json(&id).get("conversation.skipped");
    assert!(why.contains("cannot be read"), "{why}");
    assert!(conversation_refs(&repo).is_empty());
}
