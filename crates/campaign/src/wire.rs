//! The messages between the master and worker processes, as bytes (postcard over
//! serde): what [`crate::transport`] passes between threads, carried by a
//! transport between processes (`crate::mpi`). Plain numbers on the wire; a
//! message that does not decode, or decodes to no legal position, is an error, never
//! a guess.

use breakthrough_engine::{Bitboard, Board, Color, Position, Step};
use breakthrough_solver::{Key, Pn, RaceRules};
use serde::{Deserialize, Serialize};

use crate::transport::{Done, Halt, Job, Outcome, Report, WorkerSettings};

/// Master to worker.
#[derive(Clone, Debug)]
pub enum ToWorker {
    /// The run's settings, once, before the first job. The wire carries all but
    /// `halt` and `team`, which are the worker's own: a decoded start has fresh
    /// flags and a team of 1.
    Start(WorkerSettings),
    /// A job.
    Job { job: Job },
    /// Positions solved elsewhere (to put in the table as settled, and for proofs
    /// to take as given); a worker is sent those it has not been told of before
    /// each job.
    News { solved: Vec<(Key, bool)> },
    /// End the searches in flight, and with `proofs` the proofs being written
    /// (each job still reports).
    Halt { proofs: bool },
    /// No more jobs: end.
    Quit,
}

/// Worker to master.
#[derive(Clone, Debug)]
pub enum ToMaster {
    /// The worker is up: how many jobs it runs at once, and its table's size.
    Hello {
        threads: u32,
        table_mb: u64,
    },
    Report(Report),
}

#[derive(Debug, thiserror::Error)]
pub enum WireError {
    #[error("a message that does not decode: {0}")]
    Decode(#[from] postcard::Error),
    #[error("a message with a bad position: {0}")]
    Position(String),
}

#[derive(Serialize, Deserialize)]
struct WirePosition {
    width: u8,
    height: u8,
    white: u64,
    black: u64,
    black_to_move: bool,
}

#[derive(Serialize, Deserialize)]
struct WireKey {
    white: u64,
    black: u64,
    black_to_move: bool,
    horizon: u8,
}

#[derive(Serialize, Deserialize)]
enum WireToWorker {
    Start {
        board: (u8, u8),
        race_rules_on: bool,
        race_moves: u32,
        inverse_epsilon: u32,
        echo: bool,
        export_min: u64,
    },
    Job {
        id: u64,
        position: WirePosition,
        max_nodes: u64,
        thresholds: (u32, u32),
        home: Option<u32>,
        prove: bool,
    },
    News {
        solved: Vec<(WireKey, bool)>,
    },
    Halt {
        proofs: bool,
    },
    Quit,
}

/// A child's move (from, to) and numbers (phi, delta).
type WireChild = ((u8, u8), u32, u32);

#[derive(Serialize, Deserialize)]
enum WireOutcome {
    Solved {
        wins: bool,
        best: Option<(u8, u8)>,
        part: Option<Vec<u8>>,
        given: Vec<WireKey>,
        exported: Vec<WirePosition>,
    },
    Open {
        numbers: (u32, u32),
        children: Option<Vec<WireChild>>,
    },
    Stopped,
}

#[derive(Serialize, Deserialize)]
enum WireToMaster {
    Hello {
        threads: u32,
        table_mb: u64,
    },
    Progress {
        job: u64,
        numbers: (u32, u32),
    },
    Done {
        job: u64,
        place: u32,
        outcome: WireOutcome,
        nodes: u64,
        proof_nodes: u64,
        proven_hits: u64,
    },
    Failed {
        job: u64,
        error: String,
    },
}

fn position_out(position: &Position) -> WirePosition {
    let (width, height) = board_out(position.board());
    WirePosition {
        width,
        height,
        white: position.pieces(Color::White).0,
        black: position.pieces(Color::Black).0,
        black_to_move: position.to_move() == Color::Black,
    }
}

fn board_out(board: Board) -> (u8, u8) {
    (board.width() as u8, board.height() as u8)
}

fn board_in((width, height): (u8, u8)) -> Result<Board, WireError> {
    Board::new(u32::from(width), u32::from(height))
        .map_err(|err| WireError::Position(err.to_string()))
}

fn position_in(wire: &WirePosition) -> Result<Position, WireError> {
    let bad = |why: String| WireError::Position(why);
    let board = board_in((wire.width, wire.height))?;
    let to_move = if wire.black_to_move {
        Color::Black
    } else {
        Color::White
    };
    Position::try_from_parts(board, Bitboard(wire.white), Bitboard(wire.black), to_move)
        .map_err(|err| bad(err.to_string()))
}

fn key_out(key: Key) -> WireKey {
    WireKey {
        white: key.white,
        black: key.black,
        black_to_move: key.black_to_move,
        horizon: key.horizon,
    }
}

fn key_in(key: WireKey) -> Key {
    Key {
        white: key.white,
        black: key.black,
        black_to_move: key.black_to_move,
        horizon: key.horizon,
    }
}

fn numbers_out((phi, delta): (Pn, Pn)) -> (u32, u32) {
    (phi.get(), delta.get())
}

fn numbers_in((phi, delta): (u32, u32)) -> (Pn, Pn) {
    (Pn::from_raw(phi), Pn::from_raw(delta))
}

fn step_out(step: Step) -> (u8, u8) {
    (step.from, step.to)
}

fn step_in((from, to): (u8, u8)) -> Step {
    Step { from, to }
}

fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    postcard::to_stdvec(message).expect("a message always encodes")
}

