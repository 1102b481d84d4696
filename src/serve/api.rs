//! The JSON API: one handler per endpoint, each running the façade on a blocking thread and
//! answering with the JSON shapes of `--json`, or `{"error": "…"}`.

use std::path::PathBuf;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State as Shared};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use git_checkpoint::{
    Checkpoint, Checkpoints, DiffOptions, Error, ListOptions, PatchStyle, RestoreOptions,
    RevertOptions, SaveOptions, Saved, Side,
};

use super::State;

/// The most a patch in a diff response holds; past it the patch is cut at a line and
/// `"patch_truncated"` is true (the file list is always whole).
const MAX_PATCH_BYTES: usize = 8 << 20;

/// An error answered as `{"error": "…"}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<Error> for ApiError {
    fn from(err: Error) -> ApiError {
        ApiError::new(status_of(&err), err.to_string())
    }
}

/// The status of a library error: what the caller named does not exist (404), the request
/// itself is wrong (400), the repository's state refuses it now (409), or something broke
/// (500).
fn status_of(err: &Error) -> StatusCode {
    match err {
        Error::NoCheckpoints
        | Error::NoOwnCheckpoints(_)
        | Error::UnknownCheckpoint(_)
        | Error::Removed(_)
        | Error::PositionOutOfRange { .. } => StatusCode::NOT_FOUND,
        Error::InvalidInput(_)
        | Error::UnknownHunk { .. }
        | Error::AmbiguousCheckpoint { .. }
        | Error::PathMatchesNothing { .. }
        | Error::Config { .. } => StatusCode::BAD_REQUEST,
        Error::RestoreInProgress
        | Error::NoWorkingTree(_)
        | Error::BareRepository
        | Error::OperationInProgress(_)
        | Error::InTheWay { .. }
        | Error::NestedRepositoryInTheWay { .. }
        | Error::UnsafeTree { .. }
        | Error::NothingToUndo(_)
        | Error::NothingToRedo
        | Error::RevertConflicts { .. }
        | Error::HunkDoesNotApply { .. }
        | Error::Contention(_)
        | Error::Locked(_)
        | Error::NotesDamaged(_)
        | Error::SecretsFound(_) => StatusCode::CONFLICT,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

type Reply = Result<Response, ApiError>;

/// Run `work` with a freshly opened façade on a blocking thread; a panic there is a 500.
pub(super) async fn blocking<T: Send + 'static>(
    state: &Arc<State>,
    work: impl FnOnce(Checkpoints, &State) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let state = Arc::clone(state);
    tokio::task::spawn_blocking(move || work(state.open()?, &state))
        .await
        .map_err(|_| ApiError::internal("the request failed with an internal error"))?
}

fn ok(value: Value) -> Reply {
    Ok(Json(value).into_response())
}

/// The checkpoint in the path (`{cp}`, percent-decoded), by any naming rule.
fn spec(path: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    path.map(|Path(spec)| spec)
        .map_err(|e| ApiError::bad_request(e.body_text()))
}

/// A JSON body: empty means every field's default; otherwise it must be sent as
/// `application/json` and hold exactly the fields of `T`.
fn body<T: DeserializeOwned + Default>(
    headers: &HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|e| ApiError::bad_request(e.body_text()))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
    if !json {
        return Err(ApiError::bad_request(
            "the body must be JSON, sent with `Content-Type: application/json`",
        ));
    }
    // serde reads a struct from an array too, field by field in order: only an object is a
    // body.
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the body is not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(ApiError::bad_request("the body must be a JSON object"));
    }
    serde_json::from_value(value)
        .map_err(|e| ApiError::bad_request(format!("the body is not what was expected: {e}")))
}

/// Answer for any path that is not an endpoint.
pub async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such endpoint")
}

/// Answer for a known path with a method it does not take.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint does not take that method",
    )
}

