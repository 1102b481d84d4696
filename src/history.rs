//! The history of a worktree's states, for `undo` and `redo`.
//!
//! The history is this worktree's own checkpoints (not fetched ones), newest first. Each holds
//! the state the working tree had when it was taken. The safety checkpoint of an operation
//! that changed the working tree (restore, undo, redo, revert) also records the operation
//! ([`Operation`]): what it brought back, and the tree it left. From that:
//!
//! - The operation *in effect* is the newest recorded one when the working tree is still as it
//!   left it (checkpoints taken since, by a hook say, hold that same tree).
//! - `undo` takes back the operation in effect: it brings back the state before it (its safety
//!   checkpoint). When the operation in effect is itself an undo, or there is none, it walks
//!   back instead: to the newest earlier state that differs from the working tree now, counting
//!   from where the last undo stopped (its *cursor*), so repeated undos keep walking back. The
//!   states an operation left count too, where a checkpoint holds them. Two rules keep the
//!   walk from swinging between two states: an undo and the redo that took it back cancel out
//!   (the walk passes over the states between them, which only repeat the ones around them),
//!   and the walk never goes back to the state the last undo of the run left.
//! - `redo` takes back the undo in effect, then the undo before it in the same run of undos,
//!   and so on; any other change ends the run.

use std::collections::HashMap;

use gix::ObjectId;

use crate::error::{Error, Result, UndoEnd};
use crate::format::{OP_REDO, OP_UNDO, Operation};
use crate::store::{self, Checkpoint};

/// The tree an operation left, if its note names one of this repository's object format (a
/// note is text anyone may have written).
fn left(op: &Operation, kind: gix::hash::Kind) -> Option<ObjectId> {
    ObjectId::from_hex(op.result.as_bytes())
        .ok()
        .filter(|id| id.kind() == kind)
}

/// One state of the history, newest first.
#[derive(Debug, Clone)]
struct Node {
    /// The checkpoint's id (a made-up one for a step only imagined, in a dry run).
    id: String,
    /// The tree the checkpoint holds.
    tree: ObjectId,
    /// The operation it was taken before, if any.
    op: Option<Operation>,
    /// The checkpoint, to restore.
    checkpoint: Checkpoint,
}

/// A state to walk back to: the checkpoint holding it, and where it stands (for the cursor).
#[derive(Debug, Clone)]
struct State<'a> {
    /// `<id>`, or `<id>+` for the state the operation recorded in checkpoint `<id>` left.
    key: String,
    /// Position in the history: states at a greater position are older.
    position: (usize, u8),
    tree: ObjectId,
    restore: &'a Checkpoint,
}

/// What an undo or redo does: restore `target`, recording `operation` (whose `result` the
/// restore fills in) in the safety checkpoint.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub target: Checkpoint,
    pub operation: Operation,
}

/// The history of one worktree.
#[derive(Clone)]
pub(crate) struct History {
    nodes: Vec<Node>,
    /// Whether there are checkpoints of other worktrees, or fetched ones.
    others: bool,
    imagined: usize,
    repo: gix::Repository,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("nodes", &self.nodes)
            .finish()
    }
}

impl History {
    /// The history of `worktree` among `all` (every checkpoint, newest first).
    pub fn load(
        repo: &gix::Repository,
        all: &[Checkpoint],
        worktree: Option<&str>,
    ) -> Result<Self> {
        let mut nodes = Vec::new();
        for c in all.iter().filter(|c| c.is_own(worktree)) {
            nodes.push(Node {
                id: c.id.clone(),
                tree: store::commit_tree(repo, c.commit)?,
                op: c.meta.operation.clone(),
                checkpoint: c.clone(),
            });
        }
        Ok(History {
            others: nodes.len() < all.len(),
            nodes,
            imagined: 0,
            repo: repo.clone(),
        })
    }

