#!/usr/bin/env python3
"""Writes lovesnap's manual page (lovesnap.1) and bash completion (lovesnap.bash) from the
program itself: `lovesnap --help` (usage, options, photos, exit codes, environment),
`lovesnap --help-keys` (every editor key, from the keymap the editor's ^G screen is made of)
and `lovesnap --version`, so that neither can drift from the program.

usage: python3 scripts/make-manpage.py LOVESNAP OUTDIR

scripts/install.sh runs it; the tests check the page with `man --warnings` and that every
option of --help is in both files.
"""
import os
import re
import subprocess
import sys


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def roff(text):
    """Text as roff: backslashes and leading dots or quotes escaped, dashes as minus signs."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line for line in text.split("\n"))


def sections(help_text):
    """The --help text split at its unindented headings ("OCR options:", …): {heading: [lines]}."""
    out, current = {"": []}, ""
    for line in help_text.split("\n"):
        match = re.match(r"^([A-Z][^:]*):(.*)$", line)
        if match and not line.startswith(" "):
            current = match.group(1)
            out[current] = [match.group(2).strip()] if match.group(2).strip() else []
        else:
            out.setdefault(current, []).append(line)
    return out


def options(lines):
    """(flags, description) for each option of an options block: a line starting with '-' after
    at most 6 spaces begins an option (its flags, then their arguments in capitals, then the
    description), deeper ones continue its description."""
    found = []
    for line in lines:
        if re.match(r"^ {2,6}-", line):
            tokens = line.strip().split(" ")
            flags = []
            while tokens and (tokens[0].startswith("-") or (flags and tokens[0] and not re.search(r"[a-z(]", tokens[0]))):
                flags.append(tokens.pop(0))
            found.append([" ".join(flags), " ".join(t for t in tokens if t)])
        elif found and line.strip():
            found[-1][1] = (found[-1][1] + " " + line.strip()).strip()
    return found


def flag_names(flags):
    return re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", flags)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, outdir = sys.argv[1], sys.argv[2]
    help_text = run(binary, "--help")
    keys = run(binary, "--help-keys").rstrip("\n")
    version = run(binary, "--version").split("\n")[0].split()[-1]
    parts = sections(help_text)
    title = help_text.split("\n")[0]
    usage = [line.strip() for line in parts.get("Usage", []) if line.strip()]
    option_blocks = [(name.split(" (")[0], options(lines)) for name, lines in parts.items() if "options" in name]
    every_flag = sorted({f for _, block in option_blocks for flags, _ in block for f in flag_names(flags)}
                        | {f for line in usage for f in flag_names(line)})

    page = [
        '.TH LOVESNAP 1 "" "lovesnap %s" "User Commands"' % version,
        ".SH NAME",
        "lovesnap \\- " + roff(title.split("—", 1)[1].strip()),
        ".SH SYNOPSIS",
    ]
    for line in usage:
        match = re.match(r"^(.*?)(?: {2,}(.*))?$", line)
        command, what = match.group(1), match.group(2) or ""
        page += [".PP", ".B " + roff(command.strip())]
        if what.strip():
            page += [".br", roff(what.strip())]
    page += [
        ".SH DESCRIPTION",
        "lovesnap reads a photo of printed text with Tesseract (English and French by default), "
        "cleans and straightens it first, and opens the text in an editor that works as GNU nano "
        "does, with the words Tesseract doubted marked; it saves the text, exports hOCR, TSV, ALTO "
        "or a searchable PDF, or mails it. \\fBlovesnap ocr\\fR does the same without the editor, for scripts.",
    ]
    for name, block in option_blocks:
        page.append(".SH " + roff(name.upper()))
        for flags, description in block:
            page += [".TP", ".B " + roff(flags), roff(description)]
    photos = " ".join(line.strip() for line in parts.get("Photos", []) if line.strip())
    if photos:
        page += [".SH PHOTOS", roff(photos)]
    page += [".SH EDITOR KEYS", ".nf", roff(keys), ".fi"]
    exits = " ".join(line.strip() for line in parts.get("Exit codes", []) if line.strip())
    page += [".SH EXIT STATUS", roff(exits)]
    environment = " ".join(line.strip() for line in parts.get("Environment", []) if line.strip())
    page += [".SH ENVIRONMENT", roff(environment)]
    page += [
        ".SH FILES",
        ".TP",
        ".I ~/.local/state/lovesnap/",
        "recovery files of unsaved texts (\\fB$XDG_STATE_HOME/lovesnap/\\fR when set).",
        ".TP",
        ".I PREFIX/share/lovesnap/text\\-detection.onnx",
        "the trained text detector (PaddleOCR's PP\\-OCRv4 detector, Apache License 2.0).",
        ".SH SEE ALSO",
        ".BR tesseract (1),",
        ".BR nano (1)",
    ]
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "lovesnap.1"), "w") as f:
        f.write("\n".join(page) + "\n")

    completion = """# bash completion for lovesnap, made by scripts/make-manpage.py from lovesnap --help
_lovesnap() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --level) COMPREPLY=($(compgen -W "fast accurate" -- "$cur")); return ;;
        --binarization) COMPREPLY=($(compgen -W "tesseract otsu sauvola" -- "$cur")); return ;;
        --reading) COMPREPLY=($(compgen -W "auto page lines" -- "$cur")); return ;;
        -f|--format) COMPREPLY=($(compgen -W "txt hocr tsv alto pdf" -- "$cur")); return ;;
        --tessdata) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -l|--languages|--psm|--dpi|--threads|--timeout|--max-dimension|--text-height|--uncertain-below|\\
        --mail|--subject|--from|--mail-command|--mail-timeout|--region|--replace|--replace-regex|-c)
            return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "%s" -- "$cur"))
    elif [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "ocr edit" -- "$cur") $(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _lovesnap lovesnap
""" % " ".join(every_flag)
    with open(os.path.join(outdir, "lovesnap.bash"), "w") as f:
        f.write(completion)
    print(f"{outdir}/lovesnap.1, {outdir}/lovesnap.bash: {len(every_flag)} options")


if __name__ == "__main__":
    main()
