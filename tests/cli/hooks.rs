//! Agent hooks and sessions: `save --from-hook` fed with the JSON Claude Code passes to its
//! hooks, `hooks claude-code [--install]`, `save --session`, `list --session` and the
//! `session:<ID>` name.

use std::fs;
use std::path::Path;

use crate::common::{Json, Repo, Run, json_eval, run_hook_command};

const SESSION: &str = "3f1c9a52-7d0e-4b8a-9c61-2e5f0d4a7b13";

/// What Claude Code passes on stdin to a `PreToolUse` hook before its `Write` tool.
fn pre_tool_use_write(repo: &Repo, rel: &str) -> String {
    let cwd = repo.path().display();
    format!(
        r#"{{"session_id":"{SESSION}","transcript_path":"{cwd}/../t.jsonl","cwd":"{cwd}","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"{cwd}/{rel}","content":"new content\n"}}}}"#
    )
}

/// … before its `Bash` tool.
fn pre_tool_use_bash(repo: &Repo, command: &str) -> String {
    let cwd = repo.path().display();
    format!(
        r#"{{"session_id":"{SESSION}","transcript_path":"/t.jsonl","cwd":"{cwd}","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"{command}","description":"run it"}}}}"#
    )
}

/// … to a `SessionStart` hook.
fn session_start(repo: &Repo, session: &str) -> String {
    let cwd = repo.path().display();
    format!(
        r#"{{"session_id":"{session}","transcript_path":"/t.jsonl","cwd":"{cwd}","hook_event_name":"SessionStart","source":"startup"}}"#
    )
}

/// `git checkpoint save --from-hook` with `input` on stdin, run from `dir`.
fn hook_in(repo: &Repo, dir: &Path, input: &str) -> Run {
    repo.cp_stdin(dir, |_| {}, &["save", "--from-hook"], input.as_bytes())
}

/// … from the top of the working tree; it must succeed silently.
#[track_caller]
fn hook(repo: &Repo, input: &str) -> Run {
    let out = hook_in(repo, repo.path(), input).ok();
    assert_eq!(out.stdout, "", "a hook prints nothing on stdout");
    out
}

#[test]
fn a_pre_tool_use_hook_saves_an_auto_checkpoint_with_tool_session_and_paths() {
    let repo = Repo::with_commit(&[("src/a.rs", "old\n")]);
    repo.write("src/a.rs", "edited by the user\n");
    repo.write("notes.txt", "untracked\n");
    let before = repo.fingerprint();
    let out = hook(&repo, &pre_tool_use_write(&repo, "src/a.rs"));
    assert_eq!(out.stderr, "", "quiet");
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 1);
    let id = &ids[0];
    assert_eq!(repo.checkpoint_tree(id), repo.oracle_tree());
    assert_eq!(
        repo.fingerprint(),
        before,
        "index, HEAD, branches, stash untouched"
    );
    let note = repo.note_json(id);
    assert_eq!(note.get("kind"), "auto");
    assert_eq!(note.get("session"), SESSION);
    assert_eq!(note.get("message"), "before Write src/a.rs");
    assert_eq!(note.get("meta.tool"), "Write");
    assert_eq!(note.get("meta.session_id"), SESSION);
    assert_eq!(note.get("meta.event"), "PreToolUse");
    assert_eq!(note.get("meta.paths"), r#"["src/a.rs"]"#);
    assert!(
        !repo.note(id).contains("new content"),
        "the tool's content is not copied into the note"
    );
    assert!(
        repo.trailers(id)
            .contains(&format!("Checkpoint-Session: {SESSION}"))
    );
    repo.fsck();
}

#[test]
fn hooks_are_deduplicated_so_read_only_tool_calls_add_nothing() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    hook(&repo, &pre_tool_use_bash(&repo, "make"));
    assert_eq!(repo.checkpoint_ids().len(), 1);
    // `ls`, `cat`, a build that changes nothing: the same state, no new checkpoint.
    for command in ["ls", "cat a", "grep x a"] {
        hook(&repo, &pre_tool_use_bash(&repo, command));
    }
    assert_eq!(repo.checkpoint_ids().len(), 1);
    // The tool changed a file: the next tool call's hook saves that state.
    repo.write("a", "2\n");
    hook(&repo, &pre_tool_use_write(&repo, "b"));
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 2);
    assert_eq!(repo.checkpoint_tree(&ids[1]), repo.oracle_tree());
}

