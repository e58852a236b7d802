//! Race wins: the side to move forces a piece onto its goal within `k` of its own
//! moves, whatever the opponent does.
//!
//! This is an exact bounded search, not a table of hand-written patterns: the side
//! to move tries the moves of its runners (its pieces at most `k` steps from the
//! goal; under a threat, the captures of the threatening piece), and each must beat
//! every legal reply, the opponent's own race to its goal included: a reply that
//! puts an enemy piece one step from its goal must be captured at once, and two such
//! pieces, or one that cannot be taken, end the try. Restricting the winner's moves
//! can only miss wins, never invent them, and the opponent's replies are all
//! searched, so a race win is a proof. Since the search handles the opponent's
//! threats itself, it applies wherever the opponent stands, not only while the
//! opponent's nearest piece is `k` steps from its goal.
//!
//! It works on the two armies as bare bitboards, without [`Position`]'s hash and move
//! lists: a race query is made for every position df-pn meets, and visits tens of
//! positions of its own. A side without moves loses the game, but the search does
//! not check for it: such a side has no move to try, or no reply that refutes, so
//! the search only misses the rare wins that rest on it.
//!
//! The last two moves of a race are answered in closed form, from attack sets,
//! instead of searched move by move: a win in two is a step onto a square of the
//! rank before the goal that no enemy piece attacks, and of the replies to it only
//! those of the two ranks in front of the goal can change that. The answers and
//! moves are the search's own (a test compares the two on random positions), at
//! the same nodes and a fraction of the time. The same reasoning prunes the moves
//! before them: with `k` moves left against an opponent with `k - 2` pieces two
//! steps from its own goal, each a threat that costs a move to answer, only
//! captures and steps onto the rank before the winner's goal are tried
//! ([`Geometry::threat_replies_last`]).
//!
//! The race search still takes about half of a solve; where that time goes, and a
//! cache of answers and a killer reply that were tried and not kept, are in
//! `docs/performance-log.md` ("Race rules", "Tried and not kept").

use breakthrough_engine::{Bitboard, Board, Color, Position, Step};

/// The board, with what the race search asks of it on every position.
#[derive(Clone, Copy)]
struct Geometry {
    board: Board,
    width: u32,
    height: u32,
    cells: u64,
    /// Each side's rank one step before its goal (White's first).
    pre_goal: [u64; 2],
    /// Each side's rank two steps before its goal.
    two_from_goal: [u64; 2],
    /// Each side's goal rank.
    goal: [u64; 2],
    /// Whether the last moves are answered in closed form ([`Geometry::wins_in_two`],
    /// [`Geometry::no_reply_stops_two`]) instead of searched: the same answers (the
    /// tests compare the two), at a fraction of the cost.
    closed_forms: bool,
}

/// The two armies, White's first; a side is an index into them.
type Armies = [u64; 2];

const WHITE: usize = 0;

impl Geometry {
    fn of(board: Board, closed_forms: bool) -> Geometry {
        Geometry {
            board,
            width: board.width(),
            height: board.height(),
            cells: board.cells().0,
            pre_goal: [board.rank(board.height() - 2).0, board.rank(1).0],
            two_from_goal: [
                board.rank(board.height().saturating_sub(3)).0,
                board.rank(2.min(board.height() - 1)).0,
            ],
            goal: [board.rank(board.height() - 1).0, board.rank(0).0],
            closed_forms,
        }
    }

    /// The targets of `side`'s `movers` in each direction, with the bit offset
    /// `to - from` of each (the engine's rules of movement).
    #[inline]
    fn targets(&self, armies: &Armies, side: usize, movers: u64) -> [(u64, i32); 3] {
        let colour = if side == WHITE {
            Color::White
        } else {
            Color::Black
        };
        let free = Bitboard(self.cells & !(armies[0] | armies[1]));
        self.board
            .step_targets(colour, Bitboard(movers), Bitboard(armies[side]), free)
            .map(|(set, offset)| (set.0, offset))
    }

    /// The squares `side`'s `pieces` attack: their diagonal steps, whatever stands
    /// there (the engine's rules of movement, with nothing of `side`'s own in the way).
    #[inline]
    fn attacks(&self, side: usize, pieces: u64) -> u64 {
        let colour = if side == WHITE {
            Color::White
        } else {
            Color::Black
        };
        let [_, (toward_a, _), (away_a, _)] =
            self.board
                .step_targets(colour, Bitboard(pieces), Bitboard(0), Bitboard(0));
        toward_a.0 | away_a.0
    }

