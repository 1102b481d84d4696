//! Integration tests: real repositories built with the git CLI, which is also the oracle.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod completion;
mod diff;
mod list_show;
mod restore;
mod retention;
mod save;
