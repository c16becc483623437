// Guest SDK for Lola extensions in AssemblyScript.
//
// An extension registers one handler that turns a Request into intents on a
// PlanBuilder; it never performs an effect. The entry file re-exports the
// five ABI functions from here and is built twice from one source:
//   tier 1: asc --transform json-as --exportStart _initialize
//           --use abort=assembly/lola/lolaAbort  (one import: WASI fd_write;
//           an abort writes its message and location to stderr, then traps)
//   tier 2: wasm2c on that module, compiled with gcc and native/main.c.
//
// Errors: AssemblyScript has no exceptions. A builder call the host would
// refuse records the error (rule and detail) and makes lola_run return 2;
// a request that is not valid JSON traps inside json-as, which the host
// reports as a trap. Memory: the request buffer from lola_alloc stays valid
// for the call; the plan buffer stays valid until the next lola_run or the
// instance is discarded. Both are held by globals, so the GC keeps them.
import { JSON } from "json-as";
import { sha256Hex, base64Bytes } from "./sha256";

export const ABI_VERSION: i32 = 1;
export const PROTOCOL: i32 = 1;

export const STATUS_OK: i32 = 0;
export const STATUS_BAD_REQUEST: i32 = 1;
export const STATUS_HANDLER_ERROR: i32 = 2;
export const STATUS_PLAN_ENCODING: i32 = 3; // the shared table (docs/abi.md); unused here
export const STATUS_NO_HANDLER: i32 = 4;
export const STATUS_HANDLER_PANIC: i32 = 5; // the shared table; AssemblyScript aborts trap instead

@json
export class File {
  path: string = "";
  content: string = "";
  @optional
  encoding: string = "";
  // Whether the module's file is executable (a script); writeFile keeps it.
  @optional
  executable: bool = false;
  // The stored file's permission bits in octal ("0664") when not 0644
  // (0755 executable); copyFile carries them, so a 0664 source installs
  // as 0664.
  @optional
  mode: string = "";
}

// RawObject is a JSON object kept as the text the request spells it with
// (an MCP server's config: key order and values as the author wrote them).
@json
export class RawObject {
  text: string = "{}";

  @serializer("object")
  serializer(self: RawObject): string {
    return self.text;
  }

  @deserializer("object")
  deserializer(data: string): RawObject {
    const r = new RawObject();
    r.text = data;
    return r;
  }
}

// One skill of a module's inventory: the folder it installs as and its
// files (SKILL.md among them; dir "" for a single-skill module).
@json
export class InvSkill {
  name: string = "";
  @optional
  description: string = "";
  dir: string = "";
  files: string[] = [];
}

@json
export class InvCommand {
  name: string = "";
  @optional
  description: string = "";
  @optional
  argumentHint: string = "";
  path: string = "";
  @optional
  sidecar: string[] = [];
}

@json
export class InvAgent {
  name: string = "";
  @optional
  description: string = "";
  @optional
  model: string = "";
  path: string = "";
}

@json
export class InvServer {
  name: string = "";
  config: RawObject = new RawObject();
}

// What a module holds, as the host's module store discovered it; every
// path names an entry of the module's files (inventory.ts checks).
@json
export class ModuleInventory {
  @optional
  singleSkill: bool = false;
  skills: InvSkill[] = [];
  commands: InvCommand[] = [];
  agents: InvAgent[] = [];
  @optional
  instructions: string = "";
  mcpServers: InvServer[] = [];
}

@json
export class Module {
  name: string = "";
  @optional
  version: string = "";
  @optional
  files: File[] = [];
  // Absent from requests of hosts that predate it: inventoryOf refuses those.
  @optional
  inventory: ModuleInventory | null = null;
}

@json
export class Request {
  protocol: i32 = 0;
  operation: string = "";
  @optional
  assistant: string = "";
  @optional
  scope: string = "";
  @optional
  modules: Module[] = [];
  // The current content of the files the manifest names as managed.
  @optional
  current: File[] = [];
  // The managed files of current that lola created under this root: only
  // such a file may be deleted once lola's part of it is gone; a managed
  // file the user had is written back, however empty.
  @optional
  created: string[] = [];

