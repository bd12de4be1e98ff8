//! Tournament pairing and scoring, pure: Swiss by the FIDE Dutch system,
//! round robins by the Berger tables, knockout brackets, lichess-style
//! arenas, and standings with their tie-breaks.

pub mod arena;
pub mod knockout;
pub mod matching;
pub mod round_robin;
pub mod standings;
pub mod swiss;
