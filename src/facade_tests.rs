//! The façade's policy seen from a program that uses the library: the events an observer
//! receives, and a cancel flag that stops every operation before it changes anything.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use crate::{
    CheckpointEvent, Checkpoints, Control, Error, PruneOptions, RestoreOptions, SaveOptions,
};

type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

/// `git args…` in `dir`, hermetic; its stdout.
pub(crate) fn git(
    dir: &Path,
    args: &[&str],
) -> std::result::Result<String, Box<dyn std::error::Error>> {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "A")
        .env("GIT_AUTHOR_EMAIL", "a@example.com")
        .env("GIT_COMMITTER_NAME", "A")
        .env("GIT_COMMITTER_EMAIL", "a@example.com")
        .output()?;
    if !out.status.success() {
        return Err(format!("git {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_string())
}

/// A repository with one commit of `f`.
fn repo() -> std::result::Result<tempfile::TempDir, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    git(dir.path(), &["init", "-q", "-b", "main"])?;
    std::fs::write(dir.path().join("f"), "one\n")?;
    git(dir.path(), &["add", "f"])?;
    git(dir.path(), &["commit", "-q", "-m", "base"])?;
    Ok(dir)
}

/// The events as short words, in order.
fn words(events: &[CheckpointEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            CheckpointEvent::Saved(c) => format!("saved {}", c.meta.kind),
            CheckpointEvent::Restored { safety, .. } => {
                format!("restored{}", if safety.is_some() { " safely" } else { "" })
            }
            CheckpointEvent::Pruned(ids) => format!("pruned {}", ids.len()),
            CheckpointEvent::Dropped(ids) => format!("dropped {}", ids.len()),
            CheckpointEvent::Pinned { pinned, .. } => format!("pinned {pinned}"),
        })
        .collect()
}

#[test]
fn an_observer_sees_every_change_in_order() -> TestResult {
    let dir = repo()?;
    let seen: Arc<Mutex<Vec<CheckpointEvent>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let checkpoints = Checkpoints::open(dir.path())?.with_observer(move |e: &CheckpointEvent| {
        sink.lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(e.clone())
    });
    let ctl = Control::default();
    let first = checkpoints.save(&SaveOptions::default(), &ctl)?;
    std::fs::write(dir.path().join("f"), "two\n")?;
    checkpoints.save(&SaveOptions::default(), &ctl)?;
    // Nothing changed: no checkpoint, no event.
    checkpoints.save(&SaveOptions::default(), &ctl)?;
    let target = checkpoints.find(&first.checkpoint().id)?;
    checkpoints.restore(&target, &RestoreOptions::default(), &ctl)?;
    checkpoints.set_pinned(&target, true, &ctl)?;
    // Already pinned: nothing changed, no event.
    checkpoints.set_pinned(&target, true, &ctl)?;
    let newest = checkpoints.find("@")?;
    checkpoints.drop_checkpoints(&[newest.id.as_str()], &ctl)?;
    let options = PruneOptions {
        keep: Some(0),
        ..PruneOptions::default()
    };
    checkpoints.prune(&options, &ctl)?;
    let events = words(&seen.lock().unwrap_or_else(|p| p.into_inner()));
    assert_eq!(
        events,
        [
            "saved manual",
            "saved manual",
            // The safety checkpoint, then the restore that it makes undoable.
            "saved pre-restore",
            "restored safely",
            "pinned true",
            "dropped 1",
            // The pinned checkpoint stays.
            "pruned 1",
        ]
    );
    Ok(())
}

#[test]
fn a_cancelled_operation_changes_nothing() -> TestResult {
    let dir = repo()?;
    let checkpoints = Checkpoints::open(dir.path())?;
    let free = Control::default();
    let first = checkpoints.save(&SaveOptions::default(), &free)?;
    std::fs::write(dir.path().join("f"), "two\n")?;
    let refs = || git(dir.path(), &["for-each-ref"]);
    let before = refs()?;

    let flag = AtomicBool::new(true);
    let cancelled = Control::default().with_cancel(&flag);
    let target = checkpoints.find(&first.checkpoint().id)?;
    let outcomes = [
        (
            "save",
            checkpoints
                .save(&SaveOptions::default(), &cancelled)
                .map(|_| ()),
        ),
        (
            "restore",
            checkpoints
                .restore(&target, &RestoreOptions::default(), &cancelled)
                .map(|_| ()),
        ),
        (
            "pin",
            checkpoints
                .set_pinned(&target, true, &cancelled)
                .map(|_| ()),
        ),
        (
            "drop",
            checkpoints
                .drop_checkpoints(&[target.id.as_str()], &cancelled)
                .map(|_| ()),
        ),
        (
            "prune",
            checkpoints
                .prune(
                    &PruneOptions {
                        keep: Some(0),
                        ..PruneOptions::default()
                    },
                    &cancelled,
                )
                .map(|_| ()),
        ),
        ("du", checkpoints.du(&cancelled).map(|_| ())),
        (
            "fetch",
            checkpoints.fetch("nowhere", &cancelled).map(|_| ()),
        ),
    ];
    for (what, outcome) in outcomes {
        assert!(
            matches!(outcome, Err(Error::Cancelled)),
            "{what}: {outcome:?}"
        );
    }
    assert_eq!(refs()?, before, "a cancelled operation changed refs");
    assert_eq!(std::fs::read_to_string(dir.path().join("f"))?, "two\n");
    // The same calls without the flag do their work.
    checkpoints.set_pinned(&target, true, &free)?;
    assert!(checkpoints.find(&target.id)?.meta.pinned);
    Ok(())
}

