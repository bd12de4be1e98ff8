//! The server's modules import one another without a circle: each
//! top-level module (a file or folder under `src/`) names the modules it
//! uses through `crate::...` paths, and following those never leads back.
//! (A circle is where a change to one module forces changes in the other,
//! and where neither can be tested without the other.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module each source file belongs to, and the modules its
/// `crate::` paths name (its own tests left out).
fn imports(dir: &Path, top: Option<&str>, graph: &mut BTreeMap<String, BTreeSet<String>>) {
    for entry in std::fs::read_dir(dir).expect("src dir") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a file name")
            .to_string();
        if path.is_dir() {
            if name == "tests" {
                continue;
            }
            imports(&path, Some(top.unwrap_or(&name)), graph);
            continue;
        }
        if path.extension().and_then(|e| e.to_str()) != Some("rs") || name == "tests" {
            continue;
        }
        let module = top.unwrap_or(&name).to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source");
        let text = match text.find("#[cfg(test)]\nmod tests {") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        let uses = graph.entry(module.clone()).or_default();
        for (at, _) in text.match_indices("crate::") {
            let rest = &text[at + "crate::".len()..];
            let used: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if !used.is_empty() && used != module {
                uses.insert(used);
            }
        }
    }
}

/// A circle through `from`, if there is one: the modules along it.
fn circle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    from: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(at) = path.iter().position(|m| m == from) {
        let mut found = path[at..].to_vec();
        found.push(from.to_string());
        return Some(found);
    }
    if done.contains(from) {
        return None;
    }
    path.push(from.to_string());
    for next in graph.get(from).into_iter().flatten() {
        if let Some(found) = circle(graph, next, path, done) {
            return Some(found);
        }
    }
    path.pop();
    done.insert(from.to_string());
    None
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph = BTreeMap::new();
    imports(&src, None, &mut graph);
    assert!(graph.contains_key("room") && graph.contains_key("registry"));
    assert!(graph["room"].contains("store"), "the scan reads imports");
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        let found = circle(&graph, module, &mut Vec::new(), &mut done);
        assert!(
            found.is_none(),
            "an import circle: {}",
            found.unwrap_or_default().join(" -> ")
        );
    }
}
