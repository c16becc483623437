//! The plan builder. It refuses in the guest what the host refuses
//! lexically, so an author sees the error while authoring; the host checks
//! everything again and is the only authority.

use crate::types::{Intent, Plan, PROTOCOL};
use crate::Error;
use std::collections::BTreeMap;

/// Accumulates the intents of one plan.
#[derive(Debug, Default, Clone)]
pub struct PlanBuilder {
    intents: Vec<Intent>,
    failed: Option<Error>,
}

impl PlanBuilder {
    /// An empty plan.
    pub fn new() -> Self {
        PlanBuilder {
            intents: Vec::new(),
            failed: None,
        }
    }

    /// Writes UTF-8 text at `path`.
    pub fn write(&mut self, path: &str, content: &str) -> Result<&mut Self, Error> {
        self.record(check_path(path))?;
        self.intents.push(Intent::Write {
            path: path.to_string(),
            content: content.to_string(),
            encoding: String::new(),
            executable: false,
            if_content: String::new(),
            mode: String::new(),
        });
        Ok(self)
    }

    /// Rewrites the file at `path`, a file the user also edits (a managed
    /// instructions file, an MCP configuration), with UTF-8 text computed
    /// from `before`: the request's current file at that path, or `None`
    /// when it had none. The write carries `if_content` (the SHA-256 of
    /// `before`'s bytes, or `"absent"`), so the host refuses the whole plan
    /// (`conflict.changed`) rather than overwrite an edit made since.
    pub fn rewrite(
        &mut self,
        path: &str,
        content: &str,
        before: Option<&crate::File>,
    ) -> Result<&mut Self, Error> {
        self.record(check_path(path))?;
        let bytes = match before {
            Some(f) => Some(self.record(f.bytes())?),
            None => None,
        };
        self.intents.push(Intent::Write {
            path: path.to_string(),
            content: content.to_string(),
            encoding: String::new(),
            executable: false,
            if_content: crate::sha256::if_content(bytes.as_deref()),
            mode: String::new(),
        });
        Ok(self)
    }

    /// Writes arbitrary bytes at `path` (carried as base64).
    pub fn write_bytes(
        &mut self,
        path: &str,
        content: &[u8],
        executable: bool,
    ) -> Result<&mut Self, Error> {
        self.record(check_path(path))?;
        self.intents.push(Intent::Write {
            path: path.to_string(),
            content: crate::base64::encode(content),
            encoding: "base64".to_string(),
            executable,
            if_content: String::new(),
            mode: String::new(),
        });
        Ok(self)
    }

    /// Writes a request file's content at `path` in the file's own encoding,
    /// without decoding it (base64 stays base64, byte for byte). The file's
    /// executable bit is not carried: [`PlanBuilder::copy_file`] does that.
    pub fn write_file(&mut self, path: &str, file: &crate::File) -> Result<&mut Self, Error> {
        self.put_file(path, file, false, String::new())
    }

    /// Copies a module file to `path` as it is: its bytes in its own
    /// encoding, its executable bit (scripts stay executable) and its mode
    /// when the host names one (a 0664 source installs as 0664).
    pub fn copy_file(&mut self, path: &str, file: &crate::File) -> Result<&mut Self, Error> {
        self.put_file(path, file, file.executable, file.mode.clone())
    }

    fn put_file(
        &mut self,
        path: &str,
        file: &crate::File,
        executable: bool,
        mode: String,
    ) -> Result<&mut Self, Error> {
        self.record(check_path(path))?;
        if !mode.is_empty() {
            self.record(check_mode(&mode, executable))?;
        }
        let encoding = match file.encoding.as_str() {
            "" | "utf8" => String::new(),
            "base64" => {
                self.record(file.bytes())?;
                "base64".to_string()
            }
            other => {
                return Err(self.fail(Error::new(
                    "plan.encoding",
                    format!("file {:?}: unknown encoding {:?}", file.path, other),
                )))
            }
        };
        self.intents.push(Intent::Write {
            path: path.to_string(),
            content: file.content.clone(),
            encoding,
            executable,
            if_content: String::new(),
            mode,
        });
        Ok(self)
    }

    /// Deletes the file or subtree at `path`; a missing path is a no-op.
    pub fn delete(&mut self, path: &str) -> Result<&mut Self, Error> {
        self.record(check_path(path))?;
        self.intents.push(Intent::Delete {
            path: path.to_string(),
        });
        Ok(self)
    }

    /// Moves `from` to `to`.
    pub fn rename(&mut self, from: &str, to: &str) -> Result<&mut Self, Error> {
        self.record(check_path(from))?;
        self.record(check_path(to))?;
        self.intents.push(Intent::Rename {
            from: from.to_string(),
            to: to.to_string(),
        });
        Ok(self)
    }

