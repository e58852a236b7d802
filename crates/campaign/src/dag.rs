//! The master's proof-number DAG over the top of the game.
//!
//! Positions that transpose, and mirror images, are one node (keyed by the solver's
//! [`Key`]); Breakthrough has no cycles (every move goes forward), so the graph is a
//! DAG. Numbers are in negamax form, as in the solver: `phi` is the effort to prove
//! the side to move wins, `delta` to prove it loses; an expanded node has `phi =
//! min(child delta)` and `delta = sum(child phi)`. Leaves take the numbers their
//! jobs report. A leaf is handed out as a job at most once at a time (locked while
//! in flight, as PPN2 reserves its leaves), and the next job goes to the most-proving
//! leaf that is free.

use breakthrough_engine::{Color, Position, Step};
use breakthrough_solver::{Key, Pn};
use hashbrown::{HashMap, HashSet};

use crate::top::TopNode;

/// Where a node stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Not expanded: the next job on it searches below it.
    Leaf,
    /// A worker is searching it now.
    InFlight,
    /// Its children are in the DAG.
    Expanded,
}

/// A move out of an expanded node.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// The move, in the node's own position (not its mirror image).
    pub step: Step,
    /// The child's node; `None` when the move wins the game at once.
    pub child: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct Node {
    /// The position, as first reached (its mirror image shares the node).
    pub position: Position,
    pub phi: Pn,
    pub delta: Pn,
    pub state: State,
    pub edges: Vec<Edge>,
    pub parents: Vec<u32>,
}

impl Node {
    pub fn is_solved(&self) -> bool {
        self.phi == Pn::ZERO || self.delta == Pn::ZERO
    }

    /// Whether the side to move wins, when solved.
    pub fn wins(&self) -> Option<bool> {
        if self.phi == Pn::ZERO {
            Some(true)
        } else if self.delta == Pn::ZERO {
            Some(false)
        } else {
            None
        }
    }
}

/// The numbers of a proven win and a proven loss of the side to move.
pub const WON: (Pn, Pn) = (Pn::ZERO, Pn::INF);
pub const LOST: (Pn, Pn) = (Pn::INF, Pn::ZERO);

/// The master's DAG; node 0 is the root.
#[derive(Clone, Debug)]
pub struct Dag {
    pub nodes: Vec<Node>,
    index: HashMap<Key, u32>,
}

impl Dag {
    pub fn new(root: Position) -> Dag {
        let mut dag = Dag {
            nodes: Vec::new(),
            index: HashMap::new(),
        };
        dag.add(root, (Pn::ONE, Pn::ONE));
        dag
    }

    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn find(&self, position: &Position) -> Option<u32> {
        self.index.get(&Key::of(position)).copied()
    }

    /// Adds a leaf for a position not in the DAG yet; returns its index.
    pub fn add(&mut self, position: Position, numbers: (Pn, Pn)) -> u32 {
        let id = self.nodes.len() as u32;
        self.index.insert(Key::of(&position), id);
        self.nodes.push(Node {
            position,
            phi: numbers.0,
            delta: numbers.1,
            state: State::Leaf,
            edges: Vec::new(),
            parents: Vec::new(),
        });
        id
    }

    /// Expands leaf `id` with every legal move: `child_numbers` gives a new child's
    /// numbers (and may say it is solved). Returns the new children.
    pub fn expand(
        &mut self,
        id: u32,
        mut child_numbers: impl FnMut(&Position, Step) -> (Pn, Pn),
    ) -> Vec<u32> {
        let position = self.nodes[id as usize].position;
        let mut edges = Vec::new();
        let mut added = Vec::new();
        for step in position.steps() {
            let next = position.play_step(step);
            let child = if next.winner().is_some() {
                None
            } else {
                let child = match self.find(&next) {
                    Some(child) => child,
                    None => {
                        let numbers = child_numbers(&next, step);
                        let child = self.add(next, numbers);
                        added.push(child);
                        child
                    }
                };
                let parents = &mut self.nodes[child as usize].parents;
                if !parents.contains(&id) {
                    parents.push(id);
                }
                Some(child)
            };
            edges.push(Edge { step, child });
        }
        let node = &mut self.nodes[id as usize];
        node.edges = edges;
        node.state = State::Expanded;
        self.update(id);
        added
    }

