//! Building a Backgammon play one hop at a time.
//!
//! The rules give the legal *full* plays (as resulting positions). A
//! [`TurnBuilder`] offers a single-die hop only when some continuation with
//! the remaining dice ends in one of those positions, so the player can never
//! build a partial move that cannot be finished. Hops can be undone until the
//! play is sent. Everything is in the mover's numbering: 25 is the bar, 0 is
//! off.

use std::collections::HashSet;

use tabula_shared::backgammon::{Dice, Move, Play, Position};

/// One hop the mover may make now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HopOption {
    /// Start point (25 = bar).
    pub from: u8,
    /// End point (0 = off).
    pub to: u8,
    /// The die it uses.
    pub die: u8,
}

/// A play under construction.
#[derive(Debug, Clone)]
pub struct TurnBuilder {
    start: Position,
    finals: HashSet<Position>,
    dice: Vec<u8>,
    hops: Vec<(Move, u8, Position)>,
    options: Vec<HopOption>,
}

impl TurnBuilder {
    /// A builder for the mover of `start` (seen from the mover) with `dice`.
    pub fn new(start: Position, dice: Dice, doubles_twice: bool) -> TurnBuilder {
        let mut finals = Vec::new();
        start.legal_positions_into(dice, doubles_twice, &mut finals);
        let dice = if dice.is_double() {
            vec![dice.a; if doubles_twice { 2 } else { 4 }]
        } else {
            vec![dice.a, dice.b]
        };
        let mut builder = TurnBuilder {
            start,
            finals: finals.into_iter().collect(),
            dice,
            hops: Vec::new(),
            options: Vec::new(),
        };
        builder.refresh();
        builder
    }

    /// The position after the hops so far.
    pub fn position(&self) -> Position {
        self.hops.last().map_or(self.start, |h| h.2)
    }

    /// The dice not used yet.
    pub fn dice_left(&self) -> Vec<u8> {
        let mut left = self.dice.clone();
        for (_, die, _) in &self.hops {
            if let Some(i) = left.iter().position(|d| d == die) {
                left.remove(i);
            }
        }
        left
    }

    /// The hops made so far.
    pub fn hops(&self) -> Vec<Move> {
        self.hops.iter().map(|h| h.0).collect()
    }

    /// Every hop that can be made now (each leads to a legal full play).
    pub fn options(&self) -> &[HopOption] {
        &self.options
    }

    /// The points (mover's numbering) that have a checker able to move now.
    pub fn movable(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self.options.iter().map(|o| o.from).collect();
        v.dedup();
        v
    }

    /// Where the checker on `from` may go now.
    pub fn destinations(&self, from: u8) -> Vec<u8> {
        let mut v: Vec<u8> = self
            .options
            .iter()
            .filter(|o| o.from == from)
            .map(|o| o.to)
            .collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        v.dedup();
        v
    }

    /// Where the checker on `from` may go now with one die or several in a
    /// row (13/8 with 5-3 or 3-5 is one target), highest first.
    pub fn reach(&self, from: u8) -> Vec<u8> {
        let mut v = Vec::new();
        self.collect_reach(from, &mut v);
        v.sort_unstable_by(|a, b| b.cmp(a));
        v.dedup();
        v
    }

    fn collect_reach(&self, from: u8, out: &mut Vec<u8>) {
        for to in self.destinations(from) {
            if out.contains(&to) {
                continue;
            }
            out.push(to);
            if to != 0 {
                let mut next = self.clone();
                if next.hop(from, to) {
                    next.collect_reach(to, out);
                }
            }
        }
    }

    /// Moves the checker on `from` to `to` with as many hops as it takes
    /// (the higher die first when there is a choice); returns whether it
    /// could. Nothing changes when it cannot.
    pub fn travel(&mut self, from: u8, to: u8) -> bool {
        if self.hop(from, to) {
            return true;
        }
        for step in self.destinations(from) {
            if step == 0 || step == to {
                continue;
            }
            let mut next = self.clone();
            if next.hop(from, step) && next.travel(step, to) {
                *self = next;
                return true;
            }
        }
        false
    }