#[test]
fn a_session_has_a_first_checkpoint_that_diff_and_restore_can_name() {
    let repo = Repo::with_commit(&[("a", "1\n"), ("b", "1\n")]);
    repo.write("wip", "the user's own work\n");
    // The user saved just before starting the agent: the same state.
    let manual = repo.save(&["-q", "-m", "before the agent"]);
    let before_tree = repo.checkpoint_tree(&manual);
    hook(&repo, &session_start(&repo, SESSION));
    let ids = repo.checkpoint_ids();
    assert_eq!(
        ids.len(),
        2,
        "a session's start is saved even when nothing changed"
    );
    let start = ids[1].clone();
    assert_eq!(repo.note_json(&start).get("kind"), "session");
    assert_eq!(
        repo.note_json(&start).get("message"),
        "session start (startup)"
    );
    // The agent works: hooks before each tool call, changes after each.
    hook(&repo, &pre_tool_use_write(&repo, "a"));
    assert_eq!(
        repo.checkpoint_ids().len(),
        2,
        "nothing changed since the start"
    );
    repo.write("a", "changed by the agent\n");
    hook(&repo, &pre_tool_use_bash(&repo, "rm b"));
    repo.remove("b");
    repo.write("new.rs", "made by the agent\n");
    let after_tree = repo.oracle_tree();

    // session:<ID>, a prefix of it, and session:@ name the session's start.
    for spec in [
        format!("session:{SESSION}"),
        "session:3f1c".to_string(),
        "session:@".to_string(),
    ] {
        let out = repo.cp(&["show", &spec, "--json"]).ok();
        assert_eq!(Json::parse(&out.stdout).get("id"), start, "{spec}");
    }
    // Everything the session changed, as git sees it.
    let diff = repo.cp(&["diff", "session:@", "--name-status"]).ok();
    assert_eq!(diff.stdout, "M\ta\nD\tb\nA\tnew.rs\n");
    // list --session shows the session's checkpoints only.
    let listed = repo.cp(&["list", "--session", SESSION, "--json"]).ok();
    let listed_ids = json_eval(&listed.stdout, "' '.join(c['id'] for c in v)");
    assert_eq!(
        listed_ids,
        repo.checkpoint_ids()[1..]
            .iter()
            .rev()
            .cloned()
            .collect::<Vec<_>>()
            .join(" ")
    );
    // Undo the whole session in one command; the user's own untracked work is still there.
    let out = repo.cp(&["restore", "session:@"]).ok();
    assert_eq!(repo.oracle_tree(), before_tree);
    assert_eq!(repo.read("wip"), "the user's own work\n");
    // … and that is undoable too.
    let undo = out
        .stderr
        .lines()
        .find_map(|l| l.split("undo with: ").nth(1))
        .unwrap_or_else(|| panic!("an undo command: {}", out.stderr))
        .to_string();
    let args: Vec<&str> = undo.split_whitespace().skip(2).collect();
    repo.cp(&args).ok();
    assert_eq!(repo.oracle_tree(), after_tree);
}

#[test]
fn save_session_and_list_session_by_hand() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let first = repo.save(&["-q", "--session", "run-42"]);
    repo.write("a", "2\n");
    let second = repo.save(&["-q", "--session", "run-42"]);
    repo.write("a", "3\n");
    let other = repo.save(&["-q", "--session", "run-7"]);
    assert_eq!(repo.note_json(&first).get("session"), "run-42");
    let show = repo.cp(&["show", &second]).ok();
    assert!(show.stdout.contains("session   run-42"), "{}", show.stdout);
    let listed = repo.cp(&["list", "--session", "run-4"]).ok();
    let ids: Vec<&str> = listed
        .stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(ids, [second.as_str(), first.as_str()]);
    // An ambiguous prefix lists the sessions it could be.
    let out = repo.cp(&["show", "session:run-"]).fails_with(1);
    assert!(
        out.stderr.contains("session:run-42") && out.stderr.contains("session:run-7"),
        "{}",
        out.stderr
    );
    let out = repo.cp(&["list", "--session", "nope"]).fails_with(1);
    out.assert_one_error_line();
    assert_eq!(
        Json::parse(&repo.cp(&["show", "session:run-7", "--json"]).ok().stdout).get("id"),
        other
    );
    // A session id is one token; a name cannot pretend to be a session.
    repo.cp(&["save", "--session", "a b"]).fails_with(1);
    repo.cp(&["save", "--name", "session:x"]).fails_with(1);
    // A save without a session is deduplicated against any newest checkpoint; one with
    // another session is not.
    let same = repo.cp(&["save", "-q"]).ok().id();
    assert_eq!(same, other);
    let again = repo.cp(&["save", "-q", "--session", "run-8"]).ok().id();
    assert_ne!(again, other);
}

