//! The language a page is shown in, and the Welsh loaded for it.
//!
//! English is compiled in (the generated functions of [`super::t`] carry it); another
//! language's catalogue is read at run time from its file, which the build checked has
//! the same messages in the same order, so messages are found by position. A page
//! keeps one language for its life: the switch reloads it (see [`super::Language`]).

use std::cell::Cell;
use std::fmt;

use serde::Deserialize;
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
/// `language` from now on. English needs no file: it is [`use_english`]. (The web app
/// has the browser read the file, index.html's script flattens it, and hands it to a
/// [`Loader`]: the same checks, without a JSON reader in the app's first load.)
pub fn load(language: Language, json: &str) -> Result<(), CatalogueError> {
    let mut file = FileWalk {
        loader: Loader::new(language),
        names: String::new(),
    };
    let mut reader = serde_json::Deserializer::from_str(json);
    (&mut file)
        .deserialize(&mut reader)
        .and_then(|()| reader.end())
        .map_err(|error| CatalogueError::Invalid(language.english_name(), error.to_string()))?;
    let FileWalk { mut loader, names } = file;
    loader.names(&names);
    loader.finish()
}

/// Takes a catalogue's messages in file order and their names, then checks they are
/// the ones this build has ([`Loader::finish`]).
#[derive(Debug)]
pub struct Loader {
    language: Language,
    /// The messages' names, hashed as the build hashed them.
    hash: u64,
    messages: Vec<Message>,
}

impl Loader {
    /// An empty catalogue of `language`.
    pub fn new(language: Language) -> Loader {
        Loader {
            language,
            hash: FNV_OFFSET,
            messages: Vec::with_capacity(COUNT),
        }
    }

    /// The messages' names in order, a line each: `part.key\n`.
    pub fn names(&mut self, names: &str) {
        self.hash = fnv(self.hash, names.as_bytes());
    }

    /// The next message: a text.
    pub fn text(&mut self, text: &str) {
        self.messages.push(Message::Text(leak(text)));
    }

    /// The next message: a plural, its forms in [`PluralCategory`] order (`zero`,
    /// `one`, `two`, `few`, `many`, `other`), `None` where the file has none.
    pub fn plural(&mut self, forms: [Option<&str>; 6]) {
        self.messages
            .push(Message::Plural(forms.map(|form| form.map(leak))));
    }

    /// Gives every message in this catalogue's language from now on, if the messages
    /// are this build's: the same names in the same order.
    pub fn finish(self) -> Result<(), CatalogueError> {
        if self.hash != NAMES_HASH || self.messages.len() != COUNT {
            return Err(CatalogueError::OtherVersion(self.language.english_name()));
        }
        let catalogue = Catalogue {
            language: self.language,
            messages: self.messages,
        };
        CURRENT.set(Some(Box::leak(Box::new(catalogue))));
        Ok(())
    }
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

/// A catalogue file read in order into a [`Loader`]: the parts, then each part's
/// messages, each a text or an object of plural forms; the names kept for the end.
struct FileWalk {
    loader: Loader,
    names: String,
}

impl<'de> DeserializeSeed<'de> for &mut FileWalk {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for &mut FileWalk {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object of parts, each an object of messages")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut parts: A) -> Result<(), A::Error> {
        while let Some(part) = parts.next_key::<String>()? {
            parts.next_value_seed(Part { file: self, part })?;
        }
        Ok(())
    }
}

/// One part's messages, in order.
struct Part<'a> {
    file: &'a mut FileWalk,
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

    fn visit_map<A: MapAccess<'de>>(self, mut messages: A) -> Result<(), A::Error> {
        while let Some(key) = messages.next_key::<String>()? {
            let file = &mut *self.file;
            file.names.push_str(&format!("{}.{key}\n", self.part));
            match messages.next_value::<FileMessage>()? {
                FileMessage::Text(text) => file.loader.text(&text),
                FileMessage::Plural(forms) => {
                    let mut by_category = [None; 6];
                    for (category, form) in &forms {
                        let category = PluralCategory::from_name(category).ok_or_else(|| {
                            de::Error::custom(format!(
                                "`{}.{key}`: no plural category `{category}`",
                                self.part
                            ))
                        })?;
                        by_category[category as usize] = Some(form.as_str());
                    }
                    file.loader.plural(by_category);
                }
            }
        }
        Ok(())
    }
}

/// A message as the file has it: a text, or its plural forms in order.
enum FileMessage {
    Text(String),
    Plural(Vec<(String, String)>),
}

impl<'de> Deserialize<'de> for FileMessage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FileMessageVisitor)
    }
}

struct FileMessageVisitor;

impl<'de> Visitor<'de> for FileMessageVisitor {
    type Value = FileMessage;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a message, or an object of its plural forms")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<FileMessage, E> {
        Ok(FileMessage::Text(text.to_owned()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut forms: A) -> Result<FileMessage, A::Error> {
        let mut all = Vec::new();
        while let Some(entry) = forms.next_entry::<String, String>()? {
            all.push(entry);
        }
        Ok(FileMessage::Plural(all))
    }
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.into())
}
