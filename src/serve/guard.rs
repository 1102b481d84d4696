//! Who may talk to the server: the token, the `Host` and `Origin` checks, the headers every
//! response carries, and a handler's panic turned into a 500.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State as Shared};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt;

use super::State;
use super::api::ApiError;

/// The token and the addresses this server answers to.
pub struct Access {
    token: String,
    bound: SocketAddr,
}

impl Access {
    /// A fresh random token for a server bound to `bound`.
    pub fn new(bound: SocketAddr) -> Access {
        use rand::Rng;
        let bytes: [u8; 24] = rand::rng().random();
        let token = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Access { token, bound }
    }

    pub fn addr(&self) -> SocketAddr {
        self.bound
    }

    /// `http://<address>:<port>/?token=…`; `127.0.0.1` when listening on every address.
    pub fn url(&self) -> String {
        let host = match self.bound.ip() {
            ip if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".to_string(),
            ip if ip.is_unspecified() => "[::1]".to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        format!("http://{host}:{}/?token={}", self.bound.port(), self.token)
    }

    /// The cookie's name: cookies are shared by every port of a host, so two servers on two
    /// ports must not overwrite each other's.
    fn cookie_name(&self) -> String {
        format!("git_checkpoint_{}", self.bound.port())
    }

    /// Whether `value` (a `Host` header, or an `Origin`'s authority) names this server:
    /// `localhost` or the bound address, with the bound port. When listening on every address
    /// any IP literal is accepted: DNS rebinding needs a name, and a name other than
    /// `localhost` is never accepted.
    pub fn is_own_host(&self, value: &str) -> bool {
        let Some((name, port)) = split_host(value) else {
            return false;
        };
        if port != self.bound.port() {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        match name.parse::<IpAddr>() {
            Ok(ip) => ip == self.bound.ip() || self.bound.ip().is_unspecified(),
            Err(_) => false,
        }
    }

    /// Whether an `Origin` header is this server's own: `http://` and an own host.
    fn is_own_origin(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|authority| self.is_own_host(authority))
    }

    fn token_matches(&self, given: &str) -> bool {
        constant_time_eq(given.as_bytes(), self.token.as_bytes())
    }

    /// Whether the request carries the token: as a bearer token, or in this server's cookie.
    fn authorized(&self, headers: &HeaderMap) -> bool {
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|t| self.token_matches(t.trim()));
        if bearer {
            return true;
        }
        let name = self.cookie_name();
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(n, value)| n == name && self.token_matches(value))
    }

    /// The token given in the page's URL (`/?token=…`), if it is the right one.
    fn url_token(&self, request: &Request) -> bool {
        request.uri().path() == "/"
            && request.uri().query().is_some_and(|query| {
                query
                    .split('&')
                    .filter_map(|pair| pair.split_once('='))
                    .any(|(k, v)| k == "token" && self.token_matches(v))
            })
    }

    fn set_cookie(&self) -> Option<HeaderValue> {
        HeaderValue::from_str(&format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict",
            self.cookie_name(),
            self.token
        ))
        .ok()
    }
}

/// `name` and port of a `Host` value (`localhost:57374`, `[::1]:80`); port 80 when none is
/// given.
fn split_host(value: &str) -> Option<(&str, u16)> {
    let (name, port) = if let Some(rest) = value.strip_prefix('[') {
        let (name, rest) = rest.split_once(']')?;
        (name, rest.strip_prefix(':'))
    } else {
        match value.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (value, None),
        }
    };
    let port = match port {
        Some(port) => port.parse().ok()?,
        None => 80,
    };
    (!name.is_empty()).then_some((name, port))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The access checks, in order: `Host` (403), a foreign `Origin` on a state-changing request
/// (403), the token (401). Then the headers every response carries.
pub async fn check(Shared(state): Shared<Arc<State>>, request: Request, next: Next) -> Response {
    let access = &state.access;
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let mut response = if !host.is_some_and(|h| access.is_own_host(h)) {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "the Host `{}` is not this server's address; use http://{}",
                host.unwrap_or_default(),
                access.addr()
            ),
        )
        .into_response()
    } else if changes_state(request.method()) && !same_origin(access, headers) {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "a request from another origin may not change anything",
        )
        .into_response()
    } else if access.authorized(headers) {
        next.run(request).await
    } else if request.method() == Method::GET && access.url_token(&request) {
        let mut response = next.run(request).await;
        if let Some(cookie) = access.set_cookie() {
            response.headers_mut().insert(header::SET_COOKIE, cookie);
        }
        response
    } else {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing or wrong token: open the URL that `git checkpoint serve` printed, or send `Authorization: Bearer <token>`",
        )
        .into_response()
    };
    secure_headers(response.headers_mut());
    response
}

fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD)
}

/// Whether a state-changing request comes from this server's own page or from no browser
/// page at all: its `Origin`, when there is one, is this server's, and the browser does not
/// say it was sent by another site.
fn same_origin(access: &Access, headers: &HeaderMap) -> bool {
    let origin_ok = headers
        .get_all(header::ORIGIN)
        .iter()
        .all(|v| v.to_str().is_ok_and(|o| access.is_own_origin(o)));
    let site_ok = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_none_or(|site| matches!(site, "same-origin" | "none"));
    origin_ok && site_ok
}

/// What every response carries: no sniffing, no framing, no referrer, no caching, and a
/// Content-Security-Policy that allows only this server.
fn secure_headers(headers: &mut HeaderMap) {
    let set = |headers: &mut HeaderMap, name: &'static str, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set(headers, "x-content-type-options", "nosniff");
    set(headers, "x-frame-options", "DENY");
    set(headers, "referrer-policy", "no-referrer");
    set(headers, "cache-control", "no-store");
    set(
        headers,
        "content-security-policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
}

/// A panic in a handler becomes a 500 for that request; the server goes on.
pub async fn catch_panic(request: Request, next: Next) -> Response {
    match std::panic::AssertUnwindSafe(next.run(request))
        .catch_unwind()
        .await
    {
        Ok(response) => response,
        Err(_) => {
            let mut response =
                ApiError::internal("the request failed with an internal error").into_response();
            secure_headers(response.headers_mut());
            response
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn access(addr: &str) -> Access {
        Access::new(addr.parse().unwrap())
    }

    #[test]
    fn hosts_are_the_bound_address_or_localhost_with_the_port() {
        let a = access("127.0.0.1:57374");
        assert!(a.is_own_host("127.0.0.1:57374"));
        assert!(a.is_own_host("localhost:57374"));
        assert!(a.is_own_host("LocalHost:57374"));
        assert!(!a.is_own_host("localhost:57375"));
        assert!(!a.is_own_host("localhost"));
        assert!(!a.is_own_host("evil.example:57374"));
        assert!(!a.is_own_host("localhost.evil.example:57374"));
        assert!(!a.is_own_host("127.0.0.2:57374"));
        assert!(!a.is_own_host("[::1]:57374"));
        assert!(!a.is_own_host(":57374"));
        assert!(!a.is_own_host("127.0.0.1:x"));
        let any = access("0.0.0.0:80");
        assert!(any.is_own_host("192.168.1.5"));
        assert!(any.is_own_host("[fe80::1]:80"));
        assert!(!any.is_own_host("rebound.example"));
        let v6 = access("[::1]:8080");
        assert!(v6.is_own_host("[::1]:8080"));
        assert!(!v6.is_own_host("[::2]:8080"));
    }

    #[test]
    fn origins_must_be_http_and_own() {
        let a = access("127.0.0.1:8000");
        assert!(a.is_own_origin("http://127.0.0.1:8000"));
        assert!(a.is_own_origin("http://localhost:8000"));
        assert!(!a.is_own_origin("https://127.0.0.1:8000"));
        assert!(!a.is_own_origin("http://127.0.0.1:8001"));
        assert!(!a.is_own_origin("null"));
        assert!(!a.is_own_origin("http://evil.example:8000"));
    }

    #[test]
    fn the_token_is_random_and_compared_whole() {
        let a = access("127.0.0.1:1");
        let b = access("127.0.0.1:1");
        assert_ne!(a.token, b.token);
        assert_eq!(a.token.len(), 48);
        assert!(a.token_matches(&a.token.clone()));
        assert!(!a.token_matches(&a.token[..47]));
        assert!(!a.token_matches(""));
        assert!(a.url().ends_with(&format!("/?token={}", a.token)));
    }

    #[test]
    fn the_cookie_is_read_among_others() {
        let a = access("127.0.0.1:9");
        let mut headers = HeaderMap::new();
        let cookie = format!("other=1; git_checkpoint_9={}; x=y", a.token);
        headers.insert(header::COOKIE, HeaderValue::from_str(&cookie).unwrap());
        assert!(a.authorized(&headers));
        let wrong_port = format!("git_checkpoint_10={}", a.token);
        headers.insert(header::COOKIE, HeaderValue::from_str(&wrong_port).unwrap());
        assert!(!a.authorized(&headers));
    }
}
