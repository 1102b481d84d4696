_gitcheckpoint() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="gitcheckpoint"
                ;;
            gitcheckpoint,completions)
                cmd="gitcheckpoint__subcmd__completions"
                ;;
            gitcheckpoint,diff)
                cmd="gitcheckpoint__subcmd__diff"
                ;;
            gitcheckpoint,drop)
                cmd="gitcheckpoint__subcmd__drop"
                ;;
            gitcheckpoint,du)
                cmd="gitcheckpoint__subcmd__du"
                ;;
            gitcheckpoint,exec)
                cmd="gitcheckpoint__subcmd__exec"
                ;;
            gitcheckpoint,fetch)
                cmd="gitcheckpoint__subcmd__fetch"
                ;;
            gitcheckpoint,help)
                cmd="gitcheckpoint__subcmd__help"
                ;;
            gitcheckpoint,hooks)
                cmd="gitcheckpoint__subcmd__hooks"
                ;;
            gitcheckpoint,install-docs)
                cmd="gitcheckpoint__subcmd__install__subcmd__docs"
                ;;
            gitcheckpoint,list)
                cmd="gitcheckpoint__subcmd__list"
                ;;
            gitcheckpoint,ls)
                cmd="gitcheckpoint__subcmd__list"
                ;;
            gitcheckpoint,mcp)
                cmd="gitcheckpoint__subcmd__mcp"
                ;;
            gitcheckpoint,pin)
                cmd="gitcheckpoint__subcmd__pin"
                ;;
            gitcheckpoint,prune)
                cmd="gitcheckpoint__subcmd__prune"
                ;;
            gitcheckpoint,push)
                cmd="gitcheckpoint__subcmd__push"
                ;;
            gitcheckpoint,redo)
                cmd="gitcheckpoint__subcmd__redo"
                ;;
            gitcheckpoint,repair)
                cmd="gitcheckpoint__subcmd__repair"
                ;;
            gitcheckpoint,restore)
                cmd="gitcheckpoint__subcmd__restore"
                ;;
            gitcheckpoint,revert)
                cmd="gitcheckpoint__subcmd__revert"
                ;;
            gitcheckpoint,save)
                cmd="gitcheckpoint__subcmd__save"
                ;;
            gitcheckpoint,serve)
                cmd="gitcheckpoint__subcmd__serve"
                ;;
            gitcheckpoint,show)
                cmd="gitcheckpoint__subcmd__show"
                ;;
            gitcheckpoint,stores)
                cmd="gitcheckpoint__subcmd__stores"
                ;;
            gitcheckpoint,undo)
                cmd="gitcheckpoint__subcmd__undo"
                ;;
            gitcheckpoint,unpin)
                cmd="gitcheckpoint__subcmd__unpin"
                ;;
            gitcheckpoint__subcmd__help,completions)
                cmd="gitcheckpoint__subcmd__help__subcmd__completions"
                ;;
            gitcheckpoint__subcmd__help,diff)
                cmd="gitcheckpoint__subcmd__help__subcmd__diff"
                ;;
            gitcheckpoint__subcmd__help,drop)
                cmd="gitcheckpoint__subcmd__help__subcmd__drop"
                ;;
            gitcheckpoint__subcmd__help,du)
                cmd="gitcheckpoint__subcmd__help__subcmd__du"
                ;;
            gitcheckpoint__subcmd__help,exec)
                cmd="gitcheckpoint__subcmd__help__subcmd__exec"
                ;;
            gitcheckpoint__subcmd__help,fetch)
                cmd="gitcheckpoint__subcmd__help__subcmd__fetch"
                ;;
            gitcheckpoint__subcmd__help,help)
                cmd="gitcheckpoint__subcmd__help__subcmd__help"
                ;;
            gitcheckpoint__subcmd__help,hooks)
                cmd="gitcheckpoint__subcmd__help__subcmd__hooks"
                ;;
            gitcheckpoint__subcmd__help,install-docs)
                cmd="gitcheckpoint__subcmd__help__subcmd__install__subcmd__docs"
                ;;
            gitcheckpoint__subcmd__help,list)
                cmd="gitcheckpoint__subcmd__help__subcmd__list"
                ;;
            gitcheckpoint__subcmd__help,mcp)
                cmd="gitcheckpoint__subcmd__help__subcmd__mcp"
                ;;
            gitcheckpoint__subcmd__help,pin)
                cmd="gitcheckpoint__subcmd__help__subcmd__pin"
                ;;
            gitcheckpoint__subcmd__help,prune)
                cmd="gitcheckpoint__subcmd__help__subcmd__prune"
                ;;
            gitcheckpoint__subcmd__help,push)
                cmd="gitcheckpoint__subcmd__help__subcmd__push"
                ;;
            gitcheckpoint__subcmd__help,redo)
                cmd="gitcheckpoint__subcmd__help__subcmd__redo"
                ;;
            gitcheckpoint__subcmd__help,repair)
                cmd="gitcheckpoint__subcmd__help__subcmd__repair"
                ;;
            gitcheckpoint__subcmd__help,restore)
                cmd="gitcheckpoint__subcmd__help__subcmd__restore"
                ;;
            gitcheckpoint__subcmd__help,revert)
                cmd="gitcheckpoint__subcmd__help__subcmd__revert"
                ;;
            gitcheckpoint__subcmd__help,save)
                cmd="gitcheckpoint__subcmd__help__subcmd__save"
                ;;
            gitcheckpoint__subcmd__help,serve)
                cmd="gitcheckpoint__subcmd__help__subcmd__serve"
                ;;
            gitcheckpoint__subcmd__help,show)
                cmd="gitcheckpoint__subcmd__help__subcmd__show"
                ;;
            gitcheckpoint__subcmd__help,stores)
                cmd="gitcheckpoint__subcmd__help__subcmd__stores"
                ;;
            gitcheckpoint__subcmd__help,undo)
                cmd="gitcheckpoint__subcmd__help__subcmd__undo"
                ;;
            gitcheckpoint__subcmd__help,unpin)
                cmd="gitcheckpoint__subcmd__help__subcmd__unpin"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        gitcheckpoint)
            opts="-h -V --color --store --help --version save list ls show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__completions)
            opts="-h -V --color --store --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__diff)
            opts="-U -M -h -V --stat --numstat --name-status --name-only --unified --find-renames --no-renames --binary --json --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --unified)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -U)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --find-renames)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -M)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__drop)
            opts="-q -h -V --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__du)
            opts="-n -h -V --max-count --json --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-count)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__exec)
            opts="-m -q -h -V --name --kind --message --restore-on-failure --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --message)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -m)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__fetch)
            opts="-q -h -V --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help)
            opts="save list show diff restore undo redo revert drop prune pin unpin push fetch du repair completions install-docs exec hooks mcp serve stores help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__drop)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__du)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__exec)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__fetch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__hooks)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__install__subcmd__docs)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__mcp)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__pin)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__prune)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__push)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__redo)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__repair)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__restore)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__revert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__save)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__stores)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__undo)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__help__subcmd__unpin)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__hooks)
            opts="-q -h -V --install --uninstall --project --local --user --quiet --color --store --help --version claude-code gemini codex cursor copilot cline opencode"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__install__subcmd__docs)
            opts="-q -h -V --prefix --man-dir --man-only --dry-run --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --man-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__list)
            opts="-n -h -V --max-count --kind --all --session --json --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-count)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__mcp)
            opts="-q -h -V --install --uninstall --print --project --local --user --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --install)
                    COMPREPLY=($(compgen -W "claude-code gemini codex cursor copilot cline opencode" -- "${cur}"))
                    return 0
                    ;;
                --uninstall)
                    COMPREPLY=($(compgen -W "claude-code gemini codex cursor copilot cline opencode" -- "${cur}"))
                    return 0
                    ;;
                --print)
                    COMPREPLY=($(compgen -W "claude-code gemini codex cursor copilot cline opencode" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__pin)
            opts="-q -h -V --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__prune)
            opts="-q -h -V --keep --older-than --max-size --kind --min-age --dry-run --json --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --keep)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --older-than)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-age)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__push)
            opts="-q -h -V --all --dry-run --quiet --with-conversation --allow-secrets --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__redo)
            opts="-q -h -V --dry-run --staged --no-save --force --quiet --json --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__repair)
            opts="-h -V --dry-run --json --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__restore)
            opts="-q -p -h -V --dry-run --staged --no-save --force --quiet --json --conversation --hunk --patch --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --hunk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__revert)
            opts="-p -q -h -V --agent --hunk --patch --conflicts --dry-run --force --quiet --json --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hunk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --conflicts)
                    COMPREPLY=($(compgen -W "refuse markers" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__save)
            opts="-m -q -h -V --message --name --kind --meta --meta-json --pin --allow-empty --quiet --json --session --from-hook --force --conversation --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --message)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -m)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --meta)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --meta-json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from-hook)
                    COMPREPLY=($(compgen -W "auto claude-code gemini codex cursor copilot cline opencode" -- "${cur}"))
                    return 0
                    ;;
                --conversation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__serve)
            opts="-q -h -V --port --open --listen --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__show)
            opts="-p -U -M -h -V --patch --stat --numstat --name-status --name-only --unified --find-renames --no-renames --binary --json --conversation --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --unified)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -U)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --find-renames)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -M)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__stores)
            opts="-h -V --prune --adopt --dry-run --json --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --adopt)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__undo)
            opts="-q -h -V --dry-run --staged --no-save --force --quiet --json --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        gitcheckpoint__subcmd__unpin)
            opts="-q -h -V --quiet --color --store --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "always never auto" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    :
else
    :
fi

# --- git-checkpoint: checkpoint ids and names, and `git checkpoint <TAB>` ---

# git, as git's completion runs it where it is loaded (`__git`: honouring `git -C <dir>` and
# `--git-dir` on the line); plain git otherwise.
__git_checkpoint_git() {
    if declare -F __git >/dev/null; then
        __git "$@"
    else
        git "$@" 2>/dev/null
    fi
}

__git_checkpoint_ids() {
    __git_checkpoint_git for-each-ref --format='%(refname:lstrip=2)' refs/checkpoints/
    __git_checkpoint_git for-each-ref --format='%(trailers:key=Checkpoint-Name,valueonly,separator=%x0a)' \
        refs/checkpoints/ | sed '/^$/d' | sort -u
    printf '%s\n' @ latest
}

# Complete a checkpoint, a remote or a path where one goes. $1: index in COMP_WORDS of the
# first word after the command. Returns 1 when the word is none of them.
__git_checkpoint_complete_ids() {
    local first=$1 cur="${COMP_WORDS[COMP_CWORD]}" sub="" args=0 i words paths=""
    for ((i = first; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
            --)
                # Paths follow, for the commands that take them.
                case "$sub" in
                    restore | diff | show) paths=1; break ;;
                    *) return 1 ;;
                esac ;;
            # `--opt=value`, which bash splits at `=`: the value is no argument.
            =) i=$((i + 1)) ;;
            # An option whose value is the next word.
            --color | --store)
                [ "${COMP_WORDS[i+1]}" = "=" ] || i=$((i + 1)) ;;
            -*) ;;
            *) if [ -z "$sub" ]; then sub="${COMP_WORDS[i]}"; else args=$((args + 1)); fi ;;
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
            case " show restore diff revert drop pin unpin " in
                *" $sub "*) words="$(__git_checkpoint_ids)" ;;
                *) return 1 ;;
            esac ;;
    esac
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return 0
}

__git_checkpoint_main() {
    __git_checkpoint_complete_ids 1 && return 0
    _gitcheckpoint "$@"
}
complete -F __git_checkpoint_main -o bashdefault -o default git-checkpoint

# git's completion calls this for `git checkpoint …`.
_git_checkpoint() {
    local at=$(( ${__git_cmd_idx:-1} + 1 ))
    __git_checkpoint_complete_ids "$at" && return 0
    local COMP_WORDS=(git-checkpoint "${COMP_WORDS[@]:at}")
    local COMP_CWORD=$(( COMP_CWORD - at + 1 ))
    _gitcheckpoint git-checkpoint "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
}
