//! The MCP server through a real MCP client: the official Python SDK (`mcp` 2.3.0 on PyPI,
//! which `.ci/run` installs). Each test runs one client session: `initialize`, `tools/list`,
//! then a plan of `tools/call`s, recording what came back and, at the same moment, what the
//! CLI's `--json` says. Without python3 or the package, the tests are skipped visibly.
//!
//! Also `mcp --install <AGENT>`: each agent's MCP configuration, merged and taken out again.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Json, Repo, Watchdog, bin, json_eval, run_with_env, skipped};
use crate::serve::{agent_hook, numbered};

/// The client. argv: a JSON plan; prints one JSON object: the server's name and protocol
/// version, the tools, and per step what the call returned (and the CLI's output beside it).
/// An argument `"$results.<i>.<key>…"` is what an earlier step returned there (a hunk id
/// that checkpoint_diff gave), as an agent would pass it on.
const CLIENT: &str = r#"
import asyncio, json, os, subprocess, sys
from mcp import ClientSession, StdioServerParameters, MCPError
from mcp.client.stdio import stdio_client

def earlier(value, results):
    if isinstance(value, str) and value.startswith("$results."):
        for key in value[len("$results."):].split("."):
            results = results[int(key)] if isinstance(results, list) else results[key]
        return results
    if isinstance(value, list):
        return [earlier(v, results) for v in value]
    if isinstance(value, dict):
        return {k: earlier(v, results) for k, v in value.items()}
    return value

async def main(plan):
    params = StdioServerParameters(command="git", args=["checkpoint", "mcp"], cwd=os.getcwd(),
                                   env=dict(os.environ))
    out = {"results": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            out["server"] = init.server_info.name
            out["protocol"] = init.protocol_version
            tools = await session.list_tools()
            out["tools"] = {
                t.name: {
                    "read_only": t.annotations.read_only_hint if t.annotations else None,
                    "destructive": t.annotations.destructive_hint if t.annotations else None,
                    "properties": sorted((t.input_schema or {}).get("properties", {})),
                    "required": sorted((t.input_schema or {}).get("required", [])),
                    "additional": (t.input_schema or {}).get("additionalProperties"),
                    "description": t.description or "",
                }
                for t in tools.tools
            }
            for step in plan:
                if step[0] == "write":
                    with open(step[1], "w") as f:
                        f.write(step[2])
                    out["results"].append(None)
                    continue
                _, tool, args, cli = step
                args = earlier(args, out["results"])
                entry = {"args": args}
                try:
                    r = await session.call_tool(tool, args)
                    entry["is_error"] = bool(r.is_error)
                    entry["structured"] = r.structured_content
                    entry["text"] = "".join(getattr(b, "text", "") for b in r.content)
                except MCPError as e:
                    entry["raised"] = str(e)
                    entry["code"] = e.error.code
                    entry["data"] = e.error.data
                if cli:
                    run = subprocess.run(["git", "checkpoint", *cli], capture_output=True, text=True)
                    entry["cli"] = json.loads(run.stdout) if run.returncode == 0 else run.stderr
                entry["a.txt"] = open("a.txt").read() if os.path.exists("a.txt") else None
                out["results"].append(entry)
    print(json.dumps(out))

asyncio.run(main(json.loads(sys.argv[1])))
"#;

/// Why the client cannot run here, if it cannot: python3 or the `mcp` 2.x package missing
/// (1.x names its fields in camelCase).
fn client_missing() -> Option<String> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import importlib.metadata as m, mcp; print(m.version('mcp'))",
        ])
        .output();
    match out {
        Err(_) => Some("python3 is not installed".into()),
        Ok(o) if !o.status.success() => {
            Some("the python package `mcp` is missing (pip install mcp==2.3.0)".into())
        }
        Ok(o) => {
            let version = String::from_utf8_lossy(&o.stdout).trim().to_string();
            (!version.starts_with("2.")).then(|| format!("mcp 2.x is needed, found {version}"))
        }
    }
}

/// Where python looks for packages installed with `pip install --user`, for whoever runs the
/// tests.
fn python_user_base() -> Option<String> {
    let out = std::process::Command::new("python3")
        .args(["-c", "import site; print(site.getuserbase())"])
        .output()
        .ok()?;
    let base = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !base.is_empty()).then_some(base)
}

/// Run the client with `plan` in the repository; `None` when it cannot run here.
fn session(test: &str, repo: &Repo, plan: &str) -> Option<Json> {
    if let Some(why) = client_missing() {
        // CI installs the client: there a missing one is a failure, not a skip.
        if std::env::var_os("GIT_CHECKPOINT_REQUIRE_MCP_CLIENT").is_some() {
            panic!("GIT_CHECKPOINT_REQUIRE_MCP_CLIENT is set, but {why}");
        }
        skipped(test, &why);
        return None;
    }
    let script = repo.scratch().join("client.py");
    fs::write(&script, CLIENT).unwrap();
    // The client runs with the test's own HOME, where python would not find a package that
    // `pip install --user` put under the real one (as CI installs it on a fresh machine).
    let user_base = python_user_base();
    let envs: Vec<(&str, &str)> = user_base
        .iter()
        .map(|base| ("PYTHONUSERBASE", base.as_str()))
        .collect();
    let out = run_with_env(
        repo,
        "python3",
        &[script.to_str().unwrap(), plan],
        repo.path(),
        &envs,
    );
    assert_eq!(out.code, 0, "the client: {}\n{}", out.stderr, out.stdout);
    Some(Json::parse(&out.stdout))
}

