//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon trick
//! (Pawlewicz & Lew 2007), over a bounded transposition table.
//!
//! Numbers are kept from the point of view of the side to move (negamax form):
//! `phi` is the effort to prove the side to move wins, `delta` the effort to prove it
//! loses. At a node, `phi = min(delta of children)` and `delta = sum(phi of children)`.
//! The search descends into the child of least `delta` while both numbers stay under
//! the node's thresholds; the child's threshold on its `delta` is
//! `ceil(second_least_delta * (1 + epsilon))`, which lets it run longer before the
//! search switches to a sibling. A new leaf's numbers are its mobility, scaled by a
//! learned estimate of who wins (df-pn+, see [`crate::estimate`]), plus a bias that
//! shrinks with its depth (deep df-pn, see [`depth_bias`]).
//!
//! `delta` is the plain sum even though positions reached by several paths are
//! counted twice: weak proof numbers, the usual remedy, took more nodes on the larger
//! boards (`docs/performance-log.md`, "Tried and not kept").

use breakthrough_engine::{Board, Position, Step, MAX_MOVES};

use crate::estimate;
use crate::limits::{Budget, Limits, Stop};
use crate::progress::{Phase, Progress};
use crate::race_rules::{
    move_to_goal, RaceRuleStats, RaceRules, Verdict, REENTRY_EXTRA_MOVES, REENTRY_MIN_SQUARES,
};
use crate::search::proven::ProvenElsewhere;
use crate::search::team::Team;
use crate::table::key::{Key, MAX_HORIZON};
use crate::table::pn::Pn;
use crate::table::{Table, Tally};

/// A child of the node being searched.
#[derive(Clone, Copy)]
struct Child {
    position: Position,
    key: Key,
    hash: u64,
    step: Step,
    /// The child's numbers as this frame last saw them: from the table, its first
    /// evaluation, or its own search. Later iterations use them instead of probing
    /// the table again (see [`Dfpn::search_children`]); when the table has evicted
    /// the child, they keep the search from taking it for a fresh leaf and redoing
    /// its work.
    known: Option<(Pn, Pn)>,
    /// The nodes its last search took (from its table entry, or this frame's
    /// search of it): 0 when it has never been expanded.
    work: u64,
}

impl Child {
    /// What the child has been through, as the nodes of its last search say.
    #[inline]
    fn seen(&self) -> Seen {
        if self.work > 0 {
            Seen::Expanded {
                descended: self.work > 1,
            }
        } else {
            Seen::AsLeaf
        }
    }
}

/// What a position entered by [`Dfpn::mid`] has been through already, and so which
/// of the rules it still needs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Seen {
    /// Nothing: all the rules.
    Never,
    /// Its first evaluation as a leaf ([`RaceRules::classify_leaf`]) came out open:
    /// the threat rules, and the long race wins.
    AsLeaf,
    /// It was expanded before: the threat rules, which narrow its moves, and, the
    /// first time this thread enters it again after a search that went below it,
    /// the race wins of [`REENTRY_EXTRA_MOVES`] more moves.
    Expanded {
        /// Its last search took more than the one node of its expansion.
        descended: bool,
    },
}

/// The positions whose longer race search (see [`Seen::Expanded`]) this thread has
/// made and found open, in a direct-mapped memory of bounded size: a position it
/// forgets is only searched again, and comes out open again. A won position is not
/// kept: the table holds its proof, and if the table evicts it, the race search
/// proves it again.
struct RacedAgain {
    slots: Box<[u64]>,
}

impl RacedAgain {
    /// 2 MiB a thread: on 6x6-2 of the frontier suite (4.7 M nodes, 407 k positions
    /// searched again) it makes 7% more of those searches than an exact memory,
    /// 1 << 20 slots 2%, 1 << 16 18%.
    const SLOTS: usize = 1 << 18;

