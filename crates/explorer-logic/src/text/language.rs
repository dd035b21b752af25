//! The languages the app speaks, their plural rules, and the switch's address.

/// A language of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    English,
    Welsh,
}

impl Language {
    /// The BCP 47 code: `lang` attributes, `?lang=`, and the catalogue's file name.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Welsh => "cy",
        }
    }

    /// The other language: what the switch offers.
    pub fn other(self) -> Language {
        match self {
            Language::English => Language::Welsh,
            Language::Welsh => Language::English,
        }
    }

    /// The CLDR plural category of a whole number (the app counts whole things).
    ///
    /// English: `one` for 1, else `other`. Welsh: `zero` 0, `one` 1, `two` 2, `few` 3,
    /// `many` 6, else `other`. The tests check both against CLDR's data (the
    /// `intl_pluralrules` crate) rather than against this function.
    pub fn plural_category(self, number: u64) -> PluralCategory {
        match (self, number) {
            (Language::English, 1) => PluralCategory::One,
            (Language::English, _) => PluralCategory::Other,
            (Language::Welsh, 0) => PluralCategory::Zero,
            (Language::Welsh, 1) => PluralCategory::One,
            (Language::Welsh, 2) => PluralCategory::Two,
            (Language::Welsh, 3) => PluralCategory::Few,
            (Language::Welsh, 6) => PluralCategory::Many,
            (Language::Welsh, _) => PluralCategory::Other,
        }
    }
}

/// A CLDR plural category: which form of a plural message a number takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluralCategory {
    Zero,
    One,
    Two,
    Few,
    Many,
    Other,
}

/// The query parameter that asks for a language on any address (`?lang=cy`).
const PARAMETER: &str = "lang";

/// `query` (without its `?`) asking for `language` instead of any language it asked
/// for: the switch's link, which keeps the rest of the address.
pub fn query_in(query: &str, language: Language) -> String {
    let mut out = String::with_capacity(query.len() + 8);
    for pair in query.split('&') {
        if !pair.is_empty() && pair.split('=').next() != Some(PARAMETER) {
            out.push_str(pair);
            out.push('&');
        }
    }
    out.push_str(PARAMETER);
    out.push('=');
    out.push_str(language.code());
    out
}

#[cfg(test)]
mod tests {
    use intl_pluralrules::{PluralCategory as Cldr, PluralRuleType, PluralRules};
    use unic_langid::langid;

    use super::*;

    fn cldr(category: Cldr) -> PluralCategory {
        match category {
            Cldr::ZERO => PluralCategory::Zero,
            Cldr::ONE => PluralCategory::One,
            Cldr::TWO => PluralCategory::Two,
            Cldr::FEW => PluralCategory::Few,
            Cldr::MANY => PluralCategory::Many,
            Cldr::OTHER => PluralCategory::Other,
        }
    }

    #[test]
    fn plural_categories_are_cldrs_for_every_count_up_to_a_million() {
        for (language, tag) in [
            (Language::English, langid!("en")),
            (Language::Welsh, langid!("cy")),
        ] {
            let rules = PluralRules::create(tag, PluralRuleType::CARDINAL).unwrap();
            for number in (0..=10_000).chain([99_999, 100_000, 1_000_000, 1_000_001]) {
                assert_eq!(
                    language.plural_category(number),
                    cldr(rules.select(number).unwrap()),
                    "{language:?} {number}"
                );
            }
        }
    }

    #[test]
    fn the_switch_keeps_the_query_and_asks_for_the_other_language() {
        assert_eq!(query_in("", Language::Welsh), "lang=cy");
        assert_eq!(
            query_in("areas=SU,SZ", Language::Welsh),
            "areas=SU,SZ&lang=cy"
        );
        assert_eq!(
            query_in("lang=cy&q=road", Language::English),
            "q=road&lang=en"
        );
        assert_eq!(
            query_in("q=lang&language=x", Language::Welsh),
            "q=lang&language=x&lang=cy"
        );
    }
}
