"""Hostile XML is refused with a clear message, and nothing is written."""

import pytest

from interchange.module_writer import import_moodle_file
from interchange.safe_xml import XmlRefused, parse_xml

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<quiz><question type="essay"><name><text>&lol3;</text></name></question></quiz>"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<quiz><question type="essay"><name><text>&xxe;</text></name></question></quiz>"""


def test_entity_expansion_is_refused():
    with pytest.raises(XmlRefused, match="DTD"):
        parse_xml(BILLION_LAUGHS)


def test_external_entities_are_refused():
    with pytest.raises(XmlRefused, match="DTD"):
        parse_xml(EXTERNAL)


def test_a_huge_file_is_refused_before_parsing():
    with pytest.raises(XmlRefused, match="at most 1,000 are read"):
        parse_xml(b"<quiz>" + b" " * 2000 + b"</quiz>", limit=1000)


def test_malformed_xml_names_the_line():
    with pytest.raises(XmlRefused, match="malformed XML at line 2"):
        parse_xml(b"<quiz>\n<question></quiz>")


@pytest.mark.parametrize("data", [BILLION_LAUGHS, EXTERNAL, b"<html/>"])
def test_a_refused_file_writes_nothing(tmp_path, data):
    report = import_moodle_file(data, tmp_path / "m")
    assert report.refused and report.summary().startswith("Nothing imported")
    assert list(tmp_path.iterdir()) == []