#[test]
fn each_commit_is_dated_when_it_is_made_even_by_a_long_lived_handle() -> TestResult {
    if std::env::var_os("GIT_COMMITTER_DATE").is_some() {
        crate::skip_test("GIT_COMMITTER_DATE is set: commits take their date from it");
        return Ok(());
    }
    let dir = repo()?;
    // One handle for both saves, as the HTTP and MCP servers keep one.
    let checkpoints = Checkpoints::open(dir.path())?;
    let ctl = Control::default();
    let first = checkpoints.save(&SaveOptions::default(), &ctl)?;
    std::thread::sleep(std::time::Duration::from_millis(2100));
    std::fs::write(dir.path().join("f"), "two\n")?;
    let second = checkpoints.save(&SaveOptions::default(), &ctl)?;
    let date = |id: &str| -> std::result::Result<i64, Box<dyn std::error::Error>> {
        Ok(git(
            dir.path(),
            &[
                "log",
                "-1",
                "--format=%ct",
                &format!("refs/checkpoints/{id}"),
            ],
        )?
        .parse()?)
    };
    let (a, b) = (
        date(&first.checkpoint().id)?,
        date(&second.checkpoint().id)?,
    );
    assert!(b >= a + 2, "{a} then {b}");
    let now = chrono::Utc::now().timestamp();
    assert!((now - b).abs() < 60, "dated now: {b} against {now}");
    Ok(())
}

/// An empty path names no file: every front end's paths go through `paths_from`, which refuses
/// it rather than take it for the whole tree; `.` still names the whole tree.
#[test]
fn an_empty_path_is_refused_and_a_dot_is_the_whole_tree() -> TestResult {
    let dir = repo()?;
    let checkpoints = Checkpoints::open(dir.path())?;
    for paths in [vec![""], vec!["f", ""]] {
        let paths: Vec<std::path::PathBuf> = paths.into_iter().map(Into::into).collect();
        match checkpoints.paths_from(dir.path(), &paths) {
            Err(Error::InvalidInput(message)) => assert!(message.contains("empty path")),
            other => return Err(format!("{paths:?} gave {other:?}").into()),
        }
    }
    let top = checkpoints.paths_from(dir.path(), &[".".into()])?;
    assert_eq!(top, [gix::bstr::BString::from("")]);
    Ok(())
}

#[test]
fn the_tool_call_that_came_next_is_the_pending_one_else_the_next_checkpoints() -> TestResult {
    let dir = repo()?;
    let checkpoints = Checkpoints::open(dir.path())?;
    let ctl = Control::default();
    let line = |json: String| json + "\n";
    let user = |n: usize, text: &str| {
        line(format!(
            r#"{{"type":"user","sessionId":"s","uuid":"u{n}","message":{{"role":"user","content":"{text}"}}}}"#
        ))
    };
    let call = |n: usize, command: &str| {
        line(format!(
            r#"{{"type":"assistant","sessionId":"s","uuid":"a{n}","message":{{"role":"assistant","content":[{{"type":"tool_use","id":"t{n}","name":"Bash","input":{{"command":"{command}"}}}}]}}}}"#
        ))
    };
    let result = |n: usize| {
        line(format!(
            r#"{{"type":"user","sessionId":"s","uuid":"r{n}","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t{n}","content":"ok"}}]}}}}"#
        ))
    };
    // Taken before `make all` ran; before `make test` (the result of `make all` in); at the end
    // of that turn (no call waiting); before `make deploy`; at the end.
    let mut text = String::new();
    let mut ids = Vec::new();
    for (n, more) in [
        user(0, "build it") + &call(0, "make all"),
        result(0) + &user(1, "test it") + &call(1, "make test"),
        result(1),
        user(2, "ship it") + &call(2, "make deploy"),
        result(2),
    ]
    .into_iter()
    .enumerate()
    {
        text += &more;
        std::fs::write(dir.path().join("f"), format!("{n}\n"))?;
        let options = SaveOptions {
            session: Some("s".into()),
            conversation: Some(crate::ConversationInput::from_bytes(
                text.clone().into_bytes(),
                None,
            )),
            ..SaveOptions::default()
        };
        ids.push(checkpoints.save(&options, &ctl)?.checkpoint().id.clone());
    }
    let loaded = checkpoints.load()?;
    let next = |id: &str| -> std::result::Result<String, Box<dyn std::error::Error>> {
        let checkpoint = checkpoints.find(id)?;
        let (_, tool) = checkpoints
            .conversation_summary(&loaded, &checkpoint)?
            .ok_or("no conversation")?;
        Ok(serde_json::to_string(&tool)?)
    };
    let expected = ["make all", "make test", "make deploy", "make deploy"];
    for (id, command) in ids.iter().zip(expected) {
        let tool = next(id)?;
        assert!(tool.contains(command), "{command}: {tool}");
        assert_eq!(tool.matches("make").count(), 1, "{tool}");
    }
    // Nothing came after the last one.
    assert_eq!(next(&ids[4])?, "null");
    Ok(())
}
