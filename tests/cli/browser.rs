//! `serve`'s page in a real headless Chromium, driven through chromedriver with the W3C
//! WebDriver protocol (a few JSON requests over ureq; no WebDriver crate). It loads the page,
//! sees the checkpoints, opens a diff, compares two, restores after the dry-run confirmation,
//! sees the undo and uses it, gets a live update, and shows hostile notes as text.
//!
//! Without chromium and chromedriver the test says `SKIPPED: …` on the terminal (not captured);
//! with `GIT_CHECKPOINT_REQUIRE_BROWSER=1` (CI sets it) their absence fails instead.

use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Repo;
use crate::serve::{numbered, serve, serve_in};

/// The W3C name of an element reference in WebDriver's JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// Chromium and chromedriver, or `None` after saying why the test is skipped.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
    let driver = find_program(&["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        (c, _) => {
            let missing = if c.is_none() {
                "chromium"
            } else {
                "chromedriver"
            };
            let reason =
                format!("{missing} is not installed (apt-get install chromium chromium-driver)");
            if std::env::var_os("GIT_CHECKPOINT_REQUIRE_BROWSER").is_some() {
                panic!("GIT_CHECKPOINT_REQUIRE_BROWSER is set, but {reason}");
            }
            // Straight to the terminal: the test harness captures only `eprintln!`.
            let _ = writeln!(std::io::stderr(), "SKIPPED: the browser test: {reason}");
            None
        }
    }
}

