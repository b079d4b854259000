"""What the tests share: a small type database made from a table of identifiers and parents."""

from typedb.model import TypeDB, TypeDecl

# A corner of Apple's hierarchy, enough for the rules that read conformance.
BASE = {
    "public.item": [],
    "public.data": ["public.item"],
    "public.content": ["public.item"],
    "public.volume": ["public.item"],
    "public.text": ["public.data", "public.content"],
    "public.plain-text": ["public.text"],
    "public.source-code": ["public.plain-text"],
    "public.script": ["public.source-code"],
    "public.xml": ["public.text"],
    "public.json": ["public.text"],
    "public.image": ["public.data", "public.content"],
    "public.audio": ["public.data", "public.content"],
    "public.font": ["public.data", "public.content"],
    "public.archive": ["public.data"],
    "public.png": ["public.image"],
}


def make_db(extra=None, base=True, origin="curated"):
    """A TypeDB holding BASE (Apple's, unless base=False) and `extra` ({identifier: [parents]}) of `origin`."""
    db = TypeDB()
    for table, table_origin in ((BASE if base else {}, "apple"), (extra or {}, origin)):
        for identifier, parents in table.items():
            decl = db.add(TypeDecl(identifier, table_origin))
            decl.conforms = list(parents)
    return db


def apple(db, identifier, index, parents=(), extensions=(), mimes=(), exported=True):
    """Declares an Apple type as load_apple does: its tags recorded as Apple's claims."""
    decl = TypeDecl(identifier, "apple", exported=exported, apple_index=index)
    decl.conforms = list(parents)
    for ext in extensions:
        decl.add_extension(ext)
        decl.apple_extensions.add(ext.lower())
        db.apple_ext_claimants.setdefault(ext.lower(), []).append(decl)
    for mime in mimes:
        decl.apple_mimes.add(mime.lower())
        decl.add_mime(mime)
        db.apple_mime_claimants.setdefault(mime.lower(), []).append(decl)
        db.mime_owner.setdefault(mime.lower(), []).append(decl)
    return db.add(decl)
