//! The verifier against certificates written by an independent, test-local prover,
//! honest and tampered, and against damaged files.
//!
//! The provers also make the certificates that the submodules mutate and tamper
//! with.

mod mutations;
mod outline;
mod results;
mod settle;
mod strict;

use std::collections::HashMap;

use breakthrough_engine::{Color, Position, Step};

use crate::testing::rules_only_wins as wins;
use crate::{read_parts, replies_in_order, verify_length, write_parts};
use crate::{Certificate, Claim, Encoding, FormatError, NodeWriter, VerifyError};

/// A way to spoil a proof, applied at the `at`-th position of the kind it concerns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tamper {
    None,
    /// Claim one reply fewer and leave the last one out.
    DropReply(usize),
    /// Keep the count but leave the last reply's proof out.
    DropReplyProof(usize),
    /// Play a losing move instead of the winning one.
    LosingMove(usize),
    /// A transposition that names the wrong position.
    WrongReference(usize),
    /// Mark settled a position of the winner that it does not win within the
    /// plies the format allows, and write no proof of it.
    FalseMark(usize),
}

/// Whether `side` forces a game won by it within `plies` plies: plain minimax over
/// the rules, independent of the verifier's search.
fn wins_by_minimax(position: &Position, side: Color, plies: u32) -> bool {
    forces_by_minimax(position, side, plies, false)
}

/// Whether `side` forces, within `plies` plies, a game won by it or (with
/// `horizon`) one still going on after them: plain minimax over the rules, with no
/// ordering and no shortcut, to check the verifier's search against.
pub(crate) fn forces_by_minimax(
    position: &Position,
    side: Color,
    plies: u32,
    horizon: bool,
) -> bool {
    match position.winner() {
        Some(winner) => winner == side,
        None if plies == 0 => horizon,
        None => {
            let mut children = position
                .steps()
                .into_iter()
                .map(|step| forces_by_minimax(&position.play_step(step), side, plies - 1, horizon));
            if position.to_move() == side {
                children.any(|won| won)
            } else {
                children.all(|won| won)
            }
        }
    }
}

/// A test-local prover: writes a proof by exhaustive search, with the format's
/// writer but none of the solver's search or extraction.
struct Prover {
    winner: Color,
    memo: HashMap<Position, bool>,
    ids: HashMap<Position, u64>,
    writer: NodeWriter,
    tamper: Tamper,
    /// Positions seen of each kind, to find the one to tamper with.
    loser_seen: usize,
    winner_seen: usize,
    references: usize,
    /// Positions of the winner that could not be marked settled.
    unsettled_seen: usize,
    tampered: bool,
}

/// Version 3 with marks of up to 3 plies: what [`Prover::prove_marking`] writes.
const MARKS: Encoding = Encoding::Indexed { settle_plies: 3 };

impl Prover {
    /// A proof in version 3's spelling, with no position marked settled.
    fn prove(root: &Position, tamper: Tamper) -> (Certificate, bool) {
        Prover::prove_with(root, tamper, Encoding::Indexed { settle_plies: 0 })
    }

    /// A proof in version 3's spelling that marks settled every position the
    /// winner wins within the plies `MARKS` allows (the root aside).
    fn prove_marking(root: &Position, tamper: Tamper) -> (Certificate, bool) {
        Prover::prove_with(root, tamper, MARKS)
    }

    /// A proof spelled as `encoding` says, marking settled the positions it may.
    fn prove_with(root: &Position, tamper: Tamper, encoding: Encoding) -> (Certificate, bool) {
        let mut memo = HashMap::new();
        let winner = if wins(root, &mut memo) {
            root.to_move()
        } else {
            root.to_move().opponent()
        };
        let mut prover = Prover {
            winner,
            memo,
            ids: HashMap::new(),
            writer: NodeWriter::with_encoding(Claim::Wins, encoding),
            tamper,
            loser_seen: 0,
            winner_seen: 0,
            references: 0,
            unsettled_seen: 0,
            tampered: false,
        };
        prover.node(root);
        let tampered = prover.tampered;
        (
            Certificate::new(*root, winner, Claim::Wins, prover.writer),
            tampered,
        )
    }

