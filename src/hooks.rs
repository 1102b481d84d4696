//! Agent hooks: a checkpoint before every tool call of a coding agent, without anyone
//! remembering to take it.
//!
//! Two halves:
//! - reading what an agent's hook passes on stdin ([`HookInput::parse`]) and turning it into a
//!   save ([`HookInput::save_options`]): the tool, the session and the edited paths go into the
//!   note's `meta`, the session into its `session` field;
//! - the hook configuration for an agent ([`claude_code_settings`]) and merging it into, or
//!   removing it from, an existing settings file without clobbering what is there
//!   ([`install`], [`uninstall`]).
//!
//! The input shape is Claude Code's (`session_id`, `hook_event_name`, `tool_name`,
//! `tool_input`, `cwd`); other agents' hooks that pass the same fields work the same way.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::error::{Error, Result};
use crate::format;
use crate::record::SaveOptions;

/// The command the hooks run. It reads the hook's JSON from stdin.
pub const HOOK_COMMAND: &str = "git checkpoint save --from-hook";

/// The tools of Claude Code that change files: its editing tools and its shell.
pub const CLAUDE_CODE_MATCHER: &str = "Edit|MultiEdit|Write|NotebookEdit|Bash";

/// Longer paths, tool and event names in a hook's input are left out: a note must stay far
/// below [`format::MAX_NOTE_BYTES`] whatever an agent sends.
const MAX_FIELD_BYTES: usize = 4096;

/// What an agent's hook said about the moment the checkpoint is taken.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookInput {
    /// `hook_event_name`: `PreToolUse`, `SessionStart`, …
    pub event: Option<String>,
    /// `session_id`.
    pub session: Option<String>,
    /// `tool_name`.
    pub tool: Option<String>,
    /// The paths the tool is about to edit (`tool_input.file_path`, `notebook_path`, `path`).
    pub paths: Vec<String>,
    /// `cwd`: the directory the agent works in.
    pub cwd: Option<PathBuf>,
    /// `source` of a `SessionStart`: `startup`, `resume`, `clear`, `compact`.
    pub source: Option<String>,
}

impl HookInput {
    /// Read a hook's JSON input. Empty input is no information, not an error; anything but a
    /// JSON object is an error. Fields of unexpected types are ignored.
    pub fn parse(bytes: &[u8]) -> std::result::Result<HookInput, String> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(HookInput::default());
        }
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| format!("the hook input is not JSON: {e}"))?;
        let Value::Object(map) = value else {
            return Err("the hook input is not a JSON object".into());
        };
        let text = |keys: &[&str]| {
            keys.iter()
                .find_map(|k| map.get(*k).and_then(Value::as_str))
                .filter(|v| v.len() <= MAX_FIELD_BYTES)
                .map(str::to_string)
        };
        let mut paths = Vec::new();
        if let Some(Value::Object(tool_input)) = map.get("tool_input").or(map.get("toolInput")) {
            for key in ["file_path", "notebook_path", "path", "filePath"] {
                if let Some(p) = tool_input.get(key).and_then(Value::as_str)
                    && !p.is_empty()
                    && p.len() <= MAX_FIELD_BYTES
                    && !paths.iter().any(|q| q == p)
                {
                    paths.push(p.to_string());
                }
            }
        }
        Ok(HookInput {
            event: text(&["hook_event_name", "hookEventName"]),
            session: text(&["session_id", "sessionId"]).filter(|s| !s.is_empty()),
            tool: text(&["tool_name", "toolName"]),
            paths,
            cwd: text(&["cwd"]).map(PathBuf::from),
            source: text(&["source"]),
        })
    }

    /// Whether the event starts or ends a session (its checkpoint is of kind `session`).
    pub fn is_session_event(&self) -> bool {
        matches!(self.event.as_deref(), Some("SessionStart" | "SessionEnd"))
    }

    /// The save this hook asks for: kind `auto` (`session` for a session's start or end), a
    /// message saying what comes next, the session, and `meta` with the event, the tool, the
    /// session id and the edited paths (relative to `workdir` when inside it). A session id
    /// that is not valid as one is left out of the `session` field but kept in `meta`.
    pub fn save_options(&self, workdir: Option<&Path>) -> SaveOptions {
        let mut meta = Map::new();
        let mut put = |key: &str, value: Option<&String>| {
            if let Some(v) = value {
                meta.insert(key.into(), Value::String(v.clone()));
            }
        };
        put("event", self.event.as_ref());
        put("tool", self.tool.as_ref());
        put("session_id", self.session.as_ref());
        let paths: Vec<String> = self.paths.iter().map(|p| relative_to(p, workdir)).collect();
        if !paths.is_empty() {
            meta.insert(
                "paths".into(),
                Value::Array(paths.iter().cloned().map(Value::String).collect()),
            );
        }
        let kind = if self.is_session_event() {
            format::KIND_SESSION
        } else {
            format::KIND_AUTO
        };
        let message = match (self.event.as_deref(), self.tool.as_deref()) {
            (Some("SessionStart"), _) => Some(match self.source.as_deref() {
                Some(source) => format!("session start ({source})"),
                None => "session start".into(),
            }),
            (Some("SessionEnd"), _) => Some("session end".into()),
            (_, Some(tool)) => Some(match paths.as_slice() {
                [] => format!("before {tool}"),
                [one] => format!("before {tool} {one}"),
                [first, rest @ ..] => format!("before {tool} {first} and {} more", rest.len()),
            }),
            (Some(event), None) => Some(format!("before {event}")),
            (None, None) => None,
        };
        SaveOptions {
            message: message.map(|m| m.replace(['\n', '\r'], " ")),
            generated_message: true,
            kind: Some(kind.into()),
            meta,
            session: self
                .session
                .clone()
                .filter(|s| format::validate_session(s).is_ok()),
            ..SaveOptions::default()
        }
    }
}