#[test]
fn an_mcp_client_lists_the_tools_and_calls_each_one() {
    let repo = Repo::with_commit(&[("a.txt", "1\n"), ("b.txt", "b\n")]);
    repo.write("notes.txt", "the user's own untracked work\n");
    let plan = r#"[
        ["call", "checkpoint_save", {"message": "before the agent", "name": "before-agent", "meta": {"task": "T-1"}}, ["show", "@", "--json"]],
        ["write", "a.txt", "2\n"],
        ["call", "checkpoint_save", {"message": "step 1", "session": "mcp-session-1"}, ["show", "@", "--json"]],
        ["write", "a.txt", "changed by the agent\n"],
        ["call", "checkpoint_list", {}, ["list", "--json"]],
        ["call", "checkpoint_show", {"checkpoint": "before-agent"}, ["show", "before-agent", "--json"]],
        ["call", "checkpoint_diff", {"patch": true}, ["diff", "--json"]],
        ["call", "checkpoint_undo", {}, null],
        ["call", "checkpoint_restore", {"checkpoint": "before-agent", "dry_run": true}, null],
        ["call", "checkpoint_restore", {"checkpoint": "before-agent", "paths": ["a.txt"]}, null],
        ["call", "checkpoint_undo", {}, null]
    ]"#;
    let Some(v) = session(
        "an_mcp_client_lists_the_tools_and_calls_each_one",
        &repo,
        plan,
    ) else {
        return;
    };
    assert_eq!(v.get("server"), "git-checkpoint");
    assert!(v.get("protocol").starts_with("20"), "{}", v.get("protocol"));
    let mut tools = v.keys("tools");
    tools.sort();
    assert_eq!(
        tools,
        [
            "checkpoint_diff",
            "checkpoint_list",
            "checkpoint_restore",
            "checkpoint_revert",
            "checkpoint_save",
            "checkpoint_show",
            "checkpoint_undo"
        ]
    );
    for (tool, read_only, destructive) in [
        ("checkpoint_save", "false", "false"),
        ("checkpoint_list", "true", "false"),
        ("checkpoint_show", "true", "false"),
        ("checkpoint_diff", "true", "false"),
        ("checkpoint_restore", "false", "true"),
        ("checkpoint_undo", "false", "true"),
        ("checkpoint_revert", "false", "true"),
    ] {
        assert_eq!(
            v.get(&format!("tools.{tool}.read_only")),
            read_only,
            "{tool}"
        );
        assert_eq!(
            v.get(&format!("tools.{tool}.destructive")),
            destructive,
            "{tool}"
        );
        assert!(!v.get(&format!("tools.{tool}.description")).is_empty());
    }
    assert_eq!(
        v.get("tools.checkpoint_restore.properties"),
        r#"["checkpoint", "directory", "dry_run", "hunks", "paths"]"#
    );
    assert_eq!(
        v.get("tools.checkpoint_restore.required"),
        r#"["checkpoint"]"#
    );

    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    for i in [0, 2, 4, 5, 6, 7, 8, 9, 10] {
        assert_eq!(r(i, "is_error"), "false", "step {i}: {}", r(i, "text"));
        // The text block carries the same JSON as the structured content.
        assert_eq!(
            json_eval(&r(i, "text"), "v"),
            json_eval(&v.get(&format!("results.{i}.structured")), "v"),
            "step {i}"
        );
    }
    // save, show: exactly what `show --json` prints.
    assert_eq!(r(0, "structured"), r(0, "cli"));
    assert_eq!(r(0, "structured.message"), "before the agent");
    assert_eq!(r(0, "structured.meta.task"), "T-1");
    let before = r(0, "structured.id");
    assert_eq!(r(2, "structured"), r(2, "cli"));
    assert_eq!(r(2, "structured.session"), "mcp-session-1");
    let step1 = r(2, "structured.id");
    assert_eq!(r(5, "structured"), r(5, "cli"));
    assert_eq!(r(5, "structured.id"), before);
    // list: `list --json`'s array, under "checkpoints".
    assert_eq!(r(4, "structured.checkpoints"), r(4, "cli"));
    assert_eq!(r(4, "structured.checkpoints.0.id"), step1);
    // diff: `diff --json`'s files, and the patch.
    assert_eq!(r(6, "structured.files"), r(6, "cli.files"));
    assert_eq!(r(6, "structured.files.0.path"), "a.txt");
    assert_eq!(r(6, "structured.files.0.status"), "M");
    assert!(r(6, "structured.patch").contains("+changed by the agent"));
    // undo: back to the last checkpoint; what it replaced is kept.
    assert_eq!(r(7, "a.txt"), "2\n");
    assert_eq!(r(7, "structured.target"), step1);
    let kept = r(7, "structured.safety");
    assert_eq!(repo.note_json(&kept).get("kind"), "pre-restore");
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{kept}:a.txt")]),
        "changed by the agent"
    );
    // A dry run says what it would write and changes nothing.
    assert_eq!(r(8, "structured.dry_run"), "true");
    assert_eq!(r(8, "structured.write"), r#"["a.txt"]"#);
    assert_eq!(r(8, "a.txt"), "2\n");
    // The restore of one path: a.txt as first saved, and a safety checkpoint of the state before.
    assert_eq!(r(9, "a.txt"), "1\n");
    assert_eq!(r(9, "structured.target"), before);
    let safety = r(9, "structured.safety");
    assert!(repo.checkpoint_ids().contains(&safety));
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{safety}:a.txt")]),
        "2"
    );
    // The restore promise: nothing else touched, and undo brings the state before it back.
    assert_eq!(repo.read("notes.txt"), "the user's own untracked work\n");
    assert_eq!(r(10, "a.txt"), "2\n");
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&safety));
    repo.fsck();
}

/// `checkpoint_revert` takes back one step and keeps what changed since, refuses a conflict
/// naming the file, and `checkpoint_undo` takes the revert back.
#[test]
fn checkpoint_revert_takes_back_one_step_and_keeps_later_work() {
    let repo = Repo::with_commit(&[("a.txt", "1\n2\n3\n4\n5\n")]);
    let plan = r#"[
        ["call", "checkpoint_save", {"name": "start"}, null],
        ["write", "a.txt", "1\nX\n3\n4\n5\n"],
        ["call", "checkpoint_save", {"message": "the agent's step"}, null],
        ["write", "a.txt", "1\nY\n3\n4\n5\n"],
        ["call", "checkpoint_revert", {"from": "start"}, null],
        ["write", "a.txt", "1\nX\n3\n4\nlater\n"],
        ["call", "checkpoint_revert", {"from": "start", "dry_run": true}, ["revert", "start", "--dry-run", "--json"]],
        ["call", "checkpoint_revert", {"from": "start"}, null],
        ["call", "checkpoint_undo", {}, null]
    ]"#;
    let Some(v) = session(
        "checkpoint_revert_takes_back_one_step_and_keeps_later_work",
        &repo,
        plan,
    ) else {
        return;
    };
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    assert_eq!(
        v.get("tools.checkpoint_revert.properties"),
        r#"["agent", "directory", "dry_run", "from", "hunks", "markers", "to"]"#
    );
    // The same line changed since: refused, naming the file, nothing written.
    assert_eq!(r(4, "is_error"), "true");
    assert!(
        r(4, "text").contains("a.txt") && r(4, "text").contains("markers"),
        "{}",
        r(4, "text")
    );
    assert_eq!(r(4, "a.txt"), "1\nY\n3\n4\n5\n");
    // A dry run: what the CLI's dry run says, and nothing changes.
    assert_eq!(r(6, "is_error"), "false", "{}", r(6, "text"));
    assert_eq!(r(6, "structured.dry_run"), "true");
    assert_eq!(r(6, "structured.write"), r#"["a.txt"]"#);
    assert_eq!(r(6, "structured.write"), r(6, "cli.write"));
    assert_eq!(r(6, "structured.from"), r(6, "cli.from"));
    assert_eq!(r(6, "structured.to"), r(6, "cli.to"));
    assert_eq!(r(6, "a.txt"), "1\nX\n3\n4\nlater\n");
    // The step is taken back; the later line stays.
    assert_eq!(r(7, "is_error"), "false", "{}", r(7, "text"));
    assert_eq!(r(7, "a.txt"), "1\n2\n3\n4\nlater\n");
    assert_eq!(r(7, "structured.conflicts"), "[]");
    let safety = r(7, "structured.safety");
    assert_eq!(
        repo.git(&["show", &format!("refs/checkpoints/{safety}:a.txt")]),
        "1\nX\n3\n4\nlater"
    );
    // And undo takes the revert back.
    assert_eq!(r(8, "is_error"), "false", "{}", r(8, "text"));
    assert_eq!(r(8, "a.txt"), "1\nX\n3\n4\nlater\n");
    repo.fsck();
}

