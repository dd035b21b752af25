//! What the page says of a listing's files the service sent something unusable for
//! (see `download_api::listed`): each such file named, with what was wrong and what
//! the app does instead.

use download_api::{Download, Field, Flaw};

use crate::text::t;

/// A file's name as the page shows it in a sentence: a name with control characters
/// written escaped (`"a\tb.zip"`), no name at all as its place in the list.
pub fn shown_name(file_name: &str, index: usize) -> String {
    if file_name.is_empty() {
        t::flaws::unnamed_file(index + 1)
    } else if file_name.chars().any(char::is_control) {
        format!("{file_name:?}")
    } else {
        file_name.to_owned()
    }
}

/// The sentence of one flaw of the `index`-th file, named `file_name` as listed.
pub fn describe(file_name: &str, index: usize, flaw: &Flaw) -> String {
    let name = shown_name(file_name, index);
    let sent = flaw.sent.clone().unwrap_or_else(t::flaws::flaw_nothing);
    match flaw.field {
        Field::FileName => t::flaws::flaw_file_name(name, sent),
        Field::Url => t::flaws::flaw_url(name, sent),
        Field::Size => t::flaws::flaw_size(name, sent),
        Field::Md5 => t::flaws::flaw_md5(name, sent),
        Field::Area => t::flaws::flaw_area(name, sent),
        Field::Format => t::flaws::flaw_format(name, sent),
    }
}

/// The notes of a listing's files, in order: how many files have a flaw, and a sentence
/// per flaw.
pub fn notes<'a>(files: impl IntoIterator<Item = &'a Download>) -> (usize, Vec<String>) {
    let mut flawed = 0;
    let mut lines = Vec::new();
    for (index, file) in files.into_iter().enumerate() {
        flawed += usize::from(!file.flaws.is_empty());
        lines.extend(
            file.flaws
                .iter()
                .map(|flaw| describe(&file.file_name, index, flaw)),
        );
    }
    (flawed, lines)
}

/// Whether `flaws` has one for `field`: the page marks that cell.
pub fn has(flaws: &[Flaw], field: Field) -> bool {
    flaws.iter().any(|flaw| flaw.field == field)
}

#[cfg(test)]
mod tests {
    use download_api::ProductDownload;

    use super::*;
    use crate::text::in_welsh;

    const LISTING: &str = r#"[
        {"url":"https://x/a","fileName":"a.zip","size":3,"area":"SU","format":"GML"},
        {"url":"javascript:alert(1)","fileName":"b\tc.zip","size":-5,
         "md5":"xyz","area":"SV","format":"GML"},
        {"url":"https://x/c","size":1e300,"area":"SW","format":"GML"}
    ]"#;

    fn notes_of(listing: &[ProductDownload]) -> (usize, Vec<String>) {
        notes(listing.iter().map(|d| &d.file))
    }

    #[test]
    fn the_page_names_each_file_and_what_was_wrong() {
        let listing: Vec<ProductDownload> = serde_json::from_str(LISTING).unwrap();
        let (flawed, lines) = notes_of(&listing);
        assert_eq!(flawed, 2);
        assert_eq!(
            lines,
            [
                "\"b\\tc.zip\": the address \"javascript:alert(1)\" is not an http or https \
                 address, so the file is listed but not offered for download.",
                "\"b\\tc.zip\": the size -5 is not a size in bytes, so its size is unknown \
                 (and a download never resumes from it).",
                "\"b\\tc.zip\": the MD5 \"xyz\" is not 32 hexadecimal digits, so its MD5 is \
                 unknown and the file is not checked against it.",
                "File 3 of the list: the file name (not shown) is not one this app can use.",
                "File 3 of the list: the size (not shown) is not a size in bytes, so its size is \
                 unknown (and a download never resumes from it).",
            ]
        );
        assert!(has(&listing[1].file.flaws, Field::Md5));
        assert!(!has(&listing[0].file.flaws, Field::Md5));
    }

    #[test]
    fn the_notes_are_said_in_welsh() {
        let listing: Vec<ProductDownload> = serde_json::from_str(LISTING).unwrap();
        let (_, lines) = in_welsh(|| notes_of(&listing));
        assert!(
            lines[0].contains("nid yw'r cyfeiriad \"javascript:alert(1)\" yn gyfeiriad http"),
            "{}",
            lines[0]
        );
        assert!(lines[3].starts_with("Ffeil 3 yn y rhestr"), "{}", lines[3]);
    }
}
