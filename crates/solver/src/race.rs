//! Race wins: the side to move forces a piece onto its goal within `k` of its own
//! moves, whatever the opponent does, before the opponent can get there.
//!
//! This is an exact bounded search, not a table of hand-written patterns: the side
//! to move tries the moves of its runners (pieces at most `k` steps from the goal),
//! and each must beat every legal reply. Restricting the winner's moves can only miss
//! wins, never invent them, and the opponent's replies are all searched, so a race
//! win is a proof. The opponent cannot win first: the rule applies only while its
//! nearest piece is at least `k` steps from its goal, and it moves after us.
//!
//! Two steps from the end, the search ends in the threat rules of [`crate::knowledge`]:
//! the side to move wins in 2 exactly when one of its moves leaves the opponent a
//! double threat or a threat it cannot capture.

use breakthrough_engine::{Bitboard, Color, Position, Step, MAX_MOVES};

use crate::knowledge::{classify, Verdict};

/// Moves `colour`'s nearest piece needs to reach its goal (each move gains one rank);
/// `u32::MAX` without pieces.
#[inline]
pub(crate) fn distance(position: &Position, colour: Color) -> u32 {
    let board = position.board();
    let pieces = position.pieces(colour);
    match colour {
        Color::White => pieces
            .last()
            .map_or(u32::MAX, |index| board.height() - 1 - index / board.width()),
        Color::Black => pieces
            .first()
            .map_or(u32::MAX, |index| index / board.width()),
    }
}

/// `colour`'s pieces at most `k` moves from its goal.
#[inline]
fn runners(position: &Position, colour: Color, k: u32) -> Bitboard {
    let board = position.board();
    let below = |bits: u32| {
        if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        }
    };
    let mask = match colour {
        // Ranks H-1-k and up.
        Color::White => !below(board.width() * board.height().saturating_sub(k + 1)),
        // Ranks k and down.
        Color::Black => below(board.width() * (k + 1)),
    };
    Bitboard(position.pieces(colour).0 & mask)
}

/// A move with which the side to move wins within `k >= 2` of its own moves, if the
/// bounded search finds one. `None` when the opponent might reach its goal first.
pub(crate) fn race_win(position: &Position, k: u32) -> Option<Step> {
    let us = position.to_move();
    if k < 2 || distance(position, us.opponent()) < k || distance(position, us) > k {
        return None;
    }
    wins_within(position, k)
}

/// The search behind [`race_win`]; the opponent is known to be at least `k` away.
fn wins_within(position: &Position, k: u32) -> Option<Step> {
    let us = position.to_move();
    let movers = runners(position, us, k);
    if movers.is_empty() {
        return None;
    }
    let mut steps = [Step { from: 0, to: 0 }; MAX_MOVES];
    let mut count = 0;
    position.for_each_step(|step| {
        if movers.has(step.from.into()) {
            steps[count] = step;
            count += 1;
        }
    });
    steps[..count].iter().copied().find(|&step| {
        let next = position.play_step(step);
        if k == 2 {
            matches!(
                classify(&next),
                Verdict::GameOver | Verdict::DoubleThreat | Verdict::UnstoppableThreat
            )
        } else {
            next.winner() == Some(us) || every_reply_loses(&next, k - 1)
        }
    })
}

/// Whether, with the opponent to move, every reply leaves us a win within `k` moves.
fn every_reply_loses(position: &Position, k: u32) -> bool {
    let mut replies = [Step { from: 0, to: 0 }; MAX_MOVES];
    let mut count = 0;
    let ours = position.pieces(position.to_move().opponent());
    // Captures first: they are the likely refutations, and one ends the search.
    position.for_each_step(|step| {
        if ours.has(step.to.into()) {
            replies[count] = step;
            count += 1;
        }
    });
    let captures = count;
    position.for_each_step(|step| {
        if !ours.has(step.to.into()) {
            replies[count] = step;
            count += 1;
        }
    });
    debug_assert!(captures <= count);
    replies[..count]
        .iter()
        .all(|&reply| wins_within(&position.play_step(reply), k).is_some())
}