    fn node(&mut self, position: &Position) {
        if position.winner().is_some() {
            return;
        }
        if let Some(&id) = self.ids.get(position) {
            self.references += 1;
            if self.tamper == Tamper::WrongReference(self.references) && id > 0 {
                self.tampered = true;
                self.writer.refer(id - 1);
            } else {
                self.writer.refer(id);
            }
            return;
        }
        let settle = self.writer.encoding().settle_plies();
        if settle > 0 && !self.ids.is_empty() {
            if wins_by_minimax(position, self.winner, settle) {
                self.writer.settled();
                return;
            }
            if position.to_move() == self.winner {
                self.unsettled_seen += 1;
                if self.tamper == Tamper::FalseMark(self.unsettled_seen) {
                    self.tampered = true;
                    self.writer.settled();
                    return;
                }
            }
        }
        let id = self.writer.expand();
        self.ids.insert(*position, id);
        if position.to_move() == self.winner {
            self.winner_seen += 1;
            let steps = position.steps();
            let good = |step: &Step, memo: &mut HashMap<Position, bool>| {
                !wins(&position.play_step(*step), memo)
            };
            // Below a tampered move no winning move may exist: any move will do then.
            let mut chosen = *steps
                .iter()
                .find(|s| good(s, &mut self.memo))
                .unwrap_or(&steps[0]);
            if self.tamper == Tamper::LosingMove(self.winner_seen) {
                if let Some(bad) = steps.iter().find(|s| !good(s, &mut self.memo)) {
                    self.tampered = true;
                    chosen = *bad;
                }
            }
            self.writer.winning_move(position, chosen);
            self.node(&position.play_step(chosen));
        } else {
            self.loser_seen += 1;
            let mut replies = replies_in_order(position);
            let n = self.loser_seen;
            let drop_proof = self.tamper == Tamper::DropReplyProof(n) && replies.len() > 1;
            if self.tamper == Tamper::DropReply(n) {
                self.tampered = true;
                replies.pop();
            }
            self.writer.replies(replies.len() + usize::from(drop_proof));
            if drop_proof {
                self.tampered = true;
                replies.pop();
            }
            for step in replies {
                self.node(&position.play_step(step));
            }
        }
    }
}

fn start(size: &str) -> Position {
    Position::start(size.parse().unwrap())
}

#[test]
fn honest_proofs_verify_and_false_claims_fail() {
    for size in ["3x4", "4x4", "5x4", "2x6", "3x5"] {
        let root = start(size);
        for encoding in [
            Encoding::Squares,
            Encoding::Indexed { settle_plies: 0 },
            MARKS,
        ] {
            let (certificate, _) = Prover::prove_with(&root, Tamper::None, encoding);
            let report = certificate
                .verify()
                .unwrap_or_else(|e| panic!("{size}: {e}"));
            assert_eq!(report.positions, certificate.positions());
            assert_eq!(report.settled > 0, encoding == MARKS, "{size}");
            let other = certificate.winner().opponent();
            assert!(
                certificate.with_claimed_winner(other).verify().is_err(),
                "{size}"
            );
            // Through the file format, compressed either way.
            let read = Certificate::from_bytes(&certificate.to_bytes()).unwrap();
            assert_eq!(read, certificate);
            assert!(read.verify().is_ok(), "{size}");
            assert!(read.with_claimed_winner(other).verify().is_err(), "{size}");
            let fast = certificate.to_bytes_with(crate::Compression::Fast);
            assert_eq!(Certificate::from_bytes(&fast).unwrap(), certificate);
        }
    }
}

#[test]
fn marks_make_proofs_smaller_and_no_longer() {
    let root = start("4x4");
    let plain = Prover::prove(&root, Tamper::None).0;
    let marked = Prover::prove_marking(&root, Tamper::None).0;
    let (plain_report, marked_report) = (plain.verify().unwrap(), marked.verify().unwrap());
    assert!(
        marked.stream.len() * 2 < plain.stream.len(),
        "{} bytes marked, {} not",
        marked.stream.len(),
        plain.stream.len()
    );
    // A mark stands for its fastest win, where the plain proof plays the first
    // winning move it finds: no game gets longer.
    assert!(marked_report.height <= plain_report.height);
    // The same marks with fewer plies allowed: some of them no longer hold.
    let short = Certificate {
        encoding: Encoding::Indexed { settle_plies: 1 },
        ..marked.clone()
    };
    assert!(matches!(
        short.verify(),
        Err(VerifyError::Invalid {
            problem: crate::Problem::NotSettled(1),
            ..
        })
    ));
}

