"""A sweep of the established systems' own answer-test fixtures, translated into our specs.

Each case is (answer, spec, the peer's documented score, source). The source names the peer's
repository and the file the case comes from; the verdict is the one that file documents
(STACK: the expected mark of `answertestfixtures.class.php`, with its "-3" rows, documented
maths failures that should be 1, taken as 1). A peer's 0 is met by our "incorrect" or
"invalid" (not accepted either way); partial scores must agree exactly.

Where we differ on purpose, the case says what we do (`ours`) and why (`why`, also listed in
grading/checkers/README.md "Differences from the established systems"), and the test checks
that we still differ, so a note cannot go stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from grading.checkers import grade

STACK = "maths/moodle-qtype_stack tests/fixtures/answertestfixtures.class.php"
MITX_INTERVAL = "mitodl/mitx-grading-library tests/formulagrader/test_intervalgrader.py"
MITX_LIST = "mitodl/mitx-grading-library tests/test_singlelistgrader.py"
MITX_MATRIX = "mitodl/mitx-grading-library tests/formulagrader/test_matrixgrader.py"
PL_GRADING = "PrairieLearn/PrairieLearn apps/prairielearn/python/prairielearn/grading_utils.py"
PL_SYMPY = "PrairieLearn/PrairieLearn apps/prairielearn/python/test/sympy_utils_test.py"
WW_INTERVAL = "openwebwork/pg t/contexts/interval.t"
WW_DIGITS = "openwebwork/pg t/contexts/toltype_digits.t"
NUMBAS_PARTS = "numbas/Numbas tests/parts/part_unit_tests.mjs"
MITX_FORMULA = "mitodl/mitx-grading-library tests/formulagrader/test_formulagrader.py"
MITX_STRING = "mitodl/mitx-grading-library tests/test_stringgrader.py"
STACK_UNITS_RELATIVE = ("maths/moodle-qtype_stack "
                        "doc/en/Authoring/Answer_Tests/Results/UnitsRelative.md")
STACK_UNITS_DOC = "maths/moodle-qtype_stack doc/en/Topics/Units.md"
WW_IMPLICIT = "openwebwork/pg macros/parsers/parserImplicitEquation.pl"


@dataclass(frozen=True)
class Case:
    answer: str
    spec: dict[str, Any]
    peer: float
    source: str
    ours: str | None = None     # our outcome where we differ on purpose
    why: str = ""
    params: dict[str, Any] = field(default_factory=dict)


def sym(ref: str, variables: str = "x", **keys: Any) -> dict[str, Any]:
    return {"type": "symbolic", "reference": ref, "variables": variables.split(),
            "domain": "real", **keys}


def num(ref: str, **keys: Any) -> dict[str, Any]:
    return {"type": "numeric", "reference": ref, **keys}


def sigfigs(ref: str, written: int, accurate: int | None = None) -> dict[str, Any]:
    """STACK's NumSigFigs with option n (or [written, accurate])."""
    return num(ref, written_sigfigs=written, sigfigs=accurate or written)


def places(ref: str, n: int) -> dict[str, Any]:
    """STACK's NumDecPlaces: n places written, correct to n places."""
    return num(ref, written_decimals=n, decimals=n)


def eq(ref: str | list[str], variables: str = "x y") -> dict[str, Any]:
    return {"type": "equation", "reference": ref, "variables": variables.split()}


def realset(ref: str, **keys: Any) -> dict[str, Any]:
    return {"type": "set", "reference": ref, **keys}


def lst(ref: list[str], **keys: Any) -> dict[str, Any]:
    return {"type": "list", "reference": ref, **keys}


def mat(ref: str, **keys: Any) -> dict[str, Any]:
    return {"type": "matrix", "reference": ref, **keys}


def qty(ref: str, n: int | tuple[int, int], **keys: Any) -> dict[str, Any]:
    """STACK's Units test with option n (sig figs written and accurate) or [written, accurate]."""
    written, accurate = n if isinstance(n, tuple) else (n, n)
    return {"type": "quantity", "reference": ref, "written_sigfigs": written,
            "sigfigs": accurate, **keys}


def cplx(ref: str, **keys: Any) -> dict[str, Any]:
    return {"type": "numeric", "reference": ref, "imaginary_unit": "i", **keys}


def csym(ref: str, variables: str, **keys: Any) -> dict[str, Any]:
    return {"type": "symbolic", "reference": ref, "variables": variables.split(),
            "imaginary_unit": "i", **keys}


def string(ref: str | list[str], **keys: Any) -> dict[str, Any]:
    return {"type": "string", "reference": ref, **keys}


def pattern(regex: str, **keys: Any) -> dict[str, Any]:
    return {"type": "string", "pattern": regex, "whitespace": "exact",
            "case_sensitive": True, **keys}


EXACT_DECIMALS = ("a decimal means exactly that decimal: Maxima compares binary floats, so "
                  "its float rounding errors decide some of its verdicts")
SEARCH = ("a pattern must match the whole answer (as Numbas's pattern-match part); "
          "STACK's SRegExp searches for it anywhere")
SIGFIG_ROUNDING = ("an answer to n significant figures must round to the rounded key at its "
                   "own n figures; STACK and PrairieLearn accept within half a unit of the "
                   "key's last figure even when that crosses a power of ten")
DOMAIN_SAMPLING = ("variables are sampled at non-integer values, where a negative base to a "
                   "fractional power has no real value; Maxima keeps such powers symbolic")
UNCLEAR_ARGUMENT = ("a function written without brackets takes one plain factor: 'arccos 3n' "
                    "and 'log^2 2n' are refused as unclear (write arccos(3n)), where "
                    "PrairieLearn reads the whole product")
NONLINEAR_SYSTEMS = ("systems that are not linear are compared equation by equation, not by "
                     "their solution sets")
ANY_MULTIPLE_OF_C = ("the arbitrary constant may enter as any non-zero multiple, as WeBWorK's "
                     "FormulaUpToConstant takes it (x^3/3 - C, (x^3 + C)/3); STACK's AddConst "
                     "wants + c itself")
EXTRA_DIGITS = ("to n significant figures we check the n figures asked for; WeBWorK's digits "
                "tolerance without truncation also wants any extra digits right (3.141 is not "
                "pi there)")
SPACE_GROUPS = ("digits grouped by spaces (the SI style '1 234,5') are refused in a numeric "
                "answer as two numbers side by side; Numbas reads them when the author "
                "chooses that notation")
INTERVAL_PARTIAL = ("a single interval with one wrong bracket is wrong with WeBWorK's hint "
                    "('The type of interval is incorrect'), not half marks as MITx's default; "
                    "end_credit = true gives MITx's half per end")