/// A chromedriver process with one headless Chromium session; both end when dropped.
struct Driver {
    process: Child,
    base: String,
    agent: ureq::Agent,
    _profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.send("DELETE", "", None);
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

impl Driver {
    fn start(chromium: &std::path::Path, chromedriver: &std::path::Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let process = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(90)))
            .build()
            .into();
        let root = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        while agent.get(format!("{root}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::tempdir().unwrap();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
            &format!("--user-data-dir={}", profile.path().display()),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let mut driver = Driver {
            process,
            base: String::new(),
            agent,
            _profile: profile,
        };
        let created = driver.post_to(&format!("{root}/session"), capabilities);
        let session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"));
        driver.base = format!("{root}/session/{session}");
        driver
    }

    fn post_to(&self, url: &str, body: Value) -> Value {
        let mut response = self
            .agent
            .post(url)
            .header("Content-Type", "application/json")
            .send(body.to_string())
            .unwrap();
        let value: Value =
            serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
        assert_eq!(response.status().as_u16(), 200, "{url}: {value}");
        value["value"].clone()
    }

    fn send(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let request = ureq::http::Request::builder().method(method).uri(&url);
        let response = match body {
            Some(body) => self.agent.run(
                request
                    .header("Content-Type", "application/json")
                    .body(body.to_string())
                    .unwrap(),
            ),
            None => self.agent.run(request.body(()).unwrap()),
        };
        let mut response = response.map_err(|e| e.to_string())?;
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| e.to_string())?;
        let value: Value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
        if response.status().as_u16() != 200 {
            return Err(format!("{method} {path}: {value}"));
        }
        Ok(value["value"].clone())
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.send(method, path, body).unwrap()
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    /// Run `script` (a function body; `arguments` holds `args`) in the page.
    fn js(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Wait until `script` returns something truthy; return it.
    #[track_caller]
    fn until(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let value = self.js(script, json!([]));
            let truthy = match &value {
                Value::Null | Value::Bool(false) => false,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return value;
            }
            assert!(
                Instant::now() < deadline,
                "waited in vain for {what}; page: {}",
                self.text("body")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The element `css` finds, waiting (up to 20 s) for the page to render it: the page draws
    /// its timeline and details after its requests come back, later on a loaded machine.
    fn element(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match self.send(
                "POST",
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            ) {
                Ok(found) => return found[ELEMENT].as_str().unwrap().to_string(),
                Err(e) if e.contains("no such element") && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => panic!("{e}; page: {}", self.text("body")),
            }
        }
    }

    /// Do `action` (a path below the element, and its body) on the element `css` finds. The
    /// page re-renders its timeline on live updates, so an element found may be replaced
    /// before it is used: then it is found again.
    #[track_caller]
    fn on_element(&self, css: &str, action: &str, body: Value) {
        let mut tries = 0;
        loop {
            let id = self.element(css);
            match self.send(
                "POST",
                &format!("/element/{id}/{action}"),
                Some(body.clone()),
            ) {
                Ok(_) => return,
                // Replaced, or not yet laid out, by a re-render.
                Err(e)
                    if (e.contains("stale element") || e.contains("not interactable"))
                        && tries < 10 =>
                {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => panic!("{action} on {css}: {e}"),
            }
        }
    }

    fn click(&self, css: &str) {
        self.on_element(css, "click", json!({}));
    }

    /// Type `keys` into the element (WebDriver key codes for special keys).
    fn keys(&self, css: &str, keys: &str) {
        self.on_element(css, "value", json!({"text": keys}));
    }

    fn text(&self, css: &str) -> String {
        self.js(
            "const n = document.querySelector(arguments[0]); return n ? n.innerText : '';",
            json!([css]),
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    fn count(&self, css: &str) -> u64 {
        self.js(
            "return document.querySelectorAll(arguments[0]).length;",
            json!([css]),
        )
        .as_u64()
        .unwrap()
    }
}

/// A script that is truthy once the detail shows checkpoint `id` and holds `css`: a detail
/// open before holds the same buttons, for another checkpoint.
fn detail_of(id: &str, css: &str) -> String {
    format!(
        "const d = document.querySelector('#detail .id'); \
         return d && d.innerText === '{id}' && document.querySelector('{css}');"
    )
}

#[test]
fn the_page_shows_diffs_restores_after_confirmation_and_undoes() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    let mut ids = Vec::new();
    for content in ["one", "two", "three"] {
        repo.write("f.txt", &format!("{content}\n"));
        let message = format!("step {content}");
        let mut args = vec!["-q", "-m", &message];
        if content == "two" {
            args.extend(["--name", "milestone"]);
        }
        ids.push(repo.save(&args));
    }
    // A note and a path that try to inject markup.
    let hostile = "<img src=x onerror=\"document.title='pwned'\"><b>bold</b>";
    repo.write("<i>odd.txt", "odd\n");
    repo.write_bytes("image.bin", b"\x89PNG\x00\x01\x02");
    ids.push(repo.save(&["-q", "-m", hostile, "--session", "agent-session-1"]));
    repo.write("f.txt", "unsaved work\n");

    let server = serve(&repo);
    let driver = Driver::start(&chromium, &chromedriver);
    driver.go(&server.url);
    driver.until(
        "the timeline",
        "return document.querySelectorAll('.cp-row').length === 4;",
    );
    // The token left the address bar; the cookie carries on.
    let href = driver.js("return location.href;", json!([]));
    assert!(!href.as_str().unwrap().contains("token"), "{href}");
    // Grouped by day and session.
    assert_eq!(driver.count("#timeline h2"), 1);
    let sessions = driver.text("#timeline");
    assert!(
        sessions.contains("session agent-session-1") && sessions.contains("no session"),
        "{sessions}"
    );
    // Hostile text is text.
    assert!(
        driver.text("#timeline").contains("<img src=x onerror="),
        "{}",
        driver.text("#timeline")
    );
    assert_eq!(driver.count("img, #timeline b"), 0);
    // A checkpoint is shown by its name where it has one, as `list` shows it.
    let named = driver.text(&format!(".cp-row[data-id='{}']", ids[1]));
    assert!(
        named.contains("milestone") && !named.contains("step two"),
        "{named}"
    );
    let list = repo.cp(&["list"]).ok().stdout;
    assert!(
        list.contains("milestone") && !list.contains("step two"),
        "{list}"
    );
    assert_eq!(
        driver.js("return document.title;", json!([])),
        "git checkpoint"
    );

    // A checkpoint's metadata and its changes since the previous one.
    driver.click(&format!(".cp-row[data-id='{}'] .open", ids[3]));
    driver.until(
        "the patch",
        "return document.querySelector('#changes pre.patch .add');",
    );
    let detail = driver.text("#detail");
    assert!(
        detail.contains(ids[3].as_str()) && detail.contains("agent-session-1"),
        "{detail}"
    );
    let files = driver.text("#changes table.files");
    assert!(
        files.contains("<i>odd.txt") && files.contains("image.bin"),
        "{files}"
    );
    assert!(files.contains("binary"), "binary files are named: {files}");
    assert_eq!(driver.count("i"), 0);
    assert!(
        driver
            .text("#changes")
            .contains("Binary files /dev/null and b/image.bin differ")
    );

    // Compare any two: tick them, compare.
    driver.click(&format!(".cp-row[data-id='{}'] .tick", ids[0]));
    driver.click(&format!(".cp-row[data-id='{}'] .tick", ids[2]));
    driver.click("#compare");
    driver.until(
        "the comparison",
        "return document.querySelector('#changes pre.patch .del');",
    );
    let patch = driver.text("#changes");
    assert!(
        patch.contains("-one") && patch.contains("+three"),
        "{patch}"
    );

    // Restore step two after the dry-run confirmation, then undo it.
    driver.click(&format!(".cp-row[data-id='{}'] .open", ids[1]));
    driver.until("the detail", &detail_of(&ids[1], "#restore"));
    driver.click("#restore");
    driver.until(
        "the confirmation",
        "return document.querySelector('#confirm').open;",
    );
    let confirm = driver.text("#confirm");
    assert!(
        confirm.contains("f.txt") && confirm.contains("image.bin"),
        "{confirm}"
    );
    assert_eq!(
        repo.read("f.txt"),
        "unsaved work\n",
        "the dry run changed nothing"
    );
    driver.click("#confirm-restore");
    driver.until(
        "the undo",
        "return document.querySelector('#restored #undo');",
    );
    assert_eq!(repo.read("f.txt"), "two\n");
    assert!(!repo.path().join("image.bin").exists());
    assert!(
        driver
            .text("#restored")
            .contains("The state before is checkpoint")
    );
    driver.click("#undo");
    driver.until("the undone notice", "return /Undid/.test(document.querySelector('#restored') ? document.querySelector('#restored').innerText : '');");
    assert_eq!(repo.read("f.txt"), "unsaved work\n");
    assert!(repo.path().join("image.bin").exists());

    // Restore only some paths: untick all but f.txt.
    driver.click("#restore");
    driver.until(
        "the confirmation",
        "return document.querySelector('#confirm').open;",
    );
    driver.js(
        "for (const b of document.querySelectorAll('#confirm input[type=checkbox]')) if (b.value !== 'f.txt') b.click();",
        json!([]),
    );
    assert_eq!(driver.text("#confirm-restore"), "Restore 1 path");
    driver.click("#confirm-restore");
    driver.until(
        "the second restore",
        "const n = document.querySelector('#restored'); return n && /^Restored checkpoint/.test(n.innerText);",
    );
    assert_eq!(repo.read("f.txt"), "two\n");
    assert!(
        repo.path().join("image.bin").exists(),
        "an unticked path is left alone"
    );

    // Revert the step that made the last checkpoint (it added two files) after its dry run:
    // the two files go, the later edit of f.txt stays; then undo.
    driver.click(&format!(".cp-row[data-id='{}'] .open", ids[3]));
    driver.until("the detail", &detail_of(&ids[3], "#revert"));
    driver.click("#revert");
    driver.until(
        "the revert's confirmation",
        "return document.querySelector('#confirm').open && document.querySelector('#confirm-revert');",
    );
    let confirm = driver.text("#confirm");
    assert!(
        confirm.contains("<i>odd.txt")
            && confirm.contains("image.bin")
            && !confirm.contains("f.txt"),
        "{confirm}"
    );
    assert!(
        repo.path().join("image.bin").exists(),
        "the dry run changed nothing"
    );
    driver.click("#confirm-revert");
    driver.until(
        "the revert",
        "const n = document.querySelector('#restored'); return n && /^Took back the step/.test(n.innerText);",
    );
    assert!(!repo.path().join("image.bin").exists());
    assert!(!repo.path().join("<i>odd.txt").exists());
    assert_eq!(repo.read("f.txt"), "two\n", "the later edit stays");
    driver.click("#undo");
    driver.until("the revert undone", "return /Undid/.test(document.querySelector('#restored') ? document.querySelector('#restored').innerText : '');");
    assert!(repo.path().join("image.bin").exists());
    assert_eq!(repo.read("f.txt"), "two\n");

    // Keyboard: filter with the search box, move with the arrows, open with Enter. The
    // undo saved a checkpoint the page learns of by a reload of its own: count what the
    // repository holds, not what the page shows yet, and wait for the page to show it all.
    let all = repo
        .git(&["for-each-ref", "--format=%(refname)", "refs/checkpoints/"])
        .lines()
        .count();
    driver.until(
        "every checkpoint",
        &format!("return document.querySelectorAll('.cp-row').length === {all};"),
    );
    driver.keys("#q", "step");
    driver.until(
        "the filter",
        "return document.querySelectorAll('.cp-row').length === 3;",
    );
    driver.js("const q = document.querySelector('#q'); q.value = ''; q.dispatchEvent(new Event('input'));", json!([]));
    // The timeline is re-rendered: wait for every row before one is focused.
    driver.until(
        "the filter cleared",
        &format!("return document.querySelectorAll('.cp-row').length === {all};"),
    );
    driver.js(
        "document.querySelector('#timeline .open').focus();",
        json!([]),
    );
    driver.keys("#timeline .cp-row:first-child .open", "\u{E015}");
    let focused = driver.js(
        "return document.activeElement.closest('.cp-row').dataset.id;",
        json!([]),
    );
    assert_ne!(focused, Value::Null);
    let first = driver.js(
        "return document.querySelector('#timeline .cp-row').dataset.id;",
        json!([]),
    );
    assert_ne!(focused, first, "ArrowDown moved the focus");

    // Live: a save by another process shows up without a reload.
    let before = driver.count(".cp-row");
    repo.write("f.txt", "from the terminal\n");
    let id = repo.save(&["-q", "-m", "made in a terminal"]);
    driver.until(
        "the live update",
        &format!("return document.querySelector(\".cp-row[data-id='{id}']\");"),
    );
    assert!(driver.count(".cp-row") > before);

    // A phone: one column, the detail replaces the timeline.
    driver.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 390, "height": 844})),
    );
    // The checkpoint open before fills the screen; back to the timeline, open another.
    driver.until(
        "the detail alone on a phone",
        "return getComputedStyle(document.querySelector('#timeline')).display === 'none';",
    );
    driver.click("#detail .back");
    driver.click(&format!(".cp-row[data-id='{}'] .open", ids[0]));
    driver.until(
        "the detail on a phone",
        "return getComputedStyle(document.querySelector('#timeline')).display === 'none';",
    );
    assert_eq!(
        driver.js(
            "return getComputedStyle(document.querySelector('.back')).display;",
            json!([])
        ),
        "inline-block"
    );
    driver.click("#detail .back");
    driver.until(
        "the timeline on a phone",
        "return getComputedStyle(document.querySelector('#detail')).display === 'none';",
    );
}

/// Against the working tree, each hunk has a "Restore this hunk" button: a click writes that
/// hunk back as the checkpoint has it (the file on disk then holds exactly that, the other
/// hunk stays), the diff shows what is left, and the undo is offered; a hunk that changed
/// since the page showed it is refused with the server's message, and nothing is written.
#[test]
fn the_page_restores_one_hunk() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let repo = Repo::with_commit(&[("a.txt", &numbered(&[])), ("b.txt", "b\n")]);
    repo.write("b.txt", "b, saved\n");
    let cp = repo.save(&["-q", "-m", "saved"]);
    let edited = numbered(&[(2, "two, edited"), (18, "eighteen, edited")]);
    repo.write("a.txt", &edited);
    let server = serve(&repo);
    let driver = Driver::start(&chromium, &chromedriver);
    driver.go(&server.url);
    driver.click(&format!(".cp-row[data-id='{cp}'] .open"));
    // Its change since its HEAD commit: a hunk there is no hunk of the working tree's.
    driver.until("the detail", &detail_of(&cp, "#changes pre.patch .add"));
    assert_eq!(driver.count("#changes .restore-hunk"), 0);
    driver.js(
        "const s = document.querySelector('#against'); s.value = 'worktree'; s.dispatchEvent(new Event('change'));",
        json!([]),
    );
    driver.until(
        "a button on each hunk",
        "return document.querySelectorAll('#changes .restore-hunk').length === 2;",
    );
    let diff = repo.cp(&["diff", "--json", &cp]).ok().stdout;
    let ids: Vec<String> = (0..2)
        .map(|i| crate::common::json_get(&diff, &format!("files.0.hunks.{i}.id")))
        .collect();
    let shown = driver.js(
        "return [...document.querySelectorAll('#changes .restore-hunk')].map((b) => b.dataset.hunk);",
        json!([]),
    );
    assert_eq!(shown, json!(ids));

