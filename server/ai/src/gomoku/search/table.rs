//! The hash tables: the main search's transposition table (score, bound,
//! best move and depth per position) and the VCF and VCT failure tables,
//! each indexed by the top bits of a Zobrist key. Sizes are powers of two,
//! chosen by the budget and capped by [`super::Budget::memory`].

use super::{Searcher, WIN_THRESHOLD};

/// One entry of the main transposition table.
#[derive(Clone, Copy, Default)]
pub(super) struct TtEntry {
    /// The full key of the position (hash and side to move).
    pub key: u64,
    /// Its score, win distances counted from this node.
    pub score: i32,
    /// The best move found ([`NO_MOVE`] for none).
    pub best: u32,
    /// The depth searched.
    pub depth: i8,
    /// [`EXACT`], [`LOWER`] or [`UPPER`].
    pub flag: u8,
    /// The search (a count of [`Searcher::think`] calls, wrapping) that
    /// stored it.
    pub age: u8,
}

/// Transposition table size (log2) for small and large budgets.
pub(super) const TT_BITS_SMALL: u32 = 12;
/// See [`TT_BITS_SMALL`].
pub(super) const TT_BITS_LARGE: u32 = 19;
/// The VCF and VCT tables' size (log2) for small budgets.
pub(super) const VCF_TT_BITS: u32 = 15;
/// The VCF and VCT tables' size (log2) for the large budgets of a
/// threat-searching level: its searches visit millions of threat nodes a
/// move, far more than 2^15 entries hold.
pub(super) const VCF_TT_BITS_LARGE: u32 = 20;
/// Smallest table size (log2) under a memory limit.
const TT_BITS_MIN: u32 = 8;

/// The largest `bits <= want` (at least [`TT_BITS_MIN`]) with
/// `entry << bits <= bytes`.
pub(super) fn bits_within(want: u32, entry: usize, bytes: Option<usize>) -> u32 {
    let Some(bytes) = bytes else { return want };
    let mut bits = want;
    while bits > TT_BITS_MIN && (entry << bits) > bytes {
        bits -= 1;
    }
    bits
}

/// The stored score is exact.
pub(super) const EXACT: u8 = 1;
/// The stored score is a lower bound (a beta cut-off).
pub(super) const LOWER: u8 = 2;
/// The stored score is an upper bound (no move reached alpha).
pub(super) const UPPER: u8 = 3;
/// No move (in [`TtEntry::best`] and the killer slots).
pub(super) const NO_MOVE: u32 = u32::MAX;

impl Searcher {
    /// Sizes the hash tables to fit in `bytes` (None: the main table as
    /// it is, the threat-search tables at `2^vcf_bits` entries).
    pub fn limit_memory(&mut self, vcf_bits: u32, bytes: Option<usize>) {
        // A quarter for the two threat-search tables, the rest for the
        // main table.
        let vcf = bits_within(
            vcf_bits,
            2 * std::mem::size_of::<(u64, i8)>(),
            bytes.map(|b| b / 4),
        );
        if vcf != self.vcf_bits {
            self.vcf_bits = vcf;
            self.vcf_tt = vec![(0, 0); 1 << vcf];
            self.vct_tt = vec![(0, 0); 1 << vcf];
        }
        let main = bits_within(
            self.tt_bits,
            std::mem::size_of::<TtEntry>(),
            bytes.map(|b| b - b / 4),
        );
        if main != self.tt_bits {
            self.tt_bits = main;
            self.tt = vec![TtEntry::default(); 1 << main];
        }
    }

    /// Bytes held by the hash tables.
    pub fn table_bytes(&self) -> usize {
        self.tt.len() * std::mem::size_of::<TtEntry>()
            + (self.vcf_tt.len() + self.vct_tt.len()) * std::mem::size_of::<(u64, i8)>()
    }

    /// The first of the two slots of `key`'s bucket in the main table.
    fn tt_bucket(&self, key: u64) -> usize {
        (key >> (64 - self.tt_bits)) as usize & !1
    }

    /// The main table's entry for `key`, if it holds one.
    pub(super) fn tt_probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.tt_bucket(key);
        self.tt[b..b + 2]
            .iter()
            .find(|e| e.key == key && e.flag != 0)
            .copied()
    }

    /// Stores `entry` in its bucket: over the same position's entry if the
    /// bucket holds one, else in the first slot if the entry there is from
    /// an earlier search or searched no deeper, else in the second slot.
    /// The first slot keeps the deep results; the second, the recent ones.
    pub(super) fn tt_store(&mut self, entry: TtEntry) {
        let b = self.tt_bucket(entry.key);
        let slot = if self.tt[b].key == entry.key {
            b
        } else if self.tt[b + 1].key == entry.key {
            b + 1
        } else if self.tt[b].age != entry.age || self.tt[b].depth <= entry.depth {
            b
        } else {
            b + 1
        };
        self.tt[slot] = entry;
    }

    /// A score as stored: win distances counted from this node.
    pub(super) fn to_tt(score: i32, ply: i32) -> i32 {
        if score > WIN_THRESHOLD {
            score + ply
        } else if score < -WIN_THRESHOLD {
            score - ply
        } else {
            score
        }
    }

    /// A stored score as seen at `ply`.
    pub(super) fn from_tt(score: i32, ply: i32) -> i32 {
        if score > WIN_THRESHOLD {
            score - ply
        } else if score < -WIN_THRESHOLD {
            score + ply
        } else {
            score
        }
    }
}
