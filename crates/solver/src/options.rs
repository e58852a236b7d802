//! How to solve: which search, its table and limits, and what to find besides the
//! winner.

use breakthrough_engine::{Board, Color, Position};

use crate::length::answers::Probe;
use crate::limits::Limits;
use crate::progress::Phase;
use crate::race_rules::{default_race_moves, RaceRules};
use crate::search::dfpn::{bias_for, DfpnConfig};
use crate::table::key::Key;

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Depth-first proof-number search with the 1+epsilon trick.
    #[default]
    Dfpn,
    /// Plain exhaustive depth-first search with a table.
    Reference,
}

impl Algorithm {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Dfpn => "dfpn",
            Algorithm::Reference => "reference",
        }
    }
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub algorithm: Algorithm,
    /// Transposition table size in MiB.
    pub table_mb: usize,
    pub limits: Limits,
    /// `1/epsilon` for df-pn's 1+epsilon trick (4 means epsilon = 1/4).
    pub inverse_epsilon: u32,
    /// Whether the race rules apply (they do by default; off only for ablation).
    pub race_rules: bool,
    /// The longest race win looked for, in moves; `None`, the default: the board's
    /// (see [`SolveOptions::race_rules_of`]).
    pub race_moves: Option<u32>,
    /// Extract a certificate after a successful solve (see [`crate::certificate`]).
    pub proof: bool,
    /// MiB of the extraction's memory of the positions it has written, to refer
    /// back to (a proof bigger than that is written with some positions twice).
    pub proof_mb: usize,
    /// The certificate marks positions whose claim holds within this many plies
    /// settled, for the verifier's own search, in place of their proofs (0: none;
    /// see [`breakthrough_proof::settle`]).
    pub settle_plies: u32,
    /// Threads for df-pn (the reference search uses one); see [`crate::search::parallel`].
    pub threads: usize,
    /// Ask instead whether this side wins within this many plies (df-pn only; see
    /// [`Key::within`] and the [`crate::length`] module, which asks it).
    pub within: Option<(Color, u32)>,
    /// After the solve, find the exact length of the game under perfect play (see
    /// [`crate::length`]); the proof, if asked for, is then the length's certificate.
    pub length: bool,
    /// Answers of an earlier length search of the root that a limit stopped, to go
    /// on from (see [`crate::length::exact_length`]), with the winner they are about: used
    /// only if the solve proves the same winner (check them with
    /// [`crate::length::check_earlier`] first).
    pub length_earlier: Option<(Color, Vec<Probe>)>,
    /// The root's length as guessed, asked first (see [`crate::length::exact_length`]):
    /// a good guess leaves out the questions below it, which cost most of a search
    /// from the shortest game up on the larger boards.
    pub length_guess: Option<u32>,
    /// Solve every move at the root (and, with `length`, find each one's length).
    pub all_moves: bool,
    /// Deep df-pn's `D`, how much more a leaf near the root is taken to cost (0:
    /// plain df-pn+); `None`, the default: the board's number of squares (see
    /// [`SolveOptions::depth_bias_of`]).
    pub depth_bias: Option<u32>,
    /// How far df-pn's new leaves follow the learned estimate of who wins (see
    /// [`crate::estimate::initial_numbers`]): [`crate::estimate::DEFAULT_WEIGHT`] by
    /// default, 0 for plain mobility.
    pub estimate_weight: f32,
}

impl SolveOptions {
    /// The depth bias a search of `board` uses: [`SolveOptions::depth_bias`] or, by
    /// default, the board's number of squares.
    pub fn depth_bias_of(&self, board: Board) -> u32 {
        bias_for(self.depth_bias, board)
    }

    /// The race rules a search of `board` applies: none, or every rule with
    /// [`SolveOptions::race_moves`] or, by default, the board's longest race win
    /// ([`default_race_moves`]).
    pub fn race_rules_of(&self, board: Board) -> RaceRules {
        if !self.race_rules {
            return RaceRules::NONE;
        }
        RaceRules {
            enabled: true,
            race_moves: self.race_moves.unwrap_or_else(|| default_race_moves(board)),
        }
    }

    /// How df-pn searches `board` with these options.
    pub(crate) fn dfpn_config(&self, board: Board) -> DfpnConfig<'static> {
        DfpnConfig {
            inverse_epsilon: self.inverse_epsilon,
            race_rules: self.race_rules_of(board),
            depth_bias: self.depth_bias,
            estimate_weight: self.estimate_weight,
            phase: Phase::Search,
            proven: None,
        }
    }

    /// The root's table key: the question the search answers.
    pub(crate) fn root_key(&self, root: &Position) -> Key {
        match self.within {
            Some((winner, plies)) => Key::within(root, winner, plies),
            None => Key::of(root),
        }
    }
}

/// The default of [`SolveOptions::proof_mb`]: every position of a proof of up to
/// about 29 M positions (6x5's has about 25 M), 41 bytes each in a map that may
/// grow by half again.
pub const DEFAULT_PROOF_MB: usize = 2048;

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::Dfpn,
            table_mb: 64,
            limits: Limits::default(),
            inverse_epsilon: 4,
            race_rules: true,
            race_moves: None,
            proof: false,
            proof_mb: DEFAULT_PROOF_MB,
            settle_plies: breakthrough_proof::DEFAULT_SETTLE_PLIES,
            threads: 1,
            within: None,
            length: false,
            length_earlier: None,
            length_guess: None,
            all_moves: false,
            depth_bias: None,
            estimate_weight: crate::estimate::DEFAULT_WEIGHT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every front end leaves the race length to the solver, which looks one move
    /// further on the larger boards unless told a length or told no rules at all.
    #[test]
    fn the_race_rules_follow_the_board_unless_told() {
        let board = |size: &str| size.parse::<Board>().unwrap();
        let default = SolveOptions::default();
        assert_eq!(default.race_rules_of(board("5x6")).race_moves, 4);
        assert_eq!(default.race_rules_of(board("6x6")).race_moves, 5);
        let told = SolveOptions {
            race_moves: Some(3),
            ..SolveOptions::default()
        };
        assert_eq!(told.race_rules_of(board("6x6")).race_moves, 3);
        let plain = SolveOptions {
            race_rules: false,
            ..told
        };
        assert!(!plain.race_rules_of(board("6x6")).enabled);
    }
}
