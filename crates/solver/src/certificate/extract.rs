//! Extraction: writes the winner's strategy out of a finished search, move by move.
//!
//! A position below the root whose claim holds within a few plies (see
//! [`ProofWriting::settle_plies`]) is marked settled, for the verifier to decide by
//! its own short search: one byte in place of the subtree. At the winner's other
//! positions it picks, in this order, a move that reaches the goal, a move into a
//! position the certificate already proves (a transposition costs a few bytes) or one proven elsewhere (see below),
//! or the move df-pn proves, searching again over the same table when the table has
//! lost the proof. At the loser's positions it takes every legal move, including
//! those the race rules skipped (they lose to a win in one).
//!
//! A bounded claim ([`Claim::WinsWithin`], [`Claim::HoldsOut`]) is written the same
//! way, each position searched with the bounded question for the plies left; a
//! position already written is referred to only where its proof covers the plies
//! left (a proof of a win no longer than them, or one that holds out at least as
//! long), and written again otherwise.
//!
//! What it has written it remembers in bounded memory ([`WrittenPositions`]): a
//! proof bigger than that is written with some positions more than once.
//!
//! With the claim [`Claim::WinsGiven`] (a campaign's part), a position below the
//! root that the search's positions proven elsewhere ([`crate::ProvenElsewhere`]) show won by
//! the winner is marked "proven elsewhere" instead of proven again; and the part
//! names the positions below its root whose proofs in it are big (see
//! [`Written::exported`]), so that later parts can refer to those in turn.

use breakthrough_engine::{Color, Move, Position, Step};

use breakthrough_proof::{holds_out, replies_in_order, wins_within, Certificate, Claim};
use breakthrough_proof::{Encoding, NodeWriter, DEFAULT_SETTLE_PLIES, MAX_SETTLE_PLIES};

use super::written::{Planned, WrittenPositions};
use crate::race_rules::move_to_goal;
use crate::search::dfpn::{Dfpn, Seen};
use crate::{Key, Pn, Stop};

/// Why no certificate came out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExtractError {
    #[error("extracting the proof stopped: {0}")]
    Stopped(#[from] Stop),
    /// A bug: the search proved a win that the extraction cannot follow.
    #[error("internal error: no winning move found at {0}, which the search proved won")]
    NoWinningMove(String),
    #[error("internal error: at {0}, a loser's reply ends the game")]
    LoserWins(String),
    #[error("internal error: the search proved a length of {0} plies, the proof is longer")]
    TooLong(u32),
}

/// How a proof is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofWriting {
    /// About this many bytes of the positions written are remembered, to refer back
    /// to (a proof bigger than that is written with some positions twice).
    pub memory: usize,
    /// Positions where the claim holds within this many plies are marked settled,
    /// for the verifier's own search (0: none; at most
    /// [`breakthrough_proof::MAX_SETTLE_PLIES`]).
    pub settle_plies: u32,
}

impl ProofWriting {
    /// Remembering about `memory` bytes, with the default plies to settle.
    pub fn with_memory(memory: usize) -> ProofWriting {
        ProofWriting {
            memory,
            settle_plies: DEFAULT_SETTLE_PLIES,
        }
    }
}

/// A certificate and the principal variation read from it.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The winner's strategy: a win ([`Claim::Wins`]), or for an exact length `L` a
    /// win within `L` plies.
    pub certificate: Certificate,
    /// For an exact length `L > 0`: the loser's strategy that holds out `L - 1` plies.
    pub hold: Option<Certificate>,
    /// The winner's moves and the loser's longest-resisting replies, to the end; for
    /// an exact length, perfect play (see [`Proof::is_perfect_play`]).
    pub principal_variation: Vec<Move>,
    /// Length of the longest game the proof allows, in plies.
    pub height: u32,
    /// Nodes searched again because the table had lost them.
    pub search_nodes: u64,
    /// Wall-clock seconds of the extraction.
    pub seconds: f64,
}

impl Proof {
    /// Whether this proves an exact length, so that its principal variation is
    /// perfect play (the fastest win against the longest defence), not just the
    /// line of one winning strategy.
    pub fn is_perfect_play(&self) -> bool {
        matches!(self.certificate.claim(), Claim::WinsWithin(_))
    }

    /// The certificate's parts: the winner's, then the loser's if there is one.
    pub fn parts(&self) -> Vec<Certificate> {
        std::iter::once(&self.certificate)
            .chain(&self.hold)
            .cloned()
            .collect()
    }

    /// Positions expanded in all parts.
    pub fn positions(&self) -> u64 {
        self.certificate.positions() + self.hold.as_ref().map_or(0, Certificate::positions)
    }

