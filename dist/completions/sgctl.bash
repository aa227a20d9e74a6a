_sgctl() {
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
                cmd="sgctl"
                ;;
            sgctl,ata)
                cmd="sgctl__subcmd__ata"
                ;;
            sgctl,audit)
                cmd="sgctl__subcmd__audit"
                ;;
            sgctl,bench)
                cmd="sgctl__subcmd__bench"
                ;;
            sgctl,certificate)
                cmd="sgctl__subcmd__certificate"
                ;;
            sgctl,decode)
                cmd="sgctl__subcmd__decode"
                ;;
            sgctl,defects)
                cmd="sgctl__subcmd__defects"
                ;;
            sgctl,fault)
                cmd="sgctl__subcmd__fault"
                ;;
            sgctl,format)
                cmd="sgctl__subcmd__format"
                ;;
            sgctl,health)
                cmd="sgctl__subcmd__health"
                ;;
            sgctl,help)
                cmd="sgctl__subcmd__help"
                ;;
            sgctl,inquiry)
                cmd="sgctl__subcmd__inquiry"
                ;;
            sgctl,locate)
                cmd="sgctl__subcmd__locate"
                ;;
            sgctl,logs)
                cmd="sgctl__subcmd__logs"
                ;;
            sgctl,luns)
                cmd="sgctl__subcmd__luns"
                ;;
            sgctl,modes)
                cmd="sgctl__subcmd__modes"
                ;;
            sgctl,opcodes)
                cmd="sgctl__subcmd__opcodes"
                ;;
            sgctl,paths)
                cmd="sgctl__subcmd__paths"
                ;;
            sgctl,power)
                cmd="sgctl__subcmd__power"
                ;;
            sgctl,readcap)
                cmd="sgctl__subcmd__readcap"
                ;;
            sgctl,reassign)
                cmd="sgctl__subcmd__reassign"
                ;;
            sgctl,reservations)
                cmd="sgctl__subcmd__reservations"
                ;;
            sgctl,sanitize)
                cmd="sgctl__subcmd__sanitize"
                ;;
            sgctl,scan)
                cmd="sgctl__subcmd__scan"
                ;;
            sgctl,selftest)
                cmd="sgctl__subcmd__selftest"
                ;;
            sgctl,sense)
                cmd="sgctl__subcmd__sense"
                ;;
            sgctl,sim)
                cmd="sgctl__subcmd__sim"
                ;;
            sgctl,tcg)
                cmd="sgctl__subcmd__tcg"
                ;;
            sgctl,tur)
                cmd="sgctl__subcmd__tur"
                ;;
            sgctl,vpd)
                cmd="sgctl__subcmd__vpd"
                ;;
            sgctl,wait)
                cmd="sgctl__subcmd__wait"
                ;;
            sgctl__subcmd__ata,help)
                cmd="sgctl__subcmd__ata__subcmd__help"
                ;;
            sgctl__subcmd__ata,identify)
                cmd="sgctl__subcmd__ata__subcmd__identify"
                ;;
            sgctl__subcmd__ata,logs)
                cmd="sgctl__subcmd__ata__subcmd__logs"
                ;;
            sgctl__subcmd__ata,smart)
                cmd="sgctl__subcmd__ata__subcmd__smart"
                ;;
            sgctl__subcmd__ata__subcmd__help,help)
                cmd="sgctl__subcmd__ata__subcmd__help__subcmd__help"
                ;;
            sgctl__subcmd__ata__subcmd__help,identify)
                cmd="sgctl__subcmd__ata__subcmd__help__subcmd__identify"
                ;;
            sgctl__subcmd__ata__subcmd__help,logs)
                cmd="sgctl__subcmd__ata__subcmd__help__subcmd__logs"
                ;;
            sgctl__subcmd__ata__subcmd__help,smart)
                cmd="sgctl__subcmd__ata__subcmd__help__subcmd__smart"
                ;;
            sgctl__subcmd__audit,help)
                cmd="sgctl__subcmd__audit__subcmd__help"
                ;;
            sgctl__subcmd__audit,verify)
                cmd="sgctl__subcmd__audit__subcmd__verify"
                ;;
            sgctl__subcmd__audit__subcmd__help,help)
                cmd="sgctl__subcmd__audit__subcmd__help__subcmd__help"
                ;;
            sgctl__subcmd__audit__subcmd__help,verify)
                cmd="sgctl__subcmd__audit__subcmd__help__subcmd__verify"
                ;;
            sgctl__subcmd__bench,compare)
                cmd="sgctl__subcmd__bench__subcmd__compare"
                ;;
            sgctl__subcmd__bench,help)
                cmd="sgctl__subcmd__bench__subcmd__help"
                ;;
            sgctl__subcmd__bench,pts)
                cmd="sgctl__subcmd__bench__subcmd__pts"
                ;;
            sgctl__subcmd__bench,review)
                cmd="sgctl__subcmd__bench__subcmd__review"
                ;;
            sgctl__subcmd__bench,run)
                cmd="sgctl__subcmd__bench__subcmd__run"
                ;;
            sgctl__subcmd__bench__subcmd__help,compare)
                cmd="sgctl__subcmd__bench__subcmd__help__subcmd__compare"
                ;;
            sgctl__subcmd__bench__subcmd__help,help)
                cmd="sgctl__subcmd__bench__subcmd__help__subcmd__help"
                ;;
            sgctl__subcmd__bench__subcmd__help,pts)
                cmd="sgctl__subcmd__bench__subcmd__help__subcmd__pts"
                ;;
            sgctl__subcmd__bench__subcmd__help,review)
                cmd="sgctl__subcmd__bench__subcmd__help__subcmd__review"
                ;;
            sgctl__subcmd__bench__subcmd__help,run)
                cmd="sgctl__subcmd__bench__subcmd__help__subcmd__run"
                ;;
            sgctl__subcmd__certificate,countersign)
                cmd="sgctl__subcmd__certificate__subcmd__countersign"
                ;;
            sgctl__subcmd__certificate,help)
                cmd="sgctl__subcmd__certificate__subcmd__help"
                ;;
            sgctl__subcmd__certificate,keygen)
                cmd="sgctl__subcmd__certificate__subcmd__keygen"
                ;;
            sgctl__subcmd__certificate,verify)
                cmd="sgctl__subcmd__certificate__subcmd__verify"
                ;;
            sgctl__subcmd__certificate__subcmd__help,countersign)
                cmd="sgctl__subcmd__certificate__subcmd__help__subcmd__countersign"
                ;;
            sgctl__subcmd__certificate__subcmd__help,help)
                cmd="sgctl__subcmd__certificate__subcmd__help__subcmd__help"
                ;;
            sgctl__subcmd__certificate__subcmd__help,keygen)
                cmd="sgctl__subcmd__certificate__subcmd__help__subcmd__keygen"
                ;;
            sgctl__subcmd__certificate__subcmd__help,verify)
                cmd="sgctl__subcmd__certificate__subcmd__help__subcmd__verify"
                ;;
            sgctl__subcmd__help,ata)
                cmd="sgctl__subcmd__help__subcmd__ata"
                ;;
            sgctl__subcmd__help,audit)
                cmd="sgctl__subcmd__help__subcmd__audit"
                ;;
            sgctl__subcmd__help,bench)
                cmd="sgctl__subcmd__help__subcmd__bench"
                ;;
            sgctl__subcmd__help,certificate)
                cmd="sgctl__subcmd__help__subcmd__certificate"
                ;;
            sgctl__subcmd__help,decode)
                cmd="sgctl__subcmd__help__subcmd__decode"
                ;;
            sgctl__subcmd__help,defects)
                cmd="sgctl__subcmd__help__subcmd__defects"
                ;;
            sgctl__subcmd__help,fault)
                cmd="sgctl__subcmd__help__subcmd__fault"
                ;;
            sgctl__subcmd__help,format)
                cmd="sgctl__subcmd__help__subcmd__format"
                ;;
            sgctl__subcmd__help,health)
                cmd="sgctl__subcmd__help__subcmd__health"
                ;;
            sgctl__subcmd__help,help)
                cmd="sgctl__subcmd__help__subcmd__help"
                ;;
            sgctl__subcmd__help,inquiry)
                cmd="sgctl__subcmd__help__subcmd__inquiry"
                ;;
            sgctl__subcmd__help,locate)
                cmd="sgctl__subcmd__help__subcmd__locate"
                ;;
            sgctl__subcmd__help,logs)
                cmd="sgctl__subcmd__help__subcmd__logs"
                ;;
            sgctl__subcmd__help,luns)
                cmd="sgctl__subcmd__help__subcmd__luns"
                ;;
            sgctl__subcmd__help,modes)
                cmd="sgctl__subcmd__help__subcmd__modes"
                ;;
            sgctl__subcmd__help,opcodes)
                cmd="sgctl__subcmd__help__subcmd__opcodes"
                ;;
            sgctl__subcmd__help,paths)
                cmd="sgctl__subcmd__help__subcmd__paths"
                ;;
            sgctl__subcmd__help,power)
                cmd="sgctl__subcmd__help__subcmd__power"
                ;;
            sgctl__subcmd__help,readcap)
                cmd="sgctl__subcmd__help__subcmd__readcap"
                ;;
            sgctl__subcmd__help,reassign)
                cmd="sgctl__subcmd__help__subcmd__reassign"
                ;;
            sgctl__subcmd__help,reservations)
                cmd="sgctl__subcmd__help__subcmd__reservations"
                ;;
            sgctl__subcmd__help,sanitize)
                cmd="sgctl__subcmd__help__subcmd__sanitize"
                ;;
            sgctl__subcmd__help,scan)
                cmd="sgctl__subcmd__help__subcmd__scan"
                ;;
            sgctl__subcmd__help,selftest)
                cmd="sgctl__subcmd__help__subcmd__selftest"
                ;;
            sgctl__subcmd__help,sense)
                cmd="sgctl__subcmd__help__subcmd__sense"
                ;;
            sgctl__subcmd__help,sim)
                cmd="sgctl__subcmd__help__subcmd__sim"
                ;;
            sgctl__subcmd__help,tcg)
                cmd="sgctl__subcmd__help__subcmd__tcg"
                ;;
            sgctl__subcmd__help,tur)
                cmd="sgctl__subcmd__help__subcmd__tur"
                ;;
            sgctl__subcmd__help,vpd)
                cmd="sgctl__subcmd__help__subcmd__vpd"
                ;;
            sgctl__subcmd__help,wait)
                cmd="sgctl__subcmd__help__subcmd__wait"
                ;;
            sgctl__subcmd__help__subcmd__ata,identify)
                cmd="sgctl__subcmd__help__subcmd__ata__subcmd__identify"
                ;;
            sgctl__subcmd__help__subcmd__ata,logs)
                cmd="sgctl__subcmd__help__subcmd__ata__subcmd__logs"
                ;;
            sgctl__subcmd__help__subcmd__ata,smart)
                cmd="sgctl__subcmd__help__subcmd__ata__subcmd__smart"
                ;;
            sgctl__subcmd__help__subcmd__audit,verify)
                cmd="sgctl__subcmd__help__subcmd__audit__subcmd__verify"
                ;;
            sgctl__subcmd__help__subcmd__bench,compare)
                cmd="sgctl__subcmd__help__subcmd__bench__subcmd__compare"
                ;;
            sgctl__subcmd__help__subcmd__bench,pts)
                cmd="sgctl__subcmd__help__subcmd__bench__subcmd__pts"
                ;;
            sgctl__subcmd__help__subcmd__bench,review)
                cmd="sgctl__subcmd__help__subcmd__bench__subcmd__review"
                ;;
            sgctl__subcmd__help__subcmd__bench,run)
                cmd="sgctl__subcmd__help__subcmd__bench__subcmd__run"
                ;;
            sgctl__subcmd__help__subcmd__certificate,countersign)
                cmd="sgctl__subcmd__help__subcmd__certificate__subcmd__countersign"
                ;;
            sgctl__subcmd__help__subcmd__certificate,keygen)
                cmd="sgctl__subcmd__help__subcmd__certificate__subcmd__keygen"
                ;;
            sgctl__subcmd__help__subcmd__certificate,verify)
                cmd="sgctl__subcmd__help__subcmd__certificate__subcmd__verify"
                ;;
            sgctl__subcmd__help__subcmd__sim,bench)
                cmd="sgctl__subcmd__help__subcmd__sim__subcmd__bench"
                ;;
            sgctl__subcmd__help__subcmd__sim,fault)
                cmd="sgctl__subcmd__help__subcmd__sim__subcmd__fault"
                ;;
            sgctl__subcmd__help__subcmd__sim,info)
                cmd="sgctl__subcmd__help__subcmd__sim__subcmd__info"
                ;;
            sgctl__subcmd__help__subcmd__sim,list)
                cmd="sgctl__subcmd__help__subcmd__sim__subcmd__list"
                ;;
            sgctl__subcmd__help__subcmd__sim,serve)
                cmd="sgctl__subcmd__help__subcmd__sim__subcmd__serve"
                ;;
            sgctl__subcmd__help__subcmd__tcg,bands)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__bands"
                ;;
            sgctl__subcmd__help__subcmd__tcg,configure-band)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__configure__subcmd__band"
                ;;
            sgctl__subcmd__help__subcmd__tcg,discover)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__discover"
                ;;
            sgctl__subcmd__help__subcmd__tcg,erase)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__erase"
                ;;
            sgctl__subcmd__help__subcmd__tcg,lock)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__lock"
                ;;
            sgctl__subcmd__help__subcmd__tcg,revert)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__revert"
                ;;
            sgctl__subcmd__help__subcmd__tcg,status)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__status"
                ;;
            sgctl__subcmd__help__subcmd__tcg,take-ownership)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__take__subcmd__ownership"
                ;;
            sgctl__subcmd__help__subcmd__tcg,unlock)
                cmd="sgctl__subcmd__help__subcmd__tcg__subcmd__unlock"
                ;;
            sgctl__subcmd__sim,bench)
                cmd="sgctl__subcmd__sim__subcmd__bench"
                ;;
            sgctl__subcmd__sim,fault)
                cmd="sgctl__subcmd__sim__subcmd__fault"
                ;;
            sgctl__subcmd__sim,help)
                cmd="sgctl__subcmd__sim__subcmd__help"
                ;;
            sgctl__subcmd__sim,info)
                cmd="sgctl__subcmd__sim__subcmd__info"
                ;;
            sgctl__subcmd__sim,list)
                cmd="sgctl__subcmd__sim__subcmd__list"
                ;;
            sgctl__subcmd__sim,serve)
                cmd="sgctl__subcmd__sim__subcmd__serve"
                ;;
            sgctl__subcmd__sim__subcmd__help,bench)
                cmd="sgctl__subcmd__sim__subcmd__help__subcmd__bench"
                ;;
            sgctl__subcmd__sim__subcmd__help,fault)
                cmd="sgctl__subcmd__sim__subcmd__help__subcmd__fault"
                ;;
            sgctl__subcmd__sim__subcmd__help,help)
                cmd="sgctl__subcmd__sim__subcmd__help__subcmd__help"
                ;;
            sgctl__subcmd__sim__subcmd__help,info)
                cmd="sgctl__subcmd__sim__subcmd__help__subcmd__info"
                ;;
            sgctl__subcmd__sim__subcmd__help,list)
                cmd="sgctl__subcmd__sim__subcmd__help__subcmd__list"
                ;;
            sgctl__subcmd__sim__subcmd__help,serve)
                cmd="sgctl__subcmd__sim__subcmd__help__subcmd__serve"
                ;;
            sgctl__subcmd__tcg,bands)
                cmd="sgctl__subcmd__tcg__subcmd__bands"
                ;;
            sgctl__subcmd__tcg,configure-band)
                cmd="sgctl__subcmd__tcg__subcmd__configure__subcmd__band"
                ;;
            sgctl__subcmd__tcg,discover)
                cmd="sgctl__subcmd__tcg__subcmd__discover"
                ;;
            sgctl__subcmd__tcg,erase)
                cmd="sgctl__subcmd__tcg__subcmd__erase"
                ;;
            sgctl__subcmd__tcg,help)
                cmd="sgctl__subcmd__tcg__subcmd__help"
                ;;
            sgctl__subcmd__tcg,lock)
                cmd="sgctl__subcmd__tcg__subcmd__lock"
                ;;
            sgctl__subcmd__tcg,revert)
                cmd="sgctl__subcmd__tcg__subcmd__revert"
                ;;
            sgctl__subcmd__tcg,status)
                cmd="sgctl__subcmd__tcg__subcmd__status"
                ;;
            sgctl__subcmd__tcg,take-ownership)
                cmd="sgctl__subcmd__tcg__subcmd__take__subcmd__ownership"
                ;;
            sgctl__subcmd__tcg,unlock)
                cmd="sgctl__subcmd__tcg__subcmd__unlock"
                ;;
            sgctl__subcmd__tcg__subcmd__help,bands)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__bands"
                ;;
            sgctl__subcmd__tcg__subcmd__help,configure-band)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__configure__subcmd__band"
                ;;
            sgctl__subcmd__tcg__subcmd__help,discover)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__discover"
                ;;
            sgctl__subcmd__tcg__subcmd__help,erase)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__erase"
                ;;
            sgctl__subcmd__tcg__subcmd__help,help)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__help"
                ;;
            sgctl__subcmd__tcg__subcmd__help,lock)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__lock"
                ;;
            sgctl__subcmd__tcg__subcmd__help,revert)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__revert"
                ;;
            sgctl__subcmd__tcg__subcmd__help,status)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__status"
                ;;
            sgctl__subcmd__tcg__subcmd__help,take-ownership)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__take__subcmd__ownership"
                ;;
            sgctl__subcmd__tcg__subcmd__help,unlock)
                cmd="sgctl__subcmd__tcg__subcmd__help__subcmd__unlock"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        sgctl)
            opts="-v -h -V --json --verbose --hex --help --version inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign format sanitize wait bench tcg reservations audit certificate ata help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__ata)
            opts="-v -h --json --verbose --hex --help identify smart logs help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__ata__subcmd__help)
            opts="identify smart logs help"
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
        sgctl__subcmd__ata__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__ata__subcmd__help__subcmd__identify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__ata__subcmd__help__subcmd__logs)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__ata__subcmd__help__subcmd__smart)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__ata__subcmd__identify)
            opts="-v -h --cdb --inhex --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cdb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --inhex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__ata__subcmd__logs)
            opts="-v -h --cdb --inhex --log --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cdb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --inhex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__ata__subcmd__smart)
            opts="-v -h --cdb --inhex --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cdb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --inhex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__audit)
            opts="-v -h --json --verbose --hex --help verify help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__audit__subcmd__help)
            opts="verify help"
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
        sgctl__subcmd__audit__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__audit__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__audit__subcmd__verify)
            opts="-v -h --head --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --head)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__bench)
            opts="-v -h --json --verbose --hex --help run pts review compare help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__bench__subcmd__compare)
            opts="-v -h --label --html --report --allow-different --workload --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --html)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --workload)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__bench__subcmd__help)
            opts="run pts review compare help"
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
        sgctl__subcmd__bench__subcmd__help__subcmd__compare)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__bench__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__bench__subcmd__help__subcmd__pts)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__bench__subcmd__help__subcmd__review)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__bench__subcmd__help__subcmd__run)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__bench__subcmd__pts)
            opts="-v -h --test --purge --confirm --tc --qd --active-range --max-rounds --report --resume --engine --time-scale --write-cache --audit-log --progress-json --cpu-latency --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --test)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --purge)
                    COMPREPLY=($(compgen -W "auto crypto block overwrite format none" -- "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --qd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --active-range)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-rounds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --resume)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --engine)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --write-cache)
                    COMPREPLY=($(compgen -W "disabled enabled unchanged" -- "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cpu-latency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__bench__subcmd__review)
            opts="-v -h --part --op-extra --purge --confirm --tc --qd --active-range --max-rounds --report --resume --engine --time-scale --write-cache --audit-log --progress-json --cpu-latency --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --part)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --op-extra)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --purge)
                    COMPREPLY=($(compgen -W "auto crypto block overwrite format none" -- "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --qd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --active-range)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-rounds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --resume)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --engine)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --write-cache)
                    COMPREPLY=($(compgen -W "disabled enabled unchanged" -- "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cpu-latency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__bench__subcmd__run)
            opts="-v -h --rw --mix --bs --bssplit --qd --jobs --runtime --bytes --ramp --range --distribution --align --verify --log-interval --engine --pattern --seed --iopoll --sqpoll --submit-batch --cpu-latency --continue-on-error --progress-json --confirm --audit-log --report --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --rw)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bssplit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --qd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --runtime)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ramp)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --range)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --distribution)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --align)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --engine)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pattern)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --submit-batch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cpu-latency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__certificate)
            opts="-v -h --json --verbose --hex --help verify keygen countersign help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__certificate__subcmd__countersign)
            opts="-v -h --key --name --title --organisation --location --contact --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__certificate__subcmd__help)
            opts="verify keygen countersign help"
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
        sgctl__subcmd__certificate__subcmd__help__subcmd__countersign)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__certificate__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__certificate__subcmd__help__subcmd__keygen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__certificate__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__certificate__subcmd__keygen)
            opts="-v -h --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__certificate__subcmd__verify)
            opts="-v -h --pubkey --countersigner-pubkey --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --pubkey)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --countersigner-pubkey)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__decode)
            opts="-i -v -h --inhex --as --six --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --inhex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --as)
                    COMPREPLY=($(compgen -W "inquiry vpd readcap10 readcap16 sense opcodes opcode mode luns logpage ses-config ses-status ses-element-desc ses-addl-status" -- "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__defects)
            opts="-v -h --grown --primary --both --format --count --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "short long index physical" -- "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__fault)
            opts="-v -h --on --off --dry-run --audit-log --sysroot --timeout-ms --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sysroot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__format)
            opts="-v -h --all-matching --enclosure --list-supported --block-size --pi --pi-interval-exponent --capacity --fast --recover --preset --confirm --dry-run --audit-log --certificate --force --operator --signing-key --max-per-hba --poll-interval --progress-json --ignore-reservation --leds --site --asset-tag --destination --operator-title --operator-organisation --operator-location --operator-contact --validator --validator-title --validator-organisation --validator-location --validator-contact --classification-before --classification-after --data-backup --enclosure-slot --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --all-matching)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --enclosure)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --block-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pi-interval-exponent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --capacity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --preset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --certificate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signing-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-per-hba)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --site)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-tag)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --destination)
                    COMPREPLY=($(compgen -W "reuse resale recycle destroy" -- "${cur}"))
                    return 0
                    ;;
                --operator-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --classification-before)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --classification-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data-backup)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --enclosure-slot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__health)
            opts="-v -h --all --enclosure --max --min --rules --prometheus --timeout --sysroot --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --enclosure)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rules)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sysroot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__help)
            opts="inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign format sanitize wait bench tcg reservations audit certificate ata help"
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
        sgctl__subcmd__help__subcmd__ata)
            opts="identify smart logs"
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
        sgctl__subcmd__help__subcmd__ata__subcmd__identify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__ata__subcmd__logs)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__ata__subcmd__smart)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__audit)
            opts="verify"
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
        sgctl__subcmd__help__subcmd__audit__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__bench)
            opts="run pts review compare"
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
        sgctl__subcmd__help__subcmd__bench__subcmd__compare)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__bench__subcmd__pts)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__bench__subcmd__review)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__bench__subcmd__run)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__certificate)
            opts="verify keygen countersign"
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
        sgctl__subcmd__help__subcmd__certificate__subcmd__countersign)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__certificate__subcmd__keygen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__certificate__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__decode)
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
        sgctl__subcmd__help__subcmd__defects)
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
        sgctl__subcmd__help__subcmd__fault)
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
        sgctl__subcmd__help__subcmd__format)
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
        sgctl__subcmd__help__subcmd__health)
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
        sgctl__subcmd__help__subcmd__help)
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
        sgctl__subcmd__help__subcmd__inquiry)
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
        sgctl__subcmd__help__subcmd__locate)
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
        sgctl__subcmd__help__subcmd__logs)
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
        sgctl__subcmd__help__subcmd__luns)
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
        sgctl__subcmd__help__subcmd__modes)
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
        sgctl__subcmd__help__subcmd__opcodes)
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
        sgctl__subcmd__help__subcmd__paths)
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
        sgctl__subcmd__help__subcmd__power)
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
        sgctl__subcmd__help__subcmd__readcap)
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
        sgctl__subcmd__help__subcmd__reassign)
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
        sgctl__subcmd__help__subcmd__reservations)
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
        sgctl__subcmd__help__subcmd__sanitize)
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
        sgctl__subcmd__help__subcmd__scan)
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
        sgctl__subcmd__help__subcmd__selftest)
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
        sgctl__subcmd__help__subcmd__sense)
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
        sgctl__subcmd__help__subcmd__sim)
            opts="list info fault bench serve"
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
        sgctl__subcmd__help__subcmd__sim__subcmd__bench)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__sim__subcmd__fault)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__sim__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__sim__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__sim__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg)
            opts="discover status bands configure-band lock unlock take-ownership erase revert"
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__bands)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__configure__subcmd__band)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__discover)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__erase)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__lock)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__revert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__take__subcmd__ownership)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tcg__subcmd__unlock)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__help__subcmd__tur)
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
        sgctl__subcmd__help__subcmd__vpd)
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
        sgctl__subcmd__help__subcmd__wait)
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
        sgctl__subcmd__inquiry)
            opts="-v -h --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__locate)
            opts="-v -h --on --off --dry-run --audit-log --sysroot --timeout-ms --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sysroot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__logs)
            opts="-p -v -h --page --pc --param-pointer --reset --confirm --dry-run --audit-log --inhex --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --param-pointer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --inhex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__luns)
            opts="-v -h --select --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --select)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__modes)
            opts="-p -v -h --page --subpage --pc --six --llbaa --dbd --get --set --save --dry-run --audit-log --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subpage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pc)
                    COMPREPLY=($(compgen -W "current changeable default saved" -- "${cur}"))
                    return 0
                    ;;
                --get)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__opcodes)
            opts="-T -v -h --opcode --sa --timeouts --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --opcode)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sa)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__paths)
            opts="-v -h --sysroot --timeout-ms --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --sysroot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__power)
            opts="-v -h --active --idle --standby --timers --start --stop --immed --confirm --dry-run --audit-log --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --idle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --standby)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__readcap)
            opts="-v -h --16 --10 --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__reassign)
            opts="-v -h --confirm --dry-run --audit-log --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__reservations)
            opts="-v -h --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__sanitize)
            opts="-v -h --all-matching --enclosure --support --crypto --block --overwrite --exit-failure-mode --method --pattern --passes --invert --ause --znr --validate --verify --confirm --dry-run --audit-log --certificate --force --operator --signing-key --max-per-hba --poll-interval --progress-json --ignore-reservation --leds --site --asset-tag --destination --operator-title --operator-organisation --operator-location --operator-contact --validator --validator-title --validator-organisation --validator-location --validator-contact --classification-before --classification-after --data-backup --enclosure-slot --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --all-matching)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --enclosure)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --method)
                    COMPREPLY=($(compgen -W "auto ata-crypto-scramble ata-block-erase ata-overwrite ata-security-erase ata-security-erase-enhanced" -- "${cur}"))
                    return 0
                    ;;
                --pattern)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --verify)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --certificate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signing-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-per-hba)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --site)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-tag)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --destination)
                    COMPREPLY=($(compgen -W "reuse resale recycle destroy" -- "${cur}"))
                    return 0
                    ;;
                --operator-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --classification-before)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --classification-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data-backup)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --enclosure-slot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__scan)
            opts="-v -h --sysroot --timeout-ms --no-io --live --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --sysroot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__selftest)
            opts="-v -h --short --extended --abort --foreground --confirm --dry-run --audit-log --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__sense)
            opts="-v -h --desc --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__sim)
            opts="-v -h --json --verbose --hex --help list info fault bench serve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__sim__subcmd__bench)
            opts="-v -h --op-extra --capacity-gib --qd --seed --max-rounds --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --op-extra)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --capacity-gib)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --qd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-rounds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__sim__subcmd__fault)
            opts="-v -h --power-cycle --lu-reset --timeout --busy --disconnect --medium-error --fail-format --fail-sanitize --noop-sanitize --heat --wear --clear --advance --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --busy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --disconnect)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --medium-error)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --heat)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wear)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --advance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__sim__subcmd__help)
            opts="list info fault bench serve help"
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
        sgctl__subcmd__sim__subcmd__help__subcmd__bench)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__sim__subcmd__help__subcmd__fault)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__sim__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__sim__subcmd__help__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__sim__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__sim__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__sim__subcmd__info)
            opts="-v -h --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__sim__subcmd__list)
            opts="-v -h --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__sim__subcmd__serve)
            opts="-v -h --tcmu --ports --name --ready-file --wait --overlap --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --tcmu)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ports)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ready-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg)
            opts="-v -h --json --verbose --hex --help discover status bands configure-band lock unlock take-ownership erase revert help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__bands)
            opts="-v -h --pin-file --pin-env --pin-prompt --msid --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --pin-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__configure__subcmd__band)
            opts="-v -h --band --start --length --lock-enabled --lock-on-reset --pin-file --pin-env --pin-prompt --msid --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --band)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --start)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --length)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__discover)
            opts="-v -h --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__erase)
            opts="-v -h --band --all --validate --pin-file --pin-env --pin-prompt --msid --confirm --dry-run --audit-log --certificate --force --operator --signing-key --max-per-hba --poll-interval --progress-json --ignore-reservation --leds --site --asset-tag --destination --operator-title --operator-organisation --operator-location --operator-contact --validator --validator-title --validator-organisation --validator-location --validator-contact --classification-before --classification-after --data-backup --enclosure-slot --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --band)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --certificate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signing-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-per-hba)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --site)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-tag)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --destination)
                    COMPREPLY=($(compgen -W "reuse resale recycle destroy" -- "${cur}"))
                    return 0
                    ;;
                --operator-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --classification-before)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --classification-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data-backup)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --enclosure-slot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__help)
            opts="discover status bands configure-band lock unlock take-ownership erase revert help"
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__bands)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__configure__subcmd__band)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__discover)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__erase)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__lock)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__revert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__take__subcmd__ownership)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__help__subcmd__unlock)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
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
        sgctl__subcmd__tcg__subcmd__lock)
            opts="-v -h --band --pin-file --pin-env --pin-prompt --msid --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --band)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__revert)
            opts="-v -h --psid-file --psid-env --psid-prompt --validate --confirm --dry-run --audit-log --certificate --force --operator --signing-key --max-per-hba --poll-interval --progress-json --ignore-reservation --leds --site --asset-tag --destination --operator-title --operator-organisation --operator-location --operator-contact --validator --validator-title --validator-organisation --validator-location --validator-contact --classification-before --classification-after --data-backup --enclosure-slot --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --psid-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --psid-env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --confirm)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --certificate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signing-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-per-hba)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --site)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-tag)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --destination)
                    COMPREPLY=($(compgen -W "reuse resale recycle destroy" -- "${cur}"))
                    return 0
                    ;;
                --operator-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operator-contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-organisation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-location)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validator-contact)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --classification-before)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --classification-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data-backup)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --enclosure-slot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__status)
            opts="-v -h --check-ownership --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__take__subcmd__ownership)
            opts="-v -h --new-pin-file --new-pin-env --new-pin-prompt --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --new-pin-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --new-pin-env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tcg__subcmd__unlock)
            opts="-v -h --band --pin-file --pin-env --pin-prompt --msid --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --band)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin-env)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__tur)
            opts="-v -h --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__vpd)
            opts="-p -v -h --page --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        sgctl__subcmd__wait)
            opts="-v -h --poll-interval --progress-json --audit-log --resume --json --verbose --hex --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --poll-interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -W "sgctl smartctl" -- "${cur}"))
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
    complete -F _sgctl -o nosort -o bashdefault -o default sgctl
else
    complete -F _sgctl -o bashdefault -o default sgctl
fi
