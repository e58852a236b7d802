//! The HTTP side: routes, query parsing with errors that name what is wrong, and
//! the page's embedded files.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use tokio::time::Instant;

use axum::body::Bytes;
use axum::extract::{RawQuery, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use breakthrough_engine::{Board, Color, Position};
use serde::{Deserialize, Serialize};

use crate::answers::Answers;
use crate::api::{ErrorAnswer, ResultsAnswer, Source};
use crate::proofs::Proofs;
use crate::store::StoreError;

/// The longest query string accepted, in bytes: a 64-square position and a board
/// take under 100.
pub const MAX_QUERY: usize = 1024;

/// What the routes share.
#[derive(Debug)]
pub struct Explorer {
    pub answers: Answers,
    pub results: ResultsAnswer,
    /// The certificate of the proof browser, when one was given.
    pub proofs: Option<Proofs>,
    pub finished: Finished,
    /// The names a request's `Host` may give.
    pub hosts: AllowedHosts,
}

/// The host names a request may be addressed to: a browser sends the name of the
/// page's site, so a page of another site (or a DNS name rebound to this machine)
/// is refused.
#[derive(Clone, Debug)]
pub struct AllowedHosts {
    names: Vec<String>,
    any: bool,
}

impl AllowedHosts {
    /// `localhost`, the loopback addresses and the address the server listens on,
    /// with `extra` names (`*`: any name).
    pub fn new(listen: std::net::IpAddr, extra: &[String]) -> AllowedHosts {
        let mut names: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
            .into_iter()
            .map(str::to_string)
            .collect();
        if !listen.is_unspecified() {
            names.push(match listen {
                std::net::IpAddr::V4(ip) => ip.to_string(),
                std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            });
        }
        names.extend(extra.iter().map(|name| name.to_ascii_lowercase()));
        AllowedHosts {
            any: extra.iter().any(|name| name == "*"),
            names,
        }
    }

    /// Whether a `Host` header's value names this server (the port is not looked
    /// at).
    pub fn allows(&self, host: &str) -> bool {
        if self.any {
            return true;
        }
        let name = match host.rfind(':') {
            // A port after an IPv6 address's `]`, or after a name.
            Some(colon) if !host[colon..].contains(']') => &host[..colon],
            _ => host,
        };
        self.names
            .iter()
            .any(|allowed| allowed.eq_ignore_ascii_case(name))
    }
}

/// The page's Content-Security-Policy: its own scripts, styles and requests only,
/// and never inside another site's frame.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Refuses a request addressed to another host name, and keeps browsers from
/// taking an answer for another type than it says.
async fn guard(State(explorer): State<Arc<Explorer>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|host| host.to_str().unwrap_or("(not text)"));
    let mut response = match host {
        Some(host) if explorer.hosts.allows(host) => next.run(request).await,
        Some(host) => ApiError {
            status: StatusCode::FORBIDDEN,
            message: format!(
                "the Host `{host}` is not this server's; start it with --allow-host NAME to \
                 accept another name"
            ),
        }
        .into_response(),
        None => ApiError {
            status: StatusCode::FORBIDDEN,
            message: "a request without a Host header is refused".into(),
        }
        .into_response(),
    };
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// The page's own headers: no framing, its own resources only, no referrer.
const PAGE_HEADERS: [(header::HeaderName, &str); 3] = [
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::REFERRER_POLICY, "no-referrer"),
];

/// The server's routes over `explorer`.
pub fn router(explorer: Arc<Explorer>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/api/v1/position", get(position))
        .route("/api/v1/mainline", get(main_line))
        .route("/api/v1/results", get(results))
        .route("/api/v1/proof", get(proof))
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&explorer),
            guard,
        ))
        .with_state(explorer)
}

