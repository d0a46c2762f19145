"""How well a visit note's new farmer is proposed: a corpus of notes naming farmers the register does not know
(and notes that must propose no one), written fresh with names and villages outside seeds/, in English, Telugu
script and transliterated Telugu, read against the agri corpus's own registers.

    .venv/bin/python -m bench.new_farmers [--misses]

Prints accuracy per field: proposed (a farmer proposed exactly when one should be), name (as written), village
(a register village or the one written), crop; and false proposals (someone proposed where no one should be).
"""

import argparse
import sys
import json
from datetime import date
from pathlib import Path
from typing import Any

from bench.agri_corpus import FieldScore, corpus_book
from handlers.agri.extract import FieldReader
from handlers.agri.newfarmer import NewFarmer, new_farmer_in

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "agri" / "new_farmers.jsonl"
FIELDS = ["proposed", "name", "village", "crop"]


class NewFarmerReport:
    def __init__(self) -> None:
        self.scores = {f: FieldScore(field=f) for f in FIELDS}
        self.false_proposals = 0
        self.rows = 0

    def add(self, field: str, right: bool, row: str, got: str) -> None:
        score = self.scores[field]
        score.total += 1
        score.right += int(right)
        if not right:
            score.misses.append(f"{row}: got {got}")


def rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def propose(reader: FieldReader, row: dict[str, Any]) -> tuple[NewFarmer | None, str | None]:
    """Read a corpus note as the pack does: the visit by rules, then the new farmer it names, if any."""
    officer = reader.book.officers[row["officer"]]
    visit = reader.read_visit(row["text"], officer.id, date(2026, 10, 1), row["territories"])
    new = new_farmer_in(reader, row["text"], visit, row["territories"], officer.name)
    return new, visit.crop


def score() -> NewFarmerReport:
    reader = FieldReader(corpus_book())
    report = NewFarmerReport()
    for row in rows():
        report.rows += 1
        new, crop = propose(reader, row)
        expect = row["expect"]
        report.add("proposed", (new is None) == (expect is None), row["id"], new.name if new else "nobody")
        if expect is None:
            report.false_proposals += int(new is not None)
            continue
        got_village = (new.village or new.village_written) if new else None
        report.add("name", new is not None and new.name == expect["name"], row["id"], new.name if new else "-")
        report.add("village", new is not None and got_village == (expect["village"] or expect["village_written"])
                   and (new.village_written is None) == (expect["village_written"] is None),
                   row["id"], str(got_village))
        report.add("crop", crop == expect["crop"], row["id"], str(crop))
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list every miss")
    parser.add_argument("--smoke", action="store_true", help="the test suite's run (the corpus is small: all of it)")
    args = parser.parse_args(argv)
    report = score()
    print(f"new-farmer notes: {report.rows}")
    for field, result in report.scores.items():
        print(f"  {field:<9} {result.right:>3}/{result.total:<3} {result.accuracy:6.1%}")
        if args.misses:
            for miss in result.misses:
                print(f"      {miss}")
    print(f"  false proposals: {report.false_proposals}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
