//! The JSON API through the router, without a network: answers against plain
//! minimax and the reference search, the main line, bad input, and the store.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use breakthrough_engine::{Board, Color, Position};
use breakthrough_explorer::api::{MainLine, MoveOutcome, PositionAnswer, ResultsAnswer, Source};
use breakthrough_explorer::http::{router, Explorer};
use breakthrough_explorer::solving::PoolSettings;
use breakthrough_explorer::{explorer, ServeConfig};
use breakthrough_solver::{solve, Algorithm, SolveOptions};
use breakthrough_testing::Scratch;
use http_body_util::BodyExt;
use tower::ServiceExt;

fn config(store: &Path, move_time: Duration) -> ServeConfig {
    ServeConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        store: store.to_path_buf(),
        pool: PoolSettings {
            threads: 2,
            queue: 8,
            table_mb: 16,
            solve_limit: Duration::from_secs(300),
            slice: Duration::from_secs(300),
            retry_after: Duration::from_secs(600),
        },
        move_time,
        results: Some(concat!(env!("CARGO_MANIFEST_DIR"), "/../../results").into()),
        proof: Some(concat!(env!("CARGO_MANIFEST_DIR"), "/../../results/4x5.cert").into()),
        allow_hosts: Vec::new(),
        head_timeout: Duration::from_secs(10),
    }
}

async fn get(explorer: &Arc<Explorer>, uri: &str) -> (StatusCode, serde_json::Value) {
    let request = Request::get(uri)
        .header("host", "localhost:8080")
        .body(Body::empty())
        .unwrap();
    let response = router(Arc::clone(explorer)).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let json = serde_json::from_slice(&bytes)
        .unwrap_or_else(|err| panic!("{uri}: not JSON ({err}): {bytes:?}"));
    (status, json)
}

fn query(board: Board, position: &Position) -> String {
    serde_urlencoded::to_string([
        ("board", board.to_string()),
        ("position", position.to_string()),
    ])
    .unwrap()
}

async fn position_answer(explorer: &Arc<Explorer>, position: &Position) -> PositionAnswer {
    let uri = format!("/api/v1/position?{}", query(position.board(), position));
    let (status, json) = get(explorer, &uri).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {json}");
    serde_json::from_value(json).unwrap()
}

/// Plain minimax with the game's length: the winner wins as fast as it can, the
/// loser holds out as long as it can. `None` past `budget` positions.
struct Minimax {
    memo: HashMap<Position, (Color, u32)>,
    budget: usize,
}

impl Minimax {
    fn value(&mut self, position: &Position) -> Option<(Color, u32)> {
        if let Some(winner) = position.winner() {
            return Some((winner, 0));
        }
        if let Some(&known) = self.memo.get(position) {
            return Some(known);
        }
        if self.memo.len() >= self.budget {
            return None;
        }
        let mover = position.to_move();
        let mut fastest_win: Option<u32> = None;
        let mut longest_loss = 0;
        for mv in position.legal_moves() {
            let (winner, length) = self.value(&position.play(mv))?;
            if winner == mover {
                fastest_win = Some(fastest_win.map_or(length + 1, |best| best.min(length + 1)));
            } else {
                longest_loss = longest_loss.max(length + 1);
            }
        }
        let value = match fastest_win {
            Some(length) => (mover, length),
            None => (mover.opponent(), longest_loss),
        };
        self.memo.insert(*position, value);
        Some(value)
    }
}

