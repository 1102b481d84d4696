//! Stage 1 of a capture: what a file-system monitor says changed.
//!
//! Where `core.fsmonitor` names a hook (Watchman's `fsmonitor-watchman`, or any program that
//! speaks git's protocol version 2), a save asks it, before it looks at any file, which paths
//! changed since the token the stat cache keeps, and the later stages look only there:
//!
//! - the tracked side compares with their files only the index entries at or below a reported
//!   path, and those that differed from the index when the token was kept (its *dirty* set);
//! - the walk trusts a directory's listing without looking at its stamps when nothing at,
//!   above or below it was reported and no `.gitignore` above it was;
//! - an untracked file that was not reported keeps its cached blob without being looked at.
//!
//! Any doubt gives [`Monitored::Everything`], the full scan, and the save oracle holds in every
//! case: no hook, `core.fsmonitor=true` (git's built-in daemon, which this tool does not speak),
//! no token kept, a token kept under another index (for the tracked side only), a hook that
//! fails, answers nothing, answers after [`TIMEOUT`] (or [`FIRST_TIMEOUT`], asked without a
//! token: the hook then lists every file), answers with an empty token, or answers
//! `/` ("no information": Watchman restarted or had to start watching), a path that cannot be
//! mapped, more paths than [`MOST_PATHS`], the file system's clock earlier than when the token
//! was kept, `core.ignoreCase`, a sparse index, and a plain directory's save.

use std::collections::BTreeSet;
use std::io::Read as _;

use gix::bstr::{BStr, BString, ByteSlice};

use super::{Env, ignore_file};
use crate::statcache;

/// How long a save waits for the hook before it scans everything (Watchman answers a query
/// in milliseconds; its hook starts Perl, about 100 ms).
pub(super) const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// How long the first question waits, asked without a token to get one: the hook then lists
/// every file (seconds at a million: Perl decodes each name), once, as it does for git.
pub(super) const FIRST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// A reply with more paths than this is taken as "everything changed": comparing that many is
/// the full scan anyway.
pub(super) const MOST_PATHS: usize = 100_000;

/// A reply with more paths than this makes the save keep the new token even when nothing else
/// in the stat cache changed, as git rewrites the index for it (`fsmonitor_force_update_
/// threshold`); below it the old token is kept, and the next save is told the same paths again.
pub(super) const ADVANCE_AFTER: usize = 100;

/// What the monitor said, as data the later stages read.
pub(super) struct Monitor {
    answer: Monitored,
    /// The token to keep with what this save finds (given before any file was looked at), and
    /// how many paths the reply held.
    next: Option<(BString, usize)>,
    /// Whether a hook is configured: only then is a token kept.
    asked: bool,
    /// The index's [`content_key`], when it was computed.
    content: Option<u64>,
    /// Whether the index tracks exactly what it did when the stat cache was written (the same
    /// file, or one git rewrote with the same entries).
    same_index: bool,
}

/// Where a capture must look.
pub(super) enum Monitored {
    /// Everywhere: no monitor, or any doubt.
    Everything,
    /// Only where these paths say.
    Changed(Changed),
}

/// The paths a monitor reported since the token the stat cache keeps.
pub(super) struct Changed {
    /// The reported paths (no trailing slash), sorted.
    paths: BTreeSet<BString>,
    /// The tracked paths that differed from their index entries when the token was kept;
    /// `None` when the index is not the one they are about: then every tracked path is
    /// compared.
    dirty: Option<Vec<BString>>,
}

impl Monitor {
    fn everything(next: Option<(BString, usize)>) -> Monitor {
        Monitor {
            answer: Monitored::Everything,
            next,
            asked: false,
            content: None,
            same_index: false,
        }
    }

    /// Whether a hook was asked: only then is a token kept, with the dirty tracked paths.
    pub(super) fn asked(&self) -> bool {
        self.asked
    }

    /// Whether the index tracks exactly what it did when the stat cache was written, though
    /// git may have rewritten the file since (known only where a monitor is asked).
    pub(super) fn same_index(&self) -> bool {
        self.same_index
    }

    /// The reported paths, unless the capture must look everywhere.
    pub(super) fn changed(&self) -> Option<&Changed> {
        match &self.answer {
            Monitored::Changed(changed) => Some(changed),
            Monitored::Everything => None,
        }
    }

