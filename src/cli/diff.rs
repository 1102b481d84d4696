//! `git checkpoint diff`, and the patch renderer `show -p` shares.

use std::io::Write;

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice};
use gix::objs::tree::EntryKind;

use git_checkpoint::diff::{DiffOptions, FileDiff, Status, file_diffs};
use git_checkpoint::treediff::{self, Side};
use git_checkpoint::{Error, resolve};

use super::output::{ColorChoice, Painter, Ui};
use super::{Failure, open_repo, stat};

/// Show what changed between two checkpoints, or between a checkpoint and the working tree,
/// as a patch `git apply` accepts.
///
/// `diff A B`: from checkpoint A to checkpoint B. `diff A`: from A to the working tree now
/// (untracked files that are not ignored included). `diff`: from the newest checkpoint of
/// this worktree to the working tree. Nothing is written to the repository.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The old side: a checkpoint (default: the newest).
    #[arg(value_name = "A")]
    from: Option<String>,
    /// The new side: a checkpoint (default: the working tree).
    #[arg(value_name = "B")]
    to: Option<String>,
    /// A diffstat, as `git diff --stat`.
    #[arg(long, group = "format")]
    stat: bool,
    /// Added and deleted lines per file, as `git diff --numstat`.
    #[arg(long, group = "format")]
    numstat: bool,
    /// Status letter and path per file, as `git diff --name-status`.
    #[arg(long, group = "format")]
    name_status: bool,
    /// Changed paths only.
    #[arg(long, group = "format")]
    name_only: bool,
    /// A JSON object with a "files" array.
    #[arg(long, group = "format")]
    json: bool,
    /// Lines of context.
    #[arg(short = 'U', long = "unified", value_name = "N", default_value_t = 3)]
    context: usize,
    /// Detect renames, optionally with a minimal similarity in percent (default 50). On by
    /// default, as in git, unless `diff.renames` is false.
    #[arg(short = 'M', long = "find-renames", value_name = "N", num_args = 0..=1, default_missing_value = "50", require_equals = true)]
    renames: Option<u8>,
    /// Do not detect renames.
    #[arg(long, conflicts_with = "renames")]
    no_renames: bool,
    /// Emit binary files as git binary patches (with full index lines) so they apply too.
    #[arg(long)]
    binary: bool,
    /// Only these paths (files or directories), relative to the current directory.
    #[arg(last = true, value_name = "PATHS")]
    paths: Vec<std::path::PathBuf>,
}

