"""How well the keyless reader reads field notes it was not written from: a corpus under tests/corpus/agri/
(notes and outcome answers written fresh, with their own registers and label doses), scored per field.

    .venv/bin/python -m bench.agri_corpus [--batch 1-2|3|walk|held|held3|all] [--misses]

Prints accuracy per field for visit notes (farmer, crop, problems, products, reactions, objection, dose,
follow-up days, neighbour) and outcome answers (result, products applied, bought), per batch. `--misses` lists
each miss. Batches 1-2 (`notes.jsonl`, `outcomes.jsonl`) were read by the rules' authors; batch 3
(`notes3.jsonl`, `outcomes3.jsonl`) was written by a third author before reading the reader. All batches share
the corpus's registers (so does the held batch, `held/`: notes written for the reader's hard classes - hedged
answers, several products taken in one word, negated Telugu verbs, postponed for money vs refused for price,
waiting without a product - before the reader was changed for them), except the walk batch (`walk/`: its own registers, notes, outcome answers and questions
about the past, by a new author; and `held3/`: its own registers, notes and outcome answers written before the
reader was changed for verb forms - reflexive and causative Telugu verbs, English future and "pick up / get"
verbs, conditions and what they name, put-offs until money or stock comes, doubt, negated spraying), which also scores intent (note / outcome / question), the farmer each question
is about, and `questions_carded` as the share of questions kept off a visit card (100% means none carded).
"""

import argparse
import sys
import json
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from handlers.agri.doses import same_dose
from handlers.agri.extract import FieldReader, visit_id
from handlers.agri.intent import read_intent
from handlers.agri.models import Advice, Visit
from handlers.agri.register import FieldBook

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "agri"
NOTE_FIELDS = ["farmer", "crop", "problems", "products", "reactions", "objection", "dose", "followup_days",
               "neighbour"]
OUTCOME_FIELDS = ["result", "applied", "bought"]
BATCHES: dict[str, tuple[str, str]] = {"1-2": ("notes.jsonl", "outcomes.jsonl"),
                                       "3": ("notes3.jsonl", "outcomes3.jsonl"),
                                       "walk": ("walk/notes.jsonl", "walk/outcomes.jsonl"),
                                       "held": ("held/notes.jsonl", "held/outcomes.jsonl"),
                                       "held3": ("held3/notes.jsonl", "held3/outcomes.jsonl")}
OWN_REGISTERS = {"walk": "walk", "held3": "held3"}
"""Batches written with registers of their own (a folder under the corpus holding catalogue.json etc.)."""
QUESTIONS = {"walk": "walk/questions.jsonl"}
"""Batches with questions about the past, each naming a farmer: scored for intent and farmer, never carded."""
INTENT_FIELDS = ["intent", "question_farmer", "questions_carded"]
COARSER = {"postponed": "undecided", "money": "price"}
"""The reader's finer labels and the label each refines: "postponed" is an undecided answer with a time, "money"
(cannot pay now) a price objection. A batch whose author never uses the finer label (the walk batch has neither)
is scored in the author's own coarser terms, so the reader is not marked wrong for saying more."""