  // lolaCreated reports whether lola created the managed file at path.
  lolaCreated(path: string): bool {
    for (let i = 0; i < this.created.length; i++) if (this.created[i] == path) return true;
    return false;
  }
}

// quote renders s as a JSON string with the minimal escaping every SDK
// shares: quote, backslash, and control characters; nothing else.
export function quote(s: string): string {
  const b = new Utf8Buf(s.length + 2);
  b.quoted(s);
  return String.UTF8.decodeUnsafe(b.data, <usize>b.len);
}

// Utf8Buf is a growing UTF-8 byte buffer the plan is written into as it is
// built, so the plan costs its own bytes once and every string is escaped
// in one pass: a plan built by concatenating strings (each member, each
// intent, then the join, then the UTF-8 encoding) copied a large file's
// content again at every escape and held the plan four times over, which
// a 20 MiB module turned into minutes and the memory ceiling.
export class Utf8Buf {
  data: usize = 0;
  len: i32 = 0;
  cap: i32 = 0;
  private buf: ArrayBuffer = new ArrayBuffer(0);

  constructor(capacity: i32) {
    this.grow(capacity < 64 ? 64 : capacity);
  }

  private grow(want: i32): void {
    let cap = this.cap < 64 ? 64 : this.cap;
    while (cap < want) cap = cap > 0x3fffffff ? 0x7fffffff : cap << 1;
    const next = new ArrayBuffer(cap);
    if (this.len > 0) memory.copy(changetype<usize>(next), this.data, <usize>this.len);
    this.buf = next;
    this.data = changetype<usize>(next);
    this.cap = cap;
  }

  // reserve makes room for n more bytes.
  @inline
  reserve(n: i32): void {
    if (this.len + n > this.cap) this.grow(this.len + n);
  }

  @inline
  byte(c: i32): void {
    store<u8>(this.data + <usize>this.len, <u8>c);
    this.len++;
  }

  // ascii appends s, which must be ASCII (the SDK's own punctuation).
  ascii(s: string): void {
    this.reserve(s.length);
    for (let i = 0; i < s.length; i++) this.byte(s.charCodeAt(i));
  }

  // quoted appends s as a JSON string in UTF-8, escaped as quote says. A
  // lone surrogate, which UTF-8 cannot carry, becomes U+FFFD.
  quoted(s: string): void {
    const n = s.length;
    // Room for the plain case (one byte a unit) up front; a unit takes at
    // most 6 bytes (a control character as \u00XX), so the loop makes room
    // for the rest only when fewer than 6 bytes are left.
    this.reserve(n + 2);
    this.byte(0x22);
    const p = changetype<usize>(s);
    for (let i = 0; i < n; i++) {
      if (this.len + 6 > this.cap) this.grow(this.len + 6 + (n - i) + 1);
      const c = <i32>load<u16>(p + (<usize>i << 1));
      if (c >= 0x20 && c < 0x80) {
        if (c == 0x22 || c == 0x5c) this.byte(0x5c);
        this.byte(c);
      } else if (c < 0x20) {
        this.byte(0x5c);
        if (c == 0x0a) this.byte(0x6e);
        else if (c == 0x0d) this.byte(0x72);
        else if (c == 0x09) this.byte(0x74);
        else if (c == 0x08) this.byte(0x62);
        else if (c == 0x0c) this.byte(0x66);
        else {
          this.byte(0x75); this.byte(0x30); this.byte(0x30);
          this.byte(c < 0x10 ? 0x30 : 0x31);
          const d = c & 15;
          this.byte(d < 10 ? 0x30 + d : 0x61 + d - 10);
        }
      } else if (c < 0x800) {
        this.byte(0xc0 | (c >> 6));
        this.byte(0x80 | (c & 0x3f));
      } else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n && (<i32>load<u16>(p + (<usize>(i + 1) << 1)) & 0xfc00) == 0xdc00) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (<i32>load<u16>(p + (<usize>(i + 1) << 1)) - 0xdc00);
        i++;
        this.byte(0xf0 | (cp >> 18));
        this.byte(0x80 | ((cp >> 12) & 0x3f));
        this.byte(0x80 | ((cp >> 6) & 0x3f));
        this.byte(0x80 | (cp & 0x3f));
      } else {
        const cp = c >= 0xd800 && c < 0xe000 ? 0xfffd : c;
        this.byte(0xe0 | (cp >> 12));
        this.byte(0x80 | ((cp >> 6) & 0x3f));
        this.byte(0x80 | (cp & 0x3f));
      }
    }
    this.reserve(1);
    this.byte(0x22);
  }

  // member appends ,"name":value with value quoted.
  member(name: string, value: string): void {
    this.ascii(',"' + name + '":');
    this.quoted(value);
  }

  // take hands the buffer over (it stays valid while referenced).
  take(): ArrayBuffer {
    return this.buf;
  }
}