    driver.click("#changes .restore-hunk");
    driver.until(
        "the restored hunk",
        "const n = document.querySelector('#restored'); return n && /^Restored a hunk of a.txt/.test(n.innerText);",
    );
    assert_eq!(repo.read("a.txt"), numbered(&[(18, "eighteen, edited")]));
    assert_eq!(repo.read("b.txt"), "b, saved\n");
    assert!(
        driver
            .text("#restored")
            .contains("The state before is checkpoint")
    );
    driver.until(
        "the diff shown again",
        &format!(
            "const b = document.querySelectorAll('#changes .restore-hunk'); return b.length === 1 && b[0].dataset.hunk === '{}';",
            ids[1]
        ),
    );
    driver.click("#undo");
    driver.until("the undone notice", "return /Undid/.test(document.querySelector('#restored') ? document.querySelector('#restored').innerText : '');");
    assert_eq!(repo.read("a.txt"), edited);
    driver.until(
        "both hunks again",
        "return document.querySelectorAll('#changes .restore-hunk').length === 2;",
    );

    // The file changes after the page showed it: the hunk shown is no longer there.
    let changed = numbered(&[(2, "two, changed again"), (18, "eighteen, edited")]);
    repo.write("a.txt", &changed);
    driver.click("#changes .restore-hunk");
    let refused = driver.until(
        "the refusal",
        "const n = document.querySelector('#outcome .notice.error'); return n && n.innerText;",
    );
    let refused = refused.as_str().unwrap();
    assert!(
        refused.contains(&format!("no hunk `{}`", ids[0]))
            && refused.contains("nothing was changed"),
        "{refused}"
    );
    assert_eq!(repo.read("a.txt"), changed);
}

