//! The MCP server: `git checkpoint mcp`, the Model Context Protocol on stdio, built on the
//! official Rust SDK (`rmcp`). A front end of its own: it calls only the library's façade
//! ([`Checkpoints`]) and never the CLI, and its tools return the JSON that `--json` prints
//! (`Checkpoint::to_json`, `Diff::to_json`, `Restored::to_json`) as structured content, with
//! the same JSON as text for clients that read only text. A failure is a tool error
//! (`isError`, one line saying what went wrong), never a crash of the server.
//!
//! Each call opens the repository anew (in `directory`, else the server's working
//! directory), so that a call sees what the agent did since the last one, and runs on a
//! blocking thread: the protocol stays responsive while a large save or restore works.
//!
//! What the server does not understand, it refuses rather than guesses at: an unknown tool
//! argument refuses the call before anything is done ([`Parameters`]), and a line of stdin that is
//! not a message it can read gets a JSON-RPC error ([`framing`]).

use std::path::{Path, PathBuf};

use git_checkpoint::{
    Checkpoint, Checkpoints, Control, DiffOptions, Error, ListOptions, OpenOptions, PatchStyle,
    RestoreOptions, RevertOptions, SaveOptions, Side,
};
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::common::schema_for_input;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::schemars::JsonSchema;
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

mod framing;

/// How many checkpoints `checkpoint_list` returns unless told.
const DEFAULT_LIST_LIMIT: usize = 50;

/// A tool's arguments, read strictly (rmcp's `Parameters`, which the `#[tool]` macro takes
/// the input schema from, by name): an argument the tool does not know refuses the whole call
/// before anything is done. A client that misspells `dry_run` as `dryRun`, or sends `path` for
/// `paths`, must not get a real whole-tree restore. Each arguments struct also denies unknown
/// fields, which makes its advertised schema say `additionalProperties: false`.
///
/// - Unknown arguments are a JSON-RPC error, `-32602` (invalid params), naming each of them
///   (with what was meant, where it can be told) and the arguments the tool takes, with both
///   lists in the error's `data` (`unknown`, `accepted`): the request is not one this tool
///   understands.
/// - A value of the wrong type, or a required argument missing, is a tool error (`isError`),
///   as MCP asks of invalid argument values so that the model can correct the call; it names
///   the argument.
#[derive(Debug)]
pub struct Parameters<T>(pub T);

impl<T: JsonSchema> JsonSchema for Parameters<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut rmcp::schemars::SchemaGenerator) -> rmcp::schemars::Schema {
        T::json_schema(generator)
    }
}

impl<S, T: DeserializeOwned + JsonSchema + 'static> FromContextPart<ToolCallContext<'_, S>>
    for Parameters<T>
{
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let given = context.arguments.take().unwrap_or_default();
        let accepted = accepted::<T>();
        let unknown = unknown_in(&given, &accepted);
        if !unknown.is_empty() {
            return Err(ErrorData::invalid_params(
                unknown_arguments(&unknown, &accepted),
                Some(json!({"unknown": unknown, "accepted": accepted})),
            ));
        }
        read_strictly(given).map(Parameters).map_err(|why| {
            // rmcp answers an error of this prefix with a tool error.
            ErrorData::invalid_params(format!("failed to deserialize parameters: {why}"), None)
        })
    }
}

/// The arguments of `given` that are not `accepted`.
fn unknown_in(given: &Map<String, Value>, accepted: &[String]) -> Vec<String> {
    given
        .keys()
        .filter(|key| !accepted.contains(key))
        .cloned()
        .collect()
}

/// The arguments `T` takes, in its schema's order.
fn accepted<T: JsonSchema + 'static>() -> Vec<String> {
    schema_for_input::<T>()
        .ok()
        .and_then(|schema| {
            schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|properties| properties.keys().cloned().collect())
        })
        .unwrap_or_default()
}

