//! The layout's promises: never wider than asked, every node drawn or counted in an elision,
//! marks that match the trace.

use unicode_width::UnicodeWidthStr;

use super::*;
use crate::format::parse_expr;
use crate::generate::Values;
use crate::generate::random::{RandomShape, generate};
use crate::search::Algorithm;
use crate::trace::record;

fn random_tree(seed: u64, branching: u32, depth: u32) -> Tree {
    let p = RandomShape {
        min_branching: 1,
        max_branching: branching,
        depth,
        leaf_probability: 0.2,
        values: Values::integers(-20, 20),
        mixed: false,
    };
    generate(&p, seed).unwrap()
}

fn recorded(tree: &Tree, algo: Algorithm) -> (Run, Trace) {
    record(tree, &algo, &std::sync::atomic::AtomicU64::new(0)).unwrap()
}

/// Every node of the subtree is drawn once or counted by exactly one elision card.
fn accounted(tree: &Tree, pic: &Picture, root: NodeId) -> bool {
    let sizes = tree.subtree_sizes();
    pic.nodes().count() as u64 + pic.elided() == u64::from(sizes[root.index()])
}

#[test]
fn text_is_no_wider_than_asked_or_kept_and_every_node_is_accounted_for() {
    for seed in 0..12 {
        let tree = random_tree(seed, 6, 5);
        let (run, trace) = recorded(&tree, Algorithm::AlphaBeta { fail_soft: false });
        let sizes = tree.subtree_sizes();
        for step in [0, trace.len() / 3, trace.len()] {
            let at = At::new(&tree, &run, &trace, step);
            for width in [8, 13, 20, 40, 80, 100, 250] {
                for depth in [None, Some(0), Some(1), Some(3)] {
                    let opts = Options {
                        width,
                        depth,
                        ..Options::default()
                    };
                    let pic = picture(&tree, &sizes, Some(&at), &opts);
                    // Wider than asked only as far as the nodes that must be kept need: no
                    // wider than the narrowest picture that keeps them.
                    let narrowest = Options { width: 1, ..opts };
                    let most = width.max(picture(&tree, &sizes, Some(&at), &narrowest).width);
                    assert!(
                        pic.width <= most,
                        "seed {seed} width {width}: {} > {most}",
                        pic.width
                    );
                    for line in text::lines(&pic) {
                        assert!(line.width() <= most, "seed {seed} width {width}: {line}");
                    }
                    // What is kept: the principal variation and the path to the current
                    // node, above the depth limit.
                    let drawn: std::collections::HashSet<NodeId> =
                        pic.nodes().map(|(n, _)| n).collect();
                    let kept = run
                        .pv
                        .iter()
                        .copied()
                        .chain(at.current().map_or_else(Vec::new, |c| tree.path_to(c)));
                    for n in kept.filter(|&n| depth.is_none_or(|d| tree.depth_of(n) <= d)) {
                        assert!(drawn.contains(&n), "seed {seed} width {width}: {n:?}");
                    }
                    assert!(
                        accounted(&tree, &pic, tree.root()),
                        "seed {seed} width {width}"
                    );
                    if let Some(d) = depth {
                        assert!(pic.placed.iter().all(|p| p.depth <= d + 1));
                    }
                }
            }
        }
    }
}

#[test]
fn a_wide_enough_picture_elides_nothing() {
    let tree = parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
    let pic = picture(&tree, &tree.subtree_sizes(), None, &Options::default());
    assert_eq!(pic.elided(), 0);
    assert_eq!(pic.nodes().count(), tree.len());
    let text = text::render(&pic);
    for v in ["3", "12", "8", "2", "4", "6", "14", "5"] {
        assert!(text.contains(v), "{text}");
    }
}

#[test]
fn elisions_count_what_they_hide() {
    // Root, three Min nodes with three leaves each: 13 nodes.
    let tree = parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
    let sizes = tree.subtree_sizes();
    let below = |d| Options {
        depth: Some(d),
        ..Options::default()
    };
    let pic = picture(&tree, &sizes, None, &below(0));
    assert_eq!(pic.nodes().count(), 1);
    assert_eq!(pic.elided(), 12);
    assert!(text::render(&pic).contains("…(12 nodes)"));
    let pic = picture(&tree, &sizes, None, &below(1));
    assert_eq!(pic.elided(), 9);
    assert_eq!(
        pic.placed.iter().filter(|p| p.card.elided == 3).count(),
        3,
        "one elision of 3 leaves under each Min node"
    );
    // Too narrow for three subtrees side by side: the rightmost are elided, counted.
    let narrow = Options {
        width: 12,
        ..Options::default()
    };
    let pic = picture(&tree, &sizes, None, &narrow);
    assert!(pic.elided() > 0);
    assert!(accounted(&tree, &pic, tree.root()));
    let text = text::render(&pic);
    assert!(text.contains('…'), "{text}");
}