NUMERIC = [
    # STACK NumRelative (default 5%: rtol = 0.05) and NumAbsolute (default atol 0.05).
    Case("1.1", num("1", rtol=0.05), 0, STACK),
    Case("1.05", num("1", rtol=0.05), 1, STACK),
    Case("0.95", num("1", rtol=0.05), 1, STACK),
    Case("0.949", num("1", rtol=0.05), 0, STACK),
    Case("1.05e33", num("1e33", rtol=0.05), 1, STACK),
    Case("1.06e33", num("1e33", rtol=0.05), 0, STACK),
    Case("0.95e33", num("1e33", rtol=0.05), 1, STACK),
    Case("0.949e33", num("1e33", rtol=0.05), 0, STACK),
    Case("1.05e-33", num("1e-33", rtol=0.05), 1, STACK),
    Case("1.06e-33", num("1e-33", rtol=0.05), 0, STACK),
    Case("0.95e-33", num("1e-33", rtol=0.05), 1, STACK),
    Case("0.949e-33", num("1e-33", rtol=0.05), 0, STACK),
    Case("1.05", num("1", rtol=0.1), 1, STACK),
    Case("1.05", num("3", rtol=0.1), 0, STACK),
    Case("3.14", num("pi", rtol=0.001), 1, STACK),
    Case("x=1.5", num("1.5", rtol=0.05), 0, STACK),
    Case("1.1", num("1", atol=0.05), 0, STACK),
    Case("1.05", num("1", atol=0.05), 1, STACK),
    Case("1.05", num("3", atol=0.1), 0, STACK),
    Case("3.14", num("pi", atol=0.001), 0, STACK),
    Case("1.41e-2", num("1.41e-2", atol=0.0001), 1, STACK),
    Case("0.0141", num("1.41e-2", atol=0.0001), 1, STACK),
    Case("0.00141", num("1.41*10^-3", atol=0.0001), 1, STACK),
    Case("1.41*10^-3", num("1.41*10^-3", atol=0.0001), 1, STACK),
    # STACK NumSigFigs: n figures written and accurate to n figures.
    Case("0", sigfigs("0", 2), 0, STACK),
    Case("0", sigfigs("0", 1), 1, STACK),
    Case("0.0", sigfigs("0", 1), 1, STACK),
    Case("0.0", sigfigs("0", 2), 0, STACK),
    Case("0.00", sigfigs("0", 2), 1, STACK),
    Case("5.4e21", sigfigs("5.3e21", 2), 0, STACK),
    Case("5.3e21", sigfigs("5.3e21", 2), 1, STACK),
    Case("5.3e22", sigfigs("5.3e22", 2), 1, STACK),
    Case("5.3e20", sigfigs("5.3e22", 2), 0, STACK),
    Case("9.8", sigfigs("10", 2), 1, STACK, ours="incorrect", why=SIGFIG_ROUNDING),
    Case("9.5", sigfigs("10", 2), 0, STACK),
    Case("10.0", sigfigs("10", 2), 0, STACK),
    Case("6.02214086e23", sigfigs("6.02214086e23", 9), 1, STACK),
    Case("6.0221409e23", sigfigs("6.02214086e23", 9), 0, STACK),
    Case("6.02214087e23", sigfigs("6.02214086e23", 9), 0, STACK),
    Case("6.02214085e23", sigfigs("6.02214086e23", 9), 0, STACK),
    Case("5.3910632e-44", sigfigs("5.3910632e-44", 8), 1, STACK),
    Case("5.391063e-44", sigfigs("5.3910632e-44", 8), 0, STACK),
    Case("5.3910631e-44", sigfigs("5.3910632e-44", 8), 0, STACK),
    Case("1.61622938e-35", sigfigs("1.61622938e-35", 9), 1, STACK),
    Case("1.61622939e-35", sigfigs("1.61622938e-35", 9), 0, STACK),
    Case("1.2345e82", sigfigs("1.2345e82", 5), 1, STACK),
    Case("1.2346e82", sigfigs("1.2345e82", 5), 0, STACK),
    Case("1.234", sigfigs("4", 1), 0, STACK),
    Case("3.141", sigfigs("3.1415927", 3), 0, STACK),
    Case("3.141", sigfigs("3.1415927", 4), 0, STACK),
    Case("3.146", sigfigs("3.1415927", 4), 0, STACK),
    Case("3.142", sigfigs("3.1415927", 4), 1, STACK),
    Case("3.142", sigfigs("pi", 4), 1, STACK),
    Case("3141", sigfigs("3.1415927", 4), 0, STACK),
    Case("0.00123", sigfigs("0.001234567", 3), 1, STACK),
    Case("1.23e-3", sigfigs("0.001234567", 3), 1, STACK),
    Case("138*10^-3", sigfigs("138*10^-3", 3), 1, STACK),
    Case("-138*10^-3", sigfigs("-138*10^-3", 3), 1, STACK),
    Case("138*10^-3", sigfigs("-138*10^-3", 3), 0, STACK),
    Case("1.38*10^-1", sigfigs("138*10^-3", 3), 1, STACK),
    Case("1.24e-3", sigfigs("0.001234567", 3), 0, STACK),
    Case("1.235e-3", sigfigs("0.001234567", 4), 1, STACK),
    Case("1000", sigfigs("999", 2), 1, STACK),
    Case("1E3", sigfigs("999", 2), 0, STACK),
    Case("-100", sigfigs("-149", 1), 1, STACK),
    Case("-0.05", sigfigs("-0.0499", 1), 1, STACK),
    Case("-(0.05)", sigfigs("-0.0499", 1), 1, STACK),
    Case("1170", sigfigs("1174.34", 3), 1, STACK),
    Case("61300", sigfigs("61250", 3), 1, STACK),
    Case("0.1667", sigfigs("0.1667", 4), 1, STACK),
    Case("0.1666", sigfigs("0.1667", 4), 0, STACK),
    Case("0.166", sigfigs("0.1667", 4), 0, STACK),
    Case("0.16667", sigfigs("0.1667", 4), 0, STACK),
    Case("-3.141", sigfigs("-3.1415927", 4), 0, STACK),
    Case("-3.142", sigfigs("-3.1415927", 4), 1, STACK),
    Case("3.142", sigfigs("-3.1415927", 4), 0, STACK),
    Case("-3.142", sigfigs("3.1415927", 4), 0, STACK),
    Case("2.15", sigfigs("75701719/35227192", 3), 1, STACK),
    Case("0.0499", sigfigs("0.04985", 3), 1, STACK),
    Case("0.0498", sigfigs("0.04985", 3), 0, STACK),
    Case("0.0498", sigfigs("0.04975", 3), 1, STACK),
    Case("pi", sigfigs("pi", 4), 0, STACK),
    # STACK NumDecPlaces: n places written, correct to n places.
    Case("3.14", places("3.14", 2), 1, STACK),
    Case("3.140", places("3.140", 3), 1, STACK),
    Case("3141.5972", places("3141.5972", 4), 1, STACK),
    Case("4.14", places("3.14", 2), 0, STACK),
    Case("3.1416", places("pi", 4), 1, STACK),
    Case("-7.3", places("-7.3", 1), 1, STACK),
    Case("3.14", places("3.143", 1), 0, STACK),
    Case("3.14", places("3.140", 3), 0, STACK),
    Case("7.000", places("7", 4), 0, STACK),
    Case("7.0000", places("7", 4), 1, STACK),
    Case("pi", places("3.000", 3), 0, STACK),
    # PrairieLearn is_correct_scalar_sf / _dd (digits: within 0.51 units of the last place).
    Case("3.14", num("3.14159", sigfigs=3), 1, PL_GRADING),
    Case("3.15", num("3.14159", sigfigs=3), 0, PL_GRADING),
    Case("0.0123", num("0.012345", sigfigs=3), 1, PL_GRADING),
    Case("12300", num("12345", sigfigs=3), 1, PL_GRADING),
    Case("12400", num("12345", sigfigs=3), 0, PL_GRADING),
    Case("2.72", num("e", decimals=2), 1, PL_GRADING),
    Case("2.71", num("e", decimals=2), 0, PL_GRADING),
    # MITx FormulaGrader tolerances (absolute, or a percentage of the answer).
    Case("9.85", num("10", atol=0.1), 0, MITX_FORMULA),
    Case("9.9", num("10", atol=0.1), 1, MITX_FORMULA),
    Case("10.1", num("10", atol=0.1), 1, MITX_FORMULA),
    Case("10.15", num("10", atol=0.1), 0, MITX_FORMULA),
    Case("9.85", num("10", rtol=0.01), 0, MITX_FORMULA),
    Case("9.9", num("10", rtol=0.01), 1, MITX_FORMULA),
    Case("10.1", num("10", rtol=0.01), 1, MITX_FORMULA),
    Case("10.15", num("10", rtol=0.01), 0, MITX_FORMULA),
    Case("9.999999", num("10", atol=0), 0, MITX_FORMULA),
    Case("10", num("10", atol=0), 1, MITX_FORMULA),
    Case("10.000001", num("10", atol=0), 0, MITX_FORMULA),
    Case("(cos(3/2) + sin(3/2))/cos(3/2 + 2*pi)", num("1+tan(3/2)", rtol=0.001), 1,
         MITX_FORMULA),
    Case("0.01+(cos(3/2) + sin(3/2))/cos(3/2 + 2*pi)", num("1+tan(3/2)", rtol=0.001), 1,
         MITX_FORMULA),
    Case("0.02+(cos(3/2) + sin(3/2))/cos(3/2 + 2*pi)", num("1+tan(3/2)", rtol=0.001), 0,
         MITX_FORMULA),
    Case("1/0", num("2"), 0, MITX_FORMULA),
    Case("csc(0)", num("2"), 0, MITX_FORMULA),
    Case("arccosh(0)", num("2"), 0, MITX_FORMULA),
    Case("1/0", sym("x"), 0, MITX_FORMULA),
    Case("x + csc(0)", sym("x"), 0, MITX_FORMULA),
    # WeBWorK tolType => 'digits', tolerance => 3 (tolTruncation => 0, tolExtraDigits => 2).
    Case("3.14", num("pi", sigfigs=3), 1, WW_DIGITS),
    Case("3.142", num("pi", sigfigs=3), 1, WW_DIGITS),
    Case("3.143", num("pi", sigfigs=3), 0, WW_DIGITS, ours="correct", why=EXTRA_DIGITS),
    Case("3.15", num("pi", sigfigs=3), 0, WW_DIGITS),
    Case("3.141", num("pi", sigfigs=3), 0, WW_DIGITS, ours="correct", why=EXTRA_DIGITS),
    Case("3.1416", num("pi", sigfigs=3), 1, WW_DIGITS),
    Case("3.1415888", num("pi", sigfigs=3), 1, WW_DIGITS),
    # Numbas number entry: strict precision (places written) and mustBeReduced.
    Case("1", num("1", atol=0), 1, NUMBAS_PARTS),
    Case("0", num("1", atol=0), 0, NUMBAS_PARTS),
    Case("3.14", places("pi", 2), 1, NUMBAS_PARTS),
    Case("3.140", places("pi", 2), 0, NUMBAS_PARTS),
    Case("1.2", places("1.2", 2), 0, NUMBAS_PARTS),
    Case("1.20", places("1.2", 2), 1, NUMBAS_PARTS),
    Case("1.414213562373095", places("sqrt(2)", 15), 1, NUMBAS_PARTS),
    Case("1 234,5", num("1234.5"), 1, NUMBAS_PARTS, ours="invalid", why=SPACE_GROUPS),
    Case("6/7", sym("6/7", "", form="lowest_terms", form_credit=0.5), 1, NUMBAS_PARTS),
    Case("12/14", sym("6/7", "", form="lowest_terms", form_credit=0.5), 0.5, NUMBAS_PARTS),
]

