"""Reads for live pages: the projector's state, a phone's state, the session a code opens,
and the sessions kept afterwards. Each in a fixed number of queries whatever the number of
answers (the distribution is aggregated in SQL, see live/distribution.py)."""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from core.compiled_query import CompiledQuery
from core.not_found import NotFound
from courses.models import Enrollment
from courses.selectors import course_students
from grading.lab_graded import lab_graded
from grading.models import Submission
from live.codes import normalise_code
from live.distribution import answer_text, choice_options, live_distribution, live_verdict_counts, part_kind
from live.models import LiveAnswer, LiveSession
from live.variants import live_variant


def live_room_state(*, session_id: int) -> dict[str, Any] | None:
    """The projector's JSON: state, count of answers and students, the distribution (when
    shown), what the lab measured and the verdict counts once revealed. No names. None for
    a session that does not exist."""
    session = (LiveSession.objects.select_related("part__exercise", "course")
               .filter(pk=session_id).first())
    if session is None:
        return None
    distribution = live_distribution(session=session)
    state: dict[str, Any] = {
        "version": session.version, "state": session.state, "label": session.get_state_display(),
        "count": distribution["count"],
        "students": course_students(course=session.course).count(),
        "show_distribution": session.show_distribution, "kind": distribution["kind"],
        "log": distribution["log"], "bars": distribution["bars"] if session.show_distribution else [],
        "measured": session.measured, "lab": lab_graded(session.part.spec),
        "verdicts": None,
    }
    if session.state == LiveSession.State.REVEALED:
        state["verdicts"] = live_verdict_counts(session=session)
        state["bars"] = distribution["bars"]
        state["correct"] = _correct_keys(session)
    return state


def _correct_keys(session: LiveSession) -> list[str]:
    """Choice keys that the lab (or the part's key) says are right, for marking bars."""
    spec = session.part.spec
    if part_kind(session.part) != "choice":
        return []
    if lab_graded(spec):
        texts = {text: key for key, text in choice_options(spec)}
        key = texts.get(session.measured, session.measured)
        return [key]
    return [str(k) for k in spec.get("correct") or []]


def live_session_by_code(*, code: str) -> LiveSession | None:
    """The session a join code opens, with its part (None for an unknown code)."""
    return (LiveSession.objects.select_related("part__exercise__section", "course")
            .filter(code=normalise_code(code)).first())


@dataclass(frozen=True)
class LiveQuestion:
    """The exercise's prompt and the part's prompt, their placeholders filled in."""

    question: str
    part_prompt: str


def live_question(*, session: LiveSession, student: User | None = None) -> LiveQuestion:
    """The session's question in `live_variant`'s numbers (no query for the class's)."""
    variant = live_variant(session=session, student=student)
    return LiveQuestion(question=variant.prompt(session.part.exercise.prompt),
                        part_prompt=variant.prompt(session.part.prompt or ""))


@dataclass(frozen=True)
class PhoneView:
    """What one student's phone shows of a session."""

    session: LiveSession
    enrollment: Enrollment
    answer: LiveAnswer | None  # the locked-in answer, with its submission
    last_invalid: Submission | None  # the latest unreadable attempt (its message)
    question: str  # the exercise's prompt in the session's variant (see live_variant)
    part_prompt: str  # the part's prompt, likewise
    options: list[tuple[str, str]]

    @property
    def answer_text(self) -> str:
        """The locked-in answer as the student chose it: a choice's option texts, not keys."""
        return answer_text(self.answer.submission.raw_answer if self.answer else "", self.options)

    @property
    def is_student(self) -> bool:
        return self.enrollment.role == Enrollment.Role.STUDENT

    @property
    def can_answer(self) -> bool:
        return self.is_student and self.answer is None and self.session.accepting

    @property
    def verdict_shown(self) -> bool:
        return (self.answer is not None and self.session.finished
                and self.answer.submission.outcome != Submission.Outcome.PENDING)


def live_phone_view(*, user: User | AnonymousUser, code: str) -> PhoneView | NotFound:
    """The session of `code` as `user` sees it: their locked-in answer and, once revealed,
    their own verdict. NotFound.ITEM for an unknown code, NotFound.COURSE unless `user` is
    an active member of the session's course (anonymous included)."""
    session = live_session_by_code(code=code)
    if session is None:
        return NotFound.ITEM
    if not user.is_authenticated:
        return NotFound.COURSE
    enrollment = (Enrollment.objects.filter(user=user, course=session.course, is_active=True)
                  .select_related("user").first())
    if enrollment is None:
        return NotFound.COURSE
    mine = (LiveAnswer.objects.filter(session=session, student=user)
            .select_related("submission").order_by("-pk"))
    answers = list(mine[:2])
    answer = next((a for a in answers if a.valid), None)
    invalid = next((a.submission for a in answers if not a.valid), None) if answer is None else None
    shown = live_question(session=session, student=enrollment.user)
    return PhoneView(session=session, enrollment=enrollment, answer=answer, last_invalid=invalid,
                     question=shown.question, part_prompt=shown.part_prompt,
                     options=choice_options(session.part.spec))



def live_phone_state(*, view: PhoneView) -> dict[str, Any]:
    """A phone's polling JSON: the session's state and, once revealed, the verdict."""
    from live.reveal import verdict_payload  # the same payload as the pushed one

    return {
        "version": view.session.version, "state": view.session.state,
        "label": view.session.get_state_display(), "answered": view.answer is not None,
        "verdict": verdict_payload(view.answer.submission, view.session.measured, view.options)
        if view.verdict_shown and view.answer is not None else None,
    }


def live_sessions_of_course(*, course_id: int) -> QuerySet[LiveSession]:
    """The course's sessions, newest first, each with its part and answer count (one query)."""
    return (LiveSession.objects.filter(course_id=course_id)
            .select_related("part__exercise", "opened_by")
            .annotate(answers_count=Count("answers", filter=Q(answers__valid=True)))
            .order_by("-opened_at", "-pk"))


def _open_for_student(user_id: int, course_slug: str) -> QuerySet[LiveSession]:
    student = Enrollment.objects.filter(course_id=OuterRef("course_id"), user_id=user_id,
                                        is_active=True, role=Enrollment.Role.STUDENT)
    return (LiveSession.objects.filter(course__slug=course_slug, state=LiveSession.State.OPEN)
            .filter(Exists(student)).select_related("part__exercise")
            .order_by("-opened_at", "-id")[:1])


_OPEN_FOR_STUDENT = CompiledQuery(_open_for_student, user_id=int, course_slug=str)


def live_open_for_student(*, user: User | AnonymousUser, course_slug: str) -> LiveSession | None:
    """The newest session still taking answers in the course, if `user` is one of its active
    students (for the banner on the course's pages), with its part and exercise. One
    compiled query: every course page asks, and almost always finds none."""
    if not user.is_authenticated:
        return None
    return _OPEN_FOR_STUDENT.first(user_id=user.pk, course_slug=course_slug)


def live_session_rows(*, session: LiveSession) -> QuerySet[LiveAnswer]:
    """The session's answers for its CSV, oldest first, with the submission's verdict
    (streamed; one query)."""
    return (LiveAnswer.objects.filter(session=session)
            .select_related("submission", "student").order_by("created_at", "pk"))
