//! `serve`: the HTTP API through a real HTTP client (ureq), against a real server process on a
//! free port. Every endpoint, every error code, the token, `Host` and `Origin` checks, and live
//! events caused by a separate process. The JSON must be exactly what `--json` prints.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Repo, bin};

/// A `git checkpoint serve --port 0` process, killed when dropped.
pub struct Served {
    child: Child,
    pub url: String,
    pub port: u16,
    pub token: String,
    agent: ureq::Agent,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// An error reply: this status and `{"error": "<non-empty>"}`.
    #[track_caller]
    pub fn error(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        let json = self.json();
        let message = json["error"].as_str().unwrap_or_default().to_string();
        assert!(!message.is_empty(), "{json}");
        assert_eq!(json.as_object().unwrap().len(), 1, "{json}");
        message
    }

    #[track_caller]
    pub fn ok(&self) -> Value {
        assert!(
            (200..300).contains(&self.status),
            "{}: {}",
            self.status,
            self.body
        );
        self.json()
    }
}

pub fn serve(repo: &Repo) -> Served {
    serve_with(repo, &[])
}

pub fn serve_with(repo: &Repo, args: &[&str]) -> Served {
    serve_in(repo, repo.path(), args, &[])
}

/// `serve` in `dir` with the environment of `repo` plus `envs`.
pub fn serve_in(
    repo: &Repo,
    dir: &std::path::Path,
    args: &[&str],
    envs: &[(&str, &std::ffi::OsStr)],
) -> Served {
    let mut cmd = Command::new(bin());
    cmd.args(["serve", "--port", "0", "-q"])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    repo.env(&mut cmd);
    cmd.envs(envs.iter().copied());
    started(cmd)
}

/// `serve` (not quiet) in `dir` with the environment of `repo` plus `envs`, and what it said
/// on stderr up to its "serving the checkpoints of …" line.
fn serve_saying(
    repo: &Repo,
    dir: &std::path::Path,
    envs: &[(&str, &std::ffi::OsStr)],
) -> (Served, String) {
    let mut cmd = Command::new(bin());
    cmd.args(["serve", "--port", "0"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    repo.env(&mut cmd);
    cmd.envs(envs.iter().copied());
    let mut served = started(cmd);
    let mut lines = BufReader::new(served.child.stderr.take().unwrap()).lines();
    let mut said = String::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        said.push_str(&line);
        said.push('\n');
        if line.contains("serving the checkpoints of") {
            break;
        }
    }
    // Whatever it says later is read, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (served, said)
}

/// The server `cmd` starts, once it printed its URL.
fn started(mut cmd: Command) -> Served {
    let mut child = cmd.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().to_string();
    let rest = url
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("a URL on 127.0.0.1: {url:?}"));
    let (port, token) = rest.split_once("/?token=").unwrap();
    assert!(token.len() >= 32 && token.bytes().all(|b| b.is_ascii_hexdigit()));
    // A fresh connection for every request: a server may close a kept-alive connection (after
    // refusing a request without reading its body), and reusing it would be the client's race.
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .max_idle_connections(0)
        .build()
        .into();
    Served {
        child,
        port: port.parse().unwrap(),
        token: token.to_string(),
        url,
        agent,
    }
}

impl Served {
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A request with the bearer token.
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Reply {
        let bearer = format!("Bearer {}", self.token);
        let mut headers = vec![("Authorization", bearer.as_str())];
        let text = body.map(|b| b.to_string());
        if text.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        self.raw(method, path, &headers, text.as_deref())
    }

    pub fn get(&self, path: &str) -> Reply {
        self.call("GET", path, None)
    }

    /// Any request: exactly these headers (ureq adds `Host` unless one is given), this body.
    pub fn raw(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> Reply {
        let mut builder = ureq::http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base()));
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        let response = match body {
            Some(body) => self.agent.run(builder.body(body.to_string()).unwrap()),
            None => self.agent.run(builder.body(()).unwrap()),
        };
        let mut response = response.unwrap();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        // No response ever carries a CORS header.
        for (name, _) in &headers {
            assert!(
                !name.to_ascii_lowercase().starts_with("access-control-"),
                "{method} {path}: a CORS header: {headers:?}"
            );
        }
        Reply {
            status: response.status().as_u16(),
            headers,
            body: response.body_mut().read_to_string().unwrap(),
        }
    }

    /// Lines of `GET /api/events`, as they arrive, once the stream said it is ready.
    pub fn events(&self) -> mpsc::Receiver<String> {
        let (sender, receiver) = mpsc::channel();
        let request = ureq::http::Request::builder()
            .uri(format!("{}/api/events", self.base()))
            .header("Authorization", format!("Bearer {}", self.token))
            .body(())
            .unwrap();
        let response = self.agent.run(request).unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        let mut reader = BufReader::new(response.into_body().into_reader());
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        assert_eq!(first.trim_end(), ": ready");
        std::thread::spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        receiver
    }
}

/// The next event named `name` within `limit` (keep-alives and other events skipped): its data.
#[track_caller]
pub fn next_event(lines: &mpsc::Receiver<String>, name: &str, limit: Duration) -> Value {
    let deadline = Instant::now() + limit;
    let mut current = String::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = lines
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no `{name}` event within {limit:?}"));
        if let Some(event) = line.strip_prefix("event: ") {
            current = event.to_string();
        } else if let Some(data) = line.strip_prefix("data: ")
            && current == name
        {
            return serde_json::from_str(data).unwrap();
        }
    }
}

fn cli_json(repo: &Repo, args: &[&str]) -> Value {
    let out = repo.cp(args).ok();
    serde_json::from_str(&out.stdout).unwrap()
}

/// Three checkpoints of `f.txt` (`one`, `two`, `three`), the working tree at `three`.
fn three() -> (Repo, Vec<String>) {
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    let mut ids = Vec::new();
    for (i, content) in ["one", "two", "three"].iter().enumerate() {
        repo.write("f.txt", &format!("{content}\n"));
        repo.write(&format!("new{i}.txt"), "x\n");
        ids.push(repo.save(&["-q", "-m", content]));
    }
    (repo, ids)
}