#[test]
fn a_subtree_can_be_drawn_alone() {
    let tree = parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
    let b = tree.child(tree.root(), 1);
    let opts = Options {
        root: b,
        ..Options::default()
    };
    let pic = picture(&tree, &tree.subtree_sizes(), None, &opts);
    assert_eq!(pic.nodes().count(), 4);
    assert_eq!(pic.placed[0].card.node, Some(b));
}

#[test]
fn pruned_marks_match_the_trace() {
    for seed in 0..8 {
        let tree = random_tree(seed, 4, 4);
        let (run, trace) = recorded(&tree, Algorithm::AlphaBeta { fail_soft: false });
        let replay = Replay::new(&tree, &trace);
        for step in [trace.len() / 2, trace.len()] {
            let states = replay.states(step);
            let at = At::new(&tree, &run, &trace, step);
            let opts = Options {
                width: usize::MAX,
                ..Options::default()
            };
            let pic = picture(&tree, &tree.subtree_sizes(), Some(&at), &opts);
            assert_eq!(pic.nodes().count(), tree.len());
            for (id, p) in pic.nodes() {
                let pruned = states[id.index()].status == Status::Pruned;
                assert_eq!(p.card.glyph == "✂", pruned, "seed {seed} node {id}");
                let edge = p
                    .parent
                    .is_some_and(|q| text::edge_mark(&pic.placed[q], p) == "✂");
                assert_eq!(edge, pruned && p.parent.is_some(), "seed {seed} node {id}");
            }
        }
    }
}

#[test]
fn the_current_step_is_marked_once() {
    let tree = parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
    let (run, trace) = recorded(&tree, Algorithm::AlphaBeta { fail_soft: false });
    let at = At::new(&tree, &run, &trace, 5);
    let pic = picture(&tree, &tree.subtree_sizes(), Some(&at), &Options::default());
    let current: Vec<_> = pic.placed.iter().filter(|p| p.card.current).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0].card.node, Some(trace.event(4).node()));
    assert_eq!(text::render(&pic).matches('▶').count(), 1);
    // Elided, the current node is still marked: on the card that hides it.
    for width in [8, 12, 100] {
        let opts = Options {
            depth: Some(0),
            width,
            ..Options::default()
        };
        let pic = picture(&tree, &tree.subtree_sizes(), Some(&at), &opts);
        let current: Vec<_> = pic.placed.iter().filter(|p| p.card.current).collect();
        assert_eq!(current.len(), 1);
        assert_eq!(current[0].card.node, None);
        assert_eq!(text::render(&pic).matches('▶').count(), 1);
        assert!(text::lines(&pic).iter().all(|l| l.width() <= width));
    }
    let before = At::new(&tree, &run, &trace, 0);
    let pic = picture(
        &tree,
        &tree.subtree_sizes(),
        Some(&before),
        &Options::default(),
    );
    assert!(pic.placed.iter().all(|p| !p.card.current));
}

#[test]
fn wide_labels_are_measured_in_columns() {
    let tree = parse_expr("(\"日本語のラベル\"=(1,2),b=(3,4))", false).unwrap();
    for width in [8, 10, 16, 30] {
        let opts = Options {
            width,
            ..Options::default()
        };
        let pic = picture(&tree, &tree.subtree_sizes(), None, &opts);
        for line in text::lines(&pic) {
            assert!(line.width() <= width, "{width}: {line}");
        }
    }
}

#[test]
fn water_filling_shares_what_is_left() {
    use super::layout::water_fill;
    assert_eq!(water_fill(&[2, 2, 2], &[10, 3, 10], 12), vec![5, 3, 4]);
    assert_eq!(water_fill(&[2, 2], &[4, 4], 100), vec![4, 4]);
    assert_eq!(water_fill(&[2, 2], &[4, 4], 3), vec![2, 2]);
}

#[test]
fn svg_and_tikz_escape_labels() {
    let tree = parse_expr("(\"a<b&c\"=(1,2),\"50%_$x\"=(3,4))", false).unwrap();
    let pic = picture(&tree, &tree.subtree_sizes(), None, &Options::default());
    let svg = svg::render(&pic, "t");
    assert!(svg.contains("a&lt;b&amp;c"), "{svg}");
    let tikz = tikz::render(&pic, "t");
    assert!(tikz.contains("50\\%\\_\\$x"), "{tikz}");
    assert_eq!(tikz.matches("\\begin{tikzpicture}").count(), 1);
}

