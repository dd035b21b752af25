//! The release build of the web app, split by route: the gallery's code in the main
//! wasm, every other page's code in chunks the app fetches when it needs them.
//!
//! trunk cannot split (trunk-rs/trunk#1022), so this does by hand what cargo-leptos
//! does with `--split`, then writes the html trunk would have written:
//!
//! 1. `cargo rustc` on the pinned nightly with the `wasm-release` profile, the app's
//!    `split` feature (its pages become `#[lazy]` split points) and the linker's
//!    relocations kept (`--emit-relocs`), which wasm-split needs to cut the module.
//! 2. wasm-split (the library behind `wasm-split-cli`): the main module, one module per
//!    split point, shared chunks, and `__wasm_split.js`, which fetches and links them.
//! 3. wasm-bindgen (its library) for `--target web` on the main module, keeping the
//!    exports the linker made (`--keep-lld-exports`): the chunks import them.
//! 4. `wasm-opt -Oz` on every module.
//! 5. Every js and wasm file renamed with the build's hash (the server and CDNs cache
//!    such names for good), and their references to each other with them.
//! 6. `index.html` from the project's: the `<base href>`, one minified stylesheet, the files the
//!    page preloads, the module script that starts the app, and its Content-Security-Policy
//!    with the hashes of its inline scripts (`csp.rs`).
//!
//! Besides, the workers ([`WORKERS`]: the boundary-file reader, `crates/shape-worker`, and
//! the bulk download's, `crates/bulk-worker`), built as trunk builds a
//! `data-type="worker"` link: wasm-bindgen's `no-modules` output and the loader that
//! starts it, under the fixed name the app starts it by.
//!
//! `trunk serve` stays the development loop: it reads the same `index.html`, builds
//! without the `split` feature and so gets one unsplit wasm.

use std::collections::BTreeMap;
use std::fs;
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};

use lightningcss::stylesheet::{MinifyOptions, ParserOptions, PrinterOptions, StyleSheet};
use lightningcss::targets::{Browsers, Targets};

use crate::build_target::{Target, size_toolchain};
use crate::exec::{Result, cargo, command, root, run, target_dir, wasm_target_dir};

/// The app's binary, and the stem of its js and main wasm.
const APP: &str = "download-explorer";
/// A web worker the app starts: its package and binary, the stem of its files.
struct Worker {
    name: &'static str,
    /// Built for speed (the bulk worker's md5 is a download's pace) rather than for
    /// size, on stable with its own profile.
    fast: bool,
}

