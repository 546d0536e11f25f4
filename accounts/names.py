"""Names people read: an account's display name (what the tables, match lists and streams show)
and the key that tells when two names look alike.

A display name is 2 to 24 characters once trimmed (runs of spaces count as one), NFKC-normalised:
letters of any script, combining marks, digits, spaces and `- _ . ' ·`, with at least one letter;
no control, format (zero-width) or private-use character. Two names are the same name when their
keys are equal: the name NFKC-normalised and case-folded, `- _ . ' ·` and spaces dropped, and each
character replaced by the one its class of look-alikes is written with (Unicode's confusables, as
the confusable-homoglyphs package ships them, merged with case: 0, O and o are one class, 1, l, I,
i and | another; Cyrillic а is a). An account's username and display name each hold their key
(accounts.models.User): no two accounts hold the same key, whichever of the two names holds it,
so nobody takes a name that reads as someone else's. Names that stand for the service, its staff
or its bots (admin, staff, Bot 3, 管理员, 机器人...) are nobody's.

Decision: a name is unique outright (no discriminator such as #1234): people at a table tell
each other apart by what they read, and a discriminator is easy to leave off in a screenshot.
"""

import functools
import hashlib
import re
import string
import unicodedata

from confusable_homoglyphs.confusables import confusables_data

from games.errors import Conflict, Refusal

MIN_LENGTH, MAX_LENGTH = 2, 24
SEPARATORS = frozenset(" -_.'·")
# What the service, its staff and its bots are called, in English and Chinese, and the page's own
# words for seats: a name whose key is one of these (or one of them and digits, as in "Bot 3"),
# or that has one of them as a word, is refused.
RESERVED = ("admin", "administrator", "staff", "moderator", "mod", "system", "server", "root",
            "support", "official", "owner", "bot", "robot", "guest", "you", "me", "nobody",
            "anonymous", "open", "dealer", "house", "cardtable", "管理员", "管理", "系统", "官方",
            "客服", "机器人", "电脑", "你", "我", "庄家", "游客", "空座")
MARKS = ("Mn", "Mc", "Me")
# Characters written invisibly (a Mark glued to a separator) or stripped by some fonts.
INVISIBLE = re.compile(r"[\u115f\u1160\u3164\uffa0\u2800]")


class NameRefused(Refusal):
    """A display name refused: `invalid_name` (its characters or length), `reserved_name`."""

    def __init__(self, code: str, message: str):
        super().__init__(code, message, field="display_name")


class NameTaken(Conflict):
    def __init__(self):
        super().__init__("name_taken", "Another account has this name, or one that looks "
                         "like it: choose another.", field="display_name")


def display_name(raw) -> str:
    """The display name `raw` asks for, as it is kept and shown; NameRefused if it is none."""
    if not isinstance(raw, str):
        raise NameRefused("invalid_name", "A name is text.")
    name = " ".join(unicodedata.normalize("NFKC", raw).split(" ")).strip()
    name = re.sub(" +", " ", name)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise NameRefused("invalid_name", f"A name is {MIN_LENGTH} to {MAX_LENGTH} characters.")
    wrong = [c for c in name if not _allowed(c)]
    if wrong or INVISIBLE.search(name):
        shown = f"U+{ord(wrong[0]):04X}" if wrong else "an invisible letter"
        raise NameRefused("invalid_name", f"A name is letters, digits, spaces and - _ . ' · "
                          f"only (not {shown}).")
    if not any(unicodedata.category(c).startswith("L") for c in name):
        raise NameRefused("invalid_name", "A name has at least one letter.")
    if reserved(name):
        raise NameRefused("reserved_name", "That name is kept for the service, its staff and "
                          "its bots.")
    return name


def _allowed(c: str) -> bool:
    category = unicodedata.category(c)
    return category[0] == "L" or category in MARKS or category == "Nd" or c in SEPARATORS


def key(name: str) -> str:
    """What `name` reads as: equal keys, names that look alike (the module says how)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    alike = _look_alikes()
    return "".join(alike.get(c, c) for c in folded if c not in SEPARATORS)


def fingerprint(name: str) -> str:
    """The SHA-256 of `name`'s key, in hex: what an account keeps of it (a key may be long)."""
    return hashlib.sha256(key(name).encode()).hexdigest()


def reserved(name: str) -> bool:
    """Whether `name` stands for the service, its staff or its bots, as a whole or by a word."""
    words = re.split(r"[ \-_.'·]+", unicodedata.normalize("NFKC", name))
    whole = key(name)
    return any(k in _reserved_keys() for k in (whole, whole.rstrip("0123456789"),
                                               *(key(w).rstrip("0123456789") for w in words)))


@functools.cache
def _reserved_keys() -> frozenset[str]:
    return frozenset(key(word) for word in RESERVED)


@functools.cache
def _look_alikes() -> dict[str, str]:
    """Each character that has look-alikes, and the one its class is written with: the classes
    are Unicode's confusables (single characters), an ASCII capital's joined with its small
    letter's; an ASCII letter or digit writes its class where there is one."""
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    def first(c: str) -> tuple:
        return (not (c.isascii() and c.isalnum()), ord(c))

    def join(a: str, b: str) -> None:
        a, b = root(a), root(b)
        if a != b:
            low, high = sorted((a, b), key=first)
            parent[high] = low

    for char, glyphs in confusables_data.items():
        char = char.strip("\u200e\u200f")
        for glyph in glyphs:
            other = glyph["c"].strip("\u200e\u200f")
            if len(char) == len(other) == 1:
                join(char, other)
    # Names are case-folded before they are read: an ASCII capital's look-alikes are its small
    # letter's too (I reads as l, O as 0). Other scripts' cases are left apart: joined, they
    # chain whole alphabets together (r, t, u, y and z through Greek and Cyrillic capitals).
    for capital in string.ascii_uppercase:
        join(capital, capital.lower())
    return {c: root(c) for c in parent}