    /// Makes the hop `from` -> `to` if it is offered; returns whether it was.
    pub fn hop(&mut self, from: u8, to: u8) -> bool {
        let Some(option) = self
            .options
            .iter()
            .filter(|o| o.from == from && o.to == to)
            .min_by_key(|o| o.die)
            .copied()
        else {
            return false;
        };
        let pos = self.position();
        let Some((mv, next)) = single_hop(&pos, from, option.die) else {
            return false;
        };
        self.hops.push((mv, option.die, next));
        self.refresh();
        true
    }

    /// Moves the checker on `from` by `die` if that hop is offered (gnubg's
    /// click: the die is chosen, not the target); returns whether it was.
    pub fn hop_die(&mut self, from: u8, die: u8) -> bool {
        if !self.options.iter().any(|o| o.from == from && o.die == die) {
            return false;
        }
        let pos = self.position();
        let Some((mv, next)) = single_hop(&pos, from, die) else {
            return false;
        };
        self.hops.push((mv, die, next));
        self.refresh();
        true
    }

    /// Takes back the last hop; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        let undone = self.hops.pop().is_some();
        self.refresh();
        undone
    }

    /// Whether the hops so far make a legal full play.
    pub fn is_complete(&self) -> bool {
        self.finals.contains(&self.position())
    }

    /// The play built so far.
    pub fn play(&self) -> Play {
        Play { moves: self.hops() }
    }

    fn refresh(&mut self) {
        let pos = self.position();
        let left = self.dice_left();
        let mut options = Vec::new();
        for from in (1..=25u8).rev() {
            let mut seen = Vec::new();
            for &die in &left {
                if seen.contains(&die) {
                    continue;
                }
                seen.push(die);
                let Some((mv, next)) = single_hop(&pos, from, die) else {
                    continue;
                };
                let mut rest = left.clone();
                if let Some(i) = rest.iter().position(|d| *d == die) {
                    rest.remove(i);
                }
                if can_finish(&next, &rest, &self.finals) {
                    options.push(HopOption {
                        from,
                        to: mv.to,
                        die,
                    });
                }
            }
        }
        self.options = options;
    }
}

/// Whether some sequence of hops with (a subset of) `dice` from `pos`
/// reaches one of `finals`.
fn can_finish(pos: &Position, dice: &[u8], finals: &HashSet<Position>) -> bool {
    if finals.contains(pos) {
        return true;
    }
    let mut tried = Vec::new();
    for (i, &die) in dice.iter().enumerate() {
        if tried.contains(&die) {
            continue;
        }
        tried.push(die);
        let mut rest = dice.to_vec();
        rest.remove(i);
        for from in 1..=25u8 {
            if let Some((_, next)) = single_hop(pos, from, die)
                && can_finish(&next, &rest, finals)
            {
                return true;
            }
        }
    }
    false
}

/// One checker from `from` with one die, if the mechanics allow it: the
/// checker is there, the bar is entered first, the target is not blocked,
/// and bearing off only with every checker home (with a larger die only
/// from the highest point).
pub fn single_hop(pos: &Position, from: u8, die: u8) -> Option<(Move, Position)> {
    let pips = pos.pips();
    if !(1..=25).contains(&from) || pips[from as usize] <= 0 || !(1..=6).contains(&die) {
        return None;
    }
    if pos.x_bar() > 0 && from != 25 {
        return None;
    }
    let target = i16::from(from) - i16::from(die);
    let (to, hit) = if target >= 1 {
        let to = target as u8;
        let there = pips[to as usize];
        if there < -1 {
            return None;
        }
        (to, there == -1)
    } else {
        if !pos.x_all_home() {
            return None;
        }
        if target < 0 && (from as usize + 1..=24).any(|p| pips[p] > 0) {
            return None;
        }
        (0, false)
    };
    let mv = Move { from, to, hit };
    let next = pos.apply(&Play { moves: vec![mv] }).ok()?;
    Some((mv, next))
}