    /// `side`'s squares at most `k` moves from its goal.
    #[inline]
    fn within(&self, side: usize, k: u32) -> u64 {
        let below = |bits: u32| {
            if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            }
        };
        if side == WHITE {
            self.cells & !below(self.width * self.height.saturating_sub(k + 1))
        } else {
            self.cells & below(self.width * (k + 1))
        }
    }

    /// Calls `visit` with each move of `side`'s `movers` whose target is in `onto`,
    /// until it returns `true`; returns that move.
    #[inline]
    fn find_move(
        &self,
        armies: &Armies,
        side: usize,
        movers: u64,
        onto: u64,
        visit: impl FnMut(Step) -> bool,
    ) -> Option<Step> {
        self.find_move_in_order(armies, side, movers, &[onto], visit)
    }

    /// [`Geometry::find_move`] with the targets in `ontos` tried in that order,
    /// each set's moves before the next set's, from one computation of the moves.
    #[inline]
    fn find_move_in_order(
        &self,
        armies: &Armies,
        side: usize,
        movers: u64,
        ontos: &[u64],
        mut visit: impl FnMut(Step) -> bool,
    ) -> Option<Step> {
        let targets = self.targets(armies, side, movers);
        for &onto in ontos {
            for (set, offset) in targets {
                let mut set = set & onto;
                while set != 0 {
                    let to = set.trailing_zeros();
                    set &= set - 1;
                    let step = Step {
                        from: (to as i32 - offset) as u8,
                        to: to as u8,
                    };
                    if visit(step) {
                        return Some(step);
                    }
                }
            }
        }
        None
    }
}

#[inline]
fn play(armies: &Armies, side: usize, step: Step) -> Armies {
    let mut next = *armies;
    let (from, to) = (1u64 << step.from, 1u64 << step.to);
    next[side] ^= from | to;
    next[1 - side] &= !to;
    next
}

fn armies_of(position: &Position) -> Armies {
    [
        position.pieces(Color::White).0,
        position.pieces(Color::Black).0,
    ]
}

/// The shortest race win of `from..=to` moves, with its length and first move, if
/// the bounded search finds one: each length in turn, the board worked out once.
/// The position must be open (see [`crate::race_rules::classify`]), so it has no
/// win in one, and lengths under 2 are not looked for (a `race_moves` of 0 or 1
/// asks for none).
pub(crate) fn shortest_race_win(position: &Position, from: u32, to: u32) -> Option<(u32, Step)> {
    let geometry = Geometry::of(position.board(), true);
    let armies = armies_of(position);
    let us = position.to_move() as usize;
    (from.max(2)..=to).find_map(|k| Some((k, geometry.race_win(&armies, us, k)?)))
}

/// A win within `k` moves, with the closed forms or without (the tests compare them).
#[cfg(test)]
pub(crate) fn race_win_with(position: &Position, k: u32, closed_forms: bool) -> Option<Step> {
    let geometry = Geometry::of(position.board(), closed_forms);
    geometry.race_win(&armies_of(position), position.to_move() as usize, k)
}

/// The search itself.
impl Geometry {
    /// A move with which `us`, to move, wins within `k` of its moves, if the search
    /// finds one; none below 2 moves, or with no piece within `k` steps of the goal.
    #[inline]
    fn race_win(&self, armies: &Armies, us: usize, k: u32) -> Option<Step> {
        if k < 2 || armies[us] & self.within(us, k) == 0 {
            return None;
        }
        self.wins_within(armies, us, k)
    }

    /// A move with which `us`, to move, wins within `k` of its moves; the opponent
    /// has not reached its goal.
    fn wins_within(&self, armies: &Armies, us: usize, k: u32) -> Option<Step> {
        let runners = armies[us] & self.pre_goal[us];
        if runners != 0 {
            return self.find_move(armies, us, runners, self.cells, |_| true);
        }
        let threats = armies[1 - us] & self.pre_goal[1 - us];
        if k < 2 || threats.count_ones() > 1 {
            return None;
        }
        if self.closed_forms && k == 2 && threats == 0 {
            return self.wins_in_two(armies, us);
        }
        let wins = |step| self.every_reply_loses(&play(armies, us, step), 1 - us, k - 1);
        // Under a threat only its captures can help.
        if threats != 0 {
            return self.find_move(armies, us, armies[us], threats, wins);
        }
        // Otherwise only the pieces that can still reach the goal in time, the moves
        // onto the rank before the goal first: a win is likelier there, and one ends
        // the search.
        let movers = armies[us] & self.within(us, k);
        let near = self.pre_goal[us];
        let rest = if self.closed_forms && self.threat_replies_last(armies, 1 - us, k) {
            armies[1 - us] & !near
        } else {
            self.cells & !near
        };
        self.find_move_in_order(armies, us, movers, &[near, rest], wins)
    }