/// checkpoint_diff gives each hunk an id (those of `diff --json`); checkpoint_restore with
/// `hunks` takes back exactly that hunk (the other stays), and the id of a hunk no longer
/// there is a tool error that says where to get the current ids; undo brings the hunk back.
#[test]
fn checkpoint_restore_takes_back_one_hunk_that_checkpoint_diff_named() {
    let repo = Repo::with_commit(&[("a.txt", &numbered(&[]))]);
    let edited = numbered(&[(2, "two, edited"), (18, "eighteen, edited")]);
    let first = "$results.2.structured.files.0.hunks.0.id";
    let plan = json!([
        ["call", "checkpoint_save", {"name": "start"}, null],
        ["write", "a.txt", edited],
        ["call", "checkpoint_diff", {"from": "start"}, ["diff", "--json", "start"]],
        ["call", "checkpoint_restore", {"checkpoint": "start", "hunks": [first], "dry_run": true}, null],
        ["call", "checkpoint_restore", {"checkpoint": "start", "hunks": [first]}, null],
        ["call", "checkpoint_restore", {"checkpoint": "start", "hunks": [first]}, null],
        ["call", "checkpoint_restore", {"checkpoint": "start", "hunks": ["0123456789abcdef"]}, null],
        ["call", "checkpoint_restore", {"checkpoint": "start", "hunks": []}, null],
        ["call", "checkpoint_restore", {"checkpoint": "start", "hunks": [first], "paths": ["a.txt"]}, null],
        ["call", "checkpoint_undo", {}, null]
    ]);
    let test = "checkpoint_restore_takes_back_one_hunk_that_checkpoint_diff_named";
    let Some(v) = session(test, &repo, &plan.to_string()) else {
        return;
    };
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    // The ids are those of `diff --json`: the same files, the same hunks.
    assert_eq!(r(2, "is_error"), "false", "{}", r(2, "text"));
    assert_eq!(r(2, "structured.files"), r(2, "cli.files"));
    assert_eq!(v.keys("results.2.structured.files.0.hunks").len(), 2);
    let id = r(2, "structured.files.0.hunks.0.id");
    assert_eq!(r(4, "args.hunks.0"), id);
    assert!(
        v.get("tools.checkpoint_restore.description")
            .contains("checkpoint_diff"),
        "where the ids come from"
    );
    // A dry run names the file and changes nothing.
    assert_eq!(r(3, "is_error"), "false", "{}", r(3, "text"));
    assert_eq!(r(3, "structured.write"), r#"["a.txt"]"#);
    assert_eq!(r(3, "a.txt"), edited);
    // That hunk, and only it; the state before is kept.
    assert_eq!(r(4, "is_error"), "false", "{}", r(4, "text"));
    assert_eq!(r(4, "a.txt"), numbered(&[(18, "eighteen, edited")]));
    let safety = r(4, "structured.safety");
    assert_eq!(repo.note_json(&safety).get("kind"), "pre-restore");
    // The same id again: that hunk is no longer there. A tool error, with where to look.
    for i in [5, 6] {
        assert_eq!(r(i, "is_error"), "true", "step {i}");
        let text = r(i, "text");
        assert!(
            text.starts_with("error: no hunk `")
                && text.contains("hint: call checkpoint_diff for the current hunk ids"),
            "step {i}: {text}"
        );
        assert_eq!(r(i, "a.txt"), numbered(&[(18, "eighteen, edited")]));
    }
    assert!(r(5, "text").contains(&id), "{}", r(5, "text"));
    assert!(
        r(7, "text").contains("`hunks` is empty"),
        "{}",
        r(7, "text")
    );
    assert!(r(8, "text").contains("not both"), "{}", r(8, "text"));
    for i in [7, 8] {
        assert_eq!(r(i, "is_error"), "true", "step {i}");
        assert_eq!(r(i, "a.txt"), numbered(&[(18, "eighteen, edited")]));
    }
    // Undo brings the hunk back.
    assert_eq!(r(9, "is_error"), "false", "{}", r(9, "text"));
    assert_eq!(r(9, "a.txt"), edited);
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&safety));
    repo.fsck();
}

