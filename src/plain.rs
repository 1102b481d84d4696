//! Plain directories: checkpoints of a directory that is in no git working tree, kept in a
//! private store.
//!
//! A store is a git directory (what `git init --bare` makes) under
//! `${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores/<name>-<12 hex>`, the hex being the
//! start of the SHA-1 of the directory's canonical path. Its config sets `core.bare = false`
//! and `core.worktree` to the directory, so git and gix both see the directory as its working
//! tree (`git --git-dir=<store> status` works), and records the directory again as
//! `checkpoint.directory` for `stores` to list. Everything git-checkpoint keeps besides objects
//! and refs (index, stat cache, restore journal, locks, scratch files) lives in the git
//! directory: nothing is written into the directory by a save.

use std::path::{Path, PathBuf};

use gix::bstr::ByteSlice;

use crate::error::{Error, Result};

/// The config key a store records its directory under.
pub const DIRECTORY_KEY: &str = "checkpoint.directory";

/// The config key a store records its directory's file system under (the device number
/// `stat` gives, where there is one), to tell a directory that was deleted from one whose file
/// system is not mounted now.
pub const DEVICE_KEY: &str = "checkpoint.device";

/// Where private stores live: `$XDG_DATA_HOME/git-checkpoint/stores`, else
/// `$HOME/.local/share/git-checkpoint/stores`.
pub fn stores_root() -> Result<PathBuf> {
    Ok(data_dir()?.join("stores"))
}

/// git-checkpoint's own data directory: `$XDG_DATA_HOME/git-checkpoint`, else
/// `$HOME/.local/share/git-checkpoint`.
pub fn data_dir() -> Result<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|home| PathBuf::from(home).join(".local").join("share"))
        })
        .ok_or_else(|| {
            Error::InvalidInput(
                "neither XDG_DATA_HOME nor HOME is set: there is nowhere to keep the checkpoints of a plain directory (name a store with --store or GIT_CHECKPOINT_STORE)".into(),
            )
        })?;
    Ok(data.join("git-checkpoint"))
}

/// The canonical form of `dir` (symlinks resolved), which names its store.
pub fn canonical(dir: &Path) -> Result<PathBuf> {
    dir.canonicalize().map_err(|source| Error::Io {
        context: format!("cannot resolve `{}`", dir.display()),
        source,
    })
}

/// The store of the directory `canonical` (already canonical) under `root`:
/// `<name>-<12 hex of the SHA-1 of the path>`.
pub fn store_path(root: &Path, canonical: &Path) -> PathBuf {
    let mut hasher = gix::hash::hasher(gix::hash::Kind::Sha1);
    hasher.update(canonical.as_os_str().as_encoded_bytes());
    let hex = hasher
        .try_finalize()
        .map(|id| id.to_hex_with_len(12).to_string())
        .unwrap_or_else(|_| "000000000000".into());
    let name: String = canonical
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into())
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let name = name.trim_start_matches('.');
    let name = if name.is_empty() { "dir" } else { name };
    root.join(format!("{name}-{hex}"))
}

/// The nearest directory at or above `canonical` that has a private store, and that store.
/// A directory above that is refused as a plain directory (see [`refuse`]: a home directory, a
/// temporary directory, a root) is not used for what is below it, even when it has a store
/// (made with `--force`, or by an older version): the unrelated folders below such a directory
/// each get their own.
pub fn find(root: &Path, canonical: &Path) -> Option<(PathBuf, PathBuf)> {
    canonical.ancestors().find_map(|dir| {
        if dir != canonical && refuse(dir).is_err() {
            return None;
        }
        let store = store_path(root, dir);
        is_store(&store).then(|| (store, dir.to_owned()))
    })
}

/// Whether `path` looks like a git directory.
pub fn is_store(path: &Path) -> bool {
    path.join("HEAD").is_file() && path.join("objects").is_dir() && path.join("config").is_file()
}

/// Refuse a home directory itself, the system's temporary directory itself and a file system
/// root: a first save there would copy a whole disk, or every unrelated program's scratch
/// files, into a store, and every folder below would act on it. `canonical` is already
/// canonical.
pub fn refuse(canonical: &Path) -> Result<()> {
    let is = |dir: &Path| dir.canonicalize().is_ok_and(|dir| dir == canonical);
    let why = if canonical.parent().is_none() {
        Some("a file system root")
    } else if std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .is_some_and(|home| is(Path::new(&home)))
    {
        Some("your home directory")
    } else if is(&std::env::temp_dir()) || ["/tmp", "/var/tmp"].iter().any(|t| is(Path::new(t))) {
        Some("the system's temporary directory")
    } else {
        None
    };
    match why {
        Some(why) => Err(Error::RefusedDirectory {
            dir: canonical.to_owned(),
            why,
        }),
        None => Ok(()),
    }
}

