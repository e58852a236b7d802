//! An index of a certificate's proof for people to walk through: for each position
//! the proof expands, the size and height of its subtree, so that the positions
//! below it can be listed without reading the whole stream again. It is for
//! display (the explorer's proof browser), not part of the verifier: check a
//! certificate with [`Certificate::verify`] before trusting what it shows.

use breakthrough_engine::{Position, Step};

use crate::certificate::Certificate;
use crate::claim::Claim;
use crate::encoding::Encoding;
use crate::nodes::replies_in_order;
use crate::settle::{settles, MAX_SETTLE_PLIES};
use crate::varint;

/// A position the proof expands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutlineNode {
    /// Where its tag starts in the node stream.
    pub offset: usize,
    /// Where its subtree ends in the node stream.
    pub end: usize,
    /// Positions expanded in its subtree, itself included (each once: a
    /// transposition counts where the proof first expands it).
    pub size: u64,
    /// Plies to the end of the longest game its subtree allows.
    pub height: u32,
    /// Plies from the root where the proof expands it (a hold-out's bound counts
    /// from there).
    pub ply: u32,
}

/// What the proof does at a position it reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Below {
    /// Expanded here: the node's number.
    Expanded(usize),
    /// Proven where the proof expanded it earlier: that node's number.
    Transposition(usize),
    /// Left to the verifier's bounded search, which settles it in this many plies.
    Settled(u32),
    /// Proven by another certificate (the top or a part of a campaign).
    Given,
    /// The game is over: the claim's side has won.
    Finished,
    /// A hold-out's bound is reached: the game goes on, and the claim is met.
    HeldOut,
}

/// A move of the proof from an expanded position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutlineMove {
    pub step: Step,
    pub after: Position,
    pub below: Below,
}

/// Why a stream could not be outlined.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the proof's node stream cannot be read at byte {at}: {why}")]
pub struct OutlineError {
    pub at: usize,
    pub why: &'static str,
}

/// The index of one certificate's proof.
#[derive(Clone, Debug)]
pub struct Outline {
    certificate: Certificate,
    nodes: Vec<OutlineNode>,
    /// Positions expanded at each ply.
    by_ply: Vec<u64>,
    first_reference: u64,
}

impl Outline {
    /// Indexes `certificate`'s proof in one pass over its stream.
    pub fn new(certificate: &Certificate) -> Result<Outline, OutlineError> {
        let given_tag = certificate.claim() == Claim::WinsGiven;
        let settled_tag = certificate.encoding() != Encoding::Squares;
        let mut outline = Outline {
            certificate: certificate.clone(),
            nodes: Vec::new(),
            by_ply: Vec::new(),
            first_reference: 1 + u64::from(given_tag) + u64::from(settled_tag),
        };
        let root = *certificate.root();
        if root.winner().is_none() {
            let mut at = 0;
            outline.index(&root, 0, &mut at)?;
        }
        Ok(outline)
    }

    /// The certificate outlined.
    pub fn certificate(&self) -> &Certificate {
        &self.certificate
    }

    /// The expanded positions, in the stream's order (the root is number 0).
    pub fn nodes(&self) -> &[OutlineNode] {
        &self.nodes
    }

    /// Positions expanded at each ply from the root.
    pub fn by_ply(&self) -> &[u64] {
        &self.by_ply
    }

    fn hold(&self) -> Option<u32> {
        match self.certificate.claim() {
            Claim::HoldsOut(plies) => Some(plies),
            _ => None,
        }
    }

    fn number(&self, at: &mut usize) -> Result<u64, OutlineError> {
        let stream = self.certificate.stream();
        let (value, length) =
            varint::read(stream.get(*at..).unwrap_or_default()).map_err(|_| OutlineError {
                at: *at,
                why: "a bad number",
            })?;
        *at += length;
        Ok(value)
    }

    /// Reads what the proof does at `position` (reached at `ply`) from `at`, with
    /// `next` the number the next expanded position gets; moves `at` past it.
    fn read_node(
        &self,
        position: &Position,
        ply: u32,
        at: &mut usize,
        next: usize,
    ) -> Result<Below, OutlineError> {
        if position.winner().is_some() {
            return Ok(Below::Finished);
        }
        if self.hold().is_some_and(|bound| ply >= bound) {
            return Ok(Below::HeldOut);
        }
        let start = *at;
        let tag = self.number(at)?;
        let bad = |why| OutlineError { at: start, why };
        if tag >= self.first_reference {
            let back = usize::try_from(tag - self.first_reference + 1).unwrap_or(usize::MAX);
            let id = next
                .checked_sub(back)
                .ok_or(bad("a reference before the start"))?;
            return Ok(Below::Transposition(id));
        }
        if tag == 1 && self.certificate.encoding() != Encoding::Squares {
            let claim = self.certificate.claim();
            let win_bound = match claim {
                Claim::WinsWithin(plies) => Some(plies),
                _ => None,
            };
            let plies = self
                .certificate
                .encoding()
                .settle_plies()
                .min(MAX_SETTLE_PLIES);
            let winner = self.certificate.winner();
            let height = settles(position, winner, self.hold(), win_bound, ply, plies)
                .ok_or(bad("a settled mark that does not settle"))?;
            return Ok(Below::Settled(height));
        }
        if tag > 0 {
            return Ok(Below::Given);
        }
        *at = start;
        Ok(Below::Expanded(next))
    }

