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
}