// PlanBuilder writes intents, in order, straight into the plan's UTF-8
// bytes, each with "op" first and members in the protocol's field order.
// Building costs time and memory linear in the plan's size.
export class PlanBuilder {
  private out: Utf8Buf;
  private count: i32 = 0;
  // The first refusal, spelled "rule: detail"; "" while none.
  error: string = "";

  // sizeHint, when known (the request's length), sizes the buffer once
  // for a target whose plan copies the request's files.
  constructor(sizeHint: i32 = 0) {
    this.out = new Utf8Buf(sizeHint + 64);
    this.out.ascii('{"protocol":1,"intents":[');
  }

  private refuse(rule: string, detail: string): bool {
    if (this.error == "") this.error = rule + ": " + detail;
    return false;
  }

  // open starts an intent: {"op":"OP"
  private open(op: string): void {
    this.out.ascii(this.count == 0 ? '{"op":"' : ',{"op":"');
    this.out.ascii(op);
    this.out.ascii('"');
    this.count++;
  }

  // fail records an extension's own failure, spelled "rule: detail" (the
  // first one wins) and makes lola_run return 2, or 1 when the rule starts
  // with "request." (see badRequest).
  fail(why: string): bool {
    if (this.error == "") this.error = why;
    return false;
  }

  // badRequest refuses the request itself rather than failing: a module
  // without the inventory the target needs, a scope or operation it cannot
  // serve. lola_run then returns 1 (STATUS_BAD_REQUEST, "bad-request" in
  // docs/abi.md) and stderr names "request.invalid", as sdk-go's BadRequest
  // and sdk-rust's Error::bad_request do. Return from the handler after it:
  // no plan is emitted.
  badRequest(detail: string): bool {
    return this.fail("request.invalid: " + detail);
  }

  private ok(path: string): bool {
    const why = checkPath(path);
    if (why == "") return this.error == "";
    const colon = why.indexOf(":");
    return this.refuse(why.substring(0, colon), why.substring(colon + 2));
  }

  write(path: string, content: string): bool {
    if (!this.ok(path)) return false;
    this.open("write");
    this.out.member("path", path);
    this.out.member("content", content);
    this.out.ascii("}");
    return true;
  }

  // rewrite writes text at path computed from before, the request's
  // current file there (null: it had none), for a file the user also edits
  // (a managed instructions file, an MCP configuration). The write carries
  // if_content (the SHA-256 of before's bytes, or "absent"), so the host
  // refuses the whole plan (conflict.changed) rather than overwrite an
  // edit made since the request was built.
  rewrite(path: string, content: string, before: File | null): bool {
    if (!this.ok(path)) return false;
    this.open("write");
    this.out.member("path", path);
    this.out.member("content", content);
    this.out.member("if_content", ifContentOf(before));
    this.out.ascii("}");
    return true;
  }

  // Writes a request file at path in the file's own encoding, unchanged.
  // The file's executable bit is not carried: copyFile does that.
  writeFile(path: string, f: File): bool {
    return this.putFile(path, f, false, "");
  }

  // Copies a module file to path as it is: its bytes in its own encoding,
  // its executable bit (scripts stay executable) and its mode when the
  // host names one (a 0664 source installs as 0664).
  copyFile(path: string, f: File): bool {
    return this.putFile(path, f, f.executable, f.mode);
  }

