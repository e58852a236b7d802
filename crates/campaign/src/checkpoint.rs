//! The master's checkpoint, `DIR/master.ckpt`: the DAG, the runs so far and the
//! root's numbers over time, written crash-safely (write, sync, rename) every few
//! minutes and when a run stops. All integers little-endian:
//!
//! ```text
//! "BTCAMP\0\0", version (u16 = 5), then sections, then a CRC-32 of all before it:
//! figures: positions in the store (u64), jobs in flight (u32), both when written
//! runs:    u32 count, each: started (u64 Unix seconds), seconds (f64), nodes (u64),
//!          jobs (u64), threads (u32), table MiB (u64), end (u8, see RunEnd),
//!          threads per job (u32), settings recorded (u8, 0 or 1), longest race
//!          win (u32), nodes per job (u64), proofs deferred (u8, 0 or 1)
//! restores: u32 count, each: runs before it (u32), solved leaves opened (u64),
//!          solved leaves kept without their proofs (u64)
//! history: u32 count, each: seconds (f64), nodes (u64), phi (u32), delta (u32)
//! progress: u32 count, each: seconds (f64), nodes (u64), stored (u64), first
//!          moves won (u8), lost (u8), depth count (u8), each depth from the root:
//!          positions (u64), solved (u64)
//! unproven: u32 count, each a node (u32), ascending: solved leaves whose proofs
//!          the store lacks (kept by a restore, or settled by a run that deferred
//!          its proofs)
//! nodes:   u32 count, each: white (u64), black (u64), black to move (u8), phi (u32),
//!          delta (u32), expanded (u8), edge count (u8), each edge: from (u8),
//!          to (u8), child (u32; u32::MAX for a move that ends the game)
//! ```
//!
//! Versions 1 to 4 are read too; their runs have no settings recorded (each ran
//! with the campaign's, which could not change before version 5). Version 1,
//! written before teams and snapshots,
//! has no threads per job in its runs (`team` is `None`) and no restores section;
//! neither it nor version 2 has a progress section; none of them has kept leaves
//! (their restores opened every solved leaf) or an unproven section.

use std::path::Path;

use breakthrough_engine::{Bitboard, Board, Color, Position, Step};
use breakthrough_solver::Pn;

use crate::dag::{Dag, Edge, Node, State};
use crate::error::{write_durably, CampaignError};

pub const CHECKPOINT_FILE: &str = "master.ckpt";
const MAGIC: &[u8; 8] = b"BTCAMP\0\0";
const VERSION: u16 = 5;
/// The oldest version this program reads.
const OLDEST_VERSION: u16 = 1;
/// The bytes of a node without its edges, and of an edge, in every version.
pub(crate) const NODE_BYTES: usize = 27;
pub(crate) const EDGE_BYTES: usize = 6;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Still going at the last checkpoint: if the campaign is not running now, the
    /// run was killed (its work since that checkpoint is lost, the store's is not).
    Running,
    Solved,
    TimeLimit,
    Interrupted,
}

impl RunEnd {
    pub fn name(self) -> &'static str {
        match self {
            RunEnd::Running => "running or killed",
            RunEnd::Solved => "solved",
            RunEnd::TimeLimit => "time limit",
            RunEnd::Interrupted => "interrupted",
        }
    }

    fn byte(self) -> u8 {
        self as u8
    }

    fn of(byte: u8) -> Option<RunEnd> {
        [
            RunEnd::Running,
            RunEnd::Solved,
            RunEnd::TimeLimit,
            RunEnd::Interrupted,
        ]
        .get(byte as usize)
        .copied()
    }
}

/// One run of a campaign.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunRecord {
    pub started_unix: u64,
    pub seconds: f64,
    pub nodes: u64,
    pub jobs: u64,
    pub threads: u32,
    pub table_mb: u64,
    pub end: RunEnd,
    /// Threads per job (`--team`); `None` for a run recorded by a checkpoint of
    /// version 1, which did not keep it.
    pub team: Option<u32>,
    /// The search's settings this run's jobs ran with; `None` for a run recorded
    /// before version 5, which ran with the campaign's fixed ones.
    pub settings: Option<RunSettings>,
}

/// The settings of a run's jobs that may change from one run to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSettings {
    /// The longest race win the race rules look for.
    pub race_moves: u32,
    /// Each job's node budget.
    pub job_nodes: u64,
    /// Whether the jobs settled their leaves without writing proofs.
    pub defer_proofs: bool,
}

