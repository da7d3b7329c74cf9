"""Rows a platform link needs (registration, deployment, context -> course, LMS identities),
created directly for the AGS/NRPS tests (the launch tests create them through a launch)."""

from dataclasses import dataclass

from django.contrib.auth.models import User
from lti_tool.models import Key, LtiContext, LtiDeployment, LtiLineItem, LtiRegistration, LtiUser

from courses.models import Course, Exercise
from lti.models import CourseLink
from tests.lti.lms_server import LmsServer
from tests.lti.platform_services import PlatformServices

CLIENT_ID = "grader-tool"


@dataclass
class PlatformLink:
    platform: PlatformServices
    registration: LtiRegistration
    context: LtiContext
    course: Course

    def sub(self, user: User) -> str:
        return f"sub-{user.username}"

    def identity(self, user: User) -> LtiUser:
        """Give `user` an identity on the platform (as a launch would)."""
        lti_user, _ = LtiUser.objects.get_or_create(registration=self.registration,
                                                    sub=self.sub(user),
                                                    defaults={"auth_user": user})
        return lti_user

    def line_item(self, exercise: Exercise) -> LtiLineItem:
        """A line item for the exercise, made on the platform (as deep linking would) and
        stored as the tool stores it."""
        points = sum(p.points for p in exercise.parts.all())
        url = self.platform.line_item_add(label=exercise.title, score_maximum=points,
                                          resource_id=str(exercise.uuid))
        return LtiLineItem.objects.create(context=self.context, url=url, maximum_score=points,
                                          label=exercise.title, resource_id=str(exercise.uuid))


def platform_link(server: LmsServer, course: Course, **options: object) -> PlatformLink:
    """Register the platform on `server` and link its context to `course`."""
    if not Key.objects.active().exists():
        Key.objects.generate()
    # The tool's keyset as its JWKS URL serves it, read now: the server thread has its own
    # database connection, which does not see this test's uncommitted rows.
    keyset = Key.objects.all().as_jwks()
    platform = PlatformServices(server, client_id=CLIENT_ID, jwks=lambda: keyset,
                                **options)  # type: ignore[arg-type]
    registration = LtiRegistration.objects.create(
        name="Test LMS", issuer=server.url, client_id=CLIENT_ID, auth_url=f"{server.url}/auth",
        token_url=platform.token_url, keyset_url=f"{server.url}/jwks")
    deployment = LtiDeployment.objects.create(registration=registration, deployment_id="dep-1",
                                              is_active=True)
    context = LtiContext.objects.create(
        deployment=deployment, id_on_platform="course-1", title="RNNs on the LMS",
        lineitems_url=platform.lineitems_url, memberships_url=platform.memberships_url,
        can_query_lineitems=True, can_manage_lineitems=True, can_publish_scores=True)
    CourseLink.objects.create(context=context, course=course)
    return PlatformLink(platform=platform, registration=registration, context=context,
                        course=course)


def lms_rows(course: Course, *, title: str = "LMS course") -> LtiContext:
    """A platform registration and context linked to `course`, with no server behind it (for
    tests that only need the rows: pages, privacy)."""
    registration = LtiRegistration.objects.create(
        name="LMS", issuer="https://lms.example", client_id=CLIENT_ID,
        auth_url="https://lms.example/auth", token_url="https://lms.example/token",
        keyset_url="https://lms.example/jwks")
    deployment = LtiDeployment.objects.create(registration=registration, deployment_id="d1",
                                              is_active=True)
    context = LtiContext.objects.create(
        deployment=deployment, id_on_platform="c1", title=title[:500],
        lineitems_url="https://lms.example/c1/lineitems",
        memberships_url="https://lms.example/c1/memberships")
    CourseLink.objects.create(context=context, course=course)
    return context