#[test]
fn every_kind_of_tampering_fails() {
    let root = start("4x4");
    let mut caught = HashMap::new();
    for at in 1..40 {
        for tamper in [
            Tamper::DropReply(at),
            Tamper::DropReplyProof(at),
            Tamper::LosingMove(at),
            Tamper::WrongReference(at),
            Tamper::FalseMark(at),
        ] {
            for prove in [Prover::prove, Prover::prove_marking] {
                let (certificate, tampered) = prove(&root, tamper);
                if !tampered {
                    continue;
                }
                let err = certificate.verify().expect_err(&format!("{tamper:?}"));
                *caught.entry(std::mem::discriminant(&tamper)).or_insert(0) += 1;
                // Through the file too: the checksum is right, the proof is not.
                let read = Certificate::from_bytes(&certificate.to_bytes()).unwrap();
                assert_eq!(read.verify(), Err(err));
            }
        }
    }
    assert_eq!(caught.len(), 5, "every kind tried");
    assert!(caught.values().all(|&n| n >= 10), "{caught:?}");
}

#[test]
fn damaged_files_are_rejected() {
    for size in ["3x4", "4x4"] {
        let bytes = Prover::prove(&start(size), Tamper::None).0.to_bytes();
        assert!(Certificate::from_bytes(&bytes).unwrap().verify().is_ok());
        for i in 0..bytes.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[i] ^= flip;
                let result = Certificate::from_bytes(&damaged).map(|c| c.verify());
                assert!(
                    !matches!(result, Ok(Ok(_))),
                    "{size}: byte {i} ^ {flip:#x} accepted"
                );
            }
        }
        for len in 0..bytes.len() {
            assert!(
                Certificate::from_bytes(&bytes[..len]).is_err(),
                "{size}: {len} bytes"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Certificate::from_bytes(&longer), Err(FormatError::Checksum));
        assert_eq!(
            Certificate::from_bytes(b"{\"board\": \"5x5\"}"),
            Err(FormatError::NotACertificate)
        );
    }
}

#[test]
fn a_short_or_long_stream_fails() {
    let certificate = Prover::prove(&start("4x4"), Tamper::None).0;
    let mut short = certificate.clone();
    short.stream.pop();
    assert!(short.verify().is_err());
    let mut long = certificate.clone();
    long.stream.push(0);
    assert_eq!(long.verify(), Err(VerifyError::TrailingBytes(1)));
    let mut miscounted = certificate.clone();
    miscounted.positions += 1;
    assert!(matches!(
        miscounted.verify(),
        Err(VerifyError::PositionCount { .. })
    ));
}

#[test]
fn finished_roots_need_no_stream() {
    // White has reached rank 4: the game is over, Black to move has lost.
    let root: Position = "W2/3/BB1/3 b".parse().unwrap();
    let certificate = Prover::prove(&root, Tamper::None).0;
    assert_eq!(certificate.positions(), 0);
    assert!(certificate.verify().is_ok());
    assert!(certificate
        .with_claimed_winner(Color::Black)
        .verify()
        .is_err());
}

/// A test-local prover of bounded claims ([`Claim::WinsWithin`], [`Claim::HoldsOut`])
/// by exhaustive bounded search over the rules alone, with ways to spoil the proof.
struct BoundedProver {
    /// The claim's side.
    side: Color,
    bound: u32,
    holds: bool,
    memo: HashMap<(Position, Color, u32), bool>,
    /// Each position written: its number and the ply where it was expanded.
    ids: HashMap<Position, (u64, u32)>,
    writer: NodeWriter,
    tamper: BoundedTamper,
    side_seen: usize,
    other_seen: usize,
    references: usize,
    unsettled_seen: usize,
    tampered: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BoundedTamper {
    None,
    /// Leave out the last reply of the other side.
    DropReply(usize),
    /// Play a move that breaks the claim (too slow a win, too short a defence).
    BadMove(usize),
    /// Refer back to a position written where fewer plies were left than here.
    ShortReference(usize),
    /// Mark settled a position of the claim's side where the mark does not hold.
    FalseMark(usize),
}

impl BoundedProver {
    fn new(side: Color, claim: Claim, tamper: BoundedTamper) -> BoundedProver {
        BoundedProver::with_encoding(side, claim, tamper, Encoding::Indexed { settle_plies: 0 })
    }