#[test]
fn a_failing_hook_never_blocks_the_agent_unless_configured_to() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    // Where nothing can be saved (a home directory, in no repository): a warning, exit 0,
    // nothing made.
    let outside = repo.home().to_path_buf();
    let input = r#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/nonexistent/dir"}"#;
    let out = hook_in(&repo, &outside, input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.starts_with("warning: "), "{}", out.stderr);
    out.assert_no_panic();
    // A flag this version does not know (a newer settings file): still exit 0.
    let out = repo.cp_stdin(
        repo.path(),
        |_| {},
        &["save", "--from-hook", "--flag-from-the-future"],
        b"{}",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.starts_with("warning: "), "{}", out.stderr);
    // Input that is not JSON: the checkpoint is still made.
    let out = hook_in(&repo, repo.path(), "not json at all");
    assert_eq!(out.code, 0);
    assert!(out.stderr.contains("not JSON"), "{}", out.stderr);
    assert_eq!(repo.checkpoint_ids().len(), 1);
    // A save that fails (an invalid kind) is a warning by default…
    repo.write("a", "2\n");
    let fail = |repo: &Repo| {
        repo.cp_stdin(
            repo.path(),
            |_| {},
            &["save", "--from-hook", "--kind", "Not A Kind"],
            pre_tool_use_bash(repo, "x").as_bytes(),
        )
    };
    let out = fail(&repo);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.starts_with("warning: "), "{}", out.stderr);
    // …and exit 2 (Claude Code then refuses the tool call) with checkpoint.hookFailure=block.
    repo.git(&["config", "checkpoint.hookFailure", "block"]);
    let out = fail(&repo).fails_with(2);
    out.assert_one_error_line();
    assert_eq!(repo.checkpoint_ids().len(), 1);
}

