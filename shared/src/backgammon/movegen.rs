//! Move generation: every distinct legal play for a position and a roll.
//!
//! Mixed rolls try both die orders. Doubles are searched depth-first with
//! non-increasing start points, which reaches every distinct result without
//! enumerating permutations. Results are collected without per-move
//! allocation and deduplicated by sorting.

use super::position::{BAR, OPP_BAR};
use super::{BgError, Dice, Move, Play, Position};

/// Up to four single-die moves, without allocation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Seq {
    moves: [Move; 4],
    len: u8,
}

impl Seq {
    fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len as usize) {
            *slot = m;
            self.len += 1;
        }
    }

    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    fn to_play(self) -> Play {
        Play {
            moves: self.moves[..self.len as usize].to_vec(),
        }
    }
}

/// Receives generated results.
trait Sink {
    fn clear(&mut self);
    fn push(&mut self, pos: &Position, seq: &Seq);
    fn is_empty(&self) -> bool;
}

impl Sink for Vec<Position> {
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn push(&mut self, pos: &Position, _seq: &Seq) {
        Vec::push(self, *pos);
    }
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}

impl Sink for Vec<(Position, Seq)> {
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn push(&mut self, pos: &Position, seq: &Seq) {
        Vec::push(self, (*pos, *seq));
    }
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}

struct Gen<'a, S: Sink> {
    out: &'a mut S,
    best: u8,
    seq: Seq,
}

impl<S: Sink> Gen<'_, S> {
    #[inline]
    fn record(&mut self, pos: &Position, depth: u8) {
        if depth > self.best {
            self.best = depth;
            self.out.clear();
        }
        if depth == self.best {
            self.out.push(pos, &self.seq);
        }
    }

    fn doubles(&mut self, pos: &Position, die: usize, left: u8, max_from: usize, depth: u8) {
        let highest = pos.highest();
        let mut any = false;
        let top = max_from.min(highest);
        let bottom = if pos.pips[BAR] > 0 { BAR } else { 1 };
        let mut from = top;
        while from >= bottom {
            if pos.can_move(from, die, highest) {
                any = true;
                let mut next = *pos;
                let m = next.do_move(from, die);
                self.seq.push(m);
                if left > 1 {
                    self.doubles(&next, die, left - 1, from, depth + 1);
                } else {
                    self.record(&next, depth + 1);
                }
                self.seq.pop();
            }
            from -= 1;
        }
        if !any {
            self.record(pos, depth);
        }
    }

    fn mixed(&mut self, pos: &Position, high: usize, low: usize) {
        let mut high_single = false;
        for (d1, d2) in [(high, low), (low, high)] {
            let h1 = pos.highest();
            let bottom1 = if pos.pips[BAR] > 0 { BAR } else { 1 };
            for from1 in (bottom1..=h1).rev() {
                if !pos.can_move(from1, d1, h1) {
                    continue;
                }
                if d1 == high {
                    high_single = true;
                }
                let mut p1 = *pos;
                let m1 = p1.do_move(from1, d1);
                self.seq.push(m1);
                let h2 = p1.highest();
                let bottom2 = if p1.pips[BAR] > 0 { BAR } else { 1 };
                let mut second = false;
                for from2 in (bottom2..=h2).rev() {
                    if p1.can_move(from2, d2, h2) {
                        second = true;
                        let mut p2 = p1;
                        let m2 = p2.do_move(from2, d2);
                        self.seq.push(m2);
                        self.record(&p2, 2);
                        self.seq.pop();
                    }
                }
                if !second && (d1 == high || !high_single) {
                    self.record(&p1, 1);
                }
                self.seq.pop();
            }
        }
    }
}

impl Position {
    /// Highest index (0..=25) holding a mover's checker; 0 if none.
    #[inline]
    pub(crate) fn highest(&self) -> usize {
        let mut i = BAR;
        while i > 0 && self.pips[i] <= 0 {
            i -= 1;
        }
        i
    }

    /// Whether the mover may move one checker from `from` with `die`, given
    /// `highest` = [`Position::highest`].
    #[inline]
    fn can_move(&self, from: usize, die: usize, highest: usize) -> bool {
        if self.pips[from] <= 0 {
            return false;
        }
        if self.pips[BAR] > 0 && from != BAR {
            return false;
        }
        if from > die {
            self.pips[from - die] >= -1
        } else {
            // Bearing off: everything home, and either exact or from the
            // highest point.
            highest <= 6 && (from == die || from == highest)
        }
    }

