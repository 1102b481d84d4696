# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_git_checkpoint_global_optspecs
    string join \n color= store= h/help V/version
end

function __fish_git_checkpoint_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_git_checkpoint_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_git_checkpoint_using_subcommand
    set -l cmd (__fish_git_checkpoint_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "save" -d 'Snapshot the working tree now and print the checkpoint\'s id'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "list" -d 'List checkpoints, newest first'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "ls" -d 'List checkpoints, newest first'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "show" -d 'Show a checkpoint\'s metadata and what it changed relative to its HEAD'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "diff" -d 'Show changes between checkpoints, or a checkpoint and the working tree, as a patch'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "restore" -d 'Make the working tree equal to a checkpoint; undoable'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "undo" -d 'Take back the last thing that happened to the working tree; undoable'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "redo" -d 'Take back the last undo; undoable'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "revert" -d 'Take back one step\'s change (A to B), keeping everything changed since; undoable'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "drop" -d 'Delete checkpoints (refs and notes)'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "prune" -d 'Apply the retention policy now'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "pin" -d 'Pin a checkpoint: it is never pruned'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "unpin" -d 'Unpin a checkpoint'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "push" -d 'Push checkpoints and their notes to a remote (untracked files travel too)'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "fetch" -d 'Fetch a remote\'s checkpoints and merge their notes; never overwrites one'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "du" -d 'Show what the checkpoints cost on disk, per kind, and the heaviest'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "repair" -d 'Remove objects an earlier version wrote that git cannot read, keeping every checkpoint'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, elvish, powershell)'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "install-docs" -d 'Install the man page (for `git checkpoint --help`) and the bash, zsh and fish completions'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "exec" -d 'Run a command between two checkpoints; say what it changed and how to undo it'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "hooks" -d 'Print or install an agent\'s hooks that checkpoint before every tool call'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "mcp" -d 'Run the MCP server on stdio, or register it in an agent\'s MCP configuration'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "serve" -d 'Serve an HTTP API and a web page for the checkpoints (timeline, diffs, restore, undo)'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "stores" -d 'List the private stores of plain directories; --prune removes those whose directory is gone'
