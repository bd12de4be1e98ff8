//! A small SGF reader (main line only) and the text escaping both SGF
//! writers share.

use super::ImportError;

/// Escapes an SGF text value: `\` and `]` get a backslash.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One property: its identifier and its values (unescaped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Property {
    pub ident: String,
    pub values: Vec<String>,
    /// 1-based line where the property starts.
    pub line: usize,
}

/// One node: its properties in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Node {
    pub props: Vec<Property>,
    /// 1-based line of the `;`.
    pub line: usize,
}

impl Node {
    /// The first value of the first property named `ident`.
    pub fn get(&self, ident: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|p| p.ident == ident)
            .and_then(|p| p.values.first())
            .map(String::as_str)
    }
}

/// Deepest nesting of game trees accepted.
const MAX_DEPTH: usize = 64;
/// Largest number of nodes accepted.
const MAX_NODES: usize = 100_000;

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl Reader<'_> {
    fn err(&self, message: impl Into<String>) -> ImportError {
        ImportError::Syntax {
            line: self.line,
            message: message.into(),
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while self.chars.peek().is_some_and(|c| c.is_whitespace()) {
            self.bump();
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn value(&mut self) -> Result<String, ImportError> {
        // The caller saw '['.
        self.bump();
        let mut out = String::new();
        loop {
            match self.bump() {
                None => return Err(self.err("unterminated property value")),
                Some(']') => return Ok(out),
                Some('\\') => match self.bump() {
                    None => return Err(self.err("unterminated property value")),
                    // A soft line break.
                    Some('\n') => {}
                    Some(c) => out.push(c),
                },
                Some(c) => out.push(c),
            }
        }
    }

    fn node(&mut self) -> Result<Node, ImportError> {
        // The caller saw ';'.
        let line = self.line;
        self.bump();
        let mut node = Node {
            props: Vec::new(),
            line,
        };
        loop {
            self.skip_ws();
            match self.peek() {
                Some(c) if c.is_ascii_uppercase() => {
                    let line = self.line;
                    let mut ident = String::new();
                    while let Some(c) = self.peek() {
                        if c.is_ascii_uppercase() {
                            ident.push(c);
                        } else if !c.is_ascii_lowercase() {
                            // FF[3] allowed lowercase letters in identifiers;
                            // they are skipped.
                            break;
                        }
                        self.bump();
                        if ident.len() > 16 {
                            return Err(self.err("property identifier too long"));
                        }
                    }
                    self.skip_ws();
                    if self.peek() != Some('[') {
                        return Err(self.err(format!("property {ident} has no value")));
                    }
                    let mut values = Vec::new();
                    while self.peek() == Some('[') {
                        values.push(self.value()?);
                        self.skip_ws();
                    }
                    node.props.push(Property {
                        ident,
                        values,
                        line,
                    });
                }
                _ => return Ok(node),
            }
        }
    }

    /// Reads one game tree (after its '('), appending its main line to
    /// `out`. Variations after the first are read and dropped.
    fn tree(&mut self, depth: usize, out: &mut Vec<Node>, main: bool) -> Result<(), ImportError> {
        if depth > MAX_DEPTH {
            return Err(self.err("game trees nested too deeply"));
        }
        // The caller saw '('.
        self.bump();
        let mut nodes = 0usize;
        let mut first_child = true;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(';') => {
                    if !first_child {
                        return Err(self.err("node after a variation"));
                    }
                    let node = self.node()?;
                    nodes += 1;
                    if main {
                        if out.len() >= MAX_NODES {
                            return Err(self.err("too many nodes"));
                        }
                        out.push(node);
                    }
                }
                Some('(') => {
                    if nodes == 0 {
                        return Err(self.err("a game tree must start with a node"));
                    }
                    let main_child = main && first_child;
                    first_child = false;
                    self.tree(depth + 1, out, main_child)?;
                }
                Some(')') => {
                    self.bump();
                    if nodes == 0 {
                        return Err(self.err("empty game tree"));
                    }
                    return Ok(());
                }
                Some(c) => return Err(self.err(format!("unexpected {c:?}"))),
                None => return Err(self.err("missing ')'")),
            }
        }
    }
}

/// Parses the first game tree of `text` and returns the nodes of its main
/// line (the first variation at every branch). Text after the first game
/// tree is ignored, as SGF readers usually do with collections.
pub(crate) fn parse_main_line(text: &str) -> Result<Vec<Node>, ImportError> {
    let mut r = Reader {
        chars: text.chars().peekable(),
        line: 1,
    };
    // Skip anything before the first '(' (some files start with a BOM or
    // a comment line).
    while let Some(c) = r.peek() {
        if c == '(' {
            break;
        }
        r.bump();
    }
    if r.peek().is_none() {
        return Err(r.err("no game tree '(' found"));
    }
    let mut out = Vec::new();
    r.tree(0, &mut out, true)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_main_line() {
        let nodes = parse_main_line("(;GM[4]C[a\\]b\\\\c];B[hh](;W[ii];B[jj])(;W[aa]))").unwrap();
        assert_eq!(nodes.len(), 4);
        assert_eq!(nodes[0].get("C"), Some("a]b\\c"));
        assert_eq!(nodes[3].get("B"), Some("jj"));
    }

    #[test]
    fn rejects_garbage() {
        for s in [
            "",
            "(",
            "(;",
            "(;B[aa",
            "()",
            "(;B)",
            "x",
            "(;B[aa]",
            "((;B[aa]))",
        ] {
            assert!(parse_main_line(s).is_err(), "{s:?}");
        }
        let deep = format!("(;B[aa]{}{}", "(;".repeat(200), ")".repeat(201));
        assert!(parse_main_line(&deep).is_err());
    }

    #[test]
    fn escapes() {
        assert_eq!(escape("a]b\\c"), "a\\]b\\\\c");
    }
}