    /// Moves one checker (assumed legal), returning the move made.
    #[inline]
    fn do_move(&mut self, from: usize, die: usize) -> Move {
        self.pips[from] -= 1;
        if from > die {
            let to = from - die;
            let hit = self.pips[to] == -1;
            if hit {
                self.pips[to] = 0;
                self.pips[OPP_BAR] -= 1;
            }
            self.pips[to] += 1;
            Move {
                from: from as u8,
                to: to as u8,
                hit,
            }
        } else {
            self.x_off += 1;
            Move {
                from: from as u8,
                to: 0,
                hit: false,
            }
        }
    }

    fn generate<S: Sink>(&self, dice: Dice, doubles_twice: bool, out: &mut S) {
        if !dice.is_valid() || self.x_off >= 15 || self.o_off >= 15 {
            return;
        }
        let mut g = Gen {
            out,
            best: 0,
            seq: Seq::default(),
        };
        if dice.is_double() {
            let n = if doubles_twice { 2 } else { 4 };
            g.doubles(self, dice.a as usize, n, BAR, 0);
        } else {
            g.mixed(self, dice.high() as usize, dice.low() as usize);
        }
        if g.out.is_empty() {
            g.record(self, 0);
        }
    }

    /// Appends the distinct positions reachable with `dice` to `out` (after
    /// clearing it), with the option "doubles play only twice". See
    /// [`Position::legal_positions`].
    pub fn legal_positions_into(&self, dice: Dice, doubles_twice: bool, out: &mut Vec<Position>) {
        out.clear();
        self.generate(dice, doubles_twice, out);
        out.sort_unstable();
        out.dedup();
    }

    /// The distinct positions after every legal play with `dice`, still from
    /// the mover's perspective (not switched). If no checker can move, the
    /// result is the unchanged position alone. Invalid dice or a finished game
    /// give an empty list.
    pub fn legal_positions(&self, dice: Dice) -> Vec<Position> {
        let mut v = Vec::with_capacity(32);
        self.legal_positions_into(dice, false, &mut v);
        v
    }

    /// One representative [`Play`] per distinct resulting position, with that
    /// position. If no checker can move, the result is one empty play.
    pub fn legal_plays(&self, dice: Dice) -> Vec<(Play, Position)> {
        self.legal_plays_with(dice, false)
    }

    /// [`Position::legal_plays`] with the option "doubles play only twice".
    pub fn legal_plays_with(&self, dice: Dice, doubles_twice: bool) -> Vec<(Play, Position)> {
        let mut v: Vec<(Position, Seq)> = Vec::with_capacity(32);
        self.generate(dice, doubles_twice, &mut v);
        v.sort_unstable_by_key(|a| a.0);
        v.dedup_by(|a, b| a.0 == b.0);
        v.into_iter().map(|(p, s)| (s.to_play(), p)).collect()
    }

    /// Applies the moves of `play` literally, one hop after another (a hop
    /// may span several dice, e.g. `24/13`; it touches only its end points).
    /// Checks the mechanics of each hop (a mover's checker on `from`, moving
    /// forward, `to` not blocked, bearing off only with all checkers home;
    /// bear-offs are applied after all other hops, and together) but
    /// neither the dice nor the order of hops (e.g. entering from the bar
    /// first): compare the result with [`Position::legal_positions`] for
    /// that, as [`BgMatch::play`](super::BgMatch::play) does.
    pub fn apply(&self, play: &Play) -> Result<Position, BgError> {
        let mut p = *self;
        // Hops onto the board first (in the given order), then bear-offs, so
        // that e.g. `9/6*/off 9/6` works whatever order it is written in.
        for m in play.moves.iter().filter(|m| m.to != 0) {
            p.hop(m)?;
        }
        // The bear-offs all at once: a hop off may come from outside home
        // through a point inside it (`8/off(2)` with 4-4 is 8/4 8/4 4/off
        // 4/off), so what must be home is every checker that stays.
        let mut off = 0;
        for m in play.moves.iter().filter(|m| m.to == 0) {
            if !p.may_leave(m) {
                return Err(BgError::IllegalPlay);
            }
            p.pips[usize::from(m.from)] -= 1;
            off += 1;
        }
        if off > 0 && !p.x_all_home() {
            return Err(BgError::IllegalPlay);
        }
        p.x_off += off;
        Ok(p)
    }