/// The app's web workers: the boundary-file reader and the bulk download's bytes.
const WORKERS: [Worker; 2] = [
    Worker {
        name: "shape-worker",
        fast: false,
    },
    Worker {
        name: "bulk-worker",
        fast: true,
    },
];
/// The module wasm-split makes for the chunks to link through; the main js imports it.
const LINK_MODULE: &str = "__wasm_split.js";
/// What wasm-opt may assume the browser has. The target-features section that would
/// say so is gone by then (wasm-bindgen drops it).
const WASM_FEATURES: [&str; 6] = [
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// Where in `dist` the Welsh build goes (index.html loads it for a Welsh page).
pub const WELSH_DIR: &str = "cy";

/// The English build, what [`build_first`] made: [`build_rest`] adds to it.
#[derive(Debug)]
pub struct FirstBuild {
    english: BTreeMap<String, String>,
    optimized: Vec<PathBuf>,
}

/// The first of the two steps that build the app for `target.public_url` (the second is
/// [`build_rest`]): what a first page needs, the English build into `target.dist`
/// (emptied first) and an index.html that loads it for every page, a Welsh one too until
/// the Welsh build is there. The workers wait: the app starts them only for a shape file
/// or a download.
pub fn build_first(target: &Target) -> Result<FirstBuild> {
    let dist = target.dist.as_path();
    let _ = fs::remove_dir_all(dist);
    fs::create_dir_all(dist)?;
    let (english, optimized) = build_language(None, dist, target.names)?;
    write_html(dist, &target.public_url, &english, None)?;
    Ok(FirstBuild { english, optimized })
}

/// The rest of the app beside [`build_first`]'s: the Welsh build (the `welsh` feature)
/// in [`WELSH_DIR`], the workers, and the index.html that loads the Welsh build for a
/// Welsh page.
pub fn build_rest(target: &Target, first: FirstBuild) -> Result {
    let dist = target.dist.as_path();
    let FirstBuild {
        english,
        mut optimized,
    } = first;
    let (welsh, welsh_optimized) =
        build_language(Some("welsh"), &dist.join(WELSH_DIR), target.names)?;
    optimized.extend(welsh_optimized);
    for worker in &WORKERS {
        optimized.extend(build_worker(worker, dist, target.names)?);
    }
    forget_other_optimizations(&optimized)?;
    write_html(dist, &target.public_url, &english, Some(&welsh))
}

/// One language's build into `out`: its main js and wasm, the chunks and the link
/// module, optimised and named by content. Returns the names it gave, and the
/// optimised modules it keeps ([`optimize_all`]).
fn build_language(
    feature: Option<&str>,
    out: &Path,
    names: bool,
) -> Result<(BTreeMap<String, String>, Vec<PathBuf>)> {
    let work = target_dir().join(format!(
        "wasm-split{}",
        feature.map_or(String::new(), |f| format!("-{f}"))
    ));
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work)?;
    fs::create_dir_all(out)?;
    let linked = compile(feature)?;
    split(&linked, &work)?;
    bindgen(&work.join(format!("{APP}.wasm")), out)?;
    for entry in fs::read_dir(&work)? {
        let path = entry?.path();
        let name = file_name(&path);
        if name == LINK_MODULE || (name.ends_with(".wasm") && name != format!("{APP}.wasm")) {
            fs::copy(&path, out.join(name))?;
        }
    }
    let optimized = optimize_all(&files_ending(out, ".wasm")?, names)?;
    Ok((hash_names(out)?, optimized))
}

/// A worker into `dist`: `<name>-<hash>.js` and `_bg.wasm`, and `<name>_loader.js`, the
/// loader trunk's `data-loader-shim` writes (but with wasm-bindgen's current init
/// argument, which trunk's draws a deprecation warning with), which the app starts the
/// worker by. Returns the optimised module it keeps ([`optimize_all`]).
fn build_worker(worker: &Worker, dist: &Path, names: bool) -> Result<Vec<PathBuf>> {
    let name = worker.name;
    let build = ["build", "--locked", "--target", "wasm32-unknown-unknown"];
    let linked = if worker.fast {
        run(cargo()
            .args(build)
            .args(["--profile", "worker-release", "--package", name]))?;
        target_dir().join(format!("wasm32-unknown-unknown/worker-release/{name}.wasm"))
    } else {
        run(size_toolchain(&mut cargo()).args(build).args([
            "--profile",
            "wasm-release",
            "--package",
            name,
        ]))?;
        wasm_target_dir().join(format!("wasm32-unknown-unknown/wasm-release/{name}.wasm"))
    };
    let work = target_dir().join(name);
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work)?;
    println!("wasm-bindgen {} into {}", linked.display(), work.display());
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&linked)
        .no_modules(true)?
        .typescript(false)
        .out_name(name)
        .generate(&work)
        .map_err(|error| format!("wasm-bindgen: {error:?}"))?;
    let level = if worker.fast { "-O3" } else { "-Oz" };
    let optimized = optimize_all_at(level, &files_ending(&work, ".wasm")?, names)?;
    let hashed = hash_names(&work)?;
    for file in hashed.values() {
        fs::copy(work.join(file), dist.join(file))?;
    }
    let [js, wasm] = [format!("{name}.js"), format!("{name}_bg.wasm")].map(|old| &hashed[&old]);
    // Relative to the loader's own address, so the worker finds its files under any
    // public URL.
    fs::write(
        dist.join(format!("{name}_loader.js")),
        format!(r#"importScripts("./{js}");wasm_bindgen({{module_or_path:"./{wasm}"}});"#),
    )?;
    Ok(optimized)
}

