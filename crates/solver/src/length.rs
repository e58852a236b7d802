//! The exact length of the game under perfect play: the winner wins as fast as it
//! can, the loser holds out as long as it can.
//!
//! The length `L` of a position is found with bounded questions "does the winner win
//! within `n` plies?" ([`crate::Key::within`]), each a df-pn search like the plain solve
//! over the same table, asked for `n` = 1 or 2, then two plies more each time (the
//! winner's wins come every other ply). `L` is the first `n` whose answer is yes: its
//! proof shows the winner always wins within `L` plies; the disproof of `L - 2`
//! shows the loser always holds out `L - 1` plies. The short questions cost almost
//! nothing; the last few, near `L`, cost most (`docs/performance-log.md`, "Exact
//! lengths"). A search that a limit stopped can be continued: a later one takes its
//! answers and goes on from its last "no" (the table is not kept, so the question
//! cut short starts over).
//!
//! The certificate of a length is a pair of proofs (see [`crate::certificate`]): a
//! win within `L` plies and a hold-out of `L - 1`, extracted like the plain proof.
//! Both follow perfect play from the root, so the principal variation read from
//! them, the winner's moves from the first and the loser's from the second, is a
//! line of perfect play.

use std::time::Instant;

use breakthrough_engine::{Color, Position};

use crate::certificate::extract::{line, write_proof, ExtractError, Proof, ProofWriting, Recall};
use crate::certificate::Claim;
use crate::limits::Stop;
use crate::options::SolveOptions;
use crate::progress::{Phase, Progress};
use crate::search::dfpn::Dfpn;
use crate::search::parallel;
use crate::table::Table;

pub(crate) mod answers;

pub use answers::{GameLength, PartialLength, Probe, Unanswered};

/// The longest guess [`exact_length`] takes as it is: one ply short of the longest
/// question a key holds, so that a guess of the wrong parity still fits.
pub const MAX_LENGTH_GUESS: u32 = crate::table::key::MAX_HORIZON - 1;

/// The plies of the first question about `position`, which `winner` wins: the least
/// a game can last (0 if it is over, 1 if `winner` moves, else 2). Every question
/// asked is that plus an even number.
fn least_plies(position: &Position, winner: Color) -> u32 {
    match position.winner() {
        Some(_) => 0,
        None if position.to_move() == winner => 1,
        None => 2,
    }
}

/// The most plies among the answers "no".
fn longest_no(answers: &[Probe]) -> Option<u32> {
    answers.iter().filter(|p| !p.wins).map(|p| p.plies).max()
}

/// The fewest plies among the answers "yes".
fn shortest_yes(answers: &[Probe]) -> Option<u32> {
    answers.iter().filter(|p| p.wins).map(|p| p.plies).min()
}

/// Whether `earlier` can be answers of a length search of `position`, which `winner`
/// wins: every question of the plies it asks, and every "no" below every "yes".
/// Says what is wrong otherwise.
pub fn check_earlier(position: &Position, winner: Color, earlier: &[Probe]) -> Result<(), String> {
    let least = least_plies(position, winner);
    if let Some(odd) = earlier
        .iter()
        .find(|p| p.plies < least || (p.plies - least) % 2 == 1)
    {
        return Err(format!(
            "a question of {} plies, where the search asks {least}, {}, {}, ...",
            odd.plies,
            least + 2,
            least + 4
        ));
    }
    if let (Some(no), Some(yes)) = (longest_no(earlier), shortest_yes(earlier)) {
        if no >= yes {
            return Err(format!(
                "a win within {yes} plies but none within {no}: not the answers of one position"
            ));
        }
    }
    Ok(())
}

/// Whether `winner` wins `position` within `plies` plies. `options.limits` apply to
/// this search alone; `plies` of the wrong parity count as one fewer. A stopped
/// question still says what it cost.
pub fn wins_within(
    position: &Position,
    winner: Color,
    plies: u32,
    options: &SolveOptions,
    table: &Table,
    observer: &mut dyn FnMut(&Progress),
) -> Result<Probe, (Stop, Unanswered)> {
    let started = Instant::now();
    let decided = |wins| Probe {
        plies,
        wins,
        nodes: 0,
        seconds: 0.0,
    };
    if let Some(won_by) = position.winner() {
        return Ok(decided(won_by == winner));
    }
    if position.to_move() == winner && plies == 0 {
        return Ok(decided(false));
    }
    let options = SolveOptions {
        within: Some((winner, plies)),
        ..options.clone()
    };
    let (outcome, stats) = parallel::search(position, &options, table, &mut |p| {
        observer(&Progress {
            phase: Phase::Length(plies),
            ..*p
        })
    });
    let seconds = started.elapsed().as_secs_f64();
    match outcome {
        Ok((mover_wins, _)) => Ok(Probe {
            plies,
            wins: mover_wins == (position.to_move() == winner),
            nodes: stats.nodes,
            seconds,
        }),
        Err(stop) => Err((
            stop,
            Unanswered {
                plies,
                nodes: stats.nodes,
                seconds,
            },
        )),
    }
}