#[test]
fn list_is_list_json_with_limit_kind_and_session() {
    let (repo, ids) = three();
    repo.write("g.txt", "auto\n");
    let auto = repo.save(&["-q", "--kind", "auto", "--session", "s-123"]);
    let server = serve(&repo);
    let all = server.get("/api/checkpoints").ok();
    assert_eq!(all, cli_json(&repo, &["list", "--json"]));
    let listed: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [auto.as_str(), &ids[2], &ids[1], &ids[0]]);
    let one = server.get("/api/checkpoints?limit=1").ok();
    assert_eq!(one.as_array().unwrap().len(), 1);
    assert_eq!(one[0]["id"], auto.as_str());
    let manual = server.get("/api/checkpoints?kind=manual&limit=200").ok();
    assert_eq!(
        manual,
        cli_json(&repo, &["list", "--json", "--kind", "manual"])
    );
    assert_eq!(manual.as_array().unwrap().len(), 3);
    let session = server.get("/api/checkpoints?session=s-1").ok();
    assert_eq!(session.as_array().unwrap().len(), 1);
    assert_eq!(session[0]["id"], auto.as_str());
    for bad in [
        "limit=0",
        "limit=201",
        "limit=ten",
        "limit=-1",
        "colour=red",
    ] {
        let message = server.get(&format!("/api/checkpoints?{bad}")).error(400);
        assert!(!message.is_empty(), "{bad}");
    }
    server.get("/api/checkpoints?session=nosuch").error(404);

    // Pages: `before` continues after a checkpoint, by any naming rule.
    let page = |query: &str| -> Vec<String> {
        server
            .get(&format!("/api/checkpoints?{query}"))
            .ok()
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        page(&format!("limit=2&before={auto}")),
        ids[1..].iter().rev().cloned().collect::<Vec<_>>()
    );
    assert_eq!(
        page(&format!("limit=2&before={}", ids[1])),
        ids[..1].to_vec()
    );
    assert_eq!(
        page("before=@"),
        ids.iter().rev().cloned().collect::<Vec<_>>()
    );
    assert!(page(&format!("before={}", ids[0])).is_empty());
    // Not among those listed (another kind), or no such checkpoint: 404.
    let message = server
        .get(&format!("/api/checkpoints?kind=manual&before={auto}"))
        .error(404);
    assert!(message.contains(auto.as_str()), "{message}");
    server.get("/api/checkpoints?before=nosuch").error(404);
}

#[test]
fn one_checkpoint_by_any_naming_rule_as_show_json() {
    let (repo, ids) = three();
    repo.write("h.txt", "named\n");
    let named = repo.save(&["-q", "--name", "before-refactor"]);
    let server = serve(&repo);
    let shown = cli_json(&repo, &["show", "--json", &ids[1]]);
    for spec in [ids[1].as_str(), "@%7B1%7D", &ids[1][..20]] {
        let found = server.get(&format!("/api/checkpoints/{spec}")).ok();
        let expected = if spec.starts_with('@') {
            cli_json(&repo, &["show", "--json", "@{1}"])
        } else {
            shown.clone()
        };
        assert_eq!(found, expected, "{spec}");
    }
    assert_eq!(server.get("/api/checkpoints/@").ok()["id"], named.as_str());
    assert_eq!(
        server.get("/api/checkpoints/latest").ok()["id"],
        named.as_str()
    );
    assert_eq!(
        server.get("/api/checkpoints/before-refactor").ok()["id"],
        named.as_str()
    );
    let message = server.get("/api/checkpoints/no-such-thing").error(404);
    assert!(message.contains("no-such-thing"), "{message}");
    // A prefix that every id shares is ambiguous: a bad request, naming the candidates.
    let message = server.get("/api/checkpoints/2").error(400);
    assert!(message.contains("ambiguous"), "{message}");
}