/// A restore from a snapshot ([`crate::snapshot`]): the snapshot holds the DAG but
/// not the store and its parts, so the DAG's solved leaves lost their proofs. A
/// restore before version 4 opened them all again, to be proven again; since then
/// they stay solved, and those the final proof needs are proven again at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restore {
    /// Runs before the restore.
    pub after_runs: u32,
    /// Solved leaves opened again.
    pub reopened: u64,
    /// Solved leaves kept solved without their proofs.
    pub kept: u64,
}

/// The root's numbers at a moment of the campaign (time and nodes over all runs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub seconds: f64,
    pub nodes: u64,
    pub phi: Pn,
    pub delta: Pn,
}

impl Sample {
    /// Whether the root was solved at this moment: one of its numbers is zero.
    pub fn is_solved(&self) -> bool {
        self.phi == Pn::ZERO || self.delta == Pn::ZERO
    }
}

/// What the DAG had settled at a moment of the campaign (time and nodes over all
/// runs): what moves while the root's numbers do not tell the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub seconds: f64,
    pub nodes: u64,
    /// Positions in the store (solved by the campaign's jobs).
    pub stored: u64,
    /// The root's moves proven to win, and to lose, for the side playing them.
    pub first_won: u8,
    pub first_lost: u8,
    /// The DAG's positions and how many are solved, by depth from the root (at
    /// most [`PROGRESS_DEPTHS`] depths).
    pub depths: Vec<(u64, u64)>,
}

impl Progress {
    /// Whether the root was solved at this moment: depth 0 has a solved position.
    pub fn root_solved(&self) -> bool {
        self.depths.first().is_some_and(|&(_, solved)| solved > 0)
    }
}

/// The depths a progress sample keeps: the root and 8 plies below it.
pub const PROGRESS_DEPTHS: usize = 9;

/// What a checkpoint holds.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// Positions in the store when it was written.
    pub stored: u64,
    /// Jobs in flight when it was written (0 after a run that ended cleanly).
    pub in_flight: u32,
    pub runs: Vec<RunRecord>,
    pub restores: Vec<Restore>,
    pub history: Vec<Sample>,
    /// What the DAG had settled over time (since version 3).
    pub progress: Vec<Progress>,
    /// The DAG's solved leaves whose proofs the store lacks, ascending: kept solved
    /// by a restore or settled by a run that deferred its proofs
    /// (`RunOptions::defer_proofs`), and proven by jobs of their own when the
    /// root's proof needs them ([`crate::run`]).
    pub unproven: Vec<u32>,
    pub dag: Dag,
}

impl Checkpoint {
    /// A campaign's checkpoint before its first run.
    pub fn new(dag: Dag) -> Checkpoint {
        Checkpoint {
            stored: 0,
            in_flight: 0,
            runs: Vec::new(),
            restores: Vec::new(),
            history: Vec::new(),
            progress: Vec::new(),
            unproven: Vec::new(),
            dag,
        }
    }

