"""`gridproof completion bash|zsh`: a shell completion script written from the command's own
parser, so it always knows every command, option and fixed choice, and the genre names a
`--genre` takes (other free values, such as rungs and sizes, complete as files).

The script is static: completing costs the shell no Python start. zsh runs the same
function through its `bashcompinit`. Install it with, for example,
`gridproof completion bash > ~/.local/share/bash-completion/completions/gridproof`, or for
zsh `gridproof completion zsh > "${fpath[1]}/_gridproof"`.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass, field

from gridproof.cli.common import _command, _emit, _Parser
from gridproof.core import registry

SHELLS = ("bash", "zsh")


@dataclass
class Place:
    """What may follow at one command path (`bank fill`, say): its subcommands, its
    options, and the fixed choices of its options and positionals."""

    subcommands: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    choices: dict[str, list[str]] = field(default_factory=dict)
    """An option's fixed values, by option string."""
    words: list[str] = field(default_factory=list)
    """The fixed values of its positionals."""


def places(parser: argparse.ArgumentParser, path: str = "") -> Iterator[tuple[str, Place]]:
    """Every command path of `parser` (words joined by spaces, '' for the top) and what may
    follow it."""
    here = Place()
    below: list[tuple[str, argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                here.subcommands.append(name)
                below.append((name, sub))
        elif action.option_strings:
            here.options += action.option_strings
            values = _values(action)
            if values:
                for option in action.option_strings:
                    here.choices[option] = values
        elif action.choices is not None:
            here.words += [str(each) for each in action.choices]
    yield path, here
    for name, sub in below:
        yield from places(sub, f"{path} {name}".strip())


def _values(action: argparse.Action) -> list[str]:
    """An option's fixed values: its choices, or the genre names for a `--genre` the
    command checks itself (to say what is wrong in its own words)."""
    if action.choices is not None:
        return [str(each) for each in action.choices]
    if action.dest == "genre":
        return list(registry.names())
    return []


def bash_script(parser: argparse.ArgumentParser) -> str:
    """The bash completion function of `parser`'s program, and its `complete` line."""
    found = dict(places(parser))
    follows = []
    values = []
    for path, place in found.items():
        words = " ".join(place.subcommands + place.words)
        follows.append(f"        '{path}') opts='{' '.join(place.options)}'; words='{words}' ;;")
        for option, choices in place.choices.items():
            values.append(f"        '{path}|{option}') words='{' '.join(choices)}' ;;")
    program = parser.prog
    function = "_" + program.replace("-", "_")
    return "\n".join(
        [
            f"# {SHELL_NOTE} (bash)",
            f"{function}() {{",
            '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
            '    local path="" i word opts="" words=""',
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            '        word="${COMP_WORDS[i]}"',
            '        case "${path:+$path }$word" in',
            f"            {_alternatives(found)})",
            '                path="${path:+$path }$word" ;;',
            "        esac",
            "    done",
            '    case "$path|$prev" in',
            *values,
            "        *) words='__none__' ;;",
            "    esac",
            '    if [[ "$words" != __none__ ]]; then',
            '        COMPREPLY=($(compgen -W "$words" -- "$cur"))',
            "        return",
            "    fi",
            '    case "$path" in',
            *follows,
            "    esac",
            '    if [[ "$cur" == -* ]]; then',
            '        COMPREPLY=($(compgen -W "$opts" -- "$cur"))',
            "    else",
            '        COMPREPLY=($(compgen -W "$words" -- "$cur"))',
            "    fi",
            "}",
            f"complete -o default -F {function} {program}",
            "",
        ]
    )


def _alternatives(found: dict[str, Place]) -> str:
    """The known command paths as one bash `case` pattern."""
    return "|".join(f"'{path}'" for path in found if path)


def zsh_script(parser: argparse.ArgumentParser) -> str:
    """The same completion for zsh, through its bash-completion layer."""
    return "\n".join(
        [
            f"#compdef {parser.prog}",
            f"# {SHELL_NOTE} (zsh)",
            "autoload -U +X bashcompinit && bashcompinit",
            bash_script(parser).split("\n", 1)[1],
        ]
    )


SHELL_NOTE = "completion for gridproof, written by `gridproof completion`"


def add_completion(commands: argparse._SubParsersAction[_Parser]) -> None:
    made = _command(
        commands,
        "completion",
        _completion,
        "print a shell completion script for gridproof (bash or zsh)",
        epilog="bash: gridproof completion bash > "
        "~/.local/share/bash-completion/completions/gridproof\n"
        'zsh:  gridproof completion zsh > "${fpath[1]}/_gridproof" (then start a new shell)',
    )
    made.add_argument("shell", choices=SHELLS)


def _completion(args: argparse.Namespace) -> int:
    from gridproof.cli import _parser  # the whole command line, every command built

    parser = _parser()
    _emit(bash_script(parser) if args.shell == "bash" else zsh_script(parser))
    return 0


ADDERS = {"completion": add_completion}
"""Each command this module runs, and the function that adds its parser."""