#[test]
fn install_merges_into_settings_once_and_uninstall_takes_it_out() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let settings = repo.path().join(".claude/settings.json");
    fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let original = r#"{
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}
    ]
  }
}
"#;
    fs::write(&settings, original).unwrap();
    // Printed without --install: the same hooks, as JSON.
    let printed = repo.cp(&["hooks", "claude-code"]).ok().stdout;
    let printed_command = json_eval(
        &printed,
        "v['hooks']['PreToolUse'][0]['hooks'][0]['command']",
    );

    let out = repo.cp(&["hooks", "claude-code", "--install"]).ok();
    assert!(out.stderr.contains("settings.json.bak"), "{}", out.stderr);
    assert_eq!(
        fs::read_to_string(settings.with_extension("json.bak")).unwrap(),
        original,
        "the old file is backed up"
    );
    let installed = fs::read_to_string(&settings).unwrap();
    let check = |text: &str, expr: &str| json_eval(text, expr);
    assert_eq!(
        check(&installed, "v['permissions']"),
        r#"{"allow": ["Bash(ls:*)"]}"#
    );
    assert_eq!(
        check(
            &installed,
            "[h['command'] for g in v['hooks']['PreToolUse'] for h in g['hooks']]"
        ),
        format!(r#"["echo mine", "{printed_command}"]"#)
    );
    assert_eq!(
        check(
            &installed,
            "[g.get('matcher') for g in v['hooks']['PreToolUse']]"
        ),
        r#"["Bash", "Edit|MultiEdit|Write|NotebookEdit|Bash|PowerShell"]"#
    );
    assert_eq!(
        check(
            &installed,
            "[h['command'] for g in v['hooks']['SessionStart'] for h in g['hooks']]"
        ),
        format!(r#"["{printed_command}"]"#)
    );

    // Twice: one copy of the hook, the file unchanged.
    let out = repo
        .cp(&["hooks", "claude-code", "--install", "--project"])
        .ok();
    assert!(out.stderr.contains("already"), "{}", out.stderr);
    assert_eq!(fs::read_to_string(&settings).unwrap(), installed);

    // The installed command works as Claude Code runs it.
    let command = check(
        &installed,
        "v['hooks']['PreToolUse'][1]['hooks'][0]['command']",
    );
    let out = run_hook_command(
        &repo,
        repo.path(),
        &command,
        &pre_tool_use_write(&repo, "a"),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 1);
    assert_eq!(repo.note_json(&ids[0]).get("meta.tool"), "Write");
    assert_eq!(repo.checkpoint_tree(&ids[0]), repo.oracle_tree());

    // Uninstall: the user's own content, as it was.
    repo.cp(&["hooks", "claude-code", "--uninstall"]).ok();
    let left = fs::read_to_string(&settings).unwrap();
    assert_eq!(
        json_eval(&format!("[{left},{original}]"), "v[0] == v[1]"),
        "true",
        "{left}"
    );
}

#[test]
fn install_in_local_and_user_settings_and_refuse_a_broken_file() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    // --local: a new file, no backup.
    let out = repo
        .cp(&["hooks", "claude-code", "--install", "--local"])
        .ok();
    let local = repo.path().join(".claude/settings.local.json");
    assert!(local.exists(), "{}", out.stderr);
    assert!(!local.with_extension("json.bak").exists());
    // From a subdirectory, the project is still the top of the working tree.
    fs::create_dir_all(repo.path().join("sub/dir")).unwrap();
    repo.cp_in(
        "sub/dir",
        &["hooks", "claude-code", "--install", "--project"],
    )
    .ok();
    assert!(repo.path().join(".claude/settings.json").exists());
    // --user: $CLAUDE_CONFIG_DIR, else ~/.claude.
    repo.cp(&["hooks", "claude-code", "--install", "--user"])
        .ok();
    let user = repo.home().join(".claude/settings.json");
    assert!(user.exists());
    let config_dir = repo.scratch().join("claude-config");
    repo.cp_with(
        |cmd| {
            cmd.env("CLAUDE_CONFIG_DIR", &config_dir);
        },
        &["hooks", "claude-code", "--install", "--user"],
    )
    .ok();
    assert!(config_dir.join("settings.json").exists());
    // A settings file that is not JSON is refused and left alone.
    fs::write(&user, "{ this is not json").unwrap();
    let out = repo
        .cp(&["hooks", "claude-code", "--install", "--user"])
        .fails_with(1);
    out.assert_one_error_line();
    assert_eq!(fs::read_to_string(&user).unwrap(), "{ this is not json");
    // Unknown agents are usage errors.
    let out = repo.cp(&["hooks", "no-such-agent"]);
    assert_eq!(out.code, 2);
}

#[test]
fn install_keeps_a_symlinked_settings_file_a_symlink_and_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let dotfiles = repo.scratch().join("dotfiles");
    fs::create_dir_all(&dotfiles).unwrap();
    let real = dotfiles.join("claude-settings.json");
    fs::write(&real, "{\"model\": \"x\"}\n").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
    let link = repo.home().join(".claude/settings.json");
    fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();

    repo.cp(&["hooks", "claude-code", "--install", "--user"])
        .ok();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = fs::read_to_string(&real).unwrap();
    assert!(
        text.contains("--from-hook") && text.contains("\"model\""),
        "{text}"
    );
    assert_eq!(
        fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn a_hooks_oversized_fields_are_left_out_of_the_note() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let long = format!("/{}", "p".repeat(8000));
    let input = format!(
        r#"{{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"{long}"}}}}"#
    );
    hook(&repo, &input);
    let ids = repo.checkpoint_ids();
    assert_eq!(ids.len(), 1);
    assert!(repo.note(&ids[0]).len() < 4096);
}

