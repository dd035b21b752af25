//! Tests of the logic against real tools outside it (`sh`, `curl`). One test binary for
//! the crate: add a module here rather than a file beside `all/`.

mod bulk_script;
