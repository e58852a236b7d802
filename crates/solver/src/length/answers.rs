//! What a length search found: the answers to its questions, the length, or how
//! far it got.

/// One bounded question asked on the way to the length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    /// The plies allowed.
    pub plies: u32,
    /// Whether the winner wins within them.
    pub wins: bool,
    pub nodes: u64,
    pub seconds: f64,
}

/// The exact length of a position, and how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLength {
    /// Plies to the end of the game under perfect play (0 for a finished game).
    pub plies: u32,
    /// The questions asked, in order.
    pub probes: Vec<Probe>,
    /// Answers taken from an earlier, stopped search (see [`super::exact_length`]).
    pub earlier: Vec<Probe>,
}

impl GameLength {
    /// Nodes of the questions asked here.
    pub fn nodes(&self) -> u64 {
        self.probes.iter().map(|p| p.nodes).sum()
    }

    /// Seconds of the questions asked here.
    pub fn seconds(&self) -> f64 {
        // From 0.0: an empty f64 sum is -0.0, printed "-0.00".
        self.probes.iter().fold(0.0, |sum, p| sum + p.seconds)
    }
}

/// The question of a length search that a limit (or Ctrl-C) cut short.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unanswered {
    /// The plies of the question it was asking.
    pub plies: u32,
    /// Nodes and seconds spent on that question.
    pub nodes: u64,
    pub seconds: f64,
}

/// How far a stopped length search got: the questions answered and the one a limit
/// cut short. A later search can go on from its answers.
#[derive(Clone, Debug, PartialEq)]
pub struct PartialLength {
    /// The least length the answers (earlier ones too) allow: two plies past the
    /// longest "no", since the winner's wins come every other ply; with no "no" yet,
    /// the least a game can last.
    pub at_least: u32,
    pub probes: Vec<Probe>,
    pub unanswered: Unanswered,
    /// Answers taken from an earlier, stopped search.
    pub earlier: Vec<Probe>,
}

impl PartialLength {
    /// Every answer, the earlier ones first: what a later search goes on from.
    pub fn answers(&self) -> Vec<Probe> {
        [&self.earlier[..], &self.probes[..]].concat()
    }

    /// Nodes of the questions asked here, the unanswered one too.
    pub fn nodes(&self) -> u64 {
        self.probes.iter().map(|p| p.nodes).sum::<u64>() + self.unanswered.nodes
    }

    /// Seconds of the questions asked here, the unanswered one too.
    pub fn seconds(&self) -> f64 {
        self.probes.iter().map(|p| p.seconds).sum::<f64>() + self.unanswered.seconds
    }
}
