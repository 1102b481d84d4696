//! Integration tests: real repositories built with the git CLI, which is also the oracle.
//!
//! One test binary (`cargo test --test cli`) with a module per area; `common` holds the
//! hermetic repository harness and the oracle.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod agents;
mod browser;
mod ci;
mod common;
mod completion;
mod conversation;
mod crash;
mod diff;
mod disk;
mod errors;
mod exec;
mod faults;
mod formats;
mod hooks;
mod hunks;
mod list_show;
mod mcp;
mod monitor;
mod naming;
mod odd_configs;
mod picker;
mod plain;
mod races;
mod restore;
mod restore_promise;
mod retention;
mod revert;
mod save;
mod secrets;
mod serve;
mod share;
mod undo;
