//! Swiss pairing by the FIDE Dutch system (Handbook C.04.3): score groups
//! paired from the top, the top half of a group against the bottom half in
//! rank order, with no repeat pairing, no second bye and no two players of
//! the same absolute colour preference paired (the absolute criteria C1-C3),
//! a pairing of the whole field always left possible (C4), then as many
//! pairs as the group allows (C5), the least score difference (C6), colour
//! preferences (C12, C13) and floats (C14-C21); colours by rules E1-E5.
//!
//! Where it is simpler than the handbook, and so can differ from an endorsed
//! program (`docs/TOURNAMENTS.md` measures how often against
//! `caissify-pairings`): candidates are searched in an order that follows
//! the handbook's transpositions and then its exchanges, within a budget,
//! rather than by the handbook's exact sequence; criteria C7-C11 are not
//! weighed; a score group that cannot be paired so that
//! the rest can is joined to the group above and the two paired again.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::matching::maximum_matching;
use crate::seat::Seat;

/// A player as the pairing sees them before a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    pub id: u32,
    /// Pairing number: 1 is the highest rated.
    pub rank: u32,
    /// Score in half points.
    pub score: u32,
    /// Colours of the games played, oldest first (`First` plays first, as
    /// White in chess). Byes and forfeits are not in it.
    pub colours: Vec<Seat>,
    /// Floats of the rounds so far, oldest first; a bye floats down.
    pub floats: Vec<Float>,
    /// Byes (and unpaired rounds scored as a win) received.
    pub byes: u32,
    /// Everyone played so far.
    pub opponents: Vec<u32>,
}

impl SwissPlayer {
    /// A player before their first round, with pairing number `rank`.
    pub fn entering(id: u32, rank: u32) -> SwissPlayer {
        SwissPlayer {
            id,
            rank,
            score: 0,
            colours: Vec::new(),
            floats: Vec::new(),
            byes: 0,
            opponents: Vec::new(),
        }
    }
}

/// How a player was paired in a round against their own score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Float {
    /// Against the same score.
    None,
    /// Against a higher score.
    Up,
    /// Against a lower score, or given the bye.
    Down,
}

/// One round's pairing: games as (first seat, second seat), board order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SwissRound {
    pub games: Vec<(u32, u32)>,
    pub bye: Option<u32>,
}

/// Why no pairing exists.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("no pairing keeps the absolute rules (no repeat game, no second bye, colours)")]
    Impossible,
    #[error("player {0} is listed twice")]
    DuplicatePlayer(u32),
}

/// What a round needs to know beyond the players.
#[derive(Debug, Clone, Copy)]
pub struct SwissRules {
    /// This round, from 1.
    pub round: u32,
    pub total_rounds: u32,
    /// The colour the top seed gets in round 1 (drawn by lot before it).
    pub initial: Seat,
}

/// A colour preference (Handbook C.04.3 A.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

#[derive(Debug, Clone, Copy)]
struct Preference {
    strength: Strength,
    colour: Option<Seat>,
    /// Firsts minus seconds.
    difference: i32,
}

fn preference(colours: &[Seat]) -> Preference {
    let difference = colours
        .iter()
        .map(|c| if *c == Seat::First { 1 } else { -1 })
        .sum::<i32>();
    let last = colours.last().copied();
    let repeated = colours.len() >= 2 && colours[colours.len() - 1] == colours[colours.len() - 2];
    let (strength, colour) = match last {
        None => (Strength::None, None),
        Some(_) if difference > 1 => (Strength::Absolute, Some(Seat::Second)),
        Some(_) if difference < -1 => (Strength::Absolute, Some(Seat::First)),
        Some(l) if repeated => (Strength::Absolute, Some(l.other())),
        Some(_) if difference == 1 => (Strength::Strong, Some(Seat::Second)),
        Some(_) if difference == -1 => (Strength::Strong, Some(Seat::First)),
        Some(l) => (Strength::Mild, Some(l.other())),
    };
    Preference {
        strength,
        colour,
        difference,
    }
}

