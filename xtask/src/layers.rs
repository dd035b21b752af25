//! The rule that every crate reads bottom-up: no module imports, through any chain of
//! `crate::` paths, a module that imports it back. Checked by a test over every crate.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use syn::visit::{self, Visit};

/// Each module of the crate whose source is in `src` (`a::b` for `src/a/b.rs` or
/// `src/a/b/mod.rs`; the root is ``), with the modules its code names by `crate::` paths.
/// Test modules (`#[cfg(test)]`) are left out: a test may use what it likes.
pub fn module_graph(src: &Path) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let mut files = BTreeMap::new();
    collect_files(src, src, &mut files)?;
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    let mut parsed = BTreeMap::new();
    // What each module re-exports from its own modules (`pub use a::Thing` in `m` makes
    // `m::Thing` stand for `m::a`): a path through a re-export leads to where it is.
    let mut reexports = BTreeMap::new();
    for (module, path) in &files {
        let text = fs::read_to_string(path).map_err(|error| format!("{path:?}: {error}"))?;
        let file = syn::parse_file(&text).map_err(|error| format!("{path:?}: {error}"))?;
        let mut paths = CratePaths::default();
        paths.visit_file(&file);
        for (name, from) in &paths.reexported {
            let within = [segments(module), from.clone()].concat();
            if let Some(target) = longest_module(&modules, &within) {
                reexports.insert(child(module, name), target);
            }
        }
        parsed.insert(module.clone(), paths.named);
    }
    let mut graph = BTreeMap::new();
    for (module, paths) in &parsed {
        let uses = paths
            .iter()
            .filter_map(|path| {
                let found = longest_module(&modules, path)?;
                // The segment after the module may be one of its re-exports.
                let through = path
                    .get(segments(&found).len())
                    .and_then(|name| reexports.get(&child(&found, name)));
                Some(through.cloned().unwrap_or(found))
            })
            // A module naming its own parent (often for a re-export) is not a layer edge.
            .filter(|used| used != module && !used.is_empty() && !is_within(module, used))
            .collect();
        graph.insert(module.clone(), uses);
    }
    Ok(graph)
}

/// The groups of modules that import each other in a circle (strongly connected
/// components of more than one module), each sorted.
pub fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reaches = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(module) = todo.pop() {
            for next in graph.get(module).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next);
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> = graph
        .keys()
        .map(|module| (module, reaches(module)))
        .collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for (module, reached) in &reach {
        let group: Vec<String> = reached
            .iter()
            .filter(|other| reach.get(other).is_some_and(|back| back.contains(*module)))
            .cloned()
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

/// Every `.rs` file under `dir` by its module path.
fn collect_files(
    src: &Path,
    dir: &Path,
    files: &mut BTreeMap<String, std::path::PathBuf>,
) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|error| format!("{dir:?}: {error}"))?;
    for entry in entries {
        let path = entry.map_err(|error| error.to_string())?.path();
        if path.is_dir() {
            collect_files(src, &path, files)?;
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let relative = path.strip_prefix(src).map_err(|error| error.to_string())?;
            let mut parts: Vec<String> = relative
                .with_extension("")
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            // Binaries under `src/bin/` are crates of their own.
            if parts.first().is_some_and(|first| first == "bin") {
                continue;
            }
            files.insert(parts.join("::"), path);
        }
    }
    Ok(())
}

/// The longest module path that `path` (the segments after `crate::`) starts with.
fn longest_module(modules: &BTreeSet<String>, path: &[String]) -> Option<String> {
    (0..=path.len())
        .rev()
        .map(|length| path[..length].join("::"))
        .find(|candidate| modules.contains(candidate))
}