    /// The file's bytes (see [`breakthrough_proof::format`]): version 3, or for a
    /// proof spelled as the older versions, version 1 for a plain win and version 2
    /// with its parts for a length.
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.hold.is_none() {
            self.certificate.to_bytes()
        } else {
            breakthrough_proof::write_parts(&self.parts())
        }
    }

    /// The file format's version.
    pub fn format_version(&self) -> u16 {
        match self.certificate.encoding() {
            Encoding::Indexed { .. } => 3,
            Encoding::Squares if self.certificate.claim() == Claim::Wins => 1,
            Encoding::Squares => 2,
        }
    }
}

/// Reads a proof's moves back: from what its extraction remembers, or where that
/// forgot a position (a proof too big for its memory), from a proof of the same
/// claim written again from there, which the rest of the line then follows.
pub(crate) struct Recall {
    positions: WrittenPositions,
    /// The claim's side and its claim at the root.
    side: Color,
    claim: Claim,
    writing: ProofWriting,
}

impl Recall {
    pub fn new(
        positions: WrittenPositions,
        side: Color,
        claim: Claim,
        writing: ProofWriting,
    ) -> Recall {
        Recall {
            positions,
            side,
            claim,
            writing,
        }
    }

    /// The proof's move at `position`, `ply` plies below its root: the claim's
    /// side's move, or the opponent's longest-resisting reply.
    pub fn step(
        &mut self,
        search: &mut Dfpn<'_>,
        position: &Position,
        ply: u32,
    ) -> Result<Option<Step>, ExtractError> {
        if let Some((_, plan)) = self.positions.get(position) {
            return Ok(Some(plan.step));
        }
        if let Some(step) = self.settled_step(position, ply) {
            return Ok(Some(step));
        }
        let claim = match self.claim {
            Claim::WinsWithin(bound) => Claim::WinsWithin(bound.saturating_sub(ply)),
            Claim::HoldsOut(bound) => Claim::HoldsOut(bound.saturating_sub(ply)),
            claim => claim,
        };
        // The line goes on below this position, which the proof forgot: what was
        // remembered of the rest of the proof is of no more use.
        self.positions = WrittenPositions::new(0);
        let written = write_proof(search, position, self.side, claim, self.writing, 0)?;
        self.positions = written.positions;
        Ok(self.positions.get(position).map(|(_, plan)| plan.step))
    }
}

impl Recall {
    /// Where the proof marks `position` settled (`ply` plies below its root), the
    /// move of the settling search's line, so that the line is as long as the
    /// height the mark stands for: the claim's side's fastest win and the
    /// opponent's longest resistance (near a hold-out's bound, a move that holds
    /// out). `None` where the proof has no mark.
    fn settled_step(&self, position: &Position, ply: u32) -> Option<Step> {
        let settle = self.writing.settle_plies.min(MAX_SETTLE_PLIES);
        if settle == 0 || ply == 0 || position.winner().is_some() {
            return None;
        }
        let side = self.side;
        let steps = position.steps();
        let mut plies = settle;
        match self.claim {
            Claim::HoldsOut(bound) if bound.saturating_sub(ply) <= settle => {
                let left = bound.saturating_sub(ply);
                if !holds_out(position, side, left) {
                    return None;
                }
                let holds = |step: &Step| holds_out(&position.play_step(*step), side, left - 1);
                return if position.to_move() == side {
                    steps.into_iter().find(holds)
                } else {
                    steps.first().copied()
                };
            }
            Claim::WinsWithin(bound) => plies = plies.min(bound.saturating_sub(ply)),
            _ => {}
        }
        let depth = wins_within(position, side, plies)?;
        let after = |step: &Step| wins_within(&position.play_step(*step), side, depth - 1);
        if position.to_move() == side {
            steps
                .into_iter()
                .find(|step| after(step) == Some(depth - 1))
        } else {
            steps.into_iter().max_by_key(after)
        }
    }
}

/// The line from `root` whose moves `choose` picks (given the position and its ply),
/// to the end of the game or until it picks none.
pub(crate) fn line(
    root: &Position,
    mut choose: impl FnMut(&Position, u32) -> Result<Option<Step>, ExtractError>,
) -> Result<Vec<Move>, ExtractError> {
    let mut line = Vec::new();
    let mut position = *root;
    while position.winner().is_none() {
        let Some(step) = choose(&position, line.len() as u32)? else {
            break;
        };
        line.push(position.to_move_text(step));
        position = position.play_step(step);
    }
    Ok(line)
}

