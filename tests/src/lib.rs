//! End-to-end test helpers for Tabula.