/// The round's players, indexed, with what the criteria ask of each.
struct Field<'a> {
    players: &'a [SwissPlayer],
    prefs: Vec<Preference>,
    index_of: HashMap<u32, usize>,
    /// The final round's topscorers may break the colour rule (C3).
    topscorer: Vec<bool>,
}

impl Field<'_> {
    fn may_meet(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (&self.players[a], &self.players[b]);
        if pa.opponents.contains(&pb.id) {
            return false;
        }
        let (ca, cb) = (self.prefs[a], self.prefs[b]);
        let both_absolute = ca.strength == Strength::Absolute
            && cb.strength == Strength::Absolute
            && ca.colour == cb.colour;
        !both_absolute || self.topscorer[a] || self.topscorer[b]
    }

    fn bye_eligible(&self, a: usize) -> bool {
        self.players[a].byes == 0
    }

    /// Whether everyone in `set` can be paired, leaving at most one
    /// bye-eligible player over when the count is odd (criterion C4).
    fn completable(&self, set: &[usize]) -> bool {
        let n = set.len();
        if n == 0 {
            return true;
        }
        let odd = n % 2 == 1;
        let total = n + usize::from(odd);
        // Dirac: every vertex joined to at least half the others means a
        // Hamiltonian cycle, so a perfect matching (the count being even).
        let allowed = |i: usize, j: usize| -> bool {
            match (i == n, j == n) {
                (true, false) => self.bye_eligible(set[j]),
                (false, true) => self.bye_eligible(set[i]),
                _ => self.may_meet(set[i], set[j]),
            }
        };
        if total >= 64 && self.dense(set) {
            return true;
        }
        maximum_matching(total, allowed) * 2 == total
    }

    /// Dirac's condition on the allowed-pairing graph of `set` (with the
    /// bye's vertex when the count is odd): every vertex joined to at least
    /// half of the others. Counted from each player's few opponents and the
    /// absolute colour classes, in `O(n × rounds)`.
    fn dense(&self, set: &[usize]) -> bool {
        let n = set.len();
        let odd = n % 2 == 1;
        let total = n + usize::from(odd);
        let ids: std::collections::HashSet<u32> = set.iter().map(|&i| self.players[i].id).collect();
        // An absolute preference that forbids: not a topscorer's.
        let class = |i: usize| -> Option<Seat> {
            let p = self.prefs[i];
            (p.strength == Strength::Absolute && !self.topscorer[i])
                .then_some(p.colour)
                .flatten()
        };
        let mut per_class = [0usize; 2];
        for &i in set {
            if let Some(c) = class(i) {
                per_class[c.index()] += 1;
            }
        }
        let eligible = set.iter().filter(|&&i| self.bye_eligible(i)).count();
        if odd && 2 * eligible < total {
            return false;
        }
        set.iter().all(|&i| {
            let same_class = class(i).map_or(0, |c| per_class[c.index()] - 1);
            let other_opponents = self.players[i]
                .opponents
                .iter()
                .filter(|o| ids.contains(o))
                .filter(|o| {
                    let j = self.index_of[o];
                    class(i).is_none() || class(j) != class(i)
                })
                .count();
            let degree =
                n - 1 - same_class - other_opponents + usize::from(odd && self.bye_eligible(i));
            2 * degree >= total
        })
    }
}

/// The quality of a group's pairing: smaller is better, compared in order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Quality {
    unpaired: usize,
    /// Score differences of pairs and floaters, largest first (C6).
    score_differences: Vec<u32>,
    colour_misses: usize,
    strong_colour_misses: usize,
    repeated_down_1: usize,
    repeated_up_1: usize,
    repeated_down_2: usize,
    repeated_up_2: usize,
    /// The same, weighed: a repeated downfloater's score, a repeated
    /// upfloater's opponent's score (C18-C21).
    down_score_1: u32,
    up_opponent_score_1: u32,
    down_score_2: u32,
    up_opponent_score_2: u32,
}