impl ToWorker {
    pub fn encode(&self) -> Vec<u8> {
        encode(&match self {
            ToWorker::Start(settings) => WireToWorker::Start {
                board: board_out(settings.board),
                race_rules_on: settings.race_rules.enabled,
                race_moves: settings.race_rules.race_moves,
                inverse_epsilon: settings.inverse_epsilon,
                echo: settings.echo,
                export_min: settings.export_min,
            },
            ToWorker::Job { job } => WireToWorker::Job {
                id: job.id,
                position: position_out(&job.position),
                max_nodes: job.max_nodes,
                thresholds: numbers_out(job.thresholds),
                home: job.home,
                prove: job.prove,
            },
            ToWorker::News { solved } => WireToWorker::News {
                solved: solved
                    .iter()
                    .map(|&(key, wins)| (key_out(key), wins))
                    .collect(),
            },
            ToWorker::Halt { proofs } => WireToWorker::Halt { proofs: *proofs },
            ToWorker::Quit => WireToWorker::Quit,
        })
    }

    pub fn decode(bytes: &[u8]) -> Result<ToWorker, WireError> {
        Ok(match postcard::from_bytes(bytes)? {
            WireToWorker::Start {
                board,
                race_rules_on,
                race_moves,
                inverse_epsilon,
                echo,
                export_min,
            } => ToWorker::Start(WorkerSettings {
                board: board_in(board)?,
                race_rules: RaceRules {
                    enabled: race_rules_on,
                    race_moves,
                },
                inverse_epsilon,
                echo,
                export_min,
                halt: Halt::default(),
                team: 1,
            }),
            WireToWorker::Job {
                id,
                position,
                max_nodes,
                thresholds,
                home,
                prove,
            } => ToWorker::Job {
                job: Job {
                    id,
                    position: position_in(&position)?,
                    max_nodes,
                    thresholds: numbers_in(thresholds),
                    home,
                    prove,
                },
            },
            WireToWorker::News { solved } => ToWorker::News {
                solved: solved
                    .into_iter()
                    .map(|(key, wins)| (key_in(key), wins))
                    .collect(),
            },
            WireToWorker::Halt { proofs } => ToWorker::Halt { proofs },
            WireToWorker::Quit => ToWorker::Quit,
        })
    }
}