pub fn run(ui: &Ui, color: ColorChoice, args: Args) -> Result<(), Failure> {
    let repo = open_repo()?;
    super::restore::warn_interrupted(ui, &repo);
    let worktree = git_checkpoint::repo::worktree_name(&repo)?;
    let all = resolve::load_all(&repo)?;
    let from = match &args.from {
        Some(spec) => resolve::resolve(&all, worktree.as_deref(), spec)?,
        None => resolve::of_worktree(&all, worktree.as_deref())
            .next()
            .ok_or_else(|| Error::UnknownCheckpoint("@".into()))?,
    };
    ui.warn_damaged([from]);
    // The working tree is snapshotted into memory: the repository is not written to.
    let memory = repo.clone().with_object_memory();
    let from_tree = git_checkpoint::store::commit_tree(&repo, from.commit)?;
    let to_tree = match &args.to {
        Some(spec) => {
            let to = resolve::resolve(&all, worktree.as_deref(), spec)?;
            ui.warn_damaged([to]);
            git_checkpoint::store::commit_tree(&repo, to.commit)?
        }
        None => {
            git_checkpoint::save::capture(&memory, None, false)?
                .snap
                .tree
        }
    };
    let mut changes = treediff::changes(&memory, Some(from_tree), Some(to_tree))?;
    let paths = super::repo_paths(&repo, &args.paths)?;
    if !paths.is_empty() {
        changes.retain(|c| {
            paths
                .iter()
                .any(|p| git_checkpoint::restore::is_at_or_below(c.path.as_bstr(), p.as_bstr()))
        });
    }
    let patch = !(args.stat || args.numstat || args.name_status || args.name_only || args.json);
    let files = file_diffs(
        &memory,
        &changes,
        DiffOptions {
            context: args.context,
            renames: renames(&repo, args.renames, args.no_renames),
            hunks: patch,
        },
    )?;
    let mut out = std::io::stdout().lock();
    let paint = diff_painter(&repo, color);
    if args.stat {
        stat::render(&mut out, &paint, &stat_entries(&files), stat_width())?;
    } else if args.numstat {
        numstat(&mut out, &files)?;
    } else if args.name_status {
        for f in &files {
            match &f.old_path {
                Some(old) => writeln!(
                    out,
                    "{}\t{}\t{}",
                    f.status.code(),
                    quote(old.as_bstr()),
                    quote(f.path.as_bstr())
                )?,
                None => writeln!(out, "{}\t{}", f.status.code(), quote(f.path.as_bstr()))?,
            }
        }
    } else if args.name_only {
        for f in &files {
            writeln!(out, "{}", quote(f.path.as_bstr()))?;
        }
    } else if args.json {
        let files: Vec<_> = files
            .iter()
            .map(|f| {
                serde_json::json!({
                    "path": f.path.to_str_lossy(),
                    "old_path": f.old_path.as_ref().map(|p| p.to_str_lossy().into_owned()),
                    "status": f.status.code(),
                    "additions": f.added,
                    "deletions": f.deleted,
                    "binary": f.binary,
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::json!({ "files": files }))?;
    } else {
        let style = PatchStyle {
            binary: args.binary,
        };
        render_patch_with(&mut out, &paint, &memory, &files, style)?;
    }
    Ok(())
}

/// Rename detection as git does it: `-M`, `--no-renames`, else `diff.renames` (default on).
pub fn renames(repo: &gix::Repository, flag: Option<u8>, off: bool) -> Option<u8> {
    if off {
        return None;
    }
    if flag.is_some() {
        return flag;
    }
    let on = repo
        .config_snapshot()
        .boolean("diff.renames")
        .unwrap_or(true);
    on.then_some(50)
}

/// The width git gives `--stat`: the terminal's, or 80.
pub fn stat_width() -> usize {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(80)
    } else {
        80
    }
}

/// Colour for diffs: `--color`, then `color.diff` / `color.ui`, then the usual rules.
pub fn diff_painter(repo: &gix::Repository, choice: ColorChoice) -> Painter {
    if choice != ColorChoice::Auto {
        return Painter::for_stdout(choice);
    }
    let config = repo.config_snapshot();
    let setting = config
        .string("color.diff")
        .or_else(|| config.string("color.ui"))
        .map(|v| v.to_str_lossy().to_ascii_lowercase());
    match setting.as_deref() {
        Some("never" | "false" | "no" | "off" | "0") => Painter::for_stdout(ColorChoice::Never),
        Some("always") => Painter::for_stdout(ColorChoice::Always),
        _ => Painter::for_stdout(ColorChoice::Auto),
    }
}

/// Stat entries in the shape the stat renderer takes, with git's rename notation.
pub fn stat_entries(files: &[FileDiff]) -> Vec<stat::Entry> {
    files
        .iter()
        .map(|f| stat::Entry {
            name: display_name(f),
            added: f.added,
            deleted: f.deleted,
            binary: f.binary.then_some(f.sizes),
        })
        .collect()
}

fn display_name(f: &FileDiff) -> String {
    match &f.old_path {
        Some(old) => rename_name(&old.to_str_lossy(), &f.path.to_str_lossy()),
        None => quote(f.path.as_bstr()),
    }
}

fn numstat(out: &mut impl Write, files: &[FileDiff]) -> std::io::Result<()> {
    for f in files {
        if f.binary {
            writeln!(out, "-\t-\t{}", display_name(f))?;
        } else {
            writeln!(out, "{}\t{}\t{}", f.added, f.deleted, display_name(f))?;
        }
    }
    Ok(())
}

/// git's `pprint_rename`: `dir/{old => new}/file`.
pub fn rename_name(a: &str, b: &str) -> String {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let mut pfx = 0;
    let mut i = 0;
    while i < ab.len() && i < bb.len() && ab[i] == bb[i] {
        if ab[i] == b'/' {
            pfx = i + 1;
        }
        i += 1;
    }
    let adjust = usize::from(pfx > 0);
    let mut sfx = 0;
    let (mut oi, mut ni) = (ab.len() as isize - 1, bb.len() as isize - 1);
    let floor = pfx as isize - adjust as isize;
    while oi >= floor && ni >= floor && oi >= 0 && ni >= 0 && ab[oi as usize] == bb[ni as usize] {
        if ab[oi as usize] == b'/' {
            sfx = ab.len() - oi as usize;
        }
        oi -= 1;
        ni -= 1;
    }
    let a_mid = ab.len().saturating_sub(pfx + sfx);
    let b_mid = bb.len().saturating_sub(pfx + sfx);
    if pfx + sfx > 0 {
        format!(
            "{}{{{} => {}}}{}",
            &a[..pfx],
            &a[pfx..pfx + a_mid],
            &b[pfx..pfx + b_mid],
            &a[a.len() - sfx..]
        )
    } else {
        format!("{a} => {b}")
    }
}

/// A path as git prints it with `core.quotePath` on: in double quotes with C escapes when it
/// holds control characters, quotes, backslashes or non-ASCII bytes.
pub fn quote(path: &BStr) -> String {
    let needs = path
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\' || b >= 0x7f);
    if !needs {
        return path.to_str_lossy().into_owned();
    }
    let mut out = String::from("\"");
    for &b in path.iter() {
        match b {
            b'\x07' => out.push_str("\\a"),
            b'\x08' => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\x0b' => out.push_str("\\v"),
            b'\x0c' => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b if !(0x20..0x7f).contains(&b) => out.push_str(&format!("\\{b:03o}")),
            b => out.push(b as char),
        }
    }
    out.push('"');
    out
}

/// `a/` or `b/` prefixed path, quoted as a whole as git does.
fn prefixed(prefix: &str, path: &BStr) -> String {
    let mut full = prefix.as_bytes().to_vec();
    full.extend_from_slice(path);
    quote(full.as_bstr())
}

fn mode(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Blob => "100644",
        EntryKind::BlobExecutable => "100755",
        EntryKind::Link => "120000",
        EntryKind::Commit => "160000",
        EntryKind::Tree => "040000",
    }
}

fn abbrev(repo: &gix::Repository, id: ObjectId) -> String {
    use gix::prelude::ObjectIdExt;
    id.attach(repo).shorten_or_id().to_string()
}

/// How a patch is written.
#[derive(Debug, Clone, Copy, Default)]
pub struct PatchStyle {
    /// `--binary`: binary patches and full index lines.
    pub binary: bool,
}

/// Write a patch in git's unified format.
pub fn render_patch(
    out: &mut impl Write,
    paint: &Painter,
    repo: &gix::Repository,
    files: &[FileDiff],
) -> std::io::Result<()> {
    render_patch_with(out, paint, repo, files, PatchStyle::default())
}

/// Write a patch in git's unified format, in the given style.
pub fn render_patch_with(
    out: &mut impl Write,
    paint: &Painter,
    repo: &gix::Repository,
    files: &[FileDiff],
    style: PatchStyle,
) -> std::io::Result<()> {
    for f in files {
        if f.status == Status::TypeChanged {
            // git shows a change of type as a deletion and an addition.
            let (old, new) = (f.old, f.new);
            let mut deletion = git_checkpoint::diff::file_diffs(
                repo,
                &[treediff::FileChange {
                    path: f.path.clone(),
                    old,
                    new: None,
                }],
                DiffOptions::default(),
            )
            .map_err(std::io::Error::other)?;
            let addition = git_checkpoint::diff::file_diffs(
                repo,
                &[treediff::FileChange {
                    path: f.path.clone(),
                    old: None,
                    new,
                }],
                DiffOptions::default(),
            )
            .map_err(std::io::Error::other)?;
            deletion.extend(addition);
            render_patch_with(out, paint, repo, &deletion, style)?;
            continue;
        }
        render_file(out, paint, repo, f, style)?;
    }
    Ok(())
}

fn render_file(
    out: &mut impl Write,
    paint: &Painter,
    repo: &gix::Repository,
    f: &FileDiff,
    style: PatchStyle,
) -> std::io::Result<()> {
    let new_path = f.path.as_bstr();
    let old_path = f.old_path.as_ref().map_or(new_path, |p| p.as_bstr());
    let meta = |s: String| paint.meta(&s);
    writeln!(
        out,
        "{}",
        meta(format!(
            "diff --git {} {}",
            prefixed("a/", old_path),
            prefixed("b/", new_path)
        ))
    )?;
    let ids = |old: Option<Side>, new: Option<Side>| {
        let show = |id: ObjectId| {
            if style.binary && f.binary {
                id.to_string()
            } else {
                abbrev(repo, id)
            }
        };
        let o = old.map(|s| show(s.id));
        let n = new.map(|s| show(s.id));
        let len = o.as_ref().or(n.as_ref()).map_or(7, String::len);
        (
            o.unwrap_or_else(|| "0".repeat(len)),
            n.unwrap_or_else(|| "0".repeat(len)),
        )
    };
    match (f.old, f.new) {
        (None, Some(new)) => {
            writeln!(out, "{}", meta(format!("new file mode {}", mode(new.kind))))?;
            let (o, n) = ids(None, Some(new));
            writeln!(out, "{}", meta(format!("index {o}..{n}")))?;
        }
        (Some(old), None) => {
            writeln!(
                out,
                "{}",
                meta(format!("deleted file mode {}", mode(old.kind)))
            )?;
            let (o, n) = ids(Some(old), None);
            writeln!(out, "{}", meta(format!("index {o}..{n}")))?;
        }
        (Some(old), Some(new)) => {
            if let Status::Renamed(score) = f.status {
                writeln!(out, "{}", meta(format!("similarity index {score}%")))?;
                writeln!(out, "{}", meta(format!("rename from {}", quote(old_path))))?;
                writeln!(out, "{}", meta(format!("rename to {}", quote(new_path))))?;
            }
            if old.kind != new.kind {
                writeln!(out, "{}", meta(format!("old mode {}", mode(old.kind))))?;
                writeln!(out, "{}", meta(format!("new mode {}", mode(new.kind))))?;
            }
            if old.id != new.id {
                let (o, n) = ids(Some(old), Some(new));
                if old.kind == new.kind {
                    writeln!(
                        out,
                        "{}",
                        meta(format!("index {o}..{n} {}", mode(new.kind)))
                    )?;
                } else {
                    writeln!(out, "{}", meta(format!("index {o}..{n}")))?;
                }
            }
        }
        (None, None) => return Ok(()),
    }
    let a = if f.old.is_some() {
        prefixed("a/", old_path)
    } else {
        "/dev/null".into()
    };
    let b = if f.new.is_some() {
        prefixed("b/", new_path)
    } else {
        "/dev/null".into()
    };
    if f.binary {
        if f.old.map(|s| s.id) == f.new.map(|s| s.id) {
            return Ok(());
        }
        if style.binary {
            let data = |side: Option<Side>| {
                git_checkpoint::diff::content(repo, side).map_err(std::io::Error::other)
            };
            writeln!(out, "GIT binary patch")?;
            binary_literal(out, &data(f.new)?)?;
            binary_literal(out, &data(f.old)?)?;
        } else {
            writeln!(out, "Binary files {a} and {b} differ")?;
        }
        return Ok(());
    }
    if f.hunks.is_empty() {
        return Ok(());
    }
    // git ends these lines with a tab when the name has a space, so the name is unambiguous.
    let tab = |p: &BStr| if p.contains(&b' ') { "\t" } else { "" };
    let a_tab = if f.old.is_some() { tab(old_path) } else { "" };
    let b_tab = if f.new.is_some() { tab(new_path) } else { "" };
    writeln!(out, "{}", meta(format!("--- {a}{a_tab}")))?;
    writeln!(out, "{}", meta(format!("+++ {b}{b_tab}")))?;
    for hunk in &f.hunks {
        let range = |start: usize, len: usize| {
            if len == 1 {
                format!("{start}")
            } else {
                format!("{start},{len}")
            }
        };
        let header = format!(
            "@@ -{} +{} @@",
            range(hunk.old_start, hunk.old_len),
            range(hunk.new_start, hunk.new_len)
        );
        write!(out, "{}", paint.frag(&header))?;
        if let Some(function) = &hunk.function {
            out.write_all(b" ")?;
            out.write_all(function)?;
        }
        out.write_all(b"\n")?;
        for line in &hunk.lines {
            let mut text = vec![line.origin as u8];
            text.extend_from_slice(&line.text);
            let painted = match line.origin {
                '-' => paint.deleted_bytes(&text),
                '+' => paint.added_bytes(&text),
                _ => text,
            };
            out.write_all(&painted)?;
            out.write_all(b"\n")?;
            if line.no_newline {
                out.write_all(b"\\ No newline at end of file\n")?;
            }
        }
    }
    Ok(())
}

/// One side of a git binary patch: `literal <size>`, the zlib-deflated data in base85 lines
/// of up to 52 bytes, then an empty line.
fn binary_literal(out: &mut impl Write, data: &[u8]) -> std::io::Result<()> {
    use gix::zlib::Compression;
    use gix::zlib::stream::deflate;
    let mut writer = deflate::Write::new(Vec::new(), Compression::BEST);
    writer.write_all(data)?;
    writer.flush()?;
    let deflated = writer.into_inner();
    writeln!(out, "literal {}", data.len())?;
    for chunk in deflated.chunks(52) {
        let len = chunk.len();
        let marker = if len <= 26 {
            b'A' + (len as u8 - 1)
        } else {
            b'a' + (len as u8 - 27)
        };
        let mut line = vec![marker];
        line.extend_from_slice(&base85(chunk));
        line.push(b'\n');
        out.write_all(&line)?;
    }
    writeln!(out)
}

/// git's base85 (`base85.c`): each 4 bytes, big-endian, as 5 digits; the last group padded
/// with zeros.
fn base85(data: &[u8]) -> Vec<u8> {
    const ALPHABET: &[u8; 85] =
        b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
    let mut out = Vec::with_capacity(data.len().div_ceil(4) * 5);
    for group in data.chunks(4) {
        let mut word = [0u8; 4];
        word[..group.len()].copy_from_slice(group);
        let mut value = u32::from_be_bytes(word);
        let mut digits = [0u8; 5];
        for digit in digits.iter_mut().rev() {
            *digit = ALPHABET[(value % 85) as usize];
            value /= 85;
        }
        out.extend_from_slice(&digits);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_print_like_git() {
        assert_eq!(rename_name("a.txt", "b.txt"), "a.txt => b.txt");
        assert_eq!(
            rename_name("dir/a.txt", "dir/b.txt"),
            "dir/{a.txt => b.txt}"
        );
        assert_eq!(rename_name("old/f.rs", "new/f.rs"), "{old => new}/f.rs");
        assert_eq!(rename_name("src/x/f.rs", "src/y/f.rs"), "src/{x => y}/f.rs");
        assert_eq!(rename_name("a/f", "a/b/f"), "a/{ => b}/f");
    }

    #[test]
    fn base85_matches_git() {
        // git's own encoding of these bytes (base85.c).
        assert_eq!(base85(b"\0\0\0\0"), b"00000");
        assert_eq!(base85(&[0xff, 0xff, 0xff, 0xff]), b"|NsC0");
        assert_eq!(base85(b"a"), base85(b"a\0\0\0"));
    }

    #[test]
    fn paths_are_quoted_like_git() {
        assert_eq!(quote(b"plain/path.txt".as_bstr()), "plain/path.txt");
        assert_eq!(quote(b"with space".as_bstr()), "with space");
        assert_eq!(quote("ü".as_bytes().as_bstr()), "\"\\303\\274\"");
        assert_eq!(quote(b"tab\there".as_bstr()), "\"tab\\there\"");
        assert_eq!(quote(b"q\"uote".as_bstr()), "\"q\\\"uote\"");
    }
}