/// Pairs one round.
pub fn pair_round(players: &[SwissPlayer], rules: SwissRules) -> Result<SwissRound, PairingError> {
    let mut index_of = HashMap::new();
    for (i, p) in players.iter().enumerate() {
        if index_of.insert(p.id, i).is_some() {
            return Err(PairingError::DuplicatePlayer(p.id));
        }
    }
    let final_round = rules.round >= rules.total_rounds;
    let max_score = 2 * (rules.round.saturating_sub(1));
    let field = Field {
        players,
        prefs: players.iter().map(|p| preference(&p.colours)).collect(),
        index_of,
        topscorer: players
            .iter()
            .map(|p| final_round && p.score * 2 > max_score)
            .collect(),
    };
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(players[i].score), players[i].rank));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if players[g[0]].score == players[i].score => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut carried: Vec<usize> = Vec::new();
    // Per group paired: the pairs before it and what came down into it.
    let mut done: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut g = 0;
    while g < groups.len() {
        let mut bracket = carried.clone();
        bracket.extend(&groups[g]);
        let rest: Vec<usize> = groups[g + 1..].iter().flatten().copied().collect();
        let last = g + 1 == groups.len();
        match pair_bracket(&field, &bracket, &rest, last, carried.len()) {
            Some((found, down)) => {
                done.push((pairs.len(), std::mem::replace(&mut carried, down)));
                pairs.extend(found);
                g += 1;
            }
            None => {
                // Collapse: this group joins the one above, paired again.
                let Some((before, came_down)) = done.pop() else {
                    return Err(PairingError::Impossible);
                };
                pairs.truncate(before);
                carried = came_down;
                let this = groups.remove(g);
                g -= 1;
                groups[g].extend(this);
            }
        }
    }
    let bye = match carried.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => return Err(PairingError::Impossible),
    };
    let mut games: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| colours(&field, a, b, rules.initial))
        .collect();
    games.sort_by_key(|&(a, b)| {
        let (pa, pb) = (&players[a], &players[b]);
        (
            std::cmp::Reverse(pa.score.max(pb.score)),
            std::cmp::Reverse(pa.score + pb.score),
            pa.rank.min(pb.rank),
        )
    });
    Ok(SwissRound {
        games: games
            .into_iter()
            .map(|(a, b)| (players[a].id, players[b].id))
            .collect(),
        bye: bye.map(|i| players[i].id),
    })
}

/// The largest group of residents whose single exchanges are searched
/// (beyond it, the search goes from the transpositions to any pairing).
const MAX_EXCHANGE_BRACKET: usize = 40;

/// A bracket's pairs and the players it floats down.
type BracketPairing = (Vec<(usize, usize)>, Vec<usize>);

/// How many leaves of one bracket's search are weighed before the best so
/// far is taken.
const SEARCH_BUDGET: usize = 4000;

/// Pairs one bracket (`carried` of its players came down from above, and
/// come first): the pairs and the players floated down, or `None` where no
/// choice leaves the rest pairable.
fn pair_bracket(
    field: &Field,
    bracket: &[usize],
    rest: &[usize],
    last: bool,
    carried: usize,
) -> Option<BracketPairing> {
    let mut search = Search {
        field,
        bracket,
        rest,
        last,
        carried,
        lowest: bracket
            .iter()
            .map(|&i| field.players[i].score)
            .min()
            .unwrap_or(0),
        paired: vec![None; bracket.len()],
        down: Vec::new(),
        best: None,
        leaves: 0,
        completion: HashMap::new(),
    };
    search.run();
    search.best.map(|(_, found)| found)
}

