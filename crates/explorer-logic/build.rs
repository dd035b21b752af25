//! Turns the message catalogues (`locales/en.json`, `locales/cy.json` at the
//! repository's root) into `text::t`: one module per part of the app, one function per
//! message, holding its English and its Welsh (each build of the app keeps one).
//!
//! The build fails, naming the message, when the two catalogues do not have the same
//! messages in the same order (so a translator reads them side by side), when their
//! placeholders differ, or when a plural has a category its language lacks.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

use serde_json::{Map, Value};

/// The checks, shared with explorer-logic's tests of them.
#[path = "build/checks.rs"]
mod checks;

use checks::{COUNT, Message, check, flatten, is_identifier, placeholders_of};

/// The languages and the CLDR plural categories each has (English first: it is the
/// one compiled in).
const LANGUAGES: [(&str, &[&str]); 2] = [
    ("en", &["one", "other"]),
    ("cy", &["zero", "one", "two", "few", "many", "other"]),
];

/// The parts whose messages load with the feature that shows them, not with the app
/// (`text::later`): features loaded on demand, whose words would otherwise stay in the
/// gallery's first load.
const LATER_PARTS: [&str; 3] = ["shape", "basket", "flaws"];

fn main() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("../../locales");
    let catalogues: Vec<(&str, &[&str], Map<String, Value>)> = LANGUAGES
        .iter()
        .map(|&(code, categories)| {
            let path = dir.join(format!("{code}.json"));
            println!("cargo::rerun-if-changed={}", path.display());
            (code, categories, read(&path))
        })
        .collect();
    let (_, _, english) = &catalogues[0];
    let messages = flatten(english);
    for (code, categories, catalogue) in &catalogues {
        check(code, categories, &messages, &flatten(catalogue));
    }
    let (_, _, welsh) = &catalogues[1];
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("messages.rs");
    fs::write(out, generate(english, &flatten(welsh))).unwrap();
    // Read by `text::later` itself, so that it and `t` do not name each other.
    let parts = PathBuf::from(env::var("OUT_DIR").unwrap()).join("later_parts.rs");
    let list = format!("[&str; {}] = {LATER_PARTS:?}", LATER_PARTS.len());
    fs::write(parts, format!("const LATER_PARTS: {list};\n")).unwrap();
}

fn read(path: &Path) -> Map<String, Value> {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("{} is not a JSON object: {error}", path.display()))
}

fn generate(english: &Map<String, Value>, welsh: &[Message]) -> String {
    let mut code = String::new();

    let mut index = 0;
    for (part, keys) in english {
        assert!(
            is_identifier(part),
            "`{part}` is not a valid part name (a-z, 0-9, _)"
        );
        writeln!(code, "\n/// The `{part}` messages.").unwrap();
        writeln!(code, "pub mod {} {{", identifier(part)).unwrap();
        writeln!(code, "    #[allow(unused_imports)]").unwrap();
        writeln!(
            code,
            "    use crate::text::catalogue::{{Arg, fill, plural, text}};"
        )
        .unwrap();
        let keys = keys.as_object().unwrap();
        let mut sorted: Vec<&String> = keys.keys().collect();
        sorted.sort();
        for (key, value) in keys {
            assert!(
                is_identifier(key),
                "`{part}.{key}` is not a valid key (a-z, 0-9, _)"
            );
            code.push_str(&if LATER_PARTS.contains(&part.as_str()) {
                let place = sorted.iter().position(|k| *k == key).unwrap();
                later_function(part, place, key, value)
            } else {
                function(key, value, welsh[index].value)
            });
            index += 1;
        }
        writeln!(code, "}}").unwrap();
    }
    code
}

