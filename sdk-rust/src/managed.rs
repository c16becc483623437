//! Managed blocks: text between two marker lines inside a file the user
//! also edits (GEMINI.md, CLAUDE.md, AGENTS.md). Only the block changes;
//! every byte outside it stays.
//!
//! [`instructions_set`] and [`instructions_remove`] keep upstream Lola's
//! module-instructions section exactly: one `<!-- lola:instructions:... -->`
//! section holding per-module blocks sorted by module name, appended after
//! the user's text (trailing whitespace trimmed, one blank line between),
//! and removed with the blank lines before it when its last module goes.

/// Upstream's markers of the instructions section and of one module in it.
pub const INSTRUCTIONS_START: &str = "<!-- lola:instructions:start -->";
pub const INSTRUCTIONS_END: &str = "<!-- lola:instructions:end -->";

fn module_markers(module: &str) -> (String, String) {
    (
        format!("<!-- lola:module:{}:start -->", module),
        format!("<!-- lola:module:{}:end -->", module),
    )
}

/// The span `[start, end)` of the first `start`…`end` block (markers
/// included), when both markers are present in that order.
pub fn find(content: &str, start: &str, end: &str) -> Option<(usize, usize)> {
    let s = content.find(start)?;
    let e = content[s + start.len()..].find(end)? + s + start.len() + end.len();
    Some((s, e))
}

/// Replaces the inside of the `start`…`end` block with `inner`, or, when
/// the file has no such block, appends `start inner end` after the file's
/// text (trailing whitespace trimmed, a blank line between, a final newline).
pub fn splice(content: &str, start: &str, end: &str, inner: &str) -> String {
    match find(content, start, end) {
        Some((s, e)) => format!("{}{}{}{}{}", &content[..s], start, inner, end, &content[e..]),
        None => {
            let head = content.trim_end();
            let sep = if head.is_empty() { "" } else { "\n\n" };
            format!("{}{}{}{}{}\n", head, sep, start, inner, end)
        }
    }
}

/// Removes the `start`…`end` block and the newlines before it; the text
/// after it stays as it is.
pub fn remove(content: &str, start: &str, end: &str) -> String {
    match find(content, start, end) {
        Some((s, e)) => format!("{}{}", content[..s].trim_end_matches('\n'), &content[e..]),
        None => content.to_string(),
    }
}

/// The user's text before a new section: trailing whitespace trimmed and a
/// blank line, as upstream appends it — except that a file with no text of
/// the user's starts with lola's section, where upstream writes two blank
/// lines first (the project's shared difference for every target).
fn lead(content: &str) -> String {
    let head = content.trim_end();
    if head.is_empty() {
        String::new()
    } else {
        format!("{}\n\n", head)
    }
}

/// The module blocks of an instructions section's inside, by module name.
fn blocks(inside: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut rest = inside;
    let open = "<!-- lola:module:";
    while let Some(i) = rest.find(open) {
        let after = &rest[i + open.len()..];
        let name_end = match after.find(":start -->") {
            Some(n) if !after[..n].contains(':') && !after[..n].is_empty() => n,
            _ => {
                rest = &rest[i + open.len()..];
                continue;
            }
        };
        let name = &after[..name_end];
        let (_, close) = module_markers(name);
        match rest[i..].find(&close) {
            Some(c) => {
                let block = &rest[i..i + c + close.len()];
                out.retain(|(n, _)| n != name);
                out.push((name.to_string(), block.trim().to_string()));
                rest = &rest[i + c + close.len()..];
            }
            None => rest = &rest[i + open.len()..],
        }
    }
    out
}

/// Sets `module`'s instructions to `text` (trimmed) in the section.
/// An empty `text` leaves the content as it is, as upstream does.
pub fn instructions_set(content: &str, module: &str, text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        return content.to_string();
    }
    let (ms, me) = module_markers(module);
    let block = format!("{}\n{}\n{}", ms, text, me);
    match find(content, INSTRUCTIONS_START, INSTRUCTIONS_END) {
        Some((s, e)) => {
            let mut inside =
                content[s + INSTRUCTIONS_START.len()..e - INSTRUCTIONS_END.len()].to_string();
            if let Some((bs, be)) = find(&inside, &ms, &me) {
                inside = format!("{}{}", &inside[..bs], &inside[be..]);
            }
            let mut all = blocks(&inside);
            all.retain(|(n, _)| n != module);
            all.push((module.to_string(), block));
            all.sort_by(|a, b| a.0.cmp(&b.0));
            let joined: Vec<String> = all.into_iter().map(|(_, b)| b).collect();
            let joined = joined.join("\n\n");
            let inner = if joined.is_empty() { joined } else { format!("\n{}\n", joined) };
            format!("{}{}{}{}{}", &content[..s], INSTRUCTIONS_START, inner, INSTRUCTIONS_END, &content[e..])
        }
        None => format!("{}{}\n{}\n{}\n", lead(content), INSTRUCTIONS_START, block, INSTRUCTIONS_END),
    }
}

