//! Error messages of the JSON layer that name the field: where in the document a syntax
//! error stopped, or which field a type error is about.

use serde::Deserialize;
use serde_json::Value;

use super::{SpecError, WorldSpec};

/// Longest prefix of a found value or a key that a message echoes [characters].
const ECHO_CHARS: usize = 48;

/// `text` cut to `ECHO_CHARS` characters, saying how long it was.
fn clip(text: &str) -> String {
    let n = text.chars().count();
    if n <= ECHO_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(ECHO_CHARS).collect();
    format!("{head}... ({n} characters)")
}

/// `parent.key`; a key that is not a plain word is quoted (and cut short).
fn join_key(parent: &str, key: &str) -> String {
    let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let seg = if plain && key.len() <= ECHO_CHARS {
        key.to_string()
    } else {
        serde_json::to_string(&clip(key)).unwrap_or_else(|_| "\"?\"".into())
    };
    if parent.is_empty() {
        seg
    } else {
        format!("{parent}.{seg}")
    }
}

fn join_index(parent: &str, i: usize) -> String {
    if parent.is_empty() {
        // A document that is an array has no field names: its elements hang off "spec".
        format!("spec.{i}")
    } else {
        format!("{parent}.{i}")
    }
}

fn or_spec(path: String) -> String {
    if path.is_empty() {
        "spec".into()
    } else {
        path
    }
}

/// serde_json's message without its " at line L column C".
fn bare(e: &serde_json::Error) -> String {
    let mut msg = e.to_string();
    if e.line() > 0 {
        if let Some(cut) = msg.rfind(" at line ") {
            msg.truncate(cut);
        }
    }
    msg
}

/// A syntax error: the path of the value the parser was in when it stopped.
pub(super) fn syntax_error(text: &str, e: &serde_json::Error) -> SpecError {
    let offset = byte_offset(text, e.line(), e.column());
    let path = or_spec(path_at(text.as_bytes(), offset));
    let rest = &text.as_bytes()[offset.saturating_sub(1).min(text.len())..];
    let hint = if [&b"NaN"[..], b"Infinity", b"-Infinity"].iter().any(|w| rest.starts_with(w)) {
        "a finite number (JSON has no NaN or Infinity)"
    } else {
        "a JSON document as in docs/world-spec.md"
    };
    SpecError(format!(
        "{path}: not valid JSON ({} at line {} column {}); allowed: {hint}",
        bare(e),
        e.line(),
        e.column()
    ))
}

/// The byte offset of serde_json's (line, column), both counted from 1.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(nl) => start += nl + 1,
            None => break,
        }
    }
    (start + column).min(text.len())
}

enum Frame {
    Object { key: Option<String>, want_key: bool },
    Array { index: usize },
}

/// The path of the value being read at byte `end` of a JSON text that is valid up to there.
fn path_at(b: &[u8], end: usize) -> String {
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        match b[i] {
            b'{' => stack.push(Frame::Object { key: None, want_key: true }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { key, want_key }) => {
                    *key = None;
                    *want_key = true;
                }
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { want_key, .. }) = stack.last_mut() {
                    *want_key = false;
                }
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < end && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if i < end {
                    if let Some(Frame::Object { key, want_key: true }) = stack.last_mut() {
                        *key = Some(String::from_utf8_lossy(&b[start..i]).into_owned());
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object { key: Some(k), .. } => path = join_key(&path, k),
            Frame::Object { key: None, .. } => break,
            Frame::Array { index } => path = join_index(&path, *index),
        }
    }
    path
}

/// A type error (a wrong type, a missing or unknown field): `value` is written again with
/// one value per line, each line's path known, and parsed once more; the line of the error
/// names the field.
pub(super) fn typed_error(value: &Value) -> SpecError {
    let mut lines = Vec::new();
    let mut paths = Vec::new();
    write_lined(value, String::new(), None, &mut lines, &mut paths);
    let e = match serde_json::from_str::<WorldSpec>(&lines.join("\n")) {
        Err(e) => e,
        // The same value parsed; not expected, but never a panic.
        Ok(_) => match WorldSpec::deserialize(value) {
            Err(e) => e,
            Ok(_) => return SpecError("spec: rejected by the JSON layer".into()),
        },
    };
    let path = paths.get(e.line().saturating_sub(1)).cloned().unwrap_or_default();
    let (path, what) = describe(path, &bare(&e));
    SpecError(format!("{}: {what}", or_spec(path)))
}