/// The outcome of `position` for its side to move, by the reference search.
fn reference_wins(position: &Position) -> bool {
    let options = SolveOptions {
        algorithm: Algorithm::Reference,
        table_mb: 16,
        ..SolveOptions::default()
    };
    let solution = solve(position, &options, &mut |_| {});
    solution.winner == Some(position.to_move())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_match_minimax_and_the_reference_search() {
    let scratch = Scratch::new("explorer", "minimax");
    let explorer = explorer(&config(&scratch.0, Duration::from_secs(120))).unwrap();
    let mut rng = fastrand::Rng::with_seed(42);
    let mut checked = HashMap::new();
    for (size, plies) in [("3x5", 0..10), ("4x5", 6..20), ("5x5", 12..30)] {
        let board: Board = size.parse().unwrap();
        let mut count = 0;
        let mut tries = 0;
        while count < 10 && tries < 2_000 {
            tries += 1;
            let Some(position) =
                Position::after_moves(board, rng.u32(plies.clone()), |n| rng.usize(..n))
            else {
                continue;
            };
            let mut minimax = Minimax {
                memo: HashMap::new(),
                budget: 100_000,
            };
            let Some((winner, length)) = minimax.value(&position) else {
                continue;
            };
            let answer = position_answer(&explorer, &position).await;
            assert_ne!(answer.source, Source::Unknown, "{position}");
            assert_eq!(
                answer.winner.map(|s| s.name()),
                Some(winner.name()),
                "{position}"
            );
            assert_eq!(answer.length, Some(length), "{position}");
            assert_eq!(answer.moves.len(), position.legal_moves().len());
            let mover = position.to_move();
            for reply in &answer.moves {
                let child = position.play(position.parse_move(&reply.mv).unwrap());
                assert_eq!(reply.position, child.to_string());
                let (child_winner, child_length) = minimax.value(&child).unwrap();
                let outcome = if child_winner == mover {
                    MoveOutcome::Win
                } else {
                    MoveOutcome::Loss
                };
                assert_eq!(reply.outcome, outcome, "{position} {}", reply.mv);
                assert_eq!(
                    reply.length,
                    Some(child_length + 1),
                    "{position} {}",
                    reply.mv
                );
                if child.winner().is_none() {
                    assert_eq!(
                        !reference_wins(&child),
                        outcome == MoveOutcome::Win,
                        "the reference search on {child}"
                    );
                }
            }
            // Best first: fastest wins, then losses longest first.
            let rank = |m: &breakthrough_explorer::api::MoveAnswer| match m.outcome {
                MoveOutcome::Win => i64::from(m.length.unwrap()),
                _ => 1_000 - i64::from(m.length.unwrap()),
            };
            assert!(answer.moves.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])));
            // Asked again, the same answer comes from the store.
            let again = position_answer(&explorer, &position).await;
            assert_eq!(again.source, Source::Stored);
            assert_eq!((again.winner, again.length), (answer.winner, answer.length));
            count += 1;
        }
        checked.insert(size, count);
    }
    for (size, count) in checked {
        assert!(count >= 10, "{size}: only {count} positions checked");
    }
    explorer.answers.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_main_line_is_perfect_play_to_the_end() {
    let scratch = Scratch::new("explorer", "mainline");
    let explorer = explorer(&config(&scratch.0, Duration::from_secs(120))).unwrap();
    let (status, json) = get(&explorer, "/api/v1/mainline?board=4x5").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let line: MainLine = serde_json::from_value(json).unwrap();
    assert!(line.complete);
    // Published: 4x5 is a second-player win; 22 plies here (results/4x5.json).
    assert_eq!(line.winner.map(|s| s.name()), Some("black"));
    assert_eq!(line.length, Some(22));
    assert_eq!(line.moves.len(), 22);
    let mut position = Position::start("4x5".parse().unwrap());
    let mut left = 22;
    for mv in &line.moves {
        let answer = position_answer(&explorer, &position).await;
        assert_eq!(answer.length, Some(left), "{position}");
        assert_eq!(&answer.moves[0].mv, mv, "the line takes the best move");
        position = position.play(position.parse_move(mv).unwrap());
        left -= 1;
    }
    assert_eq!(position.winner(), Some(Color::Black));
    explorer.answers.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_a_400_that_names_it() {
    let scratch = Scratch::new("explorer", "bad");
    let explorer = explorer(&config(&scratch.0, Duration::from_secs(60))).unwrap();
    let long = "a".repeat(2_000);
    let cases = [
        ("/api/v1/position", "missing field `board`"),
        ("/api/v1/position?board=9x9", "81 squares"),
        ("/api/v1/position?board=1x5", "board `1x5`"),
        ("/api/v1/position?board=five", "board `five`"),
        ("/api/v1/position?board=5x5&position=xx", "side to move"),
        (
            "/api/v1/position?board=5x5&position=BBBB%2FBBBB%2F4%2FWWWW%2FWWWW+w",
            "the board given is 5x5",
        ),
        (
            "/api/v1/position?board=5x5&position=BBBBB%2FBBBBB%2F5%2FWWWWW%2FWWWWW+q",
            "`q`",
        ),
        (
            "/api/v1/position?board=5x5&position=BBBBB%2FBBBBB%2F5%2FWWWWW%2FWWWXW+w",
            "`X`",
        ),
        (
            "/api/v1/position?board=5x5&colour=w",
            "unknown field `colour`",
        ),
        ("/api/v1/position?board=5x5&board=4x4", "duplicate field"),
        ("/api/v1/mainline?board=0x0", "board `0x0`"),
        ("/api/v1/results?board=5x5", "takes no query"),
    ];
    for (uri, expected) in cases {
        let (status, json) = get(&explorer, uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {json}");
        let error = json["error"].as_str().unwrap();
        assert!(error.contains(expected), "{uri}: {error}");
    }
    let (status, json) = get(&explorer, &format!("/api/v1/position?board={long}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(json["error"].as_str().unwrap().contains("at most 1024"));
    let (status, json) = get(&explorer, "/api/v2/position?board=5x5").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(json["error"].as_str().unwrap().contains("/api/v2/position"));
    // Still answering after all of them.
    let answer = position_answer(
        &explorer,
        &"3x4".parse::<Board>().map(Position::start).unwrap(),
    )
    .await;
    assert_eq!(answer.winner.map(|s| s.name()), Some("black"));
    let (status, json) = get(&explorer, "/api/v1/results").await;
    assert_eq!(status, StatusCode::OK);
    let results: ResultsAnswer = serde_json::from_value(json).unwrap();
    let five = results.results.iter().find(|r| r.board == "5x5").unwrap();
    assert_eq!(
        (five.length, five.winner_order.as_deref()),
        (Some(26), Some("second"))
    );
    explorer.answers.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_stay_in_the_store_between_runs() {
    let scratch = Scratch::new("explorer", "store");
    let position = Position::start("3x5".parse().unwrap());
    {
        let explorer = explorer(&config(&scratch.0, Duration::from_secs(60))).unwrap();
        let answer = position_answer(&explorer, &position).await;
        assert_eq!(answer.source, Source::Solved);
        explorer.answers.shutdown();
    }
    let explorer = explorer(&config(&scratch.0, Duration::from_secs(60))).unwrap();
    let answer = position_answer(&explorer, &position).await;
    assert_eq!(answer.source, Source::Stored);
    assert!(answer.moves.iter().all(|m| m.source == Source::Stored));
    // The mirror image shares the entries.
    let mirrored = position_answer(
        &explorer,
        &position.play(position.legal_moves()[0]).mirror(),
    )
    .await;
    assert_eq!(mirrored.source, Source::Stored);
    explorer.answers.shutdown();
}

#[test]
fn a_damaged_store_is_refused_naming_its_file() {
    let scratch = Scratch::new("explorer", "damaged");
    std::fs::create_dir_all(&scratch.0).unwrap();
    let file = scratch.0.join(breakthrough_explorer::store::STORE_FILE);
    std::fs::write(&file, vec![0x5a; 8192]).unwrap();
    let err = explorer(&config(&scratch.0, Duration::from_secs(1))).unwrap_err();
    let message = format!("{err:#}");
    assert!(message.contains(&file.display().to_string()), "{message}");
    assert!(message.contains("damaged"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_not_ready_in_time_is_unknown_then_found() {
    let scratch = Scratch::new("explorer", "budget");
    let explorer = explorer(&config(&scratch.0, Duration::from_millis(1))).unwrap();
    let position = Position::start("5x5".parse().unwrap());
    let answer = position_answer(&explorer, &position).await;
    assert_eq!(answer.source, Source::Unknown);
    assert!(answer.solving);
    assert!(answer
        .moves
        .iter()
        .all(|m| m.outcome == MoveOutcome::Unknown));
    // A position a few plies from the end is solved within the budget of the
    // next requests, while the start goes on in the background.
    let late: Position = "5/5/2B2/5/W4 w".parse().unwrap();
    let mut answer = position_answer(&explorer, &late).await;
    for _ in 0..100 {
        if answer.source != Source::Unknown {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        answer = position_answer(&explorer, &late).await;
    }
    // Solved for a request, or in the background between two of them.
    assert_ne!(answer.source, Source::Unknown);
    // Black's c3 reaches c1 in two moves, White's a1 needs four.
    assert_eq!(answer.winner.map(|s| s.name()), Some("black"));
    assert_eq!(answer.length, Some(4));
    explorer.answers.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_proof_browser_walks_the_certificate() {
    use breakthrough_explorer::proofs::{NodeKind, ProofAnswer};
    let scratch = Scratch::new("explorer", "proof");
    let explorer = explorer(&config(&scratch.0, Duration::from_secs(60))).unwrap();
    let (status, json) = get(&explorer, "/api/v1/proof").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let root: ProofAnswer = serde_json::from_value(json).unwrap();
    // 4x5's certificate of the length: Black wins within 22 plies, White holds out 21.
    assert_eq!(root.parts, 2);
    assert!(root.verified);
    assert_eq!(root.summary.claim, "black wins within 22 plies");
    assert_eq!(root.node.kind, NodeKind::Expanded);
    assert_eq!(root.node.size, root.summary.positions);
    assert_eq!(root.node.height, 22);
    // White to move at the root: the proof answers all 10 moves.
    assert_eq!(root.moves.len(), 10);
    let sizes: u64 = root.moves.iter().map(|m| m.node.size).sum();
    assert!(sizes < root.node.size, "the moves' subtrees and the root");
    // Down the largest subtree, then Black's one move.
    let first = &root.moves[0];
    let uri = format!("/api/v1/proof?part=0&path={}", first.mv);
    let (status, json) = get(&explorer, &uri).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let below: ProofAnswer = serde_json::from_value(json).unwrap();
    assert_eq!(below.position, first.position);
    assert_eq!(below.node, first.node);
    assert_eq!(below.moves.len(), 1, "the winner's one move");
    let (status, json) = get(&explorer, "/api/v1/proof?part=1").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["summary"]["claim"], "white holds out 21 plies");
    for (uri, expected) in [
        ("/api/v1/proof?part=2", "parts 0 to 1"),
        ("/api/v1/proof?path=a2-a3+zz", "move 2 `zz`"),
        ("/api/v1/proof?path=e2-e3", "move 1 `e2-e3`"),
        ("/api/v1/proof?part=x", "bad query"),
    ] {
        let (status, json) = get(&explorer, uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {json}");
        assert!(
            json["error"].as_str().unwrap().contains(expected),
            "{uri}: {json}"
        );
    }
    explorer.answers.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_proof_browser_walks_a_campaign_directory() {
    use breakthrough_explorer::proofs::{NodeKind, ProofAnswer};
    let scratch = Scratch::new("explorer", "campaign-proof");
    let dir = scratch.0.join("campaign");
    breakthrough_testing::solved_campaign_4x5(&dir);
    let mut settings = config(&scratch.0.join("store"), Duration::from_secs(60));
    settings.proof = Some(dir.clone());
    let explorer = explorer(&settings).unwrap();
    let (status, json) = get(&explorer, "/api/v1/proof").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let top: ProofAnswer = serde_json::from_value(json).unwrap();
    assert!(!top.verified);
    assert!(top.parts > 2, "{} parts", top.parts);
    assert_eq!(top.part_file, "top.cert");
    assert_eq!(
        top.summary.claim,
        "black wins, given positions proven elsewhere"
    );
    // Walk the top down to a position given as proven elsewhere, and follow it.
    let mut answer = top;
    let mut path: Vec<String> = Vec::new();
    let given = loop {
        if let Some(given) = answer.moves.iter().find(|m| m.node.kind == NodeKind::Given) {
            break given.clone();
        }
        let next = answer
            .moves
            .iter()
            .find(|m| m.node.kind == NodeKind::Expanded)
            .expect("an expanded position below");
        path.push(next.mv.clone());
        let uri = format!(
            "/api/v1/proof?{}",
            serde_urlencoded::to_string([("part", "0"), ("path", &path.join(" "))]).unwrap()
        );
        let (status, json) = get(&explorer, &uri).await;
        assert_eq!(status, StatusCode::OK, "{json}");
        answer = serde_json::from_value(json).unwrap();
    };
    let prover = given.node.proven_by.expect("the part that proves it");
    assert!(prover > 0);
    let (status, json) = get(&explorer, &format!("/api/v1/proof?part={prover}")).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let part: ProofAnswer = serde_json::from_value(json).unwrap();
    assert_eq!(part.summary.side.name(), "black");
    assert!(part.summary.positions > 0);
    let (status, _) = get(&explorer, &format!("/api/v1/proof?part={}", part.parts)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    explorer.answers.shutdown();
}