    fn with_encoding(
        side: Color,
        claim: Claim,
        tamper: BoundedTamper,
        encoding: Encoding,
    ) -> BoundedProver {
        BoundedProver {
            side,
            bound: claim.plies().unwrap_or(0),
            holds: matches!(claim, Claim::HoldsOut(_)),
            memo: HashMap::new(),
            ids: HashMap::new(),
            writer: NodeWriter::with_encoding(claim, encoding),
            tamper,
            side_seen: 0,
            other_seen: 0,
            references: 0,
            unsettled_seen: 0,
            tampered: false,
        }
    }

    fn prove(
        root: &Position,
        side: Color,
        claim: Claim,
        tamper: BoundedTamper,
    ) -> (Certificate, bool) {
        BoundedProver::prove_with(
            root,
            side,
            claim,
            tamper,
            Encoding::Indexed { settle_plies: 0 },
        )
    }

    /// A proof spelled as `encoding` says, marking settled (below the root) every
    /// position where the mark holds.
    fn prove_with(
        root: &Position,
        side: Color,
        claim: Claim,
        tamper: BoundedTamper,
        encoding: Encoding,
    ) -> (Certificate, bool) {
        let mut prover = BoundedProver::with_encoding(side, claim, tamper, encoding);
        prover.node(root, 0);
        let tampered = prover.tampered;
        (
            Certificate::new(*root, side, claim, prover.writer),
            tampered,
        )
    }

    /// Whether `winner` wins within `plies` plies, by the rules alone.
    fn within(&mut self, position: &Position, winner: Color, plies: u32) -> bool {
        if let Some(won_by) = position.winner() {
            return won_by == winner;
        }
        if plies == 0 {
            return false;
        }
        if let Some(&known) = self.memo.get(&(*position, winner, plies)) {
            return known;
        }
        let ours = position.to_move() == winner;
        let result = position
            .steps()
            .into_iter()
            .any(|step| self.within(&position.play_step(step), winner, plies - 1) == ours)
            == ours;
        self.memo.insert((*position, winner, plies), result);
        result
    }

    /// Whether the claim holds at a position with `left` plies to the bound.
    fn keeps(&mut self, position: &Position, left: u32) -> bool {
        if self.holds {
            !self.within(position, self.side.opponent(), left)
        } else {
            self.within(position, self.side, left)
        }
    }

    /// Whether a mark holds at a position with `left` plies to the bound, as the
    /// format defines it for `settle` plies.
    fn settles(&mut self, position: &Position, left: u32, settle: u32) -> bool {
        if self.holds {
            if left <= settle {
                return !self.within(position, self.side.opponent(), left);
            }
            return self.within(position, self.side, settle);
        }
        self.within(position, self.side, settle.min(left))
    }

