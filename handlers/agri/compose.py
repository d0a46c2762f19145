"""The template brief: composed only from what recall returned, so every claim is grounded by construction.

Memory OFF and memory ON run this same code; OFF simply has no memories to read.
"""

from collections import defaultdict
from datetime import date, timedelta

from bot.services.i18n import show_date, text
from handlers.agri.brief_models import BriefDraft, Confidence, DraftClaim, DraftProduct
from handlers.agri.facts import Facts, OutcomeFact, VisitFact
from handlers.agri.measures import price_text
from handlers.agri.models import Farmer
from handlers.agri.register import FieldBook

NEARBY_DAYS = 45
MAX_NEIGHBOUR_CLAIMS = 3


class Composer:
    """Writes one brief in one language from a farmer's facts and the similar cases nearby."""

    def __init__(self, book: FieldBook, lang: str, farmer: Farmer, own: Facts, similar: Facts, as_of: date) -> None:
        self.book, self.lang, self.farmer = book, lang, farmer
        self.own, self.similar, self.as_of = own, similar, as_of

    def t(self, key: str, **values: object) -> str:
        return text(self.lang, f"agri.{key}", **values)

    def day(self, value: date) -> str:
        return show_date(self.lang, value)

    def crop(self, slug: str) -> str:
        return self.book.crop_name(slug, self.lang)

    def product(self, product_id: str) -> str:
        product = self.book.products.get(product_id)
        return f"{product.name} ({product_id})" if product else product_id

    def _extent(self, pct: int | None) -> str:
        return self.t("extent", pct=pct) if pct is not None else ""

    def _visit_claim(self, fact: VisitFact) -> DraftClaim:
        actions = []
        for pid in fact.rejected:
            objection = fact.objections.get(pid)
            actions.append(self.t("action_rejected", product=self.product(pid),
                                  objection=self.t(f"objection_{objection}")) if objection
                           else self.t("action_rejected_plain", product=self.product(pid)))
        for pid in fact.accepted:
            key = "action_accepted_neighbour" if fact.neighbour else "action_accepted"
            actions.append(self.t(key, product=self.product(pid)))
        for pid in fact.postponed:
            objection = fact.objections.get(pid)
            actions.append(self.t("action_postponed", product=self.product(pid),
                                  objection=f" ({self.t(f'objection_{objection}')})" if objection else ""))
        for pid in fact.undecided:
            actions.append(self.t("action_undecided", product=self.product(pid)))
        body = self.t("claim_visit", crop=self.crop(fact.crop), issue=self.book.issue_name(fact.issue, self.lang),
                      extent=self._extent(fact.severity_pct), actions=" ".join(actions))
        return DraftClaim(text=body.strip(), source_date=fact.day, document_id=fact.document_id)

    def _outcome_text(self, fact: OutcomeFact) -> str:
        values = {"crop": self.crop(fact.crop), "issue": self.book.issue_name(fact.issue, self.lang),
                  "result": self.t(f"result_{fact.result}"), "note": fact.note}
        if fact.source != "ours":
            return self.t("claim_outcome_other", source=self.t(f"source_{fact.source}"), **values)
        if fact.applied:
            return self.t("claim_outcome", products=", ".join(self.product(p) for p in fact.applied), **values)
        return self.t("claim_outcome_none", **values)

    def claims(self) -> list[DraftClaim]:
        own = [self._visit_claim(v) for v in self.own.visits]
        own += [DraftClaim(text=self._outcome_text(o).strip(), source_date=o.day, document_id=o.document_id)
                for o in self.own.outcomes]
        own.sort(key=lambda c: c.source_date or date.min, reverse=True)
        helped = [o for o in reversed(self.similar.outcomes) if o.applied and o.result in ("controlled", "partial")]
        nearby = [DraftClaim(text=self.t("claim_neighbour", name=self.book.farmer_name(o.farmer_id, self.lang),
                                         outcome=self._outcome_text(o)).strip(),
                             source_date=o.day, document_id=o.document_id)
                  for o in helped[:MAX_NEIGHBOUR_CLAIMS]]
        return own + nearby

    def _rejected_for_good(self) -> dict[str, VisitFact]:
        """Return products the farmer turned down and never took up afterwards, with the latest refusal."""
        refused: dict[str, VisitFact] = {}
        for visit in self.own.visits:
            for pid in visit.rejected:
                refused[pid] = visit
            for pid in visit.accepted:
                refused.pop(pid, None)
        return refused

    def _failed_for_him(self) -> dict[str, OutcomeFact]:
        return {p: o for o in self.own.outcomes if o.result in ("no_effect", "worse") for p in o.applied}

    def avoid(self) -> list[str]:
        lines = []
        for pid, visit in self._rejected_for_good().items():
            product = self.book.products[pid]
            objection = visit.objections.get(pid)
            lines.append(self.t("avoid_rejected", product=self.product(pid), price=price_text(self.lang, product),
                                date=self.day(visit.day),
                                objection=self.t(f"objection_{objection}") if objection else "-"))
        for pid, outcome in self._failed_for_him().items():
            lines.append(self.t("avoid_failed", product=self.product(pid), date=self.day(outcome.day),
                                farmer=self.book.farmer_name(self.farmer.id, self.lang)))
        return lines

    def _scores(self) -> dict[str, float]:
        scores: dict[str, float] = defaultdict(float)
        weights = {"controlled": 3.0, "partial": 1.0, "no_effect": -3.0, "worse": -3.0}
        for outcome in self.own.outcomes:
            for pid in outcome.applied:
                scores[pid] += weights.get(outcome.result, 0.0)
        for visit in self.own.visits:
            for pid in visit.accepted:
                scores[pid] += 1.0
        for outcome in self.similar.outcomes:
            for pid in outcome.applied:
                scores[pid] += weights.get(outcome.result, 0.0) / 3
        return scores

    def _crop_for(self, pid: str) -> str:
        """Return the farmer's crop this product is pitched for: where it worked for him, else its first label."""
        own = [o.crop for o in self.own.outcomes if pid in o.applied] + [v.crop for v in self.own.visits if pid in v.accepted]
        labelled = [c for c in self.farmer.crops if c in self.book.products[pid].dosage]
        # A product with no label for any of the farmer's crops (recalled for a crop he no longer grows, or
        # pitched from a neighbour's case) is pitched for the crop it was used on, else his first crop.
        return next((c for c in reversed(own) if c in labelled), labelled[0] if labelled else
                    next(iter(own[::-1]), self.farmer.crops[0]))

    def _pitch(self, pid: str, crop: str) -> str:
        product = self.book.products[pid]
        parts = []
        price_objector = any(o == "price" for v in self.own.visits for o in v.objections.values())
        if price_objector or product.tier == "budget":
            parts.append(self.t("pitch_price", price=price_text(self.lang, product)))
        own = [o for o in self.own.outcomes if pid in o.applied and o.result in ("controlled", "partial")]
        nearby = [o for o in self.similar.outcomes if pid in o.applied and o.result in ("controlled", "partial")]
        if own:
            parts.append(self.t("pitch_own", crop=self.crop(own[-1].crop), date=self.day(own[-1].day),
                                farmer=self.book.farmer_name(self.farmer.id, self.lang),
                                note=own[-1].note or self.t(f"result_{own[-1].result}")))
        elif nearby:
            best = nearby[-1]
            parts.append(self.t("pitch_neighbour", name=self.book.farmer_name(best.farmer_id, self.lang),
                                date=self.day(best.day), note=best.note or self.t(f"result_{best.result}")))
        said_yes = [v for v in self.own.visits if v.neighbour and pid in v.accepted]
        if said_yes:
            parts.append(self.t("pitch_neighbour_yes", date=self.day(said_yes[-1].day)))
        return " ".join(parts) or self.t("pitch_generic", crop=self.crop(crop))

    def _current_problems(self) -> tuple[str, list[str]] | None:
        """Return the crop and the problems of the farmer's latest visit that named any, unless its outcome
        says they were controlled (then nothing is current)."""
        seen = [v for v in self.own.visits if v.problems]
        if not seen:
            return None
        solved = {o.visit_id for o in self.own.outcomes if o.result == "controlled"}
        return None if seen[-1].visit_id in solved else (seen[-1].crop, seen[-1].problems_on(seen[-1].crop))

    def _for_current_problems(self, blocked: set[str], scores: dict[str, float]) -> list[str]:
        """Return catalogue products labelled for the crop and the problems the farmer has now, ordered by what
        memory says worked (for him, then nearby), then cheapest first."""
        current = self._current_problems()
        if current is None:
            return []
        crop, problems = current
        order = {"budget": 0, "standard": 1, "premium": 2}
        fits = [p for p in self.book.products.values() if crop in p.dosage and set(p.problems) & set(problems)
                and p.id not in blocked and scores.get(p.id, 0.0) >= 0]
        first = {problem: i for i, problem in enumerate(problems)}
        fits.sort(key=lambda p: (min(first[x] for x in p.problems if x in first), -scores.get(p.id, 0.0),
                                 order[p.tier], p.price_rs, p.id))
        return [p.id for p in fits]

    def _problems_on(self, crop: str) -> list[str]:
        """The problems memory has seen on one of the farmer's crops: his own visits and outcomes (latest first),
        then visits nearby of the same crop."""
        own = [p for v in reversed(self.own.visits) for p in v.problems_on(crop)]
        done = [o.issue for o in reversed(self.own.outcomes) if o.crop == crop and o.issue]
        near = [v.issue for v in reversed(self.similar.visits) if v.crop == crop and v.issue]
        return list(dict.fromkeys(own + done + near))

    def _registered_problems(self, crop: str) -> list[str]:
        return [i.id for i in self.book.issues.values() if crop in i.crops]

    def _targets(self, pid: str) -> list[str]:
        """The farmer's crops the product's label covers for a problem seen on that crop (its catalogue target);
        none means the product is never suggested, whatever its history."""
        product = self.book.products[pid]
        return [c for c in self.farmer.crops if c in product.dosage and set(product.problems) & set(self._problems_on(c))]

    def _target_crop(self, pid: str) -> str:
        """The crop a past product is pitched for: where it was used, when its label covers a problem seen there."""
        targets = self._targets(pid)
        used = self._crop_for(pid)
        return used if used in targets or not targets else targets[0]

    def products(self) -> list[DraftProduct]:
        crops = self.farmer.crops
        blocked = set(self._rejected_for_good()) | set(self._failed_for_him())
        scores = self._scores()
        current = self._for_current_problems(blocked, scores)
        past = sorted(
            (pid for pid, score in scores.items() if score > 0 and pid not in blocked and pid in self.book.products
             and self._targets(pid)),
            key=lambda pid: (-scores[pid], min(crops.index(c) for c in crops if c in self.book.products[pid].dosage),
                             self.book.products[pid].price_rs),
        )
        ranked = list(dict.fromkeys(current + past))[:3]
        if ranked:
            now = self._current_problems()
            return [DraftProduct(id=pid, pitch=self._pitch(pid, self._crop_for(pid)),
                                 crop=now[0] if now and pid in current else self._target_crop(pid))
                    for pid in ranked]
        # Nothing in memory to go by: the cheapest product labelled for a problem seen on the crop (his or nearby),
        # else for a problem the issue register gives that crop: always the label's own crop and target.
        generic: list[DraftProduct] = []
        options = {c: [self.book.products[pid] for pid in dict.fromkeys(
            p.id for problem in self._problems_on(c) or self._registered_problems(c)
            for p in self.book.products_for(c, problem) if p.id not in blocked)] for c in crops}
        while len(generic) < 3 and any(options.values()):
            for crop in crops:
                if options[crop] and len(generic) < 3:
                    product = options[crop].pop(0)
                    if all(g.id != product.id for g in generic):
                        generic.append(DraftProduct(id=product.id, crop=crop,
                                                    pitch=self.t("pitch_generic", crop=self.crop(crop))))
        return generic

    def checks(self) -> list[str]:
        lines = []
        for crop in self.farmer.crops:
            seen = [v for v in self.own.visits if v.crop == crop and v.issue]
            if seen:
                last = seen[-1]
                lines.append(self.t("check_return", crop=self.crop(crop), issue=self.book.issue_name(last.issue, self.lang),
                                    date=self.day(last.day), extent=self._extent(last.severity_pct)))
        recent = [v for v in self.similar.visits if v.issue and v.day >= self.as_of - timedelta(days=NEARBY_DAYS)]
        grouped: dict[tuple[str, str], list[VisitFact]] = defaultdict(list)
        for visit in recent:
            grouped[(visit.crop, visit.issue)].append(visit)
        for (crop, issue), visits in sorted(grouped.items(), key=lambda kv: -len(kv[1])):
            days = ", ".join(self.day(v.day) for v in sorted(visits, key=lambda v: v.day, reverse=True)[:3])
            lines.append(self.t("check_nearby", crop=self.crop(crop), village=self.book.village_name(self.farmer.village, self.lang),
                                issue=self.book.issue_name(issue, self.lang), count=len({v.farmer_id for v in visits}), dates=days))
        return lines or [self.t("check_generic")]

    def confidence(self) -> Confidence:
        if len(self.own.visits) >= 2 and self.own.outcomes:
            return "high"
        if self.own.visits or self.own.outcomes or self.similar.outcomes:
            return "medium"
        return "low"

    def draft(self) -> BriefDraft:
        return BriefDraft(claims=self.claims(), products=self.products(), avoid=self.avoid(),
                          checks=self.checks(), confidence=self.confidence())