  private putFile(path: string, f: File, executable: bool, mode: string): bool {
    if (!this.ok(path)) return false;
    if (mode != "") {
      const bits = modeBits(mode);
      if (bits < 0) return this.refuse("plan.mode", "mode " + mode + " is not permission bits: 3 or 4 octal digits, at most 0777");
      if (((bits & 0o111) != 0) != executable) return this.refuse("plan.mode", "mode " + mode + " contradicts executable");
    }
    if (f.encoding != "" && f.encoding != "utf8" && f.encoding != "base64") {
      return this.refuse("plan.encoding", "unknown encoding " + f.encoding);
    }
    if (f.encoding == "base64" && !isBase64(f.content)) {
      return this.refuse("plan.encoding", "file " + f.path + ": content is not valid base64");
    }
    this.open("write");
    this.out.member("path", path);
    this.out.member("content", f.content);
    if (f.encoding == "base64") this.out.member("encoding", "base64");
    if (executable) this.out.ascii(',"executable":true');
    if (mode != "") this.out.member("mode", mode);
    this.out.ascii("}");
    return true;
  }

  delete(path: string): bool {
    if (!this.ok(path)) return false;
    this.open("delete");
    this.out.member("path", path);
    this.out.ascii("}");
    return true;
  }

  rename(from: string, to: string): bool {
    if (!this.ok(from) || !this.ok(to)) return false;
    this.open("rename");
    this.out.member("from", from);
    this.out.member("to", to);
    this.out.ascii("}");
    return true;
  }

  fetch(url: string, dest: string): bool {
    if (!url.startsWith("https://")) return this.refuse("remote.scheme", "fetch is https only");
    if (!this.ok(dest)) return false;
    this.open("fetch");
    this.out.member("url", url);
    this.out.member("dest", dest);
    this.out.member("method", "GET");
    this.out.ascii("}");
    return true;
  }

  clone(url: string, dest: string, ref: string, depth: i32): bool {
    if (!url.startsWith("https://") && !url.startsWith("ssh://")) {
      return this.refuse("remote.scheme", "clone is https or ssh only");
    }
    if (!this.ok(dest)) return false;
    this.open("clone");
    this.out.member("url", url);
    this.out.member("dest", dest);
    if (ref != "") this.out.member("ref", ref);
    if (depth > 0) this.out.ascii(',"depth":' + depth.toString());
    this.out.ascii("}");
    return true;
  }

  // intentCount is the number of intents so far.
  intentCount(): i32 {
    return this.count;
  }

  // finish closes the plan and returns its UTF-8 bytes: the buffer itself
  // (its first length() bytes), never a copy. Call it once, last.
  finish(): ArrayBuffer {
    this.out.ascii("]}");
    return this.out.take();
  }

  // length is the plan's length in bytes (after finish).
  length(): i32 {
    return this.out.len;
  }

  // toJSON is the plan so far as a string, before finish (for tests; it
  // copies).
  toJSON(): string {
    return String.UTF8.decodeUnsafe(this.out.data, <usize>this.out.len) + "]}";
  }
}

const FORBIDDEN = '\\<>:"|?*';

function reserved(comp: string): bool {
  const dot = comp.indexOf(".");
  const stem = (dot < 0 ? comp : comp.substring(0, dot)).trimEnd().toUpperCase();
  if (stem == "CON" || stem == "PRN" || stem == "AUX" || stem == "NUL" || stem == "CONIN$" || stem == "CONOUT$") return true;
  if ((stem.startsWith("COM") || stem.startsWith("LPT")) && stem.length == 4) {
    const c = stem.charCodeAt(3);
    return (c >= 0x31 && c <= 0x39) || c == 0xb9 || c == 0xb2 || c == 0xb3;
  }
  return false;
}