    /// `play` with each hop's `hit` as [`Position::apply`] finds it (a lone
    /// opposing checker on `to`), whatever the notation said. Recorded so,
    /// a play replays to the same position: `13/11 11/10` that hits on 11
    /// is written `13/11*/10`, where unmarked it would print as `13/10`.
    pub fn mark_hits(&self, play: &Play) -> Play {
        let mut p = *self;
        let mut moves = play.moves.clone();
        for m in moves.iter_mut().filter(|m| m.to != 0) {
            match p.hop(m) {
                Ok(hit) => m.hit = hit,
                // `apply` refuses the play; nothing to mark.
                Err(_) => return play.clone(),
            }
        }
        Play { moves }
    }

    /// Whether the mover's checker on `m.from` may move forward to `m.to`.
    fn may_leave(&self, m: &Move) -> bool {
        (1..=25).contains(&m.from) && m.to < m.from && self.pips[usize::from(m.from)] > 0
    }

    /// One hop onto the board (`m.to > 0`), hitting a lone opposing checker
    /// on `m.to`; returns whether it hit.
    fn hop(&mut self, m: &Move) -> Result<bool, BgError> {
        let to = usize::from(m.to);
        if !self.may_leave(m) || self.pips[to] < -1 {
            return Err(BgError::IllegalPlay);
        }
        self.pips[usize::from(m.from)] -= 1;
        let hit = self.pips[to] == -1;
        if hit {
            self.pips[to] = 0;
            self.pips[OPP_BAR] -= 1;
        }
        self.pips[to] += 1;
        Ok(hit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bg_pos;

    fn plays(p: &Position, a: u8, b: u8) -> Vec<String> {
        let mut v: Vec<String> = p
            .legal_plays(Dice { a, b })
            .into_iter()
            .map(|(pl, _)| pl.to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn opening_counts() {
        // Well-known counts of distinct plays from the start.
        let s = Position::START;
        assert_eq!(s.legal_positions(Dice { a: 3, b: 1 }).len(), 16);
        assert_eq!(s.legal_positions(Dice { a: 6, b: 6 }).len(), 11);
        assert_eq!(s.legal_positions(Dice { a: 1, b: 1 }).len(), 42);
        assert_eq!(s.legal_positions(Dice { a: 5, b: 5 }).len(), 4);
        assert_eq!(s.legal_positions(Dice { a: 6, b: 5 }).len(), 7);
    }

    #[test]
    fn a_hit_written_without_its_star_is_recorded_with_it() {
        // A lone opposing checker on our 11-point.
        let p = bg_pos!(x 13:5, 8:3, 6:5, 24:2; o 11:1, 12:4, 17:3, 19:5, 1:2);
        let unmarked: Play = "13/11 11/10".parse().expect("parses");
        // Written as it came, the play reads back as 13/10, which does not hit.
        let printed: Play = unmarked.to_string().parse().expect("parses");
        assert_eq!(unmarked.to_string(), "13/10");
        assert_ne!(p.apply(&printed), p.apply(&unmarked));
        // Marked, it reads back as the same play.
        let marked = p.mark_hits(&unmarked);
        assert_eq!(marked.to_string(), "13/11*/10");
        let again: Play = marked.to_string().parse().expect("parses");
        assert_eq!(p.apply(&again), p.apply(&unmarked));
        // A play the board refuses comes back as it was.
        let refused: Play = "13/7 13/7 13/7 13/7 13/7 13/7".parse().expect("parses");
        assert_eq!(p.mark_hits(&refused), refused);
    }

    #[test]
    fn two_checkers_borne_off_from_outside_home_with_a_double() {
        // Found by the brute-force property test: 4-4 plays 8/4 8/4 4/off
        // 4/off, written `8/off(2)`; the second checker on 8 is still
        // outside when the first one's hop off is applied.
        let p = bg_pos!(x 1:3, 2:4, 3:3, 4:3, 8:2; o 6:1, 22:3, 23:4, 24:7);
        let dice = Dice { a: 4, b: 4 };
        let (play, result) = p
            .legal_plays(dice)
            .into_iter()
            .find(|(play, _)| play.to_string() == "8/off(2)")
            .expect("8/off(2) is legal");
        let parsed: Play = "8/off(2)".parse().expect("parses");
        assert_eq!(p.apply(&parsed), Ok(result));
        assert_eq!(p.apply(&play), Ok(result));
        // Still refused: bearing off while a checker stays outside home.
        let p = bg_pos!(x 1:3, 2:4, 3:3, 4:3, 8:1, 9:1; o 6:1, 22:3, 23:4, 24:7);
        assert_eq!(
            p.apply(&"8/off".parse().expect("parses")),
            Err(BgError::IllegalPlay)
        );
    }

    #[test]
    fn bar_entry_first() {
        // One checker on the bar; 6-point of the opponent's home (our 19)
        // blocked. 6-1: must enter with the 1 (on 24), then play the 6.
        let p = bg_pos!(x 25:1, 13:14; o 19:2, 1:13);
        for (play, _) in p.legal_plays(Dice { a: 6, b: 1 }) {
            assert_eq!(play.moves[0].from, 25);
            assert_eq!(play.moves.len(), 2);
        }
        // Both entry points blocked: no move at all.
        let p = bg_pos!(x 25:1, 13:14; o 19:2, 24:2, 1:11);
        let r = p.legal_plays(Dice { a: 6, b: 1 });
        assert_eq!(r.len(), 1);
        assert!(r[0].0.moves.is_empty());
        assert_eq!(r[0].1, p);
    }

    #[test]
    fn two_on_bar_one_enters() {
        let p = bg_pos!(x 25:2, 13:13; o 19:2, 1:13);
        assert_eq!(plays(&p, 6, 3), vec!["bar/22".to_string()]);
    }

    #[test]
    fn blocked_points() {
        let p = bg_pos!(x 10:1; o 4:2, 8:2, 20:11);
        // 6-2 from 10: 10/4 blocked, 10/8 blocked, no move.
        assert_eq!(plays(&p, 6, 2), vec![String::new()]);
        // 6-3: 10/7 then 7/1.
        assert_eq!(plays(&p, 6, 3), vec!["10/1".to_string()]);
    }

    #[test]
    fn forced_larger_die() {
        // 5-1 with one checker on 8 and o holding 2: 8/3 then 3/2 is blocked
        // (and 3/off needs exactly 3 or a higher die); 8/7 then 7/2 is
        // blocked. Only one die can be played, so it must be the 5.
        let p = bg_pos!(x 8:1; o 2:2, 20:13);
        assert_eq!(plays(&p, 5, 1), vec!["8/3".to_string()]);
        // 6-5 with everything blocked: no move.
        let p = bg_pos!(x 9:1; o 3:2, 4:2, 20:11);
        assert_eq!(plays(&p, 6, 5), vec![String::new()]);
        // 6-5: 9/3 then 3/off with the 5 (3 is the highest point).
        let p = bg_pos!(x 9:1; o 1:2, 2:2, 20:11);
        assert_eq!(plays(&p, 6, 5), vec!["9/off".to_string()]);
    }

    #[test]
    fn bear_off_with_higher_die() {
        let p = bg_pos!(x 3:1, 2:1; o 24:15);
        // 6-5: both checkers off (3 is highest, then 2).
        assert_eq!(plays(&p, 6, 5), vec!["3/off 2/off".to_string()]);
        // 6-1 with checkers on 5 and 1: 5/off (6), 1/off (1) or 5/4 then 4/off.
        let p = bg_pos!(x 5:1, 1:1; o 24:15);
        let r = plays(&p, 6, 1);
        assert!(r.contains(&"5/off 1/off".to_string()));
        // Not all home: no bearing off.
        let p = bg_pos!(x 8:1, 2:1; o 24:15);
        assert!(!plays(&p, 6, 2).iter().any(|s| s.contains("2/off")));
    }

    #[test]
    fn doubles_twice() {
        let p = Position::START;
        let four = p.legal_plays_with(Dice { a: 6, b: 6 }, false);
        let two = p.legal_plays_with(Dice { a: 6, b: 6 }, true);
        assert!(four.iter().all(|(pl, _)| pl.moves.len() == 4));
        assert!(two.iter().all(|(pl, _)| pl.moves.len() == 2));
        assert_eq!(two.len(), 6);
    }

    #[test]
    fn invalid_dice_give_nothing() {
        assert!(
            Position::START
                .legal_positions(Dice { a: 0, b: 3 })
                .is_empty()
        );
        assert!(
            Position::START
                .legal_positions(Dice { a: 7, b: 7 })
                .is_empty()
        );
    }
}