/// The linked wasm, with the relocations wasm-split reads; with `feature` (`welsh`)
/// besides `split`.
fn compile(feature: Option<&str>) -> Result<PathBuf> {
    let features = match feature {
        Some(feature) => format!("split,{feature}"),
        None => "split".to_owned(),
    };
    // The link argument goes to this crate only (`cargo rustc`), so the dependencies
    // built for the same profile are reused.
    run(size_toolchain(&mut cargo()).args([
        "rustc",
        "--locked",
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        "wasm-release",
        "--bin",
        APP,
        "--features",
        &features,
        "--",
        "-Clink-arg=--emit-relocs",
    ]))?;
    Ok(wasm_target_dir().join(format!("wasm32-unknown-unknown/wasm-release/{APP}.wasm")))
}

/// wasm-split, as `wasm-split-cli --out-name download-explorer LINKED WORK` would: the
/// main module, a module per split point, shared chunks and the link module into `work`.
/// Its library, so a fresh machine compiles no separate tool for it.
fn split(linked: &Path, work: &Path) -> Result {
    println!("wasm-split {} into {}", linked.display(), work.display());
    let input = fs::read(linked)?;
    let main_out_path = work.join(format!("{APP}.wasm"));
    let main_module = format!("./{APP}.js");
    let mut options = wasm_split_cli_support::Options::new(&input);
    options.output_dir = work;
    options.main_out_path = &main_out_path;
    options.main_module = &main_module;
    options.target.web();
    wasm_split_cli_support::transform(options).map_err(|error| format!("wasm-split: {error:?}"))?;
    Ok(())
}

/// wasm-bindgen's `--target web --no-typescript --keep-lld-exports` on the main module
/// (the chunks import the exports the linker made), through its library at the version
/// Cargo.lock pins for the `wasm-bindgen` crate.
fn bindgen(main: &Path, dist: &Path) -> Result {
    println!("wasm-bindgen {} into {}", main.display(), dist.display());
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(main)
        .web(true)?
        .typescript(false)
        .keep_lld_exports(true)
        // As the command does: the js finds the wasm beside itself when given no path.
        .omit_default_module_path(false)
        .out_name(APP)
        .generate(dist)
        .map_err(|error| format!("wasm-bindgen: {error:?}"))?;
    Ok(())
}

/// `wasm-opt -Oz` on each module, in place, keeping function names when `names`. It
/// takes minutes, so each result is kept by its input's hash: a build for another
/// public URL (only the html differs) reuses them. Returns the results it used, for
/// [`forget_other_optimizations`].
fn optimize_all(modules: &[PathBuf], names: bool) -> Result<Vec<PathBuf>> {
    optimize_all_at("-Oz", modules, names)
}

/// [`optimize_all`] at wasm-opt's `level` (`-Oz` for size, `-O3` for speed).
fn optimize_all_at(level: &str, modules: &[PathBuf], names: bool) -> Result<Vec<PathBuf>> {
    let cache = target_dir().join("wasm-opt-cache");
    fs::create_dir_all(&cache)?;
    let mut kept = Vec::new();
    for wasm in modules {
        let mut hasher = DefaultHasher::new();
        hasher.write(&fs::read(wasm)?);
        hasher.write_u8(names.into());
        hasher.write(level.as_bytes());
        let cached = cache.join(format!("{:016x}.wasm", hasher.finish()));
        if !cached.is_file() {
            // Written aside and renamed: a wasm-opt cut short (Ctrl-C) leaves no
            // half-written module under the name a later build would trust.
            let writing = cached.with_extension("wasm.part");
            run(command("wasm-opt")
                .args([level, "--strip-producers"])
                .arg(if names {
                    "--debuginfo"
                } else {
                    "--strip-debug"
                })
                .args(WASM_FEATURES)
                .arg(wasm)
                .arg("-o")
                .arg(&writing))?;
            fs::rename(&writing, &cached)?;
        }
        fs::copy(&cached, wasm)?;
        kept.push(cached);
    }
    Ok(kept)
}

/// Removes the kept results of [`optimize_all`] that no module of this build had.
fn forget_other_optimizations(kept: &[PathBuf]) -> Result {
    for entry in fs::read_dir(target_dir().join("wasm-opt-cache"))? {
        let path = entry?.path();
        if !kept.contains(&path) {
            fs::remove_file(path)?;
        }
    }
    Ok(())
}