    /// The winner's move at an expanded position whose moves start at `at`.
    fn winner_step(&self, position: &Position, at: &mut usize) -> Result<Step, OutlineError> {
        let start = *at;
        let bad = |why| OutlineError { at: start, why };
        let step = match self.certificate.encoding() {
            Encoding::Squares => {
                let stream = self.certificate.stream();
                let (Some(&from), Some(&to)) = (stream.get(*at), stream.get(*at + 1)) else {
                    return Err(bad("the stream ends"));
                };
                *at += 2;
                Step { from, to }
            }
            Encoding::Indexed { .. } => {
                let index = self.number(at)?;
                let legal = replies_in_order(position);
                *usize::try_from(index)
                    .ok()
                    .and_then(|index| legal.get(index))
                    .ok_or(bad("a move index past the legal moves"))?
            }
        };
        if !position.steps().contains(&step) {
            return Err(bad("an illegal move"));
        }
        Ok(step)
    }

    /// The steps the proof takes at `position` whose moves start at `at`: the
    /// winner's one, or every reply of the loser.
    fn steps_at(&self, position: &Position, at: &mut usize) -> Result<Vec<Step>, OutlineError> {
        if position.to_move() == self.certificate.winner() {
            return Ok(vec![self.winner_step(position, at)?]);
        }
        let start = *at;
        let replies = replies_in_order(position);
        if self.number(at)? != replies.len() as u64 {
            return Err(OutlineError {
                at: start,
                why: "a count of replies that is not the legal moves'",
            });
        }
        Ok(replies)
    }

    /// Indexes the expanded position at `at`; returns its height.
    fn index(
        &mut self,
        position: &Position,
        ply: u32,
        at: &mut usize,
    ) -> Result<u32, OutlineError> {
        let id = self.nodes.len();
        let offset = *at;
        if self.number(at)? != 0 {
            return Err(OutlineError {
                at: offset,
                why: "an expanded position without its tag",
            });
        }
        self.nodes.push(OutlineNode {
            offset,
            end: offset,
            size: 1,
            height: 0,
            ply,
        });
        if self.by_ply.len() <= ply as usize {
            self.by_ply.resize(ply as usize + 1, 0);
        }
        self.by_ply[ply as usize] += 1;
        let mut height = 0;
        for step in self.steps_at(position, at)? {
            let after = position.play_step(step);
            let below = match self.read_node(&after, ply + 1, at, self.nodes.len())? {
                Below::Expanded(_) => self.index(&after, ply + 1, at)?,
                Below::Transposition(id) => self
                    .nodes
                    .get(id)
                    .filter(|node| node.end > node.offset)
                    .map(|node| node.height)
                    .ok_or(OutlineError {
                        at: *at,
                        why: "a reference to a position not finished",
                    })?,
                Below::Settled(plies) => plies,
                Below::Given | Below::Finished | Below::HeldOut => 0,
            };
            height = height.max(1 + below);
        }
        let size = (self.nodes.len() - id) as u64;
        self.nodes[id] = OutlineNode {
            offset,
            end: *at,
            size,
            height,
            ply,
        };
        Ok(height)
    }

    /// The moves the proof takes at its expanded position number `id`, which is
    /// `position` (the caller walks from the root: positions are not kept), each
    /// with what the proof does after it.
    pub fn moves(&self, id: usize, position: &Position) -> Result<Vec<OutlineMove>, OutlineError> {
        let node = self.nodes.get(id).ok_or(OutlineError {
            at: 0,
            why: "no such expanded position",
        })?;
        let (mut at, ply) = (node.offset, node.ply);
        self.number(&mut at)?;
        let mut next = id + 1;
        let mut moves = Vec::new();
        for step in self.steps_at(position, &mut at)? {
            let after = position.play_step(step);
            let node = self.read_node(&after, ply + 1, &mut at, next)?;
            if let Below::Expanded(child) = node {
                let child_node = self.nodes.get(child).ok_or(OutlineError {
                    at,
                    why: "no such expanded position",
                })?;
                at = child_node.end;
                next += child_node.size as usize;
            }
            moves.push(OutlineMove {
                step,
                after,
                below: node,
            });
        }
        Ok(moves)
    }
}