    fn new() -> RacedAgain {
        RacedAgain {
            slots: vec![0; Self::SLOTS].into_boxed_slice(),
        }
    }

    /// Whether the memory holds `hash`.
    #[inline]
    fn holds(&self, hash: u64) -> bool {
        self.slots[Self::slot(hash)] == Self::mark(hash)
    }

    #[inline]
    fn remember(&mut self, hash: u64) {
        self.slots[Self::slot(hash)] = Self::mark(hash);
    }

    #[inline]
    fn slot(hash: u64) -> usize {
        (hash >> 44) as usize % Self::SLOTS
    }

    /// Bit 0 set keeps a remembered hash apart from an empty slot.
    #[inline]
    fn mark(hash: u64) -> u64 {
        hash | 1
    }
}

/// The longest race win, in moves, that counts for a position with this key: a
/// bounded question about the side to move (odd plies left) counts only wins within
/// its plies, `(plies + 1) / 2` moves; any other key bounds none.
#[inline]
fn race_moves_cap(key: &Key) -> Option<u32> {
    match key.plies_left() {
        Some(plies) if plies % 2 == 1 => Some(plies.div_ceil(2)),
        _ => None,
    }
}

/// A bounded question's last ply: with no plies left, the side to move (whose
/// opponent had to win by now) wins unless the game is already over.
#[inline]
fn out_of_plies(position: &Position, key: &Key) -> Option<Verdict> {
    if key.plies_left() != Some(0) {
        return None;
    }
    Some(if position.winner().is_some() {
        Verdict::GameOver
    } else {
        Verdict::OutOfPlies
    })
}

/// The keys whose entries may answer a bounded question (see
/// `Dfpn::implied_by_other_bounds`): the same position two plies shorter, plain,
/// and two plies longer; none for a plain key.
#[inline]
fn other_bounds(key: &Key) -> [Option<Key>; 3] {
    let Some(plies) = key.plies_left() else {
        return [None; 3];
    };
    let with_plies = |plies: u32| {
        (plies <= MAX_HORIZON).then(|| Key {
            horizon: plies as u8 + 1,
            ..*key
        })
    };
    [
        plies.checked_sub(2).and_then(with_plies),
        Some(Key { horizon: 0, ..*key }),
        with_plies(plies + 2),
    ]
}

/// Whether numbers are a proof or a disproof.
#[inline]
fn solved((phi, delta): &(Pn, Pn)) -> bool {
    *phi == Pn::ZERO || *delta == Pn::ZERO
}

/// What deep df-pn (after Zhang, Iida & van den Herik 2017) adds to both initial
/// numbers of an open leaf `depth` plies below the root: `bias - 1 - depth`, down
/// to 0 from `bias - 1` plies on. Shallow leaves look costlier to prove and to
/// disprove than deep ones, so the search finishes the lines it is in before it
/// opens new ones near the root, where plain df-pn keeps switching between
/// siblings. `bias` 0 turns it off. The default, the board's number of squares, was
/// chosen on sets of positions after two random plies (one thread, nodes against
/// plain df-pn+): best near 15-20 on boards 3 and 4 wide, 25-35 on 5 and 6 wide.
///
/// A node costs more with it: the search spends its nodes further from what it has
/// seen, so more of a new node's children are new leaves, each classified with the
/// race search; it takes fewer nodes by more than that (`docs/performance.md`).
#[inline]
pub(crate) fn depth_bias(bias: u32, depth: usize) -> u32 {
    let depth = u32::try_from(depth).unwrap_or(u32::MAX);
    bias.saturating_sub(depth.saturating_add(1))
}

/// The `D` a search of `board` uses: `chosen`, or by default the board's number of
/// squares.
#[inline]
pub(crate) fn bias_for(chosen: Option<u32>, board: Board) -> u32 {
    chosen.unwrap_or_else(|| board.squares())
}