struct Search<'a> {
    field: &'a Field<'a>,
    bracket: &'a [usize],
    rest: &'a [usize],
    last: bool,
    carried: usize,
    lowest: u32,
    /// Per bracket position: its partner's position.
    paired: Vec<Option<usize>>,
    /// Positions floated down.
    down: Vec<usize>,
    best: Option<(Quality, BracketPairing)>,
    leaves: usize,
    completion: HashMap<Vec<usize>, bool>,
}

impl Search<'_> {
    fn run(&mut self) {
        self.step(false, None);
        self.leaves = 0;
        self.step(true, None);
    }

    fn done(&self) -> bool {
        self.leaves >= SEARCH_BUDGET || self.best.as_ref().is_some_and(|(q, _)| self.ideal(q))
    }

    /// Nothing better can exist: every possible pair made and nothing
    /// missed beyond the score differences a full pairing must have.
    fn ideal(&self, q: &Quality) -> bool {
        q.unpaired <= self.bracket.len() % 2
            && q.colour_misses == 0
            && q.repeated_down_1 + q.repeated_up_1 + q.repeated_down_2 + q.repeated_up_2 == 0
            && q.score_differences.iter().all(|&d| d == 0)
    }

    /// One level of the search: a free player meets someone, or floats
    /// down. Moved-down players first meet residents in order (`mdp_open`:
    /// then each other too). For each way of pairing them, the residents
    /// left are split into a top half and a bottom half (`remainder`: who is
    /// in the top half, and whether the top half must meet the bottom
    /// half). The handbook's order: transpositions of the bottom half, then
    /// the same after exchanging one player between the halves (the closest
    /// exchanges first), then (here) any pairing at all.
    fn step(&mut self, mdp_open: bool, remainder: Option<(&[bool], bool)>) {
        if self.done() {
            return;
        }
        let free: Vec<usize> = (0..self.bracket.len())
            .filter(|&i| self.paired[i].is_none() && !self.down.contains(&i))
            .collect();
        let Some(&first) = free.first() else {
            self.leaf();
            return;
        };
        // Prune: fewer pairs than the best already found.
        if let Some((q, _)) = &self.best {
            let could_pair =
                self.paired.iter().filter(|p| p.is_some()).count() + free.len() / 2 * 2;
            if self.bracket.len() - could_pair > q.unpaired {
                return;
            }
        }
        if first >= self.carried && remainder.is_none() {
            self.split_remainder(mdp_open, &free);
            return;
        }
        // In a transposition, the top half's first free player meets the
        // bottom half; when the top half is done, the bottom's rest floats.
        let first = match remainder {
            Some((top, true)) => match free.iter().copied().find(|&i| top[i]) {
                Some(i) => i,
                None => {
                    let floated = free.len();
                    self.down.extend(&free);
                    self.step(mdp_open, remainder);
                    self.down.truncate(self.down.len() - floated);
                    return;
                }
            },
            _ => first,
        };
        let partners: Vec<usize> = match remainder {
            None => {
                let mut order: Vec<usize> = free
                    .iter()
                    .copied()
                    .filter(|&i| i >= self.carried)
                    .collect();
                if mdp_open {
                    order.extend(
                        free.iter()
                            .copied()
                            .filter(|&i| i < self.carried && i != first),
                    );
                }
                order
            }
            Some((top, transpositions)) => {
                let mut order: Vec<usize> = free.iter().copied().filter(|&i| !top[i]).collect();
                if !transpositions {
                    order.extend(free.iter().copied().filter(|&i| top[i] && i != first));
                }
                order.retain(|&i| i != first);
                order
            }
        };
        for partner in partners {
            if self
                .field
                .may_meet(self.bracket[first], self.bracket[partner])
            {
                self.paired[first] = Some(partner);
                self.paired[partner] = Some(first);
                self.step(mdp_open, remainder);
                self.paired[first] = None;
                self.paired[partner] = None;
                if self.done() {
                    return;
                }
            }
        }
        let may_float = match remainder {
            None => true,
            Some((top, transpositions)) => !transpositions || !top[first],
        };
        if may_float {
            self.down.push(first);
            self.step(mdp_open, remainder);
            self.down.pop();
        }
    }

    /// Splits the free residents (`free`, in order) into halves and searches
    /// the transpositions, then those after each single exchange between
    /// the halves, then any pairing.
    fn split_remainder(&mut self, mdp_open: bool, free: &[usize]) {
        let half = free.len() / 2;
        let mut top = vec![false; self.bracket.len()];
        for &i in &free[..half] {
            top[i] = true;
        }
        self.step(mdp_open, Some((&top, true)));
        // Exchanges: the smallest difference of bracket numbers first, then
        // the higher player leaving the top half, then the higher joining.
        if free.len() <= MAX_EXCHANGE_BRACKET {
            for (a, b) in single_exchanges(half, free.len()) {
                if self.done() {
                    return;
                }
                top[free[a]] = false;
                top[free[b]] = true;
                self.step(mdp_open, Some((&top, true)));
                top[free[a]] = true;
                top[free[b]] = false;
            }
        }
        self.step(mdp_open, Some((&top, false)));
    }

    fn leaf(&mut self) {
        self.leaves += 1;
        let down: Vec<usize> = self.down.iter().map(|&i| self.bracket[i]).collect();
        if self.last && (down.len() > 1 || down.iter().any(|&i| !self.field.bye_eligible(i))) {
            return;
        }
        let quality = self.quality();
        if self.best.as_ref().is_some_and(|(q, _)| *q <= quality) {
            return;
        }
        let mut key = down.clone();
        key.sort_unstable();
        let completable = match self.completion.get(&key) {
            Some(&c) => c,
            None => {
                let mut set = key.clone();
                set.extend(self.rest);
                let c = self.field.completable(&set);
                self.completion.insert(key, c);
                c
            }
        };
        if !completable {
            return;
        }
        let pairs = (0..self.bracket.len())
            .filter_map(|i| match self.paired[i] {
                Some(j) if i < j => Some((self.bracket[i], self.bracket[j])),
                _ => None,
            })
            .collect();
        self.best = Some((quality, (pairs, down)));
    }

    fn quality(&self) -> Quality {
        let f = self.field;
        let mut q = Quality {
            unpaired: self.down.len(),
            score_differences: Vec::new(),
            colour_misses: 0,
            strong_colour_misses: 0,
            repeated_down_1: 0,
            repeated_up_1: 0,
            repeated_down_2: 0,
            repeated_up_2: 0,
            down_score_1: 0,
            up_opponent_score_1: 0,
            down_score_2: 0,
            up_opponent_score_2: 0,
        };
        let float_at = |i: usize, back: usize| -> Option<Float> {
            let floats = &f.players[i].floats;
            floats.len().checked_sub(back).map(|k| floats[k])
        };
        // `weight`: the downfloater's own score, or the upfloater's opponent's.
        let count_float = |q: &mut Quality, i: usize, dir: Float, weight: u32| {
            if float_at(i, 1) == Some(dir) {
                if dir == Float::Down {
                    q.repeated_down_1 += 1;
                    q.down_score_1 += weight;
                } else {
                    q.repeated_up_1 += 1;
                    q.up_opponent_score_1 += weight;
                }
            }
            if float_at(i, 2) == Some(dir) {
                if dir == Float::Down {
                    q.repeated_down_2 += 1;
                    q.down_score_2 += weight;
                } else {
                    q.repeated_up_2 += 1;
                    q.up_opponent_score_2 += weight;
                }
            }
        };
        for (i, partner) in self.paired.iter().enumerate() {
            let Some(j) = *partner else { continue };
            if i > j {
                continue;
            }
            let (a, b) = (self.bracket[i], self.bracket[j]);
            let (sa, sb) = (f.players[a].score, f.players[b].score);
            q.score_differences.push(sa.abs_diff(sb));
            let (pa, pb) = (f.prefs[a], f.prefs[b]);
            if pa.colour.is_some() && pa.colour == pb.colour {
                q.colour_misses += 1;
                if pa.strength >= Strength::Strong && pb.strength >= Strength::Strong {
                    q.strong_colour_misses += 1;
                }
            }
            if sa != sb {
                let (low, high_score) = if sa > sb { (b, sa) } else { (a, sb) };
                count_float(&mut q, low, Float::Up, high_score);
            }
        }
        for &i in &self.down {
            let a = self.bracket[i];
            let s = f.players[a].score;
            q.score_differences.push(s + 2 - self.lowest.min(s));
            count_float(&mut q, a, Float::Down, s);
        }
        q.score_differences.sort_unstable_by(|a, b| b.cmp(a));
        q
    }
}