SYMBOLIC = [
    # STACK AlgEquiv: numbers, decimals and rationals (compared exactly).
    Case("4^(-1/2)", sym("1/2"), 1, STACK),
    Case("4^(1/2)", sym("sqrt(4)"), 1, STACK),
    Case("0.5", sym("1/2"), 1, STACK),
    Case("0.33", sym("1/3"), 0, STACK),
    Case("5.1e-2", sym("51/1000"), 1, STACK),
    Case("0.333333333333333", sym("1/3"), 0, STACK),
    Case("0.99999999", sym("1"), 0, STACK),
    Case("0.99999999", sym("99999999/10^8"), 1, STACK),
    Case("0.99999999", sym("99999998/99999999"), 1, STACK, ours="incorrect", why=EXACT_DECIMALS),
    Case("(0.5+x)*2", sym("2*x+1"), 1, STACK),
    Case("0.333333333333333*x^2", sym("x^2/3"), 0, STACK),
    Case("0.1*(2.0*s^2+6.0*s-25.0)/s", sym("(2*s^2+6*s-25)/(10*s)", "s"), 1, STACK),
    Case("0.1*(2.0*s^2+6.0*s-25.00001)/s", sym("(2*s^2+6*s-25)/(10*s)", "s"), 0, STACK),
    Case("100.4-80.0", sym("20.4"), 0, STACK, ours="correct", why=EXACT_DECIMALS),
    Case("X", sym("x"), 0, STACK),
    # Powers and roots (Maxima's real semantics: the real domain).
    Case("x^(1/2)", sym("sqrt(x)"), 1, STACK),
    Case("x", sym("sqrt(x^2)"), 0, STACK),
    Case("abs(x)", sym("sqrt(x^2)"), 1, STACK),
    Case("1/abs(x)^(1/3)", sym("(abs(x)^(1/3)/abs(x))^(1/2)"), 1, STACK),
    Case("sqrt((x-3)*(x-5))", sym("sqrt(x-3)*sqrt(x-5)"), 0, STACK),
    Case("1/sqrt(x)", sym("sqrt(1/x)"), 1, STACK),
    Case("x-1", sym("(x^2-1)/(x+1)"), 1, STACK),
    Case("2^((1/5.1)*t)", sym("2^((1/5.1)*t)", "t"), 1, STACK),
    Case("2^((1/5.1)*t)", sym("2^(0.196078431373*t)", "t"), 0, STACK),
    Case("1-root(2, 2)", sym("1-sqrt(2)"), 1, STACK),
    Case("a^b*a^c", sym("a^(b+c)", "a b c"), 1, STACK),
    Case("(a^b)^c", sym("a^(b*c)", "a b c"), 0, STACK, ours="correct", why=DOMAIN_SAMPLING),
    Case("(a^b)^c", sym("a^(b*c)", "a b c", domain="positive"), 1, STACK),
    Case("a*sqrt(5)", sym("sqrt(5*a^2)", "a", domain="positive"), 1, STACK),
    Case("signum(-3)", sym("-1"), 1, STACK),
    Case("6*((x-2)^3)^k", sym("6*(x-2)^(3*k)", "x k", domain="positive"), 1, STACK),
    Case("2+2*sqrt(3+x)", sym("2+sqrt(12+4*x)"), 1, STACK),
    Case("sqrt(k/m)*sqrt(m/k)", sym("1", "k m", domain="positive"), 1, STACK),
    Case("(2*pi)*(m/k)^(1/2)", sym("(2*pi)/(k/m)^(1/2)", "k m", domain="positive"), 1, STACK),
    Case("sqrt(2*x/10+1)", sym("sqrt((2*x+10)/10)"), 1, STACK),
    Case("((x+3)^2*(x+3))^(1/3)", sym("((x+3)*(x^2+6*x+9))^(1/3)"), 1, STACK),
    # Polynomials and rational functions.
    Case("(x-1)^2", sym("x^2-2*x+1"), 1, STACK),
    Case("(x-1)*(x^2+x+1)", sym("x^3-1"), 1, STACK),
    Case("(x-1)^(-2)", sym("1/(x^2-2*x+1)"), 1, STACK),
    Case("1/(4*x-(pi+sqrt(2)))", sym("1/(x+1)"), 0, STACK),
    Case("(x-a)^6000", sym("(x-a)^6000", "x a"), 1, STACK),
    Case("(a-x)^6000", sym("(x-a)^6000", "x a"), 1, STACK),
    Case("(4*a-x)^6000", sym("(x-4*a)^6000", "x a"), 1, STACK),
    Case("(x-a)^6000", sym("(x-a)^5999", "x a"), 0, STACK),
    Case("(k+8)/(k^2+4*k-12)", sym("(k+8)/(k^2+4*k-12)", "k"), 1, STACK),
    Case("(k+7)/(k^2+4*k-12)", sym("(k+8)/(k^2+4*k-12)", "k"), 0, STACK),
    Case("1/n-1/(n+1)", sym("1/(n*(n+1))", "n"), 1, STACK),
    Case("1/(a-b)-1/(b-a)", sym("1/(a-b)+1/(b-a)", "a b"), 0, STACK),
    Case("0.5*x^2+3*x-1", sym("x^2/2+3*x-1"), 1, STACK),
    Case("14336000000*x^13", sym("512*(2*x+5)^7*(5*x-1)^5*(70*x+67)"), 0, STACK),
    # Trigonometric, hyperbolic and logarithmic identities.
    Case("cos(x)", sym("cos(-x)"), 1, STACK),
    Case("cos(x)^2+sin(x)^2", sym("1"), 1, STACK),
    Case("cos(x+y)", sym("cos(x)*cos(y)-sin(x)*sin(y)", "x y"), 1, STACK),
    Case("cos(x+y)", sym("cos(x)*cos(y)+sin(x)*sin(y)", "x y"), 0, STACK),
    Case("(-1)^n*cos(x)^n", sym("(-cos(x))^n", "x n", domain="positive"), 1, STACK,
         ours="incorrect", why=DOMAIN_SAMPLING),
    Case("2*cos(x)^2-1", sym("cos(2*x)"), 1, STACK),
    Case("1.0*cos(1200*pi*x)", sym("cos(1200*pi*x)"), 1, STACK),
    Case("2*cos(2*x)+x+1", sym("-sin(x)^2+3*cos(x)^2+x"), 1, STACK),
    Case("4*x*cos(x^12/pi)", sym("x*cos(x^12/pi)"), 0, STACK),
    Case("1+cosec(3*x)", sym("1+csc(3*x)"), 1, STACK),
    Case("1/(1+exp(-2*x))", sym("tanh(x)/2+1/2"), 1, STACK),
    Case("1+cosech(3*x)", sym("1+csch(3*x)"), 1, STACK),
    Case("sin((2*pi*n-pi)/2)", sym("-cos(n*pi)", "n"), 1, STACK),
    Case("sin(x/2)/(1+tan(x)*tan(x/2))", sym("sin(x/2)*cos(x)"), 1, STACK),
    Case("log(a^2*b)", sym("2*log(a)+log(b)", "a b", domain="positive"), 1, STACK),
    Case("(2*log(2*x)+x)/(2*x)", sym("(log(2*x)+2)/(2*sqrt(x))"), 0, STACK),
    Case("log10(10^x)", sym("x"), 1, STACK),
    Case("log(3^x, 3)", sym("x"), 1, STACK),
    Case("log(a^x, a)", sym("x", "x a", domain="positive"), 1, STACK),
    Case("1+log(27, 3)", sym("4"), 1, STACK),
    Case("1+log(27, 3)", sym("3"), 0, STACK),
    Case("log(1/8, 2)", sym("-3"), 1, STACK),
    Case("x^log(y)", sym("y^log(x)", "x y", domain="positive"), 1, STACK),
    Case("log((x+1)/(1-x))", sym("-log((1-x)/(x+1))"), 1, STACK),
    Case("log((x+1)/(1-x))", sym("-log((1-x)/(x+2))"), 0, STACK),
    Case("e^1-e^(-1)", sym("2*sinh(1)"), 1, STACK),
    # Surds.
    Case("sqrt(12)", sym("2*sqrt(3)"), 1, STACK),
    Case("sqrt(11+6*sqrt(2))", sym("3+sqrt(2)"), 1, STACK),
    Case("(19601-13860*sqrt(2))^(7/4)", sym("(5*sqrt(2)-7)^7"), 1, STACK),
    Case("(19601-13861*sqrt(2))^(7/4)", sym("(5*sqrt(2)-7)^7"), 0, STACK),
    Case("sqrt(2*log(26)+4-2*log(2))", sym("sqrt(2*log(13)+4)"), 1, STACK),
    # Factorials and binomials.
    Case("(n+1)*n!", sym("(n+1)!", "n", domain="positive"), 1, STACK),
    Case("n/n!", sym("1/(n-1)!", "n", domain="positive"), 1, STACK),
    Case("n/n!", sym("1/(n+1)!", "n", domain="positive"), 0, STACK),
    Case("n!/(k!*(n-k)!)", sym("binomial(n,k)", "n k", domain="positive"), 1, STACK),
    Case("binomial(n,k)+binomial(n,k+1)", sym("binomial(n+1,k+1)", "n k", domain="positive"),
         1, STACK),
    Case("binomial(n,k)+binomial(n,k+1)", sym("binomial(n+1,k)", "n k", domain="positive"),
         0, STACK),
    Case("binomial(n,k)", sym("binomial(n,n-k)", "n k", domain="positive"), 1, STACK),
    Case("175!*56!/(55!*176!)", sym("17556/55176"), 1, STACK),
    # STACK EqualComAss: equal up to commutativity and associativity only.
    Case("1+2*x", sym("x*2+1", form="equal_com_ass"), 1, STACK),
    Case("1+x+x", sym("2*x+1", form="equal_com_ass"), 0, STACK),
    Case("x*x", sym("x^2", form="equal_com_ass"), 0, STACK),
    Case("x*(x+5)", sym("5*x+x^2", form="equal_com_ass"), 0, STACK),
    Case("(a-x)^6000", sym("(x-a)^6000", "x a", form="equal_com_ass"), 0, STACK),
    Case("-1+2", sym("2-1", form="equal_com_ass"), 1, STACK),
    Case("(-1*2)+3*4", sym("10", form="equal_com_ass"), 0, STACK),
    Case("x*(-y)", sym("-x*y", "x y", form="equal_com_ass"), 1, STACK),
    Case("(-x)*(-x)", sym("x*x", form="equal_com_ass"), 0, STACK),
    Case("1/(1+2*x)", sym("1/(2*x+1)", form="equal_com_ass"), 1, STACK),
    Case("(a*b)/c", sym("a*(b/c)", "a b c", form="equal_com_ass"), 1, STACK),
    Case("(-x)/y", sym("-(x/y)", "x y", form="equal_com_ass"), 1, STACK),
    Case("-1/(1-x)", sym("1/(x-1)", form="equal_com_ass"), 0, STACK),
    Case("(a+b)/1", sym("(b+a)/1", "a b", form="equal_com_ass"), 1, STACK),
    Case("23+0*x", sym("23", form="equal_com_ass"), 0, STACK),
    Case("x+0", sym("x", form="equal_com_ass"), 0, STACK),
    Case("(1/2)*(a+b)", sym("(a+b)/2", "a b", form="equal_com_ass"), 0, STACK),
    Case("exp(x)", sym("e^x", form="equal_com_ass"), 1, STACK),
    Case("exp(x)^2", sym("(e^(x))^2", form="equal_com_ass"), 1, STACK),
    Case("0.75", sym("3/4", form="equal_com_ass"), 0, STACK),
    Case("3^2", sym("8", form="equal_com_ass"), 0, STACK),
    Case("cos(0)", sym("1", form="equal_com_ass"), 0, STACK),
    Case("2*2^(1/2)", sym("sqrt(8)", form="equal_com_ass"), 0, STACK),
    Case("1/sqrt(2)", sym("2^(1/2)/2", form="equal_com_ass"), 0, STACK),
    # STACK SubstEquiv: equal up to a renaming of the variables.
    Case("X^2+1", sym("x^2+1", rename_variables=True), 1, STACK),
    Case("x^2+1", sym("x^3+1", rename_variables=True), 0, STACK),
    Case("x^2+y/z", sym("a^2+c/b", "a b c", domain="positive", rename_variables=True), 1, STACK),
    Case("A*cos(t)+B*sin(t)", sym("P*cos(t)+Q*sin(t)", "P Q t", rename_variables=True), 1,
         STACK),
    Case("sqrt(2*g*y)", sym("sqrt(2*g*x)", "g x", domain="positive", rename_variables=True), 1,
         STACK),
    # Numbas JME parts (a required form with partial credit for an equal answer).
    Case("x", sym("x", "x y"), 1, NUMBAS_PARTS),
    Case("y", sym("x", "x y"), 0, NUMBAS_PARTS),
    Case("x+0", sym("x", "x y"), 1, NUMBAS_PARTS),
    Case("x+0y", sym("x", "x y"), 1, NUMBAS_PARTS),
    Case("2x", sym("2x", form="simplified", form_credit=0.5), 1, NUMBAS_PARTS),
    Case("x+x", sym("2x", form="simplified", form_credit=0.5), 0.5, NUMBAS_PARTS),
    Case("3x", sym("2x", form="simplified", form_credit=0.5), 0, NUMBAS_PARTS),
    Case("x+x+x", sym("2x", form="simplified", form_credit=0.5), 0, NUMBAS_PARTS),
    # PrairieLearn's reader: the same expressions written as students type them.
    Case("n alpha", sym("alpha*n", "n alpha"), 1, PL_SYMPY),
    Case("m \u2212 \uff08n + m\uff09", sym("-n", "m n"), 1, PL_SYMPY),  # a minus sign, full-width brackets
    Case("abs(n) * sgn(n)", sym("n", "n"), 1, PL_SYMPY),
    Case("nm^(-1)", sym("n/m", "n m", domain="positive"), 1, PL_SYMPY),
    Case("sin**2 (m)", sym("sin(m)^2", "m"), 1, PL_SYMPY),
    Case("5mn sin m + arccos 3n", sym("5*m*n*sin(m) + acos(3*n)", "m n"), 1, PL_SYMPY,
         ours="invalid", why=UNCLEAR_ARGUMENT),
    Case("5mn sin m + arccos(3n)", sym("5*m*n*sin(m) + acos(3*n)", "m n"), 1, PL_SYMPY),
    Case("n log^2 2n", sym("n*log(2*n)^2", "n", domain="positive"), 1, PL_SYMPY,
         ours="invalid", why=UNCLEAR_ARGUMENT),
]

def form(ref: str, name: str | list[str], variables: str = "x") -> dict[str, Any]:
    """STACK's form tests: equal to the key and written in the form."""
    return sym(ref, variables, form=name)


LOWEST = ["lowest_terms", "rationalised"]  # STACK's LowestTerms: both

