//! `tabula-ai-tools`: what measures, trains and tunes Tabula's AI, apart
//! from the engine library the server links (`tabula-ai`). The binaries:
//! `pbrain-tabula` (the Gomoku engine as a Gomocup engine), `gomoku-arena`
//! (matches against pbrain engines, the tactics suite, puzzle-making),
//! `gomoku-tune` (the evaluation fit), `bg-engine` (the Backgammon engine
//! for bgharness and gnubg), `bg-arena`, `bg-ladder` (the levels judged by
//! gnubg), `bg-train` (training the networks) and `analysis-bench`.
//!
//! The library holds what the binaries and the tests share:
//! [`sample_games`], whole recorded games between levels.

pub mod sample_games;