    /// The token the stat cache this save leaves keeps (`None`: the one it kept, if any), with
    /// `dirty` (the tracked paths found to differ from the index, sorted) and the index's
    /// content key (`None` when no monitor was asked: the old token stays as it is), and
    /// whether it must be written even if nothing else in the cache changed.
    pub(super) fn next<'a>(
        &self,
        index: &gix::index::State,
        dirty: impl Iterator<Item = &'a BString>,
    ) -> (Option<BString>, Vec<BString>, Option<u64>, bool) {
        if !self.asked {
            return (None, Vec::new(), None, false);
        }
        let mut dirty: Vec<BString> = dirty.cloned().collect();
        dirty.sort_unstable();
        dirty.dedup();
        let content = Some(self.content.unwrap_or_else(|| content_key(index)));
        match &self.next {
            Some((token, reported)) => {
                let must = self.changed().is_none() || *reported > ADVANCE_AFTER;
                (Some(token.clone()), dirty, content, must)
            }
            None => (None, dirty, content, false),
        }
    }
}

impl Changed {
    /// Whether the monitor reported `path`, a directory above it, or a path below it: what
    /// is there may have changed. A reported directory stands for everything below it, as git
    /// takes a reported path it does not track (`handle_path_without_trailing_slash`).
    pub(super) fn touches(&self, path: &BStr) -> bool {
        if self.paths.contains(path) {
            return true;
        }
        if statcache::above(path)
            .skip(1)
            .any(|dir| self.paths.contains(dir))
        {
            return true;
        }
        let mut below = BString::from(path);
        below.push(b'/');
        self.paths
            .range::<BString, _>(&below..)
            .next()
            .is_some_and(|p| p.starts_with(below.as_slice()))
    }

    /// Whether the listing of the directory `dir` may be trusted without looking at its
    /// stamps: nothing at, above or below it was reported, nor a `.gitignore` above it.
    pub(super) fn leaves_dir(&self, dir: &BStr) -> bool {
        !self.touches(dir)
            && !statcache::above(dir).any(|above| self.paths.contains(&ignore_file(above)))
    }

    /// The tracked paths to compare with their files besides those [`Changed::touches`]; `None`
    /// when every tracked path must be.
    pub(super) fn dirty(&self) -> Option<&[BString]> {
        self.dirty.as_deref()
    }

    /// The reported paths, sorted.
    pub(super) fn paths(&self) -> impl Iterator<Item = &BStr> {
        self.paths.iter().map(|p| p.as_bstr())
    }
}

/// Stage 1: ask the monitor `core.fsmonitor` names, if any, what changed since the token kept
/// in the stat cache (read here: it is returned, `Some`, for the scan not to read it again).
/// `allowed`: the answer may be used (not on a capture taken again after a doubt).
pub(super) fn ask(
    env: &Env<'_>,
    index: &gix::index::State,
    allowed: bool,
) -> (Monitor, Option<Option<statcache::Read>>) {
    let usable = allowed
        && env.moment.is_some()
        && env.options.stand_in.is_none()
        && !env.caps.ignore_case
        && !index.is_sparse();
    let Some(hook) = hook(env.repo).filter(|_| usable) else {
        return (Monitor::everything(None), None);
    };
    let read = statcache::Read::of(env.repo.git_dir(), env.repo.object_hash());
    // The file system's clock went back since the token was kept: its stamps may lie.
    let kept = read
        .as_ref()
        .filter(|read| env.started().is_some_and(|now| now >= read.started()))
        .and_then(|read| read.monitor());
    let asked = kept.map_or(&b""[..], |kept| kept.token.as_slice());
    // The index as the token's dirty set is about: the same file, or one with the same
    // entries (`git status` rewrites the file after edits).
    let same_file = env.index_id.is_some() && read.as_ref().and_then(|r| r.index()) == env.index_id;
    let content = match kept {
        Some(kept) if same_file => Some(kept.content),
        Some(_) => Some(content_key(index)),
        None => None,
    };
    let same_index = kept.is_some_and(|kept| Some(kept.content) == content);
    let mut monitor = Monitor {
        answer: Monitored::Everything,
        next: None,
        asked: true,
        content,
        same_index,
    };
    let Some(reply) = query(&hook, &env.workdir, asked.as_bstr()) else {
        return (monitor, Some(read));
    };
    monitor.next = Some((reply.token, reply.paths.as_ref().map_or(0, Vec::len)));
    let (Some(kept), Some(paths)) = (kept, reply.paths) else {
        return (monitor, Some(read));
    };
    let Some(paths) = mapped(paths) else {
        return (monitor, Some(read));
    };
    monitor.answer = Monitored::Changed(Changed {
        paths,
        dirty: same_index.then(|| kept.dirty.clone()),
    });
    (monitor, Some(read))
}