/// The child to descend into as the virtual numbers of [`Team::virtual_delta`] see it.
struct Steer {
    least: Pn,
    second: Pn,
    index: usize,
    /// The child's real numbers.
    numbers: (Pn, Pn),
}

impl Default for Steer {
    fn default() -> Self {
        Steer {
            least: Pn::INF,
            second: Pn::INF,
            index: 0,
            numbers: (Pn::INF, Pn::INF),
        }
    }
}

impl Steer {
    /// Takes in child `index`, whose `delta` looks like `seen` to this thread, with
    /// its real `numbers`.
    #[inline]
    fn add(&mut self, index: usize, seen: Pn, numbers: (Pn, Pn)) {
        if seen < self.least {
            *self = Steer {
                least: seen,
                second: self.least,
                index,
                numbers,
            };
        } else if seen < self.second {
            self.second = seen;
        }
    }
}

/// A position's numbers as [`Dfpn::gather`] sums them up from its children's, with
/// the child to descend into.
struct Gathered {
    /// The least `delta` of a child.
    phi: Pn,
    /// The sum of the children's `phi`.
    delta: Pn,
    /// The second least `delta` of a child.
    second: Pn,
    /// The first child of least `delta`, and its `phi`.
    best: usize,
    best_phi: Pn,
    /// The same choice with other threads' subtrees made to look harder.
    steer: Steer,
}

impl Default for Gathered {
    fn default() -> Self {
        Gathered {
            phi: Pn::INF,
            delta: Pn::ZERO,
            second: Pn::INF,
            best: 0,
            best_phi: Pn::ZERO,
            steer: Steer::default(),
        }
    }
}

impl Gathered {
    /// Takes in child `index` with its numbers.
    #[inline]
    fn add(&mut self, index: usize, (phi, delta): (Pn, Pn)) {
        if delta < self.phi {
            self.second = self.phi;
            self.phi = delta;
            self.best = index;
            self.best_phi = phi;
        } else if delta < self.second {
            self.second = delta;
        }
        self.delta = self.delta + phi;
    }

    /// The child to search next and its thresholds (`phi`, `delta`), in a position
    /// searched to `th_phi` and `th_delta`.
    #[inline]
    fn descent(
        &self,
        th_phi: Pn,
        th_delta: Pn,
        steering: bool,
        inverse_epsilon: u32,
    ) -> (usize, Pn, Pn) {
        // Steer away from other threads' subtrees, unless the child that leaves is
        // already over our threshold (then descending there would be no progress).
        let (best, second, best_phi) = if steering && self.steer.numbers.1 < th_phi {
            (self.steer.index, self.steer.second, self.steer.numbers.0)
        } else {
            (self.best, self.second, self.best_phi)
        };
        // The best child may spend our delta margin, and run until its delta passes
        // the second best's by the epsilon factor.
        let child_th_phi = th_delta.minus(self.delta.minus(best_phi));
        let child_th_delta = th_phi.min(second.grow(inverse_epsilon));
        (best, child_th_phi, child_th_delta)
    }
}

/// How a df-pn search runs, apart from its table, its threads, its limits and its
/// observer.
#[derive(Clone, Copy, Debug)]
pub struct DfpnConfig<'a> {
    /// `1/epsilon` of the 1+epsilon trick (4 means epsilon = 1/4).
    pub inverse_epsilon: u32,
    /// The race rules applied.
    pub race_rules: RaceRules,
    /// Deep df-pn's `D` (see [`crate::SolveOptions::depth_bias`]); `None`: the
    /// board's number of squares.
    pub depth_bias: Option<u32>,
    /// What the search is for, as progress reports say.
    pub phase: Phase,
    /// Positions proven elsewhere (a campaign's store), taken as settled where the
    /// search meets them.
    pub proven: Option<&'a dyn ProvenElsewhere>,
    /// How far a new leaf's numbers follow the estimate of who wins (see
    /// [`estimate::initial_numbers`]; 0: not at all, plain mobility).
    pub estimate_weight: f32,
}