/// The API gives at most 200 checkpoints at once; the page asks for the next page until it
/// has them all, so that the oldest can be found too.
#[test]
fn the_page_lists_more_checkpoints_than_one_page_of_the_api() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    repo.git(&["config", "checkpoint.keep", "1000"]);
    let ids: Vec<String> = (0..203)
        .map(|i| repo.save(&["-q", "--allow-empty", "-m", &format!("save {i}")]))
        .collect();
    let server = serve(&repo);
    let driver = Driver::start(&chromium, &chromedriver);
    driver.go(&server.url);
    driver.until(
        "all 203 checkpoints",
        "return document.querySelectorAll('.cp-row').length === 203;",
    );
    assert_eq!(driver.count(&format!(".cp-row[data-id='{}']", ids[0])), 1);
    assert_eq!(driver.count(&format!(".cp-row[data-id='{}']", ids[202])), 1);
}

/// Beside each checkpoint a hook made, the page shows the prompt and the tool call that came
/// next, read from the agent's transcript kept with it; its view shows every turn.
#[test]
fn the_page_shows_the_prompt_and_the_next_tool_call_of_each_checkpoint() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    let session = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";
    let transcript = repo.scratch().join(format!("{session}.jsonl"));
    // Claude Code's JSONL: each entry names the one before it (`parentUuid`).
    let user = |n: usize, text: &str| {
        let parent = match n {
            0 => "null".to_string(),
            n => format!("\"a{}\"", n - 1),
        };
        format!(
            r#"{{"type":"user","sessionId":"{session}","uuid":"u{n}","parentUuid":{parent},"message":{{"role":"user","content":"{text}"}}}}"#
        ) + "\n"
    };
    let tool = |n: usize, command: &str| {
        format!(
            r#"{{"type":"assistant","sessionId":"{session}","uuid":"a{n}","parentUuid":"u{n}","message":{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_{n}","name":"Bash","input":{{"command":"{command}"}}}}]}}}}"#
        ) + "\n"
    };
    let mut text = String::new();
    let mut ids = Vec::new();
    for (n, (prompt, command)) in [
        ("build the thing", "make all"),
        ("now test it", "make test"),
    ]
    .iter()
    .enumerate()
    {
        text += &user(n, prompt);
        text += &tool(n, command);
        std::fs::write(&transcript, &text).unwrap();
        repo.write("f.txt", &format!("{n}\n"));
        let hook = format!(
            r#"{{"session_id":"{session}","transcript_path":"{}","cwd":"{}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"{command}"}}}}"#,
            transcript.display(),
            repo.path().display()
        );
        repo.cp_stdin(
            repo.path(),
            |_| {},
            &["save", "--from-hook"],
            hook.as_bytes(),
        )
        .ok();
        let shown = repo.cp(&["show", "@", "--json"]).ok().stdout;
        ids.push(crate::common::json_eval(&shown, "v['id']"));
    }
    let server = serve(&repo);
    let driver = Driver::start(&chromium, &chromedriver);
    driver.go(&server.url);
    let first = format!(".cp-row[data-id='{}'] .said", ids[0]);
    driver.until(
        "the first checkpoint's prompt",
        &format!(
            "return (document.querySelector(\"{first}\")?.innerText || '').includes('build the thing');"
        ),
    );
    let said = driver.text(&first);
    // The tool call that came next: the one the hook's save was taken before.
    assert!(
        said.contains("make all") && !said.contains("make test"),
        "{said}"
    );
    let second = driver.text(&format!(".cp-row[data-id='{}'] .said", ids[1]));
    assert!(
        second.contains("now test it") && second.contains("make test"),
        "{second}"
    );

    driver.click(&format!(".cp-row[data-id='{}'] .open", ids[1]));
    driver.until(
        "the conversation",
        &detail_of(&ids[1], "#conversation .turns"),
    );
    let shown = driver.text("#conversation");
    assert!(
        shown.contains("now test it") && shown.contains("make test"),
        "{shown}"
    );
    assert_eq!(driver.count("#conversation .turn"), 4);
}

