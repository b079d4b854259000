"""GitHub Linguist's heuristics are Ruby (Onigmo) regular expressions; identification runs them with PCRE2.
`ruby_pattern` rewrites a pattern where the two syntaxes differ, and `required_literals` reads the strings of
which a text must hold one for a pattern to match, a cheap test identification makes first."""

import re


def ruby_pattern(pattern):
    """A Linguist pattern (Ruby, Onigmo) in the syntax PCRE2 reads, where the two differ: Ruby's `^` and `$`
    always match at line ends (PCRE2 is told so at run time, `PCRE2_MULTILINE`), Ruby's `(?m)` is dot-all
    (`(?s)`), `\\h` is a hex digit, `{,n}` is `{0,n}`, and a class intersection `[A&&[^B]]` (which PCRE2
    would read as ampersands) is the lookahead `(?:(?![B])[A])` (`[A&&[B]]`: `(?:(?=[B])[A])`)."""
    pattern = re.sub(r"\[((?:[^\[\]\\]|\\.)+)&&\[(\^?)((?:[^\[\]\\]|\\.)+)\]\]",
                     lambda m: "(?:(?" + ("!" if m.group(2) else "=") + "[" + m.group(3) + "])[" + m.group(1) + "])", pattern)
    out = []
    index = 0
    in_class = False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            nxt = pattern[index + 1]
            if nxt == "h":
                out.append("0-9A-Fa-f" if in_class else "[0-9A-Fa-f]")
            elif nxt == "H" and not in_class:
                out.append("[^0-9A-Fa-f]")
            else:
                out.append(char + nxt)
            index += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif not in_class and pattern.startswith("(?", index):
            match = re.match(r"\(\?([imx]*)(?:-([imx]*))?([:)])", pattern[index:])
            if match:
                on = match.group(1).replace("m", "s")
                off = (match.group(2) or "").replace("m", "s")
                out.append("(?" + on + ("-" + off if off else "") + match.group(3))
                index += len(match.group(0))
                continue
        elif not in_class and pattern.startswith("{,", index):
            out.append("{0,")
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)