impl Default for DfpnConfig<'_> {
    fn default() -> Self {
        DfpnConfig {
            inverse_epsilon: 4,
            race_rules: RaceRules::default(),
            depth_bias: None,
            phase: Phase::Search,
            proven: None,
            estimate_weight: estimate::DEFAULT_WEIGHT,
        }
    }
}

/// One thread's df-pn search over a table, which other threads of its team may share
/// (see [`crate::search::parallel`]).
pub(crate) struct Dfpn<'a> {
    table: &'a Table,
    team: &'a Team,
    /// This thread's stores, not yet added to the table's counts.
    tally: Tally,
    /// This thread's nodes already added to the team's count.
    shared_nodes: u64,
    budget: Budget,
    config: DfpnConfig<'a>,
    /// What the race rules decided.
    race_rules: RaceRuleStats,
    root_numbers: (Pn, Pn),
    /// Child lists, one per depth, reused so that the search does not allocate.
    frames: Vec<Vec<Child>>,
    observer: &'a mut dyn FnMut(&Progress),
    /// How often the search met a position proven elsewhere.
    proven_hits: u64,
    /// Made at the first re-entry race search, so that a search without one (a
    /// board under [`REENTRY_MIN_SQUARES`]) does not hold its 2 MiB.
    raced_again: Option<RacedAgain>,
}

impl<'a> Dfpn<'a> {
    pub fn new(
        table: &'a Table,
        team: &'a Team,
        limits: Limits,
        config: DfpnConfig<'a>,
        observer: &'a mut dyn FnMut(&Progress),
    ) -> Self {
        Dfpn {
            table,
            team,
            tally: Tally::default(),
            shared_nodes: 0,
            budget: Budget::new(limits),
            config,
            race_rules: RaceRuleStats::default(),
            root_numbers: (Pn::ONE, Pn::ONE),
            frames: Vec::new(),
            observer,
            proven_hits: 0,
            raced_again: None,
        }
    }

    /// Nodes this thread has searched.
    pub fn nodes(&self) -> u64 {
        self.budget.nodes()
    }

    /// Stops work that searches no nodes (a proof's extraction, which may write
    /// much with the table alone) when the search would stop.
    pub fn check_stop(&self) -> Result<(), Stop> {
        if self.team.halted() || self.budget.stop_requested() {
            return Err(Stop::Interrupted);
        }
        Ok(())
    }

    /// What the race rules decided.
    pub fn race_rules(&self) -> RaceRuleStats {
        self.race_rules
    }

    /// The root's numbers as the search last saw them.
    pub fn root_numbers(&self) -> (Pn, Pn) {
        self.root_numbers
    }

    /// Takes these as the root's numbers until the search computes them: a search
    /// that goes on from another one reports them if it stops first.
    pub fn assume_root_numbers(&mut self, numbers: (Pn, Pn)) {
        self.root_numbers = numbers;
    }

    /// How often the search met a position proven elsewhere.
    pub fn proven_hits(&self) -> u64 {
        self.proven_hits
    }

    /// Whether the side to move wins a position proven elsewhere (only plain
    /// questions: a bounded one is not what was proven).
    #[inline]
    pub(crate) fn proven_wins(&self, key: &Key) -> Option<bool> {
        match self.config.proven {
            Some(proven) if key.horizon == 0 => proven.wins(key),
            _ => None,
        }
    }

