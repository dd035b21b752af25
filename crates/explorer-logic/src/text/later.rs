//! Messages that load with the feature that shows them (the parts in build.rs's
//! `LATER_PARTS`).
//!
//! A word in the app's code is data of the main wasm, which the release build cannot
//! split: it stays in the gallery's first load even when the only code that shows it
//! loads later. So the messages of features that load on demand are not compiled in.
//! Their page fetches this build's catalogue (`en.json` or `cy.json`, copied beside the
//! app) and hands it to [`load`] before showing them; their functions in [`super::t`]
//! read it here by the message's place among its part's keys in alphabetical order,
//! which the build script works out from the same file.

use std::collections::BTreeMap;
use std::sync::{PoisonError, RwLock};

use serde_json::Value;

use super::catalogue::{Arg, current, substitute};
use super::language::PluralCategory;

// The parts that load later: `LATER_PARTS` in build.rs.
include!(concat!(env!("OUT_DIR"), "/later_parts.rs"));

/// Each loaded part's messages, sorted by key.
static LOADED: RwLock<BTreeMap<String, Vec<Value>>> = RwLock::new(BTreeMap::new());

/// Why a catalogue could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the catalogue has no part `{0}`")]
pub struct MissingPart(pub String);

/// Keeps `part`'s messages from `catalogue`, a whole catalogue file's JSON.
pub fn load(part: &str, catalogue: &Value) -> Result<(), MissingPart> {
    load_as(part.to_owned(), part, catalogue)
}

fn load_as(key: String, part: &str, catalogue: &Value) -> Result<(), MissingPart> {
    let messages = catalogue
        .get(part)
        .and_then(Value::as_object)
        .ok_or_else(|| MissingPart(part.to_owned()))?;
    let mut sorted: Vec<(&String, &Value)> = messages.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let values = sorted.into_iter().map(|(_, value)| value.clone()).collect();
    LOADED
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(key, values);
    Ok(())
}

/// Keeps the messages of every part that loads later from `catalogue`.
pub fn load_all(catalogue: &Value) -> Result<(), MissingPart> {
    LATER_PARTS
        .iter()
        .try_for_each(|part| load(part, catalogue))
}

/// Whether the messages of every part that loads later are here.
pub fn all_loaded() -> bool {
    LATER_PARTS.iter().all(|part| is_loaded(part))
}

/// Whether `part`'s messages are here.
pub fn is_loaded(part: &str) -> bool {
    loaded(part, 0, |_| ()).is_some()
}

/// The catalogue file of this build's language, beside the app: `en.json`.
pub fn file_name() -> String {
    format!("{}.json", current().code())
}

fn loaded<T>(part: &str, index: usize, read: impl FnOnce(&Value) -> T) -> Option<T> {
    #[cfg(test)]
    let part = &load_for_tests(part);
    LOADED
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(part)
        .and_then(|messages| messages.get(index))
        .map(read)
}

/// Message `index` of `part`, or nothing before the part is loaded.
pub fn text(part: &str, index: usize) -> String {
    loaded(part, index, |value| {
        value.as_str().unwrap_or_default().to_owned()
    })
    .unwrap_or_default()
}

/// Message `index` of `part` with its placeholders filled in.
pub fn fill(part: &str, index: usize, args: &[(&str, Arg)]) -> String {
    substitute(&text(part, index), args)
}

/// Plural message `index` of `part` in the form `count` takes.
pub fn plural(part: &str, index: usize, count: usize, args: &[(&str, Arg)]) -> String {
    const NAMES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];
    let category = current().plural_category(count as u64);
    let form = loaded(part, index, |forms| {
        forms
            .get(NAMES[category as usize])
            .or_else(|| forms.get(NAMES[PluralCategory::Other as usize]))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    })
    .unwrap_or_default();
    substitute(&form, args)
}

/// Native tests read the catalogues straight from the repository, each language's
/// part under its own name (`cy:shape`), as tests switch language per thread.
#[cfg(test)]
fn load_for_tests(part: &str) -> String {
    let key = format!("{}:{part}", current().code());
    if !LOADED
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .contains_key(&key)
    {
        let file = match current().code() {
            "cy" => include_str!("../../../../locales/cy.json"),
            _ => include_str!("../../../../locales/en.json"),
        };
        let catalogue: Value = serde_json::from_str(file).unwrap();
        load_as(key.clone(), part, &catalogue).unwrap();
    }
    key
}
