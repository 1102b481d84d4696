//! Shell completions and the man page, generated from the clap definitions: what the
//! `completions` and `install-docs` commands write, and what `completions/` and `man/` hold.
//!
//! Completion scripts from clap alone only fire for `git-checkpoint <TAB>`. `git checkpoint
//! <TAB>` goes through git's own completion, which calls `_git_checkpoint` (bash),
//! `_git-checkpoint` (zsh) or the fish rules for `git`; the scripts here add those hooks, and
//! complete checkpoint ids and names (read with `git for-each-ref`, so completing stays fast)
//! wherever a checkpoint goes, and remotes (`git remote`) where a remote goes.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use super::Cli;

/// Subcommands whose positional arguments are checkpoints. (`push` takes a remote first, then
/// checkpoints; `fetch` a remote.)
const TAKES_CHECKPOINTS: &str = "show restore diff revert drop pin unpin";

/// The completion script for `shell`.
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut out = Vec::new();
    if shell == Shell::Bash {
        // clap_complete's bash script names its cases inconsistently when the command name has
        // a hyphen: generate it under a plain name, called from the wrappers below, and leave
        // the registration to them.
        let mut cmd = Cli::command().name("gitcheckpoint");
        clap_complete::generate(shell, &mut cmd, "gitcheckpoint", &mut out);
        let script: String = String::from_utf8_lossy(&out)
            .lines()
            .map(|l| {
                if l.trim_start().starts_with("complete -F _gitcheckpoint") {
                    "    :".to_string()
                } else {
                    l.to_string()
                }
            })
            .map(|l| l + "\n")
            .collect();
        out = script.into_bytes();
    } else {
        let mut cmd = Cli::command();
        clap_complete::generate(shell, &mut cmd, "git-checkpoint", &mut out);
    }
    let extra = match shell {
        Shell::Bash => bash_extra(),
        Shell::Zsh => {
            let script = String::from_utf8_lossy(&out).into_owned();
            return zsh(script).into_bytes();
        }
        Shell::Fish => fish_extra(),
        _ => String::new(),
    };
    out.extend_from_slice(extra.as_bytes());
    out
}

/// The options whose value is the next word (`--color never`, `--store /tmp`), from the clap
/// definitions: the word after one is its value, not an argument, where the scripts count
/// arguments. Those are the global options (before the subcommand) and the options of the
/// commands whose arguments are counted, push and fetch (whose first argument is a remote).
fn value_options() -> Vec<String> {
    let cmd = Cli::command();
    let mut names = std::collections::BTreeSet::new();
    let counted = cmd
        .get_subcommands()
        .filter(|c| ["push", "fetch"].contains(&c.get_name()));
    let commands = std::iter::once(&cmd).chain(counted);
    for arg in commands.flat_map(|c| c.get_arguments()) {
        if arg.is_positional() || !arg.get_action().takes_values() || arg.is_require_equals_set() {
            continue;
        }
        names.extend(
            arg.get_short_and_visible_aliases()
                .into_iter()
                .flatten()
                .map(|s| format!("-{s}")),
        );
        names.extend(
            arg.get_long_and_visible_aliases()
                .into_iter()
                .flatten()
                .map(|l| format!("--{l}")),
        );
    }
    names.into_iter().collect()
}

fn bash_extra() -> String {
    let value_options = value_options().join(" | ");
    format!(
        r#"
# --- git-checkpoint: checkpoint ids and names, and `git checkpoint <TAB>` ---

# git, as git's completion runs it where it is loaded (`__git`: honouring `git -C <dir>` and
# `--git-dir` on the line); plain git otherwise.
__git_checkpoint_git() {{
    if declare -F __git >/dev/null; then
        __git "$@"
    else
        git "$@" 2>/dev/null
    fi
}}

__git_checkpoint_ids() {{
    __git_checkpoint_git for-each-ref --format='%(refname:lstrip=2)' refs/checkpoints/
    __git_checkpoint_git for-each-ref --format='%(trailers:key=Checkpoint-Name,valueonly,separator=%x0a)' \
        refs/checkpoints/ | sed '/^$/d' | sort -u
    printf '%s\n' @ latest
}}

# Complete a checkpoint, a remote or a path where one goes. $1: index in COMP_WORDS of the
# first word after the command. Returns 1 when the word is none of them.
__git_checkpoint_complete_ids() {{
    local first=$1 cur="${{COMP_WORDS[COMP_CWORD]}}" sub="" args=0 i words paths=""
    for ((i = first; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in
            --)
                # Paths follow, for the commands that take them.
                case "$sub" in
                    restore | diff | show) paths=1; break ;;
                    *) return 1 ;;
                esac ;;
            # `--opt=value`, which bash splits at `=`: the value is no argument.
            =) i=$((i + 1)) ;;
            # An option whose value is the next word.
            {value_options})
                [ "${{COMP_WORDS[i+1]}}" = "=" ] || i=$((i + 1)) ;;
            -*) ;;
            *) if [ -z "$sub" ]; then sub="${{COMP_WORDS[i]}}"; else args=$((args + 1)); fi ;;
        esac
    done
    # The word being completed is an option's value: the option's own completion.
    [ "$i" -gt "$COMP_CWORD" ] && return 1
    [ -n "$sub" ] || return 1
    if [ -n "$paths" ]; then
        compopt -o filenames 2>/dev/null
        local IFS=$'\n'
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
    fi
    [[ "$cur" == -* ]] && return 1
    case "$sub" in
        push | fetch)
            # The remote first, as with `git push`; then (push) checkpoints.
            if [ "$args" -eq 0 ]; then
                words="$(__git_checkpoint_git remote)"
            elif [ "$sub" = push ]; then
                words="$(__git_checkpoint_ids)"
            else
                return 1
            fi ;;
        *)
            case " {TAKES_CHECKPOINTS} " in
                *" $sub "*) words="$(__git_checkpoint_ids)" ;;
                *) return 1 ;;
            esac ;;
    esac
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return 0
}}

