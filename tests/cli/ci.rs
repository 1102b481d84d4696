//! The CI scripts themselves: what `.ci/run` requires must fail `ci/test-matrix` when it is
//! missing, not skip.

use std::path::Path;
use std::process::Command;

/// A platform type-check that cannot run (here: no rustup on `PATH` to add the target with)
/// is SKIPPED by `ci/test-matrix`, exit 0, but FAILED under `GIT_CHECKPOINT_REQUIRE_PLATFORMS`,
/// which `.ci/run` exports with the other REQUIRE variables.
#[test]
fn a_platform_check_that_cannot_run_fails_where_ci_requires_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(
        ci.lines()
            .any(|l| l.trim() == "export GIT_CHECKPOINT_REQUIRE_PLATFORMS=1"),
        ".ci/run does not require the platform checks"
    );
    let path = std::env::split_paths(crate::common::hermetic_path())
        .filter(|dir| !dir.join("rustup").exists())
        .collect::<Vec<_>>();
    let path = std::env::join_paths(path).unwrap();
    let matrix = |require: bool| {
        let mut cmd = Command::new("bash");
        cmd.arg(root.join("ci/test-matrix"))
            .arg("x86_64-pc-windows-gnu")
            .current_dir(root)
            .env("PATH", &path)
            .env_remove("GIT_CHECKPOINT_REQUIRE_PLATFORMS");
        if require {
            cmd.env("GIT_CHECKPOINT_REQUIRE_PLATFORMS", "1");
        }
        let out = cmd.output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = matrix(false);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("x86_64-pc-windows-gnu: SKIPPED: no rustup on PATH"),
        "{out}"
    );
    let (code, out) = matrix(true);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("x86_64-pc-windows-gnu: FAILED: no rustup on PATH"),
        "{out}"
    );
}