    /// Whether a working tree whose snapshot is `now` still holds what `op` left. Files the
    /// operation wrote that are ignored now (its tree had them; a snapshot leaves them out)
    /// count as held while they are there.
    fn holds(&self, now: ObjectId, op: &Operation) -> bool {
        let Some(result) = left(op, self.repo.object_hash()) else {
            return false;
        };
        if result == now {
            return true;
        }
        let Some(workdir) = self.repo.workdir() else {
            return false;
        };
        // Stops at the first file that differs otherwise: after a restore the working tree
        // usually differs in many, and only the first needs reading.
        crate::treediff::all_changes(&self.repo, Some(now), Some(result), &|c| {
            c.old.is_none()
                && crate::snapshot::worktree_path(workdir, c.path.as_ref())
                    .ok()
                    .and_then(|p| std::fs::symlink_metadata(p).ok())
                    .is_some_and(|md| !md.is_dir())
        })
        .unwrap_or(false)
    }

    /// The operation in effect when the working tree holds `now`: the newest recorded one, if
    /// the working tree is still as it left it.
    fn in_effect(&self, now: ObjectId) -> Option<(&Node, &Operation)> {
        for node in &self.nodes {
            if let Some(op) = &node.op {
                return self.holds(now, op).then_some((node, op));
            }
            if node.tree != now {
                return None;
            }
        }
        None
    }

    /// The operation in effect, for a new operation's record (`prev`... see [`Operation`]).
    pub fn in_effect_id(&self, now: ObjectId) -> Option<String> {
        self.in_effect(now).map(|(node, _)| node.id.clone())
    }