/// The stylesheet as browsers need it: no comments, no layout, shorthand where it is
/// shorter (about 2 kB less of the first load, brotli). Written for the oldest
/// browsers that can run the app's wasm (reference types: Chrome and Edge 96, Firefox
/// 79, Safari 15), so nothing is rewritten into syntax they lack, such as media query
/// ranges (Safari 16.4).
fn minify_css(css: &str) -> Result<String> {
    let version = |major: u32| Some(major << 16);
    let targets = Targets::from(Browsers {
        chrome: version(96),
        edge: version(96),
        firefox: version(79),
        safari: version(15),
        ios_saf: version(15),
        ..Browsers::default()
    });
    let mut sheet = StyleSheet::parse(css, ParserOptions::default())
        .map_err(|error| format!("the stylesheet does not parse: {error}"))?;
    sheet
        .minify(MinifyOptions {
            targets,
            ..MinifyOptions::default()
        })
        .map_err(|error| format!("cannot minify the stylesheet: {error}"))?;
    let printed = sheet
        .to_css(PrinterOptions {
            minify: true,
            targets,
            ..PrinterOptions::default()
        })
        .map_err(|error| format!("cannot print the stylesheet: {error}"))?;
    Ok(printed.code)
}

/// Renames every js and wasm file in `dist` to `<stem>-<hash>.<ext>`, one hash for the
/// whole build (the js files import each other, so no file's hash could cover its
/// own references), and rewrites their references to each other. Returns the new
/// name of each old one.
fn hash_names(dist: &Path) -> Result<BTreeMap<String, String>> {
    let mut files = files_ending(dist, ".js")?;
    files.extend(files_ending(dist, ".wasm")?);
    files.sort();
    let mut hasher = DefaultHasher::new();
    for file in &files {
        hasher.write(file_name(file).as_bytes());
        hasher.write(&fs::read(file)?);
    }
    let hash = format!("{:016x}", hasher.finish());
    let names: BTreeMap<String, String> = files
        .iter()
        .map(|file| {
            let name = file_name(file);
            let (stem, extension) = name.rsplit_once('.').unwrap_or((name, ""));
            // `app_bg.wasm` becomes `app-<hash>_bg.wasm`, as trunk names it.
            let renamed = match stem.strip_suffix("_bg") {
                Some(stem) => format!("{stem}-{hash}_bg.{extension}"),
                None => format!("{stem}-{hash}.{extension}"),
            };
            (name.to_string(), renamed)
        })
        .collect();
    for file in &files {
        let name = file_name(file);
        if name.ends_with(".js") {
            let text = fs::read_to_string(file)?;
            fs::write(file, rewrite_references(&text, &names))?;
        }
        fs::rename(file, dist.join(&names[name]))?;
    }
    Ok(names)
}

/// `text` with each file it imports or fetches (`from "./app.js"`,
/// `new URL("./chunk_3.wasm", …)`) renamed. Other strings stay: the wasm's import
/// module names, the keys of the imports object, keep the names the wasm was built with.
fn rewrite_references(text: &str, names: &BTreeMap<String, String>) -> String {
    let mut text = text.to_string();
    for (old, new) in names {
        for quote in ['"', '\''] {
            for before in ["from ", "URL("] {
                for prefix in ["./", ""] {
                    text = text.replace(
                        &format!("{before}{quote}{prefix}{old}{quote}"),
                        &format!("{before}{quote}{prefix}{new}{quote}"),
                    );
                }
            }
        }
    }
    text
}

