//! Answers built from the store, with the solver pool for what it lacks.

use std::sync::Arc;
use std::time::Duration;

use breakthrough_engine::{Color, Move, Position};
use breakthrough_result::Side;
use tokio::time::Instant;

use crate::api::{MainLine, MoveAnswer, MoveOutcome, PositionAnswer, Source};
use crate::solving::{Ended, Pool, Queued};
use crate::store::{Known, Store, StoreError};

/// The most moves a main line holds: more than the longest game on any board.
const MAX_LINE: usize = 240;

/// The store and the solver pool, with the budget of a request.
#[derive(Debug)]
pub struct Answers {
    store: Arc<Store>,
    pool: Pool,
    /// How long a request waits for a solve.
    move_time: Duration,
}

/// What the store knows of a position and of the position after each legal move.
pub(crate) struct Lookup {
    own: Option<Known>,
    moves: Vec<(Move, Position, Option<Known>)>,
}

/// What `store` knows of `position` and of the position after each legal move.
pub(crate) fn lookup(store: &Store, position: &Position) -> Result<Lookup, StoreError> {
    let moves: Vec<_> = position
        .legal_moves()
        .into_iter()
        .map(|mv| (mv, position.play(mv)))
        .collect();
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(*position);
    positions.extend(moves.iter().map(|(_, child)| *child));
    let mut known = store.get_all(&positions)?.into_iter();
    let own = known.next().flatten();
    let found = Lookup {
        own,
        moves: moves
            .into_iter()
            .zip(known)
            .map(|((mv, child), known)| (mv, child, known))
            .collect(),
    };
    found
        .contradiction(position)
        .map_or(Ok(found), |why| Err(store.inconsistent(position, why)))
}

/// Whether `known` can be `position`'s value at all: the side that wins makes the
/// last move, so a position won by the side to move lasts an odd number of plies,
/// one it loses an even number; a finished game lasts 0 plies and has its winner.
fn impossible(position: &Position, known: Known) -> Option<String> {
    let describe = || {
        format!(
            "{position} stored as {:?} in {}",
            known.winner, known.length
        )
    };
    match position.winner() {
        Some(winner) if known.winner != winner || known.length != 0 => {
            Some(format!("{}, but the game is over", describe()))
        }
        Some(_) => None,
        None if (known.winner == position.to_move()) != (known.length % 2 == 1) => Some(format!(
            "{}: the side that wins makes the last move, so the length's parity is wrong",
            describe()
        )),
        None => None,
    }
}

impl Lookup {
    /// What contradicts itself in what the store holds of `position` and its
    /// moves: an impossible value, or a value that is not its best move's.
    fn contradiction(&self, position: &Position) -> Option<String> {
        let mover = position.to_move();
        let stored = self.own.iter().map(|known| (position, *known));
        let children = self
            .moves
            .iter()
            .filter_map(|(_, child, known)| known.map(|known| (child, known)));
        if let Some(why) = stored
            .chain(children)
            .find_map(|(position, known)| impossible(position, known))
        {
            return Some(why);
        }
        let own = self.own?;
        let contradicts = |mv: &Move, after: Known| {
            let length = after.length + 1;
            if own.winner == mover {
                // A win in `own.length` is the fastest: no winning move is faster.
                after.winner == mover && length < own.length
            } else {
                // A loss in `own.length`: every move loses, none takes longer.
                after.winner == mover || length > own.length
            }
            .then(|| {
                format!(
                    "{position} stored as {:?} in {} but its move {mv} leads to {:?} in {length}",
                    own.winner, own.length, after.winner
                )
            })
        };
        if let Some(why) = self
            .moves
            .iter()
            .find_map(|(mv, _, known)| known.and_then(|after| contradicts(mv, after)))
        {
            return Some(why);
        }
        // With every move known, the best one's value is the position's.
        let (mv, best) = self.best_known(mover)?;
        let best = Known {
            winner: best.winner,
            length: best.length + 1,
        };
        (best != own).then(|| {
            format!(
                "{position} stored as {:?} in {} but its best move {mv} gives {:?} in {}",
                own.winner, own.length, best.winner, best.length
            )
        })
    }

    pub(crate) fn is_complete(&self) -> bool {
        self.moves.iter().all(|(_, _, known)| known.is_some())
    }

    /// The move of perfect play and what follows it, when every move is known: the
    /// fastest win, or else the longest loss; ties go to the first in the legal
    /// moves' order.
    fn best_known(&self, mover: Color) -> Option<(Move, Known)> {
        if !self.is_complete() {
            return None;
        }
        self.moves
            .iter()
            .filter_map(|(mv, _, known)| known.map(|known| (*mv, known)))
            .min_by_key(|(_, known)| rank(known.winner == mover, known.length))
    }

    /// The move of perfect play, when every move is known.
    pub(crate) fn best(&self, mover: Color) -> Option<Move> {
        self.best_known(mover).map(|(mv, _)| mv)
    }

    /// The position's value: stored, or else that of its move of perfect play.
    fn value(&self, mover: Color) -> Option<Known> {
        self.own.or_else(|| {
            self.best_known(mover).map(|(_, after)| Known {
                winner: after.winner,
                length: after.length + 1,
            })
        })
    }
}

/// How good a move is for the side playing it, lower first: wins fastest first,
/// then losses longest first.
fn rank(wins: bool, length: u32) -> (u8, i64) {
    if wins {
        (0, i64::from(length))
    } else {
        (2, -i64::from(length))
    }
}

impl Answers {
    pub fn new(store: Arc<Store>, pool: Pool, move_time: Duration) -> Answers {
        Answers {
            store,
            pool,
            move_time,
        }
    }

    /// The deadline of a request that starts now.
    pub fn deadline(&self) -> Instant {
        Instant::now() + self.move_time
    }

