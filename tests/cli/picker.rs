//! The picker, in a real terminal: tmux runs `restore`, `diff` and `show` without a
//! checkpoint, keys are sent with `send-keys`, and the screen is read with `capture-pane`.
//! Without tmux these tests skip, visibly and counted (`common::skip`); with
//! `GIT_CHECKPOINT_REQUIRE_TMUX=1` (CI sets it) its absence fails them instead.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{Repo, bin, skip};

/// A tmux session running one command, killed when dropped.
pub(crate) struct Tmux {
    name: String,
    socket: String,
}

impl Tmux {
    /// Run `args` of the tool in `repo`'s working tree, in a 130×40 terminal.
    pub(crate) fn start(repo: &Repo, args: &[&str]) -> Option<Tmux> {
        Tmux::start_with(repo, &[], args)
    }

    /// [`Tmux::start`], with `env` set too.
    fn start_with(repo: &Repo, env: &[(&str, &str)], args: &[&str]) -> Option<Tmux> {
        Tmux::start_program(repo, env, bin(), args)
    }

    /// `program args…` (`git` finds this build's `git-checkpoint` first on `PATH`) in `repo`'s
    /// working tree, in a 130×40 terminal, with `env` set too.
    fn start_program(
        repo: &Repo,
        env: &[(&str, &str)],
        program: &str,
        args: &[&str],
    ) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            let reason = "tmux is not installed (apt-get install tmux): the picker is not tested";
            if std::env::var_os("GIT_CHECKPOINT_REQUIRE_TMUX").is_some() {
                panic!("GIT_CHECKPOINT_REQUIRE_TMUX is set, but {reason}");
            }
            skip(reason);
            return None;
        }
        // The hermetic environment, written into a script the terminal runs.
        let mut probe = Command::new("true");
        repo.env(&mut probe);
        let mut script = String::from("#!/bin/sh\n");
        for (key, value) in probe.get_envs() {
            let key = key.to_string_lossy();
            match value {
                Some(v) => script.push_str(&format!(
                    "export {key}='{}'\n",
                    v.to_string_lossy().replace('\'', "'\\''")
                )),
                None => script.push_str(&format!("unset {key}\n")),
            }
        }
        script.push_str("export TERM=xterm-256color\nunset NO_COLOR\n");
        for (key, value) in env {
            script.push_str(&format!(
                "export {key}='{}'\n",
                value.replace('\'', "'\\''")
            ));
        }
        if program != bin() {
            let bin_dir = Path::new(bin()).parent().unwrap();
            script.push_str(&format!(
                "export PATH='{}'\n",
                crate::common::path_with(bin_dir)
            ));
        }
        script.push_str(&format!("cd '{}'\n", repo.path().display()));
        script.push_str(&format!("'{program}'"));
        for a in args {
            script.push_str(&format!(" '{a}'"));
        }
        script.push_str("\necho \"exit=$?\"\nsleep 30\n");
        let path = repo.scratch().join(format!("picker-{}.sh", args.join("-")));
        std::fs::write(&path, script).unwrap();
        let name = format!("cp{}", std::process::id());
        // A server of its own for each terminal: a second one started while the first
        // server is still shutting down must not reach it.
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = repo
            .scratch()
            .join(format!("tmux{n}.sock"))
            .display()
            .to_string();
        let ok = Command::new("tmux")
            .args([
                "-S",
                &socket,
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                "130",
                "-y",
                "40",
            ])
            .arg(format!("sh '{}'", path.display()))
            .status()
            .unwrap()
            .success();
        assert!(ok, "tmux new-session");
        Some(Tmux { name, socket })
    }

    pub(crate) fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["-S", &self.socket, "capture-pane", "-p", "-t", &self.name])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        for key in keys {
            let ok = Command::new("tmux")
                .args(["-S", &self.socket, "send-keys", "-t", &self.name, key])
                .status()
                .unwrap()
                .success();
            assert!(ok, "send-keys {key}");
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// Wait until the screen shows `text`; panic with the screen after 60 s (a loaded CI machine
    /// can take seconds to start a debug build in a new terminal).
    pub(crate) fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited for {text:?}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-S", &self.socket, "kill-server"])
            .status();
    }
}

