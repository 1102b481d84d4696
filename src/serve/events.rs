//! Live updates: `GET /api/events`, server-sent events named `saved`, `restored`, `dropped`,
//! `pruned` and `pinned`.
//!
//! Two sources feed them, and each change is announced once, by whichever sees it first:
//! - the façade's observer, for what this server's own requests do (at once);
//! - a watcher thread that notices what other processes do (an agent's hooks, the CLI): every
//!   [`POLL`] it asks the façade for the checkpoints' revision (it reads refs, no notes), and
//!   only when that changed loads the checkpoints and compares them with what it knew. A new
//!   checkpoint is `saved`; a new `pre-restore` checkpoint that records its operation also
//!   means `restored`; a changed pin is `pinned`; checkpoints gone are `pruned` when a new one
//!   came with them (retention runs after a save) and `dropped` otherwise.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use git_checkpoint::{Checkpoint, CheckpointEvent, Checkpoints, Error, format};

/// How often the watcher looks for other processes' changes: the most they wait to show.
pub const POLL: Duration = Duration::from_secs(1);

/// One event, as sent.
#[derive(Debug, Clone)]
pub struct Event {
    pub name: &'static str,
    pub data: Value,
}

/// What has been announced so far.
#[derive(Default)]
struct Known {
    /// Every checkpoint id, with whether it is pinned.
    pinned: HashMap<String, bool>,
    /// The safety checkpoints whose restore was announced.
    restores: HashSet<String>,
}

/// Where events are announced, and what was.
pub struct Hub {
    sender: broadcast::Sender<Event>,
    known: Mutex<Known>,
}

impl Hub {
    /// A hub that knows the checkpoints as they are now, with its watcher running.
    pub fn start(checkpoints: Checkpoints) -> Result<Arc<Hub>, Error> {
        let (sender, _) = broadcast::channel(256);
        let hub = Arc::new(Hub {
            sender,
            known: Mutex::new(Known::default()),
        });
        let revision = checkpoints.revision()?;
        hub.scan(&checkpoints, false)?;
        let watched = Arc::clone(&hub);
        std::thread::Builder::new()
            .name("serve-watch".into())
            .spawn(move || watched.watch(checkpoints, revision))
            .map_err(|source| Error::Io {
                context: "cannot start watching the checkpoints".into(),
                source,
            })?;
        Ok(hub)
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }

    fn send(&self, name: &'static str, data: Value) {
        // No subscriber is not an error.
        let _ = self.sender.send(Event { name, data });
    }

    fn known(&self) -> std::sync::MutexGuard<'_, Known> {
        // What is known stays consistent even if a holder panicked: it is only a cache.
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What the façade reports for this server's own requests.
    pub fn observe(&self, event: &CheckpointEvent) {
        let mut known = self.known();
        match event {
            CheckpointEvent::Saved(c) if !known.pinned.contains_key(&c.id) => {
                known.pinned.insert(c.id.clone(), c.meta.pinned);
                self.send("saved", c.to_json());
            }
            CheckpointEvent::Restored { target, safety } => {
                let fresh = safety
                    .as_ref()
                    .is_none_or(|s| known.restores.insert(s.clone()));
                if fresh {
                    self.send("restored", json!({ "target": target, "safety": safety }));
                }
            }
            CheckpointEvent::Dropped(ids) | CheckpointEvent::Pruned(ids) => {
                let gone: Vec<&String> = ids
                    .iter()
                    .filter(|id| known.pinned.remove(id.as_str()).is_some())
                    .collect();
                if !gone.is_empty() {
                    let name = match event {
                        CheckpointEvent::Pruned(_) => "pruned",
                        _ => "dropped",
                    };
                    self.send(name, json!({ "ids": gone }));
                }
            }
            CheckpointEvent::Pinned { id, pinned } => {
                if let Some(was) = known.pinned.get_mut(id)
                    && *was != *pinned
                {
                    *was = *pinned;
                    self.send("pinned", json!({ "id": id, "pinned": pinned }));
                }
            }
            _ => {}
        }
    }

    /// Compare the checkpoints now with what is known; announce the differences when
    /// `announce` (the first scan only learns).
    fn scan(&self, checkpoints: &Checkpoints, announce: bool) -> Result<(), Error> {
        let loaded = checkpoints.load()?;
        let mut known = self.known();
        let mut saved: Vec<&Checkpoint> = Vec::new();
        for c in &loaded.checkpoints {
            match known.pinned.get(&c.id) {
                None => saved.push(c),
                Some(&was) if was != c.meta.pinned => {
                    known.pinned.insert(c.id.clone(), c.meta.pinned);
                    if announce {
                        self.send("pinned", json!({ "id": c.id, "pinned": c.meta.pinned }));
                    }
                }
                Some(_) => {}
            }
        }
        let now: HashSet<&str> = loaded.checkpoints.iter().map(|c| c.id.as_str()).collect();
        let mut gone: Vec<String> = known
            .pinned
            .keys()
            .filter(|id| !now.contains(id.as_str()))
            .cloned()
            .collect();
        gone.sort_unstable_by(|a, b| b.cmp(a));
        for id in &gone {
            known.pinned.remove(id);
        }
        // Oldest first, as they were made.
        for c in saved.iter().rev() {
            known.pinned.insert(c.id.clone(), c.meta.pinned);
            if !announce {
                continue;
            }
            self.send("saved", c.to_json());
            if c.meta.kind == format::KIND_PRE_RESTORE
                && let Some(op) = &c.meta.operation
                && known.restores.insert(c.id.clone())
            {
                self.send("restored", json!({ "target": op.target, "safety": c.id }));
            }
        }
        if announce && !gone.is_empty() {
            // The notes commit that removed their notes tells a prune from a drop; without
            // one (a damaged notes ref), removals that came with a save were its retention.
            let pruned = checkpoints
                .last_removal_was_prune()
                .unwrap_or(!saved.is_empty());
            let name = if pruned { "pruned" } else { "dropped" };
            self.send(name, json!({ "ids": gone }));
        }
        Ok(())
    }

    /// Every [`POLL`], look again when the revision changed. Errors (a repository being
    /// rewritten under it) only mean looking again next time.
    fn watch(&self, checkpoints: Checkpoints, mut revision: u64) {
        loop {
            std::thread::sleep(POLL);
            let Ok(now) = checkpoints.revision() else {
                continue;
            };
            if now != revision && self.scan(&checkpoints, true).is_ok() {
                revision = now;
            }
        }
    }
}

/// `GET /api/events`: a comment `ready` once subscribed, then every event, with a comment
/// every 15 seconds to keep the connection open.
pub async fn stream(
    axum::extract::State(state): axum::extract::State<Arc<super::State>>,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let receiver = state.hub.subscribe();
    let ready = stream::once(async { Ok(SseEvent::default().comment("ready")) });
    let events = stream::unfold(receiver, |mut receiver| async move {
        loop {
            match receiver.recv().await {
                Ok(event) => {
                    let sse = SseEvent::default()
                        .event(event.name)
                        .data(event.data.to_string());
                    return Some((Ok(sse), receiver));
                }
                // A slow reader misses events; the page reloads the list on the next one.
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(ready.chain(events)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
