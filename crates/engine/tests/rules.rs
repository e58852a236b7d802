//! The bitboard engine against the naive array implementation in `naive/`, against
//! the published perft counts, and on every kind of bad input.

mod naive;

use breakthrough_engine::{
    perft, Bitboard, Board, BoardError, Color, Move, MoveError, Position, PositionError, SetupError,
};
use naive::{Cell, NaiveGame};

/// Every supported board size.
fn all_sizes() -> Vec<(u32, u32)> {
    let mut sizes = Vec::new();
    for w in 2..=16 {
        for h in 4..=32 {
            if w * h <= 64 {
                sizes.push((w, h));
            }
        }
    }
    sizes
}

fn engine_moves(position: &Position) -> Vec<String> {
    let mut moves: Vec<String> = position.legal_moves().iter().map(Move::to_string).collect();
    moves.sort();
    moves
}

/// Everything the engine says of a position, checked against the naive rules.
fn check_position(position: &Position) {
    let text = position.to_string();
    let naive = NaiveGame::from_text(&text);
    assert_eq!(naive.to_text(), text, "text of {text}");
    assert_eq!(
        text.parse::<Position>().as_ref(),
        Ok(position),
        "round trip of {text}"
    );
    assert_eq!(
        engine_moves(position),
        naive.move_texts(),
        "moves of {text}"
    );
    assert_eq!(
        position.move_count() as usize,
        naive.moves().len(),
        "count of {text}"
    );
    let winner = position.winner().map(|c| c == Color::White);
    assert_eq!(winner, naive.winner(), "winner of {text}");
    assert_eq!(position.hash(), position.compute_hash(), "hash of {text}");
    let mirror = position.mirror();
    assert_eq!(mirror.mirror(), *position, "mirror twice of {text}");
    assert_eq!(mirror.hash(), mirror.compute_hash());
    assert_eq!(
        mirror.move_count(),
        position.move_count(),
        "mirror of {text}"
    );
    for index in 0..position.board().squares() {
        let captures = position
            .legal_moves()
            .iter()
            .filter(|mv| mv.capture && position.board().index(mv.to) == Some(index))
            .count();
        assert_eq!(
            position.captures_on(index) as usize,
            captures,
            "captures on {index} in {text}"
        );
    }
    for step in position.steps() {
        let mv = position.to_move_text(step);
        assert_eq!(position.parse_move(&mv.to_string()), Ok(mv));
        let next = position.play_step(step);
        assert_eq!(
            next.hash(),
            next.compute_hash(),
            "hash after {mv} in {text}"
        );
    }
}

#[test]
fn published_perft_counts() {
    let table = include_str!("data/perft.tsv");
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let board: Board = fields[0].parse().unwrap();
        let depth: u32 = fields[1].parse().unwrap();
        let expected: u64 = fields[2].parse().unwrap();
        assert_eq!(
            perft(&Position::start(board), depth),
            expected,
            "{board} depth {depth}"
        );
        rows += 1;
    }
    assert!(rows >= 30, "perft table has only {rows} rows");
}

#[test]
fn anchors_on_8x8() {
    let start = Position::start("8x8".parse().unwrap());
    assert_eq!(perft(&start, 1), 22);
    assert_eq!(perft(&start, 2), 484);
}

#[test]
fn start_perft_matches_naive_on_every_size() {
    for (w, h) in all_sizes() {
        let board = Board::new(w, h).unwrap();
        let start = Position::start(board);
        let naive = NaiveGame::start(w as usize, h as usize);
        assert_eq!(start.to_string(), naive.to_text());
        // Deeper where the tree is small enough for the naive walk.
        let depth = if w <= 4 {
            5
        } else if w <= 8 {
            4
        } else {
            3
        };
        for d in 0..=depth {
            assert_eq!(perft(&start, d), naive.perft(d), "{board} depth {d}");
        }
    }
}

/// Plays random games on every size, checking every position met on the way.
#[test]
fn random_games_match_naive() {
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    for (w, h) in all_sizes() {
        let board = Board::new(w, h).unwrap();
        for _game in 0..12 {
            let mut position = Position::start(board);
            loop {
                check_position(&position);
                let naive = NaiveGame::from_text(&position.to_string());
                if rng.u32(0..8) == 0 {
                    assert_eq!(perft(&position, 3), naive.perft(3), "{position:?}");
                    assert_eq!(perft(&position.mirror(), 3), perft(&position, 3));
                }
                let steps = position.steps();
                if steps.is_empty() {
                    break;
                }
                position = position.play_step(steps[rng.usize(..steps.len())]);
            }
        }
    }
}

