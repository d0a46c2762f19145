"""Designations as offices write them ("Field Officer", "FO", "Zonal Manager", "Senior Advocate", "Munshi") read
as the bot's roles, with the pack a designation implies when it implies one. A tenant extends the list
(`smriti people import --designation "Area Sales Manager=admin"`); its words win over the built-in ones."""

from pydantic import BaseModel

from bot.services.registers.table import fold


class RoleOf(BaseModel):
    role: str
    pack: str | None = None


_BUILT_IN: dict[tuple[str, str | None], tuple[str, ...]] = {
    ("admin", None): ("admin", "administrator", "manager", "zonal manager", "regional manager", "area manager",
                      "branch manager", "general manager", "zm", "rm", "gm", "owner", "proprietor", "director",
                      "managing director", "md", "head", "office manager", "partner", "managing partner"),
    ("officer", "agri"): ("officer", "field officer", "fo", "field assistant", "fa", "field executive",
                          "sales officer", "territory officer", "marketing officer", "agronomist",
                          "field staff", "extension officer", "mdo", "tso"),
    ("lawyer", "legal"): ("lawyer", "advocate", "senior advocate", "junior advocate", "counsel", "associate",
                          "adv", "sr advocate", "jr advocate", "legal associate", "senior counsel"),
    ("clerk", "legal"): ("munshi", "court clerk", "legal clerk", "typist", "steno", "stenographer"),
    ("clerk", "ap"): ("clerk", "accountant", "accounts assistant", "accounts executive", "ap clerk",
                      "accounts clerk", "data entry operator", "deo", "accounts payable"),
}
ROLES = ("admin", "officer", "lawyer", "clerk")
_SHORT = {"sr": "senior", "snr": "senior", "jr": "junior", "jnr": "junior", "asst": "assistant", "astt": "assistant",
          "exe": "executive", "exec": "executive", "mgr": "manager", "offr": "officer", "adv": "advocate",
          "acct": "accounts", "accts": "accounts"}


def designation_key(written: str) -> str:
    """A designation for matching: folded, initials joined ("F.O." is "fo", "M.D." is "md") and short forms
    written out ("Sr. Advocate" is "senior advocate", "Asst. Manager" is "assistant manager")."""
    words = fold(written).split()
    joined: list[str] = []
    for word in words:
        if len(word) == 1 and joined and len(joined[-1]) < 4 and joined[-1].isalpha() and joined[-1] not in _SHORT:
            joined[-1] += word
        else:
            joined.append(word)
    return " ".join(_SHORT.get(w, w) for w in joined)


def designation_map(extra: dict[str, str] | None = None) -> dict[str, RoleOf]:
    """Folded designation -> role (and pack): the built-in words, then the tenant's ("Area Sales Manager" ->
    "admin", or "officer:agri")."""
    found = {designation_key(word): RoleOf(role=role, pack=pack)
             for (role, pack), words in _BUILT_IN.items() for word in words}
    for word, said in (extra or {}).items():
        role, _, pack = said.partition(":")
        if role.strip() not in ROLES:
            raise ValueError(f"designation {word!r}: the role must be one of {', '.join(ROLES)}")
        found[designation_key(word)] = RoleOf(role=role.strip(), pack=pack.strip() or None)
    return found


_LAST_WORD = {"manager": RoleOf(role="admin"), "head": RoleOf(role="admin"), "director": RoleOf(role="admin"),
              "incharge": RoleOf(role="admin"), "advocate": RoleOf(role="lawyer", pack="legal"),
              "counsel": RoleOf(role="lawyer", pack="legal"), "clerk": RoleOf(role="clerk")}


def role_of(designation: str, designations: dict[str, RoleOf]) -> RoleOf | None:
    """The role a designation names ("Finance Manager" is an admin as "Zonal Manager" is, by its last word);
    None when nobody listed it."""
    folded = designation_key(designation)
    found = designations.get(folded)
    if found is None and folded:
        found = _LAST_WORD.get(folded.split()[-1])
    return found


def parse_designations(pairs: list[str]) -> dict[str, str]:
    """`--designation "Area Sales Manager=admin"` options as a map; ValueError in plain words for a bad one."""
    found: dict[str, str] = {}
    for pair in pairs:
        word, sep, role = pair.partition("=")
        if not sep or not word.strip() or not role.strip():
            raise ValueError(f"{pair!r}: write a designation as \"Designation=role\", e.g. \"Area Manager=admin\"")
        found[word.strip()] = role.strip().lower()
    return found
