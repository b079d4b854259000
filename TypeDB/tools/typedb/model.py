"""The model every step builds on: `TypeDecl`, one declaration as it will be written plus where it came from,
and `TypeDB`, the declarations by identifier with who owns each MIME type, Apple's claimants of each tag and the
notes `--verbose` prints; and the tag classes of uti's own that the plists carry beside Apple's two."""

import collections
import re

IDENTIFIER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]*$")

# Tag classes of our own for the freedesktop globs an extension cannot express. Identification matches
# them before the extension (freedesktop's order: literal names, then the longest glob).
FILENAME_TAG = "uti.filename"          # a whole file name, compared case-insensitively: Makefile
SUFFIX_TAG = "uti.filename-suffix"     # what follows a dot that is not the last: tar.gz for *.tar.gz
PATTERN_TAG = "uti.filename-glob"      # any other glob, fnmatch syntax: *.[1-9], README*
# And for what GitHub Linguist and Google Magika know of languages.
INTERPRETER_TAG = "uti.interpreter"    # a program a #! line names: python3, node
LANGUAGE_TAG = "uti.linguist-language" # Linguist's name of the language, then its aliases: Zig; C++, cpp
MAGIKA_TAG = "uti.magika-label"        # Magika's label of the content type: zig, yara
MAGIKA_MIME_TAG = "uti.magika-mime-type"  # the MIME name Magika gives it: text/x-msdos-batch, inode/x-empty
MAGIKA_TEXT_MIME_TAG = "uti.magika-text-mime-type"  # Magika's name for its text form, where that differs: OpenPGP armour
LIBMAGIC_DESCRIPTION_TAG = "uti.libmagic-description"  # how libmagic's description starts where its MIME type is generic
# And what identification's readers need of a format beyond its conformance.
KIND_TAG = "uti.kind-of"               # what its files also are, where its parents (Apple's) do not say: public.zip-archive for EPUB
CONTENT_TAG = "uti.content"            # text (its files are text, though its parents are not public.text), text-or-binary, or binary
PRONOM_TAG = "org.nationalarchives.pronom.puid"  # PRONOM's identifier of the format (and version): fmt/18
SIGNATURE_TAG = "uti.signature"        # required: every file carries a signature the readers check


class TypeDecl:
    """One declaration as it will be written, plus where it came from."""

    def __init__(self, identifier, origin, exported=False, apple_index=None):
        self.identifier = identifier
        self.origin = origin            # apple | curated | freedesktop | tika | libmagic
        self.exported = exported        # only Apple's `system` group is exported
        self.apple_index = apple_index  # row in the Apple TSV, or None
        self.conforms = []
        self.description = None
        self.extensions = []
        self.mimes = []
        self.filenames = []             # freedesktop literal names: Makefile, CMakeLists.txt
        self.suffixes = []              # freedesktop globs with several dots: *.tar.gz -> tar.gz
        self.patterns = []              # other freedesktop globs: *.[1-9], README*, *~
        self.apple_extensions = set()   # lower-case tags Apple itself declares (never dropped)
        self.apple_mimes = set()
        self.family = None
        self.fdo = []                   # freedesktop records mapped onto this type
        self.magic = []                 # libmagic MIME strings mapped onto this type
        self.magdirs = []
        self.libmagic_extensions = set()  # lower-case extensions only libmagic's `!:ext` lists gave it
        self.interpreters = []          # Linguist's: programs a #! line names
        self.languages = []             # Linguist's language name and aliases
        self.magika_labels = []         # Magika's content-type labels
        self.magika_mimes = []          # the MIME names Magika gives those labels
        self.magika_text_mime = None    # Magika's name for the format's text form, where it has a label of its own
        self.libmagic_descriptions = [] # how libmagic's description of it starts, where libmagic's MIME type is generic
        self.kinds = []                 # formats its files also are, beyond its parents (KIND_TAG)
        self.content = None             # "text" or "text-or-binary" (CONTENT_TAG), where conformance does not say
        self.signature = None           # "required" (SIGNATURE_TAG)
        self.puids = []                 # PRONOM's identifiers of the format (PRONOM_TAG)

    @property
    def is_apple(self):
        return self.origin == "apple"

    @property
    def is_public(self):
        return self.identifier.lower().startswith("public.")

    def add_extension(self, ext):
        if ext.lower() not in (e.lower() for e in self.extensions):
            self.extensions.append(ext)

    def add_mime(self, mime):
        if mime.lower() not in (m.lower() for m in self.mimes):
            self.mimes.append(mime)


class TypeDB:
    def __init__(self):
        self.types = collections.OrderedDict()      # lower-case identifier -> TypeDecl
        self.mime_owner = {}                        # lower-case MIME -> [TypeDecl]
        self.apple_ext_claimants = collections.OrderedDict()
        self.apple_mime_claimants = collections.OrderedDict()
        self.notes = collections.defaultdict(list)  # for the summary

    def get(self, identifier):
        return self.types.get(identifier.lower())

    def add(self, decl):
        key = decl.identifier.lower()
        assert key not in self.types, f"identifier declared twice: {decl.identifier}"
        self.types[key] = decl
        return decl

    def claim_mime(self, decl, mime):
        """Add a MIME tag unless another type already owns it (a MIME type names one type)."""
        key = mime.lower()
        owners = self.mime_owner.setdefault(key, [])
        if owners and decl not in owners:
            return False
        if decl not in owners:
            owners.append(decl)
        decl.add_mime(mime if decl.is_apple and key in decl.apple_mimes else key)
        return True

    def owner_of_mime(self, mime):
        owners = self.mime_owner.get(mime.lower())
        return owners[0] if owners else None

    def ancestors(self, decl, _seen=None):
        """All identifiers (lower-case) `decl` conforms to, itself included."""
        seen = set() if _seen is None else _seen
        stack = [decl.identifier.lower()]
        while stack:
            key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            parent_decl = self.types.get(key)
            if parent_decl is not None:
                stack.extend(p.lower() for p in parent_decl.conforms)
        return seen

    def conforms_to(self, decl, identifier):
        return identifier.lower() in self.ancestors(decl)