#[cfg(test)]
mod tests {
    /// Issue 26 #13: a move like 13/8 (one checker, both dice) could only
    /// be played die by die; here 24/16 with 5-3.
    #[test]
    fn a_combined_move_is_one_target() {
        use tabula_shared::backgammon::{Dice, Position};
        let dice = Dice { a: 5, b: 3 };
        let mut b = super::TurnBuilder::new(Position::START, dice, false);
        assert!(b.reach(24).contains(&16), "{:?}", b.reach(24));
        assert!(!b.destinations(24).contains(&16));
        assert!(b.travel(24, 16));
        assert_eq!(b.hops().len(), 2);
        assert!(b.is_complete());
        assert_eq!(b.play().to_string(), "24/16");
        let mut c = super::TurnBuilder::new(Position::START, dice, false);
        assert!(!c.travel(6, 24), "no such move");
        assert!(c.hops().is_empty());
    }

    use super::*;

    fn builder(dice: (u8, u8)) -> TurnBuilder {
        let dice = Dice::new(dice.0, dice.1).expect("dice");
        TurnBuilder::new(Position::START, dice, false)
    }

    #[test]
    fn opening_31_offers_only_hops_of_legal_plays() {
        let b = builder((3, 1));
        // From the 6-point a 1 or a 3 both fit a legal play.
        assert_eq!(b.destinations(6), vec![5, 3]);
        // 24/21 and 24/23 are legal.
        assert_eq!(b.destinations(24), vec![23, 21]);
        // Points without the mover's checkers offer nothing.
        assert!(b.destinations(7).is_empty());
        assert!(b.destinations(25).is_empty());
    }

    #[test]
    fn hop_undo_and_complete() {
        let mut b = builder((3, 1));
        assert!(!b.is_complete());
        assert!(b.hop(8, 5));
        assert_eq!(b.dice_left(), vec![1]);
        assert!(!b.is_complete());
        assert!(b.hop(6, 5));
        assert!(b.is_complete());
        assert_eq!(b.play().to_string(), "8/5 6/5");
        assert!(b.undo());
        assert!(!b.is_complete());
        assert_eq!(b.dice_left(), vec![1]);
        assert!(!b.hop(6, 3), "the 3 is used already");
    }

    #[test]
    fn doubles_give_four_hops() {
        let mut b = builder((6, 6));
        // 24/18 is blocked? No: Black's 7-point is 18 from the mover's side... check via options.
        let movable = b.movable();
        assert!(!movable.is_empty());
        let mut hops = 0;
        while !b.is_complete() {
            let o = b.options()[0];
            assert!(b.hop(o.from, o.to));
            hops += 1;
            assert!(hops <= 4);
        }
        assert!(hops >= 1);
        let play = b.play();
        let legal = Position::START.legal_positions(Dice::new(6, 6).expect("dice"));
        assert!(legal.contains(&Position::START.apply(&play).expect("applies")));
    }

    #[test]
    fn bar_must_be_entered_first() {
        // Mover has one checker on the bar, the rest on the 6-point; opponent
        // holds its 1..=5 (our 20..=24 are free except 24).
        let pos = Position::from_points(&[(25, 1), (6, 14)], &[(1, 15)]).expect("position");
        let b = TurnBuilder::new(pos, Dice::new(4, 2).expect("dice"), false);
        assert_eq!(b.movable(), vec![25]);
        assert_eq!(b.destinations(25), vec![23, 21]);
    }

    #[test]
    fn bear_off_with_larger_die_only_from_highest_point() {
        let pos = Position::from_points(&[(5, 1), (3, 14)], &[(24, 15)]).expect("position");
        let b = TurnBuilder::new(pos, Dice::new(6, 1).expect("dice"), false);
        assert!(b.destinations(5).contains(&0));
        assert!(!b.destinations(3).contains(&0));
    }
}
