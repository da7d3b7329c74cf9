# ruff: noqa: RUF001 - Greek letters and maths symbols are the point of these tests
"""The function registry, one table row per function: every spelling reads as the function,
and its float value, high-precision value, sympy value and LaTeX agree with an independent
computation; each satisfies an identity on its domain, checked by the symbolic grader."""

import math
from fractions import Fraction

import mpmath
import pytest
import sympy
from latex2mathml.converter import convert as latex_to_mathml

from grading.checkers import grade
from grading.checkers.mathparse import (
    FUNCTIONS,
    Abs,
    Call,
    FormatError,
    evaluate,
    exact_value,
    parse,
    precise_evaluate,
    to_latex,
    to_sympy,
)
from grading.checkers.mathparse.functions import ALIASES, lookup

mp = mpmath.mp

# name: (arguments as typed, expected value from math/mpmath, expected LaTeX fragment)
VALUES = {
    "exp": ("0.5", math.exp(0.5), r"\exp"),
    "ln": ("0.5", math.log(0.5), r"\ln"),
    "log": ("8, 2", 3.0, r"\log_{2}"),
    "log10": ("1000", 3.0, r"\log_{10}"),
    "log2": ("8", 3.0, r"\log_{2}"),
    "sqrt": ("2", math.sqrt(2), r"\sqrt{2}"),
    "cbrt": ("-8", -2.0, r"\sqrt[3]"),
    "root": ("32, 5", 2.0, r"\sqrt[5]"),
    "abs": ("-3", 3.0, r"\left|"),
    "sign": ("-2", -1.0, r"\operatorname{sgn}"),
    "min": ("3, 1, 2", 1.0, r"\min"),
    "max": ("3, 1, 2", 3.0, r"\max"),
    "floor": ("-2.5", -3.0, r"\lfloor"),
    "ceil": ("2.1", 3.0, r"\lceil"),
    "factorial": ("5", 120.0, "5!"),
    "binomial": ("5, 2", 10.0, r"\binom{5}{2}"),
    "sin": ("0.5", math.sin(0.5), r"\sin"),
    "cos": ("0.5", math.cos(0.5), r"\cos"),
    "tan": ("0.5", math.tan(0.5), r"\tan"),
    "sec": ("0.5", 1 / math.cos(0.5), r"\sec"),
    "csc": ("0.5", 1 / math.sin(0.5), r"\csc"),
    "cot": ("0.5", 1 / math.tan(0.5), r"\cot"),
    "asin": ("0.5", math.asin(0.5), r"\arcsin"),
    "acos": ("0.5", math.acos(0.5), r"\arccos"),
    "atan": ("0.5", math.atan(0.5), r"\arctan"),
    "asec": ("2", math.acos(0.5), r"\operatorname{arcsec}"),
    "acsc": ("2", math.asin(0.5), r"\operatorname{arccsc}"),
    "acot": ("2", math.atan(0.5), r"\operatorname{arccot}"),
    "atan2": ("1, -1", 3 * math.pi / 4, r"\operatorname{atan2}"),
    "sinh": ("0.5", math.sinh(0.5), r"\sinh"),
    "cosh": ("0.5", math.cosh(0.5), r"\cosh"),
    "tanh": ("0.5", math.tanh(0.5), r"\tanh"),
    "sech": ("0.5", 1 / math.cosh(0.5), r"\operatorname{sech}"),
    "csch": ("0.5", 1 / math.sinh(0.5), r"\operatorname{csch}"),
    "coth": ("0.5", 1 / math.tanh(0.5), r"\coth"),
    "asinh": ("0.5", math.asinh(0.5), r"\operatorname{arsinh}"),
    "acosh": ("2", math.acosh(2), r"\operatorname{arcosh}"),
    "atanh": ("0.5", math.atanh(0.5), r"\operatorname{artanh}"),
    "asech": ("0.5", math.acosh(2), r"\operatorname{arsech}"),
    "acsch": ("2", math.asinh(0.5), r"\operatorname{arcsch}"),
    "acoth": ("2", math.atanh(0.5), r"\operatorname{arcoth}"),
    "sigmoid": ("0.5", 1 / (1 + math.exp(-0.5)), r"\sigma"),
    "relu": ("-2", 0.0, r"\operatorname{ReLU}"),
    "softplus": ("0.5", math.log1p(math.exp(0.5)), r"\operatorname{softplus}"),
}
LIST_VALUES = {  # list functions, for authors' references over list parameters
    "dot": ("w, h", 1.9), "sum": ("h", 5.0), "mean": ("h", 1.25), "len": ("h", 4.0),
}
LISTS = {"w": [0.1, 0.6, 0.2, 0.1], "h": [1, 3, -1, 2]}
# matrix functions, for authors' references over matrix parameters: (call, exact value)
MATRIX_VALUES = {
    "transpose": ("transpose(A)", [[1, 3], [2, 4]]),
    "inverse": ("inverse(A)", [["-2", "1"], ["3/2", "-1/2"]]),
    "det": ("det(A)", -2),
    "trace": ("trace(A)", 5),
    "softmax": ("softmax(Z)", [["1/2", "1/2"], ["1/2", "1/2"]]),
    "norm": ("norm(A, 1)", 6),
    "hadamard": ("hadamard(A, A)", [[1, 4], [9, 16]]),
    "outer": ("outer(u, u)", [[1, 2], [2, 4]]),
    "identity": ("identity(2)", [[1, 0], [0, 1]]),
    "zeros": ("zeros(1, 2)", [[0, 0]]),
    "ones": ("ones(2, 1)", [[1], [1]]),
}
MATRICES = {"A": sympy.ImmutableMatrix([[1, 2], [3, 4]]),
            "Z": sympy.ImmutableMatrix([[0, 0], [5, 5]]), "u": [sympy.Integer(1), sympy.Integer(2)]}

