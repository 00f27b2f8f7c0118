//! How deep a YAML text's collections nest, measured before the parser runs.
//!
//! libyaml's scanner (the YAML parser, `load/yaml/libyaml.rs`) is quadratic in the nesting
//! depth: every token revisits each open flow level, before the reader meets its limit (128). `x: ` and 200,000 `[` (400 KB) took the whole time limit; block
//! mappings nested by indentation, 18 s. This scan is linear: it counts block collections by
//! indentation and their indicators (`- `, `? `, `key:`), and flow collections by their
//! brackets, skipping quoted scalars, block scalars, plain scalars and comments. It may count
//! less than the parser does (the parser's own limit then still applies, at its old cost) but
//! never more, so it refuses nothing the parser would read.

use crate::diag::{Code, Diagnostic};

/// Refuses a YAML text nested deeper than `limit`; the span points where the limit is crossed
/// (rendered as `file:line:col`).
pub fn check(text: &str, limit: usize) -> Result<(), Diagnostic> {
    let Some(at) = too_deep(text, limit) else {
        return Ok(());
    };
    Err(Diagnostic::new(
        Code::OpenapiParse,
        format!("YAML nested more than {limit} levels deep; refusing to parse it"),
    )
    .help(format!(
        "wellgen reads collections nested at most {limit} deep: flatten the document"
    ))
    .with_span(at..at + 1))
}

/// Where a text's collections first nest deeper than `limit`: the byte offset of the
/// indicator that opens the collection one too deep.
pub fn too_deep(text: &str, limit: usize) -> Option<usize> {
    let mut scan = Scan {
        b: text.as_bytes(),
        limit,
        line_start: 0,
        stack: Vec::new(),
        flow: 0,
        pending: true,
    };
    scan.run().err()
}

struct Scan<'a> {
    b: &'a [u8],
    limit: usize,
    /// Where the line being scanned starts: columns count from here.
    line_start: usize,
    /// The columns of the open block collections, innermost last.
    stack: Vec<usize>,
    /// Open flow collections (`[`, `{`) at this point.
    flow: usize,
    /// Whether the last block line left a value to come (`key:`, `- `, `? `): only then does a
    /// more indented line open a collection; otherwise it continues a plain scalar.
    pending: bool,
}

/// A byte offset where the limit is crossed.
type Crossed = usize;

