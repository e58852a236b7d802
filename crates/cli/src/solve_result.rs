//! The result of a solve, as `solve --json` prints it and `solve --out` writes it:
//! the one place that makes a [`SolveResult`] from a solver's [`Solution`], for
//! every program that reports a solve (and the terms a campaign's result shares).

use std::path::Path;

use breakthrough_engine::{Color, Position};
use breakthrough_proof::{Certificate, Claim};
use breakthrough_result::{
    self as result, CertificateSummary, FoundLengthSearch, LengthSearch, LineKind, Outcome,
    PartSummary, PartialLengthSearch, ProofNumber, ProofSummary, RaceRuleCounts, RootMove,
    SearchSettings, SearchStats, Side, SolveResult, Solver, Stats, Status, TableStats, Unanswered,
};
use breakthrough_solver::{
    Algorithm, GameLength, PartialLength, Pn, Probe, Proof, RaceRuleStats, Solution, SolveOptions,
};

use crate::system;

/// A side as results name it.
pub fn side(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// A certificate's claim as results write it.
pub fn claim(claim: Claim) -> result::Claim {
    match claim {
        Claim::Wins => result::Claim::Wins,
        Claim::WinsWithin(plies) => result::Claim::WinsWithin { plies },
        Claim::HoldsOut(plies) => result::Claim::HoldsOut { plies },
        Claim::WinsGiven => result::Claim::WinsGiven,
    }
}

/// What kind of line `principal_variation` is.
fn line_kind(proof: &Proof) -> LineKind {
    if proof.is_perfect_play() {
        LineKind::PerfectPlay
    } else {
        LineKind::ProofLine
    }
}

fn part(part: &Certificate) -> PartSummary {
    PartSummary {
        side: side(part.winner()),
        claim: claim(part.claim()),
        positions: part.positions(),
    }
}

/// How far a stopped length search got: the least length its answers allow, the
/// questions answered and the one cut short.
fn partial_length(partial: &PartialLength) -> PartialLengthSearch {
    PartialLengthSearch {
        at_least: partial.at_least,
        nodes: partial.nodes(),
        seconds: partial.seconds(),
        probes: probes(&partial.probes),
        earlier: probes(&partial.earlier),
        unanswered: Unanswered {
            plies: partial.unanswered.plies,
            nodes: partial.unanswered.nodes,
            seconds: partial.unanswered.seconds,
        },
    }
}

fn probes(probes: &[Probe]) -> Vec<result::Probe> {
    probes
        .iter()
        .map(|p| result::Probe {
            plies: p.plies,
            wins: p.wins,
            nodes: p.nodes,
            seconds: p.seconds,
        })
        .collect()
}

fn found_length(length: &GameLength) -> FoundLengthSearch {
    FoundLengthSearch {
        nodes: length.nodes(),
        seconds: length.seconds(),
        probes: probes(&length.probes),
        earlier: probes(&length.earlier),
    }
}

/// Positions each race rule closed (or, for must_capture, narrowed), by kind.
fn race_rules(k: &RaceRuleStats) -> RaceRuleCounts {
    let race_wins = k
        .race_win
        .iter()
        .enumerate()
        .skip(2)
        .filter(|&(_, &count)| count > 0)
        .map(|(moves, &count)| (format!("race_win_in_{moves}"), count))
        .collect();
    RaceRuleCounts {
        closed: k.closed(),
        win_in_one: k.win_in_one,
        double_threat: k.double_threat,
        unstoppable_threat: k.unstoppable_threat,
        must_capture_narrowed: k.must_capture,
        game_over: k.game_over,
        race_wins,
    }
}

/// A proof number as results write it.
pub fn proof_number(pn: Pn) -> ProofNumber {
    if pn.is_inf() {
        ProofNumber::INFINITE
    } else {
        ProofNumber::Finite(u64::from(pn.get()))
    }
}

/// The result in words: who wins, and as first or second player from the start.
pub fn verdict(solution: &Solution) -> String {
    match solution.winner {
        Some(winner) => verdict_text(&solution.position, winner),
        None => "unknown".to_string(),
    }
}

/// `winner` wins `position`, in words (as `solve` and `campaign run` say it).
pub fn verdict_text(position: &Position, winner: Color) -> String {
    if *position == Position::start(position.board()) {
        let order = if winner == Color::White {
            "first"
        } else {
            "second"
        };
        format!("{order} player ({winner}) wins")
    } else if winner == position.to_move() {
        format!("{winner} wins (the side to move)")
    } else {
        format!(
            "{winner} wins (the side to move, {}, loses)",
            position.to_move()
        )
    }
}

/// The certificate written: its path, the proof, and its bytes.
pub type Written<'a> = Option<(&'a Path, &'a Proof, &'a [u8])>;

/// The SHA-256 of `bytes` in hexadecimal.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn outcome(wins: Option<bool>) -> Outcome {
    match wins {
        Some(true) => Outcome::Win,
        Some(false) => Outcome::Loss,
        None => Outcome::Unproven,
    }
}

/// One observation of the search: seconds, nodes, root proof and disproof numbers.
pub type Sample = (f64, u64, Pn, Pn);