/// A checkpoint whose save found a possible secret is marked in the timeline, and its details
/// say where (path, line, rule), never what.
#[test]
fn the_page_marks_a_checkpoint_with_secrets_and_says_where_not_what() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let repo = Repo::with_commit(&[("f.txt", "base\n")]);
    repo.write("f.txt", "clean\n");
    let clean = repo.save(&["-q", "-m", "clean"]);
    // A fake value, put together here so that this file holds none.
    let secret = format!("{}{}", "x9Kq2LmP", "4vT7wZr8");
    repo.write(".env", &format!("DEBUG=1\nAPI_TOKEN={secret}\n"));
    let flagged = repo.save(&["-q", "-m", "with env"]);
    let server = serve(&repo);
    let driver = Driver::start(&chromium, &chromedriver);
    driver.go(&server.url);
    let mark = format!(".cp-row[data-id='{flagged}'] .secrets-mark");
    driver.until(
        "the mark",
        &format!("return document.querySelector(\"{mark}\");"),
    );
    assert_eq!(
        driver.count(&format!(".cp-row[data-id='{clean}'] .secrets-mark")),
        0
    );
    driver.click(&format!(".cp-row[data-id='{flagged}'] .open"));
    driver.until("its details", &detail_of(&flagged, "#detail .secrets"));
    let said = driver.text("#detail .secrets");
    assert!(said.contains(".env line 2 (dotenv-secret)"), "{said}");
    assert!(!said.contains(&secret[4..]), "{said}");
    assert!(!driver.text(".cp-row").contains(&secret[4..]));
}

/// Served from a folder below a plain directory that has a store, the page's header says which
/// directory it acts on, and a checkpoint's counts say what they are against (no HEAD there).
#[test]
fn the_page_says_which_directory_it_acts_on() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let repo = Repo::plain();
    repo.write("f.txt", "f\n");
    let id = repo.save(&["-q"]);
    let below = repo.path().join("new");
    std::fs::create_dir_all(&below).unwrap();
    let top = repo.path().canonicalize().unwrap().display().to_string();
    let server = serve_in(&repo, &below, &[], &[]);
    let driver = Driver::start(&chromium, &chromedriver);
    driver.go(&server.url);
    driver.until(
        "the directory acted on",
        "return document.querySelector('#where').innerText.includes('acting on');",
    );
    let said = driver.text("#where");
    assert!(said.contains(&top) && said.contains("above"), "{said}");
    driver.click(&format!(".cp-row[data-id='{id}'] .open"));
    driver.until("the detail", &detail_of(&id, "dl.meta"));
    let meta = driver.text("dl.meta");
    assert!(
        meta.contains("since an empty directory (a plain directory has no HEAD)"),
        "{meta}"
    );
    assert!(!meta.contains("since HEAD"), "{meta}");
}
