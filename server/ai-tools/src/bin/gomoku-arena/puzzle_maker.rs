//! `--find-vcf` and `--chain-vcf`: making the VCF puzzles of
//! `tabula_ai::gomoku::puzzles` (random dense positions, and chains of
//! fours built step by step), printed as diagrams.

use std::time::Instant;

use tabula_ai::gomoku::find_vcf;
use tabula_ai::rng::mix;
use tabula_shared::gomoku::{Board, Point, Rule, Stone, five_at};

use super::{Args, board_rows};

/// Puzzle generator: random dense positions (black to move, white without
/// fours) whose shortest VCF for black has at least five fours; prints
/// them as diagrams for `puzzles.rs`.
pub fn find_puzzles(args: &Args) {
    let mut r = 12345u64;
    for _ in 0..args.openings * 1000 {
        r = mix(r);
        let mut board = Board::new(15).expect("valid size");
        let stones = 16 + (r % 16) as usize;
        let mut k = 0;
        while board.stone_count() < stones {
            r = mix(r);
            let p = Point::new(3 + (r % 9) as u8, 3 + ((r >> 8) % 9) as u8);
            let s = if k % 2 == 0 {
                Stone::Black
            } else {
                Stone::White
            };
            if board.place(p, s).is_ok() {
                k += 1;
            }
        }
        if find_vcf(&board, Stone::White, Rule::Freestyle, 2_000).is_some()
            || find_vcf(&board, Stone::Black, Rule::Freestyle, 200_000).is_none()
        {
            continue;
        }
        if let Some(f) =
            tabula_ai::gomoku::vcf_min_fours(&board, Stone::Black, Rule::Freestyle, 16, 200_000)
            && f >= 4
        {
            let rows = board_rows(&board);
            println!("fours {}: {:?}", f + 1, rows);
        }
    }
}

/// Empty points where `stone` would make five (freestyle).
fn five_points(board: &Board, stone: Stone) -> Vec<Point> {
    let mut b = board.clone();
    board
        .points()
        .filter(|&p| {
            if b.place(p, stone).is_err() {
                return false;
            }
            let five = five_at(&b, p, stone, Rule::Freestyle).is_some();
            b.remove(p);
            five
        })
        .collect()
}

/// Does the chain of `steps` (black four, white block; the last step is
/// black's open four, without a block) play out on `board` as intended:
/// nobody has a five-point at the start, every black move leaves exactly
/// its block point, no block gives white a five-point, and the last move
/// leaves at least two? On failure, the step that failed and black's
/// five-points there.
fn chain_check(board: &Board, steps: &[(Point, Option<Point>)]) -> Result<(), (usize, Vec<Point>)> {
    let mut b = board.clone();
    if !five_points(&b, Stone::Black).is_empty() || !five_points(&b, Stone::White).is_empty() {
        return Err((0, Vec::new()));
    }
    for (k, &(a, d)) in steps.iter().enumerate() {
        if b.place(a, Stone::Black).is_err()
            || five_at(&b, a, Stone::Black, Rule::Freestyle).is_some()
        {
            return Err((k, Vec::new()));
        }
        let f = five_points(&b, Stone::Black);
        match d {
            Some(d) => {
                if f != [d] {
                    return Err((k, f));
                }
                if b.place(d, Stone::White).is_err()
                    || five_at(&b, d, Stone::White, Rule::Freestyle).is_some()
                    || !five_points(&b, Stone::White).is_empty()
                {
                    return Err((k, Vec::new()));
                }
            }
            None if f.len() < 2 => return Err((k, f)),
            None => {}
        }
    }
    Ok(())
}

/// One stage of a chain under construction.
#[derive(Clone)]
struct ChainState {
    board: Board,
    steps: Vec<(Point, Option<Point>)>,
    /// Cells the chain needs empty.
    reserved: Vec<Point>,
    prev_dir: usize,
}

/// Puts white stones (never on `reserved` cells, keeping the chain valid)
/// until black has no VCF shorter than `max_fours + 1` moves; false when a
/// shorter VCF cannot be cut.
fn cut_shortcuts(st: &mut ChainState, max_fours: i32) -> bool {
    use tabula_ai::gomoku::shortest_vcf;
    const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let short = |b: &Board| {
        if max_fours < 0 {
            None
        } else {
            shortest_vcf(b, Stone::Black, Rule::Freestyle, max_fours, 300_000)
        }
    };
    for _ in 0..40 {
        let Some(line) = short(&st.board) else {
            return true;
        };
        // Candidates: the line's black moves, then the cells on their lines.
        let mut cands: Vec<Point> = line.iter().step_by(2).copied().collect();
        for &m in line.iter().step_by(2) {
            for (dx, dy) in DIRS {
                for k in -4i32..=4 {
                    let (x, y) = (i32::from(m.x) + k * dx, i32::from(m.y) + k * dy);
                    if (0..15).contains(&x) && (0..15).contains(&y) {
                        cands.push(Point::new(x as u8, y as u8));
                    }
                }
            }
        }
        let mut fixed = false;
        cands.truncate(40);
        for p in cands {
            if st.reserved.contains(&p) || !st.board.is_empty_at(p) {
                continue;
            }
            let mut b2 = st.board.clone();
            let _ = b2.place(p, Stone::White);
            if chain_check(&b2, &st.steps).is_err() {
                continue;
            }
            if short(&b2).is_none_or(|l| l.len() > line.len() || l != line) {
                st.board = b2;
                fixed = true;
                break;
            }
        }
        if !fixed {
            return false;
        }
    }
    false
}