/// What the client is told of `unknown` arguments, among the `accepted` ones.
fn unknown_arguments(unknown: &[String], accepted: &[String]) -> String {
    let plural = if unknown.len() == 1 { "" } else { "s" };
    let named =
        unknown.iter().map(
            |key| match accepted.iter().find(|a| loosely(a) == loosely(key)) {
                Some(meant) => format!("`{key}` (did you mean `{meant}`?)"),
                None => format!("`{key}`"),
            },
        );
    format!(
        "unknown argument{plural} {}; the arguments are {}. Nothing was done",
        named.collect::<Vec<_>>().join(", "),
        quoted(accepted.iter().map(String::as_str))
    )
}

/// `given` (whose arguments the tool all knows) as a `T`, or why not, in words for the client.
fn read_strictly<T: DeserializeOwned + JsonSchema + 'static>(
    given: Map<String, Value>,
) -> Result<T, String> {
    let takes = format!(
        "the arguments are {}. Nothing was done",
        quoted(accepted::<T>().iter().map(String::as_str))
    );
    let given = Value::Object(given);
    T::deserialize(&given).map_err(|err| {
        let spoiling = given
            .as_object()
            .and_then(|map| map.iter().find(|(key, value)| spoils::<T>(key, value)));
        match spoiling {
            Some((key, _)) => format!("argument `{key}`: {err}; {takes}"),
            None => format!("{err}; {takes}"),
        }
    })
}

/// Whether `value` alone, as argument `key`, fails to read as a `T`: serde reads the given
/// fields before it checks for missing ones, so any other error is this argument's.
fn spoils<T: DeserializeOwned>(key: &str, value: &Value) -> bool {
    let alone = Value::Object(Map::from_iter([(key.to_string(), value.clone())]));
    T::deserialize(&alone).is_err_and(|err| !err.to_string().starts_with("missing field"))
}

/// A name without case, `_`, `-` or a plural `s`: `dryRun` for `dry_run`, `path` for `paths`.
fn loosely(name: &str) -> String {
    let letters: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    letters.strip_suffix('s').unwrap_or(&letters).to_string()
}

/// `a`, `b`, `c`.
fn quoted<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `checkpoint_save`'s arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(deny_unknown_fields)]
pub struct SaveArgs {
    /// A message describing the checkpoint.
    #[serde(default)]
    message: Option<String>,
    /// A name to find it by later (the newest checkpoint of a name wins).
    #[serde(default)]
    name: Option<String>,
    /// The kind: a short lowercase word such as manual (the default), auto or session.
    #[serde(default)]
    kind: Option<String>,
    /// Free-form metadata stored in the note's "meta" object.
    #[serde(default)]
    meta: Option<Map<String, Value>>,
    /// The agent session this checkpoint belongs to (`session:<ID>` then names the session's
    /// first checkpoint).
    #[serde(default)]
    session: Option<String>,
    /// Pin it: never pruned.
    #[serde(default)]
    pin: bool,
    /// Make a checkpoint even if nothing changed since the newest one.
    #[serde(default)]
    allow_empty: bool,
    /// The working tree (absolute, or relative to the server's directory); default: the
    /// server's working directory.
    #[serde(default)]
    directory: Option<String>,
}

/// `checkpoint_list`'s arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(deny_unknown_fields)]
pub struct ListArgs {
    /// At most this many, newest first (default 50; at least 1).
    #[serde(default)]
    limit: Option<usize>,
    /// Only checkpoints of this kind (manual, auto, session, pre-restore, …).
    #[serde(default)]
    kind: Option<String>,
    /// Every worktree's checkpoints, not only this worktree's.
    #[serde(default)]
    all: bool,
    /// Only the checkpoints of this agent session: an id, a unique prefix, or `@` for the
    /// newest session.
    #[serde(default)]
    session: Option<String>,
    /// The working tree; default: the server's working directory.
    #[serde(default)]
    directory: Option<String>,
}