/// Three checkpoints of `f`, then unsaved work.
fn history() -> (Repo, Vec<String>) {
    let repo = Repo::with_commit(&[("f", "one\n")]);
    let mut ids = vec![repo.save(&["-q", "--allow-empty", "-m", "first state"])];
    repo.write("f", "two\n");
    ids.push(repo.save(&["-q", "-m", "second state", "--session", "sess-42"]));
    repo.write("f", "three\n");
    repo.write("g", "a new file\n");
    ids.push(repo.save(&["-q", "-m", "third state", "--kind", "auto"]));
    repo.write("f", "unsaved\n");
    (repo, ids)
}

fn file(repo: &Repo, name: &str) -> String {
    std::fs::read_to_string(repo.path().join(name)).unwrap_or_default()
}

#[test]
fn restore_picks_with_a_filter_and_a_confirmation() {
    let (repo, _) = history();
    let Some(t) = Tmux::start(&repo, &["restore"]) else {
        return;
    };
    // Newest first, with kind, session, counts and message; a preview of the change.
    let screen = t.wait_for("3 of 3 checkpoints");
    let third = screen.find("third state").unwrap();
    let first = screen.find("first state").unwrap();
    assert!(third < first, "newest first:\n{screen}");
    assert!(screen.contains("auto"), "{screen}");
    assert!(screen.contains("sess-42"), "{screen}");
    assert!(
        screen.contains("+unsaved") || screen.contains("-three"),
        "{screen}"
    );
    // Type to filter, Enter: the dry run to confirm.
    t.keys(&["s", "e", "c", "o", "n", "d"]);
    t.wait_for("1 of 3 checkpoints");
    t.keys(&["Enter"]);
    let confirm = t.wait_for("y: restore");
    assert!(confirm.contains("W  f"), "{confirm}");
    assert!(confirm.contains("D  g"), "{confirm}");
    assert_eq!(
        file(&repo, "f"),
        "unsaved\n",
        "nothing before the confirmation"
    );
    t.keys(&["y"]);
    let done = t.wait_for("exit=0");
    assert!(done.contains("restored checkpoint"), "{done}");
    assert_eq!(file(&repo, "f"), "two\n");
    assert!(!repo.path().join("g").exists());
    // It was an ordinary restore: undo takes it back.
    repo.cp(&["undo"]).ok();
    assert_eq!(file(&repo, "f"), "unsaved\n");
}

/// In the restore picker, → opens the hunks of the selected checkpoint's difference to the
/// working tree, with the selected hunk's lines in the preview; Enter asks, `y` restores that
/// hunk alone (the other stays), as a restore that `undo` takes back; Esc goes back to the
/// checkpoints and `n` back to the hunks.
#[test]
fn restore_one_hunk_from_the_hunks_view() {
    let original: String = (1..=20).map(|n| format!("line {n}\n")).collect();
    let repo = Repo::with_commit(&[("f", &original)]);
    let saved = repo.save(&["-q", "--allow-empty", "-m", "the original"]);
    let top = original.replace("line 2\n", "line 2 changed\n");
    let changed = top.replace("line 18\n", "line 18 changed\n");
    repo.write("f", &changed);
    let before = repo.checkpoint_ids();
    let Some(t) = Tmux::start(&repo, &["restore"]) else {
        return;
    };
    // The footer is drawn with the rest of the screen: wait for it, not for the list alone (a
    // capture can fall between the two).
    let list = t.wait_for("→ hunks");
    assert!(
        list.contains("1 of 1 checkpoints"),
        "the list and the key in the footer:\n{list}"
    );
    t.keys(&["Right"]);
    let hunks = t.wait_for(&format!("2 hunks of checkpoint {saved}"));
    assert!(hunks.contains("f @@ -1,5 +1,5 @@"), "{hunks}");
    assert!(hunks.contains("f @@ -15,6 +15,6 @@"), "{hunks}");
    assert!(
        hunks.contains("+line 2 changed"),
        "the first one's lines:\n{hunks}"
    );
    assert!(!hunks.contains("+line 18 changed"), "{hunks}");
    // Esc: back to the checkpoints; → again: the hunks.
    t.keys(&["Escape"]);
    t.wait_for("1 of 1 checkpoints");
    t.keys(&["Right", "Down"]);
    let second = t.wait_for("+line 18 changed");
    assert!(!second.contains("+line 2 changed"), "{second}");
    // Enter asks first, showing the dry run; `n` goes back to the hunks.
    t.keys(&["Enter"]);
    let confirm = t.wait_for("y: restore this hunk");
    assert!(confirm.contains("W  f"), "{confirm}");
    t.keys(&["n"]);
    t.wait_for("2 hunks of checkpoint");
    assert_eq!(file(&repo, "f"), changed, "nothing before the confirmation");
    assert_eq!(
        repo.checkpoint_ids(),
        before,
        "not even a safety checkpoint"
    );
    t.keys(&["Enter"]);
    t.wait_for("y: restore this hunk");
    t.keys(&["y"]);
    let done = t.wait_for("exit=0");
    assert!(
        done.contains(&format!("restored 1 hunk of checkpoint {saved}")),
        "{done}"
    );
    assert!(done.contains("undo with: git checkpoint restore"), "{done}");
    // That hunk alone: the other one is kept, byte for byte.
    assert_eq!(file(&repo, "f"), top);
    assert_eq!(
        repo.checkpoint_ids().len(),
        before.len() + 1,
        "one safety checkpoint"
    );
    repo.cp(&["undo"]).ok();
    assert_eq!(file(&repo, "f"), changed);
}

