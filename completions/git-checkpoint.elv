
use builtin;
use str;

set edit:completion:arg-completer[git-checkpoint] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'git-checkpoint'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'git-checkpoint'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand save 'Snapshot the working tree now and print the checkpoint''s id'
            cand list 'List checkpoints, newest first'
            cand ls 'List checkpoints, newest first'
            cand show 'Show a checkpoint''s metadata and what it changed relative to its HEAD'
            cand diff 'Show changes between checkpoints, or a checkpoint and the working tree, as a patch'
            cand restore 'Make the working tree equal to a checkpoint; undoable'
            cand undo 'Take back the last thing that happened to the working tree; undoable'
            cand redo 'Take back the last undo; undoable'
            cand revert 'Take back one step''s change (A to B), keeping everything changed since; undoable'
            cand drop 'Delete checkpoints (refs and notes)'
            cand prune 'Apply the retention policy now'
            cand pin 'Pin a checkpoint: it is never pruned'
            cand unpin 'Unpin a checkpoint'
            cand push 'Push checkpoints and their notes to a remote (untracked files travel too)'
            cand fetch 'Fetch a remote''s checkpoints and merge their notes; never overwrites one'
            cand du 'Show what the checkpoints cost on disk, per kind, and the heaviest'
            cand repair 'Remove objects an earlier version wrote that git cannot read, keeping every checkpoint'
            cand completions 'Print a shell completion script (bash, zsh, fish, elvish, powershell)'
            cand install-docs 'Install the man page (for `git checkpoint --help`) and the bash, zsh and fish completions'
            cand exec 'Run a command between two checkpoints; say what it changed and how to undo it'
            cand hooks 'Print or install an agent''s hooks that checkpoint before every tool call'
            cand mcp 'Run the MCP server on stdio, or register it in an agent''s MCP configuration'
            cand serve 'Serve an HTTP API and a web page for the checkpoints (timeline, diffs, restore, undo)'
            cand stores 'List the private stores of plain directories; --prune removes those whose directory is gone'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-checkpoint;save'= {
            cand -m 'A message describing the checkpoint'
            cand --message 'A message describing the checkpoint'
            cand --name 'A name to find the checkpoint by later (the newest of a name wins)'
            cand --kind 'The kind: a short lowercase word such as manual (the default), auto or session'
            cand --meta 'Free-form metadata stored in the note''s "meta" object; repeatable'
            cand --meta-json 'Metadata as a JSON object (merged into "meta"); `-` reads it from stdin'
            cand --session 'The agent session this checkpoint belongs to; `session:<ID>` then names the session''s first checkpoint, and `list --session <ID>` lists them'
            cand --from-hook 'Run as an agent''s hook: read the hook''s JSON from stdin (the agent''s, recognised when AGENT is not given), record the agent, session, event, tool, turn and call ids, edited paths and transcript path in the note (never a file''s or prompt''s content), kind auto (session at a session''s start), print nothing but the answer the agent expects, and never fail the agent: errors are warnings and exit 0, unless checkpoint.hookFailure is `block`, which refuses the tool call in the agent''s own way (never at a session''s start or a turn''s end)'
            cand --conversation 'Keep this file with the checkpoint as its conversation (an agent''s transcript, a chat log, any file up to 64 MiB; `-` reads it from stdin): `show --conversation` prints it. Stored apart from the snapshot, and pushed only with `push --with-conversation`'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --pin 'Pin the checkpoint: it is never pruned'
            cand --allow-empty 'Make a checkpoint even if nothing changed since the newest one'
            cand -q 'Print nothing on stderr (the id is still printed on stdout)'
            cand --quiet 'Print nothing on stderr (the id is still printed on stdout)'
            cand --json 'Print the checkpoint''s metadata as JSON instead of its id'
            cand --force 'Outside any git repository, checkpoint even a home directory itself, the system''s temporary directory itself or a file system root (refused otherwise: a first save would copy all of it into a store)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;list'= {
            cand -n 'Show at most N checkpoints'
            cand --max-count 'Show at most N checkpoints'
            cand --kind 'Only checkpoints of this kind'
            cand --session 'Only the checkpoints of this agent session (an id, a unique prefix of one, or `@` for the newest session), from whichever worktree'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --all 'Checkpoints of every worktree, not just this one'
            cand --json 'Print a JSON array of the checkpoints'' metadata'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;ls'= {
            cand -n 'Show at most N checkpoints'
            cand --max-count 'Show at most N checkpoints'
            cand --kind 'Only checkpoints of this kind'
            cand --session 'Only the checkpoints of this agent session (an id, a unique prefix of one, or `@` for the newest session), from whichever worktree'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --all 'Checkpoints of every worktree, not just this one'
            cand --json 'Print a JSON array of the checkpoints'' metadata'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;show'= {
            cand -U 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git'
            cand --unified 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git'
            cand -M 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false'
            cand --find-renames 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand -p 'The patch of what it changed relative to its HEAD (instead of the diffstat)'
            cand --patch 'The patch of what it changed relative to its HEAD (instead of the diffstat)'
            cand --stat 'A diffstat, as `git diff --stat`'
            cand --numstat 'Added and deleted lines per file, as `git diff --numstat`'
            cand --name-status 'Status letter and path per file, as `git diff --name-status`'
            cand --name-only 'Changed paths only'
            cand --no-renames 'Do not detect renames'
            cand --binary 'Emit binary files as git binary patches (with full index lines) so they apply too'
            cand --json 'Print the metadata as JSON (the note''s fields plus "commit")'
            cand --conversation 'Print the conversation kept with the checkpoint (its agent''s transcript as it was at the save, or the file given to `save --conversation`) instead; with --json, as JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;diff'= {
            cand -U 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git'
            cand --unified 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git'
            cand -M 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false'
            cand --find-renames 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --stat 'A diffstat, as `git diff --stat`'
            cand --numstat 'Added and deleted lines per file, as `git diff --numstat`'
            cand --name-status 'Status letter and path per file, as `git diff --name-status`'
            cand --name-only 'Changed paths only'
            cand --no-renames 'Do not detect renames'
            cand --binary 'Emit binary files as git binary patches (with full index lines) so they apply too'
            cand --json 'A JSON object with a "files" array'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;restore'= {
            cand --hunk 'Restore only this hunk of the difference between the checkpoint and the working tree (repeatable; ids as `git checkpoint diff --json <CP>` gives them)'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --dry-run 'Print what would be written and deleted; change nothing, save nothing'
            cand --staged 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries'
            cand --no-save 'Do not save a pre-restore checkpoint first (the restore cannot be undone)'
            cand --force 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand --json 'Print the outcome as JSON'
            cand --conversation 'Also rewind the conversation: write a new session of the agent whose transcript ends at the checkpoint (the original is never changed) and print the command that resumes it; where the agent''s format cannot be written safely, and for a conversation given with `save --conversation`, export it to a new file instead'
            cand -p 'Choose the hunks to restore one by one (y, n, q, a, d, s, ?), as `git restore -p`; with paths, only their hunks'
            cand --patch 'Choose the hunks to restore one by one (y, n, q, a, d, s, ?), as `git restore -p`; with paths, only their hunks'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;undo'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --dry-run 'Print what would be written and deleted; change nothing, save nothing'
            cand --staged 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries'
            cand --no-save 'Do not save a pre-restore checkpoint first (the restore cannot be undone)'
            cand --force 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand --json 'Print the outcome as JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;redo'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --dry-run 'Print what would be written and deleted; change nothing, save nothing'
            cand --staged 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries'
            cand --no-save 'Do not save a pre-restore checkpoint first (the restore cannot be undone)'
            cand --force 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand --json 'Print the outcome as JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;revert'= {
            cand --agent 'Take back the own steps of every session of this agent (`claude-code`, `codex` and so on) in this worktree, keeping what everyone else changed'
            cand --hunk 'Take back only this hunk of the step''s change (repeatable; ids as `git checkpoint diff --json A B` gives them)'
            cand --conflicts 'What to do when the step''s change and later changes conflict: refuse the whole revert (the default), or write the files with conflict markers'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand -p 'Choose the hunks to take back one by one (y, n, q, a, d, s, ?), as `git restore -p`'
            cand --patch 'Choose the hunks to take back one by one (y, n, q, a, d, s, ?), as `git restore -p`'
            cand --dry-run 'Print what would be written and deleted; change nothing, save nothing'
            cand --force 'Revert during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first)'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand --json 'Print the outcome as JSON'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;drop'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;prune'= {
            cand --keep 'Keep at most N checkpoints of each kind (overrides checkpoint.keep and the kinds'' own; with --kind, N of that kind). Applies to young checkpoints too'
            cand --older-than 'Prune checkpoints older than this: 90m, 12h, 30d, 2w (overrides checkpoint.maxAge)'
            cand --max-size 'Remove the oldest unpinned checkpoints until what only checkpoints hold fits in SIZE: 512m, 2g (overrides checkpoint.maxSize; see `git checkpoint du`)'
            cand --kind 'Only prune checkpoints of this kind'
            cand --min-age 'No count or size limit removes a checkpoint younger than this: 0, 30m, 2h (overrides checkpoint.minAge, default 1h)'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --dry-run 'Print what would be pruned; delete nothing'
            cand --json 'Print the pruned checkpoints as a JSON array, each with `pruned_by`: the setting (or flag) that pruned it'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;pin'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;unpin'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;push'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --all 'Push every checkpoint: pre-restore ones, and those fetched from elsewhere, too'
            cand --dry-run 'List, for each checkpoint, the files it holds that its HEAD commit does not; push nothing'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand --with-conversation 'Also push the conversations kept with them (agents'' transcripts, `save --conversation`), which otherwise never leave this machine'
            cand --allow-secrets 'Also push the checkpoints where a save found what looks like secrets (held back otherwise, and the push fails naming them)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;fetch'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;du'= {
            cand -n 'How many of the heaviest checkpoints to list'
            cand --max-count 'How many of the heaviest checkpoints to list'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --json 'Print a JSON object: total, notes, conversations, by_kind, by_checkpoint (each one''s id, kind and what it added)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;repair'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --dry-run 'Say what would be rewritten and removed; change nothing'
            cand --json 'Print a JSON object: `unreadable` (the object ids) and `rewritten` (each checkpoint''s id, old commit and new commit)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;completions'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;install-docs'= {
            cand --prefix 'Install under this prefix (e.g. /usr/local), in the layout of a package'
            cand --man-dir 'The man directory, which gets man1/git-checkpoint.1 [default: share/man beside the binary''s directory, or under --prefix]'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --man-only 'Only the man page, no completion scripts'
            cand --dry-run 'Print where the files would go; write nothing'
            cand -q 'Print nothing on stderr (the paths are still printed on stdout)'
            cand --quiet 'Print nothing on stderr (the paths are still printed on stdout)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;exec'= {
            cand --name 'A name for the checkpoint before the command (always a new checkpoint, so the name finds it)'
            cand --kind 'The kind of both checkpoints'
            cand -m 'The message of the checkpoint before the command [default: before: <CMD...>]'
            cand --message 'The message of the checkpoint before the command [default: before: <CMD...>]'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --restore-on-failure 'When the command fails (a non-zero exit, or killed by a signal), restore the checkpoint taken before it; that restore is undoable as usual'
            cand -q 'Print nothing on stderr but errors (the command''s own output is not affected)'
            cand --quiet 'Print nothing on stderr but errors (the command''s own output is not affected)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;hooks'= {
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --install 'Merge the hooks into the agent''s configuration, keeping everything else in it (a file holding anything of yours is first copied to <file>.bak); running it again changes nothing, except that hooks an older version installed are replaced by the current ones'
            cand --uninstall 'Remove git-checkpoint''s hooks from the agent''s configuration, keeping everything else; a file that --install created, holding nothing else, is removed'
            cand --project 'The project''s configuration, shared through the repository (the default; for Cline''s MCP server, which has none, --user is)'
            cand --local 'The project''s configuration for you only: Claude Code''s .claude/settings.local.json (no other agent has this level)'
            cand --user 'Your configuration, for every project'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;mcp'= {
            cand --install 'Register the server in this agent''s MCP configuration'
            cand --uninstall 'Remove the server from this agent''s MCP configuration, keeping everything else'
            cand --print 'Print what --install would add for this agent, and where'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --project 'The project''s configuration, shared through the repository (the default; for Cline''s MCP server, which has none, --user is)'
            cand --local 'The project''s configuration for you only: Claude Code''s .claude/settings.local.json (no other agent has this level)'
            cand --user 'Your configuration, for every project'
            cand -q 'Print nothing on stderr'
            cand --quiet 'Print nothing on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;serve'= {
            cand --port 'The port to listen on; 0 picks a free one'
            cand --listen 'The address to listen on. Anything but a loopback address lets other machines reach the server (the token still guards it, but travels unencrypted)'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --open 'Open the page in the web browser'
            cand -q 'Print only the URL'
            cand --quiet 'Print only the URL'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;stores'= {
            cand --adopt 'Make STORE, the store of a directory that was moved or renamed (its recorded directory is gone), the store of the current directory'
            cand --color 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)'
            cand --store 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used'
            cand --prune 'Remove the stores whose directory is known to be gone (its path does not exist), with their checkpoints; never one whose directory cannot be read, is on a file system that is not mounted, or is not recorded'
            cand --dry-run 'With --prune: only say which stores would be removed'
            cand --json 'Print a JSON array: each store''s path, directory, whether it exists, is known to be gone or is unknown (and why), whether it is now in a git repository, checkpoints and size in bytes'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'git-checkpoint;help'= {
            cand save 'Snapshot the working tree now and print the checkpoint''s id'
            cand list 'List checkpoints, newest first'
            cand show 'Show a checkpoint''s metadata and what it changed relative to its HEAD'
            cand diff 'Show changes between checkpoints, or a checkpoint and the working tree, as a patch'
            cand restore 'Make the working tree equal to a checkpoint; undoable'
            cand undo 'Take back the last thing that happened to the working tree; undoable'
            cand redo 'Take back the last undo; undoable'
            cand revert 'Take back one step''s change (A to B), keeping everything changed since; undoable'
            cand drop 'Delete checkpoints (refs and notes)'
            cand prune 'Apply the retention policy now'
            cand pin 'Pin a checkpoint: it is never pruned'
            cand unpin 'Unpin a checkpoint'
            cand push 'Push checkpoints and their notes to a remote (untracked files travel too)'
            cand fetch 'Fetch a remote''s checkpoints and merge their notes; never overwrites one'
            cand du 'Show what the checkpoints cost on disk, per kind, and the heaviest'
            cand repair 'Remove objects an earlier version wrote that git cannot read, keeping every checkpoint'
            cand completions 'Print a shell completion script (bash, zsh, fish, elvish, powershell)'
            cand install-docs 'Install the man page (for `git checkpoint --help`) and the bash, zsh and fish completions'
            cand exec 'Run a command between two checkpoints; say what it changed and how to undo it'
            cand hooks 'Print or install an agent''s hooks that checkpoint before every tool call'
            cand mcp 'Run the MCP server on stdio, or register it in an agent''s MCP configuration'
            cand serve 'Serve an HTTP API and a web page for the checkpoints (timeline, diffs, restore, undo)'
            cand stores 'List the private stores of plain directories; --prune removes those whose directory is gone'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'git-checkpoint;help;save'= {
        }
        &'git-checkpoint;help;list'= {
        }
        &'git-checkpoint;help;show'= {
        }
        &'git-checkpoint;help;diff'= {
        }
        &'git-checkpoint;help;restore'= {
        }
        &'git-checkpoint;help;undo'= {
        }
        &'git-checkpoint;help;redo'= {
        }
        &'git-checkpoint;help;revert'= {
        }
        &'git-checkpoint;help;drop'= {
        }
        &'git-checkpoint;help;prune'= {
        }
        &'git-checkpoint;help;pin'= {
        }
        &'git-checkpoint;help;unpin'= {
        }
        &'git-checkpoint;help;push'= {
        }
        &'git-checkpoint;help;fetch'= {
        }
        &'git-checkpoint;help;du'= {
        }
        &'git-checkpoint;help;repair'= {
        }
        &'git-checkpoint;help;completions'= {
        }
        &'git-checkpoint;help;install-docs'= {
        }
        &'git-checkpoint;help;exec'= {
        }
        &'git-checkpoint;help;hooks'= {
        }
        &'git-checkpoint;help;mcp'= {
        }
        &'git-checkpoint;help;serve'= {
        }
        &'git-checkpoint;help;stores'= {
        }
        &'git-checkpoint;help;help'= {
        }
    ]
    $completions[$command]
}
