//! Device-name completion added to the generated shell completions: a DEVICE argument
//! completes to the addresses `sgctl scan --names` prints (sysfs only, nothing sent to a
//! device). clap_complete's static scripts cannot call the program, so each script gets a
//! small addition built from the same clap tree: the commands that take a DEVICE and, for
//! bash, the options that take a value (a word after one of those is the option's value).

use std::collections::BTreeSet;

/// The commands with a positional `device`/`devices`: (path below `sgctl`, takes several).
fn device_commands(
    cmd: &clap::Command,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, bool)>,
) {
    for a in cmd.get_positionals() {
        let id = a.get_id().as_str();
        if id == "device" || id == "devices" {
            out.push((path.clone(), id == "devices"));
        }
    }
    for s in cmd.get_subcommands() {
        path.push(s.get_name().to_string());
        device_commands(s, path, out);
        path.pop();
    }
}

/// Every option spelling that takes a value, anywhere in the tree.
fn value_options(cmd: &clap::Command, out: &mut BTreeSet<String>) {
    for a in cmd.get_arguments() {
        // `--json[=FORMAT]` takes its value only after `=`: the next word is not its value.
        let optional_value =
            a.is_require_equals_set() || a.get_num_args().is_some_and(|n| n.min_values() == 0);
        if a.is_positional()
            || optional_value
            || !matches!(
                a.get_action(),
                clap::ArgAction::Set | clap::ArgAction::Append
            )
        {
            continue;
        }
        if let Some(l) = a.get_long() {
            out.insert(format!("--{l}"));
        }
        if let Some(s) = a.get_short() {
            out.insert(format!("-{s}"));
        }
    }
    for s in cmd.get_subcommands() {
        value_options(s, out);
    }
}

fn commands(root: &clap::Command) -> Vec<(Vec<String>, bool)> {
    let mut v = Vec::new();
    device_commands(root, &mut Vec::new(), &mut v);
    v
}

/// The bash addition: a wrapper around clap's `_sgctl` registered in its place.
pub(crate) fn bash(root: &clap::Command) -> String {
    let mut opts = BTreeSet::new();
    value_options(root, &mut opts);
    let cmds: Vec<String> = commands(root)
        .iter()
        .map(|(p, many)| format!("{}:{}", p.join("/"), if *many { "n" } else { "1" }))
        .collect();
    format!(
        r#"
# DEVICE completes to the addresses `sgctl scan --names` lists (added by xtask gen-docs).
_sgctl_device_cmds=" {cmds} "
_sgctl_value_opts=" {opts} "
_sgctl_with_devices() {{
    _sgctl "$@"
    local cur="${{COMP_WORDS[COMP_CWORD]}}" w path="" rest=0 i=1 skip=0 spec
    [[ "$cur" == -* ]] && return 0
    while [[ $i -lt $COMP_CWORD ]]; do
        w="${{COMP_WORDS[i]}}"
        if [[ $skip -eq 1 ]]; then
            skip=0
        elif [[ "$w" == -* ]]; then
            [[ "$w" != *=* && "$_sgctl_value_opts" == *" $w "* ]] && skip=1
        elif [[ "$_sgctl_device_cmds" == *" ${{path:+$path/}}$w:"* ||
                "$_sgctl_device_cmds" == *" ${{path:+$path/}}$w/"* ]]; then
            path="${{path:+$path/}}$w"
        elif [[ -n "$path" ]]; then
            rest=$((rest + 1))
        fi
        i=$((i + 1))
    done
    [[ $skip -eq 1 || -z "$path" ]] && return 0
    spec="$_sgctl_device_cmds"
    spec="${{spec#* $path:}}"
    spec="${{spec%% *}}"
    [[ "$spec" == "1" && $rest -gt 0 ]] && return 0
    COMPREPLY+=( $(compgen -W "$(sgctl scan --names 2>/dev/null)" -- "$cur") )
}}
if [[ "${{BASH_VERSINFO[0]}}" -eq 4 && "${{BASH_VERSINFO[1]}}" -ge 4 || "${{BASH_VERSINFO[0]}}" -gt 4 ]]; then
    complete -F _sgctl_with_devices -o nosort -o bashdefault -o default sgctl
else
    complete -F _sgctl_with_devices -o bashdefault -o default sgctl
fi
"#,
        cmds = cmds.join(" "),
        opts = opts.into_iter().collect::<Vec<_>>().join(" "),
    )
}

/// The fish addition: one line per command that takes a DEVICE.
pub(crate) fn fish(root: &clap::Command) -> String {
    let mut s = String::from(
        "\n# DEVICE completes to the addresses `sgctl scan --names` lists (added by xtask gen-docs).\n",
    );
    for (p, _) in commands(root) {
        let Some((last, parents)) = p.split_last() else {
            continue;
        };
        let cond = match parents.first() {
            None => format!("__fish_sgctl_using_subcommand {last}"),
            Some(top) => format!(
                "__fish_sgctl_using_subcommand {top}; and __fish_seen_subcommand_from {last}"
            ),
        };
        s.push_str(&format!(
            "complete -c sgctl -n \"{cond}\" -f -a \"(sgctl scan --names 2>/dev/null)\"\n"
        ));
    }
    s
}

/// The zsh change: DEVICE positionals (empty action in clap's `_arguments` specs) call
/// `_sgctl_devices`, defined after `autoload`.
pub(crate) fn zsh(script: &str) -> String {
    let func = "\n# DEVICE completes to the addresses `sgctl scan --names` lists (added by xtask \
                gen-docs).\n_sgctl_devices() {\n    local -a devs\n    devs=(${(f)\"$(sgctl scan \
                --names 2>/dev/null)\"})\n    compadd -a devs\n}\n";
    let mut out = String::new();
    let mut added = false;
    for line in script.split_inclusive('\n') {
        let t = line.trim_start();
        let dev = (t.starts_with("':device -- ") || t.starts_with("'*::devices -- "))
            && line.trim_end().ends_with(":' \\");
        if dev {
            let cut = line.trim_end().len() - "' \\".len();
            out.push_str(&line[..cut]);
            out.push_str("_sgctl_devices' \\\n");
        } else {
            out.push_str(line);
        }
        if !added && line.starts_with("autoload -U is-at-least") {
            out.push_str(func);
            added = true;
        }
    }
    out
}