    /// Whether `them` has a threat to answer each of the winner's remaining moves
    /// but the last two, whatever quiet move the winner makes now with `k >= 3`
    /// moves left: `k - 2` pieces two steps from its goal. Each steps onto the rank
    /// before its goal (diagonally, where nothing of its own stands: the rank is
    /// empty of its pieces, since a threat is captured at once) and must be
    /// captured, which costs the winner a move; the last threat leaves it one move,
    /// too few (see [`Geometry::no_reply_stops_two`], whose board of at least 5
    /// ranks this needs too). A quiet move cannot stop a diagonal step, so it loses
    /// unless it puts a piece on the rank before the winner's goal: only those and
    /// the captures are worth trying.
    #[inline]
    fn threat_replies_last(&self, armies: &Armies, them: usize, k: u32) -> bool {
        k >= 3
            && self.height >= 5
            && (armies[them] & self.two_from_goal[them]).count_ones() + 2 >= k
    }

    /// [`Geometry::wins_within`] two moves, with no runner and no threat, in closed
    /// form: a piece two steps from the goal steps onto a square of the rank before
    /// it that no enemy piece attacks. Nothing else can win: the piece must reach
    /// that rank now, and once there, only its capture can stop it, by a piece that
    /// attacks its square already (the opponent has no threat to play instead). The
    /// same move as the search's, which tries the moves in the same order.
    #[inline]
    fn wins_in_two(&self, armies: &Armies, us: usize) -> Option<Step> {
        let safe = self.pre_goal[us] & !self.attacks(1 - us, armies[1 - us]);
        let movers = armies[us] & self.within(us, 2);
        self.find_move(armies, us, movers, safe, |_| true)
    }

    /// [`Geometry::every_reply_loses`] two moves, with no threat of either side, on
    /// a board of at least 5 ranks: only the replies from the two ranks before the
    /// other side's goal need a look of their own.
    ///
    /// - A reply onto `them`'s own rank before its goal is a threat: the other side
    ///   must capture it, which puts no piece one step from its goal (the ranks are
    ///   apart), so no win in two is left. Such a reply refutes.
    /// - Any other reply of a piece further from that goal lands further still: it
    ///   takes no piece two steps from the goal, frees no square of the rank before
    ///   it and moves no piece attacking that rank, so the win in two is as it was
    ///   before the reply ([`Geometry::wins_in_two`]).
    fn no_reply_stops_two(&self, armies: &Armies, them: usize) -> bool {
        let us = 1 - them;
        let reaches = |movers: u64, onto: u64| {
            self.targets(armies, them, movers)
                .iter()
                .any(|&(set, _)| set & onto != 0)
        };
        if reaches(armies[them], self.pre_goal[them]) {
            return false;
        }
        let near = armies[them] & (self.goal[us] | self.pre_goal[us]);
        if reaches(armies[them] & !near, self.cells) && self.wins_in_two(armies, us).is_none() {
            return false;
        }
        self.find_move(armies, them, near, self.cells, |reply| {
            self.wins_in_two(&play(armies, them, reply), us).is_none()
        })
        .is_none()
    }

    /// Whether, with `them` to move, every reply leaves the other side a win within
    /// `k >= 1` of its moves.
    fn every_reply_loses(&self, armies: &Armies, them: usize, k: u32) -> bool {
        let us = 1 - them;
        if armies[them] & self.pre_goal[them] != 0 {
            return false;
        }
        let threats = armies[us] & self.pre_goal[us];
        if threats.count_ones() > 1 {
            return true;
        }
        let onto = if threats != 0 {
            // Any other reply lets the threat through: only its captures need an answer.
            threats
        } else {
            if k < 2 || armies[us] & self.within(us, k) == 0 {
                return false;
            }
            if self.closed_forms && k == 2 && self.height >= 5 {
                return self.no_reply_stops_two(armies, them);
            }
            self.cells
        };
        // Captures first, then the opponent's threats, which must be answered at once:
        // they are the likely refutations, and one ends the search.
        let quiet = onto & !armies[us];
        let ontos = [
            onto & armies[us],
            quiet & self.pre_goal[them],
            quiet & !self.pre_goal[them],
        ];
        let refuted = self.find_move_in_order(armies, them, armies[them], &ontos, |reply| {
            self.wins_within(&play(armies, them, reply), us, k)
                .is_none()
        });
        refuted.is_none()
    }
}
