"""Whether a misconception a student showed has cleared: after the student's latest answer
matching a tag, the next CLEAR_AFTER parts carrying the same tag (parts that list it among
their misconceptions) that the student first tried were right at the first attempt. Until
then the tag is open. Counted per tag for the class and listed per student, from three
aggregate queries whatever the size of the class."""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from django.db.models import Max, Min, Q

from courses.models import Course, Part
from courses.selectors import course_students
from grading.checkers.base import misconception_list
from grading.checkers.carried import CARRIED_TAG
from grading.misconception_labels import course_misconception_labels
from grading.models import Submission

#: Parts carrying the tag, right at the first attempt, that clear it.
CLEAR_AFTER = 2


@dataclass(frozen=True)
class FirstTry:
    """A student's first counted attempt at a part: when, and whether it was right."""

    part_id: int
    at: datetime
    right: bool


@dataclass(frozen=True)
class TagState:
    """One student's state on one tag: when it was last shown, the parts carrying it tried
    first since (in order, right or not), and whether it cleared."""

    tag: str
    shown_at: datetime
    since: tuple[bool, ...]
    label: str = ""  # the content's one-line description (open_misconceptions fills it)

    @property
    def cleared(self) -> bool:
        return len(self.since) >= CLEAR_AFTER and all(self.since[:CLEAR_AFTER])


@dataclass(frozen=True)
class TagClearing:
    """Per tag, students who showed it, of them those who cleared it, and those still open."""

    tag: str
    label: str
    showed: int
    cleared: int

    @property
    def open(self) -> int:
        return self.showed - self.cleared


def tag_states(shown: Mapping[str, datetime], tries: Iterable[FirstTry],
               carriers: Mapping[str, set[int]]) -> list[TagState]:
    """One student's state per tag shown (tag -> latest time shown), from their first tries
    and the parts carrying each tag. Pure."""
    ordered = sorted(tries, key=lambda t: t.at)
    states = []
    for tag, at in sorted(shown.items()):
        parts = carriers.get(tag, set())
        since = tuple(t.right for t in ordered if t.part_id in parts and t.at > at)
        states.append(TagState(tag=tag, shown_at=at, since=since))
    return states


def _carriers(course: Course) -> dict[str, set[int]]:
    """Tag -> the active parts of the course's modules that list it (one query)."""
    carriers: dict[str, set[int]] = defaultdict(set)
    for pk, spec in (Part.objects.active()
                     .filter(exercise__module_id__in=course.module_ids(),
                             exercise__archived_at__isnull=True).values_list("pk", "spec")):
        for item in misconception_list(spec or {}):
            if item.get("tag"):
                carriers[str(item["tag"])].add(pk)
    return carriers


def _states(course: Course, group: str = "", student_id: int | None = None,
            ) -> dict[int, list[TagState]]:
    carriers = _carriers(course)
    answers = Submission.objects.filter(course=course, counts_as_attempt=True)
    if student_id is not None:
        answers = answers.filter(student_id=student_id)
    else:
        answers = answers.filter(
            student_id__in=course_students(course=course, group=group).values("user_id"))
    tagged = answers.exclude(misconception__in=("", CARRIED_TAG))
    shown: dict[int, dict[str, datetime]] = defaultdict(dict)
    for student, tag, at in (tagged.values_list("student_id", "misconception")
                             .annotate(at=Max("created_at")).order_by()):
        shown[student][tag] = at
    parts = set().union(*carriers.values()) if carriers else set()
    tries: dict[int, list[FirstTry]] = defaultdict(list)
    # The students who showed a tag, as a subquery (a list of 50,000 ids is too many
    # parameters for SQLite).
    firsts = (answers.filter(part_id__in=parts, student_id__in=tagged.values("student_id"))
              .values_list("student_id", "part_id")
              .annotate(at=Min("created_at"),
                        right_at=Min("created_at", filter=Q(outcome=Submission.Outcome.CORRECT)))
              .order_by())
    for student, part, at, right_at in firsts:
        tries[student].append(FirstTry(part_id=part, at=at, right=right_at == at))
    return {student: tag_states(tags, tries[student], carriers)
            for student, tags in shown.items()}


def misconception_clearing(*, course: Course, group: str = "") -> list[TagClearing]:
    """Per tag shown in the class (active students, of one group if given): students who
    showed it and those who cleared it, most shown first. Four queries whatever the class."""
    labels = course_misconception_labels(course=course)
    showed: dict[str, int] = defaultdict(int)
    cleared: dict[str, int] = defaultdict(int)
    for states in _states(course, group).values():
        for state in states:
            showed[state.tag] += 1
            cleared[state.tag] += state.cleared
    return [TagClearing(tag=tag, label=labels.of(tag), showed=showed[tag], cleared=cleared[tag])
            for tag in sorted(showed, key=lambda t: (-showed[t], t))]


def open_misconceptions(*, course: Course, student_id: int) -> list[TagState]:
    """The tags the student showed and has not cleared, latest shown first, with their
    labels. Four queries."""
    labels = course_misconception_labels(course=course)
    states = _states(course, student_id=student_id).get(student_id, [])
    return sorted((replace(s, label=labels.of(s.tag)) for s in states if not s.cleared),
                  key=lambda s: s.shown_at, reverse=True)
