//! Backgammon rules.