    /// Totals over its runs: seconds, nodes, jobs.
    pub fn totals(&self) -> (f64, u64, u64) {
        self.runs.iter().fold((0.0, 0, 0), |(s, n, j), r| {
            (s + r.seconds, n + r.nodes, j + r.jobs)
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_and_nodes_at().0
    }

    /// [`Checkpoint::to_bytes`], and where in them the nodes section (its count)
    /// begins: a snapshot keeps that section in columns.
    pub(crate) fn to_bytes_and_nodes_at(&self) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.stored.to_le_bytes());
        out.extend_from_slice(&self.in_flight.to_le_bytes());
        out.extend_from_slice(&(self.runs.len() as u32).to_le_bytes());
        for run in &self.runs {
            out.extend_from_slice(&run.started_unix.to_le_bytes());
            out.extend_from_slice(&run.seconds.to_le_bytes());
            out.extend_from_slice(&run.nodes.to_le_bytes());
            out.extend_from_slice(&run.jobs.to_le_bytes());
            out.extend_from_slice(&run.threads.to_le_bytes());
            out.extend_from_slice(&run.table_mb.to_le_bytes());
            out.push(run.end.byte());
            out.extend_from_slice(&run.team.unwrap_or(0).to_le_bytes());
            let settings = run.settings.unwrap_or(RunSettings {
                race_moves: 0,
                job_nodes: 0,
                defer_proofs: false,
            });
            out.push(u8::from(run.settings.is_some()));
            out.extend_from_slice(&settings.race_moves.to_le_bytes());
            out.extend_from_slice(&settings.job_nodes.to_le_bytes());
            out.push(u8::from(settings.defer_proofs));
        }
        out.extend_from_slice(&(self.restores.len() as u32).to_le_bytes());
        for restore in &self.restores {
            out.extend_from_slice(&restore.after_runs.to_le_bytes());
            out.extend_from_slice(&restore.reopened.to_le_bytes());
            out.extend_from_slice(&restore.kept.to_le_bytes());
        }
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        for sample in &self.history {
            out.extend_from_slice(&sample.seconds.to_le_bytes());
            out.extend_from_slice(&sample.nodes.to_le_bytes());
            out.extend_from_slice(&sample.phi.get().to_le_bytes());
            out.extend_from_slice(&sample.delta.get().to_le_bytes());
        }
        out.extend_from_slice(&(self.progress.len() as u32).to_le_bytes());
        for progress in &self.progress {
            out.extend_from_slice(&progress.seconds.to_le_bytes());
            out.extend_from_slice(&progress.nodes.to_le_bytes());
            out.extend_from_slice(&progress.stored.to_le_bytes());
            out.push(progress.first_won);
            out.push(progress.first_lost);
            out.push(progress.depths.len() as u8);
            for (positions, solved) in &progress.depths {
                out.extend_from_slice(&positions.to_le_bytes());
                out.extend_from_slice(&solved.to_le_bytes());
            }
        }
        out.extend_from_slice(&(self.unproven.len() as u32).to_le_bytes());
        for id in &self.unproven {
            out.extend_from_slice(&id.to_le_bytes());
        }
        let nodes_at = out.len();
        out.extend_from_slice(&(self.dag.nodes.len() as u32).to_le_bytes());
        for node in &self.dag.nodes {
            let p = &node.position;
            out.extend_from_slice(&p.pieces(Color::White).0.to_le_bytes());
            out.extend_from_slice(&p.pieces(Color::Black).0.to_le_bytes());
            out.push(u8::from(p.to_move() == Color::Black));
            out.extend_from_slice(&node.phi.get().to_le_bytes());
            out.extend_from_slice(&node.delta.get().to_le_bytes());
            out.push(u8::from(node.state == State::Expanded));
            out.push(node.edges.len() as u8);
            for edge in &node.edges {
                out.push(edge.step.from);
                out.push(edge.step.to);
                out.extend_from_slice(&edge.child.unwrap_or(u32::MAX).to_le_bytes());
            }
        }
        let checksum = crc32fast::hash(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        (out, nodes_at)
    }

    /// Reads a checkpoint of a campaign on `board`; leaves in flight come back as
    /// leaves. Every position and edge is checked, so a damaged file is refused
    /// rather than misread.
    pub fn from_bytes(bytes: &[u8], board: Board) -> Result<Checkpoint, String> {
        if bytes.len() < MAGIC.len() + 6 || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a campaign checkpoint".into());
        }
        let (body, checksum) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(checksum.try_into().expect("4 bytes")) {
            return Err("checksum mismatch".into());
        }
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let version = u16::from_le_bytes(r.take::<2>()?);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(format!(
                "version {version}; this program reads versions {OLDEST_VERSION} to {VERSION}"
            ));
        }
        let (stored, in_flight) = (r.u64()?, r.u32()?);
        let mut runs = Vec::new();
        for _ in 0..r.u32()? {
            runs.push(r.run_record(version)?);
        }
        let mut restores = Vec::new();
        if version >= 2 {
            for _ in 0..r.u32()? {
                restores.push(Restore {
                    after_runs: r.u32()?,
                    reopened: r.u64()?,
                    kept: if version >= 4 { r.u64()? } else { 0 },
                });
            }
        }
        let mut history = Vec::new();
        for _ in 0..r.u32()? {
            history.push(r.sample()?);
        }
        let mut progress = Vec::new();
        if version >= 3 {
            for _ in 0..r.u32()? {
                progress.push(r.progress()?);
            }
        }
        let mut unproven = Vec::new();
        if version >= 4 {
            let count = r.u32()?;
            if u64::from(count) * 4 > (body.len() - r.at) as u64 {
                return Err(format!("{count} unproven leaves do not fit in the file"));
            }
            for _ in 0..count {
                unproven.push(r.u32()?);
            }
        }
        let count = r.u32()?;
        // A count the bytes cannot hold is damage.
        if u64::from(count) * NODE_BYTES as u64 > (body.len() - r.at) as u64 {
            return Err(format!("{count} nodes do not fit in the file"));
        }
        let mut nodes = Vec::with_capacity(count as usize);
        for id in 0..count {
            nodes.push(r.node(id, count, board)?);
        }
        if r.at != body.len() {
            return Err(format!("{} bytes after the last node", body.len() - r.at));
        }
        if nodes.is_empty() {
            return Err("no root node".into());
        }
        check_edges_lead_right(&nodes)?;
        check_unproven(&unproven, &nodes)?;
        Ok(Checkpoint {
            stored,
            in_flight,
            runs,
            restores,
            history,
            progress,
            unproven,
            dag: Dag::from_nodes(nodes),
        })
    }

    /// Reads `DIR/master.ckpt`; `None` when there is none yet.
    pub fn read(dir: &Path, board: Board) -> Result<Option<Checkpoint>, CampaignError> {
        let path = dir.join(CHECKPOINT_FILE);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(CampaignError::io(&path)(err)),
        };
        Checkpoint::from_bytes(&bytes, board)
            .map(Some)
            .map_err(|why| CampaignError::damaged(&path, why))
    }

    pub fn write(&self, dir: &Path) -> Result<(), CampaignError> {
        write_durably(&dir.join(CHECKPOINT_FILE), &self.to_bytes())
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let slice = self
            .bytes
            .get(self.at..self.at + N)
            .ok_or_else(|| format!("cut short at byte {}", self.at))?;
        self.at += N;
        Ok(slice.try_into().expect("N bytes"))
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take::<1>()?[0])
    }
    /// A byte that must be 0 or 1.
    fn flag(&mut self, what: &str) -> Result<bool, String> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            byte => Err(format!("{what}: {byte}, not 0 or 1")),
        }
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take::<4>()?))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take::<8>()?))
    }

    fn run_record(&mut self, version: u16) -> Result<RunRecord, String> {
        let mut record = RunRecord {
            started_unix: self.u64()?,
            seconds: f64::from_le_bytes(self.take::<8>()?),
            nodes: self.u64()?,
            jobs: self.u64()?,
            threads: self.u32()?,
            table_mb: self.u64()?,
            end: RunEnd::of(self.u8()?).ok_or("a run's end is unknown")?,
            team: None,
            settings: None,
        };
        if version >= 2 {
            record.team = match self.u32()? {
                0 => None,
                team => Some(team),
            };
        }
        if version >= 5 {
            let recorded = self.flag("a run's settings")?;
            let settings = RunSettings {
                race_moves: self.u32()?,
                job_nodes: self.u64()?,
                defer_proofs: self.flag("a run's deferral of proofs")?,
            };
            record.settings = recorded.then_some(settings);
        }
        Ok(record)
    }

    fn sample(&mut self) -> Result<Sample, String> {
        Ok(Sample {
            seconds: f64::from_le_bytes(self.take::<8>()?),
            nodes: self.u64()?,
            phi: Pn::from_raw(self.u32()?),
            delta: Pn::from_raw(self.u32()?),
        })
    }

    fn progress(&mut self) -> Result<Progress, String> {
        let (seconds, nodes, stored) = (
            f64::from_le_bytes(self.take::<8>()?),
            self.u64()?,
            self.u64()?,
        );
        let (first_won, first_lost, count) = (self.u8()?, self.u8()?, self.u8()?);
        if usize::from(count) > PROGRESS_DEPTHS {
            return Err(format!("a progress sample of {count} depths"));
        }
        let mut depths = Vec::with_capacity(count.into());
        for _ in 0..count {
            let (positions, solved) = (self.u64()?, self.u64()?);
            if solved > positions {
                return Err(format!("{solved} of {positions} positions solved"));
            }
            depths.push((positions, solved));
        }
        Ok(Progress {
            seconds,
            nodes,
            stored,
            first_won,
            first_lost,
            depths,
        })
    }

    /// Node `id` of `count` on `board`: a position whose game is not over, and
    /// edges that are its moves when it is expanded, none when it is a leaf.
    fn node(&mut self, id: u32, count: u32, board: Board) -> Result<Node, String> {
        let (white, black, black_to_move) = (self.u64()?, self.u64()?, self.u8()?);
        let side = match black_to_move {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(format!("node {id}: side to move byte {black_to_move}")),
        };
        let position = Position::try_from_parts(board, Bitboard(white), Bitboard(black), side)
            .map_err(|err| format!("node {id}: {err}"))?;
        if position.winner().is_some() {
            return Err(format!("node {id}: the game is over at {position}"));
        }
        let (phi, delta) = (Pn::from_raw(self.u32()?), Pn::from_raw(self.u32()?));
        let state = match self.u8()? {
            0 => State::Leaf,
            1 => State::Expanded,
            other => return Err(format!("node {id}: state byte {other}")),
        };
        let edges = self.edges(id, count)?;
        if state == State::Leaf && !edges.is_empty() {
            return Err(format!("node {id}: a leaf with edges"));
        }
        // The edges must be the position's moves, in the engine's order.
        if state == State::Expanded {
            let steps = position.steps();
            let same =
                steps.len() == edges.len() && steps.iter().zip(&edges).all(|(s, e)| *s == e.step);
            if !same {
                return Err(format!("node {id}: its edges are not the position's moves"));
            }
        }
        Ok(Node {
            position,
            phi,
            delta,
            state,
            edges,
            parents: Vec::new(),
        })
    }

    /// The edges of node `id`: each a move, and a node of the `count` or none.
    fn edges(&mut self, id: u32, count: u32) -> Result<Vec<Edge>, String> {
        let mut edges = Vec::new();
        for _ in 0..self.u8()? {
            let step = Step {
                from: self.u8()?,
                to: self.u8()?,
            };
            let child = match self.u32()? {
                u32::MAX => None,
                child if child < count => Some(child),
                child => return Err(format!("node {id}: an edge to node {child} of {count}")),
            };
            edges.push(Edge { step, child });
        }
        Ok(edges)
    }
}