/// `path` relative to `workdir` when it is inside it (seen directly, or through the path with
/// symlinks resolved, as an agent may report it), else as given.
fn relative_to(path: &str, workdir: Option<&Path>) -> String {
    let p = Path::new(path);
    let Some(workdir) = workdir.filter(|_| p.is_absolute()) else {
        return path.to_string();
    };
    let relative = p
        .strip_prefix(workdir)
        .map(Path::to_path_buf)
        .ok()
        .or_else(|| {
            let canonical = workdir.canonicalize().ok()?;
            p.strip_prefix(canonical).map(Path::to_path_buf).ok()
        });
    relative.map_or_else(|| path.to_string(), |r| r.to_string_lossy().into_owned())
}

/// Claude Code's hook configuration for git-checkpoint: a `PreToolUse` hook on the tools that
/// change files, and a `SessionStart` hook, both running [`HOOK_COMMAND`].
pub fn claude_code_settings() -> Value {
    let hook = json!([{ "type": "command", "command": HOOK_COMMAND }]);
    json!({
        "hooks": {
            "PreToolUse": [{ "matcher": CLAUDE_CODE_MATCHER, "hooks": hook }],
            "SessionStart": [{ "hooks": hook }]
        }
    })
}

/// Whether a hook entry runs git-checkpoint's hook command (however it is spelled: `git
/// checkpoint` or `git-checkpoint`, with other flags after it).
fn is_ours(hook: &Value) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| {
            let c = c.trim_start();
            (c.starts_with("git checkpoint save") || c.starts_with("git-checkpoint save"))
                && c.contains("--from-hook")
        })
}

/// Merge `ours` (a settings object with `hooks`) into `settings`: for each event, our matcher
/// group is added unless a hook running our command is already configured for that event.
/// Everything else in `settings` is kept as it is. Returns whether anything was added.
pub fn merge_hooks(settings: &mut Value, ours: &Value) -> std::result::Result<bool, String> {
    let Value::Object(settings) = settings else {
        return Err("the settings file does not hold a JSON object".into());
    };
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err("`hooks` in the settings file is not a JSON object".into());
    };
    let mut changed = false;
    let Some(Value::Object(our_hooks)) = ours.get("hooks") else {
        return Ok(false);
    };
    for (event, groups) in our_hooks {
        let existing = hooks
            .entry(event.clone())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(existing) = existing else {
            return Err(format!(
                "`hooks.{event}` in the settings file is not a JSON array"
            ));
        };
        let present = existing.iter().any(|group| {
            group
                .get("hooks")
                .and_then(Value::as_array)
                .is_some_and(|hs| hs.iter().any(is_ours))
        });
        if !present && let Value::Array(groups) = groups {
            existing.extend(groups.iter().cloned());
            changed = true;
        }
    }
    Ok(changed)
}