impl ToMaster {
    pub fn encode(&self) -> Vec<u8> {
        encode(&match self {
            ToMaster::Hello { threads, table_mb } => WireToMaster::Hello {
                threads: *threads,
                table_mb: *table_mb,
            },
            ToMaster::Report(Report::Progress { job, numbers }) => WireToMaster::Progress {
                job: *job,
                numbers: numbers_out(*numbers),
            },
            ToMaster::Report(Report::Failed { job, error }) => WireToMaster::Failed {
                job: *job,
                error: error.clone(),
            },
            ToMaster::Report(Report::Done(done)) => WireToMaster::Done {
                job: done.job,
                place: done.place,
                nodes: done.nodes,
                proof_nodes: done.proof_nodes,
                proven_hits: done.proven_hits,
                outcome: match &done.outcome {
                    Outcome::Solved {
                        wins,
                        best,
                        proof: part,
                        given,
                        exported,
                    } => WireOutcome::Solved {
                        wins: *wins,
                        best: best.map(step_out),
                        part: part.clone(),
                        given: given.iter().copied().map(key_out).collect(),
                        exported: exported.iter().map(position_out).collect(),
                    },
                    Outcome::Open { numbers, children } => WireOutcome::Open {
                        numbers: numbers_out(*numbers),
                        children: children.as_ref().map(|children| {
                            children
                                .iter()
                                .map(|&(step, phi, delta)| (step_out(step), phi.get(), delta.get()))
                                .collect()
                        }),
                    },
                    Outcome::Stopped => WireOutcome::Stopped,
                },
            },
        })
    }