/// The page, from the project's `index.html` (which trunk also reads): its `data-trunk`
/// links become what they stand for.
fn write_html(
    dist: &Path,
    public_url: &str,
    english: &BTreeMap<String, String>,
    welsh: Option<&BTreeMap<String, String>>,
) -> Result {
    let english_messages = messages("en")?;
    let welsh_messages = messages("cy")?;
    let source = fs::read_to_string(root().join("index.html"))
        .map_err(|error| format!("cannot read index.html: {error}"))?;
    let source = without_html_comments(&source);
    let mut css = String::new();
    let mut html = String::new();
    for line in source.lines() {
        let trimmed = line.trim();
        // Comments are for whoever edits the page, not for every visitor's first load;
        // nor is the indentation (0.13 kB brotli): the page has no `<pre>`, and its
        // script ends no statement at a line's start.
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        } else if trimmed.starts_with("<base data-trunk-public-url") {
            html.push_str(&format!("<base href=\"{public_url}\" />\n"));
        } else if trimmed.starts_with("<link data-trunk") {
            let href = attribute(trimmed, "href");
            match attribute(trimmed, "rel").as_deref() {
                Some("css") => {
                    let href = href.ok_or("a css link in index.html has no href")?;
                    // The stylesheet goes where the first css link was.
                    if css.is_empty() {
                        html.push_str("<link rel=\"stylesheet\" href=\"@STYLE@\" />\n");
                    }
                    css.push_str(&fs::read_to_string(root().join(&href))?);
                    css.push('\n');
                }
                Some("copy-file") => {
                    let href = href.ok_or("a copy-file link in index.html has no href")?;
                    let from = root().join(&href);
                    let to = dist.join(file_name(&from));
                    // The stylesheets of pages loaded on demand, minified as the first
                    // load's is.
                    if href.ends_with(".css") {
                        fs::write(to, minify_css(&fs::read_to_string(&from)?)?)?;
                    } else {
                        fs::copy(&from, to)?;
                    }
                }
                // The workers are started by the app, not the page ([`build_worker`]).
                Some("rust") if attribute(trimmed, "data-type").as_deref() == Some("worker") => {}
                Some("rust") => html.push_str(&start_script(english, welsh)?),
                other => {
                    return Err(format!(
                        "index.html: no split-build rule for <link data-trunk rel={other:?}>"
                    )
                    .into());
                }
            }
        } else {
            let line = with_welsh(trimmed, &welsh_messages)?;
            html.push_str(&with_plural_forms(
                &line,
                &english_messages,
                &welsh_messages,
            )?);
            html.push('\n');
        }
    }
    let css = minify_css(&css)?;
    let mut hasher = DefaultHasher::new();
    hasher.write(css.as_bytes());
    let style = format!("style-{:016x}.css", hasher.finish());
    fs::write(dist.join(&style), css)?;
    // The policy last: it hashes the inline scripts as they are served.
    let html = crate::csp::with_policy_meta(&html.replace("@STYLE@", &style))?;
    fs::write(dist.join("index.html"), html)?;
    Ok(())
}

/// `html` without its `<!-- … -->` comments.
fn without_html_comments(html: &str) -> String {
    let mut rest = html;
    let mut kept = String::with_capacity(html.len());
    while let Some(start) = rest.find("<!--") {
        kept.push_str(&rest[..start]);
        rest = rest[start..]
            .find("-->")
            .map_or("", |end| &rest[start + end + 3..]);
    }
    kept.push_str(rest);
    kept
}

/// What starts the app: the build of the page's language (`<html lang>`, which the
/// page's first script set; English while there is no Welsh build), its main wasm
/// preloaded (fetched beside its js), and run.
/// Relative addresses, so they follow the `<base href>` (the wasm's as a string, which
/// `fetch` resolves against the page's base; the js's made absolute first, as WebKit
/// resolves a dynamic `import()` against the page's address, not its base).
fn start_script(
    english: &BTreeMap<String, String>,
    welsh: Option<&BTreeMap<String, String>>,
) -> Result<String> {
    let files = |names: &BTreeMap<String, String>, dir: &str| -> Result<String> {
        let name = |old: &str| {
            names
                .get(old)
                .map(|new| format!("{dir}{new}"))
                .ok_or_else(|| format!("the split build made no {old}"))
        };
        // wasm-split's link module must exist too, though nothing preloads it: the main
        // js imports it, and it arrives long before the wasm.
        name(LINK_MODULE)?;
        Ok(format!(
            "[\"{}\", \"{}\"]",
            name(&format!("{APP}.js"))?,
            name(&format!("{APP}_bg.wasm"))?
        ))
    };
    let english = files(english, "")?;
    let build = match welsh {
        Some(welsh) => format!(
            "document.documentElement.lang === \"cy\"\n? {}\n: {english}",
            files(welsh, &format!("{WELSH_DIR}/"))?
        ),
        None => english,
    };
    Ok(format!(
        r#"<script type="module">
const [js, wasm] = {build};
document.head.append(Object.assign(document.createElement("link"), {{ href: wasm, rel: "preload", as: "fetch", crossOrigin: "", fetchPriority: "low" }}));
const {{ default: init }} = await import(new URL(js, document.baseURI).href);
init({{ module_or_path: wasm }});
</script>
"#
    ))
}

