# bash completion for asmrun(1): subcommands, options and their values, .asm files.
_asmrun() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    local run_options="-f --format -I -D --link -l --link-flags --c-flags --runner -o --timeout --strace --no-crash-report --no-checks -g --debug --batch --stdin --steps --json --no-cache --cache-dir -v --verbose -h --help --version"
    local test_options="--update --review -j --jobs --runner --filter --list --shard --balance --fail-fast --retries --allow-flaky --timeout --output-limit --limit --scratch-limit --c-flags --link-flags --junit --json --reference --untrusted --gradescope --csv --report-dir --no-isolation --checks --no-checks --no-cache --cache-dir -v --verbose -h --help"
    local command="" i
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} == -- ]]; then
            COMPREPLY=($(compgen -f -- "$cur")) # the program's own arguments
            return
        fi
    done
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            run | test | debug | trace | report | doctor | cache) command=${words[i]}; break ;;
            -*) ;;
            *) command=run; break ;;
        esac
    done
    case $prev in
        -f | --format) COMPREPLY=($(compgen -W "elf64 elf32" -- "$cur")); return ;;
        --link) COMPREPLY=($(compgen -W "auto ld cc" -- "$cur")); return ;;
        --checks) COMPREPLY=($(compgen -W "always on-failure" -- "$cur")); return ;;
        --runner)
            if [[ $command == test ]]; then
                COMPREPLY=($(compgen -W "auto native qemu binfmt all native,qemu" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "auto native qemu binfmt" -- "$cur"))
            fi
            return ;;
        -I | --cache-dir | --reference | --report-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -o | --junit | --json | --gradescope | --csv | --balance | --summary | --stdin) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -D | -l | --link-flags | --c-flags | --timeout | -j | --jobs | --filter | --shard | --output-limit | --limit | --scratch-limit | --steps) return ;;
    esac
    case $command in
        "")
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$run_options" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "run test debug trace report doctor cache" -- "$cur"))
                COMPREPLY+=($(compgen -f -X '!*.asm' -- "$cur") $(compgen -d -S / -- "$cur"))
            fi ;;
        run | test | debug | trace)
            local options=$run_options
            [[ $command == test ]] && options=$test_options
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$options" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -X '!*.asm' -- "$cur") $(compgen -d -S / -- "$cur"))
            fi ;;
        cache) COMPREPLY=($(compgen -W "info clean --cache-dir" -- "$cur")) ;;
        report)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--json --junit --summary --allow-flaky -h --help" -- "$cur"))
            elif [[ $prev == report ]]; then
                COMPREPLY=($(compgen -W "merge" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -S / -- "$cur"))
            fi ;;
    esac
    [[ ${COMPREPLY[*]} == */ ]] && compopt -o nospace 2>/dev/null
    return 0
}
complete -F _asmrun asmrun
