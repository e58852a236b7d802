//! The checker: replays a certificate with the engine's rules and nothing else (no
//! search, no race rules, no table).

use breakthrough_engine::{Color, Position, Step};

use crate::certificate::Certificate;
use crate::claim::Claim;
use crate::encoding::Encoding;
use crate::nodes::replies_in_order;
use crate::settle::{settles, MAX_SETTLE_PLIES};
use crate::varint::{self, VarintError};

/// What a valid certificate contains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    pub root: Position,
    /// The claim's side: the winner, or for [`Claim::HoldsOut`] the side holding out.
    pub winner: Color,
    /// What the certificate proves of its side.
    pub claim: Claim,
    /// Distinct positions checked (expanded in the certificate).
    pub positions: u64,
    /// Of those, positions where the winner moves (one move each).
    pub winner_positions: u64,
    /// Of those, positions where the loser moves (every reply each).
    pub loser_positions: u64,
    /// Loser replies checked, summed over the loser's positions.
    pub loser_replies: u64,
    /// Moves that lead back to a position proven elsewhere in the certificate.
    pub transpositions: u64,
    /// Moves that end the game (won by the winner).
    pub finished_games: u64,
    /// Positions marked settled, which the checker decided by its own bounded
    /// search (version 3; see [`crate::settle`]).
    pub settled: u64,
    /// The most plies a mark may leave to that search (0 before version 3).
    pub settle_plies: u32,
    /// The longest game the proof allows, in plies: its depth.
    pub height: u32,
    /// Positions by the ply at which the certificate first reaches them.
    pub depth_histogram: Vec<u64>,
    /// For [`Claim::WinsGiven`]: the positions the proof takes as proven elsewhere
    /// (won by the claim's side), each once, in the order first reached; the claim
    /// holds only if other certificates prove them.
    pub given: Vec<Position>,
}

impl VerifyReport {
    fn empty(certificate: &Certificate) -> VerifyReport {
        VerifyReport {
            root: certificate.root,
            winner: certificate.winner,
            claim: certificate.claim,
            positions: 0,
            winner_positions: 0,
            loser_positions: 0,
            loser_replies: 0,
            transpositions: 0,
            finished_games: 0,
            settled: 0,
            settle_plies: certificate.encoding.settle_plies(),
            height: 0,
            depth_histogram: Vec::new(),
            given: Vec::new(),
        }
    }

    /// The loser's mean number of legal moves at its positions in the proof.
    pub fn loser_branching(&self) -> f64 {
        self.loser_replies as f64 / self.loser_positions.max(1) as f64
    }
}

/// Why a certificate does not prove what it claims.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the proof fails at ply {ply}, position {position}: {problem}")]
    Invalid {
        ply: u32,
        position: String,
        problem: Problem,
    },
    #[error("the proof is complete, but {0} bytes follow it")]
    TrailingBytes(usize),
    #[error("the header counts {header} positions, the proof has {found}")]
    PositionCount { header: u64, found: u64 },
    #[error("the proof allows a game of {height} plies, longer than the {bound} it claims")]
    TooLong { height: u32, bound: u32 },
    #[error("the parts do not prove an exact length: {0}")]
    NotALength(String),
    #[error("the proof does not prove {0}, which it should prove on the way")]
    NotExpanded(String),
}

/// What is wrong at a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("the certificate ends here")]
    EndOfStream,
    #[error("a number in the node stream is malformed")]
    BadNumber,
    #[error("a number in the node stream is not in its shortest form")]
    OverlongNumber,
    #[error("the winner's move {0} is not legal")]
    IllegalMove(String),
    #[error("the winner's move is index {index}, past the {legal} legal moves")]
    MoveIndex { index: u64, legal: usize },
    #[error("the position is marked settled, but the claim does not hold within {0} plies")]
    NotSettled(u32),
    #[error("the certificate answers {claimed} loser moves, there are {legal}")]
    ReplyCount { claimed: u64, legal: usize },
    #[error("the game is over and {0} has won")]
    WrongWinner(Color),
    #[error("the reply {0} wins for the loser")]
    LoserWins(String),
    #[error("a reference {back} positions back, but only {expanded} were expanded")]
    BadReference { back: u64, expanded: u64 },
    #[error("a reference to position #{0}, which is a different position")]
    ReferenceMismatch(u64),
    #[error("a reference to position #{0}, whose proof is not finished (circular)")]
    CircularReference(u64),
    #[error("the move {0} wins for the opponent within the plies to hold out")]
    OpponentWins(String),
    #[error(
        "a reference to position #{id}, which holds out from ply {expanded} on, not from ply {ply}"
    )]
    ShortReference { id: u64, expanded: u32, ply: u32 },
}