#[test]
fn diff_between_checkpoints_against_head_and_against_the_working_tree() {
    let (repo, ids) = three();
    repo.write_bytes("bin.dat", b"\x00\x01binary\x00");
    repo.write("f.txt", "edited now\n");
    let server = serve(&repo);
    let between = server
        .get(&format!("/api/checkpoints/{}/diff?to={}", ids[0], ids[2]))
        .ok();
    let cli = cli_json(&repo, &["diff", "--json", &ids[0], &ids[2]]);
    assert_eq!(between["files"], cli["files"]);
    assert_eq!(
        between.as_object().unwrap().len(),
        3,
        "files, patch, patch_truncated"
    );
    let patch = repo.cp(&["diff", &ids[0], &ids[2]]).ok().stdout;
    assert_eq!(between["patch"], patch.as_str());
    assert_eq!(between["patch_truncated"], false);
    assert!(patch.contains("+three"), "{patch}");

    let now = server
        .get(&format!("/api/checkpoints/{}/diff", ids[2]))
        .ok();
    assert_eq!(
        now["files"],
        cli_json(&repo, &["diff", "--json", &ids[2]])["files"]
    );
    let files: Vec<&str> = now["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["bin.dat", "f.txt"]);
    assert_eq!(now["files"][0]["binary"], true);
    assert!(
        now["patch"]
            .as_str()
            .unwrap()
            .contains("Binary files /dev/null and b/bin.dat differ")
    );

    // base=head: what the checkpoint changed relative to the commit it was taken on.
    let head = server
        .get(&format!("/api/checkpoints/{}/diff?base=head", ids[0]))
        .ok();
    let files: Vec<&str> = head["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["f.txt", "new0.txt"]);
    assert!(head["patch"].as_str().unwrap().contains("-base\n+one\n"));

    server
        .get(&format!("/api/checkpoints/{}/diff?to=nosuch", ids[0]))
        .error(404);
    server.get("/api/checkpoints/nosuch/diff").error(404);
    server
        .get(&format!("/api/checkpoints/{}/diff?base=tail", ids[0]))
        .error(400);
    server
        .get(&format!(
            "/api/checkpoints/{}/diff?base=head&to={}",
            ids[0], ids[1]
        ))
        .error(400);
}

#[test]
fn save_is_201_with_the_metadata_and_200_when_nothing_changed() {
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    repo.write("f.txt", "changed\n");
    let server = serve(&repo);
    let reply = server.call(
        "POST",
        "/api/checkpoints",
        Some(json!({"message": "from the API", "name": "api", "kind": "auto", "meta": {"tool": "test", "n": 1}})),
    );
    assert_eq!(reply.status, 201, "{}", reply.body);
    let saved = reply.json();
    let id = saved["id"].as_str().unwrap().to_string();
    assert_eq!(saved, cli_json(&repo, &["show", "--json", &id]));
    assert_eq!(saved["message"], "from the API");
    assert_eq!(saved["kind"], "auto");
    assert_eq!(saved["meta"], json!({"tool": "test", "n": 1}));
    assert_eq!(repo.checkpoint_tree(&id), repo.oracle_tree());
    // An empty body is a plain save: nothing changed since, so the same checkpoint, 200.
    let again = server.raw(
        "POST",
        "/api/checkpoints",
        &[("Authorization", &format!("Bearer {}", server.token))],
        None,
    );
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["id"], id.as_str());
    assert_eq!(repo.checkpoint_ids().len(), 1);
    let forced = server.call(
        "POST",
        "/api/checkpoints",
        Some(json!({"allow_empty": true, "pin": true})),
    );
    assert_eq!(forced.status, 201);
    assert_eq!(forced.json()["pinned"], true);
}

#[test]
fn bad_bodies_are_400_and_change_nothing() {
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    repo.write("f.txt", "changed\n");
    let server = serve(&repo);
    let bearer = format!("Bearer {}", server.token);
    let auth = ("Authorization", bearer.as_str());
    let json_type = ("Content-Type", "application/json");
    for body in [
        "{",
        "[1]",
        "{\"message\": 5}",
        "{\"meta\": [1]}",
        "{\"colour\": \"red\"}",
        "\u{0}",
    ] {
        let reply = server.raw("POST", "/api/checkpoints", &[auth, json_type], Some(body));
        reply.error(400);
    }
    // JSON sent as a form or as text is refused: only `application/json` is read.
    let reply = server.raw(
        "POST",
        "/api/checkpoints",
        &[auth, ("Content-Type", "text/plain")],
        Some("{}"),
    );
    assert!(reply.error(400).contains("application/json"));
    let reply = server.raw(
        "POST",
        "/api/checkpoints",
        &[auth],
        Some("{\"message\": \"m\"}"),
    );
    reply.error(400);
    // A kind that cannot be stored is the library's InvalidInput: 400 too.
    server
        .call(
            "POST",
            "/api/checkpoints",
            Some(json!({"kind": "Not A Kind!"})),
        )
        .error(400);
    assert!(repo.checkpoint_ids().is_empty());
    let id = repo.save(&["-q"]);
    for body in [
        json!({"dry_run": "yes"}),
        json!({"paths": "f.txt"}),
        json!({"force": true}),
        // serde would read these as the fields in order: a restore, a dry run of one path.
        json!([]),
        json!([true, ["f.txt"]]),
    ] {
        server
            .call(
                "POST",
                &format!("/api/checkpoints/{id}/restore"),
                Some(body),
            )
            .error(400);
    }
    server
        .call("POST", "/api/undo", Some(json!({"steps": 0})))
        .error(400);
    server
        .call("POST", "/api/undo", Some(json!([2])))
        .error(400);
    server
        .call(
            "POST",
            "/api/checkpoints",
            Some(json!([null, null, null, null])),
        )
        .error(400);
    server
        .call("POST", "/api/undo", Some(json!({"steps": "two"})))
        .error(400);
    // A path outside the working tree.
    let message = server
        .call(
            "POST",
            &format!("/api/checkpoints/{id}/restore"),
            Some(json!({"paths": ["../outside"]})),
        )
        .error(400);
    assert!(message.contains("outside the working tree"), "{message}");
    // An empty path names no file: refused, not taken for the whole tree.
    repo.write("f.txt", "unsaved\n");
    for paths in [json!([""]), json!(["f.txt", ""])] {
        let message = server
            .call(
                "POST",
                &format!("/api/checkpoints/{id}/restore"),
                Some(json!({ "paths": paths })),
            )
            .error(400);
        assert!(message.contains("empty path"), "{message}");
    }
    assert_eq!(repo.read("f.txt"), "unsaved\n");
    assert_eq!(repo.checkpoint_ids(), [id]);
}

#[test]
fn restore_after_a_dry_run_then_undo_and_redo() {
    let (repo, ids) = three();
    repo.write("f.txt", "unsaved\n");
    repo.write("extra.txt", "unsaved too\n");
    let server = serve(&repo);
    let restore = format!("/api/checkpoints/{}/restore", ids[0]);
    let before = repo.checkpoint_ids();
    let plan = server
        .call("POST", &restore, Some(json!({"dry_run": true})))
        .ok();
    assert_eq!(plan["dry_run"], true);
    assert_eq!(plan["write"], json!(["f.txt"]));
    assert_eq!(plan["delete"], json!(["extra.txt", "new1.txt", "new2.txt"]));
    assert_eq!(plan["safety"], Value::Null);
    assert_eq!(repo.read("f.txt"), "unsaved\n");
    assert_eq!(repo.checkpoint_ids(), before, "a dry run saves nothing");

    // Only some paths.
    let done = server
        .call("POST", &restore, Some(json!({"paths": ["f.txt"]})))
        .ok();
    assert_eq!(done["write"], json!(["f.txt"]));
    assert_eq!(done["delete"], json!([]));
    assert_eq!(repo.read("f.txt"), "one\n");
    assert_eq!(repo.read("extra.txt"), "unsaved too\n");
    let safety = done["safety"].as_str().unwrap().to_string();
    assert_eq!(
        cli_json(&repo, &["show", "--json", &safety])["kind"],
        "pre-restore"
    );

    // Undo brings the unsaved edit back; redo takes the undo back.
    let undone = server.call("POST", "/api/undo", None).ok();
    assert_eq!(undone["target"], safety.as_str());
    assert_eq!(repo.read("f.txt"), "unsaved\n");
    let redone = server.call("POST", "/api/redo", Some(json!({}))).ok();
    assert_eq!(redone["steps"], 1);
    assert_eq!(repo.read("f.txt"), "one\n");

    // All of it, in the shape of `restore --json`.
    let all = server
        .call("POST", &restore, Some(json!({"dry_run": false})))
        .ok();
    let keys: Vec<&str> = all
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    repo.write("f.txt", "again\n");
    let cli = cli_json(&repo, &["restore", "--json", "--dry-run", &ids[0]]);
    let cli_keys: Vec<&str> = cli
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, cli_keys);
    assert!(!repo.path().join("extra.txt").exists());
    repo.write("f.txt", "one\n");
    assert_eq!(repo.oracle_tree(), repo.checkpoint_tree(&ids[0]));
    repo.fsck();
}

/// The revert of one step: a dry run that changes nothing and agrees with the CLI's, the
/// revert keeping later work (the `git merge-tree` oracle), a conflict refused as a 409
/// naming the file, and undo taking the revert back.
#[test]
fn revert_takes_back_one_step_keeping_later_work() {
    let repo = Repo::with_commit(&[("a.txt", "1\n2\n3\n4\n5\n")]);
    let start = repo.save(&["-q"]);
    repo.write("a.txt", "1\nX\n3\n4\n5\n");
    repo.write("added.txt", "by the step\n");
    let step = repo.save(&["-q"]);
    repo.write("a.txt", "1\nX\n3\n4\nlater\n");
    let server = serve(&repo);
    let path = format!("/api/checkpoints/{start}/revert");
    let before = repo.checkpoint_ids();
    let plan = server
        .call("POST", &path, Some(json!({"to": step, "dry_run": true})))
        .ok();
    let cli = cli_json(&repo, &["revert", "--json", "--dry-run", &start, &step]);
    assert_eq!(plan, cli);
    assert_eq!(plan["write"], json!(["a.txt"]));
    assert_eq!(plan["delete"], json!(["added.txt"]));
    assert_eq!(repo.checkpoint_ids(), before, "a dry run saves nothing");
    // What git's own three-way merge makes of it: base = the step's end, ours = the working
    // tree now, theirs = the step's start.
    let ours = repo.oracle_tree();
    let ours_commit = repo.git(&["commit-tree", &ours, "-m", "working tree"]);
    let expected = repo.git(&[
        "merge-tree",
        "--write-tree",
        &format!("--merge-base=refs/checkpoints/{step}"),
        &ours_commit,
        &format!("refs/checkpoints/{start}"),
    ]);
    let events = server.events();
    let done = server.call("POST", &path, Some(json!({}))).ok();
    // Announced as the CLI's revert is, by the checkpoint the step started at.
    assert_eq!(
        next_event(&events, "restored", Duration::from_secs(5)),
        json!({"target": start, "safety": done["safety"]})
    );
    assert_eq!(done["from"], start.as_str());
    assert_eq!(done["to"], step.as_str());
    assert_eq!(done["conflicts"], json!([]));
    assert_eq!(repo.oracle_tree(), expected.trim());
    assert_eq!(repo.read("a.txt"), "1\n2\n3\n4\nlater\n");
    assert!(!repo.path().join("added.txt").exists());
    let safety = done["safety"].as_str().unwrap().to_string();
    assert_eq!(repo.checkpoint_tree(&safety), ours);
    // Undo takes the revert back.
    server.call("POST", "/api/undo", None).ok();
    assert_eq!(repo.oracle_tree(), ours);
    // The same line changed since: a 409 naming the file; nothing written.
    repo.write("a.txt", "1\nY\n3\n4\nlater\n");
    let message = server.call("POST", &path, Some(json!({}))).error(409);
    assert!(message.contains("a.txt"), "{message}");
    assert_eq!(repo.read("a.txt"), "1\nY\n3\n4\nlater\n");
    let bad = server
        .call("POST", &path, Some(json!({"to": step, "nope": 1})))
        .error(400);
    assert!(bad.contains("nope"), "{bad}");
    repo.fsck();
}