# name: an identity on the function's domain (answer, reference, variables, domain)
IDENTITIES = {
    "exp": ("exp(x + y)", "exp(x) exp(y)", ["x", "y"], "real"),
    "ln": ("ln(x y)", "ln(x) + ln(y)", ["x", "y"], "positive"),
    "log": ("log(x, b)", "ln(x)/ln(b)", ["x", "b"], "positive"),
    "log10": ("log10(x)", "log(x, 10)", ["x"], "positive"),
    "log2": ("log2(x)", "ln(x)/ln(2)", ["x"], "positive"),
    "sqrt": ("sqrt(x)^2", "x", ["x"], "positive"),
    "cbrt": ("cbrt(x)^3", "x", ["x"], "real"),
    "root": ("root(x, 5)^5", "x", ["x"], "real"),
    "abs": ("abs(x)", "sqrt(x^2)", ["x"], "real"),
    "sign": ("sign(x) abs(x)", "x", ["x"], "real"),
    "min": ("min(x, y) + max(x, y)", "x + y", ["x", "y"], "real"),
    "max": ("max(x, y)", "(x + y + |x - y|)/2", ["x", "y"], "real"),
    "floor": ("floor(x)", "-ceil(-x)", ["x"], "real"),
    "ceil": ("ceil(x + 1)", "ceil(x) + 1", ["x"], "real"),
    "factorial": ("(n+1)!", "(n+1) n!", ["n"], "positive"),
    "binomial": ("binomial(n, k)", "n!/(k!(n-k)!)", ["n", "k"], "positive"),
    "sin": ("sin(asin(x))", "x", ["x"], "real-unit"),
    "cos": ("cos(2x)", "1 - 2 sin(x)^2", ["x"], "real"),
    "tan": ("tan(x)", "sin(x)/cos(x)", ["x"], "real"),
    "sec": ("sec(x)^2", "1 + tan(x)^2", ["x"], "real"),
    "csc": ("csc(x)^2", "1 + cot(x)^2", ["x"], "real"),
    "cot": ("cot(x)", "cos(x)/sin(x)", ["x"], "real"),
    "asin": ("asin(sin(x))", "x", ["x"], "real-unit"),
    "acos": ("acos(x) + asin(x)", "pi/2", ["x"], "real-unit"),
    "atan": ("atan(x) + atan(1/x)", "pi/2", ["x"], "positive"),
    "asec": ("asec(x)", "acos(1/x)", ["x"], "positive"),
    "acsc": ("acsc(x)", "asin(1/x)", ["x"], "positive"),
    "acot": ("acot(x)", "atan(1/x)", ["x"], "positive"),
    "atan2": ("atan2(y, x)", "atan(y/x)", ["x", "y"], "positive"),
    "sinh": ("sinh(x)", "(e^x - e^-x)/2", ["x"], "real"),
    "cosh": ("cosh(x)^2 - sinh(x)^2", "1", ["x"], "real"),
    "tanh": ("tanh(x)", "sinh(x)/cosh(x)", ["x"], "real"),
    "sech": ("sech(x)", "1/cosh(x)", ["x"], "real"),
    "csch": ("csch(x)", "1/sinh(x)", ["x"], "real"),
    "coth": ("coth(x)", "cosh(x)/sinh(x)", ["x"], "real"),
    "asinh": ("asinh(x)", "ln(x + sqrt(x^2 + 1))", ["x"], "real"),
    "acosh": ("acosh(x + 1)", "ln(x + 1 + sqrt((x + 1)^2 - 1))", ["x"], "positive"),
    "atanh": ("atanh(tanh(x))", "x", ["x"], "real"),
    "asech": ("asech(1/(x + 1))", "acosh(x + 1)", ["x"], "positive"),
    "acsch": ("acsch(x)", "asinh(1/x)", ["x"], "real"),
    "acoth": ("acoth(x + 1)", "atanh(1/(x + 1))", ["x"], "positive"),
    "sigmoid": ("sigmoid(x)", "1/(1 + e^-x)", ["x"], "real"),
    "relu": ("relu(x)", "max(x, 0)", ["x"], "real"),
    "softplus": ("softplus(x) - softplus(-x)", "x", ["x"], "real"),
}
STUDENT_FUNCTIONS = [f for f in FUNCTIONS if not f.reference_only and not f.complex_only]