/// checkpoint_revert with `agent` takes back that agent's own steps and keeps what the user
/// did between and after them, as `revert --agent` says; with `hunks`, one hunk of one step
/// (its id from checkpoint_diff); what cannot go together is a tool error.
#[test]
fn checkpoint_revert_takes_back_an_agents_steps_or_one_hunk() {
    let repo = Repo::with_commit(&[("a.txt", &numbered(&[])), ("b.txt", "b\n")]);
    agent_hook(&repo, "s1");
    repo.write(
        "a.txt",
        &numbered(&[(2, "two, agent"), (18, "eighteen, agent")]),
    );
    let ended = repo.save(&["-q", "-m", "the user's"]);
    repo.write("b.txt", "b, user\n");
    agent_hook(&repo, "s2");
    let all = numbered(&[
        (2, "two, agent"),
        (10, "ten, agent"),
        (18, "eighteen, agent"),
    ]);
    repo.write("a.txt", &all);
    repo.save(&["-q", "-m", "the user's again"]);
    repo.write("b.txt", "b, user again\n");
    let ids = repo.checkpoint_ids();
    let first = ids[0].as_str();
    assert_eq!((ids.len(), ids[1].as_str()), (4, ended.as_str()));
    let hunk = "$results.6.structured.files.0.hunks.1.id";
    let plan = json!([
        ["call", "checkpoint_revert", {"agent": "claude-code", "dry_run": true}, ["revert", "--agent", "claude-code", "--dry-run", "--json"]],
        ["call", "checkpoint_revert", {"agent": "claude-code", "to": "@"}, null],
        ["call", "checkpoint_revert", {"agent": "claude-code", "from": first}, null],
        ["call", "checkpoint_revert", {}, null],
        ["call", "checkpoint_revert", {"agent": "claude-code", "hunks": ["0123456789abcdef"]}, null],
        ["call", "checkpoint_revert", {"agent": "claude-code"}, null],
        ["call", "checkpoint_diff", {"from": first, "to": ended}, null],
        ["call", "checkpoint_undo", {}, null],
        ["call", "checkpoint_revert", {"from": first, "to": ended, "hunks": [hunk]}, null]
    ]);
    let test = "checkpoint_revert_takes_back_an_agents_steps_or_one_hunk";
    let Some(v) = session(test, &repo, &plan.to_string()) else {
        return;
    };
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    assert_eq!(r(0, "is_error"), "false", "{}", r(0, "text"));
    assert_eq!(r(0, "structured"), r(0, "cli"));
    assert_eq!(r(0, "structured.steps"), "2");
    for (i, says) in [
        (1, "not both"),
        (2, "not both"),
        (3, "give `from`"),
        (4, "one step"),
    ] {
        assert_eq!(r(i, "is_error"), "true", "step {i}");
        assert!(r(i, "text").contains(says), "step {i}: {}", r(i, "text"));
        assert_eq!(r(i, "a.txt"), all, "step {i}");
    }
    // Both of the agent's steps go; the user's edits of b.txt stay.
    assert_eq!(r(5, "is_error"), "false", "{}", r(5, "text"));
    assert_eq!(r(5, "structured.steps"), "2");
    assert_eq!(r(5, "a.txt"), numbered(&[]));
    assert_eq!(repo.read("b.txt"), "b, user again\n");
    // After undo brought the steps back: one hunk of the first step (line 18) goes, its
    // other hunk and the second step stay.
    assert_eq!(r(7, "a.txt"), all);
    assert_eq!(v.keys("results.6.structured.files.0.hunks").len(), 2);
    assert_eq!(r(8, "is_error"), "false", "{}", r(8, "text"));
    assert_eq!(r(8, "args.hunks.0"), r(6, "structured.files.0.hunks.1.id"));
    assert_eq!(
        r(8, "a.txt"),
        numbered(&[(2, "two, agent"), (10, "ten, agent")])
    );
    assert_eq!(repo.read("b.txt"), "b, user again\n");
    repo.fsck();
}

#[test]
fn a_bad_request_is_a_tool_error_and_the_server_stays_up() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    repo.save(&["-q"]);
    // A home directory, which is in no repository and is refused as a plain directory.
    let outside = repo.home().to_path_buf();
    let plan = format!(
        r#"[
        ["call", "checkpoint_show", {{"checkpoint": "nope"}}, null],
        ["call", "checkpoint_restore", {{"checkpoint": "nope"}}, null],
        ["call", "checkpoint_undo", {{}}, null],
        ["call", "checkpoint_save", {{"directory": "{}"}}, null],
        ["call", "checkpoint_show", {{}}, null],
        ["call", "checkpoint_save", {{"kind": "Not A Kind"}}, null],
        ["write", "a.txt", "2\n"],
        ["call", "checkpoint_save", {{}}, ["list", "--json"]]
    ]"#,
        outside.display()
    );
    let Some(v) = session(
        "a_bad_request_is_a_tool_error_and_the_server_stays_up",
        &repo,
        &plan,
    ) else {
        return;
    };
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    // An unknown checkpoint: a tool error saying so, with a hint.
    assert_eq!(r(0, "is_error"), "true");
    assert!(
        r(0, "text").starts_with("error: no checkpoint named `nope`")
            && r(0, "text").contains("checkpoint_list"),
        "{}",
        r(0, "text")
    );
    assert_eq!(r(1, "is_error"), "true");
    assert_eq!(r(1, "a.txt"), "1\n", "nothing restored");
    assert_eq!(
        r(2, "is_error"),
        "true",
        "nothing to undo: {}",
        r(2, "text")
    );
    assert_eq!(r(3, "is_error"), "true");
    assert!(r(3, "text").contains("home directory"), "{}", r(3, "text"));
    // A missing argument: a tool error too (rmcp's own message), not a crash.
    assert_eq!(r(4, "is_error"), "true");
    assert!(
        r(4, "text").contains("missing field `checkpoint`"),
        "{}",
        r(4, "text")
    );
    assert_eq!(r(5, "is_error"), "true");
    assert!(r(5, "text").contains("invalid kind"), "{}", r(5, "text"));
    // After all that, the server still answers.
    assert_eq!(r(7, "is_error"), "false");
    assert_eq!(r(7, "structured.id"), r(7, "cli.0.id"));
    assert_eq!(repo.checkpoint_ids().len(), 2);
}

