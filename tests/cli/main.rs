//! Integration tests: real repositories built with the git CLI, which is also the oracle.

mod common;
mod list_show;
mod restore;
mod save;