/// The directory a store records (`checkpoint.directory`, else `core.worktree`).
pub fn recorded_directory(store: &Path) -> Option<PathBuf> {
    let file =
        gix::config::File::from_path_no_includes(store.join("config"), gix::config::Source::Local)
            .ok()?;
    let value = file
        .string(DIRECTORY_KEY)
        .or_else(|| file.string("core.worktree"))?;
    gix::path::from_bstr(value.as_bstr())
        .ok()
        .map(|p| p.into_owned())
}

/// Whether the directory a store keeps is there: only [`Presence::Absent`] lets its store be
/// removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presence {
    /// It exists.
    Exists,
    /// It is known to be gone: its path does not exist (`ENOENT`) on the file system it was on.
    Absent,
    /// Neither can be told (why): it cannot be read (permission denied), its file system is not
    /// mounted, something else stands at its path, or the store does not record it.
    Unknown(String),
}

/// Whether the directory `store` records is there.
pub fn presence(store: &Path) -> Presence {
    let Some(dir) = recorded_directory(store) else {
        return Presence::Unknown("the store does not record its directory".into());
    };
    match std::fs::metadata(&dir) {
        Ok(md) if md.is_dir() => Presence::Exists,
        Ok(_) => Presence::Unknown("something other than a directory stands at its path".into()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            // Gone from the file system it was on; or on one that is not mounted now, where
            // its path ends on another one.
            let recorded = recorded_device(store);
            let here = dir.ancestors().skip(1).find_map(device_of);
            match (recorded, here) {
                (Some(recorded), Some(here)) if recorded != here => Presence::Unknown(
                    "its file system is not mounted (the path now ends on another one)".into(),
                ),
                _ => Presence::Absent,
            }
        }
        Err(err) => Presence::Unknown(format!("it cannot be looked at: {err}")),
    }
}

/// The device number of the file system `path` is on, where the system has one.
fn device_of(path: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|md| md.dev())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The device a store records for its directory ([`DEVICE_KEY`]).
fn recorded_device(store: &Path) -> Option<u64> {
    let file =
        gix::config::File::from_path_no_includes(store.join("config"), gix::config::Source::Local)
            .ok()?;
    file.string(DEVICE_KEY)?.to_str().ok()?.trim().parse().ok()
}

/// Create the store `store` for the directory `canonical`, atomically: it is built beside its
/// final place and renamed there, so a concurrent first save finds either no store or a
/// complete one (and the loser of that race uses the winner's).
pub fn create(store: &Path, canonical: &Path) -> Result<()> {
    let parent = store.parent().unwrap_or(store);
    let io = |what: &str, path: &Path| {
        let context = format!("cannot {what} `{}`", path.display());
        move |source| Error::Io { context, source }
    };
    std::fs::create_dir_all(parent).map_err(io("create", parent))?;
    let tmp = parent.join(format!(".new-{:016x}", rand::random::<u64>()));
    let built = build(&tmp, canonical);
    if let Err(err) = built {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(err);
    }
    match std::fs::rename(&tmp, store) {
        Ok(()) => Ok(()),
        Err(_) if is_store(store) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(())
        }
        Err(source) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Err(Error::Io {
                context: format!("cannot create the store `{}`", store.display()),
                source,
            })
        }
    }
}

fn build(tmp: &Path, canonical: &Path) -> Result<()> {
    gix::create::into(
        tmp,
        gix::create::Kind::Bare,
        gix::create::Options::default(),
    )
    .map_err(|err| Error::Git {
        context: format!("cannot create a store in `{}`", tmp.display()),
        source: Box::new(err),
    })?;
    let directory = canonical.to_str().ok_or_else(|| {
        Error::Unsupported(format!(
            "`{}` is not valid UTF-8: its store's configuration cannot name it",
            canonical.display()
        ))
    })?;
    let config_path = tmp.join("config");
    let mut config = std::fs::read_to_string(&config_path).map_err(|source| Error::Io {
        context: format!("cannot read `{}`", config_path.display()),
        source,
    })?;
    // `gix` wrote `bare = true`: this git directory has a working tree, named by
    // `core.worktree` (which git ignores in a bare repository).
    if config.matches('[').count() != 1 || !config.contains("bare = true") {
        return Err(Error::Unsupported(
            "cannot write the store's configuration: unexpected content".into(),
        ));
    }
    config = config.replace("bare = true", "bare = false");
    if !config.ends_with('\n') {
        config.push('\n');
    }
    let quoted = quote(directory);
    config.push_str(&format!(
        "\tworktree = {quoted}\n\tlogAllRefUpdates = false\n[checkpoint]\n\tdirectory = {quoted}\n"
    ));
    if let Some(device) = device_of(canonical) {
        config.push_str(&format!("\tdevice = {device}\n"));
    }
    std::fs::write(&config_path, config).map_err(|source| Error::Io {
        context: format!("cannot write `{}`", config_path.display()),
        source,
    })
}