/// An argument a tool does not know refuses the call before anything is done: a misspelt
/// `dry_run` once made a real whole-tree restore. Every tool, and every tool's schema says so.
#[test]
fn an_unknown_argument_is_refused_and_nothing_is_done() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    repo.save(&["-q"]);
    repo.write("a.txt", "modified\n");
    let plan = r#"[
        ["call", "checkpoint_restore", {"checkpoint": "@", "dryRun": true}, null],
        ["call", "checkpoint_restore", {"checkpoint": "@", "path": "a.txt"}, null],
        ["call", "checkpoint_restore", {"checkpoint": "@", "dry_run": "yes"}, null],
        ["call", "checkpoint_restore", {"dry_run": true}, null],
        ["call", "checkpoint_save", {"message": "m", "allowEmpty": true}, null],
        ["call", "checkpoint_list", {"limit": 1, "worktree": "main"}, null],
        ["call", "checkpoint_show", {"checkpoint": "@", "stat": true}, null],
        ["call", "checkpoint_diff", {"patch": true, "staged": true}, null],
        ["call", "checkpoint_undo", {"dryRun": true}, null],
        ["call", "checkpoint_revert", {"from": "@", "dryRun": true}, null],
        ["call", "checkpoint_restore", {"checkpoint": "@", "paths": [""]}, null],
        ["call", "checkpoint_list", {}, ["list", "--json"]]
    ]"#;
    let test = "an_unknown_argument_is_refused_and_nothing_is_done";
    let Some(v) = session(test, &repo, plan) else {
        return;
    };
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    // Each tool is called with an argument it does not know, and its schema refuses others.
    let mut tools = v.keys("tools");
    tools.sort();
    let plan: Value = serde_json::from_str(plan).unwrap();
    let mut called: Vec<String> = (0..10)
        .map(|i| plan[i][1].as_str().unwrap().into())
        .collect();
    called.sort();
    called.dedup();
    assert_eq!(called, tools);
    for tool in &tools {
        assert_eq!(
            v.get(&format!("tools.{tool}.additional")),
            "false",
            "{tool}"
        );
    }
    // An argument the tool does not know: a JSON-RPC error (-32602, invalid params) naming
    // it; a value it cannot read: a tool error naming the argument.
    for (i, unknown) in [
        (0, "unknown argument `dryRun` (did you mean `dry_run`?)"),
        (1, "unknown argument `path` (did you mean `paths`?)"),
        (
            4,
            "unknown argument `allowEmpty` (did you mean `allow_empty`?)",
        ),
        (5, "unknown argument `worktree`;"),
        (6, "unknown argument `stat`;"),
        (7, "unknown argument `staged`;"),
        (8, "unknown argument `dryRun` (did you mean `dry_run`?)"),
        (9, "unknown argument `dryRun` (did you mean `dry_run`?)"),
    ] {
        let raised = r(i, "raised");
        assert!(raised.contains(unknown), "step {i}: {raised}");
        assert!(raised.ends_with("Nothing was done"), "step {i}: {raised}");
        assert_eq!(r(i, "code"), "-32602", "step {i}");
        assert_eq!(r(i, "a.txt"), "modified\n", "step {i} changed the file");
    }
    assert_eq!(r(0, "data.unknown"), r#"["dryRun"]"#);
    assert!(
        r(0, "raised")
            .contains("the arguments are `checkpoint`, `dry_run`, `paths`, `hunks`, `directory`"),
        "{}",
        r(0, "raised")
    );
    for (i, invalid) in [
        (
            2,
            "argument `dry_run`: invalid type: string \"yes\", expected a boolean",
        ),
        (3, "missing field `checkpoint`"),
    ] {
        assert_eq!(r(i, "is_error"), "true", "step {i}: {}", r(i, "structured"));
        let text = r(i, "text");
        assert!(text.contains(invalid), "step {i}: {text}");
        assert!(text.ends_with("Nothing was done"), "step {i}: {text}");
        assert_eq!(r(i, "a.txt"), "modified\n", "step {i} changed the file");
    }
    // An empty path names no file: refused, not taken for the whole tree.
    assert_eq!(r(10, "is_error"), "true", "{}", r(10, "structured"));
    assert!(r(10, "text").contains("empty path"), "{}", r(10, "text"));
    assert_eq!(r(10, "a.txt"), "modified\n");
    // No checkpoint was made: not by a save, not as a restore's safety copy.
    assert_eq!(r(11, "is_error"), "false", "{}", r(11, "text"));
    assert_eq!(v.keys("results.11.structured.checkpoints").len(), 1);
    assert_eq!(v.keys("results.11.cli").len(), 1);
    assert_eq!(repo.checkpoint_ids().len(), 1);
}

/// How long a raw test waits for an answer: a server that never answers fails the test
/// instead of blocking it.
const ANSWER_WAIT: Duration = Duration::from_secs(20);

/// The server spoken to line by line, for what an SDK client never sends: a line that is not
/// JSON, JSON that is not JSON-RPC, a line over the size limit.
struct RawServer {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: mpsc::Receiver<String>,
    watchdog: Watchdog,
}

impl RawServer {
    /// `git checkpoint mcp` in `repo`, initialized.
    fn start(repo: &Repo) -> RawServer {
        let mut cmd = Command::new(bin());
        cmd.arg("mcp").current_dir(repo.path());
        repo.env(&mut cmd);
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let watchdog = Watchdog::start(&child, "git-checkpoint mcp".into(), true);
        let stdout = child.stdout.take().unwrap();
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut server = RawServer {
            stdin: child.stdin.take(),
            child,
            answers,
            watchdog,
        };
        let init = server.request(&json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "raw", "version": "1"}},
        }));
        assert_eq!(
            init["result"]["serverInfo"]["name"], "git-checkpoint",
            "{init}"
        );
        server.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    /// Write `line` and its newline.
    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the server writes, as JSON.
    #[track_caller]
    fn answer(&self) -> Value {
        let line = self
            .answers
            .recv_timeout(ANSWER_WAIT)
            .unwrap_or_else(|_| panic!("no answer within {} s", ANSWER_WAIT.as_secs()));
        serde_json::from_str(&line).unwrap_or_else(|err| panic!("{err}: {line}"))
    }

    /// Send `request` and read its answer.
    #[track_caller]
    fn request(&mut self, request: &Value) -> Value {
        self.send(request.to_string().as_bytes());
        self.answer()
    }

    /// A ping with `id` is answered: the server still serves, and wrote nothing else before.
    #[track_caller]
    fn still_serves(&mut self, id: i64) {
        let pong = self.request(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
        assert_eq!(pong, json!({"jsonrpc": "2.0", "id": id, "result": {}}));
    }

    /// Close stdin: the server ends, successfully, and says nothing on stderr.
    fn finish(mut self) {
        drop(self.stdin.take());
        let out = self.child.wait_with_output().unwrap();
        self.watchdog.finish();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.is_empty(),
            "{:?}: {stderr}",
            out.status
        );
    }
}

/// The JSON-RPC error `answer` carries, as `(code, id)`; `id` must be there, `null` when the
/// server could not read one (JSON-RPC 2.0, section 5).
#[track_caller]
fn error_of(answer: &Value) -> (i64, Value) {
    assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(!message.is_empty(), "no error message: {answer}");
    let id = answer
        .get("id")
        .unwrap_or_else(|| panic!("no `id`: {answer}"));
    (answer["error"]["code"].as_i64().unwrap(), id.clone())
}

