"""No dashboard page or API read scans the submissions table from end to end (PostgreSQL).

Every query the pages and the API make that touches grading_submission is EXPLAINed with
`enable_seqscan = off` after ANALYZE: the planner then picks a sequential scan only when no
index can serve the query at all (its cost is made prohibitive, not forbidden), so a
"Seq Scan on grading_submission" in a plan is a missing index, whatever the table's size.
(At realistic sizes the benchmarks in tests/benchmarks measure the pages themselves.)
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from api.keys import api_key_create
from courses.models import Enrollment, Part
from tests.instructor.conftest import build_class

pytestmark = pytest.mark.django_db

PAGES = ("overview", "matrix", "statistics", "part", "misconceptions", "labs", "student",
         "reviews", "deadlines", "gradebook-csv", "submissions-csv")

#: Tables that grow with the class and its history: no page or API read may scan them.
LARGE_TABLES = ("grading_submission", "grading_partprogress", "grading_studentprogress",
                "grading_wronganswercount")


def _plans_with_a_full_scan(queries: list[dict[str, str]]) -> list[str]:
    found = []
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        try:
            for query in queries:
                sql = query["sql"]
                tables = [t for t in LARGE_TABLES if t in sql]
                if not tables or not sql.lstrip().upper().startswith("SELECT"):
                    continue
                cursor.execute(f"EXPLAIN {sql}")
                plan = "\n".join(row[0] for row in cursor.fetchall())
                if any(f"Seq Scan on {table} " in f"{plan} " or f"Seq Scan on {table}\n" in plan
                       for table in tables):
                    found.append(f"{sql}\n{plan}")
        finally:
            cursor.execute("SET enable_seqscan = on")
    return found


@pytest.fixture
def large_class(course, irene):
    if connection.vendor != "postgresql":
        pytest.skip("query plans are checked on PostgreSQL, the production database")
    build_class(course, 120, attempts=4)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return course


def _urls(course) -> list[str]:
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    student = Enrollment.objects.filter(course=course, role="student").order_by("user_id")[0]
    kwargs = {"part": {"part_id": part.pk}, "student": {"student_id": student.user_id}}
    pages = [reverse(f"dashboard:{name}", kwargs={"course_slug": course.slug, **kwargs.get(name, {})})
             for name in PAGES]
    matrix = reverse("dashboard:matrix", kwargs={"course_slug": course.slug})
    pages += [f"{matrix}?sort=total&desc=1&page=2", f"{matrix}?sort=part-{part.pk}&group=g1",
              f"{matrix}?sort=last"]
    return pages


def test_no_dashboard_page_scans_every_submission(client, large_class, irene) -> None:
    client.force_login(irene)
    for url in _urls(large_class):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
            if response.streaming:
                b"".join(response.streaming_content)
        assert response.status_code == 200, url
        assert _plans_with_a_full_scan(queries.captured_queries) == [], url


def test_no_api_read_scans_every_submission(client, large_class, irene) -> None:
    token = api_key_create(course=large_class, name="LMS", role="lms", created_by=irene).token
    student = Enrollment.objects.filter(course=large_class, role="student")[0].user_id
    base = f"/api/v1/courses/{large_class.slug}"
    urls = [f"{base}/gradebook/", f"{base}/gradebook/?limit=50&after=0",
            f"{base}/gradebook/?updated_since=2020-01-01T00:00:00Z",
            f"{base}/gradebook/students/{student}/", f"{base}/submissions/",
            f"{base}/submissions/?after=0&limit=100", f"{base}/submissions/?student={student}",
            f"{base}/submissions/?student={student}&after=0"]
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code == 200, url
        assert _plans_with_a_full_scan(queries.captured_queries) == [], url


def test_the_check_sees_a_query_no_index_serves(large_class) -> None:
    unindexed = {"sql": "SELECT id FROM grading_submission WHERE feedback = 'x'"}
    assert _plans_with_a_full_scan([unindexed])
