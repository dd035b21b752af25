//! The build script's checks of the catalogues (`build.rs` uses them; the tests in
//! `src/text/tests.rs` show each failing).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

/// The placeholder a plural message chooses its form by.
pub const COUNT: &str = "count";

/// A message: its `part.key` name and its text, or its plural forms by category.
pub struct Message<'a> {
    pub name: String,
    pub value: &'a Value,
}

/// The catalogue's messages in file order (serde_json keeps it: `preserve_order`).
pub fn flatten(catalogue: &Map<String, Value>) -> Vec<Message<'_>> {
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

pub fn check(code: &str, categories: &[&str], english: &[Message], messages: &[Message]) {
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
pub fn placeholders_of(value: &Value) -> BTreeSet<String> {
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

pub fn placeholders(text: &str) -> BTreeSet<String> {
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

pub fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}