    pub fn decode(bytes: &[u8]) -> Result<ToMaster, WireError> {
        Ok(match postcard::from_bytes(bytes)? {
            WireToMaster::Hello { threads, table_mb } => ToMaster::Hello { threads, table_mb },
            WireToMaster::Progress { job, numbers } => ToMaster::Report(Report::Progress {
                job,
                numbers: numbers_in(numbers),
            }),
            WireToMaster::Failed { job, error } => ToMaster::Report(Report::Failed { job, error }),
            WireToMaster::Done {
                job,
                place,
                outcome,
                nodes,
                proof_nodes,
                proven_hits,
            } => ToMaster::Report(Report::Done(Done {
                job,
                place,
                nodes,
                proof_nodes,
                proven_hits,
                outcome: match outcome {
                    WireOutcome::Solved {
                        wins,
                        best,
                        part,
                        given,
                        exported,
                    } => Outcome::Solved {
                        wins,
                        best: best.map(step_in),
                        proof: part,
                        given: given.into_iter().map(key_in).collect(),
                        exported: exported.iter().map(position_in).collect::<Result<_, _>>()?,
                    },
                    WireOutcome::Open { numbers, children } => Outcome::Open {
                        numbers: numbers_in(numbers),
                        children: children.map(|children| {
                            children
                                .into_iter()
                                .map(|(step, phi, delta)| {
                                    (step_in(step), Pn::from_raw(phi), Pn::from_raw(delta))
                                })
                                .collect()
                        }),
                    },
                    WireOutcome::Stopped => Outcome::Stopped,
                },
            })),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position() -> Position {
        let start = Position::start(Board::new(5, 6).expect("a board"));
        let step = start.steps()[3];
        start.play_step(step)
    }

    #[test]
    fn jobs_and_settings_come_back_as_sent() {
        let job = Job {
            id: 77,
            position: position(),
            max_nodes: 20_000,
            thresholds: (Pn::from_raw(12), Pn::INF),
            home: Some(3),
            prove: false,
        };
        let key = Key::of(&job.position);
        let sent = ToWorker::Job { job: job.clone() };
        let ToWorker::Job { job: got } = ToWorker::decode(&sent.encode()).unwrap() else {
            panic!("not a job");
        };
        assert_eq!(got.id, 77);
        assert_eq!(Key::of(&got.position), key);
        assert_eq!(got.position.to_string(), job.position.to_string());
        assert_eq!(
            (got.max_nodes, got.thresholds, got.home, got.prove),
            (20_000, job.thresholds, Some(3), false)
        );
        let child = Key::of(&job.position.play_step(job.position.steps()[0]));
        let news = ToWorker::News {
            solved: vec![(key, true), (child, false)],
        };
        let ToWorker::News { solved } = ToWorker::decode(&news.encode()).unwrap() else {
            panic!("not news");
        };
        assert_eq!(solved, vec![(key, true), (child, false)]);
        let start = ToWorker::Start(WorkerSettings {
            board: Board::new(6, 6).unwrap(),
            race_rules: RaceRules {
                enabled: true,
                race_moves: 4,
            },
            inverse_epsilon: 4,
            echo: true,
            export_min: 12_345,
            halt: Halt::default(),
            team: 3,
        });
        let ToWorker::Start(settings) = ToWorker::decode(&start.encode()).unwrap() else {
            panic!("not a start");
        };
        assert_eq!(
            (
                settings.board,
                settings.race_rules.enabled,
                settings.race_rules.race_moves,
                settings.inverse_epsilon,
                settings.echo,
                settings.export_min,
                settings.team
            ),
            (Board::new(6, 6).unwrap(), true, 4, 4, true, 12_345, 1)
        );
        assert!(matches!(
            ToWorker::decode(&ToWorker::Quit.encode()).unwrap(),
            ToWorker::Quit
        ));
    }

    #[test]
    fn reports_come_back_as_sent() {
        let steps = position().steps();
        let open = Report::Done(Done {
            job: 5,
            place: 2,
            outcome: Outcome::Open {
                numbers: (Pn::from_raw(3), Pn::from_raw(40)),
                children: Some(vec![(steps[0], Pn::ONE, Pn::from_raw(9))]),
            },
            nodes: 10_000,
            proof_nodes: 0,
            proven_hits: 7,
        });
        let solved = Report::Done(Done {
            job: 6,
            place: 1,
            outcome: Outcome::Solved {
                wins: false,
                best: Some(steps[1]),
                proof: Some(vec![1, 2, 3, 255]),
                given: vec![
                    Key::of(&position()),
                    Key::of(&position().play_step(steps[0])),
                ],
                exported: vec![position().play_step(steps[2])],
            },
            nodes: 123,
            proof_nodes: 45,
            proven_hits: 2,
        });
        let unproven = Report::Done(Done {
            job: 7,
            place: 0,
            outcome: Outcome::Solved {
                wins: true,
                best: None,
                proof: None,
                given: Vec::new(),
                exported: Vec::new(),
            },
            nodes: 99,
            proof_nodes: 0,
            proven_hits: 0,
        });
        for report in [open, solved, unproven] {
            let ToMaster::Report(got) =
                ToMaster::decode(&ToMaster::Report(report.clone()).encode()).unwrap()
            else {
                panic!("not a report");
            };
            assert_eq!(format!("{got:?}"), format!("{report:?}"));
        }
        let hello = ToMaster::Hello {
            threads: 8,
            table_mb: 4096,
        };
        assert!(matches!(
            ToMaster::decode(&hello.encode()).unwrap(),
            ToMaster::Hello {
                threads: 8,
                table_mb: 4096
            }
        ));
    }

    #[test]
    fn damaged_messages_are_errors() {
        let job = ToWorker::Job {
            job: Job {
                id: 1,
                position: position(),
                max_nodes: 100,
                thresholds: (Pn::INF, Pn::INF),
                home: None,
                prove: true,
            },
        };
        let bytes = job.encode();
        assert!(ToWorker::decode(&bytes[..bytes.len() / 2]).is_err());
        assert!(ToWorker::decode(&[200]).is_err());
        // White and black on the same square: no position.
        let mut wire: WireToWorker = postcard::from_bytes(&bytes).unwrap();
        if let WireToWorker::Job { position, .. } = &mut wire {
            position.black |= position.white & position.white.wrapping_neg();
        }
        assert!(matches!(
            ToWorker::decode(&encode(&wire)),
            Err(WireError::Position(_))
        ));
    }
}