    /// Every state, newest first: each checkpoint's own, and before it (newer) the state the
    /// operation recorded in it left, where the checkpoint it brought back holds exactly that.
    /// An undo and the redo that took it back cancel out: the states from the one before the
    /// redo to the one before the undo are left out (the state the redo left, which is the one
    /// before the undo, stays, once).
    fn states(&self) -> Vec<State<'_>> {
        let by_id: HashMap<&str, &Node> = self.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
        let index: HashMap<&str, usize> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.as_str(), i))
            .collect();
        let cancelled: Vec<((usize, u8), (usize, u8))> = self
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, node)| {
                let op = node.op.as_ref().filter(|op| op.name == OP_REDO)?;
                let undone = *index.get(op.undone.as_deref()?)?;
                (undone > i).then_some(((i, 1), (undone, 1)))
            })
            .collect();
        let mut out = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            if let Some(op) = &node.op
                && let Some(target) = op.target.as_deref().and_then(|t| by_id.get(t))
                && left(op, self.repo.object_hash()) == Some(target.tree)
            {
                out.push(State {
                    key: format!("{}+", node.id),
                    position: (i, 0),
                    tree: target.tree,
                    restore: &target.checkpoint,
                });
            }
            out.push(State {
                key: node.id.clone(),
                position: (i, 1),
                tree: node.tree,
                restore: &node.checkpoint,
            });
        }
        out.retain(|s| {
            !cancelled
                .iter()
                .any(|(from, to)| *from <= s.position && s.position <= *to)
        });
        out
    }

    /// The position of the state `key` names; a key whose checkpoint is gone (pruned) stands
    /// where its id would.
    fn position_of(&self, key: &str) -> (usize, u8) {
        let (id, part) = match key.strip_suffix('+') {
            Some(id) => (id, 0),
            None => (key, 1),
        };
        match self.nodes.iter().position(|n| n.id == id) {
            Some(i) => (i, part),
            None => {
                let i = self
                    .nodes
                    .iter()
                    .position(|n| n.id.as_str() < id)
                    .unwrap_or(self.nodes.len());
                (i, 0)
            }
        }
    }

    /// What `undo` does when the working tree holds `now`.
    pub fn undo(&self, now: ObjectId) -> Result<Step> {
        let walk_from = match self.in_effect(now) {
            Some((node, op)) if op.name != OP_UNDO => {
                // Take back the operation in effect. The walk then goes on from where it
                // stood before that operation.
                let (cursor, chain) = if op.name == OP_REDO {
                    // Taking back a redo does its undo again.
                    match self.undo_record(op.undone.as_deref()) {
                        Some(undone) => (undone.cursor.clone(), undone.chain.clone()),
                        None => (Some(node.id.clone()), None),
                    }
                } else {
                    let before = op.chain.as_deref().and_then(|p| self.undo_record(Some(p)));
                    match before {
                        Some(prev_undo) => (prev_undo.cursor.clone(), None),
                        None => (Some(node.id.clone()), None),
                    }
                };
                return Ok(Step {
                    target: node.checkpoint.clone(),
                    operation: Operation {
                        name: OP_UNDO.into(),
                        target: Some(node.id.clone()),
                        result: String::new(),
                        cursor,
                        chain,
                        undone: None,
                    },
                });
            }
            Some((node, op)) => Some((node.id.clone(), op.cursor.clone())),
            None => None,
        };
        let after = match &walk_from {
            Some((_, Some(cursor))) => Some(self.position_of(cursor)),
            Some((id, None)) => Some((self.position_of(id).0, 1)),
            None => None,
        };
        // The state the last undo of this run left: the walk never swings back to it.
        let just_left = walk_from
            .as_ref()
            .and_then(|(id, _)| self.nodes.iter().find(|n| n.id == *id))
            .map(|n| n.tree);
        let found = self
            .states()
            .into_iter()
            .filter(|s| after.is_none_or(|after| s.position > after))
            .find(|s| s.tree != now && Some(s.tree) != just_left);
        let Some(state) = found else {
            return Err(Error::NothingToUndo(if !self.nodes.is_empty() {
                if walk_from.is_some() {
                    UndoEnd::WalkedThrough
                } else {
                    UndoEnd::NoEarlierState
                }
            } else if self.others {
                UndoEnd::NoOwnCheckpoints
            } else {
                UndoEnd::NoCheckpoints
            }));
        };
        Ok(Step {
            target: state.restore.clone(),
            operation: Operation {
                name: OP_UNDO.into(),
                target: Some(state.restore.id.clone()),
                result: String::new(),
                cursor: Some(state.key),
                chain: walk_from.map(|(id, _)| id),
                undone: None,
            },
        })
    }

    /// What `redo` does when the working tree holds `now`.
    pub fn redo(&self, now: ObjectId) -> Result<Step> {
        let Some((node, op)) = self.in_effect(now) else {
            return Err(Error::NothingToRedo);
        };
        let undo = match op.name.as_str() {
            OP_UNDO => node,
            OP_REDO => {
                // Redo the undo before the one the last redo took back.
                let next = op.chain.as_deref().and_then(|id| {
                    self.nodes.iter().find(|n| {
                        n.id == id
                            && n.op
                                .as_ref()
                                .is_some_and(|o| o.name == OP_UNDO && self.holds(now, o))
                    })
                });
                next.ok_or(Error::NothingToRedo)?
            }
            _ => return Err(Error::NothingToRedo),
        };
        let chain = undo.op.as_ref().and_then(|o| o.chain.clone());
        Ok(Step {
            target: undo.checkpoint.clone(),
            operation: Operation {
                name: OP_REDO.into(),
                target: Some(undo.id.clone()),
                result: String::new(),
                cursor: None,
                chain,
                undone: Some(undo.id.clone()),
            },
        })
    }

    /// The undo recorded in checkpoint `id`, if it is one.
    fn undo_record(&self, id: Option<&str>) -> Option<&Operation> {
        let id = id?;
        self.nodes
            .iter()
            .find(|n| n.id == id)
            .and_then(|n| n.op.as_ref())
            .filter(|op| op.name == OP_UNDO)
    }

    /// Imagine `step` done over a working tree holding `before`, leaving `result`: for a dry
    /// run of several steps.
    pub fn imagine(&mut self, before: ObjectId, step: &Step, result: ObjectId) {
        self.imagined += 1;
        let mut op = step.operation.clone();
        op.result = result.to_string();
        let mut checkpoint = step.target.clone();
        checkpoint.id = format!("~imagined-{}", self.imagined);
        self.nodes.insert(
            0,
            Node {
                id: checkpoint.id.clone(),
                tree: before,
                op: Some(op),
                checkpoint,
            },
        );
    }
}