/// A request that cannot be answered, as JSON with its status.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        // The operator sees the store's path; the client does not.
        eprintln!("breakthrough serve: {err}");
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: err.public_message(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorAnswer {
            error: self.message,
        };
        (self.status, Json(body)).into_response()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionQuery {
    board: String,
    position: Option<String>,
}

/// The position a query names: `board` and `position` (the start when absent).
fn parse_position(query: &str) -> Result<Position, ApiError> {
    check_length(query)?;
    let query: PositionQuery = serde_urlencoded::from_str(query).map_err(|err| {
        ApiError::bad_request(format!(
            "bad query: {err} (expected board=WxH and optionally position=<text>)"
        ))
    })?;
    let board: Board = query
        .board
        .parse()
        .map_err(|err| ApiError::bad_request(format!("board `{}`: {err}", query.board)))?;
    match query.position {
        None => Ok(Position::start(board)),
        Some(text) => Position::parse_on(board, &text)
            .map_err(|err| ApiError::bad_request(format!("position `{text}`: {err}"))),
    }
}

/// Answers that can no longer change, as JSON, by route and position (parsed, so
/// every spelling of a query shares one entry): every value in them comes from
/// the store, which only ever adds answers. Asked again, they are sent as they
/// are, without reading the store or writing JSON.
#[derive(Debug, Default)]
pub struct Finished {
    answers: RwLock<FinishedAnswers>,
}

#[derive(Debug, Default)]
struct FinishedAnswers {
    by_position: HashMap<AnswerKey, Bytes>,
    /// The bytes of the answers and their keys.
    bytes: usize,
}

/// A route's answer for one position: the board, the armies and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct AnswerKey {
    route: &'static str,
    board: (u32, u32),
    white: u64,
    black: u64,
    black_to_move: bool,
}

impl AnswerKey {
    fn new(route: &'static str, position: &Position) -> AnswerKey {
        let board = position.board();
        AnswerKey {
            route,
            board: (board.width(), board.height()),
            white: position.pieces(Color::White).0,
            black: position.pieces(Color::Black).0,
            black_to_move: position.to_move() == Color::Black,
        }
    }
}

/// The most bytes [`Finished`] keeps; it starts afresh when full.
pub const MAX_FINISHED_BYTES: usize = 16 << 20;

impl Finished {
    fn get(&self, route: &'static str, position: &Position) -> Option<Response> {
        let answers = self.answers.read().unwrap_or_else(|e| e.into_inner());
        let bytes = answers.by_position.get(&AnswerKey::new(route, position))?;
        Some(json_bytes(bytes.clone()))
    }

    fn put(&self, route: &'static str, position: &Position, answer: &impl Serialize) -> Response {
        let bytes = Bytes::from(serde_json::to_vec(answer).expect("answers serialize"));
        let size = bytes.len() + std::mem::size_of::<AnswerKey>();
        let mut answers = self.answers.write().unwrap_or_else(|e| e.into_inner());
        if answers.bytes + size > MAX_FINISHED_BYTES {
            *answers = FinishedAnswers::default();
        }
        if answers
            .by_position
            .insert(AnswerKey::new(route, position), bytes.clone())
            .is_none()
        {
            answers.bytes += size;
        }
        json_bytes(bytes)
    }
}