#[test]
fn the_run_dot_of_a_big_tree_stays_small() {
    use crate::generate::uniform::{Order, Uniform, generate};
    let p = Uniform {
        branching: 10,
        depth: 5,
        values: Values::integers(-50, 50),
        order: Order::Random,
    };
    let tree = generate(&p, 3).unwrap();
    let (run, trace) = recorded(&tree, Algorithm::AlphaBeta { fail_soft: false });
    let mut out = Vec::new();
    dot::write_run(&mut out, &tree, &run, &trace).unwrap();
    let dot = String::from_utf8(out).unwrap();
    let nodes = dot.lines().filter(|l| l.contains("[label=")).count();
    assert!(nodes < 2_000, "{nodes} cards for {} nodes", tree.len());
    assert!(dot.contains("label=\"…"), "the rest is elided with counts");
}

/// A root over `n` leaves `0, 1, 2, …`.
fn wide_root(n: u32) -> Tree {
    use crate::tree::{Draft, DraftNode, Kind, Meta};
    let mut d = Draft::new(Meta::default());
    d.push(DraftNode::interior(Kind::Max, n));
    for v in 0..n {
        d.push(DraftNode::leaf(f64::from(v)));
    }
    d.finish().unwrap()
}

/// Issue: a root of 40,000 children took 12 s to lay out (each child measured, then the
/// elision's count summed again for every child dropped). The layout makes a card only for
/// the children it measures, and it measures only until the width is full.
#[test]
fn a_root_of_forty_thousand_children_costs_what_its_drawn_children_cost() {
    let tree = wide_root(40_000);
    let sizes = tree.subtree_sizes();
    for width in [20, 100, 400] {
        let mut made = 0usize;
        let pic = layout::lay_out(&tree, &sizes, tree.root(), 3, width, None, &[], |id| {
            made += 1;
            card(&tree, None, id)
        });
        assert!(accounted(&tree, &pic, tree.root()));
        let drawn = pic.nodes().count();
        assert!(drawn > 1 && pic.width <= width, "width {width}: {drawn}");
        // Every child measured is at least one column and a gap wide: no more than the width
        // allows are looked at, whatever the number of children.
        assert!(
            made <= 2 + width / layout::GAP,
            "width {width}: {made} cards made"
        );
        // The children kept are the first ones, and the elision counts the rest.
        let kept: Vec<NodeId> = pic.nodes().skip(1).map(|(n, _)| n).collect();
        let first: Vec<NodeId> = tree.children(tree.root()).take(kept.len()).collect();
        assert_eq!(kept, first);
        assert_eq!(pic.elided(), 40_000 - kept.len() as u64);
    }
}

/// Issue: the text picture (`prune draw`, the explorer's diagram) never marked the principal
/// variation, and no format's legend named it. At the run's end every format marks it and
/// says so; before the end none does.
#[test]
fn the_principal_variation_is_marked_and_named_in_every_format() {
    let tree = parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
    let (run, trace) = recorded(&tree, Algorithm::AlphaBeta { fail_soft: false });
    let sizes = tree.subtree_sizes();
    let opts = Options::default();
    let end = At::new(&tree, &run, &trace, trace.len());
    let pic = picture(&tree, &sizes, Some(&end), &opts);
    // The PV: the root, its child worth 3 (#1) and that child's child worth 3 (#1.1).
    let pv: Vec<NodeId> = pic.nodes().filter(|(_, p)| p.pv).map(|(n, _)| n).collect();
    assert_eq!(pv, run.pv);
    assert_eq!(pv.len(), 3);
    let lines = text::lines(&pic);
    for (_, p) in pic.nodes().filter(|(_, p)| p.parent.is_some()) {
        let parent = &pic.placed[p.parent.unwrap()];
        let row = pic.top(p.depth) - 1;
        let mark: String = lines[row]
            .chars()
            .nth(p.center)
            .map(String::from)
            .unwrap_or_default();
        assert_eq!(mark == text::PV_EDGE, parent.pv && p.pv, "{:?}", p.card);
    }
    let legend = format!("{} {}", text::PV_EDGE, PV_LEGEND);
    assert!(PictureFormat::Text.render(&pic, "t").contains(&legend));
    assert!(PictureFormat::Svg.render(&pic, "t").contains(PV_LEGEND));
    assert!(PictureFormat::Tikz.render(&pic, "t").contains(PV_LEGEND));
    assert!(PictureFormat::Dot.render(&pic, "t").contains(PV_LEGEND));
    let middle = At::new(&tree, &run, &trace, trace.len() / 2);
    let pic = picture(&tree, &sizes, Some(&middle), &opts);
    for f in [
        PictureFormat::Text,
        PictureFormat::Svg,
        PictureFormat::Tikz,
        PictureFormat::Dot,
    ] {
        let out = f.render(&pic, "t");
        assert!(
            !out.contains(PV_LEGEND) && !out.contains(text::PV_EDGE),
            "{f:?}"
        );
    }
}

