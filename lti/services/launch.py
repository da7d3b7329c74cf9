"""What an accepted launch changes: the platform's records (django-lti), the account of the
person (by issuer + sub only), their role and enrolment in the course that the LMS context is,
and where they go next."""

import hashlib
import logging
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.utils.text import slugify
from lti_tool.models import LtiContext, LtiLaunch, LtiResourceLink, LtiUser
from lti_tool.utils import sync_data_from_launch

from core.queueing import task_send_on_commit
from courses.models import Course, Enrollment, Module
from courses.services import course_create, enrollment_join
from lti.ags.deliveries import score_deliveries_queue_for_student
from lti.models import CourseLink, ResourceTarget
from lti.roles import course_role

logger = logging.getLogger("lti.launch")


class ModuleNotInstalled(Exception):
    """The module LTI courses are made of (LTI_MODULE_SLUG) is not in the database: the
    content has not been synced on this service."""

#: Custom parameter (set by our deep-linking answer) naming what a resource link opens.
TARGET_PARAMETER = "grader_target"


@dataclass(frozen=True)
class LaunchOutcome:
    """Who launched, as what, into which course (None: the context is not set up yet), and
    what the resource link opens (None for a deep-linking request); `inactive` when their
    enrolment in the course is not active (a launch never reactivates it)."""

    user: User
    role: str
    context: LtiContext
    course: Course | None
    target: ResourceTarget | None
    #: The person's enrolment in the course is inactive (left out by the roster or by staff).
    inactive: bool = False


def _username(lti_user: LtiUser) -> str:
    digest = hashlib.sha256(
        f"{lti_user.registration.issuer}|{lti_user.registration.client_id}|{lti_user.sub}"
        .encode()).hexdigest()
    return f"lti-{digest[:20]}"


def _account(lti_user: LtiUser) -> tuple[User, bool]:
    """The account of (issuer, sub), and whether this launch linked it to the identity:
    created on the first launch, never found by e-mail; name and e-mail follow the platform's
    claims."""
    user = lti_user.auth_user
    given, family = lti_user.given_name, lti_user.family_name
    if not (given or family) and lti_user.name:
        given, _, family = lti_user.name.partition(" ")
    claims = (given[:150], family[:150], lti_user.email)
    if user is None:
        user = User(username=_username(lti_user))
        user.set_unusable_password()
    elif (user.first_name, user.last_name, user.email) == claims:
        return user, False
    user.first_name, user.last_name, user.email = claims
    user.save()
    linked = lti_user.auth_user_id != user.pk
    if linked:
        lti_user.auth_user = user
        lti_user.save(update_fields=["auth_user"])
    return user, linked


def _course_slug(context: LtiContext) -> str:
    base = slugify(context.label or context.title)[:60] or "lms-course"
    digest = hashlib.sha256(
        f"{context.deployment_id}|{context.id_on_platform}".encode()).hexdigest()[:8]
    return f"{base}-{digest}"


def _course(context: LtiContext, role: str) -> Course | None:
    """The Course the context is; on an instructor's first launch a new course of the
    module named by LTI_MODULE_SLUG (its first module: the course's other modules come from
    its content repository or the admin, and its resource links open items of any of them)."""
    link = CourseLink.objects.select_related("course").filter(context=context).first()
    if link is not None:
        return link.course
    if role != Enrollment.Role.INSTRUCTOR:
        return None
    module = Module.objects.filter(slug=settings.LTI_MODULE_SLUG).first()
    if module is None:
        logger.error("lti course not created: module %r is not installed (run sync_content)",
                     settings.LTI_MODULE_SLUG)
        raise ModuleNotInstalled(settings.LTI_MODULE_SLUG)
    course = course_create(slug=_course_slug(context),
                           title=(context.title or context.label or "LMS course")[:200],
                           module=module)
    link, created = CourseLink.objects.get_or_create(context=context, defaults={"course": course})
    if created:
        logger.info("lti course created: course=%s context=%s", course.slug, context.pk)
    return link.course


def _uuid_or_none(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text) if text else None
    except ValueError:
        return None


def _target(launch: LtiLaunch, resource_link: LtiResourceLink) -> ResourceTarget:
    """What the resource link opens: its stored target, set from our custom parameter
    (`kind:uuid`) the first time; the module when nothing says otherwise."""
    custom = launch.get_custom_claim(TARGET_PARAMETER) or ""
    kind, _, raw_uuid = custom.partition(":") if isinstance(custom, str) else ("", "", "")
    content_uuid = _uuid_or_none(raw_uuid)
    target = ResourceTarget.objects.filter(resource_link=resource_link).first()
    if kind in ResourceTarget.Kind.values and (raw_uuid == "" or content_uuid) and (
            target is None or custom):
        target, _ = ResourceTarget.objects.update_or_create(
            resource_link=resource_link,
            defaults={"kind": kind, "content_uuid": content_uuid})
    if target is None:
        target = ResourceTarget.objects.create(resource_link=resource_link,
                                               kind=ResourceTarget.Kind.MODULE)
    return target


def _roster_read_soon(context: LtiContext) -> None:
    """Ask the platform for the context's roster (at most once per LTI_ROSTER_ON_LAUNCH_SECONDS):
    a person the LMS lists again is reactivated by that sync, one it no longer lists stays out."""
    if not context.memberships_url:
        return
    if cache.add(f"lti-roster-on-launch-{context.pk}", 1, settings.LTI_ROSTER_ON_LAUNCH_SECONDS):
        task_send_on_commit("lti.nrps.tasks.roster_sync_task", context.pk)


@transaction.atomic
def launch_accept(*, launch: LtiLaunch) -> LaunchOutcome:
    """Record a validated launch: django-lti's registration data (user, context, membership,
    resource link), the person's account and enrolment with the role the LMS gives them
    (keeping the group and the activity the roster or the staff set: an inactive enrolment
    stays inactive, and the course's roster is read again soon), and the course (created on an
    instructor's first launch). Never merges accounts by e-mail.
    Raises ModuleNotInstalled (and records nothing) when that course would be created from a
    module this service does not have."""
    sync_data_from_launch(launch)
    lti_user = LtiUser.objects.select_related("registration", "auth_user").get(
        registration=launch.registration, sub=launch.get_claim("sub"))
    user, linked = _account(lti_user)
    role = course_role(launch.roles_claim or [])
    context = launch.context
    course = _course(context, role)
    inactive = False
    if course is not None:
        enrollment = enrollment_join(course=course, user=user, role=role)
        inactive = not enrollment.is_active
        if inactive and enrollment.external_id:
            _roster_read_soon(context)
        if role != Enrollment.Role.INSTRUCTOR and not enrollment.external_id:
            # The LMS's id for the person: what an NRPS roster lists them by.
            enrollment.external_id = lti_user.sub[:200]
            enrollment.save(update_fields=["external_id"])
        if linked and role != Enrollment.Role.INSTRUCTOR:
            # Work done before the LMS knew the person (e.g. enrolled by hand) goes to its
            # gradebook now that there is an identity to send it for.
            score_deliveries_queue_for_student(course=course, student=user)
    target = None
    if launch.is_resource_launch:
        target = _target(launch, launch.resource_link)
    return LaunchOutcome(user=user, role=role, context=context, course=course, target=target,
                         inactive=inactive)