    /// Searches the root until it is solved or its numbers reach `thresholds`
    /// (`phi`, `delta`); returns its numbers and, when won, the winning move.
    /// `key` is the root's, and says the question: who wins, or (a bounded key, see
    /// [`Key::within`]) whether a side wins within a number of plies.
    pub fn search_root(
        &mut self,
        root: &Position,
        key: Key,
        thresholds: (Pn, Pn),
    ) -> Result<(Pn, Pn, Option<Step>), Stop> {
        let (phi, delta, best) = self.mid(
            0,
            root,
            key,
            key.hash(),
            thresholds.0,
            thresholds.1,
            Seen::Never,
        )?;
        self.root_numbers = (phi, delta);
        if phi != Pn::ZERO {
            return Ok((phi, delta, None));
        }
        // A root won by a win in one was never expanded: its move reaches the goal.
        Ok((phi, delta, best.or_else(|| move_to_goal(root))))
    }

    /// The rules for a position with this key. A bounded question about the side to
    /// move needs race wins short enough to count (see [`race_moves_cap`]). Every
    /// other rule holds whatever the plies left (at least 1 for the side the
    /// question is about, at least 2 for the other one, see [`out_of_plies`]): a move that leaves a threat uncaptured lets the
    /// opponent win on the next ply, and a race win of the other side ends the game
    /// against the side the question is about.
    #[inline]
    fn rules_at(&self, key: &Key) -> RaceRules {
        match race_moves_cap(key) {
            Some(cap) => RaceRules {
                race_moves: self.config.race_rules.race_moves.min(cap),
                ..self.config.race_rules
            },
            None => self.config.race_rules,
        }
    }

    /// The race wins looked for when an expanded position is entered again: `None`
    /// without a race search, or where a bounded question's plies leave no room for
    /// them.
    #[inline]
    fn reentry_race_moves(&self, position: &Position, key: &Key) -> Option<u32> {
        let rules = self.config.race_rules;
        if !rules.enabled
            || rules.race_moves < 2
            || position.board().squares() < REENTRY_MIN_SQUARES
        {
            return None;
        }
        let moves = rules.race_moves + REENTRY_EXTRA_MOVES;
        match race_moves_cap(key) {
            Some(cap) if moves > cap => None,
            _ => Some(moves),
        }
    }

    /// A bounded question's answer that another entry of the same position implies:
    /// who wins within `k - 2` plies wins within `k`; who does not win within
    /// `k + 2`, or loses outright (the plain entry), does not win within `k`. The
    /// length search asks its questions two plies apart over the table of its plain
    /// solve, so such entries are there to be found.
    #[inline]
    fn implied_by_other_bounds(&self, key: &Key) -> Option<(Pn, Pn)> {
        let plies = key.plies_left()?;
        // Odd plies left: the side to move is the side the question is about.
        let mover_is_winner = plies % 2 == 1;
        let [fewer, plain, more] = other_bounds(key);
        let entry = |key: Option<Key>| key.and_then(|key| self.table.probe(&key, key.hash()));
        let winner_wins =
            |(phi, delta): &(Pn, Pn)| (if mover_is_winner { *phi } else { *delta }) == Pn::ZERO;
        entry(fewer)
            .filter(winner_wins)
            .or_else(|| entry(plain).filter(|numbers| !winner_wins(numbers) && solved(numbers)))
            .or_else(|| entry(more).filter(|numbers| !winner_wins(numbers) && solved(numbers)))
    }

