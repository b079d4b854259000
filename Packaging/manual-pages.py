#!/usr/bin/env python3
"""Turn swift-argument-parser's generated man pages into pages as Debian's tools read them.

    python3 Packaging/manual-pages.py DIR...

generate-manual writes one mdoc page per command, named by the command's path (`uti.apps.check.1`), whose
NAME is the command as typed (`.Nm "uti apps check"`). whatis, apropos and lexgrog cannot read a name with a
space, and a name with dots is no page name anyone types. Each page becomes what git's are:

* the file and its NAME are the command's path joined with dashes (`uti-apps-check.1`, `man uti-apps-check`);
  its SYNOPSIS still shows the command as it is typed (`uti apps check ...`);
* `.Dt` and the `.Xr` cross-references follow the new names;
* `.Nd` loses the quotes it was given (they are printed otherwise);
* an empty line in running text (a paragraph break in the command's help) becomes `.Pp`, as mdoc wants.

The text itself is the commands' help, untouched: the pages never drift from what `--help` says.
"""
import os
import re
import sys


def fix(path):
    directory, filename = os.path.split(path)
    stem, section = filename.rsplit(".", 1)
    words = stem.split(".")
    dashed = "-".join(words)
    out = []
    part = None
    synopsis_named = False
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for line in lines:
        if line.startswith(".Sh "):
            part = line[4:].strip()
        if line.startswith(".Dt "):
            line = f".Dt {dashed.upper()} {section}"
        elif line.startswith(".Nm") and part == "NAME":
            line = f".Nm {dashed}"
        elif line == ".Nm" and part == "SYNOPSIS" and not synopsis_named:
            line = ".Nm " + " ".join(words)
            synopsis_named = True
        elif line.startswith(".Nd "):
            text = line[4:].strip()
            if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
                text = text[1:-1]
            line = ".Nd " + text
        elif line == "" and out and out[-1] not in ("", ".Pp") and not out[-1].startswith(".Sh"):
            line = ".Pp"
        elif line == "":
            continue
        line = re.sub(r"^\.Xr (uti(?:\.[A-Za-z0-9-]+)+) ", lambda m: ".Xr " + m.group(1).replace(".", "-") + " ", line)
        out.append(line)
    while out and out[-1] in ("", ".Pp"):
        out.pop()
    os.remove(path)
    with open(os.path.join(directory, f"{dashed}.{section}"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().split("\n")[2].strip(), file=sys.stderr)
        return 64
    for directory in sys.argv[1:]:
        for name in sorted(os.listdir(directory)):
            if re.fullmatch(r".+\.[1-9]", name):
                fix(os.path.join(directory, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
