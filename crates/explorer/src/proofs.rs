//! The proof browser: a certificate file given at start-up, verified, then indexed
//! ([`Outline`]) so that each position of its proof lists the moves the proof
//! takes there, each with the size and height of what proves it.

use std::path::Path;

use anyhow::Context;
use breakthrough_engine::Position;
use breakthrough_proof::outline::{Below, Outline};
use breakthrough_proof::{read_parts, verify_file, Claim};
use serde::{Deserialize, Serialize};

use crate::answers::side;
use breakthrough_result::Side;

/// A loaded certificate.
#[derive(Debug)]
pub struct Proofs {
    file: String,
    parts: Vec<Outline>,
    summary: Vec<PartAnswer>,
}

/// One part of a certificate file (a length's certificate has two).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartAnswer {
    pub index: usize,
    /// What it proves, in words: "black wins", "white wins within 26 plies", ...
    pub claim: String,
    /// The claim's side.
    pub side: Side,
    pub board: String,
    pub root: String,
    /// Positions the proof expands.
    pub positions: u64,
    /// Plies to the end of its longest game.
    pub height: u32,
    /// Positions expanded at each ply from the root.
    pub by_ply: Vec<u64>,
}

/// What the proof does at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// Expanded here.
    Expanded,
    /// Proven where the proof expands the same position earlier.
    Transposition,
    /// Left to the verifier's own search of a few plies.
    Settled,
    /// Proven by another certificate (another file of a campaign).
    Given,
    /// The game is over, won by the claim's side.
    Finished,
    /// A hold-out's bound is reached with the game going on.
    HeldOut,
}

/// A position of the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeAnswer {
    pub kind: NodeKind,
    /// The expanded position's number in the stream (a transposition's: the one
    /// it refers to).
    pub id: Option<usize>,
    /// Positions expanded below it, itself included (0 when it expands none here).
    pub size: u64,
    /// Plies to the end of the longest game below it.
    pub height: u32,
}

/// A move the proof takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub position: String,
    pub node: NodeAnswer,
}

/// `GET /api/v1/proof`: a position of the proof and the moves it takes there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofAnswer {
    pub file: String,
    pub parts: Vec<PartAnswer>,
    pub part: usize,
    /// The moves from the part's root.
    pub path: Vec<String>,
    pub position: String,
    pub ply: u32,
    pub to_move: Side,
    pub node: NodeAnswer,
    /// The winner's one move, or every reply of the loser; the largest subtree first.
    pub moves: Vec<ProofMove>,
}

impl Proofs {
    /// Reads and verifies the certificate file at `path`, then indexes each part.
    pub fn load(path: &Path) -> anyhow::Result<Proofs> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        verify_file(&bytes)
            .with_context(|| format!("{} does not verify; it is not shown", path.display()))?;
        let parts = read_parts(&bytes).with_context(|| format!("{}", path.display()))?;
        let parts: Vec<Outline> = parts
            .iter()
            .map(Outline::new)
            .collect::<Result<_, _>>()
            .with_context(|| format!("{}", path.display()))?;
        let summary = parts
            .iter()
            .enumerate()
            .map(|(index, outline)| {
                let certificate = outline.certificate();
                let winner = certificate.winner();
                let claim = match certificate.claim() {
                    Claim::Wins => format!("{winner} wins"),
                    Claim::WinsWithin(plies) => format!("{winner} wins within {plies} plies"),
                    Claim::HoldsOut(plies) => format!("{winner} holds out {plies} plies"),
                    Claim::WinsGiven => format!("{winner} wins, given positions proven elsewhere"),
                };
                PartAnswer {
                    index,
                    claim,
                    side: side(winner),
                    board: certificate.root().board().to_string(),
                    root: certificate.root().to_string(),
                    positions: certificate.positions(),
                    height: outline.nodes().first().map_or(0, |node| node.height),
                    by_ply: outline.by_ply().to_vec(),
                }
            })
            .collect();
        let file = path.file_name().map_or_else(
            || path.display().to_string(),
            |name| name.to_string_lossy().into(),
        );
        Ok(Proofs {
            file,
            parts,
            summary,
        })
    }

    fn node(outline: &Outline, below: Below) -> NodeAnswer {
        let expanded = |kind, id: usize| {
            let node = outline.nodes()[id];
            NodeAnswer {
                kind,
                id: Some(id),
                size: node.size,
                height: node.height,
            }
        };
        let leaf = |kind, height| NodeAnswer {
            kind,
            id: None,
            size: 0,
            height,
        };
        match below {
            Below::Expanded(id) => expanded(NodeKind::Expanded, id),
            Below::Transposition(id) => expanded(NodeKind::Transposition, id),
            Below::Settled(plies) => leaf(NodeKind::Settled, plies),
            Below::Given => leaf(NodeKind::Given, 0),
            Below::Finished => leaf(NodeKind::Finished, 0),
            Below::HeldOut => leaf(NodeKind::HeldOut, 0),
        }
    }

    /// The position `path` (move names) leads to from part `part`'s root.
    pub fn browse(&self, part: usize, path: &[String]) -> Result<ProofAnswer, String> {
        let outline = self.parts.get(part).ok_or_else(|| {
            format!(
                "part {part}: the certificate has parts 0 to {}",
                self.parts.len() - 1
            )
        })?;
        let mut position: Position = *outline.certificate().root();
        let mut below = if position.winner().is_some() {
            Below::Finished
        } else {
            Below::Expanded(0)
        };
        let mut moves = self.moves(outline, below, &position)?;
        for (ply, name) in path.iter().enumerate() {
            let found = moves.iter().find(|m| m.0 == *name).ok_or_else(|| {
                let taken: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
                format!(
                    "move {} `{name}`: the proof takes {} there",
                    ply + 1,
                    if taken.is_empty() {
                        "no move".to_string()
                    } else {
                        taken.join(", ")
                    }
                )
            })?;
            position = found.1;
            below = found.2;
            moves = self.moves(outline, below, &position)?;
        }
        let mut answers: Vec<ProofMove> = moves
            .into_iter()
            .map(|(mv, after, below)| ProofMove {
                mv,
                position: after.to_string(),
                node: Self::node(outline, below),
            })
            .collect();
        answers.sort_by_key(|m| std::cmp::Reverse(m.node.size));
        Ok(ProofAnswer {
            file: self.file.clone(),
            parts: self.summary.clone(),
            part,
            path: path.to_vec(),
            position: position.to_string(),
            ply: path.len() as u32,
            to_move: side(position.to_move()),
            node: Self::node(outline, below),
            moves: answers,
        })
    }

    /// The moves the proof takes at a position it reaches with `below`.
    fn moves(
        &self,
        outline: &Outline,
        below: Below,
        position: &Position,
    ) -> Result<Vec<(String, Position, Below)>, String> {
        let id = match below {
            Below::Expanded(id) | Below::Transposition(id) => id,
            _ => return Ok(Vec::new()),
        };
        let moves = outline
            .moves(id, position)
            .map_err(|err| format!("{}: {err}", self.file))?;
        Ok(moves
            .into_iter()
            .map(|m| (position.to_move_text(m.step).to_string(), m.after, m.below))
            .collect())
    }
}
