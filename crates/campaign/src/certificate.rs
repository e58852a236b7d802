//! Writes a campaign's certificate: a directory with a manifest, whose format and
//! verifier are the `breakthrough_proof` crate's (see
//! [`breakthrough_proof::verify_directory`]).
//!
//! - `DIR/top.cert`: the master's proof, a certificate with the claim "wins given"
//!   (see [`crate::top`]): the winner's strategy over the top of the game, down to
//!   positions that jobs proved.
//! - `DIR/parts/*.cert`: each job's proof of its position, written by the job.
//! - `DIR/certificate.json`: the manifest: the position, the winner, the top's file
//!   and every part's file (the top's givens, their parts' givens, and so on), and
//!   for a part some of whose positions other parts take as given (it exported
//!   them, see `crate::store`), those positions.

use std::collections::BTreeMap;
use std::path::Path;

use breakthrough_engine::{Color, Position};
use breakthrough_proof::{Certificate, Manifest, MANIFEST_FILE, TOP_FILE};
use breakthrough_solver::Key;
use hashbrown::HashSet;

use crate::checkpoint::Checkpoint;
use crate::dag::Dag;
use crate::error::{write_durably, CampaignError};
use crate::store::{part_path, Store};
use crate::top::{write_top, TopNode};

/// Part file -> the positions inside it that other parts take as given.
type Exports = BTreeMap<String, Vec<String>>;

/// What [`write_certificate`] wrote.
#[derive(Clone, Copy, Debug)]
pub struct Written {
    pub top_positions: u64,
    pub parts: usize,
    /// The top's and the parts' bytes.
    pub bytes: u64,
}

/// Writes the top of a solved campaign's DAG and the manifest naming its parts: the
/// top's givens and, from the store, what their parts take as given in turn.
pub fn write_certificate(
    dir: &Path,
    root: &Position,
    winner: Color,
    dag: &Dag,
    unproven: &[u32],
    store: &Store,
) -> Result<Written, CampaignError> {
    let (top, given) = top_of(root, winner, dag, unproven)?;
    let (parts, exports) = closure(dir, root, store, given)?;
    let mut names = Vec::with_capacity(parts.len());
    let mut bytes = 0;
    for key in &parts {
        let file = part_path(key);
        let size = std::fs::metadata(dir.join(&file))
            .map_err(CampaignError::io(&dir.join(&file)))?
            .len();
        bytes += size;
        names.push(file.to_string_lossy().into_owned());
    }
    let top_bytes = top.to_bytes();
    bytes += top_bytes.len() as u64;
    write_durably(&dir.join(TOP_FILE), &top_bytes)?;
    let manifest = Manifest::new(root, winner, names, exports);
    let text = serde_json::to_string_pretty(&manifest).expect("plain data");
    write_durably(&dir.join(MANIFEST_FILE), text.as_bytes())?;
    Ok(Written {
        top_positions: top.positions(),
        parts: parts.len(),
        bytes,
    })
}

/// Of the checkpoint's unproven leaves, those the root's proof takes as given:
/// what is left to prove before the certificate (`None` while the root is open).
pub fn unproven_given(checkpoint: &Checkpoint) -> Result<Option<u64>, CampaignError> {
    let dag = &checkpoint.dag;
    let Some(wins) = dag.root().wins() else {
        return Ok(None);
    };
    let root = &dag.root().position;
    let winner = if wins {
        root.to_move()
    } else {
        root.to_move().opponent()
    };
    let given: HashSet<Key> = top_of(root, winner, dag, &checkpoint.unproven)?
        .1
        .into_iter()
        .collect();
    let count = checkpoint
        .unproven
        .iter()
        .filter(|&&id| given.contains(&Key::of(&dag.nodes[id as usize].position)))
        .count();
    Ok(Some(count as u64))
}

/// The top proof of the DAG, and the keys of the positions it takes as given,
/// each once, in the order first reached: where the winner has a choice, the
/// move whose proof needs the fewest of the `unproven` leaves (ascending ids).
pub(crate) fn top_of(
    root: &Position,
    winner: Color,
    dag: &Dag,
    unproven: &[u32],
) -> Result<(Certificate, Vec<Key>), CampaignError> {
    let costs = dag.proving_costs(unproven);
    let mut given = Vec::new();
    let mut seen = HashSet::new();
    let mut missing = None;
    let top = write_top(
        root,
        winner,
        &mut |position| match dag.top_node(position, winner, &costs) {
            Some(TopNode::Given) => {
                let key = Key::of(position);
                if seen.insert(key) {
                    given.push(key);
                }
                TopNode::Given
            }
            Some(node) => node,
            None => {
                missing.get_or_insert_with(|| position.to_string());
                // Anything, to end the walk here; the error below reports it.
                TopNode::Given
            }
        },
    )
    .map_err(|err| CampaignError::Internal(format!("writing the top proof: {err}")))?;
    if let Some(position) = missing {
        return Err(CampaignError::Internal(format!(
            "the top proof reaches {position}, which the DAG does not prove"
        )));
    }
    Ok((top, given))
}

/// The parts that prove `given`: each given position is stored, the root of a part
/// or proven inside one, and each part's givens are given positions in turn. Also
/// what each part exports, by file.
fn closure(
    dir: &Path,
    root: &Position,
    store: &Store,
    mut given: Vec<Key>,
) -> Result<(Vec<Key>, Exports), CampaignError> {
    let mut seen: HashSet<Key> = given.iter().copied().collect();
    let mut parts: Vec<Key> = Vec::new();
    let mut in_parts = HashSet::new();
    let mut exports = Exports::new();
    let mut next = 0;
    while next < given.len() {
        let key = given[next];
        next += 1;
        let part = match store.inner(&key)? {
            Some(inner) => {
                let position = inner.position(root.board()).ok_or_else(|| {
                    CampaignError::damaged(
                        &dir.join(crate::store::STORE_FILE),
                        format!(
                            "the position proven inside {} is not one",
                            part_path(&inner.part).display()
                        ),
                    )
                })?;
                let file = part_path(&inner.part).to_string_lossy().into_owned();
                exports.entry(file).or_default().push(position.to_string());
                inner.part
            }
            None => key,
        };
        if in_parts.insert(part) {
            parts.push(part);
            for key in store.given(&part)? {
                if seen.insert(key) {
                    given.push(key);
                }
            }
        }
    }
    Ok((parts, exports))
}
