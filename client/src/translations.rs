//! Checks on the translations in `client/locales/app.yml` (the `t!` keys):
//! each key has English and Simplified Chinese, and the bundled CJK font
//! has a glyph for every character of the Chinese.

#[cfg(test)]
mod tests {
    use rust_i18n::t;

    /// The locale file as (key, language, text) triples.
    fn entries() -> Vec<(String, String, String)> {
        let text = include_str!("../locales/app.yml");
        let mut out = Vec::new();
        let mut key = String::new();
        for line in text.lines() {
            if line.starts_with('_') || line.trim().is_empty() {
                continue;
            }
            if let Some(k) = line.strip_suffix(':')
                && !line.starts_with(' ')
            {
                key = k.to_string();
            } else if let Some((lang, value)) = line.trim().split_once(": ") {
                let value = value.trim().trim_matches('"').to_string();
                out.push((key.clone(), lang.to_string(), value));
            }
        }
        out
    }

    #[test]
    fn every_key_has_english_and_chinese() {
        let entries = entries();
        let keys: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.0.as_str()).collect();
        assert!(keys.len() > 100, "{} keys", keys.len());
        for key in keys {
            for lang in ["en", "zh-CN"] {
                assert!(
                    entries
                        .iter()
                        .any(|e| e.0 == key && e.1 == lang && !e.2.is_empty()),
                    "{key} has no {lang}"
                );
            }
        }
        assert_eq!(t!("lobby.create", locale = "zh-CN"), "创建房间…");
        assert_eq!(t!("lobby.create", locale = "en"), "Create room…");
        assert_eq!(
            t!("status.connecting", locale = "zh-CN", address = "h:1"),
            "正在连接 h:1…"
        );
    }

    /// Every key the code names (in `t!` or in a table of keys) is in the
    /// locale file: a key missing there would show as the key itself. The
    /// sources are read from disk, so a new file is checked too.
    #[test]
    fn every_key_the_code_uses_is_translated() {
        let entries = entries();
        let keys: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.0.as_str()).collect();
        let sections: std::collections::BTreeSet<&str> =
            keys.iter().filter_map(|k| k.split('.').next()).collect();
        let mut files = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        let mut used = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).expect("read the sources") {
                    files.push(entry.expect("a directory entry").path());
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read a source");
            // Only the code: the tests below a file's `#[cfg(test)] mod`
            // name files and ids that look like keys.
            let code = text.split("#[cfg(test)]\nmod").next().unwrap_or(&text);
            for literal in code.split('"').skip(1).step_by(2) {
                let looks_like_key = literal.split_once('.').is_some_and(|(section, rest)| {
                    sections.contains(section)
                        && !rest.is_empty()
                        && literal.chars().all(|c| {
                            c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.'
                        })
                });
                if looks_like_key {
                    used.push((literal.to_string(), path.display().to_string()));
                }
            }
        }
        assert!(used.len() > 300, "{} keys found in the code", used.len());
        let missing: Vec<_> = used
            .iter()
            .filter(|(k, _)| !keys.contains(k.as_str()))
            .collect();
        assert!(missing.is_empty(), "keys not in app.yml: {missing:?}");
        // The server's typed errors: each code a sentence of its own in
        // Chinese, the server's words in English.
        assert_eq!(
            t!(
                "error.room_full",
                locale = "zh-CN",
                message = "the room is full"
            ),
            "房间已满"
        );
        assert_eq!(
            t!(
                "error.room_full",
                locale = "en",
                message = "the room is full"
            ),
            "the room is full"
        );
    }

    /// Issue 26 #3 for our own words: the Chinese interface needs every one
    /// of its characters in the bundled font.
    #[test]
    fn the_font_covers_the_chinese_translation() {
        let ctx = egui::Context::default();
        crate::fonts::install(&ctx);
        let chinese: String = entries()
            .into_iter()
            .filter(|e| e.1 == "zh-CN")
            .map(|e| e.2)
            .collect();
        let mut missing = String::new();
        let mut out = ctx.run_ui(Default::default(), |ui| {
            ui.ctx().fonts_mut(|f| {
                for c in chinese.chars() {
                    if !f.has_glyph(&egui::FontId::proportional(14.0), c) && !missing.contains(c) {
                        missing.push(c);
                    }
                }
            });
        });
        out.textures_delta.clear();
        assert!(missing.is_empty(), "no glyph for {missing:?}");
    }
}