/// `--install` and `--uninstall` keep the rest of the user's file as it is, numbers included:
/// an integer beyond 64 bits, `1.10`, `1E+3`, `-0` and `1e-7` are written back exactly as they
/// were (not as floats), and the file's indentation is kept, for every agent whose
/// configuration is JSON (the hooks' files and the MCP servers' alike).
#[test]
fn install_and_uninstall_keep_the_users_numbers_and_indentation() {
    let numbers = [
        "123456789012345678901234567890",
        "1.10",
        "1E+3",
        "-0",
        "1e-7",
        "2.50",
        "-98765432109876543210",
    ];
    let original = format!(
        "{{\n    \"big\": {},\n    \"ratio\": {},\n    \"thousand\": {},\n    \"zero\": {},\n    \"tiny\": [{}, {}],\n    \"nested\": {{\"neg\": {}, \"plain\": 7}}\n}}\n",
        numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5], numbers[6]
    );
    for (file, install, uninstall) in [
        (
            ".claude/settings.json",
            vec!["hooks", "claude-code", "--install"],
            vec!["hooks", "claude-code", "--uninstall"],
        ),
        (
            ".gemini/settings.json",
            vec!["hooks", "gemini", "--install"],
            vec!["hooks", "gemini", "--uninstall"],
        ),
        (
            ".cursor/mcp.json",
            vec!["mcp", "--install", "cursor"],
            vec!["mcp", "--uninstall", "cursor"],
        ),
    ] {
        let repo = Repo::with_commit(&[("a", "1\n")]);
        let path = repo.path().join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, &original).unwrap();
        repo.cp(&install).ok();
        let installed = fs::read_to_string(&path).unwrap();
        for n in numbers {
            assert!(
                installed.contains(n),
                "{file}: `{n}` was rewritten:\n{installed}"
            );
        }
        assert!(installed.contains("\"plain\": 7"), "{installed}");
        assert!(installed.contains("\"zero\": -0,"), "{installed}");
        assert!(
            installed.lines().nth(1).unwrap().starts_with("    \""),
            "{installed}"
        );
        assert!(!installed.contains('\u{f8ff}'), "{installed}");
        repo.cp(&uninstall).ok();
        let after = fs::read_to_string(&path).unwrap();
        for n in numbers {
            assert!(
                after.contains(n),
                "{file}: `{n}` was rewritten by the uninstall:\n{after}"
            );
        }
        assert_eq!(
            json_eval(&after, "v"),
            json_eval(&original, "v"),
            "{file}: the user's content, as it was"
        );
    }
}

/// Every file and directory of the project, `.git` aside.
fn project_entries(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            out.push(path.strip_prefix(root).unwrap().display().to_string());
            if entry.file_type().unwrap().is_dir() {
                dirs.push(path);
            }
        }
    }
    out.sort();
    out
}

/// An install into a project that had nothing of the agent's, then an uninstall, leaves the
/// project exactly as it was: no file, no `.bak`, and no empty directory (`.claude/`,
/// `.github/hooks/`, `.clinerules/hooks/`, …), for every agent's hooks and MCP registration;
/// Cline's MCP settings live in the user's home only (`~/.cline/data/settings/`), which is left
/// as it was too.
#[test]
fn uninstall_leaves_no_empty_directory_behind() {
    let agents = [
        "claude-code",
        "gemini",
        "codex",
        "cursor",
        "copilot",
        "cline",
        "opencode",
    ];
    for agent in agents {
        for (install, uninstall) in [
            (
                vec!["hooks", agent, "--install"],
                vec!["hooks", agent, "--uninstall"],
            ),
            (
                vec!["mcp", "--install", agent],
                vec!["mcp", "--uninstall", agent],
            ),
        ] {
            let repo = Repo::with_commit(&[("a", "1\n")]);
            let entries = || {
                let mut all = project_entries(repo.path());
                all.extend(
                    project_entries(repo.home())
                        .into_iter()
                        .map(|e| format!("~/{e}")),
                );
                all
            };
            let before = entries();
            repo.cp(&install).ok();
            assert_ne!(entries(), before, "{install:?} installed nothing");
            repo.cp(&uninstall).ok();
            assert_eq!(entries(), before, "{uninstall:?}");
        }
    }
}
