"""Reads of the LTI tool: where a resource link leads, what deep linking offers, the URLs an
LMS administrator pastes, and which origins may frame the tool."""

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.db.models import OuterRef, Q, Subquery, Sum
from django.urls import reverse
from django.utils import timezone
from lti_tool.models import LtiRegistration

from courses.models import Course, CourseModule, Exercise, Lab, Section
from courses.page_links import course_links, course_url
from exams.models import Assessment
from exams.scores import SCORE_MAXIMUM
from lti.models import ResourceTarget


def target_assessment(*, course: Course, target: ResourceTarget | None) -> Assessment | None:
    """The assessment a resource link's target opens in `course` (of a module the course runs,
    not archived), or None when the target is no such assessment."""
    if target is None or target.content_uuid is None \
            or target.kind != ResourceTarget.Kind.ASSESSMENT:
        return None
    return Assessment.objects.filter(uuid=target.content_uuid, module_id__in=course.module_ids(),
                                     archived_at__isnull=True).first()


def target_path(*, course: Course, target: ResourceTarget | None) -> str:
    """The student page a resource link opens in `course`: the lab's page, or the page of the
    exercise's or section's module at it (courses.page_links), whichever of the course's
    modules holds it (the course page when the target is gone, unset, or not in a module the
    course runs)."""
    course_page = course_url(course.slug)
    if target is None or target.content_uuid is None:
        return course_page
    modules = course.module_ids()
    if target.kind == ResourceTarget.Kind.LAB:
        lab = (Lab.objects.active().filter(uuid=target.content_uuid, module_id__in=modules)
               .only("slug").first())
        if lab is not None:
            return reverse("lab", kwargs={"course_slug": course.slug, "lab_slug": lab.slug})
    elif target.kind == ResourceTarget.Kind.EXERCISE:
        exercise = (Exercise.objects.active()
                    .filter(uuid=target.content_uuid, module_id__in=modules)
                    .values_list("slug", "module_id").first())
        if exercise:
            links = course_links(course, student_at=timezone.now())
            return links.exercise(exercise[1], exercise[0])
    elif target.kind == ResourceTarget.Kind.ASSESSMENT:
        assessment = target_assessment(course=course, target=target)
        if assessment is not None:
            return reverse("exams:assessment",
                           kwargs={"course_slug": course.slug, "slug": assessment.slug})
    elif target.kind == ResourceTarget.Kind.SECTION:
        section = (Section.objects.active()
                   .filter(uuid=target.content_uuid, module_id__in=modules)
                   .values_list("number", "module_id").first())
        if section:
            links = course_links(course, student_at=timezone.now())
            return links.section(section[1], section[0])
    return course_page


@dataclass(frozen=True)
class PickerItem:
    """One thing an instructor can add to the LMS course: `value` is `kind:uuid`;
    `points` is the maximum score (exercises: their points; assessments: 100, their score in
    percent; None otherwise); `module` the slug of the module holding it."""

    kind: str
    uuid: str
    title: str
    points: float | None
    section: str
    module: str = ""

    @property
    def value(self) -> str:
        return f"{self.kind}:{self.uuid}"


def _place(course: Course) -> Subquery:
    """An item's module's place in the course (CourseModule.order)."""
    return Subquery(CourseModule.objects.filter(course_id=course.pk,
                                                module_id=OuterRef("module_id"))
                    .values("order")[:1])


def picker_items(*, course: Course) -> list[PickerItem]:
    """Every module the course runs, in the course's order, each followed by its sections,
    exercises (with their points) and labs in reading order, then its quizzes and exams (by
    opening time); four queries."""
    modules = course.module_ids()  # a subquery
    items: list[PickerItem] = []
    sections = list(Section.objects.active().filter(module_id__in=modules)
                    .select_related("module").annotate(place=_place(course))
                    .order_by("place", "module_id", "order"))
    exercises = (Exercise.objects.active().filter(module_id__in=modules)
                 .select_related("section", "module")
                 .annotate(points=Sum("parts__points", filter=Q(parts__archived_at__isnull=True)))
                 .order_by("order"))
    labs = (Lab.objects.active().filter(module_id__in=modules).select_related("section", "module")
            .order_by("order"))
    by_module: dict[int, list[PickerItem]] = {}
    for assessment in (Assessment.objects.filter(module_id__in=modules, archived_at__isnull=True)
                       .select_related("module").order_by("opens_at", "slug")):
        by_module.setdefault(assessment.module_id, []).append(PickerItem(
            ResourceTarget.Kind.ASSESSMENT, str(assessment.uuid),
            f"{assessment.get_kind_display()}: {assessment.title}", SCORE_MAXIMUM, "",
            assessment.module.slug))
    by_section: dict[int, list[PickerItem]] = {s.pk: [] for s in sections}
    for exercise in exercises:
        by_section.setdefault(exercise.section_id, []).append(PickerItem(
            ResourceTarget.Kind.EXERCISE, str(exercise.uuid), exercise.title,
            float(exercise.points or 0), exercise.section.number, exercise.module.slug))
    for lab in labs:
        by_section.setdefault(lab.section_id, []).append(PickerItem(
            ResourceTarget.Kind.LAB, str(lab.uuid), lab.title, None, lab.section.number,
            lab.module.slug))
    module_id = None
    for section in sections:
        module = section.module
        if module.pk != module_id:
            items.extend(by_module.get(module_id or 0, []))
            module_id = module.pk
            items.append(PickerItem(ResourceTarget.Kind.MODULE, str(module.uuid),
                                    f"{module.number}: {module.title}", None, "", module.slug))
        items.append(PickerItem(ResourceTarget.Kind.SECTION, str(section.uuid),
                                f"{section.number} {section.title}", None, section.number,
                                module.slug))
        items.extend(by_section.get(section.pk, []))
    items.extend(by_module.get(module_id or 0, []))
    return items


@dataclass(frozen=True)
class ToolUrls:
    """The URLs an LMS administrator pastes when registering the tool."""

    jwks: str
    login: str
    launch: str
    deep_linking: str
    redirect_uris: list[str]


def tool_urls(*, base_url: str, registration: LtiRegistration | None = None) -> ToolUrls:
    """The tool's URLs under `base_url` (scheme and host); with a registration, the login
    URL carrying its uuid (needed when the platform sends no client_id at login)."""
    base = base_url.rstrip("/")
    login = (reverse("lti:login", kwargs={"registration_uuid": registration.uuid})
             if registration is not None else reverse("lti:login-any"))
    launch = base + reverse("lti:launch")
    return ToolUrls(jwks=base + reverse("lti:jwks"), login=base + login, launch=launch,
                    deep_linking=launch, redirect_uris=[launch])


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return None


def frame_ancestors() -> list[str]:
    """Origins allowed to frame the tool's LTI pages: for each active registration, its
    issuer's and auth URL's origins and the extra origins an admin listed."""
    origins: set[str] = set()
    registrations = LtiRegistration.objects.active().select_related("framing")
    for registration in registrations:
        for url in (registration.issuer, registration.auth_url):
            origin = _origin(url)
            if origin:
                origins.add(origin)
        framing = getattr(registration, "framing", None)
        if framing is not None:
            origins.update(o for o in (_origin(x) for x in framing.frame_ancestors.split()) if o)
    return sorted(origins)
