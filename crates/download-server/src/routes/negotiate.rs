//! Quality values (RFC 9110 §12.4.2), as `Accept` and `Accept-Encoding` weigh their
//! choices: `gzip;q=0.5, br`.

/// Each item of such a header value with its weight: 1 when unstated, 0 when it cannot
/// be read (an unreadable weight never wins), otherwise clamped to 0..=1.
pub(crate) fn qualities(value: &str) -> impl Iterator<Item = (&str, f32)> {
    value.split(',').map(|item| {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or_default().trim();
        let q = parts
            .filter_map(|param| param.split_once('='))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
            .map_or(1.0, |(_, q)| {
                q.trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|q| q.is_finite())
                    .unwrap_or(0.0)
            })
            .clamp(0.0, 1.0);
        (name, q)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_default_to_one_and_bad_ones_count_as_zero() {
        let read: Vec<_> =
            qualities("br;q=0.5, gzip , text/html;level=1;Q=0.2, x;q=abc, y;q=7, z;q=NaN")
                .collect();
        assert_eq!(
            read,
            [
                ("br", 0.5),
                ("gzip", 1.0),
                ("text/html", 0.2),
                ("x", 0.0),
                ("y", 1.0),
                ("z", 0.0)
            ]
        );
    }
}