complete -c git-checkpoint -n "__fish_git_checkpoint_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -s m -l message -d 'A message describing the checkpoint' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l name -d 'A name to find the checkpoint by later (the newest of a name wins)' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l kind -d 'The kind: a short lowercase word such as manual (the default), auto or session' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l meta -d 'Free-form metadata stored in the note\'s "meta" object; repeatable' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l meta-json -d 'Metadata as a JSON object (merged into "meta"); `-` reads it from stdin' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l session -d 'The agent session this checkpoint belongs to; `session:<ID>` then names the session\'s first checkpoint, and `list --session <ID>` lists them' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l from-hook -d 'Run as an agent\'s hook: read the hook\'s JSON from stdin (the agent\'s, recognised when AGENT is not given), record the agent, session, event, tool, turn and call ids, edited paths and transcript path in the note (never a file\'s or prompt\'s content), kind auto (session at a session\'s start), print nothing but the answer the agent expects, and never fail the agent: errors are warnings and exit 0, unless checkpoint.hookFailure is `block`, which refuses the tool call in the agent\'s own way (never at a session\'s start or a turn\'s end)' -r -f -a "auto\t''
claude-code\t''
gemini\t''
codex\t''
cursor\t''
copilot\t''
cline\t''
opencode\t''"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l conversation -d 'Keep this file with the checkpoint as its conversation (an agent\'s transcript, a chat log, any file up to 64 MiB; `-` reads it from stdin): `show --conversation` prints it. Stored apart from the snapshot, and pushed only with `push --with-conversation`' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l pin -d 'Pin the checkpoint: it is never pruned'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l allow-empty -d 'Make a checkpoint even if nothing changed since the newest one'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -s q -l quiet -d 'Print nothing on stderr (the id is still printed on stdout)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l json -d 'Print the checkpoint\'s metadata as JSON instead of its id'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -l force -d 'Outside any git repository, checkpoint even a home directory itself, the system\'s temporary directory itself or a file system root (refused otherwise: a first save would copy all of it into a store)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand save" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -s n -l max-count -d 'Show at most N checkpoints' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -l kind -d 'Only checkpoints of this kind' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -l session -d 'Only the checkpoints of this agent session (an id, a unique prefix of one, or `@` for the newest session), from whichever worktree' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -l all -d 'Checkpoints of every worktree, not just this one'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -l json -d 'Print a JSON array of the checkpoints\' metadata'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand list" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -s n -l max-count -d 'Show at most N checkpoints' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -l kind -d 'Only checkpoints of this kind' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -l session -d 'Only the checkpoints of this agent session (an id, a unique prefix of one, or `@` for the newest session), from whichever worktree' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -l all -d 'Checkpoints of every worktree, not just this one'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -l json -d 'Print a JSON array of the checkpoints\' metadata'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand ls" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -s U -l unified -d 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -s M -l find-renames -d 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -s p -l patch -d 'The patch of what it changed relative to its HEAD (instead of the diffstat)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l stat -d 'A diffstat, as `git diff --stat`'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l numstat -d 'Added and deleted lines per file, as `git diff --numstat`'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l name-status -d 'Status letter and path per file, as `git diff --name-status`'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l name-only -d 'Changed paths only'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l no-renames -d 'Do not detect renames'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l binary -d 'Emit binary files as git binary patches (with full index lines) so they apply too'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l json -d 'Print the metadata as JSON (the note\'s fields plus "commit")'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -l conversation -d 'Print the conversation kept with the checkpoint (its agent\'s transcript as it was at the save, or the file given to `save --conversation`) instead; with --json, as JSON'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand show" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -s U -l unified -d 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -s M -l find-renames -d 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l stat -d 'A diffstat, as `git diff --stat`'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l numstat -d 'Added and deleted lines per file, as `git diff --numstat`'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l name-status -d 'Status letter and path per file, as `git diff --name-status`'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l name-only -d 'Changed paths only'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l no-renames -d 'Do not detect renames'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l binary -d 'Emit binary files as git binary patches (with full index lines) so they apply too'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -l json -d 'A JSON object with a "files" array'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand diff" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l hunk -d 'Restore only this hunk of the difference between the checkpoint and the working tree (repeatable; ids as `git checkpoint diff --json <CP>` gives them)' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l dry-run -d 'Print what would be written and deleted; change nothing, save nothing'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l staged -d 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l no-save -d 'Do not save a pre-restore checkpoint first (the restore cannot be undone)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l force -d 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l json -d 'Print the outcome as JSON'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -l conversation -d 'Also rewind the conversation: write a new session of the agent whose transcript ends at the checkpoint (the original is never changed) and print the command that resumes it; where the agent\'s format cannot be written safely, and for a conversation given with `save --conversation`, export it to a new file instead'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -s p -l patch -d 'Choose the hunks to restore one by one (y, n, q, a, d, s, ?), as `git restore -p`; with paths, only their hunks'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand restore" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -l dry-run -d 'Print what would be written and deleted; change nothing, save nothing'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -l staged -d 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -l no-save -d 'Do not save a pre-restore checkpoint first (the restore cannot be undone)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -l force -d 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -l json -d 'Print the outcome as JSON'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand undo" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -l dry-run -d 'Print what would be written and deleted; change nothing, save nothing'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -l staged -d 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -l no-save -d 'Do not save a pre-restore checkpoint first (the restore cannot be undone)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -l force -d 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -l json -d 'Print the outcome as JSON'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand redo" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -l agent -d 'Take back the own steps of every session of this agent (`claude-code`, `codex` and so on) in this worktree, keeping what everyone else changed' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -l hunk -d 'Take back only this hunk of the step\'s change (repeatable; ids as `git checkpoint diff --json A B` gives them)' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -l conflicts -d 'What to do when the step\'s change and later changes conflict: refuse the whole revert (the default), or write the files with conflict markers' -r -f -a "refuse\t'Change nothing and name the conflicting files'
markers\t'Write conflicting files with conflict markers, as `git revert` leaves them'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -s p -l patch -d 'Choose the hunks to take back one by one (y, n, q, a, d, s, ?), as `git restore -p`'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -l dry-run -d 'Print what would be written and deleted; change nothing, save nothing'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -l force -d 'Revert during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -l json -d 'Print the outcome as JSON'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand revert" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand drop" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand drop" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand drop" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand drop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand drop" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l keep -d 'Keep at most N checkpoints of each kind (overrides checkpoint.keep and the kinds\' own; with --kind, N of that kind). Applies to young checkpoints too' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l older-than -d 'Prune checkpoints older than this: 90m, 12h, 30d, 2w (overrides checkpoint.maxAge)' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l max-size -d 'Remove the oldest unpinned checkpoints until what only checkpoints hold fits in SIZE: 512m, 2g (overrides checkpoint.maxSize; see `git checkpoint du`)' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l kind -d 'Only prune checkpoints of this kind' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l min-age -d 'No count or size limit removes a checkpoint younger than this: 0, 30m, 2h (overrides checkpoint.minAge, default 1h)' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l dry-run -d 'Print what would be pruned; delete nothing'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -l json -d 'Print the pruned checkpoints as a JSON array, each with `pruned_by`: the setting (or flag) that pruned it'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand prune" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand pin" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand pin" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand pin" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand pin" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand pin" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand unpin" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand unpin" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand unpin" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand unpin" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand unpin" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -l all -d 'Push every checkpoint: pre-restore ones, and those fetched from elsewhere, too'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -l dry-run -d 'List, for each checkpoint, the files it holds that its HEAD commit does not; push nothing'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -l with-conversation -d 'Also push the conversations kept with them (agents\' transcripts, `save --conversation`), which otherwise never leave this machine'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -l allow-secrets -d 'Also push the checkpoints where a save found what looks like secrets (held back otherwise, and the push fails naming them)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand push" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand fetch" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand fetch" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand fetch" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand fetch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand fetch" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand du" -s n -l max-count -d 'How many of the heaviest checkpoints to list' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand du" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand du" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand du" -l json -d 'Print a JSON object: total, notes, conversations, by_kind, by_checkpoint (each one\'s id, kind and what it added)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand du" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand du" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand repair" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand repair" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand repair" -l dry-run -d 'Say what would be rewritten and removed; change nothing'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand repair" -l json -d 'Print a JSON object: `unreadable` (the object ids) and `rewritten` (each checkpoint\'s id, old commit and new commit)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand repair" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand repair" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand completions" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand completions" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand completions" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -l prefix -d 'Install under this prefix (e.g. /usr/local), in the layout of a package' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -l man-dir -d 'The man directory, which gets man1/git-checkpoint.1 [default: share/man beside the binary\'s directory, or under --prefix]' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -l man-only -d 'Only the man page, no completion scripts'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -l dry-run -d 'Print where the files would go; write nothing'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -s q -l quiet -d 'Print nothing on stderr (the paths are still printed on stdout)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand install-docs" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -l name -d 'A name for the checkpoint before the command (always a new checkpoint, so the name finds it)' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -l kind -d 'The kind of both checkpoints' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -s m -l message -d 'The message of the checkpoint before the command [default: before: <CMD...>]' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -l restore-on-failure -d 'When the command fails (a non-zero exit, or killed by a signal), restore the checkpoint taken before it; that restore is undoable as usual'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -s q -l quiet -d 'Print nothing on stderr but errors (the command\'s own output is not affected)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand exec" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -l install -d 'Merge the hooks into the agent\'s configuration, keeping everything else in it (a file holding anything of yours is first copied to <file>.bak); running it again changes nothing, except that hooks an older version installed are replaced by the current ones'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -l uninstall -d 'Remove git-checkpoint\'s hooks from the agent\'s configuration, keeping everything else; a file that --install created, holding nothing else, is removed'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -l project -d 'The project\'s configuration, shared through the repository (the default; for Cline\'s MCP server, which has none, --user is)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -l local -d 'The project\'s configuration for you only: Claude Code\'s .claude/settings.local.json (no other agent has this level)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -l user -d 'Your configuration, for every project'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand hooks" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -l install -d 'Register the server in this agent\'s MCP configuration' -r -f -a "claude-code\t''
gemini\t''
codex\t''
cursor\t''
copilot\t''
cline\t''
opencode\t''"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -l uninstall -d 'Remove the server from this agent\'s MCP configuration, keeping everything else' -r -f -a "claude-code\t''
gemini\t''
codex\t''
cursor\t''
copilot\t''
cline\t''
opencode\t''"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -l print -d 'Print what --install would add for this agent, and where' -r -f -a "claude-code\t''
gemini\t''
codex\t''
cursor\t''
copilot\t''
cline\t''
opencode\t''"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -l project -d 'The project\'s configuration, shared through the repository (the default; for Cline\'s MCP server, which has none, --user is)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -l local -d 'The project\'s configuration for you only: Claude Code\'s .claude/settings.local.json (no other agent has this level)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -l user -d 'Your configuration, for every project'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -s q -l quiet -d 'Print nothing on stderr'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand mcp" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand serve" -l port -d 'The port to listen on; 0 picks a free one' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand serve" -l listen -d 'The address to listen on. Anything but a loopback address lets other machines reach the server (the token still guards it, but travels unencrypted)' -r
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand serve" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand serve" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand serve" -l open -d 'Open the page in the web browser'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand serve" -s q -l quiet -d 'Print only the URL'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand serve" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand stores" -l adopt -d 'Make STORE, the store of a directory that was moved or renamed (its recorded directory is gone), the store of the current directory' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand stores" -l color -d 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)' -r -f -a "always\t'Always colour'
never\t'Never colour'
auto\t'Colour when writing to a terminal (or to git\'s pager), unless NO_COLOR or TERM=dumb'"
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand stores" -l store -d 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used' -r -F
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand stores" -l prune -d 'Remove the stores whose directory is known to be gone (its path does not exist), with their checkpoints; never one whose directory cannot be read, is on a file system that is not mounted, or is not recorded'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand stores" -l dry-run -d 'With --prune: only say which stores would be removed'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand stores" -l json -d 'Print a JSON array: each store\'s path, directory, whether it exists, is known to be gone or is unknown (and why), whether it is now in a git repository, checkpoints and size in bytes'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand stores" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand stores" -s V -l version -d 'Print version'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "save" -d 'Snapshot the working tree now and print the checkpoint\'s id'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "list" -d 'List checkpoints, newest first'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "show" -d 'Show a checkpoint\'s metadata and what it changed relative to its HEAD'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "diff" -d 'Show changes between checkpoints, or a checkpoint and the working tree, as a patch'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "restore" -d 'Make the working tree equal to a checkpoint; undoable'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "undo" -d 'Take back the last thing that happened to the working tree; undoable'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "redo" -d 'Take back the last undo; undoable'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "revert" -d 'Take back one step\'s change (A to B), keeping everything changed since; undoable'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "drop" -d 'Delete checkpoints (refs and notes)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "prune" -d 'Apply the retention policy now'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "pin" -d 'Pin a checkpoint: it is never pruned'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "unpin" -d 'Unpin a checkpoint'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "push" -d 'Push checkpoints and their notes to a remote (untracked files travel too)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "fetch" -d 'Fetch a remote\'s checkpoints and merge their notes; never overwrites one'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "du" -d 'Show what the checkpoints cost on disk, per kind, and the heaviest'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "repair" -d 'Remove objects an earlier version wrote that git cannot read, keeping every checkpoint'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, elvish, powershell)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "install-docs" -d 'Install the man page (for `git checkpoint --help`) and the bash, zsh and fish completions'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "exec" -d 'Run a command between two checkpoints; say what it changed and how to undo it'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "hooks" -d 'Print or install an agent\'s hooks that checkpoint before every tool call'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "mcp" -d 'Run the MCP server on stdio, or register it in an agent\'s MCP configuration'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "serve" -d 'Serve an HTTP API and a web page for the checkpoints (timeline, diffs, restore, undo)'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "stores" -d 'List the private stores of plain directories; --prune removes those whose directory is gone'
complete -c git-checkpoint -n "__fish_git_checkpoint_using_subcommand help; and not __fish_seen_subcommand_from save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'

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
        else if contains -- $token --color --store
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
complete -c git-checkpoint -n "__fish_seen_subcommand_from show restore diff revert drop pin unpin; and not __git_checkpoint_paths" -f -a "(__git_checkpoint_ids)"
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