/// `checkpoint_show`'s arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(deny_unknown_fields)]
pub struct ShowArgs {
    /// The checkpoint: an id, `@` (newest), `@{N}`, `session:<ID>`, a name, or an id prefix.
    checkpoint: String,
    /// Also return the conversation kept with it (the agent's transcript at that checkpoint),
    /// as `"conversation"`: `{"format", "source", "bytes", "turns", "content"}`, or null.
    #[serde(default)]
    conversation: bool,
    /// The working tree; default: the server's working directory.
    #[serde(default)]
    directory: Option<String>,
}

/// `checkpoint_diff`'s arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(deny_unknown_fields)]
pub struct DiffArgs {
    /// The old side: a checkpoint (default: the newest of this worktree).
    #[serde(default)]
    from: Option<String>,
    /// The new side: a checkpoint (default: the working tree now).
    #[serde(default)]
    to: Option<String>,
    /// Only these paths (files or directories), relative to `directory`.
    #[serde(default)]
    paths: Vec<String>,
    /// Also return the unified patch, as `"patch"`.
    #[serde(default)]
    patch: bool,
    /// The working tree; default: the server's working directory.
    #[serde(default)]
    directory: Option<String>,
}

/// `checkpoint_restore`'s arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(deny_unknown_fields)]
pub struct RestoreArgs {
    /// The checkpoint to restore: an id, `@`, `@{N}`, `session:<ID>`, a name, or an id prefix.
    checkpoint: String,
    /// Say what would be written and deleted; change nothing.
    #[serde(default)]
    dry_run: bool,
    /// Restore only these paths (files or directories), relative to `directory`.
    #[serde(default)]
    paths: Vec<String>,
    /// Restore only these hunks of the difference between the checkpoint and the working
    /// tree: their ids, as checkpoint_diff with this checkpoint as `from` (and no `to`) gives
    /// them in each file's `hunks`. Not with `paths`.
    #[serde(default, deserialize_with = "given")]
    #[schemars(with = "Vec<String>")]
    hunks: Option<Vec<String>>,
    /// The working tree; default: the server's working directory.
    #[serde(default)]
    directory: Option<String>,
}

/// `checkpoint_undo`'s arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(deny_unknown_fields)]
pub struct UndoArgs {
    /// How many distinct states to go back (default 1; at least 1).
    #[serde(default)]
    steps: Option<u32>,
    /// Say what would be written and deleted; change nothing.
    #[serde(default)]
    dry_run: bool,
    /// The working tree; default: the server's working directory.
    #[serde(default)]
    directory: Option<String>,
}

/// `checkpoint_revert`'s arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(deny_unknown_fields)]
pub struct RevertArgs {
    /// Where the step to take back starts: a checkpoint (an id, `@`, `@{N}`, a name, an id
    /// prefix), or `session:<ID>` for that agent session's own steps. Required unless `agent`.
    #[serde(default)]
    from: Option<String>,
    /// Where the step ends; default: the next checkpoint of this worktree after `from`.
    #[serde(default)]
    to: Option<String>,
    /// Instead of `from`: take back the own steps of every session of this agent
    /// (`claude-code`, `codex`, …) in this worktree, keeping what everyone else changed.
    #[serde(default)]
    agent: Option<String>,
    /// Take back only these hunks of one step's change: their ids, as checkpoint_diff with
    /// the step's `from` and `to` gives them in each file's `hunks`. Not with `agent` or a
    /// `session:`.
    #[serde(default, deserialize_with = "given")]
    #[schemars(with = "Vec<String>")]
    hunks: Option<Vec<String>>,
    /// When the step's change and later changes touch the same lines: false (default)
    /// refuses the whole revert and names the files; true writes conflict markers, as `git
    /// revert` does.
    #[serde(default)]
    markers: bool,
    /// Say what would be written and deleted; change nothing.
    #[serde(default)]
    dry_run: bool,
    /// The working tree; default: the server's working directory.
    #[serde(default)]
    directory: Option<String>,
}

