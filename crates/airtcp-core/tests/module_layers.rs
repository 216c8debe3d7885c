//! The core's modules form layers: a module imports (`crate::x`) only modules below it in
//! [`LAYERS`], except for the upward imports listed in [`KNOWN_UPWARD`], each with the step of
//! the restructuring (issue 32) that removes it. The test fails on a new upward import (a new
//! import cycle, or a module that reaches above its layer) and on a listed import that is gone
//! (then strike it from the list, so that the list only shrinks).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The top-level modules of `src/`, bottom first. `lib` is the crate root (`run_json`).
/// `spec` checks a world description against the models' own tables (TCP's congestion
/// controls, the MAC's rate controls and frame limits, CLAP's parameters), so it sits above
/// `tcp`, `mac`, `xlayer` and `clap`, and the medium, the network and the world are built
/// from it; `summary` reads the finished world, the one module above it.
const LAYERS: &[&str] = &[
    "names", "time", "ids", "rng", "engine", "event", "phy", "channel", "tcp", "mac", "xlayer", "clap",
    "spec", "medium", "mesh", "net", "capture", "trace", "tables", "world", "summary", "lib",
];

/// Upward imports that exist today: (importer, imported, what removes it). None: issue 32
/// removed the last.
const KNOWN_UPWARD: &[(&str, &str, &str)] = &[];

fn module_of(path: &Path, src: &Path) -> String {
    let rel = path.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

/// The modules named by `crate::x` paths in `text` (line comments stripped), including
/// grouped imports `crate::{x, y::z}`.
fn imports(text: &str) -> BTreeSet<String> {
    let code: String =
        text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let mut out = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group's top-level items: split at commas outside nested braces.
            let (mut depth, mut item) = (0usize, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.extend(head(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            out.extend(head(&item));
        } else {
            out.extend(head(rest));
        }
    }
    out
}

/// The module name a path starts with, if it starts with one.
fn head(path: &str) -> Option<String> {
    let name: String = path
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let top: BTreeSet<String> = files.iter().map(|f| module_of(f, &src)).collect();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        // A test file (tests.rs, *_tests.rs) may run the whole crate; it is no layer's code.
        let stem = f.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        if stem == "tests" || stem.ends_with("_tests") {
            continue;
        }
        let m = module_of(f, &src);
        let text = fs::read_to_string(f).expect("readable file");
        let deps = g.entry(m.clone()).or_default();
        for d in imports(&text) {
            // `crate::run_json` and other items of lib.rs belong to the crate root.
            let d = if top.contains(&d) { d } else { "lib".to_string() };
            if d != m {
                deps.insert(d);
            }
        }
    }
    g
}

fn rank(m: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| *l == m)
        .unwrap_or_else(|| panic!("module `{m}` is not in LAYERS: place it in its layer"))
}

#[test]
fn modules_import_only_downward_but_for_the_known_list() {
    let g = graph();
    let mut upward = BTreeSet::new();
    for (m, deps) in &g {
        for d in deps {
            if rank(d) > rank(m) {
                upward.insert((m.clone(), d.clone()));
            }
        }
    }
    let known: BTreeSet<(String, String)> =
        KNOWN_UPWARD.iter().map(|(a, b, _)| (a.to_string(), b.to_string())).collect();
    let new: Vec<_> = upward.difference(&known).collect();
    let gone: Vec<_> = known.difference(&upward).collect();
    assert!(
        new.is_empty(),
        "new upward imports (importer -> imported; a module may import only those below it in \
         LAYERS): {new:?}"
    );
    assert!(gone.is_empty(), "upward imports gone, strike them from KNOWN_UPWARD: {gone:?}");
}

/// Files outside `world/` with an `impl World` block: none (issue 32 moved the last two in).
const KNOWN_IMPL_WORLD: &[&str] = &[];

#[test]
fn only_world_implements_world_but_for_the_known_list() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut found = BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
        if rel.starts_with("world/") {
            continue;
        }
        let text = fs::read_to_string(f).expect("readable file");
        let impl_world = |l: &str| {
            let l = l.trim_start();
            l.starts_with("impl World ") || l.starts_with("impl World{")
        };
        if text.lines().any(impl_world) {
            found.insert(rel);
        }
    }
    let known: BTreeSet<String> = KNOWN_IMPL_WORLD.iter().map(|s| s.to_string()).collect();
    assert_eq!(found, known, "impl World outside world/ (strike a moved file from the list)");
}

#[test]
fn the_layers_name_every_module_once() {
    let g = graph();
    for m in g.keys() {
        rank(m);
    }
    let unique: BTreeSet<_> = LAYERS.iter().collect();
    assert_eq!(unique.len(), LAYERS.len(), "a module listed twice in LAYERS");
}

#[test]
fn the_parser_reads_single_and_grouped_imports() {
    let text = "use crate::mac::Mac;\nuse crate::{phy::{Rate, Mcs}, time::Ns};\n// crate::world\n\
                fn f() { crate::tcp::x(); }";
    let got: Vec<_> = imports(text).into_iter().collect();
    assert_eq!(got, ["mac", "phy", "tcp", "time"]);
}