/// The segments of a module path (none for the root, ``).
fn segments(module: &str) -> Vec<String> {
    module
        .split("::")
        .filter(|part| !part.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The path of `name` inside `module`.
fn child(module: &str, name: &str) -> String {
    match module {
        "" => name.to_owned(),
        _ => format!("{module}::{name}"),
    }
}

/// Whether `module` is `parent` or lies inside it.
fn is_within(module: &str, parent: &str) -> bool {
    module.starts_with(&format!("{parent}::"))
}

/// The `crate::…` paths a file names, in `use` trees and in code, outside test modules;
/// and what it re-exports from its own modules (`pub use a::b::Thing`: `Thing` from
/// `a::b`).
#[derive(Debug, Default)]
struct CratePaths {
    named: Vec<Vec<String>>,
    reexported: Vec<(String, Vec<String>)>,
}

impl<'ast> Visit<'ast> for CratePaths {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let is_test = item.attrs.iter().any(|attr| {
            attr.path().is_ident("cfg")
                && attr
                    .parse_args::<syn::Ident>()
                    .is_ok_and(|ident| ident == "test")
        });
        if !is_test {
            visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        match &item.tree {
            syn::UseTree::Path(path) if path.ident == "crate" => {
                use_paths(&path.tree, &mut Vec::new(), &mut self.named);
            }
            tree if matches!(item.vis, syn::Visibility::Public(_)) => {
                let mut exported = Vec::new();
                use_paths(tree, &mut Vec::new(), &mut exported);
                for mut path in exported {
                    if let Some(name) = path.pop().filter(|_| !path.is_empty()) {
                        self.reexported.push((name, path));
                    }
                }
            }
            _ => {}
        }
    }

    /// A doc comment's `crate::…` paths (links, names in backticks) count as code's do:
    /// a reader follows them the same way.
    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        if let syn::Meta::NameValue(doc) = &attr.meta
            && doc.path.is_ident("doc")
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &doc.value
        {
            self.named.extend(doc_paths(&text.value()));
        }
        visit::visit_attribute(self, attr);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let mut segments = path
            .segments
            .iter()
            .map(|segment| segment.ident.to_string());
        if segments.next().is_some_and(|first| first == "crate") {
            self.named.push(segments.collect());
        }
        visit::visit_path(self, path);
    }
}

/// The segments after each `crate::` in a doc comment's text.
fn doc_paths(text: &str) -> Vec<Vec<String>> {
    text.split("crate::")
        .skip(1)
        .map(|after| {
            let end = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(after.len());
            after[..end]
                .split("::")
                .filter(|part| !part.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// The paths of a `use crate::…` tree, braces expanded.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, paths: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_paths(&path.tree, prefix, paths);
            prefix.pop();
        }
        syn::UseTree::Name(name) => paths.push([&prefix[..], &[name.ident.to_string()]].concat()),
        syn::UseTree::Rename(rename) => {
            paths.push([&prefix[..], &[rename.ident.to_string()]].concat())
        }
        syn::UseTree::Glob(_) => paths.push(prefix.clone()),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_paths(tree, prefix, paths);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::{cycles, module_graph};
    use crate::exec::root;

    #[test]
    fn every_crate_reads_bottom_up() {
        for src in [
            "crates/download-api/src",
            "crates/explorer-logic/src",
            "crates/area-shapes/src",
            "crates/bulk-worker/src",
            "src",
            "crates/download-server/src",
            "crates/e2e/src",
            "xtask/src",
        ] {
            let graph = module_graph(&root().join(src)).unwrap();
            assert!(graph.len() > 3, "{src}: too few modules found: {graph:?}");
            assert_eq!(cycles(&graph), Vec::<Vec<String>>::new(), "{src}");
        }
    }

    /// The circles in a crate of these files (path under `src`, text).
    fn circles_in(files: &[(&str, &str)]) -> Vec<Vec<String>> {
        let src = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = src.path().join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        cycles(&module_graph(src.path()).unwrap())
    }

    #[test]
    fn a_circle_through_a_use_tree_and_a_path_in_code_is_found() {
        let files = [
            ("lib.rs", "mod a; mod b; mod c; mod d;"),
            ("a.rs", "use crate::{b::{Thing, other}, d};"),
            ("b.rs", "pub fn f() { crate::c::g() }"),
            ("c.rs", "pub fn g() -> crate::a::A { todo!() }"),
            (
                "d.rs",
                "#[cfg(test)]\nmod tests { use crate::a::A; }\npub fn h() {}",
            ),
        ];
        assert_eq!(circles_in(&files), [["a", "b", "c"]]);
    }

    /// A doc comment naming a module is read as code naming it is (a test module's are
    /// not).
    #[test]
    fn a_circle_through_a_doc_comment_is_found() {
        let files = [
            ("lib.rs", "mod a; mod b; mod c;"),
            ("a.rs", "use crate::b::B; pub struct A;"),
            ("b.rs", "//! Used by [`A`](crate::a::A).\npub struct B;"),
            (
                "c.rs",
                "pub struct C;\n#[cfg(test)]\nmod tests {\n    /// Beside `crate::a`.\n    fn t() {}\n}",
            ),
        ];
        assert_eq!(circles_in(&files), [["a", "b"]]);
    }

    /// `a` names `crate::m::Thing`, which `m` re-exports from `m::inner`, which names
    /// `a` back: the re-export hides nothing.
    #[test]
    fn a_circle_through_a_re_export_is_found() {
        let files = [
            ("lib.rs", "mod a; mod m;"),
            ("a.rs", "use crate::m::Thing; pub fn g() {}"),
            ("m.rs", "mod inner; pub use inner::Thing;"),
            (
                "m/inner.rs",
                "pub struct Thing; pub fn f() { crate::a::g() }",
            ),
        ];
        assert_eq!(circles_in(&files), [["a", "m::inner"]]);
    }
}