/// Height marker of a position whose proof is still being checked.
const IN_PROGRESS: u16 = 0x7fff;
const BLACK_TO_MOVE: u16 = 0x8000;

/// What the checker keeps of an expanded position.
#[derive(Clone, Copy)]
struct Expanded {
    armies: [u64; 2],
    /// The height, plus the side-to-move bit.
    height: u16,
    /// The ply where it was expanded.
    ply: u32,
}

struct Checker<'a> {
    stream: &'a [u8],
    at: usize,
    winner: Color,
    /// The plies to hold out, for [`Claim::HoldsOut`].
    hold: Option<u32>,
    /// The plies to win within, for [`Claim::WinsWithin`].
    win_bound: Option<u32>,
    encoding: Encoding,
    /// The smallest tag of a reference back.
    first_reference: u64,
    /// The given positions met so far.
    given: hashbrown::HashSet<Position>,
    /// Positions the proof must expand that it has not expanded yet.
    wanted: hashbrown::HashSet<Position>,
    expanded: Vec<Expanded>,
    report: VerifyReport,
}

impl Certificate {
    /// Checks the proof with the rules alone: every position of the loser answers all
    /// its legal moves, every move of the winner is legal, every game in the proof ends
    /// won by the claimed winner, and every reference names the same position.
    ///
    /// For [`Claim::WinsWithin`], no game in the proof may be longer than the bound;
    /// for [`Claim::HoldsOut`], the games stop at the bound, none may end won by the
    /// opponent before, and a reference must come no earlier than the position's
    /// expansion (see the format). For [`Claim::WinsGiven`], the proof holds only
    /// if other certificates prove every position of [`VerifyReport::given`]: the
    /// caller's business (a campaign's checker does it).
    pub fn verify(&self) -> Result<VerifyReport, VerifyError> {
        self.verify_expanding(&[])
    }

    /// Checks the proof as [`Certificate::verify`] does, and that it expands each of
    /// `positions` (exactly, not a mirror image): then the claim's side wins each of
    /// them too (given the positions proven elsewhere), by the proof's subtree there.
    pub fn verify_expanding(&self, positions: &[Position]) -> Result<VerifyReport, VerifyError> {
        let hold = match self.claim {
            Claim::HoldsOut(plies) => Some(plies),
            _ => None,
        };
        let given_tag = self.claim == Claim::WinsGiven;
        let settled_tag = self.encoding != Encoding::Squares;
        let mut checker = Checker {
            stream: &self.stream,
            at: 0,
            winner: self.winner,
            hold,
            win_bound: match self.claim {
                Claim::WinsWithin(plies) => Some(plies),
                _ => None,
            },
            encoding: self.encoding,
            first_reference: 1 + u64::from(given_tag) + u64::from(settled_tag),
            given: hashbrown::HashSet::new(),
            wanted: positions.iter().copied().collect(),
            expanded: Vec::new(),
            report: VerifyReport::empty(self),
        };
        let height = checker.root(&self.root)?;
        if checker.at != self.stream.len() {
            return Err(VerifyError::TrailingBytes(self.stream.len() - checker.at));
        }
        if let Some(missing) = checker.wanted.iter().next() {
            return Err(VerifyError::NotExpanded(missing.to_string()));
        }
        let mut report = checker.report;
        if report.positions != self.positions {
            return Err(VerifyError::PositionCount {
                header: self.positions,
                found: report.positions,
            });
        }
        // A hold-out's games stop at its bound (a reference may reach past it).
        report.height = hold.map_or(height, |bound| height.min(bound));
        if let Claim::WinsWithin(bound) = self.claim {
            if height > bound {
                return Err(VerifyError::TooLong { height, bound });
            }
        }
        Ok(report)
    }
}