// checkPath returns "" for a path the host's lexical rules accept, or
// "rule: detail" naming the rule it breaks.
export function checkPath(p: string): string {
  if (p.length == 0) return "path.invalid: empty path";
  const c0 = p.charCodeAt(0);
  const isLetter = (c0 >= 0x41 && c0 <= 0x5a) || (c0 >= 0x61 && c0 <= 0x7a);
  if (c0 == 0x2f || c0 == 0x5c || (p.length >= 2 && isLetter && p.charCodeAt(1) == 0x3a)) {
    return "path.absolute: " + p;
  }
  const comps = p.split("/");
  for (let i = 0; i < comps.length; i++) {
    if (comps[i] == "..") return "path.traversal: " + p;
  }
  // The host's bounds (schema/lexical), in UTF-8 bytes: 255 per component
  // fits every supported filesystem, and Linux refuses a path argument of
  // PATH_MAX (4096) bytes or more.
  if (String.UTF8.byteLength(p) >= 4096) return "path.invalid: longer than 4095 bytes";
  for (let i = 0; i < comps.length; i++) {
    const c = comps[i];
    if (String.UTF8.byteLength(c) > 255) return "path.invalid: a component longer than 255 bytes in " + p;
    if (c.length == 0 || c == ".") return "path.invalid: empty or '.' component in " + p;
    for (let j = 0; j < c.length; j++) {
      const ch = c.charCodeAt(j);
      if (ch < 0x20 || (ch >= 0x7f && ch <= 0x9f) || FORBIDDEN.indexOf(c.charAt(j)) >= 0) {
        return "path.invalid: a character Windows forbids in " + p;
      }
    }
    const last = c.charCodeAt(c.length - 1);
    if (last == 0x2e || last == 0x20) return "path.invalid: trailing dot or space in " + p;
    if (reserved(c)) return "path.invalid: a Windows reserved device name in " + p;
  }
  return "";
}

// The one import: WASI's fd_write, for diagnostics on stderr, which the host
// shows as the extension's diagnostics (the shim provides WASI; the native
// build's main.c implements it over stderr).
@external("wasi_snapshot_preview1", "fd_write")
declare function fd_write(fd: u32, iovs: usize, iovsLen: u32, written: usize): u32;

function diagnose(msg: string): void {
  const buf = String.UTF8.encode(msg + "\n");
  const iov = new ArrayBuffer(8);
  store<u32>(changetype<usize>(iov), <u32>changetype<usize>(buf));
  store<u32>(changetype<usize>(iov) + 4, <u32>buf.byteLength);
  const written = new ArrayBuffer(4);
  fd_write(2, changetype<usize>(iov), 1, changetype<usize>(written));
}

// b64 reports whether c is a character of the standard base64 alphabet.
@inline
function b64(c: i32): bool {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c == 0x2b || c == 0x2f;
}

// ifContentOf is the if_content of a write computed from f: "absent"
// when there was no file, else "sha256:" and the hex SHA-256 of its bytes
// (decoded from base64 when so carried).
export function ifContentOf(f: File | null): string {
  if (f == null) return "absent";
  const file = f!;
  const bytes = file.encoding == "base64" && isBase64(file.content) ? base64Bytes(file.content) : Uint8Array.wrap(String.UTF8.encode(file.content));
  return "sha256:" + sha256Hex(bytes);
}

// isBase64 reports whether s is padded standard base64 (RFC 4648 section
// 4), in one pass without allocating (a module's binaries are megabytes).
export function isBase64(s: string): bool {
  const n = s.length;
  if (n % 4 != 0) return false;
  const p = changetype<usize>(s);
  let end = n;
  if (n > 0 && load<u16>(p + (<usize>(n - 1) << 1)) == 0x3d) end--;
  if (end < n && end > 0 && load<u16>(p + (<usize>(end - 1) << 1)) == 0x3d) end--;
  for (let i = 0; i < end; i++) {
    if (!b64(<i32>load<u16>(p + (<usize>i << 1)))) return false;
  }
  return true;
}

let handler: ((req: Request, plan: PlanBuilder) => void) | null = null;
let requestBuf = new ArrayBuffer(0);
let planBuf = new ArrayBuffer(0);
let planLen: i32 = 0;

// register installs the extension's handler; call it at the entry file's top level.
export function register(h: (req: Request, plan: PlanBuilder) => void): void {
  handler = h;
}

