
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'git-checkpoint' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'git-checkpoint'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'git-checkpoint' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('save', 'save', [CompletionResultType]::ParameterValue, 'Snapshot the working tree now and print the checkpoint''s id')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List checkpoints, newest first')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List checkpoints, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a checkpoint''s metadata and what it changed relative to its HEAD')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show changes between checkpoints, or a checkpoint and the working tree, as a patch')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Make the working tree equal to a checkpoint; undoable')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Take back the last thing that happened to the working tree; undoable')
            [CompletionResult]::new('redo', 'redo', [CompletionResultType]::ParameterValue, 'Take back the last undo; undoable')
            [CompletionResult]::new('revert', 'revert', [CompletionResultType]::ParameterValue, 'Take back one step''s change (A to B), keeping everything changed since; undoable')
            [CompletionResult]::new('drop', 'drop', [CompletionResultType]::ParameterValue, 'Delete checkpoints (refs and notes)')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Apply the retention policy now')
            [CompletionResult]::new('pin', 'pin', [CompletionResultType]::ParameterValue, 'Pin a checkpoint: it is never pruned')
            [CompletionResult]::new('unpin', 'unpin', [CompletionResultType]::ParameterValue, 'Unpin a checkpoint')
            [CompletionResult]::new('push', 'push', [CompletionResultType]::ParameterValue, 'Push checkpoints and their notes to a remote (untracked files travel too)')
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Fetch a remote''s checkpoints and merge their notes; never overwrites one')
            [CompletionResult]::new('du', 'du', [CompletionResultType]::ParameterValue, 'Show what the checkpoints cost on disk, per kind, and the heaviest')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Remove objects an earlier version wrote that git cannot read, keeping every checkpoint')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, elvish, powershell)')
            [CompletionResult]::new('install-docs', 'install-docs', [CompletionResultType]::ParameterValue, 'Install the man page (for `git checkpoint --help`) and the bash, zsh and fish completions')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command between two checkpoints; say what it changed and how to undo it')
            [CompletionResult]::new('hooks', 'hooks', [CompletionResultType]::ParameterValue, 'Print or install an agent''s hooks that checkpoint before every tool call')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Run the MCP server on stdio, or register it in an agent''s MCP configuration')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve an HTTP API and a web page for the checkpoints (timeline, diffs, restore, undo)')
            [CompletionResult]::new('stores', 'stores', [CompletionResultType]::ParameterValue, 'List the private stores of plain directories; --prune removes those whose directory is gone')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-checkpoint;save' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'A message describing the checkpoint')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'A message describing the checkpoint')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'A name to find the checkpoint by later (the newest of a name wins)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'The kind: a short lowercase word such as manual (the default), auto or session')
            [CompletionResult]::new('--meta', '--meta', [CompletionResultType]::ParameterName, 'Free-form metadata stored in the note''s "meta" object; repeatable')
            [CompletionResult]::new('--meta-json', '--meta-json', [CompletionResultType]::ParameterName, 'Metadata as a JSON object (merged into "meta"); `-` reads it from stdin')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The agent session this checkpoint belongs to; `session:<ID>` then names the session''s first checkpoint, and `list --session <ID>` lists them')
            [CompletionResult]::new('--from-hook', '--from-hook', [CompletionResultType]::ParameterName, 'Run as an agent''s hook: read the hook''s JSON from stdin (the agent''s, recognised when AGENT is not given), record the agent, session, event, tool, turn and call ids, edited paths and transcript path in the note (never a file''s or prompt''s content), kind auto (session at a session''s start), print nothing but the answer the agent expects, and never fail the agent: errors are warnings and exit 0, unless checkpoint.hookFailure is `block`, which refuses the tool call in the agent''s own way (never at a session''s start or a turn''s end)')
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'Keep this file with the checkpoint as its conversation (an agent''s transcript, a chat log, any file up to 64 MiB; `-` reads it from stdin): `show --conversation` prints it. Stored apart from the snapshot, and pushed only with `push --with-conversation`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--pin', '--pin', [CompletionResultType]::ParameterName, 'Pin the checkpoint: it is never pruned')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Make a checkpoint even if nothing changed since the newest one')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr (the id is still printed on stdout)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr (the id is still printed on stdout)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the checkpoint''s metadata as JSON instead of its id')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Outside any git repository, checkpoint even a home directory itself, the system''s temporary directory itself or a file system root (refused otherwise: a first save would copy all of it into a store)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;list' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most N checkpoints')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Show at most N checkpoints')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only checkpoints of this kind')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only the checkpoints of this agent session (an id, a unique prefix of one, or `@` for the newest session), from whichever worktree')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Checkpoints of every worktree, not just this one')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON array of the checkpoints'' metadata')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;ls' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most N checkpoints')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Show at most N checkpoints')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only checkpoints of this kind')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only the checkpoints of this agent session (an id, a unique prefix of one, or `@` for the newest session), from whichever worktree')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Checkpoints of every worktree, not just this one')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON array of the checkpoints'' metadata')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;show' {
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git')
            [CompletionResult]::new('--unified', '--unified', [CompletionResultType]::ParameterName, 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git')
            [CompletionResult]::new('-M', '-M ', [CompletionResultType]::ParameterName, 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false')
            [CompletionResult]::new('--find-renames', '--find-renames', [CompletionResultType]::ParameterName, 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The patch of what it changed relative to its HEAD (instead of the diffstat)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'The patch of what it changed relative to its HEAD (instead of the diffstat)')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'A diffstat, as `git diff --stat`')
            [CompletionResult]::new('--numstat', '--numstat', [CompletionResultType]::ParameterName, 'Added and deleted lines per file, as `git diff --numstat`')
            [CompletionResult]::new('--name-status', '--name-status', [CompletionResultType]::ParameterName, 'Status letter and path per file, as `git diff --name-status`')
            [CompletionResult]::new('--name-only', '--name-only', [CompletionResultType]::ParameterName, 'Changed paths only')
            [CompletionResult]::new('--no-renames', '--no-renames', [CompletionResultType]::ParameterName, 'Do not detect renames')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Emit binary files as git binary patches (with full index lines) so they apply too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the metadata as JSON (the note''s fields plus "commit")')
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'Print the conversation kept with the checkpoint (its agent''s transcript as it was at the save, or the file given to `save --conversation`) instead; with --json, as JSON')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;diff' {
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git')
            [CompletionResult]::new('--unified', '--unified', [CompletionResultType]::ParameterName, 'Lines of context (`-U5`, `-U 5`, `--unified=5`; default 3); asks for the patch, as in git')
            [CompletionResult]::new('-M', '-M ', [CompletionResultType]::ParameterName, 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false')
            [CompletionResult]::new('--find-renames', '--find-renames', [CompletionResultType]::ParameterName, 'Detect renames, with a minimal similarity as git spells it: `-M90` or `--find-renames=90` (digits are a fraction: 90 %; `-M5` is 50 %), `-M90%`, `-M0.9`; `-M` alone, 50 %. On by default, as in git, unless `diff.renames` is false')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'A diffstat, as `git diff --stat`')
            [CompletionResult]::new('--numstat', '--numstat', [CompletionResultType]::ParameterName, 'Added and deleted lines per file, as `git diff --numstat`')
            [CompletionResult]::new('--name-status', '--name-status', [CompletionResultType]::ParameterName, 'Status letter and path per file, as `git diff --name-status`')
            [CompletionResult]::new('--name-only', '--name-only', [CompletionResultType]::ParameterName, 'Changed paths only')
            [CompletionResult]::new('--no-renames', '--no-renames', [CompletionResultType]::ParameterName, 'Do not detect renames')
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'Emit binary files as git binary patches (with full index lines) so they apply too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'A JSON object with a "files" array')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;restore' {
            [CompletionResult]::new('--hunk', '--hunk', [CompletionResultType]::ParameterName, 'Restore only this hunk of the difference between the checkpoint and the working tree (repeatable; ids as `git checkpoint diff --json <CP>` gives them)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be written and deleted; change nothing, save nothing')
            [CompletionResult]::new('--staged', '--staged', [CompletionResultType]::ParameterName, 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries')
            [CompletionResult]::new('--no-save', '--no-save', [CompletionResultType]::ParameterName, 'Do not save a pre-restore checkpoint first (the restore cannot be undone)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the outcome as JSON')
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'Also rewind the conversation: write a new session of the agent whose transcript ends at the checkpoint (the original is never changed) and print the command that resumes it; where the agent''s format cannot be written safely, and for a conversation given with `save --conversation`, export it to a new file instead')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Choose the hunks to restore one by one (y, n, q, a, d, s, ?), as `git restore -p`; with paths, only their hunks')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'Choose the hunks to restore one by one (y, n, q, a, d, s, ?), as `git restore -p`; with paths, only their hunks')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;undo' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be written and deleted; change nothing, save nothing')
            [CompletionResult]::new('--staged', '--staged', [CompletionResultType]::ParameterName, 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries')
            [CompletionResult]::new('--no-save', '--no-save', [CompletionResultType]::ParameterName, 'Do not save a pre-restore checkpoint first (the restore cannot be undone)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the outcome as JSON')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;redo' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be written and deleted; change nothing, save nothing')
            [CompletionResult]::new('--staged', '--staged', [CompletionResultType]::ParameterName, 'Also restore the index (staged changes) recorded in the checkpoint; with paths, only their entries')
            [CompletionResult]::new('--no-save', '--no-save', [CompletionResultType]::ParameterName, 'Do not save a pre-restore checkpoint first (the restore cannot be undone)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Restore during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first, so never with --no-save)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the outcome as JSON')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;revert' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Take back the own steps of every session of this agent (`claude-code`, `codex` and so on) in this worktree, keeping what everyone else changed')
            [CompletionResult]::new('--hunk', '--hunk', [CompletionResultType]::ParameterName, 'Take back only this hunk of the step''s change (repeatable; ids as `git checkpoint diff --json A B` gives them)')
            [CompletionResult]::new('--conflicts', '--conflicts', [CompletionResultType]::ParameterName, 'What to do when the step''s change and later changes conflict: refuse the whole revert (the default), or write the files with conflict markers')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Choose the hunks to take back one by one (y, n, q, a, d, s, ?), as `git restore -p`')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'Choose the hunks to take back one by one (y, n, q, a, d, s, ?), as `git restore -p`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be written and deleted; change nothing, save nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Revert during a merge/rebase/cherry-pick/revert/bisect, and replace ignored files that stand in the way (their content is kept in the pre-restore checkpoint first)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the outcome as JSON')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;drop' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;prune' {
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Keep at most N checkpoints of each kind (overrides checkpoint.keep and the kinds'' own; with --kind, N of that kind). Applies to young checkpoints too')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Prune checkpoints older than this: 90m, 12h, 30d, 2w (overrides checkpoint.maxAge)')
            [CompletionResult]::new('--max-size', '--max-size', [CompletionResultType]::ParameterName, 'Remove the oldest unpinned checkpoints until what only checkpoints hold fits in SIZE: 512m, 2g (overrides checkpoint.maxSize; see `git checkpoint du`)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only prune checkpoints of this kind')
            [CompletionResult]::new('--min-age', '--min-age', [CompletionResultType]::ParameterName, 'No count or size limit removes a checkpoint younger than this: 0, 30m, 2h (overrides checkpoint.minAge, default 1h)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be pruned; delete nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the pruned checkpoints as a JSON array, each with `pruned_by`: the setting (or flag) that pruned it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;pin' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;unpin' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;push' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Push every checkpoint: pre-restore ones, and those fetched from elsewhere, too')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'List, for each checkpoint, the files it holds that its HEAD commit does not; push nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--with-conversation', '--with-conversation', [CompletionResultType]::ParameterName, 'Also push the conversations kept with them (agents'' transcripts, `save --conversation`), which otherwise never leave this machine')
            [CompletionResult]::new('--allow-secrets', '--allow-secrets', [CompletionResultType]::ParameterName, 'Also push the checkpoints where a save found what looks like secrets (held back otherwise, and the push fails naming them)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;fetch' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;du' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many of the heaviest checkpoints to list')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'How many of the heaviest checkpoints to list')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON object: total, notes, conversations, by_kind, by_checkpoint (each one''s id, kind and what it added)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;repair' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be rewritten and removed; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON object: `unreadable` (the object ids) and `rewritten` (each checkpoint''s id, old commit and new commit)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;install-docs' {
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, 'Install under this prefix (e.g. /usr/local), in the layout of a package')
            [CompletionResult]::new('--man-dir', '--man-dir', [CompletionResultType]::ParameterName, 'The man directory, which gets man1/git-checkpoint.1 [default: share/man beside the binary''s directory, or under --prefix]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--man-only', '--man-only', [CompletionResultType]::ParameterName, 'Only the man page, no completion scripts')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print where the files would go; write nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr (the paths are still printed on stdout)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr (the paths are still printed on stdout)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;exec' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'A name for the checkpoint before the command (always a new checkpoint, so the name finds it)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'The kind of both checkpoints')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The message of the checkpoint before the command [default: before: <CMD...>]')
            [CompletionResult]::new('--message', '--message', [CompletionResultType]::ParameterName, 'The message of the checkpoint before the command [default: before: <CMD...>]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--restore-on-failure', '--restore-on-failure', [CompletionResultType]::ParameterName, 'When the command fails (a non-zero exit, or killed by a signal), restore the checkpoint taken before it; that restore is undoable as usual')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors (the command''s own output is not affected)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr but errors (the command''s own output is not affected)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;hooks' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--install', '--install', [CompletionResultType]::ParameterName, 'Merge the hooks into the agent''s configuration, keeping everything else in it (a file holding anything of yours is first copied to <file>.bak); running it again changes nothing, except that hooks an older version installed are replaced by the current ones')
            [CompletionResult]::new('--uninstall', '--uninstall', [CompletionResultType]::ParameterName, 'Remove git-checkpoint''s hooks from the agent''s configuration, keeping everything else; a file that --install created, holding nothing else, is removed')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s configuration, shared through the repository (the default; for Cline''s MCP server, which has none, --user is)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'The project''s configuration for you only: Claude Code''s .claude/settings.local.json (no other agent has this level)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Your configuration, for every project')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;mcp' {
            [CompletionResult]::new('--install', '--install', [CompletionResultType]::ParameterName, 'Register the server in this agent''s MCP configuration')
            [CompletionResult]::new('--uninstall', '--uninstall', [CompletionResultType]::ParameterName, 'Remove the server from this agent''s MCP configuration, keeping everything else')
            [CompletionResult]::new('--print', '--print', [CompletionResultType]::ParameterName, 'Print what --install would add for this agent, and where')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s configuration, shared through the repository (the default; for Cline''s MCP server, which has none, --user is)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'The project''s configuration for you only: Claude Code''s .claude/settings.local.json (no other agent has this level)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Your configuration, for every project')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;serve' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'The port to listen on; 0 picks a free one')
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'The address to listen on. Anything but a loopback address lets other machines reach the server (the token still guards it, but travels unencrypted)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--open', '--open', [CompletionResultType]::ParameterName, 'Open the page in the web browser')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the URL')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the URL')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;stores' {
            [CompletionResult]::new('--adopt', '--adopt', [CompletionResultType]::ParameterName, 'Make STORE, the store of a directory that was moved or renamed (its recorded directory is gone), the store of the current directory')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour: always, never or auto (a terminal, and no NO_COLOR or TERM=dumb)')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'The store to keep checkpoints in: a git directory (made when missing) whose working tree is the current directory. Overrides GIT_CHECKPOINT_STORE; used even inside a git repository. Outside any repository, without it, a private store under ${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores is used')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Remove the stores whose directory is known to be gone (its path does not exist), with their checkpoints; never one whose directory cannot be read, is on a file system that is not mounted, or is not recorded')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'With --prune: only say which stores would be removed')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print a JSON array: each store''s path, directory, whether it exists, is known to be gone or is unknown (and why), whether it is now in a git repository, checkpoints and size in bytes')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'git-checkpoint;help' {
            [CompletionResult]::new('save', 'save', [CompletionResultType]::ParameterValue, 'Snapshot the working tree now and print the checkpoint''s id')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List checkpoints, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a checkpoint''s metadata and what it changed relative to its HEAD')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show changes between checkpoints, or a checkpoint and the working tree, as a patch')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Make the working tree equal to a checkpoint; undoable')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Take back the last thing that happened to the working tree; undoable')
            [CompletionResult]::new('redo', 'redo', [CompletionResultType]::ParameterValue, 'Take back the last undo; undoable')
            [CompletionResult]::new('revert', 'revert', [CompletionResultType]::ParameterValue, 'Take back one step''s change (A to B), keeping everything changed since; undoable')
            [CompletionResult]::new('drop', 'drop', [CompletionResultType]::ParameterValue, 'Delete checkpoints (refs and notes)')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Apply the retention policy now')
            [CompletionResult]::new('pin', 'pin', [CompletionResultType]::ParameterValue, 'Pin a checkpoint: it is never pruned')
            [CompletionResult]::new('unpin', 'unpin', [CompletionResultType]::ParameterValue, 'Unpin a checkpoint')
            [CompletionResult]::new('push', 'push', [CompletionResultType]::ParameterValue, 'Push checkpoints and their notes to a remote (untracked files travel too)')
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Fetch a remote''s checkpoints and merge their notes; never overwrites one')
            [CompletionResult]::new('du', 'du', [CompletionResultType]::ParameterValue, 'Show what the checkpoints cost on disk, per kind, and the heaviest')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Remove objects an earlier version wrote that git cannot read, keeping every checkpoint')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, elvish, powershell)')
            [CompletionResult]::new('install-docs', 'install-docs', [CompletionResultType]::ParameterValue, 'Install the man page (for `git checkpoint --help`) and the bash, zsh and fish completions')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command between two checkpoints; say what it changed and how to undo it')
            [CompletionResult]::new('hooks', 'hooks', [CompletionResultType]::ParameterValue, 'Print or install an agent''s hooks that checkpoint before every tool call')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Run the MCP server on stdio, or register it in an agent''s MCP configuration')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve an HTTP API and a web page for the checkpoints (timeline, diffs, restore, undo)')
            [CompletionResult]::new('stores', 'stores', [CompletionResultType]::ParameterValue, 'List the private stores of plain directories; --prune removes those whose directory is gone')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'git-checkpoint;help;save' {
            break
        }
        'git-checkpoint;help;list' {
            break
        }
        'git-checkpoint;help;show' {
            break
        }
        'git-checkpoint;help;diff' {
            break
        }
        'git-checkpoint;help;restore' {
            break
        }
        'git-checkpoint;help;undo' {
            break
        }
        'git-checkpoint;help;redo' {
            break
        }
        'git-checkpoint;help;revert' {
            break
        }
        'git-checkpoint;help;drop' {
            break
        }
        'git-checkpoint;help;prune' {
            break
        }
        'git-checkpoint;help;pin' {
            break
        }
        'git-checkpoint;help;unpin' {
            break
        }
        'git-checkpoint;help;push' {
            break
        }
        'git-checkpoint;help;fetch' {
            break
        }
        'git-checkpoint;help;du' {
            break
        }
        'git-checkpoint;help;repair' {
            break
        }
        'git-checkpoint;help;completions' {
            break
        }
        'git-checkpoint;help;install-docs' {
            break
        }
        'git-checkpoint;help;exec' {
            break
        }
        'git-checkpoint;help;hooks' {
            break
        }
        'git-checkpoint;help;mcp' {
            break
        }
        'git-checkpoint;help;serve' {
            break
        }
        'git-checkpoint;help;stores' {
            break
        }
        'git-checkpoint;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