/// The plies of the next question, after the answers so far: two below the
/// shortest "yes", the guess while nothing brackets it, or two above the longest
/// "no"; `None` once a "yes" has a "no" (or no game) two plies below it, which makes
/// that "yes" the length.
fn next_question(least: u32, guess: Option<u32>, answers: &[Probe]) -> Option<u32> {
    let above_no = longest_no(answers).map_or(least, |no| no + 2);
    match shortest_yes(answers) {
        Some(yes) if yes <= above_no => None,
        Some(yes) => Some(yes - 2),
        // A guess of the wrong parity counts as one ply more.
        None => Some(guess.map_or(above_no, |g| {
            let g = g.min(MAX_LENGTH_GUESS).max(above_no);
            g + (g - least) % 2
        })),
    }
}

/// The exact length of `position`, which `winner` wins (as a solve proved), over
/// `table`. The first question is of `guess` plies if given (else of the least a
/// game can last); then it asks two plies lower after each "yes" and two higher
/// after each "no", until a "yes" has a "no" two plies below it. `earlier` are
/// answers of an earlier search of the same position that a limit stopped
/// ([`PartialLength::answers`]), taken as they are (check them with
/// [`check_earlier`]); they count like answers of this search. `options.limits`
/// apply to all the questions together; stopped by them, it says how far it got.
pub fn exact_length(
    position: &Position,
    winner: Color,
    earlier: &[Probe],
    guess: Option<u32>,
    options: &SolveOptions,
    table: &Table,
    observer: &mut dyn FnMut(&Progress),
) -> Result<GameLength, (Stop, PartialLength)> {
    let started = Instant::now();
    let least = least_plies(position, winner);
    let mut probes: Vec<Probe> = Vec::new();
    loop {
        let answers = [earlier, &probes[..]].concat();
        let Some(plies) = next_question(least, guess, &answers) else {
            return Ok(GameLength {
                plies: shortest_yes(&answers).expect("a yes ends the questions"),
                probes,
                earlier: earlier.to_vec(),
            });
        };
        // Nothing lasts longer than the longest game: a bug, not a position.
        assert!(
            plies <= crate::table::key::MAX_HORIZON + 2,
            "no win within {} plies at {position}, which {winner} wins",
            plies - 2
        );
        let used = probes.iter().map(|p| p.nodes).sum();
        let asked = options
            .limits
            .after(started.elapsed(), used)
            .map_err(|stop| {
                let unanswered = Unanswered {
                    plies,
                    nodes: 0,
                    seconds: 0.0,
                };
                (stop, unanswered)
            })
            .and_then(|limits| {
                let options = SolveOptions {
                    limits,
                    ..options.clone()
                };
                wins_within(position, winner, plies, &options, table, observer)
            });
        match asked {
            Ok(probe) => probes.push(probe),
            Err((stop, unanswered)) => {
                let at_least = longest_no(&answers).map_or(least, |no| no + 2);
                let partial = PartialLength {
                    at_least,
                    probes,
                    unanswered,
                    earlier: earlier.to_vec(),
                };
                return Err((stop, partial));
            }
        }
    }
}

/// Writes the certificate of a length `plies` that [`exact_length`] found, with
/// `search` over the same table (whose entries it reuses; it searches again what
/// the table has lost), written as `writing` says (its memory split between the two
/// sides' proofs).
pub(crate) fn extract_proof(
    search: &mut Dfpn<'_>,
    position: &Position,
    winner: Color,
    plies: u32,
    writing: ProofWriting,
) -> Result<Proof, ExtractError> {
    let started = Instant::now();
    let search = &mut *search;
    let writing = ProofWriting {
        memory: writing.memory / 2,
        ..writing
    };
    let win_claim = Claim::WinsWithin(plies);
    let win = write_proof(search, position, winner, win_claim, writing, 0)?;
    let height = win.height;
    let mut hold = None;
    let mut principal_variation = Vec::new();
    if plies > 0 {
        let loser = winner.opponent();
        let hold_claim = Claim::HoldsOut(plies - 1);
        let holding = write_proof(search, position, loser, hold_claim, writing, 0)?;
        let mut wins = Recall::new(win.positions, winner, win_claim, writing);
        let mut holds = Recall::new(holding.positions, loser, hold_claim, writing);
        // Each proof keeps its side to perfect play along every line it allows.
        principal_variation = line(position, |now, ply| {
            if now.to_move() == winner {
                wins.step(search, now, ply)
            } else {
                holds.step(search, now, ply)
            }
        })?;
        hold = Some(holding.certificate);
    }
    Ok(Proof {
        certificate: win.certificate,
        hold,
        principal_variation,
        height,
        search_nodes: search.nodes(),
        seconds: started.elapsed().as_secs_f64(),
    })
}
