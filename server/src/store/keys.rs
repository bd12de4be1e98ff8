//! The keys names are compared by: [`name_key`], under which a registered
//! name is reserved, and [`look_key`], which matches names that could pass
//! for each other.

/// The case-insensitive key under which a name is reserved.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The key of what a name looks like: names with the same look key could
/// pass for each other ("Ada" with a Cyrillic "А", "ℬob" and "Bob", "paypaI"
/// and "paypal"). The skeleton of Unicode's confusable detection (UTS #39),
/// taken before and after lower-casing, so that case does not tell names
/// apart either.
pub fn look_key(name: &str) -> String {
    use unicode_security::confusable_detection::skeleton;
    let skeleton_of = |s: &str| skeleton(s).collect::<String>();
    skeleton_of(&skeleton_of(name.trim()).to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_keys_match_names_that_could_pass_for_each_other() {
        let same = [
            ("Ada", "\u{410}da"),       // Cyrillic A
            ("Ada", "ADA"),             // case
            ("Bob", "\u{212C}ob"),      // script B
            ("Bob", "B0b"),             // zero for o
            ("Eve", "\u{395}\u{3BD}e"), // Greek Epsilon and nu
            ("Iris", "lris"),           // capital i, small L
        ];
        for (a, b) in same {
            assert_eq!(look_key(a), look_key(b), "{a:?} and {b:?}");
        }
        for (a, b) in [("Ada", "Adam"), ("Bob", "Rob"), ("iris", "lris")] {
            assert_ne!(look_key(a), look_key(b), "{a:?} and {b:?}");
        }
    }
}
