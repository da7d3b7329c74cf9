"""The import report: one line per question, and the counts."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class QuestionOutcome:
    """What became of one source question: `imported`, `changed` (imported with changes)
    or `skipped` (not imported), where it was in the source and why."""

    index: int
    line: int
    qtype: str
    name: str
    status: str
    notes: tuple[str, ...] = ()
    file: str = ""

    def line_text(self) -> str:
        where = f"line {self.line}, question {self.index} ({self.qtype}) {self.name!r}"
        if self.status == "imported":
            return f"imported: {where} -> {self.file}"
        if self.status == "changed":
            return f"imported with changes: {where} -> {self.file}: " + "; ".join(self.notes)
        return f"not imported: {where}: " + "; ".join(self.notes)


@dataclass
class ImportReport:
    """Every question's outcome, in source order, and a refusal of the whole file if any."""

    outcomes: list[QuestionOutcome] = field(default_factory=list)
    refused: str = ""

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    def summary(self) -> str:
        if self.refused:
            return f"Nothing imported: {self.refused}"
        return (f"{self.count('imported') + self.count('changed')} of {len(self.outcomes)} "
                f"question(s) imported ({self.count('changed')} with changes), "
                f"{self.count('skipped')} not imported")

    def lines(self) -> list[str]:
        return [o.line_text() for o in self.outcomes] + [self.summary()]
