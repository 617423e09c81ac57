"""SVG made self-contained before it is drawn (core/reading/svg.py): every reference out of
the document removed, entities refused, the cost of a drawing bounded."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET

import pytest

from skillstudio.core.reading import svg
from skillstudio.core.reading.svg import SvgRefused, clean_svg

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 16).decode()


def cleaned(inner: str) -> str:
    return clean_svg((HEAD + inner + "</svg>").encode()).decode()


def references(text: str) -> list[str]:
    """Every href and url(...) left in the cleaned text."""
    root = ET.fromstring(text)
    found = [
        value
        for element in root.iter()
        for key, value in element.attrib.items()
        if key.rsplit("}", 1)[-1] in ("href", "src")
    ]
    return found + re.findall(r"url\(([^)]*)\)", text)


@pytest.mark.parametrize(
    "href",
    [
        "/dev/stdin",
        "pipe",
        "../outside.png",
        "file:///etc/passwd",
        "https://example.com/x.png",
        "red.png",
        "data:image/svg+xml;base64," + base64.b64encode(HEAD.encode() + b"</svg>").decode(),
        "data:image/png;base64," + base64.b64encode(b"<svg/>").decode(),  # not PNG bytes
        " data:text/html,x",
    ],
)
def test_an_image_naming_anything_but_inline_raster_data_is_dropped(href: str) -> None:
    for attribute in ("xlink:href", "href"):
        text = cleaned(f'<image {attribute}="{href}" width="9" height="9"/><rect/>')
        assert "<image" not in text and "<rect" in text
        assert references(text) == []


def test_inline_raster_data_and_references_inside_the_document_are_kept() -> None:
    text = cleaned(
        f'<defs><linearGradient id="g"/><rect id="r"/></defs>'
        f'<image xlink:href="data:image/png;base64,{PNG}"/>'
        '<use xlink:href="#r"/><rect fill="url(#g)" style="stroke:url(#g)"/>'
    )
    assert text.count("<image") == 1 and "<use" in text
    assert sorted(references(text)) == sorted([f"data:image/png;base64,{PNG}", "#r", "#g", "#g"])


def test_stylesheets_links_uses_and_scripts_reach_nothing_outside() -> None:
    text = cleaned(
        "<style>@import url(/etc/x.css); @import 'y.css'; .a{fill:url(other.svg#g)}"
        "@font-face{src:url(/dev/stdin)}</style>"
        '<rect style="fill:url(&quot;/dev/zero&quot;)" filter="url(f.svg#blur)" xml:base="/etc/"/>'
        '<use xlink:href="other.svg#x"/><feImage href="/dev/stdin"/><a href="https://e.com">'
        '<text onclick="x">t</text></a><script>alert(1)</script>'
        '<foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject>'
        '<textPath href="file.svg#p"/>'
    )
    assert references(text) == []  # each url(…) that leaves is `none` now
    assert text.count("none") == 4
    for gone in (
        "@import",
        "<use",
        "feImage",
        "script",
        "foreignObject",
        "onclick",
        "base=",
        "<textPath",
    ):
        assert gone not in text, gone


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (
            '<!DOCTYPE svg [<!ENTITY x SYSTEM "/etc/passwd">]>' + HEAD + "<text>&x;</text></svg>",
            "entities",
        ),
        ('<!DOCTYPE svg [<!ENTITY a "aaaaaaaa">]>' + HEAD + "&a;</svg>", "entities"),
        (HEAD + "<text>&undefined;</text></svg>", "not well-formed"),
        (HEAD + "<g>" * 200 + "</g>" * 200 + "</svg>", "deeper"),
        (HEAD + "<rect/>" * 20_001 + "</svg>", "elements"),
        (HEAD + '<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>', "back"),
        (HEAD + "<filter>" + "<feGaussianBlur/>" * 65 + "</filter></svg>", "filter"),
        ("<html/>", "not SVG"),
        ("\x1f\x8b compressed", "svgz"),
    ],
)
def test_what_cannot_be_read_safely_or_cheaply_is_refused(data: str, why: str) -> None:
    with pytest.raises(SvgRefused, match=why):
        clean_svg(data.encode("latin-1" if data.startswith("\x1f") else "utf-8"))


def test_a_chain_of_uses_is_measured_as_drawn() -> None:
    """Ten levels of ten uses draw 10**10 elements from a 2 KB file."""
    levels = "".join(f'<g id="l{n + 1}">' + f'<use href="#l{n}"/>' * 10 + "</g>" for n in range(10))
    with pytest.raises(SvgRefused, match="would draw"):
        clean_svg((HEAD + '<g id="l0"><rect/></g>' + levels + "</svg>").encode())
    few = "".join(f'<g id="l{n + 1}">' + f'<use href="#l{n}"/>' * 10 + "</g>" for n in range(3))
    clean_svg((HEAD + '<g id="l0"><rect/></g>' + few + "</svg>").encode())  # 1,000: fine


def test_a_plain_doctype_and_an_xml_declaration_are_read() -> None:
    data = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
        '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' + HEAD + "<rect/></svg>"
    )
    assert b"<rect" in clean_svg(data.encode())
    utf16 = clean_svg(b"\xff\xfe" + (HEAD + "<rect/></svg>").encode("utf-16-le"))
    assert b"<rect" in utf16


def test_the_size_bound_comes_first() -> None:
    with pytest.raises(SvgRefused, match="MB"):
        clean_svg(b" " * (svg.SVG_MAX_BYTES + 1))