/// Remove every hook running git-checkpoint's hook command from `settings`, and the matcher
/// groups and event lists that leaves empty. Returns whether anything was removed.
pub fn remove_hooks(settings: &mut Value) -> bool {
    let Some(Value::Object(hooks)) = settings.get_mut("hooks") else {
        return false;
    };
    let mut changed = false;
    for groups in hooks.values_mut() {
        let Value::Array(groups) = groups else {
            continue;
        };
        for group in groups.iter_mut() {
            if let Some(Value::Array(hs)) = group.get_mut("hooks") {
                let before = hs.len();
                hs.retain(|h| !is_ours(h));
                if hs.len() != before {
                    changed = true;
                }
            }
        }
        groups.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|hs| !hs.is_empty())
        });
    }
    if changed {
        hooks.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
    }
    changed
}

/// What [`install`] or [`uninstall`] did to a settings file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// The settings file.
    pub path: PathBuf,
    /// Whether the file was changed (false: the hooks were already there, or not there).
    pub changed: bool,
    /// Where the previous content was copied to, when there was a file and it changed.
    pub backup: Option<PathBuf>,
}

/// Add `ours` to the settings file at `path` (created if missing), keeping everything else in
/// it; idempotent. The old file is copied to `<path>.bak` first. A file that is not a JSON
/// object is refused and left alone.
pub fn install(path: &Path, ours: &Value) -> Result<Installed> {
    edit_settings(path, |settings| {
        merge_hooks(settings, ours).map_err(|e| invalid_settings(path, &e))
    })
}

/// Remove git-checkpoint's hooks from the settings file at `path`, keeping everything else.
pub fn uninstall(path: &Path) -> Result<Installed> {
    edit_settings(path, |settings| Ok(remove_hooks(settings)))
}

fn invalid_settings(path: &Path, why: &str) -> Error {
    Error::InvalidInput(format!(
        "{why}: `{}`; fix it or edit it by hand, it was left as it is",
        path.display()
    ))
}