/// One line per scalar, per opening and per closing bracket; a space ends every line so
/// that an error reported one byte late stays on the line.
fn write_lined(v: &Value, path: String, key: Option<&str>, lines: &mut Vec<String>, paths: &mut Vec<String>) {
    let prefix = match key {
        Some(k) => format!("{}:", serde_json::to_string(k).unwrap_or_else(|_| "\"?\"".into())),
        None => String::new(),
    };
    let close = |lines: &mut Vec<String>, paths: &mut Vec<String>, bracket: &str, path: String| {
        lines.push(format!("{bracket} "));
        paths.push(path);
    };
    match v {
        Value::Object(map) => {
            lines.push(format!("{prefix}{{ "));
            paths.push(path.clone());
            let n = map.len();
            for (i, (k, child)) in map.iter().enumerate() {
                write_lined(child, join_key(&path, k), Some(k), lines, paths);
                if i + 1 < n {
                    if let Some(last) = lines.last_mut() {
                        last.push_str(", ");
                    }
                }
            }
            close(lines, paths, "}", path);
        }
        Value::Array(items) => {
            lines.push(format!("{prefix}[ "));
            paths.push(path.clone());
            let n = items.len();
            for (i, child) in items.iter().enumerate() {
                write_lined(child, join_index(&path, i), None, lines, paths);
                if i + 1 < n {
                    if let Some(last) = lines.last_mut() {
                        last.push_str(", ");
                    }
                }
            }
            close(lines, paths, "]", path);
        }
        scalar => {
            lines.push(format!(
                "{prefix}{} ",
                serde_json::to_string(scalar).unwrap_or_else(|_| "null".into())
            ));
            paths.push(path);
        }
    }
}

/// serde's message as "<what> (found; allowed: ...)", and the path it is about.
fn describe(path: String, msg: &str) -> (String, String) {
    if let Some(rest) = msg.strip_prefix("missing field `") {
        let field = rest.trim_end_matches('`');
        return (join_key(&path, field), "required field is missing".into());
    }
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        let (found, allowed) = rest.split_once("`, ").unwrap_or((rest.trim_end_matches('`'), ""));
        return (path, unknown_field(found, &expected(allowed)));
    }
    if let Some(rest) = msg.strip_prefix("unknown variant `") {
        let (found, allowed) = rest.split_once("`, ").unwrap_or((rest, ""));
        return (path, format!("unknown value {}; allowed: {}", super::quoted(found), expected(allowed)));
    }
    if let Some(rest) = msg.strip_prefix("duplicate field `") {
        return (join_key(&path, rest.trim_end_matches('`')), "given twice; allowed: once".into());
    }
    for (prefix, what) in [
        ("invalid type: ", "wrong type"),
        ("invalid value: ", "out of range"),
        ("invalid length ", "wrong length"),
    ] {
        if let Some(rest) = msg.strip_prefix(prefix) {
            let (found, allowed) = rest.rsplit_once(", expected ").unwrap_or((rest, ""));
            return (path, format!("{what} (got {}); allowed: {}", clip(found), expected(allowed)));
        }
    }
    if msg == "expected value" {
        // An enum given something other than a name (serde_json's words for it).
        let field = path.rsplit('.').next().unwrap_or("");
        let names = ENUM_NAMES.iter().find(|(f, _)| *f == field).map_or("a name", |(_, n)| n);
        return (path, format!("wrong type (not a name); allowed: {names}"));
    }
    (path, clip(msg))
}

/// The names the enum fields not made by `names!` take (docs/world-spec.md); the name
/// families say their own list.
const ENUM_NAMES: [(&str, &str); 2] = [
    ("kind", "udp_saturating, udp_cbr, udp_poisson, udp_onoff, tcp_bulk, tcp_file, clap_file"),
    ("error", "an object with kind none, fer, ber, gilbert or interferer"),
];

/// serde's "expected ..." in words.
/// Past this many characters a list of allowed fields is cut (the rest in docs/world-spec.md).
const MAX_ALLOWED_CHARS: usize = 320;

/// "unknown field; allowed: ...", the nearest allowed name first when one is close (an edit
/// distance of at most a third of its length), a long list cut at a name.
fn unknown_field(found: &str, allowed: &str) -> String {
    let names: Vec<&str> = allowed.split(", ").filter(|n| !n.is_empty()).collect();
    let near = names
        .iter()
        .map(|n| (edit_distance(found, n), *n))
        .min()
        .filter(|&(d, n)| d > 0 && d <= n.len().max(3) / 3);
    let hint = near.map_or(String::new(), |(_, n)| format!(" did you mean {}?", super::quoted(n)));
    let mut list = String::new();
    let mut shown = 0;
    for n in &names {
        if !list.is_empty() && list.len() + n.len() + 2 > MAX_ALLOWED_CHARS {
            break;
        }
        if !list.is_empty() {
            list.push_str(", ");
        }
        list.push_str(n);
        shown += 1;
    }
    if shown < names.len() {
        list.push_str(&format!(" and {} more (docs/world-spec.md)", names.len() - shown));
    }
    format!("unknown field;{hint} allowed: {list}")
}

/// Levenshtein distance between two short names (bytes).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(x != y)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn expected(exp: &str) -> String {
    let exp = exp.trim();
    let words = match exp {
        "u8" => "an integer 0..=255",
        "u16" => "an integer 0..=65535",
        "u32" => "an integer 0..=4294967295",
        "u64" => "an integer 0..=18446744073709551615",
        "f64" => "a number",
        "a sequence" => "an array",
        "variant identifier" => "a string",
        "there are no fields" => "no fields",
        "" => "see docs/world-spec.md",
        _ if exp.starts_with("expected ") => return expected(&exp["expected ".len()..]),
        _ if exp.starts_with("struct ") || exp.starts_with("internally tagged enum") => "an object",
        _ => return exp.trim_start_matches("one of ").replace('`', ""),
    };
    words.to_string()
}