/// `line 1` … `line 20`, one a line, with the lines numbered in `changed` replaced.
pub fn numbered(changed: &[(usize, &str)]) -> String {
    (1..=20)
        .map(|n| match changed.iter().find(|(at, _)| *at == n) {
            Some((_, text)) => format!("{text}\n"),
            None => format!("line {n}\n"),
        })
        .collect()
}

/// The hunks of `path` in a diff answer.
#[track_caller]
fn hunks_in<'a>(diff: &'a Value, path: &str) -> &'a [Value] {
    diff["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("no {path} in {diff}"))["hunks"]
        .as_array()
        .unwrap()
}

/// What git makes of taking back hunk `n` of `path`'s change from tree `old` to tree `new`
/// out of tree `now`: that one hunk of `git diff`, applied in reverse by `git apply --cached`
/// in an index of its own; the tree written.
fn git_without_hunk(repo: &Repo, old: &str, new: &str, path: &str, n: usize, now: &str) -> String {
    let patch = repo.git(&["diff", old, new, "--", path]);
    let mut head = String::new();
    let mut hunks: Vec<String> = Vec::new();
    for line in patch.lines() {
        if line.starts_with("@@") {
            hunks.push(String::new());
        }
        match hunks.last_mut() {
            Some(hunk) => hunk.push_str(line),
            None => head.push_str(line),
        }
        match hunks.last_mut() {
            Some(hunk) => hunk.push('\n'),
            None => head.push('\n'),
        }
    }
    let file = repo.scratch().join("one-hunk.patch");
    std::fs::write(&file, format!("{head}{}", hunks[n])).unwrap();
    let index = repo.scratch().join("one-hunk.index");
    let env = [("GIT_INDEX_FILE", index.to_str().unwrap())];
    repo.git_env(&env, &["read-tree", now]);
    repo.git_env(&env, &["apply", "-R", "--cached", file.to_str().unwrap()]);
    repo.git_env(&env, &["write-tree"])
}