    /// Initial numbers of a position seen for the first time, `depth` plies below the
    /// search's root (df-pn+ with mobility and an estimate, made deep): one good move
    /// proves a win, so `phi = 1`; every move must fail for a loss, so `delta` is the
    /// number of moves worth searching; both scaled by the estimate of who wins
    /// ([`estimate::initial_numbers`]), and grown by [`depth_bias`] the nearer the
    /// leaf is to the root.
    #[inline]
    fn leaf_numbers(&mut self, position: &Position, key: &Key, depth: usize) -> (Pn, Pn) {
        if let Some(wins) = self.proven_wins(key) {
            self.proven_hits += 1;
            return if wins {
                (Pn::ZERO, Pn::INF)
            } else {
                (Pn::INF, Pn::ZERO)
            };
        }
        let verdict = match out_of_plies(position, key) {
            Some(verdict) => verdict,
            None => {
                if let Some(numbers) = self.implied_by_other_bounds(key) {
                    return numbers;
                }
                self.rules_at(key).classify_leaf(position)
            }
        };
        self.race_rules.count(verdict);
        let moves = match verdict {
            Verdict::WinInOne | Verdict::RaceWin { .. } | Verdict::OutOfPlies => {
                return (Pn::ZERO, Pn::INF);
            }
            Verdict::GameOver | Verdict::DoubleThreat | Verdict::UnstoppableThreat => {
                return (Pn::INF, Pn::ZERO);
            }
            Verdict::MustCapture { captures, .. } => captures,
            Verdict::Open => position.move_count(),
        };
        let extra = depth_bias(bias_for(self.config.depth_bias, position.board()), depth);
        let (phi, delta) = estimate::initial_numbers(position, moves, self.config.estimate_weight);
        (
            Pn::new(extra.saturating_add(phi)),
            Pn::new(delta.saturating_add(extra)),
        )
    }

    /// The figures now.
    pub fn progress(&self) -> Progress {
        Progress::snapshot(
            &self.budget,
            self.root_numbers,
            self.table,
            self.config.phase,
        )
    }

    /// Adds this thread's new nodes and stores to the shared counts, and learns the
    /// other threads' nodes for the node limit.
    pub fn flush(&mut self) {
        let nodes = self.budget.nodes();
        let others = self.team.add_nodes(nodes - self.shared_nodes, nodes);
        self.shared_nodes = nodes;
        self.budget.set_others(others);
        self.table.add(&mut self.tally);
    }

    /// Counts a node; now and then shares the counts and reports progress. Stops
    /// when a limit is reached or another thread has ended the search.
    #[inline]
    fn tick(&mut self) -> Result<(), Stop> {
        if self.team.halted() {
            return Err(Stop::Interrupted);
        }
        if self.budget.tick()? {
            self.flush();
            let progress = self.progress();
            (self.observer)(&progress);
        }
        Ok(())
    }

    #[inline]
    fn store(&mut self, key: &Key, hash: u64, numbers: (Pn, Pn), work: u64) {
        self.table
            .store(key, hash, numbers.0, numbers.1, work, &mut self.tally);
    }

