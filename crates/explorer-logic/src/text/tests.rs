//! The catalogues as a person reads them, in English and in Welsh.

use super::*;

#[test]
fn english_counts_take_one_and_other() {
    assert_counts(
        t::gallery::products,
        [
            "0 products",
            "1 product",
            "2 products",
            "3 products",
            "6 products",
            "20 products",
            "1,000,000 products",
        ],
    );
}

#[test]
fn welsh_counts_take_the_six_cldr_forms() {
    in_welsh(|| {
        assert_counts(
            t::gallery::products,
            [
                "Dim cynhyrchion",
                "1 cynnyrch",
                "2 gynnyrch",
                "3 chynnyrch",
                "6 chynnyrch",
                "20 cynnyrch",
                "1,000,000 cynnyrch",
            ],
        );
    });
}

#[test]
fn welsh_replaces_every_message_and_english_comes_back() {
    assert_eq!(current(), Language::English);
    in_welsh(|| {
        assert_eq!(current(), Language::Welsh);
        assert_eq!(t::gallery::title(), "Cynhyrchion");
        assert_eq!(
            t::card::preview_of("OS Open Roads"),
            "Rhagolwg o OS Open Roads"
        );
    });
    assert_eq!(t::gallery::title(), "Products");
    assert_eq!(
        t::card::preview_of("OS Open Roads"),
        "Preview of OS Open Roads"
    );
}

#[test]
fn digits_group_in_threes() {
    assert_eq!(group_digits(0), "0");
    assert_eq!(group_digits(999), "999");
    assert_eq!(group_digits(1000), "1,000");
    assert_eq!(group_digits(1_234_567), "1,234,567");
}

/// The build script's checks, as it runs them.
#[allow(dead_code)]
#[path = "../../build/checks.rs"]
mod checks;

/// The build script's checks (`build/checks.rs`): each way a translation can go wrong
/// stops the build with the message named.
mod build_checks {
    use serde_json::{Value, json};

    use super::checks::{Message, check};

    const WELSH: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

    /// Checks `welsh` against `english` as the build does: the panic's message, if any.
    fn problem(english: &[(&str, Value)], welsh: &[(&str, Value)]) -> Option<String> {
        let listed = |list: &[(&str, Value)]| -> Vec<(String, Value)> {
            list.iter()
                .map(|(name, value)| ((*name).to_owned(), value.clone()))
                .collect()
        };
        let (english, welsh) = (listed(english), listed(welsh));
        let failed = std::panic::catch_unwind(|| {
            check("cy", &WELSH, &as_messages(&english), &as_messages(&welsh));
        });
        failed.err().map(|panic| match panic.downcast::<String>() {
            Ok(message) => *message,
            Err(panic) => panic.downcast_ref::<&str>().unwrap_or(&"").to_string(),
        })
    }

    fn as_messages(list: &[(String, Value)]) -> Vec<Message<'_>> {
        list.iter()
            .map(|(name, value)| Message {
                name: name.clone(),
                value,
            })
            .collect()
    }

    fn english() -> Vec<(&'static str, Value)> {
        vec![
            ("gallery.title", json!("Products")),
            (
                "gallery.products",
                json!({"one": "{count} product", "other": "{count} products"}),
            ),
            ("card.preview_of", json!("Preview of {name}")),
        ]
    }

    #[test]
    fn a_complete_translation_passes() {
        let welsh = vec![
            ("gallery.title", json!("Cynhyrchion")),
            (
                "gallery.products",
                json!({"zero": "Dim cynhyrchion", "two": "{count} gynnyrch", "other": "{count} cynnyrch"}),
            ),
            ("card.preview_of", json!("Rhagolwg o {name}")),
        ];
        assert_eq!(problem(&english(), &welsh), None);
    }

    #[test]
    fn a_missing_extra_or_moved_message_is_named() {
        let mut missing = english();
        missing.remove(1);
        let got = problem(&english(), &missing).unwrap();
        assert!(got.contains("`gallery.products` is missing"), "{got}");

        let mut extra = english();
        extra.push(("card.extra", json!("Extra")));
        let got = problem(&english(), &extra).unwrap();
        assert!(
            got.contains("`card.extra` is not in locales/en.json"),
            "{got}"
        );

        let mut moved = english();
        moved.swap(0, 2);
        let got = problem(&english(), &moved).unwrap();
        assert!(
            got.contains("keep the two files in the same order"),
            "{got}"
        );
    }

    #[test]
    fn placeholders_and_plural_forms_must_agree() {
        let mut renamed = english();
        renamed[2].1 = json!("Rhagolwg o {enw}");
        let got = problem(&english(), &renamed).unwrap();
        assert!(got.contains("`card.preview_of` has placeholders"), "{got}");

        let mut no_other = english();
        no_other[1].1 = json!({"one": "{count} cynnyrch"});
        let got = problem(&english(), &no_other).unwrap();
        assert!(got.contains("has no `other` form"), "{got}");

        let mut unknown = english();
        unknown[1].1 = json!({"several": "{count}", "other": "{count} cynnyrch"});
        let got = problem(&english(), &unknown).unwrap();
        assert!(got.contains("has a `several` form"), "{got}");

        let mut not_plural = english();
        not_plural[1].1 = json!("{count} cynnyrch");
        let got = problem(&english(), &not_plural).unwrap();
        assert!(got.contains("must be a plural"), "{got}");
    }
}