    /// An expanded node's numbers from its children's.
    fn gathered(&self, id: u32) -> (Pn, Pn) {
        let mut phi = Pn::INF;
        let mut delta = Pn::ZERO;
        for edge in &self.nodes[id as usize].edges {
            let Some(child) = edge.child else {
                return WON;
            };
            let child = &self.nodes[child as usize];
            phi = phi.min(child.delta);
            delta = delta + child.phi;
        }
        (phi, delta)
    }

    /// Sets a leaf's numbers (a job's partial or final result) and brings its
    /// ancestors up to date.
    pub fn set_numbers(&mut self, id: u32, numbers: (Pn, Pn)) {
        let node = &mut self.nodes[id as usize];
        if node.is_solved() {
            return; // Solved is final.
        }
        (node.phi, node.delta) = numbers;
        self.update_parents(id);
    }

    /// Recomputes `id` (expanded) and then every ancestor whose numbers change.
    fn update(&mut self, id: u32) {
        let numbers = self.gathered(id);
        let node = &mut self.nodes[id as usize];
        (node.phi, node.delta) = numbers;
        self.update_parents(id);
    }

    fn update_parents(&mut self, id: u32) {
        let mut work: Vec<u32> = self.nodes[id as usize].parents.clone();
        while let Some(parent) = work.pop() {
            let numbers = self.gathered(parent);
            let node = &mut self.nodes[parent as usize];
            if node.is_solved() || (node.phi, node.delta) == numbers {
                continue;
            }
            (node.phi, node.delta) = numbers;
            work.extend_from_slice(&node.parents);
        }
    }

    /// The most-proving free leaf and the thresholds a job on it gets: from the
    /// root, the child of least `delta` first, passing over subtrees whose every open
    /// leaf is in flight. The thresholds are df-pn's (with the 1+epsilon trick), so
    /// that a job ends when its leaf stops being the most promising, as df-pn would
    /// leave it. `None` when no leaf is free (or the root is solved).
    pub fn select(&self, inverse_epsilon: u32) -> Option<(u32, (Pn, Pn))> {
        let mut seen = HashSet::new();
        self.select_below(0, (Pn::INF, Pn::INF), inverse_epsilon, &mut seen)
    }

    fn select_below(
        &self,
        id: u32,
        thresholds: (Pn, Pn),
        inverse_epsilon: u32,
        seen: &mut HashSet<u32>,
    ) -> Option<(u32, (Pn, Pn))> {
        let node = &self.nodes[id as usize];
        if node.is_solved() {
            return None;
        }
        match node.state {
            State::Leaf => Some((id, thresholds)),
            State::InFlight => None,
            State::Expanded => {
                if !seen.insert(id) {
                    return None;
                }
                let (th_phi, th_delta) = thresholds;
                let mut open: Vec<(Pn, u32)> = node
                    .edges
                    .iter()
                    .filter_map(|edge| edge.child)
                    .map(|child| (self.nodes[child as usize].delta, child))
                    .filter(|&(delta, _)| delta != Pn::ZERO)
                    .collect();
                open.sort_unstable();
                open.dedup();
                for (i, &(delta, child)) in open.iter().enumerate() {
                    let phi = self.nodes[child as usize].phi;
                    // The next child in line is what this one must stay ahead of.
                    let second = open.get(i + 1).map_or(Pn::INF, |&(d, _)| d);
                    let child_th_phi = th_delta.minus(node.delta.minus(phi));
                    let child_th_delta = th_phi.min(second.grow(inverse_epsilon));
                    // At least one step of progress, even past a locked sibling.
                    let child_thresholds = (
                        child_th_phi.max(phi.grow(u32::MAX)),
                        child_th_delta.max(delta.grow(u32::MAX)),
                    );
                    if let Some(found) =
                        self.select_below(child, child_thresholds, inverse_epsilon, seen)
                    {
                        return Some(found);
                    }
                }
                None
            }
        }
    }

    /// Leaves in flight back to plain leaves (after a run, or when loading).
    pub fn release_all(&mut self) {
        for node in &mut self.nodes {
            if node.state == State::InFlight {
                node.state = State::Leaf;
            }
        }
    }

    /// The DAG's memory in bytes, near enough: nodes, their edge and parent lists,
    /// and the index.
    pub fn memory_bytes(&self) -> usize {
        let lists: usize = self
            .nodes
            .iter()
            .map(|node| {
                node.edges.capacity() * std::mem::size_of::<Edge>()
                    + node.parents.capacity() * std::mem::size_of::<u32>()
            })
            .sum();
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + lists
            + self.index.capacity() * (std::mem::size_of::<(Key, u32)>() + 1)
    }

