//! The catalogues as a person reads them: English compiled in, Welsh from its file.

use super::*;

const WELSH: &str = include_str!("../../../../locales/cy.json");

/// Runs `body` with the page in Welsh, back in English after (the language is per thread).
fn in_welsh(body: impl FnOnce()) {
    load(Language::Welsh, WELSH).expect("locales/cy.json loads");
    body();
    use_english();
}

#[test]
fn english_counts_take_one_and_other() {
    let products = |n| t::gallery::products(n);
    assert_eq!(products(0), "0 products");
    assert_eq!(products(1), "1 product");
    assert_eq!(products(2), "2 products");
    assert_eq!(products(3), "3 products");
    assert_eq!(products(6), "6 products");
    assert_eq!(products(20), "20 products");
    assert_eq!(products(1_000_000), "1,000,000 products");
}

#[test]
fn welsh_counts_take_the_six_cldr_forms() {
    in_welsh(|| {
        let products = |n| t::gallery::products(n);
        assert_eq!(products(0), "Dim cynhyrchion");
        assert_eq!(products(1), "1 cynnyrch");
        assert_eq!(products(2), "2 gynnyrch");
        assert_eq!(products(3), "3 chynnyrch");
        assert_eq!(products(6), "6 chynnyrch");
        assert_eq!(products(20), "20 cynnyrch");
        assert_eq!(products(1_000_000), "1,000,000 cynnyrch");
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
fn a_welsh_file_for_another_build_is_refused_and_english_stays() {
    let renamed = WELSH.replacen("\"title\"", "\"heading\"", 1);
    assert_eq!(
        load(Language::Welsh, &renamed),
        Err(CatalogueError::OtherVersion("Welsh"))
    );
    let short = r#"{"app": {"name": "Download Explorer"}}"#;
    assert_eq!(
        load(Language::Welsh, short),
        Err(CatalogueError::OtherVersion("Welsh"))
    );
    assert!(matches!(
        load(Language::Welsh, "<html>"),
        Err(CatalogueError::Invalid("Welsh", _))
    ));
    assert_eq!(current(), Language::English);
    assert_eq!(t::gallery::title(), "Products");
}

#[test]
fn digits_group_in_threes() {
    assert_eq!(group_digits(0), "0");
    assert_eq!(group_digits(999), "999");
    assert_eq!(group_digits(1000), "1,000");
    assert_eq!(group_digits(1_234_567), "1,234,567");
}