/// One hunk restored: exactly that hunk goes back (what git's `apply -R` of it makes), the
/// rest of the file and the other files stay, the safety checkpoint holds the state before,
/// and undo brings the hunk back. The diff gives the ids, as `diff --json` does.
#[test]
fn restore_one_hunk_takes_back_only_it_and_undo_brings_it_back() {
    let repo = Repo::with_commit(&[("a.txt", &numbered(&[])), ("b.txt", "b\n")]);
    let cp = repo.save(&["-q"]);
    let edited = numbered(&[(2, "two, edited"), (18, "eighteen, edited")]);
    repo.write("a.txt", &edited);
    repo.write("b.txt", "b, edited\n");
    let server = serve(&repo);
    let diff_path = format!("/api/checkpoints/{cp}/diff");
    let diff = server.get(&diff_path).ok();
    assert_eq!(
        diff["files"],
        cli_json(&repo, &["diff", "--json", &cp])["files"]
    );
    let hunks = hunks_in(&diff, "a.txt");
    let headers: Vec<&Value> = hunks.iter().map(|h| &h["header"]).collect();
    assert_eq!(headers, ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,6 @@ line 14"]);
    let first = hunks[0]["id"].as_str().unwrap().to_string();
    let second = hunks[1]["id"].as_str().unwrap().to_string();
    let before = repo.oracle_tree();
    let expected = git_without_hunk(
        &repo,
        &format!("refs/checkpoints/{cp}^{{tree}}"),
        &before,
        "a.txt",
        0,
        &before,
    );
    let ids = repo.checkpoint_ids();
    let restore = format!("/api/checkpoints/{cp}/restore");

    // A dry run names the file and changes nothing.
    let plan = server
        .call(
            "POST",
            &restore,
            Some(json!({"hunks": [first], "dry_run": true})),
        )
        .ok();
    assert_eq!(
        (&plan["write"], &plan["delete"], &plan["dry_run"]),
        (&json!(["a.txt"]), &json!([]), &json!(true))
    );
    assert_eq!(repo.read("a.txt"), edited);
    assert_eq!(repo.checkpoint_ids(), ids, "a dry run saves nothing");

    let done = server
        .call("POST", &restore, Some(json!({"hunks": [first]})))
        .ok();
    assert_eq!(done["target"], cp.as_str());
    assert_eq!(
        (&done["write"], &done["delete"]),
        (&json!(["a.txt"]), &json!([]))
    );
    assert_eq!(repo.read("a.txt"), numbered(&[(18, "eighteen, edited")]));
    assert_eq!(repo.read("b.txt"), "b, edited\n");
    assert_eq!(repo.oracle_tree(), expected);
    // The other hunk is still there, with the same id.
    let after = server.get(&diff_path).ok();
    let left: Vec<&Value> = hunks_in(&after, "a.txt").iter().map(|h| &h["id"]).collect();
    assert_eq!(left, [second.as_str()]);
    // The state before is kept, and undo brings it back.
    let safety = done["safety"].as_str().unwrap().to_string();
    assert_eq!(
        cli_json(&repo, &["show", "--json", &safety])["kind"],
        "pre-restore"
    );
    assert_eq!(repo.checkpoint_tree(&safety), before);
    let undone = server.call("POST", "/api/undo", None).ok();
    assert_eq!(undone["target"], safety.as_str());
    assert_eq!(repo.read("a.txt"), edited);
    assert_eq!(repo.oracle_tree(), before);
    repo.fsck();
}

/// A hunk id that names nothing (unknown, stale since the file changed, malformed) and a body
/// that mixes hunks with what they cannot go with are a 400 with an error object, and change
/// nothing; so are the revert's `agent` with `to` or a session, and `hunks: []`.
#[test]
fn bad_hunk_and_agent_requests_are_400_and_change_nothing() {
    let repo = Repo::with_commit(&[("a.txt", &numbered(&[]))]);
    let cp = repo.save(&["-q"]);
    repo.write("a.txt", &numbered(&[(2, "two, edited"), (18, "eighteen")]));
    let server = serve(&repo);
    let diff = server.get(&format!("/api/checkpoints/{cp}/diff")).ok();
    let id = hunks_in(&diff, "a.txt")[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The file changes after the diff was read: that hunk is no longer there.
    let now = numbered(&[(2, "two, edited again"), (18, "eighteen")]);
    repo.write("a.txt", &now);
    let ids = repo.checkpoint_ids();
    let restore = format!("/api/checkpoints/{cp}/restore");
    let revert = format!("/api/checkpoints/{cp}/revert");
    let cases = [
        (&restore, json!({"hunks": [id]}), id.as_str()),
        (
            &restore,
            json!({"hunks": ["0123456789abcdef"]}),
            "0123456789abcdef",
        ),
        (&restore, json!({"hunks": ["not-an-id"]}), "not a hunk id"),
        (
            &restore,
            json!({"hunks": [id], "paths": ["a.txt"]}),
            "not both",
        ),
        (&restore, json!({"hunks": [id], "staged": true}), "staged"),
        (&restore, json!({"hunks": []}), "`hunks` is empty"),
        (&restore, json!({"hunks": null}), "null"),
        (&restore, json!({"hunks": id}), "sequence"),
        (&restore, json!({"hunks": [1]}), "integer"),
        (&restore, json!({"hunk": [id]}), "unknown field `hunk`"),
        (&revert, json!({"hunks": []}), "`hunks` is empty"),
        (
            &revert,
            json!({"agent": "claude-code", "to": cp}),
            "not both",
        ),
        (
            &revert,
            json!({"agent": "claude-code", "hunks": [id]}),
            "one step",
        ),
        (&revert, json!({"agent": ""}), "`agent` is empty"),
        (&revert, json!({"agent": "nobody"}), "no step"),
        (
            &revert,
            json!({"agents": "claude-code"}),
            "unknown field `agents`",
        ),
    ];
    for (path, body, says) in cases {
        let message = server.call("POST", path, Some(body.clone())).error(400);
        assert!(message.contains(says), "{body}: {message}");
    }
    let message = server
        .call(
            "POST",
            "/api/checkpoints/session:s1/revert",
            Some(json!({"agent": "claude-code"})),
        )
        .error(400);
    assert!(message.contains("session"), "{message}");
    assert_eq!(repo.read("a.txt"), now);
    assert_eq!(repo.checkpoint_ids(), ids, "no safety checkpoint either");
}

/// One hunk of a step taken back: that hunk goes (what git's `apply -R` of it makes of the
/// working tree), the step's other hunk and the later change stay; as the CLI's dry run says.
#[test]
fn revert_one_hunk_of_a_step_keeps_the_rest() {
    let repo = Repo::with_commit(&[("a.txt", &numbered(&[]))]);
    let start = repo.save(&["-q"]);
    repo.write(
        "a.txt",
        &numbered(&[(2, "two, step"), (18, "eighteen, step")]),
    );
    let step = repo.save(&["-q"]);
    repo.write(
        "a.txt",
        &numbered(&[(2, "two, step"), (10, "ten, later"), (18, "eighteen, step")]),
    );
    let server = serve(&repo);
    let diff = server
        .get(&format!("/api/checkpoints/{start}/diff?to={step}"))
        .ok();
    let hunks = hunks_in(&diff, "a.txt");
    assert_eq!(hunks.len(), 2);
    let second = hunks[1]["id"].as_str().unwrap().to_string();
    let before = repo.oracle_tree();
    let expected = git_without_hunk(
        &repo,
        &format!("refs/checkpoints/{start}"),
        &format!("refs/checkpoints/{step}"),
        "a.txt",
        1,
        &before,
    );
    let path = format!("/api/checkpoints/{start}/revert");
    let plan = server
        .call(
            "POST",
            &path,
            Some(json!({"to": step, "hunks": [second], "dry_run": true})),
        )
        .ok();
    let cli = cli_json(
        &repo,
        &[
            "revert",
            "--json",
            "--dry-run",
            &start,
            &step,
            "--hunk",
            &second,
        ],
    );
    assert_eq!(plan, cli);
    assert_eq!(plan["write"], json!(["a.txt"]));
    let done = server
        .call("POST", &path, Some(json!({"to": step, "hunks": [second]})))
        .ok();
    assert_eq!((&done["from"], &done["to"]), (&json!(start), &json!(step)));
    assert_eq!(
        repo.read("a.txt"),
        numbered(&[(2, "two, step"), (10, "ten, later")])
    );
    assert_eq!(repo.oracle_tree(), expected);
    server.call("POST", "/api/undo", None).ok();
    assert_eq!(repo.oracle_tree(), before);
    repo.fsck();
}

/// A checkpoint an agent's hook takes before a tool call (Claude Code's `PreToolUse`).
pub fn agent_hook(repo: &Repo, session: &str) {
    let input = json!({
        "session_id": session,
        "cwd": repo.path(),
        "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": repo.path().join("a.txt")},
    });
    repo.cp_stdin(
        repo.path(),
        |_| {},
        &["save", "--from-hook=claude-code"],
        input.to_string().as_bytes(),
    )
    .ok();
}

/// `agent`: every step of that agent's sessions taken back, newest first, keeping what the
/// user changed between and after them (git's `merge-tree`, step by step, is the oracle), as
/// the CLI's `revert --agent` says.
#[test]
fn revert_with_agent_takes_back_that_agents_steps_only() {
    let repo = Repo::with_commit(&[("a.txt", &numbered(&[])), ("b.txt", "b\n")]);
    agent_hook(&repo, "s1");
    repo.write("a.txt", &numbered(&[(2, "two, agent")]));
    repo.save(&["-q", "-m", "the user's"]);
    repo.write("b.txt", "b, user\n");
    agent_hook(&repo, "s2");
    repo.write(
        "a.txt",
        &numbered(&[(2, "two, agent"), (18, "eighteen, agent")]),
    );
    repo.save(&["-q", "-m", "the user's again"]);
    repo.write("b.txt", "b, user again\n");
    let own = cli_json(&repo, &["list", "--json"]);
    let ids: Vec<&str> = own
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 4, "{own}");
    let server = serve(&repo);
    let path = "/api/checkpoints/@/revert";
    let plan = server
        .call(
            "POST",
            path,
            Some(json!({"agent": "claude-code", "dry_run": true})),
        )
        .ok();
    let cli = cli_json(
        &repo,
        &["revert", "--json", "--dry-run", "--agent", "claude-code"],
    );
    assert_eq!(plan, cli);
    // git's three-way merges, newest step first: base the step's end, ours what the working
    // tree has become, theirs the step's start.
    let before = repo.oracle_tree();
    let mut ours = before.clone();
    for (start, end) in [(ids[2], ids[3]), (ids[0], ids[1])] {
        let commit = repo.git(&["commit-tree", &ours, "-m", "ours"]);
        ours = repo.git(&[
            "merge-tree",
            "--write-tree",
            &format!("--merge-base=refs/checkpoints/{end}"),
            &commit,
            &format!("refs/checkpoints/{start}"),
        ]);
    }
    let done = server
        .call("POST", path, Some(json!({"agent": "claude-code"})))
        .ok();
    assert_eq!(done["steps"], 2);
    assert_eq!(
        (&done["from"], &done["to"]),
        (&json!(ids[0]), &json!(ids[3]))
    );
    assert_eq!(repo.read("a.txt"), numbered(&[]));
    assert_eq!(repo.read("b.txt"), "b, user again\n");
    assert_eq!(repo.oracle_tree(), ours);
    server.call("POST", "/api/undo", None).ok();
    assert_eq!(repo.oracle_tree(), before);
    repo.fsck();
}

