//! The imports: any text given as a `.mat`, gnubg SGF, Gomoku SGF, `.psq`
//! or Tabula JSON file is imported or refused with an error, never a panic;
//! what is imported replays under the rules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_shared::export::{ExportFormat, import};

const FORMATS: [ExportFormat; 5] = [
    ExportFormat::Mat,
    ExportFormat::GnubgSgf,
    ExportFormat::GomokuSgf,
    ExportFormat::Psq,
    ExportFormat::TabulaJson,
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let format = FORMATS[usize::from(which) % FORMATS.len()];
    if let Ok(imported) = import(text, format) {
        assert!(
            imported.record.replay().is_ok(),
            "an imported record does not replay"
        );
    }
});
