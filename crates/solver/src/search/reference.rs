//! The reference solver: plain exhaustive depth-first search that stops at the first
//! winning move, remembering proven positions in a table, with the same exact endgame
//! race rules as df-pn (without it, 7x4 already takes minutes). It checks df-pn and is
//! the baseline in benchmarks; the race rules themselves are checked against a search
//! that knows only the rules, in the tests.

use breakthrough_engine::{Position, Step, MAX_MOVES};

use crate::limits::Budget;
use crate::race_rules::RaceRules;
use crate::table::Tally;
use crate::{Key, Phase, Pn, Progress, RaceRuleStats, Stop, Table};

pub(crate) struct Reference<'a> {
    pub table: &'a Table,
    tally: Tally,
    pub budget: Budget,
    pub rules: RaceRules,
    pub race_rules: RaceRuleStats,
    observer: &'a mut dyn FnMut(&Progress),
}

impl<'a> Reference<'a> {
    pub fn new(
        table: &'a Table,
        budget: Budget,
        rules: RaceRules,
        observer: &'a mut dyn FnMut(&Progress),
    ) -> Self {
        Reference {
            table,
            tally: Tally::default(),
            budget,
            rules,
            race_rules: RaceRuleStats::default(),
            observer,
        }
    }

    /// Whether the side to move wins at the root, and the first winning move.
    pub fn solve_root(&mut self, root: &Position) -> Result<(bool, Option<Step>), Stop> {
        self.tick()?;
        let verdict = self.rules.classify(root);
        if verdict.side_to_move_wins() == Some(false) {
            return Ok((false, None));
        }
        // The winning move of a win in one is found by the search like any other.
        for step in root.steps() {
            if !self.wins(&root.play_step(step))? {
                return Ok((true, Some(step)));
            }
        }
        Ok((false, None))
    }

    fn tick(&mut self) -> Result<(), Stop> {
        if self.budget.tick()? {
            self.table.add(&mut self.tally);
            let progress = self.progress((Pn::ONE, Pn::ONE));
            (self.observer)(&progress);
        }
        Ok(())
    }

    /// The figures now, with the root's numbers as given.
    pub fn progress(&mut self, root: (Pn, Pn)) -> Progress {
        self.table.add(&mut self.tally);
        Progress::snapshot(&self.budget, root, self.table, Phase::Search)
    }

    /// Whether the side to move wins.
    fn wins(&mut self, position: &Position) -> Result<bool, Stop> {
        self.tick()?;
        let verdict = self.rules.classify(position);
        self.race_rules.count(verdict);
        if let Some(wins) = verdict.side_to_move_wins() {
            return Ok(wins);
        }
        let key = Key::of(position);
        let hash = key.hash();
        if let Some((phi, _)) = self.table.probe(&key, hash) {
            return Ok(phi == Pn::ZERO);
        }
        let nodes_before = self.budget.nodes();
        let mut steps = [Step { from: 0, to: 0 }; MAX_MOVES];
        let mut count = 0;
        position.for_each_step(|step| {
            if !verdict.allows(step) {
                return;
            }
            steps[count] = step;
            count += 1;
        });
        let mut win = false;
        for &step in &steps[..count] {
            if !self.wins(&position.play_step(step))? {
                win = true;
                break;
            }
        }
        let (phi, delta) = if win {
            (Pn::ZERO, Pn::INF)
        } else {
            (Pn::INF, Pn::ZERO)
        };
        self.table.store(
            &key,
            hash,
            phi,
            delta,
            self.budget.nodes() - nodes_before + 1,
            &mut self.tally,
        );
        Ok(win)
    }
}
