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

* `code` in the help's text (Markdown backticks) is set in bold, as man pages show literal text;
* a command without subcommands loses the `subcommand` generate-manual puts in every root's SYNOPSIS;
* EXIT STATUS says what the command's help says of its exit statuses ("Exit status: ..."), not mdoc's
  generic `.Ex -std`;
* the pages people open first (uti(1), uti-identify(1), uti-classify(1), uti-server(8)) get EXAMPLES,
  ENVIRONMENT and FILES, from the table below (`SECTIONS`), as `man 1 file` has them.

The rest of the text is the commands' help, untouched: the pages never drift from what `--help` says.
"""
import os
import re
import sys


ENVIRONMENT = [
    ("UTI_TYPES_PATH", "Directories of extra type declarations (property lists), colon-separated, read before any --types file."),
    ("UTI_MAGIKA", "on: ask Magika's model about text nothing else names, when it is installed (as --model); off: never."),
    ("UTI_MAGIKA_MODEL", "A directory holding Magika's model.onnx and config.min.json (else Python's magika package's)."),
    ("UTI_ONNXRUNTIME_LIBRARY", "The path of libonnxruntime.so (else Python's onnxruntime package's, else the system's)."),
]
REGISTRY_ENVIRONMENT = [
    ("UTI_ROOT", "The registry's root, where apps' containers live (else $XDG_DATA_HOME/uti, else ~/.local/share/uti)."),
    ("XDG_DATA_HOME", "Where the registry's root is when UTI_ROOT is not set."),
    ("UTI_RCLONE", "The rclone that uti ubiquity sync runs (else rclone on PATH)."),
]
FILES = [
    ("/usr/share/mime", "shared-mime-info's database, read beside the one built in (the newer decides)."),
    ("/usr/share/misc/magic.mgc", "libmagic's database (MAGIC names another)."),
]
REGISTRY_FILES = [("~/.local/share/uti", "The registry: registry.json, Containers/, Shared/AppGroup/, Mobile Documents/.")]
SECTIONS = {
    "uti.1": {
        "EXAMPLES": [
            ("uti identify -b --mime-type photo.jpg", "The MIME type, as file -b --mime-type prints it."),
            ("uti identify --json upload.bin", "The type, with the evidence and whether the name lies (mismatch)."),
            ("uti classify --summary /srv/incoming", "Every file of a tree, counted by type."),
            ("uti conforms -q upload.bin public.image && echo image", "Whether a file is an image, by the exit status."),
            ("uti types docx", "The types that claim an extension, a MIME type or a word, best first."),
        ],
        "ENVIRONMENT": ENVIRONMENT + REGISTRY_ENVIRONMENT,
        "FILES": FILES + REGISTRY_FILES,
    },
    "uti-identify.1": {
        "EXAMPLES": [
            ("uti identify *", "One line per file, a file that cannot be read too."),
            ("uti identify -i notes.txt", "text/plain; charset=us-ascii, as file -i prints it."),
            ("find . -type f | uti identify -f - --mime-type", "The names from standard input."),
            ("uti identify --name report.pdf - < upload", "Bytes from standard input, named."),
        ],
        "ENVIRONMENT": ENVIRONMENT,
        "FILES": FILES,
    },
    "uti-classify.1": {
        "EXAMPLES": [
            ("uti classify --format ndjson /usr/share > types.ndjson", "One JSON record per entry."),
            ("uti classify --mismatches-only ~/Downloads", "The files whose names lie."),
            ("uti classify --conforming-to public.image --format csv photos", "The images, as CSV."),
        ],
        "ENVIRONMENT": ENVIRONMENT,
        "FILES": FILES,
    },
    "uti-server.8": {
        "EXAMPLES": [
            ("uti-server --port 9998", "Where Apache Tika's clients look for their server by default."),
            ("curl -T photo.png 'http://127.0.0.1:9998/identify?name=photo.png'", "uti identify --json's object."),
            ("curl -T report http://127.0.0.1:9998/detect/stream", "Tika's detector: the MIME type alone."),
        ],
        "ENVIRONMENT": ENVIRONMENT + [("UTI_ROOT", "The registry's root for --routing (else $XDG_DATA_HOME/uti, else ~/.local/share/uti).")],
        "FILES": FILES + [("/lib/systemd/system/uti-server.service", "The unit the package installs (enabled by nobody); it listens on 127.0.0.1:9998 with /var/lib/uti as the registry.")],
    },
}


def escaped(text):
    """Text as an mdoc text line holds it (a backslash doubled as \\e)."""
    return text.replace("\\", "\\e")


def sections(name):
    """The EXAMPLES, ENVIRONMENT and FILES of the page `name`, as mdoc lines."""
    lines = []
    for title, entries in SECTIONS.get(name, {}).items():
        lines.append(f'.Sh {title}' if " " not in title else f'.Sh "{title}"')
        lines.append(".Bl -tag -width Ds")
        for term, text in entries:
            # Quoted, so that mdoc takes `.` and `|` in a command as text, not as punctuation.
            term = '"' + escaped(term).replace('"', "\\(dq") + '"'
            lines += [".It " + ("Ic " if title == "EXAMPLES" else "Ev " if title == "ENVIRONMENT" else "Pa ") + term, escaped(text)]
        lines.append(".El")
    return lines


def bold_code(line):
    """`code` in a text line set in bold (a request line, starting with a dot, is left as it is)."""
    if line.startswith("."):
        return line
    return re.sub(r"`([^`]+)`", lambda m: "\\fB" + m.group(1) + "\\fR", line)


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
            line = ".Nd " + text.replace("`", "")   # whatis shows it as plain text
        elif line == "" and out and out[-1] not in ("", ".Pp") and not out[-1].startswith(".Sh"):
            line = ".Pp"
        elif line == "":
            continue
        line = re.sub(r"^\.Xr (uti(?:\.[A-Za-z0-9-]+)+) ", lambda m: ".Xr " + m.group(1).replace(".", "-") + " ", line)
        out.append(line)
    while out and out[-1] in ("", ".Pp"):
        out.pop()
    page = f"{dashed}.{section}"
    # No subcommands (no page of a command below this one is named): no `subcommand` in the SYNOPSIS.
    if not any(line.startswith(f".Xr {dashed}-") for line in out):
        out = [line for line in out if line != ".Ar subcommand"]
    # EXIT STATUS from the help's own words.
    text = " ".join(line for line in out if not line.startswith("."))
    said = re.search(r"Exit status: (?:[^.(]|\([^)]*\))*\.", text)
    if said and ".Ex -std" in out:
        out[out.index(".Ex -std")] = said.group(0)[len("Exit status: "):]
    out = [bold_code(line) for line in out]
    extra = sections(page)
    if extra:
        see_also = next((index for index, line in enumerate(out) if line in ('.Sh "SEE ALSO"', ".Sh SEE ALSO")), len(out))
        out[see_also:see_also] = extra
    os.remove(path)
    with open(os.path.join(directory, page), "w", encoding="utf-8") as f:
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