def test_every_function_has_a_row_in_these_tables():
    assert set(VALUES) == {f.name for f in STUDENT_FUNCTIONS}
    assert set(IDENTITIES) == {f.name for f in STUDENT_FUNCTIONS}
    assert set(LIST_VALUES) | set(MATRIX_VALUES) == \
        {f.name for f in FUNCTIONS if f.reference_only}


@pytest.mark.parametrize("name", sorted(MATRIX_VALUES))
def test_matrix_functions_work_in_references_only(name):
    call, expected = MATRIX_VALUES[name]
    expr = parse(call, variables=["A", "Z", "u"], list_functions=True)
    value = to_sympy(expr, substitutions=MATRICES)
    wanted = sympy.ImmutableMatrix(expected) if isinstance(expected, list) \
        else sympy.Integer(expected)
    assert sympy.simplify(value - wanted) == (wanted * 0)
    with pytest.raises(FormatError, match="unknown name"):
        parse(call, variables=["A", "Z", "u"])


def _spellings(function):
    for spelling in (function.name, *function.aliases):
        yield from dict.fromkeys([spelling, spelling.lower(), spelling.upper(),
                                  spelling.capitalize()])


SPELLINGS = [pytest.param(f, s, id=s) for f in STUDENT_FUNCTIONS for s in _spellings(f)]


@pytest.mark.parametrize(("function", "spelling"), SPELLINGS)
def test_every_spelling_in_any_case_reads_as_the_function(function, spelling):
    arguments = VALUES[function.name][0]
    node = parse(f"{spelling}({arguments})").node
    if function.name == "abs":
        assert isinstance(node, Abs)
    else:
        assert isinstance(node, Call) and node.func == function.name