    /// Asks the host to GET `url` over https into `dest`. The extension
    /// never sees the response.
    pub fn fetch(
        &mut self,
        url: &str,
        dest: &str,
        headers: BTreeMap<String, String>,
    ) -> Result<&mut Self, Error> {
        if !url.starts_with("https://") {
            return Err(self.fail(Error::new(
                "remote.scheme",
                format!("fetch {:?}: only https is allowed", url),
            )));
        }
        self.record(check_path(dest))?;
        self.intents.push(Intent::Fetch {
            url: url.to_string(),
            dest: dest.to_string(),
            method: "GET".to_string(),
            headers,
        });
        Ok(self)
    }

    /// Asks the host to clone `url` (https or ssh) into `dest`.
    pub fn clone_repo(
        &mut self,
        url: &str,
        dest: &str,
        git_ref: &str,
        depth: u32,
    ) -> Result<&mut Self, Error> {
        if !(url.starts_with("https://") || url.starts_with("ssh://")) {
            return Err(self.fail(Error::new(
                "remote.scheme",
                format!("clone {:?}: only https and ssh are allowed", url),
            )));
        }
        self.record(check_path(dest))?;
        self.intents.push(Intent::Clone {
            url: url.to_string(),
            dest: dest.to_string(),
            git_ref: git_ref.to_string(),
            depth,
        });
        Ok(self)
    }

    /// The number of intents so far.
    pub fn len(&self) -> usize {
        self.intents.len()
    }

    /// Whether no intent was added.
    pub fn is_empty(&self) -> bool {
        self.intents.is_empty()
    }

    /// The first builder error, if any call was refused. A refused call
    /// fails the run even when the handler ignored its `Result` (as in Go
    /// and AssemblyScript): a plan silently missing an intent is worse than
    /// no plan.
    pub fn failure(&self) -> Option<&Error> {
        self.failed.as_ref()
    }

    fn record<T>(&mut self, r: Result<T, Error>) -> Result<T, Error> {
        if let Err(e) = &r {
            if self.failed.is_none() {
                self.failed = Some(e.clone());
            }
        }
        r
    }

    fn fail(&mut self, e: Error) -> Error {
        if self.failed.is_none() {
            self.failed = Some(e.clone());
        }
        e
    }

    /// The finished plan.
    pub fn build(self) -> Plan {
        Plan {
            protocol: PROTOCOL,
            intents: self.intents,
        }
    }
}

const RESERVED: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];

