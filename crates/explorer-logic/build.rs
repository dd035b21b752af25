//! Turns the message catalogues (`locales/en.json`, `locales/cy.json` at the
//! repository's root) into `text::t`: one module per part of the app, one function per
//! message, returning the English written here or the Welsh loaded at run time.
//!
//! The build fails, naming the message, when the two catalogues do not have the same
//! messages in the same order (the app reads the Welsh file in order, by position), when
//! their placeholders differ, or when a plural has a category its language lacks.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

use serde_json::{Map, Value};

/// The languages and the CLDR plural categories each has (English first: it is the
/// one compiled in).
const LANGUAGES: [(&str, &[&str]); 2] = [
    ("en", &["one", "other"]),
    ("cy", &["zero", "one", "two", "few", "many", "other"]),
];

/// The placeholder a plural message chooses its form by.
const COUNT: &str = "count";

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
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("messages.rs");
    fs::write(out, generate(english, &messages)).unwrap();
}

fn read(path: &Path) -> Map<String, Value> {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("{} is not a JSON object: {error}", path.display()))
}

/// A message: its `part.key` name and its text, or its plural forms by category.
struct Message<'a> {
    name: String,
    value: &'a Value,
}

/// The catalogue's messages in file order (serde_json keeps it: `preserve_order`).
fn flatten(catalogue: &Map<String, Value>) -> Vec<Message<'_>> {
    let mut messages = Vec::new();
    for (part, keys) in catalogue {
        let Value::Object(keys) = keys else {
            panic!("`{part}` must be an object of messages");
        };
        for (key, value) in keys {
            messages.push(Message {
                name: format!("{part}.{key}"),
                value,
            });
        }
    }
    messages
}

fn check(code: &str, categories: &[&str], english: &[Message], messages: &[Message]) {
    for (index, message) in messages.iter().enumerate() {
        let Some(expected) = english.get(index) else {
            panic!(
                "locales/{code}.json: `{}` is not in locales/en.json",
                message.name
            );
        };
        if expected.name != message.name {
            let missing = messages.iter().all(|m| m.name != expected.name);
            panic!(
                "locales/{code}.json: {}",
                if missing {
                    format!("`{}` is missing", expected.name)
                } else {
                    format!(
                        "`{}` comes where locales/en.json has `{}`: keep the two files in \
                         the same order",
                        message.name, expected.name
                    )
                }
            );
        }
        let want = placeholders_of(expected.value);
        match message.value {
            Value::String(text) => {
                assert!(
                    expected.value.is_string(),
                    "locales/{code}.json: `{}` must be a plural, as in English",
                    message.name
                );
                let got = placeholders(text);
                assert!(
                    got == want,
                    "locales/{code}.json: `{}` has placeholders {got:?}, English has {want:?}",
                    message.name
                );
            }
            Value::Object(forms) => {
                assert!(
                    expected.value.is_object(),
                    "locales/{code}.json: `{}` must be text, not a plural, as in English",
                    message.name
                );
                assert!(
                    forms.contains_key("other"),
                    "locales/{code}.json: the plural `{}` has no `other` form",
                    message.name
                );
                for (category, form) in forms {
                    assert!(
                        categories.contains(&category.as_str()),
                        "locales/{code}.json: `{}` has a `{category}` form; this language's \
                         categories are {categories:?}",
                        message.name
                    );
                    let Value::String(form) = form else {
                        panic!(
                            "locales/{code}.json: `{}.{category}` is not text",
                            message.name
                        );
                    };
                    // A form may leave the number out ("dim ffeiliau"), nothing else.
                    let got = placeholders(form);
                    let extra: Vec<_> = got.difference(&want).collect();
                    let lost: Vec<_> = want.difference(&got).filter(|p| *p != COUNT).collect();
                    assert!(
                        extra.is_empty() && lost.is_empty(),
                        "locales/{code}.json: `{}.{category}` has placeholders {got:?}, \
                         English has {want:?}",
                        message.name
                    );
                }
            }
            _ => panic!(
                "locales/{code}.json: `{}` is neither text nor plural",
                message.name
            ),
        }
    }
    if let Some(missing) = english.get(messages.len()) {
        panic!("locales/{code}.json: `{}` is missing", missing.name);
    }
}

