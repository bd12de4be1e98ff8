//! Display names: [`validate_name`] tidies a name and refuses the ones that
//! are empty, too long, or made with control or invisible characters.

/// Checks and tidies a display name: trimmed, each run of spaces inside it
/// made one space, then 1 to 24 characters, with no control characters and
/// no invisible ones (zero-width spaces, direction overrides and the like,
/// with which a name could pass for another).
///
/// # Errors
/// A readable reason when the name is not acceptable.
pub fn validate_name(name: &str) -> Result<String, String> {
    let tidy = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let count = tidy.chars().count();
    if count == 0 {
        return Err("the name is empty".into());
    }
    if count > 24 {
        return Err("the name is longer than 24 characters".into());
    }
    if tidy.chars().any(char::is_control) {
        return Err("the name contains control characters".into());
    }
    if tidy.chars().any(is_invisible) {
        return Err("the name contains invisible characters".into());
    }
    Ok(tidy)
}

/// Format characters that show nothing, or turn the text around them: a
/// name made with them can look exactly like another. The zero-width joiner
/// (U+200D) and the tag characters stay allowed: emoji sequences and flags
/// are made with them.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' // soft hyphen
            | '\u{034F}' // combining grapheme joiner
            | '\u{061C}' // Arabic letter mark
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
            | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
            | '\u{180B}'..='\u{180F}' // Mongolian selectors and vowel separator
            | '\u{200B}' | '\u{200C}' // zero-width space and non-joiner
            | '\u{200E}' | '\u{200F}' // direction marks
            | '\u{202A}'..='\u{202E}' // direction embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, isolates
            | '\u{FEFF}' // zero-width no-break space
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
            | '\u{1D173}'..='\u{1D17A}' // musical format characters
    )
}