/// One message's function.
fn function(key: &str, value: &Value, welsh: &Value) -> String {
    let name = identifier(key);
    let args = placeholders_of(value);
    let (params, pairs) = parameters(value);
    let doc = doc_of(value);
    match value {
        Value::String(text) if args.is_empty() => format!(
            "    /// {doc}\n    pub fn {name}() -> &'static str {{\n        text({text:?}, {:?})\n    }}\n",
            welsh.as_str().unwrap_or(text)
        ),
        Value::String(text) => format!(
            "    /// {doc}\n    pub fn {name}({}) -> String {{\n        fill({text:?}, {:?}, &[{}])\n    }}\n",
            params.join(", "),
            welsh.as_str().unwrap_or(text),
            pairs.join(", ")
        ),
        Value::Object(forms) => {
            assert!(
                args.contains(COUNT),
                "the plural `{key}` needs a `{{{COUNT}}}` to choose its form by"
            );
            let form = |category: &str| {
                forms
                    .get(category)
                    .or_else(|| forms.get("other"))
                    .and_then(Value::as_str)
                    .unwrap_or_else(|| panic!("the plural `{key}` has no `other` form"))
            };
            let welsh_forms: Vec<String> = ["zero", "one", "two", "few", "many", "other"]
                .iter()
                .map(
                    |category| match welsh.get(category).and_then(Value::as_str) {
                        Some(form) => format!("Some({form:?})"),
                        None => "None".to_owned(),
                    },
                )
                .collect();
            format!(
                "    /// {doc}\n    pub fn {name}({}) -> String {{\n        plural(count, [{:?}, {:?}], [{}], &[{}])\n    }}\n",
                params.join(", "),
                form("one"),
                form("other"),
                welsh_forms.join(", "),
                pairs.join(", ")
            )
        }
        _ => unreachable!("checked"),
    }
}

/// A message's parameters (`count: usize, name: impl Display`) and the placeholder
/// pairs its function passes on (`("count", Arg::Count(count))`).
fn parameters(value: &Value) -> (Vec<String>, Vec<String>) {
    placeholders_of(value)
        .iter()
        .map(|arg| {
            if arg == COUNT && value.is_object() {
                (
                    format!("{arg}: usize"),
                    format!("({arg:?}, Arg::Count({arg}))"),
                )
            } else {
                let name = identifier(arg);
                (
                    format!("{name}: impl core::fmt::Display"),
                    format!("({arg:?}, Arg::Text(&{name}))"),
                )
            }
        })
        .unzip()
}

/// A message's doc comment: its English (a plural's `other` form).
fn doc_of(value: &Value) -> String {
    let doc = match value {
        Value::String(text) => text.clone(),
        _ => value
            .get("other")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
    };
    doc.replace('\n', " ")
}

/// One message's function in a part that loads later: it reads the message loaded at
/// run time by its place (`place`) among the part's keys in alphabetical order.
fn later_function(part: &str, place: usize, key: &str, value: &Value) -> String {
    let name = identifier(key);
    let (params, pairs) = parameters(value);
    let doc = doc_of(value);
    let later = "crate::text::later";
    match value {
        Value::String(_) if params.is_empty() => format!(
            "    /// {doc}\n    pub fn {name}() -> String {{\n        {later}::text({part:?}, {place})\n    }}\n"
        ),
        Value::String(_) => format!(
            "    /// {doc}\n    pub fn {name}({}) -> String {{\n        {later}::fill({part:?}, {place}, &[{}])\n    }}\n",
            params.join(", "),
            pairs.join(", ")
        ),
        Value::Object(_) => format!(
            "    /// {doc}\n    pub fn {name}({}) -> String {{\n        {later}::plural({part:?}, {place}, count, &[{}])\n    }}\n",
            params.join(", "),
            pairs.join(", ")
        ),
        _ => unreachable!("checked"),
    }
}

/// A name as a Rust identifier (`type` becomes `r#type`).
fn identifier(name: &str) -> String {
    const KEYWORDS: [&str; 12] = [
        "as", "break", "const", "fn", "for", "if", "impl", "in", "loop", "mod", "move", "type",
    ];
    if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_owned()
    }
}