#[test]
fn conflicts_are_409() {
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    let id = repo.save(&["-q", "--allow-empty"]);
    let server = serve(&repo);
    let message = server.call("POST", "/api/undo", None).error(409);
    assert!(message.contains("nothing to undo"), "{message}");
    server.call("POST", "/api/redo", None).error(409);
    // Another restore holds this worktree's restore lock.
    repo.write("f.txt", "changed\n");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(repo.path().join(".git/checkpoint-restore"))
        .unwrap();
    lock.lock().unwrap();
    let message = server
        .call("POST", &format!("/api/checkpoints/{id}/restore"), None)
        .error(409);
    assert!(message.contains("another restore"), "{message}");
    assert_eq!(repo.read("f.txt"), "changed\n");
    lock.unlock().unwrap();
    server
        .call("POST", &format!("/api/checkpoints/{id}/restore"), None)
        .ok();
    assert_eq!(repo.read("f.txt"), "base\n");
}

#[test]
fn a_broken_repository_is_a_500_and_the_server_goes_on() {
    let (repo, ids) = three();
    let server = serve(&repo);
    // The tree of a checkpoint is gone (a loose object deleted by hand).
    let tree = repo.checkpoint_tree(&ids[1]);
    let object = repo
        .path()
        .join(".git/objects")
        .join(&tree[..2])
        .join(&tree[2..]);
    std::fs::remove_file(&object).unwrap();
    server
        .get(&format!("/api/checkpoints/{}/diff?to={}", ids[0], ids[1]))
        .error(500);
    assert_eq!(
        server
            .get("/api/checkpoints")
            .ok()
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn pin_unpin_and_drop() {
    let (repo, ids) = three();
    let server = serve(&repo);
    let pin = format!("/api/checkpoints/{}/pin", ids[1]);
    let pinned = server.call("PUT", &pin, None).ok();
    assert_eq!(pinned["pinned"], true);
    assert_eq!(pinned, cli_json(&repo, &["show", "--json", &ids[1]]));
    let unpinned = server.call("DELETE", &pin, None).ok();
    assert_eq!(unpinned["pinned"], false);
    assert_eq!(
        cli_json(&repo, &["show", "--json", &ids[1]])["pinned"],
        false
    );
    server
        .call("PUT", "/api/checkpoints/nosuch/pin", None)
        .error(404);

    let commit = repo.checkpoint_commit(&ids[0]);
    let dropped = server
        .call("DELETE", &format!("/api/checkpoints/{}", ids[0]), None)
        .ok();
    assert_eq!(
        dropped,
        json!({"dropped": [{"id": ids[0], "commit": commit}]})
    );
    assert_eq!(repo.checkpoint_ids(), [ids[1].clone(), ids[2].clone()]);
    server
        .get(&format!("/api/checkpoints/{}", ids[0]))
        .error(404);
    server
        .call("DELETE", &format!("/api/checkpoints/{}", ids[0]), None)
        .error(404);
}

#[test]
fn unknown_paths_are_404_and_wrong_methods_405() {
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    let server = serve(&repo);
    server.get("/api/nothing").error(404);
    server.get("/index.php").error(404);
    server.call("PATCH", "/api/checkpoints", None).error(405);
    server.call("GET", "/api/undo", None).error(405);
    // No checkpoints yet: naming one is a 404 that says so.
    let message = server.get("/api/checkpoints/@").error(404);
    assert!(message.contains("no checkpoints"), "{message}");
}

#[test]
fn the_page_and_its_assets_come_from_the_binary_with_a_strict_policy() {
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    let server = serve(&repo);
    for (path, kind, needle) in [
        ("/", "text/html", "<script src=\"/app.js\""),
        ("/app.js", "text/javascript", "textContent"),
        ("/app.css", "text/css", "@media (max-width"),
    ] {
        let reply = server.get(path);
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        assert!(reply.body.contains(needle), "{path}");
        let csp = reply.header("content-security-policy").unwrap();
        assert!(
            csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{csp}"
        );
        assert_eq!(reply.header("x-frame-options"), Some("DENY"));
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    }
    // Data goes into the page as text only.
    let script = server.get("/app.js").body;
    assert!(
        !script.contains("innerHTML")
            && !script.contains("insertAdjacentHTML")
            && !script.contains("document.write")
    );
    assert!(
        !server.get("/").body.contains("http"),
        "nothing from the network"
    );
}

// --- Security -----------------------------------------------------------------------------

/// Every endpoint, as method and path.
fn endpoints(id: &str) -> Vec<(&'static str, String)> {
    vec![
        ("GET", "/".into()),
        ("GET", "/app.js".into()),
        ("GET", "/api/repository".into()),
        ("GET", "/api/checkpoints".into()),
        ("POST", "/api/checkpoints".into()),
        ("GET", format!("/api/checkpoints/{id}")),
        ("DELETE", format!("/api/checkpoints/{id}")),
        ("GET", format!("/api/checkpoints/{id}/diff")),
        ("POST", format!("/api/checkpoints/{id}/restore")),
        ("POST", format!("/api/checkpoints/{id}/revert")),
        ("PUT", format!("/api/checkpoints/{id}/pin")),
        ("DELETE", format!("/api/checkpoints/{id}/pin")),
        ("POST", "/api/undo".into()),
        ("POST", "/api/redo".into()),
        ("GET", "/api/events".into()),
    ]
}

#[test]
fn every_request_needs_the_token() {
    let (repo, ids) = three();
    repo.write("f.txt", "unsaved\n");
    let server = serve(&repo);
    let wrong_cookie = format!(
        "git_checkpoint_{}=0123456789abcdef0123456789abcdef01234567",
        server.port
    );
    let other_port_cookie = format!("git_checkpoint_{}={}", server.port + 1, server.token);
    let short = format!("Bearer {}", &server.token[..server.token.len() - 1]);
    let credentials: Vec<Vec<(&str, &str)>> = vec![
        vec![],
        vec![("Authorization", "Bearer nope")],
        vec![("Authorization", short.as_str())],
        vec![("Authorization", &server.token)],
        vec![("Cookie", wrong_cookie.as_str())],
        vec![("Cookie", other_port_cookie.as_str())],
    ];
    for (method, path) in endpoints(&ids[0]) {
        for headers in &credentials {
            let reply = server.raw(method, &path, headers, None);
            let message = reply.error(401);
            assert!(message.contains("token"), "{message}");
        }
    }
    // The token in a URL is taken only by the page, and never by the API.
    server
        .raw(
            "GET",
            &format!("/api/checkpoints?token={}", server.token),
            &[],
            None,
        )
        .error(401);
    // Nothing happened.
    assert_eq!(repo.read("f.txt"), "unsaved\n");
    assert_eq!(repo.checkpoint_ids(), ids);
}

#[test]
fn the_tokened_url_sets_a_strict_http_only_cookie_that_then_works() {
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    let id = repo.save(&["-q", "--allow-empty"]);
    let server = serve(&repo);
    let page = server.raw("GET", &format!("/?token={}", server.token), &[], None);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<title>git checkpoint</title>"));
    let cookie = page.header("set-cookie").unwrap().to_string();
    let attrs: Vec<&str> = cookie.split(';').map(str::trim).collect();
    assert_eq!(
        attrs[0],
        format!("git_checkpoint_{}={}", server.port, server.token)
    );
    for attr in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(attrs.contains(&attr), "{cookie}");
    }
    let jar = attrs[0];
    let listed = server
        .raw("GET", "/api/checkpoints", &[("Cookie", jar)], None)
        .ok();
    assert_eq!(listed[0]["id"], id.as_str());
    let mixed = format!("theme=dark; {jar}; other=1");
    server
        .raw(
            "PUT",
            &format!("/api/checkpoints/{id}/pin"),
            &[("Cookie", &mixed)],
            None,
        )
        .ok();
    // A wrong token in the URL sets nothing.
    let wrong = server.raw("GET", "/?token=0000", &[], None);
    wrong.error(401);
    assert_eq!(wrong.header("set-cookie"), None);
}

#[test]
fn a_foreign_host_is_refused_even_with_the_token() {
    let (repo, ids) = three();
    let server = serve(&repo);
    let bearer = format!("Bearer {}", server.token);
    let other_port = format!("127.0.0.1:{}", server.port + 1);
    for host in [
        "evil.example",
        &format!("evil.example:{}", server.port),
        &format!("localhost.evil.example:{}", server.port),
        &other_port,
        &format!("[::1]:{}", server.port),
    ] {
        for (method, path) in endpoints(&ids[0]) {
            let reply = server.raw(
                method,
                &path,
                &[("Authorization", &bearer), ("Host", host)],
                None,
            );
            let message = reply.error(403);
            assert!(message.contains("Host"), "{message}");
        }
    }
    assert_eq!(repo.checkpoint_ids(), ids, "nothing was dropped");
    for host in [
        format!("localhost:{}", server.port),
        format!("LOCALHOST:{}", server.port),
        format!("127.0.0.1:{}", server.port),
    ] {
        server
            .raw(
                "GET",
                "/api/checkpoints",
                &[("Authorization", &bearer), ("Host", &host)],
                None,
            )
            .ok();
    }
}

#[test]
fn a_request_from_another_origin_cannot_change_anything() {
    let (repo, ids) = three();
    repo.write("f.txt", "unsaved\n");
    let server = serve(&repo);
    let bearer = format!("Bearer {}", server.token);
    let cookie = format!("git_checkpoint_{}={}", server.port, server.token);
    let other_port = format!("http://127.0.0.1:{}", server.port + 1);
    let foreign: Vec<(&str, &str)> = vec![
        ("Origin", "http://evil.example"),
        ("Origin", other_port.as_str()),
        ("Origin", "null"),
        ("Origin", "https://127.0.0.1"),
        ("Sec-Fetch-Site", "cross-site"),
        ("Sec-Fetch-Site", "same-site"),
    ];
    for (method, path) in endpoints(&ids[0]) {
        if method == "GET" {
            continue;
        }
        for header in &foreign {
            for auth in [
                ("Authorization", bearer.as_str()),
                ("Cookie", cookie.as_str()),
            ] {
                let reply = server.raw(method, &path, &[auth, *header], Some("{}"));
                let message = reply.error(403);
                assert!(message.contains("another origin"), "{message}");
            }
        }
    }
    assert_eq!(repo.read("f.txt"), "unsaved\n");
    assert_eq!(repo.checkpoint_ids(), ids);
    assert_eq!(
        cli_json(&repo, &["show", "--json", &ids[0]])["pinned"],
        false
    );
    // The page's own origin may; reading is allowed from anywhere the token is (without CORS
    // headers a browser still keeps another origin's script from seeing the answer).
    let own = server.base();
    server
        .raw(
            "PUT",
            &format!("/api/checkpoints/{}/pin", ids[0]),
            &[
                ("Cookie", &cookie),
                ("Origin", &own),
                ("Sec-Fetch-Site", "same-origin"),
            ],
            None,
        )
        .ok();
    let read = server.raw(
        "GET",
        "/api/checkpoints",
        &[
            ("Authorization", &bearer),
            ("Origin", "http://evil.example"),
        ],
        None,
    );
    read.ok();
    // A CORS preflight gets no CORS answer.
    let preflight = server.raw(
        "OPTIONS",
        "/api/checkpoints",
        &[
            ("Origin", "http://evil.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
        None,
    );
    assert!(preflight.status >= 400, "{preflight:?}");
}

// --- Live events --------------------------------------------------------------------------

#[test]
fn events_announce_a_save_made_by_another_process() {
    let (repo, ids) = three();
    let server = serve(&repo);
    let events = server.events();
    repo.write("f.txt", "by an agent's hook\n");
    let started = Instant::now();
    let id = repo.save(&["-q", "--kind", "auto", "-m", "hook"]);
    let saved = next_event(&events, "saved", Duration::from_secs(10));
    assert_eq!(saved, cli_json(&repo, &["show", "--json", &id]));
    eprintln!(
        "another process's save was announced after {:?}",
        started.elapsed()
    );
    // Pinned and dropped by other processes too.
    repo.cp(&["pin", "-q", &ids[0]]).ok();
    assert_eq!(
        next_event(&events, "pinned", Duration::from_secs(10)),
        json!({"id": ids[0], "pinned": true})
    );
    repo.cp(&["drop", "-q", &ids[1]]).ok();
    assert_eq!(
        next_event(&events, "dropped", Duration::from_secs(10)),
        json!({"ids": [ids[1]]})
    );
    // A restore by another process shows as its safety checkpoint and the restore.
    repo.write("f.txt", "not saved yet\n");
    repo.cp(&["restore", "-q", &ids[0]]).ok();
    let restored = next_event(&events, "restored", Duration::from_secs(10));
    assert_eq!(restored["target"], ids[0].as_str());
    assert!(restored["safety"].is_string());
    // A prune of its own is a prune, not a drop; the pinned checkpoint stays.
    let before = repo.checkpoint_ids();
    repo.cp(&["prune", "-q", "--keep", "0"]).ok();
    let pruned = next_event(&events, "pruned", Duration::from_secs(10));
    let mut gone: Vec<String> = before
        .into_iter()
        .filter(|id| !repo.checkpoint_ids().contains(id))
        .collect();
    gone.sort_by(|a, b| b.cmp(a));
    assert!(!gone.is_empty());
    assert_eq!(pruned, json!({ "ids": gone }));
}

#[test]
fn events_announce_this_servers_own_changes_once() {
    let (repo, ids) = three();
    repo.write("f.txt", "unsaved\n");
    let server = serve(&repo);
    let events = server.events();
    server
        .call("PUT", &format!("/api/checkpoints/{}/pin", ids[0]), None)
        .ok();
    assert_eq!(
        next_event(&events, "pinned", Duration::from_secs(5)),
        json!({"id": ids[0], "pinned": true})
    );
    let done = server
        .call(
            "POST",
            &format!("/api/checkpoints/{}/restore", ids[1]),
            None,
        )
        .ok();
    let safety = done["safety"].as_str().unwrap();
    assert_eq!(
        next_event(&events, "saved", Duration::from_secs(5))["id"],
        safety
    );
    assert_eq!(
        next_event(&events, "restored", Duration::from_secs(5)),
        json!({"target": ids[1], "safety": safety})
    );
    server
        .call("DELETE", &format!("/api/checkpoints/{}", ids[2]), None)
        .ok();
    assert_eq!(
        next_event(&events, "dropped", Duration::from_secs(5)),
        json!({"ids": [ids[2]]})
    );
    // Retention after a save: pruned (one manual checkpoint kept: the one just saved).
    repo.git(&["config", "checkpoint.keep", "1"]);
    repo.git(&["config", "checkpoint.minAge", "0"]);
    repo.write("f.txt", "one more\n");
    let saved = server
        .call("POST", "/api/checkpoints", Some(json!({"message": "last"})))
        .json();
    assert_eq!(
        next_event(&events, "saved", Duration::from_secs(5))["id"],
        saved["id"]
    );
    let pruned = next_event(&events, "pruned", Duration::from_secs(5));
    assert!(!pruned["ids"].as_array().unwrap().is_empty());
    // Each change was announced once, even though the watcher also saw it: nothing more comes.
    let deadline = Instant::now() + Duration::from_millis(2500);
    while let Ok(line) = events.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        assert!(!line.starts_with("event:"), "announced twice: {line}");
    }
}

// --- The command ----------------------------------------------------------------------------

#[test]
fn serve_refuses_a_bad_address_and_a_port_in_use_and_serves_a_plain_directory() {
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    let out = repo.cp(&["serve", "--listen", "example.com"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("not an IP address"), "{}", out.stderr);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = repo.cp(&["serve", "--port", &port]).fails_with(1);
    assert!(
        out.stderr.contains("cannot listen on 127.0.0.1:"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("hint: "), "{}", out.stderr);
    // Outside any repository: the directory's own checkpoints, from its private store.
    let outside = tempfile::tempdir().unwrap();
    let ceiling = outside.path().parent().unwrap().as_os_str().to_owned();
    std::fs::write(outside.path().join("a.txt"), "plain\n").unwrap();
    let mut cmd = Command::new(bin());
    cmd.args(["save", "-q", "-m", "in a plain directory"])
        .current_dir(outside.path());
    repo.env(&mut cmd);
    cmd.env("GIT_CEILING_DIRECTORIES", &ceiling);
    let saved: crate::common::Run = cmd.output().unwrap().into();
    assert_eq!(saved.code, 0, "{}", saved.stderr);
    let id = saved.stdout.trim().to_string();
    let server = serve_in(
        &repo,
        outside.path(),
        &[],
        &[("GIT_CEILING_DIRECTORIES", ceiling.as_os_str())],
    );
    let listed = server.get("/api/checkpoints").ok();
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["message"], "in a plain directory");
    assert!(!outside.path().join(".git").exists());
}

/// Started in a folder below a plain directory that has a store, serve acts on that directory:
/// its startup lines name it and say it is not the current one (as the CLI does), and
/// `GET /api/repository` gives it to the page. In a repository's subdirectory, the top of the
/// working tree, and nothing "above".
#[test]
fn serve_says_which_directory_it_acts_on() {
    let repo = Repo::plain();
    repo.write("f.txt", "f\n");
    let id = repo.save(&["-q"]);
    let below = repo.path().join("new/folder");
    std::fs::create_dir_all(&below).unwrap();
    let top = repo.path().canonicalize().unwrap();
    let store = repo.store().canonicalize().unwrap();
    let (server, said) = serve_saying(&repo, &below, &[]);
    assert!(
        said.contains(&format!(
            "note: acting on `{}`, the directory above this one whose checkpoints are kept in `{}`",
            top.display(),
            store.display()
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "serving the checkpoints of `{}` on",
            top.display()
        )),
        "{said}"
    );
    assert!(!said.contains(&below.display().to_string()), "{said}");
    let about = server.get("/api/repository").ok();
    assert_eq!(about["directory"], top.display().to_string());
    assert_eq!(about["acting_on"], top.display().to_string());
    assert_eq!(about["plain"], true);
    assert_eq!(
        std::path::Path::new(about["store"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        store
    );
    assert_eq!(server.get("/api/checkpoints").ok()[0]["id"], id.as_str());
    drop(server);

    // At the directory itself: no note, and nothing acted on "above".
    let (server, said) = serve_saying(&repo, repo.path(), &[]);
    assert!(!said.contains("acting on"), "{said}");
    assert_eq!(server.get("/api/repository").ok()["acting_on"], Value::Null);
    drop(server);

    // In a repository, from a subdirectory: the working tree's top, not a plain directory.
    let git = Repo::with_commit(&[("sub/a.txt", "a\n")]);
    let (server, said) = serve_saying(&git, &git.path().join("sub"), &[]);
    let top = git.path().canonicalize().unwrap();
    assert!(!said.contains("acting on"), "{said}");
    let about = server.get("/api/repository").ok();
    assert_eq!(
        std::path::Path::new(about["directory"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        top
    );
    assert_eq!(about["plain"], false);
    assert_eq!(about["store"], Value::Null);
    assert_eq!(about["acting_on"], Value::Null);
}

#[test]
fn help_shows_examples() {
    let repo = Repo::new();
    let out = repo.cp(&["serve", "--help"]).ok();
    assert!(
        out.stdout.contains("Examples:") && out.stdout.contains("--listen"),
        "{}",
        out.stdout
    );
}

/// `GET /api/checkpoints/{cp}/conversation`: the conversation as `show --conversation --json`
/// gives it, plus the last prompt and the tool call that came next; only those two with
/// `?summary=true`; 404 saying why for a checkpoint without one; 400 for a bad query.
#[test]
fn the_conversation_endpoint_gives_what_show_gives() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let chat = repo.scratch().join("chat.json");
    let messages = serde_json::json!([
        {"role": "user", "content": "run the tests"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "shell", "arguments": "{\"command\":\"make test\"}"}}]},
    ]);
    std::fs::write(&chat, messages.to_string()).unwrap();
    repo.write("a.txt", "b\n");
    let with = repo.save(&["--conversation", chat.to_str().unwrap()]);
    repo.write("a.txt", "c\n");
    let without = repo.save(&["-m", "none"]);
    let shown: Value = serde_json::from_str(
        &repo
            .cp(&["show", &with, "--conversation", "--json"])
            .ok()
            .stdout,
    )
    .unwrap();
    let server = serve(&repo);

    let whole = server
        .get(&format!("/api/checkpoints/{with}/conversation"))
        .ok();
    for key in ["format", "bytes", "turns", "content"] {
        assert_eq!(whole[key], shown[key], "{key}");
    }
    assert_eq!(whole["prompt"]["text"], "run the tests", "{whole}");
    assert_eq!(whole["next_tool"]["tool"], "shell", "{whole}");

    let summary = server
        .get(&format!(
            "/api/checkpoints/{with}/conversation?summary=true"
        ))
        .ok();
    let mut keys: Vec<&String> = summary.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["id", "next_tool", "prompt"], "{summary}");
    assert_eq!(summary["next_tool"], whole["next_tool"]);

    let missing = server
        .get(&format!("/api/checkpoints/{without}/conversation"))
        .error(404);
    assert!(missing.contains("no conversation"), "{missing}");
    for bad in ["summary=maybe", "summary=true&turns=3"] {
        server
            .get(&format!("/api/checkpoints/{with}/conversation?{bad}"))
            .error(400);
    }
}