/// The `{name}` placeholders of a message (of all its forms).
fn placeholders_of(value: &Value) -> BTreeSet<String> {
    match value {
        Value::String(text) => placeholders(text),
        Value::Object(forms) => forms
            .values()
            .filter_map(Value::as_str)
            .flat_map(placeholders)
            .collect(),
        _ => BTreeSet::new(),
    }
}

fn placeholders(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let end = after
            .find('}')
            .unwrap_or_else(|| panic!("an unclosed `{{` in {text:?}"));
        let name = &after[..end];
        assert!(
            is_identifier(name),
            "`{{{name}}}` in {text:?} is not a placeholder name (a-z, 0-9, _)"
        );
        found.insert(name.to_owned());
        rest = &after[end + 1..];
    }
    found
}

fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn generate(english: &Map<String, Value>, messages: &[Message]) -> String {
    let mut code = String::new();
    let hash = messages.iter().fold(FNV_OFFSET, |hash, message| {
        fnv(fnv(hash, message.name.as_bytes()), b"\n")
    });
    writeln!(code, "/// How many messages a catalogue has.").unwrap();
    writeln!(code, "pub(crate) const COUNT: usize = {};", messages.len()).unwrap();
    writeln!(
        code,
        "/// The messages' names in order, hashed: a Welsh file made for another build \
         does not match."
    )
    .unwrap();
    writeln!(code, "pub(crate) const NAMES_HASH: u64 = {hash:#x};").unwrap();
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
            "    use crate::text::catalogue::{{Arg, plural, text, fill}};"
        )
        .unwrap();
        for (key, value) in keys.as_object().unwrap() {
            assert!(
                is_identifier(key),
                "`{part}.{key}` is not a valid key (a-z, 0-9, _)"
            );
            code.push_str(&function(index, key, value));
            index += 1;
        }
        writeln!(code, "}}").unwrap();
    }
    code
}

/// One message's function.
fn function(index: usize, key: &str, value: &Value) -> String {
    let name = identifier(key);
    let args = placeholders_of(value);
    let params: Vec<String> = args
        .iter()
        .map(|arg| {
            if arg == COUNT && value.is_object() {
                format!("{arg}: usize")
            } else {
                format!("{}: impl core::fmt::Display", identifier(arg))
            }
        })
        .collect();
    let pairs: Vec<String> = args
        .iter()
        .map(|arg| {
            if arg == COUNT && value.is_object() {
                format!("({arg:?}, Arg::Count({arg}))")
            } else {
                format!("({arg:?}, Arg::Text(&{}))", identifier(arg))
            }
        })
        .collect();
    let doc = match value {
        Value::String(text) => text.clone(),
        _ => value
            .get("other")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
    };
    let doc = doc.replace('\n', " ");
    match value {
        Value::String(text) if args.is_empty() => format!(
            "    /// {doc}\n    pub fn {name}() -> &'static str {{\n        text({index}, {text:?})\n    }}\n"
        ),
        Value::String(text) => format!(
            "    /// {doc}\n    pub fn {name}({}) -> String {{\n        fill({index}, {text:?}, &[{}])\n    }}\n",
            params.join(", "),
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
            format!(
                "    /// {doc}\n    pub fn {name}({}) -> String {{\n        plural({index}, count, [{:?}, {:?}], &[{}])\n    }}\n",
                params.join(", "),
                form("one"),
                form("other"),
                pairs.join(", ")
            )
        }
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

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, as `text::catalogue` computes it over the Welsh file's names.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