FORMS = [
    # STACK Expanded (the key is the answer itself: only the form is tested).
    Case("x^2-1", form("x^2-1", "expanded"), 1, STACK),
    Case("2*(x-1)", form("2*(x-1)", "expanded"), 0, STACK),
    Case("(x-1)*(x+1)", form("(x-1)*(x+1)", "expanded"), 0, STACK),
    Case("(x-a)*(x-b)", form("(x-a)*(x-b)", "expanded", "x a b"), 0, STACK),
    Case("x^2-(a+b)*x+a*b", form("x^2-(a+b)*x+a*b", "expanded", "x a b"), 0, STACK),
    Case("x^2-a*x-b*x+a*b", form("x^2-a*x-b*x+a*b", "expanded", "x a b"), 1, STACK),
    Case("cos(2*x)", form("cos(2*x)", "expanded"), 1, STACK),
    Case("p+1", form("p+1", "expanded", "p"), 1, STACK),
    Case("(p+1)*(p-1)", form("(p+1)*(p-1)", "expanded", "p"), 0, STACK),
    Case("3+2*sqrt(3)", form("3+2*sqrt(3)", "expanded"), 1, STACK),
    Case("3+sqrt(12)", form("3+sqrt(12)", "expanded"), 1, STACK),
    Case("(1+sqrt(5))*(1-sqrt(3))", form("(1+sqrt(5))*(1-sqrt(3))", "expanded"), 0, STACK),
    # STACK FacForm: equal to the key and factored.
    Case("2", form("2", "factored"), 1, STACK),
    Case("6", form("6", "factored"), 1, STACK),
    Case("1/3", form("1/3", "factored"), 1, STACK),
    Case("3*x^2", form("3*x^2", "factored"), 1, STACK),
    Case("4*x^2", form("4*x^2", "factored"), 1, STACK),
    Case("2*(x-1)", form("2*x-2", "factored"), 1, STACK),
    Case("2*x-2", form("2*x-2", "factored"), 0, STACK),
    Case("2*(x+1)", form("2*x-2", "factored"), 0, STACK),
    Case("2*x+2", form("2*x-2", "factored"), 0, STACK),
    Case("t*(2*x+1)", form("t*(2*x+1)", "factored", "x t"), 1, STACK),
    Case("t*x+t", form("t*(x+1)", "factored", "x t"), 0, STACK),
    Case("6*s*t+10*s", form("2*s*(3*t+5)", "factored", "s t"), 0, STACK),
    Case("2*x*(x-3)", form("2*x^2-6*x", "factored"), 1, STACK),
    Case("2*(x^2-3*x)", form("2*x*(x-3)", "factored"), 0, STACK),
    Case("x*(2*x-6)", form("2*x*(x-3)", "factored"), 0, STACK),
    Case("(x+2)*(x+3)", form("(x+2)*(x+3)", "factored"), 1, STACK),
    Case("(x+2)*(2*x+6)", form("2*(x+2)*(x+3)", "factored"), 0, STACK),
    Case("(z*x+z)*(2*x+6)", form("2*z*(x+1)*(x+3)", "factored", "x z"), 0, STACK),
    Case("(x+t)*(x-t)", form("x^2-t^2", "factored", "x t"), 1, STACK),
    Case("t^2-1", form("(t-1)*(t+1)", "factored", "t"), 0, STACK),
    Case("t^2+1", form("t^2+1", "factored", "t"), 1, STACK),
    Case("v^2-1", form("v^2-1", "factored", "v"), 0, STACK),
    Case("-(3*w-4*v+9*u)*(3*w+4*v-u)", form("-(3*w-4*v+9*u)*(3*w+4*v-u)", "factored", "u v w"),
         1, STACK),
    Case("-6*k*(4*b-k-1)", form("6*k*(1+k-4*b)", "factored", "k b"), 1, STACK),
    Case("-(6*k*(4*b-k-1))", form("6*k*(1+k-4*b)", "factored", "k b"), 1, STACK),
    Case("x*(x-4+4/x)", form("x^2-4*x+4", "factored"), 0, STACK),
    Case("(2-x)*(3-x)", form("(x-2)*(x-3)", "factored"), 1, STACK),
    Case("(1-x)^2", form("(x-1)^2", "factored"), 1, STACK),
    Case("(1-x)*(1-x)", form("(x-1)^2", "factored"), 1, STACK),
    Case("-(1-x)^2", form("-(x-1)^2", "factored"), 1, STACK),
    Case("-3*(x-4)*(x+1)", form("-3*x^2+9*x+12", "factored"), 1, STACK),
    Case("3*(-x+4)*(x+1)", form("-3*x^2+9*x+12", "factored"), 1, STACK),
    Case("3*(4-x)*(x+1)", form("-3*x^2+9*x+12", "factored"), 1, STACK),
    Case("(x-1)*(x^2+x+1)", form("x^3-1", "factored"), 1, STACK),
    Case("x^3-x+1", form("x^3-x+1", "factored"), 1, STACK),
    Case("7*x^3-7*x+7", form("7*(x^3-x+1)", "factored"), 0, STACK),
    Case("(1-x)*(2-x)*(3-x)", form("-x^3+6*x^2-11*x+6", "factored"), 1, STACK),
    Case("(2-x)*(2-x)*(3-x)", form("-x^3+7*x^2-16*x+12", "factored"), 1, STACK),
    Case("(2-x)^2*(3-x)", form("-x^3+7*x^2-16*x+12", "factored"), 1, STACK),
    Case("(x^2-4*x+4)*(3-x)", form("-x^3+7*x^2-16*x+12", "factored"), 0, STACK),
    Case("(x^2-3*x+2)*(3-x)", form("-x^3+6*x^2-11*x+6", "factored"), 0, STACK),
    Case("3*y^3-6*y^2-24*y", form("3*(y-4)*y*(y+2)", "factored", "y"), 0, STACK),
    Case("3*(y^3-2*y^2-8*y)", form("3*(y-4)*y*(y+2)", "factored", "y"), 0, STACK),
    Case("3*y*(y^2-2*y-8)", form("3*(y-4)*y*(y+2)", "factored", "y"), 0, STACK),
    Case("3*(y^2-4*y)*(y+2)", form("3*(y-4)*y*(y+2)", "factored", "y"), 0, STACK),
    Case("(y-4)*y*(3*y+6)", form("3*(y-4)*y*(y+2)", "factored", "y"), 0, STACK),
    Case("2*a*(a*b-1)", form("2*a*(a*b-1)", "factored", "a b"), 1, STACK),
    Case("(2*a)*(a*b-1)", form("2*a*(a*b-1)", "factored", "a b"), 1, STACK),
    Case("3*x*(7*y-3)*(7*y+3)", form("3*x*(7*y-3)*(7*y+3)", "factored", "x y"), 1, STACK),
    Case("x^2-2", form("x^2-2", "factored"), 1, STACK),
    # STACK SingleFrac: equal to the key and one fraction.
    Case("3", form("3", "single_fraction"), 1, STACK),
    Case("3", form("2", "single_fraction"), 0, STACK),
    Case("1/m", form("1/n", "single_fraction", "m n"), 0, STACK),
    Case("1/n", form("1/n", "single_fraction", "n"), 1, STACK),
    Case("a+1/2", form("(2*a+1)/2", "single_fraction", "a"), 0, STACK),
    Case("4/(x^2+2*x-24)+2/(x^2+4*x-12)", form("(6*x-16)/(x^3-28*x+48)", "single_fraction"),
         0, STACK),
    Case("2*(1/n)", form("2/n", "single_fraction", "n"), 0, STACK),
    Case("2/n", form("2/n", "single_fraction", "n"), 1, STACK),
    Case("2/(n+1)", form("1/(n+1)", "single_fraction", "n"), 0, STACK),
    Case("(x-1)/(x^2-1)", form("1/(x+1)", "single_fraction"), 1, STACK),
    Case("(1/2)/(3/4)", form("2/3", "single_fraction"), 0, STACK),
    Case("(x-2)/4/(2/x^2)", form("(x-2)*x^2/8", "single_fraction"), 0, STACK),
    Case("1/(1-1/x)", form("x/(x-1)", "single_fraction"), 0, STACK),
    Case("(1+1/a)/a", form("(1+a)/a^2", "single_fraction", "a"), 0, STACK),
    Case("a/(1+1/a)", form("a^2/(1+a)", "single_fraction", "a"), 0, STACK),
    Case("(1+2*b/a)/c", form("(a+2*b)/(a*c)", "single_fraction", "a b c"), 0, STACK),
    Case("a*c/(a+2*b)", form("a*c/(a+2*b)", "single_fraction", "a b c"), 1, STACK),
    Case("-1/2", form("-1/2", "single_fraction"), 1, STACK),
    Case("-(1/2)", form("-1/2", "single_fraction"), 1, STACK),
    Case("-a/b", form("-a/b", "single_fraction", "a b"), 1, STACK),
    Case("(-a)/b", form("-a/b", "single_fraction", "a b"), 1, STACK),
    Case("a/(-b)", form("-a/b", "single_fraction", "a b"), 1, STACK),
    Case("-(a/b)", form("-a/b", "single_fraction", "a b"), 1, STACK),
    Case("-(1/(n-1))", form("1/(1-n)", "single_fraction", "n"), 1, STACK),
    Case("a/(-1-1/a)", form("-a^2/(1+a)", "single_fraction", "a"), 0, STACK),
    Case("((sqrt(5))^3 +6)/15", form("((sqrt(5))^3 +6)/15", "single_fraction"), 1, STACK),
    Case("1/(1-sqrt(2))", form("1/(1-sqrt(2))", "single_fraction"), 1, STACK),
    Case("(5^(3/2)+6)/15", form("((sqrt(5))^3+6)/15", "single_fraction"), 1, STACK),
    # STACK LowestTerms (numbers in lowest terms and rational denominators; form only).
    Case("0.5", form("0.5", LOWEST), 1, STACK),
    Case("2/4", form("2/4", LOWEST), 0, STACK),
    Case("-1/3", form("-1/3", LOWEST), 1, STACK),
    Case("1/-3", form("1/-3", LOWEST), 1, STACK),
    Case("-2/4", form("-2/4", LOWEST), 0, STACK),
    Case("2/-4", form("2/-4", LOWEST), 0, STACK),
    Case("-2/-4", form("-2/-4", LOWEST), 0, STACK),
    Case("x+1/3", form("x+1/3", LOWEST), 1, STACK),
    Case("x+2/6", form("x+2/6", LOWEST), 0, STACK),
    Case("2*x/4+2/6", form("2*x/4+2/6", LOWEST), 0, STACK),
    Case("2/4*x+2/6", form("2/4*x+2/6", LOWEST), 0, STACK),
    Case("cos(x)", form("cos(x)", LOWEST), 1, STACK),
    Case("cos(3/6*x)", form("cos(3/6*x)", LOWEST), 0, STACK),
    Case("(2/4)*(x^2/t)", form("(2/4)*(x^2/t)", LOWEST, "x t"), 0, STACK),
    Case("sqrt(3)/3", form("sqrt(3)/3", LOWEST), 1, STACK),
    Case("1/sqrt(3)", form("sqrt(3)/3", LOWEST), 0, STACK),
    Case("1/(1-sqrt(2))", form("1/(1-sqrt(2))", LOWEST), 0, STACK),
    Case("1+2/sqrt(3)", form("(2*sqrt(3)+3)/3", LOWEST), 0, STACK),
    Case("1/(1+1/root(3,2))", form("sqrt(3)/(sqrt(3)+1)", LOWEST), 0, STACK),
    # STACK CompSquare: equal to the key, the variable once, in a square.
    Case("(x-1)^2+1", form("(x-1)^2+1", "completed_square"), 1, STACK),
    Case("(1-x)^2+1", form("(x-1)^2+1", "completed_square"), 1, STACK),
    Case("9*(x-1)^2+1", form("(3*x-3)^2+1", "completed_square"), 1, STACK),
    Case("-(x-1)^2", form("-(x-1)^2", "completed_square"), 1, STACK),
    Case("-(1-x)^2+3", form("-(x-1)^2+3", "completed_square"), 1, STACK),
    Case("-4*(x-1)^2+3", form("-(2*x-2)^2+3", "completed_square"), 1, STACK),
    Case("3-4*(x-1)^2", form("-(2*x-2)^2+3", "completed_square"), 1, STACK),
    Case("(x-1)^2+1", form("(x+1)^2+1", "completed_square"), 0, STACK),
    Case("(x-a^2)^2+1+b", form("(x-a^2)^2+1+b", "completed_square", "x a b"), 1, STACK),
    Case("x^2-2*x+2", form("(x-1)^2+1", "completed_square"), 0, STACK),
    Case("x+1", form("(x-1)^2+1", "completed_square"), 0, STACK),
    Case("(y-1)^2+1", form("(y-1)^2+1", "completed_square", "y"), 1, STACK),
    Case("(y+1)^2+1", form("(y-1)^2+1", "completed_square", "y"), 0, STACK),
    Case("(X-1)^2+1", form("(x-1)^2+1", "completed_square"), 0, STACK),
    # STACK PartFrac: equal to the key and in partial fractions.
    Case("1/n", form("1/n", "partial_fractions", "n"), 1, STACK),
    Case("n^3/(n-1)", form("n^3/(n-1)", "partial_fractions", "n"), 0, STACK),
    Case("1+n+n^2+1/(n-1)", form("n^3/(n-1)", "partial_fractions", "n"), 1, STACK),
    Case("1+n+n^2-1/(1-n)", form("n^3/(n-1)", "partial_fractions", "n"), 1, STACK),
    Case("1/(n+1)+1/(1-n)", form("1/(n+1)-1/(n-1)", "partial_fractions", "n"), 1, STACK),
    Case("1/(2*(n-1))-1/(2*(n+1))", form("1/((n-1)*(n+1))", "partial_fractions", "n"), 1,
         STACK),
    Case("1/(2*(n+1))-1/(2*(n-1))", form("1/((n-1)*(n+1))", "partial_fractions", "n"), 0,
         STACK),
    Case("-9/(x-2) + -9/(x+1)", form("-9/(x-2) + -9/(x+1)", "partial_fractions"), 1, STACK),
    Case("9/(y-4)+28/(y-4)^2", form("(9*y-8)/(y-4)^2", "partial_fractions", "y"), 1, STACK),
    Case("5/(x*(x+3)*(5*x-2))", form("5/(x*(x+3)*(5*x-2))", "partial_fractions"), 0, STACK),
    Case("125/(34*(5*x-2))+5/(51*(x+3))-5/(6*x)", form("5/(x*(x+3)*(5*x-2))",
                                                        "partial_fractions"), 1, STACK),
    Case("-5/(16*x)+1/(2*(x-1))-1/(8*(x-1)^2)", form("(3*x^2-5)/((4*x-4)^2*x)",
                                                    "partial_fractions"), 1, STACK),
    Case("1/(2*x-2)-(x+1)/(2*(x^2+1))", form("1/((x-1)*(x^2+1))", "partial_fractions"), 1,
         STACK),
    Case("1/(2*(x-1))+x/(2*(x^2+1))", form("1/((x-1)*(x^2+1))", "partial_fractions"), 0,
         STACK),
    Case("(2*x+1)/(x^2+1)-2/(x-1)", form("(2*x+1)/(x^2+1)-2/(x-1)", "partial_fractions"), 1,
         STACK),
    Case("3*(1/(x+1) + 1/(x+2))", form("3*(2*x+3)/((x+1)*(x+2))", "partial_fractions"), 1,
         STACK),
    Case("(3*x+3)*(1/(x+1) + 2/(x+2))", form("9-6/(x+2)", "partial_fractions"), 0, STACK),
    Case("n/(2*n-1)-(n+1)/(2*n+1)", form("1/(4*n-2)-1/(4*n+2)", "partial_fractions", "n"), 0,
         STACK),
    Case("2*x+1/(x+1)+1/(x-1)", form("2*x^3/(x^2-1)", "partial_fractions"), 1, STACK),
    Case("1/(n*(n-1))", form("1/(n*(n-1))", "partial_fractions", "n"), 0, STACK),
    Case("1/(n-1)-1/n^2", form("1/((n+1)*n)", "partial_fractions", "n"), 0, STACK),
    Case("1/(n-1)-1/n", form("1/(n-1)+1/n", "partial_fractions", "n"), 0, STACK),
    Case("1/(n*(n+1))+1/n", form("2/n-1/(n+1)", "partial_fractions", "n"), 0, STACK),
]