    /// The multiple iterative deepening step of df-pn: searches `position` until its
    /// `phi >= th_phi` or `delta >= th_delta`; returns its numbers and, when proven
    /// won, the move that wins.
    ///
    /// `seen`: what the position has been through; the race search, the costly part
    /// of the rules, is run once for each length (see [`Seen`]).
    ///
    /// A position the rules do not decide is expanded, and its children searched in
    /// turn by [`Dfpn::search_children`], which keeps their numbers in the frame.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn mid(
        &mut self,
        depth: usize,
        position: &Position,
        key: Key,
        hash: u64,
        th_phi: Pn,
        th_delta: Pn,
        seen: Seen,
    ) -> Result<(Pn, Pn, Option<Step>), Stop> {
        self.tick()?;
        let nodes_before = self.budget.nodes();
        let verdict = self.verdict_on_entry(position, &key, hash, seen);
        if let Some(wins) = verdict.side_to_move_wins() {
            return Ok(self.settle(&key, hash, verdict, wins));
        }
        let mut children = self.expand(depth, position, &key, verdict);
        // Busy marks only near the root (see `STEER_DEPTH`).
        let marked = self.team.steers_at(depth);
        if marked {
            self.team.enter(hash);
        }
        let result = self.search_children(depth, &mut children, th_phi, th_delta);
        self.keep_frame(depth, children);
        if marked {
            self.team.leave(hash);
        }
        let (phi, delta, step) = result?;
        let work = self.budget.nodes() - nodes_before + 1;
        self.store(&key, hash, (phi, delta), work);
        Ok((phi, delta, step))
    }

    /// What the rules say of a position [`Dfpn::mid`] enters, running only the rules
    /// that `seen` says it still needs.
    #[inline]
    fn verdict_on_entry(
        &mut self,
        position: &Position,
        key: &Key,
        hash: u64,
        seen: Seen,
    ) -> Verdict {
        let rules = self.rules_at(key);
        match (out_of_plies(position, key), seen) {
            (Some(verdict), _) => verdict,
            (None, Seen::Never) => rules.classify(position),
            (None, Seen::AsLeaf) => match rules.threats(position) {
                Verdict::Open => rules.long_races(position),
                verdict => verdict,
            },
            (None, Seen::Expanded { descended }) => match rules.threats(position) {
                Verdict::Open if descended => self.race_again(rules, position, key, hash),
                verdict => verdict,
            },
        }
    }

    /// The longer race search of a position entered again after a search below it
    /// (see [`Seen::Expanded`]). A position this thread remembers having found open
    /// is taken as open without the search, which would only find that again.
    #[inline]
    fn race_again(
        &mut self,
        rules: RaceRules,
        position: &Position,
        key: &Key,
        hash: u64,
    ) -> Verdict {
        let Some(moves) = self.reentry_race_moves(position, key) else {
            return Verdict::Open;
        };
        let raced_again = self.raced_again.get_or_insert_with(RacedAgain::new);
        if raced_again.holds(hash) {
            return Verdict::Open;
        }
        let verdict = rules.races_of(position, moves);
        if verdict == Verdict::Open {
            raced_again.remember(hash);
        }
        verdict
    }

    /// Stores and returns the numbers of a position the rules have decided (`wins`:
    /// whether the side to move wins), with the winning move of a race win.
    #[inline]
    fn settle(
        &mut self,
        key: &Key,
        hash: u64,
        verdict: Verdict,
        wins: bool,
    ) -> (Pn, Pn, Option<Step>) {
        self.race_rules.count(verdict);
        let numbers = if wins {
            (Pn::ZERO, Pn::INF)
        } else {
            (Pn::INF, Pn::ZERO)
        };
        self.store(key, hash, numbers, 1);
        let step = match verdict {
            Verdict::RaceWin { step, .. } => Some(step),
            _ => None,
        };
        (numbers.0, numbers.1, step)
    }

    /// The children of `position` by the moves `verdict` allows, in the list kept for
    /// `depth`, so that the search does not allocate.
    #[inline]
    fn expand(
        &mut self,
        depth: usize,
        position: &Position,
        key: &Key,
        verdict: Verdict,
    ) -> Vec<Child> {
        let mut children = self
            .frames
            .get_mut(depth)
            .map(std::mem::take)
            .unwrap_or_default();
        children.clear();
        position.for_each_step(|step| {
            if !verdict.allows(step) {
                return;
            }
            let child = position.play_step(step);
            let key = key.of_child(&child);
            children.push(Child {
                position: child,
                key,
                hash: key.hash(),
                step,
                known: None,
                work: 0,
            });
        });
        debug_assert!(!children.is_empty() && children.len() <= MAX_MOVES);
        children
    }

    /// Gives the list back for the next position searched at `depth`.
    #[inline]
    fn keep_frame(&mut self, depth: usize, children: Vec<Child>) {
        if self.frames.len() <= depth {
            self.frames.resize_with(depth + 1, Vec::new);
        }
        self.frames[depth] = children;
    }

    /// The loop of [`Dfpn::mid`] over an expanded position's `children`: gathers
    /// their numbers into the position's, and searches the child they point to, until
    /// the position's numbers reach `th_phi` or `th_delta`; returns them and, when
    /// won, the winning move.
    ///
    /// The children's numbers are read from the table once, when the position is
    /// entered; later iterations of the loop keep them in the frame and update only
    /// the child just searched, whose new numbers its search returns. That saves a
    /// probe (a likely cache miss) per child and iteration; a sibling that a
    /// transposition or another thread changed meanwhile is seen the next time the
    /// position is entered. Numbers read late only steer the search less well: a
    /// proof is still a proof, since a child proven in the frame is proven in truth.
    #[inline]
    fn search_children(
        &mut self,
        depth: usize,
        children: &mut [Child],
        th_phi: Pn,
        th_delta: Pn,
    ) -> Result<(Pn, Pn, Option<Step>), Stop> {
        // Steering only near the root (see `STEER_DEPTH`).
        let steering = self.team.steers_at(depth + 1);
        loop {
            self.prefetch_unknown(children);
            let gathered = self.gather(depth, children, steering);
            if depth == 0 {
                self.root_numbers = (gathered.phi, gathered.delta);
            }
            if gathered.phi >= th_phi || gathered.delta >= th_delta {
                let step = (gathered.phi == Pn::ZERO).then(|| children[gathered.best].step);
                return Ok((gathered.phi, gathered.delta, step));
            }
            let (best, child_th_phi, child_th_delta) =
                gathered.descent(th_phi, th_delta, steering, self.config.inverse_epsilon);
            self.search_child(depth, &mut children[best], child_th_phi, child_th_delta)?;
        }
    }

    /// Starts loading the entries of the children the frame has no numbers for, so
    /// that the probes of [`Dfpn::gather`] that follow overlap their cache misses.
    #[inline]
    fn prefetch_unknown(&self, children: &[Child]) {
        for child in children.iter().filter(|child| child.known.is_none()) {
            self.table.prefetch(child.hash);
            if let Some(proven) = self.config.proven {
                proven.prefetch(child.hash);
            }
            for other in other_bounds(&child.key).into_iter().flatten() {
                self.table.prefetch(other.hash());
            }
        }
    }

    /// The position's numbers from its children's (`phi` the least `delta` of a
    /// child, `delta` the sum of their `phi`), and the child to descend into.
    #[inline]
    fn gather(&mut self, depth: usize, children: &mut [Child], steering: bool) -> Gathered {
        let mut gathered = Gathered::default();
        for (index, child) in children.iter_mut().enumerate() {
            let numbers = self.child_numbers(depth, child);
            gathered.add(index, numbers);
            if steering {
                let seen = self.team.virtual_delta(child.hash, numbers.1);
                gathered.steer.add(index, seen, numbers);
            }
        }
        gathered
    }

    /// A child's numbers, which the frame then knows: the frame's own, else the
    /// table's, else a new leaf's first evaluation, stored (as the cheapest entry) so
    /// that the next visit need not classify it again.
    #[inline]
    fn child_numbers(&mut self, depth: usize, child: &mut Child) -> (Pn, Pn) {
        let numbers = match child.known {
            Some(numbers) => numbers,
            None => match self.table.probe_with_work(&child.key, child.hash) {
                Some((phi, delta, work)) => {
                    child.work = u64::from(work);
                    (phi, delta)
                }
                None => {
                    let numbers = self.leaf_numbers(&child.position, &child.key, depth + 1);
                    self.store(&child.key, child.hash, numbers, 0);
                    numbers
                }
            },
        };
        child.known = Some(numbers);
        numbers
    }

    /// Searches `child` of a position at `depth` to these thresholds, and keeps in the
    /// frame the numbers its search returns and the nodes it took.
    #[inline]
    fn search_child(
        &mut self,
        depth: usize,
        child: &mut Child,
        th_phi: Pn,
        th_delta: Pn,
    ) -> Result<(), Stop> {
        let nodes_before = self.budget.nodes();
        let (phi, delta, _) = self.mid(
            depth + 1,
            &child.position,
            child.key,
            child.hash,
            th_phi,
            th_delta,
            child.seen(),
        )?;
        child.known = Some((phi, delta));
        child.work = self.budget.nodes() - nodes_before;
        Ok(())
    }
}