/// Checks `p` against the root-relative path vocabulary's lexical rules.
pub fn check_path(p: &str) -> Result<(), Error> {
    let bad =
        |rule: &'static str, why: &str| Err(Error::new(rule, format!("path {:?}: {}", p, why)));
    if p.is_empty() {
        return bad("path.invalid", "empty path");
    }
    let b = p.as_bytes();
    if b[0] == b'/' || b[0] == b'\\' || (b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic())
    {
        return bad("path.absolute", "absolute path");
    }
    if p.split('/').any(|c| c == "..") {
        return bad("path.traversal", "'..' component");
    }
    // The host's bounds (schema/lexical): 255 bytes per component fits
    // every supported filesystem, and Linux refuses a path argument of
    // PATH_MAX (4096) bytes or more.
    if p.len() >= 4096 {
        return bad("path.invalid", "longer than 4095 bytes");
    }
    for comp in p.split('/') {
        if comp.len() > 255 {
            return bad("path.invalid", "a component longer than 255 bytes");
        }
        if comp.is_empty() || comp == "." {
            return bad("path.invalid", "empty or '.' component");
        }
        if comp
            .chars()
            .any(|c| c.is_control() || "\\<>:\"|?*".contains(c))
        {
            return bad("path.invalid", "a character Windows forbids");
        }
        if comp.ends_with('.') || comp.ends_with(' ') {
            return bad("path.invalid", "trailing dot or space");
        }
        let stem = comp
            .split('.')
            .next()
            .unwrap_or("")
            .trim_end_matches(' ')
            .to_ascii_uppercase();
        let numbered = (stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.len() == 4
            && matches!(stem.as_bytes()[3], b'1'..=b'9');
        let superscript = (stem.starts_with("COM") || stem.starts_with("LPT"))
            && ["\u{b9}", "\u{b2}", "\u{b3}"]
                .iter()
                .any(|s| stem[3..] == **s);
        if RESERVED.contains(&stem.as_str()) || numbered || superscript {
            return bad("path.invalid", "a Windows reserved device name");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_file_keeps_the_module_files_mode() {
        let notes = crate::File {
            path: "skills/a/notes.md".into(),
            content: "x".into(),
            mode: "0664".into(),
            ..Default::default()
        };
        let run = crate::File {
            path: "skills/a/run.sh".into(),
            content: "y".into(),
            executable: true,
            mode: "0750".into(),
            ..Default::default()
        };
        let mut p = PlanBuilder::new();
        p.copy_file(".x/notes.md", &notes).unwrap();
        p.copy_file(".x/run.sh", &run).unwrap();
        p.write_file(".x/plain.md", &notes).unwrap();
        let json = serde_json::to_string(&p.build()).unwrap();
        assert!(
            json.contains(r#""path":".x/notes.md","content":"x","mode":"0664""#),
            "{}",
            json
        );
        assert!(
            json.contains(r#""executable":true,"mode":"0750""#),
            "{}",
            json
        );
        assert!(
            json.contains(r#""path":".x/plain.md","content":"x"}"#),
            "{}",
            json
        );
        for (mode, exec) in [
            ("4755", true),
            ("0755", false),
            ("0644", true),
            ("0o644", false),
            ("10644", false),
        ] {
            let f = crate::File {
                path: "a".into(),
                content: "x".into(),
                executable: exec,
                mode: mode.into(),
                ..Default::default()
            };
            let mut p = PlanBuilder::new();
            let err = p.copy_file("a", &f).unwrap_err();
            assert_eq!(err.rule, "plan.mode", "{}", mode);
        }
    }

    #[test]
    fn refuses_what_the_host_refuses_lexically() {
        let cases = [
            ("/etc/passwd", "path.absolute"),
            ("\\x", "path.absolute"),
            ("C:\\x", "path.absolute"),
            ("a/../b", "path.traversal"),
            ("..", "path.traversal"),
            ("", "path.invalid"),
            ("a//b", "path.invalid"),
            ("a/./b", "path.invalid"),
            ("a/", "path.invalid"),
            ("a\\b", "path.invalid"),
            ("nul.txt", "path.invalid"),
            ("COM1", "path.invalid"),
            ("lpt\u{b9}", "path.invalid"),
            ("a.", "path.invalid"),
            ("a:b", "path.absolute"),
            ("ab:c", "path.invalid"),
            (&"a".repeat(256), "path.invalid"),
            (&"a/".repeat(2048), "path.invalid"),
            (&("x/".repeat(2047) + "ab"), "path.invalid"),
            (&("a/".repeat(2048) + ".."), "path.traversal"),
        ];
        for (p, rule) in cases {
            let err = check_path(p).expect_err(p);
            assert_eq!(err.rule, rule, "{:?}", p);
        }
        for ok in [
            "com0",
            "comm",
            "conout.c",
            "lptN",
            "dollar$",
            "skills/foo/SKILL.md",
            "é/ß",
            &"a".repeat(255),
            &("x/".repeat(2047) + "a"),
        ] {
            check_path(ok).unwrap();
        }
    }

    #[test]
    fn fetch_is_https_get_only() {
        let mut p = PlanBuilder::new();
        assert_eq!(
            p.fetch("http://x.org/a", "a", BTreeMap::new())
                .unwrap_err()
                .rule,
            "remote.scheme"
        );
        p.fetch("https://x.org/a", "a", BTreeMap::new()).unwrap();
        let json = serde_json::to_string(&p.build()).unwrap();
        assert_eq!(
            json,
            r#"{"protocol":1,"intents":[{"op":"fetch","url":"https://x.org/a","dest":"a","method":"GET"}]}"#
        );
    }
}

/// Checks a write's mode as the host does (plan.mode): 3 or 4 octal
/// digits, at most 0777 (no setuid, setgid or sticky bit), with an execute
/// bit exactly when the write is executable.
fn check_mode(mode: &str, executable: bool) -> Result<(), Error> {
    let digits = if mode.len() == 4 && mode.starts_with('0') {
        &mode[1..]
    } else {
        mode
    };
    let bits = if digits.len() == 3 && digits.bytes().all(|c| (b'0'..=b'7').contains(&c)) {
        u32::from_str_radix(digits, 8).ok()
    } else {
        None
    };
    match bits {
        None => Err(Error::new(
            "plan.mode",
            format!(
                "mode {:?} is not permission bits: 3 or 4 octal digits, at most 0777",
                mode
            ),
        )),
        Some(b) if (b & 0o111 != 0) != executable => Err(Error::new(
            "plan.mode",
            format!("mode {} contradicts executable", mode),
        )),
        Some(_) => Ok(()),
    }
}
