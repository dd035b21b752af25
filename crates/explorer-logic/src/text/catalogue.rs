//! The language a page is shown in, and the Welsh loaded for it.
//!
//! English is compiled in (the generated functions of [`super::t`] carry it); another
//! language's catalogue is read at run time from its file, which the build checked has
//! the same messages in the same order, so messages are found by position. A page
//! keeps one language for its life: the switch reloads it (see [`super::Language`]).

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::language::{Language, PluralCategory};
use super::t::{COUNT, NAMES_HASH};

/// A loaded catalogue: its language and its messages by position.
#[derive(Debug)]
struct Catalogue {
    language: Language,
    messages: Vec<Message>,
}

/// One message of a loaded catalogue.
#[derive(Debug)]
enum Message {
    Text(&'static str),
    /// The forms by [`PluralCategory`]; a missing one falls back to `other`.
    Plural([Option<&'static str>; 6]),
}

thread_local! {
    /// The catalogue in use; `None` is English. Leaked when loaded: a page loads at
    /// most one, and keeps it.
    static CURRENT: Cell<Option<&'static Catalogue>> = const { Cell::new(None) };
}

/// The language messages are given in.
pub fn current() -> Language {
    CURRENT
        .get()
        .map_or(Language::English, |catalogue| catalogue.language)
}

/// Shows messages in English again (the start).
pub fn use_english() {
    CURRENT.set(None);
}

/// Why a catalogue file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    #[error("the {0} messages are not valid: {1}")]
    Invalid(&'static str, String),
    #[error("the {0} messages were made for another version of the app")]
    OtherVersion(&'static str),
    #[error("the {0} messages could not be fetched")]
    Unavailable(&'static str),
}

/// Reads `json` (the language's `locales/<code>.json`) and gives every message in
/// `language` from now on. English needs no file: it is [`use_english`].
pub fn load(language: Language, json: &str) -> Result<(), CatalogueError> {
    let name = language.english_name();
    let mut walk = Walk {
        hash: FNV_OFFSET,
        messages: Vec::with_capacity(COUNT),
    };
    let mut reader = serde_json::Deserializer::from_str(json);
    (&mut walk)
        .deserialize(&mut reader)
        .and_then(|()| reader.end())
        .map_err(|error| CatalogueError::Invalid(name, error.to_string()))?;
    if walk.hash != NAMES_HASH || walk.messages.len() != COUNT {
        return Err(CatalogueError::OtherVersion(name));
    }
    let catalogue = Catalogue {
        language,
        messages: walk.messages,
    };
    CURRENT.set(Some(Box::leak(Box::new(catalogue))));
    Ok(())
}

/// A placeholder's value.
pub enum Arg<'a> {
    /// The number a plural chooses its form by, written with thousands separators.
    Count(usize),
    Text(&'a dyn fmt::Display),
}

/// Message `index` with no placeholders.
pub fn text(index: usize, english: &'static str) -> &'static str {
    match CURRENT.get().map(|catalogue| &catalogue.messages[index]) {
        Some(Message::Text(text)) => text,
        _ => english,
    }
}

/// Message `index` with its placeholders filled in.
pub fn fill(index: usize, english: &'static str, args: &[(&str, Arg)]) -> String {
    substitute(text(index, english), args)
}

/// Plural message `index`, in the form `count` takes in the current language.
pub fn plural(
    index: usize,
    count: usize,
    english: [&'static str; 2],
    args: &[(&str, Arg)],
) -> String {
    let form = match CURRENT.get() {
        Some(catalogue) => match &catalogue.messages[index] {
            Message::Plural(forms) => {
                let category = catalogue.language.plural_category(count as u64);
                forms[category as usize].or(forms[PluralCategory::Other as usize])
            }
            Message::Text(_) => None,
        },
        None => None,
    };
    let form = form.unwrap_or(match Language::English.plural_category(count as u64) {
        PluralCategory::One => english[0],
        _ => english[1],
    });
    substitute(form, args)
}

/// `template` with each `{name}` replaced by its value in `args`.
fn substitute(template: &str, args: &[(&str, Arg)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let Some(end) = after.find('}') else {
            break;
        };
        match args.iter().find(|(name, _)| *name == &after[..end]) {
            Some((_, Arg::Count(count))) => out.push_str(&group_digits(*count as u64)),
            Some((_, Arg::Text(value))) => {
                let _ = fmt::write(&mut out, format_args!("{value}"));
            }
            None => out.push_str(&rest[start..start + end + 2]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// `1234567` as `1,234,567`: English and Welsh group digits alike (CLDR).
pub fn group_digits(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, as the build script computes [`NAMES_HASH`].
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads a catalogue file in order: the parts, their messages' names (hashed), and
/// each message's text or plural forms.
struct Walk {
    hash: u64,
    messages: Vec<Message>,
}

impl<'de> DeserializeSeed<'de> for &mut Walk {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for &mut Walk {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object of parts, each an object of messages")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut parts: A) -> Result<(), A::Error> {
        while let Some(part) = parts.next_key::<String>()? {
            parts.next_value_seed(Part { walk: self, part })?;
        }
        Ok(())
    }
}

/// One part's messages.
struct Part<'a> {
    walk: &'a mut Walk,
    part: String,
}

impl<'de> DeserializeSeed<'de> for Part<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Part<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object of messages")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut keys: A) -> Result<(), A::Error> {
        while let Some(key) = keys.next_key::<String>()? {
            let walk = &mut *self.walk;
            walk.hash = fnv(
                fnv(
                    fnv(fnv(walk.hash, self.part.as_bytes()), b"."),
                    key.as_bytes(),
                ),
                b"\n",
            );
            let message = keys.next_value_seed(MessageSeed)?;
            walk.messages.push(message);
        }
        Ok(())
    }
}

/// A message: a string, or an object of plural forms.
struct MessageSeed;

impl<'de> DeserializeSeed<'de> for MessageSeed {
    type Value = Message;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Message, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MessageSeed {
    type Value = Message;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a message, or an object of its plural forms")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Message, E> {
        Ok(Message::Text(leak(text)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut forms: A) -> Result<Message, A::Error> {
        let mut by_category = [None; 6];
        while let Some(category) = forms.next_key::<String>()? {
            let form: String = forms.next_value()?;
            let category = PluralCategory::from_name(&category)
                .ok_or_else(|| de::Error::custom(format!("no plural category `{category}`")))?;
            by_category[category as usize] = Some(leak(&form));
        }
        Ok(Message::Plural(by_category))
    }
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.into())
}
