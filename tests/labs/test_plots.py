"""SVG plots of lab results: standalone, accessible, deterministic, text kept as text."""

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from labs.plots import plot_for
from labs.simulations import LAB_SIMULATIONS, SIMULATIONS, validate_params

SVG = "{http://www.w3.org/2000/svg}"
KEYS = sorted(LAB_SIMULATIONS)


def result_for(key, seed=0, **params):
    clean, errors = validate_params(key, params)
    assert errors == {}
    return SIMULATIONS[key].run(clean, rng=np.random.default_rng(seed))


@pytest.fixture(scope="module", params=KEYS)
def plotted(request):
    key = request.param
    result = result_for(key)
    return key, result, plot_for(key, result)


def test_plot_is_an_svg_string_with_a_title_and_description(plotted):
    _, _, svg = plotted
    assert isinstance(svg, str)
    assert svg.startswith("<svg")
    root = ET.fromstring(svg)  # noqa: S314 - our own output; checks it is well-formed XML
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    title, desc = root[0], root[1]
    assert title.tag == f"{SVG}title" and title.text
    assert desc.tag == f"{SVG}desc" and desc.text
    assert root.get("aria-labelledby") == title.get("id")
    assert root.get("aria-describedby") == desc.get("id")


def test_plot_keeps_text_as_text_and_has_no_date(plotted):
    _, _, svg = plotted
    assert "<text" in svg
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg
    assert not svg.startswith("<?xml")


def test_plot_is_deterministic(plotted):
    key, result, svg = plotted
    assert plot_for(key, result) == svg


def test_every_internal_reference_points_to_an_id_of_the_same_plot(plotted):
    key, _, svg = plotted
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    refs = set(re.findall(r'href="#([^"]+)"', svg)) | set(re.findall(r"url\(#([^)]+)\)", svg))
    assert refs <= ids
    assert all(i.startswith(f"lab-{key}-") for i in ids)


def test_plot_is_small(plotted):
    _, _, svg = plotted
    assert len(svg.encode()) < 60_000


def test_gradient_plot_names_each_sigma_and_the_bound():
    svg = plot_for("vanishing-gradient", result_for("vanishing-gradient"))
    for sigma in ("0.5", "1", "1.5", "3"):
        assert f"\u03c3_max = {sigma}<" in svg
    assert "bound \u03c3_max^k" in svg
    assert "log scale" in svg  # the description says how to read the axis


def test_heatmap_labels_french_rows_and_english_columns():
    result = result_for("attention")
    svg = plot_for("attention", result)
    for token in ("européenne", "économique", "zone", "European", "Economic", "Area"):
        assert f">{token}<" in svg
    assert "diagonal-with-crossing" in svg


def test_word_plot_shows_the_analogy():
    svg = plot_for("word-vectors", result_for("word-vectors", word_a="cat", word_b="carburetor"))
    assert "king - man + woman" in svg
    assert ">carburetor<" in svg and "nearest to queen" in svg


def test_rnn_plot_labels_each_token():
    svg = plot_for("rnn", result_for("rnn"))
    assert svg.count(">the<") == 2 and ">mat<" in svg


@pytest.mark.parametrize(
    ("key", "params"),
    [
        ("vanishing-gradient", {"steps": 1, "units": 2}),
        ("vanishing-gradient", {"steps": 500, "sigmas": [0.05, 0.05, 10, 10], "input_scale": 0}),
        ("attention", {"sharpness": 0}),
        ("rnn", {"sentence": "the cat sat", "units": 64}),
        ("word-vectors", {"word_a": "king", "word_b": "king"}),
    ],
)
def test_edge_case_results_still_plot(key, params):
    svg = plot_for(key, result_for(key, **params))
    ET.fromstring(svg)  # noqa: S314 - our own output


def test_unknown_simulation_key_raises_key_error():
    with pytest.raises(KeyError):
        plot_for("transformer", {})


def test_plots_drawn_from_several_threads_match_plots_drawn_one_by_one():
    from concurrent.futures import ThreadPoolExecutor

    jobs = [(key, result_for(key, seed=seed)) for key in KEYS for seed in (0, 1)]
    expected = [plot_for(key, result) for key, result in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        drawn = list(pool.map(lambda job: plot_for(*job), jobs))
    assert drawn == expected


def test_plot_needs_no_css_so_the_sites_policy_cannot_turn_it_black(plotted):
    """`style-src 'self'` blocks inline style attributes and <style> elements: every colour,
    width and text anchor must be a presentation attribute (issue 37)."""
    _, _, svg = plotted
    root = ET.fromstring(svg)  # noqa: S314 - our own output
    elements = list(root.iter())
    assert [e.tag for e in elements if e.get("style") is not None] == []
    assert [e for e in elements if e.tag == f"{SVG}style"] == []
    assert root.get("stroke-linecap") == "butt" and root.get("stroke-linejoin") == "round"
    assert any(e.get("fill") == "#ffffff" for e in elements)  # the white background
    texts = [e for e in elements if e.tag == f"{SVG}text"]
    assert texts and all(e.get("font-size") and e.get("text-anchor") for e in texts)