/// Random set-ups, including odd ones no game reaches easily (blocked sides, few
/// pieces, pieces deep in enemy land): validation and rules both match the naive rules.
#[test]
fn random_setups_match_naive() {
    let mut rng = fastrand::Rng::with_seed(42);
    let sizes = all_sizes();
    let mut accepted = 0;
    for _ in 0..40_000 {
        let (w, h) = sizes[rng.usize(..sizes.len())];
        let board = Board::new(w, h).unwrap();
        let density = rng.u32(1..60);
        let (mut white, mut black) = (0u64, 0u64);
        let mut naive = NaiveGame::start(w as usize, h as usize);
        for rank in 0..h {
            for file in 0..w {
                let bit = 1u64 << (rank * w + file);
                let cell = match rng.u32(0..100) {
                    x if x < density / 2 => Cell::White,
                    x if x < density => Cell::Black,
                    _ => Cell::Empty,
                };
                match cell {
                    Cell::White => white |= bit,
                    Cell::Black => black |= bit,
                    Cell::Empty => {}
                }
                naive.cells[rank as usize][file as usize] = cell;
            }
        }
        let to_move = if rng.bool() {
            Color::White
        } else {
            Color::Black
        };
        naive.white_to_move = to_move == Color::White;
        let result = Position::try_from_parts(board, Bitboard(white), Bitboard(black), to_move);
        assert_eq!(
            result.is_ok(),
            naive.is_valid_setup(),
            "{}",
            naive.to_text()
        );
        if let Ok(position) = result {
            accepted += 1;
            check_position(&position);
            assert_eq!(perft(&position, 2), naive.perft(2), "{}", naive.to_text());
        }
    }
    assert!(accepted > 5_000, "only {accepted} set-ups were valid");
}

/// Every from/to pair of squares: a move is accepted exactly when it is generated.
#[test]
fn every_square_pair_is_legal_iff_generated() {
    let mut rng = fastrand::Rng::with_seed(7);
    for text in [
        "BBBBB/BBBBB/5/WWWWW/WWWWW w",
        "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b",
        "BB1B/2BB/B3/1W1W/WWW1 w",
    ] {
        let mut position: Position = text.parse().unwrap();
        for _ in 0..6 {
            let board = position.board();
            let generated = engine_moves(&position);
            for from in 0..board.squares() {
                for to in 0..board.squares() {
                    for capture in [false, true] {
                        let mv = Move {
                            from: board.square(from),
                            to: board.square(to),
                            capture,
                        };
                        let ok = position.try_play(mv).is_ok();
                        assert_eq!(
                            ok,
                            generated.contains(&mv.to_string()),
                            "{mv} in {position:?}"
                        );
                    }
                }
            }
            let steps = position.steps();
            if steps.is_empty() {
                break;
            }
            position = position.play_step(steps[rng.usize(..steps.len())]);
        }
    }
}