/// Adds chain step `k` of `n` (see [`chain_puzzle`]) to `st`.
fn chain_step(
    st: &ChainState,
    k: usize,
    n: usize,
    rnd: &mut impl FnMut(usize) -> usize,
) -> Option<ChainState> {
    const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let at = |x: i32, y: i32| {
        ((0..15).contains(&x) && (0..15).contains(&y)).then(|| Point::new(x as u8, y as u8))
    };
    let last = k + 1 == n;
    let len = if last { 6 } else { 5 };
    for _ in 0..60 {
        let dir = rnd(4);
        if dir == st.prev_dir {
            continue;
        }
        let (dx, dy) = DIRS[dir];
        let apos = if last { 1 + rnd(4) } else { rnd(5) };
        let anchor = if k == 0 {
            Point::new(4 + rnd(7) as u8, 4 + rnd(7) as u8)
        } else {
            st.steps[k - 1].0
        };
        let Some(cells) = (0..len)
            .map(|j| {
                let o = j as i32 - apos as i32;
                at(i32::from(anchor.x) + o * dx, i32::from(anchor.y) + o * dy)
            })
            .collect::<Option<Vec<Point>>>()
        else {
            continue;
        };
        let mut free: Vec<usize> = (0..len).filter(|&j| k == 0 || j != apos).collect();
        if !free
            .iter()
            .all(|&j| st.board.is_empty_at(cells[j]) && !st.reserved.contains(&cells[j]))
        {
            continue;
        }
        let mut next = st.clone();
        let (a, d) = if last {
            free.retain(|&j| j != 0 && j != 5);
            next.reserved.push(cells[0]);
            next.reserved.push(cells[5]);
            (free.remove(rnd(free.len())), None)
        } else {
            let a = free.remove(rnd(free.len()));
            let d = free.remove(rnd(free.len()));
            next.reserved.push(cells[d]);
            (a, Some(d))
        };
        next.reserved.push(cells[a]);
        for &j in &free {
            let _ = next.board.place(cells[j], Stone::Black);
        }
        next.steps.push((cells[a], d.map(|d| cells[d])));
        next.prev_dir = dir;
        // Block stray five-points with white stones (a few rounds).
        let mut ok = false;
        for _ in 0..4 {
            match chain_check(&next.board, &next.steps) {
                Ok(()) => {
                    ok = true;
                    break;
                }
                Err((_, f)) => {
                    let extra: Vec<Point> = f
                        .into_iter()
                        .filter(|p| !next.reserved.contains(p) && next.board.is_empty_at(*p))
                        .collect();
                    if extra.is_empty() {
                        break;
                    }
                    for p in extra {
                        let _ = next.board.place(p, Stone::White);
                    }
                }
            }
        }
        // Before the last step black must have no VCF at all; after it,
        // none shorter than the chain.
        let max_fours = if last { k as i32 - 1 } else { 60 };
        if ok && cut_shortcuts(&mut next, max_fours) {
            return Some(next);
        }
    }
    None
}

/// Builds a chain of `n` black moves on an empty 15x15 board from `seed`:
/// `n - 1` fours, each through the previous four's stone on a new line
/// (with two prepared black stones), then an open four. White stones block
/// stray five-points and cut every shorter VCF the solver finds (kept off
/// the chain's cells); white fillers then even the stone counts (black to
/// move). Steps that cannot be placed are backtracked. `Some(board)` when
/// the solver proves the chain is the shortest VCF.
fn chain_puzzle(n: usize, seed: u64) -> Option<Board> {
    let mut r = mix(seed);
    let mut rnd = |m: usize| {
        r = mix(r);
        (r % m as u64) as usize
    };
    let mut stack = vec![ChainState {
        board: Board::new(15).ok()?,
        steps: Vec::new(),
        reserved: Vec::new(),
        prev_dir: usize::MAX,
    }];
    let mut budget = 60 * n;
    while stack.len() <= n {
        if budget == 0 {
            return None;
        }
        budget -= 1;
        let k = stack.len() - 1;
        match chain_step(&stack[k], k, n, &mut rnd) {
            Some(next) => stack.push(next),
            None if stack.len() > 1 => {
                let back = if stack.len() > 2 { 1 + rnd(2) } else { 1 };
                stack.truncate(stack.len() - back);
            }
            None => {}
        }
    }
    let mut st = stack.pop()?;
    // Equal stone counts (black to move): white fillers near the stones.
    let count = |b: &Board, s: Stone| b.stones().filter(|&(_, t)| t == s).count();
    let mut guard = 0;
    while count(&st.board, Stone::White) < count(&st.board, Stone::Black) && guard < 4000 {
        guard += 1;
        let p = Point::new(1 + rnd(13) as u8, 1 + rnd(13) as u8);
        if !st.board.is_empty_at(p) || st.reserved.contains(&p) {
            continue;
        }
        let mut b2 = st.board.clone();
        let _ = b2.place(p, Stone::White);
        if chain_check(&b2, &st.steps).is_ok() {
            st.board = b2;
        }
    }
    if count(&st.board, Stone::White) != count(&st.board, Stone::Black) {
        return None;
    }
    let min = tabula_ai::gomoku::vcf_min_fours(
        &st.board,
        Stone::Black,
        Rule::Freestyle,
        n as i32 - 1,
        5_000_000,
    )?;
    (min == n - 1).then_some(st.board)
}

/// `--chain-vcf N`: tries `openings` seeds from `seed` and prints every
/// chain puzzle of `N` fours (counting the final open four) found.
pub fn chain_puzzles(n: usize, seed: u64, tries: usize) {
    for s in seed..seed + tries as u64 {
        let t = Instant::now();
        if let Some(board) = chain_puzzle(n, s) {
            let rows = board_rows(&board);
            println!(
                "seed {s} fours {n} ({:.1} s): {rows:?}",
                t.elapsed().as_secs_f64()
            );
        }
    }
}
