//! `serve`: the HTTP API and the web page, a front end of its own. It calls only the library's
//! façade ([`Checkpoints`]), opened anew for each request on a blocking thread (a
//! `gix::Repository` is not `Sync`, and opening one is cheap); it never prints.
//!
//! The security model (see "Security" in docs/serve.md):
//! - it listens on 127.0.0.1 unless told otherwise;
//! - every request needs the random token printed in the URL: `Authorization: Bearer <token>`,
//!   or the cookie that opening the tokened URL sets (HttpOnly, SameSite=Strict, named after
//!   the port since cookies are shared by every port of a host);
//! - a `Host` that is neither `localhost` nor the bound address (with the bound port) gets 403,
//!   so that a DNS name rebound to 127.0.0.1 cannot reach the API from another site's page;
//! - a state-changing request (anything but GET and HEAD) whose `Origin` is not this server's
//!   gets 403, as does one that the browser marks `Sec-Fetch-Site: cross-site`/`same-site`;
//! - no CORS header is ever sent, so another origin's script cannot read a response;
//! - the page is served from the binary with a strict Content-Security-Policy (no inline
//!   script, no network but this server) and may not be framed.

mod api;
mod events;
mod guard;
mod page;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::routing::{get, post, put};
use git_checkpoint::{Checkpoints, Error, Loaded};

/// Where and what to serve.
#[derive(Debug, Clone)]
pub struct Config {
    /// A directory inside the working tree whose checkpoints are served.
    pub dir: PathBuf,
    /// The address to listen on.
    pub listen: IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
}

/// Which directory the server acts on: what the page and `GET /api/repository` show, and what
/// `serve` says when it starts.
#[derive(Debug, Clone)]
pub struct Place {
    /// The working tree acted on (canonical when it is a plain directory above `dir`).
    pub workdir: PathBuf,
    /// A plain directory's private store; `None` in a git repository.
    pub store: Option<PathBuf>,
    /// The working tree acted on when it is not the directory `serve` was started in but a
    /// plain directory above it that has a store (everything below it is its working tree:
    /// a restore rewrites all of it).
    pub acting_on: Option<PathBuf>,
}

/// What every request shares.
struct State {
    /// The directory the façade is opened in.
    dir: PathBuf,
    /// Which directory that acts on.
    place: Place,
    /// The access rules: the token and the addresses this server answers to.
    access: guard::Access,
    /// Live updates.
    hub: Arc<events::Hub>,
    /// The checkpoints as last loaded, with the revision they were loaded at: reading every
    /// note is most of what a list costs, and most of the time nothing changed since.
    loaded: Mutex<Option<(u64, Arc<Loaded>)>>,
}

impl State {
    /// The façade, reporting its events to the live updates.
    fn open(&self) -> Result<Checkpoints, Error> {
        let hub = Arc::clone(&self.hub);
        Ok(Checkpoints::open(&self.dir)?
            .with_observer(move |event: &git_checkpoint::CheckpointEvent| hub.observe(event)))
    }

    /// Every checkpoint: loaded again only when the checkpoint refs or the notes ref changed
    /// (a checkpoint's commit and note never change otherwise).
    fn load(&self, checkpoints: &Checkpoints) -> Result<Arc<Loaded>, Error> {
        let revision = checkpoints.revision()?;
        let mut cached = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((at, loaded)) = &*cached
            && *at == revision
        {
            return Ok(Arc::clone(loaded));
        }
        let loaded = Arc::new(checkpoints.load()?);
        *cached = Some((revision, Arc::clone(&loaded)));
        Ok(loaded)
    }
}

/// A server bound to its address, not yet answering.
pub struct Server {
    listener: std::net::TcpListener,
    state: Arc<State>,
    runtime: tokio::runtime::Runtime,
}

impl Server {
    /// Check the repository, bind the address and make the token. Fails when the directory is
    /// not in a working tree or the address cannot be bound.
    pub fn bind(config: &Config) -> Result<Server, Error> {
        let checkpoints = Checkpoints::open(&config.dir)?;
        let Some(workdir) = checkpoints.workdir() else {
            return Err(Error::BareRepository);
        };
        let acting_on = checkpoints.acting_on(&config.dir);
        let place = Place {
            workdir: acting_on.clone().unwrap_or_else(|| workdir.to_owned()),
            store: checkpoints.store().map(PathBuf::from),
            acting_on,
        };
        let addr = SocketAddr::new(config.listen, config.port);
        let io = |context: String| move |source| Error::Io { context, source };
        let listener =
            std::net::TcpListener::bind(addr).map_err(io(format!("cannot listen on {addr}")))?;
        listener
            .set_nonblocking(true)
            .map_err(io(format!("cannot listen on {addr}")))?;
        let bound = listener
            .local_addr()
            .map_err(io(format!("cannot listen on {addr}")))?;
        let hub = events::Hub::start(checkpoints)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("serve")
            .enable_all()
            .build()
            .map_err(io("cannot start the server's threads".into()))?;
        Ok(Server {
            listener,
            state: Arc::new(State {
                dir: config.dir.clone(),
                place,
                access: guard::Access::new(bound),
                hub,
                loaded: Mutex::new(None),
            }),
            runtime,
        })
    }

    /// The address bound.
    pub fn addr(&self) -> SocketAddr {
        self.state.access.addr()
    }

    /// Which directory the server acts on.
    pub fn place(&self) -> &Place {
        &self.state.place
    }

    /// The URL to open: it carries the token, and sets the cookie the page then uses.
    pub fn url(&self) -> String {
        self.state.access.url()
    }

    /// Answer requests until the process ends.
    pub fn run(self) -> Result<(), Error> {
        self.run_routes(routes())
    }

    fn run_routes(self, routes: Router<Arc<State>>) -> Result<(), Error> {
        let Server {
            listener,
            state,
            runtime,
        } = self;
        let addr = state.access.addr();
        runtime.block_on(async move {
            let listener =
                tokio::net::TcpListener::from_std(listener).map_err(|source| Error::Io {
                    context: format!("cannot listen on {addr}"),
                    source,
                })?;
            axum::serve(listener, app(routes, state))
                .await
                .map_err(|source| Error::Io {
                    context: format!("the server on {addr} stopped"),
                    source,
                })
        })
    }
}

/// The routes, behind the access checks.
fn app(routes: Router<Arc<State>>, state: Arc<State>) -> Router {
    routes
        .fallback(api::not_found)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            guard::check,
        ))
        .layer(axum::middleware::from_fn(guard::catch_panic))
        .with_state(state)
}

fn routes() -> Router<Arc<State>> {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/app.css", get(page::style))
        .route("/api/repository", get(api::repository))
        .route("/api/checkpoints", get(api::list).post(api::save))
        .route("/api/checkpoints/{cp}", get(api::show).delete(api::drop))
        .route("/api/checkpoints/{cp}/diff", get(api::diff))
        .route("/api/checkpoints/{cp}/conversation", get(api::conversation))
        .route("/api/checkpoints/{cp}/restore", post(api::restore))
        .route("/api/checkpoints/{cp}/revert", post(api::revert))
        .route(
            "/api/checkpoints/{cp}/pin",
            put(api::pin).delete(api::unpin),
        )
        .route("/api/undo", post(api::undo))
        .route("/api/redo", post(api::redo))
        .route("/api/events", get(events::stream))
        .method_not_allowed_fallback(api::method_not_allowed)
}

#[cfg(test)]
mod tests;