/// `GET /api/repository`: which directory the server acts on: `{"directory", "plain",
/// "store", "acting_on"}`; `store` is a plain directory's private store (else null),
/// `acting_on` the directory acted on when it is not the one `serve` was started in but a
/// plain directory above it (else null).
pub async fn repository(Shared(state): Shared<Arc<State>>) -> Reply {
    let place = &state.place;
    let text = |p: &std::path::Path| p.to_string_lossy().into_owned();
    ok(json!({
        "directory": text(&place.workdir),
        "plain": place.store.is_some(),
        "store": place.store.as_deref().map(text),
        "acting_on": place.acting_on.as_deref().map(text),
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    limit: Option<u32>,
    before: Option<String>,
    kind: Option<String>,
    session: Option<String>,
    #[serde(default)]
    all: bool,
}

/// `GET /api/checkpoints?limit=N&kind=K&session=S&all=true&before=CP`: newest first, as `list
/// --json`; with `before`, those listed after that checkpoint (the next page).
pub async fn list(
    Shared(state): Shared<Arc<State>>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Reply {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let limit = query.limit.unwrap_or(20);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::bad_request("`limit` must be from 1 to 200"));
    }
    let list = blocking(&state, move |checkpoints, state| {
        let loaded = state.load(&checkpoints)?;
        let options = ListOptions {
            all: query.all,
            session: query.session,
            kind: query.kind,
            limit: None,
        };
        let listed = checkpoints.listed(&loaded, &options)?;
        let start = match &query.before {
            None => 0,
            Some(spec) => {
                let before = checkpoints.resolve(&loaded, spec)?;
                let at = listed.iter().position(|c| c.id == before.id).ok_or_else(|| {
                    ApiError::new(
                        StatusCode::NOT_FOUND,
                        format!(
                            "checkpoint {} is not among those listed (see `kind`, `session` and `all`)",
                            before.id
                        ),
                    )
                })?;
                at + 1
            }
        };
        let shown: Vec<Value> = listed
            .into_iter()
            .skip(start)
            .take(limit as usize)
            .map(Checkpoint::to_json)
            .collect();
        Ok(Value::Array(shown))
    })
    .await?;
    ok(list)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConversationQuery {
    #[serde(default)]
    summary: bool,
}

/// `GET /api/checkpoints/{cp}/conversation[?summary=true]`: the conversation kept with it, as
/// `show --conversation --json`, plus `"prompt"` (its last prompt) and `"next_tool"` (the tool
/// call that came next), each a turn or null; with `summary`, only those two. 404 when none
/// was kept, saying why.
pub async fn conversation(
    Shared(state): Shared<Arc<State>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<ConversationQuery>, QueryRejection>,
) -> Reply {
    let spec = spec(path)?;
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let value = blocking(&state, move |checkpoints, state| {
        let loaded = state.load(&checkpoints)?;
        let checkpoint = checkpoints.resolve(&loaded, &spec)?.clone();
        let Some((prompt, next_tool)) = checkpoints.conversation_summary(&loaded, &checkpoint)?
        else {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                git_checkpoint::no_conversation(&checkpoint),
            ));
        };
        let mut value = if query.summary {
            json!({})
        } else {
            checkpoints
                .conversation(&checkpoint)?
                .map(|c| c.to_json())
                .unwrap_or_else(|| json!({}))
        };
        if let Value::Object(map) = &mut value {
            map.insert("id".into(), checkpoint.id.clone().into());
            map.insert("prompt".into(), json!(prompt));
            map.insert("next_tool".into(), json!(next_tool));
        }
        Ok(value)
    })
    .await?;
    ok(value)
}

/// `GET /api/checkpoints/{cp}`: one checkpoint, as `show --json`.
pub async fn show(
    Shared(state): Shared<Arc<State>>,
    path: Result<Path<String>, PathRejection>,
) -> Reply {
    let spec = spec(path)?;
    let value = blocking(&state, move |checkpoints, state| {
        let loaded = state.load(&checkpoints)?;
        Ok(checkpoints.resolve(&loaded, &spec)?.to_json())
    })
    .await?;
    ok(value)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiffQuery {
    to: Option<String>,
    base: Option<String>,
}

/// `GET /api/checkpoints/{cp}/diff?to={cp2}`: from `cp` to `cp2`, or to the working tree;
/// `?base=head`: from the commit `cp` was taken on to `cp` (what `show` lists). The JSON of
/// `diff --json` plus `"patch"`, the unified patch as `diff` prints it.
pub async fn diff(
    Shared(state): Shared<Arc<State>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<DiffQuery>, QueryRejection>,
) -> Reply {
    let spec = spec(path)?;
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let from_head = match query.base.as_deref() {
        None => false,
        Some("head") if query.to.is_none() => true,
        Some("head") => {
            return Err(ApiError::bad_request(
                "give either `to` or `base=head`, not both",
            ));
        }
        Some(_) => return Err(ApiError::bad_request("`base` can only be `head`")),
    };
    let value = blocking(&state, move |checkpoints, state| {
        let loaded = state.load(&checkpoints)?;
        let cp = checkpoints.resolve(&loaded, &spec)?;
        let (from, to) = match (&query.to, from_head) {
            (_, true) => (Side::HeadOf(cp), Side::Checkpoint(cp)),
            (Some(to), false) => (
                Side::Checkpoint(cp),
                Side::Checkpoint(checkpoints.resolve(&loaded, to)?),
            ),
            (None, false) => (Side::Checkpoint(cp), Side::WorkingTree),
        };
        let options = DiffOptions {
            renames: checkpoints.renames(None, false),
            ..DiffOptions::default()
        };
        let diff = checkpoints.diff(from, to, &[], options, &Default::default())?;
        let mut patch = Limited::default();
        let written = diff.write_patch(&mut patch, &git_checkpoint::Plain, PatchStyle::default());
        if written.is_err() && !patch.truncated {
            written.map_err(|source| Error::Io {
                context: "cannot write the patch".into(),
                source,
            })?;
        }
        let mut value = diff.to_json();
        if let Value::Object(map) = &mut value {
            let truncated = patch.truncated;
            map.insert("patch".into(), patch.text().into());
            map.insert("patch_truncated".into(), truncated.into());
        }
        Ok(value)
    })
    .await?;
    ok(value)
}

/// A writer that keeps the first [`MAX_PATCH_BYTES`] and then refuses more.
#[derive(Default)]
struct Limited {
    bytes: Vec<u8>,
    truncated: bool,
}

impl Limited {
    /// The text kept, cut after its last whole line when it was truncated.
    fn text(mut self) -> String {
        if self.truncated {
            let end = self
                .bytes
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            self.bytes.truncate(end);
        }
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

impl std::io::Write for Limited {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = MAX_PATCH_BYTES.saturating_sub(self.bytes.len());
        if buf.len() > room {
            self.bytes.extend_from_slice(&buf[..room]);
            self.truncated = true;
            return Err(std::io::Error::other("the patch is too large"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveBody {
    message: Option<String>,
    name: Option<String>,
    kind: Option<String>,
    meta: Option<serde_json::Map<String, Value>>,
    session: Option<String>,
    #[serde(default)]
    pin: bool,
    #[serde(default)]
    allow_empty: bool,
}

/// `POST /api/checkpoints`: save now. 201 and the new checkpoint's metadata; 200 and the
/// newest checkpoint's when nothing changed since it (as `save` reports it).
pub async fn save(
    Shared(state): Shared<Arc<State>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Reply {
    let body: SaveBody = body(&headers, bytes)?;
    let saved = blocking(&state, move |checkpoints, _| {
        let options = SaveOptions {
            message: body.message,
            name: body.name,
            kind: body.kind,
            meta: body.meta.unwrap_or_default(),
            pin: body.pin,
            allow_empty: body.allow_empty,
            session: body.session,
            ..SaveOptions::default()
        };
        Ok(checkpoints.save(&options, &Default::default())?.saved)
    })
    .await?;
    let status = match &saved {
        Saved::Created(_) => StatusCode::CREATED,
        Saved::Unchanged(_) => StatusCode::OK,
    };
    Ok((status, Json(saved.checkpoint().to_json())).into_response())
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestoreBody {
    #[serde(default)]
    dry_run: bool,
    /// Paths relative to the top of the working tree; none: everything.
    #[serde(default)]
    paths: Vec<PathBuf>,
    #[serde(default)]
    staged: bool,
    /// Only these hunks of the difference between the checkpoint and the working tree (ids
    /// as its diff gives them); absent: whole files.
    #[serde(default, deserialize_with = "given")]
    hunks: Option<Vec<String>>,
}

/// A field that, once in the body, must hold a value: `null` is refused rather than taken
/// for the field left out (for `hunks`, that would be a restore of whole files).
fn given<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// The hunk ids of a body, checked: `hunks: []` names no hunk, and is refused rather than
/// read as "no hunks chosen: everything"; an id that names nothing is the library's to
/// refuse.
fn hunk_ids(hunks: Option<Vec<String>>, listed_by: &str) -> Result<Vec<String>, ApiError> {
    match hunks {
        Some(ids) if ids.is_empty() => Err(ApiError::bad_request(format!(
            "`hunks` is empty: name at least one hunk id (as {listed_by} gives them), or leave `hunks` out"
        ))),
        Some(ids) => Ok(ids),
        None => Ok(Vec::new()),
    }
}

/// `POST /api/checkpoints/{cp}/restore`: as `restore --json`; with `hunks`, only those hunks
/// of the difference between `cp` and the working tree (as `restore --hunk`).
pub async fn restore(
    Shared(state): Shared<Arc<State>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Reply {
    let spec = spec(path)?;
    let body: RestoreBody = body(&headers, bytes)?;
    let hunks = hunk_ids(
        body.hunks,
        "`GET /api/checkpoints/{cp}/diff` (without `to`)",
    )?;
    if !hunks.is_empty() && !body.paths.is_empty() {
        return Err(ApiError::bad_request(
            "give `hunks` or `paths`, not both: a hunk id names its file already",
        ));
    }
    if !hunks.is_empty() && body.staged {
        return Err(ApiError::bad_request(
            "`hunks` restores hunks of the working tree, not of the index: leave out `staged`",
        ));
    }
    let value = blocking(&state, move |checkpoints, state| {
        let loaded = state.load(&checkpoints)?;
        let target = checkpoints.resolve(&loaded, &spec)?;
        let top = checkpoints.workdir().ok_or(Error::BareRepository)?;
        let paths = checkpoints.paths_from(top, &body.paths)?;
        let options = RestoreOptions {
            paths,
            dry_run: body.dry_run,
            staged: body.staged,
            hunks,
            ..RestoreOptions::default()
        };
        Ok(checkpoints
            .restore(target, &options, &Default::default())?
            .to_json())
    })
    .await?;
    ok(value)
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevertBody {
    to: Option<String>,
    #[serde(default)]
    markers: bool,
    #[serde(default)]
    dry_run: bool,
    /// Only these hunks of the step's change (ids as the diff from `cp` to `to` gives them).
    #[serde(default, deserialize_with = "given")]
    hunks: Option<Vec<String>>,
    /// Instead of the step from `cp`: the own steps of every session of this agent.
    agent: Option<String>,
}

/// `POST /api/checkpoints/{cp}/revert`: take back the step from `cp` to `to` (default: the
/// next checkpoint of this worktree; `session:<ID>` as `cp`: that session's own steps; with
/// `agent`, every session's of that agent), keeping what changed since, as `revert --json`;
/// with `hunks`, only those hunks of one step. Conflicts are a 409 naming the files unless
/// `markers`.
pub async fn revert(
    Shared(state): Shared<Arc<State>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Reply {
    let spec = spec(path)?;
    let body: RevertBody = body(&headers, bytes)?;
    let hunks = hunk_ids(body.hunks, "`GET /api/checkpoints/{cp}/diff?to={to}`")?;
    let session = spec.starts_with(git_checkpoint::format::SESSION_PREFIX);
    if let Some(agent) = &body.agent {
        let refusal = if agent.is_empty() {
            Some("`agent` is empty: name the agent (`claude-code`, `codex`, …)")
        } else if body.to.is_some() {
            Some(
                "give `agent` or `to`, not both: `agent` takes back that agent's own steps, not one step",
            )
        } else if session {
            Some("give `agent` or a `session:` checkpoint, not both")
        } else {
            None
        };
        if let Some(why) = refusal {
            return Err(ApiError::bad_request(why));
        }
    }
    if !hunks.is_empty() && (body.agent.is_some() || session) {
        return Err(ApiError::bad_request(
            "`hunks` takes hunks of one step (from `cp` to `to`), not of a session's or an agent's steps",
        ));
    }
    let value = blocking(&state, move |checkpoints, state| {
        let loaded = state.load(&checkpoints)?;
        let span = match &body.agent {
            Some(agent) => {
                // The path still names a checkpoint: one that does not exist is a 404.
                checkpoints.resolve(&loaded, &spec)?;
                checkpoints.revert_agent(&loaded, agent)?
            }
            None => checkpoints.revert_range(&loaded, &spec, body.to.as_deref())?,
        };
        let options = RevertOptions {
            markers: body.markers,
            dry_run: body.dry_run,
            hunks,
            ..RevertOptions::default()
        };
        Ok(checkpoints
            .revert(&span, &options, &Default::default())?
            .to_json())
    })
    .await?;
    ok(value)
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepsBody {
    steps: Option<u32>,
    #[serde(default)]
    dry_run: bool,
}

/// `POST /api/undo`: as `undo --json`; body `{"steps", "dry_run"}`, both optional.
pub async fn undo(
    Shared(state): Shared<Arc<State>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Reply {
    steps(state, headers, bytes, Checkpoints::undo).await
}

/// `POST /api/redo`: as `redo --json`.
pub async fn redo(
    Shared(state): Shared<Arc<State>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Reply {
    steps(state, headers, bytes, Checkpoints::redo).await
}

type Step = fn(
    &Checkpoints,
    usize,
    &RestoreOptions,
    &git_checkpoint::Control<'_>,
) -> git_checkpoint::Result<git_checkpoint::Restored>;

async fn steps(
    state: Arc<State>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
    step: Step,
) -> Reply {
    let body: StepsBody = body(&headers, bytes)?;
    let n = body.steps.unwrap_or(1);
    if !(1..=1000).contains(&n) {
        return Err(ApiError::bad_request("`steps` must be from 1 to 1000"));
    }
    let value = blocking(&state, move |checkpoints, _| {
        let options = RestoreOptions {
            dry_run: body.dry_run,
            ..RestoreOptions::default()
        };
        Ok(step(&checkpoints, n as usize, &options, &Default::default())?.to_json())
    })
    .await?;
    ok(value)
}

/// `PUT /api/checkpoints/{cp}/pin`: pin; the checkpoint's metadata after.
pub async fn pin(
    Shared(state): Shared<Arc<State>>,
    path: Result<Path<String>, PathRejection>,
) -> Reply {
    set_pinned(state, spec(path)?, true).await
}

/// `DELETE /api/checkpoints/{cp}/pin`: unpin.
pub async fn unpin(
    Shared(state): Shared<Arc<State>>,
    path: Result<Path<String>, PathRejection>,
) -> Reply {
    set_pinned(state, spec(path)?, false).await
}

async fn set_pinned(state: Arc<State>, spec: String, pinned: bool) -> Reply {
    let value = blocking(&state, move |checkpoints, state| {
        let loaded = state.load(&checkpoints)?;
        let c = checkpoints.resolve(&loaded, &spec)?;
        checkpoints.set_pinned(c, pinned, &git_checkpoint::Control::default())?;
        let after = state.load(&checkpoints)?;
        Ok(checkpoints.resolve(&after, &c.id)?.to_json())
    })
    .await?;
    ok(value)
}

/// `DELETE /api/checkpoints/{cp}`: drop it (ref and note); `{"dropped": [{"id", "commit"}]}`.
pub async fn drop(
    Shared(state): Shared<Arc<State>>,
    path: Result<Path<String>, PathRejection>,
) -> Reply {
    let spec = spec(path)?;
    let value = blocking(&state, move |checkpoints, _| {
        let dropped =
            checkpoints.drop_checkpoints(&[spec.as_str()], &git_checkpoint::Control::default())?;
        let list: Vec<Value> = dropped
            .iter()
            .map(|d| json!({ "id": d.id, "commit": d.commit.map(|c| c.to_string()) }))
            .collect();
        Ok(json!({ "dropped": list }))
    })
    .await?;
    ok(value)
}