/// The server: its tools, each a call of the façade.
#[derive(Clone)]
pub struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    fn new() -> Server {
        Server {
            tool_router: Self::tool_router(),
        }
    }

    /// Snapshot the working tree now (tracked and untracked files that are not ignored; the
    /// branch, index and stash are never touched). Returns the checkpoint's metadata, as `git
    /// checkpoint save --json`; when nothing changed since the newest checkpoint, that one.
    /// Files it adds beyond HEAD are scanned for secrets: `"secrets": {"findings": [{"path",
    /// "line", "rule"}]}` says where (never the value); `git checkpoint push` holds such a
    /// checkpoint back. With `checkpoint.secrets=block`, a finding is a tool error instead.
    #[tool(annotations(
        title = "Save a checkpoint",
        read_only_hint = false,
        destructive_hint = false,
        idempotent_hint = false,
        open_world_hint = false
    ))]
    async fn checkpoint_save(&self, Parameters(args): Parameters<SaveArgs>) -> CallToolResult {
        call_opening(
            args.directory.clone(),
            Opening::Creating,
            move |checkpoints, _| {
                let options = SaveOptions {
                    message: args.message,
                    name: args.name,
                    kind: args.kind,
                    meta: args.meta.unwrap_or_default(),
                    pin: args.pin,
                    allow_empty: args.allow_empty,
                    session: args.session,
                    ..SaveOptions::default()
                };
                let outcome = checkpoints.save(&options, &Control::default())?;
                Ok(outcome.checkpoint().to_json())
            },
        )
        .await
    }

    /// List checkpoints, newest first, as `git checkpoint list --json`: `{"checkpoints":
    /// [...]}` (each one's note plus "commit"), this worktree's unless `all`. A checkpoint
    /// whose save found possible secrets has findings in `"secrets"` (path, line, rule).
    #[tool(annotations(
        title = "List checkpoints",
        read_only_hint = true,
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ))]
    async fn checkpoint_list(&self, Parameters(args): Parameters<ListArgs>) -> CallToolResult {
        // A plain directory where nothing was saved: no checkpoints, and no store made.
        let none = Opening::Else(json!({ "checkpoints": [] }));
        if args.limit == Some(0) {
            return invalid("`limit` must be at least 1 (it is how many checkpoints to return)");
        }
        call_opening(args.directory.clone(), none, move |checkpoints, _| {
            let loaded = checkpoints.load()?;
            let options = ListOptions {
                all: args.all,
                session: args.session,
                kind: args.kind,
                limit: Some(args.limit.unwrap_or(DEFAULT_LIST_LIMIT)),
            };
            let shown: Vec<Value> = checkpoints
                .listed(&loaded, &options)?
                .into_iter()
                .map(Checkpoint::to_json)
                .collect();
            Ok(json!({ "checkpoints": shown }))
        })
        .await
    }

    /// One checkpoint's metadata, as `git checkpoint show --json`; with `conversation`, also
    /// the conversation kept with it (`show --conversation --json`), as `"conversation"`.
    /// `"secrets"` lists where its save found possible secrets (path, line, rule; never a
    /// value): such a checkpoint is not pushed without `--allow-secrets`.
    #[tool(annotations(
        title = "Show a checkpoint",
        read_only_hint = true,
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ))]
    async fn checkpoint_show(&self, Parameters(args): Parameters<ShowArgs>) -> CallToolResult {
        call(args.directory.clone(), move |checkpoints, _| {
            let checkpoint = checkpoints.find(&args.checkpoint)?;
            let mut value = checkpoint.to_json();
            if args.conversation
                && let serde_json::Value::Object(map) = &mut value
            {
                let conversation = checkpoints
                    .conversation(&checkpoint)?
                    .map(|c| c.to_json())
                    .unwrap_or(serde_json::Value::Null);
                map.insert("conversation".into(), conversation);
            }
            Ok(value)
        })
        .await
    }

    /// What changed between two checkpoints, or from a checkpoint (default: the newest) to
    /// the working tree now, as `git checkpoint diff --json`: `{"files": [{"path",
    /// "old_path", "status", "additions", "deletions", "binary", "hunks"}]}`, and the unified
    /// patch as `"patch"` when asked for. Each hunk is `{"id", "header", "old_start",
    /// "old_lines", "new_start", "new_lines", "lines"}`: its `id` is what checkpoint_restore
    /// (from a checkpoint to the working tree) and checkpoint_revert (from one checkpoint to
    /// another) take as `hunks`. Writes nothing.
    #[tool(annotations(
        title = "Compare checkpoints",
        read_only_hint = true,
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false
    ))]
    async fn checkpoint_diff(&self, Parameters(args): Parameters<DiffArgs>) -> CallToolResult {
        call(args.directory.clone(), move |checkpoints, dir| {
            let loaded = checkpoints.load()?;
            let from = match &args.from {
                Some(spec) => checkpoints.resolve(&loaded, spec)?,
                None => checkpoints
                    .own(&loaded)
                    .next()
                    .ok_or(Error::NoCheckpoints)?,
            };
            let to = match &args.to {
                Some(spec) => Side::Checkpoint(checkpoints.resolve(&loaded, spec)?),
                None => Side::WorkingTree,
            };
            let paths = checkpoints.paths_from(dir, &to_paths(&args.paths))?;
            let diff = checkpoints.diff(
                Side::Checkpoint(from),
                to,
                &paths,
                // Hunks always: their ids are what a restore or revert of hunks takes.
                DiffOptions {
                    renames: checkpoints.renames(None, false),
                    ..DiffOptions::default()
                },
                &Control::default(),
            )?;
            let mut value = diff.to_json();
            if args.patch
                && let Value::Object(map) = &mut value
            {
                map.insert(
                    "patch".into(),
                    diff.patch_text(PatchStyle::default()).into(),
                );
            }
            Ok(value)
        })
        .await
    }

    /// Make the working tree equal to a checkpoint (all of it, or `paths`), as `git
    /// checkpoint restore --json`; or take back only some hunks of the difference: `hunks`,
    /// ids from checkpoint_diff with this checkpoint as `from`. First saves the current state
    /// as a `pre-restore` checkpoint (returned as "safety"), so the restore can be undone by
    /// restoring that checkpoint. Ignored files are never deleted. Use `dry_run` first to see
    /// what would be written and deleted.
    #[tool(annotations(
        title = "Restore a checkpoint",
        read_only_hint = false,
        destructive_hint = true,
        idempotent_hint = false,
        open_world_hint = false
    ))]
    async fn checkpoint_restore(
        &self,
        Parameters(args): Parameters<RestoreArgs>,
    ) -> CallToolResult {
        let hunks = match hunk_ids(args.hunks) {
            Ok(hunks) => hunks,
            Err(why) => return invalid(why),
        };
        if !hunks.is_empty() && !args.paths.is_empty() {
            return invalid("give `hunks` or `paths`, not both: a hunk id names its file already");
        }
        call(args.directory.clone(), move |checkpoints, dir| {
            let loaded = checkpoints.load()?;
            let target = checkpoints.resolve(&loaded, &args.checkpoint)?;
            let options = RestoreOptions {
                paths: checkpoints.paths_from(dir, &to_paths(&args.paths))?,
                dry_run: args.dry_run,
                hunks,
                ..RestoreOptions::default()
            };
            Ok(checkpoints
                .restore(target, &options, &Control::default())?
                .to_json())
        })
        .await
    }

    /// Go back one step (or `steps`), as `git checkpoint undo --json`: the working tree
    /// becomes the newest earlier state of this worktree that differs from it now. Saves a
    /// `pre-restore` checkpoint first (returned as "safety"), so it is undoable too.
    #[tool(annotations(
        title = "Undo the last change",
        read_only_hint = false,
        destructive_hint = true,
        idempotent_hint = false,
        open_world_hint = false
    ))]
    async fn checkpoint_undo(&self, Parameters(args): Parameters<UndoArgs>) -> CallToolResult {
        if args.steps == Some(0) {
            return invalid("`steps` must be at least 1 (it is how many states to go back)");
        }
        call(args.directory.clone(), move |checkpoints, _| {
            let options = RestoreOptions {
                dry_run: args.dry_run,
                ..RestoreOptions::default()
            };
            let steps = args.steps.unwrap_or(1) as usize;
            Ok(checkpoints
                .undo(steps, &options, &Control::default())?
                .to_json())
        })
        .await
    }

    /// Take back one step's change (from `from` to `to`) while keeping everything changed
    /// since, by a three-way merge as `git revert` does, as `git checkpoint revert --json`;
    /// `from: "session:<ID>"` takes back that session's own steps, `agent` those of every
    /// session of that agent, and `hunks` only some hunks of one step (ids from
    /// checkpoint_diff with the step's `from` and `to`). Saves the current state first
    /// (returned as "safety"); checkpoint_undo takes the revert back. Conflicting files refuse
    /// the whole revert unless `markers`. Use `dry_run` first.
    #[tool(annotations(
        title = "Take back one step",
        read_only_hint = false,
        destructive_hint = true,
        idempotent_hint = false,
        open_world_hint = false
    ))]
    async fn checkpoint_revert(
        &self,
        Parameters(mut args): Parameters<RevertArgs>,
    ) -> CallToolResult {
        let hunks = match hunk_ids(args.hunks.take()) {
            Ok(hunks) => hunks,
            Err(why) => return invalid(why),
        };
        if let Some(why) = revert_refusal(&args, &hunks) {
            return invalid(why);
        }
        call(args.directory.clone(), move |checkpoints, _| {
            let loaded = checkpoints.load()?;
            let span = match (&args.agent, &args.from) {
                (Some(agent), _) => checkpoints.revert_agent(&loaded, agent)?,
                (None, from) => checkpoints.revert_range(
                    &loaded,
                    from.as_deref().unwrap_or_default(),
                    args.to.as_deref(),
                )?,
            };
            let options = RevertOptions {
                markers: args.markers,
                dry_run: args.dry_run,
                hunks,
                ..RevertOptions::default()
            };
            Ok(checkpoints
                .revert(&span, &options, &Control::default())?
                .to_json())
        })
        .await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "git-checkpoint",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "git-checkpoint keeps snapshots of the working tree as hidden git commits. \
                 Call checkpoint_save before risky changes; checkpoint_list, checkpoint_show \
                 and checkpoint_diff to look; checkpoint_restore (try dry_run first) or \
                 checkpoint_undo to go back; checkpoint_revert to take back one step (or a \
                 session's or an agent's own steps) while keeping later work. checkpoint_diff \
                 gives each hunk an id: checkpoint_restore and checkpoint_revert take `hunks` \
                 to go back on only those. Every restore first saves the current state, so it \
                 can be undone. Pass `directory` when the server does not run in the project.",
            )
    }
}

