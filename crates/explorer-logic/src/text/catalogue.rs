//! Which language messages are given in, and how a message is filled in.
//!
//! The language is the build's: the web app is built once per language (the `welsh`
//! feature makes the Welsh one), and index.html loads the build of the page's language.
//! Each message's function ([`super::t`]) holds its text in both languages; the one
//! this build does not use is never called, so it is not in the build. Native tests
//! switch language per thread ([`in_welsh`]).

use std::fmt;

use super::language::{Language, PluralCategory};

/// The language messages are given in: this build's (and, in native tests, the
/// thread's).
#[inline]
pub fn current() -> Language {
    if cfg!(feature = "welsh") || welsh_in_tests() {
        Language::Welsh
    } else {
        Language::English
    }
}

#[cfg(test)]
thread_local! {
    /// Whether this test thread wants Welsh ([`use_welsh`]).
    static WELSH_IN_TESTS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Only native tests change the language at run time.
fn welsh_in_tests() -> bool {
    #[cfg(test)]
    return WELSH_IN_TESTS.get();
    #[cfg(not(test))]
    false
}

/// `body`'s result with messages in Welsh on this thread, English again after, even
/// when `body` panics (native tests only).
#[cfg(test)]
pub fn in_welsh<T>(body: impl FnOnce() -> T) -> T {
    struct BackToEnglish;
    impl Drop for BackToEnglish {
        fn drop(&mut self) {
            WELSH_IN_TESTS.set(false);
        }
    }
    WELSH_IN_TESTS.set(true);
    let _english = BackToEnglish;
    body()
}

/// Counts that show each of the six Welsh plural forms (zero, one, two, few, many,
/// other) and the thousands separator (native tests only).
#[cfg(test)]
pub const SAMPLE_COUNTS: [usize; 7] = [0, 1, 2, 3, 6, 20, 1_000_000];

/// Checks that `say` gives `said` for each of [`SAMPLE_COUNTS`], in order (native
/// tests only).
#[cfg(test)]
#[track_caller]
pub fn assert_counts(say: impl Fn(usize) -> String, said: [&str; 7]) {
    for (count, said) in SAMPLE_COUNTS.into_iter().zip(said) {
        assert_eq!(say(count), said, "count {count}");
    }
}

/// A placeholder's value.
pub enum Arg<'a> {
    /// The number a plural chooses its form by, written with thousands separators.
    Count(usize),
    Text(&'a dyn fmt::Display),
}

impl fmt::Debug for Arg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Count(count) => write!(f, "Count({count})"),
            Arg::Text(text) => write!(f, "Text({text})"),
        }
    }
}

/// A message with no placeholders, in the current language.
#[inline]
pub fn text(english: &'static str, welsh: &'static str) -> &'static str {
    match current() {
        Language::English => english,
        Language::Welsh => welsh,
    }
}

/// A message with its placeholders filled in.
#[inline]
pub fn fill(english: &'static str, welsh: &'static str, args: &[(&str, Arg)]) -> String {
    substitute(text(english, welsh), args)
}

/// A plural message in the form `count` takes in the current language: English has
/// `one` and `other`; Welsh its six CLDR forms in [`PluralCategory`] order, `None`
/// where the catalogue falls back to `other`.
#[inline]
pub fn plural(
    count: usize,
    english: [&'static str; 2],
    welsh: [Option<&'static str>; 6],
    args: &[(&str, Arg)],
) -> String {
    let language = current();
    let category = language.plural_category(count as u64);
    let form = match language {
        Language::English if category == PluralCategory::One => english[0],
        Language::English => english[1],
        Language::Welsh => welsh[category as usize]
            .or(welsh[PluralCategory::Other as usize])
            .unwrap_or(english[1]),
    };
    substitute(form, args)
}

/// `template` with each `{name}` replaced by its value in `args`.
pub(super) fn substitute(template: &str, args: &[(&str, Arg)]) -> String {
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
