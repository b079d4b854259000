"""The one command's work (make-typedb.py): run the steps in order into a tree shaped like the repository
(`generate`), ending with `swift run compile-typedb`, which writes every C source from what the steps wrote, then install that tree or compare it
with the repository (`run`)."""

import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

from . import tika_import
from .apple import load_apple, load_macos_system_types, load_newer_apple_constants
from .curation import CONTENT_ANY_BINARY, add_curated_declarations, add_curated_tags
from .freedesktop import (add_freedesktop_tags, add_other_globs, add_system_globs, load_freedesktop,
                          map_freedesktop)
from .hierarchy import (add_curated_kinds, assign_families, check_tag_preference, derive_freedesktop_conformance,
                        record_apple_kinds, record_content, validate)
from .libmagic import add_libmagic, load_libmagic
from .linguist import load_linguist, read_yaml
from .model import TypeDB
from .output import (MIME_DATA_FILES, MIME_DATA_VERSION, summary, write_files, write_language_tables,
                     write_media_type_vocabularies, write_mime_data)
from .paths import C_SOURCES, GENERATED_DIRECTORIES, LANGUAGES_TABLE, MEDIA_TYPES_TABLE, PRONOM_TABLE, REPOSITORY, SOURCES
from .pronom import add_pronom_types, pronom_table, write_pronom_table
from .tika import add_tika_names_for_apple_types, load_tika
from .vocabularies import IANA, LIBMAGIC_ONLY_EXTENSION, SHARED_EXTENSION, extension_kinds, media_type_vocabularies


def generate(root, verbose):
    """Writes every generated file under `root` (TypeDB/..., Sources/...); returns their relative paths."""
    typedb = os.path.join(root, "TypeDB")
    os.makedirs(typedb, exist_ok=True)
    tika_package, tika_counts = tika_import.convert(SOURCES)
    tika_path = os.path.join(typedb, "apache-tika.xml")
    with open(tika_path, "w", encoding="utf-8") as f:
        f.write(tika_package)

    db = TypeDB()
    apple_rows = load_apple(db, SOURCES)
    load_macos_system_types(db, SOURCES)
    load_newer_apple_constants(db, SOURCES)
    records, only_system, system = load_freedesktop(SOURCES)
    # freedesktop's own names and aliases, before Tika's other names for its types join the records.
    freedesktop_names = {name: list(record["aliases"]) for name, record in records.items()}
    tika_types, tika_names_for_apple = load_tika(db, records, tika_path)
    by_mime = map_freedesktop(db, records)
    add_freedesktop_tags(db, records, by_mime)
    add_other_globs(db, records, by_mime)
    add_system_globs(db, system, by_mime)
    derive_freedesktop_conformance(db, by_mime)
    record_apple_kinds(db, by_mime)
    all_mimes, rules, builtin = load_libmagic(SOURCES)
    created = add_libmagic(db, all_mimes, rules, builtin)
    add_tika_names_for_apple_types(db, tika_names_for_apple)
    add_curated_declarations(db, os.path.join(SOURCES, "curated", "declarations.plist"))
    add_curated_tags(db)
    add_curated_kinds(db)
    languages, further_candidates = load_linguist(db)
    pronom_notes = {}
    pronom = pronom_table(SOURCES, pronom_notes)
    pronom_types = add_pronom_types(db, pronom)
    record_content(db)
    assign_families(db)
    checked = check_tag_preference(db)
    validate(db, apple_rows, all_mimes)
    written = write_files(db, typedb)
    summary(db, written, created, only_system, checked)
    print(f"  Apache Tika: {tika_counts['new names']} names no Linux vocabulary has ({tika_counts['with magic']} with magic), "
          f"{tika_counts['bare names left out']} bare names left out; {len(tika_types)} types of its own; "
          f"{len(db.notes['Tika' + chr(39) + 's other names for freedesktop types'])} other names for freedesktop types, "
          f"{len(db.notes['Tika' + chr(39) + 's names for Apple types'])} for Apple types")
    sizes = write_mime_data(tika_package, set(tika_types), typedb)
    print("  mime/ (shared-mime-info " + MIME_DATA_VERSION + ", compiled): "
          + ", ".join(f"{name} {size:,} bytes" for name, size in sizes.items()))
    if verbose:
        for note, lines in sorted(db.notes.items()):
            print(f"\n{note}:")
            for line in lines:
                print(f"  {line}")
    vocabularies, canonicals = media_type_vocabularies(db, freedesktop_names, records, all_mimes)
    extensions = extension_kinds(db, records, rules, read_yaml(os.path.join(SOURCES, "linguist-languages.yml")), CONTENT_ANY_BINARY)
    count = write_media_type_vocabularies(vocabularies, canonicals, typedb, extensions)
    print(f"  media type names: {count} ({sum(1 for bits in vocabularies.values() if bits & IANA)} registered with IANA); "
          f"extensions {sum(1 for bits in extensions.values() if bits & SHARED_EXTENSION)} shared by formats of different families, "
          f"{sum(1 for bits in extensions.values() if bits & LIBMAGIC_ONLY_EXTENSION)} carried only from libmagic's lists")
    further, rules = write_language_tables(languages, further_candidates, typedb)
    print(f"  languages (GitHub Linguist): {len(languages)}; {further} extensions with further candidates, {rules} heuristic rules")
    write_pronom_table(pronom, os.path.join(typedb, PRONOM_TABLE))
    print(f"  PRONOM (signature file V{pronom['signatureFile']['version']}, container file {pronom['containerFile']['version']}): "
          f"{len(pronom['formats'])} formats ({len(pronom_types)} with a type of their own, "
          f"{len(pronom['formats']) - len(pronom_types)} tagged on the type their MIME type or extension names), "
          f"{len(pronom['signatures'])} internal signatures, {len(pronom['containerSignatures'])} container signatures; "
          + "; ".join(f"{note}: {len(lines)}" for note, lines in sorted(pronom_notes.items())))
    if verbose:
        for note, lines in sorted(pronom_notes.items()):
            print(f"\n{note}:")
            for line in lines:
                print(f"  {line}")
    # The C sources the library builds from, all written by compile-typedb from what is in TypeDB/ now: it is
    # the Swift writer of the compiled format the library reads, and the one writer of generated code.
    for path in C_SOURCES:
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    subprocess.run(["swift", "run", "--package-path", REPOSITORY, "compile-typedb",
                    "--typedb", typedb, "--sources", os.path.join(root, "Sources")], check=True)
    generated = [os.path.join("TypeDB", f"{family}.plist") for family in written]
    generated += ["TypeDB/apache-tika.xml"] + [f"TypeDB/mime/{name}" for name in MIME_DATA_FILES + ("version",)]
    generated += [f"TypeDB/{MEDIA_TYPES_TABLE}", f"TypeDB/{LANGUAGES_TABLE}", f"TypeDB/{PRONOM_TABLE}"]
    return generated + list(C_SOURCES)