def addconst(ref: str, variables: str = "x") -> dict[str, Any]:
    """STACK's AddConst: the key plus an arbitrary constant the student writes."""
    return sym(ref, variables, domain="positive", arbitrary_constant=True)


ANTIDERIVATIVES = [
    Case("x^3/3", addconst("x^3/3"), 0, STACK),
    Case("x^3/3+1", addconst("x^3/3"), 0, STACK),
    Case("x^3/3+c", addconst("x^3/3"), 1, STACK),
    Case("x^3/3-c", addconst("x^3/3"), 0, STACK, ours="correct", why=ANY_MULTIPLE_OF_C),
    Case("x^3/3+c+1", addconst("x^3/3"), 1, STACK),
    Case("x^3/3+3*c", addconst("x^3/3"), 0, STACK, ours="correct", why=ANY_MULTIPLE_OF_C),
    Case("(x^3+c)/3", addconst("x^3/3"), 0, STACK, ours="correct", why=ANY_MULTIPLE_OF_C),
    Case("exp(x)+c", addconst("exp(x)"), 1, STACK),
    Case("exp(x)", addconst("exp(x)"), 0, STACK),
    Case("x^(k+1)/(k+1)+c", addconst("x^(k+1)/(k+1)", "x k"), 1, STACK),
    Case("x^(k+1)/(k+1)", addconst("x^(k+1)/(k+1)", "x k"), 0, STACK),
    Case("x^3/3+c+k", addconst("x^3/3"), 0, STACK),
    Case("x^3/3+c^2", addconst("x^3/3"), 0, STACK),
    Case("x^3/3+c^3", addconst("x^3/3"), 0, STACK),
    Case("x^3/3*c", addconst("x^3/3"), 0, STACK),
    Case("X^3/3+c", addconst("x^3/3"), 0, STACK),
    Case("sin(2*x)", addconst("x^3/3"), 0, STACK),
    Case("x^2/2-2*x+2+c", addconst("(x-2)^2/2"), 1, STACK),
    Case("(t-1)^5/5+c", addconst("(t-1)^5/5", "t"), 1, STACK),
    Case("(v-1)^5/5+c", addconst("(v-1)^5/5", "v"), 1, STACK),
    Case("cos(2*x)/2+1+c", addconst("cos(2*x)/2"), 1, STACK),
    Case("(x-a)^6001/6001+c", addconst("(x-a)^6001/6001", "x a"), 1, STACK),
    Case("(x-a)^6001/6001", addconst("(x-a)^6001/6001", "x a"), 0, STACK),
    Case("ln(x)", addconst("ln(x)"), 0, STACK),
    Case("ln(x)+c", addconst("ln(x)"), 1, STACK),
    Case("ln(k*x)", addconst("ln(x)"), 0, STACK),
    Case("ln(abs(x))+c", addconst("ln(abs(x))"), 1, STACK),
    Case("ln(k*abs(x))", addconst("ln(abs(x))"), 0, STACK),
    Case("c-(log(2)-log(x))^2/2", addconst("-1/2*log(2/x)^2"), 1, STACK),
    Case("ln(abs(x+3))/2+c", addconst("ln(abs(2*x+6))/2"), 1, STACK),
]

