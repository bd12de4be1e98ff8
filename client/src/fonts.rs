//! The fonts the client adds to egui's defaults: a CJK fallback, so that
//! Chinese (the Chinese translation, and names and chat in Chinese or
//! Japanese) renders instead of boxes.
//!
//! The font is a subset of Noto Sans CJK SC Regular (SIL Open Font License
//! 1.1, see `client/assets/fonts/OFL.txt`), built by
//! `client/assets/fonts/make_subset.py`. It covers ASCII, every character of
//! the translations, the 3,755 common hanzi of GB2312 level 1, GB2312's
//! symbols, Greek and Cyrillic, CJK punctuation, full-width forms and
//! Japanese kana. Rarer hanzi, and Hangul, are not in it (the whole font is
//! 16 MB); egui's own fonts cover Latin, Greek, Cyrillic and emoji.
//! It is compiled into the binary, so the browser build has it too.

use egui::{FontData, FontFamily, FontInsert, FontPriority, InsertFontFamily};

/// The name under which the CJK font is registered.
const CJK_FONT: &str = "noto-sans-sc-subset";

/// The subset font's bytes.
static CJK_BYTES: &[u8] = include_bytes!("../assets/fonts/NotoSansSC-subset.otf");

/// Adds the CJK font after egui's fonts in both families (idempotent: egui
/// skips a font it already has).
pub fn install(ctx: &egui::Context) {
    let families = [FontFamily::Proportional, FontFamily::Monospace]
        .into_iter()
        .map(|family| InsertFontFamily {
            family,
            priority: FontPriority::Lowest,
        })
        .collect();
    ctx.add_font(FontInsert::new(
        CJK_FONT,
        FontData::from_static(CJK_BYTES),
        families,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::FontId;

    /// Issue 26 #3: names (小明) and chat (你好) were drawn as boxes.
    #[test]
    fn chinese_names_and_chat_have_glyphs() {
        let ctx = egui::Context::default();
        let text = "小明 你好 棋 五子棋 双陆棋 「」，。ひらがな";
        let has = |ctx: &egui::Context| {
            let mut ok = false;
            let mut out = ctx.run_ui(Default::default(), |ui| {
                ok = ui.ctx().fonts_mut(|f| {
                    f.has_glyphs(&FontId::proportional(14.0), text)
                        && f.has_glyphs(&FontId::monospace(14.0), "小明")
                });
            });
            out.textures_delta.clear();
            ok
        };
        assert!(!has(&ctx), "egui's default fonts have no hanzi");
        install(&ctx);
        assert!(has(&ctx));
    }
}