__git_checkpoint_main() {{
    __git_checkpoint_complete_ids 1 && return 0
    _gitcheckpoint "$@"
}}
complete -F __git_checkpoint_main -o bashdefault -o default git-checkpoint

# git's completion calls this for `git checkpoint …`.
_git_checkpoint() {{
    local at=$(( ${{__git_cmd_idx:-1}} + 1 ))
    __git_checkpoint_complete_ids "$at" && return 0
    local COMP_WORDS=(git-checkpoint "${{COMP_WORDS[@]:at}}")
    local COMP_CWORD=$(( COMP_CWORD - at + 1 ))
    _gitcheckpoint git-checkpoint "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
}}
"#
    )
}

fn zsh(script: String) -> String {
    // Positional checkpoints complete from the repository.
    let mut out = String::new();
    for line in script.lines() {
        let is_cp = [
            ":checkpoint -- ",
            ":checkpoints -- ",
            ":from -- ",
            ":to -- ",
        ]
        .iter()
        .any(|p| line.contains(p));
        let is_remote = line.contains(":remote -- ");
        if is_cp && line.contains(":_default") {
            out.push_str(&line.replace(":_default", ":__git_checkpoint_ids"));
        } else if is_remote && line.contains(":_default") {
            // The first argument is always the remote (as with `git push`), so it is completed
            // as one, alone: not offered together with the checkpoints that may follow it.
            out.push_str(
                &line
                    .replace("'::remote -- ", "':remote -- ")
                    .replace(":_default", ":__git_checkpoint_remotes"),
            );
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    let hook = r#"
# --- git-checkpoint: checkpoint ids and names ---
# git, in the directory that `git -C <dir> checkpoint …` names on the line, if it does.
(( $+functions[__git_checkpoint_git] )) ||
__git_checkpoint_git() {
    local -a line dirs
    local i
    line=(${(z)BUFFER})
    for (( i = 2; i < $#line; i++ )); do
        [[ $line[i] == checkpoint ]] && break
        [[ $line[i] == -C ]] && dirs+=(-C "${${(Q)line[i+1]}/#\~/$HOME}")
    done
    git $dirs "$@" 2>/dev/null
}
(( $+functions[__git_checkpoint_ids] )) ||
__git_checkpoint_ids() {
    local -a ids
    ids=(${(f)"$(__git_checkpoint_git for-each-ref --format='%(refname:lstrip=2)' refs/checkpoints/)"}
         ${(f)"$(__git_checkpoint_git for-each-ref --format='%(trailers:key=Checkpoint-Name,valueonly,separator=%x0a)' refs/checkpoints/)"}
         @ latest)
    compadd -a ids
}
(( $+functions[__git_checkpoint_remotes] )) ||
__git_checkpoint_remotes() {
    local -a remotes
    remotes=(${(f)"$(__git_checkpoint_git remote)"})
    compadd -a remotes
}
"#;
    // The hook must be defined before the final dispatch lines clap writes.
    match out.rfind("\nif [ \"$funcstack[1]\"") {
        Some(pos) => {
            out.insert_str(pos + 1, hook);
            out
        }
        None => out + hook,
    }
}

fn fish_extra() -> String {
    let value_options = value_options().join(" ");
    format!(
        r#"
# --- git-checkpoint: checkpoint ids and names, and `git checkpoint <TAB>` ---
function __git_checkpoint_ids
    git for-each-ref --format='%(refname:lstrip=2)' refs/checkpoints/ 2>/dev/null
    git for-each-ref --format='%(trailers:key=Checkpoint-Name,valueonly,separator=%x0a)' refs/checkpoints/ 2>/dev/null | string match -v ''
    printf '%s\n' @ latest
end

# How many arguments follow the subcommand on the line so far: options aside, and the value of
# an option that takes the next word as its value (--color never). -1 before the subcommand.
function __git_checkpoint_args
    set -l tokens (commandline -opc)
    set -l n -1
    set -l value 0
    for token in $tokens[2..-1]
        if test $value = 1
            set value 0
        else if contains -- $token {value_options}
            set value 1
        else if not string match -q -- '-*' $token
            set n (math $n + 1)
        end
    end
    echo $n
end
# Whether the line so far has `--`: paths follow.
function __git_checkpoint_paths
    contains -- -- (commandline -opc)
end
complete -c git-checkpoint -n "__fish_seen_subcommand_from {TAKES_CHECKPOINTS}; and not __git_checkpoint_paths" -f -a "(__git_checkpoint_ids)"
complete -c git-checkpoint -n "__fish_seen_subcommand_from restore diff show; and __git_checkpoint_paths" -F
# push and fetch: a remote first, as with `git push`; then (push) checkpoints.
complete -c git-checkpoint -n "__fish_seen_subcommand_from push fetch; and test (__git_checkpoint_args) -eq 0" -f -a "(git remote 2>/dev/null)"
complete -c git-checkpoint -n "__fish_seen_subcommand_from push; and test (__git_checkpoint_args) -ge 1" -f -a "(__git_checkpoint_ids)"

# `git checkpoint …`: hand the rest of the line to the completions of git-checkpoint, in the
# directory that `git -C <dir>` names, if it does.
function __git_checkpoint_delegate
    set -l tokens (commandline -opc)
    set -l at (contains -i -- checkpoint $tokens); or return
    set -l dirs
    for i in (seq 2 (math $at - 1))
        if test "$tokens[$i]" = -C
            set -a dirs (string replace -r '^~' -- $HOME $tokens[(math $i + 1)])
        end
    end
    set -e tokens[1..$at]
    set -l here $PWD
    for dir in $dirs
        builtin cd -- $dir 2>/dev/null; or begin
            builtin cd -- $here
            return
        end
    end
    complete -C "git-checkpoint $tokens "(commandline -ct)
    builtin cd -- $here
end
complete -c git -n "__fish_seen_subcommand_from checkpoint" -f -a "(__git_checkpoint_delegate)"
"#
    )
}

/// The man page: clap's sections plus the hand-written ones. Generated by the tests into
/// `man/git-checkpoint.1`, and installed by `install-docs`.
pub fn man_page() -> Vec<u8> {
    use clap_mangen::roff::{Roff, bold, roman};
    let cmd = Cli::command()
        .name("git-checkpoint")
        .bin_name("git checkpoint");
    let man = clap_mangen::Man::new(cmd.clone())
        .title("GIT-CHECKPOINT")
        .section("1")
        .manual("Git Manual");
    let mut out = Vec::new();
    let _ = man.render_title(&mut out);
    let _ = man.render_name_section(&mut out);
    let _ = man.render_synopsis_section(&mut out);

    let mut roff = Roff::new();
    roff.control("SH", ["DESCRIPTION"]);
    for paragraph in DESCRIPTION {
        roff.control("PP", []);
        roff.text([roman(*paragraph)]);
    }
    let _ = out.write_all(roff.to_roff().as_bytes());
    let _ = man.render_options_section(&mut out);

    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    for sub in cmd.get_subcommands() {
        if sub.is_hide_set() {
            continue;
        }
        roff.control(
            "SS",
            [format!("git checkpoint {}", sub.get_name()).as_str()],
        );
        let mut sub = sub
            .clone()
            .bin_name(format!("git checkpoint {}", sub.get_name()));
        let help = sub.render_long_help().to_string();
        roff.control("nf", []);
        for line in help.lines() {
            roff.text([roman(line)]);
        }
        roff.control("fi", []);
    }
    for (title, paragraphs) in SECTIONS {
        roff.control("SH", [*title]);
        for paragraph in *paragraphs {
            if let Some(code) = paragraph.strip_prefix("$ ") {
                roff.control("PP", []);
                roff.control("nf", []);
                roff.text([bold(code)]);
                roff.control("fi", []);
            } else if let Some(item) = paragraph.strip_prefix("* ") {
                let (term, text) = item.split_once(" :: ").unwrap_or((item, ""));
                roff.control("TP", []);
                roff.text([bold(term)]);
                roff.text([roman(text)]);
            } else {
                roff.control("PP", []);
                roff.text([roman(*paragraph)]);
            }
        }
    }
    let _ = out.write_all(roff.to_roff().as_bytes());
    let _ = man.render_version_section(&mut out);
    out
}

const DESCRIPTION: &[&str] = &[
    "git-checkpoint takes cheap, complete snapshots of a working tree and brings them back, without touching the branch, the index or the stash. Use it before letting something change many files: a refactor, an AI agent's edit loop, a risky script.",
    "A checkpoint is a commit on a hidden ref refs/checkpoints/<id>; its metadata is a JSON note in refs/notes/checkpoints. Everything is a plain git object in the repository itself: readable with git log and git show, shareable with a remote, collected by git gc.",
];

const SECTIONS: &[(&str, &[&str])] = &[
    (
        "STORAGE FORMAT",
        &[
            "Format version 1. The checkpoint commit's tree is exactly what git add -A && git write-tree would write on a copy of the index: tracked files as they are on disk and untracked files that are not ignored, with clean filters applied, executable bits, symlinks and submodule gitlinks. Its first parent is the HEAD commit (none on an unborn branch); when the index differs from HEAD, its last parent is an index commit whose tree is the index. The message is checkpoint: <message> followed by the trailers Checkpoint-Id, Checkpoint-Kind and, when set, Checkpoint-Name, Checkpoint-Worktree and Checkpoint-Session.",
            "The id is YYYYMMDD-HHMMSS-mmmrrr in UTC (milliseconds, then random hex digits): a greater id is a newer checkpoint. The note holds schema, id, name, message, kind, created_at, head (commit, ref), worktree, session (only when there is one), fetched (remote and time, only on a checkpoint brought by fetch; never pushed), index (clean, saved, unmerged), stats (files, added, modified, deleted), skipped, pinned, meta, conversation (format and bytes of the conversation kept, or why a hook's transcript was not kept; only when there is one) and tool. Unknown fields are kept when a note is rewritten.",
            "The conversation kept with a checkpoint (an agent's transcript at the save, or save --conversation FILE) is apart from its tree: refs/checkpoint-conversations/<id> points to a commit whose tree holds conversation.json (its format, size, source file and origin: a hook's transcript, which restore --conversation writes back as a new session of its agent, or a conversation given, which it exports to a file) and the content cut into blobs 000000, 000001, ... at the first line end after each 64 KiB, so that an append-only transcript saved again costs about what was appended. It is deleted with its checkpoint (and by prune once its checkpoint ref is gone) and pushed only with push --with-conversation.",
        ],
    ),
    (
        "NAMING A CHECKPOINT",
        &[
            "Wherever a command takes <CP>, the first rule that matches wins:",
            "* 1. :: an exact id;",
            "* 2. :: @ or latest (the newest), @{N} (the N-th newest, @{0} is the newest), counted among the checkpoints of the current worktree; session:<ID>, the first checkpoint of an agent session, where <ID> is a session id, a unique prefix of one, or @ for the session of this worktree's newest checkpoint that has one;",
            "* 3. :: a name given with save --name (the newest checkpoint of that name);",
            "* 4. :: a unique prefix of an id;",
            "* 5. :: a unique prefix (at least 4 hex digits) of the checkpoint commit.",
            "An ambiguous prefix is an error that lists the candidates.",
        ],
    ),
    (
        "RESTORE AND SAFETY",
        &[
            "restore deletes or overwrites only what its safety checkpoint holds. It first saves the current state as a pre-restore checkpoint and prints the command that undoes the restore. Ignored files, files left out by the size guard, nested repositories and submodule contents are never touched; an ignored file in the way makes restore refuse unless --force. HEAD, the branch and the stash are never moved; the index only with --staged. A failure part-way puts back every path already touched and removes the directories it created.",
            "Paths that checkpoint.exclude leaves out are never touched, not even with --force or from a checkpoint taken before they were excluded: nothing is written there, what stands there is left as it is and is not captured into the safety checkpoint. restore names them; diff against the working tree leaves them out on both sides.",
            "Files that change during a restore: just before replacing or deleting a file, restore checks that it still holds what the safety checkpoint holds. It is taken as unchanged without being read when its size, modification time, status-change time and inode number are those it had when the capture read it (or those the index records) and both times are in an earlier second than the capture's start; otherwise it is hashed as save would hash it and compared. A file that changed, or appeared, is left as it is and listed with !, and restore exits 1; restoring again saves its new content first.",
            "A checkpoint may come from someone else. A tree entry that git fsck rejects is refused before anything is written: an empty name, ., .., .git in any case and in its HFS+ and NTFS spellings (also after a backslash), a name holding a slash, .gitmodules as a symlink, a name used twice in one tree (two files, or a file and a directory), entries out of git's order; so is writing a symlink named .gitattributes, .gitignore or .mailmap. With PATHS only names on the way to them count; --staged checks the whole staged tree. Nothing is read, written or deleted through a symlink: one standing where the checkpoint has a directory is itself what gets replaced, and nothing is written outside the working tree or inside .git.",
        ],
    ),
    (
        "THE PICKER",
        &[
            "On a terminal (standard input and output both one), restore, diff and show given no checkpoint open a full-screen picker. Off a terminal (a pipe, CI, an agent's tool call) nothing opens: restore and show then need the checkpoint named (exit 2), and diff compares the newest checkpoint with the working tree.",
            "It lists this worktree's checkpoints, newest first, one a line: age, kind, session, the +added ~modified -deleted counts since the HEAD it was taken on, and its name or message; the title says how many of them the filter shows. Beside or below the list (by the terminal's width), a preview of the highlighted checkpoint's change to the working tree now: the files with their counts, then the patch.",
            "* typing :: filters the list by id, kind, session, name or message; Backspace takes a character back;",
            "* Up, Down (or Ctrl-P, Ctrl-N), PgUp, PgDn, Home, End :: move in the list (letters filter, so j and k are not moves);",
            "* Shift-Up, Shift-Down (or Ctrl-U, Ctrl-D) :: scroll the preview;",
            "* Enter :: acts on the highlighted checkpoint: diff and show print it as they would have with it named; restore first shows the dry run (what would be written and deleted) and asks;",
            "* y :: at that question, restores: an ordinary restore, with its safety checkpoint, so undo takes it back; any other key goes back to the list;",
            "* Esc, Ctrl-C :: leave with nothing done (restore says nothing restored) and exit status 1.",
        ],
    ),
    (
        "PAGER",
        &[
            "On a terminal, diff and show write through a pager, as git diff and git show do. git runs no pager for an external command unless pager.checkpoint is set, so git checkpoint starts the one git would choose: GIT_PAGER, else pager.checkpoint when it names a command, else core.pager, else PAGER, else less; run by the shell with LESS=FRX and LV=-c unless those are set, so that less leaves at once when everything fits on one screen and keeps the colours.",
            "No pager is started when standard output is not a terminal, when git already runs one (pager.checkpoint=true, git -p checkpoint ...: GIT_PAGER_IN_USE is set), when pager.checkpoint is false, or when the pager is cat or empty: git --no-pager checkpoint ... sets GIT_PAGER=cat, so it prints straight to the terminal as git --no-pager diff does.",
        ],
    ),
    (
        "CONFIGURATION",
        &[
            "* checkpoint.maxFileSize :: Untracked files larger than this are left out of a save and listed in skipped. Default 100m; git's size suffixes k, m, g.",
            "* checkpoint.keep :: Most checkpoints kept of each kind, all worktrees together: agents' auto saves never push out manual, named or pre-restore ones, and a named checkpoint counts only against the other named ones. Default 50.",
            "* checkpoint.<kind>.keep :: Most checkpoints of one kind kept, instead of checkpoint.keep (checkpoint.auto.keep = 20).",
            "* checkpoint.minAge :: No count or size limit removes a checkpoint younger than this, so that a burst of saves, restores or undos cannot push out the safety copy of work saved minutes ago; checkpoint.maxAge and an explicit prune --keep still do. Default 1h; 0 turns it off.",
            "* checkpoint.maxAge :: Checkpoints older than this are pruned: 90m, 12h, 30d, 2w.",
            "* checkpoint.maxSize :: Then the oldest unpinned checkpoints are pruned until what only checkpoints hold (as du counts it) fits: 512m, 2g. Unset by default.",
            "* checkpoint.autoPrune :: Apply the retention policy after every save. Default true.",
            "* checkpoint.exclude :: Multi-valued gitignore patterns: left out of every checkpoint even when tracked or not ignored (git config --add checkpoint.exclude 'data/'); restore never touches them, as it treats ignored files.",
            "* checkpoint.include :: Multi-valued gitignore patterns: ignored paths captured anyway and restored with the code, such as an agent's state directory or a progress file. checkpoint.exclude wins over it.",
            "* checkpoint.defaultExcludes :: In a plain directory, leave out the dependency and build directories listed under PLAIN DIRECTORIES. Default true.",
            "* checkpoint.conversation :: Whether save --from-hook keeps the agent's transcript (the file its hook names; for Copilot CLI, whose hooks name none, the session's events.jsonl under $COPILOT_HOME or ~/.copilot, and for Cursor when it names none, the conversation's file under ~/.cursor/projects; at most 64 MiB, never a symbolic link) with the checkpoint, for show --conversation. Default true; an explicit save --conversation is kept either way.",
            "* checkpoint.secrets :: off, warn (the default) or block. A save scans the files it adds beyond HEAD (new and changed ones, up to 10 MiB) with gitleaks' rules and records where it found possible secrets (path, line, rule; never the value) in its note; list marks such checkpoints [secrets], show lists the findings, push holds them back. block refuses such a save (exit 1; never the safety checkpoint of a restore, undo, redo or revert); off scans nothing, at save or at push.",
            "* checkpoint.secretsAllow :: Multi-valued. A rule id (generic-api-key, dotenv-secret, ...) allows that rule's findings; any other value is a path in gitignore syntax (tests/fixtures/) whose findings are allowed. Read at save and again at push.",
            "* checkpoint.hookFailure :: What save --from-hook does when it cannot save before a tool call: warn (the default: a warning, exit 0, the agent goes on) or block (the tool call is refused the way the agent understands: exit 2 for Claude Code and the OpenCode plugin, the agent's deny JSON for the others). Never at a session's start or a turn's end.",
            "* color.diff, color.ui, diff.renames :: Read as git reads them, for diff and show -p.",
            "Settings are read as git reads them: the repository's config, the global one, and for one run git -c key=value checkpoint ... In a plain directory the repository's config is its store's (git --git-dir=<STORE> config ...).",
            "Pinned checkpoints are never pruned and do not count toward any keep. The first checkpoint of an agent session is not pruned by a keep limit while a later checkpoint of that session is kept. What a prune removes is named by the setting that removed it; a name or id that no longer resolves because its checkpoint was pruned or dropped says so, and how to bring it back while git gc has not collected its commit.",
        ],
    ),
    (
        "SHARING",
        &[
            "push and fetch are the only commands that talk to a remote; they run the git binary, so the user's remotes, URLs, ssh and credential settings apply. push sends the checkpoints named, or else this repository's own except the pre-restore ones (--all: every one), and their notes; fetch brings every checkpoint of the remote, never overwriting a local checkpoint of the same id. Notes are merged as JSON, key by key, the local side winning where both have a key; git's union merge is never used. A checkpoint carries untracked files that were not ignored, possibly secrets: push warns, and push --dry-run lists them.",
            "A fetched checkpoint is marked as such in its note and by list; @, @{N} and undo count only checkpoints taken here, and keep limits neither count nor remove fetched ones (checkpoint.maxAge and drop do). fetch stages what it fetches under refs/checkpoint-fetch/ and deletes that namespace before it ends.",
            "In a bare repository (a server that receives pushed checkpoints) list, show, diff between two checkpoints, drop, prune, pin, unpin, du, push and fetch work; what needs a working tree (save, restore, undo, redo, revert, exec, diff against the working tree) refuses with one line.",
        ],
    ),
    (
        "PLAIN DIRECTORIES",
        &[
            "Outside any git working tree every command works the same, on the current directory, with a private store: a git directory under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores/<name>-<12 hex digits of the SHA-1 of the directory's canonical path>, whose working tree is the directory. Nothing is ever written into the directory by a save. The first save says once, on standard error, where the store is. --store <PATH> or GIT_CHECKPOINT_STORE=<PATH> name another store (a git directory, made when missing). A subdirectory of a directory that has a store uses that store (never one of a home directory, a temporary directory or a root); a command run there says on standard error which directory it acts on.",
            "What is left out there: what the directory's .gitignore files ignore, checkpoint.exclude, and unless checkpoint.defaultExcludes is false these dependency and build directories: node_modules/, .venv/, venv/, __pycache__/, .tox/, .mypy_cache/, .pytest_cache/, .gradle/, .next/, target/.",
            "A home directory itself, the system's temporary directory itself (TMPDIR, /tmp, /var/tmp) and a file system root are refused, since a first save would copy a whole disk, or every program's scratch files, into a store; save --force does it anyway.",
            "The store keeps what the last save found as an index of its own (checkpoint-index, never staged state, safe to delete), so that a save there costs what a save in a repository costs: the files it names are checked by their stat data, only new files are classified against the ignore rules. It is used only while nothing that decides what a checkpoint holds has changed since (every .gitignore and .gitattributes in the directory, ignored ones too, info/exclude, the global ignore and attributes files, the core and filter settings, checkpoint.exclude, checkpoint.include and checkpoint.maxFileSize) and while the checkpoint holding its objects exists; otherwise the save walks the whole directory and makes a new one. A save never holds more or less than it would without it.",
            "git checkpoint stores lists the stores, their directory, checkpoints and size. A store whose directory was moved or renamed is adopted in the new place with stores --adopt <STORE>; stores --prune removes those whose directory is known to be gone (never one that cannot be read now, or is on a file system that is not mounted). A directory that becomes a git repository uses the repository from then on.",
        ],
    ),
    (
        "GIT 3.0 REPOSITORIES",
        &[
            "Repositories with SHA-256 object ids (git init --object-format=sha256) and with the reftable ref format (--ref-format=reftable) work as any other. In a reftable repository refs are read and written through git's own commands (git 2.45 or newer is needed), in one transaction with the same must-not-exist and compare-and-swap checks. push and fetch between a SHA-1 and a SHA-256 repository are refused with one line.",
        ],
    ),
    (
        "AGENT HOOKS AND SESSIONS",
        &[
            "git checkpoint hooks <AGENT> --install writes hooks into the agent's own configuration, in its own format, merged with what is there (a file holding anything else is first kept as <file>.bak; running it again changes nothing but the hooks an older version installed, which it brings up to date; --uninstall removes only git-checkpoint's hooks, and a file the install created): claude-code (.claude/settings.json: PreToolUse on Edit, MultiEdit, Write, NotebookEdit, Bash and PowerShell, SessionStart, Stop), gemini (.gemini/settings.json: BeforeTool on write_file, replace and run_shell_command, SessionStart, AfterAgent), codex (.codex/hooks.json: PreToolUse on Bash and apply_patch, SessionStart, Stop; Codex runs them only once trusted in its /hooks), cursor (.cursor/hooks.json: preToolUse, sessionStart, stop), copilot (.github/hooks/git-checkpoint.json: preToolUse on bash, powershell, create, edit and apply_patch, sessionStart, agentStop), cline (executable files PreToolUse, TaskStart, TaskResume, TaskComplete, TaskCancel in .clinerules/hooks/) and opencode (a plugin, .opencode/plugins/git-checkpoint.js). --user writes the agent's user-level file instead; --local exists only for Claude Code (.claude/settings.local.json).",
            "Every hook runs git checkpoint save --from-hook=<AGENT>, which reads the hook's JSON from standard input (bare --from-hook recognises the agent from it): a checkpoint of kind auto before a tool call that can change files and at the end of a turn, of kind session at a session's start, recording the agent and the session in the note and, in meta, the event, tool, turn and tool-call ids, the edited paths relative to the work tree and the transcript's path; never a file's or a prompt's content. It is deduplicated, so a tool call that changed nothing makes nothing, and tools known to change nothing are not even looked at. It prints nothing (Cline alone gets its answer, {\"cancel\":false}) and never blocks the agent: a failure is a warning and exit 0, unless checkpoint.hookFailure is block.",
            "Any agent that can run a command before a tool call can do the same: pipe a JSON object with session_id, tool_name and tool_input.file_path into git checkpoint save --from-hook, or run git checkpoint save --kind auto -q --session <ID>.",
            "A session's checkpoints are listed with list --session <ID>, and session:<ID> names its first checkpoint, taken before the session changed anything: git checkpoint diff session:@ shows everything the latest session changed, git checkpoint restore session:@ puts the whole tree back to the session's start; git checkpoint undo takes back one step.",
            "git checkpoint revert session:<ID> takes back exactly that session's own steps, each from the checkpoint it took before a tool call to the next checkpoint of the worktree, taken by anyone (another session's hook, an end of turn, the user's save), newest first, each by a three-way merge: every line another session or the user wrote stays. Where a later change touched the same lines, it refuses, naming the files and the lines of the working tree's files, and changes nothing. git checkpoint revert --agent <NAME> does the same for every session of that agent in this worktree.",
        ],
    ),
    (
        "HUNKS",
        &[
            "git checkpoint diff --json gives every hunk an id, 16 hex digits that depend only on the file's path and the hunk's lines: the same whether the newer side is the working tree or a checkpoint, and different once the hunk's lines change. git checkpoint restore <CP> --hunk <ID> puts back only those hunks of the difference between the checkpoint and the working tree; git checkpoint revert <A> [<B>] --hunk <ID> takes back only those hunks of the step, finding each where later edits moved it, as git apply does. --hunk is repeatable. -p asks hunk by hunk, as git restore -p does: y, n, q, a (this and the rest of the file), d (none of the rest of the file), s (split), ? (help), reading answers from standard input. A hunk whose lines changed since, an unknown id, a binary file, a file that is now a directory or a symlink: refused with one line naming it, nothing changed. Like every restore: a pre-restore checkpoint first, undoable.",
        ],
    ),
    (
        "FILE-SYSTEM MONITOR",
        &[
            "Where core.fsmonitor names a hook that speaks git's protocol version 2 (Watchman's, as git's own sample .git/hooks/fsmonitor-watchman.sample is), a save asks it, before it looks at any file, what changed since the token kept in the stat cache, and looks only there: the index entries at or below a reported path and those that differed from the index when the token was kept, the directories it left alone trusted as the last save listed them, the untracked files it did not report taken from the stat cache. Turn it on with git config core.fsmonitor .git/hooks/fsmonitor-watchman.sample (Watchman installed); git status uses it too.",
            "Any doubt is a full scan, and a save holds what git add -A would stage either way: no token yet (the first save after turning it on), a hook that fails, answers nothing or an empty token, takes over 5 seconds, or answers / (Watchman restarted), a path it cannot map, over 100,000 paths, the index rewritten by git (for tracked files), the clock earlier than when the token was kept, core.ignoreCase, a sparse index, a plain directory. core.fsmonitor=true (git's built-in daemon, macOS and Windows) is not spoken: saves scan everything there.",
        ],
    ),
    (
        "SECRETS",
        &[
            "A checkpoint holds untracked files that git does not ignore, where .env files and keys live before anyone ignores them. A save therefore scans what it adds beyond HEAD with gitleaks' default rule set (MIT; about 220 rules: private keys, cloud credentials, API token formats, high-entropy values assigned to secret-looking names) and one rule of its own for values of secret-looking names in .env files (dotenv-secret). The note records each finding's path, line and rule, never the value: the note's secrets object, {\"findings\": [{\"path\", \"line\", \"rule\"}]}, is what --json, the HTTP API, MCP and Python return.",
            "git checkpoint push sends the clean checkpoints and holds back those with findings (their notes too), naming them and their files, and exits 1; push --allow-secrets sends them. A checkpoint saved without a scan is scanned at push, unless checkpoint.secrets is off. gitleaks:allow on a line keeps its findings out, as in gitleaks.",
        ],
    ),
    (
        "MCP SERVER",
        &[
            "git checkpoint mcp serves the Model Context Protocol on standard input and output, with the tools checkpoint_save, checkpoint_list, checkpoint_show, checkpoint_diff (each hunk with its id), checkpoint_restore (dry_run, paths or hunks; annotated destructive), checkpoint_undo and checkpoint_revert (from or agent, to, markers, dry_run, hunks). Each returns the JSON that the matching command prints with --json, as structured content and as text (checkpoint_list as {\"checkpoints\": [...]}); a failure is a tool error. Every tool takes an optional directory, the working tree to act on.",
            "git checkpoint mcp --install <AGENT> registers the server as git-checkpoint in the agent's MCP configuration (claude-code .mcp.json, gemini .gemini/settings.json, codex .codex/config.toml, cursor .cursor/mcp.json, copilot .github/mcp.json or ~/.copilot/mcp-config.json, cline its cline_mcp_settings.json, opencode opencode.json), merged as the hooks are; --uninstall removes it, --print shows it.",
        ],
    ),
    (
        "EXAMPLES",
        &[
            "Snapshot before a refactor, look, go back:",
            "$ git checkpoint save -m \"before refactor\" --name before-refactor",
            "$ git checkpoint diff before-refactor --stat",
            "$ git checkpoint restore before-refactor",
            "Take the last restore back, or step back through history:",
            "$ git checkpoint restore @",
            "$ git checkpoint undo",
            "Keep at most 20 automatic checkpoints:",
            "$ git config checkpoint.auto.keep 20",
            "Run a risky script; undo it by itself if it fails:",
            "$ git checkpoint exec --restore-on-failure -- ./migrate.sh",
            "Hand checkpoints to a colleague or CI; first see what untracked files travel:",
            "$ git checkpoint push --dry-run && git checkpoint push origin before-refactor",
            "$ git checkpoint fetch origin",
            "Checkpoint before every tool call of Claude Code (or gemini, codex, cursor, copilot, cline, opencode) in this repository, then see and undo what its latest session changed:",
            "$ git checkpoint hooks claude-code --install",
            "$ git checkpoint mcp --install claude-code",
            "$ git checkpoint diff session:@ --stat",
            "$ git checkpoint restore session:@",
            "Put back one hunk, or choose them one by one; take back one session's own steps, keeping the others':",
            "$ git checkpoint diff @ --json",
            "$ git checkpoint restore @ --hunk d6691797850de22a",
            "$ git checkpoint restore @ -p",
            "$ git checkpoint revert session:3f1c9e2a",
        ],
    ),
    (
        "EXIT STATUS",
        &[
            "* 0 :: Success.",
            "* 1 :: An error; one line starting with error: on standard error, sometimes followed by a hint.",
            "* 2 :: A usage error: unknown flag, missing argument, a level an agent does not have. Also save --from-hook when checkpoint.hookFailure is block, the save before a tool call failed, and the agent (Claude Code, the OpenCode plugin) refuses on exit 2.",
            "* 126, 127, 128+N :: From exec: the command could not be run, was not found, or was killed by signal N; otherwise exec exits with the command's own code.",
        ],
    ),
    (
        "SEE ALSO",
        &["git(1), git-stash(1), git-notes(1), git-restore(1), git-gc(1)"],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The man page names every directory a plain directory leaves out by default, and no
    /// other: the list is the library's.
    #[test]
    fn the_man_page_lists_the_default_excludes() {
        let section = SECTIONS
            .iter()
            .find(|(name, _)| *name == "PLAIN DIRECTORIES")
            .map(|(_, text)| text.join(" "))
            .unwrap_or_default();
        let listed = git_checkpoint::DEFAULT_EXCLUDES.join(", ");
        assert!(
            section.contains(&format!("directories: {listed}.")),
            "{section}"
        );
    }

    /// The committed man page and completion scripts must be what the code generates now.
    /// `UPDATE_GENERATED=1 cargo test` rewrites them.
    #[test]
    fn generated_files_are_up_to_date() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = vec![(root.join("man/git-checkpoint.1"), man_page())];
        for (shell, name) in [
            (Shell::Bash, "git-checkpoint.bash"),
            (Shell::Zsh, "_git-checkpoint"),
            (Shell::Fish, "git-checkpoint.fish"),
            (Shell::Elvish, "git-checkpoint.elv"),
            (Shell::PowerShell, "_git-checkpoint.ps1"),
        ] {
            files.push((root.join("completions").join(name), completion(shell)));
        }
        let update = std::env::var_os("UPDATE_GENERATED").is_some();
        let mut stale = Vec::new();
        for (path, fresh) in files {
            let current = std::fs::read(&path).unwrap_or_default();
            if current != fresh {
                if update {
                    if let Some(dir) = path.parent() {
                        let _ = std::fs::create_dir_all(dir);
                    }
                    assert!(
                        std::fs::write(&path, &fresh).is_ok(),
                        "cannot write {path:?}"
                    );
                } else {
                    stale.push(path.display().to_string());
                }
            }
        }
        assert!(
            stale.is_empty(),
            "stale generated files (run `UPDATE_GENERATED=1 cargo test`): {stale:?}"
        );
    }
}