/// Every line gets an answer or is a notification: a client that sent one never waits for
/// ever, and the server goes on serving the next line.
#[test]
fn a_line_that_is_no_message_gets_a_json_rpc_error() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    let mut server = RawServer::start(&repo);
    // Not JSON: a parse error, whose id nobody can know.
    server.send(b"this is not JSON");
    let answer = server.answer();
    assert_eq!(error_of(&answer), (-32700, Value::Null));
    server.still_serves(1);
    // JSON, but not JSON-RPC: an invalid request, with the id when it has one.
    server.send(br#"{"hello": "world"}"#);
    assert_eq!(error_of(&server.answer()), (-32600, Value::Null));
    server.send(br#"{"id": "req-2", "method": "ping"}"#);
    assert_eq!(error_of(&server.answer()), (-32600, json!("req-2")));
    server.send(br#"[{"jsonrpc": "2.0", "id": 3, "method": "ping"}]"#);
    let answer = server.answer();
    assert_eq!(error_of(&answer), (-32600, Value::Null));
    assert!(answer.to_string().contains("batch"), "{answer}");
    // A request this server serves, with params it cannot read: invalid params, not "method
    // not found".
    let answer = server.request(&json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                                        "params": {"name": "checkpoint_list", "arguments": []}}));
    assert_eq!(error_of(&answer), (-32602, json!(4)));
    // A notification is never answered, even one the server cannot read: the next answer is
    // the ping's.
    server.send(br#"{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": "x"}"#);
    server.still_serves(5);
    let tools = server.request(&json!({"jsonrpc": "2.0", "id": 6, "method": "tools/list"}));
    assert_eq!(
        tools["result"]["tools"].as_array().map(Vec::len),
        Some(7),
        "{tools}"
    );
    server.finish();
}

/// A line over 16 MiB is refused with an answer, without the server holding it, and the next
/// line is served; a line of exactly 16 MiB is a request like any other.
#[test]
fn a_line_over_16_mib_is_refused_and_the_next_one_served() {
    const LIMIT: usize = 16 * 1024 * 1024;
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    let mut server = RawServer::start(&repo);
    // A listing of a kind with a long name: the line is `LIMIT` bytes long, or one more.
    let listing = |id: i64, len: usize| {
        let head = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"checkpoint_list","arguments":{{"kind":""#
        );
        let tail = r#""}}}"#;
        let mut line = head.into_bytes();
        line.resize(len - tail.len(), b'x');
        line.extend_from_slice(tail.as_bytes());
        line
    };
    server.send(&listing(1, LIMIT));
    let answer = server.answer();
    assert_eq!(answer["id"], 1, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"checkpoints": []})
    );
    server.send(&listing(2, LIMIT + 1));
    let answer = server.answer();
    assert_eq!(error_of(&answer), (-32600, Value::Null));
    assert!(answer.to_string().contains("16 MiB"), "{answer}");
    server.still_serves(3);
    server.finish();
}

#[test]
fn in_a_plain_directory_only_a_save_makes_a_store() {
    // As on the command line: listing or naming checkpoints where nothing was saved makes no
    // private store; the first save does.
    let repo = Repo::plain();
    repo.write("notes.md", "draft\n");
    let plan = r#"[
        ["call", "checkpoint_list", {}, null],
        ["call", "checkpoint_show", {"checkpoint": "@"}, null]
    ]"#;
    let test = "in_a_plain_directory_only_a_save_makes_a_store";
    let Some(v) = session(test, &repo, plan) else {
        return;
    };
    let r = |v: &Json, i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    assert_eq!(r(&v, 0, "is_error"), "false", "{}", r(&v, 0, "text"));
    assert_eq!(r(&v, 0, "structured.checkpoints"), "[]");
    assert_eq!(r(&v, 1, "is_error"), "true");
    assert!(repo.stores().is_empty(), "a listing made a store");
    repo.write("sub/deeper/x.md", "x\n");
    let plan = r#"[
        ["call", "checkpoint_save", {"message": "first"}, null],
        ["call", "checkpoint_list", {}, ["list", "--json"]],
        ["call", "checkpoint_list", {"directory": "sub/deeper"}, null]
    ]"#;
    let Some(v) = session(test, &repo, plan) else {
        return;
    };
    assert_eq!(r(&v, 0, "is_error"), "false", "{}", r(&v, 0, "text"));
    assert_eq!(repo.stores().len(), 1);
    // Below the checkpointed directory, a tool acts on it and says so.
    let top = repo.path().canonicalize().unwrap().display().to_string();
    assert_eq!(r(&v, 2, "structured.acting_on"), top);
    assert!(
        !v.keys("results.1.structured")
            .contains(&"acting_on".to_string()),
        "not at the top itself"
    );
    assert_eq!(v.keys("results.1.structured.checkpoints").len(), 1);
    assert_eq!(
        r(&v, 1, "structured.checkpoints.0.id"),
        r(&v, 0, "structured.id")
    );
    assert_eq!(r(&v, 1, "cli.0.id"), r(&v, 0, "structured.id"));
}

#[test]
fn a_zero_limit_or_zero_steps_is_a_tool_error() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    let plan = r#"[
        ["call", "checkpoint_save", {"message": "first"}, null],
        ["write", "a.txt", "2\n"],
        ["call", "checkpoint_save", {"message": "second"}, null],
        ["write", "a.txt", "3\n"],
        ["call", "checkpoint_list", {"limit": 0}, null],
        ["call", "checkpoint_undo", {"steps": 0}, ["list", "--json"]],
        ["call", "checkpoint_list", {"limit": 1}, null],
        ["call", "checkpoint_undo", {"steps": 1, "dry_run": true}, null]
    ]"#;
    let test = "a_zero_limit_or_zero_steps_is_a_tool_error";
    let Some(v) = session(test, &repo, plan) else {
        return;
    };
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    // `limit: 0` once answered an empty list, `steps: 0` undid one step.
    assert_eq!(r(4, "is_error"), "true", "{}", r(4, "structured"));
    assert!(
        r(4, "text").starts_with("error: `limit` must be at least 1"),
        "{}",
        r(4, "text")
    );
    assert_eq!(r(5, "is_error"), "true", "{}", r(5, "structured"));
    assert!(
        r(5, "text").starts_with("error: `steps` must be at least 1"),
        "{}",
        r(5, "text")
    );
    assert_eq!(r(5, "a.txt"), "3\n", "nothing was undone");
    assert_eq!(
        v.keys("results.5.cli").len(),
        2,
        "no pre-restore checkpoint was made"
    );
    // One is fine.
    assert_eq!(r(6, "is_error"), "false");
    assert_eq!(v.keys("results.6.structured.checkpoints").len(), 1);
    assert_eq!(r(7, "is_error"), "false", "{}", r(7, "text"));
}

/// `mcp --install <agent>` into `rel` holding `original`: `check` holds of the result, a
/// second install changes nothing, uninstall leaves exactly `original`.
fn mcp_install_keeps_the_rest(agent: &str, level: &str, rel: &str, original: &str, check: &str) {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let base = if level == "--user" {
        repo.home()
    } else {
        repo.path()
    };
    let path = base.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, original).unwrap();
    let out = repo.cp(&["mcp", "--install", agent, level]).ok();
    assert!(out.stderr.contains(".bak"), "{}", out.stderr);
    let installed = fs::read_to_string(&path).unwrap();
    assert_eq!(json_eval(&installed, check), "true", "{agent}: {installed}");
    let again = repo.cp(&["mcp", "--install", agent, level]).ok();
    assert!(again.stderr.contains("already"), "{}", again.stderr);
    assert_eq!(fs::read_to_string(&path).unwrap(), installed);
    repo.cp(&["mcp", "--uninstall", agent, level]).ok();
    let left = fs::read_to_string(&path).unwrap();
    assert_eq!(
        json_eval(&format!("[{left},{original}]"), "v[0] == v[1]"),
        "true",
        "{agent}: {left}"
    );
}

