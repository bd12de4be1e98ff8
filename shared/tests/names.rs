//! Display names: tidied, and refused when they could pass for another.

use tabula_shared::names::validate_name;

#[test]
fn names_are_trimmed_and_inner_spaces_made_one() {
    assert_eq!(validate_name("  Ada  ").as_deref(), Ok("Ada"));
    assert_eq!(
        validate_name("Ada   Lovelace").as_deref(),
        Ok("Ada Lovelace")
    );
    assert_eq!(
        validate_name("Ada\u{3000}Lovelace").as_deref(),
        Ok("Ada Lovelace")
    );
    assert_eq!(validate_name(&"x".repeat(24)).map(|n| n.len()), Ok(24));
}

#[test]
fn empty_long_control_and_invisible_names_are_refused() {
    for bad in [
        "",
        "   ",
        "bell\u{7}",
        "Ada\u{200B}",         // zero-width space
        "A\u{200C}da",         // zero-width non-joiner
        "\u{202E}adA",         // right-to-left override
        "Ad\u{2066}a\u{2069}", // isolates
        "\u{FEFF}Ada",         // byte order mark
        "Ad\u{00AD}a",         // soft hyphen
        "\u{3164}",            // Hangul filler, alone
    ] {
        assert!(validate_name(bad).is_err(), "{bad:?} was accepted");
    }
    assert!(validate_name(&"x".repeat(25)).is_err());
}

#[test]
fn emoji_sequences_and_other_scripts_are_names() {
    for good in [
        "Zoë",
        "Алиса",
        "李雷",
        "👩\u{200D}💻 dev",
        "Ana 🏳\u{FE0F}\u{200D}🌈",
    ] {
        assert_eq!(validate_name(good).as_deref(), Ok(good), "{good:?}");
    }
}
