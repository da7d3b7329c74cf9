"""The endpoints of the load scenarios (tests/load/locustfile.py), by the request names in
Locust's statistics; apart from the locustfile so that the report imports them without Locust
(which patches the standard library with gevent when imported)."""

#: The endpoints the scenario exercises, by the request name used in Locust's statistics.
ENDPOINTS = {
    "sign_in_page": "GET /accounts/login/",
    "sign_in": "POST /accounts/login/",
    "sign_out": "POST /accounts/logout/",
    "module": "GET /courses/[c]/ (module)",
    "preview": "GET /courses/[c]/parts/[p]/preview/",
    "submit_right": "POST /courses/[c]/parts/[p]/answer/ (right)",
    "submit_wrong": "POST /courses/[c]/parts/[p]/answer/ (wrong)",
    "submit_invalid": "POST /courses/[c]/parts/[p]/answer/ (invalid)",
    "predict": "POST /courses/[c]/parts/[p]/answer/ (prediction)",
    "lab_page": "GET /courses/[c]/labs/[lab]/",
    "lab_request": "POST /courses/[c]/labs/[lab]/ (request a run)",
    "lab_status": "GET /courses/[c]/runs/[run]/status/",
    "lab_finished": "lab run: requested -> finished by a worker",
    "dashboard": "GET /courses/[c]/dashboard/",
    "dashboard_progress": "GET /courses/[c]/dashboard/progress/?page=",
    "dashboard_statistics": "GET /courses/[c]/dashboard/statistics/",
    "dashboard_misconceptions": "GET /courses/[c]/dashboard/misconceptions/",
    "dashboard_reviews": "GET /courses/[c]/dashboard/reviews/",
    "gradebook": "GET /api/v1/courses/[c]/gradebook/",
    "exam_page": "GET /courses/[c]/assessments/[quiz]/",
    "exam_start": "POST /courses/[c]/assessments/[quiz]/start/ (-> paper)",
    "exam_save": "POST /courses/[c]/attempts/[attempt]/save/ (autosave)",
    "baseline": "POST /load/baseline/ (one INSERT)",
}
#: The endpoints whose p99 decides the highest sustained rate.
SUBMIT_ENDPOINTS = ("submit_right", "submit_wrong", "submit_invalid")
