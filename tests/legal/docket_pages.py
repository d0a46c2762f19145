"""A district court's order sheet (docket) drawn as a scan: a date column of any width beside the proceedings,
some rows wrapped onto two lines, under the court's title lines. Written for the scan tests (not from seeds/)."""

import io
from datetime import date

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
TITLE = ("IN THE COURT OF THE JUNIOR CIVIL JUDGE, VIKARABAD", "O.S. No. 231 of 2024",
         "Pendyala Ramesh ... Plaintiff  Vs.  Kommineni Sarala ... Defendant")
ROWS: list[tuple[date, list[str], date]] = [
    (date(2026, 6, 2), ["Plaint presented. Summons to defendant,", "returnable by 15.07.2026."], date(2026, 7, 15)),
    (date(2026, 7, 15), ["Defendant absent. Fresh summons. Call on 12.08.2026."], date(2026, 8, 12)),
    (date(2026, 8, 12), ["Defendant appeared through counsel.", "Written statement time. Call on 09.09.2026."],
     date(2026, 9, 9)),
    (date(2026, 9, 9), ["WS filed. For issues on 07.10.2026."], date(2026, 10, 7)),
    (date(2026, 10, 7), ["Issues framed. PW1 chief on 28.10.2026."], date(2026, 10, 28)),
    (date(2026, 10, 28), ["PW1 chief filed, exhibits A1 to A6 marked.", "Cross on 18.11.2026."], date(2026, 11, 18)),
    (date(2026, 11, 18), ["PW1 cross-examined in part. Further cross", "on 02.12.2026."], date(2026, 12, 2)),
    (date(2026, 12, 2), ["PW1 cross concluded. Call on 16.12.2026 for PW2."], date(2026, 12, 16)),
]


def docket_image(text_at: int = 520, width: int = 1500) -> Image.Image:
    """The order sheet as a greyscale scan, the proceedings starting `text_at` pixels from the left edge."""
    font = ImageFont.truetype(FONT, 26)
    lines = 6 + sum(len(text) + 1 for _, text, _ in ROWS)
    image = Image.new("L", (width, 60 + 44 * lines), 255)
    draw = ImageDraw.Draw(image)
    y = 40
    for line in TITLE:
        draw.text((200, y), line, font=font, fill=20)
        y += 44
    draw.text((40, y + 10), "Date", font=font, fill=20)
    draw.text((text_at, y + 10), "Proceedings", font=font, fill=20)
    y += 64
    for day, text, _ in ROWS:
        draw.text((40, y), f"{day:%d.%m.%Y}", font=font, fill=20)
        for line in text:
            draw.text((text_at, y), line, font=font, fill=20)
            y += 44
        y += 22
    return image


def scanned_pdf(text_at: int = 520) -> bytes:
    """The order sheet as a PDF whose only page is the scan (no text layer), as certified copies arrive."""
    buffer = io.BytesIO()
    docket_image(text_at).save(buffer, format="PDF", resolution=150)
    return buffer.getvalue()


def photo(text_at: int) -> bytes:
    buffer = io.BytesIO()
    docket_image(text_at).save(buffer, format="PNG")
    return buffer.getvalue()