/// The hook `core.fsmonitor` names, when it is one this save can ask: not set, `false`, and
/// `true` (git's built-in daemon) give none, as does a hook of another protocol version than 2
/// (`core.fsmonitorHookVersion`) and one from configuration the repository's owner does not
/// own.
fn hook(repo: &gix::Repository) -> Option<std::ffi::OsString> {
    let config = repo.config_snapshot();
    let value = config.string("core.fsmonitor")?;
    if value.is_empty() || gix::config::Boolean::try_from(value.as_bstr()).is_ok() {
        return None;
    }
    if config
        .integer("core.fsmonitorHookVersion")
        .is_some_and(|version| version != 2)
    {
        return None;
    }
    config.trusted_program("core.fsmonitor").ok().flatten()
}

/// What identifies what the index tracks: every entry's path, stage, intent-to-add flag, mode
/// and object, not its stat data or extensions (which `git status` rewrites). Eight bytes at a
/// time: a pass over a million entries costs milliseconds.
pub(super) fn content_key(index: &gix::index::State) -> u64 {
    let mut hash = Words::default();
    for entry in index.entries() {
        hash.bytes(entry.id.as_slice());
        let ita = entry
            .flags
            .contains(gix::index::entry::Flags::INTENT_TO_ADD);
        let stage = entry.stage() as u64;
        hash.word(u64::from(entry.mode.bits()) | stage << 32 | u64::from(ita) << 40);
        hash.bytes(entry.path(index));
    }
    hash.word(index.entries().len() as u64);
    hash.finish()
}

/// A fast, non-cryptographic hash of 64-bit words (what a changed entry of the index must
/// change, not what an adversary could forge: the index is the user's own).
#[derive(Default)]
struct Words(u64);

impl Words {
    fn word(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.word(u64::from_le_bytes(last) ^ (bytes.len() as u64) << 56);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hook's reply: the new token, and the paths changed since the token asked with (`None`:
/// the hook does not know, "everything").
struct Reply {
    token: BString,
    paths: Option<Vec<BString>>,
}

/// Run `hook` as git runs it (through the shell, in the working tree, with the protocol
/// version and the token), for at most [`TIMEOUT`] ([`FIRST_TIMEOUT`] without a token). `None`
/// when it fails, is slow, or answers with no token.
fn query(hook: &std::ffi::OsStr, workdir: &std::path::Path, token: &BStr) -> Option<Reply> {
    let mut script = std::ffi::OsString::from(hook);
    script.push(" \"$@\"");
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(script)
        .arg(hook)
        .arg("2")
        .arg(token.to_str_lossy().into_owned())
        .current_dir(workdir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    // A group of its own: a hook given up on goes with everything it started (the sample
    // hook runs Perl, which runs a Watchman client).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().ok()?;
    let mut stdout = child.stdout.take()?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = tx.send(stdout.read_to_end(&mut out).map(|_| out));
    });
    let wait = if token.is_empty() {
        FIRST_TIMEOUT
    } else {
        TIMEOUT
    };
    let deadline = std::time::Instant::now() + wait;
    let succeeded = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.success(),
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            _ => {
                give_up(&mut child);
                return None;
            }
        }
    };
    // A hook that left something holding its output open is given up on with it.
    let left = deadline.saturating_duration_since(std::time::Instant::now());
    let out = match rx.recv_timeout(left) {
        Ok(Ok(out)) if succeeded => out,
        _ => {
            give_up(&mut child);
            return None;
        }
    };
    parse(&out)
}