fn is_blank(c: Option<&u8>) -> bool {
    matches!(c, None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}

fn is_flow_indicator(c: Option<&u8>) -> bool {
    matches!(c, Some(b',' | b'[' | b']' | b'{' | b'}'))
}

impl Scan<'_> {
    fn run(&mut self) -> Result<(), Crossed> {
        // `Some(column)` while inside a block scalar: its lines are those more indented than the
        // collection holding it (-1 at the top level), and blank ones.
        let mut block_scalar: Option<isize> = None;
        let mut p = 0;
        while p < self.b.len() {
            self.line_start = p;
            let end = self.line_end(p);
            let next = end + 1;
            let indent = self.b[p..end].iter().take_while(|&&c| c == b' ').count();
            let first = p + indent;
            let blank = self.b[first..end]
                .iter()
                .all(|c| matches!(c, b' ' | b'\t' | b'\r'));
            let marker = indent == 0 && self.document_marker(p);
            if let Some(parent) = block_scalar {
                if !marker && (blank || indent as isize > parent) {
                    p = next;
                    continue;
                }
                block_scalar = None;
            }
            if blank || self.b[first] == b'#' {
                p = next;
                continue;
            }
            if marker {
                self.stack.clear();
                self.pending = true;
                if self.b[p] == b'.' {
                    p = next;
                    continue;
                }
                p = self.block_line(p + 3, &mut block_scalar)?;
                continue;
            }
            // A directive (`%YAML 1.2`): only valid before a document's first node.
            if indent == 0 && self.b[first] == b'%' {
                p = next;
                continue;
            }
            while self.stack.last().is_some_and(|&top| top > indent) {
                self.stack.pop();
            }
            let sibling = self.stack.last() == Some(&indent);
            if !sibling && !self.pending {
                // More indented than its collection and no value pending: the continuation of
                // a multi-line plain scalar, text whatever it holds.
                p = next;
                continue;
            }
            p = self.block_line(first, &mut block_scalar)?;
        }
        Ok(())
    }

    /// The offset of the `\n` ending the line that holds `p`, or the text's length.
    fn line_end(&self, p: usize) -> usize {
        self.b[p..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(self.b.len(), |n| p + n)
    }

    /// `---` or `...` at the start of a line, alone or followed by a space.
    fn document_marker(&self, p: usize) -> bool {
        let b = self.b;
        (b[p..].starts_with(b"---") || b[p..].starts_with(b"...")) && is_blank(b.get(p + 3))
    }

    fn column(&self, p: usize) -> usize {
        p - self.line_start
    }

    /// A block collection's indicator at `p`, in column `column`: a collection opens there
    /// unless it is the one already open at that column.
    fn open(&mut self, column: usize, p: usize) -> Result<(), Crossed> {
        if self.stack.last().is_none_or(|&top| column > top) {
            self.stack.push(column);
            if self.stack.len() + self.flow > self.limit {
                return Err(p);
            }
        }
        Ok(())
    }

    /// Scans the nodes of a block line from `p`; returns where the next line starts (a quoted
    /// scalar or flow collection may end lines later).
    fn block_line(
        &mut self,
        mut p: usize,
        block_scalar: &mut Option<isize>,
    ) -> Result<usize, Crossed> {
        // Before a `key:` on this line, indicators (`- `, `? `) and a key may come; after
        // it, only the value.
        let mut key_allowed = true;
        // Where the node being read starts, its anchor or tag included: column and offset.
        let mut node: Option<(usize, usize)> = None;
        loop {
            while matches!(self.b.get(p), Some(b' ' | b'\t')) {
                p += 1;
            }
            let Some(&c) = self.b.get(p) else {
                return Ok(p);
            };
            let at = self.column(p);
            let blank_after = is_blank(self.b.get(p + 1));
            match c {
                b'\n' => return Ok(p + 1),
                b'\r' | b'#' => return Ok(self.line_end(p) + 1),
                b'-' | b'?' | b':' if blank_after && key_allowed && node.is_none() => {
                    self.open(at, p)?;
                    self.pending = true;
                    p += 1;
                }
                b'&' | b'!' => {
                    node.get_or_insert((at, p));
                    while !is_blank(self.b.get(p)) {
                        p += 1;
                    }
                }
                b'|' | b'>' => {
                    *block_scalar = Some(self.stack.last().map_or(-1, |&t| t as isize));
                    self.pending = false;
                    return Ok(self.line_end(p) + 1);
                }
                b'[' | b'{' | b'"' | b'\'' => {
                    let (column, start) = *node.get_or_insert((at, p));
                    p = if c == b'[' || c == b'{' {
                        self.flow(p)?
                    } else {
                        self.quoted(p)
                    };
                    self.pending = false;
                    while matches!(self.b.get(p), Some(b' ' | b'\t')) {
                        p += 1;
                    }
                    if key_allowed && self.b.get(p) == Some(&b':') && is_blank(self.b.get(p + 1)) {
                        self.open(column, start)?;
                        self.pending = true;
                        key_allowed = false;
                        node = None;
                        p += 1;
                    } else {
                        return Ok(self.line_end(p) + 1);
                    }
                }
                _ => {
                    // A plain scalar (or an alias): a key if `: ` follows on this line.
                    let (column, start) = *node.get_or_insert((at, p));
                    let end = self.line_end(p);
                    let mut q = p;
                    let mut key = None;
                    while q < end {
                        match self.b[q] {
                            b':' if key_allowed && is_blank(self.b.get(q + 1)) => {
                                key = Some(q);
                                break;
                            }
                            b'#' if matches!(self.b[q - 1], b' ' | b'\t') => break,
                            _ => q += 1,
                        }
                    }
                    let Some(colon) = key else {
                        self.pending = false;
                        return Ok(end + 1);
                    };
                    self.open(column, start)?;
                    self.pending = true;
                    key_allowed = false;
                    node = None;
                    p = colon + 1;
                }
            }
        }
    }

    /// Scans a flow collection from its opening bracket at `p`; returns the offset after its
    /// closing one (or the text's end).
    fn flow(&mut self, mut p: usize) -> Result<usize, Crossed> {
        // Whether a node may start here (a quote then opens a quoted scalar, not plain text).
        let mut node_start = true;
        // After a quoted scalar or a collection a `:` is an indicator even without a space.
        let mut json_like = false;
        while let Some(&c) = self.b.get(p) {
            match c {
                b'[' | b'{' => {
                    self.flow += 1;
                    if self.stack.len() + self.flow > self.limit {
                        return Err(p);
                    }
                    node_start = true;
                    json_like = false;
                }
                b']' | b'}' => {
                    self.flow = self.flow.saturating_sub(1);
                    if self.flow == 0 {
                        return Ok(p + 1);
                    }
                    node_start = false;
                    json_like = true;
                }
                b',' => {
                    node_start = true;
                    json_like = false;
                }
                b'\n' => self.line_start = p + 1,
                b' ' | b'\t' | b'\r' => {}
                b'#' if p == self.line_start || matches!(self.b[p - 1], b' ' | b'\t' | b'\r') => {
                    p = self.line_end(p);
                    continue;
                }
                b'"' | b'\'' if node_start => {
                    p = self.quoted(p);
                    node_start = false;
                    json_like = true;
                    continue;
                }
                b':' | b'?'
                    if is_blank(self.b.get(p + 1))
                        || is_flow_indicator(self.b.get(p + 1))
                        || (c == b':' && json_like) =>
                {
                    node_start = true;
                    json_like = false;
                }
                b'&' | b'!' if node_start => {
                    while !is_blank(self.b.get(p)) && !is_flow_indicator(self.b.get(p)) {
                        p += 1;
                    }
                    continue;
                }
                _ => {
                    node_start = false;
                    json_like = false;
                }
            }
            p += 1;
        }
        Ok(p)
    }

    /// Scans a quoted scalar from its opening quote at `p`; returns the offset after its
    /// closing one (or the text's end).
    fn quoted(&mut self, mut p: usize) -> usize {
        let quote = self.b[p];
        p += 1;
        while let Some(&c) = self.b.get(p) {
            match c {
                b'\n' => self.line_start = p + 1,
                b'\\' if quote == b'"' => {
                    p += 1;
                    if self.b.get(p) == Some(&b'\n') {
                        self.line_start = p + 1;
                    }
                }
                // `''` is a quote inside a single-quoted scalar.
                b'\'' if quote == b'\'' && self.b.get(p + 1) == Some(&b'\'') => p += 1,
                c if c == quote => return p + 1,
                _ => {}
            }
            p += 1;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: usize = 128;

    /// What the parser says: `Some(offset)` where it meets its recursion limit, `None` when
    /// it reads the text (or fails for another reason).
    fn parser(text: &str) -> Option<usize> {
        match serde_norway::from_str::<serde_json::Value>(text) {
            Err(e) if e.to_string().contains("recursion limit") => {
                Some(e.location().map_or(usize::MAX, |l| l.index()))
            }
            _ => None,
        }
    }

    /// The scan and the parser agree, on the verdict and on where the limit is crossed.
    fn agree(text: &str) {
        assert_eq!(
            too_deep(text, LIMIT),
            parser(text),
            "{}",
            &text[..text.len().min(300)]
        );
    }

    fn nested_maps(n: usize) -> String {
        (0..n)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect()
    }

    #[test]
    fn the_scan_refuses_where_the_parser_does() {
        for n in [126, 127, 128, 129, 130] {
            let flow = |open: &str, close: &str| format!("{}{}", open.repeat(n), close.repeat(n));
            agree(&format!("openapi: 3.0.3\nx: {}\n", flow("[", "]")));
            agree(&flow("[", "]"));
            agree(&format!("x: {}\n", flow("{a: ", "}")));
            agree(&format!("x: {}1{}\n", "[\n".repeat(n), "]\n".repeat(n)));
            agree(&nested_maps(n));
            agree(&format!("a: 1\n{}", nested_maps(n)));
            agree(&format!("{}x\n", "- ".repeat(n)));
            agree(
                &(0..n)
                    .map(|i| format!("{}-\n", " ".repeat(i)))
                    .collect::<String>(),
            );
            agree(
                &(0..n)
                    .map(|i| format!("{}- k{i}:\n", "    ".repeat(i)))
                    .collect::<String>(),
            );
            agree(
                &(0..n)
                    .map(|i| format!("{}? k{i}\n", " ".repeat(i)))
                    .collect::<String>(),
            );
            agree(&format!("{}x: [[[[1]]]]\n", nested_maps(n - 4)));
            agree(&format!("--- # c\n{}...\n", nested_maps(n)));
            agree(
                &(0..n)
                    .map(|i| format!("{}&a{i} !t k{i}:\n", " ".repeat(i)))
                    .collect::<String>(),
            );
        }
    }

    /// Brackets and indentation that are text, not structure, are not counted.
    #[test]
    fn text_that_looks_nested_is_not_counted() {
        let deep = "[".repeat(300);
        let steps: String = (1..300)
            .map(|i| format!("{}w{i}\n", " ".repeat(i)))
            .collect();
        for text in [
            format!("a: '{deep}'\nb: \"\\\"{deep}\"\nc: 'it''s {deep}'\n"),
            format!("a: 1 # {deep}\n# {deep}\n"),
            format!("a: |\n  {deep}\n  x\nb: >-\n   {deep}\n\n   y\nc: |2\n   {deep}\n"),
            format!("--- |\n{deep}\n"),
            format!("a: b{deep}\nc{deep}: d\n"),
            format!("a: first\n{steps}b: 1\n"),
            format!("a: \"multi\n  {deep}\n  line\"\nb: 'x\n {deep}'\n"),
            format!("a: [it's, \"{deep}\", '{deep}', {{\"k\":\"{deep}\"}}, a#b]\n"),
            format!("a: [1, # {deep}\n  2]\n"),
            format!("- a\n  {deep}\n- b\n"),
            format!("a:\n  plain\n  {deep}\n"),
            format!("a: !t '{deep}'\nb: &x \"{deep}\"\n"),
            format!("a: b\r\nc: '{deep}'\r\n"),
        ] {
            assert_eq!(too_deep(&text, LIMIT), None, "{text}");
            assert_eq!(parser(&text), None, "{text}");
        }
    }

    /// Random documents near the limit, built from every style above: the scan never refuses
    /// what the parser reads, and where both refuse they name the same place.
    #[test]
    fn random_documents_never_refused_wrongly() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let (mut caught, mut refused) = (0, 0);
        for _ in 0..400 {
            let depth = 100 + next(40) as usize;
            let mut text = String::from("openapi: 3.0.3\nroot:\n");
            let mut indent = 1 + next(2) as usize;
            let mut flow_close = String::new();
            for i in 0..depth {
                let pad = " ".repeat(indent);
                let kind = next(5);
                // A sibling before the element: text that looks nested but is not.
                let entry = if matches!(kind, 2 | 4) { "- " } else { "n: " };
                let entry = entry.replace("n", &format!("n{i}"));
                match next(7) {
                    0 => text.push_str(&format!("{pad}# [[[ {{\n")),
                    1 => text.push_str(&format!("{pad}{entry}'[[[[' # [[\n")),
                    2 => text.push_str(&format!("{pad}{entry}|\n{pad}  [[[[\n\n{pad}   {{\n")),
                    3 => text.push_str(&format!("{pad}{entry}\"[[\\\" [[\"\n")),
                    4 => text.push_str(&format!("{pad}{entry}a [[[\n{pad}  [[[ {{\n")),
                    _ => {}
                }
                match kind {
                    0 | 1 => {
                        text.push_str(&format!("{pad}k{i}:\n"));
                        indent += 1 + next(3) as usize;
                    }
                    2 => {
                        text.push_str(&format!("{pad}- m{i}:\n"));
                        indent += 4;
                    }
                    3 => {
                        text.push_str(&format!("{pad}f{i}: [\"[\", {{a: "));
                        flow_close = format!("}}]{flow_close}");
                        let rest = depth - i;
                        text.push_str(&"[".repeat(rest));
                        text.push_str(&"]".repeat(rest));
                        text.push_str(&flow_close);
                        text.push('\n');
                        break;
                    }
                    _ => {
                        text.push_str(&format!("{pad}-\n"));
                        indent += 1 + next(2) as usize;
                    }
                }
            }
            let (scan, parsed) = (too_deep(&text, LIMIT), parser(&text));
            // Valid YAML but for its depth, so that the parser's verdict is about depth.
            if parsed.is_none() {
                let read = serde_norway::from_str::<serde_json::Value>(&text);
                assert!(read.is_ok(), "{read:?}\n{text}");
            }
            if let Some(at) = scan {
                assert_eq!(Some(at), parsed, "{text}");
                caught += 1;
            }
            refused += usize::from(parsed.is_some());
        }
        assert!(
            refused > 100 && caught == refused,
            "caught {caught} of {refused}"
        );
    }
}