def stale_files(generated):
    """Files in the generated directories of the repository that the generator no longer writes."""
    stale = []
    for directory, suffix in GENERATED_DIRECTORIES.items():
        for name in sorted(os.listdir(os.path.join(REPOSITORY, directory))):
            relative = f"{directory}/{name}"
            if os.path.isfile(os.path.join(REPOSITORY, relative)) and name.endswith(suffix) and relative not in generated:
                stale.append(relative)
    return stale


def run(check=False, verbose=False):
    """Generates every file into a scratch directory, then compares it with the repository (`check`: writes
    nothing, exit status 1 when a file differs or is stale) or installs what changed and removes what no source
    generates any more; returns the exit status."""
    with tempfile.TemporaryDirectory(prefix="typedb-") as scratch:
        generated = generate(scratch, verbose)
        stale = stale_files(generated)
        if check:
            differing = [path for path in generated
                         if not os.path.exists(os.path.join(REPOSITORY, path))
                         or not filecmp.cmp(os.path.join(scratch, path), os.path.join(REPOSITORY, path), shallow=False)]
            for path in differing:
                print(f"make-typedb: {path} differs from what the sources generate", file=sys.stderr)
            for path in stale:
                print(f"make-typedb: {path} is not generated by any source", file=sys.stderr)
            if differing or stale:
                print("make-typedb: run `python3 TypeDB/tools/make-typedb.py` and commit the result", file=sys.stderr)
                return 1
            print(f"make-typedb: all {len(generated)} generated files are current")
            return 0
        changed = 0
        for path in generated:
            target = os.path.join(REPOSITORY, path)
            # Unchanged files keep their times, so that a build does not redo what they feed.
            if os.path.exists(target) and filecmp.cmp(os.path.join(scratch, path), target, shallow=False):
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(scratch, path), target)
            print(f"  changed {path}")
            changed += 1
        for path in stale:
            os.remove(os.path.join(REPOSITORY, path))
            print(f"  removed {path} (no source generates it any more)")
        print(f"make-typedb: {len(generated)} generated files, {changed} changed")
        return 0
