//! The protocol types, mirroring the Go `schema` package field for field and
//! in the same order, so that a plan serializes to the same bytes whatever
//! language emitted it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The protocol version carried by every request and plan.
pub const PROTOCOL: i64 = 1;

/// The value `lola_abi_version` returns for the ABI this crate implements.
pub const ABI_VERSION: i32 = 1;

/// Everything an extension may know. It never carries a host absolute path.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct Request {
    pub protocol: i64,
    pub operation: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub assistant: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scope: String,
    #[serde(default)]
    pub modules: Vec<Module>,
    /// The current content of the files the extension's manifest names as
    /// managed (e.g. GEMINI.md), for rewriting a managed block.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub current: Vec<File>,
    /// The managed files of `current` that lola created under this root.
    /// Only such a file may be deleted once lola's part of it is gone; a
    /// managed file the user had is written back, however empty. A host
    /// that predates the field sends none, so nothing is deleted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created: Vec<String>,
}

impl Request {
    /// Whether lola created the managed file at `path` (see `created`).
    pub fn lola_created(&self, path: &str) -> bool {
        self.created.iter().any(|c| c == path)
    }
}

/// One module of the request, with its files.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct Module {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    #[serde(default)]
    pub files: Vec<File>,
    /// What the module holds, as the host's module store discovered it;
    /// absent from requests of hosts that predate it (see
    /// [`crate::inventory::of`], which refuses such a request).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inventory: Option<Inventory>,
}

/// A module's content by kind, every path naming an entry of the module's
/// files. Lists are sorted by name (MCP servers: in mcps.json's order).
/// Every list must be present, as the host always sends them.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Inventory {
    #[serde(default, skip_serializing_if = "is_false")]
    pub single_skill: bool,
    pub skills: Vec<Skill>,
    pub commands: Vec<Command>,
    pub agents: Vec<Agent>,
    /// The instructions file's path (AGENTS.md), "" when none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub instructions: String,
    pub mcp_servers: Vec<McpServer>,
}

/// One skill: the folder it installs as, and its files (SKILL.md among them).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Skill {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// "skills/<name>", or "" for a single-skill module.
    pub dir: String,
    pub files: Vec<String>,
}

/// One slash command, `commands/<name>.md`, with its co-named folder's files.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Command {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub argument_hint: String,
    pub path: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sidecar: Vec<String>,
}

/// One subagent, `agents/<name>.md`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Agent {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub model: String,
    pub path: String,
}

/// One MCP server: its name and its JSON object exactly as mcps.json spells it.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct McpServer {
    pub name: String,
    pub config: Box<serde_json::value::RawValue>,
}

impl PartialEq for McpServer {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name && self.config.get() == o.config.get()
    }
}

/// One file of a module, at a path relative to the module's root.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct File {
    pub path: String,
    pub content: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub encoding: String,
    /// Whether the module's file is executable (a script); a target that
    /// copies the file keeps the bit through [`crate::PlanBuilder::write_file`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub executable: bool,
    /// The stored file's permission bits in octal ("0664") when they are
    /// not 0644 (0755 executable); [`crate::PlanBuilder::copy_file`]
    /// carries them to the copy, so a 0664 source installs as 0664.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mode: String,
}

/// What an extension returns: a set of intents the host applies atomically.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Plan {
    pub protocol: i64,
    pub intents: Vec<Intent>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One intent. On the wire it is an object whose `op` member comes first.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum Intent {
    Write {
        path: String,
        content: String,
        #[serde(skip_serializing_if = "String::is_empty")]
        encoding: String,
        #[serde(skip_serializing_if = "is_false")]
        executable: bool,
        /// Compare-and-swap: `"absent"` or `"sha256:<hex>"` of the bytes
        /// the write was computed from; empty for an unconditional write.
        #[serde(skip_serializing_if = "String::is_empty")]
        if_content: String,
        /// Permission bits in octal ("0664"); empty is 0644 (0755 executable).
        #[serde(skip_serializing_if = "String::is_empty")]
        mode: String,
    },
    Delete {
        path: String,
    },
    Rename {
        from: String,
        to: String,
    },
    Fetch {
        url: String,
        dest: String,
        #[serde(skip_serializing_if = "String::is_empty")]
        method: String,
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        headers: BTreeMap<String, String>,
    },
    Clone {
        url: String,
        dest: String,
        #[serde(rename = "ref", skip_serializing_if = "String::is_empty")]
        git_ref: String,
        #[serde(skip_serializing_if = "is_zero")]
        depth: u32,
    },
}

impl File {
    /// The file's bytes, decoding base64 content.
    pub fn bytes(&self) -> Result<Vec<u8>, crate::Error> {
        match self.encoding.as_str() {
            "" | "utf8" => Ok(self.content.as_bytes().to_vec()),
            "base64" => crate::base64::decode(&self.content).ok_or_else(|| {
                crate::Error::new(
                    "plan.encoding",
                    format!("file {:?}: content is not valid base64", self.path),
                )
            }),
            other => Err(crate::Error::new(
                "plan.encoding",
                format!("file {:?}: unknown encoding {:?}", self.path, other),
            )),
        }
    }
}