#[test]
fn mcp_uninstall_removes_only_what_install_added() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let untracked = |repo: &Repo| repo.git(&["status", "--porcelain", "--untracked-files=all"]);
    // Created by the install: removed, with no `.bak`.
    for (agent, rel) in [
        ("copilot", ".github/mcp.json"),
        ("claude-code", ".mcp.json"),
    ] {
        let out = repo.cp(&["mcp", "--install", agent]).ok();
        assert!(!out.stderr.contains(".bak"), "{agent}: {}", out.stderr);
        let out = repo.cp(&["mcp", "--uninstall", agent]).ok();
        assert!(!out.stderr.contains(".bak"), "{agent}: {}", out.stderr);
        assert!(!repo.path().join(rel).exists(), "{agent}");
        assert_eq!(untracked(&repo), "", "{agent}: nothing left");
    }
    // Gemini's settings hold the hooks and the server: each uninstall takes out its part, and
    // the file, git-checkpoint's alone, goes with the last.
    repo.cp(&["hooks", "gemini", "--install"]).ok();
    repo.cp(&["mcp", "--install", "gemini"]).ok();
    repo.cp(&["hooks", "gemini", "--uninstall"]).ok();
    let settings = repo.path().join(".gemini/settings.json");
    assert_eq!(
        json_eval(&fs::read_to_string(&settings).unwrap(), "sorted(v)"),
        r#"["mcpServers"]"#
    );
    repo.cp(&["mcp", "--uninstall", "gemini"]).ok();
    assert!(!settings.exists());
    assert_eq!(untracked(&repo), "", "nothing left");
    // A file the user had with an empty server list: kept as it was.
    let mcp = repo.path().join(".mcp.json");
    fs::write(&mcp, "{\"mcpServers\": {}}\n").unwrap();
    repo.cp(&["mcp", "--install", "claude-code"]).ok();
    repo.cp(&["mcp", "--uninstall", "claude-code"]).ok();
    assert_eq!(
        json_eval(&fs::read_to_string(&mcp).unwrap(), "v"),
        r#"{"mcpServers": {}}"#
    );
    // Codex's TOML: created, then removed with no `.bak`.
    repo.cp(&["mcp", "--install", "codex"]).ok();
    repo.cp(&["mcp", "--uninstall", "codex"]).ok();
    assert!(!repo.path().join(".codex/config.toml").exists());
    assert!(!repo.path().join(".codex/config.toml.bak").exists());
}

#[test]
fn mcp_install_registers_the_server_in_each_agents_configuration() {
    let other = r#"{"mcpServers": {"docs": {"command": "docs-mcp", "args": ["--stdio"]}}, "theme": "dark"}"#;
    let kept = "v['mcpServers']['docs'] == {'command': 'docs-mcp', 'args': ['--stdio']} and v['theme'] == 'dark'";
    let cases = [
        (
            "claude-code",
            "--project",
            ".mcp.json",
            "v['mcpServers']['git-checkpoint'] == {'type': 'stdio', 'command': 'git', 'args': ['checkpoint', 'mcp'], 'env': {}}",
        ),
        (
            "gemini",
            "--user",
            ".gemini/settings.json",
            "v['mcpServers']['git-checkpoint'] == {'command': 'git', 'args': ['checkpoint', 'mcp']}",
        ),
        (
            "cursor",
            "--project",
            ".cursor/mcp.json",
            "v['mcpServers']['git-checkpoint']['args'] == ['checkpoint', 'mcp']",
        ),
        (
            "copilot",
            "--user",
            ".copilot/mcp-config.json",
            "v['mcpServers']['git-checkpoint'] == {'type': 'local', 'command': 'git', 'args': ['checkpoint', 'mcp'], 'env': {}, 'tools': ['*']}",
        ),
        (
            "cline",
            "--user",
            ".cline/data/settings/cline_mcp_settings.json",
            "v['mcpServers']['git-checkpoint']['disabled'] == False and v['mcpServers']['git-checkpoint']['type'] == 'stdio'",
        ),
    ];
    for (agent, level, rel, check) in cases {
        mcp_install_keeps_the_rest(agent, level, rel, other, &format!("{kept} and {check}"));
    }
    mcp_install_keeps_the_rest(
        "opencode",
        "--project",
        "opencode.json",
        r#"{"$schema": "https://opencode.ai/config.json", "mcp": {"docs": {"type": "remote", "url": "https://example.com/mcp"}}}"#,
        "v['mcp']['docs']['type'] == 'remote' and v['mcp']['git-checkpoint'] == {'type': 'local', 'command': ['git', 'checkpoint', 'mcp'], 'enabled': True}",
    );
}

#[test]
fn mcp_install_for_codex_edits_config_toml_as_text() {
    let repo = Repo::with_commit(&[("a", "1\n")]);
    let path = repo.home().join(".codex/config.toml");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let original =
        "# mine\nmodel = \"gpt-5.2-codex\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";
    fs::write(&path, original).unwrap();
    let out = repo.cp(&["mcp", "--install", "codex", "--user"]).ok();
    assert!(out.stderr.contains("next: "), "{}", out.stderr);
    let installed = fs::read_to_string(&path).unwrap();
    assert!(installed.starts_with(original), "{installed}");
    assert!(
        installed.contains(
            "[mcp_servers.git-checkpoint]\ncommand = \"git\"\nargs = [\"checkpoint\", \"mcp\"]\n"
        ),
        "{installed}"
    );
    // Python's own TOML parser reads the result.
    let parsed = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, tomllib; v = tomllib.load(open(sys.argv[1], 'rb')); print(v['mcp_servers']['git-checkpoint']['args'], v['mcp_servers']['docs'])",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&parsed.stdout),
        "['checkpoint', 'mcp'] {'command': 'docs-mcp'}\n",
        "{}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    repo.cp(&["mcp", "--install", "codex", "--user"]).ok();
    assert_eq!(fs::read_to_string(&path).unwrap(), installed);
    repo.cp(&["mcp", "--uninstall", "codex", "--user"]).ok();
    assert_eq!(fs::read_to_string(&path).unwrap(), original);
}