impl Checker<'_> {
    /// Checks the proof from the root; returns its height.
    fn root(&mut self, root: &Position) -> Result<u32, VerifyError> {
        match root.winner() {
            Some(winner) if winner == self.winner => Ok(0),
            Some(winner) => Err(VerifyError::Invalid {
                ply: 0,
                position: root.to_string(),
                problem: Problem::WrongWinner(winner),
            }),
            None => self.node(root, 0),
        }
    }

    fn byte(&mut self) -> Option<u8> {
        let byte = *self.stream.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn number(&mut self) -> Result<u64, Problem> {
        let (value, length) = varint::read(&self.stream[self.at..]).map_err(|err| match err {
            VarintError::End => Problem::EndOfStream,
            VarintError::Overflow => Problem::BadNumber,
            VarintError::Overlong => Problem::OverlongNumber,
        })?;
        self.at += length;
        Ok(value)
    }

    /// Checks the proof of an unfinished position reached at `ply`; returns its height.
    fn node(&mut self, position: &Position, ply: u32) -> Result<u32, VerifyError> {
        let fail = |problem| invalid(position, ply, problem);
        if self.hold.is_some_and(|bound| ply >= bound) {
            // Held out to the bound: the game goes on, and the claim is met.
            return Ok(0);
        }
        let tag = self.number().map_err(fail)?;
        if tag >= self.first_reference {
            let back = tag - self.first_reference + 1;
            return self.reference(position, ply, back).map_err(fail);
        }
        if tag == 1 && self.encoding != Encoding::Squares {
            return self.settled(position, ply).map_err(fail);
        }
        if tag > 0 {
            // The tag just below the references: "proven elsewhere"; the whole
            // proof's checker must find that proof.
            if self.given.insert(*position) {
                self.report.given.push(*position);
            }
            return Ok(0);
        }
        let id = self.expand(position, ply);
        let height = if position.to_move() == self.winner {
            self.winner_node(position, ply)?
        } else {
            self.loser_node(position, ply)?
        };
        // Heights are bounded by the length of a game (under 2^14 plies on 64 squares).
        let side = self.expanded[id].height & BLACK_TO_MOVE;
        self.expanded[id].height = side | height.min(u32::from(IN_PROGRESS) - 1) as u16;
        Ok(height)
    }

    /// A reference `tag` expansions back: checks that it names this position, with
    /// a finished proof that covers this ply; returns its height.
    fn reference(&mut self, position: &Position, ply: u32, tag: u64) -> Result<u32, Problem> {
        let count = self.expanded.len() as u64;
        let id = count.checked_sub(tag).ok_or(Problem::BadReference {
            back: tag,
            expanded: count,
        })?;
        let earlier = self.expanded[id as usize];
        if earlier.armies != armies(position) || earlier.height & BLACK_TO_MOVE != side(position) {
            return Err(Problem::ReferenceMismatch(id));
        }
        if earlier.height & !BLACK_TO_MOVE == IN_PROGRESS {
            return Err(Problem::CircularReference(id));
        }
        if self.hold.is_some() && ply < earlier.ply {
            return Err(Problem::ShortReference {
                id,
                expanded: earlier.ply,
                ply,
            });
        }
        self.report.transpositions += 1;
        Ok(u32::from(earlier.height & !BLACK_TO_MOVE))
    }

    /// A position marked settled: decides it by the bounded search the format
    /// allows; returns the height the mark stands for.
    fn settled(&mut self, position: &Position, ply: u32) -> Result<u32, Problem> {
        // A certificate made in memory may ask for more; the format never does.
        let plies = self.encoding.settle_plies().min(MAX_SETTLE_PLIES);
        let height = settles(position, self.winner, self.hold, self.win_bound, ply, plies)
            .ok_or(Problem::NotSettled(plies))?;
        self.report.settled += 1;
        Ok(height)
    }

    /// Numbers a position expanded at `ply`, and counts it; returns its number.
    fn expand(&mut self, position: &Position, ply: u32) -> usize {
        if !self.wanted.is_empty() {
            self.wanted.remove(position);
        }
        self.expanded.push(Expanded {
            armies: armies(position),
            height: side(position) | IN_PROGRESS,
            ply,
        });
        self.report.positions += 1;
        let histogram = &mut self.report.depth_histogram;
        if histogram.len() <= ply as usize {
            histogram.resize(ply as usize + 1, 0);
        }
        histogram[ply as usize] += 1;
        self.expanded.len() - 1
    }

    /// The winner's move and the proof after it; returns the height.
    fn winner_node(&mut self, position: &Position, ply: u32) -> Result<u32, VerifyError> {
        self.report.winner_positions += 1;
        let step = match self.encoding {
            Encoding::Squares => {
                let (Some(from), Some(to)) = (self.byte(), self.byte()) else {
                    return Err(invalid(position, ply, Problem::EndOfStream));
                };
                let step = Step { from, to };
                if !position.steps().contains(&step) {
                    let problem = Problem::IllegalMove(step_text(position, step));
                    return Err(invalid(position, ply, problem));
                }
                step
            }
            Encoding::Indexed { .. } => {
                let index = self.number().map_err(|p| invalid(position, ply, p))?;
                let legal = replies_in_order(position);
                let Some(&step) = usize::try_from(index).ok().and_then(|i| legal.get(i)) else {
                    let problem = Problem::MoveIndex {
                        index,
                        legal: legal.len(),
                    };
                    return Err(invalid(position, ply, problem));
                };
                step
            }
        };
        let next = position.play_step(step);
        match next.winner() {
            Some(winner) if winner == self.winner => {
                self.report.finished_games += 1;
                Ok(1)
            }
            Some(winner) => Err(invalid(&next, ply + 1, Problem::WrongWinner(winner))),
            None => Ok(1 + self.node(&next, ply + 1)?),
        }
    }

    /// Every reply of the loser and the proof after each; returns the height.
    fn loser_node(&mut self, position: &Position, ply: u32) -> Result<u32, VerifyError> {
        let fail = |problem| invalid(position, ply, problem);
        self.report.loser_positions += 1;
        let replies = replies_in_order(position);
        let claimed = self.number().map_err(fail)?;
        if claimed != replies.len() as u64 {
            let legal = replies.len();
            return Err(fail(Problem::ReplyCount { claimed, legal }));
        }
        self.report.loser_replies += claimed;
        let mut height = 0;
        for step in replies {
            let next = position.play_step(step);
            if next.winner().is_some() {
                let text = position.to_move_text(step).to_string();
                return Err(fail(if self.hold.is_some() {
                    Problem::OpponentWins(text)
                } else {
                    Problem::LoserWins(text)
                }));
            }
            height = height.max(1 + self.node(&next, ply + 1)?);
        }
        Ok(height)
    }
}

fn invalid(position: &Position, ply: u32, problem: Problem) -> VerifyError {
    VerifyError::Invalid {
        ply,
        position: position.to_string(),
        problem,
    }
}

fn armies(position: &Position) -> [u64; 2] {
    [
        position.pieces(Color::White).0,
        position.pieces(Color::Black).0,
    ]
}

fn side(position: &Position) -> u16 {
    if position.to_move() == Color::Black {
        BLACK_TO_MOVE
    } else {
        0
    }
}

/// A move named by its squares' bit indices, which may lie off the board.
fn step_text(position: &Position, step: Step) -> String {
    let board = position.board();
    let name = |index: u8| {
        if u32::from(index) < board.squares() {
            board.square(index.into()).to_string()
        } else {
            format!("#{index}")
        }
    };
    format!("{}-{}", name(step.from), name(step.to))
}