#[test]
fn escape_leaves_with_nothing_changed_and_n_goes_back() {
    let (repo, _) = history();
    let before = repo.checkpoint_ids();
    let Some(t) = Tmux::start(&repo, &["restore"]) else {
        return;
    };
    t.wait_for("3 of 3 checkpoints");
    t.keys(&["Down", "Enter"]);
    t.wait_for("y: restore");
    t.keys(&["n"]);
    t.wait_for("3 of 3 checkpoints");
    t.keys(&["Escape"]);
    // Nothing done: a script can tell by the exit status.
    let done = t.wait_for("exit=1");
    assert!(done.contains("nothing restored"), "{done}");
    assert_eq!(file(&repo, "f"), "unsaved\n");
    assert_eq!(
        repo.checkpoint_ids(),
        before,
        "not even a safety checkpoint"
    );
}

#[test]
fn diff_and_show_print_what_was_picked() {
    let (repo, ids) = history();
    let Some(t) = Tmux::start(&repo, &["diff"]) else {
        return;
    };
    t.wait_for("3 of 3 checkpoints");
    t.keys(&["End", "Enter"]);
    let done = t.wait_for("exit=0");
    assert!(done.contains("-one") && done.contains("+unsaved"), "{done}");
    drop(t);
    let Some(t) = Tmux::start(&repo, &["show"]) else {
        return;
    };
    t.wait_for("3 of 3 checkpoints");
    t.keys(&["Down", "Enter"]);
    let done = t.wait_for("exit=0");
    assert!(done.contains(&format!("checkpoint {}", ids[1])), "{done}");
}

#[test]
fn off_a_terminal_nothing_is_picked() {
    let (repo, _) = history();
    let out = repo.cp(&["restore"]).fails_with(2);
    assert!(out.stderr.contains("name the checkpoint"), "{}", out.stderr);
    assert_eq!(file(&repo, "f"), "unsaved\n");
    repo.cp(&["show"]).fails_with(2);
    // diff without a checkpoint keeps its meaning off a terminal: the newest one.
    let diff = repo.cp(&["diff"]).ok();
    assert!(diff.stdout.contains("+unsaved"), "{}", diff.stdout);
    assert!(Path::new(bin()).exists());
}

/// Esc in `diff`'s and `show`'s picker leaves with nothing done, and says so by its exit
/// status, as `restore`'s does.
#[test]
fn escape_from_diff_and_show_exits_1() {
    let (repo, _) = history();
    for verb in ["diff", "show"] {
        let Some(t) = Tmux::start(&repo, &[verb]) else {
            return;
        };
        t.wait_for("3 of 3 checkpoints");
        t.keys(&["Escape"]);
        let done = t.wait_for("exit=1");
        assert!(done.contains("nothing"), "{verb}: {done}");
    }
}