    /// Nodes in each state: (leaves, in flight, expanded), and how many are solved.
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let mut counts = (0, 0, 0, 0);
        for node in &self.nodes {
            match node.state {
                State::Leaf => counts.0 += 1,
                State::InFlight => counts.1 += 1,
                State::Expanded => counts.2 += 1,
            }
            counts.3 += usize::from(node.is_solved());
        }
        counts
    }

    /// Whether each of the root's moves, in its edges' order, wins for the side
    /// playing it: a move that reaches the goal does; `None` while open.
    pub fn first_moves(&self) -> Vec<Option<bool>> {
        self.root()
            .edges
            .iter()
            .map(|edge| match edge.child {
                None => Some(true),
                Some(child) => self.nodes[child as usize].wins().map(|wins| !wins),
            })
            .collect()
    }

    /// The DAG by depth: for each number of plies from the root (a node reached by
    /// lines of several lengths at the shortest), its nodes and how many are solved.
    pub fn depth_counts(&self) -> Vec<(u64, u64)> {
        let mut counts = Vec::new();
        let mut seen = vec![false; self.nodes.len()];
        let mut level = vec![0u32];
        seen[0] = true;
        while !level.is_empty() {
            let solved = level
                .iter()
                .filter(|&&id| self.nodes[id as usize].is_solved())
                .count();
            counts.push((level.len() as u64, solved as u64));
            let mut next = Vec::new();
            for &id in &level {
                for child in self.nodes[id as usize].edges.iter().filter_map(|e| e.child) {
                    if !std::mem::replace(&mut seen[child as usize], true) {
                        next.push(child);
                    }
                }
            }
            level = next;
        }
        counts
    }

    /// For each solved node, how many of the `unproven` leaves (ascending ids) the
    /// cheapest proof of its value takes as given: the winner's cheapest move, the
    /// sum over the loser's replies (a leaf shared by several lines counts in each).
    /// Open nodes get `u64::MAX`. [`Dag::top_node`] follows it, so that the root's
    /// proof leans on leaves already proven wherever it has the choice.
    pub fn proving_costs(&self, unproven: &[u32]) -> Vec<u64> {
        let mut costs = vec![u64::MAX; self.nodes.len()];
        let mut done = vec![false; self.nodes.len()];
        let mut stack = vec![(0u32, false)];
        while let Some((id, children_done)) = stack.pop() {
            let node = &self.nodes[id as usize];
            if done[id as usize] || !node.is_solved() {
                done[id as usize] = true;
                continue;
            }
            if node.state != State::Expanded {
                costs[id as usize] = u64::from(unproven.binary_search(&id).is_ok());
                done[id as usize] = true;
                continue;
            }
            // The winner needs one lost child (or a move that ends the game), the
            // loser's every child is won.
            let needed = node.edges.iter().filter(|edge| {
                edge.child.is_none_or(|child| {
                    node.wins() == Some(false) || self.nodes[child as usize].wins() == Some(false)
                })
            });
            if children_done {
                let costs_of = needed.map(|edge| edge.child.map_or(0, |c| costs[c as usize]));
                costs[id as usize] = if node.wins() == Some(true) {
                    costs_of.min().unwrap_or(u64::MAX)
                } else {
                    costs_of.fold(0, u64::saturating_add)
                };
                done[id as usize] = true;
                continue;
            }
            stack.push((id, true));
            for child in needed.filter_map(|edge| edge.child) {
                if !done[child as usize] {
                    stack.push((child, false));
                }
            }
        }
        costs
    }

    /// What the top proof does at `position` (reached by the winner's strategy):
    /// a solved leaf is given (a part proves it); an expanded node plays a move that
    /// ends the game or, of its moves into a lost child, the one of least cost in
    /// `costs` (see [`Dag::proving_costs`]; the first of equals), or lets the loser
    /// reply.
    pub fn top_node(&self, position: &Position, winner: Color, costs: &[u64]) -> Option<TopNode> {
        let id = self.find(position)?;
        let node = &self.nodes[id as usize];
        node.is_solved().then_some(())?;
        if node.state != State::Expanded {
            return Some(TopNode::Given);
        }
        if position.to_move() != winner {
            return Some(TopNode::Replies);
        }
        // The moves of the position as reached, which may be the node's mirror image.
        let steps = position.steps();
        let finishing = steps
            .iter()
            .find(|&&step| position.play_step(step).winner() == Some(winner));
        if let Some(&step) = finishing {
            return Some(TopNode::Move(step));
        }
        steps
            .into_iter()
            .filter_map(|step| {
                let child = self.find(&position.play_step(step))?;
                (self.nodes[child as usize].wins() == Some(false))
                    .then(|| (costs[child as usize], step))
            })
            .min_by_key(|&(cost, _)| cost)
            .map(|(_, step)| TopNode::Move(step))
    }

    /// Sets leaves' numbers, solved or not, and recomputes every node above them
    /// (where [`Dag::set_numbers`] takes a solved node as final): to open solved
    /// leaves again, or to correct them.
    pub fn set_leaves(&mut self, leaves: &[(u32, (Pn, Pn))]) {
        for &(id, numbers) in leaves {
            let node = &mut self.nodes[id as usize];
            debug_assert_eq!(node.state, State::Leaf);
            (node.phi, node.delta) = numbers;
        }
        self.recompute_all();
    }

    /// Recomputes every expanded node's numbers from its children's, leaves first:
    /// after loading, so that no number the leaves do not support survives.
    pub fn recompute_all(&mut self) {
        let mut done = vec![false; self.nodes.len()];
        let mut stack = vec![(0u32, false)];
        while let Some((id, children_done)) = stack.pop() {
            if done[id as usize] {
                continue;
            }
            if self.nodes[id as usize].state != State::Expanded {
                done[id as usize] = true;
                continue;
            }
            if children_done {
                let numbers = self.gathered(id);
                let node = &mut self.nodes[id as usize];
                (node.phi, node.delta) = numbers;
                done[id as usize] = true;
                continue;
            }
            stack.push((id, true));
            for edge in &self.nodes[id as usize].edges {
                if let Some(child) = edge.child {
                    if !done[child as usize] {
                        stack.push((child, false));
                    }
                }
            }
        }
    }

    /// Rebuilds the index and the parent lists after loading the nodes.
    pub fn from_nodes(mut nodes: Vec<Node>) -> Dag {
        let mut index = HashMap::with_capacity(nodes.len());
        for (id, node) in nodes.iter().enumerate() {
            index.insert(Key::of(&node.position), id as u32);
        }
        for node in &mut nodes {
            node.parents.clear();
        }
        for id in 0..nodes.len() {
            let children: Vec<u32> = nodes[id].edges.iter().filter_map(|e| e.child).collect();
            for child in children {
                let parents = &mut nodes[child as usize].parents;
                if !parents.contains(&(id as u32)) {
                    parents.push(id as u32);
                }
            }
        }
        Dag { nodes, index }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root that wins by either of its first two children: the first a lost
    /// leaf, the second lost because its every child (leaves) is won.
    fn two_ways() -> (Dag, u32, u32, Vec<u32>) {
        let mut dag = Dag::new(Position::start("4x5".parse().unwrap()));
        let children = dag.expand(0, |_, _| (Pn::ONE, Pn::ONE));
        let (first, second) = (children[0], children[1]);
        let grandchildren = dag.expand(second, |_, _| WON);
        dag.set_leaves(&[(first, LOST)]);
        assert_eq!(dag.root().wins(), Some(true));
        (dag, first, second, grandchildren)
    }

    fn root_move(dag: &Dag, unproven: &[u32]) -> Option<u32> {
        let root = dag.root().position;
        let costs = dag.proving_costs(unproven);
        match dag.top_node(&root, root.to_move(), &costs)? {
            TopNode::Move(step) => dag.find(&root.play_step(step)),
            _ => None,
        }
    }

    #[test]
    fn the_top_takes_the_move_whose_proof_needs_fewest_unproven_leaves() {
        let (dag, first, second, grandchildren) = two_ways();
        // Nothing to prove: the first of equals.
        assert_eq!(dag.proving_costs(&[])[0], 0);
        assert_eq!(root_move(&dag, &[]), Some(first));
        // The first child unproven: the second needs nothing.
        let costs = dag.proving_costs(&[first]);
        assert_eq!(
            (costs[0], costs[first as usize], costs[second as usize]),
            (0, 1, 0)
        );
        assert_eq!(root_move(&dag, &[first]), Some(second));
        // Two of the second's children unproven: the loser's replies add up.
        let mut unproven = vec![first, grandchildren[0], grandchildren[1]];
        unproven.sort_unstable();
        let costs = dag.proving_costs(&unproven);
        assert_eq!((costs[0], costs[second as usize]), (1, 2));
        assert_eq!(root_move(&dag, &unproven), Some(first));
        // Open nodes have no cost.
        let open = dag.nodes.iter().position(|node| !node.is_solved()).unwrap();
        assert_eq!(costs[open], u64::MAX);
    }
}