/// An argument that, once given, must hold a value: `null` is refused rather than taken for
/// the argument left out (for `hunks`, that would be a restore of whole files).
fn given<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// The hunk ids given, or why they name none: `hunks: []` is refused rather than read as "no
/// hunks chosen: everything".
fn hunk_ids(hunks: Option<Vec<String>>) -> Result<Vec<String>, &'static str> {
    match hunks {
        Some(ids) if ids.is_empty() => Err(
            "`hunks` is empty: name at least one hunk id (checkpoint_diff gives them), or leave `hunks` out",
        ),
        Some(ids) => Ok(ids),
        None => Ok(Vec::new()),
    }
}

/// Why the arguments of checkpoint_revert do not say what to take back, if they do not:
/// neither `from` nor `agent`, or both; `agent` with `to`; hunks of more than one step.
fn revert_refusal(args: &RevertArgs, hunks: &[String]) -> Option<&'static str> {
    let own_steps = args.agent.is_some()
        || args
            .from
            .as_deref()
            .is_some_and(|f| f.starts_with(git_checkpoint::format::SESSION_PREFIX));
    match (&args.from, &args.agent) {
        (None, None) => Some(
            "give `from` (where the step starts, or `session:<ID>`) or `agent`: what to take back",
        ),
        (Some(_), Some(_)) => Some("give `from` or `agent`, not both"),
        (None, Some(agent)) if agent.is_empty() => {
            Some("`agent` is empty: name the agent (`claude-code`, `codex`, …)")
        }
        (None, Some(_)) if args.to.is_some() => Some(
            "give `agent` or `to`, not both: `agent` takes back that agent's own steps, not one step",
        ),
        _ if !hunks.is_empty() && own_steps => Some(
            "`hunks` takes hunks of one step (`from` and `to`), not of a session's or an agent's steps",
        ),
        _ => None,
    }
}