@pytest.mark.parametrize("function", STUDENT_FUNCTIONS, ids=lambda f: f.name)
def test_float_precise_sympy_and_latex_agree_with_an_independent_value(function):
    arguments, expected, latex = VALUES[function.name]
    expr = parse(f"{function.name}({arguments})")
    assert math.isclose(evaluate(expr, {}), expected, rel_tol=1e-12, abs_tol=1e-15)
    precise = precise_evaluate(expr, {})
    assert math.isclose(float(precise.value), expected, rel_tol=1e-12, abs_tol=1e-15)
    built = to_sympy(expr)
    assert math.isclose(float(sympy.N(built, 30)), expected, rel_tol=1e-12, abs_tol=1e-15)
    rendered = to_latex(expr)
    assert latex in rendered
    assert "<math" in latex_to_mathml(rendered)


@pytest.mark.parametrize("name", sorted(LIST_VALUES))
def test_list_functions_work_in_references_only(name):
    arguments, expected = LIST_VALUES[name]
    expr = parse(f"{name}({arguments})", variables=["w", "h"], list_functions=True)
    assert math.isclose(evaluate(expr, LISTS), expected)
    substitutions = {k: [sympy.Rational(str(v)) for v in vs] for k, vs in LISTS.items()}
    assert math.isclose(float(to_sympy(expr, substitutions=substitutions)), expected)
    with pytest.raises(FormatError, match="unknown name"):
        parse(f"{name}({arguments})", variables=["w", "h"])


@pytest.mark.parametrize("name", sorted(IDENTITIES))
def test_each_function_satisfies_an_identity_on_its_domain(name):
    answer, reference, variables, domain = IDENTITIES[name]
    if domain == "real-unit":  # |x| < 1: the domain of asin/acos, checked pointwise
        for x in (-0.9, -0.3, 0.2, 0.7):
            a = evaluate(parse(answer, variables=variables), {"x": x})
            b = evaluate(parse(reference, variables=variables), {"x": x})
            assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12), (x, a, b)
            ctx_env = {"x": Fraction(x).limit_denominator(1000)}
            pa = precise_evaluate(parse(answer, variables=variables), ctx_env)
            pb = precise_evaluate(parse(reference, variables=variables), ctx_env)
            assert abs(pa.value - pb.value) < 1e-40
        return
    spec = {"type": "symbolic", "reference": reference, "variables": variables,
            "domain": domain}
    assert grade(answer, spec, {}).outcome == "correct", grade(answer, spec, {})


@pytest.mark.parametrize("name", sorted(IDENTITIES))
def test_breaking_the_identity_is_refuted(name):
    answer, reference, variables, domain = IDENTITIES[name]
    if domain == "real-unit":
        domain = "real"
    spec = {"type": "symbolic", "reference": f"{reference} + 1/100", "variables": variables,
            "domain": domain}
    assert grade(answer, spec, {}).outcome == "incorrect"


def test_aliases_are_unique_and_lowercase_keys():
    spellings = [s.lower() for f in FUNCTIONS for s in (f.name, *f.aliases)]
    assert len(spellings) == len(set(spellings))
    assert all(key == key.lower() for key in ALIASES)


@pytest.mark.parametrize(("text", "expected"), [
    ("5!", 120), ("0!", 1), ("120!/(118!·2)", 7140), ("200!/198!", 39800),
    ("binomial(10, 3)", 120), ("nCr(5, 2)", 10), ("choose(6, 0)", 1), ("binomial(3, 5)", 0),
    ("binomial(-3, 2)", 6), ("binomial(1/2, 2)", Fraction(-1, 8)),
    ("sqrt(16/9)", Fraction(4, 3)), ("cbrt(-27)", -3), ("root(1/32, 5)", Fraction(1, 2)),
    ("8^(2/3)", 4), ("abs(-2/3)", Fraction(2, 3)), ("sign(-0.5)", -1), ("floor(-7/2)", -4),
    ("ceil(7/2)", 4), ("min(3, 1/2, 2)", Fraction(1, 2)), ("max(-1, -2)", -1), ("relu(-3)", 0),
])
def test_exact_values(text, expected):
    assert exact_value(parse(text)) == expected


