//! Whether a set of players can all be paired: a perfect matching in the
//! graph of allowed pairings, by Edmonds' blossom algorithm (an augmenting
//! path search that shrinks odd cycles), `O(V³)`.
//!
//! A Swiss pairing asks this of the players still to be paired before it
//! settles a score group (the FIDE Dutch rules' criterion C4, "completion").

use std::collections::VecDeque;

/// The size of a maximum matching of the graph on `n` vertices whose
/// adjacency is `allowed(a, b)` (symmetric, never asked for `a == b`).
pub fn maximum_matching(n: usize, allowed: impl Fn(usize, usize) -> bool) -> usize {
    let adjacency: Vec<Vec<usize>> = (0..n)
        .map(|a| (0..n).filter(|&b| b != a && allowed(a, b)).collect())
        .collect();
    let mut mate: Vec<Option<usize>> = vec![None; n];
    // A greedy start leaves fewer augmenting searches.
    for a in 0..n {
        if mate[a].is_none()
            && let Some(&b) = adjacency[a].iter().find(|&&b| mate[b].is_none())
        {
            mate[a] = Some(b);
            mate[b] = Some(a);
        }
    }
    for root in 0..n {
        if mate[root].is_none() {
            augment_from(root, &adjacency, &mut mate);
        }
    }
    mate.iter().filter(|m| m.is_some()).count() / 2
}

/// Searches for an augmenting path from the free vertex `root` and, if one
/// is found, flips it (the matching grows by one).
fn augment_from(root: usize, adjacency: &[Vec<usize>], mate: &mut [Option<usize>]) {
    let n = adjacency.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut base: Vec<usize> = (0..n).collect();
    let mut used = vec![false; n];
    let mut queue = VecDeque::from([root]);
    used[root] = true;
    while let Some(v) = queue.pop_front() {
        for &to in &adjacency[v] {
            if base[v] == base[to] || mate[v] == Some(to) {
                continue;
            }
            let to_is_outer = to == root || mate[to].is_some_and(|m| parent[m].is_some());
            if to_is_outer {
                // An odd cycle: shrink it into one blossom.
                let lca = lowest_common_base(v, to, &base, mate, &parent);
                let mut in_blossom = vec![false; n];
                mark_path(v, lca, to, &mut base, &mut in_blossom, mate, &mut parent);
                mark_path(to, lca, v, &mut base, &mut in_blossom, mate, &mut parent);
                for i in 0..n {
                    if in_blossom[base[i]] {
                        base[i] = lca;
                        if !used[i] {
                            used[i] = true;
                            queue.push_back(i);
                        }
                    }
                }
            } else if parent[to].is_none() {
                parent[to] = Some(v);
                match mate[to] {
                    None => {
                        flip_path(to, mate, &parent);
                        return;
                    }
                    Some(next) => {
                        used[next] = true;
                        queue.push_back(next);
                    }
                }
            }
        }
    }
}

fn lowest_common_base(
    a: usize,
    b: usize,
    base: &[usize],
    mate: &[Option<usize>],
    parent: &[Option<usize>],
) -> usize {
    let mut seen = vec![false; base.len()];
    let mut a = a;
    loop {
        a = base[a];
        seen[a] = true;
        match mate[a].and_then(|m| parent[m]) {
            Some(p) => a = p,
            None => break,
        }
    }
    let mut b = b;
    loop {
        b = base[b];
        if seen[b] {
            return b;
        }
        b = parent[mate[b].expect("an outer vertex below the root is matched")]
            .expect("its mate has a parent");
    }
}

fn mark_path(
    mut v: usize,
    lca: usize,
    mut child: usize,
    base: &mut [usize],
    in_blossom: &mut [bool],
    mate: &[Option<usize>],
    parent: &mut [Option<usize>],
) {
    while base[v] != lca {
        let m = mate[v].expect("a blossom's path alternates through matched edges");
        in_blossom[base[v]] = true;
        in_blossom[base[m]] = true;
        parent[v] = Some(child);
        child = m;
        v = parent[m].expect("a matched outer vertex has a parent");
    }
}

fn flip_path(mut v: usize, mate: &mut [Option<usize>], parent: &[Option<usize>]) {
    loop {
        let p = parent[v].expect("the path leads back to the root");
        let next = mate[p];
        mate[v] = Some(p);
        mate[p] = Some(v);
        match next {
            Some(n) => v = n,
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edges(list: &[(usize, usize)]) -> impl Fn(usize, usize) -> bool + '_ {
        move |a, b| {
            list.iter()
                .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
        }
    }

    #[test]
    fn a_path_of_four_has_two_pairs_and_a_star_one() {
        assert_eq!(maximum_matching(4, edges(&[(0, 1), (1, 2), (2, 3)])), 2);
        assert_eq!(maximum_matching(4, edges(&[(0, 1), (0, 2), (0, 3)])), 1);
    }

    #[test]
    fn an_odd_cycle_is_shrunk_to_find_the_augmenting_path() {
        // A triangle 0-1-2 with tails 2-3 and 0-4: the greedy start pairs
        // 0-1 and 2-3, leaving 4; augmenting needs the blossom.
        let list = [(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (1, 5)];
        assert_eq!(maximum_matching(6, edges(&list)), 3);
        // Two triangles joined by one edge: six vertices, three pairs.
        let list = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)];
        assert_eq!(maximum_matching(6, edges(&list)), 3);
    }

    #[test]
    fn agrees_with_brute_force_on_small_random_graphs() {
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..400 {
            let n = (next() % 9) as usize + 1;
            let mut adj = vec![vec![false; n]; n];
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            for (a, b) in pairs {
                let on = next() % 3 == 0;
                adj[a][b] = on;
                adj[b][a] = on;
            }
            let fast = maximum_matching(n, |a, b| adj[a][b]);
            assert_eq!(fast, brute(&adj, &mut vec![false; n]), "{adj:?}");
        }
    }

    fn brute(adj: &[Vec<bool>], taken: &mut [bool]) -> usize {
        let Some(a) = (0..adj.len()).find(|&a| !taken[a]) else {
            return 0;
        };
        taken[a] = true;
        let mut best = brute(adj, taken);
        for b in 0..adj.len() {
            if !taken[b] && adj[a][b] {
                taken[b] = true;
                best = best.max(1 + brute(adj, taken));
                taken[b] = false;
            }
        }
        taken[a] = false;
        best
    }
}