class FieldScore(BaseModel):
    field: str
    right: int = 0
    total: int = 0
    misses: list[str] = []

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 1.0


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (CORPUS / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def corpus_book(batch: str = "1-2") -> FieldBook:
    """Return the corpus's own registers (farmers, villages, catalogue, issues), read with the shipped lexicon;
    a batch with registers of its own reads those."""
    return FieldBook.from_folder(CORPUS / OWN_REGISTERS[batch] if batch in OWN_REGISTERS else CORPUS)


def intent_scores(book: FieldBook, batch: str) -> dict[str, FieldScore]:
    """How the reader states each message's intent (notes, outcome answers, questions), which farmer each
    question is about, and how many questions would be carded as visits (the pack cards what is not a question)."""
    reader = FieldReader(book)
    scores = {f: FieldScore(field=f) for f in INTENT_FIELDS}
    notes_file, outcomes_file = BATCHES[batch]
    rows = [(r, "note") for r in _rows(notes_file)] + [(r, "outcome") for r in _rows(outcomes_file)]
    rows += [(r, "question") for r in _rows(QUESTIONS[batch])] if batch in QUESTIONS else []
    for n, (row, want) in enumerate(rows):
        said = read_intent(row["text"], awaiting_answer=want == "outcome").intent
        scores["intent"].total += 1
        scores["intent"].right += said == want
        if said != want:
            scores["intent"].misses.append(f"{row.get('id', n)}: got {said}, want {want}: {row['text'][:60]}")
        if want != "question":
            continue
        officer = book.officers[row["officer_id"]]
        found = reader.farmer_in(row["text"], officer.territories)
        farmers = [found] if found else reader.farmer_choices(row["text"], officer.territories)
        got = farmers[0].id if len(farmers) == 1 else [f.id for f in farmers]
        scores["question_farmer"].total += 1
        scores["question_farmer"].right += got == row["farmer_id"]
        if got != row["farmer_id"]:
            scores["question_farmer"].misses.append(f"{n}: got {got}, want {row['farmer_id']}: {row['text'][:60]}")
        # "right" counts questions kept off a card: the figure must be every question.
        scores["questions_carded"].total += 1
        scores["questions_carded"].right += said == "question"
        if said != "question":
            scores["questions_carded"].misses.append(f"{n}: carded: {row['text'][:60]}")
    return scores


def batch_fold(rows: list[dict[str, Any]]) -> dict[str, str]:
    """The finer labels (COARSER) a batch's author never uses, each mapped to the label it refines."""
    used = {r for row in rows for r in row["expect"]["products"].values()} | {
        row["expect"]["objection"] for row in rows}
    return {fine: coarse for fine, coarse in COARSER.items() if fine not in used}


def _note_checks(visit: Visit, expect: dict[str, Any], fold: dict[str, str] | None = None
                 ) -> dict[str, tuple[bool, str]]:
    fold = fold or {}
    got = {a.product_id: a.model_copy(update={"reaction": fold.get(a.reaction, a.reaction)})
           for a in visit.products}
    objection = fold.get(visit.objection, visit.objection) if visit.objection else None
    doses_ok = set(expect["dose"]) == {p for p, a in got.items() if a.dose} and all(
        same_dose(got[p].dose, d) for p, d in expect["dose"].items()) and set(expect["above_label"]) == {
        p for p, a in got.items() if a.above_label}
    return {
        "farmer": (visit.farmer_id == expect["farmer"], str(visit.farmer_id)),
        "crop": (visit.crop == expect["crop"], str(visit.crop)),
        "problems": (set(visit.problems) == set(expect["problems"]), str(visit.problems)),
        "products": (set(got) == set(expect["products"]), str(list(got))),
        "reactions": ({p: a.reaction for p, a in got.items()} == expect["products"],
                      str({p: a.reaction for p, a in got.items()})),
        "objection": (objection == expect["objection"], str(objection)),
        "dose": (doses_ok, str({p: (a.dose, a.above_label) for p, a in got.items() if a.dose})),
        "followup_days": (visit.followup_days == expect["followup_days"], str(visit.followup_days)),
        "neighbour": (visit.neighbour_evidence == expect["neighbour"], str(visit.neighbour_evidence)),
    }


def _wanted(expect: dict[str, Any], field: str) -> Any:
    if field == "reactions":
        return expect["products"]
    if field == "dose":
        return (expect["dose"], {"above_label": expect["above_label"]})
    return expect.get(field)


def score(book: FieldBook | None = None, batch: str = "1-2") -> dict[str, FieldScore]:
    """Read every note and answer of one batch and return the score of each field."""
    book = book or corpus_book(batch)
    reader = FieldReader(book)
    notes_file, outcomes_file = BATCHES[batch]
    scores = {f: FieldScore(field=f) for f in NOTE_FIELDS + OUTCOME_FIELDS}
    fold = batch_fold(_rows(notes_file))
    for row in _rows(notes_file):
        officer = book.officers[row["officer"]]
        visit = reader.read_visit(row["text"], officer.id, date.fromisoformat(row["today"]), officer.territories)
        # The crop as the author wrote it ("bengal gram") is the register's crop ("bengal-gram"): compare keys.
        expect = {**row["expect"], "crop": book.crop_of(row["expect"]["crop"]) if row["expect"]["crop"] else None}
        for field, (ok, got) in _note_checks(visit, expect, fold).items():
            scores[field].total += 1
            scores[field].right += ok
            if not ok:
                scores[field].misses.append(f"{row['id']}: got {got}, want {_wanted(row['expect'], field)}")
    for row in _rows(outcomes_file):
        subject = row["visit"]
        farmer = book.farmers[subject["farmer"]]
        day = date.fromisoformat(subject["date"])
        visit = Visit(id=visit_id(farmer.id, day, row["id"]), date=day, officer_id="O101", farmer_id=farmer.id,
                      village=farmer.village, crop=subject["crop"], issue=subject["issue"],
                      products=[Advice(product_id=p, reaction=r) for p, r in subject["advised"].items()])
        outcome = reader.read_outcome(row["text"], visit, "O101", date.fromisoformat(row["today"]))
        expect = row["expect"]
        checks = {"result": (outcome.result == expect["result"], str(outcome.result)),
                  "applied": (set(outcome.products) == set(expect["products"]), str(outcome.products)),
                  "bought": (bool(outcome.products) == expect["bought"], str(bool(outcome.products)))}
        for field, (ok, got) in checks.items():
            scores[field].total += 1
            scores[field].right += ok
            if not ok:
                scores[field].misses.append(f"{row['id']}: got {got}, want {expect.get(field, expect['products'])}")
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", choices=[*BATCHES, "all"], default="all", help="one batch, or each in turn")
    parser.add_argument("--misses", action="store_true", help="list every miss")
    parser.add_argument("--smoke", action="store_true", help="the first batch only (the test suite's run)")
    args = parser.parse_args(argv)
    chosen = list(BATCHES) if args.batch == "all" else [args.batch]
    for batch in chosen[:1] if args.smoke else chosen:
        book = corpus_book(batch)
        notes_file, outcomes_file = BATCHES[batch]
        scores = {**score(book, batch), **intent_scores(book, batch)}
        notes, outcomes = len(_rows(notes_file)), len(_rows(outcomes_file))
        questions = len(_rows(QUESTIONS[batch])) if batch in QUESTIONS else 0
        print(f"agri corpus batch {batch}: {notes} notes, {outcomes} outcome answers, {questions} questions "
              f"({CORPUS})")
        for name, item in scores.items():
            if not item.total and name in INTENT_FIELDS:
                continue
            print(f"  {name:<14} {item.accuracy:6.1%}  ({item.right}/{item.total})")
            if args.misses:
                for miss in item.misses:
                    print(f"      {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
