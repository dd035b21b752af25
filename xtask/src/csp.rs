//! The web app's Content-Security-Policy, written into the built `index.html` as a
//! `<meta http-equiv>` (for static hosts, which cannot all send headers). Our server
//! sends the same policy as a header, with `frame-ancestors 'none'` added, which only a
//! header can carry (docs/deploy.md gives each host's form).
//!
//! Each directive, and why:
//! - `script-src 'self'` and the sha256 of each inline script of the page: nothing else
//!   runs, not even an injected inline script. `'wasm-unsafe-eval'` lets the page
//!   compile its own WebAssembly; `'unsafe-eval'` (JavaScript's `eval`) is never allowed.
//! - `connect-src 'self' https: http:`: a person may point the app at any Download
//!   Service on the settings page, so the app must be able to ask any address; only
//!   the `https:` and `http:` schemes (no `ws:`, `data:` or `blob:` requests). `http:`
//!   is for services on a local network or this machine; an https page cannot reach
//!   one anyway (mixed content), whatever the policy says.
//! - `img-src 'self' https: http: data: blob:`: product thumbnails come from whichever
//!   service is set; `data:` is the page's empty icon.
//! - `style-src 'self' 'unsafe-inline'`: the page's and the components' `style`
//!   attributes (sizes of skeletons, windowed lists' offsets). Styles cannot run code.
//! - `worker-src 'self'`: the zip download's service worker, from the app's own files.
//! - `object-src 'none'`, `base-uri 'self'`, `form-action 'self'`: no plugins, no
//!   `<base>` or form sending the page elsewhere.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

/// The policy for a page whose inline scripts are `scripts` (their exact text).
pub fn policy<'a>(scripts: impl IntoIterator<Item = &'a str>) -> String {
    let hashes: String = scripts
        .into_iter()
        .map(|script| format!(" 'sha256-{}'", STANDARD.encode(Sha256::digest(script))))
        .collect();
    [
        "default-src 'self'".to_string(),
        format!("script-src 'self' 'wasm-unsafe-eval'{hashes}"),
        "style-src 'self' 'unsafe-inline'".to_string(),
        "img-src 'self' https: http: data: blob:".to_string(),
        "connect-src 'self' https: http:".to_string(),
        "worker-src 'self'".to_string(),
        "object-src 'none'".to_string(),
        "base-uri 'self'".to_string(),
        "form-action 'self'".to_string(),
    ]
    .join("; ")
}

/// The text of each inline `<script>` of `html` (one without a `src`), as the browser
/// hashes it: everything between the tag's `>` and `</script>`.
pub fn inline_scripts(html: &str) -> Vec<&str> {
    let mut scripts = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let after = &rest[start..];
        let Some(open_end) = after.find('>') else {
            break;
        };
        let tag = &after[..open_end];
        let body = &after[open_end + 1..];
        let Some(close) = body.find("</script>") else {
            break;
        };
        if !tag.contains(" src=") {
            scripts.push(&body[..close]);
        }
        rest = &body[close..];
    }
    scripts
}

/// `html` with its policy as a `<meta http-equiv>` right after `<meta charset>` (before
/// anything the policy governs).
pub fn with_policy_meta(html: &str) -> Result<String, String> {
    let policy = policy(inline_scripts(html));
    let meta = format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\" />");
    let charset = html
        .find("<meta charset")
        .ok_or("index.html has no <meta charset> to put the Content-Security-Policy after")?;
    let end = charset
        + html[charset..]
            .find('>')
            .ok_or("an unclosed <meta charset>")?
        + 1;
    Ok(format!("{}\n    {meta}{}", &html[..end], &html[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_every_inline_script_and_no_external_one() {
        let html = "<head><meta charset=\"utf-8\" /><script>a()</script>\n\
                    <script src=\"x.js\"></script><script type=\"module\">\n b()\n</script></head>";
        assert_eq!(inline_scripts(html), ["a()", "\n b()\n"]);
        // The hash of `a()`, as `printf 'a()' | openssl dgst -sha256 -binary | base64`.
        let policy = policy(["a()"]);
        assert!(
            policy.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4='"),
            "{policy}"
        );
        assert!(!policy.contains("'unsafe-eval'"));
    }

    #[test]
    fn the_meta_comes_right_after_the_charset() {
        let html = "<head>\n    <meta charset=\"utf-8\" />\n    <script>a()</script></head>";
        let with = with_policy_meta(html).unwrap();
        let meta = with.find("http-equiv=\"Content-Security-Policy\"").unwrap();
        assert!(with.find("charset").unwrap() < meta && meta < with.find("<script>").unwrap());
        assert!(!with.contains("frame-ancestors"), "ignored in a meta tag");
    }
}