// lolaAbort replaces AssemblyScript's abort (--use abort=...lolaAbort): a
// throw, a failed assertion or an out-of-memory abort writes its message
// and location to stderr ("lola: abort: MSG at FILE:LINE:COL"), then traps,
// which the host reports. (abort cannot read a module global: it may run
// before they are initialized. An abort while reporting one, from the
// allocator when memory is exhausted, recurses until the wasm stack
// overflows, which also traps.)
export function lolaAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  const m = message === null ? "(no message)" : changetype<string>(message);
  const f = fileName === null ? "(unknown)" : changetype<string>(fileName);
  diagnose("lola: abort: " + m + " at " + f + ":" + line.toString() + ":" + column.toString());
  unreachable();
}

export const LOG_DEBUG: i32 = 0;
export const LOG_INFO: i32 = 1;
export const LOG_WARN: i32 = 2;
export const LOG_ERROR: i32 = 3;
// A log line is cut at MAX_LOG_LINE characters; past MAX_LOG_BYTES in one
// run further lines are dropped, with one line saying so (docs/abi.md).
export const MAX_LOG_LINE: i32 = 4096;
export const MAX_LOG_BYTES: i32 = 49152;
let logWritten: i32 = 0;

// log writes "lola: LEVEL: msg" to stderr, in both tiers; newlines in msg
// are escaped so one call is one line. It never touches the plan.
export function log(level: i32, msg: string): void {
  const name = level == LOG_DEBUG ? "debug" : level == LOG_WARN ? "warn" : level == LOG_ERROR ? "error" : "info";
  let line = "lola: " + name + ": " + msg.replaceAll("\r", "\\r").replaceAll("\n", "\\n");
  if (line.length > MAX_LOG_LINE) line = line.substring(0, MAX_LOG_LINE - 6) + " [cut]";
  if (logWritten + line.length + 1 > MAX_LOG_BYTES) {
    if (logWritten <= MAX_LOG_BYTES) {
      diagnose("lola: warn: log limit reached; further log lines are dropped");
      logWritten = MAX_LOG_BYTES + 1;
    }
    return;
  }
  logWritten += line.length + 1;
  diagnose(line);
}

export function lola_abi_version(): i32 {
  return ABI_VERSION;
}

export function lola_alloc(size: i32): usize {
  requestBuf = new ArrayBuffer(size < 0 ? 0 : size);
  return changetype<usize>(requestBuf);
}

export function lola_run(ptr: usize, len: i32): i32 {
  planBuf = new ArrayBuffer(0);
  planLen = 0;
  if (ptr != changetype<usize>(requestBuf) || len < 0 || len > requestBuf.byteLength) {
    diagnose("lola_run: request is not in the buffer lola_alloc returned");
    return STATUS_BAD_REQUEST;
  }
  if (handler == null) {
    diagnose("lola: no handler registered (call register at top level)");
    return STATUS_NO_HANDLER;
  }
  const req = JSON.parse<Request>(String.UTF8.decodeUnsafe(ptr, <usize>len));
  requestBuf = new ArrayBuffer(0);
  if (req.protocol != PROTOCOL) {
    diagnose("lola: request protocol " + req.protocol.toString() + " (this SDK speaks 1)");
    return STATUS_BAD_REQUEST;
  }
  const plan = new PlanBuilder(len);
  const h = handler!;
  h(req, plan);
  if (plan.error != "") {
    diagnose(plan.error);
    // A handler that finds the request itself wanting (a "request.*" rule,
    // e.g. a module without the inventory it needs) reports a bad request.
    return plan.error.startsWith("request.") ? STATUS_BAD_REQUEST : STATUS_HANDLER_ERROR;
  }
  planBuf = plan.finish();
  planLen = plan.length();
  return STATUS_OK;
}

export function lola_plan_ptr(): usize {
  return changetype<usize>(planBuf);
}

export function lola_plan_len(): i32 {
  return planLen;
}

// modeBits reads a write's mode as the host does: 3 or 4 octal digits, a
// 4-digit one starting with 0 (at most 0777: no setuid, setgid or sticky
// bit); -1 for anything else.
function modeBits(mode: string): i32 {
  let s = mode;
  if (s.length == 4 && s.charAt(0) == "0") s = s.substring(1);
  if (s.length != 3) return -1;
  let bits: i32 = 0;
  for (let i = 0; i < 3; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 55) return -1;
    bits = (bits << 3) | (c - 48);
  }
  return bits;
}