EQUATIONS = [
    # STACK AlgEquiv on equations: the same solution set, sides and scale free.
    Case("1", eq("x=1", "x"), 0, STACK),
    Case("x=1", eq("x=1", "x"), 1, STACK),
    Case("1=x", eq("1=x", "x"), 1, STACK),
    Case("1=x", eq("x=1", "x"), 1, STACK),
    Case("1=1", eq("1=x", "x"), 0, STACK),
    Case("x=2", eq("x=1", "x"), 0, STACK),
    Case("2=x", eq("x=1", "x"), 0, STACK),
    Case("0=-x+y/A+(y-z)/B", eq("0=x-y/A-(y-z)/B", "x y z A B"), 1, STACK),
    Case("y=(a-x)^6000", eq("y=(x-a)^6000", "x y a"), 1, STACK),
    Case("y=(a-x)^5999", eq("y=(x-a)^5999", "x y a"), 0, STACK),
    Case("s^2*e^(s*t)=0", eq("s^2=0", "s t"), 0, STACK),
    Case("x^6000-x^6001=x^5999", eq("x^5999*(1-x+x^3)=0", "x"), 0, STACK),
    Case("Ia*(R1+R2+R3)-Ib*R3=0", eq("-Ia*(R1+R2+R3)+Ib*R3=0", "Ia Ib R1 R2 R3"), 1, STACK),
    Case("a=0 or b=0", eq("a*b=0", "a b"), 1, STACK),
    Case("a*b=0", eq("a=0 or b=0", "a b"), 1, STACK),
    Case("a*x=a*y", eq("x=y", "a x y"), 0, STACK),
    Case("a*x=a*y", eq("a=0 or x=y", "a x y"), 1, STACK),
    Case("x^2-5*x+6=0", eq("x=2 or x=3", "x"), 1, STACK),
    Case("a^3*b^3=0", eq("a=0 or b=0", "a b"), 0, STACK),
    Case("a^3*b^3=0", eq("a*b=0", "a b"), 0, STACK),
    Case("x=1", eq("(x-1)^3=0", "x"), 0, STACK),
    Case("sqrt(x)=sqrt(y)", eq("x=y"), 0, STACK),
    Case("x=sqrt(a)", eq("x^2=a", "x a"), 0, STACK),
    Case("(x-1)*(x+1)*(y-1)*(y+1)=0", eq("y^2+x^2=1+x^2*y^2"), 1, STACK),
    Case("2=3", eq("2=4", "x"), 1, STACK),
    Case("abs(x)=abs(y)", eq("x=y"), 0, STACK),
    Case("abs(x)=abs(y)", eq("x=y or x=-y"), 1, STACK),
    Case("abs(x)=abs(y)", eq("(x-y)*(x+y)=0"), 1, STACK),
    Case("x = -1/2 + sqrt(1/4 + 4/3)", eq("x = (-3 + sqrt(9 + 48))/6", "x"), 1, STACK),
    # WeBWorK ImplicitEquation: the same solutions (its documented examples).
    Case("x^2 - cos(y) = 0", eq("x^2 = cos(y)"), 1, WW_IMPLICIT),
    Case("x^2 = sin(y)", eq("x^2 = cos(y)"), 0, WW_IMPLICIT),
    Case("x*y = 1", eq("x = 1/y"), 1, WW_IMPLICIT),
    Case("x - y = 1/(x + y)", eq("x^2 - y^2 = 1"), 1, WW_IMPLICIT),
    Case("2y^2 = x^2 - 5", eq("x^2 - 2y^2 = 5"), 1, WW_IMPLICIT),
    Case("x - y = 0", eq("x^2 - y^2 = 0"), 0, WW_IMPLICIT),
    # Numbas JME parts on relations.
    Case("x<y", eq("x<y"), 1, NUMBAS_PARTS),
    Case("x-y<0", eq("x<y"), 1, NUMBAS_PARTS),
    Case("x=y", eq("x<y"), 0, NUMBAS_PARTS),
    Case("y>x", eq("x<y"), 1, NUMBAS_PARTS),
    Case("y=x^2+2", eq("y=x^2+2"), 1, NUMBAS_PARTS),
    # Inequalities.
    Case("1", eq("x>1", "x"), 0, STACK),
    Case("x=1", eq("x>1 and x<5", "x"), 0, STACK),
    Case("x<1", eq("x>1", "x"), 0, STACK),
    Case("1<x", eq("x>1", "x"), 1, STACK),
    Case("a<b", eq("b>a", "a b"), 1, STACK),
    Case("2<2*x", eq("x>1", "x"), 1, STACK),
    Case("-2>-2*x", eq("x>1", "x"), 1, STACK),
    Case("x>1", eq("x<=1", "x"), 0, STACK),
    Case("x>=2", eq("x<2", "x"), 0, STACK),
    Case("x>=1", eq("x>2", "x"), 0, STACK),
    Case("x>2", eq("x>1", "x"), 0, STACK),
    Case("2*x>=x^2", eq("x^2<=2*x", "x"), 1, STACK),
    Case("3*x^2<9*a", eq("x^2-3*a<0", "x a"), 1, STACK),
    Case("x^2>4", eq("x>2 or x<-2", "x"), 1, STACK),
    Case("1<x or x<-3", eq("x<-3 or 1<x", "x"), 1, STACK),
    Case("1<x or x<-3", eq("x<-1 or 3<x", "x"), 0, STACK),
    Case("x>1 and x<5", eq("5>x and 1<x", "x"), 1, STACK),
    Case("x>=1 or 1<=x", eq("x>=1", "x"), 1, STACK),
    Case("x>=1 and x<=1", eq("x=1", "x"), 1, STACK),
    Case("(x < 0 or x >= 1) and x <= 3", eq("x < 0 or (x >= 1 and x <= 3)", "x"), 1, STACK),
    Case("x^4>=0", eq("x^2>=0", "x"), 1, STACK),
    Case("x^4>=16", eq("x^2>=4", "x"), 1, STACK),
    Case("-3<=x", eq("-3<=x and x<=3", "x"), 0, STACK),
    Case("x^2<4", eq("x<2 and x>-2", "x"), 1, STACK),
    Case("x^2<6", eq("x<2 and x>-2", "x"), 0, STACK),
    Case("abs(x)<1", eq("abs(x)<1", "x"), 1, STACK),
    Case("abs(x)<1", eq("abs(x)<2", "x"), 0, STACK),
    Case("abs(x)<1", eq("abs(x)>1", "x"), 0, STACK),
    Case("abs(x)<2", eq("-2<x and x<2", "x"), 1, STACK),
    Case("-2<x and x<2", eq("abs(x)<2", "x"), 1, STACK),
    Case("abs(x)<2", eq("-1<x and x<1", "x"), 0, STACK),
    Case("x^2<=9", eq("abs(x)<3", "x"), 0, STACK),
    Case("x^2<=9", eq("abs(x)<=3", "x"), 1, STACK),
    Case("x^6<1", eq("abs(x)<1", "x"), 1, STACK),
    Case("abs(x)>1", eq("x<-1 or x>1", "x"), 1, STACK),
    Case("x != 1", eq("x != 1", "x"), 1, STACK),
    Case("x != (1+1)", eq("x != 2", "x"), 1, STACK),
    Case("1 != x", eq("x != 1", "x"), 1, STACK),
    Case("x != 2", eq("x-2 != 0", "x"), 1, STACK),
    Case("x-3 != 0", eq("x != 2", "x"), 0, STACK),
    Case("x != 2", eq("x<2 or x>2", "x"), 1, STACK),
    Case("x^2-3 != 1", eq("x<-2 or (-2<x and x<2) or 2<x", "x"), 1, STACK),
    Case("x != 1", eq("x != 0", "x"), 0, STACK),
    # STACK SysEquiv: systems with the same solutions.
    Case("3*a+b-c=2, a-b+2*c=5, b+c=5", eq(["a=1", "b=2", "c=3"], "a b c"), 1, STACK),
    Case("a=1, b=2, c=3", eq(["3*a+b-c=2", "a-b+2*c=5", "b+c=5"], "a b c"), 1, STACK),
    Case("a=1, b=2, c=4", eq(["3*a+b-c=2", "a-b+2*c=5", "b+c=5"], "a b c"), 0, STACK),
    Case("90=v*t, 90=(v+5)*(t-1/4)", eq(["90=v*t", "90=(v+5)*(t-1/4)"], "v t"), 1, STACK),
    Case("90=v*t", eq(["90=v*t", "90=(v+5)*(t-1/4)"], "v t"), 0, STACK),
    Case("x=1, y=-1", eq(["(x-1)*(y+1)=0"]), 0, STACK),
    Case("x^2+y^2=4, y=x", eq(["y=x", "y^2=2"]), 1, STACK, ours="incorrect",
         why=NONLINEAR_SYSTEMS),
    Case("x^2+y^2=2, y=x", eq(["y=x", "y^2=2"]), 0, STACK),
]

SETS = [
    # STACK AlgEquiv and Sets on finite sets (Maxima sets drop repeats: reduced = false).
    Case("{1,2}", realset("{1,2,3}"), 0, STACK),
    Case("{2/4, 1/3}", realset("{1/2, 1/3}"), 1, STACK),
    Case("{1,2,4}", realset("{1,2,3}"), 0, STACK),
    Case("{1,2,2+2}", realset("{1,2}"), 0, STACK),
    Case("{5,1,2,4}", realset("{1,2,3}"), 0, STACK),
    Case("{1,2,1}", realset("{1,2}", reduced=False), 1, STACK),
    Case("{1,2,1+1}", realset("{1,2}", reduced=False), 1, STACK),
    Case("{1,2,1+1}", realset("{1,2,3}", reduced=False), 0, STACK),
    Case("{-sqrt(2)/sqrt(3)}", realset("{-2/sqrt(6)}"), 1, STACK),
    Case("{(2-2^(5/2))/2, (2^(5/2)+2)/2}", realset("{1-2^(3/2), 2^(3/2)+1}"), 1, STACK),
    Case("x", realset("{1,2,3}"), 0, STACK),
    # Real sets: intervals and unions (STACK oo/oc/co/cc and %union).
    Case("(1,2) U (3,4)", realset("(1,2) U (3,4)"), 1, STACK),
    Case("(1,2] U [2,3)", realset("(1,3)", reduced=False), 1, STACK),
    Case("(1,2] U [2,3)", realset("[1,3]", reduced=False), 0, STACK),
    Case("{-1,1}", realset("{-1,1}"), 1, STACK),
    Case("{1,3}", realset("[1,3]"), 0, STACK),
    Case("(-oo,1)", realset("(-oo,1)"), 1, STACK),
    Case("(-1,oo)", realset("(0,oo)"), 0, STACK),
    Case("(-oo,0] U (-1,4)", realset("(-oo,4)", reduced=False), 1, STACK),
    Case("(-oo,1) U (-1,oo)", realset("(-oo,oo)", reduced=False), 1, STACK),
    Case("R", realset("(-oo,oo)"), 1, STACK),
    Case("x^2", realset("[1,3]"), 0, STACK),
    # STACK NumRelative / NumAbsolute on sets: each element within the tolerance.
    Case("{1.414,3.1}", realset("{pi,sqrt(2)}", rtol=0.1), 1, STACK),
    Case("{0,1,2}", realset("{0,1,2}", rtol=0.1), 1, STACK),
    Case("{-1,2,3}", realset("{-1,2,3}", rtol=0.01), 1, STACK),
    Case("{-1.1,2,3}", realset("{-1,2,3}", rtol=0.01), 0, STACK),
    Case("{1,1.414,3.1,2}", realset("{1,2,pi,sqrt(2)}", atol=0.1), 1, STACK),
    Case("{-1.1,2,3}", realset("{-1,2,3}", atol=0.01), 0, STACK),
    Case("[3,1.414]", realset("{pi,sqrt(2)}", rtol=0.01), 0, STACK),
    # WeBWorK Interval context: equality of intervals and unions, and illegal intervals.
    Case("(0,1)", realset("(0,1)"), 1, WW_INTERVAL),
    Case("[0,1]", realset("(0,1)"), 0, WW_INTERVAL),
    Case("[5,10]", realset("[5,10]"), 1, WW_INTERVAL),
    Case("[5,infinity)", realset("[5,oo)"), 1, WW_INTERVAL),
    Case("(-infinity,4)", realset("(-oo,4)"), 1, WW_INTERVAL),
    Case("(-infinity,infinity)", realset("R"), 1, WW_INTERVAL),
    Case("(1,5] U [2,7)", realset("(1,7)", reduced=False), 1, WW_INTERVAL),
    Case("(-infinity,7) U [4,infinity)", realset("R", reduced=False), 1, WW_INTERVAL),
    Case("[0,1] U [2,6]", realset("[0,1] U [2,6]"), 1, WW_INTERVAL),
    Case("(-infinity,-1) U (1,infinity)", realset("(-oo,-1) U (1,oo)"), 1, WW_INTERVAL),
    Case("(3,2)", realset("(2,3)"), 0, WW_INTERVAL),
    Case("(infinity,2)", realset("(2,oo)"), 0, WW_INTERVAL),
    Case("(3,-infinity)", realset("(-oo,3)"), 0, WW_INTERVAL),
    Case("[-infinity,3]", realset("(-oo,3]"), 0, WW_INTERVAL),
    Case("[-3,infinity]", realset("[-3,oo)"), 0, WW_INTERVAL),
    # MITx IntervalGrader (brackets and ends graded).
    Case("[1, 2)", realset("[1, 2)"), 1, MITX_INTERVAL),
    Case("(1, 2)", realset("[1, 2]"), 0, MITX_INTERVAL),
    Case("(1, 2)", realset("(2, 3)"), 0, MITX_INTERVAL),
    Case("[1, 2)", realset("[1, 2]"), 0.5, MITX_INTERVAL, ours="incorrect",
         why=INTERVAL_PARTIAL),
    Case("[1, 2)", realset("[1, 2]", end_credit=True), 0.5, MITX_INTERVAL),
    Case("(1, 3)", realset("[1, 2]", end_credit=True), 0, MITX_INTERVAL),
    Case("[1, 3]", realset("[1, 2]", end_credit=True), 0.5, MITX_INTERVAL),
    Case("{1, 2}", realset("[1, 2]"), 0, MITX_INTERVAL),
    Case("[1, 2}", realset("[1, 2]"), 0, MITX_INTERVAL),
]

