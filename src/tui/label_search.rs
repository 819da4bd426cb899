//! The label search: `/` and a part of a label, `n`/`N` for the next and previous match.

use prune::tree::{NodeId, Tree};

/// The next (or previous) node in preorder after `from` whose label contains `query`,
/// case-insensitively, wrapping around; `from` itself is tried last.
pub fn find(tree: &Tree, from: NodeId, query: &str, forward: bool) -> Option<NodeId> {
    let q = query.to_lowercase();
    let order: Vec<NodeId> = tree.preorder().collect();
    let at = order.iter().position(|&id| id == from).unwrap_or(0);
    let n = order.len();
    (1..=n)
        .map(|d| {
            if forward {
                order[(at + d) % n]
            } else {
                order[(at + n - d % n) % n]
            }
        })
        .find(|&id| {
            tree.label(id)
                .is_some_and(|l| l.to_lowercase().contains(&q))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune::examples::default_tree;

    #[test]
    fn matches_wrap_around_both_ways() {
        let t = default_tree();
        let root = t.root();
        let c2 = find(&t, root, "C2", true).unwrap();
        assert_eq!(t.label(c2), Some("c2"));
        // From the match itself, the search goes on and comes back to it.
        let again = find(&t, c2, "c2", true).unwrap();
        assert_eq!(again, c2);
        let back = find(&t, c2, "c2", false).unwrap();
        assert_eq!(back, c2);
        assert_eq!(find(&t, root, "no such label", true), None);
    }
}