#[test]
fn wrong_separator_is_refused_with_the_right_one_named() {
    let position: Position = "1BBBB/BBBBB/B1W1W/2W1W/WWWWW b".parse().unwrap();
    assert!(matches!(
        position.parse_move("d4-c3"),
        Err(MoveError::ShouldCapture { .. })
    ));
    assert!(position.parse_move("d4xc3").is_ok());
    assert!(position.parse_move("a3-b2").is_ok());
    let start = Position::start("5x5".parse().unwrap());
    let err = start.parse_move("a2xa3").unwrap_err();
    assert!(matches!(err, MoveError::ShouldNotCapture { .. }));
    assert!(err.to_string().contains("a2-a3"), "{err}");
    assert!(matches!(
        start.parse_move("a1-a2"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        start.parse_move("a5-a4"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        start.parse_move("z2-a3"),
        Err(MoveError::Notation(_))
    ));
    assert!(matches!(
        start.parse_move("f2-f3"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn finished_games_have_no_moves() {
    // White reached rank 5; Black is to move but the game is over.
    let won: Position = "W4/5/5/5/5 b".parse().unwrap_err_or_ok();
    assert_eq!(won.winner(), Some(Color::White));
    assert_eq!(won.move_count(), 0);
    assert_eq!(perft(&won, 3), 0);
    // No "side with pieces but no move" case: with W >= 2 the most advanced piece
    // always has a diagonal square on the board, empty or enemy. The random set-ups
    // test checks the engine's rule against the naive one all the same.
    // White has no pieces left: Black has won.
    let wiped: Position = "BB2/4/4/4/4 w".parse().unwrap();
    assert_eq!(wiped.winner(), Some(Color::Black));
}

trait UnwrapEither {
    fn unwrap_err_or_ok(self) -> Position;
}
impl UnwrapEither for Result<Position, PositionError> {
    fn unwrap_err_or_ok(self) -> Position {
        self.unwrap_or_else(|e| panic!("{e}"))
    }
}

#[test]
fn bad_position_texts_say_what_and_where() {
    type Case = (&'static str, fn(&PositionError) -> bool, &'static str);
    let cases: &[Case] = &[
        ("", |e| matches!(e, PositionError::Empty), "empty"),
        (
            "BBBBB/BBBBB/5/WWWWW/WWWWW",
            |e| matches!(e, PositionError::MissingSideToMove),
            "side",
        ),
        (
            "BBBBB/BBBBB/5/WWWWW/WWWWW x",
            |e| matches!(e, PositionError::BadSideToMove(_)),
            "`x`",
        ),
        (
            "BBBBB/BBBBB/5/WWWWW/WWWWW w extra",
            |e| matches!(e, PositionError::TrailingText(_)),
            "extra",
        ),
        (
            "BBBBB/5/WWWWW w",
            |e| matches!(e, PositionError::Board(BoardError::TooShort { .. })),
            "4 rows",
        ),
        (
            "BBBBB/BBBB/5/WWWWW/WWWWW w",
            |e| matches!(e, PositionError::RankWidth { rank: 4, .. }),
            "rank 4",
        ),
        (
            "BBBBB/BBBBB/6/WWWWW/WWWWW w",
            |e| matches!(e, PositionError::RankWidth { rank: 3, .. }),
            "rank 3",
        ),
        (
            "BBBBB/BBBBB/5/WWQWW/WWWWW w",
            |e| {
                matches!(
                    e,
                    PositionError::UnknownChar {
                        rank: 2,
                        found: 'Q',
                        column: 3,
                        ..
                    }
                )
            },
            "column 3",
        ),
        (
            "BBBBB/BBBBB/05/WWWWW/WWWWW w",
            |e| matches!(e, PositionError::ZeroRun { rank: 3, .. }),
            "starts with 0",
        ),
        (
            "BBBBB//5/WWWWW/WWWWW w",
            |e| matches!(e, PositionError::EmptyRank { rank: 4 }),
            "rank 4",
        ),
        (
            "W4/5/5/5/5 w",
            |e| {
                matches!(
                    e,
                    PositionError::Setup(SetupError::GoalReachedBefore { .. })
                )
            },
            "a5",
        ),
        (
            "W4/5/5/5/B4 w",
            |e| matches!(e, PositionError::Setup(SetupError::BothGoalsReached)),
            "both",
        ),
        (
            "5/5/5/5/B4 b",
            |e| {
                matches!(
                    e,
                    PositionError::Setup(SetupError::GoalReachedBefore { .. })
                )
            },
            "a1",
        ),
        (
            "BB3/5/5/5/5 b",
            |e| matches!(e, PositionError::Setup(SetupError::MoverHasNoPieces { .. })),
            "white",
        ),
        (
            "BBBBB/BBBBB/B4/WWWWW/WWWWW w",
            |e| matches!(e, PositionError::Setup(SetupError::TooManyPieces { .. })),
            "11",
        ),
        (
            "1/1/1/1 w",
            |e| matches!(e, PositionError::Board(BoardError::TooNarrow { .. })),
            "2 columns",
        ),
        (
            "65/65/65/65 w",
            |e| matches!(e, PositionError::Board(BoardError::TooLarge { .. })),
            "64",
        ),
        (
            "99999999999999999999/1/1/1 w",
            |e| matches!(e, PositionError::RankWidth { .. }),
            "wide",
        ),
    ];
    for (text, kind, words) in cases {
        let err = text.parse::<Position>().unwrap_err();
        assert!(kind(&err), "{text}: {err:?}");
        assert!(
            err.to_string().contains(words),
            "{text}: `{err}` should say {words}"
        );
    }
}

#[test]
fn overlapping_or_off_board_parts_are_refused() {
    let board: Board = "4x4".parse().unwrap();
    let both = Position::try_from_parts(
        board,
        Bitboard(0b11),
        Bitboard(0b10 << 12 | 0b10),
        Color::White,
    );
    assert!(matches!(both, Err(SetupError::BothColours(sq)) if sq.to_string() == "b1"));
    let off = Position::try_from_parts(board, Bitboard(1 << 20), Bitboard(1 << 15), Color::White);
    assert!(matches!(off, Err(SetupError::OffBoard { .. })));
}

#[test]
fn size_must_match_the_board_given() {
    let board: Board = "6x5".parse().unwrap();
    let err = Position::parse_on(board, "BBBBB/BBBBB/5/WWWWW/WWWWW w").unwrap_err();
    assert!(matches!(err, PositionError::SizeMismatch { .. }));
    assert_eq!(
        err.to_string(),
        "the position is 5x5 but the board given is 6x5"
    );
    assert!(Position::parse_on(board, "BBBBBB/BBBBBB/6/WWWWWW/WWWWWW w").is_ok());
}

#[test]
fn wide_boards_use_two_digit_runs() {
    let board: Board = "16x4".parse().unwrap();
    let start: Position = "BBBBBBBBBBBBBBBB/16/16/WWWWWWWWWWWWWWWW w".parse().unwrap();
    assert_eq!(start.board(), board);
    let position = start.play("c1-c2".parse().unwrap());
    assert_eq!(
        position.to_string(),
        "BBBBBBBBBBBBBBBB/16/2W13/WW1WWWWWWWWWWWWW b"
    );
    let empty_rank: Position = "BBBBBBBBBBBBBBBB/16/16/WWWWWWWWWWWWWWWW w".parse().unwrap();
    assert_eq!(
        empty_rank.to_string(),
        "BBBBBBBBBBBBBBBB/16/16/WWWWWWWWWWWWWWWW w"
    );
}

#[test]
fn diagram_has_ranks_and_files() {
    let position = Position::start("3x4".parse().unwrap());
    assert_eq!(
        position.diagram(),
        "4  B B B\n3  B B B\n2  W W W\n1  W W W\n   a b c\n"
    );
}

/// The deep counts that `breakthrough bench` checks its answers against, computed by
/// the naive rules. Slow (minutes): `cargo test --release -- --ignored deep_perft`.
#[test]
#[ignore]
fn deep_perft_matches_naive() {
    for (w, h, depth, expected) in [(8, 8, 7, 3_751_915_714u64), (6, 5, 8, 2_897_694_108)] {
        let naive = NaiveGame::start(w, h);
        let board = Board::new(w as u32, h as u32).unwrap();
        assert_eq!(perft(&Position::start(board), depth), expected);
        assert_eq!(naive.perft(depth), expected, "{w}x{h} depth {depth}");
    }
}

/// `Position::after_moves` plays the moves its closure picks, in order, and gives
/// `None` once a game has ended on the way.
#[test]
fn after_moves_plays_the_picked_moves_until_the_game_ends() {
    let board: Board = "5x5".parse().unwrap();
    let mut picks = Vec::new();
    let reached = Position::after_moves(board, 6, |n| {
        let pick = (picks.len() * 7 + 3) % n;
        picks.push(pick);
        pick
    });
    let mut expected = Position::start(board);
    for &pick in &picks {
        expected = expected.play_step(expected.steps()[pick]);
    }
    assert_eq!(picks.len(), 6);
    assert_eq!(reached, Some(expected));
    assert_eq!(
        Position::after_moves(board, 0, |_| 0),
        Some(Position::start(board))
    );
    // Pieces only move forward, so every game ends long before 1,000 plies.
    let mut plies = 0;
    assert_eq!(
        Position::after_moves(board, 1_000, |_| {
            plies += 1;
            0
        }),
        None
    );
    assert!(plies < 2 * board.squares() as usize * board.height() as usize);
}
