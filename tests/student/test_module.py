"""Course pages: sign-in (rate limited), the home page with progress, the module page with its
figures in a constant number of queries; other courses are 404."""

import html
import re
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

from courses.models import Enrollment, Part
from grading.services import submission_create
from labs.simulations.word_vectors import angle_degrees
from tests.factories import TEST_PASSWORD, EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_home_requires_sign_in(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_student_signs_in_and_sees_their_course(client, alice, course):
    response = client.post(reverse("login"), {"username": "alice", "password": TEST_PASSWORD})
    assert response.status_code == 302
    home = client.get("/")
    assert course.title in home.content.decode()


def test_module_page_renders_every_section_with_mathml(client, alice, course):
    client.force_login(alice)
    page = client.get(reverse("course-module", args=[course.slug])).content.decode()
    for number in ("5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7"):
        assert f'id="s-{number}"' in page
    assert "<math" in page
    assert "$$" not in page


def test_every_formula_on_the_module_5_page_has_a_text_alternative(client, alice, course):
    """WCAG 1.1.1: each <math> of the module's text carries its TeX source as `alttext`."""
    client.force_login(alice)
    page = client.get(reverse("module-page", args=[course.slug, "module-05"])).content.decode()
    formulas = re.findall(r"<math\b[^>]*>", page)
    assert len(formulas) > 20
    missing = [tag for tag in formulas if not re.search(r'\balttext="[^"]+"', tag)]
    assert missing == []


def test_module_page_of_another_course_is_404(client, alice, other_course):
    client.force_login(alice)
    assert client.get(reverse("course-module", args=[other_course.slug])).status_code == 404


# --- the module page: figures, progress, speed -------------------------------------------

#: With the session, the user and the content cached (core/content_cache.py): the module
#: page selector's queries (tests/student/test_selectors.py), whether the student has the
#: module's own numbers (the default variant), and the live session banner
MODULE_PAGE_QUERIES = 12


def _module_url(course) -> str:
    return reverse("course-module", args=[course.slug])


def _answer(student, course, slug, key, raw):
    part = Part.objects.select_related("exercise").get(exercise__slug=slug, key=key)
    return submission_create(student=student, course=course, part=part, raw_answer=raw)


@pytest.mark.parametrize("attempts", [1, 30])
def test_module_page_renders_in_a_constant_number_of_queries(
    client, alice, course, attempts, django_assert_num_queries
):
    _answer(alice, course, "predict-analogy", "endpoint", "queen")
    for number in range(attempts):
        _answer(alice, course, "extend-bottleneck", "explanation", f"Attempt {number}.")
        _answer(alice, course, "apply-1-gradient-bound", "bound", f"0.85^({number}")
    client.force_login(alice)
    client.get(_module_url(course))  # the caches warm (session, user, content)
    with django_assert_num_queries(MODULE_PAGE_QUERIES):
        response = client.get(_module_url(course))
    assert response.content.decode().count("Attempt ") >= attempts


def test_home_lists_progress_per_section(client, alice, course):
    _answer(alice, course, "apply-2-sequential-steps", "attention_steps", "1")
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert "5.3 <span>No Parallelism Across Time</span>" in page  # English in an English page
    assert "1 of 2" in page


def test_figure_5_1_shows_the_chosen_pair_and_its_angle_without_javascript(client, alice, course):
    client.force_login(alice)
    page = client.get(_module_url(course), {"a": "king", "b": "queen"}).content.decode()
    assert f"is <strong>{angle_degrees('king', 'queen'):.0f}°</strong>" in page
    assert '<option value="king" selected>' in page
    assert 'role="img"' in page and "<desc" in page


def test_figure_5_6_lists_the_chosen_rows_weights_without_javascript(client, alice, course):
    client.force_login(alice)
    page = client.get(_module_url(course), {"row": "4"}).content.decode()
    panel = page[page.index('data-row-panel="4"'):]
    panel = panel[:panel.index("</div>")]
    assert "hidden" not in panel.split(">")[0]
    assert "zone" in panel and "Area: 0.8" in panel
    assert 'aria-current="true">zone</a>' in page


def test_unknown_figure_choices_fall_back_to_the_defaults(client, alice, course):
    client.force_login(alice)
    response = client.get(_module_url(course), {"a": "<script>", "b": "dog", "row": "999999"})
    assert response.status_code == 200
    assert "<script>" not in response.content.decode()
    page = response.content.decode()
    assert '<option value="cat" selected>' in page and '<option value="dog" selected>' in page


def test_figures_wait_for_the_prediction_of_their_section(client, alice, course):
    client.force_login(alice)
    page = client.get(_module_url(course)).content.decode()
    assert page.count('<details class="reveal"') == 2
    _answer(alice, course, "predict-analogy", "endpoint", "queen")
    page = client.get(_module_url(course)).content.decode()
    assert page.count('<details class="reveal"') == 1


def _before_fold(page: str, slug: str) -> str:
    """The page up to the figure's fold (what shows before the student opens it)."""
    return page[:page.index(f'id="reveal-{slug}"')]


def test_what_describes_a_hidden_figure_is_revealed_with_it(client, alice, course):
    """Issue 25 item 2: caption, instructions and "In words" of a figure that shows the answer
    to a prediction stay folded with it; once the prediction is locked, they show in the same
    order as before."""
    from courses.models import Figure

    client.force_login(alice)
    page = html.unescape(client.get(_module_url(course)).content.decode())
    for figure in Figure.objects.filter(slug__in=["direction-carries-meaning", "alignment-grid"]):
        before = _before_fold(page, figure.slug)
        section = before[before.rindex(f'id="s-{figure.section.number}"'):]
        for text in (figure.instructions, figure.caption, figure.in_words):
            assert text not in section, text
        folded = page[page.index(f'id="reveal-{figure.slug}"'):]
        folded = folded[:folded.index("</figure>")]
        for text in (figure.instructions, figure.caption, figure.in_words):
            assert text in folded, text
    _answer(alice, course, "predict-analogy", "endpoint", "queen")
    page = html.unescape(client.get(_module_url(course)).content.decode())
    assert 'id="reveal-direction-carries-meaning"' not in page
    assert "the step from man to woman, added to king, lands near queen" in page


def test_section_5_2_draws_the_hidden_state_chain_with_its_text_alternative(client, alice,
                                                                          course):
    """Issue 25 item 6: the flowchart its "In words" describes, one step per token."""
    client.force_login(alice)
    page = client.get(_module_url(course)).content.decode()
    section = page[page.index('id="s-5.2"'):page.index('id="s-5.3"')]
    assert 'id="figure-hidden-state-chain"' in section
    svg = section[section.index("<svg"):section.index("</svg>")]
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert svg.count('<g class="step">') == 3
    assert "Step 1 reads the token" in svg and "writes the state h3" in svg
    assert "In words.</strong> <span>The hidden state passes along a chain" in section
    body = section[:section.index('id="figure-hidden-state-chain"')]
    assert "The hidden state passes along a chain" not in body  # said once, by the figure


# --- signing in ----------------------------------------------------------------------------

def _sign_in(client, username, password, address="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=address)


@pytest.fixture
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_sign_in_is_refused_after_five_failures_even_with_the_right_password(
    client, alice, empty_cache
):
    for _ in range(4):
        response = _sign_in(client, "alice", "wrong")
        assert "didn't match" in response.content.decode()
    assert "Too many failed sign-ins" in _sign_in(client, "alice", "wrong").content.decode()
    response = _sign_in(client, "alice", TEST_PASSWORD)
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_limit_is_per_username_and_address(client, alice, bob, empty_cache):
    for _ in range(5):
        _sign_in(client, "alice", "wrong")
    assert _sign_in(Client(), "bob", TEST_PASSWORD).status_code == 302
    assert _sign_in(Client(), "alice", TEST_PASSWORD, address="10.0.0.2").status_code == 302


def test_a_successful_sign_in_forgets_earlier_failures(client, alice, empty_cache):
    for _ in range(4):
        _sign_in(client, "alice", "wrong")
    assert _sign_in(Client(), "alice", TEST_PASSWORD).status_code == 302
    for _ in range(4):
        _sign_in(client, "alice", "wrong")
    assert _sign_in(Client(), "alice", TEST_PASSWORD).status_code == 302


@override_settings(SIGN_IN_WINDOW_SECONDS=1)
def test_the_window_passes(client, alice, empty_cache):
    for _ in range(5):
        _sign_in(client, "alice", "wrong")
    assert "Too many" in _sign_in(client, "alice", TEST_PASSWORD).content.decode()
    time.sleep(1.2)  # the counts expire with the window
    assert _sign_in(Client(), "alice", TEST_PASSWORD).status_code == 302


def test_sign_in_form_needs_its_csrf_token(alice, empty_cache):
    client = Client(enforce_csrf_checks=True)
    assert _sign_in(client, "alice", TEST_PASSWORD).status_code == 403


def test_sign_out_is_a_post_with_csrf(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'action="/accounts/logout/"' in page and "csrfmiddlewaretoken" in page
    assert client.post(reverse("logout")).status_code == 403


# --- static files ---------------------------------------------------------------------------

class GzipManifestStorage(CompressedManifestStaticFilesStorage):
    """The service's static storage with gzip only: the brotli copies of the 9 MB of API-docs
    bundles took ~50 s of CPU a run, and the test asserts the gzip copy (the image build
    runs the real storage, brotli included)."""

    def create_compressor(self, **kwargs: Any) -> Compressor:
        return Compressor(**{**kwargs, "use_brotli": False})


MANIFEST_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": f"{__name__}.GzipManifestStorage"},
}


def test_the_service_stores_static_files_compressed_under_hashed_names():
    from config.settings import base

    assert base.STORAGES["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage")


def test_static_files_get_hashed_names_and_far_future_caching(tmp_path, rf):
    from django.core.management import call_command
    from django.templatetags.static import static
    from whitenoise.middleware import WhiteNoiseMiddleware

    with override_settings(STATIC_ROOT=tmp_path, STORAGES=MANIFEST_STORAGES, DEBUG=False):
        call_command("collectstatic", "--noinput", verbosity=0)
        url = static("grader.js")
        assert re.fullmatch(r"/static/grader\.[0-9a-f]{12}\.js", url)
        middleware = WhiteNoiseMiddleware(lambda request: HttpResponse(status=404))
        response = middleware(rf.get(url, HTTP_ACCEPT_ENCODING="gzip"))
        assert response.status_code == 200
        assert response["Cache-Control"] == "max-age=315360000, public, immutable"
        assert response["Content-Encoding"] == "gzip"


# --- staff reach the dashboard from the pages they land on (issue 11, item 11) -------------

def _links(page: str) -> dict[str, str]:
    """Link text -> href of every link of a page."""
    return {html.unescape(re.sub(r"<[^>]+>", "", text)).strip(): href
            for href, text in re.findall(r'<a [^>]*href="([^"]+)"[^>]*>(.*?)</a>', page, re.S)}


@pytest.mark.parametrize("role", [Enrollment.Role.INSTRUCTOR, Enrollment.Role.TA])
def test_staff_see_a_dashboard_link_on_the_home_page_and_the_course_page(client, course, role):
    member = UserFactory(username="staff")
    EnrollmentFactory(user=member, course=course, role=role)
    client.force_login(member)
    dashboard = reverse("dashboard:overview", args=[course.slug])
    home = client.get("/").content.decode()
    assert _links(home).get("Dashboard") == dashboard
    assert f"You are: {role.label}" in home
    module = client.get(_module_url(course)).content.decode()
    assert _links(module).get("Dashboard") == dashboard
    assert client.get(dashboard).status_code == 200


def test_students_see_their_role_and_no_dashboard_link(client, alice, course):
    client.force_login(alice)
    home = client.get("/").content.decode()
    assert "You are: Student" in home and "Dashboard" not in _links(home)
    assert "Dashboard" not in _links(client.get(_module_url(course)).content.decode())


def test_the_course_list_shows_the_role_in_each_course(client, course, other_course):
    member = UserFactory(username="both")
    EnrollmentFactory(user=member, course=course, role=Enrollment.Role.TA)
    EnrollmentFactory(user=member, course=other_course, role=Enrollment.Role.STUDENT)
    client.force_login(member)
    home = client.get("/").content.decode()
    spring, autumn = home.index(other_course.title), home.index(course.title)
    assert "You are: Teaching assistant" in home[autumn:spring]
    assert "You are: Student" in home[spring:]
    assert _links(home).get("Dashboard") == reverse("dashboard:overview", args=[course.slug])


def test_the_module_page_shows_the_student_s_own_numbers_above_each_question(
    client, alice, course
):
    from courses.models import Exercise
    from grading.variant_assignment import variant_for

    client.force_login(alice)
    page = client.get(_module_url(course)).content.decode()
    article = page[page.index('id="exercise-apply-1-gradient-bound"'):]
    article = article[:article.index("</article>")]
    params = variant_for(student=alice, course=course,
                         exercise=Exercise.objects.get(slug="apply-1-gradient-bound")).params
    numbers = article[article.index('class="your-numbers"'):article.index('class="prompt"')]
    assert "Your numbers" in numbers
    assert f'data-name="sigma">{params["sigma"]}</strong>' in numbers
    assert f'data-name="steps">{params["steps"]}</strong>' in numbers