/// At most `MAX_SAMPLES` samples of the search's course, evenly spread, the last kept.
fn course(course: &[Sample]) -> Vec<result::Sample> {
    const MAX_SAMPLES: usize = 120;
    let step = course.len().div_ceil(MAX_SAMPLES).max(1);
    let last = course.len().saturating_sub(1);
    course
        .iter()
        .enumerate()
        .filter(|(i, _)| i % step == 0 || *i == last)
        .map(|(_, &(seconds, nodes, proof, disproof))| result::Sample {
            seconds,
            nodes,
            root_proof: proof_number(proof),
            root_disproof: proof_number(disproof),
        })
        .collect()
}

/// What the certificate written says of itself.
fn certificate_summary(path: &Path, proof: &Proof, bytes: &[u8]) -> CertificateSummary {
    CertificateSummary {
        // The name only: the certificate is kept beside the JSON.
        file: path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned()),
        format_version: u32::from(proof.format_version()),
        bytes: bytes.len() as u64,
        // Identifies the file that was written (and verified), where it is too big
        // to keep beside the JSON.
        sha256: Some(sha256_hex(bytes)),
        positions: proof.positions(),
        parts: proof.parts().iter().map(part).collect(),
        height: proof.height,
        extraction_nodes: proof.search_nodes,
        extraction_seconds: proof.seconds,
    }
}

fn stats(
    solution: &Solution,
    options: &SolveOptions,
    samples: &[Sample],
    wall_seconds: f64,
) -> Stats {
    let stats = &solution.stats;
    let table = &stats.table;
    Stats {
        nodes: stats.nodes,
        seconds: stats.seconds,
        wall_seconds,
        nodes_per_second: stats.nodes as f64 / stats.seconds.max(1e-9),
        threads: stats.threads as u64,
        search: Some(SearchStats {
            thread_nodes: stats.thread_nodes.clone(),
            // Total nodes over one thread's: known only where both were measured.
            search_overhead: (stats.threads == 1).then_some(1.0),
            table: TableStats {
                megabytes: options.table_mb as u64,
                bytes: table.bytes,
                capacity: table.capacity,
                used: table.used,
                fill: table.used as f64 / table.capacity.max(1) as f64,
                replacements: table.replacements,
            },
            race_rules: race_rules(&stats.race_rules),
        }),
        root_proof: proof_number(stats.root_proof),
        root_disproof: proof_number(stats.root_disproof),
        peak_memory_mb: system::peak_memory_mb(),
        course: course(samples),
    }
}

fn solver(solution: &Solution, options: &SolveOptions) -> Solver {
    let race_rules = &options.race_rules_of(solution.position.board());
    Solver {
        algorithm: options.algorithm.name().to_string(),
        race_rules: race_rules.enabled,
        race_moves: race_rules.enabled.then_some(race_rules.race_moves),
        epsilon: 1.0 / f64::from(options.inverse_epsilon),
        search: Some(SearchSettings {
            depth_bias: (options.algorithm == Algorithm::Dfpn)
                .then(|| options.depth_bias_of(solution.position.board())),
            estimate_weight: (options.algorithm == Algorithm::Dfpn)
                .then_some(options.estimate_weight),
            max_nodes: options.limits.max_nodes,
            time_limit: options.limits.time_limit.map(|d| d.as_secs_f64()),
            length_resumed: options.length_earlier.is_some(),
            length_guess: options.length_guess,
        }),
        table_mb: options.table_mb as u64,
        threads: options.threads as u64,
        job_nodes: None,
        version: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// The result of `solution`, a search with `options` whose course `samples` traced,
/// as `solve --json` prints it; with the certificate `written`, its summary and
/// main line. `wall_seconds` is what the user waited for the result: for the
/// command, the whole process (start-up, the table, the search, the proof's
/// extraction).
pub fn solve_result(
    solution: &Solution,
    options: &SolveOptions,
    written: Written,
    samples: &[Sample],
    wall_seconds: f64,
) -> SolveResult {
    let certificate = written;
    let root_moves = solution
        .root_moves
        .iter()
        .map(|m| RootMove {
            mv: m.mv.to_string(),
            outcome: outcome(m.wins),
            length: m.length,
        })
        .collect();
    let position = &solution.position;
    SolveResult {
        board: position.board().to_string(),
        position: position.to_string(),
        to_move: side(position.to_move()),
        winner: solution.winner.map(side),
        best_move: solution.best_move.map(|m| m.to_string()),
        status: if solution.is_solved() {
            Status::Solved
        } else {
            Status::Unknown
        },
        stopped_by: solution.stopped.map(|s| s.name().to_string()),
        verdict: verdict(solution),
        root_moves,
        principal_variation: certificate.map(|(_, proof, _)| {
            proof
                .principal_variation
                .iter()
                .map(ToString::to_string)
                .collect()
        }),
        principal_variation_kind: certificate.map(|(_, proof, _)| line_kind(proof)),
        length: solution.length.as_ref().map(|l| l.plies),
        length_search: match (&solution.length, &solution.partial_length) {
            (Some(length), _) => Some(LengthSearch::Found(found_length(length))),
            (None, Some(partial)) => Some(LengthSearch::Partial(partial_length(partial))),
            (None, None) => None,
        },
        proof: certificate.map(|(path, proof, bytes)| {
            ProofSummary::Certificate(certificate_summary(path, proof, bytes))
        }),
        stats: stats(solution, options, samples, wall_seconds),
        solver: solver(solution, options),
        campaign: None,
        machine: system::machine(),
    }
}
