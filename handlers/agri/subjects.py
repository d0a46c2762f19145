"""The field pack's part in forget and export: how a farmer is recognised, and the farmer's register row."""

from bot.store.registers import RegisterStore
from bot.subject_match import SubjectTerms, unique_names
from bot.subject_registers import Records, RegisterSubjectStore, find_rows, same_id
from memory.subjects import Subject


def _names(data: dict[str, object]) -> list[str]:
    return [str(data.get(k) or "") for k in ("name", "name_te")]


def farmer_rows(records: Records, farmer_id: str) -> list[tuple[str, str]]:
    return [("farmers", key) for key, record in records.get("farmers", {}).items()
            if same_id(key, farmer_id) or same_id(str(record.data.get("id", "")), farmer_id)]


def farmer_terms(registers: RegisterStore, subject: Subject) -> SubjectTerms | None:
    if subject.kind != "farmer":
        return None
    farmers = registers.records(subject.tenant, "farmers").get("farmers", {})
    mine = farmer_rows({"farmers": farmers}, subject.subject_id)
    if not mine:
        return SubjectTerms(exact=[subject.subject_id])  # not registered: no token matching
    record = farmers[mine[0][1]]
    names, others = unique_names(_names(record.data),
                                 [_names(r.data) for key, r in farmers.items() if key != record.key])
    written = str(record.data.get("id") or record.key)
    return SubjectTerms(canonical=written, ids=list(dict.fromkeys([subject.subject_id, written])),
                        names=names, others=others)


def farmer_store(registers: RegisterStore) -> RegisterSubjectStore:
    return RegisterSubjectStore("agri registers", "farmer", registers, farmer_rows)


def find_farmers(registers: RegisterStore, tenant: str, query: str) -> list[tuple[str, str]]:
    farmers = registers.records(tenant, "farmers").get("farmers", {})
    return find_rows(farmers, query, lambda d: [str(d.get("id") or "")], _names)