struct Extractor<'s, 'a> {
    search: &'s mut Dfpn<'a>,
    /// The claim's side.
    winner: Color,
    claim: Claim,
    positions: WrittenPositions,
    writer: NodeWriter,
    settle_plies: u32,
    /// The positions marked proven elsewhere, each once.
    given: Vec<Key>,
    given_seen: hashbrown::HashSet<Key>,
    /// Positions below the root whose proofs expand at least this many positions
    /// are exported (0: none).
    export_min: u64,
    exported: Vec<Position>,
}

/// Extracts a proof that `winner` wins `root`, which `search` has proven, written
/// as `writing` says.
pub(crate) fn extract(
    search: &mut Dfpn<'_>,
    root: &Position,
    winner: Color,
    writing: ProofWriting,
) -> Result<Proof, ExtractError> {
    let nodes_before = search.nodes();
    let started = std::time::Instant::now();
    let written = write_proof(search, root, winner, Claim::Wins, writing, 0)?;
    let mut recall = Recall::new(written.positions, winner, Claim::Wins, writing);
    let principal_variation = line(root, |position, ply| recall.step(search, position, ply))?;
    Ok(Proof {
        certificate: written.certificate,
        hold: None,
        principal_variation,
        height: written.height,
        search_nodes: search.nodes() - nodes_before,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// What [`write_proof`] wrote.
pub(crate) struct Written {
    pub certificate: Certificate,
    /// The longest game the proof allows.
    pub height: u32,
    /// The positions it still remembers, to read lines back from (see [`Recall`]).
    pub positions: WrittenPositions,
    /// The positions it marks proven elsewhere ([`Claim::WinsGiven`]), each once.
    pub given: Vec<Key>,
    /// Positions below the root that it expands, each with a proof in it of at least
    /// the `export_min` positions asked for: the winner wins each, by the proof's
    /// subtree there, which holds on its own (everything it reaches lies later in
    /// the game), so other proofs may take them as proven.
    pub exported: Vec<Position>,
}

/// Writes the proof of `claim` about `winner` at `root`, which `search` proves (its
/// table holds the proof, or what it has lost is searched again), as `writing`
/// says, exporting the positions whose proofs expand at least `export_min`
/// positions (0: none; see [`Written::exported`]).
pub(crate) fn write_proof(
    search: &mut Dfpn<'_>,
    root: &Position,
    winner: Color,
    claim: Claim,
    writing: ProofWriting,
    export_min: u64,
) -> Result<Written, ExtractError> {
    let settle_plies = writing.settle_plies.min(MAX_SETTLE_PLIES);
    let encoding = Encoding::Indexed {
        settle_plies: settle_plies as u8,
    };
    let mut extractor = Extractor {
        search,
        winner,
        claim,
        positions: WrittenPositions::new(writing.memory),
        writer: NodeWriter::with_encoding(claim, encoding),
        settle_plies,
        given: Vec::new(),
        given_seen: hashbrown::HashSet::new(),
        export_min,
        exported: Vec::new(),
    };
    let mut height = 0;
    if root.winner().is_none() {
        height = extractor.node(root, claim.plies().unwrap_or(0), 0)?;
        if let Claim::WinsWithin(bound) = claim {
            if height > bound {
                return Err(ExtractError::TooLong(bound));
            }
        }
    }
    Ok(Written {
        certificate: Certificate::new(*root, winner, claim, extractor.writer),
        height,
        positions: extractor.positions,
        given: extractor.given,
        exported: extractor.exported,
    })
}

impl Extractor<'_, '_> {
    /// Whether a position written with `plan` proves what a position `left` plies
    /// from the bound needs.
    fn covers(&self, plan: Planned, left: u32) -> bool {
        match self.claim {
            Claim::Wins | Claim::WinsGiven => true,
            Claim::WinsWithin(_) => u32::from(plan.height) <= left,
            Claim::HoldsOut(_) => u32::from(plan.left) >= left,
        }
    }

    /// Whether a mark settles `position`, `left` plies from the bound (as the
    /// format defines it; see [`breakthrough_proof::settle`]): the height the mark
    /// stands for, or `None`.
    fn settles(&self, position: &Position, left: u32) -> Option<u32> {
        let plies = self.settle_plies;
        if plies == 0 || position.winner().is_some() {
            return None;
        }
        let plies = match self.claim {
            Claim::HoldsOut(_) if left <= plies => {
                return holds_out(position, self.winner, left).then_some(left);
            }
            Claim::WinsWithin(_) => plies.min(left),
            _ => plies,
        };
        wins_within(position, self.winner, plies)
    }

    /// Whether the claim may take `position` as proven elsewhere: a position below
    /// the root (the root is what the proof is for), proven won by the winner.
    fn is_given(&self, position: &Position, ply: u32) -> bool {
        self.claim == Claim::WinsGiven
            && ply > 0
            && self
                .search
                .proven_wins(&Key::of(position))
                .is_some_and(|wins| wins == (position.to_move() == self.winner))
    }

    /// The table key of the question at a position `left` plies from the bound.
    fn key(&self, position: &Position, left: u32) -> Key {
        match self.claim {
            Claim::Wins | Claim::WinsGiven => Key::of(position),
            Claim::WinsWithin(_) => Key::within(position, self.winner, left),
            Claim::HoldsOut(_) => Key::within(position, self.winner.opponent(), left),
        }
    }

    /// Writes the proof of an unfinished position `left` plies from the bound and
    /// `ply` plies from the root; returns its height.
    fn node(&mut self, position: &Position, left: u32, ply: u32) -> Result<u32, ExtractError> {
        if matches!(self.claim, Claim::HoldsOut(_)) && left == 0 {
            return Ok(0);
        }
        if ply > 0 {
            if let Some(height) = self.settles(position, left) {
                self.writer.settled();
                return Ok(height);
            }
        }
        if let Some((id, plan)) = self.positions.get(position) {
            if self.covers(plan, left) {
                self.writer.refer(id);
                return Ok(plan.height.into());
            }
        }
        if self.is_given(position, ply) {
            self.writer.given();
            let key = Key::of(position);
            if self.given_seen.insert(key) {
                self.given.push(key);
            }
            // Its height is the other proof's, unknown here.
            return Ok(0);
        }
        self.search.check_stop()?;
        let id = self.writer.expand();
        let ply = u16::try_from(ply).unwrap_or(u16::MAX);
        self.positions.insert(position, id, ply, Planned::NONE);
        let next_ply = u32::from(ply) + 1;
        let (step, height) = if position.to_move() == self.winner {
            let step = self.winning_move(position, left)?;
            self.writer.winning_move(position, step);
            let next = position.play_step(step);
            let height = match next.winner() {
                Some(_) => 1,
                None => 1 + self.node(&next, left.saturating_sub(1), next_ply)?,
            };
            (step, height)
        } else {
            let replies = replies_in_order(position);
            self.writer.replies(replies.len());
            let mut longest = (replies[0], 0);
            for step in replies {
                let next = position.play_step(step);
                if next.winner().is_some() {
                    return Err(ExtractError::LoserWins(position.to_string()));
                }
                let height = 1 + self.node(&next, left.saturating_sub(1), next_ply)?;
                if height > longest.1 {
                    longest = (step, height);
                }
            }
            longest
        };
        let plan = Planned {
            step,
            // Games are far shorter than 65,535 plies (every move advances a piece).
            height: u16::try_from(height).expect("a game's length fits 16 bits"),
            left: u16::try_from(left).expect("a bound fits 16 bits"),
        };
        self.positions.plan(position, id, plan);
        if self.export_min > 0 && ply > 0 && self.writer.expanded() - id >= self.export_min {
            self.exported.push(*position);
        }
        Ok(height)
    }

    /// A move that keeps the claim, preferring the cheapest to prove.
    fn winning_move(&mut self, position: &Position, left: u32) -> Result<Step, ExtractError> {
        if let Some(step) = move_to_goal(position) {
            return Ok(step);
        }
        match self.claim {
            // The opponent cannot win on our move: any move holds out the last ply.
            Claim::HoldsOut(_) if left == 1 => return Ok(position.steps()[0]),
            Claim::WinsWithin(bound) if left == 0 => return Err(ExtractError::TooLong(bound)),
            _ => {}
        }
        let after = left.saturating_sub(1);
        if let Some(step) = position.steps().into_iter().find(|&step| {
            let next = position.play_step(step);
            self.is_given(&next, 1)
                || self
                    .positions
                    .get(&next)
                    .is_some_and(|(_, plan)| self.covers(plan, after))
        }) {
            return Ok(step);
        }
        let key = self.key(position, left);
        // Depth 1 keeps the root's reported numbers those of the solve.
        match self
            .search
            .mid(1, position, key, key.hash(), Pn::INF, Pn::INF, Seen::Never)?
        {
            (phi, _, Some(step)) if phi == Pn::ZERO => Ok(step),
            // A question decided without a move: the plies are used up.
            _ => Err(ExtractError::NoWinningMove(position.to_string())),
        }
    }
}