/// A git config value in double quotes, with `\` and `"` escaped.
fn quote(value: &str) -> String {
    let mut out = String::from('"');
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Make `store` the store of the directory `canonical` (already canonical): its config names
/// that directory from now on, in `core.worktree` and in [`DIRECTORY_KEY`]. For a directory
/// that was moved or renamed; the config is replaced atomically.
pub fn readdress(store: &Path, canonical: &Path) -> Result<()> {
    let path = store.join("config");
    let io = |what: &str| {
        let context = format!("cannot {what} `{}`", path.display());
        move |source| Error::Io { context, source }
    };
    let directory = canonical.to_str().ok_or_else(|| {
        Error::Unsupported(format!(
            "`{}` is not valid UTF-8: its store's configuration cannot name it",
            canonical.display()
        ))
    })?;
    let text = std::fs::read(&path).map_err(io("read"))?;
    let mut file = gix::config::File::from_bytes_owned(
        &mut text.clone(),
        gix::config::file::Metadata::from(gix::config::Source::Local),
        Default::default(),
    )
    .map_err(|err| Error::Git {
        context: format!("cannot read `{}`", path.display()),
        source: Box::new(err),
    })?;
    let device = device_of(canonical).map(|d| d.to_string());
    let values = [
        ("core", "worktree", Some(directory)),
        ("checkpoint", "directory", Some(directory)),
        ("checkpoint", "device", device.as_deref()),
    ];
    for (section, key, value) in values {
        let Some(value) = value else {
            continue;
        };
        // gix quotes and escapes the value as the config syntax needs.
        file.set_raw_value_by(section, None, key, value)
            .map_err(|err| Error::Git {
                context: format!("cannot set {section}.{key} in `{}`", path.display()),
                source: Box::new(err),
            })?;
    }
    let mut out = Vec::new();
    file.write_to(&mut out).map_err(io("write"))?;
    let tmp = store.join(format!("config.new-{:016x}", rand::random::<u64>()));
    std::fs::write(&tmp, &out).map_err(io("write"))?;
    std::fs::rename(&tmp, &path).map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        Error::Io {
            context: format!("cannot replace `{}`", path.display()),
            source,
        }
    })
}

/// Open the store `store` with `directory` as its working tree.
pub fn open(store: &Path, directory: &Path) -> Result<gix::Repository> {
    let repo = gix::open_opts(store, crate::repo::open_options()).map_err(|err| Error::Git {
        context: format!("cannot open the store `{}`", store.display()),
        source: Box::new(err),
    })?;
    match repo.workdir().map(|w| w.canonicalize()) {
        Some(Ok(workdir)) if workdir == directory => Ok(repo),
        _ => Err(Error::InvalidInput(format!(
            "the store `{}` does not keep the checkpoints of `{}` (its core.worktree names another directory)",
            store.display(),
            directory.display()
        ))),
    }
}

/// One private store, as `stores` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The store (a git directory).
    pub store: PathBuf,
    /// The directory it keeps checkpoints of; `None` when its config does not say.
    pub directory: Option<PathBuf>,
}

/// The stores under `root`, sorted by path. Scratch directories of a store being created are
/// left out.
pub fn list(root: &Path) -> Result<Vec<Listed>> {
    let entries = match std::fs::read_dir(root) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(Error::Io {
                context: format!("cannot read `{}`", root.display()),
                source,
            });
        }
    };
    let mut out: Vec<Listed> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(".new-"))
        })
        .filter(|p| is_store(p))
        .map(|store| Listed {
            directory: recorded_directory(&store),
            store,
        })
        .collect();
    out.sort_by(|a, b| a.store.cmp(&b.store));
    Ok(out)
}

/// The bytes of the files below `dir` (not following symlinks).
pub fn size_on_disk(dir: &Path) -> u64 {
    let mut total = 0;
    let mut dirs = vec![dir.to_owned()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(md) = entry.path().symlink_metadata() else {
                continue;
            };
            if md.is_dir() {
                dirs.push(entry.path());
            } else {
                total += md.len();
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_names_keep_the_directory_name_and_differ_by_path() {
        let root = Path::new("/data/stores");
        let a = store_path(root, Path::new("/home/u/a/proj"));
        let b = store_path(root, Path::new("/home/u/b/proj"));
        assert_ne!(a, b);
        let name = a.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        assert!(name.starts_with("proj-"), "{name}");
        assert_eq!(name.len(), "proj-".len() + 12);
        assert_eq!(a, store_path(root, Path::new("/home/u/a/proj")));
        let odd = store_path(root, Path::new("/x/.my dir;rm"));
        assert!(
            odd.to_string_lossy().contains("my_dir_rm-"),
            "{}",
            odd.display()
        );
        assert!(
            store_path(root, Path::new("/"))
                .to_string_lossy()
                .contains("root-")
        );
    }

    #[test]
    fn config_values_are_quoted() {
        assert_eq!(quote(r#"/a "b"\c"#), r#""/a \"b\"\\c""#);
    }

    #[test]
    fn roots_are_refused() {
        assert!(matches!(
            refuse(Path::new("/")),
            Err(Error::RefusedDirectory { .. })
        ));
    }
}
