"""What a student sees of a part's spec: a whitelist, never the answer key."""

from grading.public_spec import public_spec


def test_public_spec_is_a_whitelist() -> None:
    spec = {
        "type": "choice", "points": 1, "options": [{"key": "a", "text": "A", "why": "secret"}],
        "correct": ["a"], "misconceptions": [{"answer": "b"}], "multiple": False,
        "surprise_new_key": "never shown",
    }
    assert public_spec(spec) == {"type": "choice", "points": 1, "multiple": False,
                                 "options": [{"key": "a", "text": "A"}]}
    vector = {"type": "vector", "reference": ["w1*h1", "w2*h2"], "rtol": 0.01}
    assert public_spec(vector) == {"type": "vector", "rtol": 0.01, "length": 2}
    listed = {"type": "vector", "reference": "abs(states)"}
    assert public_spec(listed, {"states": [1, 3, -1, 2]})["length"] == 4


def test_a_symbolic_part_shows_its_names_and_domain_but_not_its_reference() -> None:
    spec = {"type": "symbolic", "reference": "|x|", "variables": ["x"], "domain": "real",
            "misconceptions": [{"answer": "x", "tag": "dropped-abs", "feedback": "x < 0?"}]}
    assert public_spec(spec) == {"type": "symbolic", "variables": ["x"], "domain": "real"}


def test_students_see_the_written_form_and_infinity_rules_they_must_follow() -> None:
    from grading.public_spec import public_spec

    spec = {"type": "numeric", "reference": "2.5", "written_decimals": 2, "allow_infinity": True}
    assert public_spec(spec) == {"type": "numeric", "written_decimals": 2, "allow_infinity": True}
