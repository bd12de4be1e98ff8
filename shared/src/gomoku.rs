//! Gomoku rules.