LISTS = [
    # STACK AlgEquiv / NumRelative / NumAbsolute on lists: ordered, entry by entry.
    Case("[1,2]", lst(["1", "2", "3"], ordered=True), 0, STACK),
    Case("[1,2,4]", lst(["1", "2", "3"], ordered=True), 0, STACK),
    Case("[1,2]", lst(["1", "2"], ordered=True, rtol=0.05), 1, STACK),
    Case("[3.141,1.414]", lst(["pi", "sqrt(2)"], ordered=True, rtol=0.05), 1, STACK),
    Case("[3,1.414]", lst(["pi", "sqrt(2)"], ordered=True, rtol=0.01), 0, STACK),
    Case("[3.141,1.414]", lst(["pi", "sqrt(2)"], ordered=True, atol=0.01), 1, STACK),
    Case("[3,1.414]", lst(["pi", "sqrt(2)"], ordered=True, atol=0.01), 0, STACK),
    Case("[(k+8)/(k^2+4*k-12), -(2*k+6)/(k^2+4*k-12)]",
         lst(["(k+8)/(k^2+4*k-12)", "-(2*k+6)/(k^2+4*k-12)"], ordered=True, variables=["k"]),
         1, STACK),
    Case("[1,2]", lst(["1", "2", "3"], ordered=True), 0, STACK),
    # MITx SingleListGrader: unordered by default, partial credit by entries.
    Case("1, 2", lst(["1", "2"], partial=True), 1, MITX_LIST),
    Case("2, 1", lst(["1", "2"], partial=True), 1, MITX_LIST),
    Case("1, 7", lst(["1", "2"], partial=True), 0.5, MITX_LIST),
    Case("1", lst(["1", "2"], partial=True), 0.5, MITX_LIST),
    Case("1, 2, 3", lst(["1", "2"], partial=True), 2 / 3, MITX_LIST),
    Case("1, 2, 3", lst(["1", "2", "3"], ordered=True, partial=True), 1, MITX_LIST),
    Case("1, 3, 2", lst(["1", "2", "3"], ordered=True, partial=True), 1 / 3, MITX_LIST),
    Case("1, 3, 2", lst(["1", "2", "3"], ordered=True), 0, MITX_LIST),
]

MATRICES = [
    # STACK AlgEquiv on matrices.
    Case("[[1,2],[2,3]]", mat("[[1,2],[2,3]]"), 1, STACK),
    Case("[[1,2],[2,3]]", mat("[[1,2,3],[2,3,3]]"), 0, STACK),
    Case("[[1,2],[2,3]]", mat("[[1,2],[2,5]]"), 0, STACK),
    Case("[[0.33,1],[1,1]]", mat("[[0.333,1],[1,1]]"), 0, STACK),
    Case("[[x+x,2],[2,x*x]]", mat("[[2*x,2],[2,x^2]]", variables=["x"]), 1, STACK),
    Case("[[1,2],[2,2+1]]", mat("[[1,2],[2,3]]"), 1, STACK),
    # Numbas matrix entry parts.
    Case("[[1,2,3],[4,5,6]]", mat("[[1,2,3],[4,5,6]]"), 1, NUMBAS_PARTS),
    Case("[[1,2],[3,4]]", mat("[[1,2,3],[4,5,6]]"), 0, NUMBAS_PARTS),
    Case("[[1/3,0],[0,1/3]]", mat("identity(2)/3"), 1, NUMBAS_PARTS),
    Case("[[2/6,0],[0,2/6]]", mat("identity(2)/3"), 1, NUMBAS_PARTS),
    Case("[[0.71,0.29],[0.57,0.14]]", mat("M/7", decimals=2), 1, NUMBAS_PARTS,
         params={"M": [[5, 2], [4, 1]]}),
    Case("[[0.5,0.5],[1.5,1.5]]", mat("[[1,1],[1,1]]", atol=0.5), 1, NUMBAS_PARTS),
    Case("[[1,1],[1,0]]", mat("[[1,1],[1,1]]", atol=0.5), 0, NUMBAS_PARTS),
    Case("[[1.1,1.2],[0.7,0.9]]", mat("[[1,1],[1,1]]", atol=0.5), 1, NUMBAS_PARTS),
    Case("[[1,2],[3,4]]", mat("[[1,2],[3,4]]", partial=True), 1, NUMBAS_PARTS),
    Case("[[1,2],[3,3]]", mat("[[1,2],[3,4]]", partial=True), 0.75, NUMBAS_PARTS),
    # MITx MatrixGrader: a wrong shape is an error, not a grade.
    Case("[[1, 2, 3]]", mat("[[1, 2, 3]]"), 1, MITX_MATRIX),
    Case("[[1, 2, 3, 4]]", mat("[[1, 2, 3]]"), 0, MITX_MATRIX),
    Case("[1; 2; 3]", mat("[[1, 2, 3]]"), 0, MITX_MATRIX),
    Case("0", mat("[[1, 2, 3]]"), 0, MITX_MATRIX),
]

QUANTITIES = [
    # STACK Units: n significant figures written and accurate, any equivalent unit.
    Case("12.3", qty("12.3 m", 3), 0, STACK),
    Case("12", qty("12.3 m", 3), 0, STACK),
    Case("m/s", qty("12.3 m/s", 3), 0, STACK),
    Case("9.81+m/s", qty("9.81 m/s", 3), 0, STACK),
    Case("12.3 m/s", qty("12.3 m/s", 3), 1, STACK),
    Case("12.4 m/s", qty("12.3 m/s", 3), 0, STACK),
    Case("12.4 m/s", qty("12.3 m/s", (3, 2)), 1, STACK),
    Case("12.45 m/s", qty("12.3 m/s", (3, 2)), 0, STACK),
    Case("-9.81 m/s^2", qty("-9.81 m/s^2", 3), 1, STACK),
    Case("-9.82 m/s^2", qty("-9.815 m/s^2", 3), 1, STACK),
    Case("-9.81 m/s^2", qty("-9.815 m/s^2", 3), 0, STACK),
    Case("-9.81 m*s^(-2)", qty("-9.81 m/s^2", 3), 1, STACK),
    Case("-9.82 m/s^2", qty("-9.81 m/s^2", 3), 0, STACK),
    Case("-9.81 m/s/s", qty("-9.81 m/s^2", 3), 1, STACK),
    Case("-9.81 m/s", qty("-9.81 m/s^2", 3), 0, STACK),
    Case("(-9.81) m/s^2", qty("-9.81 m/s^2", 3), 1, STACK),
    Case("(-9.81)", qty("-9.81 m/s^2", 3), 0, STACK),
    Case("9.81 m/s", qty("-9.81 m/s^2", 3), 0, STACK),
    Case("25 g", qty("0.025 kg", 2), 1, STACK),
    Case("26 g", qty("0.025 kg", 2), 0, STACK),
    Case("0.025 g", qty("0.025 kg", 2), 0, STACK),
    Case("1000 m", qty("1 km", 2), 1, STACK),
    Case("400 cm^3", qty("0.4 l", 2), 1, STACK),
    Case("400 ml", qty("0.4 l", 2), 1, STACK),
    Case("18 kJ", qty("18000.0 J", 2), 1, STACK),
    Case("18.1 kJ", qty("18000.0 J", 2), 0, STACK),
    Case("120 kWh", qty("0.12 MWh", 2), 1, STACK),
    Case("0 m/s", qty("0 m/s", 1), 1, STACK),
    Case("0.0 km/s", qty("0.0 m/s", 1), 1, STACK),
    Case("0.0 m", qty("0.0 m/s", 1), 0, STACK),
    Case("7 in", qty("7 in", 1), 1, STACK),
    Case("6 in", qty("0.5 ft", 1), 1, STACK),
    Case("2640 ft", qty("0.5 mi", 4), 1, STACK),
    # STACK UnitsStrict: the teacher's unit exactly.
    Case("25 g", qty("0.025 kg", 2, unit_match="exact"), 0, STACK),
    Case("400 ml", qty("0.4 l", 2, unit_match="exact"), 0, STACK),
    Case("-9.81 m/s/s", qty("-9.81 m/s^2", 3, unit_match="exact"), 1, STACK),
    Case("0.0 m/s", qty("0 m/s", 1, unit_match="exact"), 1, STACK),
    Case("0.0 km/s", qty("0.0 m/s", 1, unit_match="exact"), 0, STACK),
    Case("2.33e-15 kg", qty("2.33e-15 kg", (3, 2), unit_match="exact"), 1, STACK),
    Case("7.03e-3 ng", qty("7.03e-3 ng", (3, 2), unit_match="exact"), 1, STACK),
    Case("9.80e-9 mg", qty("9.8e-9 mg", (3, 2), unit_match="exact"), 1, STACK),
    Case("9.83e-9 mg", qty("9.8e-9 mg", (3, 2), unit_match="exact"), 1, STACK),
    Case("9.78e-9 mg", qty("9.8e-9 mg", (3, 2), unit_match="exact"), 1, STACK),
    Case("-36 kJ/mol", qty("-36 kJ/mol", 2, unit_match="exact"), 1, STACK),
    Case("(-36 kJ)/mol", qty("-36 kJ/mol", 2, unit_match="exact"), 1, STACK),
    Case("(-36*kJ)/mol", qty("-36 kJ/mol", 2, unit_match="exact"), 1, STACK),
    # STACK UnitsRelative/UnitsAbsolute results pages: a unit with a number inside.
    Case("1.1*Mg/10^6", {"type": "quantity", "reference": "1.2 kN*ns/(mm*Hz)", "rtol": 0.15},
         1, STACK_UNITS_RELATIVE),
    Case("1.1*Mg/10^6", {"type": "quantity", "reference": "1.2 kN*ns/(mm*Hz)", "rtol": 0.05},
         0, STACK_UNITS_RELATIVE),
    Case("12.3*m/s", {"type": "quantity", "reference": "12.3 m/s", "rtol": 0.01}, 1,
         STACK_UNITS_RELATIVE),
    Case("12*m/s", {"type": "quantity", "reference": "12.3 m/s", "rtol": 0.01}, 0,
         STACK_UNITS_RELATIVE),
    Case("0.0*kVA", {"type": "quantity", "reference": "0.0 kVA", "rtol": 0.002}, 1,
         STACK_UNITS_RELATIVE),
    Case("0.0", {"type": "quantity", "reference": "0.0 m/s", "rtol": 0.01}, 0,
         STACK_UNITS_RELATIVE),
    # STACK's units: l and L are both the litre; UnitsStrict compares units, not spellings.
    Case("0.40 L", qty("0.4 l", 2, unit_match="exact"), 1, STACK_UNITS_DOC),
    Case("12 metre", qty("12 m", 2, unit_match="exact"), 1, STACK_UNITS_DOC),
]

