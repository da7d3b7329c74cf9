"""Reading an uploaded XML file without trusting it.

defusedxml refuses a DTD, every entity declaration (so no billion laughs, no quadratic
blow-up) and every external reference (no file or network read); the size is capped before
parsing. Each refusal is an `XmlRefused` with a message an instructor can act on.
"""

import re
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException, DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import fromstring

#: The largest file read (bytes): a bank of thousands of questions is a few megabytes.
MAX_XML_BYTES = 20 * 1024 * 1024
_QUESTION_TAG = re.compile(rb"<question\b")


class XmlRefused(ValueError):
    """The file is not read: too large, malformed, or using DTDs or entities."""


def parse_xml(data: bytes, *, limit: int = MAX_XML_BYTES) -> Element:
    """The root element of `data`, or XmlRefused saying why the file is not read.

    No DTD, entity declaration or external reference is accepted, and nothing is fetched.
    """
    if len(data) > limit:
        raise XmlRefused(f"the file is {len(data):,} bytes; at most {limit:,} are read")
    try:
        return fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DTDForbidden as exc:
        raise XmlRefused("the file declares a DTD (<!DOCTYPE ...>), which is refused: "
                         "entities could expand without bound or read other files") from exc
    except EntitiesForbidden as exc:
        raise XmlRefused(f"the file declares the entity '{exc.name}', which is refused "
                         "(entity expansion)") from exc
    except ExternalReferenceForbidden as exc:
        raise XmlRefused("the file refers to an external resource, which is refused") from exc
    except DefusedXmlException as exc:
        raise XmlRefused(f"the file is refused: {exc}") from exc
    except ParseError as exc:
        line, column = exc.position
        raise XmlRefused(f"malformed XML at line {line}, column {column + 1}") from exc


def question_lines(data: bytes) -> list[int]:
    """The line of each `<question` start tag, in document order (1-based)."""
    return [data.count(b"\n", 0, match.start()) + 1 for match in _QUESTION_TAG.finditer(data)]
