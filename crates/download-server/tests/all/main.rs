//! The server's protocol-level tests: each module a real server on a free port (or the
//! binary itself), driven over HTTP. One test binary for them all, so the server and
//! its dependencies are linked once.

mod common;
mod engines;

mod auth;
mod data_packages;
mod files;
mod limits;
mod logs;
mod products;
mod protocol;
mod rate_limit;
mod startup;
mod storage;
mod web;