COMPLEX = [
    # STACK AlgEquiv on complex numbers (Maxima's %i).
    Case("sqrt(-1)", cplx("i"), 1, STACK),
    Case("i", cplx("e^(i*pi/2)"), 1, STACK),
    Case("(4*sqrt(3)*i+4)^(1/5)", cplx("8^(1/5)*(cos(pi/15)+i*sin(pi/15))"), 1, STACK),
    Case("(4*sqrt(3)*i+4)^(1/5)", cplx("6^(1/5)*cos(pi/15)-6^(1/5)*i*sin(pi/15)"), 0, STACK),
    Case("5/4*e^(i*pi/6)", cplx("5*sqrt(3)/8+5/8*i"), 1, STACK),
    Case("exp(i*pi)", cplx("-1"), 1, STACK),
    Case("i/sqrt(x)", csym("sqrt(-1/x)", "x"), 1, STACK),
    Case("e^(i*t)", csym("cos(t)+i*sin(t)", "t"), 1, STACK),
    Case("e^(i*t)", csym("i*sin(t)", "t"), 0, STACK),
    Case("e^(i*200*t)", csym("e^(i*199*t)", "t"), 0, STACK),
    Case("i*sin(3*k)+cos(3*k)", csym("e^(3*i*k)", "k"), 1, STACK),
    Case("i*(3*cos(k)^2*sin(k)-sin(k)^3)-3*cos(k)*sin(k)^2+cos(k)^3", csym("e^(3*i*k)", "k"),
         1, STACK),
    Case("i*(3*cos(k)^2*sin(k)-sin(k)^3)-3*cos(k)*sin(k)^2+cos(k)^3", csym("e^(7*i*k)", "k"),
         0, STACK),
    # PrairieLearn: complex answers compared part by part (sigfigs/decimals).
    Case("1.23 + 4.57i", cplx("1.2345 + 4.5678*i", sigfigs=3), 1, PL_GRADING),
    Case("1.23 + 4.56i", cplx("1.2345 + 4.5678*i", sigfigs=3), 0, PL_GRADING),
    Case("e^(pi * i)", cplx("-1"), 1, PL_SYMPY),
    Case("sqrt(-4)", cplx("2*i"), 1, MITX_FORMULA),
    Case("(-4)^0.5", cplx("2*i"), 1, MITX_FORMULA),
    Case("3jn", {"type": "symbolic", "reference": "3*j*n", "variables": ["n"],
                 "imaginary_unit": "j"}, 1, PL_SYMPY),
    Case("i * i * n", csym("-n", "n"), 1, PL_SYMPY),
]

STRINGS = [
    # STACK String: exact (case and spaces count).
    Case("Hello", string("hello", case_sensitive=True, whitespace="exact"), 0, STACK),
    Case("hello", string("hello", case_sensitive=True, whitespace="exact"), 1, STACK),
    Case("hello", string("heloo", case_sensitive=True, whitespace="exact"), 0, STACK),
    Case("With spaces", string("With spaces", case_sensitive=True, whitespace="exact"), 1,
         STACK),
    Case("Without spaces", string("Withoutspaces", case_sensitive=True, whitespace="exact"), 0,
         STACK),
    Case(" Hello ", string("Hello", case_sensitive=True, whitespace="exact"), 0, STACK),
    # MITx StringGrader: strip (outer spaces, of the key too) and case sensitivity.
    Case("cat", string("cat", case_sensitive=True), 1, MITX_STRING),
    Case("   cat   ", string("cat", case_sensitive=True), 1, MITX_STRING),
    Case("c at", string("cat", case_sensitive=True), 0, MITX_STRING),
    Case("  dog  ", string("cat", case_sensitive=True), 0, MITX_STRING),
    Case("cat", string("         cat", case_sensitive=True), 1, MITX_STRING),
    Case(" cat", string("cat", case_sensitive=True, whitespace="exact"), 0, MITX_STRING),
    Case("cat ", string("cat", case_sensitive=True, whitespace="exact"), 0, MITX_STRING),
    Case(" cat", string(" cat", case_sensitive=True, whitespace="exact"), 1, MITX_STRING),
    Case("Cat", string("cat", case_sensitive=True), 0, MITX_STRING),
    Case("CAT", string("CAT", case_sensitive=True), 1, MITX_STRING),
    Case("CAT", string("cat"), 1, MITX_STRING),
    Case("(1234566542)", pattern(r"\([0-9]+\)"), 1, MITX_STRING),
    Case("(1234566542)a", pattern(r"\([0-9]+\)"), 0, MITX_STRING),
    Case("1", pattern(r"\([0-9]+\)"), 0, MITX_STRING),
    # STACK StringSloppy: case and all spaces ignored.
    Case("hello", string("hello", whitespace="ignore"), 1, STACK),
    Case("hello", string("heloo", whitespace="ignore"), 0, STACK),
    Case("hel lo", string("hello", whitespace="ignore"), 1, STACK),
    Case("hel lo", string("Hel*lo", whitespace="ignore"), 0, STACK),
    Case(" hel   lo    ", string("hello", whitespace="ignore"), 1, STACK),
    # STACK Levenshtein (similarity 0.8 of "Hello": one edit) and CASE.
    Case("hello", string(["Hello", "Good day", "Hi"], max_distance=1), 1, STACK),
    Case("hello", string(["Hello", "Good day", "Hi"], max_distance=1, case_sensitive=True),
         1, STACK),
    Case("goodday", string(["Hello", "Good day", "Hi"], max_distance=1), 1, STACK),
    Case("goodday", string(["Hello", "Good day", "Hi"], max_distance=1, case_sensitive=True),
         0, STACK),
    Case("Jello", string(["Hello", "Good day", "Hi"]), 0, STACK),
    # Numbas pattern match parts (exact, or a regular expression matching the whole answer).
    Case("thing!", string("thing!"), 1, NUMBAS_PARTS),
    Case("THING!", string("thing!"), 1, NUMBAS_PARTS),
    Case("thing!", string("thing!", case_sensitive=True, alternatives=[
        {"answer": "thing!", "case_sensitive": False, "credit": 0.5}]), 1, NUMBAS_PARTS),
    Case("THING!", string("thing!", case_sensitive=True, alternatives=[
        {"answer": "thing!", "case_sensitive": False, "credit": 0.5}]), 0.5, NUMBAS_PARTS),
    Case("two words", pattern(r"\w+ \w+"), 1, NUMBAS_PARTS),
    Case("this thing!", pattern(r"\w+ \w+"), 0, NUMBAS_PARTS),
    # STACK SRegExp.
    Case("aaaaabbb", pattern("(aaa)*b"), 1, STACK, ours="incorrect", why=SEARCH),
    Case("aab", pattern("(aaa)*b"), 1, STACK, ours="incorrect", why=SEARCH),
    Case("aaac", pattern("(aaa)*b"), 0, STACK),
    Case("aab", pattern("^(aaa)*b$"), 0, STACK),
    Case("aAb", pattern("^[aA]*b$"), 1, STACK),
    Case(" aAb", pattern("^[aA]*b$"), 0, STACK),
    Case("caAb", pattern("(?i:a*b)"), 1, STACK, ours="incorrect", why=SEARCH),
    Case("Alice went to the market", pattern("(Alice|Bob) went to the (bank|market)"), 1,
         STACK),
    Case("Malice went to the shop", pattern("(Alice|Bob) went to the (bank|market)"), 0,
         STACK),
]


def words(*keys: str, **extra: Any) -> dict[str, Any]:
    return {"type": "item_list", "items": [{"type": "string", "reference": k} for k in keys],
            **extra}


STACK_LOGIC = "maths/moodle-qtype_stack doc/en/Topics/Propositional_Logic.md"
MATH_VERIFY = "huggingface/Math-Verify README.md"

ROUND_THREE = [
    # MITx SingleListGrader with StringGrader items.
    Case("cat, fish, dog", words("cat", "dog", "unicorn"), 2 / 3, MITX_LIST),
    Case("hawk, moose", words("moose", "eagle"), 0.5, MITX_LIST),
    Case("hawk, moose", words("moose", "eagle", partial=False), 0, MITX_LIST),
    Case("tiger, skunk, horse", words("tiger", "skunk"), 0.5, MITX_LIST),
    Case("cat, fish, moose", words("cat", "dog", "fish", ordered=True), 1 / 3, MITX_LIST),
    Case("dog", words("cat", "dog", ordered=True), 0, MITX_LIST),
    Case("cat; dog", words("cat", "dog", delimiter=";"), 1, MITX_LIST),
    # STACK AlgEquiv with #pm#, written ±.
    Case("cos(x ± y)", sym("cos(x)*cos(y) - (±sin(x)*sin(y))", "x y"), 1, STACK),
    Case("sin(x ± y)", sym("sin(x)*cos(y) ± cos(x)*sin(y)", "x y"), 1, STACK),
    Case("sin(x ± y)", sym("cos(x)*sin(y) ± sin(x)*cos(y)", "x y"), 0, STACK),
    # STACK: undefined answers fail the test ("ATAlgEquiv_STACKERROR_SAns").
    Case("1/0", sym("1"), 0, STACK),
    # Propositional logic compared as Boolean functions.
    Case("not p or q", {"type": "logic", "reference": "p implies q", "variables": ["p", "q"]},
         1, STACK_LOGIC),
    Case("q implies p", {"type": "logic", "reference": "p implies q", "variables": ["p", "q"]},
         0, STACK_LOGIC),
    Case("not (p and q)", {"type": "logic", "reference": "not p or not q",
                           "variables": ["p", "q"]}, 1, STACK_LOGIC),
    # Math-Verify: LaTeX answers against plain golds.
    Case(r"\frac{1}{2}", num("0.5", latex=True), 1, MATH_VERIFY),
    Case(r"\left[0,1\right)", realset("[0,1)", latex=True), 1, MATH_VERIFY),
    Case(r"\{1,2\}", realset("{1,2}", latex=True), 1, MATH_VERIFY),
    Case(r"\{1,3\}", realset("{1,2}", latex=True), 0, MATH_VERIFY),
]

CASES = (NUMERIC + SYMBOLIC + FORMS + ANTIDERIVATIVES + EQUATIONS + SETS + LISTS + MATRICES
         + QUANTITIES + COMPLEX + STRINGS + ROUND_THREE)


def our_score(case: Case) -> tuple[str, float | None]:
    result = grade(case.answer, case.spec, case.params)
    if result.outcome == "correct":
        return result.outcome, 1.0
    if result.outcome == "partial":
        return result.outcome, result.score
    if result.outcome in ("incorrect", "invalid"):
        return result.outcome, 0.0
    return result.outcome, None


def test_the_sweep_is_large_and_cites_its_sources():
    assert len(CASES) >= 200
    assert all(case.source.count(" ") == 1 and "/" in case.source for case in CASES)
    assert all(bool(case.ours) == bool(case.why) for case in CASES)


@pytest.mark.parametrize("case", [c for c in CASES if c.ours is None],
                         ids=lambda c: f"{c.spec['type']}:{c.answer}")
def test_we_give_the_peers_documented_verdict(case):
    outcome, score = our_score(case)
    assert score is not None, f"{case.answer!r}: {outcome}"
    assert score == pytest.approx(case.peer), (
        f"{case.answer!r} against {case.spec}: we say {outcome} ({score}), "
        f"{case.source} says {case.peer}")


@pytest.mark.parametrize("case", [c for c in CASES if c.ours is not None],
                         ids=lambda c: f"{c.spec['type']}:{c.answer}")
def test_documented_differences_still_hold(case):
    outcome, score = our_score(case)
    assert outcome == case.ours
    assert score != pytest.approx(case.peer)
