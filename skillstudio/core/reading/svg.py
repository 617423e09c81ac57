"""SVG from a skill folder made self-contained before anything renders it
(docs/development.md: images are rendered from the skill's own bytes with
external references removed).

An SVG renderer opens what an `<image href>`, a `<use href>` to another file, a
stylesheet `@import` or a `url(…)` names: `/dev/stdin`, a FIFO, any file on disk.
`clean_svg` parses the bytes (no DTD, so no entities) and writes them back with
every reference that leaves the document removed; what is kept is an `#id` inside
it or an inline `data:` raster image (PNG, JPEG, GIF, WebP, BMP, checked by its
bytes). It also bounds what a render may cost: size, depth, elements, the elements
drawn once `<use>` is expanded (a chain of uses multiplies), filter primitives.
Pure Python (xml.etree, iterative walks): core imports no Qt.
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
SVG_MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 100  # nesting (the writer recurses per level)
MAX_ELEMENTS = 20_000
MAX_DRAWN = 50_000  # elements drawn with every <use> expanded
MAX_FILTER_STEPS = 64  # filter primitives (each a pass over the image)
MAX_INLINE_IMAGE = 4 * 1024 * 1024  # decoded bytes of one data: image

# Elements never kept: scripts, foreign content, media.
DROPPED = frozenset(
    {"script", "foreignObject", "iframe", "audio", "video", "canvas", "handler", "listener"}
)
# Elements that draw what their href names: without an href left they are dropped.
REFERRING = frozenset({"use", "image", "feImage", "textPath", "tref", "mpath"})
RASTER_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"BM")
_DATA_URI = re.compile(
    r"\s*data:image/(?:png|jpeg|jpg|gif|webp|bmp)\s*;\s*base64\s*,(.*)\Z", re.I | re.S
)
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I | re.S)
_IMPORT = re.compile(r"@import[^;]*;?", re.I)
_DOCTYPE = re.compile(r"<!DOCTYPE(?:[^>\[\"']|\"[^\"]*\"|'[^']*')*(\[)?", re.I)
_XML_DECL = re.compile(r"\A\s*<\?xml[^>]*\?>")

ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)


class SvgRefused(ValueError):
    """An SVG that is not rendered; the message says why in plain words."""


def looks_like_svg(data: bytes) -> bool:
    """Text that starts (after a BOM, blanks, an XML declaration or comments) with
    markup: what a renderer would take as SVG. Raster images start with magic bytes."""
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") or head.startswith(b"\xff\xfe<") or head.startswith(b"\xfe\xff")


def is_raster(data: bytes) -> bool:
    """PNG, JPEG, GIF, BMP or WebP, by their first bytes."""
    return data.startswith(RASTER_MAGIC) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")


def clean_svg(data: bytes) -> bytes:
    """The SVG with everything that reaches outside it removed (UTF-8); SvgRefused
    when it cannot be read safely or would cost too much to draw."""
    if len(data) > SVG_MAX_BYTES:
        raise SvgRefused(f"the SVG is over {SVG_MAX_BYTES // (1024 * 1024)} MB")
    if data[:2] == b"\x1f\x8b":
        raise SvgRefused("a compressed SVG (svgz) is not previewed")
    text = _decode(data)
    text = _XML_DECL.sub("", text, count=1)
    doctype = _DOCTYPE.search(text)
    if doctype is not None:
        if doctype.group(1):
            raise SvgRefused("the SVG declares entities (a DOCTYPE with an internal subset)")
        end = text.find(">", doctype.end())
        text = text[: doctype.start()] + text[end + 1 :] if end >= 0 else text
    if "<!ENTITY" in text:
        raise SvgRefused("the SVG declares entities")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise SvgRefused(f"the SVG is not well-formed XML ({exc})") from None
    if _local(root.tag) != "svg":
        raise SvgRefused("the file is XML but not SVG")
    _clean_tree(root)
    _check_cost(root)
    return ET.tostring(root, encoding="unicode").encode("utf-8")


def _decode(data: bytes) -> str:
    for bom, codec in (
        (b"\xef\xbb\xbf", "utf-8"),
        (b"\xff\xfe", "utf-16-le"),
        (b"\xfe\xff", "utf-16-be"),
    ):
        if data.startswith(bom):
            data, encoding = data[len(bom) :], codec
            break
    else:
        encoding = "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise SvgRefused("the SVG is not UTF-8 or UTF-16 text") from None


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1] if name.startswith("{") else name


def _namespace(name: str) -> str:
    return name[1:].split("}", 1)[0] if name.startswith("{") else ""


def _clean_tree(root: ET.Element) -> None:
    """Drop foreign and scripted elements and every outside reference, top-down
    without recursion; refuse past MAX_DEPTH or MAX_ELEMENTS."""
    stack: list[tuple[ET.Element, int]] = [(root, 1)]
    count = 0
    while stack:
        element, depth = stack.pop()
        count += 1
        if depth > MAX_DEPTH:
            raise SvgRefused(f"the SVG nests deeper than {MAX_DEPTH} levels")
        if count > MAX_ELEMENTS:
            raise SvgRefused(f"the SVG has more than {MAX_ELEMENTS:,} elements")
        if _local(element.tag) == "style":  # its text, elements inside it taken as text
            css, attributes = "".join(element.itertext()), dict(element.attrib)
            element.clear()
            element.attrib.update(attributes)
            element.text = clean_css(css)
        _clean_attributes(element)
        for child in list(element):
            if not isinstance(child.tag, str) or not _kept(child):
                element.remove(child)
                continue
            stack.append((child, depth + 1))


def _kept(element: ET.Element) -> bool:
    """Whether a child stays: SVG (or unqualified) and not scripted or foreign; one
    that refers to something keeps only a reference inside the document (an `#id`)
    or, for images, inline raster data."""
    if _namespace(element.tag) not in (SVG_NS, ""):
        return False  # XHTML, MathML...: foreign content
    name = _local(element.tag)
    if name in DROPPED:
        return False
    if name in REFERRING:
        return any(
            _local(key) == "href" and _allowed_href(name, value)
            for key, value in element.attrib.items()
        )
    return True


def _allowed_href(name: str, value: str) -> bool:
    if name == "image":
        return _inline_image(value)
    return value.strip().startswith("#") or (name == "feImage" and _inline_image(value))


def _clean_attributes(element: ET.Element) -> None:
    name = _local(element.tag)
    for key, value in list(element.attrib.items()):
        attr = _local(key)
        if attr in ("href", "src"):
            if not _allowed_href(name, value):
                del element.attrib[key]
        elif attr == "base" or attr.lower().startswith("on"):
            del element.attrib[key]  # xml:base, event handlers
        elif attr == "style" or "url(" in value.lower() or "@import" in value.lower():
            element.attrib[key] = clean_css(value)


def clean_css(css: str) -> str:
    """A style sheet or style attribute without `@import` and with `url(…)` kept only
    for `#id` references (anything else becomes `none`)."""
    return _URL.sub(_keep_internal_url, _IMPORT.sub("", css))


def _keep_internal_url(match: re.Match[str]) -> str:
    return match.group(0) if match.group(2).strip().startswith("#") else "none"


def _inline_image(value: str) -> bool:
    """A `data:` URI holding a raster image (by its bytes), within the size bound."""
    match = _DATA_URI.match(value)
    if match is None:
        return False
    payload = re.sub(r"\s+", "", match.group(1))
    if len(payload) > MAX_INLINE_IMAGE * 4 // 3 + 4:
        return False
    try:
        decoded = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return False
    return is_raster(decoded)


def _check_cost(root: ET.Element) -> None:
    """Refuse an SVG whose drawing, with each `<use>` replaced by what it names,
    passes MAX_DRAWN elements (a chain of uses multiplies: ten levels of ten uses
    draw 10**10), or that uses more than MAX_FILTER_STEPS filter primitives. Walked
    without recursion; a use that loops back is refused too."""
    ids = {value: element for element in root.iter() if (value := element.get("id"))}
    filters = sum(1 for element in root.iter() if _local(element.tag).startswith("fe"))
    if filters > MAX_FILTER_STEPS:
        raise SvgRefused(f"the SVG has more than {MAX_FILTER_STEPS} filter steps")
    cost: dict[int, int] = {}
    busy: set[int] = set()
    stack: list[tuple[ET.Element, bool]] = [(root, False)]
    while stack:
        element, expanded = stack.pop()
        key = id(element)
        parts = list(element)
        target = _use_target(element, ids)
        if target is not None:
            parts.append(target)
        if not expanded:
            if key in cost:
                continue
            if key in busy:
                raise SvgRefused("a <use> in the SVG refers back to itself")
            busy.add(key)
            stack.append((element, True))
            stack.extend((part, False) for part in parts if id(part) not in cost)
            continue
        for part in parts:
            if id(part) in busy and id(part) not in cost:
                raise SvgRefused("a <use> in the SVG refers back to itself")
        total = 1 + sum(cost.get(id(part), 0) for part in parts)
        if total > MAX_DRAWN:
            raise SvgRefused(f"the SVG would draw more than {MAX_DRAWN:,} elements")
        cost[key] = total
        busy.discard(key)


def _use_target(element: ET.Element, ids: dict[str, ET.Element]) -> ET.Element | None:
    if _local(element.tag) != "use":
        return None
    for key, value in element.attrib.items():
        if _local(key) == "href" and value.strip().startswith("#"):
            return ids.get(value.strip()[1:])
    return None