/// Removes `module`'s instructions; the section goes when it is empty.
pub fn instructions_remove(content: &str, module: &str) -> String {
    let (s, e) = match find(content, INSTRUCTIONS_START, INSTRUCTIONS_END) {
        Some(x) => x,
        None => return content.to_string(),
    };
    let (ms, me) = module_markers(module);
    let mut inside = content[s + INSTRUCTIONS_START.len()..e - INSTRUCTIONS_END.len()].to_string();
    if let Some((bs, be)) = find(&inside, &ms, &me) {
        inside = format!("{}{}", &inside[..bs], &inside[be..]);
        while inside.contains("\n\n\n") {
            inside = inside.replace("\n\n\n", "\n\n");
        }
    }
    if blocks(&inside).is_empty() {
        return format!("{}{}", content[..s].trim_end_matches('\n'), &content[e..]);
    }
    format!("{}{}{}{}{}", &content[..s], INSTRUCTIONS_START, inside, INSTRUCTIONS_END, &content[e..])
}

/// Refuses a module name that could forge or break a marker, or escape a
/// directory when used as a file name: it accepts exactly
/// `[A-Za-z0-9][A-Za-z0-9._-]{0,127}` without `..` (sdk-go's
/// `managed.CheckModuleName`). The rule is `request.invalid`: the name
/// comes with the request.
pub fn check_module_name(name: &str) -> Result<(), crate::Error> {
    let b = name.as_bytes();
    let ok = !b.is_empty()
        && b.len() <= 128
        && b[0].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || b"._-".contains(c))
        && !name.contains("..");
    if ok {
        return Ok(());
    }
    Err(crate::Error::bad_request(format!(
        "module name {:?} is not [A-Za-z0-9][A-Za-z0-9._-]* (it is written into markers and file names)",
        name
    )))
}

fn module_start(name: &str) -> String {
    format!("<!-- lola:module:{}:start -->", name)
}

fn module_end(name: &str) -> String {
    format!("<!-- lola:module:{}:end -->", name)
}

fn render_block(module: &str, body: &str) -> String {
    format!("{}\n{}\n{}", module_start(module), body, module_end(module))
}

fn invalid(file: &str, why: String) -> crate::Error {
    crate::Error::new("managed.invalid", format!("{}: {}", file, why))
}

/// The section's start and end marker indexes, None when it has none.
fn find_section(doc: &str, file: &str) -> Result<Option<(usize, usize)>, crate::Error> {
    let (ns, ne) = (doc.matches(INSTRUCTIONS_START).count(), doc.matches(INSTRUCTIONS_END).count());
    if ns == 0 && ne == 0 {
        return Ok(None);
    }
    if ns != 1 || ne != 1 {
        return Err(invalid(file, "the lola instructions section markers are unpaired or repeated; fix the file by hand".into()));
    }
    let (s, e) = (doc.find(INSTRUCTIONS_START).unwrap(), doc.find(INSTRUCTIONS_END).unwrap());
    if e < s {
        return Err(invalid(file, "the lola instructions end marker comes before its start marker".into()));
    }
    Ok(Some((s, e)))
}

const MODULE_OPEN: &str = "<!-- lola:module:";