/// Each message of `language`, by `part.key`, from `locales/<language>.json`.
fn messages(language: &str) -> Result<serde_json::Map<String, serde_json::Value>> {
    let text = fs::read_to_string(root().join(format!("locales/{language}.json")))?;
    let catalogue: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text)?;
    let mut messages = serde_json::Map::new();
    for (part, keys) in catalogue {
        if let serde_json::Value::Object(keys) = keys {
            for (key, message) in keys {
                messages.insert(format!("{part}.{key}"), message);
            }
        }
    }
    Ok(messages)
}

/// A line of index.html with its `data-text="part.key"` (the message a word is)
/// replaced by that message's Welsh (`data-cy`), which the page's script puts in place
/// on a Welsh page: the first view is in the page's language from its first frame.
fn with_welsh(line: &str, welsh: &serde_json::Map<String, serde_json::Value>) -> Result<String> {
    let Some(name) = attribute(line, "data-text") else {
        return Ok(line.to_owned());
    };
    let message = welsh
        .get(&name)
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| {
            format!("index.html: data-text=\"{name}\" is no message of locales/cy.json")
        })?;
    let attribute = format!("data-text=\"{name}\"");
    Ok(line.replacen(
        &attribute,
        &format!("data-cy=\"{}\"", escape_attribute(message)),
        1,
    ))
}

/// A line of index.html with its `data-plural="part.key …"` (messages whose words
/// depend on a number) replaced by their plural forms, English in `data-plural` and
/// Welsh in `data-plural-cy`, each a JSON list of `{"one": …, "other": …}` objects
/// (the categories of `Intl.PluralRules`) in the order named.
fn with_plural_forms(
    line: &str,
    english: &serde_json::Map<String, serde_json::Value>,
    welsh: &serde_json::Map<String, serde_json::Value>,
) -> Result<String> {
    let Some(names) = attribute(line, "data-plural") else {
        return Ok(line.to_owned());
    };
    let forms = |messages: &serde_json::Map<String, serde_json::Value>| -> Result<String> {
        let forms = names
            .split_whitespace()
            .map(|name| {
                messages
                    .get(name)
                    .filter(|message| message.is_object())
                    .cloned()
                    .ok_or_else(|| {
                        format!("index.html: data-plural names {name}, no plural message")
                    })
            })
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(escape_attribute(&serde_json::to_string(&forms)?))
    };
    let attribute = format!("data-plural=\"{names}\"");
    Ok(line.replacen(
        &attribute,
        &format!(
            "data-plural=\"{}\" data-plural-cy=\"{}\"",
            forms(english)?,
            forms(welsh)?
        ),
        1,
    ))
}

/// `text` as the value of a double-quoted html attribute.
fn escape_attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The value of `name="…"` in an html tag.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let length = tag[start..].find('"')?;
    Some(tag[start..start + length].to_string())
}

fn files_ending(dir: &Path, suffix: &str) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if file_name(&path).ends_with(suffix) {
            files.push(path);
        }
    }
    Ok(files)
}

fn file_name(path: &Path) -> &str {
    path.file_name()
        .and_then(|name| name.to_str())
        .unwrap_or_default()
}

