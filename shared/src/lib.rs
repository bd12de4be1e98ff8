//! `tabula-shared`: the game rules and the wire protocol that the Tabula server
//! and client both speak.
//!
//! The crate is pure: it does no I/O, reads no clock and rolls no dice. Dice and
//! moves always come in from outside, so every game can be replayed from its
//! record.

pub mod backgammon;
pub mod export;
pub mod fair_dice;
pub mod game;
pub mod gomoku;
pub mod names;
pub mod protocol;
pub mod seat;
pub mod study;
pub mod tournament;
