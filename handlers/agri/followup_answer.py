"""Whether a message sent while a follow-up question waits is its answer, or something else (a new note about
another visit, a question): the follow-up waits for an answer only while the officer is answering it."""

from handlers.agri.extract import FieldReader
from handlers.agri.models import Visit
from handlers.agri.results import product_source, result_of
from handlers.agri.textmatch import normalise

_NOTE_PARTS = {"crop", "issue", "village"}


def answers_followup(reader: FieldReader, visit: Visit, message: str) -> bool:
    """Return True when a message reads as how the crop of `visit` responded: it names no other farmer, and it
    says a result, that nothing was sprayed, whose product was used, or names the products advised. A message
    that names another farmer, or reads as a fresh note (a crop or a problem, no result) is not an answer."""
    norm = normalise(message)
    hits = reader.terms.find(norm)
    farmers = {h.key for h in hits if h.category in ("farmer", "farmer_code")}
    firsts = {h.key for h in hits if h.category == "farmer_first"}
    if (farmers and visit.farmer_id not in farmers) or (firsts and visit.farmer_id not in firsts and not farmers):
        return False
    said_result = result_of(norm, hits, visit.issue) is not None
    if said_result or any(h.category == "no_spray" for h in hits) or product_source(norm) != "ours":
        return True
    advised = {a.product_id for a in visit.products}
    if any(h.category == "product" and h.key in advised for h in hits):
        return True
    return not ({h.category for h in hits} & _NOTE_PARTS)