/// Gives a pair its colours by the handbook's rules E1-E5: (first seat,
/// second seat).
/// The single exchanges between the top half (`0..half`) and the bottom
/// half (`half..len`) of a bracket, in the handbook's order: the smallest
/// difference of bracket numbers first; of equal differences, the one that
/// moves the lowest player of the top half (C.04.1 D.2, whose worked
/// example the tests follow).
fn single_exchanges(half: usize, len: usize) -> Vec<(usize, usize)> {
    let mut exchanges: Vec<(usize, usize)> = (0..half)
        .flat_map(|a| (half..len).map(move |b| (a, b)))
        .collect();
    exchanges.sort_by_key(|&(a, b)| (b - a, std::cmp::Reverse(a)));
    exchanges
}

fn colours(field: &Field, a: usize, b: usize, initial: Seat) -> (usize, usize) {
    let (pa, pb) = (field.prefs[a], field.prefs[b]);
    let first_to =
        |x: usize, y: usize, seat: Seat| if seat == Seat::First { (x, y) } else { (y, x) };
    // Which of the two ranks higher: score, then pairing number.
    let higher_is_a = (
        std::cmp::Reverse(field.players[a].score),
        field.players[a].rank,
    ) < (
        std::cmp::Reverse(field.players[b].score),
        field.players[b].rank,
    );
    let (hi, lo) = if higher_is_a { (a, b) } else { (b, a) };
    let (ph, pl) = (field.prefs[hi], field.prefs[lo]);
    // E1: both preferences can be met.
    match (pa.colour, pb.colour) {
        (Some(ca), Some(cb)) if ca != cb => return first_to(a, b, ca),
        (Some(ca), None) => return first_to(a, b, ca),
        (None, Some(cb)) => return first_to(b, a, cb),
        _ => {}
    }
    if let (Some(ch), Some(_)) = (ph.colour, pl.colour) {
        // E2: the stronger preference; two absolutes, the wider difference.
        if ph.strength != pl.strength {
            return if ph.strength > pl.strength {
                first_to(hi, lo, ch)
            } else {
                first_to(lo, hi, pl.colour.expect("matched above"))
            };
        }
        if ph.strength == Strength::Absolute && ph.difference.abs() != pl.difference.abs() {
            return if ph.difference.abs() > pl.difference.abs() {
                first_to(hi, lo, ch)
            } else {
                first_to(lo, hi, ch)
            };
        }
        // E3: alternate from the last round they had different colours.
        let (ch_hist, cl_hist) = (&field.players[hi].colours, &field.players[lo].colours);
        for (x, y) in ch_hist.iter().rev().zip(cl_hist.iter().rev()) {
            if x != y {
                return first_to(hi, lo, x.other());
            }
        }
        // E4: the higher ranked player's preference.
        return first_to(hi, lo, ch);
    }
    // E5: no preferences: by the higher ranked player's pairing number.
    let seat = if field.players[hi].rank % 2 == 1 {
        initial
    } else {
        initial.other()
    };
    first_to(hi, lo, seat)
}

#[cfg(test)]
#[path = "swiss_tests.rs"]
mod tests;
