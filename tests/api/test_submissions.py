"""Submissions through the API: graded at once, refused clearly, idempotent under retries."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from api.models import IdempotencyRecord
from grading.models import Submission
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db


def url(course, tail: str = "") -> str:
    return f"/api/v1/courses/{course.slug}/submissions/{tail}"


def test_a_posted_answer_is_graded_and_the_verdict_returned(course, alice, numeric_part, client_for):
    response = client_for(alice).post(url(course), {"part": numeric_part.pk, "answer": "sigma"},
                                      format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["outcome"] == "invalid" and body["counts_as_attempt"] is False
    assert "sigma" in body["answer"]
    stored = Submission.objects.get(pk=body["id"])
    assert (stored.student, stored.raw_answer, stored.outcome) == (alice, "sigma", "invalid")


def test_a_refused_answer_is_a_409_in_the_error_shape_and_stores_nothing(
    course, alice, numeric_part, client_for
):
    client = client_for(alice)
    for n in range(numeric_part.exercise.max_attempts):
        assert client.post(url(course), {"part": numeric_part.pk, "answer": f"0.{n + 1}"},
                           format="json").status_code == 201
    refused = client.post(url(course), {"part": numeric_part.pk, "answer": "0.9"}, format="json")
    assert refused.status_code == 409
    assert refused.json() == {"code": "submission_refused",
                              "message": "You have used all your attempts for this question.",
                              "fields": {}}
    assert Submission.objects.count() == numeric_part.exercise.max_attempts


def test_bad_input_names_the_fields(course, alice, client_for):
    response = client_for(alice).post(url(course), {"part": "x"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and set(body["fields"]) == {"part", "answer"}
    response = client_for(alice).post(url(course), {"part": 999999, "answer": "1"}, format="json")
    assert response.status_code == 400 and response.json()["fields"] == {"part": ["Unknown part."]}


def test_a_retried_post_with_the_same_key_returns_the_first_result_and_counts_once(
    course, alice, numeric_part, client_for
):
    client = client_for(alice)
    body = {"part": numeric_part.pk, "answer": "0.5"}
    first = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="retry-1")
    again = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="retry-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Submission.objects.count() == 1
    # Another key with the same answer at once is a retry too (issue 26: the first copy).
    other = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="retry-2")
    assert other.json()["id"] == first.json()["id"]
    assert Submission.objects.count() == 1
    different = client.post(url(course), {"part": numeric_part.pk, "answer": "0.6"},
                            format="json", HTTP_IDEMPOTENCY_KEY="retry-3")
    assert different.json()["id"] != first.json()["id"]


def test_the_same_key_with_another_body_is_refused_with_422(course, alice, numeric_part, client_for):
    client = client_for(alice)
    client.post(url(course), {"part": numeric_part.pk, "answer": "0.5"}, format="json",
                HTTP_IDEMPOTENCY_KEY="k")
    response = client.post(url(course), {"part": numeric_part.pk, "answer": "0.6"}, format="json",
                           HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert Submission.objects.count() == 1


def test_keys_belong_to_one_caller(course, alice, bob, numeric_part, client_for):
    body = {"part": numeric_part.pk, "answer": "0.5"}
    a = client_for(alice).post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="same")
    b = client_for(bob).post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="same")
    assert a.json()["student"] == alice.pk and b.json()["student"] == bob.pk
    assert Submission.objects.count() == 2


def test_a_refusal_is_replayed_too(course, alice, numeric_part, client_for):
    client = client_for(alice)
    for n in range(numeric_part.exercise.max_attempts):
        client.post(url(course), {"part": numeric_part.pk, "answer": f"0.{n + 1}"}, format="json")
    body = {"part": numeric_part.pk, "answer": "0.9"}
    first = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="late")
    again = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="late")
    assert first.status_code == again.status_code == 409
    assert first.json() == again.json()


@pytest.fixture
def short_wait(monkeypatch) -> None:
    """Retries give up waiting for the first request after 0.1 s instead of 15 s."""
    import api.idempotency as idempotency

    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.1)


def test_a_request_still_running_with_nothing_stored_answers_409_rather_than_submitting_twice(
    course, alice, numeric_part, client_for, short_wait
):
    client = client_for(alice)
    body = {"part": numeric_part.pk, "answer": "0.5"}
    first = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="slow")
    # as if the first request were still working and had stored nothing yet
    IdempotencyRecord.objects.update(status_code=None, response=None, resource="")
    response = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="slow")
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_in_progress"
    assert Submission.objects.count() == 1 and first.status_code == 201


def test_a_retry_after_a_crash_that_stored_the_answer_answers_from_the_answer(
    course, alice, numeric_part, client_for, short_wait
):
    client = client_for(alice)
    body = {"part": numeric_part.pk, "answer": "0.5"}
    first = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="crash")
    record = IdempotencyRecord.objects.get()
    assert record.resource == f"submission:{first.json()['id']}"  # noted with the answer
    IdempotencyRecord.objects.update(status_code=None, response=None)  # died before answering

    retry = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="crash")

    assert retry.status_code == 201 and retry["Idempotent-Replayed"] == "true"
    assert retry.json()["id"] == first.json()["id"]
    assert Submission.objects.count() == 1
    assert IdempotencyRecord.objects.get().status_code == 201


def test_a_retry_after_a_crash_that_stored_nothing_does_the_work_once_the_record_is_stale(
    course, alice, numeric_part, client_for
):
    client = client_for(alice)
    body = {"part": numeric_part.pk, "answer": "0.5"}
    client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="lost")
    Submission.objects.all().delete()  # as if the process died before storing the answer
    IdempotencyRecord.objects.update(status_code=None, response=None, resource="",
                                     created_at=timezone.now() - timedelta(minutes=5))

    retry = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="lost")
    again = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="lost")

    assert retry.status_code == 201 and "Idempotent-Replayed" not in retry
    assert again.status_code == 201 and again.json()["id"] == retry.json()["id"]
    assert Submission.objects.count() == 1


def test_staff_and_keys_submit_on_a_students_behalf(course, alice, numeric_part, key_client, lms_token):
    response = key_client(lms_token).post(url(course), {"part": numeric_part.pk, "answer": "0.5",
                                                        "student": alice.pk}, format="json")
    assert response.status_code == 201 and response.json()["student"] == alice.pk


def test_lists_filter_by_student_part_and_time_and_paginate(
    course, alice, bob, numeric_part, client_for, key_client, lms_token
):
    other_part = numeric_part.exercise.module.exercises.get(slug="apply-3-context-value").parts.get()
    # Negative answers are wrong in every variant (the bound is a positive power), so no
    # answer solves the part and closes it to the later ones.
    for n in range(3):
        client_for(alice).post(url(course), {"part": numeric_part.pk, "answer": f"-0.{n + 1}"},
                               format="json")
    client_for(alice).post(url(course), {"part": other_part.pk, "answer": "1"}, format="json")
    client_for(bob).post(url(course), {"part": numeric_part.pk, "answer": "-0.1"}, format="json")
    Submission.objects.filter(raw_answer="-0.1", student=alice).update(
        created_at=timezone.now() - timedelta(days=2))

    lms = key_client(lms_token)
    assert lms.get(url(course)).json()["count"] == 5
    assert lms.get(url(course), {"student": alice.pk}).json()["count"] == 4
    assert lms.get(url(course), {"student": alice.pk, "part": numeric_part.pk}).json()["count"] == 3
    since = (timezone.now() - timedelta(days=1)).isoformat()
    assert lms.get(url(course), {"student": alice.pk, "since": since}).json()["count"] == 3

    page = lms.get(url(course), {"limit": 2}).json()
    assert page["count"] == 5 and len(page["results"]) == 2 and page["next"]
    seen = [row["id"] for row in page["results"]]
    while page["next"]:
        page = lms.get(page["next"]).json()
        seen += [row["id"] for row in page["results"]]
    assert seen == sorted(seen) and len(set(seen)) == 5
    bad = lms.get(url(course), {"since": "yesterday"})
    assert bad.status_code == 400 and "since" in bad.json()["fields"]


def test_keyset_pages_stay_stable_while_answers_come_in(
    course, alice, bob, numeric_part, client_for, key_client, lms_token
):
    for n in range(3):
        client_for(alice).post(url(course), {"part": numeric_part.pk, "answer": f"0.{n + 1}"},
                               format="json")
    lms = key_client(lms_token)
    page = lms.get(url(course), {"after": 0, "limit": 2}).json()
    assert page["count"] is None and len(page["results"]) == 2 and "after=" in page["next"]
    seen = [row["id"] for row in page["results"]]
    # An answer arrives between two pages: offsets would shift, the cursor does not.
    client_for(bob).post(url(course), {"part": numeric_part.pk, "answer": "0.1"}, format="json")
    while page["next"]:
        page = lms.get(page["next"]).json()
        seen += [row["id"] for row in page["results"]]
    assert seen == sorted(Submission.objects.values_list("pk", flat=True))
    bad = lms.get(url(course), {"after": "-1"})
    assert bad.status_code == 400 and "after" in bad.json()["fields"]


@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_with_one_key_submit_once(course, alice, numeric_part, client_for):
    if connection.vendor != "postgresql":
        pytest.skip("the race needs PostgreSQL's row locks (CI runs it there)")
    threads, responses = 6, []
    barrier = threading.Barrier(threads)
    body = {"part": numeric_part.pk, "answer": "0.5"}

    def retry() -> None:
        try:
            client = client_for(alice)
            barrier.wait()
            response = client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="race")
            responses.append((response.status_code, response.json()))
        finally:
            connection.close()

    workers = [threading.Thread(target=retry) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(responses) == threads
    assert {status for status, _ in responses} == {201}
    assert len({body["id"] for _, body in responses}) == 1
    assert Submission.objects.count() == 1


def test_old_idempotency_keys_are_forgotten(course, alice, numeric_part, client_for):
    from api.idempotency import idempotency_records_prune

    client = client_for(alice)
    body = {"part": numeric_part.pk, "answer": "0.5"}
    client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="old")
    client.post(url(course), body, format="json", HTTP_IDEMPOTENCY_KEY="new")
    IdempotencyRecord.objects.filter(key="old").update(created_at=timezone.now() - timedelta(days=8))
    assert idempotency_records_prune() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]


def test_students_never_see_the_answer_keys_misconception_tag_staff_and_keys_do(
    course, alice, irene, numeric_part, client_for, key_client, lms_token
):
    params = variant_for(student=alice, course=course, exercise=numeric_part.exercise).params
    linear = f"{params['sigma']}*{params['steps']}"
    mine = client_for(alice).post(url(course), {"part": numeric_part.pk, "answer": linear},
                                  format="json")
    assert mine.status_code == 201 and mine.json()["outcome"] == "incorrect"
    assert "misconception" not in mine.json()
    submission_id = mine.json()["id"]
    assert "misconception" not in client_for(alice).get(url(course, f"{submission_id}/")).json()
    assert all("misconception" not in row
               for row in client_for(alice).get(url(course)).json()["results"])

    staff_view = client_for(irene).get(url(course, f"{submission_id}/")).json()
    assert staff_view["misconception"] == "linear-decay"
    listed = key_client(lms_token).get(url(course), {"student": alice.pk}).json()["results"]
    assert listed[0]["misconception"] == "linear-decay"
