//! The server's own tests; the API and the page are tested end to end in `tests/cli/serve.rs`
//! and `tests/cli/browser.rs`.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::process::Command;

use axum::routing::get;

use super::*;

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .status()
        .unwrap();
    assert!(status.success());
    dir
}

async fn boom() -> &'static str {
    panic!("a handler's bug")
}

#[test]
fn a_panicking_handler_is_a_500_and_the_server_goes_on() {
    let dir = repo();
    let server = Server::bind(&Config {
        dir: dir.path().to_owned(),
        listen: IpAddr::from([127, 0, 0, 1]),
        port: 0,
    })
    .unwrap();
    let addr = server.addr();
    let token = server.url().split("token=").nth(1).unwrap().to_string();
    let routes = routes().route("/api/boom", get(boom)).route(
        "/api/boom-blocking",
        get(
            |axum::extract::State(state): axum::extract::State<Arc<State>>| async move {
                api::blocking(&state, |_, _| -> Result<(), api::ApiError> {
                    panic!("a bug in a blocking handler")
                })
                .await
            },
        ),
    );
    std::thread::spawn(move || server.run_routes(routes));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let get = |path: &str| {
        let mut response = agent
            .get(format!("http://{addr}{path}"))
            .header("Authorization", format!("Bearer {token}"))
            .call()
            .unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().unwrap())
    };
    for path in ["/api/boom", "/api/boom-blocking"] {
        let (status, body) = get(path);
        assert_eq!(status, 500, "{path}: {body}");
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(json["error"].as_str().unwrap().contains("internal error"));
    }
    let (status, body) = get("/api/checkpoints");
    assert_eq!((status, body.as_str()), (200, "[]"));
}
