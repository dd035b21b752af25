//! Messages with elements in them (a link, an id in bold, some code), cut so each
//! language puts the elements where its sentence needs them.

use leptos::prelude::*;

/// Where the `n`th element goes in a message: pass `mark(n)` for its placeholder, then
/// give the filled message to [`with_elements`].
pub fn mark(n: u8) -> char {
    char::from_u32(0xE000 + u32::from(n)).unwrap_or('\u{E000}')
}

/// A message with elements in it (a link, some code), in the message's own order so a
/// language may put them where its sentence needs: the text between [`mark`]s, and
/// `element(n)` in place of `mark(n)`.
pub fn with_elements(message: &str, mut element: impl FnMut(u8) -> AnyView) -> Vec<AnyView> {
    let is_mark = |c: char| ('\u{E000}'..='\u{E0FF}').contains(&c);
    let mut views = Vec::new();
    let mut rest = message;
    while let Some((at, found)) = rest.char_indices().find(|&(_, c)| is_mark(c)) {
        if at > 0 {
            views.push(rest[..at].to_owned().into_any());
        }
        // In range: `found` is one of the marks.
        views.push(element((u32::from(found) - 0xE000) as u8));
        rest = &rest[at + found.len_utf8()..];
    }
    if !rest.is_empty() {
        views.push(rest.to_owned().into_any());
    }
    views
}
