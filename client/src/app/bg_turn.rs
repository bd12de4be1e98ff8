//! The local side of a Backgammon turn: [`BgTurn`], the play the player
//! builds hop by hop, and [`Anim`], an opponent's play shown hop by hop.

use web_time::Instant;

use tabula_shared::backgammon::{Move, Play, Position, Side};

use crate::bg_moves::TurnBuilder;
use crate::bg_view::{BoardInput, Loc};

/// The play the local player is building.
pub(super) struct BgTurn {
    /// The record length it was built for.
    pub(super) key: usize,
    /// The hops so far.
    pub(super) builder: TurnBuilder,
    /// The selected checker (mover's number).
    pub(super) selected: Option<u8>,
    /// Sent and waiting for the server.
    pub(super) sent: bool,
}

impl BgTurn {
    /// A turn with no hop yet.
    pub(super) fn new(key: usize, builder: TurnBuilder) -> BgTurn {
        BgTurn {
            key,
            builder,
            selected: None,
            sent: false,
        }
    }

    /// Builds `play` hop by hop, if nothing is built yet; returns whether
    /// the whole play was made (else it is taken back, and the builder is
    /// as it was).
    pub(super) fn make(&mut self, play: &Play) -> bool {
        if self.sent || !self.builder.hops().is_empty() {
            return false;
        }
        for m in &play.moves {
            if !self.builder.hop(m.from, m.to) {
                while self.builder.undo() {}
                return false;
            }
        }
        self.builder.is_complete()
    }

    /// Takes back the last hop, unless the play is already sent.
    pub(super) fn undo(&mut self) {
        if !self.sent {
            self.builder.undo();
            self.selected = None;
        }
    }

    /// Marks the play sent and returns it, if it is complete and not sent yet.
    pub(super) fn send(&mut self) -> Option<Play> {
        if self.sent || !self.builder.is_complete() {
            return None;
        }
        self.sent = true;
        Some(self.builder.play())
    }

    /// Applies a click or drag on the board: select a checker, or move the
    /// selected one. With `die_clicks` (gnubg's way), a click on a checker
    /// moves it at once by the larger die; a right click always moves it by
    /// the smaller die (each by the other die when that one cannot move it).
    pub(super) fn input(&mut self, input: BoardInput, die_clicks: bool) {
        if self.sent {
            return;
        }
        match input {
            BoardInput::Click(loc) if die_clicks && self.selected.is_none() => {
                self.move_by_die(loc, true);
            }
            BoardInput::SecondaryClick(loc) => {
                self.move_by_die(loc, false);
            }
            BoardInput::Click(loc) => {
                let n = loc.number();
                if let Some(from) = self.selected
                    && self.builder.reach(from).contains(&n)
                {
                    self.builder.travel(from, n);
                    self.selected = None;
                } else if self.builder.movable().contains(&n) && loc != Loc::Off {
                    self.selected = if self.selected == Some(n) {
                        None
                    } else {
                        Some(n)
                    };
                } else {
                    self.selected = None;
                }
            }
            BoardInput::DragStart(loc) => {
                let n = loc.number();
                if self.builder.movable().contains(&n) && loc != Loc::Off {
                    self.selected = Some(n);
                }
            }
            BoardInput::DragEnd(loc) => {
                if let Some(from) = self.selected.take()
                    && from != loc.number()
                {
                    self.builder.travel(from, loc.number());
                }
            }
        }
    }

    /// Moves the checker on `loc` by one die: the larger first when
    /// `larger`, else the smaller first; the other die when the first
    /// cannot move it (blocked, or not a legal full play). Returns whether
    /// a checker moved.
    fn move_by_die(&mut self, loc: Loc, larger: bool) -> bool {
        self.selected = None;
        let from = loc.number();
        let mut dice = self.builder.dice_left();
        dice.sort_unstable();
        dice.dedup();
        if larger {
            dice.reverse();
        }
        dice.into_iter().any(|die| self.builder.hop_die(from, die))
    }
}

/// An opponent's play being shown hop by hop.
#[derive(Debug, Clone)]
pub(super) struct Anim {
    /// Who moved.
    pub(super) side: Side,
    /// The position before each hop and after the last, from `side`'s view.
    pub(super) steps: Vec<Position>,
    /// The hops.
    pub(super) hops: Vec<Move>,
    /// The dice the play used.
    pub(super) dice: Option<[u8; 2]>,
    /// When the first hop started (set when first drawn).
    pub(super) start: Option<Instant>,
}

impl Anim {
    /// The animation of `play` by `side` from `start`, or `None` if a hop
    /// does not apply.
    pub(super) fn new(
        side: Side,
        start: Position,
        play: Play,
        dice: Option<[u8; 2]>,
    ) -> Option<Anim> {
        let mut steps = vec![start];
        let mut pos = start;
        for m in &play.moves {
            pos = pos.apply(&Play { moves: vec![*m] }).ok()?;
            steps.push(pos);
        }
        Some(Anim {
            side,
            steps,
            hops: play.moves,
            dice,
            start: None,
        })
    }
}
