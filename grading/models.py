"""Submissions: every answer a student typed, stored before it is graded, and its verdict."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.content_cache import VersionedQuerySet
from courses.models import Course, Exercise, Part


class Submission(models.Model):
    class Outcome(models.TextChoices):
        """One vocabulary for the checkers' verdicts and the stored states: "pending" means
        not graded yet (or waiting for its lab run), "review" that a person decides."""

        PENDING = "pending", _("Awaiting grading")
        CORRECT = "correct", _("Correct")
        PARTIAL = "partial", _("Partly correct")
        INCORRECT = "incorrect", _("Incorrect")
        INVALID = "invalid", _("Not understood (no attempt used)")
        REVIEW = "review", _("Awaiting review")
        ERROR = "error", _("Grader error (answer kept)")

    #: The outcomes that carry a score from grading (what the gradebook and LMS see).
    GRADED_OUTCOMES: tuple[str, ...] = (Outcome.CORRECT, Outcome.PARTIAL, Outcome.INCORRECT)

    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="submissions"
    )
    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="submissions")
    part = models.ForeignKey(Part, on_delete=models.PROTECT, related_name="submissions")
    variant_seed = models.BigIntegerField(null=True, blank=True)
    raw_answer = models.TextField(help_text="exactly as typed")
    canonical = models.TextField(blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    score = models.FloatField(null=True, blank=True)
    feedback = models.TextField(blank=True)
    misconception = models.CharField(max_length=60, blank=True)
    grader_version = models.CharField(max_length=40, blank=True)
    answer_key = models.CharField(
        max_length=64, blank=True,
        help_text="digest of what makes two answers the same (repeated-answer check); "
                  "blank for unreadable answers")
    counts_as_attempt = models.BooleanField(default=False)
    grading_failures = models.PositiveSmallIntegerField(
        default=0, help_text="times in a row the grader failed on this answer (bounds retries)")
    created_at = models.DateTimeField(auto_now_add=True)
    graded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["course", "part", "student"]),
            models.Index(fields=["student", "created_at"]),
            models.Index(fields=["course", "id"], name="submission_course_keyset"),
            models.Index(fields=["student", "part", "answer_key"],
                         name="submission_repeat_check"),
            # Small partial indexes for the pages that read answers by kind: the review queue
            # and the misconception counts (only the rows they read are indexed).
            models.Index(fields=["course", "created_at", "id"], name="submission_to_review",
                         condition=models.Q(outcome="review")),
            models.Index(fields=["course", "misconception", "part", "student"],
                         name="submission_tagged",
                         condition=models.Q(counts_as_attempt=True) & ~models.Q(misconception="")),
            # Covering for the wrong-answer distributions (instructor/statistics.py): read
            # with an index-only scan instead of the whole table.
            models.Index(fields=["course", "part", "canonical", "misconception", "student"],
                         name="submission_wrong_answers",
                         condition=models.Q(counts_as_attempt=True,
                                            outcome__in=["incorrect", "partial"])),
        ]

    def __str__(self) -> str:
        return f"{self.student} {self.part}: {self.raw_answer[:30]!r} ({self.outcome})"


# --- What course staff change: reviews, overrides, deadlines (reviews.py, overrides.py, deadlines.py)


class Review(models.Model):
    """A person's grade for one submission (free answers the checker leaves to a reviewer).

    Every review is kept; the submission carries the latest one's score and outcome.
    """

    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="reviews")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reviews_given"
    )
    score = models.FloatField(help_text="fraction (0..1) of the part's points")
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"review of {self.submission_id} by {self.reviewer_id}: {self.score:g}"


class GradeOverride(models.Model):
    """An audited change to a student's grade on a part: the latest one per part applies.

    `score` None clears earlier overrides (the computed best score applies again).
    """

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="grade_overrides")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="grade_overrides"
    )
    part = models.ForeignKey(Part, on_delete=models.PROTECT, related_name="grade_overrides")
    score = models.FloatField(null=True, blank=True, help_text="fraction (0..1) of the points")
    reason = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="grade_overrides_made"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["course", "student", "part"])]

    def __str__(self) -> str:
        return f"override {self.student_id}/{self.part_id}: {self.score}"


class Deadline(models.Model):
    """When an exercise closes in a course; answers after it are refused."""

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="deadlines")
    exercise = models.ForeignKey(Exercise, on_delete=models.PROTECT, related_name="deadlines")
    due_at = models.DateTimeField()
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["course", "exercise"], name="one_deadline_per_exercise")
        ]

    def __str__(self) -> str:
        return f"{self.exercise_id} due {self.due_at:%Y-%m-%d %H:%M}"


class DeadlineExtension(models.Model):
    """A later deadline for one student on one exercise of a course."""

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="extensions")
    exercise = models.ForeignKey(Exercise, on_delete=models.PROTECT, related_name="extensions")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="extensions"
    )
    due_at = models.DateTimeField()
    reason = models.TextField(blank=True)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["course", "exercise", "student"],
                                    name="one_extension_per_student_exercise")
        ]

    def __str__(self) -> str:
        return f"{self.student_id} {self.exercise_id} until {self.due_at:%Y-%m-%d %H:%M}"


class DeadlinePolicy(models.Model):
    """How a course's deadlines work: the time zone they are set and shown in, whether late
    answers are taken and at what cost, and whether TAs grant extensions (none: UTC, late
    answers refused, instructors only)."""

    class Late(models.TextChoices):
        REFUSED = "refused", _("Refused after the deadline")
        PER_DAY = "per_day", _("Accepted, losing a share of the score per day late")
        FLAT = "flat", _("Accepted, losing one flat share of the score")
    course = models.OneToOneField(Course, on_delete=models.PROTECT, related_name="deadline_policy")
    time_zone = models.CharField(max_length=64, default="UTC",
                                 help_text="IANA name, e.g. Europe/London")
    late = models.CharField(max_length=8, choices=Late.choices, default=Late.REFUSED)
    late_share = models.FloatField(default=0.0, help_text="share of the score lost (0..1), "
                                                          "per day (or part of one) or flat")
    late_days = models.PositiveIntegerField(default=0, help_text=(
        "days after the deadline late answers are taken"))
    tas_grant_extensions = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = VersionedQuerySet.as_manager()

    def __str__(self) -> str:
        return f"deadlines of {self.course_id}: {self.time_zone}, late {self.late}"


class DefaultVariant(models.Model):
    """A student who gets every exercise's default variant in a course: the module's own
    numbers (0.85 and 40 steps, ...) instead of numbers drawn from a seed.

    The demo's first student has one, so that the module's worked answers are theirs too.
    """

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="+")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["course", "student"], name="one_default_variant")
        ]

    def __str__(self) -> str:
        return f"{self.student_id} uses the default variant in {self.course_id}"


# --- Progress kept on write (progress.py): what the dashboard and gradebook read


class PartProgress(models.Model):
    """Where one student stands on one part of a course, kept in step with its submissions
    and overrides by grading/progress.py in the transaction that changes them (and rebuilt
    exactly from them by `manage.py progress_rebuild`)."""

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="+")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="part_progress")
    part = models.ForeignKey(Part, on_delete=models.PROTECT, related_name="+")
    computed_best = models.FloatField(null=True, blank=True,
                                      help_text="best graded score (fraction), before overrides")
    best_score = models.FloatField(null=True, blank=True,
                                   help_text="the score that counts: an override, else computed")
    overridden = models.BooleanField(default=False)
    attempts = models.PositiveIntegerField(default=0)
    submissions = models.PositiveIntegerField(default=0)
    pending = models.PositiveIntegerField(default=0, help_text="awaiting a reviewer or a lab")
    awaiting_review = models.PositiveIntegerField(default=0)
    ungraded = models.PositiveIntegerField(default=0, help_text="stored, not graded yet")
    solved = models.BooleanField(default=False, help_text="a correct answer is stored")
    correct = models.BooleanField(default=False, help_text="solved, or overridden to full marks")
    to_correct = models.PositiveIntegerField(
        default=0, help_text="counted attempts up to the first correct one (0: none)")
    solved_at = models.DateTimeField(null=True, blank=True)
    last_submitted_at = models.DateTimeField(null=True, blank=True)
    changed_at = models.DateTimeField(null=True, blank=True,
                                      help_text="latest grading or override (updated_since)")
    last_wrong_key = models.TextField(blank=True,
                                      help_text="canonical form of the latest wrong answer")
    last_wrong_misconception = models.CharField(max_length=60, blank=True)
    wrong_answers = models.JSONField(
        default=dict, blank=True,
        help_text="counted wrong answers by wrong_answer_digest(misconception, canonical)")
    variant_seed = models.BigIntegerField(null=True, blank=True,
                                          help_text="the variant the student answered")
    variant_key = models.CharField(max_length=32, blank=True,
                                   help_text="digest of that variant's drawn parameters")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["course", "student", "part"],
                                               name="one_progress_per_student_part")]
        indexes = [models.Index(fields=["course", "part", "best_score"],
                                name="part_progress_by_score")]

    def __str__(self) -> str:
        return f"{self.student_id} {self.part_id}: {self.best_score}"


class StudentProgress(models.Model):
    """One student's totals in a course (over its active parts), kept with PartProgress:
    what the dashboard sorts and pages the class by."""

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="+")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="course_progress")
    total = models.FloatField(default=0.0, help_text="points earned over the active parts")
    attempts = models.PositiveIntegerField(default=0)
    parts_solved = models.PositiveIntegerField(default=0)
    awaiting_review = models.PositiveIntegerField(default=0)
    last_activity = models.DateTimeField(null=True, blank=True)
    changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["course", "student"],
                                               name="one_progress_per_student_course")]
        indexes = [models.Index(fields=["course", "total"], name="student_progress_by_total"),
                   models.Index(fields=["course", "changed_at", "student"],
                                name="student_progress_changed")]

    def __str__(self) -> str:
        return f"{self.student_id} in {self.course_id}: {self.total:g}"


class WrongAnswerCount(models.Model):
    """How many counted wrong answers to a course's part read as one canonical form with one
    misconception tag, and from how many students: the sum of the PartProgress rows'
    `wrong_answers`, kept in the transaction that changes them (grading/wrong_answer_counts.py)
    and rebuilt with them. Counts every member who answered; readers subtract those who are
    not active students."""

    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="+")
    part = models.ForeignKey(Part, on_delete=models.PROTECT, related_name="+")
    digest = models.CharField(max_length=32, help_text="wrong_answer_digest(misconception, canonical)")
    misconception = models.CharField(max_length=60, blank=True)
    canonical = models.TextField(blank=True)
    answers = models.IntegerField(default=0)
    students = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["course", "part", "digest"],
                                               name="one_count_per_wrong_answer")]
        indexes = [models.Index(fields=["course", "part", "-answers"],
                                name="wrong_answer_count_by_answers")]

    def __str__(self) -> str:
        return f"{self.part_id} {self.canonical!r}: {self.answers}"