@pytest.mark.parametrize("text", ["sqrt(2)", "sqrt(-4)", "(-8)^(1/3)", "3.5!", "(-1)!",
                                  "binomial(2.5, 1.5)", "ln(2)", "asin(2)"])
def test_no_exact_value_where_there_is_none(text):
    assert exact_value(parse(text)) is None


def test_factorial_binds_tighter_than_power_and_multiplication():
    assert parse("2n!", variables=["n"]).to_text() == "2*n!"
    assert exact_value(parse("2^3!")) == 64
    assert exact_value(parse("-3!")) == -6
    assert exact_value(parse("3!^2")) == 36
    assert parse("(n+1)!", variables=["n"]).to_text() == "(n + 1)!"
    assert parse("(n!)!", variables=["n"]).to_text() == "(n!)!"
    with pytest.raises(FormatError, match="double factorial"):
        parse("n!!", variables=["n"])


def test_log_bases_in_every_form():
    for text in ("log(8, 2)", "log_2(8)", "log_{2}(8)", "log2(8)", "LOG2(8)", "log_b(8)"):
        expr = parse(text, variables=["b"])
        assert math.isclose(evaluate(expr, {"b": 2.0}), 3.0), text
    assert parse("log_e(x)", variables=["x"]).to_text() == "ln(x)"
    with pytest.raises(FormatError, match="with brackets"):
        parse("log_b x", variables=["b", "x"])


def test_inverse_functions_may_be_written_with_a_power_of_minus_one():
    for text in ("sin^-1(x)", "sin^(-1)(x)", "sin⁻¹(x)", "arcsin(x)", "asin x", "arcsinx"):
        assert parse(text, variables=["x"]).to_text() == "asin(x)", text
    assert parse("cosh^-1(x)", variables=["x"]).to_text() == "acosh(x)"
    assert parse("sin^2(x)", variables=["x"]).to_text() == "sin(x)^2"


def test_sigma_is_the_sigmoid_only_where_declared_as_a_function():
    assert parse("σ(x)", variables=["x"], functions=["σ"]).to_text() == "sigmoid(x)"
    assert parse("sigma(x)", variables=["x"], functions={"sigma": 1}).to_text() == "sigmoid(x)"
    assert parse("σ(x)", variables=["x", "σ"]).to_text() == "sigma*x"


def test_declared_functions_take_their_declared_number_of_arguments():
    expr = parse("f(g(n), 1)", variables=["n"], functions={"f": 2, "g": 1})
    assert expr.to_text() == "f(g(n), 1)"
    assert evaluate(expr, {"n": 2.0}, {"f": lambda a, b: a - b, "g": lambda a: 3 * a}) == 5.0
    with pytest.raises(FormatError, match="takes 2 arguments"):
        parse("f(n)", variables=["n"], functions={"f": 2})
    with pytest.raises(ValueError, match="1 to 10 arguments"):
        parse("f(n)", variables=["n"], functions={"f": 0})


def test_a_function_name_made_of_declared_variables_is_their_product_without_brackets():
    assert parse("min", variables=["m", "i", "n"]).to_text() == "m*i*n"
    assert parse("min(m, n)", variables=["m", "i", "n"]).to_text() == "min(m, n)"


def test_builtin_names_cannot_be_declared():
    for name in ("sin", "arcsin", "nCr", "max", "sgn"):
        with pytest.raises(ValueError, match="built-in function"):
            parse("1", variables=[name])


def test_every_registry_function_is_documented_in_the_readme():
    from pathlib import Path

    import grading.checkers

    readme = (Path(grading.checkers.__file__).parent / "README.md").read_text()
    for function in FUNCTIONS:
        for spelling in (function.name, *function.aliases):
            assert f"`{spelling}`" in readme, spelling


def test_lookup_is_case_insensitive_and_returns_none_for_unknown_names():
    assert lookup("ARCTAN").name == "atan"
    assert lookup("Cosec").name == "csc"
    assert lookup("nope") is None


def test_mpmath_context_is_independent_of_the_global_one():
    before = mp.dps
    precise_evaluate(parse("sqrt(2)"), {}, digits=80)
    assert mp.dps == before