/// Stop the hook and whatever it started, and reap it.
fn give_up(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A version-2 reply: the token, a NUL, then NUL-separated paths; a first path that starts
/// with `/` means the hook knows nothing.
fn parse(out: &[u8]) -> Option<Reply> {
    let mut parts = out.split(|b| *b == 0);
    let token = parts.next()?;
    if token.is_empty() {
        return None;
    }
    let paths: Vec<BString> = parts.filter(|p| !p.is_empty()).map(BString::from).collect();
    let trivial = paths.first().is_some_and(|p| p.starts_with(b"/"));
    Some(Reply {
        token: token.into(),
        paths: (!trivial).then_some(paths),
    })
}

/// The reported paths as paths of the working tree (a trailing `/`, a whole directory, taken
/// off); `None` when one cannot be mapped (absolute, `.` or `..` in it, the top itself), or
/// there are too many: then everything is looked at. Paths inside `.git` are dropped: nothing
/// a save takes is there.
fn mapped(paths: Vec<BString>) -> Option<BTreeSet<BString>> {
    if paths.len() > MOST_PATHS {
        return None;
    }
    let mut out = BTreeSet::new();
    for mut path in paths {
        while path.ends_with(b"/") {
            path.pop();
        }
        let fine = !path.is_empty()
            && !path.starts_with(b"/")
            && path
                .split(|b| *b == b'/')
                .all(|c| !c.is_empty() && c != b"." && c != b"..");
        if !fine {
            return None;
        }
        if path == ".git" || path.starts_with(b".git/") {
            continue;
        }
        out.insert(path);
    }
    Some(out)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    fn changed(paths: &[&str]) -> Changed {
        Changed {
            paths: paths.iter().map(|p| BString::from(*p)).collect(),
            dirty: Some(Vec::new()),
        }
    }

    #[test]
    fn a_reported_path_touches_itself_what_is_below_it_and_what_is_above_it() {
        let c = changed(&["a/b", "x/y/z.txt"]);
        for touched in ["a/b", "a/b/c", "a/b/c/d.txt", "a", "x", "x/y", "x/y/z.txt"] {
            assert!(c.touches(touched.into()), "{touched}");
        }
        for untouched in ["a/bc", "a/c", "b", "x/y/z.txt2", "x/w", "ab"] {
            assert!(!c.touches(untouched.into()), "{untouched}");
        }
    }

    #[test]
    fn a_reported_gitignore_leaves_no_listing_below_it() {
        let c = changed(&["a/.gitignore"]);
        assert!(!c.leaves_dir("a/b/c".into()));
        assert!(!c.leaves_dir("a".into()));
        assert!(c.leaves_dir("b".into()));
        let top = changed(&[".gitignore"]);
        assert!(!top.leaves_dir("anything/deep".into()));
    }

    #[test]
    fn the_content_key_changes_with_what_the_index_tracks_not_with_its_stat_data() {
        use gix::index::entry::{Flags, Mode, Stat};
        let id = |n: u8| gix::ObjectId::from_bytes_or_panic(&[n; 20]);
        let index = |entries: &[(&str, u8, Mode, Flags, u32)]| {
            let mut state = gix::index::State::new(gix::hash::Kind::Sha1);
            for (path, n, mode, flags, mtime) in entries {
                let stat = Stat {
                    mtime: gix::index::entry::stat::Time {
                        secs: *mtime,
                        nsecs: 0,
                    },
                    ..Stat::default()
                };
                state.dangerously_push_entry(stat, id(*n), *flags, *mode, (*path).into());
            }
            state
        };
        let (file, none) = (Mode::FILE, Flags::empty());
        let base = content_key(&index(&[
            ("a", 1, file, none, 1),
            ("b/c", 2, file, none, 1),
        ]));
        // Stat data (what git status refreshes) does not count.
        let restat = content_key(&index(&[
            ("a", 1, file, none, 9),
            ("b/c", 2, file, none, 9),
        ]));
        assert_eq!(base, restat);
        let changes = [
            index(&[("a", 3, file, none, 1), ("b/c", 2, file, none, 1)]),
            index(&[
                ("a", 1, Mode::FILE_EXECUTABLE, none, 1),
                ("b/c", 2, file, none, 1),
            ]),
            index(&[
                ("a", 1, file, Flags::INTENT_TO_ADD, 1),
                ("b/c", 2, file, none, 1),
            ]),
            index(&[("a", 1, file, none, 1), ("b/d", 2, file, none, 1)]),
            index(&[("a", 1, file, none, 1)]),
            index(&[("ab/c", 1, file, none, 1), ("", 2, file, none, 1)]),
        ];
        for (n, changed) in changes.iter().enumerate() {
            assert_ne!(content_key(changed), base, "change {n}");
        }
    }

    #[test]
    fn replies_are_read_as_git_reads_them() {
        let reply = parse(b"c:1:2\0a/b\0c\0").expect("a reply");
        assert_eq!(reply.token, "c:1:2");
        assert_eq!(reply.paths, Some(vec!["a/b".into(), "c".into()]));
        // Nothing changed.
        let reply = parse(b"c:1:3\0").expect("a reply");
        assert_eq!(reply.paths, Some(Vec::new()));
        // "/" first: the hook knows nothing (also when another reply follows it, as the
        // sample hook prints when it had to start watching).
        let reply = parse(b"c:1:2\0/c:1:4\0a\0").expect("a reply");
        assert_eq!(reply.token, "c:1:2");
        assert_eq!(reply.paths, None);
        // No token: no reply.
        assert!(parse(b"").is_none());
        assert!(parse(b"\0a\0").is_none());
    }

    #[test]
    fn paths_that_cannot_be_mapped_mean_everything() {
        let ok = mapped(vec!["a/".into(), "b/c".into(), ".git/index".into()]).expect("mapped");
        assert_eq!(
            ok.into_iter().collect::<Vec<_>>(),
            vec![BString::from("a"), "b/c".into()]
        );
        for bad in ["/etc/passwd", "a/../b", "./a", "a//b", ""] {
            assert!(mapped(vec![bad.into()]).is_none(), "{bad}");
        }
        assert!(
            mapped(
                (0..=MOST_PATHS)
                    .map(|i| BString::from(i.to_string()))
                    .collect()
            )
            .is_none()
        );
    }
}