/// Paths as given by the client.
fn to_paths(paths: &[String]) -> Vec<PathBuf> {
    paths.iter().map(PathBuf::from).collect()
}

/// Open the checkpoints of `directory` (default: the current directory) and run `work` on a
/// blocking thread; its JSON becomes the result, its error a tool error.
async fn call(
    directory: Option<String>,
    work: impl FnOnce(&Checkpoints, &Path) -> Result<Value, Error> + Send + 'static,
) -> CallToolResult {
    call_opening(directory, Opening::Existing, work).await
}

/// How a tool opens a plain directory that has no store yet.
enum Opening {
    /// Make its store: the tool makes a checkpoint.
    Creating,
    /// Fail with [`Error::NoStore`]: nothing was ever saved there, so nothing can be named.
    Existing,
    /// Answer with this result, making nothing (a listing: there are no checkpoints).
    Else(Value),
}

/// Run `work` on the checkpoints of `directory` (relative to the server's directory), opened
/// as `opening` says.
async fn call_opening(
    directory: Option<String>,
    opening: Opening,
    work: impl FnOnce(&Checkpoints, &Path) -> Result<Value, Error> + Send + 'static,
) -> CallToolResult {
    let joined = tokio::task::spawn_blocking(move || {
        let cwd = std::env::current_dir().map_err(|source| Error::Io {
            context: "cannot read the current directory".into(),
            source,
        })?;
        let dir = match directory {
            Some(d) if !d.is_empty() => cwd.join(d),
            _ => cwd,
        };
        let mut options = OpenOptions::default();
        options.create = matches!(opening, Opening::Creating);
        let checkpoints = match (Checkpoints::open_with(&dir, &options), opening) {
            (Err(Error::NoStore(_)), Opening::Else(value)) => return Ok(value),
            (opened, _) => opened?,
        };
        let mut value = work(&checkpoints, &dir)?;
        // A plain directory below one that has checkpoints acts on that one: say so, as the
        // command line does, so that an agent knows what a restore or an undo rewrites.
        if let (Some(there), Some(object)) = (checkpoints.acting_on(&dir), value.as_object_mut()) {
            object.insert(
                "acting_on".into(),
                there.to_string_lossy().into_owned().into(),
            );
        }
        Ok(value)
    })
    .await;
    match joined {
        Ok(Ok(value)) => CallToolResult::structured(value),
        Ok(Err(err)) => tool_error(&err),
        Err(join) => CallToolResult::error(vec![ContentBlock::text(format!(
            "error: git-checkpoint failed unexpectedly: {join}"
        ))]),
    }
}

