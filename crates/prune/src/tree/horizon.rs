//! A depth-limited view of a tree: what a search to depth D sees. Nodes are numbered breadth
//! first, so the nodes down to depth D are a prefix of the arena and keep their ids; an interior
//! node at depth D becomes a leaf worth its heuristic value (Schaeffer's slides, "Playing with
//! the search depth": the search stops at a horizon and trusts the evaluation there).

use super::{Kind, NodeId, Tree};

impl Tree {
    /// This tree cut at `depth` plies: the same nodes under the same ids down to `depth`, an
    /// interior node there a leaf worth its heuristic value. `Err(node)`: the first interior node
    /// at depth `depth` without a heuristic value. A depth at or beyond the height is the tree.
    pub fn to_depth(&self, depth: usize) -> Result<Tree, NodeId> {
        if depth >= self.height() || self.multiplayer {
            return Ok(self.clone());
        }
        let mut level = vec![0u32; self.len()];
        let mut kept = self.len();
        for i in 1..self.len() {
            level[i] = level[self.nodes.parent[i] as usize] + 1;
            if level[i] as usize > depth {
                kept = i;
                break;
            }
        }
        let mut t = self.clone();
        let c = &mut t.nodes;
        for col in [&mut c.first, &mut c.len, &mut c.parent] {
            col.truncate(kept);
        }
        c.kind.truncate(kept);
        c.value.truncate(kept);
        c.prob.truncate(kept);
        c.uniform.truncate(kept);
        for (i, &l) in level.iter().enumerate().take(kept) {
            if l as usize == depth && c.kind[i] != Kind::Leaf {
                let id = NodeId(i as u32);
                c.value[i] = self.heuristic(id).ok_or(id)?;
                c.kind[i] = Kind::Leaf;
                c.first[i] = 0;
                c.len[i] = 0;
            }
        }
        let p = &mut t.positions;
        if !p.heuristic.is_empty() {
            p.heuristic.truncate(kept);
            for (i, h) in p.heuristic.iter_mut().enumerate() {
                if level[i] as usize == depth {
                    *h = f64::NAN;
                }
            }
        }
        if !p.key.is_empty() {
            p.key.truncate(kept);
            p.keyed.truncate(kept.div_ceil(64));
            if let Some(last) = p.keyed.last_mut()
                && kept % 64 != 0
            {
                *last &= (1 << (kept % 64)) - 1;
            }
        }
        t.labels.truncate(kept);
        t.fractions = Default::default();
        Ok(t.sealed())
    }
}

#[cfg(test)]
mod tests {
    use crate::tree::{Kind, NodeId};

    #[test]
    fn the_horizon_keeps_ids_and_values_positions_by_their_heuristic() {
        use crate::generate::game::{GameSpec, generate};
        let t = generate(&GameSpec::TicTacToe { depth: None }).unwrap();
        let cut = t.to_depth(2).unwrap();
        assert_eq!(cut.height(), 2);
        assert_eq!(cut.len(), 1 + 9 + 72);
        for i in cut.ids() {
            assert_eq!(cut.key(i), t.key(i));
            assert_eq!(cut.label(i), t.label(i));
            assert_eq!(cut.parent(i), t.parent(i));
        }
        let n = NodeId(10);
        assert_eq!(cut.kind(n), Kind::Leaf);
        assert_eq!(Some(cut.value(n)), t.heuristic(n));
        assert_eq!(cut.heuristic(n), None);
        assert_eq!(cut.leaf_count(), 72);
        assert_eq!(t.to_depth(9).unwrap(), t);
        // The generator's own depth limit builds the same nodes.
        let gen3 = generate(&GameSpec::TicTacToe { depth: Some(3) }).unwrap();
        let cut3 = t.to_depth(3).unwrap();
        assert_eq!(cut3.len(), gen3.len());
        assert!(cut3.ids().all(|i| cut3.kind(i) == gen3.kind(i)
            && (!cut3.is_leaf(i) || cut3.value(i) == gen3.value(i))));
    }

    #[test]
    fn a_horizon_without_heuristics_names_the_node() {
        let t = crate::tree::samples::classic();
        assert_eq!(t.to_depth(1), Err(NodeId(1)));
    }
}