fn json_bytes(bytes: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

async fn position(
    State(explorer): State<Arc<Explorer>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let answers = explorer.clone();
    let ask = |position: Position, deadline| async move {
        answers.answers.position(&position, deadline).await
    };
    let finished = |answer: &crate::api::PositionAnswer| {
        matches!(answer.source, Source::Stored | Source::Rules)
            && answer.moves.iter().all(|m| m.source == Source::Stored)
    };
    answer_cached(&explorer, "position", query, ask, finished).await
}

async fn main_line(
    State(explorer): State<Arc<Explorer>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let answers = explorer.clone();
    let ask = |position: Position, deadline| async move {
        answers.answers.main_line(&position, deadline).await
    };
    let finished = |line: &crate::api::MainLine| line.complete;
    answer_cached(&explorer, "mainline", query, ask, finished).await
}

/// A request about the position in `query` on `route`: the cached answer if there
/// is one, else `ask`'s, kept in the cache when `finished` says it will not change
/// (every value in it stored, none still to be solved).
async fn answer_cached<T, E, Ask>(
    explorer: &Explorer,
    route: &'static str,
    query: Option<String>,
    ask: impl FnOnce(Position, Instant) -> Ask,
    finished: impl FnOnce(&T) -> bool,
) -> Result<Response, ApiError>
where
    T: Serialize,
    Ask: std::future::Future<Output = Result<T, E>>,
    ApiError: From<E>,
{
    let position = parse_position(&query.unwrap_or_default())?;
    if let Some(response) = explorer.finished.get(route, &position) {
        return Ok(response);
    }
    let answer = ask(position, explorer.answers.deadline()).await?;
    if finished(&answer) {
        return Ok(explorer.finished.put(route, &position, &answer));
    }
    Ok(Json(answer).into_response())
}

async fn results(
    State(explorer): State<Arc<Explorer>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    if query.is_some_and(|query| !query.is_empty()) {
        return Err(ApiError::bad_request("/api/v1/results takes no query"));
    }
    Ok(Json(&explorer.results).into_response())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProofQuery {
    part: Option<usize>,
    /// Move names separated by spaces.
    path: Option<String>,
}

async fn proof(
    State(explorer): State<Arc<Explorer>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    if explorer.proofs.is_none() {
        return Err(ApiError {
            status: StatusCode::NOT_FOUND,
            message: "no certificate is loaded: start the server with --proof FILE|DIR".into(),
        });
    }
    let query = query.unwrap_or_default();
    check_length(&query)?;
    let query: ProofQuery = serde_urlencoded::from_str(&query).map_err(|err| {
        ApiError::bad_request(format!(
            "bad query: {err} (expected part=N and path=<moves separated by spaces>)"
        ))
    })?;
    let path: Vec<String> = query
        .path
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    // Reading a campaign's part from disk and indexing it takes a while: off the
    // threads that answer requests.
    let part = query.part.unwrap_or(0);
    let browsed = tokio::task::spawn_blocking(move || {
        let proofs = explorer.proofs.as_ref().expect("checked above");
        proofs.browse(part, &path)
    })
    .await
    .map_err(|err| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the proof browser failed: {err}"),
    })?;
    Ok(Json(browsed.map_err(ApiError::bad_request)?).into_response())
}

fn check_length(query: &str) -> Result<(), ApiError> {
    if query.len() > MAX_QUERY {
        return Err(ApiError::bad_request(format!(
            "the query is {} bytes long; at most {MAX_QUERY} are accepted",
            query.len()
        )));
    }
    Ok(())
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!(
            "no such page: {}; the API is /api/v1/position, /api/v1/mainline, /api/v1/results and /api/v1/proof",
            uri.path()
        ),
    }
}

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

async fn page() -> impl IntoResponse {
    (
        PAGE_HEADERS,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        PAGE,
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

#[cfg(test)]
mod tests {
    use super::AllowedHosts;

    #[test]
    fn host_names_are_matched_without_their_port() {
        let hosts = AllowedHosts::new("127.0.0.1".parse().unwrap(), &["Box.lan".into()]);
        for host in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:9",
            "[::1]:80",
            "box.lan:1",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
        for host in [
            "evil.example",
            "localhost.evil.example:80",
            "[::2]:80",
            "",
            "::1",
        ] {
            assert!(!hosts.allows(host), "{host}");
        }
        let any = AllowedHosts::new("0.0.0.0".parse().unwrap(), &["*".into()]);
        assert!(any.allows("evil.example"));
        let v6 = AllowedHosts::new("::1".parse().unwrap(), &[]);
        assert!(v6.allows("[::1]:8080") && !v6.allows("0.0.0.0"));
    }
}
