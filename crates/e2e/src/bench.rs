//! What the browser benchmarks (`src/bin/bench_*.rs`, run by `cargo xtask bench …`)
//! share: a fresh browser with a probe and the cache off, the median of their runs and
//! Chromium's DevTools protocol.

use serde_json::{Value, json};

use crate::Harness;

/// A fresh browser on the app at `base` with `probe` run before any page script, the
/// cache off: each load fetches what a first visit would.
pub async fn open_uncached(base: String, probe: String) -> Harness {
    let h = Harness::open(base, Vec::new()).await;
    h.driver
        .cdp()
        .page()
        .add_script_to_evaluate_on_new_document(probe)
        .await
        .expect("install the probe");
    cdp(&h, "Network.enable", json!({})).await;
    cdp(
        &h,
        "Network.setCacheDisabled",
        json!({ "cacheDisabled": true }),
    )
    .await;
    h
}

/// The middle value of `values` (the mean of the two middle ones of an even count),
/// `None` when empty: the figure a benchmark reports of several runs, as one slow run
/// does not move it.
pub fn median(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut sorted: Vec<f64> = values.into_iter().collect();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        even if even % 2 == 0 => Some((sorted[middle - 1] + sorted[middle]) / 2.0),
        _ => Some(sorted[middle]),
    }
}

/// Sends `method` with `params` to Chromium's DevTools protocol and returns its answer;
/// panics when Chromium refuses (a benchmark cannot go on without what it asked for).
pub async fn cdp(h: &Harness, method: &str, params: Value) -> Value {
    h.driver
        .cdp()
        .send_raw(method, params)
        .await
        .unwrap_or_else(|e| panic!("{method}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn the_median_is_the_middle_run() {
        assert_eq!(median([3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median([4.0, 1.0]), Some(2.5));
        // Four runs of a zip's share of its floor: the two middle ones' mean, not the
        // upper one (96% overstated WebKit's 78, 79, 96 and 101%).
        assert_eq!(median([96.0, 78.0, 101.0, 79.0]), Some(87.5));
        assert_eq!(median([7.0]), Some(7.0));
        assert_eq!(median([]), None);
    }
}