#[test]
fn checkpoint_show_returns_the_conversation_when_asked() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    let chat = repo.scratch().join("chat.json");
    fs::write(&chat, r#"[{"role":"user","content":"rename it"}]"#).unwrap();
    repo.write("a.txt", "2\n");
    repo.save(&["--name", "talked", "--conversation", chat.to_str().unwrap()]);
    let plan = r#"[
        ["call", "checkpoint_show", {"checkpoint": "talked", "conversation": true}, null],
        ["call", "checkpoint_show", {"checkpoint": "talked"}, null]
    ]"#;
    let Some(v) = session(
        "checkpoint_show_returns_the_conversation_when_asked",
        &repo,
        plan,
    ) else {
        return;
    };
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    assert_eq!(r(0, "is_error"), "false", "{}", r(0, "text"));
    let shown = r(0, "structured");
    assert_eq!(json_eval(&shown, "v['conversation']['format']"), "json");
    assert_eq!(
        json_eval(&shown, "v['conversation']['content'][0]['content']"),
        "rename it"
    );
    // Without asking, only what the note says of it.
    let plain = r(1, "structured");
    assert_eq!(json_eval(&plain, "'content' in v['conversation']"), "false");
}

/// What a save found is in the checkpoint's JSON (where, never what); with
/// `checkpoint.secrets=block` a save that finds anything is a tool error naming the file.
#[test]
fn checkpoint_save_and_show_say_where_secrets_are_and_block_refuses() {
    let repo = Repo::with_commit(&[("a.txt", "1\n")]);
    // A fake AWS key id, put together here so that this file holds none.
    let key = format!("{}{}", "AKIA", "Q7ZK4WX2MRTB5NJL");
    repo.write("deploy.sh", &format!("export AWS_ID={key}\n"));
    let plan = format!(
        r#"[
        ["call", "checkpoint_save", {{"message": "with a key"}}, null],
        ["call", "checkpoint_show", {{"checkpoint": "@"}}, null],
        ["call", "checkpoint_list", {{}}, null],
        ["write", "deploy.sh", "export AWS_ID={key}\nexport OTHER={key}\n"],
        ["call", "checkpoint_save", {{"message": "second"}}, null]
    ]"#
    );
    let Some(v) = session(
        "checkpoint_save_and_show_say_where_secrets_are_and_block_refuses",
        &repo,
        &plan,
    ) else {
        return;
    };
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    assert_eq!(r(0, "is_error"), "false", "{}", r(0, "text"));
    let findings = r#"[{"path": "deploy.sh", "line": 1, "rule": "aws-access-token"}]"#;
    assert_eq!(
        json_eval(&r(0, "structured"), "v['secrets']['findings']"),
        findings
    );
    assert_eq!(
        json_eval(&r(1, "structured"), "v['secrets']['findings']"),
        findings
    );
    assert_eq!(
        json_eval(
            &r(2, "structured"),
            "v['checkpoints'][0]['secrets']['findings']"
        ),
        findings
    );
    for i in 0..3 {
        assert!(!r(i, "text").contains(&key[4..]), "{}", r(i, "text"));
    }
    // More of it in the same file: `warn` (the default) saves it too.
    assert_eq!(r(4, "is_error"), "false", "{}", r(4, "text"));

    repo.git(&["config", "checkpoint.secrets", "block"]);
    repo.write("deploy.sh", &format!("export AWS_ID={key}\necho changed\n"));
    let Some(v) = session(
        "checkpoint_save_and_show_say_where_secrets_are_and_block_refuses",
        &repo,
        r#"[["call", "checkpoint_save", {"message": "blocked"}, null]]"#,
    ) else {
        return;
    };
    let r = |path: &str| v.get(&format!("results.0.{path}"));
    assert_eq!(r("is_error"), "true", "{}", r("text"));
    assert!(
        r("text").contains("not saved: 1 possible secret in `deploy.sh` line 1 (aws-access-token)"),
        "{}",
        r("text")
    );
    assert!(!r("text").contains(&key[4..]));
}

/// The system's temporary directory itself is refused as a plain directory through MCP's
/// `directory`, as on the command line (where an agent's server, started anywhere, made a store
/// of it that every folder below then used): a tool error naming it, and no store made.
#[test]
fn the_temporary_directory_is_refused_as_a_tools_directory() {
    let test = "the_temporary_directory_is_refused_as_a_tools_directory";
    if let Some(why) = client_missing() {
        if std::env::var_os("GIT_CHECKPOINT_REQUIRE_MCP_CLIENT").is_some() {
            panic!("GIT_CHECKPOINT_REQUIRE_MCP_CLIENT is set, but {why}");
        }
        skipped(test, &why);
        return;
    }
    let repo = Repo::plain();
    // The system's temporary directory, as the server sees it (TMPDIR): one of the test's own,
    // so that nothing is ever saved of the machine's /tmp.
    let tmp = repo.scratch().join("tmp");
    fs::create_dir_all(tmp.join("unrelated")).unwrap();
    fs::write(tmp.join("scratch.txt"), "s\n").unwrap();
    let tmp = tmp.canonicalize().unwrap();
    let dir = tmp.to_str().unwrap();
    let plan = json!([
        ["call", "checkpoint_save", {"directory": dir, "message": "all of tmp"}, null],
        ["call", "checkpoint_list", {"directory": dir}, null],
    ])
    .to_string();
    let script = repo.scratch().join("client.py");
    fs::write(&script, CLIENT).unwrap();
    let user_base = python_user_base();
    let mut envs = vec![("TMPDIR", dir)];
    if let Some(base) = &user_base {
        envs.push(("PYTHONUSERBASE", base.as_str()));
    }
    let out = run_with_env(
        &repo,
        "python3",
        &[script.to_str().unwrap(), &plan],
        repo.path(),
        &envs,
    );
    assert_eq!(out.code, 0, "the client: {}\n{}", out.stderr, out.stdout);
    let v = Json::parse(&out.stdout);
    let r = |i: usize, path: &str| v.get(&format!("results.{i}.{path}"));
    assert_eq!(r(0, "is_error"), "true", "{}", r(0, "text"));
    assert!(
        r(0, "text").contains("temporary directory") && r(0, "text").contains(dir),
        "{}",
        r(0, "text")
    );
    assert!(repo.stores().is_empty(), "a store was made for {dir}");
    // Nothing to list there either, and still no store.
    assert_eq!(r(1, "is_error"), "false", "{}", r(1, "text"));
    assert_eq!(r(1, "structured.checkpoints"), "[]");
    assert!(repo.stores().is_empty());
}