/// The first `<!-- lola:module:NAME:start -->` in `s` (NAME without ':' or
/// ASCII space): the marker's start, its end and NAME.
fn next_block_start(s: &str) -> Option<(usize, usize, &str)> {
    let mut from = 0;
    while let Some(i) = s[from..].find(MODULE_OPEN) {
        let at = from + i;
        let rest = &s[at + MODULE_OPEN.len()..];
        let n = rest
            .bytes()
            .position(|c| c == b':' || matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'))
            .unwrap_or(rest.len());
        if n > 0 && rest[n..].starts_with(":start -->") {
            return Some((at, at + MODULE_OPEN.len() + n + ":start -->".len(), &rest[..n]));
        }
        from = at + 1;
    }
    None
}

/// The module blocks of a section's inside, each rendered whole (markers
/// included, body trimmed). Text between blocks is lola's formatting and
/// is dropped, as today's Lola does.
fn parse_blocks(mut inside: &str, file: &str) -> Result<std::collections::BTreeMap<String, String>, crate::Error> {
    let mut blocks = std::collections::BTreeMap::new();
    while let Some((s, e, name)) = next_block_start(inside) {
        if inside[..s].contains(MODULE_OPEN) {
            return Err(invalid(file, "a module end marker has no start".into()));
        }
        let endm = module_end(name);
        let rel = match inside[e..].find(&endm) {
            Some(r) => r,
            None => return Err(invalid(file, format!("the block of module {:?} is unterminated", name))),
        };
        if blocks.contains_key(name) {
            return Err(invalid(file, format!("module {:?} has two blocks", name)));
        }
        blocks.insert(name.to_string(), render_block(name, inside[e..e + rel].trim()));
        inside = &inside[e + rel + endm.len()..];
    }
    if inside.contains(MODULE_OPEN) {
        return Err(invalid(file, "a module end marker has no start".into()));
    }
    Ok(blocks)
}

/// Runs of three or more newlines folded to two.
fn fold_blank_runs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut run = 0;
    for c in s.chars() {
        if c == '\n' {
            run += 1;
            if run <= 2 {
                out.push(c);
            }
        } else {
            run = 0;
            out.push(c);
        }
    }
    out
}