    /// Stops the solver pool's solves, without waiting for its threads.
    pub fn stop(&self) {
        self.pool.stop();
    }

    /// Stops the solver pool and waits for its threads.
    pub fn shutdown(&self) {
        self.pool.shutdown();
    }

    fn lookup(&self, position: &Position) -> Result<Lookup, StoreError> {
        lookup(&self.store, position)
    }

    /// The positions in the store.
    pub fn stored_count(&self) -> Result<u64, StoreError> {
        self.store.len()
    }

    /// `position`'s value as the store knows it (its own, or its best move's when
    /// every move is known), without solving: what a probe of a stored position
    /// needs, at the cost of one read.
    pub fn stored_value(&self, position: &Position) -> Result<Option<Known>, StoreError> {
        Ok(self.lookup(position)?.value(position.to_move()))
    }

    /// `position`'s answer: from the store, or solved within the request's budget
    /// (until `deadline`), or partly unknown while its solve goes on.
    pub async fn position(
        &self,
        position: &Position,
        deadline: Instant,
    ) -> Result<PositionAnswer, StoreError> {
        if position.winner().is_some() {
            return Ok(game_over(position));
        }
        let before = self.lookup(position)?;
        // With every move known, the position's value follows from them.
        if before.is_complete() {
            return Ok(answer(position, &before, None, Pending::default()));
        }
        let busy = match self.pool.request(position) {
            Queued::Solving(mut ended) => {
                let waited = tokio::time::timeout_at(deadline, ended.wait_for(Option::is_some));
                matches!(waited.await, Ok(Ok(ended)) if *ended == Some(Ended::Dropped))
            }
            Queued::Busy => true,
            Queued::Hard(_) => false,
        };
        let after = self.lookup(position)?;
        let state = Pending {
            solving: self.pool.is_solving(position),
            busy,
            hard_for: self.pool.hard_for(position),
        };
        Ok(answer(position, &after, Some(&before), state))
    }

    /// Perfect play from `position`, as far as it is known by `deadline`.
    pub async fn main_line(
        &self,
        position: &Position,
        deadline: Instant,
    ) -> Result<MainLine, StoreError> {
        let first = self.position(position, deadline).await?;
        let mut line = MainLine {
            board: first.board.clone(),
            position: first.position.clone(),
            winner: first.winner,
            length: first.length,
            moves: Vec::new(),
            complete: false,
        };
        let mut here = first;
        let mut current = *position;
        while line.moves.len() < MAX_LINE {
            if here.game_over {
                line.complete = true;
                break;
            }
            let all_known = here.moves.iter().all(|m| m.length.is_some());
            let Some(best) = here.moves.first().filter(|_| all_known) else {
                break;
            };
            current = current.play(current.parse_move(&best.mv).expect("a legal move's name"));
            line.moves.push(best.mv.clone());
            here = self.position(&current, deadline).await?;
        }
        Ok(line)
    }
}

/// The side of a colour, as results name it.
pub fn side(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn game_over(position: &Position) -> PositionAnswer {
    PositionAnswer {
        board: position.board().to_string(),
        position: position.to_string(),
        to_move: side(position.to_move()),
        winner: position.winner().map(side),
        length: Some(0),
        game_over: true,
        source: Source::Rules,
        solving: false,
        busy: false,
        hard: false,
        retry_after: None,
        moves: Vec::new(),
    }
}

/// Where a position not (fully) stored stands with the solver pool.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    solving: bool,
    busy: bool,
    /// How long it stays remembered as hard, when its solve gave up lately.
    hard_for: Option<Duration>,
}

/// The answer that `lookup` gives, each value marked stored when `before` had it
/// already (or when there was no `before`: nothing was solved), solved otherwise.
fn answer(
    position: &Position,
    lookup: &Lookup,
    before: Option<&Lookup>,
    pending: Pending,
) -> PositionAnswer {
    let mover = position.to_move();
    let source_of = |known: Option<Known>, earlier: Option<Option<Known>>| match (known, earlier) {
        (None, _) => Source::Unknown,
        (Some(_), None | Some(Some(_))) => Source::Stored,
        (Some(_), Some(None)) => Source::Solved,
    };
    let value = lookup.value(mover);
    let mut moves: Vec<MoveAnswer> = lookup
        .moves
        .iter()
        .enumerate()
        .map(|(index, (mv, child, known))| MoveAnswer {
            mv: mv.to_string(),
            outcome: match known {
                None => MoveOutcome::Unknown,
                Some(known) if known.winner == mover => MoveOutcome::Win,
                Some(_) => MoveOutcome::Loss,
            },
            length: known.map(|known| known.length + 1),
            source: source_of(*known, before.map(|b| b.moves[index].2)),
            position: child.to_string(),
        })
        .collect();
    // Best first: wins fastest first, then unknowns, then losses longest first; the
    // sort is stable, so ties keep the legal moves' order.
    moves.sort_by_key(|m| match (m.outcome, m.length) {
        (MoveOutcome::Win | MoveOutcome::Loss, Some(length)) => {
            rank(m.outcome == MoveOutcome::Win, length)
        }
        _ => (1, 0),
    });
    PositionAnswer {
        board: position.board().to_string(),
        position: position.to_string(),
        to_move: side(mover),
        winner: value.map(|known| side(known.winner)),
        length: value.map(|known| known.length),
        game_over: false,
        source: source_of(value, before.map(|b| b.value(mover))),
        solving: pending.solving,
        busy: pending.busy,
        hard: pending.hard_for.is_some() && value.is_none(),
        retry_after: pending
            .hard_for
            .filter(|_| value.is_none())
            .map(|left| left.as_secs() + 1),
        moves,
    }
}