def required_literals(pattern):
    """Strings of which a text must hold at least one for `pattern` (PCRE2 syntax) to match anywhere
    in it, or None when no such set is known: a cheap test that spares the regular expression on most
    texts. Read from Python's parse of the pattern, conservatively: a sequence needs its best element's
    literals, an alternation the union of its branches', a repeat of at least one its body's. A literal
    under case-insensitive matching is given lower-case with a leading U+0003 (to be looked for in the
    text's ASCII lower-case). Literals shorter than 2 bytes are not worth a search and count as none."""
    try:
        parser = getattr(re, "_parser", None) or __import__("sre_parse")
        constants = getattr(re, "_constants", None) or __import__("sre_constants")
        # Python spells a named group (?P<name>...).
        tree = parser.parse(re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", pattern))
    except Exception:
        return None
    FOLD = "\x03"

    def best(options):
        options = [o for o in options if o]
        # The set whose shortest literal is longest: the most selective test.
        return max(options, key=lambda o: (min(len(x.lstrip(FOLD)) for x in o), -len(o)), default=None)

    def sequence(items, folded):
        found, run = [], ""

        def finish():
            if len(run) >= 2:
                found.append({FOLD + run.lower() if folded else run})
        for op, arg in items:
            fixed = exact(op, arg, folded)
            if fixed is not None:
                run += fixed
                continue
            finish()
            run = ""
            found.append(node(op, arg, folded))
        finish()
        return best(found)

    def exact(op, arg, folded):
        """The one ASCII string the element matches (a literal, or a group of literals in the same case
        sense), or None."""
        if op is constants.LITERAL:
            return chr(arg) if arg < 128 else None
        if op is constants.SUBPATTERN and not (arg[1] | arg[2]) & re.IGNORECASE:
            parts = [exact(o, a, folded) for o, a in arg[3]]
            return "".join(parts) if parts and None not in parts else None
        return None

    def node(op, arg, folded):
        # A lookahead or lookbehind that must match: what it holds must be in the text too.
        if op is constants.ASSERT:
            return sequence(arg[1], folded)
        if op is constants.SUBPATTERN:
            add_flags, del_flags = arg[1], arg[2]
            inner = (folded or bool(add_flags & re.IGNORECASE)) and not del_flags & re.IGNORECASE
            return sequence(arg[3], inner)
        if op is constants.BRANCH:
            union = set()
            for branch in arg[1]:
                sub = sequence(branch, folded)
                if not sub:
                    return None
                union |= sub
            return union
        if op in (constants.MAX_REPEAT, constants.MIN_REPEAT, getattr(constants, "POSSESSIVE_REPEAT", None)):
            low, _, body = arg
            return sequence(body, folded) if low >= 1 else None
        if op is getattr(constants, "ATOMIC_GROUP", None):
            return sequence(arg, folded)
        return None

    try:
        found = sequence(list(tree), bool(tree.state.flags & re.IGNORECASE))
    except Exception:
        return None
    return sorted(found) if found else None


def possessive_leading_space(pattern):
    """`pattern` (PCRE2 syntax) with a leading `^\\s*` made possessive (`^\\s*+`) where that cannot change
    whether it matches: what follows can neither match empty, nor start with a white-space character, nor
    look around. Backtracking into the white space can then never help, and PCRE2 no longer tries it at every
    line of a text that does not match (half of the time of Raku's test on every Perl module). The pattern as it
    is otherwise."""
    prefix = "^\\s*"
    if not pattern.startswith(prefix) or pattern[len(prefix):len(prefix) + 1] in ("+", "?", "{"):
        return pattern
    try:
        parser = getattr(re, "_parser", None) or __import__("sre_parse")
        constants = getattr(re, "_constants", None) or __import__("sre_constants")
        items = list(parser.parse(re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", pattern[len(prefix):])))
    except Exception:
        return pattern
    # PCRE2's \s without Unicode properties: tab, line feed, vertical tab, form feed, carriage return, space.
    space = {9, 10, 11, 12, 13, 32}
    repeats = (constants.MAX_REPEAT, constants.MIN_REPEAT, getattr(constants, "POSSESSIVE_REPEAT", None))
    boundaries = (constants.AT_BOUNDARY, constants.AT_NON_BOUNDARY)
    safe_categories = (constants.CATEGORY_WORD, constants.CATEGORY_DIGIT, constants.CATEGORY_NOT_SPACE)

    def in_class(members):
        """Whether a class may hold a white-space character."""
        for kind, value in members:
            if kind is constants.NEGATE:
                return True
            if kind is constants.LITERAL and value in space:
                return True
            if kind is constants.RANGE and any(value[0] <= c <= value[1] for c in space):
                return True
            if kind is constants.CATEGORY and value not in safe_categories:
                return True
            if kind not in (constants.LITERAL, constants.RANGE, constants.CATEGORY):
                return True
        return False

    def sequence(nodes):
        """'space' when the nodes may consume white space first (or cannot be told), 'empty' when they may
        match nothing (and consume no white space first), 'other' when they always start with something else."""
        for op, arg in nodes:
            found = node(op, arg)
            if found != "empty":
                return found
        return "empty"

    def node(op, arg):
        if op is constants.LITERAL:
            return "space" if arg in space else "other"
        if op is constants.IN:
            return "space" if in_class(arg) else "other"
        if op is constants.AT:
            return "empty" if arg in boundaries else "space"
        if op is constants.SUBPATTERN:
            return sequence(arg[3])
        if op is constants.BRANCH:
            found = [sequence(branch) for branch in arg[1]]
            return "space" if "space" in found else "empty" if "empty" in found else "other"
        if op in repeats:
            low, _, body = arg
            found = sequence(body)
            return "space" if found == "space" else "empty" if low == 0 else found
        return "space"

    if sequence(items) != "other":
        return pattern
    return "^\\s*+" + pattern[len(prefix):]
