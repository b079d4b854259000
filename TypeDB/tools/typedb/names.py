"""How names of languages are compared and spelled: the squashed spelling names are matched by (`C++` is
`cplusplus`), the identifier component of a new language type, and whether a type's name names a language.
Used by the Linguist and Magika steps."""

import re


def squashed(text):
    """Lower-case letters and digits only, `+` as `plus` and `#` as `sharp`: `C++` -> `cplusplus`."""
    return re.sub(r"[^a-z0-9]", "", text.lower().replace("+", "plus").replace("#", "sharp"))


def language_slug(name):
    """An identifier component for a language: `Objective-C++` -> `objective-c-plus-plus`."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("+", "-plus").replace("#", "-sharp").replace("*", "-star"))
    return slug.strip("-") or "language"


def names_language(decl, name):
    """Whether a type's identifier or description names the language `name` (a word of it for a name of one
    or two letters, else its squashed spelling anywhere)."""
    key = squashed(name)
    texts = [decl.identifier, decl.description or ""]
    if len(key) <= 2:
        return any(key in re.split(r"[^a-z0-9]+", text.lower()) for text in texts)
    return any(key in squashed(text) for text in texts)