/// Whether a built file loads on demand (not part of the first load): a chunk, or a
/// worker's.
pub fn is_chunk(name: &str) -> bool {
    (name.ends_with(".wasm") && !name.starts_with(&format!("{APP}-")))
        || WORKERS.iter().any(|worker| name.starts_with(worker.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_comments_leave_the_page() {
        let html =
            "<head>\n  <!-- a note\n  over lines -->\n  <script>// code</script><!--b--><p>c</p>\n";
        assert_eq!(
            without_html_comments(html),
            "<head>\n  \n  <script>// code</script><p>c</p>\n"
        );
    }

    #[test]
    fn references_follow_renamed_files() {
        let names = BTreeMap::from([
            ("chunk_3.wasm".to_string(), "chunk_3-00ff.wasm".to_string()),
            ("app.js".to_string(), "app-00ff.js".to_string()),
        ]);
        let js = r#"import { initSync } from "./app.js"; fetch(new URL("./chunk_3.wasm", u)); x = new URL('chunk_3.wasm', u); imports = { "./app.js": import1 }"#;
        assert_eq!(
            rewrite_references(js, &names),
            r#"import { initSync } from "./app-00ff.js"; fetch(new URL("./chunk_3-00ff.wasm", u)); x = new URL('chunk_3-00ff.wasm', u); imports = { "./app.js": import1 }"#
        );
    }

    #[test]
    fn reads_attributes_of_a_tag() {
        let tag = r#"<link data-trunk rel="css" href="style/main.css" />"#;
        assert_eq!(attribute(tag, "rel").as_deref(), Some("css"));
        assert_eq!(attribute(tag, "href").as_deref(), Some("style/main.css"));
        assert_eq!(attribute(tag, "data-bin"), None);
    }

    #[test]
    fn the_minified_stylesheet_keeps_every_rule_and_drops_the_rest() {
        let css = "/* Why the card is red. */\n.card {\n  color: red;\n}\n\n\
                   @media (max-width: 40rem) {\n  .card { display: grid; }\n}\n";
        let minified = minify_css(css).unwrap();
        assert!(
            !minified.contains("Why") && !minified.contains('\n'),
            "{minified}"
        );
        assert!(minified.contains(".card{color:red}"), "{minified}");
        assert!(
            minified.contains("@media (max-width:40rem){.card{display:grid}}"),
            "{minified}"
        );
    }

    #[test]
    fn plural_messages_are_written_in_each_language_as_json() {
        let catalogue = |text: &str| match serde_json::from_str(text).unwrap() {
            serde_json::Value::Object(messages) => messages,
            _ => unreachable!(),
        };
        let english = catalogue(
            r#"{"a.count": {"one": "{count} <file>", "other": "{count} files"}, "a.title": "Files"}"#,
        );
        let welsh = catalogue(r#"{"a.count": {"one": "{count} ffeil", "two": "{count} ffeil"}}"#);
        let line = r#"<p data-text="a.title" data-plural="a.count">"#;
        assert_eq!(
            with_plural_forms(line, &english, &welsh).unwrap(),
            "<p data-text=\"a.title\" \
             data-plural=\"[{&quot;one&quot;:&quot;{count} &lt;file&gt;&quot;,&quot;other&quot;:&quot;{count} files&quot;}]\" \
             data-plural-cy=\"[{&quot;one&quot;:&quot;{count} ffeil&quot;,&quot;two&quot;:&quot;{count} ffeil&quot;}]\">"
        );
        assert_eq!(with_plural_forms("<p>", &english, &welsh).unwrap(), "<p>");
        // A message that is no plural, or none at all, is the page's mistake.
        for wrong in [
            r#"<p data-plural="a.title">"#,
            r#"<p data-plural="a.none">"#,
        ] {
            assert!(
                with_plural_forms(wrong, &english, &welsh).is_err(),
                "{wrong}"
            );
        }
    }

    #[test]
    fn only_wasm_other_than_the_main_module_is_a_chunk() {
        assert!(is_chunk("chunk_7-0123456789abcdef.wasm"));
        assert!(is_chunk("split_product_page_1-0123456789abcdef.wasm"));
        assert!(!is_chunk("download-explorer-0123456789abcdef_bg.wasm"));
        assert!(!is_chunk("__wasm_split-0123456789abcdef.js"));
        assert!(is_chunk("shape-worker_loader.js"));
        assert!(is_chunk("shape-worker-0123456789abcdef.js"));
        assert!(is_chunk("bulk-worker_loader.js"));
        assert!(is_chunk("bulk-worker-0123456789abcdef_bg.wasm"));
    }
}