/// Every edge must lead where its move leads: to its child, or to the game's end.
fn check_edges_lead_right(nodes: &[Node]) -> Result<(), String> {
    for (id, node) in nodes.iter().enumerate() {
        for edge in &node.edges {
            let next = node.position.play_step(edge.step);
            let fits = match edge.child {
                None => next.winner().is_some(),
                Some(child) => {
                    let child = &nodes[child as usize].position;
                    breakthrough_solver::Key::of(child) == breakthrough_solver::Key::of(&next)
                }
            };
            if !fits {
                return Err(format!("node {id}: an edge leads to the wrong position"));
            }
        }
    }
    Ok(())
}

/// The unproven leaves must be solved leaves, each named once, in ascending order.
fn check_unproven(unproven: &[u32], nodes: &[Node]) -> Result<(), String> {
    if unproven.windows(2).any(|pair| pair[0] >= pair[1]) {
        return Err("the unproven leaves are not in ascending order".into());
    }
    for &id in unproven {
        match nodes.get(id as usize) {
            Some(node) if node.state == State::Leaf && node.is_solved() => {}
            Some(_) => return Err(format!("unproven node {id} is not a solved leaf")),
            None => return Err(format!("unproven node {id} of {}", nodes.len())),
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 5x5 campaign's checkpoint whose DAG has its first 60 nodes expanded, with
    /// numbers of every size, some solved, and transpositions among the children.
    pub(crate) fn expanded_checkpoint() -> Checkpoint {
        let start = Position::start("5x5".parse().unwrap());
        let mut dag = Dag::new(start);
        let mut rng = fastrand::Rng::with_seed(11);
        for id in 0..60 {
            dag.expand(id, |_, _| match rng.u8(..10) {
                0 => (Pn::ZERO, Pn::INF),
                1 => (Pn::INF, Pn::ZERO),
                _ => (
                    Pn::from_raw(rng.u32(1..1 << 20)),
                    Pn::from_raw(rng.u32(1..)),
                ),
            });
        }
        Checkpoint::new(dag)
    }

    fn checkpoint() -> Checkpoint {
        let board: Board = "5x5".parse().unwrap();
        let mut checkpoint = Checkpoint::new(Dag::new(Position::start(board)));
        checkpoint.runs.push(RunRecord {
            started_unix: 1_795_000_000,
            seconds: 12.5,
            nodes: 1_000_000,
            jobs: 40,
            threads: 2,
            table_mb: 64,
            end: RunEnd::TimeLimit,
            team: Some(2),
            settings: Some(RunSettings {
                race_moves: 5,
                job_nodes: 66_000,
                defer_proofs: true,
            }),
        });
        checkpoint.restores.push(Restore {
            after_runs: 1,
            reopened: 7,
            kept: 0,
        });
        checkpoint
    }

    /// Sets the version of checkpoint `bytes` and its checksum.
    fn with_version(mut bytes: Vec<u8>, version: u16) -> Vec<u8> {
        bytes[MAGIC.len()..MAGIC.len() + 2].copy_from_slice(&version.to_le_bytes());
        let body = bytes.len() - 4;
        let checksum = crc32fast::hash(&bytes[..body]);
        bytes[body..].copy_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// `bytes` without the byte ranges `cuts` (offset and length, in order, in
    /// `bytes`' offsets), as version `version` with its checksum.
    fn without(bytes: &[u8], cuts: &[(usize, usize)], version: u16) -> Vec<u8> {
        let mut kept = Vec::with_capacity(bytes.len());
        let mut from = 0;
        for &(offset, length) in cuts {
            kept.extend_from_slice(&bytes[from..offset]);
            from = offset + length;
        }
        kept.extend_from_slice(&bytes[from..]);
        with_version(kept, version)
    }

    /// The bytes of a run's settings in version 5 (recorded, race, job, deferral),
    /// and where the first run's lie (magic 8, version 2, figures 12, run count
    /// 4, the run's 49 bytes before them).
    const RUN_SETTINGS: usize = 1 + 4 + 8 + 1;
    const FIRST_RUN_SETTINGS_AT: usize = MAGIC.len() + 2 + 12 + 4 + 49;

    /// The bytes of `written` (one run) as version 4 wrote them: without the run's
    /// settings.
    fn version_4(written: &Checkpoint) -> Vec<u8> {
        without(
            &written.to_bytes(),
            &[(FIRST_RUN_SETTINGS_AT, RUN_SETTINGS)],
            4,
        )
    }

    /// `written` as a checkpoint before version 5 reads it: its runs' settings
    /// unknown.
    fn without_settings(written: &Checkpoint) -> Checkpoint {
        let mut old = written.clone();
        for run in &mut old.runs {
            run.settings = None;
        }
        old
    }

    /// The bytes of `written` (one run, one restore that kept no leaves, no
    /// history, no progress, no unproven leaves) as version 3 wrote them: version
    /// 4's without the restore's kept leaves and the unproven section's count.
    fn version_3(written: &Checkpoint) -> Vec<u8> {
        let v4 = version_4(written);
        // Magic 8, version 2, figures 12, runs 4 + 49, restores 4 + 12, then the
        // kept leaves 8; history 4, progress 4, then the unproven count 4.
        let kept = MAGIC.len() + 2 + 12 + 4 + 49 + 4 + 12;
        let unproven = kept + 8 + 4 + 4;
        assert_eq!(v4[kept..kept + 8], [0; 8]);
        assert_eq!(v4[unproven..unproven + 4], [0; 4]);
        without(&v4, &[(kept, 8), (unproven, 4)], 3)
    }

    /// The bytes of `written` as version 2 wrote them: version 3's without the
    /// progress section's count.
    fn version_2(written: &Checkpoint) -> Vec<u8> {
        let v3 = version_3(written);
        // Magic 8, version 2, figures 12, runs 4 + 49, restores 4 + 12, history 4.
        let progress = MAGIC.len() + 2 + 12 + 4 + 49 + 4 + 12 + 4;
        assert_eq!(v3[progress..progress + 4], [0; 4]);
        without(&v3, &[(progress, 4)], 2)
    }

    /// The current version reads back as written, progress samples and all.
    #[test]
    fn checkpoints_read_back() {
        let mut written = checkpoint();
        written.progress.push(Progress {
            seconds: 61.5,
            nodes: 9_000_000,
            stored: 1234,
            first_won: 1,
            first_lost: 3,
            depths: vec![(1, 0), (13, 4), (120, 33)],
        });
        let board = written.dag.root().position.board();
        let read = Checkpoint::from_bytes(&written.to_bytes(), board).expect("reads");
        assert_eq!(read.runs, written.runs);
        assert_eq!(read.restores, written.restores);
        assert_eq!(read.progress, written.progress);
        assert_eq!(read.to_bytes(), written.to_bytes());
        // A sample that claims more solved positions than there are is damage.
        written.progress[0].depths[1] = (13, 14);
        let refused = Checkpoint::from_bytes(&written.to_bytes(), board);
        assert!(refused.unwrap_err().contains("14 of 13"));
    }

    /// Kept leaves and unproven leaves read back; an unproven node that is not a
    /// solved leaf, or a list out of order, is damage.
    #[test]
    fn unproven_leaves_read_back() {
        let mut written = checkpoint();
        let board = written.dag.root().position.board();
        written.dag.expand(0, |_, _| (Pn::ONE, Pn::ONE));
        written.dag.set_numbers(3, crate::dag::LOST);
        written.dag.set_numbers(5, crate::dag::WON);
        written.restores[0].kept = 2;
        written.unproven = vec![3, 5];
        let read = Checkpoint::from_bytes(&written.to_bytes(), board).expect("reads");
        assert_eq!(read.restores, written.restores);
        assert_eq!(read.unproven, vec![3, 5]);
        assert_eq!(read.to_bytes(), written.to_bytes());
        for (unproven, why) in [
            (vec![5, 3], "ascending"),
            (vec![3, 4], "node 4 is not a solved leaf"),
            (vec![0], "node 0 is not a solved leaf"),
            (vec![3, 99], "node 99 of"),
        ] {
            written.unproven = unproven;
            let refused = Checkpoint::from_bytes(&written.to_bytes(), board);
            assert!(refused.unwrap_err().contains(why), "{why}");
        }
    }

    /// A checkpoint of version 4 (no run settings) is read, its runs' settings
    /// unknown; a settings byte other than 0 or 1 is damage.
    #[test]
    fn version_4_is_read() {
        let written = checkpoint();
        let board = written.dag.root().position.board();
        let read = Checkpoint::from_bytes(&version_4(&written), board).expect("reads version 4");
        assert_eq!(read.runs[0].settings, None);
        assert_eq!(read.runs[0].team, Some(2));
        assert_eq!(read.to_bytes(), without_settings(&written).to_bytes());
        for at in [
            FIRST_RUN_SETTINGS_AT,
            FIRST_RUN_SETTINGS_AT + RUN_SETTINGS - 1,
        ] {
            let mut bytes = written.to_bytes();
            bytes[at] = 2;
            let refused = Checkpoint::from_bytes(&with_version(bytes, VERSION), board);
            assert!(refused.unwrap_err().contains("not 0 or 1"));
        }
    }

    /// A checkpoint of version 3 (no kept leaves, no unproven section) is read.
    #[test]
    fn version_3_is_read() {
        let written = checkpoint();
        let board = written.dag.root().position.board();
        let read = Checkpoint::from_bytes(&version_3(&written), board).expect("reads version 3");
        assert_eq!(read.restores, written.restores);
        assert!(read.unproven.is_empty());
        assert_eq!(read.to_bytes(), without_settings(&written).to_bytes());
    }

    /// A checkpoint of version 2 (no progress section) is read, with no progress.
    #[test]
    fn version_2_is_read() {
        let written = checkpoint();
        let board = written.dag.root().position.board();
        let read = Checkpoint::from_bytes(&version_2(&written), board).expect("reads version 2");
        assert_eq!(read.runs, without_settings(&written).runs);
        assert_eq!(read.restores, written.restores);
        assert!(read.progress.is_empty());
        assert_eq!(read.to_bytes(), without_settings(&written).to_bytes());
    }

    /// A checkpoint of version 1 (no threads per job, no restores) is read, its
    /// runs' teams unknown; a version after this program's is refused.
    #[test]
    fn version_1_is_read() {
        let mut written = checkpoint();
        let board = written.dag.root().position.board();
        let v2 = version_2(&written);
        written.restores.clear();
        // Version 1: the run without its team, and no restores section (magic 8,
        // version 2, figures 12, run count 4, the run 45 bytes; then team 4, the
        // restores' count 4 and the one restore 12).
        let run_end = MAGIC.len() + 2 + 12 + 4 + 45;
        let v1 = without(&v2, &[(run_end, 4 + 4 + 12)], 1);
        let read = Checkpoint::from_bytes(&v1, board).expect("reads version 1");
        assert_eq!(read.runs[0].team, None);
        assert_eq!(read.runs[0].nodes, 1_000_000);
        assert!(read.restores.is_empty());
        assert_eq!(read.dag.len(), written.dag.len());
        let refused = Checkpoint::from_bytes(&with_version(written.to_bytes(), 6), board);
        assert!(refused.unwrap_err().contains("version 6"));
    }
}
