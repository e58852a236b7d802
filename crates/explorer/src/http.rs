//! The HTTP side: routes, query parsing with errors that name what is wrong, and
//! the page's embedded files.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use breakthrough_engine::{Board, Position};
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
}

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
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: err.to_string(),
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

/// Answers that can no longer change, as JSON, by route and query: every value in
/// them comes from the store, which only ever adds answers. Asked again, they are
/// sent as they are, without reading the store or writing JSON.
#[derive(Debug, Default)]
pub struct Finished {
    answers: RwLock<HashMap<(&'static str, String), Bytes>>,
}

/// The most answers [`Finished`] keeps; it starts afresh when full.
const MAX_FINISHED: usize = 1 << 16;

impl Finished {
    fn get(&self, route: &'static str, query: &str) -> Option<Response> {
        let answers = self.answers.read().unwrap_or_else(|e| e.into_inner());
        let bytes = answers.get(&(route, query.to_string()))?.clone();
        Some(json_bytes(bytes))
    }

    fn put(&self, route: &'static str, query: String, answer: &impl Serialize) -> Response {
        let bytes = Bytes::from(serde_json::to_vec(answer).expect("answers serialize"));
        let mut answers = self.answers.write().unwrap_or_else(|e| e.into_inner());
        if answers.len() >= MAX_FINISHED {
            answers.clear();
        }
        answers.insert((route, query), bytes.clone());
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
    let query = query.unwrap_or_default();
    if let Some(response) = explorer.finished.get("position", &query) {
        return Ok(response);
    }
    let position = parse_position(&query)?;
    let deadline = explorer.answers.deadline();
    let answer = explorer.answers.position(&position, deadline).await?;
    if matches!(answer.source, Source::Stored | Source::Rules)
        && answer.moves.iter().all(|m| m.source == Source::Stored)
    {
        return Ok(explorer.finished.put("position", query, &answer));
    }
    Ok(Json(answer).into_response())
}

async fn main_line(
    State(explorer): State<Arc<Explorer>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let query = query.unwrap_or_default();
    if let Some(response) = explorer.finished.get("mainline", &query) {
        return Ok(response);
    }
    let position = parse_position(&query)?;
    let deadline = explorer.answers.deadline();
    let line = explorer.answers.main_line(&position, deadline).await?;
    if line.complete {
        return Ok(explorer.finished.put("mainline", query, &line));
    }
    Ok(Json(line).into_response())
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
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE)
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