/// An argument no call can work with (as the command line refuses `undo 0`): a tool error,
/// so that the client sees it rather than a result for some other value.
fn invalid(why: &str) -> CallToolResult {
    tool_error(&Error::InvalidInput(why.to_string()))
}

/// A tool error: `error: …` on one line, and a hint where one helps.
fn tool_error(err: &Error) -> CallToolResult {
    let mut text = format!("error: {}", err.to_string().replace(['\n', '\r'], " "));
    let hint = match err {
        Error::UnknownCheckpoint(_) | Error::PositionOutOfRange { .. } => {
            Some("call checkpoint_list to see the checkpoints")
        }
        Error::Removed(_) => Some(
            "it was removed on purpose (drop) or by retention (pin a checkpoint to keep it); call checkpoint_list to see those there are",
        ),
        Error::NoCheckpoints => Some("make one with checkpoint_save"),
        Error::AmbiguousCheckpoint { .. } => Some("give more characters of the id"),
        Error::NotARepository(_) => Some("pass `directory`: the working tree of a git repository"),
        Error::RevertConflicts { .. } => {
            Some("pass `markers: true` to write conflict markers into those files instead")
        }
        Error::UnknownHunk { .. } => Some("call checkpoint_diff for the current hunk ids"),
        _ => None,
    };
    if let Some(hint) = hint {
        text.push_str("\nhint: ");
        text.push_str(hint);
    }
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// Serve MCP on stdin and stdout until the client closes stdin, one message per line (see
/// [`framing`]).
pub fn serve() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (transport, writer) = framing::stdio();
    let served = runtime.block_on(async {
        let service = Server::new()
            .serve(transport)
            .await
            .map_err(std::io::Error::other)?;
        service.waiting().await.map_err(std::io::Error::other)?;
        Ok(())
    });
    // The transport is gone with the runtime's tasks: what it queued is written, then stdout
    // is left alone.
    drop(runtime);
    let _ = writer.join();
    served
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `checkpoint_restore`'s arguments read from `json`, or the error's text.
    fn restore_args(json: Value) -> Result<RestoreArgs, String> {
        let Value::Object(map) = json else {
            return Err(format!("not an object: {json}"));
        };
        let accepted = accepted::<RestoreArgs>();
        let unknown = unknown_in(&map, &accepted);
        if !unknown.is_empty() {
            return Err(unknown_arguments(&unknown, &accepted));
        }
        read_strictly(map)
    }

    #[test]
    fn unknown_arguments_are_named_with_what_was_meant() {
        let err = restore_args(json!({"checkpoint": "@", "dryRun": true, "path": "a", "x": 1}))
            .err()
            .unwrap_or_default();
        assert_eq!(
            err,
            "unknown arguments `dryRun` (did you mean `dry_run`?), `path` (did you mean \
             `paths`?), `x`; the arguments are `checkpoint`, `dry_run`, `paths`, `hunks`, \
             `directory`. Nothing was done"
        );
    }

    #[test]
    fn a_value_of_the_wrong_type_names_its_argument() {
        let err = restore_args(json!({"paths": ["a"], "dry_run": "yes", "checkpoint": "@"}))
            .err()
            .unwrap_or_default();
        assert!(
            err.starts_with(
                "argument `dry_run`: invalid type: string \"yes\", expected a boolean;"
            ),
            "{err}"
        );
        let err = restore_args(json!({"dry_run": true}))
            .err()
            .unwrap_or_default();
        assert!(err.starts_with("missing field `checkpoint`;"), "{err}");
    }

    #[test]
    fn known_arguments_are_read() {
        let args = restore_args(json!({"checkpoint": "@", "paths": ["a"], "dry_run": true}));
        let args = args.unwrap_or_default();
        assert_eq!(
            (args.checkpoint.as_str(), args.paths, args.dry_run),
            ("@", vec!["a".to_string()], true)
        );
    }
}