/// A diff or a show on a terminal goes through the user's pager, as `git diff` does (git's
/// choice of pager: GIT_PAGER, core.pager, …); `pager.checkpoint = false` turns it off; off a
/// terminal nothing is paged.
#[test]
fn diff_and_show_on_a_terminal_go_through_the_pager() {
    let (repo, ids) = history();
    let prefix = "sed 's/^/PAGED:/'";
    for (env, args) in [
        (vec![("GIT_PAGER", prefix)], vec!["diff", ids[0].as_str()]),
        (
            vec![("GIT_PAGER", prefix)],
            vec!["show", ids[1].as_str(), "-p"],
        ),
    ] {
        let Some(t) = Tmux::start_with(&repo, &env, &args) else {
            return;
        };
        let done = t.wait_for("exit=0");
        assert!(done.contains("PAGED:diff --git"), "{args:?}: {done}");
    }
    repo.git(&["config", "core.pager", prefix]);
    let Some(t) = Tmux::start(&repo, &["diff", &ids[0]]) else {
        return;
    };
    let done = t.wait_for("exit=0");
    assert!(done.contains("PAGED:diff --git"), "core.pager: {done}");
    drop(t);
    repo.git(&["config", "pager.checkpoint", "false"]);
    let Some(t) = Tmux::start(&repo, &["diff", &ids[0]]) else {
        return;
    };
    let done = t.wait_for("exit=0");
    assert!(
        done.contains("diff --git") && !done.contains("PAGED:"),
        "{done}"
    );
    // Off a terminal: never.
    let out = repo
        .cp_with(
            |cmd| {
                cmd.env("GIT_PAGER", prefix);
            },
            &["diff", &ids[0]],
        )
        .ok();
    assert!(out.stdout.starts_with("diff --git"), "{}", out.stdout);
}

/// `git --no-pager checkpoint diff` on a terminal prints straight to it, as `git --no-pager
/// diff` does (git tells an external command by setting `GIT_PAGER=cat`); through git without
/// it, the same diff is paged.
#[test]
fn git_no_pager_is_not_paged() {
    let (repo, ids) = history();
    let prefix = "sed 's/^/PAGED:/'";
    repo.git(&["config", "core.pager", prefix]);
    let Some(t) = Tmux::start_program(&repo, &[], "git", &["checkpoint", "diff", &ids[0]]) else {
        return;
    };
    let done = t.wait_for("exit=0");
    assert!(done.contains("PAGED:diff --git"), "through git: {done}");
    drop(t);
    let Some(t) = Tmux::start_program(
        &repo,
        &[],
        "git",
        &["--no-pager", "checkpoint", "diff", &ids[0]],
    ) else {
        return;
    };
    let done = t.wait_for("exit=0");
    assert!(
        done.contains("diff --git") && !done.contains("PAGED:"),
        "{done}"
    );
}

/// `show --conversation` on a terminal cuts a long turn to a few lines, saying where it cut;
/// piped, every turn is whole.
#[test]
fn a_conversation_on_a_terminal_is_shortened_and_whole_when_piped() {
    let repo = Repo::with_commit(&[("a.txt", "a\n")]);
    let chat = repo.scratch().join("chat.json");
    let long: Vec<String> = (1..=12)
        .map(|n| format!("line {n} of the prompt"))
        .collect();
    let messages = serde_json::json!([
        {"role": "user", "content": long.join("\n")},
        {"role": "assistant", "content": "done"},
    ]);
    std::fs::write(&chat, messages.to_string()).unwrap();
    repo.write("a.txt", "b\n");
    let id = repo.save(&["--conversation", chat.to_str().unwrap()]);
    let piped = repo.cp(&["show", &id, "--conversation"]).ok().stdout;
    assert!(piped.contains("line 12 of the prompt"), "{piped}");
    let Some(t) = Tmux::start_with(
        &repo,
        &[("GIT_PAGER", "cat")],
        &["show", &id, "--conversation"],
    ) else {
        return;
    };
    let screen = t.wait_for("exit=0");
    assert!(
        screen.contains("line 4 of the prompt…") && !screen.contains("line 5 of the prompt"),
        "{screen}"
    );
    assert!(screen.contains("assistant: done"), "{screen}");
}