    fn node(&mut self, position: &Position, ply: u32) {
        if position.winner().is_some() {
            return;
        }
        let left = self.bound.saturating_sub(ply);
        if self.holds && left == 0 {
            return;
        }
        let settle = self.writer.encoding().settle_plies();
        if settle > 0 && ply > 0 {
            if self.settles(position, left, settle) {
                self.writer.settled();
                return;
            }
            if position.to_move() == self.side {
                self.unsettled_seen += 1;
                if self.tamper == BoundedTamper::FalseMark(self.unsettled_seen) {
                    self.tampered = true;
                    self.writer.settled();
                    return;
                }
            }
        }
        if let Some(&(id, at)) = self.ids.get(position) {
            // A win's proof covers later arrivals with fewer plies left; a hold-out's
            // covers later plies.
            let covers = if self.holds { ply >= at } else { ply <= at };
            if covers {
                self.writer.refer(id);
                return;
            }
            // An arrival the earlier proof does not cover: the n-th is spoilt.
            self.references += 1;
            if self.holds && self.tamper == BoundedTamper::ShortReference(self.references) {
                self.tampered = true;
                self.writer.refer(id);
                return;
            }
        }
        let id = self.writer.expand();
        self.ids.insert(*position, (id, ply));
        let after = left.saturating_sub(1);
        if position.to_move() == self.side {
            self.side_seen += 1;
            let steps = position.steps();
            let mut good = None;
            let mut bad = None;
            for &step in &steps {
                let keeps = self.keeps(&position.play_step(step), after);
                if keeps && good.is_none() {
                    good = Some(step);
                } else if !keeps && bad.is_none() {
                    bad = Some(step);
                }
            }
            // Below a tampered move no good move may exist: any move will do then.
            let mut chosen = good.unwrap_or(steps[0]);
            if self.tamper == BoundedTamper::BadMove(self.side_seen) {
                if let Some(bad) = bad {
                    self.tampered = true;
                    chosen = bad;
                }
            }
            self.writer.winning_move(position, chosen);
            self.node(&position.play_step(chosen), ply + 1);
        } else {
            self.other_seen += 1;
            let mut replies = replies_in_order(position);
            if self.tamper == BoundedTamper::DropReply(self.other_seen) {
                self.tampered = true;
                replies.pop();
            }
            self.writer.replies(replies.len());
            for step in replies {
                self.node(&position.play_step(step), ply + 1);
            }
        }
    }
}

/// Exact lengths of small start positions, by the bounded prover's own search.
fn exact_length(root: &Position) -> (Color, u32) {
    let mut memo = HashMap::new();
    let winner = if wins(root, &mut memo) {
        root.to_move()
    } else {
        root.to_move().opponent()
    };
    let mut probe = BoundedProver::prove(root, winner, Claim::WinsWithin(0), BoundedTamper::None).0;
    let mut plies = 0;
    while probe.verify().is_err() {
        plies += 1;
        probe = BoundedProver::prove(root, winner, Claim::WinsWithin(plies), BoundedTamper::None).0;
    }
    (winner, plies)
}

#[test]
fn honest_length_proofs_verify_and_tighter_bounds_fail() {
    for size in ["3x4", "4x4", "2x6", "3x5"] {
        let root = start(size);
        let (winner, length) = exact_length(&root);
        for encoding in [
            Encoding::Squares,
            Encoding::Indexed { settle_plies: 0 },
            MARKS,
        ] {
            let prove = |side, claim| {
                BoundedProver::prove_with(&root, side, claim, BoundedTamper::None, encoding).0
            };
            let win = prove(winner, Claim::WinsWithin(length));
            let hold = prove(winner.opponent(), Claim::HoldsOut(length - 1));
            let reports = [win.verify().unwrap(), hold.verify().unwrap()];
            assert_eq!(verify_length(&reports), Ok(length), "{size}");
            if encoding == MARKS {
                assert!(reports.iter().all(|report| report.settled > 0), "{size}");
            }
            let parts = read_parts(&write_parts(&[win.clone(), hold.clone()])).unwrap();
            assert_eq!(parts, vec![win.clone(), hold.clone()]);
            // One ply more than the loser can hold out: the proof of it cannot exist.
            let longer = prove(winner.opponent(), Claim::HoldsOut(length));
            assert!(longer.verify().is_err(), "{size}");
            assert!(win
                .with_claim(Claim::WinsWithin(length - 1))
                .verify()
                .is_err());
        }
    }
}

#[test]
fn every_kind_of_tampering_with_a_length_proof_fails() {
    let root = start("4x4");
    let (winner, length) = exact_length(&root);
    let mut caught = HashMap::new();
    for (side, claim) in [
        (winner, Claim::WinsWithin(length)),
        (winner.opponent(), Claim::HoldsOut(length - 1)),
    ] {
        for at in 1..30 {
            for (tamper, encoding) in [
                (BoundedTamper::DropReply(at), Encoding::Squares),
                (BoundedTamper::BadMove(at), Encoding::Squares),
                (BoundedTamper::ShortReference(at), Encoding::Squares),
                (BoundedTamper::DropReply(at), MARKS),
                (BoundedTamper::BadMove(at), MARKS),
                (BoundedTamper::FalseMark(at), MARKS),
            ] {
                let (certificate, tampered) =
                    BoundedProver::prove_with(&root, side, claim, tamper, encoding);
                if !tampered {
                    continue;
                }
                let err = certificate
                    .verify()
                    .expect_err(&format!("{claim:?} {tamper:?}"));
                *caught
                    .entry((claim, std::mem::discriminant(&tamper)))
                    .or_insert(0) += 1;
                let read = read_parts(&certificate.to_bytes()).unwrap();
                assert_eq!(read[0].verify(), Err(err));
            }
        }
    }
    // Both claims with each kind, except short references in a win (a reference
    // there is caught only when it makes a game too long); 4x4 has 4 arrivals that
    // an earlier hold-out does not cover.
    assert_eq!(caught.len(), 7, "{caught:?}");
    assert!(caught.values().all(|&n| n >= 3), "{caught:?}");
}