/// Read the settings at `path` (an empty object when the file does not exist), apply `edit`,
/// and when it changed something write the result atomically after backing up the old file.
fn edit_settings(path: &Path, edit: impl FnOnce(&mut Value) -> Result<bool>) -> Result<Installed> {
    let io = |context: String| move |source| Error::Io { context, source };
    let old = match std::fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(format!("cannot read `{}`", path.display()))(e)),
    };
    let mut settings = match &old {
        Some(bytes) if !bytes.iter().all(u8::is_ascii_whitespace) => serde_json::from_slice(bytes)
            .map_err(|e| invalid_settings(path, &format!("not valid JSON ({e})")))?,
        _ => Value::Object(Map::new()),
    };
    if !settings.is_object() {
        return Err(invalid_settings(path, "not a JSON object"));
    }
    if !edit(&mut settings)? {
        return Ok(Installed {
            path: path.to_owned(),
            changed: false,
            backup: None,
        });
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io(format!("cannot create `{}`", dir.display())))?;
    let backup = match &old {
        Some(bytes) => {
            let mut name = path.as_os_str().to_owned();
            name.push(".bak");
            let backup = PathBuf::from(name);
            std::fs::write(&backup, bytes)
                .map_err(io(format!("cannot write `{}`", backup.display())))?;
            Some(backup)
        }
        None => None,
    };
    let mut text = serde_json::to_string_pretty(&settings).unwrap_or_default();
    text.push('\n');
    // A settings file that is a symlink (into a dotfiles repository, say) stays one: the file
    // it points to is replaced, keeping its permissions.
    let target = match std::fs::canonicalize(path) {
        Ok(target) if old.is_some() => target,
        _ => path.to_owned(),
    };
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(io(format!("cannot write `{}`", tmp.display())))?;
    let replaced = std::fs::metadata(&target)
        .and_then(|md| std::fs::set_permissions(&tmp, md.permissions()))
        .or_else(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Ok(()),
            _ => Err(e),
        })
        .and_then(|()| std::fs::rename(&tmp, &target));
    if let Err(e) = replaced {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(format!("cannot replace `{}`", target.display()))(e));
    }
    Ok(Installed {
        path: path.to_owned(),
        changed: true,
        backup,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_input_is_read() -> std::result::Result<(), String> {
        let input = HookInput::parse(
            br#"{"session_id":"abc-123","transcript_path":"/t.jsonl","cwd":"/w",
                "permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write",
                "tool_input":{"file_path":"/w/src/a.rs","content":"fn main() {}"}}"#,
        )?;
        assert_eq!(input.event.as_deref(), Some("PreToolUse"));
        assert_eq!(input.session.as_deref(), Some("abc-123"));
        assert_eq!(input.tool.as_deref(), Some("Write"));
        assert_eq!(input.paths, ["/w/src/a.rs"]);
        let options = input.save_options(Some(Path::new("/w")));
        assert_eq!(options.kind.as_deref(), Some("auto"));
        assert_eq!(options.session.as_deref(), Some("abc-123"));
        assert_eq!(options.message.as_deref(), Some("before Write src/a.rs"));
        assert_eq!(
            Value::Object(options.meta),
            json!({"event": "PreToolUse", "tool": "Write", "session_id": "abc-123",
                   "paths": ["src/a.rs"]})
        );
        Ok(())
    }

    #[test]
    fn session_start_and_odd_input() -> std::result::Result<(), String> {
        let start = HookInput::parse(
            br#"{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}"#,
        )?;
        let options = start.save_options(None);
        assert_eq!(options.kind.as_deref(), Some("session"));
        assert_eq!(options.message.as_deref(), Some("session start (startup)"));
        assert_eq!(HookInput::parse(b"")?, HookInput::default());
        assert_eq!(HookInput::parse(b"  \n")?, HookInput::default());
        assert!(HookInput::parse(b"[1]").is_err());
        assert!(HookInput::parse(b"{").is_err());
        // Wrong types are ignored, not errors.
        let odd = HookInput::parse(br#"{"session_id":7,"tool_input":"x","tool_name":null}"#)?;
        assert_eq!(odd, HookInput::default());
        // Oversized fields are left out, so the note stays small.
        let long = "x".repeat(MAX_FIELD_BYTES + 1);
        let big = format!(
            r#"{{"tool_name":"{long}","tool_input":{{"file_path":"{long}","path":"/w/ok"}}}}"#
        );
        let big = HookInput::parse(big.as_bytes())?;
        assert_eq!(big.tool, None);
        assert_eq!(big.paths, ["/w/ok"]);
        // A session id that cannot be one is kept in meta only.
        let bad = HookInput::parse(br#"{"session_id":"a b","tool_name":"Bash"}"#)?;
        let options = bad.save_options(None);
        assert_eq!(options.session, None);
        assert_eq!(options.meta["session_id"], "a b");
        assert_eq!(options.message.as_deref(), Some("before Bash"));
        Ok(())
    }

    #[test]
    fn merging_is_idempotent_and_keeps_the_rest() -> std::result::Result<(), String> {
        let mut settings = json!({
            "model": "x",
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo mine"}]}]}
        });
        let ours = claude_code_settings();
        assert!(merge_hooks(&mut settings, &ours)?);
        let once = settings.clone();
        assert!(
            !merge_hooks(&mut settings, &ours)?,
            "a second merge adds nothing"
        );
        assert_eq!(settings, once);
        assert_eq!(settings["model"], "x");
        let pre = settings["hooks"]["PreToolUse"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(pre.len(), 2);
        assert_eq!(pre[0]["hooks"][0]["command"], "echo mine");
        assert_eq!(pre[1]["matcher"], CLAUDE_CODE_MATCHER);
        assert!(remove_hooks(&mut settings));
        assert_eq!(
            settings,
            json!({"model": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo mine"}]}]}})
        );
        assert!(!remove_hooks(&mut settings));
        assert!(merge_hooks(&mut json!([1]), &ours).is_err());
        assert!(merge_hooks(&mut json!({"hooks": []}), &ours).is_err());
        assert!(merge_hooks(&mut json!({"hooks": {"PreToolUse": {}}}), &ours).is_err());
        Ok(())
    }
}