/// A number of an SVG attribute.
fn attr(tag: &str, name: &str) -> Option<f64> {
    let (_, rest) = tag.split_once(&format!(" {name}=\""))?;
    rest.split('"').next()?.parse().ok()
}

/// Issue: SVG text ran past its box (`−∞..+∞`, `●+ a2`): the font decided its width. Every
/// card's line is given the width of its cells and centred in its box, which holds it.
#[test]
fn svg_text_stays_inside_its_box() {
    let tree = random_tree(3, 4, 3);
    let (run, trace) = recorded(&tree, Algorithm::AlphaBeta { fail_soft: false });
    for step in [trace.len() / 2, trace.len()] {
        let at = At::new(&tree, &run, &trace, step);
        let pic = picture(&tree, &tree.subtree_sizes(), Some(&at), &Options::default());
        let svg = svg::render(&pic, "t");
        let mut boxes = 0;
        let mut rect = None;
        for tag in svg.lines() {
            if tag.starts_with("<rect") {
                let x = attr(tag, "x").unwrap();
                rect = Some((x, x + attr(tag, "width").unwrap()));
                boxes += 1;
            } else if tag.starts_with("<text class=\"") && !tag.contains("legend") {
                let Some((lo, hi)) = rect else { continue };
                if tag.starts_with("<text class=\"cut\"") {
                    continue;
                }
                let len = attr(tag, "textLength").expect(tag);
                let mid = attr(tag, "x").unwrap();
                assert!(
                    lo <= mid - len / 2.0 && mid + len / 2.0 <= hi,
                    "{tag} outside {lo}..{hi}"
                );
            }
        }
        assert_eq!(boxes, pic.placed.len());
    }
}

/// A variation whose next move is below the depth limit draws no `┃`, so the text picture
/// has no legend to give; the figures outline the root in red, and name it.
#[test]
fn an_elided_variation_gets_no_text_legend() {
    let tree = wide_root(500);
    let (run, trace) = recorded(&tree, Algorithm::AlphaBeta { fail_soft: false });
    let at = At::new(&tree, &run, &trace, trace.len());
    let opts = Options {
        depth: Some(0),
        ..Options::default()
    };
    let pic = picture(&tree, &tree.subtree_sizes(), Some(&at), &opts);
    assert!(pic.has_pv() && !pic.has_pv_edge());
    let text = PictureFormat::Text.render(&pic, "t");
    assert!(
        !text.contains(PV_LEGEND) && !text.contains(text::PV_EDGE),
        "{text}"
    );
    assert!(PictureFormat::Svg.render(&pic, "t").contains(PV_LEGEND));
}

/// The width elides the children between the drawn ones, never the best: the last of 500
/// children, on the principal variation, is drawn after an elision card counting those
/// before it, and the picture stays within the width.
#[test]
fn the_width_never_elides_the_principal_variation() {
    let tree = wide_root(500);
    let (run, trace) = recorded(&tree, Algorithm::AlphaBeta { fail_soft: false });
    let sizes = tree.subtree_sizes();
    for step in [1, trace.len() / 2, trace.len()] {
        let at = At::new(&tree, &run, &trace, step);
        let pic = picture(&tree, &sizes, Some(&at), &Options::default());
        assert!(pic.width <= 100, "step {step}: {}", pic.width);
        assert!(accounted(&tree, &pic, tree.root()), "step {step}");
        let best = *run.pv.last().unwrap();
        let kids: Vec<&Placed> = pic.placed[0]
            .children
            .iter()
            .map(|&c| &pic.placed[c])
            .collect();
        assert_eq!(kids.last().unwrap().card.node, Some(best), "step {step}");
        let current = at.current().unwrap();
        assert!(pic.nodes().any(|(n, _)| n == current), "step {step}");
        // Each run of children left out is one card: none are side by side.
        assert!(
            kids.windows(2)
                .all(|w| w[0].card.node.is_some() || w[1].card.node.is_some()),
            "step {step}"
        );
    }
}
