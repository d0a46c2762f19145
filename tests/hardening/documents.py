"""Hostile and scanned documents, written fresh by code: PDFs built byte by byte, scans drawn with Pillow."""

import io
import zlib
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF from numbered object bodies (object 1 is the catalog), with a correct cross-reference table."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def _stream(data: bytes, compress: bool = True) -> bytes:
    if compress:
        packed = zlib.compress(data, 9)
        return b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream"
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def text_pdf(page_lines: list[list[str]], shared_content: bool = False) -> bytes:
    """A PDF with a text layer, one page per list of lines; `shared_content` makes every page draw the
    first page's content stream (a 2,000-page PDF in a few kilobytes)."""
    count = len(page_lines)
    # 1 catalog, 2 pages, 3 font, then per page: page object and content stream.
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(count))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for index, lines in enumerate(page_lines):
        content_ref = 5 if shared_content else 5 + 2 * index
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >>"
                       b" /Contents %d 0 R >>" % content_ref)
        drawn = lines if not shared_content or index == 0 else ["-"]
        ops = [b"BT /F1 11 Tf 40 800 Td 13 TL"]
        ops += [b"(" + line.encode("latin-1").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
                + b") Tj T*" for line in drawn]
        ops.append(b"ET")
        objects.append(_stream(b"\n".join(ops)))
    return _pdf(objects)


def text_bomb_pdf(chars: int = 1_700_000) -> bytes:
    """A few kilobytes of PDF whose one page unpacks to `chars` characters of text (repetitive, so it packs)."""
    line = "HEARING 18/06/2025 O.S. 88/2023 adjourned to 16/07/2025 for evidence. "
    lines = [line] * (chars // len(line) + 1)
    return text_pdf([lines])


def scan_image(lines: list[str], width: int = 1240) -> Image.Image:
    """A page of printed text as a greyscale image (what a phone scanner app puts into a PDF)."""
    font = ImageFont.truetype(str(_FONT), 28)
    image = Image.new("L", (width, 120 + 48 * len(lines)), 255)
    draw = ImageDraw.Draw(image)
    for row, text in enumerate(lines):
        draw.text((60, 60 + 48 * row), text, font=font, fill=20)
    return image


def scanned_pdf(pages: list[list[str]], dpi: int = 150) -> bytes:
    """An image-only PDF: each page a picture of its lines, no text layer at all."""
    images = [scan_image(lines).convert("RGB") for lines in pages]
    out = io.BytesIO()
    images[0].save(out, format="PDF", save_all=True, append_images=images[1:], resolution=dpi)
    return out.getvalue()