/// Returns `doc` with `module`'s instructions set to `body`, or removed
/// when `body` is empty after trimming: sdk-go's `managed.SetBlock`, byte
/// for byte. `file` names the document in errors (root-relative).
///
/// Guarantees: the bytes before the section's start marker and after its
/// end marker are unchanged, except that a section added to a document not
/// ending in a newline is preceded by one, and a section removed because
/// its last block went is taken out together with the blank line put
/// before it, so install then uninstall gives back the original document
/// (for one that ends in a newline, or is empty). A document with an
/// unterminated, repeated or misordered marker is refused
/// (`managed.invalid`), and a module name [`check_module_name`] refuses is
/// a bad request; never a guess.
pub fn set_block(doc: &str, file: &str, module: &str, body: &str) -> Result<String, crate::Error> {
    check_module_name(module)?;
    let body = body.trim();
    let (start, end) = match find_section(doc, file)? {
        None if body.is_empty() => return Ok(doc.to_string()),
        None => {
            let section = format!("{}\n{}\n{}\n", INSTRUCTIONS_START, render_block(module, body), INSTRUCTIONS_END);
            return Ok(if doc.is_empty() {
                section
            } else if doc.ends_with('\n') {
                format!("{}\n{}", doc, section)
            } else {
                format!("{}\n\n{}", doc, section)
            });
        }
        Some(x) => x,
    };
    let inside = &doc[start + INSTRUCTIONS_START.len()..end];
    let mut blocks = parse_blocks(inside, file)?;
    if body.is_empty() {
        if blocks.remove(module).is_none() {
            return Ok(doc.to_string());
        }
        if !blocks.is_empty() {
            // Today's Lola cuts the block out where it stands and folds the
            // blank lines left behind, rather than laying the section out
            // again; do the same so the file is byte for byte its.
            let (ms, me) = (module_start(module), module_end(module));
            let i = inside.find(&ms).unwrap_or(0);
            let j = i + inside[i..].find(&me).unwrap_or(0) + me.len();
            let folded = fold_blank_runs(&format!("{}{}", &inside[..i], &inside[j..]));
            return Ok(format!(
                "{}{}{}{}{}",
                &doc[..start],
                INSTRUCTIONS_START,
                folded,
                INSTRUCTIONS_END,
                &doc[end + INSTRUCTIONS_END.len()..]
            ));
        }
    } else {
        blocks.insert(module.to_string(), render_block(module, body));
    }
    let mut after = end + INSTRUCTIONS_END.len();
    if blocks.is_empty() {
        // The section was lola's alone: take it out whole, with the newline
        // after it and the blank line set_block put before it.
        if doc.as_bytes().get(after) == Some(&b'\n') {
            after += 1;
        }
        let mut before = &doc[..start];
        if before.ends_with("\n\n") {
            before = &before[..before.len() - 1];
        }
        return Ok(format!("{}{}", before, &doc[after..]));
    }
    let parts: Vec<&str> = blocks.values().map(|s| s.as_str()).collect();
    Ok(format!(
        "{}{}\n{}\n{}{}",
        &doc[..start],
        INSTRUCTIONS_START,
        parts.join("\n\n"),
        INSTRUCTIONS_END,
        &doc[after..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_round_trip_as_upstream() {
        let user = "# Mine\n\nKeep.\n";
        let one = instructions_set(user, "b", "B text\n");
        assert_eq!(one, "# Mine\n\nKeep.\n\n<!-- lola:instructions:start -->\n<!-- lola:module:b:start -->\nB text\n<!-- lola:module:b:end -->\n<!-- lola:instructions:end -->\n");
        let two = instructions_set(&one, "a", "A");
        assert!(two.contains("start -->\n<!-- lola:module:a:start -->\nA\n<!-- lola:module:a:end -->\n\n<!-- lola:module:b:start -->"), "{}", two);
        assert_eq!(instructions_set(&two, "a", "A"), two);
        let back = instructions_remove(&instructions_remove(&two, "a"), "b");
        assert_eq!(back, user);
        let fresh = instructions_set("", "m", "M");
        assert_eq!(fresh, "<!-- lola:instructions:start -->\n<!-- lola:module:m:start -->\nM\n<!-- lola:module:m:end -->\n<!-- lola:instructions:end -->\n");
        assert_eq!(instructions_remove(&fresh, "m"), "\n");
    }

    #[test]
    fn a_block_changes_only_inside_its_markers() {
        let c = "top\n<!-- s -->old<!-- e -->\nbottom\n";
        assert_eq!(splice(c, "<!-- s -->", "<!-- e -->", "new"), "top\n<!-- s -->new<!-- e -->\nbottom\n");
        assert_eq!(splice("top\n\n\n", "<s>", "<e>", "x"), "top\n\n<s>x<e>\n");
        assert_eq!(remove("top\n\n<s>x<e>\n", "<s>", "<e>"), "top\n");
        assert_eq!(remove("no block", "<s>", "<e>"), "no block");
    }

    #[test]
    fn set_block_round_trips_and_refuses_broken_sections() {
        for user in ["", "# Mine\n", "no newline", "a\n\n"] {
            let one = set_block(user, "F", "b", "B\r\n").unwrap();
            let two = set_block(&one, "F", "a", " A ").unwrap();
            assert!(two.contains("<!-- lola:module:a:end -->\n\n<!-- lola:module:b:start -->"), "{}", two);
            assert_eq!(set_block(&two, "F", "a", "A").unwrap(), two);
            let back = set_block(&set_block(&two, "F", "a", "").unwrap(), "F", "b", "").unwrap();
            let want = if user == "no newline" { "no newline\n" } else { user };
            assert_eq!(back, want, "{:?}", user);
        }
        let fresh = set_block("", "F", "m", "M").unwrap();
        assert_eq!(fresh, "<!-- lola:instructions:start -->\n<!-- lola:module:m:start -->\nM\n<!-- lola:module:m:end -->\n<!-- lola:instructions:end -->\n");
        for bad in [
            format!("{}\n{}", INSTRUCTIONS_START, INSTRUCTIONS_START),
            format!("{}x{}", INSTRUCTIONS_END, INSTRUCTIONS_START),
            format!("{}<!-- lola:module:x:start -->{}", INSTRUCTIONS_START, INSTRUCTIONS_END),
            format!("{}<!-- lola:module:x:end -->{}", INSTRUCTIONS_START, INSTRUCTIONS_END),
            format!("{}<!-- lola:module:x:end -->\n<!-- lola:module:y:start -->b<!-- lola:module:y:end -->{}", INSTRUCTIONS_START, INSTRUCTIONS_END),
            format!("{}<!-- lola:module:y:start -->a<!-- lola:module:y:end --><!-- lola:module:y:start -->b<!-- lola:module:y:end -->{}", INSTRUCTIONS_START, INSTRUCTIONS_END),
        ] {
            assert_eq!(set_block(&bad, "F", "m", "M").unwrap_err().rule, "managed.invalid", "{}", bad);
        }
        for name in ["", "x:end --> <!-- lola:module:y", "../x", "a..b", ".a", &"a".repeat(129)] {
            assert_eq!(set_block("", "F", name, "M").unwrap_err().rule, "request.invalid", "{:?}", name);
        }
        check_module_name(&"a".repeat(128)).unwrap();
    }
}
